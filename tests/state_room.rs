//! Room in a state's buffers (`State::make_room_like`, `can_copy_without_allocating`,
//! `bytes`), what a program that keeps many positions of a game relies on (the search keeps
//! the positions of its tree's inner nodes with them): a state given the room of a grown one
//! takes a copy of any position that fits without allocating, says so truly, and is a copy.

mod common;
use common::*;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_here;

/// The positions of a few random games of `g` (every decision point), from its start.
fn positions(g: &ludic::Game, games: usize) -> Vec<ludic::State> {
    let mut out = vec![];
    let mut rng = Lcg(11);
    for _ in 0..games {
        let mut st = g.start();
        let mut steps = 0;
        while !st.is_over() && steps < 400 {
            if !st.moves().is_empty() {
                out.push(st.clone());
            }
            random_step(g, &mut st, &mut rng);
            steps += 1;
        }
    }
    out
}

#[test]
fn a_state_with_room_takes_copies_without_allocating() {
    let mut not_fitting = 0;
    for (name, _) in ludic::builtin::GAMES {
        let g = game(name);
        let all = positions(&g, 3);
        assert!(all.len() > 5, "{name}: positions to copy");
        // A scratch state grown by copies of every position: its buffers' capacities cover
        // them all.
        let mut grown = g.start();
        for p in &all {
            grown.clone_from(p);
        }
        // A copy of the first position (buffers of exactly its sizes), then given that room.
        let mut kept = all[0].clone();
        let small = kept.bytes();
        kept.make_room_like(&grown);
        assert!(kept == all[0], "{name}: making room changes no position");
        assert!(kept.bytes() >= small, "{name}: room is never taken away");
        let mut fitted = 0;
        for p in &all {
            assert!(
                kept.can_copy_without_allocating(p),
                "{name}: a position fits"
            );
            let before = allocations_here();
            kept.clone_from(p);
            assert_eq!(
                allocations_here() - before,
                0,
                "{name}: a copy that fits allocates"
            );
            assert!(&kept == p, "{name}: the copy is the position");
            fitted += 1;
        }
        assert_eq!(fitted, all.len());
        // Without the room, the answer is told truly: a copy said to fit allocates nothing,
        // and one said not to fit would (the buffers of exactly one position's sizes).
        for p in &all {
            let mut tight = all[0].clone();
            let fits = tight.can_copy_without_allocating(p);
            let before = allocations_here();
            tight.clone_from(p);
            let allocated = allocations_here() - before;
            assert_eq!(
                fits,
                allocated == 0,
                "{name}: `fits` says {fits}, {allocated} made"
            );
            not_fitting += usize::from(!fits);
        }
    }
    assert!(
        not_fitting > 0,
        "some position does not fit another's exact buffers"
    );
}
