//! Stage 1: read `evidence.yaml`, `data/**/*.yaml`, `content/**/*.md` and the theme.
//!
//! Output is [`Sources`]: typed but unresolved records, each knowing its file, plus every
//! problem found so far. Loading goes on past a bad file so `check` can report them all.

pub mod cache;
pub mod git;
pub mod history;
pub mod messages;
pub mod page;
pub mod read;
pub mod theme;
pub mod walk;
pub mod yaml;

use crate::diagnostics::{Diagnostic, Diagnostics, Span, rel_path};
use crate::model::page::PageSource;
use crate::model::refs::Kind;
use crate::model::registry;
use crate::model::types::*;
use crate::model::{DataSet, Located};
use std::path::{Path, PathBuf};
use std::sync::Arc;
pub use theme::Theme;

/// Everything read from disk.
#[derive(Debug, Clone)]
pub struct Sources {
    pub root: PathBuf,
    pub config: SiteConfig,
    pub data: DataSet,
    pub pages: Vec<PageSource>,
    pub theme: Theme,
    /// The parsed data files, kept when loading with a cache ([`load_with`]).
    pub parsed: Option<ParseCache>,
}

/// Reads a whole site. Fails outright only when the config is missing or broken;
/// other problems come back as diagnostics next to what could be read.
pub fn load(root: &Path) -> Result<(Sources, Diagnostics), Diagnostics> {
    load_with(root, Reuse::default())
}

/// What a load may reuse instead of parsing a data file again.
#[derive(Clone, Copy, Default)]
pub struct Reuse<'a> {
    /// An earlier load in this process (`serve`): `Sources::parsed` is then the cache
    /// for the next load.
    pub memory: Option<&'a ParseCache>,
    /// The parse cache on disk.
    pub disk: Option<&'a cache::DiskCache>,
    /// The paths (relative to the root, `/`-separated) that changed since the load
    /// `memory` holds, as a file watcher reported them, when it lost none: the folders are
    /// then not listed again, and other files are taken from `memory` without a look.
    /// `None`: anything may have changed.
    pub changed: Option<&'a [String]>,
}

