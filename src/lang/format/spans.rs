//! What the formatter reads of the syntax tree: where each element that takes a line of its
//! own begins and ends (an item, a board item, a statement, an alternative, a piece, a chart
//! row, a label, an option of a variant), which names are glued to the bracket after them (a
//! call, a range of sites, a definition's parameters) and where binary operators are.

use crate::ast::*;

/// The layout facts of one file.
#[derive(Default)]
pub(super) struct Shape {
    /// the elements (each begins a line)
    pub elements: Vec<Span>,
    /// the ends of the names glued to the `(` or `[` after them
    pub glued: Vec<usize>,
    /// (end of the left operand, start of the right operand) of each binary operator
    pub binary: Vec<(usize, usize)>,
    /// (end, start) of the parts of each `if … then … else …` expression: its `then` and
    /// `else` are where a long line breaks, as before `and` and `or`
    pub keywords: Vec<(usize, usize)>,
    /// the settings of variants (`holes = 7`): elements, but a block of them may stay on one
    /// line
    pub settings: Vec<usize>,
}

impl Shape {
    pub(super) fn of(g: &GameFile) -> Shape {
        let mut s = Shape::default();
        s.file(g);
        s.elements
            .sort_unstable_by_key(|e| (e.start, std::cmp::Reverse(e.end)));
        s.elements.dedup();
        s.glued.sort_unstable();
        s.binary.sort_unstable();
        s
    }

    fn file(&mut self, g: &GameFile) {
        let el = &mut self.elements;
        el.extend(g.version.iter().map(|v| v.1));
        el.extend(g.meta.iter().map(|m| m.span));
        el.extend(g.options.iter().map(|o| o.span));
        el.extend(g.sides_spans.iter().copied());
        el.extend(g.limits.iter().map(|l| l.span));
        el.extend(g.tallies.iter().map(|t| t.span));
        el.extend(g.positions.iter().map(|p| p.2));
        for v in &g.variants {
            self.elements.push(v.span);
            self.elements.extend(v.sets.iter().map(|s| s.2));
            self.settings.extend(v.sets.iter().map(|s| s.2.start));
        }
        for r in &g.requires {
            self.elements.push(r.span);
            self.expr(&r.cond);
        }
        for b in &g.boards {
            self.board(b);
        }
        for p in g.pieces.iter().flatten() {
            let mut end = p.name.span.end;
            for e in p.value.iter().chain(&p.tokens) {
                end = end.max(e.span.end);
                self.expr(e);
            }
            self.elements.push(Span {
                start: p.name.span.start,
                end,
            });
        }
        for l in &g.labels {
            self.elements.push(Span {
                start: l.label.span.start,
                end: l.text_span.end,
            });
        }
        for (span, body) in g.starts.iter().chain(&g.turns).chain(&g.betweens) {
            self.elements.push(*span);
            self.stmts(body);
        }
        for d in &g.defs {
            self.elements.push(d.span);
            self.glued.push(d.name.span.end);
            self.expr(&d.body);
        }
        for l in &g.limits {
            self.expr(&l.count);
            if let Some(EndGame::Winner(e)) = &l.then {
                self.expr(e);
            }
        }
        for d in &g.dice {
            self.elements.push(d.span);
            for r in &d.chart {
                self.elements.push(r.span);
                self.expr(&r.value);
                self.exprs(r.when.iter());
            }
        }
        for a in &g.actions {
            self.elements.push(a.span);
            self.glued.push(a.name.span.end);
            self.stmts(&a.body);
        }
        self.exprs(g.team_size.iter());
        for t in &g.tallies {
            self.expr(&t.init);
        }
    }

    fn board(&mut self, b: &Board) {
        self.elements.push(b.span);
        for r in &b.rows {
            self.elements.push(r.span);
            self.sites(&r.sites);
            self.expr(&r.y);
            self.exprs(r.x.iter());
        }
        for s in &b.sites {
            self.elements.push(s.span);
            self.expr(&s.x);
            self.expr(&s.y);
        }
        for r in &b.regions {
            self.elements.push(r.span);
            self.exprs(r.items.iter());
        }
        for r in &b.rings {
            self.elements.push(r.span);
            self.sites(&r.sites);
        }
        for o in &b.opposites {
            self.elements.push(o.span);
            self.sites(&o.left);
            self.sites(&o.right);
        }
        for t in &b.tracks {
            self.elements.push(t.span);
            self.sites(&t.sites);
            if let Some((_, _, x, y)) = &t.turned {
                self.expr(x);
                self.expr(y);
            }
        }
        for p in &b.points {
            self.elements.push(p.span);
            if let Some((_, a, b, _, c, d, cond)) = &p.generator {
                self.exprs([a, b, c, d].into_iter());
                self.exprs(cond.iter());
            }
            for (x, y, _) in &p.coords {
                self.expr(x);
                self.expr(y);
            }
        }
        for (dirs, span) in &b.directions {
            self.elements.push(*span);
            for (_, x, y, _) in dirs {
                self.expr(x);
                self.expr(y);
            }
        }
        for (offsets, cond, span) in &b.links {
            self.elements.push(*span);
            for (x, y, _) in offsets {
                self.expr(x);
                self.expr(y);
            }
            self.exprs(cond.iter());
        }
        for l in &b.lines {
            match l {
                LineDecl::Sites(lists, span) => {
                    self.elements.push(*span);
                    for l in lists {
                        self.sites(l);
                    }
                }
                LineDecl::Along(e, span) => {
                    self.elements.push(*span);
                    self.expr(e);
                }
            }
        }
    }

