//! What changed inside a text: the words (and, in Japanese, the characters) removed and
//! inserted between two versions, shown inline in the text, markdown and JSON reports.
//!
//! Texts are split at Unicode word boundaries (UAX #29, `unicode-segmentation`): English
//! falls into words and the spaces between them, Japanese into single kanji and kana
//! (katakana runs stay whole), so a reworded clause shows as the words it changed rather
//! than as two whole sentences. Long unchanged stretches are cut to a few words on either
//! side of each change.

use serde::Serialize;
use similar::{Algorithm, DiffTag, capture_diff_slices};
use unicode_segmentation::UnicodeSegmentation;

/// One stretch of a word-level comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", content = "text", rename_all = "lowercase")]
pub enum Piece {
    /// In both versions.
    Same(String),
    /// Only in the old one.
    Del(String),
    /// Only in the new one.
    Ins(String),
}

/// The old and new text as stretches kept, removed and inserted, in reading order (a
/// removal before the insertion that replaces it).
pub fn pieces(old: &str, new: &str) -> Vec<Piece> {
    let out = by_words(old, new);
    // A text rewritten through and through reads better as the old one, then the new one,
    // than as a mosaic of the few words they share.
    let same: usize = out
        .iter()
        .map(|p| match p {
            Piece::Same(s) if !s.trim().is_empty() => s.chars().count(),
            _ => 0,
        })
        .sum();
    let shorter = old.chars().count().min(new.chars().count());
    if same * 100 < shorter * SHARED_PERCENT {
        return [Piece::Del(old.into()), Piece::Ins(new.into())]
            .into_iter()
            .filter(|p| !matches!(p, Piece::Del(s) | Piece::Ins(s) if s.is_empty()))
            .collect();
    }
    out
}

/// How much of the shorter version (in percent of its length) the two must share for the
/// change to be shown word by word.
const SHARED_PERCENT: usize = 50;

fn by_words(old: &str, new: &str) -> Vec<Piece> {
    let a: Vec<&str> = old.split_word_bounds().collect();
    let b: Vec<&str> = new.split_word_bounds().collect();
    let mut out: Vec<Piece> = Vec::new();
    let mut push = |p: Piece| match (out.last_mut(), &p) {
        (Some(Piece::Same(s)), Piece::Same(t))
        | (Some(Piece::Del(s)), Piece::Del(t))
        | (Some(Piece::Ins(s)), Piece::Ins(t)) => s.push_str(t),
        _ => out.push(p),
    };
    for op in capture_diff_slices(Algorithm::Myers, &a, &b) {
        let (old_r, new_r) = (op.old_range(), op.new_range());
        let join = |t: &[&str]| t.concat();
        match op.tag() {
            DiffTag::Equal => push(Piece::Same(join(&a[old_r]))),
            DiffTag::Delete => push(Piece::Del(join(&a[old_r]))),
            DiffTag::Insert => push(Piece::Ins(join(&b[new_r]))),
            DiffTag::Replace => {
                push(Piece::Del(join(&a[old_r])));
                push(Piece::Ins(join(&b[new_r])));
            }
        }
    }
    out
}

/// How many words of unchanged text are kept on either side of a change.
pub const CONTEXT: usize = 6;

/// The pieces with each unchanged stretch longer than the context cut to its ends
/// (`…` in between), and whitespace runs folded to one space.
pub fn trimmed(pieces: &[Piece], context: usize) -> Vec<Piece> {
    let n = pieces.len();
    pieces
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            Piece::Same(s) if s.trim().is_empty() => Piece::Same(if s.is_empty() {
                String::new()
            } else {
                " ".into()
            }),
            Piece::Same(s) => {
                let words: Vec<&str> = s.split_whitespace().collect();
                let lead = if s.starts_with(char::is_whitespace) {
                    " "
                } else {
                    ""
                };
                let trail = if s.ends_with(char::is_whitespace) {
                    " "
                } else {
                    ""
                };
                let keep_start = i > 0;
                let keep_end = i + 1 < n;
                let budget = context * (usize::from(keep_start) + usize::from(keep_end));
                let text = if words.len() <= budget.max(context) {
                    words.join(" ")
                } else {
                    let head = if keep_start {
                        words[..context.min(words.len())].join(" ")
                    } else {
                        String::new()
                    };
                    let tail = if keep_end {
                        words[words.len().saturating_sub(context)..].join(" ")
                    } else {
                        String::new()
                    };
                    match (head.is_empty(), tail.is_empty()) {
                        (false, false) => format!("{head} … {tail}"),
                        (false, true) => format!("{head} …"),
                        (true, false) => format!("… {tail}"),
                        (true, true) => "…".to_string(),
                    }
                };
                Piece::Same(format!("{lead}{text}{trail}"))
            }
            Piece::Del(s) => Piece::Del(fold(s)),
            Piece::Ins(s) => Piece::Ins(fold(s)),
        })
        .map(|p| match p {
            Piece::Same(s) => Piece::Same(capped(s)),
            Piece::Del(s) => Piece::Del(capped(s)),
            Piece::Ins(s) => Piece::Ins(capped(s)),
        })
        .collect()
}

