//! The review page: a report as one self-contained HTML file (`evidence diff --format html
//! --out DIR`), styled like the built-in theme, with no script and no request.
//!
//! What a reviewer reads in the comment, laid out to be read side by side: each changed
//! text before and after, the words removed and inserted marked (`<del>`, `<ins>`), each
//! value with its change, the zones a map change flips, and every translation that fell
//! behind in one list for the translator.

use super::format::{
    ATTRIBUTES_READ_AS_COMMITTED, case_values, case_zones, cases_added_dropped, change_word, delta,
    medians, repeats, run_line, run_pair, shown_head, summary, value,
};
use super::report::*;
use super::words::{Piece, pieces};
use pulldown_cmark_escape::{escape_html, escape_html_body_text};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The page's own rules, after the built-in theme's stylesheet (the theme has no
/// `del`/`ins`).
const PAGE_CSS: &str = "
main{max-width:72rem}
.wrap{overflow-x:auto;margin:0 0 1.5rem}
table{border-collapse:collapse;width:100%}
td{overflow-wrap:anywhere}
td.field{overflow-wrap:normal;white-space:nowrap}
th,td{border:1px solid var(--rule,#d8dee4);padding:.35rem .5rem;vertical-align:top;text-align:left}
th{background:var(--surface,#f6f8fa)}
td.num{text-align:right;font-variant-numeric:tabular-nums}
del{background:var(--red-bg,#fdeced);color:var(--red,#a3202e);text-decoration:line-through}
ins{background:var(--green-bg,#e3f5e7);color:var(--green,#1a6b32);text-decoration:underline}
.caution{border-left:4px solid var(--red,#a3202e);padding:.25rem 1rem;background:var(--red-bg,#fdeced)}
.drift{color:var(--yellow,#7a5200)}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem;margin:0 0 1.5rem}
.map-side{margin:0}
.map-side figcaption{font-weight:600;margin:0 0 .25rem}
";

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let _ = escape_html_body_text(&mut out, s);
    out
}

/// `s` escaped, with its inline code (`` `x` ``) as `<code>x</code>`: texts quoted from
/// data are markdown, and a reviewer should read them as the site shows them.
fn rich(s: &str) -> String {
    code_spans(&esc(s))
}

/// Escaped HTML with each pair of backticks turned into a `<code>` element, when the
/// markup between them is only whole `<del>`/`<ins>` marks (a change inside the code);
/// a backtick that pairs with none stays as it is.
fn code_spans(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let close = after
            .find('`')
            .filter(|&c| c > 0 && marks_balanced(&after[..c]));
        let Some(close) = close else {
            out.push_str(&rest[..=open]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..open]);
        let _ = write!(out, "<code>{}</code>", &after[..close]);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Whether `html` holds no tag but `<del>`, `<ins>` and their ends, each opened before it
/// is closed and none left open.
fn marks_balanced(html: &str) -> bool {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        let tail = &rest[i..];
        let tag = ["<del>", "</del>", "<ins>", "</ins>"]
            .into_iter()
            .find(|t| tail.starts_with(t));
        match tag {
            Some(t) if t.starts_with("</") => {
                if open.pop() != Some(&t[2..5]) {
                    return false;
                }
            }
            Some(t) => open.push(&t[1..4]),
            None => return false,
        }
        rest = &tail[tag.map_or(1, str::len)..];
    }
    open.is_empty()
}

fn attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let _ = escape_html(&mut out, s);
    out
}

/// The language of a field path ending in one of the site's languages (`can.ja` → `ja`),
/// for `lang`; any other last segment (`file`, `search`, `prs` in `repo#17156`) is none.
fn lang_of<'a>(path: &str, langs: &'a [String]) -> Option<&'a str> {
    let last = path.rsplit('.').next()?;
    langs.iter().find(|l| *l == last).map(String::as_str)
}

/// Two cells, before and after: the words removed marked in the first, those inserted in
/// the second; a value that is not prose as it is.
fn sides(old: Option<&str>, new: Option<&str>, lang: Option<&str>) -> (String, String) {
    let l = lang
        .map(|l| format!(" lang=\"{}\"", attr(l)))
        .unwrap_or_default();
    let cell = |s: String| format!("<td{l}>{}</td>", code_spans(&s));
    match (old, new) {
        (Some(a), Some(b)) => {
            let (mut before, mut after) = (String::new(), String::new());
            for p in pieces(a, b) {
                match p {
                    Piece::Same(s) => {
                        before.push_str(&esc(&s));
                        after.push_str(&esc(&s));
                    }
                    Piece::Del(s) => {
                        let _ = write!(before, "<del>{}</del>", esc(&s));
                    }
                    Piece::Ins(s) => {
                        let _ = write!(after, "<ins>{}</ins>", esc(&s));
                    }
                }
            }
            (cell(before), cell(after))
        }
        (a, b) => (
            cell(a.map(esc).unwrap_or_else(|| "—".into())),
            cell(b.map(esc).unwrap_or_else(|| "—".into())),
        ),
    }
}

fn field_rows(o: &mut String, head: &str, fields: &[FieldChange], langs: &[String]) {
    for f in fields {
        let (a, b) = sides(f.old.as_deref(), f.new.as_deref(), lang_of(&f.path, langs));
        let _ = writeln!(
            o,
            "<tr><th scope=\"row\">{head}</th><td class=\"field\"><code>{}</code></td>{a}{b}</tr>",
            esc(&f.path)
        );
    }
}

fn section(o: &mut String, id: &str, title: &str, n: usize, body: impl FnOnce(&mut String)) {
    let _ = writeln!(
        o,
        "<section aria-labelledby=\"{id}\"><h2 id=\"{id}\">{title} ({n})</h2>"
    );
    body(o);
    o.push_str("</section>\n");
}

const FIELD_HEAD: &str = "<thead><tr><th scope=\"col\">Record</th><th scope=\"col\">Field</th><th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead>";

/// The built-in theme's stylesheet, as `build` writes it (`load::theme::BUILTIN`).
fn theme_css() -> &'static str {
    evidence_core::load::theme::BUILTIN
        .iter()
        .find(|(path, _)| *path == "static/style.css")
        .and_then(|(_, bytes)| std::str::from_utf8(bytes).ok())
        .unwrap_or_default()
}

/// The report as a page.
pub fn html(r: &Report) -> String {
    let mut o = String::new();
    page_head(&mut o, r);
    added_runs_list(&mut o, r);
    attributes_list(&mut o, r);
    rewrites_section(&mut o, r);
    claims_section(&mut o, r);
    runs(&mut o, r);
    maps_section(&mut o, r);
    records_section(&mut o, r);
    prose_section(&mut o, r);
    drift(&mut o, r);
    reread_section(&mut o, r);
    pages_section(&mut o, r);
    o.push_str("</main>\n</body>\n</html>\n");
    tables_scroll_in_boxes(&o)
}

/// `page` with each table in a box of its own that scrolls when the table is wide, not the
/// page: focusable, so the keyboard can scroll it, and so a region named by the table's
/// caption (a focusable box without a name is read out as nothing).
fn tables_scroll_in_boxes(page: &str) -> String {
    let mut out = String::with_capacity(page.len() + 4096);
    let mut pieces = page.split("<table><caption>");
    out.push_str(pieces.next().unwrap_or_default());
    for (n, piece) in pieces.enumerate() {
        let _ = write!(
            out,
            "<div class=\"wrap\" tabindex=\"0\" role=\"region\" aria-labelledby=\"table-{n}\">\
             <table><caption id=\"table-{n}\">{piece}"
        );
    }
    out.replace("</table>", "</table></div>")
}

/// The document's head with its styles, the page's heading and the summary line.
fn page_head(o: &mut String, r: &Report) {
    let title = format!("Evidence diff {} → {}", r.base, r.head);
    let _ = write!(
        o,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         {GENERATOR}\n<title>{}</title>\n\
         <style>{}{PAGE_CSS}</style>\n</head>\n<body>\n<main>\n\
         <h1>Evidence diff <code>{}</code> → <code>{}</code></h1>\n<p><strong>{}</strong></p>\n",
        esc(&title),
        theme_css(),
        esc(&r.base),
        esc(&r.head),
        esc(&summary(r))
    );
}

/// The new runs, one line each, in sight under the summary.
fn added_runs_list(o: &mut String, r: &Report) {
    if r.runs.added.is_empty() {
        return;
    }
    o.push_str("<ul>\n");
    for x in &r.runs.added {
        let _ = writeln!(
            o,
            "<li>new run <code>{}</code>: {}</li>",
            esc(&x.id),
            esc(&run_line(x))
        );
    }
    o.push_str("</ul>\n");
}

/// The `.gitattributes` files that changed, each with how the diff reads the files.
fn attributes_list(o: &mut String, r: &Report) {
    if r.git_attributes.is_empty() {
        return;
    }
    o.push_str("<ul>\n");
    for a in &r.git_attributes {
        let _ = writeln!(
            o,
            "<li><code>{}</code> {}: {}</li>",
            esc(&a.path),
            change_word(a.change),
            rich(ATTRIBUTES_READ_AS_COMMITTED)
        );
    }
    o.push_str("</ul>\n");
}

/// The run records rewritten, set apart as a caution: each file, then the fields that
/// changed in it.
fn rewrites_section(o: &mut String, r: &Report) {
    if r.rewrites.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "<section class=\"caution\" aria-labelledby=\"rewrites\"><h2 id=\"rewrites\">Run \
         records rewritten ({})</h2><p>Run records are never rewritten: add a new run \
         instead.</p><ul>",
        r.rewrites.len()
    );
    for w in &r.rewrites {
        let what = match &w.renamed_to {
            Some(to) => format!("renamed to <code>{}</code>", esc(to)),
            None => change_word(w.change).to_string(),
        };
        let _ = writeln!(
            o,
            "<li><code>{}</code> (run <code>{}</code>) {what}</li>",
            esc(&w.file),
            esc(&w.run)
        );
    }
    o.push_str("</ul>");
    if r.rewrites.iter().any(|w| !w.fields.is_empty()) {
        let _ = writeln!(
            o,
            "<table><caption>Rewritten run records, field by field</caption>{FIELD_HEAD}<tbody>"
        );
        for w in &r.rewrites {
            field_rows(
                o,
                &format!("<code>{}</code>", esc(&w.file)),
                &w.fields,
                &r.languages,
            );
        }
        o.push_str("</tbody></table>");
    }
    o.push_str("</section>\n");
}

/// The claims that changed: a moved claim's wording and evidence, else each changed field.
fn claims_section(o: &mut String, r: &Report) {
    if r.claims.is_empty() {
        return;
    }
    section(o, "claims", "Claims", r.claims.len(), |o| {
        let _ = writeln!(
            o,
            "<table><caption>Claims, field by field</caption>{FIELD_HEAD}<tbody>"
        );
        for c in &r.claims {
            let head = format!(
                "<code>{}</code> ({}) {}",
                esc(&c.id),
                esc(&c.page),
                change_word(c.change)
            );
            if let Some(m) = &c.moved {
                moved_row(o, &head, &c.id, m);
            } else if c.fields.is_empty() {
                let _ = writeln!(
                    o,
                    "<tr><th scope=\"row\">{head}</th><td></td><td></td><td></td></tr>"
                );
            }
            field_rows(o, &head, &c.fields, &r.languages);
        }
        o.push_str("</tbody></table>\n");
    });
}

/// The decision maps that changed, each with its fields, its figure before and after, and
/// the zones the change flips.
fn maps_section(o: &mut String, r: &Report) {
    if r.maps.is_empty() {
        return;
    }
    section(o, "maps", "Decision maps", r.maps.len(), |o| {
        for m in &r.maps {
            map_change(o, m, r);
        }
    });
}

/// One map's change: its heading, changed fields, figures, flips and flipped runs' plots.
fn map_change(o: &mut String, m: &MapChange, r: &Report) {
    let _ = writeln!(
        o,
        "<h3><code>{}</code> {}</h3>",
        esc(&m.id),
        change_word(m.change)
    );
    if !m.fields.is_empty() {
        let _ = writeln!(
            o,
            "<table><caption>Fields of <code>{}</code></caption>{FIELD_HEAD}<tbody>",
            esc(&m.id)
        );
        field_rows(
            o,
            &format!("<code>{}</code>", esc(&m.id)),
            &m.fields,
            &r.languages,
        );
        o.push_str("</tbody></table>\n");
    }
    if m.before_svg.is_some() || m.after_svg.is_some() {
        o.push_str("<div class=\"sides\">\n");
        before_after_figures(o, &m.before_svg, &m.after_svg);
        o.push_str("</div>\n");
    }
    flips_table(o, m, &r.labels);
    for p in &m.flip_plots {
        let _ = writeln!(
            o,
            "<h4>Run <code>{}</code> over the map's zones</h4>\n<div class=\"sides\">",
            esc(&p.run)
        );
        before_after_figures(o, &p.before, &p.after);
        o.push_str("</div>\n");
    }
}

/// Two figures side by side, before and after; a missing side as a dash.
fn before_after_figures(o: &mut String, before: &Option<String>, after: &Option<String>) {
    for (side, svg) in [("Before", before), ("After", after)] {
        let _ = writeln!(
            o,
            "<figure class=\"map-side\"><figcaption>{side}</figcaption>{}</figure>",
            svg.as_deref().unwrap_or("<p class=\"none\">—</p>")
        );
    }
}

/// The table of the runs' cases whose zone a map change flips.
fn flips_table(o: &mut String, m: &MapChange, labels: &Labels) {
    if m.flips.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "<table><caption>Zones the change flips</caption><thead><tr>\
         <th scope=\"col\">Run</th><th scope=\"col\">Case</th>\
         <th scope=\"col\">{}</th><th scope=\"col\">Before</th>\
         <th scope=\"col\">After</th></tr></thead><tbody>",
        esc(&m.variable)
    );
    for f in &m.flips {
        let _ = writeln!(
            o,
            "<tr><td><code>{}</code></td><th scope=\"row\"><code>{}</code></th>\
             <td class=\"num\">{}</td><td><del>{}</del></td><td><ins>{}</ins>{}</td></tr>",
            esc(&f.run),
            esc(&f.case),
            f.value,
            esc(labels.zone(&f.old)),
            esc(labels.zone(&f.new)),
            assessed_html(&f.assessed_against)
        );
    }
    o.push_str("</tbody></table>\n");
}

/// The other records that changed, field by field.
fn records_section(o: &mut String, r: &Report) {
    if r.records.is_empty() {
        return;
    }
    section(o, "records", "Records", r.records.len(), |o| {
        let _ = writeln!(
            o,
            "<table><caption>Records, field by field</caption>{FIELD_HEAD}<tbody>"
        );
        for x in &r.records {
            let head = format!("<code>{}:{}</code>", esc(&x.kind), esc(&x.id));
            if x.fields.is_empty() {
                let _ = writeln!(
                    o,
                    "<tr><th scope=\"row\">{head}</th><td><em>{}</em></td><td></td><td></td></tr>",
                    change_word(x.change)
                );
            }
            field_rows(o, &head, &x.fields, &r.languages);
        }
        o.push_str("</tbody></table>\n");
    });
}

/// The pages' prose that changed, each edit before and after in its language.
fn prose_section(o: &mut String, r: &Report) {
    if r.texts.is_empty() {
        return;
    }
    section(o, "prose", "Prose", r.texts.len(), |o| {
        let _ = writeln!(
            o,
            "<table><caption>Prose, paragraph by paragraph</caption><thead><tr><th scope=\"col\">Page, group</th><th scope=\"col\">Language</th>\
             <th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead><tbody>"
        );
        for t in &r.texts {
            let head = format!(
                "<code>{}</code> {} {}",
                esc(&t.page),
                t.pair,
                change_word(t.change)
            );
            for e in &t.edits {
                let (a, b) = sides(e.old.as_deref(), e.new.as_deref(), Some(e.lang));
                let _ = writeln!(
                    o,
                    "<tr><th scope=\"row\">{head}</th><td>{}</td>{a}{b}</tr>",
                    esc(e.lang)
                );
            }
        }
        o.push_str("</tbody></table>\n");
    });
}

/// What to re-read: each change with the places that cite it and the old bounds still
/// written.
fn reread_section(o: &mut String, r: &Report) {
    if r.reread.is_empty() {
        return;
    }
    section(o, "reread", "To re-read", r.reread.len(), |o| {
        o.push_str("<ul>\n");
        for x in &r.reread {
            reread_item(o, x);
        }
        o.push_str("</ul>\n");
    });
}

/// One item of the re-read list.
fn reread_item(o: &mut String, x: &super::reread::Reread) {
    let _ = write!(
        o,
        "<li><code>{}</code> {}<ul>",
        esc(&x.changed),
        esc(&x.why())
    );
    if !x.cited_by.is_empty() {
        let cited: Vec<String> = x
            .cited_by
            .iter()
            .map(|c| format!("<code>{}</code>", esc(c)))
            .collect();
        let _ = write!(
            o,
            "<li>cited or shown by {}: check their wording</li>",
            cited.join(", ")
        );
    }
    for n in &x.numbers {
        let _ = write!(
            o,
            "<li>the old bound <strong>{}</strong> is still written in <code>{}</code></li>",
            esc(&n.number),
            esc(&n.place)
        );
    }
    o.push_str("</ul></li>\n");
}

/// The pages added and removed.
fn pages_section(o: &mut String, r: &Report) {
    let pages = r.pages.added.len() + r.pages.removed.len();
    if pages == 0 {
        return;
    }
    section(o, "pages", "Pages", pages, |o| {
        o.push_str("<ul>\n");
        for p in &r.pages.added {
            let _ = writeln!(o, "<li>added <code>{}</code></li>", esc(p));
        }
        for p in &r.pages.removed {
            let _ = writeln!(o, "<li>removed <code>{}</code></li>", esc(p));
        }
        o.push_str("</ul>\n");
    });
}

/// " (the run was assessed against <code>M</code>)" after a zone of another map.
fn assessed_html(assessed_against: &Option<String>) -> String {
    assessed_against
        .as_ref()
        .map(|m| format!(" (the run was assessed against <code>{}</code>)", esc(m)))
        .unwrap_or_default()
}

/// A text in each of its languages, each marked with its `lang`.
fn each_language(t: &evidence_core::model::Text) -> String {
    t.iter()
        .map(|(l, s)| format!("<span lang=\"{}\">{}</span>", attr(l.code()), rich(s)))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// A moved claim's row: its wording before and after, where it came from when another
/// claim, the evidence it added, and its constraint only when that changed.
fn moved_row(o: &mut String, head: &str, id: &str, m: &Move) {
    let mut before = super::format::reworded(m)
        .map(each_language)
        .unwrap_or_else(|| "the same words".to_string());
    let mut after = each_language(&m.text);
    if m.from_claim != id {
        let _ = write!(before, " (in <code>{}</code>)", esc(&m.from_claim));
    }
    let added: Vec<String> = m
        .evidence_added
        .iter()
        .map(|e| format!("<code>{}</code>", esc(e)))
        .collect();
    let _ = write!(
        after,
        "; evidence added: {}",
        if added.is_empty() {
            "none".to_string()
        } else {
            added.join(", ")
        }
    );
    if m.constraint_before != m.constraint_after {
        let or_none = |c: &Option<String>| esc(c.as_deref().unwrap_or("—"));
        let _ = write!(before, "; constraint {}", or_none(&m.constraint_before));
        let _ = write!(after, "; constraint {}", or_none(&m.constraint_after));
    }
    let _ = writeln!(
        o,
        "<tr><th scope=\"row\">{head}</th><td class=\"field\"><strong>moved {}</strong></td>\
         <td>{before}</td><td>{after}</td></tr>",
        esc(m.direction)
    );
}

fn runs(o: &mut String, r: &Report) {
    let rc = &r.runs;
    if rc.added.is_empty() && rc.removed.is_empty() && rc.latest.is_empty() {
        return;
    }
    let n = rc.added.len() + rc.removed.len() + rc.latest.len();
    section(o, "runs", "Probe runs", n, |o| {
        o.push_str("<ul>\n");
        for x in &rc.added {
            let _ = writeln!(
                o,
                "<li id=\"run-{}\">added <code>{}</code> ({})</li>",
                attr(&x.id),
                esc(&x.id),
                esc(&run_line(x))
            );
        }
        for x in &rc.removed {
            let _ = writeln!(
                o,
                "<li>removed <code>{}</code> ({})</li>",
                esc(&x.id),
                esc(&x.probe)
            );
        }
        o.push_str("</ul>\n");
        for x in &rc.added {
            if let Some(s) = &x.shown {
                run_shown(o, &x.id, s, &r.labels);
            }
        }
        for l in &rc.latest {
            let changed: Vec<String> = cases_added_dropped(l, "")
                .into_iter()
                .map(|(what, keys)| {
                    let keys: Vec<String> = keys
                        .split(", ")
                        .map(|k| format!("<code>{}</code>", esc(k)))
                        .collect();
                    format!("{what}: {}", keys.join(", "))
                })
                .collect();
            if !changed.is_empty() {
                let _ = writeln!(
                    o,
                    "<p>Latest <code>{}</code>: {}. Cases {}</p>",
                    esc(&l.probe),
                    esc(&run_pair(l, "")),
                    changed.join("; ")
                );
            }
            let _ = writeln!(
                o,
                "<table><caption>Latest <code>{}</code>: {}</caption><thead><tr>\
                 <th scope=\"col\">Case</th><th scope=\"col\">Measurement</th>\
                 <th scope=\"col\">Before</th><th scope=\"col\">After</th>\
                 <th scope=\"col\">Change</th></tr></thead><tbody>",
                esc(&l.probe),
                esc(&run_pair(l, ""))
            );
            for c in &l.cases {
                let case = format!("<code>{}</code>{}", esc(&c.case), esc(&medians(c)));
                for v in &c.values {
                    let _ = writeln!(
                        o,
                        "<tr><th scope=\"row\">{case}</th><td>{}</td><td class=\"num\">{}</td>\
                         <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                        esc(r.labels.measurement(&v.field)),
                        esc(&value(v, v.old)),
                        esc(&value(v, v.new)),
                        esc(&delta(v))
                    );
                }
                for z in &c.zones {
                    let _ = writeln!(
                        o,
                        "<tr><th scope=\"row\">{case}</th><td><strong>zone</strong> under \
                         <code>{}</code></td><td><del>{}</del></td><td><ins>{}</ins></td>\
                         <td>flipped{}</td></tr>",
                        esc(&z.map),
                        esc(r.labels.zone(&z.old)),
                        esc(r.labels.zone(&z.new)),
                        assessed_html(&z.assessed_against)
                    );
                }
            }
            o.push_str("</tbody></table>\n");
        }
    });
}

/// An added run's note, case count, page link and a table of its cases.
fn run_shown(o: &mut String, id: &str, s: &RunShown, labels: &Labels) {
    let page = match &s.url {
        Some(u) => format!(" (<a href=\"{}\">its page</a>)", attr(u)),
        None => String::new(),
    };
    let _ = writeln!(
        o,
        "<table><caption>New run <code>{}</code>: {}{page}</caption><thead><tr>\
         <th scope=\"col\">Case</th><th scope=\"col\">Values</th>\
         <th scope=\"col\">Zones</th></tr></thead><tbody>",
        esc(id),
        esc(&shown_head(s))
    );
    for c in &s.cases {
        let _ = writeln!(
            o,
            "<tr><th scope=\"row\"><code>{}</code>{}</th><td>{}</td><td>{}</td></tr>",
            esc(&c.case),
            esc(&repeats(c)),
            esc(&case_values(c, labels)),
            esc(&case_zones(c, labels))
        );
    }
    o.push_str("</tbody></table>\n");
    if let Some(n) = &s.note {
        let _ = writeln!(o, "<p>Note on <code>{}</code>: {}</p>", esc(id), rich(n));
    }
}

/// Every text that changed in one language only, in one list for the translator.
fn drift(o: &mut String, r: &Report) {
    let mut items: Vec<String> = Vec::new();
    for c in &r.claims {
        items.extend(c.drift.iter().map(|d| {
            format!(
                "claim <code>{}</code> <code>{}</code>: only {} changed",
                esc(&c.id),
                esc(&d.path),
                esc(d.changed)
            )
        }));
    }
    for x in &r.records {
        items.extend(x.drift.iter().map(|d| {
            format!(
                "<code>{}:{}</code> <code>{}</code>: only {} changed",
                esc(&x.kind),
                esc(&x.id),
                esc(&d.path),
                esc(d.changed)
            )
        }));
    }
    for t in r.texts.iter().filter(|t| t.drift) {
        items.push(format!(
            "page <code>{}</code> group {}: only {} changed",
            esc(&t.page),
            t.pair,
            esc(&t.langs.join(", "))
        ));
    }
    if items.is_empty() {
        return;
    }
    section(o, "drift", "Translation drift", items.len(), |o| {
        o.push_str("<ul class=\"drift\">\n");
        for i in items {
            let _ = writeln!(o, "<li>{i}</li>");
        }
        o.push_str("</ul>\n");
    });
}

/// The page's mark, by which a later run knows an `index.html` as one it wrote.
const GENERATOR: &str = "<meta name=\"generator\" content=\"evidence diff\">";

/// Writes `page` to `dir/index.html`, whole or not at all; refuses to replace an
/// `index.html` this command did not write.
pub fn write_page(dir: &Path, page: &str) -> Result<PathBuf, PageError> {
    use std::io::Write as _;
    let target = dir.join("index.html");
    let failed = |path: &Path, step: Step| {
        let path = path.to_path_buf();
        move |source| PageError::Io { step, path, source }
    };
    match std::fs::read(&target) {
        Ok(old) if !String::from_utf8_lossy(&old).contains(GENERATOR) => {
            return Err(PageError::NotOurs(target));
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(failed(&target, Step::Read)(e)),
    }
    std::fs::create_dir_all(dir).map_err(failed(dir, Step::Create))?;
    // Readable as the site's files are: 0666 less the umask (tempfile's own default, 0600,
    // would hide the page from the web server that publishes it).
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(failed(dir, Step::WriteIn))?;
    tmp.write_all(page.as_bytes())
        .map_err(failed(&target, Step::Write))?;
    tmp.persist(&target)
        .map_err(|e| failed(&target, Step::Write)(e.error))?;
    Ok(target)
}

/// Why the review page was not written.
#[derive(Debug)]
pub enum PageError {
    /// An `index.html` is there that this command did not write: it is left alone.
    NotOurs(PathBuf),
    /// Reading, making or writing `path` failed.
    Io {
        step: Step,
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What [`write_page`] was doing with a path when the system refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Reading the `index.html` there, to know whose it is.
    Read,
    /// Making the folder.
    Create,
    /// Making a temporary file in the folder.
    WriteIn,
    /// Writing the page.
    Write,
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageError::NotOurs(target) => write!(
                f,
                "{} exists and was not written by `evidence diff`; choose another --out",
                target.display()
            ),
            PageError::Io { step, path, source } => {
                let verb = match step {
                    Step::Read => "cannot read",
                    Step::Create => "cannot create",
                    Step::WriteIn => "cannot write in",
                    Step::Write => "cannot write",
                };
                write!(f, "{verb} {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for PageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PageError::NotOurs(_) => None,
            PageError::Io { source, .. } => Some(source),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PageError, Step, code_spans};
    use std::path::PathBuf;

    #[test]
    fn a_page_error_names_the_path_and_what_failed() {
        let refused = PageError::NotOurs(PathBuf::from("out/index.html"));
        assert_eq!(
            refused.to_string(),
            "out/index.html exists and was not written by `evidence diff`; choose another --out"
        );
        let denied = PageError::Io {
            step: Step::WriteIn,
            path: PathBuf::from("out"),
            source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied"),
        };
        assert_eq!(denied.to_string(), "cannot write in out: denied");
    }

    #[test]
    fn inline_code_is_rendered_and_a_lone_backtick_kept() {
        assert_eq!(
            code_spans("Ran `EXPLAIN` twice"),
            "Ran <code>EXPLAIN</code> twice"
        );
        // A change inside the code stays inside it.
        assert_eq!(
            code_spans("`EXPLAIN (<del>ANALYZE</del><ins>BUFFERS</ins>)`"),
            "<code>EXPLAIN (<del>ANALYZE</del><ins>BUFFERS</ins>)</code>"
        );
        // A mark that opens inside and closes outside cannot be nested: left as written.
        assert_eq!(code_spans("`a <del>b` c</del>"), "`a <del>b` c</del>");
        assert_eq!(code_spans("it`s"), "it`s");
    }
}
