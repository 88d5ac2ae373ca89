//! The walk of the syntax tree that finds the symbols and their uses: first the declarations of
//! the whole file (a def may be used before it is written), then every expression and
//! statement, locals in a stack of scopes.

use super::{Globals, Symbol, SymbolKind, first_line, range};
use crate::ast::*;
use std::ops::Range;

pub(super) struct Walker<'s> {
    src: &'s str,
    symbols: Vec<Symbol>,
    g: Globals,
    /// the locals in scope, innermost last
    scopes: Vec<Vec<(String, usize)>>,
}

/// The span from `start` to the end of the line it is on (a declaration without a span of
/// its own: a piece kind).
fn rest_of_line(src: &str, start: usize) -> Span {
    let end = src[start.min(src.len())..]
        .find('\n')
        .map_or(src.len(), |i| start + i);
    Span { start, end }
}

impl<'s> Walker<'s> {
    pub(super) fn new(src: &'s str) -> Self {
        Walker {
            src,
            symbols: vec![],
            g: Globals::default(),
            scopes: vec![],
        }
    }

    pub(super) fn finish(self) -> Vec<Symbol> {
        self.symbols
    }

    fn add(&mut self, name: &str, kind: SymbolKind, name_span: Range<usize>, span: Span) -> usize {
        self.symbols.push(Symbol {
            name: name.to_string(),
            kind,
            name_span,
            span: range(span),
            detail: first_line(self.src, span),
            doc: None,
            scope: None,
            references: vec![],
        });
        self.symbols.len() - 1
    }

    /// A declaration of the file's one namespace (the first of a name wins, as the checker's
    /// duplicate error says).
    fn global(&mut self, id: &Ident, kind: SymbolKind, span: Span) -> usize {
        let i = self.add(&id.name, kind, range(id.span), span);
        self.g.names.entry(id.name.clone()).or_insert(i);
        i
    }

    /// A local, in the innermost scope, visible over `scope`.
    fn local(&mut self, id: &Ident, kind: SymbolKind, span: Span, scope: Range<usize>) {
        let i = self.add(&id.name, kind, range(id.span), span);
        self.symbols[i].scope = Some(scope);
        if self.scopes.is_empty() {
            self.scopes.push(vec![]);
        }
        if let Some(top) = self.scopes.last_mut() {
            top.push((id.name.clone(), i));
        }
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        for scope in self.scopes.iter().rev() {
            if let Some((_, i)) = scope.iter().rev().find(|(n, _)| n == name) {
                return Some(*i);
            }
        }
        if let Some(&i) = self.g.names.get(name) {
            return Some(i);
        }
        // a site of a row's range: `s3` of `s[1..7]`
        let prefix = name.trim_end_matches(|c: char| c.is_ascii_digit());
        if prefix.len() < name.len() && !prefix.is_empty() {
            return self.g.prefixes.get(prefix).copied();
        }
        None
    }

    fn use_name(&mut self, id: &Ident) {
        if let Some(i) = self.lookup(&id.name) {
            self.symbols[i].references.push(range(id.span));
        }
    }

    /// The prefix of a range of sites: `s` in `s[1..holes]`.
    fn use_prefix(&mut self, id: &Ident) {
        match self.g.prefixes.get(&id.name) {
            Some(&i) => self.symbols[i].references.push(range(id.span)),
            None => self.use_name(id),
        }
    }

    /// An alternative's label: a use of the label its `labels` entry (or its first use)
    /// declares.
    fn use_label(&mut self, id: &Ident, span: Span) {
        match self.g.labels.get(&id.name) {
            Some(&i) => self.symbols[i].references.push(range(id.span)),
            None => {
                let i = self.add(&id.name, SymbolKind::Label, range(id.span), span);
                self.symbols[i].detail = format!("label {}", id.name);
                self.g.labels.insert(id.name.clone(), i);
            }
        }
    }

    /// Runs `f` with `var` bound over `span` (a loop's, an alternative's, an expression's).
    fn bind(&mut self, var: &Ident, span: Span, f: impl FnOnce(&mut Self)) {
        self.scopes.push(vec![]);
        self.local(var, SymbolKind::Variable, span, range(span));
        f(self);
        self.scopes.pop();
    }

