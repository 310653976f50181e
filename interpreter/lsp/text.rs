//! Positions as editors count them: a line and a column in UTF-16 code units (the protocol's
//! default), to and from the byte offsets spans hold.

use arbiter_syntax::span::SourceFile;
use lsp_types::{Position, Range};

/// The position of byte `offset` of `text` (clamped to the text, and back to a character
/// boundary). It reads the text from its start: for many positions in one file, [`range_in`].
pub fn position(text: &str, offset: usize) -> Position {
    let offset = boundary(text, offset);
    let before = text.get(..offset).unwrap_or("");
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    at(text, line, line_start, offset)
}

/// `offset` clamped to `text` and back to a character boundary.
fn boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Line `line` (starting at byte `line_start`), at byte `offset` of it: the column in UTF-16 units.
fn at(text: &str, line: usize, line_start: usize, offset: usize) -> Position {
    let column: usize = text.get(line_start..offset).unwrap_or("").chars().map(char::len_utf16).sum();
    Position { line: u32::try_from(line).unwrap_or(u32::MAX), character: u32::try_from(column).unwrap_or(u32::MAX) }
}

/// The range of bytes `start..end` of `text`.
pub fn range(text: &str, start: usize, end: usize) -> Range {
    Range { start: position(text, start), end: position(text, end.max(start)) }
}

/// The range of bytes `start..end` of a file, found with its line index: a reply with thousands
/// of places (a file's diagnostics, its outline, a name's references) read the file from its
/// start for each, and took minutes.
pub fn range_in(file: &SourceFile, start: usize, end: usize) -> Range {
    let pos = |o: usize| {
        let o = boundary(&file.text, o);
        let line = file.line_index(o);
        at(&file.text, line, file.line_start(line), o)
    };
    Range { start: pos(start), end: pos(end.max(start)) }
}

/// The byte offset of a position in `text` (a position past a line's end is its end; past the
/// last line, the text's end).
pub fn offset(text: &str, pos: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..pos.line {
        match text.get(line_start..).and_then(|rest| rest.find('\n')) {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line = text.get(line_start..).unwrap_or("");
    let line = line.split('\n').next().unwrap_or("");
    // A CRLF line ends before its `\r`.
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut units = 0u32;
    for (i, c) in line.char_indices() {
        if units >= pos.character {
            return line_start + i;
        }
        units += u32::try_from(c.len_utf16()).unwrap_or(1);
    }
    line_start + line.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "a\n\u{e9}t\u{1F600}x\n";
        assert_eq!(position(text, 0), Position { line: 0, character: 0 });
        assert_eq!(position(text, 2), Position { line: 1, character: 0 });
        // `é` is two bytes and one unit; the emoji four bytes and two units.
        let x = text.find('x').unwrap_or(0);
        assert_eq!(position(text, x), Position { line: 1, character: 4 });
        for at in [0, 1, 2, 4, x, text.len()] {
            assert_eq!(offset(text, position(text, at)), at, "byte {at}");
        }
        assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
        assert_eq!(offset(text, Position { line: 0, character: 99 }), 1);
        // Past the end of a CRLF line: before its `\r`.
        assert_eq!(offset("ab\r\ncd", Position { line: 0, character: 9 }), 2);
    }

    /// A file's line index gives the positions reading from the start gives.
    #[test]
    fn indexed_positions_are_the_positions() {
        let text = "a\n\u{e9}t\u{1F600}x\r\n\nlast";
        let file = arbiter_syntax::source_map::SourceMap::new().add("t.arb", text.to_string());
        for a in 0..=text.len() + 2 {
            for b in a..=text.len() + 2 {
                assert_eq!(range_in(&file, a, b), range(text, a, b), "{a}..{b}");
            }
        }
    }
}
