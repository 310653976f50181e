//! A picture of the table as SVG, drawn from what the rules say is there.
//!
//! A game that wants pictures names a function in its header: `picture picture.items`. The
//! function returns a list of drawings, each a list whose first item says what it is:
//!
//! | drawing | meaning |
//! |---|---|
//! | `["area", shape]` | the play area (the picture's frame) |
//! | `["polygon", shape, style]` | a shape's outline and fill |
//! | `["wedge", pose, half_angle, radius, style]` | an arc from a pose, both sides of its heading |
//! | `["circle", point, radius, style]` | a circle |
//! | `["line", a, b, style]` | a segment |
//! | `["arrow", pose, length, style]` | an arrow along a pose's heading |
//! | `["text", point, text, style]` | a label |
//! | `["key", style, text]` | an entry of the legend: a swatch in that style, and what it means |
//! | `["key", style, text, "line"]` | the same with a line (`"dot"`: a disc) for a swatch |
//!
//! A style is SVG presentation attributes in CSS form: `"fill:#9cf;stroke:#036"`. Lengths are the
//! language's (micrometres); the picture is in millimetres, y up. The legend's entries are laid
//! out in rows under the table, in the order given.

use super::RtError;
use super::eval::{Evaluator, new_env};
use super::geometry as geo;
use super::state::State;
use arbiter_ir::Game;
use arbiter_ir::value::{Seat, Value};
use arbiter_syntax::budgets::PICTURE_LIMIT;
use arbiter_syntax::diag::Diag;
use arbiter_syntax::span::Span;

