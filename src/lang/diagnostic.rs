//! Errors as data: every problem the checker finds is a [`Diagnostic`]: a kind with structured
//! fields, the span it is about and an optional hint. All wording is in the `Display` impl;
//! rendering with file, line, column, source line and caret happens once, in [`render`].

pub use crate::ast::Span;
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
        /// (boxed: a diagnostic stays small)
        expected: Box<str>,
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
    #[error("two decisions of this choice would both be written `{written}`")]
    AmbiguousNotation { written: String },
    #[error("nested more than {limit} levels deep ({what})")]
    TooDeep { what: &'static str, limit: usize },
    #[error("this name is {chars} characters long; a name has at most {limit}")]
    NameTooLong { chars: usize, limit: usize },
    #[error("{} makes the rules too large (more than {limit} parts once expanded)", match name { Some(n) => format!("`{n}` used here"), None => "this description".to_string() })]
    TooLargeExpansion { name: Option<String>, limit: usize },
    #[error("the description of label `{name}` is empty")]
    EmptyDescription { name: String },
    #[error("this `{bracket}` is never closed")]
    Unclosed { bracket: char },
    #[error("this description is {bytes} bytes long; a description has at most {limit}")]
    SourceTooLarge { bytes: usize, limit: u64 },
    #[error("site `{name}` appears twice in a line")]
    LineRepeat { name: String },
    #[error("{message}")]
    BaseGame { message: String },
    #[error(
        "the file is written for version {found} of the language, which this ludic does not read"
    )]
    Version { found: String },
    #[error("`{name}` is {found}, but it is used as {used_as}")]
    LetType {
        name: String,
        found: &'static str,
        used_as: &'static str,
    },
    #[error("{what} `{name}` hides {earlier} of the same name")]
    Shadow {
        what: &'static str,
        name: String,
        earlier: &'static str,
    },
    #[error("`{inner}` after `{op}` is part of the condition of `{outer}`")]
    Scope {
        /// (boxed: a diagnostic stays small)
        inner: Box<str>,
        op: &'static str,
        outer: Box<str>,
    },
    #[error(
        "the type of `{name}` cannot be determined: it is `none` and nothing says what it stands for"
    )]
    UnknownType { name: String },
}

/// How serious a diagnostic is: an error stops the game from loading, a warning does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    /// `error`, `warning`: as rendered and in JSON.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem, with where it is and, if we can tell, how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: ErrorKind,
    /// an error (the default) or a warning
    pub severity: Severity,
    pub span: Span,
    pub hint: Option<String>,
    /// other places that explain the problem (a type error at a call: where the `def` uses
    /// the argument), each shown with its own source line
    pub notes: Notes,
}

/// The notes of a diagnostic: none, most often (one pointer: a diagnostic is passed by value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes(Option<Box<NoteList>>);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct NoteList(Vec<Note>);

impl Notes {
    pub fn push(&mut self, n: Note) {
        self.0.get_or_insert_with(Box::default).0.push(n);
    }
}

impl From<Vec<Note>> for Notes {
    fn from(v: Vec<Note>) -> Self {
        Notes((!v.is_empty()).then(|| Box::new(NoteList(v))))
    }
}

impl std::ops::Deref for Notes {
    type Target = [Note];
    fn deref(&self) -> &[Note] {
        self.0.as_deref().map_or(&[], |l| l.0.as_slice())
    }
}

/// A secondary place of a diagnostic, with what it says there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub span: Span,
    pub text: String,
}

