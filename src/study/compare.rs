//! Studies side by side: the same metrics for each column (a variant, a set of options, a game
//! file), and whether each column differs from the first significantly: a two-proportion
//! z-test for proportions, Welch's test (normal approximation) for means, two-sided, p < 0.05.

use super::metrics::{Metric, Test};
use super::report::{Output, Study, csv_field, fmt_value};
use super::stats::{two_proportion_p, welch_p};
use serde_json::{Value, json};
use std::io::{self, Write};

/// The level below which a difference is marked.
pub const ALPHA: f64 = 0.05;

/// The two-sided p-value of the difference between two values of one metric (none when the
/// metric is not tested or cannot be).
pub fn p_value(a: &Metric, b: &Metric) -> Option<f64> {
    let p = match (a.test, b.test) {
        (Test::Proportion { x: x1, n: n1 }, Test::Proportion { x: x2, n: n2 }) => {
            two_proportion_p(x1, n1, x2, n2)
        }
        (
            Test::Mean {
                mean: m1,
                var: v1,
                n: n1,
            },
            Test::Mean {
                mean: m2,
                var: v2,
                n: n2,
            },
        ) => welch_p(m1, v1, n1, m2, v2, n2),
        _ => return None,
    };
    p.is_finite().then_some(p)
}

/// A column of the comparison: its name and its study.
pub struct Column {
    pub name: String,
    pub study: Study,
}

/// For each metric of the first column (by key), its metric in each column.
fn rows(cols: &[Column]) -> Vec<(Metric, Vec<Option<Metric>>)> {
    let all: Vec<Vec<Metric>> = cols.iter().map(|c| c.study.metrics()).collect();
    let Some(first) = all.first() else {
        return vec![];
    };
    first
        .iter()
        .map(|m| {
            let cells = all
                .iter()
                .map(|ms| ms.iter().find(|x| x.key == m.key).cloned())
                .collect();
            (m.clone(), cells)
        })
        .collect()
}

fn p_of(cells: &[Option<Metric>], j: usize) -> Option<f64> {
    match (cells.first()?, cells.get(j)?) {
        (Some(a), Some(b)) if j > 0 => p_value(a, b),
        _ => None,
    }
}

/// Writes the comparison; one with a partial column (a study stopped by a signal) says so at
/// the top: `"partial": true` in JSON, a `# PARTIAL` comment line first in CSV, `PARTIAL` in
/// the column's title in the table.
pub fn write_comparison(
    out: &mut impl Write,
    cols: &[Column],
    output: Output,
    colour: bool,
) -> io::Result<()> {
    let rows = rows(cols);
    match output {
        Output::Json => write_json(out, cols, &rows),
        Output::Csv => write_csv(out, cols, &rows),
        Output::Table => write_table(out, cols, &rows, colour),
    }
}

/// The metric of each row and its cell in each column.
type Rows = [(Metric, Vec<Option<Metric>>)];

/// The comparison as one JSON object: the columns' studies, and each difference with its p-value.
fn write_json(out: &mut impl Write, cols: &[Column], rows: &Rows) -> io::Result<()> {
    let partial = cols.iter().any(|c| c.study.partial);
    let differences: Vec<Value> = rows
        .iter()
        .flat_map(|(m, cells)| {
            (1..cells.len()).filter_map(move |j| {
                let p = p_of(cells, j)?;
                Some(json!({
                    "metric": m.key,
                    "column": j,
                    "p_value": p,
                    "significant": p < ALPHA,
                }))
            })
        })
        .collect();
    let columns: Vec<Value> = cols
        .iter()
        .map(|c| {
            let mut v = c.study.to_json();
            v["column"] = json!(c.name);
            v
        })
        .collect();
    let v = json!({
        "partial": partial,
        "columns": columns,
        "baseline": 0,
        "tests": "two-proportion z-test for proportions, Welch's test (normal approximation) for means; two-sided; each column against the first",
        "alpha": ALPHA,
        "differences": differences,
    });
    serde_json::to_writer_pretty(&mut *out, &v)?;
    writeln!(out)
}

/// The comparison as CSV: a line per metric and column, after a comment line per partial column.
fn write_csv(out: &mut impl Write, cols: &[Column], rows: &Rows) -> io::Result<()> {
    // comment lines first, so that a partial column never reads as a complete one
    for c in cols.iter().filter(|c| c.study.partial) {
        writeln!(
            out,
            "# PARTIAL: column {}: {} of {} games",
            c.name.replace(['\n', '\r'], " "),
            c.study.stats.games,
            c.study.requested
        )?;
    }
    writeln!(out, "column,metric,value,low,high,p_value,significant")?;
    let f = |x: f64| {
        if x.is_finite() {
            format!("{x}")
        } else {
            String::new()
        }
    };
    for (m, cells) in rows {
        for (j, c) in cells.iter().enumerate() {
            let Some(c) = c else { continue };
            let (lo, hi) = c.ci.unwrap_or((f64::NAN, f64::NAN));
            let p = p_of(cells, j);
            writeln!(
                out,
                "{},{},{},{},{},{},{}",
                csv_field(&cols[j].name),
                csv_field(&m.key),
                f(c.value),
                f(lo),
                f(hi),
                p.map(f).unwrap_or_default(),
                p.map(|p| (p < ALPHA).to_string()).unwrap_or_default()
            )?;
        }
    }
    Ok(())
}

/// The comparison as a table for the terminal: the columns' titles, a line per metric with the
/// significant differences marked, and what the mark means.
fn write_table(out: &mut impl Write, cols: &[Column], rows: &Rows, colour: bool) -> io::Result<()> {
    let mark = anstyle::Style::new()
        .bold()
        .fg_color(Some(anstyle::AnsiColor::Yellow.into()));
    let bold = anstyle::Style::new().bold();
    let paint = |s: &anstyle::Style, t: &str| {
        if colour {
            format!("{}{t}{}", s.render(), s.render_reset())
        } else {
            t.to_string()
        }
    };
    for (j, c) in cols.iter().enumerate() {
        writeln!(
            out,
            "{}",
            paint(&bold, &format!("[{}] {}", j + 1, c.study.title()))
        )?;
    }
    let width = cols
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .map_or(0, |w| w + 4)
        .clamp(12, 28);
    let mut head = format!("  {:<44}", "metric");
    for (j, c) in cols.iter().enumerate() {
        let name: String = c.name.chars().take(width - 4).collect();
        head.push_str(&format!(" {:>width$}", format!("[{}] {name}", j + 1)));
    }
    writeln!(out, "{}", paint(&bold, &head))?;
    let rounds = cols
        .iter()
        .any(|c| c.study.rounds_game && c.study.stats.rounds.max() > Some(1));
    for (m, cells) in rows {
        if m.key.starts_with("rounds.") && !rounds {
            continue;
        }
        let mut line = format!("  {:<44}", m.label);
        for (j, c) in cells.iter().enumerate() {
            let (text, sig) = match c {
                Some(c) => {
                    let sig = p_of(cells, j).is_some_and(|p| p < ALPHA);
                    (
                        format!("{}{}", fmt_value(c, c.value), if sig { " *" } else { "  " }),
                        sig,
                    )
                }
                None => ("-  ".into(), false),
            };
            let cell = format!(" {text:>width$}");
            if sig {
                line.push_str(&paint(&mark, &cell));
            } else {
                line.push_str(&cell);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(
        out,
        "  * differs from [1] at p < {ALPHA} (two-sided; two-proportion z-test for proportions,\n    Welch's test for means; no correction for the number of metrics compared)"
    )
}
