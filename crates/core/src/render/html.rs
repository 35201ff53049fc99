//! HTML built by type: an [`Html`] holds markup that is safe to put on a page, and text
//! only becomes one through an escaping constructor, so escaping is not a habit to keep.
//!
//! The ways in: [`Html::text`] (escapes), [`Html::trusted_static`] (a `&'static str`
//! written in the source), the `html!` macro (a literal template whose every
//! `{}` takes an `Html` or a number, never a string), and `Html::trusted` for the few
//! producers that escape by their own rules (the markdown renderer, the SVG writer).
//! Everything appends: a run table's thousands of rows are written into one buffer.

use serde::{Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt::{self, Write as _};
use std::hash::Hash;

/// Markup that is safe to put on a page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Html(String);

impl Html {
    /// Text, escaped for element content and quoted attributes.
    pub fn text(s: &str) -> Html {
        let mut h = Html(String::with_capacity(s.len()));
        h.push_text(s);
        h
    }

    /// Markup written in the source.
    pub fn trusted_static(s: &'static str) -> Html {
        Html(s.to_string())
    }

    /// Markup from a producer that escapes by its own rules (markdown, the SVG writer).
    pub(crate) fn trusted(s: String) -> Html {
        Html(s)
    }

    /// An empty buffer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Html {
        Html(String::with_capacity(n))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Bytes written so far: a mark to [`truncate`](Html::truncate) back to.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Drops what was appended since `mark`, a [`len`](Html::len) of this buffer.
    pub fn truncate(&mut self, mark: usize) {
        if self.0.is_char_boundary(mark) {
            self.0.truncate(mark);
        }
    }

    /// Appends text, escaped.
    pub fn push_text(&mut self, s: &str) {
        crate::render::escape_into(&mut self.0, s);
    }

    /// Appends markup written in the source.
    pub fn push_static(&mut self, s: &'static str) {
        self.0.push_str(s);
    }

    /// Appends markup.
    pub fn push(&mut self, h: &Html) {
        self.0.push_str(&h.0);
    }

    /// Appends a template filled with markup and numbers (`html!` without a
    /// new buffer: `html_into!`).
    pub fn push_fmt(&mut self, args: fmt::Arguments) {
        let _ = self.0.write_fmt(args);
    }

    /// The parts one after another, `sep` between them.
    pub fn join<I>(parts: I, sep: &'static str) -> Html
    where
        I: IntoIterator,
        I::Item: Borrow<Html>,
    {
        let mut out = Html::default();
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                out.0.push_str(sep);
            }
            out.push(p.borrow());
        }
        out
    }
}

/// Markup with holes, each standing for a fragment that one view words its own way (a
/// label, a badge): written once, then filled once per view ([`Holed::fill`]). A run's
/// cases are worked out once for all the views of its page. The same fragment stands in
/// many holes (one label in every row): each is told apart once, when its hole is made,
/// and worked out once per view.
#[derive(Debug)]
pub struct Holed<K> {
    html: Html,
    /// Where each hole is (a byte offset of `html`), and which of `keys` fills it, in order.
    holes: Vec<(usize, usize)>,
    keys: Vec<K>,
    index: rustc_hash::FxHashMap<K, usize>,
}

impl<K: Hash + Eq + Clone> Holed<K> {
    pub fn with_capacity(n: usize) -> Self {
        Holed {
            html: Html::with_capacity(n),
            holes: Vec::new(),
            keys: Vec::new(),
            index: rustc_hash::FxHashMap::default(),
        }
    }

    /// The markup around the holes, to append to.
    pub fn html(&mut self) -> &mut Html {
        &mut self.html
    }

    /// A hole here, for what `key` stands for in each view.
    pub fn hole(&mut self, key: K) {
        let i = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.keys.len();
                self.keys.push(key.clone());
                self.index.insert(key, i);
                i
            }
        };
        self.holes.push((self.html.len(), i));
    }

    /// What was written so far, markup and holes: a mark to [`reset`](Holed::reset) to.
    pub fn mark(&self) -> (usize, usize) {
        (self.html.len(), self.holes.len())
    }

    /// Drops what was written since `mark`. (Its fragments stay known: unused, they are
    /// never worked out.)
    pub fn reset(&mut self, mark: (usize, usize)) {
        self.html.truncate(mark.0);
        self.holes.truncate(mark.1);
    }

    /// The markup with each hole filled by what `make` makes of its key, made once per key.
    pub fn fill(&self, mut make: impl FnMut(&K) -> Html) -> Html {
        let text = self.html.as_str();
        let mut made: Vec<Option<Html>> = Vec::new();
        made.resize_with(self.keys.len(), || None);
        let mut out = Html::with_capacity(text.len() + self.holes.len() * 64);
        let mut from = 0;
        for &(at, i) in &self.holes {
            // Holes sit between pieces appended whole, so each slice is markup.
            out.0.push_str(&text[from..at]);
            if let (Some(slot), Some(key)) = (made.get_mut(i), self.keys.get(i)) {
                out.push(slot.get_or_insert_with(|| make(key)));
            }
            from = at;
        }
        out.0.push_str(&text[from..]);
        out
    }
}

