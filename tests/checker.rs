//! The checker: every error kind's rendered message is pinned (tests/fixtures/errors/*.game
//! with the expected output beside it in *.out; `UPDATE_EXPECT=1 cargo test` rewrites them),
//! all errors of a file come in one run, and no input makes the front end panic.

mod common;
use common::Lcg;
use ludic::diagnostic::render;
use ludic::{LoadError, Settings, load_game};
use std::collections::BTreeSet;
use std::path::Path;

/// The errors and warnings of a file (a file of warnings only is valid, and pinned too).
fn diagnostics(path: &str) -> (String, ludic::diagnostic::Diagnostics) {
    let src = std::fs::read_to_string(path).unwrap();
    let (result, warnings) = ludic::load_game_with_warnings(&src, &Settings::default());
    let mut d = match result {
        Err(LoadError::File(d)) => d,
        Ok(_) if !warnings.is_empty() => Default::default(),
        other => panic!(
            "{path}: expected diagnostics, got {:?}",
            other.map(|g| g.title().to_string())
        ),
    };
    d.0.extend(warnings.0);
    (src, d.sorted())
}

#[test]
fn every_error_kind_has_its_message_pinned() {
    let dir = Path::new("tests/fixtures/errors");
    let mut kinds = BTreeSet::new();
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("game") {
            continue;
        }
        let p = path.to_str().unwrap().to_string();
        let (src, d) = diagnostics(&p);
        kinds.extend(d.0.iter().map(|x| x.code()));
        let rendered = render(&p, &src, &d);
        let expected_path = path.with_extension("out");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expected_path, &rendered).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "missing {}: run with UPDATE_EXPECT=1",
                expected_path.display()
            )
        });
        assert_eq!(rendered, expected, "rendered diagnostics of {p} changed");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} fixtures");
    let all = [
        "syntax",
        "unknown-name",
        "duplicate",
        "missing",
        "too-many",
        "type",
        "out-of-range",
        "bad-option-value",
        "arity",
        "misplaced",
        "bad-range",
        "requirement",
        "length",
        "ring-repeat",
        "bad-target",
        "division-by-zero",
        "overflow",
        "recursive",
        "too-large",
        "too-deep",
        "name-too-long",
        "too-large-expansion",
        "ambiguous-notation",
        "empty-description",
        "unclosed",
        "line-repeat",
        "unknown-type",
        "let-type",
        "shadow",
        "scope",
        "base-game",
        "version",
    ];
    for k in all {
        assert!(kinds.contains(k), "no fixture for the error kind `{k}`");
    }
}

#[test]
fn ten_errors_of_ten_kinds_in_one_run_sorted_by_position() {
    let (_, d) = diagnostics("tests/fixtures/ten_errors.game");
    assert_eq!(d.len(), 10, "{d:#?}");
    let codes: BTreeSet<&str> = d.0.iter().map(|x| x.code()).collect();
    let messages: BTreeSet<String> = d.0.iter().map(|x| x.to_string()).collect();
    assert!(codes.len() >= 8, "{codes:?}");
    assert_eq!(messages.len(), 10);
    let starts: Vec<usize> = d.0.iter().map(|x| x.span.start).collect();
    let mut sorted = starts.clone();
    sorted.sort();
    assert_eq!(starts, sorted, "diagnostics are sorted by position");
}

