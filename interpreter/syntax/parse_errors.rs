//! Syntax errors: pest's expectations turned into readable words, with help for common slips.

use super::lex::open_braces;
use super::parse_context::Rule;
use super::span::{FileId, Span};
use crate::diag::Diag;

/// Turn a pest error into a diagnostic with readable expectations.
pub(super) fn pest_error(file: FileId, text: &str, e: pest::error::Error<Rule>) -> Diag {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    // Underline the token at the error position so the caret is visible.
    let tok_end = if end > start {
        end
    } else {
        let rest = text.get(start..).unwrap_or("");
        let len = rest.chars().take_while(|c| !c.is_whitespace()).map(char::len_utf8).sum::<usize>();
        start + len.clamp(if rest.is_empty() { 0 } else { 1 }, 24)
    };
    let span = Span::new(file, start, tok_end);
    let found = text.get(start..tok_end).unwrap_or("");
    if text.get(start..).is_some_and(|rest| rest.trim().is_empty()) {
        // An item that needs a citation, the last in the file: say so rather than "unfinished".
        if let ErrorVariant::ParsingError { positives, .. } = &e.variant
            && positives.contains(&Rule::cite)
            && positives.contains(&Rule::sample_clause)
        {
            return Diag::error(Span::new(file, start, start), "expected `cite \"...\"` or `sample \"why\"`, found the end of the file")
                .label("here")
                .help("a hint or side says where the rulebook gives it (`cite \"L40\"`), or why it is invented (`sample \"why\"`)");
        }
        let ends = Diag::error(Span::new(file, start, start), "the file ends too soon").label("here");
        // Its last word a two-word phrase run together (`zone hand perplayer`): that, not an end.
        let last = text.get(..start).unwrap_or("").split_whitespace().last().unwrap_or("");
        if let Some(help) = phrase_help(last) {
            return ends.help(help);
        }
        return match open_braces(text, start).first() {
            Some(&open) => ends
                .related(Span::new(file, open, open + 1), "this `{` is never closed")
                .help(format!("close the `{{` of line {} with a `}}`", line_of(text, open))),
            None => ends.help("a `{` is not closed, or an item is unfinished"),
        };
    }
    // An item starts a line as the one above did (`card "B"` after `card "A"`, both at the start
    // of their lines) while that one's `{` is still open: the `}` before it is missing.
    let here = line_start(text, start);
    let first_word = |at: usize| -> &str {
        let rest = text.get(at..).unwrap_or("");
        rest.get(..rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len())).unwrap_or("")
    };
    let open = open_braces(text, here).first().copied();
    let opened = open.map_or(0, |o| line_start(text, o));
    if let Some(open) = open
        && !first_word(here).is_empty()
        && first_word(here) == first_word(opened)
    {
        let head = text.get(opened..open).unwrap_or("").trim();
        // The item's word and name: `card "Some Card"`.
        let head = head.match_indices('"').nth(1).map_or(head, |(i, _)| head.get(..=i).unwrap_or(head));
        let line = line_of(text, here);
        return Diag::error(Span::new(file, here, here), format!("a `}}` is missing before line {line}"))
            .label("a new item starts here")
            .related(Span::new(file, open, open + 1), format!("`{}` is still open here", crate::diag::clipped(head, 48)))
            .help(format!("close the `{{` of line {} with a `}}` before line {line}", line_of(text, open)));
    }
    match e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives.iter().map(|r| readable(*r)).collect();
            words.sort_unstable();
            words.dedup();
            if words.contains(&"an expression") {
                words.retain(|w| !matches!(*w, "a name" | "a number" | "a text in quotes" | "`any`, `no` or `all`"));
            }
            // A variant's group word written after its `cite` or `extends`.
            // (The error may be placed at the citation's closing quote, just before the word.)
            let after = text.get(start..).unwrap_or("");
            let skipped = after.len() - after.trim_start_matches(['"', ' ']).len();
            let word: String = after[skipped..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if matches!(word.as_str(), "expansion" | "option" | "reading" | "house")
                && text.get(..start).and_then(|b| b.lines().last()).is_some_and(|l| l.trim_start().starts_with("variant "))
            {
                let at = Span::new(file, start + skipped, start + skipped + word.len());
                return Diag::error(at, format!("`{word}` says where the variant comes from: it goes right after the title"))
                    .label("here")
                    .help(format!("write it like `variant cag \"The CAG title\" {word} cite \"R38\" {{`"));
            }
            if words.contains(&"the closing `\"`") {
                let at = Span::new(file, start, start);
                return Diag::error(at, "this text is not closed")
                    .label("the line ends here")
                    .help("a text ends on the line where it starts; write `\\n` for a line break");
            }
            let expected = join_or(&words);
            let before = text.get(..start).unwrap_or("").split_whitespace().last().unwrap_or("");
            // A function or check written with a block, as a procedure is (`func f(x: int) { .. }`).
            if let Some(d) = func_with_block(file, text, start) {
                return d;
            }
            // Two words of a phrase run together (`elseif`, `faceup`), read as a name, just before
            // the error or at it: said of that word, whatever the parser expected after it.
            if let Some(d) = glued_phrase(file, text, start, before, found) {
                return d;
            }
            if let Some(d) = glued_if(file, text, start, found) {
                return d;
            }
            // A scenario statement inside a block reads as the start of an assignment: say what it is.
            let scenario_word = ["run", "answer", "random", "expect", "stop"].into_iter().find(|w| *w == before || *w == found);
            // A scenario's header line (`variant x`) after its first statement reads as an assignment.
            let header_word = ["game", "players", "variant", "uses", "deck", "cite", "note"].into_iter().find(|w| *w == before);
            if let Some(w) = header_word
                && positives.contains(&Rule::assign_op)
                && in_scenario(text, start)
            {
                let word_end = text.get(..start).unwrap_or("").trim_end().len();
                let at = Span::new(file, word_end.saturating_sub(before.len()), word_end);
                return Diag::error(at, format!("`{w}` belongs in the scenario's header"))
                    .label("after a statement")
                    .help(format!("write `{w} ..` with `game` and `players`, before the scenario's first statement"));
            }
            // `{` inside a text starts a value to fill in: `"Square {0, 0}"` reads `0, 0` as one.
            if let Some(open) = open_brace_in_text(text, start) {
                return Diag::error(
                    Span::new(file, open, tok_end.max(open + 1)),
                    "a `{` in a text starts a value to fill in, and this one is not a value",
                )
                .label("read as `{value}`")
                .help("write `{{` and `}}` for braces in a text, like \"Square {{0, 0}}\"");
            }
            // The marker `announced` after a field's citation, or outside a field.
            if found.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next() == Some("announced") {
                return Diag::error(span, "`announced` marks a field, after its default and before its `cite`")
                    .label("here")
                    .help("write it like `influence: int = 0 announced cite \"L39-44\"`");
            }
            // `first(..).area = x`: a statement that starts with a call reads as an assignment to a
            // name, and the call's `(` is where it fails.
            if scenario_word.is_none() && positives.contains(&Rule::assign_op) && found.starts_with('(') && !before.is_empty() {
                return if sets_after_call(text.get(start..).unwrap_or("")) {
                    Diag::error(span, format!("`{before}(..)` is a call: what it gives cannot be set, nor its fields"))
                        .label("a call here")
                        .help(format!("name what it gives first, then set that: `let x = {before}(..)` and then `x.field = ..`"))
                } else {
                    Diag::error(span, format!("`{before}(..)` on its own is not a statement"))
                        .label("a call here")
                        .help(format!("run a procedure with `call {before}(..)`; a function's value is used in a statement, like `let x = {before}(..)`"))
                };
            }
            // `4.5`: the decimal point reads as a field of `4`, and the error falls on the `5`.
            let ahead = text.get(..start).unwrap_or("");
            if found.starts_with(|c: char| c.is_ascii_digit())
                && let Some(whole) = ahead.strip_suffix('.')
                && whole.ends_with(|c: char| c.is_ascii_digit())
            {
                let int = whole.len() - whole.trim_end_matches(|c: char| c.is_ascii_digit()).len();
                let frac = found.chars().take_while(char::is_ascii_digit).count();
                let at = Span::new(file, start - 1 - int, start + frac);
                let number = text.get(at.start as usize..at.end as usize).unwrap_or("");
                return Diag::error(at, format!("`{number}` is not a number: numbers are whole"))
                    .label("a decimal point")
                    .help("write a whole number, or count in smaller units (millimetres, tenths) where the game needs fractions");
            }
            // A variant's `set` of a card's printed number (`set "Some Card".power = 5`).
            if before == "set" && found.starts_with('"') {
                return Diag::error(span, format!("expected a constant's name, found `{found}`"))
                    .label("here")
                    .help("`set` changes a constant; a card's printed number is changed by a modifier the variant adds (`add modifier ..`: grammar/README.md, Variants, \"A card's printed number\")");
            }
            // An `else` where a statement goes: the `}` closing its `if` is missing before it.
            if found.split(|c: char| !c.is_ascii_alphanumeric()).next() == Some("else") {
                return Diag::error(span, "an `else` that follows no `if` block")
                    .label("here")
                    .help("an `else` goes right after the `}` that closes its `if`'s block: is that `}` missing (`} else if .. {`)?");
            }
            let message = match scenario_word {
                Some(w) if positives.contains(&Rule::assign_op) || found == w => format!("`{w}` cannot be used here"),
                _ if found.is_empty() => format!("expected {expected}"),
                _ => format!("expected {expected}, found `{found}`"),
            };
            let help = joined_help(&words, before, found)
                .or_else(|| reserved_help(&words, found))
                .or_else(|| syntax_help(&positives, found))
                .or_else(|| context_help(before, found, &positives))
                .or_else(|| glued_keyword_help(text, start));
            Diag::error(span, message).label("here").maybe_help(help)
        }
        ErrorVariant::CustomError { message } if message == "call limit reached" => Diag::error(
            span,
            format!("this file takes the parser too long: more than {} rules tried", crate::budgets::PARSE_CALLS),
        )
        .label("the parser gave up here")
        .help("brackets nested in brackets that each read two ways (`[x in [x in ..]]`, `if(if(..))`) make it try every combination: name the inner parts with `let` or functions"),
        ErrorVariant::CustomError { message } => Diag::error(span, message),
    }
}

