//! Fuzzing, on stable Rust, inside `cargo test` (issue 12): mutated `.game` files, game
//! records and typed input lines, each run under `catch_unwind` and a time budget.
//!
//! - `.game` files: every file of `games/` and `tests/fixtures/`, mutated token by token:
//!   deletions, duplications, splices of lines from other files, numbers replaced by 0, -1 and
//!   extremes, deep nesting, long names, bytes that are not UTF-8. Each is loaded with
//!   `ludic::load_game`; when it loads, its board and state are drawn, a few random playouts are
//!   played (at most `MAX_DECISIONS` decisions each), typed lines are read at some positions,
//!   and a short perft is counted when the game has no chance events.
//! - Records: records of random games of the built-in games, and those of `tests/fixtures/`,
//!   mutated (steps changed, duplicated, reordered, cut; another game, options or source hash;
//!   the result or any field edited; the JSON itself cut), then read and replayed with
//!   `ludic::record::replay` and through a `Timeline` as `replay` and `draw --record` do: an
//!   error or a replay, never a panic or a hang.
//! - Typed input: random lines (legal notations bent, numbers, long words) through
//!   `Game::parse_decision`; a decision read must be legal.
//! - The command line's inputs that are library calls, from a stream of their own (so that
//!   the games and records above stay those of earlier runs): agent specs through
//!   `AgentSpec::parse` (one that reads and searches little then chooses a decision at a
//!   position of a built-in game, which must be legal); `--shard` strings through
//!   `parse_shard` (the blocks of all the shards must cover the games once); and shards'
//!   results (of `simulate` and `compare`, made by a few small runs of the program at the
//!   start) left out, given twice, mixed and edited, through `read_shard` and `merge` or
//!   `merge_columns`, the merge written in each format (a merge holds at most `-n` games and
//!   is partial exactly when it lacks some).
//!
//! Each input runs in a worker process (this same program), so that a hang is stopped at its
//! budget and a stack overflow is seen, not fatal; its stage (loading, playing, perft…) says
//! whose it is. Each input's memory is watched: this program's allocator counts the heap in
//! use (its peak is reset when an input starts) and stops a worker the moment it passes the
//! cap, and the kernel's peak of the worker's resident set (VmHWM, reset through
//! `/proc/self/clear_refs`) is read after each input; an input over the cap (1 GiB, or
//! `LUDIC_FUZZ_MEMORY_MB`) fails like one over its time budget. A failing input is saved under
//! `target/tmp/fuzz/` with what happened, and so are the inputs of the largest peaks. Before
//! the run, a built-in game under a tiny cap must fail, so that a cap that does not work is
//! seen.
//!
//! `cargo test` runs a quick, deterministic run. A long run:
//! `LUDIC_FUZZ_SECONDS=3600 cargo test --release --test fuzz -- --ignored` (also
//! `LUDIC_FUZZ_SEED`, `LUDIC_FUZZ_BUDGET_MS`, `LUDIC_FUZZ_MEMORY_MB`). Its summary gives the
//! inputs by kind, the panics, hangs and inputs over the cap, the CPU time used and the
//! largest peaks of memory with their inputs.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::panic::AssertUnwindSafe;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Inputs under `tests/fixtures/fuzz/` that hang or overflow in the engine (issue 12, items 4
/// to 6), skipped until the engine bounds its work: the engine's developer empties this list.
/// Every other file of that folder is run on each fuzz run, as a regression test.
const KNOWN_ENGINE_HANGS: &[&str] = &[];

/// Inputs of the quick run (fewer in a debug build, which is many times slower).
const QUICK_INPUTS: usize = if cfg!(debug_assertions) { 300 } else { 2400 };
/// The CPU time an input may take (loading, playing, perft): more is a failure.
const BUDGET: Duration = Duration::from_secs(if cfg!(debug_assertions) { 40 } else { 5 });
/// Decisions in one random playout.
const MAX_DECISIONS: usize = 1500;
/// Random playouts of a mutated game that loads.
const PLAYOUTS: usize = 3;
/// Positions and work a perft of the harness may take (the command's defaults are larger).
const PERFT_POSITIONS: u64 = 1_000_000;
const PERFT_WORK: u64 = ludic::WORK_LIMIT;

// ---------------------------------------------------------------------------- random numbers

/// A small deterministic generator (xorshift64*), so that a run is the same on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------- tokens

/// A `.game` file as tokens: blanks, comments, strings, words, numbers and punctuation, so
/// that mutations keep (or break on purpose) the shape of the language.
fn tokens(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
        } else if c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"\"\"\"") {
            i += 3;
            while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
                i += 1;
            }
            i = (i + 3).min(b.len());
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else if [&b".."[..], b"==", b"!=", b"<=", b">="]
            .iter()
            .any(|p| b[i..].starts_with(p))
        {
            i += 2;
        } else {
            i += 1;
            while i < b.len() && !src.is_char_boundary(i) {
                i += 1;
            }
        }
        out.push(src[start..i].to_string());
    }
    out
}

fn is_word(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

fn is_number(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_digit())
}

fn is_blank(t: &str) -> bool {
    t.starts_with(|c: char| c.is_whitespace()) || t.starts_with('#')
}

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "7",
    "255",
    "256",
    "1000",
    "4095",
    "4096",
    "4097",
    "65535",
    "65536",
    "1000000",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
];

const WORDS: &[&str] = &[
    "if",
    "else",
    "while",
    "choose",
    "again",
    "end",
    "turn",
    "round",
    "game",
    "sow",
    "relay",
    "capture",
    "place",
    "let",
    "set",
    "for",
    "do",
    "throw",
    "move",
    "carry",
    "send",
    "give",
    "first",
    "where",
    "in",
    "not",
    "and",
    "or",
    "exists",
    "forall",
    "some",
    "total",
    "minimum",
    "maximum",
    "true",
    "false",
    "all",
    "none",
    "mover",
    "opponent",
    "count",
    "next",
    "opposite",
    "size",
    "run",
    "neighbours",
    "jumps",
    "token",
    "tokens",
    "value",
    "between",
    "rounds",
    "players",
    "per",
    "side",
    "tally",
    "x",
    "y",
    "kind",
    "owner",
    "hole",
    "store",
    "point",
    "void",
];

const PUNCT: &[&str] = &[
    "(", ")", "{", "}", "[", "]", ",", ":", "=", "..", "+", "-", "*", "/", "%", "<", ">", "==",
    "!=", "\"", "\n",
];

