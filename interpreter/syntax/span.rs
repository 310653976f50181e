//! Source spans: a file id and a byte range. Lines and columns are computed only when a
//! diagnostic or a trace is rendered.
//!
//! A file gets its id once, when its text is read into the project's [`SourceMap`]
//! (`syntax::source_map`), and keeps it: a tree parsed from the file carries that id in every span,
//! so the same tree is valid in every game that loads the file, and in the file peeked at on its
//! own. A game finds a span's file among its own files by that id ([`SourceFile::find`]).
//!
//! Saved games number a game's files differently: by their place in the game's load order (the
//! first file is 0), so that a save does not depend on what else the program happened to read
//! before. [`FileNumbers`] turns ids into those numbers and back while a save is written or read.
//!
//! [`SourceMap`]: super::source_map::SourceMap

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

/// A file's id, given by the source map when its text is read.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub(super) u32);

impl FileId {
    /// No file in particular: `Span::default()`, where the runtime raises an error outside any
    /// statement (a turn budget). It is shown at the start of the game's first file, and saved as
    /// file 0, as before files had ids. No file read gets this id.
    pub const NOWHERE: FileId = FileId(0);
    /// No file at all: a problem from outside the files (a command-line option); shown without
    /// source.
    pub const NONE: FileId = FileId(u32::MAX);
}

impl fmt::Debug for FileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Where a node came from: its file's id and a byte range.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(from = "SavedSpan", into = "SavedSpan")]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// A span for problems that come from no file (a command-line option, say).
    pub const NONE: Span = Span { file: FileId::NONE, start: 0, end: 0 };

    pub fn new(file: FileId, start: usize, end: usize) -> Self {
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
        write!(f, "@{}:{}..{}", self.file.0, self.start, self.end)
    }
}

/// A span as serialized: the file as a number (see [`FileNumbers`]).
#[derive(Clone, Copy, Serialize, Deserialize)]
struct SavedSpan {
    file: u32,
    start: u32,
    end: u32,
}

impl From<Span> for SavedSpan {
    fn from(s: Span) -> SavedSpan {
        let file = NUMBERS.with_borrow(|n| n.as_ref().map_or(s.file.0, |n| n.number(s.file)));
        SavedSpan { file, start: s.start, end: s.end }
    }
}

impl From<SavedSpan> for Span {
    fn from(s: SavedSpan) -> Span {
        let file = NUMBERS.with_borrow(|n| n.as_ref().map_or(FileId(s.file), |n| n.id(s)));
        Span { file, start: s.start, end: s.end }
    }
}

thread_local! {
    /// The numbers spans are written and read in on this thread (`FileNumbers::scope`); none: ids.
    static NUMBERS: RefCell<Option<FileNumbers>> = const { RefCell::new(None) };
}

/// A game's files numbered as its saves number them: by their place in the game's load order.
///
/// A save must not depend on what else the program read (`arbiter check` reads every game,
/// `arbiter play` one; a library user may read anything first), so its spans do not hold ids:
/// they hold these numbers, which depend on the game's files alone. Outside [`FileNumbers::scope`]
/// a span serializes its id (a state compared in memory, say).
#[derive(Debug, Clone, Default)]
pub struct FileNumbers {
    /// The game's files' ids, in load order: a file's number is its place here.
    ids: Vec<FileId>,
    /// The same, sorted by id, with each number.
    by_id: Vec<(FileId, u32)>,
}

impl FileNumbers {
    /// The numbers of these files, as the game loaded them.
    pub fn of(files: &[SourceFile]) -> FileNumbers {
        let ids: Vec<FileId> = files.iter().map(|f| f.id).collect();
        let mut by_id: Vec<(FileId, u32)> = ids.iter().enumerate().map(|(i, id)| (*id, u32::try_from(i).unwrap_or(u32::MAX))).collect();
        by_id.sort_unstable();
        FileNumbers { ids, by_id }
    }

    /// Run `f` (a save being written or read) with every span serialized in these numbers.
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        /// Puts back the numbers in force before, however `f` ends.
        struct Restore(Option<FileNumbers>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let before = self.0.take();
                NUMBERS.with_borrow_mut(|n| *n = before);
            }
        }
        let _restore = Restore(NUMBERS.with_borrow_mut(|n| n.replace(self.clone())));
        f()
    }

    /// A file's number: nowhere is 0, as `Span::default()` was saved before files had ids; a file
    /// that is not the game's (none should be) is saved as no file.
    fn number(&self, id: FileId) -> u32 {
        if id == FileId::NOWHERE {
            return 0;
        }
        match self.by_id.binary_search_by_key(&id, |(i, _)| *i) {
            Ok(at) => self.by_id.get(at).map_or(u32::MAX, |(_, n)| *n),
            Err(_) => u32::MAX,
        }
    }

    /// The file a saved span's number names: the empty span at the start of file 0 is nowhere
    /// (`Span::default()`, as it always read back); a number past the game's files is no file.
    fn id(&self, s: SavedSpan) -> FileId {
        if (s.file, s.start, s.end) == (0, 0, 0) {
            return FileId::NOWHERE;
        }
        self.ids.get(s.file as usize).copied().unwrap_or(FileId::NONE)
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

/// A file as read: its id, its name and its text. Cloning it is cheap: the text and its line
/// index are shared. Made by the source map ([`super::source_map::SourceMap::add`]).
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub id: FileId,
    /// The path as given (relative to the project root where possible).
    pub name: String,
    pub text: Arc<str>,
    /// Byte offsets where lines start.
    line_starts: Arc<[usize]>,
    /// Whether a `\r` not followed by `\n` is in the text: miette counts it as a line end, the
    /// line index does not (see `diag::Window`).
    lone_cr: bool,
}

impl SourceFile {
    pub(super) fn new(id: FileId, name: impl Into<String>, text: impl Into<Arc<str>>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        let mut lone_cr = false;
        let bytes = text.as_bytes();
        for (i, b) in bytes.iter().enumerate() {
            match b {
                b'\n' => line_starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => lone_cr = true,
                _ => {}
            }
        }
        SourceFile { id, name: name.into(), text, line_starts: line_starts.into(), lone_cr }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_index(offset);
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let col = self.text.get(start..offset).map(|s| s.chars().count()).unwrap_or(0);
        (line + 1, col + 1)
    }

    /// 0-based line of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// Where 0-based line `line` starts (the text's end past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts.get(line).copied().unwrap_or(self.text.len())
    }

    /// Whether the text holds a `\r` that is not part of a `\r\n`.
    pub fn has_lone_cr(&self) -> bool {
        self.lone_cr
    }

    /// The text of a span, if it lies in this file.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    /// The file with this id among `files` (a game's, or a load's). Nowhere is the first file,
    /// where errors raised outside any statement have always been shown.
    pub fn find(files: &[SourceFile], file: FileId) -> Option<&SourceFile> {
        if file == FileId::NOWHERE {
            return files.first();
        }
        files.iter().find(|f| f.id == file)
    }
}
