//! The engine: a [`State`] and the interpreter of a [`Game`]'s turn program.
//!
//! A turn is a program of the IR ([`Instr`]); it runs until it reaches a decision point (a
//! `choose`, the order of drops in a lap), a chance event, or the end of the game. The legal
//! decisions are computed once, when the point is reached, into a buffer the state keeps, so a
//! playout allocates nothing per move once the buffers have grown.

use crate::ir::*;
pub use crate::tokens::Tokens;

/// Steps (instructions and drops) allowed between two decisions before the game is stopped:
/// a description whose loop never reaches a decision cannot hang ludic.
pub const STEP_LIMIT: u64 = 20_000_000;
/// Laps allowed in one sowing before it is ended as a cycle.
pub const LAP_LIMIT: usize = 10_000;

const NONE: u16 = u16::MAX;

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// the game's own rules ended it
    Rules,
    /// `limit … turns` was reached: a draw
    TurnLimit,
    /// the description ran too long without a decision (a loop in the rules): a draw
    StepLimit,
    /// the rules asked for something the engine cannot do with game numbers (a division by
    /// zero, a number too large, more pieces than a player holds): the game stops, a draw
    Fault(Fault),
}

impl EndReason {
    /// A short machine-readable name: `rules`, `turn_limit`, `step_limit`, `fault`.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Rules => "rules",
            EndReason::TurnLimit => "turn_limit",
            EndReason::StepLimit => "step_limit",
            EndReason::Fault(_) => "fault",
        }
    }
}

/// What the rules asked that the engine refuses to do silently (each ends the game, reported).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    #[error("a number went beyond the 64-bit range")]
    Overflow,
    #[error("the rules divided by zero")]
    DivisionByZero,
    #[error("the rules asked for a negative number of pieces")]
    NegativeCount,
    #[error("a site, a hand or a holding would hold more than 4294967295 pieces")]
    TooManyPieces,
    #[error("the rules took more pieces from a player than he holds")]
    NotEnoughHeld,
    #[error("the rules placed more tokens than remain unplaced")]
    NotEnoughTokens,
    #[error("a run is longer than the board")]
    RunTooLong,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Player>,
    pub reason: EndReason,
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// a decision of the mover at a `choose` (index into `Game::choices`)
    Choice(u32),
    /// the mover places a piece of this kind in the lap about to be sown
    Drop(PieceKind),
    /// a chance event: who plays first
    ChanceFirst,
    /// a chance event: a throw of these dice (index into `Game::dice`)
    Throw(u16),
    /// the game is over
    Over(Outcome),
}

/// A decision of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// an alternative of a choice with the value of its variable (a site, a direction, …)
    Alt { alt: u8, value: i32 },
    /// the step of the lap at which the pending piece is dropped (0-based)
    Drop { slot: u16 },
}

/// Why a decision was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("a chance event is pending, not a decision")]
    ChancePending,
    #[error("`{0}` is not a legal decision here")]
    NotLegal(String),
    #[error("`{0}` is not a possible outcome here")]
    NotOutcome(String),
}

/// A position, with the point of the turn program it is at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// pieces per site and kind: `counts[site * kinds + kind]`
    pub(crate) counts: Vec<u32>,
    /// the kind of each site now
    pub(crate) kinds: Vec<SiteKind>,
    /// the owner of each site now (-1 for none)
    pub(crate) owners: Vec<i8>,
    /// captured pieces per player and kind: `bank[player * kinds + kind]`
    pub(crate) bank: Vec<u32>,
    pub(crate) mover: u8,
    /// turns completed
    pub(crate) turn: u32,
    pub(crate) pc: u32,
    pub(crate) vars: Vec<i64>,
    /// pieces picked up and not yet sown, per kind
    pub(crate) hand: Vec<u32>,
    /// the order of drops in the lap being planned (kind per step, 255 = not chosen yet)
    pub(crate) plan: Vec<u8>,
    pub(crate) planning: bool,
    pub(crate) cursor: u16,
    pub(crate) sow_dir: u8,
    lap_keys: Vec<u64>,
    lap_snaps: Vec<u32>,
    scratch: Vec<u16>,
    pub(crate) pending: Pending,
    /// the legal decisions at the pending point
    pub(crate) moves: Vec<Decision>,
    /// sowings ended because their position repeated (or ran past the lap limit)
    pub(crate) cycles_cut: u32,
    /// turns passed for want of a legal decision, and the last player who passed
    pub(crate) passes: u32,
    pub(crate) last_passer: u8,
    /// the individual pieces
    pub(crate) toks: Tokens,
    /// the elements of each `for` loop being run, and how far it is
    pub(crate) loops: Vec<(Vec<u16>, usize)>,
    /// the variable that receives the pending throw, and the last throw (dice, outcome)
    pub(crate) throw_var: VarId,
    pub(crate) last_throw: Option<(u16, u16)>,
    steps: u64,
    /// set when the rules asked for something the engine refuses to do (the game then stops)
    pub(crate) fault: std::cell::Cell<Option<Fault>>,
    /// the tallies' values (`Game::tallies` gives each its slots)
    pub(crate) tallies: Vec<i64>,
    /// the round being played (1 for the first; 0 while the start program runs)
    pub(crate) round: u32,
    /// the player who plays first in this round
    pub(crate) round_first: u8,
    /// the turns completed when this round began (the turn limit counts the round's turns)
    pub(crate) round_turn0: u32,
    /// the round's last allowed turn is over: the game ends as a draw at the next decision or
    /// chance event, unless the rules end it (or the round) first
    pub(crate) limit_reached: bool,
}

