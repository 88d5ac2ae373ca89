//! ludic: a general game system. Rule authors describe a traditional board game in a small
//! language (one `.game` file per game); ludic checks the file, builds the game from it and
//! plays it.
//!
//! # The API
//!
//! [`load`] a game from a [`Source`] (a built-in game's name, a path, or the text of a `.game`
//! file) with [`Settings`] (option values, a variant): that gives a [`Game`], shared by
//! everything that plays it, and [`Game::start`] gives a [`State`]. Every question and every
//! move is a method of the game taking the state: [`Game::status`] (whose turn: a player's
//! decision, a chance event, or the end with its [`Outcome`]), [`Game::legal_actions`] (the
//! decisions by their fixed **action ids**, below [`Game::num_actions`]),
//! [`Game::apply_action`], [`Game::chance_outcomes`] and [`Game::apply_chance`],
//! [`Game::returns`], [`Game::observation_json`]; a state is cloned to look ahead. The
//! [`agents`] play through the [`agents::Agent`] trait, [`study`] runs many games, [`record`]
//! writes and replays them, [`render`] draws and narrates them.
//! For editors: [`validate`] a text (its diagnostics carry spans), its [`outline`] (the symbols
//! it declares and every use of each, scope-aware) and [`word_doc`] (what a word of the
//! language means, from the language reference); `ludic lsp` is built on them.
//!
//! A seeded random game of a built-in game, to the end, by action ids:
//!
//! ```
//! use ludic::{Settings, Source, Status};
//! use rand::rngs::Xoshiro256PlusPlus;
//! use rand::{RngExt, SeedableRng};
//!
//! let (name, _) = ludic::builtin::GAMES[0]; // the first built-in game
//! let game = ludic::load(&Source::infer(name), &Settings::default())?;
//! let mut state = game.start();
//! let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
//! let mut actions = Vec::new();
//! let outcome = loop {
//!     match game.status(&state) {
//!         Status::Decision(_) => {
//!             game.legal_actions_into(&state, &mut actions);
//!             let a = actions[rng.random_range(0..actions.len())];
//!             game.apply_action(&mut state, a)?;
//!         }
//!         Status::Chance => {
//!             let i = game.draw_chance(&state, rng.random());
//!             game.apply_chance(&mut state, i as usize)?;
//!         }
//!         Status::Over(outcome) => break outcome,
//!     }
//! };
//! println!("{}", ludic::render::outcome_text(&game, outcome));
//! println!("returns by player: {:?}", game.returns(&state));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Inside
//!
//! The pipeline: `grammar/ludic.pest` → `lang` (parse → ast → check → lower) →
//! `ir::Game` → `engine` (both private: their types are re-exported here, [`Game`] and
//! [`State`] first). Every command goes through [`load_game`].
#![forbid(unsafe_code)]
// The internals' module docs link their private children (the layers of the engine, the
// stages of the language): `cargo doc --document-private-items` renders those links.
#![allow(rustdoc::private_intra_doc_links)]

pub mod agents;
#[warn(missing_docs)]
mod api;
pub mod builtin;
#[cfg(test)]
mod compiled_forms;
mod engine;
pub mod gamefile;
pub mod interrupt;
mod ir;
mod lang;
pub mod limits;
mod notation;
pub mod output;
pub mod perft;
pub mod record;
pub mod render;
pub mod setup;
pub mod study;

// The language's modules at the top as well: the paths `ludic::parse`, `ludic::check` … that
// the commands and the tests use.
pub use lang::diagnostic;
/// `ludic fmt`: the canonical layout of a `.game` file.
pub use lang::format::format;
#[doc(hidden)]
pub use lang::format::{comments, syntax_tree};
pub(crate) use lang::{ast, chart, check, derive, optimize, parse};

pub use api::{
    About, Action, DiceDesc, LabelDesc, LoadFailure, OptionDesc, PieceDesc, SiteDesc, Source,
    Status, TallyDesc, TokenDesc, VariantDesc, load,
};
// the outline of a file and the docs of words, for editors (`ludic lsp`)
pub use api::{Outline, Symbol, SymbolKind, outline, word_doc};
pub use check::{LoadError, Settings};
pub use engine::Game;
pub use engine::actions::{self, MAX_ORDERED_LAP};
pub use engine::{DECISION_LIMIT, LAP_LIMIT, ROUND_LIMIT, Tokens, WORK_LIMIT};
pub use engine::{
    Decision, EndReason, Event, Fault, IllegalMove, Landing, Outcome, Pending, State,
};
pub use ir::{PieceKind, Player, SiteId, SiteKind};

