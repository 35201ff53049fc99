//! Tera setup: every theme template parsed once, autoescaping on, Fluent registered.

use crate::diagnostics::{Diagnostic, Span};
use crate::load::Theme;
use crate::load::messages::Messages;
use fluent_bundle::{FluentArgs, FluentValue};
use std::sync::Arc;
use tera::Tera;
use unic_langid::LanguageIdentifier;

/// Parses the theme's templates. A template error is reported at its file.
pub fn load(theme: &Theme, messages: Arc<Messages>) -> Result<Tera, Diagnostic> {
    let mut tera = Tera::new();
    tera.autoescape_on(vec![".html", ".xml"]);
    // Functions must be known before templates are parsed.
    tera.register_function("fluent", Fluent(messages));
    let templates: Vec<(String, String)> = theme
        .under("templates/")
        .map(|(name, f)| (name.to_string(), f.text()))
        .collect();
    if let Err(e) = tera.add_raw_templates(templates.iter().map(|(n, t)| (n.as_str(), t.as_str())))
    {
        return Err(located(theme, &e));
    }
    Ok(tera)
}

/// A Tera error with its causes on one line.
pub fn flatten(e: &tera::Error) -> String {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

/// A template error at the file, line and column Tera names (`--> page.html:3:7`).
fn located(theme: &Theme, e: &tera::Error) -> Diagnostic {
    let msg = flatten(e);
    let at = msg.split("--> ").nth(1).and_then(|rest| {
        let loc = rest.split_whitespace().next()?;
        let mut parts = loc.rsplitn(3, ':');
        let col = parts.next()?.parse::<usize>().ok()?;
        let line = parts.next()?.parse::<usize>().ok()?;
        Some((parts.next()?.to_string(), line, col))
    });
    let origin = |name: &str| {
        theme
            .files
            .get(&format!("templates/{name}"))
            .map(|f| f.origin.clone())
            .unwrap_or_else(|| format!("templates/{name}"))
    };
    let first_line = msg
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string();
    match at {
        Some((name, line, col)) => Diagnostic::error(
            "template",
            Span::new(origin(&name), line, col),
            format!("template error: {first_line}"),
        ),
        None => Diagnostic::error(
            "template",
            Span::file("templates"),
            format!("template error: {msg}"),
        ),
    }
}

/// The templates' `fluent(key="…", lang="…")`: the message `key` in the language `lang`.
/// Any other argument is handed to the message as a Fluent variable, `_` written `-`
/// (`fluent(key="runs", lang=l, run_count=3)` gives `$run-count` 3).
struct Fluent(Arc<Messages>);

impl tera::Function<tera::TeraResult<tera::Value>> for Fluent {
    fn call(&self, kwargs: tera::Kwargs, _: &tera::State) -> tera::TeraResult<tera::Value> {
        let key = kwargs.must_get::<&str>("key")?;
        let tag = kwargs.must_get::<&str>("lang")?;
        let lang: LanguageIdentifier = tag.parse().map_err(|_| {
            tera::Error::message(format!("fluent: `lang` is no language tag: {tag:?}"))
        })?;
        let mut args = FluentArgs::new();
        for (name, value) in kwargs.iter() {
            let Some(name) = name.as_str() else { continue };
            if matches!(name, "key" | "lang" | "__tera_one_off") {
                continue;
            }
            let value = if let Some(n) = value.as_f64() {
                FluentValue::from(n)
            } else if let Some(s) = value.as_str() {
                FluentValue::from(s.to_string())
            } else {
                return Err(tera::Error::message(format!(
                    "fluent: `{name}` is neither a number nor a text"
                )));
            };
            args.set(name.replace('_', "-"), value);
        }
        let l = self.0.lang_of(&lang);
        Ok(tera::Value::from(self.0.format(l, key, Some(&args))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::theme::ThemeFile;
    use crate::model::lang::Lang;
    use std::collections::BTreeMap;

    /// A theme whose only file is an English message file holding `ftl`.
    fn messages(ftl: &str) -> Arc<Messages> {
        let file = ThemeFile {
            origin: "locales/en/t.ftl".into(),
            bytes: ftl.as_bytes().to_vec(),
        };
        let theme = Theme {
            files: BTreeMap::from([("locales/en/t.ftl".to_string(), file)]),
        };
        let en = Lang::parse("en").expect("a tag");
        Arc::new(Messages::load(&theme, &[en]))
    }

    fn render(ftl: &str, template: &str) -> tera::TeraResult<String> {
        let mut tera = Tera::new();
        tera.register_function("fluent", Fluent(messages(ftl)));
        tera.render_str(template, &tera::Context::new(), false)
    }

    /// A template's `fluent()` gives the message in its language, with any other
    /// argument as a Fluent variable (`_` written `-`), numbers as numbers.
    #[test]
    fn fluent_gives_the_message_with_its_arguments() {
        let ftl = "hello = Hello\nruns = { $run-count } runs of { $name }\n";
        let got = render(ftl, r#"{{ fluent(key="hello", lang="en") }}"#);
        assert_eq!(got.ok().as_deref(), Some("Hello"));
        let got = render(
            ftl,
            r#"{{ fluent(key="runs", lang="en", run_count=3, name="p") }}"#,
        );
        assert_eq!(got.ok().as_deref(), Some("3 runs of p"));
    }

    /// A missing `lang`, a `lang` that is no tag, or an argument of another type is a
    /// template error, not a silent message.
    #[test]
    fn fluent_refuses_what_it_cannot_use() {
        let ftl = "hello = Hello\n";
        for bad in [
            r#"{{ fluent(key="hello") }}"#,
            r#"{{ fluent(key="hello", lang="no tag at all") }}"#,
            r#"{{ fluent(key="hello", lang="en", x=[1]) }}"#,
        ] {
            assert!(render(ftl, bad).is_err(), "{bad}");
        }
    }
}