impl Diagnostic {
    pub fn new(kind: ErrorKind, span: Span) -> Self {
        Diagnostic {
            kind,
            severity: Severity::Error,
            span,
            hint: None,
            notes: Notes::default(),
        }
    }
    pub fn with_note(mut self, span: Span, text: impl Into<String>) -> Self {
        self.notes.push(Note {
            span,
            text: text.into(),
        });
        self
    }
    /// The same diagnostic as a warning: reported, but the game still loads.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
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
            ErrorKind::AmbiguousNotation { .. } => "ambiguous-notation",
            ErrorKind::TooDeep { .. } => "too-deep",
            ErrorKind::NameTooLong { .. } => "name-too-long",
            ErrorKind::TooLargeExpansion { .. } => "too-large-expansion",
            ErrorKind::EmptyDescription { .. } => "empty-description",
            ErrorKind::Unclosed { .. } => "unclosed",
            ErrorKind::SourceTooLarge { .. } => "source-too-large",
            ErrorKind::LineRepeat { .. } => "line-repeat",
            ErrorKind::UnknownType { .. } => "unknown-type",
            ErrorKind::LetType { .. } => "let-type",
            ErrorKind::BaseGame { .. } => "base-game",
            ErrorKind::Version { .. } => "version",
            ErrorKind::Shadow { .. } => "shadow",
            ErrorKind::Scope { .. } => "scope",
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
    /// How many are errors (not warnings).
    pub fn errors(&self) -> usize {
        self.0.iter().filter(|d| d.is_error()).count()
    }
    /// How many are warnings.
    pub fn warnings(&self) -> usize {
        self.0.len() - self.errors()
    }
    /// Whether any is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
}

/// 1-based line and column (in characters) of a byte offset. For many offsets of one source,
/// build a [`LineIndex`] once.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(source).line_col(offset)
}

/// Where the lines of a source start, and how many characters come before each block of
/// bytes: the line and column of any offset in a few steps, however long the source or its
/// lines.
pub struct LineIndex<'a> {
    source: &'a str,
    /// byte offset of the start of each line
    starts: Vec<usize>,
    /// characters before each block of `BLOCK` bytes
    chars_before: Vec<usize>,
}

const BLOCK: usize = 256;

impl<'a> LineIndex<'a> {
    pub fn new(source: &'a str) -> Self {
        let bytes = source.as_bytes();
        // a byte-order mark is not a column of the first line
        let mut starts = vec![if source.starts_with('\u{feff}') { 3 } else { 0 }];
        starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        let mut chars_before = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut n = 0;
        for block in bytes.chunks(BLOCK) {
            chars_before.push(n);
            n += block.iter().filter(|b| !is_continuation(**b)).count();
        }
        chars_before.push(n);
        LineIndex {
            source,
            starts,
            chars_before,
        }
    }

    /// Characters before a byte offset.
    fn chars_to(&self, offset: usize) -> usize {
        let block = offset / BLOCK;
        self.chars_before[block]
            + self.source.as_bytes()[block * BLOCK..offset]
                .iter()
                .filter(|b| !is_continuation(**b))
                .count()
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset =
            floor_char_boundary(self.source, offset.min(self.source.len())).max(self.starts[0]);
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        (line, self.chars_to(offset) - self.chars_to(start) + 1)
    }

    /// The text of a 1-based line, without its end of line.
    pub fn line(&self, line: usize) -> &'a str {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.starts.get(line).map_or(self.source.len(), |&e| e - 1);
        self.source[start..end].trim_end_matches('\r')
    }
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The longest part of a source line shown under a diagnostic, in characters.
const SHOWN: usize = 120;

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
///
/// A line longer than 120 characters is shown around the caret, cut with `…`.
pub fn render_one(path: &str, source: &str, d: &Diagnostic) -> String {
    render_mapped(&SourceMap::new(path, source), d)
}

/// One diagnostic, each of its places in the file it is in (a game built on another: the
/// base or the derived file).
fn render_mapped(map: &SourceMap, d: &Diagnostic) -> String {
    let (path, index, span) = map.locate(d.span);
    let (line, col, shown, caret_at, carets) = snippet(index, span);
    let width = line.to_string().len();
    let pad = " ".repeat(width);
    let mut out = format!(
        "{}: {}\n{pad}--> {path}:{line}:{col}\n{pad} |\n{line} | {shown}\n{pad} | {}{}\n",
        d.severity.word(),
        d,
        " ".repeat(caret_at),
        "^".repeat(carets)
    );
    for n in d.notes.iter() {
        let (path, index, span) = map.locate(n.span);
        let (line, col, shown, caret_at, carets) = snippet(index, span);
        let width = line.to_string().len();
        let pad = " ".repeat(width);
        out.push_str(&format!(
            "{pad} = note: {}\n{pad}--> {path}:{line}:{col}\n{pad} |\n{line} | {shown}\n{pad} | {}{}\n",
            n.text,
            " ".repeat(caret_at),
            "^".repeat(carets)
        ));
    }
    if let Some(h) = &d.hint {
        out.push_str(&format!("{pad} = hint: {h}\n"));
    }
    out
}

