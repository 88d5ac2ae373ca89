//! The endpoints of texts, for the Author and Replay sections: a built-in game's `.game` text,
//! the language's words, a posted text checked (as `validate`) and summarised (as `rules`),
//! and a record's position (as `replay`). A posted text gets the CLI's limits, and its bases
//! are built-in games only.

use super::request::NewTable;
use super::{ApiError, ApiResult, blocking, body_bytes, body_json, err, ok_json};
use axum::body::Bytes;
use axum::extract::Path;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use ludic::limits::MAX_SOURCE_BYTES;
use serde_json::{Value, json};

/// A posted `.game` text within the CLI's limit.
pub(super) fn checked_text(text: &str) -> Result<(), ApiError> {
    if text.len() as u64 > MAX_SOURCE_BYTES {
        return Err(err(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the game text has {} bytes, more than the {} a .game file may have",
                text.len(),
                MAX_SOURCE_BYTES
            ),
            "a .game file is at most 1 MiB",
        ));
    }
    Ok(())
}

/// `GET /api/games/{name}/text`: a built-in game's `.game` text (a name is only ever looked up
/// among the built-in games).
pub(super) async fn game_text(Path(name): Path<String>) -> ApiResult {
    match ludic::builtin::lookup(&name) {
        ludic::builtin::Lookup::Found(stem, src) => ok_json(json!({"name": stem, "text": src})),
        ludic::builtin::Lookup::Ambiguous(stems) => Err(err(
            StatusCode::BAD_REQUEST,
            format!(
                "`{}` names several games",
                ludic::limits::shorten(&name, 40)
            ),
            format!("say which: {}", stems.join(", ")),
        )),
        ludic::builtin::Lookup::NotFound => Err(err(
            StatusCode::NOT_FOUND,
            format!("no built-in game `{}`", ludic::limits::shorten(&name, 40)),
            "GET /api/games lists them",
        )),
    }
}

/// `GET /api/language`: the language's words for an editor's highlighting, read from the
/// grammar (`reserved`: never a name) and the builtins' table.
pub(super) async fn language() -> ApiResult {
    let (words, builtins) = ludic::language_words();
    let words: Vec<Value> = words
        .iter()
        .map(|(w, reserved)| json!({"word": w, "reserved": reserved}))
        .collect();
    ok_json(json!({"words": words, "builtins": builtins}))
}

/// `POST /api/rules`: `ludic rules`' summary of a `.game` text (`{"text", "options",
/// "variant"}`), as its terminal output; a text with errors is a 422 (`/api/check` says where).
pub(super) async fn rules(body: Result<Bytes, BytesRejection>) -> ApiResult {
    let v = body_json(body)?;
    let req = NewTable::read(&v)?;
    if let Some(t) = &req.text {
        checked_text(t)?;
    }
    let text = blocking(move || {
        let (g, label) = super::table::load(
            req.game.as_deref(),
            req.text.as_deref(),
            &req.options,
            req.variant.as_deref(),
        )?;
        let in_force = !req.options.is_empty() || req.variant.is_some();
        let mut out = vec![];
        crate::cli::rules::rules_to(&mut out, &label, &g, in_force, crate::cli::Format::Text)
            .map_err(|e| {
                err(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    e.to_string(),
                    "a bug of ludic: please report it",
                )
            })?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    })
    .await?;
    ok_json(json!({ "text": text }))
}

/// `POST /api/replay`: a record's position (see `replay.rs`).
pub(super) async fn replay_step(body: Result<Bytes, BytesRejection>) -> ApiResult {
    let v = body_json(body)?;
    if let Some(t) = v.get("text").and_then(Value::as_str) {
        checked_text(t)?;
    }
    ok_json(blocking(move || super::replay::replay(&v)).await?)
}

/// `POST /api/check`: a `.game` text (the body, or `{"text": ...}` as JSON) checked as
/// `ludic validate --format json` checks a file.
pub(super) async fn check(headers: HeaderMap, body: Result<Bytes, BytesRejection>) -> ApiResult {
    let bytes = body_bytes(body)?;
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let (name, text) = if is_json {
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| {
            err(
                StatusCode::BAD_REQUEST,
                format!("the body is not valid JSON: {e}"),
                "send {\"text\": \"...\"} as JSON, or the text itself as text/plain",
            )
        })?;
        let Some(text) = v.get("text").and_then(Value::as_str) else {
            return Err(err(
                StatusCode::BAD_REQUEST,
                "no `text` in the body",
                "send {\"text\": \"...\"} as JSON, or the text itself as text/plain",
            ));
        };
        let name = v.get("name").and_then(Value::as_str).unwrap_or("<text>");
        (ludic::limits::shorten(name, 64), text.to_string())
    } else {
        let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
            err(
                StatusCode::BAD_REQUEST,
                "the text is not UTF-8",
                "a .game file is UTF-8 text",
            )
        })?;
        ("<text>".to_string(), text)
    };
    checked_text(&text)?;
    let report = blocking(move || {
        // its bases only built-in games (as `validate` reports a file whose base fails)
        Ok(match ludic::gamefile::compose_text(&text, &name) {
            Ok(composed) => crate::cli::validate::check_json(&name, &composed),
            Err(e) => json!({"file": name, "valid": false, "error": e, "diagnostics": []}),
        })
    })
    .await?;
    ok_json(report)
}
