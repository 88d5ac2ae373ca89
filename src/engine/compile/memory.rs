//! Compiled forms of tallies `per site` and of the lines of the board.

use super::num::{Compiler, Num, num};
use super::tables::Tables;
use crate::engine::state::{Board, Regs};
use crate::ir::*;

impl Compiler {
    /// `marked(h)`: the `per site` tally at a site (0 for no site).
    pub(crate) fn tally_at(&mut self, slot: u16, s: &Expr) -> Num {
        let s = self.num(s);
        let t = self.t.clone();
        let slot = slot as usize;
        num(move |b, r| {
            let s = s(b, r);
            t.site(s)
                .and_then(|s| b.tallies.get(slot + s))
                .copied()
                .unwrap_or(0)
        })
    }

    /// `line v through s: c`.
    pub(crate) fn in_line(&mut self, v: VarId, s: &Expr, c: &Expr) -> Num {
        match self.in_line_by_bits(v, s, c) {
            Some(x) => x,
            None => self.in_line_as_written(v, s, c),
        }
    }

    /// `line v through s: c`, c tried at each site of each line through s in turn.
    fn in_line_as_written(&mut self, v: VarId, s: &Expr, c: &Expr) -> Num {
        let s = self.num(s);
        let c = self.num(c);
        let t = self.t.clone();
        num(move |b, r| {
            let Some(s) = t.site(s(b, r)) else {
                return 0;
            };
            t.lines_through(s).iter().any(|&l| full(&t, l, v, &c, b, r)) as i64
        })
    }
}

impl Compiler {
    /// `line v through s: c` where c cannot fault and the board's bits answer it alone: the
    /// sites where c holds as one set, and a line holds when all its sites are in it.
    fn in_line_by_bits(&mut self, v: VarId, s: &Expr, c: &Expr) -> Option<Num> {
        let mut safe = true;
        crate::ir::walk::visit(c, &mut |x| safe &= cannot_fault(x));
        if !safe {
            return None;
        }
        let q = self.sites(v, super::query::Base::All, Some(c));
        if !q.is_bits_only() {
            return None;
        }
        let s = self.num(s);
        let t = self.t.clone();
        let w = t.layout.w;
        let at = self.scratch(w);
        let nlines = t.line_at.len().saturating_sub(1);
        let mut lines = vec![0u64; nlines * w];
        for l in 0..nlines {
            for &x in t.line(l as u32) {
                lines[l * w + x as usize / 64] |= 1 << (x % 64);
            }
        }
        Some(num(move |b, r| {
            let Some(s) = t.site(s(b, r)) else {
                return 0;
            };
            let through = t.lines_through(s);
            if through.is_empty() {
                return 0;
            }
            r.work += through.len() as u64;
            q.candidates(b, r, at);
            let holds = &r.scratch[at..at + w];
            through.iter().any(|&l| {
                let l = &lines[l as usize * w..(l as usize + 1) * w];
                l.iter().zip(holds).all(|(l, h)| l & !h == 0)
            }) as i64
        }))
    }
}

/// Whether an expression's own step cannot fault (its parts aside): reading the board,
/// comparisons and logic.
fn cannot_fault(e: &Expr) -> bool {
    match e {
        Expr::Bin(op, ..) | Expr::BinConst(op, ..) => {
            !matches!(op, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod)
        }
        Expr::Const(_)
        | Expr::Var(_)
        | Expr::Mover
        | Expr::Opponent
        | Expr::Top(_)
        | Expr::Bottom(_)
        | Expr::TokOwner(_)
        | Expr::TokKind(_)
        | Expr::Owner(_)
        | Expr::KindOf(_)
        | Expr::CountVar(_)
        | Expr::CountAt(_)
        | Expr::KindIs { .. }
        | Expr::OwnerIs { .. }
        | Expr::SiteTest(_)
        | Expr::CoordX(_)
        | Expr::CoordY(_)
        | Expr::InRegion(..)
        | Expr::Opposite(_)
        | Expr::Not(_)
        | Expr::And(..)
        | Expr::Or(..)
        | Expr::All(_)
        | Expr::Any(_) => true,
        _ => false,
    }
}

/// Whether condition `c` holds at every site of line `l` (each visited counts as work).
#[inline]
fn full(t: &Tables, l: u32, v: VarId, c: &Num, b: &Board, r: &mut Regs) -> bool {
    t.line(l).iter().all(|&x| {
        r.work += 1;
        r.set(v, x as i64);
        c(b, r) != 0
    })
}

