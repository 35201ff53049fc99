//! Typed page directives (`::claims{page="index"}`) and their validation.
//!
//! A directive names a data view; [`parse`] checks its name, attributes and the ids it
//! names, so that an unknown directive or a dangling id fails `check` at its line.

use super::page::DirectiveLine as Raw;
use super::refs::Kind;
use super::{Case, Evidence};
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
    /// Everything one run recorded: the content of the run's generated page.
    RunPage {
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
    /// `::fatbin-targets`
    FatbinTargets,
    /// `::tensor-mix`
    TensorMix,
    FileTypes,
    Layers,
    Plan,
    /// A diagram or plot, drawn as SVG by `render::figures`.
    Figure(Figure),
}

/// What a figure directive draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Figure {
    /// Dispatch-flow diagram of one map.
    DispatchDiagram { map: String },
    /// Where maps differ: ranges of their variable as rows, maps as columns (all maps
    /// when empty).
    DispatchDiff { maps: Vec<String> },
    /// Observers, what they tried, their outcome and as-of date.
    ObserverMap,
    /// The library chain (`next` links of components) with each status.
    LibraryChain,
    /// Phase-proxy cases of one run on a log axis of the map's variable, over its zones.
    ProxyPlot { run: RunChoice },
    /// One proxy plot per run of a probe, oldest first.
    ProxyPlots { probe: String },
    /// Load, prompt-eval and eval durations of each case of a run.
    TimingPlot { run: String },
    /// One value of a case across the runs of a probe.
    HistoryPlot {
        probe: String,
        case: String,
        field: CaseField,
    },
}

/// A run named directly, or the latest run of a probe.
#[derive(Debug, Clone, PartialEq)]
pub enum RunChoice {
    Run(String),
    Latest(String),
}

/// A numeric field of a probe case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseField {
    NumPredict,
    PromptEvalCount,
    EvalCount,
    TotalDuration,
    LoadDuration,
    PromptEvalDuration,
    EvalDuration,
}

impl Directive {
    /// The kinds of record rendering this directive reads (records, derived facts of
    /// them, and the families or maps a table names): what `serve` rebuilds a page for.
    /// Exhaustive, so that a new directive says what it reads before it compiles.
    pub fn reads(&self) -> &'static [Kind] {
        use Kind::*;
        match self {
            Directive::Claims { .. } | Directive::ClaimLedger => &[Claim, Observer],
            Directive::Questions { .. } => &[Question],
            Directive::Bundles { .. } => &[Bundle, Family, Route],
            Directive::Generations => &[Generation, Run],
            Directive::Components => &[Component, Run],
            Directive::Observers => &[Observer],
            Directive::Worklog => &[Phase],
            Directive::DispatchMap { .. } => &[Map, Family, Bundle, Component],
            Directive::DispatchCompare => &[Map, Family],
            Directive::Run { .. } | Directive::LatestRun { .. } | Directive::Runs => {
                &[Run, Map, Family]
            }
            Directive::RunPage { .. } => &[Run, Map, Family, TensorType],
            Directive::Glossary => &[Term],
            Directive::Findings { .. } => &[Finding],
            Directive::TensorTypes => &[TensorType, Family],
            Directive::FatbinTargets => &[Run],
            Directive::TensorMix => &[Run, TensorType, Family],
            Directive::FileTypes => &[FileType, TensorType],
            Directive::Layers => &[Layer],
            Directive::Plan => &[PlanStep],
            Directive::Figure(f) => f.reads(),
        }
    }
}

impl Figure {
    /// The kinds drawing this figure reads.
    pub fn reads(&self) -> &'static [Kind] {
        use Kind::*;
        match self {
            Figure::DispatchDiagram { .. } => &[Map, Family, Bundle, Component],
            Figure::DispatchDiff { .. } => &[Map, Family],
            Figure::ObserverMap => &[Observer],
            Figure::LibraryChain => &[Component],
            Figure::ProxyPlot { .. }
            | Figure::ProxyPlots { .. }
            | Figure::TimingPlot { .. }
            | Figure::HistoryPlot { .. } => &[Run, Map, Family],
        }
    }
}

