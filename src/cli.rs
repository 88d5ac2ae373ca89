//! The commands of the `ludic` binary, as library functions returning exit codes.

use crate::check::{LoadError, Settings, option_map};
use crate::diagnostic::{Diagnostics, line_col, render};
use crate::engine::{Decision, EndReason, Pending, State};
use crate::ir::{Game, Player};
use crate::record::{Record, Step, replay as replay_steps};
use crate::render::{board_text, outcome_json, outcome_text, state_json};
use crate::{builtin, load_game, source_hash};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Write};
use std::time::Instant;

/// Output format of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Exit codes.
pub const OK: u8 = 0;
pub const FAILED: u8 = 1;
pub const USAGE: u8 = 2;

/// Finds a game by built-in name or path: (label for records, source text).
pub fn resolve_game(name: &str) -> Result<(String, String), String> {
    if let Some((stem, src)) = builtin::find(name) {
        return Ok((stem.to_string(), src.to_string()));
    }
    match std::fs::read_to_string(name) {
        Ok(s) => Ok((name.to_string(), s)),
        Err(e) => {
            let names: Vec<&str> = builtin::GAMES.iter().map(|(n, _)| *n).collect();
            let mut msg = format!("cannot read `{name}`: {e}");
            if let Some(s) = crate::diagnostic::suggest(name, names.iter().copied()) {
                msg.push_str(&format!("\nhint: did you mean the built-in game `{s}`?"));
            } else {
                msg.push_str(&format!("\nhint: built-in games: {}", names.join(", ")));
            }
            Err(msg)
        }
    }
}

fn settings_from(options: &[String], variant: Option<&str>) -> Result<Settings, String> {
    let mut s = Settings {
        variant: variant.map(str::to_string),
        sets: vec![],
    };
    for o in options {
        s.push_assignment(o)?;
    }
    Ok(s)
}

/// Loads a game for a command, printing problems; the error is the exit code.
fn load_for_command(
    name: &str,
    options: &[String],
    variant: Option<&str>,
) -> Result<(String, String, Game), u8> {
    let (label, source) = resolve_game(name).map_err(|e| {
        eprintln!("error: {e}");
        FAILED
    })?;
    let settings = settings_from(options, variant).map_err(|e| {
        eprintln!("error: {e}");
        USAGE
    })?;
    match load_game(&source, &settings) {
        Ok(g) => Ok((label, source, g)),
        Err(LoadError::File(d)) => {
            eprint!("{}", render(&label, &source, &d));
            Err(FAILED)
        }
        Err(LoadError::Options(errs)) => {
            for e in errs {
                eprintln!("error: {e}");
            }
            eprintln!("hint: `ludic list` shows every game's options and variants");
            Err(USAGE)
        }
    }
}

fn diagnostics_json(path: &str, source: &str, d: &Diagnostics) -> serde_json::Value {
    let items: Vec<serde_json::Value> =
        d.0.iter()
            .map(|x| {
                let (line, column) = line_col(source, x.span.start);
                let (end_line, end_column) = line_col(source, x.span.end);
                json!({
                    "file": path,
                    "code": x.code(),
                    "message": x.to_string(),
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "hint": x.hint,
                })
            })
            .collect();
    json!(items)
}

