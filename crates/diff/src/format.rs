//! The report as terminal text, as a pull-request comment in markdown, or as JSON.
//!
//! Every format puts rewritten run records first, worded as the breach they are.

use super::report::*;
use super::rewrites::Rewrite;
use evidence_core::model::format::Decimal;
use std::fmt::Write as _;

/// Output formats of `evidence diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    Text,
    Markdown,
    Json,
    /// A review page, written to `--out DIR` as `index.html`.
    Html,
}

/// The stable JSON form (documented in the README).
pub fn json(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
    s.push('\n');
    s
}

/// Counts per kind, e.g. "1 claim moved, 1 run added, 2 case values changed".
pub fn summary(r: &Report) -> String {
    let moved = r.claims.iter().filter(|c| c.moved.is_some()).count();
    let other_claims = r.claims.len() - moved;
    let cases: usize = r.runs.latest.iter().map(|l| l.cases.len()).sum();
    // One flip is one (run, case, map), however many sections show it: a moved bound
    // flips a case of the latest run both under the map and under the run.
    let mut flips: std::collections::BTreeSet<(&str, &str, &str)> = Default::default();
    for l in &r.runs.latest {
        for c in &l.cases {
            for z in &c.zones {
                flips.insert((&l.head_run, &c.case, &z.map));
            }
        }
    }
    for m in &r.maps {
        for f in &m.flips {
            flips.insert((&f.run, &f.case, &m.id));
        }
    }
    let zone_flips = flips.len();
    // An added record is no changed one: each is counted as what happened to it.
    let records = |c: Change| r.records.iter().filter(|x| x.change == c).count();
    let drift = r.texts.iter().filter(|t| t.drift).count()
        + r.records.iter().map(|x| x.drift.len()).sum::<usize>()
        + r.claims.iter().map(|c| c.drift.len()).sum::<usize>();
    let parts: Vec<String> = [
        (
            r.rewrites.len(),
            "run record rewritten",
            "run records rewritten",
        ),
        (
            moved,
            "claim moved between cannot-show and can-show",
            "claims moved between cannot-show and can-show",
        ),
        (other_claims, "other claim change", "other claim changes"),
        (r.runs.added.len(), "run added", "runs added"),
        (r.runs.removed.len(), "run removed", "runs removed"),
        (
            cases,
            "case changed in the latest runs",
            "cases changed in the latest runs",
        ),
        (zone_flips, "derived zone flipped", "derived zones flipped"),
        (
            r.maps.len(),
            "dispatch map changed",
            "dispatch maps changed",
        ),
        (records(Change::Added), "record added", "records added"),
        (
            records(Change::Removed),
            "record removed",
            "records removed",
        ),
        (
            records(Change::Changed),
            "record changed",
            "records changed",
        ),
        (
            r.texts.len(),
            "prose block pair changed",
            "prose block pairs changed",
        ),
        (drift, "translation drift", "translation drifts"),
        (r.pages.added.len(), "page added", "pages added"),
        (r.pages.removed.len(), "page removed", "pages removed"),
        (
            r.git_attributes.len(),
            "git attributes file changed",
            "git attributes files changed",
        ),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
    .collect();
    if parts.is_empty() {
        "no evidence changes".into()
    } else {
        parts.join(", ")
    }
}

/// What a changed `.gitattributes` means for the review, as every format words it.
pub const ATTRIBUTES_READ_AS_COMMITTED: &str = "evidence reads every file as committed, so \
     this changes nothing it reads; it changes what `git archive` exports";

/// The rule a rewrite breaks, as every format words it.
pub const NEVER_REWRITTEN: &str = "run records are never rewritten: add a new run instead";

/// What a rewritten file became, e.g. "changed", "removed", "renamed to data/runs/x.yaml".
fn rewrite_word(w: &Rewrite) -> String {
    match (&w.renamed_to, w.change) {
        (Some(to), _) => format!("renamed to {to}"),
        (None, c) => change_word(c).to_string(),
    }
}

/// Why `--deny-rewrites` fails, naming each file; `None` when no run was rewritten.
pub fn rewrites_refusal(r: &Report) -> Option<String> {
    if r.rewrites.is_empty() {
        return None;
    }
    let files: Vec<String> = r
        .rewrites
        .iter()
        .map(|w| {
            let at = w.line.map(|l| format!(":{l}")).unwrap_or_default();
            format!("  {}{at} (run {}) {}", w.file, w.run, rewrite_word(w))
        })
        .collect();
    Some(format!("{NEVER_REWRITTEN}\n{}", files.join("\n")))
}

fn opt(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("—")
}

/// A value of `d` with its unit; a duration in ns in seconds, as the site shows it.
pub(super) fn value(d: &ValueDelta, v: Option<Decimal>) -> String {
    let Some(x) = v else { return "—".into() };
    with_unit(x, d.unit.as_deref())
}

/// `x` with its unit; a duration in ns in seconds, as the site shows it.
pub(super) fn with_unit(x: Decimal, unit: Option<&str>) -> String {
    match unit {
        Some("ns") if x.0.fract() == 0.0 => {
            let s = evidence_core::model::format::seconds(x.0.abs() as u64);
            if x.0 < 0.0 { format!("-{s}") } else { s }
        }
        Some(u) => format!("{x} {u}"),
        None => x.to_string(),
    }
}

/// The change with its unit and, where the old value was positive, in percent:
/// `+0.0100 s, +44.8 %`.
pub(super) fn delta(d: &ValueDelta) -> String {
    let Some(x) = d.delta else {
        return String::new();
    };
    let shown = value(d, Some(Decimal(x.0.abs())));
    let mut out = if shown_as_zero(d, x) {
        format!("±{shown}")
    } else {
        format!("{}{shown}", if x.0 > 0.0 { "+" } else { "-" })
    };
    if let Some(p) = d.percent {
        let psign = if p.0 > 0.0 { "+" } else { "" };
        out.push_str(&format!(", {psign}{p} %"));
    }
    out
}

/// Whether the change `x` shows as zero: none at all, or a duration under the half of a
/// tenth of a millisecond that seconds are shown to (`±0 s`, never `-0 s`).
fn shown_as_zero(d: &ValueDelta, x: Decimal) -> bool {
    x.0 == 0.0 || (d.unit.as_deref() == Some("ns") && x.0.abs() < 50_000.0)
}

/// `s` on one line, cut to at most `n` characters at a word boundary (a number such as
/// `0.005` is one word), with `…` where it was cut; a single word longer than `n` is cut
/// inside, as nothing else would fit.
pub(super) fn short(s: &str, n: usize) -> String {
    use unicode_segmentation::UnicodeSegmentation;
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= n {
        return flat;
    }
    let mut kept = String::new();
    let mut used = 0;
    for w in flat.split_word_bounds() {
        let len = w.chars().count();
        if used + len > n {
            break;
        }
        kept.push_str(w);
        used += len;
    }
    let kept = kept.trim_end();
    if kept.is_empty() {
        format!("{}…", flat.chars().take(n).collect::<String>())
    } else {
        format!("{kept}…")
    }
}

/// `s` on one line, whole.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The colours of the terminal text (anstyle, as clap's own): green added, red removed,
/// bold for a move or a breach, yellow for a flip or drift.
mod colour {
    use anstyle::{AnsiColor, Style};
    pub const ADDED: Style = AnsiColor::Green.on_default();
    pub const REMOVED: Style = AnsiColor::Red.on_default();
    pub const MOVED: Style = AnsiColor::Green.on_default().bold();
    pub const BREACH: Style = AnsiColor::Red.on_default().bold();
    pub const DRIFT: Style = AnsiColor::Yellow.on_default();
    pub const FLIP: Style = AnsiColor::Yellow.on_default().bold();
}

/// Styles a piece of terminal text: wraps it in the style's ANSI codes, or leaves it plain.
type Paint<'a> = dyn Fn(anstyle::Style, String) -> String + 'a;

/// Terminal text; `color` adds ANSI colours for added / removed / moved.
pub fn text(r: &Report, color: bool) -> String {
    let paint = |style: anstyle::Style, s: String| {
        if color {
            format!("{style}{s}{style:#}")
        } else {
            s
        }
    };
    let mut o = String::new();
    let _ = writeln!(o, "evidence diff {} → {}", r.base, r.head);
    let _ = writeln!(o, "{}", summary(r));
    rewrites_text(&mut o, r, &paint);
    git_attributes_text(&mut o, r);
    claims_text(&mut o, r, &paint);
    runs_text(&mut o, r, &paint);
    maps_text(&mut o, r);
    records_text(&mut o, r);
    prose_text(&mut o, r, &paint);
    pages_text(&mut o, r);
    reread_text(&mut o, r);
    o
}

/// The `.gitattributes` entries that changed, read as committed.
fn git_attributes_text(o: &mut String, r: &Report) {
    if r.git_attributes.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nGit attributes — {ATTRIBUTES_READ_AS_COMMITTED}");
    for a in &r.git_attributes {
        change_line(o, a.change, &a.path);
    }
}

/// The claims added, removed, changed or moved, each with its field changes.
fn claims_text(o: &mut String, r: &Report, paint: &Paint<'_>) {
    if r.claims.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nClaims");
    for c in &r.claims {
        if let Some(m) = &c.moved {
            let _ = writeln!(
                o,
                "{}",
                paint(
                    colour::MOVED,
                    format!(
                        "  ⇄ {} ({}) moved {}: \"{}\"",
                        c.id,
                        c.page,
                        m.direction,
                        flat(m.text.reading())
                    )
                )
            );
            if let Some(was) = reworded(m) {
                let _ = writeln!(o, "      was: \"{}\"", flat(was.reading()));
            }
            if m.from_claim != c.id {
                let _ = writeln!(o, "      from claim {}", m.from_claim);
            }
            if !m.evidence_added.is_empty() {
                let _ = writeln!(o, "      evidence added: {}", m.evidence_added.join(", "));
            }
            if m.constraint_before != m.constraint_after {
                let _ = writeln!(
                    o,
                    "      constraint: {} → {}",
                    opt(&m.constraint_before),
                    opt(&m.constraint_after)
                );
            }
        } else {
            let sign = match c.change {
                Change::Added => paint(colour::ADDED, "  +".into()),
                Change::Removed => paint(colour::REMOVED, "  -".into()),
                Change::Changed => "  ~".into(),
            };
            let _ = writeln!(o, "{sign} {} ({}) {}", c.id, c.page, change_word(c.change));
        }
        fields_text(o, &c.fields, &c.drift);
    }
}

/// The dispatch maps that changed, with the cases whose zone flips.
fn maps_text(o: &mut String, r: &Report) {
    if r.maps.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nDispatch maps");
    for m in &r.maps {
        change_line(o, m.change, &m.id);
        fields_text(o, &m.fields, &[]);
        for f in &m.flips {
            let _ = writeln!(
                o,
                "      flips {}/{} ({} = {}): {} → {}{}",
                f.run,
                f.case,
                m.variable,
                f.value,
                r.labels.zone(&f.old),
                r.labels.zone(&f.new),
                assessed_note(&f.assessed_against)
            );
        }
    }
}

/// The records of other kinds that changed, with their field changes.
fn records_text(o: &mut String, r: &Report) {
    if r.records.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nRecords");
    for x in &r.records {
        change_line(o, x.change, format_args!("{}:{}", x.kind, x.id));
        fields_text(o, &x.fields, &x.drift);
    }
}

/// The prose pairs that changed, with each language's edit and any translation drift.
fn prose_text(o: &mut String, r: &Report, paint: &Paint<'_>) {
    if r.texts.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nProse");
    for t in &r.texts {
        let flag = if t.drift {
            paint(
                colour::DRIFT,
                format!("  translation drift: only {} changed", t.langs.join("")),
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "  {} {} pair {} ({}){flag}",
            sign_of(t.change),
            t.page,
            t.pair,
            t.langs.join("+")
        );
        for e in &t.edits {
            let _ = writeln!(
                o,
                "      {}: {}",
                e.lang,
                edit_text(e.old.as_deref(), e.new.as_deref())
            );
        }
    }
}

/// The pages added and removed.
fn pages_text(o: &mut String, r: &Report) {
    for (title, list, sign) in [
        ("Pages added", &r.pages.added, "+"),
        ("Pages removed", &r.pages.removed, "-"),
    ] {
        if !list.is_empty() {
            let _ = writeln!(o, "\n{title}");
            for p in list {
                let _ = writeln!(o, "  {sign} {p}");
            }
        }
    }
}

/// What a reviewer should read again, and where an old bound is still written.
fn reread_text(o: &mut String, r: &Report) {
    if r.reread.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nTo re-read");
    for x in &r.reread {
        let _ = writeln!(o, "  {} {}", x.changed, x.why());
        if !x.cited_by.is_empty() {
            let _ = writeln!(o, "      cited or shown by: {}", x.cited_by.join(", "));
        }
        for n in &x.numbers {
            let _ = writeln!(
                o,
                "      the old bound {} is still written in {}",
                n.number, n.place
            );
        }
    }
}

/// The run records rewritten since they were recorded, which a run never should be.
fn rewrites_text(o: &mut String, r: &Report, paint: &Paint<'_>) {
    if r.rewrites.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "{}",
        paint(
            colour::BREACH,
            format!("\nRun records rewritten — {NEVER_REWRITTEN}")
        )
    );
    for w in &r.rewrites {
        let line = format!("  ! {} (run {}) {}", w.file, w.run, rewrite_word(w));
        let _ = writeln!(o, "{}", paint(colour::REMOVED, line));
        if w.change == Change::Changed && w.fields.is_empty() {
            let _ = writeln!(
                o,
                "      its text changed; no recorded value differs (a comment or the layout)"
            );
        }
        fields_text(o, &w.fields, &[]);
    }
}

/// A run as a reviewer needs to place it: "probe p, engine e, <what it served, as
/// recorded>, subject s, date, <environment as recorded>". The subject and the date come
/// before the environment: they tell a comparison from evidence, and a long environment
/// must not push them out of sight.
pub(super) fn run_line(x: &RunRef) -> String {
    run_fields(x).join(", ")
}

/// The fields of [`run_line`], each whole.
fn run_fields(x: &RunRef) -> Vec<String> {
    let mut parts = vec![x.probe.clone(), format!("engine {}", x.engine)];
    parts.extend(x.served.iter().map(|(k, v)| format!("{k} {v}")));
    if let Some(s) = &x.subject {
        parts.push(format!("subject {s}"));
    }
    parts.push(x.date.clone().unwrap_or_else(|| "date unknown".into()));
    parts.extend(x.environment.iter().map(|(k, v)| format!("{k} {v}")));
    parts
}

/// The most of a new run's line the comment shows before it leaves out whole fields of
/// the environment (a run may record dozens).
const RUN_LINE_ROOM: usize = 320;

/// [`run_line`] for the comment: every field whole; past [`RUN_LINE_ROOM`] characters the
/// environment's last fields are left out and counted, never cut in the middle.
fn run_line_capped(x: &RunRef) -> String {
    let parts = run_fields(x);
    let fixed = parts.len() - x.environment.len();
    let mut line = parts[..fixed].join(", ");
    let mut left = 0;
    for p in &parts[fixed..] {
        if left == 0 && line.chars().count() + 2 + p.chars().count() <= RUN_LINE_ROOM {
            line.push_str(", ");
            line.push_str(p);
        } else {
            left += 1;
        }
    }
    if left > 0 {
        let _ = write!(line, " and {left} more environment fields");
    }
    line
}

/// An added run's case values, "exec_ms 0.25, rows 1,055" (medians of a
/// repeated case).
pub(super) fn case_values(c: &CaseShown, labels: &Labels) -> String {
    c.values
        .iter()
        .map(|m| {
            let v = with_unit(m.value, m.unit.as_deref());
            format!("{} {v}", labels.measurement(&m.field))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// An added run's case zones, "planner: index_scan, other: seq_scan".
pub(super) fn case_zones(c: &CaseShown, labels: &Labels) -> String {
    c.zones
        .iter()
        .map(|z| format!("{}: {}", z.map, labels.zone(&Some(z.zone.clone()))))
        .collect::<Vec<_>>()
        .join(", ")
}

/// " (median of 3)" after a repeated case of an added run.
pub(super) fn repeats(c: &CaseShown) -> String {
    c.repeats
        .map(|n| format!(" (median of {n})"))
        .unwrap_or_default()
}

/// "3 cases" and, where the site has one, the run's page.
pub(super) fn shown_head(s: &RunShown) -> String {
    let cases = match s.case_count {
        1 => "1 case".to_string(),
        n => format!("{n} cases"),
    };
    match (&s.url, &s.page) {
        (Some(u), _) => format!("{cases}; page {u}"),
        (None, Some(p)) => format!("{cases}; page {p}"),
        (None, None) => cases,
    }
}

/// Text lines under an added run: its note, case count and page, then each case.
fn shown_text(o: &mut String, s: &RunShown, labels: &Labels) {
    if let Some(n) = &s.note {
        let _ = writeln!(o, "      note: {}", short(n, 200));
    }
    let _ = writeln!(o, "      {}", shown_head(s));
    for c in &s.cases {
        let zones = case_zones(c, labels);
        let zones = if zones.is_empty() {
            String::new()
        } else {
            format!("; zone {zones}")
        };
        let _ = writeln!(
            o,
            "      {}{}: {}{zones}",
            c.case,
            repeats(c),
            case_values(c, labels)
        );
    }
}

/// An added run's id for the comment, linked to its page on the site (when the site
/// declares its `base_url`) or else to its entry on the review page (`--link`).
fn run_link(x: &RunRef, link: Option<&str>) -> String {
    let url = x
        .shown
        .as_ref()
        .and_then(|s| s.url.clone())
        .or_else(|| link.map(|l| format!("{l}#run-{}", x.id)));
    match url {
        Some(u) => format!("[`{}`](<{u}>)", x.id),
        None => format!("`{}`", x.id),
    }
}

/// An added run's note, case count and a table of its cases' values and zones, under its
/// id (`linked`, as [`run_link`] gives it).
fn shown_markdown(o: &mut String, linked: &str, s: &RunShown, labels: &Labels) {
    let _ = writeln!(o, "\nNew run {linked}: {}\n", cell(&shown_head(s)));
    if let Some(n) = &s.note {
        let _ = writeln!(
            o,
            "> {}
",
            cell(n)
        );
    }
    if s.cases.is_empty() {
        return;
    }
    let _ = writeln!(o, "| case | values | zones |\n|---|---|---|");
    for c in &s.cases {
        let _ = writeln!(
            o,
            "| `{}`{} | {} | {} |",
            c.case,
            repeats(c),
            escape_cell(&case_values(c, labels)),
            escape_cell(&case_zones(c, labels))
        );
    }
}

/// "r1 → r2", or "r1 (the same run; what is derived from it changed)" when the latest
/// run did not change; `quote` wraps the ids for markdown.
pub(super) fn run_pair(l: &LatestChange, quote: &str) -> String {
    // A recorded value that differs means the run file itself was rewritten.
    let rewritten = l.cases.iter().any(|c| !c.values.is_empty())
        || !l.cases_added.is_empty()
        || !l.cases_dropped.is_empty();
    if l.base_run == l.head_run && rewritten {
        format!(
            "{quote}{}{quote} (the same run; its recorded values were rewritten)",
            l.base_run
        )
    } else if l.base_run == l.head_run {
        format!(
            "{quote}{}{quote} (the same run; what is derived from it changed)",
            l.base_run
        )
    } else {
        format!(
            "{quote}{}{quote} → {quote}{}{quote}",
            l.base_run, l.head_run
        )
    }
}

/// "cases added: a, b" and "cases dropped: c" of a latest-run comparison, each when any;
/// `quote` wraps the keys.
pub(super) fn cases_added_dropped(l: &LatestChange, quote: &str) -> Vec<(&'static str, String)> {
    let keys = |ks: &[String]| {
        ks.iter()
            .map(|k| format!("{quote}{k}{quote}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = Vec::new();
    if !l.cases_added.is_empty() {
        out.push(("added", keys(&l.cases_added)));
    }
    if !l.cases_dropped.is_empty() {
        out.push(("dropped", keys(&l.cases_dropped)));
    }
    out
}

/// " (the run was assessed against M)" after a zone a run was not assessed against.
pub(super) fn assessed_note(assessed_against: &Option<String>) -> String {
    assessed_against
        .as_ref()
        .map(|m| format!(" (the run was assessed against {m})"))
        .unwrap_or_default()
}

/// " (median of 3 → 5)" after a repeated case's key.
pub(super) fn medians(c: &CaseChange) -> String {
    match c.repeats {
        Some([a, b]) if a == b => format!(" (median of {a})"),
        Some([a, b]) => format!(" (median of {a} → {b})"),
        None => String::new(),
    }
}

/// The runs added and removed, and how each probe's latest run moved.
fn runs_text(o: &mut String, r: &Report, paint: &Paint<'_>) {
    if r.runs.added.is_empty() && r.runs.removed.is_empty() && r.runs.latest.is_empty() {
        return;
    }
    let _ = writeln!(o, "\nRuns");
    for x in &r.runs.added {
        let _ = writeln!(
            o,
            "{}",
            paint(colour::ADDED, format!("  + {} ({})", x.id, run_line(x)))
        );
        if let Some(s) = &x.shown {
            shown_text(o, s, &r.labels);
        }
    }
    for x in &r.runs.removed {
        let _ = writeln!(
            o,
            "{}",
            paint(colour::REMOVED, format!("  - {} ({})", x.id, x.probe))
        );
    }
    for l in &r.runs.latest {
        let _ = writeln!(o, "  latest {}: {}", l.probe, run_pair(l, ""));
        for (what, keys) in cases_added_dropped(l, "") {
            let _ = writeln!(o, "      cases {what}: {keys}");
        }
        for c in &l.cases {
            for v in &c.values {
                // A value that appears or goes has no difference to show.
                let d = match v.delta {
                    Some(_) => format!(" ({})", delta(v)),
                    None => String::new(),
                };
                let _ = writeln!(
                    o,
                    "      {}{} {}: {} → {}{d}",
                    c.case,
                    medians(c),
                    r.labels.measurement(&v.field),
                    value(v, v.old),
                    value(v, v.new),
                );
            }
            for z in &c.zones {
                let _ = writeln!(
                    o,
                    "{}",
                    paint(
                        colour::FLIP,
                        format!(
                            "      {} zone under {}: {} → {}{}",
                            c.case,
                            z.map,
                            r.labels.zone(&z.old),
                            r.labels.zone(&z.new),
                            assessed_note(&z.assessed_against)
                        )
                    )
                );
            }
        }
    }
}

/// Whether a value reads as prose (compared word by word) rather than as a token: long,
/// or more than a couple of words (a Japanese phrase is a word per character).
fn is_prose(s: &str) -> bool {
    use unicode_segmentation::UnicodeSegmentation;
    s.chars().count() > 24 || s.split_word_bounds().nth(2).is_some()
}

/// A value's change for a terminal: prose as the words that changed (`[-old-]{+new+}`),
/// anything else as `old → new`.
fn change_text(old: Option<&str>, new: Option<&str>) -> String {
    match (old, new) {
        (Some(a), Some(b)) if is_prose(a) || is_prose(b) => super::words::inline_text(a, b),
        _ => format!(
            "{} → {}",
            short(old.unwrap_or("—"), 60),
            short(new.unwrap_or("—"), 60)
        ),
    }
}

/// A block's change for a terminal: its words, or the block added or removed (cut short).
fn edit_text(old: Option<&str>, new: Option<&str>) -> String {
    match (old, new) {
        (Some(a), Some(b)) => super::words::inline_text(a, b),
        (a, b) => short(a.or(b).unwrap_or_default(), 120),
    }
}

/// A value's change for a markdown table cell: prose with `<del>`/`<ins>`, anything else
/// as `old → new`.
fn change_md(old: Option<&str>, new: Option<&str>) -> String {
    match (old, new) {
        (Some(a), Some(b)) if is_prose(a) || is_prose(b) => super::words::inline_markdown(a, b),
        _ => format!(
            "{} → {}",
            cell(old.unwrap_or("—")),
            cell(new.unwrap_or("—"))
        ),
    }
}

fn fields_text(o: &mut String, fields: &[FieldChange], drift: &[Drift]) {
    for f in fields {
        let _ = writeln!(
            o,
            "      {}: {}",
            f.path,
            change_text(f.old.as_deref(), f.new.as_deref())
        );
    }
    for d in drift {
        let _ = writeln!(
            o,
            "      translation drift: {} changed only in {}",
            d.path, d.changed
        );
    }
}

/// One changed thing's line: its sign, its name and what happened to it.
fn change_line(o: &mut String, change: Change, name: impl std::fmt::Display) {
    let _ = writeln!(o, "  {} {name} {}", sign_of(change), change_word(change));
}

fn sign_of(c: Change) -> &'static str {
    match c {
        Change::Added => "+",
        Change::Removed => "-",
        Change::Changed => "~",
    }
}

pub(super) fn change_word(c: Change) -> &'static str {
    match c {
        Change::Added => "added",
        Change::Removed => "removed",
        Change::Changed => "changed",
    }
}

/// Markdown cells: pipes and newlines would break the table.
fn cell(s: &str) -> String {
    escape_cell(&short(s, 120))
}

/// `s` safe in a table cell, whole.
fn escape_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('<', "&lt;")
}

/// How many new runs the comment lists above its folded sections; the rest are listed in
/// the Probe runs section.
const NEW_RUNS_LISTED: usize = 10;

/// A pull-request comment: a summary line, then collapsible sections per kind.
pub fn markdown(r: &Report) -> String {
    markdown_linked(r, None)
}

/// `link` as an http(s) URL a comment may link to (`--link`), or why not.
pub fn review_link(link: &str) -> Result<String, LinkError> {
    let url = url::Url::parse(link).map_err(|why| LinkError::NotUrl {
        link: link.to_string(),
        why,
    })?;
    match url.scheme() {
        "http" | "https" => Ok(url.to_string()),
        other => Err(LinkError::NotHttp {
            link: link.to_string(),
            scheme: other.to_string(),
        }),
    }
}

/// Why `--link` is no link a comment may carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// It does not parse as a URL.
    NotUrl { link: String, why: url::ParseError },
    /// A URL of another scheme than http(s).
    NotHttp { link: String, scheme: String },
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::NotUrl { link, why } => write!(f, "`{link}` is not a URL: {why}"),
            LinkError::NotHttp { link, scheme } => {
                write!(f, "`{link}` is a {scheme}: URL; give an http(s) one")
            }
        }
    }
}

impl std::error::Error for LinkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LinkError::NotUrl { why, .. } => Some(why),
            LinkError::NotHttp { .. } => None,
        }
    }
}

