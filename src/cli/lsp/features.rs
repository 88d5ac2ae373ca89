//! What the server answers, from the library's outline, diagnostics and docs: each request's
//! answer as a JSON value.

use super::text::{Lines, word_at};
use lsp_types as lsp;
use lsp_types::Uri;
use ludic::{Outline, Symbol, SymbolKind};
use serde_json::Value;
use std::sync::OnceLock;

/// What is found in a document once per version: its diagnostics and its outline. A game
/// built on others (`game "…" from "base.game"`) is checked composed with its bases, as
/// `ludic validate` checks it; what is found in the document is placed in it, what is found in
/// a base is said at the document's start (with where in the base).
pub struct Analysis {
    pub validation: ludic::Validation,
    /// `None` when the text does not parse
    pub outline: Option<Outline>,
    /// the composed text, if the document is built on others
    composed: Option<String>,
    /// why the document's bases could not be read
    compose_error: Option<String>,
    /// the document's path (its label in a composed text)
    path: String,
}

impl Analysis {
    pub fn new(path: &str, text: &str) -> Self {
        let (source, compose_error) = match ludic::gamefile::compose_file(path, text) {
            Ok(c) if c != text => (c, None),
            Ok(_) => (text.to_string(), None),
            Err(e) => (text.to_string(), Some(e)),
        };
        let validation = ludic::validate(&source);
        let mut outline = ludic::outline(&source).ok();
        let composed = (source.len() != text.len()).then_some(source);
        if let (Some(c), Some(o)) = (&composed, &mut outline) {
            // (the document is the composed text's last part)
            keep_the_document(o, c.len() - text.len(), text.len());
        }
        Analysis {
            validation,
            outline,
            composed,
            compose_error,
            path: path.to_string(),
        }
    }

    /// A span of the analysed text in the document, or where in a base it is.
    fn place(&self, span: std::ops::Range<usize>) -> Result<std::ops::Range<usize>, String> {
        let Some(c) = &self.composed else {
            return Ok(span);
        };
        let map = ludic::diagnostic::SourceMap::new(&self.path, c);
        let (file, _, local) = map.locate(ludic::diagnostic::Span {
            start: span.start,
            end: span.end,
        });
        if file == self.path {
            Ok(local.start..local.end)
        } else {
            Err(map.place(span.start))
        }
    }
}

/// The outline of a composed text made the document's: the symbols declared in it (at `start`,
/// `len` bytes), their spans and uses within it.
fn keep_the_document(o: &mut Outline, start: usize, len: usize) {
    let inside = |r: &std::ops::Range<usize>| r.start >= start && r.end <= start + len;
    let shift = |r: &std::ops::Range<usize>| r.start - start..r.end - start;
    o.symbols
        .retain(|s| inside(&s.name_span) && inside(&s.span));
    for s in &mut o.symbols {
        s.name_span = shift(&s.name_span);
        s.span = shift(&s.span);
        s.references = s
            .references
            .iter()
            .filter(|r| inside(r))
            .map(shift)
            .collect();
        s.scope = s
            .scope
            .as_ref()
            .map(|r| r.start.saturating_sub(start)..r.end.saturating_sub(start));
    }
}

/// A request the server answers, with its parameters.
pub enum Ask {
    Hover(lsp::HoverParams),
    Definition(lsp::GotoDefinitionParams),
    References(lsp::ReferenceParams),
    Completion(lsp::CompletionParams),
    Symbols(lsp::DocumentSymbolParams),
    PrepareRename(lsp::TextDocumentPositionParams),
    Rename(lsp::RenameParams),
    Format(lsp::DocumentFormattingParams),
}

impl Ask {
    /// The request of a method, its parameters read; `None` for a method the server does not
    /// answer.
    pub fn of(method: &str, params: Value) -> Option<Result<Ask, serde_json::Error>> {
        use serde_json::from_value as read;
        Some(match method {
            "textDocument/hover" => read(params).map(Ask::Hover),
            "textDocument/definition" => read(params).map(Ask::Definition),
            "textDocument/references" => read(params).map(Ask::References),
            "textDocument/completion" => read(params).map(Ask::Completion),
            "textDocument/documentSymbol" => read(params).map(Ask::Symbols),
            "textDocument/prepareRename" => read(params).map(Ask::PrepareRename),
            "textDocument/rename" => read(params).map(Ask::Rename),
            "textDocument/formatting" => read(params).map(Ask::Format),
            _ => return None,
        })
    }