/// `ludic validate FILE...`
pub fn validate(files: &[String], format: Format) -> u8 {
    let mut all_ok = true;
    let mut report = vec![];
    for path in files {
        let source = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                all_ok = false;
                match format {
                    Format::Text => eprintln!("error: cannot read `{path}`: {e}"),
                    Format::Json => report.push(json!({"file": path, "valid": false, "error": e.to_string(), "diagnostics": []})),
                }
                continue;
            }
        };
        let mut diags = Diagnostics::default();
        let mut other = vec![];
        let mut title = String::new();
        match load_game(&source, &Settings::default()) {
            Ok(g) => {
                title = g.meta.name.clone();
                // Every variant must load too.
                for v in &g.variants {
                    let s = Settings {
                        variant: Some(v.name.clone()),
                        sets: vec![],
                    };
                    match load_game(&source, &s) {
                        Ok(_) => {}
                        Err(LoadError::File(d)) => diags.0.extend(d.0),
                        Err(LoadError::Options(e)) => other
                            .extend(e.into_iter().map(|m| format!("variant `{}`: {m}", v.name))),
                    }
                }
            }
            Err(LoadError::File(d)) => diags = d,
            Err(LoadError::Options(e)) => other = e,
        }
        let diags = diags.sorted();
        let ok = diags.is_empty() && other.is_empty();
        all_ok &= ok;
        match format {
            Format::Text => {
                if ok {
                    println!("ok: {path} ({title})");
                } else {
                    if !diags.is_empty() {
                        eprint!("{}", render(path, &source, &diags));
                    }
                    for o in &other {
                        eprintln!("error: {path}: {o}");
                    }
                }
            }
            Format::Json => report.push(json!({
                "file": path,
                "valid": ok,
                "title": title,
                "diagnostics": diagnostics_json(path, &source, &diags),
                "errors": other,
            })),
        }
    }
    if format == Format::Json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    }
    if all_ok { OK } else { FAILED }
}

