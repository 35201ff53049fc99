//! The command line: argument parsing and the few lines that turn a pipeline outcome into
//! output and an exit code.

use crate::diagnostics::{self, Diagnostics, Format};
use crate::load::read::site_text;
use crate::load::{Reuse, cache::DiskCache};
use crate::{init, pipeline, write};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "evidence",
    version,
    about = "Static sites for investigations built from recorded observations"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build the site into site/ (or --out).
    Build {
        /// Folder holding evidence.yaml.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Output folder (default: `site` under the root).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write nothing; fail if the output differs from a fresh build.
        #[arg(long)]
        check: bool,
        /// Parse every data file, without reading or writing the parse cache.
        #[arg(long)]
        no_cache: bool,
        /// Print how long each stage took.
        #[arg(long)]
        timings: bool,
    },
    /// Validate data, content, templates and messages; exit 1 on errors.
    Check {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Parse every data file, without reading the parse cache.
        #[arg(long)]
        no_cache: bool,
        /// Print how long each stage took (to stderr).
        #[arg(long)]
        timings: bool,
    },
    /// Show what the evidence says differently between two revisions or folders.
    Diff {
        /// Git revision of the site's repository, or a folder.
        base: String,
        /// Git revision or folder (default: the working tree).
        head: Option<String>,
        #[arg(long, default_value = ".")]
        root: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: crate::diff::format::DiffFormat,
        /// Folder the review page goes to (`--format html`), as `index.html`.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Where the review page is published (an http(s) URL): the comment
        /// (`--format markdown`) links to it under its summary.
        #[arg(long, value_name = "URL")]
        link: Option<String>,
        /// Exit 1 when there are differences.
        #[arg(long)]
        exit_code: bool,
        /// Exit 1 when a run record was rewritten (changed, removed or renamed), saying
        /// which on stderr; other differences leave the exit status alone.
        #[arg(long)]
        deny_rewrites: bool,
    },
    /// Create a new, minimal evidence site in DIR.
    Init { dir: PathBuf },
    /// Write a JSON Schema for each kind of file the site writes, and list them in
    /// .vscode/settings.json (`yaml.schemas`) for the editor.
    Schema {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Folder the schemas go to (default: `schemas` under the root).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Print the reference of every data file (markdown) instead, as
        /// docs/reference.md has it.
        #[arg(long)]
        markdown: bool,
    },
    /// Preview the site with live reload (built in memory; site/ is not written).
    Serve {
        /// Folder holding evidence.yaml.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Port to listen on (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 1111)]
        port: u16,
        /// Address to listen on (default: loopback only; another address needs --public).
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Allow a --bind address other machines can reach (0.0.0.0, ::, a LAN address).
        #[arg(long)]
        public: bool,
    },
    /// Run a probe (one the site declares in data/probes/, or a pack's) and record a new
    /// run in data/runs/.
    Probe(ProbeCommand),
    /// Record responses captured elsewhere as a new run in data/runs/.
    Import(ImportCommand),
}

/// `evidence probe run NAME …` or `evidence probe PROBE …` of a pack.
#[derive(clap::Args, Debug)]
#[command(after_help = PACK_PROBES)]
pub struct ProbeCommand {
    #[command(subcommand)]
    pub what: ProbeWhat,
}

/// Where `probe --help` and `import --help` say whose probes the others are.
const PACK_PROBES: &str = "A command marked [ggml pack] is a probe of the `ggml` pack (GPU \
kernel dispatch in ggml), for a site that turns it on with `packs: [ggml]`.";

/// What `evidence probe` runs: a probe the site declares, or a pack's.
#[derive(clap::Subcommand, Debug)]
pub enum ProbeWhat {
    /// Run the probe declared in data/probes/ (`probe: NAME`): its command or request
    /// once per case, without a shell, in a clean environment; record one run.
    Run(crate::probe::declared::RunArgs),
    #[command(flatten)]
    Ggml(crate::packs::ggml::probe::ProbeEngine),
}

/// `evidence import runs PATH…` or `evidence import PROBE …` of a pack.
#[derive(clap::Args, Debug)]
#[command(after_help = PACK_IMPORTS)]
pub struct ImportCommand {
    #[command(subcommand)]
    pub what: ImportWhat,
}

