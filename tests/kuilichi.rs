//! K'uilichi Chanakua (../shared/rules/kuilichi-chanakua.md), with forced throws.

mod common;
use common::*;
use ludic::setup::Setup;
use ludic::{Game, Pending, State};

fn pos_of(g: &Game, st: &State, who: &str) -> Vec<i32> {
    let p = g.players().iter().position(|x| x == who).unwrap();
    let mut v: Vec<i32> = (0..g.num_tokens())
        .filter(|&t| g.token(t).unwrap().owner.0 as usize == p && st.tokens().site_of(t).is_some())
        .map(|t| st.tokens().position(t))
        .collect();
    v.sort();
    v
}

fn at(g: &Game, side: &str, pos: i64) -> (i64, i64) {
    let p = g.sides().iter().position(|x| x == side).unwrap();
    let s = g.track_site(p, pos).unwrap();
    let s = g.site(s).unwrap();
    (s.x, s.y)
}

/// A position: each (player, position) chip on the board, the rest of that player's four
/// chips `finished`, South to move.
fn position(g: &Game, chips: &[(&str, i64)], waiting: &[(&str, usize)]) -> State {
    position_for(g, chips, waiting, &g.players()[0])
}

/// [`position`] with `mover` to move.
fn position_for(g: &Game, chips: &[(&str, i64)], waiting: &[(&str, usize)], mover: &str) -> State {
    let mut b = Setup::new(g);
    for (who, pos) in chips {
        b = b.token_at(who, "chip", *pos).unwrap();
    }
    for (who, n) in waiting {
        for _ in 0..*n {
            b = b.token_in(who, "chip", "waiting").unwrap();
        }
    }
    for who in g.players() {
        let used = chips.iter().filter(|(w, _)| w == who).count()
            + waiting
                .iter()
                .filter(|(w, _)| w == who)
                .map(|(_, n)| n)
                .sum::<usize>();
        for _ in used..4 {
            b = b.token_in(who, "chip", "finished").unwrap();
        }
    }
    b.mover(mover).unwrap().build()
}

#[test]
fn the_board_and_paths_follow_the_rules_file() {
    let g = game("kuilichi-chanakua");
    assert_eq!(g.num_sites(), 73);
    let south = [
        (1, (5, 1)),
        (5, (5, 5)),
        (10, (0, 5)),
        (15, (0, 10)),
        (18, (-1, 10)),
        (19, (1, 9)),
        (29, (10, 10)),
        (33, (9, 9)),
        (43, (10, 0)),
        (47, (9, 1)),
        (57, (0, 0)),
        (61, (1, 1)),
        (66, (0, 5)),
        (70, (4, 5)),
        (71, (5, 5)),
        (75, (5, 1)),
        (76, (5, 0)),
    ];
    for (pos, xy) in south {
        assert_eq!(at(&g, "South", pos), xy, "South's position {pos}");
    }
    assert_eq!(at(&g, "North", 1), (5, 9));
    assert_eq!(at(&g, "North", 19), (9, 1));
    assert_eq!(at(&g, "North", 76), (5, 10));
}

#[test]
fn stick_chart_probabilities() {
    let g = game("kuilichi-chanakua");
    let d = g.all_dice().next().unwrap();
    let p = |v: i64| {
        (d.outcomes
            .iter()
            .filter(|o| o.0 == v)
            .map(|o| o.2)
            .sum::<f64>()
            * 16.0)
            .round() as i64
    };
    let got: Vec<i64> = [1, 2, 3, 5, 10, 15, 20, 35].iter().map(|&v| p(v)).collect();
    assert_eq!(got, vec![4, 5, 2, 1, 1, 1, 1, 1]);
}

#[test]
fn the_rearmost_chip_moves_and_unstarted_chips_are_rearmost() {
    let g = game("kuilichi-chanakua");
    let mut st = position(&g, &[("South", 12), ("North", 30)], &[("South", 2)]);
    throw(&g, &mut st, 3);
    assert_eq!(
        g.legal_notations(&st),
        vec!["move waiting"],
        "one decision for identical chips"
    );
    play(&g, &mut st, &["move waiting"]);
    assert_eq!(pos_of(&g, &st, "South"), vec![3, 12]);
    throw(&g, &mut st, 2);
    play(&g, &mut st, &["move waiting"]);
    assert_eq!(pos_of(&g, &st, "South"), vec![2, 3, 12]);
}

