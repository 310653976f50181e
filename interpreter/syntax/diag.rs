//! Diagnostics: every phase reports all of its errors as `Diag`s with spans; they are rendered
//! with miette, one report per error, the lines around its place as the source.

use crate::span::{SourceFile, Span};
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, Severity, SourceSpan, SpanContents,
};
use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Warning,
    Error,
}

/// One problem in a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct Diag {
    pub level: Level,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Other places the problem involves (the first of two definitions), each with its label.
    pub related: Vec<(Span, String)>,
}

impl Diag {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diag { level: Level::Error, message: message.into(), span, label: String::new(), help: None, related: Vec::new() }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diag { level: Level::Warning, message: message.into(), span, label: String::new(), help: None, related: Vec::new() }
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Another place the problem involves, shown beside the main one (in the same file) and
    /// given to editors as related information.
    pub fn related(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related.push((span, label.into()));
        self
    }

    pub fn maybe_help(mut self, help: Option<String>) -> Self {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
}

/// A `Diag` bound to its file, ready for miette.
struct Bound<'a> {
    diag: &'a Diag,
    src: Window<'a>,
}

impl fmt::Debug for Bound<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diag.message)
    }
}

impl fmt::Display for Bound<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diag.message)
    }
}

impl std::error::Error for Bound<'_> {}

impl Diagnostic for Bound<'_> {
    fn severity(&self) -> Option<Severity> {
        Some(match self.diag.level {
            Level::Warning => Severity::Warning,
            Level::Error => Severity::Error,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.diag.help.as_ref().map(|h| Box::new(h.clone()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.diag.span;
        let label = if self.diag.label.is_empty() { None } else { Some(self.diag.label.clone()) };
        let main = self.src.drawn(span, label);
        // Related places in the same file are labelled too (miette shows one file per report).
        let related = self.diag.related.iter().filter(move |(r, _)| r.file == span.file).map(|(r, l)| self.src.drawn(*r, Some(l.clone())));
        Some(Box::new(std::iter::once(main).chain(related)))
    }
}

/// A file as miette reads it: only the lines around a place, found with the file's line index
/// (miette's own reading of a text counts its lines from the start for every report, so that
/// thousands of reports on one file took minutes), and the file's text never copied.
struct Window<'a>(&'a SourceFile);

impl Window<'_> {
    /// A place as drawn: whole when it covers at most `DRAWN_LINES` lines, else its first line,
    /// the label saying where it ends.
    fn drawn(&self, span: Span, label: Option<String>) -> LabeledSpan {
        let (start, end) = (span.start as usize, (span.end as usize).max(span.start as usize));
        let first = self.0.line_index(start);
        let last = self.0.line_index(end.saturating_sub(1).max(start));
        if last - first < DRAWN_LINES {
            return LabeledSpan::new(label, start, end - start);
        }
        let line_end = self.0.line_start(first + 1).saturating_sub(1);
        let line = self.0.text.get(start..line_end).unwrap_or("").trim_end_matches('\r');
        let note = format!("runs on to line {}", last + 1);
        let label = Some(match label {
            Some(l) => format!("{l} ({note})"),
            None => note,
        });
        LabeledSpan::new(label, start, line.len())
    }
}

impl miette::SourceCode for Window<'_> {
    fn read_span<'a>(&'a self, span: &SourceSpan, before: usize, after: usize) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let file = self.0;
        let (start, len) = (span.offset(), span.len());
        let end = start.checked_add(len).filter(|e| *e <= file.text.len()).ok_or(MietteError::OutOfBounds)?;
        // The lines miette will read, and one more each side, from line starts (char boundaries).
        // miette counts a lone `\r` as a line end and the line index does not: such a file is
        // read from its start, as miette reads it (at most `SHOWN_PER_FILE` times).
        let first = if file.has_lone_cr() { 0 } else { file.line_index(start).saturating_sub(before + 1) };
        let from = file.line_start(first);
        let to = file.line_start(file.line_index(end) + after + 2);
        let text = file.text.get(from..to).ok_or(MietteError::OutOfBounds)?;
        let local = <str as miette::SourceCode>::read_span(text, &SourceSpan::new((start - from).into(), len), before, after)?;
        let at = SourceSpan::new((local.span().offset() + from).into(), local.span().len());
        Ok(Box::new(MietteSpanContents::new_named(
            file.name.clone(),
            local.data(),
            at,
            first + local.line(),
            local.column(),
            // The lines these contents cover (miette's reading counts from the text's start,
            // which made it join reports' places thousands of lines apart into one).
            local.line_count().saturating_sub(local.line()),
        )))
    }
}

