//! The language's built-in names and functions, in one table: [`BUILTINS`]. Everything that
//! knows a builtin reads it from here: the checker (the names it declares before the file's own,
//! and its "did you mean" hints), the lowering (`lower::calls` and `lower::sets`: the arity a
//! call is checked against, and which IR it lowers to, by the [`Lowering`] tag), and the tests
//! that keep `grammar/README.md` (which `ludic help language` prints) in step with the table.
//!
//! Adding a builtin: a row here, a [`Lowering`] tag and its arm in `lower::calls` (or
//! `lower::sets` for a set), and its row in grammar/README.md (the test below says so).

/// How a builtin is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// a name: `mover`, `all`
    Name,
    /// a call of `min..=max` arguments: `count(s)`, `count(s, mu)` (an arity error names `min`)
    Call { min: usize, max: usize },
}

/// What a builtin lowers to: one tag per builtin (or per pair that lowers alike), matched by
/// the lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lowering {
    Mover,
    Opponent,
    None,
    Round,
    FirstPlayer,
    Repeated,
    Repetitions,
    Sown,
    /// a site kind, by its number (`hole` 0, `store` 1, `cell` 2, `point` 3, `void` 4)
    SiteKind(i64),
    All,
    OriginalOwner,
    Count,
    Captured,
    Score,
    Size,
    Owner,
    Kind,
    Next,
    Opposite,
    Run,
    Min,
    Max,
    Abs,
    Top,
    Bottom,
    TokSite,
    TokPos,
    TokArea,
    TrackSite,
    TrackPos,
    TrackEnd,
    Side,
    Between,
    X,
    Y,
    Neighbours,
    Jumps,
    SiteAt,
    Ray,
    Rays,
    Steps,
    Connected,
}

/// One builtin of the language.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Builtin {
    /// as the author writes it
    pub(crate) name: &'static str,
    pub(crate) form: Form,
    /// it denotes a set of sites (lowered where a set is expected: `all`, `run(…)`)
    pub(crate) set: bool,
    pub(crate) lowering: Lowering,
    /// what it means, in the words of grammar/README.md's tables, which `ludic help language`
    /// prints (the test below checks that the reference says it)
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) help: &'static str,
}

const fn name(name: &'static str, lowering: Lowering, help: &'static str) -> Builtin {
    Builtin {
        name,
        form: Form::Name,
        set: false,
        lowering,
        help,
    }
}

const fn call(
    name: &'static str,
    min: usize,
    max: usize,
    lowering: Lowering,
    help: &'static str,
) -> Builtin {
    Builtin {
        name,
        form: Form::Call { min, max },
        set: false,
        lowering,
        help,
    }
}

const fn set(mut b: Builtin) -> Builtin {
    b.set = true;
    b
}

use Lowering as L;

/// Every builtin of the language.
pub(crate) const BUILTINS: &[Builtin] = &[
    // names
    name("mover", L::Mover, "the player to move"),
    name("opponent", L::Opponent, "the next side"),
    name("none", L::None, "is no site, player, token or area"),
    set(name("all", L::All, "every site (a set)")),
    name("hole", L::SiteKind(0), "site kinds"),
    name("store", L::SiteKind(1), "site kinds"),
    name("cell", L::SiteKind(2), "site kinds"),
    name("point", L::SiteKind(3), "site kinds"),
    name("void", L::SiteKind(4), "site kinds"),
    name(
        "round",
        L::Round,
        "the round being played (1 for the first)",
    ),
    name("first_player", L::FirstPlayer, "who began it"),
    name(
        "repeated",
        L::Repeated,
        "the position was at the start of an earlier turn",
    ),
    name(
        "repetitions",
        L::Repetitions,
        "how many times the position was at the start of an earlier turn",
    ),
    name(
        "sown",
        L::Sown,
        "is the number of pieces the lap just sown dropped",
    ),
    // functions
    call(
        "original_owner",
        1,
        1,
        L::OriginalOwner,
        "the owner the board description gives the site",
    ),
    call(
        "count",
        1,
        33,
        L::Count,
        "pieces at a site (counters and tokens), of some kinds, or summed over a set",
    ),
    call("captured", 1, 33, L::Captured, "what p captured"),
    call("score", 1, 1, L::Score, "its value"),
    call("size", 1, 1, L::Size, "number of sites"),
    call("owner", 1, 1, L::Owner, "a site's owner, a token's owner"),
    call(
        "kind",
        1,
        1,
        L::Kind,
        "a site's kind, or a token's kind now",
    ),
    call("next", 1, 3, L::Next, "along the ring"),
    call("opposite", 1, 1, L::Opposite, "from `opposite`"),
    set(call(
        "run",
        3,
        3,
        L::Run,
        "the set of n sites from s along the ring",
    )),
    call("min", 2, 2, L::Min, "numbers"),
    call("max", 2, 2, L::Max, "numbers"),
    call("abs", 1, 1, L::Abs, "numbers"),
    call("top", 1, 1, L::Top, "the top and bottom token of a site"),
    call(
        "bottom",
        1,
        1,
        L::Bottom,
        "the top and bottom token of a site",
    ),
    call("site", 1, 1, L::TokSite, "where a token is"),
    call("pos", 1, 1, L::TokPos, "its position on its side's track"),
    call("area", 1, 1, L::TokArea, "its area"),
    call(
        "track_site",
        2,
        2,
        L::TrackSite,
        "p's track: the site at position n",
    ),
    call("track_pos", 2, 2, L::TrackPos, "the first position of s"),
    call("track_end", 1, 1, L::TrackEnd, "the last position"),
    call("side", 1, 1, L::Side, "a player's side"),
    call("between", 2, 2, L::Between, "the site between"),
    call("x", 1, 1, L::X, "coordinates"),
    call("y", 1, 1, L::Y, "coordinates"),
    set(call("neighbours", 1, 1, L::Neighbours, "linked sites")),
    call("site_at", 2, 2, L::SiteAt, "the site at these coordinates"),
    set(call(
        "ray",
        2,
        2,
        L::Ray,
        "up to and including the first site that holds a piece",
    )),
    set(call("rays", 2, 65, L::Rays, "the rays in each direction")),
    set(call("steps", 2, 65, L::Steps, "one step in each direction")),
    set(call(
        "connected",
        2,
        2,
        L::Connected,
        "joined to a site of FROM by links",
    )),
    set(call(
        "jumps",
        1,
        1,
        L::Jumps,
        "sites two steps on along a line",
    )),
];

