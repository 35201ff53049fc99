//! Markdown to HTML for page blocks and data texts, safely.
//!
//! Raw HTML is shown as text; a link or image target passes only by the allowlist of
//! [`crate::model::markup`] (else it becomes `#`); a heading keeps only its `#id` and
//! `.class`. `@/page` links become relative links to the same view of that page, and
//! `:v[kind:id.field]` quotes a value from the data. Heading and footnote ids take the
//! view's language prefix, and so do the block's own `#id` links and the `@/page#id`
//! links that name a heading of that page in the link's language ([`Headings`]).
//! Rendering never judges: what it neutralises (a refused target, a heading attribute,
//! an unknown page, a value that quotes nothing) `check` reports, for page blocks and
//! data texts alike.

use super::view::{PageIndex, relative};
use crate::model::Evidence;
use crate::model::heading_ids;
use crate::model::markup;
use crate::model::page::{Item, Lang};
use crate::model::values::Values;
use crate::model::view::View;
use pulldown_cmark::{Alignment, CowStr, Event, HeadingLevel, Tag, TagEnd, html};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// Where a piece of markdown sits, for links and error positions.
pub struct Ctx<'a> {
    pub view: View,
    pub lang: Lang,
    /// Depth of the page being written, for relative links.
    pub depth: usize,
    pub pages: &'a PageIndex,
    /// The evidence `values` were made from.
    pub ev: &'a Evidence,
    pub values: &'a Values,
    /// Set for a [`portable`] rendering: `@/` link targets are collected here and left as
    /// markers, as are heading-id prefixes, for [`Portable::localize`] to fill per view.
    pub links: Option<&'a std::cell::RefCell<Vec<String>>>,
    /// Where to note what `check` judges in the block ([`markup::Notes`]), when the
    /// block is rendered for the first time.
    pub notes: Option<&'a std::cell::RefCell<markup::Notes>>,
    /// The pages' heading ids, for an `@/page#heading` link to take the view's language
    /// prefix as the heading does; `None` leaves every fragment as written (a figure's
    /// label, which keeps no link, and `diff`'s figures, drawn away from the site).
    pub headings: Option<&'a Headings<'a>>,
    /// The page's heading ids as its blocks render, and the index of this block among
    /// the page's items: a heading's id is unique on the page ([`PageIds`]). `None` for a
    /// data text, whose headings are unique among themselves and the theme's ids.
    pub page_ids: Option<(&'a std::cell::RefCell<PageIds>, usize)>,
}

/// The heading ids of one page as its blocks render: given out per language in the
/// blocks' order ([`heading_ids::Taken`]), around the ids of the page's own tables and
/// figures, and kept per block (by item index), so that every view of a block names its
/// headings alike.
#[derive(Debug, Default)]
pub struct PageIds {
    /// The ids of the page's tables and figures.
    reserved: Vec<String>,
    taken: FxHashMap<Lang, heading_ids::Taken>,
    blocks: FxHashMap<usize, Arc<[String]>>,
    /// Explicit heading ids that repeat an id of the page's tables or figures, by item
    /// index: what only rendering sees, for the renderer to report.
    pub clashes: Vec<(usize, String)>,
}

impl PageIds {
    /// No heading id given yet on a page whose tables and figures use `reserved`.
    pub fn new(reserved: Vec<String>) -> Self {
        PageIds {
            reserved,
            ..PageIds::default()
        }
    }

    /// Whether a table or figure of the page has `id`.
    pub fn reserved(&self, id: &str) -> bool {
        self.reserved.iter().any(|r| r == id)
    }

