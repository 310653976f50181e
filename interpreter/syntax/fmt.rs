//! The canonical layout of a source file (`arbiter fmt`).
//!
//! The formatter works on the lexer's tokens, so it keeps every word, text and comment, and every
//! line break the author chose: which lines a file has is the author's business. It decides only
//! the space around tokens:
//!
//! - **Indentation:** two spaces for each block, list or parenthesis left open by an earlier line,
//!   counted once per line (`f([` on one line indents the next by one step, not two). A line that
//!   begins with closers is indented as the line that opened them. A line that continues an
//!   expression is indented one step more: the line before ends with an operator or one of
//!   `and or then else not in has where from`, or this line begins with an operator (not `-`) or
//!   one of `and or then else in has where from` (but not after a line ending in `}`, and never a
//!   line that begins with `{`). A `/* */` comment over several lines moves with its first line.
//! - **Spaces within a line:** one space between tokens where the author put any, and these fixed
//!   rules: none after `(` and `[` or before `)`, `]`, `,`, `;` and `:`; one after `,`, `;` and `:`;
//!   one around `=`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `=>`, `+=`, `-=`, `+`, `*`, `/` and `%`; one
//!   before `{`, and inside braces that hold something on the same line (`{}` stays empty); one
//!   before a `//` comment. A minus sign keeps the space the author gave it, since it is also a
//!   part of names like `bsg-ccg` and numbers like `-1`.
//! - **Blank lines:** at most one in a row; none at the start or end of the file, after a line
//!   that opens a block or before a line that closes one. The file ends with one line end.
//! - No space at the end of a line, and `\n` line ends (but inside a `/* */` comment the text
//!   is kept as written).
//!
//! `format` itself knows no grammar; `arbiter fmt` formats only files that parse, and keeps the
//! result only if it parses to the same tree (spans aside).

use super::lex::{Tok, Token, lex};
use super::source_map::SourceMap;
use super::span::SourceFile;
use crate::diag::Diag;

const INDENT: &str = "  ";

/// Operators with one space on each side.
const SPACED: [&str; 14] = ["=", "==", "!=", "<", "<=", ">", ">=", "=>", "+=", "-=", "+", "*", "/", "%"];

/// Words that leave an expression unfinished: a line that ends with one continues on the next.
const JOINING_AT_END: [&str; 9] = ["and", "or", "then", "else", "not", "in", "has", "where", "from"];

/// Words that cannot begin a statement: a line that begins with one continues the line before.
const JOINING_AT_START: [&str; 8] = ["and", "or", "then", "else", "in", "has", "where", "from"];

/// One line of the file: its tokens other than spaces and the line end, each with whether the
/// author put space before it.
struct Line<'a> {
    tokens: Vec<(Token, bool, &'a str)>,
    /// How many spaces and tabs the line began with.
    indent: usize,
}

impl Line<'_> {
    fn is_blank(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The last token that is not a comment.
    fn last_code(&self) -> Option<(Tok, &str)> {
        self.tokens.iter().rev().find(|(t, ..)| !is_comment(t.kind)).map(|(t, _, s)| (t.kind, *s))
    }

    fn first(&self) -> Option<(Tok, &str)> {
        self.tokens.first().map(|(t, _, s)| (t.kind, *s))
    }
}

fn is_comment(kind: Tok) -> bool {
    matches!(kind, Tok::LineComment | Tok::BlockComment)
}

fn is_opener(kind: Tok, s: &str) -> bool {
    kind == Tok::Punct && matches!(s, "{" | "[" | "(")
}

fn is_closer(kind: Tok, s: &str) -> bool {
    kind == Tok::Punct && matches!(s, "}" | "]" | ")")
}

/// An operator or word that cannot end an expression, so what follows on the next line continues
/// it.
fn joins(kind: Tok, s: &str) -> bool {
    match kind {
        Tok::Word => JOINING_AT_END.contains(&s),
        Tok::Punct => SPACED.contains(&s) || s == "-",
        _ => false,
    }
}

