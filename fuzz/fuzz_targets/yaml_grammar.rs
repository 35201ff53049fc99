//! YAML documents built from the fuzzer's bytes, so that it reaches what the subset
//! reader reads: a tree shaped like one of the target's types (mostly fitting values,
//! some that only look like them), written in one of the many layouts YAML allows
//! (block or flow, any indentation, compact sequence entries, comments, blank lines), and
//! now and then spoilt by one raw piece, for the subset to decline.

use libfuzzer_sys::arbitrary::{Result, Unstructured};

/// A document before it is written out. Scalars are kept as written (quotes included).
enum Tree {
    Scalar(String),
    Seq(Vec<Tree>),
    Map(Vec<(String, Tree)>),
}

/// The text of a document chosen by `u`.
pub fn document(u: &mut Unstructured) -> String {
    let tree = match u.int_in_range(0..=7u8).unwrap_or(0) {
        0..=2 => doc(u),
        3..=4 => run(u),
        5 => any(u, 0, true),
        _ => any(u, 0, false),
    };
    // Only an empty choice fails, and no list here is empty.
    let tree = tree.unwrap_or(Tree::Seq(Vec::new()));
    let mut w = Writer {
        out: String::new(),
        u,
    };
    let _ = w.block(&tree, 0);
    if one_in(w.u, 4).unwrap_or(false) {
        let _ = spoil(w.u, &mut w.out);
    }
    if one_in(w.u, 8).unwrap_or(false) {
        w.out.pop();
    }
    w.out
}

/// True one time in `n`; false once `u` runs out, so that a short input is the plainest
/// document (`Unstructured::ratio` is true then).
fn one_in(u: &mut Unstructured, n: u8) -> Result<bool> {
    Ok(u.int_in_range(1..=n)? == n)
}

fn scalar(u: &mut Unstructured, choices: &[&str]) -> Result<Tree> {
    Ok(Tree::Scalar(u.choose(choices)?.to_string()))
}

/// One of `choices`, or, one time in sixteen, anything.
fn fitting(u: &mut Unstructured, choices: &[&str]) -> Result<Tree> {
    if one_in(u, 16)? {
        return misfit(u);
    }
    scalar(u, choices)
}

fn misfit(u: &mut Unstructured) -> Result<Tree> {
    match u.int_in_range(0..=3u8)? {
        0 => any(u, 2, false),
        1 => quoted(u),
        _ => scalar(u, SCALARS),
    }
}

/// A string as it may be written: plain, or quoted.
fn string(u: &mut Unstructured) -> Result<Tree> {
    if one_in(u, 3)? {
        quoted(u)
    } else {
        fitting(u, STRINGS)
    }
}

fn quoted(u: &mut Unstructured) -> Result<Tree> {
    let quote = *u.choose(&['"', '\''])?;
    let mut s = String::from(quote);
    for _ in 0..u.int_in_range(0..=3u8)? {
        let piece = if quote == '"' {
            let pieces = if one_in(u, 8)? { DOUBLE_ODD } else { DOUBLE };
            u.choose(pieces)?
        } else {
            u.choose(SINGLE)?
        };
        s.push_str(piece);
    }
    if !one_in(u, 16)? {
        s.push(quote);
    }
    Ok(Tree::Scalar(s))
}

/// Up to `max` of what `item` makes.
fn some(
    u: &mut Unstructured,
    max: u8,
    mut item: impl FnMut(&mut Unstructured) -> Result<Tree>,
) -> Result<Tree> {
    let n = u.int_in_range(0..=max)?;
    (0..n)
        .map(|_| item(u))
        .collect::<Result<_>>()
        .map(Tree::Seq)
}

