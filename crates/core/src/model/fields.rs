//! What a run or a case holds beyond the core's own fields: named measurements, and the
//! fields a pack's probes record.
//!
//! A case's numbers are [`Measurements`]: each a name (`est_rows`, `total_duration_ns`) and
//! a number, labelled by the site's vocabulary or by the pack that declares it. A site
//! writes its own under `measurements:`; a pack declares the names its probes write at the
//! top of a case ([`Field`] with [`FieldKind::Measurement`]), so that run files recorded
//! before measurements had a name of their own read as they always did. Everything else a
//! pack's probe keeps (a prompt, a reply, a binary's scan) is a [`FieldKind::Value`]: a
//! type of the pack, parsed by the pack's own serde type through [`erased_serde`], so
//! that a wrong value is a located error like any other and the pack reads it back typed
//! ([`Values::get`]).
//!
//! Which packs' fields a file may hold is known once `evidence.yaml` is read, so the
//! loader parses inside [`expecting`] (like `lang::expecting`); outside it (a run file read
//! back by the probe that wrote it) every pack's fields are read.

use super::pack::{Pack, known};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, RwLock};

// ---------------------------------------------------------------- measurements

/// The suffix that makes a measurement a duration in nanoseconds (`load_duration_ns`):
/// tables, plots and the diff show it in seconds.
pub const NANOSECONDS: &str = "_ns";

/// Whether the measurement `name` is a duration in nanoseconds ([`NANOSECONDS`]).
pub fn is_duration(name: &str) -> bool {
    name.ends_with(NANOSECONDS)
}

/// Names seen so far: a name is leaked once per process, however often a site is reloaded.
static NAMES: RwLock<Option<HashSet<&'static str>>> = RwLock::new(None);

/// `name` as a string that lives as long as the program, so that a case holds its
/// measurements' names without an allocation each.
fn intern(name: &str) -> &'static str {
    // A pack's measurement as the one string `flat` knows it by; read from a run file,
    // the name given is most often that very string (the pack's field's), known by address.
    let flat = flat_names();
    if let Some(n) = flat
        .iter()
        .find(|n| std::ptr::eq(**n, name))
        .or_else(|| flat.iter().find(|n| **n == name))
    {
        return n;
    }
    if let Some(n) = NAMES
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(|s| s.get(name))
    {
        return n;
    }
    let mut names = NAMES.write().unwrap_or_else(|e| e.into_inner());
    let names = names.get_or_insert_with(HashSet::new);
    if let Some(n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(n);
    n
}

/// A case's numbers by name, sorted by name. Counts and nanoseconds stay below 2^53, so
/// they are exact as `f64`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measurements(Vec<(&'static str, f64)>);

impl Measurements {
    /// Room for `n` without growing: a case reads its measurements one by one.
    pub fn with_capacity(n: usize) -> Measurements {
        Measurements(Vec::with_capacity(n))
    }

    /// The value called `name`.
    pub fn get(&self, name: &str) -> Option<f64> {
        // A case has a handful: a scan that compares lengths first, and bytes only for an
        // equal length (names are interned, so most often the very same string), beats a
        // binary search's string comparisons.
        if self.0.len() <= 16 {
            return self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        }
        self.0
            .binary_search_by(|(n, _)| (*n).cmp(name))
            .ok()
            .map(|i| self.0[i].1)
    }

    /// Sets `name` to `value`.
    pub fn insert(&mut self, name: &str, value: f64) {
        // Past the last name (a file that lists them in order, or the first), appended.
        if self.0.last().is_none_or(|(n, _)| *n < name) {
            self.0.push((intern(name), value));
            return;
        }
        match self.0.binary_search_by(|(n, _)| (*n).cmp(name)) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (intern(name), value)),
        }
    }

    /// Removes `name`, giving its value.
    pub fn remove(&mut self, name: &str) -> Option<f64> {
        let i = self.0.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
        Some(self.0.remove(i).1)
    }

    /// The names, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|(n, _)| *n)
    }

    /// Name and value of each, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.0.iter().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl FromIterator<(String, f64)> for Measurements {
    fn from_iter<I: IntoIterator<Item = (String, f64)>>(iter: I) -> Self {
        let mut m = Measurements::default();
        for (n, v) in iter {
            m.insert(&n, v);
        }
        m
    }
}

