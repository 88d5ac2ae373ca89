//! The game loop: from the start to its end, to `quit` or to the end of the input.
//!
//! [`Table`] is the game at the terminal as a state machine, without I/O of its own but its
//! output: [`Table::next`] says what the game waits for (a chance outcome, a computer's
//! decision, a line typed), and [`Table::chance`], [`Table::computer_decided`] and
//! [`Table::line`] take it and write what there is to say. [`run`] drives it with the
//! terminal: the random generators, the agents' searches, line editing. Tests drive it
//! directly.

use super::*;
use crate::cli::{Format, Spinner, fmt_options, sample};
use ludic::Player;
use ludic::agents::{AgentSpec, Forfeit, Forfeited, Thought};
use ludic::limits::MAX_LINE_BYTES;
use ludic::render::svg::LivePicture;
use ludic::render::svg::event_sites;
use ludic::render::{Look, board_text, board_view};
use ludic::{Pending, State};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::io::{self, BufRead, IsTerminal, Write};

/// What the game waits for next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// the game is over
    Over,
    /// a chance event: an outcome drawn from `g.chance_outcomes`, given to [`Table::chance`]
    Chance,
    /// a computer's decision for this player, given to [`Table::computer_decided`]
    Computer(Player),
    /// a line from the person at the terminal (the prompt is shown), given to [`Table::line`]
    Line,
}

/// Whether the game goes on after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flow {
    Continue,
    /// `quit`, or the input ended (where that is not an error)
    Stop,
}

/// How the game talks: fixed for a game.
#[derive(Debug, Clone, Copy)]
pub(super) struct Manner {
    /// text on standard output (else JSON at the end, the messages on standard error)
    pub(super) text: bool,
    /// colours on the board
    pub(super) colour: bool,
    /// a person at a terminal types the lines (else a script)
    pub(super) interactive: bool,
    /// a script's line that cannot be played is reported and the game goes on
    pub(super) keep_going: bool,
    /// a script that ends before the game is not an error
    pub(super) allow_partial: bool,
}

/// A computer's decisions of one turn (hops of a chain, a sowing and where it goes), told as
/// one move with the board once at its end: the position before the first, the decisions so
/// far and what the search said of the first.
type ComputerChain = (State, Vec<String>, Vec<String>);

/// The game at the terminal, as a state machine (see the module's text).
pub(super) struct Table<'s, 'g> {
    pub(super) s: &'s mut Session<'g>,
    manner: Manner,
    picture: Option<LivePicture>,
    /// the number of the line read last, for the errors of scripted input
    line_no: usize,
    /// the turn whose board was shown last (`u32::MAX`: none)
    last_shown_turn: u32,
    /// the round whose start was said last
    last_shown_round: u32,
    /// the end of the round was said, its between-round decisions follow
    shown_between: bool,
    chain: Option<ComputerChain>,
}

impl<'s, 'g> Table<'s, 'g> {
    pub(super) fn new(s: &'s mut Session<'g>, manner: Manner, svg: Option<&str>) -> Self {
        Table {
            s,
            manner,
            picture: svg.map(LivePicture::new),
            line_no: 0,
            last_shown_turn: u32::MAX,
            last_shown_round: 1,
            shown_between: false,
            chain: None,
        }
    }

    fn say(&self, out: &mut dyn Write, m: &str) -> io::Result<()> {
        say(out, self.manner.text, m)
    }

    /// The first lines: the game, its seed and options, who plays each player.
    pub(super) fn greet(
        &self,
        out: &mut dyn Write,
        seed: u64,
        agents: &[AgentSpec],
    ) -> Result<(), Stop> {
        let g = self.s.g;
        self.say(
            out,
            &format!("{} (seed {seed}); options: {}", g.title(), fmt_options(g)),
        )?;
        let roles: Vec<String> = g
            .players()
            .iter()
            .zip(agents)
            .map(|(p, a)| match a {
                AgentSpec::Human => format!("{p}: human"),
                a => format!("{p}: computer ({})", a.describe()),
            })
            .collect();
        self.say(
            out,
            &format!("{}. Type `help` at your turn.", roles.join(", ")),
        )?;
        Ok(())
    }

