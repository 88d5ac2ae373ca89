//! The public API: load a game, then play it through its [`Game`] and [`State`] (the engine's
//! own types; a game is shared, each state is passed to its methods).
//!
//! - **Loading**: [`load`] a [`Source`] (a built-in name, a path, a text) with
//!   [`Settings`](crate::Settings); a failure is a [`LoadFailure`] (the message as printed,
//!   and the diagnostics).
//! - **Action ids**: [`Game::num_actions`], [`Game::legal_actions`] (and
//!   [`Game::legal_actions_into`], which allocates nothing), [`Game::action_of`] and
//!   [`Game::decision_of`], [`Game::apply_action`], [`Game::action_to_string`] and
//!   [`Game::string_to_action`], [`Game::apply_notation`]; how the ids are laid out is in
//!   [`crate::actions`].
//! - **Chance**: [`Game::chance_outcomes`] (outcome numbers with their probabilities),
//!   [`Game::apply_chance`], [`Game::max_chance_outcomes`].
//! - **Status**: [`Game::status`] ([`Status`]), [`Game::is_terminal`],
//!   [`Game::is_chance_node`], [`Game::current_player`], [`Game::returns`].
//! - **Observation and events**: [`Game::observation_json`], the observation tensor
//!   ([`Game::observation_tensor`], its parts in [`Game::observation_layout`]), and the events
//!   of a step from [`Game::apply_action_narrated`] and [`Game::apply_chance_narrated`].
//! - **History**: [`Game::apply_history_step`] and [`Game::replay_history`] (OpenSpiel's
//!   convention: one number a step, a chance outcome's or a decision's), and
//!   [`Game::max_game_length`], a bound on the decisions of a game.
//! - **Description**: [`Game::title`], [`Game::about`], [`Game::all_labels`],
//!   [`Game::has_rounds`], [`Game::piece_kind`], [`Game::token`], [`Game::area_named`],
//!   [`Game::track_site`], [`Game::lines`], [`Game::direction_names`], [`Game::next_site`],
//!   [`Game::neighbours`], [`Game::move_limit`], [`Game::players`], [`Game::sides`], [`Game::site`],
//!   [`Game::all_sites`], [`Game::piece_kinds`], [`Game::all_tallies`],
//!   [`Game::all_options`], [`Game::all_variants`], [`Game::all_dice`].
//! - **Editing a file** (a language server): the [`outline`] of a text (its symbols, each with
//!   its uses, scope-aware), [`word_doc`] (what a word of the language means, from the
//!   reference), and [`crate::validate`]'s diagnostics with their spans.

mod describe;
mod load;
mod observe;
mod outline;
mod play;
mod words;

pub use describe::{
    About, DiceDesc, LabelDesc, OptionDesc, PieceDesc, SiteDesc, TallyDesc, TokenDesc, VariantDesc,
};
pub use load::{LoadFailure, Source, load};
pub use outline::{Outline, Symbol, SymbolKind, outline};
pub use play::{Action, Status};
pub use words::word_doc;

#[cfg(doc)]
use crate::engine::{Game, State};
