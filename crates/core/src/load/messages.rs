//! Fluent messages: UI strings and every enum label, one bundle per language of the site.
//!
//! Loaded from the theme's `locales/<lang>/*.ftl`. Rust code calls [`Messages::text`];
//! `render::templates` makes it fluent-templates' `Loader`, so templates call
//! `fluent(key="…", lang="…")`. A key missing in a language is recorded and becomes a
//! located `check` error instead of a placeholder.

use super::Theme;
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::model::Text;
use crate::model::page::Lang;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use unic_langid::LanguageIdentifier;

struct LangBundle {
    lang: Lang,
    id: LanguageIdentifier,
    bundle: FluentBundle<FluentResource>,
    /// Message id → (file, line), for parity errors.
    keys: BTreeMap<String, (String, usize)>,
}

/// Fluent bundles, one per language of the site.
pub struct Messages {
    /// In the site's order of languages.
    bundles: Vec<LangBundle>,
    /// Every message defined in every language, formatted without arguments once: a
    /// table of a thousand runs asks for the same labels hundreds of thousands of times.
    plain: std::collections::HashMap<String, Text>,
    missing: Mutex<BTreeSet<(Lang, String)>>,
    load_errors: Vec<Diagnostic>,
}

impl std::fmt::Debug for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Messages").finish_non_exhaustive()
    }
}

