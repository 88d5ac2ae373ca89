//! Tuknanavuhpi (../shared/rules/tuknanavuhpi.md): perft oracle, hops and chains, the
//! shrinking board, and invariants over random games.

mod common;
use common::*;
use ludic::perft::perft;
use ludic::setup::Setup;
use ludic::{Game, State};
use ludic::{SiteId, SiteKind};

#[test]
fn the_board_has_41_points_and_their_lines() {
    let g = game("tuknanavuhpi");
    assert_eq!(g.num_sites(), 41);
    // Every point's number of neighbours: corners 3, the centre 8, a cell centre 4.
    let n = |name: &str| g.neighbours(site(&g, name)).count();
    assert_eq!((n("a1"), n("e5"), n("b2"), n("c1")), (3, 8, 4, 5));
}

#[test]
fn perft_from_the_start() {
    let g = game("tuknanavuhpi");
    let st = g.start();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&g, &st, d).unwrap()).collect();
    assert_eq!(counts, vec![4, 10, 45, 298]);
}

#[test]
fn perft_refuses_games_with_chance() {
    let g = game("puluc");
    assert!(perft(&g, &g.start(), 1).is_err());
}

fn position(g: &Game, white: &[&str], black: &[&str]) -> State {
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
    b.build()
}

fn void(g: &Game, st: &State) -> Vec<String> {
    let mut v: Vec<String> = (0..g.num_sites())
        .filter(|&i| st.site_kind(ludic::SiteId(i as u16)) == SiteKind::Void)
        .map(|i| g.site(SiteId(i as u16)).unwrap().name.to_string())
        .collect();
    v.sort();
    v
}

fn ranks(g: &Game, st: &State) -> Vec<i64> {
    let mut ys: Vec<i64> = (0..g.num_sites())
        .filter(|&i| st.site_kind(ludic::SiteId(i as u16)) != SiteKind::Void)
        .map(|i| g.site(SiteId(i as u16)).unwrap().y)
        .collect();
    ys.sort();
    ys.dedup();
    ys
}

fn files(g: &Game, st: &State) -> Vec<i64> {
    let mut xs: Vec<i64> = (0..g.num_sites())
        .filter(|&i| st.site_kind(ludic::SiteId(i as u16)) != SiteKind::Void)
        .map(|i| g.site(SiteId(i as u16)).unwrap().x)
        .collect();
    xs.sort();
    xs.dedup();
    xs
}

#[test]
fn an_empty_end_rank_and_file_become_unplayable() {
    let g = game("tuknanavuhpi");
    // White on c3 (2, 2) and d4 (3, 3); Black on e7 (4, 6) and e9 (4, 8).
    let st = position(&g, &["c3", "d4"], &["e7", "e9"]);
    assert_eq!(
        ranks(&g, &st),
        vec![2, 3, 4, 5, 6, 7, 8],
        "ranks 0 and 1 are empty: gone"
    );
    assert_eq!(
        files(&g, &st),
        vec![2, 3, 4],
        "files 0, 1 and 5..8 are empty: gone"
    );
    assert!(void(&g, &st).contains(&"a1".to_string()));
}

