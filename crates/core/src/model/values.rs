//! The resolved graph as JSON: the `evidence.json` output and the lookup behind `:v[…]`,
//! shared by render (quoting), check (a quote that does not resolve) and diff.

use super::Evidence;
use super::page::Lang;
use super::registry::Kind;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The graph keyed by kind, then id, for quoting. The tree is made the first time a quote
/// needs it: most builds quote a few values, and a site with a million probe cases would
/// make (and free) a million maps for none (`evidence.json` is written from the typed
/// records, [`export`]; `check` reads their strings the same way, [`super::strings`]).
#[derive(Debug, Default)]
pub struct Values {
    root: OnceLock<Value>,
    /// Kind (and declared collection) names whose file failed to load: a missing id
    /// there is not reported again.
    incomplete: Vec<String>,
    /// The names of the collections the site declares, which quote like kinds.
    declared: Vec<String>,
    /// The site's languages: an object of exactly these is a text.
    langs: &'static [Lang],
}

/// A quoted value as text in one language.
#[derive(Debug, PartialEq)]
pub struct Quoted {
    pub text: String,
    /// The value is a data text, written in markdown: shown as its table shows it, not
    /// as plain text.
    pub markdown: bool,
}

/// Why a value path could not be quoted.
#[derive(Debug, PartialEq)]
pub enum QuoteError {
    /// The path is wrong; the message says how.
    Bad(String),
    /// The record's file failed to load, which is already reported.
    Unavailable,
}

impl From<String> for QuoteError {
    fn from(s: String) -> Self {
        QuoteError::Bad(s)
    }
}

/// Every record by its kind's (or declared collection's) name, then by id: what both
/// `evidence.json` and the quoting tree hold. Only the kinds the site has records of, not
/// every kind known.
fn gathered(ev: &Evidence) -> BTreeMap<String, BTreeMap<&str, Record<'_>>> {
    let mut by_name: BTreeMap<String, BTreeMap<&str, Record>> = BTreeMap::new();
    for kind in super::registry::all().filter(|k| *k != Kind::Record) {
        let records: BTreeMap<&str, Record> = crate::model::with_collection!(
            ev,
            kind,
            |c| c
                .iter()
                .map(|r| (super::Record::id(&r.value).value.as_str(), &r.value as Record))
                .collect(),
            pages => continue
        );
        if !records.is_empty() {
            by_name.insert(kind.name().into(), records);
        }
    }
    // Declared records under their collection's name, by their own id.
    for rec in ev.records.iter() {
        by_name
            .entry(rec.collection.clone())
            .or_default()
            .insert(rec.id.value.as_str(), &rec.value);
    }
    by_name
}

/// The whole graph as one JSON tree, each kind's records converted in parallel (a site
/// with many probe runs holds hundreds of thousands of cases).
fn tree(ev: &Evidence) -> Value {
    use rayon::prelude::*;
    let kinds = gathered(ev).into_iter().map(|(name, records)| {
        let records: Vec<(&str, Record)> = records.into_iter().collect();
        let values: Vec<(String, Value)> = records
            .par_iter()
            .map(|(id, r)| (id.to_string(), r.value()))
            .collect();
        (name, Value::Object(values.into_iter().collect()))
    });
    Value::Object(kinds.collect())
}

impl Values {
    pub fn new(ev: &Evidence) -> Values {
        let declared = ev
            .config
            .iter()
            .flat_map(|c| &c.collections)
            .map(|c| c.name.value.clone())
            .collect();
        let mut incomplete: Vec<String> =
            ev.incomplete.iter().map(|k| k.name().to_string()).collect();
        // Which collection's file failed is not kept: every declared one may miss records.
        if ev.incomplete.contains(&Kind::Record) {
            incomplete.extend(
                ev.config
                    .iter()
                    .flat_map(|c| &c.collections)
                    .map(|c| c.name.value.clone()),
            );
        }
        Values {
            root: OnceLock::new(),
            incomplete,
            declared,
            langs: ev.languages(),
        }
    }

