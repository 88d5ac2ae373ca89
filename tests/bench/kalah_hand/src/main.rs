//! Kalah(6,4) random playouts written by hand: the rules of tests/fixtures/kalah.game (those of
//! OpenSpiel's `mancala`), the generator and the uniform choice of `ludic bench` (rand's
//! Xoshiro256PlusPlus seeded by `seed_from_u64`, `random_range` over the legal decisions).
//!
//! Usage: kalah_hand [N] [SEED]: plays N playouts (default 1,000,000) and prints the playouts,
//! the decisions, the decisions a playout, the CPU seconds and the playouts a CPU-second.
//!
//! The board is OpenSpiel's: 0 is North's store, 1..=6 South's pits s1..s6, 7 South's store,
//! 8..=13 North's pits n1..n6; sowing goes up the indices (counter-clockwise) and skips the
//! opponent's store; the pit opposite i is 14 - i.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const PITS: usize = 6;
const SEEDS: u8 = 4;
const SOUTH_STORE: usize = PITS + 1;
const NORTH_STORE: usize = 0;
const SITES: usize = 2 * PITS + 2;

/// One random playout: the number of decisions, and the result (1 South wins, -1 North, 0 a draw).
fn playout(rng: &mut Xoshiro256PlusPlus) -> (u64, i8) {
    let mut b = [SEEDS; SITES];
    b[SOUTH_STORE] = 0;
    b[NORTH_STORE] = 0;
    // 0: South, 1: North
    let mut mover = 0usize;
    let mut decisions = 0u64;
    let mut legal = [0u8; PITS];
    loop {
        let south: u32 = b[1..=PITS].iter().map(|&c| c as u32).sum();
        let north: u32 = b[PITS + 2..SITES].iter().map(|&c| c as u32).sum();
        if south == 0 || north == 0 {
            let s = b[SOUTH_STORE] as u32 + south;
            let n = b[NORTH_STORE] as u32 + north;
            return (decisions, (s > n) as i8 - (n > s) as i8);
        }
        // the mover's pits with seeds, in the order ludic lists them (its sites' order: the
        // fixture declares s1..s6, then n6..n1), so that both play the same games
        let mut n = 0;
        for i in 0..PITS {
            let p = if mover == 0 { 1 + i } else { SITES - 1 - i };
            if b[p] > 0 {
                legal[n] = p as u8;
                n += 1;
            }
        }
        let pit = legal[rng.random_range(0..n)] as usize;
        decisions += 1;
        let (own_store, their_store) = if mover == 0 {
            (SOUTH_STORE, NORTH_STORE)
        } else {
            (NORTH_STORE, SOUTH_STORE)
        };
        let mut hand = std::mem::take(&mut b[pit]);
        let mut at = pit;
        while hand > 0 {
            at = if at + 1 == SITES { 0 } else { at + 1 };
            if at == their_store {
                continue;
            }
            b[at] += 1;
            hand -= 1;
        }
        if at == own_store {
            continue; // he moves again
        }
        let own_pit = if mover == 0 {
            (1..=PITS).contains(&at)
        } else {
            at > PITS + 1
        };
        if own_pit && b[at] == 1 && b[SITES - at] > 0 {
            b[own_store] += b[at] + b[SITES - at];
            b[at] = 0;
            b[SITES - at] = 0;
        }
        mover ^= 1;
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
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64, what: &str| match args.next() {
        None => default,
        Some(a) => a.parse().unwrap_or_else(|_| {
            eprintln!(
                "error: {what} must be a whole number, not `{a}` (usage: kalah_hand [N] [SEED])"
            );
            std::process::exit(2)
        }),
    };
    let n = number(1_000_000, "N (the playouts)");
    if n == 0 {
        eprintln!("error: N (the playouts) must be at least 1");
        std::process::exit(2)
    }
    let seed = number(1, "SEED");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let t0 = cpu_seconds();
    let (mut decisions, mut wins) = (0u64, [0u64; 3]);
    for _ in 0..n {
        let (d, r) = playout(&mut rng);
        decisions += d;
        wins[(r + 1) as usize] += 1;
    }
    let secs = cpu_seconds() - t0;
    println!(
        "playouts {n} decisions {decisions} decisions/playout {:.4} cpu_seconds {secs:.4} playouts/cpu_s {:.0} south_wins {} north_wins {} draws {}",
        decisions as f64 / n as f64,
        n as f64 / secs,
        wins[2],
        wins[0],
        wins[1]
    );
}
