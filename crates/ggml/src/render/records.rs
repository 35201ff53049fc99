//! Tables of the pack's records: bundles, generations, and the quantization map (tensor
//! types, file types, layers, the plan).

use evidence_core::render::html::Html;
use evidence_core::render::html::html;
use evidence_core::render::scope::Scope;
use evidence_core::render::table::{Row, Table};
use evidence_core::render::tables::claims::enum_key;
use evidence_core::render::tables::records::{badge, family_names, range, route_badge, table};
use evidence_core::render::tables::{anchor, code, num, ref_list, source_line, unknown};

/// Bundles, filtered by arch or by ids.
pub fn bundles(s: &Scope, arch: Option<&str>, ids: &[String]) -> Table {
    let list: Vec<_> = crate::model::bundles(s.ev)
        .iter()
        .filter(|b| arch.is_none_or(|a| b.arch == a))
        .filter(|b| ids.is_empty() || ids.contains(&b.id.value))
        .collect();
    let rows = list
        .iter()
        .map(|b| {
            let family = b
                .family
                .as_ref()
                .and_then(|f| s.ev.families.get(&f.value))
                .map(|f| s.fluent(&f.label))
                .unwrap_or_else(|| Html::trusted_static("—"));
            let mut regs = Vec::new();
            if b.sgpr.is_some() || b.vgpr.is_some() {
                regs.push(html!(
                    "sgpr {} · vgpr {}",
                    range(s, &b.sgpr),
                    range(s, &b.vgpr)
                ));
            }
            regs.extend(
                b.instructions
                    .iter()
                    .map(|(k, v)| html!("{} {}", Html::text(k), v)),
            );
            if let Some(w) = b.wavefront_size {
                regs.push(html!("wave{}", w));
            }
            let mut role = s.text(&b.role);
            if let Some(n) = &b.note {
                evidence_core::render::html::html_into!(
                    role,
                    "<p class=\"note\">{}</p>",
                    s.text(n)
                );
            }
            let row = Row::new(vec![
                html!(
                    "{}<br><small>{}</small>",
                    code(&b.id.value),
                    Html::text(&b.container)
                ),
                b.size_kb
                    .map(|k| html!("{} KB", k))
                    .unwrap_or_else(|| unknown(s)),
                Html::join(b.symbols.iter().map(|x| code(x)), "<br>"),
                role,
                html!(
                    "{}<br><small>{}</small>",
                    route_badge(s, &b.route.value),
                    family
                ),
                range(s, &b.built_for),
                if regs.is_empty() {
                    Html::trusted_static("—")
                } else {
                    Html::join(regs, "<br>")
                },
            ]);
            // A listing filtered by ids is not where references link to (see `PageIndex`).
            if ids.is_empty() {
                row.id(anchor(crate::model::BUNDLE, &b.id.value))
            } else {
                row
            }
        })
        .collect();
    let caption = match arch {
        Some(a) => s.ui_with("bundles-caption-arch", "arch", a.to_string()),
        None => s.ui("bundles-caption"),
    };
    table(
        &format!("bundles-{}", arch.unwrap_or("all")),
        "bundles",
        caption,
        source_line(s, list.iter().map(|b| b.file.to_string())),
        [
            "col-bundle",
            "col-size",
            "col-symbols",
            "col-role",
            "col-route",
            "col-built-for",
            "col-registers",
        ]
        .iter()
        .map(|k| s.ui(k))
        .collect(),
        rows,
        s,
    )
}

pub fn generations(s: &Scope) -> Table {
    let mut notes = Vec::new();
    let rows = crate::model::generations(s.ev)
        .iter()
        .map(|g| {
            let mut name = Html::text(&g.generation);
            name.push(&evidence_core::render::tables::records::basis_mark(
                s, g.basis,
            ));
            if let Some(p) = &g.product {
                evidence_core::render::html::html_into!(
                    name,
                    "<br><small>{}</small>",
                    Html::text(p)
                );
            }
            if let Some(orig) = &g.original_label {
                name.push_static("<sup>*</sup>");
                notes.push(s.ui_args(
                    "generations-relabelled",
                    &[
                        ("label", orig.clone()),
                        ("gfx", g.gfx.clone()),
                        ("generation", g.generation.clone()),
                    ],
                ));
            }
            Row::new(vec![
                name,
                code(&g.gfx),
                badge(
                    &format!("target-{}", enum_key(&g.fatbin_targets)),
                    s.label("target", &g.fatbin_targets),
                ) + &super::binary::generation_note(s, &g.gfx).unwrap_or_default(),
                s.text(&g.custom_kernels),
                s.text(&g.implication),
            ])
            .id(anchor(crate::model::GENERATION, &g.id.value))
        })
        .collect();
    let mut t = table(
        "generations",
        "generations",
        s.ui("generations-caption"),
        source_line(
            s,
            crate::model::generations(s.ev)
                .iter()
                .map(|g| g.file.to_string()),
        ),
        [
            "col-generation",
            "col-gfx",
            "col-fatbin-targets",
            "col-custom-kernels",
            "col-implication",
        ]
        .iter()
        .map(|k| s.ui(k))
        .collect(),
        rows,
        s,
    );
    t.notes = notes
        .into_iter()
        .map(|n| html!("<sup>*</sup> {}", n))
        .collect();
    t
}

