//! What the grammar's text says about itself, read once from `grammar/ludic.pest` (the file
//! pest compiled the parser from): the words that begin each statement and each declaration.
//! Syntax errors name a statement by them ([`starting_words`]) and the nesting pre-scan closes
//! an expression's levels at them ([`statement_starts`]), so a new statement or declaration
//! needs no list of words written again: its rule among the alternatives of `stmt` or `item`
//! is enough.

use super::{LudicParser, Rule};
use pest::Parser;
use std::collections::HashMap;
use std::sync::OnceLock;

const GRAMMAR: &str = include_str!("../../../grammar/ludic.pest");

/// The words that begin a declaration (an alternative of `item`, and the version line) and
/// those that begin a statement (of `stmt`), each sorted: what an editor offers at the top of a
/// file and inside a block.
pub(super) fn starting_words_of_parts() -> &'static (Vec<&'static str>, Vec<&'static str>) {
    static WORDS: OnceLock<(Vec<&'static str>, Vec<&'static str>)> = OnceLock::new();
    WORDS.get_or_init(|| {
        let starts = |rules: &[&'static str]| {
            let mut words = vec![];
            for name in rules {
                first_words(&Atom::Name(name), 0, &mut words);
            }
            words.sort_unstable();
            words.dedup();
            words
        };
        let mut items = alternatives_of("item");
        items.push("version_decl");
        (starts(&items), starts(&alternatives_of("stmt")))
    })
}

/// The rules whose alternatives are the statements and the declarations.
const STARTS_OF: [&str; 2] = ["stmt", "item"];

/// A piece of a rule's body, as far as the first words need: a string literal, a rule's name,
/// a bracketed group (its alternatives), or anything else (an operator, a lookahead).
#[derive(Debug)]
enum Atom<'a> {
    Literal(&'a str),
    Name(&'a str),
    Group(Vec<Vec<Atom<'a>>>),
    /// a lookahead (`!x`, `&x`) or a repetition that may match nothing: no word of its own
    Silent,
}

/// Each rule's body (the text between its braces), by name.
fn bodies() -> &'static HashMap<&'static str, &'static str> {
    static BODIES: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    BODIES.get_or_init(|| {
        let mut map = HashMap::new();
        let mut rest = GRAMMAR;
        while let Some((name, body, after)) = next_rule(rest) {
            map.insert(name, body);
            rest = after;
        }
        map
    })
}

/// The next rule definition of `text` (`name = _{ body }`, at the start of a line): its name,
/// its body and the text after it.
fn next_rule(text: &str) -> Option<(&str, &str, &str)> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let name_len = line
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(0);
        if name_len == 0 || line.starts_with("//") {
            continue;
        }
        let after_name = line[name_len..].trim_start();
        let Some(def) = after_name.strip_prefix('=') else {
            continue;
        };
        let open = start + line.len() - def.len() + def.find('{')?;
        let close = matching(text.as_bytes(), open, b'{', b'}')?;
        return Some((
            &line[..name_len],
            &text[open + 1..close],
            &text[close + 1..],
        ));
    }
    None
}

