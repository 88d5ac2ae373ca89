//! The agent protocol through the binary: `--agent 'cmd:python3 BOT'` in match, simulate and
//! play with the example bot (deterministic for a seed, records that replay), the messages a
//! bot gets, and misbehaving bots (tests/fixtures/bots/): each loses by forfeit with the
//! right reason, in bounded time, with no process left behind.
//!
//! Needs `python3`: without it the tests are skipped, except under `CI=true` where a missing
//! python3 is a failure.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const RANDOM_BOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/agents/bots/random_bot.py");
const BOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bots");

/// Whether python3 runs here (under CI=true it must).
fn python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "python3 is needed by the agent protocol's tests"
        );
        eprintln!("python3 not found: the agent protocol's tests are skipped");
    }
    ok
}

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

/// A new empty folder of this test.
fn tmp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludic-protocol-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a path in UTF-8")
}

/// The random bot's spec.
fn random_bot() -> String {
    format!("cmd:python3 {RANDOM_BOT}")
}

/// The spec of a misbehaving bot. A shell writes the bot's process id before Python starts
/// (`exec` keeps the id): a bot stopped before its interpreter is up, as a silent one can be
/// on a loaded machine, is still checked by [`none_left`].
fn bot(name: &str, settings: &str, pids: &Path) -> String {
    let dir = s(pids);
    format!("cmd{settings}:sh -c 'echo $$ > {dir}/$$.pid; exec python3 {BOTS}/{name}.py {dir}'")
}

/// `ludic match pallankuzhi`, two games of the agent `spec` against `random`, in JSON (its exit
/// code 0 asserted).
fn two_games_against_random(spec: &str) -> Value {
    let out = ludic(&[
        "match",
        "pallankuzhi",
        "--agent",
        spec,
        "--agent",
        "random",
        "-n",
        "2",
        "--format",
        "json",
    ]);
    let (o, e) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{spec}: {o}\n{e}");
    serde_json::from_str(&o).expect("JSON")
}

/// The records of a folder, by name, as text.
fn records(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("the records")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("a record"),
            )
        })
        .collect();
    v.sort();
    v
}

/// Every process whose id a bot wrote into `pids` is gone.
fn none_left(pids: &Path) {
    let mut seen = 0;
    for e in std::fs::read_dir(pids).expect("the pids").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(pid) = name.strip_suffix(".pid") {
            seen += 1;
            // (a zombie would still have its /proc entry)
            assert!(
                !Path::new(&format!("/proc/{pid}")).exists(),
                "bot process {pid} outlived ludic"
            );
        }
    }
    assert!(seen > 0, "the bots wrote their process ids");
}

#[test]
fn the_random_bot_plays_matches_the_same_for_a_seed_and_its_records_replay() {
    if !python() {
        return;
    }
    for (other, n) in [("random", "4"), ("mcts:playouts=50", "2")] {
        let mut runs = vec![];
        for jobs in ["1", "2"] {
            let dir = tmp_dir(&format!("match-{}-{jobs}", other.len()));
            let out = ludic(&[
                "match",
                "pallankuzhi",
                "--agent",
                &random_bot(),
                "--agent",
                other,
                "-n",
                n,
                "-j",
                jobs,
                "--seed",
                "7",
                "--record-dir",
                s(&dir),
            ]);
            let (o, e) = text(&out);
            assert_eq!(out.status.code(), Some(0), "{o}\n{e}");
            assert!(o.contains("A = cmd:python3 "), "{o}");
            assert!(!o.contains("forfeit"), "{o}");
            let recs = records(&dir);
            assert_eq!(recs.len(), n.parse::<usize>().unwrap());
            for (name, _) in &recs {
                let path = dir.join(name);
                let r = ludic(&["replay", s(&path)]);
                assert_eq!(r.status.code(), Some(0), "{:?}", text(&r));
            }
            // the agents are named in the records
            assert!(recs[0].1.contains("cmd:python3 "), "{}", recs[0].1);
            runs.push(recs);
        }
        assert_eq!(runs[0], runs[1], "the same games for any -j");
    }
}

