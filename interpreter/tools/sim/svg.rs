//! `arbiter sim --svg`: the charts a person would rather look at than read: each seat's (and each
//! side's) win rate under each rule set with its 95% interval as an error bar, and each rule set's
//! histogram of game length in turns.

use super::Run;
use super::stats::wilson;
use std::fmt::Write as _;

const COLOURS: [&str; 6] = ["#4878a8", "#e07b39", "#5a9e5a", "#b94a48", "#8a6bb8", "#7a7a7a"];
const WIDTH: f64 = 720.0;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

pub fn chart(run: &Run) -> String {
    let sets = &run.rule_sets;
    let seats = sets.iter().map(|t| t.seat_wins.len()).max().unwrap_or(0);
    // Each seat, then each side the rulebook declares, then games without a winner.
    let mut sides: Vec<&String> = sets.iter().flat_map(|t| t.side_wins.keys()).collect();
    sides.sort();
    sides.dedup();
    let groups = seats + sides.len() + usize::from(sets.iter().any(|t| t.draws > 0));
    let (left, top, plot_h) = (60.0, 50.0, 220.0);
    let hist_h = 120.0;
    let height = top + plot_h + 70.0 + sets.len() as f64 * (hist_h + 50.0) + 20.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let games = sets.first().map_or(0, |t| t.games);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="24" font-size="15">{} — win rates over {games} games, {} players (95% intervals)</text>"#,
        escape(&run.game),
        run.players
    );
    // Axis and grid: 0% to 100%.
    let plot_w = WIDTH - left - 20.0;
    for i in 0..=4 {
        let y = top + plot_h - plot_h * f64::from(i) / 4.0;
        let _ = writeln!(s, r##"<line x1="{left}" y1="{y}" x2="{}" y2="{y}" stroke="#ddd"/>"##, left + plot_w);
        let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="end">{}%</text>"#, left - 6.0, y + 4.0, i * 25);
    }
    let group_w = plot_w / groups.max(1) as f64;
    let bar_w = (group_w * 0.8 / sets.len().max(1) as f64).min(60.0);
    for g in 0..groups {
        let gx = left + group_w * g as f64 + group_w * 0.1;
        let side = g.checked_sub(seats).and_then(|i| sides.get(i));
        let label = match side {
            _ if g < seats => format!("P{} wins", g + 1),
            Some(name) => format!("{name} win"),
            None => "no winner".to_string(),
        };
        let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{label}</text>"#, gx + group_w * 0.4, top + plot_h + 16.0);
        for (i, t) in sets.iter().enumerate() {
            let k = match side {
                _ if g < seats => t.seat_wins.get(g).copied().unwrap_or(0),
                Some(name) => t.side_wins.get(*name).copied().unwrap_or(0),
                None => t.draws,
            };
            let p = wilson(k, t.finished());
            let x = gx + bar_w * i as f64;
            let y = |v: f64| top + plot_h - plot_h * v;
            let colour = COLOURS.get(i % COLOURS.len()).copied().unwrap_or("#888");
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{colour}"><title>{:.1}% [{:.1}% – {:.1}%]</title></rect>"#,
                y(p.p),
                bar_w * 0.9,
                plot_h * p.p,
                p.p * 100.0,
                p.low * 100.0,
                p.high * 100.0
            );
            let cx = x + bar_w * 0.45;
            let _ = writeln!(
                s,
                r#"<path d="M{cx:.1} {:.1} V{:.1} M{:.1} {:.1} H{:.1} M{:.1} {:.1} H{:.1}" stroke="black"/>"#,
                y(p.low),
                y(p.high),
                cx - 4.0,
                y(p.low),
                cx + 4.0,
                cx - 4.0,
                y(p.high),
                cx + 4.0
            );
        }
    }
    // Legend.
    let mut lx = left;
    let ly = top + plot_h + 38.0;
    for (i, t) in sets.iter().enumerate() {
        let colour = COLOURS.get(i % COLOURS.len()).copied().unwrap_or("#888");
        let name = super::report::name(t);
        let _ = writeln!(s, r#"<rect x="{lx}" y="{}" width="12" height="12" fill="{colour}"/>"#, ly - 10.0);
        let _ = writeln!(s, r#"<text x="{}" y="{ly}">{}</text>"#, lx + 16.0, escape(&name));
        lx += 30.0 + name.len() as f64 * 6.5;
    }
    // One histogram of game length per rule set.
    let max_turns = sets.iter().filter_map(|t| t.turns.keys().next_back().copied()).max().unwrap_or(1).max(1);
    let max_count = sets.iter().flat_map(|t| t.turns.values().copied()).max().unwrap_or(1).max(1);
    for (i, t) in sets.iter().enumerate() {
        let y0 = top + plot_h + 70.0 + i as f64 * (hist_h + 50.0);
        let colour = COLOURS.get(i % COLOURS.len()).copied().unwrap_or("#888");
        let name = super::report::name(t);
        let _ = writeln!(s, r#"<text x="{left}" y="{}">game length in turns, {}</text>"#, y0 + 12.0, escape(&name));
        let base = y0 + 20.0 + hist_h;
        let _ = writeln!(s, r#"<line x1="{left}" y1="{base}" x2="{}" y2="{base}" stroke="black"/>"#, left + plot_w);
        let w = plot_w / (max_turns + 1) as f64;
        for (turns, count) in &t.turns {
            let h = hist_h * *count as f64 / max_count as f64;
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="{colour}"><title>{turns} turns: {count} games</title></rect>"#,
                left + w * *turns as f64,
                base - h,
                (w * 0.9).max(0.5)
            );
        }
        for tick in [0, max_turns / 2, max_turns] {
            let _ =
                writeln!(s, r#"<text x="{:.1}" y="{}" text-anchor="middle">{tick}</text>"#, left + w * (tick as f64 + 0.45), base + 14.0);
        }
    }
    s.push_str("</svg>\n");
    s
}
