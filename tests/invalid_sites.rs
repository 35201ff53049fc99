//! Invalid sites, Zola-style: each case is the valid fixture with ONE defect, applied at
//! test time to a temporary copy. For every case:
//!
//! * `evidence check --format json` exits 1 and reports the defect at the exact file and
//!   line (and column, where the case names one) with the expected code and message;
//! * with `errors = N`, exactly N errors are reported (the defect does not cascade);
//! * `evidence build` exits 1 and leaves a pre-existing `site/` byte-for-byte as it was,
//!   with no `site.tmp-*` (or `.site.old-*`) folder left behind.
//!
//! Cases marked `#[ignore = "bug: …"]` describe known defects of `evidence`; run them with
//! `cargo test --test invalid_sites -- --ignored`.

mod common;

use common::*;
use std::path::Path;

/// One textual defect.
enum Edit {
    /// Replace the only occurrence of `old` by `new` in a file.
    Replace(&'static str, &'static str, &'static str),
    /// Delete a file.
    Delete(&'static str),
    /// Create (or overwrite) a file.
    Write(&'static str, &'static [u8]),
    /// Add `locales/en/evidence.ftl`: the built-in one without the line of this key.
    EnFtlWithout(&'static str),
    /// Add `locales/en/evidence.ftl`: the built-in one with this text appended.
    EnFtlWith(&'static str),
}

impl Edit {
    fn apply(&self, root: &Path) {
        match *self {
            Edit::Replace(file, old, new) => replace_once(root, file, old, new),
            Edit::Delete(file) => std::fs::remove_file(root.join(file)).unwrap(),
            Edit::Write(file, bytes) => write_file(root, file, bytes),
            Edit::EnFtlWithout(key) => write_file(
                root,
                "locales/en/evidence.ftl",
                builtin_en_ftl_without(key).as_bytes(),
            ),
            Edit::EnFtlWith(extra) => {
                // Prepended, so the line number does not depend on the built-in file's length.
                let builtin = std::fs::read_to_string(
                    manifest_dir().join("crates/core/src/messages/en/evidence.ftl"),
                )
                .unwrap();
                let text = format!("{extra}{builtin}");
                write_file(root, "locales/en/evidence.ftl", text.as_bytes());
            }
        }
    }
}

/// Where and what the defect must be reported as.
struct Expect {
    file: &'static str,
    line: usize,
    /// `None`: the column is not asserted.
    column: Option<usize>,
    code: &'static str,
    message: &'static str,
    /// When given, the exact number of errors: the defect must not cascade.
    errors: Option<usize>,
}

fn run_case(edits: &[Edit], expect: Expect) {
    let site = fixture_copy();
    let root = site.path();
    for e in edits {
        e.apply(root);
    }

    // check: exit 1, and the defect is located.
    let (code, report) = check_json(root);
    assert_eq!(code, 1, "check must fail:\n{}", report.summary());
    assert!(
        report.errors >= 1,
        "no error counted:\n{}",
        report.summary()
    );
    assert_eq!(
        report.errors + report.warnings,
        report.diagnostics.len(),
        "counts must add up"
    );
    let found = report.diagnostics.iter().any(|d| {
        d.severity == "error"
            && d.span.file == expect.file
            && d.span.line == expect.line
            && expect.column.is_none_or(|c| d.span.column == c)
            && d.code == expect.code
            && d.message.contains(expect.message)
    });
    assert!(
        found,
        "expected an error at {}:{}{} [{}] containing {:?}; got:\n{}",
        expect.file,
        expect.line,
        expect.column.map(|c| format!(":{c}")).unwrap_or_default(),
        expect.code,
        expect.message,
        report.summary()
    );

    if let Some(n) = expect.errors {
        assert_eq!(report.errors, n, "error count:\n{}", report.summary());
    }
    // build: exit 1, the previous output untouched, nothing left behind.
    let out = root.join("site");
    write_file(root, "site/.evidence-output", b"previous build\n");
    write_file(root, "site/index.html", b"<!-- previous index -->\n");
    let before = read_tree(&out);
    let before_entries = entries(root);
    let r = build(root, None);
    assert_eq!(r.code, 1, "build must fail\nstderr:\n{}", r.stderr);
    assert!(
        r.stderr.contains("nothing was written"),
        "stderr: {}",
        r.stderr
    );
    assert_eq!(read_tree(&out), before, "site/ changed by a failed build");
    let after_entries = entries(root);
    assert_eq!(
        after_entries, before_entries,
        "build left files in the root"
    );
    assert!(
        !after_entries
            .iter()
            .any(|e| e.starts_with("site.tmp-") || e.starts_with(".site.old-")),
        "temporary folders left: {after_entries:?}"
    );
}

macro_rules! case {
    ($(#[$attr:meta])* $name:ident: [$($edit:expr),+ $(,)?]
        => $file:literal : $line:literal $(: $col:literal)? [$code:literal] $msg:literal
        $(, errors = $n:literal)?) => {
        #[test]
        $(#[$attr])*
        fn $name() {
            #[allow(unused_mut, unused_assignments)]
            let mut column = None;
            $(column = Some($col);)?
            #[allow(unused_mut, unused_assignments)]
            let mut errors = None;
            $(errors = Some($n);)?
            run_case(
                &[$($edit),+],
                Expect { file: $file, line: $line, column, code: $code, message: $msg, errors },
            );
        }
    };
}

use Edit::*;

// ------------------------------------------------------------------ schema (YAML + serde)

case!(type_error_number_given_string:
    [Replace("data/bundles.yaml", "  size_kb: 12\n", "  size_kb: \"twelve\"\n")]
    => "data/bundles.yaml":4:12 ["schema"] "size_kb", errors = 1);

case!(type_error_in_run_case:
    [Replace("data/runs/r1.yaml", "prompt_eval_count: 3\n", "prompt_eval_count: three\n")]
    => "data/runs/r1.yaml":15:24 ["schema"] "cases[0].prompt_eval_count", errors = 1);

case!(type_error_in_flow_mapping:
    [Replace("data/maps.yaml", "{le: 8}", "{le: eight}")]
    => "data/maps.yaml":26 ["schema"] "branches[0].bound.le", errors = 1);

case!(unknown_field:
    [Replace("data/bundles.yaml", "  size_kb: 12\n", "  size_kb: 12\n  colour: red\n")]
    => "data/bundles.yaml":5:3 ["schema"] "unknown field `colour`", errors = 1);

case!(unknown_route:
    [Replace("data/bundles.yaml", "  route: mmq\n", "  route: bogus\n")]
    => "data/bundles.yaml":21:10 ["dangling-ref"] "no route with id `bogus`", errors = 1);

case!(route_of_an_unknown_family:
    [Replace("data/routes.yaml", "family: fam_large", "family: fam_huge")]
    => "data/routes.yaml":6:11 ["dangling-ref"] "no family with id `fam_huge`", errors = 1);

case!(norway_is_not_a_boolean:
    [Replace("data/bundles.yaml", "  route: mmvq\n", "  route: mmvq\n  disassembled: no\n")]
    => "data/bundles.yaml":11:17 ["schema"] "disassembled", errors = 1);

case!(missing_translation_in_data:
    [Replace(
        "data/observers.yaml",
        "    ja: \"フィクスチャで見えるか。\"\n    en: \"Does the fixture observer see it?\"\n",
        "    ja: \"フィクスチャで見えるか。\"\n",
    )]
    => "data/observers.yaml":5 ["schema"] "missing field `en`", errors = 1);

case!(missing_translation_in_flow_text:
    [Replace(
        "content/index.md",
        "title: {ja: \"フィクスチャの概要\", en: \"Fixture overview\"}",
        "title: {ja: \"フィクスチャの概要\"}",
    )]
    => "content/index.md":2 ["schema"] "missing field `en`");

case!(duplicate_yaml_key:
    [Replace("data/bundles.yaml", "  size_kb: 12\n", "  size_kb: 12\n  size_kb: 13\n")]
    => "data/bundles.yaml":5:3 ["schema"] "duplicate", errors = 1);

case!(yaml_tag_is_refused_at_the_tag:
    [Replace("data/bundles.yaml", "  size_kb: 12\n", "  size_kb: !!int 12\n")]
    => "data/bundles.yaml":4:18 ["schema"] "the tag `!!int`", errors = 1);

case!(yaml_alias_of_no_anchor:
    [Replace("data/bundles.yaml", "  size_kb: 12\n", "  size_kb: *twelve\n")]
    => "data/bundles.yaml":4:12 ["schema"] "unknown anchor", errors = 1);

case!(yaml_syntax_error:
    [Replace("data/questions.yaml", "  status: open\n", "  status: open: yes\n")]
    => "data/questions.yaml":5:15 ["schema"] "mapping values are not allowed", errors = 1);

case!(front_matter_type_error:
    [Replace("content/details.md", "order: 10\n", "order: ten\n")]
    => "content/details.md":3:8 ["schema"] "order");

case!(front_matter_unknown_field:
    [Replace("content/details.md", "order: 10\n", "order: 10\nweight: 1\n")]
    => "content/details.md":4:1 ["schema"] "unknown field `weight`");

case!(yaml_lone_carriage_return:
    [Replace("data/questions.yaml", "  status: open\n", "  status: open\r")]
    => "data/questions.yaml":5:15 ["line-ending"] "carriage return", errors = 1);

case!(page_lone_carriage_return:
    [Replace("content/details.md", "order: 10\n", "order: 10\r")]
    => "content/details.md":3:10 ["line-ending"] "carriage return", errors = 1);

case!(missing_front_matter:
    [Replace("content/details.md", "---\ntitle:", "title:")]
    => "content/details.md":1:1 ["front-matter"] "front matter");

case!(missing_config:
    [Delete("evidence.yaml")]
    => "evidence.yaml":1:1 ["config"] "cannot read", errors = 1);

case!(config_type_error:
    [Replace("evidence.yaml", "title:\n  ja: \"フィクスチャの調査\"\n  en: \"Fixture investigation\"\n", "title: 3\n")]
    => "evidence.yaml":1:8 ["schema"] "title", errors = 1);

case!(unknown_data_file:
    [Write("data/extras.yaml", b"[]\n")]
    => "data/extras.yaml":1:1 ["data-file"] "unknown data file `extras.yaml`", errors = 1);

#[test]
fn unknown_data_file_hint_lists_every_kind_and_its_file() {
    let site = fixture_copy();
    Edit::Write("data/extras.yaml", b"[]\n").apply(site.path());
    let (_, report) = check_json(site.path());
    let hint = report.diagnostics[0].hint.clone().unwrap_or_default();
    for kind in [
        "claim (claims.yaml)",
        "run (runs/*.yaml)",
        "map (maps.yaml)",
        "term (glossary.yaml)",
    ] {
        assert!(hint.contains(kind), "{hint}");
    }
}

case!(yml_extension:
    [Write("data/notes.yml", b"[]\n")]
    => "data/notes.yml":0 ["data-file"] "`.yaml`", errors = 1);

case!(not_utf8:
    [Write("data/questions.yaml", b"- id: q1\n  text: \xff\xfe\n")]
    => "data/questions.yaml":2:9 ["io"] "the file is not UTF-8: byte 0xff");

// ------------------------------------------------------------------ ids and references

case!(dangling_reference:
    [Replace("data/claims.yaml", "\"bundle:b1\"", "\"bundle:nope\"")]
    => "data/claims.yaml":9:14 ["dangling-ref"] "no bundle with id `nope`", errors = 1);

case!(dangling_bare_id:
    [Replace("data/claims.yaml", "constraint: obs1", "constraint: obs2")]
    => "data/claims.yaml":10:15 ["dangling-ref"] "no observer with id `obs2`", errors = 1);

case!(dangling_page:
    [Replace("data/claims.yaml", "page: index", "page: nowhere")]
    => "data/claims.yaml":2:9 ["dangling-ref"] "no page with id `nowhere`", errors = 1);

case!(engine_the_vocabulary_lacks:
    [Replace("data/runs/r1.yaml", "engine: ollama\n", "engine: postgres\n")]
    => "data/runs/r1.yaml":4:9 ["dangling-ref"] "no engine with id `postgres`", errors = 1);

case!(measurement_the_vocabulary_lacks:
    [Replace("data/runs/r1.yaml", "    prompt_eval_count: 3\n", "    prompt_eval_count: 3\n    measurements: {rows_read: 4}\n")]
    => "data/runs/r1.yaml":12:9 ["undeclared-measurement"] "records `rows_read`", errors = 1);

case!(status_the_vocabulary_lacks:
    [Write("data/components.yaml", b"- id: planner\n  name: planner\n  role: {ja: \"\xe8\xa8\x88\xe7\x94\xbb\", en: plans}\n  status: seen_once\n")]
    => "data/components.yaml":4:11 ["dangling-ref"] "no status with id `seen_once`", errors = 1);

case!(dangling_family_in_map:
    [Replace("data/maps.yaml", "      - family: fam_large\n", "      - family: fam_huge\n")]
    => "data/maps.yaml":29:17 ["dangling-ref"] "no family with id `fam_huge`", errors = 2);

case!(unknown_reference_kind:
    [Replace("data/claims.yaml", "\"run:r1\"", "\"rn:r1\"")]
    => "data/claims.yaml":9:27 ["bad-ref"] "unknown reference kind `rn`", errors = 1);

case!(reference_without_kind:
    [Replace("data/questions.yaml", "\"bundle:b2\"", "\"b2\"")]
    => "data/questions.yaml":7:10 ["bad-ref"] "expected `kind:id`", errors = 1);

case!(duplicate_id:
    [Replace("data/bundles.yaml", "- id: b2\n", "- id: b1\n")]
    => "data/bundles.yaml":12:7 ["duplicate-id"] "duplicate bundle id `b1`", errors = 2);

case!(duplicate_case_id:
    [Replace("data/runs/r1.yaml", "  - id: large\n", "  - id: small\n")]
    => "data/runs/r1.yaml":22:9 ["duplicate-id"] "duplicate case id `small`", errors = 1);

case!(invalid_id:
    [Replace("data/bundles.yaml", "- id: b2\n", "- id: \"b 2\"\n")]
    => "data/bundles.yaml":12:7 ["bad-id"] "`b 2` is not a valid id", errors = 2);

case!(claim_without_constraint_or_limit:
    [Replace("data/claims.yaml", "  constraint: obs1\n", "")]
    => "data/claims.yaml":1:7 ["claim-limit"] "names no constraint or limit", errors = 1);

// ------------------------------------------------------------------ dates

case!(invalid_date:
    [Replace("data/observers.yaml", "as_of: \"2026-01-15\"", "as_of: \"2026-02-30\"")]
    => "data/observers.yaml":17:10 ["bad-date"] "`2026-02-30` is not a date", errors = 1);

case!(invalid_phase_date:
    [Replace("data/worklog.yaml", "date: \"2026-01-10\"", "date: \"2026-1-10\"")]
    => "data/worklog.yaml":6:9 ["bad-date"] "`2026-1-10` is not a date", errors = 1);

// Signs inside the numbers: `+1` reads as a number, not as a month.
case!(signed_date_parts:
    [Replace("data/worklog.yaml", "date: \"2026-01-10\"", "date: \"2026-+1-+5\"")]
    => "data/worklog.yaml":6:9 ["bad-date"] "`2026-+1-+5` is not a date", errors = 1);

case!(run_time_with_garbage_after_the_date:
    [Replace("data/runs/r1.yaml", "date: \"2026-01-20\"", "date: \"2026-01-20Tnoon\"")]
    => "data/runs/r1.yaml":3:7 ["bad-date"] "not a date or RFC 3339 time", errors = 1);

case!(invalid_run_date:
    [Replace("data/runs/r1.yaml", "date: \"2026-01-20\"", "date: \"2026-13-01\"")]
    => "data/runs/r1.yaml":3:7 ["bad-date"] "not a date or RFC 3339 time", errors = 1);

// A page's front matter starts on line 2 of its file: the date on the file's fourth line.
case!(invalid_page_date:
    [Replace("content/details.md", "order: 10\n", "order: 10\ndate: \"2026-02-30\"\n")]
    => "content/details.md":4:7 ["bad-date"] "`2026-02-30` is not a date", errors = 1);

// ------------------------------------------------------------------ assessments

case!(assessment_disagrees_with_derived_zone:
    [Replace("data/runs/r1.yaml", "zone: fam_small", "zone: fam_large")]
    => "data/runs/r1.yaml":18:13 ["assessment"]
       "case `small` is assessed as `fam_large`, but map `fixture_map` routes n = 3 to `fam_small`", errors = 1);

case!(assessment_without_prompt_eval_count:
    [Replace("data/runs/r1.yaml", "    prompt_eval_count: 3\n", "")]
    => "data/runs/r1.yaml":17:13 ["assessment"] "recorded no `prompt_eval_count`, which map `fixture_map` derives a zone from", errors = 1);

case!(assessment_names_unknown_family:
    [Replace("data/runs/r1.yaml", "zone: fam_large", "zone: fam_larg")]
    => "data/runs/r1.yaml":29:13 ["dangling-ref"] "no family with id `fam_larg`", errors = 2);

// ------------------------------------------------------------------ Fluent messages

case!(missing_fluent_message:
    [EnFtlWithout("claims-can")]
    => "locales/en/evidence.ftl":0 ["missing-translation"] "message `claims-can` has no en translation", errors = 1);

case!(fluent_syntax_error:
    [EnFtlWith("this line is not a message\n")]
    => "locales/en/evidence.ftl":1 ["fluent"] "Fluent syntax error", errors = 1);

// ------------------------------------------------------------------ page structure

case!(ja_block_without_en_pair:
    [Replace(
        "content/details.md",
        ":::en\n## Tables\n\nThe fixture tables.\n\n<script>alert(\"block-en\")</script>\n:::\n",
        "",
    )]
    => "content/details.md":6:1 ["unpaired-block"] "this `ja` block has no en translation next to it", errors = 1);

case!(en_block_without_ja_pair:
    [Replace(
        "content/details.md",
        ":::ja\n## 表\n\nフィクスチャの表。\n\n<script>alert(\"block-ja\")</script>\n:::\n\n",
        "",
    )]
    => "content/details.md":6:1 ["unpaired-block"] "this `en` block has no ja translation next to it", errors = 1);

case!(unclosed_block:
    [Replace("content/index.md", "is shown as text.\n:::\n", "is shown as text.\n")]
    => "content/index.md":16:1 ["block"] "the `en` block opened here is never closed", errors = 2);

case!(block_opened_inside_block:
    [Replace("content/index.md", "## 概要\n", "## 概要\n:::en\n")]
    => "content/index.md":9:1 ["block"] "cannot open inside the `ja` block opened on line 7", errors = 1);

case!(unknown_block_language:
    [Replace("content/details.md", ":::en\n", ":::fr\n")]
    => "content/details.md":14:4 ["block"] "unknown block language `fr`");

case!(text_outside_block:
    [Replace("content/index.md", "\n::claims\n", "\nstray prose\n::claims\n")]
    => "content/index.md":25:1 ["block"] "text outside a language block", errors = 1);

case!(no_home_page:
    [Delete("content/index.md"), Replace("data/claims.yaml", "page: index", "page: details")]
    => "content":0 ["no-home"] "no home page", errors = 1);

// ------------------------------------------------------------------ directives

case!(unknown_directive:
    [Replace("content/details.md", "::observers\n", "::observerz\n")]
    => "content/details.md":28:1 ["directive"] "unknown directive `::observerz`", errors = 1);

case!(directive_names_unknown_id:
    [Replace("content/details.md", "::run{id=\"r1\"}", "::run{id=\"nope\"}")]
    => "content/details.md":26:1 ["directive"] "no run with id `nope`", errors = 1);

case!(directive_names_unknown_bundle:
    [Replace("content/details.md", "::bundles\n", "::bundles{ids=\"b1 b9\"}\n")]
    => "content/details.md":22:1 ["directive"] "no bundle with id `b9`", errors = 1);

case!(directive_unknown_attribute:
    [Replace("content/details.md", "::observers\n", "::observers{x=\"1\"}\n")]
    => "content/details.md":28:1 ["directive"] "`::observers` takes no attributes, found `x`", errors = 1);

case!(directive_missing_attribute:
    [Replace("content/details.md", "::run{id=\"r1\"}", "::run")]
    => "content/details.md":26:1 ["directive"] "`::run` needs `id=", errors = 1);

case!(directive_bad_attribute_value:
    [Replace("content/details.md", "status=\"open\"", "status=\"closed\"")]
    => "content/details.md":30:1 ["directive"] "`status` of `::questions` must be `open` or `resolved`, not `", errors = 1);

case!(directive_unclosed_quote:
    [Replace("content/details.md", "{id=\"fixture_map\"}", "{id=\"fixture_map}")]
    => "content/details.md":24:19 ["directive"] "unclosed `\"`", errors = 1);

case!(directive_unknown_probe:
    [Replace("content/details.md", "::worklog", "::latest-run{probe=\"nope\"}")]
    => "content/details.md":32:1 ["directive"] "no run of probe `nope`", errors = 1);

// ------------------------------------------------------------------ markdown in blocks

case!(broken_internal_link:
    [Replace("content/index.md", "(@/details) を参照", "(@/nowhere) を参照")]
    => "content/index.md":11:13 ["broken-link"] "link to unknown page `@/nowhere`", errors = 1);

case!(broken_internal_link_near_a_page:
    [Replace("content/index.md", "(@/details) を参照", "(@/detail) を参照")]
    => "content/index.md":11:13 ["broken-link"] "link to unknown page `@/detail`; did you mean `details`?", errors = 1);

case!(directive_id_near_a_record:
    [Replace("content/details.md", "{id=\"fixture_map\"}", "{id=\"fixture_mapp\"}")]
    => "content/details.md":24:1 ["directive"] "no map with id `fixture_mapp`; did you mean `fixture_map`?", errors = 1);

case!(broken_internal_link_with_fragment:
    [Replace("content/index.md", "(@/details) for more", "(@/nowhere#part) for more")]
    => "content/index.md":20:24 ["broken-link"] "`@/nowhere#part`", errors = 1);

case!(bad_value_path:
    [Replace("content/index.md", "is :v[bundle:b1.size_kb] KB", "is :v[bundle:b1.nosuch] KB")]
    => "content/index.md":21:14 ["bad-value"] "`bundle:b1.nosuch` has no `nosuch`", errors = 1);

case!(value_path_unknown_id:
    [Replace("content/index.md", "は :v[bundle:b1.size_kb] KB", "は :v[bundle:b7.size_kb] KB")]
    => "content/index.md":12:10 ["bad-value"] "no bundle with id `b7`", errors = 1);

case!(value_path_names_a_record:
    [Replace("content/index.md", "is :v[bundle:b1.size_kb] KB", "is :v[bundle:b1] KB")]
    => "content/index.md":21:14 ["bad-value"] "not a single value", errors = 1);

case!(bad_value_path_after_emphasis:
    [Replace("content/index.md", "Bundle b1 is :v[bundle:b1.size_kb]", "*Bundle* b1 is :v[bundle:b1.nosuch]")]
    => "content/index.md":21:16 ["bad-value"] "`bundle:b1.nosuch` has no `nosuch`", errors = 1);

case!(bad_value_path_in_list_item:
    [Replace("content/index.md", "Bundle b1 is :v[bundle:b1.size_kb] KB.\n", "\n- item\n- b1 is :v[bundle:b1.nosuch] KB.\n\n")]
    => "content/index.md":23:9 ["bad-value"] "`bundle:b1.nosuch` has no `nosuch`", errors = 1);

// ------------------------------------------------------------------ site configuration

case!(view_of_another_language:
    [Replace("evidence.yaml", "description:\n", "views: [ja, fr]\ndescription:\n")]
    => "evidence.yaml":4:13 ["config"] "`fr` is not one of this site's languages (ja, en)", errors = 1);

case!(view_listed_twice:
    [Replace("evidence.yaml", "description:\n", "views: [ja, en, ja]\ndescription:\n")]
    => "evidence.yaml":4:17 ["views"] "`ja` is listed twice", errors = 1);

// ------------------------------------------------------------------ theme

case!(broken_template:
    [Write("templates/table.html", b"<figure>{% for row in rows %}</figure>\n")]
    => "templates/table.html":2:1 ["template"] "Unexpected end of input", errors = 1);

// ------------------------------------------------------------------ known gaps (bugs)

case!(
    broken_link_in_data_text:
    [Replace("data/claims.yaml", "What the fixture can show.", "See [nowhere](@/nowhere).")]
    => "data/claims.yaml":5 ["broken-link"] "@/nowhere");

case!(
    bad_value_path_in_data_text:
    [Replace("data/claims.yaml", "What the fixture can show.", "Size :v[bundle:b1.nosuch].")]
    => "data/claims.yaml":5 ["bad-value"] "nosuch");

// The reading of a run's case sits in a list (`cases`): texts inside lists are checked too.
case!(
    broken_link_in_data_text_inside_a_list:
    [Replace("data/runs/r1.yaml", "en: \"small side\"", "en: \"See [x](@/nowhere).\"")]
    => "data/runs/r1.yaml":21:22 ["broken-link"] "link to unknown page `@/nowhere`", errors = 1);

/// One record with the same problem in two texts: each is placed on its own line, the second
/// found after the first rather than at it again.
#[test]
fn identical_problems_in_one_record_are_each_placed_on_their_line() {
    let site = fixture_copy();
    for text in [
        "What the fixture can show.",
        "What the fixture cannot show.",
    ] {
        Edit::Replace("data/claims.yaml", text, "See [x](@/nowhere).").apply(site.path());
    }
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let at: Vec<(&str, &str, usize, usize)> = report
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.span.file.as_str(),
                d.code.as_str(),
                d.span.line,
                d.span.column,
            )
        })
        .collect();
    assert_eq!(
        at,
        [
            ("data/claims.yaml", "broken-link", 5, 18),
            ("data/claims.yaml", "broken-link", 8, 18),
        ],
        "{}",
        report.summary()
    );
}

/// A second claim after one that shows the same link as code: the finding is searched from
/// the record's own id line, so it lands in the second claim, not at the first's text.
const SECOND_CLAIM: &str = "  constraint: obs1
- id: c2
  can:
    ja: \"二つ目。\"
    en: \"See [x](@/nowhere).\"
  cannot:
    ja: \"二つ目。\"
    en: \"Nothing.\"
  page: index
  evidence: [\"bundle:b1\"]
  constraint: obs1
";

case!(
    data_text_problem_is_found_from_its_own_record:
    [
        Replace("data/claims.yaml", "What the fixture cannot show.", "Links are written `[x](@/nowhere)`."),
        Replace("data/claims.yaml", "  constraint: obs1\n", SECOND_CLAIM),
    ]
    => "data/claims.yaml":14:18 ["broken-link"] "link to unknown page `@/nowhere`", errors = 1);

// A record on line 2, after an empty first line: its line starts right after byte 0.
case!(
    data_text_problem_in_a_file_opening_with_an_empty_line:
    [
        Replace("data/claims.yaml", "- id: c1\n", "\n- id: c1\n"),
        Replace("data/claims.yaml", "What the fixture can show.", "See [x](@/nowhere)."),
    ]
    => "data/claims.yaml":6:18 ["broken-link"] "link to unknown page `@/nowhere`", errors = 1);

case!(
    empty_value_path_in_data_text:
    [Replace("data/claims.yaml", "What the fixture can show.", "Size :v[] KB.")]
    => "data/claims.yaml":5:15 ["bad-value"] "`` is not a value path", errors = 1);

/// Links to pages that exist, with a fragment or to the home page, are no finding.
#[test]
fn links_to_known_pages_in_data_texts_are_no_error() {
    let site = fixture_copy();
    Edit::Replace(
        "data/claims.yaml",
        "What the fixture can show.",
        "See [d](@/details), [p](@/details#observer-obs1) and [h](@/).",
    )
    .apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 0, "{}", report.summary());
    assert!(report.diagnostics.is_empty(), "{}", report.summary());
}

case!(
    front_matter_error_does_not_cascade_into_links:
    [Replace("content/details.md", "order: 10\n", "order: ten\n")]
    => "content/details.md":3:8 ["schema"] "order", errors = 1);

case!(
    home_front_matter_error_does_not_report_no_home:
    [Replace(
        "content/index.md",
        "title: {ja: \"フィクスチャの概要\", en: \"Fixture overview\"}",
        "title: {ja: \"フィクスチャの概要\"}",
    )]
    => "content/index.md":2:8 ["schema"] "missing field `en`", errors = 1);

case!(
    unreadable_data_file_does_not_cascade:
    [Write("data/questions.yaml", b"- id: q1\n  text: \xff\xfe\n")]
    => "data/questions.yaml":2:9 ["io"] "not UTF-8", errors = 1);

/// Deleting a key from a site's own `locales/en/evidence.ftl` (which replaces the built-in
/// one) is reported in that file, with the Japanese definition named in the hint.
#[test]
fn missing_fluent_message_names_the_ja_definition() {
    let site = fixture_copy();
    Edit::EnFtlWithout("claims-can").apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let line = builtin_ftl_line("ja", "claims-can");
    let d = &report.diagnostics[0];
    assert_eq!(d.span.file, "locales/en/evidence.ftl");
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(
        hint.contains(&format!("locales/ja/evidence.ftl:{line}")),
        "{hint}"
    );
}

/// An unused key missing from the override is still a parity error.
#[test]
fn unused_fluent_key_missing_from_override_is_reported() {
    let site = fixture_copy();
    Edit::EnFtlWithout("engine-none").apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    assert_eq!(report.errors, 1, "{}", report.summary());
    let d = &report.diagnostics[0];
    assert_eq!(d.code, "missing-translation");
    assert_eq!(d.span.file, "locales/en/evidence.ftl");
    assert!(d.message.contains("engine-none"), "{}", d.message);
}

#[test]
fn duplicate_yaml_key_message_speaks_to_the_author() {
    let site = fixture_copy();
    Edit::Replace(
        "data/bundles.yaml",
        "  size_kb: 12\n",
        "  size_kb: 12\n  size_kb: 13\n",
    )
    .apply(site.path());
    let (_, report) = check_json(site.path());
    let d = &report.diagnostics[0];
    assert!(d.message.contains("size_kb"), "{}", d.message);
    assert!(!d.message.contains("Options"), "{}", d.message);
    assert!(!d.message.contains(".?"), "{}", d.message);
}

/// Converts every text file of the site to CRLF line endings.
fn to_crlf(root: &Path) {
    for (rel, bytes) in read_tree(root) {
        let text = String::from_utf8(bytes).unwrap();
        write_file(root, &rel, text.replace('\n', "\r\n").as_bytes());
    }
}

#[test]
fn crlf_sources_check_clean_and_locate_like_lf() {
    let site = fixture_copy();
    to_crlf(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 0, "{}", report.summary());
    Edit::Replace("data/runs/r1.yaml", "zone: fam_small", "zone: fam_large").apply(site.path());
    Edit::Replace(
        "content/index.md",
        "(@/details) を参照",
        "(@/nowhere) を参照",
    )
    .apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let at: Vec<(String, usize, usize)> = report
        .diagnostics
        .iter()
        .map(|d| (d.span.file.clone(), d.span.line, d.span.column))
        .collect();
    assert_eq!(
        at,
        [
            ("content/index.md".to_string(), 11, 13),
            ("data/runs/r1.yaml".to_string(), 18, 13),
        ],
        "{}",
        report.summary()
    );
}

#[test]
fn stray_closing_fence_is_named_as_such() {
    let site = fixture_copy();
    Edit::Replace("content/index.md", "\n::claims\n", "\n:::\n::claims\n").apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    assert_eq!(report.errors, 1, "{}", report.summary());
    let d = &report.diagnostics[0];
    assert_eq!(
        (d.span.line, d.span.column),
        (25, 1),
        "{}",
        report.summary()
    );
    assert!(
        !d.message.contains("``"),
        "message names an empty language: {}",
        d.message
    );
}

case!(
    unclosed_value_quote:
    [Replace("content/index.md", "is :v[bundle:b1.size_kb] KB", "is :v[bundle:b1.size_kb KB")]
    => "content/index.md":21:14 ["bad-value"] ":v[", errors = 1);

#[test]
fn identical_bad_values_on_one_line_are_both_reported() {
    let site = fixture_copy();
    Edit::Replace(
        "content/index.md",
        "is :v[bundle:b1.size_kb] KB",
        "is :v[bundle:b1.nosuch] and :v[bundle:b1.nosuch] KB",
    )
    .apply(site.path());
    let (_, report) = check_json(site.path());
    let columns: Vec<usize> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "bad-value")
        .map(|d| d.span.column)
        .collect();
    assert_eq!(columns, [14, 39], "{}", report.summary());
}

// ------------------------------------------------------------------ generated pages

case!(content_page_in_the_place_of_a_run_page:
    [
        Replace("content/details.md", "::run{id=\"r1\"}\n", "::run{id=\"r1\"}\n\n::runs\n"),
        Write("content/details/r1.md", b"---\ntitle: {ja: jikkou, en: Run}\n---\n"),
    ]
    => "content/details/r1.md":1:1 ["page-collision"] "page of run `r1`", errors = 1);

#[test]
fn a_site_message_file_redefines_built_in_messages_but_two_may_not_clash() {
    let site = fixture_copy();
    // One file of the site's own words: it replaces the built-in text, and nothing is wrong.
    Edit::Write("locales/en/words.ftl", b"col-family = Route family\n").apply(site.path());
    Edit::Write(
        "locales/ja/words.ftl",
        "col-family = 経路の系統\n".as_bytes(),
    )
    .apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 0, "{}", report.summary());
    let out = site.path().join("out");
    build_ok(site.path(), &out);
    let html = std::fs::read_to_string(out.join("en/details/index.html")).unwrap();
    assert!(
        html.contains(">Route family</th>"),
        "the site's word is used"
    );
    // A second file of the site defining the same message: which would win is an accident.
    Edit::Write("locales/en/more.ftl", b"col-family = Other family\n").apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let d = &report.diagnostics[0];
    assert_eq!(
        (d.code.as_str(), d.span.file.as_str(), d.span.line),
        ("fluent", "locales/en/words.ftl", 1),
        "{}",
        report.summary()
    );
    assert!(d.message.contains("locales/en/more.ftl:1"), "{}", d.message);
}

/// Without `packs: [ggml]`, everything the pack adds is an error at its own place that
/// names the pack: its data file (at line 1), its directive. Nothing of it is silently
/// dropped.
#[test]
fn a_packs_parts_are_errors_until_the_site_turns_it_on() {
    let site = fixture_copy();
    Edit::Replace("evidence.yaml", "packs: [ggml]\n", "").apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let at = |file: &str, code: &str| {
        report
            .diagnostics
            .iter()
            .find(|d| d.span.file == file && d.code == code)
            .unwrap_or_else(|| panic!("no {code} in {file}: {}", report.summary()))
    };
    let data = at("data/bundles.yaml", "data-file");
    assert_eq!((data.span.line, data.span.column), (1, 1));
    assert!(data.message.contains("`ggml` pack"), "{}", data.message);
    assert!(
        data.hint
            .as_deref()
            .unwrap_or_default()
            .contains("packs: [ggml]"),
        "{:?}",
        data.hint
    );
    let directive = at("content/details.md", "directive");
    assert!(
        directive.message.contains("::bundles"),
        "{}",
        directive.message
    );
    assert!(
        directive.message.contains("packs: [ggml]"),
        "{}",
        directive.message
    );
    // Engines are the site's vocabulary, not the pack's: the run still names a known
    // one. The model it ran and the counters its probe wrote are the pack's fields:
    // refused at the first one's key (the model, written first), naming the pack.
    let runs: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.span.file == "data/runs/r1.yaml")
        .collect();
    assert_eq!(runs.len(), 1, "{}", report.summary());
    assert_eq!(runs[0].code, "schema");
    assert!(
        runs[0]
            .message
            .contains("`model` is a field of the `ggml` pack")
            && runs[0].message.contains("packs: [ggml]"),
        "{}",
        runs[0].message
    );
    let text = std::fs::read_to_string(site.path().join("data/runs/r1.yaml")).unwrap();
    let line = text.lines().nth(runs[0].span.line - 1).unwrap_or_default();
    assert!(
        line[runs[0].span.column - 1..].starts_with("model"),
        "{line}"
    );
}