/// The comment, with a link to the review page (`link`, checked by [`review_link`])
/// under its summary.
pub fn markdown_linked(r: &Report, link: Option<&str>) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "### Evidence diff `{}` → `{}`\n", r.base, r.head);
    let _ = writeln!(o, "**{}**\n", summary(r));
    if let Some(url) = link {
        let _ = writeln!(
            o,
            "[Review page](<{url}>): every change side by side, words marked.\n"
        );
    }
    added_runs_markdown(&mut o, r, link);
    attributes_markdown(&mut o, r);
    rewrites_markdown(&mut o, r);
    claims_markdown(&mut o, r);
    runs_markdown(&mut o, r, link);
    maps_markdown(&mut o, r);
    records_markdown(&mut o, r);
    prose_markdown(&mut o, r);
    reread_markdown(&mut o, r);
    pages_markdown(&mut o, r);
    o
}

/// The first new runs, one line each: whose evidence they are, in sight before any folded
/// section.
fn added_runs_markdown(o: &mut String, r: &Report, link: Option<&str>) {
    if r.runs.added.is_empty() {
        return;
    }
    for x in r.runs.added.iter().take(NEW_RUNS_LISTED) {
        let _ = writeln!(
            o,
            "- new run {}: {}",
            run_link(x, link),
            escape_cell(&run_line_capped(x))
        );
    }
    if r.runs.added.len() > NEW_RUNS_LISTED {
        let _ = writeln!(
            o,
            "- … and {} more (see Probe runs below)",
            r.runs.added.len() - NEW_RUNS_LISTED
        );
    }
    o.push('\n');
}

