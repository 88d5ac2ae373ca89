//! Game records: the game, its source hash, the options, the seed, every decision and every
//! chance outcome in order, and the result. A record replays exactly.

use crate::Action;
use crate::engine::Game;
use crate::engine::{Event, Pending, State};
use crate::limits::shorten;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;

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
    /// the position the steps lead to (its digest and score), written when the record is
    /// finished, so that `replay` can tell a game whose rules changed since (absent from
    /// records of older versions, which replay without this check)
    #[serde(rename = "final", default, skip_serializing_if = "Option::is_none")]
    pub last: Option<FinalPosition>,
}

/// The last position of a record: a digest of it and each side's score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalPosition {
    /// FNV-1a hash of the position as `replay --format json` shows it
    pub digest: String,
    /// each side's score (its players' captures by value, summed)
    pub score: BTreeMap<String, i64>,
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

/// The record of a game given by its history (each number as
/// [`Game::apply_history_step`] takes it: an action id, or a chance outcome's number), as `ludic
/// play` and `ludic match` write it: the game's name and source hash, its options, the seed
/// and the agents given, each step in notation, and the result and last position when the
/// game is over. `ludic replay` replays it. A number that is refused is an error naming its
/// step.
///
/// ```
/// let g = ludic::load(&ludic::Source::infer(ludic::builtin::GAMES[0].0), &Default::default())
///     .unwrap();
/// let mut st = g.start();
/// let mut history = vec![];
/// for _ in 0..6 {
///     let a = if g.is_chance_node(&st) { 0 } else { g.legal_actions(&st)[0] };
///     g.apply_history_step(&mut st, a).unwrap();
///     history.push(a);
/// }
/// let rec = ludic::record::record_of_history(&g, &history, Some(7), Default::default()).unwrap();
/// assert_eq!(rec.steps.len(), 6);
/// assert_eq!(ludic::record::history_of_steps(&g, &rec.steps).unwrap().1, history);
/// ```
pub fn record_of_history(
    g: &Game,
    history: &[Action],
    seed: Option<u64>,
    agents: BTreeMap<String, String>,
) -> Result<Record, ReplayError> {
    let mut st = g.start();
    let mut steps = Vec::with_capacity(history.len());
    for (i, &a) in history.iter().enumerate() {
        let step = match st.pending() {
            Pending::Over(_) => return Err(ReplayError::AfterEnd(i + 1)),
            Pending::ChanceFirst | Pending::Throw(_) => Step::Chance {
                outcome: g.outcome_name(&st, i64::from(a)),
            },
            Pending::Choice(_) | Pending::Drop(_) => Step::Decision {
                player: g.player_name(st.mover()).to_string(),
                notation: g.action_to_string(&st, a),
            },
        };
        g.apply_history_step(&mut st, a)
            .map_err(|e| ReplayError::Step {
                index: i + 1,
                message: e.to_string(),
            })?;
        steps.push(step);
    }
    let over = st.outcome();
    Ok(Record {
        format: FORMAT,
        game: g.source_name().to_string(),
        title: g.title().to_string(),
        source_hash: g.source_hash().to_string(),
        options: g.option_values(),
        seed,
        agents,
        steps,
        result: over.map(|o| crate::render::outcome_json(g, o)),
        last: over.map(|_| crate::render::final_position(g, &st)),
    })
}

