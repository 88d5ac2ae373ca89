//! `ludic play GAME`: a game at the terminal, people and computers.

use super::{
    FAILED, Format, OK, Spinner, USAGE, fmt_options, load_for_command, sample, write_json,
};
use crate::agents::{Agent, AgentSpec, Estimate, Event, default_threads};
use crate::check::option_map;
use crate::engine::Game;
use crate::engine::{Decision, Pending, State};
use crate::ir::Player;
use crate::limits::{MAX_LINE_BYTES, shorten};
use crate::record::{FORMAT, Record, RecordFile, Step};
use crate::render::narrate::{end_text, narrate};
use crate::render::svg::LivePicture;
use crate::render::svg::event_sites;
use crate::render::{Look, board_text, board_view, outcome_json, state_json};
use crate::source_hash;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::collections::BTreeMap;
use std::io::{self, BufRead, IsTerminal, Read, Write};

/// Arguments of `ludic play`.
pub struct PlayArgs {
    pub game: String,
    pub options: Vec<String>,
    pub variant: Option<String>,
    pub seed: Option<u64>,
    pub agents: Vec<String>,
    /// threads of a searching agent (default: every core)
    pub threads: Option<usize>,
    pub record: Option<String>,
    pub format: Format,
    /// a picture of the position to keep up to date
    pub svg: Option<String>,
    /// input that ends before the game does is not an error
    pub allow_partial: bool,
    /// scripted input: a line refused is reported and the game goes on, as at a terminal
    pub keep_going: bool,
    /// colours on the board (already decided from --color, NO_COLOR and the terminal)
    pub colour: bool,
}

/// Who plays each player: by default the first side's players are human, the others the
/// computer (`mcts`).
fn parse_agents(g: &Game, specs: &[String], threads: usize) -> Result<Vec<AgentSpec>, String> {
    let computer = AgentSpec::parse("mcts", threads)?;
    let mut agents: Vec<AgentSpec> = (0..g.players.len())
        .map(|i| {
            if g.side_of(Player(i as u8)).0 == 0 {
                AgentSpec::Human
            } else {
                computer.clone()
            }
        })
        .collect();
    // who was given an agent, by which setting: the same side twice is refused
    let mut given: Vec<(String, &str)> = vec![];
    for spec in specs {
        let Some((who, agent)) = spec.split_once('=') else {
            return Err(format!(
                "`{}` is not an agent setting: write SIDE=AGENT, e.g. North=mcts or South=human",
                shorten(spec, 80)
            ));
        };
        let who = who.trim();
        let agent = AgentSpec::parse(agent, threads)?;
        let key = who.to_lowercase();
        if let Some((_, first)) = given.iter().find(|(k, _)| *k == key) {
            return Err(format!(
                "`{}` is given two agents (`--agent {}` and `--agent {}`): give each side one",
                shorten(who, 80),
                shorten(first, 80),
                shorten(spec, 80)
            ));
        }
        given.push((key, spec));
        // A side's name sets all its players; a player's name (South2) only him.
        let side = g.sides.iter().position(|s| s.eq_ignore_ascii_case(who));
        let player = g.players.iter().position(|p| p.eq_ignore_ascii_case(who));
        match (side, player) {
            (Some(s), _) => {
                for (i, a) in agents.iter_mut().enumerate() {
                    if g.side_of(Player(i as u8)).0 as usize == s {
                        *a = agent.clone();
                    }
                }
            }
            (None, Some(p)) => agents[p] = agent,
            (None, None) => {
                let mut names = g.sides.clone();
                if g.players.len() > g.sides.len() {
                    names.extend(g.players.iter().cloned());
                }
                return Err(format!(
                    "unknown side `{}`: the sides are {}",
                    shorten(who, 80),
                    names.join(", ")
                ));
            }
        }
    }
    Ok(agents)
}

fn pick_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        // No seed given: take one from the clock, and say which, so the game can be replayed.
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_000)
            .unwrap_or(1)
    })
}

const PLAY_HELP: &str =
    "Type the number of a move, its notation (`sow s7`), or its last word (`s7`);