    /// What the game waits for: the record and the picture brought up to date, the end and
    /// start of a round said, and at a person's turn the board, whose turn and the moves.
    pub(super) fn next(&mut self, out: &mut dyn Write) -> Result<Next, Stop> {
        // every step is in the record before anything more is said or asked
        self.s.sync_record()?;
        self.update_picture()?;
        self.say_rounds(out)?;
        if self.s.forfeit.is_some() {
            return Ok(Next::Over);
        }
        Ok(match self.s.st.pending() {
            Pending::Over(_) => Next::Over,
            Pending::Throw(_) | Pending::ChanceFirst => Next::Chance,
            Pending::Choice(_) | Pending::Drop(_) => {
                let mover = self.s.st.mover();
                if self.s.computers[mover.0 as usize].is_some() {
                    Next::Computer(mover)
                } else {
                    self.prompt(out)?;
                    Next::Line
                }
            }
        })
    }

    fn update_picture(&mut self) -> Result<(), Stop> {
        if let Some(p) = self.picture.as_mut()
            && let Err(e) = p.update(self.s.g, &self.s.st)
        {
            return Err(Stop::Picture(format!(
                "cannot write the picture `{}`: {}",
                p.path(),
                ludic::output::error_text(&e)
            )));
        }
        Ok(())
    }

    /// Rounds: says when one is over (its between-round decisions follow) and when the next
    /// begins, with the board, holdings and tallies.
    fn say_rounds(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let (g, st) = (self.s.g, &self.s.st);
        if g.is_between_rounds(st) && !self.shown_between {
            if matches!(st.pending(), Pending::Choice(_) | Pending::Drop(_)) {
                self.say(
                    out,
                    &format!(
                        "\n=== Round {} is over: between rounds, {} decides ===\n{}",
                        st.round(),
                        g.player_name(st.mover()),
                        board_text(g, st)
                    ),
                )?;
            } else {
                self.say(out, &format!("\n=== Round {} is over ===", st.round()))?;
            }
            self.shown_between = true;
            self.last_shown_turn = u32::MAX;
        }
        if st.round() != self.last_shown_round && st.round() > 0 && !st.is_over() {
            if !self.shown_between {
                self.say(
                    out,
                    &format!("\n=== Round {} is over ===", self.last_shown_round),
                )?;
            }
            self.say(
                out,
                &format!("=== Round {} begins ===\n{}", st.round(), board_text(g, st)),
            )?;
            self.shown_between = false;
            self.last_shown_round = st.round();
            self.last_shown_turn = st.turn();
        }
        Ok(())
    }

    /// At a person's turn: the board (when the turn changed or something happened since it
    /// was shown), whose turn it is and the moves.
    fn prompt(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.s.st.turn() != self.last_shown_turn || !self.s.events.is_empty() {
            self.show_board(out)?;
        }
        let (g, st) = (self.s.g, &self.s.st);
        self.say(out, &prompt_header(g, st))?;
        self.say(out, moves_text(g, st).trim_end_matches('\n'))
    }

    /// The board, with the sites of the decisions since it was last shown marked.
    fn show_board(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let marked = event_sites(&self.s.events);
        let look = Look {
            colour: self.manner.colour,
            marked: &marked,
        };
        self.s.events.clear();
        let board = board_view(self.s.g, &self.s.st, &look);
        self.last_shown_turn = self.s.st.turn();
        self.say(out, &format!("\n{board}"))
    }

    /// What the steps just played did, one line each, under the line that says who played;
    /// then the board if something happened and the game goes on.
    fn tell(&mut self, out: &mut dyn Write, board: bool) -> io::Result<()> {
        self.s.flush_told();
        for line in std::mem::take(&mut self.s.told) {
            self.say(out, &format!("  {line}"))?;
        }
        if board && !self.s.events.is_empty() && !self.s.st.is_over() {
            self.show_board(out)?;
        }
        Ok(())
    }

    /// Plays the outcome `o` of the pending chance event (a throw, or who plays first).
    pub(super) fn chance(&mut self, out: &mut dyn Write, o: i64) -> Result<(), Stop> {
        let g = self.s.g;
        match self.s.st.pending() {
            Pending::Throw(d) => {
                let who = g.player_name(self.s.st.mover()).to_string();
                if self.s.chance(o).is_err() {
                    return Err(Stop::Internal("a throw was refused".into()));
                }
                self.s.sync_record()?;
                self.say(out, &format!("{who} throws {}", g.throw_text(d, o as u16)))?;
            }
            Pending::ChanceFirst => {
                let Ok(name) = self.s.chance(o) else {
                    return Err(Stop::Internal("a chance outcome was refused".into()));
                };
                self.s.sync_record()?;
                self.say(out, &format!("Chance: {name} plays first."))?;
            }
            _ => return Err(Stop::Internal("no chance event is pending".into())),
        }
        self.tell(out, false)?;
        Ok(())
    }

