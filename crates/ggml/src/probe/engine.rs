//! The engine probe: the cases of a cases file (`data/probes/*.yaml`), or the targets of
//! a prompt-token sweep, sent to a running engine one request at a time with
//! `stream: false`, temperature 0 and a fixed seed, keeping the prompt cache out of
//! every measurement; the engine's own counters and durations are recorded as a new
//! run through the core's record store (`probe::record`).

use super::cases;
use super::sweep;
use crate::runs::Residency;
use crate::runs::{EngineRun, ModelDetails, ModelMemory, RequestSettings, SweepSettings};
use evidence_core::model::fields::Values;
use evidence_core::model::types::{Case, Run};
use evidence_probe::{
    ProbeError, Written, md_code, new_id, print_summary, progress_bar, record, relative_to,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    if !evidence_core::model::refs::valid_id(&probe_name) {
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
        engine: Some(new_id(kind)),
        versions,
        // The engine's own facts over what the probe sees of the machine.
        conditions: Default::default(),
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
        note: site.note(args.note.as_deref()),
        phase: None,
        assessed_against: None,
        cases: recorded,
        input: None,
        values: Values::default(),
    };
    let mut run = run;
    run.set_endpoint(Some(engine.endpoint().to_string()));
    run.set_model(env.model);
    run.set_model_details(env.model_details);
    run.set_loaded(loaded);
    run.set_request(Some(engine.settings()));
    run.set_sweep(sweep_spec.as_ref().map(|s| SweepSettings {
        from: s.from,
        to: s.to,
        step: s.step,
        word: s.word.clone(),
        max_tries: s.max_tries,
    }));
    let written = site.write_run(run, &probe_name, &started)?;
    print_summary(&written);
    Ok(written)
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

#[cfg(test)]
mod probe_name_tests {
    use super::super::cases::CasesFile;
    use super::default_probe_name;
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
