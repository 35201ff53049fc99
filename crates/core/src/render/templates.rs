//! Tera setup: every theme template parsed once, autoescaping on, Fluent registered.

use crate::diagnostics::{Diagnostic, Span};
use crate::load::Theme;
use crate::load::messages::Messages;
use fluent_bundle::{FluentArgs, FluentValue};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use tera::Tera;
use unic_langid::LanguageIdentifier;

/// Parses the theme's templates. A template error is reported at its file.
pub fn load(theme: &Theme, messages: Arc<Messages>) -> Result<Tera, Diagnostic> {
    let mut tera = Tera::new();
    tera.autoescape_on(vec![".html", ".xml"]);
    // Functions must be known before templates are parsed.
    tera.register_function("fluent", fluent_templates::FluentLoader::new(messages));
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

/// Templates look messages up through this (`fluent(key="…", lang="…")`).
impl fluent_templates::Loader for Messages {
    fn lookup_complete(
        &self,
        lang: &LanguageIdentifier,
        text_id: &str,
        args: Option<&HashMap<Cow<'static, str>, FluentValue>>,
    ) -> String {
        let l = self.lang_of(lang);
        let fargs = args.map(|a| {
            let mut f = FluentArgs::new();
            for (k, v) in a {
                f.set(k.clone(), v.clone());
            }
            f
        });
        self.format(l, text_id, fargs.as_ref())
    }

    fn try_lookup_complete(
        &self,
        lang: &LanguageIdentifier,
        text_id: &str,
        args: Option<&HashMap<Cow<'static, str>, FluentValue>>,
    ) -> Option<String> {
        let l = self.lang_of(lang);
        self.has(l, text_id)
            .then(|| self.lookup_complete(lang, text_id, args))
    }

    fn locales(&self) -> Box<dyn Iterator<Item = &LanguageIdentifier> + '_> {
        Box::new(self.languages())
    }
}
