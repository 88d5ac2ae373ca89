//! The report of a study, a comparison or a sweep as ONE self-contained HTML file: inline CSS,
//! inline SVG charts drawn with `plotters` (its SVG backend; text is left to the browser as
//! SVG `<text>`, so no font file is read), no script and no external address. The same input
//! gives the same bytes (no date, no clock, no random choice).
//!
//! Every number shown comes from the JSON as it was read: a table cell carries the JSON's value
//! in `data-value` (and its interval in `data-low`, `data-high`), written with Rust's shortest
//! round-trip formatting of the same `f64`, and shows it rounded to three or four significant
//! digits.
//!
//! - [`report`]: any of the three, told apart by their JSON;
//! - [`study_report`], [`comparison_report`], [`sweep_report`]: one kind each.
//!
//! ```
//! use serde_json::json;
//! let not_a_study = json!({"format": "something else"});
//! let e = ludic::study::html::report(&not_a_study, "x.json").unwrap_err();
//! assert!(e.contains("x.json"));
//! ```

mod charts;
mod page;

use super::report::Study;
use serde_json::Value;

/// The `format` of a sweep's JSON.
pub const SWEEP_FORMAT: &str = "ludic-sweep-1";

/// The metrics drawn against a sweep's axes and side by side for a comparison (those absent
/// from every point, as `decisiveness` with `--quick`, are left out).
pub const MAIN_METRICS: [&str; 5] = [
    "first_player_score",
    "draw",
    "turns.mean",
    "decisiveness",
    "branching",
];

/// An axis of a sweep: its name and its values, in order.
#[derive(Clone, Debug)]
pub(crate) struct Axis {
    pub name: String,
    pub values: Vec<String>,
}

/// A point of a sweep, a column of a comparison or the study alone.
pub(crate) struct Entry<'a> {
    pub label: String,
    /// the value of each axis, in the axes' order
    pub coords: Vec<String>,
    /// the study (checked by reading it) and its JSON, whose numbers are shown
    pub study: Option<(Study, &'a Value)>,
    pub error: Option<String>,
}

/// What the page shows.
pub(crate) struct Data<'a> {
    pub kind: Kind,
    pub title: String,
    /// the header's lines: (what, value)
    pub header: Vec<(String, String)>,
    pub axes: Vec<Axis>,
    pub entries: Vec<Entry<'a>>,
    /// for a comparison: (metric, column) → p-value of its difference with the first column
    pub p_values: Vec<(String, usize, f64)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Study,
    Comparison,
    Sweep,
}

/// The report of any of a study (`ludic-study-1`), a comparison (compare's JSON, with its
/// `columns`) or a sweep (`ludic-sweep-1`); `name` names the input in errors.
pub fn report(v: &Value, name: &str) -> Result<String, String> {
    match v.get("format").and_then(Value::as_str) {
        Some(SWEEP_FORMAT) => sweep_report(v, name),
        Some(super::report::FORMAT) => study_report(v, name),
        _ if v.get("columns").is_some() => comparison_report(v, name),
        Some(f) => Err(format!(
            "`{name}` has the format `{f}`: a report is made of a study (`ludic-study-1`), a \
             comparison (compare's JSON) or a sweep (`{SWEEP_FORMAT}`)"
        )),
        None => Err(format!(
            "`{name}` is neither a study, a comparison nor a sweep (no `format`, no `columns`): \
             `ludic simulate`, `ludic compare` and `ludic sweep` write them with --format json"
        )),
    }
}

/// The report of one study (the JSON of `ludic simulate --format json` or `ludic merge`).
pub fn study_report(v: &Value, name: &str) -> Result<String, String> {
    let study = read_study(v, name)?;
    let title = format!("{}: {}", study.game, study.what());
    let mut header = common_header(&study);
    header.insert(0, ("kind".into(), "a study".into()));
    let entries = vec![Entry {
        label: study.game.clone(),
        coords: vec![],
        study: Some((study, v)),
        error: None,
    }];
    page::render(&Data {
        kind: Kind::Study,
        title,
        header,
        axes: vec![],
        entries,
        p_values: vec![],
    })
}

