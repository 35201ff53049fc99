//! Links, quoted values and markup inside data texts (`{ja, en}` values of records).
//!
//! Pages report their own link, value and markup problems while rendering; data texts are
//! shared by every view, so they are checked once here, against the site's pages and
//! values, and located by finding the offending snippet in the record's file. A text
//! (inline markdown) may not link off the allowlist of [`crate::model::markup`] nor give a
//! heading attributes other than id and class; rendering drops those, this reports them.

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::model::Evidence;
use crate::model::Record;
use crate::model::located::Located;
use crate::model::markup;
use crate::model::refs::Kind;
use crate::model::strings;
use crate::model::values::{QuoteError, Values};
use pulldown_cmark::{Event, Options, Parser, Tag};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;

/// Where a record starts: its file and the line of its id.
struct Origin {
    file: String,
    line: usize,
}

/// Checks every string of every record.
pub fn check(ev: &Evidence, values: &Values, root: &Path, diags: &mut Diagnostics) {
    let pages_complete = !ev.incomplete.contains(&Kind::Page);
    let rules = super::terms::rules(ev, None);
    let rules = &rules;
    // Records are walked in parallel (a site with many probe runs has a million cases),
    // their findings reported in the registry's order of kinds, then the records'.
    let mut found: Vec<(Origin, Vec<Problem>)> = Vec::new();
    for kind in crate::model::registry::all() {
        // A run file is never rewritten, so a variant in it could never be mended there:
        // its wording is judged where it can change (a reading beside the run).
        let rules: &[super::terms::Rule] = if kind == Kind::Run { &[] } else { rules };
        crate::model::with_collection!(ev, kind, |c| {
            let records: Vec<_> = c.iter().collect();
            found.par_extend(
                records
                    .par_iter()
                    .filter_map(|r| judge(r, ev, values, pages_complete, rules)),
            );
        }, pages => {})
    }
    for (origin, problems) in found {
        // The file loaded a moment ago; read again only to place each finding on its line.
        // If it cannot be (it changed meanwhile), the findings stay at the record's line
        // and the reason is said.
        let source =
            match crate::load::read::read_text(&root.join(&origin.file), crate::load::read::SOURCE)
            {
                Ok(text) => text,
                Err(e) => {
                    diags.push(Diagnostic::error(
                        "unreadable",
                        Span::new(&origin.file, origin.line, 1),
                        format!("cannot read the file again to place its findings: {e}"),
                    ));
                    String::new()
                }
            };
        // From the file's start when it has fewer lines than the record's.
        let mut from = crate::diagnostics::line_start(&source, origin.line).unwrap_or(0);
        for (needle, code, msg, hint) in problems {
            let rest = &source[from.min(source.len())..];
            let at = if code == super::terms::CODE {
                // The variant with the words after it, shorter until found: the variant
                // alone may stand earlier in the record (its id, a code span).
                let mut ends: Vec<usize> = needle.char_indices().map(|(i, _)| i).skip(1).collect();
                ends.push(needle.len());
                ends.iter()
                    .rev()
                    .find_map(|&end| rest.find(&needle[..end]))
                    .map(|i| from + i)
            } else {
                rest.find(&needle).map(|i| from + i)
            };
            let span = match at {
                Some(i) => {
                    from = i + needle.len();
                    crate::diagnostics::span_at(&origin.file, &source, i, 1)
                }
                None => Span::new(&origin.file, origin.line, 1),
            };
            // A variant of a term is a warning: the site still says what it means.
            let d = if code == super::terms::CODE {
                Diagnostic::warning(code, span, msg)
            } else {
                Diagnostic::error(code, span, msg)
            };
            diags.push(d.with_hint(hint));
        }
    }
}

/// What one record's strings hold that is wrong, and where the record starts; `None`
/// when nothing is.
fn judge<T: Serialize + Record>(
    record: &Located<T>,
    ev: &Evidence,
    values: &Values,
    pages_complete: bool,
    rules: &[super::terms::Rule],
) -> Option<(Origin, Vec<Problem>)> {
    let mut problems = Vec::new();
    strings::each_in(&record.value, ev.languages(), &mut |s, lang| {
        problems.extend(text_problems(s, ev, values, pages_complete));
        if let Some(lang) = lang {
            problems.extend(markup_problems(s));
            problems.extend(super::terms::hits(s, lang, rules).into_iter().map(
                |(at, len, rule)| {
                    let written = &s[at..at + len];
                    (
                        needle(&s[at..]).chars().take(16).collect(),
                        super::terms::CODE,
                        super::terms::message(written, rule),
                        super::terms::HINT,
                    )
                },
            ));
        }
    });
    let origin = || Origin {
        file: record.file.to_string(),
        line: record.value.id().referenced.line() as usize,
    };
    (!problems.is_empty()).then(|| (origin(), problems))
}

type Problem = (String, &'static str, String, &'static str);

