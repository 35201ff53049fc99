//! Incremental preview rebuilds (`evidence serve`) against full builds, on a copy of the
//! valid fixture with `tests/fixtures/incremental` over it: after every kind of edit, the files (and the
//! diagnostics) of the incremental rebuild equal those of a fresh full build, byte for
//! byte; a prose edit and a bundle edit re-render only the pages that depend on them.

mod common;

use common::{copy_dir, fixture_copy, manifest_dir, replace_once, write_file};
use evidence::incremental::{self, Changes, How, Previous, Rerendered};
use evidence::pipeline;
use std::collections::BTreeSet;
use std::path::Path;
use tempfile::TempDir;

/// The valid fixture with `tests/fixtures/incremental` over it: pages that read only the
/// observers, only the glossary, only the components and generations, the list of runs
/// (a page for each run) and a site message.
/// It checks with no warning, so every build keeps its state for the next incremental one.
fn site() -> TempDir {
    let dir = fixture_copy();
    copy_dir(
        &manifest_dir().join("tests/fixtures/incremental"),
        dir.path(),
    );
    dir
}

/// A rebuild after `changed`, checked against a full build; returns the next start.
fn step(root: &Path, changed: &[&str], prev: Option<Previous>) -> (Option<Previous>, Rerendered) {
    let (next, rerendered, _) = step_how(root, Some(changed), prev);
    (next, rerendered)
}

/// [`step`], saying besides how the rebuild was made; `None` for changes the watcher
/// lost track of.
fn step_how(
    root: &Path,
    changed: Option<&[&str]>,
    prev: Option<Previous>,
) -> (Option<Previous>, Rerendered, How) {
    let changed: Option<Vec<String>> = changed.map(|c| c.iter().map(|s| s.to_string()).collect());
    let changes = match (&prev, &changed) {
        (Some(_), Some(paths)) => Changes::Paths(paths),
        _ => Changes::Unknown,
    };
    let (outcome, next) = incremental::rebuild(root, changes, prev);
    let (rerendered, how) = (outcome.rerendered.clone(), outcome.how);
    let full = pipeline::run(root);
    assert_eq!(
        outcome.diagnostics.sorted(),
        full.diagnostics.sorted(),
        "diagnostics after {changed:?} ({how:?})"
    );
    let (got, want) = match (&outcome.site, &full.site) {
        (Some(g), Some(w)) => (g, w),
        (None, None) => return (next, rerendered, how),
        _ => panic!("after {changed:?}: one build rendered, the other did not"),
    };
    let got_paths: Vec<&String> = got.files.keys().collect();
    let want_paths: Vec<&String> = want.files.keys().collect();
    assert_eq!(
        got_paths, want_paths,
        "file list after {changed:?} ({how:?})"
    );
    for (path, bytes) in &want.files {
        assert!(
            got.files.get(path) == Some(bytes),
            "{path} differs from a full build after {changed:?} ({rerendered:?}, {how:?})"
        );
    }
    (next, rerendered, how)
}

fn pages(ids: &[&str]) -> Rerendered {
    Rerendered::Pages(ids.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>())
}

/// Runs `edit`, then a rebuild of `changed`, against a full build; returns the next start.
fn edit(
    root: &Path,
    prev: Option<Previous>,
    changed: &[&str],
    edit: impl FnOnce(&Path),
) -> (Option<Previous>, Rerendered) {
    edit(root);
    step(root, changed, prev)
}

/// A page titled `title` whose blocks (or directive) are `body`.
fn page(title: &str, body: &str) -> String {
    let body = if body.starts_with("::") {
        format!("{body}\n")
    } else {
        format!(":::ja\n{body}\n:::\n\n:::en\n{body}\n:::\n")
    };
    format!("---\ntitle: {{ja: \"{title}\", en: \"{title}\"}}\norder: 90\n---\n\n{body}")
}

