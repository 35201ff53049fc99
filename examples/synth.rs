//! Synthetic evidence site for benchmarks.
//!
//! Converts the peers' benchmark corpus (`../shared/bench/gen_peer_corpus.py N DIR`, its
//! Hugo content: one `pNNNNN.ja.md` and `pNNNNN.en.md` per page) into one bilingual
//! evidence page per pair, so that evidence renders exactly the text Hugo and Zola render,
//! and adds M probe runs of K cases each.
//!
//! ```sh
//! python3 ../shared/bench/gen_peer_corpus.py 1000 /tmp/peers
//! cargo run --release --example synth -- /tmp/peers/hugo/content/docs /tmp/site --runs 100 --cases 1000
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

struct Args {
    docs: PathBuf,
    out: PathBuf,
    runs: usize,
    cases: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mut pos = Vec::new();
    let (mut runs, mut cases) = (0, 0);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => {
                runs = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--runs needs a number")?
            }
            "--cases" => {
                cases = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--cases needs a number")?
            }
            _ => pos.push(PathBuf::from(a)),
        }
    }
    match pos.as_slice() {
        [docs, out] => Ok(Args {
            docs: docs.clone(),
            out: out.clone(),
            runs,
            cases,
        }),
        _ => Err("usage: synth HUGO_DOCS_DIR OUT_SITE [--runs M] [--cases K]".into()),
    }
}

/// Splits `+++ title = "…" date = … +++ body` into (title, date, body).
fn split_hugo(text: &str) -> Option<(String, String, String)> {
    let rest = text.strip_prefix("+++\n")?;
    let end = rest.find("+++\n")?;
    let (front, body) = (&rest[..end], &rest[end + 4..]);
    let field = |name: &str| {
        front
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().trim_matches('"').to_string())
    };
    Some((
        field("title = ")?,
        field("date = ")?,
        body.trim().to_string(),
    ))
}

/// Hugo links (`/docs/p00003/`) become evidence page links (`@/docs/p00003`).
fn links(body: &str) -> String {
    body.replace("](/docs/", "](@/docs/").replace("/)", ")")
}

fn yaml_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p)?;
    }
    std::fs::write(path, text)
}

fn pages(args: &Args) -> std::io::Result<usize> {
    let mut names: Vec<String> = std::fs::read_dir(&args.docs)?
        .filter_map(Result::ok)
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".en.md"))
                .map(String::from)
        })
        .filter(|n| n.starts_with('p'))
        .collect();
    names.sort();
    for name in &names {
        let read =
            |lang: &str| std::fs::read_to_string(args.docs.join(format!("{name}.{lang}.md")));
        let (Some((ja_t, date, ja)), Some((en_t, _, en))) =
            (split_hugo(&read("ja")?), split_hugo(&read("en")?))
        else {
            continue;
        };
        let text = format!(
            "---\ntitle: {{ja: {}, en: {}}}\ndate: \"{date}\"\norder: 100\n---\n\n:::ja\n{}\n:::\n\n:::en\n{}\n:::\n",
            yaml_str(&ja_t),
            yaml_str(&en_t),
            links(&ja),
            links(&en)
        );
        write(&args.out.join(format!("content/docs/{name}.md")), &text)?;
    }
    Ok(names.len())
}

const DISPATCH: &str = "families:
  - {id: mmvq, label: {ja: MMVQ, en: MMVQ}, description: {ja: \"小さいバッチ\", en: small batches}}
  - {id: mmq, label: {ja: MMQ, en: MMQ}, description: {ja: \"中くらいのバッチ\", en: medium batches}}
  - {id: blas, label: {ja: BLAS, en: BLAS}, description: {ja: \"大きいバッチ\", en: large batches}}
maps:
  - id: synthetic
    title: {ja: \"合成の地図\", en: synthetic map}
    subject: {op: GGML_OP_MUL_MAT, tensor_type: Q4_K}
    variable: ne11
    measure: prompt_eval_count
    source: {repository: synthetic}
    branches:
      - {bound: {le: 8}, family: mmvq}
      - {bound: {lt: 64}, family: mmq}
      - {family: blas}
";

/// M run files of K cases, values from a fixed linear congruential sequence.
fn runs(args: &Args) -> std::io::Result<()> {
    let mut x: u64 = 42;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        x >> 33
    };
    for r in 0..args.runs {
        let mut t = format!(
            "id: run-{r:05}\nprobe: synthetic\ndate: \"2026-{:02}-{:02}\"\nengine: none\nmodel: synthetic\n\
             origin: {{ja: \"合成\", en: synthetic}}\nassessed_against: synthetic\ncases:\n",
            1 + r / 28 % 12,
            1 + r % 28
        );
        for c in 0..args.cases {
            let n = 1 + next() % 600;
            let _ = writeln!(
                t,
                "  - {{id: c{c:05}, mode: hot, num_predict: 1, prompt_eval_count: {n}, eval_count: 1, prompt_eval_duration_ns: {}, eval_duration_ns: {}}}",
                n * 90_000 + next() % 100_000,
                10_000_000 + next() % 1_000_000
            );
        }
        write(&args.out.join(format!("data/runs/run-{r:05}.yaml")), &t)?;
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::from(2);
        }
    };
    let result = (|| -> std::io::Result<usize> {
        // Its runs are written as the ggml pack's engine probes write them (the counters at
        // the top of each case), so a site with runs turns that pack on.
        let packs = if args.runs > 0 { "packs: [ggml]\n" } else { "" };
        write(
            &args.out.join("evidence.yaml"),
            &format!("title: {{ja: \"合成サイト\", en: Synthetic site}}\n{packs}"),
        )?;
        write(
            &args.out.join("content/index.md"),
            "---\ntitle: {ja: \"合成サイト\", en: Synthetic site}\norder: 0\n---\n\n:::ja\n性能測定用の合成サイト。\n:::\n\n:::en\nA synthetic site for benchmarks.\n:::\n",
        )?;
        write(&args.out.join("data/maps.yaml"), DISPATCH)?;
        if args.runs > 0 {
            write(
                &args.out.join("content/runs.md"),
                "---\ntitle: {ja: \"実行記録\", en: Runs}\norder: 1\n---\n\n:::ja\nすべての実行。\n:::\n\n:::en\nEvery run.\n:::\n\n::runs\n",
            )?;
        }
        runs(&args)?;
        pages(&args)
    })();
    match result {
        Ok(n) => {
            println!(
                "wrote {n} bilingual pages and {} runs of {} cases to {}",
                args.runs,
                args.cases,
                args.out.display()
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
