//! Names that hide others: a `let` or a parameter named like a name already in scope (another
//! `let`, a parameter, a loop's variable, or a global: an option, a `def`, a region, a site…)
//! changes what the name means below it, silently. That is allowed, and reported as a warning
//! with both places, once per place in the file (the walk is over the file as written, not
//! over each expansion of a `def` or an action).

use super::*;
use crate::ast::{Ident, Stmt, StmtKind};

/// A name bound in a block, with where and by what.
struct Bound<'a> {
    name: &'a str,
    span: Span,
    what: &'static str,
}

impl<'a> Checker<'a> {
    /// Reports every `let` and parameter that hides a name in scope, as a warning.
    pub(super) fn shadowing(&mut self) {
        let f = self.t.file;
        for d in &f.defs {
            for p in &d.params {
                self.hides(p, "parameter", &[]);
            }
        }
        for a in &f.actions {
            let mut scope: Vec<Bound> = vec![];
            for p in &a.params {
                self.hides(p, "parameter", &scope);
                scope.push(bound(p, "the parameter"));
            }
            self.walk(&a.body, &mut scope);
        }
        let blocks = f.starts.iter().chain(&f.turns).chain(&f.betweens);
        for (_, body) in blocks {
            self.walk(body, &mut vec![]);
        }
    }

    /// Walks a block: its `let`s stay in scope to its end, the variables of its statements
    /// for their own blocks.
    fn walk(&mut self, body: &'a [Stmt], scope: &mut Vec<Bound<'a>>) {
        let depth = scope.len();
        for s in body {
            match &s.kind {
                StmtKind::Let(name, _) | StmtKind::LetTyped { name, .. } => {
                    self.hides(name, "`let`", scope);
                    scope.push(bound(name, "the `let`"));
                }
                StmtKind::If {
                    then, otherwise, ..
                } => {
                    self.inner(then, scope, &[]);
                    if let Some(o) = otherwise {
                        self.inner(o, scope, &[]);
                    }
                }
                StmtKind::While { body, .. } => self.inner(body, scope, &[]),
                StmtKind::Choose(alts, otherwise) => {
                    for a in alts {
                        let vars: Vec<&Ident> =
                            a.var.iter().chain(a.to.iter().map(|t| &t.0)).collect();
                        if let Some(b) = &a.body {
                            self.inner(b, scope, &vars);
                        }
                    }
                    if let Some(o) = otherwise {
                        self.inner(o, scope, &[]);
                    }
                }
                StmtKind::Sow { last, body, .. } => self.inner(body, scope, &[last]),
                StmtKind::ForTokens { var, body, .. } | StmtKind::ForSites { var, body, .. } => {
                    self.inner(body, scope, &[var])
                }
                StmtKind::Throw { var, .. } => {
                    self.hides(var, "variable", scope);
                    scope.push(bound(var, "the `throw`'s variable"));
                }
                _ => {}
            }
        }
        scope.truncate(depth);
    }

    fn inner(&mut self, body: &'a [Stmt], scope: &mut Vec<Bound<'a>>, vars: &[&'a Ident]) {
        let depth = scope.len();
        scope.extend(vars.iter().map(|v| bound(v, "the variable")));
        self.walk(body, scope);
        scope.truncate(depth);
    }

    /// A warning if `name` hides a name of `scope` or a global one.
    fn hides(&mut self, name: &Ident, what: &'static str, scope: &[Bound]) {
        let local = scope.iter().rev().find(|b| b.name == name.name);
        let earlier = match local {
            Some(b) => Some((b.what, b.span)),
            None => self
                .t
                .globals
                .get(&name.name)
                .map(|(g, span)| (global_words(g), *span)),
        };
        let Some((earlier, at)) = earlier else {
            return;
        };
        let n = &name.name;
        // a variable of an enclosing block keeps its value: `set` is what changes it
        let change = if local.is_some() {
            format!(
                ", which keeps its value (as does a `while` condition that reads it); to change that one, {}",
                if what == "variable" {
                    format!("`throw DICE as v` then `set {n} = v`")
                } else {
                    format!("`set {n} = …`")
                }
            )
        } else {
            String::new()
        };
        let mut d = Diagnostic::new(
            ErrorKind::Shadow {
                what,
                name: name.name.clone(),
                earlier,
            },
            name.span,
        )
        .with_hint(format!(
            "below this, `{n}` means the new value, not {earlier}{change}; if a new one is meant, a different name says so"
        ))
        .warning();
        if at != Span::default() {
            d = d.with_note(at, format!("{earlier} `{n}` is here"));
        }
        self.d.warnings.push(d);
    }
}

fn bound<'a>(id: &'a Ident, what: &'static str) -> Bound<'a> {
    Bound {
        name: &id.name,
        span: id.span,
        what,
    }
}

pub(super) fn global_words(g: &Global) -> &'static str {
    g.words()
}
