//! The front end against hostile descriptions (issue 12): no description makes loading crash,
//! hang or exhaust memory; each limit is an ordinary error with a position.

use ludic::diagnostic::Diagnostics;
use ludic::{LoadError, Settings, load_game};
use std::time::{Duration, Instant};

/// A time bound of the release build (`cargo test --release`, as the README says), ten times
/// longer in a debug build.
fn within(d: Duration) -> Duration {
    if cfg!(debug_assertions) { d * 10 } else { d }
}

fn mini() -> String {
    std::fs::read_to_string("tests/fixtures/valid_mini.game").unwrap()
}

/// Loads on a thread with the stack the command line's main thread has (8 MiB), so that the
/// limits are checked as `ludic` meets them (test threads have less); returns the error codes
/// and how long it took.
fn load_codes(src: String) -> (Vec<&'static str>, Duration) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let t = Instant::now();
            let codes = match load_game(&src, &Settings::default()) {
                Ok(_) => vec![],
                Err(LoadError::File(Diagnostics(d))) => d.iter().map(|x| x.code()).collect(),
                Err(LoadError::Options(o)) => panic!("option errors: {o:?}"),
            };
            (codes, t.elapsed())
        })
        .unwrap()
        .join()
        .expect("loading does not panic")
}

/// The mini game with `extra` declarations and `first` the first statement of the turn.
fn with_turn(extra: &str, first: &str) -> String {
    mini().replace("turn {", &format!("{extra}\nturn {{\n  {first}\n"))
}

#[test]
fn nested_parentheses_parse_in_linear_time() {
    // 22 levels took 57 s: every level was read twice (coordinates, then a parenthesis).
    let parens = |n: usize| format!("{}def d = {}1{}\n", mini(), "(".repeat(n), ")".repeat(n));
    let (codes, t) = load_codes(parens(22));
    assert_eq!(codes, Vec::<&str>::new());
    assert!(t < within(Duration::from_millis(200)), "22 levels: {t:?}");
    let (codes, t) = load_codes(parens(200));
    assert_eq!(codes, Vec::<&str>::new());
    assert!(t < within(Duration::from_secs(1)), "200 levels: {t:?}");
    // the same for coordinates in an expression
    let coords = format!(
        "{}def d = {}(1, 2){}\n",
        mini(),
        "(".repeat(200),
        ")".repeat(200)
    );
    let (_, t) = load_codes(coords);
    assert!(t < within(Duration::from_secs(1)), "coordinates: {t:?}");
}

#[test]
fn nesting_past_the_limit_is_an_error_not_a_stack_overflow() {
    // Each of these overflowed the stack (exit 134).
    let cases = [
        with_turn(
            "",
            &format!("{}{}", "if true { ".repeat(3000), "} ".repeat(3000)),
        ),
        format!("{}def d = {} true\n", mini(), "not ".repeat(20_000)),
        format!(
            "{}def d = {}1{}\n",
            mini(),
            "min(1, ".repeat(3000),
            ")".repeat(3000)
        ),
        with_turn("", &"{ ".repeat(5000)),
        format!("{}def d = {}1\n", mini(), "1 + ".repeat(20_000)),
        format!(
            "{}def d = {}1\n",
            mini(),
            "if true then 1 else ".repeat(5000)
        ),
        format!("{}def d = {}true\n", mini(), "exists h where ".repeat(5000)),
        format!("{}def d = {}1\n", mini(), "- ".repeat(20_000)),
        with_turn("", &format!("{}{{ }}", "if true { } else ".repeat(3000))),
        format!("{}def d = {}", mini(), "[".repeat(100_000)),
    ];
    for src in cases {
        let head: String = src[mini().len().min(src.len())..]
            .chars()
            .take(30)
            .collect();
        let (codes, t) = load_codes(src);
        assert_eq!(codes, vec!["too-deep"], "{head}…");
        assert!(t < within(Duration::from_secs(1)), "{head}…: {t:?}");
    }
}

