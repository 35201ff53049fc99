//! A fast reader for the plain subset of YAML that data files and probe runs are written in.
//!
//! serde-saphyr reads about 16 MB/s, and a sweep writes tens of megabytes of runs. This
//! reader takes block mappings and sequences, one-line flow collections, plain and
//! one-line quoted scalars and comments: what `evidence probe` writes and what people
//! write by hand. It never settles a question YAML leaves to the parser: at anything else
//! (anchors, tags, multi-line or block scalars, null values, tabs, documents, odd keys) it
//! gives up, and the text is read from its parser's events (`events`), which also finds
//! every error of its syntax. A text is either read here to the tape `events` would give,
//! or not at all.

use memchr::memchr2;
use rustc_hash::FxHashSet;
use std::borrow::Cow;

/// The text is outside the subset: `events` reads it.
#[derive(Debug)]
pub struct Outside;

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("outside the plain YAML subset")
    }
}

pub type R<T> = Result<T, Outside>;

/// Deeper than this is left to `events`, which stops at 64, as serde-saphyr's budget does.
pub const MAX_DEPTH: u32 = 48;
/// More nodes than this is left to `events`, which stops at 50 million.
pub const MAX_NODES: usize = 40_000_000;

/// A scalar and where it starts.
#[derive(Debug, PartialEq)]
pub struct Scalar<'a> {
    pub text: Cow<'a, str>,
    /// Unquoted: what it means depends on the type it is read as.
    pub plain: bool,
    /// Tagged `!!str`: text whatever it looks like, never a number, boolean or null.
    pub text_only: bool,
    /// 1-based line, and the byte offsets of that line and of the scalar.
    pub line: u32,
    pub line_start: u32,
    pub start: u32,
}

/// Where a collection starts: its 1-based line, and the byte offsets of that line and of
/// the collection, as a [`Scalar`] holds them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct At {
    pub line: u32,
    pub line_start: u32,
    pub start: u32,
}

/// A parsed node, in a tape that holds a document in order: a collection is followed by
/// its children (a mapping's as key, value, key, value, …) and knows where they end. One
/// vector for the document, rather than one per collection: a run file is a thousand small
/// mappings, and allocating, then walking and freeing, a tree of them cost more than
/// reading them.
#[derive(Debug, PartialEq)]
pub enum Node<'a> {
    Scalar(Scalar<'a>),
    /// `len` items; the tape index after the last one's subtree is `end`; it starts (its
    /// `[`, or its first `-`) `at`.
    Seq {
        len: u32,
        end: u32,
        at: At,
    },
    /// `len` entries (mapping keys are always scalars); `end` and `at` as for a sequence
    /// (a block mapping starts at its first key).
    Map {
        len: u32,
        end: u32,
        at: At,
    },
    /// The whole of a text that holds no document (nothing, or only comments): serde-saphyr
    /// reads it as null, or as an empty list or mapping where the type wants one.
    Empty,
}

/// A document: its root is the first node.
pub type Tape<'a> = Vec<Node<'a>>;

/// The tape index after the subtree that starts at `i`.
pub fn after(tape: &[Node<'_>], i: usize) -> usize {
    match tape.get(i) {
        Some(Node::Seq { end, .. } | Node::Map { end, .. }) => *end as usize,
        _ => i + 1,
    }
}

/// Where a node starts; `None` for an empty document.
pub fn node_at(node: &Node<'_>) -> Option<At> {
    match node {
        Node::Scalar(s) => Some(At {
            line: s.line,
            line_start: s.line_start,
            start: s.start,
        }),
        Node::Seq { at, .. } | Node::Map { at, .. } => Some(*at),
        Node::Empty => None,
    }
}

/// Opens a collection on `tape`: its place, to [`close_collection`] once its children are on it.
pub fn open_collection(tape: &mut Tape<'_>, map: bool, at: At) -> usize {
    let index = tape.len();
    let (len, end) = (0, 0);
    tape.push(match map {
        true => Node::Map { len, end, at },
        false => Node::Seq { len, end, at },
    });
    index
}

/// Closes the collection opened at `at`, with its `n` items or entries now on `tape`.
pub fn close_collection(tape: &mut Tape<'_>, at: usize, n: u32) -> R<()> {
    let after = u32::try_from(tape.len()).map_err(|_| Outside)?;
    match tape.get_mut(at) {
        Some(Node::Map { len, end, .. } | Node::Seq { len, end, .. }) => {
            (*len, *end) = (n, after);
            Ok(())
        }
        _ => Err(Outside),
    }
}

/// A line that holds content (not blank, not only a comment).
#[derive(Debug, Clone, Copy)]
struct Line {
    no: u32,
    start: u32,
    indent: u32,
    /// End of the content, trailing spaces cut.
    end: u32,
}

/// Reads `text` into a tape, or says it is outside the subset.
pub fn parse(text: &str) -> R<Tape<'_>> {
    if text.len() >= u32::MAX as usize || !printable(text) {
        return Err(Outside);
    }
    let lines = lines(text)?;
    let first = *lines.first().ok_or(Outside)?;
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        lines,
        i: 0,
        nodes: 0,
        // About one node per ten bytes in a run file.
        tape: Vec::with_capacity(text.len() / 10 + 4),
    };
    p.block(first.indent, 0)?;
    if p.i != p.lines.len() {
        return Err(Outside);
    }
    Ok(p.tape)
}

