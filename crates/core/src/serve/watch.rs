//! Watching the inputs of a site: `content/`, `data/`, `templates/`, `locales/`, `static/`
//! and `evidence.yaml`, through notify and its full debouncer.
//!
//! The folders are watched recursively and the site root itself only at its top level
//! (for `evidence.yaml` and for an input folder created after the server started, or
//! moved away and back, or removed and made again: notify drops a folder's watch when it
//! goes, and [`Watch::follow_folders`] watches it again), so a big `target/` or `.git/`
//! next to the site costs nothing. Events are debounced (an
//! editor's save is a burst of events) and filtered: reads (the build's own included),
//! editor swap and backup files, and anything outside the inputs are ignored. What is left
//! arrives on [`Watch::changes`] as the list of changed site-relative paths, which a
//! rebuild trusts to be complete (it reads an edited page alone, not the site), unless
//! the batch says events were lost: the watcher failed, or the system's queue overflowed
//! and asked for a rescan. Then the rebuild looks at every file again.

use notify::{EventKind, RecursiveMode, event::AccessKind, event::AccessMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// Input folders of a site, watched recursively.
pub const FOLDERS: [&str; 5] = ["content", "data", "templates", "locales", "static"];

/// The site config, watched on its own.
pub const CONFIG: &str = "evidence.yaml";

/// How long a burst of events must be quiet before a rebuild starts.
pub const DEBOUNCE: Duration = Duration::from_millis(60);

/// A running watcher; dropping it stops watching.
pub struct Watch {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    root: PathBuf,
    watched: BTreeSet<&'static str>,
    /// Batches of changes.
    pub changes: Receiver<Batch>,
}

/// The changes of one debounced burst of events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    /// Changed paths, relative to the root, `/`-separated, sorted.
    pub paths: Vec<String>,
    /// Whether events may have been lost, so that other paths may have changed too.
    pub lost: bool,
}

impl Batch {
    /// Adds the changes of a later batch.
    pub fn merge(&mut self, other: Batch) {
        self.paths.extend(other.paths);
        self.paths.sort();
        self.paths.dedup();
        self.lost |= other.lost;
    }
}

impl Watch {
    /// Starts watching the inputs of the site at `root` (an absolute path).
    pub fn start(root: &Path) -> Result<Watch, WatchError> {
        let (tx, rx) = channel();
        let filter_root = root.to_path_buf();
        let handler = move |result: DebounceEventResult| {
            // A watcher error (an exhausted inotify limit, a folder gone) may hide changes:
            // the next rebuild must look at everything.
            let Ok(events) = result else {
                let _ = tx.send(Batch {
                    paths: Vec::new(),
                    lost: true,
                });
                return;
            };
            let mut changed = BTreeSet::new();
            let mut lost = false;
            for e in &events {
                // The system dropped events (its queue overflowed): rescan.
                lost |= e.need_rescan();
                if !is_change(&e.kind) {
                    continue;
                }
                for p in &e.paths {
                    if let Some(rel) = relevant(&filter_root, p) {
                        changed.insert(rel);
                    }
                }
            }
            if !changed.is_empty() || lost {
                let _ = tx.send(Batch {
                    paths: changed.into_iter().collect(),
                    lost,
                });
            }
        };
        let debouncer =
            new_debouncer(DEBOUNCE, None, handler).map_err(|e| WatchError::new(root, e))?;
        let mut watch = Watch {
            debouncer,
            root: root.to_path_buf(),
            watched: BTreeSet::new(),
            changes: rx,
        };
        watch
            .debouncer
            .watch(root, RecursiveMode::NonRecursive)
            .map_err(|e| WatchError::new(root, e))?;
        for f in FOLDERS {
            if let Err(e) = watch.attach(f) {
                eprintln!("warning: {e}; edits in {f}/ will not be seen");
            }
        }
        Ok(watch)
    }

