//! A sweep's three outputs: a table (a row a point with the main metrics and their
//! intervals), JSON (the `ludic-sweep-1` file) and CSV (a row a point, every metric with its
//! interval).

use super::{Sweep, SweepPoint, VARIANT_AXIS};
use crate::study::Metric;
use crate::study::report::{Output, Study, csv_field, fmt_value, thousands};
use std::io::{self, Write};

/// The metrics of the table's columns: (key, heading).
const TABLE_METRICS: [(&str, &str); 5] = [
    ("first_player_score", "first player score"),
    ("draw", "draws"),
    ("turns.mean", "turns (mean)"),
    ("decisiveness", "decisiveness"),
    ("branching", "branching"),
];

/// The study of a point, read back (none for a refused point or a damaged study).
fn study_of(p: &SweepPoint) -> Option<Study> {
    Study::from_json(p.study.as_ref()?, &p.label).ok()
}

/// Writes a sweep in the chosen output.
pub fn write_sweep(
    out: &mut impl Write,
    s: &Sweep,
    output: Output,
    colour: bool,
) -> io::Result<()> {
    match output {
        Output::Json => s.write(out),
        Output::Csv => write_csv(out, s),
        Output::Table => write_table(out, s, colour),
    }
}

/// How many points of the grid are done, and the grid's size.
fn progress(s: &Sweep) -> (usize, u64) {
    (s.done().count(), s.spec().size().unwrap_or(0))
}

/// The sweep as CSV: `index,label,<option axes>,variant,error,games,` then every metric as
/// `M,M.low,M.high`, in the order of simulate's CSV; a `# PARTIAL` comment line first when
/// points are missing.
pub fn write_csv(out: &mut impl Write, s: &Sweep) -> io::Result<()> {
    if s.partial {
        let (done, size) = progress(s);
        writeln!(out, "# PARTIAL: {done} of {size} points done")?;
    }
    let studies: Vec<Option<Study>> = s.points.iter().map(study_of).collect();
    // the metrics' keys, in the order of the first study that has each
    let mut keys: Vec<String> = vec![];
    for st in studies.iter().flatten() {
        for m in st.metrics() {
            if !keys.contains(&m.key) {
                keys.push(m.key);
            }
        }
    }
    let axes: Vec<&str> = s
        .axes
        .iter()
        .map(|a| a.name.as_str())
        .filter(|n| *n != VARIANT_AXIS)
        .collect();
    let mut head = vec!["index".to_string(), "label".into()];
    head.extend(axes.iter().map(|a| csv_field(a)));
    head.extend(["variant".into(), "error".into(), "games".into()]);
    for k in &keys {
        let k = csv_field(k);
        head.extend([k.clone(), format!("{k}.low"), format!("{k}.high")]);
    }
    writeln!(out, "{}", head.join(","))?;
    let num = |x: f64| {
        if x.is_finite() {
            format!("{x}")
        } else {
            String::new()
        }
    };
    for (p, st) in s.points.iter().zip(&studies) {
        let mut row = vec![p.index.to_string(), csv_field(&p.label)];
        for a in &axes {
            row.push(csv_field(p.point.get(*a).map_or("", String::as_str)));
        }
        row.push(csv_field(p.variant.as_deref().unwrap_or("default")));
        row.push(csv_field(
            &p.error.clone().unwrap_or_default().replace('\n', " "),
        ));
        row.push(
            st.as_ref()
                .map(|st| st.stats.games.to_string())
                .unwrap_or_default(),
        );
        let metrics = st.as_ref().map(Study::metrics).unwrap_or_default();
        for k in &keys {
            match metrics.iter().find(|m| &m.key == k) {
                Some(m) => {
                    let (lo, hi) = m.ci.unwrap_or((f64::NAN, f64::NAN));
                    row.extend([num(m.value), num(lo), num(hi)]);
                }
                None => row.extend([String::new(), String::new(), String::new()]),
            }
        }
        writeln!(out, "{}", row.join(","))?;
    }
    Ok(())
}

/// A metric's cell in the table: its value and interval (`0.512 [0.49, 0.53]`).
fn cell(m: Option<&Metric>) -> String {
    let Some(m) = m.filter(|m| m.value.is_finite()) else {
        return "-".into();
    };
    match m.ci {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() => format!(
            "{} [{}, {}]",
            fmt_value(m, m.value),
            fmt_value(m, lo),
            fmt_value(m, hi)
        ),
        _ => fmt_value(m, m.value),
    }
}

/// The sweep as a table: its title, then a row a point (its label, the games played, and the
/// main metrics with their 95% intervals), a refused point with its error.
pub fn write_table(out: &mut impl Write, s: &Sweep, colour: bool) -> io::Result<()> {
    let bold = anstyle::Style::new().bold();
    let (b0, b1) = if colour {
        (bold.render().to_string(), bold.render_reset().to_string())
    } else {
        (String::new(), String::new())
    };
    let (done, size) = progress(s);
    let fixed: Vec<String> = s.fixed.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let what = match s.agents.as_slice() {
        [] => "random playouts".to_string(),
        list => format!("games of {}", list.join(" against ")),
    };
    let mut title = format!(
        "{}: sweep of {size} point{}, {} {what} each (seed {}{}{})",
        s.game,
        if size == 1 { "" } else { "s" },
        thousands(s.games),
        s.seed,
        if fixed.is_empty() { "" } else { "; " },
        fixed.join(" ")
    );
    if s.partial {
        title.push_str(&format!(" — PARTIAL: {done} of {size} points done"));
    }
    writeln!(out, "{b0}{title}{b1}")?;
    let mut rows: Vec<Vec<String>> = vec![];
    let mut head = vec!["#".to_string(), "point".into(), "games".into()];
    head.extend(TABLE_METRICS.iter().map(|(_, h)| h.to_string()));
    for p in &s.points {
        let mut row = vec![p.index.to_string(), p.label.clone()];
        if let Some(e) = &p.error {
            row.push(format!("refused: {}", e.replace('\n', "; ")));
            rows.push(row);
            continue;
        }
        let Some(st) = study_of(p) else {
            row.push("(a damaged study)".into());
            rows.push(row);
            continue;
        };
        let games = thousands(st.stats.games);
        row.push(match st.partial || st.stats.games < s.games {
            true => format!("{games} (partial)"),
            false => games,
        });
        let metrics = st.metrics();
        for (key, _) in TABLE_METRICS {
            row.push(cell(metrics.iter().find(|m| m.key == key)));
        }
        rows.push(row);
    }
    let mut width = vec![0; head.len()];
    for r in rows.iter().chain([&head]) {
        // (a refused point's message is not a column: it runs on)
        if r.len() == head.len() {
            for (w, c) in width.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
    }
    let line = |r: &[String]| {
        let mut l = String::from(" ");
        for (k, c) in r.iter().enumerate() {
            let w = if r.len() == head.len() {
                width[k]
            } else {
                width.get(k).copied().filter(|_| k < 2).unwrap_or(0)
            };
            let pad = w.saturating_sub(c.chars().count());
            l.push(' ');
            if k == 1 || k >= 2 && r.len() != head.len() {
                l.push_str(c);
                l.push_str(&" ".repeat(pad));
            } else {
                l.push_str(&" ".repeat(pad));
                l.push_str(c);
            }
            l.push(' ');
        }
        l.trim_end().to_string()
    };
    writeln!(out, "{b0}{}{b1}", line(&head))?;
    for r in &rows {
        writeln!(out, "{}", line(r))?;
    }
    writeln!(
        out,
        "  values [95% interval]; a point refused by the game says why; `--format json` has every metric"
    )
}
