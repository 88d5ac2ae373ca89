//! What a position is for `repeated` and `repetitions` (issue 27): `position pieces [mover]
//! [TALLY …]`, and how many times a position was seen.

mod common;
use common::*;
use ludic::{Game, Settings, load_game};

/// A token steps back and forth between two cells; a tally `flag` may be counted up instead of
/// stepping. The game ends as a draw when the position is seen for the `n`th time.
fn shuttle(position: &str, n: i64) -> Game {
    let src = format!(
        r#"
game "Shuttle" {{}}
sides A B
limit 100 turns
board {{ row c[1..3] at y 0 kind cell  links (1, 0) }}
pieces {{ man tokens 1 }}
tally flag = 0
{position}
start {{ place 1 man on c1 for A  place 1 man on c3 for B }}
turn {{
  if repetitions >= {n} {{ end game draw "seen {n} times before" }}
  choose {{
    step token t to q in neighbours(site(t)) where owner(t) == mover and top(q) == none {{ move t onto q }}
    flip where true {{ set flag = flag + 1 }}
  }}
}}
"#,
        n = n - 1
    );
    load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn ended_after(g: &Game, moves: &[&str]) -> Option<usize> {
    let mut st = g.start();
    for (i, m) in moves.iter().enumerate() {
        if g.is_terminal(&st) {
            return Some(i);
        }
        play(g, &mut st, &[m]);
    }
    g.is_terminal(&st).then_some(moves.len())
}

#[test]
fn the_third_time_a_position_is_seen_is_counted() {
    let g = shuttle("", 3);
    // A steps c1-c2 and back, B c3-c2... the start position (A to move) comes back every 4 moves
    let round = ["step c1 c2", "flip", "step c2 c1", "flip"];
    let moves: Vec<&str> = round.iter().cycle().take(12).copied().collect();
    // seen at the start, after 4 moves, after 8: the third time at move 8
    assert_eq!(ended_after(&g, &moves), Some(8));
}

#[test]
fn a_tally_named_in_the_position_makes_positions_differ() {
    // Each flip counts the flag up: the position comes back only when the flag does not count.
    let moves = ["flip", "flip", "flip", "flip"];
    // default: pieces and mover: after 2 flips (A to move again) the start is seen again
    assert_eq!(ended_after(&shuttle("", 2), &moves), Some(2));
    assert_eq!(
        ended_after(&shuttle("position pieces mover flag", 2), &moves),
        None
    );
    // pieces alone: every position is the start's (the flag and the mover do not count)
    assert_eq!(ended_after(&shuttle("position pieces", 2), &moves), Some(1));
}

#[test]
fn a_board_position_leaves_out_what_players_hold() {
    // A counter goes off the board into a player's holdings and a new one is placed: with
    // `position board`, the board alone counts.
    let src = |position: &str| {
        format!(
            r#"
game "Bank" {{}}
sides A B
limit 100 turns
board {{ row c[1..2] at y 0 kind hole }}
pieces {{ seed }}
{position}
start {{ place 1 seed on c1 }}
turn {{
  if repeated {{ end game draw }}
  choose {{
    take where count(c1) > 0 {{ capture c1 to A }}
    put where count(c1) == 0 {{ place 1 seed on c1 }}
  }}
}}
"#
        )
    };
    // take (A holds the seed), put (a new seed on c1): the start's board again, with A holding one
    let moves = ["take", "put", "take", "put"];
    let g = load_game(&src("position board"), &Settings::default()).unwrap();
    assert_eq!(ended_after(&g, &moves), Some(2));
    // what A holds counts: the board after the second `take` is new too (A holds 2)
    let g = load_game(&src("position pieces"), &Settings::default()).unwrap();
    assert_eq!(ended_after(&g, &moves), None);
}

#[test]
fn a_position_names_only_mover_and_tallies() {
    let src = "game \"X\" {}\nsides A B\nlimit 9 turns\nboard { row c[1..2] at y 0 }\npieces { man }\nposition pieces mover c1\nturn { }\n";
    let e = load_game(src, &Settings::default()).unwrap_err();
    let text = format!("{e:?}");
    assert!(
        text.contains("part of a position") && text.contains("c1"),
        "{text}"
    );
}
