//! `ludic lsp`, the language server, driven as an editor drives it: the binary started as a
//! child process, JSON-RPC messages on its standard input and output (the protocol-level
//! tests), and a real client, Neovim headless, running tests/lsp/client.lua.
//!
//! Neovim is Debian's `neovim`, installed with apt-get when missing and the test runs as root.
//! Without it (and not root) the Neovim test says what is missing and passes, unless `CI=true`:
//! in CI a setup failure is a failure.

#[path = "common/pyenv.rs"]
mod pyenv;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ludic");
const URI: &str = "file:///tmp/ludic-lsp-test/puluc.game";

/// A client of a server started for the test: messages sent, and read by a thread (so that a
/// server that hangs fails the test after a timeout, instead of hanging it).
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(BIN)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ludic lsp starts");
        let stdout = child.stdout.take().expect("its output");
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut size = 0;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        size = n.parse().expect("a length");
                    }
                }
                let mut body = vec![0; size];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let _ = tx.send(serde_json::from_slice(&body).expect("the server writes JSON"));
            }
        });
        let stdin = child.stdin.take();
        Client {
            child,
            stdin,
            incoming,
            next_id: 1,
        }
    }

    fn write_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().expect("open");
        let _ = write!(stdin, "Content-Length: {}\r\n\r\n", body.len());
        let _ = stdin.write_all(body);
        let _ = stdin.flush();
    }

    fn notify(&mut self, method: &str, params: Value) {
        let m = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.write_raw(m.to_string().as_bytes());
    }

    /// Sends a request and waits for its answer (the whole response).
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.write_raw(m.to_string().as_bytes());
        self.wait_for(|m| m["id"] == id)
    }

    /// The result of a request.
    fn ask(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params);
        assert!(r.get("error").is_none(), "{method}: {r}");
        r["result"].clone()
    }

    fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) if pred(&m) => return m,
                Ok(_) => {}
                Err(e) => panic!("no answer from the server: {e}"),
            }
        }
    }

    fn initialize(&mut self) -> Value {
        let r = self.ask("initialize", json!({"capabilities": {}}));
        self.notify("initialized", json!({}));
        r
    }

    fn open(&mut self, uri: &str, text: &str) -> Value {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "ludic", "version": 1, "text": text}}),
        );
        self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        })["params"]["diagnostics"]
            .clone()
    }

    /// Ends the session: `shutdown`, `exit`; the exit code and the standard error.
    fn stop(mut self) -> (Option<i32>, String) {
        let r = self.call("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        self.finish()
    }

    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("ludic lsp did not stop");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        assert!(!err.contains("panicked"), "the server panicked: {err}");
        (status.code(), err)
    }
}

/// The position (0-based line, UTF-16 column) of the `nth` (from 0) `word` in the text, past
/// the column of `after` on its line if given.
fn pos(text: &str, word: &str, nth: usize) -> Value {
    let at = text.match_indices(word).nth(nth).expect("the word").0;
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let col: usize = text[start..at].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": col})
}

fn at(text: &str, word: &str, nth: usize) -> Value {
    json!({"textDocument": {"uri": URI}, "position": pos(text, word, nth)})
}

