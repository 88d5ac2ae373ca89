//! `ludic perft GAME DEPTH`: sequences of turns counted by depth.

use super::{FAILED, Format, OK, load_for_command};
use serde_json::json;
use std::time::Instant;

/// `ludic perft GAME DEPTH`
pub fn perft(
    game: &str,
    depth: u32,
    options: &[String],
    variant: Option<&str>,
    format: Format,
) -> u8 {
    let (_, _, g) = match load_for_command(game, options, variant) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let st = g.start();
    let mut rows = vec![];
    for d in 1..=depth {
        let t0 = Instant::now();
        match crate::perft::perft(&g, &st, d) {
            Ok(n) => {
                let secs = t0.elapsed().as_secs_f64();
                if format == Format::Text {
                    println!("perft({d}) = {n}  ({secs:.3} s)");
                }
                rows.push(json!({"depth": d, "count": n, "seconds": secs}));
            }
            Err(e) => {
                eprintln!("error: {e}");
                return FAILED;
            }
        }
    }
    if format == Format::Json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    }
    OK
}
