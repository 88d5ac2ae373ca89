//! The checker: from an [`ast::GameFile`] and the option settings to a [`Game`], reporting every
//! problem of the file at once, sorted by position.
//!
//! Here: the checker's state, the types, names and their suggestions, and the order of the
//! work; one file per concern beside it: `options` (options, variants, `-o`), `decls` (sides,
//! pieces, definitions, tallies, dice), `board` (sites, regions, rings, tracks, points,
//! links), `labels`, `limit`, `lines`, `none_type`, `call_site`. [`crate::lang::lower`] turns
//! expressions and statements into the IR.

use crate::ast::{self, OptionDomain, OptionValue, SiteAttr, SiteItem, Span};
use crate::diagnostic::{Diagnostic, Diagnostics, ErrorKind, suggest};
use crate::ir::*;
use std::collections::{BTreeMap, HashMap};

mod board;
mod call_site;
mod decls;
mod labels;
mod limit;
mod lines;
mod options;
mod shadow;
pub use options::option_map;
pub(crate) mod none_type;

pub(crate) use call_site::ParamFrame;
pub(crate) use none_type::NullVar;

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

/// The type of an expression, known at check time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Num,
    Bool,
    Site,
    Player,
    Dir,
    SiteKind,
    Piece,
    Word,
    Set,
    Token,
    Area,
    /// already reported: unifies with anything
    Error,
    /// `none`, or a variable made from it, whose type is not known yet: the first use that
    /// needs a site, player, token or area says which (see `check::none_type`)
    Null,
}

impl Ty {
    pub(crate) fn words(self) -> &'static str {
        match self {
            Ty::Num => "a number",
            Ty::Bool => "a condition",
            Ty::Site => "a site",
            Ty::Player => "a player",
            Ty::Dir => "a direction",
            Ty::SiteKind => "a site kind",
            Ty::Piece => "a piece kind",
            Ty::Word => "a word",
            Ty::Set => "a set of sites",
            Ty::Token => "a token",
            Ty::Area => "an area",
            Ty::Error => "anything",
            Ty::Null => "`none`",
        }
    }
}

/// What a global name stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Global {
    Option(usize),
    Word(i64),
    Site(SiteId),
    Region(RegionId),
    Player(Player),
    Piece(PieceKind),
    Dir(u8),
    Def(usize),
    Area(u8),
    Dice(u16),
    Action(usize),
    /// a tally: its index in `Checker::tallies`
    Tally(usize),
    Builtin,
}

/// A local name: a variable slot, or (for `def` parameters) the argument expression itself,
/// with what copying it where it is used costs.
#[derive(Clone, Debug)]
pub(crate) enum Local {
    Var(VarId, Ty),
    Bound(Expr, Ty, Cost),
    BoundSet(SetExpr, Cost),
}

/// Upper bounds of the depth and of the number of parts of a lowered expression: a `def`'s
/// argument is copied at each use of its parameter, and pays this again there
/// (`Checker::expand`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cost {
    pub(crate) height: usize,
    pub(crate) size: usize,
}

impl Cost {
    /// A constant.
    pub(crate) const ONE: Cost = Cost { height: 1, size: 1 };
}

