//! The source map: every file the project reads, each given an id once, when its text is read, and
//! parsed at most once.
//!
//! A file's tree carries its id in every span, so it is valid wherever the file is used: in each
//! game that loads it (a card file reached through two games, the standard library in every game),
//! and on its own (a scenario file peeked at to learn its game). Nothing is re-numbered.
//!
//! A file is known by the path it was read from and its text: read again with the same text, it
//! is the same file with the same id and the same tree; read with another text (it was edited
//! meanwhile), it is a new file with a new id, and trees of the old text keep pointing at the old
//! text. Files are never removed: a game holds the files it was loaded from
//! (`Game::files`), and finds a span's file there by id.

use super::ast::File;
use super::parse_file;
use super::span::{FileId, SourceFile};
use crate::diag::Diag;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Every file read, by id; shared by everything that reads files for one project (a `Project`
/// holds it behind an `Arc`). Safe to use from many threads: files are parsed outside its lock.
#[derive(Default)]
pub struct SourceMap {
    inner: Mutex<Files>,
}

#[derive(Default)]
struct Files {
    /// File `FileId(n)` at `n - 1` (no file is `FileId::NOWHERE`).
    all: Vec<Arc<Entry>>,
    /// The ids read from each path, oldest first.
    by_path: HashMap<PathBuf, Vec<FileId>>,
}

/// A file and its tree, parsed the first time it is asked for.
struct Entry {
    source: SourceFile,
    tree: OnceLock<Result<Arc<File>, Diag>>,
}

/// How many versions of one path's text the map keeps (see `SourceMap::read`).
pub const VERSIONS_KEPT: usize = 4;

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// A file's text as read from `path`: the file already read from there with the same text
    /// (its id), or a new file with a new id, named `name()` (the path as messages show it).
    pub fn read(&self, path: &Path, text: String, name: impl FnOnce() -> String) -> SourceFile {
        let mut files = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = files.by_path.get(path).into_iter().flatten().find_map(|id| {
            let e = files.all.get((id.0 as usize).checked_sub(1)?)?;
            (*e.source.text == *text).then(|| e.source.clone())
        }) {
            return known;
        }
        // Ids count from 1 (0 is nowhere); a program that reads four billion files gets no more.
        let id = u32::try_from(files.all.len() + 1).ok().filter(|n| *n < FileId::NONE.0).map_or(FileId::NONE, FileId);
        let source = SourceFile::new(id, name(), text);
        files.all.push(Arc::new(Entry { source: source.clone(), tree: OnceLock::new() }));
        let versions = files.by_path.entry(path.to_path_buf()).or_default();
        versions.push(id);
        // A file edited again and again (an editor's buffer, `arbiter lsp`) keeps only its latest
        // versions: an older one's text and tree are let go (what was compiled from it keeps its
        // own copy of the text), and reading that text again gives it a new id.
        let forgotten: Vec<FileId> =
            if versions.len() > VERSIONS_KEPT { versions.drain(..versions.len() - VERSIONS_KEPT).collect() } else { vec![] };
        for old in forgotten {
            if let Some(slot) = (old.0 as usize).checked_sub(1).and_then(|i| files.all.get_mut(i)) {
                let name = slot.source.name.clone();
                *slot = Arc::new(Entry { source: SourceFile::new(old, name, String::new()), tree: OnceLock::new() });
            }
        }
        source
    }

    /// A text that was not read from a file (a test's, a fuzzer's), named `name`: `read` with the
    /// name as its path.
    pub fn add(&self, name: &str, text: String) -> SourceFile {
        self.read(Path::new(name), text, || name.to_string())
    }

    /// The file with this id, if it was read here.
    pub fn get(&self, id: FileId) -> Option<SourceFile> {
        self.entry(id).map(|e| e.source.clone())
    }

    /// How many files have been read.
    pub fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).all.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The file's tree (or its syntax error), its spans in the file's id: parsed the first time it
    /// is asked for, then shared. A file not read here is parsed, not kept.
    pub fn parse(&self, file: &SourceFile) -> Result<Arc<File>, Diag> {
        match self.entry(file.id).filter(|e| Arc::ptr_eq(&e.source.text, &file.text)) {
            Some(e) => e.tree.get_or_init(|| parse_file(file.id, &file.text).map(Arc::new)).clone(),
            None => parse_file(file.id, &file.text).map(Arc::new),
        }
    }

    fn entry(&self, id: FileId) -> Option<Arc<Entry>> {
        let files = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        files.all.get((id.0 as usize).checked_sub(1)?).cloned()
    }
}

impl std::fmt::Debug for SourceMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SourceMap({} files)", self.len())
    }
}
