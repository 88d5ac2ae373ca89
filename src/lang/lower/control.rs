//! Statements of the flow of a turn: tests, loops, sowing, and what ends a turn, a round or
//! the game.

use super::*;

impl Lowerer<'_> {
    /// `if … { … } else { … }`: a test and a jump over each block.
    pub(super) fn if_else(
        &mut self,
        cond: &ast::Expr,
        then: &[ast::Stmt],
        otherwise: &Option<Vec<ast::Stmt>>,
    ) {
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

    /// `while … { … }`: the test, the block, and a jump back.
    pub(super) fn while_loop(&mut self, cond: &ast::Expr, body: &[ast::Stmt]) {
        let top = self.here();
        let c = self.expect(cond, Ty::Bool);
        let jf = self.emit(Instr::JumpIfNot(c, 0));
        self.block(body);
        self.emit(Instr::Jump(top));
        let h = self.here();
        self.patch(jf, h);
    }

    /// `sow from … dir … { … }`: the laps of a sowing, each running the block (`sown`,
    /// `relay`).
    pub(super) fn sow(&mut self, s: &ast::Stmt) {
        let StmtKind::Sow {
            from,
            dir,
            orders,
            skip,
            last,
            body,
        } = &s.kind
        else {
            return;
        };
        let span = s.span;
        self.need_ring(span);
        let f = self.expect(from, Ty::Site);
        let d = self.ring_dir(dir);
        self.emit(Instr::SowStart { from: f, dir: d });
        self.s.scopes.push(vec![]);
        let lap = self.here();
        self.s.lap_stack.push(lap);
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
        self.s.sown_vars.push((sown, false));
        self.block(body);
        // the pieces of a lap are counted only for a block that reads `sown`
        if let Some((_, false)) = self.s.sown_vars.pop()
            && let Instr::SowLap { sown, .. } = &mut self.s.code[at as usize]
        {
            *sown = None;
        }
        self.s.lap_stack.pop();
        self.s.scopes.pop();
        let j = self.emit(Instr::Jump(0));
        let cyc = self.emit(Instr::EndTurn);
        self.patch(at, cyc);
        let h = self.here();
        self.patch(j, h);
    }

    /// `another turn`: only in the `turn` block.
    pub(super) fn another_turn(&mut self, span: Span) {
        if self.s.in_between || self.s.in_start {
            self.error_hint(
                ErrorKind::Misplaced {
                    what: "another turn",
                    place: "in the `turn` block",
                },
                span,
                "`another turn` gives the player to move another turn when this one ends",
            );
        }
        self.emit(Instr::AnotherTurn);
    }

    /// `relay h`: the sowing goes on from h (inside a `sow` only).
    pub(super) fn relay(&mut self, site: &ast::Expr, span: Span) {
        let x = self.expect(site, Ty::Site);
        match self.s.lap_stack.last() {
            Some(&lap) => {
                self.emit(Instr::Relay { site: x, lap });
            }
            None => self.error_hint(
                ErrorKind::Misplaced {
                    what: "relay",
                    place: "inside the block of a `sow`",
                },
                span,
                "`relay h` picks up h and sows on; it continues the sowing in progress",
            ),
        }
    }

    /// `end turn`: not between rounds.
    pub(super) fn end_turn(&mut self, span: Span) {
        if self.s.in_between {
            self.error_hint(
                ErrorKind::Misplaced { what: "end turn", place: "in the `turn` block" },
                span,
                "between rounds, the next round starts at the end of the block; `end game` ends the match",
            );
        }
        self.emit(Instr::EndTurn);
    }

    /// `end round`: only in the `turn` block.
    pub(super) fn end_round(&mut self, span: Span) {
        if self.s.in_between || self.s.in_start {
            self.error_hint(
                ErrorKind::Misplaced { what: "end round", place: "in the `turn` block" },
                span,
                "`end round` runs the `between rounds` block; it cannot be used inside it or in `start`",
            );
        }
        self.emit(Instr::EndRound);
    }

    /// `end game …`.
    pub(super) fn end_game(&mut self, rule: &ast::EndGame, reason: &Option<String>) {
        let r = match rule {
            ast::EndGame::Score => EndRule::Score,
            ast::EndGame::Draw => EndRule::Draw,
            ast::EndGame::Winner(p) => EndRule::Winner(self.expect(p, Ty::Player)),
        };
        self.emit(Instr::EndGame(r, reason.clone()));
    }

    /// `again`: the enclosing choice once more.
    pub(super) fn again(&mut self, span: Span) {
        match self.s.choose_stack.last() {
            Some(&at) => {
                self.emit(Instr::Jump(at));
            }
            None => self.error_hint(
                ErrorKind::Misplaced {
                    what: "again",
                    place: "inside an alternative of `choose`",
                },
                span,
                "`again` offers the enclosing choice once more",
            ),
        }
    }

    /// `first …`: who moves first (in `start` or `between rounds` only).
    pub(super) fn first(&mut self, who: &Option<ast::Expr>, span: Span) {
        if !self.s.in_start && !self.s.in_between {
            self.error(
                ErrorKind::Misplaced {
                    what: "first",
                    place: "in the `start` or `between rounds` block",
                },
                span,
            );
        }
        let p = who.as_ref().map(|e| self.expect(e, Ty::Player));
        self.emit(Instr::First(p));
    }
}
