//! Tests of fixed sets for pieces joined by `or` (`count(A) == 0 or count(B) > 0 or …`),
//! compiled as one closure reading the index of the sites with pieces (`any_emptiness`),
//! against the same tests compiled one by one as written (`count` of the set's pieces): the
//! same decisions and outcomes in random play, never more work, on a board of one word of
//! sites and on one of two.

use crate::engine::compile::FUSED_EMPTINESS;

/// The game loaded with its conditions compiled as written (`written`), or not; and the
/// number of forms compiled.
fn load(text: &str, written: bool) -> (crate::Game, usize) {
    super::load_counting(text, written, &FUSED_EMPTINESS)
}

/// Two rows of `n` holes; pieces are put in and taken out, and `or`s of two and of three
/// tests of the regions decide a capture at the start of each turn, whether taking is
/// allowed and whether one may pass (and an `and` of two tests, each compiled on its own,
/// whether a piece is put back).
fn game(n: usize) -> String {
    format!(
        r#"
game "Empties" {{ }}
sides A B
limit 60 turns
board {{
  row a[1..{n}] at y 0 owner A
  row b[1..{n}] at y 1 owner B
  region left = a[1..3] b[1..3]
  region right = a[4..{n}]
  region far = b[4..{n}]
  region mid = a[2..3] b[5..6]
}}
pieces {{ seed }}
start {{
  place 1 seed on left
  first A
}}
turn {{
  if count(left) == 0 or count(mid) <= 0 or count(far) >= 1 {{
    capture right
  }}
  if count(right) == 0 and count(far) > 0 {{
    place 1 seed on a4
  }}
  choose {{
    put h where owner(h) == mover and count(h) < 2 {{
      place 1 seed on h
    }}
    take h where count(h) > 0 and (count(left) == 0 or count(far) != 0) {{
      capture h
    }}
    pass where count(right) < 1 or count(far) > 0 or count(mid) == 0
  }} else {{
    end game winner opponent "no move"
  }}
}}
"#
    )
}

#[test]
fn an_or_of_tests_for_pieces_plays_as_the_tests_one_by_one() {
    for n in [8, 40] {
        let text = game(n);
        let (fused, count) = load(&text, false);
        let (written, none) = load(&text, true);
        // the `if`'s and `pass`'s (the one in `take`'s condition is part of a question over
        // the sites, planned with it)
        assert_eq!((count, none), (2, 0), "the `or`s compiled as one, n = {n}");
        // a word of the index a test, not a site of the set a site (never more)
        let (positions, outcomes, seen, less) = super::played_alike(&fused, &written, 40, 60);
        assert!(positions > 1000, "{positions} positions, n = {n}");
        assert!(
            less > positions / 2,
            "less work in {less} of {positions} positions"
        );
        assert_eq!(outcomes.len(), 40);
        // taking and passing are offered in some positions (and not in all: `put` is always)
        assert!(seen[..3].iter().all(|&k| k > 20), "{seen:?}, n = {n}");
        assert!(
            seen[1] < seen[0] && seen[2] < positions,
            "{seen:?}, n = {n}"
        );
    }
}
