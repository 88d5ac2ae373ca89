//! The language: from the text of a `.game` file to the checked game.
//!
//! `grammar/ludic.pest` → [`parse`] (the only module that sees pest) → [`ast`] (what the
//! author wrote, with spans) → [`check`] (names, types, the board, options: every error at
//! once, as data rendered by [`diagnostic`]; its declaration passes build the symbol table and
//! the board, `table`) → [`lower`] (statements and expressions into the game's program,
//! reading the table and never the checker, with [`optimize`] rewriting conditions into direct
//! tests) → [`crate::ir::Game`], which the engine compiles and plays. `chart` works out what a
//! definition's parameters must be, for the checker.

pub mod ast;
pub(crate) mod builtins;
pub(crate) mod chart;
pub mod check;
pub(crate) mod composed;
pub mod derive;
pub mod diagnostic;
pub mod format;
pub(crate) mod lower;
pub(crate) mod merge;
pub(crate) mod optimize;
pub mod parse;
pub(crate) mod table;
