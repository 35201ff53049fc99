//! `history: true`: the build reads the git history of the data. Small repositories of
//! the valid fixture, with fixed commit dates: a claim added, a run recorded and the
//! claim moved by it in a reworded text, a decision map changed; then the claim
//! timeline, the run page and the Atom feeds, byte for byte the same on a second build;
//! a shallow clone and a folder outside git build with a note.

mod common;

use common::*;
use std::path::Path;

fn git(dir: &Path, date: &str, args: &[&str]) {
    let dates = [("GIT_COMMITTER_DATE", date), ("GIT_AUTHOR_DATE", date)];
    common::git_with(dir, &dates, args);
}

fn commit(dir: &Path, date: &str, message: &str) {
    git(dir, date, &["add", "-A"]);
    git(dir, date, &["commit", "-q", "-m", message]);
}

const RUN2: &str = "id: r2
probe: fixture-probe
date: \"2026-02-01\"
engine: ollama
model: \"fixture-model\"
origin: {ja: \"二回目。\", en: \"A second run.\"}
cases:
  - {id: small, mode: hot, num_predict: 1, prompt_eval_count: 3, eval_count: 1}
";

/// The valid fixture in a repository of three commits.
fn repo() -> tempfile::TempDir {
    let dir = fixture_copy();
    let d = dir.path();
    let config = std::fs::read_to_string(d.join("evidence.yaml")).unwrap();
    std::fs::write(
        d.join("evidence.yaml"),
        format!("{config}history: true\nbase_url: \"https://example.org/inv/\"\n"),
    )
    .unwrap();
    // Run pages live below the runs index.
    replace_once(
        d,
        "content/details.md",
        "::run{id=\"r1\"}\n",
        "::run{id=\"r1\"}\n\n::runs\n",
    );
    git(
        d,
        "2026-03-01T10:00:00+00:00",
        &["init", "-q", "-b", "main"],
    );
    commit(d, "2026-03-01T10:00:00+00:00", "Start the investigation");
    replace_once(
        d,
        "data/claims.yaml",
        "What the fixture can show.",
        "What the second run shows.",
    );
    replace_once(
        d,
        "data/claims.yaml",
        "evidence: [\"bundle:b1\", \"run:r1\"]",
        "evidence: [\"bundle:b1\", \"run:r1\", \"run:r2\"]\n  moved: {from: cannot}",
    );
    write_file(d, "data/runs/r2.yaml", RUN2.as_bytes());
    commit(
        d,
        "2026-04-02T09:30:00+00:00",
        "Record r2, which shows what could not be shown",
    );
    replace_once(d, "data/maps.yaml", "bound: {le: 8}", "bound: {le: 9}");
    commit(d, "2026-05-03T08:00:00+00:00", "Move the small bound");
    dir
}

fn build(root: &Path, out: &Path) -> String {
    let o = evidence()
        .args(["build", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn claims_show_when_they_were_added_and_moved_and_by_which_run() {
    let repo = repo();
    let out = repo.path().join("out");
    let said = build(repo.path(), &out);
    assert!(!said.contains("note: no claim history"), "{said}");
    let page = std::fs::read_to_string(out.join("en/index.html")).unwrap();
    let line = page
        .split("<p class=\"history\">")
        .nth(1)
        .and_then(|s| s.split("</p>").next())
        .expect("a history line");
    assert!(
        line.starts_with("History: added on 2026-03-01 (<code>"),
        "{line}"
    );
    assert!(
        line.contains("moved from cannot-show to can-show on 2026-04-02 (<code>"),
        "{line}"
    );
    assert!(
        line.contains(", by <a href=\"../en/details/r2/index.html#run-r2\">"),
        "{line}"
    );
    let ja = std::fs::read_to_string(out.join("ja/index.html")).unwrap();
    assert!(
        ja.contains("2026-04-02 に「示せないこと」から「示せること」へ"),
        "{ja}"
    );
    // The run's own page names the claim it moved.
    let run = std::fs::read_to_string(out.join("en/details/r2/index.html")).unwrap();
    assert!(run.contains("Claims this run moved:"), "{run}");
    assert!(
        run.contains("<code>c1</code></a> moved from cannot-show to can-show on 2026-04-02"),
        "{run}"
    );
}

/// The entries of an Atom document, checked against the parts RFC 4287 requires.
fn atom_entries(xml: &str) -> Vec<(String, String, String)> {
    const ATOM: &str = "http://www.w3.org/2005/Atom";
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    let feed = doc.root_element();
    assert_eq!(feed.tag_name().name(), "feed");
    assert_eq!(feed.tag_name().namespace(), Some(ATOM));
    fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, name: &str) -> roxmltree::Node<'a, 'i> {
        n.children()
            .find(|c| c.tag_name().name() == name && c.tag_name().namespace() == Some(ATOM))
            .unwrap_or_else(|| panic!("<{name}> missing"))
    }
    let date = |s: &str| {
        assert!(
            s.parse::<jiff::Timestamp>().is_ok(),
            "not an RFC 3339 date: {s}"
        )
    };
    for name in ["id", "title", "updated", "author"] {
        child(feed, name);
    }
    date(child(feed, "updated").text().unwrap());
    feed.children()
        .filter(|c| c.tag_name().name() == "entry")
        .map(|e| {
            let updated = child(e, "updated").text().unwrap().to_string();
            date(&updated);
            let href = child(e, "link").attribute("href").unwrap().to_string();
            assert!(!child(e, "id").text().unwrap().is_empty());
            (child(e, "title").text().unwrap().to_string(), updated, href)
        })
        .collect()
}

#[test]
fn each_view_has_an_atom_feed_of_the_evidence_changes_newest_first() {
    let repo = repo();
    let out = repo.path().join("out");
    build(repo.path(), &out);
    let en = atom_entries(&std::fs::read_to_string(out.join("en/feed.xml")).unwrap());
    let titles: Vec<&str> = en.iter().map(|(t, _, _)| t.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Decision map fixture_map changed",
            "Claim c1 moved from cannot-show to can-show",
            "Run r2 recorded",
            // Within a commit: maps, then runs, then the claims they move.
            "Claim c1 added",
            "Run r1 recorded",
            "Decision map fixture_map added",
        ]
    );
    assert_eq!(
        en[0].1.parse::<jiff::Timestamp>().unwrap(),
        "2026-05-03T08:00:00Z".parse::<jiff::Timestamp>().unwrap()
    );
    assert_eq!(en[1].2, "https://example.org/inv/en/");
    assert_eq!(en[2].2, "https://example.org/inv/en/details/r2/");
    let ja = atom_entries(&std::fs::read_to_string(out.join("ja/feed.xml")).unwrap());
    assert_eq!(ja[1].0, "主張 c1 が「示せないこと」から「示せること」へ");
    let both = atom_entries(&std::fs::read_to_string(out.join("feed.xml")).unwrap());
    assert_eq!(both.len(), 6);
    // The same history, the same bytes.
    let again = repo.path().join("again");
    build(repo.path(), &again);
    for f in ["feed.xml", "ja/feed.xml", "en/feed.xml", "en/index.html"] {
        assert_eq!(
            std::fs::read(out.join(f)).unwrap(),
            std::fs::read(again.join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn a_shallow_clone_or_no_git_builds_with_a_note() {
    let repo = repo();
    let clone = tempfile::tempdir().unwrap();
    let shallow = clone.path().join("shallow");
    let url = format!("file://{}", repo.path().display());
    git(
        clone.path(),
        "2026-06-01T00:00:00+00:00",
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &url,
            shallow.to_str().unwrap(),
        ],
    );
    let said = build(&shallow, &clone.path().join("out"));
    assert!(
        said.contains(
            "note: no claim history or feeds: a shallow clone holds only part of the history"
        ),
        "{said}"
    );
    assert!(!clone.path().join("out/feed.xml").exists());
    let page = std::fs::read_to_string(clone.path().join("out/en/index.html")).unwrap();
    assert!(!page.contains("class=\"history\""));
    // Outside any repository.
    let plain = tempfile::tempdir().unwrap();
    copy_dir(repo.path(), plain.path());
    std::fs::remove_dir_all(plain.path().join(".git")).unwrap();
    let said = build(plain.path(), &plain.path().join("out"));
    assert!(
        said.contains("note: no claim history or feeds: not a git repository"),
        "{said}"
    );
}