#[test]
fn every_edit_gives_the_bytes_of_a_full_build() {
    evidence::packs::register();
    let dir = site();
    let r = dir.path();
    let (prev, rerendered) = step(r, &[], None);
    assert_eq!(rerendered, Rerendered::Everything);
    assert!(prev.is_some(), "the fixture site builds cleanly");

    // A one-line prose edit: that page alone, patched into the last build.
    replace_once(
        r,
        "content/observers.md",
        "Looking in tends to change",
        "Looking in often changes",
    );
    let (prev, rerendered, how) = step_how(r, Some(&["content/observers.md"]), prev);
    assert_eq!(rerendered, pages(&["observers"]));
    assert_eq!(how, How::Patched);

    // A bundle size: the bundle table and the map on details, the `:v[bundle:…]` quote on
    // the index.
    let (prev, rerendered) = edit(r, prev, &["data/bundles.yaml"], |r| {
        replace_once(r, "data/bundles.yaml", "size_kb: 12", "size_kb: 13")
    });
    assert_eq!(rerendered, pages(&["details", "index"]));

    // A page title: the navigation of every page.
    let (prev, rerendered) = edit(r, prev, &["content/glossary.md"], |r| {
        replace_once(
            r,
            "content/glossary.md",
            "en: \"Glossary\"",
            "en: \"Terms\"",
        )
    });
    assert_eq!(rerendered, Rerendered::Everything);

    // A new run brings its own page, so the page list changes: everything.
    let run = "id: r2\nprobe: fixture-probe\ndate: \"2026-02-01\"\nengine: ollama\n\
        model: \"fixture-model\"\norigin: {ja: \"二回目。\", en: \"A second run.\"}\n\
        cases:\n  - {id: small, mode: hot, num_predict: 1, prompt_eval_count: 3, eval_count: 1}\n";
    let (prev, rerendered) = edit(r, prev, &["data/runs/r2.yaml"], |r| {
        write_file(r, "data/runs/r2.yaml", run.as_bytes())
    });
    assert_eq!(rerendered, Rerendered::Everything);

    // A recorded count: the pages that read runs (the list, every run's page, details),
    // not the others.
    let (prev, rerendered) = edit(r, prev, &["data/runs/r1.yaml"], |r| {
        replace_once(
            r,
            "data/runs/r1.yaml",
            "prompt_eval_count: 40",
            "prompt_eval_count: 41",
        )
    });
    assert!(
        matches!(&rerendered, Rerendered::Pages(p) if p.contains("runs")
        && p.contains("runs/r1") && p.contains("runs/r2") && p.contains("details")
        && !p.contains("glossary") && !p.contains("observers")),
        "{rerendered:?}"
    );

    // A map's threshold: the page that draws the map.
    let (prev, rerendered) = edit(r, prev, &["data/maps.yaml"], |r| {
        replace_once(r, "data/maps.yaml", "bound: {le: 8}", "bound: {le: 9}")
    });
    assert!(
        matches!(&rerendered, Rerendered::Pages(p) if p.contains("details")),
        "{rerendered:?}"
    );

    // A broken link: the same error as a full build (found rendering the patched page);
    // then fixed.
    replace_once(
        r,
        "content/observers.md",
        "## The question",
        "## The question\n\nSee [nowhere](@/nowhere).",
    );
    let (prev, _, how) = step_how(r, Some(&["content/observers.md"]), prev);
    assert_eq!(how, How::Patched);
    assert!(prev.is_none(), "a failed build is no start for the next");
    let (prev, rerendered) = edit(r, prev, &["content/observers.md"], |r| {
        replace_once(
            r,
            "content/observers.md",
            "See [nowhere](@/nowhere).",
            "See [the glossary](@/glossary).",
        )
    });
    assert_eq!(rerendered, Rerendered::Everything);

    // A Fluent message the site redefines: every page.
    let (prev, rerendered) = edit(r, prev, &["locales/en/overlay.ftl"], |r| {
        replace_once(
            r,
            "locales/en/overlay.ftl",
            "= estimated count (log scale)",
            "= estimated counts (log scale)",
        )
    });
    assert_eq!(rerendered, Rerendered::Everything);

    // A directive added to a page: everything (records may now link to it).
    let (prev, rerendered) = edit(r, prev, &["content/glossary.md"], |r| {
        replace_once(
            r,
            "content/glossary.md",
            "::glossary",
            "::glossary\n\n::observers",
        )
    });
    assert_eq!(rerendered, Rerendered::Everything);

    // Pages added: everything. One quotes a bundle, one lists it, one draws a map.
    let quote = page("Quote", ":v[bundle:b1.size_kb] KB");
    let table = page("Table", "::bundles{ids=\"b1\"}");
    let diagram = page("Diagram", "::dispatch-diagram{map=\"fixture_map\"}");
    let (prev, rerendered) = edit(
        r,
        prev,
        &[
            "content/x-quote.md",
            "content/x-table.md",
            "content/x-diagram.md",
        ],
        |r| {
            write_file(r, "content/x-quote.md", quote.as_bytes());
            write_file(r, "content/x-table.md", table.as_bytes());
            write_file(r, "content/x-diagram.md", diagram.as_bytes());
        },
    );
    assert_eq!(rerendered, Rerendered::Everything);

    // A bundle edit reaches each of them.
    let (prev, rerendered) = edit(r, prev, &["data/bundles.yaml"], |r| {
        replace_once(r, "data/bundles.yaml", "size_kb: 13", "size_kb: 14")
    });
    assert_eq!(
        rerendered,
        pages(&["details", "index", "x-diagram", "x-quote", "x-table"])
    );

    // A data text that quotes a bundle: its table then reads bundles too.
    let (prev, _) = edit(r, prev, &["data/observers.yaml"], |r| {
        replace_once(
            r,
            "data/observers.yaml",
            "en: \"Ran the fixture.\"",
            "en: \"Ran the fixture (:v[bundle:b1.size_kb] KB).\"",
        )
    });
    let (prev, rerendered) = edit(r, prev, &["data/bundles.yaml"], |r| {
        replace_once(r, "data/bundles.yaml", "size_kb: 14", "size_kb: 15")
    });
    assert!(
        matches!(&rerendered, Rerendered::Pages(p) if p.contains("observers")),
        "{rerendered:?}"
    );

    // A status label in the vocabulary: the components table.
    let (prev, rerendered) = edit(r, prev, &["data/vocabulary.yaml"], |r| {
        replace_once(
            r,
            "data/vocabulary.yaml",
            "en: \"load confirmed\"",
            "en: \"loaded\"",
        )
    });
    assert!(
        matches!(&rerendered, Rerendered::Pages(p) if p.contains("components")),
        "{rerendered:?}"
    );

    // A file reported without a change: the pages that read it, nothing else.
    let (prev, rerendered) = edit(r, prev, &["data/generations.yaml"], |_| {});
    assert_eq!(rerendered, pages(&["components"]));
    assert!(prev.is_some());
}

