//! `ludic sweep` (issue 28) through the binary and the library: a 3 x 2 grid on each sowing
//! game whose points are the studies `simulate` gives, resuming (after Ctrl-C, and from
//! merged `--only` runs) plays only the missing points and keeps the others byte for byte,
//! points the game refuses, every bad argument refused with its message and exit code, the
//! tasks of `--plan --shards 2` merged into the one run, the same points for -j 1 and -j 2,
//! and `run_task` (what a cluster's worker runs) in shards merged by `sweep::merge`.

use ludic::study::Control;
use ludic::study::sweep::{Sweep, SweepSpec, merge, run_task};
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ludic(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .output()
        .expect("run ludic")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Runs `ludic ARGS`, expecting success, and reads its standard output as JSON.
fn json(args: &[&str]) -> Value {
    let out = ludic(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn read(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the file")).expect("JSON")
}

/// A study's JSON without what depends on the machine (time, threads).
fn games_only(v: &Value) -> Value {
    let mut v = v.clone();
    for k in ludic::study::report::TIMING_KEYS {
        v.as_object_mut().expect("a study").remove(k);
    }
    v
}

/// A sweep's JSON with each point's study without its timing.
fn sweep_games_only(v: &Value) -> Value {
    let mut v = v.clone();
    for p in v["points"].as_array_mut().expect("points") {
        if let Some(s) = p.get("study") {
            let s = games_only(s);
            p["study"] = s;
        }
    }
    v
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ludic-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_str().unwrap().to_string()
}

fn labels(v: &Value) -> Vec<String> {
    v["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(|p| p["label"].as_str().expect("label").to_string())
        .collect()
}

#[test]
fn a_3_by_2_sweep_of_each_sowing_game_is_its_points_simulated() {
    // the grid, the points' labels, and each point's options and variant
    type Case<'a> = (
        &'a [&'a str],
        [&'a str; 6],
        [(&'a [&'a str], Option<&'a str>); 6],
    );
    let cases: [Case; 2] = [
        (
            &["pallankuzhi", "-o", "seeds=4..8/2", "-o", "muthu=on,off"],
            [
                "seeds=4 muthu=on",
                "seeds=4 muthu=off",
                "seeds=6 muthu=on",
                "seeds=6 muthu=off",
                "seeds=8 muthu=on",
                "seeds=8 muthu=off",
            ],
            [
                (&["seeds=4", "muthu=on"], None),
                (&["seeds=4", "muthu=off"], None),
                (&["seeds=6", "muthu=on"], None),
                (&["seeds=6", "muthu=off"], None),
                (&["seeds=8", "muthu=on"], None),
                (&["seeds=8", "muthu=off"], None),
            ],
        ),
        (
            &[
                "ceelkoqyuqkoqiji",
                "-o",
                "stones=3..5",
                "--variant",
                "default",
                "--variant",
                "equal stones",
            ],
            [
                "stones=3 variant=default",
                "stones=3 variant=\"equal stones\"",
                "stones=4 variant=default",
                "stones=4 variant=\"equal stones\"",
                "stones=5 variant=default",
                "stones=5 variant=\"equal stones\"",
            ],
            [
                (&["stones=3"], None),
                (&["stones=3"], Some("equal stones")),
                (&["stones=4"], None),
                (&["stones=4"], Some("equal stones")),
                (&["stones=5"], None),
                (&["stones=5"], Some("equal stones")),
            ],
        ),
    ];
    for (grid, want_labels, settings) in cases {
        let mut args = vec!["sweep"];
        args.extend(grid);
        args.extend(["-n", "40", "--seed", "7", "-j", "2", "--format", "json"]);
        let v = json(&args);
        assert_eq!(v["format"], "ludic-sweep-1");
        assert_eq!(v["games"], 40);
        assert_eq!(v["seed"], 7);
        assert_eq!(v["partial"], false);
        assert_eq!(labels(&v), want_labels, "{grid:?}");
        let points = v["points"].as_array().unwrap();
        for (k, (p, (opts, variant))) in points.iter().zip(settings).enumerate() {
            assert_eq!(p["index"], k as u64);
            assert_eq!(p["variant"].as_str(), variant);
            assert!(p.get("error").is_none(), "{p}");
            let st = &p["study"];
            assert_eq!(st["requested"], 40);
            assert_eq!(st["playouts"], 40);
            assert_eq!(st["partial"], false);
            for o in opts {
                let (name, value) = o.split_once('=').unwrap();
                assert_eq!(p["point"][name], value);
                assert_eq!(st["options"][name], value);
            }
            // the point is the study `simulate` gives with its settings and the seed
            let mut sim = vec!["simulate", grid[0], "-n", "40", "--seed", "7", "-j", "1"];
            for o in opts {
                sim.extend(["-o", o]);
            }
            if let Some(var) = variant {
                sim.extend(["--variant", var]);
            }
            sim.extend(["--format", "json"]);
            assert_eq!(games_only(st), games_only(&json(&sim)), "{sim:?}");
        }
        // the table and the CSV: a row a point
        let mut text = args.clone();
        text.truncate(text.len() - 2);
        let table = ludic(&text);
        assert_eq!(table.status.code(), Some(0));
        let table = String::from_utf8_lossy(&table.stdout).to_string();
        for l in want_labels {
            assert_eq!(table.matches(l).count(), 1, "{l} in\n{table}");
        }
        text.extend(["--format", "csv"]);
        let csv = ludic(&text);
        let csv = String::from_utf8_lossy(&csv.stdout).to_string();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 7, "{csv}");
        assert!(lines[0].starts_with("index,label,"), "{csv}");
        assert!(lines[0].contains(",variant,error,games,win.South,win.South.low,win.South.high,"));
        assert!(lines[1].starts_with("0,"), "{csv}");
    }
}

#[test]
fn a_sweep_stopped_by_ctrl_c_resumes_with_only_the_missing_points() {
    let out = tmp("interrupted.json");
    let _ = std::fs::remove_file(&out);
    let grid = [
        "sweep",
        "pallankuzhi",
        "-o",
        "seeds=4,6",
        "-o",
        "muthu=on,off",
        "-n",
        "60000",
        "--seed",
        "3",
    ];
    let mut args = grid.to_vec();
    args.extend(["-j", "1", "--output", &out]);
    let child = Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(&args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("run ludic");
    // the file is written after the first point: then Ctrl-C stops the second one
    let t0 = Instant::now();
    while std::fs::metadata(&out).is_err() {
        assert!(t0.elapsed() < Duration::from_secs(120), "no file written");
        std::thread::sleep(Duration::from_millis(10));
    }
    // (a moment more, so that the signal comes while the second point is played; under load
    // it may still come between the two: both are checked below)
    std::thread::sleep(Duration::from_millis(200));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let stopped = child.wait_with_output().expect("wait");
    let before = read(&out);
    let points = before["points"].as_array().unwrap().clone();
    let done: Vec<&Value> = points
        .iter()
        .filter(|p| p["study"]["partial"] == false)
        .collect();
    assert!(
        !done.is_empty() && done[0]["index"] == 0,
        "{}",
        stderr(&stopped)
    );
    // (a point of 60,000 games takes far longer than the 10 ms between two looks at the file)
    assert!(done.len() < 4, "stopped before the end");
    assert_eq!(stopped.status.code(), Some(130), "{}", stderr(&stopped));
    assert_eq!(before["partial"], true);
    if let Some(cut) = points.get(done.len()) {
        assert!(stderr(&stopped).contains("marked partial"));
        assert_eq!(
            cut["study"]["partial"], true,
            "the point stopped is kept, partial"
        );
        assert!(cut["study"]["playouts"].as_u64().unwrap() < 60000);
    } else {
        // the signal came after a point was written and before the next began
        assert!(
            stderr(&stopped).contains("stopped between two points"),
            "{}",
            stderr(&stopped)
        );
    }
    // resumed, on two threads: only the missing points are played
    let mut again = grid.to_vec();
    again.extend(["-j", "2", "--output", &out]);
    let resumed = ludic(&again);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains(&format!("{} of 4 points already done in {out}", done.len())),
        "{}",
        stderr(&resumed)
    );
    let after = read(&out);
    assert_eq!(after["partial"], false);
    for p in &done {
        let k = p["index"].as_u64().unwrap() as usize;
        // kept as they were, timing included, byte for byte
        assert_eq!(
            serde_json::to_string(&after["points"][k]).unwrap(),
            serde_json::to_string(p).unwrap()
        );
    }
    let mut one = grid.to_vec();
    one.extend(["-j", "2", "--format", "json"]);
    assert_eq!(sweep_games_only(&after), sweep_games_only(&json(&one)));
    // once more: nothing to play, the file untouched
    let text = std::fs::read_to_string(&out).unwrap();
    let nothing = ludic(&again);
    assert_eq!(nothing.status.code(), Some(0));
    assert!(stderr(&nothing).contains("4 of 4 points already done"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

#[test]
fn a_sweep_resumes_from_merged_only_runs_and_refuses_another_sweep() {
    let grid = [
        "sweep",
        "ceelkoqyuqkoqiji",
        "-o",
        "stones=3,4",
        "--variant",
        "default",
        "--variant",
        "seven holes",
        "-n",
        "50",
    ];
    let (a, b, out) = (tmp("only-0.json"), tmp("only-3.json"), tmp("resumed.json"));
    for (k, f) in [("0", &a), ("3", &b)] {
        let mut args = grid.to_vec();
        args.extend(["--only", k, "--output", f]);
        let r = ludic(&args);
        assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
        assert_eq!(read(f)["partial"], true);
        assert_eq!(read(f)["points"].as_array().unwrap().len(), 1);
    }
    let _ = std::fs::remove_file(&out);
    let m = ludic(&["merge", &a, &b, "--output", &out]);
    assert_eq!(m.status.code(), Some(3), "partial: {}", stderr(&m));
    let merged = read(&out);
    assert_eq!(merged["points"].as_array().unwrap().len(), 2);
    let mut args = grid.to_vec();
    args.extend(["--output", &out]);
    let r = ludic(&args);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("2 of 4 points already done"),
        "{}",
        stderr(&r)
    );
    let after = read(&out);
    assert_eq!(after["points"][0], merged["points"][0]);
    assert_eq!(after["points"][3], merged["points"][1]);
    assert_eq!(labels(&after)[3], "stones=4 variant=\"seven holes\"");
    let mut one = grid.to_vec();
    one.extend(["--format", "json"]);
    assert_eq!(sweep_games_only(&after), sweep_games_only(&json(&one)));
    // the same file for a sweep of other settings: refused, the file untouched
    let text = std::fs::read_to_string(&out).unwrap();
    let mut other = grid.to_vec();
    other.extend(["--seed", "2", "--output", &out]);
    let r = ludic(&other);
    assert_eq!(r.status.code(), Some(2));
    assert!(stderr(&r).contains("holds another sweep") && stderr(&r).contains("seed"));
    assert!(stderr(&r).contains("hint:"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    // nor a shard of it
    let mut shard = grid.to_vec();
    shard.extend(["--shard", "1/2", "--output", &out]);
    let r = ludic(&shard);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(stderr(&r).contains("its own --output"), "{}", stderr(&r));
}

#[test]
fn a_point_the_game_refuses_is_reported_and_the_others_are_played() {
    let v = json(&[
        "sweep",
        "pallankuzhi",
        "-o",
        "seeds=3..4",
        "-o",
        "muthu=on,off",
        "-n",
        "20",
        "--format",
        "json",
    ]);
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    for p in &points[..2] {
        let e = p["error"].as_str().expect("an error");
        assert!(e.contains("must be even"), "{e}");
        assert!(p.get("study").is_none());
    }
    for p in &points[2..] {
        assert_eq!(p["study"]["playouts"], 20);
    }
    assert_eq!(v["partial"], false, "a refused point is done");
    let csv = ludic(&[
        "sweep",
        "pallankuzhi",
        "-o",
        "seeds=3..4",
        "-n",
        "5",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.status.code(), Some(0));
    let csv = String::from_utf8_lossy(&csv.stdout).to_string();
    assert!(
        csv.lines().nth(1).unwrap().contains("must be even"),
        "{csv}"
    );
    assert!(
        stderr(&ludic(&[
            "sweep",
            "pallankuzhi",
            "-o",
            "seeds=3..4",
            "-n",
            "5"
        ]))
        .contains("refused")
    );
}

#[test]
fn bad_arguments_are_refused_with_their_message() {
    let not_a_sweep = tmp("study.json");
    let study = ludic(&["simulate", "puluc", "-n", "3", "--format", "json"]);
    std::fs::write(&not_a_sweep, &study.stdout).unwrap();
    let csv = tmp("exists.csv");
    std::fs::write(&csv, "x\n").unwrap();
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["-o", "seeds=8..4"], 2, "empty"),
        (vec!["-o", "seeds=4..8/0"], 2, "step"),
        (vec!["-o", "seeds=4..x"], 2, "two integers"),
        (vec!["-o", "seeds=0..10000000"], 2, "more than"),
        (vec!["-o", "seeds=4,4"], 2, "twice"),
        (vec!["-o", "seeds=4,,6"], 2, "empty"),
        (vec!["-o", "seeds=4,6", "-o", "seeds=8"], 2, "given twice"),
        (
            vec!["-o", "seed=4,6"],
            2,
            "unknown option `seed`: did you mean `seeds`?",
        ),
        (vec!["--variant", "nosuch"], 2, "unknown variant `nosuch`"),
        (vec!["-o", "seeds=4,6", "--only", "2"], 2, "no point 2"),
        (vec!["-o", "seeds=4,6", "--shard", "3/2"], 2, "--shard"),
        (vec!["-o", "x"], 2, "not an option setting"),
        (
            vec!["--output", "/tmp/x.json", "--format", "text"],
            2,
            "JSON or CSV",
        ),
        (vec!["--output", &not_a_sweep], 1, "not a sweep"),
        (vec!["--output", &csv], 2, "resumes only from its JSON"),
        (vec!["--agent", "human"], 2, "human"),
        (vec!["--shards", "2"], 2, "--plan"),
        (vec!["--plan", "--only", "1"], 2, "--only"),
        (vec!["-o", "variant=a,b"], 2, "--variant"),
        (vec!["--output", "games/puluc.game"], 1, "not JSON"),
        (vec!["--output", "/tmp"], 2, "not a regular file"),
        (
            vec!["--output", "/proc/no/such/sweep.json"],
            1,
            "cannot make the folder",
        ),
    ];
    for (extra, code, words) in cases {
        let mut args = vec!["sweep", "pallankuzhi", "-n", "2"];
        args.extend(&extra);
        let out = ludic(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{extra:?}: {err}");
        assert!(err.contains(words), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{extra:?}: {err}");
    }
    let game = "games/pallankuzhi.game";
    let out = ludic(&["sweep", game, "-n", "2", "--output", game]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("the game file"), "{}", stderr(&out));
    let out = ludic(&["sweep", "no-such-game", "-o", "x=1,2"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // merge: a sweep with a study, or sweeps of other settings
    let a = tmp("merge-a.json");
    let r = ludic(&["sweep", "puluc", "-n", "3", "--output", &a]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let out = ludic(&["merge", &a, &not_a_sweep]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("do not merge") && stderr(&out).contains("hint:"));
    let b = tmp("merge-b.json");
    let r = ludic(&["sweep", "puluc", "-n", "4", "--output", &b]);
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let out = ludic(&["merge", &a, &b]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not parts of one sweep"),
        "{}",
        stderr(&out)
    );
    // the same point twice: a game played twice
    let out = ludic(&["merge", &a, &a]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("both played games"),
        "{}",
        stderr(&out)
    );
    // the output one of the inputs
    let out = ludic(&["merge", &a, "--output", &a]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("would destroy it"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_tasks_of_a_plan_in_two_shards_merge_into_the_one_run() {
    let dir = tmp("plan dir");
    let _ = std::fs::remove_dir_all(&dir);
    let grid = [
        "sweep",
        "pallankuzhi",
        "-o",
        "seeds=4..8/2",
        "-o",
        "muthu=on,off",
        "-o",
        "max_turns=300",
        "-n",
        "101",
        "--seed",
        "11",
    ];
    let mut args = grid.to_vec();
    args.extend(["--plan", "--shards", "2", "--plan-dir", &dir]);
    let plan = ludic(&args);
    assert_eq!(plan.status.code(), Some(0), "{}", stderr(&plan));
    let plan = String::from_utf8_lossy(&plan.stdout).to_string();
    let lines: Vec<&str> = plan.lines().collect();
    assert_eq!(lines.len(), 13, "{plan}");
    assert!(lines[12].starts_with("# ludic merge "), "{plan}");
    assert!(
        lines[0].contains("--only 0 --shard 1/2 --format json --output"),
        "{plan}"
    );
    assert!(lines[11].contains("--only 5 --shard 2/2"), "{plan}");
    // every line run by sh, `ludic` found on the PATH
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_ludic"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script: String = lines[..12]
        .iter()
        .map(|l| format!("{l} || exit 1\n"))
        .collect();
    let ran = Command::new("sh")
        .args(["-c", &script])
        .env("PATH", &path)
        .output()
        .expect("sh");
    assert_eq!(ran.status.code(), Some(0), "{}", stderr(&ran));
    let merge_line = lines[12]
        .trim_start_matches("# ")
        .replace("sweep.json", &tmp("merged.json"));
    let merged = Command::new("sh")
        .args(["-c", &merge_line])
        .env("PATH", &path)
        .output()
        .expect("sh");
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let merged = read(&tmp("merged.json"));
    let mut one = grid.to_vec();
    one.extend(["-j", "2", "--format", "json"]);
    let one = json(&one);
    assert_eq!(merged["partial"], false);
    assert_eq!(
        serde_json::to_string(&sweep_games_only(&merged)).unwrap(),
        serde_json::to_string(&sweep_games_only(&one)).unwrap()
    );
    for p in merged["points"].as_array().unwrap() {
        assert_eq!(p["study"]["playout_ranges"], serde_json::json!([[0, 101]]));
    }
}

#[test]
fn one_and_two_jobs_give_the_same_points() {
    let grid = [
        "sweep",
        "puluc",
        "-o",
        "max_turns=50,400",
        "-n",
        "300",
        "--seed",
        "4",
    ];
    let run = |j: &str| {
        let mut args = grid.to_vec();
        args.extend(["-j", j, "--format", "json"]);
        sweep_games_only(&json(&args))
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn tasks_of_the_library_merge_into_the_whole_point() {
    let spec = SweepSpec::new(
        "pallankuzhi",
        &["seeds=4,6".into(), "chogi=on,off".into()],
        &[],
        90,
        5,
        &[],
        false,
    )
    .unwrap();
    let sweeper = ludic::study::sweep::Sweeper::new(spec.clone()).unwrap();
    let ctl = Control::default();
    let mut parts = vec![];
    for (k, shard) in [
        (2, Some((1, 3))),
        (2, Some((3, 3))),
        (2, Some((2, 3))),
        (0, None),
    ] {
        let mut s = sweeper.empty();
        s.put(run_task(&spec, k, shard, 2, &ctl).unwrap());
        parts.push((format!("task {k} {shard:?}"), s));
    }
    let merged = merge(&parts).unwrap();
    assert!(merged.partial, "points 1 and 3 are missing");
    assert_eq!(merged.points.len(), 2);
    let whole = run_task(&spec, 2, None, 1, &ctl).unwrap();
    assert_eq!(merged.points[1].label, "seeds=6 chogi=on");
    assert_eq!(
        games_only(merged.points[1].study.as_ref().unwrap()),
        games_only(whole.study.as_ref().unwrap())
    );
    // written and read back: the same sweep
    let text = serde_json::to_string(&merged.to_json()).unwrap();
    assert_eq!(Sweep::read(&text, "merged").unwrap(), merged);
    assert!(Sweep::read("{\"format\": \"ludic-study-1\"}", "x").is_err());
    assert!(run_task(&spec, 4, None, 1, &ctl).is_err());
}

#[test]
fn report_draws_the_sweep_with_the_numbers_of_its_file() {
    // The sweep: Pallankuzhi seeds=3..8 (the odd ones refused by the game), with
    // --report beside --output: the page's every number cell is the file's number, and its
    // charts draw the metrics against seeds; run again (everything done), the same page.
    let (file, page) = (tmp("report.json"), tmp("report.html"));
    let args = [
        "sweep",
        "pallankuzhi",
        "-o",
        "seeds=3..8",
        "-n",
        "60",
        "--quick",
        "--output",
        file.as_str(),
        "--report",
        page.as_str(),
    ];
    let out = ludic(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("report written to"),
        "{}",
        stderr(&out)
    );
    let v = read(&file);
    let html = std::fs::read_to_string(&page).expect("the report");
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&html, opt).expect("XML");
    let points = v["points"].as_array().expect("points");
    let mut cells = 0;
    for td in doc.descendants().filter(|n| n.has_tag_name("td")) {
        let (Some(m), Some(x)) = (td.attribute("data-metric"), td.attribute("data-value")) else {
            continue;
        };
        let entry: usize = td.attribute("data-entry").expect("entry").parse().unwrap();
        let study = &points[entry]["study"];
        assert_eq!(
            Some(x.parse::<f64>().unwrap()),
            study["metrics"][m]["value"].as_f64(),
            "{m} of point {entry}"
        );
        cells += 1;
    }
    // seeds 4, 6 and 8 played, each with its metrics; 3, 5 and 7 listed as refused
    assert!(cells > 3 * 20, "{cells} cells");
    for seeds in ["3", "5", "7"] {
        assert!(html.contains(&format!("seeds={seeds}")), "point {seeds}");
    }
    assert!(html.contains("must be even"), "the refusal's reason");
    let charts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("svg"))
        .filter_map(|n| n.attribute("id"))
        .collect();
    assert!(
        charts
            .iter()
            .any(|id| id.contains("seeds") && id.contains("first-player-score")),
        "{charts:?}"
    );
    let again = ludic(&args);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&page).expect("the report"), html);
    // the report may not be the sweep's own file, nor the game
    let clash = ludic(&[
        "sweep",
        "pallankuzhi",
        "-o",
        "seeds=4",
        "-n",
        "5",
        "--output",
        file.as_str(),
        "--report",
        file.as_str(),
    ]);
    assert_eq!(clash.status.code(), Some(2), "{}", stderr(&clash));
}
