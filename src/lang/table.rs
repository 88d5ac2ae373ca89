//! What the checker's declaration passes build and the lowering reads: the symbol table and the
//! board ([`Table`], built once by [`crate::check`], then read-only), the types of values
//! ([`Ty`]) and of global names ([`Global`]), and the one list of diagnostics both write
//! ([`Report`]).

use crate::ast::{self, Span};
use crate::diagnostic::{Diagnostic, ErrorKind, suggest};
use crate::ir::*;
use std::collections::HashMap;

/// Suggestions ("did you mean") computed for one file: each compares a name with every name.
const MAX_SUGGESTIONS: usize = 100;

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
    /// needs a site, player, token or area says which (see `lower::none_type`)
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
    /// a tally: its index in `Table::tallies`
    Tally(usize),
    Builtin,
}

impl Global {
    /// What the name is, in words: "the piece kind", "the side"…
    pub(crate) fn words(&self) -> &'static str {
        match self {
            Global::Option(_) => "the option",
            Global::Word(_) => "the word",
            Global::Site(_) => "the site",
            Global::Region(_) => "the region",
            Global::Player(_) => "the side",
            Global::Piece(_) => "the piece kind",
            Global::Dir(_) => "the direction",
            Global::Def(_) => "the `def`",
            Global::Area(_) => "the area",
            Global::Dice(_) => "the dice",
            Global::Action(_) => "the action",
            Global::Tally(_) => "the tally",
            Global::Builtin => "the built-in name",
        }
    }
}

/// The symbol table and the board, as the declaration passes of the checker build them: the
/// lowering reads it, and the game is assembled from it ([`Table::into_game`]).
pub(crate) struct Table<'a> {
    /// the file (its `def`s and actions are expanded where they are used)
    pub(crate) file: &'a ast::GameFile,
    pub(crate) source: &'a str,
    /// which file and line an offset is in (for hints that name an earlier place)
    pub(crate) places: crate::diagnostic::SourceMap<'a>,
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
    pub(crate) tallies: Vec<TallyInfo>,
    /// the state slots the tallies take
    pub(crate) tally_slots: usize,
    /// prefixes of site ranges that could not be built: their names are not reported again
    pub(crate) poisoned: Vec<String>,
    pub(crate) tracks: Vec<Option<TrackInfo>>,
    pub(crate) areas: Vec<String>,
    pub(crate) tokens: Vec<TokenInfo>,
    /// which piece kinds are tokens
    pub(crate) token_kinds: Vec<bool>,
    pub(crate) dice: Vec<DiceInfo>,
    pub(crate) dirs: Vec<(i64, i64)>,
    pub(crate) step: Vec<Vec<u16>>,
    /// the site at each coordinate (the first declared there)
    pub(crate) at_coord: HashMap<(i64, i64), u16>,
    /// the player to move is part of a position (`position pieces mover`, the default)
    pub(crate) position_mover: bool,
    /// only what is on the board's sites is part of a position (`position board`)
    pub(crate) position_board: bool,
    /// the tallies that are part of a position: (first slot, slots)
    pub(crate) position_slots: Vec<(u16, u16)>,
    /// the board's named directions (`directions n (0, 1) …`), in order
    pub(crate) compass: Vec<(String, (i64, i64))>,
    /// the lines of the board (`line …`, `lines N`)
    pub(crate) board_lines: Vec<Vec<u16>>,
}

/// What the lowering adds to the table to make the game: the program and its parts.
pub(crate) struct Program {
    pub(crate) code: Vec<Instr>,
    pub(crate) choices: Vec<Choice>,
    pub(crate) turn_start: u32,
    pub(crate) between_start: Option<u32>,
    pub(crate) nvars: usize,
    pub(crate) loops: usize,
    /// `repeated` is used: the engine keeps the history of positions
    pub(crate) history: bool,
}

/// The parts of the game the checker works out beside the table and the program.
pub(crate) struct Extras {
    pub(crate) meta: MetaInfo,
    pub(crate) variants: Vec<VariantInfo>,
    pub(crate) labels: Vec<LabelInfo>,
    pub(crate) turn_limit: u32,
    pub(crate) turn_limit_end: EndRule,
    pub(crate) move_limit: u32,
    pub(crate) move_limit_end: EndRule,
}

