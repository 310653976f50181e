//! Hover: what a rule item cites (its citation, the rulebook section and the cited lines of the
//! seed text, when that text is at hand), and a builtin's signature and doc.

use arbiter_check::project::Project;
use arbiter_ir::Game;
use arbiter_syntax::ast::{File, Item, Spanned};

/// The item whose text holds byte `at`, with its kind, name and citation (for items that cite).
pub fn cited_item(file: &File, at: usize) -> Option<(&'static str, String, Option<String>)> {
    let item = file.items.iter().find(|i| (i.span.start as usize..=i.span.end as usize).contains(&at))?;
    let kind = item.node.kind_word();
    let (name, cite): (String, Option<&Spanned<String>>) = match &item.node {
        Item::Enum(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Kind(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Zone(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Const(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Event(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Proc(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Func(x) | Item::Check(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Hint(x) => (x.func.name.node.clone(), x.func.cite.as_ref()),
        Item::Permit(x) | Item::Forbid(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Trigger(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Modifier(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Replace(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Always(x) => (x.name.node.clone(), x.cite.as_ref()),
        Item::Section(x) => (x.title.node.clone(), Some(&x.cite)),
        _ => return None,
    };
    Some((kind, name, cite.map(|c| c.node.clone())))
}

/// Markdown for a rule item: its kind and name, what it cites, the section, and the cited lines.
pub fn rule_markdown(project: &Project, game: Option<&Game>, kind: &str, name: &str, cite: Option<&str>) -> String {
    let mut out = format!("**{kind}** `{name}`");
    let Some(cite) = cite else {
        out.push_str("\n\ncites nothing");
        return out;
    };
    out.push_str(&format!(" — cites {cite}"));
    if let Some(section) = game.and_then(|g| g.section_of(cite)) {
        out.push_str(&format!("\n\n*{section}*"));
    }
    if let Some(g) = game {
        let seeds = arbiter_check::seeds::seeds(g, |f| project.seed_text(&g.name, f));
        let (lines, _) = arbiter_check::seeds::quote(&seeds, cite, 12);
        let quoted: String = lines.iter().take(48).map(|(_, n, l)| format!("\n> {n}: {l}")).collect();
        if !quoted.is_empty() {
            out.push('\n');
            out.push_str(&quoted);
        }
    }
    out
}

/// Markdown for the builtin named `word`, if it is one.
pub fn builtin_markdown(word: &str) -> Option<String> {
    let sig = arbiter_ir::builtins::lookup(word)?;
    Some(format!("**builtin** `{}` — {}\n\n{}", sig.name, super::complete::arity(sig), sig.doc))
}

/// The word (letters, digits, `_`, `.`) around byte `at`, and where it starts.
pub fn word_at(text: &str, at: usize) -> Option<(usize, &str)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let at = at.min(text.len());
    let start = text.get(..at)?.rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
    let end = text.get(at..)?.find(|c: char| !is_word(c)).map_or(text.len(), |i| at + i);
    let w = text.get(start..end)?;
    if w.is_empty() { None } else { Some((start, w)) }
}

/// Markdown for a declared name, written in `file` (parsed as `tree`): a rule item's citation and
/// cited lines; a field's type and default in each kind that has it; for anything else (a
/// definition, a deck, a variant, a member), its declaration as written.
pub fn declared_markdown(
    project: &Project,
    game: Option<&Game>,
    file: &arbiter_syntax::span::SourceFile,
    tree: &File,
    n: &super::names::Named,
) -> String {
    if n.role() == super::names::Role::Field {
        let mut out = format!("**field** `{}`", n.name);
        if let Some(g) = game
            && let Some(&sym) = g.sym_index.get(&n.name)
        {
            for k in g.kinds.iter() {
                if let Some(f) = k.fields.iter().find(|f| f.name == sym) {
                    let default = if f.required { "required".to_string() } else { format!("= {}", f.default.display(g)) };
                    out.push_str(&format!("\n\n- of `{}`: {} {default}", k.name, super::complete::ty_name(g, &f.ty)));
                }
            }
        }
        return out;
    }
    if let Some((kind, name, cite)) = cited_item(tree, n.whole.start as usize)
        && name == n.name
    {
        return rule_markdown(project, game, kind, &name, cite.as_deref());
    }
    let written = file.text.get(n.whole.start as usize..n.whole.end as usize).unwrap_or("");
    let mut shown: Vec<&str> = written.lines().take(30).collect();
    if written.lines().count() > 30 {
        shown.push("...");
    }
    format!("**{}** `{}`\n\n```arbiter\n{}\n```", n.kind, n.name, shown.join("\n"))
}
