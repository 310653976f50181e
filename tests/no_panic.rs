//! Nothing panics on any input: every source file, cut and damaged in many ways, goes through
//! the parser and the checker and comes out as diagnostics (or a game), never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use arbiter::check::project::Project;
use arbiter::check::{Input, Role, compile};
use arbiter::runtime::state::Rng;
use arbiter::syntax::parse_file;
use arbiter::syntax::source_map::SourceMap;
use arbiter::syntax::span::FileId;
use std::path::Path;

const DAMAGE: &[&str] = &["{", "}", "(", ")", "\"", "[", "]", ",", ".", "=", "==", " x ", "\n", "0", "-", "|", "//", "→", "\u{0}"];

fn damaged(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let at = rng.below(chars.len() as u64) as usize;
    let mut out: String;
    match rng.below(4) {
        0 => out = chars[..at].iter().collect(),
        1 => {
            out = chars[..at].iter().collect();
            out.extend(chars[(at + 1).min(chars.len())..].iter());
        }
        2 => {
            out = chars[..at].iter().collect();
            out.push_str(DAMAGE[rng.below(DAMAGE.len() as u64) as usize]);
            out.extend(chars[at..].iter());
        }
        _ => {
            // Swap two lines.
            let mut lines: Vec<&str> = text.lines().collect();
            let n = lines.len();
            if n > 1 {
                let a = rng.below(n as u64) as usize;
                let b = rng.below(n as u64) as usize;
                lines.swap(a, b);
            }
            out = lines.join("\n");
        }
    }
    out
}

