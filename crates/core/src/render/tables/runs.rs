//! Probe runs: one run's cases with derived zones and its environment, the latest run of a
//! probe with a comparison against the previous run, and the index of every run.
//!
//! Cases of two runs are matched by case key, summarized over repetitions once per build
//! in [`crate::derive::matching`]. Nothing here is stored; deltas and zones are computed on
//! every build.

use super::vocabulary::{MeasureColumn, measure_columns, measure_text, measurement, write_measure};
use super::{anchor, code, source_line, unknown};
use crate::derive::{Summary, case_key, zone};
use crate::model::fields::Measurements;
use crate::model::numerals::Numerals;
use crate::model::refs::Kind;
use crate::model::types::RunText;
use crate::model::{Case, DispatchMap, Run};
use crate::render::html::html;
use crate::render::html::{Holed, Html};
use crate::render::scope::Scope;
use crate::render::table::{Row, Table};

fn date(s: &Scope, r: &Run) -> Html {
    match &r.date {
        Some(d) => html!(
            "<time datetime=\"{}\">{}</time>",
            Html::text(&d.value),
            Html::text(&d.value)
        ),
        None => unknown(s),
    }
}

/// A fragment a run table repeats from row to row, each view in its own words: the rows
/// leave a hole for it ([`Holed`]), which each view fills.
#[derive(Hash, PartialEq, Eq, Clone)]
enum Frag<'k> {
    Unknown,
    DeltaNew,
    Badge(&'k str),
    /// The label of a measurement.
    Label(&'static str),
    /// Map id, zone, whether the run was assessed against the map.
    Zone(&'k str, &'k str, bool),
    /// The keys of a case's mode and of the mark a pack shows under it.
    Mode(Option<&'static str>, Option<&'static str>),
    /// The reading of the run's case at this position (one per case).
    Reading(usize),
}

/// A run table's rows with holes for what each view words its own way.
type Rows<'e> = Holed<Frag<'e>>;

/// What `key` stands for in the view of `s`.
fn fragment(s: &Scope, run: &Run, key: &Frag) -> Html {
    match *key {
        Frag::Unknown => unknown(s),
        Frag::DeltaNew => html!(
            "<span class=\"delta new\">{}</span>",
            s.ui("runs-delta-new")
        ),
        Frag::Badge(family) => family_badge(s, family),
        Frag::Label(name) => measurement(s, name),
        Frag::Zone(map, z, assessed) => {
            // The assessed map is named in words as well as outlined: an outline alone is
            // lost to a screen reader and to forced colours.
            let (class, label) = if assessed {
                (
                    Html::trusted_static(" assessed"),
                    html!(
                        " <small class=\"assessed-label\">({})</small>",
                        s.ui("zone-assessed")
                    ),
                )
            } else {
                (Html::default(), Html::default())
            };
            // The map's id is shown beside the zone: a title repeating it would only be
            // read out twice.
            html!(
                "<span class=\"zone{}\">{} <small>{}</small>{}</span>",
                class,
                family_badge(s, z),
                Html::text(map),
                label
            )
        }
        Frag::Mode(mode, mark) => {
            let mode = mode
                .map(|m| s.ui(m))
                .unwrap_or_else(|| Html::trusted_static("—"));
            match mark {
                Some(key) => html!(
                    "{}<br><small class=\"cache-defeat\">{}</small>",
                    mode,
                    s.ui(key)
                ),
                None => mode,
            }
        }
        Frag::Reading(i) => run
            .cases
            .get(i)
            .map_or_else(|| unknown(s), |c| reading(s, run, c)),
    }
}

/// Writes what `write` writes as plain text, escaped, through `scratch` (one buffer for
/// the whole table's numbers).
fn text(out: &mut Rows, scratch: &mut String, write: impl FnOnce(&mut String) -> bool) -> bool {
    scratch.clear();
    let wrote = write(scratch);
    out.html().push_text(scratch);
    wrote
}

/// The zone each map derives for the case. `maps` pairs each map with the position of
/// its measurement in `now` (the row's values, see [`fill`]), found once per table.
fn zone_cell<'e>(
    out: &mut Rows<'e>,
    run: &Run,
    maps: &[(&'e DispatchMap, Option<usize>)],
    now: &[Option<f64>],
) {
    let mut first = true;
    for &(m, slot) in maps {
        let Some(z) = slot.and_then(|i| now[i]).and_then(|v| zone(m, v)) else {
            continue;
        };
        let assessed = run
            .assessed_against
            .as_ref()
            .is_some_and(|a| a.value == m.id.value);
        if !first {
            out.html().push_static("<br>");
        }
        first = false;
        out.hole(Frag::Zone(&m.id.value, z, assessed));
    }
    if first {
        out.html().push_static("—");
    }
}

fn family_badge(s: &Scope, z: &str) -> Html {
    let name =
        s.ev.families
            .get(z)
            .map(|f| s.fluent(&f.label))
            .unwrap_or_else(|| Html::text(z));
    let class = crate::render::palette::class(Some(crate::render::palette::family(s.ev, z)));
    html!(
        "<span class=\"badge {}\">{}</span>",
        Html::text(&class),
        name
    )
}

/// The reading of a case: the one kept in data/readings.yaml, else the run file's own.
fn reading(s: &Scope, run: &Run, case: &Case) -> Html {
    if let Some(r) = s.ev.reading_of(&run.id.value, &case.id.value) {
        return html!(
            "{}{}",
            s.text(&r.text),
            super::records::basis_mark(s, r.basis)
        );
    }
    case.assessment
        .as_ref()
        .map(|a| s.text(&a.reading))
        .unwrap_or_else(|| Html::trusted_static("—"))
}

/// Mode, with the mark a pack shows under it (how the case kept a cache out).
fn mode_cell(out: &mut Rows, s: &Scope, c: &Case) {
    out.hole(Frag::Mode(
        crate::render::pack::case_mode(s, c),
        crate::render::pack::case_mark(s, c),
    ));
}

// ---------------------------------------------------------------- matching runs

/// The map deltas read zones under: the one either run was assessed against, else the
/// first map; only a map that holds for the run (the two are of one subject).
fn primary_map<'e>(s: &Scope<'e>, run: &Run, prev: &Run) -> Option<&'e DispatchMap> {
    let applies = |m: &&'e DispatchMap| s.ev.map_applies(m, run);
    [&run.assessed_against, &prev.assessed_against]
        .into_iter()
        .flatten()
        .filter_map(|a| s.ev.maps.get(&a.value).map(|m| &m.value))
        .find(applies)
        .or_else(|| s.ev.maps.iter().map(|m| &m.value).find(applies))
}

