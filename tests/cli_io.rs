//! The `ludic` binary against hostile input and failing output (issue 12, 7 to 12): long or
//! broken input lines, huge files, full disks, closed pipes, interrupted games, bad records.

use std::io::{Read, Write};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A time bound of the release build (`cargo test --release`, as the README says), ten times
/// longer in a debug build.
fn within(d: Duration) -> Duration {
    if cfg!(debug_assertions) { d * 10 } else { d }
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ludic")
}

/// Runs ludic with this input (written from another thread, so that a long input and a long
/// output cannot wait on each other).
fn ludic_bytes(args: &[&str], stdin: Vec<u8>) -> Output {
    let mut child = spawn(args);
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn ludic(args: &[&str], stdin: &str) -> Output {
    ludic_bytes(args, stdin.as_bytes().to_vec())
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ludic-io-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_str().unwrap().to_string()
}

fn mini() -> String {
    std::fs::read_to_string("tests/fixtures/valid_mini.game").unwrap()
}

#[test]
fn a_very_long_name_is_refused_at_load_not_a_panic_when_drawn() {
    // A site of 70,000 characters made `play` panic on a formatting width (exit 101).
    let path = tmp("long-name.game");
    let long = format!("s{}", "x".repeat(70_000));
    let board = format!("board {{\n  site {long} at (9, 9)");
    std::fs::write(&path, mini().replace("board {", &board)).unwrap();
    let out = ludic(&["play", &path, "--seed", "1"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out).1;
    assert!(err.contains("a name has at most 64"), "{err}");
    assert!(err.len() < 2000, "the name is not echoed in full");
}

#[test]
fn a_long_line_of_words_is_read_in_linear_time() {
    // 32,000 words on one line took 33-40 s: every prefix was joined and read again.
    let line = "s1 ".repeat(20_000);
    let t = Instant::now();
    let out = ludic(
        &[
            "play",
            "pallankuzhi",
            "--seed",
            "1",
            "--agent",
            "North=random",
            "--keep-going",
        ],
        &format!("{line}\nquit\n"),
    );
    assert!(
        t.elapsed() < within(Duration::from_secs(5)),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out).0.contains("refused:"));
    // a line longer than the limit is refused whole, and the next line is read
    let huge = "7 ".repeat(100_000);
    let out = ludic(
        &[
            "play",
            "pallankuzhi",
            "--seed",
            "1",
            "--agent",
            "North=random",
            "--keep-going",
        ],
        &format!("{huge}\nsow s1\nquit\n"),
    );
    let (o, _) = text(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        o.contains("refused: the line is longer than 65536 bytes"),
        "{o}"
    );
    assert!(o.contains("South plays sow s1"), "{o}");
}

#[test]
fn input_files_have_a_size_limit() {
    // `validate /dev/zero` read until memory ran out.
    if std::path::Path::new("/dev/zero").exists() {
        let t = Instant::now();
        let out = ludic(&["validate", "/dev/zero"], "");
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out).1.contains("larger than 1048576 bytes"));
        assert!(t.elapsed() < within(Duration::from_secs(5)));
        let out = ludic(&["replay", "/dev/zero"], "");
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out).1.contains("larger than"));
    }
    let big = tmp("big.game");
    std::fs::write(&big, "#".repeat(2 << 20)).unwrap();
    let out = ludic(&["validate", &big], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("the most a .game file may have"));
}

#[test]
fn a_file_of_many_errors_is_reported_in_linear_time() {
    // 0.9 MB took 8-13 s: each diagnostic counted the lines from the start of the file.
    let path = tmp("many-errors.game");
    let mut src = mini();
    while src.len() < 900_000 {
        src.push_str("def x = nowhere\n");
    }
    std::fs::write(&path, &src).unwrap();
    let t = Instant::now();
    let out = ludic(&["validate", &path], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        t.elapsed() < within(Duration::from_secs(5)),
        "{:?}",
        t.elapsed()
    );
    let err = text(&out).1;
    assert!(
        err.contains("errors"),
        "{}",
        &err[err.len().saturating_sub(200)..]
    );
}

