//! The investigation's records: they check, they validate against their schemas, and the
//! probe workflow records runs of subjects they declare.

use crate::common::{check_json, manifest_dir};
use crate::schema_support::failures;

/// The investigation at the repository root: no error and no warning (a comparison run
/// disagreeing with the site's records is not one).
#[test]
fn the_investigation_checks_with_no_error_and_no_warning() {
    let (code, report) = check_json(&manifest_dir());
    assert_eq!(
        (code, report.errors, report.warnings),
        (0, 0, 0),
        "{}",
        report.summary()
    );
}

/// Every data file of the investigation validates against the schemas `evidence schema`
/// writes for it (what an editor pointed at them would say).
#[test]
fn every_data_file_of_the_investigation_validates() {
    evidence::packs::register();
    let root = manifest_dir();
    let schemas = evidence::schema::site_schemas(&root).expect("schemas");
    let (bad, seen) = failures(&root, &schemas);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(seen > 20, "only {seen} files seen");
}

/// Each host of the probes workflow says whose evidence its runs are: a subject the
/// investigation declares in `data/subjects.yaml`.
#[test]
fn each_host_of_the_probes_workflow_probes_a_declared_subject() {
    let root = manifest_dir();
    let text =
        std::fs::read_to_string(root.join(".github/workflows/probes.yml")).expect("probes.yml");
    let wf: serde_json::Value = serde_saphyr::from_str(&text).expect("probes.yml parses");
    let hosts = wf["jobs"]["probe"]["strategy"]["matrix"]["include"]
        .as_array()
        .expect("a matrix of hosts");
    assert!(!hosts.is_empty());
    let subjects =
        std::fs::read_to_string(root.join("data/subjects.yaml")).expect("data/subjects.yaml");
    for h in hosts {
        let subject = h["subject"].as_str().expect("a subject per host");
        assert!(subjects.contains(&format!("id: {subject}")), "{subject}");
    }
}