/// `+12.5 %` (relative change), or `±0 %` within 0.05 %; nothing when `a` is not a
/// positive number.
fn pct(out: &mut String, nums: &Numerals, a: f64, b: f64) -> bool {
    if !(a.is_finite() && b.is_finite()) || a <= 0.0 {
        return false;
    }
    let p = (b - a) / a * 100.0;
    if p.abs() < 0.05 {
        out.push_str("±0 %");
    } else {
        nums.write_signed_tenths(out, p);
        out.push_str(" %");
    }
    true
}

#[cfg(test)]
fn pct_text(a: f64, b: f64) -> Option<String> {
    let mut out = String::new();
    pct(&mut out, Numerals::of(crate::model::lang::Lang::EN), a, b).then_some(out)
}

/// `+3`, `-0.25`, `±0`: how far `b` is from `a`, at the precision of the two.
fn signed(out: &mut String, nums: &Numerals, a: f64, b: f64) {
    let d = crate::model::format::difference(a, b);
    if d == 0.0 {
        out.push_str("±0");
    } else {
        nums.write_signed(out, d);
    }
}

/// How a measurement changed from `a` to `b`: a duration by its relative change, any
/// other number by its difference.
fn change(out: &mut String, nums: &Numerals, name: &str, a: f64, b: f64) -> bool {
    if crate::model::fields::is_duration(name) {
        pct(out, nums, a, b)
    } else {
        signed(out, nums, a, b);
        true
    }
}

/// The delta cell of one case against the previous run's case of the same key: one
/// line per measurement that changed, in column order, with a change of zone under the
/// map's own measurement; `=` when nothing changed. `now` and `before` hold the two
/// sides' values in the positions of `order`; `variable` is the map's measurement's.
fn delta<'e>(
    out: &mut Rows<'e>,
    scratch: &mut String,
    nums: &Numerals,
    map: Option<&'e DispatchMap>,
    order: &[&'static str],
    variable: Option<usize>,
    (before, now): (&[Option<f64>], &[Option<f64>]),
) {
    let start = out.mark();
    let line = |out: &mut Rows| {
        if out.mark() != start {
            out.html().push_static("<br>");
        }
    };
    for (i, &name) in order.iter().enumerate() {
        let (Some(a), Some(b)) = (before[i], now[i]) else {
            continue;
        };
        if a != b {
            let mark = out.mark();
            line(out);
            out.hole(Frag::Label(name));
            out.html().push_static(" ");
            if !text(out, scratch, |t| change(t, nums, name, a, b)) {
                out.reset(mark);
            }
        }
        if Some(i) == variable
            && let Some(m) = map
            && let (Some(za), Some(zb)) = (zone(m, a), zone(m, b))
            && za != zb
        {
            line(out);
            out.hole(Frag::Badge(za));
            out.html().push_static(" → ");
            out.hole(Frag::Badge(zb));
        }
    }
    if out.mark() == start {
        out.html().push_static("=");
    }
}