    pub fn uri(&self) -> &Uri {
        match self {
            Ask::Hover(p) => &p.text_document_position_params.text_document.uri,
            Ask::Definition(p) => &p.text_document_position_params.text_document.uri,
            Ask::References(p) => &p.text_document_position.text_document.uri,
            Ask::Completion(p) => &p.text_document_position.text_document.uri,
            Ask::Symbols(p) => &p.text_document.uri,
            Ask::PrepareRename(p) => &p.text_document.uri,
            Ask::Rename(p) => &p.text_document_position.text_document.uri,
            Ask::Format(p) => &p.text_document.uri,
        }
    }
}

fn json(v: impl serde::Serialize) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

/// The answer to a request on a document.
pub fn answer(
    ask: Ask,
    uri: &Uri,
    text: &str,
    a: &Analysis,
    last_outline: Option<&Outline>,
) -> Result<Value, String> {
    let lines = Lines::new(text);
    let location = |r: std::ops::Range<usize>| lsp::Location::new(uri.clone(), lines.range(r));
    let symbol_at = |p: lsp::Position| {
        let at = lines.offset(p);
        a.outline.as_ref().and_then(|o| o.symbol_at(at))
    };
    match ask {
        Ask::Hover(p) => json(hover(
            text,
            &lines,
            a,
            p.text_document_position_params.position,
        )),
        Ask::Definition(p) => {
            let s = symbol_at(p.text_document_position_params.position);
            json(s.map(|s| lsp::GotoDefinitionResponse::Scalar(location(s.name_span.clone()))))
        }
        Ask::References(p) => {
            let Some(s) = symbol_at(p.text_document_position.position) else {
                return Ok(Value::Null);
            };
            let mut all: Vec<_> = s.references.iter().cloned().map(location).collect();
            if p.context.include_declaration {
                all.insert(0, location(s.name_span.clone()));
            }
            json(all)
        }
        Ask::Completion(p) => {
            let at = lines.offset(p.text_document_position.position);
            json(completion(text, at, a.outline.as_ref().or(last_outline)))
        }
        Ask::Symbols(_) => json(a.outline.as_ref().map(|o| symbols(o, &lines))),
        Ask::PrepareRename(p) => {
            let at = lines.offset(p.position);
            let s = symbol_at(p.position).filter(|s| renamable(s.kind));
            json(s.and(word_at(text, at)).map(|(_, r)| lines.range(r)))
        }
        Ask::Rename(p) => {
            let s = symbol_at(p.text_document_position.position)
                .ok_or("there is no name to rename here")?;
            rename(s, &p.new_name, a, &lines, uri)
        }
        // `ludic fmt`'s layout, as one edit of the whole text; none for a text that does not
        // parse (its errors are the diagnostics already shown)
        Ask::Format(_) => match ludic::format(text) {
            Ok(formatted) if formatted != text => {
                json([lsp::TextEdit::new(lines.range(0..text.len()), formatted)])
            }
            Ok(_) => json(Vec::<lsp::TextEdit>::new()),
            Err(_) => Ok(Value::Null),
        },
    }
}

/// The errors and warnings of `ludic validate`, each with its hint and notes as related
/// information.
pub fn diagnostics(uri: &Uri, text: &str, a: Option<&Analysis>) -> Vec<lsp::Diagnostic> {
    let Some(a) = a else { return vec![] };
    let lines = Lines::new(text);
    let v = &a.validation;
    let mut out = vec![];
    let mut add = |d: &ludic::diagnostic::Diagnostic, prefix: &str| {
        let (range, suffix) = match a.place(d.span.start..d.span.end) {
            Ok(r) => (r, String::new()),
            Err(place) => (0..0, format!(" (in the base game, {place})")),
        };
        let mut related = vec![];
        if let Some(h) = &d.hint {
            related.push(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(uri.clone(), lines.range(range.clone())),
                message: format!("hint: {h}"),
            });
        }
        for n in d.notes.iter() {
            let (at, message) = match a.place(n.span.start..n.span.end) {
                Ok(r) => (r, n.text.clone()),
                Err(place) => (0..0, format!("{} ({place})", n.text)),
            };
            related.push(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(uri.clone(), lines.range(at)),
                message,
            });
        }
        out.push(lsp::Diagnostic {
            range: lines.range(range),
            severity: Some(if d.is_error() {
                lsp::DiagnosticSeverity::ERROR
            } else {
                lsp::DiagnosticSeverity::WARNING
            }),
            code: Some(lsp::NumberOrString::String(d.code().into())),
            source: Some("ludic".into()),
            message: format!("{prefix}{d}{suffix}"),
            related_information: (!related.is_empty()).then_some(related),
            ..Default::default()
        });
    };
    let mut option_errors: Vec<String> = a.compose_error.iter().cloned().collect();
    let mut load_error = |e: &ludic::LoadError, prefix: &str| match e {
        ludic::LoadError::File(ds) => ds.0.iter().for_each(|d| add(d, prefix)),
        ludic::LoadError::Options(msgs) => {
            option_errors.extend(msgs.iter().map(|m| format!("{prefix}{m}")));
        }
    };
    if let Err(e) = &v.game {
        load_error(e, "");
    }
    for (name, e) in &v.variants {
        load_error(e, &format!("variant \"{name}\": "));
    }
    for w in &v.warnings.0 {
        add(w, "");
    }
    for message in option_errors {
        out.push(lsp::Diagnostic {
            severity: Some(lsp::DiagnosticSeverity::ERROR),
            source: Some("ludic".into()),
            message,
            ..Default::default()
        });
    }
    out
}

