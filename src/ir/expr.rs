//! The IR's expressions ([`Expr`]) and sets of sites ([`SetExpr`]): the source forms the
//! lowering makes, then the optimized forms only the optimizer makes.

use super::{KindMask, RegionId, SiteKind, VarId};

/// Binary numeric and comparison operators of the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Min,
    Max,
}

/// An expression; every value is an `i64`: numbers, booleans (0/1), sites (index, -1 for none),
/// players (index, -1 for none), directions (0 forward, 1 backward), site kinds (index).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `12`, `true`, `s1`, `South`, `ccw`, `hole`, an option's value
    Const(i64),
    /// `h`: a local variable
    Var(VarId),
    /// `mover`
    Mover,
    /// `opponent`: the side after the mover's
    Opponent,
    /// `side(p)`: the side a player plays for
    SideOf(Box<Expr>),
    /// `count(h)`, `count(h, mu)`
    Count(Box<Expr>, KindMask),
    /// `count(SET)`: summed over a set
    CountSet(Box<SetExpr>, KindMask),
    /// `captured(p)`, `captured(p, stone)`
    Captured(Box<Expr>, KindMask),
    /// `score(p)`: value of the captures of p
    Score(Box<Expr>),
    /// `size(SET)`
    Size(Box<SetExpr>),
    /// `owner(h)`
    Owner(Box<Expr>),
    /// `kind(h)`
    KindOf(Box<Expr>),
    /// `next(h, d, n)`; `next(h)` inside `sow` uses the sowing direction
    Next {
        site: Box<Expr>,
        dir: Box<Expr>,
        steps: Box<Expr>,
    },
    /// the direction of the sowing in progress
    SowDir,
    /// `opposite(h)`
    Opposite(Box<Expr>),
    /// `h in treasure`
    InRegion(Box<Expr>, RegionId),
    /// `h in SET`
    InSet(Box<Expr>, Box<SetExpr>),
    /// `not c`
    Not(Box<Expr>),
    /// `-n`
    Neg(Box<Expr>),
    /// `abs(n)`
    Abs(Box<Expr>),
    /// `a + b`, `a == b`, `min(a, b)`, …
    Bin(Op, Box<Expr>, Box<Expr>),
    /// `a and b`
    And(Box<Expr>, Box<Expr>),
    /// `a or b`
    Or(Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `exists v where c` (over every site), `exists` over a set
    Exists {
        var: VarId,
        set: Box<SetExpr>,
        cond: Box<Expr>,
    },
    /// `top(s)`: the token on top of a site's stack (-1 for none)
    Top(Box<Expr>),
    /// `bottom(s)`: the lowest token at a site (-1 for none)
    Bottom(Box<Expr>),
    /// `owner(t)` of a token
    TokOwner(Box<Expr>),
    /// `kind(t)` of a token: its piece kind now (-1 for no token)
    TokKind(Box<Expr>),
    /// `site(t)`: where a token stands (-1 off the board)
    TokSite(Box<Expr>),
    /// `pos(t)`: a token's position on its side's track (the position before the first one
    /// while it is off the board)
    TokPos(Box<Expr>),
    /// `area(t)`: the area a token is in (-1 on the board)
    TokArea(Box<Expr>),
    /// `track_site(p, n)`: the site at position n of p's track (-1 outside it)
    TrackSite(Box<Expr>, Box<Expr>),
    /// `track_pos(p, s)`: the first position of site s on p's track (-1 if it is not on it)
    TrackPos(Box<Expr>, Box<Expr>),
    /// `track_end(p)`: the last position of p's track
    TrackEnd(Box<Expr>),
    /// `exists token v where c`
    TokExists(VarId, Box<Expr>),
    /// `between(a, c)`: the site on the line from a to c, one step from each (-1 if none)
    Between(Box<Expr>, Box<Expr>),
    /// `x(s)`, `y(s)`: a site's coordinates
    CoordX(Box<Expr>),
    CoordY(Box<Expr>),
    /// `site_at(x, y)`: the site at these coordinates (-1 for none)
    SiteAt(Box<Expr>, Box<Expr>),
    /// `some v where c`, `some token v where c`: the first site or token where c holds (-1)
    Some {
        over: Over,
        var: VarId,
        cond: Box<Expr>,
    },
    /// `minimum`/`maximum`/`total` of `value` over the sites or tokens where `cond` holds
    Agg {
        op: AggOp,
        over: Over,
        var: VarId,
        cond: Box<Expr>,
        value: Box<Expr>,
    },
    /// `forall v in SET: c`
    Forall {
        var: VarId,
        set: Box<SetExpr>,
        cond: Box<Expr>,
    },
    /// a tally without `per player`: its slot
    Tally(u16),
    /// `debt(p)`: a `per player` tally (its first slot) for a player
    TallyOf(u16, Box<Expr>),
    /// `round`: the number of the round being played (1 for the first)
    Round,
    /// `first_player`: the player who plays first in this round
    FirstPlayer,
    /// `original_owner(h)`: the owner the board description gives the site (-1 for none)
    OriginalOwner(Box<Expr>),
    /// `marked(h)`: a `per site` tally (its first slot) at a site
    TallyAt(u16, Box<Expr>),
    /// `repeated`: the position (board, holdings, player to move) was seen at the start of an
    /// earlier turn since the last `forget positions`
    Repeated,
    /// `repetitions`: how many times the position was at the start of an earlier turn
    Repetitions,
    /// `line v through s: c`: some line of the board through s has c at each of its sites
    InLine(Box<LineQuery>),
    /// `some v from s toward d where c`: the first site along the ring from s (s itself first)
    /// in direction d where c holds (-1 for none)
    SomeAlong {
        var: VarId,
        from: Box<Expr>,
        dir: Box<Expr>,
        cond: Box<Expr>,
    },
    /// a `def`'s argument evaluated once: `value` is stored in `var`, then `body` is evaluated
    /// (it reads the argument as `var`). The lowering makes it for an argument that cannot
    /// fault, costs more than a read, is used more than once and is surely evaluated by the
    /// body (see `lang/lower/share.rs`); `var` is bound nowhere else.
    Let {
        var: VarId,
        value: Box<Expr>,
        body: Box<Expr>,
    },

    // The optimized forms: only the optimizer (`lang::optimize`) makes them, from the source
    // forms above; the engine compiles them to faster closures, and every walker of the IR
    // handles them like the forms they replace.
    /// (optimized) `a and b and c`, evaluated left to right
    All(Vec<Expr>),
    /// (optimized) `a or b or c`
    Any(Vec<Expr>),
    /// (optimized) `count(v)` of every kind at a variable's site
    CountVar(VarId),
    /// (optimized) `kind(v) == k` or `kind(v) != k`
    KindIs {
        var: VarId,
        kind: SiteKind,
        sense: Sense,
    },
    /// (optimized) `owner(v) == p` or `owner(v) != p`
    OwnerIs {
        var: VarId,
        player: PlayerRef,
        sense: Sense,
    },
    /// (optimized) `x OP c` with a constant right side
    BinConst(Op, Box<Expr>, i64),
    /// (optimized) `count(x)` of every kind at a site
    CountAt(Box<Expr>),
    /// (optimized) `next(x)` one step in the sowing direction
    NextSow(Box<Expr>),
    /// (optimized) `next(v)` of a variable, one step in the sowing direction
    NextSowVar(VarId),
    /// (optimized) tests of one site at once: its kind, its owner, its count of pieces
    SiteTest(Box<SiteTest>),
}

