//! Output paths and records (issue 22, points 1 and 6), by running the binary: an output that
//! is an input, another output, standard output, or not a regular file is refused with
//! nothing touched; files are written whole through exclusive temporary files; a full disk or
//! a closed standard output leaves a valid record that says where it stopped; a record keeps
//! its final position and `replay` tells a changed game; the game a record names is a built-in
//! one or a regular `.game` file, never anything else.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileTypeExt;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ludic")
}

/// Runs ludic; a run longer than 20 s is killed and fails the test (a hang).
fn ludic(args: &[&str]) -> Output {
    let mut child = spawn(args);
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ludic {args:?} did not return in 20 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn err_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh folder of its own for each test.
fn folder(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ludic-outputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.to_str().unwrap().to_string()
}

fn mkfifo(path: &str) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {path}");
}

/// The temporary files left in a folder.
fn leftovers(dir: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

const RANDOM: [&str; 4] = ["--agent", "South=random", "--agent", "North=random"];

fn play_args<'a>(game: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["play", game, "--seed", "3"];
    a.extend(RANDOM);
    a.extend(more);
    a
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).expect("valid JSON")
}

#[test]
fn an_output_that_is_an_input_another_output_or_standard_output_is_refused() {
    let dir = folder("same");
    let both = format!("{dir}/both.json");
    // the record and the picture in one file: the record became an SVG, exit 0
    let o = ludic(&play_args(
        "pallankuzhi",
        &["--record", &both, "--svg", &both],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", err_of(&o));
    let e = err_of(&o);
    assert!(
        e.contains("the record (--record)") && e.contains("the picture (--svg)"),
        "{e}"
    );
    assert!(e.contains("are the same file"), "{e}");
    assert!(!std::path::Path::new(&both).exists(), "nothing written");
    assert!(!out_of(&o).contains("Pallankuzhi"), "no game was played");

    // the .game file being played: its description was overwritten by the record
    let game = format!("{dir}/mini.game");
    let text = std::fs::read_to_string("tests/fixtures/valid_mini.game").unwrap();
    std::fs::write(&game, &text).unwrap();
    let dotted = format!("{dir}/./mini.game");
    let o = ludic(&play_args(&game, &["--record", &dotted]));
    assert_eq!(o.status.code(), Some(2), "{}", err_of(&o));
    let e = err_of(&o);
    assert!(e.contains("the record (--record)"), "{e}");
    assert!(e.contains("the game file being played"), "{e}");
    assert_eq!(std::fs::read_to_string(&game).unwrap(), text, "untouched");
    // ... also for draw, and a record drawn onto itself
    let o = ludic(&["draw", &game, "--out", &game]);
    assert_eq!(o.status.code(), Some(2), "{}", err_of(&o));
    assert_eq!(std::fs::read_to_string(&game).unwrap(), text, "untouched");
    let rec = format!("{dir}/rec.json");
    let o = ludic(&play_args("pallankuzhi", &["--record", &rec]));
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    let before = std::fs::read_to_string(&rec).unwrap();
    let o = ludic(&["draw", "--record", &rec, "--out", &rec]);
    assert_eq!(o.status.code(), Some(2), "{}", err_of(&o));
    assert!(
        err_of(&o).contains("the record (--record)"),
        "{}",
        err_of(&o)
    );
    assert_eq!(std::fs::read_to_string(&rec).unwrap(), before, "untouched");

    // standard output redirected to the record's file: text and record were interleaved
    let shared = format!("{dir}/shared.txt");
    std::fs::write(&shared, "kept\n").unwrap();
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&shared)
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(play_args("pallankuzhi", &["--record", &shared]))
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", err_of(&o));
    assert!(err_of(&o).contains("is standard output"), "{}", err_of(&o));
    assert_eq!(std::fs::read_to_string(&shared).unwrap(), "kept\n");
}

#[test]
fn an_output_that_is_not_a_regular_file_is_refused_and_left_as_it_was() {
    let dir = folder("kinds");
    let fifo = format!("{dir}/fifo.svg");
    mkfifo(&fifo);
    let sub = format!("{dir}/sub");
    std::fs::create_dir(&sub).unwrap();
    let dangling = format!("{dir}/dangling.svg");
    std::os::unix::fs::symlink(format!("{dir}/nowhere"), &dangling).unwrap();
    let socket = format!("{dir}/socket.svg");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let cases: [(&str, &str); 5] = [
        (&fifo, "a FIFO"),
        ("/dev/full", "a character device"),
        (&sub, "a directory"),
        (&dangling, "a symbolic link to nothing"),
        (&socket, "a socket"),
    ];
    for (path, what) in cases {
        for args in [
            vec!["draw", "pallankuzhi", "--out", path],
            play_args("pallankuzhi", &["--record", path]),
            play_args("pallankuzhi", &["--svg", path]),
        ] {
            let o = ludic(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err_of(&o));
            let e = err_of(&o);
            assert!(e.contains(what) && e.contains(path), "{args:?}: {e}");
            assert!(e.contains("not a regular file"), "{e}");
        }
    }
    // each is still what it was
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(
        std::fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert!(std::fs::metadata(&sub).unwrap().is_dir());
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::metadata(&socket).unwrap().file_type().is_socket());
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));

    // a used record folder (--force) with a FIFO where a record goes
    let records = format!("{dir}/records");
    std::fs::create_dir(&records).unwrap();
    mkfifo(&format!("{records}/game-2.json"));
    let o = ludic(&[
        "match",
        "pallankuzhi",
        "--agent",
        "random",
        "--agent",
        "random",
        "-n",
        "3",
        "--record-dir",
        &records,
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err_of(&o));
    assert!(
        err_of(&o).contains("game-2.json` is a FIFO"),
        "{}",
        err_of(&o)
    );
    assert!(!std::path::Path::new(&format!("{records}/game-1.json")).exists());
}