fn text_problems(s: &str, ev: &Evidence, values: &Values, pages_complete: bool) -> Vec<Problem> {
    let mut out = Vec::new();
    // Asked of every string of every record, most of them a word: byte searches, where
    // `str::contains` and `find` set up a substring searcher each time.
    let b = s.as_bytes();
    if memchr::memchr_iter(b'@', b).any(|i| b.get(i + 1) == Some(&b'/')) {
        for e in Parser::new(s) {
            if let Event::Start(Tag::Link { dest_url, .. }) = e
                && let Some((page, _)) = markup::internal_link(&dest_url)
                && pages_complete
                && ev.page(page).is_none()
            {
                out.push((
                    dest_url.to_string(),
                    "broken-link",
                    format!(
                        "link to unknown page `{dest_url}`{}",
                        crate::model::refs::did_you_mean(
                            page,
                            ev.pages.iter().map(|p| p.id.as_str())
                        )
                    ),
                    markup::PAGE_LINK_HINT,
                ));
            }
        }
    }
    if !markup::quotes_value(s) {
        return out;
    }
    let mut rest = s;
    while let Some(i) = rest.find(":v[") {
        let after = &rest[i + 3..];
        let Some(len) = after.find(']') else {
            out.push((
                ":v[".into(),
                "bad-value",
                "`:v[` is not closed with `]`".into(),
                "quote values as `:v[kind:id.field]`",
            ));
            break;
        };
        let path = &after[..len];
        if let Err(QuoteError::Bad(msg)) = values.quote(ev, path, ev.languages()[0]) {
            out.push((format!(":v[{path}]"), "bad-value", msg, markup::VALUE_HINT));
        }
        rest = &after[len + 1..];
    }
    out
}

/// Link targets off the allowlist and heading attributes other than id and class in one
/// language of a text. Each is found by the markdown that holds it.
fn markup_problems(s: &str) -> Vec<Problem> {
    // A scheme needs a `:` (literal, or an entity starting with `&`); attributes a `{`.
    if !s.contains([':', '&', '{']) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let opts = Options::ENABLE_HEADING_ATTRIBUTES | Options::ENABLE_FOOTNOTES;
    for (e, range) in Parser::new_ext(s, opts).into_offset_iter() {
        match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                if let Err(why) = markup::link_target(&dest_url) {
                    out.push((
                        needle(&s[range]),
                        "unsafe-url",
                        markup::refused_message(&dest_url, &why),
                        markup::LINK_HINT,
                    ));
                }
            }
            Event::Start(Tag::Heading { attrs, .. }) => {
                out.extend(attrs.iter().map(|(key, _)| {
                    (
                        key.to_string(),
                        "heading-attribute",
                        markup::attribute_message(key),
                        markup::ATTRIBUTE_HINT,
                    )
                }));
            }
            _ => {}
        }
    }
    out
}

/// The start of a markdown snippet as it is likely written in the YAML file: up to the
/// first character a quoted scalar would escape or a line break.
fn needle(snippet: &str) -> String {
    let end = snippet
        .find(['"', '\\', '\'', '\n'])
        .unwrap_or(snippet.len());
    snippet[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::page::Lang;

    /// A recorded value (a model's response) is not markdown and may hold anything; the
    /// languages of a text are.
    #[test]
    fn only_the_languages_of_a_text_are_markdown() {
        let record = serde_json::json!({
            "response": "[x](javascript:alert(1))",
            "versions": {"ja": "1", "en": "2", "de": "3"},
            "reading": {"ja": "注", "en": "note"},
        });
        let mut seen = Vec::new();
        strings::each(&record, Lang::DEFAULT, &mut |s, text| {
            seen.push((s.to_string(), text))
        });
        seen.sort();
        let text = |s: &str, t| (s.to_string(), t);
        assert_eq!(
            seen,
            [
                text("1", false),
                text("2", false),
                text("3", false),
                text("[x](javascript:alert(1))", false),
                text("note", true),
                text("注", true),
            ]
        );
    }

    #[test]
    fn markup_problems_are_found_by_their_snippet() {
        let found = |s: &str| -> Vec<(String, &str)> {
            markup_problems(s)
                .into_iter()
                .map(|(needle, code, ..)| (needle, code))
                .collect()
        };
        assert_eq!(
            found("see [x](&#106;avascript:alert(1) \"t\") and ![i](data:,x)"),
            [
                ("[x](&#106;avascript:alert(1) ".to_string(), "unsafe-url"),
                ("![i](data:,x)".to_string(), "unsafe-url"),
            ]
        );
        assert_eq!(
            found("### H {#h .c onfocus=x style=y}"),
            [
                ("onfocus".to_string(), "heading-attribute"),
                ("style".to_string(), "heading-attribute"),
            ]
        );
        for harmless in [
            "plain: text",
            "[a](https://example.org/?a=1&b=2) [m](mailto:a@example.org)",
            "### H {#h .c}",
            "[p](@/observers) [f](#top)",
        ] {
            assert_eq!(found(harmless), [], "{harmless}");
        }
    }
}
