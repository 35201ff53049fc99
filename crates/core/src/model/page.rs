//! A content page as parsed: front matter, language blocks (`:::ja`, `:::en`, one per
//! language of the site) and `::directive` lines.
//!
//! Plain data: `load::page` parses a file into it, and every later stage reads it. Each
//! block and directive keeps the line it starts on, so later stages can point at it.

use super::directive::ArgError;
use super::{Id, Text};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Front matter of a page.
#[derive(Debug, Clone, Deserialize, serde::Serialize, Hash)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    pub title: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
    /// Position in the navigation; lower comes first.
    #[serde(default = "default_order")]
    pub order: i64,
    /// When the page was last revised, `YYYY-MM-DD`; positions are within the front matter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Id>,
}

fn default_order() -> i64 {
    100
}

pub use super::lang::Lang;

/// One piece of a page body.
#[derive(Debug, Clone)]
pub enum Item {
    Block(Block),
    Directive(DirectiveLine),
}

#[derive(Debug, Clone)]
pub struct Block {
    pub lang: Lang,
    /// Markdown between the fences, shared: `serve` carries the pages an edit did not
    /// touch from one load into the next without copying their text.
    pub markdown: std::sync::Arc<str>,
    /// Line of the opening fence.
    pub line: usize,
    /// Line of the first markdown line.
    pub body_line: usize,
    /// What the block's statements rest on, when its fence says
    /// (`:::en{basis="source" source="https://…"}`).
    pub basis: Option<BlockBasis>,
}

/// The basis a prose block's fence gives it, and the source a `source` basis links to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BlockBasis {
    pub basis: super::types::Basis,
    /// The address of the source read (`source="…"`), shown as a link with the badge.
    pub source: Option<String>,
}

#[derive(Debug, Clone)]
pub struct DirectiveLine {
    pub name: String,
    pub attrs: BTreeMap<String, String>,
    pub line: usize,
    /// The typed directive, or why the line names none: resolved once against the
    /// evidence by `model::build` (`None` until then), and read by check, render and
    /// incremental rebuild alike.
    pub resolution: Option<Result<super::directive::Directive, ArgError>>,
}

/// What [`DirectiveLine::resolved`] answers for a line `model::build` never resolved.
static NOT_RESOLVED: ArgError = ArgError::NotResolved;

impl DirectiveLine {
    /// The directive this line names, as `model::build` resolved it.
    pub fn resolved(&self) -> Result<&super::directive::Directive, &ArgError> {
        match &self.resolution {
            Some(Ok(d)) => Ok(d),
            Some(Err(e)) => Err(e),
            None => Err(&NOT_RESOLVED),
        }
    }
}

/// A parsed content file.
#[derive(Debug, Clone)]
pub struct PageSource {
    /// Page id: the file path under `content/` without `.md`.
    pub id: String,
    /// Path relative to the site root.
    pub file: String,
    pub front: FrontMatter,
    pub items: Vec<Item>,
    /// Made from the data (a run's own page, see `model::generated`), not read from
    /// `content/`; `file` is then the data file it was made from.
    pub generated: bool,
    /// A hash of the text it was parsed from (`None` for a generated page): equal
    /// hashes, equal sources, so `serve` fingerprints an unchanged page without walking it.
    pub text_hash: Option<u64>,
}

impl PageSource {
    /// The page's blocks in groups, in order: blocks in a row, a group ending where a
    /// language comes again or a directive stands. Each group says one thing once in each
    /// language (as `check` holds it to, and `diff` compares).
    pub fn block_groups(&self) -> Vec<Vec<&Block>> {
        let mut out: Vec<Vec<&Block>> = Vec::new();
        let mut open = false;
        for item in &self.items {
            match item {
                Item::Block(b) => {
                    match out
                        .last_mut()
                        .filter(|g| open && !g.iter().any(|x| x.lang == b.lang))
                    {
                        Some(g) => g.push(b),
                        None => out.push(vec![b]),
                    }
                    open = true;
                }
                Item::Directive(_) => open = false,
            }
        }
        out
    }
}

/// What one rendered page holds and points at, as the renderer noted it: the facts
/// `check` judges links by, without reading HTML itself.
#[derive(Debug, Default)]
pub struct PageLinks {
    /// The page's element ids, by a 64-bit hash of each, sorted: a site of 30,000 page
    /// views holds about a million ids, and only whether one is there is asked.
    ids: Vec<u64>,
    /// The same ids written out, one a line (an id holds no whitespace): read only to
    /// suggest the nearest to a fragment the page lacks.
    names: String,
    /// Links with a fragment, as (target file below the site root, fragment).
    pub fragments: Vec<(String, String)>,
}

impl PageLinks {
    /// The facts of a page with these element ids.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a str>) -> PageLinks {
        let mut names = String::new();
        let mut hashes = Vec::new();
        for id in ids {
            hashes.push(id_hash(id));
            names.push_str(id);
            names.push('\n');
        }
        hashes.sort_unstable();
        hashes.dedup();
        PageLinks {
            ids: hashes,
            names,
            fragments: Vec::new(),
        }
    }

    /// The page's element id nearest to `fragment`, when one is near enough to be what
    /// was meant (`refs::closest`).
    pub fn nearest_id(&self, fragment: &str) -> Option<&str> {
        super::refs::closest(fragment, self.names.lines())
    }

    /// Whether the page has an element with id `id`.
    pub fn has(&self, id: &str) -> bool {
        self.ids.binary_search(&id_hash(id)).is_ok()
    }

    /// Whether `other` has the same element ids.
    pub fn same_ids(&self, other: &PageLinks) -> bool {
        self.ids == other.ids
    }
}

/// A fixed 64-bit hash of an id (FxHash: the same in every run).
fn id_hash(id: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    id.hash(&mut h);
    h.finish()
}
