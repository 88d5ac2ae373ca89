//! Lines typed at the terminal or read from a script.

use ludic::limits::MAX_LINE_BYTES;
use std::io::{self, BufRead, Read};

/// One line read from standard input.
pub(crate) enum Input {
    Line(String),
    /// longer than `MAX_LINE_BYTES`: the rest of it was skipped
    TooLong,
    /// not UTF-8 text
    NotText,
    End,
}

/// Reads the next line, keeping at most `MAX_LINE_BYTES` of it in memory.
pub(crate) fn next_input(r: &mut impl BufRead) -> io::Result<Input> {
    let mut buf = vec![];
    let n = r
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(Input::End);
    }
    if buf.len() > MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
        r.skip_until(b'\n')?;
        return Ok(Input::TooLong);
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(match String::from_utf8(buf) {
        Ok(line) => Input::Line(line),
        Err(_) => Input::NotText,
    })
}
