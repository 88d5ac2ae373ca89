//! `ludic serve`, driven over HTTP as a browser would: the binary started on a free port (the
//! address read from its first line), requests sent with a small HTTP/1.1 client over
//! `TcpStream`, and every table checked against the library's own `Game` (the state a table
//! shows is the position its record replays to). Each test stops its server (no process left).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A server for one test, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludic"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ludic serve");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout).read_line(&mut line).expect("read");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// A request: (status, body).
    fn request(&self, method: &str, path: &str, ctype: &str, body: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        // (a server may answer and close before it has read a body it refuses)
        let _ = s.write_all(body);
        let mut raw = vec![];
        let _ = s.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status");
        let body = if head.to_lowercase().contains("transfer-encoding: chunked") {
            unchunk(body)
        } else {
            body.to_string()
        };
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (c, b) = self.request("GET", path, "text/plain", b"");
        (c, serde_json::from_str(&b).unwrap_or(Value::String(b)))
    }

    fn post(&self, path: &str, v: &Value) -> (u16, Value) {
        let (c, b) = self.request("POST", path, "application/json", v.to_string().as_bytes());
        (c, serde_json::from_str(&b).unwrap_or(Value::String(b)))
    }

    /// The server still answers.
    fn alive(&self) {
        let (c, v) = self.get("/api/games");
        assert_eq!(c, 200);
        assert!(v.as_array().is_some_and(|a| !a.is_empty()));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

fn ludic(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .output()
        .expect("run ludic")
}

fn builtin_names() -> Vec<String> {
    ludic::builtin::GAMES
        .iter()
        .map(|(s, _)| s.to_string())
        .collect()
}

/// Creates a table; (id, the seats' tokens).
fn create(s: &Server, req: Value) -> (String, Vec<Option<String>>) {
    let (c, v) = s.post("/api/tables", &req);
    assert_eq!(c, 200, "{v}");
    let tokens = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().map(str::to_string))
        .collect();
    (v["id"].as_str().unwrap().to_string(), tokens)
}

/// The table's record replays, in the library, to the position the table shows.
fn check_against_library(s: &Server, id: &str, state: &Value) -> ludic::record::Record {
    let (c, rec) = s.get(&format!("/api/tables/{id}/record"));
    assert_eq!(c, 200);
    let rec: ludic::record::Record = serde_json::from_value(rec).expect("a record");
    let settings = ludic::Settings {
        variant: None,
        sets: rec.options.clone().into_iter().collect(),
    };
    // a posted text is one of the built-in games' texts here: found by its hash
    let source = match ludic::builtin::GAMES
        .iter()
        .find(|(_, src)| ludic::source_hash(src) == rec.source_hash)
    {
        Some((_, src)) if rec.game == "<text>" => ludic::Source::Text(src.to_string()),
        _ => ludic::Source::infer(&rec.game),
    };
    let g = ludic::load(&source, &settings).expect("the game loads");
    let st = ludic::record::replay(&g, &rec.steps).expect("the record replays");
    assert_eq!(state["observation"], g.observation_json(&st), "table {id}");
    assert_eq!(state["steps"], json!(rec.steps.len()));
    rec
}

#[test]
fn games_are_listed_as_ludic_list_lists_them() {
    let s = Server::start();
    let (c, v) = s.get("/api/games");
    assert_eq!(c, 200);
    let out = ludic(&["list", "--format", "json"]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v, listed);
    // the page: its frame loads the Play section's module, which lists them from the API
    let (c, page) = s.request("GET", "/", "text/plain", b"");
    assert_eq!(c, 200);
    assert!(page.contains("/web/play.js"));
    let (c, script) = s.request("GET", "/web/play.js", "text/plain", b"");
    assert_eq!(c, 200);
    assert!(script.contains("/api/games"));
}

