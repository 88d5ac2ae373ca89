//! A token question's condition compiled with its parts that do not depend on the candidate
//! worked out once per question (`engine/compile/expr/hoist.rs`), `total token x where C: k`
//! counted from the indexed words and a token's `pos` and `site` read in place, against the
//! conditions compiled as written: the same decisions, chances and outcomes (faults
//! included) in random play, and never more work.

use crate::engine::compile::AS_WRITTEN;
use crate::engine::state::{EndReason, Pending};

/// The game loaded with its conditions compiled as written (`written`), or not.
fn load(text: &str, written: bool) -> crate::Game {
    AS_WRITTEN.with(|c| c.set(written));
    let game = crate::load(&crate::Source::infer(text), &crate::Settings::default());
    AS_WRITTEN.with(|c| c.set(false));
    game.unwrap_or_else(|e| panic!("the game loads: {e:?}"))
}

/// What random play on both compilations gave.
#[derive(Default)]
struct Played {
    positions: usize,
    outcomes: Vec<String>,
    /// the work counted between decisions, summed: compiled so, and as written
    work: u64,
    written_work: u64,
}

/// Plays `games` random games of at most `steps` decisions on `a` and on `written` (the same
/// game compiled as written) with the same choices, checking at every step the same
/// decisions, chances and outcome, and no more work than as written.
fn same_play(a: &crate::Game, written: &crate::Game, games: u64, steps: usize) -> Played {
    let mut p = Played::default();
    for g in 0..games {
        let mut seed = 0x2545_F491_4F6C_DD1Du64 ^ (g + 1);
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut x, mut y) = (a.start(), written.start());
        for _ in 0..steps {
            assert_eq!(format!("{:?}", x.pending()), format!("{:?}", y.pending()));
            assert_eq!(x.moves(), y.moves(), "the same decisions");
            assert!(x.r.work <= y.r.work, "{} > {}", x.r.work, y.r.work);
            (p.work, p.written_work) = (p.work + x.r.work, p.written_work + y.r.work);
            p.positions += 1;
            match x.pending() {
                Pending::Over(_) => break,
                Pending::ChanceFirst | Pending::Throw(_) => {
                    let (ox, oy) = (a.chance_outcomes(&x), written.chance_outcomes(&y));
                    assert_eq!(ox, oy, "the same chances");
                    let o = ox[next() as usize % ox.len()].0;
                    a.play_chance(&mut x, o).expect("a legal outcome");
                    written.play_chance(&mut y, o).expect("a legal outcome");
                }
                Pending::Choice(_) | Pending::Drop(_) => {
                    let d = x.moves()[next() as usize % x.moves().len()];
                    a.play_unchecked(&mut x, d);
                    written.play_unchecked(&mut y, d);
                }
            }
        }
        assert_eq!(x.outcome(), y.outcome(), "the same outcome");
        p.outcomes
            .push(format!("{:?}", x.outcome().map(|o| o.reason)));
    }
    p
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