/// The words of the language, for editors and highlighters (`ludic serve`'s editor, a
/// language server): every word the grammar spells with whether it is reserved (never a name),
/// and the builtin names and functions (`mover`, `count`…). All read from the grammar and the
/// builtins' table, so that they never drift from the language.
pub fn language_words() -> (Vec<(&'static str, bool)>, Vec<&'static str>) {
    let builtins = lang::builtins::names()
        .chain(lang::builtins::functions())
        .collect();
    (parse::words(), builtins)
}

/// The words that begin a declaration (at the top of a file) and those that begin a statement
/// (inside a block), read from the grammar: what an editor offers where.
///
/// ```
/// let (declarations, statements) = ludic::starting_words();
/// assert!(declarations.contains(&"board") && !declarations.contains(&"sow"));
/// assert!(statements.contains(&"sow") && statements.contains(&"another"));
/// ```
pub fn starting_words() -> (Vec<&'static str>, Vec<&'static str>) {
    parse::starting_words()
}

/// The one front door: parses and checks a game description with the given option settings.
pub fn load_game(source: &str, settings: &Settings) -> Result<Game, LoadError> {
    let file = parse::parse(source).map_err(LoadError::File)?;
    check::check(&file, source, settings).map(Game::new)
}

/// [`load_game`], and the warnings of the file (a `let` that hides another name…), sorted:
/// they do not stop the game from loading, and are found whether or not the file has errors.
///
/// ```
/// let (_, text) = ludic::builtin::GAMES[0];
/// let (game, warnings) = ludic::load_game_with_warnings(text, &ludic::Settings::default());
/// assert!(game.is_ok() && warnings.is_empty());
/// ```
pub fn load_game_with_warnings(
    source: &str,
    settings: &Settings,
) -> (Result<Game, LoadError>, diagnostic::Diagnostics) {
    let file = match parse::parse(source) {
        Ok(file) => file,
        Err(d) => return (Err(LoadError::File(d)), diagnostic::Diagnostics::default()),
    };
    let (result, warnings) = check::check_with_warnings(&file, source, settings);
    (result.map(Game::new), warnings)
}

/// What `ludic validate` finds in a file: the game with its default settings, the warnings,
/// and the errors of each variant that does not load (the file parsed once for all).
pub struct Validation {
    /// the game with its default settings, or why it does not load
    pub game: Result<Game, LoadError>,
    /// the warnings of the file, sorted
    pub warnings: diagnostic::Diagnostics,
    /// each variant that does not load, by name, with its errors
    pub variants: Vec<(String, LoadError)>,
}

/// Checks a game's text as `ludic validate` does: with its default settings, then each of
/// its variants, the text parsed once.
///
/// ```
/// let (_, text) = ludic::builtin::GAMES[0];
/// let v = ludic::validate(text);
/// assert!(v.game.is_ok() && v.variants.is_empty());
/// ```
pub fn validate(source: &str) -> Validation {
    let file = match parse::parse(source) {
        Ok(file) => file,
        Err(d) => {
            return Validation {
                game: Err(LoadError::File(d)),
                warnings: diagnostic::Diagnostics::default(),
                variants: vec![],
            };
        }
    };
    let (result, warnings) = check::check_with_warnings(&file, source, &Settings::default());
    let game = result.map(Game::new);
    let mut variants = vec![];
    if let Ok(g) = &game {
        for v in g.all_variants() {
            let s = Settings {
                variant: Some(v.name.to_string()),
                sets: vec![],
            };
            if let Err(e) = check::check(&file, source, &s) {
                variants.push((v.name.to_string(), e));
            }
        }
    }
    Validation {
        game,
        warnings,
        variants,
    }
}

/// A stable hash of a game's source text (FNV-1a, 64 bits), recorded in game records.
pub fn source_hash(source: &str) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in source.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}