#[test]
fn a_large_file_with_many_variants_is_validated_once_per_variant_not_parsed_again() {
    // Each of the 64 variants read the whole file again: 1 MB took 144 s.
    let path = tmp("variants.game");
    let variants: String = (0..64)
        .map(|i| format!("variant \"v{i}\" {{ seeds = {} }}\n", 1 + i % 10))
        .collect();
    let mut src = mini() + &variants;
    let mut i = 0;
    while src.len() < 1_000_000 {
        src.push_str(&format!(
            "def f{i}(h) = owner(h) == mover and count(h) > {} or not (h in [s1 s2])\n",
            i % 7
        ));
        i += 1;
    }
    std::fs::write(&path, &src).unwrap();
    let t = Instant::now();
    let out = ludic(&["validate", &path], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert!(
        t.elapsed() < within(Duration::from_secs(20)),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    // It was taken as the end of the input.
    let mut input = b"sow s1\n".to_vec();
    input.extend_from_slice(b"\xff\xfe s2\n");
    input.extend_from_slice(b"board\nquit\n");
    // South plays s1; North (random) answers; South's next line is not text, then `board`.
    let out = ludic_bytes(
        &[
            "play",
            "pallankuzhi",
            "--seed",
            "4",
            "--agent",
            "North=random",
            "--keep-going",
        ],
        input.clone(),
    );
    let (o, _) = text(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(o.contains("refused: the line is not UTF-8 text"), "{o}");
    assert!(
        o.contains("game stopped"),
        "the lines after it are read: {o}"
    );
    // without --keep-going, a script stops there with the reason (exit 1)
    let out = ludic_bytes(
        &[
            "play",
            "pallankuzhi",
            "--seed",
            "4",
            "--agent",
            "North=random",
        ],
        input,
    );
    let (o, e) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(o.contains("refused: the line is not UTF-8 text"), "{o}");
    assert!(
        e.contains("error: input line 2: the line is not UTF-8 text"),
        "{e}"
    );
    assert!(!o.contains("game stopped"), "{o}");
}

#[test]
fn output_errors_are_reported_and_a_closed_pipe_ends_quietly() {
    // `ludic list > /dev/full` panicked (exit 101).
    // Every command that writes to standard output (`draw > /dev/full` panicked too).
    let commands: &[&[&str]] = &[
        &["list"],
        &["draw", "pallankuzhi"],
        &["simulate", "puluc", "-n", "3"],
        &[
            "match",
            "pallankuzhi",
            "--agent",
            "random",
            "--agent",
            "random",
            "-n",
            "2",
        ],
        &["bench", "pallankuzhi", "--seconds", "0.01"],
        &["perft", "pallankuzhi", "2"],
    ];
    for args in commands {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            break;
        };
        let out = Command::new(env!("CARGO_BIN_EXE_ludic"))
            .args(*args)
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
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // a reader that stops after one byte
    let mut child = spawn(&["list"]);
    let mut one = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut one).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn replays(record: &str) -> Output {
    ludic(&["replay", record], "")
}

#[test]
fn the_record_is_written_as_the_game_goes() {
    // `--record F | head -c1`: the game was played, the record never written, exit 0.
    let rec = tmp("piped.json");
    let mut child = spawn(&[
        "play",
        "pallankuzhi",
        "--seed",
        "3",
        "--agent",
        "South=random",
        "--agent",
        "North=random",
        "--record",
        &rec,
    ]);
    let mut one = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut one).unwrap();
    let out = child.wait_with_output().unwrap();
    // a game cut short by its reader is said and fails (issue 22, point 6), unless it ended
    // before the pipe closed
    let said = text(&out).1;
    match out.status.code() {
        Some(1) => assert!(
            said.contains("standard output closed: stopped after"),
            "{said}"
        ),
        code => assert_eq!(code, Some(0), "{said}"),
    }
    let text_of = std::fs::read_to_string(&rec).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text_of).expect("a valid record");
    assert!(v["steps"].as_array().is_some());
    assert_eq!(replays(&rec).status.code(), Some(0));

    // an unwritable path is refused before the game starts
    let out = ludic(
        &[
            "play",
            "pallankuzhi",
            "--record",
            "/nonexistent-dir/x/record.json",
        ],
        "sow s1\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let (o, e) = text(&out);
    assert!(e.contains("cannot write the record"), "{e}");
    assert!(!o.contains("Turn 1"), "no game was played: {o}");

    // a game stopped without a word (killed while waiting for its player) keeps its record
    let rec = tmp("killed.json");
    let mut child = spawn(&[
        "play",
        "pallankuzhi",
        "--seed",
        "5",
        "--agent",
        "North=random",
        "--record",
        &rec,
    ]);
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"1\n").unwrap();
    input.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // wait until the second question is asked: the first decision is made and recorded
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while seen.matches("> ").count() < 2 {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "the game ended early: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    drop(input);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).expect("a valid record");
    assert!(!v["steps"].as_array().unwrap().is_empty(), "{v}");
    assert!(v["result"].is_null());
    let out = replays(&rec);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert!(text(&out).0.contains("The game is not finished"));

    // undo takes the steps back out of the record
    let rec = tmp("undo.json");
    let out = ludic(
        &[
            "play",
            "pallankuzhi",
            "--seed",
            "5",
            "--agent",
            "North=human",
            "--record",
            &rec,
        ],
        "sow s1\nundo\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(v["steps"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(replays(&rec).status.code(), Some(0));
}

#[test]
fn option_and_record_errors_have_their_exit_codes_and_one_message() {
    // An option value that breaks a `require`: a usage error naming the option.
    let out = ludic(&["play", "pallankuzhi", "-o", "seeds=7"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out).1;
    assert!(
        err.contains("option `seeds` = 7 breaks a requirement of the game: `seeds` must be even"),
        "{err}"
    );
    assert!(
        !err.contains("-->"),
        "no position in the built-in game: {err}"
    );

    // a record: made, then tampered with
    let rec = tmp("good.json");
    let out = ludic(
        &[
            "play",
            "pallankuzhi",
            "--seed",
            "2",
            "--agent",
            "South=random",
            "--agent",
            "North=random",
            "--record",
            &rec,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let good: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    let tampered = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        edit(&mut v);
        let path = tmp(name);
        std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        path
    };
    let unknown = tampered("unknown-option.json", &|v| {
        v["options"]["nonsense"] = "3".into();
        v["options"]["seeds"] = "99".into();
    });
    let other_game = tampered("other-game.json", &|v| v["game"] = "puluc".into());
    let format = tampered("format.json", &|v| v["format"] = 99.into());
    let long_move = tampered("long-move.json", &|v| {
        v["steps"][0]["notation"] = "x".repeat(1 << 20).into()
    });
    for (path, says) in [
        (&unknown, "the record's options do not fit"),
        (&other_game, "the record's options do not fit"),
        (&format, "is a record of format 99"),
        (&long_move, "is not a legal"),
    ] {
        let out = replays(path);
        assert_eq!(out.status.code(), Some(1), "{path}");
        let err = text(&out).1;
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "one message: {err}");
        assert!(errors[0].contains(path.as_str()), "names the record: {err}");
        assert!(err.contains(says), "{err}");
        assert!(err.len() < 2000, "not echoed in full ({} bytes)", err.len());
    }
    let out = ludic(&["replay", &rec, "--game", "puluc"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains(rec.as_str()));

    // a byte-order mark at the start of a record or a game file is accepted
    let bom = tmp("bom.json");
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend(std::fs::read(&rec).unwrap());
    std::fs::write(&bom, bytes).unwrap();
    assert_eq!(replays(&bom).status.code(), Some(0));
    let game = tmp("bom.game");
    std::fs::write(&game, format!("\u{feff}{}", mini())).unwrap();
    let out = ludic(&["validate", &game], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
}

#[test]
fn a_side_given_two_agents_is_refused() {
    // The last one was kept without a word.
    let out = ludic(
        &[
            "play",
            "pallankuzhi",
            "--agent",
            "North=random",
            "--agent",
            "north=human",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("given two agents"),
        "{}",
        text(&out).1
    );
}
