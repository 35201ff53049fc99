//! A tiny SVG writer: escaping, fixed number formatting, a text-width estimate that counts
//! CJK characters as full width, line wrapping, and the shared `<style>` of every figure.
//!
//! Every coordinate goes through [`num`] (at most one decimal, no `-0`), every font size is
//! an integer class (`fs13`), and colours are CSS custom properties, so output is stable
//! byte for byte and follows the reader's light or dark colour scheme.

use crate::model::page::Lang;
use std::fmt::Write as _;

/// A font: integer pixel size, monospace or not, bold or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Font {
    pub size: u32,
    pub mono: bool,
    pub bold: bool,
}

/// The font sizes the style sheet defines (`fs<N>` classes).
pub const SIZES: [u32; 7] = [12, 13, 14, 15, 16, 17, 18];

impl Font {
    pub const fn sans(size: u32) -> Font {
        Font {
            size,
            mono: false,
            bold: false,
        }
    }

    pub const fn mono(size: u32) -> Font {
        Font {
            size,
            mono: true,
            bold: false,
        }
    }

    pub const fn bold(self) -> Font {
        Font { bold: true, ..self }
    }

    /// The CSS classes of the font (`fs13 mono b`).
    pub fn class(self) -> String {
        let size = SIZES
            .iter()
            .copied()
            .min_by_key(|s| s.abs_diff(self.size))
            .unwrap_or(13);
        let mut c = format!("fs{size}");
        if self.mono {
            c.push_str(" mono");
        }
        if self.bold {
            c.push_str(" b");
        }
        c
    }

    /// Distance between baselines of consecutive lines.
    pub fn line_height(self) -> f64 {
        (f64::from(self.size) * 1.4).round()
    }
}

/// Horizontal alignment of a text run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// Escapes text for XML element content and double-quoted attributes (the same rules as
/// the page's HTML, which also drop the control characters XML 1.0 forbids).
pub fn esc(s: &str) -> String {
    crate::render::escape(s)
}

/// A coordinate with at most one decimal; non-finite values become 0, `-0` becomes `0`.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    // In whole tenths: float formatting took a tenth of drawing the figures.
    let tenths = (v * 10.0).round();
    if tenths.abs() >= 1e15 {
        let r = tenths / 10.0;
        let s = format!("{r:.1}");
        return s.strip_suffix(".0").map(String::from).unwrap_or(s);
    }
    let t = tenths as i64;
    let sign = if t < 0 { "-" } else { "" };
    let (whole, frac) = (t.unsigned_abs() / 10, t.unsigned_abs() % 10);
    match frac {
        0 if whole == 0 => "0".into(),
        0 => format!("{sign}{whole}"),
        f => format!("{sign}{whole}.{f}"),
    }
}

/// Whether a character is drawn full width (CJK ideographs, kana, full-width forms).
pub fn is_wide(c: char) -> bool {
    // East Asian Wide and Fullwidth (UAX #11), as terminals and unicode-width count them.
    unicode_width::UnicodeWidthChar::width(c) == Some(2)
}

/// Estimated advance of one character, in em.
fn advance(c: char, mono: bool) -> f64 {
    if is_wide(c) {
        return 1.0;
    }
    if mono {
        return 0.62;
    }
    // Generous Latin advances (DejaVu Sans, the widest common fallback), so that labels
    // laid out here fit whatever sans-serif font the reader's system picks. These are a
    // proportional font's widths, which no character property gives (unicode-width counts
    // every Latin letter as one terminal column).
    match c {
        ' ' => 0.32,
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | '(' | ')' | '[' | ']' => 0.34,
        'f' | 't' | 'r' | 'I' | '/' | '-' | '`' => 0.44,
        'm' | 'w' | 'M' | 'W' | '@' | '%' => 0.94,
        'A'..='Z' | '≤' | '≥' | '≠' | '→' | '<' | '>' | '=' | '+' | '~' | '_' | '#' | '&' => {
            0.74
        }
        '0'..='9' => 0.64,
        c if c.is_ascii() => 0.61,
        _ => 0.8,
    }
}

