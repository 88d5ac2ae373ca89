//! Sweeps: a study of every point of a grid of option values (and variants), in the
//! `ludic-sweep-1` format, resumable point by point, in shards that merge exactly.
//!
//! - [`Axis`] and [`SweepSpec`]: the grid (`-o NAME=v1,v2` `-o NAME=A..B/STEP`, variants), its
//!   points in grid order (the first axis varies slowest);
//! - [`Sweeper`] and [`run_task`]: playing one point, or a shard of one, exactly as `ludic
//!   simulate` plays those options with that seed and shard; a point whose options the game
//!   refuses is a point with its error, not a failure of the sweep;
//! - [`Sweep`]: the file (serde), its done points, and [`merge`] of files holding parts of
//!   one sweep (points, or shards of points) into the whole;
//! - [`output`]: the sweep as a table, JSON or CSV.

use super::merge;
use super::report::Study;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub mod output;
mod play;

pub use play::{SweepError, Sweeper, run_task};

/// The `format` of a sweep's JSON.
pub const FORMAT: &str = "ludic-sweep-1";

/// The name of the axis of variants (`--variant A --variant B`); it comes after the options'.
pub const VARIANT_AXIS: &str = "variant";

/// The most points a sweep may have.
pub const MAX_POINTS: u64 = 100_000;

/// An axis of the grid: an option (or the variant) and its values, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    pub name: String,
    pub values: Vec<String>,
}

/// A setting of `-o NAME=SPEC`: an axis (several values) or a fixed value (one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Axis(Axis),
    Fixed(String, String),
}

/// The hint of a bad setting.
const SPEC_HINT: &str = "hint: write NAME=v1,v2,… (values), NAME=A..B (the integers from A to B) or NAME=A..B/STEP (A, A+STEP, … up to B); NAME=VALUE alone sets it for every point";

/// Reads `A..B` or `A..B/STEP` (integers): none when `spec` is not of that form.
fn parse_range(spec: &str) -> Option<(i64, i64, i64)> {
    let (range, step) = match spec.split_once('/') {
        Some((r, s)) => (r, Some(s.trim())),
        None => (spec, None),
    };
    let (a, b) = range.split_once("..")?;
    let int = |s: &str| s.trim().parse::<i64>().ok();
    let step = match step {
        Some(s) => int(s)?,
        None => 1,
    };
    Some((int(a)?, int(b)?, step))
}

impl Setting {
    /// Reads `NAME=SPEC`: SPEC is `v1,v2,…`, `A..B` (the integers from A to B, inclusive) or
    /// `A..B/STEP` (A, A+STEP, … up to B); a SPEC of one value is a fixed setting.
    ///
    /// ```
    /// use ludic::study::sweep::{Axis, Setting};
    /// let s = Setting::parse("stones=3..7/2").unwrap();
    /// assert_eq!(s, Setting::Axis(Axis { name: "stones".into(), values: vec!["3".into(), "5".into(), "7".into()] }));
    /// assert_eq!(Setting::parse("rounds=match").unwrap(), Setting::Fixed("rounds".into(), "match".into()));
    /// assert!(Setting::parse("stones=5..3").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Setting, String> {
        let Some((name, spec)) = text.split_once('=') else {
            return Err(format!("`-o {text}` is not an option setting\n{SPEC_HINT}"));
        };
        let (name, spec) = (name.trim(), spec.trim());
        if name.is_empty() {
            return Err(format!("`-o {text}` names no option\n{SPEC_HINT}"));
        }
        let bad = |why: String| Err(format!("`-o {text}`: {why}\n{SPEC_HINT}"));
        let values: Vec<String> = if spec.contains("..") && !spec.contains(',') {
            let Some((a, b, step)) = parse_range(spec) else {
                return bad(
                    "a range is two integers A..B, or A..B/STEP with an integer STEP".into(),
                );
            };
            if step <= 0 {
                return bad(format!("the step of a range is at least 1 (not {step})"));
            }
            if b < a {
                return bad(format!(
                    "the range {a}..{b} is empty (it ends below its start)"
                ));
            }
            let count = (b as i128 - a as i128) / step as i128 + 1;
            if count > MAX_POINTS as i128 {
                return bad(format!(
                    "the range has {count} values, more than a sweep may have ({MAX_POINTS} points)"
                ));
            }
            (0..count as i64)
                .map(|k| (a + k * step).to_string())
                .collect()
        } else {
            spec.split(',').map(|v| v.trim().to_string()).collect()
        };
        if values.len() > 1 {
            if values.iter().any(String::is_empty) {
                return bad("a value of the list is empty".into());
            }
            for (k, v) in values.iter().enumerate() {
                if values[..k].contains(v) {
                    return bad(format!("the value `{v}` is given twice"));
                }
            }
        }
        Ok(match <[String; 1]>::try_from(values) {
            Ok([v]) => Setting::Fixed(name.to_string(), v),
            Err(values) => Setting::Axis(Axis {
                name: name.to_string(),
                values,
            }),
        })
    }
}

