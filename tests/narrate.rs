//! Narration (`ludic::render::narrate`): what a step did, told from the engine's events with
//! the game's own names, for any game a `.game` file describes; and the end-of-game line.

mod common;

use ludic::render::narrate::{end_text, narrate};
use ludic::{Event, Game, State, load_game};

fn load(src: &str) -> Game {
    load_game(src, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Plays a decision by notation and tells it.
fn told(g: &Game, st: &mut State, notation: &str) -> Vec<String> {
    told_events(g, st, notation).0
}

fn told_events(g: &Game, st: &mut State, notation: &str) -> (Vec<String>, Vec<Event>) {
    let d = g
        .parse_decision(st, notation)
        .unwrap_or_else(|e| panic!("`{notation}`: {e}; legal: {:?}", g.legal_notations(st)));
    let before = st.clone();
    let events = g.play_narrated(st, d).expect("legal");
    (narrate(g, &before, &events), events)
}

/// A game whose one decision does a bit of everything a counter game can do.
const EVERYTHING: &str = r#"
game "Everything" { }
option max_turns = 50 in 1..100
sides South North
tally debt per player = 0 "owed"
limit max_turns turns
board {
  row s[1..4] at y 0 owner South
  row n[4..1] at y 1 owner North
  ring s[1..4] n[1..4] forward ccw backward cw
}
pieces { stone  big value 3 }
start { place 2 stone on all }
turn {
  choose {
    take h where owner(h) == mover and kind(h) == hole and count(h) > 0 {
      capture h
      capture n4 to mover
      set owner(h) = opponent
      set kind(h) = store
      give 1 stone from mover to opponent
      place 1 stone on (x where kind(x) == hole and owner(x) == mover) from mover
      place 1 big on n1 n2
      set owner(n3) = South
      set owner(n4) = South
      set kind(n3) = void
      set kind(n4) = void
      set debt(mover) = 3
    }
    finish { end game }
  }
}
"#;

#[test]
fn a_decision_of_a_counter_game_is_told_with_the_games_names() {
    let g = load(EVERYTHING);
    let mut st = g.start();
    assert_eq!(
        told(&g, &mut st, "take s2"),
        [
            "South captures 4: 2 from s2, 2 from n4",
            "s2 becomes North's store",
            "South gives 1 stone to North",
            "South places 1 stone on each of s1, s3, s4",
            "1 big is placed on each of n1, n2",
            "n3, n4 now belong to South",
            "n3, n4 become void",
        ]
    );
    assert_eq!(end_text(&g, &st), None, "the game goes on");
    assert!(told(&g, &mut st, "finish").is_empty());
    // South took 4, gave 1 and placed 3: North wins by 1 stone to none.
    assert_eq!(
        end_text(&g, &st).as_deref(),
        Some(
            "Game over: North wins (the higher score wins). Final score: \
             South 0 (0 stone, debt 3); North 1 (1 stone)"
        )
    );
}

/// Stacks of tokens carried, landing on others, sent off the board and back, and passes.
const STACKS: &str = r#"
game "Stacks" { }
option max_turns = 50 in 1..100
sides South North
limit max_turns turns
board {
  row c[0..4] at y 0 kind cell
  area out
}
pieces { piece tokens 2 }
start {
  place 2 piece on c0 for South
  place 1 piece on c2 for North
  place 1 piece in out for North
}
turn {
  choose {
    up s where owner(top(s)) == mover and s != c3 { carry bottom(s) onto c3 }
    down s where owner(top(s)) == mover and s != c1 { carry bottom(s) onto c1 }
    out s where owner(top(s)) == mover {
      for token x where site(x) == s { send x to out }
    }
    back where mover == North {
      for token x where owner(x) == North and area(x) == out { send x to out }
    }
  }
}
"#;

#[test]
fn tokens_are_told_by_owner_and_kind_stacks_together() {
    let g = load(STACKS);
    let mut st = g.start();
    assert_eq!(
        told(&g, &mut st, "up c0"),
        ["South's 2 pieces move c0 → c3"]
    );
    assert_eq!(
        told(&g, &mut st, "up c2"),
        [
            "North's piece moves c2 → c3, onto South's 2 pieces",
            "South has no legal move and passes",
        ]
    );
    assert_eq!(
        told(&g, &mut st, "down c3"),
        [
            "3 pieces (South's 2, North's 1) move c3 → c1",
            "South has no legal move and passes",
        ]
    );
    assert_eq!(
        told(&g, &mut st, "out c1"),
        [
            "3 pieces (South's 2, North's 1) on c1 leave the board (out)",
            "South has no legal move and passes",
        ]
    );
    assert_eq!(
        told(&g, &mut st, "back"),
        [
            "North's 2 pieces go back to out",
            "South has no legal move and passes",
        ]
    );
}

/// Every hole relays when its last piece lands on others: sowings of many laps.
const RELAYS: &str = r#"
game "Relays" { }
option max_turns = 50 in 1..100
sides South North
limit max_turns turns
board {
  row s[1..6] at y 0 owner South
  row n[6..1] at y 1 owner North
  ring s[1..6] n[1..6] forward ccw backward cw
}
pieces { seed }
start { place 3 seed on all }
turn {
  choose sow h where owner(h) == mover and count(h) > 0 {
    sow h toward ccw, lap ends at e {
      if count(e) > 1 { relay e }
    }
  }
}
"#;

/// The lines of a sowing agree with its laps: every lap told when there are at most seven,
/// otherwise the first five, a line for the others and the last one.
fn check_sowing(g: &Game, mover: &str, lines: &[String], events: &[Event]) {
    let laps: Vec<(ludic::SiteId, u32, Option<ludic::SiteId>)> = events
        .iter()
        .map_while(|e| match *e {
            Event::Lap {
                from, pieces, last, ..
            } => Some((from, pieces, last)),
            _ => None,
        })
        .collect();
    let lap = |(from, pieces, last): (ludic::SiteId, u32, Option<ludic::SiteId>)| {
        format!(
            "{pieces} from {}, ending at {}",
            g.site_name(from),
            g.site_name(last.expect("a last drop"))
        )
    };
    let n = laps.len();
    let first = format!("{mover} sows {}", lap(laps[0]));
    if n <= 7 {
        assert_eq!(lines[0], first);
        for i in 1..n {
            assert_eq!(lines[i], format!("  relays {}", lap(laps[i])), "{lines:?}");
        }
    } else {
        assert_eq!(lines[0], format!("{first} ({n} laps)"));
        for i in 1..5 {
            assert_eq!(lines[i], format!("  relays {}", lap(laps[i])), "{lines:?}");
        }
        assert_eq!(lines[5], format!("  … {} more relays …", n - 6));
        assert_eq!(
            lines[6],
            format!("  relays {} (lap {n})", lap(laps[n - 1])),
            "{lines:?}"
        );
    }
    let told = n.min(7);
    if matches!(events.get(n), Some(Event::CycleCut { .. })) {
        assert!(lines[told].starts_with("  a cycle"), "{lines:?}");
    }
}

#[test]
fn a_long_sowing_is_summed_up_in_a_few_lines() {
    let mut longest = 0;
    let relays = load(RELAYS);
    for g in [
        &relays,
        &common::game("pallankuzhi"),
        &common::game_with("pallankuzhi", &["seeds=20"], None),
    ] {
        // a few games, decisions taken in a fixed pattern
        for k in 0..6usize {
            let mut st = g.start();
            for turn in 0..200 {
                if st.is_over() {
                    break;
                }
                let legal = g.legal_notations(&st);
                let n = legal[(turn * 7 + k) % legal.len()].clone();
                let mover = g.player_name(st.mover()).to_string();
                let (lines, events) = told_events(g, &mut st, &n);
                if matches!(events.first(), Some(Event::Lap { relay: false, .. })) {
                    check_sowing(g, &mover, &lines, &events);
                    let laps = events
                        .iter()
                        .filter(|e| matches!(e, Event::Lap { .. }))
                        .count();
                    longest = longest.max(laps);
                    assert!(lines.len() < 20, "{lines:?}");
                }
            }
        }
    }
    assert!(longest > 10, "some sowing is long ({longest} laps)");
}

#[test]
fn a_sowing_cut_as_a_cycle_says_where_the_hand_was_put_back() {
    let g = load(include_str!("fixtures/cycle.game"));
    let mut st = g.start();
    let n = g.legal_notations(&st)[0].clone();
    assert_eq!(n, "sow a");
    // a (1) sows into b; c relays into a; b relays into c; a would relay as at the start.
    assert_eq!(
        told(&g, &mut st, &n),
        [
            "A sows 1 from a, ending at b",
            "  relays 1 from c, ending at a",
            "  relays 1 from b, ending at c",
            "  a cycle (the sowing would go on for ever): the hand is put back on a",
        ]
    );
}

#[test]
fn every_step_of_every_built_in_game_is_told_in_a_few_lines_with_known_names() {
    for (name, _) in ludic::builtin::GAMES {
        let g = common::game(name);
        let mut told_something = 0;
        for k in 0..3usize {
            let mut st = g.start();
            for i in 0..400 {
                if st.is_over() {
                    break;
                }
                let before = st.clone();
                let events = match g.chance_count(&st) {
                    0 => {
                        let d = st.moves()[(i * 5 + k) % st.moves().len()];
                        g.play_narrated(&mut st, d).unwrap()
                    }
                    n => g
                        .play_chance_narrated(&mut st, ((i * 3 + k) % n) as i64)
                        .unwrap(),
                };
                let lines = narrate(&g, &before, &events);
                assert!(lines.len() <= 24, "{name}: {lines:?}");
                assert!(
                    !events.is_empty() || lines.is_empty(),
                    "{name}: nothing said of nothing"
                );
                for l in &lines {
                    assert!(!l.contains('?') && !l.is_empty(), "{name}: `{l}`");
                }
                told_something += usize::from(!lines.is_empty());
            }
            if let Some(end) = end_text(&g, &st) {
                assert!(end.starts_with("Game over: "), "{end}");
                assert!(end.contains("Final score: "), "{end}");
            }
        }
        assert!(told_something > 10, "{name}: {told_something} steps told");
    }
}

/// A ring with a store at each end and a large stone: sowing and capturing it.
const STONES: &str = r#"
game "Stones" { }
sides South North
limit 50 turns
board {
  row s[1..3] at y 0 x 1 owner South
  row n[3..1] at y 2 x 1 owner North
  site west at (0, 1) kind store owner North
  site east at (4, 1) kind store owner South
  ring s[1..3] east n[1..3] west forward ccw backward cw
}
pieces { seed  big value 5 }
start {
  place 2 seed on s1 s2 n1 n2 n3
  place 1 big on s3 n2
  place 1 big on n1
}
turn {
  choose {
    sow h where owner(h) == mover and kind(h) == hole and count(h) > 0 {
      sow h toward ccw, lap ends at e { }
    }
    take h where owner(h) == opponent and kind(h) == hole and count(h) > 0 { capture h }
  }
}
"#;

#[test]
fn large_stones_are_told_by_their_kind_where_they_go_and_when_captured() {
    let g = load(STONES);
    let mut st = g.start();
    // s3 holds a big alone: it goes into the store after it, South's (east), and from there
    // to South's holdings.
    assert_eq!(
        told(&g, &mut st, "sow s3"),
        [
            "South sows a big from s3, ending at east",
            "  a big goes to South's store"
        ]
    );
    // North takes s2: 2 seeds; South takes n2: the big and 2 seeds
    assert_eq!(told(&g, &mut st, "take s2"), ["North captures 2 from s2"]);
    assert_eq!(
        told(&g, &mut st, "take n2"),
        ["South captures a big and 2 seed from n2"]
    );
    // a sowing with a big among seeds: `(with …)`, and where it was dropped
    assert_eq!(
        told(&g, &mut st, "sow n1"),
        [
            "North sows 3 (with a big) from n1, ending at west",
            "  a big goes to North's store",
        ]
    );
}

#[test]
fn the_mu_and_the_gong_of_a_game_are_told_by_name() {
    // In seeded games of the built-in game with two large stones, one of each kind: `the mu`,
    // `the gong`, told when they are sown, dropped, sent to a store or captured.
    let g = common::game("ceelkoqyuqkoqiji");
    let names: Vec<&str> = vec![
        g.piece_kind(ludic::PieceKind(1)).unwrap().name,
        g.piece_kind(ludic::PieceKind(2)).unwrap().name,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..40usize {
        let mut st = g.start();
        for i in 0..300 {
            if st.is_over() {
                break;
            }
            let before = st.clone();
            let events = match g.chance_count(&st) {
                0 => {
                    let d = st.moves()[(i * 7 + k) % st.moves().len()];
                    g.play_narrated(&mut st, d).unwrap()
                }
                n => g
                    .play_chance_narrated(&mut st, ((i + k) % n) as i64)
                    .unwrap(),
            };
            let lines = narrate(&g, &before, &events);
            for (e, kind) in events.iter().flat_map(|e| match e {
                Event::Lap { went, .. } => went.iter().map(|&(k, _)| (e, k)).collect(),
                Event::Captured { kinds, .. } => kinds.iter().map(|&(k, _)| (e, k)).collect(),
                _ => vec![],
            }) {
                if kind.0 == 0 {
                    continue;
                }
                let the = format!("the {}", names[kind.0 as usize - 1]);
                assert!(
                    lines.iter().any(|l| l.contains(&the)),
                    "{e:?} not told: {lines:?}"
                );
                for l in lines.iter().filter(|l| l.contains(&the)) {
                    if l.contains(" goes to ") {
                        seen.insert("store");
                    } else if l.contains("captures") {
                        seen.insert("captured");
                    } else if l.contains("relays the") || l.contains("(with the") {
                        seen.insert("sown");
                    }
                }
            }
        }
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
}

#[test]
fn a_chain_of_hops_is_told_as_one_path_and_the_pieces_lost_by_their_owner() {
    // Seeded games of the alquerque: a turn of two hops or more, its events told together.
    let g = common::game("tuknanavuhpi");
    let mut chains = 0;
    for k in 0..60usize {
        let mut st = g.start();
        for i in 0..400 {
            if st.is_over() {
                break;
            }
            let before = st.clone();
            let (turn, mover) = (st.turn(), st.mover());
            let mut events = vec![];
            let mut hops = 0;
            // the mover's decisions of this turn, hops preferred
            while !st.is_over() && st.turn() == turn && st.mover() == mover {
                let legal = g.legal_notations(&st);
                let n = legal
                    .iter()
                    .find(|n| n.starts_with("hop"))
                    .cloned()
                    .unwrap_or_else(|| legal[(i * 5 + k) % legal.len()].clone());
                hops += usize::from(n.starts_with("hop"));
                let d = g.parse_decision(&st, &n).unwrap();
                events.extend(g.play_narrated(&mut st, d).unwrap());
            }
            if hops < 2 {
                continue;
            }
            chains += 1;
            let lines = narrate(&g, &before, &events);
            let me = g.player_name(mover);
            let other = g.player_name(ludic::Player(1 - mover.0));
            let path = lines
                .iter()
                .find(|l| l.starts_with(&format!("{me}'s man moves")))
                .unwrap_or_else(|| panic!("{lines:?}"));
            assert_eq!(path.matches(" → ").count(), hops, "{lines:?}");
            let lost = format!("{other} loses {hops} pieces on ");
            assert!(lines.iter().any(|l| l.starts_with(&lost)), "{lines:?}");
            assert!(lines.len() <= 3, "{lines:?}");
        }
    }
    assert!(chains > 0, "no chain of hops in the seeded games");
}

#[test]
fn another_turn_is_announced() {
    let g = load(
        r#"
game "Again" { }
sides South North
limit 50 turns
board {
  row s[1..2] at y 0 owner South
  row n[2..1] at y 1 owner North
  ring s[1..2] n[1..2] forward ccw backward cw
}
pieces { seed }
start { place 2 seed on all }
turn {
  choose sow h where owner(h) == mover and count(h) > 0 {
    sow h toward ccw, lap ends at e {
      if count(e) == 3 { another turn }
    }
  }
}
"#,
    );
    let mut st = g.start();
    assert_eq!(
        told(&g, &mut st, "sow s1"),
        [
            "South sows 2 from s1, ending at n1",
            "another turn for South"
        ]
    );
    assert_eq!(g.player_name(st.mover()), "South");
    assert_eq!(
        told(&g, &mut st, "sow s2"),
        ["South sows 3 from s2, ending at s1"]
    );
    assert_eq!(g.player_name(st.mover()), "North");
}

#[test]
fn the_end_tells_the_rule_that_ended_the_game_and_the_score() {
    // `end game "…"`: its words; the final score per side, compact.
    let g = load(&EVERYTHING.replace(
        "finish { end game }",
        r#"finish { end game winner opponent "the other player gave up" }"#,
    ));
    let mut st = g.start();
    told(&g, &mut st, "finish");
    assert_eq!(
        end_text(&g, &st).as_deref(),
        Some(
            "Game over: North wins (the other player gave up). Final score: \
             South 0 (0 stone), North 0 (0 stone)"
        )
    );
    let o = st.outcome().unwrap();
    assert_eq!(
        ludic::render::outcome_json(&g, o)["why"],
        "the other player gave up"
    );
    // The built-in games: each ending by its rules says which (and a one-round sowing game
    // scores each side in points).
    for (name, why) in [
        ("pallankuzhi", "the round is over: the higher score wins"),
        (
            "ceelkoqyuqkoqiji",
            "the round is over: the higher score wins",
        ),
        ("kuilichi-chanakua", "all its chips home"),
    ] {
        let g = common::game_with(name, &["max_turns=100000"], None);
        let mut st = g.start();
        let mut i = 0usize;
        while !st.is_over() && i < 200_000 {
            match g.chance_count(&st) {
                0 => {
                    let d = st.moves()[(i * 7) % st.moves().len()];
                    g.play(&mut st, d).unwrap();
                }
                n => g.play_chance(&mut st, (i % n) as i64).unwrap(),
            }
            i += 1;
        }
        let end = end_text(&g, &st).expect("over");
        assert!(
            end.contains(&format!("({why}). Final score: South ")),
            "{end}"
        );
        assert!(!end.contains("South1"), "{end}");
    }
}

#[test]
fn the_race_of_two_teams_ends_with_a_score_per_side() {
    let g = common::game_with("kuilichi-chanakua", &["team_size=8"], None);
    let mut st = g.start();
    let mut i = 0usize;
    while !st.is_over() && i < 400_000 {
        match g.chance_count(&st) {
            0 => {
                let d = st.moves()[(i * 3) % st.moves().len()];
                g.play(&mut st, d).unwrap();
            }
            n => g.play_chance(&mut st, (i % n) as i64).unwrap(),
        }
        i += 1;
    }
    let end = end_text(&g, &st).expect("over");
    // 64 chips: one side has all of its 32 home
    assert!(
        end.contains(" wins (all its chips home). Final score: South "),
        "{end}"
    );
    assert!(end.contains("32 finished"), "{end}");
    assert_eq!(
        end.matches("on the board").count(),
        2,
        "one part per side: {end}"
    );
}

#[test]
fn the_text_board_shows_only_what_applies_with_stable_widths() {
    // a tally only set between rounds is not shown when one round is played
    for (name, tally) in [("ceelkoqyuqkoqiji", "debt"), ("pallankuzhi", "per_hole")] {
        let one = common::game(name);
        let board = ludic::render::board_text(&one, &one.start());
        assert!(!board.contains(&format!("{tally}:")), "{name}: {board}");
        let matched = common::game_with(name, &["rounds=match"], None);
        let board = ludic::render::board_text(&matched, &matched.start());
        assert!(
            board.contains(&format!("{tally}:")),
            "{name} (match): {board}"
        );
    }
    // the columns keep their places from move to move
    for name in [
        "ceelkoqyuqkoqiji",
        "pallankuzhi",
        "puluc",
        "kuilichi-chanakua",
    ] {
        let g = common::game(name);
        let mut st = g.start();
        let first_line = |st: &State| {
            ludic::render::board_text(&g, st)
                .lines()
                .next()
                .unwrap()
                .to_string()
        };
        let names = first_line(&st);
        // and the board fits a terminal of 80 columns
        for line in ludic::render::board_text(&g, &st).lines() {
            assert!(line.chars().count() <= 80, "{name}: {line:?}");
        }
        for i in 0..300usize {
            if st.is_over() {
                break;
            }
            match g.chance_count(&st) {
                0 => {
                    let d = st.moves()[(i * 5) % st.moves().len()];
                    g.play(&mut st, d).unwrap();
                }
                n => g.play_chance(&mut st, (i % n) as i64).unwrap(),
            }
            assert_eq!(first_line(&st), names, "{name}: the columns moved");
        }
    }
}

#[test]
fn sixteen_players_are_told_apart_on_the_text_board() {
    let g = common::game_with("kuilichi-chanakua", &["team_size=8"], None);
    let mut st = g.start();
    for i in 0..400usize {
        match g.chance_count(&st) {
            0 => {
                let d = st.moves()[(i * 5) % st.moves().len()];
                g.play(&mut st, d).unwrap();
            }
            n => g.play_chance(&mut st, (i % n) as i64).unwrap(),
        }
    }
    let board = ludic::render::board_text(&g, &st);
    // one line (wrapped) per side, no line per player
    assert!(
        !board.contains("South1:") && !board.contains("North8:"),
        "{board}"
    );
    let south = &board[board.find("\nSouth: ").unwrap_or_else(|| panic!("{board}"))..];
    let south = &south[..south.find("\nNorth: ").unwrap_or_else(|| panic!("{board}"))];
    assert!(
        south.contains(" on the board") && south.contains(" waiting,"),
        "{board}"
    );
    assert!(south.lines().all(|l| l.chars().count() <= 80), "{board}");
    // the chips on the board by their player's mark, S1..S8 and N1..N8
    let marks: std::collections::BTreeSet<String> = (0..g.num_tokens())
        .filter(|&t| st.tokens().site_of(t).is_some())
        .map(|t| {
            let p = g.token(t).unwrap().owner;
            format!("{}{}", &g.player_name(p)[..1], p.0 / 2 + 1)
        })
        .collect();
    assert!(!marks.is_empty());
    for m in &marks {
        assert!(board.contains(m.as_str()), "{m} not on the board: {board}");
    }
}
