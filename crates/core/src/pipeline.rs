//! The pipeline, top to bottom: load → model → derive → check → render → write.
//! `build`, `check`, `serve`, `diff` and `probe` all go through here; none has its own copy.

use crate::check;
use crate::derive::{self, Derived};
use crate::diagnostics::{Diagnostic, Diagnostics, Severity};
use crate::load::messages::Messages;
use crate::load::{self, ParseCache, Reuse, Sources, Theme};
use crate::model::markup::{Judge, Notes};
use crate::model::page::{PageLinks, PageSource};
use crate::model::values::Values;
use crate::model::{self, Evidence};
use crate::render::links::Links;
use crate::render::{MemorySink, NullSink, Renderer, Sink, Site, search};
use crate::timings;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

/// The evidence of a site, loaded, resolved and derived, with what was found on the way.
pub struct Loaded {
    /// The templates, messages and static files (the rest of the sources is in `evidence`).
    pub theme: Theme,
    pub evidence: Evidence,
    pub derived: Derived,
    pub diagnostics: Diagnostics,
    /// The parsed data files, when loaded with a cache (`serve`'s next rebuild reuses them).
    pub parsed: Option<ParseCache>,
}

/// What one full pass produced. `site` is `None` when the sources could not be loaded.
pub struct Outcome {
    pub loaded: Option<Loaded>,
    pub site: Option<Site>,
    pub diagnostics: Diagnostics,
}

/// Load → model → derive: the graph alone, as `diff` and `probe` need it.
/// Fails only when the site cannot be read at all (no or broken `evidence.yaml`).
pub fn evidence(root: &Path) -> Result<Loaded, Diagnostics> {
    evidence_with(root, Reuse::default())
}

/// [`evidence`], reusing data files parsed before (see [`load::load_with`]).
pub fn evidence_with(root: &Path, reuse: Reuse) -> Result<Loaded, Diagnostics> {
    let (sources, mut diagnostics) = timings::time("load", || load::load_with(root, reuse))?;
    let Sources {
        config,
        data,
        pages,
        theme,
        parsed,
        ..
    } = sources;
    let (mut evidence, model_diags) = timings::time("model", || model::build(config, data, pages));
    diagnostics.extend(model_diags);
    if let Some(c) = evidence.config.as_ref().filter(|c| c.history) {
        let maps = c.maps_file().to_string();
        evidence.history = Some(timings::time("history", || {
            load::history::read(root, &maps)
        }));
    }
    let derived = timings::time("derive", || derive::derive(&evidence));
    Ok(Loaded {
        theme,
        evidence,
        derived,
        diagnostics,
        parsed,
    })
}

/// Everything: load, check and render the site under `root` in memory.
pub fn run(root: &Path) -> Outcome {
    let sink = MemorySink::default();
    let (loaded, diagnostics, rendered) = run_into(root, &sink);
    Outcome {
        loaded,
        site: rendered.then(|| sink.into_site()),
        diagnostics,
    }
}

/// Loaded and checked: what rendering needs, and every problem found before rendering.
pub struct Checked {
    pub loaded: Loaded,
    pub messages: Arc<Messages>,
    pub values: Arc<Values>,
    pub diagnostics: Diagnostics,
}

/// Load → model → derive → check. Fails only when the site cannot be read at all.
pub fn checked(root: &Path) -> Result<Checked, Diagnostics> {
    checked_with(root, Reuse::default())
}

/// [`checked`], reusing data files parsed before.
pub fn checked_with(root: &Path, reuse: Reuse) -> Result<Checked, Diagnostics> {
    let mut loaded = evidence_with(root, reuse)?;
    let messages = Arc::new(Messages::load(&loaded.theme, loaded.evidence.languages()));
    let mut diagnostics = std::mem::take(&mut loaded.diagnostics);
    // Cheap: the quoting tree is made when a quote first needs it.
    let values = Arc::new(Values::new(&loaded.evidence));
    timings::time("check", || {
        check::check(
            &loaded.evidence,
            &loaded.derived,
            &messages,
            &values,
            &loaded.theme,
            root,
            &mut diagnostics,
        )
    });
    Ok(Checked {
        loaded,
        messages,
        values,
        diagnostics,
    })
}

/// Load, check and render, handing each output file to `sink` as it is ready.
/// Returns whether rendering ran (it does not when the sources or templates failed).
pub fn run_into(root: &Path, sink: &dyn Sink) -> (Option<Loaded>, Diagnostics, bool) {
    run_reusing(root, Reuse::default(), sink)
}

