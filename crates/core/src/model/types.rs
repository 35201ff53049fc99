//! The serde types of `evidence.yaml` and every data file, exactly as written.
//!
//! Every type denies unknown fields, every human text is a [`Text`] (one string per language) and every
//! enumerated value is a Rust enum whose label lives in Fluent (`enum-<type>-<value>`).
//! Ids and references are [`Id`]s: strings that remember where they were written, so
//! that a dangling or duplicate id is reported at its own line and column.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use super::bound::{Bound, Edge};
use super::fields::{self, Key, KeySeed, Measurements, Place, Values};
pub use super::id::{Id, Pos};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};

pub use super::lang::Text;

/// What a statement rests on: a source (code, documentation, an original page), an
/// observation, or the site's own reading of them — an inference, which every page that
/// shows the statement marks as such.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Hash, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The investigation's own records: what a run, a scan or a log showed.
    Observed,
    /// Read from a named upstream file, commit or pull request, which the statement links.
    Source,
    /// An inference: the site's own reading of what it observed or read.
    Inferred,
}

impl Basis {
    /// Every basis, in the order a legend lists them.
    pub const ALL: [Basis; 3] = [Basis::Observed, Basis::Source, Basis::Inferred];

    /// The value as written in data (`observed`, `source`, `inferred`).
    pub fn name(self) -> &'static str {
        match self {
            Basis::Observed => "observed",
            Basis::Source => "source",
            Basis::Inferred => "inferred",
        }
    }

    /// The CSS class of its badge.
    pub fn class(self) -> &'static str {
        match self {
            Basis::Observed => "basis-observed",
            Basis::Source => "basis-source",
            Basis::Inferred => "basis-inferred",
        }
    }

    /// The basis a value names, as written in data or on a block's fence.
    pub fn parse(value: &str) -> Option<Basis> {
        Basis::ALL.into_iter().find(|b| b.name() == value)
    }
}

/// Where a source-side fact comes from.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Repository (`owner/name`) or local tree the fact was read from.
    pub repository: String,
    /// Commit, tag or version range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Pull requests the fact rests on, e.g. `owner/repo#123`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prs: Vec<String>,
    /// Where a reader can open the source, when `repository` is not a GitHub
    /// `owner/name` whose file or commit can be linked from `revision`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl Source {
    /// The address a reader can follow to check the fact: `url`; else, for a GitHub
    /// `owner/name` with a revision, the file at that revision (or the commit); else the
    /// first pull request written `owner/name#number`. `None` when nothing can be linked.
    pub fn link(&self) -> Option<String> {
        if let Some(url) = &self.url {
            return Some(url.clone());
        }
        if let (true, Some(rev)) = (github_repo(&self.repository), &self.revision)
            && !rev.is_empty()
            && rev
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            // A `file` that is a note (several files, a symbol in brackets) is no path:
            // the tree at the revision is linked instead.
            return Some(match &self.file {
                Some(f) if !f.contains(char::is_whitespace) && !f.contains(',') => {
                    format!("https://github.com/{}/blob/{rev}/{f}", self.repository)
                }
                Some(_) => format!("https://github.com/{}/tree/{rev}", self.repository),
                None => format!("https://github.com/{}/commit/{rev}", self.repository),
            });
        }
        self.prs.iter().find_map(|p| pull_request_url(p))
    }
}

/// Whether `repo` is written as a GitHub `owner/name`.
pub fn github_repo(repo: &str) -> bool {
    let mut parts = repo.split('/');
    let ok = |s: Option<&str>| {
        s.is_some_and(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        })
    };
    ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
}

/// The GitHub address of a pull request written `owner/name#number`; `None` for
/// anything else.
pub fn pull_request_url(pr: &str) -> Option<String> {
    let (repo, n) = pr.split_once('#')?;
    (github_repo(repo) && !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("https://github.com/{repo}/pull/{n}"))
}

/// An inclusive integer range, as in "observed for 1..8".
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub min: u64,
    pub max: u64,
}

// ---------------------------------------------------------------- evidence.yaml

/// The site config, `evidence.yaml`.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema, Hash)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub title: Text,
    #[serde(default)]
    pub description: Option<Text>,
    /// Absolute URL the site is published at (for the sitemap), ending in `/`; with its
    /// position, for `check` to point at when it is not an http(s) URL.
    #[serde(default)]
    pub base_url: Option<Id>,
    /// Author or team shown in the footer.
    #[serde(default)]
    pub author: Option<Text>,
    /// The languages the site writes in, as BCP 47 tags, the leading one first (default
    /// `[ja, en]`); every text and page has each of them. See [`SiteConfig::languages`].
    #[serde(default)]
    pub languages: Vec<Id>,
    /// Views to publish: `interleaved` and language tags (default: every view).
    #[serde(default)]
    pub views: Vec<Id>,
    /// `languages` and `views` as read ([`SiteConfig::resolve`]).
    #[serde(skip)]
    resolved: Resolved,
    /// Packs turned on (`packs: [name]`): the record kinds, directives, engines and
    /// messages a kind of investigation adds to the core.
    #[serde(default)]
    pub packs: Vec<Id>,
    /// The investigation's own subject (`data/subjects.yaml`): runs of another subject are
    /// comparisons, never its latest evidence. None: every run is the site's own.
    #[serde(default)]
    pub subject: Option<Id>,
    /// Kinds of record the site declares itself (see [`super::declared`]).
    #[serde(default)]
    pub collections: Vec<super::declared::CollectionSpec>,
    /// Read the git history of the data: claim timelines, what each run moved, and the
    /// Atom feeds (see [`super::history`]).
    #[serde(default)]
    pub history: bool,
    /// Write a full-text search index and show the search field (`render::search`). Off
    /// unless asked for, as in Zola: on a site of ten thousand pages it doubles the build.
    #[serde(default)]
    pub search: bool,
    /// The file under `data/` that holds the decision maps and their families, when it is
    /// not `maps.yaml` (see [`SiteConfig::maps_file`]).
    #[serde(default)]
    pub maps_file: Option<Id>,
}

