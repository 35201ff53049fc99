//! What to re-read after a change: for each changed map or record, each run that stopped
//! being its probe's latest and each run rewritten, the claims,
//! findings, phases, questions and pages that cite or quote it, and — for a map whose
//! bound moved — every place in the head's texts that still writes the old bound as a
//! number ("≤ 256" after the bound became 320).

use super::report::{Compared, Report};
use evidence_core::model::Evidence;
use evidence_core::model::page::Item;
use evidence_core::model::refs::{Kind, Ref};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// One changed thing and where the head still leans on it.
#[derive(Debug, Serialize, PartialEq)]
pub struct Reread {
    /// `kind:id` of what changed.
    pub changed: String,
    /// Why it is listed.
    pub reason: Reason,
    /// The probe whose latest run it stopped being, for [`Reason::NoLongerLatest`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probe: Option<String>,
    /// `kind:id` of what cites it, and `page:id` of the pages that quote or show it.
    pub cited_by: Vec<String>,
    /// Old bounds of a changed map still written as numbers, with where.
    pub numbers: Vec<NumberSeen>,
}

/// Why something is listed to re-read.
#[derive(Debug, Serialize, PartialEq, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Its record changed (a map, a record).
    Changed,
    /// A run whose file did not change, but a newer run took its place as its probe's
    /// latest: what cites the latest run now reads another.
    NoLongerLatest,
    /// A run record rewritten in place: what quotes its values reads other numbers.
    Rewritten,
}

impl Reason {
    /// How every format says it after the `kind:id`: "changed", "was rewritten", "stopped
    /// being the latest run of probe P (its file did not change)".
    pub fn words(self, probe: Option<&str>) -> String {
        match self {
            Reason::Changed => "changed".into(),
            Reason::Rewritten => "was rewritten".into(),
            Reason::NoLongerLatest => format!(
                "stopped being the latest run of probe {} (its file did not change)",
                probe.unwrap_or("—")
            ),
        }
    }
}

impl Reread {
    /// [`Reason::words`] of this entry.
    pub fn why(&self) -> String {
        self.reason.words(self.probe.as_deref())
    }
}

#[derive(Debug, Serialize, PartialEq)]
pub struct NumberSeen {
    pub number: String,
    /// `page:id` or `kind:id.field`.
    pub place: String,
}

/// The re-read list of a report.
pub fn find(base: &Compared, head: &Compared, report: &Report) -> Vec<Reread> {
    let mut changed: Vec<(Kind, String, Reason, Option<String>)> = Vec::new();
    let changed_record = |kind, id: &String| (kind, id.clone(), Reason::Changed, None);
    changed.extend(report.maps.iter().map(|m| changed_record(Kind::Map, &m.id)));
    for r in &report.records {
        if let Some(kind) = Kind::from_name(&r.kind).filter(|k| *k != Kind::Page) {
            changed.push(changed_record(kind, &r.id));
        }
    }
    // A rewritten run is listed as that, once, whether or not it was the latest.
    let rewritten: BTreeSet<&str> = report.rewrites.iter().map(|w| w.run.as_str()).collect();
    for l in report
        .runs
        .latest
        .iter()
        .filter(|l| l.base_run != l.head_run && !rewritten.contains(l.base_run.as_str()))
    {
        changed.push((
            Kind::Run,
            l.base_run.clone(),
            Reason::NoLongerLatest,
            Some(l.probe.clone()),
        ));
    }
    for run in rewritten {
        changed.push((Kind::Run, run.to_string(), Reason::Rewritten, None));
    }
    let mut out = Vec::new();
    for (kind, id, reason, probe) in changed {
        let target = Ref {
            kind,
            id: id.clone(),
        };
        let mut cited: BTreeSet<String> = head
            .loaded
            .derived
            .citations(&target)
            .iter()
            .map(|r| format!("{}:{}", r.kind.name(), r.id))
            .collect();
        cited.extend(pages_showing(head.ev, kind, &id));
        let numbers = if kind == Kind::Map {
            old_bounds(base.ev, head.ev, &id)
                .into_iter()
                .flat_map(|n| {
                    places_writing(head, &n)
                        .into_iter()
                        .map(move |p| (n.clone(), p))
                })
                .map(|(number, place)| NumberSeen { number, place })
                .collect()
        } else {
            Vec::new()
        };
        if !cited.is_empty() || !numbers.is_empty() {
            out.push(Reread {
                changed: format!("{}:{id}", kind.name()),
                reason,
                probe,
                cited_by: cited.into_iter().collect(),
                numbers,
            });
        }
    }
    out
}