    /// The whole graph of `ev` (the evidence these values were made from), made now if
    /// no quote made it yet.
    pub fn json(&self, ev: &Evidence) -> &Value {
        self.root.get_or_init(|| tree(ev))
    }

    /// The value at `kind:id.field.field…` as text in `lang`, a number as `lang` writes
    /// it (`0,25` in German). A `|s` suffix shows a nanosecond count in seconds, `|n`
    /// groups the digits of a number. `ev` is the evidence these values were made from.
    pub fn quote(&self, ev: &Evidence, path: &str, lang: Lang) -> Result<String, QuoteError> {
        self.quote_marked(ev, path, lang).map(|q| q.text)
    }

    /// [`Values::quote`], saying whether the value is a data text (written in markdown, as
    /// its record's table renders it) rather than a number, id or other plain value.
    pub fn quote_marked(
        &self,
        ev: &Evidence,
        path: &str,
        lang: Lang,
    ) -> Result<Quoted, QuoteError> {
        let plain = |text: String| Quoted {
            text,
            markdown: false,
        };
        let nums = super::numerals::Numerals::of(lang);
        if let Some((inner, format)) = path.split_once('|') {
            let raw = self.raw_quote(ev, inner, lang)?;
            let n: u64 = raw.parse().map_err(|_| {
                format!("`{inner}` is not a whole number, so `|{format}` cannot apply")
            })?;
            return match format {
                "s" => Ok(plain(nums.seconds(n))),
                "n" => Ok(plain(nums.digits(n))),
                other => Err(QuoteError::Bad(format!(
                    "unknown value format `|{other}` (known: `|s` for ns as seconds, `|n` for grouped digits)"
                ))),
            };
        }
        if self.is_text_at(ev, path) {
            let text = self.raw_quote(ev, path, lang)?;
            return Ok(Quoted {
                text,
                markdown: true,
            });
        }
        let raw = self.raw_quote(ev, path, lang)?;
        // A number reads back from its machine form; a text that only looks like one
        // (a version, an id) is a string in the data and stays as written.
        match self.number_at(ev, path) {
            Some(x) => Ok(plain(nums.quoted(x))),
            None => Ok(plain(raw)),
        }
    }

    /// Whether the value at `path` is a data text: an object keyed by the site's languages.
    fn is_text_at(&self, ev: &Evidence, path: &str) -> bool {
        self.value_at(ev, path)
            .is_some_and(|v| v.is_object() && super::lang::json_text(v, self.langs).is_some())
    }

    /// The value at `path`, when there is one.
    fn value_at(&self, ev: &Evidence, path: &str) -> Option<&Value> {
        let (kind, rest) = path.split_once(':')?;
        let mut segs = rest.split('.');
        let mut cur = self.json(ev).get(kind)?.get(segs.next()?)?;
        for seg in segs {
            cur = step(cur, seg)?;
        }
        Some(cur)
    }

    /// The number at `path`, when the value there is one.
    fn number_at(&self, ev: &Evidence, path: &str) -> Option<f64> {
        self.value_at(ev, path)?.as_f64()
    }

    /// The value at `path` as text in `lang`, a number machine-written (`0.25`).
    fn raw_quote(&self, ev: &Evidence, path: &str, lang: Lang) -> Result<String, QuoteError> {
        let (kind, rest) = path
            .split_once(':')
            .ok_or_else(|| format!("`{path}` is not a value path: expected `kind:id.field`"))?;
        let mut segs = rest.split('.');
        let id = segs.next().unwrap_or_default();
        let declared = self.declared.iter().any(|d| d == kind);
        if !declared && Kind::from_name(kind).is_none_or(|k| matches!(k, Kind::Page | Kind::Record))
        {
            return Err(format!("unknown kind `{kind}` in `:v[{path}]`").into());
        }
        // A kind with no records has no key in the graph.
        let cur = self.json(ev).get(kind).and_then(|records| records.get(id));
        let Some(mut cur) = cur else {
            if self.incomplete.iter().any(|k| k == kind) {
                return Err(QuoteError::Unavailable);
            }
            return Err(format!("no {kind} with id `{id}` (in `:v[{path}]`)").into());
        };
        for seg in segs {
            cur = step(cur, seg).ok_or_else(|| format!("`{path}` has no `{seg}`"))?;
        }
        scalar(cur, lang, self.langs).ok_or_else(|| {
            QuoteError::Bad(format!(
                "`{path}` is not a single value (it is a list or record)"
            ))
        })
    }
}

