//! The JSON Schemas (draft 2020-12) of the files a site writes: `evidence.yaml`, each core
//! data file of the registry ([`super::registry::KINDS`]), run files, declared probe files,
//! the files of the site's declared collections and those of the packs it turns on.
//!
//! The record types derive `schemars::JsonSchema` beside their `Deserialize`, so a schema
//! says what the loader reads. What one site decides is filled in here: a text has exactly
//! the site's languages, a case's measurements and texts are the names its vocabulary
//! declares, a run and a case take the fields of the site's packs, and each declared
//! collection's records follow their declaration. Pure: no I/O.

use super::declared::{CollectionSpec, FieldSpec, FieldType};
use super::fields::{Field, FieldKind};
use super::pack::Pack;
use super::registry::{KINDS, Kind, Storage};
use super::types;
use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value, json};

/// The dialect every schema declares.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// What a pack adds to the schemas: its data files and the fields its probes write.
pub struct PackSchemas {
    /// Each data file of its kinds, by name under `data/` (`things.yaml`), and its schema.
    pub files: Vec<(&'static str, Schema)>,
    /// Each field of its `run_fields` that is a value, by name, and its schema.
    pub run_values: Vec<(&'static str, Schema)>,
    /// Each field of its `case_fields` that is a value, by name, and its schema.
    pub case_values: Vec<(&'static str, Schema)>,
}

/// What one site's schemas depend on beyond the core's types.
pub struct SiteShape<'a> {
    /// Its languages' tags, the leading one first.
    pub languages: Vec<String>,
    /// The packs it turns on.
    pub packs: Vec<&'static Pack>,
    /// The measurements its vocabulary declares; `None`: any name (a schema for no site).
    pub measurements: Option<Vec<String>>,
    /// The texts its vocabulary declares; `None`: any name.
    pub texts: Option<Vec<String>>,
    /// The collections it declares.
    pub collections: &'a [CollectionSpec],
}

/// The schema of one kind of file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileSchema {
    /// Its short name (`claims`), which names the schema file (`claims.schema.json`).
    pub name: String,
    /// The files it describes, as a glob relative to the site's root (`data/runs/**/*.yaml`).
    pub glob: String,
    /// The schema, a JSON object.
    pub schema: Value,
}

/// A generator for a schema of what the loader reads.
pub fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator()
}

