//! Pallankuzhi (../shared/rules/pallankuzhi.md): the worked example and each rule.

mod common;
use common::*;
use ludic::setup::Setup;

const ALL: [&str; 14] = [
    "s7", "s6", "s5", "s4", "s3", "s2", "s1", "n7", "n6", "n5", "n4", "n3", "n2", "n1",
];

#[test]
fn worked_example_relay_and_capture_with_opposite() {
    let g = game("pallankuzhi");
    let mut st = g.start();
    assert_eq!(
        g.legal_notations(&st).len(),
        6,
        "six regular holes to sow from"
    );
    play(&g, &mut st, &["sow s7"]);
    assert_eq!(
        board(&g, &st, &ALL),
        "s7=0 s6=15 s5=15 s4=3 s3=15 s2=15 s1=15 n7=15 n6=15 n5=15 n4=3 n3=15 n2=0 n1=0"
    );
    assert_eq!(captured(&g, &st, "South", "chinni"), 3);
    assert_eq!(g.player_name(st.mover()), "North");
}

#[test]
fn kaashi_is_never_a_starting_hole() {
    let g = game("pallankuzhi");
    let st = Setup::new(&g)
        .put("s4", "chinni", 5)
        .unwrap()
        .put("s1", "chinni", 2)
        .unwrap()
        .build();
    assert_eq!(g.legal_notations(&st), vec!["sow s1"]);
}

#[test]
fn lap_ending_before_a_kaashi_ends_the_turn() {
    // s6 (1 chinni) sows into s5; the next hole s4 is a kaashi: the turn ends, nothing taken.
    let g = game("pallankuzhi");
    let mut st = Setup::new(&g)
        .put("s6", "chinni", 1)
        .unwrap()
        .put("s4", "chinni", 7)
        .unwrap()
        .put("s3", "chinni", 2)
        .unwrap()
        .put("n1", "chinni", 1)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s6"]);
    assert_eq!(
        board(&g, &st, &["s6", "s5", "s4", "s3"]),
        "s6=0 s5=1 s4=7 s3=2"
    );
    assert_eq!(captured(&g, &st, "South", "chinni"), 0);
}

#[test]
fn empty_hole_then_unwon_kaashi_wins_it_and_it_becomes_a_store() {
    // s7 (1) sows into s6; s5 is empty; s4 is an unwon kaashi with 5: South wins it.
    let g = game("pallankuzhi");
    let mut st = Setup::new(&g)
        .put("s7", "chinni", 1)
        .unwrap()
        .put("s4", "chinni", 5)
        .unwrap()
        .put("s1", "chinni", 3)
        .unwrap()
        .put("n2", "chinni", 2)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s7"]);
    assert_eq!(captured(&g, &st, "South", "chinni"), 5);
    let s4 = site(&g, "s4");
    assert_eq!(st.site_kind(s4), ludic::SiteKind::Store);
    assert_eq!(st.site_owner(s4), Some(side(&g, "South")));
    // North now sows through s4: the chinni falling into it goes at once to South.
    // n2 (2): n1, s7. Last in s7; s6 holds 1: relay from s5... keep it simple: check s4 stays empty.
    play(&g, &mut st, &["sow n2"]);
    assert_eq!(st.total_at(&g, s4), 0);
}

#[test]
fn won_kaashi_collects_sown_chinni_for_its_winner() {
    let g = game("pallankuzhi");
    let mut st = Setup::new(&g)
        .kind("n4", "store")
        .unwrap()
        .owner("n4", Some("South"))
        .unwrap()
        .put("n6", "chinni", 3)
        .unwrap()
        .put("s1", "chinni", 1)
        .unwrap()
        .mover("North")
        .unwrap()
        .build();
    // North sows n6 (3): n5, n4 (won by South: goes to South), n3. Next n2 is empty, n1 empty: nothing.
    play(&g, &mut st, &["sow n6"]);
    assert_eq!(captured(&g, &st, "South", "chinni"), 1);
    assert_eq!(
        board(&g, &st, &["n6", "n5", "n4", "n3"]),
        "n6=0 n5=1 n4=0 n3=1"
    );
}

