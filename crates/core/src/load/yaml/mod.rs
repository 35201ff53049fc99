//! YAML parsing: the plain subset by `subset`, every other text by `events` (the tape of
//! the parser's events), and the tape into the record's type by `subset_de`, with every
//! error located and the path to its field.
//!
//! The reading is serde-saphyr's, which, unlike serde_yaml and its libyaml forks, rejects
//! duplicate keys and bounds nesting and alias expansion; debug builds hold each read to
//! serde-saphyr's own (`assert_saphyr_agrees`). serde-saphyr's deserializer is not used
//! otherwise: compiled once per record type, it cost a tenth or more of a clean release build.

pub mod error;
mod events;
mod subset;
// Public for the differential fuzz target, which asks it alone.
pub mod subset_de;
#[cfg(test)]
mod subset_tests;

use crate::diagnostics::{Diagnostic, Span};
use crate::model::Run;
use error::{Kind, YamlError};
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// serde-saphyr's limits, as the reader's own (`events`) are set.
fn budget() -> serde_saphyr::Budget {
    let mut budget = serde_saphyr::Budget::default();
    // The defaults (250k nodes / 1M events) reject a 6 MB run file; sweeps are large.
    budget.max_nodes = events::MAX_NODES;
    budget.max_events = 200_000_000;
    budget.max_depth = events::MAX_DEPTH as usize;
    budget
}

/// The options of serde-saphyr that the reader mirrors; public so that the differential
/// fuzz target (`fuzz/fuzz_targets/yaml_subset.rs`) and the tests compare with exactly these.
pub fn options() -> serde_saphyr::Options {
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget());
    // Without this `NO` or `off` would silently become `false`.
    opts.strict_booleans = true;
    opts.with_snippet = false;
    opts
}

/// Parses `text` (the contents of `file`) into `T`, or a located diagnostic.
/// `line_offset` shifts reported lines, for YAML embedded in a larger file.
pub fn parse<T: DeserializeOwned + Debug>(
    file: &str,
    text: &str,
    line_offset: usize,
) -> Result<T, Box<Diagnostic>> {
    if let Some(d) = lone_carriage_return(file, text, line_offset)
        .or_else(|| control_character(file, text, line_offset, true))
    {
        return Err(Box::new(d));
    }
    let read = subset_de::read::<T>(text);
    #[cfg(debug_assertions)]
    assert_saphyr_agrees(file, text, &read);
    read.map_err(|e| Box::new(to_diagnostic(file, e, line_offset)))
}

/// Parses a run file: [`parse`] for [`Run`], compiled once here for the crates that read
/// runs (the probe framework, packs), which would each compile their own copy of the
/// generic reader for the run's types (a release build shares no generic code between
/// crates).
pub fn parse_run(file: &str, text: &str) -> Result<Run, Box<Diagnostic>> {
    parse(file, text, 0)
}

/// A carriage return that no line feed follows, as an error at its place. YAML, and
/// markdown, count it as a line break, every other reader of the file (git, the
/// diagnostics that quote it, the line counts of pages and ids) does not; rather than
/// point at lines that disagree, the tool asks for LF or CRLF line endings.
pub fn lone_carriage_return(file: &str, text: &str, line_offset: usize) -> Option<Diagnostic> {
    let bytes = text.as_bytes();
    let at = memchr::memchr_iter(b'\r', bytes).find(|&i| bytes.get(i + 1) != Some(&b'\n'))?;
    let line_start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let line = 1 + memchr::memchr_iter(b'\n', &bytes[..at]).count();
    let column = 1 + text[line_start..at].chars().count();
    Some(
        Diagnostic::error(
            "line-ending",
            Span::new(file, line + line_offset, column),
            "a carriage return (CR) that no line feed follows",
        )
        .with_hint("save the file with LF or CRLF line endings"),
    )
}

