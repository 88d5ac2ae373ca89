//! The random agent: a uniformly random legal decision.

use super::{Agent, Forfeit, Progress, Thought};
use crate::{Decision, Game, State};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

/// Picks one of the legal decisions, each with the same probability (one draw from the
/// caller's generator per decision).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn decide(
        &mut self,
        _g: &Game,
        st: &State,
        rng: &mut Xoshiro256PlusPlus,
        _progress: &mut dyn FnMut(Progress),
    ) -> Result<Thought, Forfeit> {
        let moves = st.moves();
        Ok(Thought {
            decision: moves[rng.random_range(0..moves.len())],
            estimate: None,
        })
    }

    fn describe(&self) -> String {
        "random".into()
    }
}

/// A legal decision of `st` (at a choice or an order of drops with a decision) drawn
/// uniformly by `rng`: one draw, or with the `leaving` tests deferred
/// ([`State::defer_leaving`]) another while the decision drawn fails its test
/// ([`Game::drawn_decision`]). The random playouts of `ludic bench` and of the searches.
#[inline]
pub fn draw_legal(g: &Game, st: &mut State, rng: &mut Xoshiro256PlusPlus) -> Decision {
    loop {
        let i = rng.random_range(0..st.moves().len());
        if let Some(d) = g.drawn_decision(st, i) {
            return d;
        }
    }
}
