//! The names a file declares, as a tree (a kind with its fields, an enum with its members): the
//! outline an editor shows, and the index that go-to-definition and find-references search.

use arbiter_syntax::ast::{File, Item, Span};
use arbiter_syntax::lex::{Tok, lex};

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
        let one = |kind: &'static str, n: &arbiter_syntax::ast::Name| named(kind, &n.node, n.span, whole);
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
/// name, dotted names (`challenge.run`) included; the whole of a text for a definition's name
/// that only a text can hold (`"Red Token"`). Byte ranges.
pub fn occurrences(text: &str, word: &str) -> Vec<(usize, usize)> {
    let parts: Vec<&str> = word.split('.').collect();
    let is_code_name = parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'));
    let toks = lex(text);
    if !is_code_name {
        return toks
            .iter()
            .filter(|t| t.kind == Tok::Text && t.text(text).strip_prefix('"').and_then(|s| s.strip_suffix('"')) == Some(word))
            .map(|t| (t.start + 1, t.end - 1))
            .collect();
    }
    // A dotted name is its words and dots, with nothing between them.
    let mut out = Vec::new();
    for (i, first) in toks.iter().enumerate() {
        let mut at = i;
        let matched = parts.iter().enumerate().all(|(k, part)| {
            if k > 0 {
                if toks.get(at).map(|t| (t.kind, t.text(text))) != Some((Tok::Punct, ".")) {
                    return false;
                }
                at += 1;
            }
            let hit = toks.get(at).is_some_and(|t| t.kind == Tok::Word && t.text(text) == *part);
            at += 1;
            hit
        });
        if matched && let Some(last) = at.checked_sub(1).and_then(|j| toks.get(j)) {
            out.push((first.start, last.end));
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
        let text = "call challenge.run(x) // challenge.run\nlog \"challenge.run\" challenge . run";
        assert_eq!(occurrences(text, "challenge.run"), vec![(5, 18)], "a dotted name in code, written whole");
    }
}
