//! A playout allocates nothing once its buffers have grown (as tests/alloc.rs checks for the
//! built-in games), for the fixture games of the forms of issue 14. A test file of its own: the
//! counting allocator is global to the test binary, and tests run side by side.

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::warm_playout_allocations;

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
        // 200 playouts let the buffers of the state grow to what the game needs; 300 are counted
        let (decisions, allocations) = warm_playout_allocations(&g, 4, 200);
        assert!(decisions > 1000, "{name}: {decisions} decisions");
        assert_eq!(
            allocations, 0,
            "{name}: {allocations} allocations in {decisions} decisions"
        );
    }
}
