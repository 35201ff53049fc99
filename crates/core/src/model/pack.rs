//! Packs: what one kind of investigation adds to the core — record kinds and the data
//! files they are written in, directives, the fields its probes write into runs and cases,
//! Fluent messages, a stylesheet, and the parts later stages read (its tables, its rules).
//!
//! The core names no pack. The program that uses the core (the `evidence` binary) hands
//! its packs in once, at start-up, with [`register`]; a site then turns one on with
//! `packs: [name]` in `evidence.yaml`. Each stage reads what it needs of a pack from the
//! [`Pack`] value: `load` its data files, messages and styles; `model` its kinds and
//! directives; `render` and `check` the part of their own type in [`Pack::parts`]
//! (`render::pack::RenderPart`, `check::PackRules`), so that no stage below them needs
//! to know their types.

use super::directive::Args;
use super::fields::Field;
use super::id::Id;
use super::registry::{Kind, KindSpec};
use crate::diagnostics::Diagnostic;
use std::any::Any;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A directive a pack puts on a generated page: its name and its attributes.
pub type ExtraDirective = (&'static str, Vec<(&'static str, String)>);

/// What a pack adds, as the core's stages read it.
pub struct Pack {
    /// Its name in `packs:` of `evidence.yaml`.
    pub name: &'static str,
    /// What it is for, in one line (for hints and the docs).
    pub about: &'static str,
    /// The record kinds it adds, each described once (name, file, how `diff` reports it).
    pub kinds: &'static [&'static KindSpec],
    /// The data files its kinds are written in, and how each is read.
    pub files: &'static [PackFile],
    /// The directives it adds.
    pub directives: &'static [DirectiveSpec],
    /// Its Fluent messages by language, loaded as the built-in `locales/<lang>/<name>.ftl`.
    pub messages: &'static [(&'static str, &'static [u8])],
    /// The fields its probes write into a run, beside the core's (`model::fields`).
    pub run_fields: &'static [Field],
    /// The fields its probes write into a case: the measurements it declares, by name,
    /// and what else it keeps.
    pub case_fields: &'static [Field],
    /// Directives a run's own page shows after its tables, for a run of this pack's
    /// probes (a sweep's scatter plot): each a name and its attributes.
    pub run_page_extras: fn(&super::Run) -> Vec<ExtraDirective>,
    /// The kinds a run's own page reads for the tables the pack adds to it (what
    /// `serve` rebuilds a run's page for, beside the core's).
    pub run_reads: &'static [Kind],
    /// Its stylesheet (empty for none), the built-in `static/packs/<name>.css`, which every
    /// page links after the theme's own.
    pub css: &'static [u8],
    /// The JSON Schemas of its data files and of the fields its probes write
    /// (`evidence schema`), made with the generator it is handed.
    pub schemas: fn(&mut schemars::SchemaGenerator) -> super::json_schema::PackSchemas,
    /// What it gives the stages above `model`, each a value of that stage's own type
    /// (found with [`Pack::part`]).
    pub parts: &'static [&'static (dyn Any + Sync)],
}

impl fmt::Debug for Pack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pack").field("name", &self.name).finish()
    }
}

impl Pack {
    /// Its part of type `T`, if it gives one.
    pub fn part<T: Any>(&self) -> Option<&'static T> {
        self.parts
            .iter()
            .find_map(|p| (*p as &dyn Any).downcast_ref::<T>())
    }

    /// Whether it adds the record kind `kind`.
    pub fn adds(&self, kind: Kind) -> bool {
        self.kinds.iter().any(|s| s.kind == kind)
    }
}

// ---------------------------------------------------------------- the packs handed in

static REGISTERED: OnceLock<&'static [&'static Pack]> = OnceLock::new();

/// Hands the core the packs this program knows, once, before any site is read. Later calls
/// with the same packs change nothing; with others they are refused (`false`), since what
/// was read already was read with the first.
pub fn register(packs: &'static [&'static Pack]) -> bool {
    let first = *REGISTERED.get_or_init(|| packs);
    first.len() == packs.len() && first.iter().zip(packs).all(|(a, b)| a.name == b.name)
}

/// The packs handed in ([`register`]); none before.
pub fn known() -> &'static [&'static Pack] {
    REGISTERED.get().copied().unwrap_or(&[])
}

/// The pack called `name`.
pub fn named(name: &str) -> Option<&'static Pack> {
    known().iter().copied().find(|p| p.name == name)
}

/// The pack that adds `kind`, if a pack does.
pub fn of_kind(kind: Kind) -> Option<&'static Pack> {
    known().iter().copied().find(|p| p.adds(kind))
}

/// The pack that adds the directive `name`, and its spec.
pub fn directive(name: &str) -> Option<(&'static Pack, &'static DirectiveSpec)> {
    known()
        .iter()
        .find_map(|p| Some((*p, p.directives.iter().find(|d| d.name == name)?)))
}

/// The kind a pack adds called `name`.
pub fn kind_named(name: &str) -> Option<Kind> {
    known()
        .iter()
        .flat_map(|p| p.kinds.iter())
        .find(|s| s.name == name)
        .map(|s| s.kind)
}

/// Every kind the packs add, in the order they were handed in.
pub fn kinds() -> impl Iterator<Item = &'static KindSpec> {
    known().iter().flat_map(|p| p.kinds.iter().copied())
}

