//! Games built on others: `game "Big board" from "mancala.game" { }` takes every
//! declaration of its base and replaces or adds the ones it writes itself.
//!
//! **Reading.** [`compose`] reads a file's base (a path relative to the file, or a built-in
//! game, through the reader the caller gives: the library reads no file itself), the base's
//! base, and so on, and returns one self-contained text: a first line `#composed N`, a line
//! `#part BYTES PATH` for each file (the deepest base first), then the files' texts one after
//! the other. Every command loads that text as it loads any game (`load_game`), records keep
//! it (a replay needs no file), and a span is an offset in it: [`SourceMap`] says which file
//! and line it is in, so that an error in the base names the base.
//!
//! **Merging** ([`merge`]): named declarations are replaced by name, in place (options,
//! variants, defs, actions, dice, tallies, labels, pieces), or added at the end; an
//! `option NAME = VALUE` without a range changes only the default of the base's option (its
//! range and description kept). The blocks that are one per game are replaced whole when the
//! derived file has one: `sides`, `board`, `start`, `turn`, `between rounds`, the `limit`s,
//! `players per side`. `require`s add up. The `game` block is the derived file's, with the
//! base's `origin`, `source` and `summary` where it gives none.

use crate::ast::{self, GameFile, OptionValue, Span};
use crate::diagnostic::{Diagnostic, Diagnostics, ErrorKind, LineIndex};

/// Bases in a chain: a file, its base, the base's base… at most this many.
pub const MAX_BASES: usize = 8;

const HEADER: &str = "#composed ";
const PART: &str = "#part ";

/// A file of a composed text: its label and where its text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub path: String,
    pub start: usize,
    pub end: usize,
}

/// Where a derived file's base could not be read, or is the file itself: the diagnostics are
/// about `source`, the text of the file `path` that names the base.
#[derive(Clone, Debug)]
pub struct ComposeError {
    pub path: String,
    pub source: String,
    pub diagnostics: Diagnostics,
}

/// Reads a base: `(name as written, path of the file that names it)` to
/// `(a key that is the same for the same file, its label, its text)`.
pub type Reader<'r> = dyn FnMut(&str, &str) -> Result<(String, String, String), String> + 'r;

/// The text of a game file with its bases read and composed (see the module's doc), or the
/// text itself when it names no base. A syntax error is left for `load_game` to report (in
/// the file itself), unless it is in a base.
/// `key` is the file's own key, as the reader gives them (to find a circle).
pub fn compose(
    path: &str,
    key: &str,
    text: String,
    read: &mut Reader,
) -> Result<String, ComposeError> {
    let mut chain: Vec<(String, String)> = vec![];
    let mut keys: Vec<String> = vec![key.to_string()];
    let (mut label, mut text) = (path.to_string(), text);
    loop {
        // (a file that names no base, most of them, is not parsed twice)
        let parsed = if may_name_a_base(&text) {
            crate::parse::parse(&text)
        } else {
            Ok(GameFile::default())
        };
        let base = match parsed {
            Ok(f) => f.meta.first().and_then(|m| m.base.clone()),
            Err(d) if !chain.is_empty() => {
                return Err(ComposeError {
                    path: label,
                    source: text,
                    diagnostics: d,
                });
            }
            Err(_) => None,
        };
        let Some((name, span)) = base else {
            chain.push((label, text));
            break;
        };
        let fail = |label: String, text: String, message: String, hint: String| ComposeError {
            path: label,
            source: text,
            diagnostics: Diagnostics(vec![
                Diagnostic::new(ErrorKind::BaseGame { message }, span).with_hint(hint),
            ]),
        };
        if chain.len() + 1 > MAX_BASES {
            let message = format!("more than {MAX_BASES} games built one on another");
            return Err(fail(
                label,
                text,
                message,
                "build on the base directly".into(),
            ));
        }
        let (key, base_label, base_text) = match read(&name, &label) {
            Ok(x) => x,
            Err(e) => {
                let hint = "the base is a path relative to this file, or the name of a built-in game (`ludic list`)".to_string();
                return Err(fail(label, text, e, hint));
            }
        };
        if keys.contains(&key) {
            let mut names: Vec<&str> = chain.iter().map(|(l, _)| l.as_str()).collect();
            names.push(&label);
            names.push(&base_label);
            let message = format!(
                "the games are built on each other in a circle: {}",
                names.join(" -> ")
            );
            return Err(fail(
                label,
                text,
                message,
                "one of them must be a whole game".into(),
            ));
        }
        keys.push(key);
        chain.push((label, text));
        (label, text) = (base_label, base_text);
    }
    if chain.len() == 1 {
        return Ok(chain.pop().map(|(_, t)| t).unwrap_or_default());
    }
    chain.reverse();
    let mut out = format!("{HEADER}{}\n", chain.len());
    for (label, text) in &chain {
        let label: String = label
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        out.push_str(&format!("{PART}{} {label}\n", text.len()));
    }
    for (_, text) in &chain {
        out.push_str(text);
    }
    Ok(out)
}

