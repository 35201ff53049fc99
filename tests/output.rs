//! What the built valid fixture contains: the three views of every page, the extra
//! files, languages, alternates, derived zones and escaping.

mod common;

use common::*;

const PAGES: [&str; 2] = ["index", "details"];

/// Output file of a page in a view (`""`, `"ja/"`, `"en/"`).
fn page_file(prefix: &str, page: &str) -> String {
    if page == "index" {
        format!("{prefix}index.html")
    } else {
        format!("{prefix}{page}/index.html")
    }
}

const VIEWS: [(&str, &str); 3] = [("", "ja"), ("ja/", "ja"), ("en/", "en")];

#[test]
fn check_passes_on_the_valid_fixture() {
    let (code, report) = check_json(&fixture_dir());
    assert_eq!(code, 0, "{}", report.summary());
    assert_eq!(report.errors, 0);
    assert_eq!(report.warnings, 0);
    assert!(report.diagnostics.is_empty(), "{}", report.summary());

    let r = run(&[
        "check".as_ref(),
        "--root".as_ref(),
        fixture_dir().as_os_str(),
    ]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout.trim(), "ok: 2 pages, 1 runs, no errors");
}

#[test]
fn every_page_exists_in_three_views_plus_extras() {
    let b = Built::new();
    let files = read_tree(&b.out);
    let mut expected: Vec<String> = PAGES
        .iter()
        .flat_map(|p| VIEWS.iter().map(move |(prefix, _)| page_file(prefix, p)))
        .collect();
    expected.extend(
        [
            ".evidence-output",
            "404.html",
            // No sitemap: the fixture has no base_url (a sitemap needs absolute URLs).
            "evidence.json",
            "static/style.css",
            // The page list's script (it scrolls to the current page on a phone).
            "static/nav.js",
            // The fixture turns the ggml pack on: its stylesheet, linked after the theme's.
            "static/packs/ggml.css",
        ]
        .map(String::from),
    );
    expected.sort();
    let actual: Vec<String> = files.keys().cloned().collect();
    assert_eq!(actual, expected);
    let page = String::from_utf8_lossy(&files["details/index.html"]);
    let theme = page
        .find("href=\"../static/style.css\"")
        .expect("theme stylesheet");
    let pack = page
        .find("href=\"../static/packs/ggml.css\"")
        .expect("pack stylesheet");
    assert!(theme < pack, "the pack's styles come after the theme's");
}

#[test]
fn html_lang_follows_the_view() {
    let b = Built::new();
    for page in PAGES {
        for (prefix, lang) in VIEWS {
            let html = b.read(&page_file(prefix, page));
            let view = match prefix {
                "" => "interleaved",
                "ja/" => "ja",
                _ => "en",
            };
            let open = format!("<html lang=\"{lang}\" data-view=\"{view}\">");
            assert!(
                html.contains(&open),
                "{prefix}{page}: no `{open}` in\n{}",
                &html[..200.min(html.len())]
            );
        }
    }
}

#[test]
fn blocks_carry_their_language() {
    let b = Built::new();
    for page in PAGES {
        assert_eq!(
            block_langs(&b.read(&page_file("", page))),
            ["ja", "en"],
            "bilingual {page} interleaves ja then en"
        );
        assert_eq!(block_langs(&b.read(&page_file("ja/", page))), ["ja"]);
        assert_eq!(block_langs(&b.read(&page_file("en/", page))), ["en"]);
    }
}

#[test]
fn single_language_views_hold_no_text_of_the_other_language() {
    let b = Built::new();
    for page in PAGES {
        let ja = without_switcher(&b.read(&page_file("ja/", page)));
        let en = without_switcher(&b.read(&page_file("en/", page)));
        assert!(!ja.contains(" lang=\"en\""), "ja/{page} has an en element");
        assert!(!en.contains(" lang=\"ja\""), "en/{page} has a ja element");
        assert!(
            !ja.contains("class=\"bi\""),
            "ja/{page} has bilingual spans"
        );
        assert!(
            !en.contains("class=\"bi\""),
            "en/{page} has bilingual spans"
        );
    }
    let ja = b.read("ja/index.html");
    let en = b.read("en/index.html");
    assert!(ja.contains("これはフィクスチャの日本語ブロック。"));
    assert!(!ja.contains("This is the fixture English block."));
    assert!(!ja.contains("What the fixture can show."));
    assert!(en.contains("This is the fixture English block."));
    assert!(!en.contains("これはフィクスチャの日本語ブロック。"));
    assert!(!en.contains("フィクスチャで示せること。"));
    let bi = b.read("index.html");
    assert!(bi.contains("これはフィクスチャの日本語ブロック。"));
    assert!(bi.contains("This is the fixture English block."));
    assert!(bi.contains("<span class=\"bi tr\" lang=\"en\">What the fixture can show.</span>"));
}

