//! The tape of a YAML text the subset reader declines, read from the events of
//! granit-parser (the parser serde-saphyr reads with), with every error of the text at its
//! place.
//!
//! It reads what serde-saphyr reads: block and multi-line scalars, flow collections over
//! several lines, comments anywhere, an explicit `---`, empty values (null), anchors and
//! aliases (an alias is a copy of its anchor's nodes placed at the alias, where
//! serde-saphyr's `Spanned` says the value is referenced), merge keys (`<<`; a key written
//! in the mapping wins, then the first mapping merged). Of YAML's tags it reads `!!str`
//! (text, whatever it looks like), `!!seq` and `!!map`, and refuses the others, which
//! serde-saphyr reads in ways of its own. A duplicate key is an error reported only when
//! reading the tape into the type finds none before it, as serde-saphyr, which reads as it
//! parses, reports the first in the text.

use super::error::{Kind, YamlError, narrow, position};
use super::subset::{self, At, Node, Scalar, Tape, after, column_at, node_at, null_like};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, ScanError, Span, StrInput, Tag};
use std::borrow::Cow;

/// Nesting deeper than this is refused (serde-saphyr's budget, `max_depth`, is the same).
pub const MAX_DEPTH: u32 = 64;
/// More nodes than this are refused (serde-saphyr's `max_nodes`, as the tool sets it).
pub const MAX_NODES: usize = 50_000_000;
/// Nodes copied for aliases, at most (serde-saphyr's `max_recorded_anchor_events`).
const MAX_COPIED: usize = 1_000_000;
/// Past this many aliases, each anchor may be used at most [`USES_PER_ANCHOR`] times on
/// average: serde-saphyr's guard against a text that multiplies itself through aliases.
const RATIO_FROM_ALIASES: usize = 100;
const USES_PER_ANCHOR: usize = 10;

/// A text on a tape, and its first duplicate key, if any, with the key's tape index.
pub struct Read<'a> {
    pub tape: Tape<'a>,
    pub duplicate: Option<(YamlError, usize)>,
}

/// Reads `text` onto a tape, or gives its first error of syntax, tag or limit.
pub fn parse(text: &str) -> Result<Read<'_>, YamlError> {
    if text.len() >= u32::MAX as usize {
        let message = "a file of 4 GiB or more, over the limit of the YAML reader";
        return Err(YamlError::new(Kind::Limit, message, (1, 1)));
    }
    let mut reader = Reader {
        text,
        bom: text.starts_with('\u{feff}'),
        events: Parser::new_from_str(text),
        tape: Vec::with_capacity(text.len() / 10 + 4),
        anchors: FxHashMap::default(),
        merged_anchors: FxHashSet::default(),
        aliases: 0,
        copied: 0,
        duplicate: None,
    };
    reader.document()?;
    Ok(Read {
        tape: reader.tape,
        duplicate: reader.duplicate,
    })
}

struct Reader<'a> {
    text: &'a str,
    bom: bool,
    events: Parser<'a, StrInput<'a>>,
    tape: Tape<'a>,
    /// The nodes of each anchor read so far (`start..end` on the tape), by the parser's id.
    anchors: FxHashMap<usize, (u32, u32)>,
    /// Anchors defined inside a merge key's value, whose nodes left the tape.
    merged_anchors: FxHashSet<usize>,
    aliases: usize,
    copied: usize,
    duplicate: Option<(YamlError, usize)>,
}

impl<'a> Reader<'a> {
    /// The stream: one document, or none (a text of nothing but comments).
    fn document(&mut self) -> Result<(), YamlError> {
        self.expect(|e| matches!(e, Event::StreamStart))?;
        let (event, span) = self.next()?;
        match event {
            Event::StreamEnd => {
                self.tape.push(Node::Empty);
                return Ok(());
            }
            Event::DocumentStart(..) => {}
            _ => return Err(self.unexpected(&span)),
        }
        let (event, span) = self.next()?;
        self.node(event, span, 0)?;
        self.expect(|e| matches!(e, Event::DocumentEnd))?;
        let (event, span) = self.next()?;
        match event {
            Event::StreamEnd => self.alias_ratio(&span),
            Event::DocumentStart(..) => Err(YamlError::new(
                Kind::Syntax,
                "a second YAML document (`---`); a file holds one",
                self.place(&span),
            )),
            _ => Err(self.unexpected(&span)),
        }
    }