/// How long (in bytes) the lines around a diagnostic's place may be, together, and still be
/// drawn: a place among longer lines is given by file, line and column.
const LONG_LINE: usize = 10_000;

/// A place drawn over more lines than this is drawn by its first line.
const DRAWN_LINES: usize = 4;

/// How many diagnostics are shown for one file; the rest are counted (`arbiter check`'s summary
/// still counts them all, and an editor gets them all).
pub const SHOWN_PER_FILE: usize = 100;

/// Renders diagnostics one at a time, at most [`SHOWN_PER_FILE`] for each file.
pub struct Renderer {
    handler: GraphicalReportHandler,
    shown: HashMap<String, usize>,
    /// Files with diagnostics not shown, in the order first met, and how many.
    hidden: Vec<(String, usize)>,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer {
            handler: GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100),
            shown: HashMap::new(),
            hidden: Vec::new(),
        }
    }
}

impl Renderer {
    /// Render `d` (its place found among `files`) onto `out`, unless its file has shown enough.
    pub fn add(&mut self, out: &mut String, d: &Diag, files: &[SourceFile]) {
        let file = SourceFile::find(files, d.span.file);
        let name = file.map(|f| f.name.as_str()).unwrap_or("");
        let shown = self.shown.entry(name.to_string()).or_default();
        if *shown >= SHOWN_PER_FILE {
            match self.hidden.iter_mut().find(|(n, _)| n == name) {
                Some((_, n)) => *n += 1,
                None => self.hidden.push((name.to_string(), 1)),
            }
            return;
        }
        *shown += 1;
        let plain = |out: &mut String, at: Option<String>| {
            let mark = if d.is_error() { "×" } else { "⚠" };
            out.push_str(&format!("  {mark} {}\n", d.message));
            if let Some(at) = at {
                out.push_str(&format!("   at {at}\n"));
            }
            if let Some(h) = &d.help {
                out.push_str(&format!("  help: {h}\n"));
            }
        };
        let Some(file) = file else {
            plain(out, None);
            return;
        };
        // miette cannot show a place that far along a line (it panics past column 65,535), and
        // draws every line it shows whole (a place on a line a megabyte long printed the
        // megabyte): such a place is given by file, line and column instead.
        let long = |o: u32| {
            let line = file.line_index(o as usize);
            let (from, to) = (file.line_start(line.saturating_sub(1)), file.line_start(line + 2));
            to.saturating_sub(from) > LONG_LINE
        };
        let far = std::iter::once(d.span)
            .chain(d.related.iter().map(|(r, _)| *r).filter(|r| r.file == d.span.file))
            .any(|s| long(s.start) || long(s.end));
        if far {
            let (line, col) = file.line_col(d.span.start as usize);
            plain(out, Some(format!("{}:{line}:{col}", file.name)));
            return;
        }
        let _ = self.handler.render_report(out, &Bound { diag: d, src: Window(file) });
        // Related places in other files (miette draws one file a report): named by file and line.
        for (r, label) in d.related.iter().filter(|(r, _)| r.file != d.span.file) {
            if let Some(f) = SourceFile::find(files, r.file) {
                let (line, col) = f.line_col(r.start as usize);
                out.push_str(&format!("  {label}: {}:{line}:{col}\n", f.name));
            }
        }
    }