/// The report of a comparison (the JSON of `ludic compare --format json`): its columns side by
/// side, the differences with the first column marked where significant.
pub fn comparison_report(v: &Value, name: &str) -> Result<String, String> {
    let cols = v
        .get("columns")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
        .ok_or_else(|| {
            format!(
                "`{name}`: its `columns` are not those of a comparison (`ludic compare --format json` writes them)"
            )
        })?;
    let mut entries = vec![];
    for (i, c) in cols.iter().enumerate() {
        let col = c
            .get("column")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("`{name}`: column {} has no `column` (its name)", i + 1))?;
        let study = read_study(c, &format!("{name}, column {col}"))?;
        entries.push(Entry {
            label: col.to_string(),
            coords: vec![col.to_string()],
            study: Some((study, c)),
            error: None,
        });
    }
    let first = entries[0].study.as_ref().map(|(s, _)| s);
    let mut header = first.map(common_header).unwrap_or_default();
    header.retain(|(k, _)| k != "options");
    header.insert(0, ("kind".into(), "a comparison".into()));
    header.push((
        "tests".into(),
        v.get("tests")
            .and_then(Value::as_str)
            .unwrap_or("each column against the first")
            .to_string(),
    ));
    let p_values = v
        .get("differences")
        .and_then(Value::as_array)
        .map(|d| {
            d.iter()
                .filter_map(|x| {
                    Some((
                        x.get("metric")?.as_str()?.to_string(),
                        usize::try_from(x.get("column")?.as_u64()?).ok()?,
                        x.get("p_value")?.as_f64()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let game = first.map(|s| s.game.clone()).unwrap_or_default();
    page::render(&Data {
        kind: Kind::Comparison,
        title: format!("{game}: {} columns compared", entries.len()),
        header,
        axes: vec![Axis {
            name: "column".into(),
            values: entries.iter().map(|e| e.label.clone()).collect(),
        }],
        entries,
        p_values,
    })
}

/// The report of a sweep (`ludic-sweep-1`): each main metric against each axis, the lengths of
/// the games and who wins at each point, and the table of every point.
pub fn sweep_report(v: &Value, name: &str) -> Result<String, String> {
    if v.get("format").and_then(Value::as_str) != Some(SWEEP_FORMAT) {
        return Err(format!(
            "`{name}` is not the JSON of a sweep (its `format` is not `{SWEEP_FORMAT}`)"
        ));
    }
    let bad = |key: &str| format!("`{name}`: the key `{key}` is missing or wrong");
    let axes = read_axes(v).ok_or_else(|| bad("axes"))?;
    let points = v
        .get("points")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("points"))?;
    let mut entries = vec![];
    for (i, p) in points.iter().enumerate() {
        entries.push(read_point(p, i, &axes, name)?);
    }
    let game = v
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("game"))?;
    let mut header = vec![
        ("kind".to_string(), "a sweep".to_string()),
        ("game".into(), game.to_string()),
    ];
    if let Some(s) = v.get("source").and_then(Value::as_str) {
        header.push(("source".into(), s.to_string()));
    }
    for a in &axes {
        header.push((format!("axis {}", a.name), a.values.join(", ")));
    }
    if let Some(f) = v
        .get("fixed")
        .and_then(Value::as_object)
        .filter(|f| !f.is_empty())
    {
        let fixed: Vec<String> = f
            .iter()
            .map(|(k, x)| {
                format!(
                    "{k}={}",
                    x.as_str().map_or_else(|| x.to_string(), str::to_string)
                )
            })
            .collect();
        header.push(("fixed".into(), fixed.join(" ")));
    }
    for key in ["games", "seed"] {
        let x = v.get(key).and_then(Value::as_u64).ok_or_else(|| bad(key))?;
        let what = if key == "games" {
            "games per point"
        } else {
            "seed"
        };
        header.push((what.into(), x.to_string()));
    }
    header.push(("agents".into(), agents_text(v.get("agents"))));
    let done = entries.iter().filter(|e| e.study.is_some()).count();
    let failed = entries.iter().filter(|e| e.error.is_some()).count();
    header.push((
        "points".into(),
        format!("{} ({done} with a study, {failed} failed)", entries.len()),
    ));
    if v.get("partial").and_then(Value::as_bool) == Some(true) {
        header.push(("PARTIAL".into(), "some points are missing".into()));
    }
    page::render(&Data {
        kind: Kind::Sweep,
        title: format!("{game}: a sweep of {} points", entries.len()),
        header,
        axes,
        entries,
        p_values: vec![],
    })
}

fn read_study(v: &Value, name: &str) -> Result<Study, String> {
    let s = Study::from_json(v, name)?;
    if !v.get("metrics").is_some_and(Value::is_object) {
        return Err(format!("`{name}`: the key `metrics` is missing or wrong"));
    }
    Ok(s)
}

fn read_axes(v: &Value) -> Option<Vec<Axis>> {
    v.get("axes")?
        .as_array()?
        .iter()
        .map(|a| {
            Some(Axis {
                name: a.get("name")?.as_str()?.to_string(),
                values: a
                    .get("values")?
                    .as_array()?
                    .iter()
                    .map(|x| x.as_str().map(str::to_string))
                    .collect::<Option<Vec<String>>>()?,
            })
        })
        .collect()
}

/// A point of a sweep: its axes' values, and its study or its error.
fn read_point<'a>(p: &'a Value, i: usize, axes: &[Axis], name: &str) -> Result<Entry<'a>, String> {
    let label = p
        .get("label")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| format!("point {i}"));
    let what = format!("{name}, point `{label}`");
    let mut coords = vec![];
    for a in axes {
        let c = match p.get("point").and_then(|x| x.get(&a.name)) {
            Some(x) => x.as_str().map(str::to_string),
            None if a.name == "variant" => match p.get("variant") {
                None | Some(Value::Null) => Some("default".into()),
                Some(x) => x.as_str().map(str::to_string),
            },
            None => None,
        };
        coords.push(c.ok_or_else(|| format!("`{what}`: no value of the axis `{}`", a.name))?);
    }
    let error = p
        .get("error")
        .map(|e| e.as_str().map_or_else(|| e.to_string(), str::to_string));
    let study = match p.get("study") {
        Some(s) if error.is_none() => Some((read_study(s, &what)?, s)),
        _ => None,
    };
    if study.is_none() && error.is_none() {
        return Err(format!("`{what}`: it has neither a `study` nor an `error`"));
    }
    Ok(Entry {
        label,
        coords,
        study,
        error,
    })
}

