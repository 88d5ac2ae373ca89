//! The games shipped in `games/`, embedded in the binary so that `ludic play NAME` works anywhere.
//! The list itself is `games/index.rs`, next to the files it names.

/// (file stem, source) of every built-in game.
pub const GAMES: &[(&str, &str)] = include!("../games/index.rs");

/// Finds a built-in game by file stem, case-insensitively.
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    let n = name.to_lowercase();
    GAMES.iter().copied().find(|(stem, _)| *stem == n)
}
