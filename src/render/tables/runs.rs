//! Probe runs: one run's cases with derived zones, the latest run of a probe (with deltas
//! against the previous one), and the index of every run.

use super::{anchor, code, num, seconds, source_line, unknown};
use crate::derive::case_zone;
use crate::model::refs::Kind;
use crate::model::{Case, Run};
use crate::render::escape;
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

fn date(s: &Scope, r: &Run) -> String {
    match &r.date {
        Some(d) => format!("<time datetime=\"{0}\">{0}</time>", escape(&d.value)),
        None => unknown(s),
    }
}

fn dur(s: &Scope, ns: Option<u64>) -> String {
    ns.map(seconds).unwrap_or_else(|| unknown(s))
}

fn zone_cell(s: &Scope, run: &Run, case: &Case) -> String {
    let mut parts = Vec::new();
    for m in s.ev.maps.iter() {
        let Some(z) = case_zone(m, case) else {
            continue;
        };
        let name =
            s.ev.families
                .get(z)
                .map(|f| f.name.clone())
                .unwrap_or_else(|| z.to_string());
        let assessed = run
            .assessed_against
            .as_ref()
            .is_some_and(|a| a.value == m.id.value);
        let class = if assessed { " assessed" } else { "" };
        parts.push(format!(
            "<span class=\"zone{class}\" title=\"{}\"><span class=\"badge family-{}\">{}</span> <small>{}</small></span>",
            escape(&m.id.value),
            escape(z),
            escape(&name),
            escape(&m.id.value)
        ));
    }
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join("<br>")
    }
}

fn reading(s: &Scope, case: &Case) -> String {
    case.assessment
        .as_ref()
        .map(|a| s.text(&a.reading))
        .unwrap_or_else(|| "—".into())
}

/// Per-case deltas against the same case of the previous run.
fn delta(prev: Option<&Run>, case: &Case) -> String {
    let Some(p) = prev.and_then(|p| p.cases.iter().find(|c| c.id.value == case.id.value)) else {
        return "—".into();
    };
    let d = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) if a != b => Some(format!("{:+}", b as i128 - a as i128)),
        _ => None,
    };
    let mut parts = Vec::new();
    if let Some(x) = d(p.prompt_eval_count, case.prompt_eval_count) {
        parts.push(format!("prompt {x}"));
    }
    if let Some(x) = d(p.eval_count, case.eval_count) {
        parts.push(format!("eval {x}"));
    }
    if let (Some(a), Some(b)) = (p.prompt_eval_duration_ns, case.prompt_eval_duration_ns) {
        let pct = (b as f64 - a as f64) / (a.max(1) as f64) * 100.0;
        parts.push(format!("t_prompt {pct:+.1}%"));
    }
    if parts.is_empty() {
        "=".into()
    } else {
        parts.join("<br>")
    }
}

fn run_table(s: &Scope, run: &Run, file: &str, with_anchor: bool) -> Table {
    let prev = s.derived.previous(s.ev, run);
    let rows = run
        .cases
        .iter()
        .map(|c| {
            let mut cells = vec![
                code(&c.id.value),
                c.mode
                    .map(|m| s.label("residency", &m))
                    .unwrap_or_else(|| "—".into()),
                num(s, c.num_predict),
                num(s, c.prompt_eval_count),
                num(s, c.eval_count),
                format!(
                    "{} / {} / {}",
                    dur(s, c.load_duration_ns),
                    dur(s, c.prompt_eval_duration_ns),
                    dur(s, c.eval_duration_ns)
                ),
                zone_cell(s, run, c),
                reading(s, c),
            ];
            if prev.is_some() {
                cells.push(delta(prev, c));
            }
            Row::new(cells)
        })
        .collect();
    let mut columns: Vec<String> = [
        "col-case",
        "col-mode",
        "col-num-predict",
        "col-prompt-eval-count",
        "col-eval-count",
        "col-durations",
        "col-derived-zone",
        "col-reading",
    ]
    .iter()
    .map(|k| s.ui(k))
    .collect();
    let mut notes = vec![run_meta(s, run)];
    if let Some(p) = prev {
        columns.push(s.ui_with("col-delta", "run", p.id.value.clone()));
        notes.push(s.ui_with("runs-previous", "run", p.id.value.clone()));
    }
    notes.push(s.ui("runs-zone-note"));
    Table {
        id: if with_anchor {
            anchor(Kind::Run, &run.id.value)
        } else {
            format!("latest-{}", run.id.value)
        },
        class: "run".into(),
        caption: format!(
            "{} {} · {}",
            s.ui("run-caption"),
            code(&run.id.value),
            date(s, run)
        ),
        source: source_line(s, [file]),
        columns,
        rows,
        empty: s.ui("table-empty"),
        notes,
    }
}

