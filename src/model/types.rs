//! The serde types of `evidence.yaml` and every data file, exactly as written.
//!
//! Every type denies unknown fields, every human text is a [`Text`] (one string per language) and every
//! enumerated value is a Rust enum whose label lives in Fluent (`enum-<type>-<value>`).
//! Ids and references are [`Id`]s: strings that remember where they were written, so
//! that a dangling or duplicate id is reported at its own line and column.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use super::bound::{Bound, Edge};
pub use super::id::{Id, Pos};
use crate::packs::{FatbinRecord, GgufRecord, InputFile, MapsRecord};

pub use super::lang::Text;

/// What a statement rests on: a source (code, documentation, an original page), an
/// observation, or the site's own reading of them — an inference, which every page that
/// shows the statement marks as such.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    Source,
    Observed,
    Inferred,
}

/// Where a source-side fact comes from.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
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
}

/// An inclusive integer range, as in "observed for 1..8".
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub min: u64,
    pub max: u64,
}

// ---------------------------------------------------------------- evidence.yaml

/// The site config, `evidence.yaml`.
#[derive(Debug, Clone, Deserialize)]
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
}

/// What [`SiteConfig::resolve`] made of the languages and views.
#[derive(Debug, Clone, Default)]
struct Resolved {
    langs: Option<&'static [super::lang::Lang]>,
    views: Vec<super::view::View>,
}

/// The languages of a config, read before the rest of it: every text in the config must
/// already have them.
#[derive(Debug, Default, Deserialize)]
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
            let lang = Lang::parse(&tag.value).map_err(|e| (Some(tag), e))?;
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
                let v = View::named(&name.value, langs).map_err(|e| (name, e))?;
                if !views.contains(&v) {
                    views.push(v);
                }
            }
            views
        };
        self.resolved = Resolved {
            langs: Some(langs),
            views,
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

    /// Whether the site turned on the pack called `name`.
    pub fn has_pack(&self, name: &str) -> bool {
        self.packs.iter().any(|p| p.value == name)
    }

    /// The declared collection called `name`.
    pub fn collection(&self, name: &str) -> Option<&super::declared::CollectionSpec> {
        self.collections.iter().find(|c| c.name.value == name)
    }

    /// The declared collection whose records are written in `data_file` (a path under
    /// `data/`).
    pub fn collection_in(&self, data_file: &str) -> Option<&super::declared::CollectionSpec> {
        self.collections.iter().find(|c| c.file() == data_file)
    }
}

// ---------------------------------------------------------------- dispatch.yaml

/// `data/dispatch.yaml`: the families a decision routes to and the dispatch maps that route.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DispatchFile {
    pub families: Vec<Family>,
    pub maps: Vec<DispatchMap>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Family {
    pub id: Id,
    /// Its name in tables, figures and badges, e.g. `{ja: 順次走査, en: Seq scan}`.
    pub label: Text,
    /// Its colour, one of the theme's [`Colour`]s; by default the next one in the order
    /// the families are written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
    /// The code symbol the family enters through, e.g. `ExecSeqScan`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

/// The colours of the theme a family can take, in the order families get them by default.
/// A site changes what each looks like in its own CSS (`--blue`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Blue,
    Purple,
    Orange,
    Green,
    Pink,
    Yellow,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
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
    pub source: Source,
    /// Worklog phase that recorded the map, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Text>,
    /// Branches in evaluation order; the first whose bound holds wins.
    pub branches: Vec<Branch>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
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

/// A path through the code that records are sorted by (for bundles: the path their
/// code serves), with its label, and the dispatch family whose colour it shares.
#[derive(Debug, Clone, Deserialize, Serialize)]
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
#[derive(Debug, Clone, Deserialize, Serialize)]
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
    /// The reading, in words.
    pub text: Text,
    /// What it rests on; `inferred` marks it as the site's own reading wherever it is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    /// When it was read, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Id>,
}

// ---------------------------------------------------------------- subjects.yaml