/// Whether the text from a call's `(` on sets something after the call closes (`(..).f = x`,
/// `(..) += 1`), rather than ending (a procedure written without `call`). Texts in quotes are
/// passed over, and the call may run over several lines.
fn sets_after_call(rest: &str) -> bool {
    let mut depth = 0i32;
    let mut in_text = false;
    let mut chars = rest.char_indices().take(4096);
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' if in_text => {
                chars.next();
            }
            '"' => in_text = !in_text,
            _ if in_text => {}
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    let after = rest.get(i + 1..).unwrap_or_default().lines().next().unwrap_or_default().trim_start();
                    let assigns = |t: &str| t.starts_with("+=") || t.starts_with("-=") || (t.starts_with('=') && !t.starts_with("=="));
                    let field =
                        after.strip_prefix('.').map(|t| t.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.'));
                    return assigns(after) || field.is_some_and(|t| assigns(t.trim_start()));
                }
            }
            _ => {}
        }
    }
    false
}

/// Is the error at `at` inside a scenario (the nearest item keyword before it is `scenario`)?
fn in_scenario(text: &str, at: usize) -> bool {
    let before = text.get(..at).unwrap_or("");
    let items = ["\nscenario ", "\nproc ", "\nfunc ", "\ntrigger ", "\ncard ", "\nvariant ", "\ngame "];
    let last = items.iter().filter_map(|k| before.rfind(k).map(|i| (i, *k))).max_by_key(|(i, _)| *i);
    // (A byte-order mark is read as spaces before the parser: `parse_file`.)
    let start = before.trim_start();
    last.is_some_and(|(_, k)| k == "\nscenario ") || (start.starts_with("scenario ") && last.is_none())
}

