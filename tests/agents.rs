//! The agents on small positions with a known best move (a sowing game and an alquerque game,
//! for either side), checked first against an exhaustive oracle; determinism for a seed; the
//! reuse of the subtree of what was played.

mod common;
use common::*;
use ludic::agents::{Agent, AgentSpec, Budget, Event, Mcts, MctsConfig, RandomAgent};
use ludic::setup::Setup;
use ludic::{Game, Pending, State};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn mcts(playouts: u64, threads: usize) -> Mcts {
    Mcts::new(MctsConfig {
        budget: Budget::Playouts(playouts),
        threads,
        max_nodes: 1 << 18,
        ..MctsConfig::default()
    })
}

/// The agent's decision at `st`, in notation.
fn choice(g: &Game, st: &State, agent: &mut dyn Agent, seed: u64) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let t = agent
        .decide(g, st, &mut rng, &mut |_| {})
        .expect("a built-in agent never forfeits");
    g.notation_of(st, t.decision)
}

/// The value of a position for side 0 with perfect play by both (1 a win, 0 a loss, ½ a
/// draw); `None` when it depends on a line longer than `depth` decisions (no chance events).
/// A line that wins for the side to move settles the position whatever the others hold.
fn solve(g: &Game, st: &State, depth: u32) -> Option<f64> {
    match st.pending() {
        Pending::Over(o) => Some(match o.winner {
            Some(w) if w.0 == 0 => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }),
        Pending::Choice(_) | Pending::Drop(_) if depth > 0 => {
            let first = g.side_of(st.mover()).0 == 0;
            let (best_possible, better) = if first {
                (1.0, f64::max as fn(f64, f64) -> f64)
            } else {
                (0.0, f64::min as fn(f64, f64) -> f64)
            };
            let mut best: Option<f64> = None;
            let mut unknown = false;
            for &d in st.moves() {
                let mut s = st.clone();
                g.play_unchecked(&mut s, d);
                match solve(g, &s, depth - 1) {
                    Some(v) if v == best_possible => return Some(v),
                    Some(v) => best = Some(best.map_or(v, |b| better(b, v))),
                    None => unknown = true,
                }
            }
            if unknown { None } else { best }
        }
        _ => None,
    }
}

/// For each legal decision of the mover: its notation and its exact value for the mover.
fn values(g: &Game, st: &State) -> Vec<(String, f64)> {
    let first = g.side_of(st.mover()).0 == 0;
    st.moves()
        .iter()
        .map(|&d| {
            let mut s = st.clone();
            g.play_unchecked(&mut s, d);
            let v = solve(g, &s, 12).expect("a small position, solved to the end");
            (g.notation_of(st, d), if first { v } else { 1.0 - v })
        })
        .collect()
}

/// Pallankuzhi: three single chinni against North's last four. Sowing s2 drops one in s1;
/// n7 after it is empty, so South captures n6 (4) and its opposite; North has nothing left to
/// sow, the round ends and South wins 12 to 9. Sowing s1 or s3 relays on and loses.
fn pallankuzhi_position(g: &Game, mirrored: bool) -> State {
    let (me, you, h) = if mirrored {
        ("North", "South", ['n', 's'])
    } else {
        ("South", "North", ['s', 'n'])
    };
    Setup::new(g)
        .put(&format!("{}1", h[0]), "chinni", 1)
        .unwrap()
        .put(&format!("{}2", h[0]), "chinni", 1)
        .unwrap()
        .put(&format!("{}3", h[0]), "chinni", 1)
        .unwrap()
        .put(&format!("{}6", h[1]), "chinni", 4)
        .unwrap()
        .captured(me, "chinni", 5)
        .unwrap()
        .captured(you, "chinni", 9)
        .unwrap()
        .mover(me)
        .unwrap()
        .build()
}

#[test]
fn pallankuzhi_the_capture_that_wins_for_either_side() {
    let g = game("pallankuzhi");
    for (mirrored, win) in [(false, "sow s2"), (true, "sow n2")] {
        let st = pallankuzhi_position(&g, mirrored);
        let vals = values(&g, &st);
        assert_eq!(vals.len(), 3, "{vals:?}");
        for (m, v) in &vals {
            assert_eq!(*v, if m == win { 1.0 } else { 0.0 }, "{vals:?}");
        }
        for seed in 1..=3 {
            assert_eq!(choice(&g, &st, &mut mcts(1000, 1), seed), win);
        }
        assert_eq!(choice(&g, &st, &mut mcts(1000, 2), 1), win);
    }
}

fn tuk_position(g: &Game, white: &[&str], black: &[&str], mover: &str) -> State {
    let mut b = Setup::new(g);
    for s in white {
        b = b.token("White", "man", s).unwrap();
    }
    for s in black {
        b = b.token("Black", "man", s).unwrap();
    }
    for _ in white.len()..20 {
        b = b.token_in("White", "man", "captured").unwrap();
    }
    for _ in black.len()..20 {
        b = b.token_in("Black", "man", "captured").unwrap();
    }
    b.mover(mover).unwrap().build()
}

