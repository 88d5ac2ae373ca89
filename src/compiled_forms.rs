//! Tests of the forms the engine compiles expressions to, against the expressions as
//! written, on games built from text. They live here, beside the library's layers, because
//! the engine imports nothing of the language (tests/layers.rs): its own tests cannot build
//! a game from a description.

mod a_table_by_site {
    use crate::engine::compile::{Compiler, Num, Tables};
    use crate::engine::state::{Fault, Regs};
    use crate::ir::*;
    use std::sync::Arc;

    /// A board of 3 x 2 points with a named direction `down`.
    const GAME: &str = r#"
game "Static values" { }
sides A B
limit 6 turns
board {
  points for x in 0..2, y in 0..1 kind cell
  links (1, 0) (0, 1)
  directions down (0, -1)
}
pieces { disc tokens 6 }
start { first A }
turn { choose put s where top(s) == none { place 1 disc on s for mover } }
"#;

    fn var() -> Box<Expr> {
        Box::new(Expr::Var(0))
    }

    /// The value and the fault of a compiled expression with variable 0 holding `x`.
    fn eval(game: &crate::Game, f: &Num, x: i64) -> (i64, Option<Fault>) {
        let st = game.empty();
        let mut r = Regs {
            vars: vec![x; 2],
            ..Regs::default()
        };
        let v = f(&st.b, &mut r);
        (v, st.b.fault.get())
    }

    /// Each expression, read from its table, gives the values and faults of the expression
    /// as written, for sites and for values that are no site.
    #[test]
    fn a_table_gives_the_values_and_faults_of_the_expression_as_written() {
        let game = crate::load_game(GAME, &crate::Settings::default()).expect("the game loads");
        let t = Arc::new(Tables::new(game.ir()));
        let down = crate::ir::grid::Compass::FIRST;
        let next_down = Expr::Next {
            site: var(),
            dir: Box::new(Expr::Const(down)),
            steps: Box::new(Expr::Const(1)),
        };
        let exprs = [
            // the site below (-1 on the bottom row)
            next_down.clone(),
            // y(s) == 0 or x(next(s, down)) == 1
            Expr::Or(
                Box::new(Expr::BinConst(Op::Eq, Box::new(Expr::CoordY(var())), 0)),
                Box::new(Expr::BinConst(
                    Op::Eq,
                    Box::new(Expr::CoordX(Box::new(next_down))),
                    1,
                )),
            ),
            // 6 / x(s): a division by zero where x is 0
            Expr::Bin(
                Op::Div,
                Box::new(Expr::Const(6)),
                Box::new(Expr::CoordX(var())),
            ),
            // x(s) == 0 or 6 / x(s) == 3: no fault (the `or` stops first)
            Expr::Or(
                Box::new(Expr::BinConst(Op::Eq, Box::new(Expr::CoordX(var())), 0)),
                Box::new(Expr::BinConst(
                    Op::Eq,
                    Box::new(Expr::Bin(
                        Op::Div,
                        Box::new(Expr::Const(6)),
                        Box::new(Expr::CoordX(var())),
                    )),
                    3,
                )),
            ),
        ];
        let mut faults = 0;
        for e in &exprs {
            let mut c = Compiler::new(t.clone());
            let table = c
                .tabulated(e)
                .expect("a static expression is read from a table");
            let written = c.num_as_written(e);
            for x in [-7, -1, 0, 1, 2, 3, 4, 5, 6, 99, i64::MIN, i64::MAX] {
                let (a, b) = (eval(&game, &table, x), eval(&game, &written, x));
                assert_eq!(a, b, "{e:?} with the variable at {x}");
                faults += a.1.is_some() as usize;
            }
        }
        // 6 / x(s) faults at the two sites of x = 0 only (x of a value that is no site is -1)
        assert_eq!(faults, 2, "the division by zero is kept where x is 0");
        let mut c = Compiler::new(t.clone());
        assert!(
            c.tabulated(&Expr::Var(0)).is_none(),
            "a single node is not tabulated"
        );
        let two = Expr::Bin(Op::Add, var(), Box::new(Expr::Var(1)));
        assert!(
            c.tabulated(&two).is_none(),
            "two variables are not tabulated"
        );
        let board = Expr::Top(var());
        assert!(
            c.tabulated(&board).is_none(),
            "what is on the board is not tabulated"
        );
    }
}