/// What [`SiteConfig::resolve`] made of the languages and views.
#[derive(Debug, Clone, Default)]
struct Resolved {
    langs: Option<&'static [super::lang::Lang]>,
    views: Vec<super::view::View>,
    /// The packs it turns on, found once: a table asks for them at every case.
    packs: Vec<&'static super::pack::Pack>,
}

/// Nothing of its own to hash: it is made from the config's other fields, which are.
impl std::hash::Hash for Resolved {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// The languages of a config, read before the rest of it: every text in the config must
/// already have them.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct LanguagesOnly {
    #[serde(default)]
    pub languages: Vec<Id>,
}

/// Top-level folders of a built site that a language view may not take.
pub const RESERVED_FOLDERS: &[&str] = &["static", "figures"];

/// At most this many languages: each is a view of every page, and the interleaved view
/// of more would be hard to read.
pub const MAX_LANGUAGES: usize = 3;

impl LanguagesOnly {
    /// The languages, checked: valid tags, none twice, one to [`MAX_LANGUAGES`]. An error
    /// names the offending entry (or the key, for a count) and says why.
    pub fn resolve(&self) -> Result<&'static [super::lang::Lang], (Option<&Id>, String)> {
        use super::lang::Lang;
        if self.languages.is_empty() {
            return Ok(Lang::DEFAULT);
        }
        if self.languages.len() > MAX_LANGUAGES {
            return Err((
                self.languages.get(MAX_LANGUAGES),
                format!(
                    "{} languages: a site writes in one to {MAX_LANGUAGES}",
                    self.languages.len()
                ),
            ));
        }
        let mut langs = Vec::new();
        for tag in &self.languages {
            let lang = Lang::parse(&tag.value).map_err(|e| (Some(tag), e.to_string()))?;
            // A view's folder is named by its tag: it must not be one of the site's own.
            if RESERVED_FOLDERS.contains(&lang.code()) {
                return Err((
                    Some(tag),
                    format!(
                        "`{}` names a folder of the built site, not a language",
                        tag.value
                    ),
                ));
            }
            if langs.contains(&lang) {
                return Err((Some(tag), format!("`{}` is listed twice", tag.value)));
            }
            langs.push(lang);
        }
        Ok(Lang::list(&langs))
    }
}

impl SiteConfig {
    /// Fills in the languages (as [`LanguagesOnly::resolve`] read them) and the views;
    /// an unknown view is an error naming it.
    pub fn resolve(&mut self, langs: &'static [super::lang::Lang]) -> Result<(), (&Id, String)> {
        use super::view::View;
        let views = if self.views.is_empty() {
            View::all(langs)
        } else {
            let mut views = Vec::new();
            for name in &self.views {
                let v = View::named(&name.value, langs).map_err(|e| (name, e.to_string()))?;
                if !views.contains(&v) {
                    views.push(v);
                }
            }
            views
        };
        self.resolved = Resolved {
            langs: Some(langs),
            views,
            packs: self
                .packs
                .iter()
                .filter_map(|p| super::pack::named(&p.value))
                .collect(),
        };
        Ok(())
    }

    /// The languages the site writes in, the leading one first.
    pub fn languages(&self) -> &'static [super::lang::Lang] {
        self.resolved.langs.unwrap_or(super::lang::Lang::DEFAULT)
    }

    /// The views the site publishes (every view of the default languages until
    /// [`SiteConfig::resolve`] ran).
    pub fn views(&self) -> &[super::view::View] {
        if self.resolved.langs.is_none() {
            return super::view::View::DEFAULT;
        }
        &self.resolved.views
    }

    /// The packs the site turned on (unknown names, an error of their own, left out), as
    /// [`SiteConfig::resolve`] found them.
    pub fn pack_list(&self) -> &[&'static super::pack::Pack] {
        &self.resolved.packs
    }

    /// Whether the site turned on the pack called `name`.
    pub fn has_pack(&self, name: &str) -> bool {
        self.packs.iter().any(|p| p.value == name)
    }

    /// The declared collection called `name`.
    pub fn collection(&self, name: &str) -> Option<&super::declared::CollectionSpec> {
        self.collections.iter().find(|c| c.name.value == name)
    }

    /// The file under `data/` the site writes its decision maps in: the one `maps_file:`
    /// names, else [`super::registry::MAPS_FILE`].
    pub fn maps_file(&self) -> &str {
        self.maps_file
            .as_ref()
            .map_or(super::registry::MAPS_FILE, |f| f.value.as_str())
    }

    /// The declared collection whose records are written in `data_file` (a path under
    /// `data/`).
    pub fn collection_in(&self, data_file: &str) -> Option<&super::declared::CollectionSpec> {
        self.collections.iter().find(|c| c.file() == data_file)
    }
}

// ---------------------------------------------------------------- maps.yaml

