//! The search allocates nothing per playout once its tree arena and scratch state are
//! allocated: a counting global allocator around searches of different sizes in every
//! built-in game (the engine's own playouts are checked in `tests/alloc.rs`).

mod common;
use common::*;
use ludic::agents::{Budget, Mcts, MctsConfig};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_all;

/// Allocations made by one search of `playouts` from `st` with an agent already warmed up.
fn allocations(g: &ludic::Game, st: &ludic::State, playouts: u64) -> u64 {
    let mut agent = Mcts::new(MctsConfig {
        budget: Budget::Playouts(playouts),
        threads: 1,
        max_nodes: 1 << 18,
        ..MctsConfig::default()
    });
    // The first search allocates the arena and grows the scratch state's buffers.
    agent.search(g, st, 1, &mut |_| {});
    let before = allocations_all();
    agent.search(g, st, 2, &mut |_| {});
    allocations_all() - before
}

/// A position with a decision to take, after a few random steps from the start.
fn some_position(g: &ludic::Game) -> ludic::State {
    let mut st = g.start();
    let mut rng = Lcg(7);
    while st.moves().is_empty() {
        random_step(g, &mut st, &mut rng);
    }
    st
}

/// The search's own allocations (its statistics of the root) do not grow with the playouts.
fn assert_no_growth(label: &str, g: &ludic::Game) {
    let st = some_position(g);
    let small = allocations(g, &st, 100);
    let large = allocations(g, &st, 1000);
    println!("{label}: {small} allocations for 100 playouts, {large} for 1000");
    assert!(
        large <= small + 2 && large < 20,
        "{label}: {small} allocations for 100 playouts, {large} for 1000"
    );
}

#[test]
fn no_allocation_per_playout() {
    for (name, variant) in [
        ("pallankuzhi", None),
        ("ceelkoqyuqkoqiji", None),
        ("ceelkoqyuqkoqiji", Some("seven holes")),
        ("puluc", None),
        ("kuilichi-chanakua", None),
        ("tuknanavuhpi", None),
    ] {
        assert_no_growth(name, &game_with(name, &[], variant));
    }
    // The games of the mechanisms whose state has more to copy: a `leaving` look-ahead (its
    // scratch copy), the history of positions (its table), lines. (One test, not two: the
    // count is of the whole process, and the search runs on its own thread.)
    for file in ["feed", "repetition", "mill"] {
        let path = format!(
            "{}/tests/fixtures/mechanisms/{file}.game",
            env!("CARGO_MANIFEST_DIR")
        );
        let src = std::fs::read_to_string(&path).expect("fixture");
        assert_no_growth(
            file,
            &ludic::load_game(&src, &ludic::Settings::default()).expect("loads"),
        );
    }
}