mod lines_by_bits {
    use crate::engine::compile::{Compiler, Tables};
    use crate::engine::state::Regs;
    use crate::ir::*;
    use std::sync::Arc;

    /// Lines of 3 on a board of 4 x 3 points, two players.
    const GAME: &str = r#"
game "Lines by bits" { }
sides A B
limit 12 turns
board {
  points for x in 0..3, y in 0..2 kind cell
  links (1, 0) (0, 1) (1, 1) (1, -1)
  lines 3
}
pieces { disc tokens 12 }
start { first A }
turn { choose put s where top(s) == none { place 1 disc on s for mover } }
"#;

    /// `line x through s: c` read from the board's bits gives the answer of c tried site by
    /// site, on every board of a game, for every site and for a value that is no site.
    #[test]
    fn a_line_by_bits_is_the_line_as_written() {
        let game = crate::load_game(GAME, &crate::Settings::default()).expect("the game loads");
        let t = Arc::new(Tables::new(game.ir()));
        let x = || Box::new(Expr::Var(1));
        let top = || Box::new(Expr::Top(x()));
        let conds = [
            Expr::Bin(
                Op::Eq,
                Box::new(Expr::TokOwner(top())),
                Box::new(Expr::Mover),
            ),
            Expr::BinConst(Op::Ne, top(), -1),
            Expr::All(vec![
                Expr::BinConst(Op::Ne, top(), -1),
                Expr::Not(Box::new(Expr::Bin(
                    Op::Eq,
                    Box::new(Expr::TokOwner(top())),
                    Box::new(Expr::Opponent),
                ))),
            ]),
        ];
        let mut st = game.start();
        let (mut boards, mut held) = (0, [0usize; 2]);
        loop {
            for cond in &conds {
                let mut c = Compiler::new(t.clone());
                let bits = c
                    .in_line_by_bits(1, &Expr::Var(0), cond)
                    .unwrap_or_else(|| panic!("the board's bits answer {cond:?}"));
                let written = c.in_line_as_written(1, &Expr::Var(0), cond);
                let mut r = Regs {
                    vars: vec![0; 2],
                    scratch: vec![0; c.scratch_words()],
                    ..Regs::default()
                };
                for s in (-1..t.nsites as i64).chain([99]) {
                    r.set(0, s);
                    let expected = written(&st.b, &mut r);
                    r.set(0, s);
                    assert_eq!(bits(&st.b, &mut r), expected, "{cond:?} through {s}");
                    held[(expected != 0) as usize] += 1;
                }
            }
            boards += 1;
            let moves = st.moves().to_vec();
            if st.is_over() || moves.is_empty() {
                break;
            }
            game.play_unchecked(&mut st, moves[(boards * 7) % moves.len()]);
        }
        assert!(boards >= 12, "the board was filled: {boards} boards");
        assert!(
            held[0] > 20 && held[1] > 20,
            "both answers were seen: {held:?}"
        );
        // a condition that could fault is tried site by site
        let div = Expr::BinConst(Op::Eq, Box::new(Expr::BinConst(Op::Div, top(), 0)), 1);
        let mut c = Compiler::new(t.clone());
        assert!(c.in_line_by_bits(1, &Expr::Var(0), &div).is_none());
    }
}

mod tests_at_another_site {
    use crate::engine::compile::{Base, Compiler, Tables};
    use crate::engine::state::Regs;
    use crate::ir::*;
    use std::sync::Arc;

    /// A board of 3 x 3 points with the directions `down` and `up`.
    const GAME: &str = r#"
game "Tests at a fixed other site" { }
sides A B
limit 9 turns
board {
  points for x in 0..2, y in 0..2 kind cell
  links (1, 0) (0, 1)
  directions down (0, -1) up (0, 1)
}
pieces { disc tokens 9 }
start { first A }
turn { choose put s where top(s) == none { place 1 disc on s for mover } }
"#;

