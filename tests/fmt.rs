//! `ludic fmt` (issue 26): the formatter's properties on every game of `games/`, every
//! `.game` under `tests/fixtures/` that parses (the fuzz corpus among them) and messy
//! layouts of them all: formatting is idempotent, keeps the syntax tree (spans left out),
//! keeps every comment in order, and the formatted file validates exactly as the original;
//! the shipped games are formatted; the canonical layout on small examples; the command.

#[path = "common/run.rs"]
mod run;

use std::path::Path;

/// Every `.game` file of `games/` and, at any depth, of `tests/fixtures/`: (path, text).
fn corpus() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "game")
                && let Ok(text) = std::fs::read_to_string(&p)
            {
                out.push((p.display().to_string(), text));
            }
        }
    }
    let mut out = vec![];
    walk(Path::new("games"), &mut out);
    walk(Path::new("tests/fixtures"), &mut out);
    out
}

/// What `validate` says of a text, positions left out: the errors' and warnings' kinds, the
/// errors of options, each variant's.
fn validation(text: &str) -> String {
    let kinds = |d: &ludic::diagnostic::Diagnostics| {
        d.0.iter()
            .map(|d| format!("{:?} {:?}", d.severity, d.kind))
            .collect::<Vec<_>>()
    };
    let of = |r: &ludic::LoadError| match r {
        ludic::LoadError::File(d) => format!("{:?}", kinds(d)),
        ludic::LoadError::Options(e) => format!("{e:?}"),
    };
    let v = ludic::validate(text);
    let game = match &v.game {
        Ok(g) => format!("ok {}", g.title()),
        Err(e) => of(e),
    };
    let variants: Vec<String> = v
        .variants
        .iter()
        .map(|(n, e)| format!("{n}: {}", of(e)))
        .collect();
    format!(
        "{game}\nwarnings {:?}\nvariants {variants:?}",
        kinds(&v.warnings)
    )
}

/// The first line where two texts differ, for a readable failure.
fn first_difference(a: &str, b: &str) -> String {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    for i in 0..la.len().max(lb.len()) {
        let (x, y) = (la.get(i), lb.get(i));
        if x != y {
            return format!("line {}:\n  {x:?}\n  {y:?}", i + 1);
        }
    }
    "(same lines, different ends)".to_string()
}

/// The four properties for one text; `false` when it does not parse (then the formatter must
/// refuse it too).
fn check_properties(name: &str, text: &str) -> bool {
    let formatted = match ludic::format(text) {
        Ok(f) => f,
        Err(_) => {
            assert!(
                ludic::syntax_tree(text).is_err(),
                "{name}: the formatter refused a text that parses"
            );
            return false;
        }
    };
    let again = ludic::format(&formatted).unwrap_or_else(|d| {
        panic!("{name}: the formatted text does not parse: {d:?}\n{formatted}")
    });
    assert!(
        again == formatted,
        "{name}: not idempotent, {}",
        first_difference(&formatted, &again)
    );
    let (before, after) = (ludic::syntax_tree(text), ludic::syntax_tree(&formatted));
    assert!(
        before.as_ref().ok() == after.as_ref().ok(),
        "{name}: another syntax tree once formatted\n{}",
        first_difference(
            &before.unwrap_or_default().replace(", ", ",\n"),
            &after.unwrap_or_default().replace(", ", ",\n")
        )
    );
    assert_eq!(
        ludic::comments(text),
        ludic::comments(&formatted),
        "{name}: the comments changed"
    );
    assert_eq!(
        validation(text),
        validation(&formatted),
        "{name}: validates differently once formatted"
    );
    assert!(
        formatted.is_empty() || formatted.ends_with('\n'),
        "{name}: no final newline"
    );
    for (i, line) in formatted.lines().enumerate() {
        assert_eq!(line.trim_end(), line, "{name}:{}: trailing blanks", i + 1);
    }
    assert!(
        !formatted.contains("\n\n\n"),
        "{name}: a run of blank lines"
    );
    true
}

#[test]
fn every_game_and_fixture_keeps_its_tree_comments_and_errors() {
    let files = corpus();
    let mut parsed = 0;
    for (name, text) in &files {
        parsed += usize::from(check_properties(name, text));
    }
    // the five games, the fixtures that parse, the fuzz corpus
    assert!(parsed >= 60, "only {parsed} of {} files parse", files.len());
    let fuzz = files
        .iter()
        .filter(|(n, t)| n.contains("fixtures/fuzz/") && ludic::syntax_tree(t).is_ok())
        .count();
    assert!(fuzz >= 5, "the fuzz corpus: {fuzz} files parse");
}

