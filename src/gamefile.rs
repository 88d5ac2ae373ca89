//! Reading a game's text: a `.game` file (with the size limit and the games it is built on)
//! or a built-in game found by name. A library service: the command line and every front end
//! that loads a game by name or path read it here.

use crate::builtin;
use crate::diagnostic::render;
use crate::limits::MAX_SOURCE_BYTES;
use std::io::Read;

/// Reads a text file of at most `limit` bytes (`what` names it in errors): a larger file (or
/// `/dev/zero`) is refused after `limit` bytes, not read until memory runs out; a file that is
/// not UTF-8 says where; a byte-order mark at the start is dropped.
pub fn read_text_file(path: &str, limit: u64, what: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    let mut bytes = vec![];
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read `{path}`: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "`{path}` is larger than {} bytes, the most {what} may have",
            limit
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{path}` is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Reads a game file and the games it is built on (`game "…" from "base.game"`), composed in
/// one text (see [`crate::derive`]); an error about a base is rendered as diagnostics.
pub fn read_game_file(path: &str) -> Result<String, String> {
    let text = read_text_file(path, MAX_SOURCE_BYTES, "a .game file")?;
    let key = std::fs::canonicalize(path)
        .map(|p| p.to_string_lossy().to_string())
        .unwrap_or_else(|_| path.to_string());
    crate::derive::compose(path, &key, text, &mut read_base).map_err(|e| {
        let shown = render(&e.path, &e.source, &e.diagnostics);
        let shown = shown.trim_end();
        shown.strip_prefix("error: ").unwrap_or(shown).to_string()
    })
}

/// [`read_game_file`] for a file whose text is given (an editor's, not yet saved): the text
/// composed with the games it is built on, its bases read beside `path` (or built in). A text
/// built on nothing is returned as it is.
///
/// ```
/// let (stem, _) = ludic::builtin::GAMES[0];
/// let text = format!("game \"Mine\" from \"{stem}\" {{ }}\n");
/// let composed = ludic::gamefile::compose_file("/nowhere/mine.game", &text).unwrap();
/// assert!(composed.ends_with(&text) && composed.len() > text.len());
/// assert!(ludic::load_game(&composed, &Default::default()).is_ok());
/// ```
pub fn compose_file(path: &str, text: &str) -> Result<String, String> {
    crate::derive::compose(path, path, text.to_string(), &mut read_base).map_err(|e| {
        let shown = render(&e.path, &e.source, &e.diagnostics);
        let shown = shown.trim_end();
        shown.strip_prefix("error: ").unwrap_or(shown).to_string()
    })
}

/// Composes a `.game` text that came from elsewhere than a file (a web client's) with the
/// games it is built on, as [`read_game_file`] does, but with built-in games as its only
/// bases: no base is ever read from the file system. An error is rendered as diagnostics
/// (named `label`).
///
/// ```
/// let (stem, _) = ludic::builtin::GAMES[0];
/// let text = format!("game \"Mine\" from \"{stem}\" {{ }}\n");
/// let composed = ludic::gamefile::compose_text(&text, "<text>").unwrap();
/// assert!(ludic::load_game(&composed, &Default::default()).is_ok());
/// let err = ludic::gamefile::compose_text("game \"x\" from \"/etc/passwd\" { }\n", "<text>");
/// assert!(err.unwrap_err().contains("built-in"));
/// ```
pub fn compose_text(text: &str, label: &str) -> Result<String, String> {
    let mut builtin_only = |name: &str, _from: &str| match builtin::find(name) {
        Some((stem, src)) => Ok((format!("builtin:{stem}"), stem.to_string(), src.to_string())),
        None => Err(format!(
            "the base `{name}` is not a built-in game (a text sent here may be built on built-in games only)"
        )),
    };
    crate::derive::compose(label, label, text.to_string(), &mut builtin_only).map_err(|e| {
        let shown = render(&e.path, &e.source, &e.diagnostics);
        let shown = shown.trim_end();
        shown.strip_prefix("error: ").unwrap_or(shown).to_string()
    })
}

/// Reads the base `name` of the file `from`: a built-in game, or a path relative to that
/// file's folder; only a regular file, of at most [`MAX_SOURCE_BYTES`].
pub fn read_base(name: &str, from: &str) -> Result<(String, String, String), String> {
    let dir = std::path::Path::new(from)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    let path = dir.join(name);
    if !path.is_file() {
        if let Some((stem, src)) = builtin::find(name) {
            return Ok((format!("builtin:{stem}"), stem.to_string(), src.to_string()));
        }
        return Err(format!(
            "the base `{name}` is neither a file (`{}`) nor a built-in game",
            path.display()
        ));
    }
    let label = path.to_string_lossy().to_string();
    let key = std::fs::canonicalize(&path)
        .map(|p| p.to_string_lossy().to_string())
        .unwrap_or_else(|_| label.clone());
    let text = read_text_file(&label, MAX_SOURCE_BYTES, "a .game file")?;
    Ok((key, label, text))
}

/// Finds a game by built-in name or path: (label for records, source text). A built-in game is
/// found by its file stem, its title or any of its aliases (see [`builtin::lookup`]); a name
/// that several built-in games have is an error listing them. A name written as a path (with a
/// folder separator, or ending in `.game`) that names an existing file is that file: the
/// titles and aliases of the built-in games (a parse of each, some 30 ms) are not read for it.
pub fn resolve_game(name: &str) -> Result<(String, String), String> {
    let path = std::path::Path::new(name);
    let written_as_path = name.contains(std::path::MAIN_SEPARATOR) || name.contains('/');
    if (written_as_path || name.ends_with(".game")) && path.is_file() {
        return read_game_file(name).map(|s| (name.to_string(), s));
    }
    match builtin::lookup(name) {
        builtin::Lookup::Found(stem, src) => return Ok((stem.to_string(), src.to_string())),
        builtin::Lookup::Ambiguous(stems) => {
            return Err(format!(
                "`{name}` names several built-in games: {}\nhint: give one of these names",
                stems.join(", ")
            ));
        }
        builtin::Lookup::NotFound => {}
    }
    let exists = std::path::Path::new(name).exists();
    match read_game_file(name) {
        Ok(s) => Ok((name.to_string(), s)),
        Err(e) if exists => Err(e),
        Err(e) => Err(format!("{e}{}", not_found_hint(name))),
    }
}

/// The hint for a name that is neither a built-in game nor a file: the likely built-in game,
/// or the list of them.
pub fn not_found_hint(name: &str) -> String {
    let every: Vec<&str> = builtin::names()
        .iter()
        .flat_map(|(_, names)| names.iter().map(String::as_str))
        .collect();
    match crate::diagnostic::suggest(name, every.iter().copied()) {
        Some(s) => format!("\nhint: did you mean the built-in game `{s}`?"),
        None => {
            let stems: Vec<&str> = builtin::GAMES.iter().map(|(n, _)| *n).collect();
            format!(
                "\nhint: built-in games: {} (`ludic list` shows their other names)",
                stems.join(", ")
            )
        }
    }
}
