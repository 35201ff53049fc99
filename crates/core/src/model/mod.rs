//! Stage 2: the typed evidence graph.
//!
//! [`build`] indexes every collection by id and resolves every reference. A duplicate id,
//! a dangling reference or a malformed `kind:id` is reported at the place it was written.

pub mod bound;
pub mod colour;
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

/// From [`registry::core_kinds!`]: [`Record`] for each core kind's type, and [`DataSet`]
/// and [`Evidence`], each with one collection a core kind (under its field name, with
/// its doc) before the fields written here.
macro_rules! collections {
    ([] $($(#[$doc:meta])* $kind:ident => $field:ident: $type:ident, $name:literal,
        $storage:expr, $compare:ident, $($shape:ident)+;)*) => {
        $(impl Record for $type {
            fn id(&self) -> &Id {
                &self.id
            }
        })*

        /// Every data record, grouped by collection, before ids are resolved.
        #[derive(Debug, Clone, Default)]
        pub struct DataSet {
            $($(#[$doc])* pub $field: Vec<Located<$type>>,)*
            /// Records of the kinds packs add, by kind.
            pub pack: std::collections::BTreeMap<Kind, Vec<Located<pack::Shared>>>,
            /// The declared probes under `data/probes/` (not the packs' cases files).
            pub probes: Vec<Located<probe_file::ProbeFile>>,
            /// Records of declared collections as written, by collection name; typed
            /// against their declaration when the graph is built.
            pub written: Vec<(String, std::sync::Arc<str>, Vec<declared::WrittenRecord>)>,
            /// Kinds whose file failed to parse: references to them are not reported as
            /// dangling, since the parse error already is.
            pub incomplete: std::collections::BTreeSet<Kind>,
        }

        /// The resolved evidence graph.
        #[derive(Debug, Clone, Default)]
        pub struct Evidence {
            $($(#[$doc])* pub $field: Collection<$type>,)*
            pub config: Option<SiteConfig>,
            /// Records of the kinds packs add, by kind (read typed with `pack::Typed`).
            pub pack: std::collections::BTreeMap<Kind, Collection<pack::Shared>>,
            /// The declared probes under `data/probes/`, in path order; run only by
            /// `evidence probe run`.
            pub probes: Vec<Located<probe_file::ProbeFile>>,
            /// Records of declared collections, keyed `collection:id`, in file order.
            pub records: Collection<declared::Declared>,
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

        impl Evidence {
            /// A graph of the core kinds' records of `d` (taken out of it), each
            /// collection indexed by id, a duplicate or malformed id reported; the rest
            /// of the graph empty.
            fn of_core_kinds(d: &mut DataSet, diags: &mut Diagnostics) -> Evidence {
                Evidence {
                    $($field: index(Kind::$kind, std::mem::take(&mut d.$field), diags),)*
                    ..Evidence::default()
                }
            }
        }
    };
}
registry::core_kinds!([] collections);

/// From [`registry::core_kinds!`], for `with_collection!`: the match of a kind to its
/// collection, one arm a core kind, then the hand-written kinds'.
macro_rules! collection_match {
    ([$ev:expr, $kind:expr, $c:ident, $body:expr, $pages:expr]
        $($(#[$doc:meta])* $variant:ident => $field:ident: $type:ident, $name:literal,
        $storage:expr, $compare:ident, $($shape:ident)+;)*) => {
        match $kind {
            $($crate::model::refs::Kind::$variant => {
                let $c = &$ev.$field;
                $body
            })*
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
pub(crate) use collection_match;

/// Evaluates `$body` with `$c` bound to the collection of records of `$kind` in `$ev`
/// (a [`Collection`] of that kind's type), or `$pages` for pages. The one place that maps
/// a [`Kind`] to its collection (its arms made from the registry, `collection_match!`),
/// so that code generic over kinds (existence, "did you mean", the JSON export, origins
/// of data texts) lists no kind itself.
macro_rules! with_collection {
    ($ev:expr, $kind:expr, |$c:ident| $body:expr, pages => $pages:expr) => {
        $crate::model::registry::core_kinds!(
            [$ev, $kind, $c, $body, $pages] $crate::model::collection_match
        )
    };
}
pub(crate) use with_collection;

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
            .filter(move |r| r.case.is_none() && r.restates.is_none() && r.run.value == run)
    }

    /// The reading that says run `run`'s `what` again in the site's words, shown in its
    /// place (the first, if several).
    pub fn restatement(&self, run: &str, what: types::RunText) -> Option<&Located<Reading>> {
        self.readings
            .iter()
            .find(|r| r.run.value == run && r.case.is_none() && r.restates == Some(what))
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
    mut d: DataSet,
    mut pages: Vec<PageSource>,
) -> (Evidence, Diagnostics) {
    let mut diags = Diagnostics::default();
    pages.sort_by(|a, b| (a.front.order, &a.id).cmp(&(b.front.order, &b.id)));
    let mut ev = Evidence::of_core_kinds(&mut d, &mut diags);
    let run_pages = generated::run_pages(&pages, &ev.runs, &mut diags);
    pages.extend(run_pages);
    let records = typed_records(&config, d.written, &mut diags);
    ev.records = index(Kind::Record, records, &mut diags);
    let record_pages =
        generated::record_pages(&pages, &ev.records, &config.collections, &mut diags);
    pages.extend(record_pages);
    ev.pack = d
        .pack
        .into_iter()
        .map(|(kind, items)| (kind, index(kind, items, &mut diags)))
        .collect();
    ev.probes = d.probes;
    ev.incomplete = d.incomplete;
    ev.page_index = pages
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.clone(), i))
        .collect();
    ev.pages = pages;
    ev.config = Some(config);
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
    let resolved: Vec<Vec<Result<directive::Directive, directive::ArgError>>> = ev
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
                Diagnostic::error("bad-ref", span_of(file, id), msg.to_string()).with_hint(
                    format!(
                        "references look like `kind:id` (`claim:c1`); kinds: {}",
                        Kind::names()
                    ),
                ),
            );
            None
        }
    }
}