impl State {
    pub fn pending(&self) -> Pending {
        self.pending
    }
    /// The legal decisions now, in a fixed order (empty at a chance event or at the end).
    pub fn moves(&self) -> &[Decision] {
        &self.moves
    }
    pub fn mover(&self) -> Player {
        Player(self.mover)
    }
    /// The round being played (1 for the first).
    pub fn round(&self) -> u32 {
        self.round
    }
    /// The value of a tally by name (for a player when it is kept `per player`).
    pub fn tally(&self, g: &Game, name: &str, p: Option<Player>) -> Option<i64> {
        self.tally_value(g.tallies.iter().find(|t| t.name == name)?, p)
    }
    /// The value of a tally (for a player when it is kept `per player`).
    pub fn tally_value(&self, t: &TallyInfo, p: Option<Player>) -> Option<i64> {
        let i = t.slot as usize + if t.per_player { p?.0 as usize } else { 0 };
        self.tallies.get(i).copied()
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn outcome(&self) -> Option<Outcome> {
        match self.pending {
            Pending::Over(o) => Some(o),
            _ => None,
        }
    }
    pub fn is_over(&self) -> bool {
        matches!(self.pending, Pending::Over(_))
    }
    /// The individual pieces.
    pub fn tokens(&self) -> &Tokens {
        &self.toks
    }
    /// The last throw: (dice, outcome).
    pub fn last_throw(&self) -> Option<(u16, u16)> {
        self.last_throw
    }
    pub fn cycles_cut(&self) -> u32 {
        self.cycles_cut
    }
    /// How many times a player had no legal decision and passed, and who passed last.
    pub fn passes(&self) -> (u32, Player) {
        (self.passes, Player(self.last_passer))
    }
    /// Pieces of `kind` at a site.
    pub fn count(&self, g: &Game, site: SiteId, kind: PieceKind) -> u32 {
        self.counts[site.0 as usize * g.pieces.len() + kind.0 as usize]
    }
    /// All pieces at a site.
    pub fn total_at(&self, g: &Game, site: SiteId) -> u32 {
        let nk = g.pieces.len();
        self.counts[site.0 as usize * nk..(site.0 as usize + 1) * nk]
            .iter()
            .sum()
    }
    pub fn site_kind(&self, site: SiteId) -> SiteKind {
        self.kinds[site.0 as usize]
    }
    pub fn site_owner(&self, site: SiteId) -> Option<Player> {
        let o = self.owners[site.0 as usize];
        (o >= 0).then_some(Player(o as u8))
    }
    /// Captured pieces of `kind` held by `p`.
    pub fn captured(&self, g: &Game, p: Player, kind: PieceKind) -> u32 {
        self.bank[p.0 as usize * g.pieces.len() + kind.0 as usize]
    }
    /// The value of everything `p` has captured.
    pub fn score(&self, g: &Game, p: Player) -> i64 {
        let nk = g.pieces.len();
        (0..nk)
            .map(|k| self.bank[p.0 as usize * nk + k] as i64 * g.pieces[k].value)
            .sum()
    }
    /// Pieces of each kind anywhere: on the board, captured, or in hand (conserved by sowing games).
    pub fn totals(&self, g: &Game) -> Vec<u64> {
        let nk = g.pieces.len();
        let mut t = vec![0u64; nk];
        for (i, &c) in self.counts.iter().enumerate() {
            t[i % nk] += c as u64;
        }
        for (i, &c) in self.bank.iter().enumerate() {
            t[i % nk] += c as u64;
        }
        for (k, &c) in self.hand.iter().enumerate() {
            t[k] += c as u64;
        }
        t
    }
}

/// The read-only part of the position that expressions look at.
pub(crate) struct View<'a> {
    pub(crate) g: &'a Game,
    pub(crate) counts: &'a [u32],
    pub(crate) kinds: &'a [SiteKind],
    pub(crate) owners: &'a [i8],
    pub(crate) bank: &'a [u32],
    pub(crate) mover: u8,
    pub(crate) sow_dir: u8,
    pub(crate) toks: &'a Tokens,
    pub(crate) tallies: &'a [i64],
    pub(crate) round: u32,
    pub(crate) round_first: u8,
    pub(crate) fault: &'a std::cell::Cell<Option<Fault>>,
}

