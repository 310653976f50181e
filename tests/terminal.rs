//! Terminal play as a person meets it (issue 30): what `arbiter play --human` prints.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use std::io::Write as _;
use std::process::{Command, Stdio};

/// Play tic-tac-toe as P1, answering `1` at each decision, and return what the terminal showed.
fn play_tic_tac_toe(answers: usize) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["play", "tic-tac-toe", "--human", "1", "--seed", "3"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = "1\n".repeat(answers) + "quit\n";
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Each of the human's decisions is asked once, by its menu: the question is not printed a second
/// time as a log line ("P1 to choose: ...") before it.
#[test]
fn each_decision_of_the_human_is_asked_once() {
    let text = play_tic_tac_toe(5);
    let menus = text.matches("P1 — Mark an empty square").count();
    assert!(menus >= 2, "P1 was asked at least twice: {text}");
    assert!(!text.contains("P1 to choose:"), "a decision of P1's was printed twice:\n{text}");
    // The other seat's choices are still told, as what happened.
    assert!(text.contains("P2 chose"), "{text}");
}
