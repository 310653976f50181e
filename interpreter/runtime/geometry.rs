//! Plane geometry for games played on a table: poses (a point and a heading), rigid moves,
//! polygons, arcs, distances, crossings and overlaps.
//!
//! Numbers. A rule sees whole numbers only: lengths in micrometres (`mm(12)` is 12,000) and angles
//! in thousandths of a degree (`deg(30)` is 30,000). Inside, the computations use `f64` with only
//! `+ - * /` and `sqrt`, which IEEE 754 defines exactly, and sine, cosine and arctangent are computed
//! here by series rather than taken from the platform's maths library; every result is rounded to
//! the nearest micrometre or millidegree before a rule sees it. So the same rules give the same
//! numbers on every machine.
//!
//! Conventions. x grows to the right, y grows up; a heading of 0 points along +x and angles grow
//! counterclockwise. A shape is a polygon: its corners in order, in the frame of the thing it
//! belongs to (x forward, y to the left), placed in the world by a pose. Tolerance: two shapes
//! that touch (within one micrometre) overlap; a point on an arc's edge is inside the arc.

use std::f64::consts::PI;

/// One micrometre: the tolerance for touching.
pub const EPS: f64 = 1.0;
const FULL_TURN: i64 = 360_000;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// A pose as a rule holds it: x and y in micrometres, heading in millidegrees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pose {
    pub x: i64,
    pub y: i64,
    pub h: i64,
}

impl Pose {
    pub fn p(self) -> Point {
        Point { x: self.x as f64, y: self.y as f64 }
    }
}

/// An angle into [0, 360000).
pub fn norm_angle(a: i64) -> i64 {
    a.rem_euclid(FULL_TURN)
}

/// A signed angle difference into (-180000, 180000].
pub fn angle_diff(a: i64, b: i64) -> i64 {
    let d = norm_angle(a - b);
    if d > 180_000 { d - FULL_TURN } else { d }
}

fn round(v: f64) -> i64 {
    // Values here are bounded by the table (metres in micrometres): well inside i64.
    let r = v.round();
    if r.is_nan() {
        0
    } else if r > 9.0e15 {
        9_000_000_000_000_000
    } else if r < -9.0e15 {
        -9_000_000_000_000_000
    } else {
        r as i64
    }
}

/// sin and cos of an angle in millidegrees, by series after reducing to [0°, 45°].
pub fn sin_cos(mdeg: i64) -> (f64, f64) {
    let a = norm_angle(mdeg);
    // Exact values at the multiples of 90°.
    match a {
        0 => return (0.0, 1.0),
        90_000 => return (1.0, 0.0),
        180_000 => return (0.0, -1.0),
        270_000 => return (-1.0, 0.0),
        _ => {}
    }
    let quadrant = a / 90_000;
    let r = a % 90_000;
    let (s, c) = if r <= 45_000 {
        series(r)
    } else {
        let (s, c) = series(90_000 - r);
        (c, s)
    };
    match quadrant {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// Taylor series for an angle in [0°, 45°] given in millidegrees.
fn series(mdeg: i64) -> (f64, f64) {
    let x = (mdeg as f64) * PI / 180_000.0;
    let x2 = x * x;
    let mut s = x;
    let mut c = 1.0;
    let mut ts = x;
    let mut tc = 1.0;
    for k in 1..12 {
        let k = k as f64;
        ts = -ts * x2 / ((2.0 * k) * (2.0 * k + 1.0));
        tc = -tc * x2 / ((2.0 * k - 1.0) * (2.0 * k));
        s += ts;
        c += tc;
    }
    (s, c)
}

/// atan(x) by halving the argument twice and a series.
fn atan(x: f64) -> f64 {
    if x < 0.0 {
        return -atan(-x);
    }
    if x > 1.0 {
        return PI / 2.0 - atan(1.0 / x);
    }
    // atan(x) = 2 atan(x / (1 + sqrt(1 + x²))), twice: |x| ≤ 0.2.
    let h1 = x / (1.0 + (1.0 + x * x).sqrt());
    let h2 = h1 / (1.0 + (1.0 + h1 * h1).sqrt());
    let y2 = h2 * h2;
    let mut term = h2;
    let mut sum = h2;
    for k in 1..20 {
        term = -term * y2;
        sum += term / (2 * k + 1) as f64;
    }
    4.0 * sum
}

/// The direction from a to b, in millidegrees [0, 360000); 0 when the points coincide.
pub fn bearing(a: Point, b: Point) -> i64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx.abs() < 1e-9 && dy.abs() < 1e-9 {
        return 0;
    }
    let ang = if dx.abs() < 1e-12 {
        if dy > 0.0 { PI / 2.0 } else { -PI / 2.0 }
    } else {
        let base = atan(dy / dx);
        if dx > 0.0 {
            base
        } else if dy >= 0.0 {
            base + PI
        } else {
            base - PI
        }
    };
    norm_angle(round(ang * 180_000.0 / PI))
}

pub fn dist(a: Point, b: Point) -> f64 {
    ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).sqrt()
}