/// A token that can begin a line only as the continuation of the line before (not `-`, which may
/// begin a number in a list).
fn begins_continuation(kind: Tok, s: &str) -> bool {
    match kind {
        Tok::Word => JOINING_AT_START.contains(&s),
        Tok::Punct => SPACED.contains(&s),
        _ => false,
    }
}

/// `text` in the canonical layout.
pub fn format(text: &str) -> String {
    let lines = split_lines(text);
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    // For each bracket still open: the indentation level inside it, and that of the line that
    // opened it (where its closing line goes).
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut blank_pending = false;
    // The line before, and the last line before with code in it.
    let mut previous: Option<&Line> = None;
    let mut previous_code: Option<(Tok, &str)> = None;
    for line in &lines {
        if line.is_blank() {
            blank_pending = previous.is_some();
            continue;
        }
        let (first_kind, first) = line.first().unwrap_or((Tok::Space, ""));
        let leading_closers = line.tokens.iter().take_while(|(t, _, s)| is_closer(t.kind, s)).count();
        if blank_pending && leading_closers == 0 && !previous.and_then(Line::last_code).is_some_and(|(k, s)| is_opener(k, s)) {
            out.push('\n');
        }
        blank_pending = false;
        let base = match leading_closers {
            0 => open.last().map_or(0, |o| o.0),
            n => open.len().checked_sub(n).and_then(|i| open.get(i)).map_or(0, |o| o.1),
        };
        // A line after a block (`}` then `else {` on the next line), or one that opens a block,
        // is no continuation.
        let continues = leading_closers == 0
            && !is_opener(first_kind, first)
            && match previous_code {
                Some((k, s)) if joins(k, s) => true,
                Some((Tok::Punct, "}")) => false,
                _ => begins_continuation(first_kind, first),
            };
        let level = base + usize::from(continues);
        for _ in 0..level {
            out.push_str(INDENT);
        }
        let mut before: Option<(Tok, &str)> = None;
        for &(token, spaced, s) in &line.tokens {
            if let Some((k, p)) = before
                && space_between(k, p, token.kind, s, spaced)
            {
                out.push(' ');
            }
            match token.kind {
                Tok::LineComment => out.push_str(s.trim_end()),
                Tok::BlockComment => {
                    // Its lines move with its first line when that is the line's first token.
                    let moved = if before.is_none() { (level * INDENT.len()) as isize - line.indent as isize } else { 0 };
                    push_block_comment(&mut out, s, moved);
                }
                _ => out.push_str(s),
            }
            if is_opener(token.kind, s) {
                open.push((level + 1, level));
            } else if is_closer(token.kind, s) {
                open.pop();
            }
            before = Some((token.kind, s));
        }
        out.push('\n');
        previous = Some(line);
        previous_code = line.last_code().or(previous_code);
    }
    out
}

/// The line that keeps a whole file as it is written (a file that is broken on purpose, a
/// layout kept by hand).
pub const SKIP_MARK: &str = "// fmt: skip";

/// Whether the file has a line comment that begins `// fmt: skip` (a reason may follow).
pub fn skipped(text: &str) -> bool {
    lex(text).iter().any(|t| t.kind == Tok::LineComment && t.text(text).starts_with(SKIP_MARK))
}

/// Why a file was not formatted.
#[derive(Debug)]
pub enum Refused {
    /// It does not parse (the syntax error, and the file it points into).
    Syntax(Box<Diag>, SourceFile),
    /// The formatted text would parse to another tree: a fault of the formatter, caught before
    /// anything is written. The first line where the two texts differ.
    Meaning { line: usize },
    /// The formatted text would be larger than a file may be (`budgets::FILE_LIMIT`): its length.
    TooLarge { bytes: usize },
}

/// `text` (the file `name`) in the canonical layout, if it parses and the layout keeps its tree.
pub fn format_checked(name: &str, text: &str) -> Result<String, Refused> {
    let map = SourceMap::new();
    let before = map.add(name, text.to_string());
    let tree = match map.parse(&before) {
        Ok(tree) => tree,
        Err(d) => return Err(Refused::Syntax(Box::new(d), before)),
    };
    let formatted = format(text);
    if formatted == text {
        return Ok(formatted);
    }
    if formatted.len() > crate::budgets::FILE_LIMIT {
        return Err(Refused::TooLarge { bytes: formatted.len() });
    }
    // Read under the same file id, so that the trees differ at most in their spans.
    match super::parse_file(before.id, &formatted) {
        Ok(again) if without_spans(&format!("{again:?}")) == without_spans(&format!("{tree:?}")) => Ok(formatted),
        _ => Err(Refused::Meaning { line: first_difference(text, &formatted) }),
    }
}

