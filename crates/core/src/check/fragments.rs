//! Every `#fragment` a page links to, written or generated, names an id its target page
//! really has. Judged on the facts the renderer noted ([`PageLinks`]): which ids each
//! page has and where its links point. A written link is placed at its text in the
//! page's source; a generated one at the page, since no line of a source made it.
//!
//! A build renders every page anyway. `check` renders only the pages these facts can
//! come from ([`to_render`]) and then the pages their fragments point to
//! ([`unrendered_targets`]), until no fragment points at a page not rendered: a page with
//! no directive and no written fragment link makes links only through the page template,
//! which one rendered page (the home page) already shows.

use super::blocks::Written;
use crate::diagnostics::{Diagnostic, Span, span_at};
use crate::model::page::{Item, PageLinks, PageSource};
use crate::model::{Evidence, Record, strings};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The page (by id) that output file `file` is a view of.
fn page_of<'e>(ev: &'e Evidence, file: &str) -> Option<&'e PageSource> {
    let rest = file.strip_suffix("index.html")?;
    // A view's folder (`ja/`) first, else the interleaved view at the root.
    let candidates = ev
        .languages()
        .iter()
        .filter_map(|l| rest.strip_prefix(&format!("{}/", l.code())))
        .chain([rest]);
    for c in candidates {
        let id = c.trim_end_matches('/');
        let id = if id.is_empty() { "index" } else { id };
        if let Some(p) = ev.pages.iter().find(|p| p.id == id) {
            return Some(p);
        }
    }
    None
}

/// The pages (by id) whose rendering `check` needs first: the home page (the page
/// template's sample), every page with a directive (its tables and figures link to
/// records' rows, and show data texts that may) and every page that writes a fragment
/// link, with the pages it names. `written` is by `ev.pages`' order.
pub fn to_render(ev: &Evidence, written: &[Written]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(home) = ev.page("index").or(ev.pages.first()) {
        out.insert(home.id.clone());
    }
    for (page, w) in ev.pages.iter().zip(written) {
        let directive = page.items.iter().any(|i| matches!(i, Item::Directive(_)));
        if page.generated || directive || w.fragments {
            out.insert(page.id.clone());
            out.extend(w.targets.iter().cloned());
        }
    }
    out
}

/// The pages (by id) that links of the rendered `pages` point into with a fragment but
/// that were not rendered: their ids are needed to judge those links.
pub fn unrendered_targets(pages: &BTreeMap<String, PageLinks>, ev: &Evidence) -> BTreeSet<String> {
    pages
        .values()
        .flat_map(|p| &p.fragments)
        .filter(|(target, _)| !pages.contains_key(target))
        .filter_map(|(target, _)| page_of(ev, target).map(|p| p.id.clone()))
        .collect()
}

/// The pages (by id) not among those just rendered (`now`) that the build before
/// (`before`) found linking with a fragment into a page whose ids have changed since: the
/// targets of their links, and so their links, may have changed with those ids, so they
/// are rendered and judged again.
pub fn stale(
    before: &BTreeMap<String, PageLinks>,
    now: &BTreeMap<String, PageLinks>,
    ev: &Evidence,
) -> BTreeSet<String> {
    let changed: BTreeSet<&str> = now
        .iter()
        .filter(|(file, page)| before.get(*file).is_none_or(|b| !b.same_ids(page)))
        .map(|(file, _)| file.as_str())
        .collect();
    if changed.is_empty() {
        return BTreeSet::new();
    }
    before
        .iter()
        .filter(|(file, _)| !now.contains_key(*file))
        .filter(|(_, page)| {
            page.fragments
                .iter()
                .any(|(target, _)| changed.contains(target.as_str()))
        })
        .filter_map(|(file, _)| page_of(ev, file).map(|p| p.id.clone()))
        .collect()
}

