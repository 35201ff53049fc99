//! What a reader sees besides the data and the pages: `evidence.yaml`, the site's own
//! Fluent messages, templates and static files. Each is compared like a record, so that
//! nothing a reader can see changes without the diff saying so: `config:evidence.yaml`
//! field by field, `message:<id>` per language (with translation drift), and
//! `file:<path>` for a template or static file added, removed or changed.

use super::report::{Change, Compared, RecordChange, fields};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A side's site files, read once.
#[derive(Debug, Default)]
pub struct SiteFiles {
    /// `evidence.yaml` as a tree (`Null` when it cannot be read, which loading reported).
    pub config: Value,
    /// Each message the site defines, by id: `{text: {<tag>: source}}`.
    pub messages: BTreeMap<String, Value>,
    /// Every other file of the site's theme (templates, static files) by path, with a hash
    /// of its bytes.
    pub files: BTreeMap<String, u64>,
}

impl SiteFiles {
    /// The site files of the site at `root`, whose theme `theme` was loaded from it.
    pub fn read(root: &Path, theme: &evidence_core::load::theme::Theme) -> SiteFiles {
        let config = evidence_core::load::read::read_text(
            &root.join("evidence.yaml"),
            evidence_core::load::read::SOURCE,
        )
        .ok()
        .and_then(|t| evidence_core::load::yaml::parse::<Value>("evidence.yaml", &t, 0).ok())
        .unwrap_or(Value::Null);
        let mut messages: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
        let mut files = BTreeMap::new();
        for (path, f) in &theme.files {
            if f.is_builtin() {
                continue;
            }
            let lang = path
                .strip_prefix("locales/")
                .filter(|_| path.ends_with(".ftl"))
                .and_then(|rest| rest.split('/').next());
            match lang {
                Some(lang) => {
                    for (id, source) in message_sources(&f.text()) {
                        messages
                            .entry(id)
                            .or_default()
                            .insert(lang.to_string(), Value::String(source));
                    }
                }
                None => {
                    files.insert(path.clone(), xxhash_rust::xxh3::xxh3_64(&f.bytes));
                }
            }
        }
        let messages = messages
            .into_iter()
            .map(|(id, by_lang)| {
                let mut m = Map::new();
                m.insert("text".into(), Value::Object(by_lang));
                (id, Value::Object(m))
            })
            .collect();
        SiteFiles {
            config,
            messages,
            files,
        }
    }
}

/// Each message of a Fluent file with its source as the Fluent serializer writes it, so
/// that a change of layout alone (a blank line, a comment) is no change.
fn message_sources(text: &str) -> Vec<(String, String)> {
    use fluent_syntax::ast::{Entry, Resource};
    // A file that does not parse was reported by loading; what parses is compared.
    let resource = match fluent_syntax::parser::parse(text) {
        Ok(r) => r,
        Err((r, _)) => r,
    };
    resource
        .body
        .into_iter()
        .filter_map(|entry| {
            let id = match &entry {
                Entry::Message(m) => m.id.name.to_string(),
                Entry::Term(t) => format!("-{}", t.id.name),
                _ => return None,
            };
            let one = Resource { body: vec![entry] };
            let source = fluent_syntax::serializer::serialize(&one);
            let value = source
                .split_once('=')
                .map_or(source.as_str(), |(_, v)| v)
                .trim()
                .to_string();
            Some((id, value))
        })
        .collect()
}

/// The changes of the site files between the sides, as records.
pub fn changes(base: &Compared, head: &Compared) -> Vec<RecordChange> {
    let langs = head.ev.languages();
    let mut out = Vec::new();
    let (a, b) = (&base.site, &head.site);
    if a.config != b.config {
        let (fields, drift) = fields(Some(&a.config), Some(&b.config), langs);
        out.push(RecordChange {
            kind: "config".into(),
            id: "evidence.yaml".into(),
            change: Change::Changed,
            fields,
            drift,
        });
    }
    let ids: BTreeSet<&String> = a.messages.keys().chain(b.messages.keys()).collect();
    for id in ids {
        let (o, n) = (a.messages.get(id), b.messages.get(id));
        let change = match (o, n) {
            (None, Some(_)) => Change::Added,
            (Some(_), None) => Change::Removed,
            (Some(x), Some(y)) if x != y => Change::Changed,
            _ => continue,
        };
        let (fields, drift) = fields(o, n, langs);
        out.push(RecordChange {
            kind: "message".into(),
            id: id.clone(),
            change,
            fields,
            drift,
        });
    }
    let paths: BTreeSet<&String> = a.files.keys().chain(b.files.keys()).collect();
    for path in paths {
        let change = match (a.files.get(path), b.files.get(path)) {
            (None, Some(_)) => Change::Added,
            (Some(_), None) => Change::Removed,
            (Some(x), Some(y)) if x != y => Change::Changed,
            _ => continue,
        };
        out.push(RecordChange {
            kind: "file".into(),
            id: path.clone(),
            change,
            fields: Vec::new(),
            drift: Vec::new(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::message_sources;

    #[test]
    fn messages_are_read_by_id_whatever_their_layout() {
        let a = message_sources("# a comment\nrun-note = Note:\n\nlong =\n    two\n    lines\n");
        let b = message_sources("run-note    =   Note:\nlong =\n  two\n  lines\n");
        assert_eq!(a, b);
        assert_eq!(a[0], ("run-note".to_string(), "Note:".to_string()));
        assert_eq!(a.len(), 2);
    }
}