#[test]
fn an_unknown_pack_is_a_config_error_at_its_place() {
    let site = fixture_copy();
    Edit::Replace("evidence.yaml", "packs: [ggml]\n", "packs: [ggml, sql]\n").apply(site.path());
    let (code, report) = check_json(site.path());
    assert_ne!(code, 0);
    let d = &report.diagnostics[0];
    assert_eq!(d.code, "config");
    assert_eq!(
        (d.span.file.as_str(), d.span.line, d.span.column),
        ("evidence.yaml", 7, 15)
    );
    assert!(d.message.contains("unknown pack `sql`"), "{}", d.message);
    assert!(d.hint.as_deref().unwrap_or_default().contains("ggml"));
}

/// A map's zones come from a measurement; a run assessed against a map whose measurement
/// none of its cases has is an error at the run's `assessed_against`, not zones of nothing.
#[test]
fn a_run_assessed_against_a_map_it_does_not_measure_is_an_error() {
    let site = fixture_copy();
    Edit::Replace(
        "data/maps.yaml",
        "    measure: prompt_eval_count\n",
        "    measure: rows_read\n",
    )
    .apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == "unmeasured-variable")
        .unwrap_or_else(|| panic!("{}", report.summary()));
    assert_eq!(
        (d.span.file.as_str(), d.span.line, d.span.column),
        ("data/runs/r1.yaml", 10, 19)
    );
    assert!(d.message.contains("`rows_read`"), "{}", d.message);
    // The cases' assessments are not judged against zones the run cannot have.
    assert!(
        !report.diagnostics.iter().any(|d| d.code == "assessment"),
        "{}",
        report.summary()
    );
}