const PACK_IMPORTS: &str = "A command marked [ggml pack] is an importer of the `ggml` pack \
(GPU kernel dispatch in ggml), for a site that turns it on with `packs: [ggml]`.";

/// What `evidence import` brings in.
#[derive(clap::Subcommand, Debug)]
pub enum ImportWhat {
    /// Merge run files recorded on other machines (a probe matrix's artifacts) into
    /// data/runs/: each is checked first, an identical one already there is skipped, an id
    /// taken by other contents stops the import.
    Runs(crate::probe::import_runs::ImportRunsArgs),
    #[command(flatten)]
    Ggml(crate::packs::ggml::probe::ImportEngine),
}

/// Entry point of `evidence probe`.
fn probe(cmd: ProbeCommand) -> ExitCode {
    let (result, root) = match cmd.what {
        ProbeWhat::Run(args) => (crate::probe::declared::run(&args), args.root),
        ProbeWhat::Ggml(engine) => crate::packs::ggml::probe::probe(engine),
    };
    crate::probe::report(result, &root)
}

/// Entry point of `evidence import`.
fn import(cmd: ImportCommand) -> ExitCode {
    match cmd.what {
        ImportWhat::Ggml(engine) => {
            let (result, root) = crate::packs::ggml::probe::import(engine);
            crate::probe::report(result, &root)
        }
        ImportWhat::Runs(args) => {
            crate::probe::report_imported(crate::probe::import_runs::import_runs(&args), &args.root)
        }
    }
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    crate::packs::register();
    let cli = Cli::parse();
    match cli.command {
        Command::Build {
            root,
            out,
            check,
            no_cache,
            timings,
        } => {
            let out = out.unwrap_or_else(|| root.join("site"));
            let cache = disk_cache(&root, no_cache);
            with_timings(timings, || build(&root, &out, check, cache))
        }
        Command::Check {
            root,
            format,
            no_cache,
            timings,
        } => {
            let cache = disk_cache(&root, no_cache);
            with_timings(timings, || check(&root, format, cache.as_ref()))
        }
        Command::Diff {
            base,
            head,
            root,
            format,
            out,
            link,
            exit_code,
            deny_rewrites,
        } => diff(
            &root,
            &base,
            head.as_deref(),
            (format, out.as_deref(), link.as_deref()),
            exit_code,
            deny_rewrites,
        ),
        Command::Serve {
            root,
            port,
            bind,
            public,
        } => crate::serve::run(&crate::serve::ServeOptions {
            root,
            port,
            bind,
            public,
        }),
        Command::Init { dir } => match init::init(&dir) {
            Ok(()) => {
                crate::diagnostics::out_line(format_args!(
                    "created a new evidence site in {}",
                    dir.display()
                ));
                crate::diagnostics::out_line(format_args!(
                    "next: cd {} && evidence build",
                    dir.display()
                ));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Command::Schema {
            root,
            out,
            markdown,
        } => schema(&root, out, markdown),
        Command::Probe(cmd) => probe(cmd),
        Command::Import(cmd) => import(cmd),
    }
}

/// The parse cache of the site at `root`, unless turned off or committed to the
/// repository (said on stderr).
fn disk_cache(root: &Path, off: bool) -> Option<DiskCache> {
    if off {
        return None;
    }
    DiskCache::open_own(root)
        .inspect_err(|why| eprintln!("warning: {why}"))
        .ok()
}

/// Runs a command, then prints its stage timings to stderr when asked to.
fn with_timings(on: bool, run: impl FnOnce() -> ExitCode) -> ExitCode {
    if on {
        crate::timings::enable();
    }
    let code = run();
    if let Some(r) = crate::timings::report() {
        eprintln!("timings: {r}");
    }
    code
}

/// `evidence schema`: the schemas written (each path on stdout), or the reference printed.
fn schema(root: &Path, out: Option<PathBuf>, markdown: bool) -> ExitCode {
    if markdown {
        crate::diagnostics::out_line(format_args!("{}", crate::schema::reference().trim_end()));
        return ExitCode::SUCCESS;
    }
    let out = out.unwrap_or_else(|| root.join(crate::schema::DEFAULT_OUT));
    match crate::schema::write(root, &out) {
        Ok(written) => {
            for p in written {
                crate::diagnostics::out_line(format_args!("wrote {}", p.display()));
            }
            ExitCode::SUCCESS
        }
        Err(d) => {
            let mut diags = Diagnostics::default();
            diags.push(*d);
            print_diags(&diags, root);
            ExitCode::FAILURE
        }
    }
}

fn print_diags(diags: &Diagnostics, root: &Path) {
    if !diags.is_empty() {
        let color = std::io::stderr().is_terminal();
        eprint!(
            "{}",
            diagnostics::render(diags, Format::Human, &site_text(root), color)
        );
    }
}

fn build(root: &Path, out: &Path, check_only: bool, cache: Option<DiskCache>) -> ExitCode {
    if check_only {
        return build_check(root, out, cache.as_ref());
    }
    let start = Instant::now();
    // Refused before anything is rendered or touched: the output must be ours to replace.
    let output = match write::Output::claim(root, out) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let staging = match write::Staging::new(&output) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot write next to {}: {e}", out.display());
            return ExitCode::from(2);
        }
    };
    let sink = staging.sink();
    // On failure, dropping the staging folder removes what was written.
    let Some((files, notes)) = render_clean(root, cache.as_ref(), &sink) else {
        return ExitCode::FAILURE;
    };
    match crate::timings::time("write", || sink.finish().and_then(|()| staging.commit())) {
        Ok(()) => {
            // The cache only saves time: failing to write it fails nothing.
            if let Some(c) = cache
                && let Err(e) = c.store()
            {
                eprintln!("warning: cannot write the parse cache: {e}");
            }
            crate::diagnostics::out_line(format_args!(
                "built {files} files into {} in {} ms",
                out.display(),
                start.elapsed().as_millis()
            ));
            if crate::load::config(root).is_ok_and(|c| c.base_url.is_none()) {
                crate::diagnostics::out_line(format_args!(
                    "note: no sitemap.xml: a sitemap lists absolute URLs; give evidence.yaml \
                     a base_url to publish one"
                ));
            }
            for n in notes {
                crate::diagnostics::out_line(format_args!("{n}"));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            ExitCode::from(2)
        }
    }
}

/// `build --check`: render and compare with the output, writing nothing.
fn build_check(root: &Path, out: &Path, cache: Option<&DiskCache>) -> ExitCode {
    let sink = write::CompareSink::new(out);
    let Some((files, _)) = render_clean(root, cache, &sink) else {
        return ExitCode::FAILURE;
    };
    let st = sink.finish();
    if st.is_fresh() {
        crate::diagnostics::out_line(format_args!(
            "{} is up to date ({files} files)",
            out.display()
        ));
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "error: {} is stale; run `evidence build` and commit the result",
        out.display()
    );
    for (what, list) in [
        ("changed", &st.changed),
        ("missing", &st.missing),
        ("not produced by the build", &st.extra),
        ("not written by the build", &st.foreign),
    ] {
        for f in list {
            eprintln!("  {what}: {f}");
        }
    }
    ExitCode::FAILURE
}

/// Runs the pipeline into `sink` and prints its findings. Returns the number of files
/// rendered and the notes to print after the summary line (a history the build could
/// not read), or `None` (after saying so) when the build has errors.
fn render_clean(
    root: &Path,
    cache: Option<&DiskCache>,
    sink: &dyn crate::render::Sink,
) -> Option<(usize, Vec<String>)> {
    let counter = Counting::new(sink);
    let (loaded, diags, rendered) = pipeline::run_reusing(root, Reuse::disk(cache), &counter);
    print_diags(&diags, root);
    if !rendered || diags.has_errors() {
        eprintln!("error: build failed; nothing was written");
        return None;
    }
    let notes = loaded
        .as_ref()
        .and_then(|l| l.evidence.history.as_ref())
        .and_then(|h| h.unavailable.as_ref())
        .map(|why| format!("note: no claim history or feeds: {why}"))
        .into_iter()
        .collect();
    exiting(loaded);
    Some((counter.count(), notes))
}

/// Lets go of what a one-shot command loaded without freeing it: the process ends next
/// and the system takes its memory back at once, where dropping a site's records one by
/// one (10^5 probe cases, each a few allocations) would cost the last tenth of a second.
fn exiting<T>(loaded: T) {
    std::mem::forget(loaded);
}

/// Counts the files passing through to another sink, for the summary line.
struct Counting<'a> {
    inner: &'a dyn crate::render::Sink,
    n: std::sync::atomic::AtomicUsize,
}

