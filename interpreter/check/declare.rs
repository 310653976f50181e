//! Declaring a game's names before any code is lowered: enums and kinds, zones, kinds' fields,
//! the built-in events, then every other item's name, so that code may refer to an item written
//! after it.

use super::{Checker, Ns, Placed, cite_ranges};
use arbiter_ir::value::Value;
use arbiter_ir::*;
use arbiter_syntax::ast::{self, Item, TypeKind};
use arbiter_syntax::diag::{Diag, did_you_mean};
use std::sync::Arc;

impl Checker {
    pub(super) fn declare_items(&mut self, items: &[Placed]) {
        // Enums and kind names first: field types refer to them.
        self.declare_types(items);
        self.declare_zones(items);
        self.declare_kind_fields(items);
        // Built-in events.
        let moved = self.add_event("moved", vec![("o".into(), Ty::Obj(None)), ("src".into(), Ty::Zone), ("dst".into(), Ty::Zone)]);
        let left = self.add_event("player_left", vec![("p".into(), Ty::Player)]);
        self.game.builtin_events = BuiltinEvents { moved, player_left: left };
        self.declare_names(items);
    }

    /// Every enum (with its members) and every kind's name.
    fn declare_types(&mut self, items: &[Placed]) {
        for pl in items {
            match &pl.item.node {
                Item::Enum(e) => {
                    if !self.declare(Ns::Type, &e.name) {
                        continue;
                    }
                    let id = self.game.enums.len() as u16;
                    let mut members = Vec::new();
                    for m in &e.members {
                        let s = self.intern(&m.node);
                        if let Some(other) = self.member_of.get(&s) {
                            let oname = self.game.enums.get(*other as usize).map(|x| x.name.clone()).unwrap_or_default();
                            self.error(
                                Diag::error(m.span, format!("`{}` is already a member of `{oname}`", m.node))
                                    .help("a name can belong to one enum only, so that it means one thing"),
                            );
                            continue;
                        }
                        Arc::make_mut(&mut self.member_of).insert(s, id);
                        members.push(s);
                    }
                    Arc::make_mut(&mut self.enum_by_name).insert(e.name.node.clone(), id);
                    self.game.enums.push(EnumDef { name: e.name.node.clone(), open: e.open, members });
                }
                Item::Kind(k) => {
                    if !self.declare(Ns::Type, &k.name) {
                        continue;
                    }
                    let id = self.game.kinds.len() as KindId;
                    Arc::make_mut(&mut self.kind_by_name).insert(k.name.node.clone(), id);
                    Arc::make_mut(&mut self.game.kinds).push(KindDef {
                        name: k.name.node.clone(),
                        fields: vec![],
                        field_index: SymMap::default(),
                        slots: k.slots.iter().map(|s| (s.name.node.clone(), s.many)).collect(),
                        active_in: vec![],
                        label: None,
                        label_slots: 0,
                    });
                }
                _ => {}
            }
        }
    }

    /// Every zone, with its visibility and the kind it holds.
    fn declare_zones(&mut self, items: &[Placed]) {
        for pl in items {
            if let Item::Zone(z) = &pl.item.node {
                if !self.declare(Ns::Zone, &z.name) {
                    continue;
                }
                let visibility = match z.visibility.as_ref().map(|v| v.node.as_str()) {
                    Some("owner") => Visibility::Owner,
                    Some("hidden") => Visibility::Hidden,
                    _ => Visibility::Public,
                };
                let holds = z.holds.as_ref().and_then(|h| match self.kind_by_name.get(&h.node) {
                    Some(k) => Some(*k),
                    None => {
                        let help = did_you_mean(&h.node, self.kind_by_name.keys().map(String::as_str));
                        self.error(Diag::error(h.span, format!("unknown kind `{}`", h.node)).maybe_help(help));
                        None
                    }
                });
                let id = self.game.zones.len() as ZoneId;
                Arc::make_mut(&mut self.zone_by_name).insert(z.name.node.clone(), id);
                // The zones before this one: those before the last, and the last.
                let before = self.game.zones.last().map_or((0, 0), |d| {
                    let (shared, per_player) = d.before;
                    if d.per_player { (shared, per_player + 1) } else { (shared + 1, per_player) }
                });
                self.game.zones.push(ZoneDef {
                    name: z.name.node.clone(),
                    per_player: z.per_player,
                    visibility,
                    ordered: z.ordered,
                    holds,
                    before,
                });
            }
        }
    }

    /// Each kind's fields (typed, with defaults) and the zones it is active in.
    fn declare_kind_fields(&mut self, items: &[Placed]) {
        for pl in items {
            if let Item::Kind(k) = &pl.item.node {
                let Some(&id) = self.kind_by_name.get(&k.name.node) else { continue };
                let mut fields = Vec::new();
                let mut index = SymMap::default();
                for f in &k.fields {
                    let ty = self.resolve_type(&f.ty);
                    let sym = self.intern(&f.name.node);
                    if index.contains_key(&sym) {
                        self.error(Diag::error(f.name.span, format!("field `{}` is declared twice", f.name.node)));
                        continue;
                    }
                    if ObjProp::ALL.iter().any(|(n, _)| *n == f.name.node) {
                        self.error(
                            Diag::error(
                                f.name.span,
                                format!("`{}` is a property every object has; a field cannot use that name", f.name.node),
                            )
                            .help("choose another name"),
                        );
                    }
                    let default = match &f.default {
                        Some(e) => self.const_value(e, &ty),
                        None => match &ty {
                            Ty::Int => Value::Int(0),
                            Ty::Bool => Value::Bool(false),
                            Ty::List(_) => Value::list(vec![]),
                            Ty::Text => Value::text(""),
                            _ => Value::None,
                        },
                    };
                    let optional = matches!(f.ty.kind, TypeKind::Named { optional: true, .. });
                    let required = f.default.is_none() && !optional;
                    index.insert(sym, fields.len());
                    fields.push(FieldDef { name: sym, ty, default, required, announced: f.announced, span: f.name.span });
                }
                let mut active = Vec::new();
                for z in &k.active_in {
                    match self.zone_by_name.get(&z.node) {
                        Some(&zid) => active.push(zid),
                        None => {
                            let help = did_you_mean(&z.node, self.zone_by_name.keys().map(String::as_str));
                            self.error(Diag::error(z.span, format!("unknown zone `{}`", z.node)).label("not declared").maybe_help(help));
                        }
                    }
                }
                if let Some(kd) = Arc::make_mut(&mut self.game.kinds).get_mut(id as usize) {
                    kd.fields = fields;
                    kd.field_index = index;
                    kd.active_in = active;
                }
            }
        }
    }

