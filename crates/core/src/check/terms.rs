//! One term, one spelling: a glossary entry may say, per language, how the site writes
//! the term and which variants it avoids (`spelling:`); a page block or a data text that
//! writes a variant is warned about at its line and column, with the spelling to use.
//! Code spans, code blocks, links' addresses, quoted values (`:v[…]`) and plain values
//! (ids, names) are never judged: a name is written as it is.

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::model::page::{Item, Lang, PageSource};
use crate::model::{Evidence, span_of};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// One variant to avoid, in one language, and the spelling to write instead.
#[derive(Debug, Clone)]
pub struct Rule {
    pub lang: Lang,
    /// The variant as listed, lower-cased where it is ASCII (matching ignores ASCII case).
    variant: String,
    pub preferred: String,
    /// The glossary entry that declares it.
    pub term: String,
}

/// The diagnostic code of a variant written.
pub const CODE: &str = "terminology";

/// The hint every terminology warning carries.
pub const HINT: &str = "the glossary entry's `spelling:` names the variants this site avoids; \
    a name or an id written as code (`…`) is not judged";

/// The rules the glossary declares; a spelling for a language the site does not have, an
/// empty variant or a variant equal to the spelling used is an error at the entry.
pub fn rules(ev: &Evidence, diags: Option<&mut Diagnostics>) -> Vec<Rule> {
    let mut problems = Vec::new();
    let mut out = Vec::new();
    for t in ev.terms.iter() {
        for (tag, spelling) in &t.spelling {
            let Some(lang) = site_lang(ev, tag) else {
                problems.push(entry_error(
                    t,
                    format!(
                        "gives a spelling for `{tag}`, which is not one of the site's languages"
                    ),
                ));
                continue;
            };
            let preferred = spelling
                .preferred
                .clone()
                .unwrap_or_else(|| lang.pick(&t.term).to_string());
            for variant in &spelling.avoid {
                if variant.trim().is_empty() || variant == &preferred {
                    problems.push(entry_error(
                        t,
                        format!("lists `{variant}` to avoid in `{tag}`, but it is empty or the spelling used"),
                    ));
                    continue;
                }
                out.push(Rule {
                    lang,
                    variant: variant.to_ascii_lowercase(),
                    preferred: preferred.clone(),
                    term: t.id.value.clone(),
                });
            }
        }
    }
    if let Some(d) = diags {
        for p in problems {
            d.push(p);
        }
    }
    out
}

/// An error at glossary entry `t`: "term `id` " and what is wrong with its spelling.
fn entry_error(t: &crate::model::Located<crate::model::types::Term>, what: String) -> Diagnostic {
    Diagnostic::error(
        CODE,
        span_of(&t.file, &t.id),
        format!("term `{}` {what}", t.id.value),
    )
}

/// The site language a spelling's key names (canonically: `de-ch` is `de-CH`).
fn site_lang(ev: &Evidence, tag: &str) -> Option<Lang> {
    let parsed = Lang::parse(tag).ok();
    ev.languages()
        .iter()
        .copied()
        .find(|l| l.code() == tag || Some(*l) == parsed)
}

/// The warning of one variant written at `span`.
pub fn warning(span: Span, written: &str, rule: &Rule) -> Diagnostic {
    Diagnostic::warning(CODE, span, message(written, rule)).with_hint(HINT)
}

/// What a terminology warning says.
pub fn message(written: &str, rule: &Rule) -> String {
    format!(
        "`{written}` is written `{}` on this site (glossary term `{}`)",
        rule.preferred, rule.term
    )
}

/// Warns where a page's blocks write a variant.
pub fn page(ev: &Evidence, page: &PageSource, diags: &mut Diagnostics) {
    if page.generated || ev.terms.iter().all(|t| t.spelling.is_empty()) {
        return;
    }
    let rules = rules(ev, None);
    for item in &page.items {
        let Item::Block(b) = item else { continue };
        for (at, len, rule) in hits(&b.markdown, b.lang, &rules) {
            let before = &b.markdown[..at];
            let line = before.matches('\n').count();
            let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
                .chars()
                .count()
                + 1;
            let span = Span::new(&page.file, b.body_line + line, column);
            diags.push(warning(span, &b.markdown[at..at + len], rule));
        }
    }
}

