//! The only module that sees pest: turns source text into an [`ast::GameFile`](crate::ast::GameFile). Here: the
//! entry, the limits of nesting and names, spans; beside it, by part of the grammar: `decls`
//! (meta, options, variants, dice, the board), `stmt` (statements, choices), `expr`
//! (expressions), `errors` (pest's errors in the language's words), `brackets`, `lines`.

use crate::ast::*;
use crate::diagnostic::{Diagnostic, Diagnostics, ErrorKind};
use crate::limits::{MAX_NAME_CHARS, MAX_NESTING};
use pest::Parser;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

mod brackets;
mod decls;
mod errors;
mod expr;
mod grammar;
mod lines;
mod nesting;
mod stmt;

use decls::*;
use errors::*;
use expr::*;
use stmt::*;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/ludic.pest"]
struct LudicParser;

/// Whether a rule is one of the words of the language (`kw_row`, …): matched whole, it carries
/// nothing the syntax tree needs, and [`inner`] skips it.
fn is_keyword(r: Rule) -> bool {
    // indexed by the rule's number
    static KEYWORDS: OnceLock<Vec<bool>> = OnceLock::new();
    let table = KEYWORDS.get_or_init(|| {
        let rules = Rule::all_rules();
        let mut t = vec![false; rules.iter().map(|&r| r as usize + 1).max().unwrap_or(0)];
        for &r in rules {
            t[r as usize] = format!("{r:?}").starts_with("kw_");
        }
        t
    });
    table.get(r as usize).copied().unwrap_or(false)
}

/// The pairs inside a pair, without the words of the language.
fn inner(p: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    p.into_inner().filter(|x| !is_keyword(x.as_rule()))
}

fn is_operator(r: Rule) -> bool {
    matches!(
        r,
        Rule::op_or
            | Rule::op_and
            | Rule::op_not
            | Rule::op_eq
            | Rule::op_ne
            | Rule::op_le
            | Rule::op_ge
            | Rule::op_lt
            | Rule::op_gt
            | Rule::op_in
            | Rule::op_add
            | Rule::op_sub
            | Rule::op_mul
            | Rule::op_div
            | Rule::op_mod
            | Rule::op_neg
    )
}

/// What the parser accepts but the stages after it could not take: an expression whose
/// operators and brackets nest deeper than [`MAX_NESTING`] (a chain of 300 `not`, or of 300
/// `+`, is a tree 300 levels deep), names longer than [`MAX_NAME_CHARS`], and numbers that do
/// not fit in 64 bits. The walk keeps
/// its own stack, so that it cannot overflow on what it checks.
fn check_limits(file: Pair<'_, Rule>) -> Result<(), Diagnostics> {
    let mut diags = vec![];
    let mut stack: Vec<(Pair<Rule>, usize)> = vec![(file, 0)];
    while let Some((p, depth)) = stack.pop() {
        let mut depth = depth;
        match p.as_rule() {
            Rule::expr => {
                depth += 1;
                for op in p.clone().into_inner().filter(|x| is_operator(x.as_rule())) {
                    depth += 1;
                    if depth > MAX_NESTING {
                        diags.push(
                            Diagnostic::new(
                                ErrorKind::TooDeep {
                                    what: "operators and brackets of an expression",
                                    limit: MAX_NESTING,
                                },
                                span_of(&op),
                            )
                            .with_hint("split the expression with `def` or `let`"),
                        );
                        return Err(Diagnostics(diags).sorted());
                    }
                }
            }
            Rule::int => {
                if p.as_str().parse::<i64>().is_err() {
                    diags.push(
                        Diagnostic::new(ErrorKind::Overflow, span_of(&p)).with_hint(
                            "numbers are from -9223372036854775808 to 9223372036854775807",
                        ),
                    );
                }
                continue;
            }
            Rule::ident | Rule::call_name | Rule::alt_word | Rule::option_word => {
                let chars = p.as_str().chars().count();
                if chars > MAX_NAME_CHARS {
                    diags.push(
                        Diagnostic::new(
                            ErrorKind::NameTooLong {
                                chars,
                                limit: MAX_NAME_CHARS,
                            },
                            span_of(&p),
                        )
                        .with_hint("choose a shorter name"),
                    );
                }
                continue;
            }
            _ => {}
        }
        stack.extend(p.into_inner().map(|c| (c, depth)));
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(diags).sorted())
    }
}

