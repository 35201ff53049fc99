//! Incremental rebuilds for `evidence serve`: re-render only the pages an edit can reach.
//!
//! A rebuild is told what changed ([`Changes`]): the paths the watcher reported, which
//! are trusted to be all that changed, or "anything" when the watcher lost events. It
//! is made one of two ways ([`How`]).
//!
//! **Patched**, when every changed path is a page file of the [`Previous`] build that is
//! still a regular file, its new text parses, what other pages see of it is unchanged
//! (its id, file, title, description, order, date and directive list: navigation, `@/`
//! links, the claim ledger, run and record pages and the links to a record's row on the
//! page that lists it are built from these), and the previous build said nothing about
//! it. Then the rest of the model cannot differ from the previous one: nothing in it
//! reads a page's prose, and a directive resolves from its own line and the data. So the
//! page alone is read and takes its old version's place in the kept model; its
//! directives are resolved and its rules judged as a full check would
//! ([`crate::check::page_rules`]), and it is rendered. Its cost follows the edited
//! pages, not the site.
//!
//! **Loaded**, otherwise: loading, the model and every check run in full, except that
//! data files whose text is unchanged are not parsed again, and pages whose file is
//! unchanged (size, times, inode) are not even read; when the watcher lost no event,
//! `content/` and `data/` are not listed again unless a path was added or removed there,
//! and the files it did not report are not looked at ([`crate::load::Reuse::changed`]).
//! It compares the new sources with the previous build and renders:
//!
//! - **everything** when there is no previous build, or it had an error; when the
//!   watcher lost events; when the check finds errors (so that the render-time ones are
//!   complete too); when a changed path lies outside `content/` and `data/` (templates,
//!   locales, static files, `evidence.yaml`), or is a data path that holds no known kind
//!   (a folder, a probe case list); when the config or the theme differs; when a page
//!   was added or removed, or what other pages see of one changed;
//! - otherwise **the pages whose source changed**, plus, for each changed data file, the
//!   pages with a directive that reads one of its kinds ([`Directive::reads`](crate::model::directive::Directive::reads), declared by each directive; a kind whose texts
//!   quote another kind with `:v[…]` brings that one along) or whose blocks quote one of
//!   them with `:v[kind:…]`.
//!
//! Why a page left alone is still right: its output depends only on its own source, the
//! config, the theme, the page list with those visible parts, the data its directives
//! and quotes read, and the ids of the pages its `#fragment` links point into (a link to
//! a heading takes the heading's language prefix in the interleaved view), and each of
//! these forces it to re-render when it changes: the last one in either way of
//! rebuilding, once the pages asked for are rendered, by comparing their ids with the
//! previous build's and following that build's links back ([`pipeline::Carried`]). So
//! are its diagnostics: the previous build had no error, and its inputs are the same; the
//! links of the pages rendered are judged against every page's ids.
//! The files that belong to no page (`404.html`, `sitemap.xml`, `evidence.json`,
//! `static/`, the search index, written again from the pages kept and the pages
//! re-rendered) are rendered every time; a page's files are its views and
//! `figures/<page>/…`. The site is kept as a persistent map ([`Served`]): the files of
//! the pages an edit did not reach pass into the next site uncopied.
//!
//! A loaded rebuild compares pages by fingerprint, so a content edit is found whatever
//! path the watcher reported for it; data edits are found by the changed paths (see
//! [`crate::model::registry`]). `tests/incremental.rs` checks that every kind of edit,
//! patched or loaded, gives the same bytes and diagnostics as a full build.

use crate::diagnostics::Diagnostics;
use crate::load::Theme;
use crate::load::messages::Messages;
use crate::model::Evidence;
use crate::model::page::{Block, DirectiveLine, Item, PageSource};
use crate::model::refs::Kind;
use crate::model::strings;
use crate::model::values::Values;
use crate::model::view::View;
use crate::pipeline::{self, Loaded};
use crate::render::{Bytes, MemorySink, Site};
use crate::timings;
use std::cell::OnceCell;
// xxh3: fast on the megabytes of markdown a large site fingerprints on every rebuild.
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::Arc;
use xxhash_rust::xxh3::Xxh3Default as FastHasher;

/// What the next rebuild starts from: the last build that succeeded without an error.
pub struct Previous {
    site: Served,
    /// The files of its site that belong to no page (`404.html`, `static/…`): each
    /// rebuild renders them anew, so they are dropped before the fresh ones go in.
    extras: BTreeSet<String>,
    state: State,
    /// Its data files and pages, parsed: only the files an edit changed are parsed again.
    parsed: crate::load::ParseCache,
    /// The pages its search index holds (a partial rebuild reads only the pages it
    /// re-renders, and writes the index again with the others as they were) and each
    /// page's ids and fragment links (a page whose links point into a page whose ids
    /// change is re-rendered with it).
    carried: pipeline::Carried,
    /// Its model, checked: an edit of prose is patched into it.
    world: Box<World>,
}

