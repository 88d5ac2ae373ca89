//! Questions whose answer depends only on the sites' kinds and owners (and the mover, when
//! they read whose sites are the mover's), kept until a kind or an owner changes
//! (`query/kept.rs`): `exists`, `forall`, `minimum` and `maximum` of a fixed value over the
//! sites of a kind or an owner, against the questions asked anew each time (the conditions
//! compiled as written): the same decisions, chances, outcomes and work, in random play and on
//! copies of the positions played on apart.

use super::an_argument_evaluated_once::same_play_with;
use crate::engine::compile::KEPT;

/// The game loaded with its conditions compiled as written (`written`), or not; and the
/// number of forms compiled.
fn load(text: &str, written: bool) -> (crate::Game, usize) {
    super::load_counting(text, written, &KEPT)
}

/// A board of 4 x 3 points whose lowest row becomes void once empty (the shrinking board of
/// an alquerque: `exists`, `minimum` over the live sites), whose sites are claimed (a change
/// of owner), with decisions that read the mover's sites (`exists`, `maximum` for the mover),
/// the highest and lowest live rows and whether every live site has an owner (`forall`).
const GAME: &str = r#"
game "Kept" { }
sides A B
limit 40 turns
board {
  points for x in 0..4, y in 0..3
  links (1, 0) (0, 1)
}
pieces { disc tokens 40 }
start { first A }
turn {
  if exists s where kind(s) != void {
    let edge = minimum s where kind(s) != void: y(s)
    if not exists s where kind(s) != void and y(s) <= edge and top(s) != none {
      for s in (s where kind(s) != void and y(s) <= edge) { set kind(s) = void }
    }
  }
  choose {
    claim s where kind(s) != void and owner(s) == none and top(s) == none
        and y(s) == (maximum u where kind(u) != void: y(u)) {
      set owner(s) = mover
    }
    put s where kind(s) != void and top(s) == none and ((not exists u where owner(u) == mover)
        or x(s) <= (maximum u where owner(u) == mover: x(u))) {
      place 1 disc on s for mover
    }
    lift s where top(s) != none and y(s) == (minimum u where kind(u) != void: y(u)) {
      capture s keep 0 to mover
    }
    pass where forall u in all: owner(u) != none
  } else {
    end game winner opponent "no move"
  }
}
"#;

/// A question kept by kinds and owners gives the answers and the work of the question asked
/// anew, on the positions of random games and on copies of them played on apart (each copy
/// carries what its original kept).
#[test]
fn questions_kept_by_kinds_and_owners_play_as_asked_anew() {
    let ((kept, n), (anew, none)) = (load(GAME, false), load(GAME, true));
    // exists and minimum in the shrinking; maximum twice and minimum in the choice, the
    // mover's exists, the forall of `pass`
    assert_eq!(n, 7, "the questions kept");
    assert_eq!(none, 0);
    let (mut apart, mut seed) = (0, 1u64);
    let (positions, outcomes) = same_play_with(&kept, &anew, 120, 60, |x, y| {
        assert_eq!(x.r.work, y.r.work, "the same work");
        // a copy of each played on with another decision, then one more
        let (mut x2, mut y2) = (x.clone(), y.clone());
        for _ in 0..2 {
            if x2.is_over() || x2.moves().is_empty() {
                return;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let d = x2.moves()[(seed >> 33) as usize % x2.moves().len()];
            kept.play_unchecked(&mut x2, d);
            anew.play_unchecked(&mut y2, d);
            assert_eq!(x2.moves(), y2.moves(), "the same decisions on a copy");
            assert_eq!(x2.r.work, y2.r.work, "the same work on a copy");
            apart += 1;
        }
    });
    assert!(positions > 3000, "{positions} positions");
    assert!(apart > 3000, "{apart} positions on copies");
    assert_eq!(outcomes.len(), 120);
}