/// Move a pose by an offset in its own frame (forward, left), then turn it.
pub fn step(p: Pose, forward: i64, left: i64, turn: i64) -> Pose {
    let (s, c) = sin_cos(p.h);
    let (f, l) = (forward as f64, left as f64);
    Pose { x: round(p.x as f64 + f * c - l * s), y: round(p.y as f64 + f * s + l * c), h: norm_angle(p.h + turn) }
}

/// A shape's corners placed in the world by a pose.
pub fn place(shape: &[Point], at: Pose) -> Vec<Point> {
    let (s, c) = sin_cos(at.h);
    let (ox, oy) = (at.x as f64, at.y as f64);
    shape.iter().map(|q| Point { x: ox + q.x * c - q.y * s, y: oy + q.x * s + q.y * c }).collect()
}

fn edges(poly: &[Point]) -> impl Iterator<Item = (Point, Point)> + '_ {
    let n = poly.len();
    (0..n).filter_map(move |i| Some((*poly.get(i)?, *poly.get((i + 1) % n)?)))
}

fn cross(o: Point, a: Point, b: Point) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// The point of segment [a, b] nearest to p.
pub fn nearest_on_segment(p: Point, a: Point, b: Point) -> Point {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    if len2 < 1e-12 {
        return a;
    }
    let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0);
    Point { x: a.x + t * dx, y: a.y + t * dy }
}

/// Inside the polygon, or on its boundary.
pub fn point_in(p: Point, poly: &[Point]) -> bool {
    if poly.len() < 3 {
        return poly.iter().any(|q| dist(*q, p) <= EPS);
    }
    for (a, b) in edges(poly) {
        if dist(nearest_on_segment(p, a, b), p) <= EPS {
            return true;
        }
    }
    let mut inside = false;
    for (a, b) in edges(poly) {
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Do segments [a, b] and [c, d] meet (touching counts)?
pub fn segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool {
    seg_seg_distance(a, b, c, d) <= EPS
}

fn proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    let d1 = cross(c, d, a);
    let d2 = cross(c, d, b);
    let d3 = cross(a, b, c);
    let d4 = cross(a, b, d);
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
}

pub fn seg_seg_distance(a: Point, b: Point, c: Point, d: Point) -> f64 {
    if proper_cross(a, b, c, d) {
        return 0.0;
    }
    let cands = [
        dist(a, nearest_on_segment(a, c, d)),
        dist(b, nearest_on_segment(b, c, d)),
        dist(c, nearest_on_segment(c, a, b)),
        dist(d, nearest_on_segment(d, a, b)),
    ];
    cands.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Do two polygons overlap (touching counts)?
pub fn overlaps(s: &[Point], t: &[Point]) -> bool {
    for (a, b) in edges(s) {
        for (c, d) in edges(t) {
            if segments_meet(a, b, c, d) {
                return true;
            }
        }
    }
    s.first().is_some_and(|p| point_in(*p, t)) || t.first().is_some_and(|p| point_in(*p, s))
}

/// Does the segment [a, b] cross or touch the polygon (or lie inside it)?
pub fn crosses(a: Point, b: Point, poly: &[Point]) -> bool {
    if point_in(a, poly) || point_in(b, poly) {
        return true;
    }
    edges(poly).any(|(c, d)| segments_meet(a, b, c, d))
}

/// The index of the polygon's edge that the segment from a toward b meets first, if any.
pub fn first_edge(a: Point, b: Point, poly: &[Point]) -> Option<usize> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let mut best: Option<(f64, usize)> = None;
    for (i, (c, d)) in edges(poly).enumerate() {
        let (ex, ey) = (d.x - c.x, d.y - c.y);
        let den = dx * ey - dy * ex;
        if den.abs() < 1e-12 {
            continue;
        }
        let t = ((c.x - a.x) * ey - (c.y - a.y) * ex) / den;
        let u = ((c.x - a.x) * dy - (c.y - a.y) * dx) / den;
        let tol = 1e-9;
        if t >= -tol && t <= 1.0 + tol && u >= -tol && u <= 1.0 + tol && best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, i));
        }
    }
    best.map(|(_, i)| i)
}