/// The hover of a position: a name's declaration and what it is (a site's coordinates, a
/// region's sites, an option's domain and doc), or a word of the language's doc.
fn hover(text: &str, lines: &Lines, a: &Analysis, p: lsp::Position) -> Option<lsp::Hover> {
    let at = lines.offset(p);
    let (word, range) = word_at(text, at)?;
    let symbol = a.outline.as_ref().and_then(|o| o.symbol_at(at));
    let mut parts = vec![];
    if let Some(s) = symbol {
        parts.push(describe(s, text));
    }
    if let Ok(game) = &a.validation.game
        && let Some(id) = game.site_named(word)
        && let Some(site) = game.site(id)
    {
        let owner = site.owner.map(|o| format!(", owner {}", game.side_name(o)));
        let owner = owner.unwrap_or_default();
        parts.push(format!(
            "site `{word}` at ({}, {}), kind {}{owner}",
            site.x,
            site.y,
            site.kind.name()
        ));
    }
    if symbol.is_none() && parts.is_empty() {
        parts.push(ludic::word_doc(word)?);
    }
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range: Some(lines.range(range)),
    })
}

/// A symbol's hover: its declaration (a def's or an action's whole, its first lines), what it
/// is, its doc.
fn describe(s: &Symbol, text: &str) -> String {
    let code = match s.kind {
        SymbolKind::Def | SymbolKind::Action => {
            let whole = text.get(s.span.clone()).unwrap_or("");
            let mut shown: Vec<&str> = whole.lines().take(12).collect();
            if whole.lines().count() > 12 {
                shown.push("…");
            }
            shown.join("\n")
        }
        _ => s.detail.clone(),
    };
    let mut out = format!("```ludic\n{code}\n```\n{}", s.kind.word());
    if let Some(d) = &s.doc {
        out.push_str(&format!(": {d}"));
    }
    out
}

/// The kinds a rename changes everywhere (the uses of these are found exactly).
fn renamable(k: SymbolKind) -> bool {
    matches!(
        k,
        SymbolKind::Def
            | SymbolKind::Region
            | SymbolKind::Action
            | SymbolKind::Tally
            | SymbolKind::Let
            | SymbolKind::Parameter
            | SymbolKind::Variable
    )
}

fn rename(s: &Symbol, new: &str, a: &Analysis, lines: &Lines, uri: &Uri) -> Result<Value, String> {
    if !renamable(s.kind) {
        return Err(format!("a {} cannot be renamed here", s.kind.word()));
    }
    let valid = new.len() <= 64
        && new.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && new.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("`{new}` is not a name"));
    }
    let (words, builtins) = ludic::language_words();
    if words.iter().any(|(w, reserved)| *reserved && *w == new) || builtins.contains(&new) {
        return Err(format!("`{new}` is a word of the language"));
    }
    let taken = a.outline.as_ref().is_some_and(|o| {
        o.symbols
            .iter()
            .any(|o| o.name == new && o.scope.is_none() && o.kind != SymbolKind::Label)
    });
    if taken && s.scope.is_none() {
        return Err(format!("`{new}` is already declared"));
    }
    let edits: Vec<lsp::TextEdit> = std::iter::once(&s.name_span)
        .chain(&s.references)
        .map(|r| lsp::TextEdit::new(lines.range(r.clone()), new.to_string()))
        .collect();
    json(lsp::WorkspaceEdit::new(
        [(uri.clone(), edits)].into_iter().collect(),
    ))
}

