//! What a word of the language means, for an editor's hover: read from the language reference
//! (grammar/README.md, which `ludic help language` prints) and the builtins' table, so that it
//! never drifts from them.

use crate::lang::builtins;

/// The language reference, as `ludic help language` prints it.
const REFERENCE: &str = include_str!("../../grammar/README.md");

/// A short doc of a word of the language (a keyword, a builtin name or function), in Markdown:
/// the row of the language reference's tables that says what it means, or else the first
/// passage of the reference that names it, with the section it is in. `None` for a word the
/// reference does not name.
///
/// ```
/// let doc = ludic::word_doc("count").unwrap();
/// assert!(doc.contains("count(s)"), "{doc}");
/// let doc = ludic::word_doc("while").unwrap();
/// assert!(doc.contains("a loop"), "{doc}");
/// assert!(ludic::word_doc("no_such_word").is_none());
/// ```
pub fn word_doc(word: &str) -> Option<String> {
    if word.is_empty() || !word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let builtin = builtins::find(word).map(|b| match b.form {
        builtins::Form::Name => "a builtin name".to_string(),
        builtins::Form::Call { min, max } if min == max => {
            format!("a builtin function of {min} argument{}", plural(min))
        }
        builtins::Form::Call { min, .. } => {
            format!(
                "a builtin function of {min} argument{} or more",
                plural(min)
            )
        }
    });
    // the word first in a code span, then anywhere in one
    let found = [true, false].into_iter().find_map(|first| {
        table_row(word, first)
            .or_else(|| passage(word, first))
            .or_else(|| example(word, first))
    });
    match (found, builtin) {
        (Some((text, section)), b) => {
            let kind = b.map(|b| format!(" ({b})")).unwrap_or_default();
            Some(format!("{text}\n\n*{section}*{kind}"))
        }
        (None, Some(b)) => {
            let help = builtins::find(word).map_or("", |b| b.help);
            Some(format!("`{word}`: {help} ({b})"))
        }
        (None, None) => None,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Whether `text` names `word` as a whole word at its start (`count(s)`, `end game`, `hole`).
fn starts_with_word(text: &str, word: &str) -> bool {
    text.strip_prefix(word)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// Whether `text` names `word` as a whole word (at its start only, if `first`).
fn names(text: &str, word: &str, first: bool) -> bool {
    if first {
        return starts_with_word(text, word);
    }
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// The code spans of a Markdown text (`` `a` `` … `` `b` ``).
fn code_spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// The lines of the reference outside its code blocks, each with its section's title; and
/// those inside them, apart.
fn lines() -> impl Iterator<Item = (&'static str, &'static str, bool)> {
    let mut section = "The ludic language";
    let mut in_code = false;
    REFERENCE.lines().map(move |line| {
        if line.starts_with("```") {
            in_code = !in_code;
            return (line, section, true);
        }
        if !in_code && line.starts_with('#') {
            section = line.trim_start_matches('#').trim();
        }
        (line, section, in_code)
    })
}

/// A table row that writes the word in one of its code spans: its first cell, the word first
/// in the span or among plain words (`hole store cell point void`), if `first`; any cell
/// otherwise. The row, as `cell — meaning`.
fn table_row(word: &str, first: bool) -> Option<(String, &'static str)> {
    lines().find_map(|(line, section, code)| {
        let cells: Vec<&str> = line.strip_prefix('|')?.split('|').collect();
        if code || cells.len() < 3 {
            return None;
        }
        // (the first cell names what the row is about; any cell, when looking anywhere)
        let written = if first { cells[0] } else { line };
        let names = code_spans(written).any(|c| {
            names(c, word, first)
                || (c
                    .split(' ')
                    .all(|w| w.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_'))
                    && c.split(' ').any(|w| w == word))
        });
        names.then(|| {
            (
                format!("{} — {}", cells[0].trim(), cells[1].trim()),
                section,
            )
        })
    })
}

/// The first paragraph (or list item) outside the code blocks with a code span that names the
/// word (first, if `first`), cut to a few sentences.
fn passage(word: &str, first: bool) -> Option<(String, &'static str)> {
    let all: Vec<_> = lines().collect();
    let at = all.iter().position(|(line, _, code)| {
        !code && !line.starts_with('|') && code_spans(line).any(|c| names(c, word, first))
    })?;
    let blank = |l: &str| l.trim().is_empty() || l.starts_with('|') || l.starts_with('#');
    let mut start = at;
    while start > 0 && !blank(all[start - 1].0) && !all[start].0.starts_with("- ") {
        start -= 1;
    }
    let mut end = at + 1;
    while end < all.len() && !blank(all[end].0) && !all[end].0.starts_with("- ") {
        end += 1;
    }
    let text: Vec<&str> = all[start..end].iter().map(|(l, _, _)| l.trim()).collect();
    Some((shorten(&text.join(" "), 600), all[at].1))
}

/// The first line of an example (a code block) that names the word (first, if `first`).
fn example(word: &str, first: bool) -> Option<(String, &'static str)> {
    lines().find_map(|(line, section, code)| {
        let t = line.trim();
        let t = t.split(" #").next().unwrap_or(t).trim_end();
        (code && !t.starts_with("```") && names(t, word, first))
            .then(|| (format!("```\n{t}\n```"), section))
    })
}

/// The text cut at a sentence's end before `max` bytes (or at `max`, with `…`).
fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut cut = max;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    match text[..cut].rfind(". ") {
        Some(i) if i > max / 3 => text[..=i].to_string(),
        _ => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_the_reference_writes_has_a_doc() {
        let (words, builtins) = crate::language_words();
        let mut missing = vec![];
        for w in words.iter().map(|(w, _)| *w).chain(builtins) {
            // (the grammar's words as it spells them: a fragment of a factored word is none)
            let written = lines().any(|(l, _, code)| {
                names(l, w, false) && (code || code_spans(l).any(|c| names(c, w, false)))
            });
            if written && word_doc(w).is_none() {
                missing.push(w);
            }
        }
        assert!(missing.is_empty(), "no doc for {missing:?}");
    }

    #[test]
    fn a_builtin_reads_its_row_and_a_keyword_its_passage() {
        let d = word_doc("track_site").unwrap();
        assert!(d.contains("p's track"), "{d}");
        assert!(d.contains("builtin function"), "{d}");
        let d = word_doc("sow").unwrap();
        assert!(d.contains("sow"), "{d}");
        assert!(word_doc("a b").is_none());
    }
}
