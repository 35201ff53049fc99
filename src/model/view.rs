//! The three views of every page and where each lives.
//!
//! Bilingual at `/<page>/`, Japanese at `/ja/<page>/`, English at `/en/<page>/`;
//! the home page is `/`, `/ja/`, `/en/`. A site's config chooses which it publishes.

use super::page::Lang;
use serde::Serialize;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum View {
    Bilingual,
    Ja,
    En,
}

impl View {
    pub const ALL: [View; 3] = [View::Bilingual, View::Ja, View::En];

    /// Languages shown, in reading order.
    pub fn langs(self) -> &'static [Lang] {
        match self {
            View::Bilingual => &[Lang::Ja, Lang::En],
            View::Ja => &[Lang::Ja],
            View::En => &[Lang::En],
        }
    }

    /// The `lang` of the whole document (the bilingual view leads with Japanese).
    pub fn html_lang(self) -> &'static str {
        match self {
            View::En => "en",
            _ => "ja",
        }
    }

    /// The `hreflang` of the view (`x-default` for the bilingual one).
    pub fn hreflang(self) -> &'static str {
        match self {
            View::Bilingual => "x-default",
            View::Ja => "ja",
            View::En => "en",
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            View::Bilingual => "",
            View::Ja => "ja/",
            View::En => "en/",
        }
    }

    /// Site-relative URL path of a page (no leading slash), e.g. `ja/observers/`.
    pub fn path(self, page_id: &str) -> String {
        if page_id == "index" {
            self.prefix().to_string()
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
        self.path(page_id).matches('/').count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(View::Bilingual.file("index"), "index.html");
        assert_eq!(View::Ja.file("index"), "ja/index.html");
        assert_eq!(View::En.file("observers"), "en/observers/index.html");
        assert_eq!(View::Bilingual.depth("observers"), 1);
        assert_eq!(View::Ja.depth("observers"), 2);
        assert_eq!(View::Bilingual.depth("index"), 0);
    }
}
