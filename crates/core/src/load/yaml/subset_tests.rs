//! The YAML reader against serde-saphyr: what it reads it must read the same (value and
//! positions), what it refuses serde-saphyr must refuse (but for the tags and limits that
//! are its own choice), and the subset must read what evidence writes, or the speed is gone.

use super::error::{Kind, YamlError};
use super::subset_de::read;
use super::{options, parse, without_spans};
use crate::model::id::Id;
use proptest::prelude::*;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::fmt::Debug;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Doc {
    id: Id,
    #[serde(default)]
    n: Option<u64>,
    #[serde(default)]
    i: Option<i32>,
    #[serde(default)]
    f: Option<f64>,
    #[serde(default)]
    b: Option<bool>,
    #[serde(default)]
    s: Option<String>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    bound: Option<Bound>,
    #[serde(default)]
    pair: Option<(u8, String)>,
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    map: BTreeMap<String, Vec<String>>,
    /// Read untyped (`deserialize_any`), as a label that is text or a mapping is.
    #[serde(default)]
    any: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Item {
    id: Id,
    #[serde(default)]
    n: Option<u64>,
    #[serde(default)]
    text: Option<Text>,
    #[serde(default)]
    tags: Vec<Id>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Text {
    ja: String,
    en: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Hot,
    Cold,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Bound {
    Le(u64),
    Lt(u64),
}

fn saphyr<T: DeserializeOwned>(text: &str) -> Result<T, serde_saphyr::Error> {
    serde_saphyr::from_str_with_options(text, options())
}

/// When the reader reads `text`, serde-saphyr reads the same; when it refuses it for its
/// syntax, a duplicate key or its fit to `T`, serde-saphyr refuses it too. Says whether it
/// read it.
fn agrees<T: DeserializeOwned + Debug>(text: &str) -> bool {
    match (read::<T>(text), saphyr::<T>(text)) {
        (Ok(fast), Ok(full)) => assert_eq!(
            without_spans(&format!("{fast:?}")),
            without_spans(&format!("{full:?}")),
            "{text}"
        ),
        (Ok(fast), Err(e)) => {
            panic!("read {fast:?}, which serde-saphyr rejects ({e}):\n{text}")
        }
        (Err(e), Ok(full)) if !own_choice(&e) => {
            panic!("refused ({e}) what serde-saphyr reads as {full:?}:\n{text}")
        }
        (Err(_), _) => return false,
    }
    true
}

/// An error the reader gives by its own rule, not serde-saphyr's: a tag, a limit.
fn own_choice(e: &YamlError) -> bool {
    matches!(e.kind, Kind::Unsupported | Kind::Limit)
}

const READ: &[&str] = &[
    "id: a\n",
    "  id: 日本 abc\n",
    "# head\nid: a   # tail\n\n   # indented comment\nn: 0\n",
    "id: 'it''s'\nn: 18446744073709551615\ni: -2147483648\n",
    "id: \"q\\u00e9 \\\"x\\\" \\\\ \\/ \\n\\t\"\ns: \"\"\n",
    "id: a:b\ns: http://x.y/z?q=1#f\n",
    "id: a#b\ns: x] y} [z] {w} a, b\n",
    "id: -a\ni: -5\nf: -1.5e-3\n",
    "id: a\nf: 12\nb: true\n",
    "id: a\nb: false\n",
    "id: a\nf: -0\n",
    "id: a\nf: 0\n",
    "id: a\nf: -123456789012345\n",
    "id: a\nf: 999999999999999\n",
    // A long integer part is read when a fraction follows (only a plain integer is held
    // to 15 digits, past which it may not be exact).
    "id: a\nf: 1234567890123456.5\n",
    "id: a\nf: 0.1\nmode: cold\n",
    "id: '123'\ns: 123\n",
    "id: true\ns: 2026-01-01\n",
    "id: a\ns: 'null'\nbound: {le: 8}\n",
    "id: a\nbound:\n  lt: 64\npair: [3, x]\n",
    "id: a\nitems:\n- id: x\n  n: 1\n- id: y\n",
    "id: a\nitems:\n  - id: x\n    text: {ja: \"合成\", en: synthetic}\n  - {id: y, tags: [p, q]}\n",
    "id: a\nitems:\n  -\n    id: x\n  - # c\n    id: y\n    tags:\n    - p\n    -   q\n",
    "id: a\nmap:\n  k: []\n  l: [x, 'y', \"z\"]\n  日本: [語]\n",
    "id: a\nmap: {k: [a b, c], l: []}\n",
    "id: a\ns: ~\nn: null\n",
    "id: a\nitems: [{id: x, n: 2}, {id: y}]\n",
    "id: a\ns: '→x'\nitems:\n  - id: 前の x\n    tags: [甲, 乙]\n",
    // Numbers and booleans as serde-saphyr reads them into typed fields, in any style.
    "id: a\nn: 0x1F\n",
    "id: a\nn: '12'\n",
    "id: a\nb: True\n",
    "id: a\nf: .5\n",
    "id: a\nf: 1234567890123456\n",
    "id: a\nf: -1234567890123456\n",
    "id: a\nf: 007\n",
    "id: a\nf: -007\n",
    "id: a\nn: 0o17\ni: -0x1F\n",
    "id: a\nn: 0b101\ni: +5\n",
    "id: a\nn: 1_000\ni: '-3'\n",
    "id: a\nn: \"12\"\ni: -0\n",
    "id: a\nn: +5\nb: TRUE\n",
    "id: a\nn: ' 7 '\nb: 'true'\n",
    "id: a\nb: \"false\"\nf: 1.\n",
    "id: a\nb: False\nf: .inf\n",
    "id: a\nf: -.Inf\n",
    "id: a\nf: +.INF\n",
    "id: a\nf: .nan\n",
    "id: a\nf: -.NaN\n",
    "id: a\nf: 1E3\n",
    "id: a\nf: +1.5\n",
    "id: a\nf: '1.5'\n",
    "id: a\nf: +12\n",
    "id: a\nf: 12345678901234567890123\n",
    "id: a\nany: first-pass\n",
    "id: a\nany: yes\n",
    "id: a\nany: inf\n",
    "id: a\nany: nan\n",
    "id: a\nany: Nullable\n",
    "id: a\nany: 日本\n",
    "id: a\nany: 'true'\n",
    "id: a\nany: {ja: 準備, en: setup}\n",
    "id: a\nany: [x, 'y']\n",
];

#[test]
fn reads_the_subset_as_serde_saphyr_does() {
    for text in READ {
        assert!(agrees::<Doc>(text), "not read:\n{text}");
    }
}

/// Texts outside the subset that the tape of the parser's events reads: block and
/// multi-line scalars, flow collections over lines, tabs, a byte order mark, `---`, an
/// explicit key, an empty value.
const READ_FROM_EVENTS: &[&str] = &[
    "id: a\ns: |\n  x\n",
    "id: a\ns: >\n  x\n",
    "id: a\ns: one\n  two\n",
    "id: a\ns:\n",
    "id: a\ns: \"two\n  lines\"\n",
    "id:\ta\n",
    "id: a\r\n",
    "\u{feff}id: a\n",
    "---\nid: a\n",
    "id: a\nitems: [{id: x}, ]\n",
    "id: a\nitems: [{id: x},\n  {id: y}]\n",
    "id : a\n",
    "id: a\ns: \"\\x41\"\n",
    "? id\n: a\n",
    "{id: a}\n",
    "id: a\nitems:\n  - id: x\n    tags: [p,\n      q]\nmap:\n  k:\n    - |\n      line one\n      line two\n",
    "# a\n---\nid: a # b\nmap:\n  k:\n    - >-\n      folded\n      text\n",
];

#[test]
fn reads_what_the_parser_settles_as_serde_saphyr_does() {
    for text in READ_FROM_EVENTS {
        assert!(agrees::<Doc>(text), "not read:\n{text}");
    }
}

/// Texts the subset declines, each read or refused as serde-saphyr reads or refuses it.
const REST: &[&str] = &[
    // Numbers serde-saphyr rejects.
    "id: a\nn: 012\n",
    "id: a\nn: -0\n",
    "id: a\nn: 00\n",
    "id: a\nn: 1e3\n",
    "id: a\nn: 18446744073709551616\n",
    "id: a\nn: 1__0\n",
    "id: a\nn: _1\n",
    "id: a\nn: 1_\n",
    "id: a\ni: -_1\n",
    "id: a\nn: 0x\n",
    "id: a\ni: -012\n",
    "id: a\ni: 2147483648\n",
    "id: a\nf: NaN\n",
    "id: a\nf: inf\n",
    "id: a\nf: 1_000.5\n",
    "id: a\nf: 0x10\n",
    "id: a\nf: 0o7\n",
    "id: a\nf: 12abc\n",
    "id: a\nb: yes\n",
    "id: a\nb: 1\n",
    "id: &x a\ns: *x\n",
    "id: !!str a\n",
    "%YAML 1.2\n---\nid: a\n",
    "id: a\nid: b\n",
    "id: a\nmap: {k: [], k: []}\n",
    "id: a\n<<: {n: 1}\n",
    "id: a\nn: 012\n",
    "id: a\nf: --1\n",
    "id: a\ns: a: b\n",
    "id: a\ns: \"x\"y\n",
    "id: a\nmode: 'hot'\n",
    "id: a\nany: 12\n",
    "id: a\nany: -1\n",
    "id: a\nany: .inf\n",
    "id: a\nany: true\n",
    "id: a\nany: FALSE\n",
    "id: a\nany: [x, 1]\n",
    "id: a\nany: _x\n",
    "id: a\n- x\n",
    "id: a\n- k: v\n",
    "id: a\ns: one\n  t: two\n",
    "- id: a\n",
    "id: a\nitems:\n  - - x\n",
    "id: -\n",
    "id: a\nitems: [-, x]\n",
    "",
    "# only a comment\n",
];

#[test]
fn reads_or_refuses_the_rest_as_serde_saphyr_does() {
    for text in REST {
        agrees::<Doc>(text);
        // And `parse` gives the same answer.
        let full = saphyr::<Doc>(text).map(|d| format!("{d:?}"));
        let both = parse::<Doc>("d.yaml", text, 0).map(|d| format!("{d:?}"));
        assert_eq!(full.is_ok(), both.is_ok(), "{text}");
        if let (Ok(a), Ok(b)) = (full, both) {
            assert_eq!(a, b);
        }
    }
}

#[test]
fn ids_keep_their_positions() {
    let text = "id: a\nitems:\n  - {id: 日本, tags: [x, \"y\"]}\n  -   id: z\n";
    let doc = read::<Doc>(text).expect("read");
    let at = |id: &Id| {
        (
            id.value.clone(),
            id.referenced.line(),
            id.referenced.column(),
        )
    };
    assert_eq!(at(&doc.id), ("a".into(), 1, 5));
    assert_eq!(at(&doc.items[0].id), ("日本".into(), 3, 10));
    assert_eq!(at(&doc.items[0].tags[1]), ("y".into(), 3, 24));
    assert_eq!(at(&doc.items[1].id), ("z".into(), 4, 11));
    assert!(agrees::<Doc>(text));
}

/// The run files evidence writes (those of the fixture site `tests/fixtures/figures/`, never
/// the repository's own), and the synthetic sweep of the benchmark, are read here.
#[test]
fn reads_the_runs_evidence_writes() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/figures/data/runs");
    let mut runs = 0;
    for entry in std::fs::read_dir(&dir).expect("the fixture's runs") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("run file");
        assert!(agrees::<crate::model::Run>(&text), "{}", path.display());
        runs += 1;
    }
    // Every run of the fixture (scan-sample, proxy-check, cold-warm) was read.
    assert!(runs >= 3, "{runs} runs in {}", dir.display());
    // A sweep of many cases, each a flow map of its measurements (a pack's probe writes
    // its counters at the top of a case in the same form; the pack's own tests read those).
    let mut sweep = String::from(
        "id: run-00000\nprobe: synthetic\ndate: \"2026-01-01\"\n\
         origin: {ja: \"合成\", en: synthetic}\nassessed_against: synthetic\ncases:\n",
    );
    for c in 0..50 {
        sweep.push_str(&format!(
            "  - {{id: c{c:05}, measurements: {{est_rows: {}, exec_ns: {}, loops: 1}}}}\n",
            100 + c,
            9_000_000 + c
        ));
    }
    assert!(agrees::<crate::model::Run>(&sweep));
}

/// Tokens that are not what the field wants, or not what they seem.
const MISSES: &[&str] = &[
    "007",
    "0x1F",
    "-0",
    "True",
    "null",
    "~",
    "a: b",
    "a #c",
    "-",
    "&a x",
    "*a",
    "!!str x",
    "|",
    "a:",
    "?",
    "%x",
    "`x`",
    "@x",
    "<<",
    "\"t\\x41\"",
    "'q'",
    "18446744073709551616",
    "1234567890123456",
    ".5",
    "[1, 2]",
    "{x: 1}",
    "{lt: 4, le: 5}",
    "[3]",
    "hot",
    "1.5",
];

/// A value for field `name`: usually one it takes, sometimes a miss.
fn value(name: &'static str) -> impl Strategy<Value = &'static str> {
    let fitting: &[&'static str] = match name {
        "n" => &["0", "7", "123", "18446744073709551615"],
        "i" => &["-5", "0", "42", "-2147483648"],
        "f" => &["1.5", "-0.25", "12", "1e3", "0.1", "-1.5e-3"],
        "b" => &["true", "false"],
        "mode" => &["hot", "cold"],
        "any" => &[
            "a",
            "first-pass",
            "日本",
            "True",
            "false",
            "yes",
            "Null",
            "null",
            "x y",
            "inf",
            "Infinity",
            "nan",
            "e5",
            "E5",
            "y",
            "12",
            "1.5",
            "-1",
            ".inf",
            "0x1F",
            "'7'",
            "{k: v}",
            "[a, b]",
            "[a, 1]",
        ],
        "bound" => &["{le: 3}", "{lt: 4}", "\n  le: 3"],
        "pair" => &["[3, x]", "[0, '日本']", "\n- 3\n- x"],
        "map" => &[
            "{k: [a, b]}",
            "{}",
            "{k: [], l: [x]}",
            "\n  k:\n  - a\n  - 'b'",
            "\n  k: [a]\n  l:\n    - x # c\n\n    - 日本",
            "  # c\n k: []",
        ],
        _ => &[
            "a",
            "b c",
            "日本",
            "123",
            "true",
            "a:b",
            "a#b",
            "-a",
            "x]",
            "'q''s'",
            "\"e\\u00e9\"",
            "\"\"",
            "'null'",
            "2026-01-01",
            "→x",
            "a, b",
        ],
    };
    prop_oneof![
        3 => prop::sample::select(fitting.to_vec()),
        1 => prop::sample::select(MISSES.to_vec()),
    ]
}

/// A small document: an id, some fields, a sequence of items in block or flow style.
fn document() -> impl Strategy<Value = String> {
    let names = vec![
        "n", "i", "f", "b", "s", "mode", "bound", "pair", "map", "any",
    ];
    let fields = prop::sample::subsequence(names, 0..5).prop_flat_map(|names| {
        names
            .into_iter()
            .map(|n| (Just(n), value(n)))
            .collect::<Vec<_>>()
    });
    let item = (value("id"), value("n"), any::<bool>());
    let items = prop::collection::vec(item, 0..4);
    (value("id"), fields, items, 0usize..3, any::<bool>()).prop_map(
        |(id, fields, items, indent, flow)| {
            let mut text = format!("id: {id}\n");
            for (k, v) in fields {
                text.push_str(&format!("{k}: {v}\n"));
            }
            if !items.is_empty() {
                text.push_str("items:\n");
                let pad = " ".repeat(indent);
                for (id, n, comment) in items {
                    if flow {
                        text.push_str(&format!("{pad}- {{id: {id}, n: {n}}}\n"));
                    } else {
                        text.push_str(&format!("{pad}- id: {id}\n{pad}  n: {n}\n"));
                    }
                    if comment {
                        text.push_str(&format!("{pad}  # note\n\n"));
                    }
                }
            }
            text
        },
    )
}

/// A document with one character inserted somewhere.
fn mutated() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "\n-", "- ", "\n ", "   ", " ", "\t", "#", ":", "-", "\n", "\"", "'", "{", "}", "[", "]",
        ",", "&", "*", "!", "|", ">", "?", "\u{feff}", "日", "  ", "\n  ", ": ", " #",
    ]);
    (document(), any::<prop::sample::Index>(), pieces).prop_map(|(doc, at, piece)| {
        let mut cut = at.index(doc.len() + 1);
        while !doc.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}{piece}{}", &doc[..cut], &doc[cut..])
    })
}

