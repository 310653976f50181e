//! `arbiter lsp`: a language server over stdio for every rulebook, card, deck, variant and scenario
//! file, built on `lsp-server` and `lsp-types` (the pair rust-analyzer uses).
//!
//! An open file's text stands in for the file on disk (`Project::set_open`), and each change is
//! checked as `arbiter check FILE` checks it: the diagnostics are the same ones, with their help,
//! published for every file they point into. A did-you-mean becomes a quick fix. Changes that
//! arrive together are checked once, after the last of them.

mod complete;
mod hover;
mod names;
mod text;
pub mod tokens;

use arbiter_check::project::Project;
use arbiter_syntax::diag::{Diag, Level};
use arbiter_syntax::span::SourceFile;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References, Request as _,
    SemanticTokensFullRequest,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability, CompletionOptions, CompletionParams,
    CompletionResponse, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DocumentFormattingParams, DocumentSymbol,
    DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams,
    HoverProviderCapability, Location, MarkupContent, MarkupKind, OneOf, PublishDiagnosticsParams, ReferenceParams, ServerCapabilities,
    SymbolKind, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Url, WorkspaceEdit,
};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Why the language server stopped other than when the editor shut it down.
#[derive(Debug, thiserror::Error)]
pub enum LspError {
    /// The server's capabilities would not go into JSON.
    #[error("{0}")]
    Capabilities(serde_json::Error),
    /// The editor did not open the session (`initialize`).
    #[error("the editor did not start the session: {0}")]
    Initialize(lsp_server::ProtocolError),
    /// A message could not be sent: the editor is gone.
    #[error("{0}")]
    Send(String),
    /// The editor said `exit` before `shutdown`.
    #[error("`exit` without `shutdown`")]
    ExitWithoutShutdown,
    /// Reading or writing stdio failed.
    #[error("{0}")]
    Io(std::io::Error),
}

impl LspError {
    pub fn to_diag(&self) -> Diag {
        let help = match self {
            LspError::Capabilities(_) => "the server could not describe what it does to the editor",
            LspError::Initialize(_) | LspError::Send(_) | LspError::Io(_) => {
                "`arbiter lsp` is started by an editor, which talks to it on stdin and stdout"
            }
            LspError::ExitWithoutShutdown => "the editor must ask the server to shut down before it exits",
        };
        Diag::error(arbiter_syntax::span::Span::NONE, self.to_string()).help(help)
    }
}

impl From<LspError> for Diag {
    fn from(e: LspError) -> Diag {
        e.to_diag()
    }
}

