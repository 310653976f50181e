//! Semantic tokens: each word of a file coloured by what it is — a keyword, or a name the game
//! declares (a procedure or function, a kind, a zone, an enum member, a field after a dot) — and
//! comments, texts and numbers. Worked out from the text, so it colours a file that does not parse.

use super::names::Role;
use arbiter_syntax::lex::{Tok, lex};
use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokensLegend};
use std::collections::HashMap;

/// The words the language reserves or uses as keywords (every word literal in
/// grammar/arbiter.pest; tests/textmate.rs keeps the two in step).
pub const KEYWORDS: &[&str] = &[
    "ability",
    "active",
    "add",
    "after",
    "all",
    "always",
    "and",
    "announced",
    "answer",
    "any",
    "before",
    "blank",
    "bottom",
    "by",
    "call",
    "cannot",
    "check",
    "choose",
    "chosen",
    "cite",
    "conceal",
    "const",
    "cost",
    "create",
    "decision",
    "deck",
    "deckbuilding",
    "do",
    "down",
    "draw",
    "each",
    "else",
    "end",
    "enum",
    "event",
    "exactly",
    "except",
    "expansion",
    "expect",
    "expire",
    "extends",
    "face",
    "false",
    "field",
    "finished",
    "for",
    "forbid",
    "from",
    "func",
    "game",
    "global",
    "goes",
    "has",
    "hidden",
    "hint",
    "holds",
    "house",
    "if",
    "immediately",
    "in",
    "insert",
    "instead",
    "invalid",
    "keep",
    "kind",
    "label",
    "layer",
    "let",
    "list",
    "log",
    "lose",
    "many",
    "modifier",
    "modify",
    "move",
    "no",
    "none",
    "not",
    "note",
    "of",
    "on",
    "one",
    "open",
    "option",
    "optional",
    "options",
    "or",
    "order",
    "ordered",
    "over",
    "owned",
    "owner",
    "part",
    "per",
    "permit",
    "pick",
    "player",
    "players",
    "proc",
    "public",
    "put",
    "random",
    "rarely",
    "reading",
    "refused",
    "remove",
    "repeat",
    "replace",
    "require",
    "requires",
    "return",
    "reveal",
    "roll",
    "run",
    "sample",
    "scenario",
    "secretly",
    "section",
    "see",
    "sees",
    "self",
    "set",
    "shared",
    "shuffle",
    "side",
    "signal",
    "step",
    "stop",
    "target",
    "then",
    "to",
    "top",
    "trigger",
    "true",
    "turn",
    "under",
    "until",
    "up",
    "use",
    "uses",
    "valid",
    "variant",
    "when",
    "where",
    "while",
    "win",
    "winner",
    "you",
    "zone",
];

/// The token types, in the legend's order.
const TYPES: [SemanticTokenType; 10] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::TYPE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::OPERATOR,
];

const KEYWORD: u32 = 0;
const FUNCTION: u32 = 1;
const TYPE: u32 = 2;
const ENUM_MEMBER: u32 = 3;
const VARIABLE: u32 = 4;
const PROPERTY: u32 = 5;
const STRING: u32 = 6;
const NUMBER: u32 = 7;
const COMMENT: u32 = 8;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend { token_types: TYPES.to_vec(), token_modifiers: vec![] }
}

/// The token type a declared name colours as.
pub fn type_of_role(role: Role) -> Option<u32> {
    Some(match role {
        Role::Routine | Role::Trigger | Role::Rule | Role::Event => FUNCTION,
        Role::Kind | Role::Enum => TYPE,
        Role::EnumMember => ENUM_MEMBER,
        Role::Zone | Role::Global | Role::PlayerField | Role::Const => VARIABLE,
        Role::Field => PROPERTY,
        Role::Slot | Role::Header | Role::Definition => return None,
    })
}

