//! What every part of the compiler shares: a compiled expression ([`Num`]), the compiler
//! itself ([`Compiler`]: the game's tables and the scratch words asked so far; the files of
//! this folder add its methods, by concern) and the run-time helpers the compiled closures of
//! several files call.

use super::tables::Tables;
use crate::engine::state::{Board, Regs};
use crate::ir::{KindMask, PlayerRef, VarId};
use std::sync::Arc;

/// A compiled expression: its value for a board and the program's variables.
pub(crate) type Num = Box<dyn Fn(&Board, &mut Regs) -> i64 + Send + Sync>;

#[inline(always)]
pub(crate) fn num(f: impl Fn(&Board, &mut Regs) -> i64 + Send + Sync + 'static) -> Num {
    Box::new(f)
}

#[cfg(test)]
thread_local! {
    /// Every condition compiled as written: no part of a question kept once per question, no
    /// count of indexed words, no token's field read in place (for the tests that compare the
    /// two; set on the thread that loads the game).
    pub(crate) static AS_WRITTEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether conditions are compiled as written (see [`AS_WRITTEN`]; never outside tests).
#[cfg(test)]
pub(crate) fn as_written() -> bool {
    AS_WRITTEN.with(std::cell::Cell::get)
}

/// Whether conditions are compiled as written (never outside tests).
#[cfg(not(test))]
#[inline(always)]
pub(crate) fn as_written() -> bool {
    false
}

/// A part of a question's condition kept once per question (`expr/hoist.rs`): the variable
/// that holds it, and the scratch word of its flag (set once it is worked out).
pub(crate) struct Lazy {
    pub(crate) var: VarId,
    pub(crate) flag: usize,
}

/// Compiles expressions and statements of one game.
pub(crate) struct Compiler {
    pub(crate) t: Arc<Tables>,
    scratch: usize,
    /// where the memos of floods are in scratch (see `Program::memos`)
    pub(crate) memos: Vec<usize>,
    /// compiling the fallback of a value read from a table by site (see `expr/fixed.rs`)
    pub(crate) as_written: bool,
    /// a compiled form reads the counts of tokens of each kind at each site (`Tokens::kind_at`):
    /// the moves keep them only then (see `Program::kind_counts`)
    pub(crate) reads_kind_counts: bool,
    /// the first variable the game does not use, for the parts of questions' conditions kept
    /// once per question (None: keep none; see `expr/hoist.rs`)
    pub(crate) free_var: Option<usize>,
    /// the parts kept by the questions being compiled, innermost last
    pub(crate) lazy: Vec<Lazy>,
}

impl Compiler {
    pub(crate) fn new(t: Arc<Tables>) -> Self {
        Compiler {
            t,
            scratch: 0,
            memos: vec![],
            as_written: false,
            reads_kind_counts: false,
            free_var: None,
            lazy: vec![],
        }
    }

    /// A form that counts the pieces of the kinds of `mask` at a site is compiled: on a board
    /// with tokens (and unless it counts every kind) it reads the counts of each kind.
    pub(crate) fn counts_kinds(&mut self, mask: KindMask) {
        if self.t.ntokens > 0 && mask.0 != u32::MAX {
            self.reads_kind_counts = true;
        }
    }

    /// The scratch words asked so far.
    pub(crate) fn scratch_words(&self) -> usize {
        self.scratch
    }

    /// Scratch words for a query's sets.
    pub(crate) fn scratch(&mut self, words: usize) -> usize {
        let at = self.scratch;
        self.scratch += words;
        at
    }
}

/// The player a [`PlayerRef`] names now.
#[inline(always)]
pub(crate) fn player_ref(p: PlayerRef, b: &Board, t: &Tables) -> i64 {
    match p {
        PlayerRef::Mover => b.mover as i64,
        PlayerRef::Opponent => t.opponent[b.mover as usize] as i64,
        PlayerRef::Fixed(c) => c,
    }
}
