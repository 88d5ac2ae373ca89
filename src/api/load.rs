//! Loading a game: from a built-in name, a path or the text of a `.game` file, with its
//! settings; the file read with the commands' limits.

use crate::builtin;
use crate::check::{LoadError, Settings, check_with_warnings};
use crate::diagnostic::{Diagnostic, Diagnostics, render, to_json};
use crate::engine::Game;
use crate::gamefile::{not_found_hint, read_base, read_game_file};
use crate::limits::shorten;
use std::sync::Arc;

/// Where a game is loaded from.
///
/// [`Source::infer`] tells which one a single string is (as `load_game(name)` in Python).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// a built-in game, by its file stem, title or alias (`ludic list` shows them; case,
    /// blanks and accents do not matter)
    Builtin(String),
    /// the path of a `.game` file (and the files it is built on, `from "base.game"`, relative
    /// to its folder)
    Path(String),
    /// the text of a `.game` file (a base it names is a built-in game or a path relative to
    /// the working directory)
    Text(String),
}

impl Source {
    /// Which source one string names: a built-in game's name first (when one built-in game or
    /// more has that name), then the text of a file if it holds a new line, else a path.
    ///
    /// ```
    /// use ludic::Source;
    /// let (name, text) = ludic::builtin::GAMES[0];
    /// assert_eq!(Source::infer(name), Source::Builtin(name.into()));
    /// let path = format!("games/{name}.game");
    /// assert_eq!(Source::infer(&path), Source::Path(path.clone()));
    /// assert_eq!(Source::infer(text), Source::Text(text.into()));
    /// assert!(matches!(Source::infer("game \"x\" {}\n"), Source::Text(_)));
    /// ```
    pub fn infer(s: &str) -> Source {
        if !matches!(builtin::lookup(s), builtin::Lookup::NotFound) {
            Source::Builtin(s.to_string())
        } else if s.contains('\n') {
            Source::Text(s.to_string())
        } else {
            Source::Path(s.to_string())
        }
    }

    /// The name of the source in messages and records: a built-in game's file stem, the path,
    /// or `<text>` for a text.
    fn label(&self) -> String {
        match self {
            Source::Builtin(n) => builtin::find(n).map_or_else(|| n.clone(), |(s, _)| s.into()),
            Source::Path(p) => p.clone(),
            Source::Text(_) => "<text>".into(),
        }
    }
}

/// Why a game did not load: the message as `ludic validate` (and every command) prints it,
/// and the same problems as data.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text}")]
pub struct LoadFailure {
    /// the message, as printed on the terminal: each diagnostic rendered with the file's
    /// name, `line:col`, the line itself and the hint (the warnings of the file included, as
    /// `ludic validate` shows them), or one line for a file that could not be read, a name
    /// that is no built-in game, or an option the game does not have (each such line starts
    /// with `error: `)
    pub text: String,
    /// the diagnostics of the file, sorted by place (errors and warnings; empty when the file
    /// could not be read or only the settings were wrong)
    pub diagnostics: Vec<Diagnostic>,
    /// what was wrong with the settings (an unknown option or variant, a value out of its
    /// domain)
    pub settings: Vec<String>,
    /// the diagnostics as `ludic validate --format json` gives them
    /// ([`crate::diagnostic::to_json`]: each with its file, severity, code, message, line and
    /// column from 1, end, hint and notes); an empty list when there are none
    pub located: serde_json::Value,
}

impl LoadFailure {
    fn message(text: String) -> Self {
        LoadFailure {
            text: format!("error: {text}\n"),
            diagnostics: vec![],
            settings: vec![],
            located: serde_json::json!([]),
        }
    }
}

/// Loads a game with its settings (option values and a variant): the library's front door,
/// which the commands use too.
///
/// The game knows where it came from ([`Game::source_name`]) and the hash of its text
/// ([`Game::source_hash`]), which game records keep.
///
/// ```
/// use ludic::{Settings, Source};
/// let (name, text) = ludic::builtin::GAMES[0];
/// let g = ludic::load(&Source::infer(name), &Settings::default()).unwrap();
/// assert_eq!(g.source_name(), name);
/// assert_eq!(g.source_hash(), ludic::source_hash(text));
/// let bad = ludic::load(&Source::Text("game \"x\" {\n".into()), &Settings::default());
/// let bad = bad.unwrap_err();
/// assert!(bad.text.contains("<text>:"));
/// assert!(bad.located[0]["line"].as_u64().is_some());
/// ```
pub fn load(source: &Source, settings: &Settings) -> Result<Game, LoadFailure> {
    let label = source.label();
    let text = match source {
        Source::Builtin(name) => builtin_text(name)?,
        Source::Path(path) => read_game_file(path).map_err(LoadFailure::message)?,
        Source::Text(text) => crate::derive::compose("", "", text.clone(), &mut read_base)
            .map_err(|e| LoadFailure {
                text: render(&e.path, &e.source, &e.diagnostics),
                located: to_json(&e.path, &e.source, &e.diagnostics),
                diagnostics: e.diagnostics.0,
                settings: vec![],
            })?,
    };
    load_text(&label, &text, settings)
}

/// Loads the text of a game (its bases already composed) under a name for messages.
fn load_text(label: &str, text: &str, settings: &Settings) -> Result<Game, LoadFailure> {
    let checked = crate::parse::parse(text)
        .map_err(|d| (LoadError::File(d), Diagnostics::default()))
        .and_then(|file| match check_with_warnings(&file, text, settings) {
            (Ok(g), _) => Ok(g),
            (Err(e), w) => Err((e, w)),
        });
    match checked {
        Ok(ir) => {
            let mut g = Game::new(ir);
            g.origin = Arc::new((label.to_string(), crate::source_hash(text)));
            Ok(g)
        }
        Err((LoadError::File(mut d), warnings)) => {
            d.0.extend(warnings.0);
            let d = d.sorted();
            Err(LoadFailure {
                text: render(label, text, &d),
                located: to_json(label, text, &d),
                diagnostics: d.0,
                settings: vec![],
            })
        }
        Err((LoadError::Options(errs), _)) => {
            let mut text = String::new();
            for e in &errs {
                text.push_str(&format!("error: {}\n", shorten(e, 300)));
            }
            text.push_str("hint: `ludic list` shows every game's options and variants\n");
            Err(LoadFailure {
                text,
                diagnostics: vec![],
                settings: errs,
                located: serde_json::json!([]),
            })
        }
    }
}

/// The text of a built-in game, or why the name names none (or several).
fn builtin_text(name: &str) -> Result<String, LoadFailure> {
    match builtin::lookup(name) {
        builtin::Lookup::Found(_, src) => Ok(src.to_string()),
        builtin::Lookup::Ambiguous(stems) => Err(LoadFailure::message(format!(
            "`{name}` names several built-in games: {}\nhint: give one of these names",
            stems.join(", ")
        ))),
        builtin::Lookup::NotFound => Err(LoadFailure::message(format!(
            "`{}` is not a built-in game{}",
            shorten(name, 80),
            not_found_hint(name)
        ))),
    }
}
