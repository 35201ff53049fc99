//! Located findings and the one place they are rendered (human, JSON, GitHub).
//!
//! Every stage reports problems as [`Diagnostic`]s that carry a file, line and column.
//! Nothing else in the crate formats a user-facing error position.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How serious a finding is. Errors fail `check` and stop `build`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A position in a source file, 1-based. Line 0 means "the file as a whole".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Span {
    /// Path relative to the site root, with `/` separators.
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Span {
    pub fn new(file: impl Into<String>, line: usize, column: usize) -> Self {
        Span {
            file: file.into(),
            line,
            column,
        }
    }

    /// A span for a whole file.
    pub fn file(file: impl Into<String>) -> Self {
        Span::new(file, 0, 0)
    }
}

/// One finding: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Diagnostic {
    pub span: Span,
    pub severity: Severity,
    /// Stable rule name, e.g. `dangling-ref`.
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            severity: Severity::Error,
            code,
            message: message.into(),
            hint: None,
        }
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// A sorted, de-duplicated list of findings.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.0.extend(other);
    }

    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Findings in a stable order (file, line, column, message).
    pub fn sorted(&self) -> Vec<Diagnostic> {
        let mut v = self.0.clone();
        v.sort();
        v.dedup();
        v
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// The code of a finding about a file that could not be read or was refused unread (not
/// a regular file, a link out of the site, not UTF-8): it is never quoted.
pub const IO: &str = "io";

/// Output formats of `evidence check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Github,
}

/// The text of a site file by its path relative to the site root, or `None` when it
/// cannot be read: what the human format quotes the finding's line from. This module reads
/// no file itself (it sits below `load`); `load::read::site_text` is the usual source.
pub type SourceText<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Renders findings in the chosen format, quoting source lines from `source`.
pub fn render(diags: &Diagnostics, format: Format, source: SourceText, color: bool) -> String {
    let sorted = diags.sorted();
    match format {
        Format::Human => render_human(&sorted, source, color),
        Format::Json => render_json(&sorted),
        Format::Github => render_github(&sorted),
    }
}

fn render_json(diags: &[Diagnostic]) -> String {
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let doc = serde_json::json!({
        "errors": errors,
        "warnings": diags.len() - errors,
        "diagnostics": diags,
    });
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}

fn render_github(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let kind = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut msg = d.message.clone();
        if let Some(h) = &d.hint {
            msg.push_str(" (hint: ");
            msg.push_str(h);
            msg.push(')');
        }
        let _ = writeln!(
            out,
            "::{kind} file={},line={},col={},title={}::{}",
            d.span.file,
            d.span.line.max(1),
            d.span.column.max(1),
            d.code,
            github_escape(&msg)
        );
    }
    out
}

/// GitHub workflow commands need `%`, CR and LF escaped in the message.
fn github_escape(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn render_human(diags: &[Diagnostic], read: SourceText, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut cache: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut out = String::new();
    for d in diags {
        // A file that could not be read, or was refused unread (a link out of the site),
        // has no line to show: quoting one would print what the finding keeps out.
        if d.code == IO {
            out.push_str(&render_one(&renderer, d, None));
            out.push('\n');
            continue;
        }
        let source = cache
            .entry(d.span.file.clone())
            .or_insert_with(|| read(&d.span.file));
        out.push_str(&render_one(&renderer, d, source.as_deref()));
        out.push('\n');
    }
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags.len() - errors;
    if !diags.is_empty() {
        let _ = writeln!(out, "{errors} error(s), {warnings} warning(s)");
    }
    out
}

fn render_one(renderer: &Renderer, d: &Diagnostic, source: Option<&str>) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let title = format!("{} [{}]", d.message, d.code);
    let location = format!("{}:{}:{}", d.span.file, d.span.line, d.span.column);
    let line_text = source.and_then(|s| {
        d.span
            .line
            .checked_sub(1)
            .and_then(|i| s.split('\n').nth(i))
    });
    let mut group = Group::with_title(level.primary_title(title.clone()));
    match line_text {
        Some(text) => {
            let text = text.trim_end_matches('\r');
            let start = byte_of_column(text, d.span.column);
            let end = next_char_end(text, start);
            group = group.element(
                Snippet::source(text)
                    .line_start(d.span.line)
                    .path(d.span.file.as_str())
                    .annotation(AnnotationKind::Primary.span(start..end)),
            );
        }
        None => {
            group = group.element(Level::NOTE.message(format!("in {location}")));
        }
    }
    if let Some(h) = &d.hint {
        group = group.element(Level::HELP.message(h.as_str()));
    }
    let rendered = renderer.render(&[group]);
    // Keep a greppable `file:line:col` even when the snippet is shown.
    if line_text.is_some() {
        rendered
    } else {
        format!("{rendered}\n")
    }
}