/// The most characters one stretch shows (a word with no space in it can be long).
const PIECE_LIMIT: usize = 120;

fn capped(s: String) -> String {
    if s.chars().count() <= PIECE_LIMIT {
        s
    } else {
        format!("{}…", s.chars().take(PIECE_LIMIT).collect::<String>())
    }
}

fn fold(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    let lead = if s.starts_with(char::is_whitespace) {
        " "
    } else {
        ""
    };
    let trail = if s.ends_with(char::is_whitespace) && !words.is_empty() {
        " "
    } else {
        ""
    };
    format!("{lead}{}{trail}", words.join(" "))
}

/// `… the [-old-]{+new+} words …`: the change inline, as terminals and `git diff
/// --word-diff` show it.
pub fn inline_text(old: &str, new: &str) -> String {
    let mut out = String::new();
    for p in trimmed(&outside_code_spans(pieces(old, new)), CONTEXT) {
        match p {
            Piece::Same(s) => out.push_str(&s),
            Piece::Del(s) => {
                out.push_str("[-");
                out.push_str(&s);
                out.push_str("-]");
            }
            Piece::Ins(s) => {
                out.push_str("{+");
                out.push_str(&s);
                out.push_str("+}");
            }
        }
    }
    out
}

/// The change inline for a markdown table cell: `<del>` and `<ins>` (which GitHub
/// renders), every `|`, `<` and `&` of the text escaped.
pub fn inline_markdown(old: &str, new: &str) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('|', "\\|")
            .replace('\n', " ")
    };
    let mut out = String::new();
    for p in trimmed(&outside_code_spans(pieces(old, new)), CONTEXT) {
        match p {
            Piece::Same(s) => out.push_str(&esc(&s)),
            Piece::Del(s) => {
                out.push_str("<del>");
                out.push_str(&esc(&s));
                out.push_str("</del>");
            }
            Piece::Ins(s) => {
                out.push_str("<ins>");
                out.push_str(&esc(&s));
                out.push_str("</ins>");
            }
        }
    }
    out
}

/// The pieces with no change inside a code span (`` `…` ``): GitHub shows `<del>` and
/// `<ins>` written inside one as text, so a span with a change in it is marked whole, old
/// span deleted and new span inserted.
fn outside_code_spans(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out = Vec::new();
    // The pieces since both texts were last outside a code span.
    let mut open: Vec<Piece> = Vec::new();
    let (mut in_old, mut in_new) = (false, false);
    for p in pieces {
        let ticks = |s: &str| s.matches('`').count() % 2 == 1;
        match &p {
            Piece::Same(s) if ticks(s) => (in_old, in_new) = (!in_old, !in_new),
            Piece::Same(_) => {}
            Piece::Del(s) => in_old ^= ticks(s),
            Piece::Ins(s) => in_new ^= ticks(s),
        }
        open.push(p);
        if !in_old && !in_new {
            out.extend(span_marked_whole(std::mem::take(&mut open)));
        }
    }
    // A backtick that pairs with none opens no span: its pieces stay as they are.
    out.extend(open);
    out
}

