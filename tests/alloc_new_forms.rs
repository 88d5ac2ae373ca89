//! A playout allocates nothing once its buffers have grown (as tests/alloc.rs checks for the
//! built-in games), for the fixture games of the forms of issue 14. A test file of its own: the
//! counting allocator is global to the test binary, and tests run side by side.

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

/// The same for the fixture games of `another turn`, limits in moves, typed `none`, `sown` and
/// `some x from s toward d` (issue 14).
#[test]
fn playouts_of_the_new_forms_allocate_nothing_once_warm() {
    for (name, sets) in [
        ("another_turn", vec![]),
        (
            "move_limit",
            vec![("max_moves".to_string(), "100".to_string())],
        ),
        ("typed_none", vec![]),
        ("sowing_details", vec![]),
    ] {
        let path = format!("{}/tests/fixtures/{name}.game", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(path).unwrap();
        let settings = ludic::Settings {
            variant: None,
            sets,
        };
        let g = ludic::load_game(&src, &settings).unwrap();
        let start = g.start();
        let mut st = g.start();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        for _ in 0..200 {
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