    fn s() -> Box<Expr> {
        Box::new(Expr::Var(0))
    }

    fn next(dir: i64) -> Box<Expr> {
        Box::new(Expr::Next {
            site: s(),
            dir: Box::new(Expr::Const(crate::ir::grid::Compass::FIRST + dir)),
            steps: Box::new(Expr::Const(1)),
        })
    }

    fn empty_below() -> Expr {
        Expr::BinConst(Op::Eq, Box::new(Expr::Top(next(0))), -1)
    }

    fn fixed(e: Expr) -> Expr {
        Expr::BinConst(Op::Eq, Box::new(e), 0)
    }

    /// Each condition, planned as a question (a test of the board's bits at another site, or
    /// fixed sites or such a test), holds at the sites where the condition as written holds,
    /// on every board of a game; and the question needs no test of the rest.
    #[test]
    fn a_test_at_a_fixed_other_site_is_the_condition_as_written() {
        let game = crate::load_game(GAME, &crate::Settings::default()).expect("the game loads");
        let t = Arc::new(Tables::new(game.ir()));
        let count_above = |op, c| Expr::BinConst(op, Box::new(Expr::CountAt(next(1))), c);
        let planned = [
            empty_below(),
            Expr::Not(Box::new(empty_below())),
            count_above(Op::Eq, 0),
            count_above(Op::Gt, 0),
            Expr::Any(vec![
                fixed(Expr::CoordY(s())),
                Expr::Not(Box::new(empty_below())),
            ]),
            Expr::Or(Box::new(empty_below()), Box::new(fixed(Expr::CoordX(s())))),
            Expr::All(vec![
                Expr::BinConst(Op::Eq, Box::new(Expr::Top(s())), -1),
                Expr::Any(vec![
                    fixed(Expr::CoordY(s())),
                    Expr::Not(Box::new(empty_below())),
                ]),
            ]),
        ];
        // two tests of the board in one `or`: tried on each site as written
        let as_written = [Expr::Any(vec![empty_below(), count_above(Op::Eq, 0)])];
        let mut st = game.start();
        let mut boards = 0;
        let mut held = [0usize; 2];
        loop {
            for (k, cond) in planned.iter().chain(&as_written).enumerate() {
                let mut c = Compiler::new(t.clone());
                let q = c.sites(0, Base::All, Some(cond));
                assert_eq!(
                    q.tests_left_per_site() == 0,
                    k < planned.len(),
                    "the plan of {cond:?}"
                );
                let written = c.num_as_written(cond);
                let mut r = Regs {
                    vars: vec![0; 2],
                    scratch: vec![0; c.scratch_words()],
                    ..Regs::default()
                };
                for site in 0..t.nsites {
                    r.set(0, site as i64);
                    let expected = written(&st.b, &mut r) != 0;
                    assert_eq!(
                        q.contains(&st.b, &mut r, site),
                        expected,
                        "{cond:?} at {site}"
                    );
                    held[expected as usize] += 1;
                }
                assert_eq!(st.b.fault.get(), None);
            }
            boards += 1;
            let moves = st.moves().to_vec();
            if st.is_over() || moves.is_empty() {
                break;
            }
            // a fixed order of play: the boards fill from several places
            game.play_unchecked(&mut st, moves[(boards * 5) % moves.len()]);
        }
        assert!(boards >= 9, "the board was filled: {boards} boards");
        assert!(
            held[0] > 50 && held[1] > 50,
            "both answers were seen: {held:?}"
        );
    }
}

mod an_argument_evaluated_once {
    use crate::engine::state::{EndReason, Pending};
    use crate::lang::lower::share::COPY_ONLY;

    /// The game loaded with each `def` argument copied at each use (`copy`), or evaluated once
    /// where the lowering chooses to.
    fn load(text: &str, copy: bool) -> crate::Game {
        COPY_ONLY.with(|c| c.set(copy));
        let game = crate::load(&crate::Source::infer(text), &crate::Settings::default());
        COPY_ONLY.with(|c| c.set(false));
        game.unwrap_or_else(|e| panic!("the game loads: {e:?}"))
    }

