//! Agents through the binary: `ludic match` (table, JSON, records that replay, determinism
//! with two threads), computer players in `ludic play`, and usage errors.

use std::process::{Command, Output};

fn ludic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .output()
        .expect("run ludic")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn tmp_dir(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ludic-agents-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.to_str().unwrap().to_string()
}

#[test]
fn a_match_prints_its_table() {
    let out = ludic(&[
        "match",
        "pallankuzhi",
        "--agent",
        "random",
        "--agent",
        "random",
        "-n",
        "20",
        "--seed",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let (s, err) = text(&out);
    assert!(
        err.is_empty(),
        "no progress when stderr is not a terminal: {err}"
    );
    for want in [
        "Pallankuzhi: 20 games, seats alternated (seed 3;",
        "A = random",
        "95% CI (Wilson)",
        "A by side (wins-draws-losses): as South",
        "Elo difference A - B:",
        "of them real choices",
    ] {
        assert!(s.contains(want), "`{want}` in\n{s}");
    }
}

#[test]
fn a_match_in_json_counts_every_game() {
    let out = ludic(&[
        "match",
        "ceelkoqyuqkoqiji",
        "--agent",
        "mcts:playouts=100",
        "--agent",
        "random",
        "-n",
        "6",
        "-j",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 6);
    assert_eq!(v["interval"], "wilson 95%");
    let (a, b) = (&v["agents"][0], &v["agents"][1]);
    assert_eq!(a["name"], "A");
    assert_eq!(a["spec"], "mcts:playouts=100");
    assert_eq!(a["agent"], "mcts, 100 playouts a move, 1 thread");
    let n = |x: &serde_json::Value, k: &str| x[k].as_u64().unwrap();
    assert_eq!(n(a, "wins") + n(a, "draws") + n(a, "losses"), 6);
    assert_eq!(
        (n(a, "wins"), n(a, "draws")),
        (n(b, "losses"), n(b, "draws"))
    );
    assert_eq!(
        n(&a["by_side"]["South"], "wins") + n(&a["by_side"]["North"], "wins"),
        n(a, "wins")
    );
    assert!(n(a, "real_choices") <= n(a, "decisions"));
    assert!(n(a, "playouts") >= 100 * n(a, "searched_decisions"));
    let s = a["score"].as_f64().unwrap();
    assert!(a["score_low"].as_f64().unwrap() <= s && s <= a["score_high"].as_f64().unwrap());
    for k in [
        "elo",
        "elo_low",
        "elo_high",
        "ended_by",
        "decisions_mean",
        "seconds",
    ] {
        assert!(v.get(k).is_some(), "{k} in {v}");
    }
}

#[test]
fn match_records_replay_and_two_threads_repeat_with_a_seed() {
    let args = |dir: &str| {
        [
            "match",
            "pallankuzhi",
            "--agent",
            "mcts:playouts=400",
            "--agent",
            "mcts:playouts=200",
            "-n",
            "2",
            "--threads",
            "2",
            "--seed",
            "5",
            "--record-dir",
            dir,
        ]
        .map(str::to_string)
    };
    let (d1, d2) = (tmp_dir("r1"), tmp_dir("r2"));
    for d in [&d1, &d2] {
        let out = Command::new(env!("CARGO_BIN_EXE_ludic"))
            .args(args(d))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    }
    for f in ["game-1.json", "game-2.json"] {
        let (p1, p2) = (format!("{d1}/{f}"), format!("{d2}/{f}"));
        let r1 = std::fs::read_to_string(&p1).unwrap();
        assert_eq!(
            r1,
            std::fs::read_to_string(&p2).unwrap(),
            "same seed, same threads: same game"
        );
        let rec: serde_json::Value = serde_json::from_str(&r1).unwrap();
        assert_eq!(rec["game"], "pallankuzhi");
        let seat_a = if f == "game-1.json" { "South" } else { "North" };
        assert_eq!(
            rec["agents"][seat_a],
            "mcts, 400 playouts a move, 2 threads"
        );
        let out = ludic(&["replay", &p1, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
        let end: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(end["pending"], "over");
    }
}

#[test]
fn two_computers_play_with_their_estimates() {
    let out = ludic(&[
        "play",
        "pallankuzhi",
        "--agent",
        "South=mcts:playouts=300",
        "--agent",
        "North=mcts:playouts=300,threads=1",
        "--seed",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let (s, err) = text(&out);
    assert!(
        s.contains("South: computer (mcts, 300 playouts a move,"),
        "{s}"
    );
    assert!(s.contains("South plays sow s"), "{s}");
    assert!(s.contains(" of 300 playouts"), "{s}");
    assert!(s.contains("Game over:"), "{s}");
    assert!(
        !err.contains("thinks"),
        "no spinner without a terminal: {err}"
    );
}

#[test]
fn simulate_plays_an_agent_against_itself() {
    let out = ludic(&[
        "simulate",
        "puluc",
        "-n",
        "3",
        "--agent",
        "mcts:playouts=100",
        "-j",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["agent"], "mcts, 100 playouts a move, 1 thread");
    assert_eq!(v["playouts"], 3);
    let w = v["wins"]["South"].as_u64().unwrap() + v["wins"]["North"].as_u64().unwrap();
    assert_eq!(w + v["draws"].as_u64().unwrap(), 3);
}

#[test]
fn agent_usage_errors() {
    for (args, msg) in [
        (
            &["match", "pallankuzhi", "--agent", "random"][..],
            "a match is between two agents",
        ),
        (
            &[
                "match",
                "pallankuzhi",
                "--agent",
                "mcts",
                "--agent",
                "alphazero",
            ][..],
            "unknown agent `alphazero`",
        ),
        (
            &[
                "match",
                "pallankuzhi",
                "--agent",
                "human",
                "--agent",
                "random",
            ][..],
            "`human` cannot play",
        ),
        (
            &["play", "pallankuzhi", "--agent", "North=mcts:depth=3"][..],
            "mcts has no setting `depth`",
        ),
        (
            &["play", "pallankuzhi", "--agent", "North=mcts:time=soon"][..],
            "`soon` is not a duration",
        ),
    ] {
        let out = ludic(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {:?}", text(&out));
        assert!(text(&out).1.contains(msg), "{args:?}: {:?}", text(&out));
    }
    let out = ludic(&["match", "--help"]);
    let (s, _) = text(&out);
    assert!(
        s.contains("Examples:") && s.contains("mcts:playouts=20000"),
        "{s}"
    );
    let out = ludic(&["play", "--help"]);
    assert!(text(&out).0.contains("mcts:time=5s"));
}

#[test]
fn a_used_record_folder_is_refused_without_force() {
    // Issue 22: `match --record-dir D` into a used folder overwrote the earlier records without
    // a word.
    let dir = tmp_dir("used");
    let run_into = |dir: &str, extra: &[&str]| {
        let mut args = vec![
            "match",
            "puluc",
            "--agent",
            "random",
            "--agent",
            "random",
            "-n",
            "2",
            "--record-dir",
            dir,
        ];
        args.extend(extra);
        ludic(&args)
    };
    let run = |extra: &[&str]| run_into(&dir, extra);
    let out = run(&["--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let first = std::fs::read_to_string(format!("{dir}/game-1.json")).unwrap();
    let out = run(&["--seed", "2"]);
    assert_eq!(out.status.code(), Some(2), "{:?}", text(&out));
    assert!(text(&out).1.contains("is not empty"), "{:?}", text(&out));
    assert_eq!(
        std::fs::read_to_string(format!("{dir}/game-1.json")).unwrap(),
        first,
        "nothing touched"
    );
    let out = run(&["--seed", "2", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert_ne!(
        std::fs::read_to_string(format!("{dir}/game-1.json")).unwrap(),
        first
    );
    // a file where the folder should be
    let file = format!("{dir}/game-1.json");
    let out = run_into(&file, &["--force"]);
    assert_eq!(out.status.code(), Some(2), "{:?}", text(&out));
}
