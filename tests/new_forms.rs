//! The forms of issue 14 (part A), each on its fixture game: `another turn`
//! (tests/fixtures/another_turn.game), `limit N moves then end game` (move_limit.game), typed
//! `none` (typed_none.game), `sown` and `some x from s toward d where …`
//! (sowing_details.game), and type errors reported at the call. Each: positions built by hand
//! with their exact results, and random playouts checked against the invariants (pieces
//! conserved, every generated decision legal, notations distinct, records replaying).

mod common;
use common::*;
use ludic::Pending;
use ludic::diagnostic::Diagnostics;
use ludic::record::{Step, replay};
use ludic::setup::Setup;
use ludic::{EndReason, Game, LoadError, Settings, State, load_game};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}.game",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn load(src: &str) -> Game {
    load_game(src, &Settings::default()).unwrap_or_else(|e| panic!("does not load: {e:?}"))
}

fn load_with(src: &str, options: &[&str]) -> Game {
    let mut s = Settings::default();
    for o in options {
        s.push_assignment(o).unwrap();
    }
    load_game(src, &s).unwrap_or_else(|e| panic!("does not load: {e:?}"))
}

fn errors(src: &str) -> Diagnostics {
    match load_game(src, &Settings::default()) {
        Err(LoadError::File(d)) => d,
        other => panic!("expected errors, got {other:?}"),
    }
}

fn mover(g: &Game, st: &State) -> String {
    g.player_name(st.mover()).to_string()
}

/// Random playouts checked after every step: pieces conserved, notations distinct, every
/// generated decision legal; every fifth game's record replays to the same state. Returns how
/// many games ended by each reason.
fn playouts(g: &Game, n: usize, seed: u64) -> std::collections::BTreeMap<&'static str, usize> {
    let mut rng = Lcg(seed);
    let mut ended = std::collections::BTreeMap::new();
    for i in 0..n {
        let mut st = g.start();
        let totals = st.totals(g);
        let mut steps = vec![];
        while !st.is_over() {
            assert!(steps.len() < 100_000, "a game that does not end");
            if let Pending::ChanceFirst | Pending::Throw(_) = st.pending() {
                let outs = g.chance_outcomes(&st);
                let o = outs[rng.below(outs.len())].0;
                steps.push(Step::Chance {
                    outcome: g.outcome_name(&st, o),
                });
                g.play_chance(&mut st, o).unwrap();
                continue;
            }
            let names = g.legal_notations(&st);
            let mut distinct = names.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), names.len(), "notations {names:?}");
            let d = st.moves()[rng.below(st.moves().len())];
            steps.push(Step::Decision {
                player: g.player_name(st.mover()).to_string(),
                notation: g.notation_of(&st, d),
            });
            g.play(&mut st, d).expect("a generated decision is legal");
            assert_eq!(st.totals(g), totals, "pieces conserved");
        }
        let o = st.outcome().unwrap();
        assert_ne!(o.reason, EndReason::StepLimit);
        assert!(!matches!(o.reason, EndReason::Fault(_)), "{o:?}");
        *ended.entry(o.reason.code()).or_default() += 1;
        if i % 5 == 0 {
            assert_eq!(replay(g, &steps).expect("the record replays"), st);
        }
    }
    ended
}

// ------------------------------------------------------------------ another turn

#[test]
fn another_turn_plays_kalah_as_offering_the_choice_again_did() {
    // Lockstep: the same random decision in both, the same legal decisions and positions after
    // each; a turn more for each time a last seed fell into the sower's store.
    let with_again = load(&fixture("kalah"));
    let with_another = load(&fixture("another_turn"));
    let mut sites: Vec<&str> = with_again.all_sites().map(|s| s.name).collect();
    sites.sort(); // (in the order of their names, as the site index kept them)
    let mut rng = Lcg(14);
    let mut extra_turns = 0;
    for _ in 0..300 {
        let (mut a, mut b) = (with_again.start(), with_another.start());
        while !a.is_over() {
            assert_eq!(
                with_again.legal_notations(&a),
                with_another.legal_notations(&b)
            );
            assert_eq!(mover(&with_again, &a), mover(&with_another, &b));
            let i = rng.below(a.moves().len());
            let (da, db) = (a.moves()[i], b.moves()[i]);
            with_again.play(&mut a, da).unwrap();
            with_another.play(&mut b, db).unwrap();
            assert_eq!(
                board(&with_again, &a, &sites),
                board(&with_another, &b, &sites)
            );
            for side in ["South", "North"] {
                assert_eq!(
                    captured(&with_again, &a, side, "seed"),
                    captured(&with_another, &b, side, "seed")
                );
            }
        }
        assert_eq!(a.outcome(), b.outcome());
        assert!(b.turn() >= a.turn());
        extra_turns += b.turn() - a.turn();
    }
    assert!(extra_turns > 300, "stores are reached often: {extra_turns}");
}

