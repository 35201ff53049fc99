//! What the engine probes recorded about a run, as notes under its table: the model as
//! the engine described it, its memory, the request settings, how the prompt cache was
//! kept out, and the sweep that made the cases.

use crate::runs::{
    CacheDefeat, EngineCase, EngineRun, ModelDetails, ModelMemory, RequestSettings, SweepSettings,
};
use evidence_core::model::format::group_digits;
use evidence_core::model::{Case, Run};
use evidence_core::render::html::Html;
use evidence_core::render::html::html;
use evidence_core::render::pack::RunColumn;
use evidence_core::render::scope::Scope;
use evidence_core::render::tables::{code, unknown};
use std::collections::BTreeMap;

/// The label key of the way a case kept the prompt cache out, shown under its mode.
pub fn case_mark(case: &Case) -> Option<&'static str> {
    Some(match case.cache_defeat()? {
        CacheDefeat::Nonce => "cache-defeat-nonce",
        CacheDefeat::ColdStart => "cache-defeat-cold-start",
        CacheDefeat::CachePromptOff => "cache-defeat-cache-prompt-off",
    })
}

/// The label key of whether a case found the model loaded (`residency-hot`).
pub fn case_mode(case: &Case) -> Option<&'static str> {
    case.mode().map(|m| m.label_key())
}

/// The model and the endpoint a run served, for its note after the engine. A run of an
/// engine that serves a model names it, or says it is unknown; one that read a file has
/// none.
pub fn run_meta(s: &Scope, run: &Run) -> Vec<Html> {
    let mut parts = Vec::new();
    if let Some(m) = run.model() {
        parts.push(html!("{} {}", s.ui("run-model"), code(m)));
    } else if run.engine().is_some() {
        parts.push(html!("{} {}", s.ui("run-model"), unknown(s)));
    }
    if let Some(e) = run.endpoint() {
        parts.push(html!("{} {}", s.ui("run-endpoint"), code(e)));
    }
    parts
}

/// The runs index's Model column, only where a run names a model.
pub fn run_columns(s: &Scope, runs: &[&Run]) -> Vec<RunColumn> {
    if !runs.iter().any(|r| r.model().is_some()) {
        return Vec::new();
    }
    let cells = runs
        .iter()
        .map(|r| match (r.model(), r.engine().is_none()) {
            (Some(m), _) => code(m),
            // A run that read a file had no engine to serve a model: nothing is unknown.
            (None, true) => Html::trusted_static("—"),
            (None, false) => unknown(s),
        })
        .collect();
    vec![RunColumn {
        heading: s.ui("col-model"),
        cells,
    }]
}

/// Notes on what an engine probe recorded about its environment: model details, offload,
/// request settings, cache defeat, sweep. Absent facts add no note.
pub fn run_notes(s: &Scope, run: &Run) -> Vec<Html> {
    let mut notes = Vec::new();
    if let Some(d) = run.model_details()
        && let Some(n) = model_note(s, d)
    {
        notes.push(n);
    }
    if let Some(l) = run.loaded() {
        notes.push(loaded_note(s, l));
    }
    if let Some(r) = run.request() {
        notes.push(request_note(s, r));
    }
    let mut methods: BTreeMap<CacheDefeat, usize> = BTreeMap::new();
    let mut unknown_n = 0;
    for c in &run.cases {
        match c.cache_defeat().copied() {
            Some(d) => *methods.entry(d).or_default() += 1,
            None => unknown_n += 1,
        }
    }
    if !methods.is_empty() {
        let mut list: Vec<Html> = methods
            .iter()
            .map(|(d, n)| html!("{} × {}", s.label("cache-defeat", d), n))
            .collect();
        if unknown_n > 0 {
            list.push(html!("{} × {}", s.ui("cache-defeat-unknown"), unknown_n));
        }
        notes.push(html!(
            "{} {}",
            s.ui("run-cache-defeat"),
            Html::join(list, " · ")
        ));
    }
    if let Some(sw) = run.sweep() {
        notes.push(sweep_note(s, sw, run));
    }
    notes
}

