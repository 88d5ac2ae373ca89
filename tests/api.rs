//! The public API, used as a front end would: every built-in game and variant played by
//! seeded random playouts through action ids only, checking the action space (ids below
//! `num_actions`, distinct, sorted, one per legal decision), the round trips id -> decision ->
//! id and id -> notation -> id, that the API plays the same game as the engine's own playout,
//! that a game loads the same by name, path and text, that a bad file's message is the one
//! `ludic validate` prints, and that `legal_actions_into` allocates nothing once grown.

use ludic::{Game, Settings, Source, State, Status};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_here;

/// Every built-in game with each of its settings: none, then each variant.
fn every_game() -> Vec<(String, Option<String>, Game)> {
    let mut out = vec![];
    for (stem, _) in ludic::builtin::GAMES {
        let g = ludic::load(&Source::infer(stem), &Settings::default()).expect("a built-in game");
        let variants: Vec<String> = g.all_variants().map(|v| v.name.to_string()).collect();
        out.push((stem.to_string(), None, g));
        for v in variants {
            let s = Settings {
                variant: Some(v.clone()),
                sets: vec![],
            };
            let g = ludic::load(&Source::Builtin(stem.to_string()), &s).expect("a variant");
            out.push((stem.to_string(), Some(v), g));
        }
    }
    out
}

/// The checks of the action space at a decision.
fn check_actions(label: &str, g: &Game, st: &State, acts: &[u32]) {
    assert_eq!(acts.len(), st.moves().len(), "{label}: one id per decision");
    assert!(
        acts.windows(2).all(|w| w[0] < w[1]),
        "{label}: ids sorted and distinct: {acts:?}"
    );
    for &a in acts {
        assert!((a as usize) < g.num_actions(), "{label}: {a} < num_actions");
        let d = g.decision_of(st, a).expect("an id names a decision");
        assert!(
            st.moves().contains(&d),
            "{label}: {a} names a legal decision"
        );
        assert_eq!(g.action_of(st, d), Some(a), "{label}: id -> decision -> id");
        let text = g.action_to_string(st, a);
        assert_eq!(
            g.string_to_action(st, &text),
            Ok(a),
            "{label}: id -> `{text}` -> id"
        );
    }
}

/// A seeded random playout through the API only (chance drawn by `draw_chance`): the final
/// position as JSON, and the number of decisions.
fn api_playout(label: &str, g: &Game, seed: u64, check: bool) -> (serde_json::Value, u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut st = g.start();
    let mut acts = vec![];
    let mut n = 0;
    loop {
        match g.status(&st) {
            Status::Over(_) => {
                assert!(g.is_terminal(&st));
                let r = g.returns(&st);
                assert_eq!(r.len(), g.players().len());
                return (g.observation_json(&st), n);
            }
            Status::Chance => {
                assert!(g.is_chance_node(&st) && g.current_player(&st).is_none());
                let outs = g.chance_outcomes(&st);
                assert!(!outs.is_empty() && outs.len() <= g.max_chance_outcomes());
                let o = g.draw_chance(&st, rng.random());
                g.apply_chance(&mut st, o as usize)
                    .expect("a drawn outcome");
            }
            Status::Decision(p) => {
                assert_eq!(g.current_player(&st), Some(p));
                g.legal_actions_into(&st, &mut acts);
                if check {
                    check_actions(label, g, &st, &acts);
                }
                let a = acts[rng.random_range(0..acts.len())];
                g.apply_action(&mut st, a).expect("a legal id");
                n += 1;
            }
        }
    }
}

#[test]
fn every_game_plays_through_action_ids() {
    for (stem, variant, g) in every_game() {
        let label = format!("{stem} {variant:?}");
        assert!(g.num_actions() > 0, "{label}");
        for seed in 0..6 {
            api_playout(&label, &g, seed, true);
        }
    }
}

