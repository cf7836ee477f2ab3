//! The book file: a versioned binary format that tells a complete file from a damaged one,
//! and the lock that keeps two processes from writing it at once (the write itself is
//! [`crate::files::write`]'s: crash-safe, through symbolic links).
//!
//! Layout (little-endian):
//! ```text
//! offset size
//!  0      8  magic "IAGOBOOK"
//!  8      4  format version (1)
//! 12      4  entry size in bytes (24)
//! 16      8  number of entries
//! 24      4  CRC-32 of bytes 8..24 and of every entry
//! 28      4  reserved, zero
//! 32   24*n  entries, sorted by (player, opponent), no duplicates:
//!            player u64, opponent u64   canonical discs of the side to move and the other
//!            leaf value i16             best move outside the book, hundredths of a disc
//!            leaf move u8               square 0..63, 64 = pass, 255 = none
//!            depth u8                   search depth of the leaf value (60 = exact)
//!            games u32                  games that went through the position
//! ```
//! The file length must be exactly `32 + 24 * n`: a truncated or extended file is
//! rejected before the checksum is even computed.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::{Entry, Key};
use crate::files::{self, FileError};
use crate::othello::{DISC, Move};

const MAGIC: &[u8; 8] = b"IAGOBOOK";
pub const FORMAT_VERSION: u32 = 1;
const HEADER_SIZE: usize = 32;
const ENTRY_SIZE: usize = 24;
const NO_MOVE: u8 = 255;
const PASS: u8 = 64;

/// Why a book could not be read or written.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read, written, renamed or locked.
    Io { path: PathBuf, error: io::Error },
    /// The file is not a complete, intact book of a version this build reads.
    Corrupt { path: PathBuf, reason: String },
    /// A game given to learn does not replay.
    InvalidGame(String),
    /// The folder the book is to be written in does not exist.
    MissingFolder(PathBuf),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, error } => write!(f, "book {}: {error}", path.display()),
            BookError::Corrupt { path, reason } => write!(
                f,
                "book {} is damaged or not a book ({reason}); it was not used and will not be overwritten",
                path.display()
            ),
            BookError::InvalidGame(reason) => write!(f, "cannot learn the game: {reason}"),
            BookError::MissingFolder(folder) => {
                write!(f, "the book's folder {} does not exist", folder.display())
            }
        }
    }
}

impl std::error::Error for BookError {}

impl From<FileError> for BookError {
    fn from(error: FileError) -> BookError {
        BookError::Io {
            path: error.path,
            error: error.error,
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> BookError + '_ {
    move |error| BookError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// CRC-32 (IEEE 802.3 polynomial, reflected), table built at compile time.
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

fn crc32(parts: &[&[u8]]) -> u32 {
    let mut crc = !0u32;
    for part in parts {
        for &byte in *part {
            crc = CRC_TABLE[((crc ^ byte as u32) & 0xFF) as usize] ^ (crc >> 8);
        }
    }
    !crc
}

/// The bytes of a book file holding `entries`.
pub fn encode<'a>(entries: impl Iterator<Item = (&'a Key, &'a Entry)>) -> Vec<u8> {
    let mut sorted: Vec<(&Key, &Entry)> = entries.collect();
    sorted.sort_unstable_by_key(|(key, _)| **key);
    let mut payload = Vec::with_capacity(sorted.len() * ENTRY_SIZE);
    for (&(player, opponent), entry) in sorted {
        payload.extend_from_slice(&player.to_le_bytes());
        payload.extend_from_slice(&opponent.to_le_bytes());
        let value = entry.leaf_value.clamp(-64 * DISC, 64 * DISC) as i16;
        payload.extend_from_slice(&value.to_le_bytes());
        payload.push(match entry.leaf_move {
            None => NO_MOVE,
            Some(mv) => mv.square().unwrap_or(PASS),
        });
        payload.push(entry.depth);
        payload.extend_from_slice(&entry.games.to_le_bytes());
    }
    let mut fields = Vec::with_capacity(16);
    fields.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    fields.extend_from_slice(&(ENTRY_SIZE as u32).to_le_bytes());
    fields.extend_from_slice(&((payload.len() / ENTRY_SIZE) as u64).to_le_bytes());
    let crc = crc32(&[&fields, &payload]);
    let mut bytes = Vec::with_capacity(HEADER_SIZE + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&fields);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&payload);
    bytes
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[offset..offset + 4]);
    u32::from_le_bytes(word)
}

fn u64_at(bytes: &[u8], offset: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[offset..offset + 8]);
    u64::from_le_bytes(word)
}

/// The largest book file read: some 44 million positions, far beyond any book built
/// here. A larger one, or an endless file such as a device, is refused rather than read
/// into memory.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

