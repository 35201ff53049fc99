//! Stage 5: the in-memory site. Every page in each view (one per language, and the
//! interleaved one), the 404 page, the sitemap,
//! `evidence.json` and the static files.

pub mod directives;
pub mod feed;
pub mod figures;
pub mod html;
pub mod links;
pub mod markdown;
pub mod pack;
pub mod palette;
pub mod scope;
pub mod search;
pub mod table;
pub mod tables;
pub mod templates;
pub mod view;

use crate::derive::Derived;
use crate::diagnostics::{Diagnostic, Span};
use crate::load::Theme;
use crate::load::messages::Messages;
use crate::model::markup::{self, Judge};
use crate::model::page::{DirectiveLine, Item, PageSource};
use crate::model::values::Values;
use crate::model::view::{View, own};
use crate::model::{Evidence, Text};
use directives::Shown;
use scope::{Scope, join_langs};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use tera::{Context, Tera};
use view::relative;

/// Page id of the 404 page (it has no content file).
const NOT_FOUND: &str = "404";

/// Stands in for a page's body or a table's rows while a built-in template renders the
/// frame around them; the text is spliced in after. A run's page is megabytes of rows,
/// and through Tera each was copied into its context, copied out and checked as UTF-8
/// again. Unicode noncharacters: a frame that holds the mark other than once (a caption
/// quoting it) is rendered the ordinary way.
/// The start of a basis badge's markup (`records::badge`), by which a page is known to
/// show a basis and so to need the legend.
const BASIS_BADGE: &[u8] = b"<span class=\"badge basis-";
const SPLICE: &str = "\u{FDD0}evidence-splice\u{FDD1}";

/// `frame` on either side of its one [`SPLICE`] mark; `None` when the mark is not there
/// exactly once. The caller writes the two sides around what goes in between, into the
/// buffer that is kept, so that a page's megabytes are not copied once more per splice.
fn split_frame(frame: &str) -> Option<(&str, &str)> {
    let (before, after) = frame.split_once(SPLICE)?;
    (!after.contains(SPLICE)).then_some((before, after))
}

/// Whether every one of `templates` is the built-in one, byte for byte (provided by the
/// binary or by the site as a copy): only the built-in templates are known to show a
/// spliced value once, as it is (`| safe`), and to do nothing else with it.
fn builtin(theme: &Theme, templates: &[&str]) -> bool {
    templates
        .iter()
        .all(|t| theme.files.get(*t).is_some_and(|f| f.has_builtin_bytes()))
}

/// The rendered site: output path → bytes, in path order.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Site {
    pub files: BTreeMap<String, Bytes>,
}

/// A rendered file's bytes, shared: `serve` keeps the last build beside the one it serves
/// and carries every file an edit did not reach into the next, so a clone must not copy
/// hundreds of megabytes.
pub type Bytes = Arc<[u8]>;

/// A text as plain text in `view`'s languages: each different wording once, joined by
/// ` / ` (titles, descriptions, feed entries).
pub fn plain(view: View, t: &Text) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in view.langs().iter().map(|&l| l.pick(t)) {
        if !parts.contains(&p) {
            parts.push(p);
        }
    }
    parts.join(" / ")
}

/// Where rendered files go as soon as each is ready: memory ([`MemorySink`]), a folder
/// or a comparison with a folder (`write`). Pages render in parallel, so sinks are `Sync`.
pub trait Sink: Sync {
    fn put(&self, path: String, bytes: Vec<u8>);

    /// Puts a file that `write` hands over piece by piece, so that a large one (the
    /// export of a site with many probe runs) need not be held whole. This default
    /// gathers the pieces and [`Sink::put`]s them.
    fn put_pieces(&self, path: String, write: &mut Pieces) {
        self.put(path, gather(write));
    }

    /// Told, before rendering starts, the folders the pages will go in (`ja/observers`).
    fn prepare(&self, _folders: &[String]) {}

    /// Whether the sink keeps nothing, so that what only its files need (the search
    /// index) is not made.
    fn discards(&self) -> bool {
        false
    }
}

/// What writes a file piece by piece, each to the function it is given, in order.
pub type Pieces<'a> = dyn FnMut(&mut dyn FnMut(&[u8])) + 'a;

/// The pieces `write` hands over, in one buffer: for a sink that reads a file whole.
pub fn gather(write: &mut Pieces) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(&mut |piece| bytes.extend_from_slice(piece));
    bytes
}

/// Discards every file (`check`: render for the diagnostics only).
pub struct NullSink;

impl Sink for NullSink {
    fn put(&self, _: String, _: Vec<u8>) {}

    fn put_pieces(&self, _: String, _: &mut Pieces) {}

    fn discards(&self) -> bool {
        true
    }
}