    /// The next event, or the parser's error at its place.
    fn next(&mut self) -> Result<(Event<'a>, Span), YamlError> {
        match self.events.next() {
            Some(Ok(next)) => Ok(next),
            Some(Err(e)) => Err(syntax(&e)),
            None => Err(YamlError::new(
                Kind::Syntax,
                "unexpected end of input",
                position(self.text, self.text.len()),
            )),
        }
    }

    fn expect(&mut self, want: impl Fn(&Event<'a>) -> bool) -> Result<(), YamlError> {
        let (event, span) = self.next()?;
        if want(&event) {
            Ok(())
        } else {
            Err(self.unexpected(&span))
        }
    }

    /// An event the parser should not give where it did.
    fn unexpected(&self, span: &Span) -> YamlError {
        YamlError::new(Kind::Syntax, "unexpected YAML structure", self.place(span))
    }

    /// Puts the node that `event` starts on the tape, its children after it.
    fn node(&mut self, event: Event<'a>, span: Span, depth: u32) -> Result<(), YamlError> {
        if self.tape.len() >= MAX_NODES {
            let message = format!(
                "more than {MAX_NODES} values (scalars, lists and mappings), over the limit"
            );
            return Err(YamlError::new(Kind::Limit, message, self.place(&span)));
        }
        let first = self.tape.len();
        let anchor = match event {
            Event::Scalar(text, style, anchor, tag) => {
                let text_only = self.scalar_tag(tag.as_deref(), &span)?;
                let scalar = self.scalar(text, style, text_only, &span);
                self.tape.push(Node::Scalar(scalar));
                anchor
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.collection_tag(tag.as_deref(), "seq", &span)?;
                self.collection(false, depth, &span)?;
                anchor
            }
            Event::MappingStart(_, anchor, tag) => {
                self.collection_tag(tag.as_deref(), "map", &span)?;
                self.collection(true, depth, &span)?;
                anchor
            }
            Event::Alias(id) => return self.alias(id, &span),
            _ => return Err(self.unexpected(&span)),
        };
        if anchor != 0 {
            self.anchors
                .insert(anchor, (narrow(first), narrow(self.tape.len())));
        }
        Ok(())
    }

    /// A sequence's items, or a mapping's keys and values, up to its end event.
    fn collection(&mut self, map: bool, depth: u32, span: &Span) -> Result<(), YamlError> {
        if depth + 1 > MAX_DEPTH {
            let message = format!(
                "nesting deeper than {MAX_DEPTH} levels (it reached {})",
                depth + 1
            );
            return Err(YamlError::new(Kind::Limit, message, self.place(span)));
        }
        let start = self.at(span);
        let at = subset::open_collection(&mut self.tape, map, start);
        let mut n = 0u32;
        let mut keys = Vec::new();
        let mut merged = Vec::new();
        loop {
            let (event, span) = self.next()?;
            if matches!(event, Event::SequenceEnd | Event::MappingEnd) {
                break;
            }
            if !map {
                self.node(event, span, depth + 1)?;
                n += 1;
                continue;
            }
            if matches!(&event, Event::Scalar(k, ScalarStyle::Plain, 0, None) if k == "<<") {
                let (value, span) = self.next()?;
                merged.push(self.merge_value(value, span, depth)?);
                continue;
            }
            keys.push(self.tape.len());
            self.key(event, span, depth)?;
            let (value, span) = self.next()?;
            self.node(value, span, depth + 1)?;
            n += 1;
        }
        self.note_duplicate(&keys);
        if !merged.is_empty() {
            n += self.merge(&keys, &merged);
        }
        subset::close_collection(&mut self.tape, at, n).map_err(|_| {
            YamlError::new(Kind::Limit, "a mapping or list too large", self.place(span))
        })
    }

    /// A mapping's key: a scalar, or an alias of one.
    fn key(&mut self, event: Event<'a>, span: Span, depth: u32) -> Result<(), YamlError> {
        let at = self.tape.len();
        let refused = |reader: &Self, message: &str| {
            Err(YamlError::new(
                Kind::Unsupported,
                message,
                reader.place(&span),
            ))
        };
        match event {
            Event::Scalar(..) | Event::Alias(_) => self.node(event, span, depth + 1)?,
            _ => {
                return refused(
                    self,
                    "a mapping key that is a list or mapping, which no record reads",
                );
            }
        }
        match self.tape.get(at..) {
            Some([Node::Scalar(_)]) => Ok(()),
            _ => refused(
                self,
                "an alias of a list or mapping as a mapping key, which no record reads",
            ),
        }
    }

    /// Keeps the first duplicate key in the text among `keys` (tape indices of a mapping's
    /// keys), should it come before every other found so far.
    fn note_duplicate(&mut self, keys: &[usize]) {
        if keys.len() < 2 {
            return;
        }
        let mut seen = FxHashSet::default();
        for &k in keys {
            let Some(Node::Scalar(s)) = self.tape.get(k) else {
                continue;
            };
            if seen.insert(s.text.as_ref()) {
                continue;
            }
            let message = format!("duplicate key `{}`", s.text);
            let found = YamlError::new(Kind::Duplicate, message, self.scalar_place(s));
            if self.duplicate.as_ref().is_none_or(|(d, _)| found.before(d)) {
                self.duplicate = Some((found, k));
            }
            return;
        }
    }

    /// The value of a merge key, taken off the tape to be merged when the mapping closes:
    /// a mapping, a list of mappings, or null (nothing to merge).
    fn merge_value(
        &mut self,
        event: Event<'a>,
        span: Span,
        depth: u32,
    ) -> Result<Merge<'a>, YamlError> {
        let from = self.tape.len();
        self.node(event, span, depth + 1)?;
        // Indices within `nodes` from here: its collections' ends counted from `from`.
        let shift = -i64::from(narrow(from));
        let nodes: Vec<Node<'a>> = self
            .tape
            .drain(from..)
            .map(|n| moved(&n, shift, None))
            .collect();
        let merged_anchors = &mut self.merged_anchors;
        self.anchors.retain(|&id, &mut (start, _)| {
            let kept = (start as usize) < from;
            if !kept {
                merged_anchors.insert(id);
            }
            kept
        });
        let Some(maps) = merged_maps(&nodes) else {
            let place = nodes
                .first()
                .and_then(node_at)
                .map_or((1, 1), |at| self.at_place(at));
            let message = "a merge key (`<<`) takes a mapping, or a list of mappings";
            return Err(YamlError::new(Kind::Shape, message, place));
        };
        Ok(Merge { nodes, maps })
    }