/// The layout of a text with its blanks changed (strings and comments kept): every blank run
/// made one space (a line break after a comment), or each made a line break and some
/// indentation, sometimes a blank line.
fn relayout(text: &str, spread: bool) -> String {
    let mut out = String::new();
    let mut chars = text.char_indices().peekable();
    let mut k = 0usize;
    let mut in_comment = false;
    while let Some((at, c)) = chars.next() {
        if in_comment {
            out.push(c);
            in_comment = c != '\n';
            continue;
        }
        match c {
            '#' => {
                in_comment = true;
                out.push(c);
            }
            '"' => {
                let rest = &text[at..];
                let len = match rest.strip_prefix("\"\"\"") {
                    Some(long) => long.find("\"\"\"").map_or(rest.len(), |n| n + 6),
                    None => rest[1..].find(['"', '\n']).map_or(rest.len(), |n| n + 2),
                };
                out.push_str(&rest[..len]);
                while chars.peek().is_some_and(|&(i, _)| i < at + len) {
                    chars.next();
                }
            }
            c if c.is_whitespace() => {
                while chars.peek().is_some_and(|&(_, c)| c.is_whitespace()) {
                    chars.next();
                }
                k += 1;
                if spread {
                    out.push_str(if k.is_multiple_of(11) { "\n\n" } else { "\n" });
                    out.push_str(&" ".repeat(k % 7));
                } else {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[test]
fn messy_layouts_format_to_the_same_tree() {
    for (name, text) in corpus() {
        let Ok(tree) = ludic::syntax_tree(&text) else {
            continue;
        };
        for spread in [false, true] {
            let messy = relayout(&text, spread);
            let label = format!("{name} (relaid, spread {spread})");
            assert_eq!(
                ludic::syntax_tree(&messy).ok().as_ref(),
                Some(&tree),
                "{label}: the test's relayout changed the tree"
            );
            assert!(check_properties(&label, &messy));
        }
    }
}

#[test]
fn the_shipped_games_are_formatted() {
    for (name, text) in corpus().iter().filter(|(n, _)| n.starts_with("games")) {
        let formatted = ludic::format(text).expect("a shipped game parses");
        assert!(
            &formatted == text,
            "{name} is not formatted ({}): run `cargo run --release -- fmt games/*.game`",
            first_difference(text, &formatted)
        );
    }
}

fn fmt(text: &str) -> String {
    ludic::format(text).unwrap_or_else(|d| panic!("{d:?}\n{text}"))
}

#[test]
fn spacing_and_indentation() {
    let text = "sides South North\nboard{row s[ 1 .. 7 ]at y 0 owner South\n  region k=s4}\n\
                def f( h ,p )=count(h)+ -1*(p%2)>=size([s1  s2])\n\
                turn{ if not exists h where f(h,mover){end game}\n capture (h where f(h, 1)) keep -1\n}\n";
    assert_eq!(
        fmt(text),
        "sides South North\n\nboard {\n  row s[1..7] at y 0 owner South\n  region k = s4\n}\n\n\
         def f(h, p) = count(h) + -1 * (p % 2) >= size([s1 s2])\n\nturn {\n  \
         if not exists h where f(h, mover) { end game }\n  capture (h where f(h, 1)) keep -1\n}\n"
    );
}

#[test]
fn comments_stay_where_they_were() {
    let text = "# the file\n\n\n# about sides\nsides South North   # two\nturn {\n# first\n  end turn # done\n\n\n  again\n  # last\n}\n";
    assert_eq!(
        fmt(text),
        "# the file\n\n# about sides\nsides South North  # two\n\nturn {\n  # first\n  end turn  # done\n\n  again\n  # last\n}\n"
    );
}

#[test]
fn a_comment_is_indented_with_the_code_after_it() {
    let text = "ludic 1\nsides South North\nturn {\n  if true { again }\n  # why else\n  else {\n    end turn  # t\n  # end\n  }\n}\n";
    assert_eq!(
        fmt(text),
        "ludic 1\nsides South North\n\nturn {\n  if true { again }\n  # why else\n  else {\n    end turn  # t\n    # end\n  }\n}\n"
    );
}

#[test]
fn blocks_of_one_statement_may_stay_on_one_line() {
    // written on one line: kept; two statements, or written over lines: opened
    let text = "sides South North\nturn {\n  if true { end turn }\n  if false { again end turn }\n  if true {\n end game }\n}\n";
    assert_eq!(
        fmt(text),
        "sides South North\n\nturn {\n  if true { end turn }\n  if false {\n    again\n    end turn\n  }\n  if true {\n    end game\n  }\n}\n"
    );
}

#[test]
fn blank_lines_between_items() {
    // one-line items together stay together; a blank line around an item of several lines
    let text = "option a = 1\noption b = 2\n\n\n\noption c = 3\nsides South North\nturn { end turn\n again }\nlimit 10 turns\n";
    assert_eq!(
        fmt(text),
        "option a = 1\noption b = 2\n\noption c = 3\nsides South North\n\nturn {\n  end turn\n  again\n}\n\nlimit 10 turns\n"
    );
}

#[test]
fn long_lines_are_wrapped() {
    let names: Vec<String> = (1..=40).map(|i| format!("site{i}")).collect();
    let text = format!(
        "sides South North\nboard {{\n  row {} at y 0\n}}\ndef long(h) = count(h) > 100000 and owner(h) == mover and count(h) < 2000000 or kind(h) == hole and owner(h) != mover\n",
        names.join(" ")
    );
    let out = fmt(&text);
    for line in out.lines() {
        assert!(line.len() <= 100, "{line}");
    }
    assert!(out.contains("\n  row site1 site2 "), "{out}");
    assert!(out.contains("\n    site"), "a hanging indent: {out}");
    assert!(
        out.contains(
            "def long(h) = count(h) > 100000 and owner(h) == mover and count(h) < 2000000\n  or kind(h)"
        ),
        "broken before the outermost `or`: {out}"
    );
}

#[test]
fn strings_are_kept_byte_for_byte() {
    let text = "game \"A  b\" {\n  summary \"\"\"\n   two  spaces,   kept\n\t  \"\"\"\n}\nsides South North\n";
    let out = fmt(text);
    assert!(out.contains("\"A  b\""));
    assert!(
        out.contains("\"\"\"\n   two  spaces,   kept\n\t  \"\"\""),
        "{out}"
    );
}

#[test]
fn a_text_that_does_not_parse_is_refused() {
    let d = ludic::format("sides South North\nturn { end turn\n").unwrap_err();
    assert!(!d.0.is_empty());
}

/// `ludic ARGS` with a standard input: its exit code, standard output and standard error.
fn ludic(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = run::ludic(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn the_command() {
    let dir = std::env::temp_dir().join(format!("ludic-fmt-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let messy = "sides South North\nturn {\n  end turn   # done\n}\n";
    let clean = "sides South North\n\nturn {\n  end turn  # done\n}\n";
    let file = dir.join("a.game");
    let path = file.to_str().expect("a path");
    std::fs::write(&file, messy).expect("written");

    // --check: a diff, exit 1, the file unchanged
    let (code, out, _) = ludic(&["fmt", "--check", path], "");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("-  end turn   # done\n+  end turn  # done"),
        "{out}"
    );
    assert!(
        out.starts_with(&format!("--- {path}\n+++ {path}\n")),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), messy);

    // in place, then --check passes
    let (code, out, err) = ludic(&["fmt", path], "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), clean);
    assert_eq!(ludic(&["fmt", "--check", path], "").0, 0);
    let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").flatten().collect();
    assert_eq!(left.len(), 1, "no temporary file left");

    // standard input to standard output
    let (code, out, _) = ludic(&["fmt", "-"], messy);
    assert_eq!((code, out.as_str()), (0, clean));
    assert_eq!(ludic(&["fmt", "--check", "-"], messy).0, 1);

    // a file that does not parse: its errors as validate prints them, exit 2, unchanged
    let bad = dir.join("bad.game");
    std::fs::write(&bad, "sides South North\nturn { end turn\n").expect("written");
    let bad_path = bad.to_str().expect("a path");
    let (code, _, err) = ludic(&["fmt", bad_path], "");
    assert_eq!(code, 2, "{err}");
    let (_, _, validate_err) = ludic(&["validate", bad_path], "");
    assert_eq!(err, validate_err);
    assert!(err.contains(&format!("{bad_path}:")), "{err}");

    // no file: said so
    let (code, _, err) = ludic(&["fmt"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no file given"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
