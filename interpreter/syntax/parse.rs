//! Parsing: pest pairs built straight into the typed AST, one `build_*` function per rule.
//! An impossible pair shape becomes an internal error diagnostic, never a panic.

use super::ast::*;
use super::parse_context::{ArbiterParser, ParseContext, ParseResult, Rule, RulePair, internal};
use super::parse_errors::pest_error;
use super::span::{FileId, Span, Spanned};
use crate::diag::Diag;
use pest::Parser;

use crate::budgets::{EXPR_NESTING, FILE_LIMIT, NESTING_LIMIT, PARSE_CALLS, PARSE_STACK};

/// Parse one file. `file` is the id the spans will carry (the source map gives it).
pub fn parse_file(file: FileId, text: &str) -> Result<File, Diag> {
    if text.len() > FILE_LIMIT {
        return Err(Diag::error(Span::new(file, 0, 0), format!("this file is larger than {} KiB", FILE_LIMIT >> 10))
            .help("split it into several files"));
    }
    // A byte-order mark (some editors write one) at the very start is read as three spaces, so
    // that every place in the file keeps its offset; anywhere else it is a mistake.
    let unmarked;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            unmarked = format!("   {rest}");
            unmarked.as_str()
        }
        None => text,
    };
    scan_before_parsing(file, text)?;
    // Long chains of operators or `if .. then .. else` nest without brackets: parse on a stack
    // big enough for the largest file accepted (it is reserved, not used, unless needed). A
    // thread made with such a stack (`PARSE_STACK`: the checker's) parses on its own; any other
    // gets a new one for the file.
    if stacker::remaining_stack().is_some_and(|r| r >= PARSE_STACK) {
        parse_nested(file, text)
    } else {
        stacker::grow(PARSE_STACK, || parse_nested(file, text))
    }
}

/// Refuse absurdly deep nesting before the recursive parser sees it: brackets, and `{..}` in a
/// text, counted as the grammar reads them (not in comments, nor in a text outside its `{..}`;
/// `\"`, `\\`, `{{` and `}}` in a text are characters, not quotes or braces; a text left open at
/// its line's end ends the scan, as it ends pest's reading). And refuse a control character other
/// than a tab or a line end outside texts and comments: the grammar's `WHITESPACE` is one range,
/// `\t` to space, which is cheaper for pest to test at every token than the four characters it
/// means, and this is what makes the two the same. Either is told before any mistake pest would
/// find earlier in the file, as the nesting always was.
fn scan_before_parsing(file: FileId, text: &str) -> Result<(), Diag> {
    /// What an open bracket or brace is: a bracket in code, or a `{..}` in a text.
    #[derive(PartialEq)]
    enum Open {
        Bracket,
        Interp,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut in_text = false;
    // Byte by byte: every character this looks for is ASCII, and no byte of a character written
    // in several bytes is (UTF-8), so those pass as any other.
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        let i = at;
        let next = bytes.get(at + 1).copied();
        at += 1;
        let opens = if in_text {
            match (b, next) {
                // A text left open at its line's end: pest refuses it there ("this text is not
                // closed") and can read nothing past it (no rule but a text or a comment takes a
                // `"`), so nothing past it is looked at here either.
                (b'\n' | b'\r', _) => return Ok(()),
                (b'\\', Some(c)) if c != b'\n' && c != b'\r' => {
                    at += 1;
                    None
                }
                (b'{', Some(b'{')) | (b'}', Some(b'}')) => {
                    at += 1;
                    None
                }
                (b'"', _) => {
                    in_text = false;
                    None
                }
                (b'{', _) => {
                    in_text = false;
                    Some(Open::Interp)
                }
                _ => None,
            }
        } else {
            match (b, next) {
                (b'"', _) => {
                    in_text = true;
                    None
                }
                (b'/', Some(b'/')) => {
                    at = bytes.iter().skip(at).position(|&c| c == b'\n' || c == b'\r').map_or(bytes.len(), |k| at + k);
                    None
                }
                (b'/', Some(b'*')) => {
                    // Past the closing `*/` (whose `*` is not the opening's), or to the end.
                    at = text.get(at + 1..).and_then(|rest| rest.find("*/")).map_or(bytes.len(), |k| at + 1 + k + 2);
                    None
                }
                (c, _) if stray_control(c) => {
                    return Err(Diag::error(
                        Span::new(file, i, i + 1),
                        format!("a control character (U+{:04X}) between the words", u32::from(c)),
                    )
                    .label("not a space")
                    .help("only spaces, tabs and line ends separate words: remove it (a text or a comment may hold it)"));
                }
                (b'(' | b'[' | b'{', _) => Some(Open::Bracket),
                (b')' | b']' | b'}', _) => {
                    // The `}` that closes a `{..}` in a text goes back into the text.
                    in_text = open.pop() == Some(Open::Interp) && b == b'}';
                    None
                }
                _ => None,
            }
        };
        if let Some(o) = opens {
            open.push(o);
            if open.len() > NESTING_LIMIT {
                return Err(Diag::error(Span::new(file, i, i + 1), format!("brackets nested more than {NESTING_LIMIT} deep"))
                    .label("too deep")
                    .help("split the rule into smaller functions or procedures"));
            }
        }
    }
    Ok(())
}

