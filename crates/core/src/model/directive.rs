//! Page directives (`::claims{page="index"}`): one type per directive behind one trait,
//! [`Spec`], which says its name, attributes and what it shows, parses its attributes
//! (checking the ids they name) and declares the kinds of record it reads.
//!
//! `directive_list!` lists every directive type once; the [`Directive`] enum, the
//! reference table [`SPECS`], [`parse`] and the dispatch of `render` all expand from it.
//! `model::build` parses each directive line once; `check`, `render`, `serve`'s
//! incremental rebuild and the page index read the parsed value.

use super::page::DirectiveLine as Raw;
use super::refs::Kind;
use super::{Case, Evidence};
use std::collections::BTreeMap;

/// One directive type.
pub trait Spec: Sized {
    /// Its name after `::`.
    const NAME: &'static str;
    /// The attributes it takes.
    const ATTRS: &'static [&'static str];
    /// What it shows, for the directive reference and errors.
    const ABOUT: &'static str;
    /// The kinds of record rendering it reads (records, derived facts of them, the
    /// families or maps its tables name): what `serve` rebuilds a page for.
    const READS: &'static [Kind];
    /// Whether it also shows the records its maps' branches anchor to, whatever their
    /// kind (so a page showing it reads those kinds as well).
    const ANCHORS: bool = false;
    /// Parses its attributes and checks the ids they name; the error is a message for
    /// the directive's line.
    fn parse(a: &Args) -> Result<Self, ArgError>;
    /// The kind whose every record it lists with row anchors, which references to such a
    /// record then link to.
    fn lists(&self) -> Option<Kind> {
        None
    }
    /// The one record it shows in full (a map's branches, a run's page), which references
    /// to that record then link to.
    fn shows(&self) -> Option<(Kind, &str)> {
        None
    }
}

/// What showing a run reads: the run, the maps its zones come from and their families, the
/// vocabulary that labels it, the subjects that say whether it is the site's own, and the
/// readings of its cases.
const RUN_READS: &[Kind] = &[
    Kind::Run,
    Kind::Map,
    Kind::Family,
    Kind::Engine,
    Kind::Measurement,
    Kind::TextField,
    Kind::Subject,
    Kind::Reading,
];

/// A directive's attributes as written, with what parsing them needs.
pub struct Args<'a> {
    pub name: &'a str,
    pub attrs: &'a BTreeMap<String, String>,
    /// The page the directive is on.
    pub page_id: &'a str,
    pub ev: &'a Evidence,
}

