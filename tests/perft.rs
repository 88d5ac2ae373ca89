//! `ludic::perft` against a walk written here from its definition: every decision played in
//! full (the decisions of each position listed), a sequence counted when its last turn is
//! complete. perft counts the last turn's decisions without listing what follows them
//! (played as a look-ahead plays them); this walk is what that shortcut must equal, on every
//! built-in game without chance events and on the fixtures whose turns have several decisions
//! (`another turn`, chains of captures, drops chosen one by one).

use ludic::gamefile::read_game_file;
use ludic::perft::{PerftError, perft};
use ludic::{Game, Pending, Settings, State, load_game};

/// The number of sequences of exactly `left` complete turns from `st`, playing every decision.
fn reference(g: &Game, st: &State, left: u32) -> u64 {
    if left == 0 {
        return 1;
    }
    match st.pending() {
        Pending::Over(_) => return 0,
        Pending::ChanceFirst | Pending::Throw(_) => panic!("chance events: perft refuses them"),
        Pending::Choice(_) | Pending::Drop(_) => {}
    }
    let mut n = 0;
    for &d in st.moves() {
        let mut child = st.clone();
        g.play_unchecked(&mut child, d);
        let complete = child.is_over() || child.turn() != st.turn();
        n += reference(g, &child, if complete { left - 1 } else { left });
    }
    n
}

/// perft equals the reference at each depth up to `depth`, and up to the first count past
/// `budget` sequences.
fn agrees(name: &str, g: &Game, depth: u32, budget: u64) {
    let st = g.start();
    for d in 1..=depth {
        let n = perft(g, &st, d).unwrap_or_else(|e| panic!("{name}: perft({d}): {e}"));
        if n > budget {
            break;
        }
        assert_eq!(n, reference(g, &st, d), "{name}: perft({d})");
    }
}

/// perft refuses a game with chance events (dice, a random first player).
fn has_chance(g: &Game) -> bool {
    perft(g, &g.start(), 1) == Err(PerftError::Chance)
}

#[test]
fn perft_equals_a_walk_that_plays_every_decision_on_every_built_in_game() {
    let mut counted = vec![];
    for (name, text) in ludic::builtin::GAMES {
        let g = load_game(text, &Settings::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        if has_chance(&g) {
            continue;
        }
        agrees(name, &g, 4, 20_000);
        eprintln!("{name}: agrees");
        counted.push(*name);
    }
    // the games with chance events (dice, sticks) are the ones perft refuses
    assert!(counted.len() >= 8, "counted only {counted:?}");
}

#[test]
fn perft_equals_a_walk_that_plays_every_decision_when_turns_have_several() {
    let mut checked = vec![];
    for path in [
        "tests/fixtures/another_turn.game",
        "tests/fixtures/kalah.game",
        "tests/fixtures/move_limit.game",
        "tests/fixtures/sowing_details.game",
        "tests/fixtures/mechanisms/mill.game",
        "tests/fixtures/mechanisms/feed.game",
        "tests/fixtures/chess/position5.game",
        "tests/compat/authors/three.game",
        "tests/compat/authors/race.game",
    ] {
        let src = read_game_file(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let g = load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        if has_chance(&g) {
            continue;
        }
        agrees(path, &g, 5, 20_000);
        eprintln!("{path}: agrees");
        checked.push(path);
    }
    assert!(checked.len() >= 6, "checked only {checked:?}");
}