/// The words that begin a declaration (at the top of a file), and those that may be written
/// inside a block: the words that begin a statement (both read from the grammar by
/// `ludic::starting_words`), and the other words the reference says something of (`where`,
/// `count`). Found once, on the first completion (a few milliseconds).
fn context_words() -> &'static (Vec<&'static str>, Vec<&'static str>) {
    static WORDS: OnceLock<(Vec<&'static str>, Vec<&'static str>)> = OnceLock::new();
    WORDS.get_or_init(|| {
        let (declarations, statements) = ludic::starting_words();
        let (words, _) = ludic::language_words();
        let mut top = vec![];
        let mut block = vec![];
        for (w, _) in words {
            if declarations.contains(&w) {
                top.push(w);
            } else if statements.contains(&w) || ludic::word_doc(w).is_some() {
                block.push(w);
            }
        }
        (top, block)
    })
}

/// Whether a byte offset is inside braces (a block), comments and strings skipped.
fn in_block(text: &str, at: usize) -> bool {
    let mut depth = 0i32;
    let mut in_string = false;
    let mut comment = false;
    for c in text[..at.min(text.len())].chars() {
        match c {
            '\n' => comment = false,
            _ if comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '#' => comment = true,
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

fn completion(text: &str, at: usize, outline: Option<&Outline>) -> Vec<lsp::CompletionItem> {
    let item = |label: &str, kind, detail: Option<String>| lsp::CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..Default::default()
    };
    let (top, block) = context_words();
    if !in_block(text, at) {
        return top
            .iter()
            .map(|w| item(w, lsp::CompletionItemKind::KEYWORD, None))
            .collect();
    }
    let mut out: Vec<_> = block
        .iter()
        .map(|w| item(w, lsp::CompletionItemKind::KEYWORD, None))
        .collect();
    let (_, builtins) = ludic::language_words();
    out.extend(
        builtins
            .iter()
            .map(|b| item(b, lsp::CompletionItemKind::FUNCTION, Some("builtin".into()))),
    );
    let mut seen = std::collections::HashSet::new();
    for s in outline.into_iter().flat_map(|o| o.visible_at(at)) {
        let kind = match s.kind {
            SymbolKind::Label | SymbolKind::Ring | SymbolKind::Track => continue,
            SymbolKind::Def => lsp::CompletionItemKind::FUNCTION,
            SymbolKind::Action => lsp::CompletionItemKind::METHOD,
            SymbolKind::Option => lsp::CompletionItemKind::PROPERTY,
            SymbolKind::Tally => lsp::CompletionItemKind::FIELD,
            SymbolKind::Parameter | SymbolKind::Let | SymbolKind::Variable => {
                lsp::CompletionItemKind::VARIABLE
            }
            _ => lsp::CompletionItemKind::CONSTANT,
        };
        if seen.insert(s.name.as_str()) {
            out.push(item(&s.name, kind, Some(s.detail.clone())));
        }
    }
    out
}

fn symbol_kind(k: SymbolKind) -> lsp::SymbolKind {
    use lsp::SymbolKind as L;
    match k {
        SymbolKind::Def => L::FUNCTION,
        SymbolKind::Action => L::METHOD,
        SymbolKind::Option => L::PROPERTY,
        SymbolKind::Tally => L::FIELD,
        SymbolKind::Side | SymbolKind::Face | SymbolKind::Direction => L::ENUM_MEMBER,
        SymbolKind::Piece => L::CLASS,
        SymbolKind::Dice => L::EVENT,
        SymbolKind::Site => L::CONSTANT,
        SymbolKind::Region | SymbolKind::Track | SymbolKind::Ring => L::ARRAY,
        SymbolKind::Area => L::NAMESPACE,
        SymbolKind::Label => L::STRING,
        SymbolKind::Parameter | SymbolKind::Let | SymbolKind::Variable => L::VARIABLE,
    }
}

/// The outline: the file's declarations, a def's or an action's parameters inside it.
#[allow(deprecated)] // (`DocumentSymbol::deprecated`, a field the protocol keeps)
fn symbols(o: &Outline, lines: &Lines) -> Vec<lsp::DocumentSymbol> {
    let make = |s: &Symbol, children: Option<Vec<lsp::DocumentSymbol>>| {
        let span = s.span.start.min(s.name_span.start)..s.span.end.max(s.name_span.end);
        lsp::DocumentSymbol {
            name: s.name.clone(),
            detail: Some(s.detail.clone()),
            kind: symbol_kind(s.kind),
            tags: None,
            deprecated: None,
            range: lines.range(span),
            selection_range: lines.range(s.name_span.clone()),
            children,
        }
    };
    o.symbols
        .iter()
        .filter(|s| s.scope.is_none())
        .map(|s| {
            let params: Vec<_> = o
                .symbols
                .iter()
                .filter(|p| p.kind == SymbolKind::Parameter && p.span == s.span)
                .map(|p| make(p, None))
                .collect();
            make(s, (!params.is_empty()).then_some(params))
        })
        .collect()
}
