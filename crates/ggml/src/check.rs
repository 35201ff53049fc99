//! The pack's rules: hand records that the latest binary probe runs disagree with.

use super::derive::{fatbin_has, maps_has};
use crate::model::TargetStatus;
use evidence_core::derive::Derived;
use evidence_core::diagnostics::{Diagnostic, Diagnostics};
use evidence_core::model::{Evidence, span_of};

/// Hand-recorded facts the latest binary probe runs disagree with: warnings, since a run's
/// library or process may be another build than the one the record describes.
pub fn check(ev: &Evidence, derived: &Derived, diags: &mut Diagnostics) {
    if let Some(run) = derived.latest(ev, "fatbin") {
        let input = run.input.as_ref().map(|i| i.name.as_str()).unwrap_or("?");
        for g in crate::model::generations(ev).iter() {
            let Some(found) = fatbin_has(run, &g.gfx) else {
                continue;
            };
            let recorded = match g.fatbin_targets {
                TargetStatus::Found => true,
                TargetStatus::NotFound => false,
                TargetStatus::NotScanned => continue,
            };
            if recorded != found {
                diags.push(
                    Diagnostic::warning(
                        "run-disagrees",
                        span_of(&g.file, &g.id),
                        format!(
                            "generation `{}` records fatbin target `{}` as `{}`, but the latest fatbin run `{}` (file `{input}`) {} it",
                            g.id.value,
                            g.gfx,
                            if recorded { "found" } else { "not_found" },
                            run.id.value,
                            if found { "found" } else { "did not find" },
                        ),
                    )
                    .with_hint(
                        "the run's library may be a different build from the one recorded; \
                         probe the recorded build, or keep the record and note the difference",
                    ),
                );
            }
        }
    }
    if let Some(run) = derived.latest(ev, "maps") {
        for c in ev.components.iter() {
            let Some(seen) = maps_has(run, &c.files) else {
                continue;
            };
            if !seen {
                diags.push(
                    Diagnostic::warning(
                        "run-disagrees",
                        span_of(&c.file, &c.id),
                        format!(
                            "component `{}` is recorded as `{}`, but the latest maps run `{}` did not see {} mapped",
                            c.id.value,
                            c.status.value,
                            run.id.value,
                            c.files.join(", ")
                        ),
                    )
                    .with_hint(
                        "the process may run a different build or not use this component; \
                         a warning, not an error",
                    ),
                );
            }
        }
    }
}