    /// The ids of the headings `written` of block `item` in `lang`: given the first time
    /// the block renders, the same ones after.
    fn of_block(
        &mut self,
        item: usize,
        lang: Lang,
        written: &[heading_ids::Written],
    ) -> Arc<[String]> {
        if let Some(ids) = self.blocks.get(&item) {
            return ids.clone();
        }
        let clashes = written
            .iter()
            .filter(|h| h.explicit && self.reserved(&h.id))
            .map(|h| (item, h.id.clone()))
            .collect::<Vec<_>>();
        self.clashes.extend(clashes);
        let reserved = &self.reserved;
        let taken = self
            .taken
            .entry(lang)
            .or_insert_with(|| heading_ids::Taken::new(reserved.iter().map(String::as_str)));
        let ids: Arc<[String]> = heading_ids::give_all(written, taken).into();
        self.blocks.insert(item, ids.clone());
        ids
    }
}

/// The heading ids of each page's blocks in one language, as [`block`] gives them before
/// the view's prefix: what an `@/page#fragment` link names when it names a heading. In the
/// interleaved view a heading's id carries its block's language (`en-tables`), so a link
/// to it from another page must too. A page's are worked out (its blocks in that language
/// parsed once more) the first time a link names a fragment of it, then kept.
pub struct Headings<'e> {
    ev: &'e Evidence,
    known: Mutex<FxHashMap<(String, Lang), HeadingIds>>,
}

/// The heading ids of one page in one language.
type HeadingIds = Arc<[String]>;

impl<'e> Headings<'e> {
    pub fn new(ev: &'e Evidence) -> Self {
        Headings {
            ev,
            known: Mutex::default(),
        }
    }

    /// Whether a block of `page` in `ctx.lang` has a heading whose id is `id`.
    fn has(&self, page: &str, id: &str, ctx: &Ctx) -> bool {
        let key = (page.to_string(), ctx.lang);
        let known = self.known.lock().ok().and_then(|k| k.get(&key).cloned());
        let ids = match known {
            Some(ids) => ids,
            None => {
                let ids = self.of(page, ctx);
                if let Ok(mut k) = self.known.lock() {
                    k.insert(key, ids.clone());
                }
                ids
            }
        };
        ids.iter().any(|h| h == id)
    }

    /// The heading ids of `page`'s blocks in `ctx.lang`, read as [`block`] reads them
    /// (values quoted, raw HTML as text), without looking up fragments again.
    fn of(&self, page: &str, ctx: &Ctx) -> HeadingIds {
        let Some(source) = self.ev.page(page) else {
            return Arc::new([]);
        };
        let plain = Ctx {
            links: None,
            notes: None,
            headings: None,
            page_ids: None,
            ..*ctx
        };
        // Given as the page's rendering gives them, in the blocks' order.
        let mut taken = heading_ids::Taken::new([]);
        let mut ids = Vec::new();
        for item in &source.items {
            if let Item::Block(b) = item
                && b.lang == ctx.lang
            {
                let written = written_headings(&transform(&b.markdown, &plain));
                ids.extend(heading_ids::give_all(&written, &mut taken));
            }
        }
        ids.into()
    }
}

/// Marks a link target (its index in the link list on both sides) in a portable block.
const LINK_CHAR: char = '\u{E000}';
/// [`LINK_CHAR`] as `escape_href` writes it into the href.
const LINK_MARK: &str = "%EE%80%80";
/// Marks where a heading or footnote id takes the view's language prefix.
const ID_MARK: char = '\u{E001}';
/// [`ID_MARK`] as `escape_href` writes it into an in-block `#id` link.
const ID_MARK_HREF: &str = "%EE%80%81";

/// A block rendered once per language for every view: [`Portable::localize`] makes the
/// HTML of one view, as [`block`] would have, without parsing the markdown again.
pub struct Portable {
    html: String,
    links: Vec<String>,
}

