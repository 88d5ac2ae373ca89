//! ludic: a general game system. Rule authors describe a traditional board game in a small
//! language (one `.game` file per game); ludic checks the file, builds the game from it and
//! plays it.
//!
//! The pipeline: `grammar/ludic.pest` → [`lang`] (parse → ast → check → lower) →
//! [`ir::Game`] → [`engine`]. Every command goes through [`load_game`].
#![forbid(unsafe_code)]

pub mod agents;
mod api;
pub mod builtin;
pub mod cli;
pub mod engine;
pub mod interrupt;
pub mod ir;
pub mod lang;
pub mod limits;
pub mod notation;
pub mod output;
pub mod perft;
pub mod record;
pub mod render;
pub mod setup;
pub mod study;

// The language's modules at the top as well: the paths `ludic::parse`, `ludic::check` … that
// the commands and the tests use.
pub use lang::{ast, check, derive, diagnostic, parse};
pub(crate) use lang::{chart, optimize};

pub use check::{LoadError, Settings};
pub use api::{
    Action, DiceDesc, LoadFailure, OptionDesc, PieceDesc, SiteDesc, Source, Status, TallyDesc,
    VariantDesc, load, read_game_file,
};
pub use engine::Game;
pub use engine::{
    Decision, EndReason, Event, Fault, IllegalMove, Landing, Outcome, Pending, State,
};

/// The one front door: parses and checks a game description with the given option settings.
pub fn load_game(source: &str, settings: &Settings) -> Result<Game, LoadError> {
    let file = parse::parse(source).map_err(LoadError::File)?;
    check::check(&file, source, settings).map(Game::new)
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