#[test]
fn damaged_sources_never_panic() {
    let project = Project::at(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    let files = project.game_files("bsg-ccg");
    let originals: Vec<(String, String, Role)> =
        files.iter().map(|(p, r)| (project.display(p), std::fs::read_to_string(p).unwrap(), *r)).collect();
    let mut rng = Rng::from_seed(2026);
    let mut rounds = 0;
    for target in (0..originals.len()).cycle().take(originals.len() * 12) {
        rounds += 1;
        let map = SourceMap::new();
        let mut sources = Vec::new();
        let mut inputs = Vec::new();
        let mut parse_failed = false;
        for (i, (name, text, role)) in originals.iter().enumerate() {
            let text = if i == target { damaged(text, &mut rng) } else { text.clone() };
            let source = map.add(name, text);
            match map.parse(&source) {
                Ok(f) => inputs.push(Input { file: f, role: *role }),
                Err(d) => {
                    assert!(!d.message.is_empty());
                    parse_failed = true;
                }
            }
            sources.push(source);
        }
        if !parse_failed {
            let _ = compile(sources, &inputs, &[]);
        }
    }
    assert!(rounds > 100);
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = Rng::from_seed(7);
    for _ in 0..500 {
        let len = rng.below(200) as usize;
        let s: String = (0..len)
            .map(|_| {
                let pool = "card \"{}()[]=<>!.,;:|#-+*/%0123456789abcxyz\n\t ⊗";
                pool.chars().nth(rng.below(pool.chars().count() as u64) as usize).unwrap_or(' ')
            })
            .collect();
        let _ = parse_file(FileId::NOWHERE, &s);
    }
    // Deep nesting is refused, not a stack overflow.
    let deep = format!("func f() = {}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(parse_file(FileId::NOWHERE, &deep).is_err());
}

/// Brackets are counted as the grammar reads them: a text ending in an escaped backslash, a quote
/// in a comment and `{..}` nested in texts do not hide them, so deep nesting gets the parser's
/// own diagnostic (not a stack overflow, nor pest's "stack limit reached").
#[test]
fn deep_brackets_are_refused_whatever_comes_before_them() {
    let deep = |prefix: &str| format!("{prefix}func f() = \"\\\\\" + {}1{}", "(".repeat(10_000), ")".repeat(10_000));
    let texts = format!("func f() = {}1{}", "\"{".repeat(10_000), "}\"".repeat(10_000));
    for (what, src) in [
        ("after a text ending in `\\`", deep("")),
        ("after a comment with a quote", deep("// a 12\" ruler\n")),
        ("after a block comment with a quote", deep("/* \" */\n")),
        ("texts nested in texts' `{..}`", texts),
        ("lists in brackets", format!("func f() = {}1{}", "[".repeat(10_000), "]".repeat(10_000))),
    ] {
        let e = parse_file(FileId::NOWHERE, &src).expect_err(what);
        assert!(e.message.contains("brackets nested more than"), "{what}: {}", e.message);
    }
    // `{{`, `}}` and `\"` in a text, and brackets in comments, are not counted.
    let fine = format!("// {}\nfunc f() = \"{} \\\" {}\"", "(".repeat(200), "{{".repeat(200), "}}".repeat(200));
    assert!(parse_file(FileId::NOWHERE, &fine).is_ok(), "{:?}", parse_file(FileId::NOWHERE, &fine).err().map(|e| e.message));
}

/// `list list ..` nests without brackets: a type nested absurdly deep is refused, not a stack
/// overflow when its tree is dropped.
#[test]
fn deep_list_types_are_refused() {
    let deep = format!("const k: {}int = []", "list ".repeat(200_000));
    let e = parse_file(FileId::NOWHERE, &deep).expect_err("a type 200,000 lists deep");
    assert!(e.message.contains("lists deep"), "{}", e.message);
    assert!(parse_file(FileId::NOWHERE, "const k: list list int = []").is_ok());
}

#[test]
fn long_operator_chains_never_overflow_the_stack() {
    let nots = format!("func f() = {}true", "not ".repeat(200_000));
    let _ = parse_file(FileId::NOWHERE, &nots);
    let negs = format!("func f() = {}1", "- ".repeat(300_000));
    let _ = parse_file(FileId::NOWHERE, &negs);
    let ifs = format!("func f() = {}1", "if true then 1 else ".repeat(50_000));
    let _ = parse_file(FileId::NOWHERE, &ifs);
    let fields = format!("func f(p: player) = p{}", ".influence".repeat(80_000));
    let _ = parse_file(FileId::NOWHERE, &fields);
    let sums = format!("func f() = 1{}", " + 1".repeat(200_000));
    let _ = parse_file(FileId::NOWHERE, &sums);
    let quantifiers = format!("func f() = {}true", "any x in [1] where ".repeat(55_000));
    let _ = parse_file(FileId::NOWHERE, &quantifiers);
    let lambdas = format!("func f() = map([1], {}x)", "|x| ".repeat(260_000));
    let _ = parse_file(FileId::NOWHERE, &lambdas);
    // The densest nesting without brackets the grammar allows, three characters a level, as
    // many as the largest file accepted holds: the parse's own stack must hold it, as nothing
    // else stops it (pest is built without its stack probe: Cargo.toml). Measured: it needs
    // between 96 and 160 MiB of the 256 reserved (`PARSE_STACK`).
    let limit = arbiter::syntax::budgets::FILE_LIMIT;
    let densest = format!("func f() = map([1], {}x)", "|x|".repeat((limit - 40) / 3));
    assert!(densest.len() <= limit);
    let e = parse_file(FileId::NOWHERE, &densest).expect_err("an expression 349,000 lambdas deep");
    assert!(e.message.contains("nests more than"), "{}", e.message);
    // `if` run into a name is the name: a megabyte of `ififif..` is one word, read once (it was
    // an `if` nested at every second character, the rest of the word read again at each: hours).
    let word = format!("func f() = {}", "if".repeat((limit - 20) / 2));
    let file = parse_file(FileId::NOWHERE, &word).expect("one long name");
    assert_eq!(file.items.len(), 1);
}

/// Nested brackets that each read two ways make a backtracking parser try every combination: the
/// call budget (`PARSE_CALLS`) ends such a file with an error, where it would otherwise never
/// end. Real files stay far inside it: the repository's own files, joined up to the largest file
/// accepted, parse.
#[test]
fn a_parse_that_would_backtrack_without_end_is_stopped() {
    let nest = |n: usize, open: &str, close: &str| format!("func f(x: int) = {}1{}", open.repeat(n), close.repeat(n));
    for (what, src) in [
        ("`[x in [x in ..]]` 24 deep", nest(24, "[x in ", "]")),
        ("`[anyx in [anyx in ..]]` 16 deep", nest(16, "[anyx in ", "]")),
        ("`if(if(..))` 25 deep", nest(25, "if(", ")")),
    ] {
        let e = parse_file(FileId::NOWHERE, &src).expect_err(what);
        assert!(e.message.contains("takes the parser too long"), "{what}: {}", e.message);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut joined = String::new();
    for dir in ["rulebooks", "cards", "tests/examples", "tests/rulings"] {
        for f in Project::arb_files(&root.join(dir)) {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            if joined.len() + text.len() + 1 > arbiter::syntax::budgets::FILE_LIMIT {
                break;
            }
            joined.push_str(&text);
            joined.push('\n');
        }
    }
    assert!(joined.len() > 900_000, "only {} bytes joined", joined.len());
    if let Err(e) = parse_file(FileId::NOWHERE, &joined) {
        assert!(!e.message.contains("takes the parser too long"), "a real file ran out of parse budget: {}", e.message);
    }
}

/// A chain of functions each calling the next, as long as a file may hold, compiles on a thread
/// with a small stack: what a function's calls read was worked out by recursing along the chain
/// (30,000 functions, or 500 whose calls sit under 60 minus signs, overflowed the stack of
/// `play`, `sim`, `variants` and the language server).
#[test]
fn a_long_chain_of_calls_compiles_on_a_small_stack() {
    let dir = tempfile::Builder::new().prefix("arbiter-chain-").tempdir().unwrap();
    let chain = |n: usize, minus: usize| -> String {
        let mut s = String::from("for tic-tac-toe\n");
        for i in 0..n {
            s.push_str(&format!("func z{i}() = {}z{}()\n", "-".repeat(minus), i + 1));
        }
        s + &format!("func z{n}() = 1\n")
    };
    for (name, text) in [("long.arb", chain(30_000, 0)), ("deep.arb", chain(500, 60))] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
        let loaded = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || Project::at(root).load("tic-tac-toe", &[], &[path]).result.is_ok())
            .unwrap()
            .join();
        assert!(matches!(loaded, Ok(true)), "{name} should compile");
    }
}

/// What a field read through modifiers reads is worked out in time linear in the rules: each
/// function a modifier calls is walked once however often it is called (twenty calls of the next
/// function, eight deep, were walked twenty to the eighth times: hours), and a chain of 4,000
/// modifiers, each reading the field the next one changes, is followed in well under a second
/// (it took 43). The answers are the rule's: the chain reads the global its last modifier reads.
#[test]
fn what_modified_fields_read_is_worked_out_in_linear_time() {
    use arbiter::ir::Reads;
    let dir = tempfile::Builder::new().prefix("arbiter-reads-").tempdir().unwrap();
    let (fan, depth) = (30, 7);
    // The leaf reads a global: each level's reads are the next one's, each once (added up as
    // often as they are called, they were 30^7 of them).
    let mut text = format!("for tic-tac-toe\nfunc g{depth}(x: int) = [x, gg]\n");
    for k in (0..depth).rev() {
        text.push_str(&format!("func g{k}(x: int) = [{}]\n", vec![format!("g{}(x)", k + 1); fan].join(", ")));
    }
    text.push_str("modifier fan cite \"L1\" {\n  to c when g0(c.index) == []\n  c.index += 1\n}\n");
    let n = 4000;
    text.push_str("global {\n  gg: int = 0\n}\nkind blob {\n");
    for i in 0..=n {
        text.push_str(&format!("  field f{i}: int = 0\n"));
    }
    text.push_str("}\n");
    for i in 0..n {
        text.push_str(&format!("modifier m{i} cite \"L1\" {{\n  to c when c.f{} == 0\n  c.f{i} += 1\n}}\n", i + 1));
    }
    text.push_str(&format!("modifier mg cite \"L1\" {{\n  to c when gg == 0\n  c.f{n} += 1\n}}\n"));
    let path = dir.path().join("reads.arb");
    std::fs::write(&path, text).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    let loaded = Project::at(root).load("tic-tac-toe", &[], &[path]);
    let built = loaded.result.unwrap_or_else(|d| panic!("{}", arbiter::diag::render(&d, &loaded.files)));
    let g = &built.game;
    let field = |name: &str| g.derived.field(g.sym_id(name).unwrap_or_else(|| panic!("no field {name}")));
    assert_eq!(field("index"), Reads::Local { globals: true }, "the fan's functions read what they are given, and a global");
    assert_eq!(field("f0"), Reads::Local { globals: true }, "the chain's first field reads the global its last one does");
    assert_eq!(field(&format!("f{n}")), Reads::Local { globals: true });
}