/// A tree's `Debug` text with every span (`@FILE:START..END`) cut down to `@`: two trees read
/// the same whatever their places in the text. (Some nodes hold a bare `Span`, which `==`
/// compares, unlike `Spanned`'s.)
fn without_spans(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(at) = rest.find('@') {
        out.push_str(rest.get(..=at).unwrap_or(""));
        rest = rest.get(at + 1..).unwrap_or("");
        let span_len = span_length(rest);
        rest = rest.get(span_len..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// The length of `DIGITS:DIGITS..DIGITS` at the start of `s` (0 if it is not there).
fn span_length(s: &str) -> usize {
    let digits = |from: usize| s.get(from..).map_or(0, |r| r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len()));
    let file = digits(0);
    if file == 0 || s.get(file..file + 1) != Some(":") {
        return 0;
    }
    let start = digits(file + 1);
    if start == 0 || s.get(file + 1 + start..file + 3 + start) != Some("..") {
        return 0;
    }
    let end = digits(file + 3 + start);
    if end == 0 { 0 } else { file + 3 + start + end }
}

/// The first line (from 1) where two texts differ.
pub fn first_difference(a: &str, b: &str) -> usize {
    a.split('\n').zip(b.split('\n')).take_while(|(x, y)| x == y).count() + 1
}

/// A `/* */` comment, its line ends made `\n`, its lines after the first moved right (or left,
/// as far as their leading spaces go) by `moved` columns; blank lines stay empty.
fn push_block_comment(out: &mut String, comment: &str, moved: isize) {
    for (n, piece) in comment.split('\n').enumerate() {
        let piece = piece.strip_suffix('\r').unwrap_or(piece);
        if n == 0 {
            out.push_str(piece);
            continue;
        }
        out.push('\n');
        if moved > 0 && !piece.trim().is_empty() {
            out.push_str(&" ".repeat(moved.unsigned_abs()));
            out.push_str(piece);
        } else if moved < 0 {
            let leading = piece.len() - piece.trim_start_matches([' ', '\t']).len();
            out.push_str(piece.get(leading.min(moved.unsigned_abs())..).unwrap_or(piece));
        } else {
            out.push_str(piece);
        }
    }
}

/// Whether one space goes between the tokens `a` and `b` on one line; `spaced` is whether the
/// author put any.
fn space_between(ak: Tok, a: &str, bk: Tok, b: &str, spaced: bool) -> bool {
    if bk == Tok::LineComment {
        return true;
    }
    if ak == Tok::BlockComment || bk == Tok::BlockComment {
        return spaced;
    }
    let punct = |k: Tok, s: &str, set: &[&str]| k == Tok::Punct && set.contains(&s);
    if punct(ak, a, &["(", "["]) || punct(bk, b, &[")", "]", ",", ";", ":"]) {
        return false;
    }
    if punct(ak, a, &[",", ";", ":"]) || punct(ak, a, &SPACED) || punct(bk, b, &SPACED) {
        return true;
    }
    if punct(ak, a, &["{"]) {
        return !punct(bk, b, &["}"]);
    }
    if punct(bk, b, &["{", "}"]) {
        return true;
    }
    spaced
}

/// The file's lines, each without its spaces and line end.
fn split_lines(text: &str) -> Vec<Line<'_>> {
    let mut lines = vec![Line { tokens: Vec::new(), indent: 0 }];
    let mut spaced = false;
    for token in lex(text) {
        match token.kind {
            Tok::Space => {
                spaced = true;
                if let Some(line) = lines.last_mut()
                    && line.tokens.is_empty()
                {
                    line.indent = token.end - token.start;
                }
            }
            Tok::Newline => {
                lines.push(Line { tokens: Vec::new(), indent: 0 });
                spaced = false;
            }
            _ => {
                if let Some(line) = lines.last_mut() {
                    line.tokens.push((token, spaced, token.text(text)));
                }
                spaced = false;
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::format;

    #[test]
    fn indentation_follows_the_brackets_left_open() {
        let text = "proc p() {\nif x {\n      log \"a\"\n} else {\n call f([1,\n2])\n    }\n}\n";
        assert_eq!(format(text), "proc p() {\n  if x {\n    log \"a\"\n  } else {\n    call f([1,\n      2])\n  }\n}\n");
    }

    #[test]
    fn spaces_within_a_line_are_fixed() {
        let text = "func f( a :int,b )=a==1  and x-1>=-2  // note   \nlet l = [ 1 , 2 ]\ncall g{ }\nzone hand{size 7}\n";
        assert_eq!(format(text), "func f(a: int, b) = a == 1 and x-1 >= -2 // note\nlet l = [1, 2]\ncall g {}\nzone hand { size 7 }\n");
    }

    #[test]
    fn texts_and_comments_are_kept_as_written() {
        let text = "log  \"a  ( b ,c\"   /*  x ,\n   y  */  call   f()\n";
        assert_eq!(format(text), "log \"a  ( b ,c\" /*  x ,\n   y  */ call f()\n");
    }

    #[test]
    fn blank_lines_are_at_most_one_and_never_inside_the_edges_of_a_block() {
        let text = "\n\nkind a {\n\n  field x: int\n\n\n  field y: int\n\n}\n\n\n";
        assert_eq!(format(text), "kind a {\n  field x: int\n\n  field y: int\n}\n");
    }

    #[test]
    fn a_continued_expression_is_indented_one_step() {
        let text = "func h() = [1]\n+ [2]\nfunc f() = a and\n// c\nb and\nc\nfunc g() =\nx\n  or y\nproc p() {\nif x {\n}\nelse {\n}\nlet z = a and not\nb\nlet t = [u in us where\nu.face_up]\n}\n";
        assert_eq!(
            format(text),
            "func h() = [1]\n  + [2]\nfunc f() = a and\n  // c\n  b and\n  c\nfunc g() =\n  x\n  or y\nproc p() {\n  if x {\n  }\n  else {\n  }\n  let z = a and not\n    b\n  let t = [u in us where\n      u.face_up]\n}\n"
        );
    }

    #[test]
    fn spans_are_left_out_of_a_tree_compared() {
        assert_eq!(super::without_spans("Log(\"a@b\" @1:20..25) x @12:3..4@"), "Log(\"a@b\" @) x @@");
        assert_eq!(super::without_spans("@1:2.."), "@1:2..");
    }

    #[test]
    fn a_closer_lines_up_with_the_line_that_opened_it() {
        let text = "proc p() {\nif a {\n} else\n{\nlog \"b\"\n}\nlet x = a and\nf(\nb\n)\n}\n";
        assert_eq!(format(text), "proc p() {\n  if a {\n  } else\n  {\n    log \"b\"\n  }\n  let x = a and\n    f(\n      b\n    )\n}\n");
    }

    #[test]
    fn a_block_comment_over_lines_moves_with_its_first_line() {
        let text = "proc p() {\r\n      /* first\r\n       * second\r\n\r\n       */\r\n}\r\n";
        assert_eq!(format(text), "proc p() {\n  /* first\n   * second\n\n   */\n}\n");
        let text = "proc p() {\n/* first\n * second */\n}\n";
        assert_eq!(format(text), "proc p() {\n  /* first\n   * second */\n}\n");
    }

    #[test]
    fn the_first_difference_counts_lines_ended_by_crlf() {
        assert_eq!(super::first_difference("a\r\nb\r\n", "a\nb\n"), 1);
        assert_eq!(super::first_difference("a\nb\nc", "a\nb\nd"), 3);
    }

    #[test]
    fn formatting_twice_changes_nothing_the_second_time() {
        let text = "proc p(){\n\n  if a==b{call f( [1,2 ,\n3] )}   \n\r\n\r\n // c  \n}";
        let once = format(text);
        assert_eq!(format(&once), once);
    }
}
