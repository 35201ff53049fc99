//! What the evidence says differently: the typed report and how it is computed.
//!
//! Rewritten run records come first (see [`super::rewrites`]): they break a rule rather
//! than change what the evidence says.
//!
//! Records are compared through their JSON form (the same graph as `evidence.json`),
//! field by field; claims, runs and dispatch maps get sections of their own because
//! their meaning is more than their fields: a claim can move between cannot-show and
//! can-show, a case value can cross a threshold, a changed bound flips derived zones.

use super::rewrites::{self, Rewrite, RunFiles};
use super::site_files::SiteFiles;
use evidence_core::derive::zone;
use evidence_core::model::format::Decimal;
use evidence_core::model::page::{Lang, PageSource};
use evidence_core::model::registry::{self, Compare, Kind};
use evidence_core::model::values::Values;
use evidence_core::model::{Claim, Evidence, Run};
use evidence_core::pipeline::Loaded;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One side of the comparison (base or head), as the report needs it.
pub struct Compared<'a> {
    pub ev: &'a Evidence,
    pub loaded: &'a Loaded,
    pub json: Value,
    /// The text of its run files, to tell a rewritten run.
    pub run_files: RunFiles,
    /// `evidence.yaml`, the site's messages, templates and static files.
    pub site: SiteFiles,
}

impl<'a> Compared<'a> {
    pub fn new(loaded: &'a Loaded, run_files: RunFiles, site: SiteFiles) -> Compared<'a> {
        let json = Values::new(&loaded.evidence).json(&loaded.evidence).clone();
        Compared {
            ev: &loaded.evidence,
            loaded,
            json,
            run_files,
            site,
        }
    }
}

#[derive(Debug, Serialize, PartialEq)]
pub struct Report {
    pub base: String,
    pub head: String,
    /// Run files changed or removed: a breach, not an evidence change.
    pub rewrites: Vec<Rewrite>,
    pub claims: Vec<ClaimChange>,
    pub runs: RunsChange,
    pub maps: Vec<MapChange>,
    pub records: Vec<RecordChange>,
    pub texts: Vec<TextChange>,
    pub pages: PagesChange,
    /// What still cites or quotes a changed map, record or run: to re-read.
    pub reread: Vec<super::reread::Reread>,
    /// `.gitattributes` files that bear on the site and changed: the diff reads committed
    /// files as they are, so these change nothing it reads, but they change what
    /// `git archive` (and anything built on it) would.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub git_attributes: Vec<AttributesChange>,
    /// The head side's languages (their tags): the only values the review page declares
    /// as a `lang`.
    #[serde(skip)]
    pub languages: Vec<String>,
    /// The labels the formats show measurements and zones by (the JSON keeps the ids).
    #[serde(skip)]
    pub labels: Labels,
}

/// What a reader calls each measurement and each zone (family): its label as the site
/// writes it for a reviewer ([`evidence_core::model::Text::reading`]), of the head side or else
/// the base; an id without a label is shown as itself.
#[derive(Debug, PartialEq, Default)]
pub struct Labels {
    measurements: BTreeMap<String, String>,
    zones: BTreeMap<String, String>,
}

impl Labels {
    /// The labels of both sides, the head's first: the site's vocabulary, then the labels
    /// a pack gives the measurements its runs record (a message of the site's locales).
    pub fn of(head: &Compared, base: &Compared) -> Labels {
        let mut l = Labels::vocabulary(head.ev, base.ev);
        for side in [head, base] {
            l.pack_measurements(side);
        }
        l
    }

    /// The labels the pack on at `side` gives the measurements its runs record, where the
    /// site's vocabulary gives none.
    fn pack_measurements(&mut self, side: &Compared) {
        let ev = side.ev;
        let msgs =
            evidence_core::load::messages::Messages::load(&side.loaded.theme, ev.languages());
        let names = ev
            .runs
            .iter()
            .flat_map(|r| r.cases.iter())
            .flat_map(|c| c.measured());
        for name in names {
            if self.measurements.contains_key(name) {
                continue;
            }
            if let Some(f) = ev.pack_measurement(name).filter(|f| !f.label.is_empty()) {
                let label = msgs.text(f.label).reading().to_string();
                self.measurements.insert(name.to_string(), label);
            }
        }
    }

    /// The labels of the sites' own vocabularies, the head's first.
    fn vocabulary(head: &Evidence, base: &Evidence) -> Labels {
        let mut l = Labels::default();
        for ev in [head, base] {
            for m in ev.measurements.iter() {
                l.measurements
                    .entry(m.id.value.clone())
                    .or_insert_with(|| m.label.reading().to_string());
            }
            for f in ev.families.iter() {
                l.zones
                    .entry(f.id.value.clone())
                    .or_insert_with(|| f.label.reading().to_string());
            }
        }
        l
    }

    /// A measurement's label, or its id.
    pub fn measurement<'a>(&'a self, id: &'a str) -> &'a str {
        self.measurements.get(id).map_or(id, String::as_str)
    }

