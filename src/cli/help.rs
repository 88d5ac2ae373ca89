//! `ludic help language`: the reference of the `.game` language, built into the binary so that
//! an installed `ludic` has it (grammar/README.md of the sources).

use super::OK;
use std::io::{self, Write};

/// The language reference: grammar/README.md.
pub const LANGUAGE: &str = include_str!("../../grammar/README.md");

/// `ludic help language`
pub fn help_language() -> u8 {
    super::finish(
        io::stdout()
            .lock()
            .write_all(LANGUAGE.as_bytes())
            .map(|()| OK),
    )
}

/// Ends a command that printed its output itself (a help text): a failure to write it is
/// reported as every command's is (exit 1, a closed pipe quietly).
pub fn finish_output(result: io::Result<()>) -> u8 {
    super::finish(result.map(|()| OK))
}
