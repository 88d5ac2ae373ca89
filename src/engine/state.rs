//! The position and what the game waits for: [`State`], [`Board`] (the part that expressions
//! read, with its incremental indexes) and [`Regs`] (the variables of the turn program).

mod ends;
mod parts;
mod room;

pub use ends::{EndReason, Fault, Outcome};

use super::bits::Layout;
use super::fields::clone_by_fields;
use super::history::Positions;
use super::tokens::Tokens;
use crate::ir::{Game as Ir, KindMask, PieceKind, Player, SiteId, SiteKind, TallyInfo, VarId};
pub(crate) use parts::{Chance, Loops, Sowing, Stats, TurnFlow};
use std::cell::Cell;

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

/// The part of the position that expressions read: pieces, kinds, owners, holdings, tokens,
/// tallies, and the indexes kept up to date with them (sets of sites by kind, by owner, with
/// pieces, with tokens, by the owner of their top token), so that a question about every site
/// is a few operations on bit sets.
#[derive(Debug)]
pub struct Board {
    pub(crate) nk: usize,
    /// pieces per site and kind: `counts[site * nk + kind]`
    pub(crate) counts: Vec<u32>,
    pub(crate) kinds: Vec<SiteKind>,
    /// the owner of each site now (-1 for none)
    pub(crate) owners: Vec<i8>,
    /// captured pieces per player and kind: `bank[player * nk + kind]`
    pub(crate) bank: Vec<u32>,
    pub(crate) mover: u8,
    pub(crate) sow_dir: u8,
    pub(crate) round: u32,
    pub(crate) round_first: u8,
    pub(crate) tallies: Vec<i64>,
    pub(crate) toks: Tokens,
    /// set when the rules asked for something the engine refuses to do (the game then stops)
    pub(crate) fault: Cell<Option<Fault>>,
    /// what is kept up to date from the fields above (`reindex` builds it from them)
    pub(crate) index: Index,
    /// the hash of the position and the history of positions (for `repeated`)
    pub(crate) seen: Positions,
}

/// What a board keeps up to date from its pieces, kinds, owners and tokens, so that questions
/// about every site are a few operations on bit sets: nothing of the position itself
/// (`Board::reindex` builds it again from the rest).
#[derive(Debug)]
pub(crate) struct Index {
    /// every piece at a site: its counters of all kinds and its tokens
    pub(crate) total: Vec<u32>,
    /// the site indexes, laid out by [`Layout`]
    pub(crate) bits: Vec<u64>,
    /// pieces in existence: every counter (on the board, held, in hand) and every token. Only
    /// `place` without `from` adds to it, and it may not pass `u32::MAX`: so no count of a site,
    /// a hand or a holding can overflow, and sowing and capturing need no check.
    pub(crate) existing: u64,
    /// changes whenever a site's kind or owner changes: sets built from kinds and owners are
    /// kept while it stays the same
    pub(crate) shape: u64,
}

/// Two boards are equal when their positions are: every field that says where the pieces are
/// and whose turn it is, and none of the indexes derived from them. The destructuring names
/// every field and has no `..`: a field added to `Board` breaks the build until it is either
/// compared or skipped here with the reason (the test `board_equality_covers_every_field`
/// checks both lists).
impl PartialEq for Board {
    fn eq(&self, o: &Self) -> bool {
        let Board {
            // the number of piece kinds: the game's, the same for every board of a game
            nk: _,
            counts,
            kinds,
            owners,
            bank,
            mover,
            sow_dir,
            round,
            round_first,
            tallies,
            toks,
            fault,
            // built from the fields above (`reindex`): the pieces at each site (the sum of
            // `counts` and the tokens there), the site indexes, the pieces in existence, and a
            // generation counter of kinds and owners (it counts changes: two boards with the
            // same kinds and owners may differ in it)
            index: _,
            seen,
        } = self;
        *counts == o.counts
            && *kinds == o.kinds
            && *owners == o.owners
            && *bank == o.bank
            && *mover == o.mover
            && *sow_dir == o.sow_dir
            && *round == o.round
            && *round_first == o.round_first
            && *tallies == o.tallies
            && *toks == o.toks
            && *fault == o.fault
            && *seen == o.seen
    }
}
impl Eq for Board {}

