//! `::table{of=…}`: the records of a collection the site declares, one row each, every
//! cell shown by its field's declared type.

use super::{anchor, code, record_link, source_line};
use crate::model::Text;
use crate::model::declared::{FieldSpec, FieldType};
use crate::model::refs::Kind;
use crate::render::html::Html;
use crate::render::html::html;
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};
use serde_json::Value;

/// The table of collection `of`, with `columns` (all fields when empty).
pub fn table(s: &Scope, of: &str, columns: &[String]) -> Table {
    let Some(spec) = s.ev.config.as_ref().and_then(|c| c.collection(of)) else {
        return Table::default();
    };
    let columns: Vec<String> = if columns.is_empty() {
        std::iter::once("id".to_string())
            .chain(spec.fields.iter().map(|f| f.name.value.clone()))
            .collect()
    } else {
        columns.to_vec()
    };
    let records: Vec<_> = s.ev.records.iter().filter(|r| r.collection == of).collect();
    let rows = records
        .iter()
        .map(|r| {
            let cells = columns
                .iter()
                .map(|c| match spec.field(c) {
                    // With a page per record, its id leads there.
                    None if spec.pages => {
                        record_link(s, Kind::Record, &r.key.value, code(&r.id.value))
                    }
                    None => code(&r.id.value),
                    Some(f) => r
                        .fields
                        .get(c)
                        .map(|w| cell(s, f, &w.value))
                        .unwrap_or_else(|| Html::trusted_static("—")),
                })
                .collect();
            Row::new(cells).id(anchor(Kind::Record, &r.key.value))
        })
        .collect();
    Table {
        id: format!("table-{of}"),
        class: format!("declared declared-{of}"),
        caption: s.text(&spec.title),
        source: source_line(s, records.iter().map(|r| r.file.to_string())),
        columns: columns
            .iter()
            .map(|c| match spec.field(c) {
                Some(f) => s.fluent(&f.label()),
                None => s.ui("col-id"),
            })
            .collect(),
        rows,
        empty: s.ui("table-empty"),
        notes: Vec::new(),
        rows_html: Html::default(),
    }
}

/// One value of field `f` as HTML.
fn cell(s: &Scope, f: &FieldSpec, v: &Value) -> Html {
    match v {
        Value::Array(items) => {
            let parts: Vec<Html> = items.iter().map(|i| item(s, f, i)).collect();
            if parts.is_empty() {
                Html::trusted_static("—")
            } else {
                Html::join(parts, ", ")
            }
        }
        v => item(s, f, v),
    }
}

fn item(s: &Scope, f: &FieldSpec, v: &Value) -> Html {
    let text = v.as_str().unwrap_or_default();
    match f.item() {
        FieldType::Text => serde_json::from_value::<Text>(v.clone())
            .map(|t| s.text(&t))
            .unwrap_or_default(),
        FieldType::String => Html::text(text),
        FieldType::Number => {
            let n = v
                .as_f64()
                .map(|n| s.numerals().number(n))
                .unwrap_or_default();
            match &f.unit {
                Some(u) => html!("{} {}", Html::text(&n), s.fluent(u)),
                None => Html::text(&n),
            }
        }
        FieldType::Date => html!(
            "<time datetime=\"{}\">{}</time>",
            Html::text(text),
            Html::text(text)
        ),
        FieldType::Choice => f
            .choice(text)
            .map(|c| s.fluent(&c.label))
            .unwrap_or_else(|| code(text)),
        FieldType::Ref => {
            let to = f.to.as_ref().map(|t| t.value.as_str()).unwrap_or_default();
            match Kind::from_name(to) {
                Some(kind) => record_link(s, kind, text, code(text)),
                None => record_link(s, Kind::Record, &format!("{to}:{text}"), code(text)),
            }
        }
        // Declarations hold no list of lists (`model::declared::check_specs`).
        FieldType::List => code(text),
    }
}

/// One record, field by field: the content of its own page.
pub fn record(s: &Scope, key: &str) -> Table {
    let Some(r) = s.ev.records.get(key) else {
        return Table::default();
    };
    let Some(spec) =
        s.ev.config
            .as_ref()
            .and_then(|c| c.collection(&r.collection))
    else {
        return Table::default();
    };
    let rows = spec
        .fields
        .iter()
        .filter_map(|f| {
            let w = r.fields.get(&f.name.value)?;
            Some(Row::new(vec![s.fluent(&f.label()), cell(s, f, &w.value)]))
        })
        .collect();
    Table {
        id: anchor(Kind::Record, key),
        class: format!("declared-record declared-{}", r.collection),
        caption: html!("{} {}", s.text(&spec.title), code(&r.id.value)),
        source: source_line(s, [r.file.to_string()]),
        columns: vec![s.ui("col-field"), s.ui("col-value")],
        rows,
        empty: s.ui("table-empty"),
        notes: Vec::new(),
        rows_html: Html::default(),
    }
}