#[test]
fn the_random_bot_plays_every_built_in_game() {
    if !python() {
        return;
    }
    for (name, _) in ludic::builtin::GAMES {
        let out = ludic(&[
            "match",
            name,
            "--agent",
            &random_bot(),
            "--agent",
            "random",
            "-n",
            "2",
            "--format",
            "json",
        ]);
        let (o, e) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{name}: {o}\n{e}");
        let v: Value = serde_json::from_str(&o).expect("JSON");
        assert_eq!(v["games"], 2, "{name}");
        assert!(v.get("forfeits").is_none(), "{name}: {o}");
    }
}

#[test]
fn simulate_with_the_random_bot_is_the_same_for_a_seed() {
    if !python() {
        return;
    }
    let run = |jobs: &str| {
        let out = ludic(&[
            "simulate",
            "pallankuzhi",
            "-n",
            "4",
            "-j",
            jobs,
            "--agent",
            &random_bot(),
            "--agent",
            "mcts:playouts=50",
            "--format",
            "json",
        ]);
        let (o, e) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{o}\n{e}");
        assert!(!e.contains("forfeit"), "{e}");
        let v: Value = serde_json::from_str(&o).expect("JSON");
        assert_eq!(v["playouts"], 4);
        v["stats"].clone()
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn play_bot_against_bot_records_a_game_that_replays() {
    if !python() {
        return;
    }
    let dir = tmp_dir("play");
    let mut recs = vec![];
    for k in 0..2 {
        let path = dir.join(format!("game{k}.json"));
        let out = ludic(&[
            "play",
            "pallankuzhi",
            "--agent",
            &format!("South={}", random_bot()),
            "--agent",
            &format!("North={}", random_bot()),
            "--seed",
            "11",
            "--record",
            s(&path),
        ]);
        let (o, e) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{o}\n{e}");
        assert!(o.contains("Game over"), "{o}");
        let r = ludic(&["replay", s(&path)]);
        assert_eq!(r.status.code(), Some(0), "{:?}", text(&r));
        let rec: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).expect("a record");
        recs.push(rec["steps"].clone());
    }
    assert_eq!(recs[0], recs[1], "the same seed, the same game");
}

#[test]
fn a_bot_is_told_the_game_each_decision_every_step_and_the_end() {
    if !python() {
        return;
    }
    let dir = tmp_dir("transcript");
    let out = ludic(&[
        "match",
        "pallankuzhi",
        "--agent",
        &bot("transcript", "", &dir),
        "--agent",
        "random",
        "-n",
        "1",
        "--seed",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("transcript-"))
        .expect("a transcript");
    let lines: Vec<Value> = std::fs::read_to_string(file.path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let first = &lines[0];
    assert_eq!(first["type"], "game");
    assert_eq!(first["protocol"], 1);
    assert_eq!(first["game"], "pallankuzhi");
    assert_eq!(first["seed"], 3);
    assert_eq!(first["index"], 0);
    assert_eq!(first["you"], serde_json::json!(["South"]));
    assert!(first["num_actions"].as_u64().unwrap() > 0);
    let n = lines.len();
    assert_eq!(lines[n - 2]["type"], "end");
    assert_eq!(lines[n - 2]["result"]["reason"], "rules");
    assert_eq!(lines[n - 1]["type"], "quit");
    // each decision: the state, the legal decisions by id and notation, the history so far
    // (one entry a step told before it)
    let mut steps = 0;
    let mut decides = 0;
    for l in &lines[1..n - 2] {
        match l["type"].as_str() {
            Some("step") => steps += 1,
            Some("decide") => {
                decides += 1;
                assert_eq!(l["player"], "South");
                assert_eq!(l["history"].as_array().unwrap().len(), steps);
                assert!(l["state"]["sites"].is_object());
                let legal = l["legal"].as_array().unwrap();
                assert!(!legal.is_empty());
                assert!(
                    legal
                        .iter()
                        .all(|a| a["id"].is_u64() && a["move"].is_string())
                );
                assert!(l["time_left_ms"].as_u64().unwrap() > 0);
            }
            other => panic!("unexpected message {other:?}"),
        }
    }
    assert!(decides > 0 && steps > decides);
}

#[test]
fn misbehaving_bots_lose_by_forfeit_with_the_reason_and_leave_nothing_behind() {
    if !python() {
        return;
    }
    for (name, settings, says) in [
        (
            "illegal",
            "",
            "answered `e9`, which is not a legal decision",
        ),
        ("garbage", "", "which is not valid JSON"),
        ("bad_id", "", "which is not the id of a legal decision"),
        (
            "silent",
            "[time=300ms,startup=0]",
            "answered nothing within 300ms",
        ),
        (
            "deaf",
            "[time=300ms,startup=0]",
            "answered nothing within 300ms",
        ),
        ("crash_at_once", "", "exited with code 3 without answering"),
        ("crash_mid_game", "", "exited with code 1 without answering"),
        ("flood", "", "answered a line longer than 1048576 bytes"),
    ] {
        let pids = tmp_dir(&format!("pids-{name}"));
        let t0 = Instant::now();
        let spec = bot(name, settings, &pids);
        let v = two_games_against_random(&spec);
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "{name} took too long"
        );
        assert_eq!(v["games"], 2, "{name}");
        assert_eq!(v["ended_by"]["forfeit"], 2, "{name}: {v}");
        assert_eq!(v["agents"][0]["losses"], 2, "{name}");
        assert_eq!(v["agents"][1]["wins"], 2, "{name}");
        let forfeits = v["forfeits"].as_array().expect("the forfeits");
        assert_eq!(forfeits.len(), 2);
        // A plays South in game 1 and North in game 2
        for (f, side) in forfeits.iter().zip(["South", "North"]) {
            let why = f["why"].as_str().unwrap();
            assert!(
                why.starts_with(&format!("{side} ({spec}) forfeits: ")),
                "{why}"
            );
            assert!(why.contains(says), "{name}: {why}");
        }
        none_left(&pids);
    }
}

#[test]
fn a_crash_keeps_the_bots_standard_error_and_the_record_says_forfeit_and_replays() {
    if !python() {
        return;
    }
    let dir = tmp_dir("crash-records");
    let pids = tmp_dir("crash-pids");
    let spec = bot("crash_mid_game", "", &pids);
    let out = ludic(&[
        "match",
        "pallankuzhi",
        "--agent",
        &spec,
        "--agent",
        "random",
        "-n",
        "1",
        "--record-dir",
        s(&dir),
    ]);
    let (o, e) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{o}\n{e}");
    assert!(o.contains("games ended by: forfeit 1"), "{o}");
    assert!(o.contains(&format!("game 1: South ({spec})")), "{o}");
    // the traceback is in the log, next to the records, and the result says where
    let log = dir.join("game-1-South.stderr.log");
    let said = std::fs::read_to_string(&log).expect("the bot's log");
    assert!(said.contains("the bot broke down mid-game"), "{said}");
    assert!(o.contains(s(&log)), "{o}");
    assert!(e.contains("is kept in"), "{e}");
    let path = dir.join("game-1.json");
    let rec: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).expect("a record");
    assert_eq!(rec["result"]["reason"], "forfeit");
    assert_eq!(rec["result"]["winner"], "North");
    assert_eq!(rec["result"]["loser"], "South");
    assert_eq!(rec["result"]["forfeit"]["player"], "South");
    let r = ludic(&["replay", s(&path)]);
    let (ro, re) = text(&r);
    assert_eq!(r.status.code(), Some(0), "{ro}\n{re}");
    assert!(
        ro.contains(&format!("The game ended by a forfeit: South ({spec})")),
        "{ro}"
    );
    none_left(&pids);
}

#[test]
fn a_forfeit_record_that_does_not_end_at_the_forfeiting_players_decision_is_refused() {
    if !python() {
        return;
    }
    let dir = tmp_dir("forged");
    let path = dir.join("game.json");
    let out = ludic(&[
        "play",
        "pallankuzhi",
        "--agent",
        &format!("South={}", random_bot()),
        "--agent",
        &format!("North=cmd:python3 {BOTS}/illegal.py"),
        "--seed",
        "2",
        "--record",
        s(&path),
    ]);
    let (o, e) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{o}\n{e}");
    assert!(o.contains("North (cmd:python3 "), "{o}");
    assert!(o.contains("; South wins"), "{o}");
    let r = ludic(&["replay", s(&path)]);
    assert_eq!(r.status.code(), Some(0), "{:?}", text(&r));
    // the same record with the forfeit given to the other player
    let text_rec = std::fs::read_to_string(&path).unwrap();
    let mut rec: Value = serde_json::from_str(&text_rec).unwrap();
    rec["result"]["forfeit"]["player"] = "South".into();
    let forged = dir.join("forged.json");
    std::fs::write(&forged, rec.to_string()).unwrap();
    let r = ludic(&["replay", s(&forged)]);
    let (_, re) = text(&r);
    assert_eq!(r.status.code(), Some(1), "{re}");
    assert!(re.contains("the record ends by a forfeit"), "{re}");
}

#[test]
fn a_bot_that_cannot_be_found_or_a_bad_spec_is_a_usage_error() {
    for (spec, says) in [
        ("cmd:no-such-bot-anywhere --x", "is not found on PATH"),
        ("cmd:./no/such/bot", "is not a file"),
        ("cmd:", "needs a program"),
        ("cmd[time=2s]", "the settings in brackets"),
        ("cmd[depth=3]:python3 x.py", "unknown setting `depth`"),
        ("cmd:python3 'open", "unterminated '"),
    ] {
        let out = ludic(&[
            "match",
            "pallankuzhi",
            "--agent",
            spec,
            "--agent",
            "random",
            "-n",
            "1",
        ]);
        let (_, e) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{spec}: {e}");
        assert!(e.contains(says), "{spec}: {e}");
    }
}

#[test]
fn a_bot_that_talks_on_its_standard_error_plays_on_and_its_log_is_kept() {
    if !python() {
        return;
    }
    let dir = tmp_dir("chatty-records");
    let pids = tmp_dir("chatty-pids");
    let out = ludic(&[
        "match",
        "pallankuzhi",
        "--agent",
        &bot("chatty", "", &pids),
        "--agent",
        "random",
        "-n",
        "2",
        "--record-dir",
        s(&dir),
    ]);
    let (o, e) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{o}\n{e}");
    assert!(!o.contains("forfeit"), "{o}");
    for log in ["game-1-South.stderr.log", "game-2-North.stderr.log"] {
        let said = std::fs::read_to_string(dir.join(log)).expect("the bot's log");
        assert!(said.contains("chatty got decide"), "{said}");
        assert!(said.contains("chatty got end"), "{said}");
    }
    assert!(e.contains(&format!("is kept in {}", s(&dir))), "{e}");
    none_left(&pids);
}

#[test]
fn a_program_has_its_startup_time_on_top_of_its_first_decision() {
    if !python() {
        return;
    }
    let pids = tmp_dir("slow-start");
    // a second to start, 300ms a decision: with 3s to start it plays its games to the end
    let run = |settings: &str| two_games_against_random(&bot("slow_start", settings, &pids));
    let v = run("[time=300ms,startup=3s]");
    assert_eq!(v["ended_by"]["forfeit"], Value::Null, "{v}");
    assert_eq!(v["games"], 2);
    // without it, the second is lost on its first decision
    let v = run("[time=300ms,startup=0]");
    assert_eq!(v["ended_by"]["forfeit"], 2, "{v}");
    for f in v["forfeits"].as_array().expect("the forfeits") {
        let why = f["why"].as_str().expect("a reason");
        assert!(why.contains("answered nothing within 300ms"), "{why}");
    }
    none_left(&pids);
}