/// Serve the editor on stdin and stdout until it shuts the server down. `root` is the project
/// when the editor names none (`Project::find` from the workspace's folder otherwise).
pub fn run(root: Option<PathBuf>) -> Result<(), LspError> {
    let (connection, io) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        document_symbol_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(lsp_types::SemanticTokensServerCapabilities::SemanticTokensOptions(
            lsp_types::SemanticTokensOptions {
                legend: tokens::legend(),
                full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                ..lsp_types::SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    };
    let caps = serde_json::to_value(capabilities).map_err(LspError::Capabilities)?;
    let init = connection.initialize(caps).map_err(LspError::Initialize)?;
    let folder = serde_json::from_value::<lsp_types::InitializeParams>(init)
        .ok()
        .and_then(|p| {
            #[allow(deprecated, reason = "older editors send only rootUri")]
            let root_uri = p.root_uri;
            p.workspace_folders.and_then(|f| f.into_iter().next()).map(|f| f.uri).or(root_uri)
        })
        .and_then(|u| u.to_file_path().ok());
    let project = match (folder, root) {
        (_, Some(r)) => Project::find(&r),
        (Some(f), None) => Project::find(&f),
        (None, None) => Project::find(&std::env::current_dir().unwrap_or_default()),
    };
    let mut server = Server::new(project);
    server.serve(&connection)?;
    drop(connection);
    io.join().map_err(LspError::Io)
}

/// What the server knows: the project, the open files' texts, and where each check published
/// diagnostics (so that a file whose problems are fixed is cleared).
pub struct Server {
    project: Project,
    open: HashMap<Url, String>,
    published: HashMap<Url, HashSet<Url>>,
    /// Each game as last compiled for hovers, by name and file (dropped when any file changes).
    games: std::cell::RefCell<HashMap<String, Option<std::rc::Rc<arbiter_ir::Game>>>>,
    /// Each game as it last compiled without errors, by name (kept: completion while a line is
    /// half typed needs the kinds of a game that does not check at the moment).
    good: std::cell::RefCell<HashMap<String, std::rc::Rc<arbiter_ir::Game>>>,
}

impl Server {
    pub fn new(project: Project) -> Server {
        Server { project, open: HashMap::new(), published: HashMap::new(), games: Default::default(), good: Default::default() }
    }

    fn serve(&mut self, connection: &Connection) -> Result<(), LspError> {
        let send = |m: Message| connection.sender.send(m).map_err(|e| LspError::Send(e.to_string()));
        // The connection hands over one message at a time (a channel without room): a thread
        // moves them into one with room, so that everything already sent can be taken in at once.
        let (tx, rx) = std::sync::mpsc::channel::<Message>();
        let incoming = connection.receiver.clone();
        std::thread::spawn(move || {
            for m in incoming {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        // Open files not checked since another file changed: what they use may have changed
        // (a card renamed in the card file a deck uses). They are checked again one at a time
        // while nothing else is waiting, the edited file always first.
        let mut stale: Vec<Url> = Vec::new();
        loop {
            let first = if stale.is_empty() {
                match rx.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                }
            } else {
                match rx.try_recv() {
                    Ok(m) => m,
                    Err(std::sync::mpsc::TryRecvError::Empty) => {
                        let uri = stale.remove(0);
                        for p in self.check(&uri) {
                            send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_string(), p)))?;
                        }
                        continue;
                    }
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => break,
                }
            };
            // Everything already waiting is taken in before checking: typing sends a change per
            // key, and only the last text of each file is worth checking.
            let mut batch = vec![first];
            while let Ok(more) = rx.try_recv() {
                batch.push(more);
            }
            let mut changed: Vec<Url> = Vec::new();
            for msg in batch {
                match msg {
                    Message::Request(req) if req.method == "shutdown" => {
                        send(Message::Response(Response::new_ok(req.id, ())))?;
                        // Then only `exit` is expected (the protocol: exit code 0 after shutdown).
                        return Ok(());
                    }
                    Message::Request(req) => send(Message::Response(self.answer(req)))?,
                    Message::Notification(n) if n.method == "exit" => return Err(LspError::ExitWithoutShutdown),
                    Message::Notification(n) => {
                        if let Some(uri) = self.take_in(n)
                            && !changed.contains(&uri)
                        {
                            changed.push(uri);
                        }
                    }
                    Message::Response(_) => {}
                }
            }
            for uri in &changed {
                for p in self.check(uri) {
                    send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_string(), p)))?;
                }
            }
            if !changed.is_empty() {
                stale.retain(|u| !changed.contains(u));
                let mut others: Vec<Url> = self.open.keys().filter(|u| !changed.contains(u) && !stale.contains(u)).cloned().collect();
                others.sort();
                stale.extend(others);
            }
        }
        Ok(())
    }

    /// A notification about a file's text: the file to check again, if any.
    fn take_in(&mut self, n: Notification) -> Option<Url> {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: lsp_types::DidOpenTextDocumentParams = serde_json::from_value(n.params).ok()?;
                Some(self.set_text(p.text_document.uri, Some(p.text_document.text)))
            }
            DidChangeTextDocument::METHOD => {
                let p: lsp_types::DidChangeTextDocumentParams = serde_json::from_value(n.params).ok()?;
                let text = p.content_changes.into_iter().last()?.text;
                Some(self.set_text(p.text_document.uri, Some(text)))
            }
            DidCloseTextDocument::METHOD => {
                let p: lsp_types::DidCloseTextDocumentParams = serde_json::from_value(n.params).ok()?;
                Some(self.set_text(p.text_document.uri, None))
            }
            _ => None,
        }
    }

    /// The editor's text for the file at `uri` (`None`: closed, read from disk again).
    pub fn edit(&mut self, uri: &Url, text: Option<String>) {
        self.set_text(uri.clone(), text);
    }

    fn set_text(&mut self, uri: Url, text: Option<String>) -> Url {
        self.games.borrow_mut().clear();
        if let Ok(path) = uri.to_file_path() {
            self.project.set_open(&path, text.clone());
        }
        match text {
            Some(t) => self.open.insert(uri.clone(), t),
            None => self.open.remove(&uri),
        };
        uri
    }

    fn answer(&self, req: Request) -> Response {
        let Request { id, method, params } = req;
        match method.as_str() {
            CodeActionRequest::METHOD => reply(id, params, |p: CodeActionParams| quick_fixes(&p)),
            Completion::METHOD => reply(id, params, |p: CompletionParams| self.complete(&p)),
            DocumentSymbolRequest::METHOD => reply(id, params, |p: DocumentSymbolParams| self.outline(&p.text_document.uri)),
            SemanticTokensFullRequest::METHOD => reply(id, params, |p: lsp_types::SemanticTokensParams| self.colours(&p.text_document.uri)),
            References::METHOD => reply(id, params, |p: ReferenceParams| self.references(&p)),
            Formatting::METHOD => reply(id, params, |p: DocumentFormattingParams| self.formatted(&p.text_document.uri)),
            GotoDefinition::METHOD => reply(id, params, |p: GotoDefinitionParams| self.definition(&p)),
            HoverRequest::METHOD => reply(id, params, |p: HoverParams| self.hover(&p)),
            other => Response::new_err(id, lsp_server::ErrorCode::MethodNotFound as i32, format!("`{other}` is not served")),
        }
    }

    /// The file's text as the editor has it (or as on disk) and its path.
    fn text_of(&self, uri: &Url) -> Option<(PathBuf, String)> {
        let path = uri.to_file_path().ok()?;
        let text = match self.open.get(uri) {
            Some(t) => t.clone(),
            None => self.project.text_of(&path).ok()?,
        };
        Some((path, text))
    }

    /// The game a file belongs to, compiled without variants with the file loaded too (kept until
    /// a file changes).
    fn game_for(&self, path: &Path) -> Option<std::rc::Rc<arbiter_ir::Game>> {
        let name = arbiter_check::project::game_of(&self.project, path)?;
        let key = format!("{name}\n{}", path.display());
        if let Some(g) = self.games.borrow().get(&key) {
            return g.clone();
        }
        let g = self.project.load(&name, &[], &[path.to_path_buf()]).result.ok().map(|b| std::rc::Rc::new(b.game));
        if let Some(good) = &g {
            self.good.borrow_mut().insert(name, good.clone());
        }
        self.games.borrow_mut().insert(key, g.clone());
        g
    }

    /// The file's game as it last compiled, or as it compiles without the file.
    fn last_game(&self, path: &Path) -> Option<std::rc::Rc<arbiter_ir::Game>> {
        let name = arbiter_check::project::game_of(&self.project, path)?;
        if let Some(g) = self.good.borrow().get(&name) {
            return Some(g.clone());
        }
        let g = std::rc::Rc::new(self.project.load(&name, &[], &[]).result.ok()?.game);
        self.good.borrow_mut().insert(name, g.clone());
        Some(g)
    }

    /// What may be written here: a definition's name inside quotes (a deck line), the items of a
    /// kind after `replace KIND` or `remove KIND` in a variant, a kind's fields and ability slots at
    /// the start of a line in a definition's body, else the builtins (with their signatures) and
    /// the names the game declares.
    fn complete(&self, p: &CompletionParams) -> Option<CompletionResponse> {
        let at = &p.text_document_position;
        let (path, text) = self.text_of(&at.text_document.uri)?;
        let offset = text::offset(&text, at.position);
        // The game as last compiled: the file being typed may not check now.
        let game = self.game_for(&path).or_else(|| self.last_game(&path))?;
        let line = complete::line_before(&text, offset);
        let items = if complete::naming_definition(line, &game.deck_sections) {
            complete::definitions(&game)
        } else if let Some(kind) = complete::replaced_kind(line) {
            let index = self.index(&path);
            complete::declared(index.iter().flat_map(|(_, named)| names::flat(named)).filter(|n| n.kind == kind))
        } else if let Some(kind) = complete::kind_at(&text, offset).filter(|_| complete::starts_line(line)) {
            complete::fields_of(&game, kind)
        } else {
            let index = self.index(&path);
            let mut items = complete::builtins();
            items
                .extend(complete::declared(index.iter().flat_map(|(_, named)| names::flat(named)).filter(|n| complete::in_code(n.role()))));
            items
        };
        Some(CompletionResponse::Array(items))
    }

    /// Every name declared in the files of `path`'s game and in `path` itself, with each file.
    fn index(&self, path: &Path) -> Vec<(arbiter_syntax::span::SourceFile, Vec<names::Named>)> {
        // The game's files by path, each read again (an open buffer's text, else the disk's): the
        // game may be an older compile (`last_game`) that holds older texts.
        let mut paths: Vec<PathBuf> = self
            .game_for(path)
            .or_else(|| self.last_game(path))
            .map(|g| g.files.iter().map(|f| self.full_path(&f.name)).collect())
            .unwrap_or_default();
        let me = arbiter_check::project::canonical(path);
        if !paths.iter().any(|p| arbiter_check::project::canonical(p) == me) {
            paths.push(path.to_path_buf());
        }
        paths
            .into_iter()
            .filter_map(|p| {
                let f = self.project.read_source(&p).ok()?;
                let tree = self.project.sources().parse(&f).ok()?;
                let declared = names::declared(&tree);
                Some((f, declared))
            })
            .collect()
    }

    /// The full path of a file as diagnostics name it (relative to the project's root where it
    /// lies inside).
    fn full_path(&self, name: &str) -> PathBuf {
        let p = Path::new(name);
        if p.is_absolute() { p.to_path_buf() } else { self.project.root.join(p) }
    }

    /// The URL to name a file by: the editor's own for an open file (whatever way its path was
    /// written: a symbolic link, say), else the file's canonical path.
    fn url_of(&self, name: &str) -> Option<Url> {
        let full = self.full_path(name);
        let canon = arbiter_check::project::canonical(&full);
        if let Some(c) = &canon
            && let Some(u) =
                self.open.keys().find(|u| u.to_file_path().ok().and_then(|p| arbiter_check::project::canonical(&p)).as_ref() == Some(c))
        {
            return Some(u.clone());
        }
        Url::from_file_path(canon?).ok()
    }

    /// The names the cursor may stand for, most specific first: a quoted name (a deck line's
    /// card), else the dotted name under it (`turns.order_from`), then the part of it under the
    /// cursor (`power` in `c.power`). A part after a dot is a field's name (`Name::field`).
    fn names_at(&self, uri: &Url, pos: lsp_types::Position) -> Option<(PathBuf, Vec<Wanted>)> {
        let (path, text) = self.text_of(uri)?;
        let at = text::offset(&text, pos);
        if let Some(q) = quoted_at(&text, at) {
            return Some((path, vec![Wanted { name: q.to_string(), field: false }]));
        }
        let (start, word) = hover::word_at(&text, at)?;
        let mut out = Vec::new();
        if !word.starts_with('.') {
            out.push(Wanted { name: word.to_string(), field: false });
        }
        let mut from = start;
        for (i, part) in word.split('.').enumerate() {
            if (from..=from + part.len()).contains(&at) && part != word && !part.is_empty() {
                out.push(Wanted { name: part.to_string(), field: i > 0 });
            }
            from += part.len() + 1;
        }
        Some((path, out))
    }

    /// Where the name under the cursor is declared: an item, a kind's field, an enum's member, a
    /// definition (from a quoted name: a deck line's card).
    fn definition(&self, p: &GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let at = &p.text_document_position_params;
        let (path, candidates) = self.names_at(&at.text_document.uri, at.position)?;
        // A file named in quotes (`uses "my-cards.arb"`): the file, beside this one.
        if let [only] = candidates.as_slice()
            && only.name.ends_with(".arb")
            && let Some(dir) = path.parent()
            && let Some(uri) = file_uri(&dir.join(&only.name))
        {
            return Some(GotoDefinitionResponse::Scalar(Location { uri, range: lsp_types::Range::default() }));
        }
        let index = self.index(&path);
        for name in candidates {
            let found: Vec<Location> = index
                .iter()
                .flat_map(|(f, named)| names::flat(named).into_iter().filter(|n| name.is(n)).map(move |n| (f, n.at)))
                .filter_map(|(f, span)| {
                    Some(Location { uri: self.url_of(&f.name)?, range: text::range_in(f, span.start as usize, span.end as usize) })
                })
                .collect();
            match found.len() {
                0 => continue,
                1 => return found.into_iter().next().map(GotoDefinitionResponse::Scalar),
                _ => return Some(GotoDefinitionResponse::Array(found)),
            }
        }
        None
    }

    /// Where the name under the cursor is written in its game's files (as a whole word, outside
    /// comments; a definition's name in quotes), its declaration included if asked.
    fn references(&self, p: &ReferenceParams) -> Option<Vec<Location>> {
        let at = &p.text_document_position;
        let (path, candidates) = self.names_at(&at.text_document.uri, at.position)?;
        let index = self.index(&path);
        let name = candidates.into_iter().find(|c| index.iter().any(|(_, named)| names::flat(named).iter().any(|n| c.is(n))))?.name;
        let mut out = Vec::new();
        for (f, named) in &index {
            let declared: Vec<usize> = names::flat(named).iter().filter(|n| n.name == name).map(|n| n.at.start as usize).collect();
            let Some(uri) = self.url_of(&f.name) else { continue };
            for (a, b) in names::occurrences(&f.text, &name) {
                let is_declaration = declared.iter().any(|d| *d == a || *d + 1 == a);
                if is_declaration && !p.context.include_declaration {
                    continue;
                }
                out.push(Location { uri: uri.clone(), range: text::range_in(f, a, b) });
            }
        }
        Some(out)
    }

    /// The file's words coloured by what they are (`tokens`).
    fn colours(&self, uri: &Url) -> Option<lsp_types::SemanticTokensResult> {
        let (path, text) = self.text_of(uri)?;
        let mut names = HashMap::new();
        for (_, named) in self.index(&path) {
            for n in names::flat(&named) {
                if let Some(t) = tokens::type_of_role(n.role()) {
                    names.entry(n.name.clone()).or_insert(t);
                }
            }
        }
        let data = tokens::tokens(&text, &names);
        Some(lsp_types::SemanticTokensResult::Tokens(lsp_types::SemanticTokens { result_id: None, data }))
    }

    /// The file's outline: its items, with a kind's fields and an enum's members inside.
    /// The file in the canonical layout (`arbiter fmt`): one edit over the whole text, none when
    /// it is formatted, and nothing (the editor keeps the text) when it does not parse.
    fn formatted(&self, uri: &Url) -> Option<Vec<TextEdit>> {
        let (path, text) = self.text_of(uri)?;
        if arbiter_syntax::fmt::skipped(&text) {
            return Some(vec![]);
        }
        let formatted = arbiter_syntax::fmt::format_checked(&self.project.display(&path), &text).ok()?;
        if formatted == text {
            return Some(vec![]);
        }
        Some(vec![TextEdit { range: text::range(&text, 0, text.len()), new_text: formatted }])
    }

    fn outline(&self, uri: &Url) -> Option<DocumentSymbolResponse> {
        let (path, _) = self.text_of(uri)?;
        let source = self.project.read_source(&path).ok()?;
        let tree = self.project.sources().parse(&source).ok()?;
        Some(DocumentSymbolResponse::Nested(names::declared(&tree).iter().map(|n| symbol(&source, n)).collect()))
    }

    fn hover(&self, p: &HoverParams) -> Option<Hover> {
        let at = &p.text_document_position_params;
        let (path, text) = self.text_of(&at.text_document.uri)?;
        let offset = text::offset(&text, at.position);
        // A builtin called here.
        if let Some((start, word)) = hover::word_at(&text, offset)
            && text.get(start + word.len()..).is_some_and(|rest| rest.trim_start().starts_with('('))
            && let Some(md) = hover::builtin_markdown(word)
        {
            return Some(markdown(md));
        }
        let game = self.game_for(&path).or_else(|| self.last_game(&path));
        // A name declared somewhere in the game: what it is.
        if let Some((_, wanted)) = self.names_at(&at.text_document.uri, at.position) {
            let index = self.index(&path);
            for w in &wanted {
                let found = index.iter().find_map(|(f, named)| names::flat(named).into_iter().find(|n| w.is(n)).map(|n| (f, n.clone())));
                if let Some((f, n)) = found
                    && let Ok(tree) = self.project.sources().parse(f)
                {
                    return Some(markdown(hover::declared_markdown(&self.project, game.as_deref(), f, &tree, &n)));
                }
            }
        }
        // Else the rule item the cursor is in.
        let source = self.project.read_source(&path).ok()?;
        let file = self.project.sources().parse(&source).ok()?;
        let (kind, name, cite) = hover::cited_item(&file, offset)?;
        Some(markdown(hover::rule_markdown(&self.project, game.as_deref(), kind, &name, cite.as_deref())))
    }

    /// Check the file at `uri` as `arbiter check` would, and the diagnostics to publish: for each
    /// file they point into, and an empty list for each file the last check of `uri` had
    /// diagnostics for and this one has none.
    pub fn check(&mut self, uri: &Url) -> Vec<PublishDiagnosticsParams> {
        let Ok(path) = uri.to_file_path() else { return vec![] };
        let mut by_file: Vec<(Url, Vec<Diagnostic>)> = vec![(uri.clone(), vec![])];
        if path.exists() {
            let checked = arbiter_tools::check_files::check_files(&self.project, std::slice::from_ref(&path), None, &[]);
            // A file no game can be found for says so (at its top, as below).
            let unplaced: Vec<Diag> = checked.unplaced().iter().map(|m| Diag::error(arbiter_syntax::span::Span::NONE, m.clone())).collect();
            for (d, file) in checked.diagnostics().chain(unplaced.iter().map(|d| (d, None))) {
                // A problem outside any file that exists (a game not found; a `uses` file that
                // cannot be read) is shown at the top of the file being checked.
                let (u, mut diag) = match file.and_then(|f| Some((self.url_of(&f.name)?, f))) {
                    Some((u, f)) => (u, to_lsp(d, Some(f))),
                    None => (uri.clone(), Diagnostic { range: lsp_types::Range::default(), ..to_lsp(d, None) }),
                };
                diag.related_information = self.related(d);
                match by_file.iter_mut().find(|(x, _)| *x == u) {
                    Some((_, list)) => list.push(diag),
                    None => by_file.push((u, vec![diag])),
                }
            }
        }
        let now: HashSet<Url> = by_file.iter().filter(|(_, l)| !l.is_empty()).map(|(u, _)| u.clone()).collect();
        let before = self.published.insert(uri.clone(), now.clone()).unwrap_or_default();
        for gone in before.difference(&now) {
            if !by_file.iter().any(|(u, _)| u == gone) {
                by_file.push((gone.clone(), vec![]));
            }
        }
        by_file.into_iter().map(|(uri, diagnostics)| PublishDiagnosticsParams { uri, diagnostics, version: None }).collect()
    }
}

