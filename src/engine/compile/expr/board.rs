//! Expressions of one family: what the board holds: the pieces at sites and in holdings, and the owners and kinds of sites.

use super::*;

impl Compiler {
    /// Compiles an expression about pieces and sites.
    pub(super) fn board_value(&mut self, e: &Expr) -> Num {
        let t = self.t.clone();
        match e {
            Expr::Count(s, mask)
                if t.ntokens == 0
                    && mask.0.count_ones() == 1
                    && (mask.0.trailing_zeros() as usize) < t.nk =>
            {
                // One kind of counters and no tokens: the site's count of that kind.
                let (k, nk) = (mask.0.trailing_zeros() as usize, t.nk);
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) => b.counts[s * nk + k] as i64,
                    None => 0,
                }))
            }
            Expr::Count(s, mask)
                if mask.0.count_ones() == 1 && (mask.0.trailing_zeros() as usize) < t.nk =>
            {
                // One kind, and tokens: the site's counters of that kind and its tokens of that
                // kind, both kept by every move (no walk of the stack).
                self.counts_kinds(*mask);
                let (k, nk) = (mask.0.trailing_zeros() as usize, t.nk);
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) => b.counts[s * nk + k] as i64 + b.toks.of_kind_at(s, k) as i64,
                    None => 0,
                }))
            }
            Expr::Count(s, mask) => {
                let mask = *mask;
                self.counts_kinds(mask);
                with_arg!(self, s, |s| num(move |b, r| t
                    .site(s(b, r))
                    .map_or(0, |s| b.count_of(s, mask))))
            }
            Expr::CountAt(s) => {
                let s = self.num(s);
                num(move |b, r| {
                    let s = s(b, r);
                    t.site(s).map_or(0, |s| b.index.total[s] as i64)
                })
            }
            Expr::CountVar(v) => {
                let v = *v;
                num(move |b, r| t.site(r.var(v)).map_or(0, |s| b.index.total[s] as i64))
            }
            Expr::CountSet(set, mask) => {
                let set = self.set(set);
                let mask = *mask;
                self.counts_kinds(mask);
                num(move |b, r| {
                    let mut total = 0i64;
                    set.for_each(b, r, &mut |b, _, s| {
                        total += t.site(s as i64).map_or(0, |s| b.count_of(s, mask));
                        true
                    });
                    total
                })
            }
            Expr::Size(set) => {
                let set = self.set(set);
                num(move |b, r| set.size(b, r))
            }
            Expr::Captured(p, mask) => {
                let p = self.num(p);
                let mask = *mask;
                let nk = t.nk;
                num(move |b, r| {
                    let Some(p) = t.player(p(b, r)) else { return 0 };
                    (0..nk)
                        .filter(|k| mask.0 & (1 << k) != 0)
                        .map(|k| b.bank[p * nk + k] as i64)
                        .sum()
                })
            }
            Expr::Score(p) => {
                let p = self.num(p);
                let nk = t.nk;
                num(move |b, r| {
                    let Some(p) = t.player(p(b, r)) else { return 0 };
                    (0..nk)
                        .map(|k| b.bank[p * nk + k] as i64 * t.values[k])
                        .sum()
                })
            }
            Expr::Owner(s) => {
                with_arg!(self, s, |s| num(move |b, r| t
                    .site(s(b, r))
                    .map_or(-1, |s| b.owners[s] as i64)))
            }
            Expr::KindOf(s) => {
                let s = self.num(s);
                num(move |b, r| t.site(s(b, r)).map_or(-1, |s| b.kinds[s] as i64))
            }
            Expr::OriginalOwner(s) => {
                with_arg!(self, s, |s| num(move |b, r| t
                    .site(s(b, r))
                    .map_or(-1, |s| t.original_owner[s])))
            }
            _ => unreachable!("not an expression about pieces and sites: {e:?}"),
        }
    }
}