/// Whether the mover can win within the turn now being played (its own decisions only).
fn wins_this_turn(g: &Game, st: &State, side: u8, turn: u32) -> bool {
    match st.pending() {
        Pending::Over(o) => o.winner.map(|w| w.0) == Some(side),
        Pending::Choice(_) | Pending::Drop(_) if st.turn() == turn => st.moves().iter().any(|&d| {
            let mut s = st.clone();
            g.play_unchecked(&mut s, d);
            wins_this_turn(g, &s, side, turn)
        }),
        _ => false,
    }
}

#[test]
fn tuknanavuhpi_the_hop_chain_that_wins() {
    // White a3 hops a5 to a7, then c7 to e7: Black has no man left. The first hop alone does
    // not end the game; the agent must see both decisions of the turn.
    let g = game("tuknanavuhpi");
    let st0 = tuk_position(&g, &["g3", "a3"], &["c7", "a5"], "White");
    let turn = st0.turn();
    let winners: Vec<String> = st0
        .moves()
        .iter()
        .filter(|&&d| {
            let mut s = st0.clone();
            g.play_unchecked(&mut s, d);
            wins_this_turn(&g, &s, 0, turn)
        })
        .map(|&d| g.notation_of(&st0, d))
        .collect();
    assert_eq!(winners, vec!["hop a3 a7"]);
    for threads in [1, 2] {
        let mut agent = mcts(2000, threads);
        let mut st = st0.clone();
        let mut played = vec![];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        while !st.is_over() && st.turn() == turn {
            let t = agent
                .decide(&g, &st, &mut rng, &mut |_| {})
                .expect("a built-in agent never forfeits");
            played.push(g.notation_of(&st, t.decision));
            agent.observe(&g, &st, Event::Decision(t.decision));
            g.play(&mut st, t.decision).unwrap();
        }
        assert_eq!(played, vec!["hop a3 a7", "hop e7"]);
        assert_eq!(st.outcome().and_then(|o| o.winner), Some(side(&g, "White")));
    }
}

/// The decisions of the mover after which the other side cannot win in its next turn.
fn safe_moves(g: &Game, st: &State) -> Vec<String> {
    let other = 1 - g.side_of(st.mover()).0;
    st.moves()
        .iter()
        .filter(|&&d| {
            let mut s = st.clone();
            g.play_unchecked(&mut s, d);
            !wins_this_turn(g, &s, other, s.turn())
        })
        .map(|&d| g.notation_of(st, d))
        .collect()
}

#[test]
fn tuknanavuhpi_the_one_move_that_does_not_lose_at_once() {
    // White f4 and c3 against Black d4 and e7. Taking d4 (hop c3 e5) loses at once, as do
    // three of the steps: Black then takes both White men in one turn. Only f4-e3 is safe.
    let g = game("tuknanavuhpi");
    let st = tuk_position(&g, &["f4", "c3"], &["d4", "e7"], "White");
    assert_eq!(st.moves().len(), 5);
    assert!(g.legal_notations(&st).contains(&"hop c3 e5".to_string()));
    assert_eq!(safe_moves(&g, &st), vec!["step f4 e3"]);
    for seed in 1..=3 {
        assert_eq!(choice(&g, &st, &mut mcts(2000, 1), seed), "step f4 e3");
    }
    // The same for Black, with the colours swapped and the board turned round (a point
    // (x, y) to (8 - x, 8 - y): f4 to d6, c3 to g7, d4 to f6, e7 to e3).
    let st = tuk_position(&g, &["f6", "e3"], &["d6", "g7"], "Black");
    assert_eq!(safe_moves(&g, &st), vec!["step d6 e7"]);
    assert_eq!(choice(&g, &st, &mut mcts(2000, 2), 1), "step d6 e7");
}

/// A whole game between two agents: every step, in notation.
fn whole_game(g: &Game, agents: &mut [Box<dyn Agent>; 2], seed: u64) -> Vec<String> {
    let mut st = g.start();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut chance = Lcg(seed);
    let mut steps = vec![];
    while !st.is_over() {
        if st.moves().is_empty() {
            let o = g.draw_chance(&st, chance.below(1 << 30) as f64 / (1u64 << 30) as f64);
            steps.push(g.outcome_name(&st, o));
            for a in agents.iter_mut() {
                a.observe(g, &st, Event::Chance(o));
            }
            g.play_chance(&mut st, o).unwrap();
        } else {
            let k = g.side_of(st.mover()).0 as usize;
            let d = agents[k]
                .decide(g, &st, &mut rng, &mut |_| {})
                .expect("a built-in agent never forfeits")
                .decision;
            steps.push(g.notation_of(&st, d));
            for a in agents.iter_mut() {
                a.observe(g, &st, Event::Decision(d));
            }
            g.play(&mut st, d).unwrap();
        }
    }
    steps
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for (name, threads) in [("pallankuzhi", 1), ("puluc", 1), ("ceelkoqyuqkoqiji", 2)] {
        let g = game(name);
        let spec = format!("mcts:playouts=300,threads={threads}");
        let run = |seed| {
            let mut agents: [Box<dyn Agent>; 2] = [
                AgentSpec::parse(&spec, 1).unwrap().build().unwrap(),
                AgentSpec::parse(&spec, 1).unwrap().build().unwrap(),
            ];
            whole_game(&g, &mut agents, seed)
        };
        let a = run(7);
        assert_eq!(a, run(7), "{name}, {threads} threads");
        assert_ne!(a, run(8), "{name}: another seed, another game");
    }
}

