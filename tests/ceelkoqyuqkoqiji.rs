//! Ceelkoqyuqkoqiji (../shared/rules/ceelkoqyuqkoqiji.md): the worked example and each rule.

mod common;
use common::*;
use ludic::Pending;
use ludic::setup::Setup;

fn south_first(g: &ludic::Game) -> ludic::State {
    let mut st = g.start();
    assert_eq!(
        st.pending(),
        Pending::ChanceFirst,
        "the first player is drawn at random"
    );
    let outs = g.chance_outcomes(&st);
    assert_eq!(outs, vec![(0, 0.5), (1, 0.5)]);
    g.play_chance(&mut st, 0).unwrap();
    st
}

#[test]
fn worked_example() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = south_first(&g);
    play(&g, &mut st, &["sow s5", "ccw"]);
    assert_eq!(
        board(
            &g,
            &st,
            &["s1", "s2", "s3", "s4", "s5", "n1", "n2", "n3", "n4", "n5"]
        ),
        "s1=6 s2=6 s3=6 s4=6 s5=0 n1=6 n2=6 n3=6 n4=6 n5=0"
    );
    assert_eq!(count(&g, &st, "west", "gong"), 1);
    assert_eq!(st.total_at(&g, site(&g, "east")), 0);
    assert_eq!(captured(&g, &st, "South", "lubasso"), 1);
    assert_eq!(captured(&g, &st, "South", "mu"), 1);
    assert_eq!(captured(&g, &st, "North", "lubasso"), 1);
    assert_eq!(st.score(&g, side(&g, "South")), 8);
}

#[test]
fn direction_is_chosen_for_the_whole_turn() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = south_first(&g);
    play(&g, &mut st, &["sow s1"]);
    assert_eq!(g.legal_notations(&st), vec!["ccw", "cw"]);
    // Clockwise from s1: the west store (North takes the stone), n5, n4, n3, n2; n1 is
    // occupied: relay, its 5 into the east store (South takes it), s5, s4, s3, s2. s1 is
    // empty and the west store after it still holds the gong: South captures it; n5 is
    // occupied: the chain stops.
    play(&g, &mut st, &["cw"]);
    assert_eq!(
        board(
            &g,
            &st,
            &["s1", "s2", "s3", "s4", "s5", "n1", "n2", "n3", "n4", "n5"]
        ),
        "s1=0 s2=6 s3=6 s4=6 s5=6 n1=0 n2=6 n3=6 n4=6 n5=6"
    );
    assert_eq!(captured(&g, &st, "North", "lubasso"), 1);
    assert_eq!(captured(&g, &st, "South", "lubasso"), 1);
    assert_eq!(captured(&g, &st, "South", "gong"), 1);
    assert_eq!(count(&g, &st, "east", "mu"), 1);
}

#[test]
fn sower_chooses_where_a_large_stone_is_dropped() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .put("s1", "lubasso", 2)
        .unwrap()
        .put("s1", "mu", 1)
        .unwrap()
        .put("n3", "lubasso", 1)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s1", "ccw"]);
    assert_eq!(g.legal_notations(&st), vec!["mu@1", "mu@2", "mu@3"]);
    play(&g, &mut st, &["mu@2"]);
    // Lap: s2, s3 (the mu), s4. s5 is empty; the east store after it is empty: no capture.
    assert_eq!(count(&g, &st, "s3", "mu"), 1);
    assert_eq!(board(&g, &st, &["s2", "s3", "s4"]), "s2=1 s3=1 s4=1");
}

#[test]
fn two_large_stones_in_one_hand_are_both_placed() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .put("s1", "lubasso", 1)
        .unwrap()
        .put("s1", "mu", 1)
        .unwrap()
        .put("s1", "gong", 1)
        .unwrap()
        .put("n3", "lubasso", 1)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s1", "ccw"]);
    assert_eq!(g.legal_notations(&st), vec!["mu@1", "mu@2", "mu@3"]);
    play(&g, &mut st, &["mu@3"]);
    assert_eq!(g.legal_notations(&st), vec!["gong@1", "gong@2"]);
    play(&g, &mut st, &["gong@1"]);
    assert_eq!(count(&g, &st, "s2", "gong"), 1);
    assert_eq!(count(&g, &st, "s3", "lubasso"), 1);
    assert_eq!(count(&g, &st, "s4", "mu"), 1);
}

#[test]
fn capture_chain_every_second_hole_through_a_store() {
    // South sows s1 (1) into s2. s3 is empty: capture s4 (2); s5 empty, the east store holds
    // the mu: captured; n1 empty, n2 (3) captured; n3 is occupied: the chain stops.
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .put("s1", "lubasso", 1)
        .unwrap()
        .put("s4", "lubasso", 2)
        .unwrap()
        .put("east", "mu", 1)
        .unwrap()
        .put("n2", "lubasso", 3)
        .unwrap()
        .put("n3", "lubasso", 4)
        .unwrap()
        .put("n5", "lubasso", 1)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s1", "ccw"]);
    assert_eq!(captured(&g, &st, "South", "lubasso"), 5);
    assert_eq!(captured(&g, &st, "South", "mu"), 1);
    assert_eq!(
        board(&g, &st, &["s2", "s4", "east", "n2", "n3"]),
        "s2=1 s4=0 east=0 n2=0 n3=4"
    );
}