#[test]
fn shipped_games_and_fixtures_are_valid() {
    for (name, src) in ludic::builtin::GAMES {
        let g = load_game(src, &Settings::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        for v in g.all_variants() {
            let s = Settings {
                variant: Some(v.name.to_string()),
                sets: vec![],
            };
            load_game(src, &s).unwrap_or_else(|e| panic!("{name} / {}: {e:?}", v.name));
        }
        let from_disk = std::fs::read_to_string(format!("games/{name}.game")).unwrap();
        assert_eq!(&from_disk, src, "the embedded copy is the games/ file");
    }
    let src = std::fs::read_to_string("tests/fixtures/valid_mini.game").unwrap();
    load_game(&src, &Settings::default()).unwrap();
}

#[test]
fn bad_user_options_are_reported_with_the_range_or_a_suggestion() {
    let (_, src) = ludic::builtin::find("ceelkoqyuqkoqiji").unwrap();
    let cases = [
        (
            vec!["holes=99"],
            None,
            "option `holes` = 99 is out of range 2..12",
        ),
        (
            vec!["hole=5"],
            None,
            "unknown option `hole`: did you mean `holes`?",
        ),
        (
            vec!["holes=many"],
            None,
            "option `holes` cannot be `many`: expected a number in 2..12",
        ),
        (
            vec![],
            Some("seven hole"),
            "unknown variant `seven hole`: did you mean `seven holes`?",
        ),
    ];
    for (sets, variant, msg) in cases {
        let mut s = Settings {
            variant: variant.map(str::to_string),
            sets: vec![],
        };
        for x in sets {
            s.push_assignment(x).unwrap();
        }
        assert_eq!(
            load_game(src, &s).err(),
            Some(LoadError::Options(vec![msg.to_string()]))
        );
    }
    assert!(Settings::default().push_assignment("holes").is_err());
}

#[test]
fn no_input_makes_the_front_end_panic() {
    let pieces = [
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "..",
        "-",
        "0",
        "99999999999999999999",
        "\"",
        "#",
        "\n",
        " ",
        "where",
        "sow",
        "if",
        "x",
        "s1",
        "all",
        "not",
        "opposite(",
        "count(",
        "next(",
        "=",
        "==",
        "/ 0",
        "again",
        "relay",
        "in",
    ];
    let mut rng = Lcg(42);
    for (_, src) in ludic::builtin::GAMES {
        // Every prefix (on char boundaries, a stride apart).
        for cut in (0..src.len()).step_by(37) {
            if src.is_char_boundary(cut) {
                let _ = load_game(&src[..cut], &Settings::default());
            }
        }
        // Random insertions and deletions.
        for _ in 0..400 {
            let mut s = src.to_string();
            for _ in 0..1 + rng.below(4) {
                let mut at = rng.below(s.len());
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                if rng.below(2) == 0 {
                    s.insert_str(at, pieces[rng.below(pieces.len())]);
                } else {
                    let mut end = (at + rng.below(8)).min(s.len());
                    while !s.is_char_boundary(end) {
                        end -= 1;
                    }
                    s.replace_range(at..end, "");
                }
            }
            if let Ok(g) = load_game(&s, &Settings::default()) {
                // A mutated game that still loads must also play without panicking.
                let mut st = g.start();
                for _ in 0..200 {
                    if st.is_over() {
                        break;
                    }
                    if st.moves().is_empty() {
                        let outs = g.chance_outcomes(&st);
                        if outs.is_empty() {
                            break;
                        }
                        let _ = g.play_chance(&mut st, outs[0].0);
                    } else {
                        let d = st.moves()[rng.below(st.moves().len())];
                        g.play(&mut st, d).unwrap();
                    }
                }
            }
        }
    }
}

#[test]
fn every_label_of_every_built_in_game_is_described() {
    for (name, src) in ludic::builtin::GAMES {
        let g = load_game(src, &Settings::default()).unwrap();
        assert!(g.all_labels().next().is_some(), "{name}");
        for l in g.all_labels() {
            let doc = l.doc.unwrap_or("");
            assert!(
                !doc.is_empty(),
                "{name}: label `{}` has no description",
                l.name
            );
            assert!(
                doc.len() <= 100,
                "{name}: `{}`: one short line: {doc}",
                l.name
            );
        }
    }
}

#[test]
fn labels_and_their_descriptions_reach_the_game() {
    // a label described twice with the same text is accepted; every label of the choices is
    // in the game, the described ones first (in the order of `labels`), then the others
    let src = std::fs::read_to_string("tests/fixtures/errors/label_described_twice.game").unwrap();
    let same = src.replace(
        "\"sow one of your holes\"",
        "\"sow the seeds of one of your holes\"",
    );
    let g = load_game(&same, &Settings::default()).unwrap();
    let labels: Vec<(&str, Option<&str>)> = g.all_labels().map(|l| (l.name, l.doc)).collect();
    assert_eq!(
        labels,
        [
            ("sow", Some("sow the seeds of one of your holes")),
            ("collect", Some("take a hole of two seeds")),
        ]
    );
    // without descriptions: the labels in the order they are used; a long string is one line
    let start = same.find("labels {").unwrap();
    let bare = load_game(&same[..start], &Settings::default()).unwrap();
    let names: Vec<(&str, Option<&str>)> = bare.all_labels().map(|l| (l.name, l.doc)).collect();
    assert_eq!(names, [("collect", None), ("sow", None)]);
    let long = format!(
        "{}labels {{ sow \"\"\"\n  sow the seeds\n  of a hole\n\"\"\" }}\n",
        &same[..start]
    );
    let g = load_game(&long, &Settings::default()).unwrap();
    assert_eq!(
        g.all_labels().next().unwrap().doc,
        Some("sow the seeds of a hole")
    );
    // in a file whose choices have no label, a description has nothing to describe
    let mini = std::fs::read_to_string("tests/fixtures/valid_mini.game").unwrap();
    let unlabeled = mini.replace("choose sow h where mine(h)", "choose h in s1 s2 s3");
    let unlabeled = format!("{unlabeled}labels {{ sow \"sow a hole\" }}\n");
    match load_game(&unlabeled, &Settings::default()) {
        Err(LoadError::File(d)) => {
            assert_eq!(d.len(), 1, "{d:?}");
            assert_eq!(d.0[0].to_string(), "unknown label `sow`");
            assert_eq!(
                d.0[0].hint.as_deref(),
                Some("no choice of this file has a label")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn warnings_do_not_stop_a_game_and_validate_exits_0_on_them() {
    let path = "tests/fixtures/errors/shadow.game";
    let src = std::fs::read_to_string(path).unwrap();
    // the game loads for every command (`play`, `simulate`… use `load_game`)
    load_game(&src, &Settings::default()).expect("warnings only: the game loads");
    let (_, d) = diagnostics(path);
    assert!(
        d.len() == 3 && d.warnings() == 3 && !d.has_errors(),
        "{d:?}"
    );
    let bin = env!("CARGO_BIN_EXE_ludic");
    let out = std::process::Command::new(bin)
        .args(["validate", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: `let` `n` hides the `let` of the same name"),
        "{err}"
    );
    assert!(err.contains("shadow.game: 3 warnings"), "{err}");
    let out = std::process::Command::new(bin)
        .args(["validate", "--format", "json", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["valid"], true);
    assert_eq!(v[0]["diagnostics"][0]["severity"], "warning");
    assert_eq!(v[0]["diagnostics"][0]["code"], "shadow");
}

#[test]
fn the_cascades_of_issue_21_are_one_error_each() {
    // a missing `sides` line: one error (it gave 32), whose hint is the line to add
    let base = ludic::builtin::find("ceelkoqyuqkoqiji").unwrap().1;
    let no_sides = base.replace("sides South North\n", "");
    let Err(LoadError::File(d)) = load_game(&no_sides, &Settings::default()) else {
        panic!("expected an error");
    };
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d.0[0]
            .hint
            .as_deref()
            .unwrap_or("")
            .contains("`sides South North`")
    );
    // a `let` of the wrong type: one error on its own line (it gave 7, none there)
    let bad_let = base.replace(
        "let c = captured(mover, lubasso)\n",
        "let c = captured(mover, lubasso) > 2\n",
    );
    let Err(LoadError::File(d)) = load_game(&bad_let, &Settings::default()) else {
        panic!("expected an error");
    };
    assert_eq!(d.len(), 1, "{d:?}");
    let at = bad_let.find("captured(mover, lubasso) > 2").unwrap();
    assert_eq!(d.0[0].span.start, at);
    assert_eq!(d.0[0].code(), "let-type");
}
