//! Typed empty values: `none` is no site, player, token or area, and says not which. A variable
//! made from it (`let x = none`) takes its type from its first use that needs one (`set x = h`,
//! `count(x)`, `x == top(s)`), or from an annotation (`let x: site = none`). One whose type
//! nothing says is an error at its `let`.

use super::{Local, Lowerer};
use crate::ast::{Ident, Span};
use crate::diagnostic::ErrorKind;
use crate::ir::{Expr, VarId};
use crate::lang::table::Ty;

/// A variable made from `none`.
#[derive(Clone, Debug)]
pub(crate) struct NullVar {
    name: String,
    /// the `let` that made it
    span: Span,
    /// the type its uses gave it (`Ty::Null` while none did)
    ty: Ty,
    /// made as a copy of another (`let y = x`): its type is that one's
    same_as: Option<VarId>,
}

/// The types `none` can stand for.
pub(crate) fn nullable(t: Ty) -> bool {
    matches!(t, Ty::Player | Ty::Site | Ty::Token | Ty::Area)
}

impl Lowerer<'_> {
    /// The variable whose type a variable made from `none` has.
    fn null_root(&self, mut v: VarId) -> VarId {
        for _ in 0..self.s.null_vars.len() {
            match self.s.null_vars.get(&v).and_then(|n| n.same_as) {
                Some(w) => v = w,
                None => break,
            }
        }
        v
    }

    /// The type of a value lowered with type `t`: a variable made from `none` has the type its
    /// uses gave it so far.
    pub(crate) fn known_type(&self, x: &Expr, t: Ty) -> Ty {
        match (x, t) {
            (Expr::Var(v), Ty::Null) => self
                .s
                .null_vars
                .get(&self.null_root(*v))
                .map_or(Ty::Null, |n| n.ty),
            _ => t,
        }
    }

    /// A use says that the value `x` (of type `Ty::Null`) is of type `t`: a variable made from
    /// `none` takes it.
    pub(crate) fn determine(&mut self, x: &Expr, t: Ty) {
        if let Expr::Var(v) = x
            && nullable(t)
        {
            let root = self.null_root(*v);
            if let Some(n) = self.s.null_vars.get_mut(&root)
                && n.ty == Ty::Null
            {
                n.ty = t;
            }
        }
    }

    /// Two values that must have the same type (the sides of `==`, the branches of `if`): a
    /// `none` among them takes the other's type.
    pub(crate) fn meet_none(&mut self, x: &Expr, tx: Ty, y: &Expr, ty: Ty) -> (Ty, Ty) {
        if tx == Ty::Null && nullable(ty) {
            self.determine(x, ty);
            return (ty, ty);
        }
        if ty == Ty::Null && nullable(tx) {
            self.determine(y, tx);
            return (tx, tx);
        }
        (tx, ty)
    }

    /// After an error about a variable made from `none`: nothing more is said of it.
    pub(crate) fn give_up(&mut self, x: &Expr) {
        if let Expr::Var(v) = x {
            let root = self.null_root(*v);
            if let Some(n) = self.s.null_vars.get_mut(&root) {
                n.ty = Ty::Error;
            }
        }
    }

    /// Whether `x` is a variable made from `none` whose type is not known yet.
    pub(crate) fn is_undetermined(&self, x: &Expr) -> bool {
        matches!(x, Expr::Var(v) if self.s.null_vars.get(&self.null_root(*v)).is_some_and(|n| n.ty == Ty::Null))
    }

    /// `let name = x` where x has no known type yet.
    pub(crate) fn null_var(&mut self, v: VarId, name: &Ident, span: Span, x: &Expr) {
        let same_as = match x {
            Expr::Var(w) if self.s.null_vars.contains_key(w) => Some(*w),
            _ => None,
        };
        self.s.null_vars.insert(
            v,
            NullVar {
                name: name.name.clone(),
                span,
                ty: Ty::Null,
                same_as,
            },
        );
    }

    /// At the end of a scope: each variable made from `none` in it whose type nothing said.
    pub(crate) fn undetermined_in(&mut self, scope: &[(String, Local)]) {
        for (_, l) in scope {
            let Local::Var(v, Ty::Null) = l else { continue };
            let Some(n) = self.s.null_vars.get(v) else {
                continue;
            };
            if n.same_as.is_some() || n.ty != Ty::Null {
                continue;
            }
            let (name, span) = (n.name.clone(), n.span);
            let hint = format!(
                "say what it stands for: `let {name}: site = none` (or `player`, `token`, `area`)"
            );
            self.error_hint(ErrorKind::UnknownType { name }, span, hint);
        }
    }

    /// The type a `let` annotation names.
    pub(crate) fn type_word(&self, w: &Ident) -> Ty {
        match w.name.as_str() {
            "number" => Ty::Num,
            "condition" => Ty::Bool,
            "site" => Ty::Site,
            "player" => Ty::Player,
            "direction" => Ty::Dir,
            "token" => Ty::Token,
            _ => Ty::Area,
        }
    }
}
