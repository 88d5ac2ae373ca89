//! The sides, the pieces, the definitions (`def`, `action`), the tallies and the dice.

use super::*;

/// A die of a `dice` declaration: its name and its faces.
type Die = (String, Vec<String>);

impl Checker<'_> {
    /// No `sides` line: one error, with the line to add (the owners the board names, in the
    /// order it names them, or `South North`); every name of a player would be unknown, so
    /// the checker stops there (see `check`).
    fn missing_sides(&mut self) {
        let mut names: Vec<&str> = vec![];
        for b in &self.t.file.boards {
            let attrs = b
                .rows
                .iter()
                .flat_map(|r| r.attrs.iter())
                .chain(b.sites.iter().flat_map(|s| s.attrs.iter()));
            for a in attrs {
                if let ast::SiteAttr::Owner(id) = a
                    && !names.contains(&id.name.as_str())
                {
                    names.push(&id.name);
                }
            }
        }
        let line = if names.is_empty() {
            "sides South North".to_string()
        } else {
            format!("sides {}", names.join(" "))
        };
        let hint = format!(
            "add the players, the first to move first, on a line of their own after the options: `{line}`"
        );
        self.error_hint(
            ErrorKind::Missing {
                what: "`sides` declaration",
            },
            Span { start: 0, end: 0 },
            hint,
        );
    }

    pub(super) fn sides(&mut self) {
        let f = self.t.file;
        if f.sides.is_empty() {
            self.missing_sides();
            return;
        }
        let Some(sides) = self.d.one_of(
            &f.sides,
            |_| f.sides_spans.get(1).copied().unwrap_or_default(),
            "`sides` declaration",
            true,
        ) else {
            return;
        };
        if sides.len() > 16 {
            self.error(
                ErrorKind::TooLarge {
                    value: sides.len() as i64,
                    what: "at most 16 sides",
                },
                sides[16].span,
            );
        }
        for s in sides.iter().take(16) {
            let p = Player(self.t.sides.len() as u8);
            if self.declare(&s.name, Global::Player(p), s.span, "side") {
                self.t.sides.push(s.name.clone());
            }
        }
        let mut per_side = 1;
        if let Some(e) = self.d.one_of(
            &f.team_size,
            |e| e.span,
            "`players per side` declaration",
            false,
        ) {
            match self.const_int(e) {
                Some(n) if (1..=8).contains(&n) && n as usize * self.t.sides.len() <= 64 => {
                    per_side = n as usize
                }
                Some(n) => self.error(
                    ErrorKind::TooLarge {
                        value: n,
                        what: "1 to 8 players a side, 64 in all",
                    },
                    e.span,
                ),
                None => {}
            }
        }
        for i in 1..=per_side {
            for s in &self.t.sides {
                self.t.players.push(if per_side == 1 {
                    s.clone()
                } else {
                    format!("{s}{i}")
                });
            }
        }
    }

    pub(super) fn pieces(&mut self) {
        let f = self.t.file;
        let Some(pieces) = self.d.one_of(
            &f.pieces,
            |p: &Vec<ast::PieceDecl>| p.first().map(|d| d.name.span).unwrap_or_default(),
            "`pieces` block",
            true,
        ) else {
            return;
        };
        for p in pieces.iter() {
            if self.t.pieces.len() >= 32 {
                self.error(
                    ErrorKind::TooLarge {
                        value: 33,
                        what: "at most 32 piece kinds",
                    },
                    p.name.span,
                );
                break;
            }
            let value = match &p.value {
                Some(e) => self.const_int(e).unwrap_or(1),
                None => 1,
            };
            let k = PieceKind(self.t.pieces.len() as u8);
            let mut is_token = false;
            if let Some(e) = &p.tokens
                && let Some(n) = self.const_int(e)
            {
                if !(0..=64).contains(&n) {
                    self.error(
                        ErrorKind::TooLarge {
                            value: n,
                            what: "0 to 64 tokens a player",
                        },
                        e.span,
                    );
                } else {
                    is_token = true;
                    for pl in 0..self.t.players.len() {
                        for _ in 0..n {
                            self.t.tokens.push(TokenInfo {
                                owner: Player(pl as u8),
                                kind: k,
                            });
                        }
                    }
                }
            }
            self.t.token_kinds.push(is_token);
            if self.declare(&p.name.name, Global::Piece(k), p.name.span, "piece kind") {
                self.t.pieces.push(PieceInfo {
                    name: p.name.name.clone(),
                    value,
                    tokens: is_token,
                });
            }
        }
    }

    pub(super) fn defs(&mut self) {
        for (i, d) in self.t.file.defs.iter().enumerate() {
            self.hides_function(&d.name.name, d.name.span, "def");
            self.declare(&d.name.name, Global::Def(i), d.name.span, "def");
        }
        for (i, a) in self.t.file.actions.iter().enumerate() {
            self.declare(&a.name.name, Global::Action(i), a.name.span, "action");
        }
    }

    /// `tally NAME [per player] = N`: numbers kept across turns and rounds.
    pub(super) fn tally_decls(&mut self) {
        for (i, t) in self.t.file.tallies.iter().enumerate() {
            // (a clash is reported; the tally keeps its index so that the others stay aligned)
            self.hides_function(&t.name.name, t.name.span, "tally");
            self.declare(&t.name.name, Global::Tally(i), t.name.span, "tally");
            let init = self.const_int(&t.init).unwrap_or(0);
            let slots = if t.per_site {
                self.t.sites.len()
            } else if t.per_player {
                self.t.players.len()
            } else {
                1
            };
            if self.t.tally_slots + slots.max(self.t.players.len()) > u16::MAX as usize {
                self.error(
                    ErrorKind::TooLarge {
                        value: self.t.tallies.len() as i64 + 1,
                        what: "at most 65535 tallies (a `per player` tally counts once a player, a `per site` tally once a site)",
                    },
                    t.name.span,
                );
                break;
            }
            self.t.tallies.push(TallyInfo {
                name: t.name.name.clone(),
                doc: t.doc.clone(),
                per_player: t.per_player,
                slot: self.t.tally_slots as u16,
                init,
                per_site: t.per_site,
            });
            self.t.tally_slots += slots;
        }
    }

    /// `position pieces mover TALLY`: what a position is for `repeated` and `repetitions`.
    pub(super) fn position_decl(&mut self) {
        let f = self.t.file;
        let Some((board, names, _)) =
            self.d
                .one_of(&f.positions, |p| p.2, "`position` declaration", false)
        else {
            return;
        };
        self.t.position_mover = false;
        self.t.position_board = *board;
        for n in names {
            match self.t.globals.get(&n.name).map(|g| g.0) {
                _ if n.name == "mover" => self.t.position_mover = true,
                Some(Global::Tally(i)) if i < self.t.tallies.len() => {
                    let t = &self.t.tallies[i];
                    let slots = if t.per_site {
                        self.t.sites.len()
                    } else if t.per_player {
                        self.t.players.len()
                    } else {
                        1
                    };
                    self.t.position_slots.push((t.slot, slots as u16));
                }
                _ => {
                    let kind = ErrorKind::Unknown {
                        what: "part of a position",
                        name: n.name.clone(),
                    };
                    self.error_hint(
                        kind,
                        n.span,
                        "after `position pieces` come `mover` (the player to move) and the names of tallies",
                    );
                }
            }
        }
    }

    /// `dice NAME { … }`: every way the dice can land, with its value by the chart.
    pub(super) fn dice_decls(&mut self) {
        for d in &self.t.file.dice {
            let Some((dice, combos)) = self.dice_of(d) else {
                continue;
            };
            let outcomes = self.chart_outcomes(d, &dice, combos);
            let id = self.t.dice.len() as u16;
            if self.declare(&d.name.name, Global::Dice(id), d.name.span, "dice") {
                self.t.dice.push(DiceInfo {
                    name: d.name.name.clone(),
                    dice,
                    outcomes,
                });
            }
        }
    }

    /// The dice of a declaration, with their faces, and how many ways they can land; none
    /// when they are too many (reported).
    fn dice_of(&mut self, d: &ast::DiceDecl) -> Option<(Vec<Die>, usize)> {
        let mut dice: Vec<Die> = vec![];
        for (names, faces) in &d.dice {
            if faces.len() < 2 {
                self.error_hint(
                    ErrorKind::Missing {
                        what: "second face",
                    },
                    names.first().map(|n| n.span).unwrap_or(d.span),
                    "a die has two faces or more: `die d1 d2 faces flat round`",
                );
            }
            for n in names {
                dice.push((
                    n.name.clone(),
                    faces.iter().map(|f| f.name.clone()).collect(),
                ));
            }
        }
        if let Some((_, faces)) = dice.iter().find(|(_, f)| f.len() > 255) {
            self.error(
                ErrorKind::TooLarge {
                    value: faces.len() as i64,
                    what: "at most 255 faces a die",
                },
                d.span,
            );
            return None;
        }
        // counted before anything is made, without overflow
        let combos = dice
            .iter()
            .try_fold(1usize, |n, (_, f)| n.checked_mul(f.len().max(1)))
            .unwrap_or(usize::MAX);
        if dice.is_empty() || combos > 1 << 16 {
            self.error(
                ErrorKind::TooLarge {
                    value: combos.min(i64::MAX as usize) as i64,
                    what: "at most 65536 ways a throw can land",
                },
                d.span,
            );
            return None;
        }
        // the chart is evaluated for every way the dice land: its text bounds its work
        let chart_bytes = d.span.end.saturating_sub(d.span.start).max(1);
        if combos.saturating_mul(chart_bytes) > MAX_CHART_WORK {
            self.error_hint(
                ErrorKind::TooLarge {
                    value: combos as i64,
                    what: "ways to land for a chart this long",
                },
                d.span,
                "use fewer dice, or a shorter chart",
            );
            return None;
        }
        self.outcomes += combos;
        if self.outcomes > MAX_OUTCOMES {
            self.error(
                ErrorKind::TooLarge {
                    value: self.outcomes as i64,
                    what: "at most 262144 ways all the dice of a file can land",
                },
                d.span,
            );
            return None;
        }
        Some((dice, combos))
    }

    /// Each way the dice can land, with its value by the first row of the chart that holds
    /// (the first way no row holds for is reported).
    fn chart_outcomes(
        &mut self,
        d: &ast::DiceDecl,
        dice: &[Die],
        combos: usize,
    ) -> Vec<ThrowOutcome> {
        let mut outcomes = vec![];
        let mut faces = vec![0u8; dice.len()];
        let mut reported = false;
        for _ in 0..combos {
            let mut found = None;
            for row in &d.chart {
                let holds = match &row.when {
                    None => Some(true),
                    Some(w) => match crate::chart::eval(&self.t, dice, &faces, w) {
                        Ok(crate::chart::Val::Bool(b)) => Some(b),
                        Ok(_) => {
                            self.error(
                                ErrorKind::Type {
                                    expected: "a condition".into(),
                                    found: "a value".into(),
                                },
                                w.span,
                            );
                            None
                        }
                        Err(e) => {
                            self.d.diags.push(e);
                            None
                        }
                    },
                };
                match holds {
                    Some(true) => {
                        match crate::chart::eval(&self.t, dice, &faces, &row.value) {
                            Ok(crate::chart::Val::Num(v)) => found = Some((v, row.name.clone())),
                            Ok(_) => self.error(
                                ErrorKind::Type {
                                    expected: "a number".into(),
                                    found: "something else".into(),
                                },
                                row.value.span,
                            ),
                            Err(e) => self.d.diags.push(e),
                        }
                        break;
                    }
                    Some(false) => {}
                    None => {
                        reported = true;
                        break;
                    }
                }
            }
            match found {
                Some((value, name)) => outcomes.push(ThrowOutcome {
                    faces: faces.clone(),
                    value,
                    name,
                    prob: 1.0 / combos as f64,
                }),
                None if !reported => {
                    let shown: Vec<String> = dice
                        .iter()
                        .zip(&faces)
                        .map(|((n, f), &i)| format!("{n} {}", f[i as usize]))
                        .collect();
                    self.error_hint(
                        ErrorKind::Missing {
                            what: "chart row for one way the dice land",
                        },
                        d.span,
                        format!(
                            "no row holds when {}; add `value … otherwise`",
                            shown.join(", ")
                        ),
                    );
                    reported = true;
                }
                None => {}
            }
            // the next combination, like an odometer
            for (i, f) in faces.iter_mut().enumerate() {
                *f += 1;
                if (*f as usize) < dice[i].1.len() {
                    break;
                }
                *f = 0;
            }
            if reported {
                break;
            }
        }
        outcomes
    }
}
