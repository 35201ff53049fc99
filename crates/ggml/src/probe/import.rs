//! `evidence import ollama FILE… --case ID…`: responses captured elsewhere, recorded as a
//! run.
//!
//! A file is one saved `/api/generate` (or `/api/chat`) JSON object, or a streamed NDJSON
//! capture, whose last object (`done: true`) carries the counters. Each file becomes one
//! case; its id comes from `--case` (in file order) or, on a terminal, from a question on
//! stdin. The run's date is the earliest `created_at` among the responses, in UTC; a
//! capture without one leaves the date out rather than guessing it. How (or whether) the
//! prompt cache was defeated is not known for a capture, so `cache_defeat` stays absent.

use super::ollama::{GenerateResponse, fill_case};
use crate::runs::{EngineCase, EngineRun, Residency};
use evidence_core::load::read::{Limit, ReadError, read_text};
use evidence_core::model::types::{Case, Run};
use evidence_probe::record::{Clock, RunStore};
use evidence_probe::{ProbeError, Written, new_id};
use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Largest capture read (a stream of a long generation stays far below this).
const CAPTURE: Limit = Limit {
    bytes: 256 * 1024 * 1024,
    what: "a captured response",
};

/// What `evidence import ollama` was asked to do.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub files: Vec<PathBuf>,
    pub cases: Vec<String>,
    pub probe: String,
    pub mode: Option<Residency>,
    pub endpoint: Option<String>,
    pub root: PathBuf,
}

/// Reads the final response of a capture: the whole file as one JSON object, or the
/// last non-empty line of an NDJSON stream.
pub fn read_final(path: &Path) -> Result<GenerateResponse, String> {
    let text = read_text(path, CAPTURE).map_err(|e| match e {
        // The caller names the file; only a position is added.
        ReadError::NotUtf8 { line, column, .. } => format!("line {line}, column {column}: {e}"),
        e => e.to_string(),
    })?;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("the file is empty".into());
    }
    if let Ok(r) = serde_json::from_str::<GenerateResponse>(trimmed) {
        return Ok(r);
    }
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    if lines.len() < 2 {
        return evidence_probe::http::parse_json::<GenerateResponse>(trimmed)
            .map_err(|m| m.replace("the response", "the capture"));
    }
    // NDJSON: every line an object; the last one is the final response.
    for (n, line) in &lines {
        if let Err(m) = evidence_probe::http::parse_json::<serde_json::Value>(line) {
            return Err(format!(
                "line {} of the NDJSON capture: {}",
                n + 1,
                m.replace("the response", "the line")
            ));
        }
    }
    let (n, last) = lines[lines.len() - 1];
    let r: GenerateResponse = evidence_probe::http::parse_json(last)
        .map_err(|m| format!("line {}: {}", n + 1, m.replace("the response", "the line")))?;
    if r.done != Some(true) {
        return Err(format!(
            "the last line ({}) of the NDJSON capture is not the final object (`done: true`); \
             the capture may have been cut short",
            n + 1
        ));
    }
    Ok(r)
}

/// Case ids for the files: from `--case`, or asked on a terminal.
fn case_ids(opts: &ImportOptions) -> Result<Vec<String>, ProbeError> {
    let n = opts.files.len();
    if opts.cases.len() > n {
        return Err(ProbeError::other(
            format!("{} case ids for {n} file(s)", opts.cases.len()),
            "pass one --case ID per file, in the same order",
        ));
    }
    let mut ids = opts.cases.clone();
    if ids.len() < n {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            return Err(ProbeError::other(
                format!("{} case id(s) for {n} file(s)", ids.len()),
                "pass one --case ID per file, in the same order (e.g. --case short_np1 --case long_np1)",
            ));
        }
        let mut lines = stdin.lock();
        for f in &opts.files[ids.len()..] {
            eprint!("case id for {}: ", f.display());
            let _ = std::io::stderr().flush();
            let mut line = String::new();
            let read = lines
                .read_line(&mut line)
                .map_err(|e| ProbeError::other(format!("cannot read stdin: {e}"), ""))?;
            if read == 0 {
                return Err(ProbeError::other("no case id given (end of input)", ""));
            }
            ids.push(line.trim().to_string());
        }
    }
    let mut seen = std::collections::HashSet::new();
    for id in &ids {
        if !evidence_core::model::refs::valid_id(id) || id.contains('.') {
            return Err(ProbeError::other(
                format!("`{id}` is not a valid case id"),
                "use letters, digits, `_` and `-`",
            ));
        }
        if !seen.insert(id.clone()) {
            return Err(ProbeError::other(
                format!("case id `{id}` is given twice"),
                "",
            ));
        }
    }
    Ok(ids)
}