/// `data/maps.yaml` (or the site's `maps_file`): the families a decision routes to and the
/// dispatch maps that route.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DispatchFile {
    pub families: Vec<Family>,
    pub maps: Vec<DispatchMap>,
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Family {
    pub id: Id,
    /// Its name in tables, figures and badges, e.g. `{ja: 順次走査, en: Seq scan}`.
    pub label: Text,
    /// Its colour: one of the theme's [`Colour`]s, any CSS colour, or one per mode
    /// (`{light: …, dark: …}`); by default the next theme colour in the order the
    /// families are written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<super::colour::ZoneColour>,
    /// The code symbol the family enters through, e.g. `ExecSeqScan`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

/// The colours of the theme a family can take by name, in the order families get them by
/// default. A site changes what each looks like in its own CSS (`--blue`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Blue,
    Purple,
    Orange,
    Green,
    Pink,
    Yellow,
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DispatchMap {
    pub id: Id,
    pub title: Text,
    /// What the map decides for, as named code values shown with its title, e.g.
    /// `{op: SCAN, relation: orders}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub subject: BTreeMap<String, String>,
    /// The variable the branches test, e.g. `est_rows`.
    pub variable: String,
    /// The measurement of a run's cases that stands in for the variable when no case can
    /// measure it directly (a proxy); absent when cases measure the variable itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure: Option<String>,
    /// Software versions the map holds for (free text such as `v0.6.4–v0.13.1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applies_to: Option<Text>,
    /// The subjects (`data/subjects.yaml`) whose runs the map holds for; empty: every
    /// run's. A run of another subject gets no zone of it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub for_subjects: Vec<Id>,
    pub source: Source,
    /// What the map rests on: `observed` (recorded by the investigation), `source` (read
    /// from the linked source) or `inferred` (the site's reading); shown with its title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    /// Worklog phase that recorded the map, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Text>,
    /// Branches in evaluation order; the first whose bound holds wins.
    pub branches: Vec<Branch>,
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Branch {
    /// The values of the variable this branch takes; absent means "otherwise".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<Bound>,
    pub family: Id,
    /// The record that anchors this path in the evidence, as a `kind:id` reference (the
    /// piece of code or data the path was found in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Id>,
    /// The components the path goes through (component ids), in call order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Text>,
}

impl DispatchMap {
    /// Its [`Self::subject`] values on one line (`SCAN · orders`); none when it has none.
    pub fn subject_line(&self) -> Option<String> {
        (!self.subject.is_empty()).then(|| {
            self.subject
                .values()
                .cloned()
                .collect::<Vec<_>>()
                .join(" · ")
        })
    }

    /// The measurement a case's zone under this map is derived from: [`Self::measure`],
    /// or the variable itself.
    pub fn measured_as(&self) -> &str {
        self.measure.as_deref().unwrap_or(&self.variable)
    }
}

/// A path through the code that records are sorted by (a pack's records may name the
/// path they serve), with its label, and the family whose colour it shares.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Route {
    pub id: Id,
    pub label: Text,
    /// The family it is, when it is one: tables and figures then colour both alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<Id>,
}

// ---------------------------------------------------------------- readings.yaml

/// `data/readings.yaml`: the investigator's reading of one case of a run, kept beside the
/// run because a run file is never rewritten. It takes the place of the `assessment` the
/// run file may hold for the same case, and `check` holds its zone to the map's.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    pub id: Id,
    /// The run read.
    pub run: Id,
    /// The case of that run (its id); none: a reading of the whole run, shown with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<Id>,
    /// The decision map it was read against; by default the run's `assessed_against`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<Id>,
    /// The route (family) the case is read as, when the reading names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Id>,
    /// The run's own text this reading says again in the site's words (`origin` or
    /// `note`): pages show the reading in its place, and the run file keeps what it
    /// recorded. Only for a reading of the whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restates: Option<RunText>,
    /// The reading, in words.
    pub text: Text,
    /// What it rests on, shown with it (its badge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    /// The source a `basis: source` reading was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// When it was read, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Id>,
}

/// A text of a run's own that a reading may restate.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunText {
    /// How the run was recorded (`origin`).
    Origin,
    /// The investigator's note on it (`note`).
    Note,
}

// ---------------------------------------------------------------- subjects.yaml

/// What runs were taken of: the build, machine or input an investigation studies, or
/// another one it compares with.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Subject {
    pub id: Id,
    pub label: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
    /// Runs of this subject recorded before runs named their subject (a run file is
    /// never rewritten, so their subject is said here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<Id>,
    /// What the subject is, as values its runs record: the engine, a pack's field such as
    /// `model`, or a key of a run's environment, conditions or versions (`engine:
    /// postgres`, `cpu: …`; `environment.host: lab-1` names the section). A run counted
    /// as the site's own without naming its subject that records another value under one
    /// of these keys is an error.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub is: BTreeMap<String, String>,
}

// ---------------------------------------------------------------- vocabulary.yaml

/// `data/vocabulary.yaml`: the words records choose from, each with its labels: the
/// engines runs name, the statuses components take, the measurements cases record.
#[derive(Debug, Clone, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VocabularyFile {
    #[serde(default)]
    pub engines: Vec<Engine>,
    #[serde(default)]
    pub statuses: Vec<Status>,
    #[serde(default)]
    pub measurements: Vec<Measurement>,
    /// The named texts cases record (a plan's node, a stop reason), shown in run tables
    /// beside the measurements.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub texts: Vec<TextField>,
}

/// A run engine: the software a probe ran against or read (`none` is built in: a run that
/// read a file).
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Engine {
    pub id: Id,
    pub label: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

/// A component status: what was observed of a component, and how far that went.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Status {
    pub id: Id,
    pub label: Text,
    /// How far the observation went, for a site that observes components in these steps:
    /// `loaded`, `binary` or `absent`. The chain diagram draws each differently and its
    /// legend names the statuses at each; without it a status is a label alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen: Option<Seen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

/// A measurement cases record, by the name they record it under (`est_rows`), with the
/// label tables and plot axes show and its unit.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Measurement {
    pub id: Id,
    pub label: Text,
    /// Its unit after a value, e.g. `{ja: 行, en: rows}`; none for a plain count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

impl Measurement {
    /// Its label with its unit in parentheses, in each language (`estimated rows (rows)`).
    pub fn labelled(&self) -> Text {
        match &self.unit {
            Some(u) => self.label.map(|l, label| format!("{label} ({})", u.get(l))),
            None => self.label.clone(),
        }
    }
}

/// A text cases record, by the name they record it under (`plan_node`), with the label
/// run tables show it under.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextField {
    pub id: Id,
    pub label: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

// ---------------------------------------------------------------- components.yaml

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Component {
    pub id: Id,
    /// The component's name, one for every language or one in each.
    pub name: Label,
    /// Library files (sonames) that belong to the component.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    pub role: Text,
    /// A status of the site's vocabulary (`status:` in `data/vocabulary.yaml`).
    pub status: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Text>,
    /// Component that loads this one, when the seeds say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded_via: Option<Id>,
    /// The component this one links to next in the dependency chain (as `ldd` showed it),
    /// so the chain's order is data, not prose. The first link is the one nothing points to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<Id>,
}

/// How far the observation of a component went, as a status says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Seen {
    /// Present in the process maps, nothing more.
    Loaded,
    /// Its binary (or the code inside it) was confirmed as well.
    Binary,
    /// Not found where it was looked for.
    Absent,
}

