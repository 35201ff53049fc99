//! axe-core in the browser tests: its source (installed from npm by scripts/test.sh into
//! the test cache) is injected into the open page through WebDriver and run with the
//! WCAG 2.1 A/AA and best-practice rules; every violation comes back as
//! `rule: target (summary)`.
//!
//! Also here: the page measures the tests make beside axe, in one round trip each — text
//! smaller than 12 px (HTML text and SVG text at the figure's current scale) and touch
//! targets smaller than 24 × 24 px (WCAG 2.5.8, with its inline and spacing exceptions).

#![allow(dead_code)]

use crate::webdriver::Browser;
use serde_json::{Value, json};
use std::path::PathBuf;

/// The axe-core version scripts/test.sh installs.
pub const VERSION: &str = "4.14.1";

/// Where axe's browser build is: `EVIDENCE_AXE`, else the test cache.
pub fn source_path() -> PathBuf {
    if let Some(p) = std::env::var_os("EVIDENCE_AXE") {
        return PathBuf::from(p);
    }
    crate::common::test_cache().join("axe/node_modules/axe-core/axe.min.js")
}

/// axe's source, or why it is missing.
pub fn source() -> Result<String, String> {
    let path = source_path();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("no axe-core at {} ({e})", path.display()))?;
    if !text.contains(&format!("axe v{VERSION}")) {
        return Err(format!(
            "{} is not axe-core {VERSION} (run scripts/test.sh)",
            path.display()
        ));
    }
    Ok(text)
}

/// Puts axe into the open page (again after each navigation).
pub fn inject(b: &Browser, source: &str) -> Result<(), String> {
    let v = b.exec(
        &format!("{source}\n;return typeof window.axe === 'object' ? window.axe.version : null;"),
        json!([]),
    )?;
    if v == json!(VERSION) {
        Ok(())
    } else {
        Err(format!("axe did not load (got {v})"))
    }
}

/// Runs axe on the whole document: WCAG 2.0/2.1 A and AA, and best practices.
const RUN: &str = r#"
const done = arguments[arguments.length - 1];
axe.run(document, {
  runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},
  resultTypes: ['violations'],
}).then(r => done({violations: r.violations.map(v => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map(n => ({target: n.target.map(String).join(' '),
                            summary: (n.failureSummary || '').split('\n').slice(1).join(' ').trim()}))
}))}), e => done({error: String(e && e.stack || e)}));
"#;

/// Runs axe on the open page: one line per violating node, `rule (impact): target — why`.
pub fn run(b: &Browser) -> Result<Vec<String>, String> {
    let r = b.exec_async(RUN, json!([]))?;
    if let Some(e) = r.get("error") {
        return Err(format!("axe failed: {e}"));
    }
    let mut out = Vec::new();
    for v in r["violations"].as_array().into_iter().flatten() {
        for n in v["nodes"].as_array().into_iter().flatten() {
            out.push(format!(
                "axe {} ({}): {} — {}",
                v["id"].as_str().unwrap_or("?"),
                v["impact"].as_str().unwrap_or("?"),
                n["target"].as_str().unwrap_or("?"),
                n["summary"].as_str().unwrap_or_default()
            ));
        }
    }
    Ok(out)
}

/// Text under 12 px and touch targets under 24 × 24 px on the page as it is laid out now.
const SIZES: &str = r#"
const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') :
   (e.className && e.className.baseVal ? '.' + e.className.baseVal.trim().split(/\s+/).join('.') : ''));