/// One mutated `.game` file: some text, or bytes that are not UTF-8. Most start from a file
/// that loads (`valid`), the others from any seed (the error fixtures are seeds too).
fn mutate_game(rng: &mut Rng, seeds: &[String], valid: &[String]) -> Vec<u8> {
    let base = if rng.chance(85) && !valid.is_empty() {
        rng.pick(valid)
    } else {
        rng.pick(seeds)
    };
    let mut t = tokens(base);
    // gentle: one change that often leaves a game that loads, so that the engine is played
    let gentle = rng.chance(45);
    let most = if rng.chance(20) { 8 } else { 3 };
    let rounds = if gentle { 1 } else { 1 + rng.below(most) };
    for _ in 0..rounds {
        if t.is_empty() {
            t.push(rng.pick(WORDS).to_string());
        }
        let n = t.len();
        let at = rng.below(n);
        let op = if gentle {
            *rng.pick(&[0, 1, 5, 6, 6, 12, 13])
        } else {
            rng.below(16)
        };
        match op {
            // delete a token, or a run of them
            0 => {
                let len = if rng.chance(70) { 1 } else { 1 + rng.below(12) };
                t.drain(at..(at + len).min(n));
            }
            // duplicate a token, or a run of them
            1 => {
                let len = if rng.chance(60) { 1 } else { 1 + rng.below(30) };
                let run: Vec<String> = t[at..(at + len).min(n)].to_vec();
                t.splice(at..at, run);
            }
            // swap two tokens
            2 => {
                let other = rng.below(n);
                t.swap(at, other);
            }
            // a token of another file
            3 => {
                let other = tokens(rng.pick(seeds).as_str());
                if !other.is_empty() {
                    t[at] = rng.pick(&other).clone();
                }
            }
            // lines of another file in place of some of this one's
            4 => {
                let mut lines: Vec<String> = t.concat().lines().map(str::to_string).collect();
                let other: Vec<&str> = rng.pick(seeds).lines().collect();
                if !lines.is_empty() && !other.is_empty() {
                    let a = rng.below(lines.len());
                    let len = rng.below(6).min(lines.len() - a);
                    let b = rng.below(other.len());
                    let take = (1 + rng.below(6)).min(other.len() - b);
                    let new: Vec<String> =
                        other[b..b + take].iter().map(|s| s.to_string()).collect();
                    lines.splice(a..a + len, new);
                }
                t = tokens(&(lines.join("\n") + "\n"));
            }
            // a number replaced by 0, -1 or an extreme
            5 | 6 => {
                let nums: Vec<usize> = (0..n).filter(|&i| is_number(&t[i])).collect();
                let i = if nums.is_empty() {
                    at
                } else {
                    *rng.pick(&nums)
                };
                t[i] = rng.pick(NUMBERS).to_string();
            }
            // a word of the language, or punctuation, inserted
            7 => {
                let w = if rng.chance(60) {
                    rng.pick(WORDS)
                } else {
                    rng.pick(PUNCT)
                };
                t.insert(at, format!(" {w} "));
            }
            // deep nesting around a word or number
            8 => {
                let targets: Vec<usize> = (0..n)
                    .filter(|&i| is_word(&t[i]) || is_number(&t[i]))
                    .collect();
                let i = if targets.is_empty() {
                    at
                } else {
                    *rng.pick(&targets)
                };
                let depth = *rng.pick(&[2, 20, 100, 255, 256, 300, 3000]);
                let (open, close) = match rng.below(5) {
                    0 => ("(".repeat(depth), ")".repeat(depth)),
                    1 => ("not ".repeat(depth), String::new()),
                    2 => ("min(1, ".repeat(depth), ")".repeat(depth)),
                    3 => ("- ".repeat(depth), String::new()),
                    _ => ("if true then ".repeat(depth), " else 0".repeat(depth)),
                };
                t[i] = format!("{open}{}{close}", t[i]);
            }
            // nested blocks, at a line start inside one
            9 => {
                let depth = *rng.pick(&[2, 50, 255, 256, 1000]);
                let starts: Vec<usize> = (1..n).filter(|&i| t[i - 1].contains('\n')).collect();
                let i = if starts.is_empty() {
                    at
                } else {
                    *rng.pick(&starts)
                };
                let (open, close) = match rng.below(3) {
                    0 => ("if true { ".repeat(depth), "} ".repeat(depth)),
                    1 => ("while false { ".repeat(depth), "} ".repeat(depth)),
                    _ => ("{ ".repeat(depth), String::new()),
                };
                t.insert(i, open);
                let j = (i + 1 + rng.below(8)).min(t.len());
                t.insert(j, close);
            }
            // a long name (one occurrence, or every occurrence of a name)
            10 => {
                let words: Vec<usize> = (0..n).filter(|&i| is_word(&t[i])).collect();
                if let Some(&i) = words.get(rng.below(words.len().max(1))) {
                    let len = *rng.pick(&[63, 64, 65, 200, 70_000]);
                    let long = format!("n{}", "x".repeat(len - 1));
                    if rng.chance(50) {
                        let old = t[i].clone();
                        for x in t.iter_mut().filter(|x| **x == old) {
                            *x = long.clone();
                        }
                    } else {
                        t[i] = long;
                    }
                }
            }
            // a word changed into another word of the file
            11 => {
                let words: Vec<usize> = (0..n).filter(|&i| is_word(&t[i])).collect();
                if words.len() >= 2 {
                    let a = *rng.pick(&words);
                    let b = *rng.pick(&words);
                    t[a] = t[b].clone();
                }
            }
            // a blank removed, gluing two tokens
            12 => {
                let blanks: Vec<usize> = (0..n).filter(|&i| is_blank(&t[i])).collect();
                if let Some(&i) = blanks.get(rng.below(blanks.len().max(1))) {
                    t.remove(i);
                }
            }
            // a line duplicated (an alternative, a declaration, a statement)
            13 => {
                let mut lines: Vec<String> = t.concat().lines().map(str::to_string).collect();
                if !lines.is_empty() {
                    let a = rng.below(lines.len());
                    let copies = *rng.pick(&[1, 1, 2, 50]);
                    for _ in 0..copies {
                        let l = lines[a].clone();
                        lines.insert(a, l);
                    }
                }
                t = tokens(&(lines.join("\n") + "\n"));
            }
            // the file cut
            14 => t.truncate(at),
            // a word's letters changed
            _ => {
                let words: Vec<usize> = (0..n).filter(|&i| is_word(&t[i])).collect();
                if let Some(&i) = words.get(rng.below(words.len().max(1))) {
                    let mut w: Vec<char> = t[i].chars().collect();
                    let k = rng.below(w.len());
                    w[k] = *rng.pick(&['a', 'z', '_', '0', '9', 'S', 'é']);
                    t[i] = w.into_iter().collect();
                }
            }
        }
    }
    let mut bytes = t.concat().into_bytes();
    if rng.chance(3) {
        // bytes that are not UTF-8 (or a byte-order mark, or a NUL)
        let bad: &[&[u8]] = &[
            b"\xff",
            b"\xc3",
            b"\xe2\x82",
            b"\xef\xbb\xbf",
            b"\0",
            b"\xed\xa0\x80",
        ];
        let at = rng.below(bytes.len() + 1);
        let ins = *rng.pick(bad);
        bytes.splice(at..at, ins.iter().copied());
    }
    bytes
}

/// One mutated record (JSON text).
fn mutate_record(rng: &mut Rng, records: &[String], seeds: &[String]) -> Vec<u8> {
    let base = rng.pick(records);
    let mut v: serde_json::Value = serde_json::from_str(base).expect("a seed record");
    for _ in 0..1 + rng.below(3) {
        let steps = v["steps"].as_array().map(|s| s.len()).unwrap_or(0);
        match rng.below(16) {
            0 if steps > 0 => {
                let i = rng.below(steps);
                v["steps"].as_array_mut().unwrap().remove(i);
            }
            1 if steps > 0 => {
                let i = rng.below(steps);
                let s = v["steps"][i].clone();
                v["steps"].as_array_mut().unwrap().insert(i, s);
            }
            2 if steps > 1 => {
                let (i, j) = (rng.below(steps), rng.below(steps));
                v["steps"].as_array_mut().unwrap().swap(i, j);
            }
            3 if steps > 0 => {
                let i = rng.below(steps);
                let text = match rng.below(6) {
                    0 => "x".repeat(1 << 16),
                    1 => rng.pick(WORDS).to_string(),
                    2 => rng.pick(NUMBERS).to_string(),
                    3 => String::new(),
                    4 => "sow  S1 ".into(),
                    _ => "é\u{0}\u{202e}".into(),
                };
                let key = if v["steps"][i]["type"] == "chance" {
                    "outcome"
                } else {
                    "notation"
                };
                v["steps"][i][key] = text.into();
            }
            4 if steps > 0 => {
                let i = rng.below(steps);
                v["steps"][i]["player"] = (*rng.pick(&["North", "South", "", "Nobody"])).into();
            }
            5 => {
                let keys = [
                    "seeds",
                    "holes",
                    "stones",
                    "max_turns",
                    "team_size",
                    "rounds",
                    "nonsense",
                ];
                let k = *rng.pick(&keys);
                v["options"][k] = (*rng.pick(NUMBERS)).into();
            }
            6 => v["format"] = (*rng.pick(&[0, 1, 2, 99])).into(),
            7 => {
                let games = [
                    "pallankuzhi",
                    "puluc",
                    "ceelkoqyuqkoqiji",
                    "kuilichi-chanakua",
                    "tuknanavuhpi",
                    "nowhere",
                ];
                v["game"] = (*rng.pick(&games)).into();
            }
            8 => v["result"] = serde_json::json!({"winner": "South", "reason": "rules"}),
            9 => {
                if let Some(o) = v["options"].as_object_mut() {
                    o.clear();
                }
            }
            10 => v["steps"] = serde_json::json!([]),
            // the steps cut after some step (a game stopped, a record cut short)
            12 if steps > 0 => {
                let k = rng.below(steps);
                v["steps"].as_array_mut().unwrap().truncate(k);
            }
            // a wrong source hash: another game's, empty, or garbage
            13 => {
                let other = rng.pick(ludic::builtin::GAMES).1;
                v["source_hash"] = match rng.below(4) {
                    0 => ludic::source_hash(other),
                    1 => String::new(),
                    2 => "0".repeat(64),
                    _ => "é\u{0}".repeat(40),
                }
                .into();
            }
            // the result edited: one of its fields (whatever they are) changed or removed
            14 => {
                if let Some(r) = v["result"].as_object_mut()
                    && !r.is_empty()
                    && rng.chance(80)
                {
                    let keys: Vec<String> = r.keys().cloned().collect();
                    let k = rng.pick(&keys).clone();
                    if rng.chance(25) {
                        r.remove(&k);
                    } else {
                        r.insert(k, random_json(rng));
                    }
                } else {
                    v["result"] = random_json(rng);
                }
            }
            // any field of the record (those to come too) given a value of another kind
            15 => {
                if let Some(o) = v.as_object_mut() {
                    let keys: Vec<String> = o.keys().cloned().collect();
                    let k = rng.pick(&keys).clone();
                    o.insert(k, random_json(rng));
                }
            }
            _ => v["seed"] = serde_json::json!(u64::MAX),
        }
    }
    let mut bytes = serde_json::to_string(&v).unwrap().into_bytes();
    if rng.chance(15) {
        // break the JSON itself: cut it (anywhere, even inside a character), or splice a
        // .game file's text in
        let cut = rng.below(bytes.len());
        bytes.truncate(cut);
        if rng.chance(30) {
            let seed = rng.pick(seeds).as_bytes();
            let n = rng.below(40).min(seed.len());
            bytes.extend_from_slice(&seed[..n]);
        }
    }
    if rng.chance(5) {
        bytes.splice(0..0, b"\xef\xbb\xbf".iter().copied());
    }
    bytes
}