/// The schema of every kind of file a site with `shape` writes, sorted by name.
pub fn schemas(shape: &SiteShape) -> Vec<FileSchema> {
    let mut out = vec![
        finish(shape, "evidence", "evidence.yaml", |g| {
            g.subschema_for::<types::SiteConfig>()
        }),
        finish(shape, "runs", "data/runs/**/*.yaml", |g| run(g, shape)),
        finish(shape, "probes", "data/probes/**/*.yaml", |g| {
            // Only a file with a top-level `command:` or `request:` is a declared probe
            // (`probe_file::is_declared`); the others there are a pack's probe inputs.
            let declared = g.subschema_for::<super::probe_file::ProbeFile>();
            json_schema!({
                "if": {"anyOf": [{"required": ["command"]}, {"required": ["request"]}]},
                "then": declared,
            })
        }),
    ];
    let mut seen: Vec<&str> = Vec::new();
    for spec in KINDS {
        let Storage::File(file) = spec.storage else {
            continue;
        };
        if seen.contains(&file) || super::pack::of_kind(spec.kind).is_some() {
            continue;
        }
        seen.push(file);
        if let Some(body) = core_file(spec.kind) {
            out.push(finish(shape, stem(file), &format!("data/{file}"), body));
        }
    }
    for pack in &shape.packs {
        let files: Vec<&str> = (pack.schemas)(&mut generator())
            .files
            .iter()
            .map(|f| f.0)
            .collect();
        for file in files {
            out.push(finish(shape, stem(file), &format!("data/{file}"), |g| {
                let mut all = (pack.schemas)(g).files;
                let at = all.iter().position(|f| f.0 == file).unwrap_or(0);
                all.swap_remove(at).1
            }));
        }
    }
    for c in shape.collections {
        let file = c.file();
        out.push(finish(shape, stem(&file), &format!("data/{file}"), |g| {
            collection(g, c)
        }));
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A file's name without `.yaml`.
fn stem(file: &str) -> String {
    file.strip_suffix(".yaml").unwrap_or(file).replace('/', "-")
}

/// The schema of the core data file the records of `kind` are written in (its registry
/// entry's); `None` for a kind written nowhere under `data/` as one file of its own type.
pub fn core_file(kind: Kind) -> Option<fn(&mut SchemaGenerator) -> Schema> {
    kind.spec().schema
}

/// A root schema: `body` with the dialect, a title naming its files, the definitions
/// it refers to, and every text made one in the site's languages.
fn finish(
    shape: &SiteShape,
    name: impl Into<String>,
    glob: &str,
    body: impl FnOnce(&mut SchemaGenerator) -> Schema,
) -> FileSchema {
    let mut g = generator();
    let body = body(&mut g);
    let mut defs = g.take_definitions(true);
    keep_referenced(&mut defs, body.as_value());
    if defs.contains_key("Text") {
        defs.insert("Text".into(), text(&shape.languages));
    }
    let mut root = Map::new();
    root.insert("$schema".into(), json!(DIALECT));
    root.insert("title".into(), json!(glob));
    match body.to_value() {
        Value::Object(m) => root.extend(m),
        other => {
            root.insert("allOf".into(), json!([other]));
        }
    }
    if !defs.is_empty() {
        root.insert("$defs".into(), Value::Object(defs));
    }
    FileSchema {
        name: name.into(),
        glob: glob.into(),
        schema: Value::Object(root),
    }
}

/// A text in each of `languages`: exactly those keys, each a string.
fn text(languages: &[String]) -> Value {
    let props: Map<String, Value> = languages
        .iter()
        .map(|l| (l.clone(), json!({"type": "string"})))
        .collect();
    json!({
        "description": format!("A text in each of the site's languages ({}).", languages.join(", ")),
        "type": "object",
        "properties": props,
        "required": languages,
        "additionalProperties": false,
    })
}

/// An object schema of `props` (each a name, its schema and whether it is required) that
/// takes no other key.
fn object(props: Vec<(&str, Schema, bool)>) -> Schema {
    let required: Vec<&str> = props.iter().filter(|p| p.2).map(|p| p.0).collect();
    let props: Map<String, Value> = props
        .into_iter()
        .map(|(n, s, _)| (n.to_string(), s.to_value()))
        .collect();
    json_schema!({
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": false,
    })
}

/// `schema` with a description.
pub fn described(mut schema: Schema, about: &str) -> Schema {
    schema.insert("description".into(), json!(about));
    schema
}

/// Names a map may have as keys: `names`, or any when `None`.
fn named_keys(names: &Option<Vec<String>>, values: Value) -> Schema {
    let mut s = json_schema!({"type": "object", "additionalProperties": values});
    if let Some(names) = names {
        s.insert("propertyNames".into(), json!({"enum": names}));
    }
    s
}

/// A pack's fields of one place: each measurement a number, each value the schema the
/// pack gives it (any value when it gives none).
fn pack_fields<'p>(
    fields: &'p [Field],
    values: &[(&'static str, Schema)],
) -> Vec<(&'p str, Schema, bool)> {
    fields
        .iter()
        .map(|f| {
            let s = match f.kind {
                FieldKind::Measurement => json_schema!({"type": "number"}),
                FieldKind::Value(_) => values
                    .iter()
                    .find(|(n, _)| *n == f.name)
                    .map(|(_, s)| s.clone())
                    .unwrap_or_else(|| json_schema!(true)),
            };
            (f.name, s, false)
        })
        .collect()
}

/// A run file: the core's fields of a run and its cases, and the fields of the site's packs.
fn run(g: &mut SchemaGenerator, shape: &SiteShape) -> Schema {
    let id = || json_schema!({"type": "string"});
    let strings = || json_schema!({"type": "object", "additionalProperties": {"type": "string"}});
    let mut run_fields = vec![
        ("id", described(id(), "The run's id."), true),
        (
            "probe",
            described(id(), "The probe that recorded it."),
            true,
        ),
        (
            "date",
            described(id(), "When it ran: `YYYY-MM-DD` or RFC 3339."),
            false,
        ),
        (
            "subject",
            described(id(), "What it was taken of (`data/subjects.yaml`)."),
            false,
        ),
        (
            "engine",
            described(
                id(),
                "An engine of the vocabulary (`data/vocabulary.yaml`); absent (or `none`): no engine.",
            ),
            false,
        ),
        (
            "versions",
            described(strings(), "Software versions by component."),
            false,
        ),
        (
            "environment",
            described(strings(), "Facts about the machine and what ran on it."),
            false,
        ),
        (
            "conditions",
            described(
                strings(),
                "The settings it ran under, by name (`work_mem: 64MB`); quotable as `run:<id>.conditions.<name>`.",
            ),
            false,
        ),
        (
            "origin",
            described(g.subschema_for::<super::Text>(), "How it was recorded."),
            true,
        ),
        (
            "note",
            described(
                json_schema!({"anyOf": [{"type": "string"}, g.subschema_for::<super::Text>()]}),
                "What the investigator said of it: a string as written (`--note`), in no language of the site's, or a text in each language.",
            ),
            false,
        ),
        (
            "phase",
            described(id(), "The phase that recorded it."),
            false,
        ),
        (
            "assessed_against",
            described(id(), "The decision map its assessments were made against."),
            false,
        ),
        (
            "cases",
            json_schema!({"type": "array", "items": {"$ref": "#/$defs/Case"}}),
            false,
        ),
        (
            "input",
            described(
                g.subschema_for::<types::InputFile>(),
                "The file a probe read.",
            ),
            false,
        ),
    ];
    // A definition of its own, so that the reference gives a case its own table.
    let case = case(g, shape).to_value();
    g.definitions_mut().insert("Case".into(), case);
    for pack in &shape.packs {
        let values = (pack.schemas)(g).run_values;
        run_fields.extend(pack_fields(pack.run_fields, &values));
    }
    object(run_fields)
}

/// One case of a run.
fn case(g: &mut SchemaGenerator, shape: &SiteShape) -> Schema {
    let mut fields = vec![
        ("id", json_schema!({"type": "string"}), true),
        (
            "measurements",
            described(
                named_keys(&shape.measurements, json!({"type": "number"})),
                "Its numbers by name, each declared under `measurements:` in \
                 `data/vocabulary.yaml`.",
            ),
            false,
        ),
        ("assessment", g.subschema_for::<types::Assessment>(), false),
        ("repeat", g.subschema_for::<types::Repeat>(), false),
        (
            "texts",
            described(
                named_keys(&shape.texts, json!({"type": "string"})),
                "Its texts by name, each declared under `texts:` in `data/vocabulary.yaml`.",
            ),
            false,
        ),
    ];
    for pack in &shape.packs {
        let values = (pack.schemas)(g).case_values;
        fields.extend(pack_fields(pack.case_fields, &values));
    }
    object(fields)
}

/// The file of a declared collection: a list of records, each its `id` and the fields
/// the declaration gives.
fn collection(g: &mut SchemaGenerator, c: &CollectionSpec) -> Schema {
    let mut fields = vec![("id", json_schema!({"type": "string"}), true)];
    for f in &c.fields {
        fields.push((f.name.value.as_str(), declared_field(g, f), f.required));
    }
    json_schema!({"type": "array", "items": object(fields)})
}

/// The schema of one declared field's values.
fn declared_field(g: &mut SchemaGenerator, f: &FieldSpec) -> Schema {
    match f.ty {
        FieldType::List => json_schema!({"type": "array", "items": scalar(g, f, f.item())}),
        ty => scalar(g, f, ty),
    }
}

/// The schema of one value of a declared field, of type `ty`.
fn scalar(g: &mut SchemaGenerator, f: &FieldSpec, ty: FieldType) -> Schema {
    match ty {
        FieldType::Text => g.subschema_for::<super::Text>(),
        FieldType::String => json_schema!({"type": "string"}),
        FieldType::Number => json_schema!({"type": "number"}),
        FieldType::Date => {
            json_schema!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"})
        }
        FieldType::Ref => json_schema!({"type": "string"}),
        FieldType::Choice => {
            let ids: Vec<&str> = f.choices.iter().map(|c| c.id.value.as_str()).collect();
            json_schema!({"enum": ids})
        }
        // A list holds no lists: the loader refuses a list inside one.
        FieldType::List => json_schema!(false),
    }
}

/// Drops the definitions that neither `body` nor a kept definition refers to (a pack hands
/// in all its schemas at once; a run file needs only its fields').
fn keep_referenced(defs: &mut Map<String, Value>, body: &Value) {
    let mut keep: Vec<String> = Vec::new();
    let mut todo = vec![body.clone()];
    while let Some(v) = todo.pop() {
        for name in refs(&v) {
            if !keep.contains(&name)
                && let Some(d) = defs.get(&name)
            {
                todo.push(d.clone());
                keep.push(name);
            }
        }
    }
    defs.retain(|k, _| keep.contains(k));
}

/// The names of the definitions `v` refers to (`#/$defs/NAME`), anywhere inside it.
fn refs(v: &Value) -> Vec<String> {
    match v {
        Value::Object(m) => {
            let own = m
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
                .map(str::to_string);
            own.into_iter().chain(m.values().flat_map(refs)).collect()
        }
        Value::Array(a) => a.iter().flat_map(refs).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn only_the_definitions_a_schema_reaches_are_kept() {
        let mut defs = json!({
            "A": {"$ref": "#/$defs/B"},
            "B": {"type": "string"},
            "C": {"type": "number"},
        });
        let defs = defs.as_object_mut().expect("an object");
        super::keep_referenced(defs, &json!({"items": {"$ref": "#/$defs/A"}}));
        let kept: Vec<&String> = defs.keys().collect();
        assert_eq!(kept, ["A", "B"]);
    }
}
