//! Computer players behind one trait, shared by `play`, `match` and `simulate`: [`random`]
//! (a uniformly random legal decision), [`mcts`] (Monte Carlo tree search, UCT, for any
//! described game) and [`command`] (an external program speaking the agent protocol of
//! `src/agents/PROTOCOL.md`); [`game`] plays one game by agents. Agents see the game only
//! through the engine's public API.
//!
//! An agent is asked for a decision only at a decision point (`Pending::Choice` or
//! `Pending::Drop`) of any player; it is told every step of the game with [`Agent::observe`]
//! (decisions of every player and chance outcomes), so that a searching agent can keep the
//! part of its tree that the game went into.
//!
//! Agents are named by a spec (`random`, `mcts`, `mcts:time=5s`, `mcts:playouts=20000,c=1.4`),
//! read by [`AgentSpec::parse`]; [`AGENT_HELP`] documents the syntax for the `--help` texts.

pub mod command;
pub mod game;
pub mod mcts;
pub mod random;

pub use command::{CommandAgent, CommandConfig};
pub use game::{
    AgentTally, Forfeited, GameEnd, GameSetup, Played, Seat, Watch, match_side, play_game,
};
pub use mcts::{Budget, Mcts, MctsConfig};
pub use random::{RandomAgent, draw_legal};

use crate::{Decision, Game, State};
use rand::rngs::Xoshiro256PlusPlus;
use std::time::Duration;

/// A step of the game as agents are told it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// a decision of the player to move (one of `State::moves`)
    Decision(Decision),
    /// the outcome of the pending chance event (its index, as `Game::play_chance` takes it)
    Chance(i64),
}

/// What a search found for the decision it chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// playouts run for this decision (all threads)
    pub playouts: u64,
    /// the mean reward of the chosen decision for the mover's side: 1 a win, 0.5 a draw
    pub value: f64,
    /// playouts that went through the chosen decision (all threads)
    pub visits: u64,
    /// the time the search took
    pub elapsed: Duration,
}

/// An agent's answer: the decision and, for a searching agent, its estimate (none for a
/// decision that was not searched, such as the only legal one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thought {
    pub decision: Decision,
    pub estimate: Option<Estimate>,
}

/// An agent's failure to decide (an external program that answered an illegal decision,
/// garbage or nothing in time, or that died): the game is lost by the side it decided for,
/// with the reason in the result ([`GameEnd::Forfeit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// why, in words that follow `North (agent) forfeits: `
    pub reason: String,
}

