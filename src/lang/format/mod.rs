//! `ludic fmt`: the one canonical layout of a `.game` file.
//!
//! The formatter reads a text twice: its own small lexer gives the tokens (words, numbers,
//! strings, signs and the comments the parser drops, [`lex`]), and the syntax tree gives the
//! structure: where each item, board item, statement, alternative, piece, chart row or label
//! begins and ends, which names are calls and which signs are binary operators
//! ([`spans`]). It knows no rule of the grammar by name, so that the grammar may change
//! under it: a construct the tree gives no span to keeps its author's line breaks.
//!
//! The layout ([`layout`]): 2 spaces per level of `{`; one element a line (a block of one
//! element that its author wrote on one line stays there if it fits); one space around
//! binary operators and after commas, none inside brackets; a blank line around top-level
//! items of several lines, an author's single blank line kept elsewhere (runs collapsed);
//! lines over 100 columns wrapped before `and`/`or`, or between the items of a list, with a
//! hanging indent; strings byte for byte; comments where they were (a trailing comment two
//! spaces after its code); no trailing blanks; a final newline.

mod layout;
mod lex;
mod spans;

use crate::diagnostic::Diagnostics;

/// The text of a `.game` file in the canonical layout, or the errors of a file that does not
/// parse. Formatting a formatted text changes nothing, and the result parses to the same
/// syntax tree, comments kept in order.
///
/// ```
/// let text = "sides South North\nturn {\n  if true {end game}}\n";
/// let formatted = ludic::format(text).expect("it parses");
/// assert_eq!(formatted, "sides South North\n\nturn {\n  if true { end game }\n}\n");
/// ```
pub fn format(text: &str) -> Result<String, Diagnostics> {
    let file = crate::parse::parse(text)?;
    let shape = spans::Shape::of(&file);
    let toks = lex::lex(text);
    let mut doc = layout::Doc::new(text, &toks, &shape);
    let lines = doc.settle();
    let mut lines: Vec<layout::Line> = lines.into_iter().flat_map(|l| doc.wrap(l)).collect();
    layout::space_items(&doc, &mut lines);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    if text.starts_with('\u{FEFF}') {
        out.push('\u{FEFF}');
    }
    for l in &lines {
        if l.blank {
            out.push('\n');
        }
        let body = doc.render(&l.toks);
        out.extend(std::iter::repeat_n(' ', doc.indent(l)));
        out.push_str(&body);
        out.push('\n');
    }
    Ok(out)
}

/// The syntax tree of a text without its spans (what formatting must not change), or the
/// errors of a text that does not parse. For the tests.
#[doc(hidden)]
pub fn syntax_tree(text: &str) -> Result<String, Diagnostics> {
    let file = crate::parse::parse(text)?;
    let tree = format!("{file:?}");
    // `Span { start: 12, end: 40 }` → `Span`
    let mut out = String::with_capacity(tree.len());
    let mut rest = tree.as_str();
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        out.push_str("Span");
        rest = &rest[at..];
        rest = rest.find(" }").map_or("", |e| &rest[e + 2..]);
    }
    out.push_str(rest);
    Ok(out)
}

/// The comments of a text, in order, as the formatter reads them. For the tests.
#[doc(hidden)]
pub fn comments(text: &str) -> Vec<String> {
    lex::lex(text)
        .iter()
        .filter(|t| t.kind == lex::Kind::Comment)
        .map(|t| text[t.start..t.end].to_string())
        .collect()
}