    /// A zone's label, its id, or "—" for none.
    pub fn zone<'a>(&'a self, id: &'a Option<String>) -> &'a str {
        match id {
            Some(z) => self.zones.get(z).map_or(z.as_str(), String::as_str),
            None => "—",
        }
    }
}

/// A `.gitattributes` file added, removed or changed, by its path in the repository.
#[derive(Debug, Serialize, PartialEq)]
pub struct AttributesChange {
    pub path: String,
    pub change: Change,
}

#[derive(Debug, Serialize, PartialEq, Clone)]
pub struct FieldChange {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
}

#[derive(Debug, Serialize, PartialEq, Clone, Copy, PartialOrd, Ord, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Added,
    Removed,
    Changed,
}

/// A text whose one language changed while the other did not.
#[derive(Debug, Serialize, PartialEq, Clone)]
pub struct Drift {
    pub path: String,
    /// The language that changed.
    pub changed: &'static str,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct ClaimChange {
    pub id: String,
    pub page: String,
    pub change: Change,
    /// Set when a text moved between cannot-show and can-show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved: Option<Move>,
    pub fields: Vec<FieldChange>,
    pub drift: Vec<Drift>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct Move {
    /// `cannot-to-can` or `can-to-cannot`.
    pub direction: &'static str,
    /// The claim the text was in before.
    pub from_claim: String,
    /// The text that moved, in every language.
    pub text: evidence_core::model::Text,
    /// Its wording before, on the side it moved from (`None` when the claim it came from
    /// had no text there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_before: Option<evidence_core::model::Text>,
    /// Evidence cited now that the earlier claim did not cite.
    pub evidence_added: Vec<String>,
    pub constraint_before: Option<String>,
    pub constraint_after: Option<String>,
}

#[derive(Debug, Serialize, PartialEq, Default)]
pub struct RunsChange {
    pub added: Vec<RunRef>,
    pub removed: Vec<RunRef>,
    /// Per probe, the latest run on each side and the per-case changes between them.
    pub latest: Vec<LatestChange>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct RunRef {
    pub id: String,
    pub probe: String,
    pub date: Option<String>,
    /// What a reviewer needs to tell whose evidence a new run is: its engine, what it
    /// served as its pack records it beside the engine (`model`, `endpoint`), the
    /// environment it recorded (host, CPU, devices …, as the probe named them) and subject.
    pub engine: String,
    #[serde(flatten)]
    pub served: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub environment: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// What an added run measured, so that a comparison run or a new probe's first run
    /// reads as fully as one that replaces a latest run; empty for a removed run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<RunShown>,
}

/// An added run's note, case count, cases and site page.
#[derive(Debug, Serialize, PartialEq, Default)]
pub struct RunShown {
    /// The note in the site's leading language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How many cases the run recorded (each repetition counted).
    pub case_count: usize,
    /// Per case key (a repeated case by its medians), its values and zones.
    pub cases: Vec<CaseShown>,
    /// The id of the run's page on the site (`runs/<id>`), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// The page's address, when the site declares its `base_url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// One case of an added run: its values and the zone each map puts it in.
#[derive(Debug, Serialize, PartialEq)]
pub struct CaseShown {
    pub case: String,
    /// How many repetitions the values are the medians of, when more than one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<usize>,
    pub values: Vec<Measured>,
    pub zones: Vec<ZoneOf>,
}

/// A measurement's value with its unit.
#[derive(Debug, Serialize, PartialEq)]
pub struct Measured {
    pub field: String,
    pub value: Decimal,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

/// The zone a map puts a case in.
#[derive(Debug, Serialize, PartialEq)]
pub struct ZoneOf {
    pub map: String,
    pub zone: String,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct LatestChange {
    pub probe: String,
    pub base_run: String,
    pub head_run: String,
    pub cases: Vec<CaseChange>,
    /// Case keys the head's latest run has and the base's had not.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases_added: Vec<String>,
    /// Case keys the base's latest run had and the head's has not.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases_dropped: Vec<String>,
}

impl LatestChange {
    /// Whether the latest run's cases changed: a value or zone, or a case added or dropped.
    pub fn has_changes(&self) -> bool {
        !(self.cases.is_empty() && self.cases_added.is_empty() && self.cases_dropped.is_empty())
    }
}

#[derive(Debug, Serialize, PartialEq)]
pub struct CaseChange {
    /// The case's key: its id, or for a repeated case the id it repeats.
    pub case: String,
    /// How many repetitions the medians were taken of (before, after), for a repeated
    /// case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<[usize; 2]>,
    pub values: Vec<ValueDelta>,
    pub zones: Vec<ZoneFlip>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct ValueDelta {
    pub field: String,
    pub old: Option<Decimal>,
    pub new: Option<Decimal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta: Option<Decimal>,
    /// The change relative to the old value, in percent (one decimal), when it was > 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<Decimal>,
    /// The measurement's unit: as the site declares it, `ns` for a duration in ns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

#[derive(Debug, Serialize, PartialEq, Clone)]
pub struct ZoneFlip {
    pub map: String,
    pub old: Option<String>,
    pub new: Option<String>,
    /// The map the run was assessed against, when another: its zone under this one is
    /// derived, not what the investigator read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assessed_against: Option<String>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct MapChange {
    pub id: String,
    /// The variable the map's branches test (of the newer side, or the only one).
    pub variable: String,
    pub change: Change,
    pub fields: Vec<FieldChange>,
    /// Recorded cases whose derived zone the change flips.
    pub flips: Vec<CaseFlip>,
    /// The map's diagram on the older and the newer side, as inline SVG, when asked for
    /// ([`super::diff_drawing`]): the review page shows them side by side.
    #[serde(skip)]
    pub before_svg: Option<String>,
    #[serde(skip)]
    pub after_svg: Option<String>,
    /// For each run with a flipped case, its plot over the map's zones before and after.
    #[serde(skip)]
    pub flip_plots: Vec<FlipPlot>,
}

/// A run's plot over the zones of a changed map, on each side ([`MapChange::flip_plots`]).
#[derive(Debug, PartialEq)]
pub struct FlipPlot {
    pub run: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct CaseFlip {
    pub run: String,
    pub case: String,
    /// What the case measured the map's variable as (`DispatchMap::measured_as`).
    pub value: Decimal,
    pub old: Option<String>,
    pub new: Option<String>,
    /// The map the run was assessed against, when another ([`ZoneFlip::assessed_against`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assessed_against: Option<String>,
}

/// The map `run` was assessed against, when it is not `map`.
fn assessed_elsewhere(run: &Run, map: &str) -> Option<String> {
    run.assessed_against
        .as_ref()
        .map(|a| a.value.clone())
        .filter(|a| a != map)
}

#[derive(Debug, Serialize, PartialEq)]
pub struct RecordChange {
    pub kind: String,
    pub id: String,
    pub change: Change,
    pub fields: Vec<FieldChange>,
    pub drift: Vec<Drift>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct TextChange {
    pub page: String,
    /// 1-based number of the block group on the page (in the newer side).
    pub pair: usize,
    pub change: Change,
    /// Languages whose text changed.
    pub langs: Vec<&'static str>,
    /// True when some but not all languages of an existing group changed.
    pub drift: bool,
    /// The block of each language that changed, before and after (one side only for a
    /// group added or removed).
    pub edits: Vec<TextEdit>,
}

/// One language's block of a changed group, before and after.
#[derive(Debug, Serialize, PartialEq)]
pub struct TextEdit {
    pub lang: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
}

#[derive(Debug, Serialize, PartialEq, Default)]
pub struct PagesChange {
    pub added: Vec<String>,
    pub removed: Vec<String>,
}

impl Report {
    /// Whether anything differs.
    pub fn is_empty(&self) -> bool {
        self.rewrites.is_empty()
            && self.claims.is_empty()
            && self.runs.added.is_empty()
            && self.runs.removed.is_empty()
            && self.runs.latest.iter().all(|l| !l.has_changes())
            && self.maps.is_empty()
            && self.records.is_empty()
            && self.texts.is_empty()
            && self.pages.added.is_empty()
            && self.pages.removed.is_empty()
            && self.git_attributes.is_empty()
    }
}

/// Builds the report.
pub fn compare(base: &Compared, head: &Compared, base_label: &str, head_label: &str) -> Report {
    let mut report = Report {
        base: base_label.to_string(),
        head: head_label.to_string(),
        rewrites: rewrites::find(base, head),
        claims: claims(base, head),
        runs: runs(base, head),
        maps: maps(base, head),
        records: {
            let mut r = records(base, head);
            r.extend(front_matter(base.ev, head.ev));
            r.extend(super::site_files::changes(base, head));
            r
        },
        texts: texts(base.ev, head.ev),
        pages: pages(base.ev, head.ev),
        reread: Vec::new(),
        git_attributes: Vec::new(),
        languages: languages(base.ev, head.ev),
        labels: Labels::of(head, base),
    };
    report.reread = super::reread::find(base, head, &report);
    report
}

/// The tags of the languages of either side, each once, in the order the sites list them.
fn languages(base: &Evidence, head: &Evidence) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    for l in head.languages().iter().chain(base.languages()) {
        if !tags.iter().any(|t| t == l.code()) {
            tags.push(l.code().to_string());
        }
    }
    tags
}

// ------------------------------------------------------------------ generic fields

/// Flattens a record to `path → value`; texts become `path.<tag>` (`path.ja`), lists of
/// records are keyed by id (`cases[short_np1].eval_count`).
fn flatten(v: &Value, path: &str, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                flatten(x, &p, out);
            }
        }
        Value::Array(items)
            if !items.is_empty()
                && items
                    .iter()
                    .all(|i| i.get("id").is_some_and(Value::is_string)) =>
        {
            for it in items {
                let id = it.get("id").and_then(Value::as_str).unwrap_or_default();
                flatten(it, &format!("{path}[{id}]"), out);
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
            for (i, it) in items.iter().enumerate() {
                flatten(it, &format!("{path}[{i}]"), out);
            }
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(scalar_text).collect();
            out.insert(path.to_string(), format!("[{}]", parts.join(", ")));
        }
        other => {
            out.insert(path.to_string(), scalar_text(other));
        }
    }
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Field-by-field changes between two records, and translation drift among the texts in
/// `langs`.
pub(super) fn fields(
    old: Option<&Value>,
    new: Option<&Value>,
    langs: &[Lang],
) -> (Vec<FieldChange>, Vec<Drift>) {
    let mut a = BTreeMap::new();
    let mut b = BTreeMap::new();
    if let Some(o) = old {
        flatten(o, "", &mut a);
    }
    if let Some(n) = new {
        flatten(n, "", &mut b);
    }
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let mut changes = Vec::new();
    for k in keys {
        let (o, n) = (a.get(k), b.get(k));
        if o != n {
            changes.push(FieldChange {
                path: k.clone(),
                old: o.cloned(),
                new: n.cloned(),
            });
        }
    }
    let drift = drift(&changes, &a, &b, langs);
    (changes, drift)
}

/// A text some of whose languages changed while another stayed, every language present
/// on both sides.
fn drift(
    changes: &[FieldChange],
    a: &BTreeMap<String, String>,
    b: &BTreeMap<String, String>,
    langs: &[Lang],
) -> Vec<Drift> {
    let changed: BTreeSet<&str> = changes.iter().map(|c| c.path.as_str()).collect();
    let mut out = Vec::new();
    for c in changes {
        for &lang in langs {
            let Some(stem) = c.path.strip_suffix(&format!(".{lang}")) else {
                continue;
            };
            let paths: Vec<String> = langs.iter().map(|l| format!("{stem}.{l}")).collect();
            let existed = paths.iter().all(|p| a.contains_key(p) && b.contains_key(p));
            let stayed = paths.iter().any(|p| !changed.contains(p.as_str()));
            if existed && stayed {
                out.push(Drift {
                    path: stem.to_string(),
                    changed: lang.code(),
                });
            }
        }
    }
    out
}

/// How a record changed between the sides; `None` when it is the same (or on neither).
fn change_of(old: Option<&Value>, new: Option<&Value>) -> Option<Change> {
    match (old, new) {
        (None, Some(_)) => Some(Change::Added),
        (Some(_), None) => Some(Change::Removed),
        (Some(a), Some(b)) if a != b => Some(Change::Changed),
        _ => None,
    }
}

/// Records of one kind on both sides, by id.
pub(super) fn kind<'v>(v: &'v Compared, kind: &str) -> BTreeMap<&'v str, &'v Value> {
    v.json
        .get(kind)
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

fn records(base: &Compared, head: &Compared) -> Vec<RecordChange> {
    let mut out = Vec::new();
    // Kinds with a section of their own (claims, runs, maps, pages) are reported there.
    let generic = registry::all()
        .map(Kind::spec)
        .filter(|s| s.compare == Compare::Fields);
    let mut names: Vec<&str> = generic.map(|s| s.name).collect();
    // Declared collections are keyed by their own names: any key no registry kind has.
    for side in [base, head] {
        if let Some(m) = side.json.as_object() {
            names.extend(
                m.keys()
                    .map(String::as_str)
                    .filter(|k| Kind::from_name(k).is_none()),
            );
        }
    }
    names.sort_unstable();
    names.dedup();
    for k in names {
        let (a, b) = (kind(base, k), kind(head, k));
        let ids: BTreeSet<&str> = a.keys().chain(b.keys()).copied().collect();
        for id in ids {
            let (o, n) = (a.get(id).copied(), b.get(id).copied());
            let Some(change) = change_of(o, n) else {
                continue;
            };
            let (fields, drift) = if change == Change::Changed {
                fields(o, n, head.ev.languages())
            } else {
                (Vec::new(), Vec::new())
            };
            out.push(RecordChange {
                kind: k.to_string(),
                id: id.to_string(),
                change,
                fields,
                drift,
            });
        }
    }
    out
}

// ------------------------------------------------------------------ claims

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Claims whose text on `side` matches `text` in any language.
fn find_text<'e>(
    ev: &'e Evidence,
    text: &evidence_core::model::Text,
    cannot: bool,
) -> Option<&'e Claim> {
    let wanted: Vec<(Lang, String)> = text.iter().map(|(l, s)| (l, norm(s))).collect();
    ev.claims.iter().map(|c| &c.value).find(|c| {
        let t = if cannot { &c.cannot } else { &c.can };
        t.iter()
            .any(|(l, s)| wanted.iter().any(|(m, w)| *m == l && norm(s) == *w))
    })
}

/// The claim of the base whose side the head's claim `c` says it moved from: a move is
/// data ([`Claim::moved`]), reported whatever the wording when it is new in `c`.
fn declared_move<'e>(base: &'e Evidence, c: &Claim) -> Option<(&'static str, &'e Claim)> {
    use evidence_core::model::types::ClaimSide;
    let m = c.moved.as_ref()?;
    let before = base.claims.get(&c.id.value);
    if before.is_some_and(|b| b.moved.as_ref() == Some(m)) {
        return None;
    }
    let from = m
        .claim
        .as_ref()
        .map_or(c.id.value.as_str(), |x| x.value.as_str());
    let direction = match m.from {
        ClaimSide::Cannot => "cannot-to-can",
        ClaimSide::Can => "can-to-cannot",
    };
    Some((direction, base.claims.get(from).map(|x| &x.value)?))
}

fn moved(base: &Evidence, c: &Claim) -> Option<Move> {
    // Declared in data first; else a text copied word for word from the other side.
    let (direction, from) = if let Some(declared) = declared_move(base, c) {
        declared
    } else if let Some(from) = find_text(base, &c.can, true) {
        ("cannot-to-can", from)
    } else {
        ("can-to-cannot", find_text(base, &c.cannot, false)?)
    };
    let (text, was) = if direction == "cannot-to-can" {
        (&c.can, &from.cannot)
    } else {
        (&c.cannot, &from.can)
    };
    let before: BTreeSet<&str> = from.evidence.iter().map(|e| e.value.as_str()).collect();
    Some(Move {
        direction,
        from_claim: from.id.value.clone(),
        text: text.clone(),
        text_before: (!was.reading().trim().is_empty()).then(|| was.clone()),
        evidence_added: c
            .evidence
            .iter()
            .map(|e| e.value.clone())
            .filter(|e| !before.contains(e.as_str()))
            .collect(),
        constraint_before: from.constraint.as_ref().map(|x| x.value.clone()),
        constraint_after: c.constraint.as_ref().map(|x| x.value.clone()),
    })
}

fn claims(base: &Compared, head: &Compared) -> Vec<ClaimChange> {
    let (a, b) = (kind(base, "claim"), kind(head, "claim"));
    let ids: BTreeSet<&str> = a.keys().chain(b.keys()).copied().collect();
    let mut out = Vec::new();
    for id in ids {
        let (o, n) = (a.get(id).copied(), b.get(id).copied());
        let Some(change) = change_of(o, n) else {
            continue;
        };
        let side = if change == Change::Removed {
            base.ev
        } else {
            head.ev
        };
        let Some(claim) = side.claims.get(id) else {
            continue;
        };
        let mv = if change == Change::Removed {
            None
        } else {
            moved(base.ev, claim)
        };
        let (fields, drift) = if change == Change::Changed {
            fields(o, n, head.ev.languages())
        } else {
            (Vec::new(), Vec::new())
        };
        out.push(ClaimChange {
            id: id.to_string(),
            page: claim.page.value.clone(),
            change,
            moved: mv,
            fields,
            drift,
        });
    }
    // A move is the headline: list moves first, then the rest by id.
    out.sort_by_key(|c| (c.moved.is_none(), c.id.clone()));
    out
}

// ------------------------------------------------------------------ runs

fn run_ref(ev: &Evidence, r: &Run) -> RunRef {
    RunRef {
        id: r.id.value.clone(),
        probe: r.probe.clone(),
        date: r.date.as_ref().map(|d| d.value.clone()),
        engine: r
            .engine()
            .map_or(evidence_core::model::types::NO_ENGINE, |e| e.value.as_str())
            .to_string(),
        served: r
            .values
            .leading_texts(evidence_core::model::fields::Place::Run)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        environment: r.environment.clone(),
        subject: ev.subject_of(r).map(String::from),
        shown: None,
    }
}

/// What an added run shows a reviewer: note, case count, per-case values and zones, and
/// its page.
fn run_shown(side: &Compared, r: &Run) -> RunShown {
    let ev = side.ev;
    let page = ev
        .pages
        .iter()
        .find(|p| is_page_of_run(p, &r.id.value))
        .map(|p| p.id.clone());
    let url = page.as_ref().and_then(|p| {
        let base = ev.config.as_ref()?.base_url.as_ref()?;
        Some(format!("{}{p}/", base.value))
    });
    let summaries = side.loaded.derived.summaries(r);
    let cases = summaries
        .keys()
        .filter_map(|key| {
            let s = summaries.get(key)?;
            Some(case_shown(ev, key, s))
        })
        .collect();
    RunShown {
        note: r.note.as_ref().map(|t| t.reading().to_string()),
        case_count: r.cases.len(),
        cases,
        page,
        url,
    }
}

/// Whether `p` is the page generated for run `id`.
fn is_page_of_run(p: &PageSource, id: &str) -> bool {
    p.items.first().is_some_and(|i| match i {
        evidence_core::model::page::Item::Directive(d) => {
            d.name == evidence_core::model::generated::RUN_PAGE
                && d.attrs.get("id").map(String::as_str) == Some(id)
        }
        _ => false,
    })
}

/// One case key's values (in the site's order of measurements) and zones.
fn case_shown(ev: &Evidence, key: &str, s: evidence_core::derive::matching::Summary) -> CaseShown {
    let mut names: Vec<&str> = s.values.keys().collect();
    names.sort_by_cached_key(|n| (ev.measurement_rank(n), *n));
    let values = names
        .into_iter()
        .filter_map(|field| {
            Some(Measured {
                field: field.to_string(),
                value: Decimal(s.measurement(field)?),
                unit: unit_of(ev, field),
            })
        })
        .collect();
    let zones = ev
        .maps
        .iter()
        .filter_map(|m| {
            let z = s.measurement(m.measured_as()).and_then(|v| zone(m, v))?;
            Some(ZoneOf {
                map: m.id.value.clone(),
                zone: z.to_string(),
            })
        })
        .collect();
    CaseShown {
        case: key.to_string(),
        repeats: (s.n > 1).then_some(s.n),
        values,
        zones,
    }
}

/// The unit a measurement is read in (`ns` for a duration the site shows in seconds).
fn unit_of(ev: &Evidence, field: &str) -> Option<String> {
    ev.measurements
        .get(field)
        .and_then(|m| m.unit.as_ref())
        .map(|u| u.reading().to_string())
        .or_else(|| evidence_core::model::fields::is_duration(field).then(|| "ns".to_string()))
}

fn runs(base: &Compared, head: &Compared) -> RunsChange {
    let mut rc = RunsChange::default();
    for r in head
        .ev
        .runs
        .iter()
        .filter(|r| !base.ev.runs.contains(&r.id.value))
    {
        let mut x = run_ref(head.ev, r);
        x.shown = Some(run_shown(head, r));
        rc.added.push(x);
    }
    for r in base
        .ev
        .runs
        .iter()
        .filter(|r| !head.ev.runs.contains(&r.id.value))
    {
        rc.removed.push(run_ref(base.ev, r));
    }
    rc.added.sort_by(|x, y| x.id.cmp(&y.id));
    rc.removed.sort_by(|x, y| x.id.cmp(&y.id));
    let probes: BTreeSet<&String> = base
        .loaded
        .derived
        .runs_by_probe
        .keys()
        .chain(head.loaded.derived.runs_by_probe.keys())
        .collect();
    for probe in probes {
        let (Some(old), Some(new)) = (
            base.loaded.derived.latest(base.ev, probe),
            head.loaded.derived.latest(head.ev, probe),
        ) else {
            continue;
        };
        let (before, after) = (
            base.loaded.derived.summaries(old),
            head.loaded.derived.summaries(new),
        );
        let latest = LatestChange {
            probe: probe.clone(),
            base_run: old.id.value.clone(),
            head_run: new.id.value.clone(),
            cases: case_changes(base, head, old, new),
            cases_added: keys_only_in(&after, &before),
            cases_dropped: keys_only_in(&before, &after),
        };
        if old.id.value != new.id.value || latest.has_changes() {
            rc.latest.push(latest);
        }
    }
    rc
}

/// The case keys of `a` that `b` does not have, in `a`'s order.
fn keys_only_in(
    a: &evidence_core::derive::matching::RunSummaries,
    b: &evidence_core::derive::matching::RunSummaries,
) -> Vec<String> {
    a.keys()
        .filter(|k| b.get(k).is_none())
        .map(str::to_string)
        .collect()
}

/// The cases of the latest runs that changed, matched by case key the way the site
/// compares runs: a repeated case (`short-r1` … `short-r3`) by the medians of its
/// repetitions.
fn case_changes(base: &Compared, head: &Compared, old: &Run, new: &Run) -> Vec<CaseChange> {
    let (bev, hev) = (base.ev, head.ev);
    let (before, after) = (
        base.loaded.derived.summaries(old),
        head.loaded.derived.summaries(new),
    );
    let mut out = Vec::new();
    for key in after.keys() {
        let (Some(o), Some(n)) = (before.get(key), after.get(key)) else {
            continue;
        };
        // Every measurement either side has, in the order the site shows them.
        let mut names: Vec<&str> = o.values.keys().chain(n.values.keys()).collect();
        names.sort_unstable();
        names.dedup();
        names.sort_by_cached_key(|n| (hev.measurement_rank(n), *n));
        let values: Vec<ValueDelta> = names
            .into_iter()
            .map(|field| (field, o.measurement(field), n.measurement(field)))
            .filter(|(_, a, b)| a != b)
            .map(|(field, a, b)| ValueDelta {
                field: field.to_string(),
                old: a.map(Decimal),
                new: b.map(Decimal),
                delta: a
                    .zip(b)
                    .map(|(a, b)| Decimal(evidence_core::model::format::difference(a, b))),
                percent: a
                    .zip(b)
                    .filter(|(a, _)| *a > 0.0)
                    .map(|(a, b)| Decimal(((b - a) / a * 1000.0).round() / 10.0)),
                unit: unit_of(hev, field),
            })
            .collect();
        let zone_of = |m: &evidence_core::model::DispatchMap,
                       s: evidence_core::derive::matching::Summary| {
            s.measurement(m.measured_as())
                .and_then(|v| evidence_core::derive::zone(m, v))
                .map(String::from)
        };
        let mut zones = Vec::new();
        for m in hev.maps.iter() {
            let was = bev.maps.get(&m.id.value).and_then(|bm| zone_of(bm, o));
            let is = zone_of(m, n);
            if was != is {
                zones.push(ZoneFlip {
                    map: m.id.value.clone(),
                    old: was,
                    new: is,
                    assessed_against: assessed_elsewhere(new, &m.id.value),
                });
            }
        }
        if !values.is_empty() || !zones.is_empty() {
            out.push(CaseChange {
                case: key.to_string(),
                repeats: (o.n > 1 || n.n > 1).then_some([o.n, n.n]),
                values,
                zones,
            });
        }
    }
    out
}

// ------------------------------------------------------------------ dispatch maps

fn maps(base: &Compared, head: &Compared) -> Vec<MapChange> {
    let (a, b) = (kind(base, "map"), kind(head, "map"));
    let ids: BTreeSet<&str> = a.keys().chain(b.keys()).copied().collect();
    let mut out = Vec::new();
    for id in ids {
        let (o, n) = (a.get(id).copied(), b.get(id).copied());
        let Some(change) = change_of(o, n) else {
            continue;
        };
        let (fields, _) = if change == Change::Changed {
            fields(o, n, head.ev.languages())
        } else {
            (Vec::new(), Vec::new())
        };
        let flips = match (base.ev.maps.get(id), head.ev.maps.get(id)) {
            (Some(bm), Some(hm)) => flips(base.ev, head.ev, bm, hm),
            _ => Vec::new(),
        };
        let variable = head
            .ev
            .maps
            .get(id)
            .or_else(|| base.ev.maps.get(id))
            .map(|m| m.variable.clone())
            .unwrap_or_default();
        out.push(MapChange {
            id: id.to_string(),
            variable,
            change,
            fields,
            flips,
            before_svg: None,
            after_svg: None,
            flip_plots: Vec::new(),
        });
    }
    out
}

/// Every recorded case whose zone differs between two versions of a map, of the runs on
/// both sides: a run new in the head was never read under the old map (its zones are
/// shown with it, as an added run).
fn flips(
    base: &Evidence,
    ev: &Evidence,
    old: &evidence_core::model::DispatchMap,
    new: &evidence_core::model::DispatchMap,
) -> Vec<CaseFlip> {
    let mut out = Vec::new();
    for r in ev.runs.iter().filter(|r| base.runs.contains(&r.id.value)) {
        for c in &r.cases {
            // Each map places the case by its own measurement.
            let Some(n) = c.measurement(new.measured_as()) else {
                continue;
            };
            let a = c.measurement(old.measured_as()).and_then(|v| zone(old, v));
            let b = zone(new, n);
            if a != b {
                out.push(CaseFlip {
                    run: r.id.value.clone(),
                    case: c.id.value.clone(),
                    value: Decimal(n),
                    old: a.map(String::from),
                    new: b.map(String::from),
                    assessed_against: assessed_elsewhere(r, &new.id.value),
                });
            }
        }
    }
    out
}

// ------------------------------------------------------------------ pages and prose

/// A page's front matter (title, description, order, date) changed field by field, with
/// translation drift: a page on both sides is a record of kind `page`.
fn front_matter(base: &Evidence, head: &Evidence) -> Vec<RecordChange> {
    let mut out = Vec::new();
    for hp in head.pages.iter().filter(|p| !p.generated) {
        let Some(bp) = base.page(&hp.id).filter(|p| !p.generated) else {
            continue;
        };
        let (a, b) = (
            serde_json::to_value(&bp.front).unwrap_or(Value::Null),
            serde_json::to_value(&hp.front).unwrap_or(Value::Null),
        );
        if a == b {
            continue;
        }
        let (fields, drift) = fields(Some(&a), Some(&b), head.languages());
        out.push(RecordChange {
            kind: "page".into(),
            id: hp.id.clone(),
            change: Change::Changed,
            fields,
            drift,
        });
    }
    out
}

fn pages(base: &Evidence, head: &Evidence) -> PagesChange {
    // A run's page comes and goes with the run, which the report names already.
    let ids = |ev: &Evidence| -> BTreeSet<String> {
        ev.pages
            .iter()
            .filter(|p| !p.generated)
            .map(|p| p.id.clone())
            .collect()
    };
    let (a, b) = (ids(base), ids(head));
    PagesChange {
        added: b.difference(&a).map(|s| s.to_string()).collect(),
        removed: a.difference(&b).map(|s| s.to_string()).collect(),
    }
}

/// The block groups of a page ([`PageSource::block_groups`]) as (language, markdown).
fn pairs(p: &PageSource) -> Vec<Vec<(Lang, String)>> {
    p.block_groups()
        .into_iter()
        .map(|g| g.iter().map(|b| (b.lang, b.markdown.to_string())).collect())
        .collect()
}

fn texts(base: &Evidence, head: &Evidence) -> Vec<TextChange> {
    let mut out = Vec::new();
    for hp in &head.pages {
        let Some(bp) = base.page(&hp.id) else {
            continue;
        };
        let (a, b) = (pairs(bp), pairs(hp));
        let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b);
        for op in ops {
            let (old_r, new_r) = (op.old_range(), op.new_range());
            match op.tag() {
                similar::DiffTag::Equal => {}
                similar::DiffTag::Insert => {
                    out.extend(new_r.map(|j| added_pair(&hp.id, j, &b[j], Change::Added)));
                }
                similar::DiffTag::Delete => {
                    out.extend(old_r.map(|i| added_pair(&hp.id, i, &a[i], Change::Removed)));
                }
                similar::DiffTag::Replace => {
                    let n = old_r.len().min(new_r.len());
                    for k in 0..n {
                        out.push(changed_pair(
                            &hp.id,
                            new_r.start + k,
                            &a[old_r.start + k],
                            &b[new_r.start + k],
                        ));
                    }
                    out.extend(
                        new_r
                            .clone()
                            .skip(n)
                            .map(|j| added_pair(&hp.id, j, &b[j], Change::Added)),
                    );
                    out.extend(
                        old_r
                            .clone()
                            .skip(n)
                            .map(|i| added_pair(&hp.id, i, &a[i], Change::Removed)),
                    );
                }
            }
        }
    }
    out
}

fn added_pair(page: &str, i: usize, p: &[(Lang, String)], change: Change) -> TextChange {
    let edits = p
        .iter()
        .map(|(l, s)| {
            let side = Some(s.clone());
            let (old, new) = if change == Change::Added {
                (None, side)
            } else {
                (side, None)
            };
            TextEdit {
                lang: l.code(),
                old,
                new,
            }
        })
        .collect();
    TextChange {
        page: page.to_string(),
        pair: i + 1,
        change,
        langs: p.iter().map(|(l, _)| l.code()).collect(),
        drift: false,
        edits,
    }
}

fn changed_pair(page: &str, j: usize, a: &[(Lang, String)], b: &[(Lang, String)]) -> TextChange {
    let text =
        |g: &[(Lang, String)], l: Lang| g.iter().find(|(m, _)| *m == l).map(|(_, s)| s.clone());
    let mut all: Vec<Lang> = b.iter().map(|(l, _)| *l).collect();
    all.extend(
        a.iter()
            .map(|(l, _)| *l)
            .filter(|l| !b.iter().any(|(m, _)| m == l)),
    );
    let langs: Vec<&'static str> = all
        .iter()
        .filter(|&&l| text(a, l) != text(b, l))
        .map(|l| l.code())
        .collect();
    // Some languages changed and others did not: a translation fell behind.
    let drift = !langs.is_empty() && langs.len() < all.len();
    let edits = all
        .iter()
        .filter(|&&l| text(a, l) != text(b, l))
        .map(|&l| TextEdit {
            lang: l.code(),
            old: text(a, l),
            new: text(b, l),
        })
        .collect();
    TextChange {
        page: page.to_string(),
        pair: j + 1,
        change: Change::Changed,
        langs,
        drift,
        edits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flatten_keys_lists_by_id_and_splits_texts() {
        let mut out = BTreeMap::new();
        flatten(
            &json!({"cases": [{"id": "a", "n": 1}], "t": {"ja": "x", "en": "y"}, "l": [1, 2]}),
            "",
            &mut out,
        );
        assert_eq!(out["cases[a].n"], "1");
        assert_eq!(out["t.ja"], "x");
        assert_eq!(out["l"], "[1, 2]");
    }

    #[test]
    fn flatten_keys_lists_without_ids_by_position() {
        let mut out = BTreeMap::new();
        flatten(
            &json!({"objs": [1, {"n": 2}], "nested": [[3, 4], 5]}),
            "",
            &mut out,
        );
        // One object or list among the items is enough to key every item by position.
        assert_eq!(out["objs[0]"], "1");
        assert_eq!(out["objs[1].n"], "2");
        assert_eq!(out["nested[0]"], "[3, 4]");
        assert_eq!(out["nested[1]"], "5");
        assert_eq!(out.len(), 4);
    }

    #[test]
    fn drift_is_one_language_only() {
        let (f, d) = fields(
            Some(&json!({"t": {"ja": "a", "en": "b"}})),
            Some(&json!({"t": {"ja": "c", "en": "b"}})),
            Lang::DEFAULT,
        );
        assert_eq!(f.len(), 1);
        assert_eq!(
            d,
            vec![Drift {
                path: "t".into(),
                changed: "ja"
            }]
        );
        let (_, d) = fields(
            Some(&json!({"t": {"ja": "a", "en": "b"}})),
            Some(&json!({"t": {"ja": "c", "en": "d"}})),
            Lang::DEFAULT,
        );
        assert!(d.is_empty());
        // A translation added beside an unchanged text is not drift: it did not exist before.
        let (f, d) = fields(
            Some(&json!({"t": {"en": "b"}})),
            Some(&json!({"t": {"ja": "c", "en": "b"}})),
            Lang::DEFAULT,
        );
        assert_eq!(f.len(), 1);
        assert!(d.is_empty());
    }
}
