//! Building the syntax tree of the items that describe a game's overlays and tests: deckbuilding rules, decks,
//! variants (with their step changes) and scenarios. The rest of the items are in `parse.rs`.

use super::ast::*;
use super::parse_context::{ParseContext, ParseResult, Rule, RulePair, internal};
use super::span::{Span, Spanned};
use pest::iterators::Pairs;

impl ParseContext {
    pub(super) fn build_deckbuilding(&self, p: RulePair) -> ParseResult<Item> {
        let mut cite = None;
        let mut rules = Vec::new();
        for x in p.into_inner() {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::deck_rule => {
                    let mut each = None;
                    let mut exprs = Vec::new();
                    let mut message = None;
                    for y in x.into_inner() {
                        let yspan = self.span(&y);
                        match y.as_rule() {
                            Rule::each_clause => {
                                let mut e = y.into_inner();
                                let n = self.name(self.next(&mut e, yspan, "each")?);
                                let l = self.build_expr(self.next(&mut e, yspan, "each")?)?;
                                each = Some((n, l));
                            }
                            Rule::expr => exprs.push(self.build_expr(y)?),
                            Rule::string => message = Some(self.spanned_strlit(y)?),
                            _ => return Err(internal(yspan, "deck rule")),
                        }
                    }
                    let cond = exprs.pop().ok_or_else(|| internal(xspan, "deck rule"))?;
                    let message = message.ok_or_else(|| internal(xspan, "deck rule"))?;
                    rules.push(DeckRule { each, cond, message, span: xspan });
                }
                _ => return Err(internal(xspan, "deckbuilding")),
            }
        }
        Ok(Item::Deckbuilding(DeckbuildingItem { cite, rules }))
    }

    pub(super) fn build_deck(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.string(self.next(&mut it, span, "deck")?)?;
        let mut sample = None;
        let mut entries = Vec::new();
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::sample_clause => sample = Some(self.string(self.next(&mut x.into_inner(), xspan, "sample")?)?),
                Rule::deck_entry => {
                    let mut e = x.into_inner();
                    let h = self.next(&mut e, xspan, "deck entry")?;
                    let hspan = self.span(&h);
                    let head = match h.as_rule() {
                        Rule::int => DeckHead::Count(self.int(&h)?),
                        _ => DeckHead::Section(h.as_str().to_string()),
                    };
                    let card = self.string(self.next(&mut e, xspan, "deck entry")?)?;
                    entries.push(DeckEntry { head: Spanned::new(head, hspan), card });
                }
                _ => return Err(internal(xspan, "deck")),
            }
        }
        Ok(Item::Deck(DeckItem { name, sample, entries }))
    }

    pub(super) fn build_variant(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "variant")?);
        let title = self.string(self.next(&mut it, span, "variant")?)?;
        let mut cite = None;
        let mut extends = Vec::new();
        let mut group = None;
        let mut ops = Vec::new();
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::extends_clause => extends.extend(x.into_inner().map(|n| self.name(n))),
                Rule::variant_group => group = Some(x.as_str().to_string()),
                Rule::variant_set => {
                    let mut r = x.into_inner();
                    r.next(); // `set`
                    let name = self.name(self.next(&mut r, xspan, "set")?);
                    let value = self.build_expr(self.next(&mut r, xspan, "set")?)?;
                    let cite = r.next().map(|c| self.cite(c)).transpose()?;
                    ops.push(Spanned::new(VariantOp::Set { name, value, cite }, xspan));
                }
                Rule::variant_replace_step | Rule::variant_insert_step | Rule::variant_remove_step => {
                    ops.push(Spanned::new(VariantOp::Step(Box::new(self.build_step_op(x)?)), xspan));
                }
                Rule::variant_replace => {
                    let i = self.next(&mut x.into_inner(), xspan, "replace")?;
                    ops.push(Spanned::new(VariantOp::Replace(Box::new(self.build_item(i)?)), xspan));
                }
                Rule::variant_add => {
                    let i = self.next(&mut x.into_inner(), xspan, "add")?;
                    ops.push(Spanned::new(VariantOp::Add(Box::new(self.build_item(i)?)), xspan));
                }
                Rule::variant_remove => {
                    let mut r = x.into_inner();
                    let kind = self.name(self.next(&mut r, xspan, "remove")?);
                    let name = self.name(self.next(&mut r, xspan, "remove")?);
                    ops.push(Spanned::new(VariantOp::Remove { kind, name }, xspan));
                }
                _ => return Err(internal(xspan, "variant")),
            }
        }
        Ok(Item::Variant(VariantItem { name, title, extends, group, cite, ops }))
    }

    /// `replace step s in p { .. }`, `insert step s before t in p { .. }`, `remove step s in p`.
    fn build_step_op(&self, x: RulePair) -> ParseResult<StepOp> {
        let xspan = self.span(&x);
        let rule = x.as_rule();
        let mut r = x.into_inner();
        r.next(); // `step`
        let step = self.name(self.next(&mut r, xspan, "step")?);
        let how = match rule {
            Rule::variant_insert_step => {
                let place = self.next(&mut r, xspan, "step")?;
                let anchor = self.name(self.next(&mut r, xspan, "step")?);
                StepHow::Insert { before: place.as_str() == "before", anchor }
            }
            Rule::variant_remove_step => StepHow::Remove,
            _ => StepHow::Replace,
        };
        let proc = self.name(self.next(&mut r, xspan, "step")?);
        let (cite, body) = self.cite_and_block(r, xspan)?;
        Ok(StepOp { proc, step, how, cite, body })
    }

    /// What follows a step's name: an optional `cite "..."` and an optional block.
    pub(super) fn cite_and_block(&self, rest: Pairs<Rule>, span: Span) -> ParseResult<(Option<Spanned<String>>, Option<Block>)> {
        let mut cite = None;
        let mut body = None;
        for y in rest {
            match y.as_rule() {
                Rule::cite => cite = Some(self.cite(y)?),
                Rule::block => body = Some(self.build_block(y)?),
                _ => return Err(internal(span, "step")),
            }
        }
        Ok((cite, body))
    }

    pub(super) fn build_scenario(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let id = self.name(self.next(&mut it, span, "scenario")?);
        let title = self.string(self.next(&mut it, span, "scenario")?)?;
        let mut props = Vec::new();
        let mut body = Vec::new();
        for x in it {
            match x.as_rule() {
                Rule::prop => props.push(self.build_prop(x)?),
                _ => body.push(self.build_stmt(x)?),
            }
        }
        Ok(Item::Scenario(ScenarioItem { id, title, props, body }))
    }
}
