//! The three formats of one report that has something in every section, line by line.
//!
//! The report is built by hand, so each expected line below says what a reviewer reads
//! for one kind of change; `tests/diff.rs` covers how real sites become reports.

use super::*;
use evidence_core::model::format::Decimal;

fn two(ja: &str, en: &str) -> evidence_core::model::Text {
    use evidence_core::model::page::Lang;
    evidence_core::model::Text::new([(Lang::JA, ja.to_string()), (Lang::EN, en.to_string())])
}

fn field(path: &str, old: Option<&str>, new: Option<&str>) -> FieldChange {
    FieldChange {
        path: path.into(),
        old: old.map(Into::into),
        new: new.map(Into::into),
    }
}

fn claim(id: &str, change: Change, moved: Option<Move>) -> ClaimChange {
    ClaimChange {
        id: id.into(),
        page: "p1".into(),
        change,
        moved,
        fields: Vec::new(),
        drift: Vec::new(),
    }
}

fn run_ref(id: &str, date: Option<&str>) -> RunRef {
    RunRef {
        id: id.into(),
        probe: "sweep".into(),
        date: date.map(Into::into),
        engine: "server".into(),
        served: [("model".to_string(), "m:7b".to_string())].into(),
        environment: [("device", "accelerator-1"), ("host", "lab-a")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        subject: None,
        shown: None,
    }
}

/// Two moved claims and three other claim changes, three rewrites, runs added, removed and
/// compared, a map whose change flips two cases, records, prose and pages.
fn full() -> Report {
    let mut changed = claim("c5", Change::Changed, None);
    changed.fields = vec![field("text.en", Some("old"), Some("new"))];
    changed.drift = vec![Drift {
        path: "text".into(),
        changed: "en",
    }];
    Report {
        base: "v1".into(),
        head: "v2".into(),
        rewrites: vec![
            Rewrite {
                file: "data/runs/a.yaml".into(),
                run: "a".into(),
                change: Change::Changed,
                renamed_to: None,
                fields: Vec::new(),
                line: Some(4),
            },
            Rewrite {
                file: "data/runs/b.yaml".into(),
                run: "b".into(),
                change: Change::Removed,
                renamed_to: Some("data/runs/c.yaml".into()),
                fields: Vec::new(),
                line: None,
            },
            Rewrite {
                file: "data/runs/d.yaml".into(),
                run: "d".into(),
                change: Change::Changed,
                renamed_to: None,
                fields: vec![field("cases[k1].n", Some("1"), Some("2"))],
                line: Some(12),
            },
        ],
        claims: vec![
            claim(
                "c1",
                Change::Changed,
                Some(Move {
                    direction: "cannot-to-can",
                    from_claim: "c0".into(),
                    text: two("文", "a  text\nthat   wraps"),
                    text_before: Some(two("旧", "an old text")),
                    evidence_added: vec!["run:a".into(), "observer:o".into()],
                    constraint_before: None,
                    constraint_after: Some("n ≥ 2".into()),
                }),
            ),
            claim(
                "c2",
                Change::Changed,
                Some(Move {
                    direction: "can-to-cannot",
                    from_claim: "c2".into(),
                    text: two("文", &"x".repeat(91)),
                    text_before: None,
                    evidence_added: Vec::new(),
                    constraint_before: Some("k".into()),
                    constraint_after: Some("k".into()),
                }),
            ),
            claim("c3", Change::Added, None),
            claim("c4", Change::Removed, None),
            changed,
        ],
        runs: RunsChange {
            added: vec![run_ref("r2", Some("2026-01-02")), run_ref("r3", None)],
            removed: vec![run_ref("r0", Some("2025-12-31"))],
            latest: vec![
                LatestChange {
                    probe: "sweep".into(),
                    base_run: "r1".into(),
                    head_run: "r3".into(),
                    cases: vec![CaseChange {
                        repeats: None,
                        case: "k1".into(),
                        values: vec![
                            ValueDelta {
                                field: "eval_count".into(),
                                old: Some(Decimal(10.0)),
                                new: Some(Decimal(7.0)),
                                delta: Some(Decimal(-3.0)),
                                percent: None,
                                unit: None,
                            },
                            ValueDelta {
                                field: "eval_ms".into(),
                                old: None,
                                new: Some(Decimal(3.0)),
                                delta: None,
                                percent: None,
                                unit: None,
                            },
                        ],
                        zones: vec![ZoneFlip {
                            map: "m".into(),
                            old: Some("low".into()),
                            new: None,
                            assessed_against: None,
                        }],
                    }],
                    cases_added: Vec::new(),
                    cases_dropped: Vec::new(),
                },
                LatestChange {
                    probe: "other".into(),
                    base_run: "q1".into(),
                    head_run: "q2".into(),
                    cases: Vec::new(),
                    cases_added: Vec::new(),
                    cases_dropped: Vec::new(),
                },
            ],
        },
        maps: vec![MapChange {
            id: "m".into(),
            variable: "rows".into(),
            change: Change::Changed,
            fields: vec![field("bounds[low].max", Some("8"), Some("9"))],
            flips: vec![
                CaseFlip {
                    run: "r3".into(),
                    case: "k2".into(),
                    value: Decimal(9.0),
                    old: Some("high".into()),
                    new: Some("low".into()),
                    assessed_against: None,
                },
                CaseFlip {
                    run: "r3".into(),
                    case: "k3".into(),
                    value: Decimal(1.0),
                    old: None,
                    new: Some("low".into()),
                    assessed_against: None,
                },
            ],
            before_svg: None,
            after_svg: None,
            flip_plots: Vec::new(),
        }],
        records: vec![
            RecordChange {
                kind: "observer".into(),
                id: "o".into(),
                change: Change::Changed,
                fields: vec![field("name.en", Some("a|b"), Some("<x>"))],
                drift: vec![Drift {
                    path: "name".into(),
                    changed: "en",
                }],
            },
            RecordChange {
                kind: "glossary".into(),
                id: "g".into(),
                change: Change::Added,
                fields: Vec::new(),
                drift: Vec::new(),
            },
        ],
        texts: vec![
            TextChange {
                page: "p1".into(),
                pair: 2,
                change: Change::Changed,
                langs: vec!["en"],
                drift: true,
                edits: vec![TextEdit {
                    lang: "en",
                    old: Some("a".into()),
                    new: Some("b".into()),
                }],
            },
            TextChange {
                page: "p2".into(),
                pair: 1,
                change: Change::Added,
                langs: vec!["ja", "en"],
                drift: false,
                edits: vec![TextEdit {
                    lang: "en",
                    old: None,
                    new: Some("c".into()),
                }],
            },
        ],
        pages: PagesChange {
            added: vec!["new".into()],
            removed: vec!["old".into()],
        },
        reread: vec![super::super::reread::Reread {
            changed: "map:m".into(),
            reason: super::super::reread::Reason::Changed,
            probe: None,
            cited_by: vec!["claim:c1".into(), "page:p1".into()],
            numbers: vec![super::super::reread::NumberSeen {
                number: "8".into(),
                place: "page:p1".into(),
            }],
        }],
        git_attributes: Vec::new(),
        languages: vec!["ja".into(), "en".into()],
        labels: Labels::default(),
    }
}

fn empty() -> Report {
    Report {
        base: "v1".into(),
        head: "v2".into(),
        rewrites: Vec::new(),
        claims: Vec::new(),
        runs: RunsChange::default(),
        maps: Vec::new(),
        records: Vec::new(),
        texts: Vec::new(),
        pages: PagesChange::default(),
        reread: Vec::new(),
        git_attributes: Vec::new(),
        languages: vec!["ja".into(), "en".into()],
        labels: Labels::default(),
    }
}

#[test]
fn summary_counts_every_kind_in_plural() {
    assert_eq!(
        summary(&full()),
        "3 run records rewritten, 2 claims moved between cannot-show and can-show, \
         3 other claim changes, 2 runs added, 1 run removed, 1 case changed in the latest runs, \
         3 derived zones flipped, 1 dispatch map changed, 1 record added, 1 record changed, \
         2 prose block pairs changed, 3 translation drifts, 1 page added, 1 page removed"
    );
}

#[test]
fn summary_words_one_of_each_in_the_singular() {
    let mut r = empty();
    r.rewrites = full().rewrites.into_iter().take(1).collect();
    r.claims = vec![claim("c3", Change::Added, None), full().claims.remove(0)];
    r.runs.added = vec![run_ref("r2", None)];
    r.records = full().records.into_iter().take(1).collect();
    assert_eq!(
        summary(&r),
        "1 run record rewritten, 1 claim moved between cannot-show and can-show, \
         1 other claim change, 1 run added, 1 record changed, 1 translation drift"
    );
    // An added record, and a removed one, are said as such, not as changed (issue 43).
    let mut added = empty();
    added.records = full().records.into_iter().skip(1).collect();
    assert_eq!(summary(&added), "1 record added");
    added.records[0].change = Change::Removed;
    assert_eq!(summary(&added), "1 record removed");
    assert_eq!(summary(&empty()), "no evidence changes");
}

#[test]
fn an_empty_report_is_empty_and_each_section_makes_it_not() {
    assert!(empty().is_empty());
    let sections: Vec<fn(&mut Report)> = vec![
        |r| r.rewrites = vec![rewrite_stub()],
        |r| r.claims = vec![claim("c", Change::Added, None)],
        |r| r.runs.added = vec![run_ref("r", None)],
        |r| r.runs.removed = vec![run_ref("r", None)],
        |r| r.maps = vec![map_stub()],
        |r| r.records = vec![record_stub()],
        |r| r.texts = vec![text_stub()],
        |r| r.pages.added = vec!["p".into()],
        |r| r.pages.removed = vec!["p".into()],
    ];
    for (i, add) in sections.iter().enumerate() {
        let mut r = empty();
        add(&mut r);
        assert!(
            !r.is_empty(),
            "section {i} alone should make the report non-empty"
        );
    }
    // A latest run with no changed case is not a change.
    let mut r = empty();
    r.runs.latest = full().runs.latest.into_iter().skip(1).collect();
    assert!(r.is_empty());
}

fn rewrite_stub() -> Rewrite {
    Rewrite {
        file: "f".into(),
        run: "r".into(),
        change: Change::Changed,
        renamed_to: None,
        fields: Vec::new(),
        line: Some(1),
    }
}

fn map_stub() -> MapChange {
    MapChange {
        id: "m".into(),
        variable: "rows".into(),
        change: Change::Added,
        fields: Vec::new(),
        flips: Vec::new(),
        before_svg: None,
        after_svg: None,
        flip_plots: Vec::new(),
    }
}

fn record_stub() -> RecordChange {
    RecordChange {
        kind: "k".into(),
        id: "i".into(),
        change: Change::Added,
        fields: Vec::new(),
        drift: Vec::new(),
    }
}

fn text_stub() -> TextChange {
    TextChange {
        page: "p".into(),
        pair: 1,
        change: Change::Added,
        langs: vec!["en"],
        drift: false,
        edits: Vec::new(),
    }
}

#[test]
fn text_shows_every_section() {
    let expected = format!(
        "evidence diff v1 → v2
{summary}

Run records rewritten — run records are never rewritten: add a new run instead
  ! data/runs/a.yaml (run a) changed
      its text changed; no recorded value differs (a comment or the layout)
  ! data/runs/b.yaml (run b) renamed to data/runs/c.yaml
  ! data/runs/d.yaml (run d) changed
      cases[k1].n: 1 → 2

Claims
  ⇄ c1 (p1) moved cannot-to-can: \"a text that wraps\"
      was: \"an old text\"
      from claim c0
      evidence added: run:a, observer:o
      constraint: — → n ≥ 2
  ⇄ c2 (p1) moved can-to-cannot: \"{x91}\"
  + c3 (p1) added
  - c4 (p1) removed
  ~ c5 (p1) changed
      text.en: old → new
      translation drift: text changed only in en

Runs
  + r2 (sweep, engine server, model m:7b, 2026-01-02, device accelerator-1, host lab-a)
  + r3 (sweep, engine server, model m:7b, date unknown, device accelerator-1, host lab-a)
  - r0 (sweep)
  latest sweep: r1 → r3
      k1 eval_count: 10 → 7 (-3)
      k1 eval_ms: — → 3
      k1 zone under m: low → —
  latest other: q1 → q2

Dispatch maps
  ~ m changed
      bounds[low].max: 8 → 9
      flips r3/k2 (rows = 9): high → low
      flips r3/k3 (rows = 1): — → low

Records
  ~ observer:o changed
      name.en: [-a|b-]{{+<x>+}}
      translation drift: name changed only in en
  + glossary:g added

Prose
  ~ p1 pair 2 (en)  translation drift: only en changed
      en: [-a-]{{+b+}}
  + p2 pair 1 (ja+en)
      en: c

Pages added
  + new

Pages removed
  - old

To re-read
  map:m changed
      cited or shown by: claim:c1, page:p1
      the old bound 8 is still written in page:p1
",
        summary = summary(&full()),
        x91 = "x".repeat(91),
    );
    assert_eq!(text(&full(), false), expected);
}

#[test]
fn text_in_colour_paints_added_removed_moved_and_breaches() {
    let t = text(&full(), true);
    for line in [
        "\x1b[1m\x1b[31m\nRun records rewritten — ",
        "\x1b[31m  ! data/runs/a.yaml (run a) changed\x1b[0m",
        "\x1b[1m\x1b[32m  ⇄ c1 (p1) moved cannot-to-can",
        "\x1b[32m  +\x1b[0m c3 (p1) added",
        "\x1b[31m  -\x1b[0m c4 (p1) removed",
        "\x1b[32m  + r2 (sweep, engine server, model m:7b, 2026-01-02, device accelerator-1, host lab-a)\x1b[0m",
        "\x1b[31m  - r0 (sweep)\x1b[0m",
        "\x1b[1m\x1b[33m      k1 zone under m: low → —\x1b[0m",
        "\x1b[33m  translation drift: only en changed\x1b[0m",
    ] {
        assert!(t.contains(line), "missing {line:?} in\n{t}");
    }
    assert!(!text(&full(), false).contains('\x1b'));
}

#[test]
fn markdown_shows_every_section() {
    let expected = format!(
        "### Evidence diff `v1` → `v2`

**{summary}**

- new run `r2`: sweep, engine server, model m:7b, 2026-01-02, device accelerator-1, host lab-a
- new run `r3`: sweep, engine server, model m:7b, date unknown, device accelerator-1, host lab-a

> [!CAUTION]
> **Run records rewritten (3)**: run records are never rewritten: add a new run instead.

- `data/runs/a.yaml` (run `a`) changed
  - its text changed; no recorded value differs (a comment or the layout)
- `data/runs/b.yaml` (run `b`) renamed to `data/runs/c.yaml`
- `data/runs/d.yaml` (run `d`) changed
  - `cases[k1].n`: 1 → 2

<details><summary>Claims (5)</summary>

| claim | page | change | detail |
|---|---|---|---|
| `c1` | p1 | **moved cannot-to-can** | “an old text” → “a text that wraps” (from `c0`); evidence added: `run:a`, `observer:o`; constraint: — → n ≥ 2 |
| `c2` | p1 | **moved can-to-cannot** | “{x91}”; evidence added: none |
| `c3` | p1 | added |  |
| `c4` | p1 | removed |  |
| `c5` | p1 | changed | `text.en`: old → new |

</details>

<details><summary>Probe runs (6)</summary>

- removed `r0` (sweep)

Latest `sweep`: `r1` → `r3`

| case | field | old | new | Δ |
|---|---|---:|---:|---:|
| `k1` | eval_count | 10 | 7 | -3 |
| `k1` | eval_ms | — | 3 |  |
| `k1` | **zone** under m | low | — | flipped |

Latest `other`: `q1` → `q2`


</details>

<details><summary>Dispatch maps (1)</summary>

- `m` changed
  - `bounds[low].max`: 8 → 9
  - flips `r3`/`k2` (rows = 9): high → low
  - flips `r3`/`k3` (rows = 1): — → low

</details>

<details><summary>Records (2)</summary>

| record | field | change |
|---|---|---|
| `observer:o` | `name.en` | <del>a\\|b</del><ins>&lt;x></ins> |
| `observer:o` | `name` | ⚠ translation drift: only en changed |
| `glossary:g` | *added* | |

</details>

<details><summary>Prose (2)</summary>

- `p1` pair 2 changed (en) — ⚠ **translation drift**: only en changed
  - en: <del>a</del><ins>b</ins>
- `p2` pair 1 added (ja+en)
  - en: c

</details>

<details><summary>To re-read (1)</summary>

- `map:m` changed
  - cited or shown by `claim:c1`, `page:p1`: check their wording
  - the old bound **8** is still written in `page:p1`

</details>

<details><summary>Pages (2)</summary>

- added `new`
- removed `old`

</details>

",
        summary = summary(&full()),
        x91 = "x".repeat(91),
    );
    assert_eq!(markdown(&full()), expected);
}

#[test]
fn markdown_cells_are_cut_at_120_characters() {
    let mut r = empty();
    let mut rec = record_stub();
    rec.fields = vec![field("a", Some(&"y".repeat(120)), Some(&"y".repeat(121)))];
    r.records = vec![rec];
    let md = markdown(&r);
    let cut = format!(
        "| <del>{}</del><ins>{}…</ins> |",
        "y".repeat(120),
        "y".repeat(120)
    );
    assert!(md.contains(&cut), "{md}");
}

#[test]
fn a_cut_text_ends_at_a_word_boundary_and_keeps_a_number_whole() {
    assert_eq!(
        short("between selectivity 0.005 and 0.2", 24),
        "between selectivity…"
    );
    assert_eq!(
        short("between selectivity 0.005 and 0.2", 25),
        "between selectivity 0.005…"
    );
    assert_eq!(short("短い文です", 3), "短い文…");
    // One word longer than the room is cut inside: nothing else would fit.
    assert_eq!(short(&"y".repeat(5), 3), "yyy…");
}

#[test]
fn refusal_names_each_rewritten_file() {
    assert_eq!(rewrites_refusal(&empty()), None);
    assert_eq!(
        rewrites_refusal(&full()).as_deref(),
        Some(
            "run records are never rewritten: add a new run instead\n  \
             data/runs/a.yaml:4 (run a) changed\n  \
             data/runs/b.yaml (run b) renamed to data/runs/c.yaml\n  \
             data/runs/d.yaml:12 (run d) changed"
        )
    );
}

#[test]
fn json_is_the_report_with_a_final_newline() {
    let j = json(&full());
    assert!(j.ends_with("}\n"));
    let v: serde_json::Value = serde_json::from_str(&j).expect("the JSON form parses");
    assert_eq!(v["rewrites"][1]["renamed_to"], "data/runs/c.yaml");
    assert!(v["rewrites"][0].get("renamed_to").is_none());
    assert_eq!(v["runs"]["latest"][0]["cases"][0]["values"][0]["delta"], -3);
    assert!(
        v["runs"]["latest"][0]["cases"][0]["values"][1]
            .get("delta")
            .is_none()
    );
}

#[test]
fn a_section_with_one_kind_of_change_still_shows() {
    let f = full();
    let only_added = Report {
        runs: RunsChange {
            added: f.runs.added,
            ..RunsChange::default()
        },
        ..empty()
    };
    let only_removed = Report {
        runs: RunsChange {
            removed: f.runs.removed,
            ..RunsChange::default()
        },
        ..empty()
    };
    let only_latest = Report {
        runs: RunsChange {
            latest: f.runs.latest,
            ..RunsChange::default()
        },
        ..empty()
    };
    for (r, line) in [
        (
            &only_added,
            "  + r2 (sweep, engine server, model m:7b, 2026-01-02, device accelerator-1, host lab-a)",
        ),
        (&only_removed, "  - r0 (sweep)"),
        (&only_latest, "  latest sweep: r1 → r3"),
    ] {
        assert!(
            text(r, false).contains(&format!("\nRuns\n{line}\n")),
            "{line}"
        );
        assert!(
            markdown(r).contains("<summary>Probe runs"),
            "{line}: {}",
            markdown(r)
        );
    }
    for pages in [
        PagesChange {
            added: vec!["new".into()],
            removed: Vec::new(),
        },
        PagesChange {
            added: Vec::new(),
            removed: vec!["old".into()],
        },
    ] {
        let r = Report { pages, ..empty() };
        assert!(markdown(&r).contains("<summary>Pages (1)</summary>"));
    }
}

#[test]
fn a_thousand_case_sweep_fits_in_one_comment() {
    let mut r = full();
    let case = |i: usize| CaseChange {
        case: format!("sweep-{i:04}"),
        repeats: None,
        values: [
            "prompt_eval_count",
            "prompt_eval_duration_ns",
            "eval_duration_ns",
            "load_duration_ns",
            "total_duration_ns",
        ]
        .iter()
        .map(|f| ValueDelta {
            field: f.to_string(),
            old: Some(Decimal(123_456_789.0)),
            new: Some(Decimal(123_999_999.0)),
            delta: Some(Decimal(543_210.0)),
            percent: None,
            unit: None,
        })
        .collect(),
        zones: Vec::new(),
    };
    r.runs.latest[0].cases = (0..1000).map(case).collect();
    let full_md = markdown(&r);
    assert!(
        full_md.chars().count() > COMMENT_LIMIT,
        "the test needs a long report"
    );
    let md = capped(&full_md, COMMENT_LIMIT);
    assert!(
        md.chars().count() <= COMMENT_LIMIT,
        "{}",
        md.chars().count()
    );
    // The summary and the new runs come first and whole; every section stays closed.
    let head = &full_md[..full_md.find("<details>").unwrap()];
    assert!(md.starts_with(head));
    assert_eq!(
        md.matches("<details>").count(),
        md.matches("</details>").count()
    );
    assert!(md.contains("more lines cut to keep the comment under GitHub's limit"));
    assert!(md.contains("| `sweep-0000` |"), "the first rows are kept");
    // A short report is left as it is.
    assert_eq!(capped(&markdown(&full()), COMMENT_LIMIT), markdown(&full()));
}

#[test]
fn a_value_change_shows_old_new_delta_and_percent_with_its_unit() {
    let d = ValueDelta {
        field: "prompt_eval_duration_ns".into(),
        old: Some(Decimal(22_345_678.0)),
        new: Some(Decimal(32_345_678.0)),
        delta: Some(Decimal(10_000_000.0)),
        percent: Some(Decimal(44.8)),
        unit: Some("ns".into()),
    };
    assert_eq!(value(&d, d.old), "0.0223 s");
    assert_eq!(value(&d, d.new), "0.0323 s");
    assert_eq!(delta(&d), "+0.01 s, +44.8 %");
    let rows = ValueDelta {
        field: "est_rows".into(),
        old: Some(Decimal(10.0)),
        new: Some(Decimal(7.0)),
        delta: Some(Decimal(-3.0)),
        percent: Some(Decimal(-30.0)),
        unit: Some("rows".into()),
    };
    assert_eq!(delta(&rows), "-3 rows, -30 %");
}

/// Only the site's languages are languages on the review page: a field path's last
/// segment that is not one (`file`, `revision`, `basis`, `search`, `prs`) gets no `lang`.
/// (Seen failing before: every short last segment was declared, `lang="file"` …)
#[test]
fn the_review_page_declares_only_the_sites_languages() {
    let record = |path: &str| RecordChange {
        kind: "source".into(),
        id: "s".into(),
        change: Change::Changed,
        fields: vec![field(path, Some("old words"), Some("new words"))],
        drift: Vec::new(),
    };
    let paths = [
        "file",
        "at.revision",
        "basis",
        "search",
        "refs[example-org/tool#17156].prs",
        "text.ja",
        "text.en",
    ];
    let r = Report {
        records: paths.iter().map(|p| record(p)).collect(),
        ..empty()
    };
    let page = super::super::html::html(&r);
    let mut declared: Vec<&str> = page
        .split("lang=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    declared.sort_unstable();
    declared.dedup();
    assert_eq!(declared, ["en", "ja"], "{page}");
}

#[test]
fn a_change_too_small_to_show_is_zero_without_a_sign() {
    let d = |delta: f64, unit: &str| ValueDelta {
        field: "x".into(),
        old: Some(Decimal(1_000_000.0)),
        new: Some(Decimal(1_000_000.0 + delta)),
        delta: Some(Decimal(delta)),
        percent: None,
        unit: Some(unit.into()),
    };
    assert_eq!(delta(&d(-30.0, "ns")), "±0 s");
    assert_eq!(delta(&d(30.0, "ns")), "±0 s");
    assert_eq!(delta(&d(-60_000.0, "ns")), "-0.0001 s");
    assert_eq!(delta(&d(-0.0, "rows")), "±0 rows");
    assert_eq!(delta(&d(-0.0023, "ms")), "-0.0023 ms");
}

#[test]
fn a_latest_run_whose_values_changed_is_not_called_derived_only() {
    let case = |values: Vec<ValueDelta>| CaseChange {
        case: "a".into(),
        repeats: None,
        values,
        zones: vec![ZoneFlip {
            map: "m".into(),
            old: Some("x".into()),
            new: Some("y".into()),
            assessed_against: None,
        }],
    };
    let same = |cases| LatestChange {
        probe: "p".into(),
        base_run: "r1".into(),
        head_run: "r1".into(),
        cases,
        cases_added: Vec::new(),
        cases_dropped: Vec::new(),
    };
    let moved_value = ValueDelta {
        field: "n".into(),
        old: Some(Decimal(1.0)),
        new: Some(Decimal(2.0)),
        delta: Some(Decimal(1.0)),
        percent: None,
        unit: None,
    };
    assert_eq!(
        run_pair(&same(vec![case(vec![moved_value])]), ""),
        "r1 (the same run; its recorded values were rewritten)"
    );
    assert_eq!(
        run_pair(&same(vec![case(vec![])]), ""),
        "r1 (the same run; what is derived from it changed)"
    );
}

#[test]
fn a_latest_run_that_lost_a_case_is_not_called_derived_only() {
    let dropped = LatestChange {
        probe: "p".into(),
        base_run: "r1".into(),
        head_run: "r1".into(),
        cases: Vec::new(),
        cases_added: Vec::new(),
        cases_dropped: vec!["b".into()],
    };
    assert_eq!(
        run_pair(&dropped, ""),
        "r1 (the same run; its recorded values were rewritten)"
    );
    assert_eq!(
        cases_added_dropped(&dropped, "`"),
        vec![("dropped", "`b`".to_string())]
    );
}

#[test]
fn a_review_link_must_be_an_http_url() {
    assert_eq!(
        review_link("ftp://example.org/r").unwrap_err().to_string(),
        "`ftp://example.org/r` is a ftp: URL; give an http(s) one"
    );
    assert_eq!(
        review_link("nowhere").unwrap_err().to_string(),
        "`nowhere` is not a URL: relative URL without a base"
    );
    assert_eq!(
        review_link("https://example.org/r").as_deref(),
        Ok("https://example.org/r")
    );
}