/// A build's checked model, kept for the next rebuild.
struct World {
    loaded: Loaded,
    messages: Arc<Messages>,
    values: Arc<Values>,
    /// What loading, the model and check found (rendering's findings are errors, and a
    /// build with an error is kept for no next rebuild).
    checked: Diagnostics,
}

/// What a rebuild rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rerendered {
    /// Every page.
    Everything,
    /// These pages (ids); the others' files were kept from the previous build.
    Pages(BTreeSet<String>),
}

impl Rerendered {
    /// The pages to render, `None` for all.
    pub fn only(&self) -> Option<&BTreeSet<String>> {
        match self {
            Rerendered::Everything => None,
            Rerendered::Pages(ids) => Some(ids),
        }
    }

    /// `1 of 9 pages re-rendered`, or `all 9 pages re-rendered`.
    pub fn summary(&self, total: usize) -> String {
        let noun = if total == 1 { "page" } else { "pages" };
        match self {
            Rerendered::Everything => format!("all {total} {noun} re-rendered"),
            Rerendered::Pages(ids) => format!("{} of {total} {noun} re-rendered", ids.len()),
        }
    }
}

/// Fingerprints of one build, compared by the next.
#[derive(Debug, Clone, Default, PartialEq)]
struct State {
    /// The config and every theme file.
    global: u64,
    /// Page id → its fingerprints.
    pages: BTreeMap<String, Prints>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Prints {
    /// What other pages see of the page.
    visible: u64,
    /// Its whole source, with what its directives resolved to.
    source: u64,
    /// Its source as parsed, before the model resolved its directives.
    parsed: u64,
    /// The hash of the text it was parsed from ([`PageSource::text_hash`]).
    text: Option<u64>,
    /// The kinds its blocks quote with `:v[…]`, as bits ([`bit`]): found
    /// once per text, not by reading every page's prose at each data edit.
    quoted: u64,
}

impl State {
    /// The fingerprints of a build. A page read from the same text as in `prev` takes its
    /// visible and parsed prints from there (the same text parses the same), so that only
    /// what its directives resolved to is hashed again: an edit of one page of thousands
    /// does not walk them all.
    fn of(ev: &Evidence, theme: &Theme, prev: Option<&State>) -> State {
        let mut h = FastHasher::new();
        h.write_u64(digest(&ev.config));
        for (path, f) in &theme.files {
            (path, &f.origin, &f.bytes).hash(&mut h);
        }
        let pages = ev
            .pages
            .iter()
            .map(|p| {
                let known = prev
                    .and_then(|s| s.pages.get(&p.id))
                    .filter(|q| q.text.is_some() && q.text == p.text_hash);
                (p.id.clone(), Prints::of(p, known))
            })
            .collect();
        State {
            global: h.finish(),
            pages,
        }
    }
}

impl Prints {
    /// The fingerprints of page `p`. Read from the same text as a page's `known` ones,
    /// it takes their visible and parsed prints (the same text parses the same), so that
    /// only what its directives resolved to is hashed again.
    fn of(p: &PageSource, known: Option<&Prints>) -> Prints {
        let (visible, parsed, quoted) = match known {
            Some(q) => (q.visible, q.parsed, q.quoted),
            None => (visible(p), parsed(p), block_quotes(p)),
        };
        let mut h = FastHasher::new();
        h.write_u64(parsed);
        h.write_u64(resolutions(p));
        Prints {
            visible,
            source: h.finish(),
            parsed,
            text: p.text_hash,
            quoted,
        }
    }
}

/// The bit of `kind` in `Prints::quoted`: its position among every kind, the core's then
/// the packs' (past 63, they share the last bit, which only rebuilds more).
fn bit(kind: Kind) -> u64 {
    let at = crate::model::registry::all().position(|k| k == kind);
    1 << at.unwrap_or(63).min(63)
}

/// The kinds `p`'s blocks quote with `:v[…]`, as bits ([`bit`]).
fn block_quotes(p: &PageSource) -> u64 {
    let mut kinds = BTreeSet::new();
    for item in &p.items {
        if let Item::Block(b) = item {
            quotes(&b.markdown, &mut kinds);
        }
    }
    kinds.into_iter().fold(0, |bits, k| bits | bit(k))
}

/// A hash of what other pages see of a page (directive lines left out).
fn visible(p: &PageSource) -> u64 {
    let f = &p.front;
    let directives: Vec<_> = p
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Directive(d) => Some((&d.name, &d.attrs)),
            Item::Block(_) => None,
        })
        .collect();
    let date = f.date.as_ref().map(|d| &d.value);
    digest(&(
        &p.id,
        &p.file,
        &f.title,
        &f.description,
        f.order,
        date,
        directives,
    ))
}

