//! The bodies of the requests that create a table and play a move, read with a clear error
//! for each mistake; and the seats' agents, capped by the server.

use super::{ApiError, MAX_THINK, err};
use axum::http::StatusCode;
use ludic::agents::{AgentSpec, Budget};
use ludic::limits::shorten;
use serde_json::Value;

/// The playouts of a search at most (a time budget is capped by [`MAX_THINK`]).
const MAX_PLAYOUTS: u64 = 200_000;
/// The threads of a search at most.
const MAX_THREADS: usize = 2;

/// A request for a new table.
pub(crate) struct NewTable {
    /// a built-in game's name
    pub game: Option<String>,
    /// or a `.game` text
    pub text: Option<String>,
    pub options: Vec<String>,
    pub variant: Option<String>,
    pub seats: Option<Vec<String>>,
    pub seed: Option<u64>,
}

pub(crate) fn bad(error: impl Into<String>, hint: impl Into<String>) -> ApiError {
    err(StatusCode::BAD_REQUEST, error, hint)
}

impl NewTable {
    pub(crate) fn read(v: &Value) -> Result<NewTable, ApiError> {
        let Some(o) = v.as_object() else {
            return Err(bad(
                "the body is not a JSON object",
                "send {\"game\": NAME, \"seats\": [\"human\", \"random\"]}",
            ));
        };
        let string = |k: &str| -> Result<Option<String>, ApiError> {
            match o.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(bad(format!("`{k}` is not a string"), "")),
            }
        };
        let game = string("game")?;
        let text = string("text")?;
        if game.is_some() == text.is_some() {
            return Err(bad(
                "give either `game` (a built-in game's name) or `text` (a .game text)",
                "GET /api/games lists the built-in games",
            ));
        }
        let options = match o.get("options") {
            None | Some(Value::Null) => vec![],
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => format!("{k}={s}"),
                    other => format!("{k}={other}"),
                })
                .collect(),
            Some(_) => {
                return Err(bad(
                    "`options` is not an object",
                    "give options as {\"NAME\": VALUE}",
                ));
            }
        };
        let seats = match o.get("seats") {
            None | Some(Value::Null) => None,
            Some(Value::Array(a)) => Some(
                a.iter()
                    .map(|s| s.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| bad("`seats` holds something else than strings", ""))?,
            ),
            Some(_) => return Err(bad("`seats` is not a list", "e.g. [\"human\", \"random\"]")),
        };
        let seed = match o.get("seed") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| bad("`seed` is not a whole number", "e.g. \"seed\": 7"))?,
            ),
        };
        Ok(NewTable {
            game,
            text,
            options,
            variant: string("variant")?,
            seats,
            seed,
        })
    }
}

/// A person's move: an action id or a notation.
pub(crate) enum Move {
    Action(u64),
    Notation(String),
}

impl Move {
    pub(crate) fn read(v: &Value) -> Result<Move, ApiError> {
        match (v.get("action"), v.get("notation")) {
            (Some(a), None) => a
                .as_u64()
                .map(Move::Action)
                .ok_or_else(|| bad("`action` is not a decision's id", "take an `id` of `legal`")),
            (None, Some(n)) => n
                .as_str()
                .map(|s| Move::Notation(s.to_string()))
                .ok_or_else(|| {
                    bad(
                        "`notation` is not a string",
                        "e.g. \"notation\": \"sow s7\"",
                    )
                }),
            _ => Err(bad(
                "give either `action` (an id) or `notation` (text)",
                "the state's `legal` lists both for each decision",
            )),
        }
    }
}

/// A seat's agent: a person, `random` or `mcts` (its search capped by the server); never a
/// program (`cmd:`), which would run on the server.
pub(crate) fn spec_of(s: &str) -> Result<AgentSpec, ApiError> {
    let spec = AgentSpec::parse(s, 1).map_err(|e| {
        bad(
            format!("seat `{}`: {e}", shorten(s, 40)),
            "a seat is human, random or mcts (mcts:time=2s)",
        )
    })?;
    match spec {
        AgentSpec::Command(_) => Err(bad(
            format!(
                "seat `{}`: programs do not play on the server",
                shorten(s, 40)
            ),
            "a seat is human, random or mcts (mcts:time=2s)",
        )),
        AgentSpec::Mcts(mut cfg) => {
            cfg.budget = match cfg.budget {
                Budget::Time(t) => Budget::Time(t.min(MAX_THINK)),
                Budget::Playouts(n) => Budget::Playouts(n.min(MAX_PLAYOUTS)),
            };
            cfg.threads = cfg.threads.clamp(1, MAX_THREADS);
            Ok(AgentSpec::Mcts(cfg))
        }
        other => Ok(other),
    }
}