/// A JSON value of some kind: extreme numbers, strings, empty or odd containers.
fn random_json(rng: &mut Rng) -> serde_json::Value {
    use serde_json::json;
    match rng.below(14) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(i64::MIN),
        4 => json!(1e308),
        5 => json!(0.5),
        6 => json!("340282366920938463463374607431768211455"),
        7 => json!(""),
        8 => json!(rng.pick(WORDS)),
        9 => serde_json::Value::Null,
        10 => json!(true),
        11 => json!([]),
        12 => json!({}),
        _ => json!([[0, 0], [5, 2]]),
    }
}

/// Every node of a JSON value, as JSON pointers.
fn json_pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                json_pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                json_pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// One node of a JSON value edited: a number a little off (the edits a check must see), a
/// value of another kind, or the node removed.
fn mutate_json(rng: &mut Rng, v: &mut serde_json::Value) {
    let mut pointers = vec![];
    json_pointers(v, String::new(), &mut pointers);
    let p = rng.pick(&pointers).clone();
    if p.is_empty() {
        return;
    }
    if rng.chance(15) {
        let (parent, last) = p.rsplit_once('/').unwrap_or(("", ""));
        match v.pointer_mut(parent) {
            Some(serde_json::Value::Object(o)) => {
                o.remove(&last.replace("~1", "/").replace("~0", "~"));
            }
            Some(serde_json::Value::Array(a)) => {
                if let Ok(i) = last.parse::<usize>()
                    && i < a.len()
                {
                    a.remove(i);
                }
            }
            _ => {}
        }
        return;
    }
    let Some(node) = v.pointer_mut(&p) else {
        return;
    };
    *node = match (node.as_u64(), rng.below(5)) {
        (Some(n), 0) => serde_json::json!(n + 1),
        (Some(n), 1) => serde_json::json!(n.saturating_sub(1)),
        (Some(n), 2) => serde_json::json!(n.saturating_mul(2)),
        (Some(_), 3) => serde_json::json!(u64::MAX),
        _ => random_json(rng),
    };
}

/// Agent specs, as `--agent` takes them: the seeds of the agent inputs.
const AGENT_SPECS: &[&str] = &[
    "random",
    "human",
    "mcts",
    "mcts:playouts=50",
    "mcts:time=5ms",
    "mcts:playouts=20,c=1.4",
    "mcts:threads=2,playouts=40",
    "mcts:c=0,playouts=30",
    "mcts:playouts=1",
    "Mcts: Playouts = 25 , C = 100",
    "mcts:j=3,playouts=60,c=0.3",
    "random:c=1",
    "mcts:time=1s,time=5s",
    "mcts:time=1s,playouts=100",
];

const SETTING_KEYS: &[&str] = &[
    "time", "playouts", "c", "threads", "j", "TIME", "Playouts", "depth", "", " c ",
];

const SETTING_VALUES: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "40",
    "1e308",
    "NaN",
    "inf",
    "-0",
    "0.0001",
    "5s",
    "5ms",
    "500ms",
    "2m",
    "1ms",
    "0.5ms",
    "1e-9s",
    "-1s",
    "١",
    "18446744073709551616",
    "1_000",
    "",
    " ",
    "=",
    "1024",
    "1025",
    "100",
    "100.0000001",
];

/// One mutated agent spec.
fn mutate_agent(rng: &mut Rng) -> Vec<u8> {
    let mut spec = rng.pick(AGENT_SPECS).to_string();
    // a third as they are or with one change, so that some read and search
    let changes = if rng.chance(35) {
        rng.below(2)
    } else {
        1 + rng.below(3)
    };
    for _ in 0..changes {
        match rng.below(8) {
            // a setting's value replaced
            0 | 1 => {
                let eqs: Vec<usize> = spec.match_indices('=').map(|(i, _)| i).collect();
                if let Some(&at) = eqs.get(rng.below(eqs.len().max(1))) {
                    let end = spec[at..].find(',').map_or(spec.len(), |e| at + e);
                    let value = rng.pick(SETTING_VALUES);
                    spec.replace_range(at + 1..end, value);
                }
            }
            // a setting added (again, perhaps)
            2 | 3 => {
                let sep = if spec.contains(':') { "," } else { ":" };
                spec.push_str(&format!(
                    "{sep}{}={}",
                    rng.pick(SETTING_KEYS),
                    rng.pick(SETTING_VALUES)
                ));
            }
            // a character removed
            4 => {
                let chars: Vec<(usize, char)> = spec.char_indices().collect();
                if let Some(&(i, c)) = chars.get(rng.below(chars.len().max(1))) {
                    spec.replace_range(i..i + c.len_utf8(), "");
                }
            }
            // punctuation or odd characters inserted
            5 => {
                let at = spec
                    .char_indices()
                    .map(|(i, _)| i)
                    .nth(rng.below(spec.chars().count() + 1))
                    .unwrap_or(spec.len());
                let odd = rng.pick(&[":", ",", "=", " ", "\u{0}", "é", "\u{202e}"]);
                spec.insert_str(at, odd);
            }
            // another name
            6 => {
                let rest = spec.split_once(':').map_or("", |(_, r)| r).to_string();
                let name = rng.pick(&["mcts", "MCTS", "random", "human", "", "mcts:mcts"]);
                spec = if rest.is_empty() {
                    name.to_string()
                } else {
                    format!("{name}:{rest}")
                };
            }
            // long
            _ => {
                if rng.chance(50) {
                    spec.push_str(&",playouts=1".repeat(1 + rng.below(2000)));
                } else {
                    spec.push_str(&"x".repeat(5000));
                }
            }
        }
    }
    spec.into_bytes()
}

/// One shard string and a number of games (`SPEC\nGAMES`).
fn mutate_shard(rng: &mut Rng) -> Vec<u8> {
    let specs = [
        "1/2",
        "3/8",
        "8/8",
        "0/8",
        "9/8",
        "1/0",
        "3",
        "a/b",
        "-1/2",
        " 2 / 3 ",
        "18446744073709551615/18446744073709551615",
        "1/18446744073709551615",
        "18446744073709551616/2",
        "1/1",
        "٣/٨",
        "1/2/3",
        "",
        "/",
        "+1/+2",
        "1 /2",
    ];
    let mut spec = rng.pick(&specs).to_string();
    if rng.chance(30) {
        spec = format!("{}/{}", rng.below(600), rng.below(600));
    }
    let games = if rng.chance(50) {
        rng.pick(NUMBERS).to_string()
    } else {
        rng.below(5000).to_string()
    };
    format!("{spec}\n{games}").into_bytes()
}

/// The results of shards of studies and comparisons, as `simulate`/`compare --shard I/N
/// --format json` write them (made by the program, a few small runs), in groups of one study.
fn merge_seeds() -> Vec<Vec<serde_json::Value>> {
    let run = |args: &[&str]| -> serde_json::Value {
        let out = Command::new(env!("CARGO_BIN_EXE_ludic"))
            .args(args)
            .args(["--format", "json"])
            .output()
            .expect("ludic runs");
        assert_eq!(out.status.code(), Some(0), "ludic {args:?}");
        serde_json::from_slice(&out.stdout).expect("a result in JSON")
    };
    let simulate = |extra: &[&str], shards: u32| {
        (1..=shards)
            .map(|i| {
                let shard = format!("{i}/{shards}");
                let mut args = vec!["simulate", "puluc", "-n", "90", "--seed", "3"];
                args.extend(extra);
                args.extend(["--shard", &shard]);
                run(&args)
            })
            .collect::<Vec<_>>()
    };
    let compare = (1..=2)
        .map(|i| {
            let shard = format!("{i}/2");
            run(&[
                "compare",
                "pallankuzhi",
                "--variant",
                "default",
                "--variant",
                "chogi=off",
                "-n",
                "40",
                "--shard",
                &shard,
            ])
        })
        .collect();
    vec![simulate(&[], 3), simulate(&["--quick"], 2), compare]
}

