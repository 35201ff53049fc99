//! `evidence probe fatbin|gguf|maps`: runs recorded into a copy of the valid fixture, the
//! tables built from them, and inputs that are refused without writing anything.

mod binary_support;
mod common;

use common::*;
use std::path::Path;

fn run_files(root: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root.join("data/runs"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A fixture copy whose details page embeds the two binary tables.
fn site_with_directives() -> tempfile::TempDir {
    let dir = fixture_copy();
    let page = dir.path().join("content/details.md");
    let mut text = std::fs::read_to_string(&page).expect("read details.md");
    text.push_str("\n::fatbin-targets\n\n::tensor-mix\n");
    std::fs::write(&page, text).expect("write details.md");
    dir
}

fn built_page(root: &Path) -> String {
    let out = root.join("out");
    build_ok(root, &out);
    std::fs::read_to_string(out.join("en/details/index.html"))
        .or_else(|_| std::fs::read_to_string(out.join("details/index.html")))
        .expect("built details page")
}

#[test]
fn tables_say_no_run_yet() {
    let dir = site_with_directives();
    let html = built_page(dir.path());
    assert!(html.contains("No `fatbin` run yet"), "{html}");
    assert!(html.contains("No `gguf` run yet"), "{html}");
}

#[test]
fn gguf_and_fatbin_probes_record_runs_and_tables() {
    let (Some(model), Some(lib)) = (
        binary_support::real_input(binary_support::SMOLLM2),
        binary_support::real_input(binary_support::GGML_HIP),
    ) else {
        return;
    };
    let dir = site_with_directives();
    let root = dir.path();
    let before = run_files(root);

    let r = run(&[
        "probe".as_ref(),
        "gguf".as_ref(),
        model.as_os_str(),
        "--from".as_ref(),
        "HuggingFaceTB/SmolLM2-135M-Instruct Q4_1".as_ref(),
        "--note".as_ref(),
        "a test model".as_ref(),
        "--root".as_ref(),
        root.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let r = run(&[
        "probe".as_ref(),
        "fatbin".as_ref(),
        lib.as_os_str(),
        "--root".as_ref(),
        root.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);

    let after = run_files(root);
    assert_eq!(after.len(), before.len() + 2, "{after:?}");
    assert!(after.iter().any(|f| f.starts_with("gguf-")), "{after:?}");
    assert!(after.iter().any(|f| f.starts_with("fatbin-")), "{after:?}");

    let html = built_page(root);
    assert!(html.contains("fatbin-target-gfx1100"), "no gfx1100 row");
    assert!(html.contains("fatbin-target-gfx942"), "no gfx942 row");
    assert!(
        !html.contains("fatbin-target-gfx1201"),
        "gfx1201 is not in this build"
    );
    assert!(html.contains("tensor-mix-Q4_1"), "no Q4_1 row");
    assert!(
        html.contains("SmolLM2-135M-Instruct.Q4_1.gguf"),
        "input file not named"
    );
    assert!(!html.contains("run yet"), "a table still says no run");
    // The file is named by its name and its SHA-256, never by its path.
    let sha: String = {
        use sha2::Digest;
        sha2::Sha256::digest(std::fs::read(&model).unwrap())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let gguf = after.iter().find(|f| f.starts_with("gguf-")).unwrap();
    let text = std::fs::read_to_string(root.join("data/runs").join(gguf)).unwrap();
    assert!(text.contains(&format!("sha256: {sha}")), "{text}");
    assert!(
        html.contains(&format!(
            "(package <code>HuggingFaceTB/SmolLM2-135M-Instruct Q4_1</code>, SHA-256 <code title=\"{sha}\">{}…</code>)",
            &sha[..16]
        )),
        "no package and hash shown"
    );
    assert!(
        text.contains("package: HuggingFaceTB/SmolLM2-135M-Instruct Q4_1"),
        "{text}"
    );
    assert!(text.contains("a test model"), "the note: {text}");
    assert!(
        !text.contains(&*model.parent().unwrap().to_string_lossy()),
        "a local path"
    );
    assert!(text.contains("host: "), "the machine is recorded: {text}");

    let (code, report) = check_json(root);
    assert_eq!(code, 0, "{}", report.summary());
}

#[test]
fn maps_probe_reads_a_saved_maps_file() {
    let dir = fixture_copy();
    let root = dir.path();
    write_file(root, "pid.maps", binary_support::MAPS.as_bytes());
    let r = run(&[
        "probe".as_ref(),
        "maps".as_ref(),
        "--file".as_ref(),
        root.join("pid.maps").as_os_str(),
        "--root".as_ref(),
        root.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let files = run_files(root);
    let f = files
        .iter()
        .find(|f| f.starts_with("maps-"))
        .expect("maps run");
    let text = std::fs::read_to_string(root.join("data/runs").join(f)).unwrap();
    assert!(text.contains("shared_libraries:"), "{text}");
    // Libraries and models by file name: no local path is published.
    assert!(!text.contains("- /"), "{text}");
}

#[test]
fn wrong_inputs_are_refused_and_nothing_is_written() {
    let dir = fixture_copy();
    let root = dir.path();
    write_file(
        root,
        "not-a-model.txt",
        b"hello, this is neither ELF nor GGUF\n",
    );
    let input = root.join("not-a-model.txt");
    let before = run_files(root);
    for probe in ["gguf", "fatbin"] {
        let r = run(&[
            "probe".as_ref(),
            probe.as_ref(),
            input.as_os_str(),
            "--root".as_ref(),
            root.as_os_str(),
        ]);
        assert_ne!(r.code, 0, "{probe}: {}", r.stdout);
        assert!(r.stderr.contains("cannot read"), "{probe}: {}", r.stderr);
        assert!(
            r.stderr.contains("nothing was recorded"),
            "{probe}: {}",
            r.stderr
        );
        assert_eq!(run_files(root), before, "{probe} wrote a run");
    }
    let r = run(&[
        "probe".as_ref(),
        "maps".as_ref(),
        "--file".as_ref(),
        input.as_os_str(),
        "--root".as_ref(),
        root.as_os_str(),
    ]);
    assert_ne!(r.code, 0, "maps: {}", r.stdout);
    assert_eq!(run_files(root), before, "maps wrote a run");
}