/// The builtin of this name.
pub(crate) fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The builtin function (written with arguments) of this name.
pub(crate) fn function(name: &str) -> Option<&'static Builtin> {
    find(name).filter(|b| matches!(b.form, Form::Call { .. }))
}

/// The builtin function of this name that denotes a set of sites (`run`, `neighbours`…).
pub(crate) fn set_function(name: &str) -> Option<&'static Builtin> {
    function(name).filter(|b| b.set)
}

/// The builtin name (written without arguments) of this name.
pub(crate) fn name_of(name: &str) -> Option<&'static Builtin> {
    find(name).filter(|b| b.form == Form::Name)
}

/// The builtin names (`mover`, `all`…), which the checker declares before the file's own.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    BUILTINS
        .iter()
        .filter(|b| b.form == Form::Name)
        .map(|b| b.name)
}

/// The builtin functions (`count`, `min`…), for "did you mean" hints.
pub(crate) fn functions() -> impl Iterator<Item = &'static str> {
    BUILTINS
        .iter()
        .filter(|b| matches!(b.form, Form::Call { .. }))
        .map(|b| b.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const README: &str = include_str!("../../grammar/README.md");
    /// Names the reference explains in their own section rather than in its table of names.
    const ELSEWHERE: [&str; 2] = ["none", "sown"];

    /// The rows of the README table that starts with this header line.
    fn table(header: &str) -> Vec<&'static str> {
        let start = README
            .find(header)
            .expect("the table is in grammar/README.md");
        README[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .collect()
    }

    /// The names in backquotes at the start of a row (`` `count(s)` · `count(s, mu)` ``).
    fn written(row: &str) -> Vec<String> {
        let first = row.split('|').nth(1).unwrap_or("");
        first
            .split('`')
            .skip(1)
            .step_by(2)
            .flat_map(|w| {
                w.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .map(str::to_string)
            })
            .collect()
    }

    #[test]
    fn names_are_unique() {
        for (i, b) in BUILTINS.iter().enumerate() {
            assert!(
                BUILTINS[..i].iter().all(|a| a.name != b.name),
                "{} twice",
                b.name
            );
            if let Form::Call { min, max } = b.form {
                assert!(min <= max, "{}", b.name);
            }
        }
    }

    /// Every builtin has its row in the language reference (`ludic help language`), which
    /// says what the table's help says; every call the reference's table of functions lists
    /// is a builtin.
    #[test]
    fn the_reference_lists_every_builtin() {
        let names = table("| name | meaning |");
        let functions = table("| function | meaning |");
        for b in BUILTINS {
            if ELSEWHERE.contains(&b.name) {
                let said = format!("`{}` {}", b.name, b.help);
                let text = README.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    text.contains(&said),
                    "grammar/README.md does not say {said:?}"
                );
                continue;
            }
            let (rows, what) = match b.form {
                Form::Name => (&names, "names"),
                Form::Call { .. } => (&functions, "functions"),
            };
            let row = rows
                .iter()
                .find(|r| {
                    let first = r.split('|').nth(1).unwrap_or("");
                    match b.form {
                        Form::Name => first
                            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                            .any(|w| w == b.name),
                        Form::Call { .. } => first.contains(&format!("`{}(", b.name)),
                    }
                })
                .unwrap_or_else(|| {
                    panic!(
                        "`{}` is missing from the table of {what} of grammar/README.md",
                        b.name
                    )
                });
            assert!(
                row.contains(b.help),
                "the README's row for `{}` does not say {:?}: {row}",
                b.name,
                b.help
            );
        }
        for row in &functions {
            for w in written(row) {
                if !w.is_empty() && row.contains(&format!("`{w}(")) {
                    assert!(
                        function(&w).is_some(),
                        "grammar/README.md lists `{w}(…)`, which is not a builtin function"
                    );
                }
            }
        }
    }
}
