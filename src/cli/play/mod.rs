//! `ludic play GAME`: a game at the terminal, people and computers.

use super::{FAILED, Format, OK, USAGE, load_for_command, write_json};
use ludic::agents::{AgentSpec, default_threads};
use ludic::check::option_map;
use ludic::engine::Game;
use ludic::ir::Player;
use ludic::limits::shorten;
use crate::cli::output::{Named, check_outputs};
use ludic::output::error_text;
use ludic::record::{FORMAT, Record, RecordFile};
use ludic::render::narrate::end_text;
use ludic::render::{board_text, final_position, outcome_json, state_json};
use ludic::source_hash;
use std::collections::BTreeMap;
use std::io::{self, Write};

mod game;
mod input;
mod session;
mod text;

use game::run;
pub(crate) use input::{Input, next_input};
use session::Session;
use text::*;

/// Arguments of `ludic play`.
pub struct PlayArgs {
    pub game: String,
    pub options: Vec<String>,
    pub variant: Option<String>,
    pub seed: Option<u64>,
    pub agents: Vec<String>,
    /// threads of a searching agent (default: every core)
    pub threads: Option<usize>,
    pub record: Option<String>,
    pub format: Format,
    /// a picture of the position to keep up to date
    pub svg: Option<String>,
    /// input that ends before the game does is not an error
    pub allow_partial: bool,
    /// scripted input: a line refused is reported and the game goes on, as at a terminal
    pub keep_going: bool,
    /// colours on the board (already decided from --color, NO_COLOR and the terminal)
    pub colour: bool,
}

/// Who plays each player: by default the first side's players are human, the others the
/// computer (`mcts`).
fn parse_agents(g: &Game, specs: &[String], threads: usize) -> Result<Vec<AgentSpec>, String> {
    let computer = AgentSpec::parse("mcts", threads)?;
    let mut agents: Vec<AgentSpec> = (0..g.players.len())
        .map(|i| {
            if g.side_of(Player(i as u8)).0 == 0 {
                AgentSpec::Human
            } else {
                computer.clone()
            }
        })
        .collect();
    // who was given an agent, by which setting: the same side twice is refused
    let mut given: Vec<(String, &str)> = vec![];
    for spec in specs {
        let Some((who, agent)) = spec.split_once('=') else {
            return Err(format!(
                "`{}` is not an agent setting: write SIDE=AGENT, e.g. North=mcts or South=human",
                shorten(spec, 80)
            ));
        };
        let who = who.trim();
        let agent = AgentSpec::parse(agent, threads)?;
        let key = who.to_lowercase();
        if let Some((_, first)) = given.iter().find(|(k, _)| *k == key) {
            return Err(format!(
                "`{}` is given two agents (`--agent {}` and `--agent {}`): give each side one",
                shorten(who, 80),
                shorten(first, 80),
                shorten(spec, 80)
            ));
        }
        given.push((key, spec));
        // A side's name sets all its players; a player's name (South2) only him.
        let side = g.sides.iter().position(|s| s.eq_ignore_ascii_case(who));
        let player = g.players.iter().position(|p| p.eq_ignore_ascii_case(who));
        match (side, player) {
            (Some(s), _) => {
                for (i, a) in agents.iter_mut().enumerate() {
                    if g.side_of(Player(i as u8)).0 as usize == s {
                        *a = agent.clone();
                    }
                }
            }
            (None, Some(p)) => agents[p] = agent,
            (None, None) => {
                let mut names = g.sides.clone();
                if g.players.len() > g.sides.len() {
                    names.extend(g.players.iter().cloned());
                }
                return Err(format!(
                    "unknown side `{}`: the sides are {}",
                    shorten(who, 80),
                    names.join(", ")
                ));
            }
        }
    }
    Ok(agents)
}

fn pick_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        // No seed given: take one from the clock, and say which, so the game can be replayed.
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_000)
            .unwrap_or(1)
    })
}

const PLAY_HELP: &str =
    "Type the number of a move, its notation (`sow s7`), or its last word (`s7`);
Enter alone takes the move when there is only one.
Several decisions can go on one line: `s5 ccw`.
Commands: undo (take back your last decision), board (show the board), moves (list moves),
rules (the game's summary and what each decision means), help (this text), quit (stop the game).";

/// Why a game at the terminal stopped early.
enum Stop {
    /// standard output failed (a closed pipe, a full disk)
    Output(io::Error),
    /// the record could not be written
    Record(io::Error),
    /// the engine refused what it offered (a bug)
    Internal(String),
    /// the picture asked for with --svg could not be written
    Picture(String),
    /// scripted input (not a terminal) had a line that could not be played, or ended before
    /// the game: the position before it is kept
    Script(String),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Output(e)
    }
}

