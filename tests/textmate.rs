//! The TextMate grammar `grammar/ludic.tmLanguage.json` (highlighting in VS Code, Sublime,
//! bat…): its word lists are exactly the language's (`ludic::language_words()`), so that they
//! never drift; `UPDATE_TEXTMATE=1 cargo test --release --test textmate` rewrites them. When
//! node and the packages of tests/textmate/package.json are there (`npm install --prefix
//! tests/textmate`), a shipped game is tokenized as VS Code does and some scopes are checked.

#[path = "common/pyenv.rs"]
mod pyenv;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn grammar_path() -> PathBuf {
    root().join("grammar/ludic.tmLanguage.json")
}

fn grammar() -> Value {
    let text = std::fs::read_to_string(grammar_path()).expect("grammar/ludic.tmLanguage.json");
    serde_json::from_str(&text).expect("the TextMate grammar is JSON")
}

/// The words of an alternation `\b(?:a|b|c)\b` (with an optional lookahead after it).
fn alternation(re: &str) -> BTreeSet<String> {
    let inner = re
        .strip_prefix("\\b(?:")
        .and_then(|r| r.split_once(")\\b"))
        .map(|(words, _)| words)
        .unwrap_or_else(|| panic!("not an alternation of words: {re}"));
    inner.split('|').map(str::to_string).collect()
}

/// The alternation of `words`, longest first (a regex tries the alternatives in order).
fn alternation_of(words: &BTreeSet<String>) -> String {
    let mut w: Vec<_> = words.iter().collect();
    w.sort_by_key(|w| (std::cmp::Reverse(w.len()), w.as_str()));
    format!(
        "\\b(?:{})\\b",
        w.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("|")
    )
}

/// The grammar's entries that list words, with the words each must list.
fn expected() -> Vec<(&'static str, BTreeSet<String>)> {
    let (words, builtins) = ludic::language_words();
    let of = |reserved: bool| {
        words
            .iter()
            .filter(|(_, r)| *r == reserved)
            .map(|(w, _)| w.to_string())
            .collect::<BTreeSet<_>>()
    };
    let builtins: BTreeSet<String> = builtins.iter().map(|b| b.to_string()).collect();
    vec![
        ("keyword-reserved", of(true)),
        ("keyword", of(false)),
        ("builtin", builtins.clone()),
        ("builtin-call", builtins),
    ]
}

#[test]
fn the_word_lists_are_the_languages() {
    let g = grammar();
    assert_eq!(g["scopeName"], "source.ludic");
    assert_eq!(g["fileTypes"], serde_json::json!(["game"]));
    let update = std::env::var_os("UPDATE_TEXTMATE").is_some();
    let mut text = std::fs::read_to_string(grammar_path()).unwrap();
    let mut drift = vec![];
    for (entry, want) in expected() {
        assert!(!want.is_empty(), "{entry}: the language has no such words");
        let re = g["repository"][entry]["match"]
            .as_str()
            .unwrap_or_else(|| panic!("repository.{entry}.match is missing"));
        let have = alternation(re);
        if have != want {
            let missing: Vec<_> = want.difference(&have).collect();
            let extra: Vec<_> = have.difference(&want).collect();
            drift.push(format!(
                "{entry}: missing {missing:?}, not words of the language {extra:?}"
            ));
            let old = alternation_of(&have);
            let new = alternation_of(&want);
            let (old, new) = (
                serde_json::to_string(&old).unwrap(),
                serde_json::to_string(&new).unwrap(),
            );
            text = text.replace(&old[1..old.len() - 1], &new[1..new.len() - 1]);
        }
    }
    if update && !drift.is_empty() {
        std::fs::write(grammar_path(), &text).unwrap();
        let again = grammar();
        for (entry, want) in expected() {
            let re = again["repository"][entry]["match"].as_str().unwrap();
            assert_eq!(alternation(re), want, "{entry} after UPDATE_TEXTMATE");
        }
        return;
    }
    assert!(
        drift.is_empty(),
        "grammar/ludic.tmLanguage.json no longer lists the words of the language \
         (UPDATE_TEXTMATE=1 cargo test --release --test textmate rewrites them):\n{}",
        drift.join("\n")
    );
}

#[test]
fn the_rules_cover_the_parts_of_a_file() {
    let g = grammar();
    let repo = &g["repository"];
    for (entry, scope) in [
        ("comment", "comment.line.number-sign.ludic"),
        ("number", "constant.numeric.ludic"),
        ("operator", "keyword.operator.ludic"),
        ("keyword-reserved", "keyword.control.ludic"),
        ("keyword", "keyword.other.ludic"),
        ("builtin", "support.function.ludic"),
    ] {
        assert_eq!(repo[entry]["name"], scope, "{entry}");
    }
    let strings = repo["string"]["patterns"].to_string();
    assert!(strings.contains("string.quoted.triple.ludic") && strings.contains("\\\"\\\"\\\""));
    let decl = repo["declaration"].to_string();
    for word in ["def", "region", "site", "track", "let"] {
        assert!(
            decl.contains(word),
            "names after `{word}` are not entity.name"
        );
    }
    // every entry is used from the top
    let top = g["patterns"].to_string();
    for key in repo.as_object().unwrap().keys() {
        assert!(top.contains(&format!("#{key}")), "{key} is not included");
    }
}