/// If the error at `at` is inside a text's `{..}` on the same line (an unclosed `"` and an
/// unclosed `{` before it), where that `{` is.
fn open_brace_in_text(text: &str, at: usize) -> Option<usize> {
    let from = line_start(text, at);
    let line = text.get(from..at)?;
    let mut in_text = false;
    let mut open = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' if in_text => {
                chars.next();
            }
            '"' if open.is_none() => {
                in_text = !in_text;
            }
            '{' if in_text && open.is_none() => {
                if chars.peek().is_some_and(|(_, n)| *n == '{') {
                    chars.next();
                } else {
                    open = Some(from + i);
                }
            }
            '}' if open.is_some() => open = None,
            _ => {}
        }
    }
    open
}

fn join_or(words: &[&str]) -> String {
    match words {
        [] => "something else".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// Words the language reserves: a name cannot be one of them (see `reserved` in the grammar).
pub const RESERVED: [&str; 23] = [
    "and", "or", "not", "in", "has", "if", "then", "else", "true", "false", "none", "let", "for", "while", "repeat", "return", "call",
    "choose", "where", "from", "proc", "you", "self",
];

/// A name was expected and a reserved word found: say so, and offer a name to use instead.
fn reserved_help(expected: &[&str], found: &str) -> Option<String> {
    let word: String = found.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if !expected.contains(&"a name") || !RESERVED.contains(&word.as_str()) {
        return None;
    }
    let instead = match word.as_str() {
        "from" => "src",
        "in" => "inside",
        "for" => "target",
        "you" => "p",
        "self" => "this",
        "proc" => "action",
        "has" => "holds",
        "none" => "nothing",
        "if" | "then" | "else" | "while" | "repeat" | "where" => "cond",
        "true" | "false" => "flag",
        _ => "value",
    };
    Some(format!("`{word}` is a keyword; name it `{instead}` (the reserved words are listed in grammar/README.md, under Files)"))
}

/// `or` or `and` where a statement was expected: the one before is whole and cannot be joined
/// (`expect goes on or ..`).
fn joined_help(expected: &[&str], before: &str, found: &str) -> Option<String> {
    let word: String = found.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if !expected.contains(&"a statement") || !matches!(word.as_str(), "or" | "and") {
        return None;
    }
    Some(if before == "finished" || before == "on" {
        format!(
            "`expect finished` and `expect goes on` are whole statements, not conditions: they cannot be joined with `{word}`; write one `expect` a line"
        )
    } else if before == "draw" {
        format!("`expect draw` is a whole statement, not a condition: it cannot be joined with `{word}`; write one `expect` a line")
    } else {
        format!(
            "`{word}` joins two conditions within one expression, and the statement before it is already whole: write one statement a line"
        )
    })
}

/// The two-word phrases the grammar refuses run together (its `glued_*` rules, before each).
pub(crate) const PHRASES: [(&str, &str); 11] = [
    ("else", "if"),
    ("face", "up"),
    ("face", "down"),
    ("per", "player"),
    ("owned", "by"),
    ("up", "to"),
    ("chosen", "by"),
    ("active", "in"),
    ("optional", "by"),
    ("instead", "of"),
    ("end", "draw"),
];

/// The phrase a word is, run together (`elseif`: `else`, `if`).
fn glued(word: &str) -> Option<(&'static str, &'static str)> {
    PHRASES.iter().find(|(a, b)| word.strip_prefix(a).is_some_and(|rest| rest == *b)).copied()
}

/// The help for a word that is a two-word phrase run together (`elseif`, `faceup`).
fn phrase_help(word: &str) -> Option<String> {
    glued(word.trim_start_matches(['{', '}'])).map(two_words)
}

/// The help for the phrase `a b` run together.
fn two_words((a, b): (&str, &str)) -> String {
    format!("if `{a}{b}` is meant as `{a} {b}`, it is two words: write `{a} {b}`")
}

/// The error for a `func` or `check` whose parameters are followed by a block: it gives a value,
/// written after `=`.
fn func_with_block(file: FileId, text: &str, start: usize) -> Option<Diag> {
    let head = text.get(line_start(text, start)..start)?.trim_start();
    let what = ["func", "check"].into_iter().find(|w| head.strip_prefix(w).is_some_and(|r| r.starts_with(' ')))?;
    let rest = text.get(start..)?.strip_prefix(')')?;
    let brace = start + 1 + (rest.len() - rest.trim_start().len());
    text.get(brace..)?.starts_with('{').then(|| {
        Diag::error(Span::new(file, brace, brace + 1), format!("a `{what}` gives a value: it is written `= expression`, not as a block"))
            .label("a block here")
            .help(format!(
                "write its value after `=`, like `{what} twice(c: card) = c.power * 2`; a block of statements is a procedure's (`proc`)"
            ))
    })
}

/// The error for a two-word phrase run together (`elseif`) that is the word just before the
/// error (`before`, only spaces between) or the word at it (`found`), underlining that word.
fn glued_phrase(file: FileId, text: &str, start: usize, before: &str, found: &str) -> Option<Diag> {
    let head = text.get(..start).unwrap_or("").trim_end();
    let before_at = head.len().checked_sub(before.len())?;
    let found_word = found.trim_start_matches(['{', '}']);
    let found_word = found_word.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("");
    let found_at = start + (found.len() - found.trim_start_matches(['{', '}']).len());
    let before_word = before.trim_start_matches(['{', '}']);
    let before_at = before_at + (before.len() - before_word.len());
    [(before_word, before_at), (found_word, found_at)].into_iter().find_map(|(word, at)| {
        let (a, b) = glued(word)?;
        let help = two_words((a, b));
        Some(
            Diag::error(Span::new(file, at, at + word.len()), format!("`{word}` reads as one name, not as the two words `{a} {b}`"))
                .label("two words run together")
                .help(help),
        )
    })
}

/// `ifx > y then ..`: an `if` run into a name is the name (the grammar's `glued_if`), so the
/// `then` after it is the error; said of the word (the last such on the line before the `then`,
/// where no `if` stands alone), as a file that parses is told of a keyword run into a name
/// (`keywords_stand_apart`).
fn glued_if(file: FileId, text: &str, start: usize, found: &str) -> Option<Diag> {
    if found.split(|c: char| !c.is_ascii_alphanumeric()).next() != Some("then") {
        return None;
    }
    let from = line_start(text, start);
    let line = text.get(from..start)?;
    // Each word with where it starts in the line (its offset from the line's own start).
    let words: Vec<(usize, &str)> = line
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
        .collect();
    // With an `if` standing alone on the line, the `then` may be its own: not said then.
    if words.iter().any(|(_, w)| *w == "if") {
        return None;
    }
    let (b, word) = words.into_iter().rev().find(|(_, w)| w.len() > 2 && w.starts_with("if"))?;
    let rest = word.get(2..).unwrap_or("");
    Some(
        Diag::error(Span::new(file, from + b, from + b + word.len()), format!("`{word}` reads as the keyword `if` run into `{rest}`"))
            .label("one word")
            .help("put a space after `if`: a keyword stands apart from the word after it"),
    )
}

/// Help for a statement whose first word is a keyword run into a name (`returnx c`), on the
/// error's line or the line before: read as the keyword and the name, it left the words after it
/// to start a statement of their own. (A file that parses is told this after parsing, with the
/// word itself underlined: `keywords_stand_apart`.) Not for a line that assigns (`letters = 2`).
fn glued_keyword_help(text: &str, start: usize) -> Option<String> {
    const STATEMENT_WORDS: [&str; 22] = [
        "return", "call", "move", "put", "turn", "shuffle", "modify", "expire", "signal", "log", "win", "lose", "reveal", "conceal",
        "create", "use", "while", "repeat", "for", "if", "let", "choose",
    ];
    let at = line_start(text, start);
    let this = text.get(at..)?.lines().next().unwrap_or("");
    let previous = text.get(..at)?.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    [this, previous].into_iter().find_map(|line| {
        let line = line.trim_start();
        let assigns = ["==", "<=", ">=", "!=", "=>"].iter().fold(line.to_string(), |l, op| l.replace(op, "")).contains('=');
        let word: String = line.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let keyword = STATEMENT_WORDS.iter().find(|k| word.len() > k.len() && word.starts_with(**k))?;
        let rest = word.get(keyword.len()..)?;
        (!assigns).then(|| {
            format!(
                "if `{word}` is meant as `{keyword} {rest}`, put a space after `{keyword}`: a keyword stands apart from the word after it"
            )
        })
    })
}

/// Help that depends on the word before the error.
fn context_help(before: &str, found: &str, positives: &[Rule]) -> Option<String> {
    if matches!(before, "run" | "answer" | "random" | "expect" | "stop") || matches!(found, "expect" | "answer" | "run" | "random" | "stop")
    {
        let word = if matches!(found, "expect" | "answer" | "run" | "random" | "stop") { found } else { before };
        return Some(format!("`{word}` is a scenario statement: it belongs at the top level of a `scenario`, not in a rule or an ability"));
    }
    if found == "from" && positives.contains(&Rule::string) {
        return Some("a decision names who decides, then the prompt: `choose p \"prompt\" from ..`".to_string());
    }
    None
}

fn syntax_help(positives: &[Rule], found: &str) -> Option<String> {
    if found == "=" && positives.iter().any(|r| *r == Rule::line_end || readable(*r) == "a value") {
        return Some("write a property as `key value`, without `=`".to_string());
    }
    if found.starts_with('=')
        && !found.starts_with("=>")
        && positives.iter().any(|r| matches!(readable(*r), "an expression" | "an operator"))
    {
        return Some("compare with `==`; assign with `=` as a statement of its own".to_string());
    }
    if positives.contains(&Rule::EOI) || positives.iter().any(|r| matches!(r, Rule::game_item | Rule::object_item)) {
        return Some(
            "a file holds items: `game`, `enum`, `kind`, `zone`, `player`, `global`, `const`, `event`, `proc`, `func`, \
             `check`, `permit`, `forbid`, `trigger`, `modifier`, `replace`, `always`, `deckbuilding`, `deck`, \
             `variant`, `scenario`, or an object such as `card \"Name\" { .. }`"
                .to_string(),
        );
    }
    if matches!(found, "choose" | "call" | "roll" | "create" | "random") {
        return Some(format!("keep the result of `{found}` with `let`: `let x = {found} ..`, then use `x`"));
    }
    if positives.contains(&Rule::line_end) || positives.contains(&Rule::prop_values) {
        return Some("one property per line, such as `power 2`; separate values with commas".to_string());
    }
    None
}

/// The words a syntax error uses for what it expected.
fn readable(rule: Rule) -> &'static str {
    code_words(rule).or_else(|| item_words(rule)).or_else(|| scenario_words(rule)).unwrap_or("something else")
}

/// Words for the tokens of code: names, values, expressions, operators and statements.
fn code_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::string_text | Rule::string_escape | Rule::string_interp => "the closing `\"`",
        Rule::kw_for => "`for`",
        Rule::kw_uses => "`uses`",
        Rule::kw_sees | Rule::kw_cannot_see => "`sees` or `cannot see`",
        Rule::kw_forbid | Rule::kw_permit | Rule::lasting_stmt | Rule::lasting_replace | Rule::kw_replace => "a statement",
        Rule::kw_part => "`part of variant`",
        Rule::term => "a value",
        Rule::owned_by => "`owned by`",
        Rule::ident | Rule::word | Rule::var | Rule::item_name | Rule::place => "a name",
        Rule::slug => "an id such as `bsg-ccg`",
        Rule::int | Rule::neg_int => "a number",
        Rule::string => "a text in quotes",
        Rule::cite => "`cite \"...\"`",
        Rule::block => "`{`",
        Rule::expr
        | Rule::primary
        | Rule::paren
        | Rule::call_expr
        | Rule::list
        | Rule::lambda
        | Rule::quant_expr
        | Rule::if_expr
        | Rule::true_lit
        | Rule::false_lit
        | Rule::none_lit
        | Rule::you
        | Rule::self_ref
        | Rule::proc_ref
        | Rule::neg
        | Rule::not_op => "an expression",
        Rule::or_op
        | Rule::and_op
        | Rule::eq
        | Rule::ne
        | Rule::lt
        | Rule::le
        | Rule::gt
        | Rule::ge
        | Rule::in_op
        | Rule::not_in
        | Rule::has_op
        | Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::rem
        | Rule::op_start
        | Rule::field_access => "an operator",
        Rule::let_stmt
        | Rule::if_stmt
        | Rule::for_stmt
        | Rule::while_stmt
        | Rule::repeat_stmt
        | Rule::return_stmt
        | Rule::call_stmt
        | Rule::choose_stmt
        | Rule::move_stmt
        | Rule::put_stmt
        | Rule::turn_stmt
        | Rule::shuffle_stmt
        | Rule::modify_stmt
        | Rule::expire_stmt
        | Rule::signal_stmt
        | Rule::log_stmt
        | Rule::win_stmt
        | Rule::lose_stmt
        | Rule::draw_stmt
        | Rule::reveal_stmt
        | Rule::create_stmt
        | Rule::run_ability_stmt
        | Rule::assign_stmt
        | Rule::run_stmt
        | Rule::answer_stmt
        | Rule::random_stmt
        | Rule::expect_stmt
        | Rule::stop_stmt => "a statement",
        _ => return None,
    })
}

