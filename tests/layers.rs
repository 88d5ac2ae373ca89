//! The library's layers hold: the engine imports nothing of the language (nor of the front
//! ends), the modules of the engine import each other without a circle (the order is written
//! down in src/engine/mod.rs), so do the language's (the lowering never imports the
//! checker), and only the terminal front end (src/cli, a module of the binary, and
//! src/main.rs) uses the terminal crates; nothing of the library imports the command line.
//!
//! The imports are read from the text of every file under src/: each `use` statement (its
//! braces expanded) and each path written in the code (`crate::…`, `super::…`, `self::…`, or a
//! child module's name followed by `::`), resolved to the module it names. A method called on a
//! value of another module's type is not an import and is not seen.
//!
//! The agents and the studies import from the rest of the crate only what the crate makes
//! public (its root re-exports and its public modules), as a program outside it would.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A source file: its module path (`["engine", "compile", "query"]`; `[]` for lib.rs), whether
/// it is the file of a folder (`mod.rs`), and its text without comments.
struct File {
    path: PathBuf,
    module: Vec<String>,
    text: String,
}

fn files() -> Vec<File> {
    let mut out = vec![];
    for path in common::files_under("src", Some("rs")) {
        if path == Path::new("src/main.rs") {
            continue;
        }
        let rel = path.strip_prefix("src").expect("under src/");
        let mut module: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        if module.last().is_some_and(|m| m == "mod" || m == "lib") {
            module.pop();
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        out.push(File {
            path,
            module,
            text: strip_comments(&text),
        });
    }
    out
}

/// The text without its `//` comments (doc comments included) and string literals.
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_str = false;
        let mut prev = ' ';
        let mut kept = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_str {
                if c == '"' && prev != '\\' {
                    in_str = false;
                }
                prev = if prev == '\\' && c == '\\' { ' ' } else { c };
                continue;
            }
            if c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\'' {
                in_str = true;
                prev = ' ';
                continue;
            }
            kept.push(c);
            prev = c;
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// The paths of a `use` tree (`super::{a, b::{c, d}}` gives `super::a`, `super::b::c`, …).
fn expand_use(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let leaf = tree.split(" as ").next().unwrap_or(tree);
        return vec![leaf.chars().filter(|c| !c.is_whitespace()).collect()];
    };
    let prefix: String = tree[..open]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = vec![];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(expand_use)
        .map(|p| match p.as_str() {
            "self" => prefix.trim_end_matches("::").to_string(),
            _ => format!("{prefix}{p}"),
        })
        .collect()
}

/// Every path a file writes: its `use` trees expanded, and the paths in its code.
fn paths(text: &str) -> Vec<String> {
    let mut out = vec![];
    // `use` statements (`pub use`, `pub(crate) use` too)
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(i) = text[at..].find("use ") {
        let i = at + i;
        at = i + 4;
        let before = if i == 0 { b' ' } else { bytes[i - 1] };
        if before.is_ascii_alphanumeric() || before == b'_' {
            continue;
        }
        if let Some(end) = text[at..].find(';') {
            out.extend(expand_use(&text[at..at + end]));
        }
    }
    // paths in the code: maximal runs of identifier characters and `::`
    let mut run = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' || c == ':' {
            run.push(c);
        } else {
            if run.contains("::") && !run.starts_with(':') {
                out.push(run.trim_end_matches(':').to_string());
            }
            run.clear();
        }
    }
    out
}

/// The module of the crate a path names (the longest known module it starts with), for a path
/// written in module `from`; `None` for a path outside the crate.
fn resolve(
    path: &str,
    from: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<(Vec<String>, Vec<String>)> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let first = *segs.first()?;
    let mut base: Vec<String> = match first {
        "crate" => vec![],
        "self" | "super" => from.to_vec(),
        name => {
            let mut child = from.to_vec();
            child.push(name.to_string());
            if !modules.contains(&child) {
                return None;
            }
            from.to_vec()
        }
    };
    let mut rest = &segs[..];
    if matches!(first, "crate" | "self") {
        rest = &segs[1..];
    }
    while let Some(&"super") = rest.first() {
        base.pop()?;
        rest = &rest[1..];
    }
    let full: Vec<String> = base
        .iter()
        .cloned()
        .chain(rest.iter().map(|s| s.to_string()))
        .collect();
    let mut module = base;
    for s in rest {
        let mut next = module.clone();
        next.push(s.to_string());
        if !modules.contains(&next) {
            break;
        }
        module = next;
    }
    Some((module, full))
}

/// An import: the file, its module, the module it names and the full path it wrote.
struct Import {
    path: PathBuf,
    from: Vec<String>,
    to: Vec<String>,
    full: Vec<String>,
}

