//! Putting a finished staging folder in place of the output.
//!
//! On Linux the two folders trade places in one `renameat2(RENAME_EXCHANGE)`, so the output
//! path always names a complete site: the old one until the call, the new one after it.
//! Where that call is missing (other systems, or a file system that does not support it)
//! the old output is renamed aside first; a build killed between the two renames leaves no
//! output, and the next build's [`Output::claim`](super::output::Output::claim) moves the
//! old one back.

use super::output::{Output, remove_tree};
use std::io;
use std::path::Path;

/// Moves `tmp` to the output and removes the old output.
pub(crate) fn swap(tmp: &Path, out: &Output) -> io::Result<()> {
    if std::fs::symlink_metadata(&out.path).is_err() {
        return std::fs::rename(tmp, &out.path);
    }
    if exchange(tmp, &out.path)? {
        // `tmp` now names the old output; a build killed during its removal leaves a
        // marked staging folder that the next build removes.
        return remove_tree(tmp);
    }
    let old = super::unique(&out.parent, &out.old_prefix());
    std::fs::rename(&out.path, &old)?;
    if let Err(e) = std::fs::rename(tmp, &out.path) {
        let _ = std::fs::rename(&old, &out.path);
        return Err(e);
    }
    remove_tree(&old)
}

/// Swaps two paths atomically. `Ok(false)` when the system cannot (then nothing moved).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<bool> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
        Ok(()) => Ok(true),
        Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => Ok(false),
        Err(e) => Err(e.into()),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<bool> {
    Ok(false)
}
