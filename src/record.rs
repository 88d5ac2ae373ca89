//! Game records: the game, its source hash, the options, the seed, every decision and every
//! chance outcome in order, and the result. A record replays exactly.

use crate::engine::Game;
use crate::engine::{Event, Pending, State};
use crate::limits::shorten;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};

/// The version of the record format this ludic writes and reads.
pub const FORMAT: u32 = 1;

/// How much of a step's text an error message shows.
const SHOWN: usize = 80;

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
        apply(g, &mut st, i + 1, step, false)?;
    }
    Ok(st)
}

/// Plays step number `index` (1-based, for errors) of a record on a state, checked as
/// [`replay`] checks it, and returns what it did (its events, for narration). A step that is
/// refused leaves the state unchanged.
pub fn play_step(
    g: &Game,
    st: &mut State,
    index: usize,
    step: &Step,
) -> Result<Vec<Event>, ReplayError> {
    apply(g, st, index, step, true)
}

/// One step checked and played (`narrated`: with its events).
fn apply(
    g: &Game,
    st: &mut State,
    index: usize,
    step: &Step,
    narrated: bool,
) -> Result<Vec<Event>, ReplayError> {
    let refused = |e: crate::engine::IllegalMove| ReplayError::Step {
        index,
        message: e.to_string(),
    };
    match (st.pending(), step) {
        (Pending::Over(_), _) => Err(ReplayError::AfterEnd(index)),
        (Pending::ChanceFirst | Pending::Throw(_), Step::Chance { outcome }) => {
            let o = g
                .parse_outcome(st, outcome)
                .map_err(|message| ReplayError::Step { index, message })?;
            if narrated {
                g.play_chance_narrated(st, o).map_err(refused)
            } else {
                g.play_chance(st, o).map(|()| vec![]).map_err(refused)
            }
        }
        (Pending::ChanceFirst | Pending::Throw(_), Step::Decision { notation, .. }) => {
            Err(ReplayError::Step {
                index,
                message: format!(
                    "a chance event is pending, but the record has the decision `{}`",
                    shorten(notation, SHOWN)
                ),
            })
        }
        (_, Step::Chance { outcome }) => Err(ReplayError::Step {
            index,
            message: format!(
                "a decision is pending, but the record has the chance outcome `{}`",
                shorten(outcome, SHOWN)
            ),
        }),
        (_, Step::Decision { player, notation }) => {
            let mover = g.player_name(st.mover());
            if mover != player {
                return Err(ReplayError::Step {
                    index,
                    message: format!(
                        "it is {mover}'s decision, but the record says {}",
                        shorten(player, SHOWN)
                    ),
                });
            }
            // what `play` accepts: the notation, its last words when they name one decision,
            // or the decision's number in the list of legal decisions
            let d = g
                .parse_decision(st, notation)
                .map_err(|message| ReplayError::Step { index, message })?;
            if narrated {
                g.play_narrated(st, d).map_err(refused)
            } else {
                g.play(st, d).map(|()| vec![]).map_err(refused)
            }
        }
    }
}

/// A record replayed once, every step checked, so that any of its positions can be visited
/// (stepping through it, forwards and back): a copy of the position is kept every
/// [`Timeline::EVERY`] steps, and a position between two copies is played from the one before.
pub struct Timeline<'g> {
    g: &'g Game,
    steps: Vec<Step>,
    /// the position after `k * EVERY` steps, for each k
    kept: Vec<State>,
}

impl<'g> Timeline<'g> {
    /// Steps between two kept positions.
    pub const EVERY: usize = 32;

    /// Replays the steps, checking each one.
    pub fn new(g: &'g Game, steps: Vec<Step>) -> Result<Self, ReplayError> {
        let mut st = g.start();
        let mut kept = vec![st.clone()];
        for (i, step) in steps.iter().enumerate() {
            apply(g, &mut st, i + 1, step, false)?;
            if (i + 1) % Self::EVERY == 0 {
                kept.push(st.clone());
            }
        }
        Ok(Timeline { g, steps, kept })
    }

    /// The number of steps (the last position is after this many).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the record has no step.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The position after `n` steps (0: the start; past the end: the last position).
    pub fn at(&self, n: usize) -> State {
        let n = n.min(self.steps.len());
        let k = (n / Self::EVERY).min(self.kept.len() - 1);
        let mut st = self.kept[k].clone();
        for (i, step) in self.steps[k * Self::EVERY..n].iter().enumerate() {
            // every step was checked when the timeline was made
            let _ = apply(self.g, &mut st, k * Self::EVERY + i + 1, step, false);
        }
        st
    }

