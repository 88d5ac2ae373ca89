//! Kalah(6,4) (`tests/fixtures/kalah.game`), the fixture that matches OpenSpiel's `mancala`:
//! one test per rule, from positions built by hand, and (ignored) a dump of games with the
//! legal decisions at every step, for checking against OpenSpiel move by move:
//!
//! ```sh
//! KALAH_OUT=games.jsonl KALAH_GAMES=1000 KALAH_SEED=1 \
//!     cargo test --release --test kalah -- --ignored --exact dump_games
//! KALAH_IN=moves.txt KALAH_OUT=games.jsonl \
//!     cargo test --release --test kalah -- --ignored --exact dump_games
//! ```
//!
//! Without `KALAH_IN` the games are random; with it, each line is one game's decisions (last
//! words: `s3 s1 n2 …`), played as far as they are legal. Each output line is one game:
//! `{"steps": [{"mover": "South", "pits": [s1 … s6, n1 … n6], "score": [South, North],
//! "legal": ["s1", …], "play": "s3"}, …], "over": true, "winner": "South" | "North" | null,
//! "reason": "rules", "pits": […], "score": […], "refused": null | "n4"}` (the score of a side
//! is the seeds in its store and captured).

mod common;
use common::Lcg;
use ludic::setup::Setup;
use ludic::{Game, Pending, Settings, State, load_game};

fn kalah() -> Game {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/kalah.game");
    let src = std::fs::read_to_string(path).expect("the fixture");
    load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("kalah does not load: {e:?}"))
}

fn player(g: &Game, name: &str) -> ludic::Player {
    ludic::Player(g.players().iter().position(|p| p == name).expect("a side") as u8)
}

/// Plays decisions by their last word (`s3`).
fn play(g: &Game, st: &mut State, sites: &[&str]) {
    for s in sites {
        let d = g
            .parse_decision(st, s)
            .unwrap_or_else(|e| panic!("`{s}` refused: {e}; legal: {:?}", g.legal_notations(st)));
        g.play(st, d).expect("legal");
    }
}

fn mover(g: &Game, st: &State) -> String {
    g.player_name(st.mover()).to_string()
}

fn score(g: &Game, st: &State, side: &str) -> i64 {
    st.score(g, player(g, side))
}

fn at(g: &Game, st: &State, site: &str) -> u32 {
    st.total_at(g, g.site_named(site).unwrap())
}

/// A position: counts on sites, captures, and the side to move.
fn position(g: &Game, sites: &[(&str, u32)], captured: [u32; 2], to_move: &str) -> State {
    let mut s = Setup::new(g);
    for &(site, n) in sites {
        s = s.put(site, "seed", n).unwrap();
    }
    s.captured("South", "seed", captured[0])
        .unwrap()
        .captured("North", "seed", captured[1])
        .unwrap()
        .mover(to_move)
        .unwrap()
        .build()
}

#[test]
fn start_and_a_move_again_after_the_own_store() {
    let g = kalah();
    let mut st = g.start();
    assert_eq!(mover(&g, &st), "South");
    let all: Vec<String> = (1..=6).map(|i| format!("sow s{i}")).collect();
    assert_eq!(g.legal_notations(&st), all);
    // s3: s4 s5 s6 and the last seed in South's store (east): South moves again.
    play(&g, &mut st, &["s3"]);
    assert_eq!(mover(&g, &st), "South");
    assert_eq!(score(&g, &st, "South"), 1);
    assert_eq!(
        g.legal_notations(&st),
        ["sow s1", "sow s2", "sow s4", "sow s5", "sow s6"]
    );
    // s6 (5 seeds): east, n1..n4; North to move.
    play(&g, &mut st, &["s6"]);
    assert_eq!(mover(&g, &st), "North");
    assert_eq!(score(&g, &st, "South"), 2);
    assert_eq!(at(&g, &st, "n4"), 5);
}

#[test]
fn capture_of_the_pit_and_its_opposite() {
    let g = kalah();
    // s1 -> s2, empty, opposite n5 holds 3: 1 + 3 to South.
    let mut st = position(
        &g,
        &[("s1", 1), ("s4", 2), ("n5", 3), ("n1", 1)],
        [0, 0],
        "South",
    );
    play(&g, &mut st, &["s1"]);
    assert_eq!(score(&g, &st, "South"), 4);
    assert_eq!((at(&g, &st, "s2"), at(&g, &st, "n5")), (0, 0));
    assert_eq!(mover(&g, &st), "North");
}

#[test]
fn no_capture_when_the_opposite_pit_is_empty() {
    let g = kalah();
    let mut st = position(&g, &[("s1", 1), ("s6", 1), ("n1", 2)], [0, 0], "South");
    play(&g, &mut st, &["s1"]);
    assert_eq!(score(&g, &st, "South"), 0);
    assert_eq!(at(&g, &st, "s2"), 1, "the seed stays");
    assert_eq!(mover(&g, &st), "North");
}

#[test]
fn the_opponents_store_is_skipped() {
    let g = kalah();
    // s6 (10): east, n1..n6, (not west), s1 s2 s3; s3 was empty, n4 now holds 1: capture 2.
    let mut st = position(&g, &[("s6", 10), ("n2", 1)], [0, 0], "South");
    play(&g, &mut st, &["s6"]);
    assert_eq!(score(&g, &st, "North"), 0);
    assert_eq!(score(&g, &st, "South"), 1 + 2);
    assert_eq!(
        (at(&g, &st, "s1"), at(&g, &st, "s2"), at(&g, &st, "s3")),
        (1, 1, 0)
    );
    assert_eq!(at(&g, &st, "n4"), 0);
}