/// What runs were taken of: the build, machine or input an investigation studies, or
/// another one it compares with.
#[derive(Debug, Clone, Deserialize, Serialize)]
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
}

// ---------------------------------------------------------------- vocabulary.yaml

/// `data/vocabulary.yaml`: the words records choose from, each with its labels: the
/// engines runs name, the statuses components take, the measurements cases record.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VocabularyFile {
    #[serde(default)]
    pub engines: Vec<Engine>,
    #[serde(default)]
    pub statuses: Vec<Status>,
    #[serde(default)]
    pub measurements: Vec<Measurement>,
}

/// A run engine: the software a probe ran against or read (`none` is built in: a run that
/// read a file).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Engine {
    pub id: Id,
    pub label: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

/// A component status: what was observed of a component, and how far that went.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Status {
    pub id: Id,
    pub label: Text,
    /// How far the observation went: `loaded`, `binary` or `absent`; the chain diagram
    /// draws each differently.
    pub seen: Seen,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

/// A measurement cases record, by the name they record it under (`est_rows`), with the
/// label tables and plot axes show and its unit.
#[derive(Debug, Clone, Deserialize, Serialize)]
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

// ---------------------------------------------------------------- components.yaml

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Component {
    pub id: Id,
    pub name: String,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
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

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Observer {
    pub id: Id,
    pub name: String,
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
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ObserverOutcome {
    Distorts,
    Blocked,
    Partial,
    Works,
}

// ---------------------------------------------------------------- worklog.yaml

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub id: Id,
    /// Short label such as `A` or `setup`.
    pub label: String,
    pub title: Text,
    /// `YYYY-MM-DD` when known; the seeds lost most dates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Id>,
    /// What the phase fixed, each with its evidence.
    pub fixed: Vec<Fact>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<Id>,
}

/// One recorded fact with the evidence it rests on.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fact {
    pub text: Text,
    /// What it rests on; `inferred` is marked as the site's reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<Id>,
}

// ---------------------------------------------------------------- claims.yaml

/// A can-show / cannot-show pair of one page.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub id: Id,
    /// Page the pair belongs to.
    pub page: Id,
    pub can: Text,
    pub cannot: Text,
    /// Evidence behind the can-show side (`kind:id` references).
    pub evidence: Vec<Id>,
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
}

// ---------------------------------------------------------------- questions.yaml

#[derive(Debug, Clone, Deserialize, Serialize)]
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

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum QuestionStatus {
    Open,
    Resolved,
}

// ---------------------------------------------------------------- glossary.yaml

#[derive(Debug, Clone, Deserialize, Serialize)]
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
}

// ---------------------------------------------------------------- findings.yaml

/// A source-side fact (from code or documentation), with its source.
#[derive(Debug, Clone, Deserialize, Serialize)]
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
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    pub id: Id,
    /// Which probe produced the run, e.g. `engine-phase-proxy`.
    pub probe: String,
    /// When it ran (`YYYY-MM-DD` or RFC 3339); absent when the record lost it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Id>,
    /// What the run was taken of (`data/subjects.yaml`); absent: said by the subject's
    /// `runs`, or the site's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Id>,
    /// [`NO_ENGINE`], or an engine of the site's vocabulary (`engines:` in
    /// `data/vocabulary.yaml`).
    pub engine: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// Model name as the engine knows it; absent when the record lost it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Software versions by component, e.g. `server: 0.6.5`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<String, String>,
    /// Facts about the environment (GPU, offload) as recorded.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub environment: BTreeMap<String, String>,
    /// How the run was recorded (probe command, transcription from a phase, import).
    pub origin: Text,
    /// What the investigator said of the run when recording it (`evidence probe --note`),
    /// as written, the same in every language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Text>,
    /// Phase that recorded the run, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Id>,
    /// Dispatch map the recorded assessments were made against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assessed_against: Option<Id>,
    /// The model as the engine described it (`/api/show`, `/api/tags`, `/props`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_details: Option<ModelDetails>,
    /// The loaded model's memory (`/api/ps`): how much of it sits in VRAM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded: Option<ModelMemory>,
    /// The request settings every case of a probe run was sent with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<RequestSettings>,
    /// The prompt-token sweep that produced the run's cases, if it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepSettings>,
    #[serde(default)]
    pub cases: Vec<Case>,
    /// The file a binary probe (`evidence probe fatbin|gguf|maps`) read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<InputFile>,
    /// What `evidence probe fatbin` found in a host library's offload bundles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fatbin: Option<FatbinRecord>,
    /// What `evidence probe gguf` found in a model file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gguf: Option<GgufRecord>,
    /// What `evidence probe maps` found mapped by a process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maps: Option<MapsRecord>,
}

