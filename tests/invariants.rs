//! Oracles that hold for every game: pieces are conserved after every decision, every generated
//! decision is legal, an illegal decision changes nothing, a record replays to the same state.

mod common;
use common::*;
use ludic::record::{Step, replay};
use ludic::{Decision, Pending};
use ludic::{Game, IllegalMove, State};

/// Plays one random game, checking the invariants after every step; returns the steps.
fn random_game(g: &Game, rng: &mut Lcg) -> (State, Vec<Step>) {
    let mut st = g.start();
    let start_totals = st.totals(g);
    let mut steps = vec![];
    let mut n = 0;
    loop {
        match st.pending() {
            Pending::Over(_) => break,
            Pending::ChanceFirst => {
                let outs = g.chance_outcomes(&st);
                let sum: f64 = outs.iter().map(|(_, p)| p).sum();
                assert!((sum - 1.0).abs() < 1e-9, "chance probabilities sum to 1");
                let o = outs[rng.below(outs.len())].0;
                steps.push(Step::Chance {
                    outcome: g.outcome_name(&st, o),
                });
                g.play_chance(&mut st, o).expect("a listed outcome");
            }
            _ => {
                let moves = st.moves().to_vec();
                assert!(!moves.is_empty(), "a pending decision has legal moves");
                // Notations are unique, so a record can name a decision.
                let names = g.legal_notations(&st);
                let mut sorted = names.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), names.len(), "duplicate notation in {names:?}");
                // An illegal decision is refused and changes nothing.
                let before = st.clone();
                let bogus = Decision::Alt {
                    alt: 250,
                    value: -7,
                };
                assert!(matches!(
                    g.play(&mut st, bogus),
                    Err(IllegalMove::NotLegal(_))
                ));
                assert_eq!(st, before);
                let d = moves[rng.below(moves.len())];
                steps.push(Step::Decision {
                    player: g.player_name(st.mover()).to_string(),
                    notation: g.notation_of(&st, d),
                });
                g.play(&mut st, d)
                    .expect("every generated decision is legal");
                assert_eq!(
                    st.totals(g),
                    start_totals,
                    "pieces conserved after decision {n}"
                );
                n += 1;
            }
        }
    }
    (st, steps)
}

fn playouts(g: &Game, n: usize, seed: u64) {
    let mut rng = Lcg(seed);
    let mut ended_by_rules = 0;
    for i in 0..n {
        let (st, steps) = random_game(g, &mut rng);
        let o = st.outcome().expect("over");
        if o.reason == ludic::EndReason::Rules {
            ended_by_rules += 1;
        }
        assert_ne!(o.reason, ludic::EndReason::StepLimit);
        // Every tenth game: the record replays to exactly the same state.
        if i % 10 == 0 {
            let again = replay(g, &steps).expect("the record replays");
            assert_eq!(again, st, "replay gives the same final state");
        }
    }
    assert!(
        ended_by_rules > n / 2,
        "most random games end by the rules, not the turn limit"
    );
}

#[test]
fn pallankuzhi_1000_random_playouts() {
    playouts(&game("pallankuzhi"), 1000, 1);
}

#[test]
fn pallankuzhi_options_random_playouts() {
    playouts(
        &game_with("pallankuzhi", &["seeds=4", "chogi=off", "muthu=off"], None),
        300,
        2,
    );
    playouts(&game_with("pallankuzhi", &["seeds=2"], None), 300, 3);
}

#[test]
fn ceelkoqyuqkoqiji_1000_random_playouts() {
    playouts(&game("ceelkoqyuqkoqiji"), 1000, 4);
}

#[test]
fn ceelkoqyuqkoqiji_seven_holes_1000_random_playouts() {
    playouts(
        &game_with("ceelkoqyuqkoqiji", &[], Some("seven holes")),
        1000,
        5,
    );
}

#[test]
fn ceelkoqyuqkoqiji_equal_stones_1000_random_playouts() {
    playouts(
        &game_with("ceelkoqyuqkoqiji", &[], Some("equal stones")),
        1000,
        6,
    );
}

