//! The messages on standard input and output: a header (`Content-Length: N`), a blank line,
//! N bytes of JSON. Read here rather than by lsp-server's threads, so that a message that is
//! not JSON gets a "parse error" answer and the server goes on (its reader would stop), and a
//! length past [`MAX_MESSAGE`] is refused before anything is allocated for it.

use lsp_server::Message;
use std::io::{self, BufRead, Read, Write};

/// The longest message read, in bytes (a game file is at most a few hundred kilobytes).
pub const MAX_MESSAGE: usize = 64 << 20;

/// What came in.
pub enum Incoming {
    Message(Message),
    /// a message whose body is not a JSON-RPC message: answered with an error, then skipped
    Malformed(String),
    /// the end of the input, or a header that cannot be read past (the stream is lost)
    End(Option<String>),
}

/// Reads the next message.
pub fn read(r: &mut impl BufRead) -> Incoming {
    let mut size = None;
    let mut line = String::new();
    loop {
        line.clear();
        match r.by_ref().take(4096).read_line(&mut line) {
            Ok(0) => return Incoming::End(None),
            Ok(_) => {}
            Err(e) => return Incoming::End(Some(format!("cannot read a header: {e}"))),
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if size.is_some() {
                break;
            }
            continue; // (blank lines between messages are skipped)
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            match value.trim().parse::<usize>() {
                Ok(n) if n <= MAX_MESSAGE => size = Some(n),
                _ => return Incoming::End(Some(format!("bad Content-Length: {value:?}"))),
            }
        }
    }
    let mut body = vec![0; size.unwrap_or(0)];
    if let Err(e) = r.read_exact(&mut body) {
        return Incoming::End(Some(format!("cannot read a message: {e}")));
    }
    match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Incoming::Message(m),
        Err(e) => Incoming::Malformed(e.to_string()),
    }
}

/// Writes a message.
pub fn write(w: &mut impl Write, m: Message) -> io::Result<()> {
    m.write(w)
}

/// Writes the answer to a message that could not be read: a JSON-RPC parse error, with no id.
pub fn write_parse_error(w: &mut impl Write, why: &str) -> io::Result<()> {
    let text = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("not a JSON-RPC message: {why}")},
    })
    .to_string();
    write!(w, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    w.flush()
}
