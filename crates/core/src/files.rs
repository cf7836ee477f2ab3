//! The files users name, read and written one way everywhere.
//!
//! Reading: every file is read up to a bound that depends on its kind, so that a huge
//! file or an endless one (`/dev/zero`, a pipe that never ends) is refused with the bound
//! stated instead of filling memory. Text may start with a UTF-8 byte order mark.
//!
//! Writing, the one way every writer of iago writes: a regular file (or a path where
//! nothing is yet) is replaced whole and crash-safely: the bytes go to a temporary file
//! beside it, which is synced and renamed over it, so that a crash leaves the old file or
//! the new one, never half of one, and an error (a full disk) removes the temporary file.
//! The temporary file is created new, exclusively, at a random name: a file or a link
//! planted at any name beside the output is never opened, followed or replaced. It gets
//! the permissions of the file it replaces, or those of any new file (the umask's).
//!
//! The output as the user names it may be a symbolic link: it is followed, as the
//! shell's `>` follows it, so that the file it names is replaced and the link stays;
//! but a link another user made in a shared folder such as `/tmp` is refused, as Linux
//! refuses to follow it (`protected_symlinks`). Anything else (a device such as
//! `/dev/null`, a named pipe) is written into directly: it is never replaced by a file.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be read or written: the path and the cause.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    pub error: io::Error,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for FileError {}

impl From<FileError> for String {
    fn from(error: FileError) -> String {
        error.to_string()
    }
}

fn failed(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |error| FileError {
        path: path.to_path_buf(),
        error,
    }
}

/// A kind of file and the most bytes one may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// What the file holds, in errors: `a games file`.
    pub kind: &'static str,
    pub bytes: u64,
}

const MIB: u64 = 1 << 20;

/// Games: GGF records, transcripts, WTHOR databases (a year of WTHOR is under 1 MiB).
pub const GAMES: Bound = Bound {
    kind: "a games file",
    bytes: 64 * MIB,
};
/// Opening lines for matches.
pub const OPENINGS: Bound = Bound {
    kind: "an openings file",
    bytes: 16 * MIB,
};
/// Endgame problems (OBF), for `solve` and `accuracy`.
pub const PROBLEMS: Bound = Bound {
    kind: "a problem file",
    bytes: 64 * MIB,
};
/// Pattern weights (the embedded set is about 3 MiB).
pub const WEIGHTS: Bound = Bound {
    kind: "a weights file",
    bytes: 64 * MIB,
};
/// Self-play game records (IAGOGAM1 and IAGOGAM2 uncompressed take about 64 bytes a game:
/// four million games; the readers hold any format to as many games).
pub const GAME_RECORDS: Bound = Bound {
    kind: "a game record file",
    bytes: 256 * MIB,
};
/// Labelled positions for training (20 bytes a position: 26 million positions, ten times
/// the files the shipped weights were fitted on).
pub const LABELS: Bound = Bound {
    kind: "a label file",
    bytes: 512 * MIB,
};

/// `64 MiB`, `2 GiB`, `512 bytes`.
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The error of a file over its bound.
fn too_large(bound: Bound) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "more than {}, the most {} may hold (an endless file such as a device is not read)",
            size_text(bound.bytes),
            bound.kind
        ),
    )
}

/// All of `input` if it holds at most `bound` bytes.
pub fn read_bounded(mut input: impl Read, bound: Bound) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut input).take(bound.bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > bound.bytes {
        return Err(too_large(bound));
    }
    Ok(bytes)
}

/// The bytes of the file at `path`, at most `bound` of them.
pub fn read(path: &Path, bound: Bound) -> Result<Vec<u8>, FileError> {
    let file = File::open(path).map_err(failed(path))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(failed(path)(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        )));
    }
    read_bounded(file, bound).map_err(failed(path))
}

/// The text of `bytes` (a leading byte order mark dropped), or where it is not UTF-8.
pub fn text(mut bytes: Vec<u8>) -> io::Result<String> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|error| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (byte {} is not)",
                error.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The text of the file at `path`, at most `bound` bytes of it.
pub fn read_text(path: &Path, bound: Bound) -> Result<String, FileError> {
    text(read(path, bound)?).map_err(failed(path))
}

/// The text of stdin, at most `bound` bytes of it.
pub fn read_stdin_text(bound: Bound) -> Result<String, FileError> {
    let stdin = Path::new("stdin");
    read_bounded(io::stdin().lock(), bound)
        .and_then(text)
        .map_err(failed(stdin))
}