impl Args<'_> {
    pub fn get(&self, key: &str) -> Option<String> {
        self.attrs.get(key).cloned()
    }

    /// A required attribute.
    pub fn need(&self, key: &str) -> Result<String, ArgError> {
        self.get(key).ok_or_else(|| ArgError::Missing {
            directive: self.name.to_string(),
            key: key.to_string(),
        })
    }

    /// The error for attribute `key`, whose `value` is none of the `expected`.
    pub fn bad_value(&self, key: &str, value: &str, expected: &str) -> ArgError {
        ArgError::BadValue {
            directive: self.name.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    /// A list of ids separated by spaces (empty when absent).
    pub fn list(&self, key: &str) -> Vec<String> {
        self.attrs
            .get(key)
            .map(|v| v.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    }

    /// `id` names a record of `kind` (or its file failed to load, which is reported).
    pub fn must(&self, kind: Kind, id: &str) -> Result<(), ArgError> {
        if !self.ev.is_missing(kind, id) {
            return Ok(());
        }
        let known: Vec<String> = super::with_collection!(
            self.ev,
            kind,
            |c| c
                .iter()
                .map(|r| super::Record::id(&r.value).value.clone())
                .collect(),
            pages => self.ev.pages.iter().map(|p| p.id.clone()).collect()
        );
        Err(ArgError::Unknown {
            kind,
            id: id.to_string(),
            suggestion: super::refs::closest(id, known.iter().map(String::as_str))
                .map(String::from),
        })
    }

    /// Every id names a record of `kind`.
    pub fn must_all(&self, kind: Kind, ids: &[String]) -> Result<(), ArgError> {
        ids.iter().try_for_each(|i| self.must(kind, i))
    }

    /// The maps `ids` test one variable: ranges of one variable cannot be laid side by
    /// side with another's.
    pub fn one_variable(&self, ids: &[String]) -> Result<(), ArgError> {
        let mut maps = ids.iter().filter_map(|id| self.ev.maps.get(id));
        let Some(first) = maps.next() else {
            return Ok(());
        };
        match maps.find(|m| m.variable != first.variable) {
            None => Ok(()),
            Some(other) => Err(ArgError::NotOneVariable {
                directive: self.name.to_string(),
                first: first.id.value.clone(),
                first_variable: first.variable.clone(),
                other: other.id.value.clone(),
                other_variable: other.variable.clone(),
            }),
        }
    }

    /// Some run was recorded by `probe`.
    /// `probe` has a latest run to show: a run of the site's own subject with a date (a
    /// run without one is never the latest, `Derived::latest`).
    pub fn latest_of(&self, probe: &str) -> Result<(), ArgError> {
        self.probe(probe)?;
        let dated = |r: &super::Located<super::Run>| {
            r.probe == probe && self.ev.is_own(r) && r.date.is_some()
        };
        if self.ev.runs.iter().any(dated) || self.ev.incomplete.contains(&Kind::Run) {
            Ok(())
        } else {
            Err(ArgError::NoDatedRun {
                probe: probe.to_string(),
            })
        }
    }

    /// Some run of the site's own subject was recorded by `probe` (a comparison run of
    /// another subject is never a probe's latest, so it cannot be what is shown).
    pub fn probe(&self, probe: &str) -> Result<(), ArgError> {
        let own = |r: &&super::Located<super::Run>| r.probe == probe && self.ev.is_own(r);
        if self.ev.runs.iter().any(|r| own(&r)) || self.ev.incomplete.contains(&Kind::Run) {
            Ok(())
        } else if self.ev.runs.iter().any(|r| r.probe == probe) {
            Err(ArgError::OnlyComparisons {
                probe: probe.to_string(),
            })
        } else {
            Err(ArgError::NoRun {
                probe: probe.to_string(),
            })
        }
    }
}

/// Why a directive line names no directive: its name, its attributes, or an id or value
/// one of them gives. `Display` is the message for the directive's line, which
/// `check` reports at that line.
/// `Hash`: the incremental rebuild digests each line's resolution.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ArgError {
    /// No directive, of the core or of any pack the site turns on, has this name.
    UnknownDirective {
        name: String,
        known: Vec<&'static str>,
    },
    /// The directive comes with a pack the site does not turn on.
    PackOff { name: String, pack: &'static str },
    /// An attribute given to a directive that takes none.
    NoAttributes { directive: String, found: String },
    /// An attribute the directive does not take.
    UnknownAttribute {
        directive: String,
        found: String,
        allowed: &'static [&'static str],
    },
    /// The line was never resolved against the evidence (`model::build` does that).
    NotResolved,
    /// A name the reference lists but no directive type parses.
    Unresolvable { directive: String },
    /// A required attribute is absent.
    Missing { directive: String, key: String },
    /// An id names no record of its kind; the closest id there is, if any is close.
    Unknown {
        kind: Kind,
        id: String,
        suggestion: Option<String>,
    },
    /// The maps compared test different variables.
    NotOneVariable {
        directive: String,
        first: String,
        first_variable: String,
        other: String,
        other_variable: String,
    },
    /// No run of the probe has a date, so none is its latest.
    NoDatedRun { probe: String },
    /// Every run of the probe is of another subject.
    OnlyComparisons { probe: String },
    /// No run was recorded by the probe.
    NoRun { probe: String },
    /// The run named was recorded by another probe than the one the directive shows.
    NotRunOf { run: String, probe: String },
    /// An attribute's value is none of those it takes (`expected` says which, as the
    /// message shows it). A pack's directive reports its own attributes' values with it.
    BadValue {
        directive: String,
        key: String,
        value: String,
        expected: String,
    },
    /// The site declares no collection of this name; `declared` are those it does.
    NoCollection { of: String, declared: Vec<String> },
    /// A column names no field of the collection.
    NoField {
        of: String,
        field: String,
        fields: Vec<String>,
    },
    /// No record of the declared collection has this id.
    NoRecordOf { of: String, id: String },
    /// `caption=` is not the name of a message.
    BadCaption { caption: String },
    /// Neither or both of `run=` and `probe=` were given.
    RunOrProbe { directive: &'static str },
    /// A measurement that is not a duration, where durations are drawn.
    NotDuration { measure: String },
    /// No run of the probe has the case.
    NoCase { probe: String, case: String },
    /// The case never measured the field; `measured` is what it did measure.
    NotMeasuredByCase {
        probe: String,
        case: String,
        field: String,
        measured: Vec<String>,
    },
    /// `omit=` names a case the run does not have.
    NoCaseToOmit {
        run: String,
        case: String,
        suggestion: Option<String>,
    },
    /// No case the plot keeps measured this.
    NotMeasured { run: String, measure: String },
    /// A case's value a log axis cannot place.
    NotPositive { case: String, measure: String },
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::UnknownDirective { name, known } => write!(
                f,
                "unknown directive `::{name}` (known: {})",
                known.join(", ")
            ),
            ArgError::PackOff { name, pack } => write!(
                f,
                "`::{name}` comes with the `{pack}` pack, which the site does not turn on \
                 (add `packs: [{pack}]` to evidence.yaml)"
            ),
            ArgError::NoAttributes { directive, found } => {
                write!(f, "`::{directive}` takes no attributes, found `{found}`")
            }
            ArgError::UnknownAttribute {
                directive,
                found,
                allowed,
            } => write!(
                f,
                "`::{directive}` has no attribute `{found}` (allowed: {})",
                allowed.join(", ")
            ),
            ArgError::NotResolved => {
                write!(f, "the directive was not resolved against the evidence")
            }
            ArgError::Unresolvable { directive } => write!(f, "`::{directive}` is unknown"),
            ArgError::Missing { directive, key } => {
                write!(f, "`::{directive}` needs `{key}=\"…\"`")
            }
            ArgError::Unknown {
                kind,
                id,
                suggestion,
            } => {
                write!(f, "no {} with id `{id}`", kind.name())?;
                f.write_str(&super::refs::suggestion(suggestion.as_deref()))
            }
            ArgError::NotOneVariable {
                directive,
                first,
                first_variable,
                other,
                other_variable,
            } => write!(
                f,
                "`::{directive}` compares maps over one variable, but map `{first}` tests \
                 `{first_variable}` and map `{other}` tests `{other_variable}`"
            ),
            ArgError::NoDatedRun { probe } => write!(
                f,
                "no run of probe `{probe}` has a date, so none is its latest; name the run to show by its id"
            ),
            ArgError::OnlyComparisons { probe } => write!(
                f,
                "every run of probe `{probe}` is of another subject (a comparison); name one with `run=`"
            ),
            ArgError::NoRun { probe } => write!(f, "no run of probe `{probe}`"),
            ArgError::NotRunOf { run, probe } => write!(f, "run `{run}` is not a `{probe}` run"),
            ArgError::BadValue {
                directive,
                key,
                value,
                expected,
            } => write!(
                f,
                "`{key}` of `::{directive}` must be {expected}, not `{value}`"
            ),
            ArgError::NoCollection { of, declared } if declared.is_empty() => write!(
                f,
                "the site declares no collection `{of}` (`collections:` in evidence.yaml)"
            ),
            ArgError::NoCollection { of, declared } => write!(
                f,
                "no collection `{of}`; the site declares: {}",
                declared.join(", ")
            ),
            ArgError::NoField { of, field, fields } => write!(
                f,
                "`{of}` has no field `{field}` (its fields: id, {})",
                fields.join(", ")
            ),
            ArgError::NoRecordOf { of, id } => write!(f, "no {of} with id `{id}`"),
            ArgError::BadCaption { caption } => write!(
                f,
                "`caption` names a message of the site's locales/ (`findings-caption-layers`), not `{caption}`"
            ),
            ArgError::RunOrProbe { directive } => write!(
                f,
                "`::{directive}` needs either `run=\"…\"` or `probe=\"…\"`"
            ),
            ArgError::NotDuration { measure } => write!(
                f,
                "`{measure}` is not a duration: a timing plot draws measurements in nanoseconds \
                 (names ending in `_ns`)"
            ),
            ArgError::NoCase { probe, case } => {
                write!(f, "no run of probe `{probe}` has a case `{case}`")
            }
            ArgError::NotMeasuredByCase {
                probe,
                case,
                field,
                measured,
            } => write!(
                f,
                "case `{case}` of probe `{probe}` measured no `{field}` (it has: {})",
                measured.join(", ")
            ),
            ArgError::NoCaseToOmit {
                run,
                case,
                suggestion,
            } => {
                write!(f, "run `{run}` has no case `{case}` to leave out")?;
                f.write_str(&super::refs::suggestion(suggestion.as_deref()))
            }
            ArgError::NotMeasured { run, measure } => {
                write!(f, "no case of run `{run}` measured `{measure}`")
            }
            ArgError::NotPositive { case, measure } => write!(
                f,
                "case `{case}` measured `{measure}` at zero or below, which a log axis cannot \
                 place: leave it out with `omit=\"{case}\"`"
            ),
        }
    }
}