/// `page:id` of every page that quotes `kind:id` (`:v[kind:id…]`) or names `id` in a
/// directive (`::dispatch-map{id="…"}`, `::run{id="…"}`).
fn pages_showing(ev: &Evidence, kind: Kind, id: &str) -> Vec<String> {
    let quote = format!(":v[{}:{id}", kind.name());
    ev.pages
        .iter()
        .filter(|p| !p.generated)
        .filter(|p| {
            p.items.iter().any(|item| match item {
                Item::Block(b) => b.markdown.contains(&quote),
                Item::Directive(d) => d.attrs.values().any(|v| v == id),
            })
        })
        .map(|p| format!("page:{}", p.id))
        .collect()
}

/// The edges of map `id`'s bounds in the base that the head's map no longer has, written
/// as the site writes numbers.
fn old_bounds(base: &Evidence, head: &Evidence, id: &str) -> Vec<String> {
    let edges = |ev: &Evidence| -> BTreeSet<String> {
        ev.maps
            .get(id)
            .into_iter()
            .flat_map(|m| m.branches.iter().filter_map(|b| b.bound))
            .flat_map(|b| b.edges().collect::<Vec<_>>())
            .map(|v| evidence_core::model::format::Decimal(v).to_string())
            .collect()
    };
    let now = edges(head);
    edges(base)
        .into_iter()
        .filter(|e| !now.contains(e))
        .collect()
}

/// Where the head's texts write `number` as a whole number (not inside a longer one): in
/// page blocks and in every record's strings (runs left out: they record, they do not
/// argue).
fn places_writing(head: &Compared, number: &str) -> Vec<String> {
    let mut out = Vec::new();
    for p in head.ev.pages.iter().filter(|p| !p.generated) {
        let hit = p.items.iter().any(|item| match item {
            Item::Block(b) => writes(&b.markdown, number),
            Item::Directive(_) => false,
        });
        if hit {
            out.push(format!("page:{}", p.id));
        }
    }
    if let Value::Object(kinds) = &head.json {
        for (kind, records) in kinds.iter().filter(|(k, _)| k.as_str() != "run") {
            let Value::Object(records) = records else {
                continue;
            };
            for (id, record) in records {
                let mut fields = Vec::new();
                strings(record, "", &mut fields);
                for (path, s) in fields {
                    if writes(s, number) {
                        out.push(format!("{kind}:{id}.{path}"));
                    }
                }
            }
        }
    }
    out
}

/// Every string in `v` with its path.
fn strings<'v>(v: &'v Value, path: &str, out: &mut Vec<(String, &'v str)>) {
    match v {
        Value::String(s) => out.push((path.to_string(), s)),
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                strings(x, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                strings(x, &p, out);
            }
        }
        _ => {}
    }
}

/// Whether `text` writes `number` on its own: no digit, `.` or `_` right before or after it
/// (`256` in "≤ 256" but not in "2560", "1.256" or "v1256").
fn writes(text: &str, number: &str) -> bool {
    let part =
        |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    text.match_indices(number).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + number.len()..].chars().next();
        !part(before) && !part(after)
    })
}

#[cfg(test)]
mod tests {
    use super::writes;

    #[test]
    fn numbers_are_found_whole() {
        assert!(writes("ne11 ≤ 256 goes to MMQ", "256"));
        assert!(writes("(8, 256]", "256"));
        assert!(!writes("2560 tokens", "256"));
        assert!(!writes("gfx1256", "256"));
        assert!(!writes("1.256", "256"));
        assert!(writes("0.05", "0.05"));
    }
}
