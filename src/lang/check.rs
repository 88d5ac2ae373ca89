//! The checker: from an [`ast::GameFile`] and the option settings to a [`Game`], reporting every
//! problem of the file at once, sorted by position.
//!
//! This module handles the declarations (options, sides, pieces, board); [`crate::lower`] turns
//! expressions and statements into the IR.

use crate::ast::{self, OptionDomain, OptionValue, SiteAttr, SiteItem, Span};
use crate::diagnostic::{Diagnostic, Diagnostics, ErrorKind, suggest};
use crate::ir::*;
use std::collections::{BTreeMap, HashMap};

mod call_site;
mod labels;
mod limit;
mod lines;
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
    pub(crate) lines: crate::diagnostic::LineIndex<'a>,
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
}

const BUILTINS: [&str; 13] = [
    "mover",
    "opponent",
    "none",
    "all",
    "hole",
    "store",
    "cell",
    "point",
    "void",
    "round",
    "first_player",
    "repeated",
    "sown",
];
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
        lines: crate::diagnostic::LineIndex::new(source),
        board_lines: vec![],
        history: false,
        param_frames: vec![],
        null_vars: HashMap::new(),
        sown_vars: vec![],
    };
    for b in BUILTINS {
        c.globals
            .insert(b.to_string(), (Global::Builtin, Span::default()));
    }
    let meta = c.meta();
    c.options_decls();
    let variants = c.variants();
    // The file's own problems come first: user settings are only applied to a valid file.
    let (option_errors, before_sets) = c.apply_settings(settings, &variants);
    c.sides();
    c.pieces();
    c.board();
    c.dice_decls();
    c.defs();
    c.tally_decls();
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
                    let (l, col) = self.lines.line_col(prev_span.start);
                    format!(
                        "the first definition is at line {l}, column {col}; names of options, sides, pieces, sites, regions, directions and defs share one namespace"
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

    /// A coordinate within the board's bounds (`MAX_COORD`), or the error.
    pub(crate) fn coordinate(&mut self, v: i64, span: Span) -> Option<i64> {
        if v.abs_diff(0) > MAX_COORD as u64 {
            self.error(
                ErrorKind::TooLarge {
                    value: v,
                    what: "coordinates from -1000000 to 1000000",
                },
                span,
            );
            return None;
        }
        Some(v)
    }

    /// Whether a name belongs to a site range that already failed (not reported again).
    pub(crate) fn is_poisoned(&self, name: &str) -> bool {
        self.poisoned.iter().any(|p| {
            name.strip_prefix(p.as_str())
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    /// A hint naming the closest known name, for an unknown one.
    pub(crate) fn did_you_mean(&self, name: &str) -> Option<String> {
        if !self.may_suggest() {
            return None;
        }
        let mut names: Vec<&str> = self.globals.keys().map(String::as_str).collect();
        for s in &self.scopes {
            names.extend(s.iter().map(|(n, _)| n.as_str()));
        }
        names.extend(crate::lower::FUNCTIONS);
        names.sort();
        suggest(name, names).map(|s| format!("did you mean `{s}`?"))
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
            Some(m) => MetaInfo {
                name: m.name.clone(),
                aliases: m.aliases.clone(),
                origin: m.origin.clone(),
                source: m.source.clone(),
                summary: m.summary.clone(),
            },
            None => MetaInfo::default(),
        }
    }

    fn options_decls(&mut self) {
        for o in &self.file.options {
            let (domain, default) = match (&o.domain, &o.default) {
                (None, OptionValue::Bool(b)) => (OptDomain::Bool, OptValue::Bool(*b)),
                (Some(OptionDomain::Range(lo, hi, sp)), OptionValue::Int(n)) => {
                    if lo > hi {
                        self.error(
                            ErrorKind::BadRange {
                                name: o.name.name.clone(),
                            },
                            *sp,
                        );
                    } else if n < lo || n > hi {
                        self.error(
                            ErrorKind::OutOfRange {
                                name: o.name.name.clone(),
                                value: *n,
                                lo: *lo,
                                hi: *hi,
                            },
                            o.default_span,
                        );
                    }
                    (OptDomain::Range(*lo, *hi), OptValue::Int(*n))
                }
                (None, OptionValue::Int(n)) => {
                    self.error_hint(
                        ErrorKind::Missing {
                            what: "range for this number option",
                        },
                        o.default_span,
                        format!(
                            "write the allowed values, e.g. `option {} = {n} in 1..100`",
                            o.name.name
                        ),
                    );
                    (OptDomain::Range(*n, *n), OptValue::Int(*n))
                }
                // A number may be one of the words (`rounds = 1 in 1 match`).
                (Some(OptionDomain::Words(ws)), OptionValue::Word(_) | OptionValue::Int(_)) => {
                    let w = &option_value_text(&o.default);
                    let list: Vec<String> = ws.iter().map(|i| i.name.clone()).collect();
                    if !list.contains(w) {
                        self.error(
                            ErrorKind::BadOptionValue {
                                name: o.name.name.clone(),
                                value: w.clone(),
                                expected: list.join(" | "),
                            },
                            o.default_span,
                        );
                    }
                    for wd in ws {
                        // A number among the words (`rounds = 1 in 1 match`) is no name.
                        let numeric = wd
                            .name
                            .starts_with(|c: char| c.is_ascii_digit() || c == '-');
                        if !self.words.contains(&wd.name) {
                            self.words.push(wd.name.clone());
                            let id = (self.words.len() - 1) as i64;
                            if !numeric {
                                self.declare(&wd.name, Global::Word(id), wd.span, "word");
                            }
                        }
                    }
                    (OptDomain::Words(list), OptValue::Word(w.clone()))
                }
                (_, v) => {
                    let expected = match &o.domain {
                        Some(OptionDomain::Range(..)) => "a number".to_string(),
                        Some(OptionDomain::Words(ws)) => ws
                            .iter()
                            .map(|i| i.name.as_str())
                            .collect::<Vec<_>>()
                            .join(" | "),
                        None => "`on`, `off`, or a number with a range".to_string(),
                    };
                    self.error(
                        ErrorKind::BadOptionValue {
                            name: o.name.name.clone(),
                            value: option_value_text(v),
                            expected,
                        },
                        o.default_span,
                    );
                    (OptDomain::Bool, OptValue::Bool(false))
                }
            };
            let idx = self.options.len();
            if self.declare(&o.name.name, Global::Option(idx), o.name.span, "option") {
                self.options.push(OptionInfo {
                    name: o.name.name.clone(),
                    value: default.clone(),
                    default,
                    domain,
                    doc: o.doc.clone(),
                });
            }
        }
    }

    fn option_index(&self, name: &str) -> Option<usize> {
        self.options.iter().position(|o| o.name == name)
    }

    fn variants(&mut self) -> Vec<VariantInfo> {
        let mut out: Vec<VariantInfo> = vec![];
        for v in &self.file.variants {
            if out.len() >= MAX_VARIANTS {
                // each variant is loaded when the file is validated
                self.error(
                    ErrorKind::TooLarge {
                        value: MAX_VARIANTS as i64 + 1,
                        what: "at most 64 variants",
                    },
                    v.span,
                );
                break;
            }
            if out.iter().any(|o| o.name == v.name) {
                self.error(
                    ErrorKind::Duplicate {
                        what: "variant",
                        name: v.name.clone(),
                    },
                    v.span,
                );
                continue;
            }
            let mut sets = vec![];
            for (name, value, sp) in &v.sets {
                let Some(i) = self.option_index(&name.name) else {
                    let hint = self
                        .suggest_among(&name.name, self.options.iter().map(|o| o.name.as_str()))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "a variant sets options declared with `option`".into());
                    self.error_hint(
                        ErrorKind::Unknown {
                            what: "option",
                            name: name.name.clone(),
                        },
                        name.span,
                        hint,
                    );
                    continue;
                };
                match typed_value(&self.options[i], value) {
                    Ok(val) => sets.push((name.name.clone(), val)),
                    Err(kind) => self.error(kind, *sp),
                }
            }
            out.push(VariantInfo {
                name: v.name.clone(),
                doc: v.doc.clone(),
                sets,
            });
        }
        out
    }

    /// Applies the variant, then the `-o` settings; returns the errors and the option values
    /// before the `-o` settings (to tell whether one of them breaks a requirement).
    fn apply_settings(
        &mut self,
        settings: &Settings,
        variants: &[VariantInfo],
    ) -> (Vec<String>, Vec<OptValue>) {
        let mut errors = vec![];
        if let Some(vname) = &settings.variant {
            match variants.iter().find(|v| &v.name == vname) {
                Some(v) => {
                    for (n, val) in &v.sets {
                        if let Some(i) = self.option_index(n) {
                            self.options[i].value = val.clone();
                        }
                    }
                }
                None => {
                    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                    let mut msg = format!("unknown variant `{vname}`");
                    match suggest(vname, names.iter().copied()) {
                        Some(s) => msg.push_str(&format!(": did you mean `{s}`?")),
                        None if names.is_empty() => msg.push_str(": this game has no variants"),
                        None => msg.push_str(&format!(
                            " (variants: {})",
                            names
                                .iter()
                                .map(|n| format!("`{n}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    }
                    errors.push(msg);
                }
            }
        }
        let before_sets = self.options.iter().map(|o| o.value.clone()).collect();
        for (name, text) in &settings.sets {
            let Some(i) = self.option_index(name) else {
                let mut msg = format!("unknown option `{name}`");
                match suggest(name, self.options.iter().map(|o| o.name.as_str())) {
                    Some(s) => msg.push_str(&format!(": did you mean `{s}`?")),
                    None => msg.push_str(&format!(
                        " (options: {})",
                        self.options
                            .iter()
                            .map(|o| o.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
                errors.push(msg);
                continue;
            };
            let raw = parse_setting(text);
            match typed_value(&self.options[i], &raw) {
                Ok(v) => self.options[i].value = v,
                Err(kind) => errors.push(kind.to_string()),
            }
        }
        (errors, before_sets)
    }

    fn sides(&mut self) {
        let f = self.file;
        let Some(sides) = self.one_of(
            &f.sides,
            |_| f.sides_spans.get(1).copied().unwrap_or_default(),
            "`sides` declaration",
            true,
        ) else {
            return;
        };
        if sides.len() > 16 {
            self.error(
                ErrorKind::TooLarge {
                    value: sides.len() as i64,
                    what: "at most 16 sides",
                },
                sides[16].span,
            );
        }
        for s in sides.iter().take(16) {
            let p = Player(self.sides.len() as u8);
            if self.declare(&s.name, Global::Player(p), s.span, "side") {
                self.sides.push(s.name.clone());
            }
        }
        let mut per_side = 1;
        if let Some(e) = self.one_of(
            &f.team_size,
            |e| e.span,
            "`players per side` declaration",
            false,
        ) {
            match self.const_int(e) {
                Some(n) if (1..=8).contains(&n) && n as usize * self.sides.len() <= 64 => {
                    per_side = n as usize
                }
                Some(n) => self.error(
                    ErrorKind::TooLarge {
                        value: n,
                        what: "1 to 8 players a side, 64 in all",
                    },
                    e.span,
                ),
                None => {}
            }
        }
        for i in 1..=per_side {
            for s in &self.sides {
                self.players.push(if per_side == 1 {
                    s.clone()
                } else {
                    format!("{s}{i}")
                });
            }
        }
    }

    fn pieces(&mut self) {
        let f = self.file;
        let Some(pieces) = self.one_of(
            &f.pieces,
            |p: &Vec<ast::PieceDecl>| p.first().map(|d| d.name.span).unwrap_or_default(),
            "`pieces` block",
            true,
        ) else {
            return;
        };
        for p in pieces.iter() {
            if self.pieces.len() >= 32 {
                self.error(
                    ErrorKind::TooLarge {
                        value: 33,
                        what: "at most 32 piece kinds",
                    },
                    p.name.span,
                );
                break;
            }
            let value = match &p.value {
                Some(e) => self.const_int(e).unwrap_or(1),
                None => 1,
            };
            let k = PieceKind(self.pieces.len() as u8);
            let mut is_token = false;
            if let Some(e) = &p.tokens
                && let Some(n) = self.const_int(e)
            {
                if !(0..=64).contains(&n) {
                    self.error(
                        ErrorKind::TooLarge {
                            value: n,
                            what: "0 to 64 tokens a player",
                        },
                        e.span,
                    );
                } else {
                    is_token = true;
                    for pl in 0..self.players.len() {
                        for _ in 0..n {
                            self.tokens.push(TokenInfo {
                                owner: Player(pl as u8),
                                kind: k,
                            });
                        }
                    }
                }
            }
            self.token_kinds.push(is_token);
            if self.declare(&p.name.name, Global::Piece(k), p.name.span, "piece kind") {
                self.pieces.push(PieceInfo {
                    name: p.name.name.clone(),
                    value,
                });
            }
        }
    }

    /// Evaluates an expression that must be a constant number (options and arithmetic only).
    pub(crate) fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
        let (x, ty) = self.expr(e);
        match (x, ty) {
            (_, Ty::Error) => None,
            (Expr::Const(n), Ty::Num) => Some(n),
            (_, Ty::Num) => {
                self.error_hint(
                    ErrorKind::Type {
                        expected: "a constant number".into(),
                        found: "a number that depends on the position".into(),
                    },
                    e.span,
                    "only options and arithmetic can be used here",
                );
                None
            }
            (_, t) => {
                self.error(
                    ErrorKind::Type {
                        expected: "a number".into(),
                        found: t.words().into(),
                    },
                    e.span,
                );
                None
            }
        }
    }

    /// The site at some coordinates, reporting when there is none.
    pub(crate) fn site_at(&mut self, x: i64, y: i64, span: Span) -> Option<SiteId> {
        match self.at_coord.get(&(x, y)) {
            Some(&i) => Some(SiteId(i)),
            None => {
                self.error_hint(
                    ErrorKind::Unknown {
                        what: "site at",
                        name: format!("({x}, {y})"),
                    },
                    span,
                    "sites get coordinates from `row`, `site` and `points`",
                );
                None
            }
        }
    }

    fn expand_sites(&mut self, items: &[SiteItem]) -> Vec<(String, Span)> {
        let mut out = vec![];
        for it in items {
            match it {
                SiteItem::Name(id) => out.push((id.name.clone(), id.span)),
                SiteItem::Coord(x, y, span) => {
                    if let (Some(x), Some(y)) = (self.const_int(x), self.const_int(y))
                        && let Some(s) = self.site_at(x, y, *span)
                    {
                        out.push((self.sites[s.0 as usize].name.clone(), *span));
                    }
                }
                SiteItem::CoordRange(x1, y1, x2, y2, span) => {
                    let (Some(x1), Some(y1), Some(x2), Some(y2)) = (
                        self.const_int(x1),
                        self.const_int(y1),
                        self.const_int(x2),
                        self.const_int(y2),
                    ) else {
                        continue;
                    };
                    let (Some(dx), Some(dy)) = (x2.checked_sub(x1), y2.checked_sub(y1)) else {
                        self.error(
                            ErrorKind::BadRange {
                                name: format!("({x1}, {y1})..({x2}, {y2})"),
                            },
                            *span,
                        );
                        continue;
                    };
                    if !(dx == 0 || dy == 0 || dx.abs_diff(0) == dy.abs_diff(0))
                        || dx.abs_diff(0).max(dy.abs_diff(0)) > MAX_SITES as u64
                    {
                        self.error_hint(
                            ErrorKind::BadRange {
                                name: format!("({x1}, {y1})..({x2}, {y2})"),
                            },
                            *span,
                            "a range of points goes along a row, a column or a diagonal",
                        );
                        continue;
                    }
                    let steps = dx.abs().max(dy.abs()); // at most MAX_SITES here
                    for i in 0..=steps {
                        let (x, y) = (x1 + dx.signum() * i, y1 + dy.signum() * i);
                        match self.site_at(x, y, *span) {
                            Some(s) => out.push((self.sites[s.0 as usize].name.clone(), *span)),
                            None => break,
                        }
                    }
                }
                SiteItem::Range {
                    prefix,
                    from,
                    to,
                    span,
                } => {
                    let (Some(a), Some(b)) = (self.const_int(from), self.const_int(to)) else {
                        self.poisoned.push(prefix.name.clone());
                        continue;
                    };
                    if a < 0 || b < 0 || a.abs_diff(b) >= MAX_SITES as u64 {
                        self.error(
                            ErrorKind::BadRange {
                                name: format!("{}[{a}..{b}]", prefix.name),
                            },
                            *span,
                        );
                        self.poisoned.push(prefix.name.clone());
                        continue;
                    }
                    let step: i64 = if a <= b { 1 } else { -1 };
                    let mut i = a;
                    loop {
                        out.push((format!("{}{i}", prefix.name), *span));
                        if i == b {
                            break;
                        }
                        i += step;
                    }
                }
            }
        }
        out
    }

    fn site_attrs(&mut self, attrs: &[SiteAttr]) -> (SiteKind, Option<Player>) {
        let mut kind = SiteKind::Hole;
        let mut owner = None;
        for a in attrs {
            match a {
                SiteAttr::Kind(id) => match SiteKind::ALL.iter().find(|k| k.name() == id.name) {
                    Some(k) => kind = *k,
                    None => {
                        let hint = suggest(&id.name, SiteKind::ALL.iter().map(|k| k.name()))
                            .map(|s| format!("did you mean `{s}`?"))
                            .unwrap_or_else(|| "site kinds are hole, store, cell and point".into());
                        self.error_hint(
                            ErrorKind::Unknown {
                                what: "site kind",
                                name: id.name.clone(),
                            },
                            id.span,
                            hint,
                        );
                    }
                },
                SiteAttr::Owner(id) => match self.sides.iter().position(|p| *p == id.name) {
                    Some(i) => owner = Some(Player(i as u8)),
                    None => {
                        let hint = suggest(&id.name, self.sides.iter().map(String::as_str))
                            .map(|s| format!("did you mean `{s}`?"))
                            .unwrap_or_else(|| "owners are the sides named in `sides`".into());
                        self.error_hint(
                            ErrorKind::Unknown {
                                what: "side",
                                name: id.name.clone(),
                            },
                            id.span,
                            hint,
                        );
                    }
                },
            }
        }
        (kind, owner)
    }

    fn add_site(
        &mut self,
        name: String,
        span: Span,
        x: i64,
        y: i64,
        kind: SiteKind,
        owner: Option<Player>,
    ) {
        if self.sites.len() as i64 >= MAX_SITES {
            self.error(
                ErrorKind::TooLarge {
                    value: MAX_SITES + 1,
                    what: "at most 4096 sites",
                },
                span,
            );
            return;
        }
        // A site out of bounds is reported, and declared all the same (without a place),
        // so that its uses are not reported as unknown.
        let (x, y, placed) = match (self.coordinate(x, span), self.coordinate(y, span)) {
            (Some(x), Some(y)) => (x, y, true),
            _ => (0, 0, false),
        };
        let id = SiteId(self.sites.len() as u16);
        if self.declare(&name, Global::Site(id), span, "site") {
            if placed {
                self.at_coord.entry((x, y)).or_insert(id.0);
            }
            self.sites.push(SiteInfo {
                name,
                x,
                y,
                kind,
                owner,
            });
        }
    }

    fn board(&mut self) {
        let f = self.file;
        let Some(b) = self.one_of(&f.boards, |b| b.span, "`board` block", true) else {
            return;
        };
        for row in &b.rows {
            let names = self.expand_sites(&row.sites);
            let y = self.const_int(&row.y).unwrap_or(0);
            let x0 = match &row.x {
                Some(x) => self.const_int(x).unwrap_or(1),
                None => 1,
            };
            let (kind, owner) = self.site_attrs(&row.attrs);
            for (i, (name, span)) in names.into_iter().enumerate() {
                // (a row has at most MAX_SITES names: out of bounds, add_site reports it)
                let x = x0.saturating_add(i as i64);
                self.add_site(name, span, x, y, kind, owner);
            }
        }
        for s in &b.sites {
            let x = self.const_int(&s.x).unwrap_or(0);
            let y = self.const_int(&s.y).unwrap_or(0);
            let (kind, owner) = self.site_attrs(&s.attrs);
            self.add_site(s.name.name.clone(), s.name.span, x, y, kind, owner);
        }
        self.points(&b.points);
        self.links(&b.links);
        let n = self.sites.len();
        self.next = [vec![u16::MAX; n], vec![u16::MAX; n]];
        self.opposite = vec![u16::MAX; n];
        for r in &b.regions {
            let mut members = vec![false; n];
            for item in &r.items {
                let set = self.set_expr(item);
                if !self.static_members(&set, &mut members, true) {
                    self.error_hint(
                        ErrorKind::Type {
                            expected: "sites, ranges or regions".into(),
                            found: "a set that depends on the position".into(),
                        },
                        item.span,
                        "a region is fixed when the board is built",
                    );
                }
            }
            if self.regions.len() >= MAX_REGIONS {
                self.error(
                    ErrorKind::TooLarge {
                        value: MAX_REGIONS as i64 + 1,
                        what: "at most 1024 regions",
                    },
                    r.name.span,
                );
                break;
            }
            let id = RegionId(self.regions.len() as u16);
            if self.declare(&r.name.name, Global::Region(id), r.name.span, "region") {
                self.regions.push((r.name.name.clone(), members));
            }
        }
        if let Some(ring) = self.one_of(&b.rings, |r| r.span, "`ring`", false) {
            let seq = self.resolve_sites(&ring.sites);
            let mut seen = vec![false; n];
            let mut ok = true;
            for (s, span) in &seq {
                if std::mem::replace(&mut seen[s.0 as usize], true) {
                    self.error(
                        ErrorKind::RingRepeat {
                            name: self.sites[s.0 as usize].name.clone(),
                        },
                        *span,
                    );
                    ok = false;
                }
            }
            if ok && !seq.is_empty() {
                let len = seq.len();
                for i in 0..len {
                    let a = seq[i].0.0;
                    let b2 = seq[(i + 1) % len].0.0;
                    self.next[0][a as usize] = b2;
                    self.next[1][b2 as usize] = a;
                }
            }
            if self.declare(
                &ring.forward.name,
                Global::Dir(0),
                ring.forward.span,
                "direction",
            ) & self.declare(
                &ring.backward.name,
                Global::Dir(1),
                ring.backward.span,
                "direction",
            ) {
                self.dir_names = Some([ring.forward.name.clone(), ring.backward.name.clone()]);
            }
        }
        self.tracks = vec![None; self.sides.len()];
        for t in &b.tracks {
            let sites: Vec<u16> = match &t.turned {
                None => self
                    .resolve_sites(&t.sites)
                    .into_iter()
                    .map(|(s, _)| s.0)
                    .collect(),
                Some((other, deg, cx, cy)) => {
                    let (Some(cx), Some(cy)) = (self.const_int(cx), self.const_int(cy)) else {
                        continue;
                    };
                    let (Some(cx), Some(cy)) =
                        (self.coordinate(cx, t.span), self.coordinate(cy, t.span))
                    else {
                        continue;
                    };
                    let Some(o) = self.sides.iter().position(|p| *p == other.name) else {
                        self.error(
                            ErrorKind::Unknown {
                                what: "side",
                                name: other.name.clone(),
                            },
                            other.span,
                        );
                        continue;
                    };
                    let Some(base) = self.tracks.get(o).cloned().flatten() else {
                        self.error_hint(
                            ErrorKind::Missing {
                                what: "track to turn",
                            },
                            other.span,
                            format!("declare the track of {} before this one", other.name),
                        );
                        continue;
                    };
                    if deg.rem_euclid(90) != 0 {
                        self.error_hint(
                            ErrorKind::BadRange {
                                name: format!("{deg} degrees"),
                            },
                            t.span,
                            "a track turns by 90, 180 or 270 degrees",
                        );
                        continue;
                    }
                    let mut out = vec![];
                    for s in base.sites {
                        let (x, y) = (self.sites[s as usize].x - cx, self.sites[s as usize].y - cy);
                        let (rx, ry) = match deg.rem_euclid(360) {
                            0 => (x, y),
                            90 => (-y, x),
                            180 => (-x, -y),
                            _ => (y, -x),
                        };
                        match self.site_at(cx + rx, cy + ry, t.span) {
                            Some(site) => out.push(site.0),
                            None => break,
                        }
                    }
                    out
                }
            };
            match self.sides.iter().position(|p| *p == t.side.name) {
                Some(p) => {
                    if self.tracks[p].is_some() {
                        self.error(
                            ErrorKind::Duplicate {
                                what: "track of side",
                                name: t.side.name.clone(),
                            },
                            t.side.span,
                        );
                    }
                    let first = t.from.unwrap_or(1);
                    if first.abs_diff(0) > MAX_COORD as u64 || sites.len() > i32::MAX as usize / 2 {
                        self.error(
                            ErrorKind::TooLarge {
                                value: first,
                                what: "a track's first position from -1000000 to 1000000",
                            },
                            t.span,
                        );
                        continue;
                    }
                    let mut pos_of = vec![-1i32; self.sites.len()];
                    for (i, &s) in sites.iter().enumerate().rev() {
                        pos_of[s as usize] = (first + i as i64) as i32;
                    }
                    self.tracks[p] = Some(TrackInfo {
                        first,
                        sites,
                        pos_of,
                    });
                }
                None => {
                    let hint = suggest(&t.side.name, self.sides.iter().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "a track belongs to a side named in `sides`".into());
                    self.error_hint(
                        ErrorKind::Unknown {
                            what: "side",
                            name: t.side.name.clone(),
                        },
                        t.side.span,
                        hint,
                    );
                }
            }
        }
        for a in &b.areas {
            if self.areas.len() >= MAX_AREAS {
                self.error(
                    ErrorKind::TooLarge {
                        value: MAX_AREAS as i64 + 1,
                        what: "at most 64 areas",
                    },
                    a.span,
                );
                break;
            }
            let i = self.areas.len() as u8;
            if self.declare(&a.name, Global::Area(i), a.span, "area") {
                self.areas.push(a.name.clone());
            }
        }
        for o in &b.opposites {
            let before = (self.diags.len(), self.poison_hits);
            let l = self.resolve_sites(&o.left);
            let r = self.resolve_sites(&o.right);
            if (self.diags.len(), self.poison_hits) != before {
                continue; // already reported
            }
            if l.len() != r.len() {
                self.error(
                    ErrorKind::Length {
                        left: l.len(),
                        right: r.len(),
                    },
                    o.span,
                );
                continue;
            }
            for ((a, _), (b2, _)) in l.iter().zip(&r) {
                self.opposite[a.0 as usize] = b2.0;
                self.opposite[b2.0 as usize] = a.0;
            }
        }
        self.board_lines(&b.lines);
    }

    /// `points …`: generated sites of kind `point`, named by file and rank (`a1` is the
    /// smallest x and y of all generated points).
    fn points(&mut self, decls: &[ast::PointsDecl]) {
        let mut made: Vec<(i64, i64, SiteKind, Option<Player>, Span)> = vec![];
        for d in decls {
            let (mut kind, owner) = self.site_attrs(&d.attrs);
            if !d.attrs.iter().any(|a| matches!(a, SiteAttr::Kind(_))) {
                kind = SiteKind::Point;
            }
            for (x, y, span) in &d.coords {
                if let (Some(x), Some(y)) = (self.const_int(x), self.const_int(y))
                    && let (Some(x), Some(y)) =
                        (self.coordinate(x, *span), self.coordinate(y, *span))
                {
                    made.push((x, y, kind, owner, *span));
                }
            }
            if let Some((xn, x1, x2, yn, y1, y2, cond)) = &d.generator {
                let bounds = (
                    self.const_int(x1),
                    self.const_int(x2),
                    self.const_int(y1),
                    self.const_int(y2),
                );
                let (Some(x1), Some(x2), Some(y1), Some(y2)) = bounds else {
                    continue;
                };
                // counted before anything is made, in a width that cannot overflow
                let width = (x2 as i128 - x1 as i128 + 1).max(0);
                let height = (y2 as i128 - y1 as i128 + 1).max(0);
                let points = width.saturating_mul(height);
                if points > MAX_SITES as i128 {
                    self.error(
                        ErrorKind::TooLarge {
                            value: points.min(i64::MAX as i128) as i64,
                            what: "at most 4096 sites",
                        },
                        d.span,
                    );
                    continue;
                }
                if points > 0
                    && [x1, x2, y1, y2]
                        .iter()
                        .any(|&v| self.coordinate(v, d.span).is_none())
                {
                    continue;
                }
                let before = self.diags.len();
                'grid: for y in y1..=y2 {
                    for x in x1..=x2 {
                        let keep = match cond {
                            None => true,
                            Some(c) => {
                                self.scopes.push(vec![
                                    (
                                        xn.name.clone(),
                                        crate::check::Local::Bound(
                                            Expr::Const(x),
                                            Ty::Num,
                                            Cost::ONE,
                                        ),
                                    ),
                                    (
                                        yn.name.clone(),
                                        crate::check::Local::Bound(
                                            Expr::Const(y),
                                            Ty::Num,
                                            Cost::ONE,
                                        ),
                                    ),
                                ]);
                                let (e, t) = self.expr(c);
                                self.scopes.pop();
                                match (e, t) {
                                    (Expr::Const(v), Ty::Bool) => v != 0,
                                    (_, Ty::Error) => break 'grid,
                                    (_, t) => {
                                        self.type_error_at(Ty::Bool, t, c.span);
                                        break 'grid;
                                    }
                                }
                            }
                        };
                        if self.diags.len() > before {
                            break 'grid;
                        }
                        if keep {
                            made.push((x, y, kind, owner, d.span));
                        }
                    }
                }
            }
        }
        let (Some(min_x), Some(min_y)) = (
            made.iter().map(|m| m.0).min(),
            made.iter().map(|m| m.1).min(),
        ) else {
            return;
        };
        let wide = made.iter().map(|m| m.0 - min_x).max().unwrap_or(0) >= 26;
        for (x, y, kind, owner, span) in made {
            if self.at_coord.contains_key(&(x, y)) {
                self.error(
                    ErrorKind::Duplicate {
                        what: "point",
                        name: format!("({x}, {y})"),
                    },
                    span,
                );
                continue;
            }
            let name = if wide {
                format!("x{}y{}", x - min_x, y - min_y + 1)
            } else {
                format!("{}{}", (b'a' + (x - min_x) as u8) as char, y - min_y + 1)
            };
            self.add_site(name, span, x, y, kind, owner);
        }
    }

    /// `links …`: each point is joined to the point at each offset (when the condition holds
    /// at the first point), and back.
    fn links(&mut self, decls: &[ast::LinksDecl]) {
        for (offsets, cond, _) in decls {
            let mut offs = vec![];
            for (x, y, sp) in offsets {
                if let (Some(x), Some(y)) = (self.const_int(x), self.const_int(y))
                    && let (Some(x), Some(y)) = (self.coordinate(x, *sp), self.coordinate(y, *sp))
                {
                    if (x, y) == (0, 0) {
                        self.error(
                            ErrorKind::BadRange {
                                name: "(0, 0)".into(),
                            },
                            *sp,
                        );
                    } else {
                        offs.push((x, y));
                    }
                }
            }
            let mut seen = std::collections::HashSet::new();
            offs.retain(|o| seen.insert(*o));
            for (dx, dy) in offs {
                for o in [(dx, dy), (-dx, -dy)] {
                    if !self.dirs.contains(&o) {
                        if self.dirs.len() >= MAX_DIRECTIONS {
                            self.error(
                                ErrorKind::TooLarge {
                                    value: MAX_DIRECTIONS as i64 + 1,
                                    what: "at most 64 directions of links",
                                },
                                offsets.first().map(|o| o.2).unwrap_or_default(),
                            );
                            return;
                        }
                        self.dirs.push(o);
                        self.step.push(vec![u16::MAX; self.sites.len()]);
                    }
                }
                let fwd = self.dirs.iter().position(|&o| o == (dx, dy)).unwrap_or(0);
                let back = self.dirs.iter().position(|&o| o == (-dx, -dy)).unwrap_or(0);
                for s in 0..self.sites.len() {
                    let (x, y) = (self.sites[s].x, self.sites[s].y);
                    if let Some(c) = cond {
                        self.scopes.push(vec![
                            (
                                "x".to_string(),
                                Local::Bound(Expr::Const(x), Ty::Num, Cost::ONE),
                            ),
                            (
                                "y".to_string(),
                                Local::Bound(Expr::Const(y), Ty::Num, Cost::ONE),
                            ),
                        ]);
                        let (e, t) = self.expr(c);
                        self.scopes.pop();
                        match (e, t) {
                            (Expr::Const(0), Ty::Bool) => continue,
                            (Expr::Const(_), Ty::Bool) => {}
                            (_, Ty::Error) => return,
                            (_, t) => {
                                self.type_error_at(Ty::Bool, t, c.span);
                                return;
                            }
                        }
                    }
                    // (coordinates and offsets are within ±MAX_COORD: no overflow)
                    if let Some(&t) = self.at_coord.get(&(x + dx, y + dy)) {
                        self.step[fwd][s] = t;
                        self.step[back][t as usize] = s as u16;
                    }
                }
            }
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

    fn resolve_sites(&mut self, items: &[SiteItem]) -> Vec<(SiteId, Span)> {
        let names = self.expand_sites(items);
        let mut out = vec![];
        for (name, span) in names {
            match self.globals.get(&name) {
                Some((Global::Site(s), _)) => out.push((*s, span)),
                _ if self.is_poisoned(&name) => self.poison_hits += 1,
                _ => {
                    let hint = self
                        .suggest_among(&name, self.sites.iter().map(|s| s.name.as_str()))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| {
                            "sites are declared with `row` or `site` in the board".into()
                        });
                    self.error_hint(ErrorKind::Unknown { what: "site", name }, span, hint);
                }
            }
        }
        out
    }

    /// Adds (or removes) the members of a fixed set; false when the set is not fixed.
    fn static_members(&self, set: &SetExpr, members: &mut [bool], add: bool) -> bool {
        match set {
            SetExpr::All => {
                members.iter_mut().for_each(|m| *m = add);
                true
            }
            SetExpr::Empty => true,
            SetExpr::Region(r) => {
                for (m, &inr) in members.iter_mut().zip(&self.regions[r.0 as usize].1) {
                    if inr {
                        *m = add;
                    }
                }
                true
            }
            SetExpr::One(Expr::Const(s)) => {
                if let Some(m) = members.get_mut(*s as usize) {
                    *m = add;
                }
                true
            }
            SetExpr::Union(items) => items.iter().all(|i| self.static_members(i, members, add)),
            SetExpr::Diff(a, b) => {
                self.static_members(a, members, add) && self.static_members(b, members, !add)
            }
            _ => false,
        }
    }

    fn defs(&mut self) {
        for (i, d) in self.file.defs.iter().enumerate() {
            self.declare(&d.name.name, Global::Def(i), d.name.span, "def");
        }
        for (i, a) in self.file.actions.iter().enumerate() {
            self.declare(&a.name.name, Global::Action(i), a.name.span, "action");
        }
    }

    /// `tally NAME [per player] = N`: numbers kept across turns and rounds.
    fn tally_decls(&mut self) {
        for (i, t) in self.file.tallies.iter().enumerate() {
            // (a clash is reported; the tally keeps its index so that the others stay aligned)
            self.declare(&t.name.name, Global::Tally(i), t.name.span, "tally");
            let init = self.const_int(&t.init).unwrap_or(0);
            let slots = if t.per_site {
                self.sites.len()
            } else if t.per_player {
                self.players.len()
            } else {
                1
            };
            if self.tally_slots + slots.max(self.players.len()) > u16::MAX as usize {
                self.error(
                    ErrorKind::TooLarge {
                        value: self.tallies.len() as i64 + 1,
                        what: "at most 65535 tallies (a `per player` tally counts once a player, a `per site` tally once a site)",
                    },
                    t.name.span,
                );
                break;
            }
            self.tallies.push(TallyInfo {
                name: t.name.name.clone(),
                doc: t.doc.clone(),
                per_player: t.per_player,
                slot: self.tally_slots as u16,
                init,
                per_site: t.per_site,
            });
            self.tally_slots += slots;
        }
    }

    /// `dice NAME { … }`: every way the dice can land, with its value by the chart.
    fn dice_decls(&mut self) {
        for d in &self.file.dice {
            let mut dice: Vec<(String, Vec<String>)> = vec![];
            for (names, faces) in &d.dice {
                if faces.len() < 2 {
                    self.error_hint(
                        ErrorKind::Missing {
                            what: "second face",
                        },
                        names.first().map(|n| n.span).unwrap_or(d.span),
                        "a die has two faces or more: `die d1 d2 faces flat round`",
                    );
                }
                for n in names {
                    dice.push((
                        n.name.clone(),
                        faces.iter().map(|f| f.name.clone()).collect(),
                    ));
                }
            }
            if let Some((_, faces)) = dice.iter().find(|(_, f)| f.len() > 255) {
                self.error(
                    ErrorKind::TooLarge {
                        value: faces.len() as i64,
                        what: "at most 255 faces a die",
                    },
                    d.span,
                );
                continue;
            }
            // counted before anything is made, without overflow
            let combos = dice
                .iter()
                .try_fold(1usize, |n, (_, f)| n.checked_mul(f.len().max(1)))
                .unwrap_or(usize::MAX);
            if dice.is_empty() || combos > 1 << 16 {
                self.error(
                    ErrorKind::TooLarge {
                        value: combos.min(i64::MAX as usize) as i64,
                        what: "at most 65536 ways a throw can land",
                    },
                    d.span,
                );
                continue;
            }
            // the chart is evaluated for every way the dice land: its text bounds its work
            let chart_bytes = d.span.end.saturating_sub(d.span.start).max(1);
            if combos.saturating_mul(chart_bytes) > MAX_CHART_WORK {
                self.error_hint(
                    ErrorKind::TooLarge {
                        value: combos as i64,
                        what: "ways to land for a chart this long",
                    },
                    d.span,
                    "use fewer dice, or a shorter chart",
                );
                continue;
            }
            self.outcomes += combos;
            if self.outcomes > MAX_OUTCOMES {
                self.error(
                    ErrorKind::TooLarge {
                        value: self.outcomes as i64,
                        what: "at most 262144 ways all the dice of a file can land",
                    },
                    d.span,
                );
                continue;
            }
            let mut outcomes = vec![];
            let mut faces = vec![0u8; dice.len()];
            let mut reported = false;
            for _ in 0..combos {
                let mut found = None;
                for row in &d.chart {
                    let holds = match &row.when {
                        None => Some(true),
                        Some(w) => match crate::chart::eval(self, &dice, &faces, w) {
                            Ok(crate::chart::Val::Bool(b)) => Some(b),
                            Ok(_) => {
                                self.error(
                                    ErrorKind::Type {
                                        expected: "a condition".into(),
                                        found: "a value".into(),
                                    },
                                    w.span,
                                );
                                None
                            }
                            Err(e) => {
                                self.diags.push(e);
                                None
                            }
                        },
                    };
                    match holds {
                        Some(true) => {
                            match crate::chart::eval(self, &dice, &faces, &row.value) {
                                Ok(crate::chart::Val::Num(v)) => {
                                    found = Some((v, row.name.clone()))
                                }
                                Ok(_) => self.error(
                                    ErrorKind::Type {
                                        expected: "a number".into(),
                                        found: "something else".into(),
                                    },
                                    row.value.span,
                                ),
                                Err(e) => self.diags.push(e),
                            }
                            break;
                        }
                        Some(false) => {}
                        None => {
                            reported = true;
                            break;
                        }
                    }
                }
                match found {
                    Some((value, name)) => outcomes.push(ThrowOutcome {
                        faces: faces.clone(),
                        value,
                        name,
                        prob: 1.0 / combos as f64,
                    }),
                    None if !reported => {
                        let shown: Vec<String> = dice
                            .iter()
                            .zip(&faces)
                            .map(|((n, f), &i)| format!("{n} {}", f[i as usize]))
                            .collect();
                        self.error_hint(
                            ErrorKind::Missing {
                                what: "chart row for one way the dice land",
                            },
                            d.span,
                            format!(
                                "no row holds when {}; add `value … otherwise`",
                                shown.join(", ")
                            ),
                        );
                        reported = true;
                    }
                    None => {}
                }
                // the next combination, like an odometer
                for (i, f) in faces.iter_mut().enumerate() {
                    *f += 1;
                    if (*f as usize) < dice[i].1.len() {
                        break;
                    }
                    *f = 0;
                }
                if reported {
                    break;
                }
            }
            let id = self.dice.len() as u16;
            if self.declare(&d.name.name, Global::Dice(id), d.name.span, "dice") {
                self.dice.push(DiceInfo {
                    name: d.name.name.clone(),
                    dice,
                    outcomes,
                });
            }
        }
    }

    /// Checks the requirements. One that the values given with `-o` break (it holds without
    /// them) is the user's error, returned in words naming those options; one that fails
    /// otherwise is an error of the file.
    fn requires(&mut self, settings: &Settings, before_sets: &[OptValue]) -> Vec<String> {
        let mut broken = vec![];
        for r in &self.file.requires {
            let (e, ty) = self.expr(&r.cond);
            match (e, ty) {
                (_, Ty::Error) => {}
                (Expr::Const(0), Ty::Bool) if !settings.sets.is_empty() => {
                    match self.options_breaking(&r.cond, settings, before_sets) {
                        Some(names) => broken.push(format!(
                            "{names} {} a requirement of the game: {}",
                            if names.contains(", ") {
                                "break"
                            } else {
                                "breaks"
                            },
                            r.message
                        )),
                        None => self.error_hint(
                            ErrorKind::Requirement {
                                message: r.message.clone(),
                            },
                            r.span,
                            "the options chosen do not satisfy this requirement",
                        ),
                    }
                }
                (Expr::Const(v), Ty::Bool) => {
                    if v == 0 {
                        let user = !settings.sets.is_empty() || settings.variant.is_some();
                        let hint = if user {
                            "the options chosen do not satisfy this requirement".to_string()
                        } else {
                            "the default option values do not satisfy this requirement".to_string()
                        };
                        self.error_hint(
                            ErrorKind::Requirement {
                                message: r.message.clone(),
                            },
                            r.span,
                            hint,
                        );
                    }
                }
                (_, t) => self.error(
                    ErrorKind::Type {
                        expected: "a condition on options".into(),
                        found: t.words().into(),
                    },
                    r.cond.span,
                ),
            }
        }
        broken
    }

    /// Whether a requirement holds with the values before the `-o` settings: then the
    /// settings that make it fail, in words (`option \`seeds\` = 7`); `None` when it fails
    /// without them too (the file's error).
    fn options_breaking(
        &mut self,
        cond: &ast::Expr,
        settings: &Settings,
        before_sets: &[OptValue],
    ) -> Option<String> {
        let diags = self.diags.len();
        let holds_with = |c: &mut Self, values: &[OptValue]| {
            let now: Vec<OptValue> = c.options.iter().map(|o| o.value.clone()).collect();
            for (o, v) in c.options.iter_mut().zip(values) {
                o.value = v.clone();
            }
            let holds = matches!(c.expr(cond), (Expr::Const(v), Ty::Bool) if v != 0);
            for (o, v) in c.options.iter_mut().zip(now) {
                o.value = v;
            }
            holds
        };
        let holds_before = holds_with(self, before_sets);
        let mut named = vec![];
        if holds_before {
            let set: Vec<OptValue> = self.options.iter().map(|o| o.value.clone()).collect();
            // each option given with -o, alone back to its value before: does that mend it?
            for (name, _) in &settings.sets {
                let Some(i) = self.option_index(name) else {
                    continue;
                };
                let mut values = set.clone();
                values[i] = before_sets[i].clone();
                let label = format!("option `{name}` = {}", set[i]);
                if holds_with(self, &values) && !named.contains(&label) {
                    named.push(label);
                }
            }
            if named.is_empty() {
                named = settings
                    .sets
                    .iter()
                    .filter_map(|(n, _)| self.option_index(n))
                    .map(|i| format!("option `{}` = {}", self.options[i].name, set[i]))
                    .collect();
                named.dedup();
            }
        }
        // (evaluating again says nothing new)
        self.diags.truncate(diags);
        holds_before.then(|| named.join(", "))
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

fn option_value_text(v: &OptionValue) -> String {
    match v {
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Bool(true) => "on".into(),
        OptionValue::Bool(false) => "off".into(),
        OptionValue::Word(w) => w.clone(),
    }
}

fn parse_setting(text: &str) -> OptionValue {
    match text {
        "on" | "true" | "yes" => OptionValue::Bool(true),
        "off" | "false" | "no" => OptionValue::Bool(false),
        _ => match text.parse::<i64>() {
            Ok(n) => OptionValue::Int(n),
            Err(_) => OptionValue::Word(text.to_string()),
        },
    }
}

/// Checks a value against an option's domain.
fn typed_value(o: &OptionInfo, v: &OptionValue) -> Result<OptValue, ErrorKind> {
    let bad = |expected: String| ErrorKind::BadOptionValue {
        name: o.name.clone(),
        value: option_value_text(v),
        expected,
    };
    match (&o.domain, v) {
        (OptDomain::Range(lo, hi), OptionValue::Int(n)) => {
            if n < lo || n > hi {
                Err(ErrorKind::OutOfRange {
                    name: o.name.clone(),
                    value: *n,
                    lo: *lo,
                    hi: *hi,
                })
            } else {
                Ok(OptValue::Int(*n))
            }
        }
        (OptDomain::Range(lo, hi), _) => Err(bad(format!("a number in {lo}..{hi}"))),
        (OptDomain::Bool, OptionValue::Bool(b)) => Ok(OptValue::Bool(*b)),
        (OptDomain::Bool, _) => Err(bad("`on` or `off`".into())),
        (OptDomain::Words(ws), OptionValue::Word(w)) if ws.contains(w) => {
            Ok(OptValue::Word(w.clone()))
        }
        (OptDomain::Words(ws), OptionValue::Int(n)) if ws.contains(&n.to_string()) => {
            Ok(OptValue::Word(n.to_string()))
        }
        (OptDomain::Words(ws), _) => Err(bad(ws.join(" | "))),
    }
}

/// The options in force, by name (for records and `list`).
pub fn option_map(g: &Game) -> BTreeMap<String, String> {
    g.options
        .iter()
        .map(|o| (o.name.clone(), o.value.to_string()))
        .collect()
}
