//! The command line's names and flags: every name `ludic list` shows finds its game in every
//! command; `rules` ends with the guide and names documents as sources; one meaning per flag
//! (-n games, -j games at once, --threads a search's threads) with the old spellings kept and
//! noted; `match` gives the same results for any -j and prints no progress without a terminal.

use std::process::{Command, Output, Stdio};

fn ludic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ludic")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{:?}", text(o));
    serde_json::from_slice(&o.stdout).expect("JSON output")
}

fn tmp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludic-flags-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Each built-in game as `list --format json` reports it: (file stem, every name it shows).
fn games_and_names() -> Vec<(String, Vec<String>)> {
    let v = json(&ludic(&["list", "--format", "json"]));
    v.as_array()
        .expect("a list")
        .iter()
        .map(|g| {
            let stem = g["name"].as_str().unwrap().to_string();
            let mut names = vec![stem.clone(), g["title"].as_str().unwrap().to_string()];
            for a in g["aliases"].as_array().unwrap() {
                names.push(a.as_str().unwrap().to_string());
            }
            (stem, names)
        })
        .collect()
}

/// The spellings a person may type for a name: as shown, in lower and upper case, without
/// apostrophes, with hyphens for spaces and spaces for hyphens.
fn spellings(name: &str) -> Vec<String> {
    let mut out = vec![
        name.to_string(),
        name.to_lowercase(),
        name.to_uppercase(),
        name.replace(['\'', '’'], ""),
        name.replace(' ', "-"),
        name.replace('-', " "),
    ];
    out.dedup();
    out
}

#[test]
fn every_name_list_shows_finds_its_game_in_rules() {
    let games = games_and_names();
    assert!(!games.is_empty());
    let mut aliases = 0;
    for (stem, names) in &games {
        aliases += names.len() - 2;
        for name in names {
            for s in spellings(name) {
                let v = json(&ludic(&["rules", &s, "--format", "json"]));
                assert_eq!(v["name"], stem.as_str(), "`{s}` names {stem}");
            }
        }
    }
    assert!(aliases > 0, "some built-in game has aliases");
}

