//! The parts of a [`super::State`] besides the position, each for one concern: the sowing in
//! progress, the limits' counters, the statistics, the loops and the pending throw.

use crate::engine::fields::clone_by_fields;
use crate::ir::VarId;

/// The sowing in progress: the hand, the lap being planned, where it is, and the positions at
/// the start of its laps (to cut a sowing that would go on forever).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Sowing {
    /// pieces picked up and not yet sown, per kind
    pub(crate) hand: Vec<u32>,
    /// the order of drops in the lap being planned (kind per step, 255 = not chosen yet)
    pub(crate) plan: Vec<u8>,
    pub(crate) planning: bool,
    pub(crate) cursor: u16,
    pub(crate) lap_keys: Vec<u64>,
    pub(crate) lap_snaps: Vec<u32>,
}

/// What the limits count: the round's turns and decisions, the turn's decisions, and whether
/// the same player plays the next turn.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct TurnFlow {
    /// the turns completed when this round began (the turn limit counts the round's turns)
    pub(crate) round_turn0: u32,
    /// the round's last allowed turn (or decision, `limit … moves`) is over: the game ends at
    /// the next decision or chance event, unless the rules end it (or the round) first
    pub(crate) limit_reached: bool,
    /// decisions taken in the turn being played
    pub(crate) turn_decisions: u32,
    /// `another turn` was said in this turn: the same player plays the next one
    pub(crate) another_turn: bool,
    /// decisions still allowed in this round by the move limit (`u64::MAX` without one)
    pub(crate) moves_left: u64,
}

/// What happened in the game that its statistics tell (read through [`State`]'s methods).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Stats {
    /// sowings ended because their position repeated (or ran past the lap limit)
    cycles_cut: u32,
    /// turns passed for want of a legal decision, and the last player who passed
    passes: u32,
    last_passer: u8,
}

impl Stats {
    /// A player passed for want of a legal decision.
    pub(crate) fn passed(&mut self, p: u8) {
        self.passes += 1;
        self.last_passer = p;
    }
    /// A sowing was cut: its position repeated.
    pub(crate) fn cycle_cut(&mut self) {
        self.cycles_cut += 1;
    }
    /// Sowings cut.
    pub(crate) fn cycles_cut(&self) -> u32 {
        self.cycles_cut
    }
    /// Turns passed, and the last player who passed.
    pub(crate) fn passes(&self) -> (u32, u8) {
        (self.passes, self.last_passer)
    }
}

/// The `for` loops being run: the elements of each, and how far it is.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Loops {
    pub(crate) lists: Vec<Vec<u16>>,
    pub(crate) at: Vec<usize>,
}

/// The variable that receives the pending throw, and the last throw (dice, outcome).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Chance {
    var: VarId,
    last: Option<(u16, u16)>,
}

impl Chance {
    /// A throw is pending: its value will go to `var`.
    pub(crate) fn wait(&mut self, var: VarId) {
        self.var = var;
    }
    /// The pending throw landed: outcome `outcome` of dice `dice`. Returns the variable that
    /// receives its value.
    pub(crate) fn landed(&mut self, dice: u16, outcome: u16) -> VarId {
        self.last = Some((dice, outcome));
        self.var
    }
    /// The last throw: (dice, outcome).
    pub(crate) fn last(&self) -> Option<(u16, u16)> {
        self.last
    }
}

clone_by_fields!(Sowing {
    hand,
    plan,
    planning,
    cursor,
    lap_keys,
    lap_snaps,
});
clone_by_fields!(TurnFlow {
    round_turn0,
    limit_reached,
    turn_decisions,
    another_turn,
    moves_left,
});
clone_by_fields!(Stats {
    cycles_cut,
    passes,
    last_passer,
});
clone_by_fields!(@own_room Loops { lists, at });

/// The lists of the loops are buffers of buffers: each list's room is its own.
impl crate::engine::fields::Room for Loops {
    fn room_like(&mut self, o: &Self) {
        self.at.room_like(&o.at);
        crate::engine::fields::reserve_like(&mut self.lists, &o.lists);
        for (l, ol) in self.lists.iter_mut().zip(&o.lists) {
            l.room_like(ol);
        }
    }
    fn fits(&self, o: &Self) -> bool {
        self.at.fits(&o.at)
            && o.lists.len() <= self.lists.capacity()
            && o.lists
                .iter()
                .enumerate()
                .all(|(i, ol)| match self.lists.get(i) {
                    Some(l) => l.fits(ol),
                    // cloned anew: a list with elements allocates
                    None => ol.is_empty(),
                })
    }
    fn bytes(&self) -> usize {
        self.at.bytes()
            + self.lists.capacity() * std::mem::size_of::<Vec<u16>>()
            + self.lists.iter().map(|l| l.bytes()).sum::<usize>()
    }
}
clone_by_fields!(Chance { var, last });
