//! A declared probe (`data/probes/NAME.yaml`): how to measure, written by hand, run by
//! `evidence probe run NAME` and checked, never run, by `evidence check`.
//!
//! ```yaml
//! probe: explain-analyze
//! command: [psql, -X, -A, -t, -c, "EXPLAIN (ANALYZE, FORMAT JSON) SELECT … '{since}'"]
//! output: json
//! timeout: 60s
//! env: [PGHOST]
//! measurements: {exec_ms: "/0/Execution Time"}
//! texts: {plan_node: "/0/Plan/Node Type"}
//! versions: {postgres: [postgres, --version]}
//! cases:
//!   - {id: d30, params: {since: "2026-04-01"}}
//! ```
//!
//! A file under `data/probes/` is a declared probe when a line of it starts with the
//! top-level key `command:` or `request:`; any other file there is an input a pack's
//! probe reads (a cases file), which the core leaves alone. Holes are `{name}`: a
//! parameter of the case, filled into one argument (or one string of a request) as it
//! is, never through a shell; `{{` and `}}` write a brace.

use super::Id;
use crate::diagnostics::{Diagnostic, Span};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// A declared probe as written.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProbeFile {
    /// The probe name each run records (and its id starts with).
    pub probe: Id,
    /// The engine of the site's vocabulary the runs name; `none` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Id>,
    /// The program and its arguments, run once per case without a shell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<Id>>,
    /// Instead of a command: an HTTP request sent once per case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<RequestSpec>,
    /// What the command prints on stdout (or the server replies).
    pub output: Output,
    /// The time limit of each command or request (`500ms`, `60s`, `2m`); 60 s when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Id>,
    /// Variables of the caller's environment passed through (the rest is cleared).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<Id>,
    /// Measurement name (declared in the vocabulary) ← a JSON Pointer into the output.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub measurements: BTreeMap<String, Id>,
    /// Text name (declared in the vocabulary) ← a JSON Pointer into the output.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub texts: BTreeMap<String, Id>,
    /// Version name ← a command whose first line of stdout is recorded, once per run.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<String, Vec<Id>>,
    pub cases: Vec<ProbeCase>,
}

/// An HTTP request of a declared probe.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestSpec {
    /// `GET` or `POST`.
    pub method: Id,
    /// `http://HOST:PORT/path`, holes allowed in the path.
    pub url: Id,
    /// The JSON body of a `POST`; holes are filled in its strings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json: Option<serde_json::Value>,
}

/// The format of a probe's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Output {
    Json,
}

/// One case: its id and the values of its holes.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProbeCase {
    pub id: Id,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, Id>,
}

/// The time limit when a probe file gives none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest time limit a probe file may give.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(3600);

/// Most cases a probe file may hold (a bound on the loop that runs them).
pub const MAX_CASES: usize = 1000;

/// Whether the text of a file under `data/probes/` is a declared probe: a line starts
/// with the top-level key `command:` or `request:`.
pub fn is_declared(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("command:") || l.starts_with("request:"))
}

/// A piece of a template: text as it is, or a hole naming a parameter.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(String),
    Hole(&'a str),
}

/// The pieces of `template`: `{name}` (letters, digits, `_`, not starting with a digit)
/// is a hole, `{{` a `{`, any other brace itself (a JSON object in an argument needs no
/// escaping).
pub fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = template;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("{{") {
            text.push('{');
            rest = after;
            continue;
        }
        if c == '{'
            && let Some(end) = rest.find('}')
            && is_param_name(&rest[1..end])
        {
            if !text.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut text)));
            }
            out.push(Piece::Hole(&rest[1..end]));
            rest = &rest[end + 1..];
            continue;
        }
        text.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    out
}

fn is_param_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The names of the holes in `template`.
pub fn holes(template: &str) -> Vec<&str> {
    pieces(template)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Hole(h) => Some(h),
            Piece::Text(_) => None,
        })
        .collect()
}

/// `template` with its holes filled from `params`, or the first hole that names none.
pub fn fill<'a>(template: &'a str, params: &BTreeMap<String, Id>) -> Result<String, &'a str> {
    let mut out = String::new();
    for p in pieces(template) {
        match p {
            Piece::Text(t) => out.push_str(&t),
            Piece::Hole(h) => out.push_str(&params.get(h).ok_or(h)?.value),
        }
    }
    Ok(out)
}

