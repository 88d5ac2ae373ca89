//! How a game ends: its outcome, the reason, and the faults of the rules that end it.

use crate::ir::Player;

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// the game's own rules ended it
    Rules,
    /// `limit … turns` was reached: a draw
    TurnLimit,
    /// the description ran too long without a decision (a loop in the rules): a draw
    StepLimit,
    /// one turn went on for more decisions than allowed (`DECISION_LIMIT`): a draw
    DecisionLimit,
    /// the match went on for more rounds than allowed (`ROUND_LIMIT`): a draw
    RoundLimit,
    /// the rules asked for something the engine cannot do with game numbers (a division by
    /// zero, a number too large, more pieces than a player holds): the game stops, a draw
    Fault(Fault),
    /// `limit … moves` was reached: a draw, or scored (`then end game`)
    MoveLimit,
}

impl EndReason {
    /// A short machine-readable name: `rules`, `turn_limit`, `step_limit`, `fault`.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Rules => "rules",
            EndReason::TurnLimit => "turn_limit",
            EndReason::StepLimit => "step_limit",
            EndReason::DecisionLimit => "decision_limit",
            EndReason::RoundLimit => "round_limit",
            EndReason::Fault(_) => "fault",
            EndReason::MoveLimit => "move_limit",
        }
    }
}

/// What the rules asked that the engine refuses to do silently (each ends the game, reported).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    #[error("a number went beyond the 64-bit range")]
    Overflow,
    #[error("the rules divided by zero")]
    DivisionByZero,
    #[error("the rules asked for a negative number of pieces")]
    NegativeCount,
    #[error("a site, a hand or a holding would hold more than 4294967295 pieces")]
    TooManyPieces,
    #[error("the rules took more pieces from a player than he holds")]
    NotEnoughHeld,
    #[error("the rules placed more tokens than remain unplaced")]
    NotEnoughTokens,
    #[error("a run is longer than the board")]
    RunTooLong,
    #[error("a lap whose drops the sower orders holds more than 65535 pieces")]
    LapTooLongToOrder,
    #[error("a token was given a kind of counters (a piece declared without `tokens`)")]
    NotTokenKind,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// the side that won (a side's number, see `Game::sides`; with teams, all its players
    /// win), `None` for a draw
    pub winner: Option<Player>,
    /// why the game ended
    pub reason: EndReason,
    /// the `end game` statement that ended it (its rank among the program's `end game`
    /// statements), when one did: its rule and its words (`end game … "why"`) are
    /// `Game::end_statement`
    pub said: Option<u32>,
}
