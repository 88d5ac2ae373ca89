//! Sowing on a board of more than 64 sites (the drops then span several words of the board's
//! bits): every sowing of a random game drops one seed at each of the next sites along the
//! ring, in its order, skipping the sites the rule skips (the stores, in
//! the bits' second word), or not (a seed sown into a store is its
//! owner's), and no seed is lost or made.

use ludic::{Decision, Game, PieceKind, Settings, SiteId, Source};

/// Kalah with `pits` pits a side (2 * pits + 2 sites, the stores last), sown with or without
/// skipping both stores, and nothing done at the end of a lap.
fn wide(pits: usize, skip: bool) -> String {
    let skip = if skip {
        ", skip (x where kind(x) == store)"
    } else {
        ""
    };
    format!(
        r#"game "Wide" {{ }}
sides South North
limit 300 turns
board {{
  row s[1..{pits}] at y 0 x 1 owner South
  row n[{pits}..1] at y 2 x 1 owner North
  site east at ({e}, 1) kind store owner South
  site west at (0, 1) kind store owner North
  region south_pits = s[1..{pits}]
  region north_pits = n[1..{pits}]
  ring s[1..{pits}] east n[1..{pits}] west forward ccw backward cw
}}
pieces {{ seed }}
start {{
  place 5 seed on south_pits north_pits
  first South
}}
turn {{
  if count(south_pits) == 0 or count(north_pits) == 0 {{ end game }}
  choose sow h where kind(h) == hole and owner(h) == mover and count(h) > 0 {{
    sow h toward ccw{skip}, lap ends at e {{ }}
  }}
}}
"#,
        e = pits + 1
    )
}

/// The seeds at each site, then those each player holds (a seed sown into a player's store
/// is his: the store banks it).
fn counts(g: &Game, st: &ludic::State) -> Vec<u32> {
    let mut c: Vec<u32> = (0..g.num_sites())
        .map(|s| st.count(g, SiteId(s as u16), PieceKind(0)))
        .collect();
    c.extend((0..2).map(|p| st.captured(g, ludic::Player(p), PieceKind(0))));
    c
}

/// The ring's sites in order, by their names (`s1..`, `east`, `n1..`, `west`).
fn ring(g: &Game, pits: usize) -> Vec<usize> {
    let name = |n: String| g.site_named(&n).expect("a site").0 as usize;
    let mut r: Vec<usize> = (1..=pits).map(|i| name(format!("s{i}"))).collect();
    r.push(name("east".into()));
    r.extend((1..=pits).map(|i| name(format!("n{i}"))));
    r.push(name("west".into()));
    r
}

#[test]
fn sowing_on_a_board_of_several_words_drops_one_seed_a_site_in_the_rings_order() {
    let pits = 33;
    let mut sown = 0;
    for skip in [false, true] {
        let g = ludic::load(&Source::infer(&wide(pits, skip)), &Settings::default())
            .expect("the game loads");
        assert!(g.num_sites() > 64);
        let order = ring(&g, pits);
        let (south_store, north_store) = (order[pits], order[2 * pits + 1]);
        for seed in 0..6u64 {
            let mut st = g.start();
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            while !g.is_terminal(&st) {
                let before = counts(&g, &st);
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let d = st.moves()[x as usize % st.moves().len()];
                let Decision::Alt { value, .. } = d else {
                    panic!("a sowing: {d:?}")
                };
                let h = value as usize;
                g.play(&mut st, d).expect("a legal decision");
                let after = counts(&g, &st);
                let n = before[h] as usize;
                // the sites it drops on, in order: the ring from h, skipping the stores when
                // the rule says so
                let mut want = before.clone();
                want[h] = 0;
                let at = order.iter().position(|&s| s == h).expect("on the ring");
                let mut i = at;
                let mut left = n;
                while left > 0 {
                    i = (i + 1) % order.len();
                    if skip && (order[i] == south_store || order[i] == north_store) {
                        continue;
                    }
                    let to = match order[i] {
                        s if s == south_store => g.num_sites(),
                        s if s == north_store => g.num_sites() + 1,
                        s => s,
                    };
                    want[to] += 1;
                    left -= 1;
                }
                assert_eq!(
                    after, want,
                    "skip {skip}, seed {seed}: {n} seeds from site {h}"
                );
                assert_eq!(after.iter().sum::<u32>(), before.iter().sum::<u32>());
                sown += 1;
            }
        }
    }
    assert!(sown > 500, "{sown} sowings");
}