/// `ludic play GAME`
pub fn play(args: &PlayArgs) -> u8 {
    let (label, source, g) =
        match load_for_command(&args.game, &args.options, args.variant.as_deref()) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let threads = args.threads.unwrap_or_else(default_threads).max(1);
    let agents = match parse_agents(&g, &args.agents, threads) {
        Ok(a) => a,
        Err(e) => {
            to_stderr!("error: {e}");
            return USAGE;
        }
    };
    // Nothing is written before every output is known to be safe to write.
    let mut outputs = vec![];
    if let Some(r) = &args.record {
        outputs.push(Named::new("the record (--record)", r));
    }
    if let Some(p) = &args.svg {
        outputs.push(Named::new("the picture (--svg)", p));
    }
    let inputs = [Named::new(
        "the game file being played",
        super::game_file(&args.game),
    )];
    if let Err(e) = check_outputs(&inputs, &outputs, true) {
        to_stderr!("error: {e}");
        return USAGE;
    }
    let seed = pick_seed(args.seed);
    // The record is created before the game starts, and written as it goes.
    let record = match &args.record {
        None => None,
        Some(path) => {
            let head = Record {
                agents: g
                    .players
                    .iter()
                    .cloned()
                    .zip(agents.iter().map(AgentSpec::describe))
                    .collect::<BTreeMap<_, _>>(),
                format: FORMAT,
                game: label.clone(),
                title: g.meta.name.clone(),
                source_hash: source_hash(&source),
                options: option_map(&g),
                seed: Some(seed),
                steps: vec![],
                result: None,
                last: None,
            };
            match RecordFile::create(path, &head) {
                Ok(f) => Some(f),
                Err(e) => {
                    to_stderr!(
                        "error: cannot write the record to `{path}`: {}",
                        error_text(&e)
                    );
                    return FAILED;
                }
            }
        }
    };
    let mut s = Session {
        g: &g,
        st: g.start(),
        steps: vec![],
        history: vec![],
        computers: agents.iter().map(AgentSpec::build).collect(),
        events: vec![],
        told: vec![],
        chain: None,
        recorded: 0,
        record,
    };
    let out = &mut io::stdout().lock();
    let stopped = run(&mut s, args, seed, &agents, out);
    // The record gets the last steps, the result and the last position, whatever stopped the
    // game.
    let result = s.st.outcome().map(|o| outcome_json(&g, o));
    let last = final_position(&g, &s.st);
    let recorded = match s.sync_record() {
        Ok(()) => match &mut s.record {
            Some(f) => f.finish(result.as_ref(), &last).map_err(Stop::Record),
            None => Ok(()),
        },
        Err(e) => Err(e),
    };
    let path = args.record.as_deref().unwrap_or("");
    let held = s.record.as_ref().map_or(0, RecordFile::written);
    // A record that could not be written is said first: it is what would be lost.
    let stopped = match (stopped, recorded) {
        (Ok(()), r) => r,
        (Err(e), Ok(())) => Err(e),
        (Err(Stop::Output(e)), Err(r)) => {
            if e.kind() != io::ErrorKind::BrokenPipe {
                to_stderr!("error: cannot write the output: {}", error_text(&e));
            }
            Err(r)
        }
        (Err(Stop::Script(e)), Err(r)) => {
            to_stderr!("error: {e}");
            Err(r)
        }
        (Err(e), Err(_)) => Err(e),
    };
    let mut script_error = None;
    match stopped {
        Ok(()) => {}
        Err(Stop::Record(e)) => {
            to_stderr!(
                "error: cannot write the record to `{path}`: {}; the record stopped at step {held} (valid, with the steps up to there)",
                error_text(&e)
            );
            return FAILED;
        }
        Err(Stop::Internal(e)) => {
            to_stderr!("internal error: {e}");
            return FAILED;
        }
        Err(Stop::Picture(e)) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
        Err(Stop::Script(e)) => script_error = Some(e),
        // A reader that stopped reading (`play … | head`) ends the game: said on standard
        // error, exit 1, since the game did not reach its end.
        Err(Stop::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            let n = s.steps.len();
            match &args.record {
                Some(path) => to_stderr!(
                    "standard output closed: stopped after {}; the record {path} holds them",
                    plural(n, "step")
                ),
                None => to_stderr!(
                    "standard output closed: stopped after {}",
                    plural(n, "step")
                ),
            }
            return FAILED;
        }
        Err(Stop::Output(e)) => return super::finish(Err(e)),
    }
    let text = args.format == Format::Text;
    let end = (|| -> io::Result<u8> {
        if let Some(path) = &args.record {
            say(out, text, &format!("record written to {path}"))?;
        }
        match args.format {
            Format::Json => write_json(out, &state_json(&g, &s.st))?,
            Format::Text => {
                writeln!(out, "\n{}", board_text(&g, &s.st))?;
                if let Some(end) = end_text(&g, &s.st) {
                    writeln!(out, "{end}")?;
                }
            }
        }
        if let Some(e) = &script_error {
            out.flush()?;
            to_stderr!("error: {e}");
            return Ok(FAILED);
        }
        Ok(OK)
    })();
    super::finish(end)
}

/// A message of the game: on standard output in text, on standard error with `--format json`
/// (standard output then carries the JSON only).
fn say(out: &mut (impl Write + ?Sized), text: bool, m: &str) -> io::Result<()> {
    if text {
        writeln!(out, "{m}")
    } else {
        to_stderr!("{m}");
        Ok(())
    }
}
