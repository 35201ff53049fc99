//! Every page of a site in every view, in a real browser: the checks of
//! `every_page_in_every_view` (tests/browser.rs), shared with `tests/investigation`, which
//! runs them on the live investigation.

use crate::axe;
use crate::common;
use crate::server::{Served, copy_site};
use crate::webdriver::{Browser, browser, png_size, screenshot_dir};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A temporary copy of the site at `from` (inputs only).
pub fn copy_of(from: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    copy_site(from, dir.path());
    dir
}

/// The site map's HTML pages (all views), without the 404 page.
pub fn pages_of(root: &Path) -> (Vec<String>, BTreeSet<String>) {
    let outcome = evidence::pipeline::run(root);
    let errors = evidence::diagnostics::render(
        &outcome.diagnostics,
        evidence::diagnostics::Format::Human,
        &evidence::load::read::site_text(root),
        false,
    );
    let Some(site) = outcome.site.filter(|_| !outcome.diagnostics.has_errors()) else {
        panic!("the site does not build:\n{errors}")
    };
    let keys: BTreeSet<String> = site.files.keys().cloned().collect();
    let pages = keys
        .iter()
        .filter(|k| k.ends_with("index.html"))
        .cloned()
        .collect();
    (pages, keys)
}

/// `(view, page id)` of a site key: `ja/observers/index.html` → `("ja", "observers")`.
pub fn view_and_page(key: &str) -> (&'static str, String) {
    let (view, rest) = if let Some(r) = key.strip_prefix("ja/") {
        ("ja", r)
    } else if let Some(r) = key.strip_prefix("en/") {
        ("en", r)
    } else {
        ("bilingual", key)
    };
    let page = rest.trim_end_matches("index.html").trim_end_matches('/');
    (
        view,
        if page.is_empty() {
            "index".into()
        } else {
            page.into()
        },
    )
}

pub fn key_of(view: &str, page: &str) -> String {
    let prefix = match view {
        "ja" => "ja/",
        "en" => "en/",
        _ => "",
    };
    if page == "index" {
        format!("{prefix}index.html")
    } else {
        format!("{prefix}{page}/index.html")
    }
}

/// A screenshot file name: `bi-home`, `ja-observers`, …
pub fn slug(key: &str) -> String {
    let (view, page) = view_and_page(key);
    let v = match view {
        "bilingual" => "bi",
        v => v,
    };
    let p = if page == "index" {
        "home".into()
    } else {
        page.replace('/', "-")
    };
    format!("{v}-{p}")
}

/// Checks made on a loaded page, in one round trip.
pub const PAGE_CHECKS: &str = r#"
const origin = location.origin;
const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '');
return {
  url: location.href,
  docLang: document.documentElement.lang,
  title: document.title,
  foreign: performance.getEntriesByType('resource').map(e => e.name)
    .concat(performance.getEntriesByType('navigation').map(e => e.name))
    .filter(u => !u.startsWith(origin + '/')),
  stylesheets: document.styleSheets.length,
  blocks: [...document.querySelectorAll('.block')].map(b => ({
    lang: b.getAttribute('lang'), text: b.textContent.slice(0, 4000)})),
  tables: [...document.querySelectorAll('table')].map(t => ({
    what: describe(t.closest('figure,[id]') || t),
    th: t.querySelectorAll('th').length,
    wrapped: !!t.closest('.table-wrap'),
    scrolls: (w => !!w && w.scrollWidth > w.clientWidth + 1)(t.closest('.table-wrap'))})),
  switcher: [...document.querySelectorAll('nav.views a')].map(a => ({
    href: a.href, hreflang: a.getAttribute('hreflang')})),
  figures: [...document.querySelectorAll('figure.diagram')].map(f => {
    const s = f.querySelector('svg');
    const r = s ? s.getBoundingClientRect() : null;
    const a = f.querySelector('a.figure-enlarge');
    return {id: f.id, svg: !!s, w: r ? r.width : 0, h: r ? r.height : 0,
            href: a ? a.href : null};
  }),
  javascriptLinks: [...document.querySelectorAll('a[href]')]
    .filter(a => /^\s*(javascript|vbscript|data):/i.test(a.getAttribute('href')))
    .map(a => a.getAttribute('href')),
  pwned: typeof window.__pwned === 'undefined' ? null : String(window.__pwned),
  injectedImg: document.querySelectorAll('img[src="x"], img[onerror]').length,
  bodyText: document.body ? document.body.textContent : ''
};
"#;

