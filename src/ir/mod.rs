//! The Game IR: what the checker proved consistent, with every name replaced by an index.
//!
//! The engine ([`crate::engine`]) runs a [`Game`]; nothing here holds a span, and nothing a
//! playout touches holds a string. What both the optimizer and the engine need to read the IR
//! lives here too: its arithmetic ([`arith`]), its one static evaluator ([`eval`]) and its
//! walkers ([`walk`]).

pub(crate) mod arith;
pub(crate) mod eval;
mod expr;
pub(crate) mod grid;
pub(crate) mod share;
pub(crate) mod walk;

pub(crate) use arith::apply;
pub use expr::*;
pub(crate) use walk::uses;

use std::collections::BTreeMap;
use std::fmt;

/// A site of the board, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SiteId(pub u16);

/// A player (a side) by index, in the order of `sides`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(pub u8);

/// A piece kind by index, in the order of `pieces`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PieceKind(pub u8);

/// A named region of the board, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionId(pub u16);

/// A local variable slot of the turn program.
pub type VarId = u16;

/// What a site is. It may change during play (`set kind(t) = store`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SiteKind {
    /// `kind hole`: holds pieces.
    Hole,
    /// `kind store`: a piece dropped into it goes at once to its owner's captures.
    Store,
    /// `kind cell`: a cell of a race track.
    Cell,
    /// `kind point`: a point of a line board.
    Point,
    /// `void`: no longer part of the board (nothing may enter it)
    Void,
}

impl SiteKind {
    pub const ALL: [SiteKind; 5] = [
        SiteKind::Hole,
        SiteKind::Store,
        SiteKind::Cell,
        SiteKind::Point,
        SiteKind::Void,
    ];
    pub fn name(self) -> &'static str {
        match self {
            SiteKind::Hole => "hole",
            SiteKind::Store => "store",
            SiteKind::Cell => "cell",
            SiteKind::Point => "point",
            SiteKind::Void => "void",
        }
    }
    pub fn from_index(i: i64) -> Option<SiteKind> {
        usize::try_from(i)
            .ok()
            .and_then(|i| SiteKind::ALL.get(i).copied())
    }
}

/// A resolved option value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OptValue {
    Int(i64),
    Bool(bool),
    Word(String),
}

impl fmt::Display for OptValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptValue::Int(n) => write!(f, "{n}"),
            OptValue::Bool(true) => f.write_str("on"),
            OptValue::Bool(false) => f.write_str("off"),
            OptValue::Word(w) => f.write_str(w),
        }
    }
}

/// The declared domain of an option, for `ludic list` and for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptDomain {
    Range(i64, i64),
    Bool,
    Words(Vec<String>),
}

impl fmt::Display for OptDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptDomain::Range(a, b) => write!(f, "{a}..{b}"),
            OptDomain::Bool => f.write_str("on | off"),
            OptDomain::Words(w) => f.write_str(&w.join(" | ")),
        }
    }
}

/// An option as declared, with the value in force.
#[derive(Clone, Debug)]
pub struct OptionInfo {
    pub(crate) name: String,
    pub(crate) default: OptValue,
    pub(crate) domain: OptDomain,
    pub(crate) doc: Option<String>,
    pub(crate) value: OptValue,
}

/// A named variant: several option values at once.
#[derive(Clone, Debug)]
pub struct VariantInfo {
    pub(crate) name: String,
    pub(crate) doc: Option<String>,
    pub(crate) sets: Vec<(String, OptValue)>,
}

/// A label of the file's choices (`sow`, `collect`) and what it means for players, from the
/// `labels { … }` block (`None` when the file does not describe it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelInfo {
    pub(crate) name: String,
    pub(crate) doc: Option<String>,
}

/// The `game { … }` block.
#[derive(Clone, Debug, Default)]
pub struct MetaInfo {
    pub(crate) name: String,
    pub(crate) aliases: Vec<String>,
    pub(crate) origin: Option<String>,
    pub(crate) source: Option<String>,
    pub(crate) summary: Option<String>,
    /// `from "base.game"`: the name of the game this one is built on
    pub(crate) based_on: Option<String>,
    /// what it changes of its base: `option holes (5 -> 7)`, `turn replaced`…
    pub(crate) changes: Vec<String>,
}