/// Imports the captures as one run.
pub fn import_ollama(opts: &ImportOptions) -> Result<Written, ProbeError> {
    let site = RunStore::open(&opts.root)?;
    if !evidence_core::model::refs::valid_id(&opts.probe) {
        return Err(ProbeError::other(
            format!("`{}` is not a valid probe name", opts.probe),
            "use letters, digits, `_` and `-`",
        ));
    }
    let ids = case_ids(opts)?;
    let mut cases = Vec::new();
    let mut models = Vec::new();
    let mut earliest: Option<Clock> = None;
    for (file, id) in opts.files.iter().zip(&ids) {
        let fail = |m: String| {
            ProbeError::other(
                format!("case `{id}`: {}: {m}", file.display()),
                "import a saved /api/generate response, or a complete NDJSON stream capture",
            )
        };
        let r = read_final(file).map_err(fail)?;
        let mut case = Case::new(id);
        fill_case(&mut case, &r).map_err(fail)?;
        case.set_mode(opts.mode);
        if let Some(t) = r.created_at.as_deref().and_then(Clock::parse_rfc3339) {
            earliest = Some(earliest.map_or(t, |e| e.min(t)));
        }
        if let Some(m) = r.model.filter(|m| !m.is_empty())
            && !models.contains(&m)
        {
            models.push(m);
        }
        cases.push(case);
    }
    if models.len() > 1 {
        return Err(ProbeError::other(
            format!(
                "the captures come from different models: {}",
                models.join(", ")
            ),
            "a run is one model: import each model's captures separately",
        ));
    }
    let names: Vec<String> = opts
        .files
        .iter()
        .map(|f| {
            f.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    let list = names
        .iter()
        .map(|n| format!("`{}`", n.replace('`', "'")))
        .collect::<Vec<_>>()
        .join(", ");
    let now = Clock::now();
    let mut versions = BTreeMap::new();
    versions.insert(
        "evidence".to_string(),
        env!("CARGO_PKG_VERSION").to_string(),
    );
    let run = Run {
        id: new_id(""),
        probe: opts.probe.clone(),
        date: earliest.map(|c| new_id(&c.rfc3339())),
        subject: None,
        engine: Some(evidence_probe::new_id("ollama")),
        versions,
        conditions: Default::default(),
        environment: BTreeMap::new(),
        origin: site.text("probe-origin-import", &[("files", list)])?,
        note: None,
        phase: None,
        assessed_against: None,
        cases,
        input: None,
        values: evidence_core::model::fields::Values::default(),
    };
    let mut run = run;
    run.set_endpoint(opts.endpoint.clone());
    run.set_model(models.into_iter().next());
    site.write_run(
        run,
        &format!("{}-import", opts.probe.trim_end_matches("-import")),
        &now,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> (tempfile::TempDir, PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.json");
        std::fs::write(&p, text).unwrap();
        (d, p)
    }

    #[test]
    fn json_and_ndjson_captures() {
        let (_d, p) = file("{\"done\":true,\"prompt_eval_count\":3,\"eval_count\":1}");
        assert_eq!(read_final(&p).unwrap().prompt_eval_count, Some(3));
        let (_d, p) = file(
            "{\"response\":\"a\",\"done\":false}\n\n{\"response\":\"\",\"done\":true,\"prompt_eval_count\":9}\n",
        );
        assert_eq!(read_final(&p).unwrap().prompt_eval_count, Some(9));
        let (_d, p) =
            file("{\"response\":\"a\",\"done\":false}\n{\"response\":\"b\",\"done\":false}\n");
        assert!(read_final(&p).unwrap_err().contains("cut short"));
        let (_d, p) = file("{\"response\":\"a\",\"done\":false}\n{\"response\":\"b\",\"do");
        assert!(read_final(&p).unwrap_err().contains("line 2"));
        let (_d, p) = file("{\"done\": true, \"prompt_eval");
        assert!(read_final(&p).unwrap_err().contains("truncated"));
        let (_d, p) = file("  \n");
        assert!(read_final(&p).unwrap_err().contains("empty"));
    }
}