/// Contrast of text against what is painted behind it. `arguments[0]`: dark mode.
pub const CONTRAST: &str = r#"
const dark = arguments[0];
const cv = document.createElement('canvas'); cv.width = cv.height = 1;
const cx = cv.getContext('2d', {willReadFrequently: true});
const rgba = c => {
  if (!c || c === 'transparent' || c === 'none' || c.startsWith('url(')) return [0, 0, 0, 0];
  cx.clearRect(0, 0, 1, 1); cx.fillStyle = 'rgba(0,0,0,0)'; cx.fillStyle = c;
  cx.fillRect(0, 0, 1, 1);
  const d = cx.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3] / 255];
};
const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3]));
const canvasColor = dark ? [18, 18, 18] : [255, 255, 255];
const bgOf = el => {
  const layers = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 0.999) break; }
  }
  let base = canvasColor;
  for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
  return base;
};
const lum = c => {
  const f = v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const hex = c => '#' + c.slice(0, 3).map(v => Math.round(v).toString(16).padStart(2, '0')).join('');
const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '') +
  ((e.closest('[class]') && e.closest('[class]') !== e) ? ' in ' + e.closest('[class]').className.toString().split(' ')[0] : '');
const large = cs => { const s = parseFloat(cs.fontSize), w = parseInt(cs.fontWeight, 10) || 400;
  return s >= 24 || (s >= 18.66 && w >= 700); };