/// Whether `a` and `b` name one existing file: the same device and inode (so also
/// through a hard link, a symbolic link, `./x` for `x`), or where the system has no
/// inodes the same canonical path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The one check of every tool with inputs and an output: an error, naming both, where
/// the output `output` is one of the files `inputs` (see [`same_file`]), so that no
/// output ever replaces what it was made from. `command` starts the message.
pub fn refuse_input_as_output<'a>(
    command: &str,
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), String> {
    // A device or a pipe is written into, never replaced: naming one twice harms nothing
    // a file would not (`/dev/stdin` as an input and `/dev/null` as the output).
    if fs::metadata(output).is_ok_and(|meta| !meta.is_file()) {
        return Ok(());
    }
    match inputs.into_iter().find(|input| same_file(input, output)) {
        Some(input) if input == output => Err(format!(
            "{command}: {} is an input too: an output never replaces an input (name \
             another file)",
            output.display()
        )),
        Some(input) => Err(format!(
            "{command}: {} is an input too (the same file as {}): an output never \
             replaces an input (name another file)",
            output.display(),
            input.display()
        )),
        None => Ok(()),
    }
}

/// Most symbolic links followed to reach a file (as the kernel allows).
const MAX_LINKS: usize = 40;

/// The path a write to `path` reaches: symbolic links followed, also one that names a
/// file not made yet. A link that another user planted in a shared folder (a sticky,
/// world-writable one such as `/tmp`) is refused, as Linux's `protected_symlinks`
/// refuses to follow it, so that nobody can point a write of this user elsewhere.
pub fn resolve(path: &Path) -> Result<PathBuf, FileError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                if !may_follow(&current, &meta) {
                    return Err(failed(&current)(io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        "a symbolic link another user made in a shared folder: not followed \
                         (remove it, or name another file)",
                    )));
                }
                let target = fs::read_link(&current).map_err(failed(&current))?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(failed(path)(io::Error::other(
        "too many levels of symbolic links",
    )))
}

/// Whether the link at `link` (its own metadata `meta`) may be followed: the kernel's
/// rule for links in sticky world-writable folders (the link is the writer's, or the
/// folder owner's).
#[cfg(target_os = "linux")]
fn may_follow(link: &Path, meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    let folder = match link.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let Ok(folder) = fs::metadata(folder) else {
        return true;
    };
    let shared = folder.mode() & 0o1002 == 0o1002;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    !shared || meta.uid() == me || meta.uid() == folder.uid()
}

#[cfg(not(target_os = "linux"))]
fn may_follow(_link: &Path, _meta: &fs::Metadata) -> bool {
    true
}

/// Tries of a fresh random name before giving up (a clash is already one in 2^64).
const NAME_TRIES: usize = 16;

/// Creates a new file for writing at an unguessable name `TARGET.WHAT-RANDOM` beside
/// `target`: created exclusively (an existing file or a link of that name is never
/// opened, let alone followed), with the permissions a newly made file gets (the umask
/// applies). Its path and the open file.
fn create_temporary(target: &Path, what: &str) -> Result<(PathBuf, File), FileError> {
    let mut last = None;
    for _ in 0..NAME_TRIES {
        let mut name = target.as_os_str().to_owned();
        name.push(format!(".{what}-{:016x}", rand::random::<u64>()));
        let temporary = PathBuf::from(name);
        match open_new(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = Some(error),
            // Errors name the file the user named, not the temporary one.
            Err(error) => return Err(failed(target)(error)),
        }
    }
    Err(failed(target)(last.unwrap_or_else(|| {
        io::Error::other("no free name for a temporary file")
    })))
}

/// Creates the file at `path` for writing, exclusively: `AlreadyExists` where anything
/// is there, a symbolic link included (dangling or not), which is left as it is.
fn open_new(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    no_follow(&mut options);
    options.open(path)
}

/// Opens without following a symbolic link at the last component of the path, where
/// the system can say so (an exclusive create never follows one anyway).
fn no_follow(options: &mut OpenOptions) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = options;
}

/// A file being written: a temporary file renamed over the target by
/// [`Replacement::commit`], or the target itself when it is not a regular file. Dropped
/// without a commit, it removes its temporary file.
///
/// Written by hand rather than with the `tempfile` crate: its files are made 0600 and
/// would need their permissions set again, and the device, pipe and link rules above
/// are this module's anyway; `create_new` with a random name is all it would add.
pub struct Replacement {
    file: File,
    /// The file written at the end.
    target: PathBuf,
    /// The temporary file, `None` when writing into the target directly.
    temporary: Option<PathBuf>,
    committed: bool,
}

