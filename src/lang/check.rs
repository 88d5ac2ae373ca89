//! The checker: from an [`ast::GameFile`] and the option settings to a [`Game`], reporting every
//! problem of the file at once, sorted by position.
//!
//! Here: the checker's state and the order of the work. The declaration passes build the symbol
//! table and the board (`lang::table::Table`); the table is then frozen, and a `Lowerer` reads
//! it to lower the programs; the game is assembled from the two (`Table::into_game`). One file per
//! concern beside it: `options` (options, variants, `-o`), `decls` (sides, pieces, definitions,
//! tallies, dice), `board` (sites, regions, rings, tracks, points, links), `labels`, `limit`,
//! `lines`, `shadow`. [`crate::lang::lower`] turns expressions and statements into the IR.

use crate::ast::{self, OptionDomain, OptionValue, SiteAttr, SiteItem, Span};
use crate::diagnostic::{Diagnostic, Diagnostics, ErrorKind, suggest};
use crate::ir::*;
use crate::lang::lower::{self, Lowerer};
use crate::lang::table::{Extras, Global, Report, Table, Ty};
use std::collections::BTreeMap;

mod board;
mod decls;
mod labels;
mod limit;
mod lines;
mod options;
mod shadow;
pub use options::option_map;

/// Option values chosen by the user: a named variant and `NAME=VALUE` settings (applied after it).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub variant: Option<String>,
    pub sets: Vec<(String, String)>,
}

impl Settings {
    /// Parses `NAME=VALUE`.
    pub fn push_assignment(&mut self, text: &str) -> Result<(), String> {
        match text.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => {
                self.sets.push((n.trim().to_string(), v.trim().to_string()));
                Ok(())
            }
            _ => Err(format!(
                "`{text}` is not an option setting: write NAME=VALUE, e.g. -o stones=8"
            )),
        }
    }
}

/// Why a game could not be loaded: problems in the file, or in the options the user chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    File(Diagnostics),
    Options(Vec<String>),
}

/// The checker during the declaration passes: the table being built, the diagnostics, and the
/// lowering's state, lent to a [`Lowerer`] for each constant of the declarations.
struct Checker<'a> {
    /// the symbol table and the board being built
    t: Table<'a>,
    d: Report,
    lowering: lower::State,
    /// names of site ranges that failed, used since (see `Table::poisoned`)
    poison_hits: usize,
    /// ways all the dice declared so far can land (see `MAX_OUTCOMES`)
    outcomes: usize,
}

const MAX_SITES: i64 = 4096;
/// Coordinates of sites (and offsets of links) are within ±this, so that no arithmetic on
/// them overflows.
const MAX_COORD: i64 = 1_000_000;
/// Directions of links between points.
const MAX_DIRECTIONS: usize = 64;
const MAX_REGIONS: usize = 1024;
const MAX_AREAS: usize = 64;
const MAX_VARIANTS: usize = 64;
/// Ways all the dice of a file can land, together.
const MAX_OUTCOMES: usize = 1 << 18;
/// Ways a throw can land times the length of its chart, in bytes: the work of building it.
const MAX_CHART_WORK: usize = 1 << 25;

/// Checks a parsed file with the given settings and lowers it.
pub fn check(file: &ast::GameFile, source: &str, settings: &Settings) -> Result<Game, LoadError> {
    check_with_warnings(file, source, settings).0
}

/// [`check`], and the warnings of the file (a `let` that hides another name…), sorted: they
/// do not stop the game from loading (they are found whether or not the file has errors).
pub fn check_with_warnings(
    file: &ast::GameFile,
    source: &str,
    settings: &Settings,
) -> (Result<Game, LoadError>, Diagnostics) {
    let mut warnings = vec![];
    let mut result = check_into(file, source, settings, &mut warnings);
    // An argument evaluated once takes a variable of its own (`lower::share`): a file over the
    // limit of variables is checked again with every argument copied, as before there were
    // such variables, so that a file that loaded still loads.
    let too_many = |d: &Diagnostics| {
        d.0.iter().any(|x| {
            matches!(x.kind, ErrorKind::TooLarge { what, .. } if what == lower::TOO_MANY_VARIABLES)
        })
    };
    if matches!(&result, Err(LoadError::File(d)) if too_many(d))
        && !lower::share::COPY_ONLY.with(std::cell::Cell::get)
    {
        warnings.clear();
        lower::share::COPY_ONLY.with(|c| c.set(true));
        result = check_into(file, source, settings, &mut warnings);
        lower::share::COPY_ONLY.with(|c| c.set(false));
    }
    (result, Diagnostics(warnings).sorted())
}