/// Why a picture of the table cannot be drawn.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PictureError {
    /// The game's header names no `picture` function.
    #[error("{game} has no picture: its game header names no `picture` function")]
    NoPicture { game: String },
    /// A picture function with more than one parameter (`what`: which, in words).
    #[error("{what} takes no parameter, or one: the player it is drawn for")]
    Parameters { what: &'static str, span: Span },
    /// The rules failed while drawing.
    #[error("{}", .0.message)]
    Rule(RtError),
    /// The picture function gave something else than a list.
    #[error("the picture function must return a list of drawings")]
    NotAList,
    /// A drawing whose first item names no kind of drawing.
    #[error("the picture has a drawing of an unknown kind `{0}`")]
    UnknownDrawing(String),
    /// The picture (`what`: which, in words) would be larger than `PICTURE_LIMIT`; `span`: its
    /// function.
    #[error("{what} drew more than {} MiB", PICTURE_LIMIT >> 20)]
    TooLarge { what: &'static str, span: Span },
}

impl PictureError {
    pub fn to_diag(&self) -> Diag {
        match self {
            PictureError::NoPicture { game } => Diag::error(Span::NONE, format!("{game} has no picture"))
                .help("name a function in the game's header that draws the table: `picture picture.items`"),
            PictureError::Parameters { span, .. } => Diag::error(*span, self.to_string())
                .label("this function")
                .help("give it no parameter (a table with nothing hidden), or one: the player it is drawn for (`none` for everything)"),
            PictureError::Rule(e) => e.to_diag(),
            PictureError::NotAList | PictureError::UnknownDrawing(_) => Diag::error(Span::NONE, self.to_string()).help(DRAWINGS),
            PictureError::TooLarge { span, .. } => Diag::error(*span, self.to_string())
                .label("this function")
                .help("a picture of the table is a few kilobytes: look for a text, a shape or a list of drawings that grows with the game"),
        }
    }
}

impl From<PictureError> for Diag {
    fn from(e: PictureError) -> Diag {
        e.to_diag()
    }
}

/// The help for a drawing that is not one.
const DRAWINGS: &str =
    "a picture is a list of drawings, each a list whose first item says what it is: area, polygon, wedge, circle, line, arrow, text or key";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The drawings the game's picture function gives for this state, as `viewer` may see it (`None`:
/// everything). A picture function takes no parameter (a table with nothing hidden) or one: the
/// player it is drawn for, `none` for everything; it decides what that player may see with
/// `knows(viewer, o)`.
pub fn drawings(game: &Game, st: &State, viewer: Option<Seat>) -> Result<Vec<Vec<Value>>, PictureError> {
    let Some(f) = game.picture else {
        return Err(PictureError::NoPicture { game: game.name.clone() });
    };
    let v = call_picture(game, st, f, viewer, "a picture function")?;
    let Value::List(items) = v else { return Err(PictureError::NotAList) };
    Ok(items
        .iter()
        .filter_map(|d| match d {
            Value::List(parts) => Some(parts.iter().cloned().collect()),
            _ => None,
        })
        .collect())
}

/// Call a picture function (`what`, for its error): with no argument, or with the player it is
/// drawn for (`none` for everything).
fn call_picture(game: &Game, st: &State, f: arbiter_ir::FuncId, viewer: Option<Seat>, what: &'static str) -> Result<Value, PictureError> {
    let def = game.funcs.get(f as usize);
    let args = match def.map(|d| d.params.len()) {
        Some(0) => vec![],
        Some(1) => vec![viewer.map_or(Value::None, Value::Player)],
        _ => return Err(PictureError::Parameters { what, span: def.map_or(Span::NONE, |d| d.info.span) }),
    };
    let env = new_env(0, vec![], None, None);
    Evaluator::new(game, st).call_func(f, args, &env, Span::default()).map_err(PictureError::Rule)
}

/// The table as lines of text, as `viewer` may see it (`None`: everything): what the game's
/// `text_picture` function returns, a text or a list of texts (one per line). Like `picture`, the
/// function takes no parameter or one, the player it is drawn for. `None` when the game has no
/// text picture.
pub fn text(game: &Game, st: &State, viewer: Option<Seat>) -> Option<Result<String, PictureError>> {
    let f = game.text_picture?;
    let v = match call_picture(game, st, f, viewer, "a text picture function") {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let lines = match &v {
        Value::List(lines) => lines.as_slice(),
        other => std::slice::from_ref(other),
    };
    let mut out = String::new();
    for v in lines {
        match v {
            Value::Text(t) => out.push_str(t.trim_end()),
            other => out.push_str(Evaluator::new(game, st).label_clipped(other, PICTURE_LIMIT).trim_end()),
        }
        out.push('\n');
        // Past the limit, the lines after are not made at all (a list of a thousand one-megabyte
        // texts).
        if out.len() > PICTURE_LIMIT {
            return Some(Err(too_large(game, f, "a text picture function")));
        }
    }
    Some(Ok(out))
}

/// The error of a picture function `f` that drew more than `PICTURE_LIMIT`.
fn too_large(game: &Game, f: arbiter_ir::FuncId, what: &'static str) -> PictureError {
    PictureError::TooLarge { what, span: game.funcs.get(f as usize).map_or(Span::NONE, |d| d.info.span) }
}

/// The table as `seat` sees it, in text: the game's own text picture (`text_picture` in its
/// header), or else every zone and field the seat may see.
pub fn table_text(game: &Game, st: &State, seat: Seat) -> String {
    match text(game, st, Some(seat)) {
        Some(Ok(text)) => text,
        Some(Err(e)) => format!("(the game's text picture failed: {e})\n{}", super::view::view(game, st, Some(seat))),
        None => super::view::view(game, st, Some(seat)),
    }
}

/// The table as an SVG document, as `viewer` may see it (`None`: everything).
pub fn svg(game: &Game, st: &State, title: &str, viewer: Option<Seat>) -> Result<String, PictureError> {
    let items = drawings(game, st, viewer)?;
    let large = || too_large(game, game.picture.unwrap_or_default(), "a picture function");
    // The legend's texts are copied before it is drawn: measure them first.
    let keyed = items.iter().filter(|d| text_of(d.first()) == "key").flat_map(|d| d.iter().skip(1).take(3)).map(text_len);
    if keyed.fold(0usize, usize::saturating_add) > PICTURE_LIMIT {
        return Err(large());
    }
    let frame = Frame::around(&items);
    let keys: Vec<Key> = items
        .iter()
        .filter(|d| text_of(d.first()) == "key")
        .map(|d| Key { style: text_of(d.get(1)), text: text_of(d.get(2)), shape: text_of(d.get(3)) })
        .collect();
    let (legend, legend_h) = legend(&keys, frame.width, frame.height);
    let h = frame.height + legend_h;
    let w = frame.width;
    let mut out = String::new();
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}mm\" height=\"{}mm\" font-family=\"sans-serif\">\n",
        num(w),
        num(h),
        num(w),
        num(h)
    ));
    out.push_str(&format!("<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#0b1020\"/>\n", esc(title)));
    for d in &items {
        if out.len() > PICTURE_LIMIT {
            return Err(large());
        }
        draw(&frame, d, &mut out)?;
    }
    out.push_str(&legend);
    if out.len() > PICTURE_LIMIT {
        return Err(large());
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// Where the table is drawn: its left and top edges in the rules' micrometres, and its size in
/// millimetres.
struct Frame {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
}

impl Frame {
    /// The frame around the play area if one is drawn, else around everything drawn, with a
    /// margin.
    fn around(items: &[Vec<Value>]) -> Frame {
        let mut pts: Vec<geo::Point> = Vec::new();
        for d in items {
            if text_of(d.first()) == "area" {
                pts.extend(shape_of(d.get(1)));
            }
        }
        if pts.is_empty() {
            for d in items {
                pts.extend(shape_of(d.get(1)));
                if let Some(p) = pose_of(d.get(1)) {
                    pts.push(p.p());
                }
            }
        }
        if pts.is_empty() {
            pts.push(geo::Point { x: 0.0, y: 0.0 });
        }
        let (minx, maxx) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.x), b.max(p.x)));
        let (miny, maxy) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.y), b.max(p.y)));
        let margin = 10_000.0;
        Frame {
            left: minx - margin,
            top: maxy + margin,
            width: (maxx - minx + 2.0 * margin) / 1000.0,
            height: (maxy - miny + 2.0 * margin) / 1000.0,
        }
    }

    /// A point of the table in the picture's millimetres (y down), as SVG numbers.
    fn px(&self, p: geo::Point) -> (String, String) {
        (num((p.x - self.left) / 1000.0), num((self.top - p.y) / 1000.0))
    }
}

