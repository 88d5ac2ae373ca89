//! SIGINT and SIGTERM at random times (issue 22, point 5): `simulate`, `match` and `compare`,
//! with random agents and a cheap MCTS on a built-in game, in JSON and CSV, are sent a
//! signal at a time drawn by the test's seeded generator (very early, before the handler is
//! there; during the games; about when they end; after the end) and each run must:
//!
//! - end within a few seconds of the signal;
//! - exit 0 with the complete result when it ended before the signal (or the signal came
//!   after the last game: then it says so on standard error, unless the signal came as it
//!   exited, late in the run; a signal in the first quarter of the run is never lost), 130
//!   after SIGINT and 143 after SIGTERM with a partial result, or
//!   die by the signal itself only when it came before the program caught signals (seen in
//!   /proc/PID/status when it was sent), printing nothing;
//! - print output that parses (JSON, or CSV with its `# PARTIAL` comment line) and says it
//!   is partial exactly when it was stopped before the end;
//! - count exactly the games finished: with `-j 1` a partial result of k games equals a fresh
//!   run of `-n k` (apart from times); a complete one equals the uninterrupted run; with
//!   `-j 2` the totals agree with one another; `match --record-dir` leaves one complete record
//!   for each game counted.
//!
//! Trials per command and signal: `LUDIC_SIGNAL_TRIALS` (default 8); the generator's seed:
//! `LUDIC_SIGNAL_SEED`. Each test prints its figures (`--nocapture` shows them).

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ludic");
/// The longest a run may take to end after its signal (the machine may be loaded).
const STOP_WITHIN: Duration = Duration::from_secs(5);

