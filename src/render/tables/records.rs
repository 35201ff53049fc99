//! Tables of plain record collections: bundles, generations, components, observers,
//! glossary, findings and the quantization map.

use super::claims::enum_key;
use super::{anchor, code, num, ref_list, source_line, unknown};
use crate::model::refs::Kind;
use crate::model::{Range, Source};
use crate::render::escape;
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

fn range(s: &Scope, r: &Option<Range>) -> String {
    match r {
        Some(r) if r.min == r.max => r.min.to_string(),
        Some(r) => format!("{}–{}", r.min, r.max),
        None => unknown(s),
    }
}

/// A route's label in the view's language, coloured like its family.
fn route_badge(s: &Scope, id: &str) -> String {
    let label = match s.ev.routes.get(id) {
        Some(r) => s.text(&r.label),
        None => escape(id),
    };
    badge(
        &crate::render::palette::class(crate::render::palette::route(s.ev, id)),
        label,
    )
}

fn badge(class: &str, label: String) -> String {
    let space = if class.is_empty() { "" } else { " " };
    format!("<span class=\"badge{space}{class}\">{label}</span>")
}

fn table(
    id: &str,
    class: &str,
    caption: String,
    source: String,
    columns: Vec<String>,
    rows: Vec<Row>,
    s: &Scope,
) -> Table {
    Table {
        id: id.into(),
        class: class.into(),
        caption,
        source,
        columns,
        rows,
        empty: s.ui("table-empty"),
        notes: Vec::new(),
        rows_html: String::new(),
    }
}

