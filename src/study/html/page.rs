//! The page: its header, the sections of charts, the table of every metric and the points that
//! failed. Written as well-formed XML (every element closed, every text escaped), so that it
//! reads as XHTML as well as HTML.

use super::charts::{self, Bar, Point, Series, Spec};
use super::{Data, Entry, Kind, MAIN_METRICS, metric};
use crate::study::Metric;
use std::fmt::Write as _;

/// Text escaped for HTML and XML.
pub(crate) fn esc(s: &str) -> String {
    crate::render::xml_escape(s)
}

/// A number in three significant digits (`0.515`, `30.4`, `4.00`; `1.23e-5` below a
/// thousandth; at least the units of a larger one).
fn short(x: f64) -> String {
    let a = x.abs();
    if !x.is_finite() {
        "–".into()
    } else if a == 0.0 {
        "0".into()
    } else if !(1e-3..1e15).contains(&a) {
        format!("{x:.2e}")
    } else {
        let decimals = (2 - a.log10().floor() as i32).clamp(0, 6) as usize;
        format!("{x:.decimals$}")
    }
}

/// Whether a metric's values are whole numbers (a length's minimum, maximum, percentiles).
fn whole(key: &str) -> bool {
    key.rsplit_once('.')
        .is_some_and(|(_, t)| matches!(t, "min" | "max" | "p10" | "p50" | "p90"))
}

/// A metric's value as the table shows it: a share as a percentage, a whole number as it is.
fn readable(x: f64, percent: bool, whole: bool) -> String {
    if percent {
        format!("{}%", short(100.0 * x))
    } else if whole && x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        short(x)
    }
}

/// An id made of a text: lowercase letters, digits and dashes.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

const STYLE: &str = "
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 0;
  color: #1a1a1a; background: #fff; line-height: 1.4; }