#[test]
fn another_turn_gives_the_same_player_the_next_turn() {
    let g = load(&fixture("another_turn"));
    let mut st = g.start();
    // s3's four seeds: s4 s5 s6 and the store: South plays again, in a new turn
    play(&g, &mut st, &["sow s3"]);
    assert_eq!(mover(&g, &st), "South");
    assert_eq!(st.turn(), 1);
    assert_eq!(captured(&g, &st, "South", "seed"), 1);
    // s1's four seeds end in s5: North's turn
    play(&g, &mut st, &["sow s1"]);
    assert_eq!(mover(&g, &st), "North");
    assert_eq!(st.turn(), 2);
    // the capture check after `another turn` still runs: the turn goes on to its end
    assert_eq!(board(&g, &st, &["s1", "s2", "s5"]), "s1=0 s2=5 s5=6");
}

const COUNTERS: &str = r#"
game "Counters" { }
sides A B
board { row c[1..3] at y 0 }
pieces { stone }
start { place 1 stone on all  first A }
"#;

#[test]
fn another_turn_for_ever_ends_at_the_turn_limit_or_the_work_limit() {
    // each turn a decision and another turn: the turn limit ends it, A played every turn
    let g = load(&format!(
        "{COUNTERS}limit 5 turns\nturn {{ choose pick h where count(h) > 0 {{ another turn }} }}"
    ));
    let mut st = g.start();
    let mut decisions = 0;
    while !st.is_over() {
        assert_eq!(mover(&g, &st), "A");
        let d = st.moves()[0];
        g.play(&mut st, d).unwrap();
        decisions += 1;
    }
    assert_eq!(decisions, 5);
    assert_eq!(st.outcome().unwrap().reason, EndReason::TurnLimit);
    assert_eq!(st.turn(), 5);
    // turns without a decision: the work between two decisions is bounded
    let g = load(&format!("{COUNTERS}limit 5 turns\nturn {{ another turn }}"));
    let st = g.start();
    assert_eq!(st.outcome().unwrap().reason, EndReason::StepLimit);
}

#[test]
fn another_turn_fixture_random_playouts() {
    let ended = playouts(&load(&fixture("another_turn")), 300, 21);
    assert_eq!(ended.get("rules"), Some(&300));
}

// ------------------------------------------------------------------ limit N moves

#[test]
fn the_move_limit_counts_decisions_and_scores_the_game() {
    let g = load(&fixture("move_limit"));
    let mut st = g.start();
    assert_eq!(
        board(&g, &st, &["h1", "h2", "h3", "h4", "h5"]),
        "h1=1 h2=2 h3=3 h4=4 h5=5"
    );
    // South takes 5, North 4, South 1 (and takes again) then 3: four decisions in three turns
    play(&g, &mut st, &["take h5", "take h4", "take h1"]);
    assert!(!st.is_over());
    assert_eq!(mover(&g, &st), "South", "a single seed: take again");
    play(&g, &mut st, &["take h3"]);
    let o = st.outcome().expect("over after four decisions");
    assert_eq!(o.reason, EndReason::MoveLimit);
    assert_eq!(o.winner, Some(side(&g, "South")), "scored: 9 against 4");
    assert_eq!(
        st.turn(),
        3,
        "four decisions in three turns; the limit ended the fourth"
    );
    assert_eq!(
        ludic::render::outcome_text(&g, o),
        "South wins (the move limit of 4 was reached)"
    );
    assert_eq!(ludic::render::outcome_json(&g, o)["reason"], "move_limit");
}

#[test]
fn a_win_by_the_rules_at_the_limit_is_a_win_by_the_rules() {
    // five decisions empty the board; the next turn's test ends the game before the limit
    let g = load_with(&fixture("move_limit"), &["max_moves=5"]);
    let mut st = g.start();
    play(
        &g,
        &mut st,
        &["take h1", "take h2", "take h3", "take h4", "take h5"],
    );
    let o = st.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Rules);
    assert_eq!(o.winner, Some(side(&g, "North")), "South 1+2+4, North 3+5");
}