/// A number as written: a whole number without a fraction (`12`, not `12.0`).
pub fn serialize_number<S: Serializer>(v: f64, s: S) -> Result<S::Ok, S::Error> {
    // Whole numbers below 2^53 are exact as f64 and read back the same as an integer.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if v.fract() == 0.0 && v.abs() < EXACT {
        if v >= 0.0 {
            s.serialize_u64(v as u64)
        } else {
            s.serialize_i64(v as i64)
        }
    } else {
        s.serialize_f64(v)
    }
}

struct Number(f64);

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_number(self.0, s)
    }
}

impl Serialize for Measurements {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (n, v) in &self.0 {
            map.serialize_entry(n, &Number(*v))?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Measurements {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Measurements;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from measurement name to number")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Measurements, A::Error> {
                let mut m = Measurements::default();
                while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    let value: f64 = map.next_value()?;
                    if !value.is_finite() {
                        return Err(de::Error::custom(format!(
                            "`{name}` is not a finite number"
                        )));
                    }
                    m.insert(&name, value);
                }
                Ok(m)
            }
        }
        d.deserialize_map(V)
    }
}

// ---------------------------------------------------------------- pack fields

/// A value of a pack's own type held in a run or a case.
pub trait PackValue: Any + fmt::Debug + Send + Sync + erased_serde::Serialize {
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is the same type with the same value.
    fn same(&self, other: &dyn PackValue) -> bool;
}

impl<T: Any + fmt::Debug + Send + Sync + Serialize + PartialEq> PackValue for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn PackValue) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

erased_serde::serialize_trait_object!(PackValue);

/// How a pack's field is read: by the pack's serde type.
pub type ParseFn = for<'de> fn(
    &mut dyn erased_serde::Deserializer<'de>,
) -> Result<Arc<dyn PackValue>, erased_serde::Error>;

/// Reads a field's value as `T`; a pack declares a field with `FieldKind::Value(parse::<T>)`.
pub fn parse<T: DeserializeOwned + PackValue>(
    d: &mut dyn erased_serde::Deserializer<'_>,
) -> Result<Arc<dyn PackValue>, erased_serde::Error> {
    Ok(Arc::new(erased_serde::deserialize::<T>(d)?))
}

/// What a pack's field holds.
#[derive(Clone, Copy)]
pub enum FieldKind {
    /// A number of the case, kept among its [`Measurements`].
    Measurement,
    /// A value of the pack's own type.
    Value(ParseFn),
}

/// A field a pack adds to runs or cases, as written in their files.
#[derive(Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub kind: FieldKind,
    /// Its label: a Fluent message of the pack (for a measurement, the column a run
    /// table shows it in, unless the site's vocabulary names it).
    pub label: &'static str,
    /// Only a probe writes it (request settings): a run that has it was probed, not
    /// imported.
    pub probe_only: bool,
    /// For measurements shown together in one column (durations), a name the group's
    /// members share; empty for a column of its own.
    pub group: &'static str,
    /// Written first, right after what identifies the run or case (a run's `engine`, a
    /// case's `id`): a field that says what the run ran on, or how the case ran.
    pub leading: bool,
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl Field {
    pub const fn measurement(name: &'static str, label: &'static str) -> Field {
        Field {
            name,
            kind: FieldKind::Measurement,
            label,
            probe_only: false,
            group: "",
            leading: false,
        }
    }

    pub const fn value(name: &'static str, parse: ParseFn) -> Field {
        Field {
            name,
            kind: FieldKind::Value(parse),
            label: "",
            probe_only: false,
            group: "",
            leading: false,
        }
    }

    /// A measurement shown in the column `group` with the others of that group.
    pub const fn grouped(self, group: &'static str) -> Field {
        Field { group, ..self }
    }

    /// A field written first, beside what identifies the run or case ([`Field::leading`]).
    pub const fn leading(self) -> Field {
        Field {
            leading: true,
            ..self
        }
    }

    /// A field only a probe writes.
    pub const fn probe_only(self) -> Field {
        Field {
            probe_only: true,
            ..self
        }
    }
}