#[test]
fn a_symbolic_link_to_a_file_is_followed_and_kept() {
    let dir = folder("links");
    let real = format!("{dir}/real.svg");
    std::fs::write(&real, "old").unwrap();
    let link = format!("{dir}/link.svg");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = ludic(&["draw", "pallankuzhi", "--out", &link]);
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    assert!(std::fs::read_to_string(&real).unwrap().starts_with("<svg"));
    // a record through a link, rewritten at every step
    let real = format!("{dir}/real.json");
    let link = format!("{dir}/link.json");
    std::fs::write(&real, "{}").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = ludic(&play_args("pallankuzhi", &["--record", &link]));
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(json(&real)["result"].is_object());
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

#[test]
fn temporary_files_are_created_exclusively_never_through_a_planted_link() {
    // The temporary name was `.F.<pid>.tmp`, opened without O_EXCL: a link planted under it
    // made the write go to the file it points to. Here links are planted under the names this
    // process would use first; the write passes over them.
    let dir = folder("planted");
    let victim = format!("{dir}/victim");
    std::fs::write(&victim, "precious").unwrap();
    let pid = std::process::id();
    for n in 0..50 {
        std::os::unix::fs::symlink(&victim, format!("{dir}/.out.svg.{pid}.{n}.tmp")).unwrap();
    }
    let target = format!("{dir}/out.svg");
    ludic::output::write_whole(&target, b"<svg/>", true).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "<svg/>");
    // the planted links are left alone, and no temporary file of its own is left
    assert_eq!(leftovers(&dir).len(), 50);
}

