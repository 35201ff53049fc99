//! Parses a content page: YAML front matter, language blocks (`:::<tag>`, one per
//! language of the site) and `::directive` lines.
//!
//! The parser only splits the file; markdown inside blocks is rendered later. Every block
//! and directive keeps the line it starts on, so later stages can point at it.

use crate::diagnostics::{Diagnostic, Span};
use crate::load::yaml;
use crate::model::page::{Block, BlockBasis, DirectiveLine, FrontMatter, Item, Lang, PageSource};
use crate::model::types::Basis;
use std::collections::BTreeMap;

/// Parses one content file of a site in `langs`. Errors are collected; a page with errors
/// is still returned when its front matter parsed, so that later rules can report more.
pub fn parse(
    id: &str,
    file: &str,
    text: &str,
    langs: &'static [Lang],
) -> (Option<PageSource>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    if let Some(d) = yaml::lone_carriage_return(file, text, 0)
        .or_else(|| yaml::control_character(file, text, 0, false))
    {
        diags.push(d);
        return (None, diags);
    }
    let lines = lines(text);
    let Some((front_text, body_start)) = split_front_matter(&lines) else {
        diags.push(
            Diagnostic::error(
                "front-matter",
                Span::new(file, 1, 1),
                "a page must start with YAML front matter between `---` lines",
            )
            .with_hint(format!(
                "add `---`, a `title: {{{}}}` line and a closing `---`",
                langs
                    .iter()
                    .map(|l| format!("{l}: ..."))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        );
        return (None, diags);
    };
    let front = match crate::model::lang::expecting(langs, || {
        yaml::parse::<FrontMatter>(file, &front_text, 1)
    }) {
        Ok(f) => f,
        Err(d) => {
            diags.push(*d);
            return (None, diags);
        }
    };
    let items = parse_body(file, &lines, body_start, langs, &mut diags);
    let page = PageSource {
        id: id.to_string(),
        file: file.to_string(),
        front,
        items,
        generated: false,
        text_hash: Some(xxhash_rust::xxh3::xxh3_64(text.as_bytes())),
    };
    (Some(page), diags)
}

/// `text` split at each line feed, as `split('\n')` splits it (a last, empty line after
/// a final line feed), found with memchr: a page's lines are most of what loading reads.
fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(text.len() / 40 + 1);
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push(&text[start..at]);
        start = at + 1;
    }
    out.push(&text[start..]);
    out
}

/// Returns the front matter text and the index of the first body line.
fn split_front_matter(lines: &[&str]) -> Option<(String, usize)> {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return None;
    }
    let end = lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| l.trim_end() == "---")?
        .0;
    // Each line keeps its LF, so that the CR of a CRLF file's last line is not left alone.
    let mut front = lines[1..end].join("\n");
    front.push('\n');
    Some((front, end + 1))
}