/// Whether every character is one YAML reads plainly: no tabs, carriage returns, byte
/// order marks, control characters or the Unicode line separators.
fn printable(text: &str) -> bool {
    // No early exit inside a chunk, so that the loop runs on whole vectors of bytes.
    let ascii_ok = |ok: bool, &b: &u8| ok & (((b >= 0x20) & (b != 0x7f)) | (b == b'\n'));
    if !text
        .as_bytes()
        .chunks(4096)
        .all(|c| c.iter().fold(true, ascii_ok))
    {
        return false;
    }
    // Only the characters beyond ASCII are decoded: a run file is ASCII but for a few
    // words of its description.
    let mut rest = text;
    while let Some(i) = first_non_ascii(rest.as_bytes()) {
        let Some(c) = rest[i..].chars().next() else {
            break;
        };
        let readable = matches!(c, '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
            && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}');
        if !readable {
            return false;
        }
        rest = &rest[i + c.len_utf8()..];
    }
    true
}

/// Where the first byte beyond ASCII is. A chunk at a time: `is_ascii` reads words, where
/// a search byte by byte through a whole run file took 2 % of a large build.
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    for chunk in bytes.chunks(256) {
        if !chunk.is_ascii() {
            return chunk.iter().position(|&b| b >= 0x80).map(|i| at + i);
        }
        at += chunk.len();
    }
    None
}

/// The lines with content; directives and document markers are outside the subset.
fn lines(text: &str) -> R<Vec<Line>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 40);
    let mut start = 0usize;
    let ends = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len()));
    for (no, end) in ends.enumerate() {
        let line = &bytes[start..end];
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let trimmed = line.len() - line.iter().rev().take_while(|&&b| b == b' ').count();
        if indent < line.len() && line[indent] != b'#' {
            if indent == 0
                && (line.starts_with(b"---") || line.starts_with(b"...") || line[0] == b'%')
            {
                return Err(Outside);
            }
            out.push(Line {
                no: no as u32 + 1,
                start: start as u32,
                indent: indent as u32,
                end: (start + trimmed) as u32,
            });
        }
        start = end + 1;
    }
    Ok(out)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    lines: Vec<Line>,
    /// The next line to read.
    i: usize,
    nodes: usize,
    tape: Tape<'a>,
}

/// Every collection checks its depth, so that no input runs the stack out.
fn deep(depth: u32) -> R<()> {
    if depth > MAX_DEPTH {
        Err(Outside)
    } else {
        Ok(())
    }
}

/// Characters that start something other than a plain scalar.
fn indicator(b: u8) -> bool {
    b == b'?' || b == b':' || not_in_key(b)
}

/// Characters a key of the subset never holds.
fn not_in_key(b: u8) -> bool {
    NOT_IN_KEY[b as usize]
}

/// A table for each question asked of every byte of every key and flow value: a lookup,
/// where a `match` over the set compiled to a jump per byte.
const fn byte_set(members: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < members.len() {
        t[members[i] as usize] = true;
        i += 1;
    }
    t
}

static NOT_IN_KEY: [bool; 256] = byte_set(b"#'\"{}[],&*!|>%@`");
/// Where the scan of a key stops: its colon, or a character no key holds.
static KEY_STOP: [bool; 256] = byte_set(b":#'\"{}[],&*!|>%@`");
/// Where the scan of a plain value in a flow collection stops: its end (`,`, `]`, `}`)
/// or a character that puts it outside the subset.
static FLOW_STOP: [bool; 256] = byte_set(b",]}:#[{\"'");