/// The imports of every file (a file naming its own module is left out).
fn imports() -> Vec<Import> {
    let files = files();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let mut out = vec![];
    for f in &files {
        for p in paths(&f.text) {
            if let Some((to, full)) = resolve(&p, &f.module, &modules)
                && to != f.module
            {
                out.push(Import {
                    path: f.path.clone(),
                    from: f.module.clone(),
                    to,
                    full,
                });
            }
        }
    }
    out
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".to_string()
    } else {
        m.join("::")
    }
}

/// The graph of imports between the modules `node` names (`None` leaves an import out; one
/// within a module is left out too), and for each edge the first import that makes it.
#[allow(clippy::type_complexity)]
fn import_graph(
    node: impl Fn(&Import) -> Option<(String, String)>,
) -> (
    BTreeMap<String, BTreeSet<String>>,
    BTreeMap<(String, String), String>,
) {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut why: BTreeMap<(String, String), String> = BTreeMap::new();
    for i in imports() {
        let Some((f, t)) = node(&i).filter(|(f, t)| f != t) else {
            continue;
        };
        graph.entry(t.clone()).or_default();
        graph.entry(f.clone()).or_default().insert(t.clone());
        why.entry((f, t))
            .or_insert_with(|| format!("{} names {}", i.path.display(), i.full.join("::")));
    }
    (graph, why)
}

/// Fails with the circle, if the graph has one, and why each step is an import.
fn assert_no_circle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    why: &BTreeMap<(String, String), String>,
    what: &str,
) {
    if let Some(c) = find_cycle(graph) {
        let steps: Vec<String> = c
            .windows(2)
            .map(|w| {
                format!(
                    "  {} -> {}  ({})",
                    w[0],
                    w[1],
                    why[&(w[0].clone(), w[1].clone())]
                )
            })
            .collect();
        panic!(
            "a circle of imports in {what}: {}\n{}",
            c.join(" -> "),
            steps.join("\n")
        );
    }
}

/// A circle in a graph, as the list of its nodes (the first repeated at the end).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0: not seen, 1: on the path, 2: done
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|p| p == m).unwrap_or(0);
                    let mut cycle = path[at..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0
            && let Some(c) = visit(n, graph, &mut state, &mut vec![])
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_reader_finds_imports() {
    assert_eq!(
        expand_use("super::{a, b::{c, d as e}, self}"),
        ["super::a", "super::b::c", "super::b::d", "super"]
    );
    let all = imports();
    let has = |from: &str, to: &str| {
        all.iter()
            .any(|i| name(&i.from) == from && name(&i.to) == to)
    };
    // a `use super::…`, a `use crate::…`, a path in the code, a child named in its parent
    assert!(has("engine::run", "engine::compile"));
    assert!(has("engine::compile::query", "ir::eval"));
    assert!(has("engine::compile::tables", "engine::history"));
    assert!(has("engine", "engine::state"));
    assert!(has("lang::optimize", "ir::eval"));
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    g.remove("b");
    assert_eq!(find_cycle(&g), None);
}

#[test]
fn the_engine_imports_nothing_of_the_language_nor_of_the_front_ends() {
    let above = [
        // the language, also under the names lib.rs gives its modules
        "lang",
        "check",
        "optimize",
        "parse",
        "ast",
        "derive",
        "diagnostic",
        "lower",
        "chart",
        "load_game",
        "Settings",
        "LoadError",
        // the front ends
        "cli",
        "render",
        "study",
        "agents",
    ];
    let mut found = vec![];
    for Import {
        path, from, full, ..
    } in imports()
    {
        if from.first().is_some_and(|m| m == "engine")
            && full.first().is_some_and(|m| above.contains(&m.as_str()))
        {
            found.push(format!("{}: crate::{}", path.display(), full.join("::")));
        }
    }
    found.dedup();
    assert!(
        found.is_empty(),
        "the engine imports the language or a front end:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_circle_of_imports_in_the_engine() {
    let in_engine = |m: &[String]| m.first().is_some_and(|m| m == "engine");
    let (graph, why) = import_graph(|i| {
        (in_engine(&i.from) && in_engine(&i.to)).then(|| (name(&i.from), name(&i.to)))
    });
    assert!(
        graph.len() > 10,
        "the engine's modules were read: {graph:?}"
    );
    assert_no_circle(&graph, &why, "the engine");
}

/// The language's modules import each other without a circle: the checker builds the symbol
/// table and calls the lowering, the lowering reads the table and never the checker. Modules
/// are taken at the language's first level (`lang::lower::calls` is `lang::lower`); the names
/// lib.rs re-exports (`crate::check`) are the language's.
#[test]
fn no_circle_of_imports_in_the_language() {
    let exported = [
        "ast",
        "check",
        "derive",
        "diagnostic",
        "parse",
        "chart",
        "optimize",
    ];
    let top = |m: &[String], full: &[String]| -> Option<String> {
        match m {
            [lang, child, ..] if lang == "lang" => Some(format!("lang::{child}")),
            [] => full
                .first()
                .filter(|f| exported.contains(&f.as_str()))
                .map(|f| format!("lang::{f}")),
            _ => None,
        }
    };
    let (graph, why) = import_graph(|i| Some((top(&i.from, &[])?, top(&i.to, &i.full)?)));
    assert!(
        graph
            .get("lang::check")
            .is_some_and(|to| to.contains("lang::lower")),
        "the language's modules were read: {graph:?}"
    );
    assert_no_circle(&graph, &why, "the language");
}

/// The names the crate makes public at its root: `pub mod NAME`, `pub fn NAME` and the last
/// segment of every `pub use` path.
fn public_names() -> BTreeSet<String> {
    let lib = strip_comments(&std::fs::read_to_string("src/lib.rs").expect("src/lib.rs"));
    let mut out = BTreeSet::new();
    for l in lib.lines() {
        let l = l.trim();
        for item in ["pub mod ", "pub fn "] {
            if let Some(rest) = l.strip_prefix(item) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.insert(name);
            }
        }
    }
    let mut at = 0;
    while let Some(i) = lib[at..].find("pub use ") {
        let start = at + i + "pub use ".len();
        let Some(end) = lib[start..].find(';') else {
            break;
        };
        for p in expand_use(&lib[start..start + end]) {
            if let Some(last) = p.rsplit("::").next() {
                out.insert(last.to_string());
            }
        }
        at = start + end;
    }
    out
}

#[test]
fn agents_and_studies_use_only_what_the_crate_makes_public() {
    let public = public_names();
    for name in ["Game", "State", "agents", "study", "load"] {
        assert!(public.contains(name), "lib.rs was read: {public:?}");
    }
    let mut found = vec![];
    for Import {
        path, from, full, ..
    } in imports()
    {
        let Some(top) = from.first().filter(|m| *m == "agents" || *m == "study") else {
            continue;
        };
        // `use super::*` in a test module inside the file reads as the crate's root: not an item
        let Some(first) = full.first().filter(|f| *f != "*") else {
            continue;
        };
        if first != top && !public.contains(first) {
            found.push(format!("{}: crate::{}", path.display(), full.join("::")));
        }
    }
    found.dedup();
    assert!(
        found.is_empty(),
        "the agents or the studies import what the crate does not make public (use the public \
         API: the root's re-exports and public modules):\n{}",
        found.join("\n")
    );
}

/// The module paths a file declares (`mod NAME;`, `pub mod NAME;`, `pub(crate) mod NAME;`).
fn declared_modules(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l
                .strip_prefix("pub ")
                .or_else(|| l.strip_prefix("pub(crate) "));
            let rest = rest.unwrap_or(l).strip_prefix("mod ")?;
            Some(rest.trim_end_matches(';').trim().to_string())
        })
        .collect()
}