    pub(super) fn declare(&mut self, file: &GameFile) {
        for o in &file.options {
            let i = self.global(&o.name, SymbolKind::Option, o.span);
            self.symbols[i].doc = o.doc.clone();
        }
        for (sides, span) in file.sides.iter().zip(&file.sides_spans) {
            for s in sides {
                self.global(s, SymbolKind::Side, *span);
            }
        }
        for b in &file.boards {
            self.declare_board(b);
        }
        for p in file.pieces.iter().flatten() {
            let span = rest_of_line(self.src, p.name.span.start);
            self.global(&p.name, SymbolKind::Piece, span);
        }
        for d in &file.dice {
            self.global(&d.name, SymbolKind::Dice, d.span);
            for (dice, faces) in &d.dice {
                for f in dice.iter().chain(faces) {
                    let i = self.global(f, SymbolKind::Face, d.span);
                    let what = if dice.iter().any(|x| x.span == f.span) {
                        "die"
                    } else {
                        "face"
                    };
                    self.symbols[i].detail = format!("{what} {} of dice {}", f.name, d.name.name);
                }
            }
        }
        for d in &file.defs {
            self.global(&d.name, SymbolKind::Def, d.span);
        }
        for a in &file.actions {
            self.global(&a.name, SymbolKind::Action, a.span);
        }
        for t in &file.tallies {
            let i = self.global(&t.name, SymbolKind::Tally, t.span);
            self.symbols[i].doc = t.doc.clone();
        }
        for l in &file.labels {
            let span = Span {
                start: l.label.span.start,
                end: l.text_span.end,
            };
            let i = self.add(&l.label.name, SymbolKind::Label, range(l.label.span), span);
            self.symbols[i].doc = Some(l.text.clone());
            self.symbols[i].detail = format!("label {}", l.label.name);
            self.g.labels.entry(l.label.name.clone()).or_insert(i);
        }
    }

    fn declare_board(&mut self, b: &Board) {
        for row in &b.rows {
            for item in &row.sites {
                match item {
                    SiteItem::Name(id) => {
                        self.global(id, SymbolKind::Site, row.span);
                    }
                    SiteItem::Range { prefix, .. } => {
                        let i =
                            self.add(&prefix.name, SymbolKind::Site, range(prefix.span), row.span);
                        self.g.prefixes.entry(prefix.name.clone()).or_insert(i);
                    }
                    SiteItem::Coord(..) | SiteItem::CoordRange(..) => {}
                }
            }
        }
        for s in &b.sites {
            self.global(&s.name, SymbolKind::Site, s.span);
        }
        for r in &b.regions {
            self.global(&r.name, SymbolKind::Region, r.span);
        }
        for r in &b.rings {
            let keyword = r.span.start..(r.span.start + 4).min(r.span.end);
            self.add("ring", SymbolKind::Ring, keyword, r.span);
            self.global(&r.forward, SymbolKind::Direction, r.span);
            self.global(&r.backward, SymbolKind::Direction, r.span);
        }
        for (dirs, span) in &b.directions {
            for (name, ..) in dirs {
                self.global(name, SymbolKind::Direction, *span);
            }
        }
        for t in &b.tracks {
            let keyword = t.span.start..(t.span.start + 5).min(t.span.end);
            self.add(&t.side.name, SymbolKind::Track, keyword, t.span);
        }
        for a in &b.areas {
            let i = self.global(a, SymbolKind::Area, a.span);
            self.symbols[i].detail = format!("area {}", a.name);
        }
    }

    pub(super) fn walk(&mut self, file: &GameFile) {
        for v in &file.variants {
            for (id, _, _) in &v.sets {
                self.use_name(id);
            }
        }
        for r in &file.requires {
            self.expr(&r.cond);
        }
        for b in &file.boards {
            self.board(b);
        }
        for p in file.pieces.iter().flatten() {
            p.value.iter().chain(&p.tokens).for_each(|e| self.expr(e));
        }
        for (_, stmts) in file.starts.iter().chain(&file.turns).chain(&file.betweens) {
            self.block(stmts);
        }
        for d in &file.defs {
            self.params(&d.params, d.span);
            self.expr(&d.body);
            self.scopes.pop();
        }
        for a in &file.actions {
            self.params(&a.params, a.span);
            self.block(&a.body);
            self.scopes.pop();
        }
        for l in &file.limits {
            self.expr(&l.count);
            if let Some(EndGame::Winner(e)) = &l.then {
                self.expr(e);
            }
        }
        for d in &file.dice {
            for row in &d.chart {
                self.expr(&row.value);
                row.when.iter().for_each(|e| self.expr(e));
            }
        }
        file.team_size.iter().for_each(|e| self.expr(e));
        for t in &file.tallies {
            self.expr(&t.init);
        }
    }

