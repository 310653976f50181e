//! The seed texts a game cites (its header's `source`: `rules.txt`, or several with the letter
//! their citations use, `unified.txt (U), reference.txt (R)`), when they are at hand, and the
//! lines a citation names in them. The texts are the publishers': a rulebook's folder holds its
//! own only where it may (tic-tac-toe's `rules.txt`); the folder `ARBITER_SEEDS` names is looked in
//! too (read by `Project::seed_text`). The language server's hover and `arbiter explain --quote` show
//! them.

use arbiter_ir::Game;

/// One source of a game: the letter its citations use (`U` in `U409`; none when the game has one
/// source), its file name, and its text when found.
pub struct Seed {
    pub letter: Option<char>,
    pub file: String,
    pub text: Option<String>,
}

/// Each source the game's header names, read with `read` (`Project::seed_text`: beside the
/// rulebook, or in `ARBITER_SEEDS`). A name with a path in it (`../x.txt`) is not read: a rule
/// file could name any file.
pub fn seeds(game: &Game, read: impl Fn(&str) -> Option<String>) -> Vec<Seed> {
    let mut out = Vec::new();
    for part in game.source.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (file, letter) = match part.rsplit_once(" (") {
            Some((f, l)) => {
                let mut chars = l.trim_end_matches(')').chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii_uppercase() => (f.trim(), Some(c)),
                    _ => (part, None),
                }
            }
            None => (part, None),
        };
        let plain = !file.contains(['/', '\\']) && !file.contains("..");
        let text = if plain { read(file) } else { None };
        out.push(Seed { letter, file: file.to_string(), text });
    }
    out
}

/// The lines `cite` names (`L334-338`, `U409, R136`), at most `most` of each range, with the
/// citation's letter and the line's number; and the sources it names whose text is not at hand.
pub fn quote(seeds: &[Seed], cite: &str, most: u32) -> (Vec<(char, u32, String)>, Vec<String>) {
    let mut lines = Vec::new();
    let mut missing: Vec<String> = Vec::new();
    for (letter, a, b) in arbiter_ir::cite_ranges(cite).unwrap_or_default() {
        // One source: every citation is of it, whatever its letter.
        let seed = match seeds {
            [one] => Some(one),
            _ => seeds.iter().find(|s| s.letter == Some(letter)),
        };
        let Some(seed) = seed else { continue };
        let Some(text) = &seed.text else {
            if !missing.contains(&seed.file) {
                missing.push(seed.file.clone());
            }
            continue;
        };
        let all: Vec<&str> = text.lines().collect();
        for n in a..=b.min(a.saturating_add(most.saturating_sub(1))) {
            if let Some(l) = n.checked_sub(1).and_then(|i| all.get(i as usize)) {
                lines.push((letter, n, (*l).to_string()));
            }
        }
    }
    (lines, missing)
}

#[cfg(test)]
mod tests {
    use super::{Seed, quote};

    fn seed(letter: Option<char>, file: &str, text: Option<&str>) -> Seed {
        Seed { letter, file: file.into(), text: text.map(String::from) }
    }

    /// A game of two sources: each citation's letter picks its text; a range is cut at `most`
    /// lines; a source not at hand is named once.
    #[test]
    fn a_citation_is_quoted_from_the_source_its_letter_names() {
        let seeds = [seed(Some('U'), "u.txt", Some("u one\nu two\nu three\n")), seed(Some('R'), "r.txt", None)];
        let (lines, missing) = quote(&seeds, "U2-3, R5, R6", 1);
        assert_eq!(lines, vec![('U', 2, "u two".to_string())]);
        assert_eq!(missing, vec!["r.txt".to_string()]);
        let one = [seed(None, "rules.txt", Some("a\nb\nc\n"))];
        let (lines, missing) = quote(&one, "L1-2", 5);
        assert_eq!(lines, vec![('L', 1, "a".to_string()), ('L', 2, "b".to_string())]);
        assert!(missing.is_empty());
    }
}
