//! A human seat at the terminal: sees only its own view, picks from numbered legal options,
//! can ask for the state or the log, and can save the game.

use crate::runtime::decisions::no_such_option;
use crate::runtime::state::{Answer, Count, Decision, State};
use crate::runtime::{AnswerError, Engine, RtError, talk, view};
use crate::save::Saver;
use std::io::{BufRead, Write};
use std::path::Path;

pub struct Human {
    pub seats: Vec<u8>,
}

const HELP: &str = "answer with an option's number (several numbers separated by spaces where more than one is asked;\n\
  `none` where you may choose nothing)\n\
  options show the question and its options again\n  state   show the table as you see it\n  fields  every zone and field you can see\n  log     the last things that happened\n  save    save the game to its save file (`--save FILE`); `save F` saves it to file F\n          (continue with `arbiter resume F`)\n  quit    leave the game";

impl Human {
    pub fn new(seats: Vec<u8>) -> Self {
        Human { seats }
    }

    /// Ask until a legal answer is given: `Ok(true)`; the player quits or input ends: `Ok(false)`;
    /// the rules fail taking the answer in: the error. `save` saves through `saver`.
    pub fn ask(&mut self, engine: &Engine, st: &mut State, d: &Decision, saver: &mut Saver) -> Result<bool, RtError> {
        let stdin = std::io::stdin();
        let how = match d.count {
            Count::One => String::new(),
            Count::Exactly(k) => format!(" (choose {k})"),
            Count::UpTo(k) => format!(" (choose up to {k})"),
            Count::Order => " (put all in order)".to_string(),
        };
        let labels = view::menu_labels(engine.game, st, d);
        // The question and its options once; after a refusal or a command, only the prompt.
        let menu = || {
            outln!("\nP{} — {}", d.seat + 1, d.prompt);
            for (i, l) in labels.iter().enumerate() {
                outln!("  {}. {l}", i + 1);
            }
        };
        menu();
        loop {
            out!("your choice{how}> ");
            let _ = std::io::stdout().flush();
            let mut line = String::new();
            if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
                return Ok(false);
            }
            let line = line.trim();
            match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                ["quit" | "q"] => return Ok(false),
                ["none" | "0"] if matches!(d.count, Count::UpTo(_) | Count::Exactly(0)) => match engine.answer(st, d.seat, &Answer(vec![]))
                {
                    Ok(()) => return Ok(true),
                    Err(AnswerError::Refused(e)) => outln!("refused: {e}"),
                    Err(AnswerError::Rule(e)) => return Err(e),
                },
                ["help" | "?"] => outln!("{HELP}"),
                ["options" | "o"] => menu(),
                ["state" | "s"] => out!("{}", crate::runtime::picture::table_text(engine.game, st, d.seat)),
                ["fields" | "f"] => out!("{}", view::view(engine.game, st, Some(d.seat))),
                ["log" | "l"] => {
                    // The history, your own choices in it too.
                    let text = talk::table_talk(engine.game, st, st.log.iter_from(0), d.seat, &[]);
                    let lines: Vec<&str> = text.lines().collect();
                    for l in lines.iter().skip(lines.len().saturating_sub(25)) {
                        outln!("{l}");
                    }
                }
                ["save"] => save(saver, st, None),
                ["save", file] => save(saver, st, Some(Path::new(file))),
                words => {
                    let nums: Result<Vec<usize>, _> = words.iter().map(|w| w.parse::<usize>()).collect();
                    match nums {
                        Ok(n) if !n.is_empty() && n.iter().all(|x| *x >= 1) => {
                            let answer = Answer(n.iter().map(|x| x - 1).collect());
                            match engine.answer(st, d.seat, &answer) {
                                Ok(()) => return Ok(true),
                                Err(AnswerError::Refused(e)) if !matches!(d.count, Count::One) && answer.0.len() <= 1 => {
                                    outln!("refused: {e} (give the numbers on one line, separated by spaces, like `1 2 3`)")
                                }
                                Err(AnswerError::Refused(e)) => outln!("refused: {e}"),
                                Err(AnswerError::Rule(e)) => return Err(e),
                            }
                        }
                        // `0` is a number, but no option's: said as a number past the last is.
                        Ok(n) if !n.is_empty() => outln!("refused: {}", no_such_option(0, d.offered())),
                        _ => outln!("refused: `{line}` is not an option number; type `help` for commands"),
                    }
                }
            }
        }
    }
}

fn save(saver: &mut Saver, st: &State, file: Option<&Path>) {
    match saver.save_to(st, file) {
        Ok(p) => outln!("saved to {0} (continue with `arbiter resume {0}`)", p.display()),
        Err(e) => outln!("cannot save: {e}"),
    }
}