/// Estimated width in pixels of `s` set in `font`: CJK counts as a full em, Latin by class.
pub fn text_width(s: &str, font: Font) -> f64 {
    let em: f64 = s.chars().map(|c| advance(c, font.mono)).sum();
    let bold = if font.bold && !font.mono { 1.1 } else { 1.0 };
    em * f64::from(font.size) * bold
}

/// Splits a text into pieces between which a line may break: where UAX #14 allows it
/// (unicode-linebreak: after spaces, between ideographs and kana, never before `、。）」`
/// nor after `（「`), and after `_` or `/` before a letter or digit. UAX #14 keeps
/// `exec_time_ms` and `data/runs` whole (a low line is a letter to it), and a
/// figure's narrow box would then cut such a name at any character instead.
fn pieces(s: &str) -> Vec<&str> {
    let mut cuts: Vec<usize> = unicode_linebreak::linebreaks(s)
        .map(|(i, _)| i)
        .filter(|&i| i < s.len())
        .collect();
    for (i, c) in s.char_indices() {
        let after = i + c.len_utf8();
        if matches!(c, '_' | '/') && s[after..].chars().next().is_some_and(char::is_alphanumeric) {
            cuts.push(after);
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for cut in cuts {
        out.push(&s[from..cut]);
        from = cut;
    }
    if from < s.len() {
        out.push(&s[from..]);
    }
    out
}

/// Wraps `s` into lines no wider than `max` pixels, breaking only where [`pieces`]
/// allows: a piece wider than `max` stands alone on its line, whole, never cut inside a
/// word (a figure that must fit it sets it smaller, [`font_to_fit`]). Always returns at
/// least one line.
pub fn wrap(s: &str, max: f64, font: Font) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for piece in pieces(s) {
        let candidate = format!("{cur}{piece}");
        if text_width(candidate.trim_end(), font) <= max || cur.trim().is_empty() {
            cur = candidate;
        } else {
            lines.push(cur.trim_end().to_string());
            cur = piece.trim_start().to_string();
        }
    }
    lines.push(cur.trim_end().to_string());
    lines
}

/// The width of the widest piece of `s` that a line may not break inside.
pub fn widest_piece(s: &str, font: Font) -> f64 {
    pieces(s)
        .into_iter()
        .map(|p| text_width(p.trim(), font))
        .fold(0.0, f64::max)
}

/// `font`, made smaller (down to `min` points) until every unbreakable piece of `s` fits
/// in `max` pixels, so that wrapping never has to cut a word.
pub fn font_to_fit(s: &str, max: f64, font: Font, min: u32) -> Font {
    let mut f = font;
    while f.size > min && widest_piece(s, f) > max {
        f.size -= 1;
    }
    f
}

/// Shortens `s` with a trailing `…` so that it fits `max` pixels.
pub fn ellipsize(s: &str, max: f64, font: Font) -> String {
    if text_width(s, font) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        let mut next = out.clone();
        next.push(c);
        next.push('…');
        if text_width(&next, font) > max {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// `s` wrapped into lines no wider than `max` pixels ([`wrap`]); a line that is still
/// wider (one piece that may not break) is cut with a `…` ([`ellipsize`]), as a last
/// resort. The flag says whether any line was cut.
pub fn fit(s: &str, max: f64, font: Font) -> (Vec<String>, bool) {
    let mut cut = false;
    let lines = wrap(s, max, font)
        .into_iter()
        .map(|l| {
            if text_width(&l, font) > max {
                cut = true;
                ellipsize(&l, max, font)
            } else {
                l
            }
        })
        .collect();
    (lines, cut)
}

/// An SVG fragment being written.
#[derive(Debug, Default)]
pub struct Svg {
    out: String,
}

impl Svg {
    pub fn new() -> Svg {
        Svg::default()
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, rx: f64, class: &str) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{} class=\"{}\"/>",
            num(x),
            num(y),
            num(w.max(0.0)),
            num(h.max(0.0)),
            if rx > 0.0 {
                format!(" rx=\"{}\"", num(rx))
            } else {
                String::new()
            },
            esc(class)
        );
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &str) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"{}\"/>",
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            esc(class)
        );
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, class: &str) {
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" class=\"{}\"/>",
            num(cx),
            num(cy),
            num(r),
            esc(class)
        );
    }

    /// A polyline or polygon given as points; `closed` fills it as a polygon.
    pub fn poly(&mut self, points: &[(f64, f64)], closed: bool, class: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
            .collect();
        let tag = if closed { "polygon" } else { "polyline" };
        let _ = writeln!(
            self.out,
            "<{tag} points=\"{}\" class=\"{}\"/>",
            pts.join(" "),
            esc(class)
        );
    }

    /// A downward or rightward arrow head at `(x, y)` pointing in direction `(dx, dy)`.
    pub fn arrow_head(&mut self, x: f64, y: f64, dx: f64, dy: f64, class: &str) {
        let (s, w) = (7.0, 4.0);
        let p = [
            (x, y),
            (x - dx * s - dy * w, y - dy * s + dx * w),
            (x - dx * s + dy * w, y - dy * s - dx * w),
        ];
        self.poly(&p, true, class);
    }

    /// One line of text with its baseline at `y`.
    pub fn text(&mut self, x: f64, y: f64, s: &str, style: &TextStyle) {
        let anchor = match style.anchor {
            Anchor::Start => "",
            Anchor::Middle => " text-anchor=\"middle\"",
            Anchor::End => " text-anchor=\"end\"",
        };
        let lang = style
            .lang
            .map(|l| format!(" xml:lang=\"{}\"", l.code()))
            .unwrap_or_default();
        let rotate = if style.vertical {
            format!(" transform=\"rotate(-90 {} {})\"", num(x), num(y))
        } else {
            String::new()
        };
        let mut class = style.font.class();
        if !style.class.is_empty() {
            class.push(' ');
            class.push_str(style.class);
        }
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\"{anchor}{lang}{rotate} class=\"{class}\">{}</text>",
            num(x),
            num(y),
            esc(s)
        );
    }

    /// One line of text cut short of `full` to fit its place: grouped with a `<title>`
    /// holding the whole text, which a pointer's hover and a screen reader give.
    pub fn text_cut(&mut self, x: f64, y: f64, shown: &str, full: &str, style: &TextStyle) {
        let _ = writeln!(self.out, "<g><title>{}</title>", esc(full));
        self.text(x, y, shown, style);
        self.out.push_str("</g>\n");
    }

    /// Opens a group, optionally translated.
    pub fn open(&mut self, class: &str, dx: f64, dy: f64) {
        let t = if dx != 0.0 || dy != 0.0 {
            format!(" transform=\"translate({} {})\"", num(dx), num(dy))
        } else {
            String::new()
        };
        let c = if class.is_empty() {
            String::new()
        } else {
            format!(" class=\"{}\"", esc(class))
        };
        let _ = writeln!(self.out, "<g{c}{t}>");
    }

    pub fn close(&mut self) {
        self.out.push_str("</g>\n");
    }

    /// A line through whole-pixel `points`, `width` pixels wide (plots).
    pub fn path(&mut self, points: &[(i32, i32)], width: u32, class: &str) {
        self.out.push_str("<polyline fill=\"none\" stroke-width=\"");
        let _ = write!(self.out, "{width}\" points=\"");
        for (i, (x, y)) in points.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            let _ = write!(self.out, "{x},{y}");
        }
        let _ = writeln!(self.out, "\" class=\"{}\"/>", esc(class));
    }

    /// Another fragment written with this writer, nested here. There is no way to add
    /// markup from elsewhere: every text and attribute goes through [`esc`] or [`num`].
    pub fn append(&mut self, inner: Svg) {
        self.out.push_str(&inner.out);
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// How a text run is set.
#[derive(Debug, Clone, Copy)]
pub struct TextStyle<'a> {
    pub font: Font,
    pub anchor: Anchor,
    /// Colour and role classes (`tx`, `mu`, `c-h0`, …).
    pub class: &'a str,
    pub lang: Option<Lang>,
    /// Rotated 90° counter-clockwise (vertical axis titles).
    pub vertical: bool,
}