impl<'a> Reuse<'a> {
    /// Reuse what the parse cache on disk holds, if there is one.
    pub fn disk(disk: Option<&'a cache::DiskCache>) -> Reuse<'a> {
        Reuse {
            memory: None,
            disk,
            changed: None,
        }
    }

    /// The listing of folder `dir` (`"content"`, `"data"`) that the last load made, when
    /// it can stand for a new one: the changes are known, none is the config (which
    /// decides how data files parse) and each under `dir` is a file of the listing that
    /// is still a regular file (an edit, not a file added, removed or replaced by a
    /// folder or a link); the last listing found no problem and followed no symlink
    /// (whose target may change unseen).
    fn listing(&self, root: &Path, dir: &str) -> Option<Listing> {
        let changed = self.changed?;
        let listing = self.memory?.listings.get(dir)?;
        let prefix = format!("{dir}/");
        for path in changed {
            if path == "evidence.yaml" {
                return None;
            }
            if path != dir && !path.starts_with(&prefix) {
                continue;
            }
            let full = root.join(path);
            let file = std::fs::symlink_metadata(&full).is_ok_and(|m| m.file_type().is_file());
            if !file || listing.binary_search(&full).is_err() {
                return None;
            }
        }
        Some(Arc::clone(listing))
    }

    /// Folder `dir` listed: the last load's listing where [`Reuse::listing`] says it
    /// holds, else walked again. Also what listing it found wrong, whether it followed a
    /// symlink, and whether the last listing was taken (so unreported files are as found).
    fn list(&self, root: &Path, dir: &str) -> (Listing, Vec<Diagnostic>, bool, bool) {
        match self.listing(root, dir) {
            Some(l) => (l, Vec::new(), false, true),
            None => {
                let (l, problems, linked) = walk::files_and_links(root, dir);
                (Arc::new(l), problems, linked, false)
            }
        }
    }

    /// Whether the file `rel` is known to be as the last load found it.
    fn unchanged(&self, rel: &str) -> bool {
        // A changed config may change how every file parses.
        self.changed
            .is_some_and(|c| !c.iter().any(|p| p == rel || p == "evidence.yaml"))
    }
}

/// [`load`], reusing the data files `reuse` holds parsed when their text is unchanged.
pub fn load_with(root: &Path, reuse: Reuse) -> Result<(Sources, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    let config = load_config(root).map_err(|d| {
        let mut ds = Diagnostics::default();
        ds.push(*d);
        ds
    })?;
    // The data (large run files) and the pages with the theme load side by side.
    let ((mut data, parsed, data_diags), (pages, theme, page_diags, pages_incomplete)) =
        rayon::join(
            || {
                let mut d = Diagnostics::default();
                let (data, parsed) = load_data(root, &config, &mut d, reuse);
                (data, parsed, d)
            },
            || {
                let mut d = Diagnostics::default();
                let (pages, incomplete, cached) =
                    load_pages(root, config.languages(), reuse, &mut d);
                let theme = Theme::load(root, &config, &mut d);
                (pages, theme, d, (incomplete, cached))
            },
        );
    let (pages_incomplete, (cached_pages, listing)) = pages_incomplete;
    let parsed = parsed.map(|mut p| {
        p.pages = cached_pages;
        if let Some(l) = listing {
            p.listings.insert("content", l);
        }
        p
    });
    diags.extend(data_diags);
    diags.extend(page_diags);
    if pages_incomplete {
        data.incomplete.insert(Kind::Page);
    }
    let sources = Sources {
        root: root.to_path_buf(),
        config,
        data,
        pages,
        theme,
        parsed,
    };
    Ok((sources, diags))
}

/// Reads `evidence.yaml` alone: its languages, then the rest (every text in each of them).
pub fn config(root: &Path) -> Result<SiteConfig, Box<Diagnostic>> {
    load_config(root)
}

fn load_config(root: &Path) -> Result<SiteConfig, Box<Diagnostic>> {
    let path = root.join("evidence.yaml");
    outside_link("evidence.yaml", root, &path).map_err(Box::new)?;
    let text = read::read_text(&path, read::SOURCE).map_err(|e| {
        let hint = match e {
            read::ReadError::Io(_) => {
                "run evidence in the folder that holds evidence.yaml, or pass --root DIR"
            }
            _ => "evidence.yaml is a regular UTF-8 text file",
        };
        let mut d = read_error("evidence.yaml", &e).with_hint(hint);
        d.code = "config";
        Box::new(d)
    })?;
    // The languages first: every text of the config itself must have each of them.
    let config_error = |at: Option<&crate::model::Id>, message: String| {
        let span = match at {
            Some(id) => crate::model::span_of("evidence.yaml", id),
            None => Span::file("evidence.yaml"),
        };
        let mut d = Diagnostic::error("config", span, message)
            .with_hint("name the site's languages as BCP 47 tags, e.g. `languages: [ja, en]`");
        d.code = "config";
        Box::new(d)
    };
    let langs = yaml::parse::<LanguagesOnly>("evidence.yaml", &text, 0)?
        .resolve()
        .map_err(|(at, message)| config_error(at, message))?;
    let mut config = crate::model::lang::expecting(langs, || {
        yaml::parse::<SiteConfig>("evidence.yaml", &text, 0)
    })?;
    config
        .resolve(langs)
        .map_err(|(at, message)| config_error(Some(at), message))?;
    if let Some(p) = config
        .packs
        .iter()
        .find(|p| crate::model::pack::named(&p.value).is_none())
    {
        let mut d = Diagnostic::error(
            "config",
            crate::model::span_of("evidence.yaml", p),
            format!("unknown pack `{}`", p.value),
        )
        .with_hint(format!(
            "the packs this build knows: {}",
            crate::model::pack::names()
        ));
        d.code = "config";
        return Err(Box::new(d));
    }
    if let Some(d) = bad_maps_file(&config) {
        return Err(Box::new(d));
    }
    Ok(config)
}

/// A `maps_file:` that cannot hold the maps: not a `.yaml` file under `data/` (outside
/// `data/probes/`), or a file another kind or a declared collection is written in.
fn bad_maps_file(config: &SiteConfig) -> Option<Diagnostic> {
    let at = config.maps_file.as_ref()?;
    let file = at.value.as_str();
    let other_kind = file != registry::MAPS_FILE && !registry::kinds_in(file).is_empty();
    let usable = file.ends_with(".yaml")
        && !file.contains("..")
        && !file.starts_with('/')
        && !file.starts_with("probes/")
        && !other_kind
        && config.collection_in(file).is_none();
    if usable {
        return None;
    }
    let mut d = Diagnostic::error(
        "config",
        crate::model::span_of("evidence.yaml", at),
        format!("the decision maps cannot be written in `data/{file}`"),
    )
    .with_hint(
        "name, as a path under data/, a `.yaml` file that no other kind or collection uses \
         (and not under data/probes/); without `maps_file:` they are in data/maps.yaml",
    );
    d.code = "config";
    Some(d)
}

/// The error for a page `rel` whose id `id` (its path under `content/`) has a segment
/// that is not a URL path segment as it stands: ASCII letters, digits, `-`, `_` and `.`
/// only. Any other character needs escaping in a link (`x?y` ends the path at `?`,
/// `%2e%2e` reads as `..`), and the nav, `@/` links and search results use ids as
/// written.
fn page_name(rel: &str, id: &str) -> Option<Diagnostic> {
    let bad = id
        .split('/')
        .find(|segment| !crate::model::refs::valid_id(segment))?;
    let last = id.rsplit('/').next() == Some(bad);
    let (what, suggested) = match last {
        true => ("file name", format!("{}.md", segment_like(bad))),
        false => ("folder name", segment_like(bad)),
    };
    Some(
        Diagnostic::error(
            "page-name",
            Span::new(rel, 1, 1),
            format!(
                "the {what} `{bad}` cannot be a page's URL as it stands; a page's path may \
                 hold only ASCII letters, digits, `-`, `_` and `.`"
            ),
        )
        .with_hint(format!("rename it, e.g. to `{suggested}`")),
    )
}

/// `name` with each run of characters a path segment cannot hold as it stands replaced
/// by one `-`, without `-` at either end (`page` when nothing is left).
fn segment_like(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.') || c == '-' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-');
    if out.is_empty() || out.starts_with('.') {
        format!("page{out}")
    } else {
        out.to_string()
    }
}

/// Refuses, unread, a file `rel` at `path` that a symlink takes out of the site at `root`
/// (`evidence.yaml -> /etc/passwd` would otherwise be parsed and quoted).
fn outside_link(rel: &str, root: &Path, path: &Path) -> Result<(), Diagnostic> {
    let (Ok(inside), Ok(real)) = (std::fs::canonicalize(root), std::fs::canonicalize(path)) else {
        return Ok(()); // missing or unreadable: reading says why
    };
    if real.starts_with(&inside) {
        return Ok(());
    }
    Err(Diagnostic::error(
        "io",
        Span::new(rel, 1, 1),
        format!(
            "is a symlink to `{}`, outside the site folder",
            real.display()
        ),
    )
    .with_hint("copy the file into the site, or link to a file inside it"))
}

/// The diagnostic for a file `rel` that could not be read: at its first bad byte when it
/// is not UTF-8, else at its start.
pub fn read_error(rel: &str, e: &read::ReadError) -> Diagnostic {
    let span = match *e {
        read::ReadError::NotUtf8 { line, column, .. } => Span::new(rel, line, column),
        _ => Span::new(rel, 1, 1),
    };
    let d = Diagnostic::error("io", span, e.to_string());
    match e {
        read::ReadError::NotUtf8 { .. } => d.with_hint("save the file as UTF-8"),
        _ => d,
    }
}