/// Puts each of `m`'s values at its name's position in `order` (`None` where it has
/// none): one pass per row, so that the columns and the delta index instead of looking
/// each name up.
fn fill(slots: &mut [Option<f64>], order: &[&'static str], m: &Measurements) {
    slots.fill(None);
    for (n, v) in m.iter() {
        if let Some(i) = order.iter().position(|o| *o == n) {
            slots[i] = Some(v);
        }
    }
}

// ---------------------------------------------------------------- one run

/// The rows of a run's cases, as every view writes them but for the holes.
/// `prev`: the run the delta column compares with; `map`: the map it reads zones under.
fn case_rows<'e>(
    s: &Scope<'e>,
    run: &'e Run,
    prev: Option<&Run>,
    map: Option<&'e DispatchMap>,
    columns_of: &[MeasureColumn],
    texts: &[&str],
    with_mode: bool,
) -> Rows<'e> {
    let prev_summary = prev.map(|p| s.derived.summaries(p));
    let order: Vec<&'static str> = columns_of.iter().flat_map(|c| c.names.clone()).collect();
    let variable = map.and_then(|m| order.iter().position(|n| *n == m.measured_as()));
    let (mut now, mut before) = (vec![None; order.len()], vec![None; order.len()]);
    // A map that holds for other subjects gives the run no zone.
    let maps: Vec<(&DispatchMap, Option<usize>)> =
        s.ev.maps
            .iter()
            .filter(|m| s.ev.map_applies(m, run))
            .map(|m| (&m.value, order.iter().position(|n| *n == m.measured_as())))
            .collect();
    let mut rows = Rows::with_capacity(run.cases.len() * 400);
    let mut scratch = String::new();
    let nums = s.numerals();
    // Where the previous run's summary of the next case is likely to be.
    let mut at = 0;
    for (n, c) in run.cases.iter().enumerate() {
        // The first cell after the row header opens a cell; each later one closes the
        // last first.
        let mut open = false;
        let mut td = |out: &mut Rows| {
            out.html()
                .push_static(if open { "</td><td>" } else { "<td>" });
            open = true;
        };
        fill(&mut now, &order, &c.measurements);
        // The case names its row: a row header, announced with each measurement.
        rows.html().push_static("<tr><th scope=\"row\"><code>");
        rows.html().push_text(&c.id.value);
        rows.html().push_static("</code></th>");
        if with_mode {
            td(&mut rows);
            mode_cell(&mut rows, s, c);
        }
        // `order` is the columns' names one after another.
        let mut i = 0;
        for col in columns_of {
            td(&mut rows);
            for (k, name) in col.names.iter().enumerate() {
                if k > 0 {
                    rows.html().push_static(" / ");
                }
                match now[i] {
                    Some(v) => {
                        text(&mut rows, &mut scratch, |t| {
                            write_measure(t, nums, name, v);
                            true
                        });
                    }
                    None => rows.hole(Frag::Unknown),
                }
                i += 1;
            }
        }
        for name in texts {
            td(&mut rows);
            match c.text(name) {
                Some(t) => rows.html().push_text(t),
                None => rows.html().push_static("—"),
            }
        }
        td(&mut rows);
        zone_cell(&mut rows, run, &maps, &now);
        td(&mut rows);
        // A reading is a text, in each view's languages.
        if s.ev.reading_of(&run.id.value, &c.id.value).is_some() || c.assessment.is_some() {
            rows.hole(Frag::Reading(n));
        } else {
            rows.html().push_static("—");
        }
        if let Some(ps) = prev_summary {
            td(&mut rows);
            match ps.find(case_key(c), &mut at) {
                Some(p) => {
                    fill(&mut before, &order, p.values);
                    delta(
                        &mut rows,
                        &mut scratch,
                        nums,
                        map,
                        &order,
                        variable,
                        (&before, &now),
                    );
                }
                None => rows.hole(Frag::DeltaNew),
            }
        }
        rows.html().push_static("</td></tr>\n");
    }
    rows
}

fn run_table<'e>(s: &Scope<'e>, run: &'e Run, file: &str, with_anchor: bool) -> Table {
    let prev = s.derived.comparable_previous(s.ev, run);
    let map = prev.and_then(|p| primary_map(s, run, p));
    // A column per measurement the cases have (a pack's group in one), in the order
    // they are shown everywhere.
    // As derived, in one pass over the cases for all views; read from the cases
    // themselves when the derived facts do not know the run.
    let derived = s.derived.summaries(run).measured();
    let columns_of = match derived.is_empty() {
        false => measure_columns(s, derived.iter().copied()),
        true => measure_columns(s, run.cases.iter().flat_map(|c| c.measured())),
    };
    let texts = super::vocabulary::text_columns(s, &run.cases);
    // A mode column only where a pack gives a case a mode or a mark: a run of a study
    // with no such thing (a pack-less site's) has none.
    let with_mode = run.cases.iter().any(|c| {
        crate::render::pack::case_mode(s, c).is_some()
            || crate::render::pack::case_mark(s, c).is_some()
    });
    // Worked out once for all the page's views, filled in with each view's words.
    let html = s
        .in_every_view(
            &format!("run-rows {}", run.id.value),
            || case_rows(s, run, prev, map, &columns_of, &texts, with_mode),
            |v, rows| vec![rows.fill(|k| fragment(v, run, k))],
        )
        .pop()
        .unwrap_or_default();
    let mut columns: Vec<Html> = vec![s.ui("col-case")];
    if with_mode {
        columns.push(s.ui("col-mode"));
    }
    columns.extend(columns_of.into_iter().map(|c: MeasureColumn| c.label));
    columns.extend(texts.iter().map(|n| super::vocabulary::text_field(s, n)));
    columns.extend(["col-derived-zone", "col-reading"].iter().map(|k| s.ui(k)));
    let mut notes = vec![run_meta(s, run)];
    notes.extend(crate::render::pack::run_notes(s, run));
    notes.extend(moved_claims(s, run));
    if let Some(p) = prev {
        columns.push(s.ui_with("col-delta", "run", p.id.value.clone()));
        notes.push(s.ui_with("runs-previous", "run", p.id.value.clone()));
        notes.extend(changes_since(s, run, p, map));
    }
    notes.extend(zone_notes(s, run));
    Table {
        id: if with_anchor {
            anchor(Kind::Run, &run.id.value)
        } else {
            format!("run-table-{}", run.id.value)
        },
        class: "run".into(),
        caption: html!(
            "{} {} · {}",
            s.ui("run-caption"),
            code(&run.id.value),
            date(s, run)
        ),
        source: source_line(s, [file]),
        columns,
        rows_html: html,
        empty: s.ui("table-empty"),
        notes,
        ..Table::default()
    }
}

