//! `ludic perft GAME DEPTH`: sequences of turns counted by depth. A signal (Ctrl-C, SIGTERM)
//! stops the count: the depths done are printed, then the depth stopped, marked partial with
//! what it had counted (not its total), and the exit code says which signal (130, 143).

use super::signals::{catch_signals, exit_code, note_late_signal, signal_name};
use super::{FAILED, Format, OK, OptionArgs, load_for_command};
use ludic::perft::PerftError;
use serde_json::json;
use std::io::Write;
use std::time::Instant;

// Arguments of `ludic perft`.
#[derive(clap::Args)]
#[command(
    after_help = "perft(d) is the number of distinct sequences of exactly d complete turns from the start,\nby the move generator play uses. A turn is complete when the next one starts or the game\nends; each decision inside a turn (a hop of a chain, stopping) is part of its sequence. A\nsequence after which the game is over before d turns counts for nothing at depth d (as\ncheckmate does in chess perft).\n\nPerft stops (exit 1) past 50,000,000 positions or 1,000,000,000 units of the engine's work\n(statements run, sites visited, decisions listed) at one depth: raise them with --max-positions and --max-work.\n\nCtrl-C (SIGINT) or SIGTERM stops the count at once: the depths done are printed, then the\ndepth stopped, marked partial with the sequences counted so far, not its total (in JSON a\nlast row with \"partial\": true and \"counted\", without \"count\"); exit 130 or 143.\n\nGAME is a built-in game, by any name `ludic list` shows, or a .game file without chance events.\n\nExamples:\n  ludic perft GAME 4\n  ludic perft my.game 3 -o NAME=VALUE --format json"
)]
pub struct PerftArgs {
    /// A built-in game or a .game file
    pub game: String,
    /// The deepest count, in turns
    pub depth: u32,
    #[command(flatten)]
    pub opts: OptionArgs,
    /// Positions one depth may visit before perft stops
    #[arg(long, value_name = "N", default_value_t = ludic::perft::PERFT_LIMIT)]
    pub max_positions: u64,
    /// Work (statements run, sites visited) one depth may take before perft stops
    #[arg(long, value_name = "N", default_value_t = ludic::perft::PERFT_WORK_LIMIT)]
    pub max_work: u64,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `ludic perft GAME DEPTH`
pub fn perft(args: &PerftArgs) -> u8 {
    count(
        &args.game,
        args.depth,
        &args.opts.options,
        args.opts.variant.as_deref(),
        ludic::perft::PerftLimits {
            positions: args.max_positions,
            work: args.max_work,
        },
        args.format,
    )
}

/// The counts of each depth, printed as they come.
fn count(
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
    g: &ludic::Game,
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
