//! The indexed tests of a question over sites ([`SiteOp`]) and the word of sites each allows.

use crate::engine::compile::num::{Num, player_ref};
use crate::engine::compile::tables::Tables;
use crate::engine::state::{Board, Regs};
use crate::ir::{CountRhs, Op, PlayerRef};

/// An indexed test of a site; `x` is the mask that complements its set (`!0`) or not (0).
pub(super) enum SiteOp {
    /// a set of the board's index arena (at this offset)
    Index { at: usize, x: u64 },
    /// the set at `at` plus the mover's number of sets (the sites the mover owns)
    OfMover { at: usize, x: u64 },
    /// the set at `at` plus the opponent's number of sets (the sites the opponent owns)
    OfOpponent { at: usize, x: u64 },
    /// no site (its complement: every site)
    Nothing { x: u64 },
    /// the site's pieces compared with a number (tried on each candidate, before the rest)
    Count { op: Op, rhs: CountRhs },
    /// the sites whose top token belongs to a player computed before the question
    TopOwner { who: Num, x: u64 },
    /// the set at `at` read at another site, fixed for each site (`map`, `u16::MAX` for no
    /// site: read as a clear bit), e.g. `empty(next(s, down))`
    Moved { at: usize, map: Box<[u16]>, x: u64 },
    /// the sites of a fixed set, or those of a test that reads only the board's bits
    /// (`Index`, `OfMover`, `OfOpponent`, `Moved`, `Nothing`): `FIXED or TEST`
    Either { pass: Vec<u64>, op: Box<SiteOp> },
    /// a fixed value of the site compared with a number computed before the question:
    /// `lower[i]` holds the sites whose value is at most the `i`th of `keys` (increasing);
    /// the set is built in the scratch words at `scratch` before the question
    Key {
        keys: Keys,
        lower: Vec<Vec<u64>>,
        op: Op,
        rhs: Num,
        scratch: usize,
    },
    /// `if c then A else B` with `c` free of the site (computed at each word, reading the board
    /// and counting no work, never faulting) and `A`, `B` fixed: A's sites or B's
    Pick {
        c: Num,
        yes: Vec<u64>,
        no: Vec<u64>,
        x: u64,
    },
}

/// The values a fixed value of the sites takes, increasing, each once; with, when they lie in
/// a short range, for each number of the range how many are at most it and whether it is one
/// (so that a comparison finds its sets without a search).
pub(super) struct Keys {
    keys: Vec<i64>,
    /// for `keys[0] + j`: the number of keys at most it, times 2, plus 1 if it is a key
    dense: Vec<u32>,
}

/// The longest range of values with a table of ranks.
const DENSE: i64 = 1 << 12;

impl Keys {
    /// The keys, increasing and each once.
    pub(super) fn new(keys: Vec<i64>) -> Self {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let dense = match (keys.first(), keys.last()) {
            (Some(&lo), Some(&hi)) if hi.checked_sub(lo).is_some_and(|d| d < DENSE) => (lo..=hi)
                .map(|c| {
                    let at_most = keys.partition_point(|&k| k <= c) as u32;
                    at_most * 2 + keys.binary_search(&c).is_ok() as u32
                })
                .collect(),
            _ => vec![],
        };
        Keys { keys, dense }
    }

    /// How many keys are at most `c`, and how many are below it.
    #[inline(always)]
    pub(super) fn ranks(&self, c: i64) -> (usize, usize) {
        if let Some(&lo) = self.keys.first()
            && !self.dense.is_empty()
        {
            if c < lo {
                return (0, 0);
            }
            // (c - lo fits in a u64 since c >= lo)
            return match self.dense.get(c.wrapping_sub(lo) as u64 as usize) {
                Some(&x) => ((x / 2) as usize, (x / 2 - x % 2) as usize),
                None => (self.keys.len(), self.keys.len()),
            };
        }
        let at_most = self.keys.partition_point(|&k| k <= c);
        let below = self.keys.partition_point(|&k| k < c);
        (at_most, below)
    }
}

impl SiteOp {
    /// Whether the test only reads the board's bits (no value computed, no fault).
    pub(super) fn is_bits(&self) -> bool {
        matches!(
            self,
            SiteOp::Index { .. }
                | SiteOp::OfMover { .. }
                | SiteOp::OfOpponent { .. }
                | SiteOp::Nothing { .. }
                | SiteOp::Moved { .. }
        )
    }
}

impl SiteOp {
    /// The test of the other sites (`not` the test); None for a union (`Either`).
    pub(super) fn negated(self) -> Option<SiteOp> {
        Some(match self {
            SiteOp::Index { at, x } => SiteOp::Index { at, x: !x },
            SiteOp::OfMover { at, x } => SiteOp::OfMover { at, x: !x },
            SiteOp::OfOpponent { at, x } => SiteOp::OfOpponent { at, x: !x },
            SiteOp::Nothing { x } => SiteOp::Nothing { x: !x },
            SiteOp::Count { op, rhs } => SiteOp::Count {
                op: negate(op),
                rhs,
            },
            SiteOp::TopOwner { who, x } => SiteOp::TopOwner { who, x: !x },
            SiteOp::Moved { at, map, x } => SiteOp::Moved { at, map, x: !x },
            SiteOp::Pick { c, yes, no, x } => SiteOp::Pick { c, yes, no, x: !x },
            SiteOp::Either { .. } => return None,
            SiteOp::Key {
                keys,
                lower,
                op,
                rhs,
                scratch,
            } => SiteOp::Key {
                keys,
                lower,
                op: negate(op),
                rhs,
                scratch,
            },
        })
    }

