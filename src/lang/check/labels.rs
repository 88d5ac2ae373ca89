//! The glossary of decision labels: the `labels { … }` blocks, checked against the labels the
//! file's choices use, become [`LabelInfo`]s for the commands that explain a game to players.

use crate::ast::{self, Ident, Stmt, StmtKind};
use crate::diagnostic::ErrorKind;
use crate::ir::LabelInfo;
use crate::lang::table::{Report, Table};
use std::collections::HashMap;

/// Every label written in a choice of the file (`sow` of `choose sow h where …`), in the order
/// of the source: the programs, `between rounds` and the actions.
fn used_labels(file: &ast::GameFile) -> Vec<&Ident> {
    let mut out = vec![];
    let mut stack: Vec<&Stmt> = vec![];
    let programs = file
        .starts
        .iter()
        .chain(&file.turns)
        .chain(&file.betweens)
        .map(|(_, body)| body)
        .chain(file.actions.iter().map(|a| &a.body));
    for body in programs {
        stack.extend(body);
    }
    // (an explicit stack: blocks nest as deep as the parser allows)
    while let Some(s) = stack.pop() {
        match &s.kind {
            StmtKind::If {
                then, otherwise, ..
            } => {
                stack.extend(then);
                stack.extend(otherwise.iter().flatten());
            }
            StmtKind::While { body, .. }
            | StmtKind::Sow { body, .. }
            | StmtKind::ForTokens { body, .. }
            | StmtKind::ForSites { body, .. } => stack.extend(body),
            StmtKind::Choose(alts, otherwise) => {
                for a in alts {
                    out.extend(&a.label);
                    stack.extend(a.body.iter().flatten());
                }
                stack.extend(otherwise.iter().flatten());
            }
            _ => {}
        }
    }
    out.sort_by_key(|l| l.span.start);
    out
}

/// A description as it is shown: one line, its blanks and line ends made single spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The labels of the file's choices with their descriptions: the described ones in the
/// order of the `labels` blocks, then the others in the order they are first used. A
/// description of a label no choice uses, an empty one, and two different descriptions of
/// one label are errors.
pub(crate) fn labels(t: &Table, d: &mut Report) -> Vec<LabelInfo> {
    let file = t.file;
    let mut used: Vec<&str> = vec![];
    for l in used_labels(file) {
        if !used.contains(&l.name.as_str()) {
            used.push(&l.name);
        }
    }
    let mut out: Vec<LabelInfo> = vec![];
    // the first description of each label: where it is, and its text
    let mut first: HashMap<&str, &ast::LabelDoc> = HashMap::new();
    for doc in &file.labels {
        let name = doc.label.name.as_str();
        let text = one_line(&doc.text);
        if text.is_empty() {
            d.error_hint(
                ErrorKind::EmptyDescription {
                    name: name.to_string(),
                },
                doc.text_span,
                format!("say in a few words what the decision does: {name} \"…\""),
            );
        }
        if !used.contains(&name) {
            let hint = match d.suggest_among(name, used.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None if used.is_empty() => "no choice of this file has a label".to_string(),
                None => format!("the labels of this file's choices: {}", used.join(", ")),
            };
            d.error_hint(
                ErrorKind::Unknown {
                    what: "label",
                    name: name.to_string(),
                },
                doc.label.span,
                hint,
            );
            continue;
        }
        match first.get(name) {
            Some(prev) if one_line(&prev.text) != text => {
                let at = t.places.place(prev.label.span.start);
                d.error_hint(
                    ErrorKind::Duplicate {
                        what: "the description of label",
                        name: name.to_string(),
                    },
                    doc.label.span,
                    format!("the first description, at {at}, says otherwise; keep one"),
                );
            }
            Some(_) => {}
            None => {
                first.insert(name, doc);
                if !text.is_empty() {
                    out.push(LabelInfo {
                        name: name.to_string(),
                        doc: Some(text),
                    });
                }
            }
        }
    }
    for name in used {
        if !out.iter().any(|l| l.name == name) {
            out.push(LabelInfo {
                name: name.to_string(),
                doc: None,
            });
        }
    }
    out
}