fn parse_nested(file: FileId, text: &str) -> Result<File, Diag> {
    // Process-wide in pest, read as each parse starts: the same for every file.
    pest::set_call_limit(std::num::NonZeroUsize::new(PARSE_CALLS));
    let mut pairs = ArbiterParser::parse(Rule::file, text).map_err(|e| pest_error(file, text, e))?;
    let root = pairs.next().ok_or_else(|| Diag::error(Span::new(file, 0, 0), "internal: empty parse"))?;
    keywords_stand_apart(file, text, &root)?;
    let cx = ParseContext { file, depth: std::cell::Cell::new(0) };
    let mut items = Vec::new();
    for pair in root.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        items.push(cx.build_item(pair)?);
    }
    Ok(File { file, items })
}

/// A keyword run into the name or number after it is refused: pest matches a keyword by its
/// letters, so `returnx` would read as `return x`, `if a thenb else c` as `if a then b else c`
/// and `movec to b` as `move c to b`; and so is a number run into a word (`2and`, `1else`).
/// Outside a text, no part of the tree begins or ends between two letters, digits or `_` (names
/// and numbers are single tokens, so nothing begins or ends inside them). Two keywords of one
/// phrase run together, with no part of the tree between them (`elseif`, `faceup`, `upto`), are
/// refused by the grammar (`glued_*`), which also reads a keyword that a name could stand in place
/// of only as a whole word (`top_card`, `stops`, `listing` are names).
fn keywords_stand_apart(file: FileId, text: &str, root: &RulePair) -> Result<(), Diag> {
    let bytes = text.as_bytes();
    let in_word = |at: usize| bytes.get(at).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    for token in root.clone().tokens() {
        // A part of the tree that begins or ends inside a word: a keyword run into what follows
        // it (`returnx`: `x` begins there), or a number or keyword into a word the rule reads as a
        // keyword (`1else`: `1` ends there).
        let (rule, at) = match token {
            pest::Token::Start { rule, pos } | pest::Token::End { rule, pos } => (rule, pos.pos()),
        };
        // A text's characters before or after an escape (`"\nend"`) begin or end where it does.
        if matches!(rule, Rule::string_text | Rule::string_escape) {
            continue;
        }
        if at == 0 || !in_word(at) || !in_word(at - 1) {
            continue;
        }
        let start = (0..at).rev().take_while(|&i| in_word(i)).last().unwrap_or(at);
        let end = (at..bytes.len()).take_while(|&i| in_word(i)).last().map_or(at, |i| i + 1);
        let (before, rest) = (text.get(start..at).unwrap_or(""), text.get(at..end).unwrap_or(""));
        let what = if before.bytes().all(|b| b.is_ascii_digit()) { "the number" } else { "the keyword" };
        return Err(Diag::error(Span::new(file, start, end), format!("`{before}{rest}` reads as {what} `{before}` run into `{rest}`"))
            .label("one word")
            .help(format!("put a space after `{before}`: a keyword or a number stands apart from the word after it")));
    }
    Ok(())
}