/// [`run_into`], reusing data files parsed before.
pub fn run_reusing(
    root: &Path,
    reuse: Reuse,
    sink: &dyn Sink,
) -> (Option<Loaded>, Diagnostics, bool) {
    match checked_with(root, reuse) {
        Ok(c) => {
            let r = render_all(root, c, sink);
            (r.loaded, r.diagnostics, r.ran)
        }
        Err(diagnostics) => (None, diagnostics, false),
    }
}

/// `evidence check`: load and check the site under `root`, rendering (into nothing) only
/// what judging its fragment links needs ([`render_for_check`]).
pub fn check_reusing(root: &Path, reuse: Reuse) -> (Option<Loaded>, Diagnostics) {
    match checked_with(root, reuse) {
        Ok(c) => {
            let r = render_for_check(root, c);
            (r.loaded, r.diagnostics)
        }
        Err(diagnostics) => (None, diagnostics),
    }
}

/// What a render of some pages carries from the build before it (`serve`), and hands on
/// to the next.
#[derive(Default)]
pub struct Carried {
    /// The pages the search index holds: those not rendered again stay in the index
    /// (`None` when nothing was rendered, or the sink keeps nothing).
    pub corpus: Option<search::Corpus>,
    /// Each HTML file's ids and fragment links, by file: a page left alone whose links
    /// point into a page whose ids changed is rendered again, and the links of the pages
    /// rendered are judged against every page's ids.
    pub links: BTreeMap<String, PageLinks>,
}

/// What a render did.
pub struct Rendered {
    pub loaded: Option<Loaded>,
    pub diagnostics: Diagnostics,
    /// Whether rendering ran (it does not when the templates failed).
    pub ran: bool,
    /// What the next render of some pages starts from.
    pub carried: Carried,
    /// The pages rendered beyond those asked for: they link with a fragment into a page
    /// rendered whose ids changed, so their links may have changed too.
    pub also: BTreeSet<String>,
}

/// What a render pass found besides diagnostics, for [`Rendered`].
#[derive(Default)]
struct Pass {
    carried: Carried,
    also: BTreeSet<String>,
}

/// `check`'s render: it keeps no page, so it judges every block by parsing it (which
/// tells it the pages that write fragment links), renders only the pages whose fragments
/// it judges and the pages those point to, and judges those fragments.
pub fn render_for_check(root: &Path, mut checked: Checked) -> Rendered {
    let written = judge_blocks_by_parsing(
        &checked.loaded.evidence,
        &checked.values,
        &mut checked.diagnostics,
    );
    with_renderer(checked, |r, diags| {
        let ev = r.ev;
        let links = Links::new(&NullSink, base_url(ev));
        let mut found = Vec::new();
        timings::time("render", || {
            render_fragment_sources(&r, &links, &written, &mut found)
        });
        release(r);
        let pages = links.into_pages();
        judge_fragments(&pages, None, ev, root, diags, &mut found);
        diags.extend(found);
        Pass {
            carried: Carried {
                corpus: None,
                links: pages,
            },
            also: BTreeSet::new(),
        }
    })
}

/// A build's render: every page and every file of no page into `sink`, each page's
/// blocks judged on the notes its rendering took, then every fragment link judged.
pub fn render_all(root: &Path, checked: Checked, sink: &dyn Sink) -> Rendered {
    with_renderer(checked, |r, diags| {
        let ev = r.ev;
        let collector = search_collector(sink, ev, None);
        let links = Links::new(searched(sink, &collector), base_url(ev));
        let mut found = Vec::new();
        timings::time("render", || {
            r.render_pages(None, &links, &block_judge(ev, &r.values), &mut found)
        });
        release(r);
        let pages = links.into_pages();
        judge_fragments(&pages, None, ev, root, diags, &mut found);
        let corpus = finish_search(collector);
        diags.extend(found);
        Pass {
            carried: Carried {
                corpus,
                links: pages,
            },
            also: BTreeSet::new(),
        }
    })
}

