//! A study's result ([`Study`]: what was played and its statistics) and its three outputs: a
//! table, JSON (which `ludic merge` reads back) and CSV.

use super::metrics::{Metric, Stats};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The `format` of a study's JSON.
pub const FORMAT: &str = "ludic-study-1";

/// Keys of a study's JSON that depend on the machine, not on the games (left out when results
/// are compared).
pub const TIMING_KEYS: [&str; 4] = [
    "seconds",
    "threads",
    "playouts_per_second",
    "moves_per_second",
];

/// Output of the study commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Table,
    Json,
    Csv,
}

/// What was played, and its statistics.
#[derive(Clone, Debug)]
pub struct Study {
    /// the game's title
    pub game: String,
    pub source_hash: String,
    pub options: BTreeMap<String, String>,
    pub sides: Vec<String>,
    /// whether the game has rounds (a `between rounds` program)
    pub rounds_game: bool,
    pub seed: u64,
    /// the agents (descriptions; none: random playouts)
    pub agents: Vec<String>,
    /// every metric (false: quick)
    pub full: bool,
    /// games asked for (-n), of which these ranges of indices were played (none when partial)
    pub requested: u64,
    pub ranges: Option<Vec<[u64; 2]>>,
    pub partial: bool,
    pub stats: Stats,
    pub seconds: f64,
    pub threads: Option<usize>,
}

fn num(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

impl Study {
    /// What plays: `random playouts`, `games of AGENT against itself`, `games of A against B`.
    pub fn what(&self) -> String {
        match self.agents.as_slice() {
            [] => "random playouts".into(),
            [a] => format!("games of {a} against itself"),
            [a, b] => format!("games of A = {a} against B = {b}, seats alternated"),
            _ => "games".into(),
        }
    }

    pub fn metrics(&self) -> Vec<Metric> {
        self.stats.metrics(&self.sides, &self.agents)
    }

    /// The JSON of the study (keys documented in the README).
    pub fn to_json(&self) -> Value {
        let s = &self.stats;
        let d = s.decisions.moments();
        let r = s.rounds.moments();
        let wins: BTreeMap<&str, u64> = self
            .sides
            .iter()
            .map(String::as_str)
            .zip(s.wins.iter().copied())
            .collect();
        let metrics: serde_json::Map<String, Value> = self
            .metrics()
            .into_iter()
            .map(|m| {
                let (lo, hi) = m.ci.unwrap_or((f64::NAN, f64::NAN));
                (
                    m.key,
                    json!({"value": num(m.value), "low": num(lo), "high": num(hi)}),
                )
            })
            .collect();
        let secs = self.seconds.max(1e-9);
        let agent = match self.agents.as_slice() {
            [] => "random".to_string(),
            [a] => a.clone(),
            list => list.join(" vs "),
        };
        json!({
            "format": FORMAT,
            "game": self.game,
            "source_hash": self.source_hash,
            "options": self.options,
            "sides": self.sides,
            "rounds_game": self.rounds_game,
            "seed": self.seed,
            "agent": agent,
            "agents": self.agents,
            "metrics_level": if self.full { "full" } else { "quick" },
            "requested": self.requested,
            "playout_ranges": self.ranges,
            "partial": self.partial,
            "playouts": s.games,
            "wins": wins,
            "draws": s.draws,
            "turn_limit_reached": s.turn_limit,
            "move_limit_reached": s.move_limit,
            "step_limit_reached": s.other_limit,
            "faults": s.faults,
            "moves_mean": num(d.mean()),
            "moves_min": s.decisions.min().unwrap_or(0),
            "moves_max": s.decisions.max().unwrap_or(0),
            "branching_mean": num(s.choices.mean()),
            "cycles_cut": s.cycles_cut,
            "rounds_mean": num(r.mean()),
            "rounds_min": s.rounds.min().unwrap_or(0),
            "rounds_max": s.rounds.max().unwrap_or(0),
            "metrics": metrics,
            "stats": serde_json::to_value(s).unwrap_or(Value::Null),
            "threads": self.threads,
            "seconds": self.seconds,
            "playouts_per_second": s.games as f64 / secs,
            "moves_per_second": d.sum as f64 / secs,
        })
    }

    /// Reads a study back from its JSON (`what` names the file in errors).
    pub fn from_json(v: &Value, what: &str) -> Result<Study, String> {
        if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(format!(
                "`{what}` is not the JSON of a study (`ludic simulate --format json` writes one)"
            ));
        }
        let bad = |key: &str| format!("`{what}`: the key `{key}` is missing or wrong");
        let str_of = |key: &str| {
            v.get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| bad(key))
        };
        let u64_of = |key: &str| v.get(key).and_then(Value::as_u64).ok_or_else(|| bad(key));
        let strings = |key: &str| -> Result<Vec<String>, String> {
            serde_json::from_value(v.get(key).cloned().unwrap_or(Value::Null)).map_err(|_| bad(key))
        };
        let stats: Stats = serde_json::from_value(v.get("stats").cloned().unwrap_or(Value::Null))
            .map_err(|e| format!("`{what}`: its `stats` cannot be read: {e}"))?;
        let sides = strings("sides")?;
        if stats.wins.len() != sides.len() {
            return Err(bad("stats"));
        }
        Ok(Study {
            game: str_of("game")?,
            source_hash: str_of("source_hash")?,
            options: serde_json::from_value(v.get("options").cloned().unwrap_or(Value::Null))
                .map_err(|_| bad("options"))?,
            sides,
            rounds_game: v
                .get("rounds_game")
                .and_then(Value::as_bool)
                .ok_or_else(|| bad("rounds_game"))?,
            seed: u64_of("seed")?,
            agents: strings("agents")?,
            full: match v.get("metrics_level").and_then(Value::as_str) {
                Some("full") => true,
                Some("quick") => false,
                _ => return Err(bad("metrics_level")),
            },
            requested: u64_of("requested")?,
            ranges: serde_json::from_value(v.get("playout_ranges").cloned().unwrap_or(Value::Null))
                .map_err(|_| bad("playout_ranges"))?,
            partial: v
                .get("partial")
                .and_then(Value::as_bool)
                .ok_or_else(|| bad("partial"))?,
            stats,
            seconds: v.get("seconds").and_then(Value::as_f64).unwrap_or(0.0),
            threads: None,
        })
    }

    /// The header line of the table.
    pub fn title(&self) -> String {
        let opts: Vec<String> = self
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let mut t = format!(
            "{}: {} {} (seed {}; {})",
            self.game,
            thousands(self.stats.games),
            self.what(),
            self.seed,
            opts.join(" ")
        );
        if self.partial {
            t.push_str(&format!(
                " — PARTIAL: stopped after {} of {}",
                thousands(self.stats.games),
                thousands(self.requested)
            ));
        }
        t
    }
}