#[test]
fn hreflang_alternates_point_at_the_three_views() {
    let b = Built::new();
    let cases = [
        (
            "index.html",
            ["index.html", "ja/index.html", "en/index.html"],
        ),
        (
            "ja/details/index.html",
            [
                "../../details/index.html",
                "../../ja/details/index.html",
                "../../en/details/index.html",
            ],
        ),
        (
            "en/index.html",
            ["../index.html", "../ja/index.html", "../en/index.html"],
        ),
    ];
    for (file, [x, ja, en]) in cases {
        let html = b.read(file);
        for (hreflang, href) in [("x-default", x), ("ja", ja), ("en", en)] {
            let link = format!("<link rel=\"alternate\" hreflang=\"{hreflang}\" href=\"{href}\">");
            assert!(html.contains(&link), "{file}: missing {link}");
        }
    }
}

#[test]
fn with_a_base_url_alternates_and_sitemap_are_absolute() {
    let site = fixture_copy();
    let mut cfg = std::fs::read_to_string(site.path().join("evidence.yaml")).unwrap();
    cfg.push_str("base_url: \"https://fixture.invalid/sub/\"\n");
    std::fs::write(site.path().join("evidence.yaml"), cfg).unwrap();
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let html = std::fs::read_to_string(out.join("ja/details/index.html")).unwrap();
    for (hreflang, href) in [
        ("x-default", "https://fixture.invalid/sub/details/"),
        ("ja", "https://fixture.invalid/sub/ja/details/"),
        ("en", "https://fixture.invalid/sub/en/details/"),
    ] {
        let link = format!("<link rel=\"alternate\" hreflang=\"{hreflang}\" href=\"{href}\">");
        assert!(html.contains(&link), "missing {link}");
    }
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    let locs: Vec<&str> = sitemap
        .split("<loc>")
        .skip(1)
        .map(|s| &s[..s.find("</loc>").unwrap()])
        .collect();
    assert_eq!(
        locs,
        [
            "https://fixture.invalid/sub/",
            "https://fixture.invalid/sub/ja/",
            "https://fixture.invalid/sub/en/",
            "https://fixture.invalid/sub/details/",
            "https://fixture.invalid/sub/ja/details/",
            "https://fixture.invalid/sub/en/details/",
        ]
    );
}