pub(crate) struct Checker<'a> {
    pub(crate) file: &'a ast::GameFile,
    pub(crate) source: &'a str,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) globals: HashMap<String, (Global, Span)>,
    pub(crate) options: Vec<OptionInfo>,
    pub(crate) words: Vec<String>,
    pub(crate) players: Vec<String>,
    pub(crate) sides: Vec<String>,
    pub(crate) pieces: Vec<PieceInfo>,
    pub(crate) sites: Vec<SiteInfo>,
    pub(crate) regions: Vec<(String, Vec<bool>)>,
    pub(crate) dir_names: Option<[String; 2]>,
    pub(crate) next: [Vec<u16>; 2],
    pub(crate) opposite: Vec<u16>,
    // lowering state
    pub(crate) code: Vec<Instr>,
    pub(crate) choices: Vec<Choice>,
    pub(crate) nvars: usize,
    pub(crate) scopes: Vec<Vec<(String, Local)>>,
    pub(crate) def_stack: Vec<String>,
    pub(crate) lap_stack: Vec<u32>,
    pub(crate) choose_stack: Vec<u32>,
    /// where `again` goes for the `choose` about to be lowered: the first of the tests that
    /// immediately precede it in its block (see `Checker::block`)
    pub(crate) again_target: Option<u32>,
    pub(crate) in_start: bool,
    /// lowering the `between rounds` program
    pub(crate) in_between: bool,
    pub(crate) tallies: Vec<TallyInfo>,
    /// the state slots the tallies take
    pub(crate) tally_slots: usize,
    /// prefixes of site ranges that could not be built: their names are not reported again
    pub(crate) poisoned: Vec<String>,
    pub(crate) poison_hits: usize,
    pub(crate) tracks: Vec<Option<TrackInfo>>,
    pub(crate) areas: Vec<String>,
    pub(crate) tokens: Vec<TokenInfo>,
    /// which piece kinds are tokens
    pub(crate) token_kinds: Vec<bool>,
    pub(crate) dice: Vec<DiceInfo>,
    pub(crate) loops: usize,
    pub(crate) dirs: Vec<(i64, i64)>,
    pub(crate) step: Vec<Vec<u16>>,
    /// where each `def` and action being expanded is used (parallel to `def_stack`)
    pub(crate) use_spans: Vec<Span>,
    /// levels of lowering entered, `def`s and actions expanded included
    pub(crate) nesting: usize,
    /// the deepest `nesting` reached (or copied: see `Cost`), for measuring arguments
    pub(crate) high_water: usize,
    /// expression parts and statements lowered so far, copies of arguments included
    pub(crate) work: usize,
    /// a limit of expansion was passed and reported: nothing more is lowered
    pub(crate) halted: bool,
    /// the site at each coordinate (the first declared there)
    pub(crate) at_coord: HashMap<(i64, i64), u16>,
    /// ways all the dice declared so far can land (see `MAX_OUTCOMES`)
    pub(crate) outcomes: usize,
    /// "did you mean" hints computed so far (see `MAX_SUGGESTIONS`)
    pub(crate) suggestions: std::cell::Cell<usize>,
    /// which file and line an offset is in (for hints that name an earlier place)
    pub(crate) places: crate::derive::SourceMap<'a>,
    /// the lines of the board (`line …`, `lines N`)
    pub(crate) board_lines: Vec<Vec<u16>>,
    /// `repeated` is used: the engine keeps the history of positions
    pub(crate) history: bool,
    /// the `def`s and actions being expanded, innermost last: where each parameter's
    /// argument was written (a type error about it is reported there, see `check::call_site`)
    pub(crate) param_frames: Vec<ParamFrame>,
    /// variables made from `none` (`let x = none`) and the type their uses gave them
    pub(crate) null_vars: HashMap<VarId, NullVar>,
    /// the variable that holds the pieces sown by the lap of each `sow` being lowered (`sown`),
    /// and whether its block reads it
    pub(crate) sown_vars: Vec<(VarId, bool)>,
    /// the variables made by a `let` without a type: their name and the span of their value,
    /// where a use of the wrong type is reported (once: the variable is then poisoned)
    pub(crate) let_values: HashMap<VarId, Span>,
    /// what is allowed but likely a mistake (a `let` that hides a name): reported, not fatal
    pub(crate) warnings: Vec<Diagnostic>,
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
/// Suggestions ("did you mean") computed for one file: each compares a name with every name.
const MAX_SUGGESTIONS: usize = 100;

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
    let result = check_into(file, source, settings, &mut warnings);
    (result, Diagnostics(warnings).sorted())
}