// ---------------------------------------------------------------- observers.yaml

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Observer {
    pub id: Id,
    /// The method's name, one for every language or one in each.
    pub name: Label,
    /// The command or setting used (commands in backticks).
    pub method: Text,
    pub question: Text,
    pub tried: Text,
    pub outcome: ObserverOutcome,
    pub showed: Text,
    /// What stops it from showing more.
    pub constraint: Text,
    /// Date of the status, `YYYY-MM-DD`.
    pub as_of: Id,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Id>,
}

/// How an observation method fared: it distorts what it observes, is blocked, works in
/// part, or works. Labelled `outcome-…` in Fluent.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ObserverOutcome {
    Distorts,
    Blocked,
    Partial,
    Works,
}

// ---------------------------------------------------------------- worklog.yaml

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub id: Id,
    /// Short label such as `A`, the same in every language, or one per language
    /// (`{ja: 準備, en: setup}`).
    pub label: Label,
    pub title: Text,
    /// `YYYY-MM-DD` when known; the seeds lost most dates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Id>,
    /// What the phase fixed, each with its evidence.
    pub fixed: Vec<Fact>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<Id>,
}

/// A name or short label that may need no translation: one string for every language
/// (`A`, `rocprofv3 --attach`), or a text in each (`{ja: …, en: …}`) when the words differ.
/// A phase's label and the names of components and observers are of this type.
///
/// Written by hand rather than `#[serde(untagged)]`, whose error names neither form ("data
/// did not match any variant"), and which would not read a plain number as the label it
/// spells.
#[derive(Debug, Clone)]
pub enum Label {
    /// The same words in every language.
    Same(String),
    /// The words of each language.
    Each(Text),
}

impl Label {
    /// The words in `lang` (a text that lacks it gives its first language's, as
    /// [`Text::get`] does).
    pub fn get(&self, lang: super::lang::Lang) -> &str {
        match self {
            Label::Same(s) => s,
            Label::Each(t) => t.get(lang),
        }
    }

    /// The words a reviewer of a change reads: English when the label has it.
    pub fn reading(&self) -> &str {
        self.get(super::lang::Lang::EN)
    }
}

impl Serialize for Label {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Label::Same(l) => s.serialize_str(l),
            Label::Each(t) => t.serialize(s),
        }
    }
}

/// One label for every language (a string, or a plain number read as the label it spells),
/// or a text in each.
impl schemars::JsonSchema for Label {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Label".into()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let text = g.subschema_for::<Text>();
        schemars::json_schema!({
            "anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}, text]
        })
    }
}

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Label, D::Error> {
        d.deserialize_any(LabelVisitor)
    }
}

struct LabelVisitor;

impl<'de> Visitor<'de> for LabelVisitor {
    type Value = Label;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("one name for every language (`A`) or one in each language")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Label, E> {
        Ok(Label::Same(v.to_owned()))
    }

    /// A plain scalar such as `1`, read as the label it spells.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Label, E> {
        Ok(Label::Same(v.to_string()))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Label, A::Error> {
        Text::deserialize(de::value::MapAccessDeserializer::new(map)).map(Label::Each)
    }
}

/// One recorded fact with the evidence it rests on.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    pub text: Text,
    /// What it rests on, shown with it (its badge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    /// The source a `basis: source` fact was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<Id>,
}

// ---------------------------------------------------------------- claims.yaml

/// A can-show / cannot-show pair of one page.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub id: Id,
    /// Page the pair belongs to.
    pub page: Id,
    pub can: Text,
    pub cannot: Text,
    /// Evidence behind the can-show side (`kind:id` references).
    pub evidence: Vec<Id>,
    /// What the can-show side rests on, shown with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    /// The source a `basis: source` claim was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// Observer whose limit keeps the cannot-show side out of reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<Id>,
    /// The limit behind the cannot-show side when no observer is involved
    /// (a bounded scan, a build that was not inspected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Text>,
    /// Findings that correct or qualify the can-show side: shown with it wherever the
    /// claim is shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrected_by: Vec<Id>,
    /// Set when one side of the pair came from the other side of a claim (this one, or
    /// `claim`): what could not be shown is now shown, or the reverse. A move is said in
    /// data, so `evidence diff` reports it whatever the new wording, and the ledger
    /// shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<ClaimMove>,
}

/// Where a side of a claim came from ([`Claim::moved`]).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimMove {
    /// The side it was on: `cannot` (now shown, in `can`) or `can` (withdrawn, now in
    /// `cannot`).
    pub from: ClaimSide,
    /// The claim it was in, when not this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Id>,
}

/// A side of a can-show / cannot-show pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClaimSide {
    Can,
    Cannot,
}

// ---------------------------------------------------------------- questions.yaml

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: Id,
    pub text: Text,
    pub status: QuestionStatus,
    /// Where to look next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<Text>,
    /// Pages that raise the question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<Id>,
    /// For a resolved question: the evidence that resolved it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resolved_by: Vec<Id>,
    /// Related evidence that bears on it without resolving it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<Id>,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuestionStatus {
    Open,
    Resolved,
}

// ---------------------------------------------------------------- glossary.yaml

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Term {
    pub id: Id,
    /// The term in each language (often the same: the investigation's own words).
    pub term: Text,
    /// How it is read, when that is not obvious (a kana reading, an abbreviation spelt out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<Text>,
    pub definition: Text,
    /// What the definition rests on; `inferred` is marked as the site's reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    /// Where a reader can check the definition (a file at a revision, a pull request).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// How the site writes the term, by language tag (`ja: {use: インデックス, avoid: [index]}`):
    /// `check` warns where a page or a data text writes a variant to avoid.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub spelling: BTreeMap<String, Spelling>,
}

