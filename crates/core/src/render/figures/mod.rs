//! Figures: dispatch-flow diagrams, the observer map, the library chain and plots, drawn at
//! build time from the evidence as self-contained SVG (no client-side library).
//!
//! Each figure directive's `Render` impl (the `figures!` block) turns it into [`Drawn`]s
//! for the scope's view, each drawn by its own module; [`present`] wraps a drawing into the inline SVG of the page, the
//! standalone file (`figures/<page>/<name>.<interleaved|tag>.svg`) and the `figure.html` context.
//! Every label comes from the data or from Fluent, so each view draws its own language and
//! the interleaved view draws each of the site's languages. Text stays `<text>`: searchable, selectable, translatable.

mod chain;
mod diff;
mod dispatch;
mod history;
mod observers;
mod plot;
mod proxy;
mod scale;
mod scatter;
pub mod svg;
mod timing;

use super::directives::{Render, Shown};
use super::html::Html;
use super::markdown::{self, Ctx as MdCtx};
use super::scope::{Scope, join_html};
use super::tables::source_line;
use super::view::relative;
use crate::model::Text;
use crate::model::directive::{self as d, RunChoice};
use crate::model::page::Lang;
use crate::model::view::View;
use serde::Serialize;
use svg::{Font, Svg, TextStyle};

/// A text in the languages of a view: one entry, or one per language (in the site's order)
/// in the interleaved view.
pub type Words = Vec<(Lang, String)>;

/// One figure, resolved for a view.
#[derive(Debug, Clone)]
pub struct Drawn {
    /// File stem and anchor, unique per page (`dispatch-phase_a_q4k`).
    pub name: String,
    /// CSS class naming the kind of figure (`dispatch-diagram`, `proxy-plot`, …).
    pub kind: &'static str,
    pub title: Words,
    /// Data files the figure was drawn from.
    pub sources: Vec<String>,
    pub content: Content,
}

impl Drawn {
    /// Sets the figure's drawing, its `<desc>` being its title followed by `items` (one
    /// line of text per mark, for screen readers).
    pub fn with_svg(self, (width, height): (u32, u32), svg: svg::Svg, items: &[String]) -> Drawn {
        let desc = self
            .title
            .iter()
            .map(|(l, t)| (*l, format!("{t}: {}", items.join("; "))))
            .collect();
        self.with_described_svg((width, height), svg, desc)
    }

    /// The drawing `svg` of this size, with its text alternative in each language.
    pub fn with_described_svg(
        mut self,
        (width, height): (u32, u32),
        svg: svg::Svg,
        desc: Words,
    ) -> Drawn {
        self.content = Content::Svg {
            width: f64::from(width),
            height: f64::from(height),
            body: svg.finish(),
            desc,
        };
        self
    }
}

/// The unit the site declares for measurement `name`, in `lang`; none for a plain count.
pub(crate) fn declared_unit(s: &Scope, name: &str, lang: Lang) -> Option<String> {
    let unit = s.ev.measurements.get(name)?.unit.as_ref()?;
    Some(lang.pick(unit).to_string()).filter(|u| !u.is_empty())
}

/// A value followed by its unit, when it has one (`0.006 s`).
pub(crate) fn with_unit(value: String, unit: Option<&str>) -> String {
    match unit {
        Some(u) => format!("{value} {u}"),
        None => value,
    }
}

#[derive(Debug, Clone)]
pub enum Content {
    /// A drawing: its size, the SVG elements and a text summary for `<desc>`.
    Svg {
        width: f64,
        height: f64,
        body: String,
        desc: Words,
    },
    /// The data cannot give this figure yet; a short note stands in for it.
    Note(Words),
}

/// Implements [`Render`] for directive types drawn as figures: `$body` with `$d` the
/// directive and `$s` the scope.
macro_rules! figures {
    ($($ty:ty => |$d:ident, $s:ident| $body:expr;)*) => {
        $(impl Render for $ty {
            fn render(&self, s: &Scope) -> Shown {
                let ($d, $s) = (self, s);
                Shown::Figures($body)
            }
        })*
    };
}