/// Every string of a JSON body, for its holes.
pub fn json_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_strings(x, out)),
        serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k.clone());
            json_strings(x, out)
        }),
        _ => {}
    }
}

/// A hole of a template that names no parameter of the case being run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownHole(pub String);

impl std::fmt::Display for UnknownHole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the hole `{{{}}}` names no parameter", self.0)
    }
}

impl std::error::Error for UnknownHole {}

impl From<&str> for UnknownHole {
    fn from(hole: &str) -> UnknownHole {
        UnknownHole(hole.to_string())
    }
}

/// A JSON body with the holes of its keys and strings filled.
pub fn fill_json(
    v: &serde_json::Value,
    params: &BTreeMap<String, Id>,
) -> Result<serde_json::Value, UnknownHole> {
    use serde_json::Value;
    Ok(match v {
        Value::String(s) => Value::String(fill(s, params)?),
        Value::Array(a) => Value::Array(
            a.iter()
                .map(|x| fill_json(x, params))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(o) => {
            let mut m = serde_json::Map::new();
            for (k, x) in o {
                m.insert(fill(k, params)?, fill_json(x, params)?);
            }
            Value::Object(m)
        }
        other => other.clone(),
    })
}

/// A time limit as written: a whole number followed by `ms`, `s` or `m`.
pub fn parse_timeout(s: &str) -> Option<Duration> {
    let s = s.trim();
    let (n, unit) = s
        .find(|c: char| !c.is_ascii_digit())
        .map(|i| s.split_at(i))?;
    let n: u64 = n.parse().ok()?;
    match unit {
        "ms" => Some(Duration::from_millis(n)),
        "s" => Some(Duration::from_secs(n)),
        "m" => Some(Duration::from_secs(n.checked_mul(60)?)),
        _ => None,
    }
}

/// An error in a probe file at the place of `id`.
fn problem(file: &str, id: &Id, message: String) -> Diagnostic {
    Diagnostic::error("probe-file", super::span_of(file, id), message)
}

impl ProbeFile {
    /// Its time limit (the default when absent; a bad one is a [`Self::problems`] error).
    pub fn time_limit(&self) -> Duration {
        self.timeout
            .as_ref()
            .and_then(|t| parse_timeout(&t.value))
            .unwrap_or(DEFAULT_TIMEOUT)
    }

    /// Every template of the command or request (argument, URL, body string), with the
    /// place it is written at.
    pub fn templates(&self) -> Vec<(String, &Id)> {
        let mut out: Vec<(String, &Id)> = Vec::new();
        if let Some(c) = &self.command {
            out.extend(c.iter().map(|a| (a.value.clone(), a)));
        }
        if let Some(r) = &self.request {
            out.push((r.url.value.clone(), &r.url));
            let mut strings = Vec::new();
            if let Some(j) = &r.json {
                json_strings(j, &mut strings);
            }
            out.extend(strings.into_iter().map(|s| (s, &r.url)));
        }
        out
    }

    /// What is wrong with the file (`file`: its path from the site root) without
    /// running it; `declared(kind, name)` says whether the site's vocabulary declares a
    /// measurement (`"measurement"`), a text (`"text"`) or an engine (`"engine"`).
    pub fn problems(&self, file: &str, declared: &dyn Fn(&str, &str) -> bool) -> Vec<Diagnostic> {
        let err = |id: &Id, m: String| problem(file, id, m);
        let mut out = Vec::new();
        if !super::refs::valid_id(&self.probe.value) || self.probe.value.contains('.') {
            out.push(
                err(
                    &self.probe,
                    format!("`{}` is not a valid probe name", self.probe.value),
                )
                .with_hint("use letters, digits, `_` and `-`"),
            );
        }
        self.action_problems(file, &mut out);
        self.version_problems(file, &mut out);
        self.setting_problems(file, declared, &mut out);
        self.recorded_problems(file, declared, &mut out);
        self.case_problems(file, &mut out);
        out
    }

    /// What the probe runs: a `command` whose first word is a program, or a GET or POST `request`
    /// to a plain http:// URL, never both.
    fn action_problems(&self, file: &str, out: &mut Vec<Diagnostic>) {
        let err = |id: &Id, m: String| problem(file, id, m);
        match (&self.command, &self.request) {
            (Some(_), Some(_)) => out.push(
                err(
                    &self.probe,
                    "a probe has a `command` or a `request`, not both".into(),
                )
                .with_hint("keep one: a probe runs one thing per case"),
            ),
            (None, None) => out.push(err(
                &self.probe,
                "a probe needs a `command` or a `request`".into(),
            )),
            (Some(c), None) => match c.first() {
                None => out.push(Diagnostic::error(
                    "probe-file",
                    Span::file(file),
                    "`command` is empty: it needs at least the program",
                )),
                Some(p) if !holes(&p.value).is_empty() || p.value.trim().is_empty() => out.push(
                    err(p, format!("`{}` cannot be the program", p.value))
                        .with_hint("name the program itself; holes go in its arguments"),
                ),
                Some(_) => {}
            },
            (None, Some(r)) => {
                if !matches!(r.method.value.as_str(), "GET" | "POST") {
                    out.push(err(
                        &r.method,
                        format!("method `{}`: a probe sends GET or POST", r.method.value),
                    ));
                }
                if r.json.is_some() && r.method.value == "GET" {
                    out.push(err(&r.method, "a GET request has no `json` body".into()));
                }
                if !r.url.value.starts_with("http://") {
                    out.push(
                        err(&r.url, format!("`{}` is not an http:// URL", r.url.value))
                            .with_hint("probes talk to local servers over plain http"),
                    );
                }
            }
        }
    }

    /// Each `versions` entry: a command, with no per-case hole.
    fn version_problems(&self, file: &str, out: &mut Vec<Diagnostic>) {
        let err = |id: &Id, m: String| problem(file, id, m);
        for (name, args) in &self.versions {
            match args.first() {
                None => out.push(Diagnostic::error(
                    "probe-file",
                    Span::file(file),
                    format!("version `{name}` names no command"),
                )),
                Some(a) => {
                    if let Some(h) = args.iter().flat_map(|a| holes(&a.value)).next() {
                        out.push(
                            err(a, format!("version `{name}` has the hole `{{{h}}}`"))
                                .with_hint("versions are read once per run, not per case"),
                        );
                    }
                }
            }
        }
    }

    /// The time limit, the environment's variable names and the engine the site declares.
    fn setting_problems(
        &self,
        file: &str,
        declared: &dyn Fn(&str, &str) -> bool,
        out: &mut Vec<Diagnostic>,
    ) {
        let err = |id: &Id, m: String| problem(file, id, m);
        if let Some(t) = &self.timeout {
            match parse_timeout(&t.value) {
                Some(d) if !d.is_zero() && d <= MAX_TIMEOUT => {}
                _ => out.push(
                    err(t, format!("`{}` is not a time limit", t.value))
                        .with_hint("write e.g. `500ms`, `60s` or `2m`; at most one hour"),
                ),
            }
        }
        for e in &self.env {
            let ok = !e.value.is_empty()
                && e.value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !ok {
                out.push(err(e, format!("`{}` is not a variable name", e.value)));
            }
        }
        if let Some(engine) = &self.engine
            && engine.value != super::types::NO_ENGINE
            && !declared("engine", &engine.value)
        {
            out.push(
                err(
                    engine,
                    format!("engine `{}` is not in the site's vocabulary", engine.value),
                )
                .with_hint("declare it under `engines:` in data/vocabulary.yaml"),
            );
        }
    }

    /// What the probe records: at least one measurement or text, each declared by the site and
    /// read by a JSON Pointer.
    fn recorded_problems(
        &self,
        file: &str,
        declared: &dyn Fn(&str, &str) -> bool,
        out: &mut Vec<Diagnostic>,
    ) {
        let err = |id: &Id, m: String| problem(file, id, m);
        if self.measurements.is_empty() && self.texts.is_empty() {
            out.push(err(
                &self.probe,
                "the probe records nothing: give `measurements` or `texts`".into(),
            ));
        }
        for (kind, list, section) in [
            ("measurement", &self.measurements, "measurements"),
            ("text", &self.texts, "texts"),
        ] {
            for (name, pointer) in list {
                if !declared(kind, name) {
                    out.push(
                        err(
                            pointer,
                            format!("`{name}` is no {kind} the site declares"),
                        )
                        .with_hint(format!(
                            "declare it under `{section}:` in data/vocabulary.yaml, with its labels"
                        )),
                    );
                }
                if !(pointer.value.is_empty() || pointer.value.starts_with('/')) {
                    out.push(
                        err(
                            pointer,
                            format!("`{}` is not a JSON Pointer", pointer.value),
                        )
                        .with_hint(
                            "a JSON Pointer (RFC 6901) starts with `/`, e.g. `/0/Plan/Node Type`",
                        ),
                    );
                }
            }
        }
    }

    /// The cases: some, not too many, valid unique ids, and every hole a parameter of
    /// each (a parameter no hole uses is a mistake too).
    fn case_problems(&self, file: &str, out: &mut Vec<Diagnostic>) {
        let at = |id: &Id| super::span_of(file, id);
        if self.cases.is_empty() {
            out.push(Diagnostic::error(
                "probe-file",
                Span::file(file),
                "the probe has no cases",
            ));
        }
        if self.cases.len() > MAX_CASES {
            out.push(Diagnostic::error(
                "probe-file",
                Span::file(file),
                format!("{} cases; at most {MAX_CASES}", self.cases.len()),
            ));
        }
        let templates = self.templates();
        let mut seen = std::collections::HashSet::new();
        for c in &self.cases {
            let id = &c.id.value;
            if !super::refs::valid_id(id) || id.contains('.') {
                out.push(
                    Diagnostic::error(
                        "probe-file",
                        at(&c.id),
                        format!("`{id}` is not a valid case id"),
                    )
                    .with_hint("use letters, digits, `_` and `-`"),
                );
            }
            if !seen.insert(id.as_str()) {
                out.push(Diagnostic::error(
                    "probe-file",
                    at(&c.id),
                    format!("duplicate case id `{id}`"),
                ));
            }
            for (t, place) in &templates {
                for h in holes(t) {
                    if !c.params.contains_key(h) {
                        out.push(
                            Diagnostic::error(
                                "probe-file",
                                at(place),
                                format!("the hole `{{{h}}}` names no parameter of case `{id}`"),
                            )
                            .with_hint(format!(
                                "give case `{id}` `params: {{{h}: …}}`, or write a brace as `{{{{`"
                            )),
                        );
                    }
                }
            }
            for (name, value) in &c.params {
                if !templates
                    .iter()
                    .any(|(t, _)| holes(t).contains(&name.as_str()))
                {
                    out.push(
                        Diagnostic::error(
                            "probe-file",
                            at(value),
                            format!("parameter `{name}` of case `{id}` fills no hole"),
                        )
                        .with_hint(format!("write `{{{name}}}` where it goes, or remove it")),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_braces_and_filling() {
        assert_eq!(holes("a {since} b {n_1}"), ["since", "n_1"]);
        assert_eq!(holes("'{{\"a\": 1}}' {x y} {1a} {}"), Vec::<&str>::new());
        let mut params = BTreeMap::new();
        params.insert("since".to_string(), Id::unplaced("2026-04-01"));
        assert_eq!(
            fill(
                "WHERE d >= '{since}' AND j = '{\"a\": 1}' AND k = '{{since}'",
                &params
            ),
            Ok("WHERE d >= '2026-04-01' AND j = '{\"a\": 1}' AND k = '{since}'".to_string())
        );
        assert_eq!(fill("{until}", &params), Err("until"));
        let body = serde_json::json!({"q": ["{until}"]});
        assert_eq!(
            fill_json(&body, &params).unwrap_err().to_string(),
            "the hole `{until}` names no parameter"
        );
        // A value is put in as it is: no quoting, no splitting, no second round of holes.
        params.insert("x".into(), Id::unplaced("$(rm -rf ~) {since}; 'q'"));
        assert_eq!(
            fill("{x}", &params).as_deref(),
            Ok("$(rm -rf ~) {since}; 'q'")
        );
    }

    #[test]
    fn time_limits() {
        assert_eq!(parse_timeout("60s"), Some(Duration::from_secs(60)));
        assert_eq!(parse_timeout("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_timeout("2m"), Some(Duration::from_secs(120)));
        for bad in ["", "s", "60", "1.5s", "-1s", "1h"] {
            assert_eq!(parse_timeout(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_declared_probe_is_told_by_its_command_or_request_key() {
        assert!(is_declared("probe: x\ncommand: [a]\n"));
        assert!(is_declared("# c\nrequest:\n  method: GET\n"));
        assert!(!is_declared(
            "probe: phase-proxy\ncases:\n  - id: a\n    command: x\n"
        ));
    }
}
