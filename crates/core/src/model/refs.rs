//! References between records: `kind:id` strings, and the walk that resolves them all.

use super::span_of;
use super::{Evidence, Id, parse_ref};
use crate::diagnostics::{Diagnostic, Diagnostics};

pub use super::registry::Kind;

/// A parsed reference.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ref {
    pub kind: Kind,
    pub id: String,
}

impl Ref {
    /// Parses `kind:id`. A kind name the registry does not know is taken as a declared
    /// collection's: a [`Kind::Record`] keyed `collection:id`, which resolving reports
    /// when the site declares no such collection.
    pub fn parse(s: &str) -> Result<Ref, RefError> {
        let Some((kind, id)) = s.split_once(':') else {
            return Err(RefError::NoKind(s.to_string()));
        };
        if !valid_id(id) {
            return Err(RefError::BadId {
                id: id.to_string(),
                written: s.to_string(),
            });
        }
        match Kind::from_name(kind) {
            Some(Kind::Record) | None if valid_id(kind) && !kind.contains('.') => Ok(Ref {
                kind: Kind::Record,
                id: s.to_string(),
            }),
            Some(kind) if kind != Kind::Record => Ok(Ref {
                kind,
                id: id.to_string(),
            }),
            _ => Err(RefError::UnknownKind {
                kind: kind.to_string(),
                written: s.to_string(),
            }),
        }
    }

    /// For a declared record: its collection's name.
    pub fn collection(&self) -> Option<&str> {
        (self.kind == Kind::Record).then(|| self.id.split_once(':').map_or("", |(c, _)| c))
    }
}

/// Why a string is no `kind:id` reference (`written` is the whole string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefError {
    /// No `:` separates a kind from an id.
    NoKind(String),
    /// The id holds characters an id may not.
    BadId { id: String, written: String },
    /// A kind no registry or collection name can be.
    UnknownKind { kind: String, written: String },
}

impl std::fmt::Display for RefError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefError::NoKind(s) => write!(f, "`{s}` is not a reference: expected `kind:id`"),
            RefError::BadId { id, written } => {
                write!(f, "`{id}` is not a valid id in `{written}`")
            }
            RefError::UnknownKind { kind, written } => {
                write!(f, "unknown reference kind `{kind}` in `{written}`")
            }
        }
    }
}

impl std::error::Error for RefError {}

impl std::fmt::Display for Ref {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            // Its key already is `collection:id`.
            Kind::Record => write!(f, "{}", self.id),
            kind => write!(f, "{}:{}", kind.name(), self.id),
        }
    }
}

pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Whether `s` is a calendar date written `YYYY-MM-DD`: four, two and two digits (no
/// sign, no other form of ISO 8601), a day the calendar has (jiff).
pub fn valid_date(s: &str) -> bool {
    let b = s.as_bytes();
    let shape = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    shape
        && jiff::fmt::strtime::parse("%Y-%m-%d", s)
            .and_then(|t| t.to_date())
            .is_ok()
}

/// Whether `s` is a date (`YYYY-MM-DD`) or an RFC 3339 time with its offset
/// (`2026-11-22T01:02:03Z`), as run dates are written.
pub fn valid_date_or_time(s: &str) -> bool {
    match s.get(..10) {
        Some(day) if s.len() == 10 => valid_date(day),
        Some(day) => {
            valid_date(day)
                && s.as_bytes().get(10) == Some(&b'T')
                && s.parse::<jiff::Timestamp>().is_ok()
        }
        None => false,
    }
}

/// What a field of a record points at, for the resolver to check: a record of the graph,
/// or a date the field must hold.
pub enum Reference<'a> {
    /// A bare id that must name a record of this kind.
    Bare(Kind, &'a Id),
    /// A `kind:id` reference to any record.
    Any(&'a Id),
    /// A calendar date, `YYYY-MM-DD`.
    Date(&'a Id),
    /// A date or an RFC 3339 time (when a run was taken).
    Moment(&'a Id),
}

/// What a core record refers to. Every core kind's record type says it (a kind of
/// [`super::registry::core_kinds!`] whose type lacks it does not compile), so that
/// resolving references lists no kind.
pub trait Refers {
    /// Each reference the record makes, in the order its fields are written.
    fn references(&self) -> Vec<Reference<'_>> {
        Vec::new()
    }
}

/// Resolves references while walking every record.
struct Resolver<'a> {
    ev: &'a Evidence,
    diags: &'a mut Diagnostics,
}

impl Resolver<'_> {
    /// A bare id that must name a record of `kind`.
    fn bare(&mut self, file: &str, kind: Kind, id: &Id) {
        if self.ev.is_missing(kind, &id.value) {
            self.dangling(file, kind, id);
        }
    }

    /// A `kind:id` reference to any record.
    fn any(&mut self, file: &str, id: &Id) {
        let Some(r) = parse_ref(file, id, self.diags) else {
            return;
        };
        if let Some(name) = r.collection()
            && self
                .ev
                .config
                .as_ref()
                .is_none_or(|c| c.collection(name).is_none())
        {
            let declared: Vec<String> = self
                .ev
                .config
                .iter()
                .flat_map(|c| &c.collections)
                .map(|c| c.name.value.clone())
                .collect();
            self.diags.push(
                Diagnostic::error(
                    "bad-ref",
                    span_of(file, id),
                    format!("unknown reference kind `{name}` in `{}`", id.value),
                )
                .with_hint(format!(
                    "references look like `kind:id` (`claim:c1`); kinds: {}{}",
                    Kind::names(),
                    declared
                        .iter()
                        .map(|d| format!(", {d}"))
                        .collect::<String>()
                )),
            );
            return;
        }
        if self.ev.is_missing(r.kind, &r.id) {
            self.dangling(file, r.kind, id);
        }
    }

    fn dangling(&mut self, file: &str, kind: Kind, id: &Id) {
        let (prefix, bare) = id.value.split_once(':').unwrap_or(("", &id.value));
        // A declared record is named by its collection.
        let what = if kind == Kind::Record {
            prefix
        } else {
            kind.name()
        };
        let mut d = Diagnostic::error(
            "dangling-ref",
            span_of(file, id),
            format!("no {what} with id `{bare}`"),
        );
        if let Some(pack) = super::pack::of_kind(kind)
            && !self.pack_on(pack.name)
        {
            d = d.with_hint(format!(
                "`{}` records come with the `{}` pack: add `packs: [{}]` to evidence.yaml",
                kind.name(),
                pack.name,
                pack.name
            ));
        } else if let Some(near) = self.nearest(kind, prefix, bare) {
            d = d.with_hint(format!("did you mean `{near}`?"));
        } else if let Some(c) = self.ev.config.as_ref().and_then(|c| c.collection(prefix))
            && kind == Kind::Record
        {
            d = d.with_hint(format!(
                "add a record with id `{bare}` to data/{}",
                c.file()
            ));
        } else if let Some(file) = kind.spec().file_pattern() {
            d = d.with_hint(format!(
                "add a record with id `{bare}` to data/{file} (kind `{}`)",
                kind.name()
            ));
        }
        self.diags.push(d);
    }

    /// Checks one reference `file`'s record makes.
    fn check(&mut self, file: &str, reference: Reference<'_>) {
        match reference {
            Reference::Bare(kind, id) => self.bare(file, kind, id),
            Reference::Any(id) => self.any(file, id),
            Reference::Date(id) => self.date(file, id),
            Reference::Moment(id) => self.run_date(file, id),
        }
    }

    fn pack_on(&self, name: &str) -> bool {
        self.ev.config.as_ref().is_some_and(|c| c.has_pack(name))
    }

    /// The known id closest to `id`, for a "did you mean" hint; for a declared record,
    /// among the records of its `collection`, by their own ids.
    fn nearest(&self, kind: Kind, collection: &str, id: &str) -> Option<String> {
        let ids: Vec<String> = match kind {
            Kind::Record => self
                .ev
                .records
                .iter()
                .filter(|r| r.collection == collection)
                .map(|r| r.id.value.clone())
                .collect(),
            _ => crate::model::with_collection!(
                self.ev,
                kind,
                |c| c.iter().map(|r| super::Record::id(&r.value).value.clone()).collect(),
                pages => self.ev.pages.iter().map(|p| p.id.clone()).collect()
            ),
        };
        closest(id, ids.iter().map(String::as_str)).map(str::to_string)
    }

    fn date(&mut self, file: &str, id: &Id) {
        if !valid_date(&id.value) {
            self.diags.push(
                Diagnostic::error(
                    "bad-date",
                    span_of(file, id),
                    format!("`{}` is not a date", id.value),
                )
                .with_hint("write dates as YYYY-MM-DD; leave an unknown date out"),
            );
        }
    }

    fn run_date(&mut self, file: &str, id: &Id) {
        if !valid_date_or_time(&id.value) {
            self.diags.push(
                Diagnostic::error(
                    "bad-date",
                    span_of(file, id),
                    format!("`{}` is not a date or RFC 3339 time", id.value),
                )
                .with_hint("write YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ; leave an unknown date out"),
            );
        }
    }
}

/// Checks every reference in the graph, then the rules that tie records of two kinds.
pub fn resolve_all(ev: &Evidence, diags: &mut Diagnostics) {
    let mut r = Resolver { ev, diags };
    super::registry::core_kinds!([&mut r] resolve_kinds);
    if let Some(own) = ev.config.as_ref().and_then(|c| c.subject.as_ref()) {
        r.bare("evidence.yaml", Kind::Subject, own);
    }
    if let Some(config) = &ev.config {
        for rec in ev.records.iter() {
            for (kind, id) in super::declared::refs(&config.collections, rec) {
                r.bare(&rec.file, kind, &id);
            }
        }
    }
    for records in ev.pack.values() {
        for rec in records.iter() {
            for x in rec.value.references() {
                r.check(&rec.file, x);
            }
        }
    }
    reading_cases(&mut r);
    restated_texts(&mut r);
    subject_runs(&mut r);
    claim_limits(&mut r);
    chain_loops(ev, r.diags);
    for run in ev.runs.iter() {
        case_ids(&mut r, run);
    }
}

/// From [`super::registry::core_kinds!`]: the references of every record of each core kind.
macro_rules! resolve_kinds {
    ([$r:expr] $($(#[$doc:meta])* $kind:ident => $field:ident: $type:ident, $name:literal,
        $storage:expr, $compare:ident, $($shape:ident)+;)*) => {{
        let r: &mut Resolver = $r;
        $(for rec in r.ev.$field.iter() {
            for x in Refers::references(&rec.value) {
                r.check(&rec.file, x);
            }
        })*
    }};
}
use resolve_kinds;

/// A reading of a case names a case of its run (a missing run is told as a reference).
fn reading_cases(r: &mut Resolver) {
    let ev = r.ev;
    for reading in ev.readings.iter() {
        if let (Some(run), Some(case)) = (ev.runs.get(&reading.run.value), &reading.case)
            && !run.cases.iter().any(|c| c.id.value == case.value)
        {
            r.diags.push(
                Diagnostic::error(
                    "dangling-ref",
                    span_of(&reading.file, case),
                    format!("run `{}` has no case `{}`", reading.run.value, case.value),
                )
                .with_hint("name a case of the run by its id"),
            );
        }
    }
}

/// A reading that restates a run's text is of the whole run, and the run has that text.
fn restated_texts(r: &mut Resolver) {
    use super::types::RunText;
    let ev = r.ev;
    for reading in ev.readings.iter() {
        let Some(what) = reading.restates else {
            continue;
        };
        let name = match what {
            RunText::Origin => "origin",
            RunText::Note => "note",
        };
        let problem = if reading.case.is_some() {
            Some(format!(
                "reading `{}` restates the run's `{name}` but names a case",
                reading.id.value
            ))
        } else {
            ev.runs
                .get(&reading.run.value)
                .filter(|run| what == RunText::Note && run.note.is_none())
                .map(|run| format!("run `{}` has no `note` to restate", run.id.value))
        };
        if let Some(message) = problem {
            r.diags.push(
                Diagnostic::error("bad-restatement", span_of(&reading.file, &reading.id), message)
                    .with_hint("`restates:` says a whole run's `origin` or `note` again: leave out `case`, and restate only a text the run has"),
            );
        }
    }
}

/// A run belongs to one subject: listed once, and not against its own `subject`.
fn subject_runs(r: &mut Resolver) {
    let ev = r.ev;
    let mut listed: std::collections::HashMap<&str, &str> = Default::default();
    for s in ev.subjects.iter() {
        for run in &s.runs {
            let own = ev.runs.get(&run.value).and_then(|x| x.subject.as_ref());
            let clash = match (listed.insert(&run.value, &s.id.value), own) {
                (Some(first), _) => Some(first.to_string()),
                (None, Some(o)) if o.value != s.id.value => Some(o.value.clone()),
                _ => None,
            };
            if let Some(other) = clash {
                r.diags.push(
                    Diagnostic::error(
                        "subject-clash",
                        span_of(&s.file, run),
                        format!(
                            "run `{}` is given to subject `{}` here, but it already belongs to `{other}`",
                            run.value, s.id.value
                        ),
                    )
                    .with_hint("a run is of one subject: list it under that one only"),
                );
            }
        }
    }
}

/// A claim's cannot-show side names what keeps it out of reach: an observer or a limit.
fn claim_limits(r: &mut Resolver) {
    for c in r.ev.claims.iter() {
        if c.constraint.is_none() && c.limit.is_none() {
            r.diags.push(
                Diagnostic::error(
                    "claim-limit",
                    span_of(&c.file, &c.id),
                    format!("claim `{}` names no constraint or limit", c.id.value),
                )
                .with_hint(
                    "a cannot-show needs the observer behind it (`constraint`) or another `limit`",
                ),
            );
        }
    }
}

/// Each case of a run has an id of its own.
fn case_ids(r: &mut Resolver, run: &super::Located<super::Run>) {
    // FxHash, sized at once: a run can hold thousands of cases, and this is the one
    // serial pass over all of a site's cases.
    let mut seen = rustc_hash::FxHashSet::default();
    seen.reserve(run.cases.len());
    for c in &run.cases {
        if !seen.insert(c.id.value.as_str()) {
            r.diags.push(Diagnostic::error(
                "duplicate-id",
                span_of(&run.file, &c.id),
                format!(
                    "duplicate case id `{}` in run `{}`",
                    c.id.value, run.id.value
                ),
            ));
        }
    }
}

/// A `next` chain of components that comes back to where it started is reported once,
/// at the `next` of the cycle's smallest id.
fn chain_loops(ev: &Evidence, diags: &mut Diagnostics) {
    for c in ev.components.iter() {
        let start = c.id.value.as_str();
        let mut cycle = vec![start];
        let mut cur = c.next.as_ref().map(|n| n.value.as_str());
        while let Some(id) = cur {
            if id == start {
                break;
            }
            if cycle.len() > ev.components.len() || cycle.contains(&id) {
                cur = None;
                break;
            }
            cycle.push(id);
            cur = ev
                .components
                .get(id)
                .and_then(|n| n.next.as_ref())
                .map(|n| n.value.as_str());
        }
        let (Some(_), Some(next)) = (cur, &c.next) else {
            continue;
        };
        if cycle.iter().all(|id| start <= *id) {
            diags.push(
                Diagnostic::error(
                    "chain-loop",
                    span_of(&c.file, next),
                    format!("the component chain loops: {} → {start}", cycle.join(" → ")),
                )
                .with_hint("`next` names the following link of the chain; the last link has none"),
            );
        }
    }
}

/// The candidate closest to `id`, when it is near enough to be what was meant: the one
/// "did you mean" rule of ids, page names and fragments.
pub fn closest<'c>(id: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(c, id), c))
        .filter(|(d, c)| *d <= 3.max(c.len() / 3))
        .min()
        .map(|(_, c)| c)
}

/// `; did you mean `x`?` after a message, for the candidate [`closest`] to `id`; empty
/// when none is near.
pub fn did_you_mean<'c>(id: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    suggestion(closest(id, candidates))
}