impl<'a> TextStyle<'a> {
    pub fn new(font: Font, class: &'a str) -> TextStyle<'a> {
        TextStyle {
            font,
            anchor: Anchor::Start,
            class,
            lang: None,
            vertical: false,
        }
    }

    pub fn anchor(self, anchor: Anchor) -> Self {
        TextStyle { anchor, ..self }
    }

    pub fn lang(self, lang: Option<Lang>) -> Self {
        TextStyle { lang, ..self }
    }

    pub fn vertical(self) -> Self {
        TextStyle {
            vertical: true,
            ..self
        }
    }
}

/// Number of colour hues the style sheet defines (`h0`…`h5`).
pub const HUES: usize = crate::render::palette::HUES;

/// The style sheet of every figure, scoped to `svg.evfig` (an inline `<style>` applies to
/// the whole page). Light colours first, dark ones under `prefers-color-scheme: dark`.
pub fn style() -> String {
    let mut s = String::from(
        "svg.evfig{--evf-bg:var(--bg,#ffffff);--evf-fg:var(--fg,#1f2328);--evf-mu:var(--muted,#59636e);\
--evf-line:var(--figure-line,#818b98);--evf-grid:var(--rule,#d8dee4);--evf-panel:var(--surface,#f6f8fa);\
--evf-border:var(--rule,#d1d9e0);\
--evf-h0:var(--blue,#0a55b8);--evf-h1:var(--purple,#6b3fb8);--evf-h2:var(--orange,#9a3d00);\
--evf-h3:var(--green,#1a6b32);--evf-h4:var(--pink,#a8306e);--evf-h5:var(--yellow,#7a5200);\
--evf-t0:var(--blue-bg,#e6f0fc);--evf-t1:var(--purple-bg,#f1ebfc);--evf-t2:var(--orange-bg,#fff0e0);\
--evf-t3:var(--green-bg,#e3f5e7);--evf-t4:var(--pink-bg,#fcebf4);--evf-t5:var(--yellow-bg,#fff6cc);\
--evf-ok:var(--green,#1a6b32);--evf-ok-t:var(--green-bg,#e3f5e7);\
--evf-warn:var(--yellow,#7a5200);--evf-warn-t:var(--yellow-bg,#fff6cc);\
--evf-bad:var(--red,#a3202e);--evf-bad-t:var(--red-bg,#fdeced);\
--evf-block:var(--orange,#9a3d00);--evf-block-t:var(--orange-bg,#fff0e0);\
font-family:system-ui,-apple-system,\"Segoe UI\",\"Hiragino Sans\",\"Noto Sans CJK JP\",\"Noto Sans JP\",\"Yu Gothic\",Meiryo,sans-serif}\n\
@media (prefers-color-scheme: dark){svg.evfig{--evf-bg:var(--bg,#121519);--evf-fg:var(--fg,#e4e8ec);\
--evf-mu:var(--muted,#9ea8b2);--evf-line:var(--figure-line,#6b7682);--evf-grid:var(--rule,#313942);\
--evf-panel:var(--surface,#1a1f25);--evf-border:var(--rule,#3a434d);\
--evf-h0:var(--blue,#7ab4ff);--evf-h1:var(--purple,#c6a9ff);--evf-h2:var(--orange,#ffb072);\
--evf-h3:var(--green,#7ed99a);--evf-h4:var(--pink,#f59ccb);--evf-h5:var(--yellow,#e8c562);\
--evf-t0:var(--blue-bg,#14283f);--evf-t1:var(--purple-bg,#2a2043);--evf-t2:var(--orange-bg,#382211);\
--evf-t3:var(--green-bg,#14301d);--evf-t4:var(--pink-bg,#3a1a2c);--evf-t5:var(--yellow-bg,#322a0f);\
--evf-ok:var(--green,#7ed99a);--evf-ok-t:var(--green-bg,#14301d);\
--evf-warn:var(--yellow,#e8c562);--evf-warn-t:var(--yellow-bg,#322a0f);\
--evf-bad:var(--red,#ff9ea3);--evf-bad-t:var(--red-bg,#3a171b);\
--evf-block:var(--orange,#ffb072);--evf-block-t:var(--orange-bg,#382211)}}\n\
svg.evfig text{fill:var(--evf-fg)}\n\
svg.evfig .mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"Noto Sans Mono CJK JP\",monospace}\n\
svg.evfig .b{font-weight:600}\n\
svg.evfig text.mu{fill:var(--evf-mu)}\n\
svg.evfig .bg{fill:var(--evf-bg)}\n\
svg.evfig .panel{fill:var(--evf-panel);stroke:var(--evf-border);stroke-width:1}\n\
svg.evfig .edge{stroke:var(--evf-line);stroke-width:1.5;fill:none}\n\
svg.evfig .edge.dash{stroke-dasharray:4 3}\n\
svg.evfig .head{fill:var(--evf-line)}\n\
svg.evfig .grid,svg.evfig .s-grid{stroke:var(--evf-grid);stroke-width:1}\n\
svg.evfig .axis,svg.evfig .s-axis{stroke:var(--evf-line);stroke-width:1}\n\
svg.evfig .f-fg{fill:var(--evf-fg)}svg.evfig .s-fg{stroke:var(--evf-fg)}\n\
svg.evfig .f-bg{fill:var(--evf-bg)}svg.evfig .s-bg{stroke:var(--evf-bg)}\n\
svg.evfig .dot{stroke:var(--evf-bg);stroke-width:1.5}\n\
svg.evfig .card{fill:var(--evf-bg);stroke:var(--evf-border);stroke-width:1}\n\
svg.evfig .card.dash{stroke:var(--evf-line);stroke-dasharray:5 3}\n\
svg.evfig .card.solid{stroke:var(--evf-fg);stroke-width:1.5}\n\
svg.evfig .card.muted{fill:var(--evf-panel)}\n\
svg.evfig .rowmark{fill:var(--evf-warn-t)}\n\
svg.evfig .cellmark{fill:none;stroke:var(--evf-warn);stroke-width:2.5}\n\
svg.evfig text.c-warn{fill:var(--evf-warn)}\n",
    );
    for i in 0..HUES {
        let _ = writeln!(
            s,
            "svg.evfig .f-h{i}{{fill:var(--evf-h{i})}}svg.evfig .s-h{i}{{stroke:var(--evf-h{i})}}\
svg.evfig .f-t{i}{{fill:var(--evf-t{i})}}svg.evfig text.c-h{i}{{fill:var(--evf-h{i})}}"
        );
    }
    for (name, var) in [
        ("works", "ok"),
        ("partial", "warn"),
        ("blocked", "bad"),
        ("distorts", "block"),
    ] {
        let _ = writeln!(
            s,
            "svg.evfig .o-{name}{{fill:var(--evf-{var}-t);stroke:var(--evf-{var});stroke-width:1.5}}\
svg.evfig text.o-{name}{{fill:var(--evf-{var});stroke:none}}svg.evfig .f-{name}{{fill:var(--evf-{var})}}"
        );
    }
    for size in SIZES {
        let _ = writeln!(s, "svg.evfig .fs{size}{{font-size:{size}px}}");
    }
    s.push_str("svg.evfig .strong{stroke-width:3}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_fixed() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.25), "1.3");
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(f64::INFINITY), "0");
        assert_eq!(num(12.345), "12.3");
        assert_eq!(num(-1.25), "-1.3");
        assert_eq!(num(-0.5), "-0.5");
        assert_eq!(num(-12.0), "-12");
        assert_eq!(num(0.04), "0");
        assert_eq!(num(1e20), "100000000000000000000");
    }

