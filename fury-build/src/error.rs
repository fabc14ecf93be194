use std::fmt;
use std::path::{Path, PathBuf};

/// A schema that does not parse or resolve, or a file that cannot be read or written.
///
/// Its text names the file, line and column (`inventory.fdl:12:5: expected ...`) where it
/// has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    file: Option<PathBuf>,
    line: u32,
    col: u32,
    message: String,
}

impl Error {
    pub(crate) fn at(file: &Path, line: u32, col: u32, message: String) -> Self {
        Error {
            file: Some(file.to_path_buf()),
            line,
            col,
            message,
        }
    }

    pub(crate) fn in_file(file: &Path, message: String) -> Self {
        Error {
            file: Some(file.to_path_buf()),
            line: 0,
            col: 0,
            message,
        }
    }

    pub(crate) fn msg(message: String) -> Self {
        Error {
            file: None,
            line: 0,
            col: 0,
            message,
        }
    }

    /// The file the error is in, if it is about one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Line and column (from 1), if the error is at a place in the file.
    pub fn position(&self) -> Option<(u32, u32)> {
        (self.line > 0).then_some((self.line, self.col))
    }

    /// What is wrong, without the place.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), 0) => write!(f, "{}: {}", file.display(), self.message),
            (Some(file), line) => write!(
                f,
                "{}:{}:{}: {}",
                file.display(),
                line,
                self.col,
                self.message
            ),
            (None, _) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}