fn model_note(s: &Scope, d: &ModelDetails) -> Option<Html> {
    let mut parts = Vec::new();
    for v in [
        &d.family,
        &d.parameter_size,
        &d.quantization_level,
        &d.format,
    ]
    .into_iter()
    .flatten()
    {
        parts.push(code(v));
    }
    if let Some(dg) = &d.digest {
        let short: String = dg.trim_start_matches("sha256:").chars().take(12).collect();
        parts.push(html!(
            "digest <code title=\"{}\">{}</code>",
            Html::text(dg),
            Html::text(&short)
        ));
    }
    if let Some(f) = &d.file {
        parts.push(html!("{} {}", s.ui("run-model-file"), code(f)));
    }
    if !d.tensor_types.is_empty() {
        let census = Html::join(
            d.tensor_types
                .iter()
                .map(|(t, n)| html!("{} × {}", code(t), n)),
            ", ",
        );
        parts.push(html!("{} {}", s.ui("run-tensor-types"), census));
    }
    (!parts.is_empty()).then(|| html!("{} {}", s.ui("run-model-details"), Html::join(parts, " · ")))
}

/// `4.7 GiB`, `98.4 MiB`.
fn bytes(n: u64) -> String {
    let n = n as f64;
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    const MIB: f64 = 1024.0 * 1024.0;
    if n >= GIB {
        format!("{:.2} GiB", n / GIB)
    } else if n >= MIB {
        format!("{:.1} MiB", n / MIB)
    } else {
        format!("{} B", group_digits(n as u64))
    }
}

fn loaded_note(s: &Scope, l: &ModelMemory) -> Html {
    let share = if l.size > 0 {
        Html::text(&format!(
            " ({:.0} %)",
            l.size_vram as f64 / l.size as f64 * 100.0
        ))
    } else {
        Html::default()
    };
    let mut text = html!(
        "{} <code title=\"size_vram {} / size {}\">{} / {}</code>{}",
        s.ui("run-loaded"),
        Html::text(&group_digits(l.size_vram)),
        Html::text(&group_digits(l.size)),
        Html::text(&bytes(l.size_vram)),
        Html::text(&bytes(l.size)),
        share
    );
    if let Some(n) = l.context_length {
        evidence_core::render::html::html_into!(text, " · context_length {}", code(&n.to_string()));
    }
    text
}

fn request_note(s: &Scope, r: &RequestSettings) -> Html {
    let mut parts = vec![
        html!("stream {}", code(&r.stream.to_string())),
        html!("temperature {}", code(&r.temperature.to_string())),
        html!("seed {}", code(&r.seed.to_string())),
        html!("timeout {}", code(&format!("{} s", r.timeout_secs))),
    ];
    if let Some(raw) = r.raw {
        parts.push(html!("raw {}", code(&raw.to_string())));
    }
    if let Some(c) = r.cache_prompt {
        parts.push(html!("cache_prompt {}", code(&c.to_string())));
    }
    html!("{} {}", s.ui("run-request"), Html::join(parts, " · "))
}

fn sweep_note(s: &Scope, sw: &SweepSettings, run: &Run) -> Html {
    let points: Vec<_> = run.cases.iter().filter_map(|c| c.sweep_point()).collect();
    let hits = points.iter().filter(|p| p.hit).count();
    html!(
        "{} {} · step {} · word {} · max_tries {} · {}",
        s.ui("run-sweep"),
        code(&format!("{}..{}", sw.from, sw.to)),
        code(&sw.step.to_string()),
        code(&sw.word),
        code(&sw.max_tries.to_string()),
        s.ui_with("run-sweep-hits", "hits", format!("{hits}/{}", points.len()))
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_in_binary_units() {
        assert_eq!(super::bytes(5_137_025_024), "4.78 GiB");
        assert_eq!(super::bytes(98_362_432), "93.8 MiB");
        assert_eq!(super::bytes(1_000), "1,000 B");
    }
}
