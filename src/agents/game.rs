//! One game played by agents, from the start to its end: the loop of `ludic match`,
//! `simulate --agent` and `compare --agent`, and of the Python package, so that a seed gives
//! the same game from every one of them.
//!
//! It lives with the agents (not in [`crate::study`]) because it is what an agent is for: the
//! studies call it for each of their games, and a front end that plays one game (the Python
//! package) needs the agents and nothing of the studies.
//!
//! Game `index` of a run with seed `seed` draws its chance events from a generator seeded by
//! `stream_seed(seed, index, 0)`, and agent `k` draws from one seeded by
//! `stream_seed(seed, index, 1 + k)` ([`stream_seed`]): the game is the same
//! whichever thread plays it, and whenever.

use super::{Agent, Event, Forfeit, Progress};
use crate::record::Step;
use crate::{Game, Outcome, Pending, Player, State};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// A generator's seed for game `game`, stream `k` (chance, agent A, agent B, …), of a run with
/// seed `seed`: splitmix64 of the three, so that neighbouring games and streams are unrelated.
pub fn stream_seed(seed: u64, game: u64, k: u64) -> u64 {
    let mut z = seed
        .wrapping_add(game.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(k.wrapping_mul(0xd1b5_4a32_d192_ed03));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Which game of a run to play, and what to keep of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameSetup {
    /// the run's seed
    pub seed: u64,
    /// the game's number in the run (its generators are seeded by (`seed`, `index`))
    pub index: u64,
    /// keep every step ([`Played::steps`]), for a record
    pub record: bool,
}

/// What an agent is told when a game begins ([`Agent::begin`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// the players it decides for (all of them, one, or a team's)
    pub players: Vec<Player>,
    /// the run's seed and the game's number in the run
    pub seed: u64,
    pub index: u64,
}

/// Watches a game as it is played (every method does nothing by default).
pub trait Watch {
    /// At each decision point, before the agent decides.
    fn decision(&mut self, _g: &Game, _st: &State) {}
    /// Playouts run by a search since it was last said (for a progress line).
    fn playouts(&mut self, _n: u64) {}
}

/// A watch that watches nothing.
impl Watch for () {}

/// What one agent did in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgentTally {
    /// the decisions it took
    pub decisions: u64,
    /// those with more than one legal decision
    pub choices: u64,
    /// the playouts of its searches
    pub playouts: u64,
    /// the decisions it searched
    pub searched: u64,
    /// the time its searches took
    pub thinking: Duration,
}

/// How a game played by agents ended.
#[derive(Clone, Debug, PartialEq)]
pub enum GameEnd {
    /// by its rules (or a limit of the engine): the state's outcome
    Over(Outcome),
    /// an agent failed to decide ([`Forfeit`]): the side of the player it was deciding for
    /// loses
    Forfeit(Forfeited),
}

/// An agent's forfeit, as a game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeited {
    /// the player the agent was to decide for
    pub player: Player,
    /// that player's side, which loses
    pub side: Player,
    /// the agent's number (in the agents given to [`play_game`])
    pub agent: usize,
    /// the agent's description ([`Agent::describe`])
    pub by: String,
    /// why, as the agent said it
    pub reason: String,
}

impl GameEnd {
    /// The side that won: the state's winner; after a forfeit, the other side of a game of
    /// two sides (with more sides no single side wins: the forfeiting side loses, the others
    /// neither win nor lose).
    pub fn winner(&self, g: &Game) -> Option<Player> {
        match self {
            GameEnd::Over(o) => o.winner,
            GameEnd::Forfeit(f) => match g.sides().len() {
                2 => Some(Player(1 - f.side.0.min(1))),
                _ => None,
            },
        }
    }

    /// A short machine-readable name: the outcome's reason (`rules`, `turn_limit`...), or
    /// `forfeit`.
    pub fn code(&self) -> &'static str {
        match self {
            GameEnd::Over(o) => o.reason.code(),
            GameEnd::Forfeit(_) => "forfeit",
        }
    }

    /// The forfeit, if the game ended by one.
    pub fn forfeit(&self) -> Option<&Forfeited> {
        match self {
            GameEnd::Forfeit(f) => Some(f),
            GameEnd::Over(_) => None,
        }
    }

    /// The result as records and `--format json` write it: the outcome's JSON
    /// ([`crate::render::outcome_json`]), or for a forfeit `{"winner": side or null,
    /// "reason": "forfeit", "loser": side, "forfeit": {"player", "agent", "reason"}, "why":
    /// the sentence}`.
    pub fn json(&self, g: &Game) -> Value {
        match self {
            GameEnd::Over(o) => crate::render::outcome_json(g, *o),
            GameEnd::Forfeit(f) => json!({
                "winner": self.winner(g).map(|p| g.side_name(p).to_string()),
                "reason": "forfeit",
                "loser": g.side_name(f.side),
                "forfeit": {
                    "player": g.player_name(f.player),
                    "agent": f.by,
                    "reason": f.reason,
                },
                "why": f.text(g),
            }),
        }
    }

    /// The result in words.
    pub fn text(&self, g: &Game) -> String {
        match self {
            GameEnd::Over(o) => crate::render::outcome_text(g, *o),
            GameEnd::Forfeit(f) => f.text(g),
        }
    }
}