/// The variables of the turn program, and the work done since the last decision.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Regs {
    pub(crate) vars: Vec<i64>,
    /// bit sets built during a query (each query has its slot)
    pub(crate) scratch: Vec<u64>,
    /// sites, tokens and instructions visited since the last decision (see `WORK_LIMIT`)
    pub(crate) work: u64,
    /// the board stays as it is until this is unset (the legal decisions are being listed):
    /// the questions that keep what they found for it (see `compile::query::Memo`) may read
    /// it back; false everywhere else
    pub(crate) still: bool,
}

impl Regs {
    #[inline(always)]
    pub(crate) fn var(&self, v: VarId) -> i64 {
        self.vars[v as usize]
    }
    #[inline(always)]
    pub(crate) fn set(&mut self, v: VarId, x: i64) {
        self.vars[v as usize] = x;
    }
}

/// A position, with the point of the turn program it is at.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) b: Board,
    pub(crate) r: Regs,
    /// turns completed
    pub(crate) turn: u32,
    pub(crate) pc: u32,
    /// the sowing in progress
    pub(crate) sow: Sowing,
    /// sites collected for a statement (`capture`, `place`)
    pub(crate) scratch: Vec<u16>,
    pub(crate) pending: Pending,
    /// the legal decisions at the pending point
    pub(crate) moves: Vec<Decision>,
    /// what the limits count in the round and the turn
    pub(crate) flow: TurnFlow,
    /// what happened that the game's statistics tell
    pub(crate) stats: Stats,
    /// the `for` loops being run
    pub(crate) loops: Loops,
    /// the pending throw and the last one
    pub(crate) chance: Chance,
    /// what the rules did, when asked (see [`crate::engine::Game::play_narrated`])
    pub(crate) log: super::events::Log,
    /// the scratch copy on which `leaving` conditions play a decision
    pub(crate) look: Look,
}

clone_by_fields!(Board {
    nk,
    counts,
    kinds,
    owners,
    bank,
    mover,
    sow_dir,
    round,
    round_first,
    tallies,
    toks,
    fault,
    index,
    seen,
});
clone_by_fields!(Index {
    total,
    bits,
    existing,
    shape,
});
clone_by_fields!(Regs {
    vars,
    scratch,
    work,
    still
});
clone_by_fields!(State {
    b,
    r,
    turn,
    pc,
    sow,
    scratch,
    pending,
    moves,
    flow,
    stats,
    loops,
    chance,
    log,
    look,
});

impl State {
    pub fn pending(&self) -> Pending {
        self.pending
    }
    /// The legal decisions now, in a fixed order (empty at a chance event or at the end).
    /// With the `leaving` tests deferred ([`State::defer_leaving`]), the decisions after the
    /// first may not have passed theirs: draw one with [`crate::Game::drawn_decision`].
    pub fn moves(&self) -> &[Decision] {
        &self.moves
    }

