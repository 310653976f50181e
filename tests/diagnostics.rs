//! Bad input gets a clear diagnostic and nothing panics. Each file in tests/bad/ is something a
//! designer, rules lawyer or modder could write by mistake; its rendered diagnostics (miette,
//! no colour, fixed width) are snapshotted, and each must report at least one error.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::{Project, game_of, peek};
use arbiter::diag::{self, Diag};
use arbiter::runtime::decks;
use arbiter::scenario::{failure_diag, run_file};
use arbiter::syntax::ast::Item;
use std::path::Path;

fn project() -> Project {
    Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf())
}

/// Everything a user would see for this file: check errors, deck problems, scenario failures.
fn report(path: &Path) -> String {
    let project = project();
    let is_scenario = peek(&project, path).is_ok_and(|f| f.items.iter().any(|i| matches!(i.node, Item::Scenario(_))));
    if is_scenario {
        return match run_file(&project, path) {
            Err(e) => e.to_string(),
            Ok(outcomes) => {
                let mut out = String::new();
                for o in outcomes {
                    let ds: Vec<Diag> = o.outcome.failures.iter().map(failure_diag).collect();
                    out.push_str(&diag::render(&ds, &o.files));
                }
                out
            }
        };
    }
    let game = game_of(&project, path).unwrap_or_else(|| "bsg-ccg".to_string());
    let loaded = project.load(&game, &[], &[path.to_path_buf()]);
    match &loaded.result {
        Err(d) => diag::render(d, &loaded.files),
        Ok(built) => {
            let mut ds = built.warnings.clone();
            let here = loaded.files.iter().find(|f| f.name == project.display(path)).map(|f| f.id);
            for deck in &built.game.decks {
                if Some(deck.span.file) == here {
                    ds.extend(decks::validate(&built.game, deck));
                }
            }
            diag::render(&ds, &loaded.files)
        }
    }
}

/// The outcomes of `text` run as a scenario file (written into a folder of its own, named after
/// `tag`, and removed after); the test fails where the file does not check.
fn run_text(tag: &str, text: &str) -> Vec<arbiter::scenario::FileOutcome> {
    let dir = std::env::temp_dir().join(format!("arbiter-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{tag}.arb"));
    std::fs::write(&path, text).unwrap();
    let outcomes = run_file(&project(), &path);
    std::fs::remove_dir_all(&dir).unwrap();
    outcomes.unwrap_or_else(|e| panic!("the file does not check: {e}"))
}

#[test]
fn bad_files_get_clear_diagnostics() {
    let mut count = 0;
    insta::glob!("bad/*.arb", |path| {
        count += 1;
        let text = report(path);
        assert!(text.contains('×'), "{} should produce an error, got:\n{text}", path.display());
        insta::assert_snapshot!(text);
    });
    assert!(count >= 25, "at least 25 bad-input fixtures, found {count}");
}

/// `if` run into a name in an expression (`ifx > y then ..`) is one name, so the parse fails at
/// the `then`: the word itself is underlined and named, as a keyword run into a name is when the
/// file parses.
#[test]
fn an_if_run_into_a_name_is_said_of_the_word() {
    let text = report(&project().root.join("tests/bad/88-if-run-into-a-name.arb"));
    assert!(text.contains("`ifx` reads as the keyword `if` run into `x`"), "{text}");
    assert!(text.contains("put a space after `if`"), "{text}");
}