figures! {
    d::DispatchDiagram => |d, s| s
        .ev
        .maps
        .get(&d.map)
        .map(|m| vec![dispatch::diagram(s, m, &m.file)])
        .unwrap_or_default();
    d::DispatchDiffDiagram => |d, s| vec![diff::diagram(s, &d.maps)];
    d::ObserverMap => |_d, s| vec![observers::diagram(s)];
    d::LibraryChain => |_d, s| vec![chain::diagram(s)];
    d::ProxyPlot => |d, s| {
        let (run, name) = match &d.run {
            RunChoice::Run(id) => (s.ev.runs.get(id), format!("proxy-{id}")),
            RunChoice::Latest(p) => (
                s.derived
                    .latest(s.ev, p)
                    .and_then(|r| s.ev.runs.get(&r.id.value)),
                format!("proxy-latest-{p}"),
            ),
        };
        run.map(|r| vec![proxy::plot(s, r, &r.file, &slug(&name))])
            .unwrap_or_default()
    };
    d::ProxyPlots => |d, s| s
        .derived
        .runs_by_probe
        .get(&d.probe)
        .map(|ids| {
            ids.iter()
                .filter_map(|id| s.ev.runs.get(id))
                .map(|r| proxy::plot(s, r, &r.file, &slug(&format!("proxy-{}", r.id.value))))
                .collect()
        })
        .unwrap_or_default();
    d::TimingPlot => |d, s| s
        .ev
        .runs
        .get(&d.run)
        .map(|r| vec![timing::plot(s, r, &r.file, &d.measures)])
        .unwrap_or_default();
    d::HistoryPlot => |d, s| vec![history::plot(s, &d.probe, &d.case, &d.field)];
    d::Scatter => |d, s| s
        .ev
        .runs
        .get(&d.run)
        .map(|r| vec![scatter::plot(s, r, d)])
        .unwrap_or_default();
}

/// An id-safe file stem: letters, digits, `_`, `-`, `.`; anything else becomes `-`.
pub fn slug(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let out = out.trim_start_matches('.').to_string();
    if out.is_empty() { "figure".into() } else { out }
}

// ------------------------------------------------------------------ words for a view