/// The variants `md` (markdown in `lang`) writes outside code, link addresses and quoted
/// values: each as its byte offset, its length and the rule it breaks, in order.
pub fn hits<'r>(md: &str, lang: Lang, rules: &'r [Rule]) -> Vec<(usize, usize, &'r Rule)> {
    let lower = md.to_ascii_lowercase();
    let mine: Vec<&Rule> = rules
        .iter()
        .filter(|r| r.lang == lang && lower.contains(&r.variant))
        .collect();
    if mine.is_empty() {
        return Vec::new();
    }
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let quoted = quoted_spans(md);
    let mut out = Vec::new();
    let mut in_code = 0usize;
    for (event, range) in Parser::new_ext(md, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            Event::Text(_) if in_code == 0 => {
                for (from, to) in prose_spans(&quoted, range.start, range.end) {
                    for rule in &mine {
                        out.extend(
                            find_in(&md[from..to], &lower[from..to], rule)
                                .map(|i| (from + i, rule.variant.len(), *rule)),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|(at, _, _)| *at);
    out.dedup_by_key(|(at, _, _)| *at);
    out
}

/// The byte ranges of `md`'s quoted values (`:v[…]`, ids the renderer replaces).
fn quoted_spans(md: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = md[from..].find(":v[") {
        let start = from + i;
        let end = md[start..].find(']').map_or(md.len(), |j| start + j + 1);
        out.push((start, end));
        from = end;
    }
    out
}

/// The parts of `start..end` outside the `quoted` ranges (sorted), as byte ranges.
fn prose_spans(quoted: &[(usize, usize)], start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = start;
    for &(a, b) in quoted.iter().filter(|&&(a, b)| b > start && a < end) {
        if a > from {
            out.push((from, a));
        }
        from = from.max(b);
    }
    if from < end {
        out.push((from, end));
    }
    out
}

/// Where `text` writes `rule`'s variant (found in `lower`, its ASCII-lower-cased copy) as
/// a word of its own: an ASCII end may not touch a letter, digit or `_`; and not inside
/// the spelling the site uses.
fn find_in<'a>(text: &'a str, lower: &'a str, rule: &'a Rule) -> impl Iterator<Item = usize> + 'a {
    let preferred = rule.preferred.to_ascii_lowercase();
    let inside_preferred: Vec<(usize, usize)> = if preferred.contains(&rule.variant) {
        lower
            .match_indices(&preferred)
            .map(|(i, p)| (i, i + p.len()))
            .collect()
    } else {
        Vec::new()
    };
    lower
        .match_indices(rule.variant.as_str())
        .map(|(i, _)| i)
        .filter(move |&i| {
            let end = i + rule.variant.len();
            let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let starts_ascii = rule
                .variant
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric());
            let ends_ascii = rule
                .variant
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric());
            let before_ok = !starts_ascii || !text[..i].chars().next_back().is_some_and(word);
            let after_ok = !ends_ascii || !text[end..].chars().next().is_some_and(word);
            before_ok && after_ok && !inside_preferred.iter().any(|&(a, b)| a <= i && end <= b)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(variant: &str) -> Rule {
        Rule {
            lang: Lang::EN,
            variant: variant.into(),
            preferred: "sequential scan".into(),
            term: "seq-scan".into(),
        }
    }

    /// A footnote's label names the note, like a link address: the variant written there
    /// is no prose, while the note's own text is (the parser knows footnotes, tables and
    /// strikethrough, so their markup is not taken for text).
    #[test]
    fn a_footnote_label_is_no_prose_but_its_note_is() {
        let rules = [rule("seqscan")];
        let md = "A scan.[^seqscan]\n\n[^seqscan]: The seqscan path.\n";
        let at: Vec<usize> = hits(md, Lang::EN, &rules).iter().map(|h| h.0).collect();
        assert_eq!(at, [md.find("seqscan path").unwrap()]);
    }
}
