//! The compatibility corpus (issue 26): every `.game` text the project has shipped or used in a
//! test, at any commit, and files written in the style of outside authors (common words as
//! names), must keep validating; the records made of some of them must keep replaying to the
//! same final position. `tests/compat/SOURCES.md` says where each file came from.
//!
//! A failing run lists every failing file with its first error, so that one run shows all the
//! breakage. A word that becomes reserved and is used as a name by any corpus file fails here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ludic::{LoadError, Settings};

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/compat")
        .join(sub)
}

/// The `.game` files of a folder of the corpus, by name, sorted.
fn games_in(sub: &str) -> Vec<(String, PathBuf)> {
    let mut v: Vec<_> = std::fs::read_dir(dir(sub))
        .unwrap_or_else(|e| panic!("tests/compat/{sub}: {e}"))
        .map(|e| e.expect("a readable folder").path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), p))
        .collect();
    v.sort();
    v
}

/// Every file of the corpus: the collected ones, then the outside authors' (minus those
/// expected to fail).
fn corpus() -> Vec<(String, PathBuf)> {
    let mut v = games_in("files");
    v.extend(
        games_in("authors")
            .into_iter()
            .map(|(n, p)| (format!("authors/{n}"), p)),
    );
    v
}

/// The text of a corpus file as `validate` sees it: composed with its base when it is built on
/// a built-in game (`game "…" from "ceelkoqyuqkoqiji"`).
fn text_of(path: &Path) -> Result<String, String> {
    let raw = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    ludic::gamefile::compose_text(&raw, &path.display().to_string())
}

fn first_error(name: &str, source: &str, e: &LoadError) -> String {
    match e {
        LoadError::File(d) => match d.0.iter().find(|d| d.is_error()) {
            Some(d) => {
                let (line, col) = ludic::diagnostic::line_col(source, d.span.start);
                format!("{name}:{line}:{col}: {d}")
            }
            None => format!("{name}: an error without a diagnostic"),
        },
        LoadError::Options(o) => format!("{name}: {}", o.join("; ")),
    }
}

/// Why a file does not validate (its first error, or the first error of a variant), if so.
fn failure(name: &str, path: &Path) -> Option<String> {
    let text = match text_of(path) {
        Ok(t) => t,
        Err(e) => return Some(format!("{name}: {}", e.lines().next().unwrap_or(""))),
    };
    let v = ludic::validate(&text);
    if let Err(e) = &v.game {
        return Some(first_error(name, &text, e));
    }
    v.variants
        .first()
        .map(|(variant, e)| format!("variant `{variant}`: {}", first_error(name, &text, e)))
}

fn failures(files: &[(String, PathBuf)]) -> Vec<String> {
    files.iter().filter_map(|(n, p)| failure(n, p)).collect()
}

#[test]
fn every_corpus_file_validates() {
    let files = corpus();
    assert!(
        files.len() >= 60,
        "the corpus is in tests/compat/files and tests/compat/authors: only {} files found",
        files.len()
    );
    let bad = failures(&files);
    assert!(
        bad.is_empty(),
        "{} of {} corpus files no longer validate (a file that validated must keep validating):\n{}",
        bad.len(),
        files.len(),
        bad.join("\n")
    );
}

#[test]
fn the_outside_authors_files_are_in_the_corpus() {
    // The acceptance files of issue 26: the Kalah with `def total(p)`, a race game and a line
    // game, all with common words as names.
    let authors: Vec<_> = games_in("authors").into_iter().map(|(n, _)| n).collect();
    for name in [
        "kalah.game",
        "race.game",
        "three.game",
        "list_items.game",
        "kalah_total.game",
        "race_words.game",
        "line_words.game",
    ] {
        assert!(authors.iter().any(|n| n == name), "missing {name}");
    }
    let kalah = std::fs::read_to_string(dir("authors").join("kalah.game")).unwrap();
    for words in [
        "def total(p)",
        "let value =",
        "region row =",
        "option turns",
    ] {
        assert!(kalah.contains(words), "kalah.game lost `{words}`");
    }
}

