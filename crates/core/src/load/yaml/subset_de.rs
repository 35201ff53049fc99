//! serde over a tape (the `subset` reader's, or `events`'), reading each scalar as
//! serde-saphyr reads it into the requested type: integers in any style, with a sign, `_`
//! between digits or a `0x`, `0o` or `0b` prefix; floats as Rust parses them, with YAML's
//! `.inf` and `.nan`; YAML 1.2's six spellings of a boolean; one character; a plain null
//! as unit or none; a plain scalar read untyped as null, boolean, integer, float or text,
//! in that order. An error is placed at the node it arose at, with the path to it.

use super::error::{Kind, YamlError, position};
use super::events;
use super::subset::{self, Node, Outside, Scalar, after, column_at, node_at};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Expected, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, Visitor,
};
use std::fmt;

/// An error while reading a tape into a type. Boxed, so that a result is no wider for it.
#[derive(Debug)]
pub struct DeError(Box<Raised>);

/// An error's words, and the tape index of the node it arose at, set by the innermost node
/// that sees it pass.
#[derive(Debug)]
struct Raised {
    message: String,
    at: Option<u32>,
}

impl DeError {
    fn at(mut self, index: usize) -> Self {
        if self.0.at.is_none() {
            self.0.at = Some(u32::try_from(index).unwrap_or(u32::MAX));
        }
        self
    }

    /// The tape index of the node it arose at (the root's when none said).
    fn index(&self) -> usize {
        self.0.at.map_or(0, |i| i as usize)
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        DeError(Box::new(Raised {
            message: message.to_string(),
            at: None,
        }))
    }
}

type Result<T, E = DeError> = std::result::Result<T, E>;

/// Reads `text` as `T`: from the subset's tape, or, for a text outside the subset, from
/// the tape of its parser's events; or the first error in the text, at its place.
pub fn read<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    let (tape, duplicate) = match subset::parse(text) {
        Ok(tape) => (tape, None),
        Err(Outside) => {
            let read = events::parse(text)?;
            (read.tape, read.duplicate)
        }
    };
    let value = T::deserialize(De {
        tape: &tape,
        at: 0,
        text,
    })
    .map_err(|e| e.at(0));
    settle(value, duplicate, &tape, text)
}

