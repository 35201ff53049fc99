//! The resolved graph as JSON: the `evidence.json` output and the lookup behind `:v[…]`.

use crate::load::page::Lang;
use crate::model::Evidence;
use serde::Serialize;
use serde_json::{Map, Value};

/// The graph keyed by kind, then id.
#[derive(Debug, Default)]
pub struct Values {
    root: Value,
}

fn keyed<'a, T: Serialize + crate::model::Record + 'a>(
    items: impl Iterator<Item = &'a T>,
) -> Value {
    let mut m = Map::new();
    for item in items {
        m.insert(
            item.id().value.clone(),
            serde_json::to_value(item).unwrap_or(Value::Null),
        );
    }
    Value::Object(m)
}

impl Values {
    pub fn new(ev: &Evidence) -> Values {
        let mut m = Map::new();
        m.insert("bundle".into(), keyed(ev.bundles.iter().map(|r| &r.value)));
        m.insert("claim".into(), keyed(ev.claims.iter().map(|r| &r.value)));
        m.insert(
            "component".into(),
            keyed(ev.components.iter().map(|r| &r.value)),
        );
        m.insert("family".into(), keyed(ev.families.iter().map(|r| &r.value)));
        m.insert(
            "file_type".into(),
            keyed(ev.file_types.iter().map(|r| &r.value)),
        );
        m.insert(
            "finding".into(),
            keyed(ev.findings.iter().map(|r| &r.value)),
        );
        m.insert(
            "generation".into(),
            keyed(ev.generations.iter().map(|r| &r.value)),
        );
        m.insert("layer".into(), keyed(ev.layers.iter().map(|r| &r.value)));
        m.insert("map".into(), keyed(ev.maps.iter().map(|r| &r.value)));
        m.insert(
            "observer".into(),
            keyed(ev.observers.iter().map(|r| &r.value)),
        );
        m.insert("phase".into(), keyed(ev.phases.iter().map(|r| &r.value)));
        m.insert("plan".into(), keyed(ev.plan.iter().map(|r| &r.value)));
        m.insert(
            "question".into(),
            keyed(ev.questions.iter().map(|r| &r.value)),
        );
        m.insert("run".into(), keyed(ev.runs.iter().map(|r| &r.value)));
        m.insert(
            "tensor_type".into(),
            keyed(ev.tensor_types.iter().map(|r| &r.value)),
        );
        m.insert("term".into(), keyed(ev.terms.iter().map(|r| &r.value)));
        Values {
            root: Value::Object(m),
        }
    }

    /// The whole graph, for `evidence.json`.
    pub fn json(&self) -> &Value {
        &self.root
    }

    /// The value at `kind:id.field.field…` as text in `lang`.
    pub fn quote(&self, path: &str, lang: Lang) -> Result<String, String> {
        let (kind, rest) = path
            .split_once(':')
            .ok_or_else(|| format!("`{path}` is not a value path: expected `kind:id.field`"))?;
        let mut segs = rest.split('.');
        let id = segs.next().unwrap_or_default();
        let mut cur = self
            .root
            .get(kind)
            .ok_or_else(|| format!("unknown kind `{kind}` in `:v[{path}]`"))?
            .get(id)
            .ok_or_else(|| format!("no {kind} with id `{id}` (in `:v[{path}]`)"))?;
        for seg in segs {
            cur = step(cur, seg).ok_or_else(|| format!("`{path}` has no `{seg}`"))?;
        }
        scalar(cur, lang)
            .ok_or_else(|| format!("`{path}` is not a single value (it is a list or record)"))
    }
}

fn step<'v>(v: &'v Value, seg: &str) -> Option<&'v Value> {
    match v {
        Value::Object(m) => m.get(seg),
        Value::Array(items) => match seg.parse::<usize>() {
            Ok(i) => items.get(i),
            Err(_) => items
                .iter()
                .find(|it| it.get("id").and_then(Value::as_str) == Some(seg)),
        },
        _ => None,
    }
}

fn scalar(v: &Value, lang: Lang) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Object(m) if m.len() == 2 && m.contains_key("ja") && m.contains_key("en") => {
            m.get(lang.code()).and_then(Value::as_str).map(String::from)
        }
        _ => None,
    }
}
