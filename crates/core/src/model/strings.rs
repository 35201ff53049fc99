//! Every string of a record, read straight from its `Serialize` impl: what `check` and the
//! incremental rebuild look for in data (links, quoted values, markup) without making the
//! record's JSON tree. A site with a million probe cases would build and free a million
//! maps for strings most of which are ids and modes.
//!
//! The strings are those of the record's JSON form (`evidence.json`): string values and the
//! names of unit variants (`mode: hot`), never map keys, in the order the record writes
//! them. An object whose keys are exactly the site's languages, each a string, is a text
//! ([`super::lang::json_text`]): its strings come in the languages' order, marked as text.

use super::page::Lang;
use serde::Serialize;
use serde::ser::{self, Impossible};
use std::fmt;

/// Calls `f` on every string of `record`, saying whether it is one language of a text
/// (rendered as markdown) rather than a plain value.
pub fn each(record: &impl Serialize, langs: &[Lang], f: &mut dyn FnMut(&str, bool)) {
    each_in(record, langs, &mut |s, lang| f(s, lang.is_some()));
}

/// Calls `f` on every string of `record` with the language it is written in when it is
/// one language of a text, `None` for a plain value.
pub fn each_in(record: &impl Serialize, langs: &[Lang], f: &mut dyn FnMut(&str, Option<Lang>)) {
    // The walk fails only where the record's own impl fails, which `evidence.json` reports.
    let _ = record.serialize(&mut Walk { langs, f });
}

struct Walk<'l, 'f> {
    langs: &'l [Lang],
    f: &'f mut dyn FnMut(&str, Option<Lang>),
}

/// The only error: a record's impl that failed.
#[derive(Debug)]
pub struct Failed;

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a record failed to serialize")
    }
}

impl std::error::Error for Failed {}

impl ser::Error for Failed {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Failed
    }
}

/// An object being walked. While every key so far is a language with a string value it
/// may be a text: those strings wait here until the object ends or proves not to be one.
struct Object<'w, 'l, 'f> {
    walk: &'w mut Walk<'l, 'f>,
    /// `None` once the object is known not to be a text.
    pending: Option<Vec<(Lang, String)>>,
    /// The language the last map key names, if it names one.
    key: Option<Lang>,
}

impl<'w, 'l, 'f> Object<'w, 'l, 'f> {
    fn new(walk: &'w mut Walk<'l, 'f>) -> Self {
        Object {
            walk,
            pending: Some(Vec::new()),
            key: None,
        }
    }

    /// The strings waiting, as plain values: the object is not a text.
    fn flush(&mut self) {
        if let Some(pending) = self.pending.take() {
            for (_, s) in pending {
                (self.walk.f)(&s, None);
            }
        }
    }

    /// The language `key` names, if the object may still be a text.
    fn lang(&self, key: &str) -> Option<Lang> {
        self.pending.as_ref()?;
        self.walk.langs.iter().copied().find(|l| l.code() == key)
    }

    fn entry<T: Serialize + ?Sized>(
        &mut self,
        lang: Option<Lang>,
        value: &T,
    ) -> Result<(), Failed> {
        if self.pending.is_some() {
            let text = lang.and_then(|l| {
                let pending = self.pending.as_ref()?;
                if pending.iter().any(|(p, _)| *p == l) {
                    return None;
                }
                value
                    .serialize(Plain(str::to_string))
                    .ok()
                    .flatten()
                    .map(|s| (l, s))
            });
            match text {
                Some(entry) => {
                    if let Some(p) = self.pending.as_mut() {
                        p.push(entry);
                    }
                    return Ok(());
                }
                None => self.flush(),
            }
        }
        value.serialize(&mut *self.walk)
    }

    fn end(mut self) -> Result<(), Failed> {
        match self.pending.take() {
            Some(mut p) if p.len() == self.walk.langs.len() && !p.is_empty() => {
                let langs = self.walk.langs;
                p.sort_by_key(|(l, _)| langs.iter().position(|x| x == l));
                for (l, s) in p {
                    (self.walk.f)(&s, Some(l));
                }
            }
            other => {
                self.pending = other;
                self.flush();
            }
        }
        Ok(())
    }
}

impl ser::SerializeMap for Object<'_, '_, '_> {
    type Ok = ();
    type Error = Failed;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Failed> {
        // Compared where it is: no copy of every key of every map.
        self.key = key
            .serialize(Plain(|k: &str| self.lang(k)))
            .ok()
            .flatten()
            .flatten();
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
        let lang = self.key.take();
        self.entry(lang, value)
    }
    fn end(self) -> Result<(), Failed> {
        Object::end(self)
    }
}

/// A struct's fields (and a struct variant's) are entries with `&'static str` keys.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Object<'_, '_, '_> {
            type Ok = ();
            type Error = Failed;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Failed> {
                let lang = self.lang(key);
                self.entry(lang, value)
            }
            fn end(self) -> Result<(), Failed> {
                Object::end(self)
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

/// The elements of a list (or tuple), each walked in turn.
struct List<'w, 'l, 'f>(&'w mut Walk<'l, 'f>);

macro_rules! list {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for List<'_, '_, '_> {
            type Ok = ();
            type Error = Failed;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Failed> {
                value.serialize(&mut *self.0)
            }
            fn end(self) -> Result<(), Failed> {
                Ok(())
            }
        }
    )*};
}

list!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

macro_rules! nothing {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, _: $t) -> Result<(), Failed> {
            Ok(())
        }
    )*};
}