#[test]
fn every_command_takes_an_alias() {
    for (stem, names) in games_and_names() {
        // the last name shown: an alias when the game has one, else its title
        let alias = names.last().unwrap().clone();
        let dir = tmp_dir(&format!("alias-{stem}"));
        let record = dir.join("game.json");
        let record = record.to_str().unwrap();
        let svg = dir.join("board.svg");
        let players: Vec<String> = json(&ludic(&["rules", &alias, "--format", "json"]))["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| format!("{}=random", p.as_str().unwrap()))
            .collect();
        // play: every player random (the first is human by default)
        let mut play = vec!["play", &alias, "--seed", "1", "--record", record];
        for p in &players {
            play.extend(["--agent", p]);
        }
        let runs: Vec<Vec<&str>> = vec![
            vec!["rules", &alias],
            play,
            vec!["draw", &alias, "--out", svg.to_str().unwrap()],
            vec!["simulate", &alias, "-n", "2", "--format", "json"],
            vec!["compare", &alias, &stem, "-n", "2", "--format", "json"],
            vec!["sweep", &alias, "-n", "2", "--format", "json"],
            vec![
                "match", &alias, "--agent", "random", "--agent", "random", "-n", "2",
            ],
            vec!["bench", &alias, "--playouts", "1"],
            vec!["replay", record, "--game", &alias],
        ];
        for a in runs {
            let out = ludic(&a);
            assert_eq!(out.status.code(), Some(0), "{a:?}: {:?}", text(&out));
        }
        // perft: for a game with chance events it refuses the game, not the name
        let out = ludic(&["perft", &alias, "1"]);
        assert!(
            !text(&out).1.contains("cannot read"),
            "perft {alias}: {:?}",
            text(&out)
        );
    }
}

#[test]
fn an_unknown_name_suggests_and_lists() {
    let out = ludic(&["rules", "no such game at all"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out).1;
    assert!(err.contains("hint: built-in games:"), "{err}");
    assert!(
        err.contains("`ludic list` shows their other names"),
        "{err}"
    );
}

#[test]
fn rules_ends_with_the_guide_and_names_documents() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (stem, _) in games_and_names() {
        let out = ludic(&["rules", &stem]);
        let (s, _) = text(&out);
        let guide = format!("games/{stem}.md");
        assert!(root.join(&guide).is_file(), "{guide} is in the repository");
        let last = s.trim_end().lines().last().unwrap_or("");
        assert!(last.contains(&guide), "{stem}: ends with its guide: {last}");
        let v = json(&ludic(&["rules", &stem, "--format", "json"]));
        assert_eq!(v["guide"], guide.as_str());
        // the source names documents, not files of the project's own notes
        let source = v["source"].as_str().expect("a source");
        for bad in [".txt", "rules/", ".md"] {
            assert!(!source.contains(bad), "{stem}: source `{source}`");
        }
    }
    // a file with a guide beside it, and one without
    let dir = tmp_dir("beside");
    let (_, src) = ludic::builtin::find("puluc").unwrap();
    let with = dir.join("mine.game");
    std::fs::write(&with, src).unwrap();
    std::fs::write(dir.join("mine.md"), "# Mine\n").unwrap();
    let without = dir.join("other.game");
    std::fs::write(&without, src).unwrap();
    let with = with.to_str().unwrap();
    let (s, _) = text(&ludic(&["rules", with]));
    let md = dir.join("mine.md");
    assert!(
        s.trim_end().ends_with(md.to_str().unwrap()),
        "ends with the guide beside the file: {s}"
    );
    let v = json(&ludic(&[
        "rules",
        without.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert!(v["guide"].is_null(), "{v}");
    let (s, _) = text(&ludic(&["rules", without.to_str().unwrap()]));
    assert!(!s.contains("player's guide"), "no guide: {s}");
}

#[test]
fn old_spellings_work_with_a_note() {
    // play -j: the threads of a search, now --threads
    let out = ludic(&[
        "play",
        "puluc",
        "-j",
        "1",
        "--agent",
        "South=random",
        "--agent",
        "North=random",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let err = text(&out).1;
    assert!(
        err.contains("note: `-j` in play is now `--threads N`"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    // simulate and compare --playouts (games) and --threads (games at once)
    for cmd in ["simulate", "compare"] {
        let mut old = vec![
            cmd,
            "puluc",
            "--playouts",
            "7",
            "--threads",
            "1",
            "--format",
            "json",
        ];
        if cmd == "compare" {
            old.push("puluc");
        }
        let out = ludic(&old);
        let err = text(&out).1;
        let v = json(&out);
        let games = if cmd == "simulate" {
            &v["playouts"]
        } else {
            &v["columns"][0]["playouts"]
        };
        assert_eq!(games, 7, "{cmd}: {v}");
        assert!(
            err.contains(&format!(
                "note: `--playouts` in {cmd} is the number of games"
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!(
                "note: `--threads` in {cmd} is the number of games played at once"
            )),
            "{err}"
        );
        // the new spellings say nothing
        let mut new = vec![cmd, "puluc", "--games", "7", "--jobs", "1"];
        if cmd == "compare" {
            new.push("puluc");
        }
        let out = ludic(&new);
        assert_eq!(text(&out).1, "", "{cmd}");
    }
    // match -j: the same spelling, a new meaning (games at once), said in a note
    let out = ludic(&[
        "match", "puluc", "--agent", "random", "--agent", "random", "-n", "2", "-j", "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let err = text(&out).1;
    assert!(
        err.contains("note: `-j` in match now means games played at once")
            && err.contains("--threads N"),
        "{err}"
    );
    let out = ludic(&[
        "match", "puluc", "--agent", "random", "--agent", "random", "-n", "2", "--jobs", "2",
    ]);
    assert_eq!(text(&out).1, "", "--jobs: no note");
    // --threads in match: the threads of each search
    let out = ludic(&[
        "match",
        "puluc",
        "--agent",
        "mcts:playouts=50",
        "--agent",
        "random",
        "-n",
        "1",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    let v = json(&out);
    assert_eq!(
        v["agents"][0]["agent"],
        "mcts, 50 playouts a move, 2 threads"
    );
}

/// The JSON of a match without what depends on the machine (times, games at once).
fn without_timing(mut v: serde_json::Value) -> serde_json::Value {
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("jobs");
    for a in o["agents"].as_array_mut().unwrap() {
        a.as_object_mut().unwrap().remove("thinking_seconds");
    }
    v
}

#[test]
fn a_match_is_the_same_for_any_number_of_games_at_once() {
    let run = |jobs: &str, dir: &std::path::Path| {
        let out = ludic(&[
            "match",
            "pallankuzhi",
            "--agent",
            "mcts:playouts=200",
            "--agent",
            "mcts:playouts=50",
            "-n",
            "5",
            "--seed",
            "9",
            "--jobs",
            jobs,
            "--format",
            "json",
            "--record-dir",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(text(&out).1, "", "no progress, no note without a terminal");
        json(&out)
    };
    let (d1, d2) = (tmp_dir("j1"), tmp_dir("j2"));
    let one = run("1", &d1);
    let two = run("2", &d2);
    assert_eq!(one["jobs"], 1);
    assert_eq!(two["jobs"], 2);
    assert_eq!(one["games"], 5);
    assert_eq!(without_timing(one), without_timing(two));
    for i in 1..=5 {
        let f = format!("game-{i}.json");
        let r1 = std::fs::read_to_string(d1.join(&f)).unwrap();
        assert_eq!(r1, std::fs::read_to_string(d2.join(&f)).unwrap(), "{f}");
    }
}

#[test]
fn ctrl_c_stops_a_match_and_prints_the_games_played() {
    let child = Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args([
            "match",
            "puluc",
            "--agent",
            "random",
            "--agent",
            "random",
            "-n",
            "100000000",
            "--jobs",
            "1",
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ludic");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{:?}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["partial"], true);
    assert_eq!(v["requested"], 100_000_000u64);
    let n = v["games"].as_u64().unwrap();
    assert!(n > 0 && n < 100_000_000, "{n}");
    let a = &v["agents"][0];
    let played = ["wins", "draws", "losses"].map(|k| a[k].as_u64().unwrap());
    assert_eq!(played.iter().sum::<u64>(), n);
    assert!(text(&out).1.contains("interrupted"), "{:?}", text(&out));
}