/// The text of the site file `path`, or a located diagnostic.
fn read_source(root: &Path, path: &Path) -> Result<String, Diagnostic> {
    read::read_text(path, read::SOURCE).map_err(|e| read_error(&rel_path(root, path), &e))
}

fn has_ext(path: &Path, ext: &str) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some(ext)
}

/// The kinds of records a problem with `under` (a path under `data/`, `""` for the folder
/// itself) may have kept from loading.
fn kinds_under(under: &str) -> Vec<Kind> {
    if under.is_empty() {
        return registry::KINDS
            .iter()
            .chain(crate::model::pack::kinds())
            .filter(|s| s.storage != registry::Storage::Pages)
            .map(|s| s.kind)
            .collect();
    }
    // The folder of a kind written one record per file.
    let folder = format!("{under}/");
    let held = registry::kinds_in(&folder);
    if held.is_empty() {
        registry::kinds_in(under)
    } else {
        held
    }
}

/// Files parsed by an earlier load, by path: `serve` parses again only the files an edit
/// changed (a run file, once written, never does). Data files are known by a hash of their
/// text; pages by their file's stamp (size, times, inode), so that an unchanged page is
/// not even read: a site of ten thousand pages is tens of megabytes of markdown, and a
/// one-line edit must not read them all again.
#[derive(Debug, Clone, Default)]
pub struct ParseCache {
    data: std::collections::HashMap<String, (u64, Parsed)>,
    pages: PageCache,
    /// Folder (`content`, `data`) → the files its listing found, sorted, when it found
    /// no problem and followed no symlink (see [`Reuse::changed`]).
    listings: std::collections::HashMap<&'static str, Listing>,
}

/// The files a folder's listing found, sorted.
type Listing = Arc<Vec<PathBuf>>;

/// Pages by path, as an earlier load parsed them.
type PageCache = std::collections::HashMap<String, Arc<CachedPage>>;

/// A page as an earlier load parsed it, with what it found.
#[derive(Debug, Clone)]
struct CachedPage {
    stamp: Stamp,
    /// The languages it was parsed for: parsed for others, it must be parsed again.
    langs: &'static [crate::model::page::Lang],
    /// `None` when it did not parse.
    page: Option<PageSource>,
    found: Diagnostics,
}

/// What tells that a file is the one read before without reading it: its size, its
/// modification and status-change times (to the nanosecond where the file system keeps
/// them) and, on Unix, its inode, so a file replaced by a rename is read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    changed: (i64, i64),
    inode: u64,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let m = std::fs::symlink_metadata(path).ok()?;
        #[cfg(unix)]
        let (changed, inode) = {
            use std::os::unix::fs::MetadataExt;
            ((m.ctime(), m.ctime_nsec()), m.ino())
        };
        #[cfg(not(unix))]
        let (changed, inode) = ((0, 0), 0);
        Some(Stamp {
            len: m.len(),
            modified: m.modified().ok(),
            changed,
            inode,
        })
    }
}

fn text_hash(langs: &str, text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    // A file parsed for other languages was checked against them: it must parse again.
    langs.hash(&mut h);
    text.hash(&mut h);
    h.finish()
}

/// Reads the data files, reusing what `reuse` holds for unchanged files; with a memory
/// cache, returns the cache for the next load.
fn load_data(
    root: &Path,
    config: &SiteConfig,
    diags: &mut Diagnostics,
    reuse: Reuse,
) -> (DataSet, Option<ParseCache>) {
    use rayon::prelude::*;
    let mut set = DataSet::default();
    // Listed again unless the watcher's changes say the last listing holds.
    let (listed, problems, linked, trust) = reuse.list(root, "data");
    let clean = problems.is_empty() && !linked;
    for d in problems {
        // What could not be listed is missing: references into it are not dangling.
        // `data/x` → `x`; `data` itself → everything.
        let under = d.span.file.strip_prefix("data/").unwrap_or("");
        set.incomplete
            .extend(kinds_under(registry_name(config, under)));
        diags.push(d);
    }
    let job = DataJob {
        root,
        config,
        codes: parse_codes(config),
        reuse: &reuse,
        trust,
    };
    // Files are read and parsed in parallel (a sweep's run file is megabytes of YAML),
    // then merged in path order, so records and diagnostics keep a stable order. One file
    // a job: rayon otherwise hands a thread a run of files it works through alone, and at
    // the end one thread parsed the last hundred files while the other waited (a fifth of
    // the load of a thousand run files).
    let mut parsed: Vec<ParsedFile> = largest_first(&listed, trust)
        .par_iter()
        .with_max_len(1)
        .filter_map(|(i, path)| job.parse(*i, path))
        .collect();
    parsed.sort_by_key(|f| f.index);
    if let Some(disk) = reuse.disk {
        let (read, parsed) = disk.counts();
        crate::timings::note(|| format!("parse cache {read} read, {parsed} parsed"));
    }
    let mut next = reuse.memory.map(|_| ParseCache::default());
    if let Some(n) = next.as_mut().filter(|_| clean) {
        n.listings.insert("data", Arc::clone(&listed));
    }
    for file in parsed {
        merge_file(config, file, &mut set, next.as_mut(), diags);
    }
    for path in listed.iter().filter(|p| has_ext(p, "yml")) {
        diags.push(
            Diagnostic::error(
                "data-file",
                Span::file(rel_path(root, path)),
                "data files end in `.yaml`",
            )
            .with_hint("rename the file to .yaml"),
        );
    }
    (set, next)
}