/// The spelling a site uses for a term in one language, and the variants it avoids.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Spelling {
    /// The spelling the site uses; by default the term as written in that language.
    #[serde(default, rename = "use", skip_serializing_if = "Option::is_none")]
    pub preferred: Option<String>,
    /// Spellings the site does not use for the term; each is warned about where written.
    pub avoid: Vec<String>,
}

// ---------------------------------------------------------------- findings.yaml

/// A source-side fact (from code or documentation), with its source.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Finding {
    pub id: Id,
    pub text: Text,
    pub source: Source,
    /// What it rests on; `inferred` (the source does not say it in so many words) is
    /// marked as the site's reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<Id>,
}

// ---------------------------------------------------------------- runs/*.yaml

/// One probe run as recorded. A run file is never rewritten; a new run is a new file.
///
/// Besides the core's fields a run holds the fields of the pack whose probe wrote it
/// (`values`: the request settings, a binary's scan …), each of the pack's own type
/// (`model::fields`).
#[derive(Debug, Clone)]
pub struct Run {
    pub id: Id,
    /// Which probe produced the run, e.g. `engine-phase-proxy`.
    pub probe: String,
    /// When it ran (`YYYY-MM-DD` or RFC 3339); absent when the record lost it.
    pub date: Option<Id>,
    /// What the run was taken of (`data/subjects.yaml`); absent: said by the subject's
    /// `runs`, or the site's own.
    pub subject: Option<Id>,
    /// The engine it ran on, of the site's vocabulary (`engines:` in
    /// `data/vocabulary.yaml`): a database, a server. Absent or [`NO_ENGINE`]: none (a
    /// file read, a reading by hand); see [`Run::engine`].
    pub engine: Option<Id>,
    /// Software versions by component, e.g. `server: 0.6.5`.
    pub versions: BTreeMap<String, String>,
    /// Facts about the machine and what ran on it, as recorded (host, cpu …).
    pub environment: BTreeMap<String, String>,
    /// The settings it ran under, by name (`work_mem: 64MB`): what the investigator set,
    /// where `environment` is what the machine was.
    pub conditions: BTreeMap<String, String>,
    /// How the run was recorded (probe command, transcription from a phase, import).
    pub origin: Text,
    /// What the investigator said of the run when recording it: `evidence probe --note`
    /// writes it once, as a plain string in no language of the site's (held as a
    /// [`Text::untranslated`]); a run written by hand may give a text in each language.
    pub note: Option<Text>,
    /// Phase that recorded the run, if any.
    pub phase: Option<Id>,
    /// Decision map the recorded assessments were made against.
    pub assessed_against: Option<Id>,
    pub cases: Vec<Case>,
    /// The file a probe read, when it read one.
    pub input: Option<InputFile>,
    /// The fields of the pack whose probe wrote the run.
    pub values: Values,
}

/// The keys of a run the core reads itself, in the order they are written.
const RUN_KEYS: &[&str] = &[
    "id",
    "probe",
    "date",
    "subject",
    "engine",
    "versions",
    "environment",
    "conditions",
    "origin",
    "note",
    "phase",
    "assessed_against",
    "cases",
    "input",
];

impl<'de> Deserialize<'de> for Run {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Run, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Run;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a run")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Run, A::Error> {
                let (mut id, mut probe, mut date, mut subject, mut engine) =
                    (None, None, None, None, None);
                let (mut versions, mut environment) = (None, None);
                let (mut origin, mut note, mut phase, mut assessed_against) =
                    (None, None, None, None);
                let mut conditions = None;
                let (mut cases, mut input, mut values) = (None, None, Values::default());
                let keys = KeySeed {
                    place: Place::Run,
                    core: RUN_KEYS,
                };
                while let Some(key) = map.next_key_seed(keys)? {
                    let key = match key {
                        Key::Core(k) => k,
                        Key::Pack(f) => {
                            fields::read_field(&mut map, Place::Run, f, None, &mut values)?;
                            continue;
                        }
                    };
                    match key {
                        "id" => once(&mut id, "id", map.next_value()?)?,
                        "probe" => once(&mut probe, "probe", map.next_value()?)?,
                        "date" => once(&mut date, "date", map.next_value()?)?,
                        "subject" => once(&mut subject, "subject", map.next_value()?)?,
                        "engine" => once(&mut engine, "engine", map.next_value()?)?,
                        "versions" => once(&mut versions, "versions", map.next_value()?)?,
                        "environment" => once(&mut environment, "environment", map.next_value()?)?,
                        "conditions" => once(&mut conditions, "conditions", map.next_value()?)?,
                        "origin" => once(&mut origin, "origin", map.next_value()?)?,
                        "note" => once(&mut note, "note", map.next_value::<NoteIn>()?.0)?,
                        "phase" => once(&mut phase, "phase", map.next_value()?)?,
                        "assessed_against" => {
                            once(&mut assessed_against, "assessed_against", map.next_value()?)?
                        }
                        "cases" => once(&mut cases, "cases", map.next_value()?)?,
                        // The last of RUN_KEYS, the only keys `KeySeed` gives as core.
                        _ => once(&mut input, "input", map.next_value()?)?,
                    }
                }
                Ok(Run {
                    id: id.ok_or_else(|| de::Error::missing_field("id"))?,
                    probe: probe.ok_or_else(|| de::Error::missing_field("probe"))?,
                    date,
                    subject,
                    engine,
                    versions: versions.unwrap_or_default(),
                    environment: environment.unwrap_or_default(),
                    conditions: conditions.unwrap_or_default(),
                    origin: origin.ok_or_else(|| de::Error::missing_field("origin"))?,
                    note,
                    phase,
                    assessed_against,
                    cases: cases.unwrap_or_default(),
                    input,
                    values,
                })
            }
        }
        d.deserialize_map(V)
    }
}

