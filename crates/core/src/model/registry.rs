//! The registry of record kinds: one entry per kind says its name (the prefix of a
//! `kind:id` reference and its key in `evidence.json`), where its records are written
//! under `data/`, and how `evidence diff` reports a change to them.
//!
//! The loader (which file holds which kinds, what an unknown file is told), references,
//! incremental rebuild, diff and the JSON export read this table; adding a kind is an
//! entry here, a variant of [`Kind`] and its record type. A pack's kinds are entries the
//! pack holds (`model::pack::Pack::kinds`), each a [`Kind::Pack`].

/// The kinds of record a reference can name. Declared in the order of [`KINDS`], which a
/// compile-time check below holds to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Phase,
    Run,
    Observer,
    Component,
    Question,
    Finding,
    Map,
    Family,
    Claim,
    Term,
    Route,
    Engine,
    Status,
    Measurement,
    /// A named text a case records (`texts:` in `data/vocabulary.yaml`).
    TextField,
    Subject,
    Reading,
    /// A record of a collection the site declares (`model::declared`); its key is
    /// `collection:id`.
    Record,
    Page,
    /// A kind a pack adds: its entry is the pack's.
    Pack(PackKind),
}

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
    storage: Storage,
    compare: Compare,
    schema: Option<SchemaFn>,
) -> KindSpec {
    KindSpec {
        kind,
        name,
        storage,
        compare,
        schema,
    }
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

/// Every kind of the core, in the order of [`Kind`].
pub const KINDS: &[KindSpec] = &[
    spec(
        Kind::Phase,
        "phase",
        File("worklog.yaml"),
        Fields,
        Some(list::<t::Phase>),
    ),
    spec(Kind::Run, "run", Folder("runs/"), Own, None),
    spec(
        Kind::Observer,
        "observer",
        File("observers.yaml"),
        Fields,
        Some(list::<t::Observer>),
    ),
    spec(
        Kind::Component,
        "component",
        File("components.yaml"),
        Fields,
        Some(list::<t::Component>),
    ),
    spec(
        Kind::Question,
        "question",
        File("questions.yaml"),
        Fields,
        Some(list::<t::Question>),
    ),
    spec(
        Kind::Finding,
        "finding",
        File("findings.yaml"),
        Fields,
        Some(list::<t::Finding>),
    ),
    spec(
        Kind::Map,
        "map",
        File(MAPS_FILE),
        Own,
        Some(one::<t::DispatchFile>),
    ),
    spec(
        Kind::Family,
        "family",
        File(MAPS_FILE),
        Fields,
        Some(one::<t::DispatchFile>),
    ),
    spec(
        Kind::Claim,
        "claim",
        File("claims.yaml"),
        Own,
        Some(list::<t::Claim>),
    ),
    spec(
        Kind::Term,
        "term",
        File("glossary.yaml"),
        Fields,
        Some(list::<t::Term>),
    ),
    spec(
        Kind::Route,
        "route",
        File("routes.yaml"),
        Fields,
        Some(list::<t::Route>),
    ),
    spec(
        Kind::Engine,
        "engine",
        File("vocabulary.yaml"),
        Fields,
        Some(one::<t::VocabularyFile>),
    ),
    spec(
        Kind::Status,
        "status",
        File("vocabulary.yaml"),
        Fields,
        Some(one::<t::VocabularyFile>),
    ),
    spec(
        Kind::Measurement,
        "measurement",
        File("vocabulary.yaml"),
        Fields,
        Some(one::<t::VocabularyFile>),
    ),
    spec(
        Kind::TextField,
        "text",
        File("vocabulary.yaml"),
        Fields,
        Some(one::<t::VocabularyFile>),
    ),
    spec(
        Kind::Subject,
        "subject",
        File("subjects.yaml"),
        Fields,
        Some(list::<t::Subject>),
    ),
    spec(
        Kind::Reading,
        "reading",
        File("readings.yaml"),
        Fields,
        Some(list::<t::Reading>),
    ),
    spec(Kind::Record, "record", Declared, Fields, None),
    spec(Kind::Page, "page", Pages, Own, None),
];

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

/// The position of a core kind in [`KINDS`] (a pack's kind comes after them all).
const fn kind_index(kind: Kind) -> usize {
    match kind {
        Kind::Phase => 0,
        Kind::Run => 1,
        Kind::Observer => 2,
        Kind::Component => 3,
        Kind::Question => 4,
        Kind::Finding => 5,
        Kind::Map => 6,
        Kind::Family => 7,
        Kind::Claim => 8,
        Kind::Term => 9,
        Kind::Route => 10,
        Kind::Engine => 11,
        Kind::Status => 12,
        Kind::Measurement => 13,
        Kind::TextField => 14,
        Kind::Subject => 15,
        Kind::Reading => 16,
        Kind::Record => 17,
        Kind::Page => 18,
        Kind::Pack(_) => 19,
    }
}

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
