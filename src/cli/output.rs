//! Output files of a command: which paths it may write, checked before it writes anything
//! (a regular file or a new one, none an input, another output or standard output). Writing
//! them whole is the library's [`ludic::output::write_whole`]. Unix only (device and inode
//! numbers).

use ludic::output::not_regular;
use std::fs::{self, File};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_normalised() {
        let a = normalise(Path::new("/no/such/dir/../x/./f.json"));
        assert_eq!(a, PathBuf::from("/no/such/x/f.json"));
    }
}