    /// Step `n` (1-based) played: the position before it, what it did, and the position after
    /// it; `None` for 0 and past the end.
    pub fn step(&self, n: usize) -> Option<(State, Vec<Event>, State)> {
        let step = self.steps.get(n.checked_sub(1)?)?;
        let before = self.at(n - 1);
        let mut after = before.clone();
        let events = apply(self.g, &mut after, n, step, true).ok()?;
        Some((before, events, after))
    }
}

/// A record written as the game goes: after each step the file holds a valid record of the
/// game so far (`"result": null` until it is over), so that a game stopped by Ctrl-C or by a
/// closed pipe keeps its record up to there. Each step is one line; a step is added by
/// rewriting only the end of the file.
pub struct RecordFile {
    file: File,
    /// where the steps start (after `"steps": [`)
    steps_start: u64,
    /// where each written step ends
    ends: Vec<u64>,
}

impl RecordFile {
    /// Creates (or empties) the file and writes the record's head, without steps: an error
    /// here (an unwritable path) comes before the game starts.
    pub fn create(path: &str, head: &Record) -> io::Result<Self> {
        let mut file = File::create(path)?;
        let empty = Record {
            steps: vec![],
            result: None,
            ..head.clone()
        };
        let text = serde_json::to_string_pretty(&empty)?;
        // `…"seed": 7,\n  "steps": [],\n  "result": null\n}`: the steps go between the brackets
        let at = text
            .rfind("\"steps\": [")
            .map(|i| i + "\"steps\": [".len())
            .ok_or_else(|| io::Error::other("a record without its steps"))?;
        file.write_all(&text.as_bytes()[..at])?;
        let mut r = RecordFile {
            file,
            steps_start: at as u64,
            ends: vec![],
        };
        r.write_tail(None)?;
        Ok(r)
    }

    fn steps_end(&self) -> u64 {
        self.ends.last().copied().unwrap_or(self.steps_start)
    }

    /// Writes what follows the steps, at the end of the last one.
    fn write_tail(&mut self, result: Option<&serde_json::Value>) -> io::Result<()> {
        let result = match result {
            Some(v) => serde_json::to_string(v)?,
            None => "null".into(),
        };
        let tail = if self.ends.is_empty() {
            format!("],\n  \"result\": {result}\n}}\n")
        } else {
            format!("\n  ],\n  \"result\": {result}\n}}\n")
        };
        let at = self.steps_end();
        self.file.seek(SeekFrom::Start(at))?;
        self.file.write_all(tail.as_bytes())?;
        self.file.set_len(at + tail.len() as u64)?;
        self.file.flush()
    }

    /// Makes the file hold exactly these steps: those already written that are still there are
    /// kept (`kept` of them, after an undo), the others are written.
    pub fn sync(&mut self, steps: &[Step], kept: usize) -> io::Result<()> {
        let kept = kept.min(self.ends.len()).min(steps.len());
        if kept == self.ends.len() && kept == steps.len() {
            return Ok(());
        }
        self.ends.truncate(kept);
        let mut at = self.steps_end();
        let mut text = String::new();
        for (i, step) in steps[kept..].iter().enumerate() {
            let line = serde_json::to_string(step)?;
            let sep = if kept + i == 0 { "\n    " } else { ",\n    " };
            text.push_str(sep);
            text.push_str(&line);
            at += (sep.len() + line.len()) as u64;
            self.ends.push(at);
        }
        // the new steps and the tail in one write, so that the file is never left half done
        let tail = if self.ends.is_empty() {
            "],\n  \"result\": null\n}\n".to_string()
        } else {
            "\n  ],\n  \"result\": null\n}\n".to_string()
        };
        let start = self
            .ends
            .get(kept.wrapping_sub(1))
            .copied()
            .unwrap_or(self.steps_start);
        self.file.seek(SeekFrom::Start(start))?;
        self.file.write_all((text + &tail).as_bytes())?;
        self.file.set_len(at + tail.len() as u64)?;
        self.file.flush()
    }

    /// The last word: the result of the game, if it is over.
    pub fn finish(&mut self, result: Option<&serde_json::Value>) -> io::Result<()> {
        self.write_tail(result)
    }
}
