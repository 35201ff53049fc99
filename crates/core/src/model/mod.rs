//! Stage 2: the typed evidence graph.
//!
//! [`build`] indexes every collection by id and resolves every reference. A duplicate id,
//! a dangling reference or a malformed `kind:id` is reported at the place it was written.

pub mod bound;
pub mod declared;
pub mod directive;
pub mod fields;
pub mod format;
pub mod generated;
pub mod heading_ids;
pub mod history;
pub mod id;
pub mod json_schema;
pub mod lang;
pub mod located;
pub mod markup;
pub mod numerals;
pub mod pack;
pub mod page;
pub mod probe_file;
pub mod refs;
pub mod registry;
pub mod strings;
pub mod types;
pub mod values;
pub mod view;

use crate::diagnostics::{Diagnostic, Diagnostics};
pub use located::{Located, span_of};
use page::PageSource;
use refs::{Kind, Ref};
// FxHash: ids are the site's own, and SipHash was a visible share of looking pages up.
use rustc_hash::FxHashMap;
pub use types::*;

/// Records of one kind, in file order, indexed by id.
#[derive(Debug, Clone)]
pub struct Collection<T> {
    items: Vec<Located<T>>,
    index: FxHashMap<String, usize>,
}

impl<T> Default for Collection<T> {
    fn default() -> Self {
        Collection {
            items: Vec::new(),
            index: FxHashMap::default(),
        }
    }
}

impl<T> Collection<T> {
    pub fn get(&self, id: &str) -> Option<&Located<T>> {
        self.index.get(id).map(|&i| &self.items[i])
    }