/// Is every corner of `s` inside `area`?
pub fn within(s: &[Point], area: &[Point]) -> bool {
    s.iter().all(|p| point_in(*p, area))
}

/// Is q inside the arc seen from `from` (its heading, plus or minus `half` millidegrees)?
pub fn in_arc(from: Pose, half: i64, q: Point) -> bool {
    let o = from.p();
    if dist(o, q) <= EPS {
        return true;
    }
    angle_diff(bearing(o, q), from.h).abs() <= half
}

/// The nearest point of the polygon (its inside included) that lies inside the arc, if any.
pub fn nearest_in_arc(from: Pose, half: i64, poly: &[Point]) -> Option<Point> {
    let o = from.p();
    if point_in(o, poly) {
        return Some(o);
    }
    let mut best: Option<(f64, Point)> = None;
    let mut consider = |q: Point| {
        if in_arc(from, half, q) {
            let d = dist(o, q);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, q));
            }
        }
    };
    // The arc's two edges as rays from the origin.
    let rays: Vec<Point> = [from.h - half, from.h + half]
        .iter()
        .map(|h| {
            let (s, c) = sin_cos(*h);
            Point { x: o.x + c, y: o.y + s }
        })
        .collect();
    for (a, b) in edges(poly) {
        // Split the edge where it meets the arc's edges; on each piece inside the arc, the point
        // nearest the origin is a candidate (and so are the split points and the ends).
        let mut ts = vec![0.0, 1.0];
        for r in &rays {
            let (dx, dy) = (r.x - o.x, r.y - o.y);
            let (ex, ey) = (b.x - a.x, b.y - a.y);
            let den = dx * ey - dy * ex;
            if den.abs() < 1e-12 {
                continue;
            }
            let t = ((a.x - o.x) * dy - (a.y - o.y) * dx) / den;
            if t > 0.0 && t < 1.0 {
                ts.push(t);
            }
        }
        ts.sort_by(f64::total_cmp);
        let at = |t: f64| Point { x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y) };
        for w in ts.windows(2) {
            if let [t0, t1] = w {
                let (p0, p1) = (at(*t0), at(*t1));
                consider(p0);
                consider(p1);
                let mid = at((t0 + t1) / 2.0);
                if in_arc(from, half, mid) {
                    consider(nearest_on_segment(o, p0, p1));
                }
            }
        }
    }
    best.map(|(_, q)| q)
}

/// Points along the polygon's edges, one every `spacing` micrometres (and every corner), that lie
/// inside the arc: the places a measurement may reach.
pub fn points_in_arc(from: Pose, half: i64, poly: &[Point], spacing: f64) -> Vec<Point> {
    let mut out = Vec::new();
    if let Some(q) = nearest_in_arc(from, half, poly) {
        out.push(q);
    }
    let spacing = spacing.max(100.0);
    for (a, b) in edges(poly) {
        let len = dist(a, b);
        let n = ((len / spacing).ceil() as usize).clamp(1, 10_000);
        for k in 0..n {
            let t = k as f64 / n as f64;
            let q = Point { x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y) };
            if in_arc(from, half, q) {
                out.push(q);
            }
        }
    }
    out
}

