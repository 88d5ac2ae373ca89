//! The counts of tokens of each kind at each site (what `count(s, K)` reads instead of walking
//! the stack) are kept by the moves of a game whose rules read them, and only then: they equal
//! the stacks counted token by token after every step of random games of every built-in game
//! that keeps them, after a token changes kind on the board, after stacks are carried, in
//! positions built by hand, and in a state copied back; a game whose rules read none keeps
//! none and plays as the same game that keeps them. (src/compiled_forms.rs plays every
//! built-in game with tokens with its counts kept and without: the same games.)

mod common;
use common::*;
use ludic::{Pending, Settings, load_game};

/// Random games of every built-in game with tokens, checked after every step (the games whose
/// rules read no counts of tokens by kind keep none: nothing to disagree).
#[test]
fn kept_counts_equal_the_stacks_in_random_games_of_every_game() {
    let mut games_with_tokens = 0;
    let mut keeping = vec![];
    for (stem, _) in ludic::builtin::names() {
        let g = game(stem);
        if g.num_tokens() == 0 {
            assert!(!g.keeps_token_counts(), "{stem}: no tokens, no counts");
            continue;
        }
        games_with_tokens += 1;
        if g.keeps_token_counts() {
            keeping.push(*stem);
        }
        let mut rng = Lcg(7);
        let games = if *stem == "chess" { 2 } else { 4 };
        for _ in 0..games {
            let mut st = g.start();
            assert!(g.token_counts_agree(&st), "{stem}: at the start");
            let mut n = 0;
            while !matches!(st.pending(), Pending::Over(_)) && n < 400 {
                random_step(&g, &mut st, &mut rng);
                assert!(g.token_counts_agree(&st), "{stem}: after step {n}");
                n += 1;
            }
            // a copy into a state of another position holds the same counts
            let mut other = g.start();
            other.clone_from(&st);
            assert!(g.token_counts_agree(&other), "{stem}: a copy");
        }
    }
    assert!(
        games_with_tokens >= 3,
        "games with tokens: {games_with_tokens}"
    );
    // chess reads them (`count(q, k) > 0`, `count(all, pawn, rook, queen)`), amazons too
    // (`count(a, amazon) > 0`); backgammon and connect four read none
    assert_eq!(keeping, ["amazons", "chess"]);
}

