//! Reads the git history of a site's data into a [`History`]: one `git log` lists the
//! commits that touched `data/claims.yaml`, the maps' file (`data/maps.yaml` or the
//! site's `maps_file`) or `data/runs/` with the
//! files each changed, and one `git cat-file --batch` reads the claims and maps of each
//! such commit, compared with the commit before. No git, no repository or a shallow
//! clone is a [`History::unavailable`] reason, never an error.

use super::git::GitError;
use crate::model::history::{Event, History, What};
use crate::model::types::ClaimSide;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

const CLAIMS: &str = "data/claims.yaml";
const RUNS: &str = "data/runs/";

/// The history read last in this process, by site root, maps' file and the commit HEAD
/// was at: `serve` rebuilds on every save, and the history (of commits only) changes only
/// when HEAD moves.
type Last = (std::path::PathBuf, String, String, History);
static LAST: std::sync::Mutex<Option<Last>> = std::sync::Mutex::new(None);

/// The history of the data of the site at `root`, whose maps are in `maps_file` (its path
/// under `data/`).
pub fn read(root: &Path, maps_file: &str) -> History {
    let maps = format!("data/{maps_file}");
    let head = git(root, &["rev-parse", "HEAD"])
        .ok()
        .map(|h| h.trim().to_string());
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let (Some(head), Some((r, m, h, history))) = (&head, last.as_ref())
        && r == root
        && *m == maps
        && h == head
    {
        return history.clone();
    }
    let history = match events(root, &maps) {
        Ok((events, commits)) => History {
            events,
            commits,
            unavailable: None,
        },
        Err(why) => History {
            unavailable: Some(why.to_string()),
            ..History::default()
        },
    };
    // Only a history read whole is kept: a shallow clone may be deepened at the same HEAD.
    if let Some(head) = head.filter(|_| history.unavailable.is_none()) {
        *last = Some((root.to_path_buf(), maps, head, history.clone()));
    }
    history
}

/// Why the history could not be read. `Display` is the build's note, on one line.
#[derive(Debug)]
enum Unavailable {
    /// The site is in no git repository (or git could not be run to say).
    NotARepository(GitError),
    /// The repository is a shallow clone: the history it holds is cut short.
    Shallow,
    /// A git command failed.
    Git(GitError),
    /// `git log` printed a commit in a form this reader does not know.
    LogForm,
    /// Reading a blob through `git cat-file` failed.
    CatFile(std::io::Error),
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unavailable::NotARepository(e) => {
                write!(f, "not a git repository ({})", first_line(e))
            }
            Unavailable::Shallow => write!(
                f,
                "a shallow clone holds only part of the history: fetch all of it \
                 (`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout)"
            ),
            Unavailable::Git(e) => write!(f, "{}", first_line(e)),
            Unavailable::LogForm => write!(f, "git log printed a commit in an unexpected form"),
            Unavailable::CatFile(e) => write!(f, "git cat-file: {e}"),
        }
    }
}

impl std::error::Error for Unavailable {}

impl From<GitError> for Unavailable {
    fn from(e: GitError) -> Unavailable {
        Unavailable::Git(e)
    }
}

/// The first line of what git said: the note is one line, and git says why first (a hint
/// such as `safe.directory`'s follows).
fn first_line(e: &GitError) -> String {
    e.to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// `git -C root ARGS`, its standard output, or why it failed.
fn git(root: &Path, args: &[&str]) -> Result<String, GitError> {
    super::git::text(root, args)
}

/// One commit of the log and the site files it added (`A`), changed (`M`) or deleted (`D`).
struct Commit {
    hash: String,
    date: String,
    subject: String,
    files: Vec<(char, String)>,
}

fn log(root: &Path, prefix: &str, maps: &str) -> Result<Vec<Commit>, Unavailable> {
    let text = git(
        root,
        &[
            "log",
            "--reverse",
            "--no-renames",
            "--name-status",
            "--format=%x01%H%x00%cI%x00%s",
            "--",
            CLAIMS,
            maps,
            RUNS,
        ],
    )?;
    let mut out = Vec::new();
    for record in text.split('\u{1}').skip(1) {
        let mut lines = record.lines();
        let head: Vec<&str> = lines.next().unwrap_or_default().split('\0').collect();
        let [hash, date, subject] = head[..] else {
            return Err(Unavailable::LogForm);
        };
        let files = lines
            .filter_map(|l| {
                let (status, path) = l.split_once('\t')?;
                let path = path.strip_prefix(prefix)?;
                Some((status.chars().next()?, path.to_string()))
            })
            .collect();
        out.push(Commit {
            hash: hash.into(),
            date: date.into(),
            subject: subject.into(),
            files,
        });
    }
    Ok(out)
}

/// Blobs by `rev:path`, through the one `git cat-file --batch` reader.
struct Blobs(super::git::CatFile);

impl Blobs {
    fn open(root: &Path) -> Result<Blobs, Unavailable> {
        super::git::CatFile::open(root)
            .map(Blobs)
            .map_err(|e| Unavailable::Git(GitError::Run(e)))
    }

    /// The text of `path` at `commit`, `None` when it is not there.
    fn get(&mut self, commit: &str, path: &str) -> Result<Option<String>, Unavailable> {
        let failed = Unavailable::CatFile;
        let Some(object) = self.0.ask(&format!("{commit}:{path}")).map_err(failed)? else {
            return Ok(None);
        };
        let mut body = Vec::new();
        self.0
            .body(object.size)
            .read_to_end(&mut body)
            .map_err(failed)?;
        self.0.end().map_err(failed)?;
        Ok((object.kind == "blob").then(|| String::from_utf8_lossy(&body).into_owned()))
    }
}

/// The records of a YAML list (or of `key` in a YAML mapping) by id; nothing for a file
/// that does not parse (that commit's own check said so then).
fn by_id(file: &str, text: Option<&str>, key: Option<&str>) -> BTreeMap<String, Value> {
    let Some(text) = text else {
        return BTreeMap::new();
    };
    let Ok(v) = super::yaml::parse::<Value>(file, text, 0) else {
        return BTreeMap::new();
    };
    let list = match key {
        Some(k) => v.get(k).cloned().unwrap_or(Value::Null),
        None => v,
    };
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| Some((r.get("id")?.as_str()?.to_string(), r.clone())))
        .collect()
}