/// The value, or the first error in the text as serde-saphyr, reading as it parses, meets
/// it: the type's, or a duplicate key (at tape index `k`) read before it. An error of a
/// list or mapping itself (a missing field) is met after its entries.
fn settle<T>(
    value: Result<T>,
    duplicate: Option<(YamlError, usize)>,
    tape: &[Node<'_>],
    text: &str,
) -> Result<T, YamlError> {
    match (value, duplicate) {
        (Ok(value), None) => Ok(value),
        (Ok(_), Some((duplicate, _))) => Err(duplicate),
        (Err(e), duplicate) => {
            let index = e.index();
            let met = match tape.get(index) {
                Some(Node::Seq { end, .. } | Node::Map { end, .. }) => *end as usize,
                _ => index,
            };
            match duplicate {
                Some((d, k)) if k <= met => Err(d),
                _ => Err(locate(e, tape, text)),
            }
        }
    }
}

/// A type's error at the line and column of its node, with the path to it.
fn locate(e: DeError, tape: &[Node<'_>], text: &str) -> YamlError {
    let index = e.index();
    let (line, column) = place(tape.get(index), text);
    YamlError {
        kind: Kind::Shape,
        message: e.0.message,
        line,
        column,
        path: path_to(tape, index),
    }
}

/// The line and column where `node` starts; the end of the text for an empty document.
fn place(node: Option<&Node<'_>>, text: &str) -> (u32, u32) {
    match node.and_then(node_at) {
        Some(at) => (at.line, column_at(text, at.line_start, at.start)),
        None => position(text, text.len()),
    }
}

/// The path from the root to the node at `target`, as `items[1].n`.
fn path_to(tape: &[Node<'_>], target: usize) -> String {
    let mut path = String::new();
    let mut i = 0;
    while i != target {
        let child = match tape.get(i) {
            Some(&Node::Seq { len, .. }) => {
                let mut item = i + 1;
                let found = (0..len).find_map(|k| {
                    let end = after(tape, item);
                    let hit = (target < end).then_some((k, item));
                    item = end;
                    hit
                });
                found.map(|(k, item)| {
                    path.push_str(&format!("[{k}]"));
                    item
                })
            }
            Some(&Node::Map { len, .. }) => {
                let mut key = i + 1;
                let found = (0..len).find_map(|_| {
                    let end = after(tape, key + 1);
                    let hit = (target < end).then_some(key);
                    key = end;
                    hit
                });
                found.and_then(|key| {
                    let Some(Node::Scalar(k)) = tape.get(key) else {
                        return None;
                    };
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&k.text);
                    // The key itself (an unknown field) ends the path at its name.
                    (target != key).then_some(key + 1)
                })
            }
            _ => None,
        };
        match child {
            Some(c) if c > i => i = c,
            _ => break,
        }
    }
    path
}

/// Whether serde-saphyr reads the plain scalar `s`, untyped, as a string: it starts with a
/// letter (so no number, as serde-saphyr reads numbers only from a digit, sign or dot) and
/// is none of YAML 1.2's null and boolean words (`strict_booleans` leaves `yes`, `on` and
/// the rest strings). A label such as `name: first-pass`, read by a type that takes text or a
/// mapping, is one.
fn plain_text(s: &str) -> bool {
    let letter = s.chars().next().is_some_and(|c| c.is_alphabetic());
    letter
        && !subset::null_like(s)
        && !matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
}

/// Decimal digits without a leading zero, or `0`.
fn decimal(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}

/// A scalar's text without the padding serde-saphyr trims before reading it as a number or
/// a boolean (a quoted `' 12 '` is 12).
fn trimmed(s: &str) -> &str {
    s.trim_matches([' ', '\t', '\r', '\n'])
}

/// A boolean as YAML 1.2 spells it, in any style (`strict_booleans`: `yes` is no boolean).
fn boolean(s: &str) -> Result<bool, Outside> {
    match trimmed(s) {
        "true" | "True" | "TRUE" => Ok(true),
        "false" | "False" | "FALSE" => Ok(false),
        _ => Err(Outside),
    }
}

/// The radix a `0x`, `0o` or `0b` prefix gives, and the digits after it; decimal otherwise.
fn radix(s: &str) -> (u32, &str) {
    let prefixed = |p: &str, q: &str| s.strip_prefix(p).or_else(|| s.strip_prefix(q));
    if let Some(d) = prefixed("0x", "0X") {
        (16, d)
    } else if let Some(d) = prefixed("0o", "0O") {
        (8, d)
    } else if let Some(d) = prefixed("0b", "0B") {
        (2, d)
    } else {
        (10, s)
    }
}

/// Digits in `radix`, each `_` between two digits; none other, and at least one.
fn magnitude(digits: &str, radix: u32) -> Result<u128, Outside> {
    let bytes = digits.as_bytes();
    let mut value: u128 = 0;
    let mut any = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            // After a digit (a `_` after a `_` was refused at the first), before another.
            let between = i > 0 && bytes.get(i + 1).is_some_and(|&n| n != b'_');
            if !between {
                return Err(Outside);
            }
            continue;
        }
        let d = char::from(b).to_digit(radix).ok_or(Outside)?;
        value = value
            .checked_mul(u128::from(radix))
            .and_then(|v| v.checked_add(u128::from(d)))
            .ok_or(Outside)?;
        any = true;
    }
    if any { Ok(value) } else { Err(Outside) }
}

/// A number's sign (`-` or `+`, or none) and the text after it.
fn split_sign(t: &str) -> (bool, &str) {
    match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    }
}

