//! `ludic draw GAME`: a picture (SVG) of a game's start position, or of the position after a
//! step of a record, with the sites of the last decision marked.

use std::io::{self, Write};

use super::{FAILED, OK, USAGE, load_for_command, resolve_game};
use crate::engine::{Game, State};
use crate::ir::SiteId;
use crate::record::{Record, Step, replay};
use crate::render::svg::{event_sites, svg, write_atomic};
use crate::source_hash;

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
            Ok(x) => x,
            Err(code) => return code,
        },
    };
    let picture = svg(&g, &st, &marks);
    match &args.out {
        None => super::finish(
            io::stdout()
                .lock()
                .write_all(picture.as_bytes())
                .map(|()| OK),
        ),
        Some(path) => match write_atomic(path, &picture) {
            Ok(()) => {
                super::finish(writeln!(io::stdout(), "picture written to {path}").map(|()| OK))
            }
            Err(e) => {
                eprintln!("error: cannot write the picture to `{path}`: {e}");
                FAILED
            }
        },
    }
}

/// The game a record names (or the one given), its position after `--at` steps, and the
/// sites of the last decision in them.
fn from_record(path: &str, args: &DrawArgs) -> Result<(Game, State, Vec<SiteId>), u8> {
    if !args.options.is_empty() || args.variant.is_some() {
        eprintln!("error: a record sets the options itself: drop -o and --variant");
        return Err(USAGE);
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read `{path}`: {e}");
        FAILED
    })?;
    let rec: Record = serde_json::from_str(&text).map_err(|e| {
        eprintln!("error: `{path}` is not a ludic record: {e}");
        FAILED
    })?;
    let name = args.game.as_deref().unwrap_or(&rec.game);
    let (label, source) = resolve_game(name).map_err(|e| {
        eprintln!("error: {e}");
        FAILED
    })?;
    if source_hash(&source) != rec.source_hash {
        eprintln!(
            "warning: `{label}` is not the description the record was made with; drawing anyway"
        );
    }
    let options: Vec<String> = rec
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let (_, _, g) = load_for_command(name, &options, None)?;
    let n = args.at.unwrap_or(rec.steps.len());
    if n > rec.steps.len() {
        eprintln!(
            "error: --at {n}: the record has {} steps (0 is the start)",
            rec.steps.len()
        );
        return Err(USAGE);
    }
    let st = replay(&g, &rec.steps[..n]).map_err(|e| {
        eprintln!("error: {path}: {e}");
        FAILED
    })?;
    let marks = last_decision_sites(&g, &rec.steps[..n]);
    Ok((g, st, marks))
}

/// The sites the last decision among the steps touched (none when there is no decision).
fn last_decision_sites(g: &Game, steps: &[Step]) -> Vec<SiteId> {
    let Some(k) = steps
        .iter()
        .rposition(|s| matches!(s, Step::Decision { .. }))
    else {
        return vec![];
    };
    let Step::Decision { notation, .. } = &steps[k] else {
        return vec![];
    };
    let Ok(mut st) = replay(g, &steps[..k]) else {
        return vec![];
    };
    let Ok(d) = g.parse_decision(&st, notation) else {
        return vec![];
    };
    g.play_narrated(&mut st, d)
        .map(|events| event_sites(&events))
        .unwrap_or_default()
}