/// The valid fixture with search and a base URL (so the search index and the sitemap are
/// written), two pages in a folder and one more in the navigation.
fn small_site() -> TempDir {
    let dir = common::fixture_copy();
    let r = dir.path();
    let config = std::fs::read_to_string(r.join("evidence.yaml")).unwrap_or_default();
    let config = format!("{config}search: true\nbase_url: \"https://example.org/fx/\"\n");
    write_file(r, "evidence.yaml", config.as_bytes());
    write_file(
        r,
        "content/about.md",
        page("About", "What this is.").as_bytes(),
    );
    write_file(
        r,
        "content/notes/a.md",
        page("Note A", "First note.").as_bytes(),
    );
    write_file(
        r,
        "content/notes/b.md",
        page("Note B", "Second note.").as_bytes(),
    );
    dir
}

#[test]
fn edits_patched_or_loaded_give_the_bytes_of_a_full_build() {
    evidence::packs::register();
    let dir = small_site();
    let r = dir.path();
    let run = |prev, changed: &[&str], edit: &dyn Fn(&Path)| {
        edit(r);
        step_how(r, Some(changed), prev)
    };
    let (prev, rerendered, how) = step_how(r, None, None);
    assert_eq!((rerendered, how), (Rerendered::Everything, How::Loaded));

    // Prose: the page alone, patched, one page or several, a page with directives too.
    let (prev, rerendered, how) = run(prev, &["content/notes/a.md"], &|r| {
        replace_once(
            r,
            "content/notes/a.md",
            "en\nFirst note.",
            "en\nThe first note.",
        )
    });
    assert_eq!((rerendered, how), (pages(&["notes/a"]), How::Patched));
    let (prev, rerendered, how) = run(prev, &["content/about.md", "content/notes/a.md"], &|r| {
        replace_once(
            r,
            "content/about.md",
            "en\nWhat this is.",
            "en\nWhat it is for.",
        );
        replace_once(
            r,
            "content/notes/a.md",
            "en\nThe first",
            "en\nThe very first",
        );
    });
    assert_eq!(
        (rerendered, how),
        (pages(&["about", "notes/a"]), How::Patched)
    );
    let (prev, rerendered, how) = run(prev, &["content/details.md"], &|r| {
        replace_once(
            r,
            "content/details.md",
            "The fixture tables.",
            "Its tables.",
        )
    });
    assert_eq!((rerendered, how), (pages(&["details"]), How::Patched));
    // Saved again unchanged: nothing but the files of no page.
    let (prev, rerendered, how) = run(prev, &["content/notes/b.md"], &|r| {
        replace_once(
            r,
            "content/notes/b.md",
            "en\nSecond note.",
            "en\nSecond note.",
        )
    });
    assert_eq!((rerendered, how), (pages(&[]), How::Patched));

    // What other pages see: a title in the navigation, a date, loaded in full; the
    // patched page is as last edited.
    let (prev, rerendered, how) = run(prev, &["content/about.md"], &|r| {
        replace_once(r, "content/about.md", "en: \"About\"", "en: \"About us\"")
    });
    assert_eq!((rerendered, how), (Rerendered::Everything, How::Loaded));
    let (prev, _, how) = run(prev, &["content/notes/b.md"], &|r| {
        replace_once(
            r,
            "content/notes/b.md",
            "order: 90",
            "order: 90\ndate: \"2026-11-01\"",
        )
    });
    assert_eq!(how, How::Loaded);
    let (prev, rerendered, how) = run(prev, &["content/notes/a.md"], &|r| {
        replace_once(
            r,
            "content/notes/a.md",
            "en\nThe very first",
            "en\nThe first",
        )
    });
    assert_eq!((rerendered, how), (pages(&["notes/a"]), How::Patched));

    // Pages created, removed and renamed: loaded in full, and there or gone.
    let (prev, _, how) = run(prev, &["content/notes/c.md"], &|r| {
        write_file(r, "content/notes/c.md", page("Note C", "Third.").as_bytes())
    });
    assert_eq!(how, How::Loaded);
    let (prev, _, how) = run(prev, &["content/notes/c.md"], &|r| {
        std::fs::remove_file(r.join("content/notes/c.md")).unwrap_or_else(|e| panic!("{e}"))
    });
    assert_eq!(how, How::Loaded);
    let (prev, _, how) = run(prev, &["content/notes/b.md", "content/notes/d.md"], &|r| {
        std::fs::rename(r.join("content/notes/b.md"), r.join("content/notes/d.md"))
            .unwrap_or_else(|e| panic!("{e}"))
    });
    assert_eq!(how, How::Loaded);

    // A data file: loaded, the pages that read it rendered.
    let (prev, rerendered, how) = run(prev, &["data/bundles.yaml"], &|r| {
        replace_once(r, "data/bundles.yaml", "size_kb: 12", "size_kb: 13")
    });
    assert_eq!(how, How::Loaded);
    assert_eq!(rerendered, pages(&["details", "index"]));

    // A block without its translation: the error a full build gives, and no next start;
    // fixed, the site is whole again.
    let (prev, _, how) = run(prev, &["content/notes/a.md"], &|r| {
        replace_once(r, "content/notes/a.md", ":::en\nThe first note.\n:::\n", "")
    });
    assert_eq!(how, How::Patched);
    assert!(prev.is_none());
    let (prev, _, _) = run(prev, &["content/notes/a.md"], &|r| {
        let fixed = page("Note A", "The first note.");
        write_file(r, "content/notes/a.md", fixed.as_bytes())
    });
    assert!(prev.is_some());

    // Edits the watcher lost track of: everything looked at again.
    replace_once(
        r,
        "content/notes/d.md",
        "en\nSecond note.",
        "en\nThe second note.",
    );
    replace_once(r, "content/about.md", "en\nWhat it is for.", "en\nWhy.");
    let (prev, rerendered, how) = step_how(r, None, prev);
    assert_eq!((rerendered, how), (Rerendered::Everything, How::Loaded));
    assert!(prev.is_some());
}

