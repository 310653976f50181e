//! The source map: a file read once has one id, wherever it is used — peeked at on its own (to
//! learn its game), loaded with one game or with several — its tree is parsed once and carries that
//! id in every span, and a span finds its file's text in every game that holds the file.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::{Loaded, Project, peek};
use arbiter::diag;
use arbiter::syntax::span::{FileId, SourceFile};
use std::collections::HashSet;
use std::sync::Arc;

fn project() -> Project {
    Project::at(env!("CARGO_MANIFEST_DIR"))
}

/// A new folder of this test's own (`tag`), for files it writes and removes.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-source-map-{tag}{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file of every span in a tree's `Debug` text (`@FILE:START..END`).
fn span_files(debug: &str) -> Vec<String> {
    debug
        .split('@')
        .skip(1)
        .filter_map(|s| {
            let (file, rest) = s.split_once(':')?;
            let range = rest.split(|c: char| !(c.is_ascii_digit() || c == '.')).next()?;
            (file.chars().all(|c| c.is_ascii_digit()) && range.contains("..")).then(|| file.to_string())
        })
        .collect()
}

/// A file of the project, by its path from the root, among a load's files.
fn loaded_file<'a>(loaded: &'a Loaded, name: &str) -> &'a SourceFile {
    loaded.files.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("{name} is not loaded"))
}

/// Every file of the repository, read twice, is one file with one id (no other file's); peeked at,
/// its tree is the one the map keeps (parsed once), and every span in it names the file.
#[test]
fn every_file_read_has_one_id_and_its_tree_carries_it() {
    let project = project();
    let mut ids = HashSet::new();
    let mut trees = 0;
    for dir in ["stdlib", "rulebooks", "cards", "tests"] {
        for path in Project::arb_files(&project.root.join(dir)) {
            let first = project.read_source(&path).unwrap();
            let again = project.read_source(&path).unwrap();
            assert_eq!(first.id, again.id, "{}: read again, the file has another id", path.display());
            assert!(Arc::ptr_eq(&first.text, &again.text), "{}: read again, the text is kept twice", path.display());
            assert!(first.id != FileId::NOWHERE && first.id != FileId::NONE, "{}", path.display());
            assert!(ids.insert(first.id), "{}: another file has its id {:?}", path.display(), first.id);
            // Files of tests/bad that do not parse have no tree.
            let Ok(tree) = peek(&project, &path) else { continue };
            assert!(Arc::ptr_eq(&tree, &project.sources().parse(&first).unwrap()), "{}: parsed twice", path.display());
            assert_eq!(tree.file, first.id, "{}", path.display());
            let files = span_files(&format!("{tree:?}"));
            let id = format!("{:?}", first.id);
            assert!(!files.is_empty(), "{}: no spans found", path.display());
            assert!(files.iter().all(|f| *f == id), "{}: a span names another file than {id}: {files:?}", path.display());
            trees += 1;
        }
    }
    assert!(trees > 250, "only {trees} files parsed");
    assert_eq!(project.sources().len(), ids.len(), "the map holds a file not read here, or one twice");
}