/// Sets a field read once; a second time is the error serde's derive gives.
fn once<T, E: de::Error>(slot: &mut Option<T>, name: &'static str, v: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(name));
    }
    *slot = Some(v);
    Ok(())
}

impl Serialize for Run {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let len = 4
            + [
                self.date.is_some(),
                self.subject.is_some(),
                self.engine.is_some(),
                !self.versions.is_empty(),
                !self.environment.is_empty(),
                !self.conditions.is_empty(),
                self.note.is_some(),
                self.phase.is_some(),
                self.assessed_against.is_some(),
                self.input.is_some(),
            ]
            .iter()
            .filter(|b| **b)
            .count()
            + self.values.len();
        // A length up front: MessagePack (the parse cache) writes it before the entries.
        let mut m = s.serialize_map(Some(len))?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("probe", &self.probe)?;
        if let Some(v) = &self.date {
            m.serialize_entry("date", v)?;
        }
        if let Some(v) = &self.subject {
            m.serialize_entry("subject", v)?;
        }
        if let Some(v) = &self.engine {
            m.serialize_entry("engine", v)?;
        }
        // A pack's fields that say what the run ran on stay beside the engine.
        self.values.serialize_leading_into(Place::Run, &mut m)?;
        if !self.versions.is_empty() {
            m.serialize_entry("versions", &self.versions)?;
        }
        if !self.environment.is_empty() {
            m.serialize_entry("environment", &self.environment)?;
        }
        if !self.conditions.is_empty() {
            m.serialize_entry("conditions", &self.conditions)?;
        }
        m.serialize_entry("origin", &self.origin)?;
        if let Some(v) = &self.note {
            m.serialize_entry("note", &NoteOut(v))?;
        }
        if let Some(v) = &self.phase {
            m.serialize_entry("phase", v)?;
        }
        if let Some(v) = &self.assessed_against {
            m.serialize_entry("assessed_against", v)?;
        }
        self.values.serialize_rest_into(Place::Run, &mut m)?;
        m.serialize_entry("cases", &self.cases)?;
        if let Some(v) = &self.input {
            m.serialize_entry("input", v)?;
        }
        m.end()
    }
}

/// A run's note as read: a plain string is the investigator's words as written, held once
/// for every language; a map is a text in each of the site's languages.
struct NoteIn(Text);

impl<'de> Deserialize<'de> for NoteIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NoteIn, D::Error> {
        // The parse cache holds every text as its pairs, an untranslated one too.
        if !d.is_human_readable() {
            return Text::deserialize(d).map(NoteIn);
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NoteIn;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a note: a string as written, or a text in each language")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<NoteIn, E> {
                Ok(NoteIn(Text::untranslated(v)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<NoteIn, A::Error> {
                Text::deserialize(de::value::MapAccessDeserializer::new(map)).map(NoteIn)
            }
        }
        d.deserialize_any(V)
    }
}

/// A run's note as written: once, as a plain string, when it is in no language of the
/// site's; else as the text in each language.
struct NoteOut<'a>(&'a Text);

impl Serialize for NoteOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.iter().next() {
            Some((_, words)) if self.0.is_untranslated() && s.is_human_readable() => {
                s.serialize_str(words)
            }
            _ => self.0.serialize(s),
        }
    }
}

/// The file a probe read: its name (not its full path) and size.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InputFile {
    pub name: String,
    pub size: u64,
    /// SHA-256 of the file's bytes (lower-case hex): which file it was, without its path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The package (and version) the file came from, as the investigator gave it
    /// (`--from somepackage==1.2.3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
}

/// How a run came to be recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recorded {
    /// By `evidence probe`: requests sent, or a file read, by this tool.
    Probe,
    /// By `evidence import`: responses captured elsewhere.
    Import,
    /// Written by hand, from the original pages or notes.
    Transcribed,
}

/// The sections of a run that hold values by name, in the order a key is looked up in.
pub const RUN_SECTIONS: [&str; 3] = ["environment", "conditions", "versions"];

/// A value a run recorded under a key a subject may declare ([`Run::recorded_value`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedValue {
    /// The section it is written in (one of [`RUN_SECTIONS`]); none: a field of the run
    /// itself (its engine, a pack's field).
    pub section: Option<&'static str>,
    /// Its name in that section, or the run's field.
    pub name: String,
    pub value: String,
}

impl Run {
    /// The value the run recorded under `key`, to compare with what its subject declares:
    /// its engine (`engine`; a run of no engine records none), a pack's leading field
    /// (`model`), else the key in `environment`, `conditions` or `versions`, in that
    /// order. `environment.host` looks in the section it names only.
    pub fn recorded_value(&self, key: &str) -> Option<RecordedValue> {
        let at = |section: &'static str, name: &str| {
            self.section(section).get(name).map(|v| RecordedValue {
                section: Some(section),
                name: name.to_string(),
                value: v.clone(),
            })
        };
        if let Some((section, name)) = key.split_once('.')
            && let Some(&section) = RUN_SECTIONS.iter().find(|s| **s == section)
        {
            return at(section, name);
        }
        let own = |value: String| RecordedValue {
            section: None,
            name: key.to_string(),
            value,
        };
        if key == "engine" {
            return self.engine().map(|e| own(e.value.clone()));
        }
        if let Some((_, v)) = self
            .values
            .leading_texts(Place::Run)
            .into_iter()
            .find(|(n, _)| *n == key)
        {
            return Some(own(v));
        }
        RUN_SECTIONS.iter().find_map(|s| at(s, key))
    }

    /// The values of section `name` (one of [`RUN_SECTIONS`]).
    fn section(&self, name: &str) -> &BTreeMap<String, String> {
        match name {
            "environment" => &self.environment,
            "conditions" => &self.conditions,
            _ => &self.versions,
        }
    }

    /// The engine it ran on, if it names one: an absent `engine` and `engine: none` (as
    /// runs recorded before the field was optional write it) are none.
    pub fn engine(&self) -> Option<&Id> {
        self.engine.as_ref().filter(|e| e.value != NO_ENGINE)
    }

    /// How it was recorded, from what each way leaves in a run: this tool's version in
    /// `versions`, with the input file or a field only a probe writes (a pack's
    /// request settings; an import has neither); no version of this tool is a run
    /// written by hand.
    pub fn recorded(&self) -> Recorded {
        let probed = self.input.is_some()
            || self
                .values
                .names()
                .any(|n| fields::declared(Place::Run, n).is_some_and(|(_, f)| f.probe_only));
        match (self.versions.contains_key("evidence"), probed) {
            (true, true) => Recorded::Probe,
            (true, false) => Recorded::Import,
            (false, _) => Recorded::Transcribed,
        }
    }
}