main { max-width: 1240px; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; border-bottom: 1px solid #ccc; }
p.note { color: #444; margin: .3rem 0 .8rem; }
dl.header { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
dl.header dt { font-weight: 600; }
dl.header dd { margin: 0; overflow-wrap: anywhere; }
.charts { display: grid; gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 480px), 1fr)); }
.charts.small { grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr)); }
figure { margin: 0; border: 1px solid #ddd; border-radius: 4px; padding: .5rem; }
svg.chart { width: 100%; height: auto; display: block; }
figcaption { font-size: .95rem; }
ul.legend { list-style: none; padding: 0; margin: .3rem 0 0; display: flex; flex-wrap: wrap;
  gap: .1rem 1.2rem; }
.swatch { display: inline-block; width: 1.4em; height: .9em; margin-right: .35em;
  vertical-align: -0.1em; border-radius: 2px; }
.mark { margin-right: .25em; }
.table-wrap { overflow-x: auto; border: 1px solid #ddd; border-radius: 4px; }
table { border-collapse: collapse; font-size: .9rem; }
caption { text-align: left; padding: .4rem .5rem; font-weight: 600; }
th, td { border-bottom: 1px solid #e6e6e6; padding: .3rem .6rem; text-align: right;
  vertical-align: top; }
thead th { position: sticky; top: 0; background: #f4f4f4; }
th[scope=row] { text-align: left; position: sticky; left: 0; background: #fff;
  font-weight: normal; min-width: 15rem; }
@media (max-width: 640px) { th[scope=row] { min-width: 8rem; } }
code { font-size: .9em; color: #444; }
td .ci { display: block; color: #555; font-size: .8em; white-space: nowrap; }
td.none { color: #888; }
.sig { color: #a40000; font-weight: 700; }
ul.errors li { margin: .3rem 0; }
";

/// The whole page.
pub(crate) fn render(d: &Data) -> Result<String, String> {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n<h1>{}</h1>\n",
        esc(&d.title),
        esc(&d.title)
    );
    h.push_str("<section id=\"about\">\n<dl class=\"header\">\n");
    for (k, v) in &d.header {
        let _ = writeln!(h, "<dt>{}</dt><dd>{}</dd>", esc(k), esc(v));
    }
    h.push_str("</dl>\n</section>\n");
    if d.kind != Kind::Study {
        metric_sections(&mut h, d)?;
    }
    lengths_section(&mut h, d)?;
    wins_section(&mut h, d)?;
    table_section(&mut h, d);
    errors_section(&mut h, d);
    h.push_str("</main>\n</body>\n</html>\n");
    Ok(h)
}

/// The text with its first letter in capitals.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A figure: the chart, its caption (HTML) and its legend (names, by colour).
fn figure(h: &mut String, svg: &str, caption: &str, legend: &[String]) {
    let _ = write!(h, "<figure>\n{svg}<figcaption>{caption}");
    if legend.len() > 1 || legend.first().is_some_and(|l| !l.is_empty()) {
        h.push_str("\n<ul class=\"legend\">");
        for (i, name) in legend.iter().enumerate() {
            let mark = if legend.len() > charts::PALETTE.len() {
                format!("<span class=\"mark\">{}</span>", charts::marker(i))
            } else {
                String::new()
            };
            let _ = write!(
                h,
                "<li><span class=\"swatch\" style=\"background:{}\"></span>{mark}{}</li>",
                charts::hex(i),
                esc(name)
            );
        }
        h.push_str("</ul>");
    }
    h.push_str("</figcaption>\n</figure>\n");
}

/// The label and whether it is a share, of a metric, from the first study that has it.
fn metric_info(d: &Data, key: &str) -> Option<(String, bool)> {
    d.entries.iter().find_map(|e| {
        let (s, _) = e.study.as_ref()?;
        let m: Metric = s.metrics().into_iter().find(|m| m.key == key)?;
        Some((m.label, m.percent))
    })
}

/// The studies, with their entry's index.
fn studies<'d, 'a>(d: &'d Data<'a>) -> impl Iterator<Item = (usize, &'d Entry<'a>)> {
    d.entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.study.is_some())
}

/// The other axes' values of an entry, as `name=value name=value`.
fn others(d: &Data, e: &Entry, axis: usize) -> String {
    d.axes
        .iter()
        .zip(&e.coords)
        .enumerate()
        .filter(|(i, _)| *i != axis)
        .map(|(_, (a, v))| format!("{}={v}", a.name))
        .collect::<Vec<_>>()
        .join(" ")
}

/// For each axis, each main metric against it: points with intervals for a numeric axis, bars
/// side by side otherwise.
fn metric_sections(h: &mut String, d: &Data) -> Result<(), String> {
    for (ai, axis) in d.axes.iter().enumerate() {
        let numbers: Option<Vec<f64>> = axis.values.iter().map(|v| v.trim().parse().ok()).collect();
        let numeric = numbers.is_some_and(|n| n.iter().all(|x: &f64| x.is_finite()));
        // the series: one per combination of the other axes, in the order met
        let mut series: Vec<String> = vec![];
        for (_, e) in studies(d) {
            let o = others(d, e, ai);
            if !series.contains(&o) {
                series.push(o);
            }
        }
        let heading = if d.kind == Kind::Comparison {
            "The columns side by side".to_string()
        } else {
            format!("Against {}", axis.name)
        };
        let _ = write!(
            h,
            "<section id=\"axis-{}\">\n<h2>{}</h2>\n<p class=\"note\">{}</p>\n<div class=\"charts\">\n",
            slug(&axis.name),
            esc(&heading),
            if numeric {
                "Each point with its 95% interval (error bars)."
            } else {
                "Each bar with its 95% interval (whiskers)."
            }
        );
        for key in MAIN_METRICS {
            let Some((label, percent)) = metric_info(d, key) else {
                continue;
            };
            let spec = Spec {
                id: format!("chart-{}-{}", slug(&axis.name), slug(key)),
                class: if numeric {
                    "metric-line"
                } else {
                    "metric-bars"
                },
                title: if d.kind == Kind::Comparison {
                    format!("{label} by column")
                } else {
                    format!("{label} against {}", axis.name)
                },
                desc: format!(
                    "{label} ({key}) for each value of {}, one {} per {}, with 95% intervals",
                    axis.name,
                    if numeric { "line" } else { "bar" },
                    if series.len() > 1 {
                        "combination of the other axes"
                    } else {
                        "value"
                    }
                ),
                x_desc: axis.name.clone(),
                y_desc: key.to_string(),
                percent,
            };
            let svg = if numeric {
                let lines: Vec<Series> = series
                    .iter()
                    .map(|name| {
                        let mut points: Vec<_> = studies(d)
                            .filter(|(_, e)| others(d, e, ai) == *name)
                            .filter_map(|(_, e)| {
                                let x: f64 = e.coords.get(ai)?.trim().parse().ok()?;
                                let (v, ci) = metric(e.study.as_ref()?.1, key)?;
                                v.is_finite().then_some((x, v, ci))
                            })
                            .collect();
                        points.sort_by(|a, b| a.0.total_cmp(&b.0));
                        Series { points }
                    })
                    .collect();
                charts::lines(&spec, &lines, true, None)?
            } else {
                let bars: Vec<Vec<Bar>> = series
                    .iter()
                    .map(|name| {
                        axis.values
                            .iter()
                            .map(|value| {
                                studies(d)
                                    .find(|(_, e)| {
                                        others(d, e, ai) == *name && e.coords.get(ai) == Some(value)
                                    })
                                    .and_then(|(_, e)| metric(e.study.as_ref()?.1, key))
                                    .filter(|(v, _)| v.is_finite())
                            })
                            .collect()
                    })
                    .collect();
                charts::bars(&spec, &axis.values, &bars)?
            };
            let against = if d.kind == Kind::Comparison {
                "by column".to_string()
            } else {
                format!("against {}", esc(&axis.name))
            };
            let caption = format!(
                "{} {against} <code>{}</code>",
                esc(&capital(&label)),
                esc(key)
            );
            figure(h, &svg, &caption, &series);
        }
        h.push_str("</div>\n</section>\n");
    }
    Ok(())
}

/// A study's lengths histogram (`stats.turns`: [[length, count], …]) as shares of its games.
fn lengths_of(e: &Entry) -> Vec<(f64, f64)> {
    let Some((s, v)) = &e.study else {
        return vec![];
    };
    let games = s.stats.games.max(1) as f64;
    let pairs = v
        .pointer("/stats/turns")
        .and_then(|t| t.as_array())
        .cloned()
        .unwrap_or_default();
    pairs
        .iter()
        .filter_map(|p| Some((p.get(0)?.as_f64()?, p.get(1)?.as_f64()? / games)))
        .collect()
}

/// The histogram with its missing lengths at 0 across `lo..=hi`.
fn filled(pairs: &[(f64, f64)], lo: f64, hi: f64) -> Vec<Point> {
    let mut out = vec![];
    let mut it = pairs.iter().peekable();
    let mut x = lo;
    while x <= hi && out.len() < 100_000 {
        let y = match it.peek() {
            Some(&&(px, py)) if px == x => {
                it.next();
                py
            }
            _ => 0.0,
        };
        out.push((x, y, None));
        x += 1.0;
    }
    out
}

/// Game lengths: overlaid lines up to six studies, else one small chart per study on the same
/// axes.
fn lengths_section(h: &mut String, d: &Data) -> Result<(), String> {
    let hists: Vec<(&Entry, Vec<(f64, f64)>)> = studies(d)
        .map(|(_, e)| (e, lengths_of(e)))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if hists.is_empty() {
        return Ok(());
    }
    let all = || hists.iter().flat_map(|(_, l)| l.iter());
    let lo = all().map(|p| p.0).fold(f64::INFINITY, f64::min) - 1.0;
    let hi = all().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max) + 1.0;
    let top = all().map(|p| p.1).fold(0.0, f64::max);
    let overlay = hists.len() <= 6;
    let _ = write!(
        h,
        "<section id=\"lengths\">\n<h2>Lengths of the games</h2>\n<p class=\"note\">The share of \
         games that lasted each number of turns (the study's histogram).</p>\n<div class=\"charts{}\">\n",
        if overlay { "" } else { " small" }
    );
    let spec = |id: String, title: String| Spec {
        desc: format!("{title}: the share of games (y) that lasted each number of turns (x)"),
        id,
        class: "lengths",
        title,
        x_desc: "turns".into(),
        y_desc: "share of games".into(),
        percent: true,
    };
    let ranges = Some(((lo, hi), (0.0, top * 1.08 + 1e-9)));
    if overlay {
        let series: Vec<Series> = hists
            .iter()
            .map(|(_, l)| Series {
                points: filled(l, lo, hi),
            })
            .collect();
        let names: Vec<String> = hists.iter().map(|(e, _)| e.label.clone()).collect();
        let svg = charts::lines(
            &spec("chart-lengths".into(), "Lengths of the games".into()),
            &series,
            false,
            ranges,
        )?;
        figure(h, &svg, "Lengths of the games, in turns", &names);
    } else {
        for (i, (e, l)) in hists.iter().enumerate() {
            let series = [Series {
                points: filled(l, lo, hi),
            }];
            let title = format!("Lengths of the games: {}", e.label);
            let svg = charts::lines(
                &spec(format!("chart-lengths-{i}"), title),
                &series,
                false,
                ranges,
            )?;
            figure(h, &svg, &esc(&e.label), &[]);
        }
    }
    h.push_str("</div>\n</section>\n");
    Ok(())
}

/// Who wins by seat: each study's shares of wins by side and of draws, stacked.
fn wins_section(h: &mut String, d: &Data) -> Result<(), String> {
    let mut parts: Vec<String> = vec![];
    for (_, e) in studies(d) {
        for side in e.study.iter().flat_map(|(s, _)| &s.sides) {
            let key = format!("win.{side}");
            if !parts.contains(&key) {
                parts.push(key);
            }
        }
    }
    if parts.is_empty() {
        return Ok(());
    }
    parts.push("draw".into());
    let mut rows = vec![];
    let mut shares = vec![];
    for (_, e) in studies(d) {
        let Some((_, v)) = &e.study else { continue };
        rows.push(e.label.clone());
        shares.push(
            parts
                .iter()
                .map(|k| {
                    metric(v, k)
                        .map(|m| m.0)
                        .filter(|x| x.is_finite())
                        .unwrap_or(0.0)
                })
                .collect(),
        );
    }
    let names: Vec<String> = parts
        .iter()
        .map(|k| match k.strip_prefix("win.") {
            Some(side) => format!("{side} wins"),
            None => "draws".into(),
        })
        .collect();
    let spec = Spec {
        id: "chart-wins".into(),
        class: "wins",
        title: "Who wins, by seat".into(),
        desc: format!(
            "For each {}, the shares of its games won by each side and drawn ({}), stacked",
            if d.kind == Kind::Comparison {
                "column"
            } else {
                "point"
            },
            names.join(", ")
        ),
        x_desc: "share of games".into(),
        y_desc: String::new(),
        percent: true,
    };
    let svg = charts::stacked(&spec, &rows, &shares)?;
    h.push_str(
        "<section id=\"wins\">\n<h2>Who wins, by seat</h2>\n<p class=\"note\">The shares of \
         games won by each side, and drawn (by the rules, a limit or a fault).</p>\n\
         <div class=\"charts wide\">\n",
    );
    figure(h, &svg, "Wins by side, and draws", &names);
    h.push_str("</div>\n</section>\n");
    Ok(())
}

/// A number as an attribute: Rust's shortest round-trip form of the JSON's `f64`.
fn attr_num(x: f64) -> String {
    format!("{x}")
}

/// The table: a row per metric, a column per study; each cell carries the JSON's numbers.
fn table_section(h: &mut String, d: &Data) {
    let cols: Vec<(usize, &Entry)> = studies(d).collect();
    if cols.is_empty() {
        return;
    }
    // the counts of rounds only where a game has rounds and some match had more than one (as
    // the study's own table)
    let rounds = cols.iter().any(|(_, e)| {
        e.study
            .as_ref()
            .is_some_and(|(s, _)| s.rounds_game && s.stats.rounds.max() > Some(1))
    });
    let mut rows: Vec<Metric> = vec![];
    for (_, e) in &cols {
        for m in e.study.iter().flat_map(|(s, _)| s.metrics()) {
            if m.key.starts_with("rounds.") && !rounds {
                continue;
            }
            if !rows.iter().any(|r| r.key == m.key) {
                rows.push(m);
            }
        }
    }
    let what = match d.kind {
        Kind::Study => "the study",
        Kind::Comparison => "column",
        Kind::Sweep => "point",
    };
    let _ = write!(
        h,
        "<section id=\"metrics\">\n<h2>Every metric</h2>\n<p class=\"note\">Each value with its \
         95% interval [low, high] below it{}.</p>\n<div class=\"table-wrap\">\n<table \
         id=\"metrics-table\">\n<thead><tr><th scope=\"col\">metric</th>",
        if d.kind == Kind::Comparison {
            "; <span class=\"sig\">*</span> marks a difference with the first column (p &lt; 0.05)"
        } else {
            ""
        }
    );
    for (i, e) in &cols {
        let partial = e.study.as_ref().is_some_and(|(s, _)| s.partial);
        let _ = write!(
            h,
            "<th scope=\"col\" data-entry=\"{i}\">{}{}</th>",
            esc(&e.label),
            if partial { " (PARTIAL)" } else { "" }
        );
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for m in &rows {
        let _ = write!(
            h,
            "<tr><th scope=\"row\" title=\"{}\">{}</th>",
            esc(&m.key),
            esc(&m.label)
        );
        for (c, (i, e)) in cols.iter().enumerate() {
            let v = e.study.as_ref().and_then(|(_, v)| metric(v, &m.key));
            cell(h, d, &m.key, m.percent, *i, c, v, what);
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody>\n</table>\n</div>\n</section>\n");
}

/// A cell of the table.
#[allow(clippy::too_many_arguments)]
fn cell(
    h: &mut String,
    d: &Data,
    key: &str,
    percent: bool,
    entry: usize,
    column: usize,
    v: Option<(f64, Option<(f64, f64)>)>,
    what: &str,
) {
    let Some((value, ci)) = v else {
        let _ = write!(
            h,
            "<td class=\"none\" data-metric=\"{}\" data-entry=\"{entry}\">–</td>",
            esc(key)
        );
        return;
    };
    let _ = write!(
        h,
        "<td data-metric=\"{}\" data-entry=\"{entry}\" data-value=\"{}\"",
        esc(key),
        attr_num(value)
    );
    if let Some((lo, hi)) = ci {
        let _ = write!(
            h,
            " data-low=\"{}\" data-high=\"{}\"",
            attr_num(lo),
            attr_num(hi)
        );
    }
    let _ = write!(h, " title=\"{}, {what} {}\">", esc(key), column + 1);
    h.push_str(&esc(&readable(value, percent, whole(key))));
    let p = d
        .p_values
        .iter()
        .find(|(k, c, _)| k == key && *c == column)
        .map(|x| x.2);
    if let Some(p) = p.filter(|p| *p < crate::study::compare::ALPHA) {
        let _ = write!(h, "<span class=\"sig\" title=\"p = {}\">*</span>", short(p));
    }
    if let Some((lo, hi)) = ci {
        let _ = write!(
            h,
            "<span class=\"ci\">[{}, {}]</span>",
            esc(&readable(lo, percent, false)),
            esc(&readable(hi, percent, false))
        );
    }
    h.push_str("</td>");
}

/// The points that failed, with their errors.
fn errors_section(h: &mut String, d: &Data) {
    let failed: Vec<&Entry> = d.entries.iter().filter(|e| e.error.is_some()).collect();
    if failed.is_empty() {
        return;
    }
    h.push_str("<section id=\"errors\">\n<h2>Points that failed</h2>\n<ul class=\"errors\">\n");
    for e in failed {
        let _ = writeln!(
            h,
            "<li><strong>{}</strong>: {}</li>",
            esc(&e.label),
            esc(e.error.as_deref().unwrap_or(""))
        );
    }
    h.push_str("</ul>\n</section>\n");
}
