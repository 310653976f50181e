//! Completion: in a definition's body (`card "Name" { .. }`), the fields and ability slots of its
//! kind, each with its type and default. Worked out from the text around the cursor, so that it
//! works while the line being typed does not parse yet.

use super::names::Role;
use arbiter_ir::{Game, Ty};
use arbiter_syntax::lex::{Tok, lex, open_braces};
use lsp_types::{CompletionItem, CompletionItemKind};

/// The kind of the definition whose body holds byte `at`: the word before the name on the line
/// that opens the innermost unclosed `{` before it (`card "Name" sample ".." {`). Braces in
/// texts and comments do not count.
pub fn kind_at(text: &str, at: usize) -> Option<&str> {
    let open = *open_braces(text, at).last()?;
    // The words on the brace's line before it.
    let line = text.get(text.get(..open)?.rfind('\n').map_or(0, |i| i + 1)..open)?;
    let toks = lex(line);
    let mut toks = toks.iter().filter(|t| t.kind != Tok::Space);
    let word = toks.next().filter(|t| t.kind == Tok::Word)?;
    toks.next().filter(|t| t.kind == Tok::Text)?;
    Some(word.text(line))
}

/// The fields and ability slots of `kind`, for a definition's body.
pub fn fields_of(game: &Game, kind: &str) -> Vec<CompletionItem> {
    let Some(k) = game.kinds.iter().find(|k| k.name == kind) else { return vec![] };
    let mut out: Vec<CompletionItem> = k
        .fields
        .iter()
        .map(|f| {
            let default = if f.required { " (required)".to_string() } else { format!(" = {}", f.default.display(game)) };
            CompletionItem {
                label: game.sym(f.name).to_string(),
                kind: Some(CompletionItemKind::FIELD),
                detail: Some(format!("{}{default}", ty_name(game, &f.ty))),
                ..CompletionItem::default()
            }
        })
        .collect();
    out.extend(k.slots.iter().map(|(slot, many)| CompletionItem {
        label: slot.clone(),
        kind: Some(CompletionItemKind::METHOD),
        detail: Some(format!("ability slot{}", if *many { " (many)" } else { "" })),
        ..CompletionItem::default()
    }));
    out
}

/// A type as the language writes it.
pub fn ty_name(game: &Game, ty: &Ty) -> String {
    match ty {
        Ty::Any => "any".into(),
        Ty::Nothing => "nothing".into(),
        Ty::Bool => "bool".into(),
        Ty::Int => "int".into(),
        Ty::Text => "text".into(),
        Ty::Player => "player".into(),
        Ty::Obj(Some(k)) | Ty::Def(Some(k)) => game.kind(*k).map(|k| k.name.clone()).unwrap_or_else(|| "object".into()),
        Ty::Obj(None) | Ty::Def(None) => "object".into(),
        Ty::Zone => "zone".into(),
        Ty::Sym(Some(e)) => game.enums.get(usize::from(*e)).map(|e| e.name.clone()).unwrap_or_else(|| "word".into()),
        Ty::Sym(None) => "word".into(),
        Ty::List(t) => format!("list {}", ty_name(game, t)),
        Ty::Amount => "amount".into(),
        Ty::Proc => "proc".into(),
        Ty::Ability => "ability".into(),
        Ty::Lambda => "lambda".into(),
        Ty::Pose => "pose".into(),
    }
}

/// The text of the line up to byte `at`.
pub fn line_before(text: &str, at: usize) -> &str {
    let before = text.get(..at).unwrap_or("");
    before.rfind('\n').map_or(before, |i| before.get(i + 1..).unwrap_or(""))
}

