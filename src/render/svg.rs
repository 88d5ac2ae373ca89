//! A position as a picture: an SVG of any board, drawn from what the game file says (the sites'
//! coordinates, kinds and names, the lines between points, the ring of a sowing game, regions,
//! tracks, areas off the board) and what the state holds (owners and kinds of sites now,
//! counters, tokens and their stacks, holdings, tallies).
//!
//! The picture is built the same way for every game: sites are laid out by their coordinates
//! (y upwards), holes are circles, stores rounded rectangles as tall as the room around them,
//! cells squares, points dots on their lines. Each player has a colour by side and, in teams, a
//! number. Elements carry classes (`site-shape`, `token`, `token-off`, `count`) and `data-`
//! attributes so that tests and scripts can read the picture back.

use super::holdings;
use super::outcome_text;
use crate::engine::{Event, Game, State};
use crate::ir::{Domain, Expr, Instr, PieceKind, Player, SiteId, SiteKind};
use std::collections::BTreeSet;
use std::fmt::Write as _;

mod geometry;
mod panel;
mod sites;
use geometry::{Layout, Shape};
use panel::Legend;

/// Colours of the sides, in order (a side named after a colour gets that colour).
const SIDE_COLOURS: [&str; 6] = [
    "#c8412f", "#2d6cb5", "#2e8b57", "#b07d1a", "#7d4ba8", "#1f8a8a",
];
/// Colours of regions' outlines.
const REGION_COLOURS: [&str; 4] = ["#8e44ad", "#d35400", "#16a085", "#c0392b"];
/// Colours of the badges of piece kinds after the first.
const KIND_COLOURS: [&str; 4] = ["#e0b43c", "#b8c2cc", "#d08c5c", "#9fd18b"];
/// The colour that marks the sites of the last move.
const HIGHLIGHT: &str = "#f0a500";
const INK: &str = "#2b2118";
const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";

/// The SVG picture of a position; `last_move` are sites to mark (the last move's sites).
pub fn svg(g: &Game, st: &State, last_move: &[SiteId]) -> String {
    Picture::new(g, st, last_move).draw()
}

/// The directions of the ring the game sows in, from its `sow` statements: `[forward,
/// backward]` (a `sow … toward cw` sows one way; `toward d` with `d` chosen among `ccw cw`, both
/// ways); None when the file does not say (a direction computed by the rules), or when the
/// game does not sow.
pub fn sowing_directions(g: &Game) -> Option<[bool; 2]> {
    let mut dirs = [false; 2];
    for i in &g.code {
        let Instr::SowStart { dir, .. } = i else {
            continue;
        };
        match dir {
            Expr::Const(c) => dirs[usize::from(*c != 0)] = true,
            Expr::Var(v) => {
                let mut found = false;
                for alt in g.choices.iter().flat_map(|c| &c.alts) {
                    if alt.var == Some(*v)
                        && let Domain::Values(vals) = &alt.domain
                    {
                        for (c, _) in vals {
                            dirs[usize::from(*c != 0)] = true;
                            found = true;
                        }
                    }
                }
                if !found {
                    return None;
                }
            }
            _ => return None,
        }
    }
    (dirs[0] || dirs[1]).then_some(dirs)
}

/// The sites a decision touched, from its events: where a sowing started and ended, what was
/// captured, where tokens left and arrived, sites that changed owner or kind.
pub fn event_sites(events: &[Event]) -> Vec<SiteId> {
    let mut out = BTreeSet::new();
    for e in events {
        match e {
            Event::Lap { from, last, .. } => {
                out.insert(*from);
                out.extend(*last);
            }
            Event::CycleCut { at } => {
                out.insert(*at);
            }
            Event::Captured { site, .. }
            | Event::Placed { site, .. }
            | Event::Owner { site, .. }
            | Event::Kind { site, .. } => {
                out.insert(*site);
            }
            Event::Moved { from, to, .. } => {
                out.extend(*from);
                out.insert(*to);
            }
            Event::Sent { from, .. } => {
                out.extend(*from);
            }
            Event::TokenKind { site, .. } => out.extend(*site),
            Event::Given { .. } | Event::Passed { .. } | Event::AnotherTurn { .. } => {}
        }
    }
    out.into_iter().collect()
}

