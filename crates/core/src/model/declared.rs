//! Collections a site declares in `evidence.yaml` without Rust: a kind's name, its file
//! under `data/`, its fields and their types. Their records are one registry kind
//! ([`Kind::Record`]) whose keys are qualified by the collection (`experiment:e1`), so
//! that references, `evidence.json`, `diff` and the page index treat them like any other.
//!
//! Loading keeps each field as written, with its position ([`WrittenRecord`]); [`typed`]
//! holds the records to their declaration and reports every mismatch at its place.

use super::id::{Id, Pos};
use super::lang::Lang;
use super::refs::{Kind, valid_date, valid_id};
use super::types::Text;
use super::{Located, span_of};
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One declared collection, as `collections:` in `evidence.yaml` writes it.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema, Hash)]
#[serde(deny_unknown_fields)]
pub struct CollectionSpec {
    /// The kind's name: the prefix of its references (`experiment:e1`) and its key in
    /// `evidence.json`.
    pub name: Id,
    /// Its file under `data/` (default: the name with `s.yaml`, `experiments.yaml`).
    #[serde(default)]
    pub file: Option<Id>,
    /// What a table of it is captioned.
    pub title: Text,
    pub fields: Vec<FieldSpec>,
    /// Whether each record gets a page of its own (`<folder>/<id>/`, below the page
    /// with the collection's `::table`), which references to it then link to.
    #[serde(default)]
    pub pages: bool,
}

/// One field of a declared collection.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema, Hash)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    pub name: Id,
    #[serde(rename = "type")]
    pub ty: FieldType,
    #[serde(default)]
    pub required: bool,
    /// Its column head (default: its name).
    #[serde(default)]
    pub label: Option<Text>,
    /// For a number: its unit.
    #[serde(default)]
    pub unit: Option<Text>,
    /// For a reference: the kind it names (`run`, `map`, or a declared collection).
    #[serde(default)]
    pub to: Option<Id>,
    /// For a list: the type of its items (not a list).
    #[serde(default)]
    pub of: Option<FieldType>,
    /// For a choice: the values it may take, each with its labels.
    #[serde(default)]
    pub choices: Vec<Choice>,
}

/// The type of a declared field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    /// A text in each of the site's languages (`{ja: …, en: …}`), inline markdown.
    Text,
    /// A plain string, the same in every language (code, a name, a version).
    String,
    Number,
    /// `YYYY-MM-DD`.
    Date,
    /// The id of a record of the kind `to` names.
    Ref,
    /// One of `choices`.
    Choice,
    /// A list of `of`.
    List,
}

/// A value a choice field may take.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema, Hash)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub id: Id,
    pub label: Text,
}

impl CollectionSpec {
    /// Its file under `data/`.
    pub fn file(&self) -> String {
        match &self.file {
            Some(f) => f.value.clone(),
            None => format!("{}s.yaml", self.name.value),
        }
    }

    pub fn field(&self, name: &str) -> Option<&FieldSpec> {
        self.fields.iter().find(|f| f.name.value == name)
    }
}

impl FieldSpec {
    /// Its column head.
    pub fn label(&self) -> Text {
        self.label
            .clone()
            .unwrap_or_else(|| Text::untranslated(&self.name.value))
    }

    /// The type of its values: a list's items, or its own.
    pub fn item(&self) -> FieldType {
        match (self.ty, self.of) {
            (FieldType::List, Some(of)) => of,
            (ty, _) => ty,
        }
    }

    pub fn choice(&self, id: &str) -> Option<&Choice> {
        self.choices.iter().find(|c| c.id.value == id)
    }
}

/// A field's value as written, with the position of the value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Written {
    pub value: Value,
    pub line: u32,
    pub column: u32,
}

impl Written {
    pub fn pos(&self) -> Pos {
        Pos::new(u64::from(self.line), u64::from(self.column))
    }

    /// The value as an [`Id`] at its position (for a string).
    pub fn id(&self) -> Option<Id> {
        Some(Id {
            value: self.value.as_str()?.to_string(),
            referenced: self.pos(),
        })
    }
}