#[test]
fn chain_stops_at_two_empty_holes() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .put("s1", "lubasso", 1)
        .unwrap()
        .put("s4", "lubasso", 2)
        .unwrap()
        .put("n1", "lubasso", 3)
        .unwrap()
        .build();
    // s4 captured; s5 and the east store are empty: stop (n1 is not taken).
    play(&g, &mut st, &["sow s1", "ccw"]);
    assert_eq!(captured(&g, &st, "South", "lubasso"), 2);
    assert_eq!(count(&g, &st, "n1", "lubasso"), 3);
}

#[test]
fn relay_from_a_store_picks_up_only_its_large_stone() {
    // South sows s4 (1) into s5; the east store holds the mu: relay, the mu alone is sown into n1.
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .put("s4", "lubasso", 1)
        .unwrap()
        .put("east", "mu", 1)
        .unwrap()
        .put("n3", "lubasso", 2)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s4", "ccw"]);
    // mu into n1; n2 empty; n3 occupied: captured.
    assert_eq!(count(&g, &st, "n1", "mu"), 1);
    assert_eq!(captured(&g, &st, "South", "lubasso"), 2);
}

#[test]
fn huelshe_is_obligatory_while_a_large_stone_is_in_its_store() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .captured("South", "lubasso", 3)
        .unwrap()
        .put("east", "mu", 1)
        .unwrap()
        .put("n1", "lubasso", 4)
        .unwrap()
        .build();
    // Fewer stones than holes: one unbroken run of 3 holes, chosen by its first hole.
    assert_eq!(
        g.legal_notations(&st),
        vec!["huelshe s1", "huelshe s2", "huelshe s3"]
    );
    play(&g, &mut st, &["huelshe s2"]);
    assert_eq!(
        board(&g, &st, &["s1", "s2", "s3", "s4", "s5"]),
        "s1=0 s2=1 s3=1 s4=1 s5=0"
    );
    assert_eq!(captured(&g, &st, "South", "lubasso"), 0);
    assert_eq!(g.player_name(st.mover()), "South", "then he plays his turn");
    assert_eq!(g.legal_notations(&st), vec!["sow s2", "sow s3", "sow s4"]);
}

#[test]
fn huelshe_with_enough_stones_fills_every_hole() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .captured("South", "lubasso", 9)
        .unwrap()
        .put("n1", "lubasso", 4)
        .unwrap()
        .build();
    assert_eq!(g.legal_notations(&st), vec!["huelshe", "decline"]);
    play(&g, &mut st, &["huelshe"]);
    assert_eq!(
        board(&g, &st, &["s1", "s2", "s3", "s4", "s5"]),
        "s1=1 s2=1 s3=1 s4=1 s5=1"
    );
    assert_eq!(captured(&g, &st, "South", "lubasso"), 4);
}

#[test]
fn declining_huelshe_ends_the_round_and_the_board_goes_to_the_opponent() {
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .captured("South", "lubasso", 9)
        .unwrap()
        .put("n1", "lubasso", 4)
        .unwrap()
        .put("n2", "gong", 1)
        .unwrap()
        .build();
    play(&g, &mut st, &["decline"]);
    let o = st.outcome().expect("the round is over");
    assert_eq!(captured(&g, &st, "North", "lubasso"), 4);
    assert_eq!(captured(&g, &st, "North", "gong"), 1);
    // South 9 points, North 4 + 6 = 10.
    assert_eq!(o.winner, Some(side(&g, "North")));
}

#[test]
fn no_captured_stone_to_place_ends_the_round() {
    let g = game("ceelkoqyuqkoqiji");
    let st = Setup::new(&g)
        .put("east", "mu", 1)
        .unwrap()
        .put("n1", "lubasso", 4)
        .unwrap()
        .captured("North", "lubasso", 1)
        .unwrap()
        .build();
    assert_eq!(g.legal_notations(&st), vec!["decline"]);
}

#[test]
fn variants_set_their_options() {
    let g = game_with("ceelkoqyuqkoqiji", &[], Some("seven holes"));
    let st = g.start();
    assert_eq!(g.num_sites(), 16);
    assert_eq!(count(&g, &st, "s7", "lubasso"), 7);
    assert_eq!(g.piece_kind(ludic::PieceKind(1)).unwrap().value, 7);
    assert_eq!(g.piece_kind(ludic::PieceKind(2)).unwrap().value, 7);
    let g = game_with("ceelkoqyuqkoqiji", &[], Some("equal stones"));
    assert_eq!(
        (
            g.piece_kind(ludic::PieceKind(1)).unwrap().value,
            g.piece_kind(ludic::PieceKind(2)).unwrap().value
        ),
        (5, 5)
    );
}

#[test]
fn a_lap_of_both_large_stones_and_no_small_stone_is_ordered_by_the_sower() {
    // Rules file, 4: "A lap of both large stones and no small stone is ordered by the sower
    // too (decision)."
    let g = game("ceelkoqyuqkoqiji");
    let mut st = Setup::new(&g)
        .put("s1", "mu", 1)
        .unwrap()
        .put("s1", "gong", 1)
        .unwrap()
        .put("n3", "lubasso", 1)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s1", "ccw"]);
    assert_eq!(g.legal_notations(&st), vec!["mu@1", "mu@2"]);
    play(&g, &mut st, &["mu@2"]);
    // The gong takes the one step left: s2 the gong, s3 the mu.
    assert_eq!(count(&g, &st, "s2", "gong"), 1);
    assert_eq!(count(&g, &st, "s3", "mu"), 1);
}
