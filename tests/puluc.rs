//! Puluc (../shared/rules/puluc.md): the worked example with forced throws, and each rule.

mod common;
use common::*;
use ludic::Pending;

fn south_first(g: &ludic::Game) -> ludic::State {
    let mut st = g.start();
    assert_eq!(st.pending(), Pending::ChanceFirst);
    g.play_chance(&mut st, 0).unwrap();
    st
}

#[test]
fn throw_chart_probabilities() {
    let g = game("puluc");
    let d = g.all_dice().next().unwrap();
    assert_eq!(d.outcomes.len(), 16);
    let p = |v: i64| {
        d.outcomes
            .iter()
            .filter(|o| o.0 == v)
            .map(|o| o.2)
            .sum::<f64>()
            * 16.0
    };
    assert_eq!([p(1), p(2), p(3), p(4), p(5)], [4.0, 6.0, 4.0, 1.0, 1.0]);
}

#[test]
fn worked_example() {
    let g = game("puluc");
    let mut st = south_first(&g);
    throw(&g, &mut st, 3);
    play(&g, &mut st, &["move c0"]);
    assert_eq!(stack(&g, &st, "c3"), "S");
    throw(&g, &mut st, 5);
    play(&g, &mut st, &["move c10"]);
    assert_eq!(stack(&g, &st, "c5"), "N");
    throw(&g, &mut st, 2);
    play(&g, &mut st, &["move c3"]);
    assert_eq!(
        stack(&g, &st, "c5"),
        "SN",
        "South on top of North: captured"
    );
    assert_eq!(stack(&g, &st, "c3"), "");
    throw(&g, &mut st, 1);
    play(&g, &mut st, &["move c10"]);
    assert_eq!(stack(&g, &st, "c9"), "N");
    throw(&g, &mut st, 5);
    play(&g, &mut st, &["move c5"]);
    assert_eq!(stack(&g, &st, "c5"), "");
    assert_eq!(stack(&g, &st, "c0"), "SSSSS", "South's piece is home again");
    assert_eq!(in_area(&g, &st, "North", "killed"), 1, "North has 4 left");
    assert_eq!(stack(&g, &st, "c10").len() + stack(&g, &st, "c9").len(), 4);
}

#[test]
fn own_piece_blocks_and_no_move_passes() {
    let g = game("puluc");
    let mut st = south_first(&g);
    throw(&g, &mut st, 2);
    play(&g, &mut st, &["move c0"]);
    throw(&g, &mut st, 1);
    play(&g, &mut st, &["move c10"]);
    // South throws 2 again: entering would land on his own piece at c2; only c2 can move.
    throw(&g, &mut st, 2);
    assert_eq!(g.legal_notations(&st), vec!["move c2"]);
}

#[test]
fn retaking_a_stack_puts_the_mover_on_top() {
    let g = game("puluc");
    let mut st = south_first(&g);
    throw(&g, &mut st, 4);
    play(&g, &mut st, &["move c0"]); // S at c4
    throw(&g, &mut st, 5);
    play(&g, &mut st, &["move c10"]); // N at c5
    throw(&g, &mut st, 1);
    play(&g, &mut st, &["move c4"]); // S takes c5: SN
    throw(&g, &mut st, 3);
    play(&g, &mut st, &["move c10"]); // N at c7
    throw(&g, &mut st, 2);
    play(&g, &mut st, &["move c5"]); // the stack SN lands on N at c7: S N N
    assert_eq!(stack(&g, &st, "c7"), "SNN");
    // North enters on c7 from 10 - 3 = 7 and retakes: N S N N.
    throw(&g, &mut st, 3);
    play(&g, &mut st, &["move c10"]);
    assert_eq!(stack(&g, &st, "c7"), "NSNN");
    // North controls the stack now; South can only enter from his home pile.
    throw(&g, &mut st, 1);
    assert_eq!(g.legal_notations(&st), vec!["move c0"]);
}

#[test]
fn a_player_with_nothing_to_move_loses() {
    let g = game("puluc");
    // South's only piece is a prisoner under North at c4; the rest are killed.
    let mut b = ludic::setup::Setup::new(&g)
        .token("South", "piece", "c4")
        .unwrap()
        .token("North", "piece", "c4")
        .unwrap()
        .token("North", "piece", "c10")
        .unwrap();
    for _ in 0..4 {
        b = b.token_in("South", "piece", "killed").unwrap();
    }
    let st = b.build();
    assert_eq!(
        st.outcome().map(|o| o.winner),
        Some(Some(side(&g, "North")))
    );
}

#[test]
fn pieces_are_conserved_in_random_games() {
    let g = game("puluc");
    let mut rng = Lcg(7);
    for _ in 0..1000 {
        let mut st = g.start();
        while !st.is_over() {
            random_step(&g, &mut st, &mut rng);
            for p in ["South", "North"] {
                let on_board: usize = (0..g.num_tokens())
                    .filter(|&t| {
                        g.player_name(g.token(t).unwrap().owner) == p
                            && st.tokens().site_of(t).is_some()
                    })
                    .count();
                assert_eq!(
                    on_board + in_area(&g, &st, p, "killed"),
                    5,
                    "on board + killed = 5"
                );
            }
        }
    }
}

#[test]
fn a_game_won_on_the_last_allowed_turn_is_won() {
    // North's last piece on the board is taken by South's move on the last allowed turn: at
    // North's turn he controls nothing and has lost; the limit does not make it a draw.
    let g = game_with("puluc", &["max_turns=1"], None);
    let build = |north_left: usize| {
        let mut b = ludic::setup::Setup::new(&g)
            .token("South", "piece", "c3")
            .unwrap()
            .token("North", "piece", "c5")
            .unwrap();
        for _ in 0..north_left {
            b = b.token("North", "piece", "c10").unwrap();
        }
        for _ in 0..4 {
            b = b.token("South", "piece", "c0").unwrap();
        }
        for _ in north_left..4 {
            b = b.token_in("North", "piece", "killed").unwrap();
        }
        b.build()
    };
    let mut st = build(0);
    throw(&g, &mut st, 2);
    play(&g, &mut st, &["move c3"]);
    let o = st.outcome().expect("over");
    assert_eq!(
        (o.reason, o.winner),
        (ludic::EndReason::Rules, Some(side(&g, "South")))
    );
    // With a piece left at home North could go on: the limit makes it a draw.
    let mut st = build(1);
    throw(&g, &mut st, 2);
    play(&g, &mut st, &["move c3"]);
    let o = st.outcome().expect("over");
    assert_eq!((o.reason, o.winner), (ludic::EndReason::TurnLimit, None));
}
