//! A playout allocates nothing once its buffers have grown: a counting allocator watches
//! random playouts of every built-in game and variant (decisions, chance events, the copy of
//! the start position into a reused state).

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::{allocations_here, warm_playout_allocations};

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
        // 200 playouts let the buffers of the state grow to what the game needs; 300 are counted
        let (decisions, allocations) = warm_playout_allocations(&g, 3, 200);
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