/// Renders a block for every view of its language, or `None` when its text holds one of
/// the markers (then each view renders it with [`block`]). `ctx.view` and `ctx.depth`
/// are ignored.
pub fn portable(md: &str, ctx: &Ctx) -> Option<Portable> {
    // Every marker has a `%` or a 0xEE byte (the lead byte of U+E000–U+EFFF): most
    // blocks have neither, and one SIMD pass says so.
    if memchr::memchr2(b'%', 0xEE, md.as_bytes()).is_some()
        && ([LINK_MARK, ID_MARK_HREF].iter().any(|m| md.contains(m))
            || md.contains([LINK_CHAR, ID_MARK]))
    {
        return None;
    }
    let links = std::cell::RefCell::new(Vec::new());
    let ctx = Ctx {
        links: Some(&links),
        ..*ctx
    };
    let html = block(md, &ctx);
    Some(Portable {
        html,
        links: links.into_inner(),
    })
}

impl Portable {
    /// The block's HTML in `view`, on a page `depth` folders deep: one pass over it,
    /// filling each marker (they all start with a `%` or a 0xEE byte, which a SIMD search
    /// finds; the rest is copied as it is).
    pub fn localize(&self, view: View, lang: Lang, depth: usize) -> String {
        let prefix = id_prefix(view, lang);
        let html = self.html.as_str();
        let mut out = String::with_capacity(html.len() + 64);
        let (mut copied, mut from) = (0, 0);
        while let Some(i) = memchr::memchr2(b'%', 0xEE, &html.as_bytes()[from..]) {
            // Either byte starts a character, so `i` is a boundary.
            let i = from + i;
            let rest = &html[i..];
            let (fill, len) = if rest.starts_with(ID_MARK) {
                (Some(prefix.clone()), ID_MARK.len_utf8())
            } else if rest.starts_with(ID_MARK_HREF) {
                (Some(prefix.clone()), ID_MARK_HREF.len())
            } else if let Some(after) = rest.strip_prefix(LINK_MARK)
                && let Some(j) = after.find(LINK_MARK)
            {
                let page = after[..j]
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| self.links.get(n));
                let mut target = String::new();
                if let Some(page) = page {
                    // As pulldown-cmark escapes an href; cannot fail on a String.
                    let _ = pulldown_cmark_escape::escape_href(
                        &mut target,
                        &relative(depth, &view.file(page)),
                    );
                }
                (Some(target), LINK_MARK.len() + j + LINK_MARK.len())
            } else {
                (None, 1)
            };
            if let Some(fill) = fill {
                out.push_str(&html[copied..i]);
                out.push_str(&fill);
                copied = i + len;
            }
            from = i + len;
        }
        out.push_str(&html[copied..]);
        out
    }
}

/// What a heading id starts with in `view`: the language in the interleaved view, where
/// every language's headings share the page.
fn id_prefix(view: View, lang: Lang) -> String {
    if view.interleaved() {
        format!("{}-", lang.code())
    } else {
        String::new()
    }
}

/// Renders a block of markdown. Headings and footnotes get ids (`lang`-prefixed in the
/// interleaved view so the blocks of a group do not collide).
pub fn block(md: &str, ctx: &Ctx) -> String {
    let events = transform(md, ctx);
    let events = ids(events, ctx);
    let mut out = String::with_capacity(md.len() * 2 + 64);
    html::push_html(&mut out, events.into_iter());
    out
}

/// Renders inline markdown (a data text): no surrounding `<p>`.
pub fn inline(md: &str, ctx: &Ctx) -> String {
    let html = block(md, ctx);
    let t = html.trim_end();
    match t.strip_prefix("<p>").and_then(|s| s.strip_suffix("</p>")) {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => t.to_string(),
    }
}

fn transform<'a>(md: &'a str, ctx: &Ctx) -> Vec<Event<'a>> {
    // About one event per ten bytes of prose and tables: sized once, not grown.
    let mut out: Vec<Event<'a>> = Vec::with_capacity(md.len() / 10 + 8);
    let mut notes = ctx.notes.map(|n| n.borrow_mut());
    let mut tables = Tables::default();
    for (ev, at) in markup::events(md) {
        if let Some(n) = notes.as_mut() {
            n.note(&ev, at);
        }
        match ev {
            Event::Text(run) => expand_values(run, ctx, 0, &mut out),
            other => out.push(tables.event(safe_event(other, ctx))),
        }
    }
    out
}

