//! The parts of a choice's condition that read a value worked out once before the values are
//! tried (`pre`) and only read the board and the turn (`ir::Alt::checks`), tested once before
//! the values instead of at each: the same decisions as the same condition tested at each
//! value (written so that it reads the variable, and is not moved).

use super::an_argument_evaluated_once::same_play_with;

/// The game with `extra` added to the checked parts (empty: they are tested once; with a test
/// of the variable that never holds: at each value).
fn game(put: &str, take: &str) -> String {
    format!(
        r#"
game "Checks" {{ }}
sides A B
limit 24 turns
board {{
  points for x in 0..3, y in 0..2 kind cell
  links (1, 0) (0, 1)
  area pile
}}
pieces {{ disc tokens 16 }}
def placed = total token u where site(u) != none: 1
def theirs = total token u where site(u) != none and owner(u) != mover: 1
start {{ first A }}
turn {{
  choose {{
    put s where top(s) == none and (placed < 3 or placed > 5 or mover == A{put}) {{
      place 1 disc on s for mover
    }}
    take token t where owner(t) != mover and site(t) != none and (theirs > 1 and mover == B{take}) {{
      send t to pile
    }}
    pass where true
  }}
}}
"#
    )
}

fn load(text: &str) -> crate::Game {
    crate::load(&crate::Source::infer(text), &crate::Settings::default())
        .unwrap_or_else(|e| panic!("the game loads: {e:?}"))
}

/// The number of checked parts of each alternative of the game's first choice.
fn checks(g: &crate::Game) -> Vec<usize> {
    g.ir().choices[0]
        .alts
        .iter()
        .map(|a| a.checks.len())
        .collect()
}

#[test]
fn a_part_read_once_before_the_values_plays_as_at_each_value() {
    let once = load(&game("", ""));
    let each = load(&game(" or s == none", " or t == none"));
    assert_eq!(checks(&once), vec![1, 1, 0], "the parts tested once");
    assert_eq!(
        checks(&each),
        vec![0, 0, 0],
        "the parts tested at each value"
    );
    let (positions, outcomes) = same_play_with(&once, &each, 60, 40, |_, _| {});
    assert!(positions > 600, "{positions} positions");
    // the checks both pass and fail in these games: decisions of each alternative are offered
    // in some positions and not in others
    assert!(outcomes.len() == 60);
    let mut seen = [[false; 2]; 2];
    let (mut x, mut seed) = (once.start(), 7u64);
    for _ in 0..2000 {
        if x.is_over() {
            x = once.start();
        }
        let alts: Vec<u8> = x
            .moves()
            .iter()
            .filter_map(|d| match d {
                crate::Decision::Alt { alt, .. } => Some(*alt),
                _ => None,
            })
            .collect();
        for a in 0..2u8 {
            seen[a as usize][alts.contains(&a) as usize] = true;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let d = x.moves()[(seed >> 33) as usize % x.moves().len()];
        once.play_unchecked(&mut x, d);
    }
    assert_eq!(
        seen, [[true; 2]; 2],
        "each alternative offered and not offered"
    );
}