impl CaseField {
    pub const ALL: [CaseField; 7] = [
        CaseField::NumPredict,
        CaseField::PromptEvalCount,
        CaseField::EvalCount,
        CaseField::TotalDuration,
        CaseField::LoadDuration,
        CaseField::PromptEvalDuration,
        CaseField::EvalDuration,
    ];

    /// The field's name in a run file.
    pub fn name(self) -> &'static str {
        match self {
            CaseField::NumPredict => "num_predict",
            CaseField::PromptEvalCount => "prompt_eval_count",
            CaseField::EvalCount => "eval_count",
            CaseField::TotalDuration => "total_duration_ns",
            CaseField::LoadDuration => "load_duration_ns",
            CaseField::PromptEvalDuration => "prompt_eval_duration_ns",
            CaseField::EvalDuration => "eval_duration_ns",
        }
    }

    pub fn from_name(name: &str) -> Option<CaseField> {
        CaseField::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the field is a duration in nanoseconds.
    pub fn is_duration(self) -> bool {
        self.name().ends_with("_ns")
    }

    /// The field's value in a case.
    pub fn get(self, c: &Case) -> Option<u64> {
        match self {
            CaseField::NumPredict => c.num_predict,
            CaseField::PromptEvalCount => c.prompt_eval_count,
            CaseField::EvalCount => c.eval_count,
            CaseField::TotalDuration => c.total_duration_ns,
            CaseField::LoadDuration => c.load_duration_ns,
            CaseField::PromptEvalDuration => c.prompt_eval_duration_ns,
            CaseField::EvalDuration => c.eval_duration_ns,
        }
    }
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
    ("generations", &[], "hardware generations"),
    ("components", &[], "components and their observed status"),
    ("observers", &[], "observers"),
    ("worklog", &[], "phase timeline"),
    ("dispatch-map", &["id"], "branches of a dispatch map"),
    ("dispatch-compare", &[], "dispatch maps side by side"),
    ("run", &["id"], "cases of one run"),
    (
        "run-page",
        &["id"],
        "one run in full: cases, comparison with the run before, binary tables",
    ),
    ("latest-run", &["probe"], "latest run of a probe"),
    ("runs", &[], "index of all runs"),
    (
        "questions",
        &["status", "page"],
        "open and resolved questions",
    ),
    ("glossary", &[], "glossary"),
    ("findings", &["ids"], "source-side findings"),
    ("tensor-types", &[], "tensor types and their families"),
    ("file-types", &[], "file-type labels and their tensor mixes"),
    (
        "fatbin-targets",
        &[],
        "targets found by the latest fatbin probe run",
    ),
    (
        "tensor-mix",
        &[],
        "tensor types found by the latest gguf probe run",
    ),
    ("layers", &[], "layers of the general map"),
    ("plan", &[], "plan for broadening the map"),
    (
        "dispatch-diagram",
        &["map"],
        "dispatch-flow diagram of one map",
    ),
    (
        "dispatch-diff-diagram",
        &["maps"],
        "diagram of where dispatch maps differ",
    ),
    ("observer-map", &[], "observers, outcome and as-of date"),
    ("library-chain", &[], "library chain and status"),
    (
        "proxy-plot",
        &["probe", "run"],
        "phase-proxy cases on a log axis of the map's variable",
    ),
    ("proxy-plots", &["probe"], "a proxy plot per run of a probe"),
    ("timing-plot", &["run"], "load / prompt eval / eval timings"),
    (
        "history-plot",
        &["probe", "case", "field"],
        "a case value across runs of a probe",
    ),
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
    if let Some(pack) = crate::packs::of_directive(&raw.name)
        && !ev.config.as_ref().is_some_and(|c| c.has_pack(pack.name))
    {
        return Err(format!(
            "`::{}` comes with the `{}` pack, which the site does not turn on \
             (add `packs: [{}]` to evidence.yaml)",
            raw.name, pack.name, pack.name
        ));
    }
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
        "run-page" => Directive::RunPage { id: need("id")? },
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
        "fatbin-targets" => Directive::FatbinTargets,
        "tensor-mix" => Directive::TensorMix,
        "file-types" => Directive::FileTypes,
        "layers" => Directive::Layers,
        "plan" => Directive::Plan,
        _ => Directive::Figure(figure(raw, a)?),
    };
    validate(&d, ev)?;
    Ok(d)
}

