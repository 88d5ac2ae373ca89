//! What is written around the board: the status line, a row for each player (his mark, what
//! he holds, his tallies, his tokens off the board) and the legend of the marks.

use super::{
    HIGHLIGHT, INK, Picture, REGION_COLOURS, esc, holdings, is_light, n, outcome_text, text_width,
};
use crate::engine::Pending;
use crate::ir::Player;
use std::fmt::Write as _;

impl Picture<'_> {
    /// Whose turn, or the result; the round, tallies of the game and the last throw.
    pub(super) fn status(&self) -> String {
        let (g, st) = (self.g, self.st);
        let mut parts = vec![];
        match st.pending() {
            Pending::Over(o) => parts.push(format!("Game over: {}", outcome_text(g, o))),
            Pending::ChanceFirst => parts.push("chance decides who plays first".into()),
            Pending::Throw(_) => parts.push(format!(
                "turn {}: {} throws",
                st.turn() + 1,
                g.player_name(st.mover())
            )),
            Pending::Choice(_) | Pending::Drop(_) => {
                let between = if g.is_between_rounds(st) {
                    " (between rounds)"
                } else {
                    ""
                };
                parts.push(format!(
                    "turn {}: {} to decide{between}",
                    st.turn() + 1,
                    g.player_name(st.mover())
                ))
            }
        }
        if g.between_start.is_some() && (st.round() > 1 || g.is_between_rounds(st)) {
            parts.push(format!("round {}", st.round()));
        }
        let shown = crate::render::tallies_shown(g, st);
        for (t, _) in g
            .tallies
            .iter()
            .zip(&shown)
            .filter(|&(t, &s)| s && !t.per_player)
        {
            if t.per_site {
                parts.push(format!("{}: {}", t.name, st.site_tally_text(g, t)));
                continue;
            }
            parts.push(format!(
                "{} {}",
                t.name,
                st.tally_value(t, None).unwrap_or(0)
            ));
        }
        if let Some((d, o)) = st.last_throw()
            && !matches!(st.pending(), Pending::Over(_))
        {
            parts.push(format!("last throw {}", g.throw_text(d, o)));
        }
        parts.join(" · ")
    }

    /// A row under the board for a player, centred on `y`: his mark and name, what he holds,
    /// his tallies, his tokens in each area off the board; and its width.
    pub(super) fn player_row(&self, p: Player, x0: f64, y: f64) -> (String, f64) {
        let (g, st) = (self.g, self.st);
        let mut svg = String::new();
        let mut x = x0;
        if !st.is_over() && st.mover() == p {
            let _ = write!(
                svg,
                r#"<path class="to-move" d="M{},{} l8,6 l-8,6 z" fill="{INK}"/>"#,
                n(x - 16.0),
                n(y - 6.0)
            );
        }
        svg.push_str(&self.disc("player-mark", None, p, x + 10.0, y, 10.0));
        x += 28.0;
        let name = g.player_name(p);
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" font-size="14" font-weight="700" fill="{INK}">{}</text>"#,
            n(x),
            n(y + 5.0),
            esc(name)
        );
        x += text_width(name, 14.0) + 14.0;
        let mut words = vec![];
        if !self.counters.is_empty() {
            words.push(format!("holds {}", holdings(g, st, p)));
        }
        let shown = crate::render::tallies_shown(g, st);
        for (t, _) in g
            .tallies
            .iter()
            .zip(&shown)
            .filter(|&(t, &s)| s && t.per_player)
        {
            words.push(format!(
                "{} {}",
                t.name,
                st.tally_value(t, Some(p)).unwrap_or(0)
            ));
        }
        if !words.is_empty() {
            let text = words.join(" · ");
            let _ = write!(
                svg,
                r##"<text class="holdings" x="{}" y="{}" font-size="13" fill="#4a3b2c">{}</text>"##,
                n(x),
                n(y + 5.0),
                esc(&text)
            );
            x += text_width(&text, 13.0) + 18.0;
        }
        for (a, area) in g.areas.iter().enumerate() {
            let toks: Vec<usize> = (0..g.tokens.len())
                .filter(|&t| g.tokens[t].owner == p && st.tokens().area_of(t) == Some(a as u8))
                .collect();
            let label = format!("{area} {}", toks.len());
            let _ = write!(
                svg,
                r##"<text class="area" x="{}" y="{}" font-size="12" fill="#6b5a47">{}</text>"##,
                n(x),
                n(y + 4.0),
                esc(&label)
            );
            x += text_width(&label, 12.0) + 8.0;
            for t in toks {
                svg.push_str(&self.disc("token-off", Some(t), p, x + 7.0, y, 7.0));
                x += 16.0;
            }
            x += 18.0;
        }
        svg.push('\n');
        (svg, x - x0)
    }

    /// What the marks of the picture mean.
    pub(super) fn legend(&self) -> Vec<Legend> {
        let g = self.g;
        let mut items = vec![];
        for (r, (_, members)) in g.regions.iter().enumerate() {
            if members.iter().any(|&m| m) && !members.iter().all(|&m| m) {
                items.push(Legend::Region(r));
            }
        }
        if let Some([fwd, back]) = &g.dir_names
            && let Some(dirs) = super::sowing_directions(g)
            && g.next[0].iter().any(|&t| t != u16::MAX)
        {
            items.push(Legend::Ring(match dirs {
                [true, true] => format!("sowing: {fwd} or {back}, as the sower chooses"),
                [false, true] => format!("sowing: {back}"),
                _ => format!("sowing: {fwd}"),
            }));
        }
        for (side, t) in g.tracks.iter().enumerate() {
            if t.is_some() {
                items.push(Legend::Track(side));
            }
        }
        if !self.marks.is_empty() {
            items.push(Legend::LastMove);
        }
        items
    }

    pub(super) fn legend_text(&self, item: &Legend) -> String {
        match item {
            Legend::Region(r) => self.g.regions[*r].0.clone(),
            Legend::Ring(text) => text.clone(),
            Legend::Track(side) => format!("{}'s track", self.g.sides[*side]),
            Legend::LastMove => "last move".into(),
        }
    }

    pub(super) fn legend_width(&self, item: &Legend) -> f64 {
        24.0 + text_width(&self.legend_text(item), 12.0)
    }

    /// A legend item: its sign, then its words, from `x` on the line `y`.
    pub(super) fn legend_svg(&self, item: &Legend, x: f64, y: f64) -> String {
        let (cx, cy) = (x + 8.0, y - 4.0);
        let start = if super::sowing_directions(self.g) == Some([true, true]) {
            r#" marker-start="url(#arrow-ring)""#
        } else {
            ""
        };
        let sign = match item {
            Legend::Region(r) => format!(
                r#"<circle cx="{}" cy="{}" r="7" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="4 3"/>"#,
                n(cx),
                n(cy),
                REGION_COLOURS[r % REGION_COLOURS.len()]
            ),
            Legend::Ring(_) => format!(
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#6b5137" stroke-width="1.6"{start} marker-end="url(#arrow-ring)"/>"##,
                n(x),
                n(cy),
                n(x + 16.0),
                n(cy)
            ),
            Legend::Track(side) => {
                let c = self.colours[side % self.colours.len()];
                let c = if is_light(c) { "#8a8172" } else { c };
                format!(
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{c}" stroke-width="2.5" marker-end="url(#arrow-side{side})"/>"#,
                    n(x),
                    n(cy),
                    n(x + 16.0),
                    n(cy)
                )
            }
            Legend::LastMove => format!(
                r#"<circle cx="{}" cy="{}" r="7" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>"#,
                n(cx),
                n(cy)
            ),
        };
        format!(
            r##"<g class="legend">{sign}<text x="{}" y="{}" font-size="12" fill="#4a3b2c">{}</text></g>
"##,
            n(x + 24.0),
            n(y),
            esc(&self.legend_text(item))
        )
    }
}

/// An entry of the legend.
pub(super) enum Legend {
    Region(usize),
    Ring(String),
    Track(usize),
    LastMove,
}
