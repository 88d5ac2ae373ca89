//! Choices of a piece and a site two steps on (`to q in jumps(site(t))`) whose condition reads
//! the pair only as the site between (`between(site(t), q)`): that part answered by the
//! board's bits once per listing (`CAlt::middle`), the pairs tested by their bits and the walk
//! started from the token's site read in place (`CAlt::from_first`), against
//! the conditions compiled as written: the same decisions, chances and outcomes (faults
//! included) in random play, and never more work.

use super::an_argument_evaluated_once::same_play_with;
use crate::engine::compile::AS_WRITTEN;

/// The game loaded with its conditions compiled as written (`written`), or not.
fn load(text: &str, written: bool) -> crate::Game {
    AS_WRITTEN.with(|c| c.set(written));
    let game = crate::load(&crate::Source::infer(text), &crate::Settings::default());
    AS_WRITTEN.with(|c| c.set(false));
    game.unwrap_or_else(|e| panic!("the game loads: {e:?}"))
}

/// The alternatives whose site between is answered by bits.
fn middles(game: &crate::Game) -> usize {
    game.prog
        .choices
        .iter()
        .flat_map(|c| &c.alts)
        .filter(|a| a.middle.is_some())
        .count()
}

/// An alquerque of 5 x 4 points: steps, hops over an enemy (the site between read through
/// `between(site(t), q)`, after a part of the second site that faults at one site), leaps
/// over any piece but onto a column other than the middle one, and, not planned so, pushes
/// whose condition reads the pair in another way before the site between (`x(site(t)) !=
/// x(q)`: a test of the pair as written) and hops that read the site between of another
/// origin.
const GAME: &str = r#"
game "Pairs" { }
sides A B
limit 60 turns
board {
  points for x in 0..4, y in 0..3
  links (1, 0) (0, 1) (1, 1) (1, -1)
  area captured
}
pieces { man tokens 20 }
start {
  place 1 man on (p where y(p) < 1 or (y(p) == 1 and x(p) < 2)) for A
  place 1 man on (p where y(p) > 2 or (y(p) == 2 and x(p) > 2)) for B
}
def mine(t) = owner(t) == mover and site(t) != none
def open(q) = top(q) == none
def enemy_at(s) = owner(top(s)) == opponent
turn {
  choose {
    step token t to q in neighbours(site(t)) where mine(t) and open(q) { move t onto q }
    hop token t to q in jumps(site(t)) where mine(t) and open(q) and 12 / (x(q) + y(q) - 7) != 5
        and enemy_at(between(site(t), q)) {
      send top(between(site(t), q)) to captured
      move t onto q
    }
    leap token t to q in jumps(site(t)) where mine(t) and top(between(site(t), q)) != none
        and not enemy_at(between(site(t), q)) and x(q) != 2 and open(q) {
      move t onto q
    }
    push token t to q in jumps(site(t)) where mine(t) and open(q) and x(site(t)) != x(q)
        and top(between(site(t), q)) != none {
      move t onto q
    }
    vault token t to q in jumps(site(t)) where mine(t) and open(q)
        and enemy_at(between(q, site(t))) and y(q) != 1 {
      move t onto q
    }
  }
}
"#;

/// Pairs tested by their bits give the decisions and the faults of the condition as written,
/// with no more work; only the alternatives whose site between is read as such are planned so.
#[test]
fn pairs_over_the_site_between_play_as_written() {
    let (planned, written) = (load(GAME, false), load(GAME, true));
    assert_eq!(middles(&planned), 2, "hop and leap");
    assert_eq!(middles(&written), 0);
    let (mut work, mut written_work) = (0, 0);
    let (positions, outcomes) = same_play_with(&planned, &written, 80, 60, |x, y| {
        assert!(x.r.work <= y.r.work, "{} > {}", x.r.work, y.r.work);
        (work, written_work) = (work + x.r.work, written_work + y.r.work);
    });
    assert!(positions > 1000, "{positions} positions");
    let faults = outcomes.iter().filter(|o| o.contains("Fault")).count();
    assert!(
        faults > 0 && faults < outcomes.len(),
        "some games fault, some do not: {outcomes:?}"
    );
    assert!(work <= written_work, "{work} > {written_work}");
}