/// One record as its file wrote it: what loading keeps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WrittenRecord {
    pub line: u32,
    pub column: u32,
    pub fields: BTreeMap<String, Written>,
}

/// A record of a declared collection, held to its declaration.
#[derive(Debug, Clone)]
pub struct Declared {
    pub collection: String,
    /// `collection:id`: its key among all declared records.
    pub key: Id,
    pub id: Id,
    /// Its fields that hold a value of their declared type.
    pub fields: BTreeMap<String, Written>,
}

impl super::Record for Declared {
    // Records of every declared collection share one index: the qualified key is theirs.
    #[allow(clippy::misnamed_getters)]
    fn id(&self) -> &Id {
        &self.key
    }
}

/// `evidence.json` shows a declared record as its id and its fields.
impl Serialize for Declared {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.fields.len() + 1))?;
        m.serialize_entry("id", &self.id.value)?;
        for (k, v) in &self.fields {
            m.serialize_entry(k, &v.value)?;
        }
        m.end()
    }
}

/// Checks the declarations in `evidence.yaml`: names, files and field types.
pub fn check_specs(specs: &[CollectionSpec], diags: &mut Diagnostics) {
    let config = "evidence.yaml";
    let err = |id: &Id, msg: String, hint: &str| {
        Diagnostic::error("config", span_of(config, id), msg).with_hint(hint.to_string())
    };
    let mut names: BTreeMap<&str, ()> = BTreeMap::new();
    let mut files: BTreeMap<String, ()> = BTreeMap::new();
    for c in specs {
        let name = &c.name.value;
        if Kind::from_name(name).is_some() {
            diags.push(err(
                &c.name,
                format!("a collection cannot be called `{name}`: a kind of that name exists"),
                "give the collection a name of its own",
            ));
        } else if names.insert(name, ()).is_some() {
            diags.push(err(
                &c.name,
                format!("collection `{name}` is declared twice"),
                "declare each collection once",
            ));
        }
        // No `-`: a record's row anchor is `<collection>-<id>`, which then reads one way.
        if name.is_empty()
            || !name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        {
            diags.push(err(
                &c.name,
                format!("`{name}` cannot name a collection"),
                "use letters, digits and `_`",
            ));
        }
        let file = c.file();
        let taken = files.insert(file.clone(), ()).is_some();
        if taken
            || !super::registry::kinds_in(&file).is_empty()
            || !file.ends_with(".yaml")
            || file.contains("..")
            || file.starts_with('/')
            || file.starts_with("probes/")
        {
            diags.push(err(
                c.file.as_ref().unwrap_or(&c.name),
                format!("collection `{name}` cannot be written in `data/{file}`"),
                "name a `.yaml` file under data/ that no other kind or collection uses \
                 (and not under data/probes/, which holds probe inputs)",
            ));
        }
        let mut names = BTreeMap::new();
        for f in &c.fields {
            if f.name.value == "id" || names.insert(f.name.value.clone(), ()).is_some() {
                diags.push(err(
                    &f.name,
                    format!("field `{}` of `{name}` is declared twice", f.name.value),
                    "every record has an `id`; declare each other field once",
                ));
            }
            let problem = match (f.ty, f.item()) {
                (FieldType::List, _) if matches!(f.of, None | Some(FieldType::List)) => {
                    Some("a `list` field needs `of:` a type that is not a list")
                }
                (_, FieldType::Ref) if f.to.is_none() => Some("a `ref` field needs `to: <kind>`"),
                (_, FieldType::Choice) if f.choices.is_empty() => {
                    Some("a `choice` field needs `choices: [{id, label}]`")
                }
                (ty, _) if ty != FieldType::List && f.of.is_some() => {
                    Some("`of` belongs to `list` fields")
                }
                (_, item)
                    if (item != FieldType::Ref && f.to.is_some())
                        || (item != FieldType::Choice && !f.choices.is_empty()) =>
                {
                    Some("`to` belongs to `ref` fields and `choices` to `choice` fields")
                }
                _ => None,
            };
            if let Some(p) = problem {
                diags.push(err(
                    &f.name,
                    format!("field `{}` of `{name}`: {p}", f.name.value),
                    "see \"Collections\" in docs/authoring.md",
                ));
            }
            if let Some(to) = &f.to {
                let known = Kind::from_name(&to.value).is_some_and(|k| k != Kind::Record)
                    || specs.iter().any(|s| s.name.value == to.value);
                if !known {
                    diags.push(err(
                        to,
                        format!(
                            "field `{}` refers to `{}`, which is no kind",
                            f.name.value, to.value
                        ),
                        "name a built-in kind (`run`, `map`, …) or a declared collection",
                    ));
                }
            }
        }
    }
}