const fails = [];
let checked = 0;
const bodyFg = rgba(getComputedStyle(document.body).color);
const bodyBg = bgOf(document.body);
const bodyRatio = ratio(over(bodyFg, bodyBg), bodyBg);
const seen = new Set();
const note = (el, fg, bg, r, need, text) => {
  const key = describe(el) + hex(fg) + hex(bg);
  if (seen.has(key)) return; seen.add(key);
  fails.push({what: describe(el), text: text.trim().slice(0, 50), fg: hex(fg), bg: hex(bg),
              ratio: Math.round(r * 100) / 100, need});
};
const all = document.body.querySelectorAll('*');
for (const el of all) {
  if (checked > 4000) break;
  if (el.closest('svg, #evidence-error-overlay, script, style, noscript')) continue;
  const own = [...el.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim()).map(n => n.textContent).join(' ');
  if (!own) continue;
  const cs = getComputedStyle(el);
  if (cs.visibility === 'hidden' || cs.display === 'none' || parseFloat(cs.opacity) === 0) continue;
  const r = el.getBoundingClientRect();
  if (r.width < 2 || r.height < 2 || r.right < 0 || r.bottom + window.scrollY < 0) continue;
  checked++;
  const bg = bgOf(el);
  const fg = over(rgba(cs.color), bg);
  const cr = ratio(fg, bg), need = large(cs) ? 3 : 4.5;
  if (cr < need) note(el, fg, bg, cr, need, own);
}
// Text in diagrams: against the shape painted under it, else the page behind the SVG.
for (const t of document.querySelectorAll('svg text')) {
  if (!t.textContent.trim()) continue;
  const cs = getComputedStyle(t);
  if (cs.display === 'none' || cs.visibility === 'hidden') continue;
  const tr = t.getBoundingClientRect();
  if (tr.width < 1 || tr.height < 1) continue;
  const cxp = tr.left + tr.width / 2, cyp = tr.top + tr.height / 2;
  const svg = t.ownerSVGElement;
  let bg = bgOf(svg);
  const shapes = [...svg.querySelectorAll('rect, circle, ellipse, polygon, path')];
  const layers = [];
  for (const s of shapes) {
    if (s.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_PRECEDING) continue;
    const ss = getComputedStyle(s);
    const fill = rgba(ss.fill);
    const fo = parseFloat(ss.fillOpacity) * parseFloat(ss.opacity);
    if (fill[3] === 0 || fo === 0 || ss.display === 'none') continue;
    const r = s.getBoundingClientRect();
    if (r.width * r.height < tr.width * tr.height) continue;
    if (cxp >= r.left && cxp <= r.right && cyp >= r.top && cyp <= r.bottom) {
      layers.push([fill[0], fill[1], fill[2], fill[3] * fo]);
    }
  }
  for (const l of layers) bg = over(l, bg);
  const fill = rgba(cs.fill);
  const fg = over([fill[0], fill[1], fill[2], fill[3] * parseFloat(cs.fillOpacity)], bg);
  checked++;
  const cr = ratio(fg, bg), need = large(cs) ? 3 : 4.5;
  if (cr < need) note(t, fg, bg, cr, need, t.textContent);
}
// Lines, arrowheads and axes of diagrams are graphics: 3:1 against the figure's own
// background (WCAG 1.4.11).
for (const g of document.querySelectorAll('svg.evfig .edge, svg.evfig .axis, svg.evfig .head')) {
  const cs = getComputedStyle(g);
  if (cs.display === 'none') continue;
  const paint = rgba(g.classList.contains('head') ? cs.fill : cs.stroke);
  if (paint[3] === 0) continue;
  const back = g.ownerSVGElement.querySelector('rect.bg');
  const bg = back ? over(rgba(getComputedStyle(back).fill), bgOf(g.ownerSVGElement)) : bgOf(g.ownerSVGElement);
  const fg = over(paint, bg);
  checked++;
  const cr = ratio(fg, bg);
  if (cr < 3) note(g, fg, bg, cr, 3, '(a line of a diagram)');
}
return {bodyRatio: Math.round(bodyRatio * 100) / 100, bodyFg: hex(over(bodyFg, bodyBg)),
        bodyBg: hex(bodyBg), checked, fails: fails.slice(0, 12), failCount: fails.length};
"#;

/// Sideways scrolling at the current width, and what sticks out.
pub const OVERFLOW: &str = r#"
const vw = window.innerWidth, de = document.documentElement;
const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '');
const out = {vw, scrollWidth: de.scrollWidth, bodyScrollWidth: document.body.scrollWidth,
             culprits: [], tables: []};
const scrolls = e => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
  if (getComputedStyle(p).overflowX !== 'visible') return true; } return false; };
if (de.scrollWidth > vw || document.body.scrollWidth > vw) {
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right + window.scrollX > vw + 0.5 && !scrolls(el)) {
      const kids = [...el.children].some(c => c.getBoundingClientRect().right + window.scrollX > vw + 0.5);
      if (!kids) out.culprits.push(describe(el) + ' (right edge ' + Math.round(r.right + window.scrollX) + ' px): ' +
                                   (el.textContent || '').trim().slice(0, 40));
      if (out.culprits.length >= 8) break;
    }
  }
}
for (const t of document.querySelectorAll('table')) {
  const wrap = t.closest('.table-wrap');
  if (t.getBoundingClientRect().width <= vw) continue;
  const ox = wrap ? getComputedStyle(wrap).overflowX : 'visible';
  if (!wrap || (ox !== 'auto' && ox !== 'scroll')) out.tables.push(describe(t.closest('figure') || t) + ': not in a scrolling .table-wrap');
  else if (wrap.getBoundingClientRect().right > vw + 0.5) out.tables.push(describe(t.closest('figure') || t) + ': .table-wrap wider than the screen');
}
return out;
"#;

