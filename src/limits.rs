//! The front end's limits: how large and how deeply nested a description may be, and how much
//! input the commands read. Each limit is an error with a position (or, for the size of a file,
//! a message naming it), never a crash: the stages after the parser recurse over what they read,
//! and the limits keep that recursion and the work of expanding `def`s and actions bounded
//! (grammar/README.md, "Limits").
//!
//! [`MAX_NESTING`] is checked before the parser runs, by the parser's pre-scan of the text
//! (`lang/parse/nesting.rs`).

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