/// Whether `c` is a control character no text of a site may hold: C0 controls but tab,
/// LF and CR (CR is judged as a line ending), DEL and the C1 controls. The SVG writer
/// drops them; HTML may not carry them either.
fn refused_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// The first control character in `text` (the contents of `file`), raw or written as a
/// YAML escape inside a double-quoted scalar (`"\u0001"`, `"\x7f"`, `"\e"`), as an error
/// at its place: the one check every data file and page passes through on its way in.
/// A double-quoted scalar is recognised on its own line (an odd count of unescaped `"`
/// before the backslash); `escapes` is false for markdown, where a backslash is text.
pub fn control_character(
    file: &str,
    text: &str,
    line_offset: usize,
    escapes: bool,
) -> Option<Diagnostic> {
    let bytes = text.as_bytes();
    // Most files have no byte that may start one: a vectorised pass says so.
    let odd = |any: bool, &b: &u8| {
        any | ((b < b' ') & (b != b'\t') & (b != b'\n') & (b != b'\r'))
            | (b == 0x7f)
            | (b == 0xc2)
            | (b == b'\\')
    };
    if !bytes.chunks(1024).any(|c| c.iter().fold(false, odd)) {
        return None;
    }
    let mut line = 1;
    let mut line_start = 0;
    let mut quotes = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let found = if refused_control(c) {
            Some(c)
        } else if escapes && c == '\\' && quotes % 2 == 1 {
            let escaped = escape_value(&text[i + 1..]);
            // The escaped character is the backslash's, not a quote that closes.
            chars.next();
            escaped.filter(|&e| refused_control(e))
        } else {
            None
        };
        if let Some(bad) = found {
            let column = 1 + text[line_start..i].chars().count();
            return Some(
                Diagnostic::error(
                    "control-character",
                    Span::new(file, line + line_offset, column),
                    format!(
                        "a control character (U+{:04X}), which no page may show",
                        u32::from(bad)
                    ),
                )
                .with_hint(
                    "remove it: text may hold tabs and line breaks, no other control character",
                ),
            );
        }
        match c {
            '\n' => {
                line += 1;
                line_start = i + 1;
                quotes = 0;
            }
            '"' => quotes += 1,
            _ => {}
        }
    }
    None
}

/// The character a YAML double-quoted escape (the text after its backslash) stands for,
/// or `None` when it is no escape of one character.
fn escape_value(after: &str) -> Option<char> {
    let hex = |n: usize| {
        after
            .get(1..1 + n)
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32)
    };
    match after.chars().next()? {
        '0' => Some('\0'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'e' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        'r' => Some('\r'),
        'N' => Some('\u{85}'),
        'x' => hex(2),
        'u' => hex(4),
        'U' => hex(8),
        _ => None,
    }
}

/// Debug builds (every test) check each text read against serde-saphyr: the same value
/// where it reads one, and an error where the text or its fit to the type is at fault (a
/// tag the tool refuses, and a limit of its own, are its own choice).
#[cfg(debug_assertions)]
fn assert_saphyr_agrees<T: DeserializeOwned + Debug>(
    file: &str,
    text: &str,
    read: &Result<T, YamlError>,
) {
    let mut full = None;
    let mut seed = |d: &mut dyn erased_serde::Deserializer<'_>| -> Result<(), erased_serde::Error> {
        full = Some(erased_serde::deserialize::<T>(d)?);
        Ok(())
    };
    let saphyr = serde_saphyr::with_deserializer_from_str_with_options(text, options(), |de| {
        seed(&mut <dyn erased_serde::Deserializer>::erase(de))
            .map_err(<serde_saphyr::Error as serde::de::Error>::custom)
    });
    match (read, saphyr, full) {
        (Ok(value), Ok(()), Some(full)) => assert_eq!(
            without_spans(&format!("{value:?}")),
            without_spans(&format!("{full:?}")),
            "the YAML reader read {file} unlike serde-saphyr"
        ),
        (Ok(_), saphyr, _) => {
            panic!("the YAML reader read {file}, which serde-saphyr rejects: {saphyr:?}")
        }
        (Err(e), Ok(()), _) if matches!(e.kind, Kind::Shape | Kind::Syntax | Kind::Duplicate) => {
            panic!("the YAML reader rejects {file}, which serde-saphyr reads: {e}")
        }
        (Err(_), _, _) => {}
    }
}

