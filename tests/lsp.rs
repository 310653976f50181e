//! `arbiter lsp`, driven as an editor drives it: a real session over the server's stdin and
//! stdout, with the protocol's framing. A card file with a misspelled field gets the diagnostic
//! `arbiter check` gives, at the word's range, with a did-you-mean quick fix; applying the fix
//! (an unsaved edit: the editor's text stands in for the file) clears it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Session {
    child: Child,
    stdin: ChildStdin,
    messages: mpsc::Receiver<Value>,
    next_id: u64,
}

fn read_message(out: &mut BufReader<ChildStdout>) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0u8; length?];
    out.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Session {
    fn start() -> Session {
        Session::start_with(Stdio::inherit())
    }

    /// A server whose standard error goes to `stderr`.
    fn start_with(stderr: Stdio) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start arbiter lsp");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(m) = read_message(&mut stdout) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Session { child, stdin, messages: rx, next_id: 1 }
    }

    /// A session started and initialized with the repository as its project: the server's
    /// capabilities.
    fn initialized(kept: &mut Vec<Value>) -> (Session, Value) {
        let mut s = Session::start();
        let root = url_of(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        let init = s.request("initialize", json!({ "processId": null, "rootUri": root, "capabilities": {} }), kept);
        s.notify("initialized", json!({}));
        (s, init["capabilities"].clone())
    }

    /// The editor opens a file with this text.
    fn open(&mut self, uri: &str, text: &str) {
        self.notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "arbiter", "version": 1, "text": text } }));
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Send a request and wait for its response (notifications meanwhile are kept for `wait`).
    fn request(&mut self, method: &str, params: Value, kept: &mut Vec<Value>) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.messages.recv_timeout(Duration::from_secs(60)).expect("a response");
            if m.get("id") == Some(&json!(id)) {
                assert!(m.get("error").is_none(), "{method} failed: {m}");
                return m["result"].clone();
            }
            kept.push(m);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&mut self, uri: &str, kept: &mut Vec<Value>) -> Vec<Value> {
        if let Some(i) = kept.iter().position(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri) {
            return kept.remove(i)["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.messages.recv_timeout(Duration::from_secs(60)).expect("diagnostics");
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn stop(mut self) {
        let mut kept = Vec::new();
        self.request("shutdown", Value::Null, &mut kept);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server exits cleanly after shutdown: {status}");
    }
}

const CARD: &str = "for bsg-ccg\n\ncard \"Misspelled Field\" sample \"fixture\" {\n  type ship\n  powr 2\n}\n";

#[test]
fn a_misspelled_field_is_reported_as_you_type_and_its_quick_fix_clears_it() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("my-card.arb");
    std::fs::write(&path, CARD).unwrap();
    let uri = url_of(&path);

    let mut kept = Vec::new();
    let (mut s, caps) = Session::initialized(&mut kept);
    assert_eq!(caps["textDocumentSync"], json!(1), "whole texts are sent on each change");
    assert_eq!(caps["codeActionProvider"], json!(true));

    s.open(&uri, CARD);
    let diags = s.diagnostics_for(&uri, &mut kept);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["severity"], json!(1), "an error");
    assert!(d["message"].as_str().unwrap().starts_with("unknown field `powr` for a `card`"), "{d}");
    assert!(d["message"].as_str().unwrap().contains("help: did you mean `power`?"), "{d}");
    // `powr` is on the fifth line (4 from 0), columns 2 to 6.
    assert_eq!(d["range"], json!({ "start": { "line": 4, "character": 2 }, "end": { "line": 4, "character": 6 } }));

    let actions = s.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": d["range"], "context": { "diagnostics": [d] } }),
        &mut kept,
    );
    let fix = &actions.as_array().unwrap()[0];
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["title"], "Change to `power`");
    let edit = &fix["edit"]["changes"][&uri][0];
    assert_eq!(edit["range"], d["range"]);
    assert_eq!(edit["newText"], "power");

    // The editor applies the fix to its buffer (not saved): the server checks the buffer's text.
    let fixed = CARD.replace("powr", "power");
    s.notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": fixed }] }));
    let after = s.diagnostics_for(&uri, &mut kept);
    assert!(after.is_empty(), "the fix clears the diagnostic: {after:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), CARD, "the file on disk is untouched");

    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

fn url_of(p: &std::path::Path) -> String {
    let p = p.canonicalize().unwrap();
    format!("file://{}", p.display())
}

#[test]
fn hovering_a_rule_item_shows_its_citation_section_and_lines_and_a_builtin_its_doc() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("rulebooks/tic-tac-toe/game.arb");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, caps) = Session::initialized(&mut kept);
    assert_eq!(caps["hoverProvider"], json!(true));
    s.open(&uri, &text);
    let at = |needle: &str, plus: usize| {
        let (line, l) = text.lines().enumerate().find(|(_, l)| l.contains(needle)).unwrap();
        json!({ "line": line, "character": l.find(needle).unwrap() + plus })
    };
    // On the name of `func three_in_a_row(m: mark) = ... cite "L5"`.
    let h = s.request("textDocument/hover", json!({ "textDocument": { "uri": uri }, "position": at("func three_in_a_row", 7) }), &mut kept);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.starts_with("**func** `three_in_a_row` — cites L5"), "{md}");
    assert!(md.contains("rules.txt — Tic-tac-toe: winning, or a draw"), "the section it falls in: {md}");
    assert!(md.contains("> 5: Three of your marks in a row, a column or a diagonal win the game."), "the cited line itself: {md}");
    // On `nth(` in `func mark_at(i: int) = nth(board, i).mark`.
    let h = s.request("textDocument/hover", json!({ "textDocument": { "uri": uri }, "position": at("nth(board", 1) }), &mut kept);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.starts_with("**builtin** `nth` — 2 arguments"), "{md}");
    assert!(md.contains("the item at a position (0-based)"), "{md}");
    s.stop();
}