#[test]
fn the_internal_slot_sends_back_on_the_way_in_and_finishes_on_the_way_out() {
    let g = game("kuilichi-chanakua");
    let mut st = position(&g, &[("South", 2), ("South", 68), ("North", 30)], &[]);
    one_move(&g, &mut st, 3); // the rearmost (2) lands on 5: back to the footprint
    assert_eq!(pos_of(&g, &st, "South"), vec![68]);
    assert_eq!(in_area(&g, &st, "South", "waiting"), 1);
    // The next throw moves the waiting chip (rearmost): 5 lands on the slot again.
    one_move(&g, &mut st, 5);
    assert_eq!(in_area(&g, &st, "South", "waiting"), 1, "restarted again");
    // On the way out, 71 finishes.
    let mut st = position(&g, &[("South", 68), ("North", 30)], &[]);
    one_move(&g, &mut st, 3);
    assert_eq!(in_area(&g, &st, "South", "finished"), 4);
}

fn one_move(g: &Game, st: &mut State, value: i64) {
    throw(g, st, value);
    let m = g.legal_notations(st);
    assert_eq!(m.len(), 1, "{m:?}");
    play(g, st, &[m[0].as_str()]);
}

#[test]
fn finishing_at_76_and_beyond() {
    let g = game("kuilichi-chanakua");
    let mut st = position(&g, &[("South", 74), ("North", 30)], &[]);
    one_move(&g, &mut st, 2); // 76: the footprint
    assert_eq!(in_area(&g, &st, "South", "finished"), 4);
    let mut st = position(&g, &[("South", 72), ("North", 30)], &[]);
    one_move(&g, &mut st, 10); // 82: beyond
    assert_eq!(in_area(&g, &st, "South", "finished"), 4);
    let mut st = position(&g, &[("South", 70), ("North", 30)], &[]);
    one_move(&g, &mut st, 2); // 72: an ordinary point
    assert_eq!(pos_of(&g, &st, "South"), vec![72]);
}

#[test]
fn a_burn_sends_every_opponent_chip_home_and_finishes_the_burner() {
    let g = game("kuilichi-chanakua");
    // North's positions 40 and 40 are South's... find the point of South's 30 on North's track.
    let (x, y) = at(&g, "South", 30);
    let north_pos = (1..=76).find(|&p| at(&g, "North", p) == (x, y)).unwrap();
    let mut st = position(
        &g,
        &[
            ("South", 27),
            ("South", 50),
            ("North", north_pos),
            ("North", north_pos),
        ],
        &[],
    );
    one_move(&g, &mut st, 3);
    assert_eq!(in_area(&g, &st, "North", "waiting"), 2, "both burned");
    assert_eq!(
        in_area(&g, &st, "South", "finished"),
        3,
        "the burner finished"
    );
    assert_eq!(pos_of(&g, &st, "South"), vec![50]);
}

#[test]
fn no_burn_on_a_superior_point_but_first_visits_of_corners_burn() {
    let g = game("kuilichi-chanakua");
    let (x, y) = at(&g, "South", 19); // the superior point (1, 9)
    let north_pos = (1..=76).find(|&p| at(&g, "North", p) == (x, y)).unwrap();
    let mut st = position(&g, &[("South", 16), ("North", north_pos)], &[]);
    one_move(&g, &mut st, 3);
    assert_eq!(pos_of(&g, &st, "South"), vec![19]);
    assert_eq!(
        pos_of(&g, &st, "North"),
        vec![north_pos as i32],
        "not burned, shares the point"
    );
    // The corner (0, 10) at 15, an intersection on its first visit, is ordinary.
    let (x, y) = at(&g, "South", 15);
    let north_pos = (1..=76).find(|&p| at(&g, "North", p) == (x, y)).unwrap();
    let mut st = position(&g, &[("South", 13), ("North", north_pos)], &[]);
    one_move(&g, &mut st, 2);
    assert_eq!(in_area(&g, &st, "North", "waiting"), 1);
}