/// `; did you mean `x`?` for a candidate found by [`closest`]; empty for none.
pub fn suggestion(closest: Option<&str>) -> String {
    closest
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

/// Levenshtein distance, for suggestions only (short strings).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_reference_says_what_is_wrong() {
        let said = |s: &str| Ref::parse(s).unwrap_err().to_string();
        assert_eq!(said("c1"), "`c1` is not a reference: expected `kind:id`");
        assert_eq!(said("claim:a b"), "`a b` is not a valid id in `claim:a b`");
        assert_eq!(said("a.b:c"), "unknown reference kind `a.b` in `a.b:c`");
    }

    #[test]
    fn parses_refs() {
        assert_eq!(
            Ref::parse("claim:c_30").unwrap(),
            Ref {
                kind: Kind::Claim,
                id: "c_30".into()
            }
        );
        assert!(Ref::parse("c_30").is_err());
        // An unknown kind may be a declared collection's; resolving tells.
        assert_eq!(Ref::parse("bogus:x").unwrap().collection(), Some("bogus"));
        assert_eq!(Ref::parse("bogus:x").unwrap().to_string(), "bogus:x");
        assert!(Ref::parse("bo.gus:x").is_err());
        assert!(Ref::parse("record:x").is_ok_and(|r| r.collection() == Some("record")));
        assert!(Ref::parse("claim:").is_err());
    }

    #[test]
    fn dates() {
        assert!(valid_date("2026-03-28"));
        assert!(valid_date("2024-02-29"));
        assert!(!valid_date("2023-02-29"));
        assert!(!valid_date("2026-13-01"));
        assert!(!valid_date("26-03-28"));
        // Signs, spaces and other ISO 8601 forms are not `YYYY-MM-DD`.
        for bad in [
            "2026-+1-+5",
            "2026-1-05",
            "2026- 1-05",
            "+02026-01-05",
            "20260105",
            "2026-01-05 ",
        ] {
            assert!(!valid_date(bad), "{bad}");
        }
        assert!(valid_date_or_time("2026-11-22T01:02:03Z"));
        assert!(valid_date_or_time("2026-11-22T01:02:03.5+09:00"));
        assert!(valid_date_or_time("2026-11-22"));
        for bad in [
            "2026-11-22Tgarbage",
            "2026-11-22T25:00:00Z",
            "2026-11-22T01:02:03",
            "2026-+1-22T01:02:03Z",
        ] {
            assert!(!valid_date_or_time(bad), "{bad}");
        }
    }

    #[test]
    fn distance() {
        assert_eq!(edit_distance("bundle_0030", "bundle_0031"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
