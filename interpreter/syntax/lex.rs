//! A lossless lexer: a file's text cut into tokens that, put back together, are the text again —
//! words, numbers, texts, comments, punctuation, spaces and line ends. It reads a file that does
//! not parse, and never fails.
//!
//! The parser does not use it (pest reads the grammar directly); the formatter, and the language
//! server's colours and reference search, do: one place that knows where a comment or a text
//! begins and ends.

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// Letters, digits and `_`, not starting with a digit: a name or a keyword.
    Word,
    /// Digits (a minus sign is punctuation).
    Number,
    /// A text in double quotes, with its quotes and any `{expr}` inside it, up to its closing
    /// quote or the end of its line, whichever comes first.
    Text,
    /// `// to the end of the line` (without the line end).
    LineComment,
    /// `/* to the closing */` (or the end of the file), line ends included.
    BlockComment,
    /// Spaces and tabs.
    Space,
    /// `\n` or `\r\n`.
    Newline,
    /// An operator of two characters (`==`, `!=`, `<=`, `>=`, `=>`, `+=`, `-=`) or any other
    /// single character.
    Punct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    /// Byte offsets into the text.
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        src.get(self.start..self.end).unwrap_or("")
    }
}

const TWO_CHAR_OPERATORS: [&str; 7] = ["==", "!=", "<=", ">=", "=>", "+=", "-="];

/// The tokens of `text`, in order, covering it exactly.
pub fn lex(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let (kind, end) = next(text, at);
        // Every branch of `next` moves on by at least one character.
        out.push(Token { kind, start: at, end });
        at = end;
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The token starting at byte `at` (not the end of `text`): its kind and where it ends.
fn next(text: &str, at: usize) -> (Tok, usize) {
    let rest = text.get(at..).unwrap_or("");
    let Some(c) = rest.chars().next() else { return (Tok::Punct, text.len()) };
    let after = |n: usize| at + n;
    if rest.starts_with("//") {
        return (Tok::LineComment, after(rest.find(['\n', '\r']).unwrap_or(rest.len())));
    }
    if rest.starts_with("/*") {
        return (Tok::BlockComment, rest.get(2..).and_then(|r| r.find("*/")).map_or(text.len(), |i| after(i + 4)));
    }
    if rest.starts_with("\r\n") {
        return (Tok::Newline, after(2));
    }
    match c {
        '\n' => (Tok::Newline, after(1)),
        ' ' | '\t' => (Tok::Space, after(rest.find(|c: char| c != ' ' && c != '\t').unwrap_or(rest.len()))),
        '"' => (Tok::Text, text_end(text, at)),
        c if c.is_ascii_digit() => (Tok::Number, after(rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len()))),
        c if is_word_char(c) => (Tok::Word, after(rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len()))),
        _ if TWO_CHAR_OPERATORS.iter().any(|op| rest.starts_with(op)) => (Tok::Punct, after(2)),
        c => (Tok::Punct, after(c.len_utf8())),
    }
}

/// Where the text starting with the quote at `at` ends: after its closing quote. `\"` and `{{`
/// do not end it; `{expr}` is code, which may hold texts of its own. A text ends at its line's
/// end at the latest, closed or not (so one unclosed quote does not swallow the file). Texts in
/// code in texts are followed with a stack, not by recursion: a line of `"{"{"{..` overflowed
/// the stack of the language server, which reads files that do not parse.
fn text_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at + 1;
    // For each text open, the innermost last: how many `{` of code are open in it (inside them,
    // `"` begins a nested text).
    let mut open: Vec<usize> = vec![0];
    while let (Some(&b), Some(depth)) = (bytes.get(i), open.last_mut()) {
        match b {
            b'\n' | b'\r' => return i,
            b'\\' if *depth == 0 => i += 2,
            b'"' if *depth == 0 => {
                open.pop();
                i += 1;
                if open.is_empty() {
                    return i;
                }
            }
            b'"' => {
                open.push(0);
                i += 1;
            }
            b'{' if *depth == 0 && bytes.get(i + 1) == Some(&b'{') => i += 2,
            b'}' if *depth == 0 && bytes.get(i + 1) == Some(&b'}') => i += 2,
            b'{' => {
                *depth += 1;
                i += 1;
            }
            b'}' => {
                *depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => i += 1,
        }
    }
    text.len().min(i)
}

/// The `{` still open at byte `at`, outermost first: braces in texts and comments do not count.
pub fn open_braces(text: &str, at: usize) -> Vec<usize> {
    let mut open = Vec::new();
    for t in lex(text.get(..at).unwrap_or("")) {
        match (t.kind, t.text(text)) {
            (Tok::Punct, "{") => open.push(t.start),
            (Tok::Punct, "}") => {
                open.pop();
            }
            _ => {}
        }
    }
    open
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Tok, &str)> {
        lex(text).iter().map(|t| (t.kind, t.text(text))).collect()
    }

    #[test]
    fn tokens_cover_the_text() {
        let text = "func f(x: int) = x >= -1 // é\r\n/* a\n b */ \"a \\\" {f(\"}\")} {{\" bsg-ccg\n\"open";
        let toks = lex(text);
        let joined: String = toks.iter().map(|t| t.text(text)).collect();
        assert_eq!(joined, text);
        assert_eq!(
            kinds(text),
            vec![
                (Tok::Word, "func"),
                (Tok::Space, " "),
                (Tok::Word, "f"),
                (Tok::Punct, "("),
                (Tok::Word, "x"),
                (Tok::Punct, ":"),
                (Tok::Space, " "),
                (Tok::Word, "int"),
                (Tok::Punct, ")"),
                (Tok::Space, " "),
                (Tok::Punct, "="),
                (Tok::Space, " "),
                (Tok::Word, "x"),
                (Tok::Space, " "),
                (Tok::Punct, ">="),
                (Tok::Space, " "),
                (Tok::Punct, "-"),
                (Tok::Number, "1"),
                (Tok::Space, " "),
                (Tok::LineComment, "// é"),
                (Tok::Newline, "\r\n"),
                (Tok::BlockComment, "/* a\n b */"),
                (Tok::Space, " "),
                (Tok::Text, "\"a \\\" {f(\"}\")} {{\""),
                (Tok::Space, " "),
                (Tok::Word, "bsg"),
                (Tok::Punct, "-"),
                (Tok::Word, "ccg"),
                (Tok::Newline, "\n"),
                (Tok::Text, "\"open"),
            ]
        );
    }

    #[test]
    fn unclosed_things_end_at_the_end() {
        assert_eq!(kinds("/* never closed"), vec![(Tok::BlockComment, "/* never closed")]);
        assert_eq!(kinds("\"{ never"), vec![(Tok::Text, "\"{ never")]);
        assert_eq!(kinds("\"\\"), vec![(Tok::Text, "\"\\")]);
    }

    /// Texts in code in texts, as deep as a line of a file may hold them, end with the line
    /// (followed with a stack: recursion overflowed the stack).
    #[test]
    fn texts_nested_without_end_end_with_their_line() {
        let line = "\"{".repeat(300_000);
        let text = format!("{line}\nx");
        assert_eq!(kinds(&text), vec![(Tok::Text, line.as_str()), (Tok::Newline, "\n"), (Tok::Word, "x")]);
        assert_eq!(
            kinds("\"a {\"b {\"c\"} d\"} e\" f"),
            vec![(Tok::Text, "\"a {\"b {\"c\"} d\"} e\""), (Tok::Space, " "), (Tok::Word, "f")]
        );
    }
}