    /// A line for each file with diagnostics not shown, saying how many.
    pub fn finish(&self, out: &mut String) {
        for (name, n) in &self.hidden {
            let more = if *n == 1 { "1 more problem".to_string() } else { format!("{n} more problems") };
            let file = if name.is_empty() { String::new() } else { format!(" in {name}") };
            out.push_str(&format!("  … and {more}{file}, not shown (the first {SHOWN_PER_FILE} of a file are)\n"));
        }
    }
}

/// Render diagnostics as text (no colour, fixed width, the same on every machine), at most
/// [`SHOWN_PER_FILE`] for each file.
pub fn render(diags: &[Diag], files: &[SourceFile]) -> String {
    let mut r = Renderer::default();
    let mut out = String::new();
    for d in diags {
        r.add(&mut out, d, files);
    }
    r.finish(&mut out);
    out
}

/// `text` cut to its first `most` characters, saying how many more there were: a value or a log
/// shown in a message is shown in part when it is huge (a text a million characters long, or a
/// hundred thousand events, printed whole).
pub fn clipped(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        None => text.to_string(),
        Some((cut, _)) => {
            let more = text.get(cut..).map_or(0, |rest| rest.chars().count());
            format!("{}… ({more} more characters)", text.get(..cut).unwrap_or(""))
        }
    }
}

/// Items (diagnostics, or what carries them) in the order of the places they point at: file by
/// file, the files in the order they first come, each file's by where in it (`place` gives the
/// file and the offset). A designer reads them top to bottom, while a checker finds them pass by
/// pass (names first, then bodies); those of one place keep their order.
pub fn in_line_order<T, F: PartialEq>(items: &mut [T], place: impl Fn(&T) -> (F, u32)) {
    let mut files: Vec<F> = Vec::new();
    for it in items.iter() {
        let (f, _) = place(it);
        if !files.contains(&f) {
            files.push(f);
        }
    }
    items.sort_by_key(|it| {
        let (f, at) = place(it);
        (files.iter().position(|x| *x == f), at)
    });
}