#[test]
fn what_reaching_a_limit_means() {
    let src = fixture("move_limit");
    let with = |limit: &str| load(&src.replace("limit max_moves moves then end game", limit));
    let outcome = |g: &Game, moves: &[&str]| {
        let mut st = g.start();
        play(g, &mut st, moves);
        st.outcome().expect("over")
    };
    // a limit without `then` is a draw
    let o = outcome(&with("limit 2 moves"), &["take h5", "take h4"]);
    assert_eq!((o.winner, o.reason), (None, EndReason::MoveLimit));
    // a turn limit can be scored too
    let g = with("limit 2 turns then end game");
    assert_eq!(g.move_limit(), None);
    let o = outcome(&g, &["take h5", "take h4"]);
    assert_eq!(
        (o.winner, o.reason),
        (Some(side(&g, "South")), EndReason::TurnLimit)
    );
    // or name a winner; and `end game draw` is a draw
    let g = with("limit 1 moves then end game winner North");
    let o = outcome(&g, &["take h5"]);
    assert_eq!(
        (o.winner, o.reason),
        (Some(side(&g, "North")), EndReason::MoveLimit)
    );
    let o = outcome(&with("limit 1 moves then end game draw"), &["take h5"]);
    assert_eq!(o.winner, None);
    // both limits: the first reached ends the game (the turn limit when both are reached at
    // once): two decisions in one turn, or two turns of one decision
    let g = with("limit 2 turns\nlimit 2 moves then end game");
    let o = outcome(&g, &["take h1", "take h2"]);
    assert_eq!(
        (o.winner, o.reason),
        (Some(side(&g, "South")), EndReason::MoveLimit)
    );
    let o = outcome(&g, &["take h5", "take h4"]);
    assert_eq!((o.winner, o.reason), (None, EndReason::TurnLimit));
}

#[test]
fn move_limit_fixture_random_playouts() {
    let g = load_with(&fixture("move_limit"), &["max_moves=100"]);
    assert_eq!(playouts(&g, 300, 22).get("rules"), Some(&300));
    let g = load(&fixture("move_limit"));
    assert_eq!(playouts(&g, 300, 23).get("move_limit"), Some(&300));
}

// ------------------------------------------------------------------ typed none

#[test]
fn none_takes_its_type_from_its_use() {
    let g = load(&fixture("typed_none"));
    // n3 and n2 both hold 5: the first of them in the loop's order (n3 is declared first) is
    // the fullest; South's single seed falls into the empty s2
    let st = Setup::new(&g)
        .put("s1", "seed", 1)
        .unwrap()
        .put("n1", "seed", 2)
        .unwrap()
        .put("n2", "seed", 5)
        .unwrap()
        .put("n3", "seed", 5)
        .unwrap()
        .mover("South")
        .unwrap()
        .build();
    let mut st = st;
    play(&g, &mut st, &["sow s1"]);
    assert_eq!(captured(&g, &st, "South", "seed"), 5);
    assert_eq!(board(&g, &st, &["n1", "n2", "n3"]), "n1=2 n2=5 n3=0");
}

#[test]
fn an_annotated_none_is_a_player() {
    let g = load(&fixture("typed_none"));
    let end = |south: u32, north: u32| {
        let st = Setup::new(&g)
            .put("n1", "seed", 1)
            .unwrap()
            .captured("South", "seed", south)
            .unwrap()
            .captured("North", "seed", north)
            .unwrap()
            .mover("South")
            .unwrap()
            .build();
        st.outcome().expect("South has nothing to sow").winner
    };
    assert_eq!(end(3, 1), Some(side(&g, "South")));
    assert_eq!(end(1, 3), Some(side(&g, "North")));
    assert_eq!(end(2, 2), None, "`leader` stays none: a draw");
}

#[test]
fn none_is_typed_by_its_later_use_or_its_annotation() {
    let game = |turn: &str| format!("{COUNTERS}limit 9 turns\nturn {{ {turn} }}");
    // a site: before, `none` silently became a player and `set` said "expected a player"
    load(&game("let x = none  for h in all { set x = h }  capture x"));
    load(&game("let x: site = none  if x == none { end turn }"));
    load(&game("let p = none  if p == mover { end turn }"));
    load(&game(
        "let t = if count(c1) > 0 then c1 else none  capture t",
    ));
    load(&game("let x = none  let y = x  set y = c1  capture x"));
    // a site, then a player
    let d = errors(&game("let x = none  set x = c1  set x = A"));
    assert_eq!(d.0[0].to_string(), "expected a site, found a player");
    // never said
    let d = errors(&game("let x = none  if x == none { end turn }"));
    assert_eq!(d.0.len(), 1);
    assert_eq!(d.0[0].code(), "unknown-type");
    assert_eq!(
        d.0[0].hint.as_deref(),
        Some("say what it stands for: `let x: site = none` (or `player`, `token`, `area`)")
    );
    // an annotation that the value contradicts
    let d = errors(&game("let n: number = c1"));
    assert_eq!(d.0[0].to_string(), "expected a number, found a site");
}

