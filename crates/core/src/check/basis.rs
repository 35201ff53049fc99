//! What a statement rests on: every record marked `basis: source` names a source a reader
//! can follow (a link), and every source address a record gives passes the link allowlist.
//!
//! A prose block's basis is written on its fence and judged where the page is parsed
//! (`load::page`), so that a block's problems stay with the block.

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::model::markup;
use crate::model::types::{Basis, Source};
use crate::model::{Evidence, Id, span_of};

/// Judges the basis of every record kind that carries one.
pub fn check(ev: &Evidence, diags: &mut Diagnostics) {
    for f in ev.findings.iter() {
        judge(&f.file, &f.id, f.basis, Some(&f.source), diags);
    }
    for t in ev.terms.iter() {
        judge(&t.file, &t.id, t.basis, t.source.as_ref(), diags);
    }
    for c in ev.claims.iter() {
        judge(&c.file, &c.id, c.basis, c.source.as_ref(), diags);
    }
    for m in ev.maps.iter() {
        judge(&m.file, &m.id, m.basis, Some(&m.source), diags);
    }
    for r in ev.readings.iter() {
        judge(&r.file, &r.id, r.basis, r.source.as_ref(), diags);
    }
    for p in ev.phases.iter() {
        for fact in &p.fixed {
            judge(&p.file, &p.id, fact.basis, fact.source.as_ref(), diags);
        }
    }
}

/// One statement: a `source` basis needs a link; a source's `url` must be one a page may
/// link to.
fn judge(
    file: &str,
    id: &Id,
    basis: Option<Basis>,
    source: Option<&Source>,
    diags: &mut Diagnostics,
) {
    if let Some(url) = source.and_then(|s| s.url.as_deref())
        && let Err(why) = markup::link_target(url)
    {
        diags.push(
            Diagnostic::error(
                "unsafe-url",
                span_of(file, id),
                markup::refused_message(url, &why),
            )
            .with_hint(markup::LINK_HINT),
        );
    }
    if basis == Some(Basis::Source) && source.and_then(Source::link).is_none() {
        diags.push(
            Diagnostic::error(
                "basis-source",
                span_of(file, id),
                format!(
                    "`{}` is marked `basis: source` but names no source a reader can follow",
                    id.value
                ),
            )
            .with_hint(
                "give `source:` a `url:`, a GitHub `repository: owner/name` with `revision:`, \
                 or `prs: [owner/name#123]`; or mark it `observed` or `inferred`",
            ),
        );
    }
}