/// Some of `fields` (all of `required`), in the order chosen, now and then one twice or
/// an unknown one.
fn record(
    u: &mut Unstructured,
    required: &[&str],
    optional: &[&'static str],
    value: impl Fn(&mut Unstructured, &str) -> Result<Tree>,
) -> Result<Tree> {
    let mut keys: Vec<&str> = required.to_vec();
    for &k in optional {
        if one_in(u, 3)? {
            keys.push(k);
        }
    }
    if one_in(u, 32)? {
        keys.push(u.choose(KEYS)?);
    }
    if one_in(u, 32)? && !keys.is_empty() {
        let again = keys[u.choose_index(keys.len())?];
        keys.push(again);
    }
    // A few swaps shuffle the order.
    for _ in 0..u.int_in_range(0..=3u8)? {
        if keys.len() > 1 {
            let (a, b) = (u.choose_index(keys.len())?, u.choose_index(keys.len())?);
            keys.swap(a, b);
        }
    }
    if one_in(u, 32)? && !keys.is_empty() {
        keys.remove(u.choose_index(keys.len())?);
    }
    keys.into_iter()
        .map(|k| Ok((k.to_string(), value(u, k)?)))
        .collect::<Result<_>>()
        .map(Tree::Map)
}

/// The fields of the target's `Doc`.
fn doc(u: &mut Unstructured) -> Result<Tree> {
    let optional = [
        "n", "i", "u", "w", "f", "b", "s", "mode", "bound", "pair", "items", "map",
    ];
    record(u, &["id"], &optional, |u, k| match k {
        "id" => string(u),
        "n" => fitting(u, UNSIGNED),
        "i" | "w" => fitting(u, SIGNED),
        "u" => fitting(u, SMALL),
        "f" => fitting(u, FLOATS),
        "b" => fitting(u, &["true", "false", "~"]),
        "s" => string(u),
        "mode" => fitting(u, &["hot", "cold"]),
        "bound" => {
            let k = *u.choose(&["le", "lt"])?;
            Ok(Tree::Map(vec![(k.to_string(), fitting(u, UNSIGNED)?)]))
        }
        "pair" => Ok(Tree::Seq(vec![fitting(u, SMALL)?, string(u)?])),
        "items" => some(u, 4, item),
        "map" => {
            let n = u.int_in_range(0..=3u8)?;
            (0..n)
                .map(|_| Ok((u.choose(MAP_KEYS)?.to_string(), some(u, 3, string)?)))
                .collect::<Result<_>>()
                .map(Tree::Map)
        }
        _ => misfit(u),
    })
}

fn item(u: &mut Unstructured) -> Result<Tree> {
    record(u, &["id"], &["n", "text", "tags"], |u, k| match k {
        "id" => string(u),
        "n" => fitting(u, UNSIGNED),
        "text" => text(u),
        "tags" => some(u, 3, string),
        _ => misfit(u),
    })
}

/// `{ja: …, en: …}`
fn text(u: &mut Unstructured) -> Result<Tree> {
    record(u, &["ja", "en"], &[], |u, _| string(u))
}

/// A probe run: the fields every run has, and cases.
fn run(u: &mut Unstructured) -> Result<Tree> {
    let required = ["id", "probe", "engine", "origin", "cases"];
    let optional = ["date", "model", "endpoint", "versions", "phase"];
    record(u, &required, &optional, |u, k| match k {
        "engine" => fitting(u, &["ollama", "llama_server", "none"]),
        "origin" => text(u),
        "cases" => some(u, 4, case),
        "versions" => {
            let n = u.int_in_range(0..=2u8)?;
            (0..n)
                .map(|_| Ok((u.choose(MAP_KEYS)?.to_string(), string(u)?)))
                .collect::<Result<_>>()
                .map(Tree::Map)
        }
        _ => string(u),
    })
}

fn case(u: &mut Unstructured) -> Result<Tree> {
    let optional = [
        "mode",
        "num_predict",
        "prompt_eval_count",
        "eval_count",
        "load_duration_ns",
        "eval_duration_ns",
        "done_reason",
    ];
    record(u, &["id"], &optional, |u, k| match k {
        "id" | "done_reason" => string(u),
        "mode" => fitting(u, &["hot", "cold"]),
        _ => fitting(u, UNSIGNED),
    })
}

/// Any tree, up to four deep; with `quoted`, its scalars mostly quoted (what a generic
/// value is read from by the subset).
fn any(u: &mut Unstructured, depth: u8, quoted_scalars: bool) -> Result<Tree> {
    let kind = if depth >= 4 {
        0
    } else {
        u.int_in_range(0..=4u8)?
    };
    match kind {
        0 | 1 if quoted_scalars && !one_in(u, 4)? => quoted(u),
        0 | 1 => scalar(u, SCALARS),
        2 | 3 => some(u, 3, |u| any(u, depth + 1, quoted_scalars)),
        _ => {
            let n = u.int_in_range(0..=3u8)?;
            (0..n)
                .map(|_| {
                    Ok((
                        u.choose(KEYS)?.to_string(),
                        any(u, depth + 1, quoted_scalars)?,
                    ))
                })
                .collect::<Result<_>>()
                .map(Tree::Map)
        }
    }
}

/// Writes a tree in a layout chosen by `u`.
struct Writer<'u, 'a> {
    out: String,
    u: &'u mut Unstructured<'a>,
}

impl Writer<'_, '_> {
    fn indent(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    /// Ends a line, perhaps with a comment, perhaps followed by a blank or comment line.
    fn newline(&mut self, indent: usize) -> Result<()> {
        self.out.push_str(self.u.choose(TAILS)?);
        self.out.push('\n');
        if one_in(self.u, 12)? {
            let at = *self.u.choose(&[0, indent, indent + 1])?;
            self.indent(at);
            self.out
                .push_str(self.u.choose(&["# note", "", "#", "   "])?);
            self.out.push('\n');
        }
        Ok(())
    }

    /// `tree` as a block node whose lines start at column `indent`, the current line
    /// being already indented there.
    fn block(&mut self, tree: &Tree, indent: usize) -> Result<()> {
        match tree {
            Tree::Scalar(s) => {
                self.out.push_str(s);
                self.newline(indent)
            }
            Tree::Seq(items) if !items.is_empty() && !one_in(self.u, 6)? => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.indent(indent);
                    }
                    self.entry(item, indent)?;
                }
                Ok(())
            }
            Tree::Map(entries) if !entries.is_empty() && !one_in(self.u, 6)? => {
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.indent(indent);
                    }
                    self.pair(key, value, indent)?;
                }
                Ok(())
            }
            _ => {
                self.flow(tree)?;
                self.newline(indent)
            }
        }
    }

    /// One `- item` of a block sequence at `indent`.
    fn entry(&mut self, item: &Tree, indent: usize) -> Result<()> {
        self.out.push('-');
        match item {
            Tree::Scalar(_) => {
                self.out.push(' ');
                self.block(item, indent + 2)
            }
            // `- key: value` with the keys lined up after the dash, or under it.
            Tree::Map(_) | Tree::Seq(_) if !one_in(self.u, 3)? => {
                let gap = *self.u.choose(&[1usize, 1, 1, 3])?;
                self.indent(gap);
                self.block(item, indent + 1 + gap)
            }
            _ => {
                self.newline(indent)?;
                let deeper = indent + *self.u.choose(&[1usize, 2, 2, 4])?;
                self.indent(deeper);
                self.block(item, deeper)
            }
        }
    }

    /// `key: value` in a block mapping at `indent`.
    fn pair(&mut self, key: &str, value: &Tree, indent: usize) -> Result<()> {
        self.out.push_str(key);
        self.out.push(':');
        match value {
            Tree::Scalar(_) => {
                self.out.push_str(self.u.choose(&[" ", " ", " ", "  "])?);
                self.block(value, indent)
            }
            // A sequence may stand at its key's own indentation.
            Tree::Seq(items) if !items.is_empty() && one_in(self.u, 3)? => {
                self.newline(indent)?;
                self.indent(indent);
                self.block(value, indent)
            }
            _ if one_in(self.u, 3)? => {
                self.out.push(' ');
                self.flow(value)?;
                self.newline(indent)
            }
            _ => {
                self.newline(indent)?;
                let deeper = indent + *self.u.choose(&[1usize, 2, 2, 2, 4])?;
                self.indent(deeper);
                self.block(value, deeper)
            }
        }
    }

    /// `tree` in flow style, on the current line.
    fn flow(&mut self, tree: &Tree) -> Result<()> {
        let comma = *self.u.choose(&[", ", ", ", ", ", ",", " , "])?;
        match tree {
            Tree::Scalar(s) => self.out.push_str(s),
            Tree::Seq(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(comma);
                    }
                    self.flow(item)?;
                }
                self.out.push(']');
            }
            Tree::Map(entries) => {
                self.out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(comma);
                    }
                    self.out.push_str(key);
                    self.out.push_str(": ");
                    self.flow(value)?;
                }
                self.out.push('}');
            }
        }
        Ok(())
    }
}