/// What a run table of cases says of its zones: that they are derived, when a map holds
/// for the run; that the assessed map is marked, when a case has a zone under it; and which maps
/// hold only for other subjects, when some do.
fn zone_notes(s: &Scope, run: &Run) -> Vec<Html> {
    // A run of no case (a file read) has no zone to speak of.
    if run.cases.is_empty() {
        return Vec::new();
    }
    let (held, other): (Vec<&DispatchMap>, Vec<&DispatchMap>) =
        s.ev.maps
            .iter()
            .map(|m| &m.value)
            .partition(|m| s.ev.map_applies(m, run));
    let mut notes = Vec::new();
    if !held.is_empty() {
        notes.push(s.ui("runs-zone-note"));
    }
    // Counted only under an assessed map that holds for the run.
    if s.derived.zone_counts(run).is_some() {
        notes.push(s.ui("runs-zone-assessed"));
    }
    if !other.is_empty() {
        let ids: Vec<&str> = other.iter().map(|m| m.id.value.as_str()).collect();
        notes.push(s.ui_with("runs-zone-not-applicable", "maps", ids.join(", ")));
    }
    notes
}

/// The notes on what changed since `prev`: the case keys it had that `run` lacks, and the
/// cases whose zone under `map` moved. Worked out once per page, as its rows are: the
/// first view to show the table writes every view's notes and keeps the others' for them
/// (each is a thousand lookups into the previous run).
fn changes_since<'e>(
    s: &Scope<'e>,
    run: &'e Run,
    prev: &'e Run,
    map: Option<&'e DispatchMap>,
) -> Vec<Html> {
    let notes = s.in_every_view(
        &format!("run-changes {}", run.id.value),
        || {
            let now = s.derived.summaries(run);
            let before = s.derived.summaries(prev);
            let gone: Vec<&str> = before.keys().filter(|k| !now.contains(k)).collect();
            (gone, map.map(|m| (m, zone_moves(m, now, before))))
        },
        |v, (gone, moved)| {
            let zones = moved
                .as_ref()
                .map(|(m, moved)| zones_note(v, m, moved, prev));
            vec![gone_note(v, prev, gone), zones.unwrap_or_default()]
        },
    );
    // An empty note is one there is nothing to say in.
    notes.into_iter().filter(|n| !n.is_empty()).collect()
}

/// The case keys the previous run had and this one lacks, as a note (empty: none).
fn gone_note(s: &Scope, prev: &Run, gone: &[&str]) -> Html {
    if gone.is_empty() {
        return Html::default();
    }
    html!(
        "{} {}",
        s.ui_with("runs-only-previous", "run", prev.id.value.clone()),
        Html::join(gone.iter().map(|k| code(k)), ", ")
    )
}

/// The cases whose zone under `m` differs from the previous run's, with both zones: what
/// the run changed, without reading the delta column of every row.
fn zone_moves<'a>(
    m: &'a DispatchMap,
    now: crate::derive::RunSummaries<'a>,
    before: crate::derive::RunSummaries<'a>,
) -> Vec<(&'a str, &'a str, &'a str)> {
    let zone_of = |x: Summary| x.measurement(m.measured_as()).and_then(|v| zone(m, v));
    let mut moved = Vec::new();
    let mut at = 0;
    for (k, summary) in now.iter() {
        if let (Some(a), Some(b)) = (before.find(k, &mut at).and_then(zone_of), zone_of(summary))
            && a != b
        {
            moved.push((k, a, b));
        }
    }
    moved
}

/// [`zone_moves`] as one note (empty: none), written into one buffer, each badge made
/// once: a run can change the zone of most of its cases.
fn zones_note(s: &Scope, m: &DispatchMap, moved: &[(&str, &str, &str)], prev: &Run) -> Html {
    if moved.is_empty() {
        return Html::default();
    }
    let mut changed = Html::default();
    let mut badges: rustc_hash::FxHashMap<&str, Html> = Default::default();
    for &(k, a, b) in moved {
        if !changed.is_empty() {
            changed.push_static(", ");
        }
        changed.push(&code(k));
        changed.push_static(" ");
        changed.push(badges.entry(a).or_insert_with(|| family_badge(s, a)));
        changed.push_static(" → ");
        changed.push(badges.entry(b).or_insert_with(|| family_badge(s, b)));
    }
    html!(
        "{} {}",
        s.ui_args(
            "runs-zones-changed",
            &[("run", prev.id.value.clone()), ("map", m.id.value.clone())]
        ),
        changed
    )
}

