//! The ids of a page's headings: unique on the page and never one the page's frame or
//! its directives already use.
//!
//! A heading's id is its explicit `{#id}`, else a slug of its text. Within one language
//! of a page (the interleaved view prefixes each language's ids, so languages never meet)
//! the headings of all its blocks take their ids in order, as GitHub does: the first
//! `## Notes` is `notes`, the next `notes-1`, then `notes-2`; a slug that is taken
//! (by an earlier heading, by the theme's frame, [`TEMPLATE_IDS`], or by a table or figure
//! on the page) takes the next free suffix. An explicit id is the writer's promise that
//! it names one place: one that repeats a taken id is an error `check` reports
//! ([`explicit_repeats`]); rendering still makes it unique, so the page stays valid.

use rustc_hash::FxHashSet;

/// Every id the built-in theme's templates put on a page (`templates/base.html`,
/// `page.html`, `404.html`): the skip link's target, the article and the search form. A
/// test reads the templates and holds this list to them.
pub const TEMPLATE_IDS: &[&str] = &[
    "main",
    "top",
    "site-search-q",
    "site-search-status",
    "site-search-elsewhere",
    "site-search-results",
];

/// A heading as its block gives it, before the page makes its id unique.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Its `{#id}`, or the slug of its text.
    pub id: String,
    /// Whether `id` is an explicit `{#id}`.
    pub explicit: bool,
}

/// The ids handed out so far on one page in one language.
#[derive(Debug, Clone, Default)]
pub struct Taken(FxHashSet<String>);

impl Taken {
    /// Nothing taken but the theme's own ids and `reserved` (the ids of the page's
    /// tables and figures).
    pub fn new<'a>(reserved: impl IntoIterator<Item = &'a str>) -> Taken {
        Taken(
            TEMPLATE_IDS
                .iter()
                .copied()
                .chain(reserved)
                .map(str::to_string)
                .collect(),
        )
    }

    /// Whether `id` is taken.
    pub fn has(&self, id: &str) -> bool {
        self.0.contains(id)
    }

    /// The id `heading` gets, which is then taken: its own when free, else the first of
    /// `id-1`, `id-2`, … that is.
    pub fn give(&mut self, heading: &Written) -> String {
        let id = if self.has(&heading.id) {
            (1..)
                .map(|n| format!("{}-{n}", heading.id))
                .find(|c| !self.has(c))
                .unwrap_or_default()
        } else {
            heading.id.clone()
        };
        self.0.insert(id.clone());
        id
    }
}

/// The ids of `headings` (one block's, in order) given from `taken`.
pub fn give_all(headings: &[Written], taken: &mut Taken) -> Vec<String> {
    headings.iter().map(|h| taken.give(h)).collect()
}

/// The positions (indices into `headings`, a page's headings in one language in order)
/// of the explicit ids that repeat an id taken before them: by the theme, by `reserved`,
/// or by an earlier heading.
pub fn explicit_repeats<'a>(
    headings: &[Written],
    reserved: impl IntoIterator<Item = &'a str>,
) -> Vec<usize> {
    let mut taken = Taken::new(reserved);
    let mut out = Vec::new();
    for (i, h) in headings.iter().enumerate() {
        if h.explicit && taken.has(&h.id) {
            out.push(i);
        }
        taken.give(h);
    }
    out
}

/// A URL-safe id from heading text; keeps non-ASCII letters (Japanese headings).
pub fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_string();
    if s.is_empty() {
        "section".to_string()
    } else {
        s
    }
}

/// The headings of `events` (one block's markdown), in order, each with the byte its
/// event starts at (when `events` carry offsets) or 0.
pub fn headings<'a, E>(events: impl IntoIterator<Item = (E, usize)>) -> Vec<(Written, usize)>
where
    E: std::borrow::Borrow<pulldown_cmark::Event<'a>>,
{
    use pulldown_cmark::{Event, Tag, TagEnd};
    let mut out = Vec::new();
    let mut text: Option<(String, usize)> = None;
    for (ev, at) in events {
        match ev.borrow() {
            Event::Start(Tag::Heading { id: Some(id), .. }) => out.push((
                Written {
                    id: id.to_string(),
                    explicit: true,
                },
                at,
            )),
            Event::Start(Tag::Heading { id: None, .. }) => text = Some((String::new(), at)),
            Event::Text(t) | Event::Code(t) => {
                if let Some((buf, _)) = text.as_mut() {
                    buf.push_str(t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((t, at)) = text.take() {
                    out.push((
                        Written {
                            id: slug(&t),
                            explicit: false,
                        },
                        at,
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn auto(id: &str) -> Written {
        Written {
            id: id.into(),
            explicit: false,
        }
    }

    fn explicit(id: &str) -> Written {
        Written {
            id: id.into(),
            explicit: true,
        }
    }

    #[test]
    fn repeated_slugs_take_suffixes_as_on_github() {
        let mut taken = Taken::new([]);
        let ids = give_all(&[auto("notes"), auto("notes"), auto("notes")], &mut taken);
        assert_eq!(ids, ["notes", "notes-1", "notes-2"]);
        // A later block of the same page goes on from what the first took.
        assert_eq!(give_all(&[auto("notes")], &mut taken), ["notes-3"]);
    }

    #[test]
    fn the_frame_and_the_pages_tables_keep_their_ids() {
        let mut taken = Taken::new(["claim-c1"]);
        let ids = give_all(
            &[auto("main"), auto("top"), auto("claim-c1"), auto("main")],
            &mut taken,
        );
        assert_eq!(ids, ["main-1", "top-1", "claim-c1-1", "main-2"]);
    }

    #[test]
    fn a_suffix_that_is_taken_is_skipped() {
        let mut taken = Taken::new([]);
        let ids = give_all(&[auto("a-1"), auto("a"), auto("a")], &mut taken);
        assert_eq!(ids, ["a-1", "a", "a-2"]);
    }

    #[test]
    fn only_an_explicit_id_that_repeats_one_is_reported() {
        let hs = [
            auto("notes"),
            explicit("notes"),
            explicit("main"),
            explicit("x"),
            auto("x"),
            explicit("x"),
            explicit("row-1"),
        ];
        assert_eq!(explicit_repeats(&hs, ["row-1"]), [1, 2, 5, 6]);
    }

    /// Every literal id the built-in templates write is on [`TEMPLATE_IDS`] (the ids
    /// made from a value, `{{ id }}`, are a table's or figure's, which the renderer
    /// reserves page by page).
    #[test]
    fn the_template_ids_are_every_id_the_theme_writes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../templates");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("templates") {
            let text = std::fs::read_to_string(entry.expect("an entry").path()).unwrap_or_default();
            for part in text.split(" id=\"").skip(1) {
                let id = &part[..part.find('"').unwrap_or(0)];
                if !id.contains("{{") {
                    found.push(id.to_string());
                }
            }
        }
        found.sort();
        found.dedup();
        let mut listed: Vec<String> = TEMPLATE_IDS.iter().map(|s| s.to_string()).collect();
        listed.sort();
        assert_eq!(found, listed);
    }

    #[test]
    fn slugs_keep_japanese() {
        assert_eq!(slug("観測 ポイント"), "観測-ポイント");
        assert_eq!(slug("!!"), "section");
    }
}