fn trials() -> usize {
    std::env::var("LUDIC_SIGNAL_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8)
}

fn seed(k: u64) -> u64 {
    std::env::var("LUDIC_SIGNAL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(22)
        ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmd {
    Simulate,
    Match,
    Compare,
}

/// One run to try: a command with its settings.
#[derive(Clone, Debug)]
struct Case {
    cmd: Cmd,
    /// which of the command's settings (random games, a cheap MCTS)
    kind: usize,
    n: u64,
    jobs: u32,
    csv: bool,
    record_dir: Option<PathBuf>,
}

impl Case {
    /// The settings of the game and the agents (what a fresh run of `simulate` repeats).
    fn agents(&self) -> Vec<&'static str> {
        match (self.cmd, self.kind) {
            (Cmd::Simulate, 0) | (Cmd::Compare, 0) => vec![],
            (Cmd::Simulate, _) | (Cmd::Compare, _) => {
                vec!["--agent", "mcts:playouts=24", "--agent", "random"]
            }
            (Cmd::Match, 0) => vec!["--agent", "random", "--agent", "random"],
            (Cmd::Match, _) => vec!["--agent", "mcts:playouts=60", "--agent", "random"],
        }
    }

    fn args(&self, n: u64) -> Vec<String> {
        let mut a: Vec<String> = match self.cmd {
            Cmd::Simulate => vec!["simulate".into(), "puluc".into()],
            Cmd::Match => vec!["match".into(), "puluc".into()],
            Cmd::Compare => [
                "compare",
                "puluc",
                "--variant",
                "default",
                "--variant",
                "max_turns=300",
            ]
            .map(String::from)
            .to_vec(),
        };
        a.extend(self.agents().iter().map(|s| s.to_string()));
        a.extend(
            [
                "-n",
                &n.to_string(),
                "-j",
                &self.jobs.to_string(),
                "--seed",
                "7",
            ]
            .map(String::from),
        );
        a.extend([
            "--format".to_string(),
            if self.csv { "csv" } else { "json" }.into(),
        ]);
        if let Some(d) = &self.record_dir {
            a.extend(["--record-dir".to_string(), d.display().to_string()]);
        }
        a
    }
}

/// How a run ended.
struct Ended {
    out: Output,
    /// the signal was sent (the program had not ended before)
    sent: bool,
    /// the program caught the signal when it was sent
    caught: bool,
    /// from the signal to the end
    stop: Duration,
}

/// The program, with SIGINT, SIGTERM and SIGHUP as a terminal's shell leaves them (the
/// system's default), whatever this test was started with (a shell that starts a command in
/// the background without job control ignores SIGINT in it; ludic keeps SIGHUP ignored when
/// it starts so).
fn ludic() -> Command {
    let mut c = Command::new(BIN);
    use std::os::unix::process::CommandExt;
    // SAFETY: signal(2) is async-signal-safe, the only thing done between fork and exec.
    unsafe {
        c.pre_exec(|| {
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(sig, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    c
}

/// Whether process `pid` has a handler for `sig` (its SigCgt mask).
fn catches(pid: u32, sig: i32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .is_some_and(|m| m & (1 << (sig - 1)) != 0)
}

/// Runs `args`, sends `sig` after `delay` unless the program has ended, and waits for its end
/// (at most STOP_WITHIN after the signal; a program still running then is killed).
fn run_signalled(args: &[String], delay: Duration, sig: i32) -> Result<Ended, String> {
    let child = ludic()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run ludic: {e}"))?;
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let ended = |r: std::io::Result<Output>| r.map_err(|e| format!("wait: {e}"));
    // Before the signal: the program may end by itself.
    match rx.recv_timeout(delay) {
        Ok(r) => {
            let _ = waiter.join();
            return Ok(Ended {
                out: ended(r)?,
                sent: false,
                caught: false,
                stop: Duration::ZERO,
            });
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {}
        Err(e) => return Err(format!("waiter: {e}")),
    }
    let caught = catches(pid, sig);
    // SAFETY: kill(2) on the child's pid, which is not reaped before the waiter receives
    // its status (and that has not happened: the channel was empty).
    let sent = unsafe { libc::kill(pid as i32, sig) } == 0;
    let t0 = Instant::now();
    match rx.recv_timeout(STOP_WITHIN) {
        Ok(r) => {
            let _ = waiter.join();
            Ok(Ended {
                out: ended(r)?,
                sent,
                caught,
                stop: t0.elapsed(),
            })
        }
        Err(_) => {
            // SAFETY: as above.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            let _ = waiter.join();
            Err(format!(
                "still running {STOP_WITHIN:?} after signal {sig}: {}",
                args.join(" ")
            ))
        }
    }
}

/// Whether the program running `args` comes to catch `sig` before it ends (its SigCgt mask
/// polled every millisecond): a run killed by a signal is accepted only when it came before
/// that, so the program must catch it at some point.
fn comes_to_catch(args: &[String], sig: i32) -> bool {
    let mut child = ludic()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run ludic");
    let mut seen = false;
    while !seen && matches!(child.try_wait(), Ok(None)) {
        seen = catches(child.id(), sig);
        std::thread::sleep(Duration::from_millis(1));
    }
    let _ = child.kill();
    let _ = child.wait();
    seen
}

fn run_plain(args: &[String]) -> Output {
    ludic()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ludic")
}

/// Removes the fields that are times (or say how the games were run) from a result, and
/// those that differ between a partial result of k games and a run of k games.
fn strip(v: &mut Value) {
    const GONE: [&str; 9] = [
        "seconds",
        "thinking_seconds",
        "moves_per_second",
        "playouts_per_second",
        "threads",
        "jobs",
        "requested",
        "partial",
        "playout_ranges",
    ];
    match v {
        Value::Object(m) => {
            for k in GONE {
                m.remove(k);
            }
            for x in m.values_mut() {
                strip(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strip),
        _ => {}
    }
}

/// What a result says: partial or not, and the games of each column (one column for
/// simulate and match).
#[derive(Debug)]
struct Said {
    partial: bool,
    games: Vec<u64>,
}

fn num(v: &Value, what: &str) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("`{what}` is not a count: {v}"))
}

/// Reads a study's JSON and checks that its totals agree.
fn study_json(v: &Value, n: u64) -> Result<(bool, u64), String> {
    let partial = v["partial"].as_bool().ok_or("no `partial`")?;
    let games = num(&v["playouts"], "playouts")?;
    if num(&v["requested"], "requested")? != n {
        return Err(format!("requested {} not {n}", v["requested"]));
    }
    let wins: u64 = v["stats"]["wins"]
        .as_array()
        .ok_or("no stats.wins")?
        .iter()
        .map(|w| w.as_u64().unwrap_or(u64::MAX / 4))
        .sum();
    let draws = num(&v["stats"]["draws"], "stats.draws")?;
    if wins + draws != games || num(&v["stats"]["games"], "stats.games")? != games {
        return Err(format!("wins {wins} + draws {draws} != games {games}"));
    }
    if partial != (games < n) {
        return Err(format!("partial {partial} with {games} of {n} games"));
    }
    if partial != v["playout_ranges"].is_null() {
        return Err("playout_ranges and partial disagree".into());
    }
    Ok((partial, games))
}

/// Reads a CSV result: its `# PARTIAL` line (k of n games, for each column stopped), its
/// header and rows.
fn csv(text: &str, header: &str) -> Result<(Option<String>, Vec<String>), String> {
    let mut lines = text.lines();
    let mut first = lines.next().ok_or("empty CSV")?;
    // one `# PARTIAL` line: `k of n games` (simulate); or one per column stopped (compare):
    // `column NAME: k of n games`, read as `NAME k of n games` and joined with `; `
    let mut stopped = vec![];
    while let Some(c) = first.strip_prefix("# PARTIAL: ") {
        stopped.push(match c.strip_prefix("column ").and_then(|c| c.rsplit_once(": ")) {
            Some((name, counts)) => format!("{name} {counts}"),
            None => c.to_string(),
        });
        first = lines.next().ok_or("no header")?;
    }
    let comment = (!stopped.is_empty()).then(|| stopped.join("; "));
    if first != header {
        return Err(format!("header `{first}`"));
    }
    let rows: Vec<String> = lines.map(String::from).collect();
    let fields = header.split(',').count();
    if rows.is_empty() {
        return Err("no rows".into());
    }
    for r in &rows {
        // (values are numbers and names without commas here)
        if r.split(',').count() != fields || r.starts_with('#') {
            return Err(format!("row `{r}`"));
        }
    }
    Ok((comment, rows))
}

/// `k of n games` in a `# PARTIAL` line, each column stopped (`NAME k of n games` in compare).
fn partial_counts(comment: &str) -> Result<Vec<(String, u64, u64)>, String> {
    comment
        .split("; ")
        .map(|part| {
            let w: Vec<&str> = part.split(' ').collect();
            match w.as_slice() {
                [name @ .., k, "of", n, "games"] => Ok((
                    name.join(" "),
                    k.parse().map_err(|_| format!("`{part}`"))?,
                    n.parse().map_err(|_| format!("`{part}`"))?,
                )),
                _ => Err(format!("`{part}`")),
            }
        })
        .collect()
}

/// Parses and checks a result; what it says.
fn read(case: &Case, stdout: &[u8]) -> Result<Said, String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "output not UTF-8")?;
    let n = case.n;
    match (case.cmd, case.csv) {
        (Cmd::Simulate, false) => {
            let v: Value = serde_json::from_str(text).map_err(|e| format!("JSON: {e}"))?;
            let (partial, games) = study_json(&v, n)?;
            Ok(Said {
                partial,
                games: vec![games],
            })
        }
        (Cmd::Simulate, true) => {
            let (comment, _) = csv(text, "metric,value,low,high")?;
            match comment {
                None => Ok(Said {
                    partial: false,
                    games: vec![n],
                }),
                Some(c) => {
                    let [(_, k, of)] = partial_counts(&c)?[..] else {
                        return Err(format!("`# PARTIAL: {c}`"));
                    };
                    if of != n || k >= n {
                        return Err(format!("`# PARTIAL: {c}` of -n {n}"));
                    }
                    Ok(Said {
                        partial: true,
                        games: vec![k],
                    })
                }
            }
        }
        (Cmd::Match, _) => {
            let v: Value = serde_json::from_str(text).map_err(|e| format!("JSON: {e}"))?;
            let partial = v["partial"].as_bool().ok_or("no `partial`")?;
            let games = num(&v["games"], "games")?;
            if num(&v["requested"], "requested")? != n || partial != (games < n) {
                return Err(format!("partial {partial}, {games} games of {n}"));
            }
            let wdl = |a: &Value| -> Result<[u64; 3], String> {
                Ok([
                    num(&a["wins"], "wins")?,
                    num(&a["draws"], "draws")?,
                    num(&a["losses"], "losses")?,
                ])
            };
            let (a, b) = (wdl(&v["agents"][0])?, wdl(&v["agents"][1])?);
            if a.iter().sum::<u64>() != games || a != [b[2], b[1], b[0]] {
                return Err(format!("A {a:?}, B {b:?}, {games} games"));
            }
            let ended: u64 = v["ended_by"]
                .as_object()
                .ok_or("no ended_by")?
                .values()
                .map(|c| c.as_u64().unwrap_or(u64::MAX / 4))
                .sum();
            let by_side: u64 = v["agents"][0]["by_side"]
                .as_object()
                .ok_or("no by_side")?
                .values()
                .map(|w| ["wins", "draws", "losses"].map(|k| w[k].as_u64().unwrap_or(0)))
                .map(|x| x.iter().sum::<u64>())
                .sum();
            if ended != games || by_side != games {
                return Err(format!(
                    "ended_by {ended}, by_side {by_side}, games {games}"
                ));
            }
            Ok(Said {
                partial,
                games: vec![games],
            })
        }
        (Cmd::Compare, false) => {
            let v: Value = serde_json::from_str(text).map_err(|e| format!("JSON: {e}"))?;
            let partial = v["partial"].as_bool().ok_or("no `partial`")?;
            let cols = v["columns"].as_array().ok_or("no columns")?;
            if cols.len() != 2 {
                return Err(format!("{} columns", cols.len()));
            }
            let mut games = vec![];
            for c in cols {
                games.push(study_json(c, n)?.1);
            }
            if partial != games.iter().any(|&k| k < n) {
                return Err(format!("partial {partial} with columns of {games:?}"));
            }
            Ok(Said { partial, games })
        }
        (Cmd::Compare, true) => {
            let (comment, rows) = csv(text, "column,metric,value,low,high,p_value,significant")?;
            let names = ["default", "max_turns=300"];
            for name in names {
                if !rows.iter().any(|r| r.starts_with(&format!("{name},"))) {
                    return Err(format!("no rows of column {name}"));
                }
            }
            let mut games = vec![n, n];
            if let Some(c) = &comment {
                for (name, k, of) in partial_counts(c)? {
                    let j = names
                        .iter()
                        .position(|&x| x == name)
                        .ok_or(format!("column `{name}`"))?;
                    if of != n || k >= n {
                        return Err(format!("`# PARTIAL: {c}`"));
                    }
                    games[j] = k;
                }
            }
            Ok(Said {
                partial: comment.is_some(),
                games,
            })
        }
    }
}

/// The columns of a comparison are played one after the other: full ones, at most one
/// stopped, then none.
fn columns_in_order(games: &[u64], n: u64) -> bool {
    let stopped = games.iter().position(|&k| k < n);
    match stopped {
        None => true,
        Some(j) => games[j + 1..].iter().all(|&k| k == 0),
    }
}

/// Checks that the result of `case` stopped after `games` equals a fresh run of that many
/// games (-j 1: the games finished are the first ones), apart from times.
fn same_as_fresh(case: &Case, stdout: &[u8], said: &Said) -> Result<(), String> {
    match case.cmd {
        Cmd::Simulate | Cmd::Match => {
            let k = said.games[0];
            if k == 0 {
                return Ok(());
            }
            let fresh_case = Case {
                record_dir: None,
                ..case.clone()
            };
            let fresh = run_plain(&fresh_case.args(k));
            if fresh.status.code() != Some(0) {
                return Err(format!("fresh run of {k}: {:?}", fresh.status));
            }
            if case.csv {
                let got = String::from_utf8_lossy(stdout);
                let body = got.split_once('\n').map_or("", |x| x.1);
                if body != String::from_utf8_lossy(&fresh.stdout) {
                    return Err(format!("CSV of the {k} games differs from a run of -n {k}"));
                }
                return Ok(());
            }
            let (mut a, mut b): (Value, Value) = (
                serde_json::from_slice(stdout).map_err(|e| e.to_string())?,
                serde_json::from_slice(&fresh.stdout).map_err(|e| e.to_string())?,
            );
            strip(&mut a);
            strip(&mut b);
            if a != b {
                return Err(format!("the {k} games differ from a run of -n {k}"));
            }
            Ok(())
        }
        Cmd::Compare => {
            // the column stopped against a fresh simulate of its games
            let Some(j) = said.games.iter().position(|&k| k < case.n) else {
                return Ok(());
            };
            let k = said.games[j];
            if k == 0 || case.csv {
                return Ok(());
            }
            let mut args: Vec<String> = ["simulate", "puluc"].map(String::from).to_vec();
            if j == 1 {
                args.extend(["-o".to_string(), "max_turns=300".into()]);
            }
            args.extend(case.agents().iter().map(|s| s.to_string()));
            args.extend(
                [
                    "-n",
                    &k.to_string(),
                    "-j",
                    "1",
                    "--seed",
                    "7",
                    "--format",
                    "json",
                ]
                .map(String::from),
            );
            let fresh = run_plain(&args);
            let v: Value = serde_json::from_slice(stdout).map_err(|e| e.to_string())?;
            let mut a = v["columns"][j].clone();
            if let Value::Object(m) = &mut a {
                m.remove("column");
            }
            let mut b: Value = serde_json::from_slice(&fresh.stdout).map_err(|e| e.to_string())?;
            strip(&mut a);
            strip(&mut b);
            if a != b {
                return Err(format!(
                    "column {j}'s {k} games differ from a simulate of -n {k}"
                ));
            }
            Ok(())
        }
    }
}

/// The complete records in a match's folder: their game numbers.
fn complete_records(dir: &Path) -> Result<Vec<u64>, String> {
    let mut found = vec![];
    for e in std::fs::read_dir(dir).map_err(|e| e.to_string())? {
        let p = e.map_err(|e| e.to_string())?.path();
        let text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let Some(i) = name
            .strip_prefix("game-")
            .and_then(|s| s.strip_suffix(".json"))
            .and_then(|s| s.parse::<u64>().ok())
        else {
            return Err(format!("a file `{name}` in the records' folder"));
        };
        let v: Value =
            serde_json::from_str(&text).map_err(|e| format!("record {name} is not JSON: {e}"))?;
        if v["result"].is_null() || v["steps"].as_array().is_none_or(|s| s.is_empty()) {
            return Err(format!("record {name} is not complete"));
        }
        found.push(i);
    }
    found.sort();
    Ok(found)
}

/// The figures of a command's trials.
#[derive(Default)]
struct Figures {
    outcomes: BTreeMap<String, u64>,
    failures: Vec<String>,
    longest_stop: Duration,
    fresh_checks: u64,
}

/// One trial: runs the case with a signal after `delay`, checks all it must; the kind of
/// outcome, or what went wrong.
fn trial(
    case: &Case,
    sig: i32,
    delay: Duration,
    (complete, took): (&Value, Duration),
    figures: &mut Figures,
) -> Result<String, String> {
    if let Some(d) = &case.record_dir {
        let _ = std::fs::remove_dir_all(d);
    }
    let ended = run_signalled(&case.args(case.n), delay, sig)?;
    let out = &ended.out;
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    figures.longest_stop = figures.longest_stop.max(ended.stop);
    use std::os::unix::process::ExitStatusExt;
    if let Some(s) = out.status.signal() {
        // only a signal sent before the program caught it may end it so, with nothing said
        if !ended.sent || ended.caught || s != sig || !out.stdout.is_empty() {
            return Err(format!(
                "killed by signal {s} (sent {}, caught when sent {}), {} bytes out; {err}",
                ended.sent,
                ended.caught,
                out.stdout.len()
            ));
        }
        return Ok("killed before catching signals".into());
    }
    let code = out.status.code().ok_or("no exit code")?;
    let said = read(case, &out.stdout).map_err(|e| format!("{e}; stderr: {err}"))?;
    if case.cmd == Cmd::Compare && !columns_in_order(&said.games, case.n) {
        return Err(format!("columns {:?}", said.games));
    }
    let kind = match (code, said.partial) {
        (0, false) => {
            // complete: the same as the run without a signal
            let mut a: Value = if case.csv {
                Value::String(String::from_utf8_lossy(&out.stdout).to_string())
            } else {
                serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?
            };
            let mut b = complete.clone();
            strip(&mut a);
            strip(&mut b);
            if a != b {
                return Err("a complete result differs from the run without a signal".into());
            }
            if !ended.sent {
                "complete (ended before the signal)"
            } else if err.contains("came after the work was done") {
                "complete (signal after the last game, said so)"
            } else if !ended.caught || delay >= took / (4 * case.jobs) {
                // (after the program's last look at its signals, as it exits: late in the
                // run, `took` being that of one thread)
                "complete (signal as it exited)"
            } else {
                return Err(format!(
                    "signal lost: complete with no word of the signal, sent after {delay:?} of a run of {took:?}; {err}"
                ));
            }
        }
        (c, true) if c == 128 + sig && ended.sent => {
            let name = if sig == libc::SIGINT {
                "SIGINT"
            } else {
                "SIGTERM"
            };
            if !err.contains("interrupted by") || !err.contains(name) {
                return Err(format!("stderr does not say what stopped it: {err}"));
            }
            if case.jobs == 1 {
                same_as_fresh(case, &out.stdout, &said)?;
                figures.fresh_checks += 1;
            }
            if said.games.iter().sum::<u64>() == 0 {
                "partial, no game finished"
            } else {
                "partial"
            }
        }
        (c, p) => {
            return Err(format!(
                "exit {c} with partial {p} (signal {sig} sent: {}); stderr: {err}",
                ended.sent
            ));
        }
    };
    if let Some(d) = &case.record_dir {
        let records = complete_records(d)?;
        let games = said.games[0];
        if records.len() as u64 != games {
            return Err(format!("{} records for {games} games", records.len()));
        }
        if case.jobs == 1 && records != (1..=games).collect::<Vec<_>>() {
            return Err(format!(
                "records {records:?} are not the first {games} games"
            ));
        }
        let _ = std::fs::remove_dir_all(d);
    }
    Ok(kind.to_string())
}

/// The trials of one command: `trials()` with SIGINT and as many with SIGTERM.
fn trials_of(cmd: Cmd, k: u64) {
    let t0 = Instant::now();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed(k));
    let kinds = 2;
    let n_of = |kind: usize| -> u64 {
        match (cmd, kind) {
            (Cmd::Simulate, 0) => 6000,
            (Cmd::Simulate, _) => 24,
            (Cmd::Match, 0) => 3000,
            (Cmd::Match, _) => 10,
            (Cmd::Compare, 0) => 3000,
            (Cmd::Compare, _) => 12,
        }
    };
    // The uninterrupted runs: how long they take, and their results (JSON and CSV).
    let mut complete = BTreeMap::new();
    let mut took = vec![];
    for kind in 0..kinds {
        for csv in [false, true] {
            if csv && cmd == Cmd::Match {
                continue;
            }
            let case = Case {
                cmd,
                kind,
                n: n_of(kind),
                jobs: 1,
                csv,
                record_dir: None,
            };
            let t = Instant::now();
            let out = run_plain(&case.args(case.n));
            assert_eq!(out.status.code(), Some(0), "{:?}", case.args(case.n));
            let v = if csv {
                Value::String(String::from_utf8_lossy(&out.stdout).to_string())
            } else {
                serde_json::from_slice(&out.stdout).expect("JSON")
            };
            let said = read(&case, &out.stdout).expect("the complete run reads");
            assert!(!said.partial, "{:?}", case.args(case.n));
            complete.insert((kind, csv), v);
            if !csv {
                took.push(t.elapsed());
            }
        }
    }
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let case = Case {
            cmd,
            kind: 1,
            n: n_of(1),
            jobs: 1,
            csv: false,
            record_dir: None,
        };
        assert!(
            comes_to_catch(&case.args(case.n), sig),
            "{cmd:?} never catches signal {sig}"
        );
    }
    let mut figures = Figures::default();
    let mut runs = 0;
    let records = std::env::temp_dir().join(format!("ludic-signals-{}-{k}", std::process::id()));
    for sig in [libc::SIGINT, libc::SIGTERM] {
        for t in 0..trials() {
            let kind = rng.random_range(0..kinds);
            let csv = cmd != Cmd::Match && rng.random_range(0..2) == 1;
            let jobs = if rng.random_range(0..3) == 0 { 2 } else { 1 };
            let record_dir =
                (cmd == Cmd::Match && rng.random_range(0..2) == 1).then(|| records.clone());
            let case = Case {
                cmd,
                kind,
                n: n_of(kind),
                jobs,
                csv,
                record_dir,
            };
            // when: very early (before the handler, or before the first game ends), during
            // the games, about their end, after it
            let d = took[kind].as_secs_f64();
            let at = match t % 8 {
                0 => rng.random_range(0.0..0.004),
                1 => rng.random_range(0.004..0.05),
                2 => d * rng.random_range(1.5..2.5),
                3 => d * rng.random_range(0.8..1.2),
                _ => d * rng.random_range(0.0..1.0),
            };
            let delay = Duration::from_secs_f64(at);
            runs += 1;
            let calibrated = (&complete[&(kind, csv)], took[kind]);
            match trial(&case, sig, delay, calibrated, &mut figures) {
                Ok(kind) => {
                    *figures
                        .outcomes
                        .entry(format!("{sig}: {kind}"))
                        .or_default() += 1
                }
                Err(e) => figures.failures.push(format!(
                    "{:?} signal {sig} after {delay:?}: {e}",
                    case.args(case.n)
                )),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&records);
    eprintln!(
        "{cmd:?}: {runs} trials ({} SIGINT, {} SIGTERM; signal {} = SIGINT, {} = SIGTERM) in {:.1} s; outcomes {:?}; {} partial results equal to fresh runs; longest stop {:?}; {} failures",
        trials(),
        trials(),
        libc::SIGINT,
        libc::SIGTERM,
        t0.elapsed().as_secs_f64(),
        figures.outcomes,
        figures.fresh_checks,
        figures.longest_stop,
        figures.failures.len()
    );
    assert!(
        figures.failures.is_empty(),
        "{} of {runs} trials failed:\n{}",
        figures.failures.len(),
        figures.failures.join("\n")
    );
}

#[test]
fn simulate_under_sigint_and_sigterm_at_random_times() {
    trials_of(Cmd::Simulate, 1);
}

#[test]
fn match_under_sigint_and_sigterm_at_random_times() {
    trials_of(Cmd::Match, 2);
}

#[test]
fn compare_under_sigint_and_sigterm_at_random_times() {
    trials_of(Cmd::Compare, 3);
}

/// Starts `args`, waits until the program catches `sig` and `after` more, sends it: the
/// output and the time from the signal to the end.
fn stop_when_caught(args: &[&str], sig: i32, after: Duration) -> (Output, Duration) {
    let child = ludic()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ludic");
    let pid = child.id();
    let t = Instant::now();
    while !catches(pid, sig) {
        assert!(t.elapsed() < Duration::from_secs(20), "never catches {sig}");
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(after);
    // SAFETY: kill(2) on the child's pid, not reaped yet (wait_with_output comes after).
    assert_eq!(unsafe { libc::kill(pid as i32, sig) }, 0);
    let t0 = Instant::now();
    let out = child.wait_with_output().expect("wait");
    (out, t0.elapsed())
}

#[test]
fn searches_of_ten_seconds_stop_within_a_second_and_their_games_are_dropped() {
    let (out, took) = stop_when_caught(
        &[
            "simulate",
            "puluc",
            "--agent",
            "mcts:time=10s",
            "-n",
            "4",
            "-j",
            "2",
            "--format",
            "json",
        ],
        libc::SIGINT,
        Duration::from_millis(500),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(took < Duration::from_secs(1), "{took:?}; {err}");
    assert_eq!(out.status.code(), Some(130), "{err}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (v["partial"].as_bool(), v["playouts"].as_u64()),
        (Some(true), Some(0))
    );
    assert!(
        err.contains("stopping on Ctrl-C (SIGINT): the games in progress are dropped"),
        "{err}"
    );
    assert!(err.contains("2 games in progress were dropped"), "{err}");

    let (out, took) = stop_when_caught(
        &[
            "match",
            "puluc",
            "--agent",
            "mcts:time=10s",
            "--agent",
            "mcts:time=10s",
            "-n",
            "3",
            "-j",
            "1",
            "--format",
            "json",
        ],
        libc::SIGTERM,
        Duration::from_millis(500),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(took < Duration::from_secs(1), "{took:?}; {err}");
    assert_eq!(out.status.code(), Some(143), "{err}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (v["partial"].as_bool(), v["games"].as_u64()),
        (Some(true), Some(0))
    );
    assert!(err.contains("1 game in progress was dropped"), "{err}");
}

#[test]
fn perft_stopped_prints_the_depths_done_and_the_one_stopped_marked_partial() {
    let big = [
        "perft",
        "tuknanavuhpi",
        "12",
        "--max-positions",
        "100000000000",
        "--max-work",
        "100000000000000",
    ];
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let mut args = big.to_vec();
        args.extend(["--format", "json"]);
        let (out, took) = stop_when_caught(&args, sig, Duration::from_millis(300));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(took < Duration::from_secs(1), "{took:?}; {err}");
        assert_eq!(out.status.code(), Some(code), "{err}");
        let rows: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON");
        let (last, done) = rows.split_last().expect("a row");
        assert_eq!(last["partial"], true, "{last}");
        assert!(
            last["count"].is_null() && last["counted"].is_u64(),
            "{last}"
        );
        assert_eq!(last["depth"].as_u64(), Some(done.len() as u64 + 1));
        for (d, r) in done.iter().enumerate() {
            assert_eq!(r["depth"].as_u64(), Some(d as u64 + 1));
            assert!(r["count"].is_u64() && r["partial"].is_null(), "{r}");
        }
        assert!(err.contains("interrupted by"), "{err}");
    }
    let (out, _) = stop_when_caught(&big, libc::SIGINT, Duration::from_millis(300));
    assert_eq!(out.status.code(), Some(130));
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.contains("PARTIAL: stopped by Ctrl-C (SIGINT)") && last.contains("not the total"),
        "{text}"
    );
}

#[test]
fn sighup_ignored_at_the_start_stays_ignored_as_nohup_means_and_sigint_is_caught() {
    let mut c = Command::new(BIN);
    use std::os::unix::process::CommandExt;
    // SAFETY: signal(2) is async-signal-safe, the only thing done between fork and exec.
    unsafe {
        c.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = c
        .args([
            "simulate", "puluc", "-n", "3000", "-j", "1", "--format", "json",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ludic");
    let pid = child.id();
    // once it catches SIGTERM, its handlers are in place: SIGHUP is not among them
    let t = Instant::now();
    while !catches(pid, libc::SIGTERM) {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "never catches SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(!catches(pid, libc::SIGHUP));
    // (SIGINT, ignored in a shell's background command, is caught all the same)
    assert!(catches(pid, libc::SIGINT));
    // SAFETY: kill(2) on the child's pid, not reaped yet (wait_with_output comes after).
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGHUP) }, 0);
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (v["partial"].as_bool(), v["playouts"].as_u64()),
        (Some(false), Some(3000))
    );
}
