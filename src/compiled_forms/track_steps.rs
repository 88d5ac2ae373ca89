//! `track_site(p, track_pos(p, s) + k)` and `track_pos(p, s) + k` compiled as one step each
//! (`engine/compile/expr/geometry.rs`), and `track_end(mover)`, `track_site(mover, k)` read
//! from a table by player (`expr/fixed.rs`), against the expressions compiled as written
//! (the switch `AS_WRITTEN`): the same values and faults, and the same play.

use super::an_argument_evaluated_once::same_play_with;
use crate::engine::compile::{AS_WRITTEN, Compiler, Num, Tables};
use crate::engine::state::{Fault, Regs};
use crate::ir::*;
use std::sync::Arc;

/// A race on a row of 7 cells, A's track from 0 to 6, B's from 1 (the cells backward);
/// the sum's overflow a fault, reached in some games (`far`, at position 2 with a throw of 3).
const GAME: &str = r#"
game "Track steps" { }
sides A B
limit 40 turns
board {
  row c[0..6] at y 0 x 0 kind cell
  track A from 0 = c[0..6]
  track B from 1 = c[6..0]
}
pieces { piece tokens 6 }
dice grains {
  die g1 g2 faces marked blank
  value count(marked) when count(marked) > 0
  value 3 otherwise
}
start {
  place 3 piece on c0 for A
  place 3 piece on c6 for B
  first A
}
turn {
  throw grains as v
  let p = mover
  choose {
    move s where owner(top(s)) == mover and track_pos(mover, s) + v <= track_end(mover)
      and track_site(p, track_pos(p, s) + v) != track_site(mover, 0) {
      move top(s) onto track_site(mover, track_pos(mover, s) + v)
    }
    far s where owner(top(s)) == mover and v == 3 and track_pos(mover, s) == 2
      and track_pos(mover, s) + 9223372036854775807 > 0 {
      move top(s) onto track_site(mover, 0)
    }
    back s where owner(top(s)) == mover and track_pos(p, s) + 1 == track_end(mover) {
      move top(s) onto track_site(p, track_pos(p, s) + -3)
    }
  }
}
"#;

/// The game loaded with its expressions compiled as written (`written`), or not.
fn load(text: &str, written: bool) -> crate::Game {
    AS_WRITTEN.with(|c| c.set(written));
    let game = crate::load(&crate::Source::infer(text), &crate::Settings::default());
    AS_WRITTEN.with(|c| c.set(false));
    game.unwrap_or_else(|e| panic!("the game loads: {e:?}"))
}

fn var(v: VarId) -> Box<Expr> {
    Box::new(Expr::Var(v))
}

/// The value and the fault of a compiled expression with the mover `m` and variables 0 and 1
/// holding `x` and `k`.
fn eval(game: &crate::Game, f: &Num, m: u8, x: i64, k: i64) -> (i64, Option<Fault>) {
    let mut st = game.empty();
    st.b.mover = m;
    let mut r = Regs {
        vars: vec![x, k],
        ..Regs::default()
    };
    let v = f(&st.b, &mut r);
    (v, st.b.fault.get())
}

/// Each expression compiled in one step or read from a table by player gives the values and
/// faults of the expression as written: sites on and off the tracks, values that are no
/// site, sums that overflow, a mover who is no player.
#[test]
fn a_step_along_a_track_gives_the_values_and_faults_as_written() {
    let game = load(GAME, false);
    let t = Arc::new(Tables::new(game.ir()));
    let pos = |p: Expr| Box::new(Expr::TrackPos(Box::new(p), var(0)));
    let sum = |p: Expr| Expr::Bin(Op::Add, pos(p), var(1));
    let site = |p: Expr| Expr::TrackSite(Box::new(p.clone()), Box::new(sum(p)));
    let exprs = [
        site(Expr::Mover),
        site(Expr::Var(1)),
        site(Expr::Const(1)),
        sum(Expr::Mover),
        Expr::BinConst(Op::Add, pos(Expr::Mover), i64::MAX),
        Expr::TrackSite(
            Box::new(Expr::Mover),
            Box::new(Expr::BinConst(Op::Add, pos(Expr::Mover), -2)),
        ),
        Expr::TrackEnd(Box::new(Expr::Mover)),
        Expr::TrackSite(Box::new(Expr::Mover), Box::new(Expr::Const(0))),
        Expr::TrackSite(Box::new(Expr::Mover), Box::new(Expr::Const(3))),
    ];
    let (mut faults, mut values) = (0, std::collections::BTreeSet::new());
    for e in &exprs {
        let mut c = Compiler::new(t.clone());
        let stepped = match e {
            Expr::TrackSite(p, n) => c.track_step::<true>(Some(&**p), n).is_some(),
            _ => c.track_step::<false>(None, e).is_some(),
        };
        assert!(
            stepped || c.by_mover(e).is_some(),
            "{e:?} is compiled in one step or read from a table"
        );
        let fast = c.num(e);
        AS_WRITTEN.with(|w| w.set(true));
        let written = Compiler::new(t.clone()).num(e);
        AS_WRITTEN.with(|w| w.set(false));
        for m in [0, 1, 2, u8::MAX] {
            for x in [-1, 0, 1, 3, 6, 7, 99, i64::MIN, i64::MAX] {
                for k in [-9, -1, 0, 1, 2, 5, 7, i64::MAX] {
                    let (a, b) = (eval(&game, &fast, m, x, k), eval(&game, &written, m, x, k));
                    assert_eq!(a, b, "{e:?}: mover {m}, variables {x} and {k}");
                    faults += a.1.is_some() as usize;
                    values.insert(a.0);
                }
            }
        }
    }
    assert!(faults > 0, "some sums overflow");
    assert!(values.len() > 8, "many values: {values:?}");
    let mut c = Compiler::new(t.clone());
    let other = Expr::TrackSite(Box::new(Expr::Mover), Box::new(sum(Expr::Opponent)));
    assert!(
        c.track_step::<true>(Some(&Expr::Mover), &sum(Expr::Opponent))
            .is_none()
    );
    assert!(c.by_mover(&other).is_none(), "two players: as written");
}

/// Random games on the game above play as with the expressions compiled as written: the
/// same decisions, chances and outcomes (faults included) at every step.
#[test]
fn steps_along_a_track_play_as_written() {
    let (fast, written) = (load(GAME, false), load(GAME, true));
    let (positions, outcomes) = same_play_with(&fast, &written, 80, 400, |_, _| {});
    assert!(positions > 1000, "{positions} positions");
    let faults = outcomes.iter().filter(|o| o.contains("Overflow")).count();
    assert!(
        faults > 0 && faults < outcomes.len(),
        "some games overflow, some do not: {outcomes:?}"
    );
}

/// Every built-in game plays as with its expressions compiled as written (the races on
/// tracks among them).
#[test]
fn every_built_in_game_steps_as_written() {
    for (name, _) in crate::builtin::GAMES {
        let (fast, written) = (load(name, false), load(name, true));
        let (positions, _) = same_play_with(&fast, &written, 3, 300, |_, _| {});
        assert!(positions >= 3, "{name}: {positions} positions");
    }
}