/// What a sweep plays: the game, the grid, and how each point is studied (as `simulate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepSpec {
    /// the game as given: a built-in game's name or a `.game` file's path
    pub source: String,
    /// in order: the options' axes, then the variants' (named [`VARIANT_AXIS`]) if any
    pub axes: Vec<Axis>,
    /// the options set for every point
    pub fixed: BTreeMap<String, String>,
    /// games per point (`-n`)
    pub games: u64,
    /// the seed every point is played with
    pub seed: u64,
    /// the agents as given (`--agent`): none for random playouts
    pub agents: Vec<String>,
    /// only the cheap metrics
    pub quick: bool,
}

/// A point of the grid.
#[derive(Clone, Debug)]
pub struct Point {
    /// its place in grid order, from 0
    pub index: u64,
    /// the options' axes' values, by name
    pub point: BTreeMap<String, String>,
    /// the variant (none: the rules without one, `default`)
    pub variant: Option<String>,
    /// the axes' values as written (`stones=3 rounds=match`), space-separated; a value with a
    /// blank is quoted (`variant="big board"`)
    pub label: String,
    /// the settings that load it: the fixed options, the axes' values, the variant
    pub settings: crate::Settings,
}

impl SweepSpec {
    /// The grid from the command line's `-o NAME=SPEC` settings and `--variant NAME`s (a
    /// variants' axis, last, when any is given; `default` is the rules without a variant).
    pub fn new(
        source: &str,
        options: &[String],
        variants: &[String],
        games: u64,
        seed: u64,
        agents: &[String],
        quick: bool,
    ) -> Result<SweepSpec, String> {
        let mut axes: Vec<Axis> = vec![];
        let mut fixed = BTreeMap::new();
        let mut seen: Vec<String> = vec![];
        for o in options {
            let name = match Setting::parse(o)? {
                Setting::Axis(a) => {
                    let name = a.name.clone();
                    axes.push(a);
                    name
                }
                Setting::Fixed(n, v) => {
                    fixed.insert(n.clone(), v);
                    n
                }
            };
            if seen.contains(&name) {
                return Err(format!(
                    "the option `{name}` is given twice\nhint: give all its values in one -o {name}=v1,v2,…"
                ));
            }
            seen.push(name);
        }
        if !variants.is_empty() {
            if seen.iter().any(|n| n == VARIANT_AXIS) {
                return Err(format!(
                    "an option named `{VARIANT_AXIS}` and --variant cannot both be swept (their axes would have one name)\nhint: sweep one of them"
                ));
            }
            let mut values: Vec<String> = vec![];
            for v in variants {
                let v = v.trim().to_string();
                if values.contains(&v) {
                    return Err(format!(
                        "the variant `{v}` is given twice\nhint: give each --variant once"
                    ));
                }
                values.push(v);
            }
            axes.push(Axis {
                name: VARIANT_AXIS.into(),
                values,
            });
        }
        let spec = SweepSpec {
            source: source.to_string(),
            axes,
            fixed,
            games,
            seed,
            agents: agents.to_vec(),
            quick,
        };
        match spec.size() {
            Some(_) => Ok(spec),
            None => Err(format!(
                "the grid has more than {MAX_POINTS} points\nhint: sweep fewer values, or split the sweep by fixing an option"
            )),
        }
    }