/// A hash of a page's source as parsed (its directives by name, attributes and line).
/// Blocks are hashed as bytes (their `Debug` form is slow to build for Japanese text); the
/// patterns name every field, so a new one cannot be forgotten here.
fn parsed(p: &PageSource) -> u64 {
    let PageSource {
        id,
        file,
        front,
        items,
        generated,
        // Stands for the text the rest was parsed from: nothing of its own to hash.
        text_hash: _,
    } = p;
    let mut h = FastHasher::new();
    (id, file, digest(front), generated).hash(&mut h);
    for item in items {
        match item {
            Item::Block(Block {
                lang,
                markdown,
                line,
                body_line,
                basis,
            }) => (lang, markdown, line, body_line, basis).hash(&mut h),
            Item::Directive(DirectiveLine {
                name,
                attrs,
                line,
                resolution: _,
            }) => (name, attrs, line).hash(&mut h),
        }
    }
    h.finish()
}

/// A hash of what the model resolved a page's directives to.
fn resolutions(p: &PageSource) -> u64 {
    let mut h = FastHasher::new();
    for item in &p.items {
        if let Item::Directive(d) = item {
            h.write_u64(digest(&d.resolution));
        }
    }
    h.finish()
}

/// A hash of a value from its derived `Hash` (every field: a new field joins it, so
/// no change can go unseen by a form that leaves it out).
fn digest(v: &impl Hash) -> u64 {
    let mut h = FastHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// What changed since the previous build.
#[derive(Debug, Clone, Copy)]
pub enum Changes<'a> {
    /// Anything may have: the first build, or the watcher lost track of events (its
    /// queue overflowed, or it failed). Every file is looked at again.
    Unknown,
    /// These paths (relative to the root, `/`-separated, as the watcher reports them)
    /// and nothing else.
    Paths(&'a [String]),
}

/// How a rebuild was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// The whole site was loaded, modelled and checked again.
    Loaded,
    /// The edited pages were read alone and patched into the last build's model (an
    /// edit of their prose only: see the module documentation).
    Patched,
}

/// A built site as `serve` keeps it: output path → bytes, in path order, in a persistent
/// map, so that a rebuild that renders one page takes the previous site and replaces that
/// page's files in time logarithmic in the site, and a copy of it (the one served, the
/// one the next rebuild starts from) costs nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Served {
    pub files: imbl::OrdMap<String, Bytes>,
}

impl From<Site> for Served {
    fn from(site: Site) -> Served {
        Served {
            files: site.files.into_iter().collect(),
        }
    }
}

/// What a rebuild produced.
pub struct Rebuilt {
    /// The whole site (equal to a full build's), `None` when rendering did not run.
    pub site: Option<Served>,
    /// Every problem found, as a full build finds them.
    pub diagnostics: Diagnostics,
    /// What was rendered.
    pub rerendered: Rerendered,
    /// How it was made.
    pub how: How,
    /// How many pages the site has (0 when it could not be loaded).
    pub pages: usize,
    /// The site's `base_url`, as configured.
    pub base_url: Option<String>,
}

/// Rebuilds the site under `root` after `changes` since `prev`, or builds it in full
/// without a `prev` (which the rebuild takes: its parts go into the next). Returns what
/// was built (its site byte-identical to a full build's) and what the next rebuild starts
/// from (`None` after a build with an error).
///
/// An edit of the prose of pages, and nothing else, is patched into `prev`'s model
/// ([`How::Patched`]); anything else loads, models and checks the whole site, reusing
/// what `prev` parsed, and renders what the changes reach ([`How::Loaded`]).
pub fn rebuild(
    root: &Path,
    changes: Changes,
    prev: Option<Previous>,
) -> (Rebuilt, Option<Previous>) {
    let mut prev = prev;
    if let Changes::Paths(paths) = changes
        && let Some(ready) = timings::time("patch", || patch(root, paths, &mut prev))
    {
        return render(root, ready);
    }
    let paths = match changes {
        Changes::Paths(paths) => Some(paths),
        Changes::Unknown => None,
    };
    load_again(root, paths, prev)
}

/// A site checked and ready to render, with what the rebuild carries on.
struct Ready {
    checked: pipeline::Checked,
    /// What the last build found before rendering in the pages not read again, which
    /// `checked` does not hold.
    kept: Diagnostics,
    rerendered: Rerendered,
    how: How,
    state: State,
    parsed: crate::load::ParseCache,
    /// The last build's site, its files of no page and its search index's pages, for a
    /// rebuild that renders some pages.
    base: Option<(Served, BTreeSet<String>, pipeline::Carried)>,
}