fn parse_body(
    file: &str,
    lines: &[&str],
    start: usize,
    langs: &'static [Lang],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Item> {
    let tags = langs
        .iter()
        .map(|l| format!("`:::{l}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut items = Vec::new();
    let mut open: Option<OpenBlock> = None;
    for (i, raw) in lines.iter().enumerate().skip(start) {
        let line_no = i + 1;
        let line = raw.trim_end_matches('\r');
        if let Some(block) = open.as_mut() {
            if block.take(file, line, line_no, diags) {
                items.extend(open.take().map(OpenBlock::close));
            }
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix(":::") {
            open = block_fence(file, line, line_no, rest, langs, &tags, diags);
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("::") {
            items.extend(directive_line(file, line, line_no, rest, diags));
            continue;
        }
        diags.push(
            Diagnostic::error(
                "block",
                Span::new(file, line_no, indent(line) + 1),
                "text outside a language block",
            )
            .with_hint(format!(
                "put prose inside a block for each language: {tags}, each closed by `:::`"
            )),
        );
    }
    if let Some(block) = open {
        diags.push(
            Diagnostic::error(
                "block",
                Span::new(file, block.opened, 1),
                format!(
                    "the `{}` block opened here is never closed",
                    block.lang.code()
                ),
            )
            .with_hint("end the block with a line holding only `:::`"),
        );
    }
    items
}

/// A language block being read: its language, the line of its fence, the fence's basis
/// and the lines so far.
struct OpenBlock<'a> {
    lang: Lang,
    opened: usize,
    basis: Option<BlockBasis>,
    body: Vec<&'a str>,
    /// The code fence open inside the block, whose `:::` lines are code, not block fences.
    fence: Option<String>,
}

impl<'a> OpenBlock<'a> {
    /// Takes the block's next line: true when it closes the block. A fence that opens
    /// another block inside this one is an error; the line is kept empty so that the lines
    /// after it keep their numbers.
    fn take(
        &mut self,
        file: &str,
        line: &'a str,
        line_no: usize,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        if let Some(f) = &self.fence {
            if line.trim_start().starts_with(f.as_str()) {
                self.fence = None;
            }
            self.body.push(line);
            return false;
        }
        if let Some(f) = code_fence(line) {
            self.fence = Some(f);
            self.body.push(line);
            return false;
        }
        if line.trim() == ":::" {
            return true;
        }
        if line.trim_start().starts_with(":::") {
            diags.push(
                Diagnostic::error(
                    "block",
                    Span::new(file, line_no, 1),
                    format!(
                        "a block cannot open inside the `{}` block opened on line {}",
                        self.lang.code(),
                        self.opened
                    ),
                )
                .with_hint("close the current block with `:::` first"),
            );
            self.body.push("");
            return false;
        }
        self.body.push(line);
        false
    }

    /// The block, closed.
    fn close(self) -> Item {
        Item::Block(Block {
            lang: self.lang,
            markdown: self.body.join("\n").into(),
            line: self.opened,
            body_line: self.opened + 1,
            basis: self.basis,
        })
    }
}

/// A `:::` line outside a block (`rest` after the colons): the block it opens, or an
/// error for a stray close or a language the site does not have (`tags` lists its own).
fn block_fence<'a>(
    file: &str,
    line: &str,
    line_no: usize,
    rest: &str,
    langs: &'static [Lang],
    tags: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<OpenBlock<'a>> {
    // A fence may carry attributes: `:::en{basis="inferred"}`.
    let (tag, basis) = match rest.find('{') {
        Some(brace) => match fence_basis(rest, brace) {
            Ok(basis) => (rest[..brace].trim(), basis),
            Err(e) => {
                diags.push(
                    Diagnostic::error(
                        "block",
                        Span::new(file, line_no, indent(line) + 4 + e.at),
                        e.to_string(),
                    )
                    .with_hint(FENCE_HINT),
                );
                (rest[..brace].trim(), None)
            }
        },
        None => (rest.trim(), None),
    };
    // Tags compare canonically (`:::de-ch` is the site's `de-CH`).
    let known = langs.iter().find(|l| l.code() == tag).or_else(|| {
        let lang = Lang::parse(tag).ok()?;
        langs.iter().find(|l| **l == lang)
    });
    if let Some(&lang) = known {
        return Some(OpenBlock {
            lang,
            opened: line_no,
            basis,
            body: Vec::new(),
            fence: None,
        });
    }
    diags.push(match tag {
        "" => Diagnostic::error(
            "block",
            Span::new(file, line_no, indent(line) + 1),
            "`:::` closes a block, but no block is open here",
        )
        .with_hint(format!(
            "remove the line, or open a block above it with one of {tags}"
        )),
        other => Diagnostic::error(
            "block",
            Span::new(file, line_no, indent(line) + 4),
            format!("unknown block language `{other}`"),
        )
        .with_hint(format!(
            "this site's blocks are {tags} (`languages:` in evidence.yaml)"
        )),
    });
    None
}

/// A `::` line outside a block (`rest` after the colons): the directive, or an error
/// located at what does not parse.
fn directive_line(
    file: &str,
    line: &str,
    line_no: usize,
    rest: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Item> {
    match parse_directive(rest) {
        Ok((name, attrs)) => Some(Item::Directive(DirectiveLine {
            name,
            attrs,
            line: line_no,
            resolution: None,
        })),
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "directive",
                    Span::new(file, line_no, e.at + 3 + indent(line)),
                    e.to_string(),
                )
                .with_hint("directives look like `::claims{page=\"index\"}`"),
            );
            None
        }
    }
}