impl Messages {
    /// Builds a bundle for each of `langs` from `locales/<tag>/*.ftl` of the theme.
    pub fn load(theme: &Theme, langs: &[Lang]) -> Messages {
        let mut load_errors = Vec::new();
        let mut bundles = Vec::new();
        // Per language, the messages the site's own files define, and where.
        let mut site_defined = Vec::new();
        for &lang in langs {
            // `Lang` holds only tags that parsed as language identifiers.
            let id: LanguageIdentifier = lang.code().parse().unwrap_or_default();
            let mut bundle = FluentBundle::new_concurrent(vec![id.clone()]);
            bundle.set_use_isolating(false);
            let mut keys = BTreeMap::new();
            // Message → where a site file defined it.
            let mut own = BTreeMap::new();
            let prefix = format!("locales/{}/", lang.code());
            // The built-in messages first; a site's own files may then redefine any of
            // them (its investigation's words), but not one another's.
            let (builtin, site): (Vec<_>, Vec<_>) = theme
                .under(&prefix)
                .map(|(_, f)| f)
                .partition(|f| f.is_builtin());
            for file in builtin.into_iter().chain(site) {
                add_resource(&mut bundle, &mut keys, &mut own, file, &mut load_errors);
            }
            bundles.push(LangBundle {
                lang,
                id,
                bundle,
                keys,
            });
            site_defined.push((lang, own));
        }
        load_errors.extend(partial_overrides(&site_defined, &bundles));
        let mut messages = Messages {
            bundles,
            plain: Default::default(),
            missing: Mutex::new(BTreeSet::new()),
            load_errors,
        };
        let everywhere: Vec<String> = match messages.bundles.split_first() {
            Some((first, rest)) => first
                .keys
                .keys()
                .filter(|k| rest.iter().all(|b| b.keys.contains_key(*k)))
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        messages.plain = everywhere
            .into_iter()
            .map(|k| {
                let t = messages.text(&k);
                (k, t)
            })
            .collect();
        messages
    }

    /// The languages of the bundles, in the site's order.
    pub fn langs(&self) -> Vec<Lang> {
        self.bundles.iter().map(|b| b.lang).collect()
    }

    /// The site's language a Fluent language id stands for (the first when none does).
    pub fn lang_of(&self, id: &LanguageIdentifier) -> Lang {
        self.bundles
            .iter()
            .find(|b| b.id == *id)
            .or(self.bundles.first())
            .map_or(Lang::EN, |b| b.lang)
    }

    /// Whether `key` is defined in `lang`.
    pub fn has(&self, lang: Lang, key: &str) -> bool {
        self.bundle(lang).is_some_and(|b| b.bundle.has_message(key))
    }

    fn bundle(&self, lang: Lang) -> Option<&LangBundle> {
        self.bundles.iter().find(|b| b.lang == lang)
    }

    /// The message `key` in `lang`, formatted with `args`. A missing key is recorded and
    /// the key itself is returned, so rendering can go on and `check` reports it.
    pub fn format(&self, lang: Lang, key: &str, args: Option<&FluentArgs>) -> String {
        let Some((b, pattern)) = self
            .bundle(lang)
            .and_then(|b| Some((b, b.bundle.get_message(key)?.value()?)))
        else {
            if let Ok(mut m) = self.missing.lock() {
                m.insert((lang, key.to_string()));
            }
            return key.to_string();
        };
        let mut errors = Vec::new();
        b.bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned()
    }

    /// A message in every language.
    pub fn text(&self, key: &str) -> Text {
        if let Some(t) = self.plain.get(key) {
            return t.clone();
        }
        self.in_each(key, None)
    }

    /// The message `key` formatted with `args` in each of the site's languages.
    fn in_each(&self, key: &str, args: Option<&FluentArgs>) -> Text {
        Text::new(
            self.bundles
                .iter()
                .map(|b| (b.lang, self.format(b.lang, key, args))),
        )
    }

    /// A message with one numeric or string argument, in every language.
    pub fn text_with(
        &self,
        key: &str,
        name: &'static str,
        value: impl Into<FluentValue<'static>> + Clone,
    ) -> Text {
        let mut args = FluentArgs::new();
        args.set(name, value.into());
        self.in_each(key, Some(&args))
    }

    /// A message with string arguments, in every language.
    pub fn text_args(&self, key: &str, args: &[(&'static str, String)]) -> Text {
        let mut fa = FluentArgs::new();
        for (k, v) in args {
            fa.set(*k, v.clone());
        }
        self.in_each(key, Some(&fa))
    }

    /// The label of an enum value: key `<group>-<value>` with `_` turned into `-`.
    pub fn label(&self, group: &str, value: &impl serde::Serialize) -> Text {
        let v = serde_json::to_value(value)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        self.text(&format!("{group}-{}", v.replace('_', "-")))
    }

    /// Keys asked for but missing, as diagnostics (call after rendering).
    pub fn missing_diagnostics(&self) -> Vec<Diagnostic> {
        let missing = self.missing.lock().map(|m| m.clone()).unwrap_or_default();
        missing
            .into_iter()
            // A key defined in another language is reported once, by `check`, as a
            // missing translation.
            .filter(|(_, key)| !self.bundles.iter().any(|b| b.keys.contains_key(key)))
            .map(|(lang, key)| {
                let file = format!("locales/{}/evidence.ftl", lang.code());
                Diagnostic::error(
                    "missing-message",
                    Span::file(file),
                    format!("missing Fluent message `{key}` ({})", lang.code()),
                )
                .with_hint(format!("add `{key} = …` to locales/{}/", lang.code()))
            })
            .collect()
    }

    /// Parse errors, and keys defined in one language but not in another.
    pub fn check(&self, diags: &mut Diagnostics) {
        diags.extend(self.load_errors.iter().cloned());
        for there in &self.bundles {
            let target = format!("locales/{}/evidence.ftl", there.lang.code());
            // A language with no messages at all is told once, not once per message.
            if there.keys.is_empty() {
                let Some(full) = self.bundles.iter().max_by_key(|b| b.keys.len()) else {
                    continue;
                };
                if full.keys.is_empty() {
                    // No language has any: say it once, for the first.
                    if std::ptr::eq(there, &self.bundles[0]) {
                        diags.push(
                            Diagnostic::error(
                                "missing-translation",
                                Span::file(&target),
                                format!(
                                    "no Fluent messages in `{}`: the theme has none in the \
                                     site's languages",
                                    there.lang.code()
                                ),
                            )
                            .with_hint(
                                "the built-in theme speaks ja, en and de; translate the messages \
                                 of its locales/en/evidence.ftl into locales/<tag>/*.ftl",
                            ),
                        );
                    }
                    continue;
                }
                diags.push(
                    Diagnostic::error(
                        "missing-translation",
                        Span::file(&target),
                        format!(
                            "no Fluent messages in `{}`: the theme has none in this language",
                            there.lang.code()
                        ),
                    )
                    .with_hint(format!(
                        "translate the {} messages of locales/{}/ into locales/{}/*.ftl",
                        full.keys.len(),
                        full.lang.code(),
                        there.lang.code()
                    )),
                );
                continue;
            }
            // Each missing message once, at the first language that has it.
            let mut told = BTreeSet::new();
            for here in &self.bundles {
                for (key, (file, line)) in &here.keys {
                    if there.keys.contains_key(key) || !told.insert(key) {
                        continue;
                    }
                    // Point at the file that lacks the message: the one of this language
                    // named like the file that has it.
                    let name = file.rsplit('/').next().unwrap_or("evidence.ftl");
                    let target = format!("locales/{}/{name}", there.lang.code());
                    diags.push(
                        Diagnostic::error(
                            "missing-translation",
                            Span::file(&target),
                            format!("message `{key}` has no {} translation", there.lang.code()),
                        )
                        .with_hint(format!(
                            "add `{key} = …` to {target}; the {} text is at {file}:{line}",
                            here.lang.code()
                        )),
                    );
                }
            }
        }
    }
}

/// Messages by key, each with the file and line that defines it.
type Defined = BTreeMap<String, (String, usize)>;

/// A warning for each built-in message the site redefines in some of its languages but
/// not in another, which then silently shows the theme's own text: at the first site file
/// that redefines it, naming the language left out.
fn partial_overrides(site_defined: &[(Lang, Defined)], bundles: &[LangBundle]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut told = BTreeSet::new();
    for (_, own) in site_defined {
        for (key, (file, line)) in own {
            if !told.insert(key) {
                continue;
            }
            for ((lang, theirs), bundle) in site_defined.iter().zip(bundles) {
                // Defined there by the theme alone; a message missing there altogether is
                // a missing translation, reported by `check`.
                if theirs.contains_key(key) || !bundle.keys.contains_key(key) {
                    continue;
                }
                out.push(
                    Diagnostic::warning(
                        "partial-override",
                        Span::new(file, *line, 1),
                        format!(
                            "message `{key}` is redefined here but not in `{}`, which shows \
                             the built-in text",
                            lang.code()
                        ),
                    )
                    .with_hint(format!(
                        "add `{key} = …` to locales/{}/ too, saying the same in that language",
                        lang.code()
                    )),
                );
            }
        }
    }
    out
}

/// Adds one `.ftl` file; a site's own file may redefine built-in messages, and `own`
/// records which site file defined each message.
fn add_resource(
    bundle: &mut FluentBundle<FluentResource>,
    keys: &mut BTreeMap<String, (String, usize)>,
    own: &mut BTreeMap<String, (String, usize)>,
    theme_file: &super::theme::ThemeFile,
    errors: &mut Vec<Diagnostic>,
) {
    let site_file = !theme_file.is_builtin();
    let file = theme_file.path().to_string();
    let text = &theme_file.text();
    let res = match FluentResource::try_new(text.to_string()) {
        Ok(r) => r,
        Err((r, errs)) => {
            for e in errs {
                let line = text[..e.pos.start.min(text.len())].matches('\n').count() + 1;
                errors.push(Diagnostic::error(
                    "fluent",
                    Span::new(&file, line, 1),
                    format!("Fluent syntax error: {:?}", e.kind),
                ));
            }
            r
        }
    };
    for (i, line) in text.lines().enumerate() {
        if let Some((key, _)) = line.split_once('=') {
            let key = key.trim();
            if !line.starts_with([' ', '\t', '#', '.', '-', '*', '[']) && !key.is_empty() {
                keys.insert(key.to_string(), (file.clone(), i + 1));
                // Two of the site's files defining one message: which wins is an accident.
                let earlier = site_file
                    .then(|| own.insert(key.to_string(), (file.clone(), i + 1)))
                    .flatten();
                if let Some((other, at)) = earlier.filter(|(f, _)| *f != file) {
                    errors.push(Diagnostic::error(
                        "fluent",
                        Span::new(&file, i + 1, 1),
                        format!("message `{key}` is defined in {other}:{at} as well"),
                    ));
                }
            }
        }
    }
    let added = if site_file {
        bundle.add_resource_overriding(res);
        Ok(())
    } else {
        bundle.add_resource(res)
    };
    if let Err(errs) = added {
        for e in errs {
            errors.push(Diagnostic::error(
                "fluent",
                Span::file(&file),
                format!("Fluent error: {e}"),
            ));
        }
    }
}

/// Test helpers over built-in `.ftl` files, shared with the packs' tests.
#[cfg(any(test, feature = "test-support"))]
pub mod test_support {
    use fluent_syntax::ast::{Expression, InlineExpression, Pattern, PatternElement};

    /// The words of Latin letters in each message of `ftl` that are neither code (in
    /// backticks, or holding a digit, `_`, `.` or `/`) nor an abbreviation in capitals:
    /// `(message id, word)`. Placeables (`{ $arg }`) are not words; a selector's variants
    /// are read as the message's own text.
    pub fn latin_words(ftl: &str) -> Vec<(String, String)> {
        let resource = match fluent_syntax::parser::parse(ftl) {
            Ok(r) => r,
            Err((r, errors)) => panic!("{errors:?} in {}", r.body.len()),
        };
        let mut out = Vec::new();
        for entry in resource.body {
            if let fluent_syntax::ast::Entry::Message(m) = entry {
                let mut text = String::new();
                m.value.iter().for_each(|p| pattern_text(p, &mut text));
                m.attributes
                    .iter()
                    .for_each(|a| pattern_text(&a.value, &mut text));
                out.extend(words_outside_code(&text).map(|w| (m.id.name.to_string(), w)));
            }
        }
        out
    }

    /// The literal text of `p`, its select variants included, placeables as spaces.
    fn pattern_text(p: &Pattern<&str>, out: &mut String) {
        for el in &p.elements {
            match el {
                PatternElement::TextElement { value } => out.push_str(value),
                PatternElement::Placeable { expression } => expression_text(expression, out),
            }
        }
    }

    fn expression_text(e: &Expression<&str>, out: &mut String) {
        match e {
            Expression::Select { variants, .. } => {
                for v in variants {
                    pattern_text(&v.value, out);
                    out.push(' ');
                }
            }
            Expression::Inline(InlineExpression::Placeable { expression }) => {
                expression_text(expression, out)
            }
            Expression::Inline(_) => out.push(' '),
        }
    }

    /// The words of `text` outside backticks that are not code or capitals (`$n` is
    /// code: the search script's own placeholder).
    fn words_outside_code(text: &str) -> impl Iterator<Item = String> + '_ {
        text.split('`')
            .step_by(2)
            .flat_map(|part| {
                part.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-$".contains(c)))
            })
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            .filter(|w| !w.chars().any(|c| c.is_ascii_digit() || "_./$".contains(c)))
            .filter(|w| !w.chars().all(|c| c.is_ascii_uppercase() || c == '-'))
            .map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::latin_words;

    /// Any Japanese site gets a Japanese interface: the theme's own Japanese messages
    /// name no English word.
    #[test]
    fn the_builtin_japanese_messages_have_no_english_words() {
        let ja = include_str!("../messages/ja/evidence.ftl");
        assert_eq!(latin_words(ja), Vec::<(String, String)>::new());
        // The helper does find one.
        assert_eq!(
            latin_words(
                "a = 未 `code` scan { $x } $n\nb = { $n ->\n [one] ID\n *[other] draft\n}\n"
            ),
            [("a".into(), "scan".into()), ("b".into(), "draft".into())]
        );
    }
}
