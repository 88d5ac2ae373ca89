//! The indexed tests of a question over sites ([`SiteOp`]) and the word of sites each allows.

use super::*;

/// An indexed test of a site; `x` is the mask that complements its set (`!0`) or not (0).
pub(super) enum SiteOp {
    /// a set of the board's index arena (at this offset)
    Index { at: usize, x: u64 },
    /// the set at `at` plus the mover's number of sets (the sites the mover owns)
    OfMover { at: usize, x: u64 },
    /// the set at `at` plus the opponent's number of sets (the sites the opponent owns)
    OfOpponent { at: usize, x: u64 },
    /// no site (its complement: every site)
    Nothing { x: u64 },
    /// the site's pieces compared with a number (tried on each candidate, before the rest)
    Count { op: Op, rhs: CountRhs },
    /// the sites whose top token belongs to a player computed before the question
    TopOwner { who: Num, x: u64 },
    /// the set at `at` read at another site, fixed for each site (`map`, `u16::MAX` for no
    /// site: read as a clear bit), e.g. `empty(next(s, down))`
    Moved { at: usize, map: Box<[u16]>, x: u64 },
    /// the sites of a fixed set, or those of a test that reads only the board's bits
    /// (`Index`, `OfMover`, `OfOpponent`, `Moved`, `Nothing`): `FIXED or TEST`
    Either { pass: Vec<u64>, op: Box<SiteOp> },
    /// a fixed value of the site compared with a number computed before the question:
    /// `lower[i]` holds the sites whose value is at most `keys[i]` (keys increasing); the set
    /// is built in the scratch words at `scratch` before the question
    Key {
        keys: Vec<i64>,
        lower: Vec<Vec<u64>>,
        op: Op,
        rhs: Num,
        scratch: usize,
    },
}

impl SiteOp {
    /// Whether the test only reads the board's bits (no value computed, no fault).
    pub(super) fn is_bits(&self) -> bool {
        matches!(
            self,
            SiteOp::Index { .. }
                | SiteOp::OfMover { .. }
                | SiteOp::OfOpponent { .. }
                | SiteOp::Nothing { .. }
                | SiteOp::Moved { .. }
        )
    }
}

impl SiteQuery {
    /// Word `i` of the sites an indexed test allows, among those of `within` at least.
    #[inline(always)]
    pub(super) fn op_word(
        &self,
        op: &SiteOp,
        b: &Board,
        r: &mut Regs,
        i: usize,
        within: u64,
    ) -> u64 {
        let t = &*self.t;
        let w = t.layout.w;
        match op {
            SiteOp::Index { at, x } => b.index.bits[at + i] ^ x,
            SiteOp::OfMover { at, x } => b.index.bits[at + b.mover as usize * w + i] ^ x,
            SiteOp::OfOpponent { at, x } => {
                let p = player_ref(PlayerRef::Opponent, b, t) as usize;
                b.index.bits[at + p * w + i] ^ x
            }
            SiteOp::Nothing { x } => *x,
            SiteOp::Moved { at, map, x } => moved_word(t, b, *at, map, i, within) ^ x,
            SiteOp::Either { pass, op } => pass[i] | either_word(t, op, b, i, within & !pass[i]),
            SiteOp::TopOwner { who, x } => {
                let p = who(b, r);
                if (p as u64) < t.players as u64 {
                    b.index.bits[t.layout.top_owner(p as usize) + i] ^ x
                } else if p == -1 {
                    // owner(top(s)) == none: the sites without tokens
                    b.index.bits[t.layout.tokens_here() + i] ^ !x
                } else {
                    *x
                }
            }
            SiteOp::Key { scratch, .. } => r.scratch[scratch + i],
            SiteOp::Count { .. } => !0, // tried on each candidate
        }
    }
}

/// Word `i` of the sites whose fixed other site (`map`) is in the set at `at`, among those of
/// `within` (a site without one: not in it).
#[inline(never)]
fn moved_word(t: &Tables, b: &Board, at: usize, map: &[u16], i: usize, within: u64) -> u64 {
    let bits = &b.index.bits[at..at + t.layout.w];
    let mut out = 0u64;
    let mut left = within;
    while left != 0 {
        let j = left.trailing_zeros() as usize;
        left &= left - 1;
        let q = map.get(i * 64 + j).map_or(usize::MAX, |&q| q as usize);
        if q < t.nsites {
            out |= (bits[q / 64] >> (q % 64) & 1) << j;
        }
    }
    out
}