/// The model as the engine described it when the run was recorded.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ModelDetails {
    /// `gguf`, as `/api/show` reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// e.g. `7.6B`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_size: Option<String>,
    /// e.g. `Q4_K_M`: the file-type label, not the type of every tensor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantization_level: Option<String>,
    /// Content digest of the model (`sha256:…` or bare hex, as the engine gives it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// Path of the model file on the server (llama-server's `/props`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Tensor count per tensor type (`Q4_K: 193`), when the engine lists tensors.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tensor_types: BTreeMap<String, u64>,
}

/// Memory of the loaded model, from `/api/ps`; `size_vram < size` means partial offload.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ModelMemory {
    /// Bytes the loaded model takes in total.
    pub size: u64,
    /// Bytes of it in GPU memory.
    pub size_vram: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_length: Option<u64>,
}

/// What every request of a probe run was sent with.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RequestSettings {
    /// Always `false` for probes: the final response carries the counters.
    pub stream: bool,
    pub temperature: f64,
    pub seed: u64,
    /// Per-request time limit in seconds.
    pub timeout_secs: u64,
    /// Whether prompts were sent without the model's template (`raw`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<bool>,
    /// llama-server `cache_prompt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_prompt: Option<bool>,
}

/// The range a prompt-token sweep covered.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SweepSettings {
    /// First and last target prompt token count, inclusive.
    pub from: u64,
    pub to: u64,
    pub step: u64,
    /// The word repeated to build the prompts.
    pub word: String,
    /// Calibration requests allowed per target.
    pub max_tries: u32,
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

impl Run {
    /// How it was recorded, from what each way leaves in a run: this tool's version in
    /// `versions`, with the request settings or the input file a probe keeps (an import
    /// has neither); no version of this tool is a run written by hand.
    pub fn recorded(&self) -> Recorded {
        match (
            self.versions.contains_key("evidence"),
            self.request.is_some() || self.input.is_some(),
        ) {
            (true, true) => Recorded::Probe,
            (true, false) => Recorded::Import,
            (false, _) => Recorded::Transcribed,
        }
    }
}

/// The engine a run with no engine records: a probe that read a file, or a record
/// transcribed by hand. Other engines are the site's (`data/vocabulary.yaml`).
pub const NO_ENGINE: &str = "none";

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: Id,
    /// `cold` (model loaded for this request) or `hot` (resident).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Residency>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_predict: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_eval_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_duration_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_duration_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_eval_duration_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_duration_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub done_reason: Option<String>,
    /// The investigator's reading of the case, checked against the derived zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assessment: Option<Assessment>,
    /// Which repetition of which case this is (`evidence probe --repeat N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<Repeat>,
    /// The sweep target this case was calibrated to (`evidence probe --sweep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepPoint>,
    /// How the prompt cache was kept out of the measurement; absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_defeat: Option<CacheDefeat>,
    /// The unique text put in front of the prompt (cache defeat `nonce`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
    /// The prompt exactly as sent (nonce included); left out for sweep cases, whose
    /// prompt is `sweep.words` times the sweep word after the nonce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// When the request was sent (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// `created_at` of the engine's final response, as the engine wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Wall-clock time of the request, measured by the probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_duration_ns: Option<u64>,
    /// The generated text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<String>,
    /// llama-server's own fields, kept as it reported them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llama_server: Option<LlamaServerCase>,
    /// Further measurements by name (a site's own, such as `est_rows`), each a number.
    /// The engine counters above are measurements too, under their own names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub measurements: BTreeMap<String, f64>,
}