/// Plain scalars YAML reads as null (the empty one is a key or item with no value).
pub fn null_like(s: &str) -> bool {
    matches!(s, "null" | "Null" | "NULL" | "~" | "")
}

impl<'a> Parser<'a> {
    fn at(&self, p: u32) -> Option<u8> {
        self.bytes.get(p as usize).copied()
    }

    fn skip_spaces(&self, mut p: u32, end: u32) -> u32 {
        while p < end && self.bytes[p as usize] == b' ' {
            p += 1;
        }
        p
    }

    /// Nothing but perhaps a comment from `p` (which follows a space) to the end.
    fn blank(&self, p: u32, end: u32) -> bool {
        p == end || self.at(p) == Some(b'#')
    }

    /// A block sequence entry (`-` then a space or the end) at `p`.
    fn is_entry(&self, p: u32, end: u32) -> bool {
        self.at(p) == Some(b'-') && (p + 1 == end || self.at(p + 1) == Some(b' '))
    }

    /// A plain scalar may start with `-` only when a character that can be in it follows.
    fn plain_after_dash(&self, q: u32, end: u32, stops: &[u8]) -> bool {
        q < end && self.at(q).is_some_and(|b| b != b' ' && !stops.contains(&b))
    }

    fn count(&mut self) -> R<()> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(Outside);
        }
        Ok(())
    }

    fn scalar(&self, line: Line, start: u32, text: Cow<'a, str>, plain: bool) -> Scalar<'a> {
        Scalar {
            text,
            plain,
            text_only: false,
            line: line.no,
            line_start: line.start,
            start,
        }
    }

    /// Byte `start` of the current line, as a collection's start.
    fn at_line(&self, start: u32) -> At {
        let line = self.lines.get(self.i);
        At {
            line: line.map_or(1, |l| l.no),
            line_start: line.map_or(0, |l| l.start),
            start,
        }
    }

    /// The block node that starts on the current line, indented at least `min_indent`.
    fn block(&mut self, min_indent: u32, depth: u32) -> R<()> {
        let line = *self.lines.get(self.i).ok_or(Outside)?;
        if line.indent < min_indent {
            return Err(Outside);
        }
        let at = line.start + line.indent;
        if self.is_entry(at, line.end) {
            self.seq(line.indent, depth, false)
        } else {
            self.map(line.indent, at, depth)
        }
    }

    /// A block sequence whose dashes stand at `indent`; `indentless` when they stand at the
    /// indentation of the key it is the value of.
    fn seq(&mut self, indent: u32, depth: u32, indentless: bool) -> R<()> {
        deep(depth)?;
        let dash = self.at_line(self.lines.get(self.i).map_or(0, |l| l.start + indent));
        let at_seq = open_collection(&mut self.tape, false, dash);
        let mut items = 0;
        while let Some(&line) = self.lines.get(self.i) {
            if line.indent > indent {
                return Err(Outside);
            }
            let at = line.start + indent;
            if line.indent < indent || !self.is_entry(at, line.end) {
                break;
            }
            let rest = self.skip_spaces(at + 1, line.end);
            if self.blank(rest, line.end) {
                self.i += 1;
                self.block(indent + 1, depth + 1)?
            } else if self.is_entry(rest, line.end) {
                return Err(Outside);
            } else if self.key_end(rest, line.end).is_some() {
                // `- key: value`: the mapping's keys line up with the first one.
                self.map(rest - line.start, rest, depth + 1)?
            } else {
                self.inline(line, rest, depth + 1)?;
                self.i += 1;
            }
            self.count()?;
            items += 1;
        }
        // The parser places an indentless sequence where its first item starts, and that
        // item on the next line somewhere of its own: left to `events`.
        if indentless {
            let first = self.tape.get(at_seq + 1).and_then(node_at);
            match (first, self.tape.get_mut(at_seq)) {
                (Some(first), Some(Node::Seq { at, .. })) if first.line == at.line => *at = first,
                _ => return Err(Outside),
            }
        }
        close_collection(&mut self.tape, at_seq, items)
    }

    /// A block mapping whose keys stand at `indent`; the first key starts at byte `first`
    /// of the current line.
    fn map(&mut self, indent: u32, first: u32, depth: u32) -> R<()> {
        deep(depth)?;
        let start = self.at_line(first);
        let at_map = open_collection(&mut self.tape, true, start);
        let mut entries = 0;
        let mut keys = Keys::default();
        let mut at = first;
        loop {
            let line = self.lines[self.i];
            let colon = self.key_end(at, line.end).ok_or(Outside)?;
            let key = self.plain_key(line, at, colon)?;
            keys.insert(&self.text[at as usize..colon as usize])?;
            self.tape.push(Node::Scalar(key));
            let rest = self.skip_spaces(colon + 1, line.end);
            if self.blank(rest, line.end) {
                self.i += 1;
                match self.lines.get(self.i) {
                    Some(next) if next.indent > indent => self.block(indent + 1, depth + 1)?,
                    // `key:` then `- item` at the key's own indentation.
                    Some(next)
                        if next.indent == indent
                            && self.is_entry(next.start + indent, next.end) =>
                    {
                        self.seq(indent, depth + 1, true)?
                    }
                    // Nothing under the key: a null, left to serde-saphyr.
                    _ => return Err(Outside),
                }
            } else {
                self.inline(line, rest, depth + 1)?;
                self.i += 1;
            }
            self.count()?;
            entries += 1;
            let Some(&next) = self.lines.get(self.i) else {
                break;
            };
            if next.indent < indent {
                break;
            }
            at = next.start + indent;
            // Deeper lines continue a scalar; a dash here is not part of this mapping.
            if next.indent > indent || self.is_entry(at, next.end) {
                return Err(Outside);
            }
        }
        close_collection(&mut self.tape, at_map, entries)
    }

    /// The colon that ends a block mapping key starting at `p`, if the line is one.
    fn key_end(&self, p: u32, end: u32) -> Option<u32> {
        let first = self.at(p)?;
        if indicator(first) || first == b'-' {
            return None;
        }
        let mut q = p;
        while q < end {
            let b = self.bytes[q as usize];
            if KEY_STOP[b as usize] {
                if b != b':' {
                    return None;
                }
                let spaced = q + 1 == end || self.at(q + 1) == Some(b' ');
                return (spaced && self.at(q - 1) != Some(b' ')).then_some(q);
            }
            q += 1;
        }
        None
    }

    /// The key between `p` and `colon`, unless YAML would read it as something special.
    fn plain_key(&self, line: Line, p: u32, colon: u32) -> R<Scalar<'a>> {
        let text = &self.text[p as usize..colon as usize];
        // `<<` merges mappings in serde-saphyr.
        if text.is_empty() || null_like(text) || text == "<<" {
            return Err(Outside);
        }
        Ok(self.scalar(line, p, Cow::Borrowed(text), true))
    }

    /// A value that starts at `p` and ends with the line (or a comment).
    fn inline(&mut self, line: Line, p: u32, depth: u32) -> R<()> {
        let q = match self.at(p).ok_or(Outside)? {
            b'{' | b'[' => self.flow(line, p, depth)?,
            b'"' | b'\'' => self.quoted(line, p)?,
            _ => {
                let s = self.plain_block(line, p)?;
                self.tape.push(Node::Scalar(s));
                return Ok(());
            }
        };
        let after = self.skip_spaces(q, line.end);
        if after == line.end || (after > q && self.at(after) == Some(b'#')) {
            Ok(())
        } else {
            Err(Outside)
        }
    }

    /// A plain scalar in block context: to the end of the line or a ` #` comment.
    fn plain_block(&mut self, line: Line, p: u32) -> R<Scalar<'a>> {
        let first = self.at(p).ok_or(Outside)?;
        if indicator(first) || (first == b'-' && !self.plain_after_dash(p + 1, line.end, b"")) {
            return Err(Outside);
        }
        let rest = &self.text[p as usize..line.end as usize];
        let cut = memchr::memmem::find(rest.as_bytes(), b" #").unwrap_or(rest.len());
        let value = rest[..cut].trim_end_matches(' ');
        if value.contains(": ") || value.ends_with(':') {
            return Err(Outside);
        }
        self.count()?;
        Ok(self.scalar(line, p, Cow::Borrowed(value), true))
    }

    /// A flow mapping or sequence that opens at `p` and closes on the same line; returns
    /// the offset after the closing bracket.
    fn flow(&mut self, line: Line, p: u32, depth: u32) -> R<u32> {
        deep(depth)?;
        let end = line.end;
        let is_map = self.at(p) == Some(b'{');
        let close = if is_map { b'}' } else { b']' };
        let opening = At {
            line: line.no,
            line_start: line.start,
            start: p,
        };
        let at_flow = open_collection(&mut self.tape, is_map, opening);
        let mut n = 0;
        let mut keys = Keys::default();
        let mut q = self.skip_spaces(p + 1, end);
        if self.at(q) != Some(close) {
            loop {
                if is_map {
                    let (key, after) = self.flow_key(line, q)?;
                    keys.insert(&self.text[key.start as usize..(after - 2) as usize])?;
                    self.tape.push(Node::Scalar(key));
                    q = self.flow_value(line, self.skip_spaces(after, end), depth + 1)?;
                } else {
                    q = self.flow_value(line, q, depth + 1)?;
                }
                n += 1;
                self.count()?;
                q = self.skip_spaces(q, end);
                match self.at(q) {
                    Some(b',') if q < end => {
                        q = self.skip_spaces(q + 1, end);
                        // A trailing comma, or an entry on the next line.
                        if q >= end || self.at(q) == Some(close) {
                            return Err(Outside);
                        }
                    }
                    Some(b) if b == close && q < end => break,
                    _ => return Err(Outside),
                }
            }
        }
        close_collection(&mut self.tape, at_flow, n)?;
        Ok(q + 1)
    }

    /// A flow mapping key at `p` and the offset after its `: `.
    fn flow_key(&self, line: Line, p: u32) -> R<(Scalar<'a>, u32)> {
        let colon = self.key_end(p, line.end).ok_or(Outside)?;
        if self.at(colon + 1) != Some(b' ') {
            return Err(Outside);
        }
        // `key_end` stops at the first colon: the key holds none.
        let key = self.plain_key(line, p, colon)?;
        Ok((key, colon + 2))
    }

    /// A value inside a flow collection, onto the tape; returns the offset after it.
    fn flow_value(&mut self, line: Line, p: u32, depth: u32) -> R<u32> {
        match self.at(p).ok_or(Outside)? {
            b'{' | b'[' => self.flow(line, p, depth),
            b'"' | b'\'' => self.quoted(line, p),
            first => {
                if indicator(first)
                    || (first == b'-' && !self.plain_after_dash(p + 1, line.end, b",[]{}"))
                {
                    return Err(Outside);
                }
                let mut q = p;
                while q < line.end {
                    let b = self.bytes[q as usize];
                    if FLOW_STOP[b as usize] {
                        if matches!(b, b',' | b']' | b'}') {
                            break;
                        }
                        return Err(Outside);
                    }
                    q += 1;
                }
                let value = self.text[p as usize..q as usize].trim_end_matches(' ');
                self.count()?;
                let s = self.scalar(line, p, Cow::Borrowed(value), true);
                self.tape.push(Node::Scalar(s));
                Ok(q)
            }
        }
    }

    /// A quoted scalar that opens at `p` and closes on the same line, onto the tape;
    /// returns the offset after the closing quote.
    fn quoted(&mut self, line: Line, p: u32) -> R<u32> {
        self.count()?;
        let quote = self.bytes[p as usize];
        let body = &self.text[(p + 1) as usize..line.end as usize];
        let (text, len) = if quote == b'"' {
            double_quoted(body)?
        } else {
            single_quoted(body)?
        };
        let s = self.scalar(line, p, text, false);
        self.tape.push(Node::Scalar(s));
        Ok(p + 1 + len + 1)
    }
}

