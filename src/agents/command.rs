//! An agent that is an external program (`--agent 'cmd:python3 my_bot.py'`), spoken to in
//! JSON lines on its standard input and output: the protocol is described in
//! `src/agents/PROTOCOL.md`.
//!
//! The program is started when a game begins ([`Agent::begin`]) and stopped when it ends
//! ([`Agent::end`]) or when the agent is dropped: told `quit`, its standard input closed,
//! given a grace period, then killed and waited for (no process is left behind). What it
//! writes to standard error goes to a log file (one a game and player; removed when empty).
//! Whatever it does wrong (an answer that is not a legal decision, garbage, no answer in its
//! time, a line too long, dying) is a [`Forfeit`] with the reason, never a hang or a panic.
//! Lines are written to it by a thread of their own, so that a program that does not read
//! its input cannot block the game; its lines are read by another, with a bounded length.

use super::{Agent, Event, Forfeit, GameEnd, Progress, Seat, Thought};
use crate::{Decision, Game, Player, State};
use rand::rngs::Xoshiro256PlusPlus;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::time::{Duration, Instant};

/// The version of the protocol, sent in the `game` message.
pub const PROTOCOL: u32 = 1;

/// The longest line a program may answer (longer: a forfeit).
pub const MAX_ANSWER_BYTES: usize = 1 << 20;

/// The time a program has for a decision unless its spec says (`cmd[time=2s]:…`).
pub const DEFAULT_TIME: Duration = Duration::from_secs(10);
/// The time a program has, on top of its first decision's, to start (an interpreter, its
/// libraries), by default.
pub const DEFAULT_STARTUP: Duration = Duration::from_secs(5);

/// How long a program has to exit after `quit` before it is killed.
pub const GRACE: Duration = Duration::from_millis(500);

/// An external program as an agent, as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandConfig {
    /// the program and its arguments (split as a shell would, without a shell)
    pub argv: Vec<String>,
    /// the time for each decision
    pub time: Duration,
    /// the time added to its first decision, for the program to start
    pub startup: Duration,
    /// the folder of the logs of its standard error (default: a folder `ludic-bots-PID` in
    /// the temporary folder)
    pub log_dir: Option<PathBuf>,
    /// the spec as written after `cmd:` (for descriptions)
    pub text: String,
}

impl CommandConfig {
    /// Reads the part of a spec after `cmd` : `:python3 bot.py` or `[time=2s]:./bot -v`.
    pub fn parse(rest: &str) -> Result<CommandConfig, String> {
        let (settings, command) = match rest.strip_prefix('[') {
            Some(r) => match r.split_once("]:") {
                Some((s, c)) => (Some(s), c),
                None => {
                    return Err(
                        "write `cmd[time=2s]:PROGRAM ARGS`: the settings in brackets, then `:` and the command".into(),
                    );
                }
            },
            None => match rest.strip_prefix(':') {
                Some(c) => (None, c),
                None => return Err("write `cmd:PROGRAM ARGS` (e.g. cmd:python3 bot.py)".into()),
            },
        };
        let argv = split_command(command)?;
        if argv.is_empty() {
            return Err("`cmd:` needs a program to run (e.g. cmd:python3 bot.py)".into());
        }
        let mut cfg = CommandConfig {
            argv,
            time: DEFAULT_TIME,
            startup: DEFAULT_STARTUP,
            log_dir: None,
            text: command.trim().to_string(),
        };
        let mut seen = vec![];
        for kv in settings.into_iter().flat_map(|s| s.split(',')) {
            let kv = kv.trim();
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("`{kv}` is not a setting: write time=2s"))?;
            let k = k.trim().to_lowercase();
            if seen.contains(&k) {
                return Err(format!("`{k}` is set twice: keep one"));
            }
            match k.as_str() {
                "time" => cfg.time = super::parse_duration(v)?,
                "startup" if v.trim() == "0" => cfg.startup = Duration::ZERO,
                "startup" => cfg.startup = super::parse_duration(v)?,
                _ => {
                    return Err(format!(
                        "unknown setting `{k}` of `cmd`: the settings are time and startup"
                    ));
                }
            }
            seen.push(k);
        }
        Ok(cfg)
    }

    /// The folder of the logs of its standard error: [`CommandConfig::log_dir`], or a folder
    /// `ludic-bots-PID` in the temporary folder.
    pub fn log_dir(&self) -> PathBuf {
        self.log_dir.clone().unwrap_or_else(|| {
            std::env::temp_dir().join(format!("ludic-bots-{}", std::process::id()))
        })
    }

    /// `cmd:python3 bot.py` (with its time and start-up time when not the defaults).
    pub fn describe(&self) -> String {
        let mut settings = vec![];
        if self.time != DEFAULT_TIME {
            settings.push(format!("time={}", duration_text(self.time)));
        }
        if self.startup != DEFAULT_STARTUP {
            settings.push(match self.startup.is_zero() {
                true => "startup=0".to_string(),
                false => format!("startup={}", duration_text(self.startup)),
            });
        }
        match settings.is_empty() {
            true => format!("cmd:{}", self.text),
            false => format!("cmd[{}]:{}", settings.join(","), self.text),
        }
    }

    /// Whether the program can be found (a path that is a file, or a name on `PATH`): the
    /// error says what is wrong, for the command line to refuse it before any game.
    pub fn check(&self) -> Result<(), String> {
        let prog = &self.argv[0];
        let found = if prog.contains('/') {
            Path::new(prog).is_file()
        } else {
            std::env::var_os("PATH")
                .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(prog).is_file()))
        };
        if found {
            Ok(())
        } else if prog.contains('/') {
            Err(format!("the agent's program `{prog}` is not a file"))
        } else {
            Err(format!("the agent's program `{prog}` is not found on PATH"))
        }
    }
}