/// Loads and checks the whole site, reusing what `prev` parsed, and renders what `paths`
/// reach since `prev` (everything when `paths` is `None`, or without a `prev`).
fn load_again(
    root: &Path,
    paths: Option<&[String]>,
    prev: Option<Previous>,
) -> (Rebuilt, Option<Previous>) {
    let empty = crate::load::ParseCache::default();
    let cache = prev.as_ref().map(|p| &p.parsed).unwrap_or(&empty);
    // The first build starts from what `build` left in the parse cache (read only: the
    // preview writes nothing to disk), unless the cache came with the repository; later
    // ones from the previous build in memory.
    let disk = prev.is_none().then(|| {
        crate::load::cache::DiskCache::open_own(root)
            .inspect_err(|why| eprintln!("warning: {why}"))
            .ok()
    });
    let disk = disk.flatten();
    let reuse = crate::load::Reuse {
        memory: Some(cache),
        disk: disk.as_ref(),
        // What the watcher did not report is as the last load found it.
        changed: paths,
    };
    let mut checked = match pipeline::checked_with(root, reuse) {
        Ok(c) => c,
        Err(diagnostics) => {
            let rebuilt = Rebuilt {
                site: None,
                diagnostics,
                rerendered: Rerendered::Everything,
                how: How::Loaded,
                pages: 0,
                base_url: None,
            };
            return (rebuilt, None);
        }
    };
    let parsed = checked.loaded.parsed.take().unwrap_or_default();
    let ev = &checked.loaded.evidence;
    let state = timings::time("state", || {
        State::of(ev, &checked.loaded.theme, prev.as_ref().map(|p| &p.state))
    });
    let rerendered = match (&prev, paths) {
        (Some(p), Some(paths)) if !checked.diagnostics.has_errors() => {
            let quoted = OnceCell::new();
            let needs = |id: &str| {
                let quoted = quoted.get_or_init(|| (quoted_kinds(ev), anchored_kinds(ev)));
                let blocks = state.pages.get(id).map(|p| p.quoted);
                match (ev.page(id), blocks) {
                    (Some(p), Some(blocks)) => page_needs(p, blocks, quoted),
                    _ => all(),
                }
            };
            let paths = registry_paths(ev, paths);
            timings::time("decide", || decide(&paths, &p.state, &state, &needs))
        }
        _ => Rerendered::Everything,
    };
    let ready = Ready {
        checked,
        kept: Diagnostics::default(),
        rerendered,
        how: How::Loaded,
        state,
        parsed,
        base: prev.map(|p| {
            let Previous {
                site,
                extras,
                state,
                parsed,
                carried,
                world,
            } = p;
            retire((state, parsed, world));
            (site, extras, carried)
        }),
    };
    render(root, ready)
}

/// Drops what a rebuild no longer needs on a thread of its own: the last build's model
/// is hundreds of thousands of small allocations on a large site, whose freeing need not
/// hold up the preview. (If no thread can be started, it is dropped here.)
fn retire<T: Send + 'static>(old: T) {
    let _ = std::thread::Builder::new()
        .name("serve-retire".into())
        .spawn(move || drop(old));
}

