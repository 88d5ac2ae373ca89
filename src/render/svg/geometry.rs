//! Where everything goes in a picture: the sites' places on the page (their coordinates scaled
//! so that the nearest two sites are a comfortable distance apart), each site's shape and size,
//! the paths of tracks beside the sites, and the labels of a lettered grid.

use super::n;
use crate::engine::{Game, State};
use crate::ir::{SiteId, SiteKind};
use std::collections::BTreeMap;

/// The height a site's name (10 pixels high) takes beside a point, with its margins.
pub(super) const NAME_H: f64 = 12.0;

/// The outline of a site, centred on its place.
#[derive(Clone, Copy, Debug)]
pub(super) enum Shape {
    /// a hole
    Circle(f64),
    /// a store (rounded) or a cell: half width, half height, corner radius
    Rect(f64, f64, f64),
    /// a point where lines meet
    Dot(f64),
}

impl Shape {
    pub(super) fn is_dot(self) -> bool {
        matches!(self, Shape::Dot(_))
    }

    /// Half the width and half the height.
    pub(super) fn half(self) -> (f64, f64) {
        match self {
            Shape::Circle(r) | Shape::Dot(r) => (r, r),
            Shape::Rect(w, h, _) => (w, h),
        }
    }

    /// The radius of the largest circle inside.
    pub(super) fn inner_radius(self) -> f64 {
        let (w, h) = self.half();
        w.min(h)
    }

    /// The distance from the centre to the outline in the direction (ux, uy) (a unit vector).
    fn reach(self, ux: f64, uy: f64) -> f64 {
        match self {
            Shape::Circle(r) | Shape::Dot(r) => r,
            Shape::Rect(w, h, _) => {
                let a = if ux.abs() > 1e-9 {
                    w / ux.abs()
                } else {
                    f64::MAX
                };
                let b = if uy.abs() > 1e-9 {
                    h / uy.abs()
                } else {
                    f64::MAX
                };
                a.min(b)
            }
        }
    }

    /// The shape itself (the one element of class `site-shape` of its site).
    pub(super) fn body(self, x: f64, y: f64, fill: &str, stroke: &str, width: f64) -> String {
        match self {
            Shape::Circle(r) | Shape::Dot(r) => format!(
                r#"<circle class="site-shape" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"#,
                n(x),
                n(y),
                n(r),
                n(width)
            ),
            Shape::Rect(w, h, rx) => format!(
                r#"<rect class="site-shape" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"#,
                n(x - w),
                n(y - h),
                n(2.0 * w),
                n(2.0 * h),
                n(rx),
                n(width)
            ),
        }
    }

