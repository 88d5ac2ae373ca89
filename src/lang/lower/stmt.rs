//! Statements: the instruction list, blocks, choices and their notations, loops, actions.

use super::*;

impl Checker<'_> {
    pub(super) fn emit(&mut self, i: Instr) -> u32 {
        self.code.push(i);
        (self.code.len() - 1) as u32
    }

    pub(super) fn here(&self) -> u32 {
        self.code.len() as u32
    }

    pub(super) fn patch(&mut self, at: u32, target: u32) {
        match &mut self.code[at as usize] {
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
        self.scopes.push(vec![]);
        let mut tests_from: Option<u32> = None;
        for s in stmts {
            let here = self.here();
            let test = is_test(s);
            if test && tests_from.is_none() {
                tests_from = Some(here);
            }
            if matches!(s.kind, StmtKind::Choose(..)) {
                self.again_target = Some(tests_from.unwrap_or(here));
            }
            self.stmt(s);
            if !test {
                tests_from = None;
            }
        }
        if let Some(scope) = self.scopes.pop() {
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

    pub(super) fn stmt_in(&mut self, s: &ast::Stmt) {
        let span = s.span;
        match &s.kind {
            StmtKind::If { cond, then, otherwise } => {
                let c = self.expect(cond, Ty::Bool);
                let jf = self.emit(Instr::JumpIfNot(c, 0));
                self.block(then);
                match otherwise {
                    Some(o) => {
                        let jend = self.emit(Instr::Jump(0));
                        let h = self.here();
                        self.patch(jf, h);
                        self.block(o);
                        let h = self.here();
                        self.patch(jend, h);
                    }
                    None => {
                        let h = self.here();
                        self.patch(jf, h);
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let top = self.here();
                let c = self.expect(cond, Ty::Bool);
                let jf = self.emit(Instr::JumpIfNot(c, 0));
                self.block(body);
                self.emit(Instr::Jump(top));
                let h = self.here();
                self.patch(jf, h);
            }
                        StmtKind::Choose(alts, otherwise) => self.choose(alts, otherwise.as_deref()),
            StmtKind::Sow { from, dir, orders, skip, last, body } => {
                self.need_ring(span);
                let f = self.expect(from, Ty::Site);
                let d = self.expect(dir, Ty::Dir);
                self.emit(Instr::SowStart { from: f, dir: d });
                self.scopes.push(vec![]);
                let lap = self.here();
                self.lap_stack.push(lap);
                let skip = skip.as_ref().map(|e| self.set_expr(e));
                let last_var = self.new_var(&last.name, Ty::Site);
                let sown = self.slot_for_var();
                let at = self.emit(Instr::SowLap {
                    orders: *orders,
                    skip,
                    last: last_var,
                    on_cycle: 0,
                    sown: Some(sown),
                });
                self.sown_vars.push((sown, false));
                self.block(body);
                // the pieces of a lap are counted only for a block that reads `sown`
                if let Some((_, false)) = self.sown_vars.pop()
                    && let Instr::SowLap { sown, .. } = &mut self.code[at as usize]
                {
                    *sown = None;
                }
                self.lap_stack.pop();
                self.scopes.pop();
                let j = self.emit(Instr::Jump(0));
                let cyc = self.emit(Instr::EndTurn);
                self.patch(at, cyc);
                let h = self.here();
                self.patch(j, h);
            }
            StmtKind::Let(name, value) => {
                if self.peek_is_set(value) {
                    let (set, cost) = self.measured(|c| c.set_expr(value));
                    self.bind(&name.name, Local::BoundSet(set, cost));
                    return;
                }
                let (x, t) = self.expr(value);
                let v = self.new_var(&name.name, t);
                self.let_values.insert(v, value.span);
                if t == Ty::Null {
                    // `let x = none`: its type comes from its uses
                    self.null_var(v, name, span, &x);
                }
                self.emit(Instr::SetVar(v, x));
            }
            StmtKind::LetTyped { name, ty, value } => {
                let want = self.type_word(ty);
                let x = self.expect(value, want);
                let v = self.new_var(&name.name, want);
                self.emit(Instr::SetVar(v, x));
            }
            StmtKind::AnotherTurn => {
                if self.in_between || self.in_start {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "another turn", place: "in the `turn` block" },
                        span,
                        "`another turn` gives the player to move another turn when this one ends",
                    );
                }
                self.emit(Instr::AnotherTurn);
            }
            StmtKind::Set { target, value } => match &target.kind {
                ExprKind::Name(id) => match self.lookup_local(&id.name).cloned() {
                    Some(Local::Var(v, t)) => {
                        let t = self.known_type(&Expr::Var(v), t);
                        let x = if t == Ty::Null {
                            // a variable made from `none`: the value says what it stands for
                            let (x, vt) = self.expr(value);
                            let vt = self.known_type(&x, vt);
                            if crate::check::none_type::nullable(vt) {
                                self.determine(&Expr::Var(v), vt);
                            } else if vt != Ty::Null && vt != Ty::Error {
                                self.error(
                                    ErrorKind::Type {
                                        expected: "a site, a player, a token or an area (it was made from `none`)".into(),
                                        found: vt.words().into(),
                                    },
                                    value.span,
                                );
                            }
                            x
                        } else {
                            self.expect(value, t)
                        };
                        self.emit(Instr::SetVar(v, x));
                    }
                    None if id.name == "mover" => {
                        let p = self.expect(value, Ty::Player);
                        self.emit(Instr::SetMover(p));
                    }
                    None if self.tally(&id.name).is_some() => {
                        let Some(t) = self.tally(&id.name) else { return };
                        let x = self.expect(value, Ty::Num);
                        if t.per_site {
                            self.site_tally_set_alone(&t, target.span);
                        } else if t.per_player {
                            let hint = format!("a `per player` tally is set for a player: `set {}(mover) = …`", t.name);
                            self.error_hint(ErrorKind::BadTarget, target.span, hint);
                        } else {
                            self.emit(Instr::SetTally { slot: t.slot, player: None, value: x });
                        }
                    }
                    _ => self.error_hint(ErrorKind::BadTarget, target.span, "only variables made with `let` can be set; `set owner(h) = p` and `set kind(h) = store` change a site"),
                },
                ExprKind::Call(f, args) if self.tally(&f.name).is_some_and(|t| t.per_site) => {
                    self.set_site_tally(f, args, value, target.span);
                }
                ExprKind::Call(f, args) if args.len() == 1 && self.tally(&f.name).is_some_and(|t| t.per_player) => {
                    let Some(slot) = self.tally(&f.name).map(|t| t.slot) else { return };
                    let p = self.expect(&args[0], Ty::Player);
                    let x = self.expect(value, Ty::Num);
                    self.emit(Instr::SetTally { slot, player: Some(p), value: x });
                }
                ExprKind::Call(f, args) if (f.name == "owner" || f.name == "kind") && args.len() == 1 => {
                    let site = self.expect(&args[0], Ty::Site);
                    if f.name == "owner" {
                        let p = self.expect(value, Ty::Player);
                        self.emit(Instr::SetOwner(site, p));
                    } else {
                        let k = self.expect(value, Ty::SiteKind);
                        self.emit(Instr::SetKind(site, k));
                    }
                }
                _ => self.error_hint(ErrorKind::BadTarget, target.span, "write `set v = …`, `set owner(h) = p`, `set kind(h) = k`, `set mover = p` or `set TALLY = …`"),
            },
            StmtKind::Capture { items, keep, to } => {
                let sets: Vec<SetExpr> = items.iter().map(|i| self.set_expr(i)).collect();
                let set = if sets.len() == 1 { sets.into_iter().next().unwrap_or(SetExpr::Empty) } else { SetExpr::Union(sets) };
                let keep = keep.as_ref().map(|k| self.expect(k, Ty::Num)).unwrap_or(Expr::Const(0));
                let to = to.as_ref().map(|p| self.expect(p, Ty::Player)).unwrap_or(Expr::Mover);
                self.emit(Instr::Capture { set, keep, to });
            }
            StmtKind::Place { count, piece, target, from, owner } => {
                let n = self.expect(count, Ty::Num);
                let k = self.piece_kind(piece);
                let is_token = self.token_kinds.get(k.0 as usize).copied().unwrap_or(false);
                let owner = owner.as_ref().map(|p| self.expect(p, Ty::Player));
                let from = from.as_ref().map(|p| self.expect(p, Ty::Player));
                match (target, is_token) {
                    (ast::PlaceTarget::Sites(on), false) => {
                        let sets: Vec<SetExpr> = on.iter().map(|i| self.set_expr(i)).collect();
                        self.emit(Instr::Place {
                            count: n,
                            piece: k,
                            on: SetExpr::Union(sets),
                            from,
                        });
                    }
                    (ast::PlaceTarget::Sites(on), true) => {
                        let sets: Vec<SetExpr> = on.iter().map(|i| self.set_expr(i)).collect();
                        self.emit(Instr::PlaceTokens {
                            count: n,
                            piece: k,
                            on: Some(SetExpr::Union(sets)),
                            area: 0,
                            owner,
                        });
                    }
                    (ast::PlaceTarget::Area(a), true) => {
                        let area = self.area(a);
                        self.emit(Instr::PlaceTokens {
                            count: n,
                            piece: k,
                            on: None,
                            area,
                            owner,
                        });
                    }
                    (ast::PlaceTarget::Area(a), false) => self.error_hint(
                        ErrorKind::Misplaced { what: "placing in an area", place: "for token pieces" },
                        a.span,
                        "declare the piece with `tokens N` to place it in an area",
                    ),
                }
            }
            StmtKind::Throw { dice, var } => match self.globals.get(&dice.name).map(|g| g.0) {
                Some(Global::Dice(d)) => {
                    let v = self.new_var(&var.name, Ty::Num);
                    self.emit(Instr::Throw { dice: d, var: v });
                }
                _ => {
                    let names: Vec<&str> = self.file.dice.iter().map(|d| d.name.name.as_str()).collect();
                    let hint = self.suggest_among(&dice.name, names)
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "dice are declared with `dice NAME { … }`".into());
                    self.error_hint(ErrorKind::Unknown { what: "dice", name: dice.name.clone() }, dice.span, hint);
                }
            },
            StmtKind::Move { token, target, carry } => {
                let t = self.expect(token, Ty::Token);
                let (to, onto_site) = match target {
                    ast::MoveTarget::Position(p) => (self.expect(p, Ty::Num), false),
                    ast::MoveTarget::Site(s) => (self.expect(s, Ty::Site), true),
                };
                self.emit(Instr::Move {
                    token: t,
                    to,
                    onto_site,
                    carry: *carry,
                });
            }
            StmtKind::Send { token, area } => {
                let t = self.expect(token, Ty::Token);
                let a = self.area(area);
                self.emit(Instr::Send { token: t, area: a });
            }
            StmtKind::ForTokens { var, cond, body } => self.for_loop(var, Some(cond), None, body),
            StmtKind::ForSites { var, set, body } => self.for_loop(var, None, Some(set), body),
            StmtKind::Do { name, args } => match self.globals.get(&name.name).map(|g| g.0) {
                Some(Global::Action(i)) => self.do_action(i, args, span),
                _ => {
                    let names: Vec<&str> = self.file.actions.iter().map(|a| a.name.name.as_str()).collect();
                    let hint = self.suggest_among(&name.name, names)
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "actions are declared with `action NAME(…) { … }`".into());
                    self.error_hint(ErrorKind::Unknown { what: "action", name: name.name.clone() }, name.span, hint);
                }
            },
            StmtKind::Relay(site) => {
                let x = self.expect(site, Ty::Site);
                match self.lap_stack.last() {
                    Some(&lap) => {
                        self.emit(Instr::Relay { site: x, lap });
                    }
                    None => self.error_hint(
                        ErrorKind::Misplaced { what: "relay", place: "inside the block of a `sow`" },
                        span,
                        "`relay h` picks up h and sows on; it continues the sowing in progress",
                    ),
                }
            }
            StmtKind::EndTurn => {
                if self.in_between {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "end turn", place: "in the `turn` block" },
                        span,
                        "between rounds, the next round starts at the end of the block; `end game` ends the match",
                    );
                }
                self.emit(Instr::EndTurn);
            }
            StmtKind::EndRound => {
                if self.in_between || self.in_start {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "end round", place: "in the `turn` block" },
                        span,
                        "`end round` runs the `between rounds` block; it cannot be used inside it or in `start`",
                    );
                }
                self.emit(Instr::EndRound);
            }
            StmtKind::Give { count, piece, from, to } => {
                let n = self.expect(count, Ty::Num);
                let known = matches!(self.globals.get(&piece.name), Some((Global::Piece(_), _)));
                let k = self.piece_kind(piece);
                if known && self.token_kinds.get(k.0 as usize).copied().unwrap_or(false) {
                    self.error_hint(
                        ErrorKind::Misplaced { what: "give", place: "for counters (pieces without `tokens`)" },
                        piece.span,
                        "tokens are moved one by one with `move` and `send`",
                    );
                }
                let from = self.expect(from, Ty::Player);
                let to = self.expect(to, Ty::Player);
                self.emit(Instr::Give { count: n, piece: k, from, to });
            }
            StmtKind::EndGame(rule, reason) => {
                let r = match rule {
                    ast::EndGame::Score => EndRule::Score,
                    ast::EndGame::Draw => EndRule::Draw,
                    ast::EndGame::Winner(p) => EndRule::Winner(self.expect(p, Ty::Player)),
                };
                self.emit(Instr::EndGame(r, reason.clone()));
            }
            StmtKind::Again => match self.choose_stack.last() {
                Some(&at) => {
                    self.emit(Instr::Jump(at));
                }
                None => self.error_hint(
                    ErrorKind::Misplaced { what: "again", place: "inside an alternative of `choose`" },
                    span,
                    "`again` offers the enclosing choice once more",
                ),
            },
            StmtKind::ForgetPositions => {
                self.emit(Instr::ForgetPositions);
            }
            StmtKind::First(who) => {
                if !self.in_start && !self.in_between {
                    self.error(ErrorKind::Misplaced { what: "first", place: "in the `start` or `between rounds` block" }, span);
                }
                let p = who.as_ref().map(|e| self.expect(e, Ty::Player));
                self.emit(Instr::First(p));
            }
        }
    }

    /// The tally of that name, if it is one.
    pub(crate) fn tally(&self, name: &str) -> Option<TallyInfo> {
        match self.globals.get(name) {
            Some((Global::Tally(i), _)) => self.tallies.get(*i).cloned(),
            _ => None,
        }
    }

    /// A piece kind by name (an unknown one is reported, with the closest name).
    pub(super) fn piece_kind(&mut self, piece: &ast::Ident) -> PieceKind {
        if let Some(Global::Piece(k)) = self.globals.get(&piece.name).map(|g| g.0) {
            return k;
        }
        let hint =
            crate::diagnostic::suggest(&piece.name, self.pieces.iter().map(|p| p.name.as_str()))
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
        match self.globals.get(&a.name).map(|g| g.0) {
            Some(Global::Area(i)) => i,
            _ => {
                let hint =
                    crate::diagnostic::suggest(&a.name, self.areas.iter().map(String::as_str))
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
        if self.loops >= u16::MAX as usize && !self.halted {
            self.error(
                ErrorKind::TooLarge {
                    value: self.loops as i64 + 1,
                    what: "at most 65535 `for` loops, once actions are expanded",
                },
                self.use_spans.first().copied().unwrap_or_default(),
            );
            self.halted = true;
        }
        let slot = self.loops.min(u16::MAX as usize - 1) as u16;
        self.loops += 1;
        self.scopes.push(vec![]);
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
        if let Instr::ForNext { end: e, .. } = &mut self.code[top as usize] {
            *e = end;
        }
        self.scopes.pop();
    }

    /// `do name(args)`: the action's statements, with its parameters bound to the arguments.
    pub(super) fn do_action(&mut self, i: usize, args: &[ast::Expr], span: Span) {
        let a = &self.file.actions[i];
        if self.def_stack.contains(&a.name.name) {
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
        let saved = std::mem::replace(&mut self.scopes, vec![frame]);
        self.enter_params(&a.name.name, &a.params, origins);
        self.def_stack.push(a.name.name.clone());
        self.use_spans.push(span);
        self.block(&a.body);
        self.use_spans.pop();
        self.def_stack.pop();
        self.leave_params();
        self.scopes = saved;
    }

    pub(super) fn choose(&mut self, alts: &[ast::Alternative], otherwise: Option<&[ast::Stmt]>) {
        let again_at = self.again_target.take();
        let at = self.emit(Instr::Choose(self.choices.len() as u32));
        let again_at = again_at.unwrap_or(at);
        let cid = self.choices.len();
        self.choices.push(Choice {
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
                self.scopes.push(vec![]);
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
                    self.choose_stack.push(again_at);
                    self.block(body);
                    self.choose_stack.pop();
                    ends.push(self.emit(Instr::Jump(0)));
                    self.scopes.pop();
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
                to,
                first: None,
                leaving,
            });
        }
        if let Some(block) = otherwise {
            self.choices[cid].otherwise = Some(self.here());
            self.block(block);
        }
        let end = self.here();
        if otherwise.is_none() && self.in_between {
            // Between rounds nobody passes a turn: a choice with nothing to choose is skipped.
            self.choices[cid].otherwise = Some(end);
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
        self.choices[cid].alts = lowered;
    }

    /// The source text of a span, blanks folded, to compare two parts of a file.
    pub(super) fn text_of(&self, span: Span) -> String {
        self.source
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