    fn sites(&mut self, items: &[SiteItem]) {
        for i in items {
            match i {
                SiteItem::Name(_) => {}
                SiteItem::Coord(x, y, _) => self.exprs([x, y].into_iter()),
                SiteItem::CoordRange(a, b, c, d, _) => self.exprs([a, b, c, d].into_iter()),
                SiteItem::Range {
                    prefix, from, to, ..
                } => {
                    self.glued.push(prefix.span.end);
                    self.expr(from);
                    self.expr(to);
                }
            }
        }
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        self.elements.push(s.span);
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.stmts(then);
                self.stmts(otherwise.as_deref().unwrap_or_default());
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.stmts(body);
            }
            StmtKind::Choose(alts, otherwise) => {
                for a in alts {
                    self.elements.push(a.span);
                    self.exprs(a.set.iter().chain(&a.cond).chain(&a.leaving));
                    self.exprs(a.to.iter().map(|t| &t.1));
                    self.stmts(a.body.as_deref().unwrap_or_default());
                }
                self.stmts(otherwise.as_deref().unwrap_or_default());
            }
            StmtKind::Sow {
                from,
                dir,
                skip,
                body,
                ..
            } => {
                self.exprs([from, dir].into_iter().chain(skip));
                self.stmts(body);
            }
            StmtKind::Let(_, e) | StmtKind::Relay(e) | StmtKind::LetTyped { value: e, .. } => {
                self.expr(e)
            }
            StmtKind::Set { target, value } => self.exprs([target, value].into_iter()),
            StmtKind::Capture { items, keep, to } => {
                self.exprs(items.iter().chain(keep).chain(to));
            }
            StmtKind::Place {
                count,
                target,
                from,
                owner,
                ..
            } => {
                self.exprs(std::iter::once(count).chain(from).chain(owner));
                if let PlaceTarget::Sites(v) = target {
                    self.exprs(v.iter());
                }
            }
            StmtKind::Move { token, target, .. } => {
                self.expr(token);
                match target {
                    MoveTarget::Position(e) | MoveTarget::Site(e) => self.expr(e),
                }
            }
            StmtKind::Send { token, .. } => self.expr(token),
            StmtKind::ForTokens { cond, body, .. } => {
                self.expr(cond);
                self.stmts(body);
            }
            StmtKind::ForSites { set, body, .. } => {
                self.expr(set);
                self.stmts(body);
            }
            StmtKind::Do { name, args } => {
                self.glued.push(name.span.end);
                self.exprs(args.iter());
            }
            StmtKind::EndGame(EndGame::Winner(e), _) => self.expr(e),
            StmtKind::First(e) => self.exprs(e.iter()),
            StmtKind::Give {
                count, from, to, ..
            } => self.exprs([count, from, to].into_iter()),
            StmtKind::Throw { .. }
            | StmtKind::EndTurn
            | StmtKind::EndRound
            | StmtKind::EndGame(..)
            | StmtKind::Again
            | StmtKind::ForgetPositions
            | StmtKind::AnotherTurn => {}
        }
    }

    fn exprs<'a>(&mut self, es: impl Iterator<Item = &'a Expr>) {
        for e in es {
            self.expr(e);
        }
    }

    /// An expression's facts. Deep trees are walked with a stack of our own (the parser
    /// bounds their depth, but a long chain of `and` is a deep tree too).
    fn expr(&mut self, e: &Expr) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
                ExprKind::Call(name, args) => {
                    self.glued.push(name.span.end);
                    stack.extend(args);
                }
                ExprKind::Range(prefix, a, b) => {
                    self.glued.push(prefix.span.end);
                    stack.extend([&**a, &**b]);
                }
                ExprKind::Binary(_, a, b) => {
                    self.binary.push((a.span.end, b.span.start));
                    stack.extend([&**a, &**b]);
                }
                ExprKind::Coord(a, b)
                | ExprKind::ExistsIn(_, a, b)
                | ExprKind::Forall(_, a, b)
                | ExprKind::Line(_, a, b, _) => stack.extend([&**a, &**b]),
                ExprKind::Some(_, a, _)
                | ExprKind::Unary(_, a)
                | ExprKind::Exists(_, a, _)
                | ExprKind::Filter(_, a, _) => stack.push(a),
                ExprKind::List(v) => stack.extend(v),
                ExprKind::If(a, b, c) => {
                    self.keywords.push((a.span.end, b.span.start));
                    self.keywords.push((b.span.end, c.span.start));
                    stack.extend([&**a, &**b, &**c]);
                }
                ExprKind::Agg { cond, value, .. } => stack.extend([&**cond, &**value]),
                ExprKind::SomeAlong {
                    from, dir, cond, ..
                } => stack.extend([&**from, &**dir, &**cond]),
            }
        }
    }
}
