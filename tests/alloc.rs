//! A playout allocates nothing once its buffers have grown: a counting allocator watches
//! random playouts of every built-in game and variant (decisions, chance events, the copy of
//! the start position into a reused state).

use ludic::cli::random_playout;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_here;

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
        let before = allocations_here();
        let mut decisions = 0;
        for _ in 0..300 {
            decisions += random_playout(&g, &start, &mut st, &mut rng, |_| {});
        }
        let allocations = allocations_here() - before;
        assert!(decisions > 1000, "{name}: {decisions} decisions");
        assert_eq!(
            allocations, 0,
            "{name} {variant:?}: {allocations} allocations in {decisions} decisions"
        );
    }
}

#[test]
fn the_counter_sees_the_allocations_of_this_thread() {
    let before = allocations_here();
    let v: Vec<u64> = std::hint::black_box(Vec::with_capacity(10));
    assert!(allocations_here() > before);
    drop(v);
}
