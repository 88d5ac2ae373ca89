//! `ludic replay RECORD`: a record replayed, every step checked; its final position, the
//! position after a step (`--at N`), or every position in turn at the terminal (`--step`).
//! Reading a record and finding its game is shared with `ludic draw --record`.

use super::play::{Input, next_input};
use super::{FAILED, Format, OK, USAGE, read_text_file, settings_from, write_json};
use ludic::LoadError;
use ludic::diagnostic::render;
use ludic::gamefile::resolve_game;
use ludic::limits::{MAX_RECORD_BYTES, shorten};
use ludic::load_game;
use ludic::record::{FORMAT, FinalPosition, Record, Step, Timeline};
use ludic::render::narrate::{chance_text, end_text, narrate};
use ludic::render::{board_text, final_position, outcome_json, state_json};
use ludic::source_hash;
use ludic::{Game, Pending, State};
use std::io::{self, BufRead, IsTerminal, Write};

// Arguments of `ludic replay`.
#[derive(clap::Args)]
#[command(
    after_help = "With --at N, the position after step N (0: the start) with what step N did, in words;\nwith --step, the record one step at a time: Enter shows the next step, b goes back one,\na number goes to that step, q quits. Input that is not a terminal is read line by line,\nthe same commands (for scripts and tests).\n\nExamples:\n  ludic replay game.json\n  ludic replay game.json --at 12\n  ludic replay game.json --at 12 --format json\n  ludic replay game.json --step\n  ludic replay game.json --step --at 40      (from step 40)\n  printf '\\n\\nb\\n7\\nq\\n' | ludic replay game.json --step\n  ludic replay game.json --game my-variant.game\n\nExit codes: 0 success, 1 unreadable or bad record, 2 usage error (--at past the end)."
)]
pub struct ReplayArgs {
    /// The record (JSON) written by `ludic play --record`
    pub record: String,
    /// The .game file to use instead of the one the record names
    #[arg(long)]
    pub game: Option<String>,
    /// Show the position after step N (0: the start), with what that step did
    #[arg(long, value_name = "N")]
    pub at: Option<usize>,
    /// Step through the record: Enter for the next step, b back, a number, q to quit
    #[arg(long)]
    pub step: bool,
    /// Text, or the state as JSON (with --at: after step N) as `play --format json` prints it
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// The commands of `--step`, in a line.
const STEP_HELP: &str =
    "Enter: next step, b: back one step, a number: go to that step, q: quit, help: this line";

/// `ludic replay RECORD`. Whatever is wrong with the record (it cannot be read, is not a
/// record, is of another format, names options the game does not have or values out of their
/// range, has a step that is not legal) is one error naming the record file, exit 1; `--at`
/// past the end of the record is a usage error, exit 2.
pub fn replay(args: &ReplayArgs) -> u8 {
    if args.step && args.format == Format::Json {
        to_stderr!("error: --step shows the record at the terminal: drop --format json");
        return USAGE;
    }
    let path = args.record.as_str();
    let (rec, g) = match open_record(path, args.game.as_deref()) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let rec_last = rec.last.clone();
    let timeline = match Timeline::new(&g, rec.steps) {
        Ok(t) => t,
        Err(e) => {
            to_stderr!("error: {path}: {e}");
            return FAILED;
        }
    };
    let last = timeline.at(timeline.len());
    let result = last.outcome().map(|o| outcome_json(&g, o));
    // a record that keeps its last position: the game must lead there again
    if let Some(kept) = &rec_last {
        let here = final_position(&g, &last);
        if let Some(why) = differs(&g, &here, kept) {
            to_stderr!("error: {path}: the game has changed since this record was made: {why}");
            return FAILED;
        }
    }
    // a game lost by a forfeit (an agent that could not decide) ends before the rules end
    // it: its steps lead to a position where the game goes on, the forfeiting player to decide
    let forfeit = forfeit_of(rec.result.as_ref());
    // a game a player resigned (`ludic serve`) ends where the game goes on, at any turn
    let resigned = rec
        .result
        .as_ref()
        .filter(|r| r["reason"] == "resign" && !last.is_over())
        .map(|r| r["why"].as_str().unwrap_or("a player resigned").to_string());
    if let Some(why) = &forfeit {
        let mover = g.player_name(last.mover());
        let decides = matches!(last.pending(), Pending::Choice(_) | Pending::Drop(_));
        let player = rec
            .result
            .as_ref()
            .and_then(|r| r["forfeit"]["player"].as_str());
        if last.is_over() || !decides || player.is_some_and(|p| p != mover) {
            to_stderr!(
                "error: {path}: the record ends by a forfeit ({}), but its steps do not end at a decision of the player who forfeited",
                shorten(why, 200)
            );
            return FAILED;
        }
    } else if rec.result.is_some() && result != rec.result && resigned.is_none() {
        to_stderr!("error: {path}: the replayed result differs from the recorded one");
        return FAILED;
    }
    if let Some(n) = args.at
        && let Err(code) = check_at(path, n, timeline.len())
    {
        return code;
    }
    let out = &mut io::stdout().lock();
    if args.step {
        let stdin = io::stdin();
        let interactive = stdin.is_terminal();
        let written = step_through(
            &g,
            &timeline,
            args.at.unwrap_or(0),
            &mut stdin.lock(),
            interactive,
            out,
        );
        return super::finish(written.map(|()| OK));
    }
    let written = (|| -> io::Result<()> {
        match (args.at, args.format) {
            (Some(n), Format::Json) => write_json(out, &state_json(&g, &timeline.at(n))),
            (Some(n), Format::Text) => write!(out, "{}", position_text(&g, &timeline, n)),
            (None, Format::Json) => write_json(out, &state_json(&g, &last)),
            (None, Format::Text) => {
                writeln!(
                    out,
                    "{}: {} steps replayed, all legal",
                    g.title(),
                    timeline.len()
                )?;
                writeln!(out, "{}", board_text(&g, &last))?;
                match (&forfeit, &resigned) {
                    (Some(why), _) => writeln!(out, "The game ended by a forfeit: {why}"),
                    (None, Some(why)) => writeln!(out, "The game ended by a resignation: {why}"),
                    (None, None) => writeln!(out, "{}", what_next(&g, &last)),
                }
            }
        }
    })();
    super::finish(written.map(|()| OK))
}

/// The sentence of a record's result that is a forfeit (`"reason": "forfeit"`).
fn forfeit_of(result: Option<&serde_json::Value>) -> Option<String> {
    let r = result?;
    (r["reason"] == "forfeit").then(|| {
        r["why"]
            .as_str()
            .unwrap_or("an agent could not decide")
            .to_string()
    })
}

/// Reads a record and loads the game it was made with (or `game`, a description to use
/// instead) with the record's options; what is wrong is said on standard error, and the error
/// is the exit code. A record made with another version of the description is replayed
/// anyway, with a warning.
pub(super) fn open_record(path: &str, game: Option<&str>) -> Result<(Record, Game), u8> {
    let text = read_text_file(path, MAX_RECORD_BYTES, "a record").map_err(|e| {
        to_stderr!("error: {e}");
        FAILED
    })?;
    let rec: Record = serde_json::from_str(&text).map_err(|e| {
        to_stderr!(
            "error: `{path}` is not a ludic record: {}",
            shorten(&e.to_string(), 200)
        );
        FAILED
    })?;
    if rec.format != FORMAT {
        to_stderr!(
            "error: `{path}` is a record of format {}; this ludic reads format {FORMAT}",
            rec.format
        );
        return Err(FAILED);
    }
    let found = match game {
        Some(name) => resolve_game(name),
        None => record_game(&rec.game),
    };
    let (label, source) = found.map_err(|e| {
        to_stderr!("error: {path}: {e}");
        FAILED
    })?;
    if source_hash(&source) != rec.source_hash {
        to_stderr!(
            "warning: `{label}` is not the description the record was made with (hash {} instead of {}); going on with it",
            source_hash(&source),
            shorten(&rec.source_hash, 40)
        );
    }
    let opts: Vec<String> = rec
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let does_not_fit = |why: String| {
        to_stderr!(
            "error: `{path}`: the record's options do not fit `{label}`: {}",
            shorten(&why, 300)
        );
        FAILED
    };
    let settings = settings_from(&opts, None).map_err(does_not_fit)?;
    match load_game(&source, &settings) {
        Ok(g) => Ok((rec, g)),
        Err(LoadError::File(d)) => {
            let _ = write!(io::stderr(), "{}", render(&label, &source, &d));
            Err(FAILED)
        }
        Err(LoadError::Options(errs)) => Err(does_not_fit(errs.join("; "))),
    }
}

/// The game a record names: a built-in game, or a regular file whose name ends in `.game`.
/// Anything else (a FIFO, a device, a folder, any other file) is refused without being opened,
/// so that a record cannot make `replay` wait on a pipe for ever or show a line of a file
/// that is not a game.
fn record_game(name: &str) -> Result<(String, String), String> {
    let shown = shorten(name, 200);
    if !matches!(
        ludic::builtin::lookup(name),
        ludic::builtin::Lookup::NotFound
    ) {
        return resolve_game(name);
    }
    if !name.ends_with(".game") {
        return Err(format!(
            "the record names the game `{shown}`, which is neither a built-in game nor a .game file\nhint: give the description with --game FILE"
        ));
    }
    match std::fs::metadata(name) {
        Ok(m) if m.is_file() => resolve_game(name),
        Ok(_) => Err(format!(
            "the record names the game `{shown}`, which is not a regular file: it is not read\nhint: give the description with --game FILE"
        )),
        Err(e) => Err(format!(
            "the record names the game `{shown}`, which cannot be read: {}\nhint: give the description with --game FILE",
            ludic::output::error_text(&e)
        )),
    }
}

/// How the last position replayed (`here`) differs from the one the record keeps, in words.
fn differs(g: &Game, here: &FinalPosition, kept: &FinalPosition) -> Option<String> {
    if here.score != kept.score {
        let score = |f: &FinalPosition| {
            let by_side: Vec<String> = g
                .sides()
                .iter()
                .map(|s| f.score.get(s).map_or("?".into(), i64::to_string))
                .collect();
            let mut text = by_side.join("-");
            // sides the game does not have (renamed since)
            for (s, v) in &f.score {
                if !g.sides().contains(s) {
                    text.push_str(&format!(" ({} {v})", shorten(s, 40)));
                }
            }
            text
        };
        return Some(format!(
            "final score {} here, {} in the record",
            score(here),
            score(kept)
        ));
    }
    (here.digest != kept.digest).then(|| {
        format!(
            "the final position differs (digest {} here, {} in the record)",
            here.digest,
            shorten(&kept.digest, 40)
        )
    })
}

/// `--at N` for a record of `len` steps: past the end is a usage error naming the last step.
pub(super) fn check_at(path: &str, n: usize, len: usize) -> Result<(), u8> {
    if n > len {
        to_stderr!(
            "error: --at {n}: the last step of `{path}` is step {len} (--at 0 is the start)"
        );
        return Err(USAGE);
    }
    Ok(())
}

/// Step `n` of a record in a line: `South plays sow s3`, `North throws … = 3`.
pub(super) fn step_title(g: &Game, before: &State, step: &Step) -> String {
    match step {
        Step::Decision { player, notation } => format!("{player} plays {notation}"),
        Step::Chance { outcome } => match g.parse_outcome(before, outcome) {
            Ok(o) => chance_text(g, before, o),
            Err(_) => format!("chance: {outcome}"),
        },
    }
}

/// What comes after a position: the end of the game with its score, or who is to decide.
pub(super) fn what_next(g: &Game, st: &State) -> String {
    if let Some(end) = end_text(g, st) {
        return end;
    }
    let who = g.player_name(st.mover());
    match st.pending() {
        Pending::Throw(_) => format!("The game is not finished: {who} to throw"),
        Pending::ChanceFirst => "The game is not finished: chance decides who plays first".into(),
        _ => format!("The game is not finished: {who} to decide"),
    }
}

/// The position after step `n` of a record, told: the step and what it did, the board, and
/// what comes next.
fn position_text(g: &Game, t: &Timeline, n: usize) -> String {
    let len = t.len();
    let (head, st) = match t.step(n) {
        Some((before, events, after)) => {
            let mut head = format!(
                "Step {n} of {len}: {}\n",
                step_title(g, &before, &t.steps()[n - 1])
            );
            for line in narrate(g, &before, &events) {
                head.push_str(&line);
                head.push('\n');
            }
            (head, after)
        }
        None => (format!("Step 0 of {len}: the start\n"), t.at(0)),
    };
    format!("{head}{}\n{}\n", board_text(g, &st), what_next(g, &st))
}

/// `--step`: the record's positions, one after the other, as the commands read from `input`
/// ask (Enter, `b`, a number, `q`); at the end of the input it stops. When the input is not a
/// terminal, each command read is echoed after the prompt, so that the output reads as a
/// session.
fn step_through(
    g: &Game,
    t: &Timeline,
    from: usize,
    input: &mut impl BufRead,
    interactive: bool,
    out: &mut impl Write,
) -> io::Result<()> {
    let len = t.len();
    writeln!(out, "{}: {len} steps. {STEP_HELP}", g.title())?;
    let mut at = from.min(len);
    write!(out, "{}", position_text(g, t, at))?;
    loop {
        write!(out, "[step {at} of {len}] > ")?;
        out.flush()?;
        let line = match next_input(input) {
            Ok(Input::Line(l)) => l,
            Ok(Input::TooLong | Input::NotText) => {
                if !interactive {
                    writeln!(out)?;
                }
                writeln!(out, "that is not a command: {STEP_HELP}")?;
                continue;
            }
            Ok(Input::End) | Err(_) => {
                writeln!(out)?;
                return Ok(());
            }
        };
        if !interactive {
            writeln!(out, "{}", line.trim())?;
        }
        let cmd = line.trim().to_lowercase();
        let go = match cmd.as_str() {
            "" | "n" | "next" if at < len => Some(at + 1),
            "" | "n" | "next" => {
                writeln!(
                    out,
                    "step {len} is the last: b goes back, a number goes to a step, q quits"
                )?;
                None
            }
            "b" | "back" if at > 0 => Some(at - 1),
            "b" | "back" => {
                writeln!(out, "this is the start: Enter goes to step 1")?;
                None
            }
            "q" | "quit" | "exit" => return Ok(()),
            "h" | "help" | "?" => {
                writeln!(out, "{STEP_HELP}")?;
                None
            }
            _ => match cmd.parse::<usize>() {
                Ok(n) if n <= len => Some(n),
                Ok(_) => {
                    writeln!(out, "there is no step {cmd}: the last is step {len}")?;
                    None
                }
                Err(_) => {
                    writeln!(
                        out,
                        "unknown command `{}`: {STEP_HELP}",
                        shorten(line.trim(), 40)
                    )?;
                    None
                }
            },
        };
        if let Some(n) = go {
            at = n;
            write!(out, "{}", position_text(g, t, at))?;
        }
    }
}