/// Puts one raw piece at a character boundary of `out`.
fn spoil(u: &mut Unstructured, out: &mut String) -> Result<()> {
    let mut at = u.int_in_range(0..=out.len())?;
    while !out.is_char_boundary(at) {
        at -= 1;
    }
    out.insert_str(at, u.choose(RAW)?);
    Ok(())
}

/// Keys: the fields of the target's types, and keys YAML reads as something special.
const KEYS: &[&str] = &[
    "id", "n", "i", "u", "w", "f", "b", "s", "mode", "bound", "pair", "items", "map", "text", "ja",
    "en", "tags", "le", "lt", "k", "title", "order", "probe", "engine", "origin", "cases", "name",
    "a b", "日本", "<<", "null", "~", "x:y", "-k", "? k", "k ", "'k'", "\"k\"", "[k]", "{k}", "1",
    "true", "&a k", "*a", "!!str k", "",
];

/// Keys of the maps with free keys.
const MAP_KEYS: &[&str] = &[
    "k", "l", "ollama", "日本", "a b", "1", "true", "a-b", "x.y", "~",
];

/// What an unsigned field takes, edges included; what it does not is in [`SCALARS`].
const UNSIGNED: &[&str] = &["0", "7", "123", "42", "1000000", "18446744073709551615"];