/// The sites whose contents, owner or kind differ between two states.
pub fn changed_sites(g: &Game, before: &State, after: &State) -> Vec<SiteId> {
    (0..g.sites.len())
        .map(|i| SiteId(i as u16))
        .filter(|&s| {
            before.site_kind(s) != after.site_kind(s)
                || before.site_owner(s) != after.site_owner(s)
                || before.tokens().stack(s) != after.tokens().stack(s)
                || (0..g.pieces.len()).any(|k| {
                    before.count(g, s, PieceKind(k as u8)) != after.count(g, s, PieceKind(k as u8))
                })
        })
        .collect()
}

/// Writes a picture whole (see [`crate::output::write_whole`]): a reader (a browser reloading
/// it) never sees half of it; `durable` for a last picture (`draw --out`).
pub fn write_atomic(path: &str, text: &str, durable: bool) -> std::io::Result<()> {
    crate::output::write_whole(path, text.as_bytes(), durable)
}

/// A picture kept up to date with a game in play (`play --svg FILE`): rewritten whole at each
/// update, with the sites that changed since the position before marked.
pub struct LivePicture {
    path: String,
    last: Option<State>,
    marks: Vec<SiteId>,
}

impl LivePicture {
    pub fn new(path: &str) -> Self {
        LivePicture {
            path: path.to_string(),
            last: None,
            marks: vec![],
        }
    }

    /// The file the picture is written to.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Draws the position into the file; the marks stay those of the last change of the board
    /// (a throw that moves nothing keeps the marks of the move before it).
    pub fn update(&mut self, g: &Game, st: &State) -> std::io::Result<()> {
        if let Some(before) = &self.last {
            let changed = changed_sites(g, before, st);
            if !changed.is_empty() {
                self.marks = changed;
            }
        }
        self.last = Some(st.clone());
        write_atomic(&self.path, &svg(g, st, &self.marks), false)
    }
}

/// Text escaped for XML.
fn esc(s: &str) -> String {
    super::xml_escape(s)
}

/// A length in pixels, rounded for the file.
fn n(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// The width of a text, estimated (no font metrics in a file).
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.58
}

/// Whether a colour is light (dark text goes on it).
fn is_light(hex: &str) -> bool {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
    let (r, g, b) = ((v >> 16) & 255, (v >> 8) & 255, v & 255);
    0.299 * r as f64 + 0.587 * g as f64 + 0.114 * b as f64 > 150.0
}

/// A colour mixed with white: `t` = 0 the colour, 1 white.
fn tint(hex: &str, t: f64) -> String {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
    let mix = |c: u32| (c as f64 + (255.0 - c as f64) * t).round() as u32;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix((v >> 16) & 255),
        mix((v >> 8) & 255),
        mix(v & 255)
    )
}

/// The colour of each side: its name's colour when it is named after one, else the palette's.
fn side_colours(g: &Game) -> Vec<&'static str> {
    let named = |s: &str| -> Option<&'static str> {
        Some(match s.to_lowercase().as_str() {
            "white" => "#f4efe2",
            "black" => "#2a2623",
            "red" => "#c8412f",
            "blue" => "#2d6cb5",
            "green" => "#2e8b57",
            "yellow" => "#e2b93b",
            _ => return None,
        })
    };
    let mut used = BTreeSet::new();
    let mut out: Vec<Option<&'static str>> = g.sides.iter().map(|s| named(s)).collect();
    out.iter().flatten().for_each(|c| {
        used.insert(*c);
    });
    let mut free = SIDE_COLOURS.iter().filter(|c| !used.contains(*c));
    out.iter_mut()
        .map(|c| c.or_else(|| free.next().copied()).unwrap_or("#777777"))
        .collect()
}

/// A player's mark: the side's colour, and in teams the player's number in his side.
fn player_label(g: &Game, p: Player) -> Option<String> {
    (g.players.len() > g.sides.len()).then(|| (p.0 as usize / g.sides.len().max(1) + 1).to_string())
}

