//! Stage 4: rules over the evidence graph and the page sources.
//!
//! Schema errors, duplicate ids and dangling references are found while loading and
//! building the model; the rules here look at the whole: block groups (one block per
//! language, in the site's order), directives,
//! recorded assessments against derived zones, the Fluent messages, and links and quoted
//! values inside data texts.

mod basis;
pub mod blocks;
mod contrast;
mod data_texts;
pub mod fragments;
pub mod subjects;
pub mod terms;

use crate::derive;
use crate::diagnostics::{Diagnostic, Diagnostics, Span};
use crate::load::messages::Messages;
use crate::model::page::{Item, Lang, PageSource};
use crate::model::values::Values;
use crate::model::{Evidence, span_of};
use std::path::Path;

/// Runs every rule but those on what the pages' blocks hold ([`blocks`], which `pipeline`
/// runs on the notes rendering takes) and on fragments ([`fragments`], after rendering).
pub fn check(
    ev: &Evidence,
    derived: &derive::Derived,
    messages: &Messages,
    values: &Values,
    theme: &crate::load::Theme,
    root: &Path,
    diags: &mut Diagnostics,
) {
    for page in &ev.pages {
        page_rules(ev, page, diags);
    }
    own_files(ev, theme, diags);
    assessments(ev, diags);
    readings(ev, diags);
    basis::check(ev, diags);
    contrast::check(ev, diags);
    terms::rules(ev, Some(diags));
    measurements(ev, diags);
    texts(ev, diags);
    for p in &ev.probes {
        diags.extend(declared_probe(ev, p));
    }
    probe_names(ev, diags);
    subjects::check(ev, root, diags);
    pack_rules(ev, derived, diags);
    messages.check(diags);
    home_page(ev, diags);
    views(ev, diags);
    base_url(ev, diags);
    data_texts::check(ev, values, root, diags);
}

/// A pack's rules, as one of its parts (`model::pack::Pack::parts`): run after the
/// core's, for a site that turns the pack on.
pub struct PackRules(pub fn(&Evidence, &derive::Derived, &mut Diagnostics));

/// Runs the rules of every pack the site turned on.
fn pack_rules(ev: &Evidence, derived: &derive::Derived, diags: &mut Diagnostics) {
    for rules in ev.packs_on().filter_map(|p| p.part::<PackRules>()) {
        (rules.0)(ev, derived, diags);
    }
}

/// The rules that judge one page by itself: all that `check` says of a page whose
/// title, order, date and directives are unchanged (`serve` re-judges an edited page alone).
pub fn page_rules(ev: &Evidence, page: &PageSource, diags: &mut Diagnostics) {
    block_pairs(page, ev.languages(), diags);
    language_folder(ev, page, diags);
    page_date(page, diags);
    directives(page, diags);
    terms::page(ev, page, diags);
}

/// A page date must be a calendar date. Its position is within the front matter, which
/// starts on line 2 of the file.
fn page_date(page: &PageSource, diags: &mut Diagnostics) {
    if let Some(d) = &page.front.date
        && !crate::model::refs::valid_date(&d.value)
    {
        let span = Span::new(
            &page.file,
            d.referenced.line() as usize + 1,
            d.referenced.column() as usize,
        );
        diags.push(
            Diagnostic::error("bad-date", span, format!("`{}` is not a date", d.value))
                .with_hint("write dates as YYYY-MM-DD"),
        );
    }
}

/// The files (and folders) the build writes itself besides pages and figures, with what
/// each is, as `render` writes them (`model::view::own`).
fn built_files(ev: &Evidence, theme: &crate::load::Theme) -> Vec<(String, String)> {
    use crate::model::view::own;
    let config = ev.config.as_ref();
    let views = config.map_or(crate::model::view::View::DEFAULT, |c| c.views());
    let mut out = vec![
        (own::NOT_FOUND.to_string(), "the not-found page".to_string()),
        (own::EXPORT.to_string(), "the records as JSON".to_string()),
    ];
    if config.is_some_and(|c| c.base_url.is_some()) {
        out.push((own::SITEMAP.to_string(), "the sitemap".to_string()));
    }
    for view in views {
        let folder = view.path("index");
        if config.is_some_and(|c| c.history) {
            out.push((format!("{folder}{}", own::FEED), "a feed".to_string()));
        }
        if config.is_some_and(|c| c.search) {
            let search = format!("{}{}", own::SEARCH, view.name());
            out.push((search, "a folder of the search index".to_string()));
        }
    }
    for (name, f) in theme.under(own::STATIC) {
        let whose = if f.is_builtin() {
            "the built-in theme's"
        } else {
            "the site's"
        };
        let path = format!("{}{name}", own::STATIC);
        out.push((path.clone(), format!("{whose} static file `{path}`")));
    }
    out
}

