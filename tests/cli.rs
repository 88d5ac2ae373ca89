//! The `ludic` binary, end to end.

#[path = "common/run.rs"]
mod run;

use run::ludic;
use std::process::{Command, Output, Stdio};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ludic-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_str().unwrap().to_string()
}

#[test]
fn validate_exit_codes_and_json() {
    let ok = ludic(
        &[
            "validate",
            "games/pallankuzhi.game",
            "games/ceelkoqyuqkoqiji.game",
        ],
        "",
    );
    assert_eq!(ok.status.code(), Some(0), "{:?}", text(&ok));
    assert!(
        text(&ok)
            .0
            .contains("ok: games/pallankuzhi.game (Pallankuzhi)")
    );
    let bad = ludic(
        &[
            "validate",
            "games/pallankuzhi.game",
            "tests/fixtures/ten_errors.game",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(1));
    let (_, err) = text(&bad);
    assert!(
        err.contains("tests/fixtures/ten_errors.game: 10 errors"),
        "{err}"
    );
    assert!(
        err.contains("--> tests/fixtures/ten_errors.game:9:28"),
        "{err}"
    );
    let usage = ludic(&["validate"], "");
    assert_eq!(usage.status.code(), Some(2));
    let missing = ludic(&["validate", "no/such.game"], "");
    assert_eq!(missing.status.code(), Some(1));
    let json = ludic(
        &[
            "validate",
            "--format",
            "json",
            "tests/fixtures/ten_errors.game",
        ],
        "",
    );
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let diags = v[0]["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 10);
    assert_eq!(diags[0]["code"], "out-of-range");
    assert_eq!(diags[0]["line"], 3);
    assert_eq!(diags[0]["column"], 16);
}

#[test]
fn scripted_play_record_and_replay() {
    let rec = tmp("p.json");
    let args = |rec: &str| {
        [
            "play",
            "pallankuzhi",
            "--agent",
            "North=human",
            "--seed",
            "5",
            "--record",
            rec,
            "--format",
            "json",
            "--allow-partial",
        ]
        .map(String::from)
    };
    let run = |args: &[String], input: &str| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        ludic(&a, input)
    };
    // An illegal line in a script stops the game at the position before it: exit 1, the
    // reason on standard error, that position printed, nothing of it recorded.
    let out = run(&args(&rec), "sow s4\nsow s7\n");
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    let (stdout, stderr) = text(&out);
    assert!(
        stderr.contains("refused: `sow s4` is not a legal move here"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: input line 1: `sow s4` is not a legal move here"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["turn"], 1, "the start position");
    assert_eq!(v["mover"], "South");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(r["steps"].as_array().unwrap().len(), 0);
    // A legal line, then the input ends with North to move: accepted with --allow-partial.
    let out = run(&args(&rec), "sow s7\n");
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let (stdout, _) = text(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["sites"]["s6"]["count"], 15);
    assert_eq!(v["sites"]["n1"]["count"], 0);
    assert_eq!(v["captured"]["South"]["chinni"], 3);
    assert_eq!(v["mover"], "North");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(r["game"], "pallankuzhi");
    assert_eq!(r["steps"].as_array().unwrap().len(), 1);
    let again = ludic(&["replay", &rec, "--format", "json"], "");
    assert_eq!(again.status.code(), Some(0), "{:?}", text(&again));
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(w["sites"], v["sites"]);
    assert_eq!(w["captured"], v["captured"]);
    // Without --allow-partial, input that ends before the game is an error (exit 1), and
    // the game played so far is kept in the record.
    let mut strict = args(&rec).to_vec();
    strict.pop();
    let out = run(&strict, "sow s7\n");
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    assert!(
        text(&out)
            .1
            .contains("error: the input ended after 1 line, before the end of the game"),
        "{:?}",
        text(&out)
    );
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(r["steps"].as_array().unwrap().len(), 1);
}

#[test]
fn a_whole_game_against_the_computer_replays_to_the_same_state() {
    let rec = tmp("c.json");
    let out = ludic(
        &[
            "play",
            "ceelkoqyuqkoqiji",
            "--agent",
            "South=random",
            "--seed",
            "11",
            "--record",
            &rec,
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pending"], "over");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(
        r["steps"][0]["type"], "chance",
        "the first player is a recorded chance event"
    );
    let again = ludic(&["replay", &rec, "--format", "json"], "");
    assert_eq!(again.status.code(), Some(0), "{:?}", text(&again));
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(w, v);
    // A tampered record is refused with the step that fails.
    let tampered = std::fs::read_to_string(&rec)
        .unwrap()
        .replacen("\"sow ", "\"sow z", 1);
    let bad = tmp("bad.json");
    std::fs::write(&bad, tampered).unwrap();
    let out = ludic(&["replay", &bad], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("step 2:"), "{:?}", text(&out));
}

#[test]
fn several_decisions_on_one_line_undo_help_and_quit() {
    let out = ludic(
        &[
            "play",
            "ceelkoqyuqkoqiji",
            "--seed",
            "3",
            "--agent",
            "North=human",
        ],
        "help\ns5 ccw\nundo\nboard\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let (stdout, _) = text(&out);
    assert!(stdout.contains("Commands: undo"), "{stdout}");
    assert!(stdout.contains("plays sow s5, ccw"), "{stdout}");
    assert!(stdout.contains("undone"), "{stdout}");
    assert!(stdout.contains("game stopped"), "{stdout}");
    // a line with a word left over is refused whole: from a script, that stops the game
    let out = ludic(
        &[
            "play",
            "ceelkoqyuqkoqiji",
            "--seed",
            "3",
            "--agent",
            "North=human",
        ],
        "sow s1 cw nonsense\nquit\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let (stdout, stderr) = text(&out);
    assert!(stdout.contains("refused:"), "{stdout}");
    assert!(!stdout.contains("game stopped"), "{stdout}");
    assert!(stderr.contains("error: input line 1:"), "{stderr}");
}

#[test]
fn bad_options_and_agents_are_usage_errors() {
    let out = ludic(&["play", "pallankuzhi", "-o", "seeds=99"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out)
            .1
            .contains("option `seeds` = 99 is out of range 2..40")
    );
    let out = ludic(&["play", "pallankuzhi", "--agent", "East=random"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out)
            .1
            .contains("unknown side `East`: the sides are South, North")
    );
    let out = ludic(&["play", "pallankuzi"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out)
            .1
            .contains("did you mean the built-in game `pallankuzhi`?")
    );
    let out = ludic(
        &["simulate", "ceelkoqyuqkoqiji", "--variant", "nine holes"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn simulate_reports_json_figures() {
    let out = ludic(
        &[
            "simulate",
            "ceelkoqyuqkoqiji",
            "-n",
            "50",
            "--seed",
            "3",
            "--variant",
            "seven holes",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "playouts",
        "wins",
        "draws",
        "turn_limit_reached",
        "moves_mean",
        "moves_min",
        "moves_max",
        "branching_mean",
        "playouts_per_second",
        "moves_per_second",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["playouts"], 50);
    let wins = v["wins"]["South"].as_u64().unwrap() + v["wins"]["North"].as_u64().unwrap();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 50);
    // The same seed gives the same games.
    let again = ludic(
        &[
            "simulate",
            "ceelkoqyuqkoqiji",
            "-n",
            "50",
            "--seed",
            "3",
            "--variant",
            "seven holes",
            "--format",
            "json",
        ],
        "",
    );
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(w["wins"], v["wins"]);
    assert_eq!(w["moves_mean"], v["moves_mean"]);
}

#[test]
fn list_and_help_show_games_options_and_examples() {
    let out = ludic(&["list"], "");
    let (s, _) = text(&out);
    assert!(s.contains("pallankuzhi: Pallankuzhi"));
    assert!(s.contains("\"seven holes\""));
    assert!(s.contains("seeds        default 12     in 2..40"));
    let out = ludic(&["list", "--format", "json"], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), ludic::builtin::GAMES.len());
    for cmd in [
        "validate", "play", "replay", "simulate", "sweep", "merge", "list",
    ] {
        let out = ludic(&[cmd, "--help"], "");
        assert_eq!(out.status.code(), Some(0));
        assert!(
            text(&out).0.contains("Examples:"),
            "{cmd} --help has examples"
        );
    }
}

#[test]
fn a_whole_match_is_played_announced_recorded_and_replayed() {
    let rec = tmp("match.json");
    let args = [
        "play",
        "ceelkoqyuqkoqiji",
        "-o",
        "rounds=match",
        "-o",
        "max_rounds=6",
        "--agent",
        "South=random",
        "--agent",
        "North=random",
        "--seed",
        "5",
        "--record",
        &rec,
    ];
    let out = ludic(&args, "");
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let (s, _) = text(&out);
    assert!(s.contains("=== Round 1 is over"), "{s}");
    assert!(s.contains("=== Round 2 begins ==="), "{s}");
    assert!(s.contains("debt: South"), "debts are shown: {s}");
    assert!(s.contains("Game over"), "{s}");
    let again = ludic(&["replay", &rec, "--format", "json"], "");
    assert_eq!(again.status.code(), Some(0), "{:?}", text(&again));
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert!(w["round"].as_u64().unwrap() >= 2, "{w}");
    assert!(w["tallies"]["debt"]["South"].is_i64());
    assert_eq!(w["pending"], "over");
    // The same game, played again with JSON output, ends in the same state.
    let mut args2 = args.to_vec();
    args2.truncate(args.len() - 2);
    args2.extend(["--format", "json"]);
    let out = ludic(&args2, "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v, w);

    // simulate reports rounds per match
    let out = ludic(
        &[
            "simulate",
            "pallankuzhi",
            "-n",
            "30",
            "-o",
            "rounds=match",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["rounds_mean"].as_f64().unwrap() > 1.0, "{v}");
    assert!(v["rounds_max"].as_u64().unwrap() >= v["rounds_min"].as_u64().unwrap());
}

#[test]
fn a_game_won_on_the_last_allowed_turn_is_won_from_the_cli() {
    // The reported game: South wins on turn 42; with `max_turns=42` it was called a draw.
    let run = |limit: &str| {
        let args = ["play", "puluc", "--seed", "1", "--agent", "South=random"];
        let more = ["--agent", "North=random", "-o", limit];
        text(&ludic(&[&args[..], &more[..]].concat(), "")).0
    };
    let won = run("max_turns=42");
    assert!(
        won.ends_with(
            "Game over: South wins (the loser controls no piece). Final score: South 3 on the board, 2 killed; North 2 on the board, 3 killed\n"
        ),
        "{won}"
    );
    assert!(run("max_turns=41").contains("Game over: draw (the turn limit of 41 was reached)"));
}

#[test]
fn bench_times_games_and_reports_in_json() {
    let out = ludic(
        &["bench", "puluc", "--seconds", "0.05", "--format", "json"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out).1);
    let v: serde_json::Value = serde_json::from_str(&text(&out).0).unwrap();
    let row = &v[0];
    assert_eq!(row["game"], "puluc");
    for key in [
        "playouts_per_second",
        "decisions_per_second",
        "decisions_per_playout",
    ] {
        assert!(row[key].as_f64().unwrap() > 0.0, "{key}");
    }
    let bad = ludic(&["bench", "puluc", "--seconds", "0"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn bench_plays_a_fixed_number_of_playouts() {
    let run = |n: &str| {
        let out = ludic(&["bench", "puluc", "--playouts", n, "--format", "json"], "");
        assert!(out.status.success(), "{}", text(&out).1);
        let v: serde_json::Value = serde_json::from_str(&text(&out).0).unwrap();
        (
            v[0]["playouts"].as_u64().unwrap(),
            v[0]["decisions"].as_u64().unwrap(),
        )
    };
    let (playouts, decisions) = run("7");
    assert_eq!(playouts, 7);
    assert!(decisions > 7);
    // the same playouts (same seed) on every run
    assert_eq!(run("7"), (7, decisions));
    for bad in [
        vec!["bench", "puluc", "--playouts", "0"],
        vec!["bench", "puluc", "--playouts", "5", "--seconds", "1"],
    ] {
        let out = ludic(&bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn bench_interleaves_rounds_and_writes_a_table_to_paste() {
    // each round plays the same playouts (the seed's); the row is their median
    let out = ludic(
        &[
            "bench",
            "puluc",
            "kuilichi",
            "--playouts",
            "4",
            "--rounds",
            "3",
            "--format",
            "json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out).1);
    let v: serde_json::Value = serde_json::from_str(&text(&out).0).unwrap();
    for row in v.as_array().unwrap() {
        let rounds = row["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 3);
        let decisions = rounds[0]["decisions"].as_u64().unwrap();
        assert!(
            rounds
                .iter()
                .all(|r| r["playouts"] == 4 && r["decisions"] == decisions)
        );
        assert_eq!(row["playouts"], 12);
        assert_eq!(row["decisions"].as_u64(), Some(3 * decisions));
        assert!(rounds.iter().all(|r| r["seconds"].as_f64().unwrap() > 0.0));
    }
    let out = ludic(
        &[
            "bench",
            "puluc",
            "--seconds",
            "0.02",
            "--format",
            "markdown",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out).1);
    let md = text(&out).0;
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(
        lines[0],
        "| game | playouts/CPU-s | decisions/CPU-s | dec/game |"
    );
    assert_eq!(lines[1], "|---|---:|---:|---:|");
    assert!(lines[2].starts_with("| `puluc` | "), "{md}");
    assert!(
        lines[4].starts_with("median of 3 rounds of 0.02 CPU-s a game, games interleaved"),
        "{md}"
    );
    assert!(lines[4].contains("load average"), "{md}");
    for bad in [
        vec!["bench", "puluc", "--rounds", "0"],
        vec!["bench", "puluc", "--rounds", "x"],
        vec!["bench", "puluc", "--format", "csv"],
    ] {
        let out = ludic(&bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

// ------------------------------------------------------------ replay --at and --step, narration

/// A record of a built-in game with these options and steps (`South: sow s7` is a decision,
/// `chance: South` a chance outcome), written to a temporary file.
fn record_of(game: &str, file: &str, options: &[(&str, &str)], steps: &[&str]) -> String {
    let (_, src) = ludic::builtin::find(game).expect("a built-in game");
    let steps: Vec<serde_json::Value> = steps
        .iter()
        .map(|s| {
            let (who, what) = s.split_once(": ").expect("WHO: WHAT");
            if who == "chance" {
                serde_json::json!({"type": "chance", "outcome": what})
            } else {
                serde_json::json!({"type": "decision", "player": who, "notation": what})
            }
        })
        .collect();
    let options: serde_json::Map<String, serde_json::Value> = options
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
        .collect();
    let rec = serde_json::json!({
        "format": 1, "game": game, "title": game, "source_hash": ludic::source_hash(src),
        "options": options, "seed": null, "steps": steps, "result": null,
    });
    let path = tmp(file);
    std::fs::write(&path, serde_json::to_string_pretty(&rec).unwrap()).unwrap();
    path
}

/// The game of a record and its position after `n` steps, replayed in the library.
fn position_of(record: &str, n: usize) -> (ludic::Game, ludic::State) {
    let rec: ludic::record::Record =
        serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    let (_, src) = ludic::builtin::find(&rec.game).expect("a built-in game");
    let mut settings = ludic::Settings {
        variant: None,
        sets: vec![],
    };
    for (k, v) in &rec.options {
        settings.push_assignment(&format!("{k}={v}")).unwrap();
    }
    let g = ludic::load_game(src, &settings).unwrap();
    let st = ludic::record::replay(&g, &rec.steps[..n]).unwrap();
    (g, st)
}

/// `replay RECORD --at N`, checked whole: the step and what it did (`told`), the board after
/// it, and what comes next.
fn assert_at(record: &str, n: usize, told: &[&str], next: &str) {
    let out = ludic(&["replay", record, "--at", &n.to_string()], "");
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let (stdout, stderr) = text(&out);
    assert!(stderr.is_empty(), "{stderr}");
    let (g, st) = position_of(record, n);
    let board = ludic::render::board_text(&g, &st);
    assert_eq!(stdout, format!("{}\n{board}\n{next}\n", told.join("\n")));
}

#[test]
fn replay_at_shows_the_position_after_a_step_with_what_it_did() {
    // Pallankuzhi, the first sowing: s7's 12 chinni go clockwise to n2; n1 (12) relays to n3;
    // n2 (13) relays round to n3 again; n2 is now empty: South captures n1 and its opposite s7.
    let rec = record_of("pallankuzhi", "sow-s7.json", &[], &["South: sow s7"]);
    assert_at(
        &rec,
        1,
        &[
            "Step 1 of 1: South plays sow s7",
            "South sows 12 from s7, ending at n2",
            "  relays 12 from n1, ending at n3",
            "  relays 13 from n2, ending at n3",
            "South captures 3: 1 from n1, 2 from s7",
        ],
        "The game is not finished: North to decide",
    );
    assert_at(
        &rec,
        0,
        &["Step 0 of 1: the start"],
        "The game is not finished: South to decide",
    );
    // --format json: the state, as `play --format json` gives it
    for n in [0, 1] {
        let out = ludic(
            &["replay", &rec, "--at", &n.to_string(), "--format", "json"],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let (g, st) = position_of(&rec, n);
        assert_eq!(v, ludic::render::state_json(&g, &st));
    }
    // past the end: an error naming the last step, exit 2, nothing on standard output
    let out = ludic(&["replay", &rec, "--at", "2"], "");
    assert_eq!(out.status.code(), Some(2));
    let (stdout, stderr) = text(&out);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(
        stderr,
        format!("error: --at 2: the last step of `{rec}` is step 1 (--at 0 is the start)\n")
    );
    let out = ludic(&["replay", &rec, "--at", "2", "--format", "json"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// A short game of Puluc with chosen throws: South enters a piece, North enters one, South
/// lands on it (and takes it prisoner), North enters another, South's stack reaches the end.
const PULUC_STEPS: &[&str] = &[
    "chance: South",
    "chance: marked marked marked blank",
    "South: move c0",
    "chance: blank blank blank blank",
    "North: move c10",
    "chance: marked marked blank blank",
    "South: move c3",
    "chance: marked blank blank blank",
    "North: move c10",
    "chance: blank blank blank blank",
    "South: move c5",
];

#[test]
fn the_narration_of_a_race_with_dice_a_capture_and_a_piece_killed() {
    let rec = record_of("puluc", "puluc.json", &[], PULUC_STEPS);
    assert_at(
        &rec,
        1,
        &["Step 1 of 11: Chance: South plays first"],
        "The game is not finished: South to throw",
    );
    assert_at(
        &rec,
        2,
        &["Step 2 of 11: South throws marked marked marked blank = 3"],
        "The game is not finished: South to decide",
    );
    assert_at(
        &rec,
        3,
        &[
            "Step 3 of 11: South plays move c0",
            "South's piece moves c0 → c3",
        ],
        "The game is not finished: North to throw",
    );
    assert_at(
        &rec,
        7,
        &[
            "Step 7 of 11: South plays move c3",
            "South's piece moves c3 → c5, onto North's piece",
        ],
        "The game is not finished: North to throw",
    );
    // 5 takes the stack from c5 to the end of South's track: his piece goes home, the
    // prisoner is killed.
    assert_at(
        &rec,
        11,
        &[
            "Step 11 of 11: South plays move c5",
            "South's piece moves c5 → c0",
            "North loses a piece on c5 (killed)",
        ],
        "The game is not finished: North to throw",
    );
}

#[test]
fn the_narration_of_a_hop_that_captures() {
    // White steps c5-e5, Black c7-c5, White hops from e5 over Black's man on d6 to c7.
    let rec = record_of(
        "tuknanavuhpi",
        "hop.json",
        &[],
        &["White: step c5 e5", "Black: step c7 c5", "White: hop e5 c7"],
    );
    assert_at(
        &rec,
        3,
        &[
            "Step 3 of 3: White plays hop e5 c7",
            "Black loses a man on d6 (captured)",
            "White's man moves e5 → c7",
        ],
        "The game is not finished: Black to decide",
    );
}

#[test]
fn the_end_of_a_game_says_who_won_why_and_the_score() {
    // The game of `a_game_won_on_the_last_allowed_turn_is_won_from_the_cli`, recorded.
    let end = |limit: &str, file: &str| {
        let rec = tmp(file);
        let args = ["play", "puluc", "--seed", "1", "--agent", "South=random"];
        let more = ["--agent", "North=random", "-o", limit, "--record", &rec];
        let out = ludic(&[&args[..], &more[..]].concat(), "");
        assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
        let out = ludic(&["replay", &rec], "");
        assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
        text(&out).0.lines().last().unwrap_or("").to_string()
    };
    assert_eq!(
        end("max_turns=42", "won.json"),
        "Game over: South wins (the loser controls no piece). Final score: \
         South 3 on the board, 2 killed; North 2 on the board, 3 killed"
    );
    assert_eq!(
        end("max_turns=41", "drawn.json"),
        "Game over: draw (the turn limit of 41 was reached). Final score: \
         South 3 on the board, 2 killed; North 2 on the board, 3 killed"
    );
    // A sowing game: each player's captures.
    let rec = tmp("pallankuzhi-3.json");
    let args = [
        "play",
        "pallankuzhi",
        "--seed",
        "3",
        "--agent",
        "South=random",
    ];
    let more = ["--agent", "North=random", "--record", &rec];
    let out = ludic(&[&args[..], &more[..]].concat(), "");
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let out = ludic(&["replay", &rec], "");
    assert!(
        text(&out).0.ends_with(
            "\nGame over: North wins (the round is over: the higher score wins). Final score: South 27, North 57\n"
        ),
        "{}",
        text(&out).0
    );
    // A game stopped by the turn limit of its record, at --at: the end line too.
    let rec = record_of(
        "puluc",
        "limit.json",
        &[("max_turns", "2")],
        &PULUC_STEPS[..5],
    );
    let out = ludic(&["replay", &rec, "--at", "5"], "");
    assert!(
        text(&out).0.ends_with(
            "\nGame over: draw (the turn limit of 2 was reached). Final score: \
             South 5 on the board, 0 killed; North 5 on the board, 0 killed\n"
        ),
        "{:?}",
        text(&out)
    );
}

#[test]
fn replay_step_goes_forward_back_and_to_a_step_from_piped_input() {
    let rec = record_of("puluc", "step.json", &[], PULUC_STEPS);
    let out = ludic(
        &["replay", &rec, "--step"],
        "\n\nb\n7\n99\nnonsense\nhelp\nq\n\n",
    );
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let (stdout, stderr) = text(&out);
    assert!(stderr.is_empty(), "{stderr}");
    assert!(
        stdout.starts_with(
            "Puluc: 11 steps. Enter: next step, b: back one step, a number: go to that step, \
             q: quit, help: this line\nStep 0 of 11: the start\n"
        ),
        "{stdout}"
    );
    let shown: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Step "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(
        shown,
        [
            "Step 0 of 11",
            "Step 1 of 11",
            "Step 2 of 11",
            "Step 1 of 11",
            "Step 7 of 11",
        ]
    );
    // each command read is echoed after its prompt; what step 7 did is told
    for line in [
        "[step 0 of 11] > ",
        "[step 2 of 11] > b",
        "[step 1 of 11] > 7",
        "South's piece moves c3 → c5, onto North's piece",
        "[step 7 of 11] > 99",
        "there is no step 99: the last is step 11",
        "[step 7 of 11] > nonsense",
        "unknown command `nonsense`: Enter: next step, b: back one step, a number: go to that \
         step, q: quit, help: this line",
        "[step 7 of 11] > q",
    ] {
        assert!(stdout.lines().any(|l| l == line), "`{line}` in {stdout}");
    }
    assert!(
        stdout.ends_with("[step 7 of 11] > q\n"),
        "q quits: {stdout}"
    );

    // from a step, to the ends and past them; the end of the input stops quietly
    let out = ludic(&["replay", &rec, "--step", "--at", "11"], "\n0\nb\n");
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let stdout = text(&out).0;
    assert!(
        stdout.contains("\nStep 11 of 11: South plays move c5\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "[step 11 of 11] > \nstep 11 is the last: b goes back, a number goes to a step, q quits\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("[step 0 of 11] > b\nthis is the start: Enter goes to step 1\n"),
        "{stdout}"
    );
    // --step is for the terminal; its --at is checked like --at alone
    let out = ludic(&["replay", &rec, "--step", "--format", "json"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = ludic(&["replay", &rec, "--step", "--at", "12"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rules_explain_every_built_in_game() {
    for (name, src) in ludic::builtin::GAMES {
        let g = ludic::load_game(src, &ludic::Settings::default()).unwrap();
        let out = ludic(&["rules", name], "");
        let (s, e) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{name}: {e}");
        assert!(s.starts_with(g.title()), "{name}: {s}");
        let summary = g.about().summary.expect("a summary");
        let first: Vec<&str> = summary.split_whitespace().take(4).collect();
        assert!(s.contains(&first.join(" ")), "{name}: the summary: {s}");
        assert!(s.contains(g.about().origin.unwrap()), "{name}");
        for l in g.all_labels() {
            let doc = l.doc.expect("every label is described");
            let line = s
                .lines()
                .find(|x| x.trim_start().starts_with(&format!("{} ", l.name)) && x.contains(doc));
            assert!(
                line.is_some(),
                "{name}: label `{}` with `{doc}`: {s}",
                l.name
            );
        }
        for o in g.all_options() {
            assert!(
                s.contains(&format!("    {} ", o.name)),
                "{name}: option {}",
                o.name
            );
        }
        for v in g.all_variants() {
            assert!(
                s.contains(&format!("\"{}\"", v.name)),
                "{name}: variant {}",
                v.name
            );
        }
        // the start position as play draws it, and how a decision is typed
        let board = ludic::render::board_text(&g, &g.start());
        assert!(s.contains(board.trim_end()), "{name}: the start position");
        assert!(s.contains("For example, at the start"), "{name}: {s}");
        // the same as data
        let out = ludic(&["rules", name, "--format", "json"], "");
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["title"], g.title());
        assert_eq!(v["summary"], summary);
        assert_eq!(
            v["labels"].as_array().unwrap().len(),
            g.all_labels().count()
        );
        assert_eq!(
            v["options"].as_array().unwrap().len(),
            g.all_options().count()
        );
        assert!(
            !v["example"]["decisions"].as_array().unwrap().is_empty(),
            "{name}"
        );
    }
}

#[test]
fn rules_take_options_variants_and_files_and_refuse_what_play_refuses() {
    let out = ludic(
        &[
            "rules",
            "ceelkoqyuqkoqiji",
            "--variant",
            "seven holes",
            "-o",
            "stones=3",
        ],
        "",
    );
    let (s, e) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{e}");
    assert!(s.contains("in force: holes=7 stones=3"), "{s}");
    assert!(s.contains(" n7 "), "the board of the variant: {s}");
    // the glossary of a game file without descriptions lists its labels all the same
    let out = ludic(&["rules", "tests/fixtures/valid_mini.game"], "");
    let (s, e) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{e}");
    assert!(s.contains("file: tests/fixtures/valid_mini.game"), "{s}");
    assert!(s.contains("sow  (not described)"), "{s}");
    // what `play` refuses, `rules` refuses with the same exit code
    for args in [
        &["no-such-game"][..],
        &["tests/fixtures/ten_errors.game"],
        &["pallankuzhi", "-o", "seeds=99"],
        &["pallankuzhi", "--variant", "nope"],
    ] {
        let play = ludic(&[&["play"][..], args].concat(), "");
        let rules = ludic(&[&["rules"][..], args].concat(), "");
        assert_ne!(rules.status.code(), Some(0), "{args:?}");
        assert_eq!(rules.status.code(), play.status.code(), "{args:?}");
        assert!(rules.stdout.is_empty(), "{args:?}");
        assert!(text(&rules).1.contains("error"), "{args:?}");
    }
    let out = ludic(&["rules", "pallankuzi"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out)
            .1
            .contains("did you mean the built-in game `pallankuzhi`?")
    );
    // output that cannot be written
    for args in [&["rules", "puluc"][..], &["help", "language"]] {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            break;
        };
        let out = Command::new(env!("CARGO_BIN_EXE_ludic"))
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write the output"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn help_prints_the_language_reference_and_clap_help() {
    let out = ludic(&["help", "language"], "");
    let (s, _) = text(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(s.starts_with("# The ludic language"), "{s}");
    assert!(s.contains("## Decisions and notation"));
    assert!(s.contains("### What the labels mean"));
    assert_eq!(s, std::fs::read_to_string("grammar/README.md").unwrap());
    // `ludic help` and `ludic help COMMAND` are clap's help, as `--help` is
    let help = ludic(&["help"], "");
    assert_eq!(help.status.code(), Some(0));
    assert_eq!(text(&help).0, text(&ludic(&["--help"], "")).0);
    assert!(text(&help).0.contains("rules"));
    for cmd in ["play", "rules", "validate"] {
        let help = ludic(&["help", cmd], "");
        assert_eq!(help.status.code(), Some(0), "{cmd}");
        assert_eq!(text(&help).0, text(&ludic(&[cmd, "--help"], "")).0, "{cmd}");
        assert!(
            text(&help).0.contains(&format!("Usage: ludic {cmd}")),
            "{cmd}"
        );
    }
    let out = ludic(&["help", "pley"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("did you mean `ludic help play`?"));
    // hints point to the built-in reference, not to a file of the sources
    let out = ludic(&["validate", "tests/fixtures/errors/syntax.game"], "");
    assert!(text(&out).1.contains("`ludic help language`"));
}

#[test]
fn a_bracket_never_closed_is_reported_where_it_opens_and_where_parsing_stopped() {
    let path = "tests/fixtures/errors/unclosed_brace.game";
    let out = ludic(&["validate", path], "");
    let (_, e) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    let open = e.find("error: this `{` is never closed").expect(&e);
    let stop = e.find("error: syntax error").expect(&e);
    assert!(open < stop, "sorted by position: {e}");
    assert!(e.contains(&format!("--> {path}:18:29")), "{e}");
    assert!(e.contains(&format!("--> {path}:23:1")), "{e}");
    assert!(
        e.contains("18 |       if count(next(e)) > 0 { relay next(e)"),
        "{e}"
    );
    assert!(e.contains("2 errors"), "{e}");
    // as data, each with its own line and column
    let out = ludic(&["validate", "--format", "json", path], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = v[0]["diagnostics"].as_array().unwrap();
    let at: Vec<(&str, u64, u64)> = d
        .iter()
        .map(|x| {
            (
                x["code"].as_str().unwrap(),
                x["line"].as_u64().unwrap(),
                x["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(at, [("unclosed", 18, 29), ("syntax", 23, 1)]);
    // a file that ends inside a block: the block, and the end of the file
    let src = std::fs::read_to_string("tests/fixtures/valid_mini.game").unwrap();
    let cut = tmp("cut.game");
    std::fs::write(&cut, src.trim_end().trim_end_matches('}')).unwrap();
    let out = ludic(&["validate", &cut], "");
    let (_, e) = text(&out);
    assert!(e.contains("this `{` is never closed"), "{e}");
    assert!(e.contains(":15:6"), "the `{{` of `turn`: {e}");
    assert!(e.contains("the file ends before its `}`"), "{e}");
}

#[test]
fn typing_forgives_typos_a_left_out_label_and_explains_directions() {
    let args = [
        "play",
        "ceelkoqyuqkoqiji",
        "--seed",
        "3",
        "--agent",
        "North=human",
        "--keep-going",
    ];
    let out = ludic(&args, "sw s1\nundoo\ns5\nquit\n");
    let (o, _) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{o}");
    assert!(
        o.contains("refused: `sw s1` is not a legal move here; did you mean `sow s1`?"),
        "{o}"
    );
    assert!(
        o.contains("refused: `undoo` is neither a move nor a command; did you mean `undo`?"),
        "{o}"
    );
    // `rules` at a turn: the summary and what each label means, from the game file
    let rules = text(&ludic(&args, "rules\nquit\n")).0;
    assert!(
        rules.contains("\n  huelshe  refill your empty holes"),
        "{rules}"
    );
    assert!(
        rules.contains("\n  sow      pick up one of your holes"),
        "{rules}"
    );
    // the ring's directions as the screen shows them, for South (the bottom row)
    assert!(
        o.contains("1. ccw (to the right along your row)   2. cw (to the left along your row)"),
        "{o}"
    );
    // a decision without its label: `d4 e5` for `step d4 e5`
    let out = ludic(
        &[
            "play",
            "tuknanavuhpi",
            "--seed",
            "1",
            "--agent",
            "Black=human",
        ],
        "d4 e5\nquit\n",
    );
    let (o, _) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{o}");
    assert!(o.contains("White plays step d4 e5"), "{o}");
}

#[test]
fn colours_only_when_asked_or_at_a_terminal_and_team_players_marked() {
    let run = |extra: &[&str], env_no_color: bool| {
        let mut args = vec![
            "play",
            "kuilichi-chanakua",
            "-o",
            "team_size=2",
            "--seed",
            "2",
            "--agent",
            "South1=random",
            "--agent",
            "South2=random",
            "--agent",
            "North1=random",
            "--agent",
            "North2=random",
            "-o",
            "max_turns=6",
        ];
        args.extend_from_slice(extra);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ludic"));
        cmd.args(&args).stdin(Stdio::null());
        if env_no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    // not a terminal: no escapes; --color always: escapes; --color never wins over nothing
    assert!(!run(&[], false).contains('\u{1b}'));
    assert!(run(&["--color", "always"], true).contains("\u{1b}["));
    assert!(!run(&["--color", "never"], false).contains('\u{1b}'));
    // each player of a team has his own mark, and the last move's sites are marked
    let plain = run(&[], false);
    assert!(plain.contains("S1") && plain.contains("N1"), "{plain}");
    assert!(plain.contains("[S1]") || plain.contains("[N1]"), "{plain}");
}

#[test]
fn replay_accepts_what_play_accepts() {
    // Issue 22: a step written as a decision's last words (`s3` for `sow s3`), as `play`
    // accepts it, was refused by replay as illegal.
    let rec = tmp("last-words.json");
    let out = ludic(
        &[
            "play",
            "pallankuzhi",
            "--agent",
            "South=random",
            "--agent",
            "North=random",
            "--seed",
            "8",
            "--record",
            &rec,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let full = ludic(&["replay", &rec, "--format", "json"], "");
    assert_eq!(full.status.code(), Some(0), "{}", text(&full).1);
    // every `sow X` written as `X`
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let mut shortened = 0;
    for step in v["steps"].as_array_mut().unwrap() {
        if let Some(n) = step["notation"].as_str()
            && let Some(site) = n.strip_prefix("sow ")
        {
            step["notation"] = serde_json::Value::String(site.to_string());
            shortened += 1;
        }
    }
    assert!(shortened > 5, "{shortened}");
    let short = tmp("last-words-short.json");
    std::fs::write(&short, v.to_string()).unwrap();
    let out = ludic(&["replay", &short, "--format", "json"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert_eq!(out.stdout, full.stdout, "the same game, to the same end");
    // an illegal step is still refused, with its reason
    let steps = v["steps"].as_array_mut().unwrap();
    let first = steps
        .iter_mut()
        .find(|s| s["notation"].is_string())
        .unwrap();
    first["notation"] = serde_json::Value::String("n1".into());
    std::fs::write(&short, v.to_string()).unwrap();
    let out = ludic(&["replay", &short], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("not a legal move"),
        "{}",
        text(&out).1
    );
}
