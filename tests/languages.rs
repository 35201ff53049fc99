//! Languages a site names in `evidence.yaml`: the three-language fixture
//! (`tests/fixtures/three_languages`: English, German, Japanese) builds a view per language
//! and an interleaved one, and every text, block or message that lacks a language is an
//! error at its place.

mod common;

use common::*;
use std::path::Path;

/// A copy of the three-language fixture.
fn three() -> tempfile::TempDir {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(
        &manifest_dir().join("tests/fixtures/three_languages"),
        site.path(),
    );
    site
}

/// The fixture's files that hold texts or blocks in each language.
const TEXT_FILES: [&str; 7] = [
    "evidence.yaml",
    "data/vocabulary.yaml",
    "data/maps.yaml",
    "data/runs/morning.yaml",
    "data/visits.yaml",
    "data/claims.yaml",
    "content/index.md",
];

fn read(out: &Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn three_languages_make_four_views() {
    let site = three();
    let (exit, report) = check_json(site.path());
    assert_eq!(exit, 0, "{}", report.summary());
    assert_eq!(report.warnings, 0, "{}", report.summary());
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());

    // The interleaved view leads with the first language; the others are translations.
    let all = read(out.path(), "index.html");
    assert!(all.contains("<html lang=\"en\" data-view=\"interleaved\">"));
    assert_eq!(block_langs(&all), ["en", "de", "ja"]);
    assert!(all.contains("<div class=\"block tr\" lang=\"de\">"));
    assert!(all.contains("<link rel=\"alternate\" hreflang=\"x-default\""));

    // One view per language, each in its own folder and wholly in its language.
    for (tag, title, heat) in [
        ("en", "When the thermostat heats", "Heat"),
        ("de", "Wann der Thermostat heizt", "Heizen"),
        ("ja", "サーモスタットが暖房を入れるとき", "暖房"),
    ] {
        let page = read(out.path(), &format!("{tag}/index.html"));
        assert!(
            page.contains(&format!("<html lang=\"{tag}\" data-view=\"{tag}\">")),
            "{tag}"
        );
        assert_eq!(block_langs(&page), [tag]);
        assert!(page.contains(title), "{tag}: no title {title}");
        // The map's routes carry the site's own labels in each language.
        assert!(
            figure(&page, "dispatch-map").contains(heat),
            "{tag}: no {heat}"
        );
        let body = without_switcher(&page);
        for other in ["en", "de", "ja"].iter().filter(|o| **o != tag) {
            assert!(
                !body.contains(&format!(" lang=\"{other}\"")),
                "{tag}/index.html has an element in {other}"
            );
        }
        // The switcher names each language in itself.
        assert!(page.contains("<span lang=\"de\">Deutsch</span>"));
        assert!(page.contains("<span lang=\"ja\">日本語</span>"));
    }
    // The theme's words in German, the declared collection's labels and its unit.
    let de = read(out.path(), "de/index.html");
    assert!(de.contains("Zum Inhalt springen"));
    let table = figure(&de, "declared declared-visit");
    assert!(table.contains("<th scope=\"col\">Notiz</th>"), "{table}");
    assert!(
        table.contains("21 °C") || table.contains("21.0 °C"),
        "{table}"
    );
    assert!(table.contains("Referenzthermometer"));
    // evidence.json keeps every language of a text.
    let json = read(out.path(), "evidence.json");
    assert!(json.contains("\"de\": \"Von Hand am Display des Thermostats abgelesen.\""));
}

