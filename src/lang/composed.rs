//! The format of a composed text: a game built on others (`game "…" from "base.game"`) read
//! as one text, a header naming each file and its length, then the files, the deepest base
//! first. `derive` writes it; `diagnostic` reads it to place a span in the file it came from.
//! It imports nothing of the crate, so both can use it without a circle.

/// Bases in a chain: a file, its base, the base's base… at most this many.
pub const MAX_BASES: usize = 8;

pub(crate) const HEADER: &str = "#composed ";
pub(crate) const PART: &str = "#part ";

/// A file of a composed text: its label and where its text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub path: String,
    pub start: usize,
    pub end: usize,
}

/// The files of a composed text, or `None` for a plain one (or a header that does not add
/// up: then it is only a comment).
pub fn parts(source: &str) -> Option<Vec<Part>> {
    let rest = source.strip_prefix(HEADER)?;
    let (n, mut rest) = rest.split_once('\n')?;
    let n: usize = n.trim().parse().ok()?;
    if !(2..=MAX_BASES + 1).contains(&n) {
        return None;
    }
    let mut sizes = vec![];
    for _ in 0..n {
        let (line, after) = rest.split_once('\n')?;
        let (len, path) = line.strip_prefix(PART)?.split_once(' ')?;
        sizes.push((len.parse::<usize>().ok()?, path.to_string()));
        rest = after;
    }
    let mut at = source.len() - rest.len();
    let mut out = vec![];
    for (len, path) in sizes {
        let end = at.checked_add(len)?;
        if end > source.len() || !source.is_char_boundary(end) {
            return None;
        }
        out.push(Part {
            path,
            start: at,
            end,
        });
        at = end;
    }
    (at == source.len()).then_some(out)
}
