//! `ludic perft GAME DEPTH`: sequences of turns counted by depth. A signal (Ctrl-C, SIGTERM)
//! stops the count: the depths done are printed, then the depth stopped, marked partial with
//! what it had counted (not its total), and the exit code says which signal (130, 143).

use super::signals::{catch_signals, exit_code, note_late_signal, signal_name};
use super::{FAILED, Format, OK, load_for_command};
use ludic::perft::PerftError;
use serde_json::json;
use std::io::Write;
use std::time::Instant;

/// `ludic perft GAME DEPTH`
pub fn perft(
    game: &str,
    depth: u32,
    options: &[String],
    variant: Option<&str>,
    limits: ludic::perft::PerftLimits,
    format: Format,
) -> u8 {
    catch_signals();
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
    g: &ludic::engine::Game,
    depth: u32,
    limits: ludic::perft::PerftLimits,
    format: Format,
) -> std::io::Result<u8> {
    let st = g.start();
    let mut rows = vec![];
    for d in 1..=depth {
        let t0 = Instant::now();
        let counted = if ludic::interrupt::requested() {
            Err(PerftError::Stopped(0))
        } else {
            ludic::perft::perft_with(g, &st, d, limits)
        };
        match counted {
            Ok(n) => {
                let secs = t0.elapsed().as_secs_f64();
                if format == Format::Text {
                    writeln!(w, "perft({d}) = {n}  ({secs:.3} s)")?;
                }
                rows.push(json!({"depth": d, "count": n, "seconds": secs}));
            }
            Err(PerftError::Stopped(n)) => {
                let secs = t0.elapsed().as_secs_f64();
                match format {
                    Format::Text => writeln!(
                        w,
                        "perft({d}) PARTIAL: stopped by {} after {secs:.3} s, {n} sequences counted so far (not the total)",
                        signal_name()
                    )?,
                    Format::Json => {
                        // the depths done, then the one stopped: no `count`, which would read
                        // as its total
                        rows.push(
                            json!({"depth": d, "partial": true, "counted": n, "seconds": secs}),
                        );
                        super::write_json(w, &rows)?;
                    }
                }
                to_stderr!(
                    "interrupted by {}: perft({d}) was stopped; the depths before it are complete",
                    signal_name()
                );
                return Ok(exit_code());
            }
            Err(e) => {
                to_stderr!("error: {e}");
                match e {
                    PerftError::TooMany(_) => {
                        to_stderr!("hint: count further with --max-positions N")
                    }
                    PerftError::TooMuchWork(_) => {
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
    note_late_signal();
    Ok(OK)
}