/// The `.gitattributes` files that changed, each with how the diff reads the files.
fn attributes_markdown(o: &mut String, r: &Report) {
    for a in &r.git_attributes {
        let _ = writeln!(
            o,
            "- `{}` {}: {ATTRIBUTES_READ_AS_COMMITTED}",
            a.path,
            change_word(a.change)
        );
    }
    if !r.git_attributes.is_empty() {
        o.push('\n');
    }
}

/// The claims that changed, one table row each.
fn claims_markdown(o: &mut String, r: &Report) {
    if r.claims.is_empty() {
        return;
    }
    section(o, "Claims", r.claims.len(), |o| {
        let _ = writeln!(o, "| claim | page | change | detail |\n|---|---|---|---|");
        for c in &r.claims {
            let (what, detail) = match &c.moved {
                Some(m) => (format!("**moved {}**", m.direction), moved_detail(m, &c.id)),
                None => (change_word(c.change).to_string(), fields_detail(&c.fields)),
            };
            let _ = writeln!(o, "| `{}` | {} | {what} | {detail} |", c.id, c.page);
        }
    });
}

/// A moved claim's cell: its wording old → new, the claim it came from when another, the
/// evidence added, and its constraint only when that moved.
fn moved_detail(m: &Move, id: &str) -> String {
    let from = if m.from_claim == id {
        String::new()
    } else {
        format!(" (from `{}`)", m.from_claim)
    };
    let added = if m.evidence_added.is_empty() {
        "none".into()
    } else {
        m.evidence_added
            .iter()
            .map(|e| format!("`{e}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // An unchanged constraint is no change: said only when it moved.
    let constraint = if m.constraint_before == m.constraint_after {
        String::new()
    } else {
        format!(
            "; constraint: {} → {}",
            opt(&m.constraint_before),
            opt(&m.constraint_after)
        )
    };
    format!(
        "{}{from}; evidence added: {added}{constraint}",
        moved_wording(m)
    )
}

/// Each changed field with the words that changed, one per line of a cell.
fn fields_detail(fields: &[FieldChange]) -> String {
    fields
        .iter()
        .map(|f| {
            format!(
                "`{}`: {}",
                f.path,
                change_md(f.old.as_deref(), f.new.as_deref())
            )
        })
        .collect::<Vec<_>>()
        .join("<br>")
}

/// How many runs the Probe runs section names, each once (a new run is often also the
/// latest).
fn runs_named(rc: &RunsChange) -> usize {
    rc.added
        .iter()
        .chain(&rc.removed)
        .map(|x| x.id.as_str())
        .chain(
            rc.latest
                .iter()
                .flat_map(|l| [l.base_run.as_str(), l.head_run.as_str()]),
        )
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// The Probe runs section: the new runs not listed above, each new run's cases, the runs
/// removed, and each probe's latest run compared.
fn runs_markdown(o: &mut String, r: &Report, link: Option<&str>) {
    if r.runs.added.is_empty() && r.runs.removed.is_empty() && r.runs.latest.is_empty() {
        return;
    }
    section(o, "Probe runs", runs_named(&r.runs), |o| {
        // The runs listed above the sections are not listed again, word for word.
        for x in r.runs.added.iter().skip(NEW_RUNS_LISTED) {
            let _ = writeln!(
                o,
                "- added {} ({})",
                run_link(x, link),
                escape_cell(&run_line_capped(x))
            );
        }
        for x in &r.runs.added {
            if let Some(s) = &x.shown {
                shown_markdown(o, &run_link(x, link), s, &r.labels);
            }
        }
        for x in &r.runs.removed {
            let _ = writeln!(o, "- removed `{}` ({})", x.id, x.probe);
        }
        for l in &r.runs.latest {
            latest_markdown(o, l, &r.labels);
        }
    });
}

/// A probe's latest run against the base's: the cases added and dropped, then each common
/// case's values and zone flips in a table.
fn latest_markdown(o: &mut String, l: &LatestChange, labels: &Labels) {
    let _ = writeln!(o, "\nLatest `{}`: {}\n", l.probe, run_pair(l, "`"));
    let changed: Vec<String> = cases_added_dropped(l, "`")
        .into_iter()
        .map(|(what, keys)| format!("{what}: {keys}"))
        .collect();
    if !changed.is_empty() {
        let _ = writeln!(o, "Cases {}\n", changed.join("; "));
    }
    if l.cases.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "| case | field | old | new | Δ |\n|---|---|---:|---:|---:|"
    );
    for c in &l.cases {
        for v in &c.values {
            let _ = writeln!(
                o,
                "| `{}`{} | {} | {} | {} | {} |",
                c.case,
                medians(c),
                escape_cell(labels.measurement(&v.field)),
                value(v, v.old),
                value(v, v.new),
                delta(v)
            );
        }
        for z in &c.zones {
            let _ = writeln!(
                o,
                "| `{}` | **zone** under {} | {} | {} | flipped{} |",
                c.case,
                z.map,
                escape_cell(labels.zone(&z.old)),
                escape_cell(labels.zone(&z.new)),
                assessed_note(&z.assessed_against)
            );
        }
    }
}

/// The maps that changed: each changed field and each zone flip.
fn maps_markdown(o: &mut String, r: &Report) {
    if r.maps.is_empty() {
        return;
    }
    section(o, "Dispatch maps", r.maps.len(), |o| {
        for m in &r.maps {
            let _ = writeln!(o, "- `{}` {}", m.id, change_word(m.change));
            for f in &m.fields {
                let _ = writeln!(
                    o,
                    "  - `{}`: {}",
                    f.path,
                    change_md(f.old.as_deref(), f.new.as_deref())
                );
            }
            for f in &m.flips {
                let _ = writeln!(
                    o,
                    "  - flips `{}`/`{}` ({} = {}): {} → {}{}",
                    f.run,
                    f.case,
                    m.variable,
                    f.value,
                    escape_cell(r.labels.zone(&f.old)),
                    escape_cell(r.labels.zone(&f.new)),
                    assessed_note(&f.assessed_against)
                );
            }
        }
    });
}

/// The other records that changed, one table row per field, with translation drift.
fn records_markdown(o: &mut String, r: &Report) {
    if r.records.is_empty() {
        return;
    }
    section(o, "Records", r.records.len(), |o| {
        let _ = writeln!(o, "| record | field | change |\n|---|---|---|");
        for x in &r.records {
            if x.fields.is_empty() {
                let _ = writeln!(
                    o,
                    "| `{}:{}` | *{}* | |",
                    x.kind,
                    x.id,
                    change_word(x.change)
                );
            }
            for f in &x.fields {
                let _ = writeln!(
                    o,
                    "| `{}:{}` | `{}` | {} |",
                    x.kind,
                    x.id,
                    f.path,
                    change_md(f.old.as_deref(), f.new.as_deref())
                );
            }
            for d in &x.drift {
                let _ = writeln!(
                    o,
                    "| `{}:{}` | `{}` | ⚠ translation drift: only {} changed |",
                    x.kind, x.id, d.path, d.changed
                );
            }
        }
    });
}

/// The pages' prose that changed: each group, flagged when only one language changed, and
/// its edits with the words marked.
fn prose_markdown(o: &mut String, r: &Report) {
    if r.texts.is_empty() {
        return;
    }
    section(o, "Prose", r.texts.len(), |o| {
        for t in &r.texts {
            let flag = if t.drift {
                format!(
                    " — ⚠ **translation drift**: only {} changed",
                    t.langs.join("")
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                o,
                "- `{}` pair {} {} ({}){flag}",
                t.page,
                t.pair,
                change_word(t.change),
                t.langs.join("+")
            );
            for e in &t.edits {
                let text = match (&e.old, &e.new) {
                    (Some(a), Some(b)) => super::words::inline_markdown(a, b),
                    (a, b) => cell(a.as_deref().or(b.as_deref()).unwrap_or_default()),
                };
                let _ = writeln!(o, "  - {}: {text}", e.lang);
            }
        }
    });
}

/// What to re-read: each change with the places that cite it and the old bounds still
/// written.
fn reread_markdown(o: &mut String, r: &Report) {
    if r.reread.is_empty() {
        return;
    }
    section(o, "To re-read", r.reread.len(), |o| {
        for x in &r.reread {
            let _ = writeln!(o, "- `{}` {}", x.changed, x.why());
            if !x.cited_by.is_empty() {
                let cited: Vec<String> = x.cited_by.iter().map(|c| format!("`{c}`")).collect();
                let _ = writeln!(
                    o,
                    "  - cited or shown by {}: check their wording",
                    cited.join(", ")
                );
            }
            for n in &x.numbers {
                let _ = writeln!(
                    o,
                    "  - the old bound **{}** is still written in `{}`",
                    n.number, n.place
                );
            }
        }
    });
}

/// The pages added and removed.
fn pages_markdown(o: &mut String, r: &Report) {
    if r.pages.added.is_empty() && r.pages.removed.is_empty() {
        return;
    }
    section(
        o,
        "Pages",
        r.pages.added.len() + r.pages.removed.len(),
        |o| {
            for p in &r.pages.added {
                let _ = writeln!(o, "- added `{p}`");
            }
            for p in &r.pages.removed {
                let _ = writeln!(o, "- removed `{p}`");
            }
        },
    );
}

/// A moved claim's wording before, when it differs from its wording now (a text moved
/// word for word is said once).
pub(super) fn reworded(m: &Move) -> Option<&evidence_core::model::Text> {
    m.text_before
        .as_ref()
        .filter(|was| flat(was.reading()) != flat(m.text.reading()))
}

/// A moved claim's text for a table cell, whole: “old” → “new”, or “new” alone when the
/// old wording is unknown.
fn moved_wording(m: &Move) -> String {
    let new = escape_cell(&flat(m.text.reading()));
    match reworded(m) {
        Some(was) => format!("“{}” → “{new}”", escape_cell(&flat(was.reading()))),
        None => format!("“{new}”"),
    }
}

/// Not folded away: a rewrite fails the review, so the comment shows it open.
fn rewrites_markdown(o: &mut String, r: &Report) {
    if r.rewrites.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "> [!CAUTION]\n> **Run records rewritten ({})**: {NEVER_REWRITTEN}.\n",
        r.rewrites.len()
    );
    for w in &r.rewrites {
        let what = match &w.renamed_to {
            Some(to) => format!("renamed to `{to}`"),
            None => change_word(w.change).to_string(),
        };
        let _ = writeln!(o, "- `{}` (run `{}`) {what}", w.file, w.run);
        if w.change == Change::Changed && w.fields.is_empty() {
            let _ = writeln!(
                o,
                "  - its text changed; no recorded value differs (a comment or the layout)"
            );
        }
        for f in &w.fields {
            let _ = writeln!(
                o,
                "  - `{}`: {}",
                f.path,
                change_md(f.old.as_deref(), f.new.as_deref())
            );
        }
    }
    o.push('\n');
}

/// The most a pull-request comment may hold: GitHub refuses a body over 65,536 characters.
pub const COMMENT_LIMIT: usize = 65_536;

/// `markdown` cut to at most `limit` characters (not bytes: GitHub counts characters).
/// What comes before the first folded section (the title, the summary, the new runs, the
/// rewrites) is kept whole; then each folded section keeps as many of its lines as fit its
/// share, ends with a line that says how many were cut and where the full report is, and
/// is closed, so the markdown stays well formed.
pub fn capped(markdown: &str, limit: usize) -> String {
    let count = |s: &str| s.chars().count();
    if count(markdown) <= limit {
        return markdown.to_string();
    }
    let (head, rest) = match markdown.find("<details>") {
        Some(i) => markdown.split_at(i),
        None => (markdown, ""),
    };
    let sections: Vec<&str> = rest
        .split_inclusive("</details>\n")
        .filter(|s| !s.trim().is_empty())
        .collect();
    // Room for each section's frame and pointer line, then the lines share what is left.
    const POINTER: usize = 160;
    let budget = limit.saturating_sub(count(head) + sections.len() * (POINTER + 40));
    let share = budget / sections.len().max(1);
    let mut out = head.to_string();
    for s in sections {
        if count(s) <= share {
            out.push_str(s);
            continue;
        }
        let lines: Vec<&str> = s.lines().collect();
        // The opening `<details><summary>…` line and the blank after it always stay.
        let mut kept = String::new();
        let mut used = 0;
        let mut cut = 0;
        for (i, line) in lines.iter().enumerate() {
            if line.trim() == "</details>" {
                continue;
            }
            let n = count(line) + 1;
            if i < 2 || (cut == 0 && used + n <= share) {
                kept.push_str(line);
                kept.push('\n');
                used += n;
            } else {
                cut += 1;
            }
        }
        out.push_str(&kept);
        out.push_str(&format!(
            "\n*… {cut} more lines cut to keep the comment under GitHub's limit: \
             `evidence diff --format text` shows them all.*\n\n</details>\n\n"
        ));
    }
    // A head alone over the limit (thousands of new runs) is cut last, at a line.
    if count(&out) > limit {
        let mut cut: String = String::new();
        let mut used = 0;
        for line in out.lines() {
            used += count(line) + 1;
            if used + 200 > limit {
                cut.push_str("\n*… cut to keep the comment under GitHub's limit: `evidence diff --format text` shows everything.*\n");
                break;
            }
            cut.push_str(line);
            cut.push('\n');
        }
        return cut;
    }
    out
}

fn section(o: &mut String, title: &str, n: usize, body: impl FnOnce(&mut String)) {
    let _ = writeln!(o, "<details><summary>{title} ({n})</summary>\n");
    body(o);
    let _ = writeln!(o, "\n</details>\n");
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
