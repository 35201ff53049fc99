//! Directive → tables. One file per group of directives; each builder reads typed records
//! and returns [`Table`]s resolved for the scope's view.

pub mod binary;
mod claims;
mod dispatch;
mod records;
mod runs;
mod worklog;

use super::escape;
use super::scope::Scope;
use super::table::Table;
use crate::model::directive::Directive;
use crate::model::refs::{Kind, Ref};

/// Builds the tables a directive embeds.
pub fn build(d: &Directive, s: &Scope) -> Vec<Table> {
    match d {
        Directive::Claims { page } => vec![claims::page_claims(s, page)],
        Directive::ClaimLedger => claims::ledger(s),
        Directive::Questions { status, page } => {
            vec![claims::questions(s, status.as_deref(), page.as_deref())]
        }
        Directive::Bundles { arch, ids } => vec![records::bundles(s, arch.as_deref(), ids)],
        Directive::Generations => vec![records::generations(s)],
        Directive::Components => vec![records::components(s)],
        Directive::Observers => vec![records::observers(s)],
        Directive::Glossary => vec![records::glossary(s)],
        Directive::Findings { ids } => vec![records::findings(s, ids)],
        Directive::TensorTypes => vec![records::tensor_types(s)],
        Directive::FatbinTargets => vec![binary::fatbin_targets(s)],
        Directive::TensorMix => vec![binary::tensor_mix(s)],
        Directive::FileTypes => vec![records::file_types(s)],
        Directive::Layers => vec![records::layers(s)],
        Directive::Plan => vec![records::plan(s)],
        Directive::Worklog => vec![worklog::worklog(s)],
        Directive::DispatchMap { id } => vec![dispatch::map(s, id)],
        Directive::DispatchCompare => vec![dispatch::compare(s)],
        Directive::Run { id } => runs::run(s, id),
        Directive::RunPage { id } => runs::page(s, id),
        Directive::LatestRun { probe } => runs::latest(s, probe),
        Directive::Runs => runs::index(s),
        // Figures are drawn by `render::figures`, not as tables.
        Directive::Figure(_) => Vec::new(),
    }
}

/// `<code>…</code>` of a plain string.
pub fn code(s: &str) -> String {
    format!("<code>{}</code>", escape(s))
}

/// A number with thousands separators, or the "unknown" label.
pub fn num(s: &Scope, n: Option<u64>) -> String {
    match n {
        Some(n) => group_digits(n),
        None => unknown(s),
    }
}

pub fn unknown(s: &Scope) -> String {
    format!("<span class=\"unknown\">{}</span>", s.ui("value-unknown"))
}

pub fn group_digits(n: u64) -> String {
    let mut out = String::new();
    write_digits(&mut out, n);
    out
}

/// [`group_digits`], appending to `out`.
pub fn write_digits(out: &mut String, n: u64) {
    write_padded(out, n, 0, true);
}

/// Writes `n` in decimal, at least `width` digits (zero-padded), with thousands
/// separators when `group`. By hand: `write!` was a tenth of rendering a sweep.
fn write_padded(out: &mut String, mut n: u64, width: usize, group: bool) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 && buf.len() - i >= width {
            break;
        }
    }
    let digits = &buf[i..];
    for (k, d) in digits.iter().enumerate() {
        if group && k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(char::from(*d));
    }
}

/// Nanoseconds as seconds with up to four decimals (`17.455 s`).
/// Rounded half up in integers: float formatting was a tenth of rendering a sweep.
pub fn seconds(ns: u64) -> String {
    let mut out = String::new();
    write_seconds(&mut out, ns);
    out
}

/// [`seconds`], appending to `out`.
pub fn write_seconds(out: &mut String, ns: u64) {
    let tenths_of_ms = ns / 100_000 + u64::from(ns % 100_000 >= 50_000);
    let (whole, mut frac) = (tenths_of_ms / 10_000, tenths_of_ms % 10_000);
    write_padded(out, whole, 0, false);
    if frac > 0 {
        let mut places = 4;
        while frac % 10 == 0 {
            frac /= 10;
            places -= 1;
        }
        out.push('.');
        write_padded(out, frac, places, false);
    }
    out.push_str(" s");
}

/// The "Source: …" line naming the data files a table was built from.
pub fn source_line(s: &Scope, files: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut list: Vec<String> = files.into_iter().map(|f| f.as_ref().to_string()).collect();
    list.sort();
    list.dedup();
    let files = list.iter().map(|f| code(f)).collect::<Vec<_>>().join(", ");
    format!("{} {files}", s.ui("table-source"))
}

/// The anchor id of a record's row.
pub fn anchor(kind: Kind, id: &str) -> String {
    format!("{}-{}", kind.name(), id)
}

/// A reference as a link to the record's row (or to the page, for `page:`).
pub fn ref_link(s: &Scope, r: &Ref) -> String {
    let label = code(&r.to_string());
    if r.kind == Kind::Page {
        return s.record_link(&r.id, "top", &label);
    }
    match s.pages.home_of(r.kind, &r.id) {
        Some(page) => s.record_link(page, &anchor(r.kind, &r.id), &label),
        None => label,
    }
}

/// A list of `kind:id` strings as links.
pub fn ref_list<'a>(s: &Scope, refs: impl IntoIterator<Item = &'a crate::model::Id>) -> String {
    refs.into_iter()
        .filter_map(|i| Ref::parse(&i.value).ok())
        .map(|r| ref_link(s, &r))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_seconds() {
        assert_eq!(group_digits(17455000000), "17,455,000,000");
        assert_eq!(group_digits(290), "290");
        assert_eq!(seconds(17_455_000_000), "17.455 s");
        assert_eq!(seconds(23_800_000), "0.0238 s");
        assert_eq!(seconds(147_900_000), "0.1479 s");
        assert_eq!(seconds(0), "0 s");
        assert_eq!(seconds(2_000_000_000), "2 s");
        assert_eq!(seconds(999_960_000), "1 s");
        assert_eq!(seconds(30_229_026), "0.0302 s");
        assert_eq!(seconds(u64::MAX), "18446744073.7096 s");
    }
}
