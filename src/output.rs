//! Output files, in one place: which paths a command may write (checked before it writes
//! anything), and writing a file whole (a temporary file beside it, created exclusively, then
//! renamed over it), so that a reader never sees half a file and a failure leaves the old one.
//! Unix only (device and inode numbers, file types).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file a command reads or writes, with the words that name its role in an error
/// (`the record (--record)`).
#[derive(Clone, Copy, Debug)]
pub struct Named<'a> {
    pub role: &'a str,
    pub path: &'a str,
}

impl<'a> Named<'a> {
    pub fn new(role: &'a str, path: &'a str) -> Self {
        Named { role, path }
    }
}

/// Where a path leads: the device and inode of a file that exists (a symbolic link followed),
/// or the normalised absolute path of one still to be made.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    File(u64, u64),
    New(PathBuf),
}

fn identity(path: &str) -> Identity {
    match fs::metadata(path) {
        Ok(m) => Identity::File(m.dev(), m.ino()),
        Err(_) => Identity::New(normalise(Path::new(path))),
    }
}

/// An absolute path without `.` and `..`, its folder resolved when that exists.
fn normalise(path: &Path) -> PathBuf {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    };
    let (Some(dir), Some(name)) = (abs.parent(), abs.file_name()) else {
        return abs;
    };
    if let Ok(dir) = fs::canonicalize(dir) {
        return dir.join(name);
    }
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// What a file of this type is, when it is not a regular file.
fn not_regular(m: &fs::Metadata) -> Option<&'static str> {
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

/// Why a path cannot be written as a file: it is a folder, a FIFO, a device, a socket, or a
/// symbolic link to nothing. A path that does not exist yet, or a link to a regular file, is
/// fine (the file the link points to is written, the link stays).
fn kind_problem(path: &str) -> Option<String> {
    let m = fs::symlink_metadata(path).ok()?;
    if m.file_type().is_symlink() {
        return match fs::metadata(path) {
            Ok(t) => not_regular(&t).map(|what| format!("a symbolic link to {what}")),
            Err(_) => Some("a symbolic link to nothing (a dangling link)".into()),
        };
    }
    not_regular(&m).map(str::to_string)
}

/// The identity of standard output (`fstat(1)`), when it is open.
fn stdout_identity() -> Option<Identity> {
    let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
    let m = File::from(fd).metadata().ok()?;
    Some(Identity::File(m.dev(), m.ino()))
}

/// Checks the outputs of a run before anything is written: each must be a regular file or a
/// new one, none may be one of the inputs, another output, or standard output when
/// `stdout_written` (the command writes its text there too). The error names both roles;
/// it is a usage error (exit 2).
pub fn check_outputs(
    inputs: &[Named],
    outputs: &[Named],
    stdout_written: bool,
) -> Result<(), String> {
    let stdout = if stdout_written {
        stdout_identity()
    } else {
        None
    };
    let inputs: Vec<(Named, Identity)> = inputs
        .iter()
        .filter(|i| !i.path.is_empty())
        .map(|i| (*i, identity(i.path)))
        .collect();
    let mut seen: Vec<(Named, Identity)> = vec![];
    for o in outputs {
        if let Some(what) = kind_problem(o.path) {
            return Err(format!(
                "{} `{}` is {what}, not a regular file\nhint: give the path of a file to write",
                o.role, o.path
            ));
        }
        let id = identity(o.path);
        if let Some((i, _)) = inputs.iter().find(|(_, i)| *i == id) {
            return Err(format!(
                "{} `{}` is {} (`{}`): writing it would destroy it\nhint: give another path",
                o.role, o.path, i.role, i.path
            ));
        }
        if let Some((e, _)) = seen.iter().find(|(_, e)| *e == id) {
            return Err(format!(
                "{} `{}` and {} `{}` are the same file: one would overwrite the other\nhint: give each its own path",
                e.role, e.path, o.role, o.path
            ));
        }
        if stdout.as_ref() == Some(&id) {
            return Err(format!(
                "{} `{}` is standard output, where the command's text goes too: they would be mixed\nhint: give another path, or send standard output elsewhere",
                o.role, o.path
            ));
        }
        seen.push((*o, id));
    }
    Ok(())
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
    fn a_path_is_normalised() {
        let a = normalise(Path::new("/no/such/dir/../x/./f.json"));
        assert_eq!(a, PathBuf::from("/no/such/x/f.json"));
    }

    #[test]
    fn os_error_numbers_are_dropped() {
        let e = io::Error::from_raw_os_error(28);
        assert_eq!(error_text(&e), "No space left on device");
    }
}