/// Collects the site in memory (`serve`, tests).
#[derive(Default)]
pub struct MemorySink(std::sync::Mutex<Site>);

impl Sink for MemorySink {
    fn put(&self, path: String, bytes: Vec<u8>) {
        if let Ok(mut site) = self.0.lock() {
            site.files.insert(path, bytes.into());
        }
    }
}

impl MemorySink {
    pub fn into_site(self) -> Site {
        self.0.into_inner().unwrap_or_default()
    }
}

/// HTML-escapes text for element content and quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

/// [`escape`], appending to `out`. Every character it replaces or drops is ASCII, so the
/// text is scanned as bytes and copied in runs between them: a run table escapes each
/// of its thousands of cells, and a push per character was a fifth of the table's time.
pub fn escape_into(out: &mut String, s: &str) {
    // Most cells (numbers, ids) hold nothing to replace: one table lookup a byte, then a
    // single copy.
    let Some(first) = s.bytes().position(|b| REPLACED[b as usize]) else {
        out.push_str(s);
        return;
    };
    let mut from = 0;
    for (i, b) in s.bytes().enumerate().skip(first) {
        let by = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            // Control characters are not allowed in XML 1.0 (the SVG figures) nor useful in HTML.
            0..0x20 if !matches!(b, b'\n' | b'\t' | b'\r') => "",
            _ => continue,
        };
        // `i` is an ASCII byte's, so a character boundary.
        out.push_str(&s[from..i]);
        out.push_str(by);
        from = i + 1;
    }
    out.push_str(&s[from..]);
}

/// The bytes [`escape_into`] replaces or drops.
static REPLACED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = !matches!(b as u8, b'\n' | b'\t' | b'\r');
        b += 1;
    }
    t[b'&' as usize] = true;
    t[b'<' as usize] = true;
    t[b'>' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t
};

/// The path of a base URL, between slashes: `https://example.org/repo` → `/repo/`.
pub fn base_path(base: &str) -> String {
    let path = url::Url::parse(base)
        .map(|u| u.path().to_string())
        .unwrap_or_default();
    let path = path.trim_matches('/');
    if path.is_empty() {
        "/".into()
    } else {
        format!("/{path}/")
    }
}

/// The ids a directive's tables or figures put on the page, as `table.html`,
/// `figure.html` and the figure's SVG write them: a table's id and caption and each
/// row's anchor; a figure's id, caption, and its drawing's title and description.
fn shown_ids(shown: &Shown) -> Vec<String> {
    let mut out = Vec::new();
    match shown {
        Shown::Tables(tables) => {
            for t in tables {
                out.push(t.id.clone());
                out.push(format!("{}-caption", t.id));
                out.extend(t.rows.iter().filter_map(|r| r.id.clone()));
                out.extend(
                    links::ids_in(t.rows_html.as_str().as_bytes())
                        .into_iter()
                        .map(str::to_string),
                );
            }
        }
        Shown::Figures(drawn) => {
            for d in drawn {
                let id = figures::figure_id(d);
                for suffix in ["", "-caption", "-title", "-desc"] {
                    out.push(format!("{id}{suffix}"));
                }
            }
        }
    }
    out
}

/// For each entry of `by_item` (a directive's item index and the keys it puts on the
/// page) holding a key an earlier entry holds: its item, the earlier entry's item and
/// that key.
fn repeats(by_item: &[(usize, Vec<String>)]) -> Vec<(usize, usize, &str)> {
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (item, keys) in by_item {
        let repeat = keys
            .iter()
            .find_map(|k| Some((k.as_str(), *first.get(k.as_str())?)));
        if let Some((key, earlier)) = repeat {
            out.push((*item, earlier, key));
        }
        for k in keys {
            first.entry(k.as_str()).or_insert(*item);
        }
    }
    out
}

/// A warning `code` at the line of each directive of `page` that repeats a key of an
/// earlier one ([`repeats`]), worded by `message(directive, earlier, key)`.
fn repeat_warnings(
    page: &PageSource,
    by_item: &[(usize, Vec<String>)],
    code: &'static str,
    hint: &'static str,
    message: impl Fn(&DirectiveLine, &DirectiveLine, &str) -> String,
) -> Vec<Diagnostic> {
    let directive = |item: usize| match page.items.get(item) {
        Some(Item::Directive(d)) => Some(d),
        _ => None,
    };
    repeats(by_item)
        .into_iter()
        .filter_map(|(item, earlier, key)| {
            let (d, e) = (directive(item)?, directive(earlier)?);
            let span = Span::new(&page.file, d.line, 1);
            Some(Diagnostic::warning(code, span, message(d, e, key)).with_hint(hint))
        })
        .collect()
}