#[test]
fn ikuasi_whole_or_split_and_with_one_chip_left() {
    let g = game("kuilichi-chanakua");
    let mut st = position(
        &g,
        &[("South", 3), ("South", 10), ("South", 40), ("North", 60)],
        &[],
    );
    throw(&g, &mut st, 35);
    let legal = g.legal_notations(&st);
    assert_eq!(legal.len(), 2, "{legal:?}");
    assert!(legal[0].starts_with("whole ") && legal[1].starts_with("split "));
    let split = legal[1].clone();
    play(&g, &mut st, &[split.as_str()]);
    assert_eq!(
        pos_of(&g, &st, "South"),
        vec![23, 25, 40],
        "3 + 20 and 10 + 15"
    );
    // Whole: the rearmost moves 35.
    let mut st = position(&g, &[("South", 3), ("South", 10), ("North", 60)], &[]);
    throw(&g, &mut st, 35);
    let whole = g.legal_notations(&st)[0].clone();
    play(&g, &mut st, &[whole.as_str()]);
    assert_eq!(pos_of(&g, &st, "South"), vec![10, 38]);
    // One chip left: it moves 35, no choice.
    let mut st = position(&g, &[("South", 3), ("North", 60)], &[]);
    one_move(&g, &mut st, 35);
    assert_eq!(pos_of(&g, &st, "South"), vec![38]);
}

#[test]
fn two_throws_a_turn() {
    let g = game("kuilichi-chanakua");
    let mut st = position(&g, &[("South", 3), ("North", 60)], &[]);
    one_move(&g, &mut st, 1);
    assert_eq!(g.player_name(st.mover()), "South", "a second throw");
    assert!(matches!(st.pending(), Pending::Throw(_)));
    one_move(&g, &mut st, 1);
    assert_eq!(g.player_name(st.mover()), "North");
}

/// The players who take the first `n` turns from the start (every throw a 1).
fn turn_order(g: &Game, n: usize) -> Vec<String> {
    let mut st = g.start();
    let mut order: Vec<String> = vec![];
    while order.len() < n {
        match st.pending() {
            Pending::Throw(_) => {
                let who = g.player_name(st.mover()).to_string();
                if order.last() != Some(&who) {
                    order.push(who);
                }
                throw(g, &mut st, 1);
            }
            _ => {
                let d = st.moves()[0];
                g.play(&mut st, d).unwrap();
            }
        }
    }
    order
}

#[test]
fn teams_of_two_keep_the_order_s1_n1_s2_n2() {
    let g = game_with("kuilichi-chanakua", &["team_size=2"], None);
    assert_eq!(g.players(), vec!["South1", "North1", "South2", "North2"]);
    let order = turn_order(&g, 8);
    assert_eq!(
        order,
        [
            "South1", "North1", "South2", "North2", "South1", "North1", "South2", "North2"
        ]
    );
    assert_eq!(g.num_tokens(), 16, "four chips for each player");
}

#[test]
fn random_games_of_each_team_size_conserve_chips() {
    for size in 1..=8 {
        let g = game_with("kuilichi-chanakua", &[&format!("team_size={size}")], None);
        let mut rng = Lcg(11 + size);
        let games = match size {
            1 => 1000,
            2..=4 => 300,
            _ => 60,
        };
        for _ in 0..games {
            let mut st = g.start();
            while !st.is_over() {
                random_step(&g, &mut st, &mut rng);
                for p in g.players() {
                    let on_board = pos_of(&g, &st, p).len();
                    assert_eq!(
                        on_board + in_area(&g, &st, p, "waiting") + in_area(&g, &st, p, "finished"),
                        4
                    );
                }
            }
            assert_eq!(st.outcome().unwrap().reason, ludic::EndReason::Rules);
        }
    }
}