/// Words for the parts of items: properties, types, item kinds, clauses and abilities.
fn item_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::modify_op => "`+=`, `-=`, `=`, `add` or `remove`",
        Rule::prop | Rule::scenario_prop => "a property line",
        Rule::prop_values | Rule::prop_value | Rule::bare_word | Rule::range_value => "a value",
        Rule::line_end => "the end of the line",
        Rule::params => "`(`",
        Rule::param => "a parameter",
        Rule::type_expr | Rule::list_type => "a type",
        Rule::optional_mark => "`?`",
        Rule::game_item
        | Rule::for_item
        | Rule::uses_item
        | Rule::part_item
        | Rule::enum_item
        | Rule::kind_item
        | Rule::zone_item
        | Rule::player_item
        | Rule::global_item
        | Rule::const_item
        | Rule::event_item
        | Rule::proc_item
        | Rule::func_item
        | Rule::hint_item
        | Rule::side_item
        | Rule::check_item
        | Rule::permit_item
        | Rule::forbid_item
        | Rule::trigger_item
        | Rule::modifier_item
        | Rule::replace_item
        | Rule::always_item
        | Rule::section_item
        | Rule::deckbuilding_item
        | Rule::deck_item
        | Rule::variant_item
        | Rule::scenario_item
        | Rule::object_item => "an item",
        Rule::field_decl | Rule::slot_decl | Rule::active_decl | Rule::label_decl => "`field`, `ability`, `active in` or `label`",
        Rule::zone_flag | Rule::per_player | Rule::shared => "a zone flag (`per player`, `shared`, `public`, `owner`, `hidden`, `ordered`)",
        Rule::requires_clause => "`requires`",
        Rule::when_clause => "`when`",
        Rule::by_clause => "`by`",
        Rule::do_clause => "`do`",
        Rule::trigger_on => "`on`",
        Rule::layer_clause => "`layer`",
        Rule::blank_effect | Rule::field_effect => "a modifier effect such as `o.power += 1`",
        Rule::optional_clause => "`optional by`",
        Rule::modifier_body | Rule::replace_body | Rule::choose_branches => "`{`",
        Rule::deck_rule => "`require`",
        Rule::each_clause => "`each`",
        Rule::sample_clause => "`sample \"why\"`",
        Rule::deck_entry => "a deck line such as `4 \"Card Name\"`",
        Rule::variant_replace | Rule::variant_remove | Rule::variant_add => "`replace`, `remove` or `add`",
        Rule::item_kind => {
            "an item kind (`proc`, `func`, `check`, `permit`, `forbid`, `trigger`, `modifier`, `replace`, `always`, `const`)"
        }
        Rule::ability | Rule::object_modifier | Rule::object_trigger | Rule::object_permit | Rule::object_forbid | Rule::object_replace => {
            "an ability"
        }
        Rule::cost_clause => "`cost`",
        Rule::target_clause => "`target`",
        Rule::target_where => "`where`",
        Rule::target_chooser => "`chosen by`",
        Rule::choose_from | Rule::choose_count | Rule::choose_up_to | Rule::choose_order => "`from`",
        Rule::choose_none => "`else`",
        Rule::choose_branch => "a choice such as `\"label\" => { .. }`",
        Rule::secret_mark => "`secretly`",
        Rule::move_flag | Rule::face_up | Rule::face_down => "`top`, `bottom`, `face up` or `face down`",
        Rule::put_where => "`under` or `over`",
        _ => return None,
    })
}