/// The records of declared collections from `file`, held to their declaration: every
/// field a type error, an unknown name or a missing required value is reported at its
/// place, and is left out of the record.
pub fn typed(
    spec: &CollectionSpec,
    file: &str,
    written: Vec<WrittenRecord>,
    langs: &[Lang],
    diags: &mut Diagnostics,
) -> Vec<Declared> {
    let name = &spec.name.value;
    let mut out = Vec::with_capacity(written.len());
    for mut w in written {
        let at = |line: u32, column: u32| Span::new(file, line as usize, column as usize);
        let id = match w.fields.remove("id") {
            Some(v) => match v.id() {
                Some(id) => id,
                None => {
                    diags.push(
                        Diagnostic::error(
                            "schema",
                            at(v.line, v.column),
                            format!(
                                "the `id` of a `{name}` record must be a string, not `{}`",
                                v.value
                            ),
                        )
                        .with_hint("quote it: `id: \"12\"`"),
                    );
                    continue;
                }
            },
            None => {
                diags.push(
                    Diagnostic::error(
                        "schema",
                        at(w.line, w.column),
                        format!("a `{name}` record needs an `id`"),
                    )
                    .with_hint("write `id: <id>` first in each record"),
                );
                continue;
            }
        };
        for f in spec.fields.iter().filter(|f| f.required) {
            if !w.fields.contains_key(&f.name.value) {
                diags.push(
                    Diagnostic::error(
                        "schema",
                        span_of(file, &id),
                        format!(
                            "`{name}` `{}` has no `{}`, which is required",
                            id.value, f.name.value
                        ),
                    )
                    .with_hint(format!("add `{}:` to the record", f.name.value)),
                );
            }
        }
        let mut fields = BTreeMap::new();
        for (key, mut value) in w.fields {
            let Some(f) = spec.field(&key) else {
                let known: Vec<&str> = spec.fields.iter().map(|f| f.name.value.as_str()).collect();
                diags.push(
                    Diagnostic::error(
                        "schema",
                        at(value.line, value.column),
                        format!("unknown field `{key}` in a `{name}` record"),
                    )
                    .with_hint(format!("the fields of `{name}`: id, {}", known.join(", "))),
                );
                continue;
            };
            match conform(f, &value.value, langs) {
                Ok(v) => {
                    value.value = v;
                    fields.insert(key, value);
                }
                Err(why) => diags.push(
                    Diagnostic::error(
                        "schema",
                        at(value.line, value.column),
                        format!("`{key}` of `{name}` `{}` {why}", id.value),
                    )
                    .with_hint("see the collection's fields in evidence.yaml"),
                ),
            }
        }
        let key = Id {
            value: format!("{name}:{}", id.value),
            referenced: id.referenced,
        };
        out.push(Declared {
            collection: name.clone(),
            key,
            id,
            fields,
        });
    }
    out
}

/// `v` as a value of `f`'s type (numbers as the site writes them), or why it is not one.
fn conform(f: &FieldSpec, v: &Value, langs: &[Lang]) -> Result<Value, FieldError> {
    match f.ty {
        FieldType::List => {
            let Value::Array(items) = v else {
                return Err(FieldError::NotAList);
            };
            let items = items
                .iter()
                .map(|i| scalar(f, f.item(), i, langs))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Array(items))
        }
        ty => scalar(f, ty, v, langs),
    }
}