#[test]
fn nesting_within_the_limit_is_accepted() {
    let ifs = with_turn(
        "",
        &format!("{}{}", "if true { ".repeat(250), "} ".repeat(250)),
    );
    let nots = format!("{}def d = {} true\n", mini(), "not ".repeat(250));
    let sum = format!("{}def d = {}1\n", mini(), "1 + ".repeat(250));
    for src in [ifs, nots, sum] {
        assert_eq!(load_codes(src).0, Vec::<&str>::new());
    }
}

#[test]
fn defs_and_actions_that_expand_without_bound_are_errors() {
    // Each def uses the one before twice: 2^40 parts once expanded (loading never ended).
    let mut doubling = String::from("def d1(x) = x + x\n");
    for i in 2..=40 {
        doubling += &format!("def d{i}(x) = d{}(d{}(x))\n", i - 1, i - 1);
    }
    let (codes, t) = load_codes(with_turn(&doubling, "if d40(count(s1)) > 0 { end turn }"));
    assert_eq!(codes, vec!["too-large-expansion"]);
    assert!(t < within(Duration::from_secs(2)), "{t:?}");
    // with constant arguments too (they fold, but the work was still exponential)
    let (codes, _) = load_codes(format!("{}{doubling}require d40(1) > 0 \"x\"\n", mini()));
    assert_eq!(codes, vec!["too-large-expansion"]);
    // an argument used twice in each of a chain of defs grows the same way
    let mut args = String::from("def e1(x) = x\n");
    for i in 2..=60 {
        args += &format!("def e{i}(x) = e{}(if x > 0 then x else 1)\n", i - 1);
    }
    let (codes, t) = load_codes(with_turn(&args, "if e60(count(s1)) > 0 { end turn }"));
    assert_eq!(codes, vec!["too-large-expansion"]);
    assert!(t < within(Duration::from_secs(2)), "{t:?}");
    // actions: each does the one before twice
    let mut actions = String::from("action a1() { capture s1 }\n");
    for i in 2..=40 {
        actions += &format!("action a{i}() {{ do a{}() do a{}() }}\n", i - 1, i - 1);
    }
    let (codes, t) = load_codes(with_turn(&actions, "do a40()"));
    assert_eq!(codes, vec!["too-large-expansion"]);
    assert!(t < within(Duration::from_secs(2)), "{t:?}");
    // a long chain of defs, each one level deeper than the one before
    let mut chain = String::from("def c0(x) = x\n");
    for i in 1..=2000 {
        chain += &format!("def c{i}(x) = c{}(x) + 1\n", i - 1);
    }
    let (codes, t) = load_codes(with_turn(&chain, "if c2000(count(s1)) > 0 { end turn }"));
    assert_eq!(codes, vec!["too-deep"]);
    assert!(t < within(Duration::from_secs(2)), "{t:?}");
    // the same chain of actions
    let mut chain = String::from("action b0() { capture s1 }\n");
    for i in 1..=2000 {
        chain += &format!("action b{i}() {{ do b{}() }}\n", i - 1);
    }
    let (codes, _) = load_codes(with_turn(&chain, "do b2000()"));
    assert_eq!(codes, vec!["too-deep"]);
}

#[test]
fn a_def_calling_itself_where_a_set_may_be_is_reported_not_looped_on() {
    // `size(a(1))` asks whether `a(1)` is a set: that question went round for ever.
    let src = format!("{}def a(x) = a(x)\nrequire size(a(1)) > 0 \"x\"\n", mini());
    let (codes, t) = load_codes(src);
    assert!(codes.contains(&"recursive"), "{codes:?}");
    assert!(t < within(Duration::from_secs(1)));
}

