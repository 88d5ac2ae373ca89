//! `ludic fmt [--check] [FILES|-]`: the canonical layout of `.game` files (`ludic::format`).

use super::{FAILED, OK, USAGE};
use ludic::diagnostic::render;
use ludic::limits::MAX_SOURCE_BYTES;
use std::io::{Read, Write};
use std::path::Path;

// Arguments of `ludic fmt`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  ludic fmt my.game                 (rewrites the file in the canonical layout)\n  ludic fmt games/*.game\n  ludic fmt --check games/*.game    (changes nothing; a diff of what would change)\n  cat my.game | ludic fmt -         (standard input to standard output)\n\nThe layout: 2 spaces a level of `{`, one statement (item, alternative, piece, label) a line,\none space around operators, lines over 100 columns wrapped, comments kept where they were.\n\nExit codes: 0 formatted (or already so), 1 with --check: some file would change,\n2 a file that does not parse (its errors as `ludic validate` prints them), cannot be read or\nwritten, or no file given."
)]
pub struct FmtArgs {
    /// Change nothing: print a diff of what would change, exit 1 if anything would
    #[arg(long)]
    pub check: bool,
    /// The .game files to format in place; `-` reads standard input and writes standard output
    pub files: Vec<String>,
}

/// `ludic fmt`
pub fn fmt(args: &FmtArgs) -> u8 {
    if args.files.is_empty() {
        to_stderr!(
            "error: no file given: `ludic fmt FILE...` formats files in place, `ludic fmt -` standard input\nhint: ludic fmt --check games/*.game"
        );
        return USAGE;
    }
    let mut out = std::io::stdout().lock();
    let mut code = OK;
    for path in &args.files {
        let c = match one(&mut out, path, args.check) {
            Ok(c) => c,
            Err(e) => {
                to_stderr!("error: {e}");
                USAGE
            }
        };
        code = code.max(c);
    }
    super::finish(Ok(code))
}

/// Formats one file (or standard input); the exit code, or what went wrong.
fn one(out: &mut impl Write, path: &str, check: bool) -> Result<u8, String> {
    let text = if path == "-" {
        let mut bytes = vec![];
        std::io::stdin()
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        if bytes.len() as u64 > MAX_SOURCE_BYTES {
            return Err(format!(
                "standard input is larger than {MAX_SOURCE_BYTES} bytes"
            ));
        }
        String::from_utf8(bytes).map_err(|_| "standard input is not UTF-8 text".to_string())?
    } else {
        super::read_text_file(path, MAX_SOURCE_BYTES, "a .game file")?
    };
    let label = if path == "-" { "<stdin>" } else { path };
    let formatted = match ludic::format(&text) {
        Ok(f) => f,
        Err(d) => {
            let _ = write!(std::io::stderr(), "{}", render(label, &text, &d));
            return Ok(USAGE);
        }
    };
    let write_err = |e: std::io::Error| format!("cannot write the output: {e}");
    if check {
        if formatted == text {
            return Ok(OK);
        }
        let diff = similar::TextDiff::from_lines(&text, &formatted);
        let shown = diff
            .unified_diff()
            .context_radius(3)
            .header(label, label)
            .to_string();
        out.write_all(shown.as_bytes()).map_err(write_err)?;
        return Ok(FAILED);
    }
    if path == "-" {
        out.write_all(formatted.as_bytes()).map_err(write_err)?;
    } else if formatted != text {
        replace(Path::new(path), &formatted).map_err(|e| format!("cannot write `{path}`: {e}"))?;
    }
    Ok(OK)
}

/// Replaces a file's text: written beside it first, then renamed over it, so that a crash
/// leaves the old file or the new one, never half of one. The file keeps its permissions.
fn replace(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "game".to_string(), |n| n.to_string_lossy().to_string());
    let tmp = dir.join(format!(".{name}.fmt-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