/// The text of a double-quoted scalar whose body starts `body`, and the body's length.
fn double_quoted(body: &str) -> R<(Cow<'_, str>, u32)> {
    let bytes = body.as_bytes();
    let first = memchr2(b'"', b'\\', bytes).ok_or(Outside)?;
    if bytes[first] == b'"' {
        return Ok((Cow::Borrowed(&body[..first]), first as u32));
    }
    let mut out = String::from(&body[..first]);
    let mut i = first;
    loop {
        match bytes.get(i).ok_or(Outside)? {
            b'"' => return Ok((Cow::Owned(out), i as u32)),
            b'\\' => {
                let (c, used) = escape(&body[i + 1..])?;
                out.push(c);
                i += 1 + used;
            }
            _ => {
                let next = memchr2(b'"', b'\\', &bytes[i..]).ok_or(Outside)? + i;
                out.push_str(&body[i..next]);
                i = next;
            }
        }
    }
}

/// The escapes of the subset: `\\ \" \/ \n \t \r \0 \uXXXX`.
fn escape(rest: &str) -> R<(char, usize)> {
    let c = match rest.as_bytes().first().ok_or(Outside)? {
        b'\\' => '\\',
        b'"' => '"',
        b'/' => '/',
        b'n' => '\n',
        b't' => '\t',
        b'r' => '\r',
        b'0' => '\0',
        b'u' => {
            let hex = rest.get(1..5).ok_or(Outside)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(Outside);
            }
            let code = u32::from_str_radix(hex, 16).map_err(|_| Outside)?;
            return char::from_u32(code).map(|c| (c, 5)).ok_or(Outside);
        }
        _ => return Err(Outside),
    };
    Ok((c, 1))
}