/// One drawing of the picture function's list, as SVG (a `key` is drawn in the legend).
fn draw(frame: &Frame, d: &[Value], out: &mut String) -> Result<(), PictureError> {
    let px = |p: geo::Point| frame.px(p);
    let kind = text_of(d.first());
    match kind.as_str() {
        "area" | "polygon" => {
            let s = shape_of(d.get(1));
            let style = if kind == "area" { "fill:#111a33;stroke:#556;stroke-width:1".to_string() } else { text_of(d.get(2)) };
            let points: Vec<String> = s.iter().map(|p| px(*p)).map(|(a, b)| format!("{a},{b}")).collect();
            out.push_str(&format!("<polygon points=\"{}\" style=\"{}\"/>\n", points.join(" "), esc(&style)));
        }
        "wedge" => {
            let (Some(p), half, r) = (pose_of(d.get(1)), int_of(d.get(2)), int_of(d.get(3)) as f64) else { return Ok(()) };
            let style = text_of(d.get(4));
            let mut path = vec![];
            let (cx, cy) = px(p.p());
            path.push(format!("M{cx},{cy}"));
            let steps = 24;
            for k in 0..=steps {
                let a = p.h - half + (2 * half) * k / steps;
                let (s, c) = geo::sin_cos(a);
                let (qx, qy) = px(geo::Point { x: p.x as f64 + r * c, y: p.y as f64 + r * s });
                path.push(format!("L{qx},{qy}"));
            }
            path.push("Z".into());
            out.push_str(&format!("<path d=\"{}\" style=\"{}\"/>\n", path.join(" "), esc(&style)));
        }
        "circle" => {
            let Some(p) = pose_of(d.get(1)) else { return Ok(()) };
            let (cx, cy) = px(p.p());
            out.push_str(&format!(
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" style=\"{}\"/>\n",
                num(int_of(d.get(2)) as f64 / 1000.0),
                esc(&text_of(d.get(3)))
            ));
        }
        "line" => {
            let (Some(a), Some(b)) = (pose_of(d.get(1)), pose_of(d.get(2))) else { return Ok(()) };
            let ((ax, ay), (bx, by)) = (px(a.p()), px(b.p()));
            out.push_str(&format!("<line x1=\"{ax}\" y1=\"{ay}\" x2=\"{bx}\" y2=\"{by}\" style=\"{}\"/>\n", esc(&text_of(d.get(3)))));
        }
        "arrow" => {
            let Some(p) = pose_of(d.get(1)) else { return Ok(()) };
            let len = int_of(d.get(2));
            let tip = geo::step(p, len, 0, 0);
            let l = geo::step(tip, -len / 4, len / 8, 0);
            let r = geo::step(tip, -len / 4, -len / 8, 0);
            let ((ax, ay), (bx, by), (lx, ly), (rx, ry)) = (px(p.p()), px(tip.p()), px(l.p()), px(r.p()));
            let style = esc(&text_of(d.get(3)));
            out.push_str(&format!("<line x1=\"{ax}\" y1=\"{ay}\" x2=\"{bx}\" y2=\"{by}\" style=\"{style}\"/>\n"));
            out.push_str(&format!("<polyline points=\"{lx},{ly} {bx},{by} {rx},{ry}\" style=\"fill:none;{style}\"/>\n"));
        }
        "text" => {
            let Some(p) = pose_of(d.get(1)) else { return Ok(()) };
            let (x, y) = px(p.p());
            out.push_str(&format!("<text x=\"{x}\" y=\"{y}\" style=\"{}\">{}</text>\n", esc(&text_of(d.get(3))), esc(&text_of(d.get(2)))));
        }
        "key" => {}
        other => return Err(PictureError::UnknownDrawing(other.to_string())),
    }
    Ok(())
}