/// `(line v through s: c)`: calls `f` on each site of the lines through s where c holds at
/// every site, in the order of the lines, each site once; false when `f` stopped it.
pub(crate) fn line_sites(
    t: &Tables,
    v: VarId,
    s: &Num,
    c: &Num,
    b: &Board,
    r: &mut Regs,
    f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
) -> bool {
    let Some(s) = t.site(s(b, r)) else {
        return true;
    };
    let lines = t.lines_through(s);
    // the lines that hold, among the first 64 (the others are tested again when needed)
    let mut held = 0u64;
    for (i, &l) in lines.iter().enumerate() {
        if !full(t, l, v, c, b, r) {
            continue;
        }
        if i < 64 {
            held |= 1 << i;
        }
        for &x in t.line(l) {
            // a site of an earlier line that holds was given already
            let given = lines[..i].iter().enumerate().any(|(j, &e)| {
                t.line(e).contains(&x)
                    && if j < 64 {
                        held & (1 << j) != 0
                    } else {
                        full(t, e, v, c, b, r)
                    }
            });
            if !given && !f(b, r, x as usize) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Lines of 3 on a board of 4 x 3 points, two players.
    const GAME: &str = r#"
game "Lines by bits" { }
sides A B
limit 12 turns
board {
  points for x in 0..3, y in 0..2 kind cell
  links (1, 0) (0, 1) (1, 1) (1, -1)
  lines 3
}
pieces { disc tokens 12 }
start { first A }
turn { choose put s where top(s) == none { place 1 disc on s for mover } }
"#;

    /// `line x through s: c` read from the board's bits gives the answer of c tried site by
    /// site, on every board of a game, for every site and for a value that is no site.
    #[test]
    fn a_line_by_bits_is_the_line_as_written() {
        let game = crate::load_game(GAME, &crate::Settings::default()).expect("the game loads");
        let t = Arc::new(Tables::new(game.ir()));
        let x = || Box::new(Expr::Var(1));
        let top = || Box::new(Expr::Top(x()));
        let conds = [
            Expr::Bin(
                Op::Eq,
                Box::new(Expr::TokOwner(top())),
                Box::new(Expr::Mover),
            ),
            Expr::BinConst(Op::Ne, top(), -1),
            Expr::All(vec![
                Expr::BinConst(Op::Ne, top(), -1),
                Expr::Not(Box::new(Expr::Bin(
                    Op::Eq,
                    Box::new(Expr::TokOwner(top())),
                    Box::new(Expr::Opponent),
                ))),
            ]),
        ];
        let mut st = game.start();
        let (mut boards, mut held) = (0, [0usize; 2]);
        loop {
            for cond in &conds {
                let mut c = Compiler::new(t.clone());
                let bits = c
                    .in_line_by_bits(1, &Expr::Var(0), cond)
                    .unwrap_or_else(|| panic!("the board's bits answer {cond:?}"));
                let written = c.in_line_as_written(1, &Expr::Var(0), cond);
                let mut r = Regs {
                    vars: vec![0; 2],
                    scratch: vec![0; c.scratch_words()],
                    ..Regs::default()
                };
                for s in (-1..t.nsites as i64).chain([99]) {
                    r.set(0, s);
                    let expected = written(&st.b, &mut r);
                    r.set(0, s);
                    assert_eq!(bits(&st.b, &mut r), expected, "{cond:?} through {s}");
                    held[(expected != 0) as usize] += 1;
                }
            }
            boards += 1;
            let moves = st.moves().to_vec();
            if st.is_over() || moves.is_empty() {
                break;
            }
            game.play_unchecked(&mut st, moves[(boards * 7) % moves.len()]);
        }
        assert!(boards >= 12, "the board was filled: {boards} boards");
        assert!(
            held[0] > 20 && held[1] > 20,
            "both answers were seen: {held:?}"
        );
        // a condition that could fault is tried site by site
        let div = Expr::BinConst(Op::Eq, Box::new(Expr::BinConst(Op::Div, top(), 0)), 1);
        let mut c = Compiler::new(t.clone());
        assert!(c.in_line_by_bits(1, &Expr::Var(0), &div).is_none());
    }
}