    /// Appends the entries of the merge values whose keys the mapping lacks (neither among
    /// `keys` nor merged before: the first mapping merged wins); returns how many.
    fn merge(&mut self, keys: &[usize], merged: &[Merge<'a>]) -> u32 {
        let mut taken: FxHashSet<String> = keys
            .iter()
            .filter_map(|&k| match self.tape.get(k) {
                Some(Node::Scalar(s)) => Some(s.text.to_string()),
                _ => None,
            })
            .collect();
        let mut added = 0;
        for Merge { nodes, maps } in merged {
            for &m in maps {
                added += self.merge_entries(nodes, m, &mut taken);
            }
        }
        added
    }

    /// Appends the entries of the mapping at `m` of `nodes` whose keys are not `taken`,
    /// taking them; returns how many.
    fn merge_entries(
        &mut self,
        nodes: &[Node<'a>],
        m: usize,
        taken: &mut FxHashSet<String>,
    ) -> u32 {
        let Some(&Node::Map { len, at, .. }) = nodes.get(m) else {
            return 0;
        };
        // serde-saphyr reads a merged entry as referenced where its mapping is, as it reads
        // an alias's nodes where the alias is.
        let at = Some(at);
        let mut added = 0;
        let mut key = m + 1;
        for _ in 0..len {
            let end = after(nodes, key + 1);
            if let Some(Node::Scalar(k)) = nodes.get(key)
                && taken.insert(k.text.to_string())
            {
                let shift = i64::from(narrow(self.tape.len())) - i64::from(narrow(key));
                for node in &nodes[key..end] {
                    self.tape.push(moved(node, shift, at));
                }
                added += 1;
            }
            key = end;
        }
        added
    }

    /// A copy of the anchor `id`'s nodes, placed at the alias.
    fn alias(&mut self, id: usize, span: &Span) -> Result<(), YamlError> {
        self.aliases += 1;
        if self.merged_anchors.contains(&id) {
            let message =
                "an alias of an anchor inside a merge key's value, which the tool does not read";
            return Err(YamlError::new(Kind::Unsupported, message, self.place(span)));
        }
        let Some(&(from, to)) = self.anchors.get(&id) else {
            let message = "an alias (`*name`) inside the node it names, which would never end";
            return Err(YamlError::new(Kind::Syntax, message, self.place(span)));
        };
        let count = (to - from) as usize;
        self.copied += count;
        if self.copied > MAX_COPIED || self.tape.len() + count > MAX_NODES {
            let message = format!(
                "more than {MAX_COPIED} values copied for aliases (`*name`), over the limit"
            );
            return Err(YamlError::new(Kind::Limit, message, self.place(span)));
        }
        let at = self.at(span);
        let shift = i64::from(narrow(self.tape.len())) - i64::from(from);
        for i in from..to {
            let node = moved(&self.tape[i as usize], shift, Some(at));
            self.tape.push(node);
        }
        Ok(())
    }

    /// serde-saphyr's guard against a text that multiplies itself through aliases,
    /// checked at the end as serde-saphyr checks it.
    fn alias_ratio(&self, end: &Span) -> Result<(), YamlError> {
        let anchors = self.anchors.len();
        let excessive = self.aliases >= RATIO_FROM_ALIASES
            && (anchors == 0 || self.aliases > USES_PER_ANCHOR * anchors);
        if !excessive {
            return Ok(());
        }
        let message = format!(
            "{} aliases for {anchors} anchors, more than {USES_PER_ANCHOR} uses per anchor",
            self.aliases
        );
        Err(YamlError::new(Kind::Limit, message, self.place(end)))
    }

    /// Whether a scalar's tag makes it text (`!!str`); the other tags are refused.
    fn scalar_tag(&self, tag: Option<&Tag>, span: &Span) -> Result<bool, YamlError> {
        match tag {
            None => Ok(false),
            Some(t) if t.is_yaml_core_schema_tag("str") => Ok(true),
            Some(t) => Err(self.refused_tag(t, span)),
        }
    }

    /// A collection's tag: `!!seq` on a list, `!!map` on a mapping, or none.
    fn collection_tag(&self, tag: Option<&Tag>, kind: &str, span: &Span) -> Result<(), YamlError> {
        match tag {
            Some(t) if !t.is_yaml_core_schema_tag(kind) => Err(self.refused_tag(t, span)),
            _ => Ok(()),
        }
    }

    fn refused_tag(&self, tag: &Tag, span: &Span) -> YamlError {
        let written = if tag.is_yaml_core_schema() {
            format!("!!{}", tag.suffix())
        } else {
            format!("{}{}", tag.handle(), tag.suffix())
        };
        let message = format!(
            "the tag `{written}`, which the tool does not read (only `!!str`, `!!seq` and `!!map` on their own kind)"
        );
        YamlError::new(Kind::Unsupported, message, self.place(span))
    }

    /// A scalar as the tape holds it.
    fn scalar(
        &self,
        text: Cow<'a, str>,
        style: ScalarStyle,
        text_only: bool,
        span: &Span,
    ) -> Scalar<'a> {
        let At {
            line,
            line_start,
            start,
        } = self.at(span);
        Scalar {
            text,
            plain: style == ScalarStyle::Plain,
            text_only,
            line,
            line_start,
            start,
        }
    }

    /// Where `span` starts, as the tape holds it.
    fn at(&self, span: &Span) -> At {
        let start = span.start.byte_offset().unwrap_or(0).min(self.text.len());
        let before = self.text.as_bytes().get(..start).unwrap_or_default();
        // Columns count from after a byte order mark, as serde-saphyr's do, and a line
        // starts after a line feed or a carriage return (the parser's line breaks; `parse`
        // refuses a lone CR before, but the fuzz target reads without it).
        let first_line = if self.bom { 3 } else { 0 };
        let line_start = memchr::memrchr2(b'\n', b'\r', before).map_or(first_line, |i| i + 1);
        At {
            line: narrow(span.start.line()),
            line_start: narrow(line_start.min(start)),
            start: narrow(start),
        }
    }

    /// The line and column where `span` starts.
    fn place(&self, span: &Span) -> (u32, u32) {
        self.at_place(self.at(span))
    }

    fn at_place(&self, at: At) -> (u32, u32) {
        (at.line, column_at(self.text, at.line_start, at.start))
    }

    fn scalar_place(&self, s: &Scalar<'_>) -> (u32, u32) {
        (s.line, column_at(self.text, s.line_start, s.start))
    }
}

/// A merge key's value, off the tape: its nodes (their collections' ends counted from the
/// first), and where in them the mappings to merge start.
struct Merge<'a> {
    nodes: Vec<Node<'a>>,
    maps: Vec<usize>,
}