#[test]
fn a_deck_line_goes_to_its_card() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/tour/my-cards.arb");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, caps) = Session::initialized(&mut kept);
    assert_eq!(caps["definitionProvider"], json!(true));
    s.open(&uri, &text);
    let line_of = |t: &str, needle: &str| t.lines().position(|l| l.contains(needle)).unwrap();
    let go = |s: &mut Session, kept: &mut Vec<Value>, needle: &str| {
        let line = line_of(&text, needle);
        // Inside the quotes, two characters after the opening one.
        let l = text.lines().nth(line).unwrap();
        let col = l.find(needle).unwrap() + needle.find('"').unwrap() + 2;
        s.request(
            "textDocument/definition",
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": col } }),
            kept,
        )
    };
    // A card written in the same file.
    let here = go(&mut s, &mut kept, "4 \"Raptor Recon Team\"");
    assert_eq!(here["uri"], json!(uri));
    assert_eq!(here["range"]["start"]["line"], json!(line_of(&text, "card \"Raptor Recon Team\"")));
    // A card of the game's own card files.
    let there = go(&mut s, &mut kept, "base \"Galactica\"");
    let cards = root.join("cards/bsg-ccg/rulebook-cards.arb");
    assert_eq!(there["uri"], json!(url_of(&cards)));
    let cards_text = std::fs::read_to_string(&cards).unwrap();
    assert_eq!(there["range"]["start"]["line"], json!(line_of(&cards_text, "card \"Galactica\"")));
    // Not on a name (a blank line): nothing.
    let line = text.lines().position(str::is_empty).unwrap();
    let none = s.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": 0 } }),
        &mut kept,
    );
    assert_eq!(none, Value::Null);
    s.stop();
}