#[test]
fn numbers_are_written_as_each_language_writes_them() {
    let site = three();
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());
    let page = |prefix: &str| without_switcher(&read(out.path(), &format!("{prefix}index.html")));
    let quote = |n: &str| format!("<span class=\"value\">{n}</span>");
    let cell = |n: &str| format!("<td>{n}</td>");
    // A quote in prose: the decimal comma in German, the point in English and Japanese.
    let de = page("de/");
    assert!(de.contains(&format!("Bei {} °C", quote("18,2"))), "{de}");
    // The run's table of values, in German.
    assert!(
        de.contains(&cell("18,2")) && de.contains(&cell("24,1")),
        "{de}"
    );
    assert!(!de.contains("18.2"), "{de}");
    for prefix in ["en/", "ja/"] {
        let p = page(prefix);
        assert!(
            p.contains(&quote("18.2")) && p.contains(&cell("18.2")),
            "{prefix}"
        );
        assert!(!p.contains("18,2"), "{prefix}");
    }
    // The interleaved view's table writes as English, its first language, does; each
    // block quotes as its own language writes.
    let all = page("");
    assert!(all.contains(&cell("18.2")) && !all.contains(&cell("18,2")));
    assert!(all.contains(&format!("At {} °C", quote("18.2"))));
    assert!(all.contains(&format!("Bei {} °C", quote("18,2"))));
    // A figure's labels and its text alternative, in German and in English.
    let svg = |tag: &str| {
        read(
            out.path(),
            &format!("figures/index/proxy-morning.{tag}.svg"),
        )
    };
    assert!(svg("de").contains("early · 18,2"), "{}", svg("de"));
    assert!(svg("en").contains("early · 18.2"));
    // The text alternative gives the value with its unit.
    assert!(de.contains("early 18,2 °C → Heizen"), "{de}");
    // A declared collection's number field, with its unit.
    assert!(figure(&de, "declared declared-visit").contains("21,5 °C"));
    assert!(figure(&page("en/"), "declared declared-visit").contains("21.5 °C"));
}

#[test]
fn one_language_is_one_view_at_the_root() {
    let site = three();
    let root = site.path();
    replace_once(
        root,
        "evidence.yaml",
        "languages: [en, de, ja]",
        "languages: [de]",
    );
    // Every text and block keeps only German.
    for file in TEXT_FILES {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let kept: String = text
            .lines()
            .filter(|l| {
                let t = l.trim_start();
                !(t.starts_with("en:") || t.starts_with("ja:"))
            })
            .map(|l| {
                // Inline texts: `{en: "…", de: "…", ja: "…"}` keep their `de`.
                let mut l = l.to_string();
                while let Some(i) = l.find("{en: ") {
                    let Some(j) = l[i..].find(", de: ").map(|j| i + j) else {
                        break;
                    };
                    l.replace_range(i + 1..j + 2, "");
                }
                while let Some(i) = l.find(", ja: ") {
                    let Some(j) = l[i..].find('}').map(|j| i + j) else {
                        break;
                    };
                    l.replace_range(i..j, "");
                }
                l + "\n"
            })
            .collect();
        std::fs::write(root.join(file), kept).unwrap();
    }
    let page = std::fs::read_to_string(root.join("content/index.md")).unwrap();
    let de_only = page
        .split(":::en\n")
        .next()
        .map(str::to_string)
        .unwrap_or_default()
        + &page[page.find(":::de\n").unwrap()..page.find(":::ja\n").unwrap()]
        + &page[page.find("::dispatch-map").unwrap()..];
    std::fs::write(root.join("content/index.md"), de_only).unwrap();

    let (exit, report) = check_json(root);
    assert_eq!(exit, 0, "{}", report.summary());
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(root, out.path());
    let home = read(out.path(), "index.html");
    assert!(home.contains("<html lang=\"de\" data-view=\"de\">"));
    assert_eq!(block_langs(&home), ["de"]);
    assert!(
        !home.contains("x-default"),
        "one view has no default to choose"
    );
    assert!(
        !out.path().join("de").exists(),
        "no folder for the only view"
    );
}

#[test]
fn a_text_without_one_of_the_languages_is_an_error_at_its_place() {
    let site = three();
    replace_once(
        site.path(),
        "data/runs/morning.yaml",
        "  de: \"Von Hand am Display des Thermostats abgelesen.\"\n",
        "",
    );
    let found = check_errors(site.path(), "schema", "missing field `de`");
    assert_eq!(found, [("data/runs/morning.yaml".to_string(), 6, 3)]);
}

#[test]
fn a_text_in_another_language_is_an_error_at_its_place() {
    let site = three();
    replace_once(
        site.path(),
        "data/maps.yaml",
        "label: {en: \"Idle\", de: \"Ruhe\", ja: \"待機\"}",
        "label: {en: \"Idle\", de: \"Ruhe\", ja: \"待機\", fr: \"Repos\"}",
    );
    let found = check_errors(site.path(), "schema", "unknown language `fr`");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].0.as_str(), found[0].1), ("data/maps.yaml", 6));
}

#[test]
fn a_page_block_missing_a_language_is_an_error_at_its_group() {
    let site = three();
    replace_once(
        site.path(),
        "content/index.md",
        ":::de\n## Modi\n\nBei :v[run:morning.cases.early.measurements.indoor_c] °C heizt der Thermostat.\n:::\n",
        "",
    );
    let found = check_errors(site.path(), "unpaired-block", "has no de translation");
    assert_eq!(found, [("content/index.md".to_string(), 9, 1)]);
}

