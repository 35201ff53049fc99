//! `evidence probe` and `evidence import`: new run records in `data/runs/`.
//!
//! What is probed comes from the site (a declared probe, [`declared`]) or from a pack
//! (its probes are subcommands the command line adds); this module holds what every
//! probe shares: the error type, the reports, the HTTP client ([`http`]), run ids, times and the atomic
//! write ([`record`]), and run files of other machines merged all or nothing
//! ([`import_runs`]). Nothing is written unless the whole probe succeeded; a run file is
//! written atomically and never overwrites another.

pub mod declared;
pub mod http;
pub mod import_runs;
pub mod record;

use evidence_core::diagnostics::{self, Diagnostics, Format};
use evidence_core::load::read::site_text;
use evidence_core::model::types::{Case, Id, Run};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

// ---------------------------------------------------------------- errors

/// Why a probe or an import stopped. Nothing has been written when one is returned.
#[derive(Debug)]
pub enum ProbeError {
    /// Located problems in an input file (the cases file), shown like `check`'s.
    Input(Diagnostics),
    /// A request that failed or a response that cannot be recorded.
    Request {
        case: Option<String>,
        method: String,
        url: String,
        message: String,
        hint: Option<String>,
    },
    /// Anything else: bad options, a file that cannot be read or written.
    Other {
        message: String,
        hint: Option<String>,
    },
}

impl ProbeError {
    pub fn request(
        case: Option<&str>,
        method: &str,
        url: &str,
        message: impl Into<String>,
    ) -> Self {
        ProbeError::Request {
            case: case.map(String::from),
            method: method.to_string(),
            url: url.to_string(),
            message: message.into(),
            hint: None,
        }
    }

    pub fn other(message: impl Into<String>, hint: impl Into<String>) -> Self {
        let hint: String = hint.into();
        ProbeError::Other {
            message: message.into(),
            hint: (!hint.is_empty()).then_some(hint),
        }
    }

    pub fn with_hint(mut self, h: impl Into<String>) -> Self {
        match &mut self {
            ProbeError::Request { hint, .. } | ProbeError::Other { hint, .. } => {
                *hint = Some(h.into())
            }
            ProbeError::Input(_) => {}
        }
        self
    }