impl Forfeited {
    /// `North (cmd:python3 bot.py) forfeits: answered `e9`, which is not a legal decision`
    pub fn text(&self, g: &Game) -> String {
        format!(
            "{} ({}) forfeits: {}",
            g.player_name(self.player),
            self.by,
            self.reason
        )
    }
}

/// A game played by agents.
#[derive(Clone, Debug)]
pub struct Played {
    /// how it ended
    pub end: GameEnd,
    /// the last position (after a forfeit, the one the agent did not decide in)
    pub state: State,
    /// the decisions taken
    pub decisions: u64,
    /// every step, decisions and chance outcomes (with [`GameSetup::record`]; else empty)
    pub steps: Vec<Step>,
    /// what each agent did, in the order of the agents
    pub tallies: Vec<AgentTally>,
    /// how long it took
    pub length: Duration,
}

/// The side agent A plays in game `i` of a match between two agents: the sides in turn (A on
/// side `i mod sides`, B on every other), as `ludic match` and Python's `play_match` seat them.
pub fn match_side(g: &Game, i: u64) -> Player {
    Player((i % g.sides().len().max(1) as u64) as u8)
}

/// Plays game `setup.index` of a run from the start to its end: `seat(p)` is the number of
/// the agent (in `agents`) that decides for player `p`. Every agent is told of every step
/// ([`Agent::observe`]) and, first, which players it plays ([`Agent::begin`]), last how the
/// game ended ([`Agent::end`]). An agent that cannot decide ([`Forfeit`]) loses the game
/// for its side ([`GameEnd::Forfeit`]).
///
/// See [`match_side`] for the seats of a match.
///
/// `None` when the program is asked to stop during the game ([`crate::interrupt`]): a search
/// cut short is not the agent's play, and the game is dropped.
///
/// ```
/// use ludic::agents::{Agent, GameSetup, RandomAgent, play_game};
/// let g = ludic::load(&ludic::Source::infer(ludic::builtin::GAMES[0].0), &Default::default())
///     .unwrap();
/// let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
/// let setup = GameSetup { seed: 7, index: 0, record: true };
/// let seat = |p: ludic::Player| usize::from(p.0 != 0);
/// let a = play_game(&g, &mut agents, &seat, &setup, &mut ()).unwrap();
/// let b = play_game(&g, &mut agents, &seat, &setup, &mut ()).unwrap();
/// assert_eq!(a.steps, b.steps);
/// ```
pub fn play_game(
    g: &Game,
    agents: &mut [Box<dyn Agent>],
    seat: &dyn Fn(Player) -> usize,
    setup: &GameSetup,
    watch: &mut dyn Watch,
) -> Option<Played> {
    let t0 = Instant::now();
    let (seed, i, record) = (setup.seed, setup.index, setup.record);
    let mut chance_rng = Xoshiro256PlusPlus::seed_from_u64(stream_seed(seed, i, 0));
    let mut rngs: Vec<Xoshiro256PlusPlus> = (0..agents.len())
        .map(|k| Xoshiro256PlusPlus::seed_from_u64(stream_seed(seed, i, 1 + k as u64)))
        .collect();
    let mut tallies = vec![AgentTally::default(); agents.len()];
    let mut st = g.start();
    for (k, a) in agents.iter_mut().enumerate() {
        let players = (0..g.players().len())
            .map(|p| Player(p as u8))
            .filter(|&p| seat(p) == k)
            .collect();
        a.begin(
            g,
            &Seat {
                players,
                seed,
                index: i,
            },
        );
    }
    let mut steps = vec![];
    let mut decisions = 0;
    let end = loop {
        match st.pending() {
            Pending::Over(o) => break GameEnd::Over(o),
            Pending::ChanceFirst | Pending::Throw(_) => {
                let o = g.draw_chance(&st, chance_rng.random());
                if record {
                    steps.push(Step::Chance {
                        outcome: g.outcome_name(&st, o),
                    });
                }
                for a in agents.iter_mut() {
                    a.observe(g, &st, Event::Chance(o));
                }
                let _ = g.play_chance(&mut st, o);
            }
            Pending::Choice(_) | Pending::Drop(_) => {
                watch.decision(g, &st);
                let mover = st.mover();
                let k = seat(mover).min(agents.len().saturating_sub(1));
                let mut seen = 0u64;
                let thought = agents[k].decide(g, &st, &mut rngs[k], &mut |p: Progress| {
                    watch.playouts(p.playouts.saturating_sub(seen));
                    seen = seen.max(p.playouts);
                });
                if crate::interrupt::requested() {
                    return None;
                }
                let t = match thought {
                    Ok(t) if st.moves().contains(&t.decision) => t,
                    Ok(t) => {
                        break forfeit(
                            g,
                            &st,
                            k,
                            agents[k].as_ref(),
                            Forfeit {
                                reason: format!(
                                    "decided `{}`, which is not a legal decision",
                                    g.notation_of(&st, t.decision)
                                ),
                            },
                        );
                    }
                    Err(f) => break forfeit(g, &st, k, agents[k].as_ref(), f),
                };
                let tally = &mut tallies[k];
                tally.decisions += 1;
                tally.choices += u64::from(st.moves().len() > 1);
                if let Some(e) = t.estimate {
                    watch.playouts(e.playouts.saturating_sub(seen));
                    tally.playouts += e.playouts;
                    tally.searched += 1;
                    tally.thinking += e.elapsed;
                }
                if record {
                    steps.push(Step::Decision {
                        player: g.player_name(mover).to_string(),
                        notation: g.notation_of(&st, t.decision),
                    });
                }
                for a in agents.iter_mut() {
                    a.observe(g, &st, Event::Decision(t.decision));
                }
                g.play_unchecked(&mut st, t.decision);
                decisions += 1;
            }
        }
    };
    for a in agents.iter_mut() {
        a.end(g, &st, &end);
    }
    Some(Played {
        end,
        state: st,
        decisions,
        steps,
        tallies,
        length: t0.elapsed(),
    })
}