    #[test]
    fn cjk_is_full_width() {
        let f = Font::sans(10);
        assert_eq!(text_width("観測", f), 20.0);
        assert!(text_width("ab", f) < 13.0);
        assert!(text_width("観測", f) > text_width("ab", f) * 1.5);
    }

    #[test]
    fn wraps_latin_and_japanese() {
        let f = Font::sans(13);
        let lines = wrap("the quick brown fox jumps over the lazy dog", 100.0, f);
        assert!(lines.len() > 2);
        assert!(lines.iter().all(|l| text_width(l, f) <= 100.0));
        let ja = wrap("観測そのものが実行経路を変えてしまう。", 80.0, f);
        assert!(ja.len() > 1);
        assert!(ja.iter().all(|l| !l.starts_with('。')));
        let long = wrap("index_scan_next<btree,1,false>", 60.0, Font::mono(12));
        assert!(long.len() > 1);
        assert_eq!(long.concat(), "index_scan_next<btree,1,false>");
        assert_eq!(wrap("", 10.0, f), vec![String::new()]);
    }

    /// A word wider than the line stays whole on its own line: "rocSOLVER" in a narrow
    /// box was cut into "rocSOLVE" and "R".
    #[test]
    fn never_cuts_inside_a_word() {
        let f = Font::sans(14).bold();
        let lines = wrap("rocSOLVER", text_width("rocSOLV", f), f);
        assert_eq!(lines, ["rocSOLVER"]);
        let lines = wrap("load rocSOLVER now", text_width("rocSOLV", f), f);
        assert_eq!(lines, ["load", "rocSOLVER", "now"]);
        let fit = font_to_fit("rocSOLVER", text_width("rocSOLV", f), f, 8);
        assert!(fit.size < f.size);
        assert!(text_width("rocSOLVER", fit) <= text_width("rocSOLV", f));
        assert_eq!(wrap("", 10.0, f), vec![String::new()]);
    }