#[test]
fn the_subtree_of_what_was_played_is_kept() {
    let g = game("pallankuzhi");
    let mut st = g.start();
    let mut agent = mcts(4000, 1);
    let stats = agent.search(&g, &st, 1, &mut |_| {});
    let d = st.moves()[0];
    assert!(stats.visits[0] > 10);
    agent.observe(&g, &st, Event::Decision(d));
    g.play(&mut st, d).unwrap();
    // The opponent's reply, also told.
    let d2 = st.moves()[0];
    agent.observe(&g, &st, Event::Decision(d2));
    g.play(&mut st, d2).unwrap();
    let again = agent.search(&g, &st, 2, &mut |_| {});
    let total: u64 = again.visits.iter().sum();
    assert!(
        total > again.playouts,
        "the tree kept {} visits from the first search",
        total - again.playouts
    );
    // A position the agent was not told about: a fresh tree.
    let mut other = g.start();
    let d = other.moves()[1];
    g.play(&mut other, d).unwrap();
    let d = other.moves()[1];
    g.play(&mut other, d).unwrap();
    let fresh = agent.search(&g, &other, 3, &mut |_| {});
    assert!(fresh.visits.iter().sum::<u64>() <= fresh.playouts);
}

#[test]
fn random_agent_picks_legal_decisions_and_mcts_beats_it() {
    let g = game("ceelkoqyuqkoqiji");
    let mut score = 0.0;
    for seed in 0..4u64 {
        let mut agents: [Box<dyn Agent>; 2] = if seed % 2 == 0 {
            [Box::new(mcts(500, 1)), Box::new(RandomAgent)]
        } else {
            [Box::new(RandomAgent), Box::new(mcts(500, 1))]
        };
        let steps = whole_game(&g, &mut agents, seed);
        // Replaying the game by its notations finds the winner.
        let mut st = g.start();
        for s in &steps {
            if st.moves().is_empty() {
                let o = g.parse_outcome(&st, s).unwrap();
                g.play_chance(&mut st, o).unwrap();
            } else {
                let d = g.parse_decision(&st, s).unwrap();
                g.play(&mut st, d).unwrap();
            }
        }
        let mcts_side = (seed % 2) as u8;
        score += match st.outcome().unwrap().winner {
            Some(w) if w.0 == mcts_side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    assert!(score >= 3.0, "mcts scored {score} of 4 against random");
}

/// Tic-tac-toe after the given marks, alternately X's and O's.
fn tic_tac_toe(g: &Game, marks: &[&str]) -> State {
    let mut st = g.start();
    for m in marks {
        let d = g.parse_decision(&st, &format!("mark {m}")).unwrap();
        g.play(&mut st, d).unwrap();
    }
    st
}

#[test]
fn the_solver_proves_a_win_and_a_loss() {
    let g = game("tic-tac-toe");
    // X to move wins at a3 (O threatens b3): a proven win, its value exactly 1
    let st = tic_tac_toe(&g, &["a1", "b1", "a2", "b2"]);
    for threads in [1, 2] {
        let mut agent = mcts(400, threads);
        let stats = agent.search(&g, &st, 1, &mut |_| {});
        let a3 = st
            .moves()
            .iter()
            .position(|&d| g.notation_of(&st, d) == "mark a3")
            .unwrap();
        assert_eq!(stats.proven[a3], Some(1.0), "{threads} threads");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let t = agent.decide(&g, &st, &mut rng, &mut |_| {}).unwrap();
        assert_eq!(g.notation_of(&st, t.decision), "mark a3");
        assert_eq!(t.estimate.unwrap().value, 1.0);
    }
    // O to move against two threats of X (b2 and c2): every decision proven lost
    let st = tic_tac_toe(&g, &["a1", "b1", "c1", "a2", "c3"]);
    let mut agent = mcts(4000, 1);
    let stats = agent.search(&g, &st, 1, &mut |_| {});
    assert!(
        stats.proven.iter().all(|&p| p == Some(0.0)),
        "{:?}",
        stats.proven
    );
    // a playout budget is spent whole, even once the root is proven
    assert_eq!(stats.playouts, 4000);
    // an open position is not proven after a few playouts
    let st = g.start();
    let stats = mcts(50, 1).search(&g, &st, 1, &mut |_| {});
    assert!(stats.proven.iter().all(|p| p.is_none()));
}