#[test]
fn won_kaashi_is_not_taken_again() {
    // The last chinni falls in s6, s5 is empty, s4 a kaashi already won: nothing is taken.
    let g = game("pallankuzhi");
    let mut st = Setup::new(&g)
        .kind("s4", "store")
        .unwrap()
        .owner("s4", Some("North"))
        .unwrap()
        .put("s7", "chinni", 1)
        .unwrap()
        .put("s1", "chinni", 1)
        .unwrap()
        .put("n1", "chinni", 1)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s7"]);
    assert_eq!(captured(&g, &st, "South", "chinni"), 0);
    assert_eq!(captured(&g, &st, "North", "chinni"), 0);
}

#[test]
fn chogi_off_leaves_one_chinni_in_a_won_kaashi() {
    let g = game_with("pallankuzhi", &["chogi=off"], None);
    let mut st = Setup::new(&g)
        .put("s7", "chinni", 1)
        .unwrap()
        .put("s4", "chinni", 5)
        .unwrap()
        .put("s1", "chinni", 3)
        .unwrap()
        .put("n2", "chinni", 2)
        .unwrap()
        .build();
    play(&g, &mut st, &["sow s7"]);
    assert_eq!(captured(&g, &st, "South", "chinni"), 4);
    assert_eq!(count(&g, &st, "s4", "chinni"), 1);
}

#[test]
fn muthu_may_be_collected_before_sowing_and_the_turn_goes_on() {
    let g = game("pallankuzhi");
    let mut st = Setup::new(&g)
        .put("s2", "chinni", 6)
        .unwrap()
        .put("s3", "chinni", 6)
        .unwrap()
        .put("s6", "chinni", 2)
        .unwrap()
        .put("n3", "chinni", 6)
        .unwrap()
        .build();
    let legal = g.legal_notations(&st);
    assert!(legal.contains(&"collect s2".to_string()) && legal.contains(&"collect s3".to_string()));
    assert!(
        !legal.contains(&"collect n3".to_string()),
        "only the mover's own muthu"
    );
    play(&g, &mut st, &["collect s2"]);
    assert_eq!(captured(&g, &st, "South", "chinni"), 6);
    assert_eq!(
        g.player_name(st.mover()),
        "South",
        "collecting does not end the turn"
    );
    assert!(g.legal_notations(&st).contains(&"collect s3".to_string()));
    // With muthu off there is nothing to collect.
    let g2 = game_with("pallankuzhi", &["muthu=off"], None);
    let st2 = Setup::new(&g2)
        .put("s2", "chinni", 6)
        .unwrap()
        .put("n3", "chinni", 1)
        .unwrap()
        .build();
    assert_eq!(g2.legal_notations(&st2), vec!["sow s2"]);
}

#[test]
fn round_ends_when_the_mover_cannot_sow_and_holes_go_to_their_owners() {
    let g = game("pallankuzhi");
    let st = Setup::new(&g)
        .put("n1", "chinni", 4)
        .unwrap()
        .put("n4", "chinni", 9)
        .unwrap() // an unwon kaashi: its chinni stay
        .captured("South", "chinni", 10)
        .unwrap()
        .build();
    let o = st.outcome().expect("the game is over");
    assert_eq!(captured(&g, &st, "North", "chinni"), 4);
    assert_eq!(count(&g, &st, "n4", "chinni"), 9);
    assert_eq!(o.winner, Some(side(&g, "South")));
}

#[test]
fn seeds_option_must_be_even_and_in_range() {
    let (_, src) = ludic::builtin::find("pallankuzhi").unwrap();
    let mut s = ludic::Settings::default();
    s.push_assignment("seeds=7").unwrap();
    // an option value that breaks a requirement is the user's error, naming the option
    assert_eq!(
        ludic::load_game(src, &s).err(),
        Some(ludic::LoadError::Options(vec![
            "option `seeds` = 7 breaks a requirement of the game: `seeds` must be even".into()
        ]))
    );
    let mut s = ludic::Settings::default();
    s.push_assignment("seeds=60").unwrap();
    assert_eq!(
        ludic::load_game(src, &s).err(),
        Some(ludic::LoadError::Options(vec![
            "option `seeds` = 60 is out of range 2..40".into()
        ]))
    );
    let g = game_with("pallankuzhi", &["seeds=4"], None);
    let st = g.start();
    assert_eq!(count(&g, &st, "s1", "chinni"), 4);
    assert_eq!(count(&g, &st, "s4", "chinni"), 0);
}