/// Byte offset of a 1-based character column (0 = start of line).
fn byte_of_column(text: &str, column: usize) -> usize {
    text.char_indices()
        .nth(column.saturating_sub(1))
        .map(|(i, _)| i)
        .unwrap_or(text.len())
}

fn next_char_end(text: &str, start: usize) -> usize {
    text[start..]
        .chars()
        .next()
        .map(|c| start + c.len_utf8())
        .unwrap_or(start)
}

/// The byte offset at which 1-based `line` of `text` starts, or `None` when `text` has
/// fewer lines.
pub fn line_start(text: &str, line: usize) -> Option<usize> {
    if line <= 1 {
        return Some(0);
    }
    text.match_indices('\n').nth(line - 2).map(|(i, _)| i + 1)
}

/// The span of byte `at` of `text`, whose first line is line `first_line` of `file`.
pub fn span_at(file: &str, text: &str, at: usize, first_line: usize) -> Span {
    let before = text.get(..at.min(text.len())).unwrap_or(text);
    let line = first_line + before.matches('\n').count();
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    Span::new(file, line, col)
}

/// Turns a path under `root` into the `/`-separated relative form used in spans.
pub fn rel_path(root: &Path, path: &Path) -> String {
    let rel: PathBuf = path.strip_prefix(root).unwrap_or(path).to_path_buf();
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether standard output was found closed: its reader went away (`evidence check |
/// head`, a pager quit early). Output after that is dropped.
static STDOUT_GONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes `args` to standard output: the one way the tool prints there (`print!` panics
/// when the reader has gone). A closed pipe (EPIPE) is no error, as for ripgrep: nothing
/// is said, the rest of the output is dropped, and the command ends with the status its
/// work earned (0 after a successful build). Any other failure to write is said once on
/// standard error, and the process exits with status 1.
pub fn out(args: std::fmt::Arguments) {
    use std::io::Write as _;
    use std::sync::atomic::Ordering;
    if STDOUT_GONE.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_fmt(args).and_then(|()| stdout.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            STDOUT_GONE.store(true, Ordering::Relaxed);
        }
        Err(e) => {
            STDOUT_GONE.store(true, Ordering::Relaxed);
            eprintln!("error: cannot write to standard output: {e}");
            std::process::exit(1);
        }
    }
}

/// [`out`] with a line ending after `args`.
pub fn out_line(args: std::fmt::Arguments) {
    out(format_args!("{args}\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_starts_after_the_newline_before_it() {
        let text = "one\ntwo\nthree";
        assert_eq!(line_start(text, 0), Some(0));
        assert_eq!(line_start(text, 1), Some(0));
        assert_eq!(line_start(text, 2), Some(4));
        assert_eq!(line_start(text, 3), Some(8));
        assert_eq!(line_start(text, 4), None);
    }

    #[test]
    fn github_messages_are_one_line() {
        let mut d = Diagnostics::default();
        d.push(Diagnostic::error(
            "x",
            Span::new("a.yaml", 2, 3),
            "first\nsecond 100%",
        ));
        let out = render(&d, Format::Github, &|_| None, false);
        assert_eq!(
            out,
            "::error file=a.yaml,line=2,col=3,title=x::first%0Asecond 100%25\n"
        );
    }
}
