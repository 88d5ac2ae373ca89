//! A playout allocates nothing once its buffers have grown: a counting allocator watches
//! random playouts of every built-in game and variant (decisions, chance events, the copy of
//! the start position into a reused state).

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
fn playouts_allocate_nothing_once_warm() {
    let mut configs: Vec<(&str, Vec<String>)> = vec![];
    for (name, _) in ludic::builtin::GAMES {
        configs.push((name, vec![]));
    }
    configs.push(("ceelkoqyuqkoqiji", vec!["seven holes".into()]));
    for (name, variant) in configs {
        let (_, src) = ludic::builtin::find(name).unwrap();
        let settings = ludic::Settings {
            variant: variant.first().cloned(),
            sets: vec![],
        };
        let g = ludic::load_game(src, &settings).unwrap();
        let start = g.start();
        // A state of its own (not a clone of the start: that would drop its reserved room).
        let mut st = g.start();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        // Warm up: the buffers of the state grow to what the game needs.
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
            "{name} {variant:?}: {allocations} allocations in {decisions} decisions"
        );
    }
}