fn check_into(
    file: &ast::GameFile,
    source: &str,
    settings: &Settings,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Game, LoadError> {
    let mut c = Checker {
        t: Table::new(file, source),
        d: Report::default(),
        lowering: lower::State::default(),
        poison_hits: 0,
        outcomes: 0,
    };
    let meta = c.meta();
    if file.meta.iter().any(|m| m.base.is_some()) {
        // the base was never read: everything else would be reported against half a game
        return Err(LoadError::File(Diagnostics(c.d.diags).sorted()));
    }
    c.options_decls();
    let variants = c.variants();
    // The file's own problems come first: user settings are only applied to a valid file.
    let (option_errors, before_sets) = c.apply_settings(settings, &variants);
    c.sides();
    if file.sides.is_empty() {
        // every name of a player would be unknown: the missing line is the one thing to say
        return Err(LoadError::File(Diagnostics(c.d.diags).sorted()));
    }
    c.pieces();
    c.board();
    c.dice_decls();
    c.defs();
    c.tally_decls();
    c.position_decl();
    c.shadowing();
    *warnings = std::mem::take(&mut c.d.warnings);
    // (the requirements are evaluated with the option values before `-o` as well)
    let broken = c.requires(settings, &before_sets);
    // The table is frozen: from here it is only read.
    let Checker {
        t: table,
        d: mut report,
        lowering,
        ..
    } = c;
    let mut l = Lowerer::new(&table, &mut report, lowering);
    let limits = limit::limits(&mut l, file);
    let program = l.programs();
    let labels = labels::labels(&table, &mut report);
    // the warnings of the lowering (a quantifier's reach: `scope`)
    warnings.append(&mut report.warnings);
    if !broken.is_empty() {
        // The options chosen with `-o` break a requirement: that is what to say, not what
        // follows from it in the file.
        return Err(LoadError::Options(
            option_errors.into_iter().chain(broken).collect(),
        ));
    }
    if !report.diags.is_empty() {
        return Err(LoadError::File(Diagnostics(report.diags).sorted()));
    }
    if !option_errors.is_empty() {
        return Err(LoadError::Options(option_errors));
    }
    let extras = Extras {
        meta,
        variants,
        labels,
        turn_limit: limits.turns,
        turn_limit_end: limits.turns_end,
        move_limit: limits.moves,
        move_limit_end: limits.moves_end,
    };
    let mut game = table.into_game(program, extras);
    crate::optimize::optimize(&mut game);
    Ok(game)
}

impl<'a> Checker<'a> {
    pub(crate) fn error(&mut self, kind: ErrorKind, span: Span) {
        self.d.error(kind, span);
    }

    pub(crate) fn error_hint(&mut self, kind: ErrorKind, span: Span, hint: impl Into<String>) {
        self.d.error_hint(kind, span, hint);
    }

    /// Lowers with the table as it is so far (a constant of a declaration).
    pub(crate) fn lower<T>(&mut self, f: impl FnOnce(&mut Lowerer<'_>) -> T) -> T {
        let state = std::mem::take(&mut self.lowering);
        let mut l = Lowerer::new(&self.t, &mut self.d, state);
        let out = f(&mut l);
        self.lowering = l.into_state();
        out
    }

    /// Evaluates an expression that must be a constant number (options and arithmetic only).
    pub(crate) fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
        self.lower(|l| l.const_int(e))
    }

    pub(crate) fn expr(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        self.lower(|l| l.expr(e))
    }

    /// The site at some coordinates, reporting when there is none.
    pub(crate) fn site_at(&mut self, x: i64, y: i64, span: Span) -> Option<SiteId> {
        self.t
            .site_at(x, y, span)
            .map_err(|d| self.d.diags.push(d))
            .ok()
    }

    /// Registers a global name, reporting a clash with an earlier one.
    pub(crate) fn declare(
        &mut self,
        name: &str,
        g: Global,
        span: Span,
        what: &'static str,
    ) -> bool {
        if let Some((Global::Builtin, _)) = self.t.globals.get(name)
            && name != "none"
        {
            // The file's own name wins over a built-in one (a name built in later must not break
            // a file that used it): said, not silent.
            let d = Diagnostic::new(
                ErrorKind::Shadow {
                    what,
                    name: name.to_string(),
                    earlier: "the built-in name",
                },
                span,
            )
            .with_hint(format!(
                "in this file `{name}` means this {what}, and the built-in `{name}` cannot be used; if that is meant, a different name says so"
            ))
            .warning();
            self.d.warnings.push(d);
            self.t.globals.insert(name.to_string(), (g, span));
            return true;
        }
        if let Some(&(prev, prev_span)) = self.t.globals.get(name) {
            let mut d = Diagnostic::new(
                ErrorKind::Duplicate {
                    what,
                    name: name.to_string(),
                },
                span,
            );
            d = match prev {
                Global::Builtin => {
                    d.with_hint("this name is built into the language; choose another")
                }
                _ => {
                    // both places: the first one may be of another kind (a piece kind, a side…)
                    let at = self.t.places.place(prev_span.start);
                    let earlier = shadow::global_words(&prev);
                    d.with_hint(format!(
                        "the first definition, {earlier} `{name}`, is at {at}; names of options, sides, pieces, sites, regions, directions and defs share one namespace: rename one of them"
                    ))
                    .with_note(prev_span, format!("{earlier} `{name}` is here"))
                }
            };
            self.d.diags.push(d);
            return false;
        }
        self.t.globals.insert(name.to_string(), (g, span));
        true
    }

    /// A `def` or a tally named like a built-in function (`count`, `owner`…): a call of that
    /// name is the file's from here on, said with a warning (as a name that hides a built-in
    /// name is, in [`Checker::declare`]).
    pub(crate) fn hides_function(&mut self, name: &str, span: Span, what: &'static str) {
        if crate::lang::builtins::function(name).is_none()
            || matches!(self.t.globals.get(name), Some((Global::Builtin, _)))
        {
            return;
        }
        let d = Diagnostic::new(
            ErrorKind::Shadow {
                what,
                name: name.to_string(),
                earlier: "the built-in function",
            },
            span,
        )
        .with_hint(format!(
            "in this file `{name}(…)` calls this {what}, and the built-in `{name}` cannot be used; if that is meant, a different name says so"
        ))
        .warning();
        self.d.warnings.push(d);
    }

    fn meta(&mut self) -> MetaInfo {
        let f = self.t.file;
        match self.d.one_of(&f.meta, |m| m.span, "`game` block", true) {
            Some(m) => {
                if let Some((base, span)) = &m.base {
                    // `load_game` on the text of a derived file, its base never read
                    self.error_hint(
                        ErrorKind::BaseGame {
                            message: format!("this game is built on `{base}`, which was not read"),
                        },
                        *span,
                        "load the file by its path (`ludic validate FILE`), or compose it first with `ludic::derive::compose`",
                    );
                }
                MetaInfo {
                    name: m.name.clone(),
                    aliases: m.aliases.clone(),
                    origin: m.origin.clone(),
                    source: m.source.clone(),
                    summary: m.summary.clone(),
                    based_on: f.derivation.as_ref().map(|d| d.base.clone()),
                    changes: f
                        .derivation
                        .as_ref()
                        .map(|d| d.changes.clone())
                        .unwrap_or_default(),
                }
            }
            None => MetaInfo::default(),
        }
    }

    pub(crate) fn type_error_at(&mut self, expected: Ty, found: Ty, span: Span) {
        self.error(
            ErrorKind::Type {
                expected: expected.words().into(),
                found: found.words().into(),
            },
            span,
        );
    }
}
