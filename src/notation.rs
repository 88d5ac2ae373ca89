//! Move notation: how a decision or a chance outcome is written, and how typed text is read back.
//!
//! A decision is written as its choice's label and value (`sow s7`, `collect s3`, `huelshe s1`),
//! the value alone when the choice has no label (`ccw`), or `piece@step` for where a piece is
//! dropped in a lap (`mu@3`). A chance outcome is written by name (`North`).

use crate::engine::{Decision, Pending, State};
use crate::ir::*;

impl Game {
    /// The notation of a decision at the state's pending point.
    pub fn notation_of(&self, st: &State, d: Decision) -> String {
        match (st.pending(), d) {
            (Pending::Choice(id), Decision::Alt { alt, value }) => {
                let Some(a) = self
                    .choices
                    .get(id as usize)
                    .and_then(|c| c.alts.get(alt as usize))
                else {
                    return format!("?{alt}");
                };
                let v = match &a.domain {
                    Domain::Unit => None,
                    Domain::Sites => Some(self.site_name(SiteId(value as u16)).to_string()),
                    Domain::Values(vals) => Some(
                        vals.iter()
                            .find(|(x, _)| *x == value as i64)
                            .map(|(_, n)| n.clone())
                            .unwrap_or_else(|| value.to_string()),
                    ),
                };
                match (&a.label, v) {
                    (Some(l), Some(v)) => format!("{l} {v}"),
                    (Some(l), None) => l.clone(),
                    (None, Some(v)) => v,
                    (None, None) => "?".into(),
                }
            }
            (Pending::Drop(k), Decision::Drop { slot }) => {
                format!(
                    "{}@{}",
                    self.pieces
                        .get(k.0 as usize)
                        .map(|p| p.name.as_str())
                        .unwrap_or("?"),
                    slot + 1
                )
            }
            _ => "?".into(),
        }
    }

    /// Notation of every legal decision, in order.
    pub fn legal_notations(&self, st: &State) -> Vec<String> {
        st.moves()
            .iter()
            .map(|&d| self.notation_of(st, d))
            .collect()
    }

    /// The name of a chance outcome.
    pub fn outcome_name(&self, st: &State, outcome: i64) -> String {
        match st.pending() {
            Pending::ChanceFirst => self.player_name(Player(outcome as u8)).to_string(),
            _ => outcome.to_string(),
        }
    }

    /// Reads one decision: a 1-based number in the list of legal decisions, its exact notation,
    /// or a unique last word of one (`s7` for `sow s7`). Case and extra blanks do not matter.
    pub fn parse_decision(&self, st: &State, text: &str) -> Result<Decision, String> {
        let t = normalize(text);
        if t.is_empty() {
            return Err("empty move".into());
        }
        let moves = st.moves();
        if moves.is_empty() {
            return Err("there is no decision to make now".into());
        }
        if let Ok(n) = t.parse::<usize>() {
            return match n.checked_sub(1).and_then(|i| moves.get(i)) {
                Some(d) => Ok(*d),
                None => Err(format!(
                    "there is no move number {n}: choose 1 to {}",
                    moves.len()
                )),
            };
        }
        let names = self.legal_notations(st);
        if let Some(i) = names.iter().position(|n| normalize(n) == t) {
            return Ok(moves[i]);
        }
        let matching: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(_, n)| normalize(n).rsplit(' ').next() == Some(t.as_str()))
            .map(|(i, _)| i)
            .collect();
        match matching.len() {
            1 => Ok(moves[matching[0]]),
            0 => Err(format!(
                "`{text}` is not a legal move here; legal: {}",
                names.join(", ")
            )),
            _ => Err(format!(
                "`{text}` is ambiguous: {}",
                matching
                    .iter()
                    .map(|&i| names[i].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// Reads a chance outcome by name or number.
    pub fn parse_outcome(&self, st: &State, text: &str) -> Result<i64, String> {
        let t = normalize(text);
        let outs = self.chance_outcomes(st);
        for (o, _) in &outs {
            if normalize(&self.outcome_name(st, *o)) == t || o.to_string() == t {
                return Ok(*o);
            }
        }
        Err(format!(
            "`{text}` is not a possible outcome; possible: {}",
            outs.iter()
                .map(|(o, _)| self.outcome_name(st, *o))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

fn normalize(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
