//! `evidence schema`: writes the JSON Schema of each kind of file the site writes
//! (`model::json_schema`) into `schemas/` and points the editor settings at them, and makes
//! the reference of every format (`docs/reference.md`) from the same schemas.

use crate::diagnostics::{Diagnostic, Span};
use crate::load::read::{self, SOURCE};
use crate::model::json_schema::{self, FileSchema, SiteShape};
use crate::model::lang::expecting;
use crate::model::types::VocabularyFile;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// The folder under the site's root the schemas go to unless `--out` says otherwise.
pub const DEFAULT_OUT: &str = "schemas";

/// The editor settings file that maps each schema to its files (`yaml.schemas`, read by the
/// YAML language server).
pub const SETTINGS: &str = ".vscode/settings.json";

/// The key of [`SETTINGS`] the schemas are listed under.
const SETTINGS_KEY: &str = "yaml.schemas";

/// The schemas of the site at `root`: its languages, packs and collections from
/// `evidence.yaml`, its measurement and text names from `data/vocabulary.yaml`.
pub fn site_schemas(root: &Path) -> Result<Vec<FileSchema>, Box<Diagnostic>> {
    let config = crate::load::config(root)?;
    let langs = config.languages();
    let vocabulary = vocabulary(root, langs)?;
    let names = |f: fn(&VocabularyFile) -> Vec<String>| {
        Some(vocabulary.as_ref().map(f).unwrap_or_default())
    };
    let shape = SiteShape {
        languages: langs.iter().map(|l| l.code().to_string()).collect(),
        packs: crate::model::pack::known()
            .iter()
            .copied()
            .filter(|p| config.has_pack(p.name))
            .collect(),
        measurements: names(|v| v.measurements.iter().map(|m| m.id.value.clone()).collect()),
        texts: names(|v| v.texts.iter().map(|t| t.id.value.clone()).collect()),
        collections: &config.collections,
    };
    Ok(json_schema::schemas(&shape))
}

/// The site's `data/vocabulary.yaml`, if it has one.
fn vocabulary(
    root: &Path,
    langs: &'static [crate::model::lang::Lang],
) -> Result<Option<VocabularyFile>, Box<Diagnostic>> {
    let rel = "data/vocabulary.yaml";
    let path = root.join(rel);
    if !path.exists() {
        return Ok(None);
    }
    let text =
        read::read_text(&path, SOURCE).map_err(|e| Box::new(crate::load::read_error(rel, &e)))?;
    expecting(langs, || {
        crate::load::yaml::parse::<VocabularyFile>(rel, &text, 0)
    })
    .map(Some)
}

/// A file's schema as written: pretty JSON ending in a newline.
pub fn to_text(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

/// The name of the file a schema is written to.
pub fn file_name(s: &FileSchema) -> String {
    format!("{}.schema.json", s.name)
}

/// Writes the schemas of the site at `root` into `out` and lists them in the editor
/// settings ([`SETTINGS`]); gives the paths written.
pub fn write(root: &Path, out: &Path) -> Result<Vec<PathBuf>, Box<Diagnostic>> {
    let schemas = site_schemas(root)?;
    // The settings are read and judged before anything is written.
    let settings = settings_with(root, out, &schemas)?;
    let io = |what: &Path, e: std::io::Error| {
        Box::new(Diagnostic::error(
            "io",
            Span::file(what.display().to_string()),
            format!("cannot write {}: {e}", what.display()),
        ))
    };
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let mut written = Vec::new();
    for s in &schemas {
        let path = out.join(file_name(s));
        std::fs::write(&path, to_text(&s.schema)).map_err(|e| io(&path, e))?;
        written.push(path);
    }
    let path = root.join(SETTINGS);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
    }
    std::fs::write(&path, to_text(&settings)).map_err(|e| io(&path, e))?;
    written.push(path);
    Ok(written)
}

/// How the settings file names a schema in `out`: relative to the site's root
/// (`./schemas/runs.schema.json`) when `out` is inside it, else its full path.
fn schema_ref(root: &Path, out: &Path, s: &FileSchema) -> String {
    let rel = out.strip_prefix(root).ok().filter(|r| r.is_relative());
    match rel {
        Some(r) if r.as_os_str().is_empty() => format!("./{}", file_name(s)),
        Some(r) => format!("./{}/{}", r.display(), file_name(s)),
        None => out.join(file_name(s)).display().to_string(),
    }
}

