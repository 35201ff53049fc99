//! Stage 6: put the rendered site on disk, all or nothing, or compare it with what is there.
//!
//! The site is written into a temporary sibling folder, which then takes the place of the
//! output folder by rename. A build that fails or is interrupted before the swap leaves
//! the previous output as it was.

use crate::render::Site;
use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

/// Writes `site` to `out` atomically (from the point of view of readers of `out`).
pub fn write(site: &Site, out: &Path) -> io::Result<()> {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or("site");
    let tmp = unique(parent, &format!("{name}.tmp-"));
    let result = write_tree(site, &tmp).and_then(|()| swap(&tmp, out, parent, name));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn write_tree(site: &Site, dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut made: BTreeSet<PathBuf> = BTreeSet::new();
    for (rel, bytes) in &site.files {
        let path = dir.join(rel);
        if let Some(p) = path.parent()
            && made.insert(p.to_path_buf())
        {
            std::fs::create_dir_all(p)?;
        }
        std::fs::write(&path, bytes)?;
    }
    Ok(())
}

/// Moves the old output aside, the new one in, and removes the old one.
fn swap(tmp: &Path, out: &Path, parent: &Path, name: &str) -> io::Result<()> {
    if out.exists() {
        let old = unique(parent, &format!(".{name}.old-"));
        std::fs::rename(out, &old)?;
        if let Err(e) = std::fs::rename(tmp, out) {
            let _ = std::fs::rename(&old, out);
            return Err(e);
        }
        std::fs::remove_dir_all(&old)?;
    } else {
        std::fs::rename(tmp, out)?;
    }
    Ok(())
}

/// A path in `dir` starting with `prefix` that does not exist yet.
fn unique(dir: &Path, prefix: &str) -> PathBuf {
    let pid = std::process::id();
    (0u32..)
        .map(|i| dir.join(format!("{prefix}{pid}-{i}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{prefix}{pid}")))
}

/// How the output on disk differs from a fresh build.
#[derive(Debug, Default, PartialEq)]
pub struct Staleness {
    pub changed: Vec<String>,
    pub missing: Vec<String>,
    pub extra: Vec<String>,
}

impl Staleness {
    pub fn is_fresh(&self) -> bool {
        self.changed.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }
}

/// Compares `site` with the files under `out`.
pub fn compare(site: &Site, out: &Path) -> Staleness {
    let mut st = Staleness::default();
    let on_disk: BTreeSet<String> = crate::load::files_under(out);
    for (rel, bytes) in &site.files {
        match std::fs::read(out.join(rel)) {
            Ok(b) if &b == bytes => {}
            Ok(_) => st.changed.push(rel.clone()),
            Err(_) => st.missing.push(rel.clone()),
        }
    }
    st.extra = on_disk
        .into_iter()
        .filter(|f| !site.files.contains_key(f))
        .collect();
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(files: &[(&str, &str)]) -> Site {
        Site {
            files: files
                .iter()
                .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
                .collect(),
        }
    }

    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(&site(&[("a/index.html", "1"), ("b.txt", "x")]), &out).unwrap();
        write(&site(&[("a/index.html", "2")]), &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("a/index.html")).unwrap(),
            "2"
        );
        assert!(!out.join("b.txt").exists());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary folders remain");
    }

    #[test]
    fn compare_finds_changes() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        write(&site(&[("a.html", "1"), ("b.html", "2")]), &out).unwrap();
        let st = compare(
            &site(&[("a.html", "1"), ("b.html", "3"), ("c.html", "")]),
            &out,
        );
        assert_eq!(st.changed, vec!["b.html"]);
        assert_eq!(st.missing, vec!["c.html"]);
        assert!(st.extra.is_empty());
        let st = compare(&site(&[("a.html", "1")]), &out);
        assert_eq!(st.extra, vec!["b.html"]);
    }
}