/// One mutated merge: a JSON array of shards' results, some left out, given twice or from
/// another study, and edited.
fn mutate_merge(rng: &mut Rng, groups: &[Vec<serde_json::Value>]) -> Vec<u8> {
    let mut parts = rng.pick(groups).clone();
    match rng.below(6) {
        0 if !parts.is_empty() => {
            let i = rng.below(parts.len());
            parts.remove(i);
        }
        1 if !parts.is_empty() => {
            let i = rng.below(parts.len());
            parts.push(parts[i].clone());
        }
        2 if parts.len() > 1 => {
            let (i, j) = (rng.below(parts.len()), rng.below(parts.len()));
            parts.swap(i, j);
        }
        3 => {
            let other = rng.pick(groups).clone();
            if !other.is_empty() {
                parts.push(rng.pick(&other).clone());
            }
        }
        _ => {}
    }
    for _ in 0..rng.below(4) {
        if !parts.is_empty() {
            let k = rng.below(parts.len());
            mutate_json(rng, &mut parts[k]);
        }
    }
    let mut bytes = serde_json::to_vec(&parts).expect("JSON");
    if rng.chance(8) {
        let cut = rng.below(bytes.len());
        bytes.truncate(cut);
    }
    bytes
}

// ---------------------------------------------------------------------------- seeds

fn game_files() -> Vec<(String, String)> {
    let mut out = vec![];
    let mut dirs = vec![
        std::path::PathBuf::from("games"),
        std::path::PathBuf::from("tests/fixtures"),
    ];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .expect("a folder of seeds")
            .map(|e| e.expect("an entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                // the known engine hangs are not mutated (the others are run as they are)
                if !p.ends_with("fuzz") {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|e| e == "game")
                && let Ok(text) = std::fs::read_to_string(&p)
            {
                out.push((p.display().to_string(), text));
            }
        }
    }
    out.sort();
    out
}

/// Records of random games of the built-in games (deterministic), and the fixtures'.
fn record_seeds() -> Vec<String> {
    use ludic::record::{Record, Step};
    let mut out = vec![];
    let mut rng = Rng::new(7);
    for (name, src) in ludic::builtin::GAMES {
        let g = ludic::load_game(src, &Default::default()).expect("a built-in game");
        for _ in 0..3 {
            let mut st = g.start();
            let mut steps = vec![];
            while !st.is_over() && steps.len() < 400 {
                if st.moves().is_empty() {
                    let outs = g.chance_outcomes(&st);
                    let o = outs[rng.below(outs.len())].0;
                    steps.push(Step::Chance {
                        outcome: g.outcome_name(&st, o),
                    });
                    g.play_chance(&mut st, o).unwrap();
                } else {
                    let d = st.moves()[rng.below(st.moves().len())];
                    steps.push(Step::Decision {
                        player: g.player_name(st.mover()).to_string(),
                        notation: g.notation_of(&st, d),
                    });
                    g.play(&mut st, d).unwrap();
                }
            }
            let rec = Record {
                format: ludic::record::FORMAT,
                game: name.to_string(),
                title: g.title().to_string(),
                source_hash: ludic::source_hash(src),
                options: g.option_values(),
                seed: Some(1),
                agents: Default::default(),
                steps,
                result: st.outcome().map(|o| ludic::render::outcome_json(&g, o)),
                last: None,
            };
            out.push(serde_json::to_string(&rec).unwrap());
        }
    }
    if let Ok(dir) = std::fs::read_dir("tests/fixtures/records") {
        let mut files: Vec<_> = dir.map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            if let Ok(t) = std::fs::read_to_string(f) {
                out.push(t);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------- the worker

/// What a worker reports: the stage it entered, or how an input ended.
fn report(line: &str) {
    let mut out = std::io::stdout().lock();
    if let Some(t) = *TRIAGE_START.lock().unwrap_or_else(|e| e.into_inner()) {
        // triage: stages with the time since the input started
        let _ = writeln!(out, "  {:>8.3} s  {line}", t.elapsed().as_secs_f64());
        return;
    }
    let _ = writeln!(out, "@@{line}");
    let _ = out.flush();
}

/// Runs one stage of an input under `catch_unwind`; a panic is reported with its stage.
fn stage<T>(name: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    report(&format!("stage {name}"));
    std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("panic in {name}: {}", msg.replace('\n', " "))
    })
}

/// Typed lines at a position: every legal notation bent a little, numbers, long words. A
/// decision read must be one of the legal ones.
fn typed_lines(g: &ludic::Game, st: &ludic::State, rng: &mut Rng) {
    let names = g.legal_notations(st);
    let mut lines: Vec<String> = vec![
        String::new(),
        " ".into(),
        "0".into(),
        "-1".into(),
        "18446744073709551616".into(),
        "99999999999999999999999".into(),
        "x".repeat(5000),
        "é".repeat(300),
        "\u{202e}\u{0}".into(),
    ];
    for n in names.iter().take(8) {
        lines.push(n.clone());
        lines.push(n.to_uppercase());
        lines.push(format!("  {}  ", n.replace(' ', "   ")));
        lines.push(n.split_whitespace().last().unwrap_or("").to_string());
        let cut = rng.below(n.len() + 1);
        if n.is_char_boundary(cut) {
            lines.push(n[..cut].to_string());
        }
        lines.push(format!("{n} {n}"));
    }
    lines.push((names.len() + 1).to_string());
    lines.push(names.len().to_string());
    let mut played = false;
    for l in lines {
        if let Ok(d) = g.parse_decision(st, &l) {
            assert!(
                st.moves().contains(&d),
                "`{l}` was read as a decision that is not legal"
            );
            // the first decision read is played on a copy (playing each one would multiply
            // the cost of a position whose turns run long by the number of lines read)
            if !played {
                let mut copy = st.clone();
                g.play(&mut copy, d).expect("a decision read is legal");
                played = true;
            }
        }
    }
}

/// Plays a loaded game: a few random playouts (drawing the board and reading typed lines now
/// and then), and a short perft when the game has no chance events.
fn exercise(g: &ludic::Game, seed: u64) -> Result<(), String> {
    let mut rng = Rng::new(seed);
    // the start is computed once (a start that runs to the work limit takes half a second)
    let start = stage("start position", || g.start())?;
    stage("render", || {
        let _ = ludic::render::board_text(g, &start);
        let _ = ludic::render::state_json(g, &start);
    })?;
    for p in 0..PLAYOUTS {
        stage(&format!("playout {p}"), || {
            let mut st = start.clone();
            for n in 0..MAX_DECISIONS {
                if st.is_over() {
                    break;
                }
                if st.moves().is_empty() {
                    let outs = g.chance_outcomes(&st);
                    if outs.is_empty() {
                        break;
                    }
                    let o = outs[rng.below(outs.len())].0;
                    g.play_chance(&mut st, o).expect("a listed outcome");
                } else {
                    if n % 97 == 0 {
                        typed_lines(g, &st, &mut rng);
                    }
                    let d = st.moves()[rng.below(st.moves().len())];
                    g.play(&mut st, d).expect("a legal decision");
                }
            }
            if p == 0 {
                let _ = ludic::render::board_text(g, &st);
                let _ = ludic::render::state_json(g, &st);
            }
        })?;
    }
    stage("perft", || {
        let st = &start;
        // perft within small limits: the limits' checks are what is exercised, not the count
        let limits = ludic::perft::PerftLimits {
            positions: PERFT_POSITIONS,
            work: PERFT_WORK,
        };
        if g.all_dice().next().is_none()
            && !st.is_over()
            && !st.moves().is_empty()
            && let Ok(n) = ludic::perft::perft_with(g, st, 1, limits)
            && n <= 60
        {
            let _ = ludic::perft::perft_with(g, st, 2, limits);
        }
    })?;
    Ok(())
}

fn run_game_input(bytes: &[u8], seed: u64) -> Result<&'static str, String> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.to_string(),
        Err(_) => {
            // what the commands do with such a file: refuse it, naming the byte
            let path = std::env::temp_dir().join(format!("ludic-fuzz-{}.game", std::process::id()));
            std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
            let read = stage("read", || {
                ludic::gamefile::read_text_file(
                    path.to_str().unwrap_or(""),
                    1 << 20,
                    "a .game file",
                )
            })?;
            let _ = std::fs::remove_file(&path);
            match read {
                Ok(t) => t,
                Err(_) => return Ok("not text"),
            }
        }
    };
    let loaded = stage("load", || ludic::load_game(&text, &Default::default()))?;
    match loaded {
        Ok(g) => {
            exercise(&g, seed)?;
            Ok("loaded")
        }
        Err(ludic::LoadError::File(d)) => {
            stage("diagnostics", || {
                let _ = ludic::diagnostic::render("fuzz.game", &text, &d);
            })?;
            Ok("refused")
        }
        Err(ludic::LoadError::Options(_)) => Ok("refused"),
    }
}

