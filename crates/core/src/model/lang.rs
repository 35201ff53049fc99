//! The languages a site writes in, and a human text in each of them.
//!
//! A site names its languages in `evidence.yaml` (`languages: [ja, en]` by default, any
//! one to three BCP 47 tags). A [`Lang`] is one such tag, interned so that it is `Copy`
//! and compares by value; a [`Text`] holds one string per language, in the site's order.
//!
//! Which languages a text must have is known only once `evidence.yaml` is read, so the
//! loader parses every data file inside [`expecting`]: a text missing one of the site's
//! languages, or written in another, is then a located parse error like any wrong field.

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::fmt;
use std::sync::Mutex;

/// A language tag (BCP 47, in canonical case: `ja`, `en`, `de-CH`, `zh-Hant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lang(&'static str);

/// Tags seen so far: a tag is leaked once per process, however often a site is reloaded.
static TAGS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
/// Language lists seen so far, for [`Lang::list`].
static LISTS: Mutex<Vec<&'static [Lang]>> = Mutex::new(Vec::new());

impl Lang {
    pub const JA: Lang = Lang("ja");
    pub const EN: Lang = Lang("en");
    /// Undetermined (BCP 47 `und`): the language of a [`Text::untranslated`].
    pub const UND: Lang = Lang("und");
    /// The languages of a site that names none.
    pub const DEFAULT: &'static [Lang] = &[Lang::JA, Lang::EN];

    /// Reads a BCP 47 tag, canonicalising its case (`EN-us` → `en-US`).
    pub fn parse(tag: &str) -> Result<Lang, NotATag> {
        let id: unic_langid::LanguageIdentifier =
            tag.parse().map_err(|_| NotATag(tag.to_string()))?;
        let canonical = id.to_string();
        let mut tags = TAGS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = tags.iter().find(|t| **t == canonical) {
            return Ok(Lang(t));
        }
        let t: &'static str = Box::leak(canonical.into_boxed_str());
        tags.push(t);
        Ok(Lang(t))
    }

    /// The tag, as written in `lang` attributes, file names and URLs.
    pub fn code(self) -> &'static str {
        self.0
    }

    /// A language list that lives as long as the program (interned like the tags), so
    /// that views can hold it and stay `Copy`.
    pub fn list(langs: &[Lang]) -> &'static [Lang] {
        let mut lists = LISTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = lists.iter().find(|l| **l == langs) {
            return l;
        }
        let l: &'static [Lang] = Box::leak(langs.to_vec().into_boxed_slice());
        lists.push(l);
        l
    }

    /// This language's text of `text`.
    pub fn pick(self, text: &Text) -> &str {
        text.get(self)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A string [`Lang::parse`] refused: it is no BCP 47 language tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotATag(pub String);

impl fmt::Display for NotATag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a language tag (BCP 47, such as `en` or `pt-BR`)",
            self.0
        )
    }
}

impl std::error::Error for NotATag {}

/// The tags of `langs`, comma-separated, for messages.
pub fn list_codes(langs: &[Lang]) -> String {
    langs
        .iter()
        .map(|l| l.code())
        .collect::<Vec<_>>()
        .join(", ")
}

thread_local! {
    /// The languages every text parsed on this thread must have; see [`expecting`].
    static EXPECTED: Cell<Option<&'static [Lang]>> = const { Cell::new(None) };
}