/// A function may be used before the line that defines it: its result, not known yet where it is
/// used, is not taken for a number (`f(..) + "text"` joined texts once it was defined further on).
#[test]
fn a_function_used_before_its_definition_is_not_taken_for_a_number() {
    let dir = std::env::temp_dir().join(format!("arbiter-diag-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("order.arb");
    std::fs::write(
        &path,
        "for tic-tac-toe\n\n\
         func order.first(names: list text) = order.join(names, 0) + \"!\"\n\
         func order.both(names: list text) = order.join(names, 0) + names\n\
         func order.join(words: list text, i: int) = if i >= count(words) then \"\" else nth(words, i) + \", \" + order.join(words, i + 1)\n",
    )
    .unwrap();
    let out = report(&path);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!out.contains("expected a number"), "{out}");
    assert!(out.trim().is_empty(), "no problems: {out}");
}

/// A trigger on an event that no rule or card raises can never fire, and `check` says so: a
/// designer who wrote it would otherwise get no sign (issue 29). The same trigger on an event the
/// rules raise gets no warning.
#[test]
fn a_trigger_on_an_event_nothing_raises_is_warned() {
    let dir = std::env::temp_dir().join(format!("arbiter-diag-unheard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let card = |event: &str| {
        format!(
            "for bsg-ccg\n\nevent fixture.never_raised(c: card)\n\n\
             card \"Deaf Pilot\" sample \"a fixture\" {{\n  type ship\n  power 1\n  \
             when {event}(u, w) if u == self {{\n    call gain_influence(you, 1)\n  }}\n}}\n"
        )
    };
    let path = dir.join("unheard.arb");
    std::fs::write(&path, card("fixture.never_raised").replace("(u, w)", "(u)")).unwrap();
    let unheard = report(&path);
    std::fs::write(&path, card("challenge_lost")).unwrap();
    let heard = report(&path);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(unheard.contains("this trigger can never fire: no rule or card raises `fixture.never_raised`"), "{unheard}");
    assert!(unheard.contains("unheard.arb:8"), "the warning is at the trigger: {unheard}");
    assert!(heard.trim().is_empty(), "a trigger on a raised event is not warned: {heard}");
}

/// Every error of a file is told at once, in the order of its lines: the checker finds a kind's
/// unknown field type (while declaring) before the bodies' mistakes above it (while lowering).
#[test]
fn errors_are_told_in_the_order_of_their_lines() {
    let dir = std::env::temp_dir().join(format!("arbiter-diag-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("order.arb");
    let text = "for tic-tac-toe\n\nfunc a() = nosuch_fn(1)\n\nfunc b() = [s in board where s.colour == 1]\n\n\
                kind widget {\n  field size: nosuchtype\n}\n";
    std::fs::write(&path, text).unwrap();
    let told = report(&path);
    std::fs::remove_dir_all(&dir).unwrap();
    let at = |line: &str| told.find(&format!("order.arb:{line}")).unwrap_or_else(|| panic!("no error at line {line}: {told}"));
    assert!(at("3:") < at("5:") && at("5:") < at("8:"), "errors in line order: {told}");
}

/// `check` tells every error of a house-rule file at once: a variant that names a constant the
/// game lacks (an error of the game with every variant declared) no longer hides a wrong value in
/// another variant (found when that variant is switched on), and the two come in line order (a
/// modder's trial fixed one to meet the next).
#[test]
fn every_variants_errors_are_told_with_the_games() {
    use arbiter::check_files::check_files;
    let dir = std::env::temp_dir().join(format!("arbiter-diag-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("house.arb");
    let text = "for starship-battles\n\nvariant pb2 \"Point blank\" {\n  set short_range_modifier = \"two\"\n}\n\n\
                variant glim \"More G\" {\n  set g_limit = 6\n}\n";
    std::fs::write(&path, text).unwrap();
    let checked = check_files(&project(), std::slice::from_ref(&path), None, &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    let told = checked.rendered();
    let at = |needle: &str| told.find(needle).unwrap_or_else(|| panic!("`{needle}` is not told: {told}"));
    assert!(at("house.arb:4:") < at("house.arb:8:"), "both, in line order: {told}");
    assert!(
        told.contains("expected a number, found a text") && told.contains("variant sets const `g_limit`, which does not exist"),
        "{told}"
    );
    assert_eq!(checked.errors(), 2, "{told}");
}

/// A house rule that takes the name of one of the game's variants is told where that one is.
#[test]
fn a_variant_declared_twice_points_at_the_first() {
    use arbiter::check_files::check_files;
    let dir = std::env::temp_dir().join(format!("arbiter-diag-twice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("house.arb");
    std::fs::write(&path, "for starship-battles\n\nvariant aiming \"My aiming\" {\n  set short_range_modifier = 2\n}\n").unwrap();
    let checked = check_files(&project(), std::slice::from_ref(&path), None, &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    let told = checked.rendered();
    assert!(told.contains("variant `aiming` is declared twice"), "{told}");
    assert!(told.contains("first declaration: rulebooks/starship-battles/variants/aiming.arb:"), "{told}");
}

/// A scenario file that cannot be run is a diagnostic: its first error, in its place, with its
/// help; printed, every diagnostic rendered with its source, as before.
#[test]
fn a_scenario_file_that_does_not_check_is_a_diagnostic_with_its_message_and_help() {
    use arbiter::scenario::ScenarioFileError;
    let project = project();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad/21-unknown-variant.arb");
    let Err(e) = run_file(&project, &path) else { panic!("the file should not check") };
    assert!(matches!(e, ScenarioFileError::Diags { .. }), "{e:?}");
    assert!(e.to_string().contains("× unknown variant `no-sympathiser`"), "{e}");
    let d = Diag::from(e);
    assert_eq!(d.message, "unknown variant `no-sympathiser`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("this game's variants")), "{:?}", d.help);
    assert_ne!(d.span, arbiter::syntax::span::Span::NONE);

    let dir = std::env::temp_dir().join(format!("arbiter-diag-scenario-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gameless = dir.join("gameless.arb");
    std::fs::write(&gameless, "scenario gameless \"A scenario that names no game\" {\n  players 2\n  expect true\n}\n").unwrap();
    let result = run_file(&project, &gameless);
    let missing = run_file(&project, &dir.join("gone.arb"));
    std::fs::remove_dir_all(&dir).unwrap();
    let Err(e) = result else { panic!("a scenario with no game should not run") };
    assert_eq!(e.to_string(), format!("scenario `gameless` in {} does not say which game it is for", gameless.display()));
    let d = Diag::from(e);
    assert!(d.message.ends_with("does not say which game it is for"), "{}", d.message);
    assert!(d.help.is_some_and(|h| h.contains("`game GAME`")));
    let Err(e) = missing else { panic!("a missing file should not run") };
    assert!(matches!(e, ScenarioFileError::Read(_)), "{e:?}");
    assert!(e.to_string().starts_with("cannot read `"), "{e}");
}

/// A mistake far along a very long line is reported with its file, line and column (miette, which
/// draws the source line, panicked past column 65,535).
#[test]
fn a_mistake_far_along_a_long_line_is_reported_by_its_line_and_column() {
    let dir = std::env::temp_dir().join(format!("arbiter-diag-long-line-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long.arb");
    std::fs::write(&path, format!("for tic-tac-toe\n\nfunc f(x: int) = {}@\n", " ".repeat(65_530))).unwrap();
    let out = std::panic::catch_unwind(|| report(&path));
    std::fs::remove_dir_all(&dir).unwrap();
    let out = out.expect("reporting the mistake panicked");
    assert!(out.contains("long.arb:3:65548"), "{out}");
}

/// A place (`x.a.b = ..`, `modify x.a.b += ..`) is as long as an expression may nest deep, at
/// most: a longer one is refused when the file is read (one 50,000 fields long overflowed the
/// stack, or took minutes to check).
#[test]
fn a_place_longer_than_an_expression_may_nest_is_refused() {
    use arbiter::syntax::parse_file;
    use arbiter::syntax::span::FileId;
    for stmt in [format!("modify x{}.b += 1", ".a".repeat(50_000)), format!("x{}.b = 1", ".a".repeat(50_000))] {
        let src = format!("proc p(x: int) {{\n  {stmt}\n}}\n");
        let e = parse_file(FileId::NOWHERE, &src).expect_err("a place 50,000 fields long");
        assert!(e.message.contains("this place has more than 64 fields"), "{}", e.message);
    }
    assert!(parse_file(FileId::NOWHERE, "proc p(x: int) {\n  x.a.b = 1\n}\n").is_ok());
}

/// A file with thousands of mistakes shows the first hundred, drawn, and counts the rest; the
/// summary and an editor still get them all. (Each was drawn, and miette read the file from its
/// start for each: 40,000 mistakes took a minute, and printed 11 MB.)
#[test]
fn thousands_of_mistakes_in_one_file_show_the_first_hundred_and_count_the_rest() {
    use arbiter::check_files::check_files;
    let dir = tempfile::Builder::new().prefix("arbiter-diag-many-").tempdir().unwrap();
    let path = dir.path().join("many.arb");
    let body: String = (0..3000).map(|i| format!("func f{i}() = zz\n")).collect();
    std::fs::write(&path, format!("for tic-tac-toe\n{body}")).unwrap();
    let checked = check_files(&project(), std::slice::from_ref(&path), None, &[]);
    assert_eq!(checked.errors(), 3000, "every mistake is counted");
    assert_eq!(checked.diagnostics().count(), 3000, "and given to an editor");
    let shown = checked.rendered();
    assert_eq!(shown.matches("× unknown name `zz`").count(), diag::SHOWN_PER_FILE, "{}", &shown[shown.len().saturating_sub(600)..]);
    assert!(shown.contains("many.arb:101:14"), "the hundredth is drawn in its place");
    assert!(!shown.contains("many.arb:102:"), "the hundred and first is not");
    assert!(shown.contains("… and 2900 more problems in "), "{}", &shown[shown.len().saturating_sub(600)..]);
    // `diag::render`, which `play`, `sim` and the scenario runner use, shows as many.
    let loaded = project().load("tic-tac-toe", &[], std::slice::from_ref(&path));
    let Err(ds) = &loaded.result else { panic!("the file should not check") };
    let rendered = diag::render(ds, &loaded.files);
    assert_eq!(rendered.matches("× unknown name `zz`").count(), diag::SHOWN_PER_FILE);
    assert!(rendered.ends_with(", not shown (the first 100 of a file are)\n"), "{}", &rendered[rendered.len().saturating_sub(300)..]);
}

/// A place over many lines is drawn by its first line, its label saying where it ends: nested
/// mistakes each drew every line of their place (16 KB of source printed 45 MB).
#[test]
fn a_place_over_many_lines_is_drawn_by_its_first_line() {
    let dir = tempfile::Builder::new().prefix("arbiter-diag-long-place-").tempdir().unwrap();
    let path = dir.path().join("nested.arb");
    let depth = 30;
    std::fs::write(&path, format!("for tic-tac-toe\nfunc h() = {}1{}\n", "[not\n".repeat(depth), "]".repeat(depth))).unwrap();
    let out = report(&path);
    let reports: Vec<&str> = out.split("  × ").skip(1).collect();
    assert_eq!(reports.len(), depth, "{out}");
    for r in &reports {
        let drawn = r.lines().filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())).count();
        assert!(drawn <= 6, "a report draws a few lines, not its whole place:\n{r}");
    }
    let last_line = depth + 2;
    assert!(out.contains(&format!("wrong kind of value (runs on to line {last_line})")), "{out}");
    // A place over a few lines is drawn whole, as before.
    let few = dir.path().join("few.arb");
    std::fs::write(&few, "for tic-tac-toe\nfunc h() = [not\n[not\n1]]\n").unwrap();
    let out = report(&few);
    assert!(!out.contains("runs on to line"), "{out}");
    assert!(out.contains("╭─▶") && out.contains("├─▶"), "{out}");
}

/// A game may declare `VARIANT_LIMIT` variants, all its files together: each is compiled and
/// checked with the whole game on its own, and 5,000 in one file took minutes to check. One more
/// is refused where it is written; as many are checked.
#[test]
fn a_game_with_more_variants_than_the_limit_is_refused_where_the_one_too_many_is() {
    use arbiter::budgets::VARIANT_LIMIT;
    use arbiter::check_files::check_files;
    let dir = tempfile::Builder::new().prefix("arbiter-diag-variants-").tempdir().unwrap();
    let path = dir.path().join("house.arb");
    let variants = |n: usize| -> String { (0..n).map(|i| format!("variant v{i} \"Variant {i}\" {{ }}\n")).collect() };
    std::fs::write(&path, format!("for tic-tac-toe\n{}", variants(VARIANT_LIMIT))).unwrap();
    let checked = check_files(&project(), std::slice::from_ref(&path), None, &[]);
    assert_eq!(checked.errors(), 0, "{}", checked.rendered());
    std::fs::write(&path, format!("for tic-tac-toe\n{}", variants(5000))).unwrap();
    let checked = check_files(&project(), std::slice::from_ref(&path), None, &[]);
    let shown = checked.rendered();
    assert_eq!(checked.errors(), 1, "{shown}");
    assert!(shown.contains(&format!("× this game has more than {VARIANT_LIMIT} variants")), "{shown}");
    assert!(shown.contains(&format!("house.arb:{}:9]", VARIANT_LIMIT + 2)), "at the one too many: {shown}");
    // Switching on one past the limit says so (not "unknown variant").
    let checked = check_files(&project(), std::slice::from_ref(&path), None, &["v4000".to_string()]);
    assert!(checked.rendered().contains("variant `v4000` is past the 256 variants a game may have"), "{}", checked.rendered());
}

/// Mistakes on a very long line are each given by file, line and column, without the line (a
/// line of 40,000 `func fN() = zz`, 770 KB, printed 77 MB: the line, once for each mistake shown).
#[test]
fn mistakes_on_a_very_long_line_do_not_print_the_line() {
    let dir = tempfile::Builder::new().prefix("arbiter-diag-one-line-").tempdir().unwrap();
    let path = dir.path().join("one-line.arb");
    let line: Vec<String> = (0..40_000).map(|i| format!("func f{i}() = zz")).collect();
    std::fs::write(&path, format!("for tic-tac-toe\n{}\n", line.join(" "))).unwrap();
    let out = report(&path);
    assert!(out.len() < 60_000, "{} bytes printed", out.len());
    assert!(out.contains("× unknown name `zz`\n   at "), "{}", &out[..out.len().min(600)]);
    assert!(out.contains("one-line.arb:2:13\n"), "{}", &out[..out.len().min(600)]);
}

/// Two places of one mistake far apart in a file (a name declared twice, ten lines apart, deep in
/// the file) are drawn as two snippets, without the lines between them (miette joined them into
/// one when it counted lines from the file's start).
#[test]
fn two_places_far_apart_are_drawn_apart() {
    let dir = tempfile::Builder::new().prefix("arbiter-diag-apart-").tempdir().unwrap();
    let path = dir.path().join("apart.arb");
    let mut text = String::from("for tic-tac-toe\n");
    for i in 0..300 {
        text.push_str(&match i {
            200 | 210 => "const twice: int = 1\n".to_string(),
            _ => format!("const c{i}: int = {i}\n"),
        });
    }
    std::fs::write(&path, text).unwrap();
    let out = report(&path);
    assert!(out.contains("× `twice` is declared twice"), "{out}");
    assert!(out.contains("202 │ const twice") && out.contains("212 │ const twice"), "{out}");
    assert!(!out.contains("206 │"), "the lines between are not drawn: {out}");
}

/// Did-you-mean helps are bounded: a name longer than anyone types gets none (one 30,000 letters
/// long, mistyped, made the help's table of 7 GB), and a compile stops suggesting once its
/// helps have compared `SUGGESTION_BUDGET` letters (8,000 typos of 8,000 names took minutes). The
/// first mistakes still get their help.
#[test]
fn did_you_mean_helps_are_bounded() {
    let dir = tempfile::Builder::new().prefix("arbiter-diag-typos-").tempdir().unwrap();
    let long = dir.path().join("long.arb");
    let n = 30_000;
    std::fs::write(&long, format!("for tic-tac-toe\nfunc a{}() = 1\nfunc g() = a{}c()\n", "b".repeat(n), "b".repeat(n - 1))).unwrap();
    let out = report(&long);
    assert!(out.contains("unknown function `abbb"), "{}", &out[..out.len().min(300)]);
    assert!(!out.contains("did you mean"), "no help for a name that long");

    let typos = dir.path().join("typos.arb");
    let mut text = String::from("for tic-tac-toe\n");
    for i in 0..8000 {
        text.push_str(&format!("func longname_number_{i}() = 1\n"));
    }
    for i in 0..8000 {
        text.push_str(&format!("func u{i}() = longname_numbr_{i}()\n"));
    }
    std::fs::write(&typos, text).unwrap();
    let out = report(&typos);
    assert!(out.contains("did you mean `longname_number_0`?"), "{}", &out[..out.len().min(600)]);
    assert!(out.contains("… and 7900 more problems"), "{}", &out[out.len().saturating_sub(300)..]);
}

/// A failure shows a huge value or log in part: a failed `expect no log` counts the events it
/// found and shows ten, each cut to 200 characters (100,000 long events printed 100 MB), a value in a message
/// is cut to a few hundred characters, and `repeat`, `pad` and `pad_left` make no text over the
/// text budget (they were held only to the memory budget: a 100 MB text was made, then printed).
#[test]
fn failures_show_huge_values_and_logs_in_part() {
    let dir = tempfile::Builder::new().prefix("arbiter-diag-huge-").tempdir().unwrap();
    let path = dir.path().join("huge.arb");
    std::fs::write(
        &path,
        "scenario noisy \"A long log\" {\n  game tic-tac-toe\n  players 2\n  let t = repeat(\"x\", 1000)\n  \
         for i in range(1, 20000) {\n    log \"{t}\"\n  }\n  expect no log \"x\"\n}\n\n\
         scenario valued \"A long value\" {\n  game tic-tac-toe\n  players 2\n  expect count(repeat(\"y\", 1000000)) == 1\n}\n\n\
         scenario padded \"A text over the budget\" {\n  game tic-tac-toe\n  players 2\n  expect pad(\"x\", 100000000) == \"y\"\n}\n\n\
         scenario compared \"A huge list compared\" {\n  game tic-tac-toe\n  players 2\n  let t = repeat(\"A\", 1000000)\n  \
         let xs = [t for i in range(1, 20000)]\n  expect xs == []\n}\n\n\
         scenario offered \"Huge options\" {\n  game tic-tac-toe\n  players 2\n  let t = repeat(\"A\", 1000000)\n  \
         let c = choose first(players()) \"Pick\" from [[t, i] for i in range(1, 2000)]\n}\n",
    )
    .unwrap();
    let outcomes = run_file(&project(), &path).unwrap_or_else(|e| panic!("{e}"));
    let failure = |id: &str| {
        let o = outcomes.iter().find(|o| o.outcome.id == id).unwrap_or_else(|| panic!("no scenario {id}"));
        let f = o.outcome.failures.first().unwrap_or_else(|| panic!("{id} should fail"));
        format!("{} | {:?} | {:?} | {:?}", f.message, f.expected, f.actual, f.help)
    };
    let noisy = failure("noisy");
    assert!(noisy.len() < 3_000, "{} bytes", noisy.len());
    assert!(noisy.contains("Some(\"20000 events, the first 10: xxx"), "{}", &noisy[..noisy.len().min(300)]);
    let valued = failure("valued");
    assert!(valued.len() < 1_000, "{valued}");
    assert!(valued.contains("found text `yyy") && valued.contains("… (999800 more characters)`"), "{valued}");
    let padded = failure("padded");
    assert!(padded.contains("a text longer than 1 MiB"), "{padded}");
    // A list of 20,000 texts of a megabyte is shown by its first few thousand bytes, never made
    // whole (it took 24 GB).
    let compared = failure("compared");
    assert!(compared.len() < 5_000 && compared.contains("`xs` is AAAA"), "{}", &compared[..compared.len().min(300)]);
    // Options whose labels would pass the text budget together are refused before they are made
    // (2,000 options of a megabyte each took 20 GB a decision).
    let offered = failure("offered");
    assert!(offered.contains("the options' labels are longer than 1 MiB together"), "{offered}");
}

/// A file that begins with a byte-order mark (some editors write one) reads as the same file
/// without it: it was refused with "expected something else, found `\u{feff}for`".
#[test]
fn a_byte_order_mark_at_the_start_is_read_past() {
    let dir = tempfile::Builder::new().prefix("arbiter-diag-bom-").tempdir().unwrap();
    let path = dir.path().join("bom.arb");
    std::fs::write(&path, "\u{feff}for tic-tac-toe\n\nfunc marked() = 1\n").unwrap();
    let out = report(&path);
    assert!(out.trim().is_empty(), "no problems: {out}");
    std::fs::write(&path, "for tic-tac-toe\n\u{feff}func marked() = 1\n").unwrap();
    assert!(report(&path).contains('×'), "a mark anywhere else is a mistake");
    std::fs::write(&path, "  \u{feff}for tic-tac-toe\n").unwrap();
    assert!(arbiter::check::project::for_line("  \u{feff}for tic-tac-toe\n").is_none(), "even after spaces");
    // A marked file's game is found from its text alone (for one that does not parse).
    assert_eq!(arbiter::check::project::for_line("\u{feff}for tic-tac-toe\nfunc f( = 1\n").as_deref(), Some("tic-tac-toe"));
}

/// Each file a house file uses that cannot be read is reported, at the `uses` line that names it
/// (the second was skipped: both had no canonical path, which made them the same file; the first
/// was shown at line 1 of the file that does not exist).
#[test]
fn every_used_file_that_cannot_be_read_is_reported() {
    use arbiter::check_files::check_files;
    let dir = tempfile::Builder::new().prefix("arbiter-diag-uses-").tempdir().unwrap();
    let path = dir.path().join("house.arb");
    std::fs::write(&path, "for tic-tac-toe\nuses \"gone-one.arb\"\nuses \"gone-two.arb\"\n").unwrap();
    let checked = check_files(&project(), std::slice::from_ref(&path), None, &[]);
    let shown = checked.rendered();
    assert_eq!(checked.errors(), 2, "{shown}");
    assert!(shown.contains("gone-one.arb`: ") && shown.contains("gone-two.arb`: "), "{shown}");
    // Each at the `uses` line that names it.
    assert!(shown.contains("house.arb:2:6]") && shown.contains("house.arb:3:6]"), "{shown}");
}

/// A second declaration of a function, a check or a procedure is read with its own parameters:
/// its own mistakes are told, and its parameters are not "unknown names" (each was read with the
/// first declaration's parameters, and a procedure's body replaced the first's).
#[test]
fn a_second_declaration_is_read_with_its_own_parameters() {
    let path = project().root.join("tests/bad/67-a-second-declaration-is-read-as-itself.arb");
    let out = report(&path);
    for name in ["bump", "marked", "announce"] {
        assert!(out.contains(&format!("× `{name}` is declared twice")), "{out}");
    }
    assert!(out.contains("× expected a number, found true or false"), "the second `bump`'s own mistake: {out}");
    assert!(!out.contains("unknown name"), "{out}");
    // A function named like a built-in is read the same way: its mistakes are its own.
    let dir = tempfile::Builder::new().prefix("arbiter-diag-builtin-").tempdir().unwrap();
    let named = dir.path().join("named.arb");
    std::fs::write(&named, "for tic-tac-toe\n\nfunc nth(k: int) = k + \"one\"\n").unwrap();
    let out = report(&named);
    assert!(out.contains("`nth` is a built-in function"), "{out}");
    assert!(out.contains("expected a number, found a text"), "{out}");
}

/// `check --game G` gives the game of files that do not tell it; a file that tells its own (by its
/// folder, its `for` line or its scenario's `game`) is checked with that game. (`--game` checked
/// every file as G: `check --game tic-tac-toe` found 1,576 false errors in the repository.)
#[test]
fn check_game_flag_is_for_files_that_do_not_tell_their_game() {
    use arbiter::check_files::check_files;
    let p = project();
    let own = [p.root.join("rulebooks/bsg-ccg"), p.root.join("tests/examples/starship-battles"), p.root.join("tests/rulings/connect-four")];
    let checked = check_files(&p, &own, Some("tic-tac-toe"), &[]);
    assert!(checked.files > 20, "the folders' files are checked");
    assert_eq!(checked.errors(), 0, "{} {:?}", checked.rendered(), checked.unplaced());
    // A file that says nothing takes the flag's game (and checks with it: its only item is a
    // function of tic-tac-toe's board).
    let dir = tempfile::Builder::new().prefix("arbiter-diag-flag-").tempdir().unwrap();
    let path = dir.path().join("loose.arb");
    std::fs::write(&path, "func centre_mark() = nth(board, 4).mark\n").unwrap();
    let checked = check_files(&p, std::slice::from_ref(&path), Some("tic-tac-toe"), &[]);
    assert_eq!(checked.errors(), 0, "{}", checked.rendered());
    assert!(checked.unplaced().is_empty());
    let checked = check_files(&p, std::slice::from_ref(&path), Some("connect-four"), &[]);
    assert!(checked.rendered().contains("board"), "checked as Connect Four, which has no `board`: {}", checked.rendered());
    let checked = check_files(&p, std::slice::from_ref(&path), None, &[]);
    assert_eq!(checked.unplaced().len(), 1, "without the flag its game is unknown");
}

/// `or` after a whole statement (`expect goes on or ..`, read as if the statement were a
/// condition) says the statement cannot be joined, not that `or` is a name to be renamed.
#[test]
fn a_whole_expect_joined_with_or_says_it_cannot_be_joined() {
    let text = report(&project().root.join("tests/bad/68-expect-goes-on-joined.arb"));
    assert!(text.contains("`expect finished` and `expect goes on` are whole statements"), "{text}");
    assert!(!text.contains("name it"), "{text}");
}

/// `create` of a name held in a text variable says so and shows how to find the definition (a
/// rules lawyer's trial got only "expected a definition, found a text").
#[test]
fn create_of_a_text_says_how_to_find_the_definition() {
    let text = report(&project().root.join("tests/bad/69-create-from-a-name-held-in-a-variable.arb"));
    assert!(text.contains("`create` takes a definition, and this is a text"), "{text}");
    assert!(text.contains("definitions(\"card\") where d.name == n"), "{text}");
}

/// `=` written for `==` in a condition says to compare with `==` (a designer's trial got only
/// "expected `{` or an operator, found `=`").
#[test]
fn equals_in_a_condition_says_to_compare_with_double_equals() {
    let text = report(&project().root.join("tests/bad/70-equals-for-comparison.arb"));
    assert!(text.contains("compare with `==`"), "{text}");
}

/// A card file whose `for` line names no game is told at that line, with the game meant (a
/// designer's trial got the message with no file or line, among three files checked).
#[test]
fn a_for_line_naming_no_game_is_told_at_that_line() {
    let dir = std::env::temp_dir().join(format!("arbiter-diag-for-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.arb");
    std::fs::write(&path, "for bsg-ccgg\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["check"])
        .arg(&path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("no game `bsg-ccgg` in rulebooks/") && text.contains("mine.arb:1:5"), "{text}");
    assert!(text.contains("did you mean `bsg-ccg`?"), "{text}");
}

/// Output closed before the program is done (`arbiter check FILE | head -1`): the program ends
/// with the code a shell gives a program a closed pipe stops (141), never 0 ("all went well"),
/// and never a panic (101), whichever of its outputs is closed (a designer's trial found both).
#[test]
fn closed_output_ends_with_141_never_success_nor_panic() {
    use std::process::{Command, Stdio};
    for (stdout_closed, stderr_closed) in [(true, false), (true, true)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["check", "tests/bad/06-misspelled-field.arb"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(if stderr_closed { Stdio::piped() } else { Stdio::null() })
            .spawn()
            .unwrap();
        if stdout_closed {
            drop(child.stdout.take());
        }
        if stderr_closed {
            drop(child.stderr.take());
        }
        let code = child.wait().unwrap().code();
        assert_eq!(code, Some(141), "stdout closed, stderr closed: {stderr_closed}");
    }
}

/// `expect goes on` says the game has no result; `expect not finished`, which reads as the
/// opposite of `expect finished` and is not (both hold once a step is done and the game goes on:
/// a rules lawyer's trial tripped on it), still checks the same, with a warning that names the
/// spelling to use.
#[test]
fn expect_not_finished_is_read_as_goes_on_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("arbiter-diag-goes-on-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("goes-on.arb");
    std::fs::write(
        &path,
        "scenario goes-on \"The game goes on after a mark\" {\n  game tic-tac-toe\n  players 2\n  \
         run setup.game()\n  run turn.play()\n  answer P1 \"centre\"\n  expect finished\n  expect goes on\n  expect not finished\n}\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .arg(&path)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    };
    let (checked, check_out) = run(&["check"]);
    let (tested, test_out) = run(&["test"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(checked, Some(0), "a warning only: {check_out}");
    assert_eq!(check_out.matches("`expect not finished` is not the opposite of `expect finished`").count(), 1, "{check_out}");
    assert!(check_out.contains("goes-on.arb:9") && check_out.contains("write `expect goes on`"), "{check_out}");
    assert_eq!(tested, Some(0), "`expect finished` and `expect goes on` both hold here: {test_out}");
}

/// A keyword is a whole word: a name that begins with one (`trueish`, `falsehood`, `nonempty`,
/// `yourself`, `selfish`, `process`) is that name, not the keyword and the rest (`true ish`,
/// `proc ess`), and the keywords themselves still read as keywords.
#[test]
fn a_name_that_begins_with_a_keyword_is_a_name() {
    let outcomes = run_text(
        "keyword-names",
        r#"for tic-tac-toe
const trueish: int = 1
const falsehood: int = 2
const nonempty: int = 3
const yourself: int = 4
const selfish: int = 5
const process: int = 6
const total: int = trueish + falsehood + nonempty + yourself + selfish + process
func keywords_still() = if true then none == none and not false else false
scenario names "names that begin with keywords" {
  game tic-tac-toe
  players 2
  expect total == 21
  expect keywords_still()
}
"#,
    );
    assert_eq!(outcomes.len(), 1);
    let failures: Vec<String> = outcomes[0].outcome.failures.iter().map(|f| failure_diag(f).message).collect();
    assert!(failures.is_empty(), "{failures:?}");
}

/// A keyword run into the word after it is refused where it is, not read as the keyword and a
/// name (`returnx` was `return x`); a text's escapes (`\n` then letters) are no such place.
#[test]
fn a_keyword_run_into_the_next_word_is_refused() {
    use arbiter::syntax::span::FileId;
    let refused = [
        ("for tic-tac-toe\nproc p(x: int) {\n  returnx\n}\n", "`returnx` reads as the keyword `return` run into `x`"),
        ("for tic-tac-toe\nfunc f(x: int) = if x > 1 thenx else 2\n", "`thenx` reads as the keyword `then` run into `x`"),
        ("for tic-tac-toe\nproc p(c: int) {\n  movec to board\n}\n", "`movec` reads as the keyword `move` run into `c`"),
        ("for tic-tac-toe\nfuncf(x: int) = x\n", "`funcf` reads as the keyword `func` run into `f`"),
        ("for tic-tac-toe\nfunc f(x: int) = x == 2and x > 1\n", "`2and` reads as the number `2` run into `and`"),
        ("for tic-tac-toe\nfunc f(x: int) = if x > 1 then 1else 2\n", "`1else` reads as the number `1` run into `else`"),
    ];
    for (text, message) in refused {
        let e = arbiter::syntax::parse_file(FileId::NOWHERE, text).err().unwrap_or_else(|| panic!("accepted: {text}"));
        assert_eq!(e.message, message);
        assert!(e.help.as_deref().is_some_and(|h| h.starts_with("put a space after")), "{:?}", e.help);
    }
    // Two words of one phrase run together: refused, with the phrase to write.
    let phrases = [
        ("proc p(c: int) {\n  if c > 1 {\n    return\n  } elseif c > 0 {\n    return\n  }\n}", "else if"),
        ("proc p() {\n  let o = create \"x\" in board ownedby P1\n}", "owned by"),
        ("proc p() {\n  enddraw \"tie\"\n}", "end draw"),
        ("proc p(c: square) {\n  move c to board faceup\n}", "face up"),
        ("proc p(c: square) {\n  move c to board facedown\n}", "face down"),
        ("zone pile perplayer holds square\nconst n: int = 1", "per player"),
        ("zone pile perplayer holds square", "per player"),
        ("zone pile perplayer", "per player"),
        ("proc p() {\n  let s = choose P1 \"squares\" upto 2 from board\n}", "up to"),
        ("kind token {\n  activein board\n}", "active in"),
        ("replace r {\n  insteadof setup.game() do {\n  }\n}", "instead of"),
        ("replace r {\n  instead of setup.game() optionalby P1 \"Replace?\" do {\n  }\n}", "optional by"),
        (
            "kind token {\n  ability action\n}\ntoken \"t\" {\n  action {\n    target t from board chosenby P1\n    do {\n    }\n  }\n}",
            "chosen by",
        ),
        ("proc p(c: int) {\n  if c > 1 {\n    return\n  } elseif(c > 0) {\n    return\n  }\n}", "else if"),
    ];
    for (body, phrase) in phrases {
        let text = format!("for tic-tac-toe\n{body}\n");
        let e = arbiter::syntax::parse_file(FileId::NOWHERE, &text).err().unwrap_or_else(|| panic!("accepted: {text}"));
        let glued = phrase.replace(' ', "");
        assert_eq!(
            e.help.as_deref(),
            Some(format!("if `{glued}` is meant as `{phrase}`, it is two words: write `{phrase}`").as_str()),
            "{text}"
        );
    }
    // Said of the word run together, underlined, whatever the parser expected after it.
    let text = "for tic-tac-toe\nproc p(c: square) {\n  move c to board faceup\n  call setup.game()\n}\n";
    let e = arbiter::syntax::parse_file(FileId::NOWHERE, text).err().unwrap_or_else(|| panic!("accepted: {text}"));
    assert_eq!(e.message, "`faceup` reads as one name, not as the two words `face up`");
    assert_eq!(text.get(e.span.start as usize..e.span.end as usize), Some("faceup"));
    let kept = "for tic-tac-toe\nconst s: text = \"a\\nb\\tc{1}d\\\\e\"\nproc p(x: int) {\n  return x\n}\n";
    assert!(arbiter::syntax::parse_file(FileId::NOWHERE, kept).is_ok());
}

/// `expect no decision P ["prompt part"]`: no decision of P's (with that prompt) so far, asked
/// or taken at once. It fails, naming the first such question, once P has been asked; it holds
/// for a seat never asked, and for a question the rules can ask that P was not asked. (A text no
/// question of the rules holds is refused when the file is checked: tests/bad/87.)
#[test]
fn expect_no_decision_fails_once_the_seat_was_asked() {
    let outcomes = run_text(
        "no-decision",
        r#"for tic-tac-toe

proc side.question() {
  let n = choose first(players()) "Pick a number" from [1, 2]
}

scenario before "nobody asked before the first turn" {
  game tic-tac-toe
  players 2
  run setup.game()
  expect no decision P1
  expect no decision P2
}
scenario asked "P1 asked for a square" {
  game tic-tac-toe
  players 2
  run setup.game()
  run turn.play()
  expect no decision P2
  expect no decision P1 "Pick a number"
  expect no decision P1
}
"#,
    );
    let [before, asked] = outcomes.as_slice() else { panic!("two scenarios: {}", outcomes.len()) };
    assert!(before.outcome.failures.is_empty(), "{:?}", before.outcome.failures.iter().map(|f| &f.message).collect::<Vec<_>>());
    let [failure] = asked.outcome.failures.as_slice() else { panic!("one failure: {:?}", asked.outcome.failures.len()) };
    assert_eq!(failure.message, "P1 was asked");
    assert_eq!(failure.expected.as_deref(), Some("no decision of P1's"));
    assert!(failure.actual.as_deref().is_some_and(|a| !a.is_empty()), "{:?}", failure.actual);
}

/// A keyword a rule may take where a name could follow is taken only as a whole word: names that
/// begin with one are names (`stops`, `decisions`, `logged` in a scenario; a type `listing`; a
/// statement `top_card = c` after a `move`; an object `hidden_role` after a `zone`; a count
/// `orders`), not the keyword and the rest (which `stops += 1` once was: `stop`, then `s += 1`).
#[test]
fn a_name_that_begins_with_an_optional_keyword_is_a_name() {
    use arbiter::syntax::span::FileId;
    let parsed = [
        "for tic-tac-toe\nkind listing { field n: int }\nproc p(x: listing) {\n  return\n}\n",
        "for tic-tac-toe\nproc p(c: int) {\n  move c to board\n  top_card = c\n  put c under board\n  bottom_n = 2\n}\n",
        "for tic-tac-toe\nzone roles shared\nzone sides per player\nhidden_role \"Cylon\" {\n}\n",
        "for tic-tac-toe\nproc p(l: list int, orders: int) {\n  let x = choose you \"x\" orders from l\n  let y = choose secretly_who \"y\" from l\n}\n",
    ];
    for text in parsed {
        if let Err(e) = arbiter::syntax::parse_file(FileId::NOWHERE, text) {
            panic!("{}\n{text}", e.message);
        }
    }
    let outcomes = run_text(
        "optional-keywords",
        r#"scenario names "names that begin with a statement's keyword" {
  game tic-tac-toe
  players 2
  let stops = 0
  stops += 1
  let decisions = 2
  let logged = 3
  expect stops == 1
  expect decisions == 2
  expect logged == 3
}
"#,
    );
    let failures: Vec<String> = outcomes.iter().flat_map(|o| o.outcome.failures.iter().map(|f| failure_diag(f).message)).collect();
    assert_eq!(outcomes.len(), 1);
    assert!(failures.is_empty(), "{failures:?}");
}

/// A control character between the words (a form feed, a vertical tab, an escape) is refused where
/// it is; spaces, tabs and line ends separate words, and a text or a comment may hold any of them
/// (the grammar's spaces are one range, `\t` to space: this keeps the characters between out).
#[test]
fn a_control_character_between_the_words_is_refused_where_it_is() {
    use arbiter::syntax::parse_file;
    use arbiter::syntax::span::FileId;
    for c in ['\u{0B}', '\u{0C}', '\u{1B}', '\u{00}'] {
        let src = format!("proc p() {{\n  log \"a\"{c}\n}}\n");
        let e = parse_file(FileId::NOWHERE, &src).expect_err("a control character in the code");
        assert_eq!(e.message, format!("a control character (U+{:04X}) between the words", u32::from(c)));
        let at = src.find(c).unwrap();
        assert_eq!((e.span.start as usize, e.span.end as usize), (at, at + 1));
        for fine in [format!("proc p() {{\n  log \"a{c}b\"\n}}\n"), format!("proc p() {{ // a{c}b\n  log \"a\" /* {c} */\n}}\n")] {
            assert!(parse_file(FileId::NOWHERE, &fine).is_ok(), "{fine:?}");
        }
    }
    assert!(parse_file(FileId::NOWHERE, "proc p() {\r\n\tlog \"a\"\r\n}\r\n").is_ok()); // tab, CR LF
    // A text left open at its line's end is the mistake told, whatever follows it.
    for after in ["  log \"b\u{0C}\"\n}\n".to_string(), format!("\" {}\n", "(".repeat(100))] {
        let e = parse_file(FileId::NOWHERE, &format!("proc p() {{\n  log \"a\n{after}")).expect_err("an unclosed text");
        assert_eq!(e.message, "this text is not closed");
    }
}
