//! The committed `site/`: what every page of the investigation says about itself.

use crate::common::{alike_captions, html_files, manifest_dir, pages_without_description};

/// Every page of the investigation, in every view, the 404 page and each run's own page
/// included, says what it is in a meta description (search results and link previews
/// show it).
#[test]
fn every_page_of_the_site_has_a_meta_description() {
    let site = manifest_dir().join("site");
    let seen = html_files(&site).len();
    assert!(seen > 40, "{seen} pages");
    let missing = pages_without_description(&site);
    assert!(missing.is_empty(), "no meta description: {missing:#?}");
}

/// No page of the site names two tables or figures alike: each caption names a region a
/// screen reader lists (axe `landmark-unique`), so two alike cannot be told apart.
#[test]
fn no_two_captions_on_a_page_of_the_site_are_alike() {
    let alike = alike_captions(&manifest_dir().join("site"));
    assert!(alike.is_empty(), "captions alike: {alike:#?}");
}

/// Every source-side finding of the investigation names the revision it was read at,
/// or the pull request it rests on, so that a reader can open exactly that.
#[test]
fn every_finding_of_the_investigation_cites_a_revision_or_a_pull_request() {
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(manifest_dir().join("site/evidence.json")).unwrap(),
    )
    .unwrap();
    let findings = json["finding"].as_object().expect("findings");
    assert!(findings.len() > 5);
    for (id, f) in findings {
        let src = &f["source"];
        let prs = src["prs"].as_array().is_some_and(|p| !p.is_empty());
        assert!(src["revision"].is_string() || prs, "{id}: {src}");
    }
}
