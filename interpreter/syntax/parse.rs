//! Parsing: pest pairs lowered straight into the typed AST, one `lower_*` function per rule.
//! An impossible pair shape becomes an internal error diagnostic, never a panic.

use super::ast::*;
use super::span::{Span, Spanned};
use crate::diag::Diag;
use pest::Parser;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

#[derive(pest_derive::Parser)]
#[grammar = "grammar/arbiter.pest"]
struct ArbiterParser;

type P<'a> = Pair<'a, Rule>;
type Res<T> = Result<T, Diag>;

/// Parse one file. `file` is the index the spans will carry.
/// How deeply brackets may nest in a source file.
pub const NESTING_LIMIT: usize = 96;

pub fn parse_file(file: u32, text: &str) -> Result<File, Diag> {
    check_nesting(file, text)?;
    stacker::maybe_grow(256 * 1024, 8 * 1024 * 1024, || parse_nested(file, text))
}

/// Refuse absurdly deep nesting before the recursive parser sees it.
fn check_nesting(file: u32, text: &str) -> Result<(), Diag> {
    let mut depth = 0usize;
    let mut in_str = false;
    let mut prev = ' ';
    for (i, ch) in text.char_indices() {
        match ch {
            '"' if prev != '\\' => in_str = !in_str,
            '(' | '[' | '{' if !in_str => {
                depth += 1;
                if depth > NESTING_LIMIT {
                    return Err(Diag::error(Span::new(file, i, i + 1), format!("brackets nested more than {NESTING_LIMIT} deep"))
                        .label("too deep")
                        .help("split the rule into smaller functions or procedures"));
                }
            }
            ')' | ']' | '}' if !in_str => depth = depth.saturating_sub(1),
            _ => {}
        }
        prev = ch;
    }
    Ok(())
}

fn parse_nested(file: u32, text: &str) -> Result<File, Diag> {
    let mut pairs = ArbiterParser::parse(Rule::file, text).map_err(|e| pest_error(file, text, e))?;
    let root = pairs.next().ok_or_else(|| Diag::error(Span::new(file, 0, 0), "internal: empty parse"))?;
    let cx = Cx { file };
    let mut items = Vec::new();
    for pair in root.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        items.push(cx.lower_item(pair)?);
    }
    Ok(File { file, items })
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or_op, Assoc::Left))
            .op(Op::infix(Rule::and_op, Assoc::Left))
            .op(Op::prefix(Rule::not_op))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_op, Assoc::Left)
                | Op::infix(Rule::not_in, Assoc::Left)
                | Op::infix(Rule::has_op, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left) | Op::infix(Rule::div, Assoc::Left) | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::field_access))
    })
}

/// Turn a pest error into a diagnostic with readable expectations.
fn pest_error(file: u32, text: &str, e: pest::error::Error<Rule>) -> Diag {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    // Underline the token at the error position so the caret is visible.
    let tok_end = if end > start {
        end
    } else {
        let rest = text.get(start..).unwrap_or("");
        let len = rest.chars().take_while(|c| !c.is_whitespace()).map(char::len_utf8).sum::<usize>();
        start + len.clamp(if rest.is_empty() { 0 } else { 1 }, 24)
    };
    let span = Span::new(file, start, tok_end);
    let found = text.get(start..tok_end).unwrap_or("");
    if text.get(start..).is_some_and(|rest| rest.trim().is_empty()) {
        return Diag::error(Span::new(file, start, start), "the file ends too soon")
            .label("here")
            .help("a `{` is not closed, or an item is unfinished");
    }
    match e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives.iter().map(|r| readable(*r)).collect();
            words.sort_unstable();
            words.dedup();
            if words.contains(&"an expression") {
                words.retain(|w| !matches!(*w, "a name" | "a number" | "a text in quotes" | "`any` or `no`"));
            }
            if words.contains(&"the closing `\"`") {
                let at = Span::new(file, start, start);
                return Diag::error(at, "this text is not closed")
                    .label("the line ends here")
                    .help("a text ends on the line where it starts; write `\\n` for a line break");
            }
            let expected = join_or(&words);
            let message = if found.is_empty() { format!("expected {expected}") } else { format!("expected {expected}, found `{found}`") };
            Diag::error(span, message).label("here").maybe_help(syntax_help(&positives, found))
        }
        ErrorVariant::CustomError { message } => Diag::error(span, message),
    }
}