    /// How many arguments the program evaluates once.
    fn lets(game: &crate::Game) -> usize {
        format!("{:?}", game.ir()).matches("Let {").count()
    }

    /// Plays `games` random games of at most `steps` decisions on both loadings, with the same
    /// choices, and checks that they offer the same decisions, chances and outcome at every
    /// step. Gives the number of positions compared and the outcomes.
    fn same_play(
        a: &crate::Game,
        b: &crate::Game,
        games: u64,
        steps: usize,
    ) -> (usize, Vec<String>) {
        same_play_with(a, b, games, steps, |_, _| {})
    }

    /// [`same_play`], with `each` called on the two positions at every step compared.
    pub(super) fn same_play_with(
        a: &crate::Game,
        b: &crate::Game,
        games: u64,
        steps: usize,
        mut each: impl FnMut(&crate::State, &crate::State),
    ) -> (usize, Vec<String>) {
        let (mut positions, mut outcomes) = (0, vec![]);
        for g in 0..games {
            let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ g;
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let (mut x, mut y) = (a.start(), b.start());
            for _ in 0..steps {
                assert_eq!(format!("{:?}", x.pending()), format!("{:?}", y.pending()));
                assert_eq!(x.moves(), y.moves(), "the same decisions");
                each(&x, &y);
                positions += 1;
                match x.pending() {
                    Pending::Over(_) => break,
                    Pending::ChanceFirst | Pending::Throw(_) => {
                        let (ox, oy) = (a.chance_outcomes(&x), b.chance_outcomes(&y));
                        assert_eq!(ox, oy, "the same chances");
                        let o = ox[next() as usize % ox.len()].0;
                        a.play_chance(&mut x, o).expect("a legal outcome");
                        b.play_chance(&mut y, o).expect("a legal outcome");
                    }
                    Pending::Choice(_) | Pending::Drop(_) => {
                        let d = x.moves()[next() as usize % x.moves().len()];
                        a.play_unchecked(&mut x, d);
                        b.play_unchecked(&mut y, d);
                    }
                }
            }
            assert_eq!(x.outcome(), y.outcome(), "the same outcome");
            outcomes.push(format!("{:?}", x.outcome()));
        }
        (positions, outcomes)
    }

    /// A game of the board of 4 x 3 points below, with these rules.
    fn game(rules: &str) -> String {
        let board = "game \"Arguments\" { }\nsides A B\nlimit 16 turns\nboard {\n  \
            points for x in 0..3, y in 0..2 kind cell\n  links (1, 0) (0, 1) (1, 1) (1, -1)\n}\n\
            pieces { disc tokens 16 }\n";
        format!("{board}{rules}")
    }

    /// An argument the body reads twice: a search of the tokens (`holder(q)`, which depends
    /// on the quantifier's variable `q`), given to a `def` that tests it twice, surely.
    const SHARED: &str = r#"
def holder(q) = some token x where site(x) == q
def free_or_mine(t) = t == none or owner(t) == mover
def near(s) = exists q in neighbours(s) where holder(q) != none and free_or_mine(holder(q))
start { first A }
turn {
  choose {
    put s where top(s) == none and (near(s) or count(all) == 0) { place 1 disc on s for mover }
    pass where not exists s where top(s) == none and (near(s) or count(all) == 0)
  }
}
"#;

    /// Arguments that may not be evaluated before the body: one that divides by a count that
    /// is zero where the branch reading it is not taken, and one read in one branch only.
    const NOT_SHARED: &str = r#"
def pick(c, v) = if c then v + v > 4 else true
def mine_there(c, t) = if c then t != none and owner(t) == mover else true
start { first A }
turn {
  choose put s where top(s) == none and pick(count(all) > 0, 12 / count(all))
    and mine_there(count(all) > 3, some token x where site(x) == s) {
    place 1 disc on s for mover
  }
}
"#;