/// Bundles, filtered by arch or by ids.
pub fn bundles(s: &Scope, arch: Option<&str>, ids: &[String]) -> Table {
    let list: Vec<_> =
        s.ev.bundles
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
                .map(|f| escape(&f.name))
                .unwrap_or_else(|| "—".into());
            let mut regs = Vec::new();
            if b.sgpr.is_some() || b.vgpr.is_some() {
                regs.push(format!(
                    "sgpr {} · vgpr {}",
                    range(s, &b.sgpr),
                    range(s, &b.vgpr)
                ));
            }
            regs.extend(
                b.instructions
                    .iter()
                    .map(|(k, v)| format!("{} {v}", escape(k))),
            );
            if let Some(w) = b.wavefront_size {
                regs.push(format!("wave{w}"));
            }
            let mut role = s.text(&b.role);
            if let Some(n) = &b.note {
                role.push_str(&format!("<p class=\"note\">{}</p>", s.text(n)));
            }
            let row = Row::new(vec![
                format!(
                    "{}<br><small>{}</small>",
                    code(&b.id.value),
                    escape(&b.container)
                ),
                b.size_kb
                    .map(|k| format!("{k} KB"))
                    .unwrap_or_else(|| unknown(s)),
                b.symbols
                    .iter()
                    .map(|x| code(x))
                    .collect::<Vec<_>>()
                    .join("<br>"),
                role,
                format!(
                    "{}<br><small>{family}</small>",
                    route_badge(s, &b.route.value)
                ),
                range(s, &b.observed_range),
                if regs.is_empty() {
                    "—".into()
                } else {
                    regs.join("<br>")
                },
            ]);
            // A listing filtered by ids is not where references link to (see `PageIndex`).
            if ids.is_empty() {
                row.id(anchor(Kind::Bundle, &b.id.value))
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
            "col-observed-range",
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
    let rows =
        s.ev.generations
            .iter()
            .map(|g| {
                let mut name = escape(&g.generation);
                if let Some(p) = &g.product {
                    name.push_str(&format!("<br><small>{}</small>", escape(p)));
                }
                if let Some(orig) = &g.original_label {
                    name.push_str("<sup>*</sup>");
                    notes.push(s.ui_with(
                        "generations-relabelled",
                        "label",
                        format!("{} ({}, {})", orig, g.gfx, g.generation),
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
                .id(anchor(Kind::Generation, &g.id.value))
            })
            .collect();
    let mut t = table(
        "generations",
        "generations",
        s.ui("generations-caption"),
        source_line(s, s.ev.generations.iter().map(|g| g.file.to_string())),
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
        .map(|n| format!("<sup>*</sup> {n}"))
        .collect();
    t
}

pub fn components(s: &Scope) -> Table {
    let rows =
        s.ev.components
            .iter()
            .map(|c| {
                let mut name = format!("<strong>{}</strong>", escape(&c.name));
                for f in &c.files {
                    name.push_str(&format!("<br>{}", code(f)));
                }
                let mut role = s.text(&c.role);
                if let Some(via) = c
                    .loaded_via
                    .as_ref()
                    .and_then(|v| s.ev.components.get(&v.value))
                {
                    role.push_str(&format!(
                        "<p class=\"note\">{} {}</p>",
                        s.ui("components-loaded-via"),
                        escape(&via.name)
                    ));
                }
                Row::new(vec![
                    name,
                    role,
                    badge(
                        &format!("status-{}", enum_key(&c.status)),
                        s.label("component-status", &c.status),
                    ) + &super::binary::component_note(s, &c.files).unwrap_or_default(),
                    c.detail.as_ref().map(|d| s.text(d)).unwrap_or_default(),
                ])
                .id(anchor(Kind::Component, &c.id.value))
            })
            .collect();
    table(
        "components",
        "components",
        s.ui("components-caption"),
        source_line(s, s.ev.components.iter().map(|c| c.file.to_string())),
        ["col-component", "col-role", "col-observed", "col-detail"]
            .iter()
            .map(|k| s.ui(k))
            .collect(),
        rows,
        s,
    )
}

pub fn observers(s: &Scope) -> Table {
    let rows =
        s.ev.observers
            .iter()
            .map(|o| {
                let outcome = enum_key(&o.outcome);
                Row::new(vec![
                    format!(
                        "<strong>{}</strong><br>{}",
                        escape(&o.name),
                        code(&o.method)
                    ),
                    s.text(&o.tried),
                    badge(
                        &format!("outcome-{outcome}"),
                        s.label("outcome", &o.outcome),
                    ),
                    s.text(&o.showed),
                    s.text(&o.constraint),
                    format!("<time datetime=\"{0}\">{0}</time>", escape(&o.as_of.value)),
                ])
                .id(anchor(Kind::Observer, &o.id.value))
                .class(format!("outcome-{outcome}"))
            })
            .collect();
    table(
        "observers",
        "observers",
        s.ui("observers-caption"),
        source_line(s, s.ev.observers.iter().map(|o| o.file.to_string())),
        [
            "col-observer",
            "col-tried",
            "col-outcome",
            "col-showed",
            "col-constraint",
            "col-as-of",
        ]
        .iter()
        .map(|k| s.ui(k))
        .collect(),
        rows,
        s,
    )
}

pub fn glossary(s: &Scope) -> Table {
    let rows =
        s.ev.terms
            .iter()
            .map(|t| {
                let mut term = format!("<dfn>{}</dfn>", escape(&t.term));
                if let Some(r) = &t.reading {
                    term.push_str(&format!("<br><small>{}</small>", escape(r)));
                }
                Row::new(vec![term, s.text(&t.definition)]).id(anchor(Kind::Term, &t.id.value))
            })
            .collect();
    table(
        "glossary",
        "glossary",
        s.ui("glossary-caption"),
        source_line(s, s.ev.terms.iter().map(|t| t.file.to_string())),
        vec![s.ui("col-term"), s.ui("col-definition")],
        rows,
        s,
    )
}

/// A source as `repo @ revision · file · PRs`.
pub fn source_text(src: &Source) -> String {
    let mut parts = vec![code(&src.repository)];
    if let Some(r) = &src.revision {
        parts[0].push_str(&format!(" @ {}", code(r)));
    }
    if let Some(f) = &src.file {
        parts.push(code(f));
    }
    if !src.prs.is_empty() {
        parts.push(
            src.prs
                .iter()
                .map(|p| escape(p))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    parts.join(" · ")
}

pub fn findings(s: &Scope, ids: &[String]) -> Table {
    let list: Vec<_> =
        s.ev.findings
            .iter()
            .filter(|f| ids.is_empty() || ids.contains(&f.id.value))
            .collect();
    let rows = list
        .iter()
        .map(|f| {
            let row = Row::new(vec![
                code(&f.id.value),
                s.text(&f.text),
                source_text(&f.source),
                ref_list(s, &f.refs),
            ]);
            if ids.is_empty() {
                row.id(anchor(Kind::Finding, &f.id.value))
            } else {
                row
            }
        })
        .collect();
    table(
        &format!(
            "findings-{}",
            if ids.is_empty() {
                "all".to_string()
            } else {
                ids.join("-")
            }
        ),
        "findings",
        s.ui("findings-caption"),
        source_line(s, list.iter().map(|f| f.file.to_string())),
        ["col-id", "col-finding", "col-source", "col-refs"]
            .iter()
            .map(|k| s.ui(k))
            .collect(),
        rows,
        s,
    )
}

pub(super) fn family_names(s: &Scope, ids: &[crate::model::Id]) -> String {
    let names: Vec<String> = ids
        .iter()
        .filter_map(|f| s.ev.families.get(&f.value))
        .map(|f| escape(&f.name))
        .collect();
    if names.is_empty() {
        "—".into()
    } else {
        names.join(", ")
    }
}

pub fn tensor_types(s: &Scope) -> Table {
    let rows =
        s.ev.tensor_types
            .iter()
            .map(|t| {
                Row::new(vec![
                    code(&t.name),
                    num(s, Some(u64::from(t.ggml_id))),
                    family_names(s, &t.families),
                ])
                .id(anchor(Kind::TensorType, &t.id.value))
            })
            .collect();
    table(
        "tensor-types",
        "tensor-types",
        s.ui("tensor-types-caption"),
        source_line(s, s.ev.tensor_types.iter().map(|t| t.file.to_string())),
        vec![
            s.ui("col-tensor-type"),
            s.ui("col-ggml-id"),
            s.ui("col-families"),
        ],
        rows,
        s,
    )
}

pub fn file_types(s: &Scope) -> Table {
    let rows =
        s.ev.file_types
            .iter()
            .map(|f| {
                let mixes: Vec<String> = f
                    .mixes
                    .iter()
                    .filter_map(|m| s.ev.tensor_types.get(&m.value))
                    .map(|t| code(&t.name))
                    .collect();
                Row::new(vec![code(&f.label), mixes.join(" "), s.text(&f.note)])
                    .id(anchor(Kind::FileType, &f.id.value))
            })
            .collect();
    table(
        "file-types",
        "file-types",
        s.ui("file-types-caption"),
        source_line(s, s.ev.file_types.iter().map(|f| f.file.to_string())),
        vec![s.ui("col-file-type"), s.ui("col-mixes"), s.ui("col-note")],
        rows,
        s,
    )
}

pub fn layers(s: &Scope) -> Table {
    let rows = s
        .ev
        .layers
        .iter()
        .map(|l| {
            Row::new(vec![s.text(&l.layer), s.text(&l.fixed)]).id(anchor(Kind::Layer, &l.id.value))
        })
        .collect();
    table(
        "layers",
        "layers",
        s.ui("layers-caption"),
        source_line(s, s.ev.layers.iter().map(|l| l.file.to_string())),
        vec![s.ui("col-layer"), s.ui("col-fixed")],
        rows,
        s,
    )
}

pub fn plan(s: &Scope) -> Table {
    let mut steps: Vec<_> = s.ev.plan.iter().collect();
    steps.sort_by_key(|p| p.order);
    let rows = steps
        .iter()
        .map(|p| {
            Row::new(vec![
                p.order.to_string(),
                code(&p.target),
                s.text(&p.reason),
                ref_list(s, &p.refs),
            ])
            .id(anchor(Kind::PlanStep, &p.id.value))
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