fn check_into(
    file: &ast::GameFile,
    source: &str,
    settings: &Settings,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Game, LoadError> {
    let mut c = Checker {
        file,
        source,
        diags: vec![],
        globals: HashMap::new(),
        options: vec![],
        words: vec![],
        players: vec![],
        sides: vec![],
        pieces: vec![],
        sites: vec![],
        regions: vec![],
        dir_names: None,
        next: [vec![], vec![]],
        opposite: vec![],
        code: vec![],
        choices: vec![],
        nvars: 0,
        scopes: vec![],
        def_stack: vec![],
        lap_stack: vec![],
        choose_stack: vec![],
        again_target: None,
        in_start: false,
        in_between: false,
        tallies: vec![],
        tally_slots: 0,
        poisoned: vec![],
        poison_hits: 0,
        tracks: vec![],
        areas: vec![],
        tokens: vec![],
        token_kinds: vec![],
        dice: vec![],
        loops: 0,
        dirs: vec![],
        step: vec![],
        use_spans: vec![],
        nesting: 0,
        high_water: 0,
        work: 0,
        halted: false,
        at_coord: HashMap::new(),
        outcomes: 0,
        suggestions: std::cell::Cell::new(0),
        places: crate::derive::SourceMap::new("", source),
        board_lines: vec![],
        history: false,
        param_frames: vec![],
        null_vars: HashMap::new(),
        sown_vars: vec![],
        let_values: HashMap::new(),
        warnings: vec![],
    };
    for b in crate::lang::builtins::names() {
        c.globals
            .insert(b.to_string(), (Global::Builtin, Span::default()));
    }
    let meta = c.meta();
    if file.meta.iter().any(|m| m.base.is_some()) {
        // the base was never read: everything else would be reported against half a game
        return Err(LoadError::File(Diagnostics(c.diags).sorted()));
    }
    c.options_decls();
    let variants = c.variants();
    // The file's own problems come first: user settings are only applied to a valid file.
    let (option_errors, before_sets) = c.apply_settings(settings, &variants);
    c.sides();
    if file.sides.is_empty() {
        // every name of a player would be unknown: the missing line is the one thing to say
        return Err(LoadError::File(Diagnostics(c.diags).sorted()));
    }
    c.pieces();
    c.board();
    c.dice_decls();
    c.defs();
    c.tally_decls();
    c.shadowing();
    *warnings = std::mem::take(&mut c.warnings);
    let broken = c.requires(settings, &before_sets);
    let limits = c.limits();
    let (turn_start, between_start) = c.programs();
    let labels = c.labels();
    if !broken.is_empty() {
        // The options chosen with `-o` break a requirement: that is what to say, not what
        // follows from it in the file.
        return Err(LoadError::Options(
            option_errors.into_iter().chain(broken).collect(),
        ));
    }
    if !c.diags.is_empty() {
        return Err(LoadError::File(Diagnostics(c.diags).sorted()));
    }
    if !option_errors.is_empty() {
        return Err(LoadError::Options(option_errors));
    }
    let site_index = c
        .sites
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.clone(), SiteId(i as u16)))
        .collect();
    let mut game = Game {
        meta,
        options: c.options,
        variants,
        labels,
        sides: c.sides,
        players: c.players,
        sites: c.sites,
        regions: c.regions,
        pieces: c.pieces,
        dir_names: c.dir_names,
        next: c.next,
        opposite: c.opposite,
        tracks: c.tracks,
        areas: c.areas,
        tokens: c.tokens,
        dice: c.dice,
        loops: c.loops,
        dirs: c.dirs,
        step: c.step,
        code: c.code,
        choices: c.choices,
        turn_start,
        between_start,
        tally_slots: c.tally_slots,
        tallies: c.tallies,
        nvars: c.nvars,
        turn_limit: limits.turns,
        site_index,
        lines: c.board_lines,
        history: c.history,
        turn_limit_end: limits.turns_end,
        move_limit: limits.moves,
        move_limit_end: limits.moves_end,
    };
    crate::optimize::optimize(&mut game);
    Ok(game)
}

impl<'a> Checker<'a> {
    pub(crate) fn error(&mut self, kind: ErrorKind, span: Span) {
        let d = self.at_call_site(Diagnostic::new(kind, span));
        self.diags.push(d);
    }

    pub(crate) fn error_hint(&mut self, kind: ErrorKind, span: Span, hint: impl Into<String>) {
        let d = self.at_call_site(Diagnostic::new(kind, span).with_hint(hint));
        self.diags.push(d);
    }

    /// Registers a global name, reporting a clash with an earlier one.
    pub(crate) fn declare(
        &mut self,
        name: &str,
        g: Global,
        span: Span,
        what: &'static str,
    ) -> bool {
        if let Some((prev, prev_span)) = self.globals.get(name) {
            let hint = match prev {
                Global::Builtin => {
                    "this name is built into the language; choose another".to_string()
                }
                _ => {
                    let at = self.places.place(prev_span.start);
                    format!(
                        "the first definition is at {at}; names of options, sides, pieces, sites, regions, directions and defs share one namespace"
                    )
                }
            };
            self.error_hint(
                ErrorKind::Duplicate {
                    what,
                    name: name.to_string(),
                },
                span,
                hint,
            );
            return false;
        }
        self.globals.insert(name.to_string(), (g, span));
        true
    }