    /// Defers (or not) the `leaving` tests of the decisions listed from now on, for a player
    /// that draws one at random ([`crate::Game::drawn_decision`]): a choice's decisions are
    /// tested in order up to the first that passes (so that whether the choice has one, and
    /// its `else`, stay as the rules say), the others only when drawn. The same draws from
    /// the legal decisions, with a look-ahead for each decision drawn instead of each listed.
    /// A setting of this state (a position copied into it keeps it; a copy of it defers
    /// nothing).
    pub fn defer_leaving(&mut self, on: bool) {
        self.look.defer = on;
    }
    pub fn mover(&self) -> Player {
        Player(self.b.mover)
    }
    /// The round being played (1 for the first).
    pub fn round(&self) -> u32 {
        self.b.round
    }
    /// The value of a tally by name (for a player when it is kept `per player`).
    pub fn tally(&self, g: &Ir, name: &str, p: Option<Player>) -> Option<i64> {
        self.tally_value(g.tallies.iter().find(|t| t.name == name)?, p)
    }
    /// The value of a `per site` tally, by name, at a site.
    pub fn site_tally(&self, g: &Ir, name: &str, s: SiteId) -> Option<i64> {
        self.tally_at(g.tallies.iter().find(|t| t.name == name)?, s)
    }
    /// A `per site` tally, by name, in words: the sites where it is not 0 (`a1 1, c3 2`), or
    /// `0 at every site`.
    pub fn site_tally_words(&self, g: &Ir, name: &str) -> Option<String> {
        let t = g.tallies.iter().find(|t| t.name == name)?;
        Some(self.site_tally_text(g, t))
    }
    /// The value of a tally (for a player when it is kept `per player`).
    pub(crate) fn tally_value(&self, t: &TallyInfo, p: Option<Player>) -> Option<i64> {
        let i = t.slot as usize + if t.per_player { p?.0 as usize } else { 0 };
        self.b.tallies.get(i).copied()
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Turns played: the turns completed, and the one being played if a decision was taken
    /// in it (a game that ends in the middle of a turn counts that turn).
    pub fn turns_played(&self) -> u32 {
        self.turn + u32::from(self.flow.turn_decisions > 0)
    }
    /// The value of a `per site` tally at a site.
    pub(crate) fn tally_at(&self, t: &TallyInfo, s: SiteId) -> Option<i64> {
        if !t.per_site {
            return None;
        }
        self.b.tallies.get(t.slot as usize + s.0 as usize).copied()
    }
    /// A `per site` tally in words: the sites where it is not 0 (`a1 1, c3 2`), or `0 at every
    /// site`.
    pub(crate) fn site_tally_text(&self, g: &Ir, t: &TallyInfo) -> String {
        let parts: Vec<String> = (0..g.sites.len())
            .filter_map(|s| {
                let v = self.tally_at(t, SiteId(s as u16))?;
                (v != 0).then(|| format!("{} {v}", g.sites[s].name))
            })
            .collect();
        if parts.is_empty() {
            "0 at every site".into()
        } else {
            parts.join(", ")
        }
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
        &self.b.toks
    }
    /// The last throw: (dice, outcome).
    pub fn last_throw(&self) -> Option<(u16, u16)> {
        self.chance.last()
    }
    pub fn cycles_cut(&self) -> u32 {
        self.stats.cycles_cut()
    }
    /// How many times a player had no legal decision and passed, and who passed last.
    pub fn passes(&self) -> (u32, Player) {
        let (passes, last) = self.stats.passes();
        (passes, Player(last))
    }
    /// Counters of `kind` at a site (tokens are in [`State::tokens`]).
    pub fn count(&self, g: &Ir, site: SiteId, kind: PieceKind) -> u32 {
        self.b.counts[site.0 as usize * g.pieces.len() + kind.0 as usize]
    }
    /// All counters at a site (tokens are in [`State::tokens`]).
    pub fn total_at(&self, g: &Ir, site: SiteId) -> u32 {
        let nk = g.pieces.len();
        let s = site.0 as usize;
        self.b.counts[s * nk..(s + 1) * nk].iter().sum()
    }
    pub fn site_kind(&self, site: SiteId) -> SiteKind {
        self.b.kinds[site.0 as usize]
    }
    pub fn site_owner(&self, site: SiteId) -> Option<Player> {
        let o = self.b.owners[site.0 as usize];
        (o >= 0).then_some(Player(o as u8))
    }
    /// Captured pieces of `kind` held by `p`.
    pub fn captured(&self, g: &Ir, p: Player, kind: PieceKind) -> u32 {
        self.b.bank[p.0 as usize * g.pieces.len() + kind.0 as usize]
    }
    /// The value of everything `p` has captured.
    pub fn score(&self, g: &Ir, p: Player) -> i64 {
        let nk = g.pieces.len();
        (0..nk)
            .map(|k| self.b.bank[p.0 as usize * nk + k] as i64 * g.pieces[k].value)
            .sum()
    }
    /// Pieces of each kind anywhere: on the board, captured, or in hand (conserved by sowing games).
    pub fn totals(&self, g: &Ir) -> Vec<u64> {
        let nk = g.pieces.len();
        let mut t = vec![0u64; nk];
        for (i, &c) in self.b.counts.iter().enumerate() {
            t[i % nk] += c as u64;
        }
        for (i, &c) in self.b.bank.iter().enumerate() {
            t[i % nk] += c as u64;
        }
        for (k, &c) in self.sow.hand.iter().enumerate() {
            t[k] += c as u64;
        }
        t
    }
}

impl Board {
    /// Pieces of the kinds of `mask` at site `s` (in range): counters and tokens (what
    /// `count(s, K)` reads). The tokens of each kind come from the counts the moves keep when
    /// the rules read them (`Tokens::kinds_kept`), else from the stack walked.
    #[inline(always)]
    pub(crate) fn count_of(&self, s: usize, mask: KindMask) -> i64 {
        if mask.0 == u32::MAX {
            return self.index.total[s] as i64;
        }
        let nk = self.nk;
        // the kinds of the mask (its bits below nk, lowest first)
        let mut kinds = if nk >= 32 {
            mask.0
        } else {
            mask.0 & ((1u32 << nk) - 1)
        };
        let (mut n, kept) = (0, self.toks.kinds_kept());
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            n += self.counts[s * nk + k] as i64;
            if kept {
                n += self.toks.of_kind_at(s, k) as i64;
            }
        }
        if !kept && !self.toks.site.is_empty() {
            let of_mask = |x| mask.0.checked_shr(self.toks.kind[x] as u32).unwrap_or(0) & 1;
            n += self
                .toks
                .at(s as u16)
                .map(|x| of_mask(x) as i64)
                .sum::<i64>();
        }
        n
    }

