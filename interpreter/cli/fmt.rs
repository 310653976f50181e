//! `arbiter fmt`: rule, card and scenario files in the one canonical layout
//! (`interpreter/syntax/fmt.rs` says what it is).

use crate::check::project::Project;
use crate::diag;
use crate::syntax::fmt::{Refused, format_checked, skipped};
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// What became of one file.
enum Outcome {
    Unchanged,
    /// Formatted (written, or under `--check` only found to need it): the first line that changes.
    Changed(usize),
    Skipped,
    Refused(String),
}

/// Format the files and folders named (default: the project's rulebooks, cards, standard library
/// and tests); `check` writes nothing and fails if any file is not formatted. `-` formats standard
/// input to standard output.
pub fn run(project: &Project, paths: &[PathBuf], check: bool) -> i32 {
    if paths.iter().any(|p| p.as_os_str() == "-") {
        if paths.len() > 1 {
            errln!("error: `-` (standard input) cannot be formatted together with files");
            return 2;
        }
        return stdin(check);
    }
    let roots: Vec<PathBuf> = if paths.is_empty() {
        // Only the project the current folder is in: never one found elsewhere (the checkout the
        // program was built from), which the user did not ask to rewrite.
        let cwd = std::env::current_dir().ok().and_then(|d| crate::check::project::canonical(&d));
        let root = crate::check::project::canonical(&project.root);
        if !cwd.zip(root).is_some_and(|(c, r)| c.starts_with(r)) {
            errln!("error: no project here (no `rulebooks/` folder in this folder or above it)");
            errln!("  help: name the files or folders to format: `arbiter fmt my-cards.arb`");
            return 2;
        }
        ["rulebooks", "cards", "stdlib", "tests"].iter().map(|d| project.root.join(d)).filter(|d| d.is_dir()).collect()
    } else {
        paths.to_vec()
    };
    let mut files = Vec::new();
    for root in &roots {
        if root.is_dir() {
            files.extend(Project::arb_files(root));
        } else if root.is_file() {
            files.push(root.clone());
        } else {
            errln!("error: `{}`: no such file or folder", root.display());
            return 2;
        }
    }
    let (mut changed, mut refused, mut skipped_files) = (0, 0, 0);
    for path in &files {
        let name = project.display(path);
        match one(path, &name, check) {
            Outcome::Unchanged => {}
            Outcome::Changed(line) => {
                changed += 1;
                if check {
                    outln!("{name}:{line}: not formatted");
                } else {
                    outln!("formatted {name}");
                }
            }
            Outcome::Skipped => skipped_files += 1,
            Outcome::Refused(why) => {
                refused += 1;
                err!("{why}");
            }
        }
    }
    let skipped_note = if skipped_files > 0 { format!(", {skipped_files} skipped (`// fmt: skip`)") } else { String::new() };
    let files_word = |n: usize| if n == 1 { "file" } else { "files" };
    if check {
        outln!(
            "{} {} checked: {changed} not formatted, {refused} not formatted because of errors{skipped_note}",
            files.len(),
            files_word(files.len())
        );
        if changed > 0 {
            outln!("  help: `arbiter fmt` with the same paths formats them");
        }
    } else {
        outln!(
            "{} {}: {changed} formatted, {refused} left as they are because of errors{skipped_note}",
            files.len(),
            files_word(files.len())
        );
    }
    i32::from(changed > 0 && check || refused > 0)
}

fn one(path: &Path, name: &str, check: bool) -> Outcome {
    let text = match std::fs::read(path).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(e)) => {
            let at = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes().iter().take(at).filter(|b| **b == b'\n').count();
            return Outcome::Refused(format!("error: {name}: not UTF-8 text (byte {at}, line {line}); left as it is\n"));
        }
        Err(e) => return Outcome::Refused(format!("error: {name}: {e}\n")),
    };
    if skipped(&text) {
        return Outcome::Skipped;
    }
    match format_checked(name, &text) {
        Ok(formatted) if formatted == text => Outcome::Unchanged,
        Ok(formatted) => {
            if !check && let Err(e) = std::fs::write(path, &formatted) {
                return Outcome::Refused(format!("error: {name}: {e}\n"));
            }
            Outcome::Changed(crate::syntax::fmt::first_difference(&text, &formatted))
        }
        Err(refused) => Outcome::Refused(explain(name, &refused)),
    }
}

fn explain(name: &str, refused: &Refused) -> String {
    match refused {
        Refused::Syntax(d, file) => {
            format!(
                "{}  help: {name} was left as it is; fmt formats files that parse\n",
                diag::render(std::slice::from_ref(d), std::slice::from_ref(file))
            )
        }
        Refused::TooLarge { bytes } => format!(
            "error: {name}: formatted, it would be {} KiB, larger than a file may be ({} KiB), so it was left as it is\n  help: split it into several files\n",
            bytes.div_ceil(1024),
            crate::budgets::FILE_LIMIT >> 10
        ),
        Refused::Meaning { line } => format!(
            "error: {name}:{line}: formatting would change what this file means, so it was left as it is\n  help: this is a fault in `arbiter fmt`; please report it with the file\n"
        ),
    }
}

fn stdin(check: bool) -> i32 {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        errln!("error: standard input: {e}");
        return 2;
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            errln!("error: <stdin>: not UTF-8 text; left as it is");
            // The bytes go through unchanged, so an editor piping a buffer loses nothing.
            if !check {
                use std::io::Write as _;
                let _ = std::io::stdout().write_all(e.as_bytes());
            }
            return 1;
        }
    };
    if skipped(&text) {
        out!("{text}");
        return 0;
    }
    match format_checked("<stdin>", &text) {
        Ok(formatted) => {
            if check {
                if formatted == text {
                    return 0;
                }
                outln!("<stdin>:{}: not formatted", crate::syntax::fmt::first_difference(&text, &formatted));
                return 1;
            }
            out!("{formatted}");
            0
        }
        Err(refused) => {
            err!("{}", explain("<stdin>", &refused));
            // The text goes through unchanged, so an editor piping a buffer loses nothing.
            if !check {
                out!("{text}");
            }
            1
        }
    }
}
