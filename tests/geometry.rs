//! The board's geometry in the language (issue 27): named directions (`directions n (0, 1)`,
//! `next(s, n)`), rays up to a blocker (`ray`, `rays`), steps in several directions (`steps`),
//! computed coordinates (`site_at(x, y)`), connectivity (`connected(FROM, THROUGH)`) and the
//! neighbours of a set. The queens fixture is checked move for move against a reference written
//! here in plain Rust (perft 1-4 and the legal moves of random positions).

mod common;
use common::*;
use ludic::perft::perft;
use ludic::setup::Setup;
use ludic::{Game, Settings, State, load_game};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn fixture(name: &str) -> Game {
    let path = format!("tests/fixtures/geometry/{name}.game");
    let src = std::fs::read_to_string(&path).unwrap();
    load_game(&src, &Settings::default()).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn legal(g: &Game, st: &State) -> Vec<String> {
    let mut v = g.legal_notations(st);
    v.sort();
    v
}

// ------------------------------------------------------------------ the reference

/// The queens game in plain Rust: a 5 x 5 board of (owner + 1) per square, White (0) first.
#[derive(Clone)]
struct Queens {
    board: [[i8; 5]; 5],
    mover: i8,
}

const QUEEN: [(i64, i64); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
const KNIGHT: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn name(x: i64, y: i64) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// A move: its notation, the square moved from and the square moved to.
type Move = (String, (i64, i64), (i64, i64));

impl Queens {
    fn at(&self, x: i64, y: i64) -> Option<i8> {
        ((0..5).contains(&x) && (0..5).contains(&y)).then(|| self.board[y as usize][x as usize])
    }

    /// The legal moves with their notation, and the square moved from and to.
    fn moves(&self) -> Vec<Move> {
        let me = self.mover + 1;
        let mut out = vec![];
        if !self.board.iter().flatten().any(|&c| c == me) {
            return out;
        }
        for y in 0..5 {
            for x in 0..5 {
                if self.board[y as usize][x as usize] != me {
                    continue;
                }
                for (dx, dy) in QUEEN {
                    let (mut tx, mut ty) = (x + dx, y + dy);
                    while let Some(c) = self.at(tx, ty) {
                        if c != me {
                            out.push((
                                format!("slide {} {}", name(x, y), name(tx, ty)),
                                (x, y),
                                (tx, ty),
                            ));
                        }
                        if c != 0 {
                            break;
                        }
                        tx += dx;
                        ty += dy;
                    }
                }
                for (dx, dy) in KNIGHT {
                    if let Some(c) = self.at(x + dx, y + dy)
                        && c != me
                    {
                        out.push((
                            format!("leap {} {}", name(x, y), name(x + dx, y + dy)),
                            (x, y),
                            (x + dx, y + dy),
                        ));
                    }
                }
                let fy = if self.mover == 0 { y + 1 } else { y - 1 };
                if self.at(x, fy) == Some(0) {
                    out.push((format!("push {}", name(x, y)), (x, y), (x, fy)));
                }
            }
        }
        out
    }

    fn play(&mut self, from: (i64, i64), to: (i64, i64)) {
        self.board[to.1 as usize][to.0 as usize] = self.board[from.1 as usize][from.0 as usize];
        self.board[from.1 as usize][from.0 as usize] = 0;
        self.mover = 1 - self.mover;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|(_, f, t)| {
                let mut q = self.clone();
                q.play(*f, *t);
                q.perft(depth - 1)
            })
            .sum()
    }
}

fn start() -> Queens {
    let mut board = [[0; 5]; 5];
    board[0][0] = 1;
    board[0][2] = 1;
    board[4][4] = 2;
    board[4][2] = 2;
    Queens { board, mover: 0 }
}

#[test]
fn rays_steps_and_directions_per_side_agree_with_a_reference_perft() {
    let g = fixture("queens");
    let st = g.start();
    let reference = start();
    for depth in 1..=4 {
        assert_eq!(
            perft(&g, &st, depth).unwrap(),
            reference.perft(depth),
            "perft({depth})"
        );
    }
}

#[test]
fn rays_steps_and_directions_per_side_agree_with_a_reference_in_random_games() {
    let g = fixture("queens");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(27);
    for _ in 0..200 {
        let mut st = g.start();
        let mut q = start();
        while !g.is_terminal(&st) {
            let mut want: Vec<String> = q.moves().into_iter().map(|m| m.0).collect();
            want.sort();
            assert_eq!(legal(&g, &st), want);
            let moves = q.moves();
            let (m, f, t) = moves[rng.random_range(0..moves.len())].clone();
            play(&g, &mut st, &[m.as_str()]);
            q.play(f, t);
        }
    }
}

#[test]
fn the_start_position_lists_each_ray_up_to_its_blocker() {
    let g = fixture("queens");
    let st = g.start();
    let moves = legal(&g, &st);
    // a1: north to a5 (4), north-east to e5 taking (4), east to b1 (c1 is White's own).
    let from_a1: Vec<&String> = moves.iter().filter(|m| m.starts_with("slide a1")).collect();
    assert_eq!(from_a1.len(), 9, "{from_a1:?}");
    assert!(moves.contains(&"slide a1 e5".to_string()));
    assert!(
        !moves.contains(&"slide a1 c1".to_string()) && !moves.contains(&"slide a1 d1".to_string())
    );
    assert!(moves.contains(&"push a1".to_string()) && moves.contains(&"leap a1 c2".to_string()));
}

// ------------------------------------------------------------------ connectivity

/// A capture of groups without liberties, as in go, on a 4 x 4 board of counters.
const GROUPS: &str = r#"
game "Groups" {}
sides Black White
limit 50 turns
board {
  points for x in 0..3, y in 0..3
  links (1, 0) (0, 1)
}
pieces { black  white }
def stone(x)      = count(x) > 0
def theirs(x)     = if mover == Black then count(x, white) > 0 else count(x, black) > 0
def group(r)      = connected(r, (x where theirs(x)))
def dead(r)       = not exists l in neighbours(group(r)) where not stone(l)
def edge_to_edge  = exists q in connected((x where x(x) == 0), (x where count(x, black) > 0)) where x(q) == 3
turn {
  choose place q where not stone(q) and site_at(x(q), y(q)) == q {
    if mover == Black { place 1 black on q } else { place 1 white on q }
    for r in neighbours(q) { if theirs(r) and dead(r) { capture group(r) } }
    if edge_to_edge { end game winner Black "joined the west and east edges" }
  }
}
"#;

fn groups(black: &[&str], white: &[&str], mover: &str) -> (Game, State) {
    let g = load_game(GROUPS, &Settings::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let mut s = Setup::new(&g).mover(mover).unwrap();
    for b in black {
        s = s.put(b, "black", 1).unwrap();
    }
    for w in white {
        s = s.put(w, "white", 1).unwrap();
    }
    let st = s.build();
    (g, st)
}

fn stones(g: &Game, st: &State) -> String {
    let mut out = String::new();
    for y in (0..4).rev() {
        for x in 0..4 {
            let s = name(x, y);
            out.push(
                match (count(g, st, &s, "black"), count(g, st, &s, "white")) {
                    (1, 0) => 'B',
                    (0, 1) => 'W',
                    _ => '.',
                },
            );
        }
        out.push('\n');
    }
    out
}

#[test]
fn a_group_without_liberties_is_captured_whole_and_one_with_a_liberty_stays() {
    // White's b2 b3 c2: its liberties are a2 a3 b1 b4 c1 c3 d2; Black holds all but c3.
    let (g, mut st) = groups(
        &["a2", "a3", "b1", "b4", "c1", "d2"],
        &["b2", "b3", "c2"],
        "Black",
    );
    play(&g, &mut st, &["place c3"]);
    assert_eq!(stones(&g, &st), ".B..\nB.B.\nB..B\n.BB.\n");
    // With a liberty left (d2 empty), nothing is taken.
    let (g, mut st) = groups(
        &["a2", "a3", "b1", "b4", "c1"],
        &["b2", "b3", "c2"],
        "Black",
    );
    play(&g, &mut st, &["place c3"]);
    assert_eq!(stones(&g, &st), ".B..\nBWB.\nBWW.\n.BB.\n");
}

#[test]
fn connected_joins_two_edges_through_the_links_only() {
    // a diagonal is no link: a1 b2 c3 d4 does not join the west and east edges
    let (g, mut st) = groups(&["a1", "b2", "c3"], &["a4"], "Black");
    play(&g, &mut st, &["place d4"]);
    assert!(!g.is_terminal(&st));
    // a bent chain does: a1 b1 b2 c2 d2
    let (g, mut st) = groups(&["a1", "b1", "b2", "c2"], &["a4"], "Black");
    play(&g, &mut st, &["place d2"]);
    assert!(g.is_terminal(&st));
}