/// Words for the parts of scenarios (`random`, `expect`) and the keywords left.
fn scenario_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::roll_expr | Rule::pick_expr => "an expression",
        Rule::random_roll | Rule::random_keep | Rule::random_order | Rule::random_pick => "`roll`, `keep`, `order` or `pick`",
        Rule::expect_options
        | Rule::expect_finished
        | Rule::expect_not_finished
        | Rule::expect_goes_on
        | Rule::expect_winner
        | Rule::expect_draw
        | Rule::expect_refused
        | Rule::expect_event
        | Rule::expect_no_event
        | Rule::expect_no_log
        | Rule::expect_decision
        | Rule::expect_no_decision
        | Rule::expect_log
        | Rule::expect_expr => "an expectation",
        Rule::kw_immediately => "`immediately`",
        Rule::options_count | Rule::options_up_to | Rule::options_exactly | Rule::options_one | Rule::options_order | Rule::kw_up => {
            "`up to`, `exactly`, `one` or `order`"
        }
        Rule::kw_exactly => "`exactly`",
        Rule::kw_one => "`one`",
        Rule::kw_order => "`order`",
        Rule::kw_to => "`to`",
        Rule::kw_not | Rule::kw_finished => "`finished`",
        Rule::kw_goes | Rule::kw_on => "`goes on`",
        Rule::kw_winner => "`winner`",
        Rule::kw_draw => "`draw`",
        Rule::kw_refused | Rule::kw_answer => "`refused answer`",
        Rule::kw_no | Rule::kw_event | Rule::kw_log | Rule::kw_decision => "`decision`, `event` or `log`",
        Rule::kw_and_or => "an operator",
        Rule::comp_filter => "a list",
        Rule::quantifier => "`any`, `no` or `all`",
        Rule::slot_many => "`many`",
        Rule::open_mark => "`open`",
        _ => return None,
    })
}

