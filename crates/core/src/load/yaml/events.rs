//! The tape of a YAML text the subset reader declines, read from granit-parser's events:
//! the parser serde-saphyr itself reads with, so that block and multi-line scalars, flow
//! collections over several lines, comments anywhere and an explicit `---` give the same
//! nodes serde-saphyr's deserializer sees.
//!
//! It builds only what the tape holds and what `subset_de` reads as serde-saphyr would:
//! at an anchor or alias, a tag, a merge key (`<<`), a key that is not a scalar, an empty
//! value (null), a duplicate key, a second document or a syntax error it gives up, and
//! serde-saphyr reads the text (and reports the error).

use super::subset::{self, MAX_DEPTH, MAX_NODES, Node, Outside, R, Scalar, Tape};
use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, Span};
use std::borrow::Cow;

/// Reads `text` into a tape, or says it is outside what this reader settles.
pub fn parse(text: &str) -> R<Tape<'_>> {
    if text.len() >= u32::MAX as usize {
        return Err(Outside);
    }
    let mut reader = Reader {
        text,
        events: Parser::new_from_str(text),
        tape: Vec::with_capacity(text.len() / 10 + 4),
    };
    reader.expect(|e| matches!(e, Event::StreamStart))?;
    reader.expect(|e| matches!(e, Event::DocumentStart(_, None)))?;
    let (event, span) = reader.next()?;
    reader.node(event, span, 0)?;
    reader.expect(|e| matches!(e, Event::DocumentEnd))?;
    reader.expect(|e| matches!(e, Event::StreamEnd))?;
    Ok(reader.tape)
}

struct Reader<'a> {
    text: &'a str,
    events: Parser<'a, serde_saphyr::granit_parser::StrInput<'a>>,
    tape: Tape<'a>,
}

impl<'a> Reader<'a> {
    /// The next event; a syntax error, or the end, is serde-saphyr's to report.
    fn next(&mut self) -> R<(Event<'a>, Span)> {
        match self.events.next() {
            Some(Ok(next)) => Ok(next),
            _ => Err(Outside),
        }
    }

    fn expect(&mut self, want: impl Fn(&Event<'a>) -> bool) -> R<()> {
        let (event, _) = self.next()?;
        if want(&event) { Ok(()) } else { Err(Outside) }
    }

    /// Puts the node that `event` starts on the tape, its children after it.
    fn node(&mut self, event: Event<'a>, span: Span, depth: u32) -> R<()> {
        if depth > MAX_DEPTH || self.tape.len() >= MAX_NODES {
            return Err(Outside);
        }
        match event {
            Event::Scalar(text, style, 0, None) => {
                let scalar = self.scalar(text, style, &span)?;
                self.tape.push(Node::Scalar(scalar));
                Ok(())
            }
            Event::SequenceStart(_, 0, None) => self.collection(false, depth),
            Event::MappingStart(_, 0, None) => self.collection(true, depth),
            // Anchors, aliases and tags: serde-saphyr's business.
            _ => Err(Outside),
        }
    }

    /// A sequence's items, or a mapping's keys and values, up to its end event.
    fn collection(&mut self, map: bool, depth: u32) -> R<()> {
        let at = subset::open_collection(&mut self.tape, map);
        let mut keys: Vec<Cow<'a, str>> = Vec::new();
        let mut n = 0u32;
        loop {
            let (event, span) = self.next()?;
            if matches!(event, Event::SequenceEnd | Event::MappingEnd) {
                break;
            }
            if map {
                // Keys are scalars, each once, and `<<` is a merge key to serde-saphyr.
                let Event::Scalar(text, style, 0, None) = event else {
                    return Err(Outside);
                };
                if text == "<<" && style == ScalarStyle::Plain {
                    return Err(Outside);
                }
                keys.push(text.clone());
                let key = self.scalar(text, style, &span)?;
                self.tape.push(Node::Scalar(key));
                let (value, span) = self.next()?;
                self.node(value, span, depth + 1)?;
            } else {
                self.node(event, span, depth + 1)?;
            }
            n += 1;
        }
        // A duplicate key is an error serde-saphyr reports.
        keys.sort_unstable();
        if keys.windows(2).any(|w| w[0] == w[1]) {
            return Err(Outside);
        }
        subset::close_collection(&mut self.tape, at, n)
    }

    /// A scalar and where it starts. An empty plain scalar is a null, which the tape does
    /// not hold.
    fn scalar(&self, text: Cow<'a, str>, style: ScalarStyle, span: &Span) -> R<Scalar<'a>> {
        let plain = style == ScalarStyle::Plain;
        if plain && text.is_empty() {
            return Err(Outside);
        }
        let start = span.start.byte_offset().ok_or(Outside)?;
        let before = self.text.get(..start).ok_or(Outside)?;
        // Columns count from after a byte order mark, as serde-saphyr's do.
        let first_line = if self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let line_start = memchr::memrchr(b'\n', before.as_bytes()).map_or(first_line, |i| i + 1);
        let narrow = |n: usize| u32::try_from(n).map_err(|_| Outside);
        Ok(Scalar {
            text,
            plain,
            line: narrow(span.start.line())?,
            line_start: narrow(line_start)?,
            start: narrow(start)?,
        })
    }
}
