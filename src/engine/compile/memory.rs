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