/// A drawing's part as a pose (none when it is not one).
fn pose_of(v: Option<&Value>) -> Option<geo::Pose> {
    match v {
        Some(Value::Pose(p)) => {
            let [x, y, h] = **p;
            Some(geo::Pose { x, y, h })
        }
        _ => None,
    }
}

/// A drawing's part as a shape: its points (none when it is not a list of them).
fn shape_of(v: Option<&Value>) -> Vec<geo::Point> {
    match v {
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|p| {
                if let Value::Pose(p) = p {
                    let [x, y, _] = **p;
                    Some(geo::Point { x: x as f64, y: y as f64 })
                } else {
                    None
                }
            })
            .collect(),
        _ => vec![],
    }
}

/// A drawing's part as a whole number (0 when it is not one).
fn int_of(v: Option<&Value>) -> i64 {
    match v {
        Some(Value::Int(i)) => *i,
        _ => 0,
    }
}

/// How long a drawing's part is as a text (0 when it is not one).
fn text_len(v: &Value) -> usize {
    match v {
        Value::Text(t) => t.len(),
        _ => 0,
    }
}

/// A drawing's part as a text (empty when it is not one).
fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::Text(t)) => t.to_string(),
        _ => String::new(),
    }
}

/// An entry of a picture's legend: a swatch (a box, a `line` or a `dot`) in a style, and its text.
struct Key {
    style: String,
    text: String,
    shape: String,
}

