//! Connect four's random playouts in the shape a code generator would give games/connect-four.game:
//! each construct of the description as the engine's data has it (stacks of tokens on sites, a
//! pool of tokens per side, the candidate sites scanned with the `where` test inlined, the board's
//! `lines 4` through the site from a table, `exists q where empty(q)` a scan), no knowledge the
//! description does not state. The yardstick of issue 29's design: how far a compiled game is
//! from the interpreter (`ludic bench connect-four`) and from OpenSpiel's C++.
//!
//! Usage: shape_c4 [N]: N playouts (default 1,000,000) from seed 1; prints the decisions and
//! the playouts a CPU-second. Instructions: `valgrind --tool=callgrind` on N and on 1 playout.
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const W: usize = 7;
const H: usize = 6;
const N: usize = W * H;
const NONE: u8 = u8::MAX;

fn site(x: usize, y: usize) -> usize {
    x * H + y
}

/// lines of 4 through each site (the board's `lines 4` along its links)
fn lines() -> Vec<Vec<[u8; 4]>> {
    let mut through = vec![vec![]; N];
    for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
        for x in 0..W as i32 {
            for y in 0..H as i32 {
                let pts: Vec<(i32, i32)> = (0..4).map(|k| (x + k * dx, y + k * dy)).collect();
                if pts
                    .iter()
                    .all(|&(a, b)| (0..W as i32).contains(&a) && (0..H as i32).contains(&b))
                {
                    let l = [0, 1, 2, 3].map(|k| site(pts[k].0 as usize, pts[k].1 as usize) as u8);
                    for &s in &l {
                        through[s as usize].push(l);
                    }
                }
            }
        }
    }
    through
}

struct St {
    top: [u8; N],       // token on the site (NONE: empty)
    owner: [u8; 42],    // owner of each token
    next_free: [u8; 2], // next token of each side's pool
    mover: u8,
    turn: u32,
}

fn playout(rng: &mut Xoshiro256PlusPlus, lines: &[Vec<[u8; 4]>], moves: &mut Vec<u8>) -> u64 {
    let mut st = St {
        top: [NONE; N],
        owner: [0; 42],
        next_free: [0, 21],
        mover: 0,
        turn: 0,
    };
    for t in 0..42 {
        st.owner[t] = (t >= 21) as u8;
    }
    let mut decisions = 0;
    loop {
        if st.turn >= 42 {
            return decisions;
        }
        moves.clear();
        for s in 0..N {
            let y = s % H;
            if st.top[s] == NONE && (y == 0 || st.top[s - 1] != NONE) {
                moves.push(s as u8);
            }
        }
        if moves.is_empty() {
            return decisions;
        }
        let s = moves[rng.random_range(0..moves.len())] as usize;
        decisions += 1;
        let t = st.next_free[st.mover as usize];
        st.next_free[st.mover as usize] += 1;
        st.top[s] = t;
        let m = st.mover;
        let owns = |q: u8| st.top[q as usize] != NONE && st.owner[st.top[q as usize] as usize] == m;
        if lines[s].iter().any(|l| l.iter().all(|&q| owns(q))) {
            return decisions;
        }
        if !(0..N).any(|q| st.top[q] == NONE) {
            return decisions;
        }
        st.mover ^= 1;
        st.turn += 1;
    }
}

fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: t is a valid timespec to write into
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map_or(1_000_000, |a| a.parse().unwrap());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let lines = lines();
    let mut moves = Vec::with_capacity(N);
    let t0 = cpu_seconds();
    let mut d = 0;
    for _ in 0..n {
        d += playout(&mut rng, &lines, &mut moves);
    }
    let s = cpu_seconds() - t0;
    println!(
        "playouts {n} decisions {d} dec/playout {:.3} playouts/cpu_s {:.0}",
        d as f64 / n as f64,
        n as f64 / s
    );
}