#[test]
fn thirteen_seeds_come_back_to_the_emptied_pit_and_capture() {
    let g = kalah();
    // s1 (13): s2..s6, east, n1..n6, s1 (empty since picked up): capture s1 and n6 (1 + 1).
    // (North needs seeds, or the game is over before South moves.)
    let mut st = position(&g, &[("s1", 13), ("n3", 2)], [0, 0], "South");
    play(&g, &mut st, &["s1"]);
    assert_eq!(score(&g, &st, "South"), 1 + 2);
    assert_eq!((at(&g, &st, "s1"), at(&g, &st, "n6")), (0, 0));
}

#[test]
fn an_empty_row_ends_the_game_even_before_a_move_again() {
    let g = kalah();
    // s6 (1) into the store would give South another move, but his row is empty: the game
    // ends and North takes the seeds of his own pits.
    let mut st = position(&g, &[("s6", 1), ("n1", 3), ("n6", 2)], [10, 5], "South");
    play(&g, &mut st, &["s6"]);
    assert!(matches!(st.pending(), Pending::Over(_)));
    assert_eq!((score(&g, &st, "South"), score(&g, &st, "North")), (11, 10));
    assert_eq!(st.outcome().unwrap().winner, Some(player(&g, "South")));
}

#[test]
fn a_capture_that_empties_the_other_row_ends_the_game() {
    let g = kalah();
    let mut st = position(&g, &[("s1", 1), ("s4", 2), ("n5", 3)], [0, 7], "South");
    play(&g, &mut st, &["s1"]);
    assert!(matches!(st.pending(), Pending::Over(_)));
    // South: 4 captured and 2 left in s4; North: 7.
    assert_eq!((score(&g, &st, "South"), score(&g, &st, "North")), (6, 7));
    assert_eq!(st.outcome().unwrap().winner, Some(player(&g, "North")));
}

#[test]
fn equal_seeds_are_a_draw() {
    let g = kalah();
    let mut st = position(&g, &[("s6", 1), ("n1", 1)], [23, 23], "South");
    play(&g, &mut st, &["s6"]);
    assert_eq!((score(&g, &st, "South"), score(&g, &st, "North")), (24, 24));
    assert_eq!(st.outcome().unwrap().winner, None);
}

/// Seeds in s1..s6 then n1..n6.
fn pits(g: &Game, st: &State) -> Vec<u32> {
    let names = (1..=6)
        .map(|i| format!("s{i}"))
        .chain((1..=6).map(|i| format!("n{i}")));
    names.map(|n| at(g, st, &n)).collect()
}

/// One game as a JSON line: every decision with the mover and the legal decisions before it.
fn dump_game(g: &Game, script: Option<Vec<String>>, rng: &mut Lcg) -> serde_json::Value {
    let mut st = g.start();
    let mut steps = vec![];
    let mut refused = None;
    let mut script = script.map(|s| s.into_iter());
    while !matches!(st.pending(), Pending::Over(_)) {
        assert!(
            matches!(st.pending(), Pending::Choice(_)),
            "only decisions in Kalah"
        );
        let legal: Vec<String> = g
            .legal_notations(&st)
            .iter()
            .map(|n| n.rsplit(' ').next().unwrap_or(n).to_string())
            .collect();
        let pick = match script.as_mut() {
            Some(it) => match it.next() {
                Some(m) => m,
                None => break,
            },
            None => legal[rng.below(legal.len())].clone(),
        };
        steps.push(serde_json::json!({
            "mover": mover(g, &st),
            "pits": pits(g, &st),
            "score": [score(g, &st, "South"), score(g, &st, "North")],
            "legal": legal,
            "play": pick,
        }));
        match g.parse_decision(&st, &pick) {
            Ok(d) if legal.contains(&pick) => g.play(&mut st, d).expect("legal"),
            _ => {
                refused = Some(pick);
                break;
            }
        }
    }
    let outcome = st.outcome();
    serde_json::json!({
        "steps": steps,
        "over": outcome.is_some(),
        "winner": outcome.and_then(|o| o.winner).map(|p| g.player_name(p).to_string()),
        "reason": outcome.map(|o| o.reason.code()),
        "pits": pits(g, &st),
        "score": [score(g, &st, "South"), score(g, &st, "North")],
        "refused": refused,
    })
}

#[test]
#[ignore = "writes games for the comparison with OpenSpiel (KALAH_OUT, KALAH_IN, KALAH_GAMES, KALAH_SEED)"]
fn dump_games() {
    use std::io::Write;
    let g = kalah();
    let out = std::env::var("KALAH_OUT").expect("KALAH_OUT: the file to write");
    let seed: u64 = std::env::var("KALAH_SEED").map_or(1, |s| s.parse().expect("a number"));
    let mut rng = Lcg(seed);
    let scripts: Vec<Option<Vec<String>>> = match std::env::var("KALAH_IN") {
        Ok(path) => std::fs::read_to_string(path)
            .expect("KALAH_IN readable")
            .lines()
            .map(|l| Some(l.split_whitespace().map(str::to_string).collect()))
            .collect(),
        Err(_) => {
            let n: usize =
                std::env::var("KALAH_GAMES").map_or(1000, |s| s.parse().expect("a number"));
            vec![None; n]
        }
    };
    let mut f = std::io::BufWriter::new(std::fs::File::create(out).expect("KALAH_OUT writable"));
    for s in scripts {
        writeln!(f, "{}", dump_game(&g, s, &mut rng)).unwrap();
    }
}
