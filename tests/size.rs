//! Sizes stay small enough to read: no file in src/ over 800 lines, no function in src/ over
//! 150 lines (issue 23; a long dispatch is a `match` whose arms call functions by concern).
//!
//! Functions are found in the text: each `fn NAME` item, its body from the first `{` after the
//! signature to the matching `}`, with strings, characters and comments skipped, so that a brace
//! inside them does not count. A function's length is from the line of `fn` to the line of its
//! closing brace, both included; a function inside another counts in both.

mod common;

use std::path::{Path, PathBuf};

/// The longest file in src/, in lines.
const MAX_FILE_LINES: usize = 800;
/// The longest function in src/, in lines.
const MAX_FN_LINES: usize = 150;

/// The functions still over [`MAX_FN_LINES`] (file, name, length in lines), being split.
/// This list must only shrink, down to empty: the test fails when a function not listed here
/// is too long, and also when a listed one is gone, shorter or longer, so that the list stays
/// exact (the failure prints the list as it should read).
const KNOWN_LONG: &[(&str, &str, usize)] = &[];

/// A function found in a text: the line of its `fn` (from 1), its name and its length in lines.
#[derive(Debug, PartialEq)]
struct Func {
    line: usize,
    name: String,
    lines: usize,
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// The text with every comment, string and character literal blanked out (newlines kept, so
/// that lines and byte offsets do not move). A lifetime (`'a`) is kept.
fn blank_literals(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for x in &mut out[from..to.min(b.len())] {
            if *x != b'\n' {
                *x = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && is_ident(b[i - 1]);
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |e| i + e);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // block comments nest
                let (mut depth, mut j) = (0usize, i);
                while j < b.len() {
                    if b[j..].starts_with(b"/*") {
                        depth += 1;
                        j += 2;
                    } else if b[j..].starts_with(b"*/") {
                        depth -= 1;
                        j += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            // raw strings: r"…", r#"…"#, br"…"
            b'r' if !prev_ident
                || (i > 0 && b[i - 1] == b'b' && (i < 2 || !is_ident(b[i - 2]))) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let body = i + 2 + hashes;
                let end = b[body..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map_or(b.len(), |e| body + e + close.len());
                blank(&mut out, i, end);
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i, j + 1);
                i = j + 1;
            }
            b'\'' => {
                // a character ('x', '\n', '\u{7b}', 'é') or a lifetime ('a, 'static)
                let end = if b.get(i + 1) == Some(&b'\\') {
                    b[i + 2..]
                        .iter()
                        .position(|&c| c == b'\'')
                        .map(|e| i + 2 + e + 1)
                } else {
                    let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 2 + len)
                };
                match end {
                    Some(end) => {
                        blank(&mut out, i, end);
                        i = end;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The functions of a Rust text that have a body (a trait's method without one is skipped).
fn functions(text: &str) -> Vec<Func> {
    let b = blank_literals(text);
    let line_of = |at: usize| 1 + b[..at].iter().filter(|&&c| c == b'\n').count();
    let mut found = vec![];
    let mut i = 0;
    while let Some(at) = b[i..]
        .windows(3)
        .position(|w| w[..2] == *b"fn" && w[2].is_ascii_whitespace())
    {
        let at = i + at;
        i = at + 2;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let start = at
            + 2
            + b[at + 2..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
        let name_len = b[start..].iter().take_while(|&&c| is_ident(c)).count();
        if name_len == 0 {
            continue;
        }
        let name = String::from_utf8_lossy(&b[start..start + name_len]).into_owned();
        // the body's `{`, or the `;` of a declaration, outside the signature's () and []
        let mut depth = 0i32;
        let mut open = None;
        for (j, &c) in b.iter().enumerate().skip(start + name_len) {
            match c {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'{' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                b';' if depth == 0 => break,
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut braces = 0usize;
        let mut close = None;
        for (j, &c) in b.iter().enumerate().skip(open) {
            match c {
                b'{' => braces += 1,
                b'}' => {
                    braces -= 1;
                    if braces == 0 {
                        close = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { continue };
        let line = line_of(at);
        found.push(Func {
            line,
            name,
            lines: line_of(close) - line + 1,
        });
    }
    found
}

/// Every `.rs` file under src/, sorted.
fn sources() -> Vec<PathBuf> {
    common::files_under("src", Some("rs"))
}

fn shown(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// What is wrong with the long functions found (file, function) against the list of those
/// known to be long: one not listed, one listed whose length changed, one listed and gone.
fn against_known(long: &[(String, Func)], known: &[(&str, &str, usize)]) -> Vec<String> {
    let mut problems = vec![];
    for (file, f) in long {
        match known.iter().find(|k| k.0 == file && k.1 == f.name) {
            None => problems.push(format!(
                "{file}:{}: `{}` is {} lines (at most {MAX_FN_LINES}: split it into functions by concern)",
                f.line, f.name, f.lines
            )),
            Some(k) if f.lines > k.2 => problems.push(format!(
                "{file}:{}: `{}` grew to {} lines, KNOWN_LONG says {} (a listed function may only shrink)",
                f.line, f.name, f.lines, k.2
            )),
            Some(k) if f.lines < k.2 => problems.push(format!(
                "{file}:{}: `{}` is {} lines, KNOWN_LONG says {} (write its new length down: the list is kept exact)",
                f.line, f.name, f.lines, k.2
            )),
            Some(_) => {}
        }
    }
    for k in known {
        if !long.iter().any(|(file, f)| file == k.0 && f.name == k.1) {
            problems.push(format!(
                "{}: `{}` is in KNOWN_LONG but no longer over {MAX_FN_LINES} lines (remove it from the list)",
                k.0, k.1
            ));
        }
    }
    problems
}

#[test]
fn no_file_over_800_lines() {
    let files = sources();
    assert!(
        files.len() > 10,
        "src/ and its folders were read ({} files)",
        files.len()
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let n = std::fs::read_to_string(p)
                .expect("a source file")
                .lines()
                .count();
            (n > MAX_FILE_LINES).then(|| format!("{}: {n} lines", shown(p)))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines (split them by concern):\n  {}",
        long.join("\n  ")
    );
}

#[test]
fn no_function_over_150_lines() {
    let mut long = vec![];
    let mut count = 0;
    for p in sources() {
        let text = std::fs::read_to_string(&p).expect("a source file");
        for f in functions(&text) {
            count += 1;
            if f.lines > MAX_FN_LINES {
                long.push((shown(&p), f));
            }
        }
    }
    assert!(count > 500, "the functions of src/ were found ({count})");
    let problems = against_known(&long, KNOWN_LONG);
    let list: Vec<String> = long
        .iter()
        .map(|(file, f)| format!("    ({file:?}, {:?}, {}),", f.name, f.lines))
        .collect();
    assert!(
        problems.is_empty(),
        "{}\nKNOWN_LONG as it should read (it may only shrink):\n{}",
        problems.join("\n"),
        list.join("\n")
    );
}

#[test]
fn a_function_is_measured_from_fn_to_its_closing_brace() {
    let text = "fn a() {\n    1;\n}\n\npub(crate) fn b<'i>(x: [u8; 2]) -> u8\nwhere\n    u8: Copy,\n{\n    x[0]\n}\n";
    assert_eq!(
        functions(text),
        vec![
            Func {
                line: 1,
                name: "a".into(),
                lines: 3
            },
            Func {
                line: 5,
                name: "b".into(),
                lines: 6
            },
        ]
    );
}

#[test]
fn braces_in_strings_chars_and_comments_do_not_count() {
    let text = r###"fn f() {
    let s = "}}} \" }";
    let r = r#"} "} "#;
    let c = '}';
    let e = '\'';
    let u = '\u{7d}';
    // }
    /* } /* } */ } */
    let l: &'static str = "{";
}
fn g() {}
"###;
    assert_eq!(
        functions(text),
        vec![
            Func {
                line: 1,
                name: "f".into(),
                lines: 10
            },
            Func {
                line: 11,
                name: "g".into(),
                lines: 1
            },
        ]
    );
}

#[test]
fn nested_functions_declarations_and_names_with_fn_are_told_apart() {
    let text = "trait T {\n    fn decl(&self);\n    fn with_body(&self) {\n        fn inner() {}\n        let fn_x = 1;\n        let p: fn(u8) -> u8 = |x| x;\n    }\n}\n// fn commented() {}\nlet s = \"fn in_string() {}\";\n";
    assert_eq!(
        functions(text),
        vec![
            Func {
                line: 3,
                name: "with_body".into(),
                lines: 5
            },
            Func {
                line: 4,
                name: "inner".into(),
                lines: 1
            },
        ]
    );
}

#[test]
fn lifetimes_are_not_characters() {
    // `'a, 'b` read as characters would hide the `{` between them
    let text = "fn f<'a, 'b>(x: &'a u8, y: &'b u8) -> &'a u8 {\n    x\n}\n";
    assert_eq!(
        functions(text),
        vec![Func {
            line: 1,
            name: "f".into(),
            lines: 3
        }]
    );
}

#[test]
fn the_list_of_long_functions_is_kept_exact() {
    let f = |name: &str, lines| {
        (
            "src/a.rs".to_string(),
            Func {
                line: 1,
                name: name.into(),
                lines,
            },
        )
    };
    let known = [("src/a.rs", "f", 200)];
    assert!(against_known(&[f("f", 200)], &known).is_empty());
    let said = |long: &[(String, Func)], known: &[(&str, &str, usize)]| {
        against_known(long, known).join("\n")
    };
    assert!(said(&[f("f", 200), f("g", 151)], &known).contains("`g` is 151 lines (at most 150"));
    assert!(said(&[f("f", 190)], &known).contains("`f` is 190 lines, KNOWN_LONG says 200"));
    assert!(said(&[f("f", 210)], &known).contains("`f` grew to 210 lines"));
    assert!(said(&[], &known).contains("`f` is in KNOWN_LONG but no longer over 150 lines"));
}
