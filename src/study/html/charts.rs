//! The charts of a report, drawn by `plotters` on its SVG backend into a string: points with
//! their intervals against a number, bars side by side with their intervals, lines of a
//! distribution, and stacked shares. Each chart's `<svg>` gets a `viewBox` and `width="100%"`
//! (it scales with the page), an id, a class, and a `<title>` and `<desc>` for readers.
//!
//! Text is drawn by the browser (`<text>` elements, a generic sans-serif family): `plotters`
//! without its `ttf` feature reads no font file, and estimates the size of a label to lay the
//! axes out.

use plotters::prelude::*;
use std::fmt::Write as _;

/// The Okabe–Ito palette, safe for the common forms of colour blindness (its yellow, too pale
/// on white, is left out).
pub(crate) const PALETTE: [(u8, u8, u8); 7] = [
    (0, 114, 178),   // blue
    (213, 94, 0),    // vermilion
    (0, 158, 115),   // bluish green
    (204, 121, 167), // reddish purple
    (230, 159, 0),   // orange
    (86, 180, 233),  // sky blue
    (0, 0, 0),       // black
];

/// The colour of series `i`, as `#rrggbb`.
pub(crate) fn hex(i: usize) -> String {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn colour(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The marker of series `i` past the palette's length (the colours come round again).
pub(crate) fn marker(i: usize) -> &'static str {
    ["●", "▲", "■", "✚"][(i / PALETTE.len()) % 4]
}

const FONT: &str = "sans-serif";
/// `plotters` writes a font size divided by 1.24: these are about 18.5 and 17 pixels, in a
/// picture small enough that they stay legible when it shrinks to a phone's width.
const LABEL: u32 = 23;
const DESC: u32 = 21;
const SIZE: (u32, u32) = (500, 340);

/// What every chart has.
pub(crate) struct Spec {
    pub id: String,
    pub class: &'static str,
    pub title: String,
    pub desc: String,
    pub x_desc: String,
    pub y_desc: String,
    /// the y values are shares (0..1), labelled as percentages
    pub percent: bool,
}

/// A point: x, y and the interval of y.
pub(crate) type Point = (f64, f64, Option<(f64, f64)>);

/// A series of points.
pub(crate) struct Series {
    pub points: Vec<Point>,
}

type Res<T> = Result<T, String>;

fn err(e: impl std::fmt::Display) -> String {
    format!("a chart could not be drawn: {e}")
}

/// The `<svg>` that `plotters` opens, replaced by one that scales and says what it shows.
fn finish(spec: &Spec, size: (u32, u32), svg: String) -> Res<String> {
    let (w, h) = size;
    let opening = format!(
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\n"
    );
    let body = svg
        .strip_prefix(&opening)
        .ok_or_else(|| err("the SVG backend opened its picture in an unexpected way"))?;
    let id = &spec.id;
    let mut out = String::with_capacity(svg.len() + 400);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"100%\" \
         class=\"chart {}\" id=\"{id}\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\">\n\
         <title id=\"{id}-title\">{}</title>\n<desc id=\"{id}-desc\">{}</desc>\n",
        spec.class,
        super::page::esc(&spec.title),
        super::page::esc(&spec.desc)
    );
    out.push_str(body);
    Ok(out)
}

/// A range that holds `lo..hi` with a margin, never empty (and `from_zero`: from 0).
fn padded(lo: f64, hi: f64, from_zero: bool) -> (f64, f64) {
    let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    if from_zero {
        lo = lo.min(0.0);
    }
    let span = hi - lo;
    let pad = if span > 0.0 {
        span * 0.08
    } else {
        (hi.abs() * 0.1).max(0.05)
    };
    if !from_zero || lo < 0.0 {
        lo -= pad;
    }
    hi += pad;
    (lo, hi)
}

/// A tick's label on an axis of this span (about `ticks` ticks): as many decimals as the
/// step between ticks needs, the same for every tick; a share as a percentage.
fn tick(x: f64, span: f64, ticks: f64, percent: bool) -> String {
    let scale = if percent { 100.0 } else { 1.0 };
    let step = (span * scale / ticks).abs();
    let decimals = if step > 0.0 && step.is_finite() {
        (-step.log10().floor()).clamp(0.0, 8.0) as usize
    } else {
        0
    };
    let v = x * scale;
    // no `-0`
    let v = if v.abs() < 0.5 * 10f64.powi(-(decimals as i32)) {
        0.0
    } else {
        v
    };
    format!("{v:.decimals$}{}", if percent { "%" } else { "" })
}