const where = e => { const f = e.closest('figure[id], [id]'); return f && f !== e ? ' in #' + f.id : ''; };
const shown = (e, cs) => {
  if (cs.display === 'none' || cs.visibility === 'hidden') return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
const small = [];
let texts = 0;
// HTML text: the computed size of every element holding text of its own.
for (const el of document.body.querySelectorAll('*')) {
  if (el.closest('svg, script, style, noscript, #evidence-error-overlay')) continue;
  if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
  const cs = getComputedStyle(el);
  if (!shown(el, cs)) continue;
  texts++;
  const px = parseFloat(cs.fontSize);
  if (px < 11.995) small.push({what: describe(el) + where(el), px: Math.round(px * 100) / 100,
                               text: el.textContent.trim().slice(0, 30)});
}
// SVG text: its font size in user units times the figure's current scale.
for (const t of document.querySelectorAll('svg text')) {
  if (!t.textContent.trim()) continue;
  const cs = getComputedStyle(t);
  if (!shown(t, cs)) continue;
  const m = t.getScreenCTM();
  if (!m) continue;
  texts++;
  const px = parseFloat(cs.fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  if (px < 11.995) small.push({what: describe(t) + where(t), px: Math.round(px * 100) / 100,
                               text: t.textContent.trim().slice(0, 30)});
}
// Touch targets (WCAG 2.5.8): 24 × 24 px, unless inline in a sentence, or spaced so that a
// 24 px circle on its centre meets no other target and no other undersized target's circle.
const targets = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [role="button"]')]
  .filter(e => !e.closest('#evidence-error-overlay'))
  .map(e => ({e, cs: getComputedStyle(e)}))
  .filter(({e, cs}) => shown(e, cs) && !(e.classList.contains('skip') && e !== document.activeElement))
  .map(({e, cs}) => { const r = e.getBoundingClientRect();
    return {e, cs, r, cx: r.left + r.width / 2, cy: r.top + r.height / 2,
            under: r.width < 23.995 || r.height < 23.995}; });
// Inline: an inline link whose block holds text outside any link (a sentence).
const blockOf = e => { let p = e.parentElement;
  while (p && getComputedStyle(p).display === 'inline') p = p.parentElement; return p; };
const ownText = blk => { let s = '';
  const walk = n => { for (const c of n.childNodes) {
    if (c.nodeType === 3) s += c.textContent;
    else if (c.nodeType === 1 && !c.matches('a[href], button') && getComputedStyle(c).display === 'inline') walk(c);
  } };
  walk(blk); return s.replace(/[\s,.;:·/()\[\]|–—-]+/g, ''); };
const inline = t => t.cs.display === 'inline' && ownText(blockOf(t.e) || document.body).length > 0;
const dist = (x, y, r) => Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
const tiny = [];
for (const t of targets) {
  if (!t.under || inline(t)) continue;
  const clash = targets.find(u => u !== t && !u.e.contains(t.e) && !t.e.contains(u.e) &&
    (dist(t.cx, t.cy, u.r) < 12 || (u.under && Math.hypot(t.cx - u.cx, t.cy - u.cy) < 24)));
  if (clash) tiny.push({what: describe(t.e) + where(t.e), w: Math.round(t.r.width * 10) / 10,
                        h: Math.round(t.r.height * 10) / 10, text: t.e.textContent.trim().slice(0, 30),
                        near: describe(clash.e)});
}
return {texts, small, targets: targets.length, tiny};
"#;

/// What [`sizes`] found.
pub struct Sizes {
    pub texts: u64,
    pub targets: u64,
    /// `what (px) "text"` of each text under 12 px.
    pub small_text: Vec<String>,
    /// `what (w × h) "text"` of each target under 24 × 24 px.
    pub small_targets: Vec<String>,
}

/// Measures text sizes and touch targets on the open page.
pub fn sizes(b: &Browser) -> Result<Sizes, String> {
    let v: Value = b.exec(SIZES, json!([]))?;
    let small_text = v["small"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            format!(
                "{} is {} px: {:?}",
                str_of(&s["what"]),
                s["px"],
                str_of(&s["text"])
            )
        })
        .collect();
    let small_targets = v["tiny"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            format!(
                "{} is {} × {} px, close to {}: {:?}",
                str_of(&s["what"]),
                s["w"],
                s["h"],
                str_of(&s["near"]),
                str_of(&s["text"])
            )
        })
        .collect();
    Ok(Sizes {
        texts: v["texts"].as_u64().unwrap_or(0),
        targets: v["targets"].as_u64().unwrap_or(0),
        small_text,
        small_targets,
    })
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}
