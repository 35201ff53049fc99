//! Links and quoted values inside data texts (`{ja, en}` values of records).
//!
//! Pages report their own link and value problems while rendering; data texts are shared
//! by every view, so they are checked once here, against the site's pages and values,
//! and located by finding the offending snippet in the record's file.

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::model::Evidence;
use crate::model::refs::Kind;
use crate::render::values::{QuoteError, Values};
use pulldown_cmark::{Event, Parser, Tag};
use serde_json::Value;
use std::path::Path;

/// Where a record starts: its file and the line of its id.
struct Origin {
    file: String,
    line: usize,
}

/// Every record's origin, keyed by kind name and id.
fn origins(ev: &Evidence) -> Vec<(&'static str, String, Origin)> {
    let mut out = Vec::new();
    macro_rules! collect {
        ($($field:ident => $kind:expr),* $(,)?) => {$(
            for r in ev.$field.iter() {
                let id = crate::model::Record::id(&r.value);
                out.push(($kind.name(), id.value.clone(), Origin { file: r.file.to_string(), line: id.referenced.line() as usize }));
            }
        )*};
    }
    collect!(
        bundles => Kind::Bundle, claims => Kind::Claim, components => Kind::Component,
        families => Kind::Family, file_types => Kind::FileType, findings => Kind::Finding,
        generations => Kind::Generation, layers => Kind::Layer, maps => Kind::Map,
        observers => Kind::Observer, phases => Kind::Phase, plan => Kind::PlanStep,
        questions => Kind::Question, runs => Kind::Run, tensor_types => Kind::TensorType,
        terms => Kind::Term,
    );
    out
}

/// Checks every string of every record.
pub fn check(ev: &Evidence, values: &Values, root: &Path, diags: &mut Diagnostics) {
    let pages_complete = !ev.incomplete.contains(&Kind::Page);
    for (kind, id, origin) in origins(ev) {
        let Some(record) = values.json().get(kind).and_then(|k| k.get(&id)) else {
            continue;
        };
        let mut problems = Vec::new();
        strings(record, &mut |s| {
            problems.extend(text_problems(s, ev, values, pages_complete))
        });
        if problems.is_empty() {
            continue;
        }
        let source = std::fs::read_to_string(root.join(&origin.file)).unwrap_or_default();
        let mut from = line_start(&source, origin.line);
        for (needle, code, msg, hint) in problems {
            let at = source[from.min(source.len())..]
                .find(&needle)
                .map(|i| from + i);
            let span = match at {
                Some(i) => {
                    from = i + needle.len();
                    crate::diagnostics::span_at(&origin.file, &source, i, 1)
                }
                None => Span::new(&origin.file, origin.line, 1),
            };
            diags.push(Diagnostic::error(code, span, msg).with_hint(hint));
        }
    }
}

/// Calls `f` on every string value in `v`, in document order.
fn strings(v: &Value, f: &mut dyn FnMut(&str)) {
    match v {
        Value::String(s) => f(s),
        Value::Array(a) => a.iter().for_each(|x| strings(x, f)),
        Value::Object(m) => m.values().for_each(|x| strings(x, f)),
        _ => {}
    }
}

type Problem = (String, &'static str, String, &'static str);

fn text_problems(s: &str, ev: &Evidence, values: &Values, pages_complete: bool) -> Vec<Problem> {
    let mut out = Vec::new();
    if s.contains("@/") {
        for e in Parser::new(s) {
            if let Event::Start(Tag::Link { dest_url, .. }) = e
                && let Some(rest) = dest_url.strip_prefix("@/")
            {
                let page = rest.split('#').next().unwrap_or("").trim_end_matches('/');
                let page = if page.is_empty() { "index" } else { page };
                if pages_complete && ev.page(page).is_none() {
                    out.push((
                        format!("@/{rest}"),
                        "broken-link",
                        format!("link to unknown page `@/{rest}`"),
                        "internal links name a page by its file name under content/, e.g. `@/observers`",
                    ));
                }
            }
        }
    }
    let mut rest = s;
    while let Some(i) = rest.find(":v[") {
        let after = &rest[i + 3..];
        let Some(len) = after.find(']') else {
            out.push((
                ":v[".into(),
                "bad-value",
                "`:v[` is not closed with `]`".into(),
                "quote values as `:v[kind:id.field]`",
            ));
            break;
        };
        let path = &after[..len];
        if let Err(QuoteError::Bad(msg)) = values.quote(path, crate::load::page::Lang::En) {
            out.push((
                format!(":v[{path}]"),
                "bad-value",
                msg,
                "quote values as `:v[kind:id.field]`, e.g. `:v[bundle:bundle_0030.size_kb]`",
            ));
        }
        rest = &after[len + 1..];
    }
    out
}

fn line_start(source: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    source
        .match_indices('\n')
        .nth(line - 2)
        .map(|(i, _)| i + 1)
        .unwrap_or(0)
}