fn bounds<'a>(values: impl Iterator<Item = &'a Point>) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for (_, y, ci) in values {
        for v in [Some(*y), ci.map(|c| c.0), ci.map(|c| c.1)]
            .into_iter()
            .flatten()
        {
            if v.is_finite() {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
    }
    (lo, hi)
}

/// Points (with their intervals as error bars, `markers`) joined by lines, one colour per
/// series, against a numeric x; `ranges` fixes the axes (small multiples share them).
pub(crate) fn lines(
    spec: &Spec,
    series: &[Series],
    markers: bool,
    ranges: Option<((f64, f64), (f64, f64))>,
) -> Res<String> {
    let ((x0, x1), (y0, y1)) = ranges.unwrap_or_else(|| line_ranges(series, spec.percent));
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    let integers = xs.iter().all(|x| x.fract() == 0.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = frame(&root, 24, 84, x0..x1, y0..y1)?;
        let xl = |x: &f64| {
            if integers && x.fract() != 0.0 {
                String::new()
            } else if integers {
                format!("{x:.0}")
            } else {
                tick(*x, x1 - x0, 8.0, false)
            }
        };
        let yl = |y: &f64| tick(*y, y1 - y0, 8.0, spec.percent);
        house_style(&mut chart.configure_mesh())
            .x_labels(if integers { 12 } else { 8 })
            .y_labels(8)
            .x_label_formatter(&xl)
            .y_label_formatter(&yl)
            .x_desc(spec.x_desc.as_str())
            .y_desc(spec.y_desc.as_str())
            .draw()
            .map_err(err)?;
        for (i, s) in series.iter().enumerate() {
            draw_series(&mut chart, i, s, markers)?;
        }
        root.present().map_err(err)?;
    }
    finish(spec, SIZE, svg)
}

fn line_ranges(series: &[Series], percent: bool) -> ((f64, f64), (f64, f64)) {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let (ylo, yhi) = bounds(all());
    let xlo = all().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let xhi = all().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let (mut xlo, mut xhi) = padded(xlo, xhi, false);
    if xhi - xlo < 1e-9 {
        (xlo, xhi) = (xlo - 1.0, xhi + 1.0);
    }
    let (mut ylo, yhi) = padded(ylo, yhi, false);
    if percent && ylo < 0.0 && yhi > 0.0 {
        ylo = ylo.max(-0.02);
    }
    ((xlo, xhi), (ylo, yhi))
}

type Mesh<'a, 'b, 'c> = plotters::chart::MeshStyle<
    'a,
    'b,
    plotters::coord::types::RangedCoordf64,
    plotters::coord::types::RangedCoordf64,
    SVGBackend<'c>,
>;

/// The mesh of every chart: its fonts and its grid's greys.
fn house_style<'m, 'a, 'b, 'c>(m: &'m mut Mesh<'a, 'b, 'c>) -> &'m mut Mesh<'a, 'b, 'c> {
    m.label_style((FONT, LABEL))
        .axis_desc_style((FONT, DESC))
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(214, 214, 214))
}

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// The plotting area of every chart on `root`: its margins (`right` on the right), the x
/// axis's labels' room, `y_room` for the y axis's labels, and the ranges of x and y.
fn frame<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    right: u32,
    y_room: u32,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> Res<Chart<'a, 'b>> {
    ChartBuilder::on(root)
        .margin(14)
        .margin_right(right)
        .x_label_area_size(62)
        .y_label_area_size(y_room)
        .build_cartesian_2d(x, y)
        .map_err(err)
}

fn draw_series(chart: &mut Chart, i: usize, s: &Series, markers: bool) -> Res<()> {
    let c = colour(i);
    let line = c.stroke_width(if markers { 2 } else { 3 });
    let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.1)).collect();
    chart
        .draw_series(LineSeries::new(pts.iter().copied(), line))
        .map_err(err)?;
    if !markers {
        return Ok(());
    }
    chart
        .draw_series(s.points.iter().filter_map(|&(x, y, ci)| {
            let (lo, hi) = ci?;
            Some(ErrorBar::new_vertical(x, lo, y, hi, c.stroke_width(2), 12))
        }))
        .map_err(err)?;
    let filled = c.filled();
    match (i / PALETTE.len()) % 4 {
        0 => chart.draw_series(pts.iter().map(|&p| Circle::new(p, 5, filled))),
        1 => chart.draw_series(pts.iter().map(|&p| TriangleMarker::new(p, 7, filled))),
        2 => chart.draw_series(
            pts.iter()
                .map(|&p| EmptyElement::at(p) + Rectangle::new([(-5, -5), (5, 5)], filled)),
        ),
        _ => chart.draw_series(pts.iter().map(|&p| Cross::new(p, 6, c.stroke_width(3)))),
    }
    .map_err(err)?;
    Ok(())
}

/// A bar's value and its interval.
pub(crate) type Bar = Option<(f64, Option<(f64, f64)>)>;