/// Tables in prose scroll inside their own box on narrow screens, and an aligned
/// column's cells say so by a class of the theme's stylesheet rather than the
/// `style="text-align: …"` pulldown-cmark writes into every cell (twice the bytes, and
/// inline styles a strict content security policy refuses). So the table's opening and
/// closing and each cell's opening tag are written here, as HTML events; the rest of the
/// table (rows, closing tags) is left to pulldown-cmark's writer.
#[derive(Default)]
struct Tables {
    /// The alignment of each column of the table being read.
    columns: Vec<Alignment>,
    /// In the table's head row.
    head: bool,
    /// The column of the next cell.
    cell: usize,
}

impl Tables {
    fn event<'a>(&mut self, ev: Event<'a>) -> Event<'a> {
        let html = match &ev {
            Event::Start(Tag::Table(columns)) => {
                self.columns.clone_from(columns);
                "<div class=\"table-wrap\"><table>"
            }
            Event::End(TagEnd::Table) => "</tbody></table></div>\n",
            Event::Start(Tag::TableHead) => {
                (self.head, self.cell) = (true, 0);
                return ev;
            }
            Event::End(TagEnd::TableHead) => {
                self.head = false;
                return ev;
            }
            Event::Start(Tag::TableRow) => {
                self.cell = 0;
                return ev;
            }
            Event::Start(Tag::TableCell) => {
                let side = self.columns.get(self.cell).copied();
                self.cell += 1;
                match (self.head, side) {
                    (true, Some(Alignment::Left)) => "<th class=\"left\">",
                    (true, Some(Alignment::Right)) => "<th class=\"right\">",
                    (true, Some(Alignment::Center)) => "<th class=\"center\">",
                    (true, _) => "<th>",
                    (false, Some(Alignment::Left)) => "<td class=\"left\">",
                    (false, Some(Alignment::Right)) => "<td class=\"right\">",
                    (false, Some(Alignment::Center)) => "<td class=\"center\">",
                    (false, _) => "<td>",
                }
            }
            _ => return ev,
        };
        Event::Html(CowStr::Borrowed(html))
    }
}

/// Neutralises raw HTML, link targets off the allowlist and heading attributes other
/// than id and class; resolves `@/` links.
fn safe_event<'a>(ev: Event<'a>, ctx: &Ctx) -> Event<'a> {
    match ev {
        Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest = match allowed(dest_url) {
                Some(url) => resolve_link(&url, ctx),
                None => CowStr::from("#"),
            };
            Event::Start(Tag::Link {
                link_type,
                dest_url: dest,
                title,
                id,
            })
        }
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: allowed(dest_url).unwrap_or(CowStr::from("#")),
            title,
            id,
        }),
        Event::Start(Tag::Heading {
            level, id, classes, ..
        }) => Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs: Vec::new(),
        }),
        other => other,
    }
}

/// `url` when the allowlist lets it into an `href` or `src`.
fn allowed(url: CowStr<'_>) -> Option<CowStr<'_>> {
    markup::link_target(&url).is_ok().then_some(url)
}

/// An `@/page` link as a link to that page in the view (`#` when there is no such page);
/// any other target as it is.
fn resolve_link<'a>(url: &CowStr<'a>, ctx: &Ctx) -> CowStr<'a> {
    let Some((page, frag)) = markup::internal_link(url) else {
        return url.clone();
    };
    if !ctx.pages.contains(page) {
        return CowStr::from("#");
    }
    let mut target = match ctx.links {
        Some(links) => {
            let mut l = links.borrow_mut();
            l.push(page.to_string());
            format!("{LINK_CHAR}{}{LINK_CHAR}", l.len() - 1)
        }
        None => relative(ctx.depth, &ctx.view.file(page)),
    };
    if let Some(f) = frag {
        target.push('#');
        if ctx.headings.is_some_and(|h| h.has(page, f, ctx)) {
            match ctx.links {
                Some(_) => target.push(ID_MARK),
                None => target.push_str(&id_prefix(ctx.view, ctx.lang)),
            }
        }
        target.push_str(f);
    }
    CowStr::from(target)
}