/// The edit of the prose of known pages, patched into `prev`'s model: each of `paths` is
/// a page file of `prev`'s site that is still a file, and its new text parses to a page
/// whose visible parts (id, file, title, description, order, date, directives) are those
/// it had, while no diagnostic of `prev` is about it. Then nothing but the page itself
/// differs from what a full load would model (see the module documentation): it takes
/// its old version's place, its directives resolved and its rules judged again, ready to
/// render alone, and the last build is taken. Else `None`, and the last build stays as
/// it was, but for its parse cache, which holds the pages read.
fn patch(root: &Path, paths: &[String], last: &mut Option<Previous>) -> Option<Ready> {
    let prev = last.as_mut()?;
    let known =
        |p: &String| p.starts_with("content/") && p.ends_with(".md") && prev.parsed.has_page(p);
    if paths.is_empty() || !paths.iter().all(known) {
        return None;
    }
    let about = |d: &crate::diagnostics::Diagnostic| paths.contains(&d.span.file);
    if prev.world.checked.iter().any(about) {
        return None;
    }
    let langs = prev.world.loaded.evidence.languages();
    // (position in the model's pages, the page, what its load and rules found)
    let mut edited: Vec<(usize, PageSource, Diagnostics)> = Vec::new();
    for path in paths {
        let (page, mut found) = prev.parsed.page_again(root, path, langs)?;
        let mut page = page?;
        let ev = &prev.world.loaded.evidence;
        let at = ev
            .pages
            .iter()
            .position(|q| !q.generated && q.file == page.file && q.id == page.id);
        let same = prev
            .state
            .pages
            .get(&page.id)
            .is_some_and(|was| was.visible == visible(&page));
        let at = at.filter(|_| same)?;
        // As `model::build` resolves them, against the graph, of which this page's
        // prose is no part.
        for item in &mut page.items {
            if let Item::Directive(d) = item {
                d.resolution = Some(crate::model::directive::parse(d, &page.id, ev));
            }
        }
        crate::check::page_rules(ev, &page, &mut found);
        edited.push((at, page, found));
    }
    let Previous {
        site,
        extras,
        mut state,
        parsed,
        carried,
        world,
    } = last.take()?;
    let World {
        mut loaded,
        messages,
        values,
        checked,
    } = *world;
    let mut found = Diagnostics::default();
    let mut ids = BTreeSet::new();
    for (at, page, diags) in edited {
        let prints = Prints::of(&page, None);
        let old = state.pages.insert(page.id.clone(), prints);
        // Re-rendered when its source changed (a touch without an edit renders nothing).
        if old.is_none_or(|o| o.source != prints.source) {
            ids.insert(page.id.clone());
        }
        loaded.evidence.pages[at] = page;
        found.extend(diags);
    }
    Some(Ready {
        checked: pipeline::Checked {
            loaded,
            messages,
            values,
            diagnostics: found,
        },
        kept: checked,
        rerendered: Rerendered::Pages(ids),
        how: How::Patched,
        state,
        parsed,
        base: Some((site, extras, carried)),
    })
}

/// Renders a checked site (the pages `ready.rerendered` names into the last build's site,
/// or all), and keeps what the next rebuild needs when it has no error.
fn render(root: &Path, ready: Ready) -> (Rebuilt, Option<Previous>) {
    let Ready {
        checked,
        kept,
        rerendered,
        how,
        state,
        parsed,
        base,
    } = ready;
    let (messages, values) = (checked.messages.clone(), checked.values.clone());
    let mut before = kept.clone();
    before.extend(checked.diagnostics.iter().cloned());
    let (base, carried) = match (&rerendered, base) {
        (Rerendered::Pages(_), Some((site, extras, carried))) => (Some((site, extras)), carried),
        _ => (None, pipeline::Carried::default()),
    };
    let sink = MemorySink::default();
    let pipeline::Rendered {
        loaded,
        diagnostics: found,
        ran,
        carried,
        also,
    } = match rerendered.only() {
        Some(only) => pipeline::render_again(root, checked, only, &sink, carried),
        None => pipeline::render_all(root, checked, &sink),
    };
    let rerendered = match rerendered {
        Rerendered::Pages(mut ids) if !also.is_empty() => {
            ids.extend(also);
            Rerendered::Pages(ids)
        }
        r => r,
    };
    let mut diagnostics = kept;
    diagnostics.extend(found);
    let fresh = sink.into_site();
    let (site, extras) = timings::time("assemble", || match (&rerendered, base, &loaded) {
        (Rerendered::Pages(ids), Some((site, old)), Some(l)) => {
            assemble(site, &old, fresh, ids, &l.evidence)
        }
        (_, _, Some(l)) => {
            let extras = extras(&fresh, &l.evidence, None);
            (Served::from(fresh), extras)
        }
        _ => (Served::from(fresh), BTreeSet::new()),
    });
    let pages = loaded.as_ref().map_or(0, |l| l.evidence.pages.len());
    let base_url = loaded
        .as_ref()
        .and_then(|l| l.evidence.config.as_ref())
        .and_then(|c| c.base_url.as_ref())
        .map(|b| b.value.clone());
    // Warnings come from `check`, which always runs in full, so a build with warnings
    // only is as good a base as a clean one; render-time findings are errors.
    let next = match loaded {
        Some(loaded) if ran && !diagnostics.has_errors() => Some(Previous {
            site: site.clone(),
            extras,
            state,
            parsed,
            carried,
            world: Box::new(World {
                loaded,
                messages,
                values,
                checked: before,
            }),
        }),
        _ => None,
    };
    let rebuilt = Rebuilt {
        site: ran.then_some(site),
        diagnostics,
        rerendered,
        how,
        pages,
        base_url,
    };
    (rebuilt, next)
}

/// `paths` with the site's maps file (`maps_file:`) under the registry's name, by which
/// the decision reads the kinds a file holds.
fn registry_paths(ev: &Evidence, paths: &[String]) -> Vec<String> {
    let maps = ev
        .config
        .as_ref()
        .map(|c| format!("data/{}", c.maps_file()));
    paths
        .iter()
        .map(|p| match &maps {
            Some(m) if p == m => format!("data/{}", crate::model::registry::MAPS_FILE),
            _ => p.clone(),
        })
        .collect()
}

