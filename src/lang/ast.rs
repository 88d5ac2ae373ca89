//! The abstract syntax tree: what the author wrote, with a span on every node.
//!
//! Nothing here is checked: names may be unknown and values out of range. The checker
//! ([`crate::check`]) turns a [`GameFile`] into a [`crate::ir::Game`] or a list of diagnostics.

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// A name as written, with where it was written: `s1`, `mine`, `South`.
#[derive(Clone, Debug)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole `.game` file, items grouped by kind in source order.
#[derive(Clone, Debug, Default)]
pub struct GameFile {
    /// `game "Name" { … }`
    pub meta: Vec<Meta>,
    /// `option stones = 12 in 2..40 "doc"`
    pub options: Vec<OptionDecl>,
    /// `variant "big board" { holes = 7 }`
    pub variants: Vec<Variant>,
    /// `require stones % 2 == 0 "stones must be even"`
    pub requires: Vec<Require>,
    /// `sides South North`
    pub sides: Vec<Vec<Ident>>,
    /// Spans of each `sides` declaration.
    pub sides_spans: Vec<Span>,
    /// `board { … }`
    pub boards: Vec<Board>,
    /// `pieces { … }`
    pub pieces: Vec<Vec<PieceDecl>>,
    /// `start { … }`
    pub starts: Vec<(Span, Vec<Stmt>)>,
    /// `def name(params) = expr`
    pub defs: Vec<Def>,
    /// `turn { … }`
    pub turns: Vec<(Span, Vec<Stmt>)>,
    /// `limit max_turns turns`, `limit 300 moves then end game`
    pub limits: Vec<LimitDecl>,
    /// `dice grains { … }`
    pub dice: Vec<DiceDecl>,
    /// `action advance(t, n) { … }`
    pub actions: Vec<ActionDecl>,
    /// `players per side N`
    pub team_size: Vec<Expr>,
    /// `tally NAME [per player] = EXPR "doc"`
    pub tallies: Vec<TallyDecl>,
    /// `position pieces mover TALLY`: whether it says `board` (not `pieces`), the names after
    /// it, and the declaration's span
    pub positions: Vec<(bool, Vec<Ident>, Span)>,
    /// `between rounds { … }`
    pub betweens: Vec<(Span, Vec<Stmt>)>,
    /// `labels { sow "…"  collect "…" }`, the entries of every such block in order
    pub labels: Vec<LabelDoc>,
    /// `ludic 1`: the version of the language the file says it is written for, if it says
    pub version: Option<(u32, Span)>,
    /// The whole file's span.
    pub span: Span,
    /// the base this game is built on and what it changes, once merged (`crate::derive`)
    pub derivation: Option<Derivation>,
}

/// `limit max_turns turns`, `limit 300 moves then end game draw`: how long a game (a round)
/// may go on, in turns or in decisions, and what reaching the limit means.
#[derive(Clone, Debug)]
pub struct LimitDecl {
    pub count: Expr,
    /// `moves`: decisions are counted, not turns
    pub moves: bool,
    /// `then end game …`: the outcome at the limit (a draw when `None`)
    pub then: Option<EndGame>,
    pub span: Span,
}

/// `tally debt per player = 0 "small stones owed"`: a number kept across turns and rounds.
#[derive(Clone, Debug)]
pub struct TallyDecl {
    pub name: Ident,
    pub per_player: bool,
    pub init: Expr,
    pub doc: Option<String>,
    #[allow(dead_code)] // every node keeps its span, read or not
    pub span: Span,
    /// `per site`: one number for each site, read as `marked(h)`
    pub per_site: bool,
}

/// `sow "take all the seeds of one of your holes and sow them"` in a `labels { … }` block:
/// what a choice's label means, for players.
#[derive(Clone, Debug)]
pub struct LabelDoc {
    pub label: Ident,
    /// the text, with the lines of a `"""` string trimmed
    pub text: String,
    /// the string as written
    pub text_span: Span,
}

/// `game "My Game" { aliases "Another Name" origin "…" source "…" summary """…""" }`
#[derive(Clone, Debug, Default)]
pub struct Meta {
    pub name: String,
    pub span: Span,
    pub aliases: Vec<String>,
    pub origin: Option<String>,
    pub source: Option<String>,
    pub summary: Option<String>,
    /// `from "base.game"`: the game this one is built on, and where that is written
    pub base: Option<(String, Span)>,
}

/// What a game built on another changes of it (see `crate::derive`): filled when the base is
/// merged in.
#[derive(Clone, Debug, Default)]
pub struct Derivation {
    /// the base game's name (its `game` block)
    pub base: String,
    /// what changes, in the words of `rules`: `option holes (5 -> 7)`, `turn replaced`…
    pub changes: Vec<String>,
}