/// How a fence's attributes are written.
const FENCE_HINT: &str = "a block's fence may say what it rests on: `:::en{basis=\"observed\"}`, \
    `{basis=\"inferred\"}`, or `{basis=\"source\" source=\"https://…\"}`";

/// Why a fence's attributes give its block no basis, and where: `at` counts characters
/// from the start of the fence after `:::`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FenceError {
    at: usize,
    reason: Fence,
}

/// What is wrong with a fence's attributes. `Display` is the message for its line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Fence {
    /// The attributes are not written as a directive's are.
    Syntax(Syntax),
    /// An attribute other than `basis` and `source`.
    UnknownAttribute(String),
    /// Attributes without `basis`.
    NoBasis,
    /// A basis that is none of the three.
    UnknownBasis(String),
    /// A `source` that may not become a link.
    Refused {
        url: String,
        why: crate::model::markup::Refused,
    },
    /// `basis="source"` without `source`.
    NoSource,
}

impl std::fmt::Display for FenceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.reason {
            Fence::Syntax(s) => write!(f, "{s}"),
            Fence::UnknownAttribute(key) => write!(f, "unknown block attribute `{key}`"),
            Fence::NoBasis => write!(f, "a block's attributes need `basis=\"…\"`"),
            Fence::UnknownBasis(value) => write!(
                f,
                "unknown basis `{value}`: write `observed`, `source` or `inferred`"
            ),
            Fence::Refused { url, why } => {
                f.write_str(&crate::model::markup::refused_message(url, why))
            }
            Fence::NoSource => write!(
                f,
                "a block marked `basis=\"source\"` needs `source=\"…\"`: the address of what it was read from"
            ),
        }
    }
}

impl std::error::Error for FenceError {}

/// The basis a fence's attributes give its block (`rest` is the fence after `:::`, its
/// attributes from byte `brace`); errors at a column counted in characters from `rest`.
fn fence_basis(rest: &str, brace: usize) -> Result<Option<BlockBasis>, FenceError> {
    let (_, attrs) = parse_directive(&format!("x{}", &rest[brace..])).map_err(|e| FenceError {
        at: rest[..brace].chars().count() + e.at.saturating_sub(1),
        reason: Fence::Syntax(e.reason),
    })?;
    let at = |key: &str| {
        rest.find(&format!("{key}="))
            .map_or(brace, |i| i)
            .min(rest.len())
    };
    // The error `reason` at byte `byte` of `rest`.
    let fail = |byte: usize, reason: Fence| FenceError {
        at: rest[..byte].chars().count(),
        reason,
    };
    if let Some(key) = attrs
        .keys()
        .find(|k| !matches!(k.as_str(), "basis" | "source"))
    {
        return Err(fail(at(key), Fence::UnknownAttribute(key.clone())));
    }
    let Some(value) = attrs.get("basis") else {
        return Err(fail(brace, Fence::NoBasis));
    };
    let Some(basis) = Basis::parse(value) else {
        return Err(fail(at("basis"), Fence::UnknownBasis(value.clone())));
    };
    let source = attrs.get("source").cloned();
    if let Some(url) = &source
        && let Err(why) = crate::model::markup::link_target(url)
    {
        let url = url.clone();
        return Err(fail(at("source"), Fence::Refused { url, why }));
    }
    if basis == Basis::Source && source.is_none() {
        return Err(fail(at("basis"), Fence::NoSource));
    }
    Ok(Some(BlockBasis { basis, source }))
}