/// The decision rule (see the module documentation). `needs` gives the kinds a page reads.
fn decide(
    changed: &[String],
    prev: &State,
    now: &State,
    needs: &dyn Fn(&str) -> BTreeSet<Kind>,
) -> Rerendered {
    if prev.global != now.global || prev.pages.len() != now.pages.len() {
        return Rerendered::Everything;
    }
    let same_visible = now
        .pages
        .iter()
        .all(|(id, p)| prev.pages.get(id).is_some_and(|q| q.visible == p.visible));
    if !same_visible {
        return Rerendered::Everything;
    }
    let mut kinds = BTreeSet::new();
    for path in changed {
        if path.starts_with("content/") {
            continue; // pages are compared by fingerprint
        }
        let Some(name) = path.strip_prefix("data/") else {
            return Rerendered::Everything;
        };
        let held = crate::model::registry::kinds_in(name);
        if held.is_empty() {
            return Rerendered::Everything;
        }
        kinds.extend(held);
    }
    let pages = now
        .pages
        .iter()
        .filter(|(id, p)| {
            let edited = prev.pages.get(*id).is_none_or(|q| q.source != p.source);
            edited || (!kinds.is_empty() && !needs(id).is_disjoint(&kinds))
        })
        .map(|(id, _)| id.clone())
        .collect();
    Rerendered::Pages(pages)
}

/// Every kind of record (the core's and the packs'): what a page reads when a directive
/// of it does not parse.
pub fn all() -> BTreeSet<Kind> {
    crate::model::registry::all().collect()
}

/// The kinds a page's rendering reads: through its directives (with what their kinds'
/// texts quote, and the kinds anchored to for those that show anchors) and through
/// `:v[…]` in its blocks (`blocks`, see [`block_quotes`]).
fn page_needs(
    page: &PageSource,
    blocks: u64,
    (quoted, anchored): &(BTreeMap<Kind, BTreeSet<Kind>>, BTreeSet<Kind>),
) -> BTreeSet<Kind> {
    // A kind's bit is its position among every kind ([`bit`]), read here in one pass.
    let mut needs: BTreeSet<Kind> = crate::model::registry::all()
        .enumerate()
        .filter(|(i, _)| blocks >> (*i).min(63) & 1 == 1)
        .map(|(_, k)| k)
        .collect();
    for item in &page.items {
        match item {
            Item::Block(_) => {}
            Item::Directive(raw) => {
                let kinds = directive_reads(raw.resolved().ok());
                if raw.resolved().is_ok_and(|d| d.anchors()) {
                    needs.extend(anchored);
                }
                for k in &kinds {
                    needs.insert(*k);
                    needs.extend(quoted.get(k).into_iter().flatten());
                }
            }
        }
    }
    needs
}

/// The kinds a directive reads (every kind for one that did not parse): its own, those a
/// pack's tables on a run's page read, and, for one that shows a site's declared records
/// (which may name any kind), every kind.
fn directive_reads(d: Option<&crate::model::directive::Directive>) -> BTreeSet<Kind> {
    let Some(d) = d else { return all() };
    let mut kinds: BTreeSet<Kind> = d.reads().iter().copied().collect();
    if kinds.contains(&Kind::Record) {
        return all();
    }
    if matches!(d, crate::model::directive::Directive::RunPage(_)) {
        let packs = crate::model::pack::known();
        kinds.extend(packs.iter().flat_map(|p| p.run_reads.iter().copied()));
    }
    kinds
}

/// The kinds the maps' branches anchor to (what a directive that shows anchors reads).
fn anchored_kinds(ev: &Evidence) -> BTreeSet<Kind> {
    ev.maps
        .iter()
        .flat_map(|m| &m.branches)
        .filter_map(|b| crate::model::refs::Ref::parse(&b.anchor.as_ref()?.value).ok())
        .map(|r| r.kind)
        .collect()
}

/// Kind → the kinds its records' texts quote with `:v[…]`.
fn quoted_kinds(ev: &Evidence) -> BTreeMap<Kind, BTreeSet<Kind>> {
    let mut out: BTreeMap<Kind, BTreeSet<Kind>> = BTreeMap::new();
    for kind in crate::model::registry::all() {
        let (mut found, mut records) = (BTreeSet::new(), 0);
        crate::model::with_collection!(ev, kind, |c| {
            for r in c.iter() {
                records += 1;
                strings::each(&r.value, ev.languages(), &mut |s, _| quotes(s, &mut found));
            }
        }, pages => continue);
        if kind == Kind::Record {
            // A declared collection: whoever reads it is unknown, so all kinds are.
            for k in all().into_iter().filter(|_| !found.is_empty()) {
                out.entry(k).or_default().extend(&found);
            }
        } else if records > 0 {
            out.entry(kind).or_default().extend(found);
        }
    }
    out
}

