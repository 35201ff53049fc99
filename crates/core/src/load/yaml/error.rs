//! A YAML error at its place: from the parser's events (`events`) or from reading the
//! tape into a type (`subset_de`). [`super::parse`] makes it a diagnostic.

use std::fmt;

/// What went wrong, which decides the hint and whether serde-saphyr must agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The text is not YAML.
    Syntax,
    /// A key appears twice in one mapping.
    Duplicate,
    /// One of the reader's limits (nesting, values, aliases) was passed.
    Limit,
    /// YAML the tool does not read: a tag other than `!!str`, `!!seq` or `!!map`.
    Unsupported,
    /// The value does not fit the type the file is read as.
    Shape,
}

/// An error of a YAML text, at a 1-based line and column (in characters).
#[derive(Debug)]
pub struct YamlError {
    pub kind: Kind,
    pub message: String,
    pub line: u32,
    pub column: u32,
    /// Where in the document, as `items[1].n`; empty at the top, or for an error of the text.
    pub path: String,
}

impl YamlError {
    /// An error of the text (not of its fit to a type) at `line` and `column`.
    pub fn new(kind: Kind, message: impl Into<String>, (line, column): (u32, u32)) -> Self {
        YamlError {
            kind,
            message: message.into(),
            line,
            column,
            path: String::new(),
        }
    }

    /// Whether it comes before `other` in the text.
    pub fn before(&self, other: &YamlError) -> bool {
        (self.line, self.column) < (other.line, other.column)
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

/// The 1-based line and column (in characters) of byte `offset` of `text`. On the first
/// line, columns count from after a byte order mark, as serde-saphyr's do.
pub fn position(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or("");
    let line_start = memchr::memrchr(b'\n', before.as_bytes()).map_or(0, |i| i + 1);
    let line = 1 + memchr::memchr_iter(b'\n', before.as_bytes()).count();
    let column = before[line_start..]
        .chars()
        .filter(|&c| c != '\u{feff}' || line_start != 0)
        .count();
    (narrow(line), narrow(column + 1))
}

/// A count that a position holds; past `u32::MAX` (a 4 GiB line) it saturates.
pub fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "a: 1\nbé: x\n";
        assert_eq!(position(text, 0), (1, 1));
        assert_eq!(position(text, 5), (2, 1));
        // `x` after the two-byte `é`: the fifth character of its line.
        assert_eq!(position(text, 10), (2, 5));
        assert_eq!(position(text, 99), (3, 1));
        assert_eq!(position("\u{feff}a: 1\n", 3), (1, 1));
        assert_eq!(position("\u{feff}a: 1\n", 6), (1, 4));
        assert_eq!(position("abc", 2), (1, 3));
    }

    #[test]
    fn an_error_says_where_it_is() {
        let e = YamlError::new(Kind::Syntax, "unclosed quote", (2, 3));
        assert_eq!(e.to_string(), "unclosed quote at line 2, column 3");
    }

    #[test]
    fn errors_order_by_place() {
        let at = |l, c| YamlError::new(Kind::Shape, "x", (l, c));
        assert!(at(1, 9).before(&at(2, 1)));
        assert!(at(2, 1).before(&at(2, 2)));
        assert!(!at(2, 2).before(&at(2, 2)));
    }
}