/// A value's `Debug` text without serde-saphyr's byte spans (`, span: Span { … }`), which
/// its `Location` prints beside the line and column: the tool's reader gives a position as
/// line and column alone, the two the tool uses.
pub fn without_spans(debug: &str) -> String {
    const SPAN: &str = ", span: Span {";
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(i) = rest.find(SPAN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + SPAN.len()..];
        rest = after.find('}').map_or("", |j| &after[j + 1..]);
    }
    out.push_str(rest);
    out
}

/// The diagnostic of a YAML error: its words, the path to the field, and a hint.
fn to_diagnostic(file: &str, e: YamlError, line_offset: usize) -> Diagnostic {
    let message = match e.kind {
        Kind::Limit => format!("too much for the YAML parser: {}", e.message),
        _ if e.path.is_empty() => e.message,
        _ => format!("{} (at `{}`)", e.message, e.path),
    };
    let hint = match e.kind {
        Kind::Limit => Some("split the file, or write it with less nesting and fewer aliases"),
        Kind::Duplicate => Some("a key may appear only once in a mapping"),
        Kind::Unsupported => Some("write the value plainly: quote it to make it text"),
        Kind::Syntax => None,
        Kind::Shape => hint_for(&message),
    };
    let span = Span::new(file, e.line as usize + line_offset, e.column as usize);
    let d = Diagnostic::error("schema", span, message);
    match hint {
        Some(hint) => d.with_hint(hint),
        None => d,
    }
}