/// The end of a game by agent `k`'s forfeit at `st`.
fn forfeit(g: &Game, st: &State, k: usize, agent: &dyn Agent, f: Forfeit) -> GameEnd {
    let player = st.mover();
    GameEnd::Forfeit(Forfeited {
        player,
        side: g.side_of(player),
        agent: k,
        by: agent.describe(),
        reason: f.reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{RandomAgent, Thought};

    /// Plays at random for its first `n` decisions, then forfeits.
    struct GivesUp(u32);

    impl Agent for GivesUp {
        fn decide(
            &mut self,
            g: &Game,
            st: &State,
            rng: &mut Xoshiro256PlusPlus,
            p: &mut dyn FnMut(Progress),
        ) -> Result<Thought, Forfeit> {
            if self.0 == 0 {
                return Err(Forfeit::new("gave up"));
            }
            self.0 -= 1;
            RandomAgent.decide(g, st, rng, p)
        }
        fn describe(&self) -> String {
            "gives-up".into()
        }
    }

    #[test]
    fn a_forfeit_ends_the_game_lost_by_the_forfeiting_side() {
        let (name, _) = crate::builtin::GAMES[0];
        let g = crate::load(&crate::Source::infer(name), &Default::default()).unwrap();
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent), Box::new(GivesUp(2))];
        let seat = |p: Player| usize::from(g.side_of(p).0 != 0);
        let setup = GameSetup {
            seed: 1,
            index: 0,
            record: true,
        };
        let p = play_game(&g, &mut agents, &seat, &setup, &mut ()).unwrap();
        let GameEnd::Forfeit(f) = &p.end else {
            panic!("{:?}", p.end)
        };
        assert_eq!((f.agent, f.side, f.by.as_str()), (1, Player(1), "gives-up"));
        assert_eq!(p.state.mover(), f.player);
        assert!(!p.state.is_over());
        assert_eq!(p.tallies[1].decisions, 2);
        assert_eq!(p.end.winner(&g), Some(Player(0)));
        assert_eq!(p.end.code(), "forfeit");
        let v = p.end.json(&g);
        assert_eq!(v["reason"], "forfeit");
        assert_eq!(v["forfeit"]["reason"], "gave up");
        assert!(
            v["why"]
                .as_str()
                .unwrap()
                .ends_with("(gives-up) forfeits: gave up")
        );
        // the steps replay to the position of the forfeit
        let st = crate::record::replay(&g, &p.steps).unwrap();
        assert_eq!(st, p.state);
    }
}