impl View<'_> {
    /// Records a fault (the first one counts) and gives the value expressions then use.
    #[cold]
    pub(crate) fn fail(&self, f: Fault) -> i64 {
        raise(self.fault, f);
        0
    }

    /// The result of arithmetic, or a fault.
    #[inline]
    fn arith(&self, op: Op, a: i64, c: i64) -> i64 {
        match crate::optimize::apply(op, a, c) {
            Some(v) => v,
            None if matches!(op, Op::Div | Op::Mod) && c == 0 => self.fail(Fault::DivisionByZero),
            None => self.fail(Fault::Overflow),
        }
    }

    /// The side after the mover's (for two sides, the other one).
    #[inline]
    fn opponent(&self) -> i64 {
        let n = self.g.sides.len().max(1);
        ((self.mover as usize % n + 1) % n) as i64
    }

    pub(crate) fn nk(&self) -> usize {
        self.g.pieces.len()
    }

    pub(crate) fn site(&self, v: i64) -> Option<usize> {
        usize::try_from(v).ok().filter(|&s| s < self.kinds.len())
    }

    #[inline]
    fn count(&self, site: i64, mask: KindMask) -> i64 {
        let Some(s) = self.site(site) else { return 0 };
        if !self.g.tokens.is_empty() {
            return self.count_with_tokens(s, mask);
        }
        let nk = self.nk();
        if nk == 1 {
            return if mask.0 & 1 != 0 {
                self.counts[s] as i64
            } else {
                0
            };
        }
        let row = &self.counts[s * nk..s * nk + nk];
        if mask.0 == u32::MAX {
            row.iter().map(|&c| c as i64).sum()
        } else {
            row.iter()
                .enumerate()
                .filter(|(k, _)| mask.0 & (1 << k) != 0)
                .map(|(_, &c)| c as i64)
                .sum()
        }
    }

    /// One step along the ring in the sowing direction.
    #[inline]
    fn next1(&self, site: i64) -> i64 {
        match self.site(site) {
            Some(s) => match self.g.next[self.sow_dir as usize][s] {
                NONE => -1,
                x => x as i64,
            },
            None => -1,
        }
    }

    fn next(&self, site: i64, dir: i64, steps: i64) -> i64 {
        let Some(mut s) = self.site(site) else {
            return -1;
        };
        let d = usize::from(dir != 0);
        let (d, mut n) = if steps < 0 {
            (1 - d, steps.unsigned_abs())
        } else {
            (d, steps as u64)
        };
        let start = s;
        let mut walked = 0u64;
        while n > 0 {
            let x = self.g.next[d][s];
            if x == NONE {
                return -1;
            }
            s = x as usize;
            n -= 1;
            walked += 1;
            if s == start {
                // Round the whole ring: only the rest of the steps matter.
                n %= walked;
            }
        }
        s as i64
    }

    #[inline]
    fn site_test(&self, vars: &[i64], t: &SiteTest) -> bool {
        let Some(s) = self.site(vars[t.var as usize]) else {
            return false;
        };
        if let Some((p, neg)) = t.owner {
            let want = match p {
                PlayerRef::Mover => self.mover as i64,
                PlayerRef::Opponent => self.opponent(),
                PlayerRef::Fixed(c) => c,
            };
            if (self.owners[s] as i64 == want) == neg {
                return false;
            }
        }
        if let Some((k, neg)) = t.kind
            && (self.kinds[s] == k) == neg
        {
            return false;
        }
        if let Some((op, rhs)) = t.count {
            let c = match rhs {
                CountRhs::Const(c) => c,
                CountRhs::Var(w) => vars[w as usize],
            };
            let nk = self.nk();
            let n: i64 = if nk == 1 {
                self.counts[s] as i64
            } else {
                self.counts[s * nk..s * nk + nk]
                    .iter()
                    .map(|&x| x as i64)
                    .sum()
            };
            if self.arith(op, n, c) == 0 {
                return false;
            }
        }
        true
    }

    pub(crate) fn eval(&self, vars: &mut [i64], e: &Expr) -> i64 {
        match e {
            Expr::Const(c) => *c,
            Expr::Var(v) => vars[*v as usize],
            Expr::Mover => self.mover as i64,
            Expr::Opponent => self.opponent(),
            Expr::SideOf(p) => {
                let p = self.eval(vars, p);
                if p < 0 {
                    -1
                } else {
                    p % self.g.sides.len().max(1) as i64
                }
            }
            Expr::Count(s, mask) => {
                let s = self.eval(vars, s);
                self.count(s, *mask)
            }
            Expr::CountSet(set, mask) => self.count_set(vars, set, Some(*mask)),
            Expr::Captured(p, mask) => {
                let p = self.eval(vars, p);
                let Some(p) = self.g.player_index(p) else {
                    return 0;
                };
                let nk = self.nk();
                (0..nk)
                    .filter(|k| mask.0 & (1 << k) != 0)
                    .map(|k| self.bank[p * nk + k] as i64)
                    .sum()
            }
            Expr::Score(p) => {
                let p = self.eval(vars, p);
                let Some(p) = self.g.player_index(p) else {
                    return 0;
                };
                let nk = self.nk();
                (0..nk)
                    .map(|k| self.bank[p * nk + k] as i64 * self.g.pieces[k].value)
                    .sum()
            }
            Expr::Size(set) => self.count_set(vars, set, None),
            Expr::Owner(s) => {
                let s = self.eval(vars, s);
                self.site(s).map(|s| self.owners[s] as i64).unwrap_or(-1)
            }
            Expr::KindOf(s) => {
                let s = self.eval(vars, s);
                self.site(s).map(|s| self.kinds[s] as i64).unwrap_or(-1)
            }
            Expr::Next(s, d, n) => {
                let s = self.eval(vars, s);
                let d = self.eval(vars, d);
                let n = self.eval(vars, n);
                self.next(s, d, n)
            }
            Expr::SowDir => self.sow_dir as i64,
            Expr::Opposite(s) => {
                let s = self.eval(vars, s);
                match self.site(s) {
                    Some(s) if self.g.opposite[s] != NONE => self.g.opposite[s] as i64,
                    _ => -1,
                }
            }
            Expr::InRegion(s, r) => {
                let s = self.eval(vars, s);
                self.site(s)
                    .is_some_and(|s| self.g.regions[r.0 as usize].1[s]) as i64
            }
            Expr::InSet(s, set) => {
                let s = self.eval(vars, s);
                self.contains(vars, set, s) as i64
            }
            Expr::Not(x) => (self.eval(vars, x) == 0) as i64,
            Expr::Neg(x) => {
                let v = self.eval(vars, x);
                v.checked_neg()
                    .unwrap_or_else(|| self.fail(Fault::Overflow))
            }
            Expr::Abs(x) => {
                let v = self.eval(vars, x);
                v.checked_abs()
                    .unwrap_or_else(|| self.fail(Fault::Overflow))
            }
            Expr::Bin(op, x, y) => {
                let a = self.eval(vars, x);
                let c = self.eval(vars, y);
                self.arith(*op, a, c)
            }
            Expr::And(x, y) => (self.eval(vars, x) != 0 && self.eval(vars, y) != 0) as i64,
            Expr::Or(x, y) => (self.eval(vars, x) != 0 || self.eval(vars, y) != 0) as i64,
            Expr::If(c, x, y) => {
                if self.eval(vars, c) != 0 {
                    self.eval(vars, x)
                } else {
                    self.eval(vars, y)
                }
            }
            Expr::All(items) => items.iter().all(|i| self.eval(vars, i) != 0) as i64,
            Expr::Any(items) => items.iter().any(|i| self.eval(vars, i) != 0) as i64,
            Expr::CountVar(v) => self.count(vars[*v as usize], KindMask(u32::MAX)),
            Expr::KindIs(v, k, neg) => {
                let is = self
                    .site(vars[*v as usize])
                    .is_some_and(|s| self.kinds[s] == *k);
                (is != *neg) as i64
            }
            Expr::OwnerIs(v, p, neg) => {
                let o = self
                    .site(vars[*v as usize])
                    .map(|s| self.owners[s] as i64)
                    .unwrap_or(-1);
                let want = match p {
                    PlayerRef::Mover => self.mover as i64,
                    PlayerRef::Opponent => self.opponent(),
                    PlayerRef::Fixed(c) => *c,
                };
                ((o == want) != *neg) as i64
            }
            Expr::BinConst(op, x, c) => {
                let a = self.eval(vars, x);
                self.arith(*op, a, *c)
            }
            Expr::SiteTest(t) => self.site_test(vars, t) as i64,
            Expr::CountAt(x) => {
                let s = self.eval(vars, x);
                self.count(s, KindMask(u32::MAX))
            }
            Expr::NextSowVar(v) => self.next1(vars[*v as usize]),
            Expr::NextSow(x) => {
                let s = self.eval(vars, x);
                self.next1(s)
            }
            Expr::Exists(v, set, c)
                if matches!(**set, SetExpr::List(_)) && matches!(**c, Expr::SiteTest(_)) =>
            {
                // The common `exists h where <tests of h>`: a plain loop.
                let (SetExpr::List(sites), Expr::SiteTest(t)) = (&**set, &**c) else {
                    return 0;
                };
                for &s in sites {
                    vars[*v as usize] = s as i64;
                    if self.site_test(vars, t) {
                        return 1;
                    }
                }
                0
            }
            Expr::Top(_)
            | Expr::Bottom(_)
            | Expr::TokOwner(_)
            | Expr::TokSite(_)
            | Expr::TokPos(_)
            | Expr::TokArea(_)
            | Expr::TrackSite(..)
            | Expr::TrackPos(..)
            | Expr::TrackEnd(_)
            | Expr::TokExists(..)
            | Expr::Some(..)
            | Expr::Between(..)
            | Expr::CoordX(_)
            | Expr::CoordY(_)
            | Expr::Agg(..) => self.eval_tokens(vars, e),
            Expr::Exists(v, set, c) => self.quantify(vars, *v, set, c, true),
            Expr::Forall(v, set, c) => self.quantify(vars, *v, set, c, false),
            Expr::Tally(slot) => self.tallies.get(*slot as usize).copied().unwrap_or(0),
            Expr::TallyOf(slot, p) => {
                let p = self.eval(vars, p);
                self.g
                    .player_index(p)
                    .and_then(|p| self.tallies.get(*slot as usize + p))
                    .copied()
                    .unwrap_or(0)
            }
            Expr::Round => self.round as i64,
            Expr::FirstPlayer => self.round_first as i64,
            Expr::OriginalOwner(s) => {
                let s = self.eval(vars, s);
                match self.site(s) {
                    Some(s) => self.g.sites[s].owner.map(|p| p.0 as i64).unwrap_or(-1),
                    None => -1,
                }
            }
        }
    }

    /// `exists` (any = true) or `forall` (any = false) over a set.
    #[inline(never)]
    fn quantify(&self, vars: &mut [i64], v: VarId, set: &SetExpr, c: &Expr, any: bool) -> i64 {
        let mut result = !any;
        self.for_each(vars, set, &mut |vars, s| {
            vars[v as usize] = s as i64;
            let holds = self.eval(vars, c) != 0;
            if holds == any {
                result = any;
                return false;
            }
            true
        });
        result as i64
    }

    /// `count(SET)` or `size(SET)`.
    #[inline(never)]
    fn count_set(&self, vars: &mut [i64], set: &SetExpr, mask: Option<KindMask>) -> i64 {
        let mut total = 0;
        self.for_each(vars, set, &mut |_, s| {
            total += match mask {
                Some(m) => self.count(s as i64, m),
                None => 1,
            };
            true
        });
        total
    }

    /// Calls `f` on each site of the set (in order, repeats possible) until it returns false.
    /// Returns false when stopped early.
    pub(crate) fn for_each(
        &self,
        vars: &mut [i64],
        set: &SetExpr,
        f: &mut dyn FnMut(&mut [i64], usize) -> bool,
    ) -> bool {
        match set {
            SetExpr::All => {
                for s in 0..self.kinds.len() {
                    if !f(vars, s) {
                        return false;
                    }
                }
                true
            }
            SetExpr::Empty => true,
            SetExpr::List(sites) => {
                for &s in sites {
                    if !f(vars, s as usize) {
                        return false;
                    }
                }
                true
            }
            SetExpr::Region(r) => {
                for (s, &m) in self.g.regions[r.0 as usize].1.iter().enumerate() {
                    if m && !f(vars, s) {
                        return false;
                    }
                }
                true
            }
            SetExpr::One(e) => {
                let s = self.eval(vars, e);
                match self.site(s) {
                    Some(s) => f(vars, s),
                    None => true,
                }
            }
            SetExpr::Union(items) => items.iter().all(|i| self.for_each(vars, i, f)),
            SetExpr::Diff(a, b) => self.for_each(vars, a, &mut |vars, s| {
                if self.contains(vars, b, s as i64) {
                    true
                } else {
                    f(vars, s)
                }
            }),
            SetExpr::Filter(v, base, c) => self.for_each(vars, base, &mut |vars, s| {
                vars[*v as usize] = s as i64;
                if self.eval(vars, c) != 0 {
                    f(vars, s)
                } else {
                    true
                }
            }),
            SetExpr::Neighbours(x) | SetExpr::Jumps(x) => {
                let far = matches!(set, SetExpr::Jumps(_));
                let Some(s) = self.site(self.eval(vars, x)) else {
                    return true;
                };
                for step in &self.g.step {
                    let mut t = step[s];
                    if far && t != NONE {
                        t = step[t as usize];
                    }
                    if t != NONE && !f(vars, t as usize) {
                        return false;
                    }
                }
                true
            }
            SetExpr::Run(start, d, n) => {
                let mut s = self.eval(vars, start);
                let d = self.eval(vars, d);
                let mut n = self.eval(vars, n);
                if n > self.kinds.len() as i64 {
                    self.fail(Fault::RunTooLong);
                    n = 0;
                }
                for _ in 0..n {
                    let Some(site) = self.site(s) else {
                        return true;
                    };
                    if !f(vars, site) {
                        return false;
                    }
                    s = self.next(s, d, 1);
                }
                true
            }
        }
    }

    fn contains(&self, vars: &mut [i64], set: &SetExpr, site: i64) -> bool {
        let Some(s) = self.site(site) else {
            return false;
        };
        match set {
            SetExpr::All => true,
            SetExpr::Empty => false,
            SetExpr::List(sites) => sites.contains(&(s as u16)),
            SetExpr::Region(r) => self.g.regions[r.0 as usize].1[s],
            SetExpr::One(e) => self.eval(vars, e) == site,
            SetExpr::Union(items) => items.iter().any(|i| self.contains(vars, i, site)),
            SetExpr::Diff(a, b) => self.contains(vars, a, site) && !self.contains(vars, b, site),
            SetExpr::Filter(v, base, c) => {
                self.contains(vars, base, site) && {
                    vars[*v as usize] = site;
                    self.eval(vars, c) != 0
                }
            }
            SetExpr::Run(..) | SetExpr::Neighbours(_) | SetExpr::Jumps(_) => {
                !self.for_each(vars, set, &mut |_, x| x != s)
            }
        }
    }
}