/// The value part of `option NAME = VALUE`: `12`, `on`, `off`, `ranks`.
#[derive(Clone, Debug)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    Word(String),
}

/// `option stones = 12 in 2..40 "doc"`, `option pearl = on`, `option shrink = ranks in ranks files`
#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: Ident,
    pub default: OptionValue,
    pub default_span: Span,
    pub domain: Option<OptionDomain>,
    pub doc: Option<String>,
    pub span: Span,
}

/// `in 2..40` or `in ranks files`
#[derive(Clone, Debug)]
pub enum OptionDomain {
    Range(i64, i64, Span),
    Words(Vec<Ident>),
}

/// `variant "big board" "doc" { holes = 7  stones = 7 }`
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub doc: Option<String>,
    pub span: Span,
    pub sets: Vec<(Ident, OptionValue, Span)>,
}

/// `require stones % 2 == 0 "stones must be even"`
#[derive(Clone, Debug)]
pub struct Require {
    pub cond: Expr,
    pub message: String,
    pub span: Span,
}

/// `board { … }`
#[derive(Clone, Debug, Default)]
pub struct Board {
    pub span: Span,
    pub rows: Vec<Row>,
    pub sites: Vec<SiteDecl>,
    pub regions: Vec<RegionDecl>,
    pub rings: Vec<RingDecl>,
    pub opposites: Vec<OppositeDecl>,
    pub tracks: Vec<TrackDecl>,
    pub points: Vec<PointsDecl>,
    /// `links (2, 0) (0, 2) where x % 2 == 0`: offsets and the condition on the start point
    pub links: Vec<LinksDecl>,
    /// `area waiting finished`
    pub areas: Vec<Ident>,
    /// `line a1 d1 g1, a4 b4 c4` and `lines 3`
    pub lines: Vec<LineDecl>,
    /// `directions n (0, 1) e (1, 0)`: each name with its offset (x, y, the offset's span),
    /// and the span of the declaration
    pub directions: Vec<DirectionsDecl>,
}

/// The lines of a board.
#[derive(Clone, Debug)]
pub enum LineDecl {
    /// `line a1 d1 g1, a4 b4 c4`: lines given by their sites
    Sites(Vec<Vec<SiteItem>>, Span),
    /// `lines 3`: every run of 3 sites along a straight line of the links
    Along(Expr, Span),
}

/// `directions n (0, 1) e (1, 0)`: each name with its offset (x, y, the offset's span), and the
/// declaration's span
pub type DirectionsDecl = (Vec<(Ident, Expr, Expr, Span)>, Span);

/// `links (2, 0) (0, 2) where COND`: the offsets, the condition on the first point, the span
pub type LinksDecl = (Vec<(Expr, Expr, Span)>, Option<Expr>, Span);

/// `for x in A..B, y in C..D where COND`: (x name, x from, x to, y name, y from, y to, condition)
pub type PointsFor = (Ident, Expr, Expr, Ident, Expr, Expr, Option<Expr>);

/// `points for x in A..B, y in C..D where COND` or `points (1, 9) (9, 9)`
#[derive(Clone, Debug)]
pub struct PointsDecl {
    pub generator: Option<PointsFor>,
    pub coords: Vec<(Expr, Expr, Span)>,
    pub attrs: Vec<SiteAttr>,
    pub span: Span,
}

/// `track South from 0 = c[0..10]`
#[derive(Clone, Debug)]
pub struct TrackDecl {
    pub side: Ident,
    pub from: Option<i64>,
    pub sites: Vec<SiteItem>,
    /// `OTHER turned DEGREES about (x, y)`
    pub turned: Option<(Ident, i64, Expr, Expr)>,
    pub span: Span,
}

/// `dice grains { die g1 g2 faces marked blank  value … when …  value 5 otherwise }`
#[derive(Clone, Debug)]
pub struct DiceDecl {
    pub name: Ident,
    /// groups of dice with the same faces: (dice names, face names)
    pub dice: Vec<(Vec<Ident>, Vec<Ident>)>,
    pub chart: Vec<ChartRow>,
    pub span: Span,
}

/// `value 2 "tsimani" when count(flat) == 2`; `when` is `None` for `otherwise`
#[derive(Clone, Debug)]
pub struct ChartRow {
    pub value: Expr,
    pub name: Option<String>,
    pub when: Option<Expr>,
    #[allow(dead_code)] // every node keeps its span, read or not
    pub span: Span,
}

