//! `ludic replay RECORD`: a record replayed, every step checked.

use super::{FAILED, Format, OK, read_text_file, resolve_game, settings_from, write_json};
use crate::check::LoadError;
use crate::diagnostic::render;
use crate::limits::{MAX_RECORD_BYTES, shorten};
use crate::load_game;
use crate::record::{FORMAT, Record, replay as replay_steps};
use crate::render::{board_text, outcome_json, outcome_text, state_json};
use crate::source_hash;
use std::io::Write;

/// `ludic replay RECORD`. Whatever is wrong with the record (it cannot be read, is not a
/// record, is of another format, names options the game does not have or values out of their
/// range, has a step that is not legal) is one error naming the record file, exit 1.
pub fn replay(path: &str, game_override: Option<&str>, format: Format) -> u8 {
    let text = match read_text_file(path, MAX_RECORD_BYTES, "a record") {
        Ok(t) => t,
        Err(e) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
    };
    let rec: Record = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            to_stderr!(
                "error: `{path}` is not a ludic record: {}",
                shorten(&e.to_string(), 200)
            );
            return FAILED;
        }
    };
    if rec.format != FORMAT {
        to_stderr!(
            "error: `{path}` is a record of format {}; this ludic reads format {FORMAT}",
            rec.format
        );
        return FAILED;
    }
    let game_name = game_override.unwrap_or(&rec.game);
    let (label, source) = match resolve_game(game_name) {
        Ok(x) => x,
        Err(e) => {
            to_stderr!("error: {path}: {e}");
            return FAILED;
        }
    };
    if source_hash(&source) != rec.source_hash {
        to_stderr!(
            "warning: `{label}` is not the description the record was made with (hash {} instead of {}); replaying anyway",
            source_hash(&source),
            shorten(&rec.source_hash, 40)
        );
    }
    let opts: Vec<String> = rec
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let record_does_not_fit = |why: String| {
        to_stderr!(
            "error: `{path}`: the record's options do not fit `{label}`: {}",
            shorten(&why, 300)
        );
        FAILED
    };
    let settings = match settings_from(&opts, None) {
        Ok(s) => s,
        Err(e) => return record_does_not_fit(e),
    };
    let g = match load_game(&source, &settings) {
        Ok(g) => g,
        Err(LoadError::File(d)) => {
            let _ = write!(std::io::stderr(), "{}", render(&label, &source, &d));
            return FAILED;
        }
        Err(LoadError::Options(errs)) => return record_does_not_fit(errs.join("; ")),
    };
    let st = match replay_steps(&g, &rec.steps) {
        Ok(st) => st,
        Err(e) => {
            to_stderr!("error: {path}: {e}");
            return FAILED;
        }
    };
    let result = st.outcome().map(|o| outcome_json(&g, o));
    if rec.result.is_some() && result != rec.result {
        to_stderr!("error: {path}: the replayed result differs from the recorded one");
        return FAILED;
    }
    let out = &mut std::io::stdout().lock();
    let written = (|| -> std::io::Result<u8> {
        match format {
            Format::Json => write_json(out, &state_json(&g, &st))?,
            Format::Text => {
                writeln!(
                    out,
                    "{}: {} steps replayed, all legal",
                    g.meta.name,
                    rec.steps.len()
                )?;
                writeln!(out, "{}", board_text(&g, &st))?;
                match st.outcome() {
                    Some(o) => writeln!(out, "Game over: {}", outcome_text(&g, o))?,
                    None => writeln!(
                        out,
                        "The game is not finished: {} to decide",
                        g.player_name(st.mover())
                    )?,
                }
            }
        }
        Ok(OK)
    })();
    super::finish(written)
}
