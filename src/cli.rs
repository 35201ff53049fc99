//! The command line: argument parsing and the few lines that turn a pipeline outcome into
//! output and an exit code.

use crate::diagnostics::{self, Diagnostics, Format};
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
        /// Output folder (default: <root>/site).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write nothing; fail if the output differs from a fresh build.
        #[arg(long)]
        check: bool,
    },
    /// Validate data, content, templates and messages; exit 1 on errors.
    Check {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
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
        format: crate::diff::format::Format,
        /// Exit 1 when there are differences.
        #[arg(long)]
        exit_code: bool,
    },
    /// Create a new, minimal evidence site in DIR.
    Init { dir: PathBuf },
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Build { root, out, check } => {
            let out = out.unwrap_or_else(|| root.join("site"));
            build(&root, &out, check)
        }
        Command::Check { root, format } => check(&root, format),
        Command::Diff {
            base,
            head,
            root,
            format,
            exit_code,
        } => diff(&root, &base, head.as_deref(), format, exit_code),
        Command::Init { dir } => match init::init(&dir) {
            Ok(()) => {
                println!("created a new evidence site in {}", dir.display());
                println!("next: cd {} && evidence build", dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn print_diags(diags: &Diagnostics, root: &Path) {
    if !diags.is_empty() {
        let color = std::io::stderr().is_terminal();
        eprint!("{}", diagnostics::render(diags, Format::Human, root, color));
    }
}

fn build(root: &Path, out: &Path, check_only: bool) -> ExitCode {
    let start = Instant::now();
    let outcome = pipeline::run(root);
    print_diags(&outcome.diagnostics, root);
    let Some(site) = outcome.site.filter(|_| !outcome.diagnostics.has_errors()) else {
        eprintln!("error: build failed; nothing was written");
        return ExitCode::FAILURE;
    };
    if check_only {
        let st = write::compare(&site, out);
        if st.is_fresh() {
            println!(
                "{} is up to date ({} files)",
                out.display(),
                site.files.len()
            );
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
        ] {
            for f in list {
                eprintln!("  {what}: {f}");
            }
        }
        return ExitCode::FAILURE;
    }
    match write::write(&site, out) {
        Ok(()) => {
            println!(
                "built {} files into {} in {} ms",
                site.files.len(),
                out.display(),
                start.elapsed().as_millis()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            ExitCode::from(2)
        }
    }
}

fn check(root: &Path, format: Format) -> ExitCode {
    let outcome = pipeline::run(root);
    let diags = &outcome.diagnostics;
    let color = format == Format::Human && std::io::stdout().is_terminal();
    print!("{}", diagnostics::render(diags, format, root, color));
    if diags.has_errors() {
        ExitCode::FAILURE
    } else {
        if format == Format::Human {
            let (pages, runs) = outcome
                .loaded
                .as_ref()
                .map(|l| (l.evidence.pages.len(), l.evidence.runs.len()))
                .unwrap_or_default();
            println!("ok: {pages} pages, {runs} runs, no errors");
        }
        ExitCode::SUCCESS
    }
}

fn diff(
    root: &Path,
    base: &str,
    head: Option<&str>,
    format: crate::diff::format::Format,
    exit_code: bool,
) -> ExitCode {
    use crate::diff::format::{self as f, Format as F};
    match crate::diff::diff(root, base, head) {
        Ok(report) => {
            let out = match format {
                F::Text => f::text(&report, std::io::stdout().is_terminal()),
                F::Markdown => f::markdown(&report),
                F::Json => f::json(&report),
            };
            print!("{out}");
            if exit_code && !report.is_empty() {
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