#[test]
fn a_field_name_is_completed_in_a_card_being_typed() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-complete-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("typing.arb");
    std::fs::write(&path, CARD).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, caps) = Session::initialized(&mut kept);
    assert!(caps["completionProvider"].is_object());
    // Half a line typed: the file does not parse now.
    let typing = "for bsg-ccg\n\ncard \"Half Typed\" sample \"fixture\" {\n  type ship\n  pow\n}\n";
    s.open(&uri, typing);
    let items = s.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 4, "character": 5 } }),
        &mut kept,
    );
    let items = items.as_array().unwrap();
    let power = items.iter().find(|i| i["label"] == "power").unwrap_or_else(|| panic!("no `power` among {items:?}"));
    assert_eq!(power["kind"], json!(5), "a field");
    assert!(power["detail"].as_str().unwrap().starts_with("int"), "{power}");
    assert!(items.iter().any(|i| i["label"] == "action"), "the card kind's ability slots too");
    // Outside a definition's body: no fields (the builtins and the game's names instead).
    let outside = s.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 1, "character": 0 } }),
        &mut kept,
    );
    let outside = outside.as_array().unwrap();
    assert!(!outside.iter().any(|i| i["label"] == "power"), "no field outside a body");
    assert!(outside.iter().any(|i| i["label"] == "count"), "the builtins");
    assert!(!outside.iter().any(|i| i["label"] == "Galactica"), "a definition's name is offered in quotes only");
    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_file_no_game_can_be_found_for_says_so() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-nogame-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("stray.arb");
    let text = "card \"Stray\" sample \"fixture\" {\n  type ship\n}\n";
    std::fs::write(&path, text).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, _) = Session::initialized(&mut kept);
    s.open(&uri, text);
    let diags = s.diagnostics_for(&uri, &mut kept);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("for GAME"), "{}", diags[0]);
    // Malformed requests are refused with an error, and the session goes on.
    let id = 99;
    s.send(&json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": { "nonsense": true } }));
    loop {
        let m = s.messages.recv_timeout(Duration::from_secs(60)).unwrap();
        if m.get("id") == Some(&json!(id)) {
            assert_eq!(m["error"]["code"], json!(-32602), "invalid params: {m}");
            break;
        }
    }
    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn names_have_an_outline_a_definition_and_references() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("rulebooks/tic-tac-toe/game.arb");
    let text = std::fs::read_to_string(&path).unwrap();
    let hints = root.join("rulebooks/tic-tac-toe/hints.arb");
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, caps) = Session::initialized(&mut kept);
    assert_eq!(caps["documentSymbolProvider"], json!(true));
    assert_eq!(caps["referencesProvider"], json!(true));
    s.open(&uri, &text);
    let pos = |needle: &str, plus: usize| {
        let (line, l) = text.lines().enumerate().find(|(_, l)| l.contains(needle)).unwrap();
        json!({ "line": line, "character": l.find(needle).unwrap() + plus })
    };
    let line_of = |t: &str, needle: &str| json!(t.lines().position(|l| l.contains(needle)).unwrap());

    // The outline: the kind `square` with its two fields inside, the procedures and functions.
    let outline = s.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }), &mut kept);
    let outline = outline.as_array().unwrap();
    let square = outline.iter().find(|x| x["name"] == "square").unwrap();
    assert_eq!(square["detail"], "kind");
    let fields: Vec<&Value> = square["children"].as_array().unwrap().iter().map(|c| &c["name"]).collect();
    assert_eq!(fields, [&json!("index"), &json!("mark")]);
    for name in ["mark", "board", "setup.game", "mark_at", "three_in_a_row", "turn.play", "lines"] {
        assert!(outline.iter().any(|x| x["name"] == name), "`{name}` in the outline");
    }

    // From a call of `mark_at` to its `func`, and from `.mark` to the field.
    let def = s.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": uri }, "position": pos("mark_at(nth(l, 0))", 2) }),
        &mut kept,
    );
    assert_eq!(def["uri"], json!(uri));
    assert_eq!(def["range"]["start"]["line"], line_of(&text, "func mark_at("));
    let field = s.request("textDocument/definition", json!({ "textDocument": { "uri": uri }, "position": pos("i).mark", 4) }), &mut kept);
    assert_eq!(field["range"]["start"]["line"], line_of(&text, "field mark: mark"));

    // Every use of `mark_at`, in both files, with and without its declaration.
    let refs = |s: &mut Session, kept: &mut Vec<Value>, with: bool| {
        s.request(
            "textDocument/references",
            json!({ "textDocument": { "uri": uri }, "position": pos("func mark_at", 6), "context": { "includeDeclaration": with } }),
            kept,
        )
    };
    let all = refs(&mut s, &mut kept, true);
    let all = all.as_array().unwrap();
    let in_hints = all.iter().filter(|l| l["uri"] == json!(url_of(&hints))).count();
    let hints_text = std::fs::read_to_string(&hints).unwrap();
    assert_eq!(in_hints, hints_text.matches("mark_at(").count(), "{all:?}");
    let in_game = all.iter().filter(|l| l["uri"] == json!(uri)).count();
    assert_eq!(in_game, text.matches("mark_at(").count(), "the declaration and each call: {all:?}");
    let uses = refs(&mut s, &mut kept, false);
    assert_eq!(uses.as_array().unwrap().len(), all.len() - 1, "all but the declaration");
    s.stop();
}