/// Warnings for the directives of `page` that repeat what an earlier one put on it
/// (`ids`: each directive's [`shown_ids`]; `shown` rendered in `view`, the page's first):
/// - `duplicate-id`, an id: the same table, row anchor or figure shown twice gives two
///   elements one id, so a link to it is ambiguous. A warning, not an error: two tables of
///   one collection with different columns are a fair wish that no attribute yet lets an
///   author name apart;
/// - `alike-captions`, a caption: each names a scroll region, which a screen reader lists
///   by that name, so two alike cannot be told apart (axe `landmark-unique`).
fn repeated(
    page: &PageSource,
    ids: &[(usize, Vec<String>)],
    shown: &[Option<Shown>],
    view: View,
) -> Vec<Diagnostic> {
    // One directive repeats nothing: most pages take no caption copies here.
    if ids.len() < 2 {
        return Vec::new();
    }
    let mut out = repeat_warnings(
        page,
        ids,
        "duplicate-id",
        "an id names one place on a page: show each table or figure once on it, or each on \
         a page of its own",
        |d, e, id| {
            format!(
                "`::{}` shows `{id}`, which `::{}` on line {} already shows on this page",
                d.name, e.name, e.line
            )
        },
    );
    let captions: Vec<(usize, Vec<String>)> = shown
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((i, shown_captions(s.as_ref()?, view))))
        .collect();
    out.extend(repeat_warnings(
        page,
        &captions,
        "alike-captions",
        "a screen reader lists both under one name: show it once on the page, or each on a \
         page of its own",
        |d, e, _| {
            format!(
                "`::{}` shows a table or figure with the caption of one `::{}` on line {} shows",
                d.name, e.name, e.line
            )
        },
    ));
    out
}

/// The captions of a directive's tables or figures in `view`, as the page writes them.
fn shown_captions(shown: &Shown, view: View) -> Vec<String> {
    match shown {
        Shown::Tables(tables) => tables
            .iter()
            .map(|t| t.caption.as_str().to_string())
            .collect(),
        Shown::Figures(drawn) => drawn
            .iter()
            .map(|d| figures::html(view, &d.title).as_str().to_string())
            .collect(),
    }
}

/// An error for each explicit heading id of `page` that repeats an id of its tables or
/// figures (taken from `found`), at the `#id` in the heading's braces: rendering alone
/// sees those ids; `check` judges the repeats among headings and the theme's ids.
fn clashes(page: &PageSource, found: &mut Vec<(usize, String)>) -> Vec<Diagnostic> {
    std::mem::take(found)
        .into_iter()
        .filter_map(|(item, id)| match page.items.get(item) {
            Some(Item::Block(b)) => Some((b, id)),
            _ => None,
        })
        .map(|(b, id)| {
            let at = b.markdown.find(&format!("{{#{id}")).map_or(0, |i| i + 1);
            Diagnostic::error(
                "duplicate-id",
                crate::diagnostics::span_at(&page.file, &b.markdown, at, b.body_line),
                format!("heading id `{id}` is already used on this page, by one of its tables or figures"),
            )
            .with_hint(
                "an id names one place on a page: give this heading an id of its own, or drop \
                 the `{#…}` and let its text make one (a repeated text takes `-1`, `-2`, …)",
            )
        })
        .collect()
}

/// A page's blocks rendered for every view (by item index), while its views render.
/// One page's blocks as rendered for its first view, for the next views to localize, and
/// the notes (`markup::Notes`) taken on each block's first rendering, by item index.
#[derive(Default)]
struct Blocks {
    portable: std::collections::HashMap<usize, Option<markdown::Portable>>,
    notes: Vec<(usize, markup::Notes)>,
    /// What the page's tables made for the views still to render.
    later: scope::Later,
    /// The page's heading ids, given on its first view and kept for the others.
    ids: Option<std::cell::RefCell<markdown::PageIds>>,
}

/// Everything rendering needs, prepared once per build.
pub struct Renderer<'a> {
    pub ev: &'a Evidence,
    pub derived: &'a Derived,
    pub msgs: Arc<Messages>,
    pub tera: Tera,
    /// Shared: `serve` keeps them for the next rebuild of an edited page.
    pub values: Arc<Values>,
    pub pages: view::PageIndex,
    /// The pages in the navigation bar: top-level pages only, since pages in folders
    /// (`docs/p00001`) are reached from their section, not listed on every page. Found
    /// once, so a site with thousands of pages does not scan them all for every page.
    nav: Vec<&'a PageSource>,
    pub theme: &'a Theme,
    /// The pages' heading ids, for `@/page#heading` links ([`markdown::Headings`]).
    headings: markdown::Headings<'a>,
    /// Whether a page's body and a table's rows are spliced into the frame its template
    /// renders ([`SPLICE`]): when the templates are the built-in ones.
    splice_body: bool,
    splice_rows: bool,
}

