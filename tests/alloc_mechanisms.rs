//! A playout allocates nothing once its buffers have grown, in games that use the mechanisms
//! of issue 14 (part B): the history of positions (`repeated`), `leaving` conditions (their
//! scratch copy of the state is reused), lines and tallies per site.

use ludic::cli::random_playout;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_here;

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
        let before = allocations_here();
        let mut decisions = 0;
        for _ in 0..300 {
            decisions += random_playout(&g, &start, &mut st, &mut rng, |_| {});
        }
        let allocations = allocations_here() - before;
        assert!(decisions > 1000, "{name}: {decisions} decisions");
        assert_eq!(
            allocations, 0,
            "{name}: {allocations} allocations in {decisions} decisions"
        );
    }
}