impl Replacement {
    /// Starts replacing the file at `path` (see the module documentation); the temporary
    /// file is `NAME.WHAT-RANDOM` beside the file the path reaches (`what`: `tmp`,
    /// `partial`).
    pub fn create(path: &Path, what: &str) -> Result<Replacement, FileError> {
        let target = resolve(path)?;
        let existing = match fs::metadata(&target) {
            Ok(meta) => Some(meta),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(failed(&target)(error)),
        };
        match &existing {
            Some(meta) if meta.is_dir() => {
                return Err(failed(&target)(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                )));
            }
            Some(meta) if !meta.is_file() => return Replacement::open_special(target),
            _ => {}
        }
        let (temporary, file) = create_temporary(&target, what)?;
        let replacement = Replacement {
            file,
            target,
            temporary: Some(temporary),
            committed: false,
        };
        if let Some(meta) = existing {
            // The new file keeps the old one's permissions.
            let _ = replacement.file.set_permissions(meta.permissions());
        }
        Ok(replacement)
    }

    /// A device or a pipe: written into, never replaced (and never a regular file that
    /// took its place since it was looked at).
    fn open_special(target: PathBuf) -> Result<Replacement, FileError> {
        let mut options = OpenOptions::new();
        options.write(true);
        no_follow(&mut options);
        let file = options.open(&target).map_err(failed(&target))?;
        if file.metadata().is_ok_and(|meta| meta.is_file()) {
            return Err(failed(&target)(io::Error::other(
                "became a regular file while it was opened",
            )));
        }
        Ok(Replacement {
            file,
            target,
            temporary: None,
            committed: false,
        })
    }

    /// The file the replacement ends up as (symbolic links followed).
    pub fn target(&self) -> &Path {
        &self.target
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), FileError> {
        self.file
            .write_all(bytes)
            .and_then(|()| self.file.flush())
            .map_err(failed(&self.target))
    }

    /// Syncs the temporary file, renames it over the target and syncs the directory, so
    /// that the new file is on disk whole before it takes the old one's place.
    pub fn commit(mut self) -> Result<(), FileError> {
        let Some(temporary) = self.temporary.clone() else {
            self.committed = true;
            return Ok(());
        };
        self.file.sync_all().map_err(failed(&self.target))?;
        fs::rename(&temporary, &self.target).map_err(failed(&self.target))?;
        self.committed = true;
        let directory = match self.target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        // Syncing a directory is how POSIX makes a rename durable; other systems may
        // refuse to open a directory, and there the rename is as durable as they make it.
        if let Ok(directory) = File::open(directory) {
            directory.sync_all().map_err(failed(&self.target))?;
        }
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if !self.committed
            && let Some(temporary) = &self.temporary
        {
            let _ = fs::remove_file(temporary);
        }
    }
}