    /// The mover's computer forfeits: the game ends, lost by its side.
    fn forfeit(&mut self, f: Forfeit) {
        let mover = self.s.st.mover();
        let by = self.s.computers[mover.0 as usize]
            .as_ref()
            .map_or_else(|| "computer".to_string(), |a| a.describe());
        self.s.forfeit = Some(Forfeited {
            player: mover,
            side: self.s.g.side_of(mover),
            agent: mover.0 as usize,
            by,
            reason: f.reason,
        });
    }

    /// Plays a computer's decision; the decisions of one turn are told once it ends. A
    /// computer that could not decide, or decided what is not legal, forfeits: the game ends.
    pub(super) fn computer_decided(
        &mut self,
        out: &mut dyn Write,
        thought: Result<Thought, Forfeit>,
    ) -> Result<(), Stop> {
        let g = self.s.g;
        let mover = self.s.st.mover();
        let thought = match thought {
            Ok(t) if self.s.st.moves().contains(&t.decision) => t,
            Ok(t) => {
                let n = g.notation_of(&self.s.st, t.decision);
                self.forfeit(Forfeit::new(format!(
                    "decided `{n}`, which is not a legal decision"
                )));
                return Ok(());
            }
            Err(f) => {
                self.forfeit(f);
                return Ok(());
            }
        };
        let turn = self.s.st.turn();
        let (before, mut done, mut parts) = self.chain.take().unwrap_or_else(|| {
            let estimate = thought.estimate.iter().map(estimate_text).collect();
            (self.s.st.clone(), vec![], estimate)
        });
        let n = self.s.decide(thought.decision).map_err(Stop::Internal)?;
        self.s.sync_record()?;
        done.push(n);
        let st = &self.s.st;
        let goes_on = st.turn() == turn
            && st.mover() == mover
            && matches!(st.pending(), Pending::Choice(_) | Pending::Drop(_));
        if goes_on {
            self.chain = Some((before, done, parts));
            return Ok(());
        }
        parts.extend(happenings(g, &before, st));
        let name = g.player_name(mover);
        self.say(
            out,
            &format!("{name} plays {}{}", done.join(", "), parenthesized(parts)),
        )?;
        self.tell(out, true)?;
        Ok(())
    }

    /// A line that cannot be played: at a terminal it is refused and the game goes on; from a
    /// script it stops the game at the position before it (exit 1).
    fn refuse(&self, out: &mut dyn Write, why: &str) -> Result<(), Stop> {
        self.say(out, &format!("refused: {why}"))?;
        if self.manner.interactive || self.manner.keep_going {
            Ok(())
        } else {
            Err(Stop::Script(format!(
                "input line {}: {why}; the game stops at the position before it",
                self.line_no
            )))
        }
    }

    /// Takes what was read at a person's turn: a line of decisions or a command, a line that
    /// could not be read, or the end of the input.
    pub(super) fn line(
        &mut self,
        out: &mut dyn Write,
        read: io::Result<Input>,
    ) -> Result<Flow, Stop> {
        self.line_no += 1;
        let line = match read {
            Ok(Input::Line(l)) => l,
            Ok(Input::TooLong) => {
                let why =
                    format!("the line is longer than {MAX_LINE_BYTES} bytes; nothing was played");
                return self.unreadable(out, &why);
            }
            Ok(Input::NotText) => {
                return self.unreadable(out, "the line is not UTF-8 text; nothing was played");
            }
            Ok(Input::End) | Err(_) => return self.input_ended(out),
        };
        if !self.manner.interactive && self.manner.text {
            writeln!(out, "{}", line.trim())?;
        }
        self.command(out, &line)?;
        Ok(match line.trim().to_lowercase().as_str() {
            "quit" | "exit" | "q" => Flow::Stop,
            _ => Flow::Continue,
        })
    }

    fn unreadable(&mut self, out: &mut dyn Write, why: &str) -> Result<Flow, Stop> {
        if !self.manner.interactive && self.manner.text {
            writeln!(out)?;
        }
        self.refuse(out, why)?;
        Ok(Flow::Continue)
    }

