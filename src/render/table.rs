//! The one table shape every directive renders into, already resolved for a view.
//! `templates/table.html` draws it.

use serde::Serialize;

/// A data table: caption, source line, header cells and rows of HTML cells.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Table {
    /// Anchor id of the figure.
    pub id: String,
    /// CSS class naming the kind of table (`bundles`, `claims`, …).
    pub class: String,
    pub caption: String,
    /// "Source: data/bundles.yaml" line (HTML).
    pub source: String,
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    /// Shown instead of the rows when there are none.
    pub empty: String,
    /// Notes under the table (HTML).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Default)]
pub struct Row {
    /// Anchor id of the row, so other pages can link to a record.
    pub id: Option<String>,
    /// Extra CSS class (e.g. `works` for the observer that works).
    pub class: Option<String>,
    pub cells: Vec<String>,
}

impl Row {
    pub fn new(cells: Vec<String>) -> Row {
        Row {
            id: None,
            class: None,
            cells,
        }
    }

    pub fn id(mut self, id: impl Into<String>) -> Row {
        self.id = Some(id.into());
        self
    }

    pub fn class(mut self, class: impl Into<String>) -> Row {
        self.class = Some(class.into());
        self
    }
}
