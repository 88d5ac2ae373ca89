//! `ludic play GAME`: a game at the terminal, people and computers.

use super::{FAILED, Format, OK, OptionArgs, USAGE, deprecated, load_for_command, write_json};
use crate::cli::output::{Named, check_outputs};
use ludic::Game;
use ludic::Player;
use ludic::agents::{AgentSpec, GameEnd, default_threads};

use ludic::limits::shorten;
use ludic::output::error_text;
use ludic::record::{FORMAT, Record, RecordFile};
use ludic::render::narrate::end_text;
use ludic::render::{board_text, final_position, state_json};
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

// Arguments of `ludic play`.
#[derive(clap::Args)]
#[command(
    after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nExamples:\n  ludic play GAME                        (you play the first side against the computer)\n  ludic play GAME --agent North=human    (two people at one terminal)\n  ludic play GAME --agent North=mcts:time=5s\n  ludic play GAME --agent South=mcts --agent North=mcts   (watch two computers)\n  ludic play GAME --agent North=mcts:playouts=20000 --threads 2\n  ludic play GAME --variant NAME --seed 3\n  ludic play my.game -o NAME=VALUE --record game.json\n  printf 'sow s7\\n' | ludic play GAME --agent North=random --format json\n\nAt your turn type the number of a move, its notation (`sow s7`) or its last word (`s7`),\nseveral decisions on one line (`s5 ccw`), or: undo, board, help, quit.\nWith input that is not a terminal (a script), a line that cannot be played stops the game\nat the position before it, and input that ends before the game does is an error: both\nexit 1 (--keep-going and --allow-partial relax them). A closed standard output\n(`| head`) stops the game, said on standard error, exit 1; the record keeps its steps.\nBy default the first side is human and the others `mcts` (about 1 s a decision).\nAfter a searched decision the computer says how often it won in its playouts.\n\n{}", ludic::agents::AGENT_HELP)
)]
pub struct PlayArgs {
    /// A built-in game (see `ludic list`) or the path of a .game file
    pub game: String,
    #[command(flatten)]
    pub opts: OptionArgs,
    /// Seed of the random generator (chance events and the computer's moves)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who plays a side: --agent North=mcts:time=5s (repeatable; see Agents below)
    #[arg(long = "agent", value_name = "SIDE=AGENT")]
    pub agents: Vec<String>,
    /// Threads of a searching agent's search (default: every core)
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// The old spelling of --threads (deprecated: -j is the games played at once elsewhere)
    #[arg(short = 'j', value_name = "N", hide = true, conflicts_with = "threads", value_parser = clap::value_parser!(u16).range(1..))]
    pub old_j: Option<u16>,
    /// Write the game record (JSON) to this file
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
    /// Print the final state as JSON at the end
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Keep a picture (SVG) of the position in this file, rewritten after every step
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// With input that is not a terminal: input that ends before the game is not an error
    #[arg(long)]
    pub allow_partial: bool,
    /// With input that is not a terminal: a line that cannot be played is reported and the
    /// game goes on (by default it stops the game, exit 1)
    #[arg(long)]
    pub keep_going: bool,
}

impl PlayArgs {
    /// The threads of a searching agent's search (default: every core), with a note on
    /// standard error for the old spelling `-j`.
    fn search_threads(&self) -> usize {
        self.threads
            .or_else(|| {
                self.old_j.inspect(|_| {
                    deprecated("`-j` in play is now `--threads N` (the threads of a search); `-j` is the number of games played at once in match, simulate and compare")
                })
            })
            .map_or_else(default_threads, usize::from)
            .max(1)
    }
}