fn run_record_input(bytes: &[u8]) -> Result<&'static str, String> {
    use ludic::record::Record;
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rec: Record = match stage("read record", || serde_json::from_str::<Record>(text))? {
        Ok(r) => r,
        Err(_) => return Ok("not a record"),
    };
    if rec.format != ludic::record::FORMAT {
        return Ok("other format");
    }
    let Some((_, src)) = ludic::builtin::find(&rec.game) else {
        return Ok("unknown game");
    };
    let mut settings = ludic::Settings::default();
    for (k, v) in &rec.options {
        if settings.push_assignment(&format!("{k}={v}")).is_err() {
            return Ok("bad options");
        }
    }
    let g = match stage("load", || ludic::load_game(src, &settings))? {
        Ok(g) => g,
        Err(_) => return Ok("options refused"),
    };
    let _same_rules = rec.source_hash == ludic::source_hash(src);
    let replayed = stage("replay", || ludic::record::replay(&g, &rec.steps))?;
    let st = match replayed {
        Ok(st) => st,
        Err(e) => {
            let _ = e.to_string();
            return Ok("refused");
        }
    };
    // as `replay` and `draw --record` read it: the timeline, a position on it, the result
    let len = rec.steps.len();
    let at = (rec.seed.unwrap_or(0) as usize) % (len + 1);
    let differs = stage("timeline", || {
        let timeline = ludic::record::Timeline::new(&g, rec.steps.clone())
            .expect("a record that replays has a timeline");
        assert_eq!(timeline.len(), len);
        let _ = timeline.at(at);
        let _ = timeline.step(at);
        let last = timeline.at(len);
        let result = last.outcome().map(|o| ludic::render::outcome_json(&g, o));
        rec.result.is_some() && result != rec.result
    })?;
    stage("render", || {
        let _ = ludic::render::state_json(&g, &st);
        let _ = ludic::render::board_text(&g, &st);
    })?;
    Ok(if differs {
        "replayed, another result"
    } else {
        "replayed"
    })
}

/// An agent spec read as `--agent` reads it; one that reads and searches little is asked for
/// a decision at a position of a built-in game, which must be legal.
fn run_agent_input(bytes: &[u8], seed: u64) -> Result<&'static str, String> {
    use ludic::agents::{AgentSpec, Budget};
    let text = String::from_utf8_lossy(bytes);
    let Ok(spec) = stage("agent spec", || AgentSpec::parse(&text, 1))? else {
        return Ok("refused");
    };
    let _ = spec.describe();
    let small = match &spec {
        AgentSpec::Mcts(c) => {
            c.threads <= 4
                && match c.budget {
                    Budget::Playouts(n) => n <= 200,
                    Budget::Time(d) => d <= Duration::from_millis(10),
                }
        }
        // an external program named by a fuzzed spec is never run
        AgentSpec::Command(_) => false,
        _ => true,
    };
    let Some(mut agent) = spec.build().filter(|_| small) else {
        return Ok("read");
    };
    let games = ludic::builtin::GAMES;
    let src = games[seed as usize % games.len()].1;
    stage("agent search", || {
        use rand::SeedableRng;
        let g = ludic::load_game(src, &Default::default()).expect("a built-in game");
        let mut rng = Rng::new(seed);
        let mut st = g.start();
        // a position a few random steps in, at a decision
        let walk = rng.below(30);
        for n in 0..walk + 500 {
            if st.is_over() || (n >= walk && !st.moves().is_empty()) {
                break;
            }
            if st.moves().is_empty() {
                let outs = g.chance_outcomes(&st);
                let o = outs[rng.below(outs.len())].0;
                g.play_chance(&mut st, o).expect("a listed outcome");
            } else {
                let d = st.moves()[rng.below(st.moves().len())];
                g.play(&mut st, d).expect("a legal decision");
            }
        }
        if st.is_over() || st.moves().is_empty() {
            return;
        }
        let mut r = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
        let thought = agent
            .decide(&g, &st, &mut r, &mut |_| {})
            .expect("a built-in agent never forfeits");
        assert!(
            st.moves().contains(&thought.decision),
            "the agent chose a decision that is not legal"
        );
        let _ = agent.describe();
    })?;
    Ok("searched")
}

/// A shard string (`--shard`) and a number of games: a shard read must be one of its games'
/// blocks, and the blocks of all the shards must cover the games once.
fn run_shard_input(bytes: &[u8]) -> Result<&'static str, String> {
    use ludic::study::merge::{parse_shard, shard_range};
    let text = String::from_utf8_lossy(bytes);
    let (spec, games) = text.split_once('\n').unwrap_or((&text, ""));
    let games: u64 = games.trim().parse().unwrap_or(1000);
    stage("shard", || match parse_shard(spec) {
        Ok((i, n)) => {
            assert!(1 <= i && i <= n, "shard {i} of {n} read from `{spec}`");
            let r = shard_range(games, i, n);
            assert!(r.start <= r.end && r.end <= games, "{r:?} of {games}");
            if n <= 1000 {
                let mut next = 0;
                for k in 1..=n {
                    let r = shard_range(games, k, n);
                    assert_eq!(r.start, next, "shard {k} of {n}, {games} games");
                    next = r.end;
                }
                assert_eq!(next, games, "{n} shards of {games} games");
            }
            "read"
        }
        Err(e) => {
            assert!(!e.is_empty());
            "refused"
        }
    })
}

/// Shards' results (a JSON array) merged as `ludic merge` merges them, and the merge written
/// in each format; a merge that succeeds must hold at most the study's games, and be partial
/// exactly when it lacks some.
fn run_merge_input(bytes: &[u8]) -> Result<&'static str, String> {
    use ludic::study::Output;
    use ludic::study::compare::{Column, write_comparison};
    use ludic::study::merge::{Shard, merge, merge_columns, read_shard};
    use ludic::study::report::write_study;
    let text = String::from_utf8_lossy(bytes);
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Ok("not JSON");
    };
    let Some(items) = v.as_array() else {
        return Ok("not shards");
    };
    let read = stage("merge read", || {
        items
            .iter()
            .enumerate()
            .map(|(k, s)| read_shard(s, &format!("shard{k}.json")))
            .collect::<Result<Vec<Shard>, String>>()
    })?;
    let Ok(shards) = read else {
        return Ok("refused");
    };
    let (mut studies, mut comparisons) = (vec![], vec![]);
    for (k, s) in shards.into_iter().enumerate() {
        match s {
            Shard::Study(s) => studies.push((format!("shard{k}.json"), *s)),
            Shard::Comparison(c) => comparisons.push((format!("shard{k}.json"), c)),
        }
    }
    if !studies.is_empty() && !comparisons.is_empty() {
        return Ok("mixed");
    }
    let outputs = [Output::Table, Output::Json, Output::Csv];
    stage("merge", || {
        let merged: Vec<(String, ludic::study::Study)> = if comparisons.is_empty() {
            match merge(&studies) {
                Ok(m) => vec![(String::new(), m)],
                Err(_) => return "refused",
            }
        } else {
            match merge_columns(&comparisons) {
                Ok(c) => c,
                Err(_) => return "refused",
            }
        };
        for (_, m) in &merged {
            assert!(m.stats.games <= m.requested, "more games than -n");
            assert_eq!(m.partial, m.stats.games < m.requested, "partial or not");
        }
        for output in outputs {
            let mut sink = vec![];
            if comparisons.is_empty() {
                write_study(&mut sink, &merged[0].1, output, false).expect("written");
            } else {
                let columns: Vec<Column> = merged
                    .iter()
                    .map(|(name, study)| Column {
                        name: name.clone(),
                        study: study.clone(),
                    })
                    .collect();
                write_comparison(&mut sink, &columns, output, false).expect("written");
            }
        }
        if merged.iter().any(|(_, m)| m.partial) {
            "merged, partial"
        } else {
            "merged"
        }
    })
}

/// Runs one input of a kind.
fn run_input(kind: &str, bytes: &[u8], seed: u64) -> Result<&'static str, String> {
    match kind {
        "game" => run_game_input(bytes, seed),
        "record" => run_record_input(bytes),
        "agent" => run_agent_input(bytes, seed),
        "shard" => run_shard_input(bytes),
        "merge" => run_merge_input(bytes),
        other => Err(format!("no input of the kind `{other}`")),
    }
}

/// The name a failing input of a kind is saved under, after its number.
fn saved_suffix(kind: &str) -> &'static str {
    match kind {
        "record" => "record.json",
        "agent" => "agent.txt",
        "shard" => "shard.txt",
        "merge" => "merge.json",
        _ => "game",
    }
}

/// The kind of a saved input, by its name.
fn kind_of_file(f: &str) -> &'static str {
    ["record", "agent", "shard", "merge"]
        .into_iter()
        .find(|k| f.ends_with(saved_suffix(k)))
        .unwrap_or(if f.ends_with(".json") {
            "record"
        } else {
            "game"
        })
}

