//! `arbiter check` and `arbiter variants`: the checker's findings printed.

use crate::check::project::Project;
use crate::check_files::{Checked, check_files};
use crate::diag::{self, Diag};
use crate::syntax::span::SourceFile;
use std::path::PathBuf;

pub fn run(project: &Project, paths: &[PathBuf], game_flag: Option<&str>, forced: &[String]) -> i32 {
    let checked: Checked = check_files(project, paths, game_flag, forced);
    out!("{}", checked.rendered());
    for u in checked.unplaced() {
        errln!("error: {u}");
    }
    let n = checked.files;
    if checked.diagnostics().next().is_none() && checked.unplaced().is_empty() {
        outln!("checked {n} file{}: no problems", if n == 1 { "" } else { "s" });
    } else {
        // A file whose game is unknown counts as an error too.
        let mut all: Vec<Diag> = checked.diagnostics().map(|(d, _)| d.clone()).collect();
        all.extend(checked.unplaced().iter().map(|u| Diag::error(crate::syntax::span::Span::NONE, u.clone())));
        outln!("checked {n} file{}: {}", if n == 1 { "" } else { "s" }, diag::summary(&all));
    }
    i32::from(checked.errors() > 0)
}

/// `arbiter variants GAME`: one line per variant. With `--show NAME`: that variant's changes, each
/// rule item as the game has it and as the variant has it.
pub fn variants(project: &Project, game: &str, show: Option<&str>) -> i32 {
    let loaded = project.load(game, &[], &[]);
    let b = match &loaded.result {
        Err(d) => {
            out!("{}", diag::render(d, &loaded.files));
            return 1;
        }
        Ok(b) => b,
    };
    let Some(name) = show else {
        if b.game.variants.is_empty() {
            outln!("{game} has no variants");
        }
        let width = b.game.variants.iter().map(|v| v.name.len()).max().unwrap_or(0);
        for v in b.game.variants.iter() {
            let cite = v.cite.as_ref().map(|c| format!(" ({c})")).unwrap_or_default();
            let on = if v.extends.is_empty() { String::new() } else { format!(" [on top of {}]", v.extends.join(", ")) };
            // A house rule says where it is written: a file of the player's own, or the rulebook's.
            let house = if v.group == "house" { format!(" [house rule, {}]", b.game.location(v.span)) } else { String::new() };
            outln!("{:width$}  {}{cite}{on}{house}", v.name, v.title);
        }
        return 0;
    };
    let Some(v) = b.game.variants.iter().find(|v| v.name == name) else {
        let help = diag::did_you_mean(name, b.game.variants.iter().map(|v| v.name.as_str())).unwrap_or_else(|| {
            format!("`arbiter variants {game}` lists them; a variant in a file of your own is loaded with `--rules FILE`")
        });
        errln!("error: {game} has no variant `{name}`\n  help: {help}");
        return 2;
    };
    // The lines the span covers, whole, so that the text keeps its indentation.
    let source = |s: crate::syntax::span::Span| -> String {
        SourceFile::find(&loaded.files, s.file)
            .and_then(|f| {
                let start = f.text.get(..s.start as usize)?.rfind('\n').map_or(0, |i| i + 1);
                f.text.get(start..s.end as usize)
            })
            .map(|t| t.lines().map(|l| format!("    {l}\n")).collect())
            .unwrap_or_default()
    };
    let cite = v.cite.as_ref().map(|c| format!(" ({c})")).unwrap_or_default();
    outln!("{} — {}{cite}\ndefined at {}", v.name, v.title, b.game.location(v.span));
    if !v.extends.is_empty() {
        outln!("builds on {} (switched on before it)", v.extends.join(", "));
    }
    // The items of files that are `part of variant` it: one line each, by file.
    let own = |c: &&crate::ir::VariantChange| c.verb == "adds" && c.after.is_some_and(|s| s.file != v.span.file);
    let mut files: Vec<crate::syntax::span::FileId> = Vec::new();
    for c in v.changes.iter().filter(own) {
        if let Some(s) = c.after
            && !files.contains(&s.file)
        {
            files.push(s.file);
        }
    }
    for f in files {
        let here: Vec<&crate::ir::VariantChange> = v.changes.iter().filter(own).filter(|c| c.after.is_some_and(|s| s.file == f)).collect();
        let name = SourceFile::find(&loaded.files, f).map(|x| x.name.clone()).unwrap_or_default();
        outln!("\nadds {} item{} of {name} (a file that is part of {}):", here.len(), if here.len() == 1 { "" } else { "s" }, v.name);
        for c in here {
            outln!(
                "  {} {}{}",
                c.kind,
                c.name,
                c.after.map(|s| format!(" (line {})", b.game.location(s).rsplit(':').next().unwrap_or(""))).unwrap_or_default()
            );
        }
    }
    for c in v.changes.iter().filter(|c| !own(c)) {
        outln!("\n{c}");
        if let Some(s) = c.before {
            out!("  as the game has it, at {}:\n{}", b.game.location(s), source(s));
        }
        match c.after {
            Some(s) => out!("  with {}, at {}:\n{}", v.name, b.game.location(s), source(s)),
            None => outln!("  with {}: gone", v.name),
        }
    }
    0
}
