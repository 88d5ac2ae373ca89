//! The engine is generic: no game's name and no game-only term in `src/` (the built-in games
//! are listed in games/index.rs, next to their files).

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
    ];
    let mut found = vec![];
    for entry in std::fs::read_dir("src").expect("src/") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path)
            .expect("a source file")
            .to_lowercase();
        for t in terms {
            if text.contains(t) {
                found.push(format!("{}: {t}", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "game terms in src/: {found:?}");
}
