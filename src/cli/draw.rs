//! `ludic draw GAME`: a picture (SVG) of a game's start position, or of the position after a
//! step of a record, with the sites of the last decision marked.

use std::io::{self, Write};

use super::replay::{check_at, open_record};
use super::{FAILED, OK, OptionArgs, USAGE, game_file, load_for_command};
use crate::cli::output::{Named, check_outputs};
use ludic::SiteId;
use ludic::output::error_text;
use ludic::record::{Step, play_step, replay};
use ludic::render::svg::{event_sites, svg, write_atomic};
use ludic::{Game, State};

// Arguments of `ludic draw`.
#[derive(clap::Args)]
#[command(
    after_help = "GAME is a built-in game, by any name `ludic list` shows, or a .game file. With --record, the\nposition after N steps of the record is drawn (all of them without --at), with the sites of\nthe last decision marked; GAME then replaces the description the record names.\n\nExamples:\n  ludic draw GAME --out board.svg\n  ludic draw GAME -o NAME=VALUE --variant NAME > board.svg\n  ludic draw --record game.json --at 12 --out board.svg\n  ludic play GAME --svg board.svg     (a picture kept up to date while you play)\n\nExit codes: 0 success, 1 unreadable game, record or output file, 2 usage error (an output\nthat is an input, standard output, or not a regular file)."
)]
pub struct DrawArgs {
    /// A built-in game or a .game file (with --record: instead of the one the record names)
    pub game: Option<String>,
    /// Write the picture to this file (default: standard output)
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Draw a position of this record (written by `ludic play --record`)
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
    /// The position after this many steps of the record (0: the start)
    #[arg(long, value_name = "N", requires = "record")]
    pub at: Option<usize>,
    #[command(flatten)]
    pub opts: OptionArgs,
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
            match load_for_command(game, &args.opts.options, args.opts.variant.as_deref()) {
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
    if !args.opts.options.is_empty() || args.opts.variant.is_some() {
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