/// A file changed on disk is a new file with a new id; the old text stays with the old id, so a
/// game loaded from it still shows its own text.
#[test]
fn a_file_read_with_other_text_is_a_new_file() {
    let project = project();
    let dir = scratch("");
    let path = dir.join("edited.arb");
    std::fs::write(&path, "// first\n").unwrap();
    let first = project.read_source(&path).unwrap();
    std::fs::write(&path, "// second\n").unwrap();
    let second = project.read_source(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_ne!(first.id, second.id);
    assert_eq!(first.name, second.name);
    assert_eq!(&*project.sources().get(first.id).unwrap().text, "// first\n");
    assert_eq!(&*project.sources().get(second.id).unwrap().text, "// second\n");
}

/// A project that reads once (`arbiter check`, `arbiter test`: one command's run) asks the disk
/// for a file and a folder the first time only: the file edited afterwards is still the file first
/// read (the same id and text), and a file added to the folder is not listed. The project it was
/// made from, and another made to read once later, see the edit and the new file.
#[test]
fn a_project_that_reads_once_keeps_what_it_first_read() {
    let project = project();
    let dir = scratch("once-");
    let path = dir.join("edited.arb");
    std::fs::write(&path, "// first\n").unwrap();
    let once = project.read_once();
    let first = once.read_source(&path).unwrap();
    assert_eq!(once.listed(&dir), vec![path.clone()]);
    std::fs::write(&path, "// second\n").unwrap();
    std::fs::write(dir.join("added.arb"), "// added\n").unwrap();
    let again = once.read_source(&path).unwrap();
    let listed_again = once.listed(&dir);
    let fresh = project.read_source(&path).unwrap();
    let later = project.read_once();
    let later_text = later.read_source(&path).unwrap();
    let later_listing = later.listed(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(again.id, first.id);
    assert_eq!(&*again.text, "// first\n");
    assert_eq!(listed_again, vec![path.clone()]);
    assert_ne!(fresh.id, first.id);
    assert_eq!(&*fresh.text, "// second\n");
    assert_eq!(later_text.id, fresh.id, "the source map still knows the second text by its id");
    assert_eq!(later_listing, vec![dir.join("added.arb"), path]);
}

/// Each check reads afresh (`arbiter lsp` checks the same project again after every edit): the
/// first check of a file finds no problem, and after the file is edited the next check of the
/// same project finds the mistake.
#[test]
fn each_check_of_a_project_sees_the_files_as_they_are_then() {
    let project = project();
    let dir = scratch("checks-");
    let path = dir.join("mine.arb");
    std::fs::write(&path, "for tic-tac-toe\nconst mine: int = 1\n").unwrap();
    let first = arbiter::check_files::check_files(&project, std::slice::from_ref(&path), None, &[]);
    std::fs::write(&path, "for tic-tac-toe\nconst mine: int = missing_name\n").unwrap();
    let second = arbiter::check_files::check_files(&project, std::slice::from_ref(&path), None, &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(first.errors(), 0, "{}", first.rendered());
    assert_eq!(second.errors(), 1, "{}", second.rendered());
    assert!(second.rendered().contains("missing_name"), "{}", second.rendered());
}

/// Listing a folder follows a link to a folder, as it always has (an entry's type is taken from
/// the folder, and a link's from what it leads to).
#[cfg(unix)]
#[test]
fn a_listing_follows_a_link_to_a_folder() {
    let dir = scratch("link-");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.arb"), "// a\n").unwrap();
    std::fs::write(dir.join("sub").join("b.arb"), "// b\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a rule file\n").unwrap();
    std::os::unix::fs::symlink(dir.join("sub"), dir.join("link")).unwrap();
    let listed = Project::arb_files(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(listed, vec![dir.join("a.arb"), dir.join("link").join("b.arb"), dir.join("sub").join("b.arb")]);
}

/// A scenario file peeked at on its own keeps its id when it is loaded with its game: the
/// scenarios compiled with the game point into it by that id. The standard library, in every
/// game, is the same files (the same ids) in two games; their rulebooks are not; and a rule of the
/// standard library finds the same text through either game.
#[test]
fn a_file_keeps_its_id_in_every_game_that_loads_it() {
    let project = project();
    let path = project.root.join("tests/rulings/tic-tac-toe/rules.arb");
    let peeked = peek(&project, &path).unwrap();
    let ttt = project.load("tic-tac-toe", &[], std::slice::from_ref(&path));
    let c4 = project.load("connect-four", &[], &[]);
    let (Ok(t), Ok(c)) = (&ttt.result, &c4.result) else { panic!("the games check") };
    let here = loaded_file(&ttt, &project.display(&path));
    assert_eq!(here.id, peeked.file);
    assert!(!t.scenarios.is_empty());
    for sc in &t.scenarios {
        assert_eq!(t.game.file(sc.span.file).map(|f| f.name.as_str()), Some(here.name.as_str()), "scenario {}", sc.id);
    }
    for name in ["stdlib/decks.arb", "stdlib/dice.arb", "stdlib/turns.arb"] {
        assert_eq!(loaded_file(&ttt, name).id, loaded_file(&c4, name).id, "{name}");
    }
    assert_ne!(loaded_file(&ttt, "rulebooks/tic-tac-toe/game.arb").id, loaded_file(&c4, "rulebooks/connect-four/game.arb").id);
    let mut shared = 0;
    for p in t.game.procs.iter().filter(|p| t.game.file_name(p.info.span).starts_with("stdlib/")) {
        let q = c.game.procs.iter().find(|q| q.info.name == p.info.name).expect("the same procedure in the other game");
        assert_eq!(p.info.span, q.info.span, "{}", p.info.name);
        assert_eq!(q.info.span.file, p.info.span.file, "{}", p.info.name);
        let text = |g: &arbiter::ir::Game| g.file(p.info.span.file).map(|f| f.slice(p.info.span).to_string());
        assert_eq!(text(&t.game), text(&c.game), "{}", p.info.name);
        assert!(text(&t.game).is_some_and(|s| s.contains(p.info.name.rsplit('.').next().unwrap_or_default())), "{}", p.info.name);
        assert_eq!(t.game.location(p.info.span), c.game.location(q.info.span), "{}", p.info.name);
        shared += 1;
    }
    assert!(shared > 0, "no procedure of the standard library in tic-tac-toe");
}

/// A card file with an error, loaded with two games where it has different places among their
/// files: the diagnostics name the file, by its id, and read the same through either game.
#[test]
fn a_file_through_two_games_gives_the_same_diagnostics() {
    let project = project();
    let dir = scratch("two-");
    let broken = dir.join("broken.arb");
    std::fs::write(&broken, "// A rule with a typo.\nfunc doubled(n: int) = n * qqzzxxww\n").unwrap();
    let other = dir.join("other.arb");
    std::fs::write(&other, "func unused() = 1\n").unwrap();
    let a = project.load("tic-tac-toe", &[], std::slice::from_ref(&broken));
    let b = project.load("connect-four", &[], &[other, broken.clone()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let (Err(da), Err(db)) = (&a.result, &b.result) else { panic!("the typo is an error in both games") };
    let name = project.display(&broken);
    let file = loaded_file(&a, &name);
    let place = |l: &Loaded| l.files.iter().position(|f| f.name == name);
    assert_ne!(place(&a), place(&b), "the file should have different places in the two games");
    assert_eq!(file.id, loaded_file(&b, &name).id);
    assert_eq!(da, db);
    assert!(da.iter().all(|d| d.span.file == file.id), "{da:?}");
    let (ra, rb) = (diag::render(da, &a.files), diag::render(db, &b.files));
    assert_eq!(ra, rb);
    assert!(ra.contains(&name) && ra.contains("n * qqzzxxww"), "{ra}");
}

/// A card file with an error, peeked at first (as `arbiter check` does to learn its game): its
/// diagnostics point into it, by name, line and text.
#[test]
fn diagnostics_from_a_card_file_name_that_file() {
    let project = project();
    let path = project.root.join("tests/bad/06-misspelled-field.arb");
    let peeked = peek(&project, &path).unwrap();
    let loaded = project.load("bsg-ccg", &[], std::slice::from_ref(&path));
    let Err(diags) = &loaded.result else { panic!("the misspelled field is an error") };
    assert!(!diags.is_empty());
    for d in diags {
        assert_eq!(d.span.file, peeked.file, "{d:?}");
        let file = SourceFile::find(&loaded.files, d.span.file).unwrap();
        assert_eq!(file.name, "tests/bad/06-misspelled-field.arb");
        assert_eq!(file.slice(d.span), "powr", "{d:?}");
    }
    let shown = diag::render(diags, &loaded.files);
    assert!(shown.contains("tests/bad/06-misspelled-field.arb:5:3"), "{shown}");
}

/// Nowhere (`Span::default()`, where the runtime raises an error outside any statement) is shown
/// at the start of a game's first file, as it always was; no file at all is shown without source.
#[test]
fn nowhere_is_the_start_of_the_first_file() {
    let project = project();
    let loaded = project.load("tic-tac-toe", &[], &[]);
    let first = loaded.files.first().unwrap();
    assert_eq!(SourceFile::find(&loaded.files, FileId::NOWHERE).map(|f| f.id), Some(first.id));
    assert!(SourceFile::find(&loaded.files, FileId::NONE).is_none());
    let shown = diag::render(&[diag::Diag::error(Default::default(), "the game has no `turn` procedure")], &loaded.files);
    assert!(shown.contains(&format!("[{}:1:1]", first.name)), "{shown}");
    let none = diag::render(&[diag::Diag::error(arbiter::syntax::span::Span::NONE, "no game `x`")], &loaded.files);
    assert_eq!(none, "  × no game `x`\n");
}

/// A file edited again and again (as an editor's buffer is) keeps only its latest versions: the
/// older ones' texts are let go, so a long editing session does not grow without end.
#[test]
fn only_the_latest_versions_of_an_edited_file_are_kept() {
    let map = arbiter::syntax::source_map::SourceMap::new();
    let path = std::path::Path::new("typed.arb");
    let ids: Vec<_> = (0..10).map(|k| map.read(path, format!("// version {k}\n"), || "typed.arb".into()).id).collect();
    let kept = arbiter::syntax::source_map::VERSIONS_KEPT;
    for (k, id) in ids.iter().enumerate() {
        let text = map.get(*id).unwrap().text.to_string();
        if k + kept >= ids.len() {
            assert_eq!(text, format!("// version {k}\n"), "a recent version is kept");
        } else {
            assert_eq!(text, "", "version {k} was let go");
        }
    }
    // The latest text read again is the same file; a forgotten one comes back as a new file.
    assert_eq!(map.read(path, "// version 9\n".into(), || "typed.arb".into()).id, ids[9]);
    let again = map.read(path, "// version 0\n".into(), || "typed.arb".into());
    assert!(!ids.contains(&again.id));
    assert_eq!(&*again.text, "// version 0\n");
}
