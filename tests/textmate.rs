//! The TextMate grammar (grammar/arbiter.tmLanguage.json), for editors without the language
//! server: it is valid JSON, every pattern compiles, each word the language reserves (every
//! keyword in grammar/arbiter.pest) is coloured, it colours nothing as a keyword that is not one,
//! and a sample line gets the scopes it should.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use serde_json::Value;
use std::collections::BTreeSet;

fn grammar() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/arbiter.tmLanguage.json")).unwrap();
    serde_json::from_str(&text).expect("the TextMate grammar is JSON")
}

/// Every `match`, `begin` and `end` pattern in the grammar.
fn patterns(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if matches!(k.as_str(), "match" | "begin" | "end") {
                    out.push(x.as_str().unwrap().to_string());
                } else {
                    patterns(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| patterns(x, out)),
        _ => {}
    }
}

/// The words listed in `(a|b|c)` groups of the patterns.
fn listed_words(patterns: &[String]) -> BTreeSet<String> {
    let group = regex::Regex::new(r"\(([a-z_|]+)\)").unwrap();
    patterns.iter().flat_map(|p| group.captures_iter(p).flat_map(|c| c[1].split('|').map(str::to_string).collect::<Vec<_>>())).collect()
}

#[test]
fn the_textmate_grammar_compiles_and_colours_every_keyword() {
    let g = grammar();
    assert_eq!(g["scopeName"], "source.arbiter");
    assert_eq!(g["fileTypes"][0], "arb");
    let mut all = Vec::new();
    patterns(&g, &mut all);
    assert!(all.len() > 10);
    for p in &all {
        regex::Regex::new(p).unwrap_or_else(|e| panic!("pattern `{p}` does not compile: {e}"));
    }
    let pest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/arbiter.pest")).unwrap();
    let code: String = pest.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let literal = regex::Regex::new(r#""([a-z_]{2,})""#).unwrap();
    let keywords: BTreeSet<String> = literal.captures_iter(&code).map(|c| c[1].to_string()).collect();
    let listed = listed_words(&all);
    let missing: Vec<&String> = keywords.difference(&listed).collect();
    assert!(missing.is_empty(), "keywords of the grammar the colouring does not know: {missing:?}");
    let extra: Vec<&String> = listed.difference(&keywords).collect();
    assert!(extra.is_empty(), "coloured as keywords but not keywords: {extra:?}");
}

#[test]
fn a_sample_line_gets_its_scopes() {
    let g = grammar();
    let repo = &g["repository"];
    let line = r#"proc draw(p: player, n: int) cite "L120-125" {  // draw n cards"#;
    let m = |path: &Value| regex::Regex::new(path.as_str().unwrap()).unwrap();
    let decl = m(&repo["declaration"]["match"]).captures(line).unwrap();
    assert_eq!((&decl[1], &decl[2]), ("proc", "draw"));
    let cite = m(&repo["citation"]["match"]).captures(line).unwrap();
    assert_eq!(&cite[2], "\"L120-125\"");
    let comment = m(&repo["comments"]["patterns"][1]["match"]).find(line).unwrap();
    assert_eq!(comment.as_str(), "// draw n cards");
    let call = m(&repo["calls"]["match"]).captures("  call turns.order_from(p)").unwrap();
    assert_eq!(&call[1], "turns.order_from");
    let field = m(&repo["fields"]["match"]).captures("c.power + 1").unwrap();
    assert_eq!(&field[1], "power");
}

#[test]
fn the_vscode_package_names_the_grammar_it_is_copied_with() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/vscode/package.json")).unwrap();
    let pkg: Value = serde_json::from_str(&text).unwrap();
    let g = &pkg["contributes"]["grammars"][0];
    assert_eq!(g["scopeName"], grammar()["scopeName"]);
    assert_eq!(g["path"], "./arbiter.tmLanguage.json", "copied beside it (README, Editors)");
    assert_eq!(pkg["contributes"]["languages"][0]["extensions"][0], ".arb");
    let config = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/vscode/language-configuration.json")).unwrap();
    let config: Value = serde_json::from_str(&config).unwrap();
    assert_eq!(config["comments"]["lineComment"], "//");
}

#[test]
fn the_language_server_colours_the_same_keywords() {
    let pest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/arbiter.pest")).unwrap();
    let code: String = pest.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let literal = regex::Regex::new(r#""([a-z_]{2,})""#).unwrap();
    let keywords: BTreeSet<String> = literal.captures_iter(&code).map(|c| c[1].to_string()).collect();
    let server: BTreeSet<String> = arbiter::lsp::tokens::KEYWORDS.iter().map(|s| s.to_string()).collect();
    assert_eq!(server, keywords, "arbiter::lsp::tokens::KEYWORDS and grammar/arbiter.pest");
}

/// Every builtin is in one of the language reference's tables (built-in functions, geometry):
/// adding one touches its family file in interpreter/builtins/ and a table; this test names one
/// left out.
#[test]
fn the_language_reference_lists_every_builtin() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/README.md")).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| `")).collect();
    let listed = |n: &str| rows.iter().any(|r| r.contains(&format!("`{n}(")));
    let missing: Vec<&str> = arbiter::ir::builtins::BUILTINS.iter().map(|s| s.name).filter(|n| !listed(n)).collect();
    assert!(missing.is_empty(), "builtins missing from grammar/README.md's table: {missing:?}");
}
