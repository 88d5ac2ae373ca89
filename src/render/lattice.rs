//! A board of points joined by lines, drawn as text (see [`lattice_text`]).

use super::*;

/// A board of points joined by lines, drawn as a lattice: each point shows its top piece's
/// side (or `.` when empty), lines are drawn between points, and an unplayable (`void`) point
/// is an `x` with its lines struck out. Files are labelled below, ranks on the left.
pub(super) fn lattice_text(g: &Game, st: &State, look: &Look) -> String {
    let (min_x, max_x) = (
        g.sites.iter().map(|s| s.x).min().unwrap_or(0),
        g.sites.iter().map(|s| s.x).max().unwrap_or(0),
    );
    let (min_y, max_y) = (
        g.sites.iter().map(|s| s.y).min().unwrap_or(0),
        g.sites.iter().map(|s| s.y).max().unwrap_or(0),
    );
    let (sx, sy) = (4usize, 2usize);
    let width = ((max_x - min_x) as usize).min(60) * sx + 1;
    let height = ((max_y - min_y) as usize).min(60) * sy + 1;
    let mut canvas = vec![vec![' '; width]; height];
    let at = |x: i64, y: i64| (((max_y - y) as usize) * sy, ((x - min_x) as usize) * sx);
    let void = |s: usize| st.site_kind(SiteId(s as u16)) == SiteKind::Void;
    for step in &g.step {
        for (s, &t) in step.iter().enumerate() {
            if t == u16::MAX || (t as usize) < s || void(s) || void(t as usize) {
                continue;
            }
            let (r1, c1) = at(g.sites[s].x, g.sites[s].y);
            let (r2, c2) = at(g.sites[t as usize].x, g.sites[t as usize].y);
            let (dr, dc) = (r2 as i64 - r1 as i64, c2 as i64 - c1 as i64);
            // Horizontal lines fill every column between; others one mark per row between.
            let n = if dr == 0 { dc.abs() } else { dr.abs() };
            let ch = if dr == 0 {
                '-'
            } else if dc == 0 {
                '|'
            } else if (dc > 0) == (dr < 0) {
                '/'
            } else {
                '\\'
            };
            for i in 1..n {
                let (r, c) = (
                    (r1 as i64 + dr * i / n) as usize,
                    (c1 as i64 + dc * i / n) as usize,
                );
                if let Some(cell) = canvas.get_mut(r).and_then(|row| row.get_mut(c))
                    && *cell == ' '
                {
                    *cell = ch;
                }
            }
        }
    }
    let ini = initials(g);
    for (i, s) in g.sites.iter().enumerate() {
        let (r, c) = at(s.x, s.y);
        let ch = if void(i) {
            'x'
        } else {
            match st.tokens().stack(SiteId(i as u16)).last() {
                Some(&t) => ini[g.side_of(g.tokens[t].owner).0 as usize]
                    .chars()
                    .next()
                    .unwrap_or('?'),
                None if st.total_at(g, SiteId(i as u16)) > 0 => '*',
                None => '.',
            }
        };
        if let Some(cell) = canvas.get_mut(r).and_then(|row| row.get_mut(c)) {
            *cell = ch;
        }
        // a marked point between brackets (without colour), over the lines beside it
        if !look.colour && look.marked.contains(&SiteId(i as u16)) {
            for (dc, b) in [(-1i64, '['), (1, ']')] {
                if let Some(cell) = canvas
                    .get_mut(r)
                    .and_then(|row| row.get_mut((c as i64 + dc) as usize))
                {
                    *cell = b;
                }
            }
        }
    }
    // With colour, each point's character in its side's colour, marked points reversed.
    let mut styled: Vec<Vec<String>> = canvas
        .iter()
        .map(|row| row.iter().map(|c| c.to_string()).collect())
        .collect();
    if look.colour {
        for (i, s) in g.sites.iter().enumerate() {
            let (r, c) = at(s.x, s.y);
            let id = SiteId(i as u16);
            let side = st
                .tokens()
                .stack(id)
                .last()
                .map(|&t| g.side_of(g.tokens[t].owner).0 as usize);
            let marked = look.marked.contains(&id);
            if (side.is_some() || marked)
                && let Some(cell) = styled.get_mut(r).and_then(|row| row.get_mut(c))
            {
                *cell = paint(look, cell, side, marked);
            }
        }
    }
    // Labels from the names of generated points: letters for files, numbers for ranks.
    let rank_label = |y: i64| {
        g.sites
            .iter()
            .find(|s| s.y == y)
            .map(|s| {
                s.name
                    .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                    .to_string()
            })
            .unwrap_or_default()
    };
    let mut out = String::new();
    for (r, row) in styled.iter().enumerate() {
        let label = if r % sy == 0 {
            rank_label(max_y - (r / sy) as i64)
        } else {
            String::new()
        };
        out.push_str(&format!("{label:>3} {}\n", row.concat().trim_end()));
    }
    let mut files = vec![' '; width];
    for s in &g.sites {
        let (_, c) = at(s.x, s.y);
        if let Some(ch) = s.name.chars().next()
            && c < width
        {
            files[c] = ch;
        }
    }
    out.push_str(&format!(
        "    {}\n",
        files.iter().collect::<String>().trim_end()
    ));
    out
}