/// The names of the engine counters a case records in fields of its own, in table order.
pub const COUNTERS: &[&str] = &[
    "num_predict",
    "prompt_eval_count",
    "eval_count",
    "total_duration_ns",
    "load_duration_ns",
    "prompt_eval_duration_ns",
    "eval_duration_ns",
];

impl Case {
    /// The key it is matched by across runs: a repetition (`lookup-r2`) counts as the
    /// case it repeats (`lookup`).
    pub fn key(&self) -> &str {
        self.repeat
            .as_ref()
            .map(|r| r.of.as_str())
            .unwrap_or(self.id.value.as_str())
    }

    /// The measurement called `name`: an engine counter, or one of `measurements`.
    pub fn measurement(&self, name: &str) -> Option<f64> {
        let counter = match name {
            "num_predict" => self.num_predict,
            "prompt_eval_count" => self.prompt_eval_count,
            "eval_count" => self.eval_count,
            "total_duration_ns" => self.total_duration_ns,
            "load_duration_ns" => self.load_duration_ns,
            "prompt_eval_duration_ns" => self.prompt_eval_duration_ns,
            "eval_duration_ns" => self.eval_duration_ns,
            _ => return self.measurements.get(name).copied(),
        };
        // Counters stay below 2^53 (nanoseconds of a run, token counts): exact as f64.
        counter.map(|v| v as f64)
    }

    /// The names of the measurements it has, counters first.
    pub fn measured(&self) -> impl Iterator<Item = &str> {
        COUNTERS
            .iter()
            .copied()
            .filter(|n| self.measurement(n).is_some())
            .chain(self.measurements.keys().map(String::as_str))
    }
}

/// Repetition `index` (from 1) of the case `of`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Repeat {
    pub of: String,
    pub index: u32,
}

/// A sweep case: the token count aimed at and how the prompt was found.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SweepPoint {
    /// Target prompt_eval_count.
    pub target: u64,
    /// How many times the sweep word was repeated.
    pub words: u64,
    /// Requests it took to find the prompt (the recorded one included).
    pub tries: u32,
    /// Whether prompt_eval_count reached the target exactly.
    pub hit: bool,
}

/// How a probe kept the prompt cache from shrinking the work it measured.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum CacheDefeat {
    /// A unique text at the start of each prompt (model resident).
    Nonce,
    /// The model was unloaded (`keep_alive: 0`) before the request.
    ColdStart,
    /// llama-server `cache_prompt: false`.
    CachePromptOff,
}

/// What llama-server's `/completion` reported beyond the common counters.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LlamaServerCase {
    /// `eos`, `limit`, `word` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_evaluated: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_cached: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    pub timings: LlamaTimings,
}

/// llama-server's `timings` object, as reported (milliseconds, tokens per second).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LlamaTimings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_per_token_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_per_second: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_per_token_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_per_second: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft_n: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft_n_accepted: Option<u64>,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Residency {
    Cold,
    Hot,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Assessment {
    /// The family the investigator placed the case in; absent when left undecided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Id>,
    pub reading: Text,
}

#[cfg(test)]
mod recorded_tests {
    use super::{Recorded, Run};

    fn run(extra: &str) -> Run {
        let text =
            format!("id: r\nprobe: p\nengine: none\norigin: {{ja: 記録, en: record}}\n{extra}");
        serde_saphyr::from_str(&text).expect("a run")
    }

    #[test]
    fn how_a_run_was_recorded_follows_from_what_it_keeps() {
        assert_eq!(run("").recorded(), Recorded::Transcribed);
        assert_eq!(
            run("versions: {evidence: \"0.1.0\"}\n").recorded(),
            Recorded::Import
        );
        let probe = "versions: {evidence: \"0.1.0\"}\nrequest: {stream: false, temperature: 0, seed: 42, timeout_secs: 300}\n";
        assert_eq!(run(probe).recorded(), Recorded::Probe);
    }
}