    /// A def's or an action's parameters, in a new scope (popped by the caller).
    fn params(&mut self, params: &[Ident], span: Span) {
        self.scopes.push(vec![]);
        for p in params {
            self.local(p, SymbolKind::Parameter, span, range(span));
        }
    }

    fn board(&mut self, b: &Board) {
        for row in &b.rows {
            row.sites.iter().for_each(|s| self.site_item(s, true));
            self.expr(&row.y);
            row.x.iter().for_each(|e| self.expr(e));
            self.attrs(&row.attrs);
        }
        for s in &b.sites {
            self.expr(&s.x);
            self.expr(&s.y);
            self.attrs(&s.attrs);
        }
        for r in &b.regions {
            r.items.iter().for_each(|e| self.expr(e));
        }
        for r in &b.rings {
            r.sites.iter().for_each(|s| self.site_item(s, false));
        }
        for o in &b.opposites {
            o.left
                .iter()
                .chain(&o.right)
                .for_each(|s| self.site_item(s, false));
        }
        for t in &b.tracks {
            self.use_name(&t.side);
            t.sites.iter().for_each(|s| self.site_item(s, false));
            if let Some((other, _, x, y)) = &t.turned {
                self.use_name(other);
                self.expr(x);
                self.expr(y);
            }
        }
        for p in &b.points {
            self.points(p);
        }
        for (x, y) in b.directions.iter().flat_map(|d| &d.0).map(|d| (&d.1, &d.2)) {
            self.expr(x);
            self.expr(y);
        }
        for (offsets, cond, _) in &b.links {
            for (x, y, _) in offsets {
                self.expr(x);
                self.expr(y);
            }
            cond.iter().for_each(|e| self.expr(e));
        }
        for l in &b.lines {
            match l {
                LineDecl::Sites(lines, _) => {
                    lines
                        .iter()
                        .flatten()
                        .for_each(|s| self.site_item(s, false));
                }
                LineDecl::Along(e, _) => self.expr(e),
            }
        }
    }

    fn points(&mut self, p: &PointsDecl) {
        for (x, y, _) in &p.coords {
            self.expr(x);
            self.expr(y);
        }
        self.attrs(&p.attrs);
        if let Some((x, x0, x1, y, y0, y1, cond)) = &p.generator {
            [x0, x1, y0, y1].into_iter().for_each(|e| self.expr(e));
            self.scopes.push(vec![]);
            self.local(x, SymbolKind::Variable, p.span, range(p.span));
            self.local(y, SymbolKind::Variable, p.span, range(p.span));
            cond.iter().for_each(|e| self.expr(e));
            self.scopes.pop();
        }
    }

    /// A site or a range of sites; in a `row` a name declares (it is not a use).
    fn site_item(&mut self, item: &SiteItem, declares: bool) {
        match item {
            SiteItem::Name(id) if !declares => self.use_name(id),
            SiteItem::Name(_) => {}
            SiteItem::Coord(x, y, _) => {
                self.expr(x);
                self.expr(y);
            }
            SiteItem::CoordRange(a, b, c, d, _) => {
                [a, b, c, d].into_iter().for_each(|e| self.expr(e));
            }
            SiteItem::Range {
                prefix, from, to, ..
            } => {
                if !declares {
                    self.use_prefix(prefix);
                }
                self.expr(from);
                self.expr(to);
            }
        }
    }

    fn attrs(&mut self, attrs: &[SiteAttr]) {
        for a in attrs {
            match a {
                SiteAttr::Kind(id) | SiteAttr::Owner(id) => self.use_name(id),
            }
        }
    }

    /// A block of statements, in a scope of its own: a `let` is seen from its end to the end
    /// of the block.
    fn block(&mut self, stmts: &[Stmt]) {
        let end = stmts.last().map_or(0, |s| s.span.end);
        self.scopes.push(vec![]);
        for s in stmts {
            self.stmt(s, end);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt, end: usize) {
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.block(then);
                otherwise.iter().for_each(|b| self.block(b));
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::Choose(alts, otherwise) => {
                alts.iter().for_each(|a| self.alternative(a));
                otherwise.iter().for_each(|b| self.block(b));
            }
            StmtKind::Sow {
                from,
                dir,
                skip,
                last,
                body,
                ..
            } => {
                self.expr(from);
                self.expr(dir);
                skip.iter().for_each(|e| self.expr(e));
                self.bind(last, s.span, |w| w.block(body));
            }
            StmtKind::Let(id, e)
            | StmtKind::LetTyped {
                name: id, value: e, ..
            } => {
                self.expr(e);
                self.local(id, SymbolKind::Let, s.span, s.span.end..end.max(s.span.end));
            }
            StmtKind::Throw { dice, var } => {
                self.use_name(dice);
                self.local(
                    var,
                    SymbolKind::Let,
                    s.span,
                    s.span.end..end.max(s.span.end),
                );
            }
            StmtKind::ForTokens { var, cond, body } => self.bind(var, s.span, |w| {
                w.expr(cond);
                w.block(body);
            }),
            StmtKind::ForSites { var, set, body } => {
                self.expr(set);
                self.bind(var, s.span, |w| w.block(body));
            }
            _ => self.simple_stmt(&s.kind),
        }
    }