#[test]
fn hovering_a_field_shows_its_type_and_default_and_a_card_name_its_card() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/tour/my-cards.arb");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, _) = Session::initialized(&mut kept);
    s.open(&uri, &text);
    let pos = |needle: &str, plus: usize| {
        let (line, l) = text.lines().enumerate().find(|(_, l)| l.contains(needle)).unwrap();
        json!({ "line": line, "character": l.find(needle).unwrap() + plus })
    };
    let h = s.request("textDocument/hover", json!({ "textDocument": { "uri": uri }, "position": pos("  power 2", 3) }), &mut kept);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.starts_with("**field** `power`"), "{md}");
    assert!(md.contains("- of `card`: int = 0"), "the kind, type and default: {md}");
    let h =
        s.request("textDocument/hover", json!({ "textDocument": { "uri": uri }, "position": pos("4 \"Viper Mark II\"", 4) }), &mut kept);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.starts_with("**card** `Viper Mark II`"), "{md}");
    assert!(md.contains("card \"Viper Mark II\""), "the card as written: {md}");
    s.stop();
}

#[test]
fn completion_offers_card_names_in_a_deck_the_items_a_variant_may_replace_and_builtins() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-more-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut kept = Vec::new();
    let (mut s, _) = Session::initialized(&mut kept);
    let mut complete = |s: &mut Session, name: &str, text: &str| -> Vec<Value> {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let uri = url_of(&path);
        s.open(&uri, text);
        let line = text.lines().count() - 1;
        let character = text.lines().last().unwrap().len();
        let r = s.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
            &mut kept,
        );
        r.as_array().cloned().unwrap_or_default()
    };
    let labels = |items: &[Value]| items.iter().map(|i| i["label"].as_str().unwrap().to_string()).collect::<Vec<_>>();

    // A card name on a deck line.
    let deck = complete(&mut s, "deck.arb", "for bsg-ccg\n\ndeck \"Mine\" sample \"fixture\" {\n  base \"Galactica\"\n  4 \"Vi");
    assert!(labels(&deck).contains(&"Viper Mark II".to_string()), "{:?}", labels(&deck));
    assert!(deck.iter().all(|i| i["kind"] == json!(12)), "definitions only");

    // The functions a variant may replace, after `replace func`.
    let variant = complete(&mut s, "variant.arb", "for tic-tac-toe\n\nvariant mine \"Mine\" sample \"fixture\" {\n  replace func ");
    let names = labels(&variant);
    assert!(names.contains(&"mark_at".to_string()) && names.contains(&"three_in_a_row".to_string()), "{names:?}");
    assert!(!names.contains(&"turn.play".to_string()), "a proc is not a func: {names:?}");

    // In code: the builtins with their arity and doc, and the game's names.
    let code = complete(&mut s, "code.arb", "for tic-tac-toe\n\nfunc mine(i: int) = n");
    let nth = code.iter().find(|i| i["label"] == "nth").unwrap_or_else(|| panic!("{:?}", labels(&code)));
    assert_eq!(nth["detail"], "builtin, 2 arguments");
    assert!(nth["documentation"].as_str().unwrap().contains("0-based"));
    assert!(labels(&code).contains(&"board".to_string()), "the game's zone");
    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn semantic_tokens_colour_keywords_and_the_games_names() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("rulebooks/tic-tac-toe/game.arb");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, caps) = Session::initialized(&mut kept);
    let legend: Vec<String> = caps["semanticTokensProvider"]["legend"]["tokenTypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    s.open(&uri, &text);
    let r = s.request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": uri } }), &mut kept);
    let data: Vec<u64> = r["data"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(data.len() % 5, 0);
    // Decode: (line, column, length, type name).
    let (mut line, mut col) = (0, 0);
    let mut toks = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            line += t[0];
            col = t[1];
        } else {
            col += t[1];
        }
        toks.push((line, col, t[2], legend[t[3] as usize].clone()));
    }
    let at = |needle: &str| {
        let (l, s) = text.lines().enumerate().find(|(_, s)| s.contains(needle)).unwrap();
        (l as u64, s.find(needle).unwrap() as u64)
    };
    let kind_at = |(l, c): (u64, u64)| toks.iter().find(|t| t.0 == l && t.1 == c).map(|t| t.3.clone());
    assert_eq!(kind_at(at("func three_in_a_row")), Some("keyword".into()));
    let (l, c) = at("mark_at(nth(l, 0))");
    assert_eq!(kind_at((l, c)), Some("function".into()), "a call of a declared function");
    let (l, c) = at("nth(board, i).mark");
    assert_eq!(kind_at((l, c + 4)), Some("variable".into()), "a zone");
    assert_eq!(kind_at((l, c + 14)), Some("property".into()), "a field after a dot");
    s.stop();
}