macro_rules! view {
    ($g:expr, $st:expr) => {
        View {
            g: $g,
            counts: &$st.counts,
            kinds: &$st.kinds,
            owners: &$st.owners,
            bank: &$st.bank,
            mover: $st.mover,
            sow_dir: $st.sow_dir,
            toks: &$st.toks,
            tallies: &$st.tallies,
            round: $st.round,
            round_first: $st.round_first,
            fault: &$st.fault,
        }
    };
}
pub(crate) use view;

impl Game {
    /// The start position: the start program has run up to the first decision or chance event.
    pub fn start(&self) -> State {
        let nk = self.pieces.len();
        let mut st = State {
            counts: vec![0; self.sites.len() * nk],
            kinds: self.sites.iter().map(|s| s.kind).collect(),
            owners: self
                .sites
                .iter()
                .map(|s| s.owner.map(|p| p.0 as i8).unwrap_or(-1))
                .collect(),
            bank: vec![0; self.players.len() * nk],
            mover: 0,
            turn: 0,
            pc: 0,
            vars: vec![0; self.nvars.max(1)],
            hand: vec![0; nk],
            plan: Vec::with_capacity(64),
            planning: false,
            cursor: 0,
            sow_dir: 0,
            lap_keys: Vec::with_capacity(64),
            lap_snaps: Vec::with_capacity(1024),
            scratch: Vec::with_capacity(self.sites.len()),
            pending: Pending::Choice(0),
            moves: Vec::with_capacity(32),
            cycles_cut: 0,
            passes: 0,
            last_passer: 0,
            toks: Tokens::new(self),
            loops: vec![(Vec::new(), 0); self.loops],
            throw_var: 0,
            last_throw: None,
            steps: 0,
            fault: std::cell::Cell::new(None),
            tallies: self.initial_tallies(),
            round: 0,
            round_first: 0,
            round_turn0: 0,
            limit_reached: false,
        };
        self.run(&mut st);
        st
    }

    /// Whether the state is in the `between rounds` program (its decisions are between rounds).
    pub fn is_between_rounds(&self, st: &State) -> bool {
        self.between_start.is_some_and(|b| st.pc >= b) && !st.is_over()
    }

    /// The tallies' values at the start.
    pub(crate) fn initial_tallies(&self) -> Vec<i64> {
        let mut v = vec![0; self.tally_slots];
        for t in &self.tallies {
            let n = if t.per_player { self.players.len() } else { 1 };
            for i in 0..n {
                if let Some(x) = v.get_mut(t.slot as usize + i) {
                    *x = t.init;
                }
            }
        }
        v
    }

