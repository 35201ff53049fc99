//! The Atom feeds of a site with a history (`history: true`): one per view (`feed.xml`,
//! `ja/feed.xml`, `en/feed.xml`), newest first, one entry per evidence change the git
//! history shows (a run recorded, a claim added or moved, a decision map added, changed
//! or removed), each dated by its commit, so the same history gives the same bytes.

use super::escape;
use super::tables::anchor;
use super::view::{PageIndex, relative};
use crate::load::messages::Messages;
use crate::model::Evidence;
use crate::model::history::{Event, History, What};
use crate::model::refs::Kind;
use crate::model::types::ClaimSide;
use crate::model::view::View;
use std::fmt::Write as _;

/// The newest entries a feed holds, as Zola's `feed_limit` or Hugo's RSS limit: a feed
/// reader keeps the older ones it has seen.
pub const ENTRIES: usize = 100;

/// What a feed is written from.
pub struct Feed<'a> {
    pub ev: &'a Evidence,
    pub history: &'a History,
    pub msgs: &'a Messages,
    pub pages: &'a PageIndex,
    /// The site's absolute URL without its trailing `/`, if it has one.
    pub base: Option<&'a str>,
}

impl Feed<'_> {
    /// A message of the theme in `view`'s languages, as plain text (`ja / en`).
    fn say(&self, view: View, key: &str, args: &[(&'static str, String)]) -> String {
        // Fluent isolates placed values; a feed reader shows the marks as they are.
        super::plain(view, &self.msgs.text_args(key, args)).replace(['\u{2068}', '\u{2069}'], "")
    }

    /// The URL of `path` (below the site root) from the feed of `view`.
    fn url(&self, view: View, path: &str) -> String {
        match self.base {
            Some(base) => format!("{base}/{}", path.trim_end_matches("index.html")),
            None => relative(view.depth("index"), path),
        }
    }

    /// The page that shows what the event is about, in `view`.
    fn link(&self, view: View, e: &Event) -> String {
        let at = |kind: Kind, id: &str, fragment: bool| {
            self.pages.home_of(kind, id).map(|page| {
                let mut url = self.url(view, &view.file(page));
                if fragment {
                    url.push('#');
                    url.push_str(&anchor(kind, id));
                }
                url
            })
        };
        let target = match &e.what {
            // The ledger's row, else the page the claim belongs to.
            What::ClaimAdded { claim } | What::ClaimMoved { claim, .. } => {
                at(Kind::Claim, claim, true).or_else(|| {
                    let page = &self.ev.claims.get(claim)?.page.value;
                    Some(self.url(view, &view.file(page)))
                })
            }
            What::RunAdded { file } => self
                .ev
                .runs
                .iter()
                .find(|r| &*r.file == file.as_str())
                .and_then(|r| at(Kind::Run, &r.id.value, false)),
            What::MapAdded { map } | What::MapChanged { map } => at(Kind::Map, map, false),
            What::MapRemoved { .. } => None,
        };
        target.unwrap_or_else(|| self.url(view, &view.file("index")))
    }

    fn title(&self, view: View, e: &Event) -> String {
        let run_of = |file: &str| {
            self.ev
                .runs
                .iter()
                .find(|r| &*r.file == file)
                .map_or_else(|| file.to_string(), |r| r.id.value.clone())
        };
        let (key, name, id) = match &e.what {
            What::RunAdded { file } => ("feed-run-added", "run", run_of(file)),
            What::ClaimAdded { claim } => ("feed-claim-added", "claim", claim.clone()),
            What::ClaimMoved { claim, from, .. } => (
                match from {
                    ClaimSide::Cannot => "feed-claim-moved-from-cannot",
                    ClaimSide::Can => "feed-claim-moved-from-can",
                },
                "claim",
                claim.clone(),
            ),
            What::MapAdded { map } => ("feed-map-added", "map", map.clone()),
            What::MapChanged { map } => ("feed-map-changed", "map", map.clone()),
            What::MapRemoved { map } => ("feed-map-removed", "map", map.clone()),
        };
        self.say(view, key, &[(name, id)])
    }

    /// The feed of `view`, or `None` when the history holds no change.
    pub fn xml(&self, view: View) -> Option<String> {
        let newest = self.history.events.last()?;
        let path = format!("{}feed.xml", view.path("index"));
        let config = self.ev.config.as_ref();
        let site = config
            .map(|c| super::plain(view, &c.title))
            .unwrap_or_default();
        let author = config
            .and_then(|c| c.author.as_ref())
            .map(|a| view.lead().pick(a).to_string())
            .unwrap_or_else(|| site.clone());
        let id = match self.base {
            Some(base) => format!("{base}/{path}"),
            None => format!("urn:evidence:feed:{path}"),
        };
        let mut o = String::new();
        let _ = write!(
            o,
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
             <feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"{}\">\n\
             <title>{}</title>\n<id>{}</id>\n<updated>{}</updated>\n\
             <author><name>{}</name></author>\n<generator>evidence</generator>\n\
             <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n",
            view.html_lang(),
            escape(&self.say(view, "feed-title", &[("site", site.clone())])),
            escape(&id),
            escape(&newest.date),
            escape(&author),
            escape(&self.url(view, &view.file("index"))),
        );
        if let Some(base) = self.base {
            let _ = writeln!(
                o,
                "<link rel=\"self\" href=\"{}\"/>",
                escape(&format!("{base}/{path}"))
            );
        }
        for (n, e) in self.history.events.iter().enumerate().rev().take(ENTRIES) {
            let _ = write!(
                o,
                "<entry>\n<id>urn:evidence:{}:{n}</id>\n<title>{}</title>\n<updated>{}</updated>\n\
                 <link href=\"{}\"/>\n<summary>{} ({})</summary>\n</entry>\n",
                escape(&e.commit),
                escape(&self.title(view, e)),
                escape(&e.date),
                escape(&self.link(view, e)),
                escape(&e.subject),
                escape(e.short()),
            );
        }
        o.push_str("</feed>\n");
        Some(o)
    }
}