#[test]
fn ceelkoqyuqkoqiji_small_boards_random_playouts() {
    playouts(
        &game_with("ceelkoqyuqkoqiji", &["holes=2", "stones=1"], None),
        300,
        7,
    );
    playouts(
        &game_with("ceelkoqyuqkoqiji", &["holes=3", "stones=2"], None),
        300,
        8,
    );
}

#[test]
fn a_relay_that_would_cycle_ends_the_turn_and_keeps_every_piece() {
    let src = std::fs::read_to_string("tests/fixtures/cycle.game").unwrap();
    let g = ludic::load_game(&src, &Default::default()).unwrap();
    let mut st = g.start();
    play(&g, &mut st, &["sow a"]);
    assert_eq!(st.cycles_cut(), 1);
    assert_eq!(g.player_name(st.mover()), "B", "the turn ended");
    assert_eq!(st.totals(&g), vec![2]);
    assert_eq!(
        captured(&g, &st, "A", "seed"),
        0,
        "no capture after a cycle"
    );
}

#[test]
fn the_turn_limit_ends_the_game_as_a_draw() {
    let g = game_with("pallankuzhi", &["max_turns=3"], None);
    let mut st = g.start();
    let mut decisions = 0;
    while !st.is_over() && decisions < 100 {
        let d = st.moves()[0];
        g.play(&mut st, d).unwrap();
        decisions += 1;
    }
    let o = st.outcome().expect("over after 3 turns");
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, ludic::EndReason::TurnLimit);
    assert_eq!(st.turn(), 3);
}

#[test]
fn moves_after_the_end_are_refused() {
    let g = game_with("pallankuzhi", &["max_turns=1"], None);
    let mut st = g.start();
    let d = st.moves()[0];
    g.play(&mut st, d).unwrap();
    assert!(st.is_over());
    let before = st.clone();
    assert_eq!(g.play(&mut st, d), Err(IllegalMove::GameOver));
    assert_eq!(st, before);
}

/// Random matches: pieces are conserved across every round, records replay whole matches.
fn matches(g: &Game, n: usize, seed: u64, min_mean_rounds: f64) {
    let mut rng = Lcg(seed);
    let mut rounds = 0u64;
    let mut max_round = 0;
    for i in 0..n {
        let (st, steps) = random_game(g, &mut rng);
        let o = st.outcome().expect("over");
        assert_ne!(o.reason, ludic::EndReason::StepLimit);
        assert!(st.round() >= 1);
        rounds += st.round() as u64;
        max_round = max_round.max(st.round());
        if i % 10 == 0 {
            let again = replay(g, &steps).expect("the record of a match replays");
            assert_eq!(again, st, "replaying a match gives the same final state");
        }
    }
    assert!(
        rounds as f64 / n as f64 >= min_mean_rounds,
        "matches last several rounds (mean {})",
        rounds as f64 / n as f64
    );
    assert!(max_round <= 100, "max_rounds ends a match");
}

#[test]
fn pallankuzhi_500_random_matches() {
    matches(
        &game_with("pallankuzhi", &["rounds=match", "max_rounds=100"], None),
        500,
        11,
        2.0,
    );
    matches(
        &game_with(
            "pallankuzhi",
            &[
                "rounds=match",
                "max_rounds=100",
                "pangu=off",
                "reduce=off",
                "chogi=off",
            ],
            None,
        ),
        200,
        12,
        // without pangu kaashi and reduced rounds, the poorer player (below half of the
        // chinni) cannot fill his holes: the match nearly always ends after one round
        1.0,
    );
}

#[test]
fn ceelkoqyuqkoqiji_500_random_matches() {
    matches(
        &game_with(
            "ceelkoqyuqkoqiji",
            &["rounds=match", "max_rounds=100"],
            None,
        ),
        500,
        13,
        2.0,
    );
}

#[test]
fn ceelkoqyuqkoqiji_seven_holes_500_random_matches() {
    matches(
        &game_with(
            "ceelkoqyuqkoqiji",
            &["rounds=match", "max_rounds=100"],
            Some("seven holes"),
        ),
        500,
        14,
        2.0,
    );
}
