//! `evidence init DIR`: a new site that checks clean and builds, and refusal of a
//! folder that already has files.

mod common;

use common::*;

#[test]
fn init_creates_a_site_that_checks_and_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new");
    let r = run(&["init".as_ref(), dir.as_os_str()]);
    assert_eq!(r.code, 0, "stderr:\n{}", r.stderr);
    assert!(
        r.stdout.contains("created a new evidence site"),
        "{}",
        r.stdout
    );
    for f in [
        "evidence.yaml",
        "content/index.md",
        "data/claims.yaml",
        ".gitignore",
    ] {
        assert!(dir.join(f).is_file(), "init did not write {f}");
    }

    let (code, report) = check_json(&dir);
    assert_eq!(code, 0, "{}", report.summary());
    assert_eq!(report.errors + report.warnings, 0, "{}", report.summary());

    let r = build(&dir, None);
    assert_eq!(r.code, 0, "stderr:\n{}", r.stderr);
    let out = dir.join("site");
    for (file, lang) in [
        ("index.html", "ja"),
        ("ja/index.html", "ja"),
        ("en/index.html", "en"),
    ] {
        let html =
            std::fs::read_to_string(out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(html.contains(&format!("<html lang=\"{lang}\"")), "{file}");
        assert!(
            html.contains("<figure class=\"data claims\""),
            "{file}: claims table"
        );
    }
    assert!(out.join("404.html").is_file());
    // A new site has no base_url yet: no sitemap (it would list relative URLs).
    assert!(!out.join("sitemap.xml").exists());
    assert!(out.join("evidence.json").is_file());
}

#[test]
fn init_accepts_an_existing_empty_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let r = run(&["init".as_ref(), tmp.path().as_os_str()]);
    assert_eq!(r.code, 0, "stderr:\n{}", r.stderr);
    assert!(tmp.path().join("evidence.yaml").is_file());
}

#[test]
fn init_refuses_a_non_empty_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("busy");
    write_file(&dir, "notes.txt", b"keep me\n");
    let r = run(&["init".as_ref(), dir.as_os_str()]);
    assert_eq!(r.code, 2, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("is not empty"), "{}", r.stderr);
    assert_eq!(entries(&dir), ["notes.txt"], "init must not write anything");
    assert_eq!(std::fs::read(dir.join("notes.txt")).unwrap(), b"keep me\n");
}

#[test]
fn init_refuses_an_existing_site() {
    let site = fixture_copy();
    let before = read_tree(site.path());
    let r = run(&["init".as_ref(), site.path().as_os_str()]);
    assert_eq!(r.code, 2);
    assert_eq!(read_tree(site.path()), before);
}

/// The example is complete (two pages; a claim with evidence and constraint, an observer,
/// a worklog phase, a dispatch map with its diagram, all shown), and says nothing in the
/// first investigation's terms: not in its pages, figures, CSS nor evidence.json.
#[test]
fn init_example_is_complete_and_speaks_no_investigations_words() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new");
    assert_eq!(run(&["init".as_ref(), dir.as_os_str()]).code, 0);
    let r = build(&dir, None);
    assert_eq!(r.code, 0, "stderr:\n{}", r.stderr);
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
    let out = dir.join("site");
    let index = std::fs::read_to_string(out.join("en/index.html")).unwrap();
    assert!(index.contains("<figure class=\"data claims\""));
    assert!(index.contains("<figure class=\"data observers\""));
    let method = std::fs::read_to_string(out.join("en/method/index.html")).unwrap();
    assert!(
        method.contains("<figure class=\"data dispatch-map\""),
        "{method}"
    );
    assert!(
        method.contains("<figure class=\"data worklog\""),
        "{method}"
    );
    assert!(method.contains("<figure class=\"diagram"), "{method}");
    // A decision map over a decimal measurement, a run that records it (its columns
    // labelled from the vocabulary) and a collection the site declares.
    assert!(
        method.contains("<code>0.5 ≤ queue_load &lt; 0.9</code>"),
        "{method}"
    );
    let run = figure(&method, "run");
    assert!(run.contains("<th scope=\"col\">queue load</th>"), "{run}");
    assert!(run.contains("<td>0.75</td>"), "{run}");
    let table = figure(&method, "declared declared-experiment");
    assert!(table.contains("<td>held</td>"), "{table}");

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("evidence.json")).unwrap()).unwrap();
    let kinds: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        kinds,
        [
            "claim",
            "experiment",
            "family",
            "map",
            "measurement",
            "observer",
            "phase",
            "run"
        ]
    );

    let words = [
        "ne11", "gfx", "rocm", "hsaco", "mmvq", "mmq", "ollama", "ggml", "kernel",
    ];
    for (path, bytes) in read_tree(&out) {
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        for w in words {
            assert!(!text.contains(w), "{path} says `{w}`");
        }
    }
}
