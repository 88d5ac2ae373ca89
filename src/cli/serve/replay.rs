//! `POST /api/replay`: a record (the CLI's, or a table's) replayed as `ludic replay` replays it,
//! and one of its positions given: the picture, the step's narration, what comes next. Stateless:
//! the client sends the record with each step it wants (a record is at most the body's 2 MiB,
//! and a replay of thousands of steps takes milliseconds).

use super::request::bad;
use super::table::load;
use super::{ApiError, err};
use crate::cli::replay::{step_title, what_next};
use axum::http::StatusCode;
use ludic::limits::shorten;
use ludic::record::{FORMAT, Record, ReplayError, play_step};
use ludic::render::narrate::{end_text, narrate};
use ludic::render::svg::{event_sites, svg};
use serde_json::{Value, json};

/// The answer for `{record, text?, step?}`.
pub(crate) fn replay(v: &Value) -> Result<Value, ApiError> {
    let rec: Record = match v.get("record") {
        Some(Value::String(s)) => serde_json::from_str(s),
        Some(r) => serde_json::from_value(r.clone()),
        None => return Err(bad("no `record`", "send {\"record\": RECORD, \"step\": N}")),
    }
    .map_err(|e| {
        bad(
            format!(
                "the record is not a ludic record: {}",
                shorten(&e.to_string(), 200)
            ),
            "a record is what `ludic play --record` writes or GET /api/tables/ID/record gives",
        )
    })?;
    if rec.format != FORMAT {
        return Err(bad(
            format!(
                "a record of format {}; this ludic reads format {FORMAT}",
                rec.format
            ),
            "make the record again with this version of ludic",
        ));
    }
    let text = match v.get("text") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => Some(t.as_str()),
        Some(_) => {
            return Err(bad(
                "`text` is not a string",
                "send the .game text as a string",
            ));
        }
    };
    let step = match v.get("step") {
        None | Some(Value::Null) => 0,
        Some(n) => n
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| bad("`step` is not a whole number", "0 is the start"))?,
    };
    // a record of a built-in game names it; a record of a posted text (`<text>`, or a file's
    // path) needs its text: nothing is read from the file system
    let builtin = !matches!(
        ludic::builtin::lookup(&rec.game),
        ludic::builtin::Lookup::NotFound
    );
    let (game, text) = match (builtin, text) {
        (_, Some(t)) => (None, Some(t)),
        (true, None) => (Some(rec.game.as_str()), None),
        (false, None) => {
            return Err(bad(
                format!(
                    "the record is of `{}`, which is not a built-in game",
                    shorten(&rec.game, 80)
                ),
                "send the game's text with it as `text`",
            ));
        }
    };
    let options: Vec<String> = rec
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let (g, label) = load(game, text, &options, None)?;
    let hash_differs = g.source_hash() != rec.source_hash;
    let does_not_replay = |e: ReplayError| {
        err(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the record does not replay: {e}"),
            if hash_differs {
                "the record was made with another version of the game's description"
            } else {
                "the record was changed after it was made"
            },
        )
    };
    // one pass, each step checked and played once: every step's title (for the list), and
    // the position after `step` with that step's narration and sites
    let len = rec.steps.len();
    let mut st = g.start();
    let mut at = (step == 0).then(|| st.clone());
    let (mut narration, mut sites) = (vec![], vec![]);
    let mut titles = Vec::with_capacity(len);
    for (i, s) in rec.steps.iter().enumerate() {
        let title = step_title(&g, &st, s);
        if i + 1 == step {
            let before = st.clone();
            let events = play_step(&g, &mut st, i + 1, s).map_err(does_not_replay)?;
            narration.push(title.clone());
            narration.extend(narrate(&g, &before, &events));
            sites = event_sites(&events);
            at = Some(st.clone());
        } else {
            play_step(&g, &mut st, i + 1, s).map_err(does_not_replay)?;
        }
        titles.push(title);
    }
    let Some(at) = at else {
        return Err(bad(
            format!("step {step} of a record of {len} steps"),
            format!("steps are 0 (the start) to {len}"),
        ));
    };
    Ok(json!({
        "game": label,
        "title": g.title(),
        "steps": len,
        "step": step,
        "titles": titles,
        "narration": narration,
        "next": what_next(&g, &at),
        "end_text": end_text(&g, &at),
        "result": rec.result,
        "seed": rec.seed,
        "agents": rec.agents,
        "other_version": hash_differs,
        "svg": svg(&g, &at, &sites),
        "last_sites": sites.iter().map(|&s| g.site_name(s)).collect::<Vec<_>>(),
        "observation": g.observation_json(&at),
    }))
}