/// Maps over different variables cannot share one axis: comparing them is an error at the
/// directive, naming both variables.
#[test]
fn comparing_maps_over_different_variables_is_an_error() {
    let site = fixture_copy();
    let map = std::fs::read_to_string(site.path().join("data/maps.yaml")).unwrap();
    let start = map.find("  - id: fixture_map").unwrap();
    let second = map[start..]
        .replace("id: fixture_map", "id: other_map")
        .replace("variable: \"n\"", "variable: cost")
        .replace("    measure: prompt_eval_count\n", "")
        .replace("        anchor: bundle:b1\n", "");
    std::fs::write(site.path().join("data/maps.yaml"), format!("{map}{second}")).unwrap();
    Edit::Replace(
        "content/details.md",
        "::worklog\n",
        "::worklog\n\n::dispatch-compare\n\n::dispatch-diff-diagram{maps=\"fixture_map other_map\"}\n",
    )
    .apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1, "{}", report.summary());
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "directive" && d.message.contains("over one variable"))
        .collect();
    assert_eq!(found.len(), 2, "{}", report.summary());
    for d in found {
        assert_eq!(d.span.file, "content/details.md");
        assert!(
            d.message.contains("`n`") && d.message.contains("`cost`"),
            "{}",
            d.message
        );
    }
}

