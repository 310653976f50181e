//! The statistics `arbiter sim` reports: proportions with Wilson score intervals, the difference
//! of two proportions with Newcombe's interval and a two-sided z-test, and summaries of game
//! lengths from their histograms.

use std::collections::BTreeMap;

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion `k` of `n` with its 95% Wilson score interval (Wilson 1927): unlike the textbook
/// `p ± z·sqrt(p(1-p)/n)`, it stays inside 0..1 and is sound for rare outcomes and small `n`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proportion {
    pub k: u64,
    pub n: u64,
    pub p: f64,
    pub low: f64,
    pub high: f64,
}

pub fn wilson(k: u64, n: u64) -> Proportion {
    if n == 0 {
        return Proportion { k, n, p: 0.0, low: 0.0, high: 1.0 };
    }
    let (kf, nf) = (k as f64, n as f64);
    let p = kf / nf;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = Z95 / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    Proportion { k, n, p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

/// The difference `b - a` of two proportions: its 95% interval (Newcombe 1998, method 10, from
/// the two Wilson intervals) and the two-sided p-value of the pooled two-proportion z-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    pub d: f64,
    pub low: f64,
    pub high: f64,
    pub p_value: f64,
}

impl Difference {
    /// Significant at 5%: the test rejects equal proportions.
    pub fn significant(&self) -> bool {
        self.p_value < 0.05
    }
}

pub fn difference(a: Proportion, b: Proportion) -> Difference {
    let d = b.p - a.p;
    let low = d - ((b.p - b.low).powi(2) + (a.high - a.p).powi(2)).sqrt();
    let high = d + ((b.high - b.p).powi(2) + (a.p - a.low).powi(2)).sqrt();
    let p_value = if a.n == 0 || b.n == 0 {
        1.0
    } else {
        let pooled = (a.k + b.k) as f64 / (a.n + b.n) as f64;
        let se = (pooled * (1.0 - pooled) * (1.0 / a.n as f64 + 1.0 / b.n as f64)).sqrt();
        if se == 0.0 { if d == 0.0 { 1.0 } else { 0.0 } } else { libm::erfc((d / se).abs() / std::f64::consts::SQRT_2) }
    };
    Difference { d, low: low.max(-1.0), high: high.min(1.0), p_value }
}

/// Mean, median and the 5th and 95th percentiles of values given as a histogram (value → how
/// many times). Percentiles are the nearest rank: the smallest value with at least that share
/// of the games at or below it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub mean: f64,
    pub median: u64,
    pub p5: u64,
    pub p95: u64,
}

pub fn summary(hist: &BTreeMap<u64, u64>) -> Option<Summary> {
    let n: u64 = hist.values().sum();
    if n == 0 {
        return None;
    }
    let total: f64 = hist.iter().map(|(v, c)| *v as f64 * *c as f64).sum();
    let rank = |q: f64| {
        let want = ((q * n as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (v, c) in hist {
            seen += c;
            if seen >= want {
                return *v;
            }
        }
        hist.keys().next_back().copied().unwrap_or(0)
    };
    Some(Summary { mean: total / n as f64, median: rank(0.5), p5: rank(0.05), p95: rank(0.95) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_intervals_match_published_values() {
        // Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611.
        let a = wilson(81, 263);
        assert!(close(a.low, 0.2553) && close(a.high, 0.3662), "{a:?}");
        let b = wilson(15, 148);
        assert!(close(b.low, 0.0624) && close(b.high, 0.1605), "{b:?}");
        let c = wilson(0, 20);
        assert!(c.low == 0.0 && close(c.high, 0.1611), "{c:?}");
    }

    #[test]
    fn differences_match_published_values() {
        // Newcombe (1998), table II, method 10: 56/70 - 48/80 = 0.2, interval 0.0524–0.3339.
        let d = difference(wilson(48, 80), wilson(56, 70));
        assert!(close(d.d, 0.2) && close(d.low, 0.0524) && close(d.high, 0.3339), "{d:?}");
        // The pooled z-test: p = 104/150, z = 0.2 / sqrt(p(1-p)(1/70 + 1/80)) = 2.6502, and the
        // two-sided p-value is erfc(z/√2) = 0.00805.
        assert!(close(d.p_value, 0.00805) && d.significant(), "{d:?}");
        // Equal counts: no difference, p = 1.
        let e = difference(wilson(30, 100), wilson(30, 100));
        assert!(e.d == 0.0 && close(e.p_value, 1.0) && !e.significant(), "{e:?}");
    }

    #[test]
    fn summaries_use_the_nearest_rank() {
        let hist: BTreeMap<u64, u64> = (1..=100).map(|v| (v, 1)).collect();
        let s = summary(&hist).unwrap_or_else(|| unreachable!());
        assert_eq!((s.median, s.p5, s.p95), (50, 5, 95));
        assert!(close(s.mean, 50.5));
        let skewed: BTreeMap<u64, u64> = [(3, 90), (40, 10)].into_iter().collect();
        let s = summary(&skewed).unwrap_or_else(|| unreachable!());
        assert_eq!((s.median, s.p5, s.p95), (3, 3, 40));
        assert!(summary(&BTreeMap::new()).is_none());
    }
}
