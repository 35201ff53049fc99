//! Tables from the latest binary probe runs: `::fatbin-targets` and `::tensor-mix`, and the
//! run columns the generations and components tables show beside the recorded status.

use crate::derive::{fatbin_has, maps_has};
use crate::runs::EngineRun;
use evidence_core::model::Range;
use evidence_core::model::format::group_digits;
use evidence_core::model::types::Run;
use evidence_core::render::html::Html;
use evidence_core::render::html::html;
use evidence_core::render::scope::Scope;
use evidence_core::render::table::{Row, Table};
use evidence_core::render::tables::records::family_names;
use evidence_core::render::tables::{code, source_line};

/// The latest run of `probe` with its data file.
fn latest<'e>(s: &Scope<'e>, probe: &str) -> Option<(&'e Run, String)> {
    let run = s.derived.latest(s.ev, probe)?;
    with_file(s, run)
}

/// The run `id`, when named, else the latest run of `probe`, with its data file.
fn chosen<'e>(s: &Scope<'e>, probe: &str, id: Option<&str>) -> Option<(&'e Run, String)> {
    match id {
        Some(id) => with_file(s, &s.ev.runs.get(id)?.value),
        None => latest(s, probe),
    }
}

fn with_file<'e>(s: &Scope<'e>, run: &'e Run) -> Option<(&'e Run, String)> {
    let file =
        s.ev.runs
            .get(&run.id.value)
            .map(|r| r.file.to_string())
            .unwrap_or_default();
    Some((run, file))
}

/// " · file `name` (SHA-256 `0123456789abcdef…`)": the file a run read, by name and hash.
fn input_note(s: &Scope, i: &crate::scans::InputFile) -> Html {
    let mut about = Vec::new();
    if let Some(p) = &i.package {
        about.push(html!("{} {}", s.ui("binary-package"), code(p)));
    }
    if let Some(h) = &i.sha256 {
        about.push(html!(
            "SHA-256 <code title=\"{}\">{}…</code>",
            Html::text(h),
            Html::text(h.get(..16).unwrap_or(h))
        ));
    }
    let about = if about.is_empty() {
        Html::default()
    } else {
        html!(" ({})", Html::join(about, ", "))
    };
    html!(" · {} {}{}", s.ui("binary-input"), code(&i.name), about)
}

/// "Source: data/runs/….yaml · run `id` · file `name`".
fn run_source(s: &Scope, run: &Run, file: &str) -> Html {
    let input = run
        .input
        .as_ref()
        .map(|i| input_note(s, i))
        .unwrap_or_default();
    html!(
        "{} · {} {}{}{}",
        source_line(s, [file]),
        s.ui("run-caption"),
        code(&run.id.value),
        input,
        evidence_core::render::tables::subject_note(s, run)
    )
}

fn range(r: Option<Range>) -> Html {
    match r {
        Some(r) if r.min == r.max => html!("{}", r.min),
        Some(r) => html!("{}–{}", r.min, r.max),
        None => Html::trusted_static("—"),
    }
}

fn no_run(id: &str, s: &Scope, caption: Html, probe: &str, columns: Vec<Html>) -> Table {
    Table {
        id: id.into(),
        class: id.into(),
        caption,
        source: s.ui_with("binary-no-run", "probe", probe.to_string()),
        columns,
        rows: Vec::new(),
        empty: s.ui_with("binary-no-run", "probe", probe.to_string()),
        notes: Vec::new(),
        rows_html: Html::default(),
    }
}

/// `::fatbin-targets`: per gfx target of the latest `fatbin` run.
pub fn fatbin_targets(s: &Scope, run: Option<&str>) -> Table {
    fatbin_targets_of(s, chosen(s, "fatbin", run), run.is_none())
}