/// The characters (not bytes: columns count characters) that `trim_start` removes.
fn indent(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).count()
}

/// If `line` opens a fenced code block, returns its fence marker.
fn code_fence(line: &str) -> Option<String> {
    let t = line.trim_start();
    for ch in ['`', '~'] {
        let n = t.chars().take_while(|&c| c == ch).count();
        if n >= 3 {
            return Some(std::iter::repeat_n(ch, n).collect());
        }
    }
    None
}

/// Parses `name{key="value" other=plain}` (the part after `::`).
/// Errors carry the 0-based character offset within `rest`.
pub fn parse_directive(rest: &str) -> Result<(String, BTreeMap<String, String>), SyntaxError> {
    directive_at_bytes(rest).map_err(|e| SyntaxError {
        at: rest.char_indices().take_while(|&(i, _)| i < e.at).count(),
        ..e
    })
}

/// Why a directive's text (after `::`) does not parse, and where in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The 0-based offset in the text: in characters from [`parse_directive`] (columns
    /// count characters), in bytes inside it.
    pub at: usize,
    pub reason: Syntax,
}

/// What is wrong with a directive's text. `Display` is the message for its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Syntax {
    /// Nothing that can be a name follows `::`.
    NoName,
    /// The name is followed by something other than `{…}`.
    NoBraces,
    /// An attribute that is not `key=value`.
    NotKeyValue,
    /// A quoted value whose `"` is never closed.
    Unclosed,
    /// The same attribute given twice.
    Twice(String),
}

impl SyntaxError {
    /// `reason` at byte `at`.
    fn at_byte(at: usize, reason: Syntax) -> SyntaxError {
        SyntaxError { at, reason }
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.reason)
    }
}

impl std::fmt::Display for Syntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Syntax::NoName => write!(f, "a directive needs a name after `::`"),
            Syntax::NoBraces => {
                write!(f, "expected `{{key=\"value\" …}}` after the directive name")
            }
            Syntax::NotKeyValue => write!(f, "expected `key=\"value\"`"),
            Syntax::Unclosed => write!(f, "unclosed `\"` in directive attribute"),
            Syntax::Twice(key) => write!(f, "attribute `{key}` is given twice"),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// [`parse_directive`], with errors at byte offsets.
