//! Fuzzes the page loader and what follows it without a whole site: front matter,
//! `:::ja` / `:::en` blocks and `::directive` lines (`load::page::parse`), each
//! directive resolved against this repository's own data, each block's markdown
//! rendered in every view it shows in, and the diagnostics rendered in every format.
//!
//! Besides not panicking, two promises are checked: every diagnostic points at a line and
//! column that exist in the file, and a block rendered once and localized
//! (`markdown::portable`) is, in every view, what rendering it in that view gives.
#![no_main]

use evidence::diagnostics::{self, Diagnostic, Diagnostics, Format};
use evidence::load::page;
use evidence::model::page::{Item, Lang};
use evidence::load::read::site_text;
use evidence::model::{Evidence, directive};
use evidence::render::markdown::{self, Ctx};
use evidence::model::values::Values;
use evidence::model::view::View;
use evidence::render::view::PageIndex;
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const ID: &str = "notes/p";
const FILE: &str = "content/notes/p.md";

/// What the page is rendered against: this repository's site, loaded once.
struct Site {
    evidence: Evidence,
    pages: PageIndex,
    values: Values,
    /// Where the page is written for the human format, which quotes its lines.
    root: PathBuf,
}

fn site() -> &'static Site {
    static SITE: OnceLock<Site> = OnceLock::new();
    SITE.get_or_init(|| {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let Ok(loaded) = evidence::pipeline::evidence(&repo) else {
            panic!("the repository's site at {} does not load", repo.display());
        };
        let root = std::env::temp_dir().join(format!("evidence-fuzz-page-{}", std::process::id()));
        let folder = root.join(FILE);
        let folder = folder.parent().unwrap_or(&root);
        if let Err(e) = std::fs::create_dir_all(folder) {
            panic!("cannot create {}: {e}", folder.display());
        }
        Site {
            pages: PageIndex::new(&loaded.evidence),
            values: Values::new(&loaded.evidence),
            evidence: loaded.evidence,
            root,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let site = site();
    let text = String::from_utf8_lossy(data);
    let (page, mut diags) = page::parse(ID, FILE, &text);
    if let Some(page) = &page {
        for lang in Lang::ALL {
            for t in [Some(&page.front.title), page.front.description.as_ref()]
                .into_iter()
                .flatten()
            {
                let ctx = ctx(site, View::Bilingual, lang, None);
                markdown::inline(lang.pick(t), &ctx, &mut diags);
            }
        }
        for item in &page.items {
            match item {
                Item::Block(b) => blocks(site, &b.markdown, b.lang, b.body_line, &mut diags),
                Item::Directive(d) => {
                    let _ = directive::parse(d, ID, &site.evidence);
                }
            }
        }
    }
    for d in &diags {
        placed(&text, d);
    }
    if !diags.is_empty() {
        render(site, &text, diags);
    }
});

fn ctx<'a>(site: &'a Site, view: View, lang: Lang, origin: Option<(&'a str, usize)>) -> Ctx<'a> {
    Ctx {
        view,
        lang,
        depth: view.depth(ID),
        pages: &site.pages,
        values: &site.values,
        origin,
        links: None,
    }
}

/// Renders a block in each view that shows its language, directly and localized from
/// one portable rendering, which must agree.
fn blocks(site: &Site, md: &str, lang: Lang, line: usize, diags: &mut Vec<Diagnostic>) {
    let origin = Some((FILE, line));
    let portable = markdown::portable(md, &ctx(site, View::Bilingual, lang, origin), diags);
    for view in View::ALL.into_iter().filter(|v| v.langs().contains(&lang)) {
        let ctx = ctx(site, view, lang, origin);
        let direct = markdown::block(md, &ctx, diags);
        if let Some(p) = &portable {
            assert_eq!(
                p.localize(view, lang, ctx.depth),
                direct,
                "portable and direct rendering differ in {view:?} for {md:?}"
            );
        }
    }
}

/// The diagnostic names a line of the file and a column of that line (one past its
/// last character at most, for what is missing at its end), or the whole file (0, 0).
fn placed(text: &str, d: &Diagnostic) {
    let lines: Vec<&str> = text.split('\n').collect();
    let (line, column) = (d.span.line, d.span.column);
    if (line, column) == (0, 0) {
        return;
    }
    assert!(
        (1..=lines.len()).contains(&line),
        "line {line} of a {}-line file: {d:?}\n{text:?}",
        lines.len()
    );
    let width = lines[line - 1].trim_end_matches('\r').chars().count();
    assert!(
        (1..=width + 1).contains(&column),
        "column {column} of a {width}-character line: {d:?}\n{text:?}"
    );
}

/// Renders the diagnostics in every format; the human one quotes the page from disk.
fn render(site: &Site, text: &str, diags: Vec<Diagnostic>) {
    let path = site.root.join(FILE);
    if let Err(e) = std::fs::write(&path, text.as_bytes()) {
        panic!("cannot write {}: {e}", path.display());
    }
    let mut all = Diagnostics::default();
    all.extend(diags);
    for format in [Format::Human, Format::Json, Format::Github] {
        diagnostics::render(&all, format, &site_text(&site.root), false);
    }
}