impl Forfeit {
    pub fn new(reason: impl Into<String>) -> Forfeit {
        Forfeit {
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// How far a search is, reported now and then while it runs (for a spinner).
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// playouts so far (all threads)
    pub playouts: u64,
    pub elapsed: Duration,
}

/// A computer player.
pub trait Agent: Send {
    /// The decision of the mover of `st` (which must be at a decision point, with at least one
    /// legal decision). `rng` is the caller's generator: an agent draws from it whatever
    /// randomness it needs, so that a game is determined by the caller's seed. `progress` is
    /// called now and then while the agent thinks. A search returns at once, with what it
    /// has, when the program is asked to stop ([`crate::interrupt`]): its caller then drops
    /// the game (a decision of a search cut short is not the agent's play). An agent that
    /// cannot decide (an external program that failed) returns a [`Forfeit`]: the game is
    /// lost by the side it decides for. A decision that is not legal is a forfeit too.
    fn decide(
        &mut self,
        g: &Game,
        st: &State,
        rng: &mut Xoshiro256PlusPlus,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Thought, Forfeit>;

    /// Told once, before the first step of a game, which players it decides for and the
    /// game's seed (an external program is started and told the game here); the default
    /// does nothing.
    fn begin(&mut self, _g: &Game, _seat: &Seat) {}

    /// Told once, after the last step of a game, how it ended (an external program is told
    /// and stopped here); the default does nothing.
    fn end(&mut self, _g: &Game, _last: &State, _end: &GameEnd) {}

    /// Told of every step of the game, by every player and chance, with the state before it.
    /// Searching agents use it to keep the subtree of what was played; the default ignores it.
    fn observe(&mut self, _g: &Game, _before: &State, _event: Event) {}

    /// A short description: `random`, `mcts, 1 s a move, 2 threads`.
    fn describe(&self) -> String;
}

/// Who plays a side, as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// a person at the terminal (only in `play`)
    Human,
    Random,
    Mcts(MctsConfig),
    /// an external program, spoken to in JSON lines (`cmd:python3 bot.py`)
    Command(CommandConfig),
}

/// The agent syntax, for the `--help` texts.
pub const AGENT_HELP: &str = "Agents:
  human                   a person at the terminal (play only)
  random                  a uniformly random legal decision
  mcts                    Monte Carlo tree search, about 1 s a decision
  mcts:time=5s            ... with this time a decision (5s, 500ms, 1.5s, 2m)
  mcts:playouts=20000     ... with this number of playouts a decision (deterministic for a
                          seed and a number of threads)
  mcts:c=1.4              ... with this exploration constant (default 0.5)
  mcts:threads=2          ... with this number of threads (default: --threads in play and
                          match; one in simulate and compare)
  cmd:PROGRAM ARGS        an external program (any language) that speaks the agent protocol
                          (JSON lines on its standard input and output; see
                          src/agents/PROTOCOL.md):
                          cmd:python3 my_bot.py, cmd:./bot --depth 3 (split as a shell
                          would, quotes kept, no shell)
  cmd[time=2s]:PROGRAM    ... with this time a decision (default 10s); a program that
                          answers an illegal decision, garbage or nothing in time, or dies,
                          loses the game by forfeit; its standard error goes to a log file
                          (in --record-dir with match, else in the temporary folder)
  cmd[startup=20s]:...    ... with this time added to its first decision, to start (an
                          interpreter, its libraries; default 5s); settings combine:
                          cmd[time=1s,startup=0]:PROGRAM
Settings combine with commas: mcts:playouts=5000,c=0.7";

impl AgentSpec {
    /// Reads an agent spec (`random`, `mcts:time=2s,c=0.7`); `threads` is the number of
    /// threads a searching agent uses unless its spec says otherwise.
    pub fn parse(spec: &str, threads: usize) -> Result<AgentSpec, String> {
        let spec = spec.trim();
        // an external program: its command may hold any character, `:` and `,` too
        if let (Some(name), Some(rest)) = (spec.get(..3), spec.get(3..))
            && name.eq_ignore_ascii_case("cmd")
            && (rest.starts_with(':') || rest.starts_with('['))
        {
            let cfg = CommandConfig::parse(rest)?;
            cfg.check()?;
            return Ok(AgentSpec::Command(cfg));
        }
        let (name, settings) = match spec.split_once(':') {
            Some((n, s)) => (n.trim(), Some(s)),
            None => (spec, None),
        };
        let name = name.to_lowercase();
        match (name.as_str(), settings) {
            ("human", None) => Ok(AgentSpec::Human),
            ("random", None) => Ok(AgentSpec::Random),
            ("human" | "random", Some(_)) => Err(format!("the agent `{name}` takes no settings")),
            ("mcts", s) => {
                let mut cfg = MctsConfig {
                    threads: threads.max(1),
                    ..MctsConfig::default()
                };
                // each setting once; a time and a number of playouts are two budgets
                let mut seen: Vec<(&str, String)> = vec![];
                for kv in s.into_iter().flat_map(|s| s.split(',')) {
                    let kv = kv.trim();
                    cfg.set(kv)?;
                    let key = kv.split_once('=').map_or(kv, |(k, _)| k).trim();
                    let group = match key.to_lowercase().as_str() {
                        "time" | "playouts" => "budget",
                        "threads" | "j" => "threads",
                        "c" => "c",
                        _ => "other",
                    };
                    if let Some((_, earlier)) = seen.iter().find(|(g, _)| *g == group) {
                        let same = earlier.split_once('=').map(|(k, _)| k.trim()) == Some(key);
                        return Err(if group != "budget" || same {
                            format!("`{key}` is set twice (`{earlier}` and `{kv}`): keep one")
                        } else {
                            format!(
                                "`{earlier}` and `{kv}` are two budgets of a search: give a time or a number of playouts"
                            )
                        });
                    }
                    seen.push((group, kv.to_string()));
                }
                Ok(AgentSpec::Mcts(cfg))
            }
            (other, _) => Err(format!(
                "unknown agent `{other}`: use human, random, mcts or cmd:PROGRAM (see --help)"
            )),
        }
    }

    /// The computer player of this spec (`None` for a human).
    pub fn build(&self) -> Option<Box<dyn Agent>> {
        match self {
            AgentSpec::Human => None,
            AgentSpec::Random => Some(Box::new(RandomAgent)),
            AgentSpec::Mcts(cfg) => Some(Box::new(Mcts::new(cfg.clone()))),
            AgentSpec::Command(cfg) => Some(Box::new(CommandAgent::new(cfg.clone()))),
        }
    }

    /// A short description: `human`, `random`, `mcts, 1 s a move, 2 threads`.
    pub fn describe(&self) -> String {
        match self {
            AgentSpec::Human => "human".into(),
            AgentSpec::Random => "random".into(),
            AgentSpec::Mcts(cfg) => cfg.describe(),
            AgentSpec::Command(cfg) => cfg.describe(),
        }
    }
}

/// Reads a duration: `5s`, `500ms`, `1.5s`, `2m`, or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60.0)
    } else {
        (s, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x * scale >= 0.001 && x * scale <= 1e6 => {
            Ok(Duration::from_secs_f64(x * scale))
        }
        _ => Err(format!(
            "`{s}` is not a duration from 1ms to 1000000s: write 5s, 500ms, 1.5s or 2m"
        )),
    }
}

/// The number of threads to use by default: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_twice_two_budgets_or_a_zero_time_are_refused() {
        for (spec, says) in [
            ("mcts:time=1s,time=5s", "`time` is set twice"),
            ("mcts:playouts=10,playouts=20", "`playouts` is set twice"),
            ("mcts:time=1s,playouts=100", "two budgets"),
            ("mcts:playouts=100,time=1s", "two budgets"),
            ("mcts:c=1,c=2", "`c` is set twice"),
            ("mcts:threads=1,j=2", "is set twice (`threads=1` and `j=2`)"),
            ("mcts:time=0s", "not a duration"),
            ("mcts:time=0", "not a duration"),
            ("mcts:time=0.0000001", "not a duration"),
            ("mcts:time=-1s", "not a duration"),
            ("mcts:playouts=0", "at least 1"),
            ("mcts:playouts=-5", "at least 1"),
        ] {
            let err = AgentSpec::parse(spec, 1).unwrap_err();
            assert!(err.contains(says), "{spec}: {err}");
        }
        assert!(AgentSpec::parse("mcts:time=1ms", 1).is_ok());
    }

    #[test]
    fn specs_are_read_with_their_settings() {
        assert_eq!(AgentSpec::parse("random", 2), Ok(AgentSpec::Random));
        assert_eq!(AgentSpec::parse(" Human ", 2), Ok(AgentSpec::Human));
        let AgentSpec::Mcts(c) = AgentSpec::parse("mcts", 2).unwrap() else {
            panic!()
        };
        assert_eq!(c.budget, Budget::Time(Duration::from_secs(1)));
        assert_eq!(c.threads, 2);
        let AgentSpec::Mcts(c) =
            AgentSpec::parse("mcts:playouts=20000,c=1.4,threads=1", 2).unwrap()
        else {
            panic!()
        };
        assert_eq!(c.budget, Budget::Playouts(20000));
        assert_eq!((c.c, c.threads), (1.4, 1));
        let AgentSpec::Mcts(c) = AgentSpec::parse("mcts:time=500ms", 2).unwrap() else {
            panic!()
        };
        assert_eq!(c.budget, Budget::Time(Duration::from_millis(500)));
        for bad in [
            "mcst",
            "mcts:time=soon",
            "mcts:playouts=0",
            "mcts:depth=3",
            "random:c=1",
            "mcts:c=-1",
        ] {
            assert!(AgentSpec::parse(bad, 1).is_err(), "{bad}");
        }
    }

    #[test]
    fn command_specs_are_read_and_odd_text_does_not_panic() {
        let AgentSpec::Command(c) = AgentSpec::parse(" CMD:sh -c 'exit 0' ", 1).unwrap() else {
            panic!()
        };
        assert_eq!(c.argv, vec!["sh", "-c", "exit 0"]);
        for odd in [
            "cmé",
            "cm\u{e9}:x",
            "é",
            "cmd",
            "cmdx:y",
            "cmd[",
            "cmd[]:",
            "cmd:\\",
        ] {
            let _ = AgentSpec::parse(odd, 1);
        }
        assert!(AgentSpec::parse("cmd:/no/such/program", 1).is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("-1s").is_err());
    }
}
