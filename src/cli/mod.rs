//! The commands of the `ludic` binary, as library functions returning exit codes: one file per
//! command, and here what they share (finding and loading a game, reading files of bounded
//! size, writing output whose failures are reported, output formats, exit codes).

/// Writes a line to standard error. If that fails too, there is nobody left to tell: the
/// failure is ignored (where `eprintln!` would panic).
macro_rules! to_stderr {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod bench;
mod compare;
mod draw;
mod help;
mod list;
mod matches;
mod merge;
mod perft;
mod play;
mod progress;
mod replay;
mod rules;
mod signals;
mod simulate;
mod validate;

pub use crate::study::random_playout;
pub use bench::{BenchFor, bench};
pub use compare::{CompareArgs, compare};
pub use draw::{DrawArgs, draw};
pub use help::{LANGUAGE, finish_output, help_language};
pub use list::list;
pub use matches::{MatchArgs, run_match};
pub use merge::merge_results;
pub use perft::perft;
pub use play::{PlayArgs, play};
pub use replay::{ReplayArgs, replay};
pub use rules::{RulesArgs, rules};
pub use signals::{INTERRUPTED, TERMINATED};
pub use simulate::{SimulateArgs, StudyArgs, simulate};
pub use validate::validate;

use crate::builtin;
use crate::check::{LoadError, Settings};
use crate::diagnostic::render;
use crate::engine::Game;
use crate::ir::Player;
use crate::limits::shorten;
use crate::load_game;
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use std::io::{self, Write};

/// Output format of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Exit codes.
pub const OK: u8 = 0;
pub const FAILED: u8 = 1;
pub const USAGE: u8 = 2;

/// Ends a command whose output may have failed: a closed pipe ends it quietly (its reader
/// stopped reading, as with `ludic list | head`), any other failure (a full disk) is an error,
/// exit 1. Standard output is flushed here, so that its last failure is seen too.
pub(crate) fn finish(result: io::Result<u8>) -> u8 {
    match result.and_then(|code| io::stdout().flush().map(|()| code)) {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => OK,
        Err(e) => {
            to_stderr!("error: cannot write the output: {e}");
            FAILED
        }
    }
}

/// Writes a value as pretty JSON, then a new line.
pub(crate) fn write_json(out: &mut impl Write, v: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, v)?;
    writeln!(out)
}

// Reading files with the commands' limits is the library's (`ludic::load` reads the same
// way); the commands call it from here.
pub use crate::api::{read_base, read_game_file, read_text_file};

/// Finds a game by built-in name or path: (label for records, source text). A built-in game is
/// found by its file stem, its title or any of its aliases (see [`builtin::lookup`]); a name
/// that several built-in games have is an error listing them.
pub fn resolve_game(name: &str) -> Result<(String, String), String> {
    match builtin::lookup(name) {
        builtin::Lookup::Found(stem, src) => return Ok((stem.to_string(), src.to_string())),
        builtin::Lookup::Ambiguous(stems) => {
            return Err(format!(
                "`{name}` names several built-in games: {}\nhint: give one of these names",
                stems.join(", ")
            ));
        }
        builtin::Lookup::NotFound => {}
    }
    let exists = std::path::Path::new(name).exists();
    match read_game_file(name) {
        Ok(s) => Ok((name.to_string(), s)),
        Err(e) if exists => Err(e),
        Err(e) => {
            let stems: Vec<&str> = builtin::GAMES.iter().map(|(n, _)| *n).collect();
            let every: Vec<&str> = builtin::names()
                .iter()
                .flat_map(|(_, names)| names.iter().map(String::as_str))
                .collect();
            let mut msg = e;
            if let Some(s) = crate::diagnostic::suggest(name, every.iter().copied()) {
                msg.push_str(&format!("\nhint: did you mean the built-in game `{s}`?"));
            } else {
                msg.push_str(&format!(
                    "\nhint: built-in games: {} (`ludic list` shows their other names)",
                    stems.join(", ")
                ));
            }
            Err(msg)
        }
    }
}

/// The file a game named on the command line is read from: none (`""`) for a built-in game.
pub(crate) fn game_file(name: &str) -> &str {
    match builtin::lookup(name) {
        builtin::Lookup::NotFound => name,
        _ => "",
    }
}

pub(crate) fn settings_from(options: &[String], variant: Option<&str>) -> Result<Settings, String> {
    let mut s = Settings {
        variant: variant.map(str::to_string),
        sets: vec![],
    };
    for o in options {
        s.push_assignment(o)?;
    }
    Ok(s)
}

/// Loads a game for a command, printing problems; the error is the exit code.
pub(crate) fn load_for_command(
    name: &str,
    options: &[String],
    variant: Option<&str>,
) -> Result<(String, String, Game), u8> {
    let (label, source) = resolve_game(name).map_err(|e| {
        to_stderr!("error: {e}");
        FAILED
    })?;
    let settings = settings_from(options, variant).map_err(|e| {
        to_stderr!("error: {e}");
        USAGE
    })?;
    match load_game(&source, &settings) {
        Ok(g) => Ok((label, source, g)),
        Err(LoadError::File(d)) => {
            let _ = write!(io::stderr(), "{}", render(&label, &source, &d));
            Err(FAILED)
        }
        Err(LoadError::Options(errs)) => {
            for e in errs {
                to_stderr!("error: {}", shorten(&e, 300));
            }
            to_stderr!("hint: `ludic list` shows every game's options and variants");
            Err(USAGE)
        }
    }
}

pub(crate) fn fmt_options(g: &Game) -> String {
    g.options
        .iter()
        .map(|o| format!("{}={}", o.name, o.value))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Draws a chance outcome by its probability.
pub(crate) fn sample(rng: &mut Xoshiro256PlusPlus, outs: &[(i64, f64)]) -> i64 {
    let x: f64 = rng.random();
    let mut acc = 0.0;
    for (o, p) in outs {
        acc += p;
        if x < acc {
            return *o;
        }
    }
    outs.last().map(|(o, _)| *o).unwrap_or(0)
}

/// Used by tests: a player's name.
pub fn side_name(g: &Game, p: Player) -> &str {
    g.player_name(p)
}

/// A one-line spinner on standard error while the computer thinks: elapsed time and
/// playouts so far, redrawn in place and erased when done (shown only when `on`).
pub(crate) struct Spinner {
    on: bool,
    label: String,
    frame: usize,
    drawn: bool,
}

impl Spinner {
    const FRAMES: [char; 4] = ['|', '/', '-', '\\'];

    pub(crate) fn new(on: bool, label: String) -> Spinner {
        Spinner {
            on,
            label,
            frame: 0,
            drawn: false,
        }
    }

    /// Redraws the line.
    pub(crate) fn show(&mut self, elapsed: std::time::Duration, playouts: u64) {
        if !self.on {
            return;
        }
        self.frame = (self.frame + 1) % Self::FRAMES.len();
        let _ = write!(
            io::stderr(),
            "\r{} {}: {:.1} s, {} playouts\x1b[K",
            Self::FRAMES[self.frame],
            self.label,
            elapsed.as_secs_f64(),
            crate::agents::mcts::thousands(playouts)
        );
        self.drawn = true;
    }

    /// Erases the line.
    pub(crate) fn clear(&mut self) {
        if self.drawn {
            let _ = write!(io::stderr(), "\r\x1b[K");
            self.drawn = false;
        }
    }
}