/// What a parse depends on besides the text: the languages texts must have, the packs
/// whose fields runs may hold, and the maps' file name (it decides which kinds a file
/// holds).
fn parse_codes(config: &SiteConfig) -> String {
    format!(
        "{}+{}+{}",
        crate::model::lang::list_codes(config.languages()),
        config
            .pack_list()
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(","),
        config.maps_file()
    )
}

/// The `.yaml` files of `listed`, each with its place in the listing, largest first, so
/// that one big run file does not start last and finish alone. The size only orders the
/// work: a file whose size cannot be read is read like any other, and the read reports
/// what is wrong with it; in a listing that holds (`trust`), sizes are not looked up.
fn largest_first(listed: &[PathBuf], trust: bool) -> Vec<(usize, PathBuf)> {
    let mut files: Vec<(u64, usize, PathBuf)> = listed
        .iter()
        .filter(|p| has_ext(p, "yaml"))
        .enumerate()
        .map(|(i, p)| {
            let size = match trust {
                true => 0,
                false => std::fs::metadata(p).map_or(0, |m| m.len()),
            };
            (size, i, p.clone())
        })
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    files.into_iter().map(|(_, i, p)| (i, p)).collect()
}

/// One data file as a load job parsed it.
struct ParsedFile {
    /// Its place in the listing, the order records and diagnostics are merged in.
    index: usize,
    /// Its path from the root.
    rel: String,
    result: Result<Parsed, Diagnostic>,
    /// The hash of its text, for the in-memory cache (0 when there is none).
    hash: u64,
}

/// What parsing one data file needs, shared by the parallel jobs of a load.
struct DataJob<'a> {
    root: &'a Path,
    config: &'a SiteConfig,
    /// [`parse_codes`] of the config.
    codes: String,
    reuse: &'a Reuse<'a>,
    /// Whether the listing holds, so an unchanged file may be taken from memory unread.
    trust: bool,
}

impl DataJob<'_> {
    /// The file at `path` (`index` in the listing): read and parsed, or taken from a
    /// cache; none for a file under `probes/` that is a pack's probe input.
    fn parse(&self, index: usize, path: &Path) -> Option<ParsedFile> {
        let rel = rel_path(self.root, path);
        let done = |rel: String, result, hash| {
            Some(ParsedFile {
                index,
                rel,
                result,
                hash,
            })
        };
        let under = rel.strip_prefix("data/").unwrap_or(&rel).to_string();
        // A declared probe is read (and checked, never run) here; the other files there
        // are a pack's probe inputs (cases files), read by `evidence probe`.
        if under.starts_with("probes/") {
            let text = match read_source(self.root, path) {
                Ok(t) => t,
                Err(d) => return done(rel, Err(d), 0),
            };
            if !crate::model::probe_file::is_declared(&text) {
                return None;
            }
            let result = yaml::parse(&rel, &text, 0)
                .map(|p| Parsed::Probe(Box::new(p)))
                .map_err(|d| *d);
            return done(rel, result, 0);
        }
        let config = self.config;
        if let Some(d) = maps_elsewhere(config, &under, &rel) {
            return done(rel, Err(d), 0);
        }
        let under = registry_name(config, &under);
        if let Some(d) = pack_off(config, under, &rel) {
            return done(rel, Err(d), 0);
        }
        let cache = self.reuse.memory;
        // Unchanged since the last load, which parsed it, in a listing that holds: taken
        // as it was, unread. (A declared collection's file is parsed each time, see below.)
        if self.trust
            && self.reuse.unchanged(&rel)
            && config.collection_in(under).is_none()
            && let Some((hash, p)) = cache.and_then(|c| c.data.get(&rel))
        {
            let (p, hash) = (p.clone(), *hash);
            return done(rel, Ok(p), hash);
        }
        let text = match read_source(self.root, path) {
            Ok(t) => t,
            Err(d) => return done(rel, Err(d), 0),
        };
        let hash = cache.map(|_| text_hash(&self.codes, &text)).unwrap_or(0);
        let known = cache
            .and_then(|c| c.data.get(&rel))
            .filter(|(h, _)| *h == hash)
            .map(|(_, p)| Ok(p.clone()));
        // A declared collection's records are parsed by its declaration in
        // `evidence.yaml`, which the caches do not key on: they are parsed each time.
        if let Some(spec) = config.collection_in(under) {
            let result = parse_declared(&spec.name.value, &rel, &text);
            return done(rel, result, hash);
        }
        // Inside `expecting`: a parse checks the texts' languages, a cache hit reads the
        // site's tags without parsing them.
        let result = known.unwrap_or_else(|| {
            crate::model::lang::expecting(config.languages(), || {
                crate::model::fields::expecting(config.pack_list(), || {
                    self.parse_text(under, &rel, &text)
                })
            })
        });
        done(rel, result, hash)
    }

    /// Parses the data file `rel` (`under` is its name under `data/`): a run file through
    /// the disk cache, when there is one, as runs are what grows large and once recorded
    /// never changes; any other by the collection its name selects.
    fn parse_text(&self, under: &str, rel: &str, text: &str) -> Result<Parsed, Diagnostic> {
        match self.reuse.disk {
            Some(disk) if registry::kinds_in(under).first() == Some(&Kind::Run) => disk
                .run(rel, &self.codes, text, || {
                    yaml::parse_run(rel, text).map_err(|d| *d)
                })
                .map(|run| Parsed::Core(vec![KindRecords::Run(vec![run])])),
            _ => parse_data_file(under, rel, text),
        }
    }
}