/// Bars side by side: for each category (on x), one bar per series (its colour), with the
/// bar's interval as a whisker.
pub(crate) fn bars(spec: &Spec, categories: &[String], series: &[Vec<Bar>]) -> Res<String> {
    let n = categories.len().max(1);
    let k = series.len().max(1);
    let all: Vec<Point> = series
        .iter()
        .flatten()
        .flatten()
        .map(|&(v, ci)| (0.0, v, ci))
        .collect();
    let (lo, hi) = bounds(all.iter());
    let (y0, y1) = padded(lo, hi, true);
    let longest = categories
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
    // long names (a comparison's columns) are cut to fit below their bars
    let room = (((SIZE.0 - 110) as usize / n) / 9).max(4);
    let shown: Vec<String> = categories
        .iter()
        .map(|c| {
            if c.chars().count() <= room || longest <= room {
                c.clone()
            } else {
                let cut: String = c.chars().take(room.saturating_sub(1)).collect();
                format!("{cut}…")
            }
        })
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = frame(&root, 24, 84, -0.5..(n as f64 - 0.5), y0..y1)?;
        let xl = |x: &f64| {
            let r = x.round();
            if (x - r).abs() > 1e-6 || r < 0.0 {
                return String::new();
            }
            shown.get(r as usize).cloned().unwrap_or_default()
        };
        let yl = |y: &f64| tick(*y, y1 - y0, 8.0, spec.percent);
        house_style(&mut chart.configure_mesh())
            .disable_x_mesh()
            .x_labels(2 * n + 2)
            .y_labels(8)
            .x_label_formatter(&xl)
            .y_label_formatter(&yl)
            .x_desc(spec.x_desc.as_str())
            .y_desc(spec.y_desc.as_str())
            .draw()
            .map_err(err)?;
        let width = 0.8 / k as f64;
        for (j, s) in series.iter().enumerate() {
            let c = colour(j);
            let at = |i: usize| i as f64 - 0.4 + width * (j as f64 + 0.5);
            let base = 0f64.max(y0);
            chart
                .draw_series(s.iter().enumerate().filter_map(|(i, b)| {
                    let (v, _) = (*b)?;
                    let x = at(i);
                    Some(Rectangle::new(
                        [(x - width * 0.45, base), (x + width * 0.45, v)],
                        c.filled(),
                    ))
                }))
                .map_err(err)?;
            // a whisker: the interval's line and a cap at each end
            let whisker = BLACK.stroke_width(2);
            for (i, b) in s.iter().enumerate() {
                let Some((_, Some((lo, hi)))) = *b else {
                    continue;
                };
                let x = at(i);
                chart
                    .draw_series([PathElement::new([(x, lo), (x, hi)], whisker)])
                    .map_err(err)?;
                chart
                    .draw_series([lo, hi].map(|y| {
                        EmptyElement::at((x, y)) + PathElement::new([(-6, 0), (6, 0)], whisker)
                    }))
                    .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
    }
    finish(spec, SIZE, svg)
}

/// Horizontal bars, one per row (top to bottom), each cut into its parts' shares (0..1), one
/// colour per part.
pub(crate) fn stacked(spec: &Spec, rows: &[String], shares: &[Vec<f64>]) -> Res<String> {
    let n = rows.len().max(1);
    let longest = rows.iter().map(|r| r.chars().count()).max().unwrap_or(4);
    let label_room = (longest as u32 * 9 + 20).clamp(60, 300);
    let size = (560, (n as u32 * 34 + 110).max(180));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = frame(&root, 28, label_room, 0f64..1f64, 0f64..n as f64)?;
        // row r (from the top) is drawn between n - 1 - r and n - r, its name at its middle
        let yl = |y: &f64| {
            let k = y - 0.5;
            if (k - k.round()).abs() > 1e-6 || k < 0.0 {
                return String::new();
            }
            (n - 1)
                .checked_sub(k.round() as usize)
                .and_then(|r| rows.get(r))
                .cloned()
                .unwrap_or_default()
        };
        let xl = |x: &f64| tick(*x, 1.0, 6.0, true);
        house_style(&mut chart.configure_mesh())
            .disable_y_mesh()
            .x_labels(6)
            .y_labels(2 * n + 2)
            .x_label_formatter(&xl)
            .y_label_formatter(&yl)
            .x_desc(spec.x_desc.as_str())
            .draw()
            .map_err(err)?;
        let parts = shares.iter().map(Vec::len).max().unwrap_or(0);
        for p in 0..parts {
            let c = colour(p);
            chart
                .draw_series(shares.iter().enumerate().filter_map(|(r, s)| {
                    let from: f64 = s.iter().take(p).sum();
                    let w = *s.get(p)?;
                    let y = (n - 1 - r) as f64;
                    let rect = Rectangle::new(
                        [(from.min(1.0), y + 0.16), ((from + w).min(1.0), y + 0.84)],
                        c.filled(),
                    );
                    Some(rect)
                }))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    finish(spec, size, svg)
}
