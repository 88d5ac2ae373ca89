//! `ludic perft GAME DEPTH`: sequences of turns counted by depth.

use super::{FAILED, Format, OK, load_for_command};
use serde_json::json;
use std::io::Write;
use std::time::Instant;

/// `ludic perft GAME DEPTH`
pub fn perft(
    game: &str,
    depth: u32,
    options: &[String],
    variant: Option<&str>,
    limits: crate::perft::PerftLimits,
    format: Format,
) -> u8 {
    let (_, _, g) = match load_for_command(game, options, variant) {
        Ok(x) => x,
        Err(c) => return c,
    };
    super::finish(perft_to(
        &mut std::io::stdout().lock(),
        &g,
        depth,
        limits,
        format,
    ))
}

fn perft_to(
    w: &mut impl Write,
    g: &crate::engine::Game,
    depth: u32,
    limits: crate::perft::PerftLimits,
    format: Format,
) -> std::io::Result<u8> {
    let st = g.start();
    let mut rows = vec![];
    for d in 1..=depth {
        let t0 = Instant::now();
        match crate::perft::perft_with(g, &st, d, limits) {
            Ok(n) => {
                let secs = t0.elapsed().as_secs_f64();
                if format == Format::Text {
                    writeln!(w, "perft({d}) = {n}  ({secs:.3} s)")?;
                }
                rows.push(json!({"depth": d, "count": n, "seconds": secs}));
            }
            Err(e) => {
                to_stderr!("error: {e}");
                match e {
                    crate::perft::PerftError::TooMany(_) => {
                        to_stderr!("hint: count further with --max-positions N")
                    }
                    crate::perft::PerftError::TooMuchWork(_) => {
                        to_stderr!("hint: count further with --max-work N")
                    }
                    _ => {}
                }
                return Ok(FAILED);
            }
        }
    }
    if format == Format::Json {
        super::write_json(w, &rows)?;
    }
    Ok(OK)
}