/// The text of a single-quoted scalar whose body starts `body`, and the body's length.
fn single_quoted(body: &str) -> R<(Cow<'_, str>, u32)> {
    let bytes = body.as_bytes();
    let mut out: Option<String> = None;
    let mut from = 0;
    let mut i = 0;
    loop {
        i += memchr::memchr(b'\'', &bytes[i..]).ok_or(Outside)?;
        if bytes.get(i + 1) == Some(&b'\'') {
            // `''` is one quote.
            out.get_or_insert_with(String::new)
                .push_str(&body[from..=i]);
            i += 2;
            from = i;
            continue;
        }
        let text = match out {
            Some(mut s) => {
                s.push_str(&body[from..i]);
                Cow::Owned(s)
            }
            None => Cow::Borrowed(&body[..i]),
        };
        return Ok((text, i as u32));
    }
}

/// The keys of one mapping, to leave duplicates (an error) to serde-saphyr. The first
/// few on the stack, as most mappings have no more.
#[derive(Default)]
struct Keys<'a> {
    few: [&'a str; FEW],
    n: usize,
    many: FxHashSet<&'a str>,
}

const FEW: usize = 16;

impl<'a> Keys<'a> {
    fn insert(&mut self, key: &'a str) -> R<()> {
        let fresh = match self.few.get_mut(self.n) {
            Some(slot) => {
                *slot = key;
                self.n += 1;
                if self.n == FEW {
                    self.many.extend(self.few.iter().copied());
                }
                !self.few[..self.n - 1].contains(&key)
            }
            None => self.many.insert(key),
        };
        if fresh { Ok(()) } else { Err(Outside) }
    }
}