    fn input_ended(&mut self, out: &mut dyn Write) -> Result<Flow, Stop> {
        self.say(out, "\n(input ended: the game stops here)")?;
        if !self.manner.interactive && !self.manner.allow_partial {
            return Err(Stop::Script(format!(
                "the input ended after {}, before the end of the game (--allow-partial accepts that)",
                plural(self.line_no - 1, "line")
            )));
        }
        Ok(Flow::Stop)
    }

    /// A line typed at a person's turn: a command, or decisions to play.
    fn command(&mut self, out: &mut dyn Write, line: &str) -> Result<(), Stop> {
        let g = self.s.g;
        let cmd = line.trim().to_lowercase();
        match cmd.as_str() {
            // Enter takes the only legal move.
            "" if self.s.st.moves().len() == 1 => {
                let d = self.s.st.moves()[0];
                if let Err(e) = self.play_human(out, |s| s.decide(d).map(|n| vec![n]))? {
                    self.refuse(out, &e)?;
                }
            }
            "" => self.say(out, "type a move, or `help`")?,
            "help" | "?" => self.say(out, PLAY_HELP)?,
            "rules" => self.say(out, &rules_text(g))?,
            "quit" | "exit" | "q" => self.say(out, "game stopped")?,
            "board" => {
                let marked = event_sites(&self.s.events);
                let look = Look {
                    colour: self.manner.colour,
                    marked: &marked,
                };
                self.say(out, &board_view(g, &self.s.st, &look))?
            }
            "moves" => {}
            "undo" => self.undo(out)?,
            _ => {
                if let Err(e) = self.play_human(out, |s| s.play_line(line))? {
                    self.refuse(out, &command_typo(&cmd).unwrap_or(e))?;
                }
            }
        }
        Ok(())
    }

    /// Plays a person's decisions (`play` gives their notations, or why they cannot be
    /// played: then nothing was played); on success they can be undone and are told.
    fn play_human(
        &mut self,
        out: &mut dyn Write,
        play: impl FnOnce(&mut Session<'g>) -> Result<Vec<String>, String>,
    ) -> Result<Result<(), String>, Stop> {
        let g = self.s.g;
        let mover = self.s.st.mover();
        let snapshot = (self.s.st.clone(), self.s.steps.len());
        let done = match play(&mut *self.s) {
            Ok(done) => done,
            Err(e) => return Ok(Err(e)),
        };
        let happened = what_happened(g, &snapshot.0, &self.s.st);
        self.s.history.push(snapshot);
        self.s.sync_record()?;
        self.say(
            out,
            &format!(
                "{} plays {}{happened}",
                g.player_name(mover),
                done.join(", ")
            ),
        )?;
        self.tell(out, true)?;
        Ok(Ok(()))
    }

    /// Back to the position before the person's last decision.
    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.s.history.pop() {
            Some((st, n)) => {
                self.s.st = st;
                self.s.truncate_steps(n);
                self.s.events.clear();
                self.s.told.clear();
                self.s.chain = None;
                self.last_shown_turn = u32::MAX;
                self.say(out, "undone: back to your previous decision")
            }
            None => self.say(out, "nothing to undo"),
        }
    }
}

/// The game, from the start to its end, to `quit` or to the end of the input: the table
/// driven by the terminal (chance drawn from the seed, the computers' searches with a spinner,
/// lines read with line editing at a terminal).
pub(super) fn run(
    s: &mut Session,
    args: &PlayArgs,
    colour: bool,
    seed: u64,
    agents: &[AgentSpec],
    out: &mut impl Write,
) -> Result<(), Stop> {
    let g = s.g;
    let mut chance_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut agent_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let text = args.format == Format::Text;
    let manner = Manner {
        text,
        colour: colour && text,
        interactive: io::stdin().is_terminal(),
        keep_going: args.keep_going,
        allow_partial: args.allow_partial,
    };
    // Line editing when a person types at a terminal (and reads the text).
    let mut editor = if manner.interactive && text {
        rustyline::DefaultEditor::new().ok()
    } else {
        None
    };
    let spinning = io::stdout().is_terminal();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut table = Table::new(s, manner, args.svg.as_deref());
    table.greet(out, seed, agents)?;
    loop {
        match table.next(out)? {
            Next::Over => return Ok(()),
            Next::Chance => {
                let outs = g.chance_outcomes(&table.s.st);
                let o = sample(&mut chance_rng, &outs);
                table.chance(out, o)?;
            }
            Next::Computer(mover) => {
                let i = mover.0 as usize;
                let Some(mut agent) = table.s.computers[i].take() else {
                    return Err(Stop::Internal("a computer player has no agent".into()));
                };
                let name = g.player_name(mover);
                let mut spinner = Spinner::new(spinning, format!("{name} thinks"));
                let thought = agent.decide(g, &table.s.st, &mut agent_rng, &mut |p| {
                    spinner.show(p.elapsed, p.playouts)
                });
                spinner.clear();
                table.s.computers[i] = Some(agent);
                table.computer_decided(out, thought)?;
            }
            Next::Line => {
                let read = read_line(editor.as_mut(), &mut input, text, out)?;
                if table.line(out, read)? == Flow::Stop {
                    return Ok(());
                }
            }
        }
    }
}