/// A game whose rules count tokens only without kinds (`count(q)`) keeps no counts by kind; the
/// same game with a rule that reads them (never true: `count(q, man) + count(q, king) !=
/// count(q)`) keeps them; both play the same random games (the same decisions offered at every
/// step, the same outcome), in states copied back and in positions built by hand alike.
#[test]
fn a_game_whose_rules_read_no_token_counts_keeps_none_and_plays_the_same() {
    let src = |check: &str| {
        format!(
            r#"
game "Stacks" {{}}
sides A B
limit 30 turns
board {{
  row c[1..4] at y 0 kind cell
  directions e (1, 0) w (-1, 0)
}}
pieces {{ man tokens 4  king tokens 4 }}
start {{
  place 1 man on c1 for A  place 1 king on c1 for A  place 1 king on c2 for B
  place 1 man on c3 for B  place 1 man on c3 for A  place 1 king on c4 for B
}}
turn {{
  choose {{
    go token t to q in steps(site(t), e, w) where owner(t) == mover {{ carry t onto q }}
    crown token t where owner(t) == mover and kind(t) == man and site(t) != none {{
      set kind(t) = king
    }}
  }}
  if {check} {{ end game draw "a count" }}
}}
"#
        )
    };
    let load =
        |check| load_game(&src(check), &Settings::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let plain = load("count(c1) > 8");
    let reading = load("count(c1, man) + count(c1, king) != count(c1)");
    assert!(!plain.keeps_token_counts());
    assert!(reading.keeps_token_counts());
    for seed in 0..20 {
        let (mut a, mut b) = (plain.start(), reading.start());
        let (mut ra, mut rb) = (Lcg(seed), Lcg(seed));
        while !matches!(a.pending(), Pending::Over(_)) {
            assert_eq!(a.moves(), b.moves(), "seed {seed}");
            random_step(&plain, &mut a, &mut ra);
            random_step(&reading, &mut b, &mut rb);
            assert!(reading.token_counts_agree(&b));
            // a copy keeps (or not) what its game keeps
            let mut other = reading.start();
            other.clone_from(&b);
            assert!(reading.token_counts_agree(&other));
        }
        assert_eq!(a.outcome(), b.outcome(), "seed {seed}");
        assert_eq!(
            a.outcome().expect("over").reason,
            ludic::EndReason::TurnLimit
        );
    }
    // positions built by hand: the same decisions, the counts rebuilt where they are kept
    let by_hand = |g: &ludic::Game| {
        ludic::setup::Setup::new(g)
            .token("A", "man", "c2")
            .and_then(|b| b.token("A", "king", "c2"))
            .and_then(|b| b.token("B", "man", "c3"))
            .and_then(|b| b.mover("A"))
            .unwrap_or_else(|e| panic!("{e}"))
            .build()
    };
    let (a, b) = (by_hand(&plain), by_hand(&reading));
    assert!(reading.token_counts_agree(&b));
    assert_eq!(kinds_at(&reading, &b, "c2"), ["man", "king"]);
    assert_eq!(a.moves(), b.moves());
    assert!(!a.moves().is_empty());
}

/// Men step up a file; a man at the top becomes a king; `count` of each kind follows.
#[test]
fn a_token_that_changes_kind_on_the_board_counts_as_its_new_kind() {
    let src = r#"
game "Promotion" {}
sides A B
limit 40 turns
board {
  row a[1..3] at y 0 kind cell
  row b[1..3] at y 2 kind cell
  directions up (1, 0) down (-1, 0)
}
pieces { man tokens 2  king tokens 2 }
start { place 1 man on a1 for A  place 1 man on b1 for B }
turn {
  choose step token t to q in steps(site(t), up) where owner(t) == mover and top(q) == none {
    move t onto q
    if next(q, up) == none { set kind(t) = king }
    if count(q, king) != (if next(q, up) == none then 1 else 0) or count(q, man, king) != 1 {
      end game draw "a count does not follow the kind"
    }
  }
}
"#;
    let g = load_game(src, &Settings::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let mut st = g.start();
    play(&g, &mut st, &["step a1 a2", "step b1 b2", "step a2 a3"]);
    assert!(g.token_counts_agree(&st));
    assert_eq!(kinds_at(&g, &st, "a3"), ["king"]);
    assert_eq!(kinds_at(&g, &st, "b2"), ["man"]);
    assert!(st.outcome().is_none(), "the rules saw a wrong count");
}

/// Whole stacks of mixed kinds carried onto others (`carry`), counted by kind after each move.
#[test]
fn carried_stacks_of_mixed_kinds_are_counted_by_kind() {
    let src = r#"
game "Stacks" {}
sides A B
limit 30 turns
board {
  row c[1..4] at y 0 kind cell
  directions e (1, 0) w (-1, 0)
}
pieces { man tokens 4  king tokens 4 }
start {
  place 1 man on c1 for A  place 1 king on c1 for A  place 1 king on c2 for B
  place 1 man on c3 for B  place 1 man on c3 for A  place 1 king on c4 for B
}
turn {
  choose go token t to q in steps(site(t), e, w) where owner(t) == mover {
    carry t onto q
    if count(q, man) + count(q, king) != count(q) { end game draw "counts disagree" }
  }
}
"#;
    play_to_the_turn_limit(src, 3, 20, "the rules saw a wrong count");
}

/// Plays `games` random games of `src` (seeded by `seed`): the kept counts agree with the
/// stacks after every step, and each game ends at its turn limit (a rule that sees a wrong
/// answer ends it otherwise, saying `why`).
fn play_to_the_turn_limit(src: &str, seed: u64, games: usize, why: &str) {
    let g = load_game(src, &Settings::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let mut rng = Lcg(seed);
    for _ in 0..games {
        let mut st = g.start();
        while !matches!(st.pending(), Pending::Over(_)) {
            random_step(&g, &mut st, &mut rng);
            assert!(g.token_counts_agree(&st));
        }
        let o = st.outcome().expect("over");
        assert_eq!(o.reason, ludic::EndReason::TurnLimit, "{why}");
    }
}

/// A position built by hand: the counts are rebuilt from the tokens placed.
#[test]
fn a_position_built_by_hand_has_its_counts() {
    let g = game("chess");
    let st = ludic::setup::Setup::new(&g)
        .token("White", "king", "e1")
        .and_then(|b| b.token("Black", "king", "e8"))
        .and_then(|b| b.token("White", "rook", "a1"))
        .and_then(|b| b.token("Black", "queen", "d8"))
        .and_then(|b| b.mover("White"))
        .unwrap_or_else(|e| panic!("{e}"))
        .build();
    assert!(g.token_counts_agree(&st));
    assert_eq!(kinds_at(&g, &st, "d8"), ["queen"]);
    assert_eq!(kinds_at(&g, &st, "e1"), ["king"]);
    // the rules read the counts (the king not left attacked): White has moves
    assert!(!st.moves().is_empty());
}

/// The kinds of the tokens at a site, bottom first.
fn kinds_at(g: &ludic::Game, st: &ludic::State, s: &str) -> Vec<String> {
    st.tokens()
        .stack(site(g, s))
        .iter()
        .map(|&t| {
            let k = st.tokens().kind_of(t).0 as usize;
            g.piece_kinds().nth(k).expect("a kind").name.to_string()
        })
        .collect()
}

/// A question about tokens whose condition asks what a token's site holds
/// (`count(site(x), K) > 0`, `== 0`, two kinds joined by `or`, `site(x) != none`) is answered
/// from the counts kept per site, before the rest of the condition: the same answers as the
/// same tests written so that no index reads them (`if … then 1 else 0`), in random games
/// with stacks of mixed kinds, tokens that change kind or leave the board, and counters
/// sharing sites with tokens.
#[test]
fn questions_about_what_a_tokens_site_holds_agree_with_the_tests_one_by_one() {
    let src = r#"
game "Holds" {}
sides A B
limit 40 turns
board {
  row c[1..5] at y 0 kind cell
  directions e (1, 0) w (-1, 0)
  area off
}
pieces { man tokens 4  king tokens 4  stone }
start {
  place 1 man on c1 for A  place 1 king on c1 for A  place 1 king on c2 for B
  place 1 man on c3 for B  place 1 man on c4 for A  place 1 king on c5 for B
  place 2 stone on c2  place 1 stone on c5
}
def plain(b) = if b then 1 else 0
def same(a, b) = plain(a) == plain(b)
turn {
  if not same(exists token x where owner(x) == mover and count(site(x), king) > 0,
      exists token x where owner(x) == mover and plain(count(site(x), king) > 0) == 1)
    or not same(exists token x where count(site(x), stone) > 0 and kind(x) == man,
      exists token x where plain(count(site(x), stone) > 0) == 1 and kind(x) == man)
    or site(some token x where count(site(x), man) == 0 and site(x) != none)
      != site(some token x where plain(count(site(x), man) == 0) == 1
      and plain(site(x) != none) == 1)
    or (total token x where count(site(x), man) > 0 or count(site(x), stone) > 0: 1)
      != (total token x where plain(count(site(x), man) > 0 or count(site(x), stone) > 0) == 1: 1)
    or (total token x where count(site(x), king) == 0: 1)
      != (total token x where plain(count(site(x), king) == 0) == 1: 1) {
    end game draw "the questions disagree"
  }
  choose {
    go token t to q in steps(site(t), e, w) where owner(t) == mover { carry t onto q }
    off token t where owner(t) == mover and site(t) != none { send t to off }
    back token t where owner(t) == mover and site(t) == none { move t onto c1 }
    promote token t where owner(t) == mover and kind(t) == man and site(t) != none {
      set kind(t) = king
    }
  }
}
"#;
    play_to_the_turn_limit(src, 11, 60, "the questions disagree");
}
