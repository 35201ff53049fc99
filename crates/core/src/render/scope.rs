//! What a table or page needs while it renders one view of one page: the graph, derived
//! facts, messages, and helpers that turn texts and labels into HTML for that view.

use super::html::Html;
use super::markdown::{self, Ctx};
use super::view::relative;
use crate::derive::Derived;
use crate::load::messages::Messages;
use crate::model::numerals::Numerals;
use crate::model::types::Label;
use crate::model::values::Values;
use crate::model::view::View;
use crate::model::{Evidence, Text};

pub struct Scope<'a> {
    pub ev: &'a Evidence,
    pub derived: &'a Derived,
    pub msgs: &'a Messages,
    pub values: &'a Values,
    pub pages: &'a super::view::PageIndex,
    pub view: View,
    pub page_id: &'a str,
    /// The pages' heading ids, for a text's `@/page#heading` link to take the view's
    /// language prefix as a block's does (`None` away from a site's pages: `diff`).
    pub headings: Option<&'a markdown::Headings<'a>>,
    /// What a table made for the page's other views while it rendered this one (`None`
    /// away from a site's pages).
    pub later: Option<&'a Later>,
}

/// Markup a table made for the views of a page still to render while it rendered one
/// of them: one job renders a page in every view, and the rows of a run's cases are
/// worked out once for them all ([`super::html::Holed`]). Keyed by view and table.
#[derive(Default)]
pub struct Later(std::cell::RefCell<rustc_hash::FxHashMap<(View, String), Vec<Html>>>);

impl<'a> Scope<'a> {
    /// What `write` makes of `work` in this view. One job renders a page in all its
    /// views: the first to ask does `work` once, writes every view's markup and keeps the
    /// others' under `key` ([`Later`]); the views after it take theirs. Away from a site's
    /// pages (no `later`), `work` is done for this view alone.
    pub fn in_every_view<T>(
        &self,
        key: &str,
        work: impl FnOnce() -> T,
        write: impl Fn(&Scope<'a>, &T) -> Vec<Html>,
    ) -> Vec<Html> {
        let Some(later) = self.later else {
            return write(self, &work());
        };
        if let Some(kept) = later.0.borrow_mut().remove(&(self.view, key.to_string())) {
            return kept;
        }
        let done = work();
        let views = self.ev.config.as_ref().map_or(View::DEFAULT, |c| c.views());
        // A view that writes numbers otherwise does its own work: `work` writes them.
        let nums = self.numerals();
        let alike = |v: View| Numerals::of(v.lead()).writes_like(nums);
        for &view in views.iter().filter(|&&v| v != self.view && alike(v)) {
            let other = write(&Scope { view, ..*self }, &done);
            later.0.borrow_mut().insert((view, key.to_string()), other);
        }
        write(self, &done)
    }

    /// How this view writes numbers: by its language, the interleaved view by its first.
    pub fn numerals(&self) -> &'static Numerals {
        Numerals::of(self.view.lead())
    }

    pub fn depth(&self) -> usize {
        self.view.depth(self.page_id)
    }

    /// A text as inline HTML for this view: one language, or each in a `lang` span.
    pub fn text(&self, t: &Text) -> Html {
        let parts: Vec<(crate::model::page::Lang, Html)> = self
            .view
            .langs()
            .iter()
            .map(|&lang| {
                let ctx = Ctx {
                    view: self.view,
                    lang,
                    depth: self.depth(),
                    pages: self.pages,
                    ev: self.ev,
                    values: self.values,
                    links: None,
                    notes: None,
                    headings: self.headings,
                    page_ids: None,
                };
                // The markdown renderer escapes text and admits no raw HTML.
                let html = markdown::inline(lang.pick(t), &ctx);
                (lang, Html::trusted(html))
            })
            .collect();
        join_html(self.view, parts)
    }

    /// A UI string from Fluent.
    pub fn ui(&self, key: &str) -> Html {
        self.fluent(&self.msgs.text(key))
    }

    /// A UI message with several string arguments.
    pub fn ui_args(&self, key: &str, args: &[(&'static str, String)]) -> Html {
        self.fluent(&self.msgs.text_args(key, args))
    }

    /// A UI message with one argument.
    pub fn ui_with(
        &self,
        key: &str,
        name: &'static str,
        value: impl Into<fluent_bundle::FluentValue<'static>> + Clone,
    ) -> Html {
        self.fluent(&self.msgs.text_with(key, name, value))
    }

    /// The label of an enum value (`group-value` in Fluent).
    pub fn label(&self, group: &str, value: &impl serde::Serialize) -> Html {
        self.fluent(&self.msgs.label(group, value))
    }

    /// Plain (already formatted, not markdown) text in the view's languages.
    pub fn fluent(&self, t: &Text) -> Html {
        let parts = self
            .view
            .langs()
            .iter()
            .map(|&l| (l, Html::text(l.pick(t))))
            .collect();
        join_html(self.view, parts)
    }

    /// A name (of a component, an observer, a phase) in the view's languages: once when
    /// it is the same in every language.
    pub fn name(&self, l: &Label) -> Html {
        match l {
            Label::Same(s) => Html::text(s),
            Label::Each(t) => self.fluent(t),
        }
    }

    /// Href from this page to another page of the same view.
    pub fn href(&self, page_id: &str, fragment: Option<&str>) -> String {
        let mut h = relative(self.depth(), &self.view.file(page_id));
        if let Some(f) = fragment {
            h.push('#');
            h.push_str(f);
        }
        h
    }

    /// A link to a record's anchor on the page that lists it, when that page exists.
    pub fn record_link(&self, page_id: &str, anchor: &str, label: Html) -> Html {
        if self.pages.contains(page_id) {
            crate::render::html::html!(
                "<a href=\"{}\">{}</a>",
                Html::text(&self.href(page_id, Some(anchor))),
                label
            )
        } else {
            label
        }
    }
}

/// Joins per-language HTML: a single language as is, several as `lang`-tagged spans
/// (a text that reads the same in every language is shown once).
pub fn join_html(view: View, parts: Vec<(crate::model::page::Lang, Html)>) -> Html {
    if !view.interleaved() || parts.len() < 2 || parts.iter().all(|p| p.1 == parts[0].1) {
        return parts.into_iter().next().map(|p| p.1).unwrap_or_default();
    }
    // The leading language first; the others are translations (class `tr`, muted).
    let mut out = Html::default();
    for (i, (l, h)) in parts.into_iter().enumerate() {
        let class = Html::trusted_static(if i == 0 { "bi" } else { "bi tr" });
        crate::render::html::html_into!(
            out,
            "<span class=\"{}\" lang=\"{}\">{}</span>",
            class,
            Html::text(l.code()),
            h
        );
    }
    out
}

/// [`join_html`] of parts already written as HTML strings (page titles).
pub fn join_langs(view: View, parts: Vec<(crate::model::page::Lang, String)>) -> String {
    let parts = parts
        .into_iter()
        .map(|(l, h)| (l, Html::trusted(h)))
        .collect();
    join_html(view, parts).into_string()
}
