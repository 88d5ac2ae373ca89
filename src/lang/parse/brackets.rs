//! After a syntax error: the brackets `{`, `(` and `[` that are never closed, found by a scan of
//! the source that skips comments and strings, each reported at the bracket itself (pest reports
//! only where it stopped, which for a missing `}` may be far below, or at the end of the file).

use crate::ast::Span;
use crate::diagnostic::{Diagnostic, ErrorKind};
use crate::limits::MAX_NESTING;

/// At most this many unclosed brackets are reported.
const MAX_REPORTED: usize = 3;

fn closer_of(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// The indentation of the line a byte is on, in bytes, and whether only blanks come before it
/// on its line.
fn indentation(b: &[u8], at: usize) -> (usize, bool) {
    let start = b[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let indent = b[start..at]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    (indent, start + indent == at)
}

/// The open brackets that are never closed, as diagnostics at the brackets (none when every
/// bracket is closed, or when the brackets are too tangled to say).
///
/// Brackets pair as usual; a closer pairs with the nearest open bracket of its kind, and the
/// brackets opened inside that pair and still open are never closed. A missing `}` in the
/// middle of a file makes every later `}` close the block around the one intended, so the one
/// left open is an outer block; when a pair of the same kind inside it has its closer first on
/// its line at another indentation than its opener's line, that closer was meant for an outer
/// block, and its opener is reported instead.
pub(super) fn unclosed(source: &str) -> Vec<Diagnostic> {
    let b = source.as_bytes();
    let mut stack: Vec<usize> = vec![];
    let mut never: Vec<(usize, Option<usize>)> = vec![];
    // pairs whose closer is not indented like its opener's line: (opener, closer)
    let mut askew: Vec<(usize, usize)> = vec![];
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' | b'"' => {
                i = crate::limits::skip_comment_or_string(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => {
                stack.push(i);
                if stack.len() > MAX_NESTING {
                    return vec![];
                }
            }
            c @ (b')' | b']' | b'}') => {
                // (a closer with nothing to close is the parser's to report)
                if let Some(k) = stack.iter().rposition(|&o| closer_of(b[o]) == c) {
                    never.extend(stack.drain(k + 1..).map(|o| (o, Some(i))));
                    if let Some(o) = stack.pop() {
                        let (at, first) = indentation(b, i);
                        if first && at != indentation(b, o).0 {
                            askew.push((o, i));
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    never.extend(stack.into_iter().map(|o| (o, None)));
    never.sort_unstable();
    let mut out: Vec<Diagnostic> = vec![];
    let mut taken: Vec<usize> = vec![];
    let line_of = |at: usize| b[..at].iter().filter(|&&c| c == b'\n').count() + 1;
    for (open, closed_by) in never.into_iter().take(MAX_REPORTED) {
        let close = closer_of(b[open]) as char;
        // the first askew pair of this kind inside the bracket left open
        let guess = askew
            .iter()
            .filter(|(o, c)| {
                *o > open
                    && b[*o] == b[open]
                    && closed_by.is_none_or(|x| *c < x)
                    && !taken.contains(o)
            })
            .min_by_key(|(_, c)| *c);
        let (at, hint) = match (guess, closed_by) {
            (Some(&(o, c)), _) => (
                o,
                format!(
                    "the `{close}` on line {} is indented as if it closed an outer block: is this one's `{close}` missing before it?",
                    line_of(c)
                ),
            ),
            (None, Some(c)) => (
                open,
                format!(
                    "the `{}` on line {} closes a bracket around it first",
                    b[c] as char,
                    line_of(c)
                ),
            ),
            (None, None) => (open, format!("the file ends before its `{close}`")),
        };
        taken.push(at);
        out.push(
            Diagnostic::new(
                ErrorKind::Unclosed {
                    bracket: b[at] as char,
                },
                Span {
                    start: at,
                    end: at + 1,
                },
            )
            .with_hint(hint),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unclosed;

    fn at(src: &str) -> Vec<usize> {
        unclosed(src).iter().map(|d| d.span.start).collect()
    }

    #[test]
    fn the_bracket_left_open_is_found() {
        assert_eq!(at("turn { if a { b }"), vec![5]);
        assert_eq!(at("turn { if a { b } }"), Vec::<usize>::new());
        // comments and strings are skipped
        assert_eq!(
            at("turn { # {\n x \"{\" \"\"\"(\n\"\"\" }"),
            Vec::<usize>::new()
        );
        // a bracket closed by the closer of the one around it
        assert_eq!(at("def d = (count(x } "), vec![8, 14]);
        // a missing `}` in the middle: the block whose `}` is indented as for an outer one
        let src = "turn {\n  if a {\n    if b {\n      c\n  }\n}\n";
        assert_eq!(at(src), vec![src.find("if b {").unwrap() + 5]);
    }
}
