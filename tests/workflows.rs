//! The GitHub workflows cannot run here; keep them valid and pointed at the right commands.

use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!("{}/.github/workflows/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    serde_saphyr::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn run_lines(wf: &Value) -> Vec<String> {
    wf["jobs"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|job| job["steps"].as_array().unwrap().iter())
        .filter_map(|s| s["run"].as_str().map(String::from))
        .collect()
}

#[test]
fn pull_request_workflow_checks_builds_and_diffs() {
    let wf = load("evidence.yml");
    assert!(wf["on"]["pull_request"].is_null() || wf["on"]["pull_request"].is_object());
    assert!(wf["on"].get("pull_request").is_some());
    let runs = run_lines(&wf).join("\n");
    assert!(runs.contains("evidence check --format github"), "{runs}");
    assert!(runs.contains("evidence build --check"), "{runs}");
    assert!(
        runs.contains("evidence diff --format markdown origin/"),
        "{runs}"
    );
    assert!(runs.contains("gh pr comment"), "{runs}");
}

#[test]
fn pages_workflow_publishes_site() {
    let wf = load("pages.yml");
    assert_eq!(wf["on"]["push"]["branches"][0], "main");
    let steps = wf["jobs"]["deploy"]["steps"].as_array().unwrap();
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/upload-pages-artifact"))
        })
        .unwrap();
    assert_eq!(upload["with"]["path"], "site");
    assert!(steps.iter().any(|s| {
        s["uses"]
            .as_str()
            .is_some_and(|u| u.starts_with("actions/deploy-pages"))
    }));
}