/// `serve`'s render of the pages in `only` (and the files of no page) into `sink`, from
/// what the build before left: the pages left alone that link into a page whose ids
/// changed are rendered too ([`Rendered::also`]), and the links of the pages rendered
/// are judged against every page's ids, those of the pages left alone as the build
/// before found them.
pub fn render_again(
    root: &Path,
    checked: Checked,
    only: &BTreeSet<String>,
    sink: &dyn Sink,
    carried: Carried,
) -> Rendered {
    let Carried {
        corpus,
        links: before,
    } = carried;
    with_renderer(checked, |r, diags| {
        let ev = r.ev;
        let collector = search_collector(sink, ev, corpus);
        let links = Links::new(searched(sink, &collector), base_url(ev));
        let mut found = Vec::new();
        let also = timings::time("render", || {
            let judge = block_judge(ev, &r.values);
            r.render_pages(Some(only), &links, &judge, &mut found);
            render_stale_linkers(&r, &links, &before, &judge, &mut found)
        });
        release(r);
        let now = links.into_pages();
        let files: BTreeSet<String> = now.keys().cloned().collect();
        let mut all = before;
        all.extend(now);
        judge_fragments(&all, Some(&files), ev, root, diags, &mut found);
        let corpus = finish_search(collector);
        diags.extend(found);
        Pass {
            carried: Carried { corpus, links: all },
            also,
        }
    })
}

/// Makes the site's renderer and hands it to `pass`, then gives the outcome: the render
/// did not run (`Rendered::ran` false, the template error told) when the templates fail.
fn with_renderer(
    checked: Checked,
    pass: impl FnOnce(Renderer<'_>, &mut Diagnostics) -> Pass,
) -> Rendered {
    let Checked {
        loaded,
        messages,
        values,
        mut diagnostics,
    } = checked;
    let made = timings::time("render", || {
        Renderer::new(
            &loaded.evidence,
            &loaded.derived,
            &loaded.theme,
            messages,
            values,
        )
    });
    let pass = match made {
        Ok(r) => Some(pass(r, &mut diagnostics)),
        Err(d) => {
            diagnostics.push(d);
            None
        }
    };
    let ran = pass.is_some();
    let Pass { carried, also } = pass.unwrap_or_default();
    Rendered {
        loaded: Some(loaded),
        diagnostics,
        ran,
        carried,
        also,
    }
}

/// Judges every page's blocks by parsing them (`check`, which renders few pages);
/// returns, per page, the fragment links it writes.
fn judge_blocks_by_parsing(
    ev: &Evidence,
    values: &Values,
    diagnostics: &mut Diagnostics,
) -> Vec<check::blocks::Written> {
    let mut found = Vec::new();
    let written = timings::time("check", || check::blocks::check(ev, values, &mut found));
    diagnostics.extend(found);
    written
}

/// A build's judgment of a page's blocks, on the notes its rendering took, as soon as the
/// page is rendered (render calls it without knowing `check`).
fn block_judge<'a>(
    ev: &'a Evidence,
    values: &'a Values,
) -> impl Fn(&PageSource, &[(usize, Notes)]) -> Vec<Diagnostic> + Sync + 'a {
    move |page, notes| check::blocks::rendered(page, notes, ev, values)
}

/// The site's `base_url`, whose absolute links are links into the site.
fn base_url(ev: &Evidence) -> Option<&str> {
    ev.config
        .as_ref()
        .and_then(|c| c.base_url.as_ref())
        .map(|b| b.value.as_str())
}

/// The reader of each page for the search index on its way to `sink`, when the site asks
/// for search and the sink keeps what it is given; `carried`, the index of the build
/// before, whose pages stand until rendered again.
fn search_collector<'s>(
    sink: &'s dyn Sink,
    ev: &Evidence,
    carried: Option<search::Corpus>,
) -> Option<search::Collector<'s>> {
    let config = ev.config.as_ref().filter(|c| c.search)?;
    (!sink.discards()).then(|| search::Collector::new(sink, ev, config.views(), carried))
}

/// The sink pages go to: through the search collector when there is one.
fn searched<'s>(sink: &'s dyn Sink, collector: &'s Option<search::Collector<'s>>) -> &'s dyn Sink {
    match collector {
        Some(c) => c,
        None => sink,
    }
}

/// Writes the search index after the pages; the pages it holds, for the next render.
fn finish_search(collector: Option<search::Collector>) -> Option<search::Corpus> {
    collector.map(|c| timings::time("search", || c.finish()))
}