#[test]
fn records_replay_to_the_same_final_position() {
    // Each record of tests/compat/records names its game by the hash of its text: found among
    // the corpus files, loaded with the record's options, replayed step by step, and compared
    // with the final position and result the record keeps.
    let mut by_hash = BTreeMap::new();
    for (name, path) in corpus() {
        if let Ok(text) = text_of(&path) {
            by_hash.insert(ludic::source_hash(&text), (name, text));
        }
    }
    let mut records: Vec<_> = std::fs::read_dir(dir("records"))
        .expect("tests/compat/records")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    records.sort();
    assert!(records.len() >= 8, "only {} records", records.len());
    let mut bad = vec![];
    for path in &records {
        let label = path.file_name().unwrap().to_string_lossy().to_string();
        let rec: ludic::record::Record =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap())
                .unwrap_or_else(|e| panic!("{label}: {e}"));
        let Some((name, text)) = by_hash.get(&rec.source_hash) else {
            bad.push(format!(
                "{label}: no corpus file has the source hash {}",
                rec.source_hash
            ));
            continue;
        };
        let settings = Settings {
            variant: None,
            sets: rec.options.clone().into_iter().collect(),
        };
        let game = match ludic::load_game(text, &settings) {
            Ok(g) => g,
            Err(e) => {
                bad.push(format!("{label}: {}", first_error(name, text, &e)));
                continue;
            }
        };
        let st = match ludic::record::replay(&game, &rec.steps) {
            Ok(st) => st,
            Err(e) => {
                bad.push(format!("{label} ({name}): {e}"));
                continue;
            }
        };
        let here = ludic::render::final_position(&game, &st);
        let kept = rec.last.as_ref().expect("the records here are finished");
        if &here != kept {
            bad.push(format!(
                "{label} ({name}): final position {here:?}, the record says {kept:?}"
            ));
        }
        let result = ludic::render::state_json(&game, &st)["result"].clone();
        let kept = rec.result.clone().unwrap_or_default();
        if result["winner"] != kept["winner"] {
            bad.push(format!(
                "{label} ({name}): winner {}, the record says {}",
                result["winner"], kept["winner"]
            ));
        }
    }
    assert!(bad.is_empty(), "records that changed:\n{}", bad.join("\n"));
}

/// A small game with `name` defined by `what` (`def`, `let` or `region`) and used.
fn game_naming(what: &str, name: &str) -> String {
    let (board, defs, turn) = match what {
        "def" => (
            String::new(),
            format!("def {name}(h) = count(h) + 1\n"),
            format!("  if {name}(s1) > 5 {{ end game }}\n"),
        ),
        "let" => (
            String::new(),
            String::new(),
            format!("  let {name} = count(s1) + 1\n  if {name} > 5 {{ end game }}\n"),
        ),
        _ => (
            format!("  region {name} = s1 s2\n"),
            String::new(),
            format!("  if count({name}) > 5 {{ end game }}\n"),
        ),
    };
    format!(
        "game \"Words\" {{ }}\nsides South North\nlimit 10 turns\nboard {{\n  row s[1..3] at y 0 owner South\n{board}}}\npieces {{ seed }}\nstart {{ place 1 seed on s1 }}\n{defs}turn {{\n{turn}  choose take h where count(h) > 0 {{ capture h }}\n}}\n"
    )
}

#[test]
fn every_word_that_is_not_reserved_is_a_name() {
    // Each word of the language that is not reserved can be a def's, a let's and a region's
    // name: a word made reserved by accident fails here (and in the corpus test when a file
    // uses it).
    let (words, _) = ludic::language_words();
    let mut bad = vec![];
    for (word, reserved) in &words {
        if *reserved {
            continue;
        }
        for what in ["def", "let", "region"] {
            let text = game_naming(what, word);
            if let Err(e) = ludic::validate(&text).game {
                bad.push(format!(
                    "{what} {word}: {}",
                    first_error("<generated>", &text, &e)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // and the control: a reserved word is refused in each place
    for (word, reserved) in &words {
        if *reserved {
            for what in ["def", "let", "region"] {
                assert!(
                    ludic::validate(&game_naming(what, word)).game.is_err(),
                    "{what} {word} is accepted but the word is reserved"
                );
            }
        }
    }
}

#[test]
fn the_authors_kalah_plays_as_the_fixture() {
    // The outside author's Kalah (common words as names) is the same game as
    // tests/fixtures/kalah.game: the same number of turn sequences at each depth.
    let load = |path: &str| {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        ludic::load_game(&text, &Settings::default()).unwrap_or_else(|_| panic!("{path}"))
    };
    let (author, fixture) = (
        load("tests/compat/authors/kalah.game"),
        load("tests/fixtures/kalah.game"),
    );
    let counts = |g: &ludic::Game| {
        (1..=4)
            .map(|d| ludic::perft::perft(g, &g.start(), d).expect("perft"))
            .collect::<Vec<_>>()
    };
    assert_eq!(counts(&author), vec![10, 116, 1022, 9682]);
    assert_eq!(counts(&author), counts(&fixture));
}
