//! Tera setup: every theme template parsed once, autoescaping on, Fluent registered.

use super::i18n::Messages;
use crate::diagnostics::{Diagnostic, Span};
use crate::load::Theme;
use std::sync::Arc;
use tera::Tera;

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
        let file = templates
            .iter()
            .map(|(n, _)| n)
            .find(|n| e.to_string().contains(n.as_str()))
            .and_then(|n| theme.files.get(&format!("templates/{n}")))
            .map(|f| f.origin.clone())
            .unwrap_or_else(|| "templates".into());
        return Err(Diagnostic::error(
            "template",
            Span::file(file),
            format!("template error: {}", flatten(&e)),
        ));
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
