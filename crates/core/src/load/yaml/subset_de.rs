//! serde over a tape (the `subset` reader's, or `events`'), reading each scalar as
//! serde-saphyr reads it into the requested type: integers in any style, with a sign, `_`
//! between digits or a `0x`, `0o` or `0b` prefix; floats as Rust parses them, with YAML's
//! `.inf` and `.nan`; YAML 1.2's six spellings of a boolean; one character; a plain null
//! as unit. It gives up where serde-saphyr reports an error, and at what it does not settle
//! yet (bytes, a plain scalar read untyped that may be a number, a boolean or null).

use super::events;
use super::subset::{self, Node, Outside, Scalar, after};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use std::fmt;

impl fmt::Display for Outside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("outside the plain YAML subset")
    }
}

impl std::error::Error for Outside {}

impl de::Error for Outside {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Outside
    }
}

/// Reads `text` as `T`, or `None` when serde-saphyr has to: from the subset's tape, or,
/// for a text outside the subset, from the tape of its parser's events.
pub fn read<T: DeserializeOwned>(text: &str) -> Option<T> {
    let tape = subset::parse(text).or_else(|_| events::parse(text)).ok()?;
    T::deserialize(De {
        tape: &tape,
        at: 0,
        text,
    })
    .ok()
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

impl<'n, 'a> De<'n, 'a> {
    fn node(&self) -> Result<&'n Node<'a>, Outside> {
        self.tape.get(self.at).ok_or(Outside)
    }

    /// The node at `at` of the same tape.
    fn to(self, at: usize) -> De<'n, 'a> {
        De { at, ..self }
    }

    fn scalar(&self) -> Result<&'n Scalar<'a>, Outside> {
        match self.node()? {
            Node::Scalar(s) => Ok(s),
            _ => Err(Outside),
        }
    }

    /// A scalar read as a string: anything but a plain null.
    fn string(&self) -> Result<&'n str, Outside> {
        let s = self.scalar()?;
        if s.plain && subset::null_like(&s.text) {
            return Err(Outside);
        }
        Ok(&s.text)
    }
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

macro_rules! outside {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Outside> {
            Err(Outside)
        })*
    };
}

/// Narrower integers are read wide; serde's visitors check the range.
macro_rules! widen {
    ($wide:ident: $($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
            self.$wide(v)
        })*
    };
}

impl<'de> de::Deserializer<'de> for De<'_, '_> {
    type Error = Outside;

