//! Every legal decision has its own written form: at every decision point of random games of
//! every built-in game (each variant, and the options that change the rules' shape), the
//! notations of the legal decisions are pairwise distinct, and each reads back as its decision.
//! Otherwise a record, or a player at the terminal, could not name a decision.

mod common;
use common::Lcg;
use ludic::{Game, Settings, load_game};

fn games() -> Vec<(String, Game)> {
    let mut out = vec![];
    for (name, src) in ludic::builtin::GAMES {
        let g = load_game(src, &Settings::default()).unwrap();
        let mut settings = vec![(String::from("default"), Settings::default())];
        for v in g.all_variants() {
            settings.push((
                v.name.to_string(),
                Settings {
                    variant: Some(v.name.to_string()),
                    sets: vec![],
                },
            ));
        }
        for o in g.all_options() {
            // the options that change the shape of the game, not only its numbers
            let values: &[&str] = match o.name {
                "team_size" => &["2", "4"],
                "rounds" => &["match"],
                _ => &[],
            };
            for v in values {
                settings.push((
                    format!("{}={v}", o.name),
                    Settings {
                        variant: None,
                        sets: vec![(o.name.to_string(), v.to_string())],
                    },
                ));
            }
        }
        for (label, s) in settings {
            let g = load_game(src, &s).unwrap_or_else(|e| panic!("{name} {label}: {e:?}"));
            out.push((format!("{name} ({label})"), g));
        }
    }
    out
}

#[test]
fn the_legal_decisions_of_a_position_are_written_differently() {
    let mut rng = Lcg(12);
    for (label, g) in games() {
        for game in 0..40 {
            let mut st = g.start();
            for _ in 0..3000 {
                if st.is_over() {
                    break;
                }
                let moves = st.moves().to_vec();
                if moves.is_empty() {
                    let outs = g.chance_outcomes(&st);
                    let o = outs[rng.below(outs.len())].0;
                    g.play_chance(&mut st, o).unwrap();
                    continue;
                }
                let names = g.legal_notations(&st);
                let mut sorted: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
                sorted.sort();
                for w in sorted.windows(2) {
                    assert_ne!(
                        w[0], w[1],
                        "{label}, game {game}: two legal decisions are written `{}`: {names:?}",
                        w[0]
                    );
                }
                for (d, n) in moves.iter().zip(&names) {
                    assert_eq!(
                        g.parse_decision(&st, n).as_ref(),
                        Ok(d),
                        "{label}: `{n}` reads back as another decision"
                    );
                }
                let d = moves[rng.below(moves.len())];
                g.play(&mut st, d).unwrap();
            }
        }
    }
}