impl Server {
    /// The other places a diagnostic involves (the first of two definitions), where they are.
    fn related(&self, d: &Diag) -> Option<Vec<DiagnosticRelatedInformation>> {
        let out: Vec<DiagnosticRelatedInformation> = d
            .related
            .iter()
            .filter_map(|(span, label)| {
                let f = self.project.sources().get(span.file)?;
                let range = text::range_in(&f, span.start as usize, span.end as usize);
                Some(DiagnosticRelatedInformation { location: Location { uri: self.url_of(&f.name)?, range }, message: label.clone() })
            })
            .collect();
        (!out.is_empty()).then_some(out)
    }
}

/// The URL of a file on disk.
pub fn file_uri(path: &Path) -> Option<Url> {
    Url::from_file_path(arbiter_check::project::canonical(path)?).ok()
}

/// A diagnostic as the editor shows it: the message, then its label and help on lines of their
/// own; a did-you-mean carries its replacement (`data.replace`) for the quick fix.
fn to_lsp(d: &Diag, file: Option<&SourceFile>) -> Diagnostic {
    let text = file.map_or("", |f| &f.text);
    let mut message = d.message.clone();
    if !d.label.is_empty() {
        message.push_str(&format!("\n{}", d.label));
    }
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let span_text = text.get(d.span.start as usize..d.span.end as usize).unwrap_or("");
    let replace = d
        .help
        .as_deref()
        .and_then(arbiter_syntax::diag::suggested)
        .filter(|_| !span_text.is_empty() && span_text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '-'));
    Diagnostic {
        range: file.map(|f| text::range_in(f, d.span.start as usize, d.span.end as usize)).unwrap_or_default(),
        severity: Some(match d.level {
            Level::Error => DiagnosticSeverity::ERROR,
            Level::Warning => DiagnosticSeverity::WARNING,
        }),
        source: Some("arbiter".into()),
        message,
        data: replace.map(|r| serde_json::json!({ "replace": r })),
        ..Diagnostic::default()
    }
}