#[test]
fn under_a_base_url_path_the_404_page_links_start_with_that_path() {
    let site = fixture_copy();
    let mut cfg = std::fs::read_to_string(site.path().join("evidence.yaml")).unwrap();
    cfg.push_str("base_url: \"https://example.org/repo/\"\n");
    std::fs::write(site.path().join("evidence.yaml"), cfg).unwrap();
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    // Served for a missing path at any depth: its links start from the published root,
    // the path of base_url, and name no host (so a preview elsewhere keeps them).
    let html = std::fs::read_to_string(out.join("404.html")).unwrap();
    let hrefs: Vec<&str> = html
        .split("href=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .filter(|h| !h.starts_with('#') && !h.starts_with("data:"))
        .collect();
    assert!(hrefs.len() >= 4, "{hrefs:?}");
    for h in &hrefs {
        assert!(h.starts_with("/repo/"), "404 link {h} is not under /repo/");
    }
    assert!(hrefs.contains(&"/repo/static/style.css"), "{hrefs:?}");
    // The language switch of a page is relative (its <link rel="alternate"> absolute).
    let page = std::fs::read_to_string(out.join("ja/details/index.html")).unwrap();
    assert!(
        page.contains(
            "<a class=\"view\" href=\"../../en/details/index.html\" hreflang=\"en\" data-scripts=\"Latn\">"
        ),
        "{page}"
    );
    assert!(page.contains(
        "<link rel=\"alternate\" hreflang=\"en\" href=\"https://example.org/repo/en/details/\">"
    ));
}

#[test]
fn without_a_base_url_no_sitemap_is_written_and_the_build_says_so() {
    let site = fixture_copy();
    let out = site.path().join("out");
    let run = build(site.path(), Some(&out));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        !out.join("sitemap.xml").exists(),
        "a sitemap of relative URLs is invalid"
    );
    assert!(
        run.stdout.contains("note: no sitemap.xml"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("base_url"), "{}", run.stdout);
}

#[test]
fn sitemap_lists_every_view_with_alternates() {
    let site = fixture_copy();
    let mut cfg = std::fs::read_to_string(site.path().join("evidence.yaml")).unwrap();
    cfg.push_str("base_url: \"https://fixture.invalid/\"\n");
    std::fs::write(site.path().join("evidence.yaml"), cfg).unwrap();
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(sitemap.starts_with("<?xml"));
    assert_eq!(sitemap.matches("<url>").count(), 6);
    assert_eq!(
        sitemap.matches("hreflang=\"x-default\"").count(),
        6,
        "every entry has its alternates"
    );
    assert_eq!(
        sitemap.matches("<loc>https://fixture.invalid/").count(),
        sitemap.matches("<url>").count(),
        "every entry absolute: {sitemap}"
    );
}

#[test]
fn not_found_page_and_stylesheet() {
    let b = Built::new();
    let html = b.read("404.html");
    assert!(html.contains("<html lang=\"ja\""));
    assert!(
        html.contains("href=\"/static/style.css\""),
        "404 links root-absolute"
    );
    let css = std::fs::read(b.out.join("static/style.css")).unwrap();
    let builtin = std::fs::read(manifest_dir().join("static/style.css")).unwrap();
    assert_eq!(css, builtin);
}

#[test]
fn evidence_json_is_the_resolved_graph() {
    let b = Built::new();
    let json: serde_json::Value = serde_json::from_str(&b.read("evidence.json")).unwrap();
    let bundles = json["bundle"].as_object().expect("bundle map");
    assert_eq!(bundles.keys().collect::<Vec<_>>(), ["b1", "b2"]);
    assert_eq!(json["bundle"]["b1"]["size_kb"], 12);
    assert_eq!(json["claim"]["c1"]["constraint"], "obs1");
    assert_eq!(json["run"]["r1"]["cases"][0]["prompt_eval_count"], 3);
    assert_eq!(json["map"]["fixture_map"]["branches"][0]["bound"]["le"], 8);
    assert_eq!(json["family"]["fam_small"]["label"]["en"], "SMALL");
    assert_eq!(json["observer"]["obs1"]["as_of"], "2026-01-15");
}

#[test]
fn run_table_shows_the_derived_zone_of_each_case() {
    let b = Built::new();
    let html = b.read("en/details/index.html");
    let table = figure(&html, "run");
    let rows: Vec<&str> = table.split("<tr>").skip(2).collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(rows[0].starts_with("<th scope=\"row\"><code>small</code></th>"));
    assert!(
        rows[0].contains(
            "<span class=\"zone assessed\"><span class=\"badge hue-0\">SMALL</span> <small>fixture_map</small> <small class=\"assessed-label\">(assessed)</small></span>"
        ),
        "{}",
        rows[0]
    );
    assert!(rows[0].contains("<td>small side</td>"));
    assert!(rows[1].starts_with("<th scope=\"row\"><code>large</code></th>"));
    assert!(
        rows[1].contains("<span class=\"badge hue-1\">LARGE</span>"),
        "{}",
        rows[1]
    );
    assert!(rows[1].contains("1.5 s"), "load duration in seconds");
}

#[test]
fn values_and_links_in_blocks_are_resolved_per_view() {
    let b = Built::new();
    let en = b.read("en/index.html");
    assert!(en.contains("Bundle b1 is <span class=\"value\">12</span> KB."));
    assert!(en.contains("<a href=\"../en/details/index.html\">the details page</a>"));
    let ja = b.read("ja/index.html");
    assert!(ja.contains("<a href=\"../ja/details/index.html\">詳細ページ</a>"));
    let bi = b.read("index.html");
    assert!(bi.contains("<a href=\"details/index.html\">the details page</a>"));
    assert!(bi.contains("<h2 id=\"ja-概要\">概要</h2>"));
    assert!(bi.contains("<h2 id=\"en-overview\">Overview</h2>"));
}

#[test]
fn script_in_data_and_markdown_is_escaped() {
    let b = Built::new();
    let files = read_tree(&b.out);
    for (path, bytes) in &files {
        if !(path.ends_with(".html") || path.ends_with(".xml")) {
            continue;
        }
        let text = String::from_utf8(bytes.clone())
            .unwrap()
            .to_ascii_lowercase();
        // The theme's own scripts: the page list's on every page (from the page's folder
        // up to `static/`, or from `/` on the 404 page), and the 404 page's one inline
        // script, which moves its links when it is opened as a file.
        let root = match path.matches('/').count() {
            _ if path == "404.html" => "/".to_string(),
            0 => "./".to_string(),
            n => "../".repeat(n),
        };
        let nav = format!("<script src=\"{root}static/nav.js\" defer></script>");
        let text = text.replacen(&nav, "", 1);
        let text = match text.find("<script data-root=\"/\">") {
            Some(start) if path == "404.html" => {
                let end = start + text[start..].find("</script>").unwrap() + "</script>".len();
                format!("{}{}", &text[..start], &text[end..])
            }
            _ => text,
        };
        assert!(!text.contains("<script"), "{path} holds a raw <script> tag");
    }
    let en = b.read("en/details/index.html");
    // In a data text (bundle role) and in a markdown block (inline and HTML block).
    assert!(en.contains("Data text &lt;script&gt;alert('en')&lt;/script&gt; is text."));
    assert!(en.contains("&lt;script&gt;alert(\"block-en\")&lt;/script&gt;"));
    let en_home = b.read("en/index.html");
    assert!(
        en_home.contains("Raw HTML &lt;script&gt;alert(\"en\")&lt;/script&gt; is shown as text.")
    );
    // The data keeps its text as written; JSON is not HTML.
    let json: serde_json::Value = serde_json::from_str(&b.read("evidence.json")).unwrap();
    assert_eq!(
        json["bundle"]["b2"]["role"]["en"],
        "Data text <script>alert('en')</script> is text."
    );
}

#[test]
fn element_ids_are_unique_on_every_page() {
    let b = Built::new();
    for (path, bytes) in read_tree(&b.out) {
        if !path.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for (i, _) in html.match_indices(" id=\"") {
            let rest = &html[i + 5..];
            let id = &rest[..rest.find('"').unwrap()];
            assert!(seen.insert(id.to_string()), "{path}: duplicate id `{id}`");
        }
    }
}

#[test]
fn run_and_latest_run_of_the_same_run_have_distinct_ids() {
    let site = fixture_copy();
    replace_once(
        site.path(),
        "content/details.md",
        "::worklog\n",
        "::worklog\n\n::latest-run{probe=\"fixture-probe\"}\n",
    );
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let html = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    let ids: Vec<&str> = figures(&html, "run")
        .iter()
        .map(|f| {
            let rest = &f[f.find(" id=\"").unwrap() + 5..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1], "two figures share the id `{}`", ids[0]);
}

/// Every `href="…"` of `html` (a file at `path` in the output) that points into the site,
/// resolved to an output path; `Err` when it climbs above the site root.
fn internal_targets(path: &str, html: &str) -> Vec<(String, Result<String, String>)> {
    let dir: Vec<&str> = path.split('/').collect();
    let dir = &dir[..dir.len() - 1];
    let mut out = Vec::new();
    for (i, _) in html.match_indices("href=\"") {
        let rest = &html[i + 6..];
        let href = &rest[..rest.find('"').unwrap()];
        if href.starts_with('#')
            || href.contains("://")
            || href.starts_with("mailto:")
            || href.starts_with("data:")
        {
            continue;
        }
        let target = href.split('#').next().unwrap();
        let (mut parts, rel): (Vec<&str>, &str) = match target.strip_prefix('/') {
            Some(abs) => (Vec::new(), abs),
            None => (dir.to_vec(), target),
        };
        let mut ok = true;
        for seg in rel.split('/') {
            match seg {
                "" | "." => {}
                ".." => ok &= parts.pop().is_some(),
                s => parts.push(s),
            }
        }
        let mut resolved = parts.join("/");
        if resolved.is_empty() || target.ends_with('/') {
            resolved = format!("{resolved}/index.html")
                .trim_start_matches('/')
                .to_string();
        }
        out.push((
            href.to_string(),
            if ok {
                Ok(resolved)
            } else {
                Err(format!("`{href}` leaves the site root"))
            },
        ));
    }
    out
}

fn assert_links_resolve(files: &std::collections::BTreeMap<String, Vec<u8>>, path: &str) {
    let html = String::from_utf8(files[path].clone()).unwrap();
    let targets = internal_targets(path, &html);
    assert!(targets.len() >= 5, "{path}: too few links found to check");
    for (href, target) in targets {
        match target {
            Ok(t) => assert!(
                files.contains_key(&t),
                "{path}: `{href}` points at `{t}`, which the build did not produce"
            ),
            Err(e) => panic!("{path}: {e}"),
        }
    }
}

#[test]
fn internal_links_of_every_page_resolve() {
    let b = Built::new();
    let files = read_tree(&b.out);
    for path in files.keys().filter(|p| p.ends_with("index.html")) {
        assert_links_resolve(&files, path);
    }
}

#[test]
fn internal_links_of_the_404_page_resolve() {
    let b = Built::new();
    let files = read_tree(&b.out);
    assert_links_resolve(&files, "404.html");
}

/// The valid fixture with `::runs` on the details page and a second run of its probe.
fn with_runs_index() -> (tempfile::TempDir, std::path::PathBuf) {
    let site = fixture_copy();
    let root = site.path();
    replace_once(
        root,
        "content/details.md",
        "::run{id=\"r1\"}\n",
        "::run{id=\"r1\"}\n\n::runs\n",
    );
    let r2 = std::fs::read_to_string(root.join("data/runs/r1.yaml"))
        .unwrap()
        .replace("id: r1", "id: r2")
        .replace("2026-01-20", "2026-01-21")
        .replace("prompt_eval_count: 40", "prompt_eval_count: 41");
    write_file(root, "data/runs/r2.yaml", r2.as_bytes());
    let out = root.join("site");
    build_ok(root, &out);
    (site, out)
}

#[test]
fn every_run_gets_a_page_below_the_runs_index() {
    let (_site, out) = with_runs_index();
    let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap_or_default();
    for (prefix, lang) in VIEWS {
        for run in ["r1", "r2"] {
            let html = read(&format!("{prefix}details/{run}/index.html"));
            assert!(
                html.contains(&format!("<html lang=\"{lang}\"")),
                "{prefix}{run}"
            );
            assert!(html.contains(&format!("id=\"run-{run}\"")), "{prefix}{run}");
        }
    }
    // The index: a row per run, linking to its page, with cases per zone.
    let index = read("en/details/index.html");
    let table = figure(&index, "runs-index");
    assert!(
        table.contains("href=\"../../en/details/r1/index.html\""),
        "{table}"
    );
    assert!(
        table.contains("href=\"../../en/details/r2/index.html\""),
        "{table}"
    );
    assert!(table.contains("SMALL</span> 1 <span"), "{table}");
    assert!(
        !index.contains("id=\"run-table-r2\""),
        "cases stay on the run pages"
    );
    // Neighbours: r1 links forward, r2 back; only the latest has the comparison table.
    let r1 = read("en/details/r1/index.html");
    let r2 = read("en/details/r2/index.html");
    assert!(r1.contains("Run after it: <a href=\"../../../en/details/r2/index.html\">"));
    assert!(!r1.contains("Run before it"));
    assert!(r2.contains("Run before it: <a href=\"../../../en/details/r1/index.html\">"));
    assert!(r2.contains("id=\"compare-r2\""));
    assert!(!r1.contains("id=\"compare-r1\""));
    assert!(r2.contains("All runs</a>"));
    // A `run:` reference links to the run's page, at its table.
    let claims = read("en/index.html");
    assert!(
        claims.contains("href=\"../en/details/r1/index.html#run-r1\""),
        "run reference"
    );
}

/// A run without a date has no known order against the other runs of its probe: neither
/// page calls the other the run before or after it, and both say the order is unknown.
#[test]
fn runs_without_a_date_are_not_ordered_before_or_after() {
    let (site, _) = with_runs_index();
    let root = site.path();
    replace_once(root, "data/runs/r2.yaml", "date: \"2026-01-21\"\n", "");
    let out = root.join("site-undated");
    build_ok(root, &out);
    let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap_or_default();
    for run in ["r1", "r2"] {
        let html = read(&format!("en/details/{run}/index.html"));
        assert!(!html.contains("Run before it"), "{run}");
        assert!(!html.contains("Run after it"), "{run}");
        assert!(!html.contains(&format!("id=\"compare-{run}\"")), "{run}");
        assert!(html.contains("so their order is unknown"), "{run}");
        let ja = read(&format!("ja/details/{run}/index.html"));
        assert!(ja.contains("前後関係は分からない"), "{run}");
    }
}

#[test]
fn a_run_page_can_be_linked_with_at_slash() {
    let (site, _) = with_runs_index();
    let root = site.path();
    replace_once(
        root,
        "content/details.md",
        "::runs\n",
        "::runs\n\n:::ja\n[r2](@/details/r2)\n:::\n\n:::en\n[r2](@/details/r2)\n:::\n",
    );
    let out = root.join("site");
    build_ok(root, &out);
    let html = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    assert!(html.contains("href=\"../../en/details/r2/index.html\""));
}

#[test]
fn a_route_is_labelled_from_its_data_and_coloured_like_its_family() {
    let b = Built::new();
    for (page, small, large) in [
        ("en/details/index.html", "small route", "large route"),
        ("ja/details/index.html", "小さい経路", "大きい経路"),
    ] {
        let html = b.read(page);
        let table = figure(&html, "bundles");
        // The routes name fam_small and fam_large: the hues of those families' badges.
        assert!(
            table.contains(&format!("<span class=\"badge hue-0\">{small}</span>")),
            "{table}"
        );
        assert!(
            table.contains(&format!("<span class=\"badge hue-1\">{large}</span>")),
            "{table}"
        );
    }
}

#[test]
fn the_map_comparison_names_the_maps_variable() {
    let dir = fixture_copy();
    let page = dir.path().join("content/details.md");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\n::dispatch-compare\n");
    std::fs::write(&page, text).unwrap();
    let out = dir.path().join("out");
    build_ok(dir.path(), &out);
    for (view, caption, column) in [
        ("en", "Decision maps compared over n", "n range"),
        ("ja", "n ごとに見た判断の地図の比較", "n の範囲"),
    ] {
        let html = std::fs::read_to_string(out.join(view).join("details/index.html")).unwrap();
        let table = figure(&html, "dispatch-compare");
        // Fluent isolates a placed value with FSI/PDI marks; the reader sees the text.
        let seen = table.replace(['\u{2068}', '\u{2069}'], "");
        assert!(seen.contains(caption), "{table}");
        assert!(seen.contains(&format!(">{column}</th>")), "{table}");
        assert!(!seen.contains("ne11"), "{table}");
    }
}

/// A glossary term may say where its definition can be checked: the source shows under
/// the definition, its pull requests linked.
#[test]
fn a_glossary_term_shows_its_source() {
    let dir = fixture_copy();
    write_file(
        dir.path(),
        "data/glossary.yaml",
        r#"- id: tile
  term: {ja: "タイル", en: "tile"}
  definition: {ja: "一度に読む区画。", en: "The block read at once."}
  source:
    repository: example/planner
    revision: "v1.2"
    file: "src/tile.rs"
    prs: ["example/planner#42"]
"#
        .as_bytes(),
    );
    let page = dir.path().join("content/details.md");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\n::glossary\n");
    std::fs::write(&page, text).unwrap();
    let out = dir.path().join("out");
    build_ok(dir.path(), &out);
    let html = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    let table = figure(&html, "glossary");
    assert!(
        table.contains(
            "The block read at once.<br><small class=\"source\"><code>example/planner</code> @ \
             <code>v1.2</code> · <a href=\"https://github.com/example/planner/blob/v1.2/src/tile.rs\">\
             <code>src/tile.rs</code></a> · \
             <a href=\"https://github.com/example/planner/pull/42\">example/planner#42</a></small>"
        ),
        "{table}"
    );
}

/// A run's table says in one note which cases changed zone since the run before it,
/// under the map it is compared on.
#[test]
fn a_run_names_the_cases_whose_zone_changed_since_the_run_before() {
    let site = fixture_copy();
    let root = site.path();
    let r2 = std::fs::read_to_string(root.join("data/runs/r1.yaml"))
        .unwrap()
        .replace("id: r1", "id: r2")
        .replace("2026-01-20", "2026-01-21")
        .replace("prompt_eval_count: 3\n", "prompt_eval_count: 20\n")
        .replace("zone: fam_small", "zone: fam_large");
    write_file(root, "data/runs/r2.yaml", r2.as_bytes());
    replace_once(
        root,
        "content/details.md",
        "::run{id=\"r1\"}",
        "::run{id=\"r2\"}",
    );
    let out = root.join("site");
    build_ok(root, &out);
    let html = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    // Fluent isolates placed values; the reader sees the text.
    let html = html.replace(['\u{2068}', '\u{2069}'], "");
    let note = html
        .split("Zones under fixture_map that changed since r1: ")
        .nth(1)
        .and_then(|s| s.split("</p>").next())
        .unwrap_or_else(|| panic!("no zone note in {html}"));
    assert_eq!(
        note,
        "<code>small</code> <span class=\"badge hue-0\">SMALL</span> → \
         <span class=\"badge hue-1\">LARGE</span>"
    );
    // Worked out once for the page, the note is written in every view's own words.
    let ja = std::fs::read_to_string(out.join("ja/details/index.html"))
        .unwrap()
        .replace(['\u{2068}', '\u{2069}'], "");
    assert!(ja.contains("r1 から fixture_map の下で範囲が変わったケース: <code>small</code>"));
    let bi = std::fs::read_to_string(out.join("details/index.html"))
        .unwrap()
        .replace(['\u{2068}', '\u{2069}'], "");
    assert!(
        bi.contains("の下で範囲が変わったケース:"),
        "the bilingual view's note"
    );
    assert!(
        bi.contains("that changed since r1:"),
        "the bilingual view's note"
    );
    assert!(
        !ja.contains("that changed since"),
        "no English in the Japanese view"
    );

    // A case the run before had and this one lacks is named, in each view too.
    let text = std::fs::read_to_string(root.join("data/runs/r2.yaml")).unwrap();
    let cut = text.find("  - id: large").expect("the second case");
    write_file(root, "data/runs/r2.yaml", &text.as_bytes()[..cut]);
    build_ok(root, &out);
    for (file, words) in [
        (
            "en/details/index.html",
            "Cases only in r1: <code>large</code>",
        ),
        (
            "ja/details/index.html",
            "r1 にだけあるケース: <code>large</code>",
        ),
        (
            "details/index.html",
            "Cases only in r1:</span> <code>large</code>",
        ),
    ] {
        let html = std::fs::read_to_string(out.join(file))
            .unwrap()
            .replace(['\u{2068}', '\u{2069}'], "");
        assert!(html.contains(words), "{file}");
    }
}

/// In a table of records the cell that names the row is its header (`th scope="row"`),
/// so a screen reader says which record each cell belongs to; run cases are not records.
#[test]
fn a_record_row_is_named_by_a_row_header() {
    let b = Built::new();
    let html = b.read("en/details/index.html");
    let observers = figure(&html, "observers");
    assert!(
        observers.contains(
            "<tr id=\"observer-obs1\" class=\"outcome-partial\"><th scope=\"row\"><strong>fixture observer</strong>"
        ),
        "{observers}"
    );
    assert!(!observers.contains("<tr id=\"observer-obs1\" class=\"outcome-partial\"><td>"));
    let bundles = figure(&html, "bundles");
    assert_eq!(
        bundles.matches("<th scope=\"row\">").count(),
        bundles.matches("<tr id=").count()
    );
}

/// A page of prose titled `title` with one block per language.
fn page(title: &str, ja: &str, en: &str) -> String {
    format!(
        "---\ntitle: {{ja: \"{title}\", en: \"{title}\"}}\norder: 50\n---\n\n\
         :::ja\n{ja}\n:::\n\n:::en\n{en}\n:::\n"
    )
}

/// Writes `text` as `content/notes/<name>` of the site at `root`.
fn write_note(root: &std::path::Path, name: &str, text: &str) {
    let notes = root.join("content/notes");
    std::fs::create_dir_all(&notes).unwrap();
    std::fs::write(notes.join(name), text).unwrap();
}

/// `check` renders only the pages whose fragments it must judge, and the pages those
/// point to: a fragment between two pages of prose alone (no directive, neither the home
/// page) is still judged, written as `@/page#id` or as a relative link, and a heading's
/// id passes in every view (the interleaved view's heading ids carry the language, and
/// so do the links to them).
#[test]
fn fragments_between_pages_of_prose_alone_are_judged() {
    let dir = fixture_copy();
    let write = |name: &str, text: String| write_note(dir.path(), name, &text);
    write(
        "a.md",
        page(
            "A",
            "[見出し](@/notes/b#real) [ない](@/notes/b#nope)",
            "[heading](@/notes/b#real) [relative](../b/index.html#gone)",
        ),
    );
    write("b.md", page("B", "## Real\n\n本文。", "## Real\n\nText."));
    write("c.md", page("C", "[b](@/notes/b)", "[b](@/notes/b)"));
    let (code, report) = check_json(dir.path());
    assert_eq!(code, 1, "{}", report.summary());
    let mut broken: Vec<(&str, &str)> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "broken-fragment")
        .map(|d| (d.span.file.as_str(), d.message.as_str()))
        .collect();
    broken.sort();
    assert_eq!(broken.len(), 2, "{}", report.summary());
    assert_eq!(broken[0].0, "content/notes/a.md");
    assert!(
        broken[0].1.contains("`#gone` on page `notes/b`"),
        "{}",
        broken[0].1
    );
    assert!(
        broken[1].1.contains("`#nope` on page `notes/b`"),
        "{}",
        broken[1].1
    );
    assert_eq!(report.diagnostics.len(), 2, "{}", report.summary());
}

/// `@/page#heading` reaches the heading in every view: the interleaved view gives each
/// language's headings ids of their own (`en-real`), and a block's link to another page's
/// heading takes its language the same way, while a fragment that names no heading of
/// that language (a record's row) stays as written.
#[test]
fn a_link_to_another_pages_heading_reaches_it_in_every_view() {
    let dir = fixture_copy();
    let write = |name: &str, text: String| write_note(dir.path(), name, &text);
    write(
        "a.md",
        page(
            "A",
            "[見出し](@/notes/b#real) [行](@/details#observer-obs1)",
            "[heading](@/notes/b#real) [row](@/details#observer-obs1) [ja only](@/notes/b#本文)",
        ),
    );
    write(
        "b.md",
        page(
            "B",
            "## 本文\n\nテキスト。\n\n## Real\n\n本文。",
            "## Real\n\nText.",
        ),
    );
    let out = dir.path().join("out");
    let run = build(dir.path(), Some(&out));
    // The en block's link to a heading only the ja blocks have is broken in every view
    // that shows the en block.
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("`#本文` on page `notes/b`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("content/notes/a.md:11:"),
        "{}",
        run.stderr
    );
    write(
        "a.md",
        page(
            "A",
            "[見出し](@/notes/b#real) [行](@/details#observer-obs1) [本文](@/notes/b#本文)",
            "[heading](@/notes/b#real) [row](@/details#observer-obs1)",
        ),
    );
    let run = build(dir.path(), Some(&out));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let read = |f: &str| std::fs::read_to_string(out.join(f)).unwrap();
    let both = read("notes/a/index.html");
    for href in [
        "notes/b/index.html#ja-real\"",
        "notes/b/index.html#en-real\"",
        "notes/b/index.html#ja-%E6%9C%AC%E6%96%87\"",
        "details/index.html#observer-obs1\"",
    ] {
        assert!(both.contains(href), "{href} in {both}");
    }
    let target = read("notes/b/index.html");
    assert!(target.contains("id=\"en-real\"") && target.contains("id=\"ja-real\""));
    for view in ["ja", "en"] {
        let one = read(&format!("{view}/notes/a/index.html"));
        assert!(one.contains("notes/b/index.html#real\""), "{one}");
        assert!(one.contains("details/index.html#observer-obs1\""), "{one}");
    }
}

/// A text of the data links to a page's heading as a block does: in the interleaved view
/// the link takes its language's prefix, as the heading's id does.
#[test]
fn a_data_text_links_to_a_pages_heading_in_every_view() {
    let dir = fixture_copy();
    common::replace_once(
        dir.path(),
        "data/claims.yaml",
        "en: \"What the fixture can show.\"",
        "en: \"What the fixture [can show](@/details#tables).\"",
    );
    common::replace_once(
        dir.path(),
        "data/claims.yaml",
        "ja: \"フィクスチャで示せること。\"",
        "ja: \"フィクスチャで[示せること](@/details#表)。\"",
    );
    let out = dir.path().join("out");
    let run = build(dir.path(), Some(&out));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let read = |f: &str| std::fs::read_to_string(out.join(f)).unwrap();
    let both = read("index.html");
    assert!(both.contains("details/index.html#en-tables\""), "{both}");
    assert!(both.contains("details/index.html#ja-%E8%A1%A8\""), "{both}");
    assert!(read("en/index.html").contains("details/index.html#tables\""));
    assert!(read("ja/index.html").contains("details/index.html#%E8%A1%A8\""));
}

/// Appends a Japanese and an English block of `links` to the fixture's home page and
/// checks the site, which fails: the home page's text before them, the report and its
/// `broken-fragment` diagnostics (the Japanese block's links are on line `text lines + 3`).
fn check_with_links(dir: &std::path::Path, ja: &str, en: &str) -> (String, Report) {
    let page = dir.join("content/index.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &page,
        format!("{text}\n:::ja\n{ja}\n:::\n:::en\n{en}\n:::\n"),
    )
    .unwrap();
    let (code, report) = check_json(dir);
    assert_eq!(code, 1, "{}", report.summary());
    (text, report)
}

/// The `broken-fragment` diagnostics of `report`.
fn broken_fragments(report: &Report) -> Vec<&Diag> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.code == "broken-fragment")
        .collect()
}

