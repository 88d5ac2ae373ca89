//! `ludic lsp`: a language server for `.game` files, on standard input and output (the
//! Language Server Protocol, its messages read and written with rust-analyzer's `lsp-server`
//! and `lsp-types`). Everything it knows of a file comes from the library: `ludic::validate`
//! (the diagnostics), `ludic::outline` (the symbols and their uses), `ludic::word_doc` (what a
//! word of the language means).
//!
//! One thread, one message at a time: each request is answered from the text of its document
//! as last sent (full sync), its analysis made once per change.

mod features;
mod text;
mod transport;

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CompletionOptions, HoverProviderCapability, InitializeResult, OneOf, RenameOptions,
    ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use std::collections::HashMap;
use std::io::{self, Write};
use transport::Incoming;

// `ludic lsp`: no arguments (the help says how to set up an editor).
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The server speaks the Language Server Protocol on standard input and output; an editor starts it.\nIt gives the errors of `ludic validate` as you type, hover docs, go to definition, references,\ncompletion, the outline of the file and renaming.\n\nNeovim (0.8 or later), in init.lua:\n  vim.filetype.add({ extension = { game = 'ludic' } })\n  vim.api.nvim_create_autocmd('FileType', { pattern = 'ludic', callback = function()\n    vim.lsp.start({ name = 'ludic', cmd = { 'ludic', 'lsp' } })\n  end })\n\nHelix, in languages.toml:\n  [language-server.ludic]\n  command = \"ludic\"\n  args = [\"lsp\"]\n  [[language]]\n  name = \"ludic\"\n  scope = \"source.ludic\"\n  file-types = [\"game\"]\n  language-servers = [\"ludic\"]\n\nVS Code: a generic LSP client extension, with the command `ludic lsp` for files `*.game`.\n\nExit codes: 0 after `shutdown` and `exit`, 1 otherwise (the input closed first, or broke)."
)]
pub struct LspArgs {}

/// A document the client has opened: its text, and what was found in it.
struct Doc {
    text: String,
    version: i32,
    analysis: Option<features::Analysis>,
    /// the outline of the last version that parsed (completion while a line is half typed)
    last_outline: Option<ludic::Outline>,
}

struct Server {
    docs: HashMap<Uri, Doc>,
    initialized: bool,
    shutdown: bool,
    out: io::Stdout,
}