/// Reads a person's line: at a terminal with line editing and history (the arrows, Ctrl-R,
/// …; Ctrl-C is `quit`), else from standard input after a `> ` in text.
fn read_line(
    editor: Option<&mut rustyline::DefaultEditor>,
    input: &mut impl BufRead,
    text: bool,
    out: &mut impl Write,
) -> Result<io::Result<Input>, Stop> {
    Ok(match editor {
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
                Err(rustyline::error::ReadlineError::Interrupted) => Ok(Input::Line("quit".into())),
                Err(_) => Ok(Input::End),
            }
        }
        None => {
            if text {
                write!(out, "> ")?;
                out.flush()?;
            }
            next_input(input)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludic::Game;
    use ludic::Settings;
    use ludic::builtin;
    use rand::RngExt;

    fn built_in_games() -> Vec<Game> {
        builtin::GAMES
            .iter()
            .map(|(_, src)| ludic::load_game(src, &Settings::default()).expect("a built-in game"))
            .collect()
    }

    fn script() -> Manner {
        Manner {
            text: true,
            colour: false,
            interactive: false,
            keep_going: false,
            allow_partial: false,
        }
    }

    fn terminal() -> Manner {
        Manner {
            interactive: true,
            ..script()
        }
    }

    fn people(g: &Game) -> Session<'_> {
        Session::new(g, &vec![AgentSpec::Human; g.players().len()], None)
    }

    fn line(l: &str) -> io::Result<Input> {
        Ok(Input::Line(l.to_string()))
    }

    fn said(out: &[u8]) -> String {
        String::from_utf8_lossy(out).into_owned()
    }

    /// Plays chance events (their first outcome) until a person's turn or the end.
    fn to_a_person(t: &mut Table, out: &mut Vec<u8>) -> Next {
        to_a_person_by(t, out, |_| 0)
    }

    /// Plays chance events until a person's turn or the end, outcome `pick(n)` of `n` each.
    fn to_a_person_by(
        t: &mut Table,
        out: &mut Vec<u8>,
        mut pick: impl FnMut(usize) -> usize,
    ) -> Next {
        loop {
            match t.next(out).ok().expect("the table goes on") {
                Next::Chance => {
                    let outcomes = t.s.g.chance_outcomes(&t.s.st);
                    let o = outcomes[pick(outcomes.len())].0;
                    assert!(t.chance(out, o).is_ok());
                }
                next => return next,
            }
        }
    }

    /// The notation of a legal decision, chosen by the generator.
    fn some_move(t: &Table, rng: &mut Xoshiro256PlusPlus) -> String {
        let moves = t.s.st.moves();
        let d = moves[rng.random_range(0..moves.len())];
        t.s.g.notation_of(&t.s.st, d)
    }

    #[test]
    fn every_built_in_game_is_played_to_its_end_by_lines_and_by_computers() {
        for (i, g) in built_in_games().iter().enumerate() {
            // people typing the notation of a move
            let mut s = people(g);
            let mut t = Table::new(&mut s, script(), None);
            let mut out = vec![];
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(i as u64);
            let mut lines = 0;
            // chance outcomes drawn (always the first would repeat a roll for ever in a game
            // that throws again on equal dice)
            let mut chance = Xoshiro256PlusPlus::seed_from_u64(i as u64 + 1000);
            let mut draw = |n: usize| chance.random_range(0..n);
            while to_a_person_by(&mut t, &mut out, &mut draw) == Next::Line {
                let l = some_move(&t, &mut rng);
                assert!(matches!(t.line(&mut out, line(&l)), Ok(Flow::Continue)));
                lines += 1;
                assert!(lines < 20_000, "game {i} ends");
            }
            assert!(t.s.st.is_over());
            assert!(said(&out).contains(" plays "));
            assert_eq!(t.line_no, lines);
            // computers on every side
            let random = AgentSpec::parse("random", 1).expect("an agent");
            let mut s = Session::new(g, &vec![random; g.players().len()], None);
            let mut t = Table::new(&mut s, script(), None);
            let mut out = vec![];
            let mut decided = 0;
            loop {
                match to_a_person_by(&mut t, &mut out, &mut draw) {
                    Next::Over => break,
                    Next::Computer(p) => {
                        let mut agent = t.s.computers[p.0 as usize].take().expect("an agent");
                        let thought = agent.decide(g, &t.s.st, &mut rng, &mut |_| {});
                        t.s.computers[p.0 as usize] = Some(agent);
                        assert!(t.computer_decided(&mut out, thought).is_ok());
                        decided += 1;
                        assert!(decided < 20_000, "game {i} ends");
                    }
                    n => panic!("{n:?} with computers on every side"),
                }
            }
            assert!(t.s.st.is_over());
            assert!(t.s.steps.len() >= decided);
        }
    }

    #[test]
    fn undo_goes_back_to_the_persons_previous_decision() {
        let g = &built_in_games()[0];
        let mut s = people(g);
        let mut t = Table::new(&mut s, script(), None);
        let mut out = vec![];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        assert_eq!(to_a_person(&mut t, &mut out), Next::Line);
        let (before, steps) = (t.s.st.clone(), t.s.steps.len());
        let l = some_move(&t, &mut rng);
        assert!(matches!(t.line(&mut out, line(&l)), Ok(Flow::Continue)));
        assert!(t.s.steps.len() > steps);
        assert_eq!(to_a_person(&mut t, &mut out), Next::Line);
        out.clear();
        assert!(matches!(t.line(&mut out, line("undo")), Ok(Flow::Continue)));
        assert!(said(&out).contains("undone: back to your previous decision"));
        assert!(t.s.st == before);
        assert_eq!(t.s.steps.len(), steps);
        out.clear();
        assert!(matches!(t.line(&mut out, line("undo")), Ok(Flow::Continue)));
        assert!(said(&out).contains("nothing to undo"));
    }

    #[test]
    fn a_line_that_cannot_be_played_is_refused_at_a_terminal_and_stops_a_script() {
        let g = &built_in_games()[0];
        for manner in [terminal(), script()] {
            let mut s = people(g);
            let mut t = Table::new(&mut s, manner, None);
            let mut out = vec![];
            assert_eq!(to_a_person(&mut t, &mut out), Next::Line);
            let before = t.s.st.clone();
            out.clear();
            let r = t.line(&mut out, line("no such move"));
            assert!(said(&out).contains("refused: "));
            assert!(t.s.st == before && t.s.steps.is_empty());
            if manner.interactive {
                assert!(matches!(r, Ok(Flow::Continue)));
            } else {
                let Err(Stop::Script(e)) = r else {
                    panic!("a script stops")
                };
                assert!(e.starts_with("input line 1: "), "{e}");
            }
        }
    }

    #[test]
    fn quit_and_the_end_of_the_input_stop_the_game() {
        let g = &built_in_games()[0];
        let mut s = people(g);
        let mut t = Table::new(&mut s, script(), None);
        let mut out = vec![];
        assert_eq!(to_a_person(&mut t, &mut out), Next::Line);
        assert!(matches!(t.line(&mut out, line("help")), Ok(Flow::Continue)));
        assert!(said(&out).contains("Commands: undo"));
        assert!(matches!(t.line(&mut out, line("quit")), Ok(Flow::Stop)));
        assert!(said(&out).ends_with("quit\ngame stopped\n"));
        // a script that ends early is an error, unless --allow-partial
        let r = t.line(&mut out, Ok(Input::End));
        assert!(matches!(r, Err(Stop::Script(e)) if e.contains("after 2 lines")));
        let mut s = people(g);
        let manner = Manner {
            allow_partial: true,
            ..script()
        };
        let mut t = Table::new(&mut s, manner, None);
        assert_eq!(to_a_person(&mut t, &mut out), Next::Line);
        assert!(matches!(t.line(&mut out, Ok(Input::End)), Ok(Flow::Stop)));
    }
}