    /// The number of points (none above [`MAX_POINTS`]).
    pub fn size(&self) -> Option<u64> {
        let mut n: u64 = 1;
        for a in &self.axes {
            n = n.checked_mul(a.values.len() as u64)?;
            if n > MAX_POINTS {
                return None;
            }
        }
        Some(n)
    }

    /// The points, in grid order (the first axis varies slowest).
    pub fn points(&self) -> Vec<Point> {
        (0..self.size().unwrap_or(0))
            .filter_map(|i| self.point(i))
            .collect()
    }

    /// The point of index `index` (none past the last).
    pub fn point(&self, index: u64) -> Option<Point> {
        if index >= self.size()? {
            return None;
        }
        // the digits of `index` in the mixed radix of the axes, the last axis the fastest
        let mut rest = index;
        let mut picked = vec![""; self.axes.len()];
        for (k, a) in self.axes.iter().enumerate().rev() {
            let n = a.values.len() as u64;
            picked[k] = &a.values[(rest % n) as usize];
            rest /= n;
        }
        let mut settings = crate::Settings {
            variant: None,
            sets: self
                .fixed
                .iter()
                .map(|(n, v)| (n.clone(), v.clone()))
                .collect(),
        };
        let mut point = BTreeMap::new();
        let mut label = vec![];
        for (a, v) in self.axes.iter().zip(picked) {
            let shown = if v.contains(char::is_whitespace) || v.is_empty() {
                format!("\"{v}\"")
            } else {
                v.to_string()
            };
            label.push(format!("{}={shown}", a.name));
            if a.name == VARIANT_AXIS {
                settings.variant = (v != "default").then(|| v.to_string());
            } else {
                settings.sets.push((a.name.clone(), v.to_string()));
                point.insert(a.name.clone(), v.to_string());
            }
        }
        Some(Point {
            index,
            point,
            variant: settings.variant.clone(),
            label: label.join(" "),
            settings,
        })
    }
}

/// A point's entry in a sweep: its place, and its study (or a shard of it), or the game's
/// refusal of its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub index: u64,
    pub point: BTreeMap<String, String>,
    pub variant: Option<String>,
    pub label: String,
    /// the object `ludic simulate --format json` writes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub study: Option<Value>,
    /// why the game refused the point's options
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl SweepPoint {
    /// Done: refused by the game, or a study neither partial nor of fewer games than `games`.
    pub fn is_done(&self, games: u64) -> bool {
        if self.error.is_some() {
            return true;
        }
        self.study.as_ref().is_some_and(|s| {
            s.get("partial").and_then(Value::as_bool) == Some(false)
                && s.get("requested").and_then(Value::as_u64) == Some(games)
        })
    }

    /// The games of the point its study played, `[start, end)` ranges (none when partial).
    pub fn ranges(&self) -> Option<Vec<[u64; 2]>> {
        serde_json::from_value(self.study.as_ref()?.get("playout_ranges")?.clone()).ok()?
    }
}

/// A sweep's result: the `ludic-sweep-1` file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    pub format: String,
    /// the game's title
    pub game: String,
    /// the game as given (a built-in game's name or a path)
    pub source: String,
    pub source_hash: String,
    pub axes: Vec<Axis>,
    pub fixed: BTreeMap<String, String>,
    /// games per point requested
    pub games: u64,
    pub seed: u64,
    /// the agents' descriptions, as in a study
    pub agents: Vec<String>,
    pub quick: bool,
    /// in grid order
    pub points: Vec<SweepPoint>,
    /// some point is missing or not done (a point refused by the game is done)
    pub partial: bool,
}