/// Where the mappings of a merge value start: itself when it is a mapping, each item of a
/// list of mappings, none for null; `None` for anything else, which merges nothing.
fn merged_maps(nodes: &[Node<'_>]) -> Option<Vec<usize>> {
    match nodes.first()? {
        Node::Map { .. } => Some(vec![0]),
        Node::Seq { len, .. } => {
            let mut item = 1;
            (0..*len)
                .map(|_| {
                    let this = item;
                    item = after(nodes, item);
                    matches!(nodes.get(this), Some(Node::Map { .. })).then_some(this)
                })
                .collect()
        }
        Node::Scalar(s) if s.plain && !s.text_only && null_like(&s.text) => Some(Vec::new()),
        _ => None,
    }
}

/// `node` moved `shift` places along the tape (its collection's end with it), and placed
/// `at` an alias when it is a copy for one.
fn moved<'a>(node: &Node<'a>, shift: i64, at: Option<At>) -> Node<'a> {
    let end = |e: u32| u32::try_from(i64::from(e) + shift).unwrap_or(u32::MAX);
    match node {
        Node::Scalar(s) => {
            let place = at.unwrap_or(At {
                line: s.line,
                line_start: s.line_start,
                start: s.start,
            });
            Node::Scalar(Scalar {
                text: s.text.clone(),
                plain: s.plain,
                text_only: s.text_only,
                line: place.line,
                line_start: place.line_start,
                start: place.start,
            })
        }
        Node::Seq { len, end: e, at: a } => Node::Seq {
            len: *len,
            end: end(*e),
            at: at.unwrap_or(*a),
        },
        Node::Map { len, end: e, at: a } => Node::Map {
            len: *len,
            end: end(*e),
            at: at.unwrap_or(*a),
        },
        Node::Empty => Node::Empty,
    }
}

/// The parser's error at its place: the parser counts columns from 0.
fn syntax(e: &ScanError) -> YamlError {
    let m = e.marker();
    YamlError::new(
        Kind::Syntax,
        e.info(),
        (narrow(m.line()), narrow(m.col() + 1)),
    )
}
