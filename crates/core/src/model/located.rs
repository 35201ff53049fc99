//! Records that know the file they were read from, and the span of an id written there.
//!
//! `load` attaches the file; every later stage points at records through these.

use super::Id;
use crate::diagnostics::Span;
use std::ops::Deref;
use std::sync::Arc;

/// A value with the file it was read from.
#[derive(Debug, Clone)]
pub struct Located<T> {
    pub file: Arc<str>,
    pub value: T,
}

impl<T> Deref for Located<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> Located<T> {
    /// The span of an id or reference written in this record's file.
    pub fn span(&self, id: &Id) -> Span {
        span_of(&self.file, id)
    }
}

/// Span of a located string in `file`.
pub fn span_of(file: &str, id: &Id) -> Span {
    Span::new(
        file,
        id.referenced.line() as usize,
        id.referenced.column() as usize,
    )
}