    /// Sets the case a request error belongs to, when it has none yet.
    pub fn for_case(mut self, id: &str) -> Self {
        if let ProbeError::Request { case, .. } = &mut self
            && case.is_none()
        {
            *case = Some(id.to_string());
        }
        self
    }
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Input(d) => write!(f, "{} problem(s) in the input", d.len()),
            ProbeError::Request {
                case,
                method,
                url,
                message,
                hint,
            } => {
                match case {
                    Some(c) => write!(f, "case `{c}`: {method} {url}: {message}")?,
                    None => write!(f, "{method} {url}: {message}")?,
                }
                if let Some(h) = hint {
                    write!(f, "\n  = help: {h}")?;
                }
                Ok(())
            }
            ProbeError::Other { message, hint } => {
                write!(f, "{message}")?;
                if let Some(h) = hint {
                    write!(f, "\n  = help: {h}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ProbeError {}

// ---------------------------------------------------------------- ids

/// An [`Id`] written by the program (no source position).
pub fn new_id(s: &str) -> Id {
    Id::unplaced(s)
}

// ---------------------------------------------------------------- reports

/// Says what an import wrote and skipped, or why it refused; the exit status.
pub fn report_imported(result: Result<import_runs::Imported, ProbeError>, root: &Path) -> ExitCode {
    match result {
        Ok(imported) => {
            for (id, file) in &imported.written {
                evidence_core::diagnostics::out_line(format_args!(
                    "imported run `{id}` into {}",
                    file.display()
                ));
            }
            for (id, file) in &imported.skipped {
                evidence_core::diagnostics::out_line(format_args!(
                    "skipped run `{id}`: {} holds the same bytes",
                    file.display()
                ));
            }
            evidence_core::diagnostics::out_line(format_args!(
                "{} imported, {} already recorded",
                imported.written.len(),
                imported.skipped.len()
            ));
            site_errors(&imported.diagnostics, root, "the runs were imported");
            ExitCode::SUCCESS
        }
        Err(e) => refused(e, root, "imported"),
    }
}

/// Says which run a probe recorded, or why it refused; the exit status.
pub fn report(result: Result<Written, ProbeError>, root: &Path) -> ExitCode {
    match result {
        Ok(w) => {
            evidence_core::diagnostics::out_line(format_args!(
                "recorded run `{}` in {}",
                w.id,
                w.path.display()
            ));
            if !w.warnings.is_empty() {
                eprint!(
                    "{}",
                    diagnostics::render(&w.warnings, Format::Human, &site_text(root), false)
                );
            }
            site_errors(&w.diagnostics, root, "the run was recorded");
            evidence_core::diagnostics::out_line(format_args!(
                "next: evidence build --root {}",
                root.display()
            ));
            ExitCode::SUCCESS
        }
        Err(e) => refused(e, root, "recorded"),
    }
}

/// After a write: the site's errors, if it has any, and that the write stands (`done`).
fn site_errors(d: &Diagnostics, root: &Path, done: &str) {
    if d.has_errors() {
        eprint!(
            "{}",
            diagnostics::render(d, Format::Human, &site_text(root), false)
        );
        eprintln!("note: the site has errors (see above); {done} nonetheless");
    }
}

/// Why nothing was written (`nothing was {what}`), located where the input says where.
fn refused(e: ProbeError, root: &Path, what: &str) -> ExitCode {
    match e {
        ProbeError::Input(d) => {
            let color = std::io::stderr().is_terminal();
            eprint!(
                "{}",
                diagnostics::render(&d, Format::Human, &site_text(root), color)
            );
        }
        e => eprintln!("error: {e}"),
    }
    eprintln!("error: nothing was {what}");
    ExitCode::FAILURE
}

// ---------------------------------------------------------------- the driver

/// A run that was written.
pub struct Written {
    pub id: String,
    pub path: PathBuf,
    /// What `check` says about the site with the run in it.
    pub diagnostics: Diagnostics,
    /// What it says of the new run's subject, shown as warnings: the run's values
    /// contradict the subject it counts as ([`evidence_core::check::subjects`]).
    pub warnings: Diagnostics,
}

/// `path` relative to `root` when it lies under it (as recorded in a run's origin).
pub fn relative_to(path: &Path, root: &Path) -> String {
    let (Ok(p), Ok(r)) = (path.canonicalize(), root.canonicalize()) else {
        return path.display().to_string();
    };
    match p.strip_prefix(&r) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => path.display().to_string(),
    }
}

/// Inline code in markdown, safe for any text.
pub fn md_code(s: &str) -> String {
    let s = s.replace('`', "'");
    format!("`{s}`")
}

pub fn progress_bar(len: u64, prefix: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {wide_msg} {elapsed_precise}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(prefix.to_string());
    bar
}

/// One line per case on stdout: what was recorded, each measurement the run has in a
/// column of its own (durations in milliseconds). The run is written and checked by
/// then, so a summary that cannot be shown is a warning, not a failure.
pub fn print_summary(w: &Written) {
    let name = w.path.display().to_string();
    let text =
        match evidence_core::load::read::read_text(&w.path, evidence_core::load::read::SOURCE) {
            Ok(text) => text,
            Err(e) => return eprintln!("warning: no summary: cannot read {}", e.at(&w.path)),
        };
    let run = match evidence_core::load::yaml::parse_run(&name, &text) {
        Ok(run) => run,
        Err(d) => return eprintln!("warning: no summary: {name}: {}", d.message),
    };
    evidence_core::diagnostics::out(format_args!("{}", summary_table(&run)));
}

/// The text [`print_summary`] prints.
pub fn summary_table(run: &Run) -> String {
    use std::fmt::Write as _;
    let mut names: Vec<&str> = run.cases.iter().flat_map(|c| c.measured()).collect();
    names.sort_unstable();
    names.dedup();
    // A measurement in nanoseconds reads better in milliseconds on a terminal.
    let head = |n: &str| match n.strip_suffix(evidence_core::model::fields::NANOSECONDS) {
        Some(stem) => format!("{stem}_ms"),
        None => n.to_string(),
    };
    let cell = |n: &str, c: &Case| match c.measurement(n) {
        Some(v) if evidence_core::model::fields::is_duration(n) => format!("{:.3}", v / 1e6),
        Some(v) => evidence_core::model::format::Decimal(v).to_string(),
        None => "-".into(),
    };
    let widths: Vec<usize> = names.iter().map(|n| head(n).len().max(6)).collect();
    // How each case ran, as its pack records it beside the id (`mode`), a column each.
    let told: Vec<Vec<(&str, String)>> = run
        .cases
        .iter()
        .map(|c| {
            c.values
                .leading_texts(evidence_core::model::fields::Place::Case)
        })
        .collect();
    let mut ways: Vec<&str> = told.iter().flatten().map(|(n, _)| *n).collect();
    ways.sort_unstable();
    ways.dedup();
    let mut out = format!("{:<24}", "case");
    for n in &ways {
        let _ = write!(out, " {n:>6}");
    }
    for (n, w) in names.iter().zip(&widths) {
        let _ = write!(out, " {:>w$}", head(n));
    }
    out.push('\n');
    for (c, told) in run.cases.iter().zip(&told) {
        let _ = write!(out, "{:<24}", c.id.value);
        for n in &ways {
            let v = told.iter().find(|(m, _)| m == n).map_or("-", |(_, v)| v);
            let _ = write!(out, " {v:>6}");
        }
        for (n, w) in names.iter().zip(&widths) {
            let _ = write!(out, " {:>w$}", cell(n, c));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod summary_tests {
    use super::summary_table;
    use evidence_core::model::types::Run;

    fn run(case: &str) -> Run {
        let text =
            format!("id: r\nprobe: p\norigin: {{ja: 記録, en: record}}\ncases:\n  - id: c\n{case}");
        serde_saphyr::from_str(&text).expect("a run")
    }

    #[test]
    fn a_run_of_no_pack_has_only_its_measurements() {
        let table = summary_table(&run("    measurements: {rows: 3}\n"));
        let head: Vec<&str> = table
            .lines()
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        assert_eq!(head, ["case", "rows"], "{table}");
    }
}