impl std::error::Error for ArgError {}

/// Calls `$m!` with every directive of the core as `Variant(Type)`: the one list of
/// them. A pack's directives are [`Directive::Pack`], their specs the pack's.
macro_rules! directive_list {
    ($m:ident) => {
        $m! {
            Claims($crate::model::directive::Claims),
            ClaimLedger($crate::model::directive::ClaimLedger),
            Components($crate::model::directive::Components),
            Observers($crate::model::directive::Observers),
            Worklog($crate::model::directive::Worklog),
            DispatchMap($crate::model::directive::DispatchMap),
            MapCompare($crate::model::directive::MapCompare),
            Run($crate::model::directive::RunTable),
            RunPage($crate::model::directive::RunPage),
            LatestRun($crate::model::directive::LatestRun),
            Runs($crate::model::directive::Runs),
            Questions($crate::model::directive::Questions),
            Glossary($crate::model::directive::Glossary),
            Findings($crate::model::directive::Findings),
            Table($crate::model::directive::Table),
            RecordPage($crate::model::directive::RecordPage),
            DispatchDiagram($crate::model::directive::DispatchDiagram),
            DispatchDiffDiagram($crate::model::directive::DispatchDiffDiagram),
            ObserverMap($crate::model::directive::ObserverMap),
            LibraryChain($crate::model::directive::LibraryChain),
            ProxyPlot($crate::model::directive::ProxyPlot),
            ProxyPlots($crate::model::directive::ProxyPlots),
            TimingPlot($crate::model::directive::TimingPlot),
            HistoryPlot($crate::model::directive::HistoryPlot),
            Scatter($crate::model::directive::Scatter),
        }
    };
}
pub(crate) use directive_list;