/// Runs ludic with files limited to 1 KiB (`ulimit -f 1`, SIGXFSZ ignored): a write past it
/// fails with EFBIG ("File too large"), as on a full disk, without root.
fn limited(args: &[&str]) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$@\"")
        .arg("bash")
        .arg(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_full_disk_is_reported_and_the_old_file_kept() {
    let dir = folder("full");
    let pic = format!("{dir}/board.svg");
    std::fs::write(&pic, "old picture").unwrap();
    let o = limited(&["draw", "pallankuzhi", "--out", &pic]);
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    let e = err_of(&o);
    assert!(
        e.contains(&format!(
            "cannot write the picture to `{pic}`: File too large"
        )),
        "{e}"
    );
    assert!(!e.contains("os error"), "{e}");
    assert_eq!(std::fs::read_to_string(&pic).unwrap(), "old picture");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

#[test]
fn a_record_that_cannot_be_written_further_stays_valid_and_says_where_it_stopped() {
    // A disk that filled mid-game left a record that was not JSON.
    let dir = folder("record-full");
    let rec = format!("{dir}/game.json");
    let o = limited(&play_args("pallankuzhi", &["--record", &rec]));
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    let v = json(&rec);
    let n = v["steps"].as_array().unwrap().len();
    assert!(n > 0, "{v}");
    assert!(v["result"].is_null());
    let e = err_of(&o);
    assert!(
        e.contains(&format!(
            "cannot write the record to `{rec}`: File too large"
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!("the record stopped at step {n} ")),
        "{e}"
    );
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let o = ludic(&["replay", &rec]);
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    assert!(out_of(&o).contains(&format!("{n} steps replayed")));
}

#[test]
fn a_closed_standard_output_ends_the_game_with_its_record_and_says_so() {
    // `play --record R | head -1`: the game stopped, exit 0, nothing said, R held 0 steps.
    let dir = folder("closed");
    let rec = format!("{dir}/game.json");
    let mut child = spawn(&play_args(
        "pallankuzhi",
        &["-o", "rounds=match", "--record", &rec],
    ));
    // read until the third move is told (the game's text is over 300 KB: it cannot be done
    // before the pipe closes), then close
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut moves = 0;
    let mut line = String::new();
    while moves < 3 {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "ended early");
        moves += usize::from(line.contains(" plays "));
    }
    drop(reader);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    let v = json(&rec);
    let n = v["steps"].as_array().unwrap().len();
    assert!(n >= 3, "{v}");
    assert!(v["result"].is_null(), "not over");
    let e = err_of(&o);
    assert!(
        e.contains(&format!(
            "standard output closed: stopped after {n} steps; the record {rec} holds them"
        )),
        "{e}"
    );
    let o = ludic(&["replay", &rec]);
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    assert!(out_of(&o).contains("The game is not finished"));
}

#[test]
fn a_record_keeps_its_final_position_and_replay_tells_a_changed_game() {
    let dir = folder("final");
    let game = format!("{dir}/mini.game");
    let text = std::fs::read_to_string("tests/fixtures/valid_mini.game").unwrap();
    std::fs::write(&game, &text).unwrap();
    // a game with captures on both sides
    let rec = format!("{dir}/game.json");
    let mut scores = (0, 0);
    for seed in 1..40 {
        let seed = seed.to_string();
        let mut args = vec!["play", &game, "--seed", &seed];
        args.extend(RANDOM);
        args.extend(["--record", &rec]);
        let o = ludic(&args);
        assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
        let v = json(&rec);
        scores = (
            v["final"]["score"]["South"].as_i64().unwrap(),
            v["final"]["score"]["North"].as_i64().unwrap(),
        );
        if scores.0 > 0 && scores.1 > 0 {
            break;
        }
    }
    assert!(scores.0 > 0 && scores.1 > 0, "{scores:?}");
    let v = json(&rec);
    assert_eq!(v["final"]["digest"].as_str().unwrap().len(), 16, "{v}");
    assert_eq!(ludic(&["replay", &rec]).status.code(), Some(0));

    // the rules changed since (each seed is worth 2): same steps, another score
    std::fs::write(
        &game,
        text.replace("pieces { seed }", "pieces { seed value 2 }"),
    )
    .unwrap();
    let o = ludic(&["replay", &rec]);
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    let e = err_of(&o);
    assert!(
        e.contains(&format!(
            "the game has changed since this record was made: final score {}-{} here, {}-{} in the record",
            2 * scores.0,
            2 * scores.1,
            scores.0,
            scores.1
        )),
        "{e}"
    );
    // a record without its final position (an older one) replays as before
    let mut old = v.clone();
    old.as_object_mut().unwrap().remove("final");
    let older = format!("{dir}/older.json");
    std::fs::write(&older, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let o = ludic(&["replay", &older]);
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    // the same score, another position: told by the digest
    std::fs::write(&game, &text).unwrap();
    let mut moved = v.clone();
    moved["final"]["digest"] = "0123456789abcdef".into();
    std::fs::write(&older, serde_json::to_string_pretty(&moved).unwrap()).unwrap();
    let o = ludic(&["replay", &older]);
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    assert!(
        err_of(&o).contains("the final position differs"),
        "{}",
        err_of(&o)
    );

    // every record kept in tests/fixtures is read and replayed as before (the one there is a
    // reported game whose last step is after the end since issue 9: its error stays that)
    for entry in std::fs::read_dir("tests/fixtures/records").unwrap() {
        let path = entry.unwrap().path();
        let o = ludic(&["replay", path.to_str().unwrap()]);
        let e = err_of(&o);
        assert!(
            o.status.code() == Some(0) || e.contains("steps after the end of the game"),
            "{path:?}: {e}"
        );
        assert!(!e.contains("has changed since"), "{e}");
    }
    // match records keep it too
    let records = format!("{dir}/match");
    let o = ludic(&[
        "match",
        "pallankuzhi",
        "--agent",
        "random",
        "--agent",
        "random",
        "-n",
        "2",
        "--record-dir",
        &records,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    let first = format!("{records}/game-1.json");
    assert!(json(&first)["final"]["score"].is_object());
    assert_eq!(ludic(&["replay", &first]).status.code(), Some(0));
}

#[test]
fn the_game_a_record_names_is_a_built_in_game_or_a_regular_game_file_only() {
    let dir = folder("named");
    let rec = format!("{dir}/game.json");
    let o = ludic(&play_args("pallankuzhi", &["--record", &rec]));
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    let v = json(&rec);
    let naming = |name: &str, file: &str| {
        let mut r = v.clone();
        r["game"] = name.into();
        let path = format!("{dir}/{file}");
        std::fs::write(&path, serde_json::to_string_pretty(&r).unwrap()).unwrap();
        path
    };
    // a FIFO: replay waited for ever
    let fifo = format!("{dir}/pipe.game");
    mkfifo(&fifo);
    let o = ludic(&["replay", &naming(&fifo, "fifo.json")]);
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    assert!(err_of(&o).contains("not a regular file"), "{}", err_of(&o));
    // a text file that is not a game: its first line was echoed in the error
    let secret = format!("{dir}/secret.txt");
    std::fs::write(&secret, "TOP-SECRET-LINE: hunter2\nmore\n").unwrap();
    let o = ludic(&["replay", &naming(&secret, "secret.json")]);
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    let all = out_of(&o) + &err_of(&o);
    assert!(!all.contains("TOP-SECRET"), "{all}");
    assert!(
        all.contains("neither a built-in game nor a .game file"),
        "{all}"
    );
    // a folder and a device named like games
    let folder_game = format!("{dir}/sub.game");
    std::fs::create_dir(&folder_game).unwrap();
    for name in [folder_game.as_str(), "/dev/zero", "/dev/stdin"] {
        let o = ludic(&["replay", &naming(name, "other.json")]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", err_of(&o));
    }
    // draw reads the record's game the same way
    let o = ludic(&["draw", "--record", &naming(&fifo, "fifo2.json")]);
    assert_eq!(o.status.code(), Some(1), "{}", err_of(&o));
    // a regular .game file, and a built-in game by another of its names, are found
    let game = format!("{dir}/mini.game");
    std::fs::copy("tests/fixtures/valid_mini.game", &game).unwrap();
    let mini = format!("{dir}/mini.json");
    let mut args = play_args(&game, &["--record", &mini]);
    args[3] = "1";
    assert_eq!(ludic(&args).status.code(), Some(0));
    assert_eq!(ludic(&["replay", &mini]).status.code(), Some(0));
    let o = ludic(&["replay", &naming("Pallanguzhi", "alias.json")]);
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
    // an explicit --game is the user's choice: still read
    let o = ludic(&[
        "replay",
        &naming(&secret, "secret2.json"),
        "--game",
        "pallankuzhi",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err_of(&o));
}