#[derive(Serialize)]
struct NavItem {
    title: String,
    href: String,
    current: bool,
}

#[derive(Serialize)]
struct Alternate {
    view: View,
    hreflang: &'static str,
    /// The switcher's link: relative, so that it stays in whatever copy of the site is
    /// open (a preview, a download).
    href: String,
    /// The `<link rel="alternate">` URL: absolute when the site has a `base_url`.
    url: String,
    current: bool,
    /// The view's name as HTML: each language's own name, marked with its `lang`
    /// (`日本語 + English`).
    label: String,
    /// The scripts its languages are written in ([`search::scripts`]): a query in one of
    /// them, on a view that writes none, is pointed to this view.
    scripts: String,
}

impl<'a> Renderer<'a> {
    pub fn new(
        ev: &'a Evidence,
        derived: &'a Derived,
        theme: &'a Theme,
        msgs: Arc<Messages>,
        values: Arc<Values>,
    ) -> Result<Self, Diagnostic> {
        let tera = templates::load(theme, msgs.clone())?;
        Ok(Renderer {
            ev,
            derived,
            msgs,
            tera,
            values,
            pages: view::PageIndex::new(ev),
            nav: ev
                .pages
                .iter()
                .filter(|p| p.id != "index" && !p.id.contains('/'))
                .collect(),
            theme,
            headings: markdown::Headings::new(ev),
            splice_body: builtin(theme, &["templates/page.html", "templates/base.html"]),
            splice_rows: builtin(theme, &["templates/table.html"]),
        })
    }

