//! A playout allocates nothing once its buffers have grown, in games that use the mechanisms
//! of issue 14 (part B): the history of positions (`repeated`), `leaving` conditions (their
//! scratch copy of the state is reused), lines and tallies per site.

use ludic::cli::random_playout;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(p, l, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn playouts_of_the_mechanism_fixtures_allocate_nothing_once_warm() {
    let repetition = std::fs::read_to_string("tests/fixtures/mechanisms/repetition.game").unwrap();
    let sources = [
        (
            "mill",
            std::fs::read_to_string("tests/fixtures/mechanisms/mill.game").unwrap(),
        ),
        ("repetition", repetition.clone()),
        (
            "feed",
            std::fs::read_to_string("tests/fixtures/mechanisms/feed.game").unwrap(),
        ),
        // the history and a look-ahead together
        (
            "repetition, no position twice",
            repetition.replace(
                "where mine(t) and owner(top(q)) != mover {",
                "where mine(t) and owner(top(q)) != mover leaving not repeated {",
            ),
        ),
    ];
    for (name, src) in sources {
        let g = ludic::load_game(&src, &ludic::Settings::default()).unwrap();
        let start = g.start();
        let mut st = g.start();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..300 {
            random_playout(&g, &start, &mut st, &mut rng, |_| {});
        }
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let mut decisions = 0;
        for _ in 0..300 {
            decisions += random_playout(&g, &start, &mut st, &mut rng, |_| {});
        }
        let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
        assert!(decisions > 1000, "{name}: {decisions} decisions");
        assert_eq!(
            allocations, 0,
            "{name}: {allocations} allocations in {decisions} decisions"
        );
    }
}
