//! Room in a state's buffers (see [`crate::engine::fields::Room`]): for a program that keeps
//! many positions of a game and copies others over them without allocating.

use super::{Fault, Look, Pending, State};
use std::cell::Cell;

impl State {
    /// Makes room in this state's buffers for a copy of any position whose buffers are no
    /// larger than `like`'s capacities (e.g. a scratch state that playouts have grown): a
    /// later `clone_from` of such a position allocates nothing. The position does not change.
    /// For a program that keeps many positions of one game and copies others over them.
    pub fn make_room_like(&mut self, like: &State) {
        crate::engine::fields::Room::room_like(self, like);
    }

    /// Whether copying `o` into this state (`clone_from`) allocates nothing: each of `o`'s
    /// buffers fits in this state's room.
    pub fn can_copy_without_allocating(&self, o: &State) -> bool {
        crate::engine::fields::Room::fits(self, o)
    }

    /// The bytes this state takes: the state itself and its buffers' capacities (not its
    /// scratch copy for look-aheads, nor the game's shared tables).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<State>() + crate::engine::fields::Room::bytes(self)
    }
}

// (`Look`, the scratch copy for look-aheads, is not part of the position, nor copied with it.)
crate::engine::fields::no_room!(Pending, Cell<Option<Fault>>, Look);