/// Runs `agrees` on `cases` generated texts; returns how many the subset read.
fn run_agreement(strategy: impl Strategy<Value = String>, cases: u32) -> u32 {
    let read = std::cell::Cell::new(0);
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest::test_runner::TestRunner::new(config)
        .run(&strategy, |text| {
            read.set(read.get() + u32::from(agrees::<Doc>(&text)));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    read.get()
}

#[test]
fn documents_read_alike() {
    // Most generated documents are in the subset; fewer would mean it reads too little
    // for this test to say much.
    let read = run_agreement(document(), 3000);
    assert!(read > 600, "the subset read {read} of 3000 documents");
}

#[test]
fn mutated_documents_read_alike() {
    let read = run_agreement(mutated(), 3000);
    assert!(
        read > 100,
        "the subset read {read} of 3000 mutated documents"
    );
}

/// Texts on which `fuzz/fuzz_targets/yaml_subset.rs` found the subset reading unlike
/// serde-saphyr, each with what was wrong.
const FUZZ_FOUND: &[&str] = &[
    // A float too large for a double was read as infinity; serde-saphyr rejects it.
    "id: a\nf: 1e400\n",
    "id: a\nf: -1e400\n",
];

#[test]
fn what_the_fuzzer_found_reads_alike() {
    for text in FUZZ_FOUND {
        agrees::<Doc>(text);
    }
}

/// `k:` then `- k:` lines, each two spaces deeper, `levels` times, then a value.
fn compact_nesting(levels: usize) -> String {
    let mut text = String::from("k:\n");
    for depth in 0..levels {
        text.push_str(&format!("{}- k:\n", " ".repeat(2 * depth)));
    }
    text.push_str(&format!("{}- x\n", " ".repeat(2 * levels)));
    text
}

/// `k:` lines, each two spaces deeper, `levels` times, then a value: maps in maps.
fn map_nesting(levels: usize) -> String {
    let mut text = String::new();
    for depth in 0..levels {
        text.push_str(&format!("{}k:\n", " ".repeat(2 * depth)));
    }
    text.push_str(&format!("{}k: x\n", " ".repeat(2 * levels)));
    text
}

#[test]
fn deep_nesting_is_left_alone() {
    assert!(super::subset::parse(&map_nesting(10)).is_ok());
    assert!(super::subset::parse(&map_nesting(100)).is_err());
    assert!(super::subset::parse(&compact_nesting(10)).is_ok());
    assert!(super::subset::parse(&compact_nesting(200)).is_err());
    let flow = |n: usize| format!("k: {}{}\n", "[".repeat(n), "]".repeat(n));
    assert!(super::subset::parse(&flow(10)).is_ok());
    assert!(super::subset::parse(&flow(100_000)).is_err());
}

/// A flow collection after `- ` or `key: ` counts the entry's own level: 48 brackets (the
/// limit, `MAX_DEPTH`) are read, 49 are left to serde-saphyr, in either place.
#[test]
fn a_flow_value_counts_its_entrys_level() {
    let flow = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for lead in ["- ", "k: "] {
        assert!(
            super::subset::parse(&format!("{lead}{}\n", flow(48))).is_ok(),
            "{lead}"
        );
        assert!(
            super::subset::parse(&format!("{lead}{}\n", flow(49))).is_err(),
            "{lead}"
        );
    }
}

/// The subset's refusal says what it is, when it reaches a message.
#[test]
fn outside_says_what_it_is() {
    assert_eq!(
        super::subset::Outside.to_string(),
        "outside the plain YAML subset"
    );
}

/// The two tapes of a text in the subset are one: the subset reader and the parser's
/// events agree on every node, its text, its kind and where it starts.
fn same_tape(text: &str) {
    if let Ok(fast) = super::subset::parse(text) {
        assert_eq!(
            Ok(fast),
            super::events::parse(text).map(|r| r.tape).map_err(|_| ()),
            "{text}"
        );
    }
}

#[test]
fn the_parsers_events_give_the_subsets_tape() {
    let config = ProptestConfig {
        cases: 3000,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let strategy = prop_oneof![document(), mutated()];
    proptest::test_runner::TestRunner::new(config)
        .run(&strategy, |text| {
            same_tape(&text);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    for text in READ {
        same_tape(text);
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Rare {
    #[serde(default)]
    c: Option<char>,
    #[serde(default)]
    h: Option<f32>,
    #[serde(default)]
    big: Option<i128>,
    #[serde(default)]
    ubig: Option<u128>,
    #[serde(default)]
    unit: Vec<()>,
    #[serde(default)]
    empty: Option<Empty>,
}

#[derive(Debug, Deserialize)]
struct Empty;

#[test]
fn reads_rarer_types_as_serde_saphyr_does() {
    let read_alike = [
        "c: a\n",
        "c: '1'\nh: 1.5\n",
        "c: 日\nh: -.inf\n",
        "h: 0.1\nbig: -170141183460469231731687303715884105728\n",
        "ubig: 340282366920938463463374607431768211455\n",
        "ubig: 0xff\nbig: -0b11\n",
        "unit: [~, null]\n",
        "empty: {}\n",
        "h: 16777217\n",
        "c: ~\n",
    ];
    for text in read_alike {
        assert!(agrees::<Rare>(text), "not read:\n{text}");
    }
    // Errors to serde-saphyr too.
    let refused = [
        "c: ab\n",
        "c: ''\n",
        "h: 3.4e39\n",
        "big: 170141183460469231731687303715884105728\n",
        "ubig: -1\n",
        "unit: [x]\n",
        "empty: {k: v}\n",
    ];
    for text in refused {
        assert!(read::<Rare>(text).is_err(), "read:\n{text}");
        assert!(saphyr::<Rare>(text).is_err(), "serde-saphyr reads:\n{text}");
    }
}

/// Nesting is refused past serde-saphyr's depth, 64 levels, in flow and block
/// collections alike, with its words.
#[test]
fn nesting_stops_at_serde_saphyrs_depth() {
    use super::events::parse as events;
    let flow = |n: usize| format!("---\nk: {}{}\n", "[".repeat(n), "]".repeat(n));
    assert!(events(&flow(63)).is_ok());
    let Err(e) = events(&flow(64)) else {
        panic!("64 levels under a key read");
    };
    assert_eq!(e.message, "nesting deeper than 64 levels (it reached 65)");
    assert!(saphyr::<serde_json::Value>(&flow(64)).is_err());
    assert!(saphyr::<serde_json::Value>(&flow(63)).is_ok());
    let block = |n: usize| format!("---\n{}", map_nesting(n));
    let deepest = (1..80).take_while(|&n| events(&block(n)).is_ok()).last();
    let saphyr_deepest = (1..80)
        .take_while(|&n| saphyr::<serde_json::Value>(&block(n)).is_ok())
        .last();
    assert_eq!(deepest, saphyr_deepest);
}

/// Anchors, aliases and merge keys, read as serde-saphyr reads them: a key written in the
/// mapping wins over a merged one, the first mapping merged over the later; an id read
/// through an alias is placed at the alias.
#[test]
fn reads_anchors_aliases_and_merge_keys_as_serde_saphyr_does() {
    let texts = [
        "id: &x a\ns: *x\n",
        "id: a\nitems:\n  - &it {id: x, n: 1}\n  - *it\n",
        "id: a\nitems:\n  - &it\n    id: x\n    tags: [p, q]\n  - *it\n",
        "id: a\n<<: {n: 1}\n",
        "id: a\nn: 5\n<<: {n: 1}\n",
        "id: a\n<<: [{n: 1}, {n: 2, s: x}]\n",
        "base: &b {n: 1, s: x}\n",
        "id: a\nmap: &m {k: [x]}\nitems: [{id: y}]\n",
        "id: a\nitems:\n  - &i {id: x}\n  - <<: *i\n    n: 3\n",
        "id: a\nitems:\n  - {id: x, <<: ~}\n",
        "id: a\n<<: {items: [{id: x, tags: [p]}], n: 1}\ns: z\n",
        "id: a\nmap: {k: [x]}\n<<: [{s: y}, {items: [{id: x}], map: {l: [z]}}]\n",
        "id: a\n<<: 3\n",
        "id: a\n<<: [3]\n",
        "id: a\ns: !!str 12\n",
        "id: !!str 12\nn: !!str 12\n",
        "id: a\nany: !!str 12\n",
        "id: a\ns: !!str ~\n",
        "id: a\nitems: !!seq [{id: x}]\nmap: !!map {k: []}\n",
        "id: &x a\nitems: [{id: *x, tags: [*x, *x]}]\n",
        "id: a\nitems: &l [{id: x}]\nmap: {k: *l}\n",
        "id: a\nitems: &l [{id: x, tags: *l}]\n",
        "id: a\ns: *nowhere\n",
    ];
    for text in texts {
        agrees::<Doc>(text);
    }
    let doc = read::<Doc>("id: &x a\nitems:\n  - id:   *x\n").expect("read");
    assert_eq!(
        (
            doc.items[0].id.referenced.line(),
            doc.items[0].id.referenced.column()
        ),
        (3, 11)
    );
    assert!(agrees::<Doc>("id: a\n<<: [{n: 1}, {n: 2, s: x}]\n"));
}

/// Tags other than `!!str`, `!!seq` and `!!map` are refused, at the tag's node, saying so.
#[test]
fn other_tags_are_refused_at_their_place() {
    for (text, tag, at) in [
        ("id: a\nn: !!int 12\n", "!!int", (2, 10)),
        ("id: a\ns: !custom x\n", "!custom", (2, 12)),
        ("id: a\nitems: !!map []\n", "!!map", (2, 14)),
    ] {
        let Err(e) = read::<Doc>(text) else {
            panic!("read {text}");
        };
        assert_eq!(e.kind, Kind::Unsupported, "{text}");
        assert!(e.message.contains(&format!("`{tag}`")), "{}", e.message);
        assert_eq!((e.line, e.column), at, "{text}");
    }
}

/// A document of nothing but comments is null: an empty list or mapping to a type that
/// wants one, a missing field to a record, as to serde-saphyr.
#[test]
fn an_empty_text_reads_as_serde_saphyr_reads_it() {
    for text in ["", "# only a comment\n", "\n\n"] {
        agrees::<Doc>(text);
        agrees::<Vec<Item>>(text);
        agrees::<BTreeMap<String, u32>>(text);
        agrees::<Option<Doc>>(text);
        agrees::<serde_json::Value>(text);
        agrees::<Rare>(text);
    }
}

/// Errors, each at the line and column serde-saphyr gives, with the path to the field.
#[test]
fn errors_are_placed_where_serde_saphyr_places_them() {
    let cases: &[(&str, &str)] = &[
        ("id: a\nn: x\n", "n"),
        ("id: a\nn: -1\n", "n"),
        ("id: a\nb: NO\n", "b"),
        ("id: a\ni: 2147483648\n", "i"),
        ("id: a\nitems:\n  - id: x\n    n: nope\n", "items[0].n"),
        ("id: a\nitems:\n  - id: x\n  - n: 1\n", "items[1]"),
        ("id: a\nextra: 1\n", "extra"),
        (
            "id: a\nitems:\n  - id: x\n    extra: |\n      y\n",
            "items[0].extra",
        ),
        ("n: 1\n", ""),
        ("id: a\nitems:\n  - id: ~\n", "items[0].id"),
        ("id: a\nitems: {id: x}\n", "items"),
        ("id: a\nitems:\n- id: x\n  n: [1]\n", "items[0].n"),
        ("id: a\nmode: warm\n", "mode"),
        ("id: a\nf: 1e400\n", "f"),
        ("id: a\ns: 'x\n", ""),
        ("id: a\n  s: x\n", ""),
        ("id: [a\n", ""),
        ("id: a\nid: b\n", ""),
    ];
    for (text, path) in cases {
        let ours = read::<Doc>(text).expect_err(text);
        let theirs = saphyr::<Doc>(text).expect_err(text);
        let at = theirs
            .location()
            .map(|l| (l.line() as u32, l.column() as u32));
        assert_eq!(
            Some((ours.line, ours.column)),
            at,
            "{ours} / {theirs}:\n{text}"
        );
        assert_eq!(ours.path, *path, "{text}");
    }
    // A missing field is placed at its mapping's start, its `{` in a flow list too, where
    // serde-saphyr places it at the mapping's first key.
    let ours = read::<Doc>("id: a\nitems: [{id: x}, {n: 1}]\n").expect_err("missing id");
    assert_eq!(
        (ours.line, ours.column, ours.path.as_str()),
        (2, 18, "items[1]")
    );
    assert_eq!(ours.message, "missing field `id`");
    // A second document, at its `---` (serde-saphyr: at the line after it).
    let ours = read::<Doc>("id: a\n---\nid: b\n").expect_err("two documents");
    assert_eq!((ours.line, ours.column, ours.kind), (2, 1, Kind::Syntax));
    assert!(
        ours.message.contains("second YAML document"),
        "{}",
        ours.message
    );
    // A tuple too long, at the list (serde-saphyr: at its key).
    let ours = read::<Doc>("id: a\npair: [1, x, y]\n").expect_err("too long");
    assert_eq!((ours.line, ours.column, ours.path.as_str()), (2, 7, "pair"));
    assert_eq!(
        ours.message,
        "invalid length 3, expected a tuple of 2 items"
    );
}

/// Texts on which the fuzz target found the reader unlike serde-saphyr, since the events
/// tape reads every text.
#[test]
fn what_the_fuzzer_found_in_the_events_tape_reads_alike() {
    // A lone carriage return is a line break to the parser: the column counts from it.
    assert!(agrees::<Doc>("\rid: a\n"));
    assert!(agrees::<Doc>("id: a\r  # c\rs: x\n"));
}

/// An anchor defined inside a merge key's value leaves the tape with that value: an alias
/// of it is refused, saying so; an anchor defined before the merge is still there.
#[test]
fn anchors_inside_a_merge_value_are_refused_and_the_others_kept() {
    let text = "id: a\nitems:\n  - <<: &m {n: 1}\n    id: x\n  - <<: *m\n    id: y\n";
    let e = read::<Doc>(text).expect_err("an alias of an anchor inside a merge value");
    assert_eq!((e.kind, e.line, e.column), (Kind::Unsupported, 5, 9), "{e}");
    assert!(e.message.contains("merge key"), "{e}");
    let text = "id: &i a\nitems:\n  - <<: {n: 1}\n    id: x\ns: *i\n";
    assert!(agrees::<Doc>(text));
    assert_eq!(read::<Doc>(text).expect("read").s.as_deref(), Some("a"));
}

/// A merge key's value counts its nesting like any other value.
#[test]
fn a_merge_value_nests_like_any_value() {
    let nested = |n: usize| format!("<<: {}{}\n", "[".repeat(n), "]".repeat(n));
    assert!(matches!(read::<serde_json::Value>(&nested(63)), Err(e) if e.kind == Kind::Shape));
    let e = read::<serde_json::Value>(&nested(64)).expect_err("too deep");
    assert_eq!(e.message, "nesting deeper than 64 levels (it reached 65)");
    assert!(saphyr::<serde_json::Value>(&nested(64)).is_err());
}

/// A text that multiplies itself through aliases stops at a million copied values, at the
/// alias that passes it.
#[test]
fn aliases_stop_at_a_million_copied_values() {
    let mut text = format!("a: &a [{}]\n", "1, ".repeat(10_000));
    for i in 0..101 {
        text.push_str(&format!("b{i}: *a\n"));
    }
    let e = read::<serde_json::Value>(&text).expect_err("too many copies");
    assert_eq!(e.kind, Kind::Limit);
    assert!(e.message.contains("values copied for aliases"), "{e}");
    // The 100th alias copies the 1,000,001st value.
    assert_eq!((e.line, e.column), (101, 6), "{e}");
    assert!(saphyr::<serde_json::Value>(&text).is_err());
    // Exactly a million copied values pass; the hundred aliases of one anchor are then
    // stopped by the ratio, at the end.
    let mut text = format!("a: &a [{}]\n", "1, ".repeat(9_999));
    for i in 0..100 {
        text.push_str(&format!("b{i}: *a\n"));
    }
    let e = read::<serde_json::Value>(&text).expect_err("too many aliases");
    assert_eq!(
        e.message,
        "100 aliases for 1 anchors, more than 10 uses per anchor"
    );
}
