//! The questions the rules can ask: every `choose` prompt, every target's prompt and every
//! optional replacement's question, as templates whose `{..}` holes may be any text. An
//! `expect no decision P "text"` whose text no template can hold could never fail: the checker
//! refuses it (a misspelled prompt would let a ruling pass by accident).

use arbiter_ir::Game;
use arbiter_ir::code::{StmtKindIr, TextPiece};

/// A question's template: its characters, `None` for a hole.
pub type Template = Vec<Option<char>>;

/// Every question the compiled rules can ask.
pub fn templates(game: &Game) -> Vec<Template> {
    let mut out: Vec<Template> = Vec::new();
    let text = |s: &str| s.chars().map(Some).collect::<Template>();
    for block in &game.blocks {
        for st in block.iter() {
            if let StmtKindIr::Choose { choose, .. } = &st.kind {
                out.push(
                    choose
                        .prompt
                        .iter()
                        .flat_map(|p| match p {
                            TextPiece::Text(t) => text(t),
                            TextPiece::Expr(_) => vec![None],
                        })
                        .collect(),
                );
            }
        }
    }
    for d in game.defs.iter() {
        out.extend(d.abilities.iter().flat_map(|a| a.targets.iter().map(|t| text(&t.prompt))));
        out.extend(d.replaces.iter().filter_map(|r| r.optional.as_ref().map(|(_, q)| text(q))));
    }
    out.extend(game.replaces.iter().filter_map(|r| r.optional.as_ref().map(|(_, q)| text(q))));
    out.extend(game.lasting.iter().filter_map(|l| l.replace.as_ref()?.optional.as_ref().map(|(_, q)| text(q))));
    out
}

/// Whether some question made from `template` (each hole filled with any text) holds `part`:
/// `None` if none can; else the most characters of `part` that can fall on the template's own
/// words (the rest inside holes, which any value fills: a card's name shown in `Play {..}?`).
pub fn held(template: &[Option<char>], part: &str) -> Option<usize> {
    let n = template.len();
    // `at[j]`: `part` as read so far can end with the template's first `j` characters consumed
    // (`part` having started anywhere in it), with at most this many of its characters on the
    // template's words. A hole takes any characters, or none.
    let skip_holes = |at: &mut Vec<Option<usize>>| {
        for (j, c) in template.iter().enumerate() {
            let here = at.get(j).copied().flatten();
            if c.is_none()
                && let Some(next) = at.get_mut(j + 1)
            {
                *next = (*next).max(here);
            }
        }
    };
    let mut at: Vec<Option<usize>> = vec![Some(0); n + 1];
    skip_holes(&mut at);
    for ch in part.chars() {
        let mut next: Vec<Option<usize>> = vec![None; n + 1];
        for (j, c) in template.iter().enumerate() {
            let Some(here) = at.get(j).copied().flatten() else { continue };
            let (to, k) = match c {
                None => (j, here),
                Some(c) if *c == ch => (j + 1, here + 1),
                Some(_) => continue,
            };
            if let Some(x) = next.get_mut(to) {
                *x = (*x).max(Some(k));
            }
        }
        skip_holes(&mut next);
        at = next;
    }
    at.into_iter().flatten().max()
}

/// A template as written, its holes as `{..}`.
pub fn shown(template: &[Option<char>]) -> String {
    let mut s = String::new();
    for c in template {
        match c {
            Some(c) => s.push(*c),
            None if s.ends_with("{..}") => {}
            None => s.push_str("{..}"),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{Template, held};

    fn template(parts: &[Option<&str>]) -> Template {
        parts
            .iter()
            .flat_map(|p| match p {
                Some(t) => t.chars().map(Some).collect::<Template>(),
                None => vec![None],
            })
            .collect()
    }

    /// A text is held with its characters on a question's own words, inside a hole (which any
    /// text fills), or not at all.
    #[test]
    fn a_part_is_held_where_the_text_and_the_holes_allow_it() {
        let t = template(&[Some("Move "), None, Some(" to another location?")]);
        assert_eq!(held(&t, "to another location"), Some(19));
        assert_eq!(held(&t, "Move P1 to another"), Some(16));
        assert_eq!(held(&t, "to anther location"), Some(0), "all of it inside the hole: a card's name could read so");
        let plain = template(&[Some("Mark an empty square")]);
        assert_eq!(held(&plain, "an empty"), Some(8));
        assert_eq!(held(&plain, "a full square"), None);
        assert_eq!(held(&plain, "square and more"), None);
        assert_eq!(held(&template(&[None]), "anything"), Some(0));
        let joined = template(&[None, Some(" to "), None]);
        assert_eq!(held(&joined, "Move to anther location?"), Some(4), "only ` to ` on its words");
    }
}
