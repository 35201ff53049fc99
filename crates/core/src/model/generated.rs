//! Pages made from the data rather than from `content/`: one page per probe run, and one
//! per record of a declared collection that asks for them.
//!
//! The page that lists the runs (`::runs`) shows one summary row per run; each run's
//! cases, comparison and binary tables go on the run's own page below it
//! (`runs/<run-id>/`). One page per run keeps each page small however many runs and
//! cases a probe records, and lets the pages render in parallel.

use super::Collection;
use super::types::Run;
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::model::Text;
use crate::model::page::{DirectiveLine, FrontMatter, Item, PageSource};
use std::collections::{BTreeMap, HashMap};

/// Name of the directive that fills a run's page.
pub const RUN_PAGE: &str = "run-page";

/// The page that lists the runs (the first with `::runs`), if any.
pub fn runs_index(pages: &[PageSource]) -> Option<&PageSource> {
    pages.iter().find(|p| {
        p.items
            .iter()
            .any(|i| matches!(i, Item::Directive(d) if d.name == "runs"))
    })
}

/// The folder run pages go in: below the runs index, or `runs/` when that is the home page.
fn run_folder(index: &PageSource) -> String {
    match index.id.as_str() {
        "index" => "runs".to_string(),
        id => id.to_string(),
    }
}

/// The page of each run whose id can name a folder, after the content pages. A content
/// page that takes a run page's place is an error, and the run then has no page.
pub fn run_pages(
    pages: &[PageSource],
    runs: &Collection<Run>,
    diags: &mut Diagnostics,
) -> Vec<PageSource> {
    let Some(index) = runs_index(pages) else {
        return Vec::new();
    };
    let folder = run_folder(index);
    let taken: HashMap<&str, &str> = pages
        .iter()
        .map(|p| (p.id.as_str(), p.file.as_str()))
        .collect();
    let order = index.front.order;
    let mut out = Vec::new();
    for run in runs.iter() {
        let id = &run.id.value;
        // `bad-id` reports ids that cannot be a path segment; they get no page.
        if !crate::model::refs::valid_id(id) || id.starts_with('.') {
            continue;
        }
        let page_id = format!("{folder}/{id}");
        if let Some(file) = taken.get(page_id.as_str()) {
            diags.push(
                Diagnostic::error(
                    "page-collision",
                    Span::new(*file, 1, 1),
                    format!("this page takes the place of the page of run `{id}`"),
                )
                .with_hint(format!(
                    "each run gets a page at `{folder}/<run-id>/`; rename the content file"
                )),
            );
            continue;
        }
        out.push(run_page(&page_id, &run.file, run, order));
    }
    out
}

fn run_page(page_id: &str, file: &str, run: &Run, order: i64) -> PageSource {
    let title = Text::untranslated(&run.id.value);
    PageSource {
        id: page_id.to_string(),
        file: file.to_string(),
        front: FrontMatter {
            title,
            // The origin is markdown; the run table's notes show it rendered.
            description: None,
            order,
            date: None,
        },
        items: std::iter::once(Item::Directive(DirectiveLine {
            name: RUN_PAGE.to_string(),
            attrs: BTreeMap::from([("id".to_string(), run.id.value.clone())]),
            line: 1,
            resolution: None,
        }))
        // What the packs show of a run of theirs after its tables (a sweep's plot).
        .chain(
            super::pack::known()
                .iter()
                .flat_map(|p| (p.run_page_extras)(run))
                .map(|(name, attrs)| {
                    Item::Directive(DirectiveLine {
                        name: name.to_string(),
                        attrs: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
                        line: 1,
                        resolution: None,
                    })
                }),
        )
        .collect(),
        generated: true,
        text_hash: None,
    }
}

/// Name of the directive that fills a declared record's page.
pub const RECORD_PAGE: &str = "record-page";

/// The page of each record of a declared collection that asks for pages (`pages: true`):
/// below the first page with the collection's `::table` (or in a folder named after the
/// collection when that is the home page or there is none). A content page in a record
/// page's place is an error, and the record then has no page.
pub fn record_pages(
    pages: &[PageSource],
    records: &Collection<super::declared::Declared>,
    specs: &[super::declared::CollectionSpec],
    diags: &mut Diagnostics,
) -> Vec<PageSource> {
    // Pages so far, with their files: content, run pages, and the record pages made here.
    let mut taken: HashMap<String, String> = pages
        .iter()
        .map(|p| (p.id.clone(), p.file.clone()))
        .collect();
    let mut out = Vec::new();
    for spec in specs.iter().filter(|s| s.pages) {
        let name = spec.name.value.as_str();
        let table = pages.iter().find(|p| {
            p.items.iter().any(|i| {
                matches!(i, Item::Directive(d)
                    if d.name == "table" && d.attrs.get("of").map(String::as_str) == Some(name))
            })
        });
        let folder = match table.map(|p| p.id.as_str()) {
            None | Some("index") => name.to_string(),
            Some(id) => id.to_string(),
        };
        let order = table.map_or(0, |p| p.front.order);
        for r in records.iter().filter(|r| r.collection == name) {
            let id = &r.id.value;
            if !crate::model::refs::valid_id(id) || id.starts_with('.') {
                continue;
            }
            let page_id = format!("{folder}/{id}");
            if let Some(file) = taken.get(page_id.as_str()) {
                diags.push(
                    Diagnostic::error(
                        "page-collision",
                        Span::new(file.as_str(), 1, 1),
                        format!("this file's page takes the place of the page of {name} `{id}`"),
                    )
                    .with_hint(format!(
                        "each {name} gets a page at `{folder}/<id>/`: rename the content \
                         file or the record, or show the collection's table on another page"
                    )),
                );
                continue;
            }
            taken.insert(page_id.clone(), r.file.to_string());
            out.push(PageSource {
                id: page_id,
                file: r.file.to_string(),
                front: FrontMatter {
                    title: Text::untranslated(id.as_str()),
                    description: None,
                    order,
                    date: None,
                },
                items: vec![Item::Directive(DirectiveLine {
                    name: RECORD_PAGE.to_string(),
                    attrs: BTreeMap::from([
                        ("of".to_string(), name.to_string()),
                        ("id".to_string(), id.clone()),
                    ]),
                    line: 1,
                    resolution: None,
                })],
                generated: true,
                text_hash: None,
            });
        }
    }
    out
}
