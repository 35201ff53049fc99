//! The words of the site's vocabulary (`data/vocabulary.yaml`) as tables show them: a
//! component status as a badge coloured by how far it saw, an engine or a measurement by
//! its label. A word the vocabulary lacks (already an error in `check`) shows as code.

use super::code;
use crate::model::Seen;
use crate::model::numerals::Numerals;
use crate::model::types::NO_ENGINE;
use crate::model::types::Text;
use crate::render::html::Html;
use crate::render::scope::Scope;

/// A component status as a badge, classed `seen-loaded`, `seen-binary` or `seen-absent`
/// by the step its status declares (unclassed without one).
pub fn status_badge(s: &Scope, id: &str) -> Html {
    let (class, label) = match s.ev.statuses.get(id) {
        Some(st) => (
            match st.seen {
                Some(Seen::Loaded) => "seen-loaded",
                Some(Seen::Binary) => "seen-binary",
                Some(Seen::Absent) => "seen-absent",
                None => "",
            },
            s.fluent(&st.label),
        ),
        None => ("", code(id)),
    };
    super::records::badge(class, label)
}

/// An engine by its label (`none`, a run that read a file, by the theme's message).
pub fn engine(s: &Scope, id: &str) -> Html {
    match s.ev.engines.get(id) {
        Some(e) => s.fluent(&e.label),
        None if id == NO_ENGINE => s.ui("engine-none"),
        None => code(id),
    }
}

/// A measurement by its label, with its unit in parentheses: the site's vocabulary's, else
/// the label the pack that declares it gives; its name as code when neither does.
pub fn measurement(s: &Scope, name: &str) -> Html {
    match measurement_text(s, name) {
        Some(t) => s.fluent(&t),
        None => code(name),
    }
}

/// The column head of the text `name`: its label in the site's vocabulary, or the name.
pub fn text_field(s: &Scope, name: &str) -> Html {
    match s.ev.texts.get(name) {
        Some(t) => s.fluent(&t.label),
        None => code(name),
    }
}

/// The texts `cases` record, in the order the vocabulary declares them (then by name).
pub fn text_columns<'c>(s: &Scope, cases: &'c [crate::model::types::Case]) -> Vec<&'c str> {
    let mut names: Vec<&str> = cases.iter().flat_map(|c| c.text_names()).collect();
    names.sort_unstable();
    names.dedup();
    names.sort_by_key(|n| s.ev.texts.iter().position(|t| t.id.value == *n));
    names
}

/// A measurement's label in each language, as [`measurement`] shows it; `None` when
/// neither the site nor a pack labels it.
pub fn measurement_text(s: &Scope, name: &str) -> Option<Text> {
    match s.ev.measurements.get(name) {
        Some(m) => Some(m.labelled()),
        None => {
            s.ev.pack_measurement(name)
                .filter(|f| !f.label.is_empty())
                .map(|f| s.msgs.text(f.label))
        }
    }
}

/// A column of measurements in a run table: its header and the measurements it shows
/// (one, or a pack's group, such as its durations, shown together).
pub struct MeasureColumn {
    pub label: Html,
    pub names: Vec<&'static str>,
}

/// The measurements `names` in the order they are shown ([`Evidence::measurement_rank`]),
/// as columns.
///
/// [`Evidence::measurement_rank`]: crate::model::Evidence::measurement_rank
pub fn measure_columns(
    s: &Scope,
    all: impl IntoIterator<Item = &'static str>,
) -> Vec<MeasureColumn> {
    // Every case of a run names its measurements, a few distinct ones: each kept once,
    // then ranked.
    let mut names: Vec<&'static str> = Vec::new();
    for n in all {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names.sort_by_cached_key(|n| (s.ev.measurement_rank(n), *n));
    let mut groups: Vec<Vec<&'static str>> = Vec::new();
    let mut group = "";
    for n in names {
        let g = s.ev.pack_measurement(n).map_or("", |f| f.group);
        match groups.last_mut() {
            Some(members) if !g.is_empty() && g == group => members.push(n),
            _ => groups.push(vec![n]),
        }
        group = g;
    }
    groups
        .into_iter()
        .map(|names| MeasureColumn {
            label: match names.as_slice() {
                [one] => measurement(s, one),
                // The labels of the group's members, in each language: `load / eval`.
                _ => {
                    let texts: Vec<Text> = names
                        .iter()
                        .map(|n| measurement_text(s, n).unwrap_or_else(|| Text::untranslated(*n)))
                        .collect();
                    s.fluent(&Text::from_fn(s.view.langs(), |l| {
                        texts
                            .iter()
                            .map(|t| t.get(l))
                            .collect::<Vec<_>>()
                            .join(" / ")
                    }))
                }
            },
            names,
        })
        .collect()
}

/// Writes a measurement's value: a duration (`…_ns`) in seconds, a whole number with its
/// digits grouped, any other number as written.
pub fn write_measure(out: &mut String, nums: &Numerals, name: &str, v: f64) {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    let whole = v.fract() == 0.0 && (0.0..EXACT).contains(&v);
    if whole && crate::model::fields::is_duration(name) {
        nums.write_seconds(out, v as u64);
    } else if whole {
        nums.write_digits(out, v as u64);
    } else {
        nums.write_number(out, v);
    }
}

/// A measurement's value as [`write_measure`] writes it.
pub fn measure_text(nums: &Numerals, name: &str, v: f64) -> String {
    let mut out = String::new();
    write_measure(&mut out, nums, name, v);
    out
}