impl<'a> Counting<'a> {
    fn new(inner: &'a dyn crate::render::Sink) -> Self {
        Counting {
            inner,
            n: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn count(&self) -> usize {
        self.n.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl crate::render::Sink for Counting<'_> {
    fn prepare(&self, folders: &[String]) {
        self.inner.prepare(folders);
    }

    fn put(&self, path: String, bytes: Vec<u8>) {
        self.n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.put(path, bytes);
    }

    fn put_pieces(&self, path: String, write: &mut crate::render::Pieces) {
        self.n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.put_pieces(path, write);
    }
}

fn check(root: &Path, format: Format, cache: Option<&DiskCache>) -> ExitCode {
    let (loaded, diags) = pipeline::check_reusing(root, Reuse::disk(cache));
    let diags = &diags;
    let color = format == Format::Human && std::io::stdout().is_terminal();
    crate::diagnostics::out(format_args!(
        "{}",
        diagnostics::render(diags, format, &site_text(root), color)
    ));
    if diags.has_errors() {
        ExitCode::FAILURE
    } else {
        if format == Format::Human {
            let (pages, runs) = loaded
                .as_ref()
                .map(|l| {
                    let written = l.evidence.pages.iter().filter(|p| !p.generated).count();
                    (written, l.evidence.runs.len())
                })
                .unwrap_or_default();
            crate::diagnostics::out_line(format_args!("ok: {pages} pages, {runs} runs, no errors"));
        }
        exiting(loaded);
        ExitCode::SUCCESS
    }
}

fn diff(
    root: &Path,
    base: &str,
    head: Option<&str>,
    (format, dir, link): (crate::diff::format::DiffFormat, Option<&Path>, Option<&str>),
    exit_code: bool,
    deny_rewrites: bool,
) -> ExitCode {
    use crate::diff::format::{self as f, DiffFormat as F};
    // A page needs a folder to go to, and only a page does: said before any work.
    match (format, dir) {
        (F::Html, None) => {
            eprintln!("error: `--format html` writes a page: give it a folder with --out DIR");
            return ExitCode::from(2);
        }
        (F::Text | F::Markdown | F::Json, Some(_)) => {
            eprintln!("error: --out is for `--format html`; the other formats go to stdout");
            return ExitCode::from(2);
        }
        _ => {}
    }
    let link = match (format, link) {
        (F::Markdown, Some(l)) => match crate::diff::format::review_link(l) {
            Ok(url) => Some(url),
            Err(e) => {
                eprintln!("error: --link: {e}");
                return ExitCode::from(2);
            }
        },
        (_, Some(_)) => {
            eprintln!(
                "error: --link is for `--format markdown`, the comment that links to the page"
            );
            return ExitCode::from(2);
        }
        (_, None) => None,
    };
    // The review page draws each changed map before and after; the other formats don't.
    match crate::diff::diff_drawing(root, base, head, matches!(format, F::Html)) {
        Ok(report) => {
            let out = match (format, dir) {
                (F::Text, _) => f::text(&report, std::io::stdout().is_terminal()),
                (F::Markdown, _) => f::capped(
                    &f::markdown_linked(&report, link.as_deref()),
                    f::COMMENT_LIMIT,
                ),
                (F::Json, _) => f::json(&report),
                (F::Html, Some(dir)) => {
                    match crate::diff::html::write_page(dir, &crate::diff::html::html(&report)) {
                        Ok(path) => format!("wrote {}\n", path.display()),
                        Err(e) => {
                            eprintln!("error: {e}");
                            return ExitCode::from(2);
                        }
                    }
                }
                (F::Html, None) => String::new(),
            };
            crate::diagnostics::out(format_args!("{out}"));
            let refusal = f::rewrites_refusal(&report).filter(|_| deny_rewrites);
            if let Some(why) = &refusal {
                eprintln!("error: {why}");
            }
            if refusal.is_some() || (exit_code && !report.is_empty()) {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