/// The span of a pair without the blanks and comments pest may have taken after it.
fn span_of(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    let mut text = s.as_str();
    loop {
        let t = text.trim_end();
        let line_start = t.rfind('\n').map(|i| i + 1).unwrap_or(0);
        match comment_start(&t[line_start..]) {
            Some(c) => text = &t[..line_start + c],
            None => {
                text = t;
                break;
            }
        }
    }
    Span {
        start: s.start(),
        end: s.start() + text.len().max(1).min(s.end() - s.start()),
    }
}

/// Where a `#` comment starts in a line, outside strings.
fn comment_start(line: &str) -> Option<usize> {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return Some(i),
            _ => {}
        }
    }
    None
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        span: span_of(&p),
        name: p.as_str().to_string(),
    }
}

fn string_value(p: Pair<Rule>) -> String {
    let s = p.as_str();
    let inner = if let Some(rest) = s.strip_prefix("\"\"\"") {
        rest.strip_suffix("\"\"\"").unwrap_or(rest)
    } else {
        s.trim_matches('"')
    };
    // Dedent long strings: trim each line.
    inner
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// The words of the language, for editors and highlighters: every word the grammar spells
/// (`sow`, `where`, `forget`…) with whether it is reserved (never a name), all read from the
/// grammar itself.
pub fn words() -> Vec<(&'static str, bool)> {
    grammar::words()
        .iter()
        .map(|&w| (w, grammar::is_reserved(w)))
        .collect()
}

/// The words that begin a declaration and those that begin a statement, read from the grammar
/// (`(["board", "def", …], ["capture", "choose", …])`).
pub fn starting_words() -> (Vec<&'static str>, Vec<&'static str>) {
    grammar::starting_words_of_parts().clone()
}

/// Parses a whole file. A syntax error stops the parse (pest does not recover); it is reported
/// with the words of the grammar, never with generated rule names. Nesting too deep for the
/// parser is refused before it runs, and what is too deep or too long for the stages after it
/// before the syntax tree is built ([`crate::limits`], `nesting`).
pub fn parse(source: &str) -> Result<GameFile, Diagnostics> {
    // a game built on others: its files composed in one text (see `crate::derive`)
    if let Some(composed) = parse_composed(source) {
        return composed;
    }
    parse_part(source, 0)
}

/// The `game "…" { … }` block of a file alone, read without parsing the rest: the block of
/// the first line that begins with `game "` (None when there is none or it does not parse).
/// For finding a built-in game by its title or aliases without a parse of every built-in file.
pub fn game_block(source: &str) -> Option<Meta> {
    let at = source
        .lines()
        .scan(0, |start, line| {
            let here = *start;
            *start += line.len() + 1;
            Some((here, line))
        })
        .find(|(_, line)| line.starts_with("game \""))?
        .0;
    let block = LudicParser::parse(Rule::game_block, source.get(at..)?)
        .ok()?
        .next()?;
    Some(decls::meta(block))
}

/// Parses one file, its text after `blank` bytes of blanks (a part of a composed text: see
/// `crate::derive`).
pub(crate) fn parse_part(source: &str, blank: usize) -> Result<GameFile, Diagnostics> {
    check_size(source, blank)?;
    nesting::prescan(source).map_err(|d| Diagnostics(vec![d]))?;
    let mut pairs =
        LudicParser::parse(Rule::file, source).map_err(|e| syntax_errors(&e, source))?;
    let file = pairs
        .next()
        .expect("the grammar's `file` rule always yields one pair");
    check_limits(file.clone())?;
    let mut g = GameFile {
        span: span_of(&file),
        version: language_version(file.clone())?,
        ..GameFile::default()
    };
    for item in inner(file) {
        add_item(&mut g, item);
    }
    Ok(g)
}

/// The newest version of the language this ludic reads (`ludic 1` in a file); every change of
/// the language is listed in grammar/CHANGES.md.
pub const LANGUAGE_VERSION: u32 = 1;

/// The file's `ludic N` line, if it has one; a version this ludic does not read is an error
/// (a newer one is a file for a newer ludic).
fn language_version(file: Pair<'_, Rule>) -> Result<Option<(u32, Span)>, Diagnostics> {
    let Some(decl) = file
        .into_inner()
        .find(|p| p.as_rule() == Rule::version_decl)
    else {
        return Ok(None);
    };
    let span = span_of(&decl);
    let number = decl
        .into_inner()
        .find(|p| p.as_rule() == Rule::int)
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    match number.parse::<u32>() {
        Ok(v) if (1..=LANGUAGE_VERSION).contains(&v) => Ok(Some((v, span))),
        _ => {
            let hint = match number.parse::<i64>() {
                Ok(v) if v > LANGUAGE_VERSION as i64 => format!(
                    "this ludic reads versions 1 to {LANGUAGE_VERSION}; a newer ludic reads this file (grammar/CHANGES.md lists what each version changed)"
                ),
                _ => format!(
                    "the versions are 1 to {LANGUAGE_VERSION}: write `ludic {LANGUAGE_VERSION}`, or no version line"
                ),
            };
            Err(Diagnostics(vec![
                Diagnostic::new(ErrorKind::Version { found: number }, span).with_hint(hint),
            ]))
        }
    }
}

/// The size a `.game` file may have, whoever reads it (the commands refuse a larger file
/// before reading it whole).
fn check_size(source: &str, blank: usize) -> Result<(), Diagnostics> {
    let limit = crate::limits::MAX_SOURCE_BYTES;
    if (source.len() - blank.min(source.len())) as u64 > limit {
        let kind = ErrorKind::SourceTooLarge {
            bytes: source.len(),
            limit,
        };
        return Err(Diagnostics(vec![
            Diagnostic::new(kind, Span { start: 0, end: 0 })
                .with_hint("split the description, or generate fewer sites and rules"),
        ]));
    }
    Ok(())
}

/// pest's error in the language's words, after the brackets left open before it (where the
/// parser stopped may be far from a bracket left open).
fn syntax_errors(e: &pest::error::Error<Rule>, source: &str) -> Diagnostics {
    let first = syntax_error(e, source);
    let mut all = vec![];
    if matches!(first.kind, ErrorKind::Syntax { .. }) {
        all = brackets::unclosed(source);
    }
    all.push(first);
    Diagnostics(all).sorted()
}

/// One item of the file, added to the list of its kind.
fn add_item(g: &mut GameFile, item: Pair<Rule>) {
    let span = span_of(&item);
    match item.as_rule() {
        Rule::game_block => g.meta.push(meta(item)),
        Rule::option_decl => g.options.push(option_decl(item)),
        Rule::variant_decl => g.variants.push(variant(item)),
        Rule::require_decl => g.requires.push(require(item, span)),
        Rule::sides_decl => {
            g.sides.push(inner(item).map(ident).collect());
            g.sides_spans.push(span);
        }
        Rule::limit_decl => g.limits.push(limit(item, span)),
        Rule::board_block => g.boards.push(board(item)),
        Rule::pieces_block => g.pieces.push(inner(item).map(piece).collect()),
        Rule::dice_block => g.dice.push(dice(item)),
        Rule::players_decl => g
            .team_size
            .push(expr(inner(item).next().expect("players per side"))),
        Rule::action_decl => g.actions.push(action(item, span)),
        Rule::start_block => g.starts.push((span, stmts(inner(item)))),
        Rule::turn_block => g.turns.push((span, stmts(inner(item)))),
        Rule::between_block => g.betweens.push((span, stmts(inner(item)))),
        Rule::tally_decl => g.tallies.push(tally(item, span)),
        Rule::position_decl => {
            let mut it = inner(item);
            let board = it.next().is_some_and(|b| b.as_str() == "board");
            g.positions.push((board, it.map(ident).collect(), span));
        }
        Rule::def_decl => g.defs.push(def(item, span)),
        Rule::labels_block => g.labels.extend(label_docs(item)),
        Rule::version_decl => {} // read by `language_version`, before the items
        Rule::EOI => {}
        r => unreachable!("unexpected item {r:?}"),
    }
}

/// Parses a composed text (each file apart, its spans offsets in the whole) and merges its
/// files, the deepest base first; `None` for a plain text.
fn parse_composed(source: &str) -> Option<Result<GameFile, Diagnostics>> {
    let parts = super::composed::parts(source)?;
    let mut merged: Option<GameFile> = None;
    for p in &parts {
        // the text before the part is blanked, so that the part's spans are offsets in the
        // whole (the parser's limits are per file)
        let mut padded = " ".repeat(p.start);
        padded.push_str(&source[p.start..p.end]);
        let file = match parse_part(&padded, p.start) {
            Ok(f) => f,
            Err(d) => return Some(Err(d)),
        };
        merged = Some(match merged {
            None => file,
            Some(base) => super::merge::merge(base, file),
        });
    }
    merged.map(Ok)
}
