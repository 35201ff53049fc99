//! The pipeline, top to bottom: load → model → derive → check → render → write.
//! `build`, `check`, `serve`, `diff` and `probe` all go through here; none has its own copy.

use crate::check;
use crate::derive::{self, Derived};
use crate::diagnostics::Diagnostics;
use crate::load::messages::Messages;
use crate::load::{self, ParseCache, Reuse, Sources, Theme};
use crate::model::page::PageLinks;
use crate::model::values::Values;
use crate::model::view::View;
use crate::model::{self, Evidence};
use crate::render::{MemorySink, Renderer, Sink, Site, search};
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
        Ok(c) => render_into(root, c, None, sink),
        Err(diagnostics) => (None, diagnostics, false),
    }
}

/// Renders a checked site into `sink`: the pages in `only` (every page when `None`) and
/// the files that belong to no page. Returns whether rendering ran (it does not when the
/// templates failed).
pub fn render_into(
    root: &Path,
    checked: Checked,
    only: Option<&BTreeSet<String>>,
    sink: &dyn Sink,
) -> (Option<Loaded>, Diagnostics, bool) {
    let r = render_carrying(root, checked, only, sink, Carried::default());
    (r.loaded, r.diagnostics, r.ran)
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

/// What [`render_carrying`] did.
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

/// [`render_into`], with what the build before left ([`Carried`], for `serve`).
pub fn render_carrying(
    root: &Path,
    checked: Checked,
    only: Option<&BTreeSet<String>>,
    sink: &dyn Sink,
    carried: Carried,
) -> Rendered {
    let Checked {
        loaded,
        messages,
        values,
        mut diagnostics,
    } = checked;
    let ev = &loaded.evidence;
    // `check` keeps no page, so it renders few (below): it judges every block by parsing
    // it, which tells it the pages that write fragment links. A build judges the blocks
    // after rendering, on the notes rendering took.
    let written = (only.is_none() && sink.discards()).then(|| {
        let mut found = Vec::new();
        let written = timings::time("check", || check::blocks::check(ev, &values, &mut found));
        diagnostics.extend(found);
        written
    });
    let renderer = timings::time("render", || {
        Renderer::new(
            &loaded.evidence,
            &loaded.derived,
            &loaded.theme,
            messages,
            values,
        )
    });
    let Carried {
        corpus: carried,
        links: before,
    } = carried;
    let mut corpus = None;
    let mut all_links = BTreeMap::new();
    let mut also = BTreeSet::new();
    let rendered = match renderer {
        Ok(r) => {
            let mut render_diags = Vec::new();
            // Each page is read for the search index on its way to the sink (when the site
            // asks for search, and not when the sink keeps nothing: `check`).
            let views = loaded
                .evidence
                .config
                .as_ref()
                .map_or(View::DEFAULT, |c| c.views());
            let wanted = loaded.evidence.config.as_ref().is_some_and(|c| c.search);
            let collector = (wanted && !sink.discards())
                .then(|| search::Collector::new(sink, &loaded.evidence, views, carried));
            let target: &dyn Sink = match &collector {
                Some(c) => c,
                None => sink,
            };
            // The renderer notes each page's ids and fragment links on the way to the
            // sink; `check` then judges every fragment against its target's ids.
            let base = loaded
                .evidence
                .config
                .as_ref()
                .and_then(|c| c.base_url.as_ref())
                .map(|b| b.value.as_str());
            let links = crate::render::links::Links::new(target, base);
            // A build judges each page's blocks on the notes its rendering took, as soon
            // as the page is rendered; `check` judged them all already.
            let values = &r.values;
            let judge = |page: &crate::model::page::PageSource,
                         notes: &[(usize, crate::model::markup::Notes)]| {
                check::blocks::rendered(page, notes, ev, values)
            };
            let judged: crate::model::markup::Judge = &judge;
            let none: crate::model::markup::Judge = &|_, _| Vec::new();
            timings::time("render", || match &written {
                // `check` renders the pages whose fragments it judges, then the pages
                // those fragments point to, until none is missing.
                Some(written) => {
                    let mut done = check::fragments::to_render(ev, written);
                    r.render_pages(Some(&done), &links, none, &mut render_diags);
                    loop {
                        let more: BTreeSet<String> = links
                            .seen(|p| check::fragments::unrendered_targets(p, ev))
                            .difference(&done)
                            .cloned()
                            .collect();
                        if more.is_empty() {
                            break;
                        }
                        r.render_some(&more, &links, none, &mut render_diags);
                        done.extend(more);
                    }
                }
                None => {
                    r.render_pages(only, &links, judged, &mut render_diags);
                    // A page's output depends on the heading ids of the pages it links
                    // into (`markdown::Headings`): where those changed, its links may have.
                    if only.is_some() {
                        also = links.seen(|now| check::fragments::stale(&before, now, ev));
                        if !also.is_empty() {
                            r.render_some(&also, &links, judged, &mut render_diags);
                        }
                    }
                }
            });
            // The values tree, when a quote made it, of a site with many probe runs (10^5
            // cases and more) takes a while to free: another thread frees it while
            // fragments are judged and the output is written.
            let values = Arc::clone(&r.values);
            drop(r);
            rayon::spawn(move || drop(values));
            // A link made for a record that is missing is that error's consequence, told
            // already: fragments are judged on a site with no other error.
            let errors = diagnostics.has_errors()
                || render_diags
                    .iter()
                    .any(|d| d.severity == crate::diagnostics::Severity::Error);
            // A render of some pages judges their links against every page's ids, those of
            // the pages left alone as the build before found them.
            let now = links.into_pages();
            let rendered_files: Option<BTreeSet<String>> =
                only.map(|_| now.keys().cloned().collect());
            all_links = match only {
                Some(_) => {
                    let mut all = before;
                    all.extend(now);
                    all
                }
                None => now,
            };
            if !errors {
                let files = rendered_files.as_ref();
                check::fragments::check(&all_links, files, ev, root, &mut render_diags);
            }
            corpus = collector.map(|c| timings::time("search", || c.finish()));
            diagnostics.extend(render_diags);
            true
        }
        Err(d) => {
            diagnostics.push(d);
            false
        }
    };
    Rendered {
        loaded: Some(loaded),
        diagnostics,
        ran: rendered,
        carried: Carried {
            corpus,
            links: all_links,
        },
        also,
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
