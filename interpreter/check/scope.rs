//! Local scopes while lowering a body: names to slots and static types.

use arbiter_ir::{Slot, Ty};

#[derive(Debug, Default)]
pub struct Scope {
    vars: Vec<(String, Slot, Ty)>,
    marks: Vec<usize>,
    next: u16,
    pub max: u16,
}

impl Scope {
    pub fn new() -> Self {
        Scope::default()
    }

    /// Declare a new local (shadowing any earlier one of that name).
    pub fn declare(&mut self, name: &str, ty: Ty) -> Slot {
        let slot = self.next;
        self.next = self.next.saturating_add(1);
        self.max = self.max.max(self.next);
        self.vars.push((name.to_string(), slot, ty));
        slot
    }

    /// A slot of its own, with no name: for a value the compiled code keeps (an inlined call's
    /// argument, see `check::inline`).
    pub fn temp(&mut self) -> Slot {
        let slot = self.next;
        self.next = self.next.saturating_add(1);
        self.max = self.max.max(self.next);
        slot
    }

    pub fn lookup(&self, name: &str) -> Option<(Slot, &Ty)> {
        self.vars.iter().rev().find(|(n, _, _)| n == name).map(|(_, s, t)| (*s, t))
    }

    pub fn set_type(&mut self, slot: Slot, ty: Ty) {
        if let Some(v) = self.vars.iter_mut().rev().find(|(_, s, _)| *s == slot) {
            v.2 = ty;
        }
    }

    pub fn names(&self) -> Vec<&str> {
        self.vars.iter().map(|(n, _, _)| n.as_str()).collect()
    }

    /// Start a nested block: names declared inside disappear at `pop`, slots are not reused.
    pub fn push(&mut self) {
        self.marks.push(self.vars.len());
    }

    pub fn pop(&mut self) {
        if let Some(m) = self.marks.pop() {
            self.vars.truncate(m);
        }
    }
}
