//! The board: sites, rows, regions, rings, tracks, points and links, and the constant numbers
//! they are made of.

use super::*;

impl Checker<'_> {
    /// A coordinate within the board's bounds (`MAX_COORD`), or the error.
    pub(crate) fn coordinate(&mut self, v: i64, span: Span) -> Option<i64> {
        if v.abs_diff(0) > MAX_COORD as u64 {
            self.error(
                ErrorKind::TooLarge {
                    value: v,
                    what: "coordinates from -1000000 to 1000000",
                },
                span,
            );
            return None;
        }
        Some(v)
    }

    pub(super) fn expand_sites(&mut self, items: &[SiteItem]) -> Vec<(String, Span)> {
        let mut out = vec![];
        for it in items {
            match it {
                SiteItem::Name(id) => out.push((id.name.clone(), id.span)),
                SiteItem::Coord(x, y, span) => {
                    if let (Some(x), Some(y)) = (self.const_int(x), self.const_int(y))
                        && let Some(s) = self.site_at(x, y, *span)
                    {
                        out.push((self.t.sites[s.0 as usize].name.clone(), *span));
                    }
                }
                SiteItem::CoordRange(x1, y1, x2, y2, span) => {
                    let (Some(x1), Some(y1), Some(x2), Some(y2)) = (
                        self.const_int(x1),
                        self.const_int(y1),
                        self.const_int(x2),
                        self.const_int(y2),
                    ) else {
                        continue;
                    };
                    let (Some(dx), Some(dy)) = (x2.checked_sub(x1), y2.checked_sub(y1)) else {
                        self.error(
                            ErrorKind::BadRange {
                                name: format!("({x1}, {y1})..({x2}, {y2})"),
                            },
                            *span,
                        );
                        continue;
                    };
                    if !(dx == 0 || dy == 0 || dx.abs_diff(0) == dy.abs_diff(0))
                        || dx.abs_diff(0).max(dy.abs_diff(0)) > MAX_SITES as u64
                    {
                        self.error_hint(
                            ErrorKind::BadRange {
                                name: format!("({x1}, {y1})..({x2}, {y2})"),
                            },
                            *span,
                            "a range of points goes along a row, a column or a diagonal",
                        );
                        continue;
                    }
                    let steps = dx.abs().max(dy.abs()); // at most MAX_SITES here
                    for i in 0..=steps {
                        let (x, y) = (x1 + dx.signum() * i, y1 + dy.signum() * i);
                        match self.site_at(x, y, *span) {
                            Some(s) => out.push((self.t.sites[s.0 as usize].name.clone(), *span)),
                            None => break,
                        }
                    }
                }
                SiteItem::Range {
                    prefix,
                    from,
                    to,
                    span,
                } => {
                    let (Some(a), Some(b)) = (self.const_int(from), self.const_int(to)) else {
                        self.t.poisoned.push(prefix.name.clone());
                        continue;
                    };
                    if a < 0 || b < 0 || a.abs_diff(b) >= MAX_SITES as u64 {
                        self.error(
                            ErrorKind::BadRange {
                                name: format!("{}[{a}..{b}]", prefix.name),
                            },
                            *span,
                        );
                        self.t.poisoned.push(prefix.name.clone());
                        continue;
                    }
                    let step: i64 = if a <= b { 1 } else { -1 };
                    let mut i = a;
                    loop {
                        out.push((format!("{}{i}", prefix.name), *span));
                        if i == b {
                            break;
                        }
                        i += step;
                    }
                }
            }
        }
        out
    }

    pub(super) fn site_attrs(&mut self, attrs: &[SiteAttr]) -> (SiteKind, Option<Player>) {
        let mut kind = SiteKind::Hole;
        let mut owner = None;
        for a in attrs {
            match a {
                SiteAttr::Kind(id) => match SiteKind::ALL.iter().find(|k| k.name() == id.name) {
                    Some(k) => kind = *k,
                    None => {
                        let hint = suggest(&id.name, SiteKind::ALL.iter().map(|k| k.name()))
                            .map(|s| format!("did you mean `{s}`?"))
                            .unwrap_or_else(|| "site kinds are hole, store, cell and point".into());
                        self.error_hint(
                            ErrorKind::Unknown {
                                what: "site kind",
                                name: id.name.clone(),
                            },
                            id.span,
                            hint,
                        );
                    }
                },
                SiteAttr::Owner(id) => match self.t.sides.iter().position(|p| *p == id.name) {
                    Some(i) => owner = Some(Player(i as u8)),
                    None => {
                        let hint = suggest(&id.name, self.t.sides.iter().map(String::as_str))
                            .map(|s| format!("did you mean `{s}`?"))
                            .unwrap_or_else(|| "owners are the sides named in `sides`".into());
                        self.error_hint(
                            ErrorKind::Unknown {
                                what: "side",
                                name: id.name.clone(),
                            },
                            id.span,
                            hint,
                        );
                    }
                },
            }
        }
        (kind, owner)
    }

    pub(super) fn add_site(
        &mut self,
        name: String,
        span: Span,
        x: i64,
        y: i64,
        kind: SiteKind,
        owner: Option<Player>,
    ) {
        if self.t.sites.len() as i64 >= MAX_SITES {
            self.error(
                ErrorKind::TooLarge {
                    value: MAX_SITES + 1,
                    what: "at most 4096 sites",
                },
                span,
            );
            return;
        }
        // A site out of bounds is reported, and declared all the same (without a place),
        // so that its uses are not reported as unknown.
        let (x, y, placed) = match (self.coordinate(x, span), self.coordinate(y, span)) {
            (Some(x), Some(y)) => (x, y, true),
            _ => (0, 0, false),
        };
        let id = SiteId(self.t.sites.len() as u16);
        if self.declare(&name, Global::Site(id), span, "site") {
            if placed {
                self.t.at_coord.entry((x, y)).or_insert(id.0);
            }
            self.t.sites.push(SiteInfo {
                name,
                x,
                y,
                kind,
                owner,
            });
        }
    }

    pub(super) fn board(&mut self) {
        let f = self.t.file;
        let Some(b) = self.d.one_of(&f.boards, |b| b.span, "`board` block", true) else {
            return;
        };
        self.rows_and_sites(b);
        self.points(&b.points);
        self.links(&b.links);
        self.directions(&b.directions);
        let n = self.t.sites.len();
        self.t.next = [vec![u16::MAX; n], vec![u16::MAX; n]];
        self.t.opposite = vec![u16::MAX; n];
        self.regions(&b.regions, n);
        self.ring(&b.rings, n);
        self.tracks(&b.tracks);
        self.areas(&b.areas);
        self.opposites(&b.opposites);
        self.board_lines(&b.lines);
    }

    /// `row …` and `site …`: the sites written out, with their coordinates.
    fn rows_and_sites(&mut self, b: &ast::Board) {
        for row in &b.rows {
            let names = self.expand_sites(&row.sites);
            let y = self.const_int(&row.y).unwrap_or(0);
            let x0 = match &row.x {
                Some(x) => self.const_int(x).unwrap_or(1),
                None => 1,
            };
            let (kind, owner) = self.site_attrs(&row.attrs);
            for (i, (name, span)) in names.into_iter().enumerate() {
                // (a row has at most MAX_SITES names: out of bounds, add_site reports it)
                let x = x0.saturating_add(i as i64);
                self.add_site(name, span, x, y, kind, owner);
            }
        }
        for s in &b.sites {
            let x = self.const_int(&s.x).unwrap_or(0);
            let y = self.const_int(&s.y).unwrap_or(0);
            let (kind, owner) = self.site_attrs(&s.attrs);
            self.add_site(s.name.name.clone(), s.name.span, x, y, kind, owner);
        }
    }

    /// `region NAME = …`: fixed sets of sites.
    fn regions(&mut self, regions: &[ast::RegionDecl], n: usize) {
        for r in regions {
            let mut members = vec![false; n];
            for item in &r.items {
                let set = self.lower(|l| l.set_expr(item));
                if !self.t.static_members(&set, &mut members, true) {
                    self.error_hint(
                        ErrorKind::Type {
                            expected: "sites, ranges or regions".into(),
                            found: "a set that depends on the position".into(),
                        },
                        item.span,
                        "a region is fixed when the board is built",
                    );
                }
            }
            if self.t.regions.len() >= MAX_REGIONS {
                self.error(
                    ErrorKind::TooLarge {
                        value: MAX_REGIONS as i64 + 1,
                        what: "at most 1024 regions",
                    },
                    r.name.span,
                );
                break;
            }
            let id = RegionId(self.t.regions.len() as u16);
            if self.declare(&r.name.name, Global::Region(id), r.name.span, "region") {
                self.t.regions.push((r.name.name.clone(), members));
            }
        }
    }

    /// `ring … cw ccw`: the cycle of sowing and its two directions.
    fn ring(&mut self, rings: &[ast::RingDecl], n: usize) {
        if let Some(ring) = self.d.one_of(rings, |r| r.span, "`ring`", false) {
            let seq = self.resolve_sites(&ring.sites);
            let mut seen = vec![false; n];
            let mut ok = true;
            for (s, span) in &seq {
                if std::mem::replace(&mut seen[s.0 as usize], true) {
                    self.error(
                        ErrorKind::RingRepeat {
                            name: self.t.sites[s.0 as usize].name.clone(),
                        },
                        *span,
                    );
                    ok = false;
                }
            }
            if ok && !seq.is_empty() {
                let len = seq.len();
                for i in 0..len {
                    let a = seq[i].0.0;
                    let b2 = seq[(i + 1) % len].0.0;
                    self.t.next[0][a as usize] = b2;
                    self.t.next[1][b2 as usize] = a;
                }
            }
            if self.declare(
                &ring.forward.name,
                Global::Dir(0),
                ring.forward.span,
                "direction",
            ) & self.declare(
                &ring.backward.name,
                Global::Dir(1),
                ring.backward.span,
                "direction",
            ) {
                self.t.dir_names = Some([ring.forward.name.clone(), ring.backward.name.clone()]);
            }
        }
    }

    /// `track SIDE …` (or turned from another side's): each side's path of positions.
    fn tracks(&mut self, tracks: &[ast::TrackDecl]) {
        self.t.tracks = vec![None; self.t.sides.len()];
        for t in tracks {
            let sites: Vec<u16> = match &t.turned {
                None => self
                    .resolve_sites(&t.sites)
                    .into_iter()
                    .map(|(s, _)| s.0)
                    .collect(),
                Some((other, deg, cx, cy)) => {
                    let (Some(cx), Some(cy)) = (self.const_int(cx), self.const_int(cy)) else {
                        continue;
                    };
                    let (Some(cx), Some(cy)) =
                        (self.coordinate(cx, t.span), self.coordinate(cy, t.span))
                    else {
                        continue;
                    };
                    let Some(o) = self.t.sides.iter().position(|p| *p == other.name) else {
                        self.error(
                            ErrorKind::Unknown {
                                what: "side",
                                name: other.name.clone(),
                            },
                            other.span,
                        );
                        continue;
                    };
                    let Some(base) = self.t.tracks.get(o).cloned().flatten() else {
                        self.error_hint(
                            ErrorKind::Missing {
                                what: "track to turn",
                            },
                            other.span,
                            format!("declare the track of {} before this one", other.name),
                        );
                        continue;
                    };
                    if deg.rem_euclid(90) != 0 {
                        self.error_hint(
                            ErrorKind::BadRange {
                                name: format!("{deg} degrees"),
                            },
                            t.span,
                            "a track turns by 90, 180 or 270 degrees",
                        );
                        continue;
                    }
                    let mut out = vec![];
                    for s in base.sites {
                        let (x, y) = (
                            self.t.sites[s as usize].x - cx,
                            self.t.sites[s as usize].y - cy,
                        );
                        let (rx, ry) = match deg.rem_euclid(360) {
                            0 => (x, y),
                            90 => (-y, x),
                            180 => (-x, -y),
                            _ => (y, -x),
                        };
                        match self.site_at(cx + rx, cy + ry, t.span) {
                            Some(site) => out.push(site.0),
                            None => break,
                        }
                    }
                    out
                }
            };
            match self.t.sides.iter().position(|p| *p == t.side.name) {
                Some(p) => {
                    if self.t.tracks[p].is_some() {
                        self.error(
                            ErrorKind::Duplicate {
                                what: "track of side",
                                name: t.side.name.clone(),
                            },
                            t.side.span,
                        );
                    }
                    let first = t.from.unwrap_or(1);
                    if first.abs_diff(0) > MAX_COORD as u64 || sites.len() > i32::MAX as usize / 2 {
                        self.error(
                            ErrorKind::TooLarge {
                                value: first,
                                what: "a track's first position from -1000000 to 1000000",
                            },
                            t.span,
                        );
                        continue;
                    }
                    let mut pos_of = vec![-1i32; self.t.sites.len()];
                    for (i, &s) in sites.iter().enumerate().rev() {
                        pos_of[s as usize] = (first + i as i64) as i32;
                    }
                    self.t.tracks[p] = Some(TrackInfo {
                        first,
                        sites,
                        pos_of,
                    });
                }
                None => {
                    let hint = suggest(&t.side.name, self.t.sides.iter().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "a track belongs to a side named in `sides`".into());
                    self.error_hint(
                        ErrorKind::Unknown {
                            what: "side",
                            name: t.side.name.clone(),
                        },
                        t.side.span,
                        hint,
                    );
                }
            }
        }
    }

    /// `area NAME`: places off the board for tokens.
    fn areas(&mut self, areas: &[ast::Ident]) {
        for a in areas {
            if self.t.areas.len() >= MAX_AREAS {
                self.error(
                    ErrorKind::TooLarge {
                        value: MAX_AREAS as i64 + 1,
                        what: "at most 64 areas",
                    },
                    a.span,
                );
                break;
            }
            let i = self.t.areas.len() as u8;
            if self.declare(&a.name, Global::Area(i), a.span, "area") {
                self.t.areas.push(a.name.clone());
            }
        }
    }

    /// `opposite … = …`: pairs of sites facing each other.
    fn opposites(&mut self, opposites: &[ast::OppositeDecl]) {
        for o in opposites {
            let before = (self.d.diags.len(), self.poison_hits);
            let l = self.resolve_sites(&o.left);
            let r = self.resolve_sites(&o.right);
            if (self.d.diags.len(), self.poison_hits) != before {
                continue; // already reported
            }
            if l.len() != r.len() {
                self.error(
                    ErrorKind::Length {
                        left: l.len(),
                        right: r.len(),
                    },
                    o.span,
                );
                continue;
            }
            for ((a, _), (b2, _)) in l.iter().zip(&r) {
                self.t.opposite[a.0 as usize] = b2.0;
                self.t.opposite[b2.0 as usize] = a.0;
            }
        }
    }

    /// `points …`: generated sites of kind `point`, named by file and rank (`a1` is the
    /// smallest x and y of all generated points).
    pub(super) fn points(&mut self, decls: &[ast::PointsDecl]) {
        let mut made: Vec<(i64, i64, SiteKind, Option<Player>, Span)> = vec![];
        for d in decls {
            let (mut kind, owner) = self.site_attrs(&d.attrs);
            if !d.attrs.iter().any(|a| matches!(a, SiteAttr::Kind(_))) {
                kind = SiteKind::Point;
            }
            for (x, y, span) in &d.coords {
                if let (Some(x), Some(y)) = (self.const_int(x), self.const_int(y))
                    && let (Some(x), Some(y)) =
                        (self.coordinate(x, *span), self.coordinate(y, *span))
                {
                    made.push((x, y, kind, owner, *span));
                }
            }
            if let Some((xn, x1, x2, yn, y1, y2, cond)) = &d.generator {
                let bounds = (
                    self.const_int(x1),
                    self.const_int(x2),
                    self.const_int(y1),
                    self.const_int(y2),
                );
                let (Some(x1), Some(x2), Some(y1), Some(y2)) = bounds else {
                    continue;
                };
                // counted before anything is made, in a width that cannot overflow
                let width = (x2 as i128 - x1 as i128 + 1).max(0);
                let height = (y2 as i128 - y1 as i128 + 1).max(0);
                let points = width.saturating_mul(height);
                if width == 0 || height == 0 {
                    // an inverted range makes no point (and its other range is not walked)
                    let (n, a, b) = if width == 0 {
                        (&xn.name, x1, x2)
                    } else {
                        (&yn.name, y1, y2)
                    };
                    self.error(
                        ErrorKind::BadRange {
                            name: format!("{n} in {a}..{b}"),
                        },
                        d.span,
                    );
                    continue;
                }
                if points > MAX_SITES as i128 {
                    self.error(
                        ErrorKind::TooLarge {
                            value: points.min(i64::MAX as i128) as i64,
                            what: "at most 4096 sites",
                        },
                        d.span,
                    );
                    continue;
                }
                if points > 0
                    && [x1, x2, y1, y2]
                        .iter()
                        .any(|&v| self.coordinate(v, d.span).is_none())
                {
                    continue;
                }
                let before = self.d.diags.len();
                'grid: for y in y1..=y2 {
                    for x in x1..=x2 {
                        let keep = match cond {
                            None => true,
                            Some(c) => {
                                let names = [(xn.name.as_str(), x), (yn.name.as_str(), y)];
                                let (e, t) = self.lower(|l| l.expr_with_numbers(names, c));
                                match (e, t) {
                                    (Expr::Const(v), Ty::Bool) => v != 0,
                                    (_, Ty::Error) => break 'grid,
                                    (_, t) => {
                                        self.type_error_at(Ty::Bool, t, c.span);
                                        break 'grid;
                                    }
                                }
                            }
                        };
                        if self.d.diags.len() > before {
                            break 'grid;
                        }
                        if keep {
                            made.push((x, y, kind, owner, d.span));
                        }
                    }
                }
            }
        }
        let (Some(min_x), Some(min_y)) = (
            made.iter().map(|m| m.0).min(),
            made.iter().map(|m| m.1).min(),
        ) else {
            return;
        };
        let wide = made.iter().map(|m| m.0 - min_x).max().unwrap_or(0) >= 26;
        for (x, y, kind, owner, span) in made {
            if self.t.at_coord.contains_key(&(x, y)) {
                self.error(
                    ErrorKind::Duplicate {
                        what: "point",
                        name: format!("({x}, {y})"),
                    },
                    span,
                );
                continue;
            }
            let name = if wide {
                format!("x{}y{}", x - min_x, y - min_y + 1)
            } else {
                format!("{}{}", (b'a' + (x - min_x) as u8) as char, y - min_y + 1)
            };
            self.add_site(name, span, x, y, kind, owner);
        }
    }

    /// `directions n (0, 1) …`: named offsets on the board's coordinates (direction values
    /// after the ring's two).
    fn directions(&mut self, decls: &[ast::DirectionsDecl]) {
        for (name, x, y, sp) in decls.iter().flat_map(|d| &d.0) {
            let (Some(x), Some(y)) = (self.const_int(x), self.const_int(y)) else {
                continue;
            };
            let (Some(x), Some(y)) = (self.coordinate(x, *sp), self.coordinate(y, *sp)) else {
                continue;
            };
            if (x, y) == (0, 0) {
                let kind = ErrorKind::BadRange {
                    name: "(0, 0)".into(),
                };
                self.error_hint(
                    kind,
                    *sp,
                    "a direction moves: give it an offset other than (0, 0)",
                );
                continue;
            }
            if self.t.compass.len() >= MAX_DIRECTIONS {
                let kind = ErrorKind::TooLarge {
                    value: MAX_DIRECTIONS as i64 + 1,
                    what: "at most 64 named directions",
                };
                self.error(kind, name.span);
                return;
            }
            let value = crate::ir::grid::Compass::FIRST as usize + self.t.compass.len();
            if self.declare(&name.name, Global::Dir(value as u8), name.span, "direction") {
                self.t.compass.push((name.name.clone(), (x, y)));
            }
        }
    }

    /// `links …`: each point is joined to the point at each offset (when the condition holds
    /// at the first point), and back.
    pub(super) fn links(&mut self, decls: &[ast::LinksDecl]) {
        for (offsets, cond, _) in decls {
            let mut offs = vec![];
            for (x, y, sp) in offsets {
                if let (Some(x), Some(y)) = (self.const_int(x), self.const_int(y))
                    && let (Some(x), Some(y)) = (self.coordinate(x, *sp), self.coordinate(y, *sp))
                {
                    if (x, y) == (0, 0) {
                        self.error(
                            ErrorKind::BadRange {
                                name: "(0, 0)".into(),
                            },
                            *sp,
                        );
                    } else {
                        offs.push((x, y));
                    }
                }
            }
            let mut seen = std::collections::HashSet::new();
            offs.retain(|o| seen.insert(*o));
            for (dx, dy) in offs {
                for o in [(dx, dy), (-dx, -dy)] {
                    if !self.t.dirs.contains(&o) {
                        if self.t.dirs.len() >= MAX_DIRECTIONS {
                            self.error(
                                ErrorKind::TooLarge {
                                    value: MAX_DIRECTIONS as i64 + 1,
                                    what: "at most 64 directions of links",
                                },
                                offsets.first().map(|o| o.2).unwrap_or_default(),
                            );
                            return;
                        }
                        self.t.dirs.push(o);
                        self.t.step.push(vec![u16::MAX; self.t.sites.len()]);
                    }
                }
                let fwd = self.t.dirs.iter().position(|&o| o == (dx, dy)).unwrap_or(0);
                let back = self
                    .t
                    .dirs
                    .iter()
                    .position(|&o| o == (-dx, -dy))
                    .unwrap_or(0);
                for s in 0..self.t.sites.len() {
                    let (x, y) = (self.t.sites[s].x, self.t.sites[s].y);
                    if let Some(c) = cond {
                        let (e, t) = self.lower(|l| l.expr_with_numbers([("x", x), ("y", y)], c));
                        match (e, t) {
                            (Expr::Const(0), Ty::Bool) => continue,
                            (Expr::Const(_), Ty::Bool) => {}
                            (_, Ty::Error) => return,
                            (_, t) => {
                                self.type_error_at(Ty::Bool, t, c.span);
                                return;
                            }
                        }
                    }
                    // (coordinates and offsets are within ±MAX_COORD: no overflow)
                    if let Some(&t) = self.t.at_coord.get(&(x + dx, y + dy)) {
                        self.t.step[fwd][s] = t;
                        self.t.step[back][t as usize] = s as u16;
                    }
                }
            }
        }
    }

    pub(super) fn resolve_sites(&mut self, items: &[SiteItem]) -> Vec<(SiteId, Span)> {
        let names = self.expand_sites(items);
        let mut out = vec![];
        for (name, span) in names {
            match self.t.globals.get(&name) {
                Some((Global::Site(s), _)) => out.push((*s, span)),
                _ if self.t.is_poisoned(&name) => self.poison_hits += 1,
                _ => {
                    let hint = self
                        .d
                        .suggest_among(&name, self.t.sites.iter().map(|s| s.name.as_str()))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| {
                            "sites are declared with `row` or `site` in the board".into()
                        });
                    self.error_hint(ErrorKind::Unknown { what: "site", name }, span, hint);
                }
            }
        }
        out
    }
}