/// Merges one parsed file into `set`, in listing order, and keeps it for the next load's
/// in-memory cache (`next`); a file that failed leaves its kinds incomplete, so that
/// references into it are not reported as dangling.
fn merge_file(
    config: &SiteConfig,
    file: ParsedFile,
    set: &mut DataSet,
    next: Option<&mut ParseCache>,
    diags: &mut Diagnostics,
) {
    let ParsedFile {
        rel, result, hash, ..
    } = file;
    let under = registry_name(config, rel.strip_prefix("data/").unwrap_or(&rel));
    match result {
        Ok(p) => {
            // A declared file is parsed by a declaration the cache does not key on. A
            // declared probe is read each time (it is small, and never in the cache's
            // tables of kinds).
            let fresh = matches!(p, Parsed::Declared(..) | Parsed::Probe(_));
            if let Some(n) = next.filter(|_| !fresh) {
                n.data.insert(rel.clone(), (hash, p.clone()));
            }
            p.merge_into(Arc::from(rel.as_str()), set)
        }
        Err(d) => {
            diags.push(d);
            set.incomplete.extend(registry::kinds_in(under));
            if config.collection_in(under).is_some() {
                set.incomplete.insert(Kind::Record);
            }
        }
    }
}

fn locate<T>(file: &Arc<str>, items: Vec<T>) -> Vec<Located<T>> {
    items
        .into_iter()
        .map(|value| Located {
            file: file.clone(),
            value,
        })
        .collect()
}

/// One data file, parsed: the records of the collection its name selects.
#[derive(Debug, Clone)]
pub(crate) enum Parsed {
    /// Records of the core's kinds: one kind's, or each of the kinds a shared file holds.
    Core(Vec<KindRecords>),
    /// A pack's data file: the records of each kind it holds.
    Pack(Vec<(Kind, Vec<crate::model::pack::Shared>)>),
    /// Records of the declared collection of this name.
    Declared(String, Vec<crate::model::declared::WrittenRecord>),
    /// A declared probe (`data/probes/`).
    Probe(Box<crate::model::probe_file::ProbeFile>),
}

