//! Statements: the instruction list, blocks, choices and their notations, loops, actions.

use super::*;

impl Lowerer<'_> {
    pub(super) fn emit(&mut self, i: Instr) -> u32 {
        self.s.code.push(i);
        (self.s.code.len() - 1) as u32
    }

    pub(super) fn here(&self) -> u32 {
        self.s.code.len() as u32
    }

    pub(super) fn patch(&mut self, at: u32, target: u32) {
        match &mut self.s.code[at as usize] {
            Instr::Jump(t) | Instr::JumpIfNot(_, t) => *t = target,
            Instr::SowLap { on_cycle, .. } => *on_cycle = target,
            _ => {}
        }
    }

    /// Lowers a block in its own scope.
    ///
    /// `again` offers a choice once more *after the tests that immediately precede it in its
    /// block are made again* (a run of `let`s and of `if`s whose block ends the turn, the round
    /// or the game): a rule such as "the round ends when the player to move has nothing to sow",
    /// written before the choice, then holds at every decision of a turn, not only the first.
    pub(crate) fn block(&mut self, stmts: &[ast::Stmt]) {
        self.s.scopes.push(vec![]);
        let mut tests_from: Option<u32> = None;
        for s in stmts {
            let here = self.here();
            let test = is_test(s);
            if test && tests_from.is_none() {
                tests_from = Some(here);
            }
            if matches!(s.kind, StmtKind::Choose(..)) {
                self.s.again_target = Some(tests_from.unwrap_or(here));
            }
            self.stmt(s);
            if !test {
                tests_from = None;
            }
        }
        if let Some(scope) = self.s.scopes.pop() {
            self.undetermined_in(&scope);
        }
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt) {
        if !self.enter(s.span) {
            return;
        }
        self.stmt_in(s);
        self.leave();
    }

    /// One statement: each kind is lowered by its method (by concern: `control`, `assign`,
    /// `pieces`, and here choices, loops and actions).
    pub(super) fn stmt_in(&mut self, s: &ast::Stmt) {
        let span = s.span;
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => self.if_else(cond, then, otherwise),
            StmtKind::While { cond, body } => self.while_loop(cond, body),
            StmtKind::Choose(alts, otherwise) => self.choose(alts, otherwise.as_deref()),
            StmtKind::Sow { .. } => self.sow(s),
            StmtKind::Let(name, value) => self.let_stmt(name, value, span),
            StmtKind::LetTyped { name, ty, value } => self.let_typed(name, ty, value),
            StmtKind::AnotherTurn => self.another_turn(span),
            StmtKind::Set { target, value } => self.set(target, value),
            StmtKind::Capture { items, keep, to } => self.capture(items, keep, to),
            StmtKind::Place {
                count,
                piece,
                target,
                from,
                owner,
            } => self.place(count, piece, target, from, owner),
            StmtKind::Throw { dice, var } => self.throw(dice, var),
            StmtKind::Move {
                token,
                target,
                carry,
            } => self.move_token(token, target, carry),
            StmtKind::Send { token, area } => self.send(token, area),
            StmtKind::ForTokens { var, cond, body } => self.for_loop(var, Some(cond), None, body),
            StmtKind::ForSites { var, set, body } => self.for_loop(var, None, Some(set), body),
            StmtKind::Do { name, args } => self.do_stmt(name, args, span),
            StmtKind::Relay(site) => self.relay(site, span),
            StmtKind::EndTurn => self.end_turn(span),
            StmtKind::EndRound => self.end_round(span),
            StmtKind::Give {
                count,
                piece,
                from,
                to,
            } => self.give(count, piece, from, to),
            StmtKind::EndGame(rule, reason) => self.end_game(rule, reason),
            StmtKind::Again => self.again(span),
            StmtKind::ForgetPositions => {
                self.emit(Instr::ForgetPositions);
            }
            StmtKind::First(who) => self.first(who, span),
        }
    }

    /// The tally of that name, if it is one.
    pub(crate) fn tally(&self, name: &str) -> Option<TallyInfo> {
        match self.t.globals.get(name) {
            Some((Global::Tally(i), _)) => self.t.tallies.get(*i).cloned(),
            _ => None,
        }
    }

    /// A piece kind by name (an unknown one is reported, with the closest name).
    pub(super) fn piece_kind(&mut self, piece: &ast::Ident) -> PieceKind {
        if let Some(Global::Piece(k)) = self.t.globals.get(&piece.name).map(|g| g.0) {
            return k;
        }
        let hint =
            crate::diagnostic::suggest(&piece.name, self.t.pieces.iter().map(|p| p.name.as_str()))
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| "piece kinds are declared in `pieces { … }`".into());
        self.error_hint(
            ErrorKind::Unknown {
                what: "piece kind",
                name: piece.name.clone(),
            },
            piece.span,
            hint,
        );
        PieceKind(0)
    }

    pub(super) fn area(&mut self, a: &ast::Ident) -> u8 {
        match self.t.globals.get(&a.name).map(|g| g.0) {
            Some(Global::Area(i)) => i,
            _ => {
                let hint =
                    crate::diagnostic::suggest(&a.name, self.t.areas.iter().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| {
                            "areas are declared in the board: `area waiting finished`".into()
                        });
                self.error_hint(
                    ErrorKind::Unknown {
                        what: "area",
                        name: a.name.clone(),
                    },
                    a.span,
                    hint,
                );
                0
            }
        }
    }

    /// `for token x where c { … }` or `for h in SET { … }`: the elements are listed when the
    /// loop starts, then the body runs once for each.
    pub(super) fn for_loop(
        &mut self,
        var: &ast::Ident,
        cond: Option<&ast::Expr>,
        set: Option<&ast::Expr>,
        body: &[ast::Stmt],
    ) {
        if self.s.loops >= u16::MAX as usize && !self.s.halted {
            self.error(
                ErrorKind::TooLarge {
                    value: self.s.loops as i64 + 1,
                    what: "at most 65535 `for` loops, once actions are expanded",
                },
                self.s.use_spans.first().copied().unwrap_or_default(),
            );
            self.s.halted = true;
        }
        let slot = self.s.loops.min(u16::MAX as usize - 1) as u16;
        self.s.loops += 1;
        self.s.scopes.push(vec![]);
        let tokens = cond.is_some();
        let set = set.map(|s| self.set_expr(s)).unwrap_or(SetExpr::Empty);
        let v = self.new_var(&var.name, if tokens { Ty::Token } else { Ty::Site });
        let cond = cond
            .map(|c| self.expect(c, Ty::Bool))
            .unwrap_or(Expr::Const(1));
        self.emit(Instr::ForInit {
            slot,
            var: v,
            over: if tokens { Over::Tokens } else { Over::Sites },
            cond,
            set,
        });
        let top = self.emit(Instr::ForNext {
            slot,
            var: v,
            end: 0,
        });
        self.block(body);
        self.emit(Instr::Jump(top));
        let end = self.here();
        if let Instr::ForNext { end: e, .. } = &mut self.s.code[top as usize] {
            *e = end;
        }
        self.s.scopes.pop();
    }

    /// `do name(args)`: the action's statements, with its parameters bound to the arguments.
    pub(super) fn do_action(&mut self, i: usize, args: &[ast::Expr], span: Span) {
        let a = &self.t.file.actions[i];
        if self.s.def_stack.contains(&a.name.name) {
            self.error(
                ErrorKind::Recursive {
                    name: a.name.name.clone(),
                },
                span,
            );
            return;
        }
        if a.params.len() != args.len() {
            self.error(
                ErrorKind::Arity {
                    name: a.name.name.clone(),
                    expected: a.params.len(),
                    found: args.len(),
                },
                span,
            );
            return;
        }
        let mut frame = vec![];
        let mut origins = vec![];
        for (p, arg) in a.params.iter().zip(args) {
            origins.push(self.origin_of(arg));
            let (x, t) = self.expr(arg);
            if let Expr::Const(_) = x {
                // A constant argument is folded into the action's statements.
                frame.push((p.name.clone(), Local::Bound(x, t, Cost::ONE)));
                continue;
            }
            // The argument is computed once, when the action starts.
            let v = self.slot_for_var();
            if t == Ty::Null {
                self.null_var(v, p, arg.span, &x);
            }
            self.emit(Instr::SetVar(v, x));
            frame.push((p.name.clone(), Local::Var(v, t)));
        }
        let saved = std::mem::replace(&mut self.s.scopes, vec![frame]);
        self.enter_params(&a.name.name, &a.params, origins);
        self.s.def_stack.push(a.name.name.clone());
        self.s.use_spans.push(span);
        self.block(&a.body);
        self.s.use_spans.pop();
        self.s.def_stack.pop();
        self.leave_params();
        self.s.scopes = saved;
    }

    pub(super) fn choose(&mut self, alts: &[ast::Alternative], otherwise: Option<&[ast::Stmt]>) {
        let again_at = self.s.again_target.take();
        let at = self.emit(Instr::Choose(self.s.choices.len() as u32));
        let again_at = again_at.unwrap_or(at);
        let cid = self.s.choices.len();
        self.s.choices.push(Choice {
            alts: vec![],
            otherwise: None,
        });
        let mut ends = vec![];
        let mut lowered = vec![];
        for a in alts {
            let set_domain = a.set.as_ref().map(|s| self.set_expr(s));
            let (var, domain) = match (&a.var, &a.values) {
                (None, _) => (None, Domain::Unit),
                (Some(v), None) if set_domain.is_some() => (
                    Some((v, Ty::Site)),
                    Domain::Set(set_domain.unwrap_or(SetExpr::Empty)),
                ),
                (Some(v), None) if a.token_var => (Some((v, Ty::Token)), Domain::Tokens),
                (Some(v), None) => (Some((v, Ty::Site)), Domain::Sites),
                (Some(v), Some(vals)) => {
                    let (ty, list) = self.values(vals);
                    (Some((v, ty)), Domain::Values(list))
                }
            };
            // A choice without a block leaves its variable visible to the statements after it.
            let has_body = a.body.is_some();
            if has_body {
                self.s.scopes.push(vec![]);
            }
            let var = var.map(|(v, ty)| self.new_var(&v.name, ty));
            let to = a.to.as_ref().map(|(v2, set)| {
                let s = self.set_expr(set);
                (self.new_var(&v2.name, Ty::Site), s)
            });
            let cond = a.cond.as_ref().map(|c| self.expect(c, Ty::Bool));
            let leaving = a.leaving.as_ref().map(|c| self.expect(c, Ty::Bool));
            let target = match &a.body {
                Some(body) => {
                    let t = self.here();
                    self.s.choose_stack.push(again_at);
                    self.block(body);
                    self.s.choose_stack.pop();
                    ends.push(self.emit(Instr::Jump(0)));
                    self.s.scopes.pop();
                    t
                }
                None => u32::MAX,
            };
            lowered.push(Alt {
                label: a.label.as_ref().map(|l| l.name.clone()),
                var,
                domain,
                cond,
                target,
                sites: vec![],
                pre: vec![],
                guards: vec![],
                checks: vec![],
                to,
                first: None,
                leaving,
            });
        }
        if let Some(block) = otherwise {
            self.s.choices[cid].otherwise = Some(self.here());
            self.block(block);
        }
        let end = self.here();
        if otherwise.is_none() && self.s.in_between {
            // Between rounds nobody passes a turn: a choice with nothing to choose is skipped.
            self.s.choices[cid].otherwise = Some(end);
        }
        for j in ends {
            self.patch(j, end);
        }
        for l in &mut lowered {
            if l.target == u32::MAX {
                l.target = end;
            }
        }
        self.distinct_notations(alts, &lowered);
        self.s.choices[cid].alts = lowered;
    }

    /// The source text of a span, blanks folded, to compare two parts of a file.
    pub(super) fn text_of(&self, span: Span) -> String {
        self.t
            .source
            .get(span.start..span.end)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A decision is named by its notation (in a record, at the terminal): a choice whose
    /// decisions would surely be written alike is refused. Sure: a value listed twice, or two
    /// alternatives with the same label, values that meet (the same kind of places, the same
    /// set, or a value in common), the same `to` part and the same condition.
    pub(super) fn distinct_notations(&mut self, alts: &[ast::Alternative], lowered: &[Alt]) {
        let label = |a: &ast::Alternative| a.label.as_ref().map(|l| l.name.to_lowercase());
        let written = |a: &ast::Alternative, value: &str| match &a.label {
            Some(l) if value.is_empty() => l.name.clone(),
            Some(l) => format!("{} {value}", l.name),
            None => value.to_string(),
        };
        for (a, l) in alts.iter().zip(lowered) {
            if let Domain::Values(vals) = &l.domain {
                let mut seen: Vec<i64> = vec![];
                if let Some((_, name)) = vals.iter().find(|(v, _)| {
                    let again = seen.contains(v);
                    seen.push(*v);
                    again
                }) {
                    let text = written(a, name);
                    self.ambiguous(text, a.span);
                    return;
                }
            }
        }
        for j in 1..alts.len() {
            for i in 0..j {
                let (a, b) = (&alts[i], &alts[j]);
                let same_text = |x: Option<Span>, y: Option<Span>| match (x, y) {
                    (None, None) => true,
                    (Some(x), Some(y)) => self.text_of(x) == self.text_of(y),
                    _ => false,
                };
                if label(a) != label(b)
                    || !same_text(
                        a.cond.as_ref().map(|c| c.span),
                        b.cond.as_ref().map(|c| c.span),
                    )
                    || !same_text(
                        a.to.as_ref().map(|(_, s)| s.span),
                        b.to.as_ref().map(|(_, s)| s.span),
                    )
                {
                    continue;
                }
                let value = match (&lowered[i].domain, &lowered[j].domain) {
                    (Domain::Unit, Domain::Unit) => Some(String::new()),
                    (Domain::Sites, Domain::Sites) | (Domain::Tokens, Domain::Tokens) => {
                        Some("…".to_string())
                    }
                    (Domain::Set(_), Domain::Set(_))
                        if same_text(
                            a.set.as_ref().map(|s| s.span),
                            b.set.as_ref().map(|s| s.span),
                        ) =>
                    {
                        Some("…".to_string())
                    }
                    (Domain::Values(x), Domain::Values(y)) => x
                        .iter()
                        .find(|(v, n)| {
                            y.iter()
                                .any(|(w, m)| v == w || n.to_lowercase() == m.to_lowercase())
                        })
                        .map(|(_, n)| n.clone()),
                    _ => None,
                };
                if let Some(v) = value {
                    let v = if b.to.is_some() {
                        format!("{v} …")
                    } else {
                        v
                    };
                    let text = written(b, &v);
                    self.ambiguous(text, b.span);
                    return;
                }
            }
        }
    }

    pub(super) fn ambiguous(&mut self, written: String, span: Span) {
        self.error_hint(
            ErrorKind::AmbiguousNotation { written },
            span,
            "two decisions of one choice need different notations: give the alternatives \
             different labels, or list each value once",
        );
    }

    pub(super) fn values(&mut self, vals: &[ValueItem]) -> (Ty, Vec<(i64, String)>) {
        let mut ty = Ty::Error;
        let mut out = vec![];
        for v in vals {
            let (items, t, span): (Vec<(i64, String)>, Ty, Span) = match v {
                ValueItem::Int(n, sp) => (vec![(*n, n.to_string())], Ty::Num, *sp),
                ValueItem::Range(a, z, sp) => {
                    if z < a || z.abs_diff(*a) > 1000 {
                        self.error(
                            ErrorKind::BadRange {
                                name: format!("{a}..{z}"),
                            },
                            *sp,
                        );
                        continue;
                    }
                    (
                        (*a..=*z).map(|i| (i, i.to_string())).collect(),
                        Ty::Num,
                        *sp,
                    )
                }
                ValueItem::Name(id) => {
                    let (x, t) = self.name(id, id.span);
                    match x {
                        Expr::Const(c) => (vec![(c, id.name.clone())], t, id.span),
                        _ => {
                            self.error(
                                ErrorKind::Type {
                                    expected: "a constant".into(),
                                    found: t.words().into(),
                                },
                                id.span,
                            );
                            continue;
                        }
                    }
                }
            };
            if ty == Ty::Error {
                ty = t;
            } else if t != ty && t != Ty::Error {
                self.type_error(ty, t, span);
            }
            out.extend(items);
        }
        (ty, out)
    }
}
