//! The `ludic` binary run with arguments and a standard input, for the tests of commands
//! (`#[path = "common/run.rs"] mod run;`).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `ludic ARGS` with `stdin` as its standard input, to the end.
pub fn ludic(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludic"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ludic");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    child.wait_with_output().expect("ludic ends")
}