macro_rules! define {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        /// A parsed directive: one variant per directive type.
        #[derive(Debug, Clone, PartialEq, Hash)]
        pub enum Directive {
            $($variant($ty),)*
            /// A directive of a pack.
            Pack(super::pack::Parsed),
        }

        /// Name, attributes, what it shows: the directive reference (also for errors).
        pub const SPECS: &[(&str, &[&str], &str)] =
            &[$((<$ty as Spec>::NAME, <$ty as Spec>::ATTRS, <$ty as Spec>::ABOUT)),*];

        impl Directive {
            pub fn name(&self) -> &'static str {
                match self { $(Directive::$variant(_) => <$ty as Spec>::NAME,)* Directive::Pack(p) => p.spec.name }
            }

            /// See [`Spec::READS`].
            pub fn reads(&self) -> &'static [Kind] {
                match self { $(Directive::$variant(_) => <$ty as Spec>::READS,)* Directive::Pack(p) => p.spec.reads }
            }

            /// See [`Spec::ANCHORS`].
            pub fn anchors(&self) -> bool {
                match self { $(Directive::$variant(_) => <$ty as Spec>::ANCHORS,)* Directive::Pack(p) => p.spec.anchors }
            }

            /// See [`Spec::lists`].
            pub fn lists(&self) -> Option<Kind> {
                match self { $(Directive::$variant(d) => d.lists(),)* Directive::Pack(p) => p.value.lists() }
            }

            /// See [`Spec::shows`].
            pub fn shows(&self) -> Option<(Kind, &str)> {
                match self { $(Directive::$variant(d) => d.shows(),)* Directive::Pack(p) => p.value.shows() }
            }
        }

        /// Parses the directive called `name`, or `None` for no such directive.
        fn parse_named(name: &str, a: &Args) -> Option<Result<Directive, ArgError>> {
            $(
                if name == <$ty as Spec>::NAME {
                    return Some(<$ty as Spec>::parse(a).map(Directive::$variant));
                }
            )*
            None
        }
    };
}
directive_list!(define);

/// Resolves a raw directive on page `page_id`. The error is for the directive line.
pub fn parse(raw: &Raw, page_id: &str, ev: &Evidence) -> Result<Directive, ArgError> {
    let name = current_name(&raw.name);
    let pack = super::pack::directive(name);
    let allowed = match (SPECS.iter().find(|(n, _, _)| *n == name), pack) {
        (Some((_, allowed, _)), _) => *allowed,
        (None, Some((_, spec))) => spec.attrs,
        (None, None) => {
            let mut names: Vec<&str> = SPECS.iter().map(|s| s.0).collect();
            names.extend(
                ev.packs_on()
                    .flat_map(|p| p.directives.iter().map(|d| d.name)),
            );
            return Err(ArgError::UnknownDirective {
                name: raw.name.clone(),
                known: names,
            });
        }
    };
    if let Some((pack, _)) = pack
        && !ev.config.as_ref().is_some_and(|c| c.has_pack(pack.name))
    {
        return Err(ArgError::PackOff {
            name: raw.name.clone(),
            pack: pack.name,
        });
    }
    if let Some(bad) = raw.attrs.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(if allowed.is_empty() {
            ArgError::NoAttributes {
                directive: raw.name.clone(),
                found: bad.clone(),
            }
        } else {
            ArgError::UnknownAttribute {
                directive: raw.name.clone(),
                found: bad.clone(),
                allowed,
            }
        });
    }
    let args = Args {
        name: &raw.name,
        attrs: &raw.attrs,
        page_id,
        ev,
    };
    if let Some((_, spec)) = pack {
        return (spec.parse)(&args)
            .map(|value| Directive::Pack(super::pack::Parsed { spec, value }));
    }
    parse_named(name, &args).unwrap_or_else(|| {
        Err(ArgError::Unresolvable {
            directive: raw.name.clone(),
        })
    })
}

