//! `evidence probe` and `evidence import`: new run records in `data/runs/`.
//!
//! A probe sends the cases of a cases file (`data/probes/*.yaml`), or the targets of a
//! prompt-token sweep, to a running engine, one request at a time with `stream: false`,
//! temperature 0 and a fixed seed, keeping the prompt cache out of every measurement, and
//! records the engine's own counters and durations as a new [`Run`]. Nothing is written
//! unless every request succeeded; the run file is then written atomically and never
//! overwrites another.
//!
//! One job per module: [`cases`] (the cases file and the request plan), [`http`] (the
//! client), [`sweep`] (calibrating prompts to token counts), [`record`] (run ids, times
//! and the atomic write). This module holds the error type, the engine interface
//! ([`Server`]), the options every probe takes and the driver that ties them together.
//! The engines themselves, and the probes that read files, come from packs
//! (`packs::probe`), whose subcommands `evidence probe` and `evidence import` list.

pub mod cases;
pub mod http;
pub mod import_runs;
pub mod record;
pub mod sweep;

use crate::diagnostics::{self, Diagnostics, Format};
use crate::load::read::site_text;
use crate::model::types::{
    Case, Id, ModelDetails, ModelMemory, RequestSettings, Residency, Run, SweepSettings,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
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

// ---------------------------------------------------------------- engines

/// One request of a probe, engine-neutral.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// Id of the case being recorded (for errors).
    pub case_id: &'a str,
    /// The prompt text of the case (the engine may put a nonce in front).
    pub prompt: &'a str,
    pub num_predict: u32,
    pub mode: Residency,
}

/// What an engine says about itself before the cases run.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// Model name as the engine knows it.
    pub model: Option<String>,
    pub versions: BTreeMap<String, String>,
    pub environment: BTreeMap<String, String>,
    pub model_details: Option<ModelDetails>,
}

/// A running server (an engine, which a pack provides) the probe sends cases to.
pub trait Server {
    /// Which engine this is, as recorded.
    fn kind(&self) -> &'static str;
    /// The URL it listens at.
    fn endpoint(&self) -> &str;
    /// Versions and model details, read once before the cases.
    fn describe(&mut self) -> Result<Environment, ProbeError>;
    /// Sends one request and returns the recorded case (counters, durations, response,
    /// cache-defeat method). Its id is `req.case_id`.
    fn generate(&mut self, req: &Request) -> Result<Case, ProbeError>;
    /// Facts read after the cases (the loaded model's memory, where the engine says it).
    fn after(&mut self) -> Result<Option<ModelMemory>, ProbeError>;
    /// The request settings recorded with the run.
    fn settings(&self) -> RequestSettings;
}

/// A case with only its id set; engines and importers fill in the rest.
pub fn blank_case(id: &str) -> Case {
    Case {
        id: new_id(id),
        mode: None,
        num_predict: None,
        prompt_eval_count: None,
        eval_count: None,
        total_duration_ns: None,
        load_duration_ns: None,
        prompt_eval_duration_ns: None,
        eval_duration_ns: None,
        done_reason: None,
        assessment: None,
        repeat: None,
        sweep: None,
        cache_defeat: None,
        nonce: None,
        prompt: None,
        started_at: None,
        created_at: None,
        wall_duration_ns: None,
        response: None,
        thinking: None,
        llama_server: None,
        measurements: BTreeMap::new(),
    }
}

/// An [`Id`] written by the program (no source position).
pub fn new_id(s: &str) -> Id {
    Id::unplaced(s)
}

// ---------------------------------------------------------------- command line

/// `evidence probe ENGINE …`
#[derive(clap::Args, Debug)]
pub struct ProbeCommand {
    #[command(subcommand)]
    pub engine: crate::packs::probe::ProbeEngine,
}

