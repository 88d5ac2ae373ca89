//! A playout watched for every metric of a study allocates nothing once its buffers have grown
//! (the decisions' buffer of the observer, the histograms): a counting allocator watches
//! random playouts of every built-in game.

use ludic::study::metrics::{Observer, Stats};
use ludic::study::run::observed_playout;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_here;

#[test]
fn observed_playouts_allocate_nothing_once_warm() {
    for (name, _) in ludic::builtin::GAMES {
        let (_, src) = ludic::builtin::find(name).unwrap();
        let g = ludic::load_game(src, &ludic::Settings::default()).unwrap();
        let start = g.start();
        let mut st = g.start();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut stats = Stats::new(g.sides().len(), true, false);
        let mut obs = Observer::<true>::default();
        for _ in 0..500 {
            observed_playout(&g, &start, &mut st, &mut rng, &mut obs, &mut stats);
        }
        let before = allocations_here();
        let decisions_before = stats.choices.n;
        for _ in 0..300 {
            observed_playout(&g, &start, &mut st, &mut rng, &mut obs, &mut stats);
        }
        let allocations = allocations_here() - before;
        let decisions = stats.choices.n - decisions_before;
        assert!(decisions > 1000, "{name}: {decisions} decisions");
        assert_eq!(
            allocations, 0,
            "{name}: {allocations} allocations in {decisions} decisions"
        );
        assert_eq!(stats.games, 800);
    }
}