/// The engine a run with no engine may record (runs written before `engine` was optional
/// do): a probe that read a file, or a record transcribed by hand. Other engines are the
/// site's (`data/vocabulary.yaml`).
pub const NO_ENGINE: &str = "none";

/// One case of a run: what was tried, its numbers by name, and the investigator's
/// reading of it. A pack's probe adds fields of its own (`values`: the prompt sent, the
/// reply), and declares the measurements it writes at the top of a case.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: Id,
    /// Its numbers by name: the site's own (`measurements:`) and those a pack's probe
    /// writes at the top of a case (`total_duration_ns: …`).
    pub measurements: Measurements,
    /// The investigator's reading of the case, checked against the derived zone. Boxed:
    /// few cases have one, and every pass over a million cases reads 48 bytes less each.
    pub assessment: Option<Box<Assessment>>,
    /// Which repetition of which case this is (`evidence probe --repeat N`).
    pub repeat: Option<Repeat>,
    /// Its texts by name (`texts:`, declared in the site's vocabulary), e.g. the node a
    /// plan starts with. Boxed, as the assessment is: most cases have none.
    pub texts: Option<Box<BTreeMap<String, String>>>,
    /// The fields of the pack whose probe recorded the case.
    pub values: Values,
}

/// The keys of a case the core reads itself.
const CASE_KEYS: &[&str] = &["id", "measurements", "assessment", "repeat", "texts"];

impl<'de> Deserialize<'de> for Case {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Case, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Case;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a case")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Case, A::Error> {
                let (mut id, mut own, mut assessment, mut repeat) =
                    (None, None::<Measurements>, None, None);
                let mut texts = None::<BTreeMap<String, String>>;
                // Most of a case's keys are measurements: room for them all at once (a
                // hint, so bounded: a damaged cache file may claim any length).
                let room = map.size_hint().unwrap_or(0).min(16);
                let mut measurements = Measurements::with_capacity(room);
                let mut values = Values::default();
                let keys = KeySeed {
                    place: Place::Case,
                    core: CASE_KEYS,
                };
                while let Some(key) = map.next_key_seed(keys)? {
                    let key = match key {
                        Key::Core(k) => k,
                        Key::Pack(f) => {
                            fields::read_field(
                                &mut map,
                                Place::Case,
                                f,
                                Some(&mut measurements),
                                &mut values,
                            )?;
                            continue;
                        }
                    };
                    match key {
                        "id" => once(&mut id, "id", map.next_value()?)?,
                        "measurements" => once(&mut own, "measurements", map.next_value()?)?,
                        "assessment" => once(&mut assessment, "assessment", map.next_value()?)?,
                        "repeat" => once(&mut repeat, "repeat", map.next_value()?)?,
                        // The last of CASE_KEYS, the only keys `KeySeed` gives as core.
                        _ => once(&mut texts, "texts", map.next_value()?)?,
                    }
                }
                for (n, v) in own.iter().flat_map(Measurements::iter) {
                    if measurements.get(n).is_some() {
                        return Err(de::Error::custom(format!(
                            "`{n}` is written both at the top of the case and under `measurements`"
                        )));
                    }
                    measurements.insert(n, v);
                }
                Ok(Case {
                    id: id.ok_or_else(|| de::Error::missing_field("id"))?,
                    measurements,
                    assessment,
                    repeat,
                    texts: texts.filter(|t| !t.is_empty()).map(Box::new),
                    values,
                })
            }
        }
        d.deserialize_map(V)
    }
}

impl Serialize for Case {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let len = 1
            + fields::measurement_entries(&self.measurements)
            + usize::from(self.assessment.is_some())
            + usize::from(self.repeat.is_some())
            + usize::from(self.texts.is_some())
            + self.values.len();
        let mut m = s.serialize_map(Some(len))?;
        m.serialize_entry("id", &self.id)?;
        // A pack's fields that say how the case ran stay beside its id.
        self.values.serialize_leading_into(Place::Case, &mut m)?;
        fields::serialize_measurements(&self.measurements, &mut m)?;
        if let Some(v) = &self.assessment {
            m.serialize_entry("assessment", v)?;
        }
        if let Some(v) = &self.repeat {
            m.serialize_entry("repeat", v)?;
        }
        if let Some(v) = &self.texts {
            m.serialize_entry("texts", v)?;
        }
        self.values.serialize_rest_into(Place::Case, &mut m)?;
        m.end()
    }
}

impl Case {
    /// A case with only its id.
    pub fn new(id: &str) -> Case {
        Case {
            id: Id::unplaced(id),
            measurements: Measurements::default(),
            assessment: None,
            repeat: None,
            texts: None,
            values: Values::default(),
        }
    }

    /// The text called `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts.as_ref()?.get(name).map(String::as_str)
    }

    /// The names of the texts it has, sorted.
    pub fn text_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.texts.iter().flat_map(|t| t.keys().map(String::as_str))
    }

    /// The key it is matched by across runs: a repetition (`lookup-r2`) counts as the
    /// case it repeats (`lookup`).
    pub fn key(&self) -> &str {
        self.repeat
            .as_ref()
            .map(|r| r.of.as_str())
            .unwrap_or(self.id.value.as_str())
    }

    /// The measurement called `name`.
    pub fn measurement(&self, name: &str) -> Option<f64> {
        self.measurements.get(name)
    }

    /// The names of the measurements it has.
    pub fn measured(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.measurements.keys()
    }
}

