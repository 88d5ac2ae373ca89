//! The front end's limits: how large and how deeply nested a description may be, and how much
//! input the commands read. Each limit is an error with a position (or, for the size of a file,
//! a message naming it), never a crash: the stages after the parser recurse over what they read,
//! and the limits keep that recursion and the work of expanding `def`s and actions bounded
//! (grammar/README.md, "Limits").
//!
//! [`prescan`] runs on the text before the parser: the parser recurses at each bracket and at
//! each nested `if`, `else`, `exists`, `forall`, `some`, `minimum`, `maximum`, `total` and `through`, so
//! those are counted first, cheaply, and a file nested too deeply never reaches it.

use crate::ast::Span;
use crate::diagnostic::{Diagnostic, ErrorKind};

/// The deepest nesting of brackets, blocks and expressions in a description (each operator of
/// an expression counts as a level, as it does in the tree the expression becomes).
pub const MAX_NESTING: usize = 256;
/// The deepest nesting once `def`s and actions are expanded where they are used.
pub const MAX_EXPANDED_NESTING: usize = 512;
/// How much lowering may do: expression nodes and statements built, `def`s and actions
/// expanded at each use included.
pub const MAX_EXPANSION: usize = 1_000_000;
/// The longest name (site, piece, side, option, …), in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// The largest `.game` file the commands read, in bytes.
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;
/// The largest game record the commands read, in bytes.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;
/// The longest line typed at `ludic play`, in bytes.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Words after which the parser goes one level deeper without a bracket.
const OPENERS: [&str; 10] = [
    "if", "then", "else", "exists", "forall", "some", "minimum", "maximum", "total", "through",
];

/// Words that can only start a statement, a declaration or a part of one that comes after any
/// expression before it has ended: the levels opened by [`OPENERS`] since the enclosing bracket
/// are closed there.
const RESETS: [&str; 33] = [
    "let", "set", "capture", "place", "sow", "choose", "relay", "end", "again", "first", "throw",
    "move", "carry", "send", "for", "do", "give", "while", "game", "option", "variant", "require",
    "sides", "players", "limit", "board", "pieces", "dice", "start", "def", "turn", "tally",
    "action",
];

fn too_deep(start: usize, end: usize) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::TooDeep {
            what: "brackets, blocks and nested expressions",
            limit: MAX_NESTING,
        },
        Span { start, end },
    )
    .with_hint("split the rule with `def`, `let` or `action`")
}

/// Checks, before parsing, that brackets and the nesting words the parser recurses on are not
/// nested more than [`MAX_NESTING`] levels deep; the error is at the first bracket or word past
/// the limit. Comments and strings are skipped. This counts at least as many levels as the
/// parser will recurse (a run of `if … then … else` expressions in one statement counts as
/// nested), so that nothing nested deeper reaches the parser.
pub fn prescan(source: &str) -> Result<(), Diagnostic> {
    let b = source.as_bytes();
    // One entry per open bracket (the first for the top level): the words of `OPENERS` seen at
    // that level since it opened or since the last statement ended.
    let mut open: Vec<usize> = vec![0];
    let mut depth = 0usize; // brackets + every entry of `open`
    let mut after_close = false;
    // an `if` or `else` of a statement, whose level is its block's `{` (not counted twice)
    let mut statement_head = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' => {
                i = skip_comment_or_string(b, i);
                continue;
            }
            b'"' => {
                i = skip_comment_or_string(b, i);
                after_close = false;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &source[start..i];
            let top = open.last_mut().expect("the top level");
            // A block closed and no `else` follows: the statement it ended is over.
            if (after_close && word != "else") || RESETS.contains(&word) {
                depth -= *top;
                *top = 0;
                statement_head = false;
            }
            after_close = false;
            match word {
                "if" | "else" => statement_head = true,
                "then" => statement_head = false,
                _ => {}
            }
            if OPENERS.contains(&word) {
                *top += 1;
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(start, i));
                }
            }
            continue;
        }
        after_close = false;
        match c {
            b'(' | b'[' | b'{' => {
                let top = open.last_mut().expect("the top level");
                if c == b'{' && statement_head && *top > 0 {
                    *top -= 1;
                    depth -= 1;
                }
                statement_head = false;
                open.push(0);
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(i, i + 1));
                }
            }
            b')' | b']' | b'}' if open.len() > 1 => {
                let levels = open.pop().expect("an open bracket");
                depth -= levels + 1;
                after_close = c == b'}';
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// A byte string shortened to at most `max` characters for a message, with `…` when cut.
pub fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((cut, _)) => format!("{}… ({} bytes in all)", &s[..cut], s.len()),
        None => s.to_string(),
    }
}

/// The index just after the comment (`#` to the end of the line) or string (`"…"` on one line,
/// `"""…"""` over several) that starts at `b[i]`: scans of the source that do not parse it skip
/// them alike. An unterminated one ends at the end of the source (or of its line).
pub(crate) fn skip_comment_or_string(b: &[u8], mut i: usize) -> usize {
    if b[i] == b'#' {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
        return i;
    }
    if b[i..].starts_with(b"\"\"\"") {
        i += 3;
        while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
            i += 1;
        }
        i + 3
    } else {
        i += 1;
        while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
            i += 1;
        }
        i + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_error(src: &str) -> Option<usize> {
        prescan(src).err().map(|d| d.span.start)
    }

    #[test]
    fn brackets_past_the_limit_are_refused_at_the_first_one_too_many() {
        let ok = format!("def d = {}1{}", "(".repeat(200), ")".repeat(200));
        assert_eq!(depth_error(&ok), None);
        let deep = format!("def d = {}1{}", "(".repeat(300), ")".repeat(300));
        assert_eq!(depth_error(&deep), Some(8 + MAX_NESTING));
        // brackets in comments and strings do not count
        let quiet = format!("# {}\ngame \"{}\" {{ }}", "(".repeat(999), "[".repeat(999));
        assert_eq!(depth_error(&quiet), None);
    }

    #[test]
    fn chains_of_nesting_words_count_and_statements_close_them() {
        let chain = format!("turn {{ {} }}", "if true { } else ".repeat(300) + "{ }");
        assert!(depth_error(&chain).is_some());
        let nested = |n: usize| format!("turn {{ {}{} }}", "if true { ".repeat(n), "} ".repeat(n));
        assert_eq!(depth_error(&nested(MAX_NESTING - 1)), None);
        assert!(depth_error(&nested(MAX_NESTING)).is_some());
        let expr = format!("def d = {} 1", "if true then 1 else ".repeat(300));
        assert!(depth_error(&expr).is_some());
        let flat = format!("turn {{ {} }}", "if true { end turn }\n".repeat(1000));
        assert_eq!(depth_error(&flat), None);
        let lets = format!(
            "turn {{ {} }}",
            "let x = if true then 1 else 2\n".repeat(1000)
        );
        assert_eq!(depth_error(&lets), None);
    }
}