/// The index of the `close` bracket that closes the `opener` at `b[open]`, skipping string and
/// character literals.
fn matching(b: &[u8], open: usize, opener: u8, close: u8) -> Option<usize> {
    let (mut depth, mut i) = (0usize, open);
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = literal_end(b, i),
            c if c == opener => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote that closes the literal opened at `b[i]` (escapes skipped).
fn literal_end(b: &[u8], mut i: usize) -> usize {
    let quote = b[i];
    i += 1;
    while i < b.len() && b[i] != quote {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i
}

/// The alternatives of a body, each a sequence of atoms.
fn alternatives(body: &'static str) -> Vec<Vec<Atom<'static>>> {
    let b = body.as_bytes();
    let mut i = 0;
    read_alternatives(body, b, &mut i)
}

fn read_alternatives<'a>(body: &'a str, b: &[u8], i: &mut usize) -> Vec<Vec<Atom<'a>>> {
    let mut alts = vec![vec![]];
    while *i < b.len() {
        let c = b[*i];
        match c {
            b')' => {
                *i += 1;
                break;
            }
            b'|' => alts.push(vec![]),
            b'(' => {
                *i += 1;
                let group = read_alternatives(body, b, i);
                let atom = if optional_follows(b, *i) {
                    Atom::Silent
                } else {
                    Atom::Group(group)
                };
                alts.last_mut().expect("one alternative").push(atom);
                continue;
            }
            b'!' | b'&' => {
                // a lookahead: skip the atom it looks at
                *i += 1;
                skip_atom(b, i);
                alts.last_mut().expect("one alternative").push(Atom::Silent);
                continue;
            }
            b'"' => {
                let end = literal_end(b, *i);
                let atom = if optional_follows(b, end + 1) {
                    Atom::Silent
                } else {
                    Atom::Literal(&body[*i + 1..end])
                };
                alts.last_mut().expect("one alternative").push(atom);
                *i = end + 1;
                continue;
            }
            b'\'' => *i = literal_end(b, *i),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = *i;
                while *i < b.len() && (b[*i].is_ascii_alphanumeric() || b[*i] == b'_') {
                    *i += 1;
                }
                let atom = if optional_follows(b, *i) {
                    Atom::Silent
                } else {
                    Atom::Name(&body[start..*i])
                };
                alts.last_mut().expect("one alternative").push(atom);
                continue;
            }
            _ => {}
        }
        *i += 1;
    }
    alts
}

/// Whether the atom that ended just before `i` may match nothing (`?` or `*` follows).
fn optional_follows(b: &[u8], i: usize) -> bool {
    b[i.min(b.len())..]
        .iter()
        .find(|c| !c.is_ascii_whitespace())
        .is_some_and(|&c| c == b'?' || c == b'*')
}

/// Moves `i` past the atom that starts at (or after blanks from) `b[i]`.
fn skip_atom(b: &[u8], i: &mut usize) {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
    match b.get(*i) {
        Some(b'"' | b'\'') => *i = literal_end(b, *i) + 1,
        Some(b'(') => *i = matching(b, *i, b'(', b')').map_or(b.len(), |c| c + 1),
        _ => {
            while *i < b.len() && (b[*i].is_ascii_alphanumeric() || b[*i] == b'_') {
                *i += 1;
            }
        }
    }
}