/// Whether `game "…" from` may be written in a text (a quick look, before a parse says).
fn may_name_a_base(text: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    text.match_indices("game").any(|(i, _)| {
        if i > 0 && word(b[i - 1]) {
            return false;
        }
        let rest = text[i + 4..].trim_start();
        let Some(rest) = rest.strip_prefix('"') else {
            return false;
        };
        let rest = if let Some(r) = rest.strip_prefix("\"\"") {
            r.split_once("\"\"\"").map_or("", |x| x.1)
        } else {
            rest.split_once('"').map_or("", |x| x.1)
        };
        rest.trim_start().starts_with("from")
    })
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

/// Parses a composed text (each file apart, its spans offsets in the whole) and merges its
/// files, the deepest base first; `None` for a plain text.
pub(crate) fn parse_composed(source: &str) -> Option<Result<GameFile, Diagnostics>> {
    let parts = parts(source)?;
    let mut merged: Option<GameFile> = None;
    for p in &parts {
        // the text before the part is blanked, so that the part's spans are offsets in the
        // whole (the parser's limits are per file)
        let mut padded = " ".repeat(p.start);
        padded.push_str(&source[p.start..p.end]);
        let file = match crate::parse::parse_part(&padded, p.start) {
            Ok(f) => f,
            Err(d) => return Some(Err(d)),
        };
        merged = Some(match merged {
            None => file,
            Some(base) => merge(base, file),
        });
    }
    merged.map(Ok)
}

fn value_text(v: &OptionValue) -> String {
    match v {
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Bool(true) => "on".into(),
        OptionValue::Bool(false) => "off".into(),
        OptionValue::Word(w) => w.clone(),
    }
}

/// Replaces the items of `base` by the items of `derived` of the same name, in place, and
/// adds the others at the end; `change` makes the replacement (and says what changed).
fn by_name<T>(
    base: Vec<T>,
    derived: Vec<T>,
    name: impl Fn(&T) -> String,
    what: &str,
    changes: &mut Vec<String>,
    mut change: impl FnMut(T, T) -> (T, String),
) -> Vec<T> {
    let mut out: Vec<(T, bool)> = base.into_iter().map(|b| (b, true)).collect();
    for d in derived {
        let n = name(&d);
        match out
            .iter()
            .position(|(b, from_base)| *from_base && name(b) == n)
        {
            Some(i) => {
                let (old, _) = out.remove(i);
                let (new, said) = change(old, d);
                changes.push(said);
                out.insert(i, (new, false));
            }
            None => {
                changes.push(format!("{what} {n} added"));
                out.push((d, false));
            }
        }
    }
    out.into_iter().map(|(x, _)| x).collect()
}

/// Replaces a block that is one per game, when the derived file has one.
fn whole<T>(base: Vec<T>, derived: Vec<T>, what: &str, changes: &mut Vec<String>) -> Vec<T> {
    if derived.is_empty() {
        base
    } else {
        changes.push(format!("{what} replaced"));
        derived
    }
}

/// The base with the derived file's declarations (see the module's doc).
pub fn merge(base: GameFile, derived: GameFile) -> GameFile {
    let mut ch = vec![];
    let mut meta = derived.meta;
    let base_meta = base.meta.into_iter().next().unwrap_or_default();
    if let Some(m) = meta.first_mut() {
        m.base = None;
        m.origin = m.origin.take().or(base_meta.origin);
        m.source = m.source.take().or(base_meta.source);
        m.summary = m.summary.take().or(base_meta.summary);
    }
    let options = by_name(
        base.options,
        derived.options,
        |o| o.name.name.clone(),
        "option",
        &mut ch,
        |b, d| {
            let was = value_text(&b.default);
            let now = value_text(&d.default);
            let name = d.name.name.clone();
            if d.domain.is_some() {
                (d, format!("option {name} redeclared ({was} -> {now})"))
            } else {
                let kept = ast::OptionDecl {
                    name: d.name,
                    default: d.default,
                    default_span: d.default_span,
                    domain: b.domain,
                    doc: d.doc.or(b.doc),
                    span: d.span,
                };
                let said = if was == now {
                    format!("option {name} ({now}, unchanged)")
                } else {
                    format!("option {name} ({was} -> {now})")
                };
                (kept, said)
            }
        },
    );
    let variants = by_name(
        base.variants,
        derived.variants,
        |v| format!("\"{}\"", v.name),
        "variant",
        &mut ch,
        |_, d| {
            let said = format!("variant \"{}\" replaced", d.name);
            (d, said)
        },
    );
    macro_rules! named {
        ($field:ident, $what:expr, $name:expr) => {
            by_name(
                base.$field,
                derived.$field,
                $name,
                $what,
                &mut ch,
                |_, d| {
                    let said = format!("{} {} replaced", $what, $name(&d));
                    (d, said)
                },
            )
        };
    }
    let defs = named!(defs, "def", |d: &ast::Def| d.name.name.clone());
    let actions = named!(actions, "action", |d: &ast::ActionDecl| d.name.name.clone());
    let dice = named!(dice, "dice", |d: &ast::DiceDecl| d.name.name.clone());
    let tallies = named!(tallies, "tally", |d: &ast::TallyDecl| d.name.name.clone());
    let labels = named!(labels, "label", |d: &ast::LabelDoc| d.label.name.clone());
    // pieces: by name within the base's block; a second block of the derived file stays, to
    // be reported as one too many
    let mut pieces = base.pieces;
    let mut derived_pieces = derived.pieces.into_iter();
    if let Some(first) = derived_pieces.next() {
        if pieces.is_empty() {
            ch.push("pieces added".into());
            pieces.push(first);
        } else {
            let b = std::mem::take(&mut pieces[0]);
            pieces[0] = by_name(
                b,
                first,
                |p: &ast::PieceDecl| p.name.name.clone(),
                "piece",
                &mut ch,
                |_, d| {
                    let said = format!("piece {} replaced", d.name.name);
                    (d, said)
                },
            );
        }
        pieces.extend(derived_pieces);
    }
    let (sides, sides_spans) = if derived.sides.is_empty() {
        (base.sides, base.sides_spans)
    } else {
        ch.push("sides replaced".into());
        (derived.sides, derived.sides_spans)
    };
    let mut requires = base.requires;
    if !derived.requires.is_empty() {
        ch.push(format!("{} require added", derived.requires.len()));
    }
    requires.extend(derived.requires);
    let boards = whole(base.boards, derived.boards, "board", &mut ch);
    let starts = whole(base.starts, derived.starts, "start", &mut ch);
    let turns = whole(base.turns, derived.turns, "turn", &mut ch);
    let betweens = whole(base.betweens, derived.betweens, "between rounds", &mut ch);
    let limits = whole(base.limits, derived.limits, "limit", &mut ch);
    let team_size = whole(
        base.team_size,
        derived.team_size,
        "players per side",
        &mut ch,
    );
    GameFile {
        meta,
        options,
        variants,
        requires,
        sides,
        sides_spans,
        boards,
        pieces,
        starts,
        defs,
        turns,
        limits,
        dice,
        actions,
        team_size,
        tallies,
        betweens,
        labels,
        span: derived.span,
        derivation: Some(ast::Derivation {
            base: base_meta.name,
            changes: ch,
        }),
    }
}

/// Which file and line each offset of a (perhaps composed) source is in.
pub struct SourceMap<'a> {
    /// each file: its label, where its text starts, the lines of its text
    files: Vec<(String, usize, LineIndex<'a>)>,
}

impl<'a> SourceMap<'a> {
    /// `path` names a plain source; a composed one names its files itself.
    pub fn new(path: &str, source: &'a str) -> Self {
        let files = match parts(source) {
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