/// Runs `f` (a parse) requiring every [`Text`] it reads to have exactly `langs`. Outside
/// it a text may have any languages (a run file read back by the probe that wrote it).
pub fn expecting<R>(langs: &'static [Lang], f: impl FnOnce() -> R) -> R {
    let before = EXPECTED.with(|e| e.replace(Some(langs)));
    // Restored even if `f` unwinds, so a caught panic leaves no stale expectation.
    struct Restore(Option<&'static [Lang]>);
    impl Drop for Restore {
        fn drop(&mut self) {
            EXPECTED.with(|e| e.set(self.0));
        }
    }
    let _restore = Restore(before);
    f()
}

/// A human text in each of the site's languages, each holding inline markdown; in
/// YAML a map from tag to text (`{ja: …, en: …}`).
#[derive(Debug, Clone, Default)]
pub struct Text {
    parts: Vec<(Lang, String)>,
}

impl Text {
    /// A text from `(language, text)` pairs, in the order given.
    pub fn new(parts: impl IntoIterator<Item = (Lang, String)>) -> Text {
        Text {
            parts: parts.into_iter().collect(),
        }
    }

    /// A text in `langs`, each made by `f`.
    pub fn from_fn(langs: &[Lang], mut f: impl FnMut(Lang) -> String) -> Text {
        Text::new(langs.iter().map(|&l| (l, f(l))))
    }

    /// The same words in every language (an id, a number, a name that is not
    /// translated): held once, under `und` (undetermined), which [`Text::get`] gives
    /// for any language.
    pub fn untranslated(s: impl Into<String>) -> Text {
        Text::new([(Lang::UND, s.into())])
    }

    /// Whether the text is held once for every language ([`Text::untranslated`]): words
    /// recorded as written, in no language the site names.
    pub fn is_untranslated(&self) -> bool {
        matches!(self.parts.as_slice(), [(Lang::UND, _)])
    }

    /// The text in `lang`; a text that lacks it (only one made by the program can) gives
    /// its first language's, so a label never renders empty.
    pub fn get(&self, lang: Lang) -> &str {
        self.parts
            .iter()
            .find(|(l, _)| *l == lang)
            .or(self.parts.first())
            .map_or("", |(_, s)| s)
    }

    /// The text a reviewer of a change reads: English when the text has it, else its
    /// first language.
    pub fn reading(&self) -> &str {
        self.get(Lang::EN)
    }

    /// Whether the text has `lang`.
    pub fn has(&self, lang: Lang) -> bool {
        self.parts.iter().any(|(l, _)| *l == lang)
    }

    /// Each language with its text, in the text's order.
    pub fn iter(&self) -> impl Iterator<Item = (Lang, &str)> {
        self.parts.iter().map(|(l, s)| (*l, s.as_str()))
    }

    /// The languages the text has.
    pub fn langs(&self) -> impl Iterator<Item = Lang> + '_ {
        self.parts.iter().map(|(l, _)| *l)
    }

    /// The text with each language's string changed by `f`.
    pub fn map(&self, mut f: impl FnMut(Lang, &str) -> String) -> Text {
        Text::new(self.parts.iter().map(|(l, s)| (*l, f(*l, s))))
    }
}

/// Equal when every language says the same, whatever order they were written in.
impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.parts.len() == other.parts.len()
            && self
                .parts
                .iter()
                .all(|(l, s)| other.parts.iter().any(|(m, t)| l == m && s == t))
    }
}

/// As equality sees it: each language's string, whatever order they were written in.
impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let mut parts: Vec<(&str, &str)> = self
            .parts
            .iter()
            .map(|(l, s)| (l.code(), s.as_str()))
            .collect();
        parts.sort_unstable();
        parts.hash(h);
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            let mut map = s.serialize_map(Some(self.parts.len()))?;
            for (l, t) in &self.parts {
                map.serialize_entry(l.code(), t)?;
            }
            map.end()
        } else {
            // The parse cache: pairs, read back with no check (its key holds the languages).
            let pairs: Vec<(&str, &str)> = self
                .parts
                .iter()
                .map(|(l, t)| (l.code(), t.as_str()))
                .collect();
            pairs.serialize(s)
        }
    }
}