fn hint_for(raw: &str) -> Option<&'static str> {
    if raw.contains("unknown field") {
        Some("remove the field or fix its spelling; the expected fields are listed above")
    } else if raw.contains("(this site writes ") || raw.contains("unknown language `") {
        Some(
            "every text has each of the site's languages, and no other (`languages:` in evidence.yaml)",
        )
    } else if raw.contains("duplicate") {
        Some("a key may appear only once in a mapping")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        name: String,
        items: Vec<Item>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        n: u32,
        flag: Option<bool>,
    }

    #[test]
    fn type_error_is_located_with_path() {
        let text = "name: x\nitems:\n  - n: 1\n  - n: nope\n";
        let d = parse::<Doc>("d.yaml", text, 0).unwrap_err();
        assert_eq!((d.span.line, d.span.column), (4, 8));
        assert!(d.message.contains("items[1].n"), "{}", d.message);
    }

    #[test]
    fn a_lone_cr_is_an_error_at_its_place() {
        // Inside a quoted scalar YAML would fold it like a line break; CRLF is fine.
        let err =
            parse::<serde_json::Value>("f.yaml", "a: x\nb: {c: \"yé\r z\"}\n", 3).unwrap_err();
        assert_eq!((err.span.line, err.span.column), (5, 11), "{err:?}");
        assert_eq!(err.code, "line-ending");
        let crlf = parse::<serde_json::Value>("f.yaml", "a: x\r\nb: y\r\n", 0).unwrap();
        assert_eq!(crlf["b"], "y");
        let err = parse::<serde_json::Value>("f.yaml", "a: x\r", 0).unwrap_err();
        assert_eq!((err.span.line, err.span.column), (1, 5), "{err:?}");
    }

    #[test]
    fn unknown_field_is_rejected() {
        let text = "name: x\nitems: []\nextra: 1\n";
        let d = parse::<Doc>("d.yaml", text, 0).unwrap_err();
        assert!(d.message.contains("unknown field `extra`"), "{}", d.message);
        assert_eq!(d.span.line, 3);
    }

    #[test]
    fn duplicate_keys_are_rejected() {
        let d = parse::<Doc>("d.yaml", "name: a\nname: b\nitems: []\n", 0).unwrap_err();
        assert_eq!(d.span.line, 2, "{}", d.message);
        assert_eq!(d.message, "duplicate key `name`");
    }

    #[test]
    fn the_first_error_in_the_text_is_reported() {
        // A field the type does not take comes before the duplicate key: serde-saphyr,
        // reading the type, stops there, and so does the diagnostic.
        let text = "name: a\nextra: 1\nitems: [{n: 1, n: 2}]\n";
        let d = parse::<Doc>("d.yaml", text, 0).unwrap_err();
        assert_eq!(d.span.line, 2, "{}", d.message);
        assert!(d.message.contains("unknown field `extra`"), "{}", d.message);
        // The duplicate key first, the unknown field after it: the duplicate key, whole.
        let text = "name: a\nitems: [{n: 1, n: 2}]\nextra: 1\n";
        let d = parse::<Doc>("d.yaml", text, 0).unwrap_err();
        assert_eq!((d.span.line, d.message.as_str()), (2, "duplicate key `n`"));
        // A float too large for a double fails only a read without the type; as a string
        // it is fine, and the unknown field after it is the error.
        let text = "name: 1e400\nextra: 1\nitems: []\n";
        let d = parse::<Doc>("d.yaml", text, 0).unwrap_err();
        assert_eq!(d.span.line, 2, "{}", d.message);
        assert!(d.message.contains("unknown field `extra`"), "{}", d.message);
    }

    #[test]
    fn norway_is_not_false() {
        let text = "name: x\nitems:\n  - n: 1\n    flag: NO\n";
        assert!(parse::<Doc>("d.yaml", text, 0).is_err());
    }

    #[test]
    fn deep_nesting_fails_fast() {
        let text = format!("name: {}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse::<Doc>("d.yaml", &text, 0).is_err());
    }

    #[test]
    fn a_budget_breach_is_said_in_words() {
        // One anchor used 101 times: more than ten uses per anchor.
        let text = format!(
            "name: x\nitems:\n  - &a {{n: 1}}\n{}",
            "  - *a\n".repeat(101)
        );
        let d = parse::<Doc>("d.yaml", &text, 0).unwrap_err();
        assert_eq!(
            d.message,
            "too much for the YAML parser: 101 aliases for 1 anchors, more than 10 uses per anchor"
        );
        assert_eq!((d.span.line, d.span.column), (105, 1));
        let deep = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        let d = parse::<serde_json::Value>("d.yaml", &deep, 0).unwrap_err();
        assert_eq!(
            d.message,
            "too much for the YAML parser: nesting deeper than 64 levels (it reached 65)"
        );
    }

    #[test]
    fn spans_leave_the_debug_text_and_the_rest_stays() {
        let debug = "Spanned { value: 1, referenced: Location { line: 3, column: 5, span: Span { offset: 27, len: 0, byte_info: (27, 0) }, source_id: 0 } }";
        assert_eq!(
            without_spans(debug),
            "Spanned { value: 1, referenced: Location { line: 3, column: 5, source_id: 0 } }"
        );
        assert_eq!(without_spans("no spans"), "no spans");
        // A `}` before the span is not the span's end.
        assert_eq!(
            without_spans("Pos { line: 3 }, span: Span { offset: 27 } }"),
            "Pos { line: 3 } }"
        );
    }

    #[test]
    fn a_refused_tag_is_an_error_serde_saphyr_need_not_share() {
        // serde-saphyr reads `!!int 1`; the debug build's check lets the refusal stand.
        let d = parse::<Doc>("d.yaml", "name: x\nitems: [{n: !!int 1}]\n", 0).unwrap_err();
        assert!(d.message.contains("`!!int`"), "{}", d.message);
        assert_eq!((d.span.line, d.span.column), (2, 19));
        assert!(d.hint.is_some());
    }

    #[test]
    fn line_offset_shifts_lines() {
        let d = parse::<Doc>("p.md", "name: x\nitems: 3\n", 1).unwrap_err();
        assert_eq!(d.span.line, 3);
    }
}