/// The same seed gives the same game through the API as through the engine's own random
/// playout, when the API takes the decision the engine's playout takes (drawn as it draws,
/// with the `leaving` tests deferred: `ludic::agents::draw_legal`), played by its id; and the notations of the API's game replay through the
/// engine's reader of records to the same position.
#[test]
fn the_api_plays_the_engines_game() {
    for (stem, variant, g) in every_game() {
        let label = format!("{stem} {variant:?}");
        for seed in 0..4 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut st = g.start();
            st.defer_leaving(true);
            let mut steps = vec![];
            let mut n = 0;
            while !g.is_terminal(&st) {
                if g.is_chance_node(&st) {
                    let o = g.draw_chance(&st, rng.random()) as usize;
                    steps.push(ludic::record::Step::Chance {
                        outcome: g.outcome_name(&st, o as i64),
                    });
                    g.apply_chance(&mut st, o).expect("an outcome");
                } else {
                    let d = ludic::agents::draw_legal(&g, &mut st, &mut rng);
                    let a = g.action_of(&st, d).expect("an id");
                    steps.push(ludic::record::Step::Decision {
                        player: g.player_name(st.mover()).to_string(),
                        notation: g.action_to_string(&st, a),
                    });
                    g.apply_action(&mut st, a).expect("a legal id");
                    n += 1;
                }
            }
            let start = g.start();
            let mut engine = g.start();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let m = ludic::study::random_playout(&g, &start, &mut engine, &mut rng, true);
            assert_eq!(m, n, "{label} seed {seed}: decisions");
            assert_eq!(st, engine, "{label} seed {seed}");
            let replayed = ludic::record::replay(&g, &steps).expect("the record replays");
            assert_eq!(
                g.observation_json(&replayed),
                g.observation_json(&st),
                "{label} seed {seed}"
            );
        }
    }
}

#[test]
fn a_game_loads_the_same_by_name_path_and_text() {
    for (stem, text) in ludic::builtin::GAMES {
        let path = format!("{}/games/{stem}.game", env!("CARGO_MANIFEST_DIR"));
        let s = Settings::default();
        let by_name = ludic::load(&Source::infer(stem), &s).expect("by name");
        let by_path = ludic::load(&Source::infer(&path), &s).expect("by path");
        let by_text = ludic::load(&Source::infer(text), &s).expect("by text");
        assert_eq!(Source::infer(&path), Source::Path(path.clone()));
        assert!(matches!(Source::infer(text), Source::Text(_)));
        assert_eq!(by_name.source_name(), *stem);
        assert_eq!(by_path.source_name(), path);
        assert_eq!(by_text.source_name(), "<text>");
        for g in [&by_path, &by_text] {
            assert_eq!(g.source_hash(), by_name.source_hash(), "{stem}");
            assert_eq!(g.source_hash(), ludic::source_hash(text), "{stem}");
            assert_eq!(g.num_actions(), by_name.num_actions(), "{stem}");
            assert_eq!(g.title(), by_name.title(), "{stem}");
            for seed in 0..2 {
                assert_eq!(
                    api_playout(stem, g, seed, false),
                    api_playout(stem, &by_name, seed, false),
                    "{stem}"
                );
            }
        }
    }
}

/// `ludic validate FILE`'s standard error, and whether it failed.
fn validate(path: &str) -> (String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(["validate", path])
        .output()
        .expect("ludic runs");
    (
        String::from_utf8(out.stderr).expect("UTF-8"),
        out.status.success(),
    )
}

