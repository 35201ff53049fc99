//! The views of every page and where each lives.
//!
//! A site in several languages has an interleaved view of all of them at `/<page>/` (each
//! block followed by its translations) and one view per language at `/<tag>/<page>/`; a
//! site in one language has that one view, at `/<page>/`. The home page is `/`, `/ja/`, …
//! A site's config chooses which it publishes.

use super::lang::Lang;
use serde::Serialize;

/// The files the build writes itself besides pages and figures, named once for the
/// renderer that writes them and the check that keeps pages out of their way.
pub mod own {
    /// The page served for any missing path.
    pub const NOT_FOUND: &str = "404.html";
    /// The sitemap (only with a `base_url`).
    pub const SITEMAP: &str = "sitemap.xml";
    /// The records as JSON.
    pub const EXPORT: &str = "evidence.json";
    /// Each view's Atom feed, in the view's folder (only with a history).
    pub const FEED: &str = "feed.xml";
    /// The folder of the theme's static files.
    pub const STATIC: &str = "static/";
    /// The folder of the search index, one folder per view in it (only with search).
    pub const SEARCH: &str = "search/";
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum View {
    /// Every language of the site, in its order, at the site's root.
    All(&'static [Lang]),
    /// One language (a slice of exactly one), under a folder named by its tag.
    One(&'static [Lang]),
}

impl View {
    /// The interleaved view of a site in Japanese and English (the default languages).
    pub const BILINGUAL: View = View::All(Lang::DEFAULT);
    /// The Japanese view of a site in Japanese and English.
    pub const JA: View = View::One(&[Lang::JA]);
    /// The English view of a site in Japanese and English.
    pub const EN: View = View::One(&[Lang::EN]);
    /// Every view of a site in the default languages.
    pub const DEFAULT: &'static [View] = &[View::BILINGUAL, View::JA, View::EN];

    /// Every view of a site in `langs`: the interleaved one (or, with one language, the
    /// only one) first, then one per language.
    pub fn all(langs: &'static [Lang]) -> Vec<View> {
        let mut views = vec![View::All(langs)];
        if langs.len() > 1 {
            views.extend(langs.iter().map(|&l| View::one(l)));
        }
        views
    }

    /// The view of `lang` alone.
    pub fn one(lang: Lang) -> View {
        View::One(Lang::list(&[lang]))
    }

    /// The view named `name` in a config (`interleaved`, or a language tag) of a site in
    /// `langs`; `bilingual` is the name earlier versions gave the interleaved view.
    pub fn named(name: &str, langs: &'static [Lang]) -> Result<View, ViewError> {
        if matches!(name, "interleaved" | "bilingual") && langs.len() > 1 {
            return Ok(View::All(langs));
        }
        let lang = Lang::parse(name).map_err(ViewError::NotATag)?;
        if !langs.contains(&lang) {
            return Err(ViewError::NotOurs {
                name: name.to_string(),
                langs,
            });
        }
        Ok(if langs.len() == 1 {
            View::All(langs)
        } else {
            View::one(lang)
        })
    }

    /// Languages shown, in reading order.
    pub fn langs(self) -> &'static [Lang] {
        match self {
            View::All(l) | View::One(l) => l,
        }
    }

    /// Whether the view shows more than one language.
    pub fn interleaved(self) -> bool {
        self.langs().len() > 1
    }

    /// The language that leads: the document's `lang`.
    pub fn lead(self) -> Lang {
        self.langs().first().copied().unwrap_or(Lang::EN)
    }

    /// The `lang` of the whole document (the interleaved view takes its first language).
    pub fn html_lang(self) -> &'static str {
        self.lead().code()
    }

    /// The `hreflang` of the view (`x-default` for the interleaved one).
    pub fn hreflang(self) -> &'static str {
        if self.interleaved() {
            "x-default"
        } else {
            self.lead().code()
        }
    }

    /// A short name of the view for file names and the `data-view` attribute:
    /// `interleaved` or the language tag.
    pub fn name(self) -> &'static str {
        if self.interleaved() {
            "interleaved"
        } else {
            self.lead().code()
        }
    }

    fn prefix(self) -> String {
        match self {
            View::All(_) => String::new(),
            View::One(l) => format!("{}/", l.first().map_or("", |l| l.code())),
        }
    }

    /// Site-relative URL path of a page (no leading slash), e.g. `ja/observers/`.
    pub fn path(self, page_id: &str) -> String {
        if page_id == "index" {
            self.prefix()
        } else {
            format!("{}{page_id}/", self.prefix())
        }
    }

    /// Output file of a page, e.g. `ja/observers/index.html`.
    pub fn file(self, page_id: &str) -> String {
        format!("{}index.html", self.path(page_id))
    }

    /// Depth of a page's folder below the site root, for relative URLs.
    pub fn depth(self, page_id: &str) -> usize {
        let own = usize::from(page_id != "index") * (page_id.matches('/').count() + 1);
        own + usize::from(matches!(self, View::One(_)))
    }
}

impl Serialize for View {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Why a config names no view of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewError {
    /// The name is neither `interleaved` nor a language tag.
    NotATag(super::lang::NotATag),
    /// A language the site does not write in (`langs`).
    NotOurs {
        name: String,
        langs: &'static [Lang],
    },
}

impl std::fmt::Display for ViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ViewError::NotATag(e) => write!(f, "{e}"),
            ViewError::NotOurs { name, langs } => write!(
                f,
                "`{name}` is not one of this site's languages ({})",
                super::lang::list_codes(langs)
            ),
        }
    }
}

impl std::error::Error for ViewError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(View::BILINGUAL.file("index"), "index.html");
        assert_eq!(View::JA.file("index"), "ja/index.html");
        assert_eq!(View::EN.file("observers"), "en/observers/index.html");
        assert_eq!(View::BILINGUAL.depth("observers"), 1);
        assert_eq!(View::JA.depth("observers"), 2);
        assert_eq!(View::JA.depth("runs/r1"), 3);
        assert_eq!(View::BILINGUAL.depth("index"), 0);
        assert_eq!(View::one(Lang::EN), View::EN);
    }

    #[test]
    fn views_follow_the_languages() {
        let de = Lang::parse("de").unwrap();
        let three = Lang::list(&[Lang::JA, Lang::EN, de]);
        let views = View::all(three);
        assert_eq!(views.len(), 4);
        assert_eq!(views[0].langs(), three);
        assert_eq!(views[3].file("a"), "de/a/index.html");
        let only = Lang::list(&[de]);
        assert_eq!(View::all(only), vec![View::All(only)]);
        assert_eq!(View::All(only).file("a"), "a/index.html");
        assert_eq!(View::All(only).hreflang(), "de");
        assert_eq!(View::named("bilingual", three).unwrap(), View::All(three));
        assert!(View::named("fr", three).is_err());
        assert_eq!(
            View::named("fr", three).unwrap_err().to_string(),
            "`fr` is not one of this site's languages (ja, en, de)"
        );
    }
}
