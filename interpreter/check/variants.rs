//! Variants are overlays on named rule items: `replace`, `remove` and `add`. Naming an item that
//! does not exist is an error, for every variant, whether it is switched on or not.

use super::ir::{VariantChange, VariantInfo};
use super::{Checker, Placed, Role};
use crate::diag::{Diag, did_you_mean};
use crate::syntax::ast::{Item, VariantOp};
use crate::syntax::span::Span;

fn key(item: &Item) -> Option<(&'static str, String)> {
    item.rule_name().map(|n| (item.kind_word(), n.node.clone()))
}

/// The rule items with the selected variants applied, in order.
pub fn apply<'a>(c: &mut Checker, placed: &[Placed<'a>], selected: &[String]) -> Vec<Placed<'a>> {
    let mut base: Vec<Placed<'a>> = placed
        .iter()
        .filter(|p| !matches!(p.item.node, Item::Variant(_) | Item::Scenario(_) | Item::Game(_) | Item::For(_)))
        .cloned()
        .collect();
    // What a variant may name: the base items, and items any variant adds.
    let existing: Vec<(&'static str, String)> = base.iter().filter_map(|p| key(&p.item.node)).collect();
    let base_span =
        |kind: &str, name: &str| base.iter().find(|p| key(&p.item.node).is_some_and(|(k, n)| k == kind && n == name)).map(|p| p.item.span);
    let added: Vec<(&'static str, String)> = placed
        .iter()
        .filter_map(|p| if let Item::Variant(v) = &p.item.node { Some(v) } else { None })
        .flat_map(|v| v.ops.iter())
        .filter_map(|op| if let VariantOp::Add(item) = &op.node { key(&item.node) } else { None })
        .collect();
    let variants: Vec<(&'a crate::syntax::ast::VariantItem, Span)> =
        placed.iter().filter_map(|p| if let Item::Variant(v) = &p.item.node { Some((v, p.item.span)) } else { None }).collect();
    for (v, span) in &variants {
        if c.game.variants.iter().any(|x| x.name == v.name.node) {
            c.error(Diag::error(v.name.span, format!("variant `{}` is declared twice", v.name.node)));
            continue;
        }
        let mut changes = Vec::new();
        for op in &v.ops {
            match &op.node {
                VariantOp::Replace(item) | VariantOp::Add(item) => {
                    let is_replace = matches!(op.node, VariantOp::Replace(_));
                    let Some((kind, name)) = key(&item.node) else {
                        c.error(Diag::error(item.span, format!("a `{}` item has no name a variant can refer to", item.node.kind_word())));
                        continue;
                    };
                    let exists =
                        existing.iter().any(|(k, n)| *k == kind && *n == name) || (is_replace && added.contains(&(kind, name.clone())));
                    if is_replace && !exists {
                        let cands: Vec<&str> = existing.iter().filter(|(k, _)| *k == kind).map(|(_, n)| n.as_str()).collect();
                        let other_kind = existing.iter().find(|(_, n)| *n == name).map(|(k, _)| *k);
                        let help = other_kind
                            .map(|k| format!("`{name}` is a {k}; a replacement must be the same kind of item"))
                            .or_else(|| did_you_mean(&name, cands.iter().copied()))
                            .or_else(|| Some(format!("use `add` to introduce a new {kind}; `replace` needs an existing one")));
                        let nspan = item.node.rule_name().map(|n| n.span).unwrap_or(item.span);
                        c.error(
                            Diag::error(nspan, format!("variant replaces {kind} `{name}`, which does not exist"))
                                .label("no such item")
                                .maybe_help(help),
                        );
                    } else if !is_replace && exists {
                        let nspan = item.node.rule_name().map(|n| n.span).unwrap_or(item.span);
                        c.error(
                            Diag::error(nspan, format!("variant adds {kind} `{name}`, which already exists"))
                                .label("already declared")
                                .help("use `replace` to change an existing item"),
                        );
                    }
                    changes.push(VariantChange {
                        verb: if is_replace { "replaces" } else { "adds" },
                        kind: kind.to_string(),
                        before: if is_replace { base_span(kind, &name) } else { None },
                        name,
                        after: Some(item.span),
                    });
                }
                VariantOp::Remove { kind, name } => {
                    let exists = existing.iter().chain(added.iter()).any(|(k, n)| *k == kind.node && *n == name.node);
                    if !exists {
                        let cands: Vec<&str> = existing.iter().filter(|(k, _)| *k == kind.node).map(|(_, n)| n.as_str()).collect();
                        let other_kind = existing.iter().find(|(_, n)| *n == name.node).map(|(k, _)| *k);
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
                    changes.push(VariantChange {
                        verb: "removes",
                        kind: kind.node.clone(),
                        name: name.node.clone(),
                        before: base_span(&kind.node, &name.node),
                        after: None,
                    });
                }
            }
        }
        c.game.variants.push(VariantInfo {
            name: v.name.node.clone(),
            title: v.title.node.clone(),
            cite: v.cite.as_ref().map(|x| x.node.clone()),
            changes,
            span: *span,
        });
    }
    // A scenario's `variant` line is where an unknown variant is reported, when there is one.
    let mut asked_at: Vec<(String, Span)> = Vec::new();
    for p in placed {
        if let Item::Scenario(s) = &p.item.node {
            for prop in s.props.iter().filter(|x| x.key.node == "variant") {
                for v in &prop.values {
                    if let crate::syntax::ast::PropValue::Word(w) | crate::syntax::ast::PropValue::Str(w) = &v.node {
                        asked_at.push((w.clone(), v.span));
                    }
                }
            }
        }
    }
    for sel in selected {
        let Some((v, _)) = variants.iter().find(|(v, _)| v.name.node == *sel) else {
            let span = asked_at.iter().find(|(w, _)| w == sel).map(|(_, s)| *s).unwrap_or(Span::NONE);
            let help = did_you_mean(sel, variants.iter().map(|(v, _)| v.name.node.as_str())).or_else(|| {
                Some(format!("this game's variants: {}", variants.iter().map(|(v, _)| v.name.node.as_str()).collect::<Vec<_>>().join(", ")))
            });
            c.error(Diag::error(span, format!("unknown variant `{sel}`")).label("no such variant").maybe_help(help));
            continue;
        };
        c.game.active_variants.push(sel.clone());
        for op in &v.ops {
            match &op.node {
                VariantOp::Replace(item) => {
                    if let Some(k) = key(&item.node)
                        && let Some(pos) = base.iter().position(|p| key(&p.item.node).as_ref() == Some(&k))
                        && let Some(slot) = base.get_mut(pos)
                    {
                        *slot = Placed { item, role: Role::Variant };
                    }
                }
                VariantOp::Remove { kind, name } => {
                    base.retain(|p| key(&p.item.node).is_none_or(|(k, n)| !(k == kind.node && n == name.node)));
                }
                VariantOp::Add(item) => base.push(Placed { item, role: Role::Variant }),
            }
        }
    }
    base
}
