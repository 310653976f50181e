//! Where the engine is: the statement and routine running, the rule item they belong to, and
//! where the running procedures were called from (for errors and causes).

use super::engine::Engine;
use super::state::{FrameKind, Mode, Routine, State};
use arbiter_syntax::span::Span;

impl Engine<'_> {
    /// The innermost rule item running, as an error names it: `challenge.conclude (L382-402)`.
    pub fn running_rule(&self, st: &State) -> Option<String> {
        let routine = st.frames.iter().rev().find_map(|f| match f.kind {
            FrameKind::Call { routine, .. } if !matches!(routine, Routine::Main) => Some(routine),
            _ => None,
        })?;
        let r = super::view::rule_ref(self.game, st, routine, Span::default());
        if r.rule.is_empty() {
            return None;
        }
        Some(match r.cite {
            Some(c) => format!("`{}` ({c})", r.rule),
            None => format!("`{}`", r.rule),
        })
    }

    /// The span of the statement being run, for errors raised outside a statement.
    pub fn current_span(&self, st: &State) -> Span {
        for f in st.frames.iter().rev() {
            if let FrameKind::Block { block, pc } = f.kind {
                let i = pc.saturating_sub(1) as usize;
                if let Some(s) = self.game.block(block).get(i) {
                    return s.span;
                }
            }
        }
        Span::default()
    }

    /// Where each running procedure was called from (the statement of the block below its
    /// frame), the nearest first. A trigger or an `always` block is called from no statement: it
    /// runs where the engine stops to run them, after the statement below it (which did not call
    /// it) is done.
    pub fn call_sites(&self, st: &State) -> Vec<Span> {
        let mut out = Vec::new();
        let mut at: Option<Span> = None;
        for f in &st.frames {
            match f.kind {
                FrameKind::Block { block, pc } => {
                    at = self.game.block(block).get(pc.saturating_sub(1) as usize).map(|s| s.span);
                }
                FrameKind::Call { routine: Routine::Trigger(_) | Routine::ObjTrigger(..) | Routine::Always(_), .. } => at = None,
                FrameKind::Call { routine, .. } if !matches!(routine, Routine::Main) => out.extend(at.take()),
                _ => {}
            }
        }
        out.reverse();
        // A recursion calls from one place many times: each place once, where first met.
        let mut seen = std::collections::HashSet::new();
        out.retain(|s| seen.insert((s.file, s.start, s.end)));
        out
    }

    /// The routine whose code is running (the nearest call frame).
    pub fn current_routine(&self, st: &State) -> Routine {
        for f in st.frames.iter().rev() {
            if let FrameKind::Call { routine, .. } = f.kind {
                return routine;
            }
        }
        if st.mode == Mode::Scenario { Routine::Scenario } else { Routine::Main }
    }
}