/// How deep a quoted data text may quote another one: a text quoting itself stops here.
const QUOTE_DEPTH: usize = 4;

/// Replaces `:v[path]` in a text run with the quoted value; one that quotes nothing stays
/// as written. A data text is rendered as inline markdown, as its table renders it; any
/// other value is escaped text. `depth` counts the quoted texts this run sits in. The
/// run's events go onto `out`.
fn expand_values<'a>(text: CowStr<'a>, ctx: &Ctx, depth: usize, out: &mut Vec<Event<'a>>) {
    if !markup::quotes_value(&text) || depth >= QUOTE_DEPTH {
        out.push(Event::Text(text));
        return;
    }
    let mut rest = &*text;
    while let Some(start) = rest.find(":v[") {
        let Some(len) = rest[start + 3..].find(']') else {
            break;
        };
        out.push(Event::Text(CowStr::from(rest[..start].to_string())));
        let path = &rest[start + 3..start + 3 + len];
        match ctx.values.quote_marked(ctx.ev, path, ctx.lang) {
            Ok(v) if v.markdown => {
                out.push(Event::Html(CowStr::Borrowed("<span class=\"value\">")));
                out.extend(quoted_text(&v.text, ctx, depth + 1));
                out.push(Event::Html(CowStr::Borrowed("</span>")));
            }
            Ok(v) => out.push(Event::Html(CowStr::from(format!(
                "<span class=\"value\">{}</span>",
                super::escape(&v.text)
            )))),
            Err(_) => out.push(Event::Text(CowStr::from(format!(":v[{path}]")))),
        }
        rest = &rest[start + 3 + len + 1..];
    }
    out.push(Event::Text(CowStr::from(rest.to_string())));
}

/// A quoted data text as inline events, made safe as any block's are: its paragraphs run
/// on, a space apart, and block structure (headings, lists, code blocks) gives way to its
/// inline content, since the quote sits inside a sentence.
fn quoted_text(md: &str, ctx: &Ctx, depth: usize) -> Vec<Event<'static>> {
    let mut out = Vec::new();
    let mut started = false;
    for (ev, _) in markup::events(md) {
        let ev = match ev {
            Event::Text(run) => {
                let mut expanded = Vec::new();
                expand_values(run, ctx, depth, &mut expanded);
                out.extend(expanded.into_iter().map(Event::into_static));
                started = true;
                continue;
            }
            Event::Code(_)
            | Event::SoftBreak
            | Event::HardBreak
            | Event::InlineMath(_)
            | Event::Start(
                Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
                | Tag::Superscript
                | Tag::Subscript
                | Tag::Link { .. }
                | Tag::Image { .. },
            )
            | Event::End(
                TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Superscript
                | TagEnd::Subscript
                | TagEnd::Link
                | TagEnd::Image,
            ) => safe_event(ev, ctx),
            Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
            Event::Start(_) if started => Event::Text(CowStr::Borrowed(" ")),
            _ => continue,
        };
        started = true;
        out.push(ev.into_static());
    }
    out
}

