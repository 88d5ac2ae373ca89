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
            "Game over: North wins (by the rules). Final score: \
             South 0 stone (0 points), debt 3; North 1 stone (1 point)"
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
    let laps: Vec<(ludic::ir::SiteId, u32, Option<ludic::ir::SiteId>)> = events
        .iter()
        .map_while(|e| match *e {
            Event::Lap {
                from, pieces, last, ..
            } => Some((from, pieces, last)),
            _ => None,
        })
        .collect();
    let lap = |(from, pieces, last): (ludic::ir::SiteId, u32, Option<ludic::ir::SiteId>)| {
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