/// Whether a text has Japanese script (kana or kanji) / kana.
pub fn has_kanji_or_kana(s: &str) -> bool {
    s.chars()
        .any(|c| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}'))
}
pub fn has_kana(s: &str) -> bool {
    s.chars().any(|c| matches!(c, '\u{3040}'..='\u{30ff}'))
}

/// What one page showed: failures, and timing.
pub struct PageReport {
    failures: Vec<String>,
    shots: Vec<(PathBuf, (u32, u32), usize)>,
}

pub fn save_shot(dir: &Path, name: &str, png: Vec<u8>, report: &mut PageReport) {
    let Some(size) = png_size(&png) else {
        report
            .failures
            .push(format!("{name}: the screenshot is not a PNG"));
        return;
    };
    let path = dir.join(format!("{name}.png"));
    match std::fs::write(&path, &png) {
        Ok(()) => report.shots.push((path, size, png.len())),
        Err(e) => report.failures.push(format!("{name}: cannot write: {e}")),
    }
}

/// Checks one page in its three widths and colour schemes.
#[allow(clippy::too_many_arguments)]
pub fn check_page(
    b: &Browser,
    origin: &str,
    key: &str,
    keys: &BTreeSet<String>,
    dir: &Path,
    http: &ureq::Agent,
    fetched: &mut BTreeMap<String, Result<(), String>>,
    axe_source: Option<&str>,
) -> Result<PageReport, String> {
    let mut rep = PageReport {
        failures: Vec::new(),
        shots: Vec::new(),
    };
    let fail = |rep: &mut PageReport, msg: String| rep.failures.push(format!("{key}: {msg}"));
    let (view, page) = view_and_page(key);
    let name = slug(key);

    b.color_scheme(false)?;
    let w = b.window(1280, 900)?;
    if w != 1280 {
        fail(&mut rep, format!("window is {w} px wide, not 1280"));
    }
    let url = format!("{origin}/{}", key.trim_end_matches("index.html"));
    b.goto(&url)?;
    let c = b.exec(PAGE_CHECKS, json!([]))?;
    if let Some(src) = axe_source {
        axe::inject(b, src)?;
    }
    // axe's findings in each width and colour scheme, each told once with where it was seen.
    let mut axe_seen: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let axe_run = |mode: &'static str, seen: &mut BTreeMap<String, Vec<&str>>| {
        if axe_source.is_some() {
            for v in axe::run(b)? {
                seen.entry(v).or_default().push(mode);
            }
        }
        Ok::<(), String>(())
    };

    // No request outside the site; the stylesheet loaded.
    for u in c["foreign"].as_array().into_iter().flatten() {
        fail(&mut rep, format!("request outside the site: {u}"));
    }
    if c["stylesheets"].as_u64().unwrap_or(0) == 0 {
        fail(&mut rep, "no stylesheet".into());
    }
    let want_lang = if view == "en" { "en" } else { "ja" };
    if c["docLang"] != json!(want_lang) {
        fail(
            &mut rep,
            format!("<html lang={}>, want {want_lang}", c["docLang"]),
        );
    }

    // Blocks: the right lang, in the right language, paired in the bilingual view.
    let blocks = c["blocks"].as_array().cloned().unwrap_or_default();
    let langs: Vec<&str> = blocks
        .iter()
        .map(|b| b["lang"].as_str().unwrap_or("(none)"))
        .collect();
    for (i, blk) in blocks.iter().enumerate() {
        let lang = blk["lang"].as_str().unwrap_or("(none)");
        let text = blk["text"].as_str().unwrap_or_default();
        let ok_lang = match view {
            "ja" => lang == "ja",
            "en" => lang == "en",
            _ => lang == "ja" || lang == "en",
        };
        if !ok_lang {
            fail(
                &mut rep,
                format!("block {i} has lang={lang:?} in the {view} view"),
            );
        }
        if lang == "ja" && !has_kanji_or_kana(text) {
            fail(
                &mut rep,
                format!("block {i} is lang=ja but has no Japanese text"),
            );
        }
        if lang == "en" && has_kana(text) {
            let at: String = text
                .chars()
                .skip_while(|c| !matches!(c, '\u{3040}'..='\u{30ff}'))
                .take(20)
                .collect();
            fail(
                &mut rep,
                format!("block {i} is lang=en but holds kana: {at:?}"),
            );
        }
    }
    if view == "bilingual" && langs.chunks(2).any(|p| p != ["ja", "en"]) {
        fail(&mut rep, format!("blocks are not ja/en pairs: {langs:?}"));
    }

    // Tables have header cells, and at 1280 px every column (the Δ of a run table
    // included) is in sight without scrolling.
    for t in c["tables"].as_array().into_iter().flatten() {
        if t["th"].as_u64().unwrap_or(0) == 0 {
            fail(&mut rep, format!("table in {} has no <th>", t["what"]));
        }
        if t["scrolls"] == json!(true) {
            fail(
                &mut rep,
                format!("table in {} scrolls sideways at 1280 px", t["what"]),
            );
        }
    }

    // The language switcher leads to the same page in the other views.
    let mut targets = BTreeSet::new();
    for a in c["switcher"].as_array().into_iter().flatten() {
        let href = a["href"].as_str().unwrap_or_default();
        let Some(path) = href.strip_prefix(&format!("{origin}/")) else {
            fail(&mut rep, format!("switcher link outside the site: {href}"));
            continue;
        };
        let path = path.split(['#', '?']).next().unwrap_or_default();
        let target = if path.is_empty() || path.ends_with('/') {
            format!("{path}index.html")
        } else {
            path.to_string()
        };
        if !keys.contains(&target) {
            fail(
                &mut rep,
                format!("switcher link to {target}, not in the site"),
            );
        }
        let (tv, tp) = view_and_page(&target);
        if tp != page {
            fail(&mut rep, format!("switcher leads to page {tp}, not {page}"));
        }
        let want_hreflang = match tv {
            "bilingual" => "x-default",
            v => v,
        };
        if a["hreflang"] != json!(want_hreflang) {
            fail(
                &mut rep,
                format!("switcher link to {target} has hreflang {}", a["hreflang"]),
            );
        }
        targets.insert(tv);
    }
    let others: BTreeSet<&str> = ["bilingual", "ja", "en"]
        .into_iter()
        .filter(|v| *v != view)
        .collect();
    if targets != others {
        fail(
            &mut rep,
            format!("switcher offers {targets:?}, want {others:?}"),
        );
    }
    for v in &others {
        if !keys.contains(&key_of(v, &page)) {
            fail(&mut rep, format!("no {v} view of {page}"));
        }
    }

    // Figures are drawn, and their full-size view opens.
    for f in c["figures"].as_array().into_iter().flatten() {
        let id = f["id"].as_str().unwrap_or("?");
        if f["svg"] == json!(true)
            && (f["w"].as_f64().unwrap_or(0.0) < 1.0 || f["h"].as_f64().unwrap_or(0.0) < 1.0)
        {
            fail(&mut rep, format!("figure {id}: the SVG has an empty box"));
        }
        if let Some(href) = f["href"].as_str() {
            let result = fetched
                .entry(href.to_string())
                .or_insert_with(|| fetch_ok(http, origin, href));
            if let Err(e) = result {
                fail(&mut rep, format!("figure {id}: full-size link {href}: {e}"));
            }
        }
    }

    // Readable text, light then dark; screenshots at 1280 px.
    // Full pages, cut at a height that keeps the suite fast and the folder small.
    let shot_h = 5000;
    for dark in [false, true] {
        b.color_scheme(dark)?;
        let mode = if dark { "dark" } else { "light" };
        axe_run(if dark { "1280 dark" } else { "1280 light" }, &mut axe_seen)?;
        let k = b.exec(CONTRAST, json!([dark]))?;
        let body = k["bodyRatio"].as_f64().unwrap_or(0.0);
        if body < 4.5 {
            fail(
                &mut rep,
                format!(
                    "{mode}: body text {} on {} is {body}:1 (< 4.5:1)",
                    k["bodyFg"], k["bodyBg"]
                ),
            );
        }
        for f in k["fails"].as_array().into_iter().flatten() {
            fail(
                &mut rep,
                format!(
                    "{mode}: low contrast {}:1 (need {}) for {} {:?}: {} on {}",
                    f["ratio"],
                    f["need"],
                    f["what"].as_str().unwrap_or("?"),
                    f["text"].as_str().unwrap_or(""),
                    f["fg"],
                    f["bg"]
                ),
            );
        }
        save_shot(
            dir,
            &format!("{name}-desktop-{mode}"),
            b.full_screenshot(shot_h)?,
            &mut rep,
        );
    }
    sizes(b, "1280", &mut rep, key)?;

    // 375 px: no sideways scrolling; screenshots dark then light.
    let w = b.window(375, 812)?;
    if w != 375 {
        fail(&mut rep, format!("phone window is {w} px wide, not 375"));
    }
    let o = b.exec(OVERFLOW, json!([]))?;
    let sw = o["scrollWidth"].as_u64().unwrap_or(0);
    let vw = o["vw"].as_u64().unwrap_or(0);
    if sw > vw {
        fail(
            &mut rep,
            format!(
                "at {vw} px the page scrolls sideways (scrollWidth {sw}): {}",
                o["culprits"]
            ),
        );
    }
    for t in o["tables"].as_array().into_iter().flatten() {
        fail(
            &mut rep,
            format!("at {vw} px: {}", t.as_str().unwrap_or("?")),
        );
    }
    axe_run("375 dark", &mut axe_seen)?;
    sizes(b, "375", &mut rep, key)?;
    save_shot(
        dir,
        &format!("{name}-phone-dark"),
        b.full_screenshot(8000)?,
        &mut rep,
    );
    b.color_scheme(false)?;
    axe_run("375 light", &mut axe_seen)?;
    save_shot(
        dir,
        &format!("{name}-phone-light"),
        b.full_screenshot(8000)?,
        &mut rep,
    );
    for (v, modes) in axe_seen {
        fail(&mut rep, format!("{v} [{}]", modes.join(", ")));
    }

    // Console errors of this page.
    for (level, msg) in b.logs()? {
        if level == "SEVERE" {
            fail(&mut rep, format!("console error: {msg}"));
        }
    }
    Ok(rep)
}

