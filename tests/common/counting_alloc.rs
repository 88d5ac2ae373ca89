//! A counting global allocator, for the tests that check that playing allocates nothing once
//! warm. Each test binary that includes it (`#[path = "common/counting_alloc.rs"] mod
//! counting_alloc;`) counts its allocations and reallocations with it.
//!
//! Two counts: the allocations of the calling thread (what a test of one thread means: the
//! test harness's own threads may allocate at any time, and a process-wide count saw them now
//! and then), and those of the whole process (for code that may use threads of its own).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALL: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static HERE: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    ALL.fetch_add(1, Ordering::Relaxed);
    // a thread being torn down has no counter any more: its allocations count in ALL only
    let _ = HERE.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(p, l, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations and reallocations made so far by the calling thread.
#[allow(dead_code)]
pub fn allocations_here() -> u64 {
    HERE.with(|c| c.get())
}

/// Allocations and reallocations made so far by the whole process.
#[allow(dead_code)]
pub fn allocations_all() -> u64 {
    ALL.load(Ordering::Relaxed)
}

/// Random playouts of `g` (seeded with `seed`): `warm` of them to let the state's buffers grow,
/// then 300 counted. Returns (decisions, allocations) of the counted ones, on this thread.
#[allow(dead_code)]
pub fn warm_playout_allocations(g: &ludic::Game, seed: u64, warm: usize) -> (u64, u64) {
    use rand::SeedableRng;
    let start = g.start();
    // A state of its own (not a clone of the start: that would drop its reserved room).
    let mut st = g.start();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..warm {
        ludic::study::random_playout(g, &start, &mut st, &mut rng, true);
    }
    let before = allocations_here();
    let mut decisions = 0;
    for _ in 0..300 {
        decisions += ludic::study::random_playout(g, &start, &mut st, &mut rng, true);
    }
    (decisions, allocations_here() - before)
}
