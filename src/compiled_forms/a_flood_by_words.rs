//! Floods (`connected`, `neighbours` of a set) spreading by words and questions over floods
//! met by words, against the search one site at a time.

use crate::engine::compile::query::{BY_WORDS, MEETS, ONE_AT_A_TIME, SHARED};
use crate::engine::state::Pending;

/// A game on `board` whose every placement marks the sites of floods (`connected`) from
/// the new stone through the mover's stones, from its neighbours through the opponent's,
/// and from an empty set, and the neighbours of the new stone's group; a pass is always
/// offered.
fn game(board: &str) -> String {
    format!(
        r#"
game "Floods" {{ }}
sides A B
limit 120 turns
board {{ {board} }}
pieces {{ stone tokens 60 }}
tally group per site = 0
tally played = 0
start {{ first A }}
def stones(p) = (x where owner(top(x)) == p)
turn {{
  choose {{
place s where top(s) == none {{
  place 1 stone on s for mover
  set played = played + 1
  for q in connected(s, stones(mover)) {{ set group(q) = group(q) * 3 + played }}
  for q in connected(neighbours(s), stones(opponent)) {{ set group(q) = group(q) + 1 }}
  for q in connected((q where group(q) < 0), stones(mover)) {{ set group(q) = 0 }}
  for q in neighbours(connected(s, stones(mover))) {{ set group(q) = group(q) * 2 + 1 }}
  # questions over floods: met by words where the condition only reads the board
  if exists q in connected(s, stones(mover)) where (if mover == A then y(q) == 0 else x(q) == 0) {{
    set group(s) = group(s) + 1
  }}
  if exists q in neighbours(connected(s, stones(mover))) where top(q) == none and q != s {{
    set group(s) = group(s) + 2
  }}
  if forall q in connected(neighbours(s), stones(opponent)): not (if mover == B then x(q) < 3 else y(q) > 2) {{
    set group(s) = group(s) + 4
  }}
  if exists q in connected((q where group(q) < 0), stones(mover)) where top(q) != none {{
    set group(s) = group(s) + 8
  }}
  # not met by words: a condition that computes (played % 3) or reads a tally
  if exists q in connected(s, stones(mover)) where (if played % 3 == 0 then x(q) == 1 else y(q) == 1) {{
    set group(s) = group(s) + 16
  }}
  if exists q in connected(s, stones(mover)) where group(q) > 40 {{ set group(s) = group(s) + 32 }}
}}
pass where true {{ }}
  }}
}}
"#
    )
}

/// The game loaded with its floods searching one site at a time (`queue`) or as planned;
/// the number of floods that spread by words.
fn load(text: &str, queue: bool) -> (crate::Game, usize, usize) {
    ONE_AT_A_TIME.with(|c| c.set(queue));
    BY_WORDS.with(|c| c.set(0));
    MEETS.with(|c| c.set(0));
    let game = crate::load_game(text, &crate::Settings::default());
    ONE_AT_A_TIME.with(|c| c.set(false));
    let game = game.unwrap_or_else(|e| panic!("the game loads: {e:?}"));
    let (floods, meets) = (BY_WORDS.with(|c| c.get()), MEETS.with(|c| c.get()));
    (game, floods, meets)
}

