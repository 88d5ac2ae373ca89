//! Helpers shared by the integration tests.
#![allow(dead_code)]

use ludic::{Game, Settings, State, load_game};
use ludic::{PieceKind, Player, SiteId};

pub fn game(name: &str) -> Game {
    game_with(name, &[], None)
}

pub fn game_with(name: &str, options: &[&str], variant: Option<&str>) -> Game {
    let (_, src) = ludic::builtin::find(name).expect("a built-in game");
    let mut s = Settings {
        variant: variant.map(str::to_string),
        sets: vec![],
    };
    for o in options {
        s.push_assignment(o).expect("NAME=VALUE");
    }
    load_game(src, &s).unwrap_or_else(|e| panic!("{name} does not load: {e:?}"))
}

pub fn site(g: &Game, name: &str) -> SiteId {
    g.site_named(name)
        .unwrap_or_else(|| panic!("no site {name}"))
}

pub fn piece(g: &Game, name: &str) -> PieceKind {
    PieceKind(
        g.piece_kinds()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("no piece {name}")) as u8,
    )
}

pub fn side(g: &Game, name: &str) -> Player {
    Player(
        g.players()
            .iter()
            .position(|p| p == name)
            .unwrap_or_else(|| panic!("no side {name}")) as u8,
    )
}

/// Plays decisions by notation, panicking with the legal list when one is refused.
pub fn play(g: &Game, st: &mut State, moves: &[&str]) {
    for m in moves {
        let d = g.parse_decision(st, m).unwrap_or_entered(|e| {
            panic!("`{m}` refused: {e}; legal: {:?}", g.legal_notations(st))
        });
        assert_eq!(&g.notation_of(st, d), m, "`{m}` read as another decision");
        g.play(st, d).expect("legal");
    }
}

trait UnwrapOrEntered<T> {
    fn unwrap_or_entered(self, f: impl FnOnce(String) -> T) -> T;
}
impl<T> UnwrapOrEntered<T> for Result<T, String> {
    fn unwrap_or_entered(self, f: impl FnOnce(String) -> T) -> T {
        match self {
            Ok(x) => x,
            Err(e) => f(e),
        }
    }
}

/// Total pieces (all kinds) at each named site, as "name=count" joined by spaces.
pub fn board(g: &Game, st: &State, names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("{n}={}", st.total_at(g, site(g, n))))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn count(g: &Game, st: &State, s: &str, p: &str) -> u32 {
    st.count(g, site(g, s), piece(g, p))
}

pub fn captured(g: &Game, st: &State, who: &str, p: &str) -> u32 {
    st.captured(g, side(g, who), piece(g, p))
}

/// Forces the pending throw to the first way the dice land with this value.
pub fn throw(g: &Game, st: &mut State, value: i64) {
    let ludic::Pending::Throw(d) = st.pending() else {
        panic!("no throw pending: {:?}", st.pending())
    };
    let i = g
        .all_dice()
        .nth(d as usize)
        .unwrap()
        .outcomes
        .iter()
        .position(|o| o.0 == value)
        .unwrap_or_else(|| panic!("no throw gives {value}"));
    g.play_chance(st, i as i64).unwrap();
}

/// The stack at a site, top first, as owners' initials.
pub fn stack(g: &Game, st: &State, s: &str) -> String {
    st.tokens()
        .stack(site(g, s))
        .iter()
        .rev()
        .map(|&t| {
            g.players()[g.token(t).unwrap().owner.0 as usize]
                .chars()
                .next()
                .unwrap()
        })
        .collect()
}

/// How many tokens of a side are in an area.
pub fn in_area(g: &Game, st: &State, who: &str, area: &str) -> usize {
    let a = g.area_named(area).expect("area");
    let p = side(g, who);
    (0..g.num_tokens())
        .filter(|&t| g.token(t).unwrap().owner == p && st.tokens().area_of(t) == Some(a))
        .count()
}

/// A small deterministic generator, so that the tests do not depend on the RNG crate.
pub struct Lcg(pub u64);
impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// One random step: a chance outcome or a legal decision (the game must not be over).
pub fn random_step(g: &Game, st: &mut State, rng: &mut Lcg) {
    if st.moves().is_empty() {
        let outs = g.chance_outcomes(st);
        g.play_chance(st, outs[rng.below(outs.len())].0).unwrap();
    } else {
        let d = st.moves()[rng.below(st.moves().len())];
        g.play(st, d).unwrap();
    }
}

/// Every file under `dir` and its folders (only those ending in `.EXT` when `ext` is given),
/// sorted: what the structure tests read.
pub fn files_under(dir: &str, ext: Option<&str>) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    let mut dirs = vec![std::path::PathBuf::from(dir)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if ext.is_none_or(|e| path.extension().is_some_and(|x| x == e)) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