/// `1 error`, `3 errors, 1 warning`
pub fn summary(diags: &[Diag]) -> String {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, w: &str| if n == 1 { format!("{n} {w}") } else { format!("{n} {w}s") };
    match (errors, warnings) {
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

/// The longest name a did-you-mean help looks at (or suggests): typos are of names people type.
const SUGGESTED_LEN: usize = 64;

thread_local! {
    /// The comparisons of letters did-you-mean helps may still make on this thread, while a
    /// budget is set (`with_suggestion_budget`).
    static SUGGESTING: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Run `f` (a compile) with at most `cells` comparisons of letters for its did-you-mean helps:
/// thousands of mistakes, each compared with thousands of names, took minutes. Past the budget,
/// no help is suggested. The same compile gives the same helps, on any thread.
pub fn with_suggestion_budget<R>(cells: u64, f: impl FnOnce() -> R) -> R {
    /// Puts the budget before back, however `f` ends.
    struct Restore(Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SUGGESTING.set(self.0);
        }
    }
    let _restore = Restore(SUGGESTING.replace(Some(cells)));
    f()
}

/// The closest candidate to `name`, if one is close enough to be a likely typo.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    let lower = name.to_lowercase();
    let len = lower.chars().count();
    if len > SUGGESTED_LEN {
        return None;
    }
    let limit = if len <= 2 { 1 } else { (len / 3).max(2) };
    for c in candidates {
        if c == name {
            continue;
        }
        let other = c.to_lowercase();
        let other_len = other.chars().count();
        // Names whose lengths differ by more than the limit are further apart than it.
        if other_len > SUGGESTED_LEN || other_len.abs_diff(len) > limit {
            continue;
        }
        let cells = ((len + 1) * (other_len + 1)) as u64;
        let affordable = SUGGESTING.with(|b| match b.get() {
            Some(left) if left < cells => false,
            Some(left) => {
                b.set(Some(left - cells));
                true
            }
            None => true,
        });
        if !affordable {
            return None;
        }
        let d = edit_distance(&lower, &other);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| format!("did you mean `{c}`?"))
}

/// The name a did-you-mean help suggests (`did_you_mean`'s own wording read back): what an editor
/// offers as a quick fix in place of the diagnostic's span.
pub fn suggested(help: &str) -> Option<&str> {
    help.strip_prefix("did you mean `")?.strip_suffix("`?").filter(|s| !s.contains('`'))
}

/// Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    let at = |i: usize, j: usize| i * w + j;
    for i in 0..=a.len() {
        if let Some(x) = d.get_mut(at(i, 0)) {
            *x = i;
        }
    }
    for j in 0..=b.len() {
        if let Some(x) = d.get_mut(at(0, j)) {
            *x = j;
        }
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let get = |i: usize, j: usize| d.get(at(i, j)).copied().unwrap_or(usize::MAX / 2);
            let (ca, cb) = (a.get(i - 1), b.get(j - 1));
            let cost = usize::from(ca != cb);
            let mut v = (get(i - 1, j) + 1).min(get(i, j - 1) + 1).min(get(i - 1, j - 1) + cost);
            if i > 1 && j > 1 && ca == b.get(j - 2) && a.get(i - 2) == cb {
                v = v.min(get(i - 2, j - 2) + 1);
            }
            if let Some(x) = d.get_mut(at(i, j)) {
                *x = v;
            }
        }
    }
    d.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(did_you_mean("powr", ["power", "threat"]), Some("did you mean `power`?".into()));
        assert_eq!(did_you_mean("xyz", ["power", "threat"]), None);
        assert_eq!(did_you_mean("crad", ["card", "zone"]), Some("did you mean `card`?".into()));
        assert_eq!(did_you_mean("cnt", ["count", "sum"]), Some("did you mean `count`?".into()));
    }

    /// The window over a file gives miette what miette's own reading of the whole text gives:
    /// the same lines, place, line and column, for every place in files of every shape.
    #[test]
    fn a_window_reads_as_the_whole_text_does() {
        use crate::span::FileId;
        use miette::SourceCode;
        let texts = [
            "for g\nfunc f() = 1\n\nfunc g() = f() + 2\n",
            "a\r\nbb\r\n\r\nccc\r\n",
            "no newline at the end\nlast",
            "é\n€ two\n😀 three\n\n",
            "\n",
            "",
            "a // c\rb\n\nc\rd\n",
            &(0..30).map(|i| format!("line {i}\n")).collect::<String>(),
        ];
        for text in texts {
            let file = SourceFile::new(FileId::NOWHERE, "t.arb", text);
            let window = Window(&file);
            for start in 0..=text.len() {
                for len in 0..=(text.len() - start).min(14) {
                    for (before, after) in [(0, 0), (1, 1), (2, 2), (0, 1), (1, 0)] {
                        let span = SourceSpan::new(start.into(), len);
                        let whole = text.read_span(&span, before, after);
                        let part = window.read_span(&span, before, after);
                        match (whole, part) {
                            (Ok(w), Ok(p)) => {
                                let at = format!("{text:?} at {start}+{len}, context {before}/{after}");
                                assert_eq!(w.data(), p.data(), "{at}");
                                assert_eq!(w.span(), p.span(), "{at}");
                                assert_eq!((w.line(), w.column()), (p.line(), p.column()), "{at}");
                            }
                            (Err(_), Err(_)) => {}
                            (w, p) => panic!("{text:?} at {start}+{len}: {:?} and {:?}", w.is_ok(), p.is_ok()),
                        }
                    }
                }
            }
        }
    }
}
