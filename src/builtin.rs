//! The games shipped in `games/`, embedded in the binary so that `ludic play NAME` works anywhere.
//! The list itself is `games/index.rs`, next to the files it names.
//!
//! A built-in game is found by any of its names ([`lookup`]): its file stem, the title of its
//! `game "…"` block and each of its `aliases`, compared case-insensitively and ignoring
//! everything but letters and digits (`K'ala Bata`, `kala bata` and
//! `kala-bata` are one name).

use std::sync::OnceLock;

/// (file stem, source) of every built-in game.
pub const GAMES: &[(&str, &str)] = include!("../games/index.rs");

/// The folder of the built-in games' files and guides in the ludic repository.
pub const GAMES_DIR: &str = "games";

/// What a name finds among the built-in games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// one game: (file stem, source)
    Found(&'static str, &'static str),
    /// several games have this name: their file stems
    Ambiguous(Vec<&'static str>),
    NotFound,
}

/// A name as it is compared: lower case, letters and digits only, common accents dropped.
pub fn fold_name(name: &str) -> String {
    name.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'ă' | 'ā' => 'a',
            'é' | 'è' | 'ê' | 'ë' | 'ē' => 'e',
            'í' | 'ì' | 'î' | 'ï' | 'ī' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ō' | 'ơ' => 'o',
            'ú' | 'ù' | 'û' | 'ü' | 'ū' | 'ư' => 'u',
            'ñ' => 'n',
            'ç' => 'c',
            other => other,
        })
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Every name of each built-in game, in the order of [`GAMES`]: (file stem, [stem, title,
/// aliases…]). The title and aliases are read from the game file's `game "…" { aliases … }`.
pub fn names() -> &'static [(&'static str, Vec<String>)] {
    static NAMES: OnceLock<Vec<(&'static str, Vec<String>)>> = OnceLock::new();
    NAMES.get_or_init(|| {
        GAMES
            .iter()
            .map(|(stem, src)| {
                let mut all = vec![stem.to_string()];
                all.extend(titles_and_aliases(src));
                (*stem, all)
            })
            .collect()
    })
}

/// The title and aliases of a game file: read from its `game` block alone when that block
/// parses by itself (a few thousand instructions), else from the whole file's parse.
fn titles_and_aliases(src: &str) -> Vec<String> {
    let metas = match crate::parse::game_block(src) {
        Some(m) => vec![m],
        None => crate::parse::parse(src).map(|f| f.meta).unwrap_or_default(),
    };
    metas
        .into_iter()
        .flat_map(|m| std::iter::once(m.name).chain(m.aliases))
        .collect()
}

/// The entries (stems) that `name` names, each once, in table order.
fn matching<'a>(name: &str, table: &[(&'a str, Vec<String>)]) -> Vec<&'a str> {
    let want = fold_name(name);
    if want.is_empty() {
        return vec![];
    }
    table
        .iter()
        .filter(|(_, names)| names.iter().any(|n| fold_name(n) == want))
        .map(|(stem, _)| *stem)
        .collect()
}

/// Finds a built-in game by any of its names (file stem, title, alias). A file stem, as
/// written, names its game at once (stems are unique); another name reads the `game` block of
/// every built-in file (not a parse of each whole file).
pub fn lookup(name: &str) -> Lookup {
    if let Some((stem, src)) = GAMES.iter().find(|(s, _)| *s == name) {
        return Lookup::Found(stem, src);
    }
    let found = matching(name, names());
    match found.as_slice() {
        [] => Lookup::NotFound,
        [stem] => match GAMES.iter().find(|(s, _)| s == stem) {
            Some((s, src)) => Lookup::Found(s, src),
            None => Lookup::NotFound,
        },
        _ => Lookup::Ambiguous(found),
    }
}

/// Finds a built-in game by any of its names when exactly one game has it: (file stem, source).
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    match lookup(name) {
        Lookup::Found(stem, src) => Some((stem, src)),
        _ => None,
    }
}

/// The path of a built-in game's guide in the ludic repository (`games/STEM.md`).
pub fn guide_path(stem: &str) -> String {
    format!("{GAMES_DIR}/{stem}.md")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fold_case_accents_and_punctuation() {
        assert_eq!(fold_name("K'ala Ba-Ta"), "kalabata");
        assert_eq!(fold_name("kala  bata"), "kalabata");
        assert_eq!(fold_name("Kalá’bata"), "kalabata");
        assert_eq!(fold_name("'-"), "");
    }

    /// `gamefile::resolve_game` reads a name written as a path to a file (`….game`, or with a
    /// separator) as that file without the titles and aliases: it finds the game the full
    /// lookup would, as no built-in name folds to a name ending in `game` (what `X.game` folds
    /// to) and none has a separator.
    #[test]
    fn no_built_in_name_looks_like_a_path() {
        for (stem, all) in names() {
            assert!(all.len() > 1, "{stem}: its title was not read");
            for n in all {
                assert!(!fold_name(n).ends_with("game"), "{stem}: `{n}`");
                assert!(!n.contains('/') && !n.contains('\\'), "{stem}: `{n}`");
            }
        }
    }

    /// The `game` block read alone gives the names the whole file's parse gives, for every
    /// built-in game, and a block that does not parse by itself falls back to the parse.
    #[test]
    fn the_game_block_alone_gives_the_names_of_the_whole_parse() {
        for (stem, src) in GAMES {
            assert!(crate::parse::game_block(src).is_some(), "{stem}: no block");
            let whole: Vec<String> = crate::parse::parse(src)
                .expect("a built-in game parses")
                .meta
                .into_iter()
                .flat_map(|m| std::iter::once(m.name).chain(m.aliases))
                .collect();
            assert!(!whole.is_empty(), "{stem}");
            assert_eq!(titles_and_aliases(src), whole, "{stem}");
        }
        // a block that does not begin a line is not read alone: the whole parse reads it
        for (stem, src) in GAMES {
            let indented = src.replacen("\ngame \"", "\n  game \"", 1);
            assert!(crate::parse::game_block(&indented).is_none(), "{stem}");
            assert_eq!(
                titles_and_aliases(&indented),
                titles_and_aliases(src),
                "{stem}"
            );
        }
        let block = "game \"Two\" {\n  # a comment\n  aliases \"B\" \"C\"\n}\nnot parsed ((";
        assert_eq!(titles_and_aliases(block), ["Two", "B", "C"]);
    }

    #[test]
    fn a_name_of_two_entries_is_ambiguous() {
        let table = vec![
            (
                "first",
                vec!["first".into(), "The Board".into(), "Common".into()],
            ),
            (
                "second",
                vec!["second".into(), "Other".into(), "common".into()],
            ),
        ];
        assert_eq!(matching("the-board", &table), vec!["first"]);
        assert_eq!(matching("OTHER", &table), vec!["second"]);
        assert_eq!(matching("Common", &table), vec!["first", "second"]);
        assert!(matching("", &table).is_empty());
        assert!(matching("none", &table).is_empty());
    }
}
