//! Chess (games/chess.game) counted against the known perft numbers of the chess programming
//! wiki: the start position to depth 5, "Kiwipete" (castling both ways, en passant, pins and
//! checks in the middle game) to depth 4, "position 3" (en passant that would expose the king
//! along a rank) to depth 5, and "position 5" (promotions, taking and not, to each of the four
//! pieces) to depth 4. Perft counts complete turns: a promotion is one move (`queen d7 d8`).
//! Depth 5 of Kiwipete (193,690,690; 290 CPU-seconds) is run by hand (`ludic perft FILE 5
//! --max-positions 300000000 --max-work 100000000000`): too slow for the suite. The rules
//! beyond the moves (repetition, the 100-move clock, insufficient material, mate and
//! stalemate) are compared with OpenSpiel's `chess` in tests/python/test_vs_openspiel.py.

use ludic::gamefile::read_game_file;
use ludic::perft::{PerftLimits, perft_with};
use ludic::{Game, Settings, load_game};

fn game(path: &str) -> Game {
    let src = read_game_file(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn counts(path: &str, want: &[u64]) {
    let g = game(path);
    let st = g.start();
    for (i, &n) in want.iter().enumerate() {
        let depth = i as u32 + 1;
        // deeper than the command's default limits allow
        let limits = PerftLimits {
            positions: 10_000_000,
            work: 100 * PerftLimits::default().work,
        };
        assert_eq!(
            perft_with(&g, &st, depth, limits).unwrap(),
            n,
            "{path}: perft({depth})"
        );
    }
}

#[test]
fn the_start_position_has_the_known_perft_counts() {
    counts("games/chess.game", &[20, 400, 8902, 197_281, 4_865_609]);
}

#[test]
fn kiwipete_has_the_known_perft_counts() {
    counts(
        "tests/fixtures/chess/kiwipete.game",
        &[48, 2039, 97_862, 4_085_603],
    );
}

#[test]
fn position_3_has_the_known_perft_counts() {
    counts(
        "tests/fixtures/chess/position3.game",
        &[14, 191, 2812, 43_238, 674_624],
    );
}

#[test]
fn position_5_has_the_known_perft_counts() {
    counts(
        "tests/fixtures/chess/position5.game",
        &[44, 1486, 62_379, 2_103_487],
    );
}