    #[test]
    fn breaks_follow_uax14_and_names() {
        // Japanese: between characters, but never before closing or after opening marks.
        let ja = pieces("観測（実行経路）は、変わる。");
        assert_eq!(ja.concat(), "観測（実行経路）は、変わる。");
        for p in &ja {
            assert!(!p.ends_with('（'), "{ja:?}");
            assert!(!p.starts_with(['）', '、', '。']), "{ja:?}");
        }
        assert!(ja.len() > 5, "{ja:?}");
        // Latin: after spaces, which stay with the word before.
        assert_eq!(pieces("cold start (s)"), ["cold ", "start ", "(s)"]);
        // Names: after `_` and `/` before a letter or digit, which UAX #14 alone keeps whole.
        assert_eq!(pieces("prompt_eval_count"), ["prompt_", "eval_", "count"]);
        assert_eq!(pieces("data/runs/r1"), ["data/", "runs/", "r1"]);
        assert_eq!(pieces("a_ b_)"), ["a_ ", "b_)"]);
        // Japanese next to Latin breaks between them.
        assert_eq!(pieces("観測est_rows"), ["観", "測", "est_", "rows"]);
        assert!(pieces("").is_empty());
    }

    #[test]
    fn escapes() {
        assert_eq!(esc("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn fonts_have_integer_classes() {
        assert_eq!(Font::sans(13).class(), "fs13");
        assert_eq!(Font::mono(12).bold().class(), "fs12 mono b");
        assert_eq!(Font::sans(40).class(), "fs18");
    }
}
