//! Semantic tokens: each word of a file coloured by what it is — a keyword, or a name the game
//! declares (a procedure or function, a kind, a zone, an enum member, a field after a dot) — and
//! comments, texts and numbers. Worked out from the text, so it colours a file that does not parse.

use super::names::Role;
use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokensLegend};
use std::collections::HashMap;

/// The words the language reserves or uses as keywords (every word literal in
/// grammar/arbiter.pest; tests/textmate.rs keeps the two in step).
pub const KEYWORDS: &[&str] = &[
    "ability",
    "active",
    "add",
    "after",
    "always",
    "and",
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
    "except",
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
    "has",
    "hidden",
    "hint",
    "holds",
    "if",
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
    "open",
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
/// UTF-16 units, none across a line's end). `names` colours the game's declared names.
pub fn tokens(text: &str, names: &HashMap<String, u32>) -> Vec<SemanticToken> {
    let mut raw: Vec<(u32, u32, u32, u32)> = Vec::new(); // line, start, length (UTF-16), type
    for (line_no, line) in text.split('\n').enumerate() {
        // A CRLF file's `\r` ends the line: no token runs over it.
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line_no = u32::try_from(line_no).unwrap_or(u32::MAX);
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        // UTF-16 units before each character (and at the end): a token's place and length in
        // constant time, however long the line.
        let mut before = Vec::with_capacity(chars.len() + 1);
        let mut count = 0u32;
        for (_, c) in &chars {
            before.push(count);
            count = count.saturating_add(u32::try_from(c.len_utf16()).unwrap_or(2));
        }
        before.push(count);
        let at_char = |i: usize| before.get(i).copied().unwrap_or(count);
        let mut i = 0;
        let mut after_dot = false;
        while let Some(&(at, c)) = chars.get(i) {
            let rest = line.get(at..).unwrap_or("");
            if rest.starts_with("//") {
                raw.push((line_no, at_char(i), count - at_char(i), COMMENT));
                break;
            }
            if c == '"' {
                let mut j = i + 1;
                while let Some(&(_, d)) = chars.get(j) {
                    j += 1;
                    if d == '\\' {
                        j += 1;
                    } else if d == '"' {
                        break;
                    }
                }
                raw.push((line_no, at_char(i), at_char(j) - at_char(i), STRING));
                i = j;
                after_dot = false;
                continue;
            }
            if c.is_ascii_digit() {
                let mut j = i;
                while chars.get(j).is_some_and(|x| x.1.is_ascii_digit()) {
                    j += 1;
                }
                raw.push((line_no, at_char(i), at_char(j) - at_char(i), NUMBER));
                i = j;
                continue;
            }
            if c.is_alphabetic() || c == '_' {
                let mut j = i;
                while chars.get(j).is_some_and(|x| x.1.is_alphanumeric() || x.1 == '_') {
                    j += 1;
                }
                let end = chars.get(j).map_or(line.len(), |x| x.0);
                let word = line.get(at..end).unwrap_or("");
                // A dotted name (`challenge.involves`) is coloured whole when the game declares it.
                let mut k = j;
                let mut dotted_end = end;
                while chars.get(k).is_some_and(|x| x.1 == '.') && chars.get(k + 1).is_some_and(|x| x.1.is_alphabetic() || x.1 == '_') {
                    k += 1;
                    while chars.get(k).is_some_and(|x| x.1.is_alphanumeric() || x.1 == '_') {
                        k += 1;
                    }
                    dotted_end = chars.get(k).map_or(line.len(), |x| x.0);
                }
                let dotted = line.get(at..dotted_end).unwrap_or("");
                if dotted != word
                    && let Some(t) = names.get(dotted)
                {
                    raw.push((line_no, at_char(i), at_char(k) - at_char(i), *t));
                    i = k;
                    after_dot = false;
                    continue;
                }
                let t = if after_dot {
                    Some(PROPERTY)
                } else if KEYWORDS.contains(&word) {
                    Some(KEYWORD)
                } else {
                    names.get(word).copied()
                };
                if let Some(t) = t {
                    raw.push((line_no, at_char(i), at_char(j) - at_char(i), t));
                }
                i = j;
                after_dot = false;
                continue;
            }
            after_dot = c == '.';
            i += 1;
        }
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
        let toks = tokens("func f(i: int) = nth(board, i).mark + mark_at(1) // é\ncall turns.order(x) \"a \\\" b\"", &names);
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
            ]
        );
    }
}