/// Whether only a word (or nothing) is written on the line so far: a property's name goes here.
pub fn starts_line(line: &str) -> bool {
    line.trim_start().chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// After `replace KIND ` or `remove KIND ` (a variant's change), the kind of item named next.
pub fn replaced_kind(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    let verb = words.next()?;
    let kind = words.next()?;
    let rest: Vec<&str> = words.collect();
    // The name is next (nothing typed after the kind yet) or being typed (one word, unfinished).
    let spaced = line.ends_with(char::is_whitespace);
    let typing_name = (rest.is_empty() && spaced) || (rest.len() == 1 && !spaced);
    ((verb == "replace" || verb == "remove") && typing_name && kind.chars().all(char::is_alphanumeric)).then_some(kind)
}

/// Whether the line so far opens a quoted definition's name: a deck line (`4 "`, `base "`) or a
/// `create "`; not a text (`log "`, `cite "`, a card's `text "`).
pub fn naming_definition(line: &str, sections: &[String]) -> bool {
    let Some(q) = line.rfind('"') else { return false };
    if line.matches('"').count().is_multiple_of(2) || line.contains("//") {
        return false;
    }
    let before = line.get(..q).unwrap_or("").trim();
    let words: Vec<&str> = before.split_whitespace().collect();
    match words.as_slice() {
        // A count, or a deck's section word, alone before the name.
        [w] => w.chars().all(|c| c.is_ascii_digit()) || sections.iter().any(|s| s == w),
        _ => before.ends_with("create"),
    }
}

/// Every definition's name (for a deck line), with its kind.
pub fn definitions(game: &Game) -> Vec<CompletionItem> {
    game.defs
        .iter()
        .map(|d| CompletionItem {
            label: d.name.clone(),
            kind: Some(CompletionItemKind::VALUE),
            detail: game.kind(d.kind).map(|k| k.name.clone()),
            ..CompletionItem::default()
        })
        .collect()
}

/// The builtins, each with its arity and one line of doc.
pub fn builtins() -> Vec<CompletionItem> {
    arbiter_ir::builtins::BUILTINS
        .iter()
        .map(|b| CompletionItem {
            label: b.name.to_string(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(format!("builtin, {}", arity(b))),
            documentation: Some(lsp_types::Documentation::String(b.doc.to_string())),
            ..CompletionItem::default()
        })
        .collect()
}

/// Whether names of this role are written in code (not in quotes, like a definition's, and not
/// only in headers, like a section's or a variant's).
pub fn in_code(role: Role) -> bool {
    matches!(
        role,
        Role::Routine
            | Role::Kind
            | Role::Enum
            | Role::EnumMember
            | Role::Const
            | Role::Zone
            | Role::Global
            | Role::PlayerField
            | Role::Event
    )
}

/// Declared names, each once, with what it is.
pub fn declared<'a>(names: impl Iterator<Item = &'a super::names::Named>) -> Vec<CompletionItem> {
    let mut seen = std::collections::HashSet::new();
    names
        .filter(|n| seen.insert((n.kind.clone(), n.name.clone())))
        .map(|n| CompletionItem {
            label: n.name.clone(),
            kind: Some(match n.role() {
                Role::Routine => CompletionItemKind::FUNCTION,
                Role::Kind => CompletionItemKind::CLASS,
                Role::Enum => CompletionItemKind::ENUM,
                Role::EnumMember => CompletionItemKind::ENUM_MEMBER,
                Role::Const => CompletionItemKind::CONSTANT,
                Role::Zone | Role::Global | Role::PlayerField => CompletionItemKind::VARIABLE,
                Role::Event | Role::Trigger => CompletionItemKind::EVENT,
                Role::Rule | Role::Field | Role::Slot | Role::Header | Role::Definition => CompletionItemKind::REFERENCE,
            }),
            detail: Some(n.kind.clone()),
            ..CompletionItem::default()
        })
        .collect()
}

/// How many arguments a builtin takes, in words: `2 arguments`, `1 to 2 arguments`.
pub fn arity(sig: &arbiter_ir::builtins::Signature) -> String {
    let n = if sig.min == sig.max { format!("{}", sig.min) } else { format!("{} to {}", sig.min, sig.max) };
    format!("{n} argument{}", if sig.max == 1 { "" } else { "s" })
}