/// A document's outline, and the names of its symbols in order.
fn symbols(c: &mut Client, uri: &str) -> (Value, Vec<String>) {
    let syms = c.ask(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names = syms
        .as_array()
        .unwrap_or_else(|| panic!("no symbols: {syms}"))
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    (syms, names)
}

/// The text of a hover's answer at a position.
fn hover_text(c: &mut Client, at: Value) -> String {
    let h = c.ask("textDocument/hover", at);
    h["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("no hover text: {h}"))
        .to_string()
}

fn puluc() -> String {
    std::fs::read_to_string("games/puluc.game").expect("games/puluc.game")
}

#[test]
fn diagnostics_are_published_at_the_line_of_the_error_with_the_hint() {
    let mut c = Client::start();
    let caps = c.initialize();
    assert_eq!(caps["capabilities"]["textDocumentSync"], 1, "{caps}");
    let bad = puluc().replace("throw grains as v", "throw grainz as v");
    let line = bad
        .lines()
        .position(|l| l.contains("grainz"))
        .expect("the line");
    let diags = c.open(URI, &bad);
    let first = &diags[0];
    assert_eq!(first["range"]["start"]["line"], line, "{diags}");
    assert_eq!(first["severity"], 1);
    assert!(
        first["message"].as_str().unwrap().contains("grainz"),
        "{first}"
    );
    let hint = &first["relatedInformation"][0]["message"];
    assert!(hint.as_str().unwrap().contains("grains"), "{first}");
    // fixed: no diagnostics
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": puluc()}]}),
    );
    let m = c.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(m["params"]["diagnostics"], json!([]), "{m}");
    assert_eq!(m["params"]["version"], 2);
    // a warning is a warning
    let shadow = "game \"W\" {}\nsides A B\nlimit 10 turns\nboard { row s[1..2] at y 0 }\n\
                  pieces { seed }\nturn {\n  let s1 = 3\n  if s1 > 2 { end turn }\n\
                  choose sow x in s2 { end turn }\n}\n";
    let diags = c.open("file:///tmp/ludic-lsp-test/w.game", shadow);
    assert_eq!(diags.as_array().unwrap().len(), 1, "{diags}");
    assert_eq!(diags[0]["severity"], 2, "{diags}");
    assert_eq!(diags[0]["range"]["start"]["line"], 6, "{diags}");
    let note = &diags[0]["relatedInformation"];
    assert!(note.to_string().contains("the site `s1` is here"), "{note}");
    assert_eq!(c.stop().0, Some(0));
}

#[test]
fn hover_definition_references_completion_symbols_rename() {
    let mut c = Client::start();
    c.initialize();
    let text = puluc();
    assert_eq!(c.open(URI, &text), json!([]));

    // hover: a def's signature, a keyword's doc, a site's coordinates, an option's doc
    let h = c.ask("textDocument/hover", at(&text, "controls(s)", 1));
    let h = h["contents"]["value"].as_str().unwrap().to_string();
    assert!(h.contains("def controls(s)"), "{h}");
    let h = hover_text(&mut c, at(&text, "throw", 1));
    assert!(h.contains("chance event"), "{h}");
    let h = hover_text(&mut c, at(&text, "c0 for", 0));
    assert!(h.contains("at (0, 0)"), "{h}");
    let h = hover_text(&mut c, at(&text, "max_turns", 1));
    assert!(h.contains("draw"), "{h}");

    // definition and references of a def
    let def_line = text
        .lines()
        .position(|l| l.starts_with("def controls"))
        .unwrap();
    let d = c.ask("textDocument/definition", at(&text, "controls(s)", 1));
    assert_eq!(d["range"]["start"]["line"], def_line, "{d}");
    let mut p = at(&text, "controls(s)", 1);
    p["context"] = json!({"includeDeclaration": true});
    let refs = c.ask("textDocument/references", p);
    let uses = text.matches("controls(").count();
    assert_eq!(refs.as_array().unwrap().len(), uses, "{refs}");

    // completion: declarations at the top, statements, builtins and names in a block
    let labels = |r: Value| -> Vec<String> {
        let items = r.get("items").cloned().unwrap_or(r);
        items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let top = labels(c.ask(
        "textDocument/completion",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}),
    ));
    for w in ["board", "def", "option", "turn"] {
        assert!(top.contains(&w.to_string()), "{w} in {top:?}");
    }
    assert!(!top.contains(&"count".to_string()), "{top:?}");
    let inside = labels(c.ask("textDocument/completion", at(&text, "throw grains", 0)));
    for w in ["choose", "count", "controls", "max_turns", "grains", "if"] {
        assert!(inside.contains(&w.to_string()), "{w} in {inside:?}");
    }
    assert!(!inside.contains(&"def".to_string()), "{inside:?}");

    // the outline
    let (syms, names) = symbols(&mut c, URI);
    for n in [
        "max_turns",
        "South",
        "killed",
        "grains",
        "home",
        "controls",
        "target",
        "c",
    ] {
        assert!(names.iter().any(|m| m == n), "{n} in {names:?}");
    }
    let target = syms
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "target")
        .unwrap();
    assert_eq!(target["children"].as_array().unwrap().len(), 2, "{target}");

    // rename a def: its declaration and every use
    let p = at(&text, "controls(s)", 1);
    let r = c.ask("textDocument/prepareRename", p.clone());
    assert_eq!(r["start"], pos(&text, "controls(s)", 1), "{r}");
    let mut p = p;
    p["newName"] = json!("holds");
    let edit = c.ask("textDocument/rename", p);
    let edits = edit["changes"][URI].as_array().unwrap();
    assert_eq!(edits.len(), uses, "{edit}");
    // a keyword is not renamed; a reserved word is refused (a soft keyword is a name)
    assert_eq!(
        c.ask("textDocument/prepareRename", at(&text, "throw", 1)),
        Value::Null
    );
    let mut p = at(&text, "controls(s)", 1);
    p["newName"] = json!("where");
    assert!(c.call("textDocument/rename", p).get("error").is_some());
    assert_eq!(c.stop().0, Some(0));
}

