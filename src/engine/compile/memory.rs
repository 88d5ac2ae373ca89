//! Compiled forms of tallies `per site` and of the lines of the board.

use super::num::{Compiler, Num, num};
use super::query::line_full;
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
    pub(crate) fn in_line_as_written(&mut self, v: VarId, s: &Expr, c: &Expr) -> Num {
        let s = self.num(s);
        let c = self.num(c);
        let t = self.t.clone();
        num(move |b, r| {
            let Some(s) = t.site(s(b, r)) else {
                return 0;
            };
            t.lines_through(s)
                .iter()
                .any(|&l| line_full(&t, l, v, &c, b, r)) as i64
        })
    }
}

impl Compiler {
    /// `line v through s: c` where c cannot fault and the board's bits answer it alone: the
    /// sites where c holds as one set, and a line holds when all its sites are in it.
    pub(crate) fn in_line_by_bits(&mut self, v: VarId, s: &Expr, c: &Expr) -> Option<Num> {
        if !crate::ir::share::cannot_fault(c) {
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