    /// The argument is bound once where it depends on the quantifier's variable, and play is
    /// the play of the arguments copied.
    #[test]
    fn a_bound_argument_plays_as_the_argument_copied() {
        let (once, copied) = (load(&game(SHARED), false), load(&game(SHARED), true));
        assert!(lets(&once) >= 2, "`holder(q)` is evaluated once in `near`");
        assert_eq!(lets(&copied), 0);
        let (positions, outcomes) = same_play(&once, &copied, 20, 40);
        assert!(positions > 200, "{positions} positions");
        assert!(
            outcomes.iter().all(|o| !o.contains("Fault")),
            "{outcomes:?}"
        );
    }

    /// An argument that may fault, or that the body may not read, is copied as written: the
    /// division by zero in the branch not taken raises no fault.
    #[test]
    fn an_argument_that_may_fault_or_go_unread_is_copied() {
        let written = game(NOT_SHARED);
        let game = load(&written, false);
        assert_eq!(lets(&game), 0, "nothing is evaluated before the body");
        let (positions, outcomes) = same_play(&game, &load(&written, true), 10, 20);
        assert!(positions >= 40, "{positions} positions");
        for o in &outcomes {
            assert!(!o.contains("Fault"), "no fault: {o}");
        }
        let first = game.start();
        assert!(
            !first.moves().is_empty(),
            "the first move divides by nothing"
        );
        assert!(!matches!(
            first.outcome().map(|o| o.reason),
            Some(EndReason::Fault(_))
        ));
    }

    /// Every built-in game plays the same with its arguments evaluated once and copied.
    #[test]
    fn every_built_in_game_plays_as_with_its_arguments_copied() {
        let mut bound = 0;
        for (name, _) in crate::builtin::GAMES {
            let (once, copied) = (load(name, false), load(name, true));
            bound += lets(&once);
            let (positions, _) = same_play(&once, &copied, 3, 150);
            assert!(positions >= 3, "{name}: {positions} positions");
        }
        assert!(bound > 0, "some built-in game evaluates an argument once");
    }
    /// A game with 200 uses of an action of 10 `let`s whose argument is evaluated once
    /// (4,000 variables: each `let`'s and its search's; 2,000 more for the arguments) and
    /// `cheap` uses of an action of 200 `let`s.
    fn many_variables(cheap: usize) -> String {
        let shared: Vec<String> = (0..10)
            .map(|k| format!("  let x{k} = twice(some token t where owner(t) == p)"))
            .collect();
        let plain: Vec<String> = (0..200).map(|k| format!("  let y{k} = 0")).collect();
        let calls = format!(
            "{}{}",
            "  do a(mover)\n".repeat(200),
            "  do b(mover)\n".repeat(cheap)
        );
        game(&format!(
            "def twice(v) = v == v\naction a(p) {{\n{}\n}}\naction b(p) {{\n{}\n}}\n{}",
            shared.join("\n"),
            plain.join("\n"),
            SHARED.replacen("turn {", &format!("turn {{\n{calls}"), 1)
        ))
    }

    /// A file whose variables and those of its arguments evaluated once pass the limit of
    /// 65535 still loads, checked again with every argument copied (a file that loaded before
    /// `Let` still loads); with fewer variables the same arguments are evaluated once.
    #[test]
    fn a_file_near_the_limit_of_variables_still_loads() {
        let few = load(&many_variables(10), false);
        assert!(
            lets(&few) >= 2000,
            "{} arguments evaluated once",
            lets(&few)
        );
        // 4,000 + 300 x 200 = 64,000 variables of the file's own; 66,000 with the arguments'
        let edge = load(&many_variables(300), false);
        assert_eq!(
            lets(&edge),
            0,
            "the file near the limit loads with every argument copied"
        );
        assert!(!edge.start().moves().is_empty());
    }
}

mod token_counts_kept_or_not {
    use crate::{Game, Pending, State};
    use std::sync::Arc;

