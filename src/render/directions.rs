//! Which way a ring direction goes on the screen, in words for the mover.

use super::*;

/// Which way a ring direction (`cw`, `ccw`, as the game names them) goes on the screen, for
/// the mover: `to the right along your row` when the mover's own sites follow one another that
/// way (or the whole ring's, when the mover owns none); None when the ring does not go one way
/// along a row, or the game names no directions.
pub fn direction_hint(g: &Game, st: &State, word: &str) -> Option<String> {
    let names = g.dir_names.as_ref()?;
    let d = names.iter().position(|n| n.eq_ignore_ascii_case(word))?;
    let mover = st.mover();
    let mine = |s: usize| g.sites[s].owner == Some(mover);
    let owns_any = (0..g.sites.len()).any(mine);
    let (mut right, mut left) = (0, 0);
    for (s, &t) in g.next[d].iter().enumerate() {
        let t = t as usize;
        if t >= g.sites.len() || (owns_any && !(mine(s) && mine(t))) {
            continue;
        }
        if g.sites[s].y == g.sites[t].y {
            match g.sites[t].x.cmp(&g.sites[s].x) {
                std::cmp::Ordering::Greater => right += 1,
                std::cmp::Ordering::Less => left += 1,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    let whose = if owns_any { "your" } else { "the" };
    match (right > 0, left > 0) {
        (true, false) => Some(format!("to the right along {whose} row")),
        (false, true) => Some(format!("to the left along {whose} row")),
        _ => None,
    }
}
