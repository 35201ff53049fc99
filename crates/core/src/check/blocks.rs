//! Links, quoted values and markup in the pages' markdown blocks: a link or image target
//! off the allowlist of [`crate::model::markup`], a heading attribute other than id and
//! class, an `@/` link to a page that does not exist and a `:v[…]` that quotes nothing,
//! each reported at its line and column. Rendering neutralises these; this judges them,
//! on the [`Notes`] of each block: those `render` took while it parsed the block for a
//! build, or, for `check` (which renders little) and any block not rendered, taken here.
//!
//! On the way it notes the links a page writes with a `#fragment` ([`Written`]): `check`
//! renders only the pages whose fragments it must judge (`pipeline`), and those are the
//! pages that link to one and the pages they link to.

use crate::diagnostics::{Diagnostic, Span, span_at};
use crate::model::Evidence;
use crate::model::heading_ids;
use crate::model::markup::{self, Noted, Notes};
use crate::model::page::{Item, Lang, PageSource};
use crate::model::refs::Kind;
use crate::model::values::{QuoteError, Values};
use rayon::prelude::*;
use std::collections::BTreeSet;

/// The fragment links one page writes in its blocks.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Written {
    /// Whether any of its links names a fragment.
    pub fragments: bool,
    /// The other pages (by id) whose fragments it names with `@/page#fragment`.
    pub targets: BTreeSet<String>,
}

/// Judges every block of every page, parsing it (`check`, which renders few pages).
/// Returns, per page in `ev.pages`' order, the fragment links it writes.
pub fn check(ev: &Evidence, values: &Values, diags: &mut Vec<Diagnostic>) -> Vec<Written> {
    let complete = !ev.incomplete.contains(&Kind::Page);
    let judged: Vec<(Vec<Diagnostic>, Written)> = ev
        .pages
        .par_iter()
        .map(|p| page(p, ev, values, complete, &[]))
        .collect();
    let mut out = Vec::with_capacity(judged.len());
    for (d, w) in judged {
        diags.extend(d);
        out.push(w);
    }
    out
}

/// The judgment of one rendered page's blocks, on the `notes` its rendering took (a
/// block without notes is parsed): what a build hands the renderer as its
/// [`markup::Judge`].
pub fn rendered(
    page_: &PageSource,
    notes: &[(usize, Notes)],
    ev: &Evidence,
    values: &Values,
) -> Vec<Diagnostic> {
    let complete = !ev.incomplete.contains(&Kind::Page);
    page(page_, ev, values, complete, notes).0
}

/// The problems in one page's blocks, and the fragment links it writes. `complete`: the
/// site's pages all loaded, so that a link to an unknown page is an error of the link.
/// `notes`: the blocks already noted, by item index.
fn page(
    page: &PageSource,
    ev: &Evidence,
    values: &Values,
    complete: bool,
    notes: &[(usize, Notes)],
) -> (Vec<Diagnostic>, Written) {
    let mut diags = Vec::new();
    let mut written = Written::default();
    let known = |id: &str| ev.page(id).is_some();
    for (i, item) in page.items.iter().enumerate() {
        if let Item::Block(b) = item {
            let at = Block {
                md: &b.markdown,
                file: &page.file,
                first: b.body_line,
                lang: b.lang,
            };
            let parsed;
            let noted = match notes.iter().find(|(n, _)| *n == i) {
                Some((_, n)) => n,
                None if plain(&b.markdown, &known, complete) => continue,
                None => {
                    parsed = Notes::of(&b.markdown);
                    &parsed
                }
            };
            at.judge(
                noted,
                (&known, complete),
                (ev, values),
                &mut diags,
                &mut written,
            );
        }
    }
    repeated_ids(page, &mut diags);
    (diags, written)
}

/// Reports each explicit heading id (`{#id}`) that repeats one taken before it on the
/// page in its language: by the theme's frame or by an earlier heading of any block
/// ([`heading_ids`]). Only a page that writes a `{#` is read for it.
fn repeated_ids(page: &PageSource, diags: &mut Vec<Diagnostic>) {
    let blocks = || {
        page.items.iter().filter_map(|i| match i {
            Item::Block(b) => Some(b),
            Item::Directive(_) => None,
        })
    };
    if !blocks().any(|b| b.markdown.contains("{#")) {
        return;
    }
    let langs: BTreeSet<Lang> = blocks().map(|b| b.lang).collect();
    for lang in langs {
        // Each heading with its block, and the byte it starts at there.
        let mut all = Vec::new();
        for b in blocks().filter(|b| b.lang == lang) {
            for (h, at) in heading_ids::headings(markup::events(&b.markdown)) {
                all.push((h, b, at));
            }
        }
        let written: Vec<heading_ids::Written> = all.iter().map(|(h, ..)| h.clone()).collect();
        for i in heading_ids::explicit_repeats(&written, []) {
            let (h, b, start) = &all[i];
            let block = Block {
                md: &b.markdown,
                file: &page.file,
                first: b.body_line,
                lang,
            };
            block.repeated_id(&h.id, *start, diags);
        }
    }
}