    /// Rebuilds every index from the pieces, kinds, owners and tokens (after a position was
    /// built by hand).
    pub(crate) fn reindex(&mut self, g: &Ir, l: &Layout, hand: &[u32]) {
        self.index.shape += 1;
        self.index.bits.iter_mut().for_each(|w| *w = 0);
        self.toks.reindex(g);
        let sum = |v: &[u32]| v.iter().map(|&c| c as u64).sum::<u64>();
        self.index.existing =
            sum(&self.counts) + sum(&self.bank) + sum(hand) + g.tokens.len() as u64;
        if self.index.existing > u32::MAX as u64 {
            raise(&self.fault, Fault::TooManyPieces);
            return;
        }
        for s in 0..self.kinds.len() {
            let counters: u32 = self.counts[s * self.nk..(s + 1) * self.nk].iter().sum();
            self.index.total[s] = counters + self.toks.count_at[s];
            l.set(&mut self.index.bits, l.kind(self.kinds[s]), s, true);
            l.set(&mut self.index.bits, l.owner(self.owners[s]), s, true);
            l.set(
                &mut self.index.bits,
                l.nonempty(),
                s,
                self.index.total[s] > 0,
            );
            self.refresh_top(g, l, s);
        }
        self.rehash(g);
    }

    /// The indexes of the top token of a site (after a change of its stack).
    pub(crate) fn refresh_top(&mut self, g: &Ir, l: &Layout, s: usize) {
        let top = self.toks.top[s];
        l.set(&mut self.index.bits, l.tokens_here(), s, top >= 0);
        let owner = if top >= 0 {
            g.tokens[top as usize].owner.0 as i16
        } else {
            -1
        };
        for p in 0..g.players.len() {
            l.set(&mut self.index.bits, l.top_owner(p), s, owner == p as i16);
        }
        self.toks.top_owner[s] = owner;
    }

    /// `n` counters of kind `k` added to a site; keeps the indexes. (No count overflows: see
    /// `existing`.)
    #[inline(always)]
    pub(crate) fn add_counters(&mut self, l: &Layout, s: usize, k: usize, n: u32) {
        self.counts[s * self.nk + k] += n;
        self.seen.count(s * self.nk + k, n as i64);
        self.index.total[s] += n;
        if n > 0 {
            l.set(&mut self.index.bits, l.nonempty(), s, true);
        }
    }

    /// Sets the counters of kind `k` at a site; keeps the indexes.
    #[inline(always)]
    pub(crate) fn set_counters(&mut self, l: &Layout, s: usize, k: usize, n: u32) {
        let i = s * self.nk + k;
        let t = self.index.total[s] - self.counts[i] + n;
        self.seen.count(i, n as i64 - self.counts[i] as i64);
        self.counts[i] = n;
        self.index.total[s] = t;
        l.set(&mut self.index.bits, l.nonempty(), s, t > 0);
    }