#[test]
fn a_uses_line_goes_to_its_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/house-rules/bsg-ccg/house.arb");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, _) = Session::initialized(&mut kept);
    s.open(&uri, &text);
    let (line, l) = text.lines().enumerate().find(|(_, l)| l.starts_with("uses \"cards.arb\"")).unwrap();
    let col = l.find("cards").unwrap() + 2;
    let def = s.request(
        "textDocument/definition",
        json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": col } }),
        &mut kept,
    );
    assert_eq!(def["uri"], json!(url_of(&root.join("tests/house-rules/bsg-ccg/cards.arb"))));
    s.stop();
}

#[test]
fn a_problem_outside_the_files_is_shown_at_the_top_of_the_file() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-uses-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("with-uses.arb");
    let text = "for bsg-ccg\nuses \"missing.arb\"\n";
    std::fs::write(&path, text).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, _) = Session::initialized(&mut kept);
    s.open(&uri, text);
    let diags = s.diagnostics_for(&uri, &mut kept);
    assert!(diags.iter().any(|d| d["message"].as_str().unwrap().contains("missing.arb")), "{diags:?}");
    // A game that does not exist, on the `for` line.
    let wrong = "for bsg-ccgg\n";
    s.notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": wrong }] }));
    let diags = s.diagnostics_for(&uri, &mut kept);
    assert!(diags.iter().any(|d| d["message"].as_str().unwrap().contains("bsg-ccg")), "the did-you-mean game: {diags:?}");
    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_buffer_is_formatted_on_request_and_one_that_does_not_parse_is_left_alone() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("messy.arb");
    std::fs::write(&path, CARD).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, caps) = Session::initialized(&mut kept);
    assert_eq!(caps["documentFormattingProvider"], json!(true));
    let messy = "for bsg-ccg\n\n\ncard \"Odd\" sample \"fixture\"{\n      type ship\n power   2 // é\n}";
    s.open(&uri, messy);
    let format = |s: &mut Session, kept: &mut Vec<Value>| {
        s.request(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } }),
            kept,
        )
    };
    let edits = format(&mut s, &mut kept);
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1, "{edits:?}");
    assert_eq!(edits[0]["range"], json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 6, "character": 1 } }));
    assert_eq!(edits[0]["newText"], "for bsg-ccg\n\ncard \"Odd\" sample \"fixture\" {\n  type ship\n  power 2 // é\n}\n");
    // The buffer as formatted: nothing more to do.
    s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": edits[0]["newText"] }] }),
    );
    assert_eq!(format(&mut s, &mut kept), json!([]));
    // Half typed: no edit is offered (null), so the editor keeps the text.
    s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": [{ "text": "card \"Odd\" {\n  pow" }] }),
    );
    assert_eq!(format(&mut s, &mut kept), Value::Null);
    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_name_defined_twice_points_to_the_first_definition() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-related-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("again.arb");
    let text = "for bsg-ccg\n\ncard \"Galactica\" sample \"a second base of the same name\" {\n  type base\n  power 6\n}\n";
    std::fs::write(&path, text).unwrap();
    let uri = url_of(&path);
    let mut kept = Vec::new();
    let (mut s, _) = Session::initialized(&mut kept);
    s.open(&uri, text);
    let diags = s.diagnostics_for(&uri, &mut kept);
    let twice = diags
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("`Galactica` is defined twice"))
        .unwrap_or_else(|| panic!("no `defined twice` among {diags:?}"));
    assert_eq!(twice["range"]["start"], json!({ "line": 2, "character": 5 }));
    let related = twice["relatedInformation"].as_array().expect("related information");
    assert_eq!(related.len(), 1);
    assert_eq!(related[0]["message"], "first definition");
    let first = url_of(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/bsg-ccg/rulebook-cards.arb"));
    assert_eq!(related[0]["location"]["uri"], json!(first));
    assert_eq!(related[0]["location"]["range"]["start"]["line"], json!(3), "the card's line in rulebook-cards.arb");
    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_open_file_is_checked_again_when_a_file_it_uses_changes() {
    let dir = std::env::temp_dir().join(format!("arbiter-lsp-depends-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cards_text = "for bsg-ccg\n\ncard \"Red Viper\" sample \"x\" {\n  type ship\n  cost 1 persuasion\n  power 1\n}\n";
    let deck_text = "for bsg-ccg\nuses \"cards.arb\"\n\ndeck \"Reds\" sample \"x\" {\n  base \"Galactica\"\n  4 \"Red Viper\"\n}\n";
    std::fs::write(dir.join("cards.arb"), cards_text).unwrap();
    std::fs::write(dir.join("deck.arb"), deck_text).unwrap();
    let (cards, deck) = (url_of(&dir.join("cards.arb")), url_of(&dir.join("deck.arb")));
    let mut kept = Vec::new();
    let (mut s, _) = Session::initialized(&mut kept);
    s.open(&deck, deck_text);
    let unknown = |ds: &[Value]| ds.iter().any(|d| d["message"].as_str().unwrap().contains("no card named `Red Viper`"));
    assert!(!unknown(&s.diagnostics_for(&deck, &mut kept)), "the card is found");
    s.open(&cards, cards_text);
    s.diagnostics_for(&cards, &mut kept);
    // The card is renamed in the editor, not yet saved: the open deck is checked again.
    s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": cards, "version": 2 }, "contentChanges": [{ "text": cards_text.replace("Red Viper", "Crimson Viper") }] }),
    );
    let mut found = false;
    for _ in 0..4 {
        if unknown(&s.diagnostics_for(&deck, &mut kept)) {
            found = true;
            break;
        }
    }
    assert!(found, "the deck's diagnostics name the card that is gone");
    s.stop();
    std::fs::remove_dir_all(&dir).ok();
}

/// An editor that exits without shutting the server down first ends it with an error, printed as
/// before; the error is a diagnostic with help.
#[test]
fn exit_without_shutdown_is_an_error_and_a_diagnostic() {
    let mut s = Session::start_with(Stdio::piped());
    let root = url_of(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    s.request("initialize", json!({ "processId": null, "rootUri": root, "capabilities": {} }), &mut Vec::new());
    s.notify("initialized", json!({}));
    s.notify("exit", Value::Null);
    let out = s.child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "error: `exit` without `shutdown`\n");
    let d = arbiter::syntax::diag::Diag::from(arbiter::lsp::LspError::ExitWithoutShutdown);
    assert_eq!(d.message, "`exit` without `shutdown`");
    assert!(d.help.is_some_and(|h| h.contains("shut down")));
}
