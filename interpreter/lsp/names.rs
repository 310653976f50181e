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

/// What a declared name is, as the editor's features group it (the outline's symbols, completion
/// items, token colours): one place that reads the kind words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `proc`, `func`, `check`, `hint`, `side`.
    Routine,
    Event,
    Trigger,
    /// `modifier`, `replace`, `always`, `permit`, `forbid`.
    Rule,
    Kind,
    Enum,
    EnumMember,
    Const,
    Zone,
    Global,
    PlayerField,
    Field,
    Slot,
    /// `game`, `variant`, `scenario`, `section`, `deck`.
    Header,
    /// An object definition (its kind's name is its `kind`).
    Definition,
}

impl Named {
    pub fn role(&self) -> Role {
        match self.kind.as_str() {
            "proc" | "func" | "check" | "hint" | "side" => Role::Routine,
            "event" => Role::Event,
            "trigger" => Role::Trigger,
            "modifier" | "replace" | "always" | "permit" | "forbid" => Role::Rule,
            "kind" => Role::Kind,
            "enum" => Role::Enum,
            "enum member" => Role::EnumMember,
            "const" => Role::Const,
            "zone" => Role::Zone,
            "global" => Role::Global,
            "player field" => Role::PlayerField,
            "field" => Role::Field,
            "ability slot" => Role::Slot,
            "game" | "variant" | "scenario" | "section" | "deck" => Role::Header,
            _ => Role::Definition,
        }
    }
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

/// Where `word` is written as a whole word in `text`: in code (not in a comment or a text) for a
/// name, inside quotes for a definition's name that only a text can hold (`"Red Token"`).
/// Byte ranges.
pub fn occurrences(text: &str, word: &str) -> Vec<(usize, usize)> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    if word.is_empty() {
        return out;
    }
    let quoted = !word.chars().all(is_name);
    fn set(v: &mut [bool], i: usize, to: bool) {
        if let Some(x) = v.get_mut(i) {
            *x = to;
        }
    }
    // Which bytes are code: outside `//` and `/* */` comments and outside texts.
    let bytes = text.as_bytes();
    let mut code = vec![true; bytes.len()];
    let mut in_text = vec![false; bytes.len()];
    let mut i = 0;
    while i < bytes.len() {
        let two = bytes.get(i..i + 2);
        if two == Some(b"//") {
            while i < bytes.len() && bytes.get(i) != Some(&b'\n') {
                set(&mut code, i, false);
                i += 1;
            }
        } else if two == Some(b"/*") {
            while i < bytes.len() && bytes.get(i..i + 2) != Some(b"*/") {
                set(&mut code, i, false);
                i += 1;
            }
            for k in i..(i + 2).min(bytes.len()) {
                set(&mut code, k, false);
            }
            i += 2;
        } else if bytes.get(i) == Some(&b'"') {
            set(&mut code, i, false);
            i += 1;
            while i < bytes.len() && bytes.get(i) != Some(&b'"') && bytes.get(i) != Some(&b'\n') {
                if bytes.get(i) == Some(&b'\\') {
                    set(&mut code, i, false);
                    set(&mut in_text, i, true);
                    i += 1;
                }
                if i < bytes.len() {
                    set(&mut code, i, false);
                    set(&mut in_text, i, true);
                }
                i += 1;
            }
            if i < bytes.len() {
                set(&mut code, i, false);
            }
            i += 1;
        } else {
            i += 1;
        }
    }
    for (at, _) in text.match_indices(word) {
        let end = at + word.len();
        let wanted = if quoted { &in_text } else { &code };
        if !(at..end).all(|k| wanted.get(k).copied().unwrap_or(false)) {
            continue;
        }
        let before = text.get(..at).and_then(|b| b.chars().next_back());
        let after = text.get(end..).and_then(|a| a.chars().next());
        let bounded =
            if quoted { before == Some('"') && after == Some('"') } else { !before.is_some_and(is_name) && !after.is_some_and(is_name) };
        if bounded {
            out.push((at, end));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::occurrences;

    #[test]
    fn words_are_found_in_code_and_names_in_quotes() {
        let text = "a hand // hand\n/* hand */ x.hand \"to hand\" handy\n4 \"Red Token\" \"Red Token, Elite\"";
        let hits: Vec<&str> = occurrences(text, "hand").iter().filter_map(|(a, b)| text.get(*a..*b)).collect();
        assert_eq!(occurrences(text, "hand").len(), 2, "`a hand` and `x.hand` only: {hits:?}");
        assert_eq!(occurrences(text, "Red Token").len(), 1, "the whole quoted name only");
    }
}