/// The values of a pack's fields a run or a case holds, in the order the pack declares
/// them (the order they are written in).
#[derive(Clone, Default)]
pub struct Values(Vec<(&'static str, Arc<dyn PackValue>)>);

impl fmt::Debug for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(n, v)| (n, v)))
            .finish()
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|((a, x), (b, y))| a == b && x.same(y.as_ref()))
    }
}

impl Values {
    /// The value of the field `name`, if it is a `T`.
    pub fn get<T: 'static>(&self, name: &str) -> Option<&T> {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_any().downcast_ref::<T>())
    }

    /// Sets the field `name` (one a pack declares at `place`) to `value`; `None` removes it.
    pub fn set<T: PackValue>(&mut self, place: Place, name: &str, value: Option<T>) {
        self.0.retain(|(n, _)| *n != name);
        let Some(value) = value else { return };
        let Some((_, field)) = declared(place, name) else {
            debug_assert!(false, "`{name}` is no field a pack declares");
            return;
        };
        self.push(place, field.name, Arc::new(value));
    }

    /// Adds a value read from a file, in the order of declaration whatever the order
    /// of the file.
    fn push(&mut self, place: Place, name: &'static str, value: Arc<dyn PackValue>) {
        let rank = |n: &str| {
            known()
                .iter()
                .flat_map(|p| fields_of(p, place))
                .position(|f| f.name == n)
        };
        let at = rank(name);
        let pos = self
            .0
            .iter()
            .position(|(n, _)| rank(n) > at)
            .unwrap_or(self.0.len());
        self.0.insert(pos, (name, value));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The names of the fields it holds.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|(n, _)| *n)
    }

    /// Writes those of `place` whose field is [leading](Field::leading) into `map`, in order.
    pub fn serialize_leading_into<M: SerializeMap>(
        &self,
        place: Place,
        map: &mut M,
    ) -> Result<(), M::Error> {
        self.serialize_where(place, map, true)
    }

    /// Writes all but the [leading](Field::leading) ones of `place` into `map`, in order.
    pub fn serialize_rest_into<M: SerializeMap>(
        &self,
        place: Place,
        map: &mut M,
    ) -> Result<(), M::Error> {
        self.serialize_where(place, map, false)
    }

    /// The [leading](Field::leading) fields of `place` whose value is a text, by name
    /// and as written (what a run served, how a case ran), in order.
    pub fn leading_texts(&self, place: Place) -> Vec<(&'static str, String)> {
        self.0
            .iter()
            .filter(|(n, _)| declared(place, n).is_some_and(|(_, f)| f.leading))
            .filter_map(|(n, v)| match serde_json::to_value(v.as_ref()) {
                Ok(serde_json::Value::String(t)) => Some((*n, t)),
                _ => None,
            })
            .collect()
    }

    /// Writes those whose field at `place` is leading, or is not, as `leading` says.
    fn serialize_where<M: SerializeMap>(
        &self,
        place: Place,
        map: &mut M,
        leading: bool,
    ) -> Result<(), M::Error> {
        for (n, v) in &self.0 {
            let is_leading = declared(place, n).is_some_and(|(_, f)| f.leading);
            if is_leading == leading {
                map.serialize_entry(n, v.as_ref())?;
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- which packs

thread_local! {
    /// The packs (as a bit per index in the packs handed in) whose fields a parse on this thread may
    /// read; see [`expecting`].
    static EXPECTED: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Runs `f` (a parse) accepting only the fields of `packs`.
pub fn expecting<R>(packs: &[&'static Pack], f: impl FnOnce() -> R) -> R {
    let mask = known()
        .iter()
        .enumerate()
        // By name: a pack is a `const`, so two references to it need not be one address.
        .filter(|(_, p)| packs.iter().any(|q| q.name == p.name))
        .fold(0u64, |m, (i, _)| m | (1u64 << i));
    let before = EXPECTED.with(|e| e.replace(Some(mask)));
    // Restored even if `f` unwinds, so a caught panic leaves no stale expectation.
    struct Restore(Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            EXPECTED.with(|e| e.set(self.0));
        }
    }
    let _restore = Restore(before);
    f()
}

fn expected(i: usize) -> bool {
    EXPECTED.with(Cell::get).is_none_or(|m| m & (1 << i) != 0)
}

/// Where a pack's field is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Run,
    Case,
}

fn fields_of(p: &Pack, place: Place) -> &'static [Field] {
    match place {
        Place::Run => p.run_fields,
        Place::Case => p.case_fields,
    }
}

/// The field `name` of a pack, at `place`: the field, or why it cannot be read here.
fn field(place: Place, name: &str) -> Result<&'static Field, Option<&'static Pack>> {
    for (i, p) in known().iter().enumerate() {
        if let Some(f) = fields_of(p, place).iter().find(|f| f.name == name) {
            return if expected(i) { Ok(f) } else { Err(Some(p)) };
        }
    }
    Err(None)
}

/// The field `name` of any pack at `place`, whether or not the pack is on.
pub fn declared(place: Place, name: &str) -> Option<(&'static Pack, &'static Field)> {
    known().iter().copied().find_map(|p| {
        fields_of(p, place)
            .iter()
            .find(|f| f.name == name)
            .map(|f| (p, f))
    })
}

/// The names of the fields the packs that are on add at `place`, for an error.
fn expected_names(place: Place) -> Vec<&'static str> {
    known()
        .iter()
        .enumerate()
        .filter(|(i, _)| expected(*i))
        .flat_map(|(_, p)| fields_of(p, place).iter().map(|f| f.name))
        .collect()
}

/// The error for a key that is neither a core field nor a field of a pack that is on.
fn unknown<E: de::Error>(place: Place, key: &str, core: &[&str]) -> E {
    if let Err(Some(p)) = field(place, key) {
        return E::custom(format!(
            "`{key}` is a field of the `{}` pack, which this site does not turn on \
             (add `packs: [{}]` to evidence.yaml)",
            p.name, p.name
        ));
    }
    let mut names: Vec<&str> = core.to_vec();
    names.extend(expected_names(place));
    let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    E::custom(format!(
        "unknown field `{key}`, expected one of {}",
        list.join(", ")
    ))
}

/// A key of a run or a case: one the core reads, or a field of a pack that is on.
#[derive(Clone, Copy)]
pub enum Key {
    Core(&'static str),
    Pack(&'static Field),
}

/// Reads a key of a run or a case, refusing any other at the key's own position (as
/// serde's derived field names do).
#[derive(Clone, Copy)]
pub struct KeySeed {
    pub place: Place,
    pub core: &'static [&'static str],
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        if let Some(k) = self.core.iter().find(|k| **k == key) {
            return Ok(Key::Core(k));
        }
        match field(self.place, key) {
            Ok(f) => Ok(Key::Pack(f)),
            Err(_) => Err(unknown(self.place, key, self.core)),
        }
    }
}

/// Reads the value of a pack's field through the pack's own type.
struct ValueSeed(ParseFn);

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Arc<dyn PackValue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let mut erased = <dyn erased_serde::Deserializer>::erase(d);
        (self.0)(&mut erased).map_err(de::Error::custom)
    }
}

