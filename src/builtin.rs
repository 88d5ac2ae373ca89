//! The games shipped in `games/`, embedded in the binary so that `ludic play NAME` works anywhere.

/// (file stem, source) of every built-in game.
pub const GAMES: &[(&str, &str)] = &[
    ("pallankuzhi", include_str!("../games/pallankuzhi.game")),
    (
        "ceelkoqyuqkoqiji",
        include_str!("../games/ceelkoqyuqkoqiji.game"),
    ),
    ("puluc", include_str!("../games/puluc.game")),
    (
        "kuilichi-chanakua",
        include_str!("../games/kuilichi-chanakua.game"),
    ),
    ("tuknanavuhpi", include_str!("../games/tuknanavuhpi.game")),
];

/// Finds a built-in game by file stem, case-insensitively.
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    let n = name.to_lowercase();
    GAMES.iter().copied().find(|(stem, _)| *stem == n)
}
