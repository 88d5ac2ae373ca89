//! `ludic replay RECORD`: a record replayed, every step checked.

use super::{FAILED, Format, OK, load_for_command, resolve_game};
use crate::record::{Record, replay as replay_steps};
use crate::render::{board_text, outcome_json, outcome_text, state_json};
use crate::source_hash;

/// `ludic replay RECORD`
pub fn replay(path: &str, game_override: Option<&str>, format: Format) -> u8 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read `{path}`: {e}");
            return FAILED;
        }
    };
    let rec: Record = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: `{path}` is not a ludic record: {e}");
            return FAILED;
        }
    };
    let game_name = game_override.unwrap_or(&rec.game);
    let (label, source) = match resolve_game(game_name) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return FAILED;
        }
    };
    if source_hash(&source) != rec.source_hash {
        eprintln!(
            "warning: `{label}` is not the description the record was made with (hash {} instead of {}); replaying anyway",
            source_hash(&source),
            rec.source_hash
        );
    }
    let opts: Vec<String> = rec
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let (_, _, g) = match load_for_command(game_name, &opts, None) {
        Ok(x) => x,
        Err(c) => return c,
    };
    match replay_steps(&g, &rec.steps) {
        Ok(st) => {
            let result = st.outcome().map(|o| outcome_json(&g, o));
            if rec.result.is_some() && result != rec.result {
                eprintln!("error: the replayed result differs from the recorded one");
                return FAILED;
            }
            match format {
                Format::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&state_json(&g, &st)).unwrap_or_default()
                ),
                Format::Text => {
                    println!(
                        "{}: {} steps replayed, all legal",
                        g.meta.name,
                        rec.steps.len()
                    );
                    println!("{}", board_text(&g, &st));
                    match st.outcome() {
                        Some(o) => println!("Game over: {}", outcome_text(&g, o)),
                        None => println!(
                            "The game is not finished: {} to decide",
                            g.player_name(st.mover())
                        ),
                    }
                }
            }
            OK
        }
        Err(e) => {
            eprintln!("error: {path}: {e}");
            FAILED
        }
    }
}