/// `check`'s pages: those whose fragments it judges, then the pages those fragments point
/// to, until none is missing.
fn render_fragment_sources(
    r: &Renderer,
    links: &Links,
    written: &[check::blocks::Written],
    found: &mut Vec<Diagnostic>,
) {
    let no_judge: Judge = &|_, _| Vec::new();
    let mut done = check::fragments::to_render(r.ev, written);
    r.render_pages(Some(&done), links, no_judge, found);
    loop {
        let more: BTreeSet<String> = links
            .seen(|p| check::fragments::unrendered_targets(p, r.ev))
            .difference(&done)
            .cloned()
            .collect();
        if more.is_empty() {
            return;
        }
        r.render_some(&more, links, no_judge, found);
        done.extend(more);
    }
}

/// Renders the pages left alone that link with a fragment into a page just rendered
/// whose ids changed (a page's output depends on the heading ids of the pages it links
/// into, `markdown::Headings`); returns them.
fn render_stale_linkers(
    r: &Renderer,
    links: &Links,
    before: &BTreeMap<String, PageLinks>,
    judge: Judge,
    found: &mut Vec<Diagnostic>,
) -> BTreeSet<String> {
    let stale = links.seen(|now| check::fragments::stale(before, now, r.ev));
    if !stale.is_empty() {
        r.render_some(&stale, links, judge, found);
    }
    stale
}

/// Lets the renderer go. The values tree, when a quote made it, of a site with many probe
/// runs (10^5 cases and more) takes a while to free: another thread frees it while
/// fragments are judged and the output is written.
fn release(r: Renderer) {
    let values = Arc::clone(&r.values);
    drop(r);
    rayon::spawn(move || drop(values));
}

/// Judges the fragment links of the pages in `files` (every page when `None`) against
/// the ids of `pages` — on a site with no error found so far: a link made for a record
/// that is missing is that error's consequence, told already.
fn judge_fragments(
    pages: &BTreeMap<String, PageLinks>,
    files: Option<&BTreeSet<String>>,
    ev: &Evidence,
    root: &Path,
    diagnostics: &Diagnostics,
    found: &mut Vec<Diagnostic>,
) {
    let errors = diagnostics.has_errors() || found.iter().any(|d| d.severity == Severity::Error);
    if !errors {
        check::fragments::check(pages, files, ev, root, found);
    }
}

/// What figures drawn away from the site need of a loaded site (the review page of
/// `evidence diff`): its messages, values and page index, made once per side however many
/// figures are drawn, in the site's English view (its first language's without English).
pub struct Figures<'l> {
    loaded: &'l Loaded,
    msgs: Messages,
    values: Values,
    pages: crate::render::view::PageIndex,
    view: crate::model::view::View,
}

impl<'l> Figures<'l> {
    /// `None` for a site without languages.
    pub fn new(loaded: &'l Loaded) -> Option<Figures<'l>> {
        use crate::model::page::Lang;
        let ev = &loaded.evidence;
        let langs = ev.languages();
        let lang = langs
            .iter()
            .copied()
            .find(|l| *l == Lang::EN)
            .or(langs.first().copied())?;
        Some(Figures {
            loaded,
            msgs: Messages::load(&loaded.theme, langs),
            values: Values::new(ev),
            pages: crate::render::view::PageIndex::new(ev),
            view: crate::model::view::View::one(lang),
        })
    }

    fn scope(&self) -> crate::render::scope::Scope<'_> {
        crate::render::scope::Scope {
            ev: &self.loaded.evidence,
            derived: &self.loaded.derived,
            msgs: &self.msgs,
            values: &self.values,
            pages: &self.pages,
            view: self.view,
            page_id: "index",
            headings: None,
            later: None,
        }
    }

    /// The diagram of decision map `map` as inline SVG whose title and description ids
    /// start with `prefix` (apart from the other side's on one page); `None` without the
    /// map.
    pub fn map(&self, map: &str, prefix: &str) -> Option<String> {
        let m = self.loaded.evidence.maps.get(map)?;
        let id = format!("{prefix}-{}", crate::render::figures::slug(map));
        crate::render::figures::map_svg(&self.scope(), &m.value, &m.file, &id)
    }

    /// The plot of `run` (of either side) over the zones of decision map `map` as this
    /// side has it, as inline SVG: drawn on both sides of a diff, the cases a changed map
    /// moves to another zone are seen moving. `None` without the map.
    pub fn run_over_map(
        &self,
        run: &crate::model::Located<crate::model::Run>,
        map: &str,
        id: &str,
    ) -> Option<String> {
        self.loaded.evidence.maps.get(map)?;
        let mut r = run.clone();
        r.value.assessed_against = Some(crate::model::Id::unplaced(map));
        crate::render::figures::run_svg(&self.scope(), &r, id)
    }
}

