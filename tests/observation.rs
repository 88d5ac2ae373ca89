//! What the Python package reads through the public API, tested in Rust: the observation
//! tensor (its layout, its contents, no allocation into a buffer), the history of a game as
//! numbers (OpenSpiel's convention) replayed, records made from a history and read back into
//! one, and the bound on a game's length.

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_here;

use ludic::{Settings, Source, Status};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Every built-in game, and one with teams.
fn games() -> Vec<ludic::Game> {
    let mut out: Vec<ludic::Game> = ludic::builtin::GAMES
        .iter()
        .map(|(n, _)| ludic::load(&Source::infer(n), &Settings::default()).unwrap())
        .collect();
    for (n, _) in ludic::builtin::GAMES {
        let g = ludic::load(&Source::infer(n), &Settings::default()).unwrap();
        if g.all_options().any(|o| o.name == "team_size") {
            let s = Settings {
                variant: None,
                sets: vec![("team_size".into(), "2".into())],
            };
            out.push(ludic::load(&Source::infer(n), &s).unwrap());
        }
    }
    out
}

/// A random game as a history, and the state it leads to.
fn random_history(g: &ludic::Game, seed: u64) -> (Vec<u32>, ludic::State) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut st = g.start();
    let mut history = vec![];
    loop {
        let a = match g.status(&st) {
            Status::Over(_) => break,
            Status::Chance => g.draw_chance(&st, rng.random()) as u32,
            Status::Decision(_) => {
                let legal = g.legal_actions(&st);
                legal[rng.random_range(0..legal.len())]
            }
        };
        g.apply_history_step(&mut st, a).unwrap();
        history.push(a);
    }
    (history, st)
}

#[test]
fn the_tensor_is_laid_out_as_said_and_follows_the_position() {
    for g in games() {
        let layout = g.observation_layout();
        let names: Vec<&str> = layout.iter().map(|p| p.0).collect();
        assert_eq!(
            names,
            [
                "sites", "areas", "captured", "tallies", "turn", "throw", "round"
            ]
        );
        let size: usize = layout.iter().map(|p| p.1).sum();
        assert_eq!(size, g.observation_tensor_size());
        let (history, end) = random_history(&g, 3);
        let mut st = g.start();
        let per_site = layout[0].1 / g.num_sites();
        let turn_at = size - 1 - layout[5].1 - layout[4].1;
        for &a in &history {
            let t = g.observation_tensor(&st);
            assert_eq!(t.len(), size);
            // the counters of each site, after its kind
            let kinds = g.piece_kinds().count();
            for s in 0..g.num_sites() {
                let b = &t[s * per_site..(s + 1) * per_site];
                assert_eq!(b[..5].iter().sum::<f32>(), 1.0, "one kind a site");
                let json = g.observation_json(&st);
                let name = g.site(ludic::SiteId(s as u16)).unwrap().name;
                assert_eq!(
                    b[5..5 + kinds].iter().sum::<f32>(),
                    json["sites"][name]["count"].as_u64().unwrap() as f32
                );
            }
            // whose turn
            let turn = &t[turn_at..turn_at + g.players().len() + 2];
            assert_eq!(turn.iter().sum::<f32>(), 1.0);
            match g.current_player(&st) {
                Some(p) => assert_eq!(turn[p.0 as usize], 1.0),
                None => assert_eq!(turn[g.players().len()], 1.0),
            }
            assert_eq!(t[size - 1], st.round() as f32);
            g.apply_history_step(&mut st, a).unwrap();
        }
        let t = g.observation_tensor(&end);
        assert_eq!(t[turn_at + g.players().len() + 1], 1.0, "the end");
    }
}

#[test]
fn the_tensor_into_a_buffer_allocates_nothing() {
    for g in games() {
        let (_, st) = random_history(&g, 5);
        let mut buf = vec![0.0f32; g.observation_tensor_size()];
        g.observation_tensor_into(&st, &mut buf);
        let before = allocations_here();
        g.observation_tensor_into(&st, &mut buf);
        assert_eq!(allocations_here(), before, "{}", g.title());
        assert_eq!(buf, g.observation_tensor(&st));
        // a buffer too short is left alone
        let mut short = vec![7.0f32; 3];
        g.observation_tensor_into(&st, &mut short);
        assert_eq!(short, [7.0; 3]);
    }
}

#[test]
fn a_history_replays_and_becomes_a_record_and_back() {
    for g in games() {
        for seed in 0..3 {
            let (history, end) = random_history(&g, seed);
            assert!(history.len() as u64 <= g.max_game_length());
            let st = g.replay_history(&history).unwrap();
            assert_eq!(g.observation_json(&st), g.observation_json(&end));
            let rec =
                ludic::record::record_of_history(&g, &history, Some(seed), Default::default())
                    .unwrap();
            assert_eq!(rec.steps.len(), history.len());
            assert!(rec.result.is_some() && rec.last.is_some());
            // the record replays as `ludic replay` replays it
            let replayed = ludic::record::replay(&g, &rec.steps).unwrap();
            assert_eq!(g.observation_json(&replayed), g.observation_json(&end));
            let (again, h) = ludic::record::history_of_steps(&g, &rec.steps).unwrap();
            assert_eq!(h, history);
            assert_eq!(g.observation_json(&again), g.observation_json(&end));
            // a game cut short: no result yet
            let half = &history[..history.len() / 2];
            let rec = ludic::record::record_of_history(&g, half, None, Default::default()).unwrap();
            assert!(rec.result.is_none() && rec.last.is_none());
        }
    }
}

#[test]
fn a_bad_history_says_where() {
    let g = &games()[0];
    let (history, _) = random_history(g, 1);
    let mut bad = history[..4].to_vec();
    bad.push(u32::MAX);
    let (at, _) = g.replay_history(&bad).unwrap_err();
    assert_eq!(at, 4);
    let err = ludic::record::record_of_history(g, &bad, None, Default::default()).unwrap_err();
    assert!(err.to_string().contains("step 5"), "{err}");
    let mut long = history.clone();
    long.push(0);
    assert!(g.replay_history(&long).is_err());
    assert!(ludic::record::record_of_history(g, &long, None, Default::default()).is_err());
}

#[test]
fn the_length_bound_follows_the_limits() {
    for g in games() {
        let bound = g.max_game_length();
        assert!(bound > 0 && bound < u64::MAX, "{}", g.title());
        // every built-in game's turn limit follows its option max_turns (backgammon's is a
        // backstop a few turns beyond it: a tally ends the game at max_turns)
        let max_turns: u64 = g.option_values()["max_turns"].parse().unwrap();
        let turns = u64::from(g.turn_limit());
        assert!(
            (max_turns..=max_turns + 3).contains(&turns),
            "{}: limit {turns} turns, max_turns {max_turns}",
            g.title()
        );
        if g.has_rounds() {
            assert!(bound >= turns * u64::from(ludic::ROUND_LIMIT));
        } else {
            assert_eq!(bound, turns * u64::from(ludic::DECISION_LIMIT));
        }
    }
}