    /// Word `i` of the sites the test allows, among those of `within` at least.
    #[inline(always)]
    pub(super) fn word(&self, t: &Tables, b: &Board, r: &mut Regs, i: usize, within: u64) -> u64 {
        let op = self;
        match op {
            SiteOp::Index { .. }
            | SiteOp::OfMover { .. }
            | SiteOp::OfOpponent { .. }
            | SiteOp::Nothing { .. }
            | SiteOp::Moved { .. } => bits_word(t, op, b, i, within),
            SiteOp::Either { pass, op } => pass[i] | either_word(t, op, b, i, within & !pass[i]),
            SiteOp::TopOwner { who, x } => {
                let p = who(b, r);
                if (p as u64) < t.players as u64 {
                    b.index.bits[t.layout.top_owner(p as usize) + i] ^ x
                } else if p == -1 {
                    // owner(top(s)) == none: the sites without tokens
                    b.index.bits[t.layout.tokens_here() + i] ^ !x
                } else {
                    *x
                }
            }
            SiteOp::Key { scratch, .. } => r.scratch[scratch + i],
            SiteOp::Pick { c, yes, no, x } => {
                if c(b, r) != 0 {
                    yes[i] ^ x
                } else {
                    no[i] ^ x
                }
            }
            SiteOp::Count { .. } => !0, // tried on each candidate
        }
    }
}

/// Word `i` of the sites whose fixed other site (`map`) is in the set at `at`, among those of
/// `within` (a site without one: not in it).
#[inline(never)]
fn moved_word(t: &Tables, b: &Board, at: usize, map: &[u16], i: usize, within: u64) -> u64 {
    let bits = &b.index.bits[at..at + t.layout.w];
    let mut out = 0u64;
    let mut left = within;
    while left != 0 {
        let j = left.trailing_zeros() as usize;
        left &= left - 1;
        let q = map.get(i * 64 + j).map_or(usize::MAX, |&q| q as usize);
        if q < t.nsites {
            out |= (bits[q / 64] >> (q % 64) & 1) << j;
        }
    }
    out
}

/// Word `i` of a test of the board's bits (see [`SiteOp::is_bits`]) in an `Either`.
#[inline(never)]
fn either_word(t: &Tables, op: &SiteOp, b: &Board, i: usize, within: u64) -> u64 {
    bits_word(t, op, b, i, within)
}

/// Word `i` of a test of the board's bits (see [`SiteOp::is_bits`]), among the sites of
/// `within` at least.
#[inline(always)]
fn bits_word(t: &Tables, op: &SiteOp, b: &Board, i: usize, within: u64) -> u64 {
    let w = t.layout.w;
    match op {
        SiteOp::Index { at, x } => b.index.bits[at + i] ^ x,
        SiteOp::OfMover { at, x } => b.index.bits[at + b.mover as usize * w + i] ^ x,
        SiteOp::OfOpponent { at, x } => {
            let p = player_ref(PlayerRef::Opponent, b, t) as usize;
            b.index.bits[at + p * w + i] ^ x
        }
        SiteOp::Nothing { x } => *x,
        SiteOp::Moved { at, map, x } => moved_word(t, b, *at, map, i, within) ^ x,
        // (never planned: `is_bits` is checked first)
        _ => !0,
    }
}

/// The comparison that holds exactly where `op` does not.
fn negate(op: Op) -> Op {
    match op {
        Op::Lt => Op::Ge,
        Op::Le => Op::Gt,
        Op::Gt => Op::Le,
        Op::Ge => Op::Lt,
        Op::Eq => Op::Ne,
        Op::Ne => Op::Eq,
        other => other,
    }
}

/// The ranks read from the table (keys in a short range) or found by a search (a long
/// range) are those of the search, for numbers below, among, between and above the keys.
#[test]
fn ranks_from_the_table_are_those_of_the_search() {
    let sets: [&[i64]; 6] = [
        &[],
        &[3],
        &[-4, -1, 0, 2, 7],
        &[0, 1, 2, 3, 4, 5, 6, 7, 8],
        &[i64::MIN, 0, i64::MAX],
        &[-5, 1 << 20],
    ];
    // with a table: the keys of a short range only
    let tables = [false, true, true, true, false, false];
    for (keys, table) in sets.into_iter().zip(tables) {
        let k = Keys::new(keys.to_vec());
        assert_eq!(!k.dense.is_empty(), table, "{keys:?}");
        let mut probes = vec![i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1];
        for &x in keys {
            probes.extend([x.saturating_sub(1), x, x.saturating_add(1)]);
        }
        probes.extend(-10..12);
        for c in probes {
            let at_most = keys.partition_point(|&x| x <= c);
            let below = keys.partition_point(|&x| x < c);
            assert_eq!(k.ranks(c), (at_most, below), "{keys:?} at {c}");
        }
    }
}