/// Runs the server until `exit`, or until its input ends.
pub fn lsp(_: &LspArgs) -> u8 {
    let mut server = Server {
        docs: HashMap::new(),
        initialized: false,
        shutdown: false,
        out: io::stdout(),
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    loop {
        match transport::read(&mut input) {
            Incoming::Message(m) => match server.handle(m) {
                Ok(Some(code)) => return code,
                Ok(None) => {}
                Err(e) => {
                    to_stderr!("ludic lsp: cannot write: {e}");
                    return super::FAILED;
                }
            },
            Incoming::Malformed(why) => {
                to_stderr!("ludic lsp: a message that is not JSON-RPC: {why}");
                if transport::write_parse_error(&mut server.out.lock(), &why).is_err() {
                    return super::FAILED;
                }
            }
            Incoming::End(why) => {
                if let Some(why) = why {
                    to_stderr!("ludic lsp: {why}");
                }
                return super::FAILED;
            }
        }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        ..Default::default()
    }
}

impl Server {
    fn send(&mut self, m: impl Into<Message>) -> io::Result<()> {
        let mut out = self.out.lock();
        transport::write(&mut out, m.into())?;
        out.flush()
    }

    /// Handles a message; `Some(code)` when the server is to stop.
    fn handle(&mut self, m: Message) -> io::Result<Option<u8>> {
        match m {
            Message::Request(r) => self.request(r)?,
            Message::Notification(n) if n.method == "exit" => {
                return Ok(Some(if self.shutdown {
                    super::OK
                } else {
                    super::FAILED
                }));
            }
            Message::Notification(n) => self.notification(n)?,
            Message::Response(_) => {} // (the server asks nothing of the client)
        }
        Ok(None)
    }

    fn request(&mut self, r: Request) -> io::Result<()> {
        let id = r.id.clone();
        if r.method == "initialize" {
            self.initialized = true;
            let result = InitializeResult {
                capabilities: capabilities(),
                server_info: Some(ServerInfo {
                    name: "ludic".into(),
                    version: Some(env!("CARGO_PKG_VERSION").into()),
                }),
            };
            return self.send(ok(id, result));
        }
        if !self.initialized {
            let e = Response::new_err(
                id,
                ErrorCode::ServerNotInitialized as i32,
                "not initialized".into(),
            );
            return self.send(e);
        }
        if r.method == "shutdown" {
            self.shutdown = true;
            return self.send(ok(id, ()));
        }
        let answer = match self.answer(&r) {
            Ok(v) => Response {
                id,
                result: Some(v),
                error: None,
            },
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(answer)
    }

    /// The answer to a request, or its error.
    fn answer(&mut self, r: &Request) -> Result<serde_json::Value, (ErrorCode, String)> {
        use features::Ask;
        let ask = Ask::of(&r.method, r.params.clone())
            .ok_or((
                ErrorCode::MethodNotFound,
                format!("no method `{}`", r.method),
            ))?
            .map_err(|e| (ErrorCode::InvalidParams, e.to_string()))?;
        let uri = ask.uri().clone();
        let Some(doc) = self.docs.get_mut(&uri) else {
            return Err((
                ErrorCode::InvalidParams,
                format!("{} is not open", uri.as_str()),
            ));
        };
        let analysis = doc
            .analysis
            .get_or_insert_with(|| features::Analysis::new(&file_path(&uri), &doc.text));
        if let Some(o) = &analysis.outline {
            doc.last_outline = Some(o.clone());
        }
        features::answer(ask, &uri, &doc.text, analysis, doc.last_outline.as_ref())
            .map_err(|m| (ErrorCode::RequestFailed, m))
    }

    fn notification(&mut self, n: Notification) -> io::Result<()> {
        use lsp_types::DidOpenTextDocumentParams as Open;
        use lsp_types::{
            DidChangeTextDocumentParams as Change, DidCloseTextDocumentParams as Close,
        };
        let uri = match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<Open>(n.params) else {
                    return Ok(());
                };
                let d = p.text_document;
                self.open(d.uri.clone(), d.text, d.version);
                d.uri
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<Change>(n.params) else {
                    return Ok(());
                };
                // (full sync: the last change is the whole text)
                let Some(c) = p.content_changes.into_iter().last() else {
                    return Ok(());
                };
                let last = self
                    .docs
                    .remove(&p.text_document.uri)
                    .and_then(|d| d.last_outline);
                self.open(p.text_document.uri.clone(), c.text, p.text_document.version);
                if let Some(d) = self.docs.get_mut(&p.text_document.uri) {
                    d.last_outline = d.last_outline.take().or(last);
                }
                p.text_document.uri
            }
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<Close>(n.params) else {
                    return Ok(());
                };
                self.docs.remove(&p.text_document.uri);
                let params =
                    lsp_types::PublishDiagnosticsParams::new(p.text_document.uri, vec![], None);
                return self.send(Notification::new(
                    "textDocument/publishDiagnostics".into(),
                    params,
                ));
            }
            _ => return Ok(()),
        };
        let Some(doc) = self.docs.get(&uri) else {
            return Ok(());
        };
        let diagnostics = features::diagnostics(&uri, &doc.text, doc.analysis.as_ref());
        let params = lsp_types::PublishDiagnosticsParams::new(uri, diagnostics, Some(doc.version));
        self.send(Notification::new(
            "textDocument/publishDiagnostics".into(),
            params,
        ))
    }

    fn open(&mut self, uri: Uri, text: String, version: i32) {
        let analysis = features::Analysis::new(&file_path(&uri), &text);
        let last_outline = analysis.outline.clone();
        self.docs.insert(
            uri,
            Doc {
                text,
                version,
                analysis: Some(analysis),
                last_outline,
            },
        );
    }
}

/// The path of a `file:` URI (its `%XX` escapes decoded), where the bases of a game built on
/// others are looked for; another URI as it is (then only built-in games are bases).
fn file_path(uri: &Uri) -> String {
    let Some(path) = uri.as_str().strip_prefix("file://") else {
        return uri.as_str().to_string();
    };
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn ok(id: RequestId, result: impl serde::Serialize) -> Response {
    Response {
        id,
        result: Some(serde_json::to_value(result).unwrap_or(serde_json::Value::Null)),
        error: None,
    }
}
