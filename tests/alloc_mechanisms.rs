//! A playout allocates nothing once its buffers have grown, in games that use the mechanisms
//! of issue 14 (part B): the history of positions (`repeated`), `leaving` conditions (their
//! scratch copy of the state is reused), lines and tallies per site.

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::warm_playout_allocations;

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
        // 300 playouts let the buffers of the state grow to what the game needs; 300 are counted
        let (decisions, allocations) = warm_playout_allocations(&g, 3, 300);
        assert!(decisions > 1000, "{name}: {decisions} decisions");
        assert_eq!(
            allocations, 0,
            "{name}: {allocations} allocations in {decisions} decisions"
        );
    }
}