/// A directive with no attributes and no ids to check: its type, its spec (a pack's
/// directives use it too).
#[macro_export]
macro_rules! plain_directive {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $about:literal, [$($read:expr),*], lists: $lists:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Hash)]
        pub struct $ty;

        impl $crate::model::directive::Spec for $ty {
            const NAME: &'static str = $name;
            const ATTRS: &'static [&'static str] = &[];
            const ABOUT: &'static str = $about;
            const READS: &'static [$crate::model::registry::Kind] = &[$($read),*];
            fn parse(_: &$crate::model::directive::Args) -> Result<Self, $crate::model::directive::ArgError> {
                Ok($ty)
            }
            fn lists(&self) -> Option<$crate::model::registry::Kind> {
                $lists
            }
        }
    };
}
use crate::plain_directive as plain;

// ------------------------------------------------------------------ tables

/// `::claims`: the can-show / cannot-show pairs of a page (this one by default).
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Claims {
    pub page: String,
}

impl Spec for Claims {
    const NAME: &'static str = "claims";
    const ATTRS: &'static [&'static str] = &["page"];
    const ABOUT: &'static str = "can-show / cannot-show pairs of a page";
    const READS: &'static [Kind] = &[Kind::Claim, Kind::Observer, Kind::Finding];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let page = a.get("page").unwrap_or_else(|| a.page_id.to_string());
        a.must(Kind::Page, &page)?;
        Ok(Claims { page })
    }
}

plain!(
    /// `::claim-ledger`
    ClaimLedger, "claim-ledger", "every claim on the site", [Kind::Claim, Kind::Observer, Kind::Finding], lists: Some(Kind::Claim)
);
plain!(
    /// `::components`
    Components, "components", "components and their observed status", [Kind::Component, Kind::Status, Kind::Run, Kind::Subject], lists: Some(Kind::Component)
);
plain!(
    /// `::observers`
    Observers, "observers", "observers", [Kind::Observer], lists: Some(Kind::Observer)
);
plain!(
    /// `::worklog`
    Worklog, "worklog", "phase timeline", [Kind::Phase], lists: Some(Kind::Phase)
);
/// `::map-compare{maps}`: the maps named (every map by default) side by side, over the
/// one variable they share. `::dispatch-compare` is its former name, still accepted.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct MapCompare {
    /// The maps compared, in the order given; empty for every map.
    pub maps: Vec<String>,
}

impl Spec for MapCompare {
    const NAME: &'static str = "map-compare";
    const ATTRS: &'static [&'static str] = &["maps"];
    const ABOUT: &'static str = "maps side by side (all, or `maps=\"a b\"`)";
    const READS: &'static [Kind] = &[Kind::Map, Kind::Family];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let maps = a.list("maps");
        a.must_all(Kind::Map, &maps)?;
        if maps.is_empty() {
            let all: Vec<String> = a.ev.maps.iter().map(|m| m.id.value.clone()).collect();
            a.one_variable(&all)?;
        } else {
            a.one_variable(&maps)?;
        }
        Ok(MapCompare { maps })
    }
}

/// Former names of directives, still accepted: `(old, current)`.
pub const ALIASES: &[(&str, &str)] = &[("dispatch-compare", MapCompare::NAME)];

/// The current name of a directive written as `name` (its own name, or the one an old
/// name stands for).
pub fn current_name(name: &str) -> &str {
    ALIASES
        .iter()
        .find(|(old, _)| *old == name)
        .map_or(name, |(_, now)| now)
}
plain!(
    /// `::runs`: the index of all runs (whose page gets a generated page per run).
    Runs, "runs", "index of all runs", [Kind::Run, Kind::Map, Kind::Family, Kind::Engine, Kind::Measurement, Kind::Subject, Kind::Reading], lists: None
);
plain!(
    /// `::glossary`
    Glossary, "glossary", "glossary", [Kind::Term], lists: Some(Kind::Term)
);

/// `::dispatch-map{id}`: the branches of one map.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct DispatchMap {
    pub id: String,
}

impl Spec for DispatchMap {
    const NAME: &'static str = "dispatch-map";
    const ATTRS: &'static [&'static str] = &["id"];
    const ABOUT: &'static str = "branches of a dispatch map";
    const READS: &'static [Kind] = &[Kind::Map, Kind::Family, Kind::Component];
    const ANCHORS: bool = true;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let id = a.need("id")?;
        a.must(Kind::Map, &id)?;
        Ok(DispatchMap { id })
    }
    fn shows(&self) -> Option<(Kind, &str)> {
        Some((Kind::Map, &self.id))
    }
}

/// `::run{id}`: the cases of one run.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct RunTable {
    pub id: String,
}

impl Spec for RunTable {
    const NAME: &'static str = "run";
    const ATTRS: &'static [&'static str] = &["id"];
    const ABOUT: &'static str = "cases of one run";
    const READS: &'static [Kind] = RUN_READS;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let id = a.need("id")?;
        a.must(Kind::Run, &id)?;
        Ok(RunTable { id })
    }
}