impl<'a> Table<'a> {
    /// An empty table, the built-in names declared.
    pub(crate) fn new(file: &'a ast::GameFile, source: &'a str) -> Self {
        let mut globals = HashMap::new();
        for b in crate::lang::builtins::names() {
            globals.insert(b.to_string(), (Global::Builtin, Span::default()));
        }
        Table {
            file,
            source,
            places: crate::diagnostic::SourceMap::new("", source),
            globals,
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
            tallies: vec![],
            tally_slots: 0,
            poisoned: vec![],
            tracks: vec![],
            areas: vec![],
            tokens: vec![],
            token_kinds: vec![],
            dice: vec![],
            dirs: vec![],
            step: vec![],
            at_coord: HashMap::new(),
            compass: vec![],
            position_mover: true,
            position_board: false,
            position_slots: vec![],
            board_lines: vec![],
        }
    }

    /// The game: this table, the program lowered from it, and the rest; the one place the
    /// parts meet.
    pub(crate) fn into_game(self, program: Program, extras: Extras) -> Game {
        let site_index = self
            .sites
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), SiteId(i as u16)))
            .collect();
        let grid = crate::ir::grid::SiteGrid::new(self.at_coord.iter().map(|(&p, &s)| (p, s)));
        let coords: Vec<(i64, i64)> = self.sites.iter().map(|s| (s.x, s.y)).collect();
        let compass = crate::ir::grid::Compass::new(self.compass, &grid, &coords);
        Game {
            meta: extras.meta,
            options: self.options,
            variants: extras.variants,
            labels: extras.labels,
            sides: self.sides,
            players: self.players,
            sites: self.sites,
            regions: self.regions,
            pieces: self.pieces,
            dir_names: self.dir_names,
            next: self.next,
            opposite: self.opposite,
            tracks: self.tracks,
            areas: self.areas,
            tokens: self.tokens,
            dice: self.dice,
            loops: program.loops,
            dirs: self.dirs,
            step: self.step,
            grid,
            compass,
            position_mover: self.position_mover,
            position_board: self.position_board,
            position_slots: self.position_slots,
            code: program.code,
            choices: program.choices,
            turn_start: program.turn_start,
            between_start: program.between_start,
            tally_slots: self.tally_slots,
            tallies: self.tallies,
            nvars: program.nvars,
            turn_limit: extras.turn_limit,
            site_index,
            lines: self.board_lines,
            history: program.history,
            turn_limit_end: extras.turn_limit_end,
            move_limit: extras.move_limit,
            move_limit_end: extras.move_limit_end,
        }
    }

    /// Whether a name belongs to a site range that already failed (not reported again).
    pub(crate) fn is_poisoned(&self, name: &str) -> bool {
        self.poisoned.iter().any(|p| {
            name.strip_prefix(p.as_str())
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    /// The site at some coordinates, or the error to report when there is none.
    pub(crate) fn site_at(&self, x: i64, y: i64, span: Span) -> Result<SiteId, Diagnostic> {
        match self.at_coord.get(&(x, y)) {
            Some(&i) => Ok(SiteId(i)),
            None => Err(Diagnostic::new(
                ErrorKind::Unknown {
                    what: "site at",
                    name: format!("({x}, {y})"),
                },
                span,
            )
            .with_hint("sites get coordinates from `row`, `site` and `points`")),
        }
    }

    /// Adds (or removes) the members of a fixed set; false when the set is not fixed.
    pub(crate) fn static_members(&self, set: &SetExpr, members: &mut [bool], add: bool) -> bool {
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
}

/// The diagnostics of a file, in the order they are found (sorted by position at the end),
/// and the count of "did you mean" hints computed so far.
#[derive(Default)]
pub(crate) struct Report {
    pub(crate) diags: Vec<Diagnostic>,
    /// what is allowed but likely a mistake (a `let` that hides a name): reported, not fatal
    pub(crate) warnings: Vec<Diagnostic>,
    /// "did you mean" hints computed so far (see `MAX_SUGGESTIONS`)
    suggestions: std::cell::Cell<usize>,
}

impl Report {
    pub(crate) fn error(&mut self, kind: ErrorKind, span: Span) {
        self.diags.push(Diagnostic::new(kind, span));
    }

    pub(crate) fn error_hint(&mut self, kind: ErrorKind, span: Span, hint: impl Into<String>) {
        self.diags.push(Diagnostic::new(kind, span).with_hint(hint));
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

    /// The first of the blocks of a kind the file may have once (the others are reported), or
    /// none (reported when it is required).
    pub(crate) fn one_of<'b, T>(
        &mut self,
        items: &'b [T],
        span_of: impl Fn(&T) -> Span,
        what: &'static str,
        required: bool,
    ) -> Option<&'b T> {
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
}