#[test]
fn huge_ranges_are_counted_before_anything_is_made() {
    // The first two allocated gigabytes before the size check.
    let board = |item: &str| mini().replace("board {", &format!("board {{\n  {item}\n"));
    let cases = [
        (
            board("points for x in 0..9223372036854775807, y in 0..1"),
            "too-large",
        ),
        (
            board("points for x in -9223372036854775808..10, y in 0..1"),
            "too-large",
        ),
        (
            board(
                "points for x in -9223372036854775808..9223372036854775807, y in -9223372036854775808..9223372036854775807",
            ),
            "too-large",
        ),
        (
            mini().replace("row s[1..3]", "row s[0..9223372036854775807]"),
            "bad-range",
        ),
        (
            mini().replace(
                "row s[1..3]",
                "row s[-9223372036854775808..9223372036854775807]",
            ),
            "bad-range",
        ),
        (
            with_turn("", "choose k in -9223372036854775808..9223372036854775807"),
            "bad-range",
        ),
        (
            with_turn("", "capture s[9223372036854775807..-9223372036854775808]"),
            "bad-range",
        ),
        (board("points (9223372036854775807, 0) (0, 0)"), "too-large"),
        (
            board("points (0, 0) (1, 0)\n  links (9223372036854775807, 0)"),
            "too-large",
        ),
        (
            mini().replace(
                "row s[1..3] at y 0",
                "row s[1..3] at y 0 x 9223372036854775807",
            ),
            "too-large",
        ),
        (
            board("points (0, 0) (1, 0)\n  opposite (0, 0)..(9223372036854775807, 0) with s1"),
            "bad-range",
        ),
        (
            board(
                "points (0, 0) (1, 0)\n  opposite (-9223372036854775808, 0)..(9223372036854775807, 0) with s1",
            ),
            "bad-range",
        ),
        (
            format!("{}def d = 99999999999999999999\n", mini()),
            "overflow",
        ),
    ];
    for (src, code) in cases {
        let (codes, t) = load_codes(src);
        assert!(codes.contains(&code), "{codes:?}, expected {code}");
        assert!(t < within(Duration::from_secs(1)), "{t:?}");
    }
}

#[test]
fn names_have_a_length_limit_checked_at_load() {
    // A site of 70,000 characters made `play` panic on a formatting width.
    let long = "s".repeat(70_000);
    let src = mini().replace(
        "pieces { seed }",
        &format!("pieces {{ seed }}\ndef {long} = 1"),
    );
    let src = src.replace("row s[1..3] at y 0", &format!("row {long} s2 s3 at y 0"));
    let (codes, _) = load_codes(src);
    assert_eq!(codes, vec!["name-too-long", "name-too-long"]);
    let ok = mini().replace(
        "pieces { seed }",
        &format!("pieces {{ seed {} }}", "p".repeat(64)),
    );
    assert_eq!(load_codes(ok).0, Vec::<&str>::new());
}

#[test]
fn words_of_the_language_are_whole_words() {
    // `rows[1..3]` was read as `row s[1..3]`, `notable` as `not able`.
    let rows = mini().replace("row s[1..3]", "rows[1..3]");
    assert_eq!(load_codes(rows).0, vec!["syntax"]);
    let fused = with_turn("", "ifcount(s1) > 0 { end turn }");
    assert_eq!(load_codes(fused).0, vec!["syntax"]);
    let number = mini().replace("place seeds seed", "place 4seed");
    assert_eq!(load_codes(number).0, vec!["syntax"]);
    // names that begin with a word of the language are names
    let names = format!(
        "{}def notable = 1\ndef index = notable + 1\ndef order = index\ndef tokens_left = order\nrequire tokens_left == 2 and not false \"x\"\n",
        mini()
    );
    assert_eq!(load_codes(names).0, Vec::<&str>::new());
    // the words of the language are names too (soft keywords), even those that begin with a
    // shorter word (`turns`, `tokens`); only the few reserved words are not, whole
    for word in [
        "turns", "tokens", "toward", "onto", "orders", "forall", "total", "row",
    ] {
        let src = format!("{}def {word} = 1\nrequire {word} == 1 \"x\"\n", mini());
        assert_eq!(load_codes(src).0, Vec::<&str>::new(), "{word}");
    }
    for word in ["where", "then", "else", "true", "in"] {
        let src = format!("{}def {word} = 1\n", mini());
        assert_eq!(load_codes(src).0, vec!["syntax"], "{word}");
    }
}

