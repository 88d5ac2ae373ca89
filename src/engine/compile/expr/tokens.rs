//! Expressions of one family: individual pieces (tokens): the top and bottom of a stack, a token's owner, site, position and area.

use super::*;

impl Compiler {
    /// Compiles an expression about individual pieces.
    pub(super) fn token_value(&mut self, e: &Expr) -> Num {
        let t = self.t.clone();
        match e {
            Expr::Top(s) | Expr::Bottom(s) => {
                let top = matches!(e, Expr::Top(_));
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if top => b.toks.top[s] as i64,
                    Some(s) => b.toks.bottom[s] as i64,
                    None => -1,
                }))
            }
            // `owner(top(s))`: the owner of the top token of a site, in one step.
            Expr::TokOwner(x) if matches!(&**x, Expr::Top(_)) => {
                let Expr::Top(s) = &**x else { unreachable!() };
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if b.toks.top[s] >= 0 => t.tok_owner[b.toks.top[s] as usize] as i64,
                    _ => -1,
                }))
            }
            Expr::TokOwner(x) => {
                with_arg!(self, x, |x| num(move |b, r| t
                    .token(x(b, r))
                    .map_or(-1, |x| t.tok_owner[x] as i64)))
            }
            Expr::TokKind(x) => {
                with_arg!(self, x, |x| num(move |b, r| t
                    .token(x(b, r))
                    .map_or(-1, |x| b.toks.kind[x] as i64)))
            }
            Expr::TokSite(x) => {
                let n = t.ntokens;
                with_arg!(self, x, |x| num(move |b, r| tok_site(b, x(b, r), n)))
            }
            Expr::TokPos(x) => {
                let n = t.ntokens;
                with_arg!(self, x, |x| num(move |b, r| tok_pos(b, x(b, r), n)))
            }
            Expr::TokArea(x) => {
                let x = self.num(x);
                num(move |b, r| {
                    use crate::engine::tokens::{ON_BOARD, UNPLACED};
                    match t.token(x(b, r)).map(|x| b.toks.area[x]) {
                        Some(a) if a != ON_BOARD && a != UNPLACED => a as i64,
                        _ => -1,
                    }
                })
            }
            _ => unreachable!("not an expression about individual pieces: {e:?}"),
        }
    }
}