#[test]
fn a_text_is_checked_as_validate_checks_a_file() {
    let s = Server::start();
    let (_, src) = ludic::builtin::GAMES[0];
    // a line of the game spoiled: its error is said at that line
    let mut lines: Vec<&str> = src.lines().collect();
    let k = lines.len() / 2;
    lines.insert(k, "  this is not ludic");
    let text = lines.join("\n") + "\n";
    let (c, body) = s.request("POST", "/api/check", "text/plain", text.as_bytes());
    assert_eq!(c, 200, "{body}");
    let report: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["diagnostics"][0]["line"], json!(k + 1), "{report}");
    // the same report as `ludic validate --format json` (but for the file's name)
    let dir = std::env::temp_dir().join(format!("ludic-serve-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("spoiled.game");
    std::fs::write(&path, &text).unwrap();
    let out = ludic(&["validate", "--format", "json", path.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    let mut cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut cli = cli[0].take();
    cli["file"] = json!("<text>");
    for d in cli["diagnostics"].as_array_mut().unwrap() {
        d["file"] = json!("<text>");
    }
    assert_eq!(report, cli);
    // as JSON too, and a valid text is valid
    let (c, v) = s.post("/api/check", &json!({"text": src}));
    assert_eq!((c, &v["valid"]), (200, &json!(true)), "{v}");
}

/// Plays a table to its end: the person (seat 0) takes the `pick`-th legal decision each
/// time; every state checked against the library. Returns the last state.
fn play_out(s: &Server, id: &str, token: &str, pick: usize) -> Value {
    let path = format!("/api/tables/{id}?seat={token}");
    let (c, mut state) = s.get(&path);
    assert_eq!(c, 200, "{state}");
    for n in 0.. {
        assert!(n < 5000, "the game did not end");
        check_against_library(s, id, &state);
        assert!(state["svg"].as_str().unwrap().starts_with("<svg"));
        if state["status"] == "over" {
            return state;
        }
        assert_eq!(state["your_turn"], true, "{}", state["status"]);
        let legal = state["legal"].as_array().unwrap();
        assert!(!legal.is_empty());
        let d = &legal[(n * 7 + pick) % legal.len()];
        // by id, now and then by notation
        let body = if n % 5 == 1 {
            json!({"seat": token, "notation": d["notation"]})
        } else {
            json!({"seat": token, "action": d["id"]})
        };
        let (c, next) = s.post(&format!("/api/tables/{id}/move"), &body);
        assert_eq!(c, 200, "{next}");
        assert!(next["steps"].as_u64() > state["steps"].as_u64());
        state = next;
    }
    unreachable!()
}

#[test]
fn every_builtin_game_is_played_to_its_end_against_random() {
    let s = Server::start();
    let (_, games) = s.get("/api/games");
    for g in games.as_array().unwrap() {
        let name = g["name"].as_str().unwrap();
        let players = g["players"].as_array().unwrap().len();
        let mut seats = vec![json!("human")];
        seats.extend((1..players).map(|_| json!("random")));
        let (id, tokens) = create(&s, json!({"game": name, "seats": seats, "seed": 11}));
        let token = tokens[0].clone().unwrap();
        let last = play_out(&s, &id, &token, 3);
        assert!(last["end"]["reason"].is_string(), "{name}: {}", last["end"]);
        assert!(!last["narration"].as_array().unwrap().is_empty());
        // the record downloads, and `ludic replay` accepts it
        let (c, rec) = s.request("GET", &format!("/api/tables/{id}/record"), "", b"");
        assert_eq!(c, 200);
        let path =
            std::env::temp_dir().join(format!("ludic-serve-{}-{name}.json", std::process::id()));
        std::fs::write(&path, rec).unwrap();
        let out = ludic(&["replay", path.to_str().unwrap()]);
        let _ = std::fs::remove_file(&path);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(games.as_array().unwrap().len(), builtin_names().len());
}

#[test]
fn a_seed_gives_the_same_game() {
    let s = Server::start();
    let name = &builtin_names()[0];
    let mut records = vec![];
    for _ in 0..2 {
        let (id, tokens) = create(
            &s,
            json!({"game": name, "seats": ["human", "random"], "seed": 5}),
        );
        let last = play_out(&s, &id, tokens[0].as_deref().unwrap(), 1);
        records.push(check_against_library(&s, &id, &last).steps);
    }
    assert_eq!(records[0], records[1]);
}

/// Reads server-sent events until one of this kind; its data.
fn next_event(r: &mut BufReader<TcpStream>, kind: &str) -> Value {
    let mut current = String::new();
    loop {
        let mut line = String::new();
        let n = r.read_line(&mut line).expect("an event");
        assert!(n > 0, "the event stream ended");
        let line = line.trim_end();
        if let Some(k) = line.strip_prefix("event: ") {
            current = k.to_string();
        } else if let Some(d) = line.strip_prefix("data: ")
            && current == kind
        {
            return serde_json::from_str(d).unwrap();
        }
    }
}

#[test]
fn two_people_at_two_browsers_see_each_others_moves() {
    let s = Server::start();
    let name = &builtin_names()[0];
    let (id, tokens) = create(
        &s,
        json!({"game": name, "seats": ["human", "human"], "seed": 1}),
    );
    let (a, b) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    // the second browser listens
    let mut es = TcpStream::connect(&s.addr).unwrap();
    es.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        es,
        "GET /api/tables/{id}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        s.addr
    )
    .unwrap();
    let mut events = BufReader::new(es);
    let hello = next_event(&mut events, "hello");
    assert_eq!(hello["steps"], 0);
    // the second seat may not play the first's turn
    let (_, st_b) = s.get(&format!("/api/tables/{id}?seat={b}"));
    assert_eq!(st_b["your_turn"], false);
    let (_, st_a) = s.get(&format!("/api/tables/{id}?seat={a}"));
    let first = st_a["legal"][0]["id"].clone();
    let (c, v) = s.post(
        &format!("/api/tables/{id}/move"),
        &json!({"seat": b, "action": first}),
    );
    assert_eq!(c, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("not your turn"));
    // the first plays: the second hears of it at once, and it is its turn
    let (c, _) = s.post(
        &format!("/api/tables/{id}/move"),
        &json!({"seat": a, "action": first}),
    );
    assert_eq!(c, 200);
    let step = next_event(&mut events, "step");
    assert!(step["version"].as_u64() > hello["version"].as_u64());
    let (_, st_b) = s.get(&format!("/api/tables/{id}?seat={b}"));
    if st_b["status"] == "decision" && st_b["turn"] != st_a["turn"] {
        assert_eq!(st_b["your_turn"], true);
    }
    check_against_library(&s, &id, &st_b);
}

#[test]
fn undo_takes_back_a_move_and_resign_ends_the_game() {
    let s = Server::start();
    for name in builtin_names() {
        let (id, tokens) = create(
            &s,
            json!({"game": name, "seats": ["human", "random"], "seed": 3}),
        );
        let t = tokens[0].clone().unwrap();
        let path = format!("/api/tables/{id}?seat={t}");
        let (_, start) = s.get(&path);
        if start["your_turn"] != true {
            continue;
        }
        let (c, v) = s.post(&format!("/api/tables/{id}/undo"), &json!({"seat": t}));
        assert_eq!(c, 409, "nothing to undo: {v}");
        let a = start["legal"][0]["id"].clone();
        let (c, after) = s.post(
            &format!("/api/tables/{id}/move"),
            &json!({"seat": t, "action": a}),
        );
        assert_eq!(c, 200);
        assert!(after["steps"].as_u64() > start["steps"].as_u64());
        let (c, back) = s.post(&format!("/api/tables/{id}/undo"), &json!({"seat": t}));
        assert_eq!(c, 200, "{back}");
        assert_eq!(back["observation"], start["observation"]);
        assert_eq!(back["narration"], start["narration"]);
        check_against_library(&s, &id, &back);
        // resign: the other side wins, nothing more is played
        let (c, end) = s.post(&format!("/api/tables/{id}/resign"), &json!({"seat": t}));
        assert_eq!(c, 200);
        assert_eq!(end["status"], "over");
        assert_eq!(end["end"]["reason"], "resign");
        let (c, _) = s.post(
            &format!("/api/tables/{id}/move"),
            &json!({"seat": t, "action": a}),
        );
        assert_eq!(c, 409);
        return;
    }
    panic!("no game where the first player moves first");
}

#[test]
fn hostile_requests_get_clear_4xx_and_the_server_goes_on() {
    let s = Server::start();
    let name = &builtin_names()[0];
    let (id, tokens) = create(&s, json!({"game": name, "seats": ["human", "random"]}));
    let t = tokens[0].clone().unwrap();
    let mv = format!("/api/tables/{id}/move");
    let is_error = |c: u16, v: &Value, want: u16| {
        assert_eq!(c, want, "{v}");
        assert!(v["error"].is_string() && v["hint"].is_string(), "{v}");
    };
    // a huge body
    let huge = vec![b'a'; 3 << 20];
    let (c, b) = s.request("POST", "/api/check", "text/plain", &huge);
    is_error(c, &serde_json::from_str(&b).unwrap(), 413);
    // a text over the .game limit
    let big = "a".repeat((1 << 20) + 10);
    let (c, v) = s.post("/api/tables", &json!({"text": big}));
    is_error(c, &v, 413);
    // deep nesting in a game text: refused with its position, no crash
    let deep = format!("game \"x\" {{ {} }}", "(".repeat(100_000));
    let (c, v) = s.post("/api/tables", &json!({"text": deep}));
    is_error(c, &v, 422);
    let (c, b) = s.request("POST", "/api/check", "text/plain", deep.as_bytes());
    assert_eq!(c, 200);
    assert!(b.contains("\"valid\":false"), "{b}");
    // deep nesting in the JSON itself
    let nested = "[".repeat(100_000);
    let (c, b) = s.request("POST", "/api/tables", "application/json", nested.as_bytes());
    is_error(c, &serde_json::from_str(&b).unwrap(), 400);
    // unknown ids, games, pages
    let (c, v) = s.get("/api/tables/0123456789abcdef");
    is_error(c, &v, 404);
    let (c, v) = s.post("/api/tables/nope/move", &json!({"seat": t, "action": 0}));
    is_error(c, &v, 404);
    let (c, v) = s.post("/api/tables", &json!({"game": "no such game"}));
    is_error(c, &v, 404);
    let (c, v) = s.post("/api/tables", &json!({"game": "/etc/passwd"}));
    is_error(c, &v, 404);
    let (c, v) = s.get("/etc/passwd");
    is_error(c, &v, 404);
    // malformed moves, bad JSON, a wrong token
    let (c, v) = s.post(&mv, &json!({"seat": t, "action": 999_999}));
    is_error(c, &v, 400);
    let (c, v) = s.post(&mv, &json!({"seat": t, "notation": "fly to the moon"}));
    is_error(c, &v, 400);
    let (c, v) = s.post(&mv, &json!({"seat": t, "action": "zero"}));
    is_error(c, &v, 400);
    let (c, v) = s.post(&mv, &json!({"seat": t}));
    is_error(c, &v, 400);
    let (c, b) = s.request("POST", &mv, "application/json", b"{\"seat\": ");
    is_error(c, &serde_json::from_str(&b).unwrap(), 400);
    let (c, v) = s.post(&mv, &json!({"seat": "not-a-token", "action": 0}));
    is_error(c, &v, 403);
    let (c, v) = s.get(&format!("/api/tables/{id}?seat=not-a-token"));
    is_error(c, &v, 403);
    // seats: a program never runs on the server; a wrong count; an unknown agent
    let (c, v) = s.post(
        "/api/tables",
        &json!({"game": name, "seats": ["cmd:sh -c 'touch /tmp/x'", "random"]}),
    );
    is_error(c, &v, 400);
    let (c, v) = s.post("/api/tables", &json!({"game": name, "seats": ["human"]}));
    is_error(c, &v, 400);
    let (c, v) = s.post(
        "/api/tables",
        &json!({"game": name, "seats": ["god", "random"]}),
    );
    is_error(c, &v, 400);
    let (c, v) = s.post(
        "/api/tables",
        &json!({"game": name, "options": {"no_such_option": 3}}),
    );
    is_error(c, &v, 400);
    // the table is still as it was, and the server serves
    let (c, v) = s.get(&format!("/api/tables/{id}?seat={t}"));
    assert_eq!((c, &v["steps"]), (200, &json!(0)));
    s.alive();
}

#[test]
fn a_posted_game_text_is_played() {
    let s = Server::start();
    let (_, src) = ludic::builtin::GAMES[1];
    let (id, tokens) = create(
        &s,
        json!({"text": src, "seats": ["human", "random"], "seed": 2}),
    );
    let last = play_out(&s, &id, tokens[0].as_deref().unwrap(), 0);
    assert_eq!(last["status"], "over");
}

#[test]
fn computers_play_each_other_in_the_background() {
    let s = Server::start();
    let name = &builtin_names()[0];
    let (id, tokens) = create(
        &s,
        json!({"game": name, "seats": ["random", "mcts:playouts=50"], "seed": 4}),
    );
    assert!(tokens.iter().all(Option::is_none));
    for _ in 0..600 {
        let (_, v) = s.get(&format!("/api/tables/{id}"));
        if v["status"] == "over" {
            check_against_library(&s, &id, &v);
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("the computers did not finish");
}

#[test]
fn a_table_is_the_game_ludic_play_plays_with_the_same_seed() {
    let s = Server::start();
    for name in builtin_names() {
        let (id, tokens) = create(
            &s,
            json!({"game": name, "seats": ["human", "random"], "seed": 5}),
        );
        let last = play_out(&s, &id, tokens[0].as_deref().unwrap(), 2);
        let rec = check_against_library(&s, &id, &last);
        let players: Vec<&String> = rec.agents.keys().collect();
        let person = rec.agents.iter().find(|(_, a)| *a == "human").unwrap().0;
        let computer = players.iter().find(|p| **p != person).unwrap();
        let mine: String = rec
            .steps
            .iter()
            .filter_map(|st| match st {
                ludic::record::Step::Decision { player, notation } if player == person => {
                    Some(format!("{notation}\n"))
                }
                _ => None,
            })
            .collect();
        let path = std::env::temp_dir().join(format!(
            "ludic-serve-play-{}-{name}.json",
            std::process::id()
        ));
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludic"))
            .args(["play", &name, "--seed", "5", "--agent"])
            .arg(format!("{computer}=random"))
            .arg("--record")
            .arg(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(mine.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let played: ludic::record::Record =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(played.steps, rec.steps, "{name}");
        assert_eq!(played.result, rec.result, "{name}");
    }
}

#[test]
fn a_resigned_game_downloads_as_a_record_that_replays() {
    let s = Server::start();
    let name = &builtin_names()[0];
    let (id, tokens) = create(
        &s,
        json!({"game": name, "seats": ["human", "random"], "seed": 8}),
    );
    let t = tokens[0].clone().unwrap();
    let (_, st) = s.get(&format!("/api/tables/{id}?seat={t}"));
    let a = st["legal"][0]["id"].clone();
    let (c, _) = s.post(
        &format!("/api/tables/{id}/move"),
        &json!({"seat": t, "action": a}),
    );
    assert_eq!(c, 200);
    let (c, _) = s.post(&format!("/api/tables/{id}/resign"), &json!({"seat": t}));
    assert_eq!(c, 200);
    let (c, rec) = s.request("GET", &format!("/api/tables/{id}/record"), "", b"");
    assert_eq!(c, 200);
    let path = std::env::temp_dir().join(format!("ludic-serve-resign-{}.json", std::process::id()));
    std::fs::write(&path, rec).unwrap();
    let out = ludic(&["replay", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_text_built_on_a_builtin_game_is_played_and_no_base_is_read_from_files() {
    let s = Server::start();
    // a game built on a built-in one, by name
    let (stem, _) = ludic::builtin::GAMES[0];
    let text = format!("game \"Mine\" from \"{stem}\" {{ }}\n");
    let (c, v) = s.post("/api/check", &json!({"text": text}));
    assert_eq!((c, &v["valid"]), (200, &json!(true)), "{v}");
    let (id, tokens) = create(&s, json!({"text": text, "seed": 1}));
    let (c, st) = s.get(&format!(
        "/api/tables/{id}?seat={}",
        tokens[0].as_deref().unwrap()
    ));
    assert_eq!(c, 200);
    assert_eq!(st["title"], "Mine");
    // a base that is a file is never read
    let dir = std::env::temp_dir().join(format!("ludic-serve-base-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = dir.join("base.game");
    std::fs::write(&base, ludic::builtin::GAMES[0].1).unwrap();
    let text = format!("game \"Mine\" from \"{}\" {{ }}\n", base.display());
    let (c, v) = s.post("/api/tables", &json!({"text": text}));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(c, 422, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("not a built-in game"),
        "{v}"
    );
    let (c, v) = s.post("/api/check", &json!({"text": text}));
    assert_eq!((c, &v["valid"]), (200, &json!(false)), "{v}");
}

#[test]
fn a_search_is_capped_and_its_progress_is_sent() {
    let s = Server::start();
    let name = &builtin_names()[0];
    let (c, v) = s.post(
        "/api/tables",
        &json!({"game": name, "seats": ["mcts:time=1s", "mcts:time=10m"], "seed": 1}),
    );
    assert_eq!(c, 200, "{v}");
    let agents: Vec<&str> = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["agent"].as_str().unwrap())
        .collect();
    // ten minutes asked, five seconds given
    assert!(agents[1].contains("5 s"), "{agents:?}");
    let id = v["id"].as_str().unwrap();
    let mut es = TcpStream::connect(&s.addr).unwrap();
    es.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        es,
        "GET /api/tables/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        s.addr
    )
    .unwrap();
    let mut events = BufReader::new(es);
    let thinking = next_event(&mut events, "thinking");
    assert!(thinking["playouts"].as_u64().is_some(), "{thinking}");
    assert!(thinking["thinking"].is_string(), "{thinking}");
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let mut s = Server::start();
    s.alive();
    let pid = s.child.id() as i32;
    // SAFETY: a signal to the child this test started
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let t0 = std::time::Instant::now();
    let status = loop {
        if let Some(st) = s.child.try_wait().unwrap() {
            break st;
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_record_is_replayed_step_by_step() {
    let s = Server::start();
    let dir = std::env::temp_dir().join(format!("ludic-serve-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = ludic(&[
        "match",
        "puluc",
        "--agent",
        "random",
        "--agent",
        "random",
        "-n",
        "1",
        "--seed",
        "6",
        "--record-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(dir.join("game-1.json")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let rec: Value = serde_json::from_str(&text).unwrap();
    let n = rec["steps"].as_array().unwrap().len();
    let g = ludic::load_game(
        ludic::builtin::find("puluc").unwrap().1,
        &ludic::Settings::default(),
    )
    .unwrap();
    let steps: Vec<ludic::record::Step> = serde_json::from_value(rec["steps"].clone()).unwrap();
    for k in [0, 1, n / 2, n] {
        // the record as text (a file's content) or as JSON: the same
        let body = if k % 2 == 0 {
            json!({"record": text, "step": k})
        } else {
            json!({"record": rec, "step": k})
        };
        let (c, v) = s.post("/api/replay", &body);
        assert_eq!(c, 200, "{v}");
        assert_eq!(v["steps"], n);
        assert_eq!(v["step"], k);
        assert_eq!(v["titles"].as_array().unwrap().len(), n);
        let st = ludic::record::replay(&g, &steps[..k]).unwrap();
        assert_eq!(v["observation"], g.observation_json(&st), "step {k}");
        assert_eq!(v["narration"].as_array().unwrap().is_empty(), k == 0);
    }
    let (_, last) = s.post("/api/replay", &json!({"record": text, "step": n}));
    assert!(
        last["end_text"]
            .as_str()
            .is_some_and(|t| t.contains("wins") || t.contains("draw")),
        "{last}"
    );
    // mistakes: a step past the end, a changed step, not a record, a game not built in
    let (c, v) = s.post("/api/replay", &json!({"record": text, "step": n + 1}));
    assert_eq!(c, 400, "{v}");
    let mut bad = rec.clone();
    bad["steps"][2] = json!({"type": "decision", "player": "South", "notation": "move c99"});
    let (c, v) = s.post("/api/replay", &json!({"record": bad, "step": 1}));
    assert_eq!(c, 422, "{v}");
    assert!(v["error"].as_str().unwrap().contains("step 3"), "{v}");
    let (c, _) = s.post("/api/replay", &json!({"record": "{\"format\": 1}"}));
    assert_eq!(c, 400);
    let mut elsewhere = rec.clone();
    elsewhere["game"] = json!("/etc/passwd");
    let (c, v) = s.post("/api/replay", &json!({"record": elsewhere}));
    assert_eq!(c, 400, "{v}");
    assert!(v["hint"].as_str().unwrap().contains("text"));
    s.alive();
}

#[test]
fn the_editor_gets_the_words_a_builtin_text_and_the_rules() {
    let s = Server::start();
    let (c, v) = s.get("/api/language");
    assert_eq!(c, 200);
    let words: Vec<(&str, bool)> = v["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["word"].as_str().unwrap(),
                w["reserved"].as_bool().unwrap(),
            )
        })
        .collect();
    // `where` is reserved (never a name); `sow` begins a statement but can be a name
    assert!(words.contains(&("sow", false)) && words.contains(&("where", true)));
    assert!(v["builtins"].as_array().unwrap().contains(&json!("mover")));
    for (stem, src) in ludic::builtin::GAMES {
        let (c, v) = s.get(&format!("/api/games/{stem}/text"));
        assert_eq!(c, 200);
        assert_eq!(v["text"], *src);
    }
    let (c, v) = s.get("/api/games/..%2FCargo.toml/text");
    assert_eq!(c, 404, "{v}");
    let text = "game \"Seven\" from \"ceelkoqyuqkoqiji\" { }\noption holes = 7\n";
    let (c, v) = s.post("/api/rules", &json!({ "text": text }));
    assert_eq!(c, 200, "{v}");
    let rules = v["text"].as_str().unwrap();
    assert!(
        rules.contains("Seven") && rules.contains("The start:"),
        "{rules}"
    );
    let (c, _) = s.post("/api/rules", &json!({"text": "game \"x\" {"}));
    assert_eq!(c, 422);
    s.alive();
}

/// A connection that sends nothing, and one that sends a request a byte at a time and never
/// ends it, are closed when nothing was answered within 15 s.
#[test]
fn a_silent_or_slow_connection_is_closed() {
    let s = Server::start();
    let start = std::time::Instant::now();
    let mut silent = TcpStream::connect(&s.addr).unwrap();
    let mut slow = TcpStream::connect(&s.addr).unwrap();
    for c in [&silent, &slow] {
        c.set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
    }
    let mut buf = [0u8; 16];
    let mut closed = [None, None];
    let request = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    let mut i = 0;
    while closed.iter().any(Option::is_none) && start.elapsed() < Duration::from_secs(40) {
        if closed[1].is_none() {
            // a byte of the header every half second, for ever
            let _ = slow.write_all(&[*request.get(i).unwrap_or(&b'y')]);
            i += 1;
        }
        for (k, c) in [&mut silent, &mut slow].into_iter().enumerate() {
            if closed[k].is_none() && closed_now(c, &mut buf) {
                closed[k] = Some(start.elapsed());
            }
        }
    }
    for (k, took) in closed.iter().enumerate() {
        let took = took.unwrap_or_else(|| panic!("connection {k} still open after 40 s"));
        assert!(
            took >= Duration::from_secs(14) && took < Duration::from_secs(25),
            "connection {k} closed after {took:?}"
        );
    }
    s.alive();
}

/// Whether the server closed `c` (a read ends, or fails other than by its timeout).
fn closed_now(c: &mut TcpStream, buf: &mut [u8]) -> bool {
    use std::io::ErrorKind::{TimedOut, WouldBlock};
    match c.read(buf) {
        Ok(0) => true,
        Ok(n) => panic!(
            "an answer to nothing: {:?}",
            String::from_utf8_lossy(&buf[..n])
        ),
        Err(e) => !matches!(e.kind(), WouldBlock | TimedOut),
    }
}

/// The connections open at once are capped: at the cap, a new connection waits (in the
/// listening socket's queue) until one closes, then it is served.
#[test]
fn connections_are_capped_and_the_next_waits_its_turn() {
    let s = Server::start();
    // the cap the server computes: 1100, or fewer under a low limit of open files
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", s.child.id())).unwrap();
    let soft: usize = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|n| n.parse().ok())
        .unwrap();
    let cap = 1100.min(soft.saturating_sub(64)).max(16);
    // each held open with the start of a request (so that it is not silent)
    let held: Vec<TcpStream> = (0..cap)
        .map(|_| {
            let mut c = TcpStream::connect(&s.addr).unwrap();
            c.write_all(b"GET /api/games HTTP/1.1\r\n").unwrap();
            c
        })
        .collect();
    let mut next = TcpStream::connect(&s.addr).unwrap();
    next.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    next.set_read_timeout(Some(Duration::from_millis(1500)))
        .unwrap();
    let mut buf = [0u8; 12];
    assert!(
        next.read(&mut buf).is_err(),
        "over the cap, a connection waits"
    );
    drop(held);
    next.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = vec![];
    let _ = next.read_to_end(&mut answer);
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"),
        "served once others close"
    );
    s.alive();
}

#[test]
fn searching_computers_never_hold_up_the_moves_of_other_tables() {
    // more tables of searching computers than the server's blocking pool has threads (64),
    // each search 5 s: without a cap on the searches running at once, every thread would be
    // taken and a person's move at another table would wait seconds
    let s = Server::start();
    let name = &builtin_names()[0];
    let busy: Vec<String> = (0..80)
        .map(|i| {
            let seats = json!(["mcts:time=5s", "mcts:time=5s"]);
            create(&s, json!({"game": name, "seats": seats, "seed": i})).0
        })
        .collect();
    let (id, tokens) = create(
        &s,
        json!({"game": name, "seats": ["human", "random"], "seed": 1}),
    );
    let token = tokens[0].clone().unwrap();
    for _ in 0..5 {
        let (_, v) = s.get(&format!("/api/tables/{id}?seat={token}"));
        if v["end"].is_object() {
            break;
        }
        let t0 = std::time::Instant::now();
        let (c, v) = s.post(
            &format!("/api/tables/{id}/move"),
            &json!({"seat": token, "action": v["legal"][0]["id"]}),
        );
        assert_eq!(c, 200, "{v}");
        let took = t0.elapsed();
        assert!(took < Duration::from_secs(2), "a move took {took:?}");
    }
    // the searching tables are there, some thinking
    let (c, _) = s.get(&format!("/api/tables/{}", busy[79]));
    assert_eq!(c, 200);
}