fn duration_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// Splits a command line into words as a shell would, without a shell: blanks separate words,
/// `'…'` keeps everything literally, `"…"` keeps everything but `\"` and `\\`, and `\` outside
/// quotes keeps the next character.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = vec![];
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in the command `{s}`")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unterminated \" in the command `{s}`")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in the command `{s}`")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("a \\ ends the command `{s}`")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A line read from the program, or why there is none.
enum Line {
    Text(String),
    TooLong,
    /// its standard output closed (it exited, or closed it)
    Closed,
}

/// The running program.
struct Running {
    child: Child,
    /// lines to write, to the writer thread (dropped: its standard input is closed)
    to: Option<Sender<String>>,
    from: Receiver<Line>,
    log: PathBuf,
    /// its standard output closed
    closed: bool,
}

/// An external program as an agent (see the module's text).
pub struct CommandAgent {
    cfg: CommandConfig,
    run: Option<Running>,
    /// why it could not be started (said at its first decision)
    failed: Option<String>,
    /// the steps of the game so far: action ids and chance outcomes' numbers
    history: Vec<i64>,
    /// the players it decides for, the seed and the game's number (from `begin`)
    seat: Option<Seat>,
    /// whether the running program has been asked a decision (its first has the start-up time)
    asked: bool,
}

impl CommandAgent {
    pub fn new(cfg: CommandConfig) -> CommandAgent {
        CommandAgent {
            cfg,
            run: None,
            failed: None,
            history: vec![],
            seat: None,
            asked: false,
        }
    }

    /// The log of the program's standard error for this game, made (its folder).
    fn log_path(&self, g: &Game, seat: &Seat) -> PathBuf {
        let dir = self.cfg.log_dir();
        let _ = std::fs::create_dir_all(&dir);
        let who: Vec<&str> = seat.players.iter().map(|&p| g.player_name(p)).collect();
        dir.join(format!(
            "game-{}-{}.stderr.log",
            seat.index + 1,
            sanitize(&who.join("+"))
        ))
    }