/// The line (from 1) of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    text.get(..at).map_or(0, |b| b.matches('\n').count()) + 1
}

/// Where the line holding byte offset `at` starts.
fn line_start(text: &str, at: usize) -> usize {
    text.get(..at).and_then(|b| b.rfind('\n')).map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::PHRASES;

    /// The quoted word at the start of `s` (after spaces and a `~`), and what follows it.
    fn quoted(s: &str) -> Option<(&str, &str)> {
        let s = s.trim_start().strip_prefix('~')?.trim_start().strip_prefix('"')?;
        let end = s.find('"')?;
        Some((&s[..end], &s[end + 1..]))
    }

    /// Every two-word phrase the grammar guards with a `glued_*` rule (`!glued_else ~ "else" ~
    /// "if"`) has its help, and every phrase with help is one the grammar guards: the two lists
    /// are kept in step by hand (pest gives no way to read the grammar's rules as data).
    #[test]
    fn the_phrases_helped_are_those_the_grammar_refuses_run_together() {
        let grammar = include_str!("../../grammar/arbiter.pest");
        let mut guarded: Vec<(&str, &str)> = grammar
            .match_indices("!glued_")
            .filter_map(|(at, _)| {
                let rest = &grammar[at + "!glued_".len()..];
                let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
                let (a, rest) = quoted(rest)?;
                let (b, _) = quoted(rest)?;
                Some((a, b))
            })
            .collect();
        guarded.sort_unstable();
        guarded.dedup();
        let mut helped = PHRASES.to_vec();
        helped.sort_unstable();
        assert_eq!(helped, guarded);
    }
}