/// On boards of several shapes and sizes (1 to 4 words of sites; a square grid, a rhombus
/// of hexagons, boards with holes, one past 256 sites where no flood spreads by words),
/// random games offer the same decisions, mark the same sites (the same groups and their
/// neighbours) and count the same work at every step whether the floods spread by words or
/// one site at a time.
#[test]
fn a_flood_by_words_finds_the_sites_and_counts_the_work_of_the_search_by_sites() {
    let boards = [
        ("points for x in 0..5, y in 0..4 links (1, 0) (0, 1)", 12),
        (
            "points for x in 0..8, y in 0..8 links (1, 0) (0, 1) (1, -1)",
            12,
        ),
        (
            "points for x in 0..11, y in 0..11 where (x * 7 + y * 3) % 5 != 0 \
             links (1, 0) (0, 1) (1, 1)",
            12,
        ),
        (
            "points for x in 0..15, y in 0..15 where x % 4 != 1 or y % 3 == 0 \
             links (1, 0) (0, 1) (1, -1) (2, 0)",
            12,
        ),
        ("points for x in 0..16, y in 0..16 links (1, 0) (0, 1)", 0),
    ];
    for (board, by_words) in boards {
        let text = game(board);
        let (words, n, meets) = load(&text, false);
        assert_eq!(n, by_words, "{board}: floods by words");
        assert_eq!(meets, 4, "{board}: questions over floods met by words");
        let (queue, none, no_meets) = load(&text, true);
        assert_eq!((none, no_meets), (0, 0), "{board}");
        let group = |st: &crate::engine::state::State, g: &crate::Game| {
            st.site_tally_words(g.ir(), "group")
                .expect("a tally per site")
        };
        for seed in 0..6u64 {
            let (mut a, mut b) = (words.start(), queue.start());
            let mut seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut steps = 0;
            while !matches!(a.pending(), Pending::Over(_)) {
                assert_eq!(a.moves(), b.moves(), "{board}: step {steps}");
                assert_eq!(group(&a, &words), group(&b, &queue), "{board}: {steps}");
                assert_eq!(a.r.work, b.r.work, "{board}: work at step {steps}");
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // placements 15 times in 16, so that groups grow
                let moves = a.moves();
                let d = if seed % 16 == 0 || moves.len() == 1 {
                    moves[moves.len() - 1]
                } else {
                    moves[(seed >> 8) as usize % (moves.len() - 1)]
                };
                words.play(&mut a, d).expect("a legal decision");
                queue.play(&mut b, d).expect("a legal decision");
                steps += 1;
            }
            assert!(steps > 20, "{board}: {steps} steps");
            assert_eq!(a.outcome(), b.outcome(), "{board}");
        }
    }
}

/// A game of joining two sides by a chain (each placement ends the game when the new stone's
/// chain touches both of the mover's sides), with the questions over one flood written as
/// `and` of two, as three conjuncts of which two share a flood, and once with a condition
/// that is not met by words (so that run is compiled one question at a time).
fn joining(size: u32) -> String {
    let last = size - 1;
    format!(
        r#"
game "Join" {{ }}
sides A B
limit 200 turns
board {{ points for x in 0..{last}, y in 0..{last} links (1, 0) (0, 1) (1, -1) }}
pieces {{ stone tokens 41 }}
tally marks = 0
start {{ first A }}
def stones(p) = (x where owner(top(x)) == p)
def edge(q, k) = if mover == A then y(q) == k else x(q) == k
turn {{
  choose place s where top(s) == none {{
    place 1 stone on s for mover
    let group = connected(s, stones(mover))
    if (exists q in group where edge(q, 1)) and (exists q in group where edge(q, {last} - 1)) {{
      set marks = marks + 1
    }}
    if marks >= 0 and (exists q in group where x(q) == 2) and (exists q in group where y(q) == 2) {{
      set marks = marks + 2
    }}
    if (exists q in group where edge(q, 0)) and (exists q in group where marks % 5 == x(q)) {{
      set marks = marks + 4
    }}
    if (exists q in group where edge(q, 0)) and (exists q in group where edge(q, {last})) {{
      end game winner mover "joined"
    }}
  }}
}}
"#
    )
}