/// The tokens of `text`, encoded as the protocol wants them (each relative to the one before, in
/// UTF-16 units, none across a line's end: a `/* */` comment over lines is one token a line).
/// `names` colours the game's declared names.
pub fn tokens(text: &str, names: &HashMap<String, u32>) -> Vec<SemanticToken> {
    let toks = lex(text);
    let mut raw: Vec<(u32, u32, u32, u32)> = Vec::new(); // line, start, length (UTF-16), type
    let utf16 = |s: &str| u32::try_from(s.encode_utf16().count()).unwrap_or(u32::MAX);
    let (mut line, mut column) = (0u32, 0u32);
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        let s = t.text(text);
        let after_dot = i.checked_sub(1).and_then(|j| toks.get(j)).is_some_and(|p| p.kind == Tok::Punct && p.text(text) == ".");
        // The token's type, and how many tokens it takes (a dotted name takes its words and dots).
        let (kind, taken) = match t.kind {
            Tok::LineComment | Tok::BlockComment => (Some(COMMENT), 1),
            Tok::Text => (Some(STRING), 1),
            Tok::Number => (Some(NUMBER), 1),
            Tok::Word => {
                // A dotted name (`challenge.involves`) is coloured whole when the game declares it.
                let mut end = i + 1;
                while toks.get(end).is_some_and(|d| d.kind == Tok::Punct && d.text(text) == ".")
                    && toks.get(end + 1).is_some_and(|w| w.kind == Tok::Word)
                {
                    end += 2;
                }
                let dotted = toks.get(end - 1).and_then(|last| text.get(t.start..last.end)).unwrap_or(s);
                if end > i + 1
                    && let Some(ty) = names.get(dotted)
                {
                    (Some(*ty), end - i)
                } else if after_dot {
                    (Some(PROPERTY), 1)
                } else if KEYWORDS.contains(&s) {
                    (Some(KEYWORD), 1)
                } else {
                    (names.get(s).copied(), 1)
                }
            }
            Tok::Space | Tok::Newline | Tok::Punct => (None, 1),
        };
        let whole = toks.get(i + taken - 1).and_then(|last| text.get(t.start..last.end)).unwrap_or(s);
        // Each line of the token's text (one, but for a block comment), then where the next
        // token begins.
        for (n, piece) in whole.split('\n').enumerate() {
            if n > 0 {
                line += 1;
                column = 0;
            }
            let piece = piece.strip_suffix('\r').unwrap_or(piece);
            let length = utf16(piece);
            if let Some(ty) = kind
                && length > 0
            {
                raw.push((line, column, length, ty));
            }
            column = column.saturating_add(length);
        }
        i += taken;
    }
    let mut out = Vec::with_capacity(raw.len());
    let (mut last_line, mut last_start) = (0, 0);
    for (line, start, length, t) in raw {
        let delta_line = line - last_line;
        let delta_start = if delta_line == 0 { start - last_start } else { start };
        out.push(SemanticToken { delta_line, delta_start, length, token_type: t, token_modifiers_bitset: 0 });
        last_line = line;
        last_start = start;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_coloured_by_what_they_are() {
        let names: HashMap<String, u32> =
            [("mark_at".to_string(), FUNCTION), ("board".to_string(), VARIABLE), ("turns.order".to_string(), FUNCTION)]
                .into_iter()
                .collect();
        let toks = tokens("func f(i: int) = nth(board, i).mark + mark_at(1) // é\ncall turns.order(x) \"a \\\" b\"/* a\r\n b */", &names);
        let decoded: Vec<(u32, u32, u32, u32)> = toks
            .iter()
            .scan((0, 0), |(l, s), t| {
                *l += t.delta_line;
                *s = if t.delta_line == 0 { *s + t.delta_start } else { t.delta_start };
                Some((*l, *s, t.length, t.token_type))
            })
            .collect();
        assert_eq!(
            decoded,
            vec![
                (0, 0, 4, KEYWORD),
                (0, 21, 5, VARIABLE),
                (0, 31, 4, PROPERTY),
                (0, 38, 7, FUNCTION),
                (0, 46, 1, NUMBER),
                (0, 49, 4, COMMENT),
                (1, 0, 4, KEYWORD),
                (1, 5, 11, FUNCTION),
                (1, 20, 8, STRING),
                (1, 28, 4, COMMENT),
                (2, 0, 5, COMMENT),
            ]
        );
    }
}
