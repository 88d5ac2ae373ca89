//! Game records: the game, its source hash, the options, the seed, every decision and every
//! chance outcome in order, and the result. A record replays exactly.

use crate::engine::Game;
use crate::engine::{Pending, State};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One step of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Step {
    /// a player's decision, in notation
    Decision { player: String, notation: String },
    /// the outcome of a chance event, by name
    Chance { outcome: String },
}

/// A whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// the record format's version
    pub format: u32,
    /// the built-in game's name or the path of the `.game` file
    pub game: String,
    /// the game's title
    pub title: String,
    /// FNV-1a hash of the game's source text
    pub source_hash: String,
    /// every option's value in force
    pub options: BTreeMap<String, String>,
    pub seed: Option<u64>,
    /// who played each player (`human`, `random`, `mcts, 1 s a move, 2 threads`), when known
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agents: BTreeMap<String, String>,
    pub steps: Vec<Step>,
    pub result: Option<serde_json::Value>,
}

/// Why a record did not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("step {index}: {message}")]
    Step { index: usize, message: String },
    #[error("the record ends with steps after the end of the game (step {0})")]
    AfterEnd(usize),
}

/// Replays the steps of a record from the start, checking each one; returns the final state.
pub fn replay(g: &Game, steps: &[Step]) -> Result<State, ReplayError> {
    let mut st = g.start();
    for (i, step) in steps.iter().enumerate() {
        let index = i + 1;
        match (st.pending(), step) {
            (Pending::Over(_), _) => return Err(ReplayError::AfterEnd(index)),
            (Pending::ChanceFirst | Pending::Throw(_), Step::Chance { outcome }) => {
                let o = g
                    .parse_outcome(&st, outcome)
                    .map_err(|message| ReplayError::Step { index, message })?;
                g.play_chance(&mut st, o).map_err(|e| ReplayError::Step {
                    index,
                    message: e.to_string(),
                })?;
            }
            (Pending::ChanceFirst | Pending::Throw(_), Step::Decision { notation, .. }) => {
                return Err(ReplayError::Step {
                    index,
                    message: format!(
                        "a chance event is pending, but the record has the decision `{notation}`"
                    ),
                });
            }
            (_, Step::Chance { outcome }) => {
                return Err(ReplayError::Step {
                    index,
                    message: format!(
                        "a decision is pending, but the record has the chance outcome `{outcome}`"
                    ),
                });
            }
            (_, Step::Decision { player, notation }) => {
                let mover = g.player_name(st.mover());
                if mover != player {
                    return Err(ReplayError::Step {
                        index,
                        message: format!("it is {mover}'s decision, but the record says {player}"),
                    });
                }
                let d = g
                    .parse_decision(&st, notation)
                    .map_err(|message| ReplayError::Step { index, message })?;
                if g.notation_of(&st, d) != *notation {
                    return Err(ReplayError::Step {
                        index,
                        message: format!("`{notation}` is not a legal decision here"),
                    });
                }
                g.play(&mut st, d).map_err(|e| ReplayError::Step {
                    index,
                    message: e.to_string(),
                })?;
            }
        }
    }
    Ok(st)
}