/// Options every probe takes.
#[derive(clap::Args, Debug, Clone)]
pub struct ProbeArgs {
    /// Cases file (YAML), e.g. data/probes/phase-proxy.yaml.
    #[arg(long, required_unless_present = "sweep", conflicts_with = "sweep")]
    pub cases: Option<PathBuf>,
    /// Instead of a cases file: find prompts of each token count in FROM..TO and record
    /// prompt-eval time against prompt tokens.
    #[arg(long, value_name = "FROM..TO")]
    pub sweep: Option<String>,
    /// Distance between sweep targets.
    #[arg(long, default_value_t = 1, requires = "sweep", value_parser = clap::value_parser!(u64).range(1..))]
    pub step: u64,
    /// The word repeated to build sweep prompts.
    #[arg(long, default_value = "the", requires = "sweep")]
    pub sweep_word: String,
    /// Calibration requests allowed per sweep target.
    #[arg(long, default_value_t = 8, requires = "sweep", value_parser = clap::value_parser!(u32).range(1..=50))]
    pub max_tries: u32,
    /// Run every case N times (recorded as cases `<id>-r1` … `<id>-rN`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: u32,
    /// Folder holding evidence.yaml; the run goes to ROOT/data/runs/.
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// Time limit of each request, in seconds.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// Sampling seed sent with every request.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Probe name recorded in the run (default: `<engine>-<cases file name>`, or
    /// `<engine>-prompt-sweep` for a sweep).
    #[arg(long)]
    pub probe: Option<String>,
    /// What the run is taken of: a subject of `data/subjects.yaml`. Without it the run
    /// counts as evidence of the site's own subject.
    #[arg(long)]
    pub subject: Option<String>,
    /// A note recorded with the run and shown with it, e.g. "CPU build, 135M test model".
    #[arg(long)]
    pub note: Option<String>,
}

/// `evidence import runs PATH…` or `evidence import ENGINE …`
#[derive(clap::Args, Debug)]
pub struct ImportCommand {
    #[command(subcommand)]
    pub what: ImportWhat,
}

