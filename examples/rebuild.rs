//! Benchmark of the `evidence serve` rebuild after a one-line edit of one page (not a
//! test): `content/observers.md` of this repository's site, or any page of another site.
//!
//! ```sh
//! cargo run --release --example rebuild [-- RUNS]
//! cargo run --release --example rebuild -- RUNS SITE content/docs/p05000.md
//! cargo run --release --example rebuild -- RUNS SITE PAGE --no-full --timings
//! ```
//!
//! Copies the site's inputs to a temporary folder, then times RUNS (default 20) full
//! builds (what every rebuild was before; `--no-full` skips them) and RUNS incremental
//! rebuilds, each after a one-line prose edit, told the edited path as `serve`'s watcher
//! tells it, and prints the median, minimum and maximum of each in ms. On another site
//! the edited line is the page's last line of prose; a data file (`data/….yaml`) gets a
//! comment line at its end instead. `--timings` adds the mean time of
//! each stage of an incremental rebuild.

use evidence::incremental::{self, Changes};
use evidence::pipeline;
use std::path::Path;
use std::time::Instant;

const PAGE: &str = "content/observers.md";
const LINE: &str = "The difficulty is that looking in tends to change";

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut flag = |name: &str| {
        let had = args.iter().any(|a| a == name);
        args.retain(|a| a != name);
        had
    };
    let (full, timings) = (!flag("--no-full"), flag("--timings"));
    let runs = args.first().and_then(|a| a.parse().ok()).unwrap_or(20usize);
    let site = match (args.get(1), args.get(2)) {
        (Some(site), Some(page)) => Some((Path::new(site), page.as_str())),
        _ => None,
    };
    if let Err(e) = bench(runs, site, full, timings) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn bench(
    runs: usize,
    site: Option<(&Path, &str)>,
    with_full: bool,
    timings: bool,
) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let root = dir.path();
    let (from, page) = site.unwrap_or((Path::new(env!("CARGO_MANIFEST_DIR")), PAGE));
    copy_site(from, root)?;
    let original = std::fs::read_to_string(root.join(page)).map_err(|e| e.to_string())?;
    // A data file gets a comment line (its text changes, its records do not).
    let data = page.ends_with(".yaml");
    let line = match site {
        None => LINE,
        Some(_) if data => "",
        Some(_) => original
            .lines()
            .rev()
            .find(|l| l.len() > 20 && l.chars().next().is_some_and(char::is_alphanumeric))
            .ok_or(format!("{page} has no line of prose"))?,
    };
    if !original.contains(line) {
        return Err(format!("{page} no longer holds the edited line"));
    }
    let edit = |i: usize| {
        let text = match data {
            true => format!("{original}# edit {i}\n"),
            false => original.replacen(line, &format!("{line} ({i})"), 1),
        };
        std::fs::write(root.join(page), text).map_err(|e| e.to_string())
    };

    let mut full = Vec::new();
    for i in (0..runs).filter(|_| with_full) {
        edit(i)?;
        let start = Instant::now();
        let outcome = pipeline::run(root);
        full.push(start.elapsed().as_secs_f64() * 1e3);
        if outcome.site.is_none() || outcome.diagnostics.has_errors() {
            return Err("the site does not build".into());
        }
    }

    let (_, mut prev) = incremental::rebuild(root, Changes::Unknown, None);
    let changed = [page.to_string()];
    let mut partial = Vec::new();
    let mut summary = String::new();
    if timings {
        evidence::timings::enable();
    }
    for i in 0..runs {
        edit(runs + i)?;
        let start = Instant::now();
        let (rebuilt, next) = incremental::rebuild(root, Changes::Paths(&changed), prev.take());
        partial.push(start.elapsed().as_secs_f64() * 1e3);
        summary = format!(
            "{}, {:?}",
            rebuilt.rerendered.summary(rebuilt.pages),
            rebuilt.how
        );
        prev = Some(next.ok_or("the incremental rebuild failed")?);
    }

    println!("one-line edit of {page}, {runs} runs, release build:");
    if with_full {
        println!("  full rebuild         {}", stats(&mut full));
    }
    println!("  incremental rebuild  {} ({summary})", stats(&mut partial));
    if let Some(report) = evidence::timings::report() {
        // Stage totals over the runs, as means.
        let means: Vec<String> = report
            .split(" · ")
            .map(
                |part| match part.rsplit_once(' ').and_then(|(s, _)| s.rsplit_once(' ')) {
                    Some((stage, ms)) => match ms.parse::<f64>() {
                        Ok(ms) => format!("{stage} {:.2} ms", ms / runs as f64),
                        Err(_) => part.to_string(),
                    },
                    None => part.to_string(),
                },
            )
            .collect();
        println!("  mean per rebuild: {}", means.join(" · "));
    }
    Ok(())
}

/// `median X ms (min Y, max Z)`.
fn stats(ms: &mut [f64]) -> String {
    ms.sort_by(f64::total_cmp);
    let n = ms.len();
    let median = if n % 2 == 1 {
        ms[n / 2]
    } else {
        (ms[n / 2 - 1] + ms[n / 2]) / 2.0
    };
    format!(
        "median {median:.1} ms (min {:.1}, max {:.1})",
        ms.first().copied().unwrap_or_default(),
        ms.last().copied().unwrap_or_default()
    )
}

/// Copies the site's inputs (not `site/`) from `from` to `to`.
fn copy_site(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from.join("evidence.yaml"), to.join("evidence.yaml"))
        .map_err(|e| format!("evidence.yaml: {e}"))?;
    // The theme is built in; a site may add its own templates, locales or static files.
    for folder in ["content", "data", "templates", "locales", "static"] {
        if !from.join(folder).is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(from.join(folder)) {
            let entry = entry.map_err(|e| e.to_string())?;
            let rel = entry.path().strip_prefix(from).map_err(|e| e.to_string())?;
            let dest = to.join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&dest).map_err(|e| e.to_string())?;
            } else {
                std::fs::copy(entry.path(), &dest).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}