/// The editor settings with `yaml.schemas` listing `schemas` (each mapped to its files):
/// the site's own settings kept, and its own entries for other schemas too.
fn settings_with(
    root: &Path,
    out: &Path,
    schemas: &[FileSchema],
) -> Result<Value, Box<Diagnostic>> {
    let path = root.join(SETTINGS);
    let mut settings = match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str::<Value>(&text).map_err(|e| {
            Box::new(
                Diagnostic::error(
                    "settings",
                    Span::new(SETTINGS, e.line().max(1), e.column().max(1)),
                    format!("{SETTINGS} is not a JSON object evidence can update: {e}"),
                )
                .with_hint(format!(
                    "remove its comments and trailing commas, or add `{SETTINGS_KEY}` by hand \
                     (the schemas are written with --out elsewhere)"
                )),
            )
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => {
            return Err(Box::new(Diagnostic::error(
                "io",
                Span::file(SETTINGS),
                format!("cannot read {SETTINGS}: {e}"),
            )));
        }
    };
    let Some(obj) = settings.as_object_mut() else {
        return Err(Box::new(Diagnostic::error(
            "settings",
            Span::new(SETTINGS, 1, 1),
            format!("{SETTINGS} is not a JSON object"),
        )));
    };
    let mut map = match obj.remove(SETTINGS_KEY) {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    // The entries of earlier runs (a schema file of ours) give way to this run's.
    map.retain(|k, _| {
        !k.ends_with(".schema.json") || !schemas.iter().any(|s| k.ends_with(&file_name(s)))
    });
    for s in schemas {
        map.insert(schema_ref(root, out, s), json!(s.glob));
    }
    obj.insert(SETTINGS_KEY.into(), Value::Object(map));
    Ok(settings)
}

/// The shape of a site that names no measurement or text of its own: the reference's.
fn generic(packs: Vec<&'static crate::model::pack::Pack>) -> SiteShape<'static> {
    SiteShape {
        languages: crate::model::lang::Lang::DEFAULT
            .iter()
            .map(|l| l.code().to_string())
            .collect(),
        packs,
        measurements: None,
        texts: None,
        collections: &[],
    }
}

/// The reference of every data file, in markdown: each file's fields, their types, whether
/// each is required, an example value; then what each pack adds. `docs/reference.md` is
/// this text (a test holds it to it).
pub fn reference() -> String {
    let mut md = String::from(
        "# Data file reference\n\n\
         Generated by `evidence schema --markdown` from the schemas `evidence schema` writes; \
         do not edit by hand. A *text* is an object with one string per language of the site \
         (`{ja: …, en: …}` on a site of `languages: [ja, en]`). A field not marked required may \
         be left out. Every object takes only the fields listed.\n",
    );
    kinds_section(&mut md);
    let core = json_schema::schemas(&generic(Vec::new()));
    for s in &core {
        section(&mut md, s, "##");
    }
    for pack in crate::model::pack::known() {
        md.push_str(&format!("\n## Pack `{}`\n\n{}.\n", pack.name, pack.about));
        md.push_str(
            "\nThe kinds of record it adds, each named in a reference like the core's:\n\n",
        );
        kinds_table(&mut md, pack.kinds.iter().copied());

        let with = json_schema::schemas(&generic(vec![pack]));
        for s in &with {
            if s.name == "runs" {
                added_fields(&mut md, &core, s);
            } else if !core.iter().any(|c| c.name == s.name) {
                section(&mut md, s, "###");
            }
        }
    }
    md
}

/// What a reference names: every kind of the registry, with the file its records are
/// written in and what a record of it is.
fn kinds_section(md: &mut String) {
    md.push_str(
        "\n## References\n\n\
         A field that names another record takes a reference, `kind:id` (`claim:c1`), or \
         the bare id where the field names records of one kind. A record of a collection \
         the site declares is named by the collection's name (`query:q1`); a page by its path \
         under `content/` without `.md` (`page:notes/setup`). The kinds:\n\n",
    );
    let written = crate::model::registry::KINDS
        .iter()
        .filter(|k| k.storage != crate::model::registry::Storage::Declared);
    kinds_table(md, written);
    md.push_str("\nA pack adds kinds of its own (below, under the pack).\n");
}

/// A table of kinds: the prefix of a reference, where the records are written, what one is.
fn kinds_table<'a>(
    md: &mut String,
    kinds: impl Iterator<Item = &'a crate::model::registry::KindSpec>,
) {
    md.push_str("| Kind | Written in | A record is |\n|---|---|---|\n");
    for k in kinds {
        let place = match k.file_pattern() {
            Some(f) => format!("`data/{f}`"),
            None => "`content/**/*.md`".to_string(),
        };
        md.push_str(&format!(
            "| `{}` | {place} | {} |\n",
            k.name,
            k.about.trim()
        ));
    }
}

/// The fields a pack adds to runs and cases: those of `with`'s run schema that `core`'s lacks.
fn added_fields(md: &mut String, core: &[FileSchema], with: &FileSchema) {
    let Some(base) = core.iter().find(|c| c.name == "runs") else {
        return;
    };
    let defs = with.schema.get("$defs");
    for (place, pointer) in [("run", ""), ("case", "/$defs/Case")] {
        let props = |s: &Value| {
            s.pointer(&format!("{pointer}/properties"))
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let mut added = props(&with.schema);
        added.retain(|k, _| !props(&base.schema).contains_key(k));
        md.push_str(&format!(
            "\n### Fields its probes add to a {place} (`data/runs/*.yaml`)\n\n"
        ));
        table(md, &added, &[], defs);
    }
}

/// One file's section: where it is, its shape, and the table of each object in it.
fn section(md: &mut String, s: &FileSchema, level: &str) {
    md.push_str(&format!("\n{level} `{}`\n\n", s.glob));
    let defs = s.schema.get("$defs");
    // The file's own shape: under a `$ref` at its root, or a declared probe's `then`.
    let root = resolve(s.schema.get("then").unwrap_or(&s.schema), defs);
    let (shape, top) = match root.get("type").and_then(Value::as_str) {
        Some("array") => (
            "A list of records, each an object with these fields:",
            root.get("items").map(|i| resolve(i, defs)),
        ),
        _ => ("One object with these fields:", Some(root)),
    };
    if s.schema.get("then").is_some() {
        md.push_str(
            "A file with a top-level `command:` or `request:` is a declared probe; the \
             other files there are a pack's probe inputs, which this schema leaves alone.\n\n",
        );
    }
    md.push_str(shape);
    md.push_str("\n\n");
    let mut nested: Vec<String> = Vec::new();
    if let Some(top) = top {
        object_table(md, top, defs, &mut nested);
    }
    // Each object type the file refers to, once, in the order first met.
    let mut i = 0;
    while i < nested.len() {
        let name = nested[i].clone();
        i += 1;
        // A text is said once, at the top of the reference.
        if let Some(def) = defs.and_then(|d| d.get(&name))
            && def.get("properties").is_some()
            && name != "Text"
        {
            md.push_str(&format!("\n`{name}`:\n\n"));
            object_table(md, def, defs, &mut nested);
        }
    }
}

/// The table of an object schema's fields, noting the definitions it refers to.
fn object_table(md: &mut String, obj: &Value, defs: Option<&Value>, nested: &mut Vec<String>) {
    let props = obj
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for v in props.values() {
        refs_in(v, nested);
    }
    table(md, &props, &required, defs);
}

/// A markdown table of `props`.
fn table(md: &mut String, props: &Map<String, Value>, required: &[&str], defs: Option<&Value>) {
    if props.is_empty() {
        md.push_str("(none)\n");
        return;
    }
    md.push_str("| Field | Type | Required | Example | Description |\n|---|---|---|---|---|\n");
    for (name, v) in props {
        let req = if required.contains(&name.as_str()) {
            "yes"
        } else {
            "no"
        };
        md.push_str(&format!(
            "| `{name}` | {} | {req} | {} | {} |\n",
            type_of(v, defs),
            example(v, defs),
            about(v)
        ));
    }
}

/// The names of the definitions `v` refers to, added to `names` in order.
fn refs_in(v: &Value, names: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(r) = m.get("$ref").and_then(Value::as_str)
                && let Some(n) = r.strip_prefix("#/$defs/")
                && !names.iter().any(|x| x == n)
            {
                names.push(n.to_string());
            }
            m.values().for_each(|x| refs_in(x, names));
        }
        Value::Array(a) => a.iter().for_each(|x| refs_in(x, names)),
        _ => {}
    }
}

/// The definition `v` refers to, or `v`.
fn resolve<'v>(v: &'v Value, defs: Option<&'v Value>) -> &'v Value {
    v.get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .and_then(|n| defs?.get(n))
        .unwrap_or(v)
}

/// The schema `v` describes, without the `null` an optional field may also be.
fn non_null(v: &Value) -> &Value {
    for key in ["anyOf", "oneOf"] {
        if let Some(alts) = v.get(key).and_then(Value::as_array) {
            let rest: Vec<&Value> = alts
                .iter()
                .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            if let [one] = rest.as_slice() {
                return one;
            }
        }
    }
    v
}

/// The values of a choice written as alternatives of one constant each (an enum's
/// variants with their own descriptions), if `v` is one.
fn consts<'v>(v: &'v Value) -> Option<Vec<&'v str>> {
    let alts = v.get("oneOf").or(v.get("anyOf"))?.as_array()?;
    let one = |a: &'v Value| match a.get("enum").and_then(Value::as_array) {
        Some(e) if e.len() == 1 => e[0].as_str(),
        _ => a.get("const")?.as_str(),
    };
    alts.iter().map(one).collect()
}

