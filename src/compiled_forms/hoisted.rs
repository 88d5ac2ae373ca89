//! A token question's condition compiled with its parts that do not depend on the candidate
//! worked out once per question (`engine/compile/expr/hoist.rs`), `total token x where C: k`
//! counted from the indexed words and a token's `pos` and `site` read in place, against the
//! conditions compiled as written: the same decisions, chances and outcomes (faults
//! included) in random play, and never more work.

use super::an_argument_evaluated_once::same_play_with;
use crate::engine::compile::AS_WRITTEN;
use crate::engine::state::EndReason;

/// The game loaded with its conditions compiled as written (`written`), or not.
fn load(text: &str, written: bool) -> crate::Game {
    AS_WRITTEN.with(|c| c.set(written));
    let game = crate::load(&crate::Source::infer(text), &crate::Settings::default());
    AS_WRITTEN.with(|c| c.set(false));
    game.unwrap_or_else(|e| panic!("the game loads: {e:?}"))
}

/// What random play on both compilations gave.
struct Played {
    positions: usize,
    outcomes: Vec<String>,
    /// the work counted between decisions, summed: compiled so, and as written
    work: u64,
    written_work: u64,
}

/// Plays `games` random games of at most `steps` decisions on `a` and on `written` (the same
/// game compiled as written) with the same choices (`same_play_with`: the same decisions,
/// chances and outcome at every step), checking no more work than as written at every step.
fn same_play(a: &crate::Game, written: &crate::Game, games: u64, steps: usize) -> Played {
    let (mut work, mut written_work) = (0, 0);
    let (positions, outcomes) = same_play_with(a, written, games, steps, |x, y| {
        assert!(x.r.work <= y.r.work, "{} > {}", x.r.work, y.r.work);
        (work, written_work) = (work + x.r.work, written_work + y.r.work);
    });
    Played {
        positions,
        outcomes,
        work,
        written_work,
    }
}

/// A game whose token questions have parts that do not depend on the candidate: `placed > 4`
/// (a count with a weight, read at every candidate), and, in one branch only, a division by
/// zero where the opponent has one disc on the board (often so where the branch is not taken:
/// a fault in some games, not in others, and in more of them if the part were worked out
/// before a candidate reaches it); counts of tokens by the indexes alone (`theirs`) and with a
/// test tried token by token (`right`).
const GAME: &str = r#"
game "Hoisted" { }
sides A B
limit 14 turns
board {
  points for x in 0..3, y in 0..2 kind cell
  links (1, 0) (0, 1)
}
pieces { disc tokens 16 }
def placed = total token u where site(u) != none: 2
def theirs = total token u where owner(u) != mover and site(u) != none: 1
def right = total token u where site(u) != none and x(site(u)) > 1: 3
def spread(s) = exists token t where owner(t) == mover
  and (if placed > 4 then site(t) != s and 10 / (theirs - 1) + right > 1 else site(t) == none)
start { first A }
turn {
  choose {
    put s where top(s) == none and spread(s) { place 1 disc on s for mover }
    pass where true
  }
}
"#;

/// The parts kept once per question give the decisions and the faults of the condition as
/// written, with less work.
#[test]
fn a_part_kept_once_per_question_plays_as_written() {
    let (kept, written) = (load(GAME, false), load(GAME, true));
    let p = same_play(&kept, &written, 60, 40);
    assert!(p.positions > 300, "{} positions", p.positions);
    let faults = p.outcomes.iter().filter(|o| o.contains("Fault")).count();
    assert!(
        faults > 0 && faults < p.outcomes.len(),
        "some games fault, some do not: {:?}",
        p.outcomes
    );
    assert!(p.work < p.written_work, "{} >= {}", p.work, p.written_work);
    let first = kept.start();
    assert!(!matches!(
        first.outcome().map(|o| o.reason),
        Some(EndReason::Fault(_))
    ));
}

/// Every built-in game plays as with its conditions compiled as written, and some take less
/// work (a game whose legal moves ask, for each piece, a question that does not depend on it).
#[test]
fn every_built_in_game_plays_as_with_its_conditions_as_written() {
    let (mut work, mut written_work) = (0, 0);
    for (name, _) in crate::builtin::GAMES {
        let (kept, written) = (load(name, false), load(name, true));
        let p = same_play(&kept, &written, 3, 150);
        assert!(p.positions >= 3, "{name}: {} positions", p.positions);
        (work, written_work) = (work + p.work, written_work + p.written_work);
    }
    assert!(work < written_work, "{work} >= {written_work}");
}