/// `::run-page{id}`: everything one run recorded, the content of its generated page.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct RunPage {
    pub id: String,
}

impl Spec for RunPage {
    const NAME: &'static str = "run-page";
    const ATTRS: &'static [&'static str] = &["id"];
    const ABOUT: &'static str =
        "one run in full: cases, comparison with the run before, binary tables";
    const READS: &'static [Kind] = &[
        Kind::Run,
        Kind::Map,
        Kind::Family,
        Kind::Engine,
        Kind::Measurement,
        Kind::TextField,
        Kind::Subject,
        Kind::Reading,
    ];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let id = a.need("id")?;
        a.must(Kind::Run, &id)?;
        Ok(RunPage { id })
    }
    fn shows(&self) -> Option<(Kind, &str)> {
        Some((Kind::Run, &self.id))
    }
}

/// `::latest-run{probe}`
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct LatestRun {
    pub probe: String,
}

impl Spec for LatestRun {
    const NAME: &'static str = "latest-run";
    const ATTRS: &'static [&'static str] = &["probe"];
    const ABOUT: &'static str = "latest run of a probe";
    const READS: &'static [Kind] = RUN_READS;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let probe = a.need("probe")?;
        a.latest_of(&probe)?;
        Ok(LatestRun { probe })
    }
}

/// `::questions{status page}`
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Questions {
    pub status: Option<String>,
    pub page: Option<String>,
}

impl Spec for Questions {
    const NAME: &'static str = "questions";
    const ATTRS: &'static [&'static str] = &["status", "page"];
    const ABOUT: &'static str = "open and resolved questions";
    const READS: &'static [Kind] = &[Kind::Question];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let status = a.get("status");
        if let Some(s) = &status
            && s != "open"
            && s != "resolved"
        {
            return Err(a.bad_value("status", s, "`open` or `resolved`"));
        }
        let page = a.get("page");
        if let Some(p) = &page {
            a.must(Kind::Page, p)?;
        }
        Ok(Questions { status, page })
    }
    fn lists(&self) -> Option<Kind> {
        self.page.is_none().then_some(Kind::Question)
    }
}

/// `::table{of columns}`: the records of a collection the site declares, one row each.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Table {
    /// The collection's name.
    pub of: String,
    /// The fields shown, in order (`id` among them); all of them when none is named.
    pub columns: Vec<String>,
}

impl Spec for Table {
    const NAME: &'static str = "table";
    const ATTRS: &'static [&'static str] = &["of", "columns"];
    const ABOUT: &'static str = "the records of a declared collection, one row each";
    // The records, and what their references name (links go to where those are listed).
    const READS: &'static [Kind] = &super::registry::ALL;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let of = a.need("of")?;
        let config = a.ev.config.as_ref();
        let Some(spec) = config.and_then(|c| c.collection(&of)) else {
            let declared = config
                .iter()
                .flat_map(|c| &c.collections)
                .map(|c| c.name.value.clone())
                .collect();
            return Err(ArgError::NoCollection { of, declared });
        };
        // `columns=id,hypothesis` or `columns="id hypothesis"`.
        let columns: Vec<String> = a
            .get("columns")
            .unwrap_or_default()
            .split([',', ' '])
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect();
        if let Some(bad) = columns
            .iter()
            .find(|c| *c != "id" && spec.field(c).is_none())
        {
            let fields = spec.fields.iter().map(|f| f.name.value.clone()).collect();
            return Err(ArgError::NoField {
                field: bad.clone(),
                of,
                fields,
            });
        }
        Ok(Table { of, columns })
    }
    fn shows(&self) -> Option<(Kind, &str)> {
        Some((Kind::Record, &self.of))
    }
}

/// `::record-page{of id}`: one record of a declared collection, field by field — the
/// content of its generated page (`pages: true`).
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct RecordPage {
    /// Its key, `collection:id`.
    pub key: String,
}

impl Spec for RecordPage {
    const NAME: &'static str = "record-page";
    const ATTRS: &'static [&'static str] = &["of", "id"];
    const ABOUT: &'static str = "one record of a declared collection, field by field";
    const READS: &'static [Kind] = &super::registry::ALL;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let (of, id) = (a.need("of")?, a.need("id")?);
        let key = format!("{of}:{id}");
        if a.ev.is_missing(Kind::Record, &key) {
            return Err(ArgError::NoRecordOf { of, id });
        }
        Ok(RecordPage { key })
    }
    fn shows(&self) -> Option<(Kind, &str)> {
        Some((Kind::Record, &self.key))
    }
}