/// 1234567 → `1,234,567`.
pub fn thousands(n: u64) -> String {
    crate::agents::mcts::thousands(n)
}

/// A metric's value as the table shows it.
pub fn fmt_value(m: &Metric, x: f64) -> String {
    fmt_like(m, x, m.value)
}

/// `x` with the precision that suits `like` (an interval's ends as its value).
fn fmt_like(m: &Metric, x: f64, like: f64) -> String {
    if !x.is_finite() {
        "-".into()
    } else if m.percent {
        let p = 100.0 * x;
        if p == 0.0 {
            "0%".into()
        } else if p.abs() < 0.1 {
            // a rare event is not 0.0%
            format!("{p:.1e}%")
        } else {
            format!("{p:.1}%")
        }
    } else if like.fract() == 0.0 && x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else if like.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

fn fmt_ci(m: &Metric) -> String {
    match m.ci {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() => {
            format!(
                "{} .. {}",
                fmt_like(m, lo, m.value),
                fmt_like(m, hi, m.value)
            )
        }
        _ => String::new(),
    }
}

/// The parts of a length (`turns.sd` … `turns.max`) and the tenths of the branching factor are
/// shown on one line each.
fn group_of(key: &str) -> Option<&str> {
    let (head, tail) = key.rsplit_once('.')?;
    let grouped = matches!(tail, "sd" | "min" | "p10" | "p50" | "p90" | "max")
        || (head == "branching"
            && tail
                .strip_prefix('t')
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())));
    grouped.then_some(head)
}

/// Writes the table of a study.
pub fn write_table(out: &mut impl Write, s: &Study, colour: bool) -> io::Result<()> {
    let bold = anstyle::Style::new().bold();
    let (b0, b1) = if colour {
        (bold.render().to_string(), bold.render_reset().to_string())
    } else {
        (String::new(), String::new())
    };
    writeln!(out, "{b0}{}{b1}", s.title())?;
    writeln!(out, "  {b0}{:<44} {:>10}   95% CI{b1}", "metric", "value")?;
    let metrics = s.metrics();
    let mut i = 0;
    while i < metrics.len() {
        let m = &metrics[i];
        if m.key.starts_with("rounds.") && (!s.rounds_game || s.stats.rounds.max() <= Some(1)) {
            i += 1;
            continue;
        }
        if let Some(head) = group_of(&m.key) {
            let mut parts = vec![];
            while i < metrics.len() && group_of(&metrics[i].key) == Some(head) {
                let m = &metrics[i];
                let name = m.key.rsplit_once('.').map(|x| x.1).unwrap_or("");
                parts.push(format!("{name} {}", fmt_value(m, m.value)));
                i += 1;
            }
            let label = if head == "branching" {
                "legal decisions by tenth of the game"
            } else {
                head
            };
            writeln!(out, "  {:<44} {}", label, parts.join("  "))?;
            continue;
        }
        let line = format!(
            "  {:<44} {:>10}   {}",
            m.label,
            fmt_value(m, m.value),
            fmt_ci(m)
        );
        writeln!(out, "{}", line.trim_end())?;
        i += 1;
    }
    let secs = s.seconds.max(1e-9);
    writeln!(
        out,
        "  {:.2} s, {} games/s{}",
        s.seconds,
        thousands((s.stats.games as f64 / secs) as u64),
        s.threads
            .map(|t| format!(", {t} thread{}", if t == 1 { "" } else { "s" }))
            .unwrap_or_default()
    )
}

fn csv_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::new()
    }
}

/// A CSV field, quoted when it must be.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes the metrics of a study as CSV: `metric,value,low,high`.
pub fn write_csv(out: &mut impl Write, s: &Study) -> io::Result<()> {
    if s.partial {
        // a comment line first, so that a partial result never reads as a complete one
        writeln!(out, "# PARTIAL: {} of {} games", s.stats.games, s.requested)?;
    }
    writeln!(out, "metric,value,low,high")?;
    for m in s.metrics() {
        let (lo, hi) = m.ci.unwrap_or((f64::NAN, f64::NAN));
        writeln!(
            out,
            "{},{},{},{}",
            csv_field(&m.key),
            csv_num(m.value),
            csv_num(lo),
            csv_num(hi)
        )?;
    }
    Ok(())
}

/// Writes a study in the chosen output.
pub fn write_study(
    out: &mut impl Write,
    s: &Study,
    output: Output,
    colour: bool,
) -> io::Result<()> {
    match output {
        Output::Table => write_table(out, s, colour),
        Output::Json => {
            serde_json::to_writer_pretty(&mut *out, &s.to_json())?;
            writeln!(out)
        }
        Output::Csv => write_csv(out, s),
    }
}
