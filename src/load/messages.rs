//! Fluent messages: UI strings and every enum label, one bundle per language.
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
    id: LanguageIdentifier,
    bundle: FluentBundle<FluentResource>,
    /// Message id → (file, line), for parity errors.
    keys: BTreeMap<String, (String, usize)>,
}

/// Fluent bundles for ja and en.
pub struct Messages {
    bundles: Vec<LangBundle>,
    /// Every message defined in both languages, formatted without arguments once: a
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
    /// Builds bundles from `locales/<lang>/*.ftl` of the theme.
    pub fn load(theme: &Theme) -> Messages {
        let mut load_errors = Vec::new();
        let mut bundles = Vec::new();
        for lang in Lang::ALL {
            let id: LanguageIdentifier = match lang {
                Lang::Ja => unic_langid::langid!("ja"),
                Lang::En => unic_langid::langid!("en"),
            };
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
            bundles.push(LangBundle { id, bundle, keys });
        }
        let mut messages = Messages {
            bundles,
            plain: Default::default(),
            missing: Mutex::new(BTreeSet::new()),
            load_errors,
        };
        messages.plain = messages
            .bundle(Lang::Ja)
            .keys
            .keys()
            .filter(|k| messages.bundle(Lang::En).keys.contains_key(*k))
            .map(|k| (k.clone(), messages.text(k)))
            .collect();
        messages
    }

    /// The language ids of the bundles, Japanese first.
    pub fn languages(&self) -> impl Iterator<Item = &LanguageIdentifier> {
        self.bundles.iter().map(|b| &b.id)
    }

    /// Whether `key` is defined in `lang`.
    pub fn has(&self, lang: Lang, key: &str) -> bool {
        self.bundle(lang).bundle.has_message(key)
    }

    fn bundle(&self, lang: Lang) -> &LangBundle {
        let i = match lang {
            Lang::Ja => 0,
            Lang::En => 1,
        };
        &self.bundles[i]
    }

    /// The message `key` in `lang`, formatted with `args`. A missing key is recorded and
    /// the key itself is returned, so rendering can go on and `check` reports it.
    pub fn format(&self, lang: Lang, key: &str, args: Option<&FluentArgs>) -> String {
        let b = self.bundle(lang);
        let Some(pattern) = b.bundle.get_message(key).and_then(|m| m.value()) else {
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

    /// A message in both languages.
    pub fn text(&self, key: &str) -> Text {
        if let Some(t) = self.plain.get(key) {
            return t.clone();
        }
        Text {
            ja: self.format(Lang::Ja, key, None),
            en: self.format(Lang::En, key, None),
        }
    }

    /// A message with one numeric or string argument, in both languages.
    pub fn text_with(
        &self,
        key: &str,
        name: &'static str,
        value: impl Into<FluentValue<'static>> + Clone,
    ) -> Text {
        let mut args = FluentArgs::new();
        args.set(name, value.into());
        Text {
            ja: self.format(Lang::Ja, key, Some(&args)),
            en: self.format(Lang::En, key, Some(&args)),
        }
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
            // A key defined in the other language is reported once, by `check`, as a
            // missing translation.
            .filter(|(lang, key)| !self.bundle(lang.other()).keys.contains_key(key))
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

    /// Parse errors, and keys defined in one language but not the other.
    pub fn check(&self, diags: &mut Diagnostics) {
        diags.extend(self.load_errors.iter().cloned());
        for lang in Lang::ALL {
            let here = self.bundle(lang);
            let there = self.bundle(lang.other());
            for (key, (file, line)) in &here.keys {
                if !there.keys.contains_key(key) {
                    // Point at the file that lacks the message: that is where it must go.
                    let target = format!("locales/{}/evidence.ftl", lang.other().code());
                    diags.push(
                        Diagnostic::error(
                            "missing-translation",
                            Span::file(&target),
                            format!("message `{key}` has no {} translation", lang.other().code()),
                        )
                        .with_hint(format!(
                            "add `{key} = …` to {target}; the {} text is at {file}:{line}",
                            lang.code()
                        )),
                    );
                }
            }
        }
    }
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