/// The names of all packs, for hints.
pub fn names() -> String {
    known()
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------- records

/// A reference a pack's record makes, resolved with the core's.
pub use super::refs::Reference;

/// A record of a kind a pack adds, held by the core without its type: indexed by id,
/// its references resolved, exported and compared through `Serialize` like any other.
/// The pack reads its own records back typed with [`Typed`].
pub trait PackRecord: Any + fmt::Debug + Send + Sync + erased_serde::Serialize {
    fn id(&self) -> &Id;
    /// The references it makes.
    fn references(&self) -> Vec<Reference<'_>> {
        Vec::new()
    }
    fn as_any(&self) -> &dyn Any;
}

erased_serde::serialize_trait_object!(PackRecord);

/// One record of a pack's kind, shared: the loader's caches and the graph hold the same.
pub type Shared = Arc<dyn PackRecord>;

impl super::Record for Shared {
    fn id(&self) -> &Id {
        (**self).id()
    }
}

/// How a pack reads one of its data files: the records of each kind it holds.
pub type ParseFile =
    fn(file: &str, text: &str) -> Result<Vec<(Kind, Vec<Shared>)>, Box<Diagnostic>>;

/// A data file a pack's kinds are written in.
pub struct PackFile {
    /// Its path under `data/`.
    pub path: &'static str,
    pub parse: ParseFile,
}

/// The records of one pack kind, read as their type `T`.
pub struct Typed<'a, T> {
    records: &'a super::Collection<Shared>,
    of: std::marker::PhantomData<fn() -> T>,
}

impl<'a, T: Any> Typed<'a, T> {
    /// The records of `kind` in `ev`, as `T`s.
    pub fn of(ev: &'a super::Evidence, kind: Kind) -> Typed<'a, T> {
        Typed {
            records: ev.pack_records(kind),
            of: std::marker::PhantomData,
        }
    }

    fn typed(r: &'a super::Located<Shared>) -> Option<super::Located<&'a T>> {
        Some(super::Located {
            file: r.file.clone(),
            value: r.value.as_any().downcast_ref::<T>()?,
        })
    }

    /// Each, in file order.
    pub fn iter(&self) -> impl Iterator<Item = super::Located<&'a T>> + 'a {
        self.records.iter().filter_map(Self::typed)
    }

    /// The one with `id`.
    pub fn get(&self, id: &str) -> Option<super::Located<&'a T>> {
        self.records.get(id).and_then(Self::typed)
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }
}

// ---------------------------------------------------------------- directives

/// A directive a pack adds: what the directive reference says of it, and how its
/// attributes are parsed into a value the pack's renderer reads back.
pub struct DirectiveSpec {
    pub name: &'static str,
    pub attrs: &'static [&'static str],
    pub about: &'static str,
    /// See `directive::Spec::READS`.
    pub reads: &'static [Kind],
    pub anchors: bool,
    pub parse: fn(&Args) -> Result<Arc<dyn PackDirective>, super::directive::ArgError>,
}

impl DirectiveSpec {
    /// The spec of the directive type `T`.
    pub const fn of<T: super::directive::Spec + PackDirective>() -> DirectiveSpec {
        DirectiveSpec {
            name: T::NAME,
            attrs: T::ATTRS,
            about: T::ABOUT,
            reads: T::READS,
            anchors: T::ANCHORS,
            parse: parse_as::<T>,
        }
    }
}

fn parse_as<T: super::directive::Spec + PackDirective>(
    a: &Args,
) -> Result<Arc<dyn PackDirective>, super::directive::ArgError> {
    T::parse(a).map(|d| Arc::new(d) as Arc<dyn PackDirective>)
}

/// A parsed directive of a pack, held by the core without its type.
pub trait PackDirective: Any + fmt::Debug + Send + Sync {
    /// See `directive::Spec::lists`.
    fn lists(&self) -> Option<Kind>;
    /// See `directive::Spec::shows`.
    fn shows(&self) -> Option<(Kind, &str)>;
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is the same directive with the same attributes.
    fn same(&self, other: &dyn PackDirective) -> bool;
    /// Feeds every field to `h` (the preview's fingerprint of what a page resolved to).
    fn hash_into(&self, h: &mut dyn std::hash::Hasher);
}

impl<T: super::directive::Spec + fmt::Debug + PartialEq + std::hash::Hash + Send + Sync + 'static>
    PackDirective for T
{
    fn lists(&self) -> Option<Kind> {
        super::directive::Spec::lists(self)
    }
    fn shows(&self) -> Option<(Kind, &str)> {
        super::directive::Spec::shows(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn PackDirective) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn hash_into(&self, mut h: &mut dyn std::hash::Hasher) {
        std::hash::Hash::hash(self, &mut h)
    }
}

/// A pack's directive as parsed on a page: its spec and its value.
#[derive(Clone)]
pub struct Parsed {
    pub spec: &'static DirectiveSpec,
    pub value: Arc<dyn PackDirective>,
}

impl fmt::Debug for Parsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl std::hash::Hash for Parsed {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.spec.name.hash(h);
        self.value.hash_into(h);
    }
}

impl PartialEq for Parsed {
    fn eq(&self, other: &Parsed) -> bool {
        self.spec.name == other.spec.name && self.value.same(other.value.as_ref())
    }
}