/// A site as built from the board description.
#[derive(Clone, Debug)]
pub struct SiteInfo {
    pub(crate) name: String,
    pub(crate) x: i64,
    pub(crate) y: i64,
    pub(crate) kind: SiteKind,
    pub(crate) owner: Option<Player>,
}

/// A piece kind and its value for scoring.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    pub(crate) name: String,
    pub(crate) value: i64,
    /// declared with `tokens N` (even 0): a kind a token may have or become
    pub(crate) tokens: bool,
}

/// A set of piece kinds, as a bit mask (bit `k` for `PieceKind(k)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindMask(pub u32);

/// How `end game` decides.
#[derive(Clone, Debug)]
pub enum EndRule {
    /// the higher `score` wins; equal scores draw
    Score,
    /// `end game winner P`
    Winner(Expr),
    /// `end game draw`
    Draw,
}

/// The values a choice ranges over.
#[derive(Clone, Debug)]
pub enum Domain {
    /// a choice without a variable: one decision when the condition holds
    Unit,
    /// every site of the board
    Sites,
    /// listed values with their names in notation
    Values(Vec<(i64, String)>),
    /// every token (one decision for each set of interchangeable tokens)
    Tokens,
    /// the sites of a set
    Set(SetExpr),
}

/// One alternative of a choice.
#[derive(Clone, Debug)]
pub struct Alt {
    pub(crate) label: Option<String>,
    pub(crate) var: Option<VarId>,
    pub(crate) domain: Domain,
    pub(crate) cond: Option<Expr>,
    /// where the program goes on when this alternative is chosen
    pub(crate) target: u32,
    /// for a choice of sites: the sites that can satisfy the fixed part of the condition
    pub(crate) sites: Vec<u16>,
    /// parts of the condition that do not depend on the choice's variable, computed once
    /// into these variables before the values are tried
    pub(crate) pre: Vec<(VarId, Expr)>,
    /// parts of the condition that depend neither on the variable nor on `pre`: when one is
    /// false, the alternative offers nothing and nothing else is computed
    pub(crate) guards: Vec<Expr>,
    /// parts of the condition that do not depend on the variable but read a `pre` value, and
    /// only read the board and the turn (they cannot fault and search nothing): tested once,
    /// after `pre`, instead of at each value (false: the alternative offers nothing)
    pub(crate) checks: Vec<Expr>,
    /// `to q in SET`: a second variable and its set (the decision's value holds both)
    pub(crate) to: Option<(VarId, SetExpr)>,
    /// with `to`: the part of the condition that does not use the second variable, tested
    /// once for each first value before the second is tried
    pub(crate) first: Option<Expr>,
    /// `leaving C`: the decision is legal only if C holds in the position after it (played on
    /// a scratch copy up to the next decision, chance event or end; `mover` is the player who
    /// decides)
    pub(crate) leaving: Option<Expr>,
}

/// A `choose` statement.
#[derive(Clone, Debug)]
pub struct Choice {
    pub(crate) alts: Vec<Alt>,
    /// `else { … }`: where the program goes when no alternative is legal
    pub(crate) otherwise: Option<u32>,
}