/// Probe, engine, model, versions, environment and origin of a run, as one note.
fn run_meta(s: &Scope, run: &Run) -> String {
    let mut parts = vec![
        format!("{} {}", s.ui("run-probe"), code(&run.probe)),
        format!("{} {}", s.ui("run-engine"), s.label("engine", &run.engine)),
        format!(
            "{} {}",
            s.ui("run-model"),
            run.model.as_deref().map(code).unwrap_or_else(|| unknown(s))
        ),
    ];
    if let Some(e) = &run.endpoint {
        parts.push(format!("{} {}", s.ui("run-endpoint"), code(e)));
    }
    for (k, v) in run.versions.iter().chain(&run.environment) {
        parts.push(format!("{} {}", escape(k), code(v)));
    }
    format!("{}<br>{}", parts.join(" · "), s.text(&run.origin))
}

pub fn run(s: &Scope, id: &str) -> Vec<Table> {
    s.ev.runs
        .get(id)
        .map(|r| vec![run_table(s, r, &r.file, false)])
        .unwrap_or_default()
}

pub fn latest(s: &Scope, probe: &str) -> Vec<Table> {
    let Some(run) = s.derived.latest(s.ev, probe) else {
        return Vec::new();
    };
    let file =
        s.ev.runs
            .get(&run.id.value)
            .map(|r| r.file.to_string())
            .unwrap_or_default();
    let mut t = run_table(s, run, &file, false);
    t.caption = format!(
        "{} {}",
        s.ui_with("latest-caption", "probe", probe.to_string()),
        t.caption
    );
    vec![t]
}

/// The index of every run, then each run in full.
pub fn index(s: &Scope) -> Vec<Table> {
    let mut runs: Vec<_> = s.ev.runs.iter().collect();
    runs.sort_by(|a, b| {
        (&a.probe, a.date.as_ref().map(|d| &d.value), &a.id.value).cmp(&(
            &b.probe,
            b.date.as_ref().map(|d| &d.value),
            &b.id.value,
        ))
    });
    let rows = runs
        .iter()
        .map(|r| {
            let latest = s
                .derived
                .latest(s.ev, &r.probe)
                .is_some_and(|l| l.id.value == r.id.value);
            let link = format!(
                "<a href=\"#{}\">{}</a>",
                anchor(Kind::Run, &r.id.value),
                code(&r.id.value)
            );
            let mark = if latest {
                format!(
                    " <span class=\"badge latest\">{}</span>",
                    s.ui("runs-latest")
                )
            } else {
                String::new()
            };
            Row::new(vec![
                format!("{link}{mark}"),
                date(s, r),
                code(&r.probe),
                s.label("engine", &r.engine),
                r.model.as_deref().map(code).unwrap_or_else(|| unknown(s)),
                r.cases.len().to_string(),
                r.phase
                    .as_ref()
                    .map(|p| code(&p.value))
                    .unwrap_or_else(|| "—".into()),
            ])
        })
        .collect();
    let mut tables = vec![Table {
        id: "runs-index".into(),
        class: "runs-index".into(),
        caption: s.ui("runs-caption"),
        source: source_line(s, runs.iter().map(|r| r.file.to_string())),
        columns: [
            "col-run",
            "col-date",
            "col-probe",
            "col-engine",
            "col-model",
            "col-cases",
            "col-phase",
        ]
        .iter()
        .map(|k| s.ui(k))
        .collect(),
        rows,
        empty: s.ui("runs-none"),
        notes: Vec::new(),
    }];
    tables.extend(runs.iter().map(|r| run_table(s, r, &r.file, true)));
    tables
}
