//! The one way mcp-lint reads a file it is given or finds: a regular file, checked before it
//! is opened (a FIFO would block the reader forever, `/dev/zero` never ends), and at most a
//! limit's worth of bytes (a file that grows past the limit while being read is refused too).

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Rust source: as much as the parser accepts (`lints::parse::MAX_FILE_BYTES`).
pub const MAX_SOURCE_BYTES: u64 = lints::parse::MAX_FILE_BYTES as u64;
/// `mcp-lint.toml`, Cargo.toml and baselines: far more than any real one.
pub const MAX_DATA_BYTES: u64 = 64 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file (after following symlinks); it was not opened.
    NotAFile(&'static str),
    TooLarge {
        size: u64,
        limit: u64,
    },
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotAFile(kind) => write!(f, "{kind}, not a regular file"),
            ReadError::TooLarge { size, limit } => write!(
                f,
                "larger than {} ({size} bytes or more)",
                size_text(*limit)
            ),
            ReadError::Io(e) => e.fmt(f),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// `8 MiB`, `64 MiB`, or bytes when not a whole number of MiB.
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// What kind of thing `metadata` describes, when it is not a regular file.
fn not_a_file(metadata: &Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_char_device() {
            return Some("a character device");
        }
        if kind.is_block_device() {
            return Some("a block device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

/// Is `path` (symlinks followed) a regular file of at most `limit` bytes? Nothing is opened.
pub fn check(path: &Path, limit: u64) -> Result<Metadata, ReadError> {
    let metadata = std::fs::metadata(path)?;
    if let Some(kind) = not_a_file(&metadata) {
        return Err(ReadError::NotAFile(kind));
    }
    if metadata.len() > limit {
        return Err(ReadError::TooLarge {
            size: metadata.len(),
            limit,
        });
    }
    Ok(metadata)
}

/// Open for reading without blocking: if the path was swapped for a FIFO since [`check`], the
/// open returns at once and the check of the opened file refuses it.
fn open(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    check(path, limit)?;
    let file = open(path)?;
    let metadata = file.metadata()?;
    if let Some(kind) = not_a_file(&metadata) {
        return Err(ReadError::NotAFile(kind));
    }
    let capacity = usize::try_from(metadata.len().min(limit)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// A Rust source file for the analysis: a regular file, of which at most one byte more than
/// [`MAX_SOURCE_BYTES`] is read. That byte is enough for the parser to refuse the file as too
/// large (a `parse_error` finding, as for any file it cannot analyse) without the rest of it
/// being held in memory.
pub fn read_source(path: &Path) -> Result<Vec<u8>, ReadError> {
    match read(path, MAX_SOURCE_BYTES) {
        Err(ReadError::TooLarge { .. }) => {
            let mut bytes = Vec::new();
            open(path)?
                .take(MAX_SOURCE_BYTES + 1)
                .read_to_end(&mut bytes)?;
            Ok(bytes)
        }
        other => other,
    }
}

/// [`read`], as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read(path, limit)?).map_err(|e| {
        ReadError::Io(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not valid UTF-8 (first invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_read_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read(&path, 5).unwrap(), b"12345");
        let err = read(&path, 4).unwrap_err();
        assert_eq!(err.to_string(), "larger than 4 bytes (5 bytes or more)");
        assert_eq!(read_text(&path, 5).unwrap(), "12345");
        std::fs::write(&path, b"a\xffb").unwrap();
        assert!(read_text(&path, 5)
            .unwrap_err()
            .to_string()
            .contains("offset 1"));
        assert_eq!(
            read(dir.path(), 5).unwrap_err().to_string(),
            "a directory, not a regular file"
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_without_reading() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("zero.rs");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        for path in [Path::new("/dev/zero"), &link] {
            assert_eq!(
                read(path, MAX_DATA_BYTES).unwrap_err().to_string(),
                "a character device, not a regular file"
            );
        }
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        assert!(made, "mkfifo");
        // Opening a FIFO for reading blocks until a writer comes: this returns at once.
        assert_eq!(
            read(&fifo, 10).unwrap_err().to_string(),
            "a FIFO, not a regular file"
        );
    }

    #[test]
    fn sizes_read_as_mib() {
        assert_eq!(size_text(MAX_SOURCE_BYTES), "8 MiB");
        assert_eq!(size_text(1000), "1000 bytes");
    }
}