fn scalar(f: &FieldSpec, ty: FieldType, v: &Value, langs: &[Lang]) -> Result<Value, FieldError> {
    let bad = |what: &str| {
        Err(FieldError::Not {
            expected: what.to_string(),
            value: v.clone(),
        })
    };
    match ty {
        FieldType::Text => match super::lang::json_text(v, langs) {
            Some(_) => Ok(v.clone()),
            None => bad(&format!(
                "a text in each of the site's languages, `{{{}}}`",
                langs
                    .iter()
                    .map(|l| format!("{l}: …"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        },
        FieldType::String => match v {
            Value::String(_) => Ok(v.clone()),
            _ => bad("a string"),
        },
        FieldType::Number => match v.as_f64() {
            Some(n) if n.is_finite() => {
                serde_json::to_value(super::format::Decimal(n)).map_err(FieldError::Unwritable)
            }
            _ => bad("a number"),
        },
        FieldType::Date => match v.as_str() {
            Some(s) if valid_date(s) => Ok(v.clone()),
            _ => bad("a date, `YYYY-MM-DD`"),
        },
        FieldType::Ref => match v.as_str() {
            Some(s) if valid_id(s) => Ok(v.clone()),
            _ => bad("the id of a record"),
        },
        FieldType::Choice => match v.as_str() {
            Some(s) if f.choice(s).is_some() => Ok(v.clone()),
            _ => Err(FieldError::NotAChoice {
                choices: f.choices.iter().map(|c| c.id.value.clone()).collect(),
                value: v.clone(),
            }),
        },
        FieldType::List => bad("a single value (a list holds no lists)"),
    }
}

/// Why a declared field's value is not of its type. `Display` ends the sentence that
/// names the field and the record ("`key` of `collection` `id` …").
#[derive(Debug)]
enum FieldError {
    /// A list field holding a single value.
    NotAList,
    /// A value of another type than `expected` (as the message says it).
    Not { expected: String, value: Value },
    /// A choice field's value that is none of its choices.
    NotAChoice { choices: Vec<String>, value: Value },
    /// A number that could not be written back as a value.
    Unwritable(serde_json::Error),
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldError::NotAList => write!(f, "must be a list (`[a, b]`)"),
            FieldError::Not { expected, value } => write!(f, "must be {expected}, not `{value}`"),
            FieldError::NotAChoice { choices, value } => {
                write!(f, "must be one of {}, not `{value}`", choices.join(", "))
            }
            FieldError::Unwritable(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FieldError {}

/// The references a declared record makes: (kind, key, position) for each `ref` value —
/// a declared target's key qualified by its collection.
pub fn refs<'a>(
    specs: &'a [CollectionSpec],
    rec: &'a Located<Declared>,
) -> impl Iterator<Item = (Kind, Id)> + 'a {
    let spec = specs.iter().find(|s| s.name.value == rec.collection);
    rec.fields.iter().flat_map(move |(k, w)| {
        let f = spec
            .and_then(|s| s.field(k))
            .filter(|f| f.item() == FieldType::Ref);
        let to = f.and_then(|f| f.to.as_ref()).map(|t| t.value.clone());
        let values: Vec<&Value> = match &w.value {
            Value::Array(items) => items.iter().collect(),
            v => vec![v],
        };
        values
            .into_iter()
            .filter_map(move |v| {
                let to = to.as_ref()?;
                let id = v.as_str()?;
                let (kind, value) = match Kind::from_name(to) {
                    Some(k) => (k, id.to_string()),
                    None => (Kind::Record, format!("{to}:{id}")),
                };
                Some((
                    kind,
                    Id {
                        value,
                        referenced: w.pos(),
                    },
                ))
            })
            .collect::<Vec<_>>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_error_ends_the_sentence_as_before() {
        let not = FieldError::Not {
            expected: "a number".into(),
            value: Value::from("many"),
        };
        assert_eq!(not.to_string(), "must be a number, not `\"many\"`");
        let choice = FieldError::NotAChoice {
            choices: vec!["low".into(), "high".into()],
            value: Value::from("mid"),
        };
        assert_eq!(
            choice.to_string(),
            "must be one of low, high, not `\"mid\"`"
        );
        assert_eq!(
            FieldError::NotAList.to_string(),
            "must be a list (`[a, b]`)"
        );
    }
}