    pub fn contains(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Located<T>> {
        self.items.iter()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A record type with an id.
pub trait Record {
    fn id(&self) -> &Id;
}

macro_rules! record {
    ($($t:ty),*) => { $(impl Record for $t { fn id(&self) -> &Id { &self.id } })* };
}
record!(
    Subject,
    Reading,
    Engine,
    Status,
    Measurement,
    TextField,
    Family,
    DispatchMap,
    Component,
    Observer,
    Phase,
    Claim,
    Question,
    Term,
    Finding,
    Route,
    Run
);

/// Indexes records, reporting a duplicate id at its second occurrence.
fn index<T: Record>(kind: Kind, items: Vec<Located<T>>, diags: &mut Diagnostics) -> Collection<T> {
    let mut col = Collection::default();
    for item in items {
        let id = item.value.id().value.clone();
        if let Some(&first) = col.index.get(&id) {
            let prev: &Located<T> = &col.items[first];
            let p = span_of(&prev.file, prev.value.id());
            diags.push(
                Diagnostic::error(
                    "duplicate-id",
                    item.span(item.value.id()),
                    format!("duplicate {} id `{id}`", kind.name()),
                )
                .with_hint(format!(
                    "first defined at {}:{}:{}",
                    p.file, p.line, p.column
                )),
            );
            continue;
        }
        // A declared record's key is `collection:id`, both checked where they are written.
        let own = match kind {
            Kind::Record => id.split_once(':').map_or(id.as_str(), |(_, own)| own),
            _ => id.as_str(),
        };
        if !refs::valid_id(own) {
            diags.push(
                Diagnostic::error(
                    "bad-id",
                    item.span(item.value.id()),
                    format!("`{id}` is not a valid id"),
                )
                .with_hint("ids use letters, digits, `_`, `-` and `.`"),
            );
        }
        col.index.insert(id, col.items.len());
        col.items.push(item);
    }
    col
}

/// Every data record, grouped by collection, before ids are resolved.
#[derive(Debug, Clone, Default)]
pub struct DataSet {
    pub families: Vec<Located<Family>>,
    pub maps: Vec<Located<DispatchMap>>,
    pub components: Vec<Located<Component>>,
    pub observers: Vec<Located<Observer>>,
    pub phases: Vec<Located<Phase>>,
    pub claims: Vec<Located<Claim>>,
    pub questions: Vec<Located<Question>>,
    pub terms: Vec<Located<Term>>,
    pub findings: Vec<Located<Finding>>,
    /// Records of the kinds packs add, by kind.
    pub pack: std::collections::BTreeMap<Kind, Vec<Located<pack::Shared>>>,
    pub routes: Vec<Located<Route>>,
    pub engines: Vec<Located<Engine>>,
    pub statuses: Vec<Located<Status>>,
    pub measurements: Vec<Located<Measurement>>,
    pub texts: Vec<Located<TextField>>,
    /// The declared probes under `data/probes/` (not the packs' cases files).
    pub probes: Vec<Located<probe_file::ProbeFile>>,
    pub subjects: Vec<Located<Subject>>,
    pub readings: Vec<Located<Reading>>,
    /// Records of declared collections as written, by collection name; typed against
    /// their declaration when the graph is built.
    pub written: Vec<(String, std::sync::Arc<str>, Vec<declared::WrittenRecord>)>,
    pub runs: Vec<Located<Run>>,
    /// Kinds whose file failed to parse: references to them are not reported as dangling,
    /// since the parse error already is.
    pub incomplete: std::collections::BTreeSet<Kind>,
}

/// Evaluates `$body` with `$c` bound to the collection of records of `$kind` in `$ev`
/// (a [`Collection`] of that kind's type), or `$pages` for pages. The one place that maps
/// a [`Kind`] to its collection, so that code generic over kinds (existence, "did you
/// mean", the JSON export, origins of data texts) lists no kind itself.
macro_rules! with_collection {
    ($ev:expr, $kind:expr, |$c:ident| $body:expr, pages => $pages:expr) => {
        match $kind {
            $crate::model::refs::Kind::Phase => {
                let $c = &$ev.phases;
                $body
            }
            $crate::model::refs::Kind::Run => {
                let $c = &$ev.runs;
                $body
            }
            $crate::model::refs::Kind::Observer => {
                let $c = &$ev.observers;
                $body
            }
            $crate::model::refs::Kind::Component => {
                let $c = &$ev.components;
                $body
            }
            $crate::model::refs::Kind::Question => {
                let $c = &$ev.questions;
                $body
            }
            $crate::model::refs::Kind::Finding => {
                let $c = &$ev.findings;
                $body
            }
            $crate::model::refs::Kind::Map => {
                let $c = &$ev.maps;
                $body
            }
            $crate::model::refs::Kind::Family => {
                let $c = &$ev.families;
                $body
            }
            $crate::model::refs::Kind::Claim => {
                let $c = &$ev.claims;
                $body
            }
            $crate::model::refs::Kind::Term => {
                let $c = &$ev.terms;
                $body
            }
            $crate::model::refs::Kind::Route => {
                let $c = &$ev.routes;
                $body
            }
            $crate::model::refs::Kind::Engine => {
                let $c = &$ev.engines;
                $body
            }
            $crate::model::refs::Kind::Status => {
                let $c = &$ev.statuses;
                $body
            }
            $crate::model::refs::Kind::Measurement => {
                let $c = &$ev.measurements;
                $body
            }
            $crate::model::refs::Kind::TextField => {
                let $c = &$ev.texts;
                $body
            }
            $crate::model::refs::Kind::Subject => {
                let $c = &$ev.subjects;
                $body
            }
            $crate::model::refs::Kind::Reading => {
                let $c = &$ev.readings;
                $body
            }
            $crate::model::refs::Kind::Record => {
                let $c = &$ev.records;
                $body
            }
            $crate::model::refs::Kind::Page => $pages,
            $crate::model::refs::Kind::Pack(_) => {
                let $c = $ev.pack_records($kind);
                $body
            }
        }
    };
}
pub(crate) use with_collection;

/// The resolved evidence graph.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    pub config: Option<SiteConfig>,
    pub families: Collection<Family>,
    pub maps: Collection<DispatchMap>,
    pub components: Collection<Component>,
    pub observers: Collection<Observer>,
    pub phases: Collection<Phase>,
    pub claims: Collection<Claim>,
    pub questions: Collection<Question>,
    pub terms: Collection<Term>,
    pub findings: Collection<Finding>,
    /// Records of the kinds packs add, by kind (read typed with `pack::Typed`).
    pub pack: std::collections::BTreeMap<Kind, Collection<pack::Shared>>,
    pub routes: Collection<Route>,
    pub engines: Collection<Engine>,
    pub statuses: Collection<Status>,
    pub measurements: Collection<Measurement>,
    /// The named texts cases record (`texts:` in `data/vocabulary.yaml`).
    pub texts: Collection<TextField>,
    /// The declared probes under `data/probes/`, in path order; run only by `evidence probe run`.
    pub probes: Vec<Located<probe_file::ProbeFile>>,
    pub subjects: Collection<Subject>,
    pub readings: Collection<Reading>,
    /// Records of declared collections, keyed `collection:id`, in file order.
    pub records: Collection<declared::Declared>,
    pub runs: Collection<Run>,
    /// Pages by id, in navigation order.
    pub pages: Vec<PageSource>,
    /// Page id → position in `pages`.
    page_index: FxHashMap<String, usize>,
    /// (run, case) → position in `readings` of the first reading of that case.
    reading_index: FxHashMap<(String, String), usize>,
    /// Kinds with a file that failed to load (see [`Evidence::is_missing`]).
    pub incomplete: std::collections::BTreeSet<Kind>,
    /// The git history of the data, when evidence.yaml asks for it (`history: true`).
    pub history: Option<history::History>,
}

/// The records of a pack kind no file held.
static NO_RECORDS: std::sync::LazyLock<Collection<pack::Shared>> =
    std::sync::LazyLock::new(Collection::default);

impl Evidence {
    /// The packs the site turned on.
    pub fn packs_on(&self) -> impl Iterator<Item = &'static pack::Pack> + '_ {
        self.config
            .iter()
            .flat_map(|c| c.pack_list().iter().copied())
    }

    /// The records of the pack kind `kind` (none for a core kind).
    pub fn pack_records(&self, kind: Kind) -> &Collection<pack::Shared> {
        self.pack.get(&kind).unwrap_or(&NO_RECORDS)
    }

    /// The languages the site writes in, the leading one first.
    pub fn languages(&self) -> &'static [page::Lang] {
        self.config
            .as_ref()
            .map_or(lang::Lang::DEFAULT, |c| c.languages())
    }

    /// The field of a pack the site turned on that declares the measurement `name`
    /// (its probes write it), if one does.
    pub fn pack_measurement(&self, name: &str) -> Option<&'static fields::Field> {
        let (pack, field) = fields::declared(fields::Place::Case, name)?;
        let on = self.config.as_ref().is_some_and(|c| c.has_pack(pack.name));
        (on && matches!(field.kind, fields::FieldKind::Measurement)).then_some(field)
    }