/// A control character that the grammar's `WHITESPACE` range (`\t` to space) would take for a
/// space: all but the tab and the line ends (`\n`, `\r`).
fn stray_control(c: u8) -> bool {
    c < b' ' && !matches!(c, b'\t' | b'\n' | b'\r')
}

impl ParseContext {
    // -----------------------------------------------------------------------------------------
    // Items

    pub(super) fn build_item(&self, p: RulePair) -> ParseResult<Spanned<Item>> {
        let span = self.span(&p);
        let item = match p.as_rule() {
            Rule::game_item => self.build_game(p)?,
            Rule::for_item => {
                let n = p.into_inner().find(|x| x.as_rule() == Rule::slug).ok_or_else(|| internal(span, "for"))?;
                Item::For(self.name(n))
            }
            Rule::part_item => {
                let n = p.into_inner().find(|x| x.as_rule() == Rule::slug).ok_or_else(|| internal(span, "part of variant"))?;
                Item::PartOf(self.name(n))
            }
            Rule::uses_item => {
                let n = p.into_inner().find(|x| x.as_rule() == Rule::string).ok_or_else(|| internal(span, "uses"))?;
                Item::Uses(self.string(n)?)
            }
            Rule::enum_item => self.build_enum(p)?,
            Rule::kind_item => self.build_kind(p)?,
            Rule::zone_item => self.build_zone(p)?,
            Rule::player_item => Item::Player(self.build_var_decls(p)?),
            Rule::global_item => Item::Global(self.build_var_decls(p)?),
            Rule::const_item => self.build_const(p)?,
            Rule::event_item => self.build_event(p)?,
            Rule::proc_item => self.build_proc(p)?,
            Rule::func_item => Item::Func(self.build_func(p)?),
            Rule::hint_item | Rule::side_item => Item::Hint(self.build_hint(p)?),
            Rule::check_item => Item::Check(self.build_func(p)?),
            Rule::permit_item => Item::Permit(self.build_hook(p)?),
            Rule::forbid_item => Item::Forbid(self.build_hook(p)?),
            Rule::trigger_item => self.build_trigger(p)?,
            Rule::modifier_item => self.build_modifier(p)?,
            Rule::replace_item => self.build_replace(p)?,
            Rule::always_item => self.build_always(p)?,
            Rule::deckbuilding_item => self.build_deckbuilding(p)?,
            Rule::deck_item => self.build_deck(p)?,
            Rule::variant_item => self.build_variant(p)?,
            Rule::scenario_item => self.build_scenario(p)?,
            Rule::section_item => {
                let span = self.span(&p);
                let mut it = p.into_inner();
                let title = self.string(self.next(&mut it, span, "section")?)?;
                let cite = self.cite(self.next(&mut it, span, "section")?)?;
                Item::Section(SectionItem { title, cite })
            }
            Rule::object_item => self.build_object(p)?,
            _ => return Err(internal(span, "item")),
        };
        Ok(Spanned::new(item, span))
    }