/// A field's type, as a reader says it.
fn type_of(v: &Value, defs: Option<&Value>) -> String {
    let v = non_null(v);
    if let Some(n) = v
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
    {
        if n == "Text" {
            return "text".into();
        }
        let def = resolve(v, defs);
        if def.get("properties").is_none() {
            return type_of(def, defs);
        }
        return format!("`{n}`");
    }
    if let Some(c) = consts(v) {
        let each: Vec<String> = c.iter().map(|x| format!("`{x}`")).collect();
        return format!("one of {}", each.join(", "));
    }
    if let Some(e) = v.get("enum").and_then(Value::as_array) {
        let each: Vec<String> = e
            .iter()
            .map(|x| format!("`{}`", x.as_str().unwrap_or_default()))
            .collect();
        return format!("one of {}", each.join(", "));
    }
    if let Some(alts) = v.get("anyOf").or(v.get("oneOf")).and_then(Value::as_array) {
        let each: Vec<String> = alts.iter().map(|a| type_of(a, defs)).collect();
        return each.join(" or ");
    }
    let ty = match v.get("type") {
        Some(Value::Array(t)) => t
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("any"),
        Some(Value::String(t)) => t.as_str(),
        _ => "any",
    };
    match ty {
        "array" => format!(
            "list of {}",
            v.get("items")
                .map(|i| type_of(i, defs))
                .unwrap_or("any".into())
        ),
        "object" => match v.get("additionalProperties") {
            Some(a) if a.is_object() => format!("map of name → {}", type_of(a, defs)),
            _ => "object".into(),
        },
        "integer" | "number" | "string" | "boolean" => ty.into(),
        _ => "any".into(),
    }
}

