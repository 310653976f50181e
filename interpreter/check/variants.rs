//! Variants are overlays on named rule items: `replace`, `remove` and `add` whole items, `set` a
//! constant, and change a procedure's named steps. A variant may build on others (`extends`).
//! Naming an item, a step or a variant that does not exist is an error, for every variant,
//! whether it is switched on or not.

use super::steps::{self, Edit};
use super::{Checker, ItemRef, Placed, Role};
use arbiter_ir::{VariantChange, VariantInfo};
use arbiter_syntax::ast::{Item, StepHow, StepOp, VariantItem, VariantOp};
use arbiter_syntax::budgets::VARIANT_LIMIT;
use arbiter_syntax::diag::{Diag, did_you_mean};
use arbiter_syntax::span::{FileId, Span, Spanned};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::HashSet;

type Key = (&'static str, String);

fn key(item: &Item) -> Option<Key> {
    item.rule_name().map(|n| (item.kind_word(), n.node.clone()))
}

/// Whether `item` is the `kind` item named `name` (what `key` says, without making a key).
fn is_item(item: &Item, kind: &str, name: &str) -> bool {
    item.rule_name().is_some_and(|n| n.node == name) && item.kind_word() == kind
}

/// What variants may name, whether they are on or not.
struct Known<'a> {
    /// The base items' keys, and the items any variant adds.
    existing: Vec<Key>,
    added: Vec<Key>,
    /// Where each base item is (the first of a name: its span, and its place among the base's
    /// items), by kind and name; and the items variants add, by kind: each variant's changes look
    /// them up, in every compile.
    base_spans: FxHashMap<&'static str, FxHashMap<String, (Span, usize)>>,
    added_names: FxHashMap<&'static str, FxHashSet<String>>,
    /// Every version of each procedure (the base's, and each variant's `replace` or `add`), and
    /// the steps variants insert: (procedure, step name).
    proc_versions: Vec<(&'a str, &'a arbiter_syntax::ast::Block)>,
    inserted: Vec<(String, String)>,
}

impl Known<'_> {
    fn exists(&self, kind: &str, name: &str) -> bool {
        self.in_base(kind, name) || self.added_names.get(kind).is_some_and(|m| m.contains(name))
    }

    fn in_base(&self, kind: &str, name: &str) -> bool {
        self.base_span(kind, name).is_some()
    }

    /// Where the base's `kind` item `name` is written (the first, if declared twice).
    fn base_span(&self, kind: &str, name: &str) -> Option<Span> {
        self.base_spans.get(kind).and_then(|m| m.get(name)).map(|(span, _)| *span)
    }

    /// The base's `kind` item `name` (the first, if declared twice), among `base`: the items
    /// this was made from.
    fn base_item<'b, 'a>(&self, base: &'b [Placed<'a>], kind: &str, name: &str) -> Option<&'b Placed<'a>> {
        self.base_spans.get(kind).and_then(|m| m.get(name)).and_then(|(_, i)| base.get(*i))
    }

    /// The step names some version of `proc` has, or some variant inserts into it.
    fn steps_of(&self, proc: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (p, body) in &self.proc_versions {
            if *p == proc {
                for (n, _) in steps::steps_in(body) {
                    if !out.contains(&n.node) {
                        out.push(n.node);
                    }
                }
            }
        }
        for (p, s) in &self.inserted {
            if p == proc && !out.contains(s) {
                out.push(s.clone());
            }
        }
        out
    }
}

/// The parameters of an item the rules call: a procedure, function or check.
fn params_of(item: &Item) -> Option<&[arbiter_syntax::ast::Param]> {
    match item {
        Item::Proc(p) => Some(&p.params),
        Item::Func(f) | Item::Check(f) => Some(&f.params),
        _ => None,
    }
}

/// As many parameters: the rules' calls pass that many. (Their types are not compared: a wider
/// one, `object` for `square`, or `square?` for `square`, still takes every call; a narrower one
/// is told at the calls it no longer fits.)
fn same_params(a: &[arbiter_syntax::ast::Param], b: &[arbiter_syntax::ast::Param]) -> bool {
    a.len() == b.len()
}