/// Repetition `index` (from 1) of the case `of`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Repeat {
    pub of: String,
    pub index: u32,
}

#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Assessment {
    /// The family the investigator placed the case in; absent when left undecided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Id>,
    pub reading: Text,
}

// ---------------------------------------------------------------- what records refer to

use super::refs::{Kind, Reference, Refers};
use Reference::{Any as AnyRecord, Bare, Date, Moment};

/// Bare references to records of `kind`, one for each id of `ids`.
fn bare_all<'a>(
    kind: Kind,
    ids: impl IntoIterator<Item = &'a Id>,
) -> impl Iterator<Item = Reference<'a>> {
    ids.into_iter().map(move |id| Bare(kind, id))
}

impl Refers for Phase {
    fn references(&self) -> Vec<Reference<'_>> {
        let fixed = self.fixed.iter().flat_map(|f| f.refs.iter().map(AnyRecord));
        self.date
            .iter()
            .map(Date)
            .chain(fixed)
            .chain(bare_all(Kind::Question, &self.questions))
            .collect()
    }
}

impl Refers for Run {
    fn references(&self) -> Vec<Reference<'_>> {
        let zones = self
            .cases
            .iter()
            .filter_map(|c| c.assessment.as_ref().and_then(|a| a.zone.as_ref()));
        bare_all(Kind::Engine, self.engine())
            .chain(bare_all(Kind::Subject, &self.subject))
            .chain(self.date.iter().map(Moment))
            .chain(bare_all(Kind::Phase, &self.phase))
            .chain(bare_all(Kind::Map, &self.assessed_against))
            .chain(bare_all(Kind::Family, zones))
            .collect()
    }
}

impl Refers for Observer {
    fn references(&self) -> Vec<Reference<'_>> {
        std::iter::once(Date(&self.as_of))
            .chain(bare_all(Kind::Phase, &self.phases))
            .collect()
    }
}

impl Refers for Component {
    fn references(&self) -> Vec<Reference<'_>> {
        bare_all(Kind::Component, self.loaded_via.iter().chain(&self.next))
            .chain(std::iter::once(Bare(Kind::Status, &self.status)))
            .collect()
    }
}

impl Refers for Question {
    fn references(&self) -> Vec<Reference<'_>> {
        bare_all(Kind::Page, &self.pages)
            .chain(self.resolved_by.iter().chain(&self.refs).map(AnyRecord))
            .collect()
    }
}

impl Refers for Finding {
    fn references(&self) -> Vec<Reference<'_>> {
        self.refs.iter().map(AnyRecord).collect()
    }
}

impl Refers for DispatchMap {
    fn references(&self) -> Vec<Reference<'_>> {
        let branches = self.branches.iter().flat_map(|b| {
            std::iter::once(Bare(Kind::Family, &b.family))
                .chain(b.anchor.iter().map(AnyRecord))
                .chain(bare_all(Kind::Component, &b.chain))
        });
        bare_all(Kind::Phase, &self.phase)
            .chain(bare_all(Kind::Subject, &self.for_subjects))
            .chain(branches)
            .collect()
    }
}

impl Refers for Family {}

impl Refers for Claim {
    fn references(&self) -> Vec<Reference<'_>> {
        let moved = self.moved.as_ref().and_then(|m| m.claim.as_ref());
        std::iter::once(Bare(Kind::Page, &self.page))
            .chain(bare_all(Kind::Finding, &self.corrected_by))
            .chain(bare_all(Kind::Claim, moved))
            .chain(bare_all(Kind::Observer, &self.constraint))
            .chain(self.evidence.iter().map(AnyRecord))
            .collect()
    }
}

impl Refers for Term {}

impl Refers for Route {
    fn references(&self) -> Vec<Reference<'_>> {
        bare_all(Kind::Family, &self.family).collect()
    }
}

impl Refers for Engine {}
impl Refers for Status {}
impl Refers for Measurement {}
impl Refers for TextField {}

impl Refers for Subject {
    fn references(&self) -> Vec<Reference<'_>> {
        bare_all(Kind::Run, &self.runs).collect()
    }
}

impl Refers for Reading {
    fn references(&self) -> Vec<Reference<'_>> {
        std::iter::once(Bare(Kind::Run, &self.run))
            .chain(bare_all(Kind::Map, &self.map))
            .chain(bare_all(Kind::Family, &self.zone))
            .chain(self.date.iter().map(Moment))
            .collect()
    }
}

#[cfg(test)]
mod source_link_tests {
    use super::Source;

    fn source(repo: &str, rev: Option<&str>, file: Option<&str>, prs: &[&str]) -> Source {
        Source {
            repository: repo.into(),
            revision: rev.map(Into::into),
            file: file.map(Into::into),
            prs: prs.iter().map(|p| p.to_string()).collect(),
            url: None,
        }
    }

    /// A file written as a note (a symbol in brackets, two files) would make a broken
    /// address: the tree at the revision is linked instead.
    #[test]
    fn links_a_path_a_tree_a_commit_or_a_pull_request() {
        let s = source("o/r", Some("abc1234"), Some("src/a.rs"), &[]);
        assert_eq!(
            s.link().as_deref(),
            Some("https://github.com/o/r/blob/abc1234/src/a.rs")
        );
        let s = source("o/r", Some("v1"), Some("src/a.rs (SYMBOL)"), &[]);
        assert_eq!(s.link().as_deref(), Some("https://github.com/o/r/tree/v1"));
        let s = source("o/r", Some("abc1234"), None, &[]);
        assert_eq!(
            s.link().as_deref(),
            Some("https://github.com/o/r/commit/abc1234")
        );
        let s = source("a local tree", Some("abc"), None, &["o/r#12"]);
        assert_eq!(s.link().as_deref(), Some("https://github.com/o/r/pull/12"));
        assert_eq!(source("a local tree", None, None, &[]).link(), None);
    }
}