/// A record to export, from any thread.
type Record<'e> = &'e (dyn Exported + Sync);

/// A record of any kind, written as JSON two levels in, where `evidence.json` holds it, or
/// as a tree. One dynamic call per record, and serde's own calls inside it, rather than
/// erased serde's dynamic call per field.
trait Exported {
    fn json(&self) -> String;
    /// The record as a JSON tree, for quoting.
    fn value(&self) -> Value;
}

impl<T: Serialize> Exported for T {
    fn value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn json(&self) -> String {
        let mut json = Vec::with_capacity(256);
        let mut ser = serde_json::Serializer::with_formatter(&mut json, Indented::new(2));
        if self.serialize(&mut ser).is_err() {
            return "null".into();
        }
        // serde_json writes nothing but UTF-8.
        String::from_utf8(json).unwrap_or_else(|_| "null".into())
    }
}

/// `evidence.json`: every record under its kind's (or declared collection's) name, then its
/// id, both sorted, each as its type writes it. Records are written in parallel, a batch at
/// a time, already indented to their place, and never become a JSON tree.
pub fn export(ev: &Evidence) -> String {
    let mut out = String::new();
    export_in_batches(ev, BATCH, &mut |s| out.push_str(s));
    out
}

/// [`export`] handed to `out` a piece at a time, so that the file is never held whole (it
/// is hundreds of megabytes for a site with a million probe cases).
pub fn export_pieces(ev: &Evidence, out: &mut dyn FnMut(&str)) {
    export_in_batches(ev, BATCH, out);
}

/// [`export_pieces`], `batch` records at a time.
pub(crate) fn export_in_batches(ev: &Evidence, batch: usize, out: &mut dyn FnMut(&str)) {
    let by_name = gathered(ev);
    // As serde_json's pretty printer lays it out, two spaces a level.
    let key = |k: &str| serde_json::to_string(k).unwrap_or_default();
    out("{");
    for (i, (name, records)) in by_name.iter().enumerate() {
        out(if i == 0 { "\n  " } else { ",\n  " });
        out(&key(name));
        out(": {");
        let records: Vec<(&str, Record)> = records.iter().map(|(id, r)| (*id, *r)).collect();
        let mut first = true;
        // A batch's records are written on every thread, then handed on in order.
        for batch in records.chunks(batch.max(1)) {
            for ((id, _), json) in batch.iter().zip(written(batch)) {
                out(if first { "\n    " } else { ",\n    " });
                first = false;
                out(&key(id));
                out(": ");
                out(&json);
            }
        }
        out("\n  }");
    }
    out(if by_name.is_empty() { "}" } else { "\n}" });
}

/// Records written in parallel at a time: enough to keep every thread busy, few enough
/// that their text is a small part of the file's.
const BATCH: usize = 64;

/// Each record's JSON, two levels in, written in parallel (a site with many probe runs
/// holds hundreds of thousands of cases), in the records' order.
fn written(records: &[(&str, Record)]) -> Vec<String> {
    use rayon::prelude::*;
    records.par_iter().map(|(_, r)| r.json()).collect()
}

/// serde_json's pretty layout (two spaces a level) for a value that starts `depth` levels
/// in, so that a record is written in its place in the file rather than re-indented.
struct Indented {
    depth: usize,
    has_value: bool,
}

