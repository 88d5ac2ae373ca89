//! The engine against itself before its rewrite: random games of every built-in game and
//! variant, played from fixed seeds, must go exactly as they went with the engine they were
//! recorded with. For each game the fixture keeps a digest of every step (the legal decisions in
//! order with their notation, the one taken, the chance outcomes offered and the one drawn) and
//! of the position after it (every site, holding, token, tally, whose turn, the result).
//!
//! `UPDATE_EXPECT=1 cargo test --test differential` rewrites the fixtures: only do that when a
//! change of the rules is meant to change the games.

mod common;
use common::*;
use ludic::{Game, Pending, State};
use ludic::{PieceKind, Player, SiteId};
use std::fmt::Write as _;

const GAMES_PER_CONFIG: u64 = 200;

/// Every built-in game and variant, one round and matches, and each value of the options that
/// change how the engine runs.
fn configs() -> Vec<(
    &'static str,
    &'static str,
    Vec<&'static str>,
    Option<&'static str>,
)> {
    vec![
        ("pallankuzhi", "pallankuzhi", vec![], None),
        (
            "pallankuzhi-match",
            "pallankuzhi",
            vec!["rounds=match", "max_rounds=40"],
            None,
        ),
        (
            "pallankuzhi-nochogi-nomuthu",
            "pallankuzhi",
            vec!["chogi=off", "muthu=off", "seeds=6"],
            None,
        ),
        ("ceelko", "ceelkoqyuqkoqiji", vec![], None),
        ("ceelko-7", "ceelkoqyuqkoqiji", vec![], Some("seven holes")),
        (
            "ceelko-equal",
            "ceelkoqyuqkoqiji",
            vec![],
            Some("equal stones"),
        ),
        (
            "ceelko-match",
            "ceelkoqyuqkoqiji",
            vec!["rounds=match", "max_rounds=40"],
            None,
        ),
        (
            "ceelko-7-match",
            "ceelkoqyuqkoqiji",
            vec!["rounds=match", "max_rounds=40"],
            Some("seven holes"),
        ),
        ("puluc", "puluc", vec![], None),
        ("kuilichi-1", "kuilichi-chanakua", vec![], None),
        ("kuilichi-2", "kuilichi-chanakua", vec!["team_size=2"], None),
        ("kuilichi-4", "kuilichi-chanakua", vec!["team_size=4"], None),
        ("tuknanavuhpi", "tuknanavuhpi", vec![], None),
        (
            "tuknanavuhpi-ranks",
            "tuknanavuhpi",
            vec!["shrink=ranks"],
            None,
        ),
        (
            "tuknanavuhpi-nocenter",
            "tuknanavuhpi",
            vec!["center_lines=off"],
            None,
        ),
    ]
}

/// FNV-1a, 64 bits.
struct Hash(u64);
impl Hash {
    fn new() -> Self {
        Hash(0xcbf29ce484222325)
    }
    fn add(&mut self, s: &str) {
        for b in s.bytes().chain([0xff]) {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100000001b3);
        }
    }
}

/// The position in words, from the engine's public accessors.
fn position(g: &Game, st: &State) -> String {
    let mut out = String::new();
    for s in 0..g.num_sites() {
        let id = SiteId(s as u16);
        let _ = write!(out, "{}:{:?}:{:?}:", s, st.site_kind(id), st.site_owner(id));
        for k in 0..g.piece_kinds().count() {
            let _ = write!(out, "{},", st.count(g, id, PieceKind(k as u8)));
        }
        let _ = write!(out, "{}:{:?};", st.total_at(g, id), st.tokens().stack(id));
    }
    for p in 0..g.players().len() {
        for k in 0..g.piece_kinds().count() {
            let _ = write!(
                out,
                "{},",
                st.captured(g, Player(p as u8), PieceKind(k as u8))
            );
        }
    }
    for t in 0..g.num_tokens() {
        let toks = st.tokens();
        let _ = write!(
            out,
            "{:?}{:?}{},",
            toks.site_of(t),
            toks.area_of(t),
            toks.position(t)
        );
    }
    for t in g.all_tallies() {
        let n = if t.per_player { g.players().len() } else { 1 };
        for p in 0..n {
            let _ = write!(out, "{:?},", st.tally(g, t.name, Some(Player(p as u8))));
        }
    }
    let _ = write!(
        out,
        "|{:?}|{}|{}|{}|{:?}|{}",
        st.mover(),
        st.turn(),
        st.round(),
        // the result as it was recorded: who won and why (not which `end game` statement)
        match st.outcome() {
            Some(o) => format!(
                "Some(Outcome {{ winner: {:?}, reason: {:?} }})",
                o.winner, o.reason
            ),
            None => "None".into(),
        },
        st.passes(),
        st.cycles_cut()
    );
    out
}

/// One random game from a seed: the digest of its steps and positions, and its length.
fn digest(g: &Game, seed: u64) -> (u64, usize) {
    let mut rng = Lcg(seed.wrapping_mul(0x9e3779b97f4a7c15) ^ 0x5555);
    let mut h = Hash::new();
    let mut st = g.start();
    h.add(&position(g, &st));
    let mut steps = 0;
    while !st.is_over() && steps < 20_000 {
        match st.pending() {
            Pending::ChanceFirst | Pending::Throw(_) => {
                let outs = g.chance_outcomes(&st);
                let i = rng.below(outs.len());
                h.add(&format!("chance {} of {}", outs[i].0, outs.len()));
                g.play_chance(&mut st, outs[i].0).unwrap();
            }
            _ => {
                let names = g.legal_notations(&st);
                let i = rng.below(names.len());
                h.add(&names.join(","));
                h.add(&names[i]);
                let d = st.moves()[i];
                g.play(&mut st, d).unwrap();
            }
        }
        h.add(&position(g, &st));
        steps += 1;
    }
    (h.0, steps)
}

#[test]
fn random_games_go_as_recorded() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = vec![];
    for (name, game, options, variant) in configs() {
        let g = game_with(game, &options, variant);
        let mut text = String::new();
        for seed in 0..GAMES_PER_CONFIG {
            let (hash, steps) = digest(&g, seed);
            let _ = writeln!(text, "{seed} {steps} {hash:016x}");
        }
        let path = format!("tests/fixtures/differential/{name}.txt");
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("missing {path}: run with UPDATE_EXPECT=1"));
        for (got, want) in text.lines().zip(expected.lines()) {
            if got != want {
                failures.push(format!("{name}: got `{got}`, recorded `{want}`"));
            }
        }
        assert_eq!(text.lines().count(), expected.lines().count(), "{path}");
    }
    assert!(
        failures.is_empty(),
        "{} games differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
