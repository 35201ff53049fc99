//! Running git: one command's output ([`run`], [`text`]) or why it gave none ([`GitError`]),
//! and one `git cat-file --batch` process: objects asked for one at a time (`rev:path` or an
//! object id) and read as committed, with no attributes applied. The git history of the
//! data (`history`) and `diff`'s two sides run git and read blobs through it.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

/// Why a git command gave no output to read.
#[derive(Debug)]
pub enum GitError {
    /// git could not be started (not installed, not on the `PATH`).
    Run(io::Error),
    /// git ran and exited non-zero; what it wrote to standard error, trimmed.
    Failed { stderr: String },
    /// The output was to be text, and is not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitError::Run(e) => write!(f, "git could not be run ({e})"),
            GitError::Failed { stderr } if stderr.is_empty() => write!(f, "git failed"),
            GitError::Failed { stderr } => write!(f, "{stderr}"),
            GitError::NotUtf8 => write!(f, "git printed something that is not UTF-8"),
        }
    }
}

impl std::error::Error for GitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GitError::Run(e) => Some(e),
            _ => None,
        }
    }
}

/// `git -C dir ARGS`: its standard output, or why there is none.
pub fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(GitError::Run)?;
    if !out.status.success() {
        return Err(GitError::Failed {
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(out.stdout)
}

/// `git -C dir ARGS`: its standard output as text, or why there is none.
pub fn text(dir: &Path, args: &[&str]) -> Result<String, GitError> {
    String::from_utf8(run(dir, args)?).map_err(|_| GitError::NotUtf8)
}

/// A running `git -C repo cat-file --batch`.
pub struct CatFile {
    child: Child,
    out: BufReader<ChildStdout>,
}

/// What git answered of one object: its kind (`blob`, `tree`, …) and size in bytes.
pub struct Object {
    pub kind: String,
    pub size: u64,
}

impl CatFile {
    /// Starts the process for the repository holding `repo`.
    pub fn open(repo: &Path) -> io::Result<CatFile> {
        let mut child = Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let out = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("git cat-file has no output"))?;
        Ok(CatFile {
            child,
            out: BufReader::new(out),
        })
    }

    /// Asks for `object`: `None` when git has no such object. After `Some`, the object's
    /// bytes are read through [`CatFile::body`] and the answer closed by [`CatFile::end`].
    pub fn ask(&mut self, object: &str) -> io::Result<Option<Object>> {
        let stdin = self
            .child
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::other("git cat-file has no input"))?;
        writeln!(stdin, "{object}").and_then(|()| stdin.flush())?;
        let mut header = String::new();
        self.out.read_line(&mut header)?;
        match header.split_whitespace().collect::<Vec<_>>()[..] {
            [_, kind, size] => {
                let size = size
                    .parse()
                    .map_err(|_| io::Error::other(format!("bad size in `{}`", header.trim())))?;
                Ok(Some(Object {
                    kind: kind.to_string(),
                    size,
                }))
            }
            _ => Ok(None),
        }
    }

    /// The bytes of the object last asked for, `size` of them.
    pub fn body(&mut self, size: u64) -> io::Take<&mut BufReader<ChildStdout>> {
        (&mut self.out).take(size)
    }

    /// Ends an answer: the newline after the object's bytes.
    pub fn end(&mut self) -> io::Result<()> {
        let mut nl = [0u8; 1];
        self.out.read_exact(&mut nl)
    }
}

impl Drop for CatFile {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_says_what_git_said_or_that_it_failed() {
        let said = |stderr: &str| {
            GitError::Failed {
                stderr: stderr.into(),
            }
            .to_string()
        };
        assert_eq!(said("fatal: bad revision"), "fatal: bad revision");
        assert_eq!(said(""), "git failed");
        assert_eq!(
            GitError::NotUtf8.to_string(),
            "git printed something that is not UTF-8"
        );
        let gone = io::Error::new(io::ErrorKind::NotFound, "no such file");
        assert_eq!(
            GitError::Run(gone).to_string(),
            "git could not be run (no such file)"
        );
    }

    #[test]
    fn a_command_outside_a_repository_fails_with_git_s_complaint() {
        let dir = tempfile::tempdir().unwrap();
        let err = run(dir.path(), &["rev-parse", "--git-dir"]).unwrap_err();
        assert!(
            matches!(&err, GitError::Failed { stderr } if stderr.contains("not a git repository")),
            "{err:?}"
        );
    }
}