/// Adds the kinds `text` quotes with `:v[kind:…]`; every kind for one it cannot tell.
fn quotes(text: &str, out: &mut BTreeSet<Kind>) {
    for (i, _) in text.match_indices(":v[") {
        let rest = &text[i + 3..];
        let path = rest.split(']').next().unwrap_or(rest);
        let name = path.split_once(':').map_or(path, |(k, _)| k);
        match Kind::from_name(name) {
            Some(k) => {
                out.insert(k);
            }
            None => out.extend(all()),
        }
    }
}

/// The site of a rebuild that rendered the pages `rendered`: the previous `site` (its
/// bytes shared, not copied) without the files this rebuild made anew (the rendered
/// pages' views and figures, and every file of no page, `old_extras`), with the fresh
/// files put in. Returns it with its files of no page. Its cost follows the rendered
/// pages, not the site.
fn assemble(
    mut site: Served,
    old_extras: &BTreeSet<String>,
    fresh: Site,
    rendered: &BTreeSet<String>,
    ev: &Evidence,
) -> (Served, BTreeSet<String>) {
    for path in old_extras {
        site.files.remove(path);
    }
    let views = View::all(ev.languages());
    for id in rendered {
        for v in &views {
            site.files.remove(&v.file(id));
        }
        let figures = format!("figures/{id}/");
        let stale: Vec<String> = site
            .files
            .range(figures.clone()..)
            .take_while(|(path, _)| path.starts_with(&figures))
            .filter(|(path, _)| figure_page(path) == Some(id.as_str()))
            .map(|(path, _)| path.clone())
            .collect();
        for path in stale {
            site.files.remove(&path);
        }
    }
    let extras = extras(&fresh, ev, Some(rendered));
    site.files.extend(fresh.files);
    (site, extras)
}

/// The files of `site` that belong to no page, where the site holds the pages `only`
/// (every page when `None`).
fn extras(site: &Site, ev: &Evidence, only: Option<&BTreeSet<String>>) -> BTreeSet<String> {
    let ids: Vec<&str> = match only {
        Some(ids) => ids.iter().map(String::as_str).collect(),
        None => ev.pages.iter().map(|p| p.id.as_str()).collect(),
    };
    let views: HashMap<String, &str> = ids
        .iter()
        .flat_map(|&id| {
            View::all(ev.languages())
                .into_iter()
                .map(move |v| (v.file(id), id))
        })
        .collect();
    site.files
        .keys()
        .filter(|path| owner(path, &views, ev).is_none())
        .cloned()
        .collect()
}

/// The page a site file belongs to: one of its views, or `figures/<page>/<name>`.
fn owner<'a>(path: &str, views: &HashMap<String, &'a str>, ev: &'a Evidence) -> Option<&'a str> {
    if let Some(page) = figure_page(path) {
        return ev.page(page).map(|p| p.id.as_str());
    }
    views.get(path).copied()
}

