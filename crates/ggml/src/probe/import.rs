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
use evidence_probe::http::JsonError;
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
pub fn read_final(path: &Path) -> Result<GenerateResponse, CaptureError> {
    let text = read_text(path, CAPTURE).map_err(CaptureError::Read)?;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(CaptureError::Empty);
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
            .map_err(|e| CaptureError::Json(e.of("the capture")));
    }
    // NDJSON: every line an object; the last one is the final response.
    for (n, line) in &lines {
        if let Err(e) = evidence_probe::http::parse_json::<serde_json::Value>(line) {
            return Err(CaptureError::BadLine {
                line: n + 1,
                error: e.of("the line"),
            });
        }
    }
    let (n, last) = lines[lines.len() - 1];
    let r: GenerateResponse =
        evidence_probe::http::parse_json(last).map_err(|e| CaptureError::BadLast {
            line: n + 1,
            error: e.of("the line"),
        })?;
    if r.done != Some(true) {
        return Err(CaptureError::NotFinal { line: n + 1 });
    }
    Ok(r)
}

/// Why a capture holds no final response. `Display` follows the file's name, which the
/// caller gives.
#[derive(Debug)]
pub enum CaptureError {
    /// The file could not be read as text.
    Read(ReadError),
    /// Nothing but white space.
    Empty,
    /// One JSON document that does not parse.
    Json(JsonError),
    /// A line of an NDJSON stream that is no JSON object (1-based).
    BadLine { line: usize, error: JsonError },
    /// The stream's last line, which is JSON, is not of a response's shape.
    BadLast { line: usize, error: JsonError },
    /// The stream's last line is not its final object: the capture was cut short.
    NotFinal { line: usize },
}

impl std::fmt::Display for CaptureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // The caller names the file; only a position is added.
            CaptureError::Read(e @ ReadError::NotUtf8 { line, column, .. }) => {
                write!(f, "line {line}, column {column}: {e}")
            }
            CaptureError::Read(e) => write!(f, "{e}"),
            CaptureError::Empty => write!(f, "the file is empty"),
            CaptureError::Json(e) => write!(f, "{e}"),
            CaptureError::BadLine { line, error } => {
                write!(f, "line {line} of the NDJSON capture: {error}")
            }
            CaptureError::BadLast { line, error } => write!(f, "line {line}: {error}"),
            CaptureError::NotFinal { line } => write!(
                f,
                "the last line ({line}) of the NDJSON capture is not the final object \
                 (`done: true`); the capture may have been cut short"
            ),
        }
    }
}

impl std::error::Error for CaptureError {}

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
        let fail = |m: &dyn std::fmt::Display| {
            ProbeError::other(
                format!("case `{id}`: {}: {m}", file.display()),
                "import a saved /api/generate response, or a complete NDJSON stream capture",
            )
        };
        let r = read_final(file).map_err(|e| fail(&e))?;
        let mut case = Case::new(id);
        fill_case(&mut case, &r).map_err(|e| fail(&e))?;
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
        assert!(
            read_final(&p)
                .unwrap_err()
                .to_string()
                .contains("cut short")
        );
        let (_d, p) = file("{\"response\":\"a\",\"done\":false}\n{\"response\":\"b\",\"do");
        assert!(read_final(&p).unwrap_err().to_string().contains("line 2"));
        let (_d, p) = file("{\"done\": true, \"prompt_eval");
        assert!(
            read_final(&p)
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        let (_d, p) = file("  \n");
        assert!(read_final(&p).unwrap_err().to_string().contains("empty"));
    }

    #[test]
    fn a_capture_error_says_the_message_of_old() {
        let (_d, p) = file("{\"response\":\"a\",\"done\":false}\n{\"response\":\"b\",\"do");
        assert_eq!(
            read_final(&p).unwrap_err().to_string(),
            "line 2 of the NDJSON capture: the line ends in the middle of its JSON \
             (truncated after 19 bytes)"
        );
        let (_d, p) = file("{\"done\": true, \"prompt_eval");
        assert_eq!(
            read_final(&p).unwrap_err().to_string(),
            "the capture ends in the middle of its JSON (truncated after 27 bytes)"
        );
    }
}