/// The one word an atom stands for: a literal word, or a rule that is one literal word (and
/// lookaheads), like `kw_turn = @{ "turn" ~ !ident_char }`.
fn word_of(atom: &Atom<'static>) -> Option<&'static str> {
    match atom {
        Atom::Literal(w) => is_word(w).then_some(*w),
        Atom::Name(n) => {
            let body = bodies().get(n)?;
            match alternatives(body).as_slice() {
                [seq] => {
                    let mut words = seq.iter().filter(|a| !matches!(a, Atom::Silent));
                    match (words.next(), words.next()) {
                        (Some(Atom::Literal(w)), None) if is_word(w) => Some(*w),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn is_word(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|c| c.is_ascii_alphabetic())
}

/// Every word the atom may begin with (`move_word = @{ ("move" | "carry") ~ … }`: both).
fn first_words(atom: &Atom<'static>, depth: usize, out: &mut Vec<&'static str>) {
    if depth > 8 {
        return;
    }
    if let Some(w) = word_of(atom) {
        out.push(w);
        return;
    }
    let alts = match atom {
        Atom::Name(n) => match bodies().get(n) {
            Some(body) => alternatives(body),
            None => return,
        },
        Atom::Group(g) => {
            for seq in g {
                if let Some(a) = seq.iter().find(|a| !matches!(a, Atom::Silent)) {
                    first_words(a, depth + 1, out);
                }
            }
            return;
        }
        _ => return,
    };
    for seq in &alts {
        if let Some(a) = seq.iter().find(|a| !matches!(a, Atom::Silent)) {
            first_words(a, depth + 1, out);
        }
    }
}

/// The rules named as alternatives of `stmt` and `item`: the statements and declarations.
fn statement_rules() -> Vec<&'static str> {
    STARTS_OF
        .iter()
        .flat_map(|of| alternatives_of(of))
        .collect()
}

/// The rules named as the alternatives of the rule `of`.
fn alternatives_of(of: &str) -> Vec<&'static str> {
    let Some(body) = bodies().get(of) else {
        return vec![];
    };
    alternatives(body)
        .iter()
        .filter_map(|seq| match seq.as_slice() {
            [Atom::Name(n)] => Some(*n),
            _ => None,
        })
        .collect()
}

/// The words a rule of one alternative begins with, up to the first part that is not a fixed
/// word, as a syntax error writes them (`` `between rounds` ``); None if it begins otherwise.
fn lead_words(name: &str) -> Option<String> {
    let lead: Vec<&str> = match alternatives(bodies().get(name)?).as_slice() {
        [seq] => seq.iter().map_while(word_of).collect(),
        _ => vec![],
    };
    (!lead.is_empty()).then(|| format!("`{}`", lead.join(" ")))
}

/// Whether a syntax error's words (`` `let` ``, `` `another turn` ``) are those a statement
/// begins with.
pub(super) fn starts_a_statement(words: &str) -> bool {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    let all = WORDS.get_or_init(|| {
        let mut all = vec![];
        for name in alternatives_of("stmt") {
            let mut first = vec![];
            first_words(&Atom::Name(name), 0, &mut first);
            all.extend(first.iter().map(|w| format!("`{w}`")));
            all.extend(lead_words(name));
        }
        all
    });
    all.iter().any(|w| w == words)
}

/// A statement's or declaration's words for a syntax error: the words it begins with, up to
/// the first part that is not a fixed word (`` `between rounds` ``, `` `players per side` ``,
/// `` `sow` ``); for a rule that is one word (`` `forget` ``), that word. None for any other
/// rule.
pub(super) fn starting_words(r: Rule) -> Option<&'static str> {
    static WORDS: OnceLock<HashMap<String, String>> = OnceLock::new();
    let words = WORDS.get_or_init(|| {
        statement_rules()
            .into_iter()
            .filter_map(|name| Some((name.to_string(), lead_words(name)?)))
            .collect()
    });
    let name = format!("{r:?}");
    if let Some(w) = words.get(&name) {
        return Some(w);
    }
    // a word that is not reserved but has a rule of its own (`add_kw = @{ "add" ~ … }`)
    static SINGLE: OnceLock<HashMap<&'static str, String>> = OnceLock::new();
    let single = SINGLE.get_or_init(|| {
        bodies()
            .keys()
            .filter_map(|n| Some((*n, format!("`{}`", word_of(&Atom::Name(n))?))))
            .collect()
    });
    single.get(name.as_str()).map(String::as_str)
}

/// The words that begin a statement or a declaration and end a list written with spaces
/// (`ends_a_list`). A word that does not end a list (`another`, `forget`) is not one of them.
pub(super) fn statement_starts() -> &'static [&'static str] {
    static STARTS: OnceLock<Vec<&'static str>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let mut words = vec![];
        for name in statement_rules() {
            first_words(&Atom::Name(name), 0, &mut words);
        }
        words.retain(|w| ends_a_list(w));
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// Every word the grammar spells (a quoted literal of letters: `sow`, `where`, `forget`…),
/// sorted: the words an editor highlights. Which of them are reserved: [`is_reserved`].
pub(super) fn words() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut out: Vec<&'static str> = GRAMMAR
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| l.split('"').skip(1).step_by(2))
            .filter(|w| is_word(w) && w.len() > 1)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    })
}