    /// Whether one more "did you mean" may be computed: each compares a name with every name,
    /// so a file of many unknown names gets hints for the first ones only.
    pub(crate) fn may_suggest(&self) -> bool {
        let n = self.suggestions.get();
        self.suggestions.set(n + 1);
        n < MAX_SUGGESTIONS
    }

    /// The candidate closest to `name`, as [`suggest`] finds it, while suggestions remain
    /// (`may_suggest`).
    pub(crate) fn suggest_among<'b>(
        &self,
        name: &str,
        candidates: impl IntoIterator<Item = &'b str>,
    ) -> Option<String> {
        if self.may_suggest() {
            suggest(name, candidates)
        } else {
            None
        }
    }

    /// Whether a name belongs to a site range that already failed (not reported again).
    pub(crate) fn is_poisoned(&self, name: &str) -> bool {
        self.poisoned.iter().any(|p| {
            name.strip_prefix(p.as_str())
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    /// A hint naming the closest known name, for an unknown one. The author's own names (defs,
    /// lets, parameters, regions, sites, options…) come before the language's built-in names
    /// and functions when they are as close or one edit further: `mien` is the author's `mine`
    /// rather than the function `min`.
    pub(crate) fn did_you_mean(&self, name: &str) -> Option<String> {
        if !self.may_suggest() {
            return None;
        }
        let mut own: Vec<&str> = vec![];
        let mut builtin: Vec<&str> = crate::lang::builtins::functions().collect();
        for (n, (g, _)) in &self.globals {
            match g {
                Global::Builtin => builtin.push(n),
                _ => own.push(n),
            }
        }
        for s in &self.scopes {
            own.extend(s.iter().map(|(n, _)| n.as_str()));
        }
        own.sort();
        builtin.sort();
        let best = match (
            crate::diagnostic::suggest_scored(name, own),
            crate::diagnostic::suggest_scored(name, builtin),
        ) {
            (Some((d, o)), Some((b, _))) if d <= b + 1 => o,
            (_, Some((_, b))) => b,
            (Some((_, o)), None) => o,
            (None, None) => return None,
        };
        Some(format!("did you mean `{best}`?"))
    }

    fn one_of<T>(
        &mut self,
        items: &'a [T],
        span_of: impl Fn(&T) -> Span,
        what: &'static str,
        required: bool,
    ) -> Option<&'a T> {
        if items.is_empty() {
            if required {
                let hint = format!("add {what}; `ludic help language` shows how");
                self.error_hint(ErrorKind::Missing { what }, Span { start: 0, end: 0 }, hint);
            }
            return None;
        }
        for extra in &items[1..] {
            self.error(ErrorKind::TooMany { what }, span_of(extra));
        }
        Some(&items[0])
    }

    fn meta(&mut self) -> MetaInfo {
        let f = self.file;
        match self.one_of(&f.meta, |m| m.span, "`game` block", true) {
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

    /// Lowers the start program, the turn program and the `between rounds` program; returns
    /// where the turn and the `between rounds` program start.
    fn programs(&mut self) -> (u32, Option<u32>) {
        let f = self.file;
        if let Some((_, body)) = self.one_of(&f.starts, |s| s.0, "`start` block", false) {
            self.in_start = true;
            self.block(body);
            self.in_start = false;
        }
        self.code.push(Instr::NewRound);
        let turn_start = self.code.len() as u32;
        if let Some((_, body)) = self.one_of(&f.turns, |s| s.0, "`turn` block", true) {
            self.block(body);
        }
        self.code.push(Instr::EndTurn);
        let between = self.one_of(&f.betweens, |s| s.0, "`between rounds` block", false);
        let between_start = between.map(|(_, body)| {
            let at = self.code.len() as u32;
            self.in_between = true;
            self.block(body);
            self.in_between = false;
            self.code.push(Instr::NewRound);
            at
        });
        (turn_start, between_start)
    }
}