/// `action advance(t, n) { … }`
#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: Vec<Stmt>,
    #[allow(dead_code)] // every node keeps its span, read or not
    pub span: Span,
}

/// A site name or a range of names: `east`, `s[1..holes]`.
#[derive(Clone, Debug)]
pub enum SiteItem {
    Name(Ident),
    /// `(5, 1)`
    Coord(Expr, Expr, Span),
    /// `(5, 1)..(5, 4)`
    CoordRange(Expr, Expr, Expr, Expr, Span),
    Range {
        prefix: Ident,
        from: Expr,
        to: Expr,
        span: Span,
    },
}

/// `kind store`, `owner South`
#[derive(Clone, Debug)]
pub enum SiteAttr {
    Kind(Ident),
    Owner(Ident),
}

/// `row s[1..7] at y 0 x 1 owner South`
#[derive(Clone, Debug)]
pub struct Row {
    pub sites: Vec<SiteItem>,
    pub y: Expr,
    pub x: Option<Expr>,
    pub attrs: Vec<SiteAttr>,
    #[allow(dead_code)] // every node keeps its span, read or not
    pub span: Span,
}

/// `site east at (holes + 1, 1) kind store owner South`
#[derive(Clone, Debug)]
pub struct SiteDecl {
    pub name: Ident,
    pub x: Expr,
    pub y: Expr,
    pub attrs: Vec<SiteAttr>,
    #[allow(dead_code)] // every node keeps its span, read or not
    pub span: Span,
}

/// `region treasure = s4 n4`
#[derive(Clone, Debug)]
pub struct RegionDecl {
    pub name: Ident,
    pub items: Vec<Expr>,
    #[allow(dead_code)] // every node keeps its span, read or not
    pub span: Span,
}

/// `ring s[1..7] n[1..7] forward ccw backward cw`
#[derive(Clone, Debug)]
pub struct RingDecl {
    pub sites: Vec<SiteItem>,
    pub forward: Ident,
    pub backward: Ident,
    pub span: Span,
}

/// `opposite s[1..7] with n[7..1]`
#[derive(Clone, Debug)]
pub struct OppositeDecl {
    pub left: Vec<SiteItem>,
    pub right: Vec<SiteItem>,
    pub span: Span,
}

/// `big value big_value` inside `pieces { … }`
#[derive(Clone, Debug)]
pub struct PieceDecl {
    pub name: Ident,
    pub value: Option<Expr>,
    /// `tokens N`: N individual pieces for each player
    pub tokens: Option<Expr>,
}

/// Where `place` puts pieces: `on SITES` or `in AREA`.
#[derive(Clone, Debug)]
pub enum PlaceTarget {
    Sites(Vec<Expr>),
    Area(Ident),
}

/// Where `move` takes a token: `to POSITION` on its track or `onto SITE`.
#[derive(Clone, Debug)]
pub enum MoveTarget {
    Position(Expr),
    Site(Expr),
}

/// `minimum`, `maximum`, `total`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggKind {
    Min,
    Max,
    Sum,
}

/// `def mine(h) = owner(h) == mover`
#[derive(Clone, Debug)]
pub struct Def {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: Expr,
    #[allow(dead_code)] // every node keeps its span, read or not
    pub span: Span,
}

/// A statement of a `turn` or `start` block.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// How `end game` decides the result.
#[derive(Clone, Debug)]
pub enum EndGame {
    /// `end game`: the higher score wins, equal scores draw.
    Score,
    /// `end game winner P`
    Winner(Expr),
    /// `end game draw`
    Draw,
}

/// A value in a choice domain: `ccw`, `3`, `1..6`.
#[derive(Clone, Debug)]
pub enum ValueItem {
    Name(Ident),
    Int(i64, Span),
    Range(i64, i64, Span),
}

/// One alternative of `choose`: `sow h where mine(h) { … }`, `d in ccw cw`, `decline where c { … }`.
#[derive(Clone, Debug)]
pub struct Alternative {
    pub label: Option<Ident>,
    pub var: Option<Ident>,
    /// `label token t where …`: the variable ranges over tokens
    pub token_var: bool,
    /// `in SET`: the variable ranges over the sites of a set
    pub set: Option<Expr>,
    /// `to q in SET`: a second variable, ranging over a set that may use the first
    pub to: Option<(Ident, Expr)>,
    pub values: Option<Vec<ValueItem>>,
    pub cond: Option<Expr>,
    pub body: Option<Vec<Stmt>>,
    pub span: Span,
    /// `leaving COND`: legal only if the position after the decision satisfies COND
    pub leaving: Option<Expr>,
}