#[test]
fn names_are_resolved_in_their_scope() {
    let mut c = Client::start();
    c.initialize();
    let text = "game \"S\" {}\nsides A B\nlimit 9 turns\nboard {\n  row s[1..3] at y 0\n  region goal = s1 s3\n}\n\
                pieces { seed }\ndef f(h) = count(h) + 1\ndef g(h) = count(h)\n\
                turn {\n  let h = 2\n  choose sow x where x in goal and count(x) > h { end turn }\n}\n";
    let uri = "file:///tmp/ludic-lsp-test/s.game";
    c.open(uri, text);
    let p = |word: &str, nth: usize| {
        let mut v = at(text, word, nth);
        v["textDocument"]["uri"] = json!(uri);
        v["context"] = json!({"includeDeclaration": false});
        v
    };
    let refs = |c: &mut Client, word: &str, nth: usize| -> Vec<Value> {
        let r = c.ask("textDocument/references", p(word, nth));
        r.as_array()
            .unwrap()
            .iter()
            .map(|l| l["range"]["start"].clone())
            .collect()
    };
    // the `h` of f is used once, in f only; the turn's `h` once, in the `choose`
    assert_eq!(
        refs(&mut c, "h) = count(h) + 1", 0),
        [pos(text, "h) + 1", 0)]
    );
    assert_eq!(refs(&mut c, "h = 2", 0), [pos(text, "h {", 0)]);
    // a region: its uses, and a site of a row's range goes to the row
    assert_eq!(refs(&mut c, "goal =", 0), [pos(text, "goal and", 0)]);
    let mut h = p("goal and", 0);
    h.as_object_mut().unwrap().remove("context");
    let h = hover_text(&mut c, h);
    assert!(h.contains("sites: s1 s3"), "{h}");
    let mut d = p("s3", 0);
    d.as_object_mut().unwrap().remove("context");
    let def = c.ask("textDocument/definition", d);
    assert_eq!(def["range"]["start"]["line"], 4, "{def}");
    c.stop();
}

#[test]
fn nothing_a_client_sends_breaks_the_server() {
    let mut c = Client::start();
    // before `initialize`: an error, not a crash
    let r = c.call("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32002, "{r}");
    c.initialize();
    // not JSON, not JSON-RPC: a parse error, and the server goes on
    c.write_raw(b"{not json");
    let r = c.wait_for(|m| m["error"]["code"] == -32700);
    assert!(r["id"].is_null(), "{r}");
    c.write_raw(b"[1, 2, 3]");
    c.wait_for(|m| m["error"]["code"] == -32700);
    // an unknown method, parameters of the wrong shape, a document never opened
    assert_eq!(c.call("no/such", json!({}))["error"]["code"], -32601);
    assert_eq!(
        c.call("textDocument/hover", json!({"x": 1}))["error"]["code"],
        -32602
    );
    let r = c.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nope"}, "position": {"line": 0, "character": 0}}),
    );
    assert!(r.get("error").is_some(), "{r}");
    // an unknown notification is ignored
    c.notify("$/whatever", json!([1]));
    // positions out of range, UTF-16 columns on non-ASCII text
    let text = "# é𝄞 ünïcödé\ngame \"Ü\" { summary \"𝄞\" }\nsides A B\nlimit 9 turns\nboard { row s[1..2] at y 0 }\n\
                pieces { seed }\noption n = 1 in 1..3 \"é𝄞 ü\"  def free(h) = count(h) + n # 𝄞\n\
                turn { choose sow x in s1 s2 where free(x) > 0 { end turn } }\n";
    let uri = "file:///tmp/ludic-lsp-test/u.game";
    assert_eq!(c.open(uri, text), json!([]));
    for (line, character) in [
        (0, 99),
        (99, 0),
        (6, 1000),
        (0, 3),
        (0, 4),
        (7, 4_000_000_000u64),
    ] {
        for m in [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/completion",
            "textDocument/prepareRename",
        ] {
            let p = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
            let r = c.call(m, p);
            assert!(r.get("error").is_none(), "{m} {line}:{character}: {r}");
        }
    }
    // names after non-ASCII text on their line: their columns in UTF-16 units
    let here = |p: Value| json!({"textDocument": {"uri": uri}, "position": p});
    let h = c.ask("textDocument/hover", here(pos(text, "n # ", 0)));
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("option n"),
        "{h}"
    );
    assert_eq!(h["range"]["start"], pos(text, "n # ", 0), "{h}");
    let d = c.ask("textDocument/definition", here(pos(text, "h) +", 0)));
    assert_eq!(d["range"]["start"], pos(text, "h) =", 0), "{d}");
    // a document that changes to garbage, and back
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "}{\u{0}\"\"\"#"}]}));
    let m = c.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
    assert!(
        !m["params"]["diagnostics"].as_array().unwrap().is_empty(),
        "{m}"
    );
    let r = c.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(r.get("error").is_none(), "{r}");
    assert_eq!(c.stop().0, Some(0));

    // `exit` without `shutdown`: exit code 1; a broken header or an endless length: the
    // server stops, without a panic
    let mut c = Client::start();
    c.initialize();
    c.notify("exit", Value::Null);
    assert_eq!(c.finish().0, Some(1));
    let mut c = Client::start();
    c.stdin
        .as_mut()
        .unwrap()
        .write_all(b"Content-Length: 99999999999999999999\r\n\r\n")
        .unwrap();
    assert_eq!(c.finish().0, Some(1));
    let mut c = Client::start();
    c.stdin
        .as_mut()
        .unwrap()
        .write_all(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")
        .unwrap();
    assert_eq!(c.finish().0, Some(1));
}