/// Gives every heading an id (its explicit `{#id}`, else one from its text) and every
/// footnote one, all behind the view's language prefix, and points the block's own `#id`
/// links at them. Headings shift below the page title, start and end tag alike.
fn ids<'a>(events: Vec<Event<'a>>, ctx: &Ctx) -> Vec<Event<'a>> {
    let prefix = match ctx.links {
        Some(_) => ID_MARK.to_string(),
        None => id_prefix(ctx.view, ctx.lang),
    };
    let written = written_headings(&events);
    let headings: Arc<[String]> = match ctx.page_ids {
        Some((page, item)) => page.borrow_mut().of_block(item, ctx.lang, &written),
        None => heading_ids::give_all(&written, &mut heading_ids::Taken::new([])).into(),
    };
    let footnotes = || {
        events.iter().any(|ev| {
            matches!(
                ev,
                Event::FootnoteReference(_) | Event::Start(Tag::FootnoteDefinition(_))
            )
        })
    };
    // Without a heading or footnote there is nothing to name or point at.
    if headings.is_empty() && !footnotes() {
        return events;
    }
    let mut headings_left = headings.iter();
    events
        .into_iter()
        .map(|ev| match ev {
            Event::Start(Tag::Heading { level, classes, .. }) => Event::Start(Tag::Heading {
                level: shift(level),
                id: headings_left
                    .next()
                    .map(|id| CowStr::from(format!("{prefix}{id}"))),
                classes,
                attrs: Vec::new(),
            }),
            Event::End(TagEnd::Heading(level)) => Event::End(TagEnd::Heading(shift(level))),
            Event::FootnoteReference(label) => {
                Event::FootnoteReference(CowStr::from(format!("{prefix}fn-{label}")))
            }
            Event::Start(Tag::FootnoteDefinition(label)) => Event::Start(Tag::FootnoteDefinition(
                CowStr::from(format!("{prefix}fn-{label}")),
            )),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = match dest_url.strip_prefix('#') {
                    Some(frag) if headings.iter().any(|h| h == frag) => {
                        CowStr::from(format!("#{prefix}{frag}"))
                    }
                    _ => dest_url,
                };
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            other => other,
        })
        .collect()
}

/// The headings of `events` as written: each one's `{#id}`, else a slug of its text.
fn written_headings(events: &[Event]) -> Vec<heading_ids::Written> {
    heading_ids::headings(events.iter().map(|e| (e, 0)))
        .into_iter()
        .map(|(h, _)| h)
        .collect()
}