/// `u: card, extra: int`, as written.
fn signature(params: &[arbiter_syntax::ast::Param]) -> String {
    fn ty(t: &arbiter_syntax::ast::TypeExpr) -> String {
        match &t.kind {
            arbiter_syntax::ast::TypeKind::Named { name, optional } => format!("{name}{}", if *optional { "?" } else { "" }),
            arbiter_syntax::ast::TypeKind::List(x) => format!("list {}", ty(x)),
        }
    }
    params
        .iter()
        .map(|p| p.ty.as_ref().map_or_else(|| p.name.node.clone(), |t| format!("{}: {}", p.name.node, ty(t))))
        .collect::<Vec<_>>()
        .join(", ")
}

fn proc_body(item: &Item) -> Option<(&str, &arbiter_syntax::ast::Block)> {
    match item {
        Item::Proc(p) => Some((p.name.node.as_str(), &p.body)),
        _ => None,
    }
}

/// The rule items with the selected variants (and those they extend) applied, in order.
pub fn apply<'a>(c: &mut Checker, placed: &[Placed<'a>], selected: &[String]) -> Vec<Placed<'a>> {
    // Files that are `part of variant X`: their items are X's, not the base's.
    let part_of = files_part_of(c, placed);
    let variant_of = |p: &Placed| part_of.iter().find(|(f, _)| *f == p.item.span.file).map(|(_, n)| n.node.clone());
    let not_rules = |p: &Placed| {
        matches!(p.item.node, Item::Variant(_) | Item::Scenario(_) | Item::Game(_) | Item::For(_) | Item::Uses(_) | Item::PartOf(_))
    };
    let parts: Vec<(String, Placed<'a>)> =
        placed.iter().filter(|p| !not_rules(p)).filter_map(|p| variant_of(p).map(|v| (v, p.clone()))).collect();
    let mut base: Vec<Placed<'a>> = placed.iter().filter(|p| !not_rules(p) && variant_of(p).is_none()).cloned().collect();
    let mut variants: Vec<(&'a VariantItem, Span)> = placed
        .iter()
        .filter_map(|p| match &p.item {
            ItemRef::Written(Spanned { node: Item::Variant(v), span }) => Some((v, *span)),
            _ => None,
        })
        .collect();
    // The variants past the limit: not declared, and switching one on says why.
    let mut past_limit: Vec<&str> = Vec::new();
    if let Some((extra, _)) = variants.get(VARIANT_LIMIT) {
        c.error(
            Diag::error(extra.name.span, format!("this game has more than {VARIANT_LIMIT} variants"))
                .label("one too many")
                .help("each variant is checked on its own with the whole game, so a game may have only so many: remove some, or join variants always played together into one"),
        );
        past_limit = variants.split_off(VARIANT_LIMIT).into_iter().map(|(v, _)| v.name.node.as_str()).collect();
    }
    // A variant's items are checked as the file it is written in: a rulebook's variants cite the
    // rulebook; a house rule in a user's own file need not.
    let role_of = |v: &VariantItem| {
        let role = placed.iter().find(|p| p.item.span.file == v.name.span.file).map_or(Role::Variant, |p| p.role);
        if matches!(role, Role::Rulebook | Role::Stdlib) { Role::Variant } else { role }
    };
    for (_, n) in &part_of {
        if !variants.iter().any(|(v, _)| v.name.node == n.node) {
            let help = did_you_mean(&n.node, variants.iter().map(|(v, _)| v.name.node.as_str()))
                .unwrap_or_else(|| "declare it with `variant NAME \"title\" { }` in a file of its own".to_string());
            c.error(
                Diag::error(n.span, format!("this file is part of variant `{}`, which does not exist", n.node))
                    .label("no such variant")
                    .help(help),
            );
        }
    }
    let known = known_items(placed, &base, &parts, &variants);
    check_step_names(c, &base);
    let mut declared = HashSet::new();
    for (v, span) in &variants {
        if !declared.insert(v.name.node.as_str()) {
            let mut d = Diag::error(v.name.span, format!("variant `{}` is declared twice", v.name.node)).label("second declaration");
            if let Some((first, _)) = variants.iter().find(|(w, _)| w.name.node == v.name.node) {
                let at = c.game.location(first.name.span);
                d = d
                    .help(format!("the first is at {at}: name yours otherwise (a house rule may not take a variant's name)"))
                    .related(first.name.span, "first declaration");
            }
            c.error(d);
            continue;
        }
        declare_variant(c, &known, &base, &parts, &variants, v, *span);
    }
    // Which variant switched on last changed each item: a later one that replaces, removes or
    // sets it loses that change, unless it builds on that variant (`extends`).
    let mut changed_by: FxHashMap<(String, String), &str> = FxHashMap::default();
    for v in order(c, &variants, &past_limit, placed, selected) {
        for op in &v.ops {
            lost_change(c, &variants, &mut changed_by, v, op);
        }
        c.game.active_variants.push(v.name.node.clone());
        // The items of its files first, so that its own changes can name them.
        base.extend(parts.iter().filter(|(w, _)| *w == v.name.node).map(|(_, p)| Placed {
            item: p.item.clone(),
            role: if matches!(p.role, Role::Rulebook | Role::Stdlib) { Role::Variant } else { p.role },
        }));
        let role = role_of(v);
        for op in &v.ops {
            switch_on(c, &known, &mut base, v, op, role);
        }
    }
    base
}

/// The files that are `part of variant X`, each with the name it gives (one such line a file).
fn files_part_of(c: &mut Checker, placed: &[Placed]) -> Vec<(FileId, arbiter_syntax::ast::Name)> {
    let mut part_of: Vec<(FileId, arbiter_syntax::ast::Name)> = Vec::new();
    for p in placed {
        if let Item::PartOf(n) = &p.item.node {
            if let Some((_, first)) = part_of.iter().find(|(f, _)| *f == p.item.span.file) {
                let at = c.game.location(first.span);
                c.error(
                    Diag::error(n.span, "a second `part of variant` line in one file")
                        .help(format!("the first is at {at}; a file belongs to one variant")),
                );
                continue;
            }
            part_of.push((p.item.span.file, n.clone()));
        }
    }
    part_of
}

/// What the base and every variant name: the base's items, the items variants add (in files of
/// their own or with `add`), every version of each procedure and the steps variants insert.
fn known_items<'a>(
    placed: &[Placed<'a>],
    base: &[Placed<'a>],
    parts: &[(String, Placed<'a>)],
    variants: &[(&'a VariantItem, Span)],
) -> Known<'a> {
    let mut known = Known {
        existing: base.iter().filter_map(|p| key(&p.item.node)).collect(),
        added: Vec::new(),
        base_spans: FxHashMap::default(),
        added_names: FxHashMap::default(),
        proc_versions: Vec::new(),
        inserted: Vec::new(),
    };
    for (i, p) in base.iter().enumerate() {
        if let Some(n) = p.item.node.rule_name() {
            known.base_spans.entry(p.item.node.kind_word()).or_default().entry(n.node.clone()).or_insert((p.item.span, i));
        }
    }
    for p in placed {
        if let ItemRef::Written(Spanned { node: item, .. }) = &p.item
            && let Some(v) = proc_body(item)
        {
            known.proc_versions.push(v);
        }
    }
    for (_, p) in parts {
        if let Some(k) = key(&p.item.node) {
            known.added.push(k);
        }
    }
    for (v, _) in variants {
        for op in &v.ops {
            match &op.node {
                VariantOp::Add(item) | VariantOp::Replace(item) => {
                    if matches!(op.node, VariantOp::Add(_))
                        && let Some(k) = key(&item.node)
                    {
                        known.added.push(k);
                    }
                    if let Some(pv) = proc_body(&item.node) {
                        known.proc_versions.push(pv);
                    }
                }
                VariantOp::Step(s) => {
                    if let StepHow::Insert { .. } = s.how {
                        known.inserted.push((s.proc.node.clone(), s.step.node.clone()));
                    }
                }
                _ => {}
            }
        }
    }
    for (k, n) in &known.added {
        known.added_names.entry(*k).or_default().insert(n.clone());
    }
    known
}

/// Declare variant `v` (written at `span`): its name once, the variants it extends, the changes
/// it makes, and where it comes from.
fn declare_variant(
    c: &mut Checker,
    known: &Known,
    base: &[Placed],
    parts: &[(String, Placed)],
    variants: &[(&VariantItem, Span)],
    v: &VariantItem,
    span: Span,
) {
    for parent in &v.extends {
        if !variants.iter().any(|(w, _)| w.name.node == parent.node) {
            let help = did_you_mean(&parent.node, variants.iter().map(|(w, _)| w.name.node.as_str()));
            c.error(
                Diag::error(parent.span, format!("variant `{}` extends `{}`, which does not exist", v.name.node, parent.node))
                    .label("no such variant")
                    .maybe_help(help),
            );
        }
    }
    let mut changes: Vec<VariantChange> = parts
        .iter()
        .filter(|(w, _)| *w == v.name.node)
        .filter_map(|(_, p)| {
            let (kind, name) = key(&p.item.node)?;
            Some(VariantChange { verb: "adds", kind: kind.to_string(), name, before: None, after: Some(p.item.span) })
        })
        .collect();
    changes.extend(v.ops.iter().filter_map(|op| describe(c, known, base, op)));
    // Without a word for where it comes from: an option in a rulebook's folder, a house rule
    // in a player's own file.
    let group = v.group.clone().unwrap_or_else(|| {
        let file = c.game.files.iter().find(|f| f.id == span.file).map(|f| f.name.replace('\\', "/"));
        let in_rulebook = file.is_none_or(|n| n.starts_with("rulebooks/") || n.contains("/rulebooks/"));
        if in_rulebook { "option" } else { "house" }.to_string()
    });
    std::sync::Arc::make_mut(&mut c.game.variants).push(VariantInfo {
        name: v.name.node.clone(),
        title: v.title.node.clone(),
        extends: v.extends.iter().map(|n| n.node.clone()).collect(),
        group,
        cite: v.cite.as_ref().map(|x| x.node.clone()),
        changes,
        span,
    });
}

/// A step name used twice in one procedure: variants could not tell them apart.
fn check_step_names(c: &mut Checker, items: &[Placed]) {
    for p in items {
        let Item::Proc(pr) = &p.item.node else { continue };
        let all = steps::steps_in(&pr.body);
        for (i, (n, _)) in all.iter().enumerate() {
            if let Some((_, first)) = all.iter().take(i).find(|(m, _)| m.node == n.node) {
                let at = c.game.location(*first);
                c.error(
                    Diag::error(n.span, format!("`{}` has two steps named `{}`", pr.name.node, n.node))
                        .label("a second step of this name")
                        .help(format!("the first is at {at}; a variant names a step by its name, so each must be different")),
                );
            }
        }
    }
}

/// The selected variants in the order they are switched on: each after the variants it extends,
/// each once. An unknown one is reported (at a scenario's `variant` line when one asks for it).
fn order<'a>(
    c: &mut Checker,
    variants: &[(&'a VariantItem, Span)],
    past_limit: &[&str],
    placed: &[Placed],
    selected: &[String],
) -> Vec<&'a VariantItem> {
    let mut asked_at: Vec<(String, Span)> = Vec::new();
    for p in placed {
        if let Item::Scenario(s) = &p.item.node {
            for prop in s.props.iter().filter(|x| x.key.node == "variant") {
                for v in &prop.values {
                    if let arbiter_syntax::ast::PropValue::Word(w) | arbiter_syntax::ast::PropValue::Str(w) = &v.node {
                        asked_at.push((w.clone(), v.span));
                    }
                }
            }
        }
    }
    let mut out: Vec<&'a VariantItem> = Vec::new();
    for sel in selected {
        let Some((v, _)) = variants.iter().find(|(v, _)| v.name.node == *sel) else {
            let span = asked_at.iter().find(|(w, _)| w == sel).map(|(_, s)| *s).unwrap_or(Span::NONE);
            if past_limit.contains(&sel.as_str()) {
                c.error(
                    Diag::error(span, format!("variant `{sel}` is past the {VARIANT_LIMIT} variants a game may have"))
                        .label("not declared"),
                );
                continue;
            }
            let help = did_you_mean(sel, variants.iter().map(|(v, _)| v.name.node.as_str())).or_else(|| {
                Some(format!(
                    "this game's variants: {}; a variant in a file of your own is loaded with `--rules FILE`",
                    variants.iter().map(|(v, _)| v.name.node.as_str()).collect::<Vec<_>>().join(", ")
                ))
            });
            c.error(Diag::error(span, format!("unknown variant `{sel}`")).label("no such variant").maybe_help(help));
            continue;
        };
        let mut path = Vec::new();
        with_parents(c, variants, v, &mut path, &mut out);
    }
    out
}

/// `v` after the variants it extends (depth first, each once); a cycle is an error.
fn with_parents<'a>(
    c: &mut Checker,
    variants: &[(&'a VariantItem, Span)],
    v: &'a VariantItem,
    path: &mut Vec<String>,
    out: &mut Vec<&'a VariantItem>,
) {
    if out.iter().any(|w| w.name.node == v.name.node) {
        return;
    }
    if path.contains(&v.name.node) {
        c.error(
            Diag::error(v.name.span, format!("variant `{}` extends itself, through {}", v.name.node, path.join(" → ")))
                .label("a cycle")
                .help("a variant builds on others; none can build on itself"),
        );
        return;
    }
    path.push(v.name.node.clone());
    for parent in &v.extends {
        if let Some((p, _)) = variants.iter().find(|(w, _)| w.name.node == parent.node) {
            with_parents(c, variants, p, path, out);
        }
    }
    path.pop();
    out.push(v);
}

/// One change a variant makes, checked against what exists (on or off), for `variants --show`.
fn describe(c: &mut Checker, known: &Known, base: &[Placed], op: &Spanned<VariantOp>) -> Option<VariantChange> {
    let base_span = |kind: &str, name: &str| known.base_span(kind, name);
    match &op.node {
        VariantOp::Replace(item) | VariantOp::Add(item) => {
            let is_replace = matches!(op.node, VariantOp::Replace(_));
            let Some((kind, name)) = key(&item.node) else {
                c.error(Diag::error(item.span, format!("a `{}` item has no name a variant can refer to", item.node.kind_word())));
                return None;
            };
            let in_base = known.in_base(kind, &name);
            let exists = in_base || (is_replace && known.added_names.get(kind).is_some_and(|m| m.contains(&name)));
            let nspan = item.node.rule_name().map(|n| n.span).unwrap_or(item.span);
            if is_replace && !exists {
                c.error(
                    Diag::error(nspan, format!("variant replaces {kind} `{name}`, which does not exist"))
                        .label("no such item")
                        .maybe_help(missing_help(known, kind, &name, "use `add` to introduce a new")),
                );
            } else if !is_replace && in_base {
                c.error(
                    Diag::error(nspan, format!("variant adds {kind} `{name}`, which already exists"))
                        .label("already declared")
                        .help("use `replace` to change an existing item"),
                );
            } else if is_replace
                && let Some(was) = known.base_item(base, kind, &name)
                && let (Some(old), Some(new)) = (params_of(&was.item.node), params_of(&item.node))
                && !same_params(old, new)
            {
                // Said here, at the variant: the rules' calls would otherwise be blamed, in the
                // rules' own files.
                c.error(
                    Diag::error(nspan, format!("variant replaces {kind} `{name}` with another number of parameters than the rules'"))
                        .label("other parameters")
                        .help(format!(
                            "a replacement keeps the parameters the rules call it with: `{name}({})`; to take more, `add` a new {kind} and replace its callers",
                            signature(old)
                        )),
                );
            }
            Some(VariantChange {
                verb: if is_replace { "replaces" } else { "adds" },
                kind: kind.to_string(),
                before: if is_replace { base_span(kind, &name) } else { None },
                name,
                after: Some(item.span),
            })
        }
        VariantOp::Remove { kind, name } => {
            if !known.exists(&kind.node, &name.node) {
                let cands: Vec<&str> = known.existing.iter().filter(|(k, _)| *k == kind.node).map(|(_, n)| n.as_str()).collect();
                let other_kind = known.existing.iter().find(|(_, n)| *n == name.node).map(|(k, _)| *k);
                let help = match other_kind {
                    Some(k) => Some(format!("`{}` is a {k}: write `remove {k} {}`", name.node, name.node)),
                    None => did_you_mean(&name.node, cands.iter().copied()),
                };
                c.error(
                    Diag::error(name.span, format!("variant removes {} `{}`, which does not exist", kind.node, name.node))
                        .label("no such item")
                        .maybe_help(help),
                );
            }
            Some(VariantChange {
                verb: "removes",
                kind: kind.node.clone(),
                name: name.node.clone(),
                before: base_span(&kind.node, &name.node),
                after: None,
            })
        }
        VariantOp::Set { name, .. } => {
            if !known.exists("const", &name.node) {
                // A field of `global` or `player`: not an item, so not in `known`.
                let field_of = base.iter().find_map(|p| match &p.item.node {
                    Item::Global(decls) if decls.iter().any(|d| d.name.node == name.node) => Some("global"),
                    Item::Player(decls) if decls.iter().any(|d| d.name.node == name.node) => Some("player"),
                    _ => None,
                });
                let help = match field_of {
                    Some(block) => Some(format!(
                        "`{}` is a field of `{block}`, not a constant: `set` changes a `const`; to start it at another value, a variant changes a step of the game's setup (`insert step .. in ..` or `replace step .. in ..`) to assign it",
                        name.node
                    )),
                    None => missing_help(known, "const", &name.node, "`set` changes a `const`; use `add` to introduce a new"),
                };
                c.error(
                    Diag::error(name.span, format!("variant sets const `{}`, which does not exist", name.node))
                        .label("no such constant")
                        .maybe_help(help),
                );
            }
            Some(VariantChange {
                verb: "sets",
                kind: "const".into(),
                name: name.node.clone(),
                before: base_span("const", &name.node),
                after: Some(op.span),
            })
        }
        VariantOp::Step(s) => Some(describe_step(c, known, base, s)),
    }
}

/// Help for an item a variant names that does not exist: it is another kind of item, a likely
/// typo, or the way to introduce it.
fn missing_help(known: &Known, kind: &str, name: &str, introduce: &str) -> Option<String> {
    let cands: Vec<&str> = known.existing.iter().chain(&known.added).filter(|(k, _)| *k == kind).map(|(_, n)| n.as_str()).collect();
    let other_kind = known.existing.iter().find(|(_, n)| n == name).map(|(k, _)| *k);
    other_kind
        .map(|k| format!("`{name}` is a {k}; a variant changes an item as the kind it is"))
        .or_else(|| did_you_mean(name, cands.iter().copied()))
        .or_else(|| Some(format!("{introduce} {kind}")))
}

fn describe_step(c: &mut Checker, known: &Known, base: &[Placed], s: &StepOp) -> VariantChange {
    let proc = s.proc.node.as_str();
    let (verb, name) = match &s.how {
        StepHow::Replace => ("replaces", format!("{} in {proc}", s.step.node)),
        StepHow::Remove => ("removes", format!("{} in {proc}", s.step.node)),
        StepHow::Insert { before, anchor } => {
            ("inserts", format!("{} {} {} in {proc}", s.step.node, if *before { "before" } else { "after" }, anchor.node))
        }
    };
    let base_step = |step: &str| {
        base.iter().find_map(|p| match &p.item.node {
            Item::Proc(pr) if pr.name.node == proc => steps::steps_in(&pr.body).into_iter().find(|(n, _)| n.node == step).map(|(_, sp)| sp),
            _ => None,
        })
    };
    let change = |before| VariantChange { verb, kind: "step".into(), name: name.clone(), before, after: s.body.as_ref().map(|b| b.span) };
    if !known.exists("proc", proc) {
        c.error(
            Diag::error(s.proc.span, format!("variant changes a step of proc `{proc}`, which does not exist"))
                .label("no such procedure")
                .maybe_help(missing_help(known, "proc", proc, "steps belong to a")),
        );
        return change(None);
    }
    let have = known.steps_of(proc);
    let named = match &s.how {
        StepHow::Insert { anchor, .. } => {
            if have.contains(&s.step.node) && base_step(&s.step.node).is_some() {
                c.error(
                    Diag::error(s.step.span, format!("proc `{proc}` already has a step `{}`", s.step.node))
                        .label("already a step")
                        .help("give the new step a name of its own, or `replace step` to change that one"),
                );
            }
            anchor
        }
        _ => &s.step,
    };
    if !have.contains(&named.node) {
        // The steps to suggest: those written, and those other changes insert.
        let others: Vec<&String> = have.iter().filter(|n| **n != s.step.node || !matches!(s.how, StepHow::Insert { .. })).collect();
        let help = if others.is_empty() {
            format!("`{proc}` has no named steps; a rulebook names one with `step NAME {{ .. }}`")
        } else {
            did_you_mean(&named.node, others.iter().map(|n| n.as_str()))
                .unwrap_or_else(|| format!("its steps: {}", others.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(", ")))
        };
        c.error(Diag::error(named.span, format!("proc `{proc}` has no step `{}`", named.node)).label("no such step").help(help));
    }
    let before = match &s.how {
        StepHow::Insert { .. } => None,
        _ => base_step(&s.step.node),
    };
    change(before)
}

/// A change of variant `v` to an item an earlier variant switched on changed (`changed_by`):
/// replacing, removing or setting it drops that change, which is said (a warning, which `play` and
/// `sim` print too: some rulebooks combine two readings so, "the one named later applies") unless
/// `v` builds on that variant. A step changed twice keeps both changes (or fails by name);
/// an item added or changed by one variant and changed by the next is the next's to keep.
fn lost_change<'a>(
    c: &mut Checker,
    variants: &[(&'a VariantItem, Span)],
    changed_by: &mut FxHashMap<(String, String), &'a str>,
    v: &'a VariantItem,
    op: &Spanned<VariantOp>,
) {
    let (key, drops, span): ((String, String), bool, Span) = match &op.node {
        VariantOp::Replace(item) => match item.node.rule_name() {
            Some(n) => ((item.node.kind_word().to_string(), n.node.clone()), true, n.span),
            None => return,
        },
        VariantOp::Remove { kind, name } => ((kind.node.clone(), name.node.clone()), true, name.span),
        VariantOp::Set { name, .. } => (("const".to_string(), name.node.clone()), true, name.span),
        VariantOp::Step(s) => (("proc".to_string(), s.proc.node.clone()), false, s.proc.span),
        // What a variant adds, another replacing would drop too.
        VariantOp::Add(item) => match item.node.rule_name() {
            Some(n) => ((item.node.kind_word().to_string(), n.node.clone()), false, n.span),
            None => return,
        },
    };
    if drops
        && let Some(&before) = changed_by.get(&key)
        && before != v.name.node
        && !builds_on(variants, v, before, 0)
    {
        let (kind, name) = &key;
        c.error(
            Diag::warning(
                span,
                format!("`{}` changes {kind} `{name}`, which `{before}` changed before it: `{before}`'s change is lost", v.name.node),
            )
            .label(format!("this drops what `{before}` changed"))
            .help(format!(
                "switch on one of them, or let `{}` build on `{before}` (`extends {before}`) and keep `{before}`'s change in its own",
                v.name.node
            )),
        );
    }
    changed_by.insert(key, v.name.node.as_str());
}

/// Whether variant `v` extends `other`, directly or through the variants it extends.
fn builds_on(variants: &[(&VariantItem, Span)], v: &VariantItem, other: &str, depth: usize) -> bool {
    depth < 64
        && v.extends.iter().any(|p| {
            p.node == other
                || variants.iter().find(|(w, _)| w.name.node == p.node).is_some_and(|(w, _)| builds_on(variants, w, other, depth + 1))
        })
}

/// Apply one change of a variant being switched on to the items as the variants before it left
/// them.
fn switch_on<'a>(c: &mut Checker, known: &Known, base: &mut Vec<Placed<'a>>, v: &'a VariantItem, op: &'a Spanned<VariantOp>, role: Role) {
    let position = |base: &[Placed], kind: &str, name: &str| base.iter().position(|p| is_item(&p.item.node, kind, name));
    // An item another variant adds, changed by one that does not extend it.
    let not_added = |c: &mut Checker, kind: &str, name: &arbiter_syntax::ast::Name| {
        if known.added.iter().any(|(k, n)| *k == kind && *n == name.node)
            && !known.existing.iter().any(|(k, n)| *k == kind && *n == name.node)
        {
            c.error(
                Diag::error(name.span, format!("with the variants before `{}`, there is no {kind} `{}`", v.name.node, name.node))
                    .label("added by another variant")
                    .help("a variant that changes what another variant adds must `extends` it, so that it comes after it"),
            );
        }
    };
    match &op.node {
        VariantOp::Replace(item) => {
            if let Some((k, n)) = key(&item.node) {
                match position(base, k, &n).and_then(|i| base.get_mut(i)) {
                    Some(slot) => *slot = Placed { item: ItemRef::Written(item), role },
                    None => {
                        if let Some(name) = item.node.rule_name() {
                            not_added(c, k, name);
                        }
                    }
                }
            }
        }
        VariantOp::Remove { kind, name } => {
            base.retain(|p| !is_item(&p.item.node, &kind.node, &name.node));
        }
        VariantOp::Add(item) => base.push(Placed { item: ItemRef::Written(item), role }),
        VariantOp::Set { name, value, cite } => {
            let Some(slot) = position(base, "const", &name.node).and_then(|i| base.get_mut(i)) else {
                not_added(c, "const", name);
                return;
            };
            let mut item = Spanned::clone(&slot.item);
            if let Item::Const(k) = &mut item.node {
                k.value = value.clone();
                if cite.is_some() {
                    k.cite = cite.clone();
                }
            }
            item.span = op.span;
            *slot = Placed { item: ItemRef::Changed(std::sync::Arc::new(item)), role };
        }
        VariantOp::Step(s) => {
            let Some(slot) = position(base, "proc", &s.proc.node).and_then(|i| base.get_mut(i)) else {
                not_added(c, "proc", &s.proc);
                return;
            };
            let mut item = Spanned::clone(&slot.item);
            let edit = match (&s.how, &s.body) {
                (StepHow::Remove, _) => Edit::Remove,
                (StepHow::Replace, Some(body)) => Edit::Replace { body, cite: s.cite.as_ref() },
                (StepHow::Insert { before, .. }, Some(body)) => {
                    Edit::Insert { name: &s.step, before: *before, body, cite: s.cite.as_ref() }
                }
                _ => return,
            };
            let target = match &s.how {
                StepHow::Insert { anchor, .. } => anchor,
                _ => &s.step,
            };
            let done = match &mut item.node {
                Item::Proc(p) => steps::edit(&mut p.body, &target.node, &edit),
                _ => false,
            };
            if done {
                *slot = Placed { item: ItemRef::Changed(std::sync::Arc::new(item)), role };
            } else if known.steps_of(&s.proc.node).contains(&target.node) {
                // (A step no version has is reported when the variant is checked on its own.)
                c.error(
                    Diag::error(
                        target.span,
                        format!("with the variants before `{}`, proc `{}` has no step `{}`", v.name.node, s.proc.node, target.node),
                    )
                    .label("not there when this variant is applied")
                    .help("a variant that changes steps another variant adds or replaces must `extends` it, so that it comes after it"),
                );
            }
        }
    }
}
