//! The Elo difference of a match's score, in numbers, words and JSON.

use serde_json::{Value, json};

/// The Elo difference that gives a score `s` (±infinity at 1 and 0).
pub fn elo(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The Elo difference in words: `+191`, `-inf`.
pub(super) fn elo_text(e: f64) -> String {
    if e == f64::INFINITY {
        "+inf".into()
    } else if e == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        // (-0.0, an even score, is written +0)
        format!("{:+.0}", if e == 0.0 { 0.0 } else { e })
    }
}

/// The Elo difference in JSON: rounded to a tenth, null when infinite.
pub(super) fn elo_json(e: f64) -> Value {
    if e.is_finite() {
        json!((e * 10.0).round() / 10.0)
    } else {
        Value::Null
    }
}