/// A broken fragment near an id its target page has names that id, placed at the link
/// in the page as loaded; one near no id suggests nothing.
#[test]
fn a_broken_fragment_suggests_the_nearest_id_of_its_target() {
    let dir = fixture_copy();
    let (text, report) = check_with_links(
        dir.path(),
        "[近い](@/details#observer-obs2) [遠い](@/details#zzzzzzzzzzzzzzzzzzzz)",
        "[near](@/details#observer-obs2) [far](@/details#zzzzzzzzzzzzzzzzzzzz)",
    );
    let broken = broken_fragments(&report);
    assert_eq!(broken.len(), 2, "{}", report.summary());
    let near = broken
        .iter()
        .find(|d| d.message.contains("`#observer-obs2`"))
        .unwrap();
    assert!(
        near.message.ends_with("did you mean `#observer-obs1`?"),
        "{}",
        near.message
    );
    assert_eq!(
        (near.span.file.as_str(), near.span.line, near.span.column),
        ("content/index.md", text.lines().count() + 3, 15),
        "{}",
        report.summary()
    );
    let far = broken
        .iter()
        .find(|d| d.message.contains("`#zzzzzzzzzzzzzzzzzzzz`"))
        .unwrap();
    assert!(!far.message.contains("did you mean"), "{}", far.message);
}

