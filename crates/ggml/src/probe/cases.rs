//! The cases file a probe runs (`data/probes/*.yaml`) and the plan of requests built
//! from it.
//!
//! ```yaml
//! probe: phase-proxy               # optional; default `<engine>-<file name>`
//! cases:
//!   - id: short_np1
//!     prompt: "Hi"
//!     num_predict: 1
//!     mode: hot                    # hot (resident) or cold (unloaded first)
//! ```
//!
//! The file holds inputs only: the probe, not the file, produces `prompt_eval_count`.
//! It is parsed with the same strict YAML reader as the data files, so a mistake is
//! reported with file, line and column.

use crate::runs::Residency;
use evidence_core::diagnostics::{Diagnostic, Diagnostics, Span};
use evidence_core::load::read::{Limit, ReadError, read_text};
use evidence_core::model::types::{Id, Repeat, Text};
use evidence_probe::ProbeError;
use serde::Deserialize;
use std::path::Path;

/// A cases file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CasesFile {
    /// Probe name recorded in the runs, after the engine's (`phase-proxy` gives
    /// `<engine>-phase-proxy` for every engine); default the file name.
    #[serde(default)]
    pub probe: Option<String>,
    /// What the cases are for (not recorded; for the reader of the file).
    #[serde(default)]
    pub description: Option<Text>,
    pub cases: Vec<CaseSpec>,
}

/// One case: what to send.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseSpec {
    pub id: Id,
    pub prompt: String,
    pub num_predict: u32,
    /// `hot`: the model stays resident; `cold`: it is unloaded (`keep_alive: 0`) first.
    pub mode: Residency,
}

/// One request of the plan.
#[derive(Debug, Clone)]
pub struct Planned {
    /// Case id as recorded (`short_np1`, or `short_np1-r2` when repeated).
    pub id: String,
    pub spec: CaseSpec,
    pub repeat: Option<Repeat>,
}

/// Largest number of cases a file may hold (a bound on the request loop).
pub const MAX_CASES: usize = 1000;

/// Largest cases file read: room for [`MAX_CASES`] cases with prompts of several
/// kilobytes each.
pub const CASES_FILE: Limit = Limit {
    bytes: 16 * 1024 * 1024,
    what: "a cases file",
};

/// Reads and checks a cases file; problems come back located.
pub fn load(path: &Path) -> Result<CasesFile, ProbeError> {
    let name = path.display().to_string();
    let text = read_text(path, CASES_FILE).map_err(|e| match e {
        ReadError::NotUtf8 { .. } => {
            let mut ds = Diagnostics::default();
            ds.push(evidence_core::load::read_error(&name, &e));
            ProbeError::Input(ds)
        }
        e => ProbeError::other(
            format!("cannot read the cases file {}", e.at(path)),
            "pass --cases data/probes/<name>.yaml",
        ),
    })?;
    let file = evidence_core::load::yaml::parse::<CasesFile>(&name, &text, 0).map_err(|d| {
        let mut ds = Diagnostics::default();
        ds.push(*d);
        ProbeError::Input(ds)
    })?;
    let mut diags = Diagnostics::default();
    let at = |id: &Id| {
        Span::new(
            &name,
            id.referenced.line() as usize,
            id.referenced.column() as usize,
        )
    };
    if file.cases.is_empty() {
        diags.push(Diagnostic::error(
            "cases",
            Span::file(&name),
            "the cases file has no cases",
        ));
    }
    if file.cases.len() > MAX_CASES {
        diags.push(Diagnostic::error(
            "cases",
            Span::file(&name),
            format!(
                "{} cases; at most {MAX_CASES} are allowed",
                file.cases.len()
            ),
        ));
    }
    if let Some(p) = &file.probe
        && !evidence_core::model::refs::valid_id(p)
    {
        diags.push(
            Diagnostic::error(
                "cases",
                Span::file(&name),
                format!("`{p}` is not a valid probe name"),
            )
            .with_hint("use letters, digits, `_` and `-`"),
        );
    }
    let mut seen = std::collections::HashSet::new();
    for c in &file.cases {
        let id = &c.id.value;
        if !evidence_core::model::refs::valid_id(id) || id.contains('.') {
            diags.push(
                Diagnostic::error("cases", at(&c.id), format!("`{id}` is not a valid case id"))
                    .with_hint("use letters, digits, `_` and `-`"),
            );
        }
        if !seen.insert(id.clone()) {
            diags.push(Diagnostic::error(
                "cases",
                at(&c.id),
                format!("duplicate case id `{id}`"),
            ));
        }
        if c.num_predict == 0 {
            diags.push(
                Diagnostic::error("cases", at(&c.id), format!("case `{id}` has num_predict 0"))
                    .with_hint("num_predict is at least 1: the proxy needs one decode step"),
            );
        }
        if c.prompt.trim().is_empty() {
            diags.push(Diagnostic::error(
                "cases",
                at(&c.id),
                format!("case `{id}` has an empty prompt"),
            ));
        }
    }
    if diags.is_empty() {
        Ok(file)
    } else {
        Err(ProbeError::Input(diags))
    }
}

/// The requests to send: every case once, or with `repeat > 1`, every case in file order
/// repeated round by round (`a-r1 b-r1 a-r2 b-r2`), so each case keeps its neighbours.
pub fn plan(file: &CasesFile, repeat: u32) -> Vec<Planned> {
    let mut out = Vec::new();
    for k in 1..=repeat.max(1) {
        for c in &file.cases {
            let (id, rep) = if repeat > 1 {
                (
                    format!("{}-r{k}", c.id.value),
                    Some(Repeat {
                        of: c.id.value.clone(),
                        index: k,
                    }),
                )
            } else {
                (c.id.value.clone(), None)
            };
            out.push(Planned {
                id,
                spec: c.clone(),
                repeat: rep,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.yaml");
        std::fs::write(&p, text).unwrap();
        (dir, p)
    }

    #[test]
    fn loads_and_plans_repeats_round_by_round() {
        let (_d, p) = write(
            "cases:\n  - {id: a, prompt: x, num_predict: 1, mode: hot}\n  - {id: b, prompt: y, num_predict: 16, mode: cold}\n",
        );
        let f = load(&p).unwrap();
        let ids: Vec<_> = plan(&f, 2).into_iter().map(|p| p.id).collect();
        assert_eq!(ids, ["a-r1", "b-r1", "a-r2", "b-r2"]);
        let once: Vec<_> = plan(&f, 1).into_iter().map(|p| (p.id, p.repeat)).collect();
        assert_eq!(once[0], ("a".to_string(), None));
    }

    #[test]
    fn bad_files_are_located() {
        let (_d, p) = write(
            "cases:\n  - {id: a, prompt: x, num_predict: 0, mode: hot}\n  - {id: a, prompt: '', num_predict: 1, mode: hot}\n",
        );
        let Err(ProbeError::Input(d)) = load(&p) else {
            panic!("expected input errors")
        };
        assert_eq!(d.len(), 3);
        let (_d, p) = write("cases:\n  - {id: a, prompt: x, num_predict: 1, mode: warm}\n");
        assert!(matches!(load(&p), Err(ProbeError::Input(_))));
        let (_d, p) = write("cases: []\n");
        assert!(matches!(load(&p), Err(ProbeError::Input(_))));
    }
}