/// Pieces that run from outside any code span to outside again: as they are when only one
/// or with no change; else the text before the first span and after the last kept the
/// same, and what lies between deleted as the old text has it and inserted as the new.
fn span_marked_whole(group: Vec<Piece>) -> Vec<Piece> {
    if group.len() < 2 || group.iter().all(|p| matches!(p, Piece::Same(_))) {
        return group;
    }
    let (mut old, mut new) = (String::new(), String::new());
    for p in &group {
        match p {
            Piece::Same(s) => {
                old.push_str(s);
                new.push_str(s);
            }
            Piece::Del(s) => old.push_str(s),
            Piece::Ins(s) => new.push_str(s),
        }
    }
    // The same text before the first backtick of the group's first piece, and after the
    // last of its last piece, is left out of the marks.
    let head = match &group[0] {
        Piece::Same(s) => s.find('`').unwrap_or(0),
        _ => 0,
    };
    let tail = match &group[group.len() - 1] {
        Piece::Same(s) => s.len() - s.rfind('`').map_or(s.len(), |i| i + 1),
        _ => 0,
    };
    let mut out = Vec::new();
    if head > 0 {
        out.push(Piece::Same(old[..head].to_string()));
    }
    out.push(Piece::Del(old[head..old.len() - tail].to_string()));
    out.push(Piece::Ins(new[head..new.len() - tail].to_string()));
    if tail > 0 {
        out.push(Piece::Same(old[old.len() - tail..].to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_inside_a_code_span_marks_the_whole_span() {
        let md = inline_markdown("Ran `EXPLAIN ANALYZE` twice", "Ran `EXPLAIN BUFFERS` twice");
        assert_eq!(
            md,
            "Ran <del>`EXPLAIN ANALYZE`</del><ins>`EXPLAIN BUFFERS`</ins> twice"
        );
        // A change outside every span is marked word by word as before.
        assert_eq!(
            inline_markdown("Ran `EXPLAIN` twice", "Ran `EXPLAIN` once"),
            "Ran `EXPLAIN` <del>twice</del><ins>once</ins>"
        );
    }

    /// A span the new text opens and closes in two inserted backticks is marked whole, and
    /// the text after it is outside every span again, marked word by word.
    #[test]
    fn a_span_made_by_inserted_backticks_closes_at_the_second() {
        assert_eq!(
            inline_markdown("Ran EXPLAIN twice", "Ran `EXPLAIN` once"),
            "Ran <del>EXPLAIN</del><ins>`EXPLAIN`</ins> <del>twice</del><ins>once</ins>"
        );
    }

    #[test]
    fn english_changes_by_words() {
        assert_eq!(
            inline_text(
                "The proxy gives a rough reading of the zone.",
                "The proxy gives a coarse reading of the zone."
            ),
            "The proxy gives a [-rough-]{+coarse+} reading of the zone."
        );
    }

    #[test]
    fn japanese_changes_by_characters() {
        assert_eq!(
            inline_text("観測手段は三つある。", "観測手段は四つある。"),
            "観測手段は[-三-]{+四+}つある。"
        );
    }

    #[test]
    fn an_added_evidence_item_is_seen_in_a_long_list() {
        let old =
            "observer:a, observer:b, observer:c, observer:d, observer:e, observer:f, observer:g";
        let new = format!("{old}, run:phase-f-resident");
        let t = inline_text(old, &new);
        assert!(t.ends_with("{+, run:phase-f-resident+}"), "{t}");
        assert!(t.starts_with("… "), "the unchanged start is cut: {t}");
    }

    #[test]
    fn long_unchanged_stretches_are_cut_around_each_change() {
        let old = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen";
        let new = old.replace("one", "zero").replace("seventeen", "eighteen");
        let t = inline_text(old, &new);
        assert_eq!(
            t,
            "[-one-]{+zero+} two three four five six seven … eleven twelve thirteen fourteen fifteen sixteen [-seventeen-]{+eighteen+}"
        );
    }

    #[test]
    fn markdown_escapes_what_a_table_cell_cannot_hold() {
        assert_eq!(
            inline_markdown("a | b <x>", "a | c <x>"),
            "a \\| <del>b</del><ins>c</ins> &lt;x>"
        );
    }

    #[test]
    fn a_text_rewritten_through_and_through_is_shown_whole() {
        assert_eq!(
            inline_text("The thresholds exist", "Which kernel ran"),
            "[-The thresholds exist-]{+Which kernel ran+}"
        );
        assert_eq!(
            inline_text("The thresholds exist", "The two thresholds exist"),
            "The {+two +}thresholds exist"
        );
    }

    #[test]
    fn identical_texts_have_no_change() {
        assert_eq!(pieces("same", "same"), vec![Piece::Same("same".into())]);
        assert_eq!(inline_text("", "new"), "{+new+}");
    }
}