    /// An outline around the shape, `pad` outside it.
    pub(super) fn outline(
        self,
        x: f64,
        y: f64,
        pad: f64,
        colour: &str,
        width: f64,
        dash: Option<&str>,
    ) -> String {
        let dash = dash
            .map(|d| format!(r#" stroke-dasharray="{d}""#))
            .unwrap_or_default();
        match self {
            Shape::Circle(r) | Shape::Dot(r) => format!(
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{colour}" stroke-width="{}"{dash}/>"#,
                n(x),
                n(y),
                n(r + pad),
                n(width)
            ),
            Shape::Rect(w, h, rx) => format!(
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="none" stroke="{colour}" stroke-width="{}"{dash}/>"#,
                n(x - w - pad),
                n(y - h - pad),
                n(2.0 * (w + pad)),
                n(2.0 * (h + pad)),
                n(rx + pad),
                n(width)
            ),
        }
    }
}

/// Letters of files and numbers of ranks, for a board whose points are named `a1`, `b2`, ….
#[derive(Debug)]
pub(super) struct Grid {
    pub(super) files: Vec<(f64, String)>,
    pub(super) ranks: Vec<(f64, String)>,
}

/// The places and shapes of a picture's sites.
pub(super) struct Layout {
    x: Vec<f64>,
    y: Vec<f64>,
    pub(super) shape: Vec<Shape>,
    /// the radius of a token's disc
    pub(super) token_r: f64,
    /// a board of points joined by lines (rather than holes or cells)
    pub(super) points_board: bool,
    /// the middle of the board, from top to bottom
    pub(super) mid_y: f64,
    pub(super) grid: Option<Grid>,
    /// how far a track runs beside the sites it passes
    track_offset: f64,
    /// the line of each side's track on the page
    pub(super) tracks: Vec<Option<Vec<(f64, f64)>>>,
    /// the plate under the board: left, top, right, bottom
    plate: (f64, f64, f64, f64),
}

impl Layout {
    pub(super) fn new(g: &Game, st: &State) -> Layout {
        let count = g.sites.len();
        // The kind most sites have sets the scale.
        let mut kinds: BTreeMap<SiteKind, usize> = BTreeMap::new();
        for s in &g.sites {
            *kinds.entry(s.kind).or_default() += 1;
        }
        let main = kinds
            .iter()
            .max_by_key(|(_, c)| **c)
            .map(|(k, _)| *k)
            .unwrap_or(SiteKind::Hole);
        let points_board = main == SiteKind::Point;
        let mut d_min = f64::MAX;
        for a in 0..count {
            for b in a + 1..count {
                let (sa, sb) = (&g.sites[a], &g.sites[b]);
                let d = (((sa.x - sb.x).pow(2) + (sa.y - sb.y).pow(2)) as f64).sqrt();
                if d > 0.0 {
                    d_min = d_min.min(d);
                }
            }
        }
        if d_min == f64::MAX {
            d_min = 1.0;
        }
        let mut unit: f64 = match main {
            SiteKind::Hole | SiteKind::Store => 84.0,
            SiteKind::Cell => 74.0,
            SiteKind::Point | SiteKind::Void => 56.0,
        };
        let span = |f: &dyn Fn(&crate::ir::SiteInfo) -> i64| {
            let lo = g.sites.iter().map(f).min().unwrap_or(0);
            let hi = g.sites.iter().map(f).max().unwrap_or(0);
            (hi - lo) as f64 / d_min
        };
        let (sx, sy) = (span(&|s| s.x), span(&|s| s.y));
        // Very large boards shrink to fit a screen, down to a readable size.
        if sx * unit > 1100.0 || sy * unit > 800.0 {
            unit = (1100.0 / sx.max(1.0)).min(800.0 / sy.max(1.0)).max(26.0);
        }
        let scale = unit / d_min;
        let max_y = g.sites.iter().map(|s| s.y).max().unwrap_or(0);
        let x: Vec<f64> = g.sites.iter().map(|s| s.x as f64 * scale).collect();
        let y: Vec<f64> = g
            .sites
            .iter()
            .map(|s| (max_y - s.y) as f64 * scale)
            .collect();
        let hole_r = 0.42 * unit;
        let gap = 4.0;
        let kind_of = |i: usize| match st.site_kind(SiteId(i as u16)) {
            SiteKind::Void => g.sites[i].kind,
            k => k,
        };
        let mut shape: Vec<Shape> = (0..count)
            .map(|i| match kind_of(i) {
                SiteKind::Hole | SiteKind::Store => Shape::Circle(hole_r),
                SiteKind::Cell => Shape::Rect(0.47 * unit, 0.47 * unit, 5.0),
                _ => Shape::Dot((0.085 * unit).max(3.5)),
            })
            .collect();
        // A store is as tall as the room around it allows, within the rows of the board.
        let (top, bottom) = (
            y.iter().copied().fold(f64::MAX, f64::min),
            y.iter().copied().fold(f64::MIN, f64::max),
        );
        for i in 0..count {
            if kind_of(i) != SiteKind::Store {
                continue;
            }
            let w = 0.44 * unit;
            let mut h = (y[i] - top).min(bottom - y[i]) + hole_r;
            for j in (0..count).filter(|&j| j != i) {
                let (rw, rh) = shape[j].half();
                let r = rw.max(rh);
                if (x[j] - x[i]).abs() < w + r + gap {
                    h = h.min((y[j] - y[i]).abs() - r - gap);
                }
            }
            shape[i] = Shape::Rect(w, h.max(w), 14.0_f64.min(w * 0.45));
        }
        let token_r = if points_board {
            0.36 * unit
        } else {
            0.3 * unit
        };
        let track_offset = match main {
            SiteKind::Cell => 0.47 * unit + 10.0,
            SiteKind::Hole | SiteKind::Store => hole_r + 8.0,
            _ => (0.14 * unit).max(5.0),
        };
        let grid = if points_board { grid(g, &x, &y) } else { None };
        let mut lay = Layout {
            mid_y: (top + bottom) / 2.0,
            x,
            y,
            shape,
            token_r,
            points_board,
            grid,
            track_offset,
            tracks: vec![],
            plate: (0.0, 0.0, 0.0, 0.0),
        };
        lay.tracks = lay.track_lines(g);
        lay.plate = lay.measure(g);
        let (dx, dy) = (-lay.plate.0, -lay.plate.1);
        lay.shift(dx, dy);
        lay
    }

    /// The plate: every shape, the names outside holes, the tracks, the grid's labels.
    fn measure(&self, g: &Game) -> (f64, f64, f64, f64) {
        let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let mut add = |x0: f64, y0: f64, x1: f64, y1: f64| {
            b = (b.0.min(x0), b.1.min(y0), b.2.max(x1), b.3.max(y1));
        };
        for i in 0..self.x.len() {
            let (w, h) = self.shape[i].half();
            // Room for a region's outline, and for the name outside a hole or store.
            let ring = if g.regions.iter().any(|(_, m)| m[i]) {
                8.0
            } else {
                0.0
            };
            let (w, h) = (w + ring, h + ring);
            let (w, h) = match self.shape[i] {
                Shape::Circle(_) => (w, h + 17.0),
                Shape::Dot(_) => match self.point_room(i) {
                    // the name outside the room of the point's tokens
                    Some((up, down)) => {
                        let w = w.max(self.token_r);
                        let (up, down) = if self.name_above(i) {
                            (up + NAME_H, down)
                        } else {
                            (up, down + NAME_H)
                        };
                        add(
                            self.x[i] - w,
                            self.y[i] - up,
                            self.x[i] + w,
                            self.y[i] + down,
                        );
                        continue;
                    }
                    None => (w.max(self.token_r), h.max(self.token_r)),
                },
                Shape::Rect(..) if g.sites[i].kind == SiteKind::Store => (w, h + 17.0),
                Shape::Rect(..) => (w, h),
            };
            add(self.x[i] - w, self.y[i] - h, self.x[i] + w, self.y[i] + h);
        }
        for (x, y) in self.tracks.iter().flatten().flatten() {
            add(x - 6.0, y - 6.0, x + 6.0, y + 6.0);
        }
        if b.0 == f64::MAX {
            b = (0.0, 0.0, 0.0, 0.0);
        }
        let pad = 14.0;
        let (left, bottom) = if self.grid.is_some() {
            (22.0, 22.0)
        } else {
            (0.0, 0.0)
        };
        (b.0 - pad - left, b.1 - pad, b.2 + pad, b.3 + pad + bottom)
    }

    pub(super) fn width(&self) -> f64 {
        self.plate.2 - self.plate.0
    }

    pub(super) fn height(&self) -> f64 {
        self.plate.3 - self.plate.1
    }

    /// Whether a site's name is drawn above it (in the upper half of the board) rather than
    /// below it.
    pub(super) fn name_above(&self, i: usize) -> bool {
        self.y[i] < self.mid_y - 0.5
    }

    /// On a board of points without a grid, the room of a point's tokens above and below its
    /// centre, its name outside that room: as far as the tallest stack reaches (its height's
    /// badge on top), and no further than half way to the next site above or below, less the
    /// names drawn in between. None for other sites.
    pub(super) fn point_room(&self, i: usize) -> Option<(f64, f64)> {
        if self.grid.is_some() || !matches!(self.shape[i], Shape::Dot(_)) {
            return None;
        }
        let r = self.token_r;
        let (mut up, mut down) = (0.45 * r + (0.8 * r + 9.0).max(r), 1.45 * r);
        let above = self.name_above(i);
        for j in (0..self.x.len()).filter(|&j| j != i) {
            if (self.x[j] - self.x[i]).abs() >= 2.0 * r {
                continue;
            }
            let d = self.y[i] - self.y[j];
            if d > 0.5 {
                // j above: the names facing into the gap are i's (above) and j's (below)
                let names = (above as u8 + !self.name_above(j) as u8) as f64 * NAME_H;
                up = up.min((d - names) / 2.0 - 2.0);
            } else if d < -0.5 {
                let names = (!above as u8 + self.name_above(j) as u8) as f64 * NAME_H;
                down = down.min((-d - names) / 2.0 - 2.0);
            }
        }
        Some((up.max(0.0), down.max(0.0)))
    }

    pub(super) fn plate(&self) -> (f64, f64, f64, f64) {
        self.plate
    }

    /// Moves the whole board on the page.
    pub(super) fn shift(&mut self, dx: f64, dy: f64) {
        self.x.iter_mut().for_each(|x| *x += dx);
        self.y.iter_mut().for_each(|y| *y += dy);
        self.mid_y += dy;
        self.plate = (
            self.plate.0 + dx,
            self.plate.1 + dy,
            self.plate.2 + dx,
            self.plate.3 + dy,
        );
        for (x, y) in self.tracks.iter_mut().flatten().flatten() {
            *x += dx;
            *y += dy;
        }
        if let Some(grid) = &mut self.grid {
            grid.files.iter_mut().for_each(|f| f.0 += dx);
            grid.ranks.iter_mut().for_each(|r| r.0 += dy);
        }
    }

    /// A site's centre on the page.
    pub(super) fn at(&self, s: SiteId) -> (f64, f64) {
        let i = s.0 as usize;
        (self.x[i], self.y[i])
    }

    /// The open stretch of the straight line from one site to another, `pad` clear of both
    /// shapes (none when the shapes leave no room between them).
    pub(super) fn gap(&self, a: SiteId, b: SiteId, pad: f64) -> Option<((f64, f64), (f64, f64))> {
        let (ax, ay) = self.at(a);
        let (bx, by) = self.at(b);
        let d = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
        if d < 1e-9 {
            return None;
        }
        let (ux, uy) = ((bx - ax) / d, (by - ay) / d);
        let s = self.shape[a.0 as usize].reach(ux, uy) + pad;
        let e = d - self.shape[b.0 as usize].reach(ux, uy) - pad;
        (e > s).then_some(((ax + ux * s, ay + uy * s), (ax + ux * e, ay + uy * e)))
    }

    /// The line of each side's track: beside the sites it passes, on the side (right or left
    /// of the way it goes) that keeps it furthest from the tracks before it, so that two sides
    /// going opposite ways along the same sites, or the same way round, have a lane each.
    fn track_lines(&self, g: &Game) -> Vec<Option<Vec<(f64, f64)>>> {
        let mut out: Vec<Option<Vec<(f64, f64)>>> = vec![];
        for t in &g.tracks {
            let Some(t) = t else {
                out.push(None);
                continue;
            };
            let drawn: Vec<(f64, f64)> = out.iter().flatten().flatten().copied().collect();
            // The mean distance of a line's corners from the lines drawn before.
            let apart = |line: &[(f64, f64)]| {
                let d: f64 = line
                    .iter()
                    .map(|a| {
                        drawn
                            .iter()
                            .map(|b| (a.0 - b.0).hypot(a.1 - b.1))
                            .fold(f64::MAX, f64::min)
                    })
                    .sum();
                d / line.len().max(1) as f64
            };
            let right = self.track_path(&t.sites, 1.0);
            let left = self.track_path(&t.sites, -1.0);
            out.push(Some(if apart(&left) > apart(&right) + 1.0 {
                left
            } else {
                right
            }));
        }
        out
    }

    /// The path of a track through its sites, moved to the right of the way it goes (to the
    /// left when `side` is -1).
    fn track_path(&self, sites: &[u16], side: f64) -> Vec<(f64, f64)> {
        let mut pts: Vec<(f64, f64)> = vec![];
        for &s in sites {
            let p = self.at(SiteId(s));
            if pts.last() != Some(&p) {
                pts.push(p);
            }
        }
        if pts.len() < 2 {
            return pts;
        }
        let normal = |a: (f64, f64), b: (f64, f64)| {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let d = (dx * dx + dy * dy).sqrt().max(1e-9);
            // The right of the way on a page whose y goes down.
            (-dy / d, dx / d)
        };
        let off = self.track_offset * side;
        (0..pts.len())
            .map(|i| {
                let n1 = if i > 0 {
                    normal(pts[i - 1], pts[i])
                } else {
                    normal(pts[i], pts[i + 1])
                };
                let n2 = if i + 1 < pts.len() {
                    normal(pts[i], pts[i + 1])
                } else {
                    n1
                };
                let (mx, my) = (n1.0 + n2.0, n1.1 + n2.1);
                let m = (mx * mx + my * my).sqrt();
                let (mx, my) = if m < 1e-6 { n1 } else { (mx / m, my / m) };
                let k = off / (mx * n1.0 + my * n1.1).max(0.5);

                (pts[i].0 + mx * k, pts[i].1 + my * k)
            })
            .collect()
    }
}

/// The files and ranks of a board whose every point is named by letters and a number that
/// follow its x and y (`b2` at (0, 0), `c2` at (1, 0)); none otherwise.
fn grid(g: &Game, x: &[f64], y: &[f64]) -> Option<Grid> {
    let mut files: BTreeMap<i64, (String, f64)> = BTreeMap::new();
    let mut ranks: BTreeMap<i64, (String, f64)> = BTreeMap::new();
    for (i, s) in g.sites.iter().enumerate() {
        let split = s.name.find(|c: char| c.is_ascii_digit())?;
        let (file, rank) = s.name.split_at(split);
        let ok = !file.is_empty()
            && file.chars().all(|c| c.is_ascii_alphabetic())
            && rank.chars().all(|c| c.is_ascii_digit());
        if !ok {
            return None;
        }
        let f = files.entry(s.x).or_insert((file.to_string(), x[i]));
        let r = ranks.entry(s.y).or_insert((rank.to_string(), y[i]));
        if f.0 != file || r.0 != rank {
            return None;
        }
    }
    let distinct = |m: &BTreeMap<i64, (String, f64)>| {
        m.values()
            .map(|v| v.0.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            == m.len()
    };
    if !distinct(&files) || !distinct(&ranks) {
        return None;
    }
    Some(Grid {
        files: files.into_values().map(|(f, x)| (x, f)).collect(),
        ranks: ranks.into_values().map(|(r, y)| (y, r)).collect(),
    })
}