/// An instruction of the turn program (a small bytecode; structured statements are lowered to
/// jumps so that a decision can happen anywhere and the program resumes after it).
#[derive(Clone, Debug)]
pub enum Instr {
    Jump(u32),
    /// jump when the condition is false
    JumpIfNot(Expr, u32),
    /// `let v = e`, `set v = e`
    SetVar(VarId, Expr),
    /// `set owner(h) = p`
    SetOwner(Expr, Expr),
    /// `set kind(h) = k`
    SetKind(Expr, Expr),
    /// `set kind(t) = K` of a token
    SetTokenKind(Expr, Expr),
    /// `capture SET keep K to P`
    Capture {
        set: SetExpr,
        keep: Expr,
        to: Expr,
    },
    /// `place N piece on SET [from P]`
    Place {
        count: Expr,
        piece: PieceKind,
        on: SetExpr,
        from: Option<Expr>,
    },
    /// a decision point: `choose …` (index into `Game::choices`)
    Choose(u32),
    /// start of `sow`: pick up the site, remember the direction, clear the lap history
    SowStart {
        from: Expr,
        dir: Expr,
    },
    /// one lap of sowing; sets `last` to the site of the last drop; when the position at the
    /// start of the lap repeats, the hand is put back and the program jumps to `on_cycle`
    SowLap {
        orders: bool,
        skip: Option<SetExpr>,
        last: VarId,
        on_cycle: u32,
        /// receives the number of pieces the lap dropped, when the block reads `sown`
        sown: Option<VarId>,
    },
    /// `relay h`: pick up h and sow on from the site after it (jump back to the lap)
    Relay {
        site: Expr,
        lap: u32,
    },
    /// `end turn` (also the end of the turn program)
    EndTurn,
    /// `end game …`, with the reason the file gives (`end game winner P "all its chips home"`)
    EndGame(EndRule, Option<String>),
    /// `first random` (a chance event) or `first P`
    First(Option<Expr>),
    /// `set mover = P`: whose decisions come next (between rounds: who chooses)
    SetMover(Expr),
    /// `set per_hole = n`, `set debt(p) = n`
    SetTally {
        slot: u16,
        player: Option<Expr>,
        value: Expr,
    },
    /// `give N piece from A to B`: captured pieces change hands
    Give {
        count: Expr,
        piece: PieceKind,
        from: Expr,
        to: Expr,
    },
    /// `end round`: the `between rounds` program runs (without one, the game ends as with
    /// `end game`)
    EndRound,
    /// the end of the start program or of the `between rounds` program: a round begins
    NewRound,
    /// `throw dice as v`: a chance event (index into `Game::dice`)
    Throw {
        dice: u16,
        var: VarId,
    },
    /// `place N piece on SET for P` / `place N piece in AREA for P` for token pieces
    PlaceTokens {
        count: Expr,
        piece: PieceKind,
        on: Option<SetExpr>,
        area: u8,
        owner: Option<Expr>,
    },
    /// `move t to N` (track position) or `move t onto S` (site); `carry` takes the tokens
    /// above t along
    Move {
        token: Expr,
        to: Expr,
        onto_site: bool,
        carry: bool,
    },
    /// `send t to AREA`
    Send {
        token: Expr,
        area: u8,
    },
    /// start of `for`: the matching tokens (or the sites of a set) are listed in loop slot `slot`
    ForInit {
        slot: u16,
        var: VarId,
        over: Over,
        cond: Expr,
        set: SetExpr,
    },
    /// next element of the loop in `slot` into `var`, or jump to `end` when there is none
    ForNext {
        slot: u16,
        var: VarId,
        end: u32,
    },
    /// `set marked(h) = n`: a `per site` tally
    SetTallyAt {
        slot: u16,
        site: Expr,
        value: Expr,
    },
    /// `forget positions`: the history of positions is cleared
    ForgetPositions,
    /// `another turn`: when this turn ends, the same player plays the next one
    AnotherTurn,
}

/// A track: the path of a side, by position.
#[derive(Clone, Debug)]
pub struct TrackInfo {
    /// the number of the first position
    pub(crate) first: i64,
    pub(crate) sites: Vec<u16>,
    /// the first position of each site on the track (-1 when the track does not pass there)
    pub(crate) pos_of: Vec<i32>,
}

/// One way a throw can land, with its value.
#[derive(Clone, Debug)]
pub struct ThrowOutcome {
    /// the face of each die (index into its faces)
    pub(crate) faces: Vec<u8>,
    pub(crate) value: i64,
    pub(crate) name: Option<String>,
    pub(crate) prob: f64,
}

/// A set of dice or sticks with its chart.
#[derive(Clone, Debug)]
pub struct DiceInfo {
    pub(crate) name: String,
    /// each die's name and faces
    pub(crate) dice: Vec<(String, Vec<String>)>,
    pub(crate) outcomes: Vec<ThrowOutcome>,
}

/// One individual piece.
#[derive(Clone, Copy, Debug)]
pub struct TokenInfo {
    pub(crate) owner: Player,
    pub(crate) kind: PieceKind,
}

/// A number kept across turns and rounds.
#[derive(Clone, Debug)]
pub struct TallyInfo {
    pub(crate) name: String,
    pub(crate) doc: Option<String>,
    /// one value for each player (`per player`), or one for the game
    pub(crate) per_player: bool,
    /// its first slot in the state
    pub(crate) slot: u16,
    /// its value at the start
    pub(crate) init: i64,
    /// one value for each site (`per site`)
    pub(crate) per_site: bool,
}