#[test]
fn a_block_in_another_language_is_an_error_at_its_line() {
    let site = three();
    replace_once(site.path(), "content/index.md", ":::de\n", ":::fr\n");
    let found = check_errors(site.path(), "block", "unknown block language `fr`");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].0.as_str(), found[0].1), ("content/index.md", 15));
}

#[test]
fn a_message_missing_in_one_language_is_an_error_naming_its_file() {
    let site = three();
    let root = site.path();
    write_file(root, "locales/en/site.ftl", b"site-note = A note.\n");
    write_file(
        root,
        "locales/ja/site.ftl",
        b"site-note = \xe6\xb3\xa8\xe3\x80\x82\n",
    );
    let found = check_errors(
        root,
        "missing-translation",
        "`site-note` has no de translation",
    );
    assert_eq!(found, [("locales/de/site.ftl".to_string(), 0, 0)]);
}

#[test]
fn a_language_the_theme_lacks_needs_its_messages() {
    let site = three();
    let root = site.path();
    // French instead of German: every text must say it in French, and the theme has no
    // French words; that is said once, not once per message.
    for file in TEXT_FILES {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let text = text
            .replace("languages: [en, de, ja]", "languages: [en, fr, ja]")
            .replace(" de: ", " fr: ")
            .replace(":::de\n", ":::fr\n");
        std::fs::write(root.join(file), text).unwrap();
    }
    let found = check_errors(root, "missing-translation", "no Fluent messages in `fr`");
    assert_eq!(found, [("locales/fr/evidence.ftl".to_string(), 0, 0)]);
    let (_, report) = check_json(root);
    assert_eq!(report.errors, 1, "{}", report.summary());
}

#[test]
fn the_languages_themselves_are_checked() {
    for (languages, says, column) in [
        (
            "[en, de, ja, fr]",
            "4 languages: a site writes in one to 3",
            25,
        ),
        ("[en, de, en]", "`en` is listed twice", 21),
        ("[en, \"d e\", ja]", "is not a language tag", 17),
    ] {
        let site = three();
        replace_once(
            site.path(),
            "evidence.yaml",
            "languages: [en, de, ja]",
            &format!("languages: {languages}"),
        );
        let found = check_errors(site.path(), "config", says);
        assert_eq!(
            found,
            [("evidence.yaml".to_string(), 3, column)],
            "{languages}"
        );
    }
}

#[test]
fn a_declared_text_field_needs_every_language() {
    let site = three();
    replace_once(
        site.path(),
        "data/visits.yaml",
        "    ja: \"表示と基準温度計の差は 0.2 ℃ 以内だった。\"\n",
        "",
    );
    let found = check_errors(
        site.path(),
        "schema",
        "a text in each of the site's languages",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].0.as_str(), found[0].1), ("data/visits.yaml", 3));
}

#[test]
fn a_group_follows_the_order_of_the_languages() {
    let site = three();
    // Japanese before German: the site's order is en, de, ja.
    let page = std::fs::read_to_string(site.path().join("content/index.md")).unwrap();
    let de = &page[page.find(":::de\n").unwrap()..page.find(":::ja\n").unwrap()];
    let ja = &page[page.find(":::ja\n").unwrap()..page.find("::dispatch-map").unwrap()];
    let swapped = page.replacen(&format!("{de}{ja}"), &format!("{ja}{de}"), 1);
    assert_ne!(swapped, page);
    std::fs::write(site.path().join("content/index.md"), swapped).unwrap();
    let found = check_errors(site.path(), "block-order", "in the order en, ja, de");
    assert_eq!(found, [("content/index.md".to_string(), 9, 1)]);
}

#[test]
fn a_page_may_not_take_a_language_folder() {
    let site = three();
    write_file(
        site.path(),
        "content/de.md",
        "---\ntitle: {en: \"D\", de: \"D\", ja: \"D\"}\n---\n".as_bytes(),
    );
    let found = check_errors(site.path(), "page-path", "the folder of the de view");
    assert_eq!(found, [("content/de.md".to_string(), 0, 0)]);
}

#[test]
fn a_language_may_not_take_a_folder_of_the_site() {
    let site = three();
    replace_once(
        site.path(),
        "evidence.yaml",
        "languages: [en, de, ja]",
        "languages: [en, static]",
    );
    let found = check_errors(
        site.path(),
        "config",
        "`static` names a folder of the built site",
    );
    assert_eq!(found, [("evidence.yaml".to_string(), 3, 17)]);
}

