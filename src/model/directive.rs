//! Typed page directives (`::bundles{arch="gfx1201"}`) and their validation.
//!
//! A directive names a data view; [`parse`] checks its name, attributes and the ids it
//! names, so that an unknown directive or a dangling id fails `check` at its line.

use super::Evidence;
use super::refs::Kind;
use crate::load::page::Directive as Raw;
use std::collections::BTreeMap;

/// What a directive embeds.
#[derive(Debug, Clone, PartialEq)]
pub enum Directive {
    Claims {
        page: String,
    },
    ClaimLedger,
    Bundles {
        arch: Option<String>,
        ids: Vec<String>,
    },
    Generations,
    Components,
    Observers,
    Worklog,
    DispatchMap {
        id: String,
    },
    DispatchCompare,
    Run {
        id: String,
    },
    LatestRun {
        probe: String,
    },
    Runs,
    Questions {
        status: Option<String>,
        page: Option<String>,
    },
    Glossary,
    Findings {
        ids: Vec<String>,
    },
    TensorTypes,
    FileTypes,
    Layers,
    Plan,
}

/// Name, allowed attributes, description: the directive reference (also for errors).
pub const SPECS: &[(&str, &[&str], &str)] = &[
    (
        "claims",
        &["page"],
        "can-show / cannot-show pairs of a page",
    ),
    ("claim-ledger", &[], "every claim on the site"),
    ("bundles", &["arch", "ids"], "bundle table"),
    ("generations", &[], "GPU generations"),
    ("components", &[], "ROCm components"),
    ("observers", &[], "observers"),
    ("worklog", &[], "phase timeline"),
    ("dispatch-map", &["id"], "branches of a dispatch map"),
    ("dispatch-compare", &[], "dispatch maps side by side"),
    ("run", &["id"], "cases of one run"),
    ("latest-run", &["probe"], "latest run of a probe"),
    ("runs", &[], "index of all runs"),
    (
        "questions",
        &["status", "page"],
        "open and resolved questions",
    ),
    ("glossary", &[], "glossary"),
    ("findings", &["ids"], "source-side findings"),
    (
        "tensor-types",
        &[],
        "tensor types and their kernel families",
    ),
    ("file-types", &[], "file-type labels and their tensor mixes"),
    ("layers", &[], "layers of the general map"),
    ("plan", &[], "plan for broadening the map"),
];

/// Resolves a raw directive on page `page_id`. The error is a message for the directive line.
pub fn parse(raw: &Raw, page_id: &str, ev: &Evidence) -> Result<Directive, String> {
    let Some((_, allowed, _)) = SPECS.iter().find(|(n, _, _)| *n == raw.name) else {
        let names: Vec<&str> = SPECS.iter().map(|s| s.0).collect();
        return Err(format!(
            "unknown directive `::{}` (known: {})",
            raw.name,
            names.join(", ")
        ));
    };
    if let Some(bad) = raw.attrs.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(if allowed.is_empty() {
            format!("`::{}` takes no attributes, found `{bad}`", raw.name)
        } else {
            format!(
                "`::{}` has no attribute `{bad}` (allowed: {})",
                raw.name,
                allowed.join(", ")
            )
        });
    }
    let a = &raw.attrs;
    let need = |key: &str| {
        a.get(key)
            .cloned()
            .ok_or_else(|| format!("`::{}` needs `{key}=\"…\"`", raw.name))
    };
    let d = match raw.name.as_str() {
        "claims" => Directive::Claims {
            page: a
                .get("page")
                .cloned()
                .unwrap_or_else(|| page_id.to_string()),
        },
        "claim-ledger" => Directive::ClaimLedger,
        "bundles" => Directive::Bundles {
            arch: a.get("arch").cloned(),
            ids: list(a, "ids"),
        },
        "generations" => Directive::Generations,
        "components" => Directive::Components,
        "observers" => Directive::Observers,
        "worklog" => Directive::Worklog,
        "dispatch-map" => Directive::DispatchMap { id: need("id")? },
        "dispatch-compare" => Directive::DispatchCompare,
        "run" => Directive::Run { id: need("id")? },
        "latest-run" => Directive::LatestRun {
            probe: need("probe")?,
        },
        "runs" => Directive::Runs,
        "questions" => Directive::Questions {
            status: a.get("status").cloned(),
            page: a.get("page").cloned(),
        },
        "glossary" => Directive::Glossary,
        "findings" => Directive::Findings {
            ids: list(a, "ids"),
        },
        "tensor-types" => Directive::TensorTypes,
        "file-types" => Directive::FileTypes,
        "layers" => Directive::Layers,
        _ => Directive::Plan,
    };
    validate(&d, ev)?;
    Ok(d)
}

fn list(a: &BTreeMap<String, String>, key: &str) -> Vec<String> {
    a.get(key)
        .map(|v| v.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// Checks that the ids a directive names exist.
fn validate(d: &Directive, ev: &Evidence) -> Result<(), String> {
    let must = |kind: Kind, id: &str| {
        if !ev.is_missing(kind, id) {
            Ok(())
        } else {
            Err(format!("no {} with id `{id}`", kind.name()))
        }
    };
    match d {
        Directive::Claims { page } => must(Kind::Page, page),
        Directive::Bundles { ids, .. } => ids.iter().try_for_each(|i| must(Kind::Bundle, i)),
        Directive::DispatchMap { id } => must(Kind::Map, id),
        Directive::Run { id } => must(Kind::Run, id),
        Directive::LatestRun { probe } => {
            if ev.runs.iter().any(|r| &r.probe == probe) || ev.incomplete.contains(&Kind::Run) {
                Ok(())
            } else {
                Err(format!("no run of probe `{probe}`"))
            }
        }
        Directive::Questions { status, page } => {
            if let Some(s) = status
                && s != "open"
                && s != "resolved"
            {
                return Err(format!("status must be `open` or `resolved`, not `{s}`"));
            }
            page.as_deref().map_or(Ok(()), |p| must(Kind::Page, p))
        }
        Directive::Findings { ids } => ids.iter().try_for_each(|i| must(Kind::Finding, i)),
        _ => Ok(()),
    }
}