/// Text under 12 px and touch targets under 24 × 24 px at the current width.
pub fn sizes(b: &Browser, width: &str, rep: &mut PageReport, key: &str) -> Result<(), String> {
    let s = axe::sizes(b)?;
    if s.texts == 0 || s.targets == 0 {
        rep.failures.push(format!(
            "{key}: at {width} px no text ({}) or no link ({}) was measured",
            s.texts, s.targets
        ));
    }
    for t in s.small_text {
        rep.failures
            .push(format!("{key}: at {width} px text under 12 px: {t}"));
    }
    for t in s.small_targets {
        rep.failures.push(format!(
            "{key}: at {width} px a touch target under 24 × 24 px: {t}"
        ));
    }
    Ok(())
}

/// GET `href` (a URL of the site): 200 with a body.
pub fn fetch_ok(http: &ureq::Agent, origin: &str, href: &str) -> Result<(), String> {
    if !href.starts_with(&format!("{origin}/")) {
        return Err("not a URL of the site".into());
    }
    let mut r = http.get(href).call().map_err(|e| e.to_string())?;
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let body = r.body_mut().read_to_vec().map_err(|e| e.to_string())?;
    if status != 200 || body.is_empty() {
        return Err(format!("status {status}, {} bytes", body.len()));
    }
    if !(ct.starts_with("image/") || ct.starts_with("text/html")) {
        return Err(format!("content type {ct}"));
    }
    Ok(())
}