/// The page title is the only h1; a `#` heading in a block becomes h2.
fn shift(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H2,
        l => l,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(md: &str) -> String {
        render_in(md, View::EN, Lang::EN)
    }

    /// Renders `md` as a `lang` block of a page two folders deep in `view`.
    fn render_in(md: &str, view: View, lang: Lang) -> String {
        let pages = PageIndex::from(["observers", "index"]);
        let (ev, values) = (Evidence::default(), Values::default());
        let ctx = Ctx {
            view,
            lang,
            depth: 2,
            pages: &pages,
            ev: &ev,
            values: &values,
            links: None,
            notes: None,
            headings: None,
            page_ids: None,
        };
        block(md, &ctx)
    }

    #[test]
    fn aligned_columns_take_a_class_not_a_style() {
        let html = render(
            "| a | b | c | d |\n|:--|--:|:-:|---|\n| 1 | 2 | 3 | 4 |\n\na style=\"text-align: right\" b",
        );
        assert!(
            !html.contains("<th style") && !html.contains("<td style"),
            "{html}"
        );
        assert!(html.contains("<th class=\"left\">a</th><th class=\"right\">b</th><th class=\"center\">c</th><th>d</th>"), "{html}");
        assert!(html.contains("<td class=\"left\">1</td><td class=\"right\">2</td><td class=\"center\">3</td><td>4</td>"), "{html}");
        assert!(
            html.contains("<p>a style=\"text-align: right\" b</p>"),
            "text stays text: {html}"
        );
    }

    /// Each table keeps its own columns, rows restart at the first column, and a table
    /// inside a quote or list is wrapped as well.
    #[test]
    fn every_table_is_wrapped_with_its_own_columns() {
        let html = render(
            "| a | b |\n|--:|---|\n| 1 | 2 |\n| 3 | 4 |\n\n> | x | y |\n> |---|:-:|\n> | 5 | 6 |\n",
        );
        assert_eq!(
            html.matches("<div class=\"table-wrap\"><table>").count(),
            2,
            "{html}"
        );
        assert_eq!(
            html.matches("</tbody></table></div>\n").count(),
            2,
            "{html}"
        );
        assert!(
            html.contains("<tr><td class=\"right\">1</td><td>2</td></tr>"),
            "{html}"
        );
        assert!(
            html.contains("<tr><td class=\"right\">3</td><td>4</td></tr>"),
            "{html}"
        );
        assert!(
            html.contains("<th>x</th><th class=\"center\">y</th>"),
            "{html}"
        );
        assert!(
            html.contains("<td>5</td><td class=\"center\">6</td>"),
            "{html}"
        );
    }

    /// Renders `md` as an English block against the figures fixture's data.
    fn render_quoting(md: &str) -> String {
        let site = crate::render::figures::testkit::site();
        let ctx = Ctx {
            view: View::EN,
            lang: Lang::EN,
            depth: 0,
            pages: &site.pages,
            ev: &site.ev,
            values: &site.values,
            links: None,
            notes: None,
            headings: None,
            page_ids: None,
        };
        block(md, &ctx)
    }

    /// A quoted data text reads as its table shows it: its code spans are code, not
    /// backticks, and its raw HTML stays text.
    #[test]
    fn a_quoted_data_text_renders_as_inline_markdown() {
        let html = render_quoting("It said: :v[observer:trace_attach.showed]");
        assert!(
            html.contains(
                "<span class=\"value\">With <code>ptrace_scope=1</code> the OS refused the attach.</span>"
            ),
            "{html}"
        );
        assert!(!html.contains('`'), "{html}");
        let html = render_quoting(
            "Named :v[observer:trace_attach.method] and :v[observer:trace_attach.name].",
        );
        assert!(
            html.contains("<code>strace -p &lt;backend pid&gt;</code>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"value\">strace --attach</span>"),
            "a plain value stays text: {html}"
        );
    }

    #[test]
    fn raw_html_is_text() {
        let html = render("hi <script>alert(1)</script> <img src=x onerror=alert(1)>");
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
    }

    #[test]
    fn script_urls_are_dropped() {
        let html = render("[x](javascript:alert(1)) [y]( JaVaScRiPt:alert(1))");
        assert!(!html.to_lowercase().contains("javascript:"), "{html}");
    }

    #[test]
    fn internal_links_resolve_per_view() {
        let html = render("see [o](@/observers#step) and [h](@/) and [x](@/nope)");
        assert!(
            html.contains("href=\"../../en/observers/index.html#step\""),
            "{html}"
        );
        assert!(html.contains("href=\"../../en/index.html\""), "{html}");
        assert!(
            html.contains("<a href=\"#\">x</a>"),
            "an unknown page: {html}"
        );
    }

    #[test]
    fn headings_get_ids_and_shift() {
        let html = render("# Top\n## Step 1 — Source");
        // `top` is the page article's own id.
        assert!(html.contains("<h2 id=\"top-1\">"), "{html}");
        assert!(html.contains("<h2 id=\"step-1-source\">"), "{html}");
    }

    #[test]
    fn heading_attributes_other_than_id_and_class_are_dropped() {
        let html = render("### X {#y onfocus=alert(1) autofocus tabindex=1}");
        assert_eq!(html, "<h3 id=\"y\">X</h3>\n");
        let html = render("## S {.note style=color:red}");
        assert_eq!(html, "<h2 id=\"s\" class=\"note\">S</h2>\n");
    }

    #[test]
    fn a_heading_with_an_explicit_id_shifts_both_tags() {
        let html = render("# D {#ok}");
        assert_eq!(html, "<h2 id=\"ok\">D</h2>\n");
    }

    #[test]
    fn explicit_ids_and_in_block_links_take_the_language_prefix() {
        let md = "## Step {#ok}\n\n## Next\n\nSee [it](#ok), [next](#next), [row](#claim-c1).";
        let html = render_in(md, View::BILINGUAL, Lang::JA);
        assert!(html.contains("<h2 id=\"ja-ok\">Step</h2>"), "{html}");
        assert!(html.contains("href=\"#ja-ok\""), "{html}");
        assert!(html.contains("href=\"#ja-next\""), "{html}");
        // Not a heading of this block (a table row's anchor): left as written.
        assert!(html.contains("href=\"#claim-c1\""), "{html}");
        let html = render_in(md, View::JA, Lang::JA);
        assert!(html.contains("<h2 id=\"ok\">Step</h2>"), "{html}");
        assert!(html.contains("href=\"#ok\""), "{html}");
    }

    #[test]
    fn footnote_ids_differ_per_language_and_references_follow() {
        let md = "Text[^1].\n\n[^1]: The note.";
        let ja = render_in(md, View::BILINGUAL, Lang::JA);
        let en = render_in(md, View::BILINGUAL, Lang::EN);
        assert!(ja.contains("href=\"#ja-fn-1\""), "{ja}");
        assert!(ja.contains("id=\"ja-fn-1\""), "{ja}");
        assert!(en.contains("href=\"#en-fn-1\""), "{en}");
        assert!(en.contains("id=\"en-fn-1\""), "{en}");
        let single = render_in(md, View::EN, Lang::EN);
        assert!(single.contains("href=\"#fn-1\""), "{single}");
        assert!(single.contains("id=\"fn-1\""), "{single}");
    }

    #[test]
    fn script_urls_are_dropped_in_links_images_and_autolinks() {
        for &md in markup::HOSTILE_TARGETS {
            let html = render(md);
            assert!(
                html.contains("href=\"#\"") || html.contains("src=\"#\""),
                "{md}: {html}"
            );
        }
        let html = render("[m](mailto:a@example.org) <https://example.org/x>");
        assert!(html.contains("href=\"mailto:a@example.org\""), "{html}");
        assert!(html.contains("href=\"https://example.org/x\""), "{html}");
    }

    /// A block rendered once and localized gives, in every view, what rendering it in
    /// that view gives: links (with fragments and odd characters), heading and footnote
    /// ids, and links to the block's own headings.
    #[test]
    fn portable_blocks_localize_to_what_each_view_renders() {
        let pages = PageIndex::from(["observers", "index", "runs/r-1", "ünï"]);
        let (ev, values) = (Evidence::default(), Values::default());
        let md = "## Heading `x`\n\nSee [o](@/observers#step), [h](@/), [r](@/runs/r-1),\n\
                  [u](@/ünï) and [gone](@/nope) and [web](https://example.org/a?b=1&c=2).\n\n\
                  ### Second {#two .c}\n\nBack to [the top](#heading-x), [two](#two), [away](#gone)\n\
                  and a note[^n], 100% sure \u{E005}.\n\n[^n]: The note, see [two](#two).\n\n\
                  | a |\n|---|\n| [o](@/observers) |\n";
        for lang in [Lang::JA, Lang::EN] {
            let base = Ctx {
                view: View::BILINGUAL,
                lang,
                depth: 0,
                pages: &pages,
                ev: &ev,
                values: &values,
                links: None,
                notes: None,
                headings: None,
                page_ids: None,
            };
            let p = portable(md, &base).expect("no markers in the text");
            for &view in View::DEFAULT {
                for depth in [0, 1, 3] {
                    let ctx = Ctx {
                        view,
                        depth,
                        ..base
                    };
                    let direct = block(md, &ctx);
                    assert_eq!(p.localize(view, lang, depth), direct, "{view:?} {depth}");
                }
            }
        }
        let marked = "text with \u{E001} in it";
        let ctx = Ctx {
            view: View::JA,
            lang: Lang::JA,
            depth: 1,
            pages: &pages,
            ev: &ev,
            values: &values,
            links: None,
            notes: None,
            headings: None,
            page_ids: None,
        };
        assert!(portable(marked, &ctx).is_none());
        assert!(portable("a %EE%80%80 b", &ctx).is_none());
        assert!(portable("[a](#%EE%80%81b)", &ctx).is_none());
    }
}
