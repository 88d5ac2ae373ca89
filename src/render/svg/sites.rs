//! The sites of a picture: each one's shape, the counters it holds (a number, seeds, badges
//! for other kinds of pieces), its name, and the stacks of tokens on it.

use super::geometry::Shape;
use super::{INK, KIND_COLOURS, Picture, esc, is_light, n, player_label, text_width, tint};
use crate::ir::{PieceKind, Player, SiteId, SiteKind};
use std::fmt::Write as _;

impl Picture<'_> {
    /// One site: its shape (struck out when void), what it holds, its name.
    pub(super) fn site(&mut self, s: SiteId) {
        let (g, st) = (self.g, self.st);
        let i = s.0 as usize;
        let kind = st.site_kind(s);
        let (x, y) = self.lay.at(s);
        let shape = self.lay.shape[i];
        let owner = st.site_owner(s);
        let _ = write!(
            self.out,
            r#"<g class="site" data-site="{}" data-kind="{}"{}>"#,
            esc(&g.sites[i].name),
            kind.name(),
            owner
                .map(|p| format!(r#" data-owner="{}""#, esc(g.player_name(p))))
                .unwrap_or_default()
        );
        let (fill, stroke, width) = match (kind, owner) {
            (SiteKind::Void, _) => ("#e6dccb".to_string(), "#b3a58c".to_string(), 1.5),
            (SiteKind::Point, _) => ("#4a3826".to_string(), "#4a3826".to_string(), 1.0),
            (_, Some(p)) => {
                let c = self.colour(p);
                let c = if is_light(c) { "#8a8172" } else { c };
                let fill = if kind == SiteKind::Store {
                    tint(c, 0.78)
                } else {
                    "url(#hole)".to_string()
                };
                (fill, c.to_string(), 3.0)
            }
            (SiteKind::Store, None) => ("#f0dcb8".into(), "#8a6a45".into(), 2.0),
            _ => ("url(#hole)".into(), "#8a6a45".into(), 2.0),
        };
        self.out.push_str(&shape.body(x, y, &fill, &stroke, width));
        if kind == SiteKind::Void {
            let r = shape.inner_radius().max(4.0) * 0.7;
            let _ = write!(
                self.out,
                r##"<path class="void" d="M{},{} L{},{} M{},{} L{},{}" stroke="#9c8b6e" stroke-width="2" stroke-linecap="round"/>"##,
                n(x - r),
                n(y - r),
                n(x + r),
                n(y + r),
                n(x - r),
                n(y + r),
                n(x + r),
                n(y - r)
            );
        }
        if !self.counters.is_empty() {
            self.contents(s, x, y, shape);
        }
        self.name(s, x, y, shape);
        self.out.push_str("</g>\n");
    }

    /// Counters at a site: the number of the first kind in the middle with a ring of seeds
    /// around it when few, and a badge for each other kind present.
    pub(super) fn contents(&mut self, s: SiteId, x: f64, y: f64, shape: Shape) {
        let (g, st) = (self.g, self.st);
        let first = self.counters[0];
        let c = st.count(g, s, first);
        let others: Vec<(PieceKind, u32)> = self.counters[1..]
            .iter()
            .map(|&k| (k, st.count(g, s, k)))
            .filter(|&(_, c)| c > 0)
            .collect();
        if shape.is_dot() {
            self.stones(s, x, y);
            return;
        }
        let r = shape.inner_radius();
        let size = (r * 0.5).clamp(11.0, 20.0);
        let seeds = seed_ring(c, r, size * 0.75);
        for (k, (sx, sy, sr)) in seeds.iter().enumerate() {
            let _ = write!(
                self.out,
                r#"<circle class="seed" cx="{}" cy="{}" r="{}" fill="url(#seed)" opacity="{}"/>"#,
                n(x + sx),
                n(y + sy),
                n(*sr),
                ["1", "0.85", "0.93"][k % 3]
            );
        }
        let colour = if c == 0 { "#a8957a" } else { INK };
        let _ = write!(
            self.out,
            r#"<text class="count" data-kind="{}" x="{}" y="{}" font-size="{}" font-weight="700" fill="{colour}" text-anchor="middle">{c}</text>"#,
            esc(&g.pieces[first.0 as usize].name),
            n(x),
            n(y + size * 0.36),
            n(size)
        );
        for (j, (k, c)) in others.iter().enumerate() {
            let name = &g.pieces[k.0 as usize].name;
            let label = if *c == 1 {
                name.clone()
            } else {
                format!("{c} {name}")
            };
            let w = text_width(&label, 11.0) + 10.0;
            // Above the number, then below it, then further out.
            let off = (j / 2 + 1) as f64 * (size * 0.5 + 9.0);
            let by = if j % 2 == 0 { y - off } else { y + off };
            let bc = KIND_COLOURS[(k.0 as usize).saturating_sub(1) % KIND_COLOURS.len()];
            let _ = write!(
                self.out,
                r##"<g class="piece-badge" data-kind="{}"><rect x="{}" y="{}" width="{}" height="15" rx="7.5" fill="{bc}" stroke="#5a4630" stroke-width="1"/><text class="count" data-kind="{}" x="{}" y="{}" font-size="11" font-weight="700" fill="{INK}" text-anchor="middle">{}</text></g>"##,
                esc(name),
                n(x - w / 2.0),
                n(by - 7.5),
                n(w),
                esc(name),
                n(x),
                n(by + 4.0),
                esc(&label)
            );
        }
    }

    /// The site's name: outside holes and stores (above in the upper half of the board, below
    /// in the lower half), in the corner of a cell, beside a point unless the edges are labelled.
    pub(super) fn name(&mut self, s: SiteId, x: f64, y: f64, shape: Shape) {
        let name = esc(self.g.site_name(s));
        let kind = self.g.sites[s.0 as usize].kind;
        match kind {
            SiteKind::Point if self.lay.grid.is_some() => {}
            SiteKind::Point => {
                // above or below the room of the point's tokens
                let i = s.0 as usize;
                let (up, down) = self.lay.point_room(i).unwrap_or((6.0, 6.0));
                let ty = if self.lay.name_above(i) {
                    y - up - 3.0
                } else {
                    y + down + 10.0
                };
                let _ = write!(
                    self.out,
                    r##"<text class="name" x="{}" y="{}" font-size="10" fill="#7a6a55" text-anchor="middle">{name}</text>"##,
                    n(x),
                    n(ty)
                );
            }
            SiteKind::Cell => {
                let (hw, hh) = shape.half();
                let _ = write!(
                    self.out,
                    r##"<text class="name" x="{}" y="{}" font-size="10" fill="#7a6a55">{name}</text>"##,
                    n(x - hw + 4.0),
                    n(y - hh + 12.0)
                );
            }
            _ => {
                let (_, hh) = shape.half();
                // Clear of a region's outline around the site.
                let hh = if self.g.regions.iter().any(|(_, m)| m[s.0 as usize]) {
                    hh + 6.0
                } else {
                    hh
                };
                let above = y < self.lay.mid_y - 0.5;
                let ty = if above { y - hh - 6.0 } else { y + hh + 14.0 };
                let _ = write!(
                    self.out,
                    r##"<text class="name" x="{}" y="{}" font-size="11" fill="#5a4630" text-anchor="middle">{name}</text>"##,
                    n(x),
                    n(ty)
                );
            }
        }
    }

    /// The tokens of a site as a column of discs, bottom first, each peeking out under the one
    /// above; the height beside a stack of more than one.
    pub(super) fn stack(&mut self, s: SiteId, stack: &[usize]) {
        let g = self.g;
        let (x, y) = self.lay.at(s);
        let mut r = self.lay.token_r;
        let k = stack.len();
        let step_of = |r: f64| {
            if k > 1 {
                (r * 0.9 / (k - 1) as f64).min(r * 0.32)
            } else {
                0.0
            }
        };
        // how far the stack reaches above and below its middle (its height's badge included)
        let reach = |r: f64| {
            let half = step_of(r) * (k - 1) as f64 / 2.0;
            let badge = if k > 1 { (r * 0.8 + 9.0).max(r) } else { r };
            (half + badge, half + r)
        };
        let mut middle = y;
        // In a cell, the stack keeps below the cell's name (in its top corner); on a point, in
        // the room between the point's name and its neighbours: moved, and smaller when it must.
        let room = if self.st.site_kind(s) == SiteKind::Cell {
            let (_, hh) = self.lay.shape[s.0 as usize].half();
            Some((y - hh + 15.0, y + hh - 1.0))
        } else {
            self.lay
                .point_room(s.0 as usize)
                .map(|(up, down)| (y - up, y + down))
        };
        if let Some((top, bottom)) = room {
            for _ in 0..12 {
                let (up, down) = reach(r);
                if up + down <= bottom - top {
                    break;
                }
                r *= 0.9;
            }
            let (up, down) = reach(r);
            middle = (y.max(top + up)).min(bottom - down);
        }
        let step = step_of(r);
        let base = middle + step * (k - 1) as f64 / 2.0;
        let _ = write!(
            self.out,
            r#"<g class="stack" data-site="{}" data-height="{k}">"#,
            esc(g.site_name(s))
        );
        for (i, &t) in stack.iter().enumerate() {
            let p = g.tokens[t].owner;
            let cy = base - step * i as f64;
            self.out.push_str(&self.disc("token", Some(t), p, x, cy, r));
        }
        if k > 1 {
            let top = base - step * (k - 1) as f64;
            let (bx, by) = (x + r * 0.8, top - r * 0.8);
            let _ = write!(
                self.out,
                r##"<circle cx="{}" cy="{}" r="9" fill="#fffdf6" stroke="#5a4630" stroke-width="1.2"/><text class="height" x="{}" y="{}" font-size="11" font-weight="700" fill="{INK}" text-anchor="middle">{k}</text>"##,
                n(bx),
                n(by),
                n(bx),
                n(by + 4.0)
            );
        }
        self.out.push_str("</g>\n");
    }

    /// Counters on a point, drawn as stones: one disc for each kind it holds, side by side, the
    /// first kinds in the colours of the sides in order (the first kind in the first side's),
    /// the others in the badges' colours; the number on the disc when more than one.
    fn stones(&mut self, s: SiteId, x: f64, y: f64) {
        let (g, st) = (self.g, self.st);
        let held: Vec<(usize, PieceKind, u32)> = self
            .counters
            .iter()
            .enumerate()
            .map(|(i, &k)| (i, k, st.count(g, s, k)))
            .filter(|&(_, _, c)| c > 0)
            .collect();
        let r = self.lay.token_r;
        let w = held.len().saturating_sub(1) as f64 * r * 1.1;
        for (j, &(i, k, c)) in held.iter().enumerate() {
            let colour = match self.colours.get(i).filter(|_| i < g.sides.len()) {
                Some(c) => *c,
                None => KIND_COLOURS[i.saturating_sub(1) % KIND_COLOURS.len()],
            };
            let edge = if is_light(colour) {
                "#5a5248"
            } else {
                "#1c1611"
            };
            let ink = if is_light(colour) { INK } else { "#ffffff" };
            let cx = x - w / 2.0 + j as f64 * r * 1.1;
            let label = if c > 1 { c.to_string() } else { String::new() };
            let _ = write!(
                self.out,
                r#"<g class="stone" data-kind="{}"><circle cx="{}" cy="{}" r="{}" fill="{colour}" stroke="{edge}" stroke-width="1.5"/><text class="count" data-kind="{}" data-count="{c}" x="{}" y="{}" font-size="{}" font-weight="700" fill="{ink}" text-anchor="middle">{label}</text></g>"#,
                esc(&g.pieces[k.0 as usize].name),
                n(cx),
                n(y),
                n(r),
                esc(&g.pieces[k.0 as usize].name),
                n(cx),
                n(y + r * 0.36),
                n((r * 0.95).max(8.0)),
            );
        }
    }

    /// A token's disc: the colour of its owner's side, his number in a team.
    pub(super) fn disc(
        &self,
        class: &str,
        t: Option<usize>,
        p: Player,
        x: f64,
        y: f64,
        r: f64,
    ) -> String {
        let g = self.g;
        let c = self.colour(p);
        let edge = if is_light(c) { "#5a5248" } else { "#1c1611" };
        let token = t;
        let t = t
            .map(|t| format!(r#" data-token="{t}""#))
            .unwrap_or_default();
        let mut out = format!(
            r#"<g class="{class}"{t} data-player="{}"><circle cx="{}" cy="{}" r="{}" fill="{c}" stroke="{edge}" stroke-width="1.5"/><circle cx="{}" cy="{}" r="{}" fill="none" stroke="{}" stroke-opacity="0.35" stroke-width="1"/>"#,
            esc(g.player_name(p)),
            n(x),
            n(y),
            n(r),
            n(x),
            n(y),
            n(r * 0.68),
            if is_light(c) { "#5a5248" } else { "#ffffff" }
        );
        let kind = token.and_then(|t| {
            let letters = self.kind_letters.as_ref()?;
            letters.get(self.st.tokens().kind_of(t).0 as usize).copied()
        });
        let label = match (kind, player_label(g, p)) {
            (Some(k), Some(team)) => Some(format!("{k}{team}")),
            (Some(k), None) => Some(k.to_string()),
            (None, team) => team,
        };
        if let Some(label) = label {
            let ink = if is_light(c) { INK } else { "#ffffff" };
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" font-size="{}" font-weight="700" fill="{ink}" text-anchor="middle">{label}</text>"#,
                n(x),
                n(y + r * 0.36),
                n((r * 0.95).max(8.0))
            );
        }
        out.push_str("</g>");
        out
    }
}

/// Positions (relative to the centre) and radius of up to a ring or two of seeds around the
/// middle of a site of inner radius `r`, keeping clear of a number of half height `clear`;
/// none when there are too many to show one by one.
fn seed_ring(count: u32, r: f64, clear: f64) -> Vec<(f64, f64, f64)> {
    if count == 0 {
        return vec![];
    }
    let sr = (r * 0.095).clamp(2.4, 4.6);
    let mut rings = vec![];
    let mut rho = r - sr - 3.0;
    while rho - sr > clear + 2.0 {
        let cap = ((2.0 * std::f64::consts::PI * rho) / (2.0 * sr + 1.6)).floor() as u32;
        rings.push((rho, cap));
        rho -= 2.0 * sr + 1.8;
    }
    let total: u32 = rings.iter().map(|r| r.1).sum();
    if count > total || count > 40 {
        return vec![];
    }
    let mut out = vec![];
    let mut left = count;
    for (rho, cap) in rings {
        let k = left.min(cap);
        for j in 0..k {
            let a = -std::f64::consts::FRAC_PI_2 + j as f64 * 2.0 * std::f64::consts::PI / k as f64;
            out.push((rho * a.cos(), rho * a.sin(), sr));
        }
        left -= k;
        if left == 0 {
            break;
        }
    }
    out
}