    fn scope(&'a self, view: View, page_id: &'a str) -> Scope<'a> {
        Scope {
            ev: self.ev,
            derived: self.derived,
            msgs: &self.msgs,
            values: &self.values,
            pages: &self.pages,
            view,
            page_id,
            headings: Some(&self.headings),
            later: None,
        }
    }

    /// The views this site publishes.
    fn views(&self) -> &[View] {
        self.ev.config.as_ref().map_or(View::DEFAULT, |c| c.views())
    }

    /// Renders the whole site into memory.
    pub fn site(&self, diags: &mut Vec<Diagnostic>) -> Site {
        let sink = MemorySink::default();
        self.render(&sink, diags);
        sink.into_site()
    }

    /// Renders every page in each of its views in parallel, handing each file to `sink` as
    /// soon as it is ready, so no step holds the whole site in memory.
    pub fn render(&self, sink: &dyn Sink, diags: &mut Vec<Diagnostic>) {
        self.render_pages(None, sink, &|_, _| Vec::new(), diags);
    }

    /// Like [`Renderer::render`], for the pages in `only` (every page when `None`): their
    /// views and figures, and every file that belongs to no page (404, sitemap,
    /// `evidence.json`, static files). `serve` re-renders the pages an edit reaches.
    /// Each page's block notes go to `judge` as soon as the page is rendered.
    pub fn render_pages(
        &self,
        only: Option<&BTreeSet<String>>,
        sink: &dyn Sink,
        judge: Judge,
        diags: &mut Vec<Diagnostic>,
    ) {
        // The files of no page (404, sitemap, evidence.json) render beside the pages.
        let (found, extra) = rayon::join(
            || self.pages_only(only, sink, judge),
            || {
                let mut d = Vec::new();
                self.extras(sink, &mut d);
                d
            },
        );
        diags.extend(found);
        diags.extend(extra);
        diags.extend(self.msgs.missing_diagnostics());
    }

    /// Renders the pages in `only` in every view, and no other file.
    pub fn render_some(
        &self,
        only: &BTreeSet<String>,
        sink: &dyn Sink,
        judge: Judge,
        diags: &mut Vec<Diagnostic>,
    ) {
        diags.extend(self.pages_only(Some(only), sink, judge));
    }

    /// The pages in `only` (every page when `None`) in every view, into `sink`, each
    /// page's notes to `judge`; the problems found.
    fn pages_only(
        &self,
        only: Option<&BTreeSet<String>>,
        sink: &dyn Sink,
        judge: Judge,
    ) -> Vec<Diagnostic> {
        use rayon::prelude::*;
        let views = self.views();
        let jobs: Vec<&PageSource> = self
            .ev
            .pages
            .iter()
            .filter(|p| only.is_none_or(|o| o.contains(&p.id)))
            .collect();
        let folders: Vec<String> = jobs
            .iter()
            .flat_map(|page| views.iter().map(|v| v.path(&page.id)))
            .map(|f| f.trim_end_matches('/').to_string())
            .filter(|f| !f.is_empty())
            .collect();
        sink.prepare(&folders);
        // One job renders a page in every view, so that each block's markdown is parsed
        // once per language, not once per view.
        jobs.par_iter()
            .flat_map_iter(|&page| {
                let mut d = Vec::new();
                let mut blocks = Blocks::default();
                for &view in views {
                    match self.page(page, view, &mut blocks, sink, &mut d) {
                        Ok(html) => sink.put(view.file(&page.id), html.into_bytes()),
                        Err(e) => d.push(e),
                    }
                }
                d.extend(judge(page, &blocks.notes));
                d
            })
            .collect()
    }

    /// The body of one view of a page, onto `out`: blocks of its languages, and directive
    /// tables.
    fn body(
        &self,
        page: &PageSource,
        view: View,
        blocks: &mut Blocks,
        sink: &dyn Sink,
        diags: &mut Vec<Diagnostic>,
        out: &mut String,
    ) {
        let mut scope = self.scope(view, &page.id);
        scope.later = Some(&blocks.later);
        // The directives first: a heading takes no id their tables and figures use.
        // An invalid directive is reported by `check`; render the rest.
        let mut shown: Vec<Option<Shown>> = page
            .items
            .iter()
            .map(|item| match item {
                Item::Directive(d) => d.resolved().ok().map(|dir| directives::render(dir, &scope)),
                Item::Block(_) => None,
            })
            .collect();
        if blocks.ids.is_none() {
            let by_item: Vec<(usize, Vec<String>)> = shown
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((i, shown_ids(s.as_ref()?))))
                .collect();
            diags.extend(repeated(page, &by_item, &shown, view));
            let has_blocks = page.items.iter().any(|i| matches!(i, Item::Block(_)));
            let reserved = if has_blocks {
                by_item.into_iter().flat_map(|(_, ids)| ids).collect()
            } else {
                Vec::new()
            };
            blocks.ids = Some(std::cell::RefCell::new(markdown::PageIds::new(reserved)));
        }
        let start = out.len();
        for (i, item) in page.items.iter().enumerate() {
            match item {
                Item::Block(b) if view.langs().contains(&b.lang) => {
                    // Noted once, on the block's first rendering.
                    let first = !blocks.portable.contains_key(&i);
                    let notes = std::cell::RefCell::new(markup::Notes::default());
                    let ctx = markdown::Ctx {
                        view,
                        lang: b.lang,
                        depth: view.depth(&page.id),
                        pages: &self.pages,
                        ev: self.ev,
                        values: &self.values,
                        links: None,
                        notes: first.then_some(&notes),
                        headings: Some(&self.headings),
                        page_ids: blocks.ids.as_ref().map(|ids| (ids, i)),
                    };
                    let portable = blocks
                        .portable
                        .entry(i)
                        .or_insert_with(|| markdown::portable(&b.markdown, &ctx));
                    let html = match portable {
                        Some(p) => p.localize(view, b.lang, ctx.depth),
                        None => markdown::block(&b.markdown, &ctx),
                    };
                    if first {
                        blocks.notes.push((i, notes.into_inner()));
                    }
                    // In the interleaved view a block not in the leading language is a
                    // translation of the one before it.
                    let class = if view.interleaved() && b.lang != view.lead() {
                        "block tr"
                    } else {
                        "block"
                    };
                    out.push_str("<div class=\"");
                    out.push_str(class);
                    out.push_str("\" lang=\"");
                    out.push_str(b.lang.code());
                    out.push_str("\">\n");
                    out.push_str(&html);
                    if let Some(basis) = &b.basis {
                        out.push_str(
                            tables::records::block_basis_note(&scope, b.lang, basis).as_str(),
                        );
                    }
                    out.push_str("</div>\n");
                }
                Item::Block(_) => {}
                Item::Directive(_) => match shown.get_mut(i).and_then(Option::take) {
                    Some(Shown::Tables(t)) => self.tables(t, out, diags),
                    Some(Shown::Figures(f)) => self.figures(f, &scope, sink, out, diags),
                    None => {}
                },
            }
        }
        if let Some(ids) = &blocks.ids {
            diags.extend(clashes(page, &mut ids.borrow_mut().clashes));
        }
        // A page that shows what a statement rests on explains the marks once, after them.
        if memchr::memmem::find(&out.as_bytes()[start..], BASIS_BADGE).is_some() {
            out.push_str(tables::records::basis_legend(&scope).as_str());
        }
    }

    /// Renders the tables of one directive through `table.html`.
    fn tables(&self, tables: Vec<table::Table>, out: &mut String, diags: &mut Vec<Diagnostic>) {
        for t in tables {
            let mut c = t.context();
            let rows = self.splice_rows.then(|| {
                std::mem::replace(
                    &mut c.rows_html,
                    Cow::Owned(html::Html::trusted_static(SPLICE)),
                )
            });
            let mut rendered = self.tera.render(
                "table.html",
                &Context::from_serialize(&c).unwrap_or_default(),
            );
            if let (Some(rows), Ok(frame)) = (rows, &rendered) {
                if let Some((before, after)) = split_frame(frame) {
                    out.push_str(before);
                    out.push_str(rows.as_str());
                    out.push_str(after);
                    continue;
                }
                c.rows_html = rows;
                let ctx = Context::from_serialize(&c).unwrap_or_default();
                rendered = self.tera.render("table.html", &ctx);
            }
            match rendered {
                Ok(html) => out.push_str(&html),
                Err(e) => diags.push(Diagnostic::error(
                    "template",
                    Span::file("templates/table.html"),
                    templates::flatten(&e),
                )),
            }
        }
    }

    /// Draws the figures of one directive through `figure.html`; their standalone SVG
    /// files are kept for the site.
    fn figures(
        &self,
        drawn: Vec<figures::Drawn>,
        scope: &Scope,
        sink: &dyn Sink,
        out: &mut String,
        diags: &mut Vec<Diagnostic>,
    ) {
        for fig in drawn {
            let p = figures::present(&fig, scope, scope.page_id);
            let ctx = Context::from_serialize(&p.context).unwrap_or_default();
            match self.tera.render("figure.html", &ctx) {
                Ok(html) => out.push_str(&html),
                Err(e) => diags.push(Diagnostic::error(
                    "template",
                    Span::file("templates/figure.html"),
                    templates::flatten(&e),
                )),
            }
            for (path, bytes) in p.files {
                sink.put(path, bytes);
            }
        }
    }

    fn page(
        &self,
        page: &PageSource,
        view: View,
        blocks: &mut Blocks,
        sink: &dyn Sink,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<String, Diagnostic> {
        let mut ctx = self.base_context(&page.id, view, &relative(view.depth(&page.id), ""));
        ctx.insert("page_id", &page.id);
        ctx.insert("title_html", &self.bi(view, &page.front.title));
        ctx.insert("title_text", &plain(view, &page.front.title));
        let desc = match &page.front.description {
            Some(d) => plain(view, d),
            None => self
                .generated_description(page)
                .map(|d| plain(view, &d))
                .unwrap_or_default(),
        };
        ctx.insert("description", &desc);
        ctx.insert(
            "description_html",
            &page
                .front
                .description
                .as_ref()
                .map(|d| self.bi(view, d))
                .unwrap_or_default(),
        );
        let date = page.front.date.as_ref().map(|d| d.value.as_str());
        ctx.insert("date", &date.unwrap_or_default());
        // The frame first, when the body can be spliced into it: the body is then written
        // straight after the frame's first part.
        if self.splice_body {
            ctx.insert("body", SPLICE);
            let frame = self.tera.render("page.html", &ctx);
            if let Some((before, after)) = frame.as_deref().ok().and_then(split_frame) {
                let mut html = String::with_capacity(before.len() + after.len() + 4096);
                html.push_str(before);
                self.body(page, view, blocks, sink, diags, &mut html);
                html.push_str(after);
                return Ok(html);
            }
        }
        let mut body = String::new();
        self.body(page, view, blocks, sink, diags, &mut body);
        ctx.insert("body", &body);
        self.tera.render("page.html", &ctx).map_err(|e| {
            Diagnostic::error(
                "template",
                Span::file("templates/page.html"),
                templates::flatten(&e),
            )
        })
    }

    /// Context shared by every page: site title, navigation, language switcher.
    /// `prefix` leads from the page to the site root: `../../` for a page, or an absolute
    /// root for the 404 page, which is served at any depth.
    fn base_context(&self, page_id: &str, view: View, prefix: &str) -> Context {
        let depth = view.depth(page_id);
        let mut ctx = Context::new();
        let cfg = self.ev.config.as_ref();
        let site_title = cfg.map(|c| c.title.clone()).unwrap_or_default();
        ctx.insert("site_title_html", &self.bi(view, &site_title));
        ctx.insert("site_title_text", &plain(view, &site_title));
        ctx.insert("lang", view.html_lang());
        ctx.insert("view", &view);
        ctx.insert(
            "langs",
            &view.langs().iter().map(|l| l.code()).collect::<Vec<_>>(),
        );
        ctx.insert("root", prefix);
        // The search form: the indexes a reader of this view searches, and where the
        // view's pages are (results link to them).
        ctx.insert("search", &cfg.is_some_and(|c| c.search));
        ctx.insert(
            "search_indexes",
            &search::searched(view, self.views()).join(" "),
        );
        ctx.insert("view_root", &format!("{prefix}{}", view.path("index")));
        ctx.insert("search_scripts", &search::scripts(view));
        // The stylesheets of the packs the site turns on, linked after the theme's own.
        let pack_styles: Vec<&str> = self
            .theme
            .under("static/packs/")
            .map(|(name, _)| name)
            .filter(|name| name.ends_with(".css"))
            .collect();
        ctx.insert("pack_styles", &pack_styles);
        ctx.insert("home", &format!("{prefix}{}", view.file("index")));
        let nav: Vec<NavItem> = self
            .nav
            .iter()
            .map(|p| NavItem {
                title: self.bi(view, &p.front.title),
                href: format!("{prefix}{}", view.file(&p.id)),
                // A page in a folder (a run's page) belongs to the section above it.
                current: p.id == page_id
                    || page_id
                        .strip_prefix(p.id.as_str())
                        .is_some_and(|rest| rest.starts_with('/')),
            })
            .collect();
        ctx.insert("nav", &nav);
        let alternates: Vec<Alternate> = self
            .views()
            .iter()
            .filter(|_| page_id != NOT_FOUND)
            .map(|&v| Alternate {
                view: v,
                hreflang: v.hreflang(),
                href: relative(depth, &v.file(page_id)),
                url: self.url(depth, &v.file(page_id)),
                current: v == view,
                scripts: search::scripts(v),
                label: v
                    .langs()
                    .iter()
                    .map(|&l| {
                        let name = self.msgs.format(l, "language-name", None);
                        format!("<span lang=\"{l}\">{}</span>", escape(&name))
                    })
                    .collect::<Vec<_>>()
                    .join(" + "),
            })
            .collect();
        ctx.insert("alternates", &alternates);
        ctx
    }

    /// The site's `base_url` (`check` has made sure it is an absolute http(s) URL).
    fn base_url(&self) -> Option<&str> {
        let base = self.ev.config.as_ref()?.base_url.as_ref()?;
        Some(&base.value)
    }

    /// Absolute URL when the site has a base URL, else a relative one.
    fn url(&self, depth: usize, path: &str) -> String {
        match self.base_url() {
            Some(base) => format!(
                "{}/{}",
                base.trim_end_matches('/'),
                path.trim_end_matches("index.html")
            ),
            None => relative(depth, path),
        }
    }

    /// A text in this view's languages as HTML spans (no markdown: titles).
    fn bi(&self, view: View, t: &Text) -> String {
        join_langs(
            view,
            view.langs()
                .iter()
                .map(|&l| (l, escape(l.pick(t))))
                .collect(),
        )
    }

    /// A text as plain words for `<title>` and meta tags.
    /// The meta description of a page the site did not write (a run's, a record's), in
    /// the theme's words: what the page shows.
    fn generated_description(&self, page: &PageSource) -> Option<Text> {
        use crate::model::page::Item;
        if !page.generated {
            return None;
        }
        let Some(Item::Directive(d)) = page.items.first() else {
            return None;
        };
        let attr = |k: &str| d.attrs.get(k).cloned().unwrap_or_default();
        match d.name.as_str() {
            crate::model::generated::RUN_PAGE => {
                let run = self.ev.runs.get(&attr("id"))?;
                Some(self.msgs.text_args(
                    "run-page-description",
                    &[("run", run.id.value.clone()), ("probe", run.probe.clone())],
                ))
            }
            crate::model::generated::RECORD_PAGE => Some(self.msgs.text_args(
                "record-page-description",
                &[("collection", attr("of")), ("id", attr("id"))],
            )),
            _ => None,
        }
    }

    /// `sitemap.xml`: every page in every view with its alternates. The sitemap protocol
    /// lists absolute URLs, so without `base_url` there is no valid sitemap to write (and
    /// `build` says so).
    fn sitemap(&self, sink: &dyn Sink, diags: &mut Vec<Diagnostic>) {
        if self.base_url().is_none() {
            return;
        }
        let mut sm = Context::new();
        let entries: Vec<BTreeMap<&str, serde_json::Value>> = self
            .ev
            .pages
            .iter()
            .flat_map(|p| self.views().iter().map(move |&v| (p, v)))
            .map(|(p, v)| {
                let alts: Vec<serde_json::Value> = self
                    .views()
                    .iter()
                    .map(|&a| serde_json::json!({"hreflang": a.hreflang(), "href": self.url(0, &a.file(&p.id))}))
                    .collect();
                BTreeMap::from([("loc", serde_json::json!(self.url(0, &v.file(&p.id)))), ("alternates", serde_json::json!(alts))])
            })
            .collect();
        sm.insert("entries", &entries);
        match self.tera.render("sitemap.xml", &sm) {
            Ok(xml) => {
                sink.put(own::SITEMAP.into(), xml.into_bytes());
            }
            Err(e) => diags.push(Diagnostic::error(
                "template",
                Span::file("templates/sitemap.xml"),
                templates::flatten(&e),
            )),
        }
    }

    /// 404 page, sitemap, Atom feeds, evidence.json and static files.
    fn extras(&self, sink: &dyn Sink, diags: &mut Vec<Diagnostic>) {
        // Served for any missing path, so its links start from the site's root: the path
        // of `base_url` (`/repo/` for a site published at `https://example.org/repo/`),
        // not its host, so that they also work in a preview on another host.
        let root = self.base_url().map_or_else(|| "/".to_string(), base_path);
        let view = self.views().first().copied().unwrap_or(View::BILINGUAL);
        let mut ctx = self.base_context(NOT_FOUND, view, &root);
        let desc = plain(view, &self.msgs.text("not-found-description"));
        ctx.insert("description", &desc);
        match self.tera.render("404.html", &ctx) {
            Ok(html) => {
                sink.put(own::NOT_FOUND.into(), html.into_bytes());
            }
            Err(e) => diags.push(Diagnostic::error(
                "template",
                Span::file("templates/404.html"),
                templates::flatten(&e),
            )),
        }
        self.sitemap(sink, diags);
        if let Some(history) = self.ev.history.as_ref() {
            let feed = feed::Feed {
                ev: self.ev,
                history,
                msgs: &self.msgs,
                pages: &self.pages,
                base: self.base_url().map(|b| b.trim_end_matches('/')),
            };
            for &view in self.views() {
                if let Some(xml) = feed.xml(view) {
                    sink.put(
                        format!("{}{}", view.path("index"), own::FEED),
                        xml.into_bytes(),
                    );
                }
            }
        }
        sink.put_pieces(own::EXPORT.into(), &mut |piece| {
            crate::model::values::export_pieces(self.ev, &mut |s| piece(s.as_bytes()));
            piece(b"\n");
        });
        // The search script goes out only with the index it reads.
        let search = self.ev.config.as_ref().is_some_and(|c| c.search);
        for (name, f) in self.theme.under("static/") {
            if name == search::SCRIPT && !search {
                continue;
            }
            let mut bytes = f.bytes.clone();
            if name == "style.css" {
                // The families' own colours follow the theme's, so that they win over it.
                bytes.extend_from_slice(palette::stylesheet(self.ev).as_bytes());
            }
            sink.put(format!("{}{name}", own::STATIC), bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_split_at_its_one_mark_or_not_at_all() {
        let frame = format!("<main>{SPLICE}</main>");
        assert_eq!(split_frame(&frame), Some(("<main>", "</main>")));
        assert_eq!(split_frame("<main></main>"), None);
        assert_eq!(split_frame(&format!("{SPLICE}{SPLICE}")), None);
        assert_eq!(split_frame(&format!("a{SPLICE}b{SPLICE}c")), None);
    }

    /// A theme of one template, `templates/page.html`, with this origin and these bytes.
    fn page_template(origin: &str, bytes: &[u8]) -> Theme {
        let file = crate::load::theme::ThemeFile {
            origin: origin.to_string(),
            bytes: bytes.to_vec(),
        };
        Theme {
            files: [("templates/page.html".to_string(), file)].into(),
        }
    }

    #[test]
    fn a_site_copy_of_a_builtin_template_is_spliced_and_a_changed_one_is_not() {
        let (_, page) = crate::load::theme::BUILTIN
            .iter()
            .find(|(p, _)| *p == "templates/page.html")
            .expect("the built-in page template");
        let t = ["templates/page.html"];
        assert!(builtin(
            &page_template("(built-in) templates/page.html", page),
            &t
        ));
        // The repository's root has the built-in templates as its own files.
        assert!(builtin(&page_template("templates/page.html", page), &t));
        let changed = [*page, b"{# the site's own #}"].concat();
        assert!(!builtin(
            &page_template("templates/page.html", &changed),
            &t
        ));
        assert!(!builtin(
            &page_template("templates/page.html", page),
            &["templates/x.html"]
        ));
    }

    /// What escaping means, a character at a time.
    fn by_char(s: &str) -> String {
        let mut out = String::new();
        for c in s.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                '\'' => out.push_str("&#39;"),
                c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn escaping_replaces_markup_and_drops_controls_only() {
        for s in [
            "",
            "plain",
            "<a href=\"x\">R&D's</a>",
            "表<b>太字</b>の「引用」&amp;",
            "\u{0}\u{1}a\tb\nc\rd\u{1f}\u{7f}é",
            "&&&<<<>>>\"\"\"'''",
            "末尾<",
        ] {
            assert_eq!(escape(s), by_char(s), "{s:?}");
        }
        assert_eq!(escape("a<b>\u{1}&"), "a&lt;b&gt;&amp;");
    }

    proptest::proptest! {
        #[test]
        fn escaping_any_text_is_escaping_each_character(s in "\\PC*|[<>&\"'\u{0}-\u{1f}a-z表]*") {
            proptest::prop_assert_eq!(escape(&s), by_char(&s));
        }
    }
}