fn directive_at_bytes(rest: &str) -> Result<(String, BTreeMap<String, String>), SyntaxError> {
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..name_len];
    if name.is_empty() {
        return Err(SyntaxError::at_byte(0, Syntax::NoName));
    }
    let tail = rest[name_len..].trim_end();
    let mut attrs = BTreeMap::new();
    if tail.is_empty() {
        return Ok((name.to_string(), attrs));
    }
    let Some(inner) = tail.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else {
        return Err(SyntaxError::at_byte(name_len, Syntax::NoBraces));
    };
    let base = name_len + 1;
    let chars: Vec<(usize, char)> = inner.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && chars[i].1.is_whitespace() {
            i += 1;
        }
        if i >= chars.len() {
            break;
        }
        let key_start = i;
        while i < chars.len()
            && (chars[i].1.is_ascii_alphanumeric() || chars[i].1 == '_' || chars[i].1 == '-')
        {
            i += 1;
        }
        let key: String = chars[key_start..i].iter().map(|c| c.1).collect();
        if key.is_empty() || i >= chars.len() || chars[i].1 != '=' {
            let at = base + chars.get(i).map(|c| c.0).unwrap_or(inner.len());
            return Err(SyntaxError::at_byte(at, Syntax::NotKeyValue));
        }
        i += 1;
        let mut value = String::new();
        if i < chars.len() && chars[i].1 == '"' {
            i += 1;
            let open_at = i;
            while i < chars.len() && chars[i].1 != '"' {
                value.push(chars[i].1);
                i += 1;
            }
            if i >= chars.len() {
                let at = base + chars[open_at.saturating_sub(1)].0;
                return Err(SyntaxError::at_byte(at, Syntax::Unclosed));
            }
            i += 1;
        } else {
            while i < chars.len() && !chars[i].1.is_whitespace() {
                value.push(chars[i].1);
                i += 1;
            }
        }
        if attrs.insert(key.clone(), value).is_some() {
            let at = base + chars[key_start].0;
            return Err(SyntaxError::at_byte(at, Syntax::Twice(key)));
        }
    }
    Ok((name.to_string(), attrs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page of a site in the default languages.
    fn parse(id: &str, file: &str, text: &str) -> (Option<PageSource>, Vec<Diagnostic>) {
        super::parse(id, file, text, Lang::DEFAULT)
    }

    const PAGE: &str = "---\ntitle: {ja: 題, en: Title}\n---\n\n:::ja\n本文\n:::\n:::en\nBody\n:::\n\n::bundles{arch=\"x86\"}\n";

    #[test]
    fn lines_split_as_split_does() {
        for text in ["", "\n", "a", "a\n", "a\r\nb\n\n本文", PAGE] {
            assert_eq!(
                lines(text),
                text.split('\n').collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn parses_blocks_and_directives() {
        let (page, diags) = parse("p", "content/p.md", PAGE);
        assert!(diags.is_empty(), "{diags:?}");
        let page = page.unwrap();
        assert_eq!(page.items.len(), 3);
        match &page.items[2] {
            Item::Directive(d) => {
                assert_eq!(d.name, "bundles");
                assert_eq!(d.attrs["arch"], "x86");
                assert_eq!(d.line, 12);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unclosed_block_is_located() {
        let (_, diags) = parse(
            "p",
            "content/p.md",
            "---\ntitle: {ja: a, en: b}\n---\n:::ja\ntext\n",
        );
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].span.line, 4);
        assert!(diags[0].message.contains("never closed"));
    }

    #[test]
    fn stray_text_is_an_error() {
        let (_, diags) = parse(
            "p",
            "content/p.md",
            "---\ntitle: {ja: a, en: b}\n---\nhello\n",
        );
        assert_eq!(diags[0].span.line, 4);
    }

    #[test]
    fn a_close_with_no_block_open_is_located_at_its_colons() {
        let (page, diags) = parse(
            "p",
            "content/p.md",
            "---\ntitle: {ja: a, en: b}\n---\n:::ja\nx\n:::\n  :::\n:::en\ny\n:::\n",
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!((diags[0].span.line, diags[0].span.column), (7, 3));
        assert_eq!(
            diags[0].message,
            "`:::` closes a block, but no block is open here"
        );
        assert!(
            diags[0]
                .hint
                .as_deref()
                .unwrap_or("")
                .contains("`:::ja`, `:::en`")
        );
        // The blocks around it are read as written.
        assert_eq!(page.unwrap().items.len(), 2);
    }

    #[test]
    fn a_bad_directive_is_an_error_and_no_item() {
        let (page, diags) = parse(
            "p",
            "content/p.md",
            "---\ntitle: {ja: a, en: b}\n---\n::run{id=\"x}\n",
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!((diags[0].span.line, diags[0].code), (4, "directive"));
        assert!(page.unwrap().items.is_empty());
    }

    #[test]
    fn front_matter_errors_point_into_the_file() {
        let (page, diags) = parse("p", "content/p.md", "---\ntitle: {ja: a}\n---\n");
        assert!(page.is_none());
        assert_eq!(diags[0].span.line, 2, "{:?}", diags[0]);
        assert!(diags[0].message.contains("missing field `en`"));
    }

    #[test]
    fn fenced_code_may_hold_fence_like_lines() {
        let text = "---\ntitle: {ja: a, en: b}\n---\n:::ja\n```\n:::\n```\n:::\n:::en\nx\n:::\n";
        let (page, diags) = parse("p", "content/p.md", text);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(page.unwrap().items.len(), 2);
    }

    /// Found by `fuzz/fuzz_targets/page.rs`: a `:::` line inside a block was dropped from
    /// the block, so every later markdown position was reported one line too high.
    #[test]
    fn a_nested_fence_keeps_later_lines_in_place() {
        let text = "---\ntitle: {ja: a, en: b}\n---\n:::ja\n:::en\nx\n:::\n";
        let (page, diags) = parse("p", "content/p.md", text);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].span.line, 5);
        let Some(Item::Block(b)) = page.unwrap().items.into_iter().next() else {
            panic!("no block");
        };
        let x = b.markdown.split('\n').position(|l| l == "x").unwrap();
        assert_eq!(b.body_line + x, 6, "{:?}", b.markdown);
    }

    /// Found by `fuzz/fuzz_targets/page.rs`: columns counted bytes, so a directive error
    /// after `日本`, or any error on a line indented with a full-width space, pointed past
    /// the character it meant (and past the end of the line).
    #[test]
    fn columns_count_characters() {
        let head = "---\ntitle: {ja: a, en: b}\n---\n";
        let (_, diags) = parse(
            "p",
            "content/p.md",
            &format!("{head}::run{{id=\"日本\" x}}\n"),
        );
        assert_eq!(
            (diags[0].span.line, diags[0].span.column),
            (4, 16),
            "{diags:?}"
        );
        let (_, diags) = parse("p", "content/p.md", &format!("{head}\u{3000}text\n"));
        assert_eq!(
            (diags[0].span.line, diags[0].span.column),
            (4, 2),
            "{diags:?}"
        );
    }

    #[test]
    fn directive_attributes() {
        let (n, a) = parse_directive("run{id=\"x y\" probe=z}").unwrap();
        assert_eq!(n, "run");
        assert_eq!(a["id"], "x y");
        assert_eq!(a["probe"], "z");
        assert!(parse_directive("run{id=\"x}").is_err());
        assert!(parse_directive("run{id}").is_err());
        assert!(parse_directive("run{a=1 a=2}").is_err());
    }

    #[test]
    fn a_fence_error_says_its_message_at_its_column() {
        let err = |rest: &str| {
            let e = fence_basis(rest, rest.find('{').unwrap_or(0)).unwrap_err();
            (e.at, e.to_string())
        };
        assert_eq!(
            err("en{basis=\"guess\"}"),
            (
                3,
                "unknown basis `guess`: write `observed`, `source` or `inferred`".into()
            )
        );
        assert_eq!(
            err("en{kind=\"x\"}"),
            (3, "unknown block attribute `kind`".into())
        );
        assert_eq!(
            err("en{}"),
            (2, "a block's attributes need `basis=\"…\"`".into())
        );
        // A two-byte character before the brace counts as one column.
        assert_eq!(
            err("é{basis=\"x"),
            (
                1,
                "expected `{key=\"value\" …}` after the directive name".into()
            )
        );
        assert_eq!(
            err("en{basis=\"source\"}").1,
            "a block marked `basis=\"source\"` needs `source=\"…\"`: the address of what it was read from"
        );
    }

    #[test]
    fn a_syntax_error_says_the_old_message_at_a_character_offset() {
        let e = parse_directive("claims{note=\"é\" note=x}").unwrap_err();
        assert_eq!(e.to_string(), "attribute `note` is given twice");
        // `é` is two bytes, one column.
        assert_eq!(e.at, 16);
        let e = parse_directive("claims page").unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected `{key=\"value\" …}` after the directive name"
        );
        assert_eq!(e.reason, Syntax::NoBraces);
        assert_eq!(
            parse_directive("run{id=\"x}").unwrap_err().to_string(),
            "unclosed `\"` in directive attribute"
        );
    }
}