/// A checked, lowered game, ready to play.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) meta: MetaInfo,
    pub(crate) options: Vec<OptionInfo>,
    pub(crate) variants: Vec<VariantInfo>,
    /// every label of the file's choices: the described ones in the order of `labels { … }`,
    /// then the others in the order they are first used
    pub(crate) labels: Vec<LabelInfo>,
    /// the sides, in order (`sides South North`)
    pub(crate) sides: Vec<String>,
    /// the players, in turn order: one per side, or with teams South1 North1 South2 North2 …;
    /// player `p` plays for side `p % sides`
    pub(crate) players: Vec<String>,
    pub(crate) sites: Vec<SiteInfo>,
    pub(crate) regions: Vec<(String, Vec<bool>)>,
    pub(crate) pieces: Vec<PieceInfo>,
    /// names of the two ring directions (forward, backward), if there is a ring
    pub(crate) dir_names: Option<[String; 2]>,
    /// next site along the ring: `next[dir][site]` (`u16::MAX` off the ring)
    pub(crate) next: [Vec<u16>; 2],
    /// the site opposite each site (`u16::MAX` for none)
    pub(crate) opposite: Vec<u16>,
    /// each side's track, if it has one
    pub(crate) tracks: Vec<Option<TrackInfo>>,
    /// names of the areas off the board
    pub(crate) areas: Vec<String>,
    /// every individual piece (pieces declared with `tokens N`)
    pub(crate) tokens: Vec<TokenInfo>,
    pub(crate) dice: Vec<DiceInfo>,
    /// number of `for` loops (each has a slot in the state)
    pub(crate) loops: usize,
    /// the offsets of the board's lines, and for each the next site along it
    /// (`step[direction][site]`, `u16::MAX` where the line stops)
    pub(crate) dirs: Vec<(i64, i64)>,
    pub(crate) step: Vec<Vec<u16>>,
    /// the site at each point (`site_at(x, y)`)
    pub(crate) grid: grid::SiteGrid,
    /// the board's named directions (`directions n (0, 1) …`)
    pub(crate) compass: grid::Compass,
    /// what a position is for `repeated`: the player to move counts (`position pieces mover`),
    /// and these tallies (first slot, slots)
    pub(crate) position_mover: bool,
    /// only what is on the board's sites counts (`position board`): not holdings, nor tokens
    /// off the board
    pub(crate) position_board: bool,
    pub(crate) position_slots: Vec<(u16, u16)>,
    pub(crate) code: Vec<Instr>,
    pub(crate) choices: Vec<Choice>,
    /// where the turn program starts (the start program is before it)
    pub(crate) turn_start: u32,
    /// where the `between rounds` program starts, if there is one
    pub(crate) between_start: Option<u32>,
    pub(crate) tallies: Vec<TallyInfo>,
    /// slots of the tallies in the state
    pub(crate) tally_slots: usize,
    pub(crate) nvars: usize,
    pub(crate) turn_limit: u32,
    /// the site names, for reading notation (never used in playouts)
    pub(crate) site_index: BTreeMap<String, SiteId>,
    /// the lines of the board (`line …`, `lines N`), each its sites in order
    pub(crate) lines: Vec<Vec<u16>>,
    /// the rules ask whether a position repeats (`repeated`): the engine keeps a hash of the
    /// position and a history of them (otherwise it pays nothing for them)
    pub(crate) history: bool,
    /// what reaching the turn limit means (`limit N turns then end game`; a draw by default)
    pub(crate) turn_limit_end: EndRule,
    /// `limit N moves`: decisions allowed in a round (`u32::MAX` without one)
    pub(crate) move_limit: u32,
    /// what reaching the move limit means
    pub(crate) move_limit_end: EndRule,
}

