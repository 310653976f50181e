//! Every game draws its table with a legend (`["key", style, text]` drawings), laid out by the
//! renderer under the table: each entry's swatch in its style, its text, in rows no wider than the
//! table, the picture grown to hold them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

mod common;

use arbiter::runtime::picture;

/// The picture's width and height (mm), from its `viewBox`.
fn size(svg: &str) -> (f64, f64) {
    let vb = svg.split("viewBox=\"").nth(1).unwrap().split('"').next().unwrap();
    let n: Vec<f64> = vb.split(' ').map(|x| x.parse().unwrap()).collect();
    (n[2], n[3])
}

/// Each legend entry: where its text starts (x, y), its swatch's style, and its text.
fn entries(svg: &str) -> Vec<(f64, f64, String, String)> {
    let legend = svg.split("<g class=\"legend\">").nth(1).expect("a legend").split("</g>").next().unwrap();
    let attr = |s: &str, name: &str| s.split(&format!(" {name}=\"")).nth(1).unwrap().split('"').next().unwrap().to_string();
    // The first line is the word "legend"; then an entry a line: its swatch, then its text.
    legend
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|e| {
            let (swatch, text) = e.split_once("<text").unwrap();
            let label = text.split('>').nth(1).unwrap().split('<').next().unwrap().to_string();
            (attr(text, "x").parse().unwrap(), attr(text, "y").parse().unwrap(), attr(swatch, "style"), label)
        })
        .collect()
}

#[test]
fn every_game_draws_its_table_with_a_legend() {
    for (game, players) in [("tic-tac-toe", 2), ("bsg-ccg", 2), ("bsg-board", 3), ("starcraft", 2), ("starship-battles", 2)] {
        let b = common::load(game, &[]);
        let st = common::play_until(&b, 3, players, &|st| st.decisions >= 6);
        for viewer in [None, Some(0)] {
            let svg = picture::svg(&b.game, &st, game, viewer).unwrap_or_else(|e| panic!("{game}: {e}"));
            let keys = entries(&svg);
            assert!(keys.len() >= 3, "{game}: a legend of a few entries, not {}", keys.len());
            let (w, h) = size(&svg);
            for (x, y, style, text) in &keys {
                assert!(!text.is_empty() && !style.is_empty(), "{game}: an entry with a swatch and a text");
                assert!(*x > 0.0 && *x < w && *y > 0.0 && *y <= h, "{game}: `{text}` at ({x}, {y}) is inside the {w} by {h} picture");
            }
            // In rows: an entry is right of the one before, or starts a lower row.
            for pair in keys.windows(2) {
                let ((x0, y0, ..), (x1, y1, ..)) = (&pair[0], &pair[1]);
                assert!((y1 == y0 && x1 > x0) || y1 > y0, "{game}: the legend's entries are in rows, in order");
            }
        }
    }
}

/// The tic-tac-toe legend as its rulebook writes it: X, O and the empty squares, in that order and
/// in the marks' own colours.
#[test]
fn a_legend_entry_is_drawn_in_its_own_style_in_the_order_given() {
    let b = common::load("tic-tac-toe", &[]);
    let st = common::play_until(&b, 1, 2, &|st| st.decisions >= 2);
    let svg = picture::svg(&b.game, &st, "tic-tac-toe", None).unwrap();
    let keys: Vec<(String, String)> = entries(&svg).into_iter().map(|(_, _, s, t)| (s, t)).collect();
    assert_eq!(
        keys,
        [("fill:#f6c343".into(), "X".into()), ("fill:#5dade2".into(), "O".into()), ("fill:#99a".into(), "an empty square, by name".into())]
    );
    assert!(svg.contains("fill:#f6c343;font-size:20px"), "X's mark is drawn in the colour its key shows");
}
