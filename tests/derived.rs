//! Games built on others (`game "…" from "base.game"`): a derived file gives the same game as
//! the built-in variant it copies (the same random games, the same perft counts), and its
//! errors name the right file.

mod common;
use common::{Lcg, random_step};
use ludic::diagnostic::render;
use ludic::gamefile::read_game_file;
use ludic::{Game, LoadError, Settings, load_game};

fn derived(path: &str) -> (String, Game) {
    let src = read_game_file(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let g = load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    (src, g)
}

fn seven_holes_builtin() -> Game {
    common::game_with("ceelkoqyuqkoqiji", &[], Some("seven holes"))
}

#[test]
fn the_derived_file_plays_the_same_random_games_as_the_variant() {
    for path in [
        "tests/fixtures/derived/seven-holes.game",
        "tests/fixtures/derived/from-builtin.game",
    ] {
        let (_, d) = derived(path);
        let b = seven_holes_builtin();
        assert_eq!(d.title(), "Seven holes");
        assert_eq!(d.about().based_on, Some("Ceelkoqyuqkoqiji"));
        for seed in 0..12u64 {
            let (mut sd, mut sb) = (d.start(), b.start());
            let (mut rd, mut rb) = (Lcg(seed), Lcg(seed));
            let mut steps = 0;
            while !sb.is_over() && steps < 3000 {
                assert_eq!(
                    d.legal_notations(&sd),
                    b.legal_notations(&sb),
                    "{path} seed {seed} step {steps}"
                );
                random_step(&d, &mut sd, &mut rd);
                random_step(&b, &mut sb, &mut rb);
                assert_eq!(sd, sb, "{path} seed {seed} step {steps}");
                steps += 1;
            }
            assert_eq!(sd.outcome(), sb.outcome(), "{path} seed {seed}");
        }
    }
}

#[test]
fn the_derived_file_has_the_variant_s_perft_counts() {
    let (_, d) = derived("tests/fixtures/derived/seven-holes.game");
    let b = seven_holes_builtin();
    // Ceelkoqyuqkoqiji has no dice: only the first player is drawn (a chance node at the
    // start), then every step is a decision
    assert!(d.all_dice().next().is_none() && b.all_dice().next().is_none());
    let outcomes = d.chance_outcomes(&d.start());
    assert_eq!(outcomes, b.chance_outcomes(&b.start()));
    for &(first, _) in &outcomes {
        let (mut sd, mut sb) = (d.start(), b.start());
        d.play_chance(&mut sd, first).unwrap();
        b.play_chance(&mut sb, first).unwrap();
        for depth in 1..=3 {
            let pd = ludic::perft::perft(&d, &sd, depth).unwrap();
            let pb = ludic::perft::perft(&b, &sb, depth).unwrap();
            assert_eq!(pd, pb, "first {first} depth {depth}");
            assert!(pd > 0);
        }
    }
}

#[test]
fn a_missing_base_is_an_error_at_the_from() {
    let e = read_game_file("tests/fixtures/derived/missing-base.game").unwrap_err();
    assert!(
        e.contains("the base `no-such-base.game` is neither a file"),
        "{e}"
    );
    assert!(
        e.contains("tests/fixtures/derived/missing-base.game:2:18"),
        "{e}"
    );
}

#[test]
fn a_circle_of_bases_is_an_error() {
    let e = read_game_file("tests/fixtures/derived/cycle-a.game").unwrap_err();
    assert!(e.contains("built on each other in a circle"), "{e}");
    assert!(
        e.contains("cycle-a.game -> tests/fixtures/derived/cycle-b.game -> tests/fixtures/derived/cycle-a.game\n"),
        "{e}"
    );
}

#[test]
fn an_error_in_the_base_names_the_base() {
    let src = read_game_file("tests/fixtures/derived/on-bad-base.game").unwrap();
    let Err(LoadError::File(d)) = load_game(&src, &Settings::default()) else {
        panic!("expected an error");
    };
    let shown = render("tests/fixtures/derived/on-bad-base.game", &src, &d);
    assert!(shown.contains("unknown function `oposite`"), "{shown}");
    assert!(
        shown.contains("--> tests/fixtures/derived/bad-base.game:15:47"),
        "{shown}"
    );
    assert!(shown.contains("capture oposite(e)"), "{shown}");
}

#[test]
fn special_files_are_not_read_as_bases() {
    // a FIFO, a device, a folder: only a regular file is a base (nothing can hang the reader)
    for base in ["/dev/zero", "/dev/null", "/tmp", "/dev/stdin"] {
        let e = ludic::gamefile::read_base(base, "x.game").unwrap_err();
        assert!(e.contains("neither a file"), "{base}: {e}");
    }
}

#[test]
fn a_fifo_as_a_base_is_refused_without_waiting() {
    let dir = std::env::temp_dir().join(format!("ludic-derived-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.game");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no `mkfifo` here
    }
    let game = dir.join("on-fifo.game");
    std::fs::write(&game, "game \"F\" from \"fifo.game\" { }\n").unwrap();
    let e = read_game_file(game.to_str().unwrap()).unwrap_err();
    assert!(e.contains("neither a file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_derived_text_without_its_base_read_is_an_error() {
    let src = std::fs::read_to_string("tests/fixtures/derived/seven-holes.game").unwrap();
    let Err(LoadError::File(d)) = load_game(&src, &Settings::default()) else {
        panic!("expected an error");
    };
    assert!(d.0.iter().any(|x| x.code() == "base-game"), "{d:?}");
}

#[test]
fn a_redeclared_option_and_a_replaced_block() {
    // (through the public API: the base is the built-in game, found by its name)
    let derived = "game \"Short\" from \"ceelkoqyuqkoqiji\" { }\noption max_turns = 50 in 1..60 \"a short game\"\nlimit 10 turns\n";
    let g = ludic::load(
        &ludic::Source::Text(derived.to_string()),
        &Settings::default(),
    )
    .unwrap();
    let o = g.all_options().find(|o| o.name == "max_turns").unwrap();
    assert_eq!(o.value, "50");
    let changes = g.about().changes;
    assert!(
        changes.contains(&"option max_turns redeclared (2000 -> 50)".to_string()),
        "{changes:?}"
    );
    assert!(
        changes.contains(&"limit replaced".to_string()),
        "{changes:?}"
    );
}