/// A link to an id its target page does not have is an error at the link, whether the
/// page is another one (`@/details#nope`) or the same; ids the pages really have pass,
/// and nothing is written.
#[test]
fn a_fragment_the_target_page_lacks_is_an_error_at_the_link() {
    let dir = fixture_copy();
    let (text, report) = check_with_links(
        dir.path(),
        "[正しい](@/details#observer-obs1) [壊れた](@/details#bundles-of-nowhere) [ここ](#nowhere)",
        "[fine](@/details#observer-obs1) [broken](@/details#bundles-of-nowhere) [here](#nowhere)",
    );
    let broken = broken_fragments(&report);
    assert_eq!(broken.len(), 2, "{}", report.summary());
    let line = text.lines().count() + 3;
    assert!(
        broken[0]
            .message
            .contains("`#bundles-of-nowhere` on page `details`"),
        "{}",
        report.summary()
    );
    assert_eq!(
        (broken[0].span.file.as_str(), broken[0].span.line),
        ("content/index.md", line)
    );
    assert!(
        broken[1].message.contains("`#nowhere` on page `index`"),
        "{}",
        report.summary()
    );
    let out = dir.path().join("out");
    let b = evidence()
        .args(["build", "--root"])
        .arg(dir.path())
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(!b.status.success());
    assert!(!out.exists());
}