    /// Where the measurement `name` goes among others when shown: a pack's in the order
    /// the pack declares them, then the site's in the order of its vocabulary, then any
    /// other by name.
    pub fn measurement_rank(&self, name: &str) -> (u8, usize) {
        if self.pack_measurement(name).is_some() {
            let at = pack::known()
                .iter()
                .flat_map(|p| p.case_fields)
                .position(|f| f.name == name);
            return (0, at.unwrap_or(0));
        }
        match self.measurements.iter().position(|m| m.id.value == name) {
            Some(at) => (1, at),
            None => (2, 0),
        }
    }

    /// Whether a record of `kind` with `id` exists.
    pub fn exists(&self, kind: Kind, id: &str) -> bool {
        crate::model::with_collection!(self, kind, |c| c.contains(id), pages => self.page(id).is_some())
    }

    /// Whether `id` is known to be missing: absent, and no file of its kind failed to
    /// load (then the load error is the one to report, not every reference into it).
    pub fn is_missing(&self, kind: Kind, id: &str) -> bool {
        !self.exists(kind, id) && !self.incomplete.contains(&kind)
    }

    /// How far a component status says the observation went: none for a status that
    /// declares no step, or an unknown one (already reported).
    pub fn seen(&self, status: &str) -> Option<Seen> {
        self.statuses.get(status).and_then(|s| s.seen)
    }

