//! What `arbiter sim` shows: each rule set's win rates, endings and game lengths with their 95%
//! intervals, and each compared rule set's differences from the first with their significance;
//! the same as CSV rows and as an SVG chart.

use super::stats::{Proportion, Summary, difference, summary, wilson};
use super::{Run, Tally};
use std::fmt::Write as _;

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn interval(p: &Proportion) -> String {
    format!("{} [{} – {}]", pct(p.p), pct(p.low), pct(p.high))
}

/// A rule set as the report and the chart name it.
pub(super) fn name(t: &Tally) -> String {
    if t.variants.is_empty() { "the rules as written".to_string() } else { format!("with {}", t.variants.join(", ")) }
}

fn length(label: &str, s: Option<Summary>) -> String {
    match s {
        Some(s) => format!("  {label}: mean {:.1}, median {}, 5th–95th percentile {}–{}\n", s.mean, s.median, s.p5, s.p95),
        None => String::new(),
    }
}

/// An ending as the report shows it: each number put back as `{..}` filled in with the value it
/// took, or the range of values it took (`end-game victory: 12–19 conquest points`).
pub fn ending(kind: &str, ranges: &[(i64, i64)]) -> String {
    let mut out = String::new();
    let mut rest = kind;
    let mut values = ranges.iter();
    while let Some(i) = rest.find('{') {
        let Some(j) = rest.get(i..).and_then(|r| r.find('}')).map(|j| i + j) else { break };
        out.push_str(rest.get(..i).unwrap_or(""));
        out.push_str(&match values.next() {
            Some((lo, hi)) if lo == hi => lo.to_string(),
            Some((lo, hi)) => format!("{lo}–{hi}"),
            None => "some".to_string(),
        });
        rest = rest.get(j + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

fn ending_of(t: &Tally, kind: &str) -> String {
    ending(kind, t.outcome_numbers.get(kind).map_or(&[], Vec::as_slice))
}

/// "first", "second", ... for a seat's place in the turn order.
fn ordinal(seat: usize) -> String {
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
        .get(seat)
        .map_or_else(|| format!("P{}", seat + 1), |w| (*w).to_string())
}

/// Why a run's seats are not alike but for their places: decks given to some (`--deck`), or bots
/// given by seat or side (`--bots 1=mcts`).
fn unlike(run: &Run) -> Option<String> {
    let values: std::collections::BTreeSet<&str> = run.decks.iter().map(|d| d.split_once('=').map_or(d.as_str(), |(_, v)| v)).collect();
    let same_for_all = run.decks.len() == run.players && values.len() == 1;
    if !run.decks.is_empty() && !same_for_all {
        Some(format!("the seats play different decks, `--deck {}`", run.decks.join(" --deck ")))
    } else if run.bots.contains('=') {
        Some(format!("the seats are played by different bots, `{}`", run.bots))
    } else {
        None
    }
}

/// The answer in sentences a designer can paste: for each seat, its win rate with its interval
/// against an even share (the seats' mean), and whether the difference is significant; for each
/// side, its rate.
/// `unlike`: why the seats are not alike but for their places (different decks or bots), if so:
/// then a seat's share is not put down to its place alone.
pub fn sentences(t: &Tally, unlike: Option<&str>) -> Vec<String> {
    let n = t.finished();
    let seats = t.seat_wins.len();
    let mut out = Vec::new();
    // Games a rule error stopped are not counted below: say so first, so that no figure is read
    // as the rules' when most games never ended.
    let stopped: u64 = t.errors.values().sum();
    if stopped > 0 && n == 0 {
        out.push(format!("Every game ({stopped}) stopped by an error (listed above): there is nothing to count."));
    } else if stopped > 0 {
        out.push(format!(
            "{stopped} game{} stopped by an error (listed above): the figures count only the {n} that ended.",
            plural(stopped)
        ));
    }
    if n == 0 || seats == 0 {
        return out;
    }
    let share = t.seat_wins.iter().sum::<u64>() as f64 / (seats as f64 * n as f64);
    for (s, w) in t.seat_wins.iter().enumerate() {
        let p = wilson(*w, n);
        let verdict = match unlike {
            _ if seats < 2 => String::new(),
            None if p.low > share => format!(": a {}-player advantage, significant at 5%", ordinal(s)),
            None if p.high < share => format!(": a {}-player disadvantage, significant at 5%", ordinal(s)),
            Some(why) if p.low > share => format!(": more than its share, significant at 5% ({why}: not its place alone)"),
            Some(why) if p.high < share => format!(": less than its share, significant at 5% ({why}: not its place alone)"),
            _ => ": no significant advantage".to_string(),
        };
        let against = if seats < 2 { String::new() } else { format!(" against an even share of {}", pct(share)) };
        out.push(format!("P{} wins {}{against}{verdict}.", s + 1, interval(&p)));
    }
    for (side, w) in &t.side_wins {
        out.push(format!("Side {side} wins {}.", interval(&wilson(*w, n))));
    }
    if t.draws > 0 {
        out.push(format!("{} of games end with no winner.", interval(&wilson(t.draws, n))));
    }
    out
}

/// A compared rule set in sentences: each seat's and side's rate under it against the base, with
/// the difference and whether it is significant.
pub fn compared_sentences(base: &Tally, other: &Tally) -> Vec<String> {
    let (na, nb) = (base.finished(), other.finished());
    let stopped: u64 = other.errors.values().sum();
    if stopped > 0 {
        let lead = format!("{}, {stopped} game{} stopped by an error (listed above)", capitalised(&name(other)), plural(stopped));
        if nb == 0 || na == 0 {
            return vec![format!("{lead}: there is nothing to compare.")];
        }
        let mut out = vec![format!("{lead}: the comparison counts only the {nb} that ended.")];
        // The games that ended only: their number stays the one the rates are of.
        out.extend(compared_sentences(base, &Tally { errors: Default::default(), games: nb, ..other.clone() }));
        return out;
    }
    if nb == 0 || na == 0 {
        return vec![];
    }
    let mut out = Vec::new();
    // Every game alike: the rates cannot differ, and the bots never met what the rule set changes.
    if base.courses != 0 && base.courses == other.courses && base.games == other.games {
        out.push(format!(
            "{}: every game went as {} went, seed for seed (the same answers, as many events, the same ending): \
             these bots never met what it changes, so they cannot tell it apart (try other bots, or prove it with a scenario).",
            capitalised(&name(other)),
            name(base)
        ));
    }
    let mut say = |who: String, a: u64, b: u64| {
        let (pa, pb) = (wilson(a, na), wilson(b, nb));
        let d = difference(pa, pb);
        let verdict = if d.significant() { "significant at 5%" } else { "not significant at 5%" };
        out.push(format!(
            "{}, {who} wins {} instead of {}: {:+.1} points [{:+.1}, {:+.1}], {verdict}.",
            capitalised(&name(other)),
            interval(&pb),
            interval(&pa),
            d.d * 100.0,
            d.low * 100.0,
            d.high * 100.0
        ));
    };
    for s in 0..base.seat_wins.len().max(other.seat_wins.len()) {
        say(format!("P{}", s + 1), base.seat_wins.get(s).copied().unwrap_or(0), other.seat_wins.get(s).copied().unwrap_or(0));
    }
    let mut sides: Vec<&String> = base.side_wins.keys().chain(other.side_wins.keys()).collect();
    sides.sort();
    sides.dedup();
    for k in sides {
        say(format!("side {k}"), base.side_wins.get(k).copied().unwrap_or(0), other.side_wins.get(k).copied().unwrap_or(0));
    }
    out
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// The report as text.
pub fn text(run: &Run) -> String {
    let mut out = String::new();
    let shard = run.shard.map(|[k, n]| format!(", shard {k} of {n}")).unwrap_or_default();
    let _ = writeln!(
        out,
        "{} games of {} ({} players, {} bots, seeds {}–{}{shard}) under {} rule set{}",
        run.rule_sets.first().map_or(0, |t| t.games),
        run.game,
        run.players,
        run.bots,
        run.seed,
        run.seed.saturating_add(run.games.saturating_sub(1)),
        run.rule_sets.len(),
        if run.rule_sets.len() == 1 { "" } else { "s" }
    );
    for t in &run.rule_sets {
        let n = t.finished();
        let _ = writeln!(out, "\n{} ({n} games finished):", name(t));
        for (seat, w) in t.seat_wins.iter().enumerate() {
            let _ = writeln!(out, "  P{} wins {}", seat + 1, interval(&wilson(*w, n)));
        }
        for (side, w) in &t.side_wins {
            let _ = writeln!(out, "  side {side} wins {}", interval(&wilson(*w, n)));
        }
        if t.draws > 0 {
            let _ = writeln!(out, "  no winner {}", interval(&wilson(t.draws, n)));
        }
        let _ = writeln!(out, "  how games ended:");
        for (o, k) in &t.outcomes {
            let _ = writeln!(out, "    {:>6}  {}  {}", k, interval(&wilson(*k, n)), ending_of(t, o));
        }
        out.push_str(&length("turns", summary(&t.turns)));
        out.push_str(&length("decisions", summary(&t.decisions)));
        out.push_str(&cards(t));
        for (e, k) in &t.errors {
            let seeds = t.error_seeds.get(e).map(|s| s.iter().map(u64::to_string).collect::<Vec<_>>()).unwrap_or_default();
            let more = if *k > seeds.len() as u64 { ", …" } else { "" };
            let which =
                if seeds.is_empty() { String::new() } else { format!(" (seed{} {}{more})", plural(seeds.len() as u64), seeds.join(", ")) };
            let _ = writeln!(out, "  stopped by a rule error in {k} game{}{which}: {e}", plural(*k));
        }
        if !t.errors.is_empty() {
            let _ = writeln!(out, "  play one again, with this run's options: `arbiter play {} --seed S ..`", run.game);
        }
        if t.stopped_in_time > 0 {
            let k = t.stopped_in_time;
            let _ = writeln!(
                out,
                "  {k} bot decision{} answered when `--think` ran out: these seeds may play otherwise on another machine",
                if k == 1 { " was" } else { "s were" }
            );
        }
    }
    // In short: sentences a designer can paste.
    let mut short = Vec::new();
    if let Some((base, rest)) = run.rule_sets.split_first() {
        let lead = if rest.is_empty() { String::new() } else { format!("{}: ", capitalised(&name(base))) };
        short.extend(sentences(base, unlike(run).as_deref()).into_iter().map(|s| format!("{lead}{s}")));
        for t in rest {
            short.extend(compared_sentences(base, t));
        }
    }
    if !short.is_empty() {
        let _ = writeln!(out, "\nIn short:");
        for s in short {
            let _ = writeln!(out, "  {s}");
        }
    }
    if let Some((base, rest)) = run.rule_sets.split_first() {
        for t in rest.iter().filter(|t| t.finished() > 0 && base.finished() > 0) {
            let _ = writeln!(out, "\n{} against {} (same seeds; difference with its 95% interval, two-sided z-test):", name(t), name(base));
            for row in differences(base, t, &run.rule_sets) {
                let verdict = if row.significant { "significant at 5%" } else { "not significant at 5%" };
                let _ = writeln!(
                    out,
                    "  {}: {} → {}, {:+.1} points [{:+.1}, {:+.1}], p = {:.3}: {verdict}",
                    row.what,
                    pct(row.base),
                    pct(row.other),
                    row.d * 100.0,
                    row.low * 100.0,
                    row.high * 100.0,
                    row.p_value
                );
            }
        }
    }
    out
}

/// Per-card statistics: for each followed card, the seat's win rate in games where it was played
/// and where it was not, the difference and whether it is significant; the largest differences
/// first.
fn cards(t: &Tally) -> String {
    if t.cards.is_empty() {
        return String::new();
    }
    let mut rows: Vec<(&String, Proportion, Proportion, super::stats::Difference)> = t
        .cards
        .iter()
        .map(|(k, c)| {
            let (a, b) = (wilson(c.not_played_won, c.not_played), wilson(c.played_won, c.played));
            (k, a, b, difference(a, b))
        })
        .collect();
    rows.sort_by(|x, y| y.3.d.total_cmp(&x.3.d).then_with(|| x.0.cmp(y.0)));
    let mut out = String::from(concat!(
        "  each card: the seat's wins in games where it was played, and where it was not ",
        "(a correlation, not a cause: longer games see more cards played)\n"
    ));
    for (k, a, b, d) in rows {
        if a.n == 0 || b.n == 0 {
            let when = if b.n == 0 { "never played" } else { "played in every game" };
            let _ = writeln!(out, "    {k}: {when}, so nothing to compare");
            continue;
        }
        let _ = writeln!(
            out,
            "    {k}: played in {} games, won {}; not played in {}, won {}; {:+.1} points{}",
            b.n,
            interval(&b),
            a.n,
            interval(&a),
            d.d * 100.0,
            if d.significant() { ", significant at 5%" } else { "" }
        );
    }
    out
}

/// One compared measure (a seat's wins or an ending) between the base rule set and another.
pub struct Row {
    pub what: String,
    pub base: f64,
    pub other: f64,
    pub d: f64,
    pub low: f64,
    pub high: f64,
    pub p_value: f64,
    pub significant: bool,
}

/// Each seat's wins and each ending, compared. An ending is named by its numbers over every rule
/// set of the run (`all`), so that it reads the same in each comparison.
pub fn differences(base: &Tally, other: &Tally, all: &[Tally]) -> Vec<Row> {
    let (na, nb) = (base.finished(), other.finished());
    let mut pairs: Vec<(String, u64, u64)> = (0..base.seat_wins.len().max(other.seat_wins.len()))
        .map(|s| (format!("P{} wins", s + 1), base.seat_wins.get(s).copied().unwrap_or(0), other.seat_wins.get(s).copied().unwrap_or(0)))
        .collect();
    let mut sides: Vec<&String> = base.side_wins.keys().chain(other.side_wins.keys()).collect();
    sides.sort();
    sides.dedup();
    for k in sides {
        pairs.push((format!("side {k} wins"), base.side_wins.get(k).copied().unwrap_or(0), other.side_wins.get(k).copied().unwrap_or(0)));
    }
    let mut kinds: Vec<&String> = base.outcomes.keys().chain(other.outcomes.keys()).collect();
    kinds.sort();
    kinds.dedup();
    for k in kinds {
        // The ending's numbers over the two rule sets and every other of the run.
        let mut ranges = base.outcome_numbers.get(k).cloned().unwrap_or_default();
        for t in std::iter::once(other).chain(all) {
            super::widen(&mut ranges, t.outcome_numbers.get(k).into_iter().flatten().copied());
        }
        let shown = ending(k, &ranges);
        pairs.push((format!("\"{shown}\""), base.outcomes.get(k).copied().unwrap_or(0), other.outcomes.get(k).copied().unwrap_or(0)));
    }
    pairs
        .into_iter()
        .map(|(what, a, b)| {
            let (pa, pb) = (wilson(a, na), wilson(b, nb));
            let d = difference(pa, pb);
            Row { what, base: pa.p, other: pb.p, d: d.d, low: d.low, high: d.high, p_value: d.p_value, significant: d.significant() }
        })
        .collect()
}

/// The report as CSV: one row per rule set and measure.
pub fn csv(run: &Run) -> String {
    let mut out = String::from("rule_set,measure,key,count,games,rate,low,high\n");
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    for t in &run.rule_sets {
        let set = quote(&t.variants.join(" "));
        let n = t.finished();
        let mut row = |measure: &str, key: &str, k: u64| {
            let p = wilson(k, n);
            let _ = writeln!(out, "{set},{measure},{},{k},{n},{:.6},{:.6},{:.6}", quote(key), p.p, p.low, p.high);
        };
        for (s, w) in t.seat_wins.iter().enumerate() {
            row("seat_wins", &format!("P{}", s + 1), *w);
        }
        for (side, w) in &t.side_wins {
            row("side_wins", side, *w);
        }
        row("draws", "", t.draws);
        for (o, k) in &t.outcomes {
            row("outcome", &ending_of(t, o), *k);
        }
        for (k, c) in &t.cards {
            let _ = writeln!(out, "{set},card_played,{},{},{},,,", quote(k), c.played_won, c.played);
            let _ = writeln!(out, "{set},card_not_played,{},{},{},,,", quote(k), c.not_played_won, c.not_played);
        }
        for (label, hist) in [("turns", &t.turns), ("decisions", &t.decisions)] {
            for (v, k) in hist {
                let _ = writeln!(out, "{set},{label},{v},{k},{n},,,");
            }
        }
    }
    out
}

/// "s" after a count other than one.
fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From a designer's trial: with games stopped by an error under the compared rule set, the
    /// sentence's rate counted them as games not won (302 of 400 instead of 302 of 383).
    #[test]
    fn a_compared_rate_counts_only_the_games_that_ended() {
        let base = Tally { games: 10, seat_wins: vec![6, 4], ..Tally::default() };
        let mut other = Tally { variants: vec!["v".into()], games: 10, seat_wins: vec![4, 4], ..Tally::default() };
        other.errors.insert("boom".into(), 2);
        let said = compared_sentences(&base, &other).join("\n");
        assert!(said.contains("the comparison counts only the 8 that ended"), "{said}");
        assert!(said.contains("P1 wins 50.0%"), "4 of the 8 that ended: {said}");
        assert!(!said.contains("P1 wins 40.0%"), "not 4 of all 10: {said}");
    }

    /// From a rules lawyer's trial: the base's ending read `0–19 conquest points` against one
    /// compared rule set and `0–14` against the other; it is named by its numbers in every rule
    /// set of the run, the same in each comparison.
    #[test]
    fn an_ending_reads_the_same_in_every_comparison() {
        let kind = "end-game victory: {n} conquest points".to_string();
        let set = |variants: &[&str], hi: i64| {
            let mut t =
                Tally { variants: variants.iter().map(|v| v.to_string()).collect(), games: 10, seat_wins: vec![5, 5], ..Tally::default() };
            t.outcomes.insert(kind.clone(), 10);
            t.outcome_numbers.insert(kind.clone(), vec![(0, hi)]);
            t
        };
        let all = vec![set(&[], 12), set(&["a"], 14), set(&["b"], 19)];
        let label = |other: &Tally| differences(&all[0], other, &all).into_iter().map(|r| r.what).find(|w| w.contains("conquest")).unwrap();
        assert_eq!(label(&all[1]), "\"end-game victory: 0–19 conquest points\"");
        assert_eq!(label(&all[1]), label(&all[2]));
    }

    /// From a designer's trial: with a deck of their own for P1 (`--deck 1=mine.arb`), P1's share
    /// was called "a first-player advantage", as if the seats differed only in their places.
    #[test]
    fn a_seat_with_its_own_deck_is_not_said_to_win_by_its_place() {
        let tally = Tally { games: 400, seat_wins: vec![330, 70], ..Tally::default() };
        let run = |decks: Vec<String>, bots: &str| Run {
            game: "bsg-ccg".into(),
            players: 2,
            seed: 1,
            games: 400,
            bots: bots.into(),
            decks,
            shard: None,
            rule_sets: vec![tally.clone()],
        };
        let alike = sentences(&tally, unlike(&run(vec![], "random")).as_deref()).join("\n");
        assert!(alike.contains("a first-player advantage"), "{alike}");
        let decked = sentences(&tally, unlike(&run(vec!["1=mine.arb".into()], "random")).as_deref()).join("\n");
        assert!(!decked.contains("first-player advantage"), "{decked}");
        assert!(decked.contains("the seats play different decks, `--deck 1=mine.arb`: not its place alone"), "{decked}");
        let same = unlike(&run(vec!["1=mine.arb".into(), "2=mine.arb".into()], "random"));
        assert_eq!(same, None, "the same deck for every seat");
        let bots = sentences(&tally, unlike(&run(vec![], "1=mcts")).as_deref()).join("\n");
        assert!(bots.contains("different bots, `1=mcts`"), "{bots}");
    }
}