/// A copy of the planner fixture (`tests/fixtures/planner`: Japanese and English, no pack).
fn planner() -> tempfile::TempDir {
    let site = tempfile::tempdir().expect("tempdir");
    copy_dir(&manifest_dir().join("tests/fixtures/planner"), site.path());
    site
}

/// A component's or observer's name may be written per language: each view shows its
/// own in the tables and figures, while a plain name is the same in every view.
#[test]
fn a_name_may_be_written_in_each_language() {
    let site = planner();
    replace_once(
        site.path(),
        "data/components.yaml",
        "name: Heap access",
        "name: {ja: \"ヒープの読み出し\", en: \"Heap access\"}",
    );
    replace_once(
        site.path(),
        "data/observers.yaml",
        "name: strace --attach",
        "name: {ja: \"後からのアタッチ\", en: \"Attaching strace\"}",
    );
    let (exit, report) = check_json(site.path());
    assert_eq!(exit, 0, "{}", report.summary());
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());
    for (tag, own, other) in [
        (
            "ja",
            ["ヒープの読み出し", "後からのアタッチ"],
            ["Heap access", "Attaching strace"],
        ),
        (
            "en",
            ["Heap access", "Attaching strace"],
            ["ヒープの読み出し", "後からのアタッチ"],
        ),
    ] {
        let page = read(out.path(), &format!("{tag}/index.html"));
        for class in ["components", "observers"] {
            let table = figure(&page, class);
            assert!(
                table.contains(own[0]) || table.contains(own[1]),
                "{tag} {class}"
            );
            assert!(!other.iter().any(|o| table.contains(o)), "{tag} {class}");
        }
        // A plain name is every view's.
        assert!(figure(&page, "components").contains("Planner"), "{tag}");
        for figure in ["library-chain", "observer-map"] {
            let svg = read(out.path(), &format!("figures/index/{figure}.{tag}.svg"));
            assert!(own.iter().any(|o| svg.contains(o)), "{tag} {figure}");
            assert!(!other.iter().any(|o| svg.contains(o)), "{tag} {figure}");
        }
    }
    // evidence.json keeps the name as written, in both languages.
    let json = read(out.path(), "evidence.json");
    assert!(json.contains("\"ja\": \"ヒープの読み出し\""), "{json}");
}

/// The theme's Japanese words for one thing are one: a site of no pack and no messages of
/// its own (the planner) calls a map's zone 範囲 in its tables, notes and figures alike,
/// never 圏 in some and 範囲 in others.
#[test]
fn the_theme_writes_a_zone_one_way_in_japanese() {
    let site = planner();
    let out = tempfile::tempdir().expect("tempdir");
    build_ok(site.path(), out.path());
    let mut ja = String::new();
    for page in ["ja/index.html", "ja/runs/index.html", "ja/maps/index.html"] {
        ja.push_str(&read(out.path(), page));
    }
    assert!(ja.contains("範囲"), "the zone word is used");
    let mixed: Vec<&str> = ja.lines().filter(|l| l.contains('圏')).collect();
    assert!(mixed.is_empty(), "{mixed:#?}");
}

/// A built-in message the site redefines in English and German but not in Japanese leaves
/// the Japanese view with the theme's text: a warning at the redefinition, naming `ja`.
#[test]
fn a_message_redefined_in_some_languages_only_is_a_warning() {
    let site = three();
    write_file(
        site.path(),
        "locales/en/site.ftl",
        b"table-empty = Nothing measured yet.\n",
    );
    write_file(
        site.path(),
        "locales/de/site.ftl",
        b"table-empty = Noch nichts gemessen.\n",
    );
    let (exit, report) = check_json(site.path());
    assert_eq!(exit, 0, "a warning, not an error: {}", report.summary());
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "partial-override")
        .collect();
    assert_eq!(found.len(), 1, "{}", report.summary());
    assert_eq!(found[0].span.file, "locales/en/site.ftl");
    assert_eq!(found[0].span.line, 1);
    assert!(
        found[0].message.contains("`table-empty`") && found[0].message.contains("`ja`"),
        "{}",
        found[0].message
    );
    // Redefined in every language: nothing to say.
    write_file(
        site.path(),
        "locales/ja/site.ftl",
        "table-empty = まだ何も測っていない。\n".as_bytes(),
    );
    let (_, report) = check_json(site.path());
    assert_eq!(report.warnings, 0, "{}", report.summary());
}