/// Console errors, but for the missing favicon, which `every_page_in_every_view` reports
/// (these tests are about something else).
pub fn console_errors(b: &Browser) -> Vec<String> {
    b.logs()
        .unwrap_or_default()
        .into_iter()
        .filter(|(level, msg)| level == "SEVERE" && !msg.contains("/favicon.ico"))
        .map(|(_, msg)| msg)
        .collect()
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(20)))
        .http_status_as_error(false)
        .build()
        .into()
}

/// Every page of the site at `root`, in its three views, through the checks of `test`
/// (see `tests/browser.rs`); its screenshots go to `target/screenshots/<shots>/`. Returns
/// without checking when there is no browser (a failure under CI).
pub fn every_page_in_every_view_of(test: &str, root: &Path, shots: &str) {
    let started = Instant::now();
    let Some(b) = browser(test) else {
        return;
    };
    let copy = copy_of(root);
    let (pages, keys) = pages_of(copy.path());
    assert!(pages.len() >= 3, "pages: {pages:?}");
    let srv = Served::start(copy.path());
    let dir = screenshot_dir(shots);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("mkdir {}: {e}", dir.display()));
    let http = agent();
    let mut fetched = BTreeMap::new();
    let mut failures = Vec::new();
    // axe-core (scripts/test.sh installs it): its checks are skipped without it, but not
    // under CI.
    let axe_source = match axe::source() {
        Ok(s) => Some(s),
        Err(why) => {
            common::skip(
                &format!("the axe checks of {test}"),
                &format!("{why} (scripts/test.sh installs axe-core@{})", axe::VERSION),
            );
            None
        }
    };
    let mut shots = Vec::new();
    b.logs().ok(); // start with an empty console log
    for key in &pages {
        let t = Instant::now();
        match check_page(
            &b,
            &srv.origin,
            key,
            &keys,
            &dir,
            &http,
            &mut fetched,
            axe_source.as_deref(),
        ) {
            Ok(rep) => {
                failures.extend(rep.failures);
                shots.extend(rep.shots);
            }
            Err(e) => failures.push(format!("{key}: webdriver: {e}")),
        }
        eprintln!("checked {key} in {} ms", t.elapsed().as_millis());
    }

    // The 404 page: drawn with the site's style, no other console error.
    let url404 = format!("{}/no-such-page/", srv.origin);
    if let Err(e) = b.window(1280, 900).and_then(|_| b.goto(&url404)) {
        failures.push(format!("404: {e}"));
    }
    match b.exec(PAGE_CHECKS, json!([])) {
        Ok(c) => {
            if !c["bodyText"].as_str().unwrap_or_default().contains("404") {
                failures.push("404: the page does not say 404".into());
            }
            if c["stylesheets"].as_u64().unwrap_or(0) == 0 {
                failures.push("404: no stylesheet".into());
            }
        }
        Err(e) => failures.push(format!("404: {e}")),
    }
    if let Some(src) = &axe_source {
        match axe::inject(&b, src).and_then(|()| axe::run(&b)) {
            Ok(found) => failures.extend(found.into_iter().map(|v| format!("404: {v}"))),
            Err(e) => failures.push(format!("404: {e}")),
        }
    }
    for (level, msg) in b.logs().unwrap_or_default() {
        // The page's own status is logged; nothing else may be.
        if level == "SEVERE" && !msg.contains("/no-such-page/") {
            failures.push(format!("404: console error: {msg}"));
        }
    }
    if let Ok(png) = b.full_screenshot(3000) {
        let _ = std::fs::write(dir.join("404-desktop-light.png"), png);
    }

    let total: usize = shots.iter().map(|s| s.2).sum();
    let sizes: BTreeSet<String> = shots
        .iter()
        .map(|(_, (w, _), _)| format!("{w} px wide"))
        .collect();
    eprintln!(
        "{} pages checked, {} screenshots ({:.1} MB, {sizes:?}) in {} in {:.1} s",
        pages.len(),
        shots.len(),
        total as f64 / 1e6,
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} problem(s) in the browser:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}