impl Sweep {
    /// Reads a sweep from its JSON (`name` names the file in errors); checks its format and
    /// that its points are points of its grid, each once.
    pub fn from_json(v: &Value, name: &str) -> Result<Sweep, String> {
        if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(format!(
                "`{name}` is not a sweep (its \"format\" is not \"{FORMAT}\"; `ludic sweep --format json` writes one)"
            ));
        }
        let s: Sweep = serde_json::from_value(v.clone())
            .map_err(|e| format!("`{name}` is a damaged sweep: {e}"))?;
        let size = s.spec().size().ok_or_else(|| {
            format!("`{name}` is a damaged sweep: its grid has more than {MAX_POINTS} points")
        })?;
        let mut last = None;
        for p in &s.points {
            if p.index >= size {
                return Err(format!(
                    "`{name}` is a damaged sweep: its point {} is outside its grid of {size} points",
                    p.index
                ));
            }
            if last.is_some_and(|l| p.index <= l) {
                return Err(format!(
                    "`{name}` is a damaged sweep: its points are not in grid order, each once (point {})",
                    p.index
                ));
            }
            last = Some(p.index);
            if p.study.is_some() == p.error.is_some() {
                return Err(format!(
                    "`{name}` is a damaged sweep: its point {} has {} a \"study\" and an \"error\"",
                    p.index,
                    if p.error.is_some() { "both" } else { "neither" }
                ));
            }
        }
        Ok(s)
    }

    /// Reads a sweep from its text.
    pub fn read(text: &str, name: &str) -> Result<Sweep, String> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("`{name}` is not JSON: {e}"))?;
        Sweep::from_json(&v, name)
    }

    /// The JSON of the sweep.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Writes the sweep's JSON (pretty, then a new line): what `ludic sweep --output` writes.
    pub fn write(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, self)?;
        writeln!(out)
    }

    /// The grid and the settings of the sweep (its agents are their descriptions).
    pub fn spec(&self) -> SweepSpec {
        SweepSpec {
            source: self.source.clone(),
            axes: self.axes.clone(),
            fixed: self.fixed.clone(),
            games: self.games,
            seed: self.seed,
            agents: self.agents.clone(),
            quick: self.quick,
        }
    }

    /// The points done (see [`SweepPoint::is_done`]).
    pub fn done(&self) -> impl Iterator<Item = &SweepPoint> {
        self.points.iter().filter(|p| p.is_done(self.games))
    }

    /// Sets `partial`: some point of the grid is missing or not done.
    pub fn update_partial(&mut self) {
        let size = self.spec().size().unwrap_or(0);
        self.partial = (self.done().count() as u64) < size;
    }

    /// Puts a point in its place (grid order), replacing the entry of that index.
    pub fn put(&mut self, p: SweepPoint) {
        match self.points.binary_search_by_key(&p.index, |q| q.index) {
            Ok(k) => self.points[k] = p,
            Err(k) => self.points.insert(k, p),
        }
        self.update_partial();
    }

    /// What differs between the sweeps `self` and `other` (game, source hash, axes, fixed
    /// options, games, seed, agents, quick), in words: empty when they are one sweep.
    pub fn differences(&self, other: &Sweep) -> Vec<String> {
        let mut out = vec![];
        let mut differ = |what: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{what} ({a} and {b})"));
            }
        };
        differ("game", self.game.clone(), other.game.clone());
        differ(
            "game file (source_hash)",
            self.source_hash.clone(),
            other.source_hash.clone(),
        );
        let axes = |s: &Sweep| {
            let a: Vec<String> = s
                .axes
                .iter()
                .map(|a| format!("{}={}", a.name, a.values.join(",")))
                .collect();
            format!("[{}]", a.join(" "))
        };
        differ("axes", axes(self), axes(other));
        differ(
            "fixed options",
            format!("{:?}", self.fixed),
            format!("{:?}", other.fixed),
        );
        differ(
            "games per point (-n)",
            self.games.to_string(),
            other.games.to_string(),
        );
        differ("seed", self.seed.to_string(), other.seed.to_string());
        differ(
            "agents",
            format!("{:?}", self.agents),
            format!("{:?}", other.agents),
        );
        differ("--quick", self.quick.to_string(), other.quick.to_string());
        out
    }
}

/// Merges files holding parts of one sweep (`(file name, sweep)`): the same game, grid,
/// fixed options, games, seed, agents and quick. The studies of one point in several files
/// are merged as [`merge::merge`] merges a study's shards (the same checks: no game played
/// twice, none partial); a point in one file only is taken as it is. The points are in grid
/// order, and the result is partial when some point is missing or not done.
pub fn merge(parts: &[(String, Sweep)]) -> Result<Sweep, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("nothing to merge".into());
    };
    for (name, s) in &parts[1..] {
        let d = first.differences(s);
        if !d.is_empty() {
            return Err(format!(
                "`{first_name}` and `{name}` are not parts of one sweep: their {} differ",
                d.join(", ")
            ));
        }
    }
    let mut by_index: BTreeMap<u64, Vec<(&str, &SweepPoint)>> = BTreeMap::new();
    for (name, s) in parts {
        for p in &s.points {
            by_index.entry(p.index).or_default().push((name, p));
        }
    }
    let mut out = first.clone();
    out.points.clear();
    for (index, entries) in by_index {
        out.points.push(merge_point(index, &entries)?);
    }
    out.update_partial();
    Ok(out)
}