/// The tokens of a file as vscode-textmate gives them: (line, text, scopes), or None when node
/// or the packages are not installed.
fn tokenize(file: &Path) -> Option<Vec<(usize, String, String)>> {
    let dir = root().join("tests/textmate");
    if !dir.join("node_modules/vscode-textmate").is_dir() {
        // the test command sets up what it needs: npm (Debian's, as root), then the two
        // packages, pinned by package-lock.json
        if Command::new("npm").arg("--version").output().is_err() {
            let _ = pyenv::apt_install(&["nodejs", "npm"]);
        }
        let _ = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--silent", "--prefix"])
            .arg(&dir)
            .status();
    }
    if !dir.join("node_modules/vscode-textmate").is_dir() {
        assert!(
            !pyenv::ci(),
            "CI=true: node and npm are needed (Debian: apt-get install nodejs npm), and `npm ci --prefix tests/textmate` failed"
        );
        return None;
    }
    let out = Command::new("node")
        .arg(dir.join("tokenize.js"))
        .arg(file)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "tokenize.js: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let mut p = l.splitn(3, '\t');
                let line = p.next().unwrap().parse().unwrap();
                (line, p.next().unwrap().into(), p.next().unwrap().into())
            })
            .collect(),
    )
}

#[test]
fn vscode_textmate_tokenizes_a_game() {
    let file = root().join("tests/compat/authors/kalah.game");
    let Some(tokens) = tokenize(&file) else {
        eprintln!(
            "skipped: no node or no tests/textmate/node_modules (npm install --prefix tests/textmate)"
        );
        return;
    };
    let scope_of = |text: &str, line_has: &str| {
        let source = std::fs::read_to_string(&file).unwrap();
        let line = source
            .lines()
            .position(|l| l.contains(line_has))
            .unwrap_or_else(|| panic!("no line with {line_has}"))
            + 1;
        tokens
            .iter()
            .find(|(l, t, _)| *l == line && t.trim() == text)
            .map(|(_, _, s)| s.clone())
            .unwrap_or_else(|| panic!("no token {text:?} on line {line}: {tokens:?}"))
    };
    let cases = [
        (
            "# Kalah(6,4) as an outside author wrote it: the rules of OpenSpiel's `mancala` (the same as",
            "# Kalah(6,4)",
            "comment.line.number-sign.ludic",
        ),
        ("game", "game \"Kalah", "keyword.other.ludic"),
        (
            "Six pits a side with four seeds each, and a store at each end. Sow counter-clockwise into",
            "Six pits",
            "string.quoted.triple.ludic",
        ),
        ("100000", "option turns", "constant.numeric.ludic"),
        ("total", "def total(p)", "entity.name.function.ludic"),
        ("row", "region row", "entity.name.ludic"),
        ("value", "let value", "entity.name.ludic"),
        ("where", "choose sow h where", "keyword.control.ludic"),
        ("count", "def total(p)", "support.function.ludic"),
        ("==", "if sown == home", "keyword.operator.ludic"),
    ];
    for (text, line_has, scope) in cases {
        let scopes = scope_of(text, line_has);
        assert!(
            scopes.split(' ').any(|s| s == scope),
            "{text:?} on the line with {line_has:?}: {scopes}, not {scope}"
        );
        assert!(scopes.starts_with("source.ludic"), "{scopes}");
    }
    // every shipped game tokenizes without an error
    for (stem, _) in ludic::builtin::GAMES {
        let path = root().join(format!("games/{stem}.game"));
        assert!(tokenize(&path).is_some_and(|t| !t.is_empty()), "{stem}");
    }
}

#[test]
fn the_vim_syntax_lists_the_same_words() {
    // grammar/vim/syntax/game.vim, the fallback for Vim and Neovim: its `syn keyword` lists
    // are the language's words too.
    let text = std::fs::read_to_string(root().join("grammar/vim/syntax/game.vim")).unwrap();
    let group = |names: &[&str]| -> BTreeSet<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix("syn keyword "))
            .filter_map(|l| l.split_once(' '))
            .filter(|(g, _)| names.contains(g))
            .flat_map(|(_, words)| words.split_whitespace())
            .filter(|w| !w.contains('=') && !["skipwhite", "contained"].contains(w))
            .map(str::to_string)
            .collect()
    };
    let want = expected();
    assert_eq!(group(&["gameReserved"]), want[0].1, "reserved words");
    assert_eq!(
        group(&["gameKeyword", "gameDeclWord"]),
        want[1].1,
        "the other words"
    );
    assert_eq!(group(&["gameBuiltin"]), want[2].1, "builtins");
}
