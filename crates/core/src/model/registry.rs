//! The registry of record kinds: one entry per kind says its name (the prefix of a
//! `kind:id` reference and its key in `evidence.json`), where its records are written
//! under `data/`, and how `evidence diff` reports a change to them.
//!
//! The loader (which file holds which kinds, what an unknown file is told), references,
//! incremental rebuild, diff and the JSON export read this table; adding a core kind is
//! an entry in [`core_kinds!`] and its record type. A pack's kinds are entries the pack
//! holds (`model::pack::Pack::kinds`), each a [`Kind::Pack`].

/// A kind a pack adds, known by its entry (compared, ordered and hashed by name).
#[derive(Clone, Copy)]
pub struct PackKind(pub &'static KindSpec);

impl PartialEq for PackKind {
    fn eq(&self, other: &PackKind) -> bool {
        self.0.name == other.0.name
    }
}
impl Eq for PackKind {}
impl PartialOrd for PackKind {
    fn partial_cmp(&self, other: &PackKind) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PackKind {
    fn cmp(&self, other: &PackKind) -> std::cmp::Ordering {
        self.0.name.cmp(other.0.name)
    }
}
impl std::hash::Hash for PackKind {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.name.hash(h)
    }
}
impl std::fmt::Debug for PackKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

/// Where the records of a kind are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// One file under `data/`, which may hold other kinds beside it.
    File(&'static str),
    /// One record per `.yaml` file in this folder under `data/` (or below it).
    Folder(&'static str),
    /// Markdown pages under `content/`.
    Pages,
    /// In the file each declared collection names (`evidence.yaml`, `collections:`).
    Declared,
}

/// How `evidence diff` reports a change to records of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// Added, removed, or changed field by field (with translation drift).
    Fields,
    /// A section of its own: claims (moves between can and cannot show), runs (latest
    /// run per probe, values and zones), maps (cases whose zone flips), pages (prose).
    Own,
}

/// One kind's entry.
#[derive(Debug, Clone, Copy)]
pub struct KindSpec {
    pub kind: Kind,
    /// The prefix of its references (`claim:c1`) and its key in `evidence.json`.
    pub name: &'static str,
    /// What a record of it is, in a line (the data file reference lists it).
    pub about: &'static str,
    /// The fields of its record, in the order its type declares them (for the docs).
    pub fields: fn() -> &'static [&'static str],
    pub storage: Storage,
    pub compare: Compare,
    /// The JSON Schema of the file its records are written in (`evidence schema`, the
    /// data file reference); `None` for a kind whose file's schema is made elsewhere
    /// (runs, pages, declared collections: by the site; a pack's: by the pack).
    pub schema: Option<SchemaFn>,
}

/// Makes a JSON Schema with the generator it is handed.
pub type SchemaFn = fn(&mut schemars::SchemaGenerator) -> schemars::Schema;

const fn spec(
    kind: Kind,
    name: &'static str,
    about: &'static str,
    fields: fn() -> &'static [&'static str],
    storage: Storage,
    compare: Compare,
    schema: Option<SchemaFn>,
) -> KindSpec {
    KindSpec {
        kind,
        name,
        about,
        fields,
        storage,
        compare,
        schema,
    }
}

/// The fields serde reads for the record type `T`, in its declaration order: what its
/// derived `Deserialize` hands to `deserialize_struct`, asked of a deserializer that
/// records them and reads nothing.
pub fn struct_fields<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    use serde::de::{self, Visitor};
    struct Fields(std::cell::Cell<&'static [&'static str]>);
    impl<'de> de::Deserializer<'de> for &Fields {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.set(fields);
            Err(de::Error::custom("fields recorded"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }
    let probe = Fields(std::cell::Cell::new(&[]));
    let _ = T::deserialize(&probe);
    probe.0.get()
}

/// The fields of a kind whose records are not of one type (declared records, pages).
pub fn no_fields() -> &'static [&'static str] {
    &[]
}

/// The schema of a file holding a list of `T`.
fn list<T: schemars::JsonSchema>(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    g.subschema_for::<Vec<T>>()
}

/// The schema of a file holding one `T`.
fn one<T: schemars::JsonSchema>(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    g.subschema_for::<T>()
}

use super::types as t;

use Compare::{Fields, Own};
use Storage::{Declared, File, Folder, Pages};

/// The file under `data/` the decision maps and their families are written in, unless
/// the site names another (`maps_file:` in evidence.yaml, `SiteConfig::maps_file`); the
/// loader reads the site's file as this one.
pub const MAPS_FILE: &str = "maps.yaml";