/// Whether a question or a loop goes over the sites or over the tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    Sites,
    Tokens,
}

/// Whether a fused test asks for equality (`==`) or for a difference (`!=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    Is,
    IsNot,
}

impl Sense {
    /// `==` for `is`, `!=` for `is not`.
    pub fn from_negated(negated: bool) -> Sense {
        if negated { Sense::IsNot } else { Sense::Is }
    }
    /// Whether the test holds, for the result of the comparison with `==`.
    #[inline(always)]
    pub fn holds(self, equal: bool) -> bool {
        equal == (self == Sense::Is)
    }
}

/// `line v through s: c`: the lines of the board through `through` with `cond` at each of
/// their sites (`var` holds each site in turn).
#[derive(Clone, Debug, PartialEq)]
pub struct LineQuery {
    pub(crate) var: VarId,
    pub(crate) through: Expr,
    pub(crate) cond: Expr,
}

/// Fused tests of the site in a variable: `kind(h) == k and owner(h) == p and count(h) > n`.
#[derive(Clone, Debug, PartialEq)]
pub struct SiteTest {
    pub(crate) var: VarId,
    pub(crate) kind: Option<(SiteKind, Sense)>,
    pub(crate) owner: Option<(PlayerRef, Sense)>,
    pub(crate) count: Option<(Op, CountRhs)>,
}

/// What a fused site test compares the count with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountRhs {
    Const(i64),
    /// a variable computed once before the sites are tried
    Var(VarId),
}

/// `minimum`, `maximum`, `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggOp {
    Min,
    Max,
    Sum,
}

/// A player named in an optimized test: the mover, his opponent, a fixed player or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerRef {
    Mover,
    Opponent,
    Fixed(i64),
}

/// A set of sites, iterated without allocating.
#[derive(Clone, Debug, PartialEq)]
pub enum SetExpr {
    /// `all`
    All,
    /// nothing
    Empty,
    /// `treasure`
    Region(RegionId),
    /// a single site
    One(Expr),
    /// `a b c` or `[a b c]` or `A + B`
    Union(Vec<SetExpr>),
    /// `A - B`
    Diff(Box<SetExpr>, Box<SetExpr>),
    /// `(v where c)` over a base set
    Filter {
        var: VarId,
        base: Box<SetExpr>,
        cond: Box<Expr>,
    },
    /// `run(h, d, n)`: n sites from h along the ring in direction d
    Run {
        from: Box<Expr>,
        dir: Box<Expr>,
        len: Box<Expr>,
    },
    /// `neighbours(s)`: the sites joined to s by a line
    Neighbours(Box<Expr>),
    /// `jumps(s)`: the sites two steps from s along a straight line
    Jumps(Box<Expr>),
    /// (optimized) a fixed list of sites
    List(Vec<u16>),
    /// `(line v through s: c)`: the sites of every line through s with c at each of its sites
    Line(Box<LineQuery>),
    /// `ray(s, d)`: the sites from s along direction d (s left out), up to and including the
    /// first that holds a piece, or the edge of the board
    Ray { from: Box<Expr>, dir: Box<Expr> },
    /// `connected(FROM, THROUGH)`: the sites of THROUGH joined to a site of FROM by links
    /// through sites of THROUGH (the sites of FROM in THROUGH included), each once, in order
    Connected {
        from: Box<SetExpr>,
        through: Box<SetExpr>,
    },
    /// `neighbours(SET)`: the sites linked to a site of the set and not in it, each once, in order
    Around(Box<SetExpr>),
}
