//! Games built on others: `game "Big board" from "base.game" { }` takes every
//! declaration of its base and replaces or adds the ones it writes itself.
//!
//! **Reading.** [`compose`] reads a file's base (a path relative to the file, or a built-in
//! game, through the reader the caller gives: the library reads no file itself), the base's
//! base, and so on, and returns one self-contained text: a first line `#composed N`, a line
//! `#part BYTES PATH` for each file (the deepest base first), then the files' texts one after
//! the other. Every command loads that text as it loads any game (`load_game`), records keep
//! it (a replay needs no file), and a span is an offset in it: [`SourceMap`] says which file
//! and line it is in, so that an error in the base names the base.
//!
//! **Merging** ([`merge`]): named declarations are replaced by name, in place (options,
//! variants, defs, actions, dice, tallies, labels, pieces), or added at the end; an
//! `option NAME = VALUE` without a range changes only the default of the base's option (its
//! range and description kept). The blocks that are one per game are replaced whole when the
//! derived file has one: `sides`, `board`, `start`, `turn`, `between rounds`, the `limit`s,
//! `players per side`. `require`s add up. The `game` block is the derived file's, with the
//! base's `origin`, `source` and `summary` where it gives none.

use super::composed::{HEADER, MAX_BASES, PART};
use crate::ast::GameFile;
use crate::diagnostic::{Diagnostic, Diagnostics, ErrorKind};

/// Where a derived file's base could not be read, or is the file itself: the diagnostics are
/// about `source`, the text of the file `path` that names the base.
#[derive(Clone, Debug)]
pub struct ComposeError {
    pub path: String,
    pub source: String,
    pub diagnostics: Diagnostics,
}

/// Reads a base: `(name as written, path of the file that names it)` to
/// `(a key that is the same for the same file, its label, its text)`.
pub type Reader<'r> = dyn FnMut(&str, &str) -> Result<(String, String, String), String> + 'r;

/// The text of a game file with its bases read and composed (see the module's doc), or the
/// text itself when it names no base. A syntax error is left for `load_game` to report (in
/// the file itself), unless it is in a base.
/// `key` is the file's own key, as the reader gives them (to find a circle).
pub fn compose(
    path: &str,
    key: &str,
    text: String,
    read: &mut Reader,
) -> Result<String, ComposeError> {
    let mut chain: Vec<(String, String)> = vec![];
    let mut keys: Vec<String> = vec![key.to_string()];
    let (mut label, mut text) = (path.to_string(), text);
    loop {
        // (a file that names no base, most of them, is not parsed twice)
        let parsed = if may_name_a_base(&text) {
            crate::parse::parse(&text)
        } else {
            Ok(GameFile::default())
        };
        let base = match parsed {
            Ok(f) => f.meta.first().and_then(|m| m.base.clone()),
            Err(d) if !chain.is_empty() => {
                return Err(ComposeError {
                    path: label,
                    source: text,
                    diagnostics: d,
                });
            }
            Err(_) => None,
        };
        let Some((name, span)) = base else {
            chain.push((label, text));
            break;
        };
        let fail = |label: String, text: String, message: String, hint: String| ComposeError {
            path: label,
            source: text,
            diagnostics: Diagnostics(vec![
                Diagnostic::new(ErrorKind::BaseGame { message }, span).with_hint(hint),
            ]),
        };
        if chain.len() + 1 > MAX_BASES {
            let message = format!("more than {MAX_BASES} games built one on another");
            return Err(fail(
                label,
                text,
                message,
                "build on the base directly".into(),
            ));
        }
        let (key, base_label, base_text) = match read(&name, &label) {
            Ok(x) => x,
            Err(e) => {
                let hint = "the base is a path relative to this file, or the name of a built-in game (`ludic list`)".to_string();
                return Err(fail(label, text, e, hint));
            }
        };
        if keys.contains(&key) {
            let mut names: Vec<&str> = chain.iter().map(|(l, _)| l.as_str()).collect();
            names.push(&label);
            names.push(&base_label);
            let message = format!(
                "the games are built on each other in a circle: {}",
                names.join(" -> ")
            );
            return Err(fail(
                label,
                text,
                message,
                "one of them must be a whole game".into(),
            ));
        }
        keys.push(key);
        chain.push((label, text));
        (label, text) = (base_label, base_text);
    }
    if chain.len() == 1 {
        return Ok(chain.pop().map(|(_, t)| t).unwrap_or_default());
    }
    chain.reverse();
    let mut out = format!("{HEADER}{}\n", chain.len());
    for (label, text) in &chain {
        let label: String = label
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        out.push_str(&format!("{PART}{} {label}\n", text.len()));
    }
    for (_, text) in &chain {
        out.push_str(text);
    }
    Ok(out)
}

/// Whether `game "…" from` may be written in a text (a quick look, before a parse says).
fn may_name_a_base(text: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    text.match_indices("game").any(|(i, _)| {
        if i > 0 && word(b[i - 1]) {
            return false;
        }
        let rest = text[i + 4..].trim_start();
        let Some(rest) = rest.strip_prefix('"') else {
            return false;
        };
        let rest = if let Some(r) = rest.strip_prefix("\"\"") {
            r.split_once("\"\"\"").map_or("", |x| x.1)
        } else {
            rest.split_once('"').map_or("", |x| x.1)
        };
        rest.trim_start().starts_with("from")
    })
}