/// The responses on the largest shipped game, timed (`cargo test --release --test lsp --
/// --ignored --nocapture`): each kind of request 50 times, its median and its slowest.
#[test]
#[ignore]
fn speed_on_the_largest_game() {
    let (path, text) = std::fs::read_dir("games")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap()))
        .max_by_key(|(_, t)| t.len())
        .unwrap();
    let mut c = Client::start();
    c.initialize();
    let uri = "file:///tmp/ludic-lsp-test/big.game";
    let word = text
        .lines()
        .find_map(|l| l.strip_prefix("def "))
        .and_then(|l| {
            l.split(|ch: char| !ch.is_alphanumeric() && ch != '_')
                .next()
        })
        .unwrap()
        .to_string();
    let p = {
        let mut v = at(&text, &word, 1);
        v["textDocument"]["uri"] = json!(uri);
        v
    };
    let mut times: Vec<(&str, Vec<f64>)> = vec![];
    let mut time = |name: &'static str, c: &mut Client, f: &dyn Fn(&mut Client, i32)| {
        let mut t = vec![];
        for i in 0..50 {
            let start = Instant::now();
            f(c, i);
            t.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        t.sort_by(f64::total_cmp);
        times.push((name, t));
    };
    let body = text.clone();
    time("didChange -> diagnostics", &mut c, &|c, i| {
        c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [{"text": format!("{body}\n# {i}")}]}));
        c.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
    });
    c.open(uri, &text);
    for m in [
        "hover",
        "definition",
        "completion",
        "documentSymbol",
        "references",
    ] {
        let mut params = p.clone();
        if m == "references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        let method = format!("textDocument/{m}");
        time(
            Box::leak(m.to_string().into_boxed_str()),
            &mut c,
            &|c, i| {
                // (a change first, so that the answer includes the analysis of the new text)
                if i % 2 == 0 {
                    c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": i + 100}, "contentChanges": [{"text": format!("{body}\n# {i}")}]}));
                }
                c.ask(&method, params.clone());
            },
        );
    }
    println!("{} ({} bytes), `{word}`:", path.display(), text.len());
    for (name, t) in &times {
        println!(
            "  {name:28} median {:6.2} ms   slowest {:6.2} ms",
            t[t.len() / 2],
            t[t.len() - 1]
        );
    }
    c.stop();
    for (name, t) in &times {
        assert!(t[t.len() / 2] < 50.0, "{name}: {t:?}");
    }
}

