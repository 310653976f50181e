//! Diagnostics: every phase reports all of its errors as `Diag`s with spans; they are rendered
//! with miette, one report per error, the file as the source.

use crate::syntax::span::{SourceFile, Span};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, Severity};
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
}

impl Diag {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diag { level: Level::Error, message: message.into(), span, label: String::new(), help: None }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diag { level: Level::Warning, message: message.into(), span, label: String::new(), help: None }
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
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

/// A `Diag` bound to its source text, ready for miette.
struct Bound<'a> {
    diag: &'a Diag,
    src: NamedSource<String>,
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
        let len = (span.end.saturating_sub(span.start)) as usize;
        let label = if self.diag.label.is_empty() { None } else { Some(self.diag.label.clone()) };
        Some(Box::new(std::iter::once(LabeledSpan::new(label, span.start as usize, len))))
    }
}

/// Render diagnostics as text (no colour, fixed width, the same on every machine).
pub fn render(diags: &[Diag], files: &[SourceFile]) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
    let mut out = String::new();
    for d in diags {
        let file = files.get(d.span.file as usize);
        let (name, text) = match file {
            Some(f) => (f.name.clone(), f.text.clone()),
            None => ("<unknown>".to_string(), String::new()),
        };
        let bound = Bound { diag: d, src: NamedSource::new(name, text) };
        let _ = handler.render_report(&mut out, &bound);
    }
    out
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

/// The closest candidate to `name`, if one is close enough to be a likely typo.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    let lower = name.to_lowercase();
    for c in candidates {
        if c == name {
            continue;
        }
        let d = levenshtein(&lower, &c.to_lowercase());
        let limit = (name.chars().count().max(3) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| format!("did you mean `{c}`?"))
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        if let Some(first) = cur.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let del = prev.get(j + 1).copied().unwrap_or(usize::MAX) + 1;
            let ins = cur.get(j).copied().unwrap_or(usize::MAX) + 1;
            let sub = prev.get(j).copied().unwrap_or(usize::MAX) + cost;
            if let Some(slot) = cur.get_mut(j + 1) {
                *slot = del.min(ins).min(sub);
            }
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(did_you_mean("powr", ["power", "threat"]), Some("did you mean `power`?".into()));
        assert_eq!(did_you_mean("xyz", ["power", "threat"]), None);
    }
}