impl<'w, 'l, 'f> ser::Serializer for &'w mut Walk<'l, 'f> {
    type Ok = ();
    type Error = Failed;
    type SerializeSeq = List<'w, 'l, 'f>;
    type SerializeTuple = List<'w, 'l, 'f>;
    type SerializeTupleStruct = List<'w, 'l, 'f>;
    type SerializeTupleVariant = List<'w, 'l, 'f>;
    type SerializeMap = Object<'w, 'l, 'f>;
    type SerializeStruct = Object<'w, 'l, 'f>;
    type SerializeStructVariant = Object<'w, 'l, 'f>;

    nothing!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64, serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_char(self, v: char) -> Result<(), Failed> {
        (self.f)(v.encode_utf8(&mut [0; 4]), None);
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Failed> {
        (self.f)(v, None);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Failed> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Failed> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Failed> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
    ) -> Result<(), Failed> {
        (self.f)(v, None);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        // `{variant: value}` in JSON.
        let mut o = Object::new(self);
        let lang = o.lang(variant);
        o.entry(lang, value)?;
        o.end()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<List<'w, 'l, 'f>, Failed> {
        Ok(List(self))
    }
    fn serialize_tuple(self, _: usize) -> Result<List<'w, 'l, 'f>, Failed> {
        Ok(List(self))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<List<'w, 'l, 'f>, Failed> {
        Ok(List(self))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<List<'w, 'l, 'f>, Failed> {
        // `{variant: [..]}`: one key, whose value is a list, so never a text.
        Ok(List(self))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Object<'w, 'l, 'f>, Failed> {
        Ok(Object::new(self))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Object<'w, 'l, 'f>, Failed> {
        Ok(Object::new(self))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Object<'w, 'l, 'f>, Failed> {
        // `{variant: {..}}`: the outer object has one key, an object, so is no text; the
        // inner one is walked as any object.
        Ok(Object::new(self))
    }
}

/// A value that is a string in JSON (a string, a char, a unit variant's name, through
/// newtypes and `Some`), as `Some` of what the function makes of it; `None` for any other.
struct Plain<F>(F);

type NoString<R> = Result<Option<R>, Failed>;

macro_rules! not_a_string {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, _: $t) -> NoString<R> {
            Ok(None)
        }
    )*};
}

impl<R, F: FnOnce(&str) -> R> ser::Serializer for Plain<F> {
    type Ok = Option<R>;
    type Error = Failed;
    type SerializeSeq = Impossible<Option<R>, Failed>;
    type SerializeTuple = Impossible<Option<R>, Failed>;
    type SerializeTupleStruct = Impossible<Option<R>, Failed>;
    type SerializeTupleVariant = Impossible<Option<R>, Failed>;
    type SerializeMap = Impossible<Option<R>, Failed>;
    type SerializeStruct = Impossible<Option<R>, Failed>;
    type SerializeStructVariant = Impossible<Option<R>, Failed>;

    not_a_string!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64, serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_char(self, v: char) -> NoString<R> {
        Ok(Some((self.0)(v.encode_utf8(&mut [0; 4]))))
    }
    fn serialize_str(self, v: &str) -> NoString<R> {
        Ok(Some((self.0)(v)))
    }
    fn serialize_none(self) -> NoString<R> {
        Ok(None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> NoString<R> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> NoString<R> {
        Ok(None)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> NoString<R> {
        Ok(Some((self.0)(v)))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> NoString<R> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> NoString<R> {
        Ok(None)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Failed> {
        Err(Failed)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Failed> {
        Err(Failed)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Failed> {
        Err(Failed)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Failed> {
        Err(Failed)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Failed> {
        Err(Failed)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Failed> {
        Err(Failed)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Failed> {
        Err(Failed)
    }
}

/// The walks a test holds [`each`] against, for this crate's tests and a pack's.
#[cfg(any(test, feature = "test-support"))]
pub mod test_support {
    use super::*;
    use serde_json::Value;

    /// The walk over a JSON tree that `each` stands in for.
    pub fn tree_walk(v: &Value, langs: &[Lang], out: &mut Vec<(String, bool)>) {
        match v {
            Value::String(s) => out.push((s.clone(), false)),
            Value::Array(a) => a.iter().for_each(|x| tree_walk(x, langs, out)),
            Value::Object(m) => match super::super::lang::json_text(v, langs) {
                Some(text) => out.extend(text.into_iter().map(|(_, s)| (s.to_string(), true))),
                None => m.values().for_each(|x| tree_walk(x, langs, out)),
            },
            _ => {}
        }
    }

    /// The strings [`each`] gives of a value, each marked whether it is a text.
    pub fn walked(v: &impl Serialize, langs: &[Lang]) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        each(v, langs, &mut |s, text| out.push((s.to_string(), text)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{tree_walk, walked};
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(Value::from),
            "[a-z:@/\\[\\] ]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((prop_oneof!["ja", "en", "de", "id"], inner), 0..4).prop_map(
                    |kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                ),
            ]
        })
    }

    proptest! {
        /// A JSON value serializes its objects in key order, as the tree walk reads them:
        /// the two give the same strings in the same order, texts marked the same.
        #[test]
        fn a_json_value_gives_what_its_tree_walk_gives(v in value()) {
            for langs in [Lang::DEFAULT, &[Lang::EN][..], &[][..]] {
                let mut want = Vec::new();
                tree_walk(&v, langs, &mut want);
                prop_assert_eq!(walked(&v, langs), want);
            }
        }
    }
}