/// The page id a `figures/<page>/<name>` path names.
fn figure_page(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("figures/")?;
    rest.rsplit_once('/').map(|(page, _)| page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::directive::Directive;

    fn state(pages: &[(&str, u64, u64)]) -> State {
        State {
            global: 1,
            pages: pages
                .iter()
                .map(|&(id, visible, source)| {
                    (
                        id.to_string(),
                        Prints {
                            visible,
                            source,
                            parsed: source,
                            text: None,
                            quoted: 0,
                        },
                    )
                })
                .collect(),
        }
    }

    fn ids(list: &[&str]) -> Rerendered {
        Rerendered::Pages(list.iter().map(|s| s.to_string()).collect())
    }

    /// `a` quotes claims in its prose, `b` lists runs, `c` reads nothing.
    fn needs(id: &str) -> BTreeSet<Kind> {
        match id {
            "a" => [Kind::Claim].into(),
            "b" => [Kind::Run, Kind::Map, Kind::Family].into(),
            _ => BTreeSet::new(),
        }
    }

    fn decide_on(changed: &[&str], prev: &State, now: &State) -> Rerendered {
        let changed: Vec<String> = changed.iter().map(|s| s.to_string()).collect();
        decide(&changed, prev, now, &needs)
    }

    #[test]
    fn the_decision_rule() {
        let prev = state(&[("a", 1, 1), ("b", 2, 2), ("c", 3, 3)]);
        // A prose edit: that page alone, whatever the watcher reported.
        let prose = state(&[("a", 1, 1), ("b", 2, 2), ("c", 3, 4)]);
        assert_eq!(decide_on(&["content/c.md"], &prev, &prose), ids(&["c"]));
        assert_eq!(
            decide_on(&["content"], &prev, &prose),
            Rerendered::Everything
        );
        assert_eq!(decide_on(&[], &prev, &prose), ids(&["c"]));
        // A title, order or directive change, a page added or removed: everything.
        let title = state(&[("a", 1, 1), ("b", 2, 2), ("c", 5, 5)]);
        assert_eq!(
            decide_on(&["content/c.md"], &prev, &title),
            Rerendered::Everything
        );
        let added = state(&[("a", 1, 1), ("b", 2, 2), ("c", 3, 3), ("d", 4, 4)]);
        assert_eq!(
            decide_on(&["content/d.md"], &prev, &added),
            Rerendered::Everything
        );
        let renamed = state(&[("a", 1, 1), ("b", 2, 2), ("e", 3, 3)]);
        assert_eq!(decide_on(&[], &prev, &renamed), Rerendered::Everything);
        // Data: the pages that read the file's kinds.
        assert_eq!(decide_on(&["data/claims.yaml"], &prev, &prev), ids(&["a"]));
        assert_eq!(
            decide_on(&["data/runs/new.yaml"], &prev, &prev),
            ids(&["b"])
        );
        assert_eq!(decide_on(&["data/maps.yaml"], &prev, &prev), ids(&["b"]));
        assert_eq!(decide_on(&["data/glossary.yaml"], &prev, &prev), ids(&[]));
        assert_eq!(
            decide_on(&["data/claims.yaml", "content/c.md"], &prev, &prose),
            ids(&["a", "c"])
        );
        // Not a known data file, or outside content/ and data/: everything.
        for path in [
            "data/runs",
            "data/probes/cases.yaml",
            "data/notes.txt",
            "templates/page.html",
            "locales/en/evidence.ftl",
            "static/style.css",
            "evidence.yaml",
        ] {
            assert_eq!(
                decide_on(&[path], &prev, &prev),
                Rerendered::Everything,
                "{path}"
            );
        }
        // A different config or theme, even unreported: everything.
        let theme = State {
            global: 2,
            ..prev.clone()
        };
        assert_eq!(decide_on(&[], &prev, &theme), Rerendered::Everything);
    }

    #[test]
    fn quotes_and_reads() {
        let mut found = BTreeSet::new();
        quotes(
            "said :v[claim:c1.can] and :v[run:r.cases.c.load_duration_ns|s]",
            &mut found,
        );
        assert_eq!(found, [Kind::Claim, Kind::Run].into());
        let mut unknown = BTreeSet::new();
        quotes("broken :v[nokind:x] here", &mut unknown);
        assert_eq!(unknown, all());
        assert_eq!(
            Directive::Runs(crate::model::directive::Runs).reads(),
            &[
                Kind::Run,
                Kind::Map,
                Kind::Family,
                Kind::Engine,
                Kind::Measurement,
                Kind::Subject,
                Kind::Reading
            ]
        );
        // What shows a site's declared records reads every kind they may name.
        let table = Directive::Table(crate::model::directive::Table {
            of: "experiment".into(),
            columns: vec![],
        });
        assert_eq!(directive_reads(Some(&table)), all());
        assert_eq!(directive_reads(None), all());
    }

    #[test]
    fn summaries() {
        assert_eq!(ids(&["observers"]).summary(9), "1 of 9 pages re-rendered");
        assert_eq!(Rerendered::Everything.summary(9), "all 9 pages re-rendered");
    }
}

#[cfg(test)]
mod digests {
    use super::digest;
    use crate::model::types::SiteConfig;

    /// A config read from `yaml` (a minimal one with `extra` appended).
    fn config(extra: &str) -> SiteConfig {
        let text = format!("title: {{ja: 題, en: Title}}\n{extra}");
        serde_saphyr::from_str(&text).expect("a config")
    }

    /// Every field of the config is in its digest, the last-declared ones too: a change
    /// of any of them rebuilds every page.
    #[test]
    fn each_config_field_changes_the_digest() {
        let base = digest(&config(""));
        for extra in [
            "history: true\n",
            "search: true\n",
            "maps_file: decisions.yaml\n",
            "subject: other\n",
            "packs: [some]\n",
            "base_url: https://example.org/\n",
        ] {
            assert_ne!(digest(&config(extra)), base, "{extra}");
        }
        assert_eq!(
            digest(&config("")),
            base,
            "the same config, the same digest"
        );
    }
}