/// The line and column of a span, the part of its line shown, where the caret starts in it
/// and how many carets.
fn snippet(index: &LineIndex, span: Span) -> (usize, usize, String, usize, usize) {
    let source = index.source;
    let (line, col) = index.line_col(span.start);
    let line_start = index.starts[line - 1];
    let line_end = line_start + index.line(line).len();
    let caret = floor_char_boundary(source, span.start.min(source.len())).max(line_start);
    let span_end = floor_char_boundary(source, span.end.min(source.len())).clamp(caret, line_end);
    // a window of the line around the caret, found from the caret's byte, not the line's start
    let from = source[line_start..caret]
        .char_indices()
        .rev()
        .take(SHOWN / 3)
        .last()
        .map_or(caret, |(i, _)| line_start + i);
    let to = source[from..line_end]
        .char_indices()
        .nth(SHOWN)
        .map_or(line_end, |(i, _)| from + i);
    let mut shown = source[from..to].to_string();
    let mut caret_at = source[from..caret].chars().count();
    if from > line_start {
        shown.insert(0, '…');
        caret_at += 1;
    }
    if to < line_end {
        shown.push('…');
    }
    let carets = source[caret..span_end.min(to).max(caret)]
        .chars()
        .count()
        .max(1);
    (line, col, shown, caret_at, carets)
}

/// Renders every diagnostic, then a summary line.
pub fn render(path: &str, source: &str, diags: &Diagnostics) -> String {
    let map = SourceMap::new(path, source);
    let mut out = String::new();
    for d in &diags.0 {
        out.push_str(&render_mapped(&map, d));
        out.push('\n');
    }
    out.push_str(&summary(path, diags));
    out
}

/// The last line of a report: `f.game: 2 errors`, `f.game: 1 error, 1 warning`, `f.game: 1 warning`.
pub fn summary(path: &str, diags: &Diagnostics) -> String {
    let (e, w) = (diags.errors(), diags.warnings());
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match (e, w) {
        (_, 0) => format!("{path}: {e} error{}\n", plural(e)),
        (0, _) => format!("{path}: {w} warning{}\n", plural(w)),
        _ => format!("{path}: {e} error{}, {w} warning{}\n", plural(e), plural(w)),
    }
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    suggest_scored(name, candidates).map(|(_, c)| c.to_string())
}

/// The candidate closest to `name` and its distance (a swap of two neighbouring letters
/// counts as one edit), if it is close enough to be a likely typo; the first of equals.
pub fn suggest_scored<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<(usize, &'a str)> {
    let lower = name.to_lowercase();
    let len = name.chars().count();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name {
            // never "did you mean" the same word
            continue;
        }
        let c_len = c.chars().count();
        let limit = (len.max(c_len) / 3).max(1);
        // the distance is at least the difference of the lengths: most names are skipped here
        if len.abs_diff(c_len) > limit {
            continue;
        }
        let d = edit_distance(&lower, &c.to_lowercase());
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best
}

/// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Diagnostics as data, for `--format json`: each with its file (a game built on another: each
/// place in its own file), code, message, line and column (from 1), end, hint and notes.
pub fn to_json(path: &str, source: &str, d: &Diagnostics) -> serde_json::Value {
    // a game built on another: each place in its own file
    let map = SourceMap::new(path, source);
    let items: Vec<serde_json::Value> =
        d.0.iter()
            .map(|x| {
                let (file, index, span) = map.locate(x.span);
                let (line, column) = index.line_col(span.start);
                let (end_line, end_column) = index.line_col(span.end);
                let mut item = serde_json::json!({
                    "file": file,
                    "severity": x.severity.word(),
                    "code": x.code(),
                    "message": x.to_string(),
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "hint": x.hint,
                });
                if !x.notes.is_empty() {
                    // the places that explain the error (where a `def` uses an argument)
                    let notes: Vec<serde_json::Value> = x
                        .notes
                        .iter()
                        .map(|n| {
                            let (file, index, span) = map.locate(n.span);
                            let (line, column) = index.line_col(span.start);
                            serde_json::json!({"message": n.text, "file": file, "line": line, "column": column})
                        })
                        .collect();
                    item["notes"] = serde_json::json!(notes);
                }
                item
            })
            .collect();
    serde_json::json!(items)
}

