//! Tests of `exists v in SET where c` over rays and steps (sets worked out from a site), with
//! c a conjunction of tests the board's indexes answer in part (`top(q) != none and
//! owner(top(q)) == opponent and count(q, rook) > 0`): each site of the set tested by its bits
//! in the indexes, then by the rest of c only where they pass (`set_meets`), against the same
//! questions compiled as written: the same decisions and outcomes in random play, never more
//! work, on a board of one word of sites and on one of two; and `if mover == A then B else A`
//! read as `opponent`.

use crate::engine::compile::SET_MEETINGS;

/// The game loaded with its conditions compiled as written (`written`), or not; and the
/// number of questions compiled to test their sites by the indexes.
fn load(text: &str, written: bool) -> (crate::Game, usize) {
    super::load_counting(text, written, &SET_MEETINGS)
}

/// An `n` x `n` board where rooks and knights are put, and taken: a rook may not be put
/// where an enemy rook sees it along a line (`seen`, the enemy written `if mover == A then B
/// else A`), a knight only next to a piece of any side but the knights' (`near`, whose first
/// test needs a piece) or next to an empty square off the first two files (`room`, whose
/// first test needs none, and a fixed test); an enemy piece one of the mover's rooks sees
/// may be taken.
fn game(n: usize) -> String {
    let last = n - 1;
    format!(
        r#"
game "Lines" {{ }}
sides A B
limit 80 turns
board {{
  points for x in 0..{last}, y in 0..{last} kind cell
  directions n (0, 1) ne (1, 1) e (1, 0) se (1, -1) s (0, -1) sw (-1, -1) w (-1, 0) nw (-1, 1)
  area off
}}
pieces {{ rook tokens 40  knight tokens 40 }}
def foe = if mover == A then B else A
def seen(a, p) = exists q in rays(a, n, e, s, w) where top(q) != none
  and owner(top(q)) == p and count(q, rook) > 0
def near(a) = exists q in steps(a, ne, se, sw, nw) where count(q) > 0 and count(q, knight) == 0
def room(a) = exists q in steps(a, n, e, s, w) where top(q) == none and x(q) > 1
start {{ first A }}
turn {{
  choose {{
    rook s where top(s) == none and not seen(s, foe) {{ place 1 rook on s for mover }}
    knight s where top(s) == none and (near(s) or room(s)) {{ place 1 knight on s for mover }}
    take token t where owner(t) == foe and site(t) != none and seen(site(t), mover) {{
      send t to off
    }}
  }} else {{
    end game draw "no move"
  }}
}}
"#
    )
}

#[test]
fn questions_over_rays_and_steps_tested_by_the_indexes_play_as_written() {
    for n in [8, 10] {
        let text = game(n);
        let (fast, count) = load(&text, false);
        let (written, none) = load(&text, true);
        // `seen` twice (in `rook` and in `take`), `near` and `room`
        assert_eq!(
            (count, none),
            (4, 0),
            "questions tested by the indexes, n = {n}"
        );
        let (positions, outcomes, seen, _) = super::played_alike(&fast, &written, 40, 80);
        assert!(positions > 2000, "{positions} positions, n = {n}");
        assert_eq!(outcomes.len(), 40);
        // rooks, knights and takings are offered
        assert!(seen[..3].iter().all(|&k| k > 100), "{seen:?}, n = {n}");
    }
}

/// `if mover == A then B else A` is the opponent with two sides, and `if mover != A then B
/// else A` the mover: both read as such (an index kept for them), a choice of another player
/// stays as written.
#[test]
fn a_player_chosen_by_the_mover_reads_as_the_mover_or_the_opponent() {
    let text = |p: &str| {
        format!(
            r#"
game "Who" {{ }}
sides A B C
limit 4 turns
board {{ row a[1..3] at y 0 }}
pieces {{ seed }}
start {{ first A }}
turn {{
  if {p} == B {{ place 1 seed on a1 }}
  choose {{ put h where count(h) == 0 {{ place 1 seed on h }} }} else {{ end game draw "full" }}
}}
"#
        )
    };
    let lowered = |p: &str| {
        let game = crate::load_game(&text(p), &crate::Settings::default()).expect("loads");
        format!("{:?}", game.ir().code)
    };
    // three sides: B is the opponent of A, C of B, A of C
    assert!(
        lowered("(if mover == A then B else if mover == B then C else A)").contains("Opponent")
    );
    assert!(lowered("(if mover == A then A else if mover == B then B else C)").contains("Mover"));
    let other = lowered("(if mover == A then C else A)");
    assert!(
        !other.contains("Opponent") && other.contains("If("),
        "{other}"
    );
}
