//! The random agent: a uniformly random legal decision.

use super::{Agent, Forfeit, Progress, Thought};
use crate::{Game, State};
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
