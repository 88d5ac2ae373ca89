//! Errors as data: every problem the checker finds is a [`Diagnostic`]: a kind with structured
//! fields, the span it is about and an optional hint. All wording is in the `Display` impl;
//! rendering with file, line, column, source line and caret happens once, in [`render`].

use crate::ast::Span;
use std::fmt;

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ErrorKind {
    #[error("syntax error: expected {expected}")]
    Syntax { expected: String },
    #[error("unknown {what} `{name}`")]
    Unknown { what: &'static str, name: String },
    #[error("{what} `{name}` is defined twice")]
    Duplicate { what: &'static str, name: String },
    #[error("the file has no {what}")]
    Missing { what: &'static str },
    #[error("only one {what} is allowed")]
    TooMany { what: &'static str },
    #[error("expected {expected}, found {found}")]
    Type { expected: String, found: String },
    #[error("option `{name}` = {value} is out of range {lo}..{hi}")]
    OutOfRange {
        name: String,
        value: i64,
        lo: i64,
        hi: i64,
    },
    #[error("option `{name}` cannot be `{value}`: expected {expected}")]
    BadOptionValue {
        name: String,
        value: String,
        expected: String,
    },
    #[error("`{name}` takes {expected} argument(s), found {found}")]
    Arity {
        name: String,
        expected: usize,
        found: usize,
    },
    #[error("`{what}` is only allowed {place}")]
    Misplaced {
        what: &'static str,
        place: &'static str,
    },
    #[error("the range `{name}` is empty or too large")]
    BadRange { name: String },
    #[error("requirement failed: {message}")]
    Requirement { message: String },
    #[error("the two lists have different lengths ({left} and {right})")]
    Length { left: usize, right: usize },
    #[error("site `{name}` appears twice in the ring")]
    RingRepeat { name: String },
    #[error("cannot assign to this expression")]
    BadTarget,
    #[error("division by zero")]
    DivisionByZero,
    #[error("the result does not fit in a 64-bit number")]
    Overflow,
    #[error("`{name}` is defined in terms of itself")]
    Recursive { name: String },
    #[error("the value {value} does not fit ({what})")]
    TooLarge { value: i64, what: &'static str },
}

/// One problem, with where it is and, if we can tell, how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: ErrorKind,
    pub span: Span,
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn new(kind: ErrorKind, span: Span) -> Self {
        Diagnostic {
            kind,
            span,
            hint: None,
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
    /// A short machine-readable code for the kind: `unknown-name`, `syntax`, …
    pub fn code(&self) -> &'static str {
        match self.kind {
            ErrorKind::Syntax { .. } => "syntax",
            ErrorKind::Unknown { .. } => "unknown-name",
            ErrorKind::Duplicate { .. } => "duplicate",
            ErrorKind::Missing { .. } => "missing",
            ErrorKind::TooMany { .. } => "too-many",
            ErrorKind::Type { .. } => "type",
            ErrorKind::OutOfRange { .. } => "out-of-range",
            ErrorKind::BadOptionValue { .. } => "bad-option-value",
            ErrorKind::Arity { .. } => "arity",
            ErrorKind::Misplaced { .. } => "misplaced",
            ErrorKind::BadRange { .. } => "bad-range",
            ErrorKind::Requirement { .. } => "requirement",
            ErrorKind::Length { .. } => "length",
            ErrorKind::RingRepeat { .. } => "ring-repeat",
            ErrorKind::BadTarget => "bad-target",
            ErrorKind::DivisionByZero => "division-by-zero",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Recursive { .. } => "recursive",
            ErrorKind::TooLarge { .. } => "too-large",
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

/// All the problems of one file, sorted by position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn sorted(mut self) -> Self {
        self.0.sort_by_key(|d| (d.span.start, d.span.end));
        self.0.dedup();
        self
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = source[line_start..offset].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders one diagnostic the way a compiler does:
///
/// ```text
/// error: unknown site `s8`
///   --> games/x.game:12:13
///    |
/// 12 |     capture s8
///    |             ^^
///    = hint: did you mean `s7`?
/// ```
pub fn render_one(path: &str, source: &str, d: &Diagnostic) -> String {
    let (line, col) = line_col(source, d.span.start);
    let line_text = source.lines().nth(line - 1).unwrap_or("");
    let width = line.to_string().len();
    let pad = " ".repeat(width);
    let start = floor_char_boundary(source, d.span.start.min(source.len()));
    let end = floor_char_boundary(source, d.span.end.min(source.len())).max(start);
    let span_text = &source[start..end];
    let first_line_len = span_text.split('\n').next().unwrap_or("").chars().count();
    let rest_of_line = line_text.chars().count().saturating_sub(col - 1);
    let carets = first_line_len.min(rest_of_line).max(1);
    let mut out = format!(
        "error: {}\n{pad}--> {path}:{line}:{col}\n{pad} |\n{line} | {line_text}\n{pad} | {}{}\n",
        d,
        " ".repeat(col - 1),
        "^".repeat(carets)
    );
    if let Some(h) = &d.hint {
        out.push_str(&format!("{pad} = hint: {h}\n"));
    }
    out
}

/// Renders every diagnostic, then a summary line.
pub fn render(path: &str, source: &str, diags: &Diagnostics) -> String {
    let mut out = String::new();
    for d in &diags.0 {
        out.push_str(&render_one(path, source, d));
        out.push('\n');
    }
    let n = diags.len();
    out.push_str(&format!(
        "{path}: {n} error{}\n",
        if n == 1 { "" } else { "s" }
    ));
    out
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(&name.to_lowercase(), &c.to_lowercase());
        let limit = (name.chars().count().max(c.chars().count()) / 3).max(1);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn suggestions() {
        assert_eq!(suggest("s8", ["s7", "n1", "east"]), Some("s7".into()));
        assert_eq!(
            suggest("captur", ["capture", "count"]),
            Some("capture".into())
        );
        assert_eq!(suggest("zzzz", ["capture", "count"]), None);
    }
    #[test]
    fn positions() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
    }
}
