//! Writing a file whole (a temporary file beside it, created exclusively, then renamed over
//! it), so that a reader never sees half a file and a failure leaves the old one; what a file
//! that is not a regular one is. Unix only (file types). Which paths a command may write is the
//! command line's business (`src/cli/output.rs`).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a file of this type is, when it is not a regular file.
pub fn not_regular(m: &fs::Metadata) -> Option<&'static str> {
    let t = m.file_type();
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a directory")
    } else if t.is_fifo() {
        Some("a FIFO (a named pipe)")
    } else if t.is_char_device() {
        Some("a character device")
    } else if t.is_block_device() {
        Some("a block device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        Some("not a regular file")
    }
}

/// The file a path writes to: a symbolic link is followed to the file it points to (which is
/// replaced; the link itself stays).
fn target_of(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// The temporary files made by this process (their names differ by this counter).
static MADE: AtomicU64 = AtomicU64::new(0);

/// The most bytes of the target's name kept in a temporary file's name (a name may have 255).
const NAME_KEPT: usize = 100;

/// Creates a new temporary file in `dir`, exclusively (`O_EXCL`: never an existing file, never
/// through a symbolic link planted under its name); a name taken is passed over.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let mut cut = name.len().min(NAME_KEPT);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let name = &name[..cut];
    let pid = std::process::id();
    for _ in 0..1000 {
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary file",
    ))
}

/// Writes a file whole: the bytes go into a temporary file beside it (created exclusively),
/// which is then renamed over it, so that a reader (a browser reloading a picture, `replay`
/// reading a record) sees the old file or the new one, never half of one, and a failure (a
/// full disk) leaves the old file as it was and removes the temporary one. A symbolic link is
/// followed: the file it points to is replaced. The new file keeps the old one's permissions.
/// With `durable`, the data reach the disk before the rename (`fsync`: for a last write, not
/// for one per step of a game).
pub fn write_whole(path: &str, bytes: &[u8], durable: bool) -> io::Result<()> {
    let target = target_of(Path::new(path));
    let old = fs::metadata(&target).ok();
    if let Some(what) = old.as_ref().and_then(not_regular) {
        return Err(io::Error::other(format!(
            "it is {what}, not a regular file"
        )));
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let (tmp, mut file) = create_temp(dir, &name)?;
    let written = (|| {
        file.write_all(bytes)?;
        if let Some(m) = &old {
            file.set_permissions(m.permissions())?;
        }
        if durable {
            file.sync_all()?;
        }
        drop(file);
        fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// An I/O error in words, without its `(os error N)`: `No space left on device`.
pub fn error_text(e: &io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_string(),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_error_numbers_are_dropped() {
        let e = io::Error::from_raw_os_error(28);
        assert_eq!(error_text(&e), "No space left on device");
    }
}