/// The figure directives (every name in [`SPECS`] without a table).
fn figure(raw: &Raw, a: &BTreeMap<String, String>) -> Result<Figure, String> {
    let need = |key: &str| {
        a.get(key)
            .cloned()
            .ok_or_else(|| format!("`::{}` needs `{key}=\"…\"`", raw.name))
    };
    Ok(match raw.name.as_str() {
        "dispatch-diagram" => Figure::DispatchDiagram { map: need("map")? },
        "dispatch-diff-diagram" => Figure::DispatchDiff {
            maps: list(a, "maps"),
        },
        "observer-map" => Figure::ObserverMap,
        "library-chain" => Figure::LibraryChain,
        "proxy-plot" => Figure::ProxyPlot {
            run: match (a.get("run"), a.get("probe")) {
                (Some(r), None) => RunChoice::Run(r.clone()),
                (None, Some(p)) => RunChoice::Latest(p.clone()),
                _ => {
                    return Err("`::proxy-plot` needs either `run=\"…\"` or `probe=\"…\"`".into());
                }
            },
        },
        "proxy-plots" => Figure::ProxyPlots {
            probe: need("probe")?,
        },
        "timing-plot" => Figure::TimingPlot { run: need("run")? },
        "history-plot" => {
            let name = a
                .get("field")
                .map(String::as_str)
                .unwrap_or("prompt_eval_count");
            let field = CaseField::from_name(name).ok_or_else(|| {
                let names: Vec<&str> = CaseField::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "`{name}` is not a numeric case field (one of: {})",
                    names.join(", ")
                )
            })?;
            Figure::HistoryPlot {
                probe: need("probe")?,
                case: need("case")?,
                field,
            }
        }
        other => return Err(format!("`::{other}` is not implemented")),
    })
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
        Directive::Run { id } | Directive::RunPage { id } => must(Kind::Run, id),
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
        Directive::Figure(f) => validate_figure(f, ev),
        _ => Ok(()),
    }
}

/// Checks the ids a figure directive names.
fn validate_figure(f: &Figure, ev: &Evidence) -> Result<(), String> {
    let must = |kind: Kind, id: &str| {
        if ev.is_missing(kind, id) {
            Err(format!("no {} with id `{id}`", kind.name()))
        } else {
            Ok(())
        }
    };
    let probe = |p: &str| {
        if ev.runs.iter().any(|r| r.probe == p) || ev.incomplete.contains(&Kind::Run) {
            Ok(())
        } else {
            Err(format!("no run of probe `{p}`"))
        }
    };
    match f {
        Figure::DispatchDiagram { map } => must(Kind::Map, map),
        Figure::DispatchDiff { maps } => maps.iter().try_for_each(|m| must(Kind::Map, m)),
        Figure::ObserverMap | Figure::LibraryChain => Ok(()),
        Figure::ProxyPlot {
            run: RunChoice::Run(r),
        }
        | Figure::TimingPlot { run: r } => must(Kind::Run, r),
        Figure::ProxyPlot {
            run: RunChoice::Latest(p),
        }
        | Figure::ProxyPlots { probe: p } => probe(p),
        Figure::HistoryPlot { probe: p, case, .. } => {
            probe(p)?;
            let known = ev
                .runs
                .iter()
                .filter(|r| &r.probe == p)
                .any(|r| r.cases.iter().any(|c| &c.id.value == case));
            if known || ev.incomplete.contains(&Kind::Run) {
                Ok(())
            } else {
                Err(format!("no run of probe `{p}` has a case `{case}`"))
            }
        }
    }
}
