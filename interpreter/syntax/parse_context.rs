//! What every `build_*` function works with: the pest grammar's rules, the context a file is
//! built in (its id, how deep expressions nest), and the small readers of names, numbers, texts
//! and citations the item, code and overlay builders share.

use super::ast::*;
use super::span::{FileId, Span, Spanned};
use crate::diag::Diag;
use pest::iterators::{Pair, Pairs};

#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/arbiter.pest"]
pub(super) struct ArbiterParser;

pub(super) type RulePair<'a> = Pair<'a, Rule>;
pub(super) type ParseResult<T> = Result<T, Diag>;

pub(super) struct ParseContext {
    pub(super) file: FileId,
    /// How deeply `build_expr` calls are nested right now.
    pub(super) depth: std::cell::Cell<u32>,
}

pub(super) fn internal(span: Span, what: &str) -> Diag {
    Diag::error(span, format!("internal: unexpected syntax shape in {what}")).help("please report this file")
}

impl ParseContext {
    pub(super) fn span(&self, p: &RulePair) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    pub(super) fn name(&self, p: RulePair) -> Name {
        Spanned::new(p.as_str().to_string(), self.span(&p))
    }

    pub(super) fn next<'a>(&self, it: &mut Pairs<'a, Rule>, at: Span, what: &str) -> ParseResult<RulePair<'a>> {
        it.next().ok_or_else(|| internal(at, what))
    }

    pub(super) fn int(&self, p: &RulePair) -> ParseResult<i64> {
        p.as_str().parse::<i64>().map_err(|_| Diag::error(self.span(p), "number too large").help("numbers must fit in 64 bits"))
    }

    pub(super) fn string(&self, p: RulePair) -> ParseResult<Spanned<String>> {
        let span = self.span(&p);
        let lit = self.strlit(p)?;
        match lit.as_plain() {
            Some(s) => Ok(Spanned::new(s, span)),
            None => Err(Diag::error(span, "`{..}` is not allowed in this text").help("write `{{` for a literal brace")),
        }
    }

    pub(super) fn strlit(&self, p: RulePair) -> ParseResult<StrLit> {
        let mut parts = Vec::new();
        for part in p.into_inner() {
            match part.as_rule() {
                Rule::string_text => push_text(&mut parts, part.as_str()),
                Rule::string_escape => {
                    let t = match part.as_str() {
                        "\\n" => "\n",
                        "\\t" => "\t",
                        "\\\"" => "\"",
                        "\\\\" => "\\",
                        "{{" => "{",
                        "}}" => "}",
                        other => other,
                    };
                    push_text(&mut parts, t);
                }
                Rule::string_interp => {
                    let span = self.span(&part);
                    let e = self.next(&mut part.into_inner(), span, "text")?;
                    parts.push(TextPart::Expr(self.build_expr(e)?));
                }
                _ => return Err(internal(self.span(&part), "text")),
            }
        }
        Ok(StrLit { parts })
    }

    pub(super) fn spanned_strlit(&self, p: RulePair) -> ParseResult<Spanned<StrLit>> {
        let span = self.span(&p);
        Ok(Spanned::new(self.strlit(p)?, span))
    }

    pub(super) fn cite(&self, p: RulePair) -> ParseResult<Spanned<String>> {
        let span = self.span(&p);
        let s = self.next(&mut p.into_inner(), span, "cite")?;
        self.string(s)
    }
}

pub(super) fn push_text(parts: &mut Vec<TextPart>, t: &str) {
    if let Some(TextPart::Text(last)) = parts.last_mut() {
        last.push_str(t);
    } else {
        parts.push(TextPart::Text(t.to_string()));
    }
}