/// The core's record kinds, each described once. Every list the core keeps per kind is
/// generated from this one: [`Kind`] and [`KINDS`] here, the collections of `DataSet` and
/// `Evidence` and the match behind `with_collection!` (`model/mod.rs`), and how the loader
/// reads a kind's file and files its records (`load/mod.rs`, `KindRecords`). Adding a
/// core kind is an entry here and its record type in `model/types.rs`.
///
/// An entry reads `Variant => field: Type, "name", storage, compare, shape;`, its doc
/// comment saying what a record is:
///
/// - `Variant` — its [`Kind`] variant;
/// - `field` — its collection in `DataSet` and `Evidence` (`ev.claims`);
/// - `Type` — its record type, in `model/types.rs`, with an `id: Id`;
/// - `"name"` — the prefix of its references (`claim:c1`), its key in `evidence.json`;
/// - `storage`, `compare` — its [`Storage`] and [`Compare`];
/// - `shape` — how its file is written, which says how it is read and its schema:
///   `list` (a list of records), `each` (one record a file, whose schema the site's
///   vocabulary shapes: runs), or `part_of FileType` (the field `field` of a file several
///   kinds share, a type in `model/types.rs`).
///
/// It hands the entries to the macro `$then` names, after the tokens in brackets (`[…]`,
/// which that macro takes first: what it needs of its caller). Kinds that are not a plain
/// list of typed records — a declared collection's record, a page, a pack's kind — are
/// written by hand after them.
macro_rules! core_kinds {
    ([$($pass:tt)*] $($then:tt)+) => {
        $($then)+! { [$($pass)*]
            /// A phase of the work, in the worklog.
            Phase => phases: Phase, "phase", File("worklog.yaml"), Fields, list;
            /// A run a probe recorded: its cases and what they measured.
            Run => runs: Run, "run", Folder("runs/"), Own, each;
            /// Someone whose observations the site reports.
            Observer => observers: Observer, "observer", File("observers.yaml"), Fields, list;
            /// A part of the system studied, with the status it was observed in.
            Component => components: Component, "component", File("components.yaml"), Fields, list;
            /// A question the investigation asks.
            Question => questions: Question, "question", File("questions.yaml"), Fields, list;
            /// A fact read from code or documentation, with its source.
            Finding => findings: Finding, "finding", File("findings.yaml"), Fields, list;
            /// A decision map: the bounds that route a case to a family.
            Map => maps: DispatchMap, "map", File(MAPS_FILE), Own, part_of DispatchFile;
            /// A family a decision map routes to.
            Family => families: Family, "family", File(MAPS_FILE), Fields, part_of DispatchFile;
            /// What a page can show, and what it cannot.
            Claim => claims: Claim, "claim", File("claims.yaml"), Own, list;
            /// A glossary term.
            Term => terms: Term, "term", File("glossary.yaml"), Fields, list;
            /// A path through the system that records are sorted by.
            Route => routes: Route, "route", File("routes.yaml"), Fields, list;
            /// The software a run ran against or read.
            Engine => engines: Engine, "engine", File("vocabulary.yaml"), Fields, part_of VocabularyFile;
            /// A status a component can be observed in.
            Status => statuses: Status, "status", File("vocabulary.yaml"), Fields, part_of VocabularyFile;
            /// A measurement cases record, with its label and unit.
            Measurement => measurements: Measurement, "measurement", File("vocabulary.yaml"), Fields, part_of VocabularyFile;
            /// A named text cases record (`texts:` in `data/vocabulary.yaml`).
            TextField => texts: TextField, "text", File("vocabulary.yaml"), Fields, part_of VocabularyFile;
            /// What runs were taken of.
            Subject => subjects: Subject, "subject", File("subjects.yaml"), Fields, list;
            /// A reading of a run or case, kept beside the run.
            Reading => readings: Reading, "reading", File("readings.yaml"), Fields, list;
        }
    };
}
pub(crate) use core_kinds;