/// Judges the fragment links of the pages in `files` (every page when `None`) against
/// the ids of `pages`. Each broken one is placed where the loaded sources write it.
pub fn check(
    pages: &BTreeMap<String, PageLinks>,
    files: Option<&BTreeSet<String>>,
    ev: &Evidence,
    root: &Path,
    diags: &mut Vec<Diagnostic>,
) {
    // One report per source and fragment, however many views repeat the link.
    let mut told = BTreeSet::new();
    let judged: Box<dyn Iterator<Item = (&String, &PageLinks)>> = match files {
        Some(files) => Box::new(files.iter().filter_map(|f| pages.get_key_value(f))),
        None => Box::new(pages.iter()),
    };
    for (file, page) in judged {
        for (target, fragment) in &page.fragments {
            // A page not rendered this time (an incremental rebuild) cannot be judged.
            let Some(to) = pages.get(target) else {
                continue;
            };
            if fragment.is_empty() || to.has(fragment) {
                continue;
            }
            let source = page_of(ev, file);
            let source_file = source.map_or(file.as_str(), |p| p.file.as_str());
            let target_id = page_of(ev, target).map_or(target.as_str(), |p| p.id.as_str());
            if !told.insert((
                source_file.to_string(),
                target_id.to_string(),
                fragment.clone(),
            )) {
                continue;
            }
            let needle = format!("#{fragment}");
            let span = source
                .filter(|p| !p.generated)
                .and_then(|p| in_blocks(p, &needle))
                .or_else(|| in_data(ev, root, &needle))
                .unwrap_or_else(|| Span::file(source_file));
            diags.push(broken(span, fragment, target_id, to.nearest_id(fragment)));
        }
    }
}

/// The finding of a link to `#fragment` on page `target_id`, which lacks it; `nearest`,
/// the page's id nearest to it.
fn broken(span: Span, fragment: &str, target_id: &str, nearest: Option<&str>) -> Diagnostic {
    let suggestion = nearest
        .map(|id| format!("; did you mean `#{id}`?"))
        .unwrap_or_default();
    Diagnostic::error(
        "broken-fragment",
        span,
        format!(
            "a link to `#{fragment}` on page `{target_id}`, which has no element with that \
             id{suggestion}"
        ),
    )
    .with_hint(
        "link to an id the page has: a record's row is `kind-id`, a figure `fig-…`, a \
         heading its slug",
    )
}

/// Where a block of `page`, as loaded, writes `needle`.
fn in_blocks(page: &PageSource, needle: &str) -> Option<Span> {
    page.items.iter().find_map(|item| match item {
        Item::Block(b) => {
            let at = b.markdown.find(needle)?;
            Some(span_at(&page.file, &b.markdown, at, b.body_line))
        }
        Item::Directive(_) => None,
    })
}

/// Where a text of the data, as loaded, writes `needle`: the first record (in the
/// registry's order of kinds) with a string that holds it, placed on the line of its
/// file that writes it past the record's id (read again within the source budget only
/// to place it), else at the record's id.
fn in_data(ev: &Evidence, root: &Path, needle: &str) -> Option<Span> {
    let (file, line) = record_writing(ev, needle)?;
    let placed = crate::load::read::read_text(&root.join(&file), crate::load::read::SOURCE)
        .ok()
        .and_then(|text| {
            // Past the end when the file has fewer lines: then not placed, at the id.
            let from = crate::diagnostics::line_start(&text, line).unwrap_or(text.len());
            let at = from + text.get(from..)?.find(needle)?;
            Some(span_at(&file, &text, at, 1))
        });
    Some(placed.unwrap_or_else(|| Span::new(&file, line, 1)))
}

/// The file and id line of the first record with a string that holds `needle`.
fn record_writing(ev: &Evidence, needle: &str) -> Option<(String, usize)> {
    let mut found = None;
    for kind in crate::model::registry::all() {
        crate::model::with_collection!(ev, kind, |c| {
            for r in c.iter() {
                if found.is_some() {
                    break;
                }
                let mut holds = false;
                strings::each_in(&r.value, ev.languages(), &mut |s, _| {
                    holds |= s.contains(needle);
                });
                if holds {
                    found = Some((r.file.to_string(), r.value.id().referenced.line() as usize));
                }
            }
        }, pages => {});
        if found.is_some() {
            break;
        }
    }
    found
}