#[test]
fn with_shrink_ranks_files_stay() {
    let g = game_with("tuknanavuhpi", &["shrink=ranks"], None);
    let st = position(&g, &["c3", "d4"], &["e7", "e9"]);
    assert_eq!(ranks(&g, &st), vec![2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(
        files(&g, &st),
        (0..=8).collect::<Vec<_>>(),
        "files never shrink"
    );
}

#[test]
fn with_center_lines_off_only_grid_lines_count() {
    let g = game_with("tuknanavuhpi", &["center_lines=off", "shrink=ranks"], None);
    // White on c3 (2, 2): the grid line y = 0 is empty, and goes; y = 2 is not, so the cell
    // centres on y = 1, inside it, stay playable (with center lines on they would go).
    let st = position(&g, &["c3"], &["e9"]);
    assert_eq!(ranks(&g, &st), vec![1, 2, 3, 4, 5, 6, 7, 8]);
    let g = game_with("tuknanavuhpi", &["shrink=ranks"], None);
    let st = position(&g, &["c3"], &["e9"]);
    assert_eq!(ranks(&g, &st), vec![2, 3, 4, 5, 6, 7, 8]);
    // A grid line goes together with the empty centres outside it: White only on b4 (1, 3).
    let g = game_with("tuknanavuhpi", &["center_lines=off", "shrink=ranks"], None);
    let st = position(&g, &["b4"], &["e9"]);
    assert_eq!(
        ranks(&g, &st),
        vec![3, 4, 5, 6, 7, 8],
        "y = 0, 1 and 2 go; y = 2 is the outermost grid line"
    );
}

#[test]
fn a_board_shrinks_during_play() {
    let g = game_with("tuknanavuhpi", &["shrink=ranks"], None);
    // White's last piece on the first rank steps up: before Black's turn rank 0 is empty.
    let mut st = position(&g, &["a1", "c3"], &["e9", "g9"]);
    assert_eq!(ranks(&g, &st)[0], 0);
    play(&g, &mut st, &["step a1 b2"]);
    assert_eq!(ranks(&g, &st)[0], 1, "rank 0 became unplayable");
    // Nothing may land on it again.
    for _ in 0..3 {
        let legal = g.legal_notations(&st);
        assert!(legal.iter().all(|m| !m.ends_with('1')), "{legal:?}");
        let d = st.moves()[0];
        g.play(&mut st, d).unwrap();
    }
}

#[test]
fn hops_capture_and_chains_stop_where_the_player_chooses() {
    let g = game("tuknanavuhpi");
    // White on a1 (0, 0); Black on b2 (1, 1) and d4 (3, 3): a1 hops to c3, then may hop to e5.
    let mut st = position(&g, &["a1"], &["b2", "d4", "i9"]);
    let legal = g.legal_notations(&st);
    assert!(legal.contains(&"hop a1 c3".to_string()), "{legal:?}");
    play(&g, &mut st, &["hop a1 c3"]);
    assert_eq!(in_area(&g, &st, "Black", "captured"), 18);
    assert_eq!(g.legal_notations(&st), vec!["hop e5", "stop"]);
    play(&g, &mut st, &["hop e5"]);
    assert_eq!(in_area(&g, &st, "Black", "captured"), 19);
    assert_eq!(
        g.player_name(st.mover()),
        "Black",
        "no hop left: the turn ends"
    );
    // Stopping after the first hop is the other complete sequence.
    let st0 = position(&g, &["a1"], &["b2", "d4", "i9"]);
    assert_eq!(
        perft(&g, &st0, 1).unwrap(),
        g.legal_notations(&st0).len() as u64 + 1
    );
}

#[test]
fn no_pieces_or_no_move_loses() {
    let g = game("tuknanavuhpi");
    let st = position(&g, &[], &["e9"]);
    assert_eq!(st.outcome().unwrap().winner, Some(side(&g, "Black")));
    // White on a1 boxed in by Black pieces it cannot hop: a1's neighbours b2, c1, a3 are
    // Black and the points behind them (c3, e1, a5) are Black too.
    let st = position(&g, &["a1"], &["b2", "c1", "a3", "c3", "e1", "a5"]);
    assert_eq!(st.outcome().unwrap().winner, Some(side(&g, "Black")));
}

#[test]
fn random_games_never_add_pieces_nor_land_on_unplayable_points() {
    let g = game("tuknanavuhpi");
    let mut rng = Lcg(5);
    for _ in 0..1000 {
        let mut st = g.start();
        let mut on_board = 40;
        while !st.is_over() {
            random_step(&g, &mut st, &mut rng);
            let now = (0..g.num_tokens())
                .filter(|&t| st.tokens().site_of(t).is_some())
                .count();
            assert!(now <= on_board, "pieces never increase");
            on_board = now;
            for t in 0..g.num_tokens() {
                if let Some(s) = st.tokens().site_of(t) {
                    assert_ne!(
                        st.site_kind(s),
                        SiteKind::Void,
                        "a piece on an unplayable point"
                    );
                }
            }
        }
    }
}

#[test]
fn perft_counts_sequences_of_exactly_the_depth() {
    // One sequence of 5 turns ends the game (the side to move then has no move): it counts at
    // depth 5 and contributes nothing at depth 6.
    let g = game("tuknanavuhpi");
    let st = g.start();
    assert_eq!(perft(&g, &st, 5).unwrap(), 2315);
    assert_eq!(perft(&g, &st, 6).unwrap(), 20030);
    // A finished game has no sequence of one more turn.
    let over = position(&g, &[], &["e9"]);
    assert!(over.is_over());
    assert_eq!(perft(&g, &over, 1).unwrap(), 0);
    assert_eq!(perft(&g, &over, 0).unwrap(), 1);
}

#[test]
fn a_game_won_on_the_last_allowed_turn_is_won() {
    // The limit is one turn: White's hop takes Black's last piece on that turn. The win is
    // seen at the start of the next turn (Black has no piece), and it stands. (White's piece
    // on i9 keeps the board from shrinking.)
    let g = game_with("tuknanavuhpi", &["max_turns=1"], None);
    let mut st = position(&g, &["a1", "i9"], &["b2"]);
    play(&g, &mut st, &["hop a1 c3"]);
    let o = st.outcome().expect("over");
    assert_eq!(o.reason, ludic::EndReason::Rules);
    assert_eq!(o.winner, Some(side(&g, "White")));
    // A game still going after the last allowed turn is a draw.
    let mut st = position(&g, &["a1"], &["b2", "i9"]);
    play(&g, &mut st, &["hop a1 c3"]);
    let o = st.outcome().expect("over");
    assert_eq!((o.reason, o.winner), (ludic::EndReason::TurnLimit, None));
}