/// Per gfx target of one `fatbin` run (with its data file), or a note that there is none;
/// `latest`: the run stands for the latest one, and the caption says so.
pub fn fatbin_targets_of(s: &Scope, found: Option<(&Run, String)>, latest: bool) -> Table {
    let columns: Vec<Html> = [
        "col-gfx",
        "col-bundles",
        "col-code-object-version",
        "col-kernels",
        "col-kernels-per-family",
        "col-sgpr",
        "col-vgpr",
    ]
    .iter()
    .map(|k| s.ui(k))
    .collect();
    let caption = s.ui(if latest {
        "fatbin-targets-caption"
    } else {
        "fatbin-targets-caption-run"
    });
    let Some((run, file)) = found else {
        return no_run("fatbin-targets", s, caption, "fatbin", columns);
    };
    let Some(fb) = run.fatbin() else {
        return no_run("fatbin-targets", s, caption, "fatbin", columns);
    };
    let rows = fb
        .targets
        .iter()
        .map(|t| {
            let bundles = fb
                .bundles
                .iter()
                .filter(|b| b.summary.targets.iter().any(|x| x == &t.target))
                .count() as u64;
            let versions = Html::join(t.code_object_versions.iter().map(|v| html!("v{}", v)), ", ");
            let mut families: Vec<Html> = t
                .kernels
                .families
                .iter()
                .map(|(f, n)| html!("{} {}", code(f), Html::text(&group_digits(*n))))
                .collect();
            if t.kernels.unclassified > 0 {
                families.push(html!(
                    "{} {}",
                    s.ui("binary-unclassified"),
                    Html::text(&group_digits(t.kernels.unclassified))
                ));
            }
            Row::new(vec![
                code(&t.target),
                Html::text(&group_digits(bundles)),
                if versions.is_empty() {
                    Html::trusted_static("—")
                } else {
                    versions
                },
                Html::text(&group_digits(t.kernels.count)),
                Html::join(families, "<br>"),
                range(t.kernels.sgpr),
                range(t.kernels.vgpr),
            ])
            .id(format!("fatbin-target-{}", t.target))
        })
        .collect();
    Table {
        id: "fatbin-targets".into(),
        class: "fatbin-targets".into(),
        caption,
        source: run_source(s, run, &file),
        columns,
        rows,
        empty: s.ui("table-empty"),
        notes: Vec::new(),
        rows_html: Html::default(),
    }
}

/// `::tensor-mix`: per ggml type of the latest `gguf` run.
pub fn tensor_mix(s: &Scope, run: Option<&str>) -> Table {
    tensor_mix_of(s, chosen(s, "gguf", run), run.is_none())
}

/// Per ggml type of one `gguf` run (with its data file), or a note that there is none;
/// `latest` as for [`fatbin_targets_of`].
pub fn tensor_mix_of(s: &Scope, found: Option<(&Run, String)>, latest: bool) -> Table {
    let columns: Vec<Html> = [
        "col-tensor-type",
        "col-tensors",
        "col-bytes",
        "col-example-tensors",
        "col-families",
    ]
    .iter()
    .map(|k| s.ui(k))
    .collect();
    let caption = s.ui(if latest {
        "tensor-mix-caption"
    } else {
        "tensor-mix-caption-run"
    });
    let Some((run, file)) = found else {
        return no_run("tensor-mix", s, caption, "gguf", columns);
    };
    let Some(g) = run.gguf() else {
        return no_run("tensor-mix", s, caption, "gguf", columns);
    };
    let mut files = vec![file.clone()];
    let rows = g
        .census
        .iter()
        .map(|c| {
            let name = c
                .ggml_type
                .name
                .clone()
                .unwrap_or_else(|| format!("#{}", c.ggml_type.id));
            let known = crate::model::tensor_types(s.ev)
                .iter()
                .find(|t| t.ggml_id == c.ggml_type.id);
            if let Some(t) = &known {
                files.push(t.file.to_string());
            }
            let families = match known {
                Some(t) => family_names(s, &t.families),
                None => s.ui("binary-type-unrecorded"),
            };
            Row::new(vec![
                code(&name),
                Html::text(&group_digits(c.count)),
                Html::text(&group_digits(c.bytes)),
                Html::join(c.examples.iter().map(|e| code(e)), "<br>"),
                families,
            ])
            // Escaped where the row is written, like every row id.
            .id(format!("tensor-mix-{name}"))
        })
        .collect();
    let file_type = g
        .file_type
        .as_ref()
        .and_then(|f| f.name.clone())
        .map(|n| html!(" · {}", code(&n)))
        .unwrap_or_default();
    Table {
        id: "tensor-mix".into(),
        class: "tensor-mix".into(),
        caption: caption + &file_type,
        source: html!(
            "{} · {} {}{}",
            source_line(s, &files),
            s.ui("run-caption"),
            code(&run.id.value),
            run.input
                .as_ref()
                .map(|i| input_note(s, i))
                .unwrap_or_default()
        ),
        columns,
        rows,
        empty: s.ui("table-empty"),
        notes: Vec::new(),
        rows_html: Html::default(),
    }
}

/// The note a generation's fatbin cell gets from the latest `fatbin` run, if any.
pub fn generation_note(s: &Scope, gfx: &str) -> Option<Html> {
    let (run, _) = latest(s, "fatbin")?;
    let found = fatbin_has(run, gfx)?;
    Some(html!(
        "<br><small>{} {}: {}</small>",
        s.ui("col-latest-fatbin"),
        code(&run.id.value),
        s.ui(if found { "run-found" } else { "run-not-found" })
    ))
}

/// The note a component's status cell gets from the latest `maps` run, if any.
pub fn component_note(s: &Scope, files: &[String]) -> Option<Html> {
    let (run, _) = latest(s, "maps")?;
    let seen = maps_has(run, files)?;
    Some(html!(
        "<br><small>{} {}: {}</small>",
        s.ui("col-latest-maps"),
        code(&run.id.value),
        s.ui(if seen { "run-mapped" } else { "run-not-mapped" })
    ))
}
