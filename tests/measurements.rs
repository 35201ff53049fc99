//! A site's own measurements (`cases[].measurements`) drive zones, tables and plots like
//! the engine counters do: the planner fixture (`tests/fixtures/figures`) records
//! `est_rows`, which its maps test, and no engine counter.

mod common;

use common::*;

/// The built English page of the fixture's scan-choice page.
fn built_page() -> String {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(&manifest_dir().join("tests/fixtures/figures"), site.path());
    let out = site.path().join("out");
    let r = evidence()
        .args(["build", "--root"])
        .arg(site.path())
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run evidence");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    std::fs::read_to_string(out.join("en/scan-choice/index.html")).expect("page")
}

/// The run table of `scan-sample`, from its opening tag to its end.
fn run_table(page: &str) -> &str {
    let start = page
        .find("id=\"run-table-scan-sample\"")
        .expect("the run's table");
    let end = page[start..].find("</table>").expect("its end") + start;
    &page[start..end]
}

#[test]
fn a_runs_own_measurement_is_a_column_and_no_counter_is() {
    let page = built_page();
    let table = run_table(&page);
    // Headed by the labels data/vocabulary.yaml gives them, with the unit.
    assert!(
        table.contains("<th scope=\"col\">estimated rows</th>"),
        "{table}"
    );
    assert!(
        table.contains("<th scope=\"col\">execution time (ns)</th>"),
        "{table}"
    );
    // The values as recorded, whole numbers without a fraction.
    for v in [">3<", ">11<", ">290<"] {
        assert!(table.contains(v), "missing {v} in {table}");
    }
    // No case recorded an engine counter, so their columns are left out.
    for header in [
        "num_predict",
        "prompt_eval_count",
        "load / prompt eval / eval",
    ] {
        assert!(!table.contains(header), "{header} in {table}");
    }
}

#[test]
fn zones_come_from_the_measurement_the_map_tests() {
    let page = built_page();
    let table = run_table(&page);
    // planner_v1: est_rows ≤ 8 → Index, ≤ 256 → Bitmap, otherwise Seq.
    let row = |case: &str| {
        let at = table
            .find(&format!("<code>{case}</code>"))
            .unwrap_or_else(|| panic!("no row {case}"));
        let end = table[at..].find("</tr>").expect("row end") + at;
        table[at..end].to_string()
    };
    assert!(row("lookup").contains("Index"), "{}", row("lookup"));
    assert!(row("range").contains("Bitmap"), "{}", row("range"));
    assert!(row("report").contains("Seq"), "{}", row("report"));
}