    /// Counters brought into the game (`place` without `from`): a fault when the pieces in
    /// existence would pass what a count can hold.
    pub(crate) fn create(&mut self, n: u64) -> bool {
        match self.index.existing.checked_add(n) {
            Some(e) if e <= u32::MAX as u64 => {
                self.index.existing = e;
                true
            }
            _ => {
                raise(&self.fault, Fault::TooManyPieces);
                false
            }
        }
    }

    pub(crate) fn set_kind(&mut self, l: &Layout, s: usize, k: SiteKind) {
        self.index.shape += 1;
        l.set(&mut self.index.bits, l.kind(self.kinds[s]), s, false);
        self.seen.kind(s, self.kinds[s] as usize, k as usize);
        self.kinds[s] = k;
        l.set(&mut self.index.bits, l.kind(k), s, true);
    }

    pub(crate) fn set_owner(&mut self, l: &Layout, s: usize, o: i8) {
        self.index.shape += 1;
        l.set(&mut self.index.bits, l.owner(self.owners[s]), s, false);
        self.seen.owner(s, self.owners[s], o);
        self.owners[s] = o;
        l.set(&mut self.index.bits, l.owner(o), s, true);
    }

    /// A holding grows by `n` pieces (no holding overflows: see `existing`).
    #[inline(always)]
    pub(crate) fn bank_add(&mut self, i: usize, n: u32) {
        self.bank[i] += n;
        self.seen.bank(i, n as i64);
    }
}

/// Records a fault of the rules (the first one counts); the run loop then ends the game.
#[cold]
pub(crate) fn raise(fault: &Cell<Option<Fault>>, f: Fault) {
    if fault.get().is_none() {
        fault.set(Some(f));
    }
}