/// The entries of one point in several files, merged.
fn merge_point(index: u64, entries: &[(&str, &SweepPoint)]) -> Result<SweepPoint, String> {
    let (first_name, first) = entries[0];
    if entries.len() == 1 {
        return Ok(first.clone());
    }
    for (name, p) in &entries[1..] {
        if p.label != first.label || p.point != first.point || p.variant != first.variant {
            return Err(format!(
                "point {index} is `{}` in `{first_name}` but `{}` in `{name}`: a damaged sweep",
                first.label, p.label
            ));
        }
        if p.error != first.error {
            return Err(format!(
                "point {index} ({}) is refused by the game in one of `{first_name}` and `{name}` but not the same way in the other: are they of the same game file?",
                first.label
            ));
        }
    }
    if first.error.is_some() {
        return Ok(first.clone());
    }
    let mut studies = vec![];
    for (name, p) in entries {
        let what = format!("{name}, point {index} ({})", p.label);
        let v = p
            .study
            .as_ref()
            .ok_or_else(|| format!("`{what}` has no study"))?;
        studies.push((what.clone(), Study::from_json(v, &what)?));
    }
    let merged = merge::merge(&studies)?;
    Ok(SweepPoint {
        study: Some(merged.to_json()),
        ..first.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(options: &[&str], variants: &[&str]) -> Result<SweepSpec, String> {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        SweepSpec::new("g", &s(options), &s(variants), 10, 1, &[], false)
    }

    #[test]
    fn settings_are_read() {
        let axis = |s: &str| match Setting::parse(s) {
            Ok(Setting::Axis(a)) => a.values,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(axis("a=1..3"), ["1", "2", "3"]);
        assert_eq!(axis("a=-2..2/2"), ["-2", "0", "2"]);
        assert_eq!(axis("a=1..6/2"), ["1", "3", "5"]);
        assert_eq!(axis("a= on , off"), ["on", "off"]);
        assert_eq!(
            Setting::parse("a=4..4"),
            Ok(Setting::Fixed("a".into(), "4".into()))
        );
        for bad in [
            "a",
            "=3",
            "a=3..1",
            "a=1..5/0",
            "a=1..5/-1",
            "a=1..x",
            "a=1,,2",
            "a=1,1",
            "a=0..1000000",
        ] {
            let e = Setting::parse(bad).expect_err(bad);
            assert!(e.contains("hint:"), "{bad}: {e}");
        }
    }

    #[test]
    fn points_are_in_grid_order() {
        let s = spec(&["a=1..3", "b=x,y", "c=7"], &["default", "big one"]).unwrap();
        assert_eq!(s.size(), Some(12));
        let p = s.points();
        assert_eq!(p.len(), 12);
        assert_eq!(p[0].label, "a=1 b=x variant=default");
        assert_eq!(p[1].label, "a=1 b=x variant=\"big one\"");
        assert_eq!(p[2].label, "a=1 b=y variant=default");
        assert_eq!(p[11].label, "a=3 b=y variant=\"big one\"");
        assert_eq!(p[1].variant.as_deref(), Some("big one"));
        assert_eq!(p[0].variant, None);
        assert_eq!(
            p[3].settings.sets,
            [("c", "7"), ("a", "1"), ("b", "y")].map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert!(s.point(12).is_none());
        assert!(spec(&["a=1,2", "a=3"], &[]).is_err());
        assert!(spec(&["a=1..1000", "b=1..1000"], &[]).is_err());
        assert!(spec(&[], &["x", "x"]).is_err());
        let one = spec(&["c=7"], &[]).unwrap();
        assert_eq!(one.points().len(), 1);
        assert_eq!(one.points()[0].label, "");
    }
}