    /// The game compiled again, its moves keeping the counts of tokens of each kind at each
    /// site whether its rules read them or not.
    fn keeping_counts(g: &Game) -> Game {
        let mut kept = Game::new(g.ir().clone());
        Arc::get_mut(&mut kept.prog)
            .expect("a new program")
            .kind_counts = true;
        kept
    }

    /// One random step (a decision or a chance outcome), drawn by a linear congruential
    /// generator from `seed`.
    fn random_step(g: &Game, st: &mut State, seed: &mut u64) {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = |n: usize| ((*seed >> 33) % n as u64) as usize;
        if st.moves().is_empty() {
            let outs = g.chance_outcomes(st);
            let o = outs[pick(outs.len())].0;
            g.play_chance(st, o).expect("a chance outcome");
        } else {
            let d = st.moves()[pick(st.moves().len())];
            g.play(st, d).expect("a legal decision");
        }
    }

    /// Pieces of each kind, and of every kind, at every site: with the kept counts and with
    /// the stacks walked (a copy of the state without them).
    fn counts(st: &State, nk: usize) -> Vec<i64> {
        let masks = (0..nk)
            .map(|k| 1u32 << k)
            .chain([(1u32 << nk) - 1, u32::MAX]);
        let masks: Vec<_> = masks.map(crate::ir::KindMask).collect();
        (0..st.b.index.total.len())
            .flat_map(|s| masks.iter().map(move |&m| st.b.count_of(s, m)))
            .collect()
    }

    /// Every built-in game with tokens, whether its rules read the counts of tokens of each
    /// kind or not, plays the same random games when its moves keep them: the same decisions
    /// offered at every step and the same outcome; the kept counts equal the stacks; and
    /// `count(s, K)` from the kept counts equals `count(s, K)` from the stacks walked.
    #[test]
    fn keeping_the_token_counts_changes_no_game_and_they_equal_the_stacks() {
        let mut games = 0;
        for (stem, _) in crate::builtin::names() {
            let (_, src) = crate::builtin::find(stem).expect("a built-in game");
            let g = crate::load_game(src, &crate::Settings::default()).expect("it loads");
            if g.ir().tokens.is_empty() || g.ir().pieces.len() >= 32 {
                continue;
            }
            games += 1;
            let kept = keeping_counts(&g);
            let nk = g.ir().pieces.len();
            for game in 0..3u64 {
                let (mut a, mut b) = (g.start(), kept.start());
                let (mut seed_a, mut seed_b) = (game, game);
                let mut steps = 0;
                while !matches!(a.pending(), Pending::Over(_)) && steps < 300 {
                    assert_eq!(a.moves(), b.moves(), "{stem}: game {game}, step {steps}");
                    assert!(b.b.toks.kinds_kept() && b.b.toks.kinds_agree(), "{stem}");
                    let mut walked = b.clone();
                    walked.b.toks.kind_at.clear();
                    assert_eq!(counts(&b, nk), counts(&walked, nk), "{stem}: step {steps}");
                    random_step(&g, &mut a, &mut seed_a);
                    random_step(&kept, &mut b, &mut seed_b);
                    steps += 1;
                }
                assert_eq!(a.outcome(), b.outcome(), "{stem}: game {game}");
                assert_eq!(a.moves(), b.moves(), "{stem}: game {game} at its end");
            }
        }
        assert!(games >= 8, "built-in games with tokens: {games}");
    }
}

/// A game loaded with its conditions compiled as written (`written`), or not, and the count
/// `counter` the compiler keeps of one form (how many it compiled) once loaded.
fn load_counting(
    text: &str,
    written: bool,
    counter: &'static std::thread::LocalKey<std::cell::Cell<usize>>,
) -> (crate::Game, usize) {
    use crate::engine::compile::AS_WRITTEN;
    AS_WRITTEN.with(|c| c.set(written));
    counter.with(|c| c.set(0));
    let game = crate::load(&crate::Source::infer(text), &crate::Settings::default());
    AS_WRITTEN.with(|c| c.set(false));
    let n = counter.with(|c| c.get());
    (game.unwrap_or_else(|e| panic!("the game loads: {e:?}")), n)
}

