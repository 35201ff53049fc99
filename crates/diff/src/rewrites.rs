//! Run records rewritten: a run file of the base side that the head side changed (by any
//! byte, comments included), removed, or renamed.
//!
//! A run records what was observed once; a later observation is a new run file. Nothing
//! else holds that rule, so the diff compares the run files themselves, by path and text,
//! not only the values the rest of the report compares: an edit that no value shows (a
//! comment, the layout) is a rewrite all the same.

use super::report::{self, Change, Compared, FieldChange};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The run files of one side, by path relative to the site root: the run each records
/// and the file's bytes.
#[derive(Debug, Default)]
pub struct RunFiles(BTreeMap<String, (String, Vec<u8>)>);

/// A run file that could not be read again after loading.
#[derive(Debug)]
pub struct Unreadable {
    pub file: String,
    pub error: std::io::Error,
}

/// Reads the file of every run the loaded side holds (exactly the files the loader read
/// as runs, so each has its run id).
pub fn read(root: &Path, ev: &evidence_core::model::Evidence) -> Result<RunFiles, Unreadable> {
    let mut files = BTreeMap::new();
    for run in ev.runs.iter() {
        let file = run.file.to_string();
        let bytes = std::fs::read(root.join(&file)).map_err(|error| Unreadable {
            file: file.clone(),
            error,
        })?;
        files.insert(file, (run.id.value.clone(), bytes));
    }
    Ok(RunFiles(files))
}

/// One rewritten run file.
#[derive(Debug, Serialize, PartialEq)]
pub struct Rewrite {
    /// The base side's run file, relative to the site root.
    pub file: String,
    /// The run the base side recorded in it.
    pub run: String,
    /// `changed` (its text differs) or `removed` (gone from that path, renamed included).
    pub change: Change,
    /// For a removed file, the head side's new run file holding the same bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_to: Option<String>,
    /// Recorded values that differ, old → new; empty when only comments or layout changed.
    pub fields: Vec<FieldChange>,
    /// For a changed file, the first line (1-based) of the head side's text that differs
    /// from the base side's: where `--deny-rewrites` points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// Every base run file the head side changed or removed, in path order.
pub fn find(base: &Compared, head: &Compared) -> Vec<Rewrite> {
    let (old, new) = (&base.run_files.0, &head.run_files.0);
    let mut out = Vec::new();
    for (file, (run, bytes)) in old {
        match new.get(file) {
            Some((_, same)) if same == bytes => {}
            Some((new_run, now)) => out.push(Rewrite {
                file: file.clone(),
                run: run.clone(),
                change: Change::Changed,
                renamed_to: None,
                fields: fields(base, run, head, new_run),
                line: Some(first_differing_line(bytes, now)),
            }),
            None => out.push(Rewrite {
                file: file.clone(),
                run: run.clone(),
                change: Change::Removed,
                renamed_to: renamed_to(bytes, old, new),
                fields: Vec::new(),
                line: None,
            }),
        }
    }
    out
}

/// The recorded values of a run that differ between the sides, field by field.
fn fields(base: &Compared, old_run: &str, head: &Compared, new_run: &str) -> Vec<FieldChange> {
    let old = report::kind(base, "run").get(old_run).copied();
    let new = report::kind(head, "run").get(new_run).copied();
    report::fields(old, new, head.ev.languages()).0
}

/// The first line (1-based) at which `new` differs from `old`; one past the last line of
/// the shorter when one text is the other with lines added at its end.
fn first_differing_line(old: &[u8], new: &[u8]) -> usize {
    let mut a = old.split(|b| *b == b'\n');
    let mut b = new.split(|b| *b == b'\n');
    let mut line = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            _ => return line,
        }
    }
}

/// A head-only run file with exactly `bytes`: where a removed file went.
fn renamed_to(
    bytes: &[u8],
    old: &BTreeMap<String, (String, Vec<u8>)>,
    new: &BTreeMap<String, (String, Vec<u8>)>,
) -> Option<String> {
    new.iter()
        .find(|(f, (_, b))| !old.contains_key(*f) && b == bytes)
        .map(|(f, _)| f.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> BTreeMap<String, (String, Vec<u8>)> {
        list.iter()
            .map(|(f, t)| (f.to_string(), ("r".to_string(), t.as_bytes().to_vec())))
            .collect()
    }

    #[test]
    fn the_first_differing_line_is_where_the_texts_part() {
        assert_eq!(first_differing_line(b"a\nb\nc\n", b"a\nB\nc\n"), 2);
        assert_eq!(first_differing_line(b"a\nb\n", b"a\nb\nc\n"), 3);
        assert_eq!(first_differing_line(b"x", b"y"), 1);
    }

    #[test]
    fn a_rename_is_found_by_identical_bytes_in_a_new_file_only() {
        let old = files(&[("a.yaml", "x"), ("b.yaml", "y")]);
        let new = files(&[("b.yaml", "x"), ("c.yaml", "z"), ("d.yaml", "x")]);
        assert_eq!(renamed_to(b"x", &old, &new), Some("d.yaml".into()));
        assert_eq!(renamed_to(b"y", &old, &new), None);
    }
}
