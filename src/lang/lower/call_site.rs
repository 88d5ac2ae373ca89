//! Type errors at the call: a `def` or an action whose parameter is used as a value of another
//! type than its argument's is reported at the argument, where the call is written, with a note
//! pointing to the use in the body (and to each `def` that passed the argument on).
//!
//! While a body is expanded, each of its parameters remembers where its argument was written
//! (its origin); a type error whose span is a use of a parameter is moved there.

use super::Lowerer;
use crate::ast::{self, ExprKind, Span};
use crate::diagnostic::{Diagnostic, ErrorKind, Note};

/// Where a parameter's argument was written: at the outermost call, with the `def`s that
/// passed it on since.
#[derive(Clone, Debug)]
pub(crate) struct Origin {
    span: Span,
    notes: Vec<Note>,
}

/// A `def` or an action being expanded: its name and where each parameter's argument comes from.
#[derive(Clone, Debug)]
pub(crate) struct ParamFrame {
    name: String,
    params: Vec<(String, Origin)>,
}

impl Lowerer<'_> {
    /// Where the argument `a` comes from: a parameter of the body being expanded comes from
    /// where its own argument was written; anything else from where it is.
    pub(crate) fn origin_of(&self, a: &ast::Expr) -> Origin {
        if let ExprKind::Name(id) = &a.kind
            && let Some((frame, o)) = self.param_origin(&id.name)
        {
            let mut o = o.clone();
            o.notes.push(Note {
                span: a.span,
                text: format!("in `{frame}`, `{}` is passed on here", id.name),
            });
            return o;
        }
        Origin {
            span: a.span,
            notes: vec![],
        }
    }

    /// Enters the body of `name`, whose parameters have these origins (after its scope is set).
    pub(crate) fn enter_params(&mut self, name: &str, params: &[ast::Ident], origins: Vec<Origin>) {
        self.s.param_frames.push(ParamFrame {
            name: name.to_string(),
            params: params.iter().map(|p| p.name.clone()).zip(origins).collect(),
        });
    }

    pub(crate) fn leave_params(&mut self) {
        self.s.param_frames.pop();
    }

    /// The body being expanded and the origin of `name`, when `name` is one of its parameters
    /// here (not hidden by a variable of the body).
    fn param_origin(&self, name: &str) -> Option<(&str, &Origin)> {
        let frame = self.s.param_frames.last()?;
        let (i, _) = self
            .s
            .scopes
            .iter()
            .enumerate()
            .rev()
            .find(|(_, s)| s.iter().any(|(n, _)| n == name))?;
        if i != 0 {
            return None;
        }
        frame
            .params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, o)| (frame.name.as_str(), o))
    }

    /// Whether an expression is a use of a parameter of the body being expanded.
    pub(crate) fn is_param_use(&self, e: &ast::Expr) -> bool {
        matches!(&e.kind, ExprKind::Name(id) if self.param_origin(&id.name).is_some())
    }

    /// A type error about a use of a parameter, moved to the argument of the call, with notes
    /// that point into the body.
    pub(crate) fn at_call_site(&self, d: Diagnostic) -> Diagnostic {
        let ErrorKind::Type { expected, .. } = &d.kind else {
            return d;
        };
        if self.s.param_frames.is_empty() {
            return d;
        }
        let Some(name) = self.t.source.get(d.span.start..d.span.end) else {
            return d;
        };
        let Some((frame, o)) = self.param_origin(name) else {
            return d;
        };
        let mut notes: Vec<Note> = o.notes.clone();
        notes.push(Note {
            span: d.span,
            text: format!("in `{frame}`, `{name}` is used as {expected} here"),
        });
        notes.extend(d.notes.iter().cloned());
        Diagnostic {
            kind: d.kind,
            severity: d.severity,
            span: o.span,
            hint: d.hint,
            notes: notes.into(),
        }
    }
}