const SMALL: &[&str] = &["0", "7", "255"];

const SIGNED: &[&str] = &[
    "0",
    "-5",
    "42",
    "-2147483648",
    "2147483647",
    "-9223372036854775808",
    "9223372036854775807",
];

const FLOATS: &[&str] = &[
    "1.5",
    "-0.25",
    "12",
    "1e3",
    "1E3",
    "1e+3",
    "0.1",
    "-1.5e-3",
    "-0",
    "-0.0",
    "0.0",
    "4.9e-324",
    "1e-400",
    "123456789012345",
    "0.30000000000000004",
    "2.2250738585072014e-308",
    "1.7976931348623157e308",
    "9007199254740993.0",
    "0e0",
];

/// Plain strings a string field takes.
const STRINGS: &[&str] = &[
    "a",
    "b c",
    "日本",
    "é",
    "→x",
    "x-1",
    "123",
    "true",
    "a:b",
    "a#b",
    "-a",
    "x]",
    "x}",
    "a, b",
    "2026-01-01",
    "http://x.y/z?q=1#f",
    "a  b",
    "NO",
    "--",
    "a\u{a0}b",
    "x\u{3000}y",
    "1e400",
    "-0",
    "0x1F",
    "a'b",
    "a\"b",
    "a!",
    "a&b",
    "a*b",
    "a|b",
    "a>b",
    "a%b",
    "a@b",
];

/// Scalars of any kind: what the fields do not take, and what only looks like it.
const SCALARS: &[&str] = &[
    "a",
    "b c",
    "日本",
    "hot",
    "0",
    "7",
    "-5",
    "1.5",
    "1e3",
    "true",
    "false",
    "True",
    "yes",
    "No",
    "off",
    "y",
    "null",
    "Null",
    "NULL",
    "~",
    "2026-01-01",
    "a:b",
    "a: b",
    "a:",
    ":x",
    "?x",
    "? x",
    "a #b",
    "-",
    "- a",
    "---",
    "...",
    "?",
    "%x",
    "@x",
    "`x`",
    "&a x",
    "*a",
    "!!str x",
    "!x y",
    "|",
    ">",
    "<<",
    "'q'",
    "\"q\"",
    "[]",
    "{}",
    "[a]",
    "{a: b}",
    "\u{a0}",
    "007",
    "+1",
    "0x1F",
    "0o7",
    "0b1",
    "1_000",
    "-1",
    "12.0",
    "18446744073709551616",
    "-9223372036854775809",
    "2147483648",
    "-0",
    "+3",
    "1.",
    ".5",
    "1e400",
    "-1e400",
    ".inf",
    "-.Inf",
    ".nan",
    ".NaN",
    "1234567890123456",
    "9007199254740993",
    "0e",
    "1e",
    "e3",
];

/// Pieces of double-quoted scalars: mostly what the subset reads.
const DOUBLE: &[&str] = &[
    "", "a", " ", "日本", "'", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\r", "\\0", "\\u00e9",
    "\\u0041", "\\u3042", "#", " #", ": ", "null", "123", "\u{a0}",
];

/// Escapes and pieces the subset leaves to serde-saphyr, or that are errors.
const DOUBLE_ODD: &[&str] = &[
    "\\ud800",
    "\\x41",
    "\\e",
    "\\ ",
    "\\",
    "\\U0001F600",
    "\\N",
    "\\_",
    "\\a",
    "\\b",
    "\\v",
    "\\L",
    "\\P",
    "\\u00",
    "\\uD83D\\uDE00",
    "\\uFFFF",
    "\\u0000",
];

/// Pieces of single-quoted scalars.
const SINGLE: &[&str] = &[
    "", "a", " ", "日本", "''", "\"", "\\", "#", " #", ": ", "null", "123",
];

/// Comments and what may trail a line.
const TAILS: &[&str] = &[
    "", "", "", "", "", " # c", "  # c: d", " ", "  ", " #", "#c",
];

/// Raw pieces, for what the grammar does not say.
const RAW: &[&str] = &[
    "\t",
    "\r",
    "\r\n",
    "\u{feff}",
    "\u{2028}",
    "\u{85}",
    "\u{a0}",
    "---\n",
    "...\n",
    "%YAML 1.2\n",
    "? ",
    ": ",
    "- ",
    "-",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "|\n",
    ">\n",
    "\"",
    "'",
    "#",
    " ",
    "\n",
    "\n  ",
    "  ",
    "\n-",
    "x",
    ":",
    "\u{0}",
    "\u{7f}",
    "\u{fffe}",
];