    /// Plays a decision after checking that it is legal; an illegal one leaves the state unchanged.
    pub fn play(&self, st: &mut State, d: Decision) -> Result<(), IllegalMove> {
        match st.pending {
            Pending::Over(_) => return Err(IllegalMove::GameOver),
            Pending::ChanceFirst | Pending::Throw(_) => return Err(IllegalMove::ChancePending),
            _ => {}
        }
        if !st.moves.contains(&d) {
            return Err(IllegalMove::NotLegal(self.notation_of(st, d)));
        }
        self.play_unchecked(st, d);
        Ok(())
    }

    /// Plays a decision taken from [`State::moves`] (not checked again).
    pub fn play_unchecked(&self, st: &mut State, d: Decision) {
        st.steps = 0;
        match (st.pending, d) {
            (Pending::Choice(id), Decision::Alt { alt, value }) => {
                let a = &self.choices[id as usize].alts[alt as usize];
                match (a.var, &a.to) {
                    (Some(v), Some((v2, _))) => {
                        st.vars[v as usize] = (value >> 16) as i64;
                        st.vars[*v2 as usize] = (value & 0xffff) as i64;
                    }
                    (Some(v), None) => st.vars[v as usize] = value as i64,
                    _ => {}
                }
                st.pc = a.target;
            }
            (Pending::Drop(k), Decision::Drop { slot }) => {
                if let Some(p) = st.plan.get_mut(slot as usize) {
                    *p = k.0;
                }
            }
            _ => return,
        }
        self.run(st);
    }

    /// The possible outcomes of the pending chance event, with their probabilities.
    pub fn chance_outcomes(&self, st: &State) -> Vec<(i64, f64)> {
        match st.pending {
            Pending::ChanceFirst => {
                let n = self.players.len();
                (0..n as i64).map(|p| (p, 1.0 / n as f64)).collect()
            }
            Pending::Throw(d) => self.dice[d as usize]
                .outcomes
                .iter()
                .enumerate()
                .map(|(i, o)| (i as i64, o.prob))
                .collect(),
            _ => vec![],
        }
    }

    /// Applies the outcome of the pending chance event.
    pub fn play_chance(&self, st: &mut State, outcome: i64) -> Result<(), IllegalMove> {
        match st.pending {
            Pending::ChanceFirst if (0..self.players.len() as i64).contains(&outcome) => {
                st.mover = outcome as u8;
                st.round_first = outcome as u8;
                st.pc += 1;
                st.steps = 0;
                self.run(st);
                Ok(())
            }
            Pending::ChanceFirst => Err(IllegalMove::NotOutcome(outcome.to_string())),
            Pending::Throw(d) => match usize::try_from(outcome)
                .ok()
                .and_then(|i| self.dice[d as usize].outcomes.get(i))
            {
                Some(o) => {
                    st.vars[st.throw_var as usize] = o.value;
                    st.last_throw = Some((d, outcome as u16));
                    st.pc += 1;
                    st.steps = 0;
                    self.run(st);
                    Ok(())
                }
                None => Err(IllegalMove::NotOutcome(outcome.to_string())),
            },
            Pending::Over(_) => Err(IllegalMove::GameOver),
            _ => Err(IllegalMove::NotOutcome(outcome.to_string())),
        }
    }

    fn end_turn(&self, st: &mut State) {
        st.mover = ((st.mover as usize + 1) % self.players.len()) as u8;
        st.turn += 1;
        st.pc = self.turn_start;
        st.planning = false;
        if st.turn - st.round_turn0 >= self.turn_limit {
            // A game won by the last allowed turn is won: the tests at the start of the next
            // turn still run, and the limit ends the game only where it would go on.
            st.limit_reached = true;
        }
    }

    /// At a decision or a chance event: true (and the game ends as a draw) when the round's
    /// last allowed turn is over.
    fn stops_at_limit(&self, st: &mut State) -> bool {
        if st.limit_reached {
            self.finish(st, None, EndReason::TurnLimit);
        }
        st.limit_reached
    }

