//! A random player's deferred `leaving` tests (`State::defer_leaving`, `ludic::agents::draw_legal`),
//! against the same positions with every decision tested (chess, whose king may not be left
//! attacked; backgammon, whose player must use as much of the roll as he can; and a fixture
//! whose last decisions all fail their test, so that the choice's `else` runs): the same
//! pending points and outcomes along the same decisions, the first decision listed always
//! legal, every decision drawn legal, the legal ones drawn uniformly, and `play` refusing a
//! listed decision that fails its test.

use ludic::gamefile::read_game_file;
use ludic::{Decision, Game, Pending, Settings, State, load_game};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn game(path: &str) -> Game {
    let src = read_game_file(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// Men on a row of 6 points: a man steps right or left, and may not be left beside an enemy
/// man; a player whose every step fails the test loses (`else`).
const CORNERED: &str = r#"
game "Cornered" { }
sides A B
limit 40 turns
board { points for x in 0..5, y in 0..0 links (1, 0) }
pieces { man tokens 2 }
start {
  place 1 man on a1 c1 for A
  place 1 man on d1 f1 for B
  first A
}
def beside(s) = exists q in neighbours(s) where top(q) != none and owner(top(q)) == opponent
turn {
  choose {
    step token t to q in neighbours(site(t)) where owner(t) == mover and site(t) != none
      and top(q) == none leaving not beside(q) {
      move t onto q
    }
  } else {
    end game winner opponent "cornered"
  }
}
"#;

/// Plays `games` random games of `g` twice along the same decisions (drawn from the full
/// list): one state tests every decision, the other defers; checks what the module says at
/// each position, and at some of them draws many times from the deferred list.
fn compare(g: &Game, games: u64, steps: usize) -> (usize, usize, usize) {
    let (mut positions, mut deferred_fewer, mut drawn_checks) = (0, 0, 0);
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut full, mut lazy) = (g.start(), g.start());
        lazy.defer_leaving(true);
        for step in 0..steps {
            assert_eq!(
                format!("{:?}", full.pending()),
                format!("{:?}", lazy.pending())
            );
            let legal = full.moves().to_vec();
            let listed = lazy.moves().to_vec();
            positions += 1;
            match full.pending() {
                Pending::Over(_) => break,
                Pending::ChanceFirst | Pending::Throw(_) => {
                    let o = g.draw_chance(&full, rng.random());
                    g.play_chance(&mut full, o).expect("an outcome");
                    g.play_chance(&mut lazy, o).expect("an outcome");
                    continue;
                }
                _ => {}
            }
            // the listed decisions: the legal ones and others after the first, in order
            assert_eq!(legal.is_empty(), listed.is_empty());
            assert_eq!(legal.first(), listed.first(), "the first listed is legal");
            let mut it = listed.iter();
            assert!(legal.iter().all(|d| it.any(|x| x == d)), "in order");
            deferred_fewer += usize::from(listed.len() > legal.len());
            for d in listed.iter().filter(|d| !legal.contains(d)) {
                let mut probe = lazy.clone();
                assert!(g.play(&mut probe, *d).is_err(), "{d:?} fails its test");
            }
            if step % 7 == 0 && legal.len() > 1 {
                drawn_checks += 1;
                uniform(g, &lazy, &legal, &mut rng);
            }
            let d = legal[rng.random_range(0..legal.len())];
            g.play(&mut lazy, d).expect("a legal decision is played");
            g.play_unchecked(&mut full, d);
        }
        assert_eq!(full.outcome(), lazy.outcome());
    }
    (positions, deferred_fewer, drawn_checks)
}

/// Draws 60 times per legal decision from copies of the deferred position: every decision
/// drawn legal, each drawn 30 to 90 times (a uniform draw misses this by more than five
/// standard deviations).
fn uniform(g: &Game, lazy: &State, legal: &[Decision], rng: &mut Xoshiro256PlusPlus) {
    let mut counts = vec![0usize; legal.len()];
    let mut probe = lazy.clone();
    probe.defer_leaving(true);
    for _ in 0..60 * legal.len() {
        probe.clone_from(lazy);
        let d = ludic::agents::draw_legal(g, &mut probe, rng);
        let i = legal.iter().position(|x| *x == d);
        counts[i.unwrap_or_else(|| panic!("{d:?} drawn is not legal"))] += 1;
    }
    assert!(counts.iter().all(|&c| (30..=90).contains(&c)), "{counts:?}");
}

#[test]
fn deferred_tests_give_the_legal_decisions_and_draw_them_uniformly() {
    // (the share of positions where a listed decision fails its test: chess's king, often;
    // backgammon's dice to use, seldom)
    for (path, games, steps, share) in [
        ("games/chess.game", 6, 160, 10),
        ("games/backgammon.game", 6, 200, 2000),
    ] {
        let (positions, fewer, draws) = compare(&game(path), games, steps);
        assert!(positions > 500, "{path}: {positions} positions");
        // decisions that fail their test are listed, untested
        assert!(fewer > positions / share, "{path}: {fewer} of {positions}");
        assert!(draws > 20, "{path}: {draws}");
    }
    let cornered = load_game(CORNERED, &Settings::default()).expect("it loads");
    let (positions, fewer, _) = compare(&cornered, 100, 40);
    assert!(positions > 300 && fewer > 0, "{positions} {fewer}");
}

/// The fixture's `else`: every game ends with a player cornered (every step fails its test:
/// `ludic simulate` of the fixture gives 200 of 200 so), with the tests deferred too.
#[test]
fn a_choice_whose_decisions_all_fail_runs_its_else_when_deferred() {
    let g = load_game(CORNERED, &Settings::default()).expect("it loads");
    let mut cornered = 0;
    for seed in 0..40 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut st = g.start();
        st.defer_leaving(true);
        while !st.is_over() {
            let d = ludic::agents::draw_legal(&g, &mut st, &mut rng);
            g.play_unchecked(&mut st, d);
        }
        // (the rules' only `end game`, said "cornered")
        let o = st.outcome().expect("over");
        cornered += usize::from(o.reason == ludic::EndReason::Rules && o.said.is_some());
    }
    assert_eq!(cornered, 40, "games that end cornered");
}
