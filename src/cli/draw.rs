//! `ludic draw GAME`: a picture (SVG) of a game's start position, or of the position after a
//! step of a record, with the sites of the last decision marked.

use std::io::{self, Write};

use super::replay::{check_at, open_record};
use super::{FAILED, OK, USAGE, game_file, load_for_command};
use ludic::engine::{Game, State};
use ludic::ir::SiteId;
use crate::cli::output::{Named, check_outputs};
use ludic::output::error_text;
use ludic::record::{Step, play_step, replay};
use ludic::render::svg::{event_sites, svg, write_atomic};

/// Arguments of `ludic draw`.
pub struct DrawArgs {
    /// the game (with a record: the description to use instead of the one it names)
    pub game: Option<String>,
    /// where the picture goes (standard output when none)
    pub out: Option<String>,
    /// a record whose position is drawn
    pub record: Option<String>,
    /// the number of steps of the record to play (all when none)
    pub at: Option<usize>,
    pub options: Vec<String>,
    pub variant: Option<String>,
}

/// `ludic draw`
pub fn draw(args: &DrawArgs) -> u8 {
    // the record's game, when the picture is of a record
    let mut named = String::new();
    let (g, st, marks) = match &args.record {
        None => {
            let Some(game) = &args.game else {
                eprintln!("error: give a GAME to draw, or a record with --record FILE");
                return USAGE;
            };
            if args.at.is_some() {
                eprintln!("error: --at N needs a record (--record FILE)");
                return USAGE;
            }
            match load_for_command(game, &args.options, args.variant.as_deref()) {
                Ok((_, _, g)) => {
                    let st = g.start();
                    (g, st, vec![])
                }
                Err(code) => return code,
            }
        }
        Some(path) => match from_record(path, args) {
            Ok((x, game)) => {
                named = game;
                x
            }
            Err(code) => return code,
        },
    };
    if let Some(out) = &args.out {
        let inputs = [
            Named::new(
                "the game file being drawn",
                args.game.as_deref().map_or("", game_file),
            ),
            Named::new(
                "the record (--record)",
                args.record.as_deref().unwrap_or(""),
            ),
            Named::new("the game file the record names", game_file(&named)),
        ];
        if let Err(e) = check_outputs(&inputs, &[Named::new("the picture (--out)", out)], true) {
            eprintln!("error: {e}");
            return USAGE;
        }
    }
    let picture = svg(&g, &st, &marks);
    match &args.out {
        None => super::finish(
            io::stdout()
                .lock()
                .write_all(picture.as_bytes())
                .map(|()| OK),
        ),
        Some(path) => match write_atomic(path, &picture, true) {
            Ok(()) => {
                super::finish(writeln!(io::stdout(), "picture written to {path}").map(|()| OK))
            }
            Err(e) => {
                eprintln!(
                    "error: cannot write the picture to `{path}`: {}",
                    error_text(&e)
                );
                FAILED
            }
        },
    }
}

/// The game a record names (or the one given), its position after `--at` steps, and the
/// sites of the last decision in them.
#[allow(clippy::type_complexity)]
fn from_record(path: &str, args: &DrawArgs) -> Result<((Game, State, Vec<SiteId>), String), u8> {
    if !args.options.is_empty() || args.variant.is_some() {
        eprintln!("error: a record sets the options itself: drop -o and --variant");
        return Err(USAGE);
    }
    let (rec, g) = open_record(path, args.game.as_deref())?;
    let n = args.at.unwrap_or(rec.steps.len());
    check_at(path, n, rec.steps.len())?;
    let st = replay(&g, &rec.steps[..n]).map_err(|e| {
        eprintln!("error: {path}: {e}");
        FAILED
    })?;
    let marks = last_decision_sites(&g, &rec.steps[..n]);
    let named = if args.game.is_some() {
        String::new()
    } else {
        rec.game
    };
    Ok(((g, st, marks), named))
}

/// The sites the last decision among the steps touched (none when there is no decision).
fn last_decision_sites(g: &Game, steps: &[Step]) -> Vec<SiteId> {
    let Some(k) = steps
        .iter()
        .rposition(|s| matches!(s, Step::Decision { .. }))
    else {
        return vec![];
    };
    let Ok(mut st) = replay(g, &steps[..k]) else {
        return vec![];
    };
    play_step(g, &mut st, k + 1, &steps[k])
        .map(|events| event_sites(&events))
        .unwrap_or_default()
}