    /// What `run` was taken of: its own `subject`, else the subject that lists it.
    pub fn subject_of<'a>(&'a self, run: &'a Run) -> Option<&'a str> {
        if let Some(s) = &run.subject {
            return Some(&s.value);
        }
        self.subjects
            .iter()
            .find(|s| s.runs.iter().any(|r| r.value == run.id.value))
            .map(|s| s.id.value.as_str())
    }

    /// The subject record `run` was taken of: [`Self::subject_of`], else the site's own
    /// subject (a run that names none is the site's own); none when neither is declared.
    pub fn subject_record(&self, run: &Run) -> Option<&Subject> {
        let own = self.config.as_ref().and_then(|c| c.subject.as_ref());
        let id = self.subject_of(run).or(own.map(|o| o.value.as_str()))?;
        self.subjects.get(id).map(|s| &s.value)
    }

    /// Whether `map` holds for `run`: the map names no subjects, or names the one the run
    /// was taken of (its own, a subject's that lists it, else the site's); a run of no
    /// known subject is held to every map.
    pub fn map_applies(&self, map: &DispatchMap, run: &Run) -> bool {
        if map.for_subjects.is_empty() {
            return true;
        }
        let own = self.config.as_ref().and_then(|c| c.subject.as_ref());
        let Some(of) = self.subject_of(run).or(own.map(|o| o.value.as_str())) else {
            return true;
        };
        map.for_subjects.iter().any(|s| s.value == of)
    }

    /// Whether `run` is evidence of the site's own subject: no subject is declared, or
    /// the run's subject is it (a run of no subject counts as the site's own).
    pub fn is_own(&self, run: &Run) -> bool {
        // Without a subject of its own the site looks no run's subject up.
        let Some(own) = self.config.as_ref().and_then(|c| c.subject.as_ref()) else {
            return true;
        };
        self.subject_of(run).is_none_or(|of| own.value == of)
    }

    /// The file a record was written in.
    pub fn file_of(&self, kind: Kind, id: &str) -> Option<String> {
        crate::model::with_collection!(
            self,
            kind,
            |c| c.get(id).map(|r| r.file.to_string()),
            pages => self.page(id).map(|p| p.file.to_string())
        )
    }

    pub fn page(&self, id: &str) -> Option<&PageSource> {
        self.page_index.get(id).map(|&i| &self.pages[i])
    }

    /// Whether the reading of `case` of `run` leaves its route open: it reads the case but
    /// names no zone (a boundary it cannot settle). The reading kept beside the run wins
    /// over the run file's own.
    pub fn reading_leaves_open(&self, run: &Run, case: &Case) -> bool {
        match self.reading_of(&run.id.value, &case.id.value) {
            Some(r) => r.zone.is_none(),
            None => case.assessment.as_ref().is_some_and(|a| a.zone.is_none()),
        }
    }

    /// The readings of run `run` as a whole (those that name no case), in file order.
    pub fn run_readings<'a>(&'a self, run: &'a str) -> impl Iterator<Item = &'a Located<Reading>> {
        self.readings
            .iter()
            .filter(move |r| r.case.is_none() && r.run.value == run)
    }

    /// The reading of case `case` of run `run` kept in `data/readings.yaml` (the first,
    /// if several), which takes the place of the run file's own `assessment`.
    pub fn reading_of(&self, run: &str, case: &str) -> Option<&Located<Reading>> {
        if self.reading_index.is_empty() {
            return None;
        }
        self.reading_index
            .get(&(run.to_string(), case.to_string()))
            .and_then(|&i| self.readings.iter().nth(i))
    }
}

/// The declared records, held to their collections' declarations.
fn typed_records(
    config: &SiteConfig,
    written: Vec<(String, std::sync::Arc<str>, Vec<declared::WrittenRecord>)>,
    diags: &mut Diagnostics,
) -> Vec<Located<declared::Declared>> {
    declared::check_specs(&config.collections, diags);
    let mut out = Vec::new();
    for (name, file, records) in written {
        let Some(spec) = config.collection(&name) else {
            continue;
        };
        out.extend(
            declared::typed(spec, &file, records, config.languages(), diags)
                .into_iter()
                .map(|value| Located {
                    file: file.clone(),
                    value,
                }),
        );
    }
    out
}

