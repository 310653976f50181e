//! The names a file declares, as a tree (a kind with its fields, an enum with its members): the
//! outline an editor shows, and the index that go-to-definition and find-references search.

use crate::syntax::ast::{File, Item, Span};

/// A declared name: what it is, the name, where the name is written and where its whole item is.
#[derive(Debug, Clone)]
pub struct Named {
    /// `kind`, `field`, `proc`, ...; for a definition, its kind's name.
    pub kind: String,
    pub name: String,
    pub at: Span,
    pub whole: Span,
    pub children: Vec<Named>,
}

fn named(kind: &str, name: &str, at: Span, whole: Span) -> Named {
    Named { kind: kind.to_string(), name: name.to_string(), at, whole, children: vec![] }
}

/// The names a file declares, in order.
pub fn declared(file: &File) -> Vec<Named> {
    let mut out = Vec::new();
    for it in &file.items {
        let whole = it.span;
        let one = |kind: &'static str, n: &crate::syntax::ast::Name| named(kind, &n.node, n.span, whole);
        match &it.node {
            Item::Game(g) => out.push(one("game", &g.name)),
            Item::Enum(e) => {
                let mut n = one("enum", &e.name);
                n.children = e.members.iter().map(|m| named("enum member", &m.node, m.span, m.span)).collect();
                out.push(n);
            }
            Item::Kind(k) => {
                let mut n = one("kind", &k.name);
                n.children = k.fields.iter().map(|f| named("field", &f.name.node, f.name.span, f.name.span)).collect();
                n.children.extend(k.slots.iter().map(|s| named("ability slot", &s.name.node, s.name.span, s.name.span)));
                out.push(n);
            }
            Item::Zone(z) => out.push(one("zone", &z.name)),
            Item::Player(vars) => out.extend(vars.iter().map(|v| named("player field", &v.name.node, v.name.span, whole))),
            Item::Global(vars) => out.extend(vars.iter().map(|v| named("global", &v.name.node, v.name.span, whole))),
            Item::Deck(d) => out.push(named("deck", &d.name.node, d.name.span, whole)),
            Item::Variant(v) => out.push(one("variant", &v.name)),
            Item::Scenario(s) => out.push(one("scenario", &s.id)),
            Item::Section(s) => out.push(named("section", &s.title.node, s.title.span, whole)),
            Item::Object(o) => out.push(named(&o.kind.node, &o.name.node, o.name.span, whole)),
            other => {
                if let Some(n) = other.rule_name() {
                    out.push(one(other.kind_word(), n));
                }
            }
        }
    }
    out
}

/// Every name, children included.
pub fn flat(names: &[Named]) -> Vec<&Named> {
    let mut out = Vec::new();
    for n in names {
        out.push(n);
        out.extend(flat(&n.children));
    }
    out
}

/// Where `word` is written as a whole word in `text` (not part of a longer name, and not in a
/// `//` comment): byte ranges.
pub fn occurrences(text: &str, word: &str) -> Vec<(usize, usize)> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    if word.is_empty() {
        return out;
    }
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let code_end = line.find("//").unwrap_or(line.len());
        let code = line.get(..code_end).unwrap_or("");
        for (i, _) in code.match_indices(word) {
            let before = code.get(..i).and_then(|b| b.chars().next_back());
            let after = code.get(i + word.len()..).and_then(|a| a.chars().next());
            if !before.is_some_and(is_name) && !after.is_some_and(is_name) {
                out.push((line_start + i, line_start + i + word.len()));
            }
        }
        line_start += line.len();
    }
    out
}