/// The run ids a claim cites in its evidence.
fn cited_runs(claim: &Value) -> BTreeSet<String> {
    claim["evidence"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e.as_str()?.strip_prefix("run:").map(String::from))
        .collect()
}

/// The side a claim says it moved from, when it says so and did not say the same before.
fn declared_move(now: &Value, before: Option<&Value>) -> Option<ClaimSide> {
    let m = now.get("moved")?;
    if before.and_then(|b| b.get("moved")) == Some(m) {
        return None;
    }
    // A new claim moved from its own other side had no other side to move from.
    if before.is_none() && m.get("claim").is_none() {
        return None;
    }
    match m.get("from")?.as_str()? {
        "cannot" => Some(ClaimSide::Cannot),
        "can" => Some(ClaimSide::Can),
        _ => None,
    }
}

/// A side copied word for word from the other side of a claim of the commit before.
fn copied_move(now: &Value, before: &BTreeMap<String, Value>) -> Option<ClaimSide> {
    let same = |a: &Value, b: &Value| a.is_object() && a == b;
    if before.values().any(|b| same(&now["can"], &b["cannot"])) {
        Some(ClaimSide::Cannot)
    } else if before.values().any(|b| same(&now["cannot"], &b["can"])) {
        Some(ClaimSide::Can)
    } else {
        None
    }
}

fn events(root: &Path, maps_path: &str) -> Result<(Vec<Event>, usize), Unavailable> {
    git(root, &["rev-parse", "--git-dir"]).map_err(Unavailable::NotARepository)?;
    if git(root, &["rev-parse", "--is-shallow-repository"])?.trim() == "true" {
        return Err(Unavailable::Shallow);
    }
    let prefix = git(root, &["rev-parse", "--show-prefix"])?
        .trim()
        .to_string();
    let commits = log(root, &prefix, maps_path)?;
    let mut blobs = Blobs::open(root)?;
    let mut claims: BTreeMap<String, Value> = BTreeMap::new();
    let mut maps: BTreeMap<String, Value> = BTreeMap::new();
    let mut events = Vec::new();
    for c in &commits {
        let mut push = |what: What| {
            events.push(Event {
                commit: c.hash.clone(),
                date: c.date.clone(),
                subject: c.subject.clone(),
                what,
            })
        };
        let added_runs: Vec<String> = c
            .files
            .iter()
            .filter(|(s, p)| *s == 'A' && p.starts_with(RUNS))
            .map(|(_, p)| p.clone())
            .collect();
        let touched = |file: &str| c.files.iter().any(|(_, p)| p == file);
        if touched(maps_path) {
            let text = blobs.get(&c.hash, &format!("{prefix}{maps_path}"))?;
            let now = by_id(maps_path, text.as_deref(), Some("maps"));
            for (id, v) in &now {
                match maps.get(id) {
                    None => push(What::MapAdded { map: id.clone() }),
                    Some(old) if old != v => push(What::MapChanged { map: id.clone() }),
                    _ => {}
                }
            }
            for id in maps.keys().filter(|id| !now.contains_key(*id)) {
                push(What::MapRemoved { map: id.clone() });
            }
            maps = now;
        }
        for f in &added_runs {
            push(What::RunAdded { file: f.clone() });
        }
        if touched(CLAIMS) {
            let text = blobs.get(&c.hash, &format!("{prefix}{CLAIMS}"))?;
            let now = by_id(CLAIMS, text.as_deref(), None);
            for (id, v) in &now {
                let before = claims.get(id);
                if before.is_none() {
                    push(What::ClaimAdded { claim: id.clone() });
                }
                let Some(from) = declared_move(v, before).or_else(|| copied_move(v, &claims))
                else {
                    continue;
                };
                let old = before.map(cited_runs).unwrap_or_default();
                let mut runs: Vec<String> = cited_runs(v).difference(&old).cloned().collect();
                if runs.is_empty() {
                    runs = added_runs.iter().filter_map(|f| run_stem(f)).collect();
                }
                push(What::ClaimMoved {
                    claim: id.clone(),
                    from,
                    runs,
                });
            }
            claims = now;
        }
    }
    Ok((events, commits.len()))
}

/// `r2` for `data/runs/r2.yaml`: a run file is named by its run's id.
fn run_stem(file: &str) -> Option<String> {
    Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_is_the_message_of_old_on_one_line() {
        assert_eq!(
            Unavailable::Shallow.to_string(),
            "a shallow clone holds only part of the history: fetch all of it \
             (`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout)"
        );
        let dubious = GitError::Failed {
            stderr: "fatal: detected dubious ownership in repository at '/r'\n\
                     To add an exception for this directory, call:"
                .into(),
        };
        assert_eq!(
            Unavailable::NotARepository(dubious).to_string(),
            "not a git repository (fatal: detected dubious ownership in repository at '/r')"
        );
        let cut = std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "cut short");
        assert_eq!(
            Unavailable::CatFile(cut).to_string(),
            "git cat-file: cut short"
        );
    }
}