fn agents_text(v: Option<&Value>) -> String {
    let list: Vec<String> = v
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    match list.as_slice() {
        [] => "random playouts".into(),
        [a] => format!("{a} against itself"),
        l => l.join(" against "),
    }
}

/// The header lines every study has.
fn common_header(s: &Study) -> Vec<(String, String)> {
    let opts: Vec<String> = s.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut h = vec![
        ("game".to_string(), s.game.clone()),
        ("options".into(), opts.join(" ")),
        ("games".into(), s.stats.games.to_string()),
        ("seed".into(), s.seed.to_string()),
        (
            "agents".into(),
            agents_text(Some(&serde_json::json!(s.agents))),
        ),
        ("sides".into(), s.sides.join(", ")),
    ];
    if !s.full {
        h.push(("metrics".into(), "quick (no score followed)".into()));
    }
    if s.partial {
        h.push((
            "PARTIAL".into(),
            format!("{} of {} games", s.stats.games, s.requested),
        ));
    }
    h
}

/// A metric of a study's JSON: its value and its interval (none where the JSON has `null`).
pub(crate) fn metric(v: &Value, key: &str) -> Option<(f64, Option<(f64, f64)>)> {
    let m = v.get("metrics")?.get(key)?;
    let value = m.get("value")?.as_f64()?;
    let lo = m.get("low").and_then(Value::as_f64);
    let hi = m.get("high").and_then(Value::as_f64);
    Some((value, lo.zip(hi)))
}