impl fmt::Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Templates carry it into Tera as a string they print with `| safe`.
impl Serialize for Html {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl std::ops::Add<&Html> for Html {
    type Output = Html;
    fn add(mut self, rhs: &Html) -> Html {
        self.push(rhs);
        self
    }
}

impl std::ops::AddAssign<&Html> for Html {
    fn add_assign(&mut self, rhs: &Html) {
        self.push(rhs);
    }
}

impl std::iter::FromIterator<Html> for Html {
    fn from_iter<I: IntoIterator<Item = Html>>(iter: I) -> Html {
        let mut out = Html::default();
        for h in iter {
            out.push(&h);
        }
        out
    }
}

/// What may fill a `{}` of an `html!` template: markup and numbers, which
/// need no escaping. A `&str` or `String` does not qualify: it goes through
/// [`Html::text`] first.
pub trait Fill {
    fn fill(&self) -> &dyn fmt::Display;
}

impl Fill for Html {
    fn fill(&self) -> &dyn fmt::Display {
        self
    }
}

impl<T: Fill + ?Sized> Fill for &T {
    fn fill(&self) -> &dyn fmt::Display {
        (**self).fill()
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(impl Fill for $t {
        fn fill(&self) -> &dyn fmt::Display {
            self
        }
    })*};
}
numbers!(u8, u16, u32, u64, usize, i32, i64);

/// Whether a template has only bare `{}` holes (and `{{`, `}}`): a named or inline one
/// (`{name}`) would take a variable as it is, past [`Fill`].
pub const fn bare_holes(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            if i + 1 < b.len() && (b[i + 1] == b'}' || b[i + 1] == b'{') {
                i += 2;
                continue;
            }
            return false;
        }
        i += 1;
    }
    true
}

/// `html!("<code>{}</code>", Html::text(id))`: a literal template (markup written in the
/// source) whose `{}` holes take [`Fill`] values only; checked at compile time to have no
/// named holes. Exported for the packs' tables.
#[macro_export]
macro_rules! html {
    ($t:literal $(, $arg:expr)* $(,)?) => {{
        const _: () = assert!($crate::render::html::bare_holes($t), "html! takes bare {{}} holes only");
        let mut h = $crate::render::html::Html::default();
        h.push_fmt(format_args!($t $(, $crate::render::html::Fill::fill(&$arg))*));
        h
    }};
}
pub use crate::html;

/// `html_into!(out, "<td>{}</td>", cell)`: `html!` appended to `out`.
#[macro_export]
macro_rules! html_into {
    ($out:expr, $t:literal $(, $arg:expr)* $(,)?) => {{
        const _: () = assert!($crate::render::html::bare_holes($t), "html! takes bare {{}} holes only");
        $out.push_fmt(format_args!($t $(, $crate::render::html::Fill::fill(&$arg))*));
    }};
}
pub use crate::html_into;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_markup_is_not() {
        let h = html!(
            "<code title=\"{}\">{}</code>{}",
            Html::text("a\"b"),
            Html::text("<x> & y"),
            3u32
        );
        assert_eq!(
            h.as_str(),
            "<code title=\"a&quot;b\">&lt;x&gt; &amp; y</code>3"
        );
        let mut out = Html::trusted_static("<p>");
        html_into!(out, "{}</p>", Html::text("'"));
        assert_eq!(out.as_str(), "<p>&#39;</p>");
        assert_eq!(
            Html::join([Html::text("a"), Html::text("b<")], ", ").as_str(),
            "a, b&lt;"
        );
    }

    #[test]
    fn holes_are_filled_in_order_each_fragment_made_once() {
        let mut rows: Holed<&str> = Holed::with_capacity(64);
        for (i, k) in ["a", "b", "a"].iter().enumerate() {
            rows.html().0.push_str(&format!("<{i}>"));
            rows.hole(*k);
        }
        let mark = rows.mark();
        rows.html().0.push_str("<dropped>");
        rows.hole("c");
        rows.reset(mark);
        rows.html().0.push_str("<end>");
        let mut asked = Vec::new();
        let filled = rows.fill(|k| {
            asked.push(k.to_string());
            Html(k.to_uppercase())
        });
        assert_eq!(filled.as_str(), "<0>A<1>B<2>A<end>");
        // Once each, and never for a hole that was dropped.
        assert_eq!(asked, ["a", "b"]);
    }

    #[test]
    fn templates_take_bare_holes_only() {
        assert!(bare_holes("<a href=\"{}\">{}</a>"));
        assert!(bare_holes("{{literal}} {}"));
        assert!(!bare_holes("<b>{name}</b>"));
        assert!(!bare_holes("{:>5}"));
        assert!(!bare_holes("{0}"));
    }
}