#[test]
fn a_choice_whose_decisions_would_be_written_alike_is_refused() {
    // Fuzzed variants of the hop game had two legal decisions written the same way.
    let (_, hop) = ludic::builtin::find("tuknanavuhpi").unwrap();
    let line = hop
        .lines()
        .find(|l| l.trim_start().starts_with("step token t to q"))
        .unwrap();
    let twice = hop.replacen(line, &format!("{line}\n    }}\n{line}"), 1);
    assert_eq!(load_codes(twice).0, vec!["ambiguous-notation"]);
    // a value listed twice
    let values = with_turn("", "choose d in ccw cw ccw");
    assert_eq!(load_codes(values).0, vec!["ambiguous-notation"]);
    let range = with_turn("", "choose n in 1..3 2");
    assert_eq!(load_codes(range).0, vec!["ambiguous-notation"]);
    // the same label with different conditions may be meant: each is legal at other times
    let split = with_turn(
        "",
        "choose { pick h where count(h) > 1 pick h where count(h) == 1 }",
    );
    assert_eq!(load_codes(split).0, Vec::<&str>::new());
}

#[test]
fn thousands_of_unknown_names_do_not_make_loading_slow() {
    // Found by fuzzing: `option holes = 4095 in 2..12` is out of range, and the board it makes
    // names 8,000 sites that do not exist; each got a "did you mean" among 4,096 sites (10 s).
    let (_, src) = ludic::builtin::find("ceelkoqyuqkoqiji").unwrap();
    let line = src.lines().find(|l| l.starts_with("option holes")).unwrap();
    let wide = src.replace(line, "option holes = 4095 in 2..12");
    let (codes, t) = load_codes(wide);
    assert!(codes.contains(&"out-of-range"), "{codes:?}");
    assert!(t < within(Duration::from_secs(1)), "{t:?}");
}

#[test]
fn a_description_larger_than_a_file_may_be_is_refused_by_the_loader_too() {
    // Found by fuzzing: 17 MB descriptions given to `load_game` directly (the commands refuse a
    // file over 1 MiB before reading it) took seconds to parse; the loader has the same cap.
    let mut big = mini();
    while (big.len() as u64) <= ludic::limits::MAX_SOURCE_BYTES {
        big.push_str("# a comment that makes the description long, and nothing else\n");
    }
    let (codes, t) = load_codes(big.clone());
    assert_eq!(codes, vec!["source-too-large"]);
    assert!(t < within(Duration::from_millis(100)), "{t:?}");
    let Err(LoadError::File(d)) = load_game(&big, &Settings::default()) else {
        panic!("refused")
    };
    let text = ludic::diagnostic::render("big.game", &big, &d);
    assert!(
        text.contains(&format!(
            "this description is {} bytes long; a description has at most 1048576",
            big.len()
        )),
        "{text}"
    );
    assert!(text.contains("big.game:1:1"), "{text}");
    // one byte under the cap is loaded as usual
    let mut fits = mini();
    fits.push_str(&" ".repeat(1 << 19));
    assert_eq!(load_codes(fits).0, Vec::<&str>::new());
}

/// Loads `src` on a thread and gives up after `limit` (a load that never returns fails the
/// test instead of hanging it).
fn load_codes_within(src: String, limit: Duration) -> Vec<&'static str> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(load_codes(src).0);
        })
        .unwrap();
    rx.recv_timeout(within(limit))
        .expect("loading returns within its time")
}

#[test]
fn an_empty_range_of_points_is_refused_without_walking_the_other() {
    // Issue 22: `x in 3..2` made 0 points, passed the site limit, and the y loop then ran
    // 9e18 times: `validate` never returned.
    let src = std::fs::read_to_string("tests/fixtures/errors/empty_grid.game").unwrap();
    assert_eq!(
        load_codes_within(src.clone(), Duration::from_secs(5)),
        ["bad-range"]
    );
    // the same with y inverted and x huge
    let swapped = src.replace(
        "x in 3..2, y in 0..9000000000000000000",
        "x in 0..9000000000000000000, y in 3..2",
    );
    assert_eq!(
        load_codes_within(swapped, Duration::from_secs(5)),
        ["bad-range"]
    );
}