/// A page may not be written where the build writes a file of its own, nor inside one:
/// `content/evidence.json.md` makes a folder `evidence.json/` that the export cannot be
/// written to.
fn own_files(ev: &Evidence, theme: &crate::load::Theme, diags: &mut Diagnostics) {
    let built = built_files(ev, theme);
    let views = ev
        .config
        .as_ref()
        .map_or(crate::model::view::View::DEFAULT, |c| c.views());
    for page in &ev.pages {
        for view in views {
            let file = view.file(&page.id);
            let taken = built
                .iter()
                .find(|(path, _)| file == *path || file.starts_with(&format!("{path}/")));
            if let Some((path, what)) = taken {
                diags.push(
                    Diagnostic::error(
                        "page-collision",
                        Span::new(&page.file, 1, 1),
                        format!(
                            "page `{}` would be written at `{file}`, in the place of `{path}`, \
                             {what}, which the build writes itself",
                            page.id
                        ),
                    )
                    .with_hint("rename or move the page"),
                );
                break;
            }
        }
    }
}

/// A page may not take the folder of a language's view (`content/de.md` on a site with a
/// German view would be written where the German home page goes).
fn language_folder(ev: &Evidence, page: &PageSource, diags: &mut Diagnostics) {
    let langs = ev.languages();
    if langs.len() < 2 || page.generated {
        return;
    }
    let first = page.id.split('/').next().unwrap_or_default();
    if let Some(lang) = langs.iter().find(|l| l.code() == first) {
        diags.push(
            Diagnostic::error(
                "page-path",
                Span::file(&page.file),
                format!(
                    "page `{}` would be written into `{lang}/`, the folder of the {lang} view",
                    page.id
                ),
            )
            .with_hint("rename or move the page"),
        );
    }
}

fn block_pairs(page: &PageSource, langs: &[Lang], diags: &mut Diagnostics) {
    for group in page.block_groups() {
        let Some(first) = group.first() else { continue };
        let missing: Vec<&str> = langs
            .iter()
            .filter(|l| !group.iter().any(|b| b.lang == **l))
            .map(|l| l.code())
            .collect();
        // The site's order, so the leading language comes first and its translations after.
        let order: Vec<usize> = group
            .iter()
            .filter_map(|b| langs.iter().position(|l| *l == b.lang))
            .collect();
        if missing.is_empty() && order.windows(2).any(|w| w[0] > w[1]) {
            let written: Vec<&str> = group.iter().map(|b| b.lang.code()).collect();
            diags.push(
                Diagnostic::error(
                    "block-order",
                    Span::new(&page.file, first.line, 1),
                    format!(
                        "these blocks are in the order {}; the site's languages are {}",
                        written.join(", "),
                        crate::model::lang::list_codes(langs)
                    ),
                )
                .with_hint("write a group's blocks in the order of `languages:` in evidence.yaml"),
            );
        }
        if !missing.is_empty() {
            let has: Vec<String> = group.iter().map(|b| format!("`{}`", b.lang)).collect();
            let add: Vec<String> = missing.iter().map(|m| format!("`:::{m}`")).collect();
            diags.push(
                Diagnostic::error(
                    "unpaired-block",
                    Span::new(&page.file, first.line, 1),
                    format!(
                        "this {} block has no {} translation next to it",
                        has.join(" + "),
                        missing.join(", ")
                    ),
                )
                .with_hint(format!(
                    "add {} right next to it, saying the same in that language",
                    add.join(" and ")
                )),
            );
        }
    }
}