/// From [`core_kinds!`]: the [`Kind`] enum (the core's kinds, then the hand-written
/// ones), [`KINDS`] in the same order, and `kind_index`, a kind's position in it.
macro_rules! kind_table {
    ([] $($(#[doc = $doc:literal])* $kind:ident => $field:ident: $type:ident, $name:literal,
        $storage:expr, $compare:ident, $($shape:ident)+;)*) => {
        /// The kinds of record a reference can name: the core's, in the order of
        /// [`KINDS`], then a declared collection's record, a page and a pack's kind.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Kind {
            $($(#[doc = $doc])* $kind,)*
            /// A record of a collection the site declares (`model::declared`); its key is
            /// `collection:id`.
            Record,
            /// A page under `content/`.
            Page,
            /// A kind a pack adds: its entry is the pack's.
            Pack(PackKind),
        }

        /// Every kind of the core, in the order of [`Kind`].
        pub const KINDS: &[KindSpec] = &[
            $(spec(
                Kind::$kind,
                $name,
                concat!($($doc),*),
                struct_fields::<t::$type>,
                $storage,
                $compare,
                kind_table!(@schema $type, $($shape)+),
            ),)*
            spec(
                Kind::Record,
                "record",
                " A record of a collection the site declares, named `collection:id`.",
                no_fields,
                Declared,
                Fields,
                None,
            ),
            spec(
                Kind::Page,
                "page",
                " A page under `content/`, named by its path without `.md`.",
                no_fields,
                Pages,
                Own,
                None,
            ),
        ];

        /// The position of a core kind in [`KINDS`] (a pack's kind comes after them all).
        const fn kind_index(kind: Kind) -> usize {
            // The variants of `Kind` without a pack's entry, numbered in their order.
            enum Position {
                $($kind,)*
                Record,
                Page,
                Pack,
            }
            match kind {
                $(Kind::$kind => Position::$kind as usize,)*
                Kind::Record => Position::Record as usize,
                Kind::Page => Position::Page as usize,
                Kind::Pack(_) => Position::Pack as usize,
            }
        }
    };
    (@schema $type:ident, list) => { Some(list::<t::$type>) };
    (@schema $type:ident, each) => { None };
    (@schema $type:ident, part_of $file:ident) => { Some(one::<t::$file>) };
}
core_kinds!([] kind_table);

/// Every kind, in the order of [`KINDS`].
pub const ALL: [Kind; KINDS.len()] = {
    let mut all = [Kind::Page; KINDS.len()];
    let mut i = 0;
    while i < KINDS.len() {
        all[i] = KINDS[i].kind;
        i += 1;
    }
    all
};

// Each entry sits at its kind's position, so that a lookup is an index; a kind left out
// of the table, or listed out of order, fails to compile.
const _: () = {
    let mut i = 0;
    while i < KINDS.len() {
        assert!(
            kind_index(KINDS[i].kind) == i,
            "KINDS must follow the order of Kind"
        );
        i += 1;
    }
    assert!(
        kind_index(Kind::Page) + 1 == KINDS.len(),
        "KINDS must list every kind"
    );
};

impl KindSpec {
    /// Where its records are written under `data/`, as an author reads it
    /// (`claims.yaml`, `runs/*.yaml`); none for pages.
    pub fn file_pattern(&self) -> Option<String> {
        match self.storage {
            File(f) => Some(f.to_string()),
            Folder(dir) => Some(format!("{dir}*.yaml")),
            Pages | Declared => None,
        }
    }
}

impl Kind {
    /// This kind's entry: in [`KINDS`], or its pack's.
    pub fn spec(self) -> &'static KindSpec {
        match self {
            Kind::Pack(p) => p.0,
            core => &KINDS[kind_index(core)],
        }
    }

    /// The prefix of its references and its key in `evidence.json`.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The kind called `name`: the core's, or one a pack handed in adds.
    pub fn from_name(name: &str) -> Option<Kind> {
        KINDS
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.kind)
            .or_else(|| super::pack::kind_named(name))
    }

    /// All kind names an author writes, for hints (a declared record is named by its
    /// collection, not as `record:`).
    pub fn names() -> String {
        KINDS
            .iter()
            .filter(|s| s.storage != Storage::Declared)
            .map(|s| s.name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every kind: the core's, then those of the packs handed in.
pub fn all() -> impl Iterator<Item = Kind> {
    ALL.into_iter().chain(super::pack::kinds().map(|s| s.kind))
}

/// The kinds a data file holds, by its path under `data/` (none for a file that is not
/// a data file of any kind).
pub fn kinds_in(data_file: &str) -> Vec<Kind> {
    KINDS
        .iter()
        .chain(super::pack::kinds())
        .filter(|s| match s.storage {
            File(f) => f == data_file,
            Folder(dir) => data_file.starts_with(dir),
            Pages | Declared => false,
        })
        .map(|s| s.kind)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for k in ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
        let mut names: Vec<&str> = KINDS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KINDS.len());
        assert_eq!(Kind::from_name("nothing"), None);
    }

    #[test]
    fn a_data_file_holds_the_kinds_written_in_it() {
        assert_eq!(kinds_in("maps.yaml"), [Kind::Map, Kind::Family]);
        assert_eq!(kinds_in("worklog.yaml"), [Kind::Phase]);
        assert_eq!(kinds_in("runs/r1.yaml"), [Kind::Run]);
        assert_eq!(kinds_in("runs/2026/r1.yaml"), [Kind::Run]);
        assert_eq!(kinds_in("extras.yaml"), []);
        assert_eq!(
            Kind::Run.spec().file_pattern().as_deref(),
            Some("runs/*.yaml")
        );
        assert_eq!(Kind::Page.spec().file_pattern(), None);
    }
}