/// A bound no value satisfies, or one with two edges on a side, is an error at the bound,
/// saying why.
#[test]
fn a_bound_that_holds_no_value_is_located() {
    for (bound, says) in [
        ("{gt: 8, lt: 8}", "holds no value"),
        ("{le: 8, lt: 9}", "not both"),
        ("{}", "at least one"),
    ] {
        let site = fixture_copy();
        let file = site.path().join("data/maps.yaml");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            text.replace("bound: {le: 8}", &format!("bound: {bound}")),
        )
        .unwrap();
        let (code, report) = check_json(site.path());
        assert_eq!(code, 1, "{}", report.summary());
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.message.contains(says))
            .unwrap_or_else(|| panic!("{bound}: {}", report.summary()));
        assert_eq!(d.span.file, "data/maps.yaml", "{bound}");
        assert!(
            d.span.line > 1 && d.span.column > 1,
            "{bound}: {:?}",
            d.span
        );
    }
}

/// The fixture sites of the tests check with no error and no warning.
#[test]
fn the_fixture_sites_check_clean() {
    for name in ["valid", "figures"] {
        // A copy: the fixtures stay as committed whatever `check` leaves behind.
        let site = tempfile::tempdir().expect("tempdir");
        copy_dir(
            &manifest_dir().join("tests/fixtures").join(name),
            site.path(),
        );
        let (code, report) = check_json(site.path());
        assert_eq!(code, 0, "{name}: {}", report.summary());
        assert_eq!(report.warnings, 0, "{name}: {}", report.summary());
    }
}