/// Reads the value of the pack field `f` of a run or case into `measurements` or `values`.
pub fn read_field<'de, A: MapAccess<'de>>(
    map: &mut A,
    place: Place,
    f: &'static Field,
    measurements: Option<&mut Measurements>,
    values: &mut Values,
) -> Result<(), A::Error> {
    match (f.kind, measurements) {
        (FieldKind::Measurement, Some(m)) => {
            let v: f64 = map.next_value()?;
            if !v.is_finite() {
                return Err(de::Error::custom(format!(
                    "`{}` is not a finite number",
                    f.name
                )));
            }
            m.insert(f.name, v);
        }
        (FieldKind::Value(parse), _) => {
            values.push(place, f.name, map.next_value_seed(ValueSeed(parse))?)
        }
        (FieldKind::Measurement, None) => {
            let v = map.next_value_seed(ValueSeed(parse::<f64>))?;
            values.push(place, f.name, v);
        }
    }
    Ok(())
}

/// The measurements packs write at the top of a case, in their order of declaration:
/// made once the packs are handed in ([`super::pack::register`]), none before.
fn flat_names() -> &'static [&'static str] {
    static FLAT: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    if let Some(names) = FLAT.get() {
        return names;
    }
    if known().is_empty() {
        return &[];
    }
    FLAT.get_or_init(|| {
        known()
            .iter()
            .flat_map(|p| p.case_fields)
            .filter(|f| matches!(f.kind, FieldKind::Measurement))
            .map(|f| f.name)
            .collect()
    })
}