fn corrupt(path: &Path, reason: String) -> BookError {
    BookError::Corrupt {
        path: path.to_path_buf(),
        reason,
    }
}

/// The length of the file the header at the start of `bytes` (at least
/// [`HEADER_SIZE`] of them) announces, or why it is not the header of a book this build
/// reads.
fn announced_len(bytes: &[u8], path: &Path) -> Result<u64, BookError> {
    let corrupt = |reason: String| corrupt(path, reason);
    if &bytes[..8] != MAGIC {
        return Err(corrupt("no IAGOBOOK signature".into()));
    }
    let version = u32_at(bytes, 8);
    if version != FORMAT_VERSION {
        return Err(corrupt(format!(
            "format version {version}, this build reads version {FORMAT_VERSION}"
        )));
    }
    let entry_size = u32_at(bytes, 12);
    if entry_size as usize != ENTRY_SIZE {
        return Err(corrupt(format!(
            "entry size {entry_size}, expected {ENTRY_SIZE}"
        )));
    }
    let count = u64_at(bytes, 16);
    let expected_len = (count as u128) * ENTRY_SIZE as u128 + HEADER_SIZE as u128;
    if expected_len > u128::from(MAX_FILE_BYTES) {
        return Err(corrupt(format!(
            "header announces {count} entries ({expected_len} bytes), more than the \
             largest book read ({MAX_FILE_BYTES} bytes)"
        )));
    }
    Ok(expected_len as u64)
}

/// The entries of a book file, or why it is not an intact book. `path` only names the
/// file in errors.
pub fn decode(bytes: &[u8], path: &Path) -> Result<Vec<(Key, Entry)>, BookError> {
    let corrupt = |reason: String| corrupt(path, reason);
    if bytes.len() < HEADER_SIZE {
        return Err(corrupt(format!(
            "{} bytes, shorter than the {HEADER_SIZE}-byte header",
            bytes.len()
        )));
    }
    let expected_len = announced_len(bytes, path)?;
    let count = u64_at(bytes, 16);
    if expected_len != bytes.len() as u64 {
        return Err(corrupt(format!(
            "header announces {count} entries ({expected_len} bytes) but the file has {} bytes (truncated?)",
            bytes.len()
        )));
    }
    let payload = &bytes[HEADER_SIZE..];
    let stored_crc = u32_at(bytes, 24);
    let crc = crc32(&[&bytes[8..24], payload]);
    if crc != stored_crc {
        return Err(corrupt(format!(
            "checksum {crc:08x} does not match the stored {stored_crc:08x}"
        )));
    }
    let mut entries = Vec::with_capacity(count as usize);
    let mut previous: Option<Key> = None;
    for (index, record) in payload.chunks_exact(ENTRY_SIZE).enumerate() {
        let key = (u64_at(record, 0), u64_at(record, 8));
        let bad = |what: &str| corrupt(format!("entry {index}: {what}"));
        if key.0 & key.1 != 0 {
            return Err(bad("a square holds discs of both sides"));
        }
        if previous.is_some_and(|previous| previous >= key) {
            return Err(bad("entries out of order or duplicated"));
        }
        previous = Some(key);
        let leaf_value = i16::from_le_bytes([record[16], record[17]]) as i32;
        if leaf_value.abs() > 64 * DISC {
            return Err(bad("value out of range"));
        }
        let leaf_move = match record[18] {
            NO_MOVE => None,
            PASS => Some(Move::PASS),
            square if square < 64 => Some(Move::from_index(square)),
            _ => return Err(bad("bad move byte")),
        };
        entries.push((
            key,
            Entry {
                leaf_value,
                leaf_move,
                depth: record[19],
                games: u32_at(record, 20),
                value: leaf_value,
            },
        ));
    }
    Ok(entries)
}

/// Reads the book at `path`; `Ok(None)` when there is no file.
pub fn read(path: &Path) -> Result<Option<Vec<(Key, Entry)>>, BookError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(io_error(path)(error)),
    };
    let bytes = read_bounded(file, path)?;
    decode(&bytes, path).map(Some)
}