/// A text is an object keyed by language tag. Here: any non-empty set of tags; the schema of
/// one site (`model::json_schema`) puts the site's own languages in its place.
impl schemars::JsonSchema for Text {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Text".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A text in each of the site's languages, keyed by language tag.",
            "type": "object",
            "additionalProperties": {"type": "string"},
            "minProperties": 1
        })
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        if !d.is_human_readable() {
            let pairs = Vec::<(String, String)>::deserialize(d)?;
            // The site's own tags without a parse or a lock (a cache hit of a large run).
            let expected = EXPECTED.with(Cell::get).unwrap_or(&[]);
            let parts = pairs
                .into_iter()
                .map(|(l, t)| match expected.iter().find(|x| x.code() == l) {
                    Some(&lang) => Ok((lang, t)),
                    None => Lang::parse(&l).map(|l| (l, t)),
                })
                .collect::<Result<_, _>>()
                .map_err(de::Error::custom)?;
            return Ok(Text { parts });
        }
        d.deserialize_map(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let langs = EXPECTED.with(Cell::get).unwrap_or(Lang::DEFAULT);
        let each: Vec<String> = langs.iter().map(|l| format!("{l}: …")).collect();
        write!(f, "a text in each language, `{{{}}}`", each.join(", "))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
        let expected = EXPECTED.with(Cell::get);
        let mut parts: Vec<(Lang, String)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            // The site's own tags as written are the common case: no parse, no lock.
            let known = expected.and_then(|langs| langs.iter().find(|l| l.code() == key));
            let lang = match known {
                Some(&l) => l,
                None => Lang::parse(&key).map_err(de::Error::custom)?,
            };
            if let Some(langs) = expected
                && !langs.contains(&lang)
            {
                return Err(de::Error::custom(format!(
                    "unknown language `{key}`: this site writes {}",
                    list_codes(langs)
                )));
            }
            if parts.iter().any(|(l, _)| *l == lang) {
                return Err(de::Error::custom(format!("`{key}` is written twice")));
            }
            parts.push((lang, map.next_value::<String>()?));
        }
        match expected {
            Some(langs) => {
                if let Some(missing) = langs.iter().find(|l| !parts.iter().any(|(m, _)| m == *l)) {
                    return Err(de::Error::custom(format!(
                        "missing field `{missing}` (this site writes {})",
                        list_codes(langs)
                    )));
                }
                // The site's order, whatever order the file wrote them in.
                parts.sort_by_key(|(l, _)| langs.iter().position(|m| m == l));
            }
            None if parts.is_empty() => {
                return Err(de::Error::custom("a text needs at least one language"));
            }
            None => {}
        }
        Ok(Text { parts })
    }
}

/// The texts of a JSON object that is a [`Text`] of `langs` (exactly those keys, each a
/// string), in the order of `langs`; `None` for any other value.
pub fn json_text<'v>(v: &'v serde_json::Value, langs: &[Lang]) -> Option<Vec<(Lang, &'v str)>> {
    let m = v.as_object()?;
    if m.len() != langs.len() {
        return None;
    }
    langs
        .iter()
        .map(|l| Some((*l, m.get(l.code())?.as_str()?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_canonical_and_interned() {
        let a = Lang::parse("EN-us").unwrap();
        assert_eq!(a.code(), "en-US");
        assert_eq!(a, Lang::parse("en-US").unwrap());
        assert!(Lang::parse("not a tag").is_err());
        assert_eq!(
            Lang::parse("not a tag").unwrap_err().to_string(),
            "`not a tag` is not a language tag (BCP 47, such as `en` or `pt-BR`)"
        );
        assert_eq!(Lang::parse("ja").unwrap(), Lang::JA);
    }

    #[test]
    fn texts_compare_by_language() {
        let a = Text::new([(Lang::JA, "x".into()), (Lang::EN, "y".into())]);
        let b = Text::new([(Lang::EN, "y".into()), (Lang::JA, "x".into())]);
        assert_eq!(a, b);
        assert_eq!(a.get(Lang::EN), "y");
        let de = Lang::parse("de").unwrap();
        assert_eq!(a.get(de), "x", "a missing language falls back to the first");
    }
}
