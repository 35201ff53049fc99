//! Differential fuzzing of the YAML subset reader against serde-saphyr.
//!
//! For every input and every type below: when the YAML reader reads the text, serde-saphyr
//! must read it too, to the same value (ids' lines and columns included); when it refuses
//! it, serde-saphyr must refuse it too, unless the reader refused a tag or a limit of its
//! own. And `evidence::load::yaml::parse` must give the reader's answer at its place; a
//! text with a CR that no LF follows, or with a control character, refuses at that
//! character instead.
//!
//! An input is YAML text, or, when it starts with a NUL byte (which no YAML file holds),
//! the choices of [`yaml_grammar`], which builds documents shaped like the types below, so
//! that the fuzzer reaches nested documents the subset reads rather than texts it
//! declines at the first byte.
#![no_main]

mod yaml_grammar;

use evidence::load::yaml::error::Kind;
use evidence::load::yaml::{self, subset_de};
use evidence::model::page::FrontMatter;
use evidence::model::{DispatchFile, Id, Run};
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::fmt::Debug;

fuzz_target!(|data: &[u8]| {
    let text = match data.split_first() {
        Some((0, choices)) => yaml_grammar::document(&mut Unstructured::new(choices)),
        _ => String::from_utf8_lossy(data).into_owned(),
    };
    same::<Doc>(&text);
    same::<serde_json::Value>(&text);
    same::<Run>(&text);
    same::<DispatchFile>(&text);
    same::<FrontMatter>(&text);
});

/// The YAML reader, and `yaml::parse`, agree with serde-saphyr on `text` read as `T`.
fn same<T: DeserializeOwned + Debug>(text: &str) {
    let name = std::any::type_name::<T>();
    let full = serde_saphyr::from_str_with_options::<T>(text, yaml::options());
    let ours = subset_de::read::<T>(text);
    match (&ours, &full) {
        (Ok(ours), Ok(full)) => assert_eq!(
            yaml::without_spans(&format!("{ours:?}")),
            yaml::without_spans(&format!("{full:?}")),
            "read unlike serde-saphyr as {name}:\n{text:?}"
        ),
        (Ok(ours), Err(e)) => {
            panic!("read {ours:?} as {name}, which serde-saphyr rejects ({e}):\n{text:?}")
        }
        // A tag the tool does not read, and a limit of its own, are its own choice.
        (Err(e), Ok(full)) if !matches!(e.kind, Kind::Unsupported | Kind::Limit) => {
            panic!("refused ({e}) as {name} what serde-saphyr reads as {full:?}:\n{text:?}")
        }
        (Err(_), _) => {}
    }
    // A CR that no LF follows, and a control character (raw or escaped), are refused
    // before the reader sees the text.
    let refusal = yaml::lone_carriage_return("f.yaml", text, 0)
        .or_else(|| yaml::control_character("f.yaml", text, 0, true));
    match (yaml::parse::<T>("f.yaml", text, 0), refusal) {
        (Err(d), Some(refusal)) => assert_eq!(*d, refusal, "refused elsewhere:\n{text:?}"),
        (Ok(v), Some(refusal)) => {
            panic!("parse read {v:?} as {name} despite {refusal:?}:\n{text:?}")
        }
        (Ok(_), None) => assert!(ours.is_ok(), "parse read what the reader refuses:\n{text:?}"),
        (Err(d), None) => match &ours {
            Err(e) => assert_eq!(
                (d.span.line, d.span.column),
                (e.line as usize, e.column as usize),
                "parse placed the error elsewhere:\n{text:?}"
            ),
            Ok(_) => panic!("parse refused ({d:?}) what the reader reads:\n{text:?}"),
        },
    }
}

/// Every kind of field the subset's deserializer reads: integers of each width, floats,
/// booleans, strings, ids with positions, unit and newtype enums, tuples, options,
/// sequences and maps.
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
    u: Option<u8>,
    #[serde(default)]
    w: Option<i64>,
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
