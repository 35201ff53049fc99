//! One `git cat-file --batch` process: objects asked for one at a time (`rev:path` or an
//! object id) and read as committed, with no attributes applied. The git history of the
//! data (`history`) and `diff`'s two sides read blobs through it.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

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