/// From [`registry::core_kinds!`]: [`KindRecords`], the records of one core kind as a
/// file holds them; how a file of a kind is read, by its shape; and where its records go
/// in the [`DataSet`].
macro_rules! kind_records {
    ([] $($(#[$doc:meta])* $kind:ident => $field:ident: $type:ident, $name:literal,
        $storage:expr, $compare:ident, $($shape:ident)+;)*) => {
        /// The records of one core kind that a data file holds, in file order.
        #[derive(Debug, Clone)]
        pub(crate) enum KindRecords {
            $($(#[$doc])* $kind(Vec<$type>),)*
        }

        impl KindRecords {
            /// Parses a file of the core kinds `held` (those the registry says its name
            /// holds, the first choosing how it is read): the records of each; none when
            /// the first is not a core kind of [`registry::core_kinds!`].
            fn parse(
                held: &[Kind],
                file: &str,
                text: &str,
            ) -> Option<Result<Vec<KindRecords>, Box<Diagnostic>>> {
                match held.first()? {
                    $(Kind::$kind => Some(kind_records!(@read $kind, $type, [$($shape)+], held, file, text)),)*
                    Kind::Record | Kind::Page | Kind::Pack(_) => None,
                }
            }

            /// The records of `kind` taken out of `shared`, the parsed file of a shape
            /// `part_of` several kinds share; none when `kind` is not a part of a file of
            /// that type.
            fn part_of(kind: Kind, shared: &mut dyn std::any::Any) -> Option<KindRecords> {
                match kind {
                    $(Kind::$kind => kind_records!(@part $kind, $field, [$($shape)+], shared),)*
                    Kind::Record | Kind::Page | Kind::Pack(_) => None,
                }
            }

            /// Adds the records to their collection, each knowing `file`.
            fn merge_into(self, file: &Arc<str>, set: &mut DataSet) {
                match self {
                    $(KindRecords::$kind(v) => set.$field.extend(locate(file, v)),)*
                }
            }
        }
    };
    (@read $kind:ident, $type:ident, [list], $held:ident, $file:ident, $text:ident) => {
        yaml::parse::<Vec<$type>>($file, $text, 0).map(|v| vec![KindRecords::$kind(v)])
    };
    (@read $kind:ident, $type:ident, [each], $held:ident, $file:ident, $text:ident) => {
        yaml::parse::<$type>($file, $text, 0).map(|r| vec![KindRecords::$kind(vec![r])])
    };
    (@read $kind:ident, $type:ident, [part_of $shared:ident], $held:ident, $file:ident,
        $text:ident) => {
        yaml::parse::<$shared>($file, $text, 0).map(|mut f| {
            $held
                .iter()
                .filter_map(|k| KindRecords::part_of(*k, &mut f))
                .collect()
        })
    };
    (@part $kind:ident, $field:ident, [part_of $shared:ident], $any:ident) => {
        $any
            .downcast_mut::<$shared>()
            .map(|f| KindRecords::$kind(std::mem::take(&mut f.$field)))
    };
    (@part $kind:ident, $field:ident, [$($shape:ident)+], $any:ident) => {
        None
    };
}
registry::core_kinds!([] kind_records);

/// Parses the file of the declared collection `name`: a list of records, each field kept
/// as written with its position, for `model` to hold to the declaration.
fn parse_declared(name: &str, file: &str, text: &str) -> Result<Parsed, Diagnostic> {
    use crate::model::declared::{Written, WrittenRecord};
    use serde_saphyr::Spanned;
    type Raw = Vec<Spanned<std::collections::BTreeMap<String, Spanned<serde_json::Value>>>>;
    let raw: Raw = yaml::parse(file, text, 0).map_err(|d| *d)?;
    let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    let records = raw
        .into_iter()
        .map(|r| WrittenRecord {
            line: clamp(r.referenced.line()),
            column: clamp(r.referenced.column()),
            fields: r
                .value
                .into_iter()
                .map(|(k, v)| {
                    let w = Written {
                        line: clamp(v.referenced.line()),
                        column: clamp(v.referenced.column()),
                        value: v.value,
                    };
                    (k, w)
                })
                .collect(),
        })
        .collect();
    Ok(Parsed::Declared(name.to_string(), records))
}

/// Parses one data file (`name` is its path under `data/`) by the collection its name selects.
fn parse_data_file(name: &str, file: &str, text: &str) -> Result<Parsed, Diagnostic> {
    // The registry says which kinds a file holds; the file's type follows from them.
    let held = registry::kinds_in(name);
    if let Some(Kind::Pack(_)) = held.first() {
        return pack_file(name, file, text);
    }
    match KindRecords::parse(&held, file, text) {
        Some(parsed) => parsed.map(Parsed::Core).map_err(|d| *d),
        None => Err(unknown_data_file(name, file)),
    }
}

/// Parses the pack data file `name` by the pack's own reader.
fn pack_file(name: &str, file: &str, text: &str) -> Result<Parsed, Diagnostic> {
    let Some(f) = crate::model::pack::known()
        .iter()
        .flat_map(|p| p.files.iter())
        .find(|f| f.path == name)
    else {
        return Err(unknown_data_file(name, file));
    };
    (f.parse)(file, text).map(Parsed::Pack).map_err(|d| *d)
}

/// The name the registry knows a data file by (`name`, its path under `data/`): the
/// site's maps file is read as [`registry::MAPS_FILE`].
fn registry_name<'a>(config: &SiteConfig, name: &'a str) -> &'a str {
    match name == config.maps_file() {
        true => registry::MAPS_FILE,
        false => name,
    }
}

/// `data/maps.yaml` in a site whose `maps_file:` names another file: an error at its
/// first line that says where the site's maps are.
fn maps_elsewhere(config: &SiteConfig, name: &str, file: &str) -> Option<Diagnostic> {
    let declared = config.maps_file.as_ref()?;
    if name != registry::MAPS_FILE || declared.value == registry::MAPS_FILE {
        return None;
    }
    Some(data_file_error(
        file,
        format!(
            "`{name}` is not read: evidence.yaml declares the decision maps and families \
             in `data/{}` (`maps_file:`)",
            declared.value
        ),
        format!(
            "move its maps and families into data/{}, or remove `maps_file:` from \
             evidence.yaml to keep them in data/{name}",
            declared.value
        ),
    ))
}

/// An error with a data file as a whole: at its first line, with what to do about it.
fn data_file_error(file: &str, message: String, hint: String) -> Diagnostic {
    Diagnostic::error("data-file", Span::new(file, 1, 1), message).with_hint(hint)
}

/// A data file of a pack's kinds in a site that does not turn the pack on: an error at
/// its first line that says how to turn it on.
fn pack_off(config: &SiteConfig, name: &str, file: &str) -> Option<Diagnostic> {
    let kind = *registry::kinds_in(name).first()?;
    let pack = crate::model::pack::of_kind(kind)?;
    if config.has_pack(pack.name) {
        return None;
    }
    Some(data_file_error(
        file,
        format!(
            "`{name}` holds `{}` records, a kind of the `{}` pack, which the site does not turn on",
            kind.name(),
            pack.name
        ),
        format!(
            "add `packs: [{}]` to evidence.yaml ({}), or remove the file",
            pack.name, pack.about
        ),
    ))
}

/// A file under `data/` that no kind is written in: an error at its first line, naming
/// the files each kind is written in (the kinds of packs the site has not turned on
/// left out: their files are errors of their own).
fn unknown_data_file(name: &str, file: &str) -> Diagnostic {
    let known = registry::KINDS
        .iter()
        .filter(|s| crate::model::pack::of_kind(s.kind).is_none())
        .filter_map(|s| Some(format!("{} ({})", s.name, s.file_pattern()?)))
        .collect::<Vec<_>>()
        .join(", ");
    let packs = crate::model::pack::known()
        .iter()
        .map(|p| {
            let kinds: Vec<&str> = p.kinds.iter().map(|k| k.name).collect();
            format!("{} ({})", p.name, kinds.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    data_file_error(
        file,
        format!("unknown data file `{name}`: no kind of record is written in it"),
        format!(
            "the kinds and their files: {known}; packs add kinds of their own: {packs}; a kind \
             of the site's own is declared with its file under `collections:` in evidence.yaml"
        ),
    )
}

impl Parsed {
    /// Adds the records to their collections, each knowing `file`.
    fn merge_into(self, file: Arc<str>, set: &mut DataSet) {
        match self {
            Parsed::Core(kinds) => {
                for records in kinds {
                    records.merge_into(&file, set);
                }
            }
            Parsed::Pack(kinds) => {
                for (kind, records) in kinds {
                    set.pack
                        .entry(kind)
                        .or_default()
                        .extend(locate(&file, records));
                }
            }
            Parsed::Declared(name, records) => set.written.push((name, file, records)),
            Parsed::Probe(p) => set.probes.push(Located { file, value: *p }),
        }
    }
}

/// The pages under `content/`, whether one of them failed to parse, and (with a memory
/// cache) the cache of pages for the next load with the listing it came from (when it
/// found no problem). A page whose [`Stamp`] is the cached one, or that did not change
/// by [`Reuse::changed`], is taken from the cache without being read.
fn load_pages(
    root: &Path,
    langs: &'static [crate::model::page::Lang],
    reuse: Reuse,
    diags: &mut Diagnostics,
) -> (Vec<PageSource>, bool, (PageCache, Option<Listing>)) {
    use rayon::prelude::*;
    let cache = reuse.memory;
    // Parsed in parallel, merged in path order (see `load_data`). Listed again unless the
    // watcher's changes say the last listing holds.
    let (listed, problems, linked, trust) = reuse.list(root, "content");
    // What could not be listed is missing: links to it are not broken.
    let mut incomplete = !problems.is_empty();
    diags.extend(problems);
    let parsed: Vec<_> = listed
        .iter()
        .filter(|p| has_ext(p, "md"))
        .collect::<Vec<_>>()
        .par_iter()
        .map(|path| {
            let rel = rel_path(root, path);
            let known = cache
                .filter(|_| trust && reuse.unchanged(&rel))
                .and_then(|c| c.pages.get(&rel))
                .filter(|c| c.langs == langs);
            if let Some(c) = known {
                let found = c.found.clone();
                return (rel, Some(Arc::clone(c)), c.page.clone().ok_or(()), found);
            }
            let (cached, page, ds) = load_page(root, path, &rel, langs, cache);
            (rel, cached, page, ds)
        })
        .collect();
    let mut pages = Vec::with_capacity(parsed.len());
    let mut next = std::collections::HashMap::new();
    for (rel, cached, page, ds) in parsed {
        diags.extend(ds);
        if let Some(c) = cached {
            next.insert(rel, c);
        }
        match page {
            Ok(p) => pages.push(p),
            Err(()) => incomplete = true,
        }
    }
    let listing = (cache.is_some() && !incomplete && !linked).then_some(listed);
    (pages, incomplete, (next, listing))
}

/// One page of [`load_pages`]: from `cache` when its [`Stamp`] is the cached one, else
/// read and parsed. Returns the entry for the next load's cache (with a `cache`), the
/// page (`Err` when it could not be read or parsed) and what was found.
fn load_page(
    root: &Path,
    path: &Path,
    rel: &str,
    langs: &'static [crate::model::page::Lang],
    cache: Option<&ParseCache>,
) -> (Option<Arc<CachedPage>>, Result<PageSource, ()>, Diagnostics) {
    let stamp = cache.and_then(|_| Stamp::of(path));
    let known = cache
        .and_then(|c| c.pages.get(rel))
        .filter(|c| Some(c.stamp) == stamp && c.langs == langs);
    if let Some(c) = known {
        return (
            Some(Arc::clone(c)),
            c.page.clone().ok_or(()),
            c.found.clone(),
        );
    }
    let mut ds = Diagnostics::default();
    let read = match read_source(root, path) {
        Ok(text) => text,
        Err(d) => {
            ds.push(d);
            // Unread: the page list is incomplete, and the next load reads it.
            return (None, Err(()), ds);
        }
    };
    let id = rel
        .strip_prefix("content/")
        .and_then(|r| r.strip_suffix(".md"))
        .unwrap_or(rel)
        .to_string();
    ds.extend(page_name(rel, &id));
    let (page, found) = page::parse(&id, rel, &read, langs);
    ds.extend(found);
    let cached = stamp.map(|stamp| {
        Arc::new(CachedPage {
            stamp,
            langs,
            page: page.clone(),
            found: ds.clone(),
        })
    });
    // A page that did not parse leaves the page list incomplete.
    (cached, page.ok_or(()), ds)
}

impl ParseCache {
    /// The page file `rel` (`content/….md`) as a load would find it now, for `serve`'s
    /// rebuild of one edited page without a load of the whole site: `None` unless the
    /// cache holds it from the last load and it is still a regular file (a page added,
    /// removed or made a link takes a full load). Read again unless its stamp is the
    /// cached one; the cache then holds what was read, for the next load.
    pub fn page_again(
        &mut self,
        root: &Path,
        rel: &str,
        langs: &'static [crate::model::page::Lang],
    ) -> Option<(Option<PageSource>, Diagnostics)> {
        self.pages.get(rel)?;
        let path = root.join(rel);
        if !std::fs::symlink_metadata(&path).ok()?.file_type().is_file() {
            return None;
        }
        let (cached, page, found) = load_page(root, &path, rel, langs, Some(self));
        match cached {
            Some(c) => self.pages.insert(rel.to_string(), c),
            None => self.pages.remove(rel),
        };
        Some((page.ok(), found))
    }

    /// Whether the cache holds the page file `rel` from the last load.
    pub fn has_page(&self, rel: &str) -> bool {
        self.pages.contains_key(rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records of `name` (a path under `data/`) parsed from `text` and filed.
    fn filed(name: &str, text: &str) -> DataSet {
        let mut set = DataSet::default();
        let parsed = parse_data_file(name, &format!("data/{name}"), text).expect("parses");
        parsed.merge_into(Arc::from(format!("data/{name}").as_str()), &mut set);
        set
    }

    #[test]
    fn a_file_several_kinds_share_files_each_kind_its_part() {
        let set = filed(
            "vocabulary.yaml",
            "engines: [{id: e, label: {en: E, ja: E}}]\n\
             statuses: [{id: s, label: {en: S, ja: S}}, {id: t, label: {en: T, ja: T}}]\n\
             measurements: [{id: m, label: {en: M, ja: M}}]\n\
             texts: [{id: x, label: {en: X, ja: X}}]\n",
        );
        let ids = |v: Vec<&Id>| v.into_iter().map(|i| i.value.clone()).collect::<Vec<_>>();
        assert_eq!(ids(set.engines.iter().map(|r| &r.id).collect()), ["e"]);
        assert_eq!(
            ids(set.statuses.iter().map(|r| &r.id).collect()),
            ["s", "t"]
        );
        assert_eq!(ids(set.measurements.iter().map(|r| &r.id).collect()), ["m"]);
        assert_eq!(ids(set.texts.iter().map(|r| &r.id).collect()), ["x"]);
        assert_eq!(&*set.texts[0].file, "data/vocabulary.yaml");
        let maps = filed(
            "maps.yaml",
            "families: [{id: f, label: {en: F, ja: F}}]\nmaps: []\n",
        );
        assert_eq!(ids(maps.families.iter().map(|r| &r.id).collect()), ["f"]);
        assert!(maps.maps.is_empty() && maps.engines.is_empty());
    }

    #[test]
    fn a_file_of_one_kind_files_its_list_and_an_unknown_file_is_an_error() {
        let set = filed(
            "glossary.yaml",
            "- {id: a, term: {en: A, ja: A}, definition: {en: A, ja: A}}\n",
        );
        assert_eq!(set.terms.len(), 1);
        assert!(set.claims.is_empty());
        assert!(parse_data_file("notes.yaml", "data/notes.yaml", "[]").is_err());
    }

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::write(root.join("evidence.yaml"), "title: {en: T, ja: T}\n").expect("config");
        std::fs::create_dir_all(root.join("content")).expect("content");
        for (name, text) in [("a", "Alpha"), ("b", "Beta")] {
            let page = format!(
                "---\ntitle: {{en: {name}, ja: {name}}}\n---\n\n:::en\n{text}\n:::\n\n:::ja\n{text}\n:::\n"
            );
            std::fs::write(root.join(format!("content/{name}.md")), page).expect("page");
        }
        dir
    }

    fn markdown<'a>(s: &'a Sources, id: &str) -> &'a Arc<str> {
        let page = s.pages.iter().find(|p| p.id == id).expect("page");
        match &page.items[0] {
            crate::model::page::Item::Block(b) => &b.markdown,
            other => panic!("not a block: {other:?}"),
        }
    }

    #[test]
    fn an_unchanged_page_is_taken_from_the_cache_and_an_edited_one_read_again() {
        let dir = site();
        let root = dir.path();
        let empty = ParseCache::default();
        let memory = |c| Reuse {
            memory: Some(c),
            disk: None,
            changed: None,
        };
        let (first, _) = load_with(root, memory(&empty)).expect("first load");
        let cache = first.parsed.clone().expect("a cache");
        // The same length, so only the file's times and inode tell the edit.
        std::fs::write(
            root.join("content/b.md"),
            std::fs::read_to_string(root.join("content/b.md"))
                .expect("read")
                .replace("Beta", "Bet!"),
        )
        .expect("edit");
        let (second, _) = load_with(root, memory(&cache)).expect("second load");
        assert!(Arc::ptr_eq(markdown(&first, "a"), markdown(&second, "a")));
        assert_eq!(&**markdown(&second, "b"), "Bet!");
        assert_ne!(
            first
                .pages
                .iter()
                .find(|p| p.id == "b")
                .map(|p| p.text_hash),
            second
                .pages
                .iter()
                .find(|p| p.id == "b")
                .map(|p| p.text_hash)
        );
        // Without a memory cache every page is read.
        let (third, _) = load(root).expect("third load");
        assert!(!Arc::ptr_eq(markdown(&second, "a"), markdown(&third, "a")));
    }

    #[test]
    fn reported_changes_spare_the_listing_and_the_reads_of_the_rest() {
        let dir = site();
        let root = dir.path();
        let empty = ParseCache::default();
        let (first, _) = load_with(
            root,
            Reuse {
                memory: Some(&empty),
                disk: None,
                changed: None,
            },
        )
        .expect("load");
        let cache = first.parsed.clone().expect("a cache");
        let ids = |s: &Sources| s.pages.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
        let load = |changed: &[&str]| {
            let changed: Vec<String> = changed.iter().map(|s| s.to_string()).collect();
            let reuse = Reuse {
                memory: Some(&cache),
                disk: None,
                changed: Some(&changed),
            };
            load_with(root, reuse).expect("load").0
        };
        let page = "---\ntitle: {en: C, ja: C}\n---\n\n:::en\nC\n:::\n\n:::ja\nC\n:::\n";
        std::fs::write(root.join("content/c.md"), page).expect("write");
        std::fs::write(root.join("content/b.md"), page.replace('C', "B2")).expect("edit");
        // Only b reported: the last listing stands, so c is not seen yet, and a is not
        // even looked at.
        let edited = load(&["content/b.md"]);
        assert_eq!(ids(&edited), ["a", "b"]);
        assert!(Arc::ptr_eq(markdown(&first, "a"), markdown(&edited, "a")));
        assert_eq!(&**markdown(&edited, "b"), "B2");
        // A file reported that the listing does not hold: listed again.
        assert_eq!(ids(&load(&["content/c.md"])), ["a", "b", "c"]);
        std::fs::remove_file(root.join("content/a.md")).expect("remove");
        assert_eq!(ids(&load(&["content/a.md"])), ["b", "c"]);
        // A changed config: the folders are listed again.
        std::fs::write(root.join("content/d.md"), page).expect("write");
        assert_eq!(ids(&load(&["evidence.yaml"])), ["b", "c", "d"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_listing_through_a_symlink_is_never_trusted() {
        let dir = site();
        let root = dir.path();
        let term = |def: &str| {
            format!("- id: t1\n  term: {{en: T, ja: T}}\n  definition: {{en: {def}, ja: {def}}}\n")
        };
        std::fs::create_dir_all(root.join("data")).expect("data");
        std::fs::create_dir_all(root.join("shared")).expect("shared");
        std::fs::write(root.join("shared/glossary.yaml"), term("old")).expect("write");
        std::os::unix::fs::symlink(
            root.join("shared/glossary.yaml"),
            root.join("data/glossary.yaml"),
        )
        .expect("symlink");
        let empty = ParseCache::default();
        let first = Reuse {
            memory: Some(&empty),
            disk: None,
            changed: None,
        };
        let (sources, _) = load_with(root, first).expect("load");
        let cache = sources.parsed.expect("a cache");
        // The target changes where no watcher of the site's folders sees it; another
        // file is reported. The link's file is read again all the same.
        std::fs::write(root.join("shared/glossary.yaml"), term("new")).expect("write");
        let changed = vec!["content/a.md".to_string()];
        let reuse = Reuse {
            memory: Some(&cache),
            disk: None,
            changed: Some(&changed),
        };
        let (again, _) = load_with(root, reuse).expect("load");
        let definition = again.data.terms.first().map(|t| t.definition.clone());
        assert!(format!("{definition:?}").contains("new"), "{definition:?}");
    }
}
