//! The language's mechanisms of issue 14 (part B), each on its fixture game
//! (`tests/fixtures/mechanisms/`) and on constructed positions: tallies per site, the lines of a
//! board, the history of positions (`repeated`, `forget positions`), and `leaving` conditions.
//! Random playouts of each fixture check the invariants (every decision generated is legal, an
//! illegal one changes nothing, counters are conserved, a record replays to the same state), and
//! the hash of the position kept up to date by every change equals the hash computed from
//! scratch, in the fixtures and in every built-in game with `repeated` added to its rules.

mod common;
use common::*;
use ludic::record::{Step, replay};
use ludic::setup::Setup;
use ludic::{Decision, Pending, SiteId};
use ludic::{EndReason, Game, IllegalMove, Settings, State, load_game};

fn fixture(name: &str) -> Game {
    let path = format!("tests/fixtures/mechanisms/{name}.game");
    let src = std::fs::read_to_string(&path).unwrap();
    load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn source(src: &str) -> Game {
    load_game(src, &Settings::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn legal(g: &Game, st: &State) -> Vec<String> {
    let mut v = g.legal_notations(st);
    v.sort();
    v
}

fn site_tally(g: &Game, st: &State, name: &str, s: &str) -> i64 {
    st.site_tally(g, name, site(g, s))
        .expect("a per site tally")
}

/// The sites where a `per site` tally is not 0, with its values.
fn site_tallies(g: &Game, st: &State, name: &str) -> String {
    st.site_tally_words(g, name).expect("tally")
}

// ------------------------------------------------------------------ tallies per site

#[test]
fn a_tally_per_site_starts_at_its_value_and_is_read_and_set_by_site() {
    let g = source(
        r#"
game "Marks" {}
sides A B
limit 4 turns
board { row c[1..3] at y 0 kind cell }
pieces { man }
tally marked per site = 2
turn {
  choose mark h where marked(h) > 0 {
    set marked(h) = marked(h) - 1
    set marked(next_to(h)) = 7
  }
}
def next_to(h) = if h == c3 then c1 else h
"#,
    );
    let st = g.start();
    assert_eq!(site_tallies(&g, &st, "marked"), "c1 2, c2 2, c3 2");
    let mut st = st;
    play(&g, &mut st, &["mark c3"]);
    assert_eq!(site_tallies(&g, &st, "marked"), "c1 7, c2 2, c3 1");
    play(&g, &mut st, &["mark c2"]);
    assert_eq!(site_tallies(&g, &st, "marked"), "c1 7, c2 7, c3 1");
    play(&g, &mut st, &["mark c3"]);
    assert_eq!(site_tally(&g, &st, "marked", "c3"), 0);
    assert_eq!(legal(&g, &st), vec!["mark c1", "mark c2"]);
    // The state as JSON: the sites where the tally is not 0.
    let json = ludic::render::state_json(&g, &st);
    assert_eq!(
        json["tallies"]["marked"],
        serde_json::json!({"c1": 7, "c2": 7})
    );
}

#[test]
fn a_tally_per_site_remembers_the_point_a_man_left_and_the_mills_made() {
    let g = fixture("mill");
    let mut st = g.start();
    assert_eq!(site_tallies(&g, &st, "left"), "0 at every site");
    play(
        &g,
        &mut st,
        &[
            "place a2", "place a4", "place c2", "place d4", "place d2", "place a3", "place b1",
            "place d1",
        ],
    );
    assert_eq!(site_tallies(&g, &st, "formed"), "0 at every site");
    // b1 to b2 makes two mills at once (a2 b2 c2 and b2 c2 d2): each of their points once.
    play(&g, &mut st, &["move b1 b2"]);
    assert_eq!(site_tallies(&g, &st, "formed"), "a2 1, b2 1, c2 1, d2 1");
    assert_eq!(site_tallies(&g, &st, "left"), "b1 1");
    assert_eq!(
        legal(&g, &st),
        vec!["take a3", "take a4", "take d1", "take d4"]
    );
    play(&g, &mut st, &["take d1", "move a3 b3"]);
    assert_eq!(site_tallies(&g, &st, "left"), "b1 1, a3 2");
    // White may not go back to b1, the point his last move left.
    let moves = legal(&g, &st);
    assert!(!moves.contains(&"move b2 b1".to_string()), "{moves:?}");
    assert!(moves.contains(&"move b2 a1".to_string()), "{moves:?}");
    assert!(moves.contains(&"move b2 c1".to_string()), "{moves:?}");
    // Once White has moved elsewhere, b1 is free for him again.
    play(&g, &mut st, &["move b2 a1"]);
    assert_eq!(site_tallies(&g, &st, "left"), "b2 1, a3 2");
}

// ------------------------------------------------------------------ lines

#[test]
fn lines_along_the_links_and_lines_given_by_their_sites_each_once() {
    // 4 x 4 points, across, down and both diagonals: 8 + 8 + 4 + 4 runs of three.
    assert_eq!(fixture("mill").lines().count(), 24);
    let g = source(
        r#"
game "L" {}
sides A B
limit 4 turns
board {
  points for x in 0..3, y in 0..0
  links (1, 0)
  lines 3
  line a1 b1 c1, c1 b1
  line (3, 0)..(1, 0)
}
pieces { man }
turn { }
"#,
    );
    let names = |l: Vec<SiteId>| {
        l.iter()
            .map(|&s| g.site_name(s).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let lines: Vec<String> = g.lines().map(names).collect();
    // `lines 3` gives a1 b1 c1 and b1 c1 d1; `line a1 b1 c1` and `(3, 0)..(1, 0)` are the same
    // lines again; `c1 b1` is a line of its own.
    assert_eq!(lines, vec!["a1 b1 c1", "b1 c1 d1", "c1 b1"]);
}

/// The mill fixture with White to place at `at` after the men given are on the board.
fn mill_position(white: &[&str], black: &[&str]) -> (Game, State) {
    let g = fixture("mill");
    let mut s = Setup::new(&g).mover("White").unwrap();
    for w in white {
        s = s.token("White", "man", w).unwrap();
    }
    for b in black {
        s = s.token("Black", "man", b).unwrap();
    }
    let st = s.build();
    (g, st)
}

#[test]
fn a_man_in_a_mill_is_safe_unless_all_are() {
    // Black's a4 b4 c4 is a mill: only d1 may be taken when White makes one.
    let (g, mut st) = mill_position(&["a2", "b2"], &["a4", "b4", "c4", "d1"]);
    play(&g, &mut st, &["place c2"]);
    assert_eq!(legal(&g, &st), vec!["take d1"]);
    // Every black man in a mill: any may be taken.
    let (g, mut st) = mill_position(&["a2", "b2"], &["a4", "b4", "c4"]);
    play(&g, &mut st, &["place c2"]);
    assert_eq!(legal(&g, &st), vec!["take a4", "take b4", "take c4"]);
    // Two in a row is no mill, nor is a bent line: no capture, Black to play.
    let (g, mut st) = mill_position(&["a2", "c3"], &["a4"]);
    play(&g, &mut st, &["place b2"]);
    assert_eq!(g.player_name(st.mover()), "Black");
}

#[test]
fn the_sites_of_the_lines_through_a_site_where_a_condition_holds() {
    let g = source(
        r#"
game "Sets" {}
sides A B
limit 4 turns
board {
  points for x in 0..2, y in 0..2
  links (1, 0) (0, 1) (1, 1) (1, -1)
  lines 3
}
pieces { man }
tally hit per site = 0
start { place 1 man on a1 b1 c1 b2 b3 c3 }
turn {
  choose at h where line x through h: count(x) > 0 {
    for s in (line x through h: count(x) > 0) { set hit(s) = hit(s) + 1 }
    place 1 man on (line x through h: count(x) > 0)
  }
}
"#,
    );
    let mut st = g.start();
    // Full lines: a1 b1 c1 (across), b1 b2 b3 (down), a1 b2 c3 (diagonal).
    assert_eq!(
        legal(&g, &st),
        vec!["at a1", "at b1", "at b2", "at b3", "at c1", "at c3"]
    );
    play(&g, &mut st, &["at b1"]);
    // Through b1: a1 b1 c1 and b1 b2 b3, b1 once.
    assert_eq!(site_tallies(&g, &st, "hit"), "a1 1, b1 1, c1 1, b2 1, b3 1");
    assert_eq!(
        board(&g, &st, &["a1", "b1", "b2", "c3", "a2"]),
        "a1=2 b1=2 b2=2 c3=1 a2=0"
    );
}

// ------------------------------------------------------------------ the history of positions

#[test]
fn a_position_that_comes_back_ends_the_game_as_a_draw() {
    let g = fixture("repetition");
    let mut st = g.start();
    play(&g, &mut st, &["step c2 c3", "step c5 c4", "step c3 c2"]);
    assert!(!st.is_over());
    assert_eq!(st.positions_seen(), 3);
    // Back to the start, White to move: a draw.
    play(&g, &mut st, &["step c4 c5"]);
    let o = st.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (None, EndReason::Rules));
    assert_eq!(st.turn(), 4);
}

#[test]
fn a_capture_forgets_the_positions_before_it() {
    let g = fixture("repetition");
    let mut st = g.start();
    play(&g, &mut st, &["step c2 c3", "step c5 c4", "step c3 c4"]);
    // White took on c4: the history starts again.
    assert_eq!(st.positions_seen(), 0);
    play(&g, &mut st, &["step c6 c5", "step c4 c3", "step c5 c6"]);
    assert_eq!(st.positions_seen(), 3);
    assert!(!st.is_over());
    // White c1 c4, Black c6, Black to move: the position just after the capture.
    play(&g, &mut st, &["step c3 c4"]);
    let o = st.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (None, EndReason::Rules));
}

#[test]
fn the_player_to_move_is_part_of_the_position() {
    let g = fixture("repetition");
    let at = |who: &str| {
        Setup::new(&g)
            .mover(who)
            .unwrap()
            .token("White", "man", "c1")
            .unwrap()
            .token("Black", "man", "c6")
            .unwrap()
            .build()
    };
    let (w, b) = (at("White"), at("Black"));
    assert_ne!(w.position_hash(), b.position_hash());
    assert_eq!(w.position_hash(), at("White").position_hash());
    // A game whose rules never ask `repeated` hashes nothing.
    assert_eq!(game("puluc").start().position_hash(), None);
    assert_eq!(
        game("puluc").position_hash_from_scratch(&game("puluc").start()),
        None
    );
}

#[test]
fn a_move_may_be_refused_for_the_position_it_would_repeat() {
    // The repetition game where a position may not come back: `leaving not repeated`.
    let src = std::fs::read_to_string("tests/fixtures/mechanisms/repetition.game")
        .unwrap()
        .replace(
            "where mine(t) and owner(top(q)) != mover {",
            "where mine(t) and owner(top(q)) != mover leaving not repeated {",
        );
    let g = source(&src);
    let mut st = g.start();
    play(&g, &mut st, &["step c2 c3", "step c5 c4", "step c3 c2"]);
    // c4 c5 would bring back the start: not allowed; c4 c3 is.
    assert_eq!(legal(&g, &st), vec!["step c4 c3", "step c6 c5"]);
}

/// The source of a built-in game with `repeated` asked at each turn, never true in effect:
/// the engine then keeps the hash of the position.
fn with_history(name: &str) -> String {
    let (_, src) = ludic::builtin::find(name).unwrap();
    assert!(src.contains("\nturn {"), "{name}");
    src.replacen(
        "\nturn {",
        "\nturn {\n  if repeated and round < 0 { end game draw }",
        1,
    )
}

/// Plays random games, checking after every step that the hash kept up to date equals the
/// hash computed from scratch; returns the steps of each game.
fn hashes_agree(g: &Game, games: usize, seed: u64) -> Vec<usize> {
    let mut rng = Lcg(seed);
    let mut lengths = vec![];
    for _ in 0..games {
        let mut st = g.start();
        let mut n = 0;
        loop {
            let h = st.position_hash().expect("hashed");
            assert_eq!(Some(h), g.position_hash_from_scratch(&st), "after step {n}");
            match st.pending() {
                Pending::Over(_) => break,
                Pending::ChanceFirst | Pending::Throw(_) => {
                    let outs = g.chance_outcomes(&st);
                    g.play_chance(&mut st, outs[rng.below(outs.len())].0)
                        .unwrap();
                }
                _ => {
                    let m = st.moves()[rng.below(st.moves().len())];
                    g.play(&mut st, m).unwrap();
                }
            }
            n += 1;
        }
        lengths.push(n);
    }
    lengths
}

#[test]
fn the_hash_kept_by_every_change_equals_the_hash_from_scratch() {
    hashes_agree(&fixture("repetition"), 200, 11);
    for name in ["mill", "feed"] {
        let src = std::fs::read_to_string(format!("tests/fixtures/mechanisms/{name}.game"))
            .unwrap()
            .replacen(
                "\nturn {",
                "\nturn {\n  if repeated and round < 0 { end game }",
                1,
            );
        hashes_agree(&source(&src), 100, 12);
    }
    // Every built-in game: sowing, stores, captures, holdings given and placed, kinds and
    // owners changed, tokens moved, carried in stacks and sent off, whole matches.
    let cases: [(&str, &[&str]); 7] = [
        ("pallankuzhi", &[]),
        ("pallankuzhi", &["rounds=match", "max_rounds=6"]),
        ("ceelkoqyuqkoqiji", &[]),
        ("ceelkoqyuqkoqiji", &["rounds=match", "max_rounds=4"]),
        ("puluc", &[]),
        ("kuilichi-chanakua", &[]),
        ("tuknanavuhpi", &[]),
    ];
    for (name, options) in cases {
        let mut s = Settings::default();
        for o in options {
            s.push_assignment(o).unwrap();
        }
        let g = load_game(&with_history(name), &s).unwrap();
        let games = if name == "tuknanavuhpi" { 10 } else { 40 };
        hashes_agree(&g, games, 13);
    }
}

#[test]
fn asking_repeated_changes_nothing_else_in_play() {
    // The same random decisions give the same games with and without the history kept.
    for name in [
        "pallankuzhi",
        "ceelkoqyuqkoqiji",
        "puluc",
        "kuilichi-chanakua",
        "tuknanavuhpi",
    ] {
        let plain = game(name);
        let hashed = load_game(&with_history(name), &Settings::default()).unwrap();
        for seed in 0..5u64 {
            let (mut a, mut b) = (plain.start(), hashed.start());
            let mut rng = Lcg(seed);
            while !a.is_over() {
                assert_eq!(a.moves(), b.moves(), "{name}");
                match a.pending() {
                    Pending::ChanceFirst | Pending::Throw(_) => {
                        let outs = plain.chance_outcomes(&a);
                        let o = outs[rng.below(outs.len())].0;
                        plain.play_chance(&mut a, o).unwrap();
                        hashed.play_chance(&mut b, o).unwrap();
                    }
                    _ => {
                        let m = a.moves()[rng.below(a.moves().len())];
                        plain.play(&mut a, m).unwrap();
                        hashed.play(&mut b, m).unwrap();
                    }
                }
            }
            // the same result, ended by the same statement (its rank differs: the hashed
            // file has one more `end game`), told in the same words
            let (oa, ob) = (a.outcome().unwrap(), b.outcome().unwrap());
            assert_eq!((oa.winner, oa.reason), (ob.winner, ob.reason), "{name}");
            assert_eq!(
                plain.end_words(oa.said),
                hashed.end_words(ob.said),
                "{name}"
            );
            assert_eq!(a.turn(), b.turn(), "{name}");
        }
    }
}

// ------------------------------------------------------------------ leaving

fn feed_position(counts: &[(&str, u32)], mover: &str) -> (Game, State) {
    let g = fixture("feed");
    let mut s = Setup::new(&g).mover(mover).unwrap();
    for (site, n) in counts {
        s = s.put(site, "seed", *n).unwrap();
    }
    let st = s.build();
    (g, st)
}

#[test]
fn a_sowing_must_leave_the_opponent_something_to_play() {
    // North has nothing: only a sowing that reaches his row is allowed.
    let (g, st) = feed_position(&[("s3", 1), ("s4", 1)], "South");
    assert_eq!(legal(&g, &st), vec!["sow s4"]);
    // A capture that would take North's last seeds is not allowed either.
    let (g, st) = feed_position(&[("s1", 2), ("s4", 1), ("n1", 1)], "South");
    assert_eq!(legal(&g, &st), vec!["sow s1"]);
    // Without the condition, both would be: check on the same position with it removed.
    let src = std::fs::read_to_string("tests/fixtures/mechanisms/feed.game")
        .unwrap()
        .replace(
            " leaving exists x where owner(x) == opponent and count(x) > 0",
            "",
        );
    let free = source(&src);
    let st = Setup::new(&free)
        .mover("South")
        .unwrap()
        .put("s1", "seed", 2)
        .unwrap()
        .put("s4", "seed", 1)
        .unwrap()
        .put("n1", "seed", 1)
        .unwrap()
        .build();
    assert_eq!(legal(&free, &st), vec!["sow s1", "sow s4"]);
}

#[test]
fn a_player_who_cannot_feed_takes_the_rest_and_the_game_ends() {
    let (g, st) = feed_position(&[("s1", 1), ("s2", 1)], "South");
    // s1 and s2 both stay in South's row.
    let o = st.outcome().expect("over");
    assert_eq!(o.reason, EndReason::Rules);
    assert_eq!(
        o.winner.map(|p| g.player_name(p).to_string()),
        Some("South".into())
    );
    assert_eq!(captured(&g, &st, "South", "seed"), 2);
}

#[test]
fn a_look_ahead_does_not_change_the_position_and_counts_its_work() {
    let g = fixture("feed");
    let st = g.start();
    let before = st.clone();
    // Every sowing of the start feeds North.
    assert_eq!(legal(&g, &st), vec!["sow s1", "sow s2", "sow s3", "sow s4"]);
    assert_eq!(st, before);
    // Three alternatives whose play costs 21 million units of work each: one is allowed
    // between two decisions, the three look-aheads together are not, and the game stops.
    let heavy = |leaving: &str| {
        source(&format!(
            r#"
game "Heavy" {{}}
sides A B
limit 4 turns
board {{ row c[1..2] at y 0 kind cell }}
pieces {{ man }}
action work() {{ let i = 0  while i < 7000000 {{ set i = i + 1 }} }}
turn {{
  choose {{
    one {leaving} {{ do work() }}
    two {leaving} {{ do work() }}
    three {leaving} {{ do work() }}
  }}
}}
"#
        ))
    };
    let plain = heavy("");
    let mut st = plain.start();
    assert_eq!(legal(&plain, &st), vec!["one", "three", "two"]);
    play(&plain, &mut st, &["two"]);
    assert!(!st.is_over());
    let looked = heavy("leaving true");
    let st = looked.start();
    assert_eq!(st.outcome().map(|o| o.reason), Some(EndReason::StepLimit));
}

#[test]
fn a_look_ahead_does_not_look_ahead() {
    // B's choice is never allowed (`leaving false`): in play, B always passes. A's look-ahead
    // stops at the end of A's turn, before B's turn program runs: `started` is then 1 and A
    // may go. (Before issue 27 it ran on to B's choice, `started` 2, and the condition was
    // `started == 2`: the look-ahead now ends with the mover's turn, see
    // the_look_ahead_ends_with_the_movers_turn.) Were B's choice listed there with its
    // condition, B would pass, A's next turn would start (`started` 3), and A could never go.
    let g = source(
        r#"
game "Depth" {}
sides A B
limit 6 turns
board { row c[1..2] at y 0 kind cell }
pieces { man }
tally started = 0
turn {
  set started = started + 1
  if mover == A {
    choose go where true leaving started == 1 { }
  } else {
    choose wait where true leaving false { }
  }
}
"#,
    );
    let mut st = g.start();
    assert_eq!(legal(&g, &st), vec!["go"]);
    play(&g, &mut st, &["go"]);
    // B passes (his only decision is never allowed); from then on A's look-ahead finds
    // `started` past 1, so A passes too, until the turn limit.
    let o = st.outcome().expect("over");
    assert_eq!(o.reason, EndReason::TurnLimit);
    assert_eq!(st.passes().0, 5);
}

#[test]
fn the_look_ahead_ends_with_the_movers_turn() {
    // "A move may not empty the board" (`leaving count(all) > 0`), and the automatic rule of a
    // turn's start: a player with no seed of his own loses, his opponent taking what is left.
    // South's only move takes North's last seed: the board keeps South's, so it is legal and
    // wins. (The look-ahead used to run on into North's turn, whose first rule empties the
    // board: the condition failed there, and every move that ended the game was refused.)
    let g = source(
        r#"
game "Starve" {}
sides South North
limit 20 turns
board {
  row s[1..2] at y 0 owner South
  row n[2..1] at y 1 owner North
}
pieces { seed }
start { place 1 seed on s1  place 1 seed on n1 }
def mine(h) = owner(h) == mover and count(h) > 0
turn {
  if not exists h where mine(h) { capture all to opponent  end game winner opponent }
  choose take h where count(h) > 0 and owner(h) != mover leaving count(all) > 0 {
    capture h to mover
  }
}
"#,
    );
    let mut st = g.start();
    assert_eq!(legal(&g, &st), vec!["take n1"]);
    play(&g, &mut st, &["take n1"]);
    let o = st.outcome().expect("over");
    assert_eq!(o.reason, EndReason::Rules);
    assert_eq!(
        o.winner.map(|p| g.player_name(p).to_string()),
        Some("South".into())
    );
    // After `another turn` the mover's next turn is his too: the look-ahead goes on to its
    // first choice (`started` 2); without it, it stops where A's turn passes (`started` 1,
    // before B's turn program adds one).
    let g = source(
        r#"
game "Again" {}
sides A B
limit 6 turns
board { row c[1..2] at y 0 kind cell }
pieces { man }
tally started = 0
turn {
  set started = started + 1
  choose {
    more leaving started == 2 { another turn }
    stay leaving started == 1 { }
    late leaving started == 2 { }
  }
}
"#,
    );
    let st = g.start();
    assert_eq!(legal(&g, &st), vec!["more", "stay"]);
}

// ------------------------------------------------------------------ invariants

/// One random game with the invariants checked after every step; returns its record.
fn checked_game(g: &Game, rng: &mut Lcg) -> (State, Vec<Step>) {
    let mut st = g.start();
    let totals = st.totals(g);
    let mut steps = vec![];
    while !st.is_over() {
        match st.pending() {
            Pending::ChanceFirst | Pending::Throw(_) => {
                let outs = g.chance_outcomes(&st);
                let o = outs[rng.below(outs.len())].0;
                steps.push(Step::Chance {
                    outcome: g.outcome_name(&st, o),
                });
                g.play_chance(&mut st, o).unwrap();
            }
            _ => {
                let moves = st.moves().to_vec();
                assert!(!moves.is_empty());
                let before = st.clone();
                let bogus = Decision::Alt {
                    alt: 250,
                    value: -7,
                };
                assert!(matches!(
                    g.play(&mut st, bogus),
                    Err(IllegalMove::NotLegal(_))
                ));
                assert_eq!(st, before, "an illegal decision changes nothing");
                let d = moves[rng.below(moves.len())];
                steps.push(Step::Decision {
                    player: g.player_name(st.mover()).to_string(),
                    notation: g.notation_of(&st, d),
                });
                g.play(&mut st, d)
                    .expect("every generated decision is legal");
                assert_eq!(st.totals(g), totals, "counters conserved");
            }
        }
    }
    (st, steps)
}

#[test]
fn random_playouts_of_each_fixture_keep_the_invariants() {
    for (name, n) in [("mill", 300), ("repetition", 300), ("feed", 300)] {
        let g = fixture(name);
        let mut rng = Lcg(21);
        let mut by_rules = 0;
        for i in 0..n {
            let (st, steps) = checked_game(&g, &mut rng);
            let o = st.outcome().unwrap();
            assert!(
                matches!(o.reason, EndReason::Rules | EndReason::TurnLimit),
                "{name}: {o:?}"
            );
            by_rules += usize::from(o.reason == EndReason::Rules);
            if i % 10 == 0 {
                assert_eq!(replay(&g, &steps).expect("replays"), st, "{name}");
            }
        }
        assert!(
            by_rules > n / 2,
            "{name}: {by_rules} of {n} end by the rules"
        );
    }
}
