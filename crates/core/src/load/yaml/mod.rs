//! YAML parsing: the plain subset by `subset`, most other texts by `events` (the tape of
//! the parser's events), what neither settles (and every error) by serde-saphyr,
//! configured once, with located errors.
//!
//! serde-saphyr rejects duplicate keys and bounds nesting and alias expansion, unlike
//! serde_yaml and its libyaml forks. Its errors carry line and column but no field
//! path, so [`parse`] adds the path (`cases[2].est_rows`) itself.
//!
//! serde-saphyr sees each record type only through `erased_serde`: compiled once per type,
//! its deserializer made a fifth of the core's code and a sixth of the pack's.

mod events;
mod subset;
// Public for the differential fuzz target, which asks it alone.
pub mod subset_de;
#[cfg(test)]
mod subset_tests;

use crate::diagnostics::{Diagnostic, Span};
use crate::model::Run;
use serde::de::{DeserializeOwned, IgnoredAny};
use std::fmt::Debug;

fn budget() -> serde_saphyr::Budget {
    let mut budget = serde_saphyr::Budget::default();
    // The defaults (250k nodes / 1M events) reject a 6 MB run file; sweeps are large.
    budget.max_nodes = 50_000_000;
    budget.max_events = 200_000_000;
    budget.max_depth = 64;
    budget
}

/// The options of every serde-saphyr parse; public so that the differential fuzz target
/// (`fuzz/fuzz_targets/yaml_subset.rs`) reads with exactly these.
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
    if let Some(value) = subset_de::read::<T>(text) {
        #[cfg(debug_assertions)]
        assert_saphyr_agrees(file, text, &value);
        return Ok(value);
    }
    parse_full(file, text, line_offset)
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

/// Debug builds (every test) check each text the subset read against serde-saphyr.
#[cfg(debug_assertions)]
fn assert_saphyr_agrees<T: DeserializeOwned + Debug>(file: &str, text: &str, value: &T) {
    let mut full = None;
    let mut seed = |d: &mut dyn erased_serde::Deserializer<'_>| {
        full = Some(erased_serde::deserialize::<T>(d)?);
        Ok(())
    };
    let read = read_erased(text, &mut seed);
    match (read, full) {
        (Ok(()), Some(full)) => assert_eq!(
            format!("{value:?}"),
            format!("{full:?}"),
            "the YAML subset read {file} unlike serde-saphyr"
        ),
        (read, _) => panic!("the YAML subset read {file}, which serde-saphyr rejects: {read:?}"),
    }
}

/// What serde-saphyr deserializes into: one record type, behind `dyn`, so that serde-saphyr's
/// deserializer (and the field-path tracker around it) is compiled once for every type,
/// not once per type.
type Seed<'s> =
    dyn FnMut(&mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error> + 's;

/// Parses `text` with serde-saphyr alone.
fn parse_full<T: DeserializeOwned>(
    file: &str,
    text: &str,
    line_offset: usize,
) -> Result<T, Box<Diagnostic>> {
    let mut value = None;
    let mut seed = |d: &mut dyn erased_serde::Deserializer<'_>| {
        value = Some(erased_serde::deserialize::<T>(d)?);
        Ok(())
    };
    read_full(file, text, line_offset, &mut seed)?;
    value.ok_or_else(|| {
        Box::new(Diagnostic::error(
            "schema",
            Span::file(file),
            "the file did not parse",
        ))
    })
}

/// Reads `text` into `seed` with serde-saphyr, or the located error.
fn read_full(
    file: &str,
    text: &str,
    line_offset: usize,
    seed: &mut Seed<'_>,
) -> Result<(), Box<Diagnostic>> {
    // Tracking the field path costs a fifth of the parse, and only an error needs it:
    // parse plainly, and again with the path when that fails.
    read_erased(text, seed).map_err(|_| Box::new(located_error(file, text, line_offset, seed)))
}

/// Reads `text` into `seed` with serde-saphyr.
fn read_erased(text: &str, seed: &mut Seed<'_>) -> Result<(), serde_saphyr::Error> {
    serde_saphyr::with_deserializer_from_str_with_options(text, options(), |de| {
        seed(&mut <dyn erased_serde::Deserializer>::erase(de)).map_err(serde::de::Error::custom)
    })
}