/// The claims the history says this run moved, each linked with how and when.
fn moved_claims(s: &Scope, run: &Run) -> Option<Html> {
    let history = s.ev.history.as_ref()?;
    let moved: Vec<Html> = history
        .moved_by_run(&run.id.value)
        .map(|(e, claim, from)| {
            let key = super::claims::moved_key(from);
            // The ledger's row, else the page the claim belongs to.
            let link = match (s.pages.home_of(Kind::Claim, claim), s.ev.claims.get(claim)) {
                (None, Some(c)) => super::record_link(s, Kind::Page, &c.page.value, code(claim)),
                _ => super::record_link(s, Kind::Claim, claim, code(claim)),
            };
            html!("{} {}", link, s.ui_with(key, "date", e.day().to_string()))
        })
        .collect();
    (!moved.is_empty()).then(|| html!("{} {}", s.ui("run-moved-claims"), Html::join(moved, "; ")))
}

/// The settings a run ran under, on a line of their own (`work_mem 64MB · …`); nothing
/// for a run that recorded none.
fn conditions_line(s: &Scope, run: &Run) -> Html {
    if run.conditions.is_empty() {
        return Html::default();
    }
    let parts: Vec<Html> = run
        .conditions
        .iter()
        .map(|(k, v)| html!("{} {}", Html::text(k), code(v)))
        .collect();
    html!(
        "<br>{} {}",
        s.ui("run-conditions"),
        Html::join(parts, " · ")
    )
}

/// The subject the run was taken of, with its description, on a line of its own (empty
/// when the site declares none): "comparison run" when it is not the site's own.
fn subject_line(s: &Scope, run: &Run) -> Html {
    let Some(subject) = s.ev.subject_record(run) else {
        return Html::default();
    };
    let key = if s.ev.is_own(run) {
        "run-subject"
    } else {
        "run-subject-other"
    };
    html!("<br>{} {}", s.ui(key), subject_about(s, subject))
}

/// A subject's label and, when it has one, its description.
pub(super) fn subject_about(s: &Scope, subject: &crate::model::Subject) -> Html {
    match &subject.description {
        Some(d) => html!("{} — {}", s.fluent(&subject.label), s.text(d)),
        None => s.fluent(&subject.label),
    }
}

/// The investigator's note on a run; one recorded as written (`--note`), in no language
/// of the site's, is shown once and said to be untranslated.
fn note_line(s: &Scope, note: &crate::model::Text) -> Html {
    let mark = if note.is_untranslated() {
        html!(" <small>({})</small>", s.ui("run-note-as-written"))
    } else {
        Html::default()
    };
    html!("<br>{} {}{}", s.ui("run-note"), s.text(note), mark)
}

/// Probe, engine, model, versions, environment, subject, conditions and origin of a run,
/// as one note.
fn run_meta(s: &Scope, run: &Run) -> Html {
    let mut parts = vec![html!("{} {}", s.ui("run-probe"), code(&run.probe))];
    // As written: a run that names no engine shows none (`engine: none` is shown as such).
    if let Some(e) = &run.engine {
        parts.push(html!(
            "{} {}",
            s.ui("run-engine"),
            super::vocabulary::engine(s, &e.value)
        ));
    }
    parts.extend(crate::render::pack::run_meta(s, run));
    for (k, v) in run.versions.iter().chain(&run.environment) {
        parts.push(html!("{} {}", Html::text(k), code(v)));
    }
    let mut note = subject_line(s, run);
    note.push(&conditions_line(s, run));
    if let Some(n) = &run.note {
        note.push(&match restated(s, run, RunText::Note) {
            Some(r) => html!("<br>{} {}", s.ui("run-note"), r),
            None => note_line(s, n),
        });
    }
    // Readings of the whole run, kept beside it (data/readings.yaml).
    for r in s.ev.run_readings(&run.id.value) {
        note.push_static("<br>");
        note.push(&s.text(&r.text));
        note.push(&super::records::basis_mark(s, r.basis));
    }
    let origin = restated(s, run, RunText::Origin).unwrap_or_else(|| s.text(&run.origin));
    html!("{}<br>{}{}", Html::join(parts, " · "), origin, note)
}

/// A reading that says the run's `what` again in the site's words, with its badge:
/// shown in the place of the run file's text.
fn restated(s: &Scope, run: &Run, what: RunText) -> Option<Html> {
    let r = s.ev.restatement(&run.id.value, what)?;
    Some(html!(
        "{}{}",
        s.text(&r.text),
        super::records::basis_mark(s, r.basis)
    ))
}

// ---------------------------------------------------------------- comparison