    /// A statement that binds no name.
    fn simple_stmt(&mut self, s: &StmtKind) {
        match s {
            StmtKind::Set { target, value } => {
                self.expr(target);
                self.expr(value);
            }
            StmtKind::Capture { items, keep, to } => {
                items
                    .iter()
                    .chain(keep)
                    .chain(to)
                    .for_each(|e| self.expr(e));
            }
            StmtKind::Place {
                count,
                piece,
                target,
                from,
                owner,
            } => {
                self.expr(count);
                self.use_name(piece);
                match target {
                    PlaceTarget::Sites(sites) => sites.iter().for_each(|e| self.expr(e)),
                    PlaceTarget::Area(a) => self.use_name(a),
                }
                from.iter().chain(owner).for_each(|e| self.expr(e));
            }
            StmtKind::Move { token, target, .. } => {
                self.expr(token);
                match target {
                    MoveTarget::Position(e) | MoveTarget::Site(e) => self.expr(e),
                }
            }
            StmtKind::Send { token, area } => {
                self.expr(token);
                self.use_name(area);
            }
            StmtKind::Do { name, args } => {
                self.use_name(name);
                args.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Relay(e) | StmtKind::First(Some(e)) => self.expr(e),
            StmtKind::EndGame(EndGame::Winner(e), _) => self.expr(e),
            StmtKind::Give {
                count,
                piece,
                from,
                to,
            } => {
                self.use_name(piece);
                [count, from, to].into_iter().for_each(|e| self.expr(e));
            }
            _ => {}
        }
    }

    fn alternative(&mut self, a: &Alternative) {
        if let Some(l) = &a.label {
            self.use_label(l, a.span);
        }
        a.set.iter().for_each(|e| self.expr(e));
        for v in a.values.iter().flatten() {
            if let ValueItem::Name(id) = v {
                self.use_name(id);
            }
        }
        self.scopes.push(vec![]);
        if let Some(var) = &a.var {
            self.local(var, SymbolKind::Variable, a.span, range(a.span));
        }
        if let Some((to, set)) = &a.to {
            self.expr(set);
            self.local(to, SymbolKind::Variable, a.span, range(a.span));
        }
        a.cond.iter().chain(&a.leaving).for_each(|e| self.expr(e));
        a.body.iter().for_each(|b| self.block(b));
        self.scopes.pop();
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) => {}
            ExprKind::Name(id) => self.use_name(id),
            ExprKind::Call(id, args) => {
                self.use_name(id);
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Range(prefix, a, b) => {
                self.use_prefix(prefix);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Coord(a, b) | ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::List(items) => items.iter().for_each(|i| self.expr(i)),
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::If(c, a, b) => [c, a, b].into_iter().for_each(|x| self.expr(x)),
            ExprKind::Some(var, cond, _)
            | ExprKind::Exists(var, cond, _)
            | ExprKind::Filter(var, cond, _) => self.bind(var, e.span, |w| w.expr(cond)),
            ExprKind::ExistsIn(var, set, cond) | ExprKind::Forall(var, set, cond) => {
                self.expr(set);
                self.bind(var, e.span, |w| w.expr(cond));
            }
            ExprKind::Agg {
                var, cond, value, ..
            } => self.bind(var, e.span, |w| {
                w.expr(cond);
                w.expr(value);
            }),
            ExprKind::Line(var, through, cond, _) => {
                self.expr(through);
                self.bind(var, e.span, |w| w.expr(cond));
            }
            ExprKind::SomeAlong {
                var,
                from,
                dir,
                cond,
                ..
            } => {
                self.expr(from);
                self.expr(dir);
                self.bind(var, e.span, |w| w.expr(cond));
            }
        }
    }
}