/// The worker: reads inputs (`@@KIND ID SEED LEN`, KIND one of game, record, agent, shard and
/// merge, then the bytes)
/// and reports on each (`@@stage NAME`, then `@@done ID CPU_MICROS HEAP_PEAK RSS_PEAK ok|fail
/// WHAT`, or `@@over-memory BYTES` when it passes its cap, `LUDIC_FUZZ_WORKER_CAP` bytes).
fn worker() {
    // panics are reported by `stage`, not printed
    std::panic::set_hook(Box::new(|_| {}));
    let cap: usize = std::env::var("LUDIC_FUZZ_WORKER_CAP")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    CAP.store(cap, std::sync::atomic::Ordering::Relaxed);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut header = String::new();
    loop {
        header.clear();
        if input.read_line(&mut header).unwrap_or(0) == 0 {
            return;
        }
        let parts: Vec<&str> = header.split_whitespace().collect();
        let [kind, id, seed, len] = parts[..] else {
            return;
        };
        let (seed, len): (u64, usize) = (seed.parse().unwrap_or(0), len.parse().unwrap_or(0));
        let mut bytes = vec![0; len];
        if input.read_exact(&mut bytes).is_err() {
            return;
        }
        let measured = memory_reset();
        let t = cpu_time();
        let result = run_input(kind.trim_start_matches("@@"), &bytes, seed);
        let micros = cpu_time().saturating_sub(t).as_micros();
        let heap = PEAK.load(std::sync::atomic::Ordering::Relaxed);
        // the resident set's peak only where it was reset for this input
        let rss = if measured { resident_peak() } else { 0 };
        let peaks = format!("{micros} {heap} {rss}");
        match result {
            Ok(how) => report(&format!("done {id} {peaks} ok {}", how.replace(' ', "_"))),
            Err(e) => report(&format!("done {id} {peaks} fail {e}")),
        }
    }
}

/// The CPU time this process has used (the budget of an input is CPU time, so that a busy
/// machine does not make an input fail; wall time where it cannot be read).
fn cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes into the timespec it is given
        if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The CPU time (user and system) process `pid` has used, from `/proc` (None where it cannot be
/// read: the budget is then wall time).
fn process_cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // the fields after the command's name: state is the first, utime the 12th, stime the 13th
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    #[cfg(unix)]
    // SAFETY: sysconf only reads a configuration value
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    #[cfg(not(unix))]
    let per_second = 100;
    (per_second > 0).then(|| Duration::from_micros(ticks * 1_000_000 / per_second as u64))
}

// ---------------------------------------------------------------------------- memory

/// The memory an input may use (heap in use, or the worker's resident set), unless
/// `LUDIC_FUZZ_MEMORY_MB` says otherwise: more is a failure, reported like a time-out.
const MEMORY_CAP: u64 = 1 << 30;
/// The tiny cap of the check that the cap works ([`memory_cap_check`]).
const CHECK_CAP: u64 = 48 << 10;

/// The allocator of this program: the system's, counting the bytes in use and their peak, so
/// that each input's peak is measured (the peak is reset when an input starts) and an
/// allocation that would take a worker over its cap stops it at once, with a report, before
/// the machine runs short (a perft that keeps every child reached 11.7 GB).
struct Counting;

static LIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static PEAK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// The worker's cap in bytes (0: none, as in the runner).
static CAP: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn grow(n: usize) {
    use std::sync::atomic::Ordering::Relaxed;
    let now = LIVE.fetch_add(n, Relaxed).saturating_add(n);
    PEAK.fetch_max(now, Relaxed);
    let cap = CAP.load(Relaxed);
    if cap != 0 && now > cap {
        over_memory(now);
    }
}

fn shrink(n: usize) {
    LIVE.fetch_sub(n, std::sync::atomic::Ordering::Relaxed);
}

/// A worker past its cap: says so on its report stream (`@@over-memory BYTES`, written
/// without allocating) and exits; the runner saves the input with the stage it was in.
fn over_memory(bytes: usize) -> ! {
    let mut buf = [0u8; 48];
    let head = b"\n@@over-memory ";
    buf[..head.len()].copy_from_slice(head);
    let mut digits = [0u8; 20];
    let (mut n, mut k) = (bytes, 0);
    loop {
        digits[k] = b'0' + (n % 10) as u8;
        k += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut len = head.len();
    for d in digits[..k].iter().rev() {
        buf[len] = *d;
        len += 1;
    }
    buf[len] = b'\n';
    len += 1;
    #[cfg(unix)]
    // SAFETY: write and _exit take a buffer that lives until they return, and allocate nothing
    unsafe {
        libc::write(1, buf.as_ptr().cast(), len);
        libc::_exit(3);
    }
    #[cfg(not(unix))]
    std::process::abort();
}

// SAFETY: every call is passed on to the system's allocator unchanged; only counters are kept
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's layout, as the system allocator requires
        let p = unsafe { std::alloc::System.alloc(layout) };
        if p.is_null() {
            shrink(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: as in alloc
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) };
        if p.is_null() {
            shrink(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: a block this allocator gave, with its layout
        unsafe { std::alloc::System.dealloc(ptr, layout) };
        shrink(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old {
            grow(new_size - old);
        }
        // SAFETY: a block this allocator gave, with its layout, as the caller guarantees
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            if new_size > old {
                shrink(new_size - old);
            }
        } else if new_size < old {
            shrink(old - new_size);
        }
        p
    }
}

/// Starts the measure of one input: the heap's peak is reset to what is in use, and the
/// kernel's peak of the resident set (VmHWM) too, where `/proc/self/clear_refs` allows it.
fn memory_reset() -> bool {
    // what the C library keeps of earlier inputs' memory goes back to the system first
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory
    unsafe {
        libc::malloc_trim(0);
    }
    PEAK.store(
        LIVE.load(std::sync::atomic::Ordering::Relaxed),
        std::sync::atomic::Ordering::Relaxed,
    );
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The peak resident set of this process since the last reset, in bytes (0 where unknown).
fn resident_peak() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / (1 << 20) as f64)
}

// ---------------------------------------------------------------------------- the runner