    widen!(deserialize_u64: deserialize_u32 deserialize_u16 deserialize_u8);
    widen!(deserialize_i64: deserialize_i32 deserialize_i16 deserialize_i8);

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        match self.node()? {
            Node::Map { .. } => self.deserialize_map(v),
            Node::Seq { .. } => self.deserialize_seq(v),
            Node::Scalar(s) if !s.plain || plain_text(&s.text) => v.visit_str(&s.text),
            // Numbers, booleans and nulls: the resolver's business.
            Node::Scalar(_) => Err(Outside),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_bool(boolean(&self.scalar()?.text)?)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_u64(u64::try_from(unsigned(&self.scalar()?.text)?).map_err(|_| Outside)?)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_i64(i64::try_from(signed(&self.scalar()?.text)?).map_err(|_| Outside)?)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_f64(float(&self.scalar()?.text)?)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_str(self.string()?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        self.deserialize_str(v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        self.deserialize_str(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        match self.node()? {
            Node::Scalar(s) if s.plain && subset::null_like(&s.text) => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Outside> {
        if name != SPANNED {
            return v.visit_newtype_struct(self);
        }
        let s = self.scalar()?;
        let at = Location {
            line: s.line,
            column: subset::column(self.text, s),
        };
        v.visit_newtype_struct(SpannedDe { de: self, at })
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        let &Node::Seq { len, .. } = self.node()? else {
            return Err(Outside);
        };
        let mut seq = Items {
            de: self.to(self.at + 1),
            left: len,
        };
        let value = v.visit_seq(&mut seq)?;
        // A tuple that took fewer items than there are is an error to serde-saphyr.
        if seq.left == 0 {
            Ok(value)
        } else {
            Err(Outside)
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Outside> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, Outside> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        let &Node::Map { len, .. } = self.node()? else {
            return Err(Outside);
        };
        let mut map = Entries {
            de: self.to(self.at + 1),
            left: len,
            value: None,
        };
        let value = v.visit_map(&mut map)?;
        if map.left == 0 {
            Ok(value)
        } else {
            Err(Outside)
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Outside> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Outside> {
        match self.node()? {
            // `mode: hot`
            Node::Scalar(s) if s.plain && !subset::null_like(&s.text) => {
                v.visit_enum(IntoDeserializer::<Outside>::into_deserializer(&*s.text))
            }
            // `{le: 8}`: the key, then the value.
            Node::Map { len: 1, .. } => v.visit_enum(Variant {
                key: self.to(self.at + 1),
                value: self.to(self.at + 2),
            }),
            _ => Err(Outside),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_unit()
    }

    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_i128(signed(&self.scalar()?.text)?)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_u128(unsigned(&self.scalar()?.text)?)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        v.visit_f32(float32(&self.scalar()?.text)?)
    }

    /// One character, in any style; a plain null is none.
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        let mut chars = self.string()?.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => v.visit_char(c),
            _ => Err(Outside),
        }
    }

    /// A plain null.
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        match self.node()? {
            Node::Scalar(s) if s.plain && subset::null_like(&s.text) => v.visit_unit(),
            _ => Err(Outside),
        }
    }

    /// A plain null, or an empty mapping.
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Outside> {
        match self.node()? {
            Node::Map { len: 0, .. } => v.visit_unit(),
            _ => self.deserialize_unit(v),
        }
    }

    outside! {
        deserialize_bytes deserialize_byte_buf
    }
}

/// A sequence's items: `de` is the next, `left` of them remain.
struct Items<'n, 'a> {
    de: De<'n, 'a>,
    left: u32,
}

impl<'de> SeqAccess<'de> for Items<'_, '_> {
    type Error = Outside;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Outside> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let item = self.de;
        self.de = item.to(after(item.tape, item.at));
        seed.deserialize(item).map(Some)
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
    type Error = Outside;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Outside> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        // A key is a scalar: its value follows it.
        let key = self.de;
        let value = key.to(key.at + 1);
        self.value = Some(value);
        self.de = value.to(after(value.tape, value.at));
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Outside> {
        seed.deserialize(self.value.take().ok_or(Outside)?)
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
    type Error = Outside;
    type Variant = De<'n, 'a>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, De<'n, 'a>), Outside> {
        Ok((seed.deserialize(self.key)?, self.value))
    }
}

impl<'de> de::VariantAccess<'de> for De<'_, '_> {
    type Error = Outside;

    fn unit_variant(self) -> Result<(), Outside> {
        Err(Outside)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Outside> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Outside> {
        de::Deserializer::deserialize_seq(self, v)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Outside> {
        de::Deserializer::deserialize_map(self, v)
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
    type Error = Outside;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
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
    type Error = Outside;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Outside> {
        let key = match self.state {
            0 => SPANNED_MARKER,
            1 => "value",
            2 => "referenced",
            3 => "defined",
            _ => return Ok(None),
        };
        self.state += 1;
        seed.deserialize(IntoDeserializer::<Outside>::into_deserializer(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Outside> {
        match self.state {
            1 => seed.deserialize(IntoDeserializer::<Outside>::into_deserializer(true)),
            2 => seed.deserialize(self.de),
            3 | 4 => seed.deserialize(LocationDe(self.at)),
            _ => Err(Outside),
        }
    }
}

/// A position as `Location` reads it: `{line, column}`.
struct LocationDe(Location);

impl<'de> de::Deserializer<'de> for LocationDe {
    type Error = Outside;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Outside> {
        let fields = [("line", self.0.line), ("column", self.0.column)];
        v.visit_map(de::value::MapDeserializer::new(fields.into_iter()))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