impl Indented {
    fn new(depth: usize) -> Indented {
        Indented {
            depth,
            has_value: false,
        }
    }

    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }

    fn indent<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        const SPACES: &[u8] = &[b' '; 64];
        let mut n = self.depth * 2;
        while n > 0 {
            let k = n.min(SPACES.len());
            w.write_all(&SPACES[..k])?;
            n -= k;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Indented {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
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

fn scalar(v: &Value, lang: Lang, langs: &[Lang]) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Object(_) => super::lang::json_text(v, langs)?
            .into_iter()
            .find(|(l, _)| *l == lang)
            .map(|(_, s)| s.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values() -> Values {
        Values {
            incomplete: Vec::new(),
            declared: Vec::new(),
            langs: Lang::DEFAULT,
            root: OnceLock::from(
                json!({"run": {"r1": {"cases": [{"id": "c1", "load_duration_ns": 17455000000u64, "n": 290}],
                "origin": {"ja": "記録", "en": "record"}}}}),
            ),
        }
    }

    #[test]
    fn quotes_by_path() {
        let v = values();
        // The tree is made already; the evidence is never read.
        let ev = Evidence::default();
        assert_eq!(v.quote(&ev, "run:r1.cases.c1.n", Lang::EN).unwrap(), "290");
        assert_eq!(v.quote(&ev, "run:r1.cases.0.n", Lang::EN).unwrap(), "290");
        assert_eq!(v.quote(&ev, "run:r1.origin", Lang::JA).unwrap(), "記録");
        assert_eq!(
            v.quote(&ev, "run:r1.cases.c1.load_duration_ns|s", Lang::EN)
                .unwrap(),
            "17.455 s"
        );
        let bad = |p: &str| match v.quote(&ev, p, Lang::EN) {
            Err(QuoteError::Bad(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(bad("run:r1.cases").contains("not a single value"));
        assert!(bad("run:r2.x").contains("no run with id `r2`"));
        assert!(v.quote(&ev, "run:r1.origin|s", Lang::EN).is_err());
        assert!(v.quote(&ev, "run:r1.cases.c1.n|q", Lang::EN).is_err());
    }

    /// A data text is marked as markdown, for the page to render it as its table does; a
    /// number or an id is plain.
    #[test]
    fn a_data_text_is_marked_as_markdown() {
        let v = values();
        let ev = Evidence::default();
        let text = v.quote_marked(&ev, "run:r1.origin", Lang::EN).unwrap();
        assert!(text.markdown, "{text:?}");
        let n = v.quote_marked(&ev, "run:r1.cases.c1.n", Lang::EN).unwrap();
        assert!(!n.markdown, "{n:?}");
        let id = v.quote_marked(&ev, "run:r1.cases.c1.id", Lang::EN).unwrap();
        assert!(!id.markdown, "{id:?}");
    }

    /// The layout of serde_json's pretty printer, as it would be indented `depth` levels in.
    fn pretty_at(v: &serde_json::Value, depth: usize) -> String {
        let pad = "  ".repeat(depth);
        let pretty = serde_json::to_string_pretty(v).unwrap_or_default();
        pretty
            .split('\n')
            .collect::<Vec<_>>()
            .join(&format!("\n{pad}"))
    }

    fn indented(v: &serde_json::Value, depth: usize) -> String {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, Indented::new(depth));
        v.serialize(&mut ser).unwrap_or_default();
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn records_are_laid_out_as_the_pretty_printer_lays_them_out_in_place() {
        let values = [
            json!({}),
            json!([]),
            json!({"a": [], "b": {}, "c": [[], [{}], {"d": [1, 2.5, "x\ny"]}], "e": null}),
            json!([{"id": "c1", "n": 290, "ok": true}, {"id": "c2", "s": {"ja": "記録"}}]),
            json!("plain"),
        ];
        for v in &values {
            for depth in [0, 1, 2, 5, 40] {
                assert_eq!(indented(v, depth), pretty_at(v, depth), "{v} at {depth}");
            }
        }
    }
}