/// Replaces the file at `path` by `bytes` (see the module documentation).
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let mut replacement = Replacement::create(path, "tmp")?;
    replacement.write_all(bytes)?;
    replacement.commit()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("iago-files-{}-{test}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn reads_stop_at_their_bound_and_say_it() {
        let bound = Bound {
            kind: "a test file",
            bytes: 1000,
        };
        assert_eq!(read_bounded(&[7u8; 1000][..], bound).unwrap().len(), 1000);
        let error = read_bounded(io::repeat(0), bound).unwrap_err();
        assert_eq!(
            error.to_string(),
            "more than 1000 bytes, the most a test file may hold (an endless file such as a \
             device is not read)"
        );
        assert_eq!(size_text(GAMES.bytes), "64 MiB");
        assert_eq!(size_text(LABELS.bytes), "512 MiB");
        assert_eq!(size_text(1 << 30), "1 GiB");
    }

    #[test]
    fn text_drops_a_byte_order_mark_and_names_the_first_bad_byte() {
        assert_eq!(text(b"\xEF\xBB\xBFf5d6".to_vec()).unwrap(), "f5d6");
        assert_eq!(
            text(b"f5\xffd6".to_vec()).unwrap_err().to_string(),
            "not UTF-8 text (byte 2 is not)"
        );
    }

    #[test]
    fn a_write_replaces_the_file_a_link_names_and_keeps_the_link() {
        let dir = scratch("link");
        let real = dir.join("real.bin");
        let link = dir.join("link.bin");
        fs::write(&real, b"old").unwrap();
        std::os::unix::fs::symlink("real.bin", &link).unwrap();
        write(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
        // A link to a file not made yet makes it.
        let dangling = dir.join("dangling.bin");
        std::os::unix::fs::symlink("made.bin", &dangling).unwrap();
        write(&dangling, b"made").unwrap();
        assert_eq!(fs::read(dir.join("made.bin")).unwrap(), b"made");
        assert_eq!(
            names(&dir),
            ["dangling.bin", "link.bin", "made.bin", "real.bin"]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Makes a special file at `path` with the system's tool (`mkfifo`, `mknod`), if this
    /// user may.
    fn make(tool: &str, path: &Path, args: &[&str]) -> bool {
        std::process::Command::new(tool)
            .arg(path)
            .args(args)
            .status()
            .is_ok_and(|status| status.success())
    }

    #[test]
    fn a_pipe_or_a_device_is_written_into_and_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("special");
        let fifo = dir.join("fifo");
        assert!(make("mkfifo", &fifo, &[]));
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        write(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        // A copy of /dev/full (where this user may make devices): its error, and it
        // stays a device.
        let full = dir.join("full");
        if make("mknod", &full, &["c", "1", "7"]) {
            let error = write(&full, b"x").unwrap_err();
            assert_eq!(error.error.kind(), io::ErrorKind::StorageFull, "{error}");
            assert!(fs::metadata(&full).unwrap().file_type().is_char_device());
        }
        let error = write(&dir, b"x").unwrap_err();
        assert!(error.to_string().ends_with("is a directory"), "{error}");
        let mut left = names(&dir);
        left.retain(|name| name != "full");
        assert_eq!(left, ["fifo"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unfinished_replacement_leaves_no_temporary_file() {
        let dir = scratch("unfinished");
        let path = dir.join("out.txt");
        fs::write(&path, b"old").unwrap();
        let mut replacement = Replacement::create(&path, "partial").unwrap();
        replacement.write_all(b"half").unwrap();
        let during = names(&dir);
        assert_eq!(during.len(), 2, "{during:?}");
        assert!(during[1].starts_with("out.txt.partial-"), "{during:?}");
        drop(replacement);
        assert_eq!(names(&dir), ["out.txt"]);
        assert_eq!(fs::read(&path).unwrap(), b"old");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Links planted at every fixed name a writer used (`NAME.partial`, `NAME.tmp-PID`)
    /// and the exclusive create at the name itself: the file a link names is never
    /// written, and the link stays a link.
    #[test]
    fn a_planted_link_beside_the_output_is_never_followed() {
        use std::os::unix::fs::symlink;
        let dir = scratch("planted");
        let victim = dir.join("victim.txt");
        fs::write(&victim, b"precious").unwrap();
        let out = dir.join("out.bin");
        for name in [
            "out.bin.partial".to_string(),
            format!("out.bin.tmp-{}", std::process::id()),
            "out.bin.tmp".to_string(),
        ] {
            symlink("victim.txt", dir.join(name)).unwrap();
        }
        write(&out, b"mine").unwrap();
        let mut replacement = Replacement::create(&out, "partial").unwrap();
        replacement.write_all(b"records").unwrap();
        replacement.commit().unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        assert_eq!(fs::read(&out).unwrap(), b"records");
        assert!(!fs::symlink_metadata(&out).unwrap().file_type().is_symlink());
        // The exclusive create refuses a link at its very name, dangling or not.
        let linked = dir.join("linked");
        symlink("victim.txt", &linked).unwrap();
        let dangling = dir.join("dangling");
        symlink("nothing-yet", &dangling).unwrap();
        for path in [&linked, &dangling] {
            let error = open_new(path).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::AlreadyExists, "{error}");
        }
        assert!(!dir.join("nothing-yet").exists());
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_new_file_gets_the_permissions_of_any_new_file_and_a_replaced_one_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("permissions");
        let plain = dir.join("plain");
        File::create(&plain).unwrap();
        let expected = fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
        let new = dir.join("new");
        write(&new, b"x").unwrap();
        assert_eq!(
            fs::metadata(&new).unwrap().permissions().mode() & 0o777,
            expected
        );
        fs::set_permissions(&new, fs::Permissions::from_mode(0o640)).unwrap();
        write(&new, b"y").unwrap();
        assert_eq!(
            fs::metadata(&new).unwrap().permissions().mode() & 0o777,
            0o640
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Two writers at once never share a temporary file: the names are random.
    #[test]
    fn temporary_names_are_fresh_each_time() {
        let dir = scratch("fresh");
        let out = dir.join("out");
        let first = Replacement::create(&out, "tmp").unwrap();
        let second = Replacement::create(&out, "tmp").unwrap();
        assert_ne!(first.temporary, second.temporary);
        drop((first, second));
        assert!(names(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A link another user planted in a sticky world-writable folder is not followed
    /// (tried where this user may give a link away: as root).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_link_another_user_planted_in_a_shared_folder_is_refused() {
        use std::os::unix::fs::{PermissionsExt, lchown, symlink};
        let dir = scratch("shared");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o1777)).unwrap();
        let victim = dir.join("victim");
        fs::write(&victim, b"precious").unwrap();
        let out = dir.join("out");
        symlink("victim", &out).unwrap();
        if lchown(&out, Some(65534), Some(65534)).is_err() {
            eprintln!("skipped: this user cannot give a link to another user");
            fs::remove_dir_all(&dir).unwrap();
            return;
        }
        let error = write(&out, b"overwritten").unwrap_err();
        assert!(error.to_string().contains("another user"), "{error}");
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        assert_eq!(names(&dir), ["out", "victim"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