#[test]
fn collecting_the_last_chinni_ends_the_round() {
    // Rules file: "collecting does not end his turn" and "The round ends when the player to
    // move has no chinni in his regular holes". South's only chinni are a muthu in s3: once
    // he collects it, the round is over (one round: the game ends), North does not sow on.
    let g = game("pallankuzhi");
    let mut st = Setup::new(&g)
        .put("s3", "chinni", 6)
        .unwrap()
        .put("n2", "chinni", 5)
        .unwrap()
        .put("n6", "chinni", 1)
        .unwrap()
        .build();
    assert_eq!(g.legal_notations(&st), vec!["collect s3", "sow s3"]);
    play(&g, &mut st, &["collect s3"]);
    let o = st.outcome().expect("the round, here the game, is over");
    // South holds his 6, North takes the 6 left in his holes: equal, a draw.
    assert_eq!(captured(&g, &st, "South", "chinni"), 6);
    assert_eq!(captured(&g, &st, "North", "chinni"), 6);
    assert_eq!(o.winner, None);

    // The reported game (a copy of ../shared/repro/pallankuzhi-collect-last.json): step 17 is South collecting s3, his last chinni;
    // the record's step 18 (North sows n6) is now after the end of the game.
    let rec: ludic::record::Record = serde_json::from_str(include_str!(
        "fixtures/records/pallankuzhi-collect-last.json"
    ))
    .unwrap();
    let err = ludic::record::replay(&g, &rec.steps).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the record ends with steps after the end of the game (step 18)"
    );
    let st = ludic::record::replay(&g, &rec.steps[..17]).unwrap();
    assert!(st.is_over());
}

#[test]
fn again_makes_the_tests_before_the_choice_again() {
    // The general mechanism behind the rule above, in a small game of its own: the test
    // before the choice ends the game as soon as the mover's row is empty, also after `again`.
    let src = r#"
game "Again" { }
option max_turns = 100 in 1..1000
sides South North
limit max_turns turns
board {
  row s[1..3] at y 0 owner South
  row n[3..1] at y 1 owner North
  ring s[1..3] n[1..3] forward ccw backward cw
}
pieces { stone }
start { place 1 stone on all }
def mine(h) = owner(h) == mover and count(h) > 0
turn {
  let left = size((h where mine(h)))
  if left == 0 { end game winner opponent }
  choose take h where mine(h) { capture h  again }
}
"#;
    let g = ludic::load_game(src, &Default::default()).unwrap();
    let mut st = g.start();
    play(&g, &mut st, &["take s1", "take s2", "take s3"]);
    let o = st
        .outcome()
        .expect("the test before the choice ran again after `again`");
    assert_eq!(o.winner, Some(side(&g, "North")));
}

#[test]
fn a_decision_is_narrated_by_the_events_of_the_rules() {
    // The worked example's first sowing: s7 sown, relayed twice, then the turn ends.
    let g = game("pallankuzhi");
    let mut st = g.start();
    let d = g.parse_decision(&st, "sow s7").unwrap();
    let events = g.play_narrated(&mut st, d).unwrap();
    let laps: Vec<(String, u32, bool)> = events
        .iter()
        .filter_map(|e| match e {
            ludic::Event::Lap {
                from,
                pieces,
                relay,
                ..
            } => Some((g.site_name(*from).to_string(), *pieces, *relay)),
            _ => None,
        })
        .collect();
    assert_eq!(
        laps,
        vec![
            ("s7".to_string(), 12, false),
            ("n1".to_string(), 12, true),
            ("n2".to_string(), 13, true)
        ]
    );
    // A playout records nothing.
    let mut st = g.start();
    g.play(&mut st, d).unwrap();
    let mut again = g.start();
    assert_eq!(g.play_narrated(&mut again, d).unwrap().len(), events.len());
}