#[test]
fn landing_exactly_on_the_footprint_burns_the_opponents_there() {
    // Rules file: position 76 "the footprint, which is a point of the other team's path": a
    // landing on opponents always burns, and the chip finishes.
    let g = game("kuilichi-chanakua");
    let (x, y) = at(&g, "South", 76);
    let north_pos = (1..=76).find(|&p| at(&g, "North", p) == (x, y)).unwrap();
    let mut st = position(&g, &[("South", 66), ("North", north_pos)], &[]);
    one_move(&g, &mut st, 10);
    assert_eq!(in_area(&g, &st, "South", "finished"), 4);
    assert_eq!(in_area(&g, &st, "North", "waiting"), 1, "burned at 76");
    assert!(pos_of(&g, &st, "North").is_empty());
}

#[test]
fn a_player_whose_chips_have_all_finished_throws_once_and_passes() {
    // Rules file: "he throws once, nothing moves, and the turn passes".
    let g = game_with("kuilichi-chanakua", &["team_size=2"], None);
    let mut st = position(&g, &[("South2", 10), ("North1", 20), ("North2", 30)], &[]);
    assert_eq!(g.player_name(st.mover()), "South1");
    assert!(matches!(st.pending(), Pending::Throw(_)));
    throw(&g, &mut st, 3);
    assert_eq!(
        g.player_name(st.mover()),
        "North1",
        "one throw, then the turn passed"
    );
    assert!(matches!(st.pending(), Pending::Throw(_)));
    assert_eq!(st.passes().0, 1);
}

#[test]
fn teams_of_eight_keep_the_order_s1_n1_to_s8_n8() {
    // Rules file: teams "from one and up to eight members"; inside a team the players take
    // their turns in a fixed order, the teams alternating.
    let g = game_with("kuilichi-chanakua", &["team_size=8"], None);
    let expected: Vec<String> = (1..=8)
        .flat_map(|i| [format!("South{i}"), format!("North{i}")])
        .collect();
    assert_eq!(g.players(), expected);
    assert_eq!(g.num_tokens(), 64, "four chips for each of 16 players");
    let order = turn_order(&g, 40);
    let cycle: Vec<String> = expected.iter().cycle().take(40).cloned().collect();
    assert_eq!(order, cycle);
}

#[test]
fn teams_of_eight_burn_only_the_other_team_and_win_together() {
    let g = game_with("kuilichi-chanakua", &["team_size=8"], None);
    let (x, y) = at(&g, "South", 30);
    let north_pos = (1..=76).find(|&p| at(&g, "North", p) == (x, y)).unwrap();
    // South5 lands on 30, where its teammate South3 and two chips of North7 and North2 are.
    let chips = [
        ("South5", 27),
        ("South3", 30),
        ("North7", north_pos),
        ("North2", north_pos),
    ];
    let mut st = position_for(&g, &chips, &[("South5", 1)], "South5");
    assert_eq!(g.player_name(st.mover()), "South5");
    one_move(&g, &mut st, 10); // the waiting chip is the rearmost: 10
    one_move(&g, &mut st, 3); // still the rearmost, 10 -> 13
    assert_eq!(pos_of(&g, &st, "South5"), vec![13, 27]);
    assert_eq!(g.player_name(st.mover()), "North5", "the teams alternate");
    // Now South5's 27 + 3 = 30: burns North7 and North2, not its teammate South3.
    let mut st = position_for(&g, &chips, &[], "South5");
    one_move(&g, &mut st, 3);
    assert_eq!(in_area(&g, &st, "North7", "waiting"), 1, "burned");
    assert_eq!(in_area(&g, &st, "North2", "waiting"), 1, "burned");
    assert_eq!(
        pos_of(&g, &st, "South3"),
        vec![30],
        "a teammate is not burned"
    );
    assert_eq!(
        in_area(&g, &st, "South5", "finished"),
        4,
        "the burner finished"
    );
    assert!(
        !st.is_over(),
        "South3 has not finished: the team has not won"
    );
    // South3 finishes: only then does South win (every player of the team has finished).
    let mut st = position_for(&g, &[("South3", 74), ("North1", 10)], &[], "South3");
    one_move(&g, &mut st, 3);
    let o = st.outcome().expect("the game is over");
    assert_eq!(
        o.winner.map(|p| g.sides()[p.0 as usize].as_str()),
        Some("South")
    );
}
