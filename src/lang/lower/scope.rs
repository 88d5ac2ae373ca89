//! Variables and scopes, and the budget of expansion (how much the inlining of definitions
//! may grow a program).

use super::*;

/// What the error of a file with too many variables says is the limit.
pub(crate) const TOO_MANY_VARIABLES: &str =
    "at most 65535 variables, once `def`s and actions are expanded";

impl Lowerer<'_> {
    pub(super) fn new_var(&mut self, name: &str, ty: Ty) -> VarId {
        let id = self.slot_for_var();
        self.bind(name, Local::Var(id, ty));
        id
    }

    /// A new variable slot: there are at most 65535 (once `def`s and actions are expanded).
    pub(super) fn slot_for_var(&mut self) -> VarId {
        if self.s.nvars >= VarId::MAX as usize && !self.s.halted {
            self.error(
                ErrorKind::TooLarge {
                    value: self.s.nvars as i64 + 1,
                    what: TOO_MANY_VARIABLES,
                },
                self.s.use_spans.first().copied().unwrap_or_default(),
            );
            self.s.halted = true;
        }
        let id = self.s.nvars.min(VarId::MAX as usize - 1) as VarId;
        self.s.nvars += 1;
        id
    }

    pub(super) fn bind(&mut self, name: &str, l: Local) {
        if self.s.scopes.is_empty() {
            self.s.scopes.push(vec![]);
        }
        self.s
            .scopes
            .last_mut()
            .expect("a scope")
            .push((name.to_string(), l));
    }

    pub(super) fn lookup_local(&self, name: &str) -> Option<&Local> {
        self.s
            .scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, l)| l)
    }

    /// Enters one level of lowering (an expression, a set, a statement): false past the limits
    /// of nesting and of expansion, which are reported once; then nothing more is lowered.
    pub(super) fn enter(&mut self, span: Span) -> bool {
        if self.s.halted {
            return false;
        }
        // The limit is counted in levels; the stack a level takes depends on the build and the
        // thread (a debug build's frames are several times larger): with too little stack left,
        // lowering stops as it does at the limit, instead of overflowing.
        if self.s.nesting >= MAX_EXPANDED_NESTING
            || stacker::remaining_stack().is_some_and(|left| left < STACK_RESERVE)
        {
            self.expansion_too_deep(span);
            return false;
        }
        if self.s.work >= MAX_EXPANSION {
            self.expansion_too_large(span);
            return false;
        }
        self.s.nesting += 1;
        self.s.work += 1;
        self.s.high_water = self.s.high_water.max(self.s.nesting);
        true
    }

    pub(super) fn leave(&mut self) {
        self.s.nesting -= 1;
    }

    /// Copies a bound argument where its parameter is used: its cost is paid again.
    pub(super) fn expand(&mut self, cost: Cost, span: Span) -> bool {
        if self.s.halted {
            return false;
        }
        if self.s.nesting + cost.height > MAX_EXPANDED_NESTING {
            self.expansion_too_deep(span);
            return false;
        }
        self.s.work += cost.size;
        if self.s.work > MAX_EXPANSION {
            self.expansion_too_large(span);
            return false;
        }
        self.s.high_water = self.s.high_water.max(self.s.nesting + cost.height);
        true
    }

    /// Runs `f`, measuring the depth and size of what it lowers.
    pub(super) fn measured<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (T, Cost) {
        let (work, high_water) = (self.s.work, self.s.high_water);
        self.s.high_water = self.s.nesting;
        let out = f(self);
        let cost = Cost {
            height: (self.s.high_water - self.s.nesting).max(1),
            size: (self.s.work - work).max(1),
        };
        self.s.high_water = self.s.high_water.max(high_water);
        (out, cost)
    }

    /// The `def`s and actions being expanded, outermost first, for a hint.
    /// (Only the outermost ones: where a limit stops the expansion depends on the stack.)
    pub(super) fn expansion_chain(&self) -> String {
        let names: Vec<String> = self.s.def_stack.iter().map(|n| format!("`{n}`")).collect();
        let shown = if names.len() > 4 {
            format!("{} → …", names[..4].join(" → "))
        } else {
            names.join(" → ")
        };
        if shown.is_empty() {
            "no `def` or action is involved".into()
        } else {
            format!("expanding {shown}")
        }
    }

    pub(super) fn expansion_too_deep(&mut self, span: Span) {
        let at = self.s.use_spans.first().copied().unwrap_or(span);
        let hint = format!(
            "{}; each use of a `def` or an action copies its body: use fewer levels, or `let`",
            self.expansion_chain()
        );
        self.error_hint(
            ErrorKind::TooDeep {
                what: "once `def`s and actions are expanded",
                limit: MAX_EXPANDED_NESTING,
            },
            at,
            hint,
        );
        self.s.halted = true;
    }

    pub(super) fn expansion_too_large(&mut self, span: Span) {
        let at = self.s.use_spans.first().copied().unwrap_or(span);
        let hint = format!(
            "{}; each use of a `def` or an action copies its body, and its arguments at each use of its parameters",
            self.expansion_chain()
        );
        self.error_hint(
            ErrorKind::TooLargeExpansion {
                name: self.s.def_stack.first().cloned(),
                limit: MAX_EXPANSION,
            },
            at,
            hint,
        );
        self.s.halted = true;
    }

    /// A `def`'s argument bound to its parameter: the lowered value (or set) and its cost.
    pub(super) fn bound_argument(&mut self, a: &ast::Expr) -> Local {
        if self.peek_is_set(a) {
            let (s, cost) = self.measured(|c| c.set_expr(a));
            Local::BoundSet(s, cost)
        } else {
            let ((x, t), cost) = self.measured(|c| c.expr(a));
            Local::Bound(x, t, cost)
        }
    }
}
