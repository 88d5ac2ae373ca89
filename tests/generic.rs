//! The engine is generic: no game's name and no game-only term in `src/` (the built-in games
//! are listed in games/index.rs, next to their files).

mod common;

#[test]
fn no_game_names_or_terms_in_src() {
    let terms = [
        "pallankuzhi",
        "pallanguzhi",
        "pallankuli",
        "kaashi",
        "muthu",
        "chogi",
        "chinni",
        "pangu",
        "ceelkoq",
        "huelshe",
        "lubasso",
        "kolomei",
        "gong",
        "puluc",
        "kuilichi",
        "chanakua",
        "ikuasi",
        "tuknanavuhpi",
        "backgammon",
        // the fixtures of tests/: a sowing game after OpenSpiel's
        "kalah",
        "mancala",
    ];
    let mut found = vec![];
    let paths = common::files_under("src", None);
    let files = paths.len();
    for path in paths {
        let text = std::fs::read_to_string(&path)
            .expect("a source file")
            .to_lowercase();
        for t in terms {
            if text.contains(t) {
                found.push(format!("{}: {t}", path.display()));
            }
        }
    }
    assert!(files > 10, "src/ and its folders were read ({files} files)");
    assert!(found.is_empty(), "game terms in src/: {found:?}");
}