/// Whether a block not yet noted is, without parsing it, sure to hold nothing to report
/// and no fragment link: every string a scan finds that may be a link target
/// ([`markup::link_candidates`]) passes the allowlist, names no fragment and, if an `@/`
/// link, a page that exists (or the pages did not all load). Else it is parsed and judged.
fn plain(md: &str, known: &dyn Fn(&str) -> bool, complete: bool) -> bool {
    markup::link_candidates(md).is_some_and(|targets| {
        targets.iter().all(|t| {
            !t.contains('#')
                && markup::link_target(t).is_ok()
                && markup::internal_link(t).is_none_or(|(page, _)| known(page) || !complete)
        })
    })
}

/// One block's markdown and where it sits.
struct Block<'a> {
    md: &'a str,
    file: &'a str,
    /// Line of the block's first markdown line.
    first: usize,
    lang: Lang,
}

impl Block<'_> {
    /// The span of `needle` at or after byte `from` (of `from` itself when not found),
    /// and the byte just past it.
    fn locate(&self, from: usize, needle: &str) -> (Span, usize) {
        let from = from.min(self.md.len());
        let at = self.md[from..].find(needle).map_or(from, |i| from + i);
        (
            span_at(self.file, self.md, at, self.first),
            at + needle.len(),
        )
    }

    /// Judges the block's `notes`. `known`: whether a page of that id exists, and
    /// whether every page loaded.
    fn judge(
        &self,
        notes: &Notes,
        known: (&dyn Fn(&str) -> bool, bool),
        values: (&Evidence, &Values),
        diags: &mut Vec<Diagnostic>,
        written: &mut Written,
    ) {
        for (at, noted) in &notes.0 {
            let at = *at;
            match noted {
                Noted::Link(url) => {
                    if self.allowed(url, at, diags) {
                        self.link(url, at, known, values.0, diags, written);
                    }
                }
                Noted::Image(url) => {
                    self.allowed(url, at, diags);
                }
                Noted::Attribute(key) => self.attribute(key, at, diags),
                Noted::Values(text) => self.values(text, at, values, diags),
            }
        }
    }

    /// Whether `url` may be a link or image target; reported at `at` when not.
    fn allowed(&self, url: &str, at: usize, diags: &mut Vec<Diagnostic>) -> bool {
        let Err(why) = markup::link_target(url) else {
            return true;
        };
        diags.push(
            Diagnostic::error(
                "unsafe-url",
                self.locate(at, "").0,
                markup::refused_message(url, &why),
            )
            .with_hint(markup::LINK_HINT),
        );
        false
    }

    /// An allowed link: an `@/` link names a page that exists; a fragment is noted.
    fn link(
        &self,
        url: &str,
        at: usize,
        (known, complete): (&dyn Fn(&str) -> bool, bool),
        ev: &Evidence,
        diags: &mut Vec<Diagnostic>,
        written: &mut Written,
    ) {
        let fragment = url.contains('#');
        written.fragments |= fragment;
        let Some((page, _)) = markup::internal_link(url) else {
            return;
        };
        if known(page) {
            if fragment {
                written.targets.insert(page.to_string());
            }
        } else if complete {
            diags.push(
                Diagnostic::error(
                    "broken-link",
                    self.locate(at, url).0,
                    format!(
                        "link to unknown page `{url}`{}",
                        crate::model::refs::did_you_mean(
                            page,
                            ev.pages.iter().map(|p| p.id.as_str())
                        )
                    ),
                )
                .with_hint(markup::PAGE_LINK_HINT),
            );
        }
    }

    /// Reports a heading attribute other than id and class, at its place in the `{…}`
    /// that ends the heading's first line (the heading starts at `at`).
    fn attribute(&self, key: &str, at: usize, diags: &mut Vec<Diagnostic>) {
        let line = &self.md[at.min(self.md.len())..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let brace = at + line.rfind('{').unwrap_or(0);
        diags.push(
            Diagnostic::error(
                "heading-attribute",
                self.locate(brace, key).0,
                markup::attribute_message(key),
            )
            .with_hint(markup::ATTRIBUTE_HINT),
        );
    }

    /// Reports an explicit heading id that repeats one taken before it, at the `#id` in
    /// the braces that end the heading's first line (the heading starts at `at`).
    fn repeated_id(&self, id: &str, at: usize, diags: &mut Vec<Diagnostic>) {
        let line = &self.md[at.min(self.md.len())..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let brace = at + line.rfind('{').unwrap_or(0);
        let by = if heading_ids::TEMPLATE_IDS.contains(&id) {
            "the page's frame (the theme's template)"
        } else {
            "an earlier heading of this page"
        };
        diags.push(
            Diagnostic::error(
                "duplicate-id",
                self.locate(brace, &format!("#{id}")).0,
                format!("heading id `{id}` is already used on this page, by {by}"),
            )
            .with_hint(
                "an id names one place on a page: give this heading an id of its own, or drop \
                 the `{#…}` and let its text make one (a repeated text takes `-1`, `-2`, …)",
            ),
        );
    }

    /// Every `:v[path]` in a run of text (starting at byte `at`) quotes a value of `ev`.
    fn values(
        &self,
        text: &str,
        at: usize,
        (ev, values): (&Evidence, &Values),
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut rest = text;
        let mut cursor = at;
        while let Some(start) = rest.find(":v[") {
            let Some(len) = rest[start + 3..].find(']') else {
                diags.push(
                    Diagnostic::error(
                        "bad-value",
                        self.locate(cursor, ":v[").0,
                        "`:v[` is not closed with `]`",
                    )
                    .with_hint(markup::VALUE_HINT),
                );
                break;
            };
            let path = &rest[start + 3..start + 3 + len];
            let (span, end) = self.locate(cursor, &format!(":v[{path}]"));
            cursor = end;
            if let Err(QuoteError::Bad(msg)) = values.quote(ev, path, self.lang) {
                diags.push(Diagnostic::error("bad-value", span, msg).with_hint(markup::VALUE_HINT));
            }
            rest = &rest[start + 3 + len + 1..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Judges `md` as an English block whose first line is line 10 of `content/p.md`, on
    /// a site with the pages `observers` and `index`.
    fn judge(md: &str) -> (Vec<Diagnostic>, Written) {
        let block = Block {
            md,
            file: "content/p.md",
            first: 10,
            lang: Lang::EN,
        };
        let (mut d, mut w) = (Vec::new(), Written::default());
        let known = |id: &str| ["observers", "index"].contains(&id);
        let notes = Notes::of(md);
        let (ev, values) = (Evidence::default(), Values::default());
        block.judge(&notes, (&known, true), (&ev, &values), &mut d, &mut w);
        (d, w)
    }

    fn found(d: &[Diagnostic]) -> Vec<(&str, usize, usize)> {
        d.iter()
            .map(|d| (d.code, d.span.line, d.span.column))
            .collect()
    }

    #[test]
    fn a_link_to_an_unknown_page_is_placed_at_its_target() {
        let (d, _) = judge("line\n\n[x](@/nope) and [o](@/observers)");
        assert_eq!(found(&d), [("broken-link", 12, 5)]);
        assert!(d[0].message.contains("`@/nope`"), "{}", d[0].message);
    }

    #[test]
    fn heading_attributes_other_than_id_and_class_are_placed_in_the_braces() {
        let (d, _) = judge("### X {#y onfocus=alert(1) autofocus tabindex=1}");
        assert_eq!(
            found(&d),
            [
                ("heading-attribute", 10, 11),
                ("heading-attribute", 10, 28),
                ("heading-attribute", 10, 38)
            ]
        );
        let (d, _) = judge("## S {.note style=color:red}\n\n# D {#ok}");
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("`style`"), "{}", d[0].message);
    }

    #[test]
    fn targets_off_the_allowlist_are_reported_in_links_images_and_autolinks() {
        for &md in markup::HOSTILE_TARGETS {
            let (d, _) = judge(md);
            assert_eq!(
                d.iter().map(|d| d.code).collect::<Vec<_>>(),
                ["unsafe-url"],
                "{md}"
            );
        }
        let (d, _) = judge("[m](mailto:a@example.org) <https://example.org/x>");
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn an_unclosed_value_is_placed_at_its_opening() {
        let (d, _) = judge("one\ntwo :v[x.y and more");
        assert_eq!(found(&d), [("bad-value", 11, 5)]);
    }

    #[test]
    fn fragment_links_are_noted_with_the_pages_they_name() {
        let (_, w) = judge("[a](@/observers) [b](https://example.org/#x)");
        assert!(w.fragments, "an outside link with a fragment counts too");
        assert!(w.targets.is_empty());
        let (_, w) = judge("[a](@/observers#step) [b](#own) [c](@/nope#x) [d](@/)");
        assert!(w.fragments);
        assert_eq!(w.targets, BTreeSet::from(["observers".to_string()]));
        let (_, w) = judge("[a](@/observers) and a `#` in code, ## not a heading");
        assert_eq!(w, Written::default());
    }

    /// A block with no `[`, `<` or `{` is not parsed (it can hold no noted construct);
    /// one character of them brings each construct back.
    #[test]
    fn only_blocks_that_can_hold_a_construct_are_parsed() {
        assert_eq!(
            Notes::of("# Title\n\nplain text, `code` and *emphasis*: v"),
            Notes::default()
        );
        let (d, _) = judge("<javascript:alert(1)>");
        assert_eq!(found(&d), [("unsafe-url", 10, 1)]);
        let (d, _) = judge("## H {onclick=x}");
        assert_eq!(found(&d), [("heading-attribute", 10, 7)]);
        let (d, _) = judge("a :v[");
        assert_eq!(found(&d), [("bad-value", 10, 3)]);
    }
}
