//! The engine's limits: each is an error of the file or a reported outcome, never a silent clamp
//! (grammar/README.md, "Limits of the engine").

use ludic::{EndReason, Fault, Game, load_game};

/// A two-row game with three holes a side; `start` and `turn` are the programs.
fn mini(start: &str, turn: &str) -> Game {
    let src = format!(
        r#"
game "Mini" {{ }}
option max_turns = 100 in 1..1000
sides South North
limit max_turns turns
board {{
  row s[1..3] at y 0 owner South
  row n[3..1] at y 1 owner North
  ring s[1..3] n[1..3] forward ccw backward cw
}}
pieces {{ stone }}
start {{ {start} }}
turn {{ {turn} }}
"#
    );
    load_game(&src, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn fault(g: &Game) -> Option<Fault> {
    match g.start().outcome().map(|o| o.reason) {
        Some(EndReason::Fault(f)) => Some(f),
        _ => None,
    }
}

const SOW: &str =
    "choose sow h where owner(h) == mover and count(h) > 0 { sow h toward ccw, lap ends at e { } }";

#[test]
fn a_large_place_is_placed_exactly() {
    // It was capped at 1,000,000 without a word.
    let g = mini("place 2000000 stone on s1", SOW);
    let st = g.start();
    assert_eq!(st.total_at(&g, g.site_named("s1").unwrap()), 2_000_000);
    assert!(!st.is_over());
}

#[test]
fn more_pieces_than_a_count_holds_stop_the_game() {
    let g = mini("place 5000000000 stone on s1", SOW);
    assert_eq!(fault(&g), Some(Fault::TooManyPieces));
    let g = mini(
        "place 3000000000 stone on s1  place 3000000000 stone on s1",
        SOW,
    );
    assert_eq!(fault(&g), Some(Fault::TooManyPieces));
    let g = mini("place 0 - 1 stone on s1", SOW);
    assert_eq!(fault(&g), Some(Fault::NegativeCount));
}

#[test]
fn arithmetic_that_has_no_value_stops_the_game() {
    // A division by a number that is zero during play.
    let g = mini(
        "place 1 stone on all",
        &format!("let z = count(s1) - 1  if 6 / z > 0 {{ }} {SOW}"),
    );
    assert_eq!(fault(&g), Some(Fault::DivisionByZero));
    // A sum that leaves the 64-bit range.
    let g = mini(
        "place 1 stone on all",
        &format!("let big = 9223372036854775807  if big + count(s1) > 0 {{ }} {SOW}"),
    );
    assert_eq!(fault(&g), Some(Fault::Overflow));
    let o = g.start().outcome().unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(
        ludic::render::outcome_text(&g, o),
        "draw (the game was stopped: a number went beyond the 64-bit range)"
    );
}

#[test]
fn taking_more_than_a_player_holds_stops_the_game() {
    let g = mini(
        "place 2 stone on s1  capture s1 to South  give 3 stone from South to North",
        SOW,
    );
    assert_eq!(fault(&g), Some(Fault::NotEnoughHeld));
    let g = mini(
        "place 2 stone on s1  capture s1 to South  place 3 stone on s2 from South",
        SOW,
    );
    assert_eq!(fault(&g), Some(Fault::NotEnoughHeld));
    // Exactly what he holds is fine.
    let g = mini(
        "place 2 stone on s1  capture s1 to South  give 2 stone from South to North",
        SOW,
    );
    assert_eq!(fault(&g), None);
}

#[test]
fn next_goes_round_the_ring_as_often_as_needed() {
    // Six sites on the ring: 7 steps from s1 is 1 step; 13 steps too; -5 steps is 1 step.
    for steps in ["1", "7", "13", "0 - 5"] {
        let g = mini(&format!("place 1 stone on next(s1, ccw, {steps})"), SOW);
        let st = g.start();
        assert_eq!(
            st.total_at(&g, g.site_named("s2").unwrap()),
            1,
            "next(s1, ccw, {steps})"
        );
    }
}

#[test]
fn a_run_longer_than_the_board_stops_the_game() {
    let g = mini("place 1 stone on run(s1, ccw, 7)", SOW);
    assert_eq!(fault(&g), Some(Fault::RunTooLong));
    let g = mini("place 1 stone on run(s1, ccw, 6)", SOW);
    assert_eq!(fault(&g), None);
}

/// A game on a board of `n` x `n` points with the given turn program.
fn points(n: u32, turn: &str) -> Game {
    let src = format!(
        r#"
game "Points" {{ }}
option max_turns = 100 in 1..1000
sides South North
limit max_turns turns
board {{ points for x in 0..{m}, y in 0..{m} }}
pieces {{ stone }}
start {{ }}
turn {{ {turn} }}
"#,
        m = n - 1
    );
    load_game(&src, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn a_loop_without_a_decision_stops_the_game_within_about_a_second() {
    // 4,096 points and a question about every point in a loop that never decides (issue 12:
    // it ran for minutes): the work of the questions counts, and the game is stopped.
    let g = points(64, "while true { if exists s where x(s) > 100 { } }");
    let t0 = std::time::Instant::now();
    let st = g.start();
    let secs = t0.elapsed().as_secs_f64();
    assert_eq!(st.outcome().unwrap().reason, EndReason::StepLimit);
    assert!(secs < 10.0, "{secs} s");
    let g = points(64, "while true { if exists s where count(s) > 100 { } }");
    let st = g.start();
    assert_eq!(st.outcome().unwrap().reason, EndReason::StepLimit);
}

#[test]
fn throws_for_ever_without_a_decision_stop_at_the_step_limit() {
    // A loop whose only stops are chance events: the work allowed runs from one decision to
    // the next, throws included (a `while` over a hidden variable once hung `simulate`).
    let src = r#"
game "Throws" { }
sides South North
limit 100 turns
board { points for x in 0..1, y in 0..1 }
pieces { stone }
dice die {
  die d faces one two
  value 1 when d == one
  value 2 otherwise
}
start { }
turn {
  let a = 0
  while a == 0 { throw die as b }
  choose put s where count(s) == 0 { place 1 stone on s }
}
"#;
    let g = load_game(src, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let mut st = g.start();
    let mut throws = 0u64;
    let t0 = std::time::Instant::now();
    while !st.is_over() {
        assert!(st.moves().is_empty(), "no decision is ever offered");
        g.play_chance(&mut st, (throws % 2) as i64).unwrap();
        throws += 1;
    }
    assert_eq!(st.outcome().unwrap().reason, EndReason::StepLimit);
    assert!(throws > 1000, "{throws} throws");
    assert!(t0.elapsed().as_secs_f64() < 10.0);
}

#[test]
fn a_turn_that_never_ends_is_stopped_and_perft_says_so() {
    let g = points(2, "choose { go x in 1 2 { again } }");
    let mut st = g.start();
    let mut decisions = 0;
    while !st.is_over() {
        let d = st.moves()[decisions % 2];
        g.play(&mut st, d).unwrap();
        decisions += 1;
    }
    assert_eq!(st.outcome().unwrap().reason, EndReason::DecisionLimit);
    assert_eq!(decisions, ludic::DECISION_LIMIT as usize + 1);
    let err = ludic::perft::perft(&g, &g.start(), 1).unwrap_err();
    assert_eq!(
        err,
        ludic::perft::PerftError::LongTurn(ludic::perft::PERFT_TURN_LIMIT)
    );
}

#[test]
fn a_match_that_never_ends_is_stopped() {
    let src = r#"
game "Rounds" { }
option max_turns = 100 in 1..1000
sides South North
limit max_turns turns
board { row s[1..2] at y 0 }
pieces { stone }
start { }
turn { end round }
between rounds { }
"#;
    let g = load_game(src, &Default::default()).unwrap();
    let st = g.start();
    assert_eq!(st.outcome().unwrap().reason, EndReason::RoundLimit);
    assert_eq!(st.round(), ludic::ROUND_LIMIT);
}

#[test]
fn perft_of_an_astronomical_tree_is_stopped() {
    let g = points(8, "choose step s where true { }");
    let err = ludic::perft::perft_limited(&g, &g.start(), 5, 10_000).unwrap_err();
    assert_eq!(err, ludic::perft::PerftError::TooMany(10_000));
}

/// A game whose sower orders the drops of a hand of `stones` small and `bigs` large pieces.
fn ordered(stones: u32, bigs: u32) -> Game {
    let src = format!(
        r#"
game "Ordered" {{ }}
sides South North
limit 100 turns
board {{
  row s[1..3] at y 0 owner South
  row n[3..1] at y 1 owner North
  ring s[1..3] n[1..3] forward ccw backward cw
}}
pieces {{ stone big }}
start {{ place {stones} stone on s1 place {bigs} big on s1 }}
turn {{
  choose sow h where owner(h) == mover and count(h) > 0 {{
    sow h toward ccw, sower orders drops, lap ends at e {{ }}
  }}
}}
"#
    );
    load_game(&src, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn a_hand_too_large_to_order_stops_the_game_at_once() {
    // 70,000 large pieces in one hand: the slots of a drop are named by 16 bits. Before, the
    // drop decisions were offered with slot numbers that wrapped, each found in quadratic time.
    let g = ordered(3, 70_000);
    let mut st = g.start();
    let sow = st.moves()[0];
    g.play(&mut st, sow).unwrap();
    assert_eq!(
        st.outcome().map(|o| o.reason),
        Some(EndReason::Fault(Fault::LapTooLongToOrder))
    );
    // 3 small and 2 large: the sower places each large piece (decisions), then the lap is sown.
    let g = ordered(3, 2);
    let mut st = g.start();
    let sow = st.moves()[0];
    g.play(&mut st, sow).unwrap();
    assert!(st.outcome().is_none());
    assert_eq!(
        st.moves().len(),
        4,
        "the first large piece: slots 1 to 4 of 5"
    );
}

#[test]
fn a_hand_larger_than_the_ring_is_sown_lap_by_lap_exactly() {
    // 1,000 pieces from s1 round a ring of six: 166 whole laps (s1 included), then four more
    // from s2. Before, such a hand was dropped one by one (2^31 pieces took minutes).
    let g = mini(
        "place 1000 stone on s1",
        "choose sow h where owner(h) == mover and count(h) > 0 { sow h toward ccw, lap ends at e { capture e } }",
    );
    let mut st = g.start();
    let sow = st.moves()[0];
    g.play(&mut st, sow).unwrap();
    let at = |s: &str| st.total_at(&g, g.site_named(s).unwrap());
    let got: Vec<u32> = ["s1", "s2", "s3", "n1", "n2", "n3"]
        .iter()
        .map(|s| at(s))
        .collect();
    assert_eq!(
        got,
        [166, 167, 167, 167, 0, 166],
        "the lap ends at n2, captured"
    );
    assert_eq!(g.start().moves().len(), 1);
}

#[test]
fn perft_of_a_turn_of_fifty_decisions_is_stopped_at_its_position_limit() {
    // Found by fuzzing: 50 nested choices make one turn of 3^50 sequences; perft 1 visited its
    // 100,000,000 positions for 60 s of CPU before it said so. It now stops at a limit the
    // caller sets (the command line: --max-positions, ten seconds of counting by default).
    let src =
        std::fs::read_to_string("tests/fixtures/fuzz/slow-perft-of-a-turn-of-fifty-decisions.game")
            .unwrap();
    let g = load_game(&src, &Default::default()).unwrap();
    let limits = ludic::perft::PerftLimits {
        positions: 200_000,
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let err = ludic::perft::perft_with(&g, &g.start(), 1, limits).unwrap_err();
    assert_eq!(err, ludic::perft::PerftError::TooMany(200_000));
    assert!(t.elapsed().as_secs_f64() < 5.0, "{:?}", t.elapsed());
}

#[test]
fn perft_of_turns_that_run_to_the_work_limit_is_stopped_at_its_work_limit() {
    // Found by fuzzing: a sowing that relays for ever stops each turn at the work limit (half a
    // second); perft 2 of such a game ran one of those per position. Perft counts the
    // engine's work over all it plays and stops at a limit (--max-work).
    let src = std::fs::read_to_string(
        "tests/fixtures/fuzz/slow-perft-of-turns-stopped-at-the-work-limit.game",
    )
    .unwrap();
    let g = load_game(&src, &Default::default()).unwrap();
    let limits = ludic::perft::PerftLimits {
        work: ludic::WORK_LIMIT,
        ..Default::default()
    };
    let err = ludic::perft::perft_with(&g, &g.start(), 3, limits).unwrap_err();
    assert_eq!(
        err,
        ludic::perft::PerftError::TooMuchWork(ludic::WORK_LIMIT)
    );
    // with room enough, it counts: every turn ends the game (stopped at the work limit)
    let roomy = ludic::perft::PerftLimits {
        work: 10 * ludic::WORK_LIMIT,
        ..Default::default()
    };
    assert_eq!(ludic::perft::perft_with(&g, &g.start(), 1, roomy), Ok(2));
}

#[test]
fn perft_memory_grows_with_depth_not_with_the_decisions_of_a_position() {
    // Issue 22: perft 1 on 4,096 points with 32 link directions (124,988 decisions at the
    // start) kept every child as a whole state: 11.7 GB. Under a 1 GB address-space limit,
    // depth 1 now counts every decision (the last turn's decisions are played without
    // listing the decisions after them), and depth 2, which lists 124,988 decisions at each
    // child, counts until its work limit (the decisions each position lists count as work).
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            "ulimit -v 1000000 && exec \"$0\" perft tests/limits/big_board.game 2 --max-work 300000",
            env!("CARGO_BIN_EXE_ludic"),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("perft(1) = 124988 "),
        "depth 1 counted within the memory: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        err.contains("more than 300000 units of work"),
        "stopped by its work limit, not by memory: {err}"
    );
    // and the same walk counts what it can: depth 1 of a small corner of the board
    let g = load_game(
        &std::fs::read_to_string("tests/limits/big_board.game")
            .unwrap()
            .replace("0..63", "0..3"),
        &Default::default(),
    )
    .unwrap();
    // every decision ends the turn: depth 1 is the decisions at the start
    let links = g.start().moves().len() as u64;
    assert!(links > 16);
    assert_eq!(ludic::perft::perft(&g, &g.start(), 1).unwrap(), links);
    assert!(ludic::perft::perft(&g, &g.start(), 2).unwrap() > links);
}

#[test]
fn a_search_on_many_threads_holds_only_the_nodes_it_uses() {
    // Issue 22: each search thread reserved 2 x 2^21 nodes (64 MB) up front: 32 threads asked
    // for 2 GB and aborted under a 1.5 GB address space. The arenas now grow on demand. (The
    // C library's allocator reserves 64 MB of address space for each thread's arena unless
    // told otherwise: two arenas, so that the limit measures the search's own memory.)
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            "ulimit -v 1500000 && exec \"$0\" simulate pallankuzhi -n 2 -j 1 --agent mcts:playouts=100,threads=32 --format json",
            env!("CARGO_BIN_EXE_ludic"),
        ])
        .env("MALLOC_ARENA_MAX", "2")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["playouts"], 2);
}

#[test]
fn more_games_at_once_than_the_system_gives_threads_is_no_panic() {
    // Issue 22: `simulate -j 5000` panicked ("failed to spawn thread", exit 101) where the
    // system refused a thread. With at most 4 processes for the user (as root, the test runs
    // the command as `nobody`, for whom the limit holds) it now plays every game on the threads
    // it got, with the same results.
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let run = |limit: &str| {
        let script =
            format!("{limit} exec \"$0\" simulate puluc -n 300 -j 50 --seed 4 --format json");
        let bin = env!("CARGO_BIN_EXE_ludic");
        let mut cmd = if root && !limit.is_empty() {
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "bash"]);
            c
        } else {
            std::process::Command::new("bash")
        };
        let out = cmd.args(["-c", &script, bin]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "{limit}: {err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["playouts"], 300);
        v["stats"].clone()
    };
    assert_eq!(run("ulimit -u 4 &&"), run(""));
}