    /// Follows the input folders after `batch`: watches again one that re-appeared (moved
    /// back, or made again after a removal), watches one made after the server started,
    /// and lets go of one that is gone.
    ///
    /// notify drops the watch of a folder that is moved away or removed, and, as the site
    /// root is watched at its top level only, does not watch it again when it comes back:
    /// without this, edits in it would go unseen. A batch that names the folder itself
    /// (created, removed, moved in or out) or lost events may hide such a change, so then
    /// the folder is watched anew; a folder watched anew may hold files no event reported,
    /// which the caller must look at (see [`Followed::Watching`]).
    pub fn follow_folders(&mut self, batch: &Batch) -> Vec<Followed> {
        let mut followed = Vec::new();
        for f in FOLDERS {
            let named = batch.lost || batch.paths.iter().any(|p| p == f);
            if self.watched.contains(f) && !named {
                continue;
            }
            let was_watched = self.watched.remove(f);
            if !self.root.join(f).is_dir() {
                if was_watched {
                    followed.push(Followed::Gone(f));
                }
                continue;
            }
            followed.push(match self.attach(f) {
                Ok(()) => Followed::Watching(f),
                Err(e) => Followed::Failed(f, e.to_string()),
            });
        }
        followed
    }

    /// Watches input folder `f` (recursively) if it exists; watching it again is harmless
    /// (notify adds to the watch it may still hold).
    fn attach(&mut self, f: &'static str) -> Result<(), WatchError> {
        let dir = self.root.join(f);
        if !dir.is_dir() {
            return Ok(());
        }
        self.debouncer
            .watch(&dir, RecursiveMode::Recursive)
            .map_err(|e| WatchError::new(&dir, e))?;
        self.watched.insert(f);
        Ok(())
    }

    /// The input folders being watched.
    pub fn folders(&self) -> impl Iterator<Item = &&'static str> {
        self.watched.iter()
    }
}

/// Why a path could not be watched: notify's error (an exhausted inotify limit, a folder
/// gone), and the path.
#[derive(Debug)]
pub struct WatchError {
    pub path: PathBuf,
    pub source: notify::Error,
}