/// A worker process and the lines it reports.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Worker {
    fn start(cap: u64) -> Worker {
        let mut child = Command::new(std::env::current_exe().expect("this program"))
            .env("LUDIC_FUZZ_WORKER", "1")
            .env("LUDIC_FUZZ_WORKER_CAP", cap.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("a fuzz worker");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr_pipe = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) if l.starts_with("@@") => {
                        if tx.send(Some(l[2..].to_string())).is_err() {
                            return;
                        }
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(None);
        });
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let keep = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = keep.lock()
                    && s.len() < 1 << 16
                {
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        Worker {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How an input ended.
enum Outcome {
    Ok(String),
    Failed {
        stage: String,
        what: String,
        class: Class,
    },
}

/// What kind of failure.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Class {
    Panic,
    /// over the CPU budget
    Hang,
    /// over the memory cap
    OverMemory,
    /// a stack overflow, an abort
    Died,
    Error,
}

impl Class {
    fn of(what: &str) -> Class {
        if what.starts_with("panic") {
            Class::Panic
        } else {
            Class::Error
        }
    }
}

/// What an input used: its CPU time and its peaks of heap and resident set, in bytes (0
/// where unknown).
#[derive(Default, Clone, Copy)]
struct Used {
    cpu: Duration,
    heap: u64,
    rss: u64,
}

/// The limits of one input.
#[derive(Clone, Copy)]
struct Limits {
    budget: Duration,
    memory: u64,
}

/// Sends one input to the worker and waits at most its CPU budget; a worker that is stopped
/// (over budget), passes its memory cap or dies (a stack overflow) is replaced.
fn run_one(
    w: &mut Option<Worker>,
    kind: &str,
    seed: u64,
    bytes: &[u8],
    limits: Limits,
) -> (Outcome, Used) {
    let budget = limits.budget;
    let worker = w.get_or_insert_with(|| Worker::start(limits.memory));
    let header = format!("@@{kind} 0 {seed} {}\n", bytes.len());
    let mut used = Used::default();
    if worker
        .stdin
        .write_all(header.as_bytes())
        .and_then(|()| worker.stdin.write_all(bytes))
        .and_then(|()| worker.stdin.flush())
        .is_err()
    {
        let dead = w.take().unwrap();
        let stderr = dead.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        dead.stop();
        let failed = Outcome::Failed {
            stage: "start".into(),
            what: format!("the worker died: {stderr}"),
            class: Class::Died,
        };
        return (failed, used);
    }
    // The budget is CPU time: when it has passed in wall time, a worker that has had less CPU
    // than that (the machine is busy) is given the rest, up to thirty times the budget in all.
    let pid = worker.child.id();
    let cpu_at_start = process_cpu_time(pid);
    let wall_start = Instant::now();
    let mut deadline = wall_start + budget;
    let mut stage = String::from("reading the input");
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match worker.lines.recv_timeout(left) {
            Ok(Some(line)) => {
                if let Some(s) = line.strip_prefix("stage ") {
                    stage = s.to_string();
                } else if let Some(n) = line.strip_prefix("over-memory ") {
                    // the worker has exited; the stage is the one it was in
                    used.heap = n.trim().parse().unwrap_or(0);
                    used.cpu = process_cpu_time(pid)
                        .zip(cpu_at_start)
                        .map_or(Duration::ZERO, |(now, then)| now.saturating_sub(then));
                    w.take().unwrap().stop();
                    let failed = Outcome::Failed {
                        stage,
                        what: format!(
                            "over the memory cap of {}: {} of heap in use",
                            megabytes(limits.memory),
                            megabytes(used.heap)
                        ),
                        class: Class::OverMemory,
                    };
                    return (failed, used);
                } else if let Some(rest) = line.strip_prefix("done ") {
                    let mut parts = rest.splitn(6, ' ');
                    let _id = parts.next();
                    let mut number = || parts.next().and_then(|m| m.parse::<u64>().ok());
                    let micros = number().unwrap_or(0);
                    used.heap = number().unwrap_or(0);
                    used.rss = number().unwrap_or(0);
                    used.cpu = Duration::from_micros(micros);
                    let status = parts.next().unwrap_or("");
                    let what = parts.next().unwrap_or("").to_string();
                    if used.cpu > budget {
                        let failed = Outcome::Failed {
                            stage,
                            what: format!("over the budget: {} ms of CPU", micros / 1000),
                            class: Class::Hang,
                        };
                        return (failed, used);
                    }
                    if used.heap.max(used.rss) > limits.memory {
                        // the resident set (the heap is stopped at its cap as it grows): the
                        // worker is replaced, so that the next input starts afresh
                        w.take().unwrap().stop();
                        let failed = Outcome::Failed {
                            stage,
                            what: format!(
                                "over the memory cap of {}: {} resident",
                                megabytes(limits.memory),
                                megabytes(used.rss)
                            ),
                            class: Class::OverMemory,
                        };
                        return (failed, used);
                    }
                    let outcome = if status == "ok" {
                        Outcome::Ok(what)
                    } else {
                        let class = Class::of(&what);
                        Outcome::Failed { stage, what, class }
                    };
                    return (outcome, used);
                }
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                let dead = w.take().unwrap();
                std::thread::sleep(Duration::from_millis(50));
                let stderr = dead.stderr.lock().map(|s| s.clone()).unwrap_or_default();
                dead.stop();
                let why = if stderr.contains("overflowed its stack") {
                    "stack overflow"
                } else {
                    "the worker died"
                };
                let failed = Outcome::Failed {
                    stage,
                    what: format!("{why}: {}", stderr.lines().last().unwrap_or("")),
                    class: Class::Died,
                };
                return (failed, used);
            }
            Err(RecvTimeoutError::Timeout) => {
                let spent = process_cpu_time(pid)
                    .zip(cpu_at_start)
                    .map(|(now, then)| now.saturating_sub(then));
                if let Some(spent) = spent
                    && spent < budget
                    && wall_start.elapsed() < budget * 30
                {
                    deadline = Instant::now() + (budget - spent).max(Duration::from_millis(100));
                    continue;
                }
                used.cpu = spent.unwrap_or(wall_start.elapsed());
                w.take().unwrap().stop();
                let failed = Outcome::Failed {
                    stage,
                    what: format!(
                        "over the budget of {} ms of CPU (stopped after {} ms)",
                        budget.as_millis(),
                        wall_start.elapsed().as_millis()
                    ),
                    class: Class::Hang,
                };
                return (failed, used);
            }
        }
    }
}

/// The memory cap at work: a built-in game, loaded and played under a cap far below what that
/// takes, must fail as over the cap, with its stage (one worker, a few milliseconds).
fn memory_cap_check(budget: Duration) -> Result<(), String> {
    let (_, src) = ludic::builtin::GAMES.first().ok_or("no built-in game")?;
    let limits = Limits {
        budget,
        memory: CHECK_CAP,
    };
    let mut w = None;
    let (outcome, used) = run_one(&mut w, "game", 1, src.as_bytes(), limits);
    if let Some(w) = w {
        w.stop();
    }
    match outcome {
        Outcome::Failed {
            class: Class::OverMemory,
            stage,
            ..
        } if used.heap > CHECK_CAP && stage != "reading the input" => Ok(()),
        Outcome::Failed { stage, what, .. } => Err(format!("{stage}: {what}")),
        Outcome::Ok(how) => Err(format!(
            "a built-in game under a cap of {} bytes: {how}",
            CHECK_CAP
        )),
    }
}

/// Whether a stage is the engine's (playing, perft, replaying) rather than the front end's.
fn engine_stage(stage: &str) -> bool {
    stage.starts_with("playout")
        || stage == "perft"
        || stage == "replay"
        || stage == "timeline"
        || stage == "agent search"
        || stage == "start position"
}

fn failures_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz");
    std::fs::create_dir_all(&dir).expect("a folder for failing inputs");
    dir
}

struct Run {
    inputs: usize,
    /// inputs run, by kind (game, record, …)
    by_kind: BTreeMap<String, usize>,
    by_result: BTreeMap<String, usize>,
    /// failures by kind of failure
    by_class: BTreeMap<Class, usize>,
    /// (where the input was saved, stage, what)
    front_end: Vec<(String, String, String)>,
    engine: Vec<(String, String, String)>,
    /// the CPU time of the inputs, as their workers measured it, and by kind
    cpu: Duration,
    cpu_by_kind: BTreeMap<String, Duration>,
    /// the inputs that took the most CPU time (at most five, the slowest first)
    slowest: Vec<(Duration, String)>,
    /// the largest peaks of heap and resident set, with the input's name and where it was saved
    heap_peak: (u64, String),
    rss_peak: (u64, String),
}

