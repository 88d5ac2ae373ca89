//! Statements that move pieces: capture, place, give, throw, move and send tokens, `do` an action.

use super::*;

impl Lowerer<'_> {
    /// `capture …`: the pieces of the sites to a player's store.
    pub(super) fn capture(
        &mut self,
        items: &[ast::Expr],
        keep: &Option<ast::Expr>,
        to: &Option<ast::Expr>,
    ) {
        let sets: Vec<SetExpr> = items.iter().map(|i| self.set_expr(i)).collect();
        let set = if sets.len() == 1 {
            sets.into_iter().next().unwrap_or(SetExpr::Empty)
        } else {
            SetExpr::Union(sets)
        };
        let keep = keep
            .as_ref()
            .map(|k| self.expect(k, Ty::Num))
            .unwrap_or(Expr::Const(0));
        let to = to
            .as_ref()
            .map(|p| self.expect(p, Ty::Player))
            .unwrap_or(Expr::Mover);
        self.emit(Instr::Capture { set, keep, to });
    }

    /// `place N PIECE on …` (or `in AREA`, for tokens).
    pub(super) fn place(
        &mut self,
        count: &ast::Expr,
        piece: &ast::Ident,
        target: &ast::PlaceTarget,
        from: &Option<ast::Expr>,
        owner: &Option<ast::Expr>,
    ) {
        let n = self.expect(count, Ty::Num);
        let k = self.piece_kind(piece);
        let is_token = self
            .t
            .token_kinds
            .get(k.0 as usize)
            .copied()
            .unwrap_or(false);
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
                ErrorKind::Misplaced {
                    what: "placing in an area",
                    place: "for token pieces",
                },
                a.span,
                "declare the piece with `tokens N` to place it in an area",
            ),
        }
    }

    /// `throw DICE as v`: a chance event.
    pub(super) fn throw(&mut self, dice: &ast::Ident, var: &ast::Ident) {
        match self.t.globals.get(&dice.name).map(|g| g.0) {
            Some(Global::Dice(d)) => {
                let v = self.new_var(&var.name, Ty::Num);
                self.emit(Instr::Throw { dice: d, var: v });
            }
            _ => {
                let names: Vec<&str> = self
                    .t
                    .file
                    .dice
                    .iter()
                    .map(|d| d.name.name.as_str())
                    .collect();
                let hint = self
                    .d
                    .suggest_among(&dice.name, names)
                    .map(|s| format!("did you mean `{s}`?"))
                    .unwrap_or_else(|| "dice are declared with `dice NAME { … }`".into());
                self.error_hint(
                    ErrorKind::Unknown {
                        what: "dice",
                        name: dice.name.clone(),
                    },
                    dice.span,
                    hint,
                );
            }
        }
    }

    /// `move TOKEN to …`.
    pub(super) fn move_token(&mut self, token: &ast::Expr, target: &ast::MoveTarget, carry: &bool) {
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

    /// `send TOKEN to AREA`.
    pub(super) fn send(&mut self, token: &ast::Expr, area: &ast::Ident) {
        let t = self.expect(token, Ty::Token);
        let a = self.area(area);
        self.emit(Instr::Send { token: t, area: a });
    }

    /// `do ACTION(…)`: the action, expanded here.
    pub(super) fn do_stmt(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) {
        match self.t.globals.get(&name.name).map(|g| g.0) {
            Some(Global::Action(i)) => self.do_action(i, args, span),
            _ => {
                let names: Vec<&str> = self
                    .t
                    .file
                    .actions
                    .iter()
                    .map(|a| a.name.name.as_str())
                    .collect();
                let hint = self
                    .d
                    .suggest_among(&name.name, names)
                    .map(|s| format!("did you mean `{s}`?"))
                    .unwrap_or_else(|| "actions are declared with `action NAME(…) { … }`".into());
                self.error_hint(
                    ErrorKind::Unknown {
                        what: "action",
                        name: name.name.clone(),
                    },
                    name.span,
                    hint,
                );
            }
        }
    }

    /// `give N PIECE from p to q`: counters, not tokens.
    pub(super) fn give(
        &mut self,
        count: &ast::Expr,
        piece: &ast::Ident,
        from: &ast::Expr,
        to: &ast::Expr,
    ) {
        let n = self.expect(count, Ty::Num);
        let known = matches!(self.t.globals.get(&piece.name), Some((Global::Piece(_), _)));
        let k = self.piece_kind(piece);
        if known
            && self
                .t
                .token_kinds
                .get(k.0 as usize)
                .copied()
                .unwrap_or(false)
        {
            self.error_hint(
                ErrorKind::Misplaced {
                    what: "give",
                    place: "for counters (pieces without `tokens`)",
                },
                piece.span,
                "tokens are moved one by one with `move` and `send`",
            );
        }
        let from = self.expect(from, Ty::Player);
        let to = self.expect(to, Ty::Player);
        self.emit(Instr::Give {
            count: n,
            piece: k,
            from,
            to,
        });
    }
}