/// Everything a drawing needs, computed once.
struct Picture<'a> {
    g: &'a Game,
    st: &'a State,
    marks: &'a [SiteId],
    colours: Vec<&'static str>,
    lay: Layout,
    /// the piece kinds that are counters (not individual tokens)
    counters: Vec<PieceKind>,
    /// a letter for each kind of tokens, when there are several (drawn on the discs)
    kind_letters: Option<Vec<char>>,
    out: String,
}

impl<'a> Picture<'a> {
    fn new(g: &'a Game, st: &'a State, marks: &'a [SiteId]) -> Self {
        let token_kinds: BTreeSet<u8> = g.tokens.iter().map(|t| t.kind.0).collect();
        Picture {
            g,
            st,
            marks,
            colours: side_colours(g),
            lay: Layout::new(g, st),
            counters: (0..g.pieces.len() as u8)
                .filter(|k| !token_kinds.contains(k))
                .map(PieceKind)
                .collect(),
            kind_letters: super::kind_letters(g),
            out: String::new(),
        }
    }

    fn colour(&self, p: Player) -> &'static str {
        self.colours[self.g.side_of(p).0 as usize % self.colours.len()]
    }

    fn draw(mut self) -> String {
        let g = self.g;
        let top = 74.0;
        let margin = 28.0;
        let (bw, bh) = (self.lay.width(), self.lay.height());
        self.lay.shift(margin, top);
        let rows_w = (0..g.players.len())
            .map(|p| self.player_row(Player(p as u8), margin, 0.0).1)
            .fold(0.0, f64::max);
        let status = self.status();
        let title_w = text_width(&g.meta.name, 22.0).max(text_width(&status, 14.0));
        let width = (bw.max(rows_w).max(title_w) + 2.0 * margin).max(420.0);
        // The legend in lines that fit the width.
        let mut lines: Vec<Vec<Legend>> = vec![];
        let mut used = f64::MAX;
        for item in self.legend() {
            let w = self.legend_width(&item) + 22.0;
            if used + w > width - 2.0 * margin {
                lines.push(vec![]);
                used = 0.0;
            }
            used += w;
            if let Some(l) = lines.last_mut() {
                l.push(item);
            }
        }
        let panel_top = top + bh + 22.0;
        let height = panel_top + g.players.len() as f64 * 34.0 + lines.len() as f64 * 24.0 + 18.0;
        // The board in the middle when the rows under it are wider.
        let dx = ((width - 2.0 * margin) - bw) / 2.0;
        if dx > 0.0 {
            self.lay.shift(dx, 0.0);
        }
        let _ = writeln!(
            self.out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">"#,
            w = n(width),
            h = n(height)
        );
        let _ = writeln!(self.out, "<title>{}</title>", esc(&g.meta.name));
        self.defs();
        let _ = writeln!(
            self.out,
            r##"<rect class="background" x="0" y="0" width="{}" height="{}" fill="#fbf8f1"/>"##,
            n(width),
            n(height)
        );
        let _ = writeln!(
            self.out,
            r#"<text class="title" x="{}" y="36" font-size="22" font-weight="700" fill="{INK}">{}</text>"#,
            n(margin),
            esc(&g.meta.name)
        );
        let _ = writeln!(
            self.out,
            r##"<text class="status" x="{}" y="58" font-size="14" fill="#5a4a3a">{}</text>"##,
            n(margin),
            esc(&status)
        );
        self.board();
        let mut y = panel_top;
        for p in 0..g.players.len() {
            let (row, _) = self.player_row(Player(p as u8), margin, y + 17.0);
            self.out.push_str(&row);
            y += 34.0;
        }
        for line in &lines {
            let mut x = margin;
            for item in line {
                let item_svg = self.legend_svg(item, x, y + 14.0);
                self.out.push_str(&item_svg);
                x += self.legend_width(item) + 22.0;
            }
            y += 24.0;
        }
        self.out.push_str("</svg>\n");
        self.out
    }

    fn defs(&mut self) {
        self.out.push_str("<defs>\n");
        let mut arrows: Vec<(String, String)> = vec![("ring".into(), "#6b5137".into())];
        for (i, c) in self.colours.iter().enumerate() {
            let c = if is_light(c) { "#8a8172" } else { c };
            arrows.push((format!("side{i}"), c.to_string()));
        }
        for (id, c) in arrows {
            let _ = writeln!(
                self.out,
                r#"<marker id="arrow-{id}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>"#
            );
            let _ = writeln!(
                self.out,
                r#"<marker id="chevron-{id}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.5" markerHeight="3.5" orient="auto"><path d="M1,1 L8,5 L1,9" fill="none" stroke="{c}" stroke-width="2.2"/></marker>"#
            );
        }
        self.out.push_str(
            r##"<radialGradient id="seed" cx="35%" cy="35%" r="70%"><stop offset="0" stop-color="#b08a64"/><stop offset="1" stop-color="#4e3521"/></radialGradient>
<radialGradient id="hole" cx="50%" cy="40%" r="65%"><stop offset="0" stop-color="#fff6e4"/><stop offset="1" stop-color="#ead2a8"/></radialGradient>
</defs>
"##,
        );
    }

    /// The board: its plate, lines, tracks, the ring, regions, sites and their contents,
    /// the last move's marks, then the tokens on top.
    fn board(&mut self) {
        let (g, st) = (self.g, self.st);
        let lay = &self.lay;
        let plate = lay.plate();
        let (fill, stroke) = if lay.points_board {
            ("#f1e4c6", "#cdb58a")
        } else {
            ("#d4a96f", "#a97c45")
        };
        let _ = writeln!(
            self.out,
            r#"<rect class="plate" x="{}" y="{}" width="{}" height="{}" rx="18" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
            n(plate.0),
            n(plate.1),
            n(plate.2 - plate.0),
            n(plate.3 - plate.1)
        );
        self.lines();
        self.tracks();
        self.regions();
        self.ring();
        for i in 0..g.sites.len() {
            self.site(SiteId(i as u16));
        }
        for &s in self.marks {
            if let Some(&shape) = self.lay.shape.get(s.0 as usize) {
                let (x, y) = self.lay.at(s);
                // Around the tokens on a point, which are wider than it.
                let shape = match shape {
                    Shape::Dot(r) if !self.st.tokens().stack(s).is_empty() => {
                        Shape::Dot(r.max(self.lay.token_r))
                    }
                    Shape::Dot(r) => Shape::Dot(r.max(self.lay.token_r * 0.45)),
                    s => s,
                };
                let _ = writeln!(
                    self.out,
                    r#"<g class="last-move" data-site="{}">{}</g>"#,
                    esc(g.site_name(s)),
                    shape.outline(x, y, 4.0, HIGHLIGHT, 3.5, None)
                );
            }
        }
        self.grid_labels();
        for i in 0..g.sites.len() {
            let s = SiteId(i as u16);
            let stack = st.tokens().stack(s);
            if !stack.is_empty() {
                self.stack(s, &stack);
            }
        }
    }

    /// The lines of the board: each link between points once (faint when a point is void);
    /// without lines, a track of points joins its consecutive points.
    fn lines(&mut self) {
        let (g, st) = (self.g, self.st);
        let mut edges = BTreeSet::new();
        for step in &g.step {
            for (s, &t) in step.iter().enumerate() {
                if t != u16::MAX {
                    edges.insert((s.min(t as usize), s.max(t as usize)));
                }
            }
        }
        if g.step.is_empty() && self.lay.points_board {
            for t in g.tracks.iter().flatten() {
                for w in t.sites.windows(2) {
                    let (a, b) = (w[0] as usize, w[1] as usize);
                    if a != b {
                        edges.insert((a.min(b), a.max(b)));
                    }
                }
            }
        }
        if edges.is_empty() {
            return;
        }
        self.out.push_str("<g class=\"lines\">\n");
        let void = |s: usize| st.site_kind(SiteId(s as u16)) == SiteKind::Void;
        for (a, b) in edges {
            let (x1, y1) = self.lay.at(SiteId(a as u16));
            let (x2, y2) = self.lay.at(SiteId(b as u16));
            let style = if void(a) || void(b) {
                r##"stroke="#b9a682" stroke-width="1.5" stroke-dasharray="3 4""##
            } else {
                r##"stroke="#6b5137" stroke-width="2.2""##
            };
            let _ = writeln!(
                self.out,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {style} stroke-linecap="round"/>"#,
                n(x1),
                n(y1),
                n(x2),
                n(y2)
            );
        }
        self.out.push_str("</g>\n");
    }

    /// Each side's track: a line in the side's colour beside the sites it passes, to the right
    /// of the way it goes, from a dot at its start to an arrow at its end.
    fn tracks(&mut self) {
        let g = self.g;
        for (side, pts) in self.lay.tracks.iter().enumerate() {
            let Some(pts) = pts else { continue };
            if pts.len() < 2 {
                continue;
            }
            let c = self.colours[side % self.colours.len()];
            let c = if is_light(c) { "#8a8172" } else { c };
            let path: Vec<String> = pts
                .iter()
                .map(|(x, y)| format!("{},{}", n(*x), n(*y)))
                .collect();
            let _ = writeln!(
                self.out,
                r#"<g class="track" data-side="{}"><polyline points="{}" fill="none" stroke="{c}" stroke-width="2.5" stroke-opacity="0.75" stroke-linejoin="round" marker-mid="url(#chevron-side{side})" marker-end="url(#arrow-side{side})"/><circle cx="{}" cy="{}" r="4" fill="{c}"/></g>"#,
                esc(&g.sides[side]),
                path.join(" "),
                n(pts[0].0),
                n(pts[0].1)
            );
        }
    }

    /// The ring of a sowing game: a small arrow in the gap between each site and the next one
    /// in the direction the game sows ([`sowing_directions`]); with a head at each end when
    /// the sower chooses the direction; none when the file does not say which way it sows.
    fn ring(&mut self) {
        let g = self.g;
        let mut arrows = String::new();
        let (d, both) = match sowing_directions(g) {
            Some([true, true]) => (0, true),
            Some([false, true]) => (1, false),
            Some([true, false]) => (0, false),
            _ => return,
        };
        let start = if both {
            r#" marker-start="url(#arrow-ring)""#
        } else {
            ""
        };
        for (s, &t) in g.next[d].iter().enumerate() {
            if t == u16::MAX || t as usize == s {
                continue;
            }
            if let Some((a, b)) = self.lay.gap(SiteId(s as u16), SiteId(t), 3.0)
                && ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt() >= 7.0
            {
                let _ = writeln!(
                    arrows,
                    r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#6b5137" stroke-width="1.6"{start} marker-end="url(#arrow-ring)"/>"##,
                    n(a.0),
                    n(a.1),
                    n(b.0),
                    n(b.1)
                );
            }
        }
        if !arrows.is_empty() {
            let _ = write!(self.out, "<g class=\"ring\">\n{arrows}</g>\n");
        }
    }

    /// Each region's sites circled with a dashed line of the region's colour.
    fn regions(&mut self) {
        let g = self.g;
        for (r, (name, members)) in g.regions.iter().enumerate() {
            if members.iter().all(|&m| m) {
                continue;
            }
            let c = REGION_COLOURS[r % REGION_COLOURS.len()];
            let _ = write!(
                self.out,
                r#"<g class="region" data-region="{}">"#,
                esc(name)
            );
            for (i, _) in members.iter().enumerate().filter(|(_, m)| **m) {
                let s = SiteId(i as u16);
                let (x, y) = self.lay.at(s);
                let pad = if self.lay.shape[i].is_dot() { 9.0 } else { 6.0 };
                let outline = self.lay.shape[i].outline(x, y, pad, c, 2.2, Some("6 4"));
                self.out.push_str(&outline);
            }
            self.out.push_str("</g>\n");
        }
    }

    /// Files below and ranks left of a board whose point names are a letter and a number.
    fn grid_labels(&mut self) {
        let Some(grid) = &self.lay.grid else { return };
        let plate = self.lay.plate();
        let mut out = String::from("<g class=\"grid-labels\" font-size=\"12\" fill=\"#6b5137\">");
        for (x, file) in &grid.files {
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
                n(*x),
                n(plate.3 - 6.0),
                esc(file)
            );
        }
        for (y, rank) in &grid.ranks {
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
                n(plate.0 + 11.0),
                n(*y + 4.0),
                esc(rank)
            );
        }
        out.push_str("</g>\n");
        self.out.push_str(&out);
    }
}