    pub(super) fn build_game(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "game")?);
        let props = it.map(|x| self.build_prop(x)).collect::<ParseResult<Vec<_>>>()?;
        Ok(Item::Game(GameItem { name, props }))
    }

    pub(super) fn build_prop(&self, p: RulePair) -> ParseResult<Prop> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let key = self.name(self.next(&mut it, span, "property")?);
        let mut values = Vec::new();
        if let Some(vs) = it.next() {
            for v in vs.into_inner() {
                let vspan = self.span(&v);
                let inner = self.next(&mut v.into_inner(), vspan, "value")?;
                let value = match inner.as_rule() {
                    Rule::int | Rule::neg_int => PropValue::Int(self.int(&inner)?),
                    Rule::string => PropValue::Str(self.string(inner)?.node),
                    Rule::range_value => PropValue::To,
                    Rule::bare_word => PropValue::Word(inner.as_str().to_string()),
                    _ => return Err(internal(vspan, "value")),
                };
                values.push(Spanned::new(value, vspan));
            }
        }
        Ok(Prop { key, values, span })
    }

    pub(super) fn build_enum(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "enum")?);
        let mut open = false;
        let mut cite = None;
        let mut members = Vec::new();
        for x in it {
            match x.as_rule() {
                Rule::open_mark => open = true,
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::ident => members.push(self.name(x)),
                _ => return Err(internal(span, "enum")),
            }
        }
        Ok(Item::Enum(EnumItem { name, open, members, cite }))
    }

    pub(super) fn build_kind(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "kind")?);
        let mut k = KindItem { name, fields: vec![], slots: vec![], active_in: vec![], label: None, cite: None };
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::cite => k.cite = Some(self.cite(x)?),
                Rule::field_decl => {
                    let mut f = x.into_inner();
                    let name = self.name(self.next(&mut f, xspan, "field")?);
                    let ty = self.build_type(self.next(&mut f, xspan, "field")?)?;
                    let mut default = None;
                    let mut announced = false;
                    for y in f {
                        match y.as_rule() {
                            Rule::announced => announced = true,
                            _ => default = Some(self.build_expr(y)?),
                        }
                    }
                    k.fields.push(FieldDecl { name, ty, default, announced });
                }
                Rule::slot_decl => {
                    let mut f = x.into_inner();
                    let name = self.name(self.next(&mut f, xspan, "ability slot")?);
                    k.slots.push(SlotDecl { name, many: f.next().is_some() });
                }
                Rule::active_decl => k.active_in.extend(x.into_inner().map(|z| self.name(z))),
                Rule::label_decl => {
                    let e = self.next(&mut x.into_inner(), xspan, "label")?;
                    k.label = Some(self.build_expr(e)?);
                }
                _ => return Err(internal(xspan, "kind")),
            }
        }
        Ok(Item::Kind(k))
    }

    pub(super) fn build_zone(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "zone")?);
        let mut z = ZoneItem { name, per_player: false, visibility: None, ordered: false, holds: None, cite: None };
        for x in it {
            match x.as_rule() {
                Rule::zone_flag => {
                    let text = x.as_str();
                    let xspan = self.span(&x);
                    match x.into_inner().next().map(|i| i.as_rule()) {
                        Some(Rule::per_player) => z.per_player = true,
                        Some(Rule::shared) => z.per_player = false,
                        _ if text == "ordered" => z.ordered = true,
                        _ => z.visibility = Some(Spanned::new(text.to_string(), xspan)),
                    }
                }
                Rule::ident => z.holds = Some(self.name(x)),
                Rule::cite => z.cite = Some(self.cite(x)?),
                _ => return Err(internal(span, "zone")),
            }
        }
        Ok(Item::Zone(z))
    }

    pub(super) fn build_var_decls(&self, p: RulePair) -> ParseResult<Vec<VarDecl>> {
        let mut out = Vec::new();
        for x in p.into_inner() {
            let xspan = self.span(&x);
            let mut it = x.into_inner();
            let name = self.name(self.next(&mut it, xspan, "field")?);
            let ty = self.build_type(self.next(&mut it, xspan, "field")?)?;
            let mut default = None;
            let mut cite = None;
            let mut announced = false;
            for y in it {
                match y.as_rule() {
                    Rule::cite => cite = Some(self.cite(y)?),
                    Rule::announced => announced = true,
                    _ => default = Some(self.build_expr(y)?),
                }
            }
            out.push(VarDecl { name, ty, default, announced, cite });
        }
        Ok(out)
    }

    pub(super) fn build_type(&self, p: RulePair) -> ParseResult<TypeExpr> {
        self.build_type_at(p, 1)
    }

    /// A type `depth` lists deep. `list list ..` nests without brackets: bound how deep, so that
    /// no type is too deep to build, check or drop.
    fn build_type_at(&self, p: RulePair, depth: u32) -> ParseResult<TypeExpr> {
        let span = self.span(&p);
        if depth > EXPR_NESTING {
            return Err(Diag::error(span, format!("this type nests more than {EXPR_NESTING} lists deep"))
                .label("too deep")
                .help("no value nests that deep: a list holds at most a few levels of lists"));
        }
        let mut it = p.into_inner();
        let first = self.next(&mut it, span, "type")?;
        let kind = match first.as_rule() {
            Rule::list_type => {
                let fspan = self.span(&first);
                let inner = self.next(&mut first.into_inner(), fspan, "list type")?;
                TypeKind::List(Box::new(self.build_type_at(inner, depth + 1)?))
            }
            Rule::word => TypeKind::Named { name: first.as_str().to_string(), optional: it.next().is_some() },
            _ => return Err(internal(span, "type")),
        };
        Ok(TypeExpr { kind, span })
    }

    pub(super) fn build_const(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "const")?);
        let ty = self.build_type(self.next(&mut it, span, "const")?)?;
        let value = self.build_expr(self.next(&mut it, span, "const")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(Item::Const(ConstItem { name, ty, value, cite }))
    }

    pub(super) fn build_params(&self, p: RulePair) -> ParseResult<Vec<Param>> {
        let mut out = Vec::new();
        for x in p.into_inner() {
            let xspan = self.span(&x);
            let mut it = x.into_inner();
            let name = self.name(self.next(&mut it, xspan, "parameter")?);
            let ty = it.next().map(|t| self.build_type(t)).transpose()?;
            out.push(Param { name, ty });
        }
        Ok(out)
    }

    pub(super) fn build_event(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "event")?);
        let params = self.build_params(self.next(&mut it, span, "event")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(Item::Event(EventItem { name, params, cite }))
    }

    pub(super) fn build_proc(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "proc")?);
        let params = self.build_params(self.next(&mut it, span, "proc")?)?;
        let mut requires = None;
        let mut cite = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::requires_clause => requires = Some(self.build_inner_expr(x)?),
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::block => body = Some(self.build_block(x)?),
                _ => return Err(internal(span, "proc")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "proc"))?;
        Ok(Item::Proc(ProcItem { name, params, requires, cite, body }))
    }

    pub(super) fn build_inner_expr(&self, p: RulePair) -> ParseResult<Expr> {
        let span = self.span(&p);
        let e = self.next(&mut p.into_inner(), span, "clause")?;
        self.build_expr(e)
    }

    pub(super) fn build_func(&self, p: RulePair) -> ParseResult<FuncItem> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "func")?);
        let params = self.build_params(self.next(&mut it, span, "func")?)?;
        let body = self.build_expr(self.next(&mut it, span, "func")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(FuncItem { name, params, body, cite })
    }

    /// `hint name(p: player) = expr` (or `side name(p: player) = cond`) with `cite ".."` or
    /// `sample ".."`.
    pub(super) fn build_hint(&self, p: RulePair) -> ParseResult<HintItem> {
        let span = self.span(&p);
        let side = p.as_rule() == Rule::side_item;
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "hint")?);
        let params = self.build_params(self.next(&mut it, span, "hint")?)?;
        let body = self.build_expr(self.next(&mut it, span, "hint")?)?;
        let (mut cite, mut sample) = (None, None);
        if let Some(c) = it.next() {
            if c.as_rule() == Rule::sample_clause {
                let s = c.into_inner().next().ok_or_else(|| internal(span, "hint"))?;
                sample = Some(self.string(s)?);
            } else {
                cite = Some(self.cite(c)?);
            }
        }
        Ok(HintItem { func: FuncItem { name, params, body, cite }, sample, side })
    }

    pub(super) fn build_hook(&self, p: RulePair) -> ParseResult<HookItem> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "permit")?);
        let params = self.build_params(self.next(&mut it, span, "permit")?)?;
        let when = self.build_expr(self.next(&mut it, span, "permit")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(HookItem { name, params, when, cite })
    }

    pub(super) fn build_trigger(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "trigger")?);
        let mut cite = None;
        let mut on = None;
        let mut when = None;
        let mut by = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::trigger_on => {
                    let xspan = self.span(&x);
                    let mut o = x.into_inner();
                    let event = self.name(self.next(&mut o, xspan, "trigger")?);
                    let params = self.build_params(self.next(&mut o, xspan, "trigger")?)?;
                    on = Some((event, params));
                }
                Rule::when_clause => when = Some(self.build_inner_expr(x)?),
                Rule::by_clause => by = Some(self.build_inner_expr(x)?),
                Rule::do_clause => body = Some(self.build_do(x)?),
                _ => return Err(internal(span, "trigger")),
            }
        }
        let (on, params) = on.ok_or_else(|| internal(span, "trigger"))?;
        let body = body.ok_or_else(|| internal(span, "trigger"))?;
        Ok(Item::Trigger(TriggerItem { name, cite, on, params, when, by, body }))
    }

    pub(super) fn build_do(&self, p: RulePair) -> ParseResult<Block> {
        let span = self.span(&p);
        let b = self.next(&mut p.into_inner(), span, "do")?;
        self.build_block(b)
    }

    pub(super) fn build_modifier(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "modifier")?);
        let mut cite = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::modifier_body => body = Some(self.build_modifier_body(x)?),
                _ => return Err(internal(span, "modifier")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "modifier"))?;
        Ok(Item::Modifier(ModifierItem { name, cite, body }))
    }

    pub(super) fn build_modifier_body(&self, p: RulePair) -> ParseResult<ModifierBody> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let var = self.name(self.next(&mut it, span, "modifier")?);
        let mut m = ModifierBody { var, when: None, layer: None, blank: None, effects: vec![] };
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::when_clause => m.when = Some(self.build_inner_expr(x)?),
                Rule::layer_clause => {
                    let n = self.next(&mut x.into_inner(), xspan, "layer")?;
                    m.layer = Some(Spanned::new(self.int(&n)?, xspan));
                }
                Rule::blank_effect => {
                    m.blank = Some(Spanned::new(x.into_inner().map(|w| self.name(w)).collect(), xspan));
                }
                Rule::field_effect => {
                    let mut f = x.into_inner();
                    let var = self.name(self.next(&mut f, xspan, "modifier effect")?);
                    let field = self.name(self.next(&mut f, xspan, "modifier effect")?);
                    let op = self.build_modify_op(self.next(&mut f, xspan, "modifier effect")?)?;
                    let value = self.build_expr(self.next(&mut f, xspan, "modifier effect")?)?;
                    m.effects.push(FieldEffect { var, field, op, value });
                }
                _ => return Err(internal(xspan, "modifier")),
            }
        }
        Ok(m)
    }

    pub(super) fn build_modify_op(&self, p: RulePair) -> ParseResult<Spanned<ModifyOp>> {
        let span = self.span(&p);
        let op = match p.as_str() {
            "+=" => ModifyOp::Add,
            "-=" => ModifyOp::Sub,
            "=" => ModifyOp::Set,
            "add" => ModifyOp::Insert,
            "remove" => ModifyOp::Remove,
            _ => return Err(internal(span, "modify operator")),
        };
        Ok(Spanned::new(op, span))
    }

    pub(super) fn build_replace(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "replace")?);
        let mut cite = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::replace_body => body = Some(self.build_replace_body(x)?),
                _ => return Err(internal(span, "replace")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "replace"))?;
        Ok(Item::Replace(ReplaceItem { name, cite, body }))
    }

    pub(super) fn build_replace_body(&self, p: RulePair) -> ParseResult<ReplaceBody> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let target = self.name(self.next(&mut it, span, "replace")?);
        let params = self.build_params(self.next(&mut it, span, "replace")?)?;
        let mut r = ReplaceBody { target, params, when: None, optional: None, body: Block { stmts: vec![], span } };
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::when_clause => r.when = Some(self.build_inner_expr(x)?),
                Rule::optional_clause => {
                    let mut o = x.into_inner();
                    let who = self.build_expr(self.next(&mut o, xspan, "optional")?)?;
                    let prompt = self.string(self.next(&mut o, xspan, "optional")?)?;
                    r.optional = Some((who, prompt));
                }
                Rule::do_clause => r.body = self.build_do(x)?,
                _ => return Err(internal(xspan, "replace")),
            }
        }
        Ok(r)
    }

    pub(super) fn build_always(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "always")?);
        let mut cite = None;
        let mut body = None;
        let mut immediately = false;
        for x in it {
            match x.as_rule() {
                Rule::kw_immediately => immediately = true,
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::block => body = Some(self.build_block(x)?),
                _ => return Err(internal(span, "always")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "always"))?;
        Ok(Item::Always(AlwaysItem { name, immediately, cite, body }))
    }

    pub(super) fn build_object(&self, p: RulePair) -> ParseResult<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let kind = self.name(self.next(&mut it, span, "object")?);
        let name = self.string(self.next(&mut it, span, "object")?)?;
        let mut o = ObjectItem {
            kind,
            name,
            sample: None,
            props: vec![],
            abilities: vec![],
            modifiers: vec![],
            triggers: vec![],
            permits: vec![],
            forbids: vec![],
            replaces: vec![],
        };
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::sample_clause => o.sample = Some(self.string(self.next(&mut x.into_inner(), xspan, "sample")?)?),
                Rule::prop => o.props.push(self.build_prop(x)?),
                Rule::ability => o.abilities.push(self.build_ability(x)?),
                Rule::object_modifier => {
                    let mut m = ObjectModifier {
                        label: None,
                        active_while: None,
                        body: ModifierBody {
                            var: Spanned::new(String::new(), xspan),
                            when: None,
                            layer: None,
                            blank: None,
                            effects: vec![],
                        },
                        span: xspan,
                    };
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::string => m.label = Some(self.string(y)?),
                            Rule::expr => m.active_while = Some(self.build_expr(y)?),
                            Rule::modifier_body => m.body = self.build_modifier_body(y)?,
                            _ => return Err(internal(xspan, "modifier")),
                        }
                    }
                    o.modifiers.push(m);
                }
                Rule::object_trigger => {
                    let mut t = x.into_inner();
                    let on = self.name(self.next(&mut t, xspan, "when")?);
                    let params = self.build_params(self.next(&mut t, xspan, "when")?)?;
                    let mut when = None;
                    let mut body = None;
                    for y in t {
                        match y.as_rule() {
                            Rule::expr => when = Some(self.build_expr(y)?),
                            Rule::block => body = Some(self.build_block(y)?),
                            _ => return Err(internal(xspan, "when")),
                        }
                    }
                    let body = body.ok_or_else(|| internal(xspan, "when"))?;
                    o.triggers.push(ObjectTrigger { on, params, when, body, span: xspan });
                }
                Rule::object_permit => o.permits.push(self.build_hook(x)?),
                Rule::object_forbid => o.forbids.push(self.build_hook(x)?),
                Rule::object_replace => {
                    let mut label = None;
                    let mut body = None;
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::string => label = Some(self.string(y)?),
                            Rule::replace_body => body = Some(self.build_replace_body(y)?),
                            _ => return Err(internal(xspan, "replace")),
                        }
                    }
                    let body = body.ok_or_else(|| internal(xspan, "replace"))?;
                    o.replaces.push(ObjectReplace { label, body, span: xspan });
                }
                _ => return Err(internal(xspan, "object")),
            }
        }
        Ok(Item::Object(o))
    }

    pub(super) fn build_ability(&self, p: RulePair) -> ParseResult<Ability> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let slot = self.name(self.next(&mut it, span, "ability")?);
        let mut a = Ability { slot, label: None, costs: vec![], targets: vec![], requires: None, body: None, span };
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::string => a.label = Some(self.string(x)?),
                Rule::cost_clause => {
                    for c in x.into_inner() {
                        a.costs.push(self.build_call(c)?);
                    }
                }
                Rule::target_clause => {
                    let mut t = x.into_inner();
                    let name = self.name(self.next(&mut t, xspan, "target")?);
                    let from = self.build_expr(self.next(&mut t, xspan, "target")?)?;
                    let mut chosen_by = None;
                    let mut filter = None;
                    let mut prompt = None;
                    for y in t {
                        match y.as_rule() {
                            Rule::target_where => filter = Some(self.build_inner_expr(y)?),
                            Rule::target_chooser => chosen_by = Some(self.build_inner_expr(y)?),
                            Rule::string => prompt = Some(self.string(y)?),
                            _ => return Err(internal(xspan, "target")),
                        }
                    }
                    a.targets.push(Target { name, from, filter, chosen_by, prompt });
                }
                Rule::requires_clause => a.requires = Some(self.build_inner_expr(x)?),
                Rule::do_clause => a.body = Some(self.build_do(x)?),
                _ => return Err(internal(xspan, "ability")),
            }
        }
        Ok(a)
    }
}
