//! The committed site is valid: the Nu HTML checker (vnu, from the `vnu-jar` npm package,
//! run with the system's Java) finds no error in any of its HTML pages, SVG figures or
//! stylesheets.
//!
//! scripts/test.sh installs vnu-jar into the test cache (and Debian's
//! `default-jre-headless` when there is no `java`). Without them the test is skipped, with
//! a message, except under `CI=true`, where that is a failure.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The vnu-jar version scripts/test.sh installs.
const VNU_VERSION: &str = "26.9.27";

/// `java` and `vnu.jar`, or `None` (skipped) when either is missing outside CI.
fn checker() -> Option<(PathBuf, PathBuf)> {
    let java = std::env::var_os("EVIDENCE_JAVA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("java"));
    let jar = std::env::var_os("EVIDENCE_VNU")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            crate::common::test_cache().join("vnu/node_modules/vnu-jar/build/dist/vnu.jar")
        });
    let has_java = Command::new(&java)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    let missing = match (has_java, jar.is_file()) {
        (true, true) => return Some((java, jar)),
        (false, _) => format!("no Java ({})", java.display()),
        (true, false) => format!("no vnu.jar at {}", jar.display()),
    };
    let message = format!(
        "{missing}: run `bash scripts/test.sh` (it installs vnu-jar@{VNU_VERSION} from npm \
         and default-jre-headless)"
    );
    crate::common::skip("html_validity", &message);
    None
}

/// The files of `dir` with one of `exts`, sorted.
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap_or_else(|e| panic!("walk {}: {e}", dir.display())))
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
        })
        .collect();
    out.sort();
    out
}

/// Runs vnu over `paths` (HTML, SVG and CSS, told apart by extension); its JSON messages.
fn vnu(java: &Path, jar: &Path, paths: &[PathBuf]) -> Vec<Value> {
    let out = Command::new(java)
        .arg("-jar")
        .arg(jar)
        .args([
            "--errors-only",
            "--format",
            "json",
            "--stdout",
            "--also-check-svg",
            "--also-check-css",
        ])
        .args(paths)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", java.display()));
    let text = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "vnu printed no JSON report ({e}): {text:.500}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["messages"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| panic!("no messages in vnu's report: {report}"))
}

/// `file:line:column: message` of a vnu message.
fn describe(m: &Value, root: &Path) -> String {
    let url = m["url"].as_str().unwrap_or("?");
    let file = url.strip_prefix("file:").unwrap_or(url);
    let file = Path::new(file)
        .strip_prefix(root)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| file.to_string());
    format!(
        "{file}:{}:{}: {} {}",
        m["lastLine"],
        m["firstColumn"]
            .as_u64()
            .or(m["lastColumn"].as_u64())
            .unwrap_or(0),
        m["type"].as_str().unwrap_or("?"),
        m["message"].as_str().unwrap_or("?")
    )
}

#[test]
fn the_committed_site_has_no_html_svg_or_css_error() {
    let Some((java, jar)) = checker() else {
        return;
    };
    let root = crate::common::manifest_dir();
    let root = root.as_path();
    let site = root.join("site");
    let pages = files(&site, &["html"]);
    let figures = files(&site, &["svg"]);
    let styles = files(&site, &["css"]);
    assert!(
        pages.len() >= 40 && !figures.is_empty() && !styles.is_empty(),
        "site/ holds {} pages, {} figures, {} stylesheets",
        pages.len(),
        figures.len(),
        styles.len()
    );
    // One known-bad file of each kind goes with them, so a checker that reports nothing
    // (or a report this test cannot read) fails the test instead of passing it.
    let bad = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let bad_html = bad.path().join("bad.html");
    let bad_svg = bad.path().join("bad.svg");
    let bad_css = bad.path().join("bad.css");
    let write = |p: &Path, text: &str| std::fs::write(p, text).unwrap_or_else(|e| panic!("{e}"));
    write(
        &bad_html,
        "<!DOCTYPE html><html lang=\"en\"><title>x</title><p><div></p></html>\n",
    );
    write(
        &bad_svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><blink/></svg>\n",
    );
    write(&bad_css, "p { colr: red; }\n");
    let mut paths: Vec<PathBuf> = pages
        .iter()
        .chain(&figures)
        .chain(&styles)
        .cloned()
        .collect();
    paths.extend([bad_html.clone(), bad_svg.clone(), bad_css.clone()]);

    let messages = vnu(&java, &jar, &paths);
    let errors: Vec<&Value> = messages
        .iter()
        .filter(|m| matches!(m["type"].as_str(), Some("error" | "non-document-error")))
        .collect();
    for bad in [&bad_html, &bad_svg, &bad_css] {
        let name = bad.display().to_string();
        assert!(
            errors
                .iter()
                .any(|m| m["url"].as_str().is_some_and(|u| u.ends_with(&name))),
            "vnu reported no error in the known-bad {name}: {messages:#?}"
        );
    }
    let in_site: Vec<String> = errors
        .iter()
        .filter(|m| {
            !m["url"]
                .as_str()
                .is_some_and(|u| u.contains(&*bad.path().to_string_lossy()))
        })
        .map(|m| describe(m, root))
        .collect();
    eprintln!(
        "vnu checked {} pages, {} figures and {} stylesheets of site/",
        pages.len(),
        figures.len(),
        styles.len()
    );
    assert!(
        in_site.is_empty(),
        "{} error(s) in site/ (Nu HTML checker):\n  {}",
        in_site.len(),
        in_site.join("\n  ")
    );
}