/// Statement kinds; each shows its syntax.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `if c { … } else { … }`
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Option<Vec<Stmt>>,
    },
    /// `while c { … }`
    While { cond: Expr, body: Vec<Stmt> },
    /// `choose { alt… }` or `choose alt`, with `else { … }` when none is legal
    Choose(Vec<Alternative>, Option<Vec<Stmt>>),
    /// `sow h toward d, sower orders drops, skip SET, lap ends at e { … }`
    Sow {
        from: Expr,
        dir: Expr,
        orders: bool,
        skip: Option<Expr>,
        last: Ident,
        body: Vec<Stmt>,
    },
    /// `let t = expr`
    Let(Ident, Expr),
    /// `set t = expr`, `set owner(t) = mover`, `set kind(t) = store`
    Set { target: Expr, value: Expr },
    /// `capture t opposite(t) keep 1 to mover`
    Capture {
        items: Vec<Expr>,
        keep: Option<Expr>,
        to: Option<Expr>,
    },
    /// `place 12 stone on holes from mover`, `place 5 piece on c0 for South`, `place 4 chip in waiting`
    Place {
        count: Expr,
        piece: Ident,
        target: PlaceTarget,
        from: Option<Expr>,
        owner: Option<Expr>,
    },
    /// `throw grains as v`
    Throw { dice: Ident, var: Ident },
    /// `move t to 12`, `move t onto c7`, `carry bottom(s) onto c7` (with the tokens above it)
    Move {
        token: Expr,
        target: MoveTarget,
        carry: bool,
    },
    /// `send t to waiting`
    Send { token: Expr, area: Ident },
    /// `for token x where c { … }`
    ForTokens {
        var: Ident,
        cond: Expr,
        body: Vec<Stmt>,
    },
    /// `for h in SET { … }`
    ForSites {
        var: Ident,
        set: Expr,
        body: Vec<Stmt>,
    },
    /// `do advance(t, 20)`
    Do { name: Ident, args: Vec<Expr> },
    /// `relay next(e)`
    Relay(Expr),
    /// `end turn`
    EndTurn,
    /// `end round`
    EndRound,
    /// `end game …`, `end game winner P "why"`: the rule and, when given, why it ends the game
    EndGame(EndGame, Option<String>),
    /// `again`
    Again,
    /// `first random`, `first P`
    First(Option<Expr>),
    /// `give N piece from A to B`
    Give {
        count: Expr,
        piece: Ident,
        from: Expr,
        to: Expr,
    },
    /// `forget positions`
    ForgetPositions,
    /// `another turn`: when this turn ends, the same player plays another
    AnotherTurn,
    /// `let dest: site = none`: a variable with its type written
    LetTyped { name: Ident, ty: Ident, value: Expr },
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// Unary operators: `not`, `-`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

/// An expression with its span.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Expression kinds; each shows its syntax.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `12`
    Int(i64),
    /// `true`, `false`
    Bool(bool),
    /// `h`, `treasure`, `mover`, `stones`
    Name(Ident),
    /// `count(h)`, `mine(h)`
    Call(Ident, Vec<Expr>),
    /// `s[1..holes]`
    Range(Ident, Box<Expr>, Box<Expr>),
    /// `(5, 1)`: the site at these coordinates
    Coord(Box<Expr>, Box<Expr>),
    /// `some token x where c`
    Some(Ident, Box<Expr>, bool),
    /// `[s1 s2]`
    List(Vec<Expr>),
    /// `not c`, `-n`
    Unary(UnOp, Box<Expr>),
    /// `a + b`, `h in treasure`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `exists h where c`, `exists token x where c` (the flag)
    Exists(Ident, Box<Expr>, bool),
    /// `exists q in SET where c`
    ExistsIn(Ident, Box<Expr>, Box<Expr>),
    /// `minimum token x where c: value`
    Agg {
        kind: AggKind,
        token: bool,
        var: Ident,
        cond: Box<Expr>,
        value: Box<Expr>,
    },
    /// `forall x in SET: c`
    Forall(Ident, Box<Expr>, Box<Expr>),
    /// `(h where c)`, `(token x where c)` (the flag)
    Filter(Ident, Box<Expr>, bool),
    /// `line x through s: c` (a condition), `(line x through s: c)` (the flag: the set of the
    /// sites of every such line)
    Line(Ident, Box<Expr>, Box<Expr>, bool),
    /// `some h from s toward d where c`: the first site along the ring from s where c holds
    SomeAlong {
        var: Ident,
        /// `some token x from …` (refused: tokens are not in a ring)
        token: bool,
        from: Box<Expr>,
        dir: Box<Expr>,
        cond: Box<Expr>,
    },
}