/// The bytes of a book file from `input`, read no further than a book can go: the
/// header first, then the entries it announces (at most [`MAX_FILE_BYTES`] in all) and
/// one byte more, to tell a file longer than its header says.
fn read_bounded(mut input: impl Read, path: &Path) -> Result<Vec<u8>, BookError> {
    let mut bytes = Vec::with_capacity(HEADER_SIZE);
    (&mut input)
        .take(HEADER_SIZE as u64)
        .read_to_end(&mut bytes)
        .map_err(io_error(path))?;
    if bytes.len() < HEADER_SIZE {
        // Too short for a book: `decode` says so.
        return Ok(bytes);
    }
    let expected_len = announced_len(&bytes, path)?;
    let rest = expected_len - HEADER_SIZE as u64;
    bytes
        .try_reserve_exact(rest as usize)
        .map_err(|_| io_error(path)(io::ErrorKind::OutOfMemory.into()))?;
    input
        .take(rest + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error(path))?;
    if bytes.len() as u64 > expected_len {
        let count = u64_at(&bytes, 16);
        return Err(corrupt(
            path,
            format!("the file goes on past the {count} entries its header announces"),
        ));
    }
    Ok(bytes)
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// An exclusive advisory lock on a book, held while it is read, changed and written back,
/// so that two iago processes never write the same book at once. It is an OS lock on a
/// `.lock` file beside the book: the kernel drops it when the process dies, so a crash
/// never leaves a stale lock behind. The holder removes the file when it is done, so
/// that nothing is left beside the book; a waiter that then finds its file gone from the
/// path (another process made a new one) starts over with the file the path names now.
/// The lock file lies beside the book a symbolic link names, so that two processes that
/// reach one book through different links share one lock.
pub struct WriteLock {
    file: File,
    path: PathBuf,
}

impl WriteLock {
    /// Waits until no other process holds the lock on the book at `path`, then takes it.
    pub fn acquire(path: &Path) -> Result<WriteLock, BookError> {
        folder_exists(path)?;
        let lock_path = with_suffix(&files::resolve(path)?, ".lock");
        loop {
            let file = open_lock_file(&lock_path).map_err(io_error(&lock_path))?;
            file.lock().map_err(io_error(&lock_path))?;
            if same_file(&file, &lock_path) {
                return Ok(WriteLock {
                    file,
                    path: lock_path,
                });
            }
        }
    }
}

/// Opens (or makes) the lock file at `path`: never through a symbolic link, never a
/// pipe or a device (which could block or be written to), only a regular file, which is
/// not written.
fn open_lock_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let not_a_lock = || {
        io::Error::other(
            "not a lock file of iago's (a symbolic link or a special file): remove it \
             if no iago process is writing the book",
        )
    };
    if std::fs::symlink_metadata(path).is_ok_and(|meta| !meta.is_file()) {
        return Err(not_a_lock());
    }
    let file = options.open(path).map_err(|error| {
        // O_NOFOLLOW's refusal of a link planted since the look above.
        #[cfg(target_os = "linux")]
        if error.raw_os_error() == Some(libc::ELOOP) {
            return not_a_lock();
        }
        error
    })?;
    if !file.metadata()?.is_file() {
        return Err(not_a_lock());
    }
    Ok(file)
}

/// True when `path` still names the open `file` (it was not removed or replaced while
/// the caller waited for its lock).
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// An error naming the folder of the book at `path` where it does not exist: the lock
/// file cannot be made there, and its own error would name the lock file instead.
fn folder_exists(path: &Path) -> Result<(), BookError> {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            Err(BookError::MissingFolder(folder.to_path_buf()))
        }
        _ => Ok(()),
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // Removed while still locked, so that no other process can hold a lock on the
        // file the path names at the same time as this one.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(count: u64) -> Vec<u8> {
        let mut bytes = encode(std::iter::empty());
        bytes[16..24].copy_from_slice(&count.to_le_bytes());
        bytes
    }

    fn reason(result: Result<Vec<u8>, BookError>) -> String {
        match result {
            Err(BookError::Corrupt { reason, .. }) => reason,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn endless_or_huge_files_are_refused_without_reading_them() {
        let path = Path::new("book.bin");
        assert_eq!(
            reason(read_bounded(io::repeat(0), path)),
            "no IAGOBOOK signature"
        );
        // A book header, then no end.
        let endless = io::Cursor::new(header(2)).chain(io::repeat(0));
        assert_eq!(
            reason(read_bounded(endless, path)),
            "the file goes on past the 2 entries its header announces"
        );
        let huge = io::Cursor::new(header(1 << 40)).chain(io::repeat(0));
        assert_eq!(
            reason(read_bounded(huge, path)),
            "header announces 1099511627776 entries (26388279066656 bytes), more than the \
             largest book read (1073741824 bytes)"
        );
        let book = encode(std::iter::empty());
        assert_eq!(read_bounded(&book[..], path).unwrap(), book);
        assert_eq!(read_bounded(&book[..10], path).unwrap(), &book[..10]);
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(&[b"123456789"]), 0xCBF4_3926);
        assert_eq!(crc32(&[b"1234", b"56789"]), 0xCBF4_3926);
    }
}