#[test]
fn neovim_as_a_client() {
    let have = || {
        Command::new("nvim")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let setup = if have() {
        Ok(())
    } else {
        pyenv::apt_install(&["neovim"]).and_then(|()| {
            have()
                .then_some(())
                .ok_or_else(|| "nvim is not on the PATH after installing it".to_string())
        })
    };
    if let Err(e) = setup {
        if pyenv::ci() {
            panic!("Neovim could not be set up: {e}");
        }
        eprintln!("SKIPPED: the Neovim test needs Neovim: {e}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("ludic-lsp-nvim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("bad.game");
    let bad = puluc().replace("throw grains as v", "throw grainz as v");
    std::fs::write(&game, &bad).unwrap();
    let out = dir.join("out.txt");
    let mut child = Command::new("nvim")
        .args([
            "--headless",
            "--clean",
            "-c",
            "luafile tests/lsp/client.lua",
        ])
        .env("LUDIC_BIN", BIN)
        .env("LUDIC_GAME", &game)
        .env("LUDIC_OUT", &out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("nvim starts");
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let report = std::fs::read_to_string(&out).expect("the script's report");
    let _ = std::fs::remove_dir_all(&dir);
    let get = |k: &str| -> Vec<&str> {
        report
            .lines()
            .filter_map(|l| l.strip_prefix(k)?.strip_prefix('='))
            .collect()
    };
    assert!(get("error").is_empty(), "{report}");
    let line = bad.lines().position(|l| l.contains("grainz")).unwrap() + 1;
    let first = get("diagnostic");
    assert!(
        first
            .first()
            .is_some_and(|d| d.starts_with(&format!("{line}:1:")) && d.contains("grainz")),
        "{report}"
    );
    assert!(get("hover")[0].contains("def controls(s)"), "{report}");
    assert!(get("keyword")[0].contains("chance event"), "{report}");
    let def_line = bad
        .lines()
        .position(|l| l.starts_with("def controls"))
        .unwrap()
        + 1;
    assert!(
        get("jump")[0].starts_with(&format!("{def_line}:def controls")),
        "{report}"
    );
    let completion: Vec<&str> = get("completion")[0].split(' ').collect();
    for w in ["controls", "count", "choose"] {
        assert!(completion.contains(&w), "{w}: {report}");
    }
}

#[test]
fn a_game_built_on_another_is_checked_with_its_base() {
    let mut c = Client::start();
    c.initialize();
    let dir = std::fs::canonicalize("tests/fixtures/derived").unwrap();
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let text = std::fs::read_to_string(dir.join("seven-holes.game")).unwrap();
    assert_eq!(c.open(&uri("seven-holes.game"), &text), json!([]));
    let (syms, names) = symbols(&mut c, &uri("seven-holes.game"));
    // the document's own declarations, at their lines in it (the base's are in the base)
    assert!(names.iter().any(|m| m == "holes"), "{names:?}");
    let holes = syms
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "holes")
        .unwrap();
    let line = text
        .lines()
        .position(|l| l.starts_with("option holes"))
        .unwrap();
    assert_eq!(holes["selectionRange"]["start"]["line"], line, "{holes}");
    // an error of the document at its line; a base that does not exist said at the start
    let bad = format!("{text}require nope > 1 \"never\"\n");
    let diags = c.open(&uri("broken.game"), &bad);
    assert_eq!(
        diags[0]["range"]["start"]["line"],
        bad.lines().count() - 1,
        "{diags}"
    );
    let lost = std::fs::read_to_string(dir.join("missing-base.game")).unwrap();
    let diags = c.open(&uri("missing-base.game"), &lost);
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("no-such-base"),
        "{diags}"
    );
    c.stop();
}

/// Every shipped game and every fixture: each symbol's name is written where its name span
/// says, each use writes the name (a site of a row's range: the prefix and a number), and every
/// offset of the text answers `symbol_at`, `visible_at` and a word's doc without a panic.
#[test]
fn the_outline_of_every_game_and_fixture_points_at_its_names() {
    let mut files: Vec<std::path::PathBuf> = vec![];
    let mut dirs = vec![std::path::PathBuf::from("games"), "tests/fixtures".into()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "game") {
                files.push(p);
            }
        }
    }
    let mut outlined = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(o) = ludic::outline(&text) else {
            continue;
        };
        outlined += 1;
        for s in &o.symbols {
            let written = &text[s.name_span.clone()];
            match s.kind {
                ludic::SymbolKind::Ring => assert_eq!(written, "ring", "{}", f.display()),
                ludic::SymbolKind::Track => assert_eq!(written, "track", "{}", f.display()),
                _ => assert_eq!(written, s.name, "{}: {s:?}", f.display()),
            }
            for r in &s.references {
                let used = &text[r.clone()];
                let site = s.kind == ludic::SymbolKind::Site
                    && used
                        .strip_prefix(s.name.as_str())
                        .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()));
                assert!(used == s.name || site, "{}: `{used}` as {s:?}", f.display());
            }
        }
        for at in 0..=text.len() {
            let _ = o.symbol_at(at);
            let _ = o.visible_at(at).count();
        }
    }
    assert!(
        outlined > 20,
        "{outlined} files outlined of {}",
        files.len()
    );
}

