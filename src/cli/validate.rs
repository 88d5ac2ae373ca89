//! `ludic validate FILE...`: every error of each file, with its position.

use super::{FAILED, Format, OK};
use ludic::LoadError;
use ludic::diagnostic::{Diagnostics, render};
use serde_json::json;
use std::io::Write;

// Arguments of `ludic validate`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  ludic validate games/*.game\n  ludic validate --format json my.game\n\nExit codes: 0 all valid, 1 some file invalid or unreadable, 2 usage error."
)]
pub struct ValidateArgs {
    /// The files to check
    #[arg(required = true)]
    pub files: Vec<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `ludic validate FILE...`
pub fn validate(args: &ValidateArgs) -> u8 {
    super::finish(validate_to(
        &mut std::io::stdout().lock(),
        &args.files,
        args.format,
    ))
}

fn validate_to(w: &mut impl Write, files: &[String], format: Format) -> std::io::Result<u8> {
    let mut all_ok = true;
    let mut report = vec![];
    for path in files {
        let source = match super::read_game_file(path) {
            Ok(s) => s,
            Err(e) => {
                all_ok = false;
                match format {
                    Format::Text => to_stderr!("error: {e}"),
                    Format::Json => report
                        .push(json!({"file": path, "valid": false, "error": e, "diagnostics": []})),
                }
                continue;
            }
        };
        let Checked {
            ok,
            title,
            changes,
            diags,
            other,
        } = check(&source);
        all_ok &= ok;
        match format {
            Format::Text => {
                if ok {
                    if !diags.is_empty() {
                        // warnings only: the file is valid
                        let _ = write!(std::io::stderr(), "{}", render(path, &source, &diags));
                    }
                    writeln!(w, "ok: {path} ({title}{changes})")?;
                } else {
                    if !diags.is_empty() {
                        let _ = write!(std::io::stderr(), "{}", render(path, &source, &diags));
                    }
                    for o in &other {
                        to_stderr!("error: {path}: {o}");
                    }
                }
            }
            Format::Json => report.push(json!({
                "file": path,
                "valid": ok,
                "title": title,
                "diagnostics": ludic::diagnostic::to_json(path, &source, &diags),
                "errors": other,
            })),
        }
    }
    if format == Format::Json {
        super::write_json(w, &report)?;
    }
    Ok(if all_ok { OK } else { FAILED })
}

/// What `validate` found in one text.
pub(crate) struct Checked {
    pub ok: bool,
    pub title: String,
    /// what a game built on another changes of it (`; based on X, changes: ...`)
    pub changes: String,
    /// errors and warnings, sorted
    pub diags: Diagnostics,
    /// errors of the options (no position)
    pub other: Vec<String>,
}

/// Checks a game's text as `validate` does (every variant must load too); also `ludic
/// serve`'s `/api/check`.
pub(crate) fn check(source: &str) -> Checked {
    let mut diags = Diagnostics::default();
    let mut other = vec![];
    let mut title = String::new();
    let mut changes = String::new();
    let ludic::Validation {
        game,
        warnings,
        variants,
    } = ludic::validate(source);
    match game {
        Ok(g) => {
            title = g.title().to_string();
            if let Some(base) = g.about().based_on {
                // what a game built on another changes of it
                changes = format!(
                    "; based on {base}, changes: {}",
                    g.about().changes.join(", ")
                );
            }
            // Every variant must load too.
            for (name, e) in variants {
                match e {
                    LoadError::File(d) => diags.0.extend(d.0),
                    LoadError::Options(e) => {
                        other.extend(e.into_iter().map(|m| format!("variant `{name}`: {m}")))
                    }
                }
            }
        }
        Err(LoadError::File(d)) => diags = d,
        Err(LoadError::Options(e)) => other = e,
    }
    let ok = diags.is_empty() && other.is_empty();
    diags.0.extend(warnings.0);
    let diags = diags.sorted();
    Checked {
        ok,
        title,
        changes,
        diags,
        other,
    }
}

/// The JSON report of one text, as `validate --format json` writes it for each file.
pub(crate) fn check_json(path: &str, source: &str) -> serde_json::Value {
    let c = check(source);
    json!({
        "file": path,
        "valid": c.ok,
        "title": c.title,
        "diagnostics": ludic::diagnostic::to_json(path, source, &c.diags),
        "errors": c.other,
    })
}
