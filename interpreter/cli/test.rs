//! `arbiter test` runs scenario files; `arbiter explain` shows a scenario's trace with causes.

use super::check::expand;
use crate::check::project::Project;
use crate::scenario::{failure_text, run_file_with};
use std::path::{Path, PathBuf};

pub fn run(project: &Project, paths: &[PathBuf], variants: &[String]) -> i32 {
    let paths = if paths.is_empty() { vec![project.root.join("tests/examples")] } else { paths.to_vec() };
    let mut passed = 0;
    let mut failed = 0;
    for f in expand(&paths) {
        match run_file_with(project, &f, variants) {
            Err(e) => {
                failed += 1;
                outln!("FAIL {}\n{e}", project.display(&f));
            }
            Ok(outcomes) => {
                for o in outcomes {
                    if o.outcome.passed() {
                        passed += 1;
                        outln!("ok   {} {}", o.outcome.id, o.outcome.title);
                    } else {
                        failed += 1;
                        outln!("FAIL {} {}", o.outcome.id, o.outcome.title);
                        for fl in &o.outcome.failures {
                            out!("{}", failure_text(&o.game, fl));
                        }
                    }
                }
            }
        }
    }
    outln!("{passed} passed, {failed} failed");
    i32::from(failed > 0)
}

pub fn explain(project: &Project, path: &Path, id: Option<&str>, variants: &[String]) -> i32 {
    match run_file_with(project, path, variants) {
        Err(e) => {
            out!("{e}");
            1
        }
        Ok(outcomes) => {
            let mut code = 0;
            for o in outcomes.iter().filter(|o| id.is_none_or(|i| o.outcome.id == i)) {
                outln!("{} {}", o.outcome.id, o.outcome.title);
                out!("{}", o.outcome.trace(&o.game));
                if o.outcome.passed() {
                    outln!("scenario passed");
                } else {
                    code = 1;
                    for fl in &o.outcome.failures {
                        out!("{}", failure_text(&o.game, fl));
                    }
                    outln!("scenario failed");
                }
            }
            code
        }
    }
}