Enter alone takes the move when there is only one.
Several decisions can go on one line: `s5 ccw`.
Commands: undo (take back your last decision), board (show the board), moves (list moves),
rules (the game's summary and what each decision means), help (this text), quit (stop the game).";

struct Session<'a> {
    g: &'a Game,
    st: State,
    steps: Vec<Step>,
    /// (state, steps) before each human decision, for undo
    history: Vec<(State, usize)>,
    /// the computer player of each player (none for a person), told of every step
    computers: Vec<Option<Box<dyn Agent>>>,
    /// the steps already in the record file that are still steps of the game
    recorded: usize,
    record: Option<RecordFile>,
    /// what the decisions since the last board was shown did (their sites are marked)
    events: Vec<crate::engine::events::Event>,
    /// the narration of the steps played since it was last said
    told: Vec<String>,
}

/// What changed between two states, in words: captures, passes, sowings cut as cycles.
fn what_happened(g: &Game, before: &State, after: &State) -> String {
    parenthesized(happenings(g, before, after))
}

/// ` (a; b)`, or nothing when there are no parts.
fn parenthesized(parts: Vec<String>) -> String {
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

/// A search's estimate in words: `wins 71% of 48,000 playouts`.
fn estimate_text(e: &Estimate) -> String {
    format!(
        "wins {:.0}% of {} playouts",
        100.0 * e.value,
        crate::agents::mcts::thousands(e.playouts)
    )
}

/// What changed between two states, as a list of phrases.
fn happenings(g: &Game, before: &State, after: &State) -> Vec<String> {
    let mut parts = vec![];
    let round_over = after.round() != before.round()
        || (g.is_between_rounds(after) && !g.is_between_rounds(before));
    if round_over {
        parts.push("the round is over".to_string());
    }
    for p in (0..g.players.len()).filter(|_| !round_over && !g.is_between_rounds(after)) {
        let p = Player(p as u8);
        let gained = after.score(g, p) - before.score(g, p);
        if gained > 0 {
            parts.push(format!(
                "{} gains {gained} point{}",
                g.player_name(p),
                if gained == 1 { "" } else { "s" }
            ));
        }
    }
    if after.is_over() && g.between_start.is_some() && after.round() > 1 {
        parts.push(format!("the match ends after {} rounds", after.round()));
    }
    parts
}

impl Session<'_> {
    /// Takes steps back (undo, or a line refused half-way).
    fn truncate_steps(&mut self, n: usize) {
        self.steps.truncate(n);
        self.recorded = self.recorded.min(n);
    }

    /// Writes the steps not yet in the record file.
    fn sync_record(&mut self) -> Result<(), Stop> {
        if let Some(f) = &mut self.record {
            f.sync(&self.steps, self.recorded).map_err(Stop::Record)?;
        }
        self.recorded = self.steps.len();
        Ok(())
    }

    /// Tells every computer player of a step about to be played.
    fn tell(&mut self, event: Event) {
        for c in self.computers.iter_mut().flatten() {
            c.observe(self.g, &self.st, event);
        }
    }

    fn decide(&mut self, d: Decision) -> Result<String, String> {
        let notation = self.g.notation_of(&self.st, d);
        let player = self.g.player_name(self.st.mover()).to_string();
        if !self.st.moves().contains(&d) {
            return Err(format!("`{notation}` is not a legal decision here"));
        }
        self.tell(Event::Decision(d));
        let before = self.st.clone();
        let events = self
            .g
            .play_narrated(&mut self.st, d)
            .map_err(|e| e.to_string())?;
        self.told.extend(narrate(self.g, &before, &events));
        self.events.extend(events);
        self.steps.push(Step::Decision {
            player,
            notation: notation.clone(),
        });
        Ok(notation)
    }

    /// Plays the outcome of the pending chance event and records it by name.
    fn chance(&mut self, o: i64) -> Result<String, String> {
        let name = self.g.outcome_name(&self.st, o);
        self.tell(Event::Chance(o));
        let before = self.st.clone();
        let events = self
            .g
            .play_chance_narrated(&mut self.st, o)
            .map_err(|e| e.to_string())?;
        self.told.extend(narrate(self.g, &before, &events));
        self.events.extend(events);
        self.steps.push(Step::Chance {
            outcome: name.clone(),
        });
        Ok(name)
    }

    /// Plays one input line of decisions; all or nothing.
    fn play_line(&mut self, line: &str) -> Result<Vec<String>, String> {
        let before = (self.st.clone(), self.steps.len());
        let (told, events) = (self.told.len(), self.events.len());
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut done = vec![];
        let mut i = 0;
        let result = (|| {
            while i < words.len() {
                if !matches!(self.st.pending(), Pending::Choice(_) | Pending::Drop(_)) {
                    return Err(format!(
                        "`{}` was left over: the turn moved on",
                        shorten(&words[i..].join(" "), 80)
                    ));
                }
                let mover = self.st.mover();
                // A decision is written in at most as many words as its longest notation:
                // longer prefixes of the line are not tried (that made a long line quadratic).
                let most = self
                    .g
                    .legal_notations(&self.st)
                    .iter()
                    .map(|n| n.split_whitespace().count())
                    .max()
                    .unwrap_or(1)
                    .max(1);
                let mut matched = None;
                for j in (i + 1..=words.len().min(i + most)).rev() {
                    if let Ok(d) = self.g.parse_decision(&self.st, &words[i..j].join(" ")) {
                        matched = Some((d, j));
                        break;
                    }
                }
                let Some((d, j)) = matched else {
                    // Report the error of the attempt with every word left.
                    let rest = words[i..].join(" ");
                    return Err(self
                        .g
                        .parse_decision(&self.st, &rest)
                        .err()
                        .unwrap_or_else(|| format!("cannot read `{}`", shorten(&rest, 80))));
                };
                done.push(self.decide(d)?);
                i = j;
                if self.st.mover() != mover && i < words.len() {
                    return Err(format!(
                        "`{}` was left over: the turn ended",
                        shorten(&words[i..].join(" "), 80)
                    ));
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok(done),
            Err(e) => {
                self.st = before.0;
                self.truncate_steps(before.1);
                self.told.truncate(told);
                self.events.truncate(events);
                Err(e)
            }
        }
    }
}

/// Which way a ring direction goes on the screen, for the mover: `to the right along your
/// row` when the mover's own sites follow one another that way (or the whole ring's, when the
/// mover owns none); None when the ring does not go one way along a row.
fn direction_hint(g: &Game, st: &State, word: &str) -> Option<String> {
    let names = g.dir_names.as_ref()?;
    let d = names.iter().position(|n| n.eq_ignore_ascii_case(word))?;
    let mover = st.mover();
    let mine = |s: usize| g.sites[s].owner == Some(mover);
    let owns_any = (0..g.sites.len()).any(mine);
    let (mut right, mut left) = (0, 0);
    for (s, &t) in g.next[d].iter().enumerate() {
        let t = t as usize;
        if t >= g.sites.len() || (owns_any && !(mine(s) && mine(t))) {
            continue;
        }
        if g.sites[s].y == g.sites[t].y {
            match g.sites[t].x.cmp(&g.sites[s].x) {
                std::cmp::Ordering::Greater => right += 1,
                std::cmp::Ordering::Less => left += 1,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    let whose = if owns_any { "your" } else { "the" };
    match (right > 0, left > 0) {
        (true, false) => Some(format!("to the right along {whose} row")),
        (false, true) => Some(format!("to the left along {whose} row")),
        _ => None,
    }
}

fn moves_text(g: &Game, st: &State) -> String {
    let names: Vec<String> = g
        .legal_notations(st)
        .into_iter()
        .map(|n| {
            let last = n.rsplit(' ').next().unwrap_or("");
            match direction_hint(g, st, last) {
                Some(h) => format!("{n} ({h})"),
                None => n,
            }
        })
        .collect();
    let mut out = String::new();
    for (i, n) in names.iter().enumerate() {
        out.push_str(&format!("  {:>2}. {n}", i + 1));
        if (i + 1) % 6 == 0 || i + 1 == names.len() {
            out.push('\n');
        }
    }
    out
}

fn prompt_header(g: &Game, st: &State) -> String {
    let what = match st.pending() {
        Pending::Drop(k) => format!(
            " (where in this lap is the {} dropped? step 1 is the next site)",
            g.pieces[k.0 as usize].name
        ),
        _ => String::new(),
    };
    format!(
        "Turn {}: {} to decide{what}",
        st.turn() + 1,
        g.player_name(st.mover())
    )
}

/// One line read from standard input.
pub(super) enum Input {
    Line(String),
    /// longer than `MAX_LINE_BYTES`: the rest of it was skipped
    TooLong,
    /// not UTF-8 text
    NotText,
    End,
}

/// Reads the next line, keeping at most `MAX_LINE_BYTES` of it in memory.
pub(super) fn next_input(r: &mut impl BufRead) -> io::Result<Input> {
    let mut buf = vec![];
    let n = r
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(Input::End);
    }
    if buf.len() > MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
        r.skip_until(b'\n')?;
        return Ok(Input::TooLong);
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(match String::from_utf8(buf) {
        Ok(line) => Input::Line(line),
        Err(_) => Input::NotText,
    })
}

/// Why a game at the terminal stopped early.
enum Stop {
    /// standard output failed (a closed pipe, a full disk)
    Output(io::Error),
    /// the record could not be written
    Record(io::Error),
    /// the engine refused what it offered (a bug)
    Internal(String),
    /// the picture asked for with --svg could not be written
    Picture(String),
    /// scripted input (not a terminal) had a line that could not be played, or ended before
    /// the game: the position before it is kept
    Script(String),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Output(e)
    }
}

/// `ludic play GAME`
pub fn play(args: &PlayArgs) -> u8 {
    let (label, source, g) =
        match load_for_command(&args.game, &args.options, args.variant.as_deref()) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let threads = args.threads.unwrap_or_else(default_threads).max(1);
    let agents = match parse_agents(&g, &args.agents, threads) {
        Ok(a) => a,
        Err(e) => {
            to_stderr!("error: {e}");
            return USAGE;
        }
    };
    let seed = pick_seed(args.seed);
    // The record is created before the game starts, and written as it goes.
    let record = match &args.record {
        None => None,
        Some(path) => {
            let head = Record {
                agents: g
                    .players
                    .iter()
                    .cloned()
                    .zip(agents.iter().map(AgentSpec::describe))
                    .collect::<BTreeMap<_, _>>(),
                format: FORMAT,
                game: label.clone(),
                title: g.meta.name.clone(),
                source_hash: source_hash(&source),
                options: option_map(&g),
                seed: Some(seed),
                steps: vec![],
                result: None,
            };
            match RecordFile::create(path, &head) {
                Ok(f) => Some(f),
                Err(e) => {
                    to_stderr!("error: cannot write the record to `{path}`: {e}");
                    return FAILED;
                }
            }
        }
    };
    let mut s = Session {
        g: &g,
        st: g.start(),
        steps: vec![],
        history: vec![],
        computers: agents.iter().map(AgentSpec::build).collect(),
        events: vec![],
        told: vec![],
        recorded: 0,
        record,
    };
    let out = &mut io::stdout().lock();
    let stopped = run(&mut s, args, seed, &agents, out);
    // The record gets the last steps and the result, whatever stopped the game.
    let result = s.st.outcome().map(|o| outcome_json(&g, o));
    let recorded = match s.sync_record() {
        Ok(()) => match &mut s.record {
            Some(f) => f.finish(result.as_ref()).map_err(Stop::Record),
            None => Ok(()),
        },
        Err(e) => Err(e),
    };
    let path = args.record.as_deref().unwrap_or("");
    let mut script_error = None;
    match stopped.and(recorded) {
        Ok(()) => {}
        Err(Stop::Record(e)) => {
            to_stderr!("error: cannot write the record to `{path}`: {e}");
            return FAILED;
        }
        Err(Stop::Internal(e)) => {
            to_stderr!("internal error: {e}");
            return FAILED;
        }
        Err(Stop::Picture(e)) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
        Err(Stop::Script(e)) => script_error = Some(e),
        Err(Stop::Output(e)) => return super::finish(Err(e)),
    }
    let text = args.format == Format::Text;
    let end = (|| -> io::Result<u8> {
        if let Some(path) = &args.record {
            say(out, text, &format!("record written to {path}"))?;
        }
        match args.format {
            Format::Json => write_json(out, &state_json(&g, &s.st))?,
            Format::Text => {
                writeln!(out, "\n{}", board_text(&g, &s.st))?;
                if let Some(end) = end_text(&g, &s.st) {
                    writeln!(out, "{end}")?;
                }
            }
        }
        if let Some(e) = &script_error {
            out.flush()?;
            to_stderr!("error: {e}");
            return Ok(FAILED);
        }
        Ok(OK)
    })();
    super::finish(end)
}

/// A message of the game: on standard output in text, on standard error with `--format json`
/// (standard output then carries the JSON only).
fn say(out: &mut (impl Write + ?Sized), text: bool, m: &str) -> io::Result<()> {
    if text {
        writeln!(out, "{m}")
    } else {
        to_stderr!("{m}");
        Ok(())
    }
}

/// The game, from the start to its end, to `quit` or to the end of the input.
fn run(
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
        for line in std::mem::take(&mut s.told) {
            say(out, text, &format!("  {line}"))?;
        }
        Ok(())
    };
    let mut last_shown_round = 1;
    let mut shown_between = false;
    let mut picture = args.svg.as_deref().map(LivePicture::new);
    loop {
        // every step is in the record before anything more is said or asked
        s.sync_record()?;
        if let Some(p) = picture.as_mut()
            && let Err(e) = p.update(g, &s.st)
        {
            return Err(Stop::Picture(format!(
                "cannot write the picture `{}`: {e}",
                p.path()
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
                    let before = s.st.clone();
                    let n = s.decide(thought.decision).map_err(Stop::Internal)?;
                    s.sync_record()?;
                    let mut parts: Vec<String> =
                        thought.estimate.iter().map(estimate_text).collect();
                    parts.extend(happenings(g, &before, &s.st));
                    say(
                        out,
                        text,
                        &format!("{name} plays {n}{}", parenthesized(parts)),
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
                let line = match read {
                    Ok(Input::Line(l)) => l,
                    Ok(Input::TooLong) => {
                        if !interactive && text {
                            writeln!(out)?;
                        }
                        refuse(
                            out,
                            line_no,
                            &format!(
                                "the line is longer than {MAX_LINE_BYTES} bytes; nothing was played"
                            ),
                        )?;
                        continue;
                    }
                    Ok(Input::NotText) => {
                        if !interactive && text {
                            writeln!(out)?;
                        }
                        refuse(
                            out,
                            line_no,
                            "the line is not UTF-8 text; nothing was played",
                        )?;
                        continue;
                    }
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

/// The commands typed at a turn, besides decisions.
const COMMANDS: [&str; 7] = ["undo", "board", "moves", "help", "quit", "exit", "rules"];

/// The game's summary and what each decision label means (`rules` at a turn; `ludic rules GAME`
/// says more).
fn rules_text(g: &Game) -> String {
    let mut out = String::new();
    if let Some(summary) = &g.meta.summary {
        for line in summary.lines() {
            out.push_str(line.trim());
            out.push('\n');
        }
    }
    let width = g.labels.iter().map(|l| l.name.len()).max().unwrap_or(0);
    for l in g.labels.iter().filter(|l| l.doc.is_some()) {
        out.push_str(&format!(
            "  {:width$}  {}\n",
            l.name,
            l.doc.as_deref().unwrap_or_default()
        ));
    }
    out.push_str("(`ludic rules GAME` shows the options, variants and more)");
    out
}

/// A line of one word that is no decision but close to a command: the refusal says which.
fn command_typo(line: &str) -> Option<String> {
    if line.contains(char::is_whitespace) {
        return None;
    }
    crate::diagnostic::suggest(line, COMMANDS)
        .map(|c| format!("`{line}` is neither a move nor a command; did you mean `{c}`?"))
}

/// `1 line`, `2 lines`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
