//! The formatter's own lexer: the words, numbers, strings, punctuation and comments of a
//! `.game` text, with where each is and how many line breaks come before it. It knows no
//! keyword and no rule of the grammar: what a token means comes from the syntax tree.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// a name or a word of the language: `sow`, `s1`, `max_turns`
    Word,
    /// `12`
    Number,
    /// `"…"` or `"""…"""`, kept byte for byte
    Str,
    /// `(`, `==`, `..`, `{`, any other sign
    Punct,
    /// `# …` to the end of its line (without its trailing blanks)
    Comment,
}

/// A token: its kind, its bytes and the line breaks between it and the token before.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    pub breaks_before: usize,
}

/// The signs of two characters, read as one token.
const PAIRS: [&str; 5] = ["==", "!=", "<=", ">=", ".."];

/// Every token of a text (an unterminated string runs to the end of its line, or of the text
/// for `"""`: the parser has refused such a text before the formatter reads it).
pub(super) fn lex(text: &str) -> Vec<Tok> {
    let bytes = text.as_bytes();
    let mut toks = vec![];
    let mut i = text.strip_prefix('\u{FEFF}').map_or(0, |_| 3);
    let mut breaks = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = match c {
            b'\n' => {
                breaks += 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                Kind::Comment
            }
            b'"' if text[i..].starts_with("\"\"\"") => {
                i = text[i + 3..]
                    .find("\"\"\"")
                    .map_or(bytes.len(), |n| i + 3 + n + 3);
                Kind::Str
            }
            b'"' => {
                let rest = &text[i + 1..];
                i = match rest.find(['"', '\n']) {
                    Some(n) if rest.as_bytes()[n] == b'"' => i + 1 + n + 1,
                    Some(n) => i + 1 + n,
                    None => bytes.len(),
                };
                Kind::Str
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                i = word_end(bytes, i);
                Kind::Word
            }
            c if c.is_ascii_digit() => {
                i = word_end(bytes, i);
                Kind::Number
            }
            _ => {
                i += if PAIRS.iter().any(|p| text[i..].starts_with(p)) {
                    2
                } else {
                    text[i..].chars().next().map_or(1, char::len_utf8)
                };
                Kind::Punct
            }
        };
        let end = if kind == Kind::Comment {
            start + text[start..i].trim_end().len()
        } else {
            i
        };
        toks.push(Tok {
            kind,
            start,
            end,
            breaks_before: breaks,
        });
        breaks = 0;
    }
    toks
}

fn word_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str, usize)> {
        lex(text)
            .iter()
            .map(|t| (t.kind, &text[t.start..t.end], t.breaks_before))
            .collect()
    }

    #[test]
    fn tokens_of_a_line() {
        let k = kinds("def f(x) = c[1..7] != -2  # why  \n\n\"a # b\" \"\"\"x\n\"y\"\"\"");
        let texts: Vec<&str> = k.iter().map(|t| t.1).collect();
        assert_eq!(
            texts,
            [
                "def",
                "f",
                "(",
                "x",
                ")",
                "=",
                "c",
                "[",
                "1",
                "..",
                "7",
                "]",
                "!=",
                "-",
                "2",
                "# why",
                "\"a # b\"",
                "\"\"\"x\n\"y\"\"\""
            ]
        );
        assert_eq!(k[15].0, Kind::Comment);
        assert_eq!(k[16].2, 2);
    }
}