/// Questions over one flood, adjacent in a conjunction, find the flood once: the same
/// decisions, tallies and outcomes as when each question searches on its own (one site at a
/// time), never more work; three runs are compiled so (the `and`s of two, the two of three
/// conjuncts), not the run with a condition that reads a tally.
#[test]
fn questions_over_one_flood_find_it_once() {
    for size in [5, 9] {
        let text = joining(size);
        SHARED.with(|c| c.set(0));
        let (once, _, _) = load(&text, false);
        assert_eq!(SHARED.with(|c| c.get()), 3, "{size}");
        SHARED.with(|c| c.set(0));
        let (each, _, _) = load(&text, true);
        assert_eq!(SHARED.with(|c| c.get()), 0, "{size}");
        let (mut less, mut won, mut marked) = (0, 0, 0);
        for seed in 0..30u64 {
            let (mut a, mut b) = (once.start(), each.start());
            let mut seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            while !matches!(a.pending(), Pending::Over(_)) {
                assert_eq!(a.moves(), b.moves(), "{size}");
                assert_eq!(
                    a.tally(once.ir(), "marks", None),
                    b.tally(each.ir(), "marks", None)
                );
                assert!(a.r.work <= b.r.work, "{size}: more work");
                less += (a.r.work < b.r.work) as usize;
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let moves = a.moves();
                let d = moves[(seed >> 8) as usize % moves.len()];
                once.play(&mut a, d).expect("a legal decision");
                each.play(&mut b, d).expect("a legal decision");
            }
            assert_eq!(a.outcome(), b.outcome(), "{size}");
            won += a.outcome().is_some_and(|o| o.winner.is_some()) as usize;
            marked += (a.tally(once.ir(), "marks", None) != Some(0)) as usize;
        }
        assert!(
            less > 0 && won > 20 && marked > 20,
            "{size}: {less} {won} {marked}"
        );
    }
}

/// A game placing and lifting stones whose questions test `owner(top(x))` against the mover,
/// the opponent, a fixed side and `none` (`cond` is appended to each test: empty for the
/// indexed tests, `or seen(mover) < 0` to have each site tried one at a time).
fn owners(cond: &str) -> String {
    format!(
        r#"
game "Owners" {{ }}
sides A B C
limit 90 turns
board {{ points for x in 0..5, y in 0..5 links (1, 0) (0, 1) }}
pieces {{ stone tokens 30 }}
tally seen per player = 0
start {{ first A }}
turn {{
  choose {{
    place s where owner(top(s)) == none {cond} {{ place 1 stone on s for mover }}
    shift s where top(s) == none and (count((q where owner(top(q)) == none {cond})) < 3) {{ }}
    lift s where owner(top(s)) == opponent {cond} {{ capture s }}
    mark s where (owner(top(s)) == B {cond}) and x(s) < 4 {{
      set seen(mover) = seen(mover) + count((s where owner(top(s)) == mover {cond}))
        + 10 * count((s where owner(top(s)) != C {cond}))
    }}
  }}
}}
"#
    )
}

/// `owner(top(x)) == P` for the mover, the opponent, a fixed side or none read as the
/// top owners' sets (a plain test) answers as the same test tried at each site.
#[test]
fn a_top_owner_of_a_known_player_is_a_plain_test() {
    let load = |t: &str| crate::load_game(t, &crate::Settings::default()).expect("loads");
    let (indexed, each) = (load(&owners("")), load(&owners("or seen(mover) < 0")));
    let (mut lifts, mut marks) = (0, 0);
    for seed in 0..20u64 {
        let (mut a, mut b) = (indexed.start(), each.start());
        let mut seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while !matches!(a.pending(), Pending::Over(_)) {
            assert_eq!(a.moves(), b.moves());
            for p in 0..3 {
                let seen = |st: &crate::engine::state::State, g: &crate::Game| {
                    st.tally(g.ir(), "seen", Some(crate::ir::Player(p)))
                };
                assert_eq!(seen(&a, &indexed), seen(&b, &each));
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let moves = a.moves();
            let d = moves[(seed >> 8) as usize % moves.len()];
            let said = indexed.notation_of(&a, d);
            lifts += said.starts_with("lift") as usize;
            marks += said.starts_with("mark") as usize;
            indexed.play(&mut a, d).expect("a legal decision");
            each.play(&mut b, d).expect("a legal decision");
        }
        assert_eq!(a.outcome(), b.outcome());
    }
    assert!(lifts > 20 && marks > 20, "{lifts} {marks}");
}