/// An integer as serde-saphyr reads one into an integer field, in any style: whether it is
/// negative, and its magnitude (decimal without a leading zero, or after a radix prefix).
fn integer(s: &str) -> Result<(bool, u128), Outside> {
    let (negative, rest) = split_sign(trimmed(s));
    let (radix, digits) = radix(rest);
    if radix == 10 && digits.starts_with('0') && digits != "0" {
        return Err(Outside);
    }
    Ok((negative, magnitude(digits, radix)?))
}

/// An unsigned integer: no sign but `+` (serde-saphyr refuses even `-0`).
fn unsigned(s: &str) -> Result<u128, Outside> {
    match integer(s)? {
        (false, m) => Ok(m),
        (true, _) => Err(Outside),
    }
}

/// A signed integer.
fn signed(s: &str) -> Result<i128, Outside> {
    let value = match integer(s)? {
        (true, m) => 0i128.checked_sub_unsigned(m),
        (false, m) => i128::try_from(m).ok(),
    };
    value.ok_or(Outside)
}

/// A float's text: one of YAML 1.2's non-finite spellings, or a number for Rust's parser.
enum FloatText<'s> {
    Nan,
    Infinity,
    NegativeInfinity,
    Number(&'s str),
}

fn float_text(s: &str) -> FloatText<'_> {
    let t = trimmed(s);
    let (negative, unsigned) = split_sign(t);
    match unsigned {
        ".nan" | ".NaN" | ".NAN" => FloatText::Nan,
        ".inf" | ".Inf" | ".INF" if negative => FloatText::NegativeInfinity,
        ".inf" | ".Inf" | ".INF" => FloatText::Infinity,
        _ => FloatText::Number(t),
    }
}

/// A float as serde-saphyr reads one into an `f64` field, in any style: YAML 1.2's
/// `.inf`, `-.inf` and `.nan`, or what Rust's parser reads as a finite number (a value too
/// large for a double is an error, not infinity).
fn float(s: &str) -> Result<f64, Outside> {
    // Most are whole numbers (counts, nanoseconds), which a double holds exactly up to 15
    // digits: read as integers.
    let body = s.strip_prefix('-').unwrap_or(s);
    if body.len() <= 15 && decimal(body) {
        let n = body.parse::<u64>().map_err(|_| Outside)? as f64;
        return Ok(if body.len() < s.len() { -n } else { n });
    }
    match float_text(s) {
        FloatText::Nan => Ok(f64::NAN),
        FloatText::Infinity => Ok(f64::INFINITY),
        FloatText::NegativeInfinity => Ok(f64::NEG_INFINITY),
        FloatText::Number(t) => t
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or(Outside),
    }
}

/// [`float`] for an `f32` field: parsed as `f32`, as serde-saphyr does.
fn float32(s: &str) -> Result<f32, Outside> {
    match float_text(s) {
        FloatText::Nan => Ok(f32::NAN),
        FloatText::Infinity => Ok(f32::INFINITY),
        FloatText::NegativeInfinity => Ok(f32::NEG_INFINITY),
        FloatText::Number(t) => t
            .parse()
            .ok()
            .filter(|v: &f32| v.is_finite())
            .ok_or(Outside),
    }
}

/// The newtype name by which serde-saphyr's `Spanned` asks for a node's position, and
/// the first key of the map it expects back.
const SPANNED: &str = "__yaml_spanned";
const SPANNED_MARKER: &str = "__serde_saphyr_private_spanned";

/// The node at `at` of a document's tape.
#[derive(Clone, Copy)]
struct De<'n, 'a> {
    tape: &'n [Node<'a>],
    at: usize,
    text: &'a str,
}

/// What a node is, in the words of serde's errors.
fn unexpected<'s>(node: &'s Node<'_>) -> Unexpected<'s> {
    match node {
        Node::Seq { .. } => Unexpected::Seq,
        Node::Map { .. } => Unexpected::Map,
        Node::Scalar(s) if is_null(s) => Unexpected::Other("null"),
        Node::Scalar(s) => Unexpected::Str(&s.text),
        Node::Empty => Unexpected::Other("an empty file"),
    }
}

