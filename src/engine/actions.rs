//! The action space of a game: every decision the rules can ever offer gets a fixed number,
//! its **action id**, that depends only on the game (its file and settings), never on the
//! position, as OpenSpiel's distinct actions do.
//!
//! The ids are laid out choice by choice (in the order of the program's `choose` statements),
//! alternative by alternative, each alternative a block of ids:
//!
//! | the alternative's values                | its block                                  |
//! |-----------------------------------------|--------------------------------------------|
//! | none (a choice without a variable)      | 1 id                                       |
//! | every site, or the sites of a set       | one id per site of the board (its index)   |
//! | every token                             | one id per token (its index)               |
//! | listed values (`in [cw ccw]`)           | one id per value, in the order listed      |
//! | with `to q in SET` (a pair)             | the first's block × the sites of the board |
//!
//! A pair's id is `base + first * sites + second`. After every choice's block comes the block
//! of the drops of a lap whose order the sower chooses (`sow … ordered`, in a game of more than
//! one piece kind): the step of the lap at which the pending piece is dropped. A lap holds at
//! most 65535 pieces to be ordered (a longer one stops the game with the fault
//! [`super::Fault::LapTooLongToOrder`]), so its slots are 0 to 65534: that block has
//! [`MAX_ORDERED_LAP`] ids, and is absent from games that never order a lap.

use super::state::{Decision, Pending, State};
use crate::ir::{Domain, Game as Ir, Instr};

/// The most pieces a lap whose drops the sower orders may hold: its drop slots are numbered
/// from 0 to `MAX_ORDERED_LAP - 1`.
pub const MAX_ORDERED_LAP: u32 = u16::MAX as u32;

/// The ids of a game's decisions, computed once when the game is compiled.
#[derive(Clone, Debug, Default)]
pub(crate) struct ActionSpace {
    /// the index in `alts` of each choice's first alternative
    choice_first: Vec<u32>,
    /// every choice's alternatives, choice by choice
    alts: Vec<AltIds>,
    /// the first id of the drop slots, when a lap can be ordered
    drop_base: Option<u32>,
    /// how many ids there are
    total: u32,
    nsites: u32,
}

/// The block of ids of an alternative.
#[derive(Clone, Debug)]
struct AltIds {
    base: u32,
    values: Values,
    /// `to q in SET`: a pair of a value and a site
    pair: bool,
}

/// The values of an alternative, as the ids count them.
#[derive(Clone, Debug)]
enum Values {
    Unit,
    /// a site, a token: the value is the index
    Index(u32),
    /// listed values: the id is the value's place in the list
    Listed(Vec<i64>),
}

impl Values {
    fn len(&self) -> u32 {
        match self {
            Values::Unit => 1,
            Values::Index(n) => *n,
            Values::Listed(v) => v.len() as u32,
        }
    }

    fn index(&self, value: i32) -> Option<u32> {
        match self {
            Values::Unit => (value == 0).then_some(0),
            Values::Index(n) => u32::try_from(value).ok().filter(|v| v < n),
            Values::Listed(v) => v.iter().position(|&x| x as i32 == value).map(|i| i as u32),
        }
    }

    fn value(&self, index: u32) -> Option<i32> {
        match self {
            Values::Unit => (index == 0).then_some(0),
            Values::Index(n) => (index < *n).then_some(index as i32),
            Values::Listed(v) => v.get(index as usize).map(|&x| x as i32),
        }
    }
}

impl ActionSpace {
    pub(crate) fn new(g: &Ir) -> Self {
        let nsites = g.sites.len() as u32;
        let mut space = ActionSpace {
            nsites,
            ..Default::default()
        };
        let mut next: u64 = 0;
        for c in &g.choices {
            space.choice_first.push(space.alts.len() as u32);
            for a in &c.alts {
                let values = match (&a.domain, a.var) {
                    (Domain::Unit, _) | (_, None) => Values::Unit,
                    (Domain::Sites | Domain::Set(_), Some(_)) => Values::Index(nsites),
                    (Domain::Tokens, Some(_)) => Values::Index(g.tokens.len() as u32),
                    (Domain::Values(v), Some(_)) => {
                        Values::Listed(v.iter().map(|(x, _)| *x).collect())
                    }
                };
                let pair = a.to.is_some();
                let n = values.len() as u64 * if pair { nsites as u64 } else { 1 };
                space.alts.push(AltIds {
                    base: next.min(u32::MAX as u64) as u32,
                    values,
                    pair,
                });
                next += n;
            }
        }
        let orders = g
            .code
            .iter()
            .any(|i| matches!(i, Instr::SowLap { orders: true, .. }));
        if orders && g.pieces.len() > 1 {
            space.drop_base = Some(next.min(u32::MAX as u64) as u32);
            next += MAX_ORDERED_LAP as u64;
        }
        // (a game whose ids pass u32::MAX would need a board of millions of sites)
        space.total = next.min(u32::MAX as u64) as u32;
        space
    }

    /// How many ids there are.
    pub(crate) fn total(&self) -> u32 {
        self.total
    }

    /// The alternative `alt` of choice `choice`.
    fn alt(&self, choice: u32, alt: u8) -> Option<&AltIds> {
        let first = *self.choice_first.get(choice as usize)? as usize;
        let end = self
            .choice_first
            .get(choice as usize + 1)
            .map_or(self.alts.len(), |&e| e as usize);
        let i = first + alt as usize;
        (i < end).then(|| &self.alts[i])
    }

    /// The id of a decision at the state's pending point (`None` when it is not one of its
    /// kind: an alternative the choice does not have, a value out of its domain).
    pub(crate) fn id_of(&self, st: &State, d: Decision) -> Option<u32> {
        match (st.pending, d) {
            (Pending::Choice(c), Decision::Alt { alt, value }) => {
                let a = self.alt(c, alt)?;
                let offset = if a.pair {
                    let second = (value & 0xffff) as u32;
                    if second >= self.nsites {
                        return None;
                    }
                    a.values.index(value >> 16)? * self.nsites + second
                } else {
                    a.values.index(value)?
                };
                Some(a.base + offset)
            }
            (Pending::Drop(_), Decision::Drop { slot }) => {
                let base = self.drop_base?;
                ((slot as u32) < MAX_ORDERED_LAP).then_some(base + slot as u32)
            }
            _ => None,
        }
    }

    /// The decision of an id at the state's pending point, if the id names one there (legal
    /// or not: the caller checks that).
    pub(crate) fn decision_of(&self, st: &State, id: u32) -> Option<Decision> {
        match st.pending {
            Pending::Choice(c) => {
                let first = *self.choice_first.get(c as usize)? as usize;
                let end = self
                    .choice_first
                    .get(c as usize + 1)
                    .map_or(self.alts.len(), |&e| e as usize);
                let alts = &self.alts[first..end];
                // the last alternative whose block starts at or before the id
                let i = alts.partition_point(|a| a.base <= id).checked_sub(1)?;
                let a = &alts[i];
                let offset = id - a.base;
                let value = if a.pair {
                    let (first, second) =
                        (offset / self.nsites.max(1), offset % self.nsites.max(1));
                    (a.values.value(first)? << 16) | second as i32
                } else {
                    a.values.value(offset)?
                };
                Some(Decision::Alt {
                    alt: i as u8,
                    value,
                })
            }
            Pending::Drop(_) => {
                let slot = id.checked_sub(self.drop_base?)?;
                (slot < MAX_ORDERED_LAP).then_some(Decision::Drop { slot: slot as u16 })
            }
            _ => None,
        }
    }
}
