//! Links between pages: which page lists each record, and relative URLs between the
//! views of pages (the views themselves are [`crate::model::view::View`]).

use crate::model::Evidence;
use crate::model::page::Item;
use crate::model::refs::Kind;

/// The site's pages: their ids, for link checks, and which page lists the records of
/// each kind, so that a reference like `bundle:bundle_0030` links to its row there.
#[derive(Debug, Default, Clone)]
pub struct PageIndex {
    ids: rustc_hash::FxHashSet<String>,
    /// False when a page failed to load: links to unknown pages are then not reported,
    /// since the page's own error already is.
    pub complete: bool,
    homes: rustc_hash::FxHashMap<Kind, String>,
    map_homes: rustc_hash::FxHashMap<String, String>,
    /// Run id → the run's own page.
    run_homes: rustc_hash::FxHashMap<String, String>,
    /// Declared record (`collection:id`) → its own page; declared collection → the page
    /// with its table (`::table{of=…}`).
    record_homes: rustc_hash::FxHashMap<String, String>,
    /// The page with the index of every run (`::runs`).
    runs_index: Option<String>,
}

impl PageIndex {
    pub fn new(ev: &Evidence) -> PageIndex {
        let mut index = PageIndex {
            ids: ev.pages.iter().map(|p| p.id.clone()).collect(),
            complete: !ev.incomplete.contains(&Kind::Page),
            runs_index: crate::model::generated::runs_index(&ev.pages).map(|p| p.id.clone()),
            ..PageIndex::default()
        };
        for page in &ev.pages {
            for item in &page.items {
                let Item::Directive(raw) = item else { continue };
                let Ok(d) = raw.resolved() else {
                    continue;
                };
                let single = match d.shows() {
                    Some((Kind::Map, id)) => Some((&mut index.map_homes, id)),
                    Some((Kind::Run, id)) => Some((&mut index.run_homes, id)),
                    // A record's own page (`collection:id`), or a collection's table.
                    Some((Kind::Record, key)) => Some((&mut index.record_homes, key)),
                    _ => None,
                };
                if let Some((homes, id)) = single {
                    homes
                        .entry(id.to_string())
                        .or_insert_with(|| page.id.clone());
                }
                if let Some(kind) = d.lists() {
                    index.homes.entry(kind).or_insert_with(|| page.id.clone());
                }
            }
        }
        index
    }

    /// The page with the index of every run, if any.
    pub fn runs_index(&self) -> Option<&str> {
        self.runs_index.as_deref()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    /// The page whose table has a row (anchor `<kind>-<id>`) for the record; for a run, the
    /// run's own page, whose case table has that anchor.
    pub fn home_of(&self, kind: Kind, id: &str) -> Option<&str> {
        match kind {
            Kind::Map => self.map_homes.get(id),
            Kind::Run => self.run_homes.get(id),
            Kind::Record => self.record_homes.get(id).or_else(|| {
                self.record_homes
                    .get(id.split_once(':').map_or(id, |(c, _)| c))
            }),
            _ => self.homes.get(&kind),
        }
        .map(String::as_str)
    }
}

impl<const N: usize> From<[&str; N]> for PageIndex {
    fn from(ids: [&str; N]) -> Self {
        PageIndex {
            ids: ids.iter().map(|s| s.to_string()).collect(),
            complete: true,
            ..PageIndex::default()
        }
    }
}

/// A relative link from a page at `depth` to a site path (`ja/observers/`).
pub fn relative(depth: usize, target: &str) -> String {
    let up = "../".repeat(depth);
    let s = format!("{up}{target}");
    if s.is_empty() { "./".to_string() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_links() {
        assert_eq!(relative(2, "observers/"), "../../observers/");
        assert_eq!(relative(0, ""), "./");
    }
}