/// A plain null (`~`, `null`, nothing), unless tagged `!!str`.
fn is_null(s: &Scalar<'_>) -> bool {
    s.plain && !s.text_only && subset::null_like(&s.text)
}

impl<'n, 'a> De<'n, 'a> {
    fn node(&self) -> Result<&'n Node<'a>> {
        self.tape
            .get(self.at)
            .ok_or_else(|| de::Error::custom("the YAML tape ends early"))
    }

    /// The node at `at` of the same tape.
    fn to(self, at: usize) -> De<'n, 'a> {
        De { at, ..self }
    }

    /// The node is not what `want` reads.
    fn wrong(&self, want: &dyn Expected) -> DeError {
        match self.node() {
            Ok(node) => de::Error::invalid_type(unexpected(node), want),
            Err(e) => e,
        }
    }

    /// The scalar, for a type that reads one.
    fn scalar(&self, want: &dyn Expected) -> Result<&'n Scalar<'a>> {
        match self.node()? {
            Node::Scalar(s) => Ok(s),
            _ => Err(self.wrong(want)),
        }
    }

    /// The text of a scalar that is not null, for a number or a boolean: a `!!str` scalar
    /// is none.
    fn typed(&self, want: &dyn Expected) -> Result<&'n str> {
        match self.scalar(want)? {
            s if s.text_only || is_null(s) => Err(self.wrong(want)),
            s => Ok(&s.text),
        }
    }

    /// A scalar read as a string: anything but a plain null.
    fn string(&self, want: &dyn Expected) -> Result<&'n str> {
        match self.scalar(want)? {
            s if is_null(s) => Err(self.wrong(want)),
            s => Ok(&s.text),
        }
    }

    /// A scalar's text that `want` could not read.
    fn invalid(&self, text: &str, want: &dyn Expected) -> DeError {
        de::Error::invalid_value(Unexpected::Other(&format!("`{text}`")), want)
    }

    /// Where the node starts.
    fn location(&self) -> Location {
        let (line, column) = place(self.node().ok(), self.text);
        Location { line, column }
    }
}

impl<'de> De<'_, '_> {
    /// A number or boolean: the scalar's text as `read` reads it, handed to `visit`, or an
    /// error at the scalar.
    fn parsed<V: Visitor<'de>, N>(
        self,
        v: V,
        read: impl FnOnce(&str) -> Option<N>,
        visit: impl FnOnce(V, N) -> Result<V::Value>,
    ) -> Result<V::Value> {
        let t = self.typed(&v)?;
        match read(t) {
            Some(n) => visit(v, n),
            None => Err(self.invalid(t, &v)),
        }
    }

    /// A list's items, for a sequence or (with its length) a tuple, which takes no more.
    fn items<V: Visitor<'de>>(self, v: V, tuple: Option<usize>) -> Result<V::Value> {
        let len = match self.node()? {
            &Node::Seq { len, .. } => len,
            Node::Empty => 0,
            _ => return Err(self.wrong(&v)),
        };
        if let Some(want) = tuple.filter(|&want| want < len as usize) {
            let expected = format!("a tuple of {want} items");
            return Err(de::Error::invalid_length(len as usize, &expected.as_str()));
        }
        v.visit_seq(Items {
            de: self.to(self.at + 1),
            left: len,
        })
    }
}

/// A plain scalar read untyped, as serde-saphyr reads it: null, a boolean, an integer
/// (`u64`, or `i64` after a `-`), a float (a non-finite one is an error), or text.
fn untyped<'de, V: Visitor<'de>>(text: &str, v: V) -> Result<V::Value> {
    if subset::null_like(text) {
        return v.visit_unit();
    }
    if let Ok(b) = boolean(text) {
        return v.visit_bool(b);
    }
    if trimmed(text).starts_with('-') {
        if let Some(n) = signed(text).ok().and_then(|n| i64::try_from(n).ok()) {
            return v.visit_i64(n);
        }
    } else if let Some(n) = unsigned(text).ok().and_then(|n| u64::try_from(n).ok()) {
        return v.visit_u64(n);
    }
    let t = trimmed(text);
    let numeral = t
        .strip_prefix(['+', '-'])
        .unwrap_or(t)
        .starts_with(|c: char| c.is_ascii_digit());
    match float_text(text) {
        FloatText::Number(t) => match t.parse::<f64>() {
            Ok(f) if f.is_finite() => v.visit_f64(f),
            Ok(_) if numeral => Err(non_finite(t)),
            _ => v.visit_str(text),
        },
        _ => Err(non_finite(text)),
    }
}