/// The distance from a point to a polygon (0 inside).
pub fn distance_to(p: Point, poly: &[Point]) -> f64 {
    if point_in(p, poly) {
        return 0.0;
    }
    edges(poly).map(|(a, b)| dist(p, nearest_on_segment(p, a, b))).fold(f64::INFINITY, f64::min)
}

/// The distance between two polygons (0 when they overlap).
pub fn shape_distance(s: &[Point], t: &[Point]) -> f64 {
    if overlaps(s, t) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for (a, b) in edges(s) {
        for (c, d) in edges(t) {
            best = best.min(seg_seg_distance(a, b, c, d));
        }
    }
    best
}

/// A regular polygon of n corners around the origin, the first on +x (a circle, for n large).
pub fn regular(n: usize, r: f64) -> Vec<Point> {
    let n = n.clamp(3, 360);
    (0..n)
        .map(|k| {
            let (s, c) = sin_cos((k as i64) * FULL_TURN / n as i64);
            Point { x: r * c, y: r * s }
        })
        .collect()
}

pub fn to_pose(p: Point) -> Pose {
    Pose { x: round(p.x), y: round(p.y), h: 0 }
}

pub fn round_len(v: f64) -> i64 {
    round(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    #[test]
    fn sines_and_cosines_match_known_values() {
        let (s, c) = sin_cos(30_000);
        assert!((s - 0.5).abs() < 1e-15 && (c - 0.75f64.sqrt()).abs() < 1e-15);
        let (s, c) = sin_cos(-90_000);
        assert_eq!((s, c), (-1.0, 0.0));
        for a in (0..360_000).step_by(7_919) {
            let (s, c) = sin_cos(a);
            assert!((s * s + c * c - 1.0).abs() < 1e-14, "{a}");
        }
    }

    #[test]
    fn bearings_round_trip() {
        for a in (0..360_000).step_by(1_000) {
            let (s, c) = sin_cos(a);
            let b = bearing(pt(0.0, 0.0), pt(c * 100_000.0, s * 100_000.0));
            assert!(angle_diff(a, b).abs() <= 1, "{a} vs {b}");
        }
    }

    #[test]
    fn a_step_forward_and_a_quarter_turn() {
        let p = Pose { x: 0, y: 0, h: 90_000 };
        assert_eq!(step(p, 10_000, 0, 0), Pose { x: 0, y: 10_000, h: 90_000 });
        assert_eq!(step(p, 0, 5_000, -90_000), Pose { x: -5_000, y: 0, h: 0 });
    }

    #[test]
    fn squares_overlap_when_touching_and_not_when_apart() {
        let a = regular(4, 1000.0);
        let b = place(&a, Pose { x: 2000, y: 0, h: 0 });
        assert!(overlaps(&a, &b));
        let c = place(&a, Pose { x: 2002, y: 0, h: 0 });
        assert!(!overlaps(&a, &c));
        // One inside the other.
        let big = regular(4, 5000.0);
        assert!(overlaps(&a, &big));
    }

    #[test]
    fn the_nearest_point_in_an_arc() {
        // A square 10 cm ahead and 3 cm to the left; a 45° half arc looking along +x.
        let sq = place(&regular(4, 1000.0), Pose { x: 100_000, y: 30_000, h: 45_000 });
        let q = nearest_in_arc(Pose { x: 0, y: 0, h: 0 }, 45_000, &sq).unwrap();
        assert!(in_arc(Pose { x: 0, y: 0, h: 0 }, 45_000, q));
        // Behind the viewer: nothing in a 45° arc.
        let behind = place(&regular(4, 1000.0), Pose { x: -50_000, y: 0, h: 0 });
        assert!(nearest_in_arc(Pose { x: 0, y: 0, h: 0 }, 45_000, &behind).is_none());
    }

    #[test]
    fn the_first_edge_crossed() {
        // A square with corners on the axes; a segment from the left enters through the edge
        // between corners 1 (0, r) and 2 (-r, 0).
        let sq = regular(4, 1000.0);
        assert_eq!(first_edge(pt(-5000.0, 100.0), pt(0.0, 0.0), &sq), Some(1));
    }
}
