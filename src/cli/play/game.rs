//! The game loop: from the start to its end, to `quit` or to the end of the input.

use super::*;
use ludic::agents::AgentSpec;
use crate::cli::{Format, Spinner, fmt_options, sample};
use ludic::engine::Pending;
use ludic::limits::MAX_LINE_BYTES;
use ludic::render::svg::LivePicture;
use ludic::render::svg::event_sites;
use ludic::render::{Look, board_text, board_view};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::io::{self, IsTerminal, Write};

/// The game, from the start to its end, to `quit` or to the end of the input.
pub(super) fn run(
    s: &mut Session,
    args: &PlayArgs,
    seed: u64,
    agents: &[AgentSpec],
    out: &mut impl Write,
) -> Result<(), Stop> {
    let g = s.g;
    let mut chance_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut agent_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let interactive = io::stdin().is_terminal();
    // Line editing when a person types at a terminal (and reads the text).
    let mut editor = if interactive && args.format == Format::Text {
        rustyline::DefaultEditor::new().ok()
    } else {
        None
    };
    let text = args.format == Format::Text;
    // the number of the line read last, for the errors of scripted input
    let mut line_no = 0usize;
    // A line that cannot be played: at a terminal it is refused and the game goes on; from a
    // script it stops the game at the position before it (exit 1).
    let refuse = |out: &mut dyn Write, line_no: usize, why: &str| -> Result<(), Stop> {
        say(out, text, &format!("refused: {why}"))?;
        if interactive || args.keep_going {
            Ok(())
        } else {
            Err(Stop::Script(format!(
                "input line {line_no}: {why}; the game stops at the position before it"
            )))
        }
    };
    let spinning = io::stdout().is_terminal();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    say(
        out,
        text,
        &format!("{} (seed {seed}); options: {}", g.meta.name, fmt_options(g)),
    )?;
    let roles: Vec<String> = g
        .players
        .iter()
        .zip(agents)
        .map(|(p, a)| match a {
            AgentSpec::Human => format!("{p}: human"),
            a => format!("{p}: computer ({})", a.describe()),
        })
        .collect();
    say(
        out,
        text,
        &format!("{}. Type `help` at your turn.", roles.join(", ")),
    )?;
    let mut last_shown_turn = u32::MAX;
    let colour = args.colour && text;
    // The board, with the sites of the decisions since it was last shown marked.
    let show_board = |out: &mut dyn Write, s: &mut Session| -> io::Result<()> {
        let marked = event_sites(&s.events);
        let look = Look {
            colour,
            marked: &marked,
        };
        s.events.clear();
        say(out, text, &format!("\n{}", board_view(s.g, &s.st, &look)))
    };
    // What the steps just played did, one line each, under the line that says who played.
    let tell = |out: &mut dyn Write, s: &mut Session| -> io::Result<()> {
        s.flush_told();
        for line in std::mem::take(&mut s.told) {
            say(out, text, &format!("  {line}"))?;
        }
        Ok(())
    };
    let mut last_shown_round = 1;
    let mut shown_between = false;
    let mut picture = args.svg.as_deref().map(LivePicture::new);
    // A computer's decisions of one turn (hops of a chain, a sowing and where it goes) are
    // told as one move, with the board once at its end: the position before the first, the
    // decisions so far and what the search said of the first.
    let mut chain: Option<(ludic::engine::State, Vec<String>, Vec<String>)> = None;
    loop {
        // every step is in the record before anything more is said or asked
        s.sync_record()?;
        if let Some(p) = picture.as_mut()
            && let Err(e) = p.update(g, &s.st)
        {
            return Err(Stop::Picture(format!(
                "cannot write the picture `{}`: {}",
                p.path(),
                ludic::output::error_text(&e)
            )));
        }
        // Rounds: say when one is over (its between-round decisions follow) and when the next
        // begins, with the board, holdings and tallies.
        if g.is_between_rounds(&s.st) && !shown_between {
            if matches!(s.st.pending(), Pending::Choice(_) | Pending::Drop(_)) {
                say(
                    out,
                    text,
                    &format!(
                        "\n=== Round {} is over: between rounds, {} decides ===\n{}",
                        s.st.round(),
                        g.player_name(s.st.mover()),
                        board_text(g, &s.st)
                    ),
                )?;
            } else {
                say(
                    out,
                    text,
                    &format!("\n=== Round {} is over ===", s.st.round()),
                )?;
            }
            shown_between = true;
            last_shown_turn = u32::MAX;
        }
        if s.st.round() != last_shown_round && s.st.round() > 0 && !s.st.is_over() {
            if !shown_between {
                say(
                    out,
                    text,
                    &format!("\n=== Round {} is over ===", last_shown_round),
                )?;
            }
            say(
                out,
                text,
                &format!(
                    "=== Round {} begins ===\n{}",
                    s.st.round(),
                    board_text(g, &s.st)
                ),
            )?;
            shown_between = false;
            last_shown_round = s.st.round();
            last_shown_turn = s.st.turn();
        }
        match s.st.pending() {
            Pending::Over(_) => return Ok(()),
            Pending::Throw(d) => {
                let outs = g.chance_outcomes(&s.st);
                let o = sample(&mut chance_rng, &outs);
                let who = g.player_name(s.st.mover()).to_string();
                if s.chance(o).is_err() {
                    return Err(Stop::Internal("a throw was refused".into()));
                }
                s.sync_record()?;
                say(
                    out,
                    text,
                    &format!("{who} throws {}", g.throw_text(d, o as u16)),
                )?;
                tell(out, s)?;
            }
            Pending::ChanceFirst => {
                let outs = g.chance_outcomes(&s.st);
                let o = sample(&mut chance_rng, &outs);
                let Ok(name) = s.chance(o) else {
                    return Err(Stop::Internal("a chance outcome was refused".into()));
                };
                s.sync_record()?;
                say(out, text, &format!("Chance: {name} plays first."))?;
                tell(out, s)?;
            }
            Pending::Choice(_) | Pending::Drop(_) => {
                let mover = s.st.mover();
                if let Some(mut agent) = s.computers[mover.0 as usize].take() {
                    let name = g.player_name(mover);
                    let mut spinner = Spinner::new(spinning, format!("{name} thinks"));
                    let thought = agent.decide(g, &s.st, &mut agent_rng, &mut |p| {
                        spinner.show(p.elapsed, p.playouts)
                    });
                    spinner.clear();
                    s.computers[mover.0 as usize] = Some(agent);
                    let turn = s.st.turn();
                    let (before, mut done, mut parts) = chain.take().unwrap_or_else(|| {
                        let estimate = thought.estimate.iter().map(estimate_text).collect();
                        (s.st.clone(), vec![], estimate)
                    });
                    let n = s.decide(thought.decision).map_err(Stop::Internal)?;
                    s.sync_record()?;
                    done.push(n);
                    let goes_on = s.st.turn() == turn
                        && s.st.mover() == mover
                        && matches!(s.st.pending(), Pending::Choice(_) | Pending::Drop(_));
                    if goes_on {
                        chain = Some((before, done, parts));
                        continue;
                    }
                    parts.extend(happenings(g, &before, &s.st));
                    say(
                        out,
                        text,
                        &format!("{name} plays {}{}", done.join(", "), parenthesized(parts)),
                    )?;
                    tell(out, s)?;
                    if !s.events.is_empty() && !s.st.is_over() {
                        show_board(out, s)?;
                        last_shown_turn = s.st.turn();
                    }
                    continue;
                }
                if s.st.turn() != last_shown_turn || !s.events.is_empty() {
                    show_board(out, s)?;
                    last_shown_turn = s.st.turn();
                }
                say(out, text, &prompt_header(g, &s.st))?;
                say(out, text, moves_text(g, &s.st).trim_end_matches('\n'))?;
                let read = match editor.as_mut() {
                    // at a terminal: line editing and history (the arrows, Ctrl-R, …)
                    Some(ed) => {
                        out.flush()?;
                        match ed.readline("> ") {
                            Ok(l) if l.len() > MAX_LINE_BYTES => Ok(Input::TooLong),
                            Ok(l) => {
                                if !l.trim().is_empty() {
                                    let _ = ed.add_history_entry(l.as_str());
                                }
                                Ok(Input::Line(l))
                            }
                            // Ctrl-C stops the game as `quit` does
                            Err(rustyline::error::ReadlineError::Interrupted) => {
                                Ok(Input::Line("quit".into()))
                            }
                            Err(_) => Ok(Input::End),
                        }
                    }
                    None => {
                        if text {
                            write!(out, "> ")?;
                            out.flush()?;
                        }
                        next_input(&mut input)
                    }
                };
                line_no += 1;
                let unreadable = match &read {
                    Ok(Input::TooLong) => Some(format!(
                        "the line is longer than {MAX_LINE_BYTES} bytes; nothing was played"
                    )),
                    Ok(Input::NotText) => {
                        Some("the line is not UTF-8 text; nothing was played".to_string())
                    }
                    _ => None,
                };
                if let Some(why) = unreadable {
                    if !interactive && text {
                        writeln!(out)?;
                    }
                    refuse(out, line_no, &why)?;
                    continue;
                }
                let line = match read {
                    Ok(Input::Line(l)) => l,
                    Ok(Input::TooLong | Input::NotText) => continue,
                    Ok(Input::End) | Err(_) => {
                        say(out, text, "\n(input ended: the game stops here)")?;
                        if !interactive && !args.allow_partial {
                            return Err(Stop::Script(format!(
                                "the input ended after {}, before the end of the game (--allow-partial accepts that)",
                                plural(line_no - 1, "line")
                            )));
                        }
                        return Ok(());
                    }
                };
                if !interactive && text {
                    writeln!(out, "{}", line.trim())?;
                }
                let cmd = line.trim().to_lowercase();
                match cmd.as_str() {
                    "" if s.st.moves().len() == 1 => {
                        // Enter takes the only legal move.
                        let snapshot = (s.st.clone(), s.steps.len());
                        let d = s.st.moves()[0];
                        match s.decide(d) {
                            Ok(n) => {
                                let happened = what_happened(g, &snapshot.0, &s.st);
                                s.history.push(snapshot);
                                s.sync_record()?;
                                say(
                                    out,
                                    text,
                                    &format!("{} plays {n}{happened}", g.player_name(mover)),
                                )?;
                                tell(out, s)?;
                                if !s.events.is_empty() && !s.st.is_over() {
                                    show_board(out, s)?;
                                    last_shown_turn = s.st.turn();
                                }
                            }
                            Err(e) => refuse(out, line_no, &e)?,
                        }
                    }
                    "" => say(out, text, "type a move, or `help`")?,
                    "help" | "?" => say(out, text, PLAY_HELP)?,
                    "rules" => say(out, text, &rules_text(g))?,
                    "quit" | "exit" | "q" => {
                        say(out, text, "game stopped")?;
                        return Ok(());
                    }
                    "board" => {
                        let marked = event_sites(&s.events);
                        let look = Look {
                            colour,
                            marked: &marked,
                        };
                        say(out, text, &board_view(g, &s.st, &look))?
                    }
                    "moves" => {}
                    "undo" => match s.history.pop() {
                        Some((st, n)) => {
                            s.st = st;
                            s.truncate_steps(n);
                            s.events.clear();
                            s.told.clear();
                            s.chain = None;
                            last_shown_turn = u32::MAX;
                            say(out, text, "undone: back to your previous decision")?;
                        }
                        None => say(out, text, "nothing to undo")?,
                    },
                    _ => {
                        let snapshot = (s.st.clone(), s.steps.len());
                        match s.play_line(&line) {
                            Ok(done) => {
                                let happened = what_happened(g, &snapshot.0, &s.st);
                                s.history.push(snapshot);
                                s.sync_record()?;
                                say(
                                    out,
                                    text,
                                    &format!(
                                        "{} plays {}{happened}",
                                        g.player_name(mover),
                                        done.join(", ")
                                    ),
                                )?;
                                tell(out, s)?;
                                if !s.events.is_empty() && !s.st.is_over() {
                                    show_board(out, s)?;
                                    last_shown_turn = s.st.turn();
                                }
                            }
                            Err(e) => refuse(out, line_no, &command_typo(&cmd).unwrap_or(e))?,
                        }
                    }
                }
            }
        }
    }
}