/// A quick fix for each did-you-mean among the diagnostics the editor sends back.
fn quick_fixes(p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in &p.context.diagnostics {
        let Some(new) = d.data.as_ref().and_then(|v| v.get("replace")).and_then(|v| v.as_str()) else { continue };
        let edit = TextEdit { range: d.range, new_text: new.to_string() };
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Change to `{new}`"),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(p.text_document.uri.clone(), vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    out
}

/// The text inside the double quotes around byte `at`, on its line.
fn quoted_at(text: &str, at: usize) -> Option<&str> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text.get(at..)?.find('\n').map_or(text.len(), |i| at + i);
    let line = text.get(line_start..line_end)?;
    let mut quotes = line.match_indices('"').map(|(i, _)| line_start + i);
    // Pairs of quotes on the line: the one holding `at`.
    while let (Some(open), Some(close)) = (quotes.next(), quotes.next()) {
        if open < at && at <= close {
            return text.get(open + 1..close);
        }
    }
    None
}

/// A name the cursor may stand for.
struct Wanted {
    name: String,
    /// Written after a dot (`c.power`): a kind's field.
    field: bool,
}

impl Wanted {
    fn is(&self, n: &names::Named) -> bool {
        n.name == self.name && (!self.field || n.role() == names::Role::Field)
    }
}