#[test]
fn a_bad_file_fails_with_the_message_of_validate() {
    let dir = std::env::temp_dir().join(format!("ludic-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let base = ludic::builtin::find("pallankuzhi").expect("a game").1;
    let fixture = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("a fixture")
    };
    let cases = [
        // a syntax error
        base.replacen("sides South North", "sidez South North", 1),
        // errors of the checker: an unknown site, with its hint, and ten at once
        base.replacen(
            "sides South North",
            "sides South North\nplace 1 seed on nowhere",
            1,
        ),
        fixture("ten_errors.game"),
        "game \"x\" {\n  players 2\n}\n".to_string(),
    ];
    for (i, text) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.game"));
        let path = path.to_string_lossy().to_string();
        std::fs::write(&path, text).expect("written");
        let (stderr, ok) = validate(&path);
        match ludic::load(&Source::Path(path.clone()), &Settings::default()) {
            Ok(_) => assert!(ok, "case {i}: loads but does not validate:\n{stderr}"),
            Err(e) => {
                assert!(!ok, "case {i}");
                assert_eq!(e.text, stderr, "case {i}");
                assert_eq!(e.to_string(), stderr, "case {i}");
                assert!(!e.diagnostics.is_empty(), "case {i}");
                assert!(e.text.contains(&format!("{path}:")), "case {i}: {}", e.text);
            }
        }
    }
    // a file that cannot be read
    let missing = dir.join("missing.game").to_string_lossy().to_string();
    let (stderr, _) = validate(&missing);
    let e = ludic::load(&Source::Path(missing), &Settings::default()).unwrap_err();
    assert_eq!(e.text, stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_names_and_settings_fail_with_messages() {
    let e = ludic::load(&Source::Builtin("palankuzhi".into()), &Settings::default()).unwrap_err();
    assert!(
        e.text.contains("did you mean the built-in game `"),
        "{}",
        e.text
    );
    let mut s = Settings::default();
    s.push_assignment("no_such_option=3").expect("a setting");
    let e = ludic::load(&Source::infer("pallankuzhi"), &s).unwrap_err();
    assert!(
        e.text.starts_with("error: ") && !e.settings.is_empty(),
        "{}",
        e.text
    );
    assert!(e.diagnostics.is_empty());
}

#[test]
fn legal_actions_into_allocates_nothing_once_grown() {
    for (stem, variant, g) in every_game() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut st = g.start();
        let mut acts = Vec::with_capacity(g.num_actions().min(1 << 16));
        let mut calls = 0;
        let before = allocations_here();
        while !g.is_terminal(&st) {
            if g.is_chance_node(&st) {
                let o = g.draw_chance(&st, rng.random());
                g.play_chance(&mut st, o).expect("an outcome");
                continue;
            }
            let a0 = allocations_here();
            g.legal_actions_into(&st, &mut acts);
            assert_eq!(allocations_here(), a0, "{stem} {variant:?}");
            calls += 1;
            let a = acts[rng.random_range(0..acts.len())];
            g.apply_action(&mut st, a).expect("legal");
        }
        let _ = before;
        assert!(calls > 0);
    }
}

#[test]
fn returns_follow_the_winners_side() {
    for (stem, _, g) in every_game() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut st = g.start();
        while let Some(()) = match g.status(&st) {
            Status::Over(_) => None,
            Status::Chance => {
                let o = g.draw_chance(&st, rng.random());
                g.apply_chance(&mut st, o as usize).ok()
            }
            Status::Decision(_) => {
                let acts = g.legal_actions(&st);
                g.apply_action(&mut st, acts[rng.random_range(0..acts.len())])
                    .ok()
            }
        } {}
        let Status::Over(o) = g.status(&st) else {
            panic!("{stem}: over")
        };
        let r = g.returns(&st);
        for (p, &x) in r.iter().enumerate() {
            let side = g.side_of(ludic::Player(p as u8));
            let want = match o.winner {
                None => 0.0,
                Some(w) if w == side => 1.0,
                Some(_) => -1.0,
            };
            assert_eq!(x, want, "{stem}: player {p}");
        }
    }
}

/// The drops of a lap the sower orders have their ids at the end of the action space, one per
/// slot of the lap.
#[test]
fn ordered_drops_have_the_last_ids() {
    let mut seen = 0;
    for (stem, variant, g) in every_game() {
        for seed in 0..6 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut st = g.start();
            while !g.is_terminal(&st) {
                if g.is_chance_node(&st) {
                    let o = g.draw_chance(&st, rng.random());
                    g.apply_chance(&mut st, o as usize).expect("an outcome");
                    continue;
                }
                let acts = g.legal_actions(&st);
                if let ludic::Pending::Drop(_) = st.pending() {
                    seen += 1;
                    let base = g.num_actions() as u32 - ludic::MAX_ORDERED_LAP;
                    for (&a, d) in acts.iter().zip(st.moves()) {
                        let ludic::Decision::Drop { slot } = *d else {
                            panic!("{stem} {variant:?}: a drop")
                        };
                        assert_eq!(a, base + slot as u32, "{stem} {variant:?}");
                    }
                }
                g.apply_action(&mut st, acts[rng.random_range(0..acts.len())])
                    .expect("legal");
            }
        }
    }
    assert!(seen > 0, "some game orders its drops");
}