/// The built-in templates render a page's frame and splice its body and a table's rows in;
/// the same templates as the site's own, changed by a comment alone, go through Tera whole.
/// Both give the same bytes, and a site's own template sees the body and rows themselves,
/// not a stand-in.
#[test]
fn spliced_pages_match_pages_rendered_whole_by_the_templates() {
    let builtin = Built::new();
    let dir = fixture_copy();
    for t in ["base.html", "page.html", "table.html"] {
        let mut text = std::fs::read(manifest_dir().join("templates").join(t)).unwrap();
        // Not the built-in bytes, which a site's copy may have and be spliced.
        text.extend_from_slice(b"{# the site's own #}");
        write_file(dir.path(), &format!("templates/{t}"), &text);
    }
    let out = dir.path().join("out");
    build_ok(dir.path(), &out);
    let (a, b) = (read_tree(&builtin.out), read_tree(&out));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (file, bytes) in &a {
        assert!(bytes == &b[file], "{file} differs");
    }
    // The fixture has a run table, so both splices were taken.
    assert!(
        builtin
            .read("details/index.html")
            .contains("<tr><th scope=\"row\"><code>small")
    );

    // A template of the site's own that does more with the body than show it once.
    replace_once(
        dir.path(),
        "templates/page.html",
        "{{ body | safe }}",
        "<p class=\"size\">{{ body | length }}</p>{{ body | safe }}",
    );
    replace_once(
        dir.path(),
        "templates/table.html",
        "{{ rows_html | safe }}",
        "{{ rows_html | safe }}<!-- {{ rows_html | length }} -->",
    );
    build_ok(dir.path(), &out);
    let page = std::fs::read_to_string(out.join("details/index.html")).unwrap();
    let size: usize = page
        .split("<p class=\"size\">")
        .nth(1)
        .and_then(|r| r.split('<').next())
        .and_then(|n| n.parse().ok())
        .expect("the size paragraph");
    assert!(size > 1000, "{size}");
    assert!(!page.contains('\u{FDD0}'));
    let rows: usize = page
        .split("</tr>\n<!-- ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the rows' length");
    assert!(rows > 100, "{rows}");
}