/// Whether the grammar's `keyword` rule matches the whole word (a reserved word).
pub(super) fn is_reserved(word: &str) -> bool {
    whole(Rule::keyword, word)
}

/// Whether the word ends a list written with spaces (`capture a b`) in some part of a file
/// (the grammar's `list_end_word`); a name everywhere else.
pub(super) fn ends_a_list(word: &str) -> bool {
    whole(Rule::list_end_word, word)
}

fn whole(rule: Rule, word: &str) -> bool {
    LudicParser::parse(rule, word)
        .ok()
        .and_then(|mut p| p.next())
        .is_some_and(|p| p.as_str() == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statement_and_declaration_has_starting_words() {
        let rules = statement_rules();
        assert!(rules.len() >= 30, "{rules:?}");
        let by_name: HashMap<String, Rule> = Rule::all_rules()
            .iter()
            .map(|r| (format!("{r:?}"), *r))
            .collect();
        for name in rules {
            let r = by_name[name];
            assert!(
                starting_words(r).is_some() || super::super::errors::rule_words(r).is_some(),
                "{name} has no words for syntax errors"
            );
        }
    }

    #[test]
    fn the_words_are_whole_words_of_the_grammar() {
        let all = words();
        for w in ["sow", "where", "forget", "ludic", "row", "total"] {
            assert!(all.contains(&w), "{w}");
        }
        // no piece of a word (the reserved words were once spelled `"a" ~ ("ction" | …)`)
        for w in ["ction", "aces", "ally", "urn"] {
            assert!(!all.contains(&w), "{w}");
        }
        for w in ["capture", "row", "at", "value", "leaving", "line"] {
            assert!(ends_a_list(w) && all.contains(&w), "{w}");
        }
        for w in [
            "total",
            "token",
            "turns",
            "onto",
            "orders",
            "sower",
            "opposite(",
        ] {
            assert!(!ends_a_list(w), "{w}");
        }
    }

    /// Every word of the grammar is in the list of the language's changes (a new word is a
    /// change of the language): written in backquotes at the start, `` `sow` `` or `` `ludic 1` ``.
    #[test]
    fn every_word_is_in_the_changes() {
        const CHANGES: &str = include_str!("../../../grammar/CHANGES.md");
        let missing: Vec<&str> = words()
            .iter()
            .copied()
            .filter(|w| {
                let quoted = format!("`{w}");
                !CHANGES.match_indices(&quoted).any(|(i, _)| {
                    let next = CHANGES[i + quoted.len()..].chars().next();
                    !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                })
            })
            .collect();
        assert!(missing.is_empty(), "not in grammar/CHANGES.md: {missing:?}");
    }

    #[test]
    fn words_are_read_from_the_grammar() {
        let words = |r| starting_words(r).unwrap_or("none");
        assert_eq!(words(Rule::let_stmt), "`let`");
        assert_eq!(words(Rule::between_block), "`between rounds`");
        assert_eq!(words(Rule::players_decl), "`players per side`");
        assert_eq!(words(Rule::forget_stmt), "`forget positions`");
        assert_eq!(words(Rule::again_stmt), "`again`");
        assert_eq!(words(Rule::positions_kw), "`positions`");
        assert_eq!(words(Rule::expr), "none");
        for w in [
            "`let`",
            "`another turn`",
            "`move`",
            "`carry`",
            "`forget positions`",
        ] {
            assert!(starts_a_statement(w), "{w}");
        }
        for w in ["`def`", "`else`", "`positions`", "a name"] {
            assert!(!starts_a_statement(w), "{w}");
        }
        let starts = statement_starts();
        for w in ["let", "move", "carry", "def", "turn", "between", "tally"] {
            assert!(starts.contains(&w), "{w} in {starts:?}");
        }
        // `forget`, `another` and `labels` do not end a list
        for w in ["forget", "another", "labels"] {
            assert!(!starts.contains(&w), "{w} in {starts:?}");
        }
    }
}
