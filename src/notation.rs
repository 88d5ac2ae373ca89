//! Move notation: how a decision or a chance outcome is written, and how typed text is read back.
//!
//! A decision is written as its choice's label and value (`sow s7`, `collect s3`, `refill s1`),
//! the value alone when the choice has no label (`ccw`), or `piece@step` for where a piece is
//! dropped in a lap (`mu@3`). A chance outcome is written by name (`North`).

use crate::engine::{Decision, Game, Pending, State};
use crate::ir::*;
use crate::limits::shorten;

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
                let (value, second) = match a.to {
                    Some(_) => (
                        value >> 16,
                        Some(self.site_name(SiteId((value & 0xffff) as u16)).to_string()),
                    ),
                    None => (value, None),
                };
                let v = match &a.domain {
                    Domain::Unit => None,
                    Domain::Sites => Some(self.site_name(SiteId(value as u16)).to_string()),
                    Domain::Tokens => Some(self.token_place(st, value as usize)),
                    Domain::Set(_) => Some(self.site_name(SiteId(value as u16)).to_string()),
                    Domain::Values(vals) => Some(
                        vals.iter()
                            .find(|(x, _)| *x == value as i64)
                            .map(|(_, n)| n.clone())
                            .unwrap_or_else(|| value.to_string()),
                    ),
                };
                let v = match (v, second) {
                    (Some(v), Some(s)) => Some(format!("{v} {s}")),
                    (v, _) => v,
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

    /// Where a token is, in words: its site (with its track position when the track passes
    /// there twice) or its area.
    pub fn token_place(&self, st: &State, t: usize) -> String {
        let toks = st.tokens();
        match (toks.site_of(t), toks.area_of(t)) {
            (Some(s), _) => {
                let owner = self.tokens[t].owner.0 as usize;
                let visits = self
                    .track_of(owner)
                    .map(|x| x.sites.iter().filter(|&&y| y == s.0).count())
                    .unwrap_or(0);
                if visits > 1 {
                    format!("{}@{}", self.site_name(s), toks.position(t))
                } else {
                    self.site_name(s).to_string()
                }
            }
            (None, Some(a)) => self
                .areas
                .get(a as usize)
                .cloned()
                .unwrap_or_else(|| "?".into()),
            _ => "unplaced".into(),
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
            Pending::Throw(d) => self.throw_name(d, outcome),
            _ => outcome.to_string(),
        }
    }

    /// Reads one decision: a 1-based number in the list of legal decisions, its exact notation,
    /// or its last words when they name one decision only (`s7` for `sow s7`, `d4 e5` for
    /// `step d4 e5`). Case and extra blanks do not matter. A likely typo gets a suggestion.
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
        // The last words of a notation, when they name one decision only: `s7` for `sow s7`,
        // `d4 e5` for `step d4 e5` (the label left out).
        let words = t.split(' ').count();
        let matching: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                let n = normalize(n);
                let ws: Vec<&str> = n.split(' ').collect();
                ws.len() > words && ws[ws.len() - words..].join(" ") == t
            })
            .map(|(i, _)| i)
            .collect();
        match matching.len() {
            1 => Ok(moves[matching[0]]),
            0 => {
                // a likely typo of a legal notation (or of its ending): say which
                let hint = crate::diagnostic::suggest(&t, names.iter().map(String::as_str))
                    .or_else(|| {
                        let endings: Vec<String> = names
                            .iter()
                            .map(|n| {
                                let n = normalize(n);
                                let ws: Vec<&str> = n.split(' ').collect();
                                ws[ws.len().saturating_sub(words)..].join(" ")
                            })
                            .collect();
                        crate::diagnostic::suggest(&t, endings.iter().map(String::as_str))
                    })
                    .map(|n| format!("did you mean `{n}`? "))
                    .unwrap_or_default();
                Err(format!(
                    "`{}` is not a legal move here; {hint}legal: {}",
                    shorten(text, 80),
                    names.join(", ")
                ))
            }
            _ => Err(format!(
                "`{}` is ambiguous: {}",
                shorten(text, 80),
                matching
                    .iter()
                    .map(|&i| names[i].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// The faces of a throw, in the order of the dice: `marked blank blank marked`.
    pub fn throw_name(&self, dice: u16, outcome: i64) -> String {
        let d = &self.dice[dice as usize];
        match usize::try_from(outcome)
            .ok()
            .and_then(|i| d.outcomes.get(i))
        {
            Some(o) => o
                .faces
                .iter()
                .zip(&d.dice)
                .map(|(&f, (_, faces))| faces[f as usize].as_str())
                .collect::<Vec<_>>()
                .join(" "),
            None => outcome.to_string(),
        }
    }

    /// A throw in words: `marked blank blank blank = 1`, with the chart's name if it has one.
    pub fn throw_text(&self, dice: u16, outcome: u16) -> String {
        let d = &self.dice[dice as usize];
        let o = &d.outcomes[outcome as usize];
        let name = o
            .name
            .as_ref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        format!(
            "{} = {}{name}",
            self.throw_name(dice, outcome as i64),
            o.value
        )
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
            "`{}` is not a possible outcome; possible: {}",
            shorten(text, 80),
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