/// A fragment its target page lacks, written in a data text, is an error at the link in
/// the data file.
#[test]
fn a_missing_fragment_in_a_data_text_is_located_in_the_data() {
    let site = fixture_copy();
    Edit::Replace(
        "data/claims.yaml",
        "What the fixture can show.",
        "See [p](@/details#part).",
    )
    .apply(site.path());
    let (code, report) = check_json(site.path());
    assert_eq!(code, 1, "{}", report.summary());
    let d = &report.diagnostics[0];
    assert_eq!(d.code, "broken-fragment", "{}", report.summary());
    assert_eq!(
        (d.span.file.as_str(), d.span.line),
        ("data/claims.yaml", 5),
        "{}",
        report.summary()
    );
}

/// A page file name is a URL path segment as it stands: `x?y` would end the path at the
/// `?`, `%2e%2e` would be read as `..`. Each is an error at the file, with a name to use.
#[test]
fn a_page_file_name_that_needs_escaping_is_an_error_with_a_suggestion() {
    let site = fixture_copy();
    let root = site.path();
    let page = std::fs::read(root.join("content/index.md")).unwrap();
    for (name, suggested) in [
        ("content/x?y.md", "x-y.md"),
        ("content/%2e%2e.md", "2e-2e.md"),
        ("content/a b/c.md", "a-b"),
    ] {
        write_file(root, name, &page);
        let (code, report) = check_json(root);
        assert_eq!(code, 1, "{name} passed:\n{}", report.summary());
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.code == "page-name" && d.span.file == name)
            .unwrap_or_else(|| panic!("no page-name error at {name}:\n{}", report.summary()));
        assert_eq!((d.span.line, d.span.column), (1, 1));
        let hint = d.hint.as_deref().unwrap_or_default();
        assert!(hint.contains(suggested), "{name}: hint {hint:?}");
        let r = build(root, None);
        assert_eq!(r.code, 1, "{name}: build passed");
        std::fs::remove_file(root.join(name)).unwrap();
    }
}

/// A page whose folder is a file the build writes itself (`evidence.json`, the theme's
/// `static/style.css`, `404.html`) is a collision located at the page, naming both,
/// not "Is a directory (os error 21)" when the file is written.
#[test]
fn a_page_in_the_place_of_a_file_the_build_writes_is_a_collision() {
    let site = fixture_copy();
    let root = site.path();
    let page = std::fs::read(root.join("content/details.md")).unwrap();
    for (name, built) in [
        ("content/evidence.json.md", "evidence.json"),
        ("content/static/style.css.md", "static/style.css"),
        ("content/404.html.md", "404.html"),
    ] {
        write_file(root, name, &page);
        let (code, report) = check_json(root);
        assert_eq!(code, 1, "{name} passed:\n{}", report.summary());
        let found = report.diagnostics.iter().any(|d| {
            d.code == "page-collision"
                && d.span.file == name
                && (d.span.line, d.span.column) == (1, 1)
                && d.message.contains(&format!("`{built}`"))
        });
        assert!(found, "{name}:\n{}", report.summary());
        let r = build(root, None);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        assert!(!r.stderr.contains("os error"), "{name}: {}", r.stderr);
        std::fs::remove_file(root.join(name)).unwrap();
    }
}