/// An example value of a field, in YAML's flow style.
fn example(v: &Value, defs: Option<&Value>) -> String {
    let v = non_null(v);
    if v.get("$ref").and_then(Value::as_str) == Some("#/$defs/Text") {
        let langs: Vec<String> = crate::model::lang::Lang::DEFAULT
            .iter()
            .map(|l| format!("{}: …", l.code()))
            .collect();
        return format!("`{{{}}}`", langs.join(", "));
    }
    let def = resolve(v, defs);
    if def.get("properties").is_some() {
        return "`{…}`".into();
    }
    if let Some(first) = consts(def).and_then(|c| c.first().copied()) {
        return format!("`{first}`");
    }
    if let Some(first) = def
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return format!("`{}`", first.as_str().unwrap_or_default());
    }
    match type_of(def, defs).as_str() {
        "string" => "`an-id`".into(),
        "integer" => "`3`".into(),
        "number" => "`2.5`".into(),
        "boolean" => "`true`".into(),
        t if t.starts_with("list") => "`[…]`".into(),
        t if t.starts_with("map") => "`{name: …}`".into(),
        _ => "".into(),
    }
}

/// A field's description on one line, without rustdoc's link brackets.
fn about(v: &Value) -> String {
    let d = v
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    d.replace("[`", "`")
        .replace("`]", "`")
        .replace('\n', " ")
        .replace('|', "\\|")
}
