//! `limit N turns` and `limit N moves`, and what reaching a limit means (`then end game …`).

use crate::ast::{self, LimitDecl, Span};
use crate::diagnostic::ErrorKind;
use crate::ir::EndRule;
use crate::lang::lower::Lowerer;
use crate::lang::table::Ty;

/// The limits of a game: turns and decisions of a round, and the outcome at each.
pub(crate) struct Limits {
    pub(crate) turns: u32,
    pub(crate) turns_end: EndRule,
    /// `u32::MAX` when the file sets no limit of moves
    pub(crate) moves: u32,
    pub(crate) moves_end: EndRule,
}

/// The file's `limit` declarations: at most one of turns and one of moves, at least one.
pub(crate) fn limits(l: &mut Lowerer, f: &ast::GameFile) -> Limits {
    let turns: Vec<&LimitDecl> = f.limits.iter().filter(|x| !x.moves).collect();
    let moves: Vec<&LimitDecl> = f.limits.iter().filter(|x| x.moves).collect();
    if f.limits.is_empty() {
        // (a limit of moves would do as well; the message names the usual one)
        l.error_hint(
            ErrorKind::Missing {
                what: "`limit … turns` declaration",
            },
            Span { start: 0, end: 0 },
            "add `limit … turns` declaration; `ludic help language` shows how",
        );
    }
    for (list, what) in [
        (&turns, "`limit … turns` declaration"),
        (&moves, "`limit … moves` declaration"),
    ] {
        for extra in list.iter().skip(1) {
            l.error(ErrorKind::TooMany { what }, extra.span);
        }
    }
    let (turns, turns_end) = match turns.first() {
        Some(x) => limit_of(l, x, "the turn limit must be 1 or more"),
        // a game limited by moves only: turns are not counted out
        None if !moves.is_empty() => (u32::MAX, EndRule::Draw),
        None => (1, EndRule::Draw),
    };
    let (moves, moves_end) = match moves.first() {
        Some(x) => limit_of(l, x, "the move limit must be 1 or more"),
        None => (u32::MAX, EndRule::Draw),
    };
    Limits {
        turns,
        turns_end,
        moves,
        moves_end,
    }
}

fn limit_of(lo: &mut Lowerer, l: &LimitDecl, what: &'static str) -> (u32, EndRule) {
    let n = match lo.const_int(&l.count) {
        Some(n) if (1..=u32::MAX as i64).contains(&n) => n as u32,
        Some(n) => {
            lo.error(ErrorKind::TooLarge { value: n, what }, l.count.span);
            1
        }
        None => 1,
    };
    let end = match &l.then {
        None | Some(ast::EndGame::Draw) => EndRule::Draw,
        Some(ast::EndGame::Score) => EndRule::Score,
        Some(ast::EndGame::Winner(p)) => EndRule::Winner(lo.expect(p, Ty::Player)),
    };
    (n, end)
}