/// The history of a record's steps (each an action id, or a chance outcome's number, as
/// [`Game::replay_history`] takes them) and the position they lead to; every step checked
/// as [`replay`] checks it.
pub fn history_of_steps(g: &Game, steps: &[Step]) -> Result<(State, Vec<Action>), ReplayError> {
    let mut st = g.start();
    let mut history = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let before = st.clone();
        apply(g, &mut st, i + 1, step, false)?;
        let a = match step {
            Step::Chance { outcome } => g.parse_outcome(&before, outcome).ok().map(|o| o as Action),
            Step::Decision { notation, .. } => g
                .parse_decision(&before, notation)
                .ok()
                .and_then(|d| g.action_of(&before, d)),
        };
        history.push(a.ok_or_else(|| ReplayError::Step {
            index: i + 1,
            message: "the step has no action id".into(),
        })?);
    }
    Ok((st, history))
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
/// game so far (`"result": null` until it is over), so that a game stopped by Ctrl-C, by a
/// closed pipe or by a full disk keeps its record up to there. Each step is one line. The file
/// is written whole at each change, into a temporary file renamed over it (see
/// [`crate::output::write_whole`]): a failed write leaves the record as it was before it,
/// valid JSON. (A game has at most a few thousand steps of about 60 bytes: rewriting the file
/// costs well under a millisecond a step.)
pub struct RecordFile {
    path: String,
    /// the record's text up to its steps (`…"steps": [`)
    head: String,
    /// each step, in JSON
    lines: Vec<String>,
    /// how many steps the file on disk holds
    written: usize,
}

impl RecordFile {
    /// Writes the record's head, without steps: an error here (an unwritable path) comes
    /// before the game starts.
    pub fn create(path: &str, head: &Record) -> io::Result<Self> {
        let empty = Record {
            steps: vec![],
            result: None,
            last: None,
            ..head.clone()
        };
        let text = serde_json::to_string_pretty(&empty)?;
        // `…"seed": 7,\n  "steps": [],\n  "result": null\n}`: the steps go between the brackets
        let at = text
            .rfind("\"steps\": [")
            .map(|i| i + "\"steps\": [".len())
            .ok_or_else(|| io::Error::other("a record without its steps"))?;
        let mut r = RecordFile {
            path: path.to_string(),
            head: text[..at].to_string(),
            lines: vec![],
            written: 0,
        };
        r.write(None, None)?;
        Ok(r)
    }

    /// How many steps the file holds (after a failed write: those of the write before).
    pub fn written(&self) -> usize {
        self.written
    }

    /// Writes the file whole: the head, the steps, and what follows them.
    fn write(
        &mut self,
        result: Option<&serde_json::Value>,
        last: Option<&FinalPosition>,
    ) -> io::Result<()> {
        let result = match result {
            Some(v) => serde_json::to_string(v)?,
            None => "null".into(),
        };
        let mut text = String::with_capacity(
            self.head.len() + self.lines.iter().map(|l| l.len() + 6).sum::<usize>() + 200,
        );
        text.push_str(&self.head);
        for (i, line) in self.lines.iter().enumerate() {
            text.push_str(if i == 0 { "\n    " } else { ",\n    " });
            text.push_str(line);
        }
        if !self.lines.is_empty() {
            text.push_str("\n  ");
        }
        text.push_str("],\n  \"result\": ");
        text.push_str(&result);
        if let Some(last) = last {
            text.push_str(",\n  \"final\": ");
            text.push_str(&serde_json::to_string(last)?);
        }
        text.push_str("\n}\n");
        // the last write of a game reaches the disk before it is said to be written
        let durable = last.is_some();
        crate::output::write_whole(&self.path, text.as_bytes(), durable)?;
        self.written = self.lines.len();
        Ok(())
    }

    /// Makes the file hold exactly these steps: those already written that are still there are
    /// kept (`kept` of them, after an undo), the others are written.
    pub fn sync(&mut self, steps: &[Step], kept: usize) -> io::Result<()> {
        let kept = kept.min(self.lines.len()).min(steps.len());
        if kept == self.lines.len() && kept == steps.len() && self.written == kept {
            return Ok(());
        }
        self.lines.truncate(kept);
        for step in &steps[kept..] {
            self.lines.push(serde_json::to_string(step)?);
        }
        self.write(None, None)
    }

    /// The last word: the result of the game if it is over, and its last position.
    pub fn finish(
        &mut self,
        result: Option<&serde_json::Value>,
        last: &FinalPosition,
    ) -> io::Result<()> {
        self.write(result, Some(last))
    }
}