#[test]
fn the_command_line_is_in_the_binary_and_nothing_of_the_library_imports_it() {
    let lib = strip_comments(&std::fs::read_to_string("src/lib.rs").expect("src/lib.rs"));
    assert!(
        !declared_modules(&lib).iter().any(|m| m == "cli"),
        "src/lib.rs declares the module cli: the command line is a module of the binary"
    );
    let main = strip_comments(&std::fs::read_to_string("src/main.rs").expect("src/main.rs"));
    assert!(
        declared_modules(&main).iter().any(|m| m == "cli"),
        "src/main.rs declares the module cli"
    );
    let mut found = vec![];
    for Import {
        path,
        from,
        to,
        full,
        ..
    } in imports()
    {
        if from.first().is_none_or(|m| m != "cli") && to.first().is_some_and(|m| m == "cli") {
            found.push(format!("{}: crate::{}", path.display(), full.join("::")));
        }
    }
    for f in files() {
        if f.module.first().is_some_and(|m| m == "cli") {
            continue;
        }
        for p in paths(&f.text) {
            if p.starts_with("ludic::cli") {
                found.push(format!("{}: {p}", f.path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the library imports the command line:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_terminal_front_end_uses_the_terminal_crates() {
    let crates = [
        "rustyline",
        "indicatif",
        "ctrlc",
        "signal_hook",
        "clap",
        "anstream",
        // `ludic serve`'s web server
        "axum",
        "tokio",
        "futures_util",
        // `ludic lsp`'s protocol
        "lsp_server",
        "lsp_types",
    ];
    let mut found = vec![];
    for f in files() {
        if f.module.first().is_some_and(|m| m == "cli") {
            continue;
        }
        for p in paths(&f.text) {
            let first = p.split("::").next().unwrap_or("");
            if crates.contains(&first) {
                found.push(format!("{}: {p}", f.path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a terminal crate used outside src/cli:\n{}",
        found.join("\n")
    );
}