/// A page's links to another page's headings follow that page's edits: in the
/// interleaved view such a link takes the language of the heading it names (`#en-later`),
/// and a link to a heading that is gone is an error at the link. So when an edit changes
/// the ids a page has, the pages whose links point into it are rendered and judged again
/// with it; when the ids stay, the page is rendered alone.
#[test]
fn pages_linking_to_an_edited_pages_headings_follow_it() {
    evidence::packs::register();
    let dir = small_site();
    let r = dir.path();
    write_file(
        r,
        "content/notes/a.md",
        page("Note A", "See [later](@/notes/b#later).").as_bytes(),
    );
    write_file(
        r,
        "content/notes/b.md",
        page("Note B", "Second note.\n\n## Later\n\nMore.").as_bytes(),
    );
    let run = |prev, edit: &dyn Fn(&Path)| {
        edit(r);
        step_how(r, Some(&["content/notes/b.md"]), prev)
    };
    let (prev, _, _) = step_how(r, None, None);
    assert!(prev.is_some());

    // Prose around the heading: its ids stay, the page is rendered alone.
    let (prev, rerendered, how) = run(prev, &|r| {
        replace_once(
            r,
            "content/notes/b.md",
            "en\nSecond note.",
            "en\nThe second note.",
        )
    });
    assert_eq!((rerendered, how), (pages(&["notes/b"]), How::Patched));

    // A heading more: the page linking into it is rendered and judged with it.
    let (prev, rerendered, how) = run(prev, &|r| {
        replace_once(
            r,
            "content/notes/b.md",
            "en\nThe second note.",
            "en\n## Sooner\n\nThe second note.",
        )
    });
    assert_eq!(
        (rerendered, how),
        (pages(&["notes/a", "notes/b"]), How::Patched)
    );

    // The heading linked to renamed: the link is broken, as a full build says (the
    // comparison in `step_how`), and the broken build is no next start.
    let (prev, rerendered, how) = run(prev, &|r| {
        replace_once(
            r,
            "content/notes/b.md",
            "en\n## Sooner\n\nThe second note.\n\n## Later",
            "en\n## Sooner\n\nThe second note.\n\n## Latest",
        )
    });
    assert_eq!(
        (rerendered, how),
        (pages(&["notes/a", "notes/b"]), How::Patched)
    );
    assert!(prev.is_none());
}
