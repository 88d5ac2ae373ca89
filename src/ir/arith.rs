//! The arithmetic on game values, which defines overflow: the checker's constant folding, the
//! static evaluator ([`super::eval`]) and the engine's compiled expressions all compute through
//! [`apply`], so that a value is the same wherever it is computed.

use super::Op;

/// The arithmetic and comparisons on game values: `None` when the result does not fit in 64
/// bits or a division by zero is asked (never a silently clamped number).
#[inline(always)]
pub(crate) fn apply(op: Op, a: i64, c: i64) -> Option<i64> {
    Some(match op {
        Op::Add => a.checked_add(c)?,
        Op::Sub => a.checked_sub(c)?,
        Op::Mul => a.checked_mul(c)?,
        Op::Div => a.checked_div(c)?,
        Op::Mod => a.checked_rem(c)?,
        Op::Eq => (a == c) as i64,
        Op::Ne => (a != c) as i64,
        Op::Lt => (a < c) as i64,
        Op::Le => (a <= c) as i64,
        Op::Gt => (a > c) as i64,
        Op::Ge => (a >= c) as i64,
        Op::Min => a.min(c),
        Op::Max => a.max(c),
    })
}