#[test]
fn typed_none_fixture_random_playouts() {
    let ended = playouts(&load(&fixture("typed_none")), 300, 24);
    assert!(ended.get("rules").copied().unwrap_or(0) > 250, "{ended:?}");
}

// ------------------------------------------------------------------ sowing details

fn laps_position(g: &Game, counts: &[(&str, u32)], to_move: &str) -> State {
    let mut s = Setup::new(g);
    for &(site, n) in counts {
        s = s.put(site, "seed", n).unwrap();
    }
    s.mover(to_move).unwrap().build()
}

#[test]
fn the_first_site_along_the_ring_in_the_direction_of_sowing() {
    let g = load(&fixture("sowing_details"));
    let holes = ["n1", "n2", "n3", "n4", "n5"];
    let start = [("s1", 3), ("n1", 3), ("n2", 3), ("n5", 3), ("s5", 1)];
    // ccw: s2 s3 s4, 3 sown; from s4 on: s4 s5 n1 — n1 (n5, declared first, is not the first
    // along the ring)
    let mut st = laps_position(&g, &start, "South");
    play(&g, &mut st, &["sow s1", "ccw"]);
    assert_eq!(captured(&g, &st, "South", "seed"), 3);
    assert_eq!(board(&g, &st, &holes), "n1=0 n2=3 n3=0 n4=0 n5=3");
    // cw: n5 n4 n3 (n5 now holds 4); from n3 on backwards: n3 n2 — n2
    let mut st = laps_position(&g, &start, "South");
    play(&g, &mut st, &["sow s1", "cw"]);
    assert_eq!(captured(&g, &st, "South", "seed"), 3);
    assert_eq!(board(&g, &st, &holes), "n1=3 n2=0 n3=1 n4=1 n5=4");
}

#[test]
fn sown_is_the_last_lap() {
    let g = load(&fixture("sowing_details"));
    // s1's 2 seeds: s2, s3 (now 3, South's: relay); s3's 3 seeds: s4 s5 n1. The last lap
    // sowed 3: n2 (3) is captured, not n3 (2, as the first lap sowed)
    let mut st = laps_position(&g, &[("s1", 2), ("s3", 2), ("n2", 3), ("n3", 2)], "South");
    play(&g, &mut st, &["sow s1", "ccw"]);
    assert_eq!(captured(&g, &st, "South", "seed"), 3);
    assert_eq!(
        board(&g, &st, &["s3", "n1", "n2", "n3"]),
        "s3=0 n1=1 n2=0 n3=2"
    );
    // round the ring from the last hole: n4 (North's own), n5, then s1 (2), s2 (1, as sown)
    let mut st = laps_position(&g, &[("n3", 1), ("s1", 2), ("s2", 1)], "North");
    play(&g, &mut st, &["sow n3", "ccw"]);
    assert_eq!(captured(&g, &st, "North", "seed"), 1, "s2 holds 1, as sown");
    assert_eq!(board(&g, &st, &["s1", "s2"]), "s1=2 s2=0");
}

#[test]
fn sowing_details_fixture_random_playouts() {
    let ended = playouts(&load(&fixture("sowing_details")), 300, 25);
    assert!(ended.get("rules").copied().unwrap_or(0) > 250, "{ended:?}");
}

// ------------------------------------------------------------------ type errors at the call

#[test]
fn a_type_error_in_an_argument_is_reported_at_the_call() {
    let src = format!(
        "{COUNTERS}limit 9 turns\ndef full(h) = count(h) > 0\ndef any(p) = full(p)\n\
         turn {{ if any(A) {{ end turn }} }}"
    );
    let d = errors(&src);
    assert_eq!(d.len(), 1, "{d:?}");
    let e = &d.0[0];
    let text = |s: ludic::diagnostic::Span| &src[s.start..s.end];
    assert_eq!(e.to_string(), "expected a site, found a player");
    assert_eq!(text(e.span), "A", "at the argument of the call");
    let notes: Vec<(&str, &str)> = e
        .notes
        .iter()
        .map(|n| (text(n.span), n.text.as_str()))
        .collect();
    assert_eq!(
        notes,
        [
            ("p", "in `any`, `p` is passed on here"),
            ("h", "in `full`, `h` is used as a site here"),
        ]
    );
    // an error of the body itself stays in the body, once
    let src = format!(
        "{COUNTERS}limit 9 turns\ndef bad(h) = count(A) > 0 and count(h) > 0\n\
         turn {{ if bad(c1) or bad(c2) {{ end turn }} }}"
    );
    let d = errors(&src);
    assert_eq!(d.len(), 1);
    assert!(d.0[0].notes.is_empty());
    assert_eq!(&src[d.0[0].span.start..d.0[0].span.end], "A");
}