/// `prev → now` of two optional values.
fn arrow(s: &Scope, a: Option<Html>, b: Option<Html>) -> Html {
    let u = || unknown(s);
    html!("{} → {}", a.unwrap_or_else(u), b.unwrap_or_else(u))
}

/// The latest run against the previous one, case key by case key: each measurement
/// before → after with its change, then the change of zone.
fn compare_table(s: &Scope, run: &Run, prev: &Run, file: &str, prev_file: &str) -> Table {
    let (now, before) = (s.derived.summaries(run), s.derived.summaries(prev));
    let mut keys: Vec<&str> = now.keys().collect();
    let map = primary_map(s, run, prev);
    keys.extend(before.keys().filter(|k| !now.contains(k)));
    let names = run
        .cases
        .iter()
        .chain(&prev.cases)
        .flat_map(|c| c.measured());
    let columns_of = measure_columns(s, names);
    // A grouped column names each of its measurements on every row: labels made once.
    let labels: std::collections::HashMap<&str, Html> = columns_of
        .iter()
        .filter(|c| c.names.len() > 1)
        .flat_map(|c| c.names.iter().map(|n| (*n, measurement(s, n))))
        .collect();
    let rows = keys
        .iter()
        .map(|k| {
            let a = before.get(k);
            let b = now.get(k);
            let cell = |name: &'static str| {
                let (x, y) = (
                    a.and_then(|v| v.measurement(name)),
                    b.and_then(|v| v.measurement(name)),
                );
                let mut cell = arrow(
                    s,
                    x.map(|v| Html::text(&measure_text(s.numerals(), name, v))),
                    y.map(|v| Html::text(&measure_text(s.numerals(), name, v))),
                );
                if let (Some(x), Some(y)) = (x, y) {
                    let mut c = String::new();
                    if x != y && change(&mut c, s.numerals(), name, x, y) {
                        crate::render::html::html_into!(
                            cell,
                            " <small>({})</small>",
                            Html::text(&c)
                        );
                    }
                }
                cell
            };
            let zone_of = |x: Option<Summary>| {
                let m = map?;
                zone(m, x?.measurement(m.measured_as())?).map(|z| family_badge(s, z))
            };
            let reps = match (a.map(|x| x.n), b.map(|x| x.n)) {
                (Some(1) | None, Some(1) | None) => Html::default(),
                (x, y) => html!(
                    " <small>{}</small>",
                    s.ui_with(
                        "runs-median-of",
                        "n",
                        format!("{}/{}", x.unwrap_or(0), y.unwrap_or(0))
                    )
                ),
            };
            let mut cells = vec![code(k) + &reps];
            for col in &columns_of {
                let lines: Vec<Html> = col
                    .names
                    .iter()
                    .map(|n| {
                        if let Some(label) = labels.get(n) {
                            html!("{} {}", label, cell(n))
                        } else {
                            cell(n)
                        }
                    })
                    .collect();
                cells.push(Html::join(lines, "<br>"));
            }
            cells.push(arrow(s, zone_of(a), zone_of(b)));
            Row::new(cells)
        })
        .collect();
    let mut notes = vec![s.ui_with("runs-compare-note", "run", prev.id.value.clone())];
    if let Some(m) = map {
        notes.push(s.ui_with("runs-compare-map", "map", m.id.value.clone()));
    }
    let mut columns = vec![s.ui("col-case")];
    columns.extend(columns_of.into_iter().map(|c| c.label));
    columns.push(s.ui("col-zone-change"));
    Table {
        id: format!("compare-{}", run.id.value),
        class: "run compare".into(),
        caption: html!(
            "{} {} → {}",
            s.ui("runs-compare-caption"),
            code(&prev.id.value),
            code(&run.id.value)
        ),
        source: source_line(s, [file, prev_file]),
        columns,
        rows,
        empty: s.ui("table-empty"),
        notes,
        rows_html: Html::default(),
    }
}

fn file_of(s: &Scope, run: &Run) -> String {
    s.ev.runs
        .get(&run.id.value)
        .map(|r| r.file.to_string())
        .unwrap_or_default()
}

/// The comparison of `run` with the previous run of its probe, when there is one.
fn comparison(s: &Scope, run: &Run) -> Option<Table> {
    let prev = s.derived.comparable_previous(s.ev, run)?;
    Some(compare_table(
        s,
        run,
        prev,
        &file_of(s, run),
        &file_of(s, prev),
    ))
}

pub fn run(s: &Scope, id: &str) -> Vec<Table> {
    s.ev.runs
        .get(id)
        .map(|r| vec![run_table(s, r, &r.file, false)])
        .unwrap_or_default()
}

/// The latest run of a probe, then its comparison with the previous run.
pub fn latest(s: &Scope, probe: &str) -> Vec<Table> {
    let Some(run) = s.derived.latest(s.ev, probe) else {
        return Vec::new();
    };
    let file = file_of(s, run);
    let mut t = run_table(s, run, &file, false);
    t.id = format!("latest-{probe}");
    t.caption = html!(
        "{} {}",
        s.ui_with("latest-caption", "probe", probe.to_string()),
        t.caption
    );
    let mut out = vec![t];
    out.extend(comparison(s, run));
    out
}