/// The error of a parse that failed, with the path of the field it failed at: the first
/// error in the text, as serde-saphyr reading the record type reports it.
fn located_error(file: &str, text: &str, line_offset: usize, seed: &mut Seed<'_>) -> Diagnostic {
    // An error of the text itself (its syntax, a duplicate key, a breached limit) comes
    // whole from a read that keeps nothing; an error of the record's shape needs the
    // record type, which is erased, and the error with it. The typed read says where the
    // first error is; the untyped one gives its words when it failed at the same place
    // (it also fails where only an untyped read does, as on `id: 1e400`). A breached
    // limit is about the whole text, and is reported as it is.
    let syntax = serde_saphyr::from_str_with_options::<IgnoredAny>(text, options()).err();
    if let Some(err) = &syntax
        && matches!(original(err), serde_saphyr::Error::Budget { .. })
    {
        return to_diagnostic(file, err, None, "", line_offset);
    }
    let mut track = serde_path_to_error::Track::new();
    let result = serde_saphyr::with_deserializer_from_str_with_options(text, options(), |de| {
        let tracked = serde_path_to_error::Deserializer::new(de, &mut track);
        let mut erased = <dyn erased_serde::Deserializer>::erase(tracked);
        seed(&mut erased).map_err(serde::de::Error::custom)
    });
    let shape = result.err().map(|err| {
        let at = innermost(&err.to_string()).or_else(|| position(&err));
        (err, at)
    });
    match (syntax, shape) {
        (Some(text_error), Some((err, Some(at)))) if position(&text_error) != Some(at) => {
            to_diagnostic(file, &err, Some(at), &track.path().to_string(), line_offset)
        }
        (Some(text_error), _) => to_diagnostic(file, &text_error, None, "", line_offset),
        (None, Some((err, at))) => {
            to_diagnostic(file, &err, at, &track.path().to_string(), line_offset)
        }
        // Both parses read the same text with the same options; should they ever
        // disagree, the error is still reported, without a position.
        (None, None) => Diagnostic::error("schema", Span::file(file), "the file did not parse"),
    }
}

/// Where serde-saphyr placed `err`, as (line, column).
fn position(err: &serde_saphyr::Error) -> Option<(usize, usize)> {
    err.location()
        .map(|l| (l.line() as usize, l.column() as usize))
}

/// Where an error arose. serde-saphyr ends its message with " at line L, column C"; an
/// error that crossed the erased record type became a message again at each level it
/// passed, and each level appended its own, outer, position: the innermost is the first
/// of the positions that end the message (a quoted value before them may hold the words).
fn innermost(raw: &str) -> Option<(usize, usize)> {
    let mut rest = raw.lines().next().unwrap_or(raw).trim_end();
    let mut found = None;
    while let Some((head, at)) = trailing_position(rest) {
        found = Some(at);
        rest = head;
    }
    found
}

/// The message without its last " at line L, column C", and that position.
fn trailing_position(message: &str) -> Option<(&str, (usize, usize))> {
    let i = message.rfind(" at line ")?;
    let (line, column) = message[i + " at line ".len()..].split_once(", column ")?;
    Some((&message[..i], (line.parse().ok()?, column.parse().ok()?)))
}

fn to_diagnostic(
    file: &str,
    err: &serde_saphyr::Error,
    at: Option<(usize, usize)>,
    path: &str,
    line_offset: usize,
) -> Diagnostic {
    let (line, column) = at.or_else(|| position(err)).unwrap_or((1, 1));
    let raw = err.to_string();
    let breach = match original(err) {
        serde_saphyr::Error::Budget { breach, .. } => Some(breach),
        _ => None,
    };
    let message = match breach {
        Some(b) => format!(
            "too much for the YAML parser: {}",
            budget_message(b, &budget())
        ),
        None => clean_message(&raw),
    };
    // serde_path_to_error writes `?` for positions it could not name (syntax errors); a
    // breached limit is about the whole text, not the field it was reached in.
    let unnamed = path.is_empty() || path == "." || path.contains('?');
    let located = if unnamed || breach.is_some() {
        message
    } else {
        format!("{message} (at `{path}`)")
    };
    let mut d = Diagnostic::error(
        "schema",
        Span::new(file, line + line_offset, column),
        located,
    );
    let hint = match breach {
        Some(_) => Some("split the file, or write it with less nesting and fewer aliases"),
        None => hint_for(&raw),
    };
    if let Some(hint) = hint {
        d = d.with_hint(hint);
    }
    d
}

/// The error a wrapped error (a snippet, an alias's use) stands for.
fn original(mut err: &serde_saphyr::Error) -> &serde_saphyr::Error {
    while let serde_saphyr::Error::AliasError { error, .. }
    | serde_saphyr::Error::WithSnippet { error, .. } = err
    {
        err = error;
    }
    err
}

