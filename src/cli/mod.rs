//! The commands of the `ludic` binary, a module of the binary (not of the library): one file
//! per command, each with its arguments (`#[derive(clap::Args)]`) and a function returning the
//! exit code, and here what they share (loading a game, writing output whose failures are
//! reported, output formats, exit codes). The library is reached through `ludic::…` only.

/// Writes a line to standard error. If that fails too, there is nobody left to tell: the
/// failure is ignored (where `eprintln!` would panic).
macro_rules! to_stderr {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub mod bench;
pub mod compare;
pub mod draw;
mod elo;
pub mod fmt;
pub mod help;
pub mod list;
pub mod lsp;
pub mod matches;
pub mod merge;
mod output;
pub mod perft;
pub mod play;
mod progress;
pub mod replay;
pub mod report;
pub mod rules;
pub mod serve;
mod signals;
pub mod simulate;
pub mod sweep;
pub mod validate;

pub use help::{finish_output, help_language};

use ludic::Game;
use ludic::builtin;
use ludic::diagnostic::render;
use ludic::gamefile::resolve_game;
pub(crate) use ludic::gamefile::{read_game_file, read_text_file};
use ludic::limits::shorten;
use ludic::load_game;
use ludic::{LoadError, Settings};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use std::io::{self, Write};

/// Output format of a command (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

// The options and the variant of the game a command loads (`-o NAME=VALUE`, `--variant`).
// (Argument structs have `//` comments: a doc comment would be their command's help.)
#[derive(clap::Args, Clone, Debug)]
pub struct OptionArgs {
    /// Set an option: -o NAME=VALUE, e.g. -o stones=8 (repeatable)
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Play a named variant (several options at once): --variant 'big board'
    #[arg(long)]
    pub variant: Option<String>,
}

/// After games with `cmd:` agents: where the standard error of their programs is kept (said
/// on standard error), or their empty folder removed.
pub(crate) fn note_agent_logs(specs: &[ludic::agents::AgentSpec]) {
    let mut dirs: Vec<std::path::PathBuf> = specs
        .iter()
        .filter_map(|s| match s {
            ludic::agents::AgentSpec::Command(c) => Some(c.log_dir()),
            _ => None,
        })
        .collect();
    dirs.dedup();
    for dir in dirs {
        // (only a folder of our own is removed when empty; --record-dir is the user's)
        let ours = dir.starts_with(std::env::temp_dir());
        let kept = std::fs::read_dir(&dir).is_ok_and(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().ends_with(".stderr.log"))
        });
        if kept {
            to_stderr!(
                "note: the standard error of the cmd: agents is kept in {}",
                dir.display()
            );
        } else if ours {
            let _ = std::fs::remove_dir(&dir);
        }
    }
}

/// A one-line note on standard error about an old spelling that still works.
pub(crate) fn deprecated(note: &str) {
    to_stderr!("note: {note}");
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
        Ok(mut g) => {
            g.set_origin(&label, &source);
            Ok((label, source, g))
        }
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
    g.all_options()
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
            ludic::agents::mcts::thousands(playouts)
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
