//! Chess (games/chess.game) counted against the known perft numbers of the chess programming
//! wiki: the start position to depth 4, "Kiwipete" (castling both ways, en passant, pins and
//! checks in the middle game) to depth 3, "position 3" (en passant that would expose the king
//! along a rank) to depth 4, and "position 5" (promotions, taking and not, to each of the four
//! pieces) to depth 3. Perft counts complete turns: a promotion is one move (`queen d7 d8`). Depth 5 of the start (4,865,609) and depth 4 of Kiwipete (4,085,603) are run by hand
//! (`ludic perft FILE N --max-positions … --max-work …`): too slow for the suite. The rules
//! beyond the moves (repetition, the 100-move clock, insufficient material, mate and
//! stalemate) are compared with OpenSpiel's `chess` in tests/python/test_vs_openspiel.py.

use ludic::gamefile::read_game_file;
use ludic::perft::perft;
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
        assert_eq!(perft(&g, &st, depth).unwrap(), n, "{path}: perft({depth})");
    }
}

#[test]
fn the_start_position_has_the_known_perft_counts() {
    counts("games/chess.game", &[20, 400, 8902, 197_281]);
}

#[test]
fn kiwipete_has_the_known_perft_counts() {
    counts("tests/fixtures/chess/kiwipete.game", &[48, 2039, 97_862]);
}

#[test]
fn position_3_has_the_known_perft_counts() {
    counts(
        "tests/fixtures/chess/position3.game",
        &[14, 191, 2812, 43_238],
    );
}

#[test]
fn position_5_has_the_known_perft_counts() {
    counts("tests/fixtures/chess/position5.game", &[44, 1486, 62_379]);
}
