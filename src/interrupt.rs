//! A process-wide request to stop long work at once, for a program that is being stopped
//! (the command line's handler of SIGINT, SIGTERM and SIGHUP sets it): a search in progress
//! returns at its next check, once per batch of playouts as it reads its deadline (see
//! [`crate::agents::mcts`]), and perft stops within a thousand positions. What was stopped is
//! not a result: the game whose search stopped is dropped by its caller, and a stopped perft
//! says how far it got. The request is never withdrawn.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every search and perft in progress, and every one to come, to stop.
pub fn request() {
    STOP.store(true, Ordering::SeqCst);
}

/// Whether a stop was asked for.
#[inline]
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The flag itself, for a signal handler to set (an atomic store is all it may do).
pub fn flag() -> &'static AtomicBool {
    &STOP
}