    /// The names of player and global fields, constants, sections, events, procedures, functions,
    /// checks and the rule items, each once.
    fn declare_names(&mut self, items: &[Placed]) {
        for pl in items {
            match &pl.item.node {
                Item::Player(decls) | Item::Global(decls) => {
                    let is_player = matches!(pl.item.node, Item::Player(_));
                    for d in decls {
                        if !self.declare(if is_player { Ns::Player } else { Ns::Global }, &d.name) {
                            continue;
                        }
                        let ty = self.resolve_type(&d.ty);
                        let v = VarDef { name: d.name.node.clone(), ty, default: None, announced: d.announced };
                        if is_player { self.game.player_fields.push(v) } else { self.game.global_fields.push(v) }
                    }
                }
                Item::Const(c) => {
                    if !self.declare(Ns::Value, &c.name) {
                        continue;
                    }
                    let ty = self.resolve_type(&c.ty);
                    let id = self.const_by_name.len() as u16;
                    Arc::make_mut(&mut self.const_by_name).insert(c.name.node.clone(), (id, ty));
                }
                Item::Section(s) => match cite_ranges(&s.cite.node) {
                    Some(ranges) => Arc::make_mut(&mut self.game.sections).push(Section {
                        title: s.title.node.clone(),
                        cite: s.cite.node.clone(),
                        ranges,
                    }),
                    None => self.error(
                        Diag::error(s.cite.span, format!("`{}` is not a citation of lines", s.cite.node))
                            .label("not lines")
                            .help("write the seed text's lines as `L365-392` or `L365-392, L486` (a letter, then line numbers)"),
                    ),
                },
                Item::Event(e) => {
                    if !self.declare(Ns::Event, &e.name) {
                        continue;
                    }
                    let params = self.params(&e.params);
                    self.add_event(&e.name.node, params);
                }
                Item::Proc(p) => {
                    if !self.declare(Ns::Proc, &p.name) {
                        continue;
                    }
                    let params = self.params(&p.params);
                    let id = self.proc_params.len() as ProcId;
                    Arc::make_mut(&mut self.proc_by_name).insert(p.name.node.clone(), id);
                    Arc::make_mut(&mut self.proc_params).push(params);
                }
                Item::Func(f) | Item::Hint(ast::HintItem { func: f, .. }) => {
                    let what = match &pl.item.node {
                        Item::Hint(h) if h.side => "side",
                        Item::Hint(_) => "hint",
                        _ => "function",
                    };
                    if !self.not_builtin(&f.name, what) || !self.declare(Ns::Func, &f.name) {
                        continue;
                    }
                    let params = self.params(&f.params);
                    let id = self.func_params.len() as FuncId;
                    Arc::make_mut(&mut self.func_by_name).insert(f.name.node.clone(), id);
                    Arc::make_mut(&mut self.func_params).push(params);
                    Arc::make_mut(&mut self.func_types).push(Ty::Any);
                }
                Item::Check(f) => {
                    if !self.not_builtin(&f.name, "check") || !self.declare(Ns::Func, &f.name) {
                        continue;
                    }
                    let params = self.params(&f.params);
                    let id = self.check_params.len() as CheckId;
                    Arc::make_mut(&mut self.check_by_name).insert(f.name.node.clone(), id);
                    Arc::make_mut(&mut self.check_params).push(params);
                }
                Item::Trigger(t) => {
                    self.declare(Ns::Trigger, &t.name);
                }
                Item::Modifier(m) => {
                    self.declare(Ns::Modifier, &m.name);
                }
                Item::Replace(r) => {
                    self.declare(Ns::Replace, &r.name);
                }
                Item::Always(a) => {
                    self.declare(Ns::Always, &a.name);
                }
                Item::Permit(h) | Item::Forbid(h) => {
                    let ns = if matches!(pl.item.node, Item::Permit(_)) { Ns::Permit } else { Ns::Forbid };
                    // Several permits may name the same check; they are told apart by position.
                    if self.declared_in(ns, &h.name.node).is_none() {
                        self.declare_first(ns, &h.name);
                    }
                }
                _ => {}
            }
        }
    }

    /// A function or check named as a built-in is refused where it is declared: calls of the
    /// built-in everywhere (the rulebook's own) would find it instead, with other arguments.
    fn not_builtin(&mut self, name: &ast::Name, what: &str) -> bool {
        if arbiter_ir::builtins::lookup(&name.node).is_none() {
            return true;
        }
        self.error(
            Diag::error(name.span, format!("`{}` is a built-in function: a {what} cannot have its name", name.node))
                .label("a built-in's name")
                .help(format!("name it otherwise, like `my_{}`; the rules' calls of `{}` mean the built-in", name.node, name.node)),
        );
        false
    }
}