/// Arguments of `ludic play`.
pub struct PlayArgs {
    pub game: String,
    pub options: Vec<String>,
    pub variant: Option<String>,
    pub seed: Option<u64>,
    pub agents: Vec<String>,
    pub record: Option<String>,
    pub format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Agent {
    Human,
    Random,
}

fn parse_agents(g: &Game, specs: &[String]) -> Result<Vec<Agent>, String> {
    // By default the first side's players are human, the others the computer.
    let mut agents: Vec<Agent> = (0..g.players.len())
        .map(|i| {
            if g.side_of(Player(i as u8)).0 == 0 {
                Agent::Human
            } else {
                Agent::Random
            }
        })
        .collect();
    for spec in specs {
        let Some((who, agent)) = spec.split_once('=') else {
            return Err(format!(
                "`{spec}` is not an agent setting: write SIDE=human or SIDE=random"
            ));
        };
        let who = who.trim();
        let agent = match agent.trim().to_lowercase().as_str() {
            "human" => Agent::Human,
            "random" => Agent::Random,
            other => return Err(format!("unknown agent `{other}`: use human or random")),
        };
        // A side's name sets all its players; a player's name (South2) only him.
        let side = g.sides.iter().position(|s| s.eq_ignore_ascii_case(who));
        let player = g.players.iter().position(|p| p.eq_ignore_ascii_case(who));
        match (side, player) {
            (Some(s), _) => {
                for (i, a) in agents.iter_mut().enumerate() {
                    if g.side_of(Player(i as u8)).0 as usize == s {
                        *a = agent;
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
                    "unknown side `{who}`: the sides are {}",
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
help (this text), quit (stop the game).";

struct Session<'a> {
    g: &'a Game,
    st: State,
    steps: Vec<Step>,
    /// (state, steps) before each human decision, for undo
    history: Vec<(State, usize)>,
}

/// What changed between two states, in words: captures, passes, sowings cut as cycles.
fn what_happened(g: &Game, before: &State, after: &State) -> String {
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
    if after.cycles_cut() > before.cycles_cut() {
        parts.push("the sowing would have gone on for ever: it stops there".into());
    }
    if after.is_over() && g.between_start.is_some() && after.round() > 1 {
        parts.push(format!("the match ends after {} rounds", after.round()));
    }
    let (n0, _) = before.passes();
    let (n1, who) = after.passes();
    if n1 > n0 {
        parts.push(format!(
            "{} has no legal move and passes",
            g.player_name(who)
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

impl Session<'_> {
    fn decide(&mut self, d: Decision) -> Result<String, String> {
        let notation = self.g.notation_of(&self.st, d);
        let player = self.g.player_name(self.st.mover()).to_string();
        self.g.play(&mut self.st, d).map_err(|e| e.to_string())?;
        self.steps.push(Step::Decision {
            player,
            notation: notation.clone(),
        });
        Ok(notation)
    }

    /// Plays one input line of decisions; all or nothing.
    fn play_line(&mut self, line: &str) -> Result<Vec<String>, String> {
        let before = (self.st.clone(), self.steps.len());
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut done = vec![];
        let mut i = 0;
        let result = (|| {
            while i < words.len() {
                if !matches!(self.st.pending(), Pending::Choice(_) | Pending::Drop(_)) {
                    return Err(format!(
                        "`{}` was left over: the turn moved on",
                        words[i..].join(" ")
                    ));
                }
                let mover = self.st.mover();
                let mut matched = None;
                for j in (i + 1..=words.len()).rev() {
                    if let Ok(d) = self.g.parse_decision(&self.st, &words[i..j].join(" ")) {
                        matched = Some((d, j));
                        break;
                    }
                }
                let Some((d, j)) = matched else {
                    // Report the error of the shortest attempt, the most telling one.
                    let rest = words[i..].join(" ");
                    return Err(self
                        .g
                        .parse_decision(&self.st, &rest)
                        .err()
                        .unwrap_or_else(|| format!("cannot read `{rest}`")));
                };
                done.push(self.decide(d)?);
                i = j;
                if self.st.mover() != mover && i < words.len() {
                    return Err(format!(
                        "`{}` was left over: the turn ended",
                        words[i..].join(" ")
                    ));
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok(done),
            Err(e) => {
                self.st = before.0;
                self.steps.truncate(before.1);
                Err(e)
            }
        }
    }
}

fn moves_text(g: &Game, st: &State) -> String {
    let names = g.legal_notations(st);
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

/// `ludic play GAME`
pub fn play(args: &PlayArgs) -> u8 {
    let (label, source, g) =
        match load_for_command(&args.game, &args.options, args.variant.as_deref()) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let agents = match parse_agents(&g, &args.agents) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return USAGE;
        }
    };
    let seed = pick_seed(args.seed);
    let mut chance_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut agent_rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let interactive = std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let text = args.format == Format::Text;
    let mut s = Session {
        g: &g,
        st: g.start(),
        steps: vec![],
        history: vec![],
    };
    let say = |m: &str| {
        if text {
            println!("{m}");
        } else {
            eprintln!("{m}");
        }
    };
    say(&format!(
        "{} (seed {seed}); options: {}",
        g.meta.name,
        fmt_options(&g)
    ));
    let roles: Vec<String> = g
        .players
        .iter()
        .zip(&agents)
        .map(|(p, a)| {
            format!(
                "{p}: {}",
                if *a == Agent::Human {
                    "human"
                } else {
                    "computer (random)"
                }
            )
        })
        .collect();
    say(&format!("{}. Type `help` at your turn.", roles.join(", ")));
    let mut last_shown_turn = u32::MAX;
    let mut last_shown_round = 1;
    let mut shown_between = false;
    let mut stopped = false;
    loop {
        // Rounds: say when one is over (its between-round decisions follow) and when the next
        // begins, with the board, holdings and tallies.
        if g.is_between_rounds(&s.st) && !shown_between {
            if matches!(s.st.pending(), Pending::Choice(_) | Pending::Drop(_)) {
                say(&format!(
                    "\n=== Round {} is over: between rounds, {} decides ===\n{}",
                    s.st.round(),
                    g.player_name(s.st.mover()),
                    board_text(&g, &s.st)
                ));
            } else {
                say(&format!("\n=== Round {} is over ===", s.st.round()));
            }
            shown_between = true;
            last_shown_turn = u32::MAX;
        }
        if s.st.round() != last_shown_round && s.st.round() > 0 && !s.st.is_over() {
            if !shown_between {
                say(&format!("\n=== Round {} is over ===", last_shown_round));
            }
            say(&format!(
                "=== Round {} begins ===\n{}",
                s.st.round(),
                board_text(&g, &s.st)
            ));
            shown_between = false;
            last_shown_round = s.st.round();
            last_shown_turn = s.st.turn();
        }
        match s.st.pending() {
            Pending::Over(_) => break,
            Pending::Throw(d) => {
                let outs = g.chance_outcomes(&s.st);
                let o = sample(&mut chance_rng, &outs);
                let name = g.outcome_name(&s.st, o);
                let who = g.player_name(s.st.mover()).to_string();
                let before_passes = s.st.passes().0;
                if g.play_chance(&mut s.st, o).is_err() {
                    eprintln!("internal error: a throw was refused");
                    return FAILED;
                }
                s.steps.push(Step::Chance { outcome: name });
                let passed = if s.st.passes().0 > before_passes {
                    format!(" and cannot move: {who} passes")
                } else {
                    String::new()
                };
                say(&format!(
                    "{who} throws {}{passed}",
                    g.throw_text(d, o as u16)
                ));
            }
            Pending::ChanceFirst => {
                let outs = g.chance_outcomes(&s.st);
                let o = sample(&mut chance_rng, &outs);
                let name = g.outcome_name(&s.st, o);
                if g.play_chance(&mut s.st, o).is_err() {
                    eprintln!("internal error: a chance outcome was refused");
                    return FAILED;
                }
                s.steps.push(Step::Chance {
                    outcome: name.clone(),
                });
                say(&format!("Chance: {name} plays first."));
            }
            Pending::Choice(_) | Pending::Drop(_) => {
                let mover = s.st.mover();
                if agents[mover.0 as usize] == Agent::Random {
                    let moves = s.st.moves();
                    let d = moves[agent_rng.random_range(0..moves.len())];
                    let before = s.st.clone();
                    match s.decide(d) {
                        Ok(n) => say(&format!(
                            "{} plays {n}{}",
                            g.player_name(mover),
                            what_happened(&g, &before, &s.st)
                        )),
                        Err(e) => {
                            eprintln!("internal error: {e}");
                            return FAILED;
                        }
                    }
                    continue;
                }
                if s.st.turn() != last_shown_turn {
                    say(&format!("\n{}", board_text(&g, &s.st)));
                    last_shown_turn = s.st.turn();
                }
                say(&prompt_header(&g, &s.st));
                say(moves_text(&g, &s.st).trim_end_matches('\n'));
                if text {
                    print!("> ");
                    let _ = std::io::stdout().flush();
                }
                let line = match lines.next() {
                    Some(Ok(l)) => l,
                    _ => {
                        say("\n(input ended: the game stops here)");
                        stopped = true;
                        break;
                    }
                };
                if !interactive && text {
                    println!("{}", line.trim());
                }
                let cmd = line.trim().to_lowercase();
                match cmd.as_str() {
                    "" if s.st.moves().len() == 1 => {
                        // Enter takes the only legal move.
                        let snapshot = (s.st.clone(), s.steps.len());
                        let d = s.st.moves()[0];
                        match s.decide(d) {
                            Ok(n) => {
                                let happened = what_happened(&g, &snapshot.0, &s.st);
                                s.history.push(snapshot);
                                say(&format!("{} plays {n}{happened}", g.player_name(mover)));
                            }
                            Err(e) => say(&format!("refused: {e}")),
                        }
                    }
                    "" => say("type a move, or `help`"),
                    "help" | "?" => say(PLAY_HELP),
                    "quit" | "exit" | "q" => {
                        say("game stopped");
                        stopped = true;
                        break;
                    }
                    "board" => say(&board_text(&g, &s.st)),
                    "moves" => {}
                    "undo" => match s.history.pop() {
                        Some((st, n)) => {
                            s.st = st;
                            s.steps.truncate(n);
                            last_shown_turn = u32::MAX;
                            say("undone: back to your previous decision");
                        }
                        None => say("nothing to undo"),
                    },
                    _ => {
                        let snapshot = (s.st.clone(), s.steps.len());
                        match s.play_line(&line) {
                            Ok(done) => {
                                let happened = what_happened(&g, &snapshot.0, &s.st);
                                s.history.push(snapshot);
                                say(&format!(
                                    "{} plays {}{happened}",
                                    g.player_name(mover),
                                    done.join(", ")
                                ));
                            }
                            Err(e) => say(&format!("refused: {e}")),
                        }
                    }
                }
            }
        }
    }
    let result = s.st.outcome().map(|o| outcome_json(&g, o));
    if let Some(path) = &args.record {
        let rec = Record {
            format: 1,
            game: label.clone(),
            title: g.meta.name.clone(),
            source_hash: source_hash(&source),
            options: option_map(&g),
            seed: Some(seed),
            steps: s.steps.clone(),
            result: result.clone(),
        };
        let text = serde_json::to_string_pretty(&rec).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            eprintln!("error: cannot write the record to `{path}`: {e}");
            return FAILED;
        }
        say(&format!("record written to {path}"));
    }
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&state_json(&g, &s.st)).unwrap_or_default()
        ),
        Format::Text => {
            println!("\n{}", board_text(&g, &s.st));
            if let Some(o) = s.st.outcome() {
                println!("Game over: {}", outcome_text(&g, o));
            }
        }
    }
    let _ = stopped;
    OK
}

fn fmt_options(g: &Game) -> String {
    g.options
        .iter()
        .map(|o| format!("{}={}", o.name, o.value))
        .collect::<Vec<_>>()
        .join(" ")
}

fn sample(rng: &mut Xoshiro256PlusPlus, outs: &[(i64, f64)]) -> i64 {
    let x: f64 = rng.random();
    let mut acc = 0.0;
    for (o, p) in outs {
        acc += p;
        if x < acc {
            return *o;
        }
    }
    outs.last().map(|(o, _)| *o).unwrap_or(0)
}

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

/// Results of random playouts.
#[derive(Clone, Debug, Default)]
pub struct SimStats {
    pub playouts: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
    pub turn_limit: u64,
    pub step_limit: u64,
    /// games stopped because the rules asked for something impossible (see `Fault`)
    pub faults: u64,
    pub moves_total: u64,
    pub moves_min: u64,
    pub moves_max: u64,
    pub choices_total: u64,
    pub cycles_cut: u64,
    pub rounds_total: u64,
    pub rounds_min: u64,
    pub rounds_max: u64,
}

/// Plays `n` random games from `seed`; `on_progress` is called now and then with the count done.
pub fn run_playouts(g: &Game, n: u64, seed: u64, mut on_progress: impl FnMut(u64)) -> SimStats {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = SimStats {
        wins: vec![0; g.sides.len()],
        moves_min: u64::MAX,
        rounds_min: u64::MAX,
        ..SimStats::default()
    };
    for i in 0..n {
        let mut st = g.start();
        let mut moves = 0u64;
        loop {
            match st.pending() {
                Pending::Over(o) => {
                    match o.winner {
                        Some(p) => s.wins[p.0 as usize] += 1,
                        None => s.draws += 1,
                    }
                    match o.reason {
                        EndReason::TurnLimit => s.turn_limit += 1,
                        EndReason::StepLimit => s.step_limit += 1,
                        EndReason::Fault(_) => s.faults += 1,
                        EndReason::Rules => {}
                    }
                    break;
                }
                Pending::ChanceFirst | Pending::Throw(_) => {
                    let outs = g.chance_outcomes(&st);
                    let o = sample(&mut rng, &outs);
                    let _ = g.play_chance(&mut st, o);
                }
                _ => {
                    let m = st.moves();
                    s.choices_total += m.len() as u64;
                    let d = m[rng.random_range(0..m.len())];
                    g.play_unchecked(&mut st, d);
                    moves += 1;
                }
            }
        }
        s.playouts += 1;
        s.moves_total += moves;
        s.moves_min = s.moves_min.min(moves);
        s.moves_max = s.moves_max.max(moves);
        s.cycles_cut += st.cycles_cut() as u64;
        let r = st.round() as u64;
        s.rounds_total += r;
        s.rounds_min = s.rounds_min.min(r);
        s.rounds_max = s.rounds_max.max(r);
        if i % 64 == 63 {
            on_progress(i + 1);
        }
    }
    if s.playouts == 0 {
        s.moves_min = 0;
        s.rounds_min = 0;
    }
    s
}

/// `ludic simulate GAME -n N`
pub fn simulate(
    game: &str,
    n: u64,
    seed: u64,
    options: &[String],
    variant: Option<&str>,
    format: Format,
) -> u8 {
    let (_, _, g) = match load_for_command(game, options, variant) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let show_progress = std::io::stderr().is_terminal() && n >= 1000;
    let t0 = Instant::now();
    let mut last = Instant::now();
    let stats = run_playouts(&g, n, seed, |done| {
        if show_progress && last.elapsed().as_millis() >= 500 {
            last = Instant::now();
            eprint!("\r{done}/{n} playouts…");
        }
    });
    if show_progress {
        eprint!("\r                              \r");
    }
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    let mean = |x: u64| {
        if stats.playouts == 0 {
            0.0
        } else {
            x as f64 / stats.playouts as f64
        }
    };
    let branching = if stats.moves_total == 0 {
        0.0
    } else {
        stats.choices_total as f64 / stats.moves_total as f64
    };
    let wins: BTreeMap<String, u64> = g
        .sides
        .iter()
        .cloned()
        .zip(stats.wins.iter().copied())
        .collect();
    match format {
        Format::Json => {
            let v = json!({
                "game": g.meta.name,
                "options": option_map(&g),
                "seed": seed,
                "playouts": stats.playouts,
                "wins": wins,
                "draws": stats.draws,
                "turn_limit_reached": stats.turn_limit,
                "step_limit_reached": stats.step_limit,
                "faults": stats.faults,
                "moves_mean": mean(stats.moves_total),
                "moves_min": stats.moves_min,
                "moves_max": stats.moves_max,
                "branching_mean": branching,
                "cycles_cut": stats.cycles_cut,
                "rounds_mean": mean(stats.rounds_total),
                "rounds_min": stats.rounds_min,
                "rounds_max": stats.rounds_max,
                "seconds": secs,
                "playouts_per_second": stats.playouts as f64 / secs,
                "moves_per_second": stats.moves_total as f64 / secs,
            });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            println!(
                "{}: {} random playouts (seed {seed}; {})",
                g.meta.name,
                stats.playouts,
                fmt_options(&g)
            );
            for (i, p) in g.sides.iter().enumerate() {
                let w = stats.wins[i];
                println!("  {p} wins: {w} ({:.1}%)", 100.0 * mean(w));
            }
            println!(
                "  draws: {} ({} at the turn limit of {})",
                stats.draws, stats.turn_limit, g.turn_limit
            );
            if stats.faults > 0 {
                println!(
                    "  stopped because the rules asked for something impossible: {}",
                    stats.faults
                );
            }
            if stats.step_limit > 0 {
                println!(
                    "  stopped for running too long without a decision: {}",
                    stats.step_limit
                );
            }
            println!(
                "  moves per game: mean {:.1}, min {}, max {}",
                mean(stats.moves_total),
                stats.moves_min,
                stats.moves_max
            );
            if g.between_start.is_some() {
                println!(
                    "  rounds per game: mean {:.2}, min {}, max {}",
                    mean(stats.rounds_total),
                    stats.rounds_min,
                    stats.rounds_max
                );
            }
            println!("  legal choices per decision: mean {branching:.2}");
            if stats.cycles_cut > 0 {
                println!(
                    "  sowings ended because their position repeated: {}",
                    stats.cycles_cut
                );
            }
            println!(
                "  {:.0} playouts/s, {:.0} moves/s ({secs:.2} s)",
                stats.playouts as f64 / secs,
                stats.moves_total as f64 / secs
            );
        }
    }
    OK
}

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

/// For each set of dice: (name, [(value, chart name, number of ways out of all)]) in chart order.
type ThrowRows = Vec<(i64, Option<String>, usize)>;

fn throw_table(g: &Game) -> Vec<(String, ThrowRows)> {
    g.dice
        .iter()
        .map(|d| {
            let mut rows: ThrowRows = vec![];
            for o in &d.outcomes {
                match rows
                    .iter_mut()
                    .find(|(v, n, _)| *v == o.value && *n == o.name)
                {
                    Some(r) => r.2 += 1,
                    None => rows.push((o.value, o.name.clone(), 1)),
                }
            }
            rows.sort_by_key(|r| r.0);
            (d.name.clone(), rows)
        })
        .collect()
}

/// `ludic list`
pub fn list(format: Format) -> u8 {
    let mut out = vec![];
    for (stem, src) in builtin::GAMES {
        match load_game(src, &Settings::default()) {
            Ok(g) => out.push((stem, g)),
            Err(_) => {
                eprintln!(
                    "error: the built-in game `{stem}` does not load (run `ludic validate` on its file)"
                );
                return FAILED;
            }
        }
    }
    match format {
        Format::Json => {
            let v: Vec<serde_json::Value> = out
                .iter()
                .map(|(stem, g)| {
                    json!({
                        "name": stem,
                        "title": g.meta.name,
                        "aliases": g.meta.aliases,
                        "origin": g.meta.origin,
                        "sides": g.sides,
                        "players": g.players,
                        "options": g.options.iter().map(|o| json!({
                            "name": o.name, "default": o.default.to_string(), "domain": o.domain.to_string(), "doc": o.doc,
                        })).collect::<Vec<_>>(),
                                                "throws": throw_table(g).into_iter().map(|(name, probs)| json!({
                            "dice": name,
                            "outcomes": probs.iter().map(|(v, n, k)| json!({"value": v, "name": n, "ways": k})).collect::<Vec<_>>(),
                            "ways": probs.iter().map(|(_, _, k)| k).sum::<usize>(),
                        })).collect::<Vec<_>>(),
                        "variants": g.variants.iter().map(|v| json!({
                            "name": v.name, "doc": v.doc,
                            "sets": v.sets.iter().map(|(k, x)| (k.clone(), x.to_string())).collect::<BTreeMap<_, _>>(),
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            for (stem, g) in &out {
                let aka = if g.meta.aliases.is_empty() {
                    String::new()
                } else {
                    format!(" (also {})", g.meta.aliases.join(", "))
                };
                println!("{stem}: {}{aka}", g.meta.name);
                if let Some(o) = &g.meta.origin {
                    println!("  origin: {o}");
                }
                println!("  sides: {}", g.sides.join(", "));
                println!("  options:");
                for o in &g.options {
                    println!(
                        "    {:<12} default {:<6} in {:<14} {}",
                        o.name,
                        o.default.to_string(),
                        o.domain.to_string(),
                        o.doc.as_deref().unwrap_or("")
                    );
                }
                for (name, probs) in throw_table(g) {
                    let total: usize = probs.iter().map(|(_, _, k)| k).sum();
                    let text: Vec<String> = probs
                        .iter()
                        .map(|(v, n, k)| {
                            format!(
                                "{v}{} {k}/{total}",
                                n.as_ref().map(|n| format!(" {n}")).unwrap_or_default()
                            )
                        })
                        .collect();
                    println!("  throw {name}: {}", text.join(", "));
                }
                if !g.variants.is_empty() {
                    println!("  variants:");
                    for v in &g.variants {
                        let sets: Vec<String> =
                            v.sets.iter().map(|(k, x)| format!("{k}={x}")).collect();
                        println!(
                            "    {:<14} {} ({})",
                            format!("\"{}\"", v.name),
                            sets.join(" "),
                            v.doc.as_deref().unwrap_or("")
                        );
                    }
                }
                println!();
            }
        }
    }
    OK
}

/// Used by tests: a player's name.
pub fn side_name(g: &Game, p: Player) -> &str {
    g.player_name(p)
}