/// `::findings{ids caption}`
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Findings {
    pub ids: Vec<String>,
    /// A Fluent message of the site to caption the table with (two tables of findings on
    /// one page need names of their own); the theme's `findings-caption` by default.
    pub caption: Option<String>,
}

impl Spec for Findings {
    const NAME: &'static str = "findings";
    const ATTRS: &'static [&'static str] = &["ids", "caption"];
    const ABOUT: &'static str = "source-side findings";
    const READS: &'static [Kind] = &[Kind::Finding];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let ids = a.list("ids");
        a.must_all(Kind::Finding, &ids)?;
        let caption = a.get("caption");
        if let Some(c) = &caption
            && !(c.starts_with(|ch: char| ch.is_ascii_alphabetic())
                && c.chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'))
        {
            return Err(ArgError::BadCaption { caption: c.clone() });
        }
        Ok(Findings { ids, caption })
    }
    fn lists(&self) -> Option<Kind> {
        self.ids.is_empty().then_some(Kind::Finding)
    }
}

// ------------------------------------------------------------------ figures

/// `::dispatch-diagram{map}`: the dispatch-flow diagram of one map.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct DispatchDiagram {
    pub map: String,
}

impl Spec for DispatchDiagram {
    const NAME: &'static str = "dispatch-diagram";
    const ATTRS: &'static [&'static str] = &["map"];
    const ABOUT: &'static str = "dispatch-flow diagram of one map: its subject, a branch per condition with its family, anchor and chain";
    const READS: &'static [Kind] = &[Kind::Map, Kind::Family, Kind::Component];
    const ANCHORS: bool = true;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let map = a.need("map")?;
        a.must(Kind::Map, &map)?;
        Ok(DispatchDiagram { map })
    }
}

/// `::dispatch-diff-diagram{maps}`: where maps differ, ranges of their variable as rows,
/// maps as columns (all maps when empty).
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct DispatchDiffDiagram {
    pub maps: Vec<String>,
}

impl Spec for DispatchDiffDiagram {
    const NAME: &'static str = "dispatch-diff-diagram";
    const ATTRS: &'static [&'static str] = &["maps"];
    const ABOUT: &'static str = "diagram of where dispatch maps differ";
    const READS: &'static [Kind] = &[Kind::Map, Kind::Family];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let maps = a.list("maps");
        a.must_all(Kind::Map, &maps)?;
        let all: Vec<String> = if maps.is_empty() {
            a.ev.maps.iter().map(|m| m.id.value.clone()).collect()
        } else {
            maps.clone()
        };
        a.one_variable(&all)?;
        Ok(DispatchDiffDiagram { maps })
    }
}

plain!(
    /// `::observer-map`: observers, what they tried, their outcome and as-of date.
    ObserverMap, "observer-map", "observers, outcome and as-of date", [Kind::Observer], lists: None
);
plain!(
    /// `::library-chain`: components joined by their `next` links, with each status.
    LibraryChain, "library-chain", "library chain and status", [Kind::Component, Kind::Status], lists: None
);

/// A run named directly, or the latest run of a probe.
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum RunChoice {
    Run(String),
    Latest(String),
}

/// `::proxy-plot{run | probe}`: the cases of one run on a log axis of its map's variable,
/// over the map's zones.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct ProxyPlot {
    pub run: RunChoice,
}

impl Spec for ProxyPlot {
    const NAME: &'static str = "proxy-plot";
    const ATTRS: &'static [&'static str] = &["probe", "run"];
    const ABOUT: &'static str = "phase-proxy cases on a log axis of the map's variable";
    const READS: &'static [Kind] = RUN_READS;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let run = match (a.get("run"), a.get("probe")) {
            (Some(r), None) => {
                a.must(Kind::Run, &r)?;
                RunChoice::Run(r)
            }
            (None, Some(p)) => {
                a.latest_of(&p)?;
                RunChoice::Latest(p)
            }
            _ => {
                return Err(ArgError::RunOrProbe {
                    directive: Self::NAME,
                });
            }
        };
        Ok(ProxyPlot { run })
    }
}

/// `::proxy-plots{probe}`: one proxy plot per run of a probe, oldest first.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct ProxyPlots {
    pub probe: String,
}

impl Spec for ProxyPlots {
    const NAME: &'static str = "proxy-plots";
    const ATTRS: &'static [&'static str] = &["probe"];
    const ABOUT: &'static str = "a proxy plot per run of a probe";
    const READS: &'static [Kind] = RUN_READS;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let probe = a.need("probe")?;
        a.probe(&probe)?;
        Ok(ProxyPlots { probe })
    }
}

/// `::timing-plot{run measures}`: the durations (measurements in `…_ns`) of each case of a
/// run, one group of bars per measurement.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct TimingPlot {
    pub run: String,
    /// The measurements drawn, in order; empty: every duration the run's cases have.
    pub measures: Vec<String>,
}