/// The version a run recorded of its own engine (`versions: {<engine>: …}`), if any.
fn engine_version(run: &Run) -> Option<&str> {
    run.versions.get(&run.engine()?.value).map(String::as_str)
}

/// Whether `run` is the latest run of its probe.
fn is_latest(s: &Scope, run: &Run) -> bool {
    s.derived
        .latest(s.ev, &run.probe)
        .is_some_and(|l| l.id.value == run.id.value)
}

/// What the runs index says beside a run's id: `latest` for its probe's last dated run;
/// for a run without a date among other runs of its probe, that its order is unknown
/// (it is never the latest, and no other run is either unless one has a date).
fn index_mark(s: &Scope, run: &Run) -> Html {
    if is_latest(s, run) {
        return html!(
            " <span class=\"badge latest\">{}</span>",
            s.ui("runs-latest")
        );
    }
    let among_others = s
        .derived
        .runs_by_probe
        .get(&run.probe)
        .is_some_and(|ids| ids.len() > 1 && ids.contains(&run.id.value));
    if run.date.is_none() && among_others {
        return html!(
            " <span class=\"unknown order-unknown\">{}</span>",
            s.ui("runs-order-unknown")
        );
    }
    Html::default()
}

/// A link to a run's own page (its id alone when it has none).
fn run_link(s: &Scope, run: &Run) -> Html {
    let label = code(&run.id.value);
    match s.pages.home_of(Kind::Run, &run.id.value) {
        Some(page) => html!(
            "<a href=\"{}\">{}</a>",
            Html::text(&s.href(page, None)),
            label
        ),
        None => label,
    }
}

/// The runs of the same probe before and after `run`, and the index of all runs.
fn neighbours_note(s: &Scope, run: &Run) -> Html {
    let (prev, next) = s.derived.neighbours(s.ev, run);
    let mut parts = Vec::new();
    if let Some(p) = prev {
        parts.push(html!("{} {}", s.ui("run-nav-previous"), run_link(s, p)));
    }
    if let Some(n) = next {
        parts.push(html!("{} {}", s.ui("run-nav-next"), run_link(s, n)));
    }
    if s.derived.order_unknown(s.ev, run) {
        parts.push(s.ui("run-order-unknown"));
    }
    if let Some(index) = s.pages.runs_index() {
        parts.push(html!(
            "<a href=\"{}\">{}</a>",
            Html::text(&s.href(index, None)),
            s.ui("run-nav-index")
        ));
    }
    Html::join(parts, " · ")
}

/// `::run-page`: one run in full, as its own page shows it. Its cases (with the
/// neighbouring runs of the probe), for the latest run of a probe the comparison with the
/// run before it, and the targets or tensor types a binary probe run found.
pub fn page(s: &Scope, id: &str) -> Vec<Table> {
    let Some(located) = s.ev.runs.get(id) else {
        return Vec::new();
    };
    let run = &located.value;
    let file = located.file.to_string();
    let mut main = run_table(s, run, &file, true);
    main.notes.insert(0, neighbours_note(s, run));
    let mut out = vec![main];
    // The delta column compares every run with the one before; the latest (of its
    // subject: a comparison subject's runs are compared among themselves) also gets the
    // case-by-case comparison table, as `::latest-run` shows it.
    if s.derived.is_last(s.ev, run) {
        out.extend(comparison(s, run));
    }
    // A run whose result a later run of the same file repeats points there rather than
    // showing the same table twice.
    if let Some(later) = s.derived.repeated_by(s.ev, run) {
        out[0].notes.push(html!(
            "{} {}",
            s.ui("run-same-result-later"),
            run_link(s, later)
        ));
        return out;
    }
    let mut tables = crate::render::pack::run_tables(s, run, &file);
    if let Some(first) = tables.first_mut() {
        first.notes.extend(same_result_note(s, run));
    }
    out.extend(tables);
    out
}

/// "The earlier run of the same file gave the same result: …", when one did.
fn same_result_note(s: &Scope, run: &Run) -> Option<Html> {
    let earlier = s.derived.repeats_of(s.ev, run);
    if earlier.is_empty() {
        return None;
    }
    let links = Html::join(
        earlier.iter().map(|r| run_link(s, r)).collect::<Vec<_>>(),
        ", ",
    );
    Some(html!("{} {}", s.ui("run-same-result-earlier"), links))
}