/// Fixture sites loaded and the checks every site's records are held to, for this crate's
/// tests and a pack's (which loads the sites that turn it on).
#[cfg(any(test, feature = "test-support"))]
pub mod test_support {
    use super::*;
    use crate::model::strings::test_support::{tree_walk, walked};
    use crate::model::values::export;

    /// The repository's root, where the fixture sites and the investigation are.
    pub fn repository() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// The sites under the repository at these paths, loaded.
    pub fn loaded(paths: &[&'static str]) -> Vec<(&'static str, Loaded)> {
        let root = repository();
        paths
            .iter()
            .copied()
            .map(|site| match evidence(&root.join(site)) {
                Ok(loaded) => (site, loaded),
                Err(_) => panic!("{site} loads"),
            })
            .collect()
    }

    /// Every record gives the strings of its JSON form, texts marked the same (in the
    /// order the record writes them, not sorted): what `check` and serve read of data.
    pub fn strings_are_the_jsons(sites: &[(&str, Loaded)]) {
        for (site, loaded) in sites {
            let ev = &loaded.evidence;
            let mut records = 0;
            for kind in crate::model::registry::all() {
                crate::model::with_collection!(ev, kind, |c| {
                    for r in c.iter() {
                        records += 1;
                        let json = serde_json::to_value(&r.value).unwrap_or_default();
                        let mut want = Vec::new();
                        tree_walk(&json, ev.languages(), &mut want);
                        let mut got = walked(&r.value, ev.languages());
                        want.sort();
                        got.sort();
                        assert_eq!(got, want, "{site} {kind:?}");
                    }
                }, pages => {})
            }
            assert!(records > 5, "{site}: {records}");
        }
    }

    /// `evidence.json`, written from the typed records, holds what the quoting tree holds,
    /// laid out as serde_json lays out a tree (key order aside).
    pub fn export_is_the_tree(sites: &[(&str, Loaded)]) {
        for (site, loaded) in sites {
            let ev = &loaded.evidence;
            let exported = export(ev);
            let tree = Values::new(ev).json(ev).clone();
            let parsed: serde_json::Value = serde_json::from_str(&exported).unwrap_or_default();
            assert_eq!(parsed, tree, "{site}");
            let relaid = serde_json::to_string_pretty(&parsed).unwrap_or_default();
            assert_eq!(
                relaid,
                serde_json::to_string_pretty(&tree).unwrap_or_default()
            );
            assert_eq!(exported.lines().count(), relaid.lines().count(), "{site}");
            assert!(tree.as_object().is_some_and(|m| m.len() > 3), "{site}");
        }
    }

    /// The export is the same whatever size of batches it is handed over in.
    pub fn export_is_batch_free(sites: &[(&str, Loaded)]) {
        for (site, loaded) in sites {
            let ev = &loaded.evidence;
            let whole = export(ev);
            for batch in [1, 2, 3, 1_000_000] {
                let mut batched = String::new();
                let mut pieces = 0;
                crate::model::values::export_in_batches(ev, batch, &mut |s| {
                    batched.push_str(s);
                    pieces += 1;
                });
                assert_eq!(batched, whole, "{site}, {batch} at a time");
                // Handed over in pieces, not as one text.
                assert!(pieces > 10, "{site}: {pieces}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    /// Fixture sites of no pack, loaded (a pack's tests load sites that turn it on with
    /// [`loaded`] and hold them to the same checks: a pack's own, on this repository).
    fn sites() -> Vec<(&'static str, Loaded)> {
        loaded(&[
            "tests/fixtures/planner",
            "tests/fixtures/figures",
            "tests/fixtures/three_languages",
        ])
    }

    /// Every record gives the strings of its JSON form (see [`strings_are_the_jsons`]).
    #[test]
    fn every_record_gives_the_strings_of_its_json() {
        strings_are_the_jsons(&sites());
    }

    /// `evidence.json` holds what the quoting tree holds (see [`export_is_the_tree`]).
    #[test]
    fn the_export_is_the_tree() {
        export_is_the_tree(&sites());
        assert_eq!(
            crate::model::values::export(&crate::model::Evidence::default()),
            "{}"
        );
    }

    #[test]
    fn the_export_is_the_same_whatever_its_batches() {
        export_is_batch_free(&sites());
    }
}