impl Spec for TimingPlot {
    const NAME: &'static str = "timing-plot";
    const ATTRS: &'static [&'static str] = &["run", "measures"];
    const ABOUT: &'static str = "the durations of each case of a run";
    const READS: &'static [Kind] = RUN_READS;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let run = a.need("run")?;
        a.must(Kind::Run, &run)?;
        let measures = a.list("measures");
        if let Some(m) = measures.iter().find(|m| !super::fields::is_duration(m)) {
            return Err(ArgError::NotDuration { measure: m.clone() });
        }
        Ok(TimingPlot { run, measures })
    }
}

/// `::history-plot{probe case field}`: one measurement of a case across the runs of a
/// probe.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct HistoryPlot {
    pub probe: String,
    pub case: String,
    /// The measurement's name (`Case::measurement`).
    pub field: String,
}

impl Spec for HistoryPlot {
    const NAME: &'static str = "history-plot";
    const ATTRS: &'static [&'static str] = &["probe", "case", "field"];
    const ABOUT: &'static str = "a case value across runs of a probe";
    const READS: &'static [Kind] = RUN_READS;
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let probe = a.need("probe")?;
        let case = a.need("case")?;
        let field = a.need("field")?;
        a.probe(&probe)?;
        if a.ev.incomplete.contains(&Kind::Run) {
            return Ok(HistoryPlot { probe, case, field });
        }
        let cases: Vec<&Case> =
            a.ev.runs
                .iter()
                .filter(|r| r.probe == probe && a.ev.is_own(r))
                // A repeated case (`lookup-r1` …) counts under its key (`lookup`).
                .flat_map(|r| r.cases.iter().filter(|c| c.key() == case))
                .collect();
        if cases.is_empty() {
            return Err(ArgError::NoCase { probe, case });
        }
        if cases.iter().all(|c| c.measurement(&field).is_none()) {
            let mut names: Vec<&str> = cases.iter().flat_map(|c| c.measured()).collect();
            names.sort_unstable();
            names.dedup();
            let measured = names.into_iter().map(String::from).collect();
            return Err(ArgError::NotMeasuredByCase {
                probe,
                case,
                field,
                measured,
            });
        }
        Ok(HistoryPlot { probe, case, field })
    }
}

/// `::scatter{run x y omit log}`: measurement `y` against measurement `x` over the cases of
/// one run (a sweep of sizes: `x="est_rows" y="exec_ns"`), leaving out the cases `omit`
/// names, each axis linear from zero or, named in `log` (`x`, `y` or `xy`), logarithmic.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Scatter {
    pub run: String,
    pub x: String,
    pub y: String,
    /// Ids of the run's cases left out of the plot.
    pub omit: Vec<String>,
    pub log_x: bool,
    pub log_y: bool,
}

impl Spec for Scatter {
    const NAME: &'static str = "scatter";
    const ATTRS: &'static [&'static str] = &["run", "x", "y", "omit", "log"];
    const ABOUT: &'static str = "one measurement against another over the cases of a run";
    const READS: &'static [Kind] = &[Kind::Run, Kind::Measurement];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let (run, x, y) = (a.need("run")?, a.need("x")?, a.need("y")?);
        a.must(Kind::Run, &run)?;
        let omit = a.list("omit");
        let (log_x, log_y) = match a.get("log").as_deref() {
            None => (false, false),
            Some("x") => (true, false),
            Some("y") => (false, true),
            Some("xy") => (true, true),
            Some(other) => {
                return Err(a.bad_value(
                    "log",
                    other,
                    "the axes drawn on a log scale: `x`, `y` or `xy`",
                ));
            }
        };
        if let Some(r) = a.ev.runs.get(&run) {
            let ids = || r.cases.iter().map(|c| c.id.value.as_str());
            if let Some(bad) = omit.iter().find(|o| !ids().any(|i| i == o.as_str())) {
                return Err(ArgError::NoCaseToOmit {
                    suggestion: super::refs::closest(bad, ids()).map(String::from),
                    case: bad.clone(),
                    run,
                });
            }
            let kept = || r.cases.iter().filter(|c| !omit.contains(&c.id.value));
            for m in [&x, &y] {
                if !kept().any(|c| c.measurement(m).is_some()) {
                    return Err(ArgError::NotMeasured {
                        run,
                        measure: m.clone(),
                    });
                }
            }
            for (m, log) in [(&x, log_x), (&y, log_y)] {
                let bad = kept().find(|c| c.measurement(m).is_some_and(|v| v <= 0.0));
                if let (true, Some(c)) = (log, bad) {
                    return Err(ArgError::NotPositive {
                        case: c.id.value.clone(),
                        measure: m.clone(),
                    });
                }
            }
        }
        Ok(Scatter {
            run,
            x,
            y,
            omit,
            log_x,
            log_y,
        })
    }
}
