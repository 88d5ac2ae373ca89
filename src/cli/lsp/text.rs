//! Positions: the library's byte offsets, the protocol's lines and UTF-16 columns.

use lsp_types::{Position, Range};

/// Where the lines of a text start.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The position of a byte offset (past the end: the end; inside a character: its start).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, r: std::ops::Range<usize>) -> Range {
        Range::new(self.position(r.start), self.position(r.end.max(r.start)))
    }

    /// The byte offset of a position: a line past the last is the end of the text, a column
    /// past the end of its line is the end of the line, a column inside a character (between
    /// the two halves of a UTF-16 pair) is that character's start.
    pub fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return self.text.len();
        };
        let line = &self.text[start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            units += c.len_utf16();
            if units > p.character as usize {
                return start + i;
            }
        }
        start + line.len()
    }
}

/// The word (letters, digits, `_`) at or just before a byte offset, with its range.
pub fn word_at(text: &str, offset: usize) -> Option<(&str, std::ops::Range<usize>)> {
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let b = text.as_bytes();
    let offset = offset.min(b.len());
    let mut start = offset;
    while start > 0 && is_word(b[start - 1]) {
        start -= 1;
    }
    let mut end = offset;
    while end < b.len() && is_word(b[end]) {
        end += 1;
    }
    (start < end).then(|| (&text[start..end], start..end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        let text = "# é𝄞x\nab\r\ncd";
        let l = Lines::new(text);
        let x = text.find('x').unwrap();
        // `#`, space, `é` (1 unit), `𝄞` (2 units)
        assert_eq!(l.position(x), Position::new(0, 5));
        assert_eq!(l.offset(Position::new(0, 5)), x);
        // inside the pair: the character's start
        assert_eq!(l.offset(Position::new(0, 4)), text.find('𝄞').unwrap());
        assert_eq!(l.offset(Position::new(1, 99)), text.find("\r\n").unwrap());
        assert_eq!(l.offset(Position::new(9, 0)), text.len());
        assert_eq!(l.position(text.len() + 5), Position::new(2, 2));
        assert_eq!(l.position(text.find('𝄞').unwrap() + 1), Position::new(0, 3));
    }
}