/// Whether a pack writes the measurement `name` at the top of a case. Asked of every
/// measurement of every case each time a case is written, so the names are compared by
/// address: [`intern`] hands out the string in [`flat_names`] for each of them.
fn flat(name: &'static str) -> bool {
    flat_names().iter().any(|f| std::ptr::eq(*f, name))
}

/// How many map entries [`serialize_measurements`] writes.
pub fn measurement_entries(m: &Measurements) -> usize {
    let top = m.keys().filter(|n| flat(n)).count();
    top + usize::from(top < m.len())
}

/// Writes the measurements a pack declares at the top of a case, then the rest under
/// `measurements`.
pub fn serialize_measurements<M: SerializeMap>(
    m: &Measurements,
    map: &mut M,
) -> Result<(), M::Error> {
    // In the pack's order of declaration, as probes have always written them.
    for &name in flat_names().iter() {
        if let Some((n, v)) = m.0.iter().find(|(n, _)| std::ptr::eq(*n, name)) {
            map.serialize_entry(n, &Number(*v))?;
        }
    }
    let own = m.0.iter().filter(|(n, _)| !flat(n)).count();
    if own > 0 {
        map.serialize_entry("measurements", &Own(m, own))?;
    }
    Ok(())
}

/// The measurements of a case no pack declares, and how many there are.
struct Own<'a>(&'a Measurements, usize);

impl Serialize for Own<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.1))?;
        for (n, v) in self.0.iter().filter(|(n, _)| !flat(n)) {
            map.serialize_entry(n, &Number(v))?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Whatever order names arrive in, and however often, a case's measurements are
        /// sorted by name, each once, with the value given last.
        #[test]
        fn measurements_are_sorted_with_the_last_value(
            sets in proptest::collection::vec(
                (proptest::sample::select(vec!["a", "b", "eval_count", "num_predict", "z", "m"]), 0u32..100),
                0..20,
            )
        ) {
            let mut m = Measurements::default();
            let mut expected = std::collections::BTreeMap::new();
            for (name, v) in &sets {
                m.insert(name, f64::from(*v));
                expected.insert(*name, f64::from(*v));
            }
            let got: Vec<(&str, f64)> = m.iter().collect();
            let want: Vec<(&str, f64)> = expected.into_iter().collect();
            proptest::prop_assert_eq!(got, want);
        }
    }
}