fn directives(page: &PageSource, diags: &mut Diagnostics) {
    for item in &page.items {
        if let Item::Directive(d) = item
            && let Err(msg) = d.resolved()
        {
            diags.push(
                Diagnostic::error(
                    "directive",
                    Span::new(&page.file, d.line, 1),
                    msg.to_string(),
                )
                .with_hint("see docs/authoring.md for the directives and their attributes"),
            );
        }
    }
}

/// Every measurement a case records by name is one the site declares
/// (`measurements:` in `data/vocabulary.yaml`) or a pack the site turned on declares for
/// its probes, either of which gives it its label; told once per run and name, at the
/// first case that records it.
fn measurements(ev: &Evidence, diags: &mut Diagnostics) {
    for run in ev.runs.iter() {
        // Each name judged once per run, at the first case that records it: a run has
        // thousands of cases and a handful of names.
        let mut seen: Vec<&'static str> = Vec::new();
        for case in &run.cases {
            for name in case.measurements.keys() {
                if seen.contains(&name) {
                    continue;
                }
                seen.push(name);
                if !ev.is_missing(crate::model::refs::Kind::Measurement, name)
                    || ev.pack_measurement(name).is_some()
                {
                    continue;
                }
                diags.push(
                    Diagnostic::error(
                        "undeclared-measurement",
                        span_of(&run.file, &case.id),
                        format!(
                            "case `{}` records `{name}`, a measurement the site does not declare",
                            case.id.value
                        ),
                    )
                    .with_hint(format!(
                        "declare it with its labels in data/vocabulary.yaml: \
                         `measurements: [{{id: {name}, label: {{{}}}}}]`",
                        ev.languages()
                            .iter()
                            .map(|l| format!("{l}: …"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
            }
        }
    }
}

/// Every text a case records by name is one the site declares (`texts:` in
/// `data/vocabulary.yaml`), which gives it its label; told once per run and name, at the
/// first case that records it.
fn texts(ev: &Evidence, diags: &mut Diagnostics) {
    for run in ev.runs.iter() {
        let mut seen: Vec<&str> = Vec::new();
        for case in &run.cases {
            for name in case.text_names() {
                if seen.contains(&name) {
                    continue;
                }
                seen.push(name);
                if !ev.is_missing(crate::model::refs::Kind::TextField, name) {
                    continue;
                }
                diags.push(
                    Diagnostic::error(
                        "undeclared-text",
                        span_of(&run.file, &case.id),
                        format!(
                            "case `{}` records the text `{name}`, which the site does not declare",
                            case.id.value
                        ),
                    )
                    .with_hint(format!(
                        "declare it with its labels in data/vocabulary.yaml: \
                         `texts: [{{id: {name}, label: {{{}}}}}]`",
                        ev.languages()
                            .iter()
                            .map(|l| format!("{l}: …"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
            }
        }
    }
}

/// What is wrong with a declared probe file, judged without running it: its shape, and
/// the measurements, texts and engine it names against the site's vocabulary.
pub fn declared_probe(
    ev: &Evidence,
    p: &crate::model::Located<crate::model::probe_file::ProbeFile>,
) -> Vec<Diagnostic> {
    use crate::model::refs::Kind;
    let declared = |kind: &str, name: &str| {
        let kind = match kind {
            "measurement" => Kind::Measurement,
            "text" => Kind::TextField,
            _ => Kind::Engine,
        };
        !ev.is_missing(kind, name)
            || (kind == Kind::Measurement && ev.pack_measurement(name).is_some())
    };
    p.problems(&p.file, &declared)
}

/// Two declared probes never share a name: `evidence probe run NAME` runs one.
fn probe_names(ev: &Evidence, diags: &mut Diagnostics) {
    let mut seen = std::collections::HashMap::new();
    for p in &ev.probes {
        if let Some(first) = seen.insert(p.probe.value.as_str(), &p.file) {
            diags.push(Diagnostic::error(
                "probe-file",
                span_of(&p.file, &p.probe),
                format!("probe `{}` is declared in {first} too", p.probe.value),
            ));
        }
    }
}

/// A recorded human assessment must agree with the zone derived from the map it names.
/// A run assessed against a map that holds only for other subjects than the run's.
fn map_of_other_subjects(
    ev: &Evidence,
    run: &crate::model::Located<crate::model::Run>,
    map: &crate::model::DispatchMap,
    map_id: &crate::model::id::Id,
) -> Diagnostic {
    let of = ev
        .subject_record(run)
        .map_or_else(String::new, |s| s.id.value.clone());
    let holds: Vec<String> = map
        .for_subjects
        .iter()
        .map(|s| format!("`{}`", s.value))
        .collect();
    Diagnostic::error(
        "map-not-applicable",
        span_of(&run.file, map_id),
        format!(
            "run `{}` is of subject `{of}`, but map `{}` holds only for {}",
            run.id.value,
            map.id.value,
            holds.join(", ")
        ),
    )
    .with_hint(format!(
        "assess the run against a map for its subject, or add `{of}` to the map's `for_subjects:`"
    ))
}

fn assessments(ev: &Evidence, diags: &mut Diagnostics) {
    for run in ev.runs.iter() {
        let Some(map_id) = &run.assessed_against else {
            continue;
        };
        let Some(map) = ev.maps.get(&map_id.value) else {
            continue;
        };
        if !ev.map_applies(map, run) {
            diags.push(map_of_other_subjects(ev, run, map, map_id));
            continue;
        }
        let measure = map.measured_as();
        if !run.cases.is_empty() && run.cases.iter().all(|c| c.measurement(measure).is_none()) {
            diags.push(
                Diagnostic::error(
                    "unmeasured-variable",
                    span_of(&run.file, map_id),
                    format!(
                        "run `{}` is assessed against map `{}`, whose zones come from `{measure}`, \
                         but none of its cases measured `{measure}`",
                        run.id.value, map.id.value
                    ),
                )
                .with_hint(
                    "assess the run against a map over a measurement it has, or record the \
                     measurement in each case (`measurements: {name: value}`)",
                ),
            );
            continue;
        }
        for case in &run.cases {
            let Some(zone) = case.assessment.as_ref().and_then(|a| a.zone.as_ref()) else {
                continue;
            };
            // A reading kept in data/readings.yaml takes the place of this one.
            if ev.reading_of(&run.id.value, &case.id.value).is_some() {
                continue;
            }
            let Some(derived) = derive::case_zone(map, case) else {
                diags.push(Diagnostic::error(
                    "assessment",
                    span_of(&run.file, zone),
                    format!(
                        "case `{}` is assessed but recorded no `{}`, which map `{}` derives a zone from",
                        case.id.value, map.measured_as(), map.id.value
                    ),
                ));
                continue;
            };
            if derived != zone.value {
                diags.push(
                    Diagnostic::error(
                        "assessment",
                        span_of(&run.file, zone),
                        format!(
                            "case `{}` is assessed as `{}`, but {}",
                            case.id.value,
                            zone.value,
                            routes(map, case, derived)
                        ),
                    )
                    .with_hint(format!(
                        "if the map is wrong, correct it ({}); if the reading \
                         is, leave the run file as it is (runs are never rewritten) and record \
                         the reading in data/readings.yaml: `- {{id: …, run: {}, case: {}, \
                         zone: …, text: …}}`, which takes its place",
                        map.file, run.id.value, case.id.value
                    )),
                );
            }
        }
    }
}

/// A reading in data/readings.yaml names a zone its map derives for the case, and is the
/// only reading of that case.
fn readings(ev: &Evidence, diags: &mut Diagnostics) {
    let mut seen: std::collections::HashMap<(&str, &str), &str> = Default::default();
    for reading in ev.readings.iter() {
        let Some(case_id) = &reading.case else {
            if let Some(zone) = &reading.zone {
                diags.push(
                    Diagnostic::error(
                        "reading",
                        span_of(&reading.file, zone),
                        format!(
                            "reading `{}` names a zone but no case: a zone is read of one case",
                            reading.id.value
                        ),
                    )
                    .with_hint("add `case: <case id>`, or drop the zone"),
                );
            }
            continue;
        };
        let key = (reading.run.value.as_str(), case_id.value.as_str());
        if let Some(first) = seen.insert(key, &reading.id.value) {
            diags.push(
                Diagnostic::error(
                    "reading",
                    span_of(&reading.file, case_id),
                    format!(
                        "case `{}` of run `{}` already has the reading `{first}`",
                        key.1, key.0
                    ),
                )
                .with_hint("keep one reading per case: edit the first instead"),
            );
            continue;
        }
        let Some(zone) = &reading.zone else { continue };
        let Some(run) = ev.runs.get(&reading.run.value) else {
            continue;
        };
        let Some(case) = run.cases.iter().find(|c| c.id.value == case_id.value) else {
            continue;
        };
        let Some(map_id) = reading.map.as_ref().or(run.assessed_against.as_ref()) else {
            diags.push(
                Diagnostic::error(
                    "reading",
                    span_of(&reading.file, zone),
                    format!(
                        "reading `{}` names a zone, but neither it nor run `{}` names the map it \
                         was read against",
                        reading.id.value, run.id.value
                    ),
                )
                .with_hint("add `map: <map id>` to the reading"),
            );
            continue;
        };
        let Some(map) = ev.maps.get(&map_id.value) else {
            continue;
        };
        match derive::case_zone(map, case) {
            Some(derived) if derived == zone.value => {}
            derived => diags.push(
                Diagnostic::error(
                    "reading",
                    span_of(&reading.file, zone),
                    match derived {
                        Some(d) => format!(
                            "reading `{}` reads case `{}` as `{}`, but {}",
                            reading.id.value,
                            case.id.value,
                            zone.value,
                            routes(map, case, d)
                        ),
                        None => format!(
                            "reading `{}` names a zone, but case `{}` recorded no `{}`, which \
                             map `{}` derives zones from",
                            reading.id.value,
                            case.id.value,
                            map.measured_as(),
                            map.id.value
                        ),
                    },
                )
                .with_hint("correct the reading's zone, or the map if it is the map that is wrong"),
            ),
        }
    }
}

/// "map `m` routes n = 290 to `blas`": where the map sends what the case measured.
fn routes(map: &crate::model::DispatchMap, case: &crate::model::Case, to: &str) -> String {
    format!(
        "map `{}` routes {} = {} to `{to}`",
        map.id.value,
        map.variable,
        case.measurement(map.measured_as())
            .map(crate::model::format::Decimal)
            .map_or_else(String::new, |v| v.to_string())
    )
}

fn home_page(ev: &Evidence, diags: &mut Diagnostics) {
    // A home page that failed to parse is reported by its own error.
    if ev.page("index").is_none() && !ev.incomplete.contains(&crate::model::refs::Kind::Page) {
        diags.push(
            Diagnostic::error(
                "no-home",
                Span::file("content"),
                "the site has no home page",
            )
            .with_hint("add content/index.md"),
        );
    }
}

/// A site lists each view once.
fn views(ev: &Evidence, diags: &mut Diagnostics) {
    let Some(cfg) = &ev.config else { return };
    let mut seen = std::collections::BTreeSet::new();
    for v in &cfg.views {
        if !seen.insert(&v.value) {
            diags.push(
                Diagnostic::error(
                    "views",
                    crate::model::span_of("evidence.yaml", v),
                    format!("`{}` is listed twice in `views`", v.value),
                )
                .with_hint("list each view once: `interleaved` and the site's language tags"),
            );
        }
    }
}

/// `base_url` is an absolute http or https URL: it is written into every page's links
/// (the 404 page's, the alternates, the sitemap), so `javascript:…` there would run.
fn base_url(ev: &Evidence, diags: &mut Diagnostics) {
    let Some(base) = ev.config.as_ref().and_then(|c| c.base_url.as_ref()) else {
        return;
    };
    if let Err(msg) = crate::model::markup::base_url(&base.value) {
        diags.push(
            Diagnostic::error("base-url", span_of("evidence.yaml", base), msg.to_string())
                .with_hint(
                    "write the address the site is published at, e.g. \
                 `base_url: \"https://example.org/investigation/\"`, or leave it out",
                ),
        );
    }
}