    /// Starts the program and tells it the game.
    fn start(&mut self, g: &Game, seat: &Seat) {
        self.stop();
        self.failed = None;
        self.asked = false;
        let log = self.log_path(g, seat);
        let stderr = match std::fs::File::create(&log) {
            Ok(f) => Stdio::from(f),
            Err(_) => Stdio::null(),
        };
        let mut cmd = Command::new(&self.cfg.argv[0]);
        cmd.args(&self.cfg.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        // its own process group: Ctrl-C at the terminal is ludic's to handle (it stops the
        // program), not the program's
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                self.failed = Some(format!(
                    "could not be started: {}",
                    crate::output::error_text(&e)
                ));
                let _ = std::fs::remove_file(&log);
                return;
            }
        };
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            self.failed = Some("could not be started: no pipes".into());
            return;
        };
        let to = writer(stdin);
        let (tx, from) = mpsc::sync_channel(64);
        std::thread::spawn(move || reader(stdout, tx));
        let players: Vec<&str> = g.players().iter().map(String::as_str).collect();
        let you: Vec<&str> = seat.players.iter().map(|&p| g.player_name(p)).collect();
        let msg = json!({
            "type": "game",
            "protocol": PROTOCOL,
            "game": g.source_name(),
            "title": g.title(),
            "source_hash": g.source_hash(),
            "options": g.option_values(),
            "players": players,
            "sides": g.sides(),
            "you": you,
            "seed": seat.seed,
            "index": seat.index,
            "num_actions": g.num_actions(),
            "time_ms": self.cfg.time.as_millis() as u64,
        });
        let _ = to.send(msg.to_string());
        self.run = Some(Running {
            child,
            to: Some(to),
            from,
            log,
            closed: false,
        });
    }

    /// Tells the program `quit`, closes its input, gives it the grace period, then kills it;
    /// waits for it in any case. Its log is removed when empty.
    fn stop(&mut self) {
        let Some(mut r) = self.run.take() else { return };
        if let Some(to) = r.to.take() {
            let _ = to.send(json!({"type": "quit"}).to_string());
        }
        let t0 = Instant::now();
        loop {
            match r.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if t0.elapsed() < GRACE => std::thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = r.child.kill();
                    let _ = r.child.wait();
                    break;
                }
            }
        }
        if std::fs::metadata(&r.log).is_ok_and(|m| m.len() == 0) {
            let _ = std::fs::remove_file(&r.log);
        }
    }

    /// Sends a line to the program (lost when it is gone: its next answer says so).
    fn send(&mut self, v: Value) {
        if let Some(to) = self.run.as_ref().and_then(|r| r.to.as_ref()) {
            let _ = to.send(v.to_string());
        }
    }

    /// Why the program is gone, with its exit status and its log.
    fn gone(&mut self, what: &str) -> Forfeit {
        let Some(r) = self.run.as_mut() else {
            return Forfeit::new(what.to_string());
        };
        // (it closed its output: it has exited, or is about to)
        let t0 = Instant::now();
        let status = loop {
            match r.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if t0.elapsed() < Duration::from_millis(200) => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                _ => break None,
            }
        };
        let how = match status {
            Some(s) => match s.code() {
                Some(c) => format!("exited with code {c}"),
                None => format!("was killed ({s})"),
            },
            None => "closed its output".to_string(),
        };
        Forfeit::new(format!("{how} {what}{}", self.log_note()))
    }

    /// `; its standard error is in PATH` when the log is not empty.
    fn log_note(&self) -> String {
        match &self.run {
            Some(r) if std::fs::metadata(&r.log).is_ok_and(|m| m.len() > 0) => {
                format!(" (its standard error: {})", r.log.display())
            }
            _ => String::new(),
        }
    }

    /// The program's answer, read as a decision of `st`.
    fn read_answer(&self, g: &Game, st: &State, line: &str) -> Result<Decision, Forfeit> {
        let shown = crate::limits::shorten(line, 80);
        let by_id = |a: i64| -> Result<Decision, Forfeit> {
            u32::try_from(a)
                .ok()
                .and_then(|a| g.decision_of(st, a))
                .filter(|d| st.moves().contains(d))
                .ok_or_else(|| {
                    Forfeit::new(format!(
                        "answered `{shown}`, which is not the id of a legal decision"
                    ))
                })
        };
        let by_move = |m: &str| -> Result<Decision, Forfeit> {
            g.parse_decision(st, m).map_err(|why| {
                Forfeit::new(format!(
                    "answered `{shown}`, which is not a legal decision ({why})"
                ))
            })
        };
        let t = line.trim();
        if let Ok(a) = t.parse::<i64>() {
            return by_id(a);
        }
        if t.starts_with('{') {
            let v: Value = serde_json::from_str(t).map_err(|_| {
                Forfeit::new(format!("answered `{shown}`, which is not valid JSON"))
            })?;
            if let Some(a) = v.get("id").and_then(Value::as_i64) {
                return by_id(a);
            }
            if let Some(m) = v.get("move").and_then(Value::as_str) {
                return by_move(m);
            }
            return Err(Forfeit::new(format!(
                "answered `{shown}`, which has neither an `id` (a number) nor a `move` (a string)"
            )));
        }
        by_move(t)
    }
}