fn join_or(words: &[&str]) -> String {
    match words {
        [] => "something else".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

fn syntax_help(positives: &[Rule], found: &str) -> Option<String> {
    if found == "=" && positives.iter().any(|r| *r == Rule::line_end || readable(*r) == "a value") {
        return Some("write a property as `key value`, without `=`".to_string());
    }
    if found.starts_with('=') && positives.iter().any(|r| readable(*r) == "an expression") {
        return Some("compare with `==`; assign with `=` as a statement of its own".to_string());
    }
    if positives.contains(&Rule::EOI) || positives.iter().any(|r| matches!(r, Rule::game_item | Rule::object_item)) {
        return Some(
            "a file holds items: `game`, `enum`, `kind`, `zone`, `player`, `global`, `const`, `event`, `proc`, `func`, \
             `check`, `permit`, `forbid`, `trigger`, `modifier`, `replace`, `always`, `deckbuilding`, `deck`, \
             `variant`, `scenario`, or an object such as `card \"Name\" { .. }`"
                .to_string(),
        );
    }
    if matches!(found, "choose" | "call" | "roll" | "create" | "random") {
        return Some(format!("keep the result of `{found}` with `let`: `let x = {found} ..`, then use `x`"));
    }
    if positives.contains(&Rule::line_end) || positives.contains(&Rule::prop_values) {
        return Some("one property per line, such as `power 2`; separate values with commas".to_string());
    }
    None
}

/// The words a syntax error uses for what it expected.
fn readable(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::string_text | Rule::string_escape | Rule::string_interp => "the closing `\"`",
        Rule::kw_for => "`for`",
        Rule::term => "a value",
        Rule::owned_by => "`owned by`",
        Rule::ident | Rule::word | Rule::var | Rule::item_name | Rule::place => "a name",
        Rule::slug => "an id such as `bsg-ccg`",
        Rule::int | Rule::neg_int => "a number",
        Rule::string => "a text in quotes",
        Rule::cite => "`cite \"...\"`",
        Rule::block => "`{`",
        Rule::expr
        | Rule::primary
        | Rule::paren
        | Rule::call_expr
        | Rule::list_lit
        | Rule::comprehension
        | Rule::lambda
        | Rule::quant_expr
        | Rule::if_expr
        | Rule::true_lit
        | Rule::false_lit
        | Rule::none_lit
        | Rule::you
        | Rule::self_ref
        | Rule::proc_ref
        | Rule::neg
        | Rule::not_op => "an expression",
        Rule::or_op
        | Rule::and_op
        | Rule::eq
        | Rule::ne
        | Rule::lt
        | Rule::le
        | Rule::gt
        | Rule::ge
        | Rule::in_op
        | Rule::not_in
        | Rule::has_op
        | Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::rem
        | Rule::field_access => "an operator",
        Rule::let_stmt
        | Rule::if_stmt
        | Rule::for_stmt
        | Rule::while_stmt
        | Rule::repeat_stmt
        | Rule::return_stmt
        | Rule::call_stmt
        | Rule::choose_stmt
        | Rule::move_stmt
        | Rule::put_stmt
        | Rule::turn_stmt
        | Rule::shuffle_stmt
        | Rule::modify_stmt
        | Rule::expire_stmt
        | Rule::signal_stmt
        | Rule::log_stmt
        | Rule::win_stmt
        | Rule::lose_stmt
        | Rule::draw_stmt
        | Rule::reveal_stmt
        | Rule::create_stmt
        | Rule::run_ability_stmt
        | Rule::assign_stmt
        | Rule::run_stmt
        | Rule::answer_stmt
        | Rule::random_stmt
        | Rule::expect_stmt
        | Rule::stop_stmt => "a statement",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::modify_op => "`+=`, `-=`, `=`, `add` or `remove`",
        Rule::prop | Rule::scenario_prop => "a property line",
        Rule::prop_values | Rule::prop_value | Rule::bare_word | Rule::range_value => "a value",
        Rule::line_end => "the end of the line",
        Rule::params => "`(`",
        Rule::param => "a parameter",
        Rule::type_expr | Rule::list_type => "a type",
        Rule::optional_mark => "`?`",
        Rule::game_item
        | Rule::for_item
        | Rule::enum_item
        | Rule::kind_item
        | Rule::zone_item
        | Rule::player_item
        | Rule::global_item
        | Rule::const_item
        | Rule::event_item
        | Rule::proc_item
        | Rule::func_item
        | Rule::check_item
        | Rule::permit_item
        | Rule::forbid_item
        | Rule::trigger_item
        | Rule::modifier_item
        | Rule::replace_item
        | Rule::always_item
        | Rule::deckbuilding_item
        | Rule::deck_item
        | Rule::variant_item
        | Rule::scenario_item
        | Rule::object_item => "an item",
        Rule::field_decl | Rule::slot_decl | Rule::active_decl | Rule::label_decl => "`field`, `ability`, `active in` or `label`",
        Rule::zone_flag | Rule::per_player | Rule::shared => "a zone flag (`per player`, `shared`, `public`, `owner`, `hidden`, `ordered`)",
        Rule::requires_clause => "`requires`",
        Rule::when_clause => "`when`",
        Rule::by_clause => "`by`",
        Rule::do_clause => "`do`",
        Rule::trigger_on => "`on`",
        Rule::layer_clause => "`layer`",
        Rule::blank_effect | Rule::field_effect => "a modifier effect such as `o.power += 1`",
        Rule::optional_clause => "`optional by`",
        Rule::modifier_body | Rule::replace_body | Rule::choose_branches => "`{`",
        Rule::deck_rule => "`require`",
        Rule::each_clause => "`each`",
        Rule::sample_clause => "`sample \"why\"`",
        Rule::deck_entry => "a deck line such as `4 \"Card Name\"`",
        Rule::variant_replace | Rule::variant_remove | Rule::variant_add => "`replace`, `remove` or `add`",
        Rule::item_kind => {
            "an item kind (`proc`, `func`, `check`, `permit`, `forbid`, `trigger`, `modifier`, `replace`, `always`, `const`)"
        }
        Rule::ability | Rule::object_modifier | Rule::object_trigger | Rule::object_permit | Rule::object_forbid | Rule::object_replace => {
            "an ability"
        }
        Rule::cost_clause => "`cost`",
        Rule::target_clause => "`target`",
        Rule::target_where => "`where`",
        Rule::target_chooser => "`chosen by`",
        Rule::choose_from | Rule::choose_count | Rule::choose_up_to | Rule::choose_order => "`from`",
        Rule::choose_none => "`else`",
        Rule::choose_branch => "a choice such as `\"label\" => { .. }`",
        Rule::secret_mark => "`secretly`",
        Rule::move_flag | Rule::face_up | Rule::face_down => "`top`, `bottom`, `face up` or `face down`",
        Rule::put_where => "`under` or `over`",
        Rule::roll_expr | Rule::pick_expr => "an expression",
        Rule::random_roll | Rule::random_keep | Rule::random_order | Rule::random_pick => "`roll`, `keep`, `order` or `pick`",
        Rule::expect_options | Rule::expect_finished | Rule::expect_decision | Rule::expect_log | Rule::expect_expr => "an expectation",
        Rule::comp_filter | Rule::comp_map => "a list",
        Rule::quantifier => "`any` or `no`",
        Rule::slot_many => "`many`",
        Rule::open_mark => "`open`",
        _ => "something else",
    }
}

struct Cx {
    file: u32,
}

fn internal(span: Span, what: &str) -> Diag {
    Diag::error(span, format!("internal: unexpected syntax shape in {what}")).help("please report this file")
}

impl Cx {
    fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn name(&self, p: P) -> Name {
        Spanned::new(p.as_str().to_string(), self.span(&p))
    }

    fn next<'a>(&self, it: &mut Pairs<'a, Rule>, at: Span, what: &str) -> Res<P<'a>> {
        it.next().ok_or_else(|| internal(at, what))
    }

    fn int(&self, p: &P) -> Res<i64> {
        p.as_str().parse::<i64>().map_err(|_| Diag::error(self.span(p), "number too large").help("numbers must fit in 64 bits"))
    }

    fn string(&self, p: P) -> Res<Spanned<String>> {
        let span = self.span(&p);
        let lit = self.strlit(p)?;
        match lit.as_plain() {
            Some(s) => Ok(Spanned::new(s, span)),
            None => Err(Diag::error(span, "`{..}` is not allowed in this text").help("write `{{` for a literal brace")),
        }
    }

    fn strlit(&self, p: P) -> Res<StrLit> {
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
                    parts.push(StrPart::Expr(self.lower_expr(e)?));
                }
                _ => return Err(internal(self.span(&part), "text")),
            }
        }
        Ok(StrLit { parts })
    }

    fn spanned_strlit(&self, p: P) -> Res<Spanned<StrLit>> {
        let span = self.span(&p);
        Ok(Spanned::new(self.strlit(p)?, span))
    }

    fn cite(&self, p: P) -> Res<Spanned<String>> {
        let span = self.span(&p);
        let s = self.next(&mut p.into_inner(), span, "cite")?;
        self.string(s)
    }

    // -----------------------------------------------------------------------------------------
    // Items

    fn lower_item(&self, p: P) -> Res<Spanned<Item>> {
        let span = self.span(&p);
        let item = match p.as_rule() {
            Rule::game_item => self.lower_game(p)?,
            Rule::for_item => {
                let n = p.into_inner().find(|x| x.as_rule() == Rule::slug).ok_or_else(|| internal(span, "for"))?;
                Item::For(self.name(n))
            }
            Rule::enum_item => self.lower_enum(p)?,
            Rule::kind_item => self.lower_kind(p)?,
            Rule::zone_item => self.lower_zone(p)?,
            Rule::player_item => Item::Player(self.lower_var_decls(p)?),
            Rule::global_item => Item::Global(self.lower_var_decls(p)?),
            Rule::const_item => self.lower_const(p)?,
            Rule::event_item => self.lower_event(p)?,
            Rule::proc_item => self.lower_proc(p)?,
            Rule::func_item => Item::Func(self.lower_func(p)?),
            Rule::check_item => Item::Check(self.lower_func(p)?),
            Rule::permit_item => Item::Permit(self.lower_hook(p)?),
            Rule::forbid_item => Item::Forbid(self.lower_hook(p)?),
            Rule::trigger_item => self.lower_trigger(p)?,
            Rule::modifier_item => self.lower_modifier(p)?,
            Rule::replace_item => self.lower_replace(p)?,
            Rule::always_item => self.lower_always(p)?,
            Rule::deckbuilding_item => self.lower_deckbuilding(p)?,
            Rule::deck_item => self.lower_deck(p)?,
            Rule::variant_item => self.lower_variant(p)?,
            Rule::scenario_item => self.lower_scenario(p)?,
            Rule::object_item => self.lower_object(p)?,
            _ => return Err(internal(span, "item")),
        };
        Ok(Spanned::new(item, span))
    }

    fn lower_game(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "game")?);
        let props = it.map(|x| self.lower_prop(x)).collect::<Res<Vec<_>>>()?;
        Ok(Item::Game(GameItem { name, props }))
    }

    fn lower_prop(&self, p: P) -> Res<Prop> {
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

    fn lower_enum(&self, p: P) -> Res<Item> {
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

    fn lower_kind(&self, p: P) -> Res<Item> {
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
                    let ty = self.lower_type(self.next(&mut f, xspan, "field")?)?;
                    let default = f.next().map(|e| self.lower_expr(e)).transpose()?;
                    k.fields.push(FieldDecl { name, ty, default });
                }
                Rule::slot_decl => {
                    let mut f = x.into_inner();
                    let name = self.name(self.next(&mut f, xspan, "ability slot")?);
                    k.slots.push(SlotDecl { name, many: f.next().is_some() });
                }
                Rule::active_decl => k.active_in.extend(x.into_inner().map(|z| self.name(z))),
                Rule::label_decl => {
                    let e = self.next(&mut x.into_inner(), xspan, "label")?;
                    k.label = Some(self.lower_expr(e)?);
                }
                _ => return Err(internal(xspan, "kind")),
            }
        }
        Ok(Item::Kind(k))
    }

    fn lower_zone(&self, p: P) -> Res<Item> {
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

    fn lower_var_decls(&self, p: P) -> Res<Vec<VarDecl>> {
        let mut out = Vec::new();
        for x in p.into_inner() {
            let xspan = self.span(&x);
            let mut it = x.into_inner();
            let name = self.name(self.next(&mut it, xspan, "field")?);
            let ty = self.lower_type(self.next(&mut it, xspan, "field")?)?;
            let mut default = None;
            let mut cite = None;
            for y in it {
                match y.as_rule() {
                    Rule::cite => cite = Some(self.cite(y)?),
                    _ => default = Some(self.lower_expr(y)?),
                }
            }
            out.push(VarDecl { name, ty, default, cite });
        }
        Ok(out)
    }

    fn lower_type(&self, p: P) -> Res<TypeExpr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let first = self.next(&mut it, span, "type")?;
        let kind = match first.as_rule() {
            Rule::list_type => {
                let fspan = self.span(&first);
                let inner = self.next(&mut first.into_inner(), fspan, "list type")?;
                TypeKind::List(Box::new(self.lower_type(inner)?))
            }
            Rule::word => TypeKind::Named { name: first.as_str().to_string(), optional: it.next().is_some() },
            _ => return Err(internal(span, "type")),
        };
        Ok(TypeExpr { kind, span })
    }

    fn lower_const(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "const")?);
        let ty = self.lower_type(self.next(&mut it, span, "const")?)?;
        let value = self.lower_expr(self.next(&mut it, span, "const")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(Item::Const(ConstItem { name, ty, value, cite }))
    }

    fn lower_params(&self, p: P) -> Res<Vec<Param>> {
        let mut out = Vec::new();
        for x in p.into_inner() {
            let xspan = self.span(&x);
            let mut it = x.into_inner();
            let name = self.name(self.next(&mut it, xspan, "parameter")?);
            let ty = it.next().map(|t| self.lower_type(t)).transpose()?;
            out.push(Param { name, ty });
        }
        Ok(out)
    }

    fn lower_event(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "event")?);
        let params = self.lower_params(self.next(&mut it, span, "event")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(Item::Event(EventItem { name, params, cite }))
    }

    fn lower_proc(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "proc")?);
        let params = self.lower_params(self.next(&mut it, span, "proc")?)?;
        let mut requires = None;
        let mut cite = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::requires_clause => requires = Some(self.lower_inner_expr(x)?),
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::block => body = Some(self.lower_block(x)?),
                _ => return Err(internal(span, "proc")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "proc"))?;
        Ok(Item::Proc(ProcItem { name, params, requires, cite, body }))
    }

    fn lower_inner_expr(&self, p: P) -> Res<Expr> {
        let span = self.span(&p);
        let e = self.next(&mut p.into_inner(), span, "clause")?;
        self.lower_expr(e)
    }

    fn lower_func(&self, p: P) -> Res<FuncItem> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "func")?);
        let params = self.lower_params(self.next(&mut it, span, "func")?)?;
        let body = self.lower_expr(self.next(&mut it, span, "func")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(FuncItem { name, params, body, cite })
    }

    fn lower_hook(&self, p: P) -> Res<HookItem> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "permit")?);
        let params = self.lower_params(self.next(&mut it, span, "permit")?)?;
        let when = self.lower_expr(self.next(&mut it, span, "permit")?)?;
        let cite = it.next().map(|c| self.cite(c)).transpose()?;
        Ok(HookItem { name, params, when, cite })
    }

    fn lower_trigger(&self, p: P) -> Res<Item> {
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
                    let ev = self.name(self.next(&mut o, xspan, "trigger")?);
                    let params = self.lower_params(self.next(&mut o, xspan, "trigger")?)?;
                    on = Some((ev, params));
                }
                Rule::when_clause => when = Some(self.lower_inner_expr(x)?),
                Rule::by_clause => by = Some(self.lower_inner_expr(x)?),
                Rule::do_clause => body = Some(self.lower_do(x)?),
                _ => return Err(internal(span, "trigger")),
            }
        }
        let (on, params) = on.ok_or_else(|| internal(span, "trigger"))?;
        let body = body.ok_or_else(|| internal(span, "trigger"))?;
        Ok(Item::Trigger(TriggerItem { name, cite, on, params, when, by, body }))
    }

    fn lower_do(&self, p: P) -> Res<Block> {
        let span = self.span(&p);
        let b = self.next(&mut p.into_inner(), span, "do")?;
        self.lower_block(b)
    }

    fn lower_modifier(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "modifier")?);
        let mut cite = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::modifier_body => body = Some(self.lower_modifier_body(x)?),
                _ => return Err(internal(span, "modifier")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "modifier"))?;
        Ok(Item::Modifier(ModifierItem { name, cite, body }))
    }

    fn lower_modifier_body(&self, p: P) -> Res<ModifierBody> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let var = self.name(self.next(&mut it, span, "modifier")?);
        let mut m = ModifierBody { var, when: None, layer: None, blank: None, effects: vec![] };
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::when_clause => m.when = Some(self.lower_inner_expr(x)?),
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
                    let op = self.lower_modify_op(self.next(&mut f, xspan, "modifier effect")?)?;
                    let value = self.lower_expr(self.next(&mut f, xspan, "modifier effect")?)?;
                    m.effects.push(FieldEffect { var, field, op, value });
                }
                _ => return Err(internal(xspan, "modifier")),
            }
        }
        Ok(m)
    }

    fn lower_modify_op(&self, p: P) -> Res<Spanned<ModifyOp>> {
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

    fn lower_replace(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "replace")?);
        let mut cite = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::replace_body => body = Some(self.lower_replace_body(x)?),
                _ => return Err(internal(span, "replace")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "replace"))?;
        Ok(Item::Replace(ReplaceItem { name, cite, body }))
    }

    fn lower_replace_body(&self, p: P) -> Res<ReplaceBody> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let target = self.name(self.next(&mut it, span, "replace")?);
        let params = self.lower_params(self.next(&mut it, span, "replace")?)?;
        let mut r = ReplaceBody { target, params, when: None, optional: None, body: Block { stmts: vec![], span } };
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::when_clause => r.when = Some(self.lower_inner_expr(x)?),
                Rule::optional_clause => {
                    let mut o = x.into_inner();
                    let who = self.lower_expr(self.next(&mut o, xspan, "optional")?)?;
                    let prompt = self.string(self.next(&mut o, xspan, "optional")?)?;
                    r.optional = Some((who, prompt));
                }
                Rule::do_clause => r.body = self.lower_do(x)?,
                _ => return Err(internal(xspan, "replace")),
            }
        }
        Ok(r)
    }

    fn lower_always(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "always")?);
        let mut cite = None;
        let mut body = None;
        for x in it {
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::block => body = Some(self.lower_block(x)?),
                _ => return Err(internal(span, "always")),
            }
        }
        let body = body.ok_or_else(|| internal(span, "always"))?;
        Ok(Item::Always(AlwaysItem { name, cite, body }))
    }

    fn lower_deckbuilding(&self, p: P) -> Res<Item> {
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
                                let l = self.lower_expr(self.next(&mut e, yspan, "each")?)?;
                                each = Some((n, l));
                            }
                            Rule::expr => exprs.push(self.lower_expr(y)?),
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

    fn lower_deck(&self, p: P) -> Res<Item> {
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

    fn lower_variant(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "variant")?);
        let title = self.string(self.next(&mut it, span, "variant")?)?;
        let mut cite = None;
        let mut ops = Vec::new();
        for x in it {
            let xspan = self.span(&x);
            match x.as_rule() {
                Rule::cite => cite = Some(self.cite(x)?),
                Rule::variant_replace => {
                    let i = self.next(&mut x.into_inner(), xspan, "replace")?;
                    ops.push(Spanned::new(VariantOp::Replace(Box::new(self.lower_item(i)?)), xspan));
                }
                Rule::variant_add => {
                    let i = self.next(&mut x.into_inner(), xspan, "add")?;
                    ops.push(Spanned::new(VariantOp::Add(Box::new(self.lower_item(i)?)), xspan));
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
        Ok(Item::Variant(VariantItem { name, title, cite, ops }))
    }

    fn lower_scenario(&self, p: P) -> Res<Item> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let id = self.name(self.next(&mut it, span, "scenario")?);
        let title = self.string(self.next(&mut it, span, "scenario")?)?;
        let mut props = Vec::new();
        let mut body = Vec::new();
        for x in it {
            match x.as_rule() {
                Rule::prop => props.push(self.lower_prop(x)?),
                _ => body.push(self.lower_stmt(x)?),
            }
        }
        Ok(Item::Scenario(ScenarioItem { id, title, props, body }))
    }

    fn lower_object(&self, p: P) -> Res<Item> {
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
                Rule::prop => o.props.push(self.lower_prop(x)?),
                Rule::ability => o.abilities.push(self.lower_ability(x)?),
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
                            Rule::expr => m.active_while = Some(self.lower_expr(y)?),
                            Rule::modifier_body => m.body = self.lower_modifier_body(y)?,
                            _ => return Err(internal(xspan, "modifier")),
                        }
                    }
                    o.modifiers.push(m);
                }
                Rule::object_trigger => {
                    let mut t = x.into_inner();
                    let on = self.name(self.next(&mut t, xspan, "when")?);
                    let params = self.lower_params(self.next(&mut t, xspan, "when")?)?;
                    let mut when = None;
                    let mut body = None;
                    for y in t {
                        match y.as_rule() {
                            Rule::expr => when = Some(self.lower_expr(y)?),
                            Rule::block => body = Some(self.lower_block(y)?),
                            _ => return Err(internal(xspan, "when")),
                        }
                    }
                    let body = body.ok_or_else(|| internal(xspan, "when"))?;
                    o.triggers.push(ObjectTrigger { on, params, when, body, span: xspan });
                }
                Rule::object_permit => o.permits.push(self.lower_hook(x)?),
                Rule::object_forbid => o.forbids.push(self.lower_hook(x)?),
                Rule::object_replace => {
                    let mut label = None;
                    let mut body = None;
                    for y in x.into_inner() {
                        match y.as_rule() {
                            Rule::string => label = Some(self.string(y)?),
                            Rule::replace_body => body = Some(self.lower_replace_body(y)?),
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

    fn lower_ability(&self, p: P) -> Res<Ability> {
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
                        a.costs.push(self.lower_call(c)?);
                    }
                }
                Rule::target_clause => {
                    let mut t = x.into_inner();
                    let name = self.name(self.next(&mut t, xspan, "target")?);
                    let from = self.lower_expr(self.next(&mut t, xspan, "target")?)?;
                    let mut chosen_by = None;
                    let mut filter = None;
                    let mut prompt = None;
                    for y in t {
                        match y.as_rule() {
                            Rule::target_where => filter = Some(self.lower_inner_expr(y)?),
                            Rule::target_chooser => chosen_by = Some(self.lower_inner_expr(y)?),
                            Rule::string => prompt = Some(self.string(y)?),
                            _ => return Err(internal(xspan, "target")),
                        }
                    }
                    a.targets.push(Target { name, from, filter, chosen_by, prompt });
                }
                Rule::requires_clause => a.requires = Some(self.lower_inner_expr(x)?),
                Rule::do_clause => a.body = Some(self.lower_do(x)?),
                _ => return Err(internal(xspan, "ability")),
            }
        }
        Ok(a)
    }

    // -----------------------------------------------------------------------------------------
    // Statements

    fn lower_block(&self, p: P) -> Res<Block> {
        let span = self.span(&p);
        let stmts = p.into_inner().map(|s| self.lower_stmt(s)).collect::<Res<Vec<_>>>()?;
        Ok(Block { stmts, span })
    }

    fn lower_call(&self, p: P) -> Res<CallExpr> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(self.next(&mut it, span, "call")?);
        let args = it.map(|a| self.lower_expr(a)).collect::<Res<Vec<_>>>()?;
        Ok(CallExpr { name, args, span })
    }

    fn lower_face(&self, p: &P) -> Option<bool> {
        match p.as_rule() {
            Rule::face_up => Some(true),
            Rule::face_down => Some(false),
            _ => None,
        }
    }

    fn lower_create(&self, p: P) -> Res<Create> {
        let span = self.span(&p);
        self.lower_create_from_iter(span, p.into_inner())
    }

    fn lower_choose(&self, p: P) -> Res<Choose> {
        let span = self.span(&p);
        self.lower_choose_from_iter(span, p.into_inner())
    }

    fn lower_stmt(&self, p: P) -> Res<Stmt> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner();
        let kind = match rule {
            Rule::let_stmt => {
                let name = self.name(self.next(&mut it, span, "let")?);
                let v = self.next(&mut it, span, "let")?;
                let vspan = self.span(&v);
                let value = match v.as_rule() {
                    Rule::call_stmt => LetValue::Call(self.lower_call(self.next(&mut v.into_inner(), vspan, "call")?)?),
                    Rule::choose_stmt => LetValue::Choose(Box::new(self.lower_choose(v)?)),
                    Rule::roll_expr => LetValue::Roll(self.lower_inner_expr(v)?),
                    Rule::pick_expr => LetValue::Pick(self.lower_inner_expr(v)?),
                    Rule::create_stmt => LetValue::Create(Box::new(self.lower_create(v)?)),
                    _ => LetValue::Expr(self.lower_expr(v)?),
                };
                StmtKind::Let { name, value }
            }
            Rule::assign_stmt => {
                let place_pair = self.next(&mut it, span, "assignment")?;
                let place = place_pair.into_inner().map(|n| self.name(n)).collect();
                let op_pair = self.next(&mut it, span, "assignment")?;
                let op_span = self.span(&op_pair);
                let op = match op_pair.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                let value = self.lower_expr(self.next(&mut it, span, "assignment")?)?;
                StmtKind::Assign { place, op: Spanned::new(op, op_span), value }
            }
            Rule::if_stmt => {
                let mut arms = Vec::new();
                let mut otherwise = None;
                let parts: Vec<P> = it.collect();
                let mut i = 0;
                while i < parts.len() {
                    let a = parts.get(i).cloned().ok_or_else(|| internal(span, "if"))?;
                    if a.as_rule() == Rule::block {
                        otherwise = Some(self.lower_block(a)?);
                        i += 1;
                    } else {
                        let b = parts.get(i + 1).cloned().ok_or_else(|| internal(span, "if"))?;
                        arms.push((self.lower_expr(a)?, self.lower_block(b)?));
                        i += 2;
                    }
                }
                StmtKind::If { arms, otherwise }
            }
            Rule::for_stmt => {
                let _ = it.next();
                let var = self.name(self.next(&mut it, span, "for")?);
                let list = self.lower_expr(self.next(&mut it, span, "for")?)?;
                let body = self.lower_block(self.next(&mut it, span, "for")?)?;
                StmtKind::For { var, list, body }
            }
            Rule::while_stmt => {
                let cond = self.lower_expr(self.next(&mut it, span, "while")?)?;
                let body = self.lower_block(self.next(&mut it, span, "while")?)?;
                StmtKind::While { cond, body }
            }
            Rule::repeat_stmt => {
                let count = self.lower_expr(self.next(&mut it, span, "repeat")?)?;
                let body = self.lower_block(self.next(&mut it, span, "repeat")?)?;
                StmtKind::Repeat { count, body }
            }
            Rule::return_stmt => StmtKind::Return(it.next().map(|e| self.lower_expr(e)).transpose()?),
            Rule::call_stmt => StmtKind::Call(self.lower_call(self.next(&mut it, span, "call")?)?),
            Rule::choose_stmt => StmtKind::Choose(Box::new(self.lower_choose_from_iter(span, it)?)),
            Rule::move_stmt => {
                let what = self.lower_expr(self.next(&mut it, span, "move")?)?;
                let to = self.lower_expr(self.next(&mut it, span, "move")?)?;
                let mut flags = Vec::new();
                for f in it {
                    let fspan = self.span(&f);
                    let flag = match f.as_str() {
                        "top" => MoveFlag::Top,
                        "bottom" => MoveFlag::Bottom,
                        _ => match f.into_inner().next().map(|x| x.as_rule()) {
                            Some(Rule::face_up) => MoveFlag::FaceUp,
                            _ => MoveFlag::FaceDown,
                        },
                    };
                    flags.push(Spanned::new(flag, fspan));
                }
                StmtKind::Move { what, to, flags }
            }
            Rule::put_stmt => {
                let what = self.lower_expr(self.next(&mut it, span, "put")?)?;
                let under = self.next(&mut it, span, "put")?.as_str() == "under";
                let target = self.lower_expr(self.next(&mut it, span, "put")?)?;
                StmtKind::Put { what, under, target }
            }
            Rule::turn_stmt => {
                let what = self.lower_expr(self.next(&mut it, span, "turn")?)?;
                let up = self.next(&mut it, span, "turn")?.as_rule() == Rule::face_up;
                StmtKind::Turn { what, up }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.lower_expr(self.next(&mut it, span, "shuffle")?)?),
            Rule::modify_stmt => {
                let place_pair = self.next(&mut it, span, "modify")?;
                let pspan = self.span(&place_pair);
                let mut names: Vec<Name> = place_pair.into_inner().map(|n| self.name(n)).collect();
                let field = names.pop().ok_or_else(|| internal(pspan, "modify"))?;
                if names.is_empty() {
                    return Err(Diag::error(pspan, "`modify` needs an object and a field, like `modify f.power += 2`"));
                }
                let target = place_to_expr(&names);
                let op = self.lower_modify_op(self.next(&mut it, span, "modify")?)?;
                let value = self.lower_expr(self.next(&mut it, span, "modify")?)?;
                let until = it.next().map(|u| self.name(u));
                StmtKind::Modify { target, field, op, value, until }
            }
            Rule::expire_stmt => StmtKind::Expire(self.name(self.next(&mut it, span, "expire")?)),
            Rule::signal_stmt => StmtKind::Signal(self.lower_call(self.next(&mut it, span, "signal")?)?),
            Rule::log_stmt => StmtKind::Log(self.spanned_strlit(self.next(&mut it, span, "log")?)?),
            Rule::win_stmt | Rule::lose_stmt => {
                let who = self.lower_expr(self.next(&mut it, span, "win")?)?;
                let reason = self.spanned_strlit(self.next(&mut it, span, "win")?)?;
                if rule == Rule::win_stmt { StmtKind::Win { who, reason } } else { StmtKind::Lose { who, reason } }
            }
            Rule::draw_stmt => StmtKind::Draw(self.spanned_strlit(self.next(&mut it, span, "end draw")?)?),
            Rule::reveal_stmt => {
                let what = self.lower_expr(self.next(&mut it, span, "reveal")?)?;
                let to = it.next().map(|e| self.lower_expr(e)).transpose()?;
                StmtKind::Reveal { what, to }
            }
            Rule::create_stmt => StmtKind::Create(Box::new(self.lower_create_from_iter(span, it)?)),
            Rule::run_ability_stmt => StmtKind::Use(self.lower_expr(self.next(&mut it, span, "use")?)?),
            Rule::run_stmt => StmtKind::Run(self.lower_call(self.next(&mut it, span, "run")?)?),
            Rule::answer_stmt => {
                let who = self.lower_expr(self.next(&mut it, span, "answer")?)?;
                let value = self.lower_expr(self.next(&mut it, span, "answer")?)?;
                StmtKind::Answer { who, value }
            }
            Rule::random_stmt => {
                let r = self.next(&mut it, span, "random")?;
                let rspan = self.span(&r);
                let script = match r.as_rule() {
                    Rule::random_roll => RandomScript::Roll(self.lower_inner_expr(r)?),
                    Rule::random_keep => RandomScript::Keep,
                    Rule::random_order => RandomScript::Order(self.lower_inner_expr(r)?),
                    Rule::random_pick => RandomScript::Pick(self.lower_inner_expr(r)?),
                    _ => return Err(internal(rspan, "random")),
                };
                StmtKind::Random(script)
            }
            Rule::expect_stmt => {
                let e = self.next(&mut it, span, "expect")?;
                let espan = self.span(&e);
                let expect = match e.as_rule() {
                    Rule::expect_options => {
                        let mut x = e.into_inner();
                        let who = self.lower_expr(self.next(&mut x, espan, "expect options")?)?;
                        let labels = self.lower_expr(self.next(&mut x, espan, "expect options")?)?;
                        Expect::Options { who, labels }
                    }
                    Rule::expect_finished => Expect::Finished,
                    Rule::expect_decision => {
                        let mut x = e.into_inner();
                        let who = self.lower_expr(self.next(&mut x, espan, "expect decision")?)?;
                        let prompt = x.next().map(|s| self.string(s)).transpose()?;
                        Expect::Decision { who, prompt }
                    }
                    Rule::expect_log => Expect::Log(self.lower_inner_expr(e)?),
                    Rule::expect_deck => {
                        let mut x = e.into_inner();
                        let name = self.string(self.next(&mut x, espan, "expect deck")?)?;
                        let v = self.next(&mut x, espan, "expect deck")?;
                        let valid = v.as_rule() == Rule::deck_valid;
                        let fragment = v.into_inner().next().map(|s| self.string(s)).transpose()?;
                        Expect::Deck { name, valid, fragment }
                    }
                    Rule::expect_expr => {
                        let mut x = e.into_inner();
                        let cond = self.lower_expr(self.next(&mut x, espan, "expect")?)?;
                        let message = x.next().map(|s| self.spanned_strlit(s)).transpose()?;
                        Expect::True { cond, message }
                    }
                    _ => return Err(internal(espan, "expect")),
                };
                StmtKind::Expect(expect)
            }
            Rule::stop_stmt => StmtKind::Stop,
            _ => return Err(internal(span, "statement")),
        };
        Ok(Spanned::new(kind, span))
    }

    fn lower_choose_from_iter(&self, span: Span, it: Pairs<Rule>) -> Res<Choose> {
        let parts: Vec<P> = it.collect();
        let mut secret = false;
        let mut idx = 0;
        if parts.first().map(|p| p.as_rule()) == Some(Rule::secret_mark) {
            secret = true;
            idx = 1;
        }
        let who = self.lower_expr(parts.get(idx).cloned().ok_or_else(|| internal(span, "choose"))?)?;
        let prompt = self.spanned_strlit(parts.get(idx + 1).cloned().ok_or_else(|| internal(span, "choose"))?)?;
        let form_pair = parts.get(idx + 2).cloned().ok_or_else(|| internal(span, "choose"))?;
        let form = self.lower_choose_form(form_pair)?;
        Ok(Choose { secret, who, prompt, form })
    }

    fn lower_choose_form(&self, form_pair: P) -> Res<ChooseForm> {
        let fspan = self.span(&form_pair);
        Ok(match form_pair.as_rule() {
            Rule::choose_from => {
                let mut count = ChooseCount::One;
                let mut list = None;
                let mut none = None;
                for x in form_pair.into_inner() {
                    let xspan = self.span(&x);
                    match x.as_rule() {
                        Rule::choose_count => {
                            let c = self.next(&mut x.into_inner(), xspan, "choose count")?;
                            let cspan = self.span(&c);
                            count = match c.as_rule() {
                                Rule::choose_up_to => {
                                    ChooseCount::UpTo(self.lower_expr(self.next(&mut c.into_inner(), cspan, "up to")?)?)
                                }
                                Rule::choose_order => ChooseCount::Order,
                                _ => ChooseCount::Exactly(self.lower_expr(c)?),
                            };
                        }
                        Rule::expr => list = Some(self.lower_expr(x)?),
                        Rule::choose_none => {
                            let s = self.next(&mut x.into_inner(), xspan, "else")?;
                            none = Some(self.spanned_strlit(s)?);
                        }
                        _ => return Err(internal(xspan, "choose")),
                    }
                }
                let list = list.ok_or_else(|| internal(fspan, "choose"))?;
                ChooseForm::From { count: Box::new(count), list: Box::new(list), none }
            }
            _ => {
                let mut branches = Vec::new();
                for b in form_pair.into_inner() {
                    let bspan = self.span(&b);
                    let mut bi = b.into_inner();
                    let label = self.spanned_strlit(self.next(&mut bi, bspan, "choice")?)?;
                    let mut cond = None;
                    let mut body = None;
                    for y in bi {
                        match y.as_rule() {
                            Rule::expr => cond = Some(self.lower_expr(y)?),
                            Rule::block => body = Some(self.lower_block(y)?),
                            _ => return Err(internal(bspan, "choice")),
                        }
                    }
                    let body = body.ok_or_else(|| internal(bspan, "choice"))?;
                    branches.push(Branch { label, cond, body });
                }
                ChooseForm::Branches(branches)
            }
        })
    }

    fn lower_create_from_iter(&self, span: Span, mut it: Pairs<Rule>) -> Res<Create> {
        let def = self.lower_expr(self.next(&mut it, span, "create")?)?;
        let zone = self.lower_expr(self.next(&mut it, span, "create")?)?;
        let mut owner = None;
        let mut face_up = None;
        for x in it {
            match x.as_rule() {
                Rule::owned_by => owner = Some(self.lower_inner_expr(x)?),
                _ => face_up = self.lower_face(&x),
            }
        }
        Ok(Create { def, owner, zone, face_up })
    }

    // -----------------------------------------------------------------------------------------
    // Expressions

    fn lower_expr(&self, p: P) -> Res<Expr> {
        let span = self.span(&p);
        if p.as_rule() != Rule::expr && p.as_rule() != Rule::term {
            return self.lower_primary(p);
        }
        pratt()
            .map_primary(|x| self.lower_primary(x))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let s = self.span(&op).to(rhs.span);
                let op = if op.as_rule() == Rule::neg { UnOp::Neg } else { UnOp::Not };
                Ok(Spanned::new(ExprKind::Unary { op, expr: Box::new(rhs) }, s))
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let ospan = self.span(&op);
                let field = self.next(&mut op.into_inner(), ospan, "field")?;
                let field = self.name(field);
                let s = lhs.span.to(ospan);
                Ok(Spanned::new(ExprKind::Field { base: Box::new(lhs), field }, s))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let s = lhs.span.to(rhs.span);
                let op = match op.as_rule() {
                    Rule::or_op => BinOp::Or,
                    Rule::and_op => BinOp::And,
                    Rule::eq => BinOp::Eq,
                    Rule::ne => BinOp::Ne,
                    Rule::lt => BinOp::Lt,
                    Rule::le => BinOp::Le,
                    Rule::gt => BinOp::Gt,
                    Rule::ge => BinOp::Ge,
                    Rule::in_op => BinOp::In,
                    Rule::not_in => BinOp::NotIn,
                    Rule::has_op => BinOp::Has,
                    Rule::add => BinOp::Add,
                    Rule::sub => BinOp::Sub,
                    Rule::mul => BinOp::Mul,
                    Rule::div => BinOp::Div,
                    Rule::rem => BinOp::Rem,
                    _ => return Err(internal(span, "operator")),
                };
                Ok(Spanned::new(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, s))
            })
            .parse(p.into_inner())
    }

    fn lower_primary(&self, p: P) -> Res<Expr> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let kind = match rule {
            Rule::int => ExprKind::Int(self.int(&p)?),
            Rule::string => ExprKind::Str(self.strlit(p)?),
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::none_lit => ExprKind::None,
            Rule::you => ExprKind::You,
            Rule::self_ref => ExprKind::SelfRef,
            Rule::var => ExprKind::Var(p.as_str().to_string()),
            Rule::paren => return self.lower_inner_expr(p),
            Rule::call_expr => ExprKind::Call(self.lower_call(p)?),
            Rule::proc_ref => ExprKind::ProcRef(self.name(self.next(&mut p.into_inner(), span, "proc")?)),
            Rule::if_expr => {
                let mut it = p.into_inner();
                let cond = self.lower_expr(self.next(&mut it, span, "if")?)?;
                let then = self.lower_expr(self.next(&mut it, span, "if")?)?;
                let otherwise = self.lower_expr(self.next(&mut it, span, "if")?)?;
                ExprKind::If { cond: Box::new(cond), then: Box::new(then), otherwise: Box::new(otherwise) }
            }
            Rule::quant_expr => {
                let mut it = p.into_inner();
                let any = self.next(&mut it, span, "any")?.as_str() == "any";
                let var = self.name(self.next(&mut it, span, "any")?);
                let list = self.lower_expr(self.next(&mut it, span, "any")?)?;
                let cond = self.lower_expr(self.next(&mut it, span, "any")?)?;
                ExprKind::Quant { any, var, list: Box::new(list), cond: Box::new(cond) }
            }
            Rule::lambda => {
                let parts: Vec<P> = p.into_inner().collect();
                let (body, params) = parts.split_last().ok_or_else(|| internal(span, "lambda"))?;
                let params = params.iter().map(|x| self.name(x.clone())).collect();
                ExprKind::Lambda { params, body: Box::new(self.lower_expr(body.clone())?) }
            }
            Rule::comprehension => {
                let inner = self.next(&mut p.into_inner(), span, "list")?;
                let ispan = self.span(&inner);
                let mut it = inner.clone().into_inner();
                match inner.as_rule() {
                    Rule::comp_filter => {
                        let var = self.name(self.next(&mut it, ispan, "list")?);
                        let list = self.lower_expr(self.next(&mut it, ispan, "list")?)?;
                        let cond = self.lower_expr(self.next(&mut it, ispan, "list")?)?;
                        ExprKind::Filter { var, list: Box::new(list), cond: Box::new(cond) }
                    }
                    _ => {
                        let expr = self.lower_expr(self.next(&mut it, ispan, "list")?)?;
                        let var = self.name(self.next(&mut it, ispan, "list")?);
                        let list = self.lower_expr(self.next(&mut it, ispan, "list")?)?;
                        let cond = it.next().map(|c| self.lower_expr(c)).transpose()?.map(Box::new);
                        ExprKind::Map { expr: Box::new(expr), var, list: Box::new(list), cond }
                    }
                }
            }
            Rule::list_lit => ExprKind::List(p.into_inner().map(|e| self.lower_expr(e)).collect::<Res<Vec<_>>>()?),
            Rule::expr => return self.lower_expr(p),
            _ => return Err(internal(span, "expression")),
        };
        Ok(Spanned::new(kind, span))
    }
}

/// `a.b.c` as the expression `a` with fields `b` and `c`.
fn place_to_expr(names: &[Name]) -> Expr {
    let mut iter = names.iter();
    let first = iter.next().map(|n| Spanned::new(ExprKind::Var(n.node.clone()), n.span));
    let mut e = first.unwrap_or_else(|| Spanned::new(ExprKind::None, Span::default()));
    for n in iter {
        let span = e.span.to(n.span);
        e = Spanned::new(ExprKind::Field { base: Box::new(e), field: n.clone() }, span);
    }
    e
}

fn push_text(parts: &mut Vec<StrPart>, t: &str) {
    if let Some(StrPart::Text(last)) = parts.last_mut() {
        last.push_str(t);
    } else {
        parts.push(StrPart::Text(t.to_string()));
    }
}