/// The 1-based column (in characters, as serde-saphyr counts) of byte `start` of the line
/// that starts at byte `line_start`.
pub fn column_at(text: &str, line_start: u32, start: u32) -> u32 {
    let before = text.get(line_start as usize..start as usize).unwrap_or("");
    let chars = if before.is_ascii() {
        before.len()
    } else {
        before.chars().count()
    };
    chars as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_tables_hold_exactly_their_sets() {
        for b in 0..=255u8 {
            let in_key = !matches!(
                b,
                b'#' | b'\''
                    | b'"'
                    | b'{'
                    | b'}'
                    | b'['
                    | b']'
                    | b','
                    | b'&'
                    | b'*'
                    | b'!'
                    | b'|'
                    | b'>'
                    | b'%'
                    | b'@'
                    | b'`'
            );
            assert_eq!(not_in_key(b), !in_key, "{b}");
            assert_eq!(KEY_STOP[b as usize], b == b':' || !in_key, "{b}");
            let flow = matches!(
                b,
                b',' | b']' | b'}' | b':' | b'#' | b'[' | b'{' | b'"' | b'\''
            );
            assert_eq!(FLOW_STOP[b as usize], flow, "{b}");
        }
    }

    #[test]
    fn characters_beyond_ascii_are_found_on_either_side_of_a_chunk_edge() {
        let ascii = "k: v\n".repeat(120);
        assert_eq!(first_non_ascii(ascii.as_bytes()), None);
        assert!(printable(&ascii));
        for at in [0, 1, 254, 255, 256, 257, 511, 512, ascii.len() - 1] {
            for (c, readable) in [('é', true), ('\u{2028}', false), ('\u{FEFF}', false)] {
                let mut text = ascii.clone();
                text.replace_range(at..=at, &c.to_string());
                assert_eq!(first_non_ascii(text.as_bytes()), Some(at), "{c:?} at {at}");
                assert_eq!(printable(&text), readable, "{c:?} at {at}");
            }
        }
    }
}
