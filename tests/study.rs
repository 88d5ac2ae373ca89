//! Studies (`simulate`, `compare`, `merge`) through the binary: the same results for any number
//! of threads, shards that merge into exactly the whole run, each metric on small games whose
//! values are known by hand (tests/study/: outside tests/fixtures/, which the fuzz run mutates), Ctrl-C, and the refusals of `merge`.

use serde_json::Value;
use std::process::{Command, Output};

fn ludic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .output()
        .expect("run ludic")
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = ludic(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The JSON without what depends on the machine (time, threads).
fn games_only(mut v: Value) -> Value {
    for k in ludic::study::report::TIMING_KEYS {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

fn fixture(name: &str) -> String {
    format!("tests/study/{name}.game")
}

fn metric(v: &Value, key: &str) -> f64 {
    v["metrics"][key]["value"]
        .as_f64()
        .unwrap_or_else(|| panic!("no metric {key}: {}", v["metrics"]))
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ludic-study-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_str().unwrap().to_string()
}

#[test]
fn one_and_two_threads_give_the_same_results() {
    for extra in [
        &["pallankuzhi", "-n", "3000", "--seed", "5"][..],
        &["puluc", "-n", "2000", "--seed", "9", "--quick"][..],
        // 16 players in two teams
        &[
            "kuilichi-chanakua",
            "-o",
            "team_size=8",
            "-n",
            "200",
            "--seed",
            "3",
        ][..],
        &["puluc", "-n", "6", "--agent", "mcts:playouts=40"][..],
        &[
            "pallankuzhi",
            "-n",
            "6",
            "--agent",
            "mcts:playouts=40",
            "--agent",
            "random",
        ][..],
    ] {
        let mut one = vec!["simulate"];
        one.extend(extra);
        let mut two = one.clone();
        one.extend(["-j", "1"]);
        two.extend(["-j", "2"]);
        let (a, b) = (json(&one), json(&two));
        assert_eq!(a["threads"], 1);
        assert_eq!(b["threads"], 2);
        assert_eq!(games_only(a.clone()), games_only(b), "{extra:?}");
        // and the same seed again gives the same games
        assert_eq!(games_only(a), games_only(json(&one)), "{extra:?}");
    }
}

#[test]
fn shards_merge_into_exactly_the_whole_run() {
    let base = [
        "simulate",
        "ceelkoqyuqkoqiji",
        "-n",
        "1001",
        "--seed",
        "3",
        "--variant",
        "seven holes",
    ];
    let whole = json(&base);
    assert_eq!(whole["playouts"], 1001);
    assert_eq!(whole["playout_ranges"], serde_json::json!([[0, 1001]]));
    let mut files = vec![];
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "-j", "1"]);
        let v = json(&args);
        let f = tmp(&format!("shard{i}.json"));
        std::fs::write(&f, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        files.push(f);
    }
    // given in any order
    let merged = json(&["merge", &files[2], &files[0], &files[1]]);
    assert_eq!(
        serde_json::to_string(&whole["stats"]).unwrap(),
        serde_json::to_string(&merged["stats"]).unwrap()
    );
    assert_eq!(games_only(whole.clone()), games_only(merged));
    // the table and CSV of a merge
    let out = ludic(&["merge", &files[0], &files[1], &files[2], "--format", "csv"]);
    assert_eq!(out.status.code(), Some(0));
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.starts_with("metric,value,low,high\nwin.South,"),
        "{csv}"
    );

    // refused: a shard twice, a missing file, another seed, a partial result
    let out = ludic(&["merge", &files[0], &files[1], &files[1]]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("both played games 333..667"), "{err}");
    let other = json(&[
        "simulate",
        "ceelkoqyuqkoqiji",
        "-n",
        "1001",
        "--seed",
        "4",
        "--variant",
        "seven holes",
        "--shard",
        "3/3",
    ]);
    let f = tmp("other-seed.json");
    std::fs::write(&f, other.to_string()).unwrap();
    let out = ludic(&["merge", &files[0], &files[1], &f]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("their seeds differ (4 and 3)"), "{err}");
    let mut partial = whole.clone();
    partial["partial"] = Value::Bool(true);
    partial["playout_ranges"] = Value::Null;
    let f = tmp("partial.json");
    std::fs::write(&f, partial.to_string()).unwrap();
    let out = ludic(&["merge", &f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a partial result"));
    let out = ludic(&["merge", "Cargo.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let out = ludic(&["merge", &tmp("no-such-file.json")]);
    assert_eq!(out.status.code(), Some(1));
    let mut other_options = whole.clone();
    other_options["options"]["stones"] = Value::String("4".into());
    let f = tmp("other-options.json");
    std::fs::write(&f, other_options.to_string()).unwrap();
    let out = ludic(&["merge", &files[0], &f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("options differ"));
    for bad in ["0/3", "4/3", "1/0", "x"] {
        let out = ludic(&["simulate", "puluc", "-n", "3", "--shard", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn merge_checks_each_shard_and_marks_a_merge_that_lacks_shards() {
    // Issue 22: merge checked that shards come from one study and do not overlap, but not that
    // a shard's statistics agree with its ranges or with -n; a merge missing shards said so on
    // standard error only (exit 0, "partial": false).
    let shard = |i: u32| {
        let s = format!("{i}/3");
        json(&[
            "simulate", "puluc", "-n", "300", "--seed", "2", "--shard", &s, "-j", "1",
        ])
    };
    let (a, b, c) = (shard(1), shard(2), shard(3));
    let write = |name: &str, v: &Value| {
        let f = tmp(name);
        std::fs::write(&f, v.to_string()).unwrap();
        f
    };
    let (fa, fb, fc) = (
        write("m-a.json", &a),
        write("m-b.json", &b),
        write("m-c.json", &c),
    );
    let refused = |files: &[&str], says: &str| {
        let mut args = vec!["merge"];
        args.extend(files);
        let out = ludic(&args);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{says}: {err}");
        assert!(err.contains(says), "{says}: {err}");
    };
    // its ranges emptied, its games kept
    let mut emptied = b.clone();
    emptied["playout_ranges"] = serde_json::json!([[100, 100]]);
    refused(
        &[&fa, &write("m-empty.json", &emptied), &fc],
        "holds 100 games but its ranges say 0",
    );
    // games beyond -n
    let mut beyond = c.clone();
    beyond["playout_ranges"] = serde_json::json!([[200, 400]]);
    refused(
        &[&fa, &fb, &write("m-beyond.json", &beyond)],
        "outside the study's 300 games",
    );
    // statistics that do not agree with one another
    let mut edited = b.clone();
    edited["stats"]["draws"] = serde_json::json!(7);
    refused(
        &[&fa, &write("m-edited.json", &edited), &fc],
        "do not agree",
    );
    // a count that would wrap past 64 bits
    let mut huge = b.clone();
    huge["stats"]["choices"]["sum"] = serde_json::json!("340282366920938463463374607431768211455");
    refused(
        &[&fa, &write("m-huge.json", &huge), &fc],
        "choices do not fit",
    );
    // a shard missing: the result is printed, marked partial, exit 3; merged with the last
    // shard it is the whole run
    let out = ludic(&["merge", &fa, &fc, "--format", "json"]);
    assert_eq!(out.status.code(), Some(3));
    let part: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(part["partial"], true);
    assert_eq!(part["playouts"], 200);
    assert_eq!(
        part["playout_ranges"],
        serde_json::json!([[0, 100], [200, 300]])
    );
    let out = ludic(&["merge", &fa, &fc, "--format", "csv"]);
    assert_eq!(out.status.code(), Some(3));
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.starts_with("# PARTIAL: 200 of 300 games\nmetric,"),
        "{csv}"
    );
    let fp = write("m-partial.json", &part);
    let whole = json(&["merge", &fp, &fb]);
    assert_eq!(whole["partial"], false);
    let all = json(&["simulate", "puluc", "-n", "300", "--seed", "2"]);
    assert_eq!(whole["stats"], all["stats"]);
}

#[test]
fn compare_shards_merge_into_exactly_the_whole_comparison() {
    // Issue 22, point 7: `compare --shard I/N` said "see `ludic merge`", but merge refused what
    // compare writes ("not the JSON of a study").
    let base = [
        "compare",
        "pallankuzhi",
        "--variant",
        "default",
        "--variant",
        "chogi=off",
        "-n",
        "301",
        "--seed",
        "4",
    ];
    let columns_only = |mut v: Value| {
        for c in v["columns"].as_array_mut().unwrap() {
            for k in ludic::study::report::TIMING_KEYS {
                c.as_object_mut().unwrap().remove(k);
            }
        }
        v
    };
    let whole = json(&base);
    assert_eq!(whole["partial"], false);
    let mut files = vec![];
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard]);
        let f = tmp(&format!("compare{i}.json"));
        std::fs::write(&f, json(&args).to_string()).unwrap();
        files.push(f);
    }
    // given in any order, the merge is the whole comparison (statistics, tests, p-values)
    let merged = json(&["merge", &files[1], &files[2], &files[0]]);
    assert_eq!(columns_only(merged), columns_only(whole.clone()));
    // the table and CSV, as compare writes them
    let table = ludic(&["merge", &files[0], &files[1], &files[2]]);
    assert_eq!(table.status.code(), Some(0));
    let whole_table = ludic(&base);
    assert_eq!(
        String::from_utf8_lossy(&table.stdout),
        String::from_utf8_lossy(&whole_table.stdout)
    );
    let csv = ludic(&["merge", &files[0], &files[1], &files[2], "--format", "csv"]);
    let mut whole_csv = base.to_vec();
    whole_csv.extend(["--format", "csv"]);
    assert_eq!(csv.stdout, ludic(&whole_csv).stdout);
    // a shard missing: partial, exit 3, marked in JSON and CSV
    let out = ludic(&["merge", &files[0], &files[2], "--format", "json"]);
    assert_eq!(out.status.code(), Some(3));
    let part: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(part["partial"], true);
    assert_eq!(part["columns"][1]["partial"], true);
    assert_eq!(part["columns"][1]["playouts"], 201);
    let out = ludic(&["merge", &files[0], &files[2], "--format", "csv"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("# PARTIAL: column default: 201 of 301 games\n"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // the checks of a study's shards, column by column
    let refused = |files: &[&str], says: &str| {
        let mut args = vec!["merge"];
        args.extend(files);
        let out = ludic(&args);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{says}: {err}");
        assert!(err.contains(says), "{says}: {err}");
        assert!(out.stdout.is_empty(), "{says}");
    };
    refused(&[&files[0], &files[0]], "a shard given twice?");
    let shard: Value = serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    let mut edited = shard.clone();
    edited["columns"][1]["playout_ranges"] = serde_json::json!([[100, 250]]);
    let f = tmp("compare-edited.json");
    std::fs::write(&f, edited.to_string()).unwrap();
    refused(&[&files[0], &f], "column chogi=off");
    let mut renamed = shard.clone();
    renamed["columns"][1]["column"] = serde_json::json!("other");
    let f = tmp("compare-renamed.json");
    std::fs::write(&f, renamed.to_string()).unwrap();
    refused(&[&files[0], &f], "their columns differ");
    let mut fewer = shard.clone();
    fewer["columns"].as_array_mut().unwrap().pop();
    let f = tmp("compare-fewer.json");
    std::fs::write(&f, fewer.to_string()).unwrap();
    refused(&[&files[0], &f], "has 1 column and");
    let mut seeded = shard;
    seeded["columns"][0]["seed"] = serde_json::json!(5);
    let f = tmp("compare-seed.json");
    std::fs::write(&f, seeded.to_string()).unwrap();
    refused(&[&files[0], &f], "their seeds differ");
    // a study and a comparison do not merge
    let sim = tmp("compare-simulate.json");
    let v = json(&[
        "simulate",
        "pallankuzhi",
        "-n",
        "301",
        "--seed",
        "4",
        "--shard",
        "2/3",
    ]);
    std::fs::write(&sim, v.to_string()).unwrap();
    refused(&[&files[0], &sim], "they do not merge");
    refused(&[&sim, &files[0]], "they do not merge");
}

#[test]
fn the_first_player_wins_in_three_decisions() {
    let v = json(&["simulate", &fixture("three"), "-n", "50"]);
    assert_eq!(v["playouts"], 50);
    assert_eq!(metric(&v, "win.South"), 1.0);
    assert_eq!(metric(&v, "win.North"), 0.0);
    assert_eq!(metric(&v, "draw"), 0.0);
    assert_eq!(metric(&v, "first_player_win"), 1.0);
    for k in ["turns", "decisions"] {
        for p in ["mean", "min", "p10", "p50", "p90", "max"] {
            assert_eq!(metric(&v, &format!("{k}.{p}")), 3.0, "{k}.{p}");
        }
        assert_eq!(metric(&v, &format!("{k}.sd")), 0.0);
    }
    assert_eq!(metric(&v, "rounds.mean"), 1.0);
    // decisions with 1, 2 and 3 legal choices
    assert_eq!(metric(&v, "branching"), 2.0);
    assert_eq!(metric(&v, "forced"), 1.0 / 3.0);
    // decision k of 3 is in tenth 1 + floor(10k/3): tenths 1, 4 and 7
    assert_eq!(metric(&v, "branching.t1"), 1.0);
    assert_eq!(metric(&v, "branching.t4"), 2.0);
    assert_eq!(metric(&v, "branching.t7"), 3.0);
    assert!(v["metrics"]["branching.t2"]["value"].is_null());
    // nothing is captured: no side leads, so no lead changes and no decisiveness
    assert_eq!(metric(&v, "winner_leads_at_end"), 0.0);
    assert!(v["metrics"]["decisiveness"]["value"].is_null());
    assert_eq!(metric(&v, "lead_changes"), 0.0);
    // one decision a turn: the turn's sequences are its decision's choices, 1, 2 and 3
    assert_eq!(metric(&v, "branching.turn"), 2.0);
    // the Wilson interval of 50 wins in 50
    let lo = v["metrics"]["win.South"]["low"].as_f64().unwrap();
    assert!((lo - 0.928_652).abs() < 1e-5, "{lo}");
}

#[test]
fn teams_of_eight_are_studied_by_side() {
    let v = json(&[
        "simulate",
        "kuilichi-chanakua",
        "-o",
        "team_size=8",
        "-n",
        "100",
    ]);
    assert_eq!(v["playouts"], 100);
    assert_eq!(v["sides"], serde_json::json!(["South", "North"]));
    let (s, n, d) = (
        metric(&v, "win.South"),
        metric(&v, "win.North"),
        metric(&v, "draw"),
    );
    assert!((s + n + d - 1.0).abs() < 1e-9, "{s} {n} {d}");
    assert!(s > 0.0 && n > 0.0, "both teams win some games: {s} {n}");
    // every player takes turns: a game is at least 16 players x 76 positions / 35 a throw
    assert!(metric(&v, "turns.min") >= 16.0);
}

#[test]
fn branching_per_turn_multiplies_the_decisions_of_a_turn() {
    // Two decisions a turn, of 3 and 2 legal choices: 2.5 a decision, 6 sequences a turn.
    for quick in [false, true] {
        let mut args = vec!["simulate", "-n", "20"];
        let f = fixture("two_steps");
        args.insert(1, &f);
        if quick {
            args.push("--quick");
        }
        let v = json(&args);
        assert_eq!(metric(&v, "turns.mean"), 4.0);
        assert_eq!(metric(&v, "decisions.mean"), 8.0);
        assert_eq!(metric(&v, "branching"), 2.5, "quick: {quick}");
        assert_eq!(metric(&v, "branching.turn"), 6.0, "quick: {quick}");
        assert_eq!(v["stats"]["turn_choices"]["n"], 80);
        assert_eq!(v["stats"]["turn_choices"]["sum"], 480);
    }
    // the table says which is which
    let out = ludic(&["simulate", &fixture("two_steps"), "-n", "5"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("branching per decision"), "{text}");
    assert!(text.contains("branching per turn"), "{text}");
}

#[test]
fn lead_changes_and_decisiveness_follow_the_score() {
    // Captures of 1, 2, 4, 8: South, North, South, North lead; North wins, leading only
    // after the last of 4 decisions.
    let v = json(&["simulate", &fixture("leads"), "-n", "20"]);
    assert_eq!(metric(&v, "win.North"), 1.0);
    assert_eq!(metric(&v, "first_player_win"), 0.0);
    assert_eq!(metric(&v, "lead_changes"), 3.0);
    assert_eq!(metric(&v, "winner_leads_at_end"), 1.0);
    assert_eq!(metric(&v, "decisiveness"), 0.25);
    assert_eq!(metric(&v, "forced"), 1.0);
    assert_eq!(metric(&v, "branching"), 1.0);
    // 16 on the first site: South leads from the first decision to the end
    let v = json(&["simulate", &fixture("leads"), "-n", "20", "-o", "a=16"]);
    assert_eq!(metric(&v, "win.South"), 1.0);
    assert_eq!(metric(&v, "lead_changes"), 0.0);
    assert_eq!(metric(&v, "decisiveness"), 1.0);
    // South, North, South and the last site empty: South leads after decisions 3 and 4
    let v = json(&["simulate", &fixture("leads"), "-n", "20", "-o", "d=0"]);
    assert_eq!(metric(&v, "win.South"), 1.0);
    assert_eq!(metric(&v, "lead_changes"), 2.0);
    assert_eq!(metric(&v, "decisiveness"), 0.5);
    // South, a tie, South, a tie: a draw; a tie is no change of leader
    let v = json(&[
        "simulate",
        &fixture("leads"),
        "-n",
        "20",
        "-o",
        "a=2",
        "-o",
        "b=2",
        "-o",
        "c=1",
        "-o",
        "d=1",
    ]);
    assert_eq!(metric(&v, "draw"), 1.0);
    assert_eq!(metric(&v, "lead_changes"), 0.0);
    assert_eq!(metric(&v, "first_player_score"), 0.5);
    assert!(v["metrics"]["decisiveness"]["value"].is_null());
    // --quick leaves out what follows the score
    let v = json(&["simulate", &fixture("leads"), "-n", "20", "--quick"]);
    assert!(v["metrics"].get("lead_changes").is_none());
    assert!(v["metrics"].get("branching.t1").is_none());
    assert!(v["stats"]["score"].is_null());
    assert_eq!(v["metrics_level"], "quick");
    assert_eq!(metric(&v, "forced"), 1.0);
}

#[test]
fn the_first_player_is_the_side_that_decides_first() {
    // who starts is drawn, and the starter wins at once
    let v = json(&["simulate", &fixture("starter"), "-n", "400"]);
    assert_eq!(metric(&v, "first_player_win"), 1.0);
    let south = metric(&v, "win.South");
    assert!(south > 0.4 && south < 0.6, "{south}");
    assert_eq!(metric(&v, "win.South") + metric(&v, "win.North"), 1.0);
    assert_eq!(metric(&v, "forced"), 0.0);
    assert_eq!(metric(&v, "branching"), 2.0);
    assert_eq!(metric(&v, "turns.max"), 1.0);
}

#[test]
fn draws_at_the_turn_limit() {
    let v = json(&["simulate", &fixture("endless"), "-n", "30"]);
    assert_eq!(metric(&v, "draw"), 1.0);
    assert_eq!(metric(&v, "turn_limit"), 1.0);
    assert_eq!(metric(&v, "other_limit"), 0.0);
    assert_eq!(metric(&v, "turns.mean"), 5.0);
    assert_eq!(metric(&v, "decisions.mean"), 5.0);
    assert_eq!(metric(&v, "first_player_score"), 0.5);
    assert_eq!(v["turn_limit_reached"], 30);
}

#[test]
fn games_at_the_move_limit_are_counted_as_such() {
    // `limit max_moves moves then end game`: every game of 4 takes ends by the move limit
    // (the holes cannot be emptied in 4 takes), none by the turn limit
    let v = json(&["simulate", "tests/fixtures/move_limit.game", "-n", "40"]);
    assert_eq!(metric(&v, "move_limit"), 1.0);
    assert_eq!(metric(&v, "turn_limit"), 0.0);
    assert_eq!(metric(&v, "other_limit"), 0.0);
    assert_eq!(v["move_limit_reached"], 40);
    assert_eq!(v["turn_limit_reached"], 0);
    assert_eq!(v["stats"]["move_limit"], 40);
    assert_eq!(v["stats"]["turn_limit"], 0);
    let table = ludic(&["simulate", "tests/fixtures/move_limit.game", "-n", "40"]);
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(table.contains("ended by the move limit"), "{table}");
    // the results of an older version, without `move_limit` (it counted those games in
    // `turn_limit`), still merge: the field reads as 0
    let mut old = Vec::new();
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let mut s = json(&[
            "simulate",
            "tests/fixtures/move_limit.game",
            "-n",
            "40",
            "--shard",
            &shard,
        ]);
        let stats = s["stats"].as_object_mut().unwrap();
        let m = stats.remove("move_limit").unwrap();
        stats.insert("turn_limit".into(), m);
        s.as_object_mut().unwrap().remove("move_limit_reached");
        let f = tmp(&format!("old-move-limit{i}.json"));
        std::fs::write(&f, serde_json::to_string(&s).unwrap()).unwrap();
        old.push(f);
    }
    let merged = json(&["merge", &old[0], &old[1]]);
    assert_eq!(merged["playouts"], 40);
    assert_eq!(merged["stats"]["move_limit"], 0);
    assert_eq!(merged["stats"]["turn_limit"], 40);
    assert_eq!(metric(&merged, "move_limit"), 0.0);
}

#[test]
fn two_agents_give_each_agent_its_score() {
    let v = json(&[
        "simulate",
        &fixture("starter"),
        "-n",
        "40",
        "--agent",
        "random",
        "--agent",
        "mcts:playouts=20",
    ]);
    // the starter wins: each agent wins the games it starts, whichever side it plays
    let a = metric(&v, "agent.A.win");
    let b = metric(&v, "agent.B.win");
    assert_eq!(a + b, 1.0);
    assert_eq!(
        metric(&v, "agent.A.score") + metric(&v, "agent.B.score"),
        1.0
    );
    assert_eq!(v["agents"][1], "mcts, 20 playouts a move, 1 thread");
    let s = &v["stats"]["agents"];
    assert_eq!(
        s[0]["wins"].as_u64().unwrap() + s[0]["losses"].as_u64().unwrap(),
        40
    );
}

#[test]
fn compare_marks_significant_differences() {
    let v = json(&[
        "compare",
        &fixture("leads"),
        "--variant",
        "default",
        "--variant",
        "a=16",
        "-n",
        "30",
    ]);
    let cols = v["columns"].as_array().unwrap();
    assert_eq!(cols.len(), 2);
    assert_eq!(cols[0]["column"], "default");
    assert_eq!(cols[1]["column"], "a=16");
    assert_eq!(cols[1]["options"]["a"], "16");
    let diff = |key: &str| {
        v["differences"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["metric"] == key)
            .cloned()
            .unwrap_or_else(|| panic!("no test of {key}"))
    };
    assert_eq!(diff("win.South")["significant"], true);
    assert_eq!(diff("decisiveness")["significant"], true);
    assert_eq!(diff("turns.mean")["significant"], false);
    assert_eq!(diff("turns.mean")["p_value"], 1.0);
    let out = ludic(&[
        "compare",
        &fixture("leads"),
        "--variant",
        "default",
        "--variant",
        "a=16",
        "-n",
        "30",
        "--color",
        "never",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("100.0% *"), "{table}");
    assert!(!table.contains('\x1b'), "no colours with --color never");
    let out = ludic(&[
        "compare",
        &fixture("leads"),
        "--variant",
        "default",
        "--variant",
        "a=16",
        "-n",
        "30",
        "--format",
        "csv",
    ]);
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(csv.starts_with("column,metric,value,low,high,p_value,significant\n"));
    assert!(csv.contains("\na=16,win.South,1,"), "{csv}");
    // one column is nothing to compare; a variant the game does not have is a usage error
    let out = ludic(&["compare", "pallankuzhi", "-n", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ludic(&[
        "compare",
        "pallankuzhi",
        "--variant",
        "default",
        "--variant",
        "nine",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ctrl_c_stops_and_reports_the_games_played() {
    let child = Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args([
            "simulate",
            "tuknanavuhpi",
            "-n",
            "100000000",
            "-j",
            "1",
            "--format",
            "json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ludic");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["partial"], true);
    assert!(v["playout_ranges"].is_null());
    let n = v["playouts"].as_u64().unwrap();
    assert!(n > 0 && n < 100_000_000, "{n}");
    let wins = v["stats"]["wins"].as_array().unwrap();
    let counted: u64 = wins.iter().map(|w| w.as_u64().unwrap()).sum::<u64>()
        + v["stats"]["draws"].as_u64().unwrap();
    assert_eq!(counted, n);
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
}

#[test]
fn no_progress_bar_without_a_terminal_and_usage_errors() {
    let out = ludic(&["simulate", "puluc", "-n", "200"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("South wins"), "{table}");
    assert!(table.contains("lead changes a game"), "{table}");
    for (args, msg) in [
        (
            &["simulate", "puluc", "--agent", "human"][..],
            "`human` cannot play",
        ),
        (
            &[
                "simulate", "puluc", "--agent", "a", "--agent", "b", "--agent", "c",
            ][..],
            "give --agent once",
        ),
        (
            &["simulate", "puluc", "--agent", "alphazero"][..],
            "unknown agent",
        ),
    ] {
        let out = ludic(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(msg),
            "{args:?}"
        );
    }
}
