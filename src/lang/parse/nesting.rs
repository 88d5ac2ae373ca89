//! The nesting pre-scan: runs on the text before the parser. The parser recurses at each
//! bracket and at each nested `if`, `else`, `exists`, `forall`, `some`, `minimum`, `maximum`,
//! `total` and `through`, so those are counted first, cheaply, and a file nested deeper than
//! [`MAX_NESTING`] never reaches it (grammar/README.md, "Limits").

use crate::ast::Span;
use crate::diagnostic::{Diagnostic, ErrorKind};
use crate::limits::{MAX_NESTING, skip_comment_or_string};
use std::sync::OnceLock;

/// Words after which the parser goes one level deeper without a bracket.
const OPENERS: [&str; 10] = [
    "if", "then", "else", "exists", "forall", "some", "minimum", "maximum", "total", "through",
];

/// The words that start a statement, a declaration or a part of one that comes after any
/// expression before it has ended: the levels opened by [`OPENERS`] since the enclosing bracket
/// are closed there, when the word comes right after the end of an operand (a number, a string,
/// a closing bracket, or a name that is no word of the grammar). A word of the grammar may be a
/// name too (`let row = …`), so after one the levels are kept: a count that is too high is
/// safe, one too low is not. Read from the grammar: the words that begin a statement or a
/// declaration, but for those that also begin an expression (`if`).
fn resets() -> &'static [&'static str] {
    static RESETS: OnceLock<Vec<&'static str>> = OnceLock::new();
    RESETS.get_or_init(|| {
        let mut words = super::grammar::statement_starts().to_vec();
        words.retain(|w| !OPENERS.contains(w));
        words
    })
}

/// Whether an opener opens a level here: `if`, `then`, `else` and `through` always do; the
/// others (`total`, `some`…) only when a variable may follow (`total token x where …`), not
/// when they are names (`total(p)`, `let some = 1`). `rest` is the text after the word.
fn opens(word: &str, rest: &[u8]) -> bool {
    if matches!(word, "if" | "then" | "else" | "through") {
        return true;
    }
    match rest.iter().find(|c| !c.is_ascii_whitespace()) {
        Some(c) => c.is_ascii_alphabetic() || *c == b'_' || *c == b'#',
        None => true,
    }
}

fn too_deep(start: usize, end: usize) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::TooDeep {
            what: "brackets, blocks and nested expressions",
            limit: MAX_NESTING,
        },
        Span { start, end },
    )
    .with_hint("split the rule with `def`, `let` or `action`")
}

/// Checks, before parsing, that brackets and the nesting words the parser recurses on are not
/// nested more than [`MAX_NESTING`] levels deep; the error is at the first bracket or word past
/// the limit. Comments and strings are skipped. This counts at least as many levels as the
/// parser will recurse (a run of `if … then … else` expressions in one statement counts as
/// nested), so that nothing nested deeper reaches the parser.
pub(crate) fn prescan(source: &str) -> Result<(), Diagnostic> {
    let resets = resets();
    let b = source.as_bytes();
    // One entry per open bracket (the first for the top level): the words of `OPENERS` seen at
    // that level since it opened or since the last statement ended.
    let mut open: Vec<usize> = vec![0];
    let mut depth = 0usize; // brackets + every entry of `open`
    let mut after_close = false;
    // an `if` or `else` of a statement, whose level is its block's `{` (not counted twice)
    let mut statement_head = false;
    // the last thing read ends an operand (`x`, `2`, `"…"`, `)`): a word after it that starts
    // a statement cannot continue the expression
    let mut after_operand = false;
    let grammar_words = super::grammar::words();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' => {
                i = skip_comment_or_string(b, i);
                continue;
            }
            b'"' => {
                i = skip_comment_or_string(b, i);
                after_close = false;
                after_operand = true;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &source[start..i];
            let top = open.last_mut().expect("the top level");
            // A block closed and no `else` follows: the statement it ended is over.
            if (after_close && word != "else") || (after_operand && resets.contains(&word)) {
                depth -= *top;
                *top = 0;
                statement_head = false;
            }
            after_close = false;
            after_operand = grammar_words.binary_search(&word).is_err();
            match word {
                "if" | "else" => statement_head = true,
                "then" => statement_head = false,
                _ => {}
            }
            if OPENERS.contains(&word) && opens(word, &b[i..]) {
                *top += 1;
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(start, i));
                }
            }
            continue;
        }
        after_close = false;
        after_operand = matches!(c, b')' | b']' | b'}');
        match c {
            b'(' | b'[' | b'{' => {
                let top = open.last_mut().expect("the top level");
                if c == b'{' && statement_head && *top > 0 {
                    *top -= 1;
                    depth -= 1;
                }
                statement_head = false;
                open.push(0);
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(i, i + 1));
                }
            }
            b')' | b']' | b'}' if open.len() > 1 => {
                let levels = open.pop().expect("an open bracket");
                depth -= levels + 1;
                after_close = c == b'}';
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_error(src: &str) -> Option<usize> {
        prescan(src).err().map(|d| d.span.start)
    }

    #[test]
    fn brackets_past_the_limit_are_refused_at_the_first_one_too_many() {
        let ok = format!("def d = {}1{}", "(".repeat(200), ")".repeat(200));
        assert_eq!(depth_error(&ok), None);
        let deep = format!("def d = {}1{}", "(".repeat(300), ")".repeat(300));
        assert_eq!(depth_error(&deep), Some(8 + MAX_NESTING));
        // brackets in comments and strings do not count
        let quiet = format!("# {}\ngame \"{}\" {{ }}", "(".repeat(999), "[".repeat(999));
        assert_eq!(depth_error(&quiet), None);
    }

    #[test]
    fn chains_of_nesting_words_count_and_statements_close_them() {
        let chain = format!("turn {{ {} }}", "if true { } else ".repeat(300) + "{ }");
        assert!(depth_error(&chain).is_some());
        let nested = |n: usize| format!("turn {{ {}{} }}", "if true { ".repeat(n), "} ".repeat(n));
        assert_eq!(depth_error(&nested(MAX_NESTING - 1)), None);
        assert!(depth_error(&nested(MAX_NESTING)).is_some());
        let expr = format!("def d = {} 1", "if true then 1 else ".repeat(300));
        assert!(depth_error(&expr).is_some());
        // words of the grammar used as names: a statement's word after them keeps the count
        // (it may be a name in the expression), which can only count too many
        let soft = format!(
            "def d = {} 1",
            "some x from row toward d where ".repeat(300)
        );
        assert!(depth_error(&soft).is_some());
        let soft = format!("def d = {} 1", "if row then row else ".repeat(300));
        assert!(depth_error(&soft).is_some());
        // `total(…)`, a call, opens no level
        let calls = format!("def d = {} 1", "total(x) + some + ".repeat(300));
        assert_eq!(depth_error(&calls), None);
        let flat = format!("turn {{ {} }}", "if true { end turn }\n".repeat(1000));
        assert_eq!(depth_error(&flat), None);
        let lets = format!(
            "turn {{ {} }}",
            "let x = if true then 1 else 2\n".repeat(1000)
        );
        assert_eq!(depth_error(&lets), None);
    }
}