/// Word `i` of a test of the board's bits (see [`SiteOp::is_bits`]) in an `Either`.
#[inline(never)]
fn either_word(t: &Tables, op: &SiteOp, b: &Board, i: usize, within: u64) -> u64 {
    let w = t.layout.w;
    match op {
        SiteOp::Index { at, x } => b.index.bits[at + i] ^ x,
        SiteOp::OfMover { at, x } => b.index.bits[at + b.mover as usize * w + i] ^ x,
        SiteOp::OfOpponent { at, x } => {
            let p = player_ref(PlayerRef::Opponent, b, t) as usize;
            b.index.bits[at + p * w + i] ^ x
        }
        SiteOp::Nothing { x } => *x,
        SiteOp::Moved { at, map, x } => moved_word(t, b, *at, map, i, within) ^ x,
        // (never planned: `is_bits` is checked first)
        _ => !0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of 3 x 3 points with the directions `down` and `up`.
    const GAME: &str = r#"
game "Tests at a fixed other site" { }
sides A B
limit 9 turns
board {
  points for x in 0..2, y in 0..2 kind cell
  links (1, 0) (0, 1)
  directions down (0, -1) up (0, 1)
}
pieces { disc tokens 9 }
start { first A }
turn { choose put s where top(s) == none { place 1 disc on s for mover } }
"#;

    fn s() -> Box<Expr> {
        Box::new(Expr::Var(0))
    }

    fn next(dir: i64) -> Box<Expr> {
        Box::new(Expr::Next {
            site: s(),
            dir: Box::new(Expr::Const(crate::ir::grid::Compass::FIRST + dir)),
            steps: Box::new(Expr::Const(1)),
        })
    }

    fn empty_below() -> Expr {
        Expr::BinConst(Op::Eq, Box::new(Expr::Top(next(0))), -1)
    }

    fn fixed(e: Expr) -> Expr {
        Expr::BinConst(Op::Eq, Box::new(e), 0)
    }

    /// Each condition, planned as a question (a test of the board's bits at another site, or
    /// fixed sites or such a test), holds at the sites where the condition as written holds,
    /// on every board of a game; and the question needs no test of the rest.
    #[test]
    fn a_test_at_a_fixed_other_site_is_the_condition_as_written() {
        let game = crate::load_game(GAME, &crate::Settings::default()).expect("the game loads");
        let t = Arc::new(Tables::new(game.ir()));
        let count_above = |op, c| Expr::BinConst(op, Box::new(Expr::CountAt(next(1))), c);
        let planned = [
            empty_below(),
            Expr::Not(Box::new(empty_below())),
            count_above(Op::Eq, 0),
            count_above(Op::Gt, 0),
            Expr::Any(vec![
                fixed(Expr::CoordY(s())),
                Expr::Not(Box::new(empty_below())),
            ]),
            Expr::Or(Box::new(empty_below()), Box::new(fixed(Expr::CoordX(s())))),
            Expr::All(vec![
                Expr::BinConst(Op::Eq, Box::new(Expr::Top(s())), -1),
                Expr::Any(vec![
                    fixed(Expr::CoordY(s())),
                    Expr::Not(Box::new(empty_below())),
                ]),
            ]),
        ];
        // two tests of the board in one `or`: tried on each site as written
        let as_written = [Expr::Any(vec![empty_below(), count_above(Op::Eq, 0)])];
        let mut st = game.start();
        let mut boards = 0;
        let mut held = [0usize; 2];
        loop {
            for (k, cond) in planned.iter().chain(&as_written).enumerate() {
                let mut c = Compiler::new(t.clone());
                let q = c.sites(0, Base::All, Some(cond));
                assert_eq!(q.rest.is_none(), k < planned.len(), "the plan of {cond:?}");
                let written = c.num_as_written(cond);
                let mut r = Regs {
                    vars: vec![0; 2],
                    scratch: vec![0; c.scratch_words()],
                    ..Regs::default()
                };
                for site in 0..t.nsites {
                    r.set(0, site as i64);
                    let expected = written(&st.b, &mut r) != 0;
                    assert_eq!(
                        q.contains(&st.b, &mut r, site),
                        expected,
                        "{cond:?} at {site}"
                    );
                    held[expected as usize] += 1;
                }
                assert_eq!(st.b.fault.get(), None);
            }
            boards += 1;
            let moves = st.moves().to_vec();
            if st.is_over() || moves.is_empty() {
                break;
            }
            // a fixed order of play: the boards fill from several places
            game.play_unchecked(&mut st, moves[(boards * 5) % moves.len()]);
        }
        assert!(boards >= 9, "the board was filled: {boards} boards");
        assert!(
            held[0] > 50 && held[1] > 50,
            "both answers were seen: {held:?}"
        );
    }
}