/// What `evidence import` brings in.
#[derive(clap::Subcommand, Debug)]
pub enum ImportWhat {
    /// Merge run files recorded on other machines (a probe matrix's artifacts) into
    /// data/runs/: each is checked first, an identical one already there is skipped, an id
    /// taken by other contents stops the import.
    Runs(import_runs::ImportRunsArgs),
    #[command(flatten)]
    Engine(crate::packs::probe::ImportEngine),
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum ModeArg {
    Cold,
    Hot,
}

impl From<ModeArg> for Residency {
    fn from(m: ModeArg) -> Residency {
        match m {
            ModeArg::Cold => Residency::Cold,
            ModeArg::Hot => Residency::Hot,
        }
    }
}

/// Entry point of `evidence probe`.
pub fn main_probe(cmd: ProbeCommand) -> ExitCode {
    let (result, root) = crate::packs::probe::probe(cmd.engine);
    report(result, &root)
}

/// Entry point of `evidence import`.
pub fn main_import(cmd: ImportCommand) -> ExitCode {
    match cmd.what {
        ImportWhat::Engine(engine) => {
            let (result, root) = crate::packs::probe::import(engine);
            report(result, &root)
        }
        ImportWhat::Runs(args) => report_imported(import_runs::import_runs(&args), &args.root),
    }
}

fn report_imported(result: Result<import_runs::Imported, ProbeError>, root: &Path) -> ExitCode {
    match result {
        Ok(imported) => {
            for (id, file) in &imported.written {
                println!("imported run `{id}` into {}", file.display());
            }
            for (id, file) in &imported.skipped {
                println!(
                    "skipped run `{id}`: {} holds the same bytes",
                    file.display()
                );
            }
            println!(
                "{} imported, {} already recorded",
                imported.written.len(),
                imported.skipped.len()
            );
            site_errors(&imported.diagnostics, root, "the runs were imported");
            ExitCode::SUCCESS
        }
        Err(e) => refused(e, root, "imported"),
    }
}

fn report(result: Result<Written, ProbeError>, root: &Path) -> ExitCode {
    match result {
        Ok(w) => {
            println!("recorded run `{}` in {}", w.id, w.path.display());
            site_errors(&w.diagnostics, root, "the run was recorded");
            println!("next: evidence build --root {}", root.display());
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
}

/// Runs a probe end to end: plan, describe, every case, after, then the atomic write.
pub fn run_probe(engine: &mut dyn Server, args: &ProbeArgs) -> Result<Written, ProbeError> {
    // Fail on a bad root or a bad cases file before sending anything.
    let site = record::RunStore::open(&args.root)?;
    let kind = engine.kind();
    let (plan, probe_name, sweep_spec, cases_label) = match (&args.cases, &args.sweep) {
        (Some(file), _) => {
            let file_cases = cases::load(file)?;
            let name = args
                .probe
                .clone()
                .unwrap_or_else(|| default_probe_name(kind, file, &file_cases));
            let label = relative_to(file, &args.root);
            (cases::plan(&file_cases, args.repeat), name, None, label)
        }
        (None, Some(range)) => {
            let spec = sweep::Spec::parse(range, args.step, &args.sweep_word, args.max_tries)?;
            let name = args
                .probe
                .clone()
                .unwrap_or_else(|| format!("{}-prompt-sweep", kind));
            let label = format!("--sweep {range} --step {}", args.step);
            (Vec::new(), name, Some(spec), label)
        }
        (None, None) => {
            return Err(ProbeError::other(
                "nothing to probe",
                "pass --cases FILE or --sweep FROM..TO",
            ));
        }
    };
    if !crate::model::refs::valid_id(&probe_name) {
        return Err(ProbeError::other(
            format!("`{probe_name}` is not a valid probe name"),
            "use letters, digits, `_` and `-`",
        ));
    }
    let started = record::Clock::now();
    let env = engine.describe()?;

    let total = match &sweep_spec {
        Some(s) => s.targets().len() as u64 * u64::from(args.repeat),
        None => plan.len() as u64,
    };
    let bar = progress_bar(total, &probe_name);
    let mut recorded = Vec::new();
    let result = (|| -> Result<(), ProbeError> {
        match &sweep_spec {
            Some(spec) => {
                recorded = sweep::run(engine, spec, args.repeat, &bar)?;
            }
            None => {
                for p in &plan {
                    bar.set_message(p.id.clone());
                    let req = Request {
                        case_id: &p.id,
                        prompt: &p.spec.prompt,
                        num_predict: p.spec.num_predict,
                        mode: p.spec.mode,
                    };
                    let mut case = engine.generate(&req).map_err(|e| e.for_case(&p.id))?;
                    case.repeat = p.repeat.clone();
                    recorded.push(case);
                    bar.inc(1);
                }
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        bar.abandon();
        return Err(e);
    }
    let loaded = engine.after()?;
    bar.finish_and_clear();

    let mut versions = env.versions;
    versions.insert("evidence".into(), env!("CARGO_PKG_VERSION").into());
    let command = format!("evidence probe {}", kind);
    let run = Run {
        id: new_id(""),
        probe: probe_name.clone(),
        date: Some(new_id(&started.rfc3339())),
        subject: args.subject.as_deref().map(new_id),
        engine: new_id(kind),
        endpoint: Some(engine.endpoint().to_string()),
        model: env.model,
        versions,
        // The engine's own facts over what the probe sees of the machine.
        environment: {
            let mut e = record::this_machine();
            e.extend(env.environment);
            e
        },
        origin: site.text(
            "probe-origin",
            &[
                ("command", command.clone()),
                ("cases", md_code(&cases_label)),
            ],
        )?,
        note: args
            .note
            .as_deref()
            .filter(|n| !n.trim().is_empty())
            .map(|n| site.same(n)),
        phase: None,
        assessed_against: None,
        model_details: env.model_details,
        loaded,
        request: Some(engine.settings()),
        sweep: sweep_spec.as_ref().map(|s| SweepSettings {
            from: s.from,
            to: s.to,
            step: s.step,
            word: s.word.clone(),
            max_tries: s.max_tries,
        }),
        cases: recorded,
        input: None,
        fatbin: None,
        gguf: None,
        maps: None,
    };
    let written = site.write_run(run, &probe_name, &started)?;
    print_summary(&written);
    Ok(written)
}

/// `path` relative to `root` when it lies under it (as recorded in a run's origin).
fn relative_to(path: &Path, root: &Path) -> String {
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

/// `<engine>-phase-proxy` for `data/probes/phase-proxy.yaml` (or for a cases file that
/// says `probe: phase-proxy`): the engine always leads, so that a run of one engine never
/// takes the name of another's. A name that already starts with this engine is kept.
fn default_probe_name(kind: &str, file: &Path, c: &cases::CasesFile) -> String {
    let stem = match &c.probe {
        Some(p) => p.clone(),
        None => file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("cases")
            .to_string(),
    };
    if stem.starts_with(&format!("{kind}-")) {
        stem
    } else {
        format!("{kind}-{stem}")
    }
}

/// Inline code in markdown, safe for any text.
fn md_code(s: &str) -> String {
    let s = s.replace('`', "'");
    format!("`{s}`")
}

fn progress_bar(len: u64, prefix: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {wide_msg} {elapsed_precise}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(prefix.to_string());
    bar
}

/// One line per case on stdout: what was recorded. The run is written and checked by
/// then, so a summary that cannot be shown is a warning, not a failure.
fn print_summary(w: &Written) {
    let name = w.path.display().to_string();
    let text = match crate::load::read::read_text(&w.path, crate::load::read::SOURCE) {
        Ok(text) => text,
        Err(e) => return eprintln!("warning: no summary: cannot read {}", e.at(&w.path)),
    };
    let run = match crate::load::yaml::parse::<Run>(&name, &text, 0) {
        Ok(run) => run,
        Err(d) => return eprintln!("warning: no summary: {name}: {}", d.message),
    };
    println!(
        "{:<24} {:>6} {:>18} {:>6} {:>14}",
        "case", "mode", "prompt_eval_count", "eval", "prompt eval ms"
    );
    for c in &run.cases {
        let mode = match c.mode {
            Some(Residency::Cold) => "cold",
            Some(Residency::Hot) => "hot",
            None => "-",
        };
        let opt = |v: Option<u64>| v.map(|n| n.to_string()).unwrap_or_else(|| "-".into());
        let ms = c
            .prompt_eval_duration_ns
            .map(|n| format!("{:.3}", n as f64 / 1e6))
            .unwrap_or_else(|| "-".into());
        println!(
            "{:<24} {:>6} {:>18} {:>6} {:>14}",
            c.id.value,
            mode,
            opt(c.prompt_eval_count),
            opt(c.eval_count),
            ms
        );
    }
}

#[cfg(test)]
mod probe_name_tests {
    use super::default_probe_name;
    use crate::probe::cases::CasesFile;
    use std::path::Path;

    fn cases(probe: Option<&str>) -> CasesFile {
        let text = match probe {
            Some(p) => format!("probe: {p}\ncases: []\n"),
            None => "cases: []\n".to_string(),
        };
        serde_saphyr::from_str(&text).expect("a cases file")
    }

    #[test]
    fn the_engine_leads_every_probe_name() {
        let file = Path::new("data/probes/phase-proxy.yaml");
        assert_eq!(
            default_probe_name("alpha", file, &cases(None)),
            "alpha-phase-proxy"
        );
        assert_eq!(
            default_probe_name("beta", file, &cases(Some("phase-proxy"))),
            "beta-phase-proxy"
        );
        // A name that already starts with this engine stays; another engine's does not
        // become this run's name.
        assert_eq!(
            default_probe_name("alpha", file, &cases(Some("alpha-phase-proxy"))),
            "alpha-phase-proxy"
        );
        assert_eq!(
            default_probe_name("beta", file, &cases(Some("alpha-phase-proxy"))),
            "beta-alpha-phase-proxy"
        );
    }
}