/// Playing by id, by notation and by decision do the same, and say the same events.
#[test]
fn narrated_steps_by_id_and_notation() {
    for (stem, variant, g) in every_game() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut st = g.start();
        let mut steps = 0;
        while !g.is_terminal(&st) && steps < 60 {
            steps += 1;
            if g.is_chance_node(&st) {
                let o = g.draw_chance(&st, rng.random());
                let mut other = st.clone();
                let events = g
                    .apply_chance_narrated(&mut st, o as usize)
                    .expect("an outcome");
                assert_eq!(g.play_chance_narrated(&mut other, o), Ok(events));
                assert_eq!(st, other);
                continue;
            }
            let acts = g.legal_actions(&st);
            let a = acts[rng.random_range(0..acts.len())];
            let d = g.decision_of(&st, a).expect("a decision");
            let text = g.action_to_string(&st, a);
            let (mut by_decision, mut by_text) = (st.clone(), st.clone());
            let events = g.apply_action_narrated(&mut st, a).expect("legal");
            assert_eq!(
                g.play_narrated(&mut by_decision, d),
                Ok(events),
                "{stem} {variant:?}"
            );
            assert_eq!(
                g.apply_notation(&mut by_text, &text),
                Ok(a),
                "{stem} {variant:?}"
            );
            assert_eq!(st, by_decision);
            assert_eq!(st, by_text);
        }
        // a refused step: the same messages as the terminal's, the state unchanged
        if !g.is_terminal(&st) && !g.is_chance_node(&st) {
            let before = st.clone();
            assert_eq!(
                g.apply_notation(&mut st, "no such move"),
                Err(g.parse_decision(&before, "no such move").unwrap_err())
            );
            assert!(g.apply_action(&mut st, g.num_actions() as u32).is_err());
            assert_eq!(st, before);
        }
    }
}

/// `draw_chance(x)` gives the first outcome whose cumulative probability (the outcomes'
/// probabilities added up in order) exceeds `x`, at every chance event of random playouts of
/// every game with chance, for draws spread over [0, 1) and at the ends (a NaN draws the last).
#[test]
fn a_draw_is_the_first_outcome_whose_cumulative_probability_exceeds_it() {
    let mut checked = 0;
    for (stem, variant, g) in every_game() {
        for seed in 0..3 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut st = g.start();
            let mut steps = 0;
            while !g.is_terminal(&st) && steps < 300 {
                steps += 1;
                if !g.is_chance_node(&st) {
                    let i = rng.random_range(0..st.moves().len());
                    let d = st.moves()[i];
                    g.play(&mut st, d).expect("a legal decision");
                    continue;
                }
                let outs = g.chance_outcomes(&st);
                let mut cum = Vec::with_capacity(outs.len());
                let mut sum = 0.0;
                for &(_, p) in &outs {
                    sum += p;
                    cum.push(sum);
                }
                let mut xs: Vec<f64> = (0..64).map(|k| k as f64 / 64.0).collect();
                xs.extend([f64::MIN_POSITIVE, 1.0 - f64::EPSILON, rng.random()]);
                for x in xs {
                    if cum.iter().any(|&c| (c - x).abs() < 1e-9) {
                        continue; // a boundary: the sums' rounding may differ
                    }
                    let want = cum.iter().position(|&c| x < c).unwrap_or(cum.len() - 1) as i64;
                    assert_eq!(g.draw_chance(&st, x), want, "{stem} {variant:?}: x = {x}");
                    checked += 1;
                }
                assert_eq!(g.draw_chance(&st, f64::NAN), outs.len() as i64 - 1);
                let o = g.draw_chance(&st, rng.random()) as usize;
                g.apply_chance(&mut st, o).expect("an outcome");
            }
        }
    }
    assert!(checked > 1000, "only {checked} draws checked");
}