/// Who plays each player: by default the first side's players are human, the others the
/// computer (`mcts`).
fn parse_agents(g: &Game, specs: &[String], threads: usize) -> Result<Vec<AgentSpec>, String> {
    let computer = AgentSpec::parse("mcts", threads)?;
    let mut agents: Vec<AgentSpec> = (0..g.players().len())
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
        let side = g.sides().iter().position(|s| s.eq_ignore_ascii_case(who));
        let player = g.players().iter().position(|p| p.eq_ignore_ascii_case(who));
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
                let mut names = g.sides().to_vec();
                if g.players().len() > g.sides().len() {
                    names.extend(g.players().iter().cloned());
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

/// `ludic play GAME`; `colour`: colours on the board (decided from --color, NO_COLOR and the
/// terminal).
pub fn play(args: &PlayArgs, colour: bool) -> u8 {
    let threads = args.search_threads();
    let (label, source, g) =
        match load_for_command(&args.game, &args.opts.options, args.opts.variant.as_deref()) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let agents = match parse_agents(&g, &args.agents, threads) {
        Ok(a) => a,
        Err(e) => {
            to_stderr!("error: {e}");
            return USAGE;
        }
    };
    if let Err(e) = check_play_outputs(args) {
        to_stderr!("error: {e}");
        return USAGE;
    }
    let seed = pick_seed(args.seed);
    // The record is created before the game starts, and written as it goes.
    let record = match &args.record {
        None => None,
        Some(path) => match create_record(path, &g, &label, &source, &agents, seed) {
            Ok(f) => Some(f),
            Err(code) => return code,
        },
    };
    let mut s = Session::new(&g, &agents, record);
    s.begin(seed);
    let out = &mut io::stdout().lock();
    let stopped = run(&mut s, args, colour, seed, &agents, out);
    s.tell_end();
    super::note_agent_logs(&agents);
    let stopped = finish_record(&mut s, stopped);
    let script_error = match stopped {
        Ok(()) => None,
        Err(Stop::Script(e)) => Some(e),
        Err(stop) => return stopped_early(stop, args, &s),
    };
    super::finish(say_end(out, args, &s, script_error.as_deref()))
}

/// Nothing is written before every output is known to be safe to write.
fn check_play_outputs(args: &PlayArgs) -> Result<(), String> {
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
    check_outputs(&inputs, &outputs, true)
}

/// The record of a game about to start (its head: the game, its options, the agents, the
/// seed), created at `path`; the error (said) is the exit code.
fn create_record(
    path: &str,
    g: &Game,
    label: &str,
    source: &str,
    agents: &[AgentSpec],
    seed: u64,
) -> Result<RecordFile, u8> {
    let head = Record {
        agents: g
            .players()
            .iter()
            .cloned()
            .zip(agents.iter().map(AgentSpec::describe))
            .collect::<BTreeMap<_, _>>(),
        format: FORMAT,
        game: label.to_string(),
        title: g.title().to_string(),
        source_hash: source_hash(source),
        options: g.option_values(),
        seed: Some(seed),
        steps: vec![],
        result: None,
        last: None,
    };
    RecordFile::create(path, &head).map_err(|e| {
        to_stderr!(
            "error: cannot write the record to `{path}`: {}",
            error_text(&e)
        );
        FAILED
    })
}

/// The record gets the last steps, the result and the last position, whatever stopped the
/// game. A record that could not be written is said first: it is what would be lost.
fn finish_record(s: &mut Session, stopped: Result<(), Stop>) -> Result<(), Stop> {
    let g = s.g;
    let result = s.end().map(|e| e.json(g));
    let last = final_position(g, &s.st);
    let recorded = match s.sync_record() {
        Ok(()) => match &mut s.record {
            Some(f) => f.finish(result.as_ref(), &last).map_err(Stop::Record),
            None => Ok(()),
        },
        Err(e) => Err(e),
    };
    match (stopped, recorded) {
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
    }
}

/// Says why the game stopped before its end (all but a script's error, said after the
/// position); the exit code.
fn stopped_early(stop: Stop, args: &PlayArgs, s: &Session) -> u8 {
    let path = args.record.as_deref().unwrap_or("");
    let held = s.record.as_ref().map_or(0, RecordFile::written);
    match stop {
        Stop::Record(e) => {
            to_stderr!(
                "error: cannot write the record to `{path}`: {}; the record stopped at step {held} (valid, with the steps up to there)",
                error_text(&e)
            );
            FAILED
        }
        Stop::Internal(e) => {
            to_stderr!("internal error: {e}");
            FAILED
        }
        Stop::Picture(e) | Stop::Script(e) => {
            to_stderr!("error: {e}");
            FAILED
        }
        // A reader that stopped reading (`play … | head`) ends the game: said on standard
        // error, exit 1, since the game did not reach its end.
        Stop::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => {
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
            FAILED
        }
        Stop::Output(e) => super::finish(Err(e)),
    }
}

/// The end: where the record is, the last position (text) or the state (JSON), and a
/// script's error (exit 1) after them.
fn say_end(
    out: &mut impl Write,
    args: &PlayArgs,
    s: &Session,
    script_error: Option<&str>,
) -> io::Result<u8> {
    let g = s.g;
    let text = args.format == Format::Text;
    if let Some(path) = &args.record {
        say(out, text, &format!("record written to {path}"))?;
    }
    match (args.format, &s.forfeit) {
        (Format::Json, None) => write_json(out, &state_json(g, &s.st))?,
        (Format::Json, Some(f)) => {
            // the position the computer did not decide in, with the forfeit as its result
            let mut v = state_json(g, &s.st);
            v["result"] = GameEnd::Forfeit(f.clone()).json(g);
            write_json(out, &v)?
        }
        (Format::Text, forfeit) => {
            writeln!(out, "\n{}", board_text(g, &s.st))?;
            if let Some(f) = forfeit {
                writeln!(out, "{}", forfeit_text(g, f))?;
            } else if let Some(end) = end_text(g, &s.st) {
                writeln!(out, "{end}")?;
            }
        }
    }
    if let Some(e) = script_error {
        out.flush()?;
        to_stderr!("error: {e}");
        return Ok(FAILED);
    }
    Ok(OK)
}

/// The end of a game by a forfeit, in words: `North (cmd:bot) forfeits: ...; South wins`.
fn forfeit_text(g: &Game, f: &ludic::agents::Forfeited) -> String {
    let end = GameEnd::Forfeit(f.clone());
    match end.winner(g) {
        Some(w) => format!("{}; {} wins", f.text(g), g.side_name(w)),
        None => format!("{}; {} loses", f.text(g), g.side_name(f.side)),
    }
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