fn non_finite(text: &str) -> DeError {
    de::Error::custom(format!(
        "`{text}` is no finite number, which a value of no set type may be (quote it to make it text)"
    ))
}

/// Narrower integers are read wide; serde's visitors check the range.
macro_rules! widen {
    ($wide:ident: $($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            self.$wide(v)
        })*
    };
}

impl<'de> de::Deserializer<'de> for De<'_, '_> {
    type Error = DeError;

    widen!(deserialize_u64: deserialize_u32 deserialize_u16 deserialize_u8);
    widen!(deserialize_i64: deserialize_i32 deserialize_i16 deserialize_i8);

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.node()? {
            Node::Map { .. } => self.deserialize_map(v),
            Node::Seq { .. } => self.deserialize_seq(v),
            Node::Scalar(s) if !s.plain || s.text_only || plain_text(&s.text) => {
                v.visit_str(&s.text)
            }
            Node::Scalar(s) => untyped(&s.text, v),
            Node::Empty => v.visit_unit(),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.parsed(v, |t| boolean(t).ok(), |v, b| v.visit_bool(b))
    }

    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let read = |t: &str| unsigned(t).ok().and_then(|n| u64::try_from(n).ok());
        self.parsed(v, read, |v, n| v.visit_u64(n))
    }

    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let read = |t: &str| signed(t).ok().and_then(|n| i64::try_from(n).ok());
        self.parsed(v, read, |v, n| v.visit_i64(n))
    }

    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.parsed(v, |t| signed(t).ok(), |v, n| v.visit_i128(n))
    }

    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.parsed(v, |t| unsigned(t).ok(), |v, n| v.visit_u128(n))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.parsed(v, |t| float(t).ok(), |v, f| v.visit_f64(f))
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.parsed(v, |t| float32(t).ok(), |v, f| v.visit_f32(f))
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let text = self.string(&v)?;
        v.visit_str(text)
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    /// One character, in any style; a plain null is none.
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let t = self.string(&v)?;
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => v.visit_char(c),
            _ => Err(self.invalid(t, &v)),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(de::Error::custom(
            "bytes, which the tool does not read from YAML",
        ))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_bytes(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.node()? {
            Node::Scalar(s) if is_null(s) => v.visit_none(),
            Node::Empty => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    /// A plain null.
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.node()? {
            Node::Scalar(s) if is_null(s) => v.visit_unit(),
            Node::Empty => v.visit_unit(),
            _ => Err(self.wrong(&v)),
        }
    }

    /// A plain null, or an empty mapping.
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value> {
        match self.node()? {
            Node::Map { len: 0, .. } => v.visit_unit(),
            _ => self.deserialize_unit(v),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if name != SPANNED {
            return v.visit_newtype_struct(self);
        }
        let at = self.location();
        v.visit_newtype_struct(SpannedDe { de: self, at })
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.items(v, None)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value> {
        self.items(v, Some(len))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.items(v, Some(len))
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let len = match self.node()? {
            &Node::Map { len, .. } => len,
            Node::Empty => 0,
            _ => return Err(self.wrong(&v)),
        };
        let mut map = Entries {
            de: self.to(self.at + 1),
            left: len,
            value: None,
        };
        let value = v.visit_map(&mut map)?;
        match map.left {
            0 => Ok(value),
            _ => Err(de::Error::invalid_length(len as usize, &"fewer entries")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match self.node()? {
            // `mode: hot`
            Node::Scalar(s) if !is_null(s) => {
                v.visit_enum(IntoDeserializer::<DeError>::into_deserializer(&*s.text))
            }
            // `{le: 8}`: the key, then the value.
            Node::Map { len: 1, .. } => v.visit_enum(Variant {
                key: self.to(self.at + 1),
                value: self.to(self.at + 2),
            }),
            _ => Err(self.wrong(&v)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_unit()
    }
}

/// A sequence's items: `de` is the next, `left` of them remain.
struct Items<'n, 'a> {
    de: De<'n, 'a>,
    left: u32,
}

impl<'de> SeqAccess<'de> for Items<'_, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let item = self.de;
        self.de = item.to(after(item.tape, item.at));
        seed.deserialize(item).map(Some).map_err(|e| e.at(item.at))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// A mapping's entries: `de` is the next key, `left` of them remain; `value` is the value
/// of the key last read.
struct Entries<'n, 'a> {
    de: De<'n, 'a>,
    left: u32,
    value: Option<De<'n, 'a>>,
}

impl<'de> MapAccess<'de> for Entries<'_, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        // A key is a scalar: its value follows it.
        let key = self.de;
        let value = key.to(key.at + 1);
        self.value = Some(value);
        self.de = value.to(after(value.tape, value.at));
        seed.deserialize(key).map(Some).map_err(|e| e.at(key.at))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let value = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a mapping's value asked for twice"))?;
        seed.deserialize(value).map_err(|e| e.at(value.at))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// An enum written as a one-entry mapping, `{variant: value}`.
struct Variant<'n, 'a> {
    key: De<'n, 'a>,
    value: De<'n, 'a>,
}

impl<'de, 'n, 'a> de::EnumAccess<'de> for Variant<'n, 'a> {
    type Error = DeError;
    type Variant = De<'n, 'a>;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, De<'n, 'a>)> {
        let key = self.key;
        let variant = seed.deserialize(key).map_err(|e| e.at(key.at))?;
        Ok((variant, self.value))
    }
}

impl<'de> de::VariantAccess<'de> for De<'_, '_> {
    type Error = DeError;

    /// `{variant: ~}`: a unit variant written as a mapping takes no value.
    fn unit_variant(self) -> Result<()> {
        match self.node()? {
            Node::Scalar(s) if is_null(s) => Ok(()),
            _ => Err(self.wrong(&"a unit variant's null")).map_err(|e| e.at(self.at)),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(self).map_err(|e| e.at(self.at))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, v).map_err(|e| e.at(self.at))
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_map(self, v).map_err(|e| e.at(self.at))
    }
}

#[derive(Clone, Copy)]
struct Location {
    line: u32,
    column: u32,
}

/// What serde-saphyr hands `Spanned`: `{marker: true, value, referenced, defined}`.
struct SpannedDe<'n, 'a> {
    de: De<'n, 'a>,
    at: Location,
}

impl<'de> de::Deserializer<'de> for SpannedDe<'_, '_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_map(SpannedFields {
            de: self.de,
            at: self.at,
            state: 0,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct SpannedFields<'n, 'a> {
    de: De<'n, 'a>,
    at: Location,
    state: u8,
}

impl<'de> MapAccess<'de> for SpannedFields<'_, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let key = match self.state {
            0 => SPANNED_MARKER,
            1 => "value",
            2 => "referenced",
            3 => "defined",
            _ => return Ok(None),
        };
        self.state += 1;
        seed.deserialize(IntoDeserializer::<DeError>::into_deserializer(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.state {
            1 => seed.deserialize(IntoDeserializer::<DeError>::into_deserializer(true)),
            2 => seed.deserialize(self.de),
            3 | 4 => seed.deserialize(LocationDe(self.at)),
            _ => Err(de::Error::custom("a position's field asked for twice")),
        }
    }
}

/// A position as `Location` reads it: `{line, column}`.
struct LocationDe(Location);

impl<'de> de::Deserializer<'de> for LocationDe {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let fields = [("line", self.0.line), ("column", self.0.column)];
        v.visit_map(de::value::MapDeserializer::new(fields.into_iter()))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
