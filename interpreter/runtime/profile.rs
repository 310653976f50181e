//! Where evaluation time goes, by routine: `arbiter bench GAME --profile`. Counted in evaluation
//! steps (the unit of the step budgets), so a profile is the same on every machine.

use std::collections::HashMap;

/// Steps by routine, over every evaluation of an engine that profiles.
#[derive(Debug, Default, Clone)]
pub struct Profile {
    pub routines: HashMap<String, Row>,
    /// Every evaluation step, inside routines or not.
    pub steps: u64,
    /// Steps of the routines called by each routine being evaluated now (innermost last).
    open: Vec<u64>,
}

/// One routine's calls and steps.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub calls: u64,
    /// Steps inside the routine, including the routines it calls.
    pub total: u64,
    /// Steps in the routine itself.
    pub own: u64,
}

impl Profile {
    /// A routine starts: the steps of what it calls are counted apart from its own.
    pub fn enter(&mut self) {
        self.open.push(0);
    }

    /// A routine ends after `steps` steps (everything inside it).
    pub fn leave(&mut self, what: &str, name: &str, steps: u64) {
        let inner = self.open.pop().unwrap_or(0);
        if let Some(parent) = self.open.last_mut() {
            *parent += steps;
        }
        let key = format!("{what} {name}");
        let row = self.routines.entry(key).or_default();
        row.calls += 1;
        row.total += steps;
        row.own += steps.saturating_sub(inner);
    }

    /// The routines by their own steps, most first (ties by name).
    pub fn by_own_steps(&self) -> Vec<(&str, Row)> {
        let mut rows: Vec<(&str, Row)> = self.routines.iter().map(|(k, r)| (k.as_str(), *r)).collect();
        rows.sort_by(|a, b| b.1.own.cmp(&a.1.own).then_with(|| a.0.cmp(b.0)));
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_routines_own_steps_leave_out_the_routines_it_calls() {
        let mut p = Profile::default();
        p.enter(); // outer
        p.enter(); // inner
        p.leave("func", "inner", 30);
        p.leave("func", "outer", 100);
        let rows = p.by_own_steps();
        assert_eq!(rows, vec![("func outer", Row { calls: 1, total: 100, own: 70 }), ("func inner", Row { calls: 1, total: 30, own: 30 })]);
    }
}