impl Instr {
    /// Rewrites every expression and set the instruction holds, in place: `fe` and `fs` take
    /// each one and give what replaces it (the optimizer's folding). A new instruction with
    /// expressions gets its arm here, beside its definition.
    pub(crate) fn exprs_mut(
        &mut self,
        fe: &mut dyn FnMut(Expr) -> Expr,
        fs: &mut dyn FnMut(SetExpr) -> SetExpr,
    ) {
        let take = |e: &mut Expr| std::mem::replace(e, Expr::Const(0));
        let take_set = |s: &mut SetExpr| std::mem::replace(s, SetExpr::Empty);
        match self {
            Instr::JumpIfNot(e, _) | Instr::SetVar(_, e) => *e = fe(take(e)),
            Instr::SetOwner(a, b) | Instr::SetKind(a, b) | Instr::SetTokenKind(a, b) => {
                *a = fe(take(a));
                *b = fe(take(b));
            }
            Instr::Capture { set: s, keep, to } => {
                *s = fs(take_set(s));
                *keep = fe(take(keep));
                *to = fe(take(to));
            }
            Instr::Place {
                count, on, from, ..
            } => {
                *count = fe(take(count));
                *on = fs(take_set(on));
                if let Some(f) = from {
                    *f = fe(take(f));
                }
            }
            Instr::SowStart { from, dir } => {
                *from = fe(take(from));
                *dir = fe(take(dir));
            }
            Instr::SowLap { skip: Some(s), .. } => *s = fs(take_set(s)),
            Instr::Relay { site, .. } => *site = fe(take(site)),
            Instr::ForInit { cond, set: s, .. } => {
                *cond = fe(take(cond));
                *s = fs(take_set(s));
            }
            Instr::Move { token, to, .. } => {
                *token = fe(take(token));
                *to = fe(take(to));
            }
            Instr::Send { token, .. } => *token = fe(take(token)),
            Instr::PlaceTokens {
                count, on, owner, ..
            } => {
                *count = fe(take(count));
                if let Some(on) = on {
                    *on = fs(take_set(on));
                }
                if let Some(o) = owner {
                    *o = fe(take(o));
                }
            }
            Instr::EndGame(EndRule::Winner(e), _) | Instr::SetMover(e) | Instr::First(Some(e)) => {
                *e = fe(take(e))
            }
            Instr::SetTally { player, value, .. } => {
                *value = fe(take(value));
                if let Some(p) = player {
                    *p = fe(take(p));
                }
            }
            Instr::Give {
                count, from, to, ..
            } => {
                *count = fe(take(count));
                *from = fe(take(from));
                *to = fe(take(to));
            }
            _ => {}
        }
    }
}

impl Game {
    pub(crate) fn site_name(&self, s: SiteId) -> &str {
        self.sites
            .get(s.0 as usize)
            .map(|s| s.name.as_str())
            .unwrap_or("?")
    }
    pub(crate) fn player_name(&self, p: Player) -> &str {
        self.players
            .get(p.0 as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }
    /// The player a value names (`None` for `none` or a value out of range).
    pub(crate) fn player_index(&self, p: i64) -> Option<usize> {
        usize::try_from(p).ok().filter(|&p| p < self.players.len())
    }
    /// The side a player plays for.
    pub(crate) fn side_of(&self, p: Player) -> Player {
        Player((p.0 as usize % self.sides.len().max(1)) as u8)
    }
    /// The `end game` statement that ended a game (see `Outcome::said`): its rule and the
    /// words that say why, if the file gives them (`end game winner P "why"`).
    pub(crate) fn end_statement(&self, said: Option<u32>) -> Option<(&EndRule, Option<&str>)> {
        self.code
            .iter()
            .filter_map(|i| match i {
                Instr::EndGame(rule, why) => Some((rule, why.as_deref())),
                _ => None,
            })
            .nth(said? as usize)
    }

    pub(crate) fn side_name(&self, s: Player) -> &str {
        self.sides
            .get(s.0 as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// The position number just before a player's track (tokens off the board are there).
    pub(crate) fn before_track(&self, p: Player) -> i32 {
        self.track_of(p.0 as usize)
            .map(|t| t.first as i32 - 1)
            .unwrap_or(0)
    }

    /// The track of a player's side.
    pub(crate) fn track_of(&self, p: usize) -> Option<&TrackInfo> {
        self.tracks.get(p % self.sides.len().max(1))?.as_ref()
    }

    /// The first position of site `s` on the track of `p` (None if it is not on it).
    pub(crate) fn track_pos_of(&self, p: usize, s: u16) -> Option<i64> {
        let t = self.track_of(p)?;
        t.pos_of
            .get(s as usize)
            .and_then(|&x| (x >= 0).then_some(x as i64))
    }

    /// The tallies' values at the start.
    pub(crate) fn initial_tallies(&self) -> Vec<i64> {
        let mut v = vec![0; self.tally_slots];
        for t in &self.tallies {
            let n = if t.per_player {
                self.players.len()
            } else if t.per_site {
                self.sites.len()
            } else {
                1
            };
            for i in 0..n {
                if let Some(x) = v.get_mut(t.slot as usize + i) {
                    *x = t.init;
                }
            }
        }
        v
    }
}