fn fuzz(seed: u64, until: Instant, max_inputs: usize, limits: Limits) -> Run {
    let files = game_files();
    let seeds: Vec<String> = files.iter().map(|(_, t)| t.clone()).collect();
    let records = record_seeds();
    let merges = merge_seeds();
    let valid: Vec<String> = seeds
        .iter()
        .filter(|s| ludic::load_game(s, &Default::default()).is_ok())
        .cloned()
        .collect();
    let known: Vec<Vec<u8>> = KNOWN_ENGINE_HANGS
        .iter()
        .map(|f| std::fs::read(format!("tests/fixtures/fuzz/{f}")).expect("a listed fixture"))
        .collect();
    let mut regressions: Vec<(String, Vec<u8>)> = vec![];
    if let Ok(dir) = std::fs::read_dir("tests/fixtures/fuzz") {
        let mut paths: Vec<_> = dir.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.extension().is_some_and(|e| e == "game")
                && !KNOWN_ENGINE_HANGS.contains(&name.as_str())
            {
                regressions.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    let mut run = Run {
        inputs: 0,
        by_kind: BTreeMap::new(),
        by_result: BTreeMap::new(),
        by_class: BTreeMap::new(),
        front_end: vec![],
        engine: vec![],
        cpu: Duration::ZERO,
        cpu_by_kind: BTreeMap::new(),
        slowest: vec![],
        heap_peak: (0, String::new()),
        rss_peak: (0, String::new()),
    };
    let dir = failures_dir();
    let mut rng = Rng::new(seed);
    let mut cli_rng = Rng::new(seed ^ 0xC11_5EED);
    let mut worker: Option<Worker> = None;
    let mut n = 0usize;
    while n < max_inputs && Instant::now() < until {
        // the command line's inputs (agent specs, shards, merges) come from a stream of their
        // own, so that the games and records are those of the runs before them
        let (input_seed, kind, bytes, label) = if n >= regressions.len() && cli_rng.chance(10) {
            let input_seed = cli_rng.next();
            match cli_rng.below(10) {
                0..3 => (
                    input_seed,
                    "agent",
                    mutate_agent(&mut cli_rng),
                    format!("agent spec {n}"),
                ),
                3..5 => (
                    input_seed,
                    "shard",
                    mutate_shard(&mut cli_rng),
                    format!("shard {n}"),
                ),
                _ => (
                    input_seed,
                    "merge",
                    mutate_merge(&mut cli_rng, &merges),
                    format!("merge {n}"),
                ),
            }
        } else {
            let input_seed = rng.next();
            if n < regressions.len() {
                let (name, b) = &regressions[n];
                (
                    input_seed,
                    "game",
                    b.clone(),
                    format!("tests/fixtures/fuzz/{name}"),
                )
            } else if rng.chance(12) {
                (
                    input_seed,
                    "record",
                    mutate_record(&mut rng, &records, &seeds),
                    format!("record {n}"),
                )
            } else {
                (
                    input_seed,
                    "game",
                    mutate_game(&mut rng, &seeds, &valid),
                    format!("game {n}"),
                )
            }
        };
        n += 1;
        if known.contains(&bytes) {
            *run.by_result
                .entry("known engine hang, skipped".into())
                .or_default() += 1;
            continue;
        }
        run.inputs += 1;
        *run.by_kind.entry(kind.to_string()).or_default() += 1;
        let ext = saved_suffix(kind);
        let (outcome, used) = run_one(&mut worker, kind, input_seed, &bytes, limits);
        run.cpu += used.cpu;
        *run.cpu_by_kind.entry(kind.to_string()).or_default() += used.cpu;
        if run.slowest.len() < 5 || run.slowest.last().is_some_and(|s| s.0 < used.cpu) {
            run.slowest
                .push((used.cpu, format!("{label}, seed {input_seed}")));
            run.slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
            run.slowest.truncate(5);
        }
        // the largest peaks are kept, with their input, for a look at what takes memory
        for (peak, best, name) in [
            (used.heap, &mut run.heap_peak, "heap"),
            (used.rss, &mut run.rss_peak, "resident"),
        ] {
            if peak > best.0 {
                let file = dir.join(format!("{seed}-peak-{name}.{ext}"));
                let _ = std::fs::write(&file, &bytes);
                *best = (
                    peak,
                    format!("{label}, seed {input_seed}, saved as {}", file.display()),
                );
            }
        }
        match outcome {
            Outcome::Ok(how) => *run.by_result.entry(format!("{kind}: {how}")).or_default() += 1,
            Outcome::Failed { stage, what, class } => {
                *run.by_class.entry(class).or_default() += 1;
                let file = dir.join(format!("{seed}-{}.{ext}", n - 1));
                let _ = std::fs::write(&file, &bytes);
                let _ = std::fs::write(
                    format!("{}.why", file.display()),
                    format!("{label}, seed {input_seed}: {stage}: {what}\n"),
                );
                let entry = (file.display().to_string(), stage.clone(), what);
                if engine_stage(&stage) {
                    run.engine.push(entry);
                } else {
                    run.front_end.push(entry);
                }
            }
        }
    }
    if let Some(w) = worker {
        w.stop();
    }
    run
}

/// The CPU time (user and system) of this process and of its children that have ended (the
/// workers, once stopped).
fn own_cpu_time() -> (Duration, Duration) {
    #[cfg(unix)]
    {
        let time = |who| {
            // SAFETY: getrusage writes into the struct it is given
            let mut u: libc::rusage = unsafe { std::mem::zeroed() };
            if unsafe { libc::getrusage(who, &mut u) } != 0 {
                return Duration::ZERO;
            }
            let t = |v: libc::timeval| {
                Duration::from_secs(v.tv_sec as u64) + Duration::from_micros(v.tv_usec as u64)
            };
            t(u.ru_utime) + t(u.ru_stime)
        };
        (time(libc::RUSAGE_SELF), time(libc::RUSAGE_CHILDREN))
    }
    #[cfg(not(unix))]
    (Duration::ZERO, Duration::ZERO)
}

fn summary(run: &Run, took: Duration, limits: Limits) -> String {
    let (own, children) = own_cpu_time();
    let count = |c: Class| run.by_class.get(&c).copied().unwrap_or(0);
    let peak = |p: &(u64, String)| {
        if p.0 == 0 {
            "not measured".to_string()
        } else {
            format!("{} ({})", megabytes(p.0), p.1)
        }
    };
    let by_kind: Vec<String> = run
        .by_kind
        .iter()
        .map(|(k, n)| {
            let cpu = run.cpu_by_kind.get(k).copied().unwrap_or_default();
            format!("{k} {n} ({:.1} s of CPU)", cpu.as_secs_f64())
        })
        .collect();
    let mut s = format!(
        "{} inputs in {:.1} s\n\
         inputs by kind: {}\n\
         results: {:?}\n\
         panics: {}, hangs: {}, over-memory: {}, died: {}, other failures: {}\n\
         CPU time used: {:.1} s by the inputs ({:.1} s by the workers, {:.1} s by the runner)\n\
         slowest inputs: {}\n\
         peak memory of an input (cap {}): heap {}; resident {}\n\
         front-end failures: {}\nengine failures: {}\n",
        run.inputs,
        took.as_secs_f64(),
        by_kind.join(", "),
        run.by_result,
        count(Class::Panic),
        count(Class::Hang),
        count(Class::OverMemory),
        count(Class::Died),
        count(Class::Error),
        run.cpu.as_secs_f64(),
        children.as_secs_f64(),
        own.as_secs_f64(),
        run.slowest
            .iter()
            .map(|(t, l)| format!("{l} ({} ms)", t.as_millis()))
            .collect::<Vec<_>>()
            .join("; "),
        megabytes(limits.memory),
        peak(&run.heap_peak),
        peak(&run.rss_peak),
        run.front_end.len(),
        run.engine.len()
    );
    for (file, stage, what) in run.front_end.iter().chain(&run.engine) {
        s.push_str(&format!("  {file}: {stage}: {what}\n"));
    }
    s
}

/// Set in triage mode (`LUDIC_FUZZ_TRIAGE`): when the input being triaged started.
static TRIAGE_START: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);

/// Triage of saved inputs (`LUDIC_FUZZ_TRIAGE=1 <this program> FILE…`): each file is run in
/// this process as a worker would run it, with the seed its `.why` names, and the time of
/// each stage is printed.
fn triage(files: &[String]) {
    for f in files {
        let Ok(bytes) = std::fs::read(f) else {
            println!("{f}: cannot read");
            continue;
        };
        let why = std::fs::read_to_string(format!("{f}.why")).unwrap_or_default();
        let seed: u64 = why
            .split("seed ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        println!("{f} ({} bytes, seed {seed}): {}", bytes.len(), why.trim());
        let t = Instant::now();
        *TRIAGE_START.lock().unwrap_or_else(|e| e.into_inner()) = Some(t);
        let result = run_input(kind_of_file(f), &bytes, seed);
        println!("  done in {:.3} s: {result:?}", t.elapsed().as_secs_f64());
    }
}

fn main() {
    if std::env::var_os("LUDIC_FUZZ_WORKER").is_some() {
        worker();
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if std::env::var_os("LUDIC_FUZZ_TRIAGE").is_some() {
        triage(&args);
        return;
    }
    // `cargo test` passes the harness's options (--quiet, a filter, …): they are ignored here,
    // but `--list` must list nothing strange
    if args.iter().any(|a| a == "--list") {
        println!("fuzz: test");
        return;
    }
    // a filter that does not name this test (`cargo test hardening`) runs nothing here
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if !filters.is_empty() && !filters.iter().any(|f| "fuzz".contains(f.as_str())) {
        return;
    }
    let long = args.iter().any(|a| a == "--ignored");
    let seed = std::env::var("LUDIC_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_26);
    let budget = std::env::var("LUDIC_FUZZ_BUDGET_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(BUDGET);
    let memory = std::env::var("LUDIC_FUZZ_MEMORY_MB")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(MEMORY_CAP, |mb| mb.saturating_mul(1 << 20));
    let limits = Limits { budget, memory };
    // the cap is seen to work before it is trusted: a known input under a tiny cap fails
    if let Err(e) = memory_cap_check(budget) {
        println!("fuzz: FAILED: the memory cap does not work: {e}");
        std::process::exit(1);
    }
    let t = Instant::now();
    let run = if long {
        let secs: u64 = std::env::var("LUDIC_FUZZ_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(600);
        println!(
            "fuzz: long run, {secs} s, seed {seed}, {} ms of CPU and {} an input",
            budget.as_millis(),
            megabytes(memory)
        );
        fuzz(seed, t + Duration::from_secs(secs), usize::MAX, limits)
    } else {
        // a quick run: a fixed number of inputs, whatever the time
        fuzz(
            seed,
            t + Duration::from_secs(24 * 3600),
            QUICK_INPUTS,
            limits,
        )
    };
    let text = summary(&run, t.elapsed(), limits);
    println!("{text}");
    let _ = std::fs::write(failures_dir().join(format!("summary-{seed}.txt")), &text);
    if !run.front_end.is_empty() || !run.engine.is_empty() {
        println!(
            "fuzz: FAILED (inputs saved under {}; an engine hang that cannot be fixed yet goes to tests/fixtures/fuzz/ and KNOWN_ENGINE_HANGS)",
            failures_dir().display()
        );
        std::process::exit(1);
    }
    println!("test result: ok. fuzz");
}