/// Builds the graph from loaded sources. Reference problems are reported, never fatal,
/// so one `check` lists them all.
pub fn build(
    config: SiteConfig,
    d: DataSet,
    mut pages: Vec<PageSource>,
) -> (Evidence, Diagnostics) {
    let mut diags = Diagnostics::default();
    pages.sort_by(|a, b| (a.front.order, &a.id).cmp(&(b.front.order, &b.id)));
    let runs = index(Kind::Run, d.runs, &mut diags);
    let run_pages = generated::run_pages(&pages, &runs, &mut diags);
    pages.extend(run_pages);
    let records = typed_records(&config, d.written, &mut diags);
    let records = index(Kind::Record, records, &mut diags);
    let record_pages = generated::record_pages(&pages, &records, &config.collections, &mut diags);
    pages.extend(record_pages);
    let mut ev = Evidence {
        config: Some(config),
        families: index(Kind::Family, d.families, &mut diags),
        maps: index(Kind::Map, d.maps, &mut diags),
        components: index(Kind::Component, d.components, &mut diags),
        observers: index(Kind::Observer, d.observers, &mut diags),
        phases: index(Kind::Phase, d.phases, &mut diags),
        claims: index(Kind::Claim, d.claims, &mut diags),
        questions: index(Kind::Question, d.questions, &mut diags),
        terms: index(Kind::Term, d.terms, &mut diags),
        findings: index(Kind::Finding, d.findings, &mut diags),
        routes: index(Kind::Route, d.routes, &mut diags),
        engines: index(Kind::Engine, d.engines, &mut diags),
        statuses: index(Kind::Status, d.statuses, &mut diags),
        measurements: index(Kind::Measurement, d.measurements, &mut diags),
        texts: index(Kind::TextField, d.texts, &mut diags),
        probes: d.probes,
        subjects: index(Kind::Subject, d.subjects, &mut diags),
        readings: index(Kind::Reading, d.readings, &mut diags),
        pack: d
            .pack
            .into_iter()
            .map(|(kind, items)| (kind, index(kind, items, &mut diags)))
            .collect(),
        records,
        runs,
        page_index: pages
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect(),
        reading_index: FxHashMap::default(),
        pages,
        incomplete: d.incomplete,
        history: None,
    };
    // The first reading of each case wins; a second one is `check`'s to report.
    let mut reading_index = FxHashMap::default();
    for (i, r) in ev.readings.iter().enumerate() {
        if let Some(case) = &r.case {
            reading_index
                .entry((r.run.value.clone(), case.value.clone()))
                .or_insert(i);
        }
    }
    ev.reading_index = reading_index;
    refs::resolve_all(&ev, &mut diags);
    resolve_directives(&mut ev);
    (ev, diags)
}

/// Resolves every directive line of every page once, against the finished graph.
fn resolve_directives(ev: &mut Evidence) {
    let resolved: Vec<Vec<Result<directive::Directive, String>>> = ev
        .pages
        .iter()
        .map(|p| {
            p.items
                .iter()
                .filter_map(|item| match item {
                    page::Item::Directive(d) => Some(directive::parse(d, &p.id, ev)),
                    page::Item::Block(_) => None,
                })
                .collect()
        })
        .collect();
    for (page, found) in ev.pages.iter_mut().zip(resolved) {
        let mut found = found.into_iter();
        for item in &mut page.items {
            if let page::Item::Directive(d) = item {
                d.resolution = found.next();
            }
        }
    }
}

/// Parses a `kind:id` reference, reporting a malformed one.
pub fn parse_ref(file: &str, id: &Id, diags: &mut Diagnostics) -> Option<Ref> {
    match Ref::parse(&id.value) {
        Ok(r) => Some(r),
        Err(msg) => {
            diags.push(
                Diagnostic::error("bad-ref", span_of(file, id), msg).with_hint(format!(
                    "references look like `kind:id` (`claim:c1`); kinds: {}",
                    Kind::names()
                )),
            );
            None
        }
    }
}