/// A breached limit of the parser in words: which limit, and how far it was exceeded.
/// serde-saphyr itself prints the variant's `Debug` form.
fn budget_message(breach: &serde_saphyr::budget::BudgetBreach, b: &serde_saphyr::Budget) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    match breach {
        B::Events { events } => format!(
            "more than {} parse events (the parse stopped at {events})",
            b.max_events
        ),
        B::Aliases { aliases } => format!(
            "{aliases} aliases (`*name`), over the limit of {}",
            b.max_aliases
        ),
        B::Anchors { anchors } => format!(
            "{anchors} anchors (`&name`), over the limit of {}",
            b.max_anchors
        ),
        B::Depth { depth } => format!(
            "nesting deeper than {} levels (it reached {depth})",
            b.max_depth
        ),
        B::InclusionDepth { depth } => format!(
            "includes nested deeper than {} (it reached {depth})",
            b.max_inclusion_depth
        ),
        B::Documents { documents } => format!(
            "{documents} YAML documents in one file, over the limit of {}",
            b.max_documents
        ),
        B::Nodes { nodes } => format!(
            "{nodes} values (scalars, lists and mappings), over the limit of {}",
            b.max_nodes
        ),
        B::ScalarBytes { total_scalar_bytes } => format!(
            "scalars of {total_scalar_bytes} bytes in all, over the limit of {} bytes",
            b.max_total_scalar_bytes
        ),
        B::MergeKeys { merge_keys } => format!(
            "{merge_keys} merge keys (`<<`), over the limit of {}",
            b.max_merge_keys
        ),
        B::AliasAnchorRatio { aliases, anchors } => format!(
            "{aliases} aliases for {anchors} anchors, more than {} uses per anchor",
            b.alias_anchor_ratio_multiplier
        ),
        B::SequenceUnbalanced => {
            "a list or mapping closes that never opened (the text is malformed or cut short)"
                .to_string()
        }
        B::InputBytes { input_bytes } => match b.max_reader_input_bytes {
            Some(max) => format!("{input_bytes} bytes of input, over the limit of {max} bytes"),
            None => format!("{input_bytes} bytes of input, over the input limit"),
        },
        B::RecordedAnchorEvents {
            recorded_anchor_events,
        } => format!(
            "anchored content copied {recorded_anchor_events} times, over the limit of {}",
            b.max_recorded_anchor_events
        ),
        B::RecordedAnchorBytes {
            recorded_anchor_bytes,
        } => format!(
            "{recorded_anchor_bytes} bytes of anchored content kept, over the limit of {} bytes",
            b.max_recorded_anchor_bytes
        ),
        B::PropertyExpansionDepth { depth, max_depth } => {
            format!("property expansion nested deeper than {max_depth} (it reached {depth})")
        }
        B::PropertyInterpolationWork { work, max_work } => {
            format!("property interpolation took {work} steps, over the limit of {max_work}")
        }
        // The enum is non-exhaustive: a limit added by a later serde-saphyr.
        other => format!("a limit of the YAML parser was exceeded ({other:?})"),
    }
}

/// serde-saphyr appends " at line L, column C"; the span already says where.
fn clean_message(raw: &str) -> String {
    let first = raw.lines().next().unwrap_or(raw).trim();
    let cut = first
        .find(" at line ")
        .map(|i| &first[..i])
        .unwrap_or(first);
    let cut = cut.trim_end_matches(':').trim();
    // The parser's advice is for programmers ("set DuplicateKeyPolicy in Options").
    if let Some(rest) = cut.strip_prefix("duplicate mapping key: ") {
        let key = rest.split(", set ").next().unwrap_or(rest);
        return format!("duplicate key `{key}`");
    }
    cut.to_string()
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
    fn every_budget_message_names_its_limit() {
        use serde_saphyr::budget::BudgetBreach as B;
        let b = budget();
        let cases = [
            (B::Events { events: 7 }, "200000000"),
            (B::Aliases { aliases: 7 }, "50000"),
            (B::Anchors { anchors: 7 }, "50000"),
            (B::Depth { depth: 7 }, "64"),
            (B::InclusionDepth { depth: 7 }, "24"),
            (B::Documents { documents: 7 }, "1024"),
            (B::Nodes { nodes: 7 }, "50000000"),
            (
                B::ScalarBytes {
                    total_scalar_bytes: 7,
                },
                "67108864 bytes",
            ),
            (B::MergeKeys { merge_keys: 7 }, "10000"),
            (
                B::AliasAnchorRatio {
                    aliases: 7,
                    anchors: 1,
                },
                "10 uses",
            ),
            (B::InputBytes { input_bytes: 7 }, "268435456 bytes"),
            (
                B::RecordedAnchorEvents {
                    recorded_anchor_events: 7,
                },
                "1000000",
            ),
            (
                B::RecordedAnchorBytes {
                    recorded_anchor_bytes: 7,
                },
                "67108864 bytes",
            ),
            (
                B::PropertyExpansionDepth {
                    depth: 7,
                    max_depth: 5,
                },
                "5",
            ),
            (
                B::PropertyInterpolationWork {
                    work: 7,
                    max_work: 5,
                },
                "5",
            ),
        ];
        for (breach, limit) in cases {
            let m = budget_message(&breach, &b);
            assert!(m.contains(limit) && m.contains('7'), "{breach:?}: {m}");
            assert!(!m.contains('{'), "{m}");
        }
        let m = budget_message(&B::SequenceUnbalanced, &b);
        assert!(m.contains("never opened"), "{m}");
    }

    #[test]
    fn an_error_is_placed_where_it_arose_not_where_it_surfaced() {
        let raw = "invalid type: string \"a at line 9, column 9\", expected u32 \
                   at line 4, column 8 at line 3, column 3 at line 1, column 1";
        assert_eq!(innermost(raw), Some((4, 8)));
        assert_eq!(innermost("no position here"), None);
    }

    #[test]
    fn line_offset_shifts_lines() {
        let d = parse::<Doc>("p.md", "name: x\nitems: 3\n", 1).unwrap_err();
        assert_eq!(d.span.line, 3);
    }
}