impl WatchError {
    fn new(path: &Path, source: notify::Error) -> WatchError {
        WatchError {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl std::fmt::Display for WatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot watch {}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for WatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// What [`Watch::follow_folders`] did with an input folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Followed {
    /// Watched anew: it appeared or re-appeared. Files in it may have changed unreported
    /// before the watch was in place, so the rebuild looks at the whole folder.
    Watching(&'static str),
    /// Gone; watched again once it re-appears.
    Gone(&'static str),
    /// There, but it could not be watched (why); tried again at the next change.
    Failed(&'static str, String),
}

/// Whether an event can change the inputs: reads and opens are not changes (every build
/// opens every file), a write that closes is.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// The site-relative path of `path` when it is an input, else `None`.
fn relevant(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<&str> = rel
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (first, last) = (*parts.first()?, *parts.last()?);
    let input = if parts.len() == 1 {
        first == CONFIG || FOLDERS.contains(&first)
    } else {
        FOLDERS.contains(&first)
    };
    if !input || is_noise(last) {
        return None;
    }
    Some(parts.join("/"))
}

/// Editor droppings: hidden files, swap files, backups, vim's `4913` write test.
fn is_noise(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name == "4913"
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, ModifyKind};

    #[test]
    fn a_watch_error_names_the_path_and_notify_s_reason() {
        let e = WatchError::new(Path::new("/site/data"), notify::Error::path_not_found());
        assert_eq!(
            e.to_string(),
            format!(
                "cannot watch /site/data: {}",
                notify::Error::path_not_found()
            )
        );
    }

    #[test]
    fn keeps_inputs_only() {
        let root = Path::new("/site");
        let r = |p: &str| relevant(root, Path::new(p));
        assert_eq!(r("/site/evidence.yaml").as_deref(), Some("evidence.yaml"));
        assert_eq!(
            r("/site/data/runs/a.yaml").as_deref(),
            Some("data/runs/a.yaml")
        );
        assert_eq!(r("/site/content").as_deref(), Some("content"));
        assert_eq!(
            r("/site/static/style.css").as_deref(),
            Some("static/style.css")
        );
        assert_eq!(r("/site/site/index.html"), None);
        assert_eq!(r("/site/target/debug/x"), None);
        assert_eq!(r("/site/README.md"), None);
        assert_eq!(r("/site/content/.page.md.swp"), None);
        assert_eq!(r("/site/content/page.md~"), None);
        assert_eq!(r("/site/content/4913"), None);
        assert_eq!(r("/elsewhere/content/a.md"), None);
    }

    #[test]
    fn batches_merge_and_a_loss_is_kept() {
        let mut a = Batch {
            paths: vec!["content/b.md".into()],
            lost: false,
        };
        a.merge(Batch {
            paths: vec!["content/a.md".into(), "content/b.md".into()],
            lost: false,
        });
        assert_eq!(a.paths, ["content/a.md", "content/b.md"]);
        assert!(!a.lost);
        a.merge(Batch {
            paths: Vec::new(),
            lost: true,
        });
        assert!(
            a.lost,
            "a batch that lost events makes the rebuild look at everything"
        );
    }

    #[test]
    fn reads_are_not_changes() {
        assert!(!is_change(&EventKind::Access(AccessKind::Open(
            AccessMode::Any
        ))));
        assert!(!is_change(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(is_change(&EventKind::Access(AccessKind::Close(
            AccessMode::Write
        ))));
        assert!(is_change(&EventKind::Modify(ModifyKind::Any)));
        assert!(is_change(&EventKind::Create(CreateKind::File)));
    }

    #[test]
    fn sees_an_edit() {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("tempdir: {e}"),
        };
        let root = match dir.path().canonicalize() {
            Ok(r) => r,
            Err(e) => panic!("canonicalize: {e}"),
        };
        std::fs::create_dir_all(root.join("data")).ok();
        std::fs::write(root.join("data/a.yaml"), "a: 1\n").ok();
        let watch = match Watch::start(&root) {
            Ok(w) => w,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(watch.folders().copied().collect::<Vec<_>>(), ["data"]);
        std::fs::write(root.join("data/a.yaml"), "a: 2\n").ok();
        std::fs::write(root.join("README.md"), "x").ok();
        // One generous deadline: the test fails only if the change never arrives.
        let got = watch.changes.recv_timeout(Duration::from_secs(60));
        let want = Batch {
            paths: vec!["data/a.yaml".to_string()],
            lost: false,
        };
        assert_eq!(got.ok(), Some(want));
    }

    /// The next batch that names `path`, waiting at most a generous minute.
    fn batch_naming(watch: &Watch, path: &str) -> Batch {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match watch.changes.recv_timeout(left) {
                Ok(b) if b.paths.iter().any(|p| p == path) => return b,
                Ok(_) => {}
                Err(e) => panic!("no batch naming {path}: {e}"),
            }
        }
    }

    #[test]
    fn a_folder_moved_away_and_back_is_watched_again() {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("tempdir: {e}"),
        };
        let root = match dir.path().canonicalize() {
            Ok(r) => r.join("site"),
            Err(e) => panic!("canonicalize: {e}"),
        };
        std::fs::create_dir_all(root.join("data")).ok();
        std::fs::write(root.join("data/a.yaml"), "a: 1\n").ok();
        let mut watch = match Watch::start(&root) {
            Ok(w) => w,
            Err(e) => panic!("{e}"),
        };
        let aside = root.with_file_name("data-away");
        std::fs::rename(root.join("data"), &aside).ok();
        let gone = batch_naming(&watch, "data");
        assert_eq!(watch.follow_folders(&gone), [Followed::Gone("data")]);
        assert_eq!(watch.folders().count(), 0);
        std::fs::rename(&aside, root.join("data")).ok();
        let back = batch_naming(&watch, "data");
        assert_eq!(watch.follow_folders(&back), [Followed::Watching("data")]);
        // Watched again: an edit in it is reported.
        std::fs::write(root.join("data/a.yaml"), "a: 2\n").ok();
        batch_naming(&watch, "data/a.yaml");
        // A batch that does not name a watched folder leaves it be.
        let other = Batch {
            paths: vec!["data/a.yaml".into()],
            lost: false,
        };
        assert_eq!(watch.follow_folders(&other), []);
    }
}
