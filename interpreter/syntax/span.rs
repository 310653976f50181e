//! Source spans: a file index and a byte range. Lines and columns are computed only when a
//! diagnostic or a trace is rendered.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Where a node came from: the file (an index into the loaded sources) and a byte range.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Span {
    pub file: u32,
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// A span for problems that come from no file (a command-line option, say).
    pub const NONE: Span = Span { file: u32::MAX, start: 0, end: 0 };

    pub fn new(file: u32, start: usize, end: usize) -> Self {
        Span { file, start: u32::try_from(start).unwrap_or(u32::MAX), end: u32::try_from(end).unwrap_or(u32::MAX) }
    }

    /// The span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}:{}..{}", self.file, self.start, self.end)
    }
}

/// A node with its span. Equality ignores the span.
#[derive(Clone, Serialize, Deserialize)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

impl<T: fmt::Debug> fmt::Debug for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.fmt(f)?;
        write!(f, " {:?}", self.span)
    }
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.node
    }
}

/// A loaded source file. Cloning it is cheap: the text and its line index are shared.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as given (relative to the project root where possible).
    pub name: String,
    pub text: Arc<str>,
    /// Byte offsets where lines start.
    line_starts: Arc<[usize]>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        SourceFile { name: name.into(), text, line_starts: line_starts.into() }
    }

    /// The same text under another name, sharing the text and its line index.
    pub fn renamed(&self, name: impl Into<String>) -> Self {
        SourceFile { name: name.into(), text: self.text.clone(), line_starts: self.line_starts.clone() }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let col = self.text.get(start..offset).map(|s| s.chars().count()).unwrap_or(0);
        (line + 1, col + 1)
    }

    /// The text of a span, if it lies in this file.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    /// The file a span's `file` names among `files`, if it is there.
    pub fn find(files: &[SourceFile], file: u32) -> Option<&SourceFile> {
        files.get(file as usize)
    }
}