/// A game compiled in a faster form against the same game compiled as written, played alike
/// (`same_play_with`): the positions compared, the outcomes, how often each alternative (by
/// its number, the first four) was offered and the positions where the faster form did less
/// work; it never does more.
fn played_alike(
    fast: &crate::Game,
    written: &crate::Game,
    games: u64,
    steps: usize,
) -> (usize, Vec<String>, [usize; 4], usize) {
    let (mut offered, mut less) = ([0usize; 4], 0);
    let (positions, outcomes) =
        an_argument_evaluated_once::same_play_with(fast, written, games, steps, |x, y| {
            assert!(
                x.r.work <= y.r.work,
                "more work: {} > {}",
                x.r.work,
                y.r.work
            );
            less += usize::from(x.r.work < y.r.work);
            for d in x.moves() {
                if let crate::Decision::Alt { alt, .. } = d {
                    offered[(*alt as usize).min(3)] += 1;
                }
            }
        });
    (positions, outcomes, offered, less)
}

mod a_flood_by_words;
mod checked_once;
mod set_by_index;

mod a_look_ahead_on_a_reused_copy {
    use crate::{Game, Pending};
    use std::sync::Arc;

    /// Men on a row: a move may not bring back a position (the men where they are, whoever is
    /// to move) seen since the last capture or move to c5 (`leaving not repeated`: the look-ahead
    /// adds the turn's start to the history and reads it, so `wait` is never allowed), and
    /// those moves forget the positions (in the look-ahead too).
    const GAME: &str = r#"
game "Not again" { }
sides White Black
limit 120 turns
position pieces
board {
  row c[1..9] at y 0 kind cell
  links (1, 0)
  area off
}
pieces { man tokens 2 }
start {
  place 1 man on c1 c2 for White
  place 1 man on c8 c9 for Black
}
def mine(t) = owner(t) == mover and site(t) != none
turn {
  if not exists token x where mine(x) { end game winner opponent }
  choose {
    step token t to q in neighbours(site(t)) where mine(t) and owner(top(q)) != mover
      leaving not repeated {
      if top(q) != none {
        send top(q) to off
        forget positions
      }
      if q == c5 { forget positions }
      move t onto q
    }
    wait where true leaving not repeated { }
  } else {
    end game winner opponent
  }
}
"#;

    /// At every step of random games, the decisions the engine keeps (its scratch copy reused
    /// from candidate to candidate and from position to position, the history copied only
    /// when it changed, the look-ahead's positions in an overlay) are those whose `leaving`
    /// test passes on a scratch copy made for the candidate alone whose history takes the
    /// positions itself; and some are refused, some games capture.
    #[test]
    fn the_reused_copy_keeps_the_decisions_a_fresh_copy_keeps() {
        let g = crate::load_game(GAME, &crate::Settings::default()).expect("the game loads");
        let mut plain = Game::new(g.ir().clone());
        let prog = Arc::get_mut(&mut plain.prog).expect("a new program");
        prog.choices.iter_mut().for_each(|c| c.looks = false);
        let (mut refused, mut forgotten) = (0, 0);
        for game in 0..100u64 {
            let mut st = g.start();
            let mut seed = game;
            while let Pending::Choice(id) = st.pending() {
                let mut listed = st.clone();
                plain.enumerate(&mut listed, id);
                let fresh: Vec<_> = (listed.moves().iter().copied())
                    .filter(|&d| g.leaves_on_fresh_copy(&st, id, d))
                    .collect();
                assert_eq!(st.moves(), &fresh[..], "game {game}, turn {}", st.turn());
                refused += listed.moves().len() - fresh.len();
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let d = st.moves()[((seed >> 33) % st.moves().len() as u64) as usize];
                let before = st.positions_seen();
                g.play(&mut st, d).expect("a legal decision");
                forgotten += (st.positions_seen() < before) as u32;
            }
        }
        assert!(
            refused > 0 && forgotten > 0,
            "{refused} refused, {forgotten} captures"
        );
    }
}

mod hoisted;

mod pairs_by_bits;
mod track_steps;

mod emptiness_or;
mod kept_by_shape;