/// A file name's part from a player's name.
fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '+' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The writer thread: writes each line it is sent, until the channel closes (then the
/// program's input is closed) or a write fails (the program is gone).
fn writer(mut stdin: ChildStdin) -> Sender<String> {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in rx {
            if stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
    });
    tx
}

/// The reader thread: sends each line of the program's output, until it closes or a line
/// is longer than [`MAX_ANSWER_BYTES`] (then it stops reading).
fn reader(stdout: impl Read, tx: SyncSender<Line>) {
    let mut r = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // at most one byte more than allowed, to tell a line too long
        let n = (&mut r)
            .take(MAX_ANSWER_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf);
        match n {
            Ok(0) | Err(_) => {
                let _ = tx.send(Line::Closed);
                return;
            }
            Ok(_) if buf.len() > MAX_ANSWER_BYTES => {
                let _ = tx.send(Line::TooLong);
                return;
            }
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf).trim_end().to_string();
                if tx.send(Line::Text(text)).is_err() {
                    return;
                }
            }
        }
    }
}

impl Agent for CommandAgent {
    fn begin(&mut self, g: &Game, seat: &Seat) {
        self.history.clear();
        self.seat = Some(seat.clone());
        self.start(g, seat);
    }

    fn decide(
        &mut self,
        g: &Game,
        st: &State,
        _rng: &mut Xoshiro256PlusPlus,
        _progress: &mut dyn FnMut(Progress),
    ) -> Result<Thought, Forfeit> {
        if self.run.is_none() && self.failed.is_none() {
            // (not begun: a game of its own, for the player to move)
            let seat = Seat {
                players: vec![st.mover()],
                seed: 0,
                index: 0,
            };
            self.start(g, &seat);
        }
        if let Some(why) = &self.failed {
            return Err(Forfeit::new(why.clone()));
        }
        // lines it wrote unasked are not answers
        let mut closed = false;
        if let Some(r) = &mut self.run {
            for _ in 0..64 {
                match r.from.try_recv() {
                    Ok(Line::Text(_)) => {}
                    Ok(Line::TooLong) => {
                        return Err(Forfeit::new(format!(
                            "wrote a line longer than {} bytes",
                            MAX_ANSWER_BYTES
                        )));
                    }
                    Ok(Line::Closed) | Err(TryRecvError::Disconnected) => {
                        r.closed = true;
                        break;
                    }
                    Err(TryRecvError::Empty) => break,
                }
            }
            closed = r.closed;
        }
        if closed {
            return Err(self.gone("before its decision"));
        }
        let legal: Vec<Value> = g
            .legal_actions(st)
            .into_iter()
            .map(|a| json!({"id": a, "move": g.action_to_string(st, a)}))
            .collect();
        // the first decision of the program also has the time to start it
        let limit = match std::mem::replace(&mut self.asked, true) {
            false => self.cfg.time + self.cfg.startup,
            true => self.cfg.time,
        };
        self.send(json!({
            "type": "decide",
            "player": g.player_name(st.mover()),
            "state": g.observation_json(st),
            "history": self.history,
            "legal": legal,
            "time_left_ms": limit.as_millis() as u64,
        }));
        let t0 = Instant::now();
        let line = loop {
            let Some(r) = &mut self.run else {
                return Err(Forfeit::new("is not running"));
            };
            let left = limit.saturating_sub(t0.elapsed());
            if left.is_zero() {
                return Err(Forfeit::new(format!(
                    "answered nothing within {}{}",
                    duration_text(limit),
                    self.log_note()
                )));
            }
            // a stop of the whole program is looked at every 50 ms
            if crate::interrupt::requested() {
                return Err(Forfeit::new("was stopped"));
            }
            match r.from.recv_timeout(left.min(Duration::from_millis(50))) {
                Ok(Line::Text(l)) if l.trim().is_empty() => {}
                Ok(Line::Text(l)) => break l,
                Ok(Line::TooLong) => {
                    return Err(Forfeit::new(format!(
                        "answered a line longer than {MAX_ANSWER_BYTES} bytes"
                    )));
                }
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    r.closed = true;
                    return Err(self.gone("without answering"));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        let decision = self.read_answer(g, st, &line)?;
        Ok(Thought {
            decision,
            estimate: None,
        })
    }

    fn observe(&mut self, g: &Game, before: &State, event: Event) {
        let msg = match event {
            Event::Decision(d) => {
                let id = g.action_of(before, d);
                self.history.push(id.map_or(-1, i64::from));
                json!({
                    "type": "step",
                    "player": g.player_name(before.mover()),
                    "id": id,
                    "move": g.notation_of(before, d),
                })
            }
            Event::Chance(o) => {
                self.history.push(o);
                json!({
                    "type": "step",
                    "chance": o,
                    "outcome": g.outcome_name(before, o),
                })
            }
        };
        self.send(msg);
    }

    fn end(&mut self, g: &Game, last: &State, end: &GameEnd) {
        let returns: Vec<f64> = match end {
            GameEnd::Over(_) => g.returns(last),
            GameEnd::Forfeit(f) => (0..g.players().len())
                .map(|p| {
                    let side = g.side_of(Player(p as u8));
                    match end.winner(g) {
                        _ if side == f.side => -1.0,
                        Some(w) if w == side => 1.0,
                        _ => 0.0,
                    }
                })
                .collect(),
        };
        self.send(json!({
            "type": "end",
            "result": end.json(g),
            "returns": returns,
        }));
        self.stop();
    }

    fn describe(&self) -> String {
        self.cfg.describe()
    }
}

impl Drop for CommandAgent {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_split_as_a_shell_would() {
        assert_eq!(
            split_command("python3 my_bot.py").unwrap(),
            vec!["python3", "my_bot.py"]
        );
        assert_eq!(
            split_command(r#"./bot --name "my bot" 'a "b"' c\ d"#).unwrap(),
            vec!["./bot", "--name", "my bot", "a \"b\"", "c d"]
        );
        assert_eq!(split_command(r#""a\"b""#).unwrap(), vec!["a\"b"]);
        assert_eq!(split_command("''").unwrap(), vec![""]);
        assert!(split_command("'open").is_err());
        assert!(split_command("\"open").is_err());
        assert!(split_command("a\\").is_err());
    }

    #[test]
    fn specs_with_settings() {
        let c = CommandConfig::parse(":python3 bot.py").unwrap();
        assert_eq!(c.argv, vec!["python3", "bot.py"]);
        assert_eq!(c.time, DEFAULT_TIME);
        assert_eq!(c.describe(), "cmd:python3 bot.py");
        let c = CommandConfig::parse("[time=2s]:./bot -v").unwrap();
        assert_eq!(c.time, Duration::from_secs(2));
        assert_eq!(c.describe(), "cmd[time=2s]:./bot -v");
        assert_eq!(c.startup, DEFAULT_STARTUP);
        let c = CommandConfig::parse("[time=300ms,startup=0]:bot").unwrap();
        assert_eq!(c.startup, Duration::ZERO);
        assert_eq!(c.describe(), "cmd[time=300ms,startup=0]:bot");
        let c = CommandConfig::parse("[startup=30s]:bot").unwrap();
        assert_eq!((c.time, c.startup), (DEFAULT_TIME, Duration::from_secs(30)));
        assert_eq!(c.describe(), "cmd[startup=30s]:bot");
        for bad in [
            "[startup=-1s]:bot",
            "[startup=1s,startup=2s]:bot",
            ":",
            ": ",
            "[time=2s]",
            "[depth=2]:bot",
            "[time=0s]:bot",
            "x",
            "[time]:b",
        ] {
            assert!(CommandConfig::parse(bad).is_err(), "{bad}");
        }
    }
}