/// A declared name as an outline entry.
fn symbol(file: &SourceFile, n: &names::Named) -> DocumentSymbol {
    use names::Role;
    let kind = match n.role() {
        Role::Routine => SymbolKind::FUNCTION,
        Role::Kind => SymbolKind::CLASS,
        Role::Field | Role::PlayerField => SymbolKind::FIELD,
        Role::Slot => SymbolKind::METHOD,
        Role::Enum => SymbolKind::ENUM,
        Role::EnumMember => SymbolKind::ENUM_MEMBER,
        Role::Global => SymbolKind::VARIABLE,
        Role::Const => SymbolKind::CONSTANT,
        Role::Event | Role::Trigger => SymbolKind::EVENT,
        Role::Zone => SymbolKind::ARRAY,
        Role::Header => SymbolKind::MODULE,
        Role::Rule => SymbolKind::OPERATOR,
        Role::Definition => SymbolKind::OBJECT,
    };
    #[allow(deprecated, reason = "the protocol's `deprecated` field must still be given")]
    DocumentSymbol {
        name: n.name.clone(),
        detail: Some(n.kind.clone()),
        kind,
        tags: None,
        deprecated: None,
        range: text::range_in(file, n.whole.start as usize, n.whole.end as usize),
        selection_range: text::range_in(file, n.at.start as usize, n.at.end as usize),
        children: if n.children.is_empty() { None } else { Some(n.children.iter().map(|c| symbol(file, c)).collect()) },
    }
}

fn markdown(value: String) -> Hover {
    Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range: None }
}

/// The response to a request: its parameters read as `P` and answered by `f`, or refused as
/// malformed.
fn reply<P: serde::de::DeserializeOwned, R: serde::Serialize>(
    id: RequestId,
    params: serde_json::Value,
    f: impl FnOnce(P) -> R,
) -> Response {
    match serde_json::from_value::<P>(params) {
        Ok(p) => Response::new_ok(id, f(p)),
        Err(e) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, format!("malformed parameters: {e}")),
    }
}