/// The legend under a table `w` mm wide and `top` mm high: each entry a swatch in its style and
/// its text, in rows as wide as the table; the SVG, and its height in mm. It is drawn larger under
/// a wide table, so that it reads as well as the table when the picture is shrunk to a screen.
fn legend(keys: &[Key], w: f64, top: f64) -> (String, f64) {
    if keys.is_empty() {
        return (String::new(), 0.0);
    }
    let k = (w / 210.0).max(1.0);
    // Its letters at least a 60th of the table's width, so that it reads as the table does. Text
    // 3.5 mm high is about 1.9 mm a letter; a swatch is 4 mm, then 2 mm, then the text.
    let (font, swatch, row, margin) = (3.5 * k, 4.0 * k, 7.0 * k, 10.0);
    let mut out = format!(
        "<g class=\"legend\"><text x=\"{}\" y=\"{}\" style=\"fill:#aab;font-size:{}px\">legend</text>\n",
        num(margin),
        num(top + 3.0 * k),
        num(3.0 * k)
    );
    let (mut x, mut y) = (margin, top + 5.0 * k);
    for key in keys {
        let (style, label) = (esc(&key.style), esc(&key.text));
        let width = swatch + 2.0 * k + font * 0.55 * key.text.chars().count() as f64 + 6.0 * k;
        if x > margin && x + width > w - margin {
            x = margin;
            y += row;
        }
        let mid = y + swatch / 2.0;
        out.push_str(&match key.shape.as_str() {
            "line" => {
                format!("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" style=\"{style}\"/>", num(x), num(mid), num(x + swatch), num(mid))
            }
            "dot" => {
                format!("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" style=\"{style}\"/>", num(x + swatch / 2.0), num(mid), num(swatch / 2.0))
            }
            _ => {
                format!("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" style=\"{style}\"/>", num(x), num(y), num(swatch), num(swatch))
            }
        });
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" style=\"fill:#dde;font-size:{}px\">{}</text>\n",
            num(x + swatch + 2.0 * k),
            num(y + 0.85 * swatch),
            num(font),
            label
        ));
        x += width;
    }
    out.push_str("</g>\n");
    (out, y + row + 2.0 * k - top)
}

#[cfg(test)]
mod tests {
    use super::PictureError;
    use crate::RtError;
    use arbiter_syntax::diag::Diag;
    use arbiter_syntax::span::{FileId, Span};

    #[test]
    fn a_picture_that_cannot_be_drawn_is_a_diagnostic_with_its_message_help_and_place() {
        let e = PictureError::NoPicture { game: "chess".into() };
        assert_eq!(e.to_string(), "chess has no picture: its game header names no `picture` function");
        let d = Diag::from(e);
        assert_eq!(d.message, "chess has no picture");
        assert!(d.help.as_deref().is_some_and(|h| h.contains("`picture picture.items`")), "{:?}", d.help);
        // A function with too many parameters is shown where it is written.
        let at = Span::new(FileId::NOWHERE, 10, 20);
        let d = Diag::from(PictureError::Parameters { what: "a picture function", span: at });
        assert_eq!(d.message, "a picture function takes no parameter, or one: the player it is drawn for");
        assert_eq!(d.span, at);
        assert!(d.help.is_some());
        // A rule error drawing it is the rule error's own diagnostic.
        let rule = RtError::new("no such card".into(), at).with_help("look again");
        let e = PictureError::Rule(rule.clone());
        assert_eq!(e.to_string(), "no such card");
        assert_eq!(Diag::from(e), rule.to_diag());
        let d = Diag::from(PictureError::UnknownDrawing("blob".into()));
        assert_eq!(d.message, "the picture has a drawing of an unknown kind `blob`");
        assert!(d.help.as_deref().is_some_and(|h| h.contains("polygon")));
    }
}