pub fn tensor_types(s: &Scope) -> Table {
    let rows = crate::model::tensor_types(s.ev)
        .iter()
        .map(|t| {
            Row::new(vec![
                code(&t.name),
                num(s, Some(u64::from(t.ggml_id))),
                family_names(s, &t.families),
            ])
            .id(anchor(crate::model::TENSOR_TYPE, &t.id.value))
        })
        .collect();
    let mut t = table(
        "tensor-types",
        "tensor-types",
        s.ui("tensor-types-caption"),
        source_line(
            s,
            crate::model::tensor_types(s.ev)
                .iter()
                .map(|t| t.file.to_string()),
        ),
        vec![
            s.ui("col-tensor-type"),
            s.ui("col-ggml-id"),
            s.ui("col-families"),
        ],
        rows,
        s,
    );
    // Where the families were read, once per distinct source.
    let mut sources: Vec<Html> = crate::model::tensor_types(s.ev)
        .iter()
        .filter_map(|t| t.source.as_ref())
        .map(evidence_core::render::tables::records::source_text)
        .collect();
    // Each once, in the order first written.
    let mut seen = std::collections::HashSet::new();
    sources.retain(|s| seen.insert(s.clone()));
    t.notes.extend(
        sources
            .into_iter()
            .map(|src| html!("{} {}", s.ui("tensor-types-families-from"), src)),
    );
    t
}

pub fn file_types(s: &Scope) -> Table {
    let rows = crate::model::file_types(s.ev)
        .iter()
        .map(|f| {
            let mixes = Html::join(
                f.mixes
                    .iter()
                    .filter_map(|m| crate::model::tensor_types(s.ev).get(&m.value))
                    .map(|t| code(&t.name)),
                " ",
            );
            Row::new(vec![code(&f.label), mixes, s.text(&f.note)])
                .id(anchor(crate::model::FILE_TYPE, &f.id.value))
        })
        .collect();
    table(
        "file-types",
        "file-types",
        s.ui("file-types-caption"),
        source_line(
            s,
            crate::model::file_types(s.ev)
                .iter()
                .map(|f| f.file.to_string()),
        ),
        vec![s.ui("col-file-type"), s.ui("col-mixes"), s.ui("col-note")],
        rows,
        s,
    )
}

pub fn layers(s: &Scope) -> Table {
    let rows = crate::model::layers(s.ev)
        .iter()
        .map(|l| {
            Row::new(vec![s.text(&l.layer), s.text(&l.fixed)])
                .id(anchor(crate::model::LAYER, &l.id.value))
        })
        .collect();
    table(
        "layers",
        "layers",
        s.ui("layers-caption"),
        source_line(
            s,
            crate::model::layers(s.ev)
                .iter()
                .map(|l| l.file.to_string()),
        ),
        vec![s.ui("col-layer"), s.ui("col-fixed")],
        rows,
        s,
    )
}

pub fn plan(s: &Scope) -> Table {
    let mut steps: Vec<_> = crate::model::plan(s.ev).iter().collect();
    steps.sort_by_key(|p| p.order);
    let rows = steps
        .iter()
        .map(|p| {
            Row::new(vec![
                html!("{}", p.order),
                code(&p.target),
                s.text(&p.reason),
                ref_list(s, &p.refs),
            ])
            .id(anchor(crate::model::PLAN, &p.id.value))
        })
        .collect();
    table(
        "plan",
        "plan",
        s.ui("plan-caption"),
        source_line(s, steps.iter().map(|p| p.file.to_string())),
        ["col-order", "col-target", "col-reason", "col-refs"]
            .iter()
            .map(|k| s.ui(k))
            .collect(),
        rows,
        s,
    )
}