/// `::runs`: one row per run, linking to the run's own page, where its cases are.
pub fn index(s: &Scope) -> Vec<Table> {
    let mut runs: Vec<_> = s.ev.runs.iter().collect();
    runs.sort_by(|a, b| {
        (&a.probe, a.date.as_ref().map(|d| &d.value), &a.id.value).cmp(&(
            &b.probe,
            b.date.as_ref().map(|d| &d.value),
            &b.id.value,
        ))
    });
    // The packs' columns follow the engine's (none on a pack-less site).
    let plain: Vec<&Run> = runs.iter().map(|r| &r.value).collect();
    let mut extra = crate::render::pack::run_columns(s, &plain);
    let mut extra_cells: Vec<_> = extra
        .iter_mut()
        .map(|c| std::mem::take(&mut c.cells).into_iter())
        .collect();
    let rows = runs
        .iter()
        .map(|r| {
            let mark = index_mark(s, r);
            // As written; a run that names no engine has a dash.
            let engine = match (&r.engine, engine_version(r)) {
                (Some(e), Some(v)) => {
                    html!("{} {}", super::vocabulary::engine(s, &e.value), code(v))
                }
                (Some(e), None) => super::vocabulary::engine(s, &e.value),
                (None, _) => Html::trusted_static("—"),
            };
            let mut cells = vec![
                run_link(s, r) + &mark,
                date(s, r),
                s.label("recorded", &r.recorded()),
                // A comparison run says so where its probe is named.
                code(&r.probe) + &super::subject_note(s, r),
                engine,
                html!("{}", r.cases.len()),
                zone_counts(s, r),
                r.phase
                    .as_ref()
                    .map(|p| code(&p.value))
                    .unwrap_or_else(|| Html::trusted_static("—")),
            ];
            // After the engine's cell, at 5: one cell per run in each pack column.
            let after_engine = extra_cells
                .iter_mut()
                .map(|c| c.next().unwrap_or_else(|| Html::trusted_static("—")));
            cells.splice(5..5, after_engine);
            Row::new(cells).id(anchor(Kind::Run, &r.id.value))
        })
        .collect();
    vec![Table {
        id: "runs-index".into(),
        class: "runs-index".into(),
        caption: s.ui("runs-caption"),
        source: source_line(s, runs.iter().map(|r| r.file.to_string())),
        columns: index_columns(s, extra),
        rows,
        empty: s.ui("runs-none"),
        notes: subjects_notes(s, &plain),
        rows_html: Html::default(),
    }]
}

/// One note per subject the listed runs were taken of, in the order of
/// `data/subjects.yaml`: its label, whether it is the investigation's own, and its
/// description.
fn subjects_notes(s: &Scope, runs: &[&Run]) -> Vec<Html> {
    let own = s.ev.config.as_ref().and_then(|c| c.subject.as_ref());
    let taken: std::collections::HashSet<&str> = runs
        .iter()
        .filter_map(|r| s.ev.subject_record(r))
        .map(|sub| sub.id.value.as_str())
        .collect();
    s.ev.subjects
        .iter()
        .filter(|sub| taken.contains(sub.id.value.as_str()))
        .map(|sub| {
            let key = match own.is_some_and(|o| o.value == sub.id.value) {
                true => "runs-subject-own",
                false => "runs-subject-compared",
            };
            html!("{} {}", s.ui(key), subject_about(s, sub))
        })
        .collect()
}

/// The runs index's headings, with the packs' columns after the engine's.
fn index_columns(s: &Scope, extra: Vec<crate::render::pack::RunColumn>) -> Vec<Html> {
    let mut columns: Vec<Html> = [
        "col-run",
        "col-date",
        "col-recorded",
        "col-probe",
        "col-engine",
        "col-cases",
        "col-zones",
        "col-phase",
    ]
    .iter()
    .map(|k| s.ui(k))
    .collect();
    columns.splice(5..5, extra.into_iter().map(|c| c.heading));
    columns
}

/// How many of a run's cases fall in each family under the map the run was assessed
/// against: `SEQ 2 · INDEX 1`, in branch order ("—" without such a map or cases).
fn zone_counts(s: &Scope, run: &Run) -> Html {
    let Some(counts) = s.derived.zone_counts(run) else {
        return Html::trusted_static("—");
    };
    let mut parts: Vec<Html> = counts
        .families
        .iter()
        .map(|(f, n)| html!("{} {}", family_badge(s, f), n))
        .collect();
    if counts.open > 0 {
        parts.push(s.ui_with("runs-zones-open", "count", counts.open));
    }
    Html::join(parts, " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_changes() {
        assert_eq!(pct_text(100.0, 112.5).as_deref(), Some("+12.5 %"));
        assert_eq!(pct_text(100.0, 100.01).as_deref(), Some("±0 %"));
        assert_eq!(pct_text(0.0, 1.0), None);
        let signed_text = |a, b| {
            let mut out = String::new();
            signed(&mut out, Numerals::of(crate::model::lang::Lang::EN), a, b);
            out
        };
        assert_eq!(signed_text(290.0, 11.0), "-279");
        assert_eq!(signed_text(11.0, 290.0), "+279");
        assert_eq!(signed_text(-3.0, 9.0e15), "+9,000,000,000,000,003");
        // A change is grouped as the values beside it are.
        assert_eq!(signed_text(64_300.0, 76_600.0), "+12,300");
        assert_eq!(signed_text(0.25, 0.5), "+0.25");
        assert_eq!(signed_text(3.0, 3.0), "±0");
        // Decimal measurements: no binary noise past the places they were written with.
        assert_eq!(signed_text(0.0068, 0.0045), "-0.0023");
        assert_eq!(signed_text(0.0045, 0.0068), "+0.0023");
        assert_eq!(signed_text(0.01, 0.00265), "-0.00735");
    }
}
