//! Runs against what their subject declares (`is:` in `data/subjects.yaml`).
//!
//! A run that names no subject (and that no subject lists) counts as evidence of the
//! site's own subject. When it recorded, under a key that subject declares, another value
//! than the declared one (another engine, another host), it was taken of something else:
//! an error at that value, until the run's subject is said — by `--subject` when the run
//! is recorded, or in the `runs:` of a subject — or the declaration is corrected. A run
//! that names its subject is taken at its word.

use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::model::id::Pos;
use crate::model::types::{RecordedValue, Run, Subject};
use crate::model::{Evidence, span_of};
use serde::de::IgnoredAny;
use std::collections::BTreeMap;
use std::path::Path;

/// The rule's code; `evidence probe` shows its findings on the run it wrote as warnings.
pub const CODE: &str = "subject-mismatch";

/// Holds every run that counts as the site's own subject without naming it to what that
/// subject declares.
pub fn check(ev: &Evidence, root: &Path, diags: &mut Diagnostics) {
    let own = ev.config.as_ref().and_then(|c| c.subject.as_ref());
    let Some(subject) = own.and_then(|o| ev.subjects.get(&o.value)) else {
        return;
    };
    if subject.is.is_empty() {
        return;
    }
    for run in ev.runs.iter() {
        if ev.subject_of(run).is_some() {
            continue;
        }
        let found = contradictions(subject, run);
        if found.is_empty() {
            continue;
        }
        let places = Places::read(root, &run.file);
        for (declared, recorded) in found {
            let span = places
                .span(&run.file, &recorded)
                .unwrap_or_else(|| span_of(&run.file, &run.id));
            diags.push(mismatch(run, subject, declared, &recorded, span));
        }
    }
}

/// The keys `subject` declares whose value `run` recorded otherwise: each declared
/// `(key, value)` with what the run recorded.
fn contradictions<'s>(subject: &'s Subject, run: &Run) -> Vec<((&'s str, &'s str), RecordedValue)> {
    subject
        .is
        .iter()
        .filter_map(|(key, want)| {
            let got = run.recorded_value(key)?;
            (got.value != *want).then_some(((key.as_str(), want.as_str()), got))
        })
        .collect()
}

/// The error for one contradicted key.
fn mismatch(
    run: &Run,
    subject: &Subject,
    (key, declared): (&str, &str),
    recorded: &RecordedValue,
    span: Span,
) -> Diagnostic {
    let written = match recorded.section {
        Some(section) => format!("{section}.{}", recorded.name),
        None => recorded.name.clone(),
    };
    Diagnostic::error(
        CODE,
        span,
        format!(
            "run `{}` names no subject, so it counts as the site's own, `{}`, which declares \
             `{key}: {declared}`; the run recorded `{written}: {}`",
            run.id.value, subject.id.value, recorded.value
        ),
    )
    .with_hint(format!(
        "a run of something else is a comparison: record it with `--subject ID` (a subject of \
         data/subjects.yaml), or list `{}` under that subject's `runs:`; if `{}` itself \
         changed, correct its `is:`",
        run.id.value, subject.id.value
    ))
}

/// Where a run file writes its values: the run's own fields, and the keys of each of its
/// sections.
#[derive(Default)]
struct Places {
    top: BTreeMap<String, At>,
    sections: Sections,
}

/// Where a value of any kind is written (its line and column), and nothing of it.
#[derive(Debug, PartialEq)]
struct At(Pos);

impl<'de> serde::Deserialize<'de> for At {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<At, D::Error> {
        let s = serde_saphyr::Spanned::<IgnoredAny>::deserialize(d)?;
        Ok(At(Pos::new(s.referenced.line(), s.referenced.column())))
    }
}

/// The named values of a run's sections, with their places.
#[derive(Debug, Default, serde::Deserialize)]
struct Sections {
    #[serde(default)]
    environment: BTreeMap<String, At>,
    #[serde(default)]
    conditions: BTreeMap<String, At>,
    #[serde(default)]
    versions: BTreeMap<String, At>,
}

impl Places {
    /// The places in run file `file` of the site at `root`; none when it cannot be read
    /// again (the run's id then places its errors).
    fn read(root: &Path, file: &str) -> Places {
        let Ok(text) = crate::load::read::read_text(&root.join(file), crate::load::read::SOURCE)
        else {
            return Places::default();
        };
        Places {
            top: crate::load::yaml::parse(file, &text, 0).unwrap_or_default(),
            sections: crate::load::yaml::parse(file, &text, 0).unwrap_or_default(),
        }
    }

    /// The span of `value` in `file`, when its place is known.
    fn span(&self, file: &str, value: &RecordedValue) -> Option<Span> {
        let at = match value.section {
            None => self.top.get(&value.name),
            Some(section) => match section {
                "environment" => &self.sections.environment,
                "conditions" => &self.sections.conditions,
                _ => &self.sections.versions,
            }
            .get(&value.name),
        }?;
        Some(Span::new(
            file,
            at.0.line() as usize,
            at.0.column() as usize,
        ))
    }
}
