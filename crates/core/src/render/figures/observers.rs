//! Observer constraint map: each observer in the order recorded, what it tried, its outcome
//! and the date of that status. Cards are joined top to bottom in the order they were
//! tried; the observer that works is drawn tinted and outlined so it stands out.

use super::svg::{self, Anchor, Font, Svg, TextStyle};
use super::{Content, Drawn, Words, files, fit_lines, label, para, ui, ui_with};
use crate::model::{Observer, ObserverOutcome};
use crate::render::scope::Scope;

const WIDTH: f64 = 400.0;
const PAD: f64 = 12.0;
const INNER: f64 = 14.0;

/// The CSS name of an outcome (`works`, `partial`, …).
fn outcome_class(o: ObserverOutcome) -> &'static str {
    match o {
        ObserverOutcome::Distorts => "distorts",
        ObserverOutcome::Blocked => "blocked",
        ObserverOutcome::Partial => "partial",
        ObserverOutcome::Works => "works",
    }
}

/// The outcome pill at the right edge of a card; returns its width.
fn pill(svg: &mut Svg, s: &Scope, o: ObserverOutcome, right: f64, top: f64) -> (f64, f64) {
    let font = Font::sans(13).bold();
    let mut w: Words = label(s, "outcome", &o);
    if o == ObserverOutcome::Works {
        w = super::map_words(&w, |_, t| format!("✓ {t}"));
    }
    let lines = fit_lines(&w, 150.0, font);
    let tw = lines
        .iter()
        .map(|(_, l)| svg::text_width(l, font))
        .fold(0.0, f64::max);
    let (pw, ph) = (tw + 16.0, lines.len() as f64 * font.line_height() + 6.0);
    let class = format!("o-{}", outcome_class(o));
    svg.rect(right - pw, top, pw, ph, ph.min(24.0) / 2.0, &class);
    let tag = w.len() > 1 && lines.len() > 1;
    super::draw_lines(
        svg,
        right - pw / 2.0,
        top + 3.0,
        &lines,
        TextStyle::new(font, &class).anchor(Anchor::Middle),
        tag,
    );
    (pw, ph)
}

/// One observer's card at `y`; returns its height.
fn card(svg: &mut Svg, s: &Scope, o: &Observer, y: f64) -> f64 {
    let works = o.outcome == ObserverOutcome::Works;
    let x = PAD + INNER;
    let right = WIDTH - PAD - INNER;
    let mut inner = Svg::new();
    let (pw, ph) = pill(&mut inner, s, o.outcome, right, y + 12.0);
    let name_font = Font::sans(17).bold();
    let mut cy = para(
        &mut inner,
        x,
        y + 10.0,
        &super::name(s, &o.name),
        right - x - pw - 8.0,
        TextStyle::new(name_font, ""),
    );
    cy = cy.max(y + 12.0 + ph + 2.0);
    let max = right - x;
    cy = para(
        &mut inner,
        x,
        cy,
        &super::text(s, &o.method),
        max,
        TextStyle::new(Font::mono(13), "mu"),
    ) + 4.0;
    cy = para(
        &mut inner,
        x,
        cy,
        &super::text(s, &o.tried),
        max,
        TextStyle::new(Font::sans(14), ""),
    ) + 4.0;
    cy = para(
        &mut inner,
        x,
        cy,
        &ui_with(s, "figure-as-of", "date", o.as_of.value.clone()),
        max,
        TextStyle::new(Font::sans(13), "mu"),
    );
    let h = cy - y + 10.0;
    let class = if works {
        "card o-works strong".to_string()
    } else {
        "card muted".to_string()
    };
    svg.rect(PAD, y, WIDTH - PAD * 2.0, h, 8.0, &class);
    svg.rect(
        PAD,
        y + 8.0,
        5.0,
        h - 16.0,
        0.0,
        &format!("f-{}", outcome_class(o.outcome)),
    );
    svg.append(inner);
    h
}

/// The observer map.
pub fn diagram(s: &Scope) -> Drawn {
    let mut svg = Svg::new();
    let mut y = PAD;
    let mut desc = Vec::new();
    let count = s.ev.observers.len();
    for (i, o) in s.ev.observers.iter().enumerate() {
        y += card(&mut svg, s, o, y);
        if i + 1 < count {
            let cx = WIDTH / 2.0;
            svg.line(cx, y + 2.0, cx, y + 16.0, "edge");
            svg.arrow_head(cx, y + 18.0, 0.0, 1.0, "head");
            y += 20.0;
        }
        desc.push(o);
    }
    if count == 0 {
        y = para(
            &mut svg,
            PAD,
            y,
            &ui(s, "table-empty"),
            WIDTH - PAD * 2.0,
            TextStyle::new(Font::sans(14), "mu"),
        );
    }
    let title = ui(s, "figure-observers-title");
    let summary: Words = title
        .iter()
        .map(|(l, t)| {
            let items: Vec<String> = desc
                .iter()
                .map(|o| {
                    let outcome = label(s, "outcome", &o.outcome);
                    let out = outcome
                        .iter()
                        .find(|(ol, _)| ol == l)
                        .or(outcome.first())
                        .map(|(_, t)| t.clone())
                        .unwrap_or_default();
                    format!("{}: {out} ({})", o.name.get(*l), o.as_of.value)
                })
                .collect();
            (*l, format!("{t}: {}", items.join("; ")))
        })
        .collect();
    Drawn {
        name: "observer-map".into(),
        kind: "observer-map",
        title,
        sources: files(s.ev.observers.iter().map(|o| o.file.to_string())),
        content: Content::Svg {
            width: WIDTH,
            height: y + PAD,
            body: svg.finish(),
            desc: summary,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use crate::model::view::View;

    fn draw(view: View) -> String {
        standalone(&diagram(&scope(view)), view)
    }

    #[test]
    fn every_observer_with_outcome_and_date() {
        let doc = draw(View::EN);
        let t = texts(&doc).join("\n");
        for want in [
            "EXPLAIN ANALYZE",
            "strace --attach",
            "auto_explain log",
            "row-count proxy",
            "auto_explain.log_min_duration = 0",
            "status as of 2026-02-14",
            "status as of 2026-02-20",
            "distorts",
            "blocked",
            "partial",
            "✓ works",
        ] {
            assert!(t.contains(want), "missing {want} in {t}");
        }
        assert!(doc.contains("class=\"o-works\""), "outcome pill classes");
        // The one that works stands out: exactly one emphasised card.
        assert_eq!(doc.matches("card o-works strong").count(), 1);
        assert_short_numbers(&doc);
    }

    #[test]
    fn bilingual_view_draws_both_languages() {
        let doc = draw(View::BILINGUAL);
        assert!(doc.contains("xml:lang=\"ja\""));
        assert!(doc.contains("xml:lang=\"en\""));
        let t = texts(&doc).join("\n");
        assert!(t.contains("2026-02-20"));
    }

    #[test]
    fn renders_are_identical() {
        assert_eq!(draw(View::JA), draw(View::JA));
    }
}