/// Every request at every position of a game (and past its ends) is answered, never an error.
#[test]
fn every_position_of_a_game_is_answered() {
    let mut c = Client::start();
    c.initialize();
    let text = puluc();
    c.open(URI, &text);
    let lines: Vec<&str> = text.split('\n').collect();
    for (line, l) in lines.iter().enumerate() {
        for character in (0..=l.len() + 1).step_by(2) {
            let p = json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character},
                           "context": {"includeDeclaration": true}});
            for m in ["hover", "definition", "references", "prepareRename"] {
                let r = c.call(&format!("textDocument/{m}"), p.clone());
                assert!(r.get("error").is_none(), "{m} {line}:{character}: {r}");
            }
        }
    }
    c.stop();
}

/// Words of the language used as names (soft keywords): a def `total`, a region `row`, a let
/// `value` are found, hovered and renamed as names.
#[test]
fn soft_keywords_are_names() {
    let mut c = Client::start();
    c.initialize();
    let text = "game \"K\" {}\nsides A B\nlimit 9 turns\nboard {\n  row s[1..3] at y 0\n  region row = s1 s3\n}\n\
                pieces { seed }\ndef total(p) = count(row) + p\n\
                turn {\n  let value = total(1)\n  choose sow x where x in row and count(x) > value { end turn }\n}\n";
    let uri = "file:///tmp/ludic-lsp-test/k.game";
    assert_eq!(c.open(uri, text), json!([]));
    let here = |p: Value| json!({"textDocument": {"uri": uri}, "position": p});
    let h = hover_text(&mut c, here(pos(text, "total(1)", 0)));
    assert!(h.contains("def total(p)"), "{h}");
    let d = c.ask("textDocument/definition", here(pos(text, "value {", 0)));
    assert_eq!(d["range"]["start"], pos(text, "value =", 0), "{d}");
    let mut p = here(pos(text, "row and", 0));
    p["newName"] = json!("ends");
    let edit = c.ask("textDocument/rename", p);
    let starts: Vec<&Value> = edit["changes"][uri]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["range"]["start"])
        .collect();
    let want = [
        pos(text, "row =", 0),
        pos(text, "row) +", 0),
        pos(text, "row and", 0),
    ];
    assert_eq!(starts, want.iter().collect::<Vec<_>>(), "{edit}");
    c.stop();
}

#[test]
fn formatting_is_ludic_fmt() {
    let mut c = Client::start();
    c.initialize();
    let uri = "file:///tmp/ludic-lsp-test/f.game";
    let messy = "sides South North\nturn {\n      end turn   # done\n}\n";
    c.open(uri, messy);
    let doc =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
    let edits = c.ask("textDocument/formatting", doc.clone());
    let edits = edits.as_array().expect("edits");
    assert_eq!(edits.len(), 1, "{edits:?}");
    assert_eq!(edits[0]["newText"], json!(ludic::format(messy).unwrap()));
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(edits[0]["range"]["end"], json!({"line": 4, "character": 0}));
    // a formatted text: no edit; a text that does not parse: none either (its errors are shown)
    let uri2 = "file:///tmp/ludic-lsp-test/g.game";
    c.open(uri2, &ludic::format(messy).unwrap());
    let mut d2 = doc.clone();
    d2["textDocument"]["uri"] = json!(uri2);
    assert_eq!(c.ask("textDocument/formatting", d2), json!([]));
    let uri3 = "file:///tmp/ludic-lsp-test/h.game";
    c.open(uri3, "turn {");
    let mut d3 = doc;
    d3["textDocument"]["uri"] = json!(uri3);
    assert_eq!(c.ask("textDocument/formatting", d3), Value::Null);
    c.stop();
}
