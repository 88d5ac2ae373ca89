//! Statements that name and change values: `let`, `let x: TYPE`, `set`.

use super::*;

impl Lowerer<'_> {
    /// `let x = …`: a new variable, or a name for a set (lowered where it is used).
    pub(super) fn let_stmt(&mut self, name: &ast::Ident, value: &ast::Expr, span: Span) {
        if self.peek_is_set(value) {
            let (set, cost) = self.measured(|c| c.set_expr(value));
            self.bind(&name.name, Local::BoundSet(set, cost));
            return;
        }
        let (x, t) = self.expr(value);
        let v = self.new_var(&name.name, t);
        self.s.let_values.insert(v, value.span);
        if t == Ty::Null {
            // `let x = none`: its type comes from its uses
            self.null_var(v, name, span, &x);
        }
        self.emit(Instr::SetVar(v, x));
    }

    /// `let x: TYPE = …`.
    pub(super) fn let_typed(&mut self, name: &ast::Ident, ty: &ast::Ident, value: &ast::Expr) {
        let want = self.type_word(ty);
        let x = self.expect(value, want);
        let v = self.new_var(&name.name, want);
        self.emit(Instr::SetVar(v, x));
    }

    /// The kind a token becomes: a piece kind that is made of tokens (`pieces { queen tokens 2 }`).
    fn token_kind_value(&mut self, value: &ast::Expr) -> Expr {
        let k = self.expect(value, Ty::Piece);
        if let Expr::Const(c) = k
            && !self.t.token_kinds.get(c as usize).copied().unwrap_or(true)
        {
            let name = self.text_of(value.span);
            self.error_hint(
                ErrorKind::Misplaced {
                    what: "a kind of counters",
                    place: "for the kind of a token",
                },
                value.span,
                format!("a token becomes a kind of tokens; declare the piece with `tokens N` (`{name} tokens 1`), or set the kind of a site (`set kind(site(t)) = …`) if that is meant"),
            );
        }
        k
    }

    /// `set … = …`: a variable, `mover`, a tally, or a site's owner or kind.
    pub(super) fn set(&mut self, target: &ast::Expr, value: &ast::Expr) {
        match &target.kind {
            ExprKind::Name(id) => match self.lookup_local(&id.name).cloned() {
                Some(Local::Var(v, t)) => {
                    let t = self.known_type(&Expr::Var(v), t);
                    let x = if t == Ty::Null {
                        // a variable made from `none`: the value says what it stands for
                        let (x, vt) = self.expr(value);
                        let vt = self.known_type(&x, vt);
                        if super::none_type::nullable(vt) {
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
                let (x, t) = self.expr(&args[0]);
                if f.name == "kind" && t == Ty::Token {
                    let k = self.token_kind_value(value);
                    self.emit(Instr::SetTokenKind(x, k));
                    return;
                }
                let site = self.expect_lowered(&args[0], x, t, Ty::Site);
                if f.name == "owner" {
                    let p = self.expect(value, Ty::Player);
                    self.emit(Instr::SetOwner(site, p));
                } else {
                    let k = self.expect(value, Ty::SiteKind);
                    self.emit(Instr::SetKind(site, k));
                }
            }
            _ => self.error_hint(ErrorKind::BadTarget, target.span, "write `set v = …`, `set owner(h) = p`, `set kind(h) = k`, `set mover = p` or `set TALLY = …`"),
        }
    }
}