/// Inline markdown or HTML reduced to plain text (tags dropped, entities decoded).
fn plain(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// Keeps one entry when every language says the same.
fn dedupe(mut w: Words) -> Words {
    if w.len() > 1 && w.iter().all(|x| x.1 == w[0].1) {
        w.truncate(1);
    }
    w
}

/// A data text (inline markdown) as plain words in the view's languages.
pub fn text(s: &Scope, t: &Text) -> Words {
    let w = s
        .view
        .langs()
        .iter()
        .map(|&lang| {
            let ctx = MdCtx {
                view: s.view,
                lang,
                depth: s.depth(),
                pages: s.pages,
                ev: s.ev,
                values: s.values,
                links: None,
                notes: None,
                headings: None,
                page_ids: None,
            };
            let html = markdown::inline(lang.pick(t), &ctx);
            (lang, plain(&html))
        })
        .collect();
    dedupe(w)
}

/// Plain words (already formatted) in the view's languages.
pub fn words(s: &Scope, t: &Text) -> Words {
    dedupe(
        s.view
            .langs()
            .iter()
            .map(|&l| (l, l.pick(t).to_string()))
            .collect(),
    )
}

/// A Fluent message in the view's languages.
pub fn ui(s: &Scope, key: &str) -> Words {
    words(s, &s.msgs.text(key))
}

/// A Fluent message with one argument.
pub fn ui_with(
    s: &Scope,
    key: &str,
    name: &'static str,
    value: impl Into<fluent_bundle::FluentValue<'static>> + Clone,
) -> Words {
    words(s, &s.msgs.text_with(key, name, value))
}

/// A Fluent message with several string arguments.
pub fn ui_args(s: &Scope, key: &str, args: &[(&'static str, String)]) -> Words {
    let args: Vec<(&'static str, Text)> = args
        .iter()
        .map(|(k, v)| (*k, Text::untranslated(v)))
        .collect();
    ui_texts(s, key, &args)
}

/// A Fluent message whose arguments differ by language (a label from the data).
pub fn ui_texts(s: &Scope, key: &str, args: &[(&'static str, Text)]) -> Words {
    let format = |lang: Lang| {
        let mut fa = fluent_bundle::FluentArgs::new();
        for (k, v) in args {
            let v = lang.pick(v);
            // A count goes in as a number, so that Fluent selects its plural form; every
            // other argument as written (a case called `007` stays `007`).
            match v.parse::<i64>() {
                Ok(n) if *k == "count" => fa.set(*k, n),
                _ => fa.set(*k, v.to_string()),
            }
        }
        s.msgs.format(lang, key, Some(&fa))
    };
    words(s, &Text::from_fn(s.view.langs(), format))
}

/// A measurement's label with its unit, or its name when neither the site nor a pack
/// labels it.
pub fn measurement_label(s: &Scope, name: &str) -> Text {
    crate::render::tables::vocabulary::measurement_text(s, name)
        .unwrap_or_else(|| Text::untranslated(name))
}

/// The Fluent label of an enum value.
pub fn label(s: &Scope, group: &str, value: &impl Serialize) -> Words {
    words(s, &s.msgs.label(group, value))
}

/// Language-neutral words (ids, numbers, symbols).
pub fn same(s: &Scope, t: impl Into<String>) -> Words {
    words(s, &Text::untranslated(t))
}

/// A name (one for every language, or one in each) in the view's languages.
pub fn name(s: &Scope, l: &crate::model::types::Label) -> Words {
    match l {
        crate::model::types::Label::Same(t) => same(s, t.clone()),
        crate::model::types::Label::Each(t) => words(s, t),
    }
}

/// The words in `lang`, or the first language's when `w` has no words of its own in it
/// (a name the same in every language is held once).
pub fn in_lang(w: &Words, lang: Lang) -> &str {
    w.iter()
        .find(|(l, _)| *l == lang)
        .or(w.first())
        .map_or("", |(_, t)| t.as_str())
}

/// Words on one line, languages separated by ` / `.
pub fn joined(w: &Words) -> String {
    w.iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Maps each language's string through `f` (e.g. to append a suffix).
pub fn map_words(w: &Words, f: impl Fn(Lang, &str) -> String) -> Words {
    w.iter().map(|(l, t)| (*l, f(*l, t))).collect()
}

/// Words as inline HTML for the view (interleaved: `lang` spans).
pub fn html(view: View, w: &Words) -> Html {
    join_html(view, w.iter().map(|(l, t)| (*l, Html::text(t))).collect())
}

// ------------------------------------------------------------------ drawing text

/// Draws lines top-down from `y` (the top of the first line box); returns the y below.
pub fn draw_lines(
    svg: &mut Svg,
    x: f64,
    y: f64,
    lines: &[(Lang, String)],
    style: TextStyle,
    several: bool,
) -> f64 {
    let lh = style.font.line_height();
    let mut y = y;
    for (lang, line) in lines {
        let base = y + lh * 0.5 + f64::from(style.font.size) * 0.36;
        svg.text(x, base, line, &style.lang(several.then_some(*lang)));
        y += lh;
    }
    y
}

/// Wraps words to `max` pixels, each language on its own lines.
pub fn wrap_words(w: &Words, max: f64, font: Font) -> Vec<(Lang, String)> {
    w.iter()
        .flat_map(|(l, t)| svg::wrap(t, max, font).into_iter().map(move |s| (*l, s)))
        .collect()
}

/// Wraps and draws words; returns the y below the last line. Lines carry `xml:lang` only
/// when the words hold several languages (a language-neutral id needs none).
pub fn para(svg: &mut Svg, x: f64, y: f64, w: &Words, max: f64, style: TextStyle) -> f64 {
    let lines = wrap_words(w, max, style.font);
    draw_lines(svg, x, y, &lines, style, w.len() > 1)
}

/// Draws short words (a label) on one line with every language when they fit, else a
/// line per language; returns the y below.
pub fn para_fit(svg: &mut Svg, x: f64, y: f64, w: &Words, max: f64, style: TextStyle) -> f64 {
    let lines = fit_lines(w, max, style.font);
    let tag = w.len() > 1 && lines.len() > 1;
    draw_lines(svg, x, y, &lines, style, tag)
}

/// Words on one line when they fit, else one line per language (each wrapped).
pub fn fit_lines(w: &Words, max: f64, font: Font) -> Vec<(Lang, String)> {
    let one = joined(w);
    match w.first() {
        Some((l, _)) if svg::text_width(&one, font) <= max => vec![(*l, one)],
        _ => wrap_words(w, max, font),
    }
}

// ------------------------------------------------------------------ the SVG document

/// The view's suffix of a standalone file: `interleaved` (which no language tag is), or
/// the tag.
fn suffix(view: View) -> &'static str {
    view.name()
}

/// File names joined by `, `, broken into lines only between names.
fn source_lines(files: &[String], max: f64, font: Font) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for f in files {
        match lines.last_mut() {
            Some(l) if svg::text_width(&format!("{l}, {f}"), font) <= max => {
                l.push_str(", ");
                l.push_str(f);
            }
            Some(l) => {
                l.push(',');
                lines.push(f.clone());
            }
            None => lines.push(f.clone()),
        }
    }
    lines
}

/// The complete `<svg>` element of a drawing. The standalone file adds the title above
/// and the data files below the drawing, since it has no page around it. `colours` are
/// the rules of the families' own colours ([`crate::render::palette::figure_style`]).
fn document(o: &Drawn, view: View, standalone: bool, id: &str, colours: &str) -> Option<String> {
    let Content::Svg {
        width,
        height,
        body,
        desc,
    } = &o.content
    else {
        return None;
    };
    let (w, h) = (*width, *height);
    let bi = view.interleaved();
    let mut head = Svg::new();
    let mut top = 0.0;
    let mut foot = Svg::new();
    let mut bottom = 0.0;
    if standalone {
        let title = wrap_words(&o.title, w - 24.0, Font::sans(15).bold());
        top = draw_lines(
            &mut head,
            12.0,
            10.0,
            &title,
            TextStyle::new(Font::sans(15).bold(), ""),
            bi,
        ) + 4.0;
        let lines: Vec<(Lang, String)> = source_lines(&o.sources, w - 24.0, Font::mono(12))
            .into_iter()
            .map(|l| (view.lead(), l))
            .collect();
        bottom = lines.len() as f64 * Font::mono(12).line_height() + 10.0;
        draw_lines(
            &mut foot,
            12.0,
            top + h,
            &lines,
            TextStyle::new(Font::mono(12), "mu"),
            false,
        );
    }
    let total = top + h + bottom;
    let mut out = String::new();
    if standalone {
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    }
    let size = if standalone {
        String::new()
    } else {
        format!(
            " style=\"display:block;max-width:{}px;height:auto\"",
            svg::num((w * 1.25).round())
        )
    };
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"evfig {kind}\" viewBox=\"0 0 {vw} {vh}\" width=\"100%\"{size} role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" xml:lang=\"{lang}\">\n",
        kind = o.kind,
        vw = svg::num(w),
        vh = svg::num(total),
        lang = view.html_lang(),
    ));
    out.push_str(&format!(
        "<title id=\"{id}-title\">{}</title>\n<desc id=\"{id}-desc\">{}</desc>\n<style>\n{}{colours}</style>\n",
        svg::esc(&joined(&o.title)),
        svg::esc(&joined(desc)),
        svg::style()
    ));
    out.push_str(&format!(
        "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" rx=\"6\"/>\n",
        svg::num(w),
        svg::num(total)
    ));
    out.push_str(&head.finish());
    if top > 0.0 {
        out.push_str(&format!(
            "<g transform=\"translate(0 {})\">\n",
            svg::num(top)
        ));
        out.push_str(body);
        out.push_str("</g>\n");
    } else {
        out.push_str(body);
    }
    out.push_str(&foot.finish());
    out.push_str("</svg>\n");
    Some(out)
}

/// What `templates/figure.html` draws.
#[derive(Debug, Clone, Serialize, Default)]
pub struct FigureContext {
    pub id: String,
    pub class: String,
    /// The inline `<svg>` (empty for a note).
    pub svg: Html,
    /// The note shown instead of a drawing.
    pub note: Html,
    pub caption: Html,
    /// Link to the standalone file (empty for a note).
    pub href: String,
    pub enlarge: Html,
    pub source: Html,
    /// The drawing's width in CSS pixels at scale 1 (its `viewBox` width, whole pixels):
    /// on a narrow screen the figure scrolls in its wrapper rather than shrink below it, so
    /// no label gets smaller than it was set. `None` for a note.
    pub natural_width: Option<u64>,
}

/// A figure ready for the page: the template context and the standalone files to write.
pub struct Presented {
    pub context: FigureContext,
    pub files: Vec<(String, Vec<u8>)>,
}

/// The id of a figure on its page.
pub fn figure_id(o: &Drawn) -> String {
    format!("fig-{}", o.name)
}

/// Prepares one figure of page `page_id` for the scope's view.
pub fn present(o: &Drawn, s: &Scope, page_id: &str) -> Presented {
    let id = figure_id(o);
    let path = format!("figures/{page_id}/{}.{}.svg", o.name, suffix(s.view));
    let mut files = Vec::new();
    let mut context = FigureContext {
        id: id.clone(),
        class: o.kind.to_string(),
        caption: html(s.view, &o.title),
        enlarge: s.ui("figure-enlarge"),
        source: source_line(s, &o.sources),
        ..FigureContext::default()
    };
    match &o.content {
        Content::Svg { width, .. } => {
            context.natural_width = Some(width.ceil() as u64);
            // Written by the SVG writer, which escapes every text and attribute it takes.
            let colours = crate::render::palette::figure_style(s.ev);
            context.svg =
                Html::trusted(document(o, s.view, false, &id, &colours).unwrap_or_default());
            if let Some(doc) = document(o, s.view, true, &id, &colours) {
                files.push((path.clone(), doc.into_bytes()));
                context.href = relative(s.depth(), &path);
            }
        }
        Content::Note(w) => context.note = html(s.view, w),
    }
    Presented { context, files }
}

/// A decision map's diagram as inline SVG in the scope's view, away from any page: the
/// review page of `evidence diff` sets a changed map's two versions side by side. `id`
/// names the drawing's title and description, unique on the page that holds it.
pub fn map_svg(s: &Scope, map: &crate::model::DispatchMap, file: &str, id: &str) -> Option<String> {
    let colours = crate::render::palette::figure_style(s.ev);
    document(
        &dispatch::diagram(s, map, file),
        s.view,
        false,
        id,
        &colours,
    )
}

/// A run's plot over the zones of the map it is assessed against, as inline SVG away
/// from any page (see [`map_svg`]).
pub fn run_svg(
    s: &Scope,
    run: &crate::model::Located<crate::model::Run>,
    id: &str,
) -> Option<String> {
    let drawn = proxy::plot(s, run, &run.file, &format!("proxy-{}", slug(&run.id.value)));
    let colours = crate::render::palette::figure_style(s.ev);
    document(&drawn, s.view, false, id, &colours)
}

/// The hue of a family, whose classes its figures draw with (`f-h0`, `f-fam-x`, …).
pub fn family_hue(s: &Scope, family: &str) -> crate::render::palette::Hue {
    crate::render::palette::family(s.ev, family)
}

/// A family's display name, or its id when unknown.
pub fn family_name(s: &Scope, family: &str) -> String {
    s.ev.families
        .get(family)
        .map(|f| joined(&words(s, &f.label)))
        .unwrap_or_else(|| family.to_string())
}

/// Sorted, de-duplicated data file names.
pub fn files(list: impl IntoIterator<Item = impl AsRef<str>>) -> Vec<String> {
    let mut v: Vec<String> = list.into_iter().map(|f| f.as_ref().to_string()).collect();
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
pub(crate) mod testkit {
    //! The fixture site `tests/fixtures/figures/` (a query planner choosing its scan by
    //! estimated rows), loaded once, and helpers to draw figures in tests. Tests never
    //! read the repository's own site: its data changes as the investigation goes on.

    use super::*;
    use crate::derive::{self, Derived};
    use crate::load::messages::Messages;
    use crate::model::values::Values;
    use crate::model::{self, Evidence};
    use crate::render::view::PageIndex;
    use std::path::Path;
    use std::sync::OnceLock;

    /// The fixture site, relative to the crate root.
    pub const FIXTURE: &str = "tests/fixtures/figures";

    /// The fixture page the scope draws for.
    pub const PAGE: &str = "scan-choice";

    pub struct Site {
        pub ev: Evidence,
        pub derived: Derived,
        pub msgs: Messages,
        pub values: Values,
        pub pages: PageIndex,
        /// Codes of the problems found while building the graph (`dangling-ref`, …).
        pub problems: Vec<&'static str>,
    }

    impl Site {
        /// The fixture site, with its data edited by `edit` before the graph is built.
        pub fn load(edit: impl FnOnce(&mut crate::model::DataSet)) -> Site {
            let root = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(FIXTURE);
            let (mut sources, _) = crate::load::load(&root).expect("fixture site loads");
            edit(&mut sources.data);
            let msgs = Messages::load(&sources.theme, sources.config.languages());
            let (ev, diags) = model::build(sources.config, sources.data, sources.pages);
            let problems = diags.iter().map(|d| d.code).collect();
            let derived = derive::derive(&ev);
            let values = Values::new(&ev);
            let pages = PageIndex::new(&ev);
            Site {
                ev,
                derived,
                msgs,
                values,
                pages,
                problems,
            }
        }

        pub fn scope(&self, view: View) -> Scope<'_> {
            Scope {
                ev: &self.ev,
                derived: &self.derived,
                msgs: &self.msgs,
                values: &self.values,
                pages: &self.pages,
                view,
                page_id: PAGE,
                headings: None,
                later: None,
            }
        }
    }

    /// The fixture site, loaded once.
    pub fn site() -> &'static Site {
        static SITE: OnceLock<Site> = OnceLock::new();
        SITE.get_or_init(|| Site::load(|_| {}))
    }

    pub fn scope(view: View) -> Scope<'static> {
        site().scope(view)
    }

    /// The standalone SVG of a figure, checked to be well-formed XML.
    pub fn standalone(o: &Drawn, view: View) -> String {
        let doc = document(o, view, true, "fig-test", "").expect("a drawing");
        roxmltree::Document::parse(&doc).expect("well-formed SVG");
        let inline = document(o, view, false, "fig-test", "").expect("a drawing");
        roxmltree::Document::parse(&inline).expect("well-formed inline SVG");
        doc
    }

    /// Every `<text>` of an SVG document, in order.
    pub fn texts(doc: &str) -> Vec<String> {
        let d = roxmltree::Document::parse(doc).expect("well-formed SVG");
        d.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect()
    }

    /// No attribute (coordinate, size) has a number with more than one decimal, and no
    /// shape carries a fixed colour.
    pub fn assert_short_numbers(doc: &str) {
        let d = roxmltree::Document::parse(doc).expect("well-formed SVG");
        for n in d.descendants().filter(|n| n.is_element()) {
            for a in n.attributes() {
                for token in a.value().split(|c: char| !(c.is_ascii_digit() || c == '.')) {
                    if let Some((_, frac)) = token.split_once('.') {
                        assert!(
                            frac.len() <= 1 || a.name() == "id",
                            "long decimal {token} in {}={}",
                            a.name(),
                            a.value()
                        );
                    }
                }
                if matches!(a.name(), "fill" | "stroke") {
                    assert!(!a.value().starts_with('#'), "fixed colour {}", a.value());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testkit::*;
    use super::*;
    use crate::model::directive::Directive;
    use crate::render::directives::render;

    #[test]
    fn slugs_are_safe() {
        assert_eq!(
            slug("proxy-row-proxy scan/sample"),
            "proxy-row-proxy-scan-sample"
        );
        assert_eq!(slug("..x"), "x");
        assert_eq!(slug(""), "figure");
    }

    #[test]
    fn plain_text_drops_markup() {
        assert_eq!(plain("a <code>b&lt;c&gt;</code> &amp; d"), "a b<c> & d");
    }

    fn parse(name: &str, attrs: &[(&str, &str)]) -> Result<Directive, String> {
        let raw = crate::model::page::DirectiveLine {
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            line: 1,
            resolution: None,
        };
        let d =
            crate::model::directive::parse(&raw, "runs", &site().ev).map_err(|e| e.to_string())?;
        match render(&d, &scope(View::EN)) {
            Shown::Figures(_) => Ok(d),
            Shown::Tables(_) => Err(format!("not a figure: {d:?}")),
        }
    }

    #[test]
    fn figure_directives_are_validated() {
        assert!(parse("dispatch-diagram", &[("map", "planner_v1")]).is_ok());
        assert!(parse("dispatch-diagram", &[("map", "planner_v9")]).is_err());
        assert!(parse("dispatch-diagram", &[]).is_err());
        assert!(
            parse(
                "dispatch-diff-diagram",
                &[("maps", "planner_v1 planner_v2")]
            )
            .is_ok()
        );
        assert!(parse("dispatch-diff-diagram", &[("maps", "planner_v1 nope")]).is_err());
        assert!(parse("proxy-plot", &[("run", "scan-sample")]).is_ok());
        assert!(parse("proxy-plot", &[("probe", "row-proxy")]).is_ok());
        assert!(parse("proxy-plot", &[("probe", "no-such-probe")]).is_err());
        assert!(
            parse(
                "proxy-plot",
                &[("probe", "row-proxy"), ("run", "scan-sample")]
            )
            .is_err()
        );
        let scatter = |extra: &[(&'static str, &'static str)]| {
            let mut attrs = vec![("run", "scan-sample"), ("x", "est_rows"), ("y", "exec_ns")];
            attrs.extend_from_slice(extra);
            parse("scatter", &attrs)
        };
        assert!(scatter(&[("log", "xy"), ("omit", "lookup")]).is_ok());
        let err = scatter(&[("omit", "lokup")]).unwrap_err();
        assert!(err.contains("did you mean `lookup`"), "{err}");
        assert!(
            scatter(&[("log", "z")])
                .unwrap_err()
                .contains("`x`, `y` or `xy`")
        );
        // The only case measuring `exec_ns` left out: nothing to plot.
        let err = scatter(&[("omit", "lookup_batch")]).unwrap_err();
        assert!(err.contains("measured `exec_ns`"), "{err}");
        assert!(parse("timing-plot", &[("run", "cold-warm")]).is_ok());
        assert!(parse("timing-plot", &[("run", "cold-never")]).is_err());
        let ok = [
            ("probe", "row-proxy"),
            ("case", "lookup"),
            ("field", "est_rows"),
        ];
        assert!(matches!(
            parse("history-plot", &ok),
            Ok(Directive::HistoryPlot(d::HistoryPlot { field, .. })) if field == "est_rows"
        ));
        // The field is required, and must be a measurement the case has.
        assert!(parse("history-plot", &ok[..2]).is_err());
        let bogus = parse("history-plot", &[ok[0], ok[1], ("field", "bogus")]).unwrap_err();
        assert!(
            bogus.contains("measured no `bogus`") && bogus.contains("est_rows"),
            "{bogus}"
        );
        assert!(parse("history-plot", &[ok[0], ("case", "nope"), ok[2]]).is_err());
        assert!(parse("observer-map", &[("x", "y")]).is_err());
    }

    #[test]
    fn figures_present_with_standalone_files() {
        let s = scope(View::EN);
        let Shown::Figures(out) = d::ObserverMap.render(&s) else {
            panic!("the observer map is a figure");
        };
        let p = present(&out[0], &s, "observers");
        assert!(p.context.svg.as_str().starts_with("<svg"));
        assert_eq!(p.files.len(), 1);
        assert_eq!(p.files[0].0, "figures/observers/observer-map.en.svg");
        assert_eq!(
            p.context.href,
            "../../figures/observers/observer-map.en.svg"
        );
        assert!(p.context.source.as_str().contains("data/observers.yaml"));
    }
}