/// A number of pieces asked by the rules, or a fault (negative, or too large for a count).
pub(crate) fn pieces_count(fault: &Cell<Option<Fault>>, n: i64) -> Option<u32> {
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

/// The scratch copy of a state, whether this state is itself one, and whether its `leaving`
/// tests are deferred.
#[derive(Debug, Default)]
pub(crate) struct Look {
    /// this state is a look-ahead (it stops at the next choice)
    pub(crate) active: bool,
    pub(crate) scratch: Option<Box<State>>,
    /// the `leaving` tests of the decisions listed are deferred (see
    /// [`State::defer_leaving`]): a setting of this state, not copied with the position
    pub(crate) defer: bool,
    /// the decisions listed after the first have not passed their `leaving` tests yet (the
    /// first has): see [`crate::engine::Game::drawn_decision`]
    pub(crate) unchecked: bool,
}

impl Clone for Look {
    /// A copy has no scratch yet (it makes one when it needs it), is not a look-ahead and
    /// defers no test; its decisions are tested as far as the original's.
    fn clone(&self) -> Self {
        Look {
            unchecked: self.unchecked,
            ..Look::default()
        }
    }
    /// A state copied into another keeps the other's scratch copy (its buffers are reused)
    /// and settings.
    fn clone_from(&mut self, o: &Self) {
        self.unchecked = o.unchecked;
    }
}

impl PartialEq for Look {
    /// The scratch copy is not part of the position.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Look {}

/// A position built by hand ([`crate::setup`]): each sets one part of the board, and
/// `Game::resume` rebuilds the indexes from them afterward.
impl Board {
    /// The number of pieces of kind `k` at site `s`.
    pub(crate) fn set_count(&mut self, s: usize, k: usize, n: u32) {
        self.counts[s * self.nk + k] = n;
    }
    /// The number of pieces of kind `k` that player `p` holds (has captured).
    pub(crate) fn set_captured(&mut self, p: usize, k: usize, n: u32) {
        self.bank[p * self.nk + k] = n;
    }
    pub(crate) fn set_kind_by_hand(&mut self, s: usize, k: SiteKind) {
        self.kinds[s] = k;
    }
    /// The owner of site `s` (-1 for nobody).
    pub(crate) fn set_owner_by_hand(&mut self, s: usize, p: i8) {
        self.owners[s] = p;
    }
    pub(crate) fn set_mover(&mut self, p: u8) {
        self.mover = p;
    }
    pub(crate) fn set_first_player(&mut self, p: u8) {
        self.round_first = p;
    }
    pub(crate) fn set_round(&mut self, r: u32) {
        self.round = r;
    }
    /// The tally in slot `i` (a player's or a site's slot of a tally kept per player or site).
    pub(crate) fn set_tally(&mut self, i: usize, v: i64) {
        let old = std::mem::replace(&mut self.tallies[i], v);
        self.seen.tally(i, old, v);
    }
}

/// A board of two sites and two kinds of pieces, every field named (the tests below are not in
/// a module: the layers' test reads a module's `use super` as an import of the engine).
#[cfg(test)]
fn sample_board() -> Board {
    Board {
        nk: 2,
        counts: vec![0; 4],
        kinds: vec![SiteKind::Hole; 2],
        owners: vec![-1; 2],
        bank: vec![0; 4],
        mover: 0,
        sow_dir: 0,
        round: 1,
        round_first: 0,
        tallies: vec![],
        toks: Tokens {
            site: vec![],
            area: vec![],
            pos: vec![],
            height: vec![],
            kind: vec![],
            clock: 0,
            top: vec![-1; 2],
            bottom: vec![-1; 2],
            count_at: vec![0; 2],
            kind_at: vec![],
            nk: 0,
            top_owner: vec![-1; 2],
            above: vec![],
            below: vec![],
            tw: 0,
            bits: vec![],
        },
        fault: Cell::new(None),
        index: Index {
            total: vec![0; 2],
            bits: vec![0; 4],
            existing: 0,
            shape: 0,
        },
        seen: Positions::default(),
    }
}

/// A field's name and a change of it.
#[cfg(test)]
type Change = (&'static str, fn(&mut Board));

/// A change of any compared field makes the boards differ; a change of a skipped one (an
/// index derived from the others) does not. With the destructuring in `eq`, every field of
/// `Board` is in one of the two lists.
#[test]
fn board_equality_covers_every_field() {
    let a = sample_board();
    assert!(a == a.clone());
    let compared: [Change; 12] = [
        ("counts", |b| b.counts[0] += 1),
        ("kinds", |b| {
            b.kinds[0] = if b.kinds[0] == SiteKind::Hole {
                SiteKind::Store
            } else {
                SiteKind::Hole
            }
        }),
        ("owners", |b| {
            b.owners[0] = if b.owners[0] < 0 { 0 } else { -1 }
        }),
        ("bank", |b| b.bank[0] += 1),
        ("mover", |b| b.mover ^= 1),
        ("sow_dir", |b| b.sow_dir ^= 1),
        ("round", |b| b.round += 1),
        ("round_first", |b| b.round_first ^= 1),
        ("tallies", |b| b.tallies.push(1)),
        ("toks", |b| b.toks.clock += 1),
        ("fault", |b| b.fault.set(Some(Fault::Overflow))),
        ("seen", |b| b.seen.hash ^= 1),
    ];
    for (name, change) in compared {
        let mut b = a.clone();
        change(&mut b);
        assert!(a != b, "a change of `{name}` is not seen by `==`");
    }
    let skipped: [Change; 5] = [
        ("nk", |b| b.nk += 1),
        ("total", |b| b.index.total[0] += 1),
        ("bits", |b| b.index.bits.push(1)),
        ("existing", |b| b.index.existing += 1),
        ("shape", |b| b.index.shape += 1),
    ];
    for (name, change) in skipped {
        let mut b = a.clone();
        change(&mut b);
        assert!(a == b, "`{name}` is compared, yet documented as skipped");
    }
}

/// `clone_from` copies every field, as `clone` does (both name every field).
#[test]
fn clone_from_copies_what_clone_copies() {
    let a = sample_board();
    let mut b = a.clone();
    b.counts[0] += 1;
    b.index.total[0] += 1;
    b.index.shape += 3;
    b.index.existing += 1;
    b.clone_from(&a);
    assert!(a == b);
    assert_eq!(
        (a.index.total, a.index.shape, a.index.existing),
        (b.index.total, b.index.shape, b.index.existing)
    );
}