    /// The side with the highest score (the value of its captures), or none on equal scores.
    fn score_winner(&self, st: &State) -> Option<Player> {
        let mut scores = vec![0i64; self.sides.len()];
        for p in 0..self.players.len() {
            scores[p % self.sides.len()] += st.score(self, Player(p as u8));
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        let mut leaders = scores.iter().enumerate().filter(|(_, s)| **s == best);
        match (leaders.next(), leaders.next()) {
            (Some((p, _)), None) => Some(Player(p as u8)),
            _ => None,
        }
    }

    fn finish(&self, st: &mut State, winner: Option<Player>, reason: EndReason) {
        st.moves.clear();
        st.pending = Pending::Over(Outcome { winner, reason });
    }

    /// Runs the program from where the state is (used after building a position by hand).
    pub(crate) fn resume(&self, st: &mut State) {
        st.steps = 0;
        self.run(st);
    }

    /// Runs the program until the next decision point, chance event or the end.
    fn run(&self, st: &mut State) {
        st.moves.clear();
        loop {
            if let Pending::Over(_) = st.pending {
                st.moves.clear();
                return;
            }
            st.steps += 1;
            if st.steps > STEP_LIMIT {
                self.finish(st, None, EndReason::StepLimit);
                return;
            }
            if let Some(f) = st.fault.get() {
                self.finish(st, None, EndReason::Fault(f));
                return;
            }
            let Some(instr) = self.code.get(st.pc as usize) else {
                self.end_turn(st);
                continue;
            };
            match instr {
                Instr::Jump(t) => st.pc = *t,
                Instr::JumpIfNot(c, t) => {
                    let v = view!(self, st).eval(&mut st.vars, c);
                    st.pc = if v == 0 { *t } else { st.pc + 1 };
                }
                Instr::SetVar(v, e) => {
                    let x = view!(self, st).eval(&mut st.vars, e);
                    st.vars[*v as usize] = x;
                    st.pc += 1;
                }
                Instr::SetOwner(s, p) => {
                    let view = view!(self, st);
                    let s = view.eval(&mut st.vars, s);
                    let p = view.eval(&mut st.vars, p);
                    if let Some(s) = view.site(s) {
                        st.owners[s] = self.player_index(p).map_or(-1, |p| p as i8);
                    }
                    st.pc += 1;
                }
                Instr::SetKind(s, k) => {
                    let view = view!(self, st);
                    let s = view.eval(&mut st.vars, s);
                    let k = view.eval(&mut st.vars, k);
                    if let (Some(s), Some(k)) = (view.site(s), SiteKind::from_index(k)) {
                        st.kinds[s] = k;
                    }
                    st.pc += 1;
                }
                Instr::Capture { set, keep, to } => {
                    self.capture(st, set, keep, to);
                    st.pc += 1;
                }
                Instr::Place {
                    count,
                    piece,
                    on,
                    from,
                } => {
                    self.place(st, count, *piece, on, from.as_ref());
                    st.pc += 1;
                }
                Instr::Choose(id) => {
                    self.enumerate(st, *id);
                    if let (true, Some(t)) =
                        (st.moves.is_empty(), self.choices[*id as usize].otherwise)
                    {
                        st.pc = t; // `else { … }`
                    } else if let Some(f) = st.fault.get() {
                        self.finish(st, None, EndReason::Fault(f));
                        return;
                    } else if self.stops_at_limit(st) {
                        return;
                    } else if st.moves.is_empty() {
                        // No legal decision: the player passes (the rest of his turn is skipped).
                        st.passes += 1;
                        st.last_passer = st.mover;
                        self.end_turn(st);
                    } else {
                        st.pending = Pending::Choice(*id);
                        return;
                    }
                }
                Instr::SowStart { from, dir } => {
                    let view = view!(self, st);
                    let f = view.eval(&mut st.vars, from);
                    let d = view.eval(&mut st.vars, dir);
                    st.sow_dir = u8::from(d != 0);
                    st.lap_keys.clear();
                    st.lap_snaps.clear();
                    st.planning = false;
                    match view.site(f) {
                        Some(s) => {
                            self.pick_up(st, s);
                            st.cursor = s as u16;
                        }
                        None => st.cursor = NONE,
                    }
                    st.pc += 1;
                }
                Instr::SowLap {
                    orders,
                    skip,
                    last,
                    on_cycle,
                } => {
                    if !st.planning {
                        if self.lap_repeats(st) {
                            // The position at the start of this lap was seen before in this
                            // sowing: it would go on forever. Put the hand back and stop.
                            st.cycles_cut += 1;
                            self.put_back(st);
                            st.pc = *on_cycle;
                            continue;
                        }
                        self.init_plan(st, *orders);
                    }
                    if st.planning && self.plan_step(st) {
                        return;
                    }
                    let last_site = self.sow_lap(st, skip.as_ref());
                    st.vars[*last as usize] = last_site;
                    st.pc += 1;
                }
                Instr::Relay { site, lap } => {
                    let view = view!(self, st);
                    let s = view.eval(&mut st.vars, site);
                    if let Some(s) = view.site(s) {
                        self.pick_up(st, s);
                        st.cursor = s as u16;
                    }
                    st.pc = *lap;
                }
                Instr::EndTurn => self.end_turn(st),
                Instr::EndRound => match self.between_start {
                    Some(at) => {
                        st.planning = false;
                        st.limit_reached = false;
                        st.pc = at;
                    }
                    None => {
                        let winner = self.score_winner(st);
                        self.finish(st, winner, EndReason::Rules);
                        return;
                    }
                },
                Instr::NewRound => {
                    st.round += 1;
                    st.mover = st.round_first;
                    st.round_turn0 = st.turn;
                    st.limit_reached = false;
                    st.planning = false;
                    st.pc = self.turn_start;
                }
                Instr::SetMover(p) => {
                    let p = view!(self, st).eval(&mut st.vars, p);
                    if let Some(p) = self.player_index(p) {
                        st.mover = p as u8;
                    }
                    st.pc += 1;
                }
                Instr::SetTally {
                    slot,
                    player,
                    value,
                } => {
                    let view = view!(self, st);
                    let x = view.eval(&mut st.vars, value);
                    let at = match player {
                        None => Some(*slot as usize),
                        Some(p) => {
                            let p = view.eval(&mut st.vars, p);
                            self.player_index(p).map(|p| *slot as usize + p)
                        }
                    };
                    if let Some(v) = at.and_then(|i| st.tallies.get_mut(i)) {
                        *v = x;
                    }
                    st.pc += 1;
                }
                Instr::Give {
                    count,
                    piece,
                    from,
                    to,
                } => {
                    let view = view!(self, st);
                    let n = view.eval(&mut st.vars, count);
                    let a = view.eval(&mut st.vars, from);
                    let b = view.eval(&mut st.vars, to);
                    if n < 0 {
                        raise(&st.fault, Fault::NegativeCount);
                    } else if let (Some(a), Some(b), true) =
                        (self.player_index(a), self.player_index(b), n > 0)
                    {
                        let nk = self.pieces.len();
                        let (ia, ib) = (a * nk + piece.0 as usize, b * nk + piece.0 as usize);
                        match u32::try_from(n) {
                            Ok(n) if n <= st.bank[ia] => {
                                st.bank[ia] -= n;
                                st.bank[ib] = add_pieces(&st.fault, st.bank[ib], n);
                            }
                            _ => raise(&st.fault, Fault::NotEnoughHeld),
                        }
                    }
                    st.pc += 1;
                }
                Instr::EndGame(rule) => {
                    let winner = match rule {
                        EndRule::Draw => None,
                        EndRule::Winner(p) => {
                            let p = view!(self, st).eval(&mut st.vars, p);
                            self.player_index(p).map(|p| self.side_of(Player(p as u8)))
                        }
                        EndRule::Score => self.score_winner(st),
                    };
                    self.finish(st, winner, EndReason::Rules);
                    return;
                }
                Instr::Throw { dice, var } => {
                    if self.stops_at_limit(st) {
                        return;
                    }
                    st.throw_var = *var;
                    st.pending = Pending::Throw(*dice);
                    return;
                }
                Instr::PlaceTokens {
                    count,
                    piece,
                    on,
                    area,
                    owner,
                } => {
                    self.place_tokens(st, count, *piece, on.as_ref(), *area, owner.as_ref());
                    st.pc += 1;
                }
                Instr::Move {
                    token,
                    to,
                    onto_site,
                    carry,
                } => {
                    self.move_token(st, token, to, *onto_site, *carry);
                    st.pc += 1;
                }
                Instr::Send { token, area } => {
                    self.send_token(st, token, *area);
                    st.pc += 1;
                }
                Instr::ForInit {
                    slot,
                    var,
                    tokens,
                    cond,
                    set,
                } => {
                    self.for_init(st, *slot, *var, *tokens, cond, set);
                    st.pc += 1;
                }
                Instr::ForNext { slot, var, end } => {
                    let (list, i) = &mut st.loops[*slot as usize];
                    match list.get(*i) {
                        Some(&x) => {
                            *i += 1;
                            st.vars[*var as usize] = x as i64;
                            st.pc += 1;
                        }
                        None => st.pc = *end,
                    }
                }
                Instr::First(p) => match p {
                    Some(p) => {
                        let p = view!(self, st).eval(&mut st.vars, p);
                        if let Some(p) = self.player_index(p) {
                            st.mover = p as u8;
                            st.round_first = p as u8;
                        }
                        st.pc += 1;
                    }
                    None => {
                        if !self.stops_at_limit(st) {
                            st.pending = Pending::ChanceFirst;
                        }
                        return;
                    }
                },
            }
        }
    }

    fn enumerate(&self, st: &mut State, id: u32) {
        let mut moves = std::mem::take(&mut st.moves);
        moves.clear();
        let view = view!(self, st);
        let vars = &mut st.vars;
        for (ai, alt) in self.choices[id as usize].alts.iter().enumerate() {
            if alt.guards.iter().any(|g| view.eval(vars, g) == 0) {
                continue;
            }
            for (tmp, e) in &alt.pre {
                vars[*tmp as usize] = view.eval(vars, e);
            }
            let mut test = |vars: &mut [i64], value: i64| {
                if let Some(v) = alt.var {
                    vars[v as usize] = value;
                }
                let ok = |vars: &mut [i64]| match &alt.cond {
                    None => true,
                    Some(Expr::SiteTest(t)) => view.site_test(vars, t),
                    Some(c) => view.eval(vars, c) != 0,
                };
                match &alt.to {
                    // Two values: the second ranges over a set that may depend on the first.
                    Some((v2, set)) => {
                        if alt.first.as_ref().is_some_and(|c| view.eval(vars, c) == 0) {
                            return;
                        }
                        view.for_each(vars, set, &mut |vars, s| {
                            vars[*v2 as usize] = s as i64;
                            if ok(vars) {
                                moves.push(Decision::Alt {
                                    alt: ai as u8,
                                    value: ((value as i32) << 16) | s as i32,
                                });
                            }
                            true
                        });
                    }
                    None => {
                        if ok(vars) {
                            moves.push(Decision::Alt {
                                alt: ai as u8,
                                value: value as i32,
                            });
                        }
                    }
                }
            };
            match &alt.domain {
                Domain::Unit => test(vars, 0),
                // The common case, a choice of sites by direct tests: a plain loop.
                Domain::Sites
                    if matches!((&alt.cond, alt.var), (Some(Expr::SiteTest(_)), Some(_))) =>
                {
                    let (Some(Expr::SiteTest(t)), Some(v)) = (&alt.cond, alt.var) else {
                        continue;
                    };
                    for &s in &alt.sites {
                        vars[v as usize] = s as i64;
                        if view.site_test(vars, t) {
                            moves.push(Decision::Alt {
                                alt: ai as u8,
                                value: s as i32,
                            });
                        }
                    }
                }
                Domain::Sites => {
                    for &s in &alt.sites {
                        test(vars, s as i64);
                    }
                }
                Domain::Values(vals) => {
                    for (v, _) in vals {
                        test(vars, *v);
                    }
                }
                Domain::Set(set) => {
                    view.for_each(vars, set, &mut |vars, s| {
                        test(vars, s as i64);
                        true
                    });
                }
                Domain::Tokens => {
                    for t in 0..self.tokens.len() {
                        // One decision for each set of interchangeable tokens: alone on its
                        // site, a token has no twin.
                        let alone = match view.toks.site_of(t) {
                            Some(s) => {
                                view.toks.top[s.0 as usize] == view.toks.bottom[s.0 as usize]
                            }
                            None => false,
                        };
                        let dup = !alone && (0..t).any(|u| view.toks.same_place(self, t, u));
                        if !dup {
                            test(vars, t as i64);
                        }
                    }
                }
            }
        }
        st.moves = moves;
    }

    fn pick_up(&self, st: &mut State, s: usize) {
        let nk = self.pieces.len();
        for k in 0..nk {
            let c = std::mem::take(&mut st.counts[s * nk + k]);
            st.hand[k] = add_pieces(&st.fault, st.hand[k], c);
        }
    }

    fn put_back(&self, st: &mut State) {
        let nk = self.pieces.len();
        if st.cursor == NONE {
            return;
        }
        let s = st.cursor as usize;
        for k in 0..nk {
            let c = std::mem::take(&mut st.hand[k]);
            st.counts[s * nk + k] = add_pieces(&st.fault, st.counts[s * nk + k], c);
        }
    }

    /// Records the position at the start of a lap; true when it was seen before in this sowing.
    /// A cheap key (cursor, pieces in hand, pieces on the board) is compared first; the whole
    /// position only when the keys are equal.
    fn lap_repeats(&self, st: &mut State) -> bool {
        if st.lap_keys.len() >= LAP_LIMIT {
            return true;
        }
        let on_board: u64 = st.counts.iter().map(|&c| c as u64).sum();
        let in_hand: u64 = st.hand.iter().map(|&c| c as u64).sum();
        let key =
            (st.cursor as u64) | (in_hand.min(0xff_ffff) << 16) | (on_board.min(0xff_ffff) << 40);
        let len = st.counts.len() + st.hand.len();
        let start = st.lap_snaps.len();
        st.lap_snaps.extend_from_slice(&st.counts);
        st.lap_snaps.extend_from_slice(&st.hand);
        for (i, &old) in st.lap_keys.iter().enumerate() {
            if old == key
                && st.lap_snaps[i * len..(i + 1) * len] == st.lap_snaps[start..start + len]
            {
                st.lap_snaps.truncate(start);
                return true;
            }
        }
        st.lap_keys.push(key);
        false
    }

    /// Prepares the drop order of the lap: the plain pieces (the first kind) in the remaining
    /// steps, the others placed by the sower when `orders` is set and more than one order exists.
    fn init_plan(&self, st: &mut State, orders: bool) {
        let total: usize = st.hand.iter().map(|&c| c as usize).sum();
        st.plan.clear();
        let kinds_in_hand = st.hand.iter().filter(|&&c| c > 0).count();
        if orders && kinds_in_hand > 1 {
            st.plan.resize(total, u8::MAX);
            st.planning = true;
        }
        // Otherwise the plan stays empty: the lap drops the kinds in their order.
    }

    /// Places the next non-plain piece of the plan. Returns true when a decision is needed
    /// (the legal slots are in `moves`); false when the plan is complete.
    fn plan_step(&self, st: &mut State) -> bool {
        loop {
            let mut next_kind = None;
            for k in 1..self.pieces.len() {
                let placed = st.plan.iter().filter(|&&x| x as usize == k).count();
                if placed < st.hand[k] as usize {
                    next_kind = Some((k, st.hand[k] as usize - placed));
                    break;
                }
            }
            let Some((k, remaining)) = next_kind else {
                for p in st.plan.iter_mut() {
                    if *p == u8::MAX {
                        *p = 0;
                    }
                }
                st.planning = false;
                return false;
            };
            let min_slot = st
                .plan
                .iter()
                .rposition(|&x| x as usize == k)
                .map(|i| i + 1)
                .unwrap_or(0);
            st.moves.clear();
            let n = st.plan.len();
            for slot in min_slot..n {
                if st.plan[slot] != u8::MAX {
                    continue;
                }
                let free_after = st.plan[slot + 1..]
                    .iter()
                    .filter(|&&x| x == u8::MAX)
                    .count();
                if free_after + 1 >= remaining {
                    st.moves.push(Decision::Drop { slot: slot as u16 });
                }
            }
            // One possible slot (or none, which cannot happen): nothing to choose.
            if st.moves.len() <= 1 {
                if let Some(Decision::Drop { slot }) = st.moves.first().copied() {
                    st.plan[slot as usize] = k as u8;
                } else {
                    st.planning = false;
                    return false;
                }
                st.moves.clear();
                continue;
            }
            st.pending = Pending::Drop(PieceKind(k as u8));
            return true;
        }
    }

    /// Sows the hand along the ring, one piece a site, from the site after the cursor.
    /// Returns the site of the last drop (-1 if nothing was dropped).
    fn sow_lap(&self, st: &mut State, skip: Option<&SetExpr>) -> i64 {
        let mut last = -1i64;
        let mut ok = st.cursor != NONE;
        if st.plan.is_empty() {
            for k in 0..self.pieces.len() {
                if ok && st.hand[k] > 0 {
                    ok = match skip {
                        None => self.drop_run(st, k, &mut last),
                        Some(_) => {
                            let mut ok = true;
                            while ok && st.hand[k] > 0 {
                                ok = self.drop_one(st, k, skip, &mut last);
                            }
                            ok
                        }
                    };
                }
            }
        } else {
            let plan = std::mem::take(&mut st.plan);
            for &k in &plan {
                if ok && st.hand[k as usize] > 0 {
                    ok = self.drop_one(st, k as usize, skip, &mut last);
                }
            }
            st.plan = plan;
            st.plan.clear();
        }
        // Anything left in hand (the ring ended) stays where the sowing stopped.
        if !ok && st.hand.iter().any(|&c| c > 0) {
            self.put_back(st);
        }
        last
    }

    /// Drops every piece of kind `k` in hand, one a site (no sites skipped): the common case.
    fn drop_run(&self, st: &mut State, k: usize, last: &mut i64) -> bool {
        let next = &self.next[st.sow_dir as usize];
        let mut cur = st.cursor;
        let mut n = st.hand[k];
        let mut ok = true;
        while n > 0 {
            let c = next[cur as usize];
            if c == NONE {
                ok = false;
                break;
            }
            cur = c;
            n -= 1;
            self.deposit(st, c as usize, k);
        }
        let dropped = st.hand[k] - n;
        st.steps += dropped as u64;
        st.hand[k] = n;
        if dropped > 0 {
            *last = cur as i64;
        }
        st.cursor = cur;
        ok
    }

    /// One piece of kind `k` dropped on site `s`: a store with an owner sends it to the
    /// owner's captures at once.
    #[inline]
    fn deposit(&self, st: &mut State, s: usize, k: usize) {
        let nk = self.pieces.len();
        let owner = st.owners[s];
        let slot = if st.kinds[s] == SiteKind::Store && owner >= 0 {
            &mut st.bank[owner as usize * nk + k]
        } else {
            &mut st.counts[s * nk + k]
        };
        *slot = add_pieces(&st.fault, *slot, 1);
    }

    /// Drops one piece of kind `k` on the next site; false when the ring has no next site.
    fn drop_one(&self, st: &mut State, k: usize, skip: Option<&SetExpr>, last: &mut i64) -> bool {
        let d = st.sow_dir as usize;
        let mut c = self.next[d][st.cursor as usize];
        if let Some(skip) = skip {
            let mut guard = 0;
            while c != NONE
                && guard <= self.sites.len()
                && view!(self, st).contains(&mut st.vars, skip, c as i64)
            {
                c = self.next[d][c as usize];
                guard += 1;
            }
            if guard > self.sites.len() {
                c = NONE;
            }
        }
        if c == NONE {
            return false;
        }
        st.steps += 1;
        st.cursor = c;
        st.hand[k] -= 1;
        self.deposit(st, c as usize, k);
        *last = c as i64;
        true
    }

    fn collect_set(&self, st: &mut State, set: &SetExpr) -> Vec<u16> {
        let mut out = std::mem::take(&mut st.scratch);
        out.clear();
        view!(self, st).for_each(&mut st.vars, set, &mut |_, s| {
            out.push(s as u16);
            true
        });
        out
    }

    fn capture(&self, st: &mut State, set: &SetExpr, keep: &Expr, to: &Expr) {
        let sites = self.collect_set(st, set);
        let view = view!(self, st);
        let keep = view.eval(&mut st.vars, keep);
        let to = view.eval(&mut st.vars, to);
        let Some(keep) = pieces_count(&st.fault, keep) else {
            st.scratch = sites;
            return;
        };
        let nk = self.pieces.len();
        if let Some(to) = self.player_index(to) {
            for &s in &sites {
                let s = s as usize;
                let mut left = keep;
                for k in 0..nk {
                    let c = st.counts[s * nk + k];
                    let stay = c.min(left);
                    left -= stay;
                    st.counts[s * nk + k] = stay;
                    let b = &mut st.bank[to * nk + k];
                    *b = add_pieces(&st.fault, *b, c - stay);
                }
            }
        }
        st.scratch = sites;
    }

    fn place(
        &self,
        st: &mut State,
        count: &Expr,
        piece: PieceKind,
        on: &SetExpr,
        from: Option<&Expr>,
    ) {
        let sites = self.collect_set(st, on);
        let view = view!(self, st);
        let n = view.eval(&mut st.vars, count);
        let from = from.map(|f| view.eval(&mut st.vars, f));
        let Some(n) = pieces_count(&st.fault, n) else {
            st.scratch = sites;
            return;
        };
        let nk = self.pieces.len();
        let k = piece.0 as usize;
        for &s in &sites {
            if let Some(p) = from {
                let Some(p) = self.player_index(p) else {
                    break;
                };
                let b = &mut st.bank[p * nk + k];
                if *b < n {
                    raise(&st.fault, Fault::NotEnoughHeld);
                    break;
                }
                *b -= n;
            }
            let c = &mut st.counts[s as usize * nk + k];
            *c = add_pieces(&st.fault, *c, n);
        }
        st.scratch = sites;
    }
}

/// Records a fault of the rules (the first one counts); the run loop then ends the game.
#[cold]
pub(crate) fn raise(fault: &std::cell::Cell<Option<Fault>>, f: Fault) {
    if fault.get().is_none() {
        fault.set(Some(f));
    }
}

/// `a + b` pieces, or a fault when that is more than a count can hold.
#[inline]
fn add_pieces(fault: &std::cell::Cell<Option<Fault>>, a: u32, b: u32) -> u32 {
    a.checked_add(b).unwrap_or_else(|| {
        raise(fault, Fault::TooManyPieces);
        a
    })
}

/// A number of pieces asked by the rules, or a fault (negative, or too large for a count).
pub(crate) fn pieces_count(fault: &std::cell::Cell<Option<Fault>>, n: i64) -> Option<u32> {
    match u32::try_from(n) {
        Ok(n) => Some(n),
        Err(_) => {
            raise(
                fault,
                if n < 0 {
                    Fault::NegativeCount
                } else {
                    Fault::TooManyPieces
                },
            );
            None
        }
    }
}