/// Which file and line each offset of a (perhaps composed) source is in.
pub struct SourceMap<'a> {
    /// each file: its label, where its text starts, the lines of its text
    files: Vec<(String, usize, LineIndex<'a>)>,
}

impl<'a> SourceMap<'a> {
    /// `path` names a plain source; a composed one names its files itself.
    pub fn new(path: &str, source: &'a str) -> Self {
        let files = match super::composed::parts(source) {
            Some(ps) => ps
                .into_iter()
                .map(|p| (p.path, p.start, LineIndex::new(&source[p.start..p.end])))
                .collect(),
            None => vec![(path.to_string(), 0, LineIndex::new(source))],
        };
        SourceMap { files }
    }

    /// The file an offset is in: its label, its lines, and the span made local to it.
    pub fn locate(&self, span: Span) -> (&str, &LineIndex<'a>, Span) {
        let i = self
            .files
            .partition_point(|(_, start, _)| *start <= span.start)
            .saturating_sub(1);
        let (path, start, index) = &self.files[i];
        let local = Span {
            start: span.start.saturating_sub(*start),
            end: span.end.saturating_sub(*start),
        };
        (path, index, local)
    }

    /// `line 12, column 3`, and the file when the source is composed.
    pub fn place(&self, offset: usize) -> String {
        let (path, index, local) = self.locate(Span {
            start: offset,
            end: offset,
        });
        let (l, c) = index.line_col(local.start);
        if self.files.len() > 1 {
            format!("line {l}, column {c} of {path}")
        } else {
            format!("line {l}, column {c}")
        }
    }
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
        // a swap of two neighbouring letters is one edit
        assert_eq!(suggest_scored("mien", ["mine"]), Some((1, "mine")));
        assert_eq!(edit_distance("abcd", "acbd"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
    #[test]
    fn positions() {
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        // characters, not bytes, across the blocks of the index
        let src = format!("{}\n{}x", "é".repeat(300), "ü".repeat(200));
        let x = src.find('x').unwrap();
        assert_eq!(line_col(&src, x), (2, 201));
        assert_eq!(line_col(&src, 1), (1, 1));
        assert_eq!(
            LineIndex::new(&src).line(2),
            format!("{}x", "ü".repeat(200))
        );
        // a byte-order mark is no column
        assert_eq!(line_col("\u{feff}ab\ncd", 4), (1, 2));
        assert_eq!(line_col("\u{feff}ab\ncd", 0), (1, 1));
        assert_eq!(LineIndex::new("\u{feff}ab\ncd").line(1), "ab");
    }

    #[test]
    fn a_long_line_is_shown_around_the_caret() {
        let src = format!("{}bad{}", "a ".repeat(5000), " b".repeat(5000));
        let at = src.find("bad").unwrap();
        let d = Diagnostic::new(
            ErrorKind::Unknown {
                what: "name",
                name: "bad".into(),
            },
            Span {
                start: at,
                end: at + 3,
            },
        );
        let out = render_one("f.game", &src, &d);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], " --> f.game:1:10001");
        assert!(lines[3].chars().count() < 140, "{}", lines[3]);
        let text = lines[3].split_once(" | ").unwrap().1;
        let carets = lines[4].split_once(" | ").unwrap().1;
        let caret = carets.find('^').unwrap();
        assert_eq!(carets.trim_start().len(), 3);
        assert_eq!(text.chars().skip(caret).take(3).collect::<String>(), "bad");
    }
}
