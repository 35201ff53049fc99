//! The one table shape every directive renders into, already resolved for a view.
//! `templates/table.html` draws it. Every cell, caption and note is [`Html`]: text reaches
//! a table only through an escaping constructor.

use super::html::Html;
use serde::Serialize;

/// A data table: caption, source line, header cells and rows of HTML cells.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Anchor id of the figure.
    pub id: String,
    /// CSS class naming the kind of table (`bundles`, `claims`, …).
    pub class: String,
    pub caption: Html,
    /// "Source: data/bundles.yaml" line.
    pub source: Html,
    pub columns: Vec<Html>,
    pub rows: Vec<Row>,
    /// Rows already written as HTML (`<tr>…</tr>` lines), after `rows`: a run table has
    /// thousands of rows, and a string per cell cost more than writing them.
    pub rows_html: Html,
    /// Shown instead of the rows when there are none.
    pub empty: Html,
    /// Notes under the table.
    pub notes: Vec<Html>,
}

#[derive(Debug, Clone, Serialize, Default)]
pub struct Row {
    /// Anchor id of the row, so other pages can link to a record.
    pub id: Option<String>,
    /// Extra CSS class (e.g. `works` for the observer that works).
    pub class: Option<String>,
    pub cells: Vec<Html>,
}

impl Row {
    pub fn new(cells: Vec<Html>) -> Row {
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

/// What `table.html` sees: the table with its rows already written as HTML, because a run
/// table can have thousands of rows and a template loop over them costs more than the rest
/// of the page together. The template still owns the frame (caption, header, notes).
#[derive(Serialize)]
pub struct TableContext<'a> {
    pub id: &'a str,
    pub class: &'a str,
    pub caption: &'a Html,
    pub source: &'a Html,
    /// Column heads, as given: an identifier (`est_rows`) is never broken inside (the
    /// stylesheet keeps it whole), so a reader sees the name the data uses.
    pub columns: &'a [Html],
    /// The table's own `rows_html` when it has no other rows: a run table's rows are not
    /// copied once more on their way into the template.
    pub rows_html: std::borrow::Cow<'a, Html>,
    pub notes: &'a [Html],
}

impl Table {
    pub fn context(&self) -> TableContext<'_> {
        TableContext {
            id: &self.id,
            class: &self.class,
            caption: &self.caption,
            source: &self.source,
            columns: &self.columns,
            rows_html: self.body_html(),
            notes: &self.notes,
        }
    }

    /// `<tr>` rows (or the one "empty" row), one per line.
    fn body_html(&self) -> std::borrow::Cow<'_, Html> {
        if self.rows.is_empty() && !self.rows_html.is_empty() {
            return std::borrow::Cow::Borrowed(&self.rows_html);
        }
        let mut out = Html::with_capacity(self.rows.len() * 160 + self.rows_html.as_str().len());
        for row in &self.rows {
            out.push_static("<tr");
            if let Some(id) = &row.id {
                out.push_static(" id=\"");
                out.push_text(id);
                out.push_static("\"");
            }
            if let Some(class) = &row.class {
                out.push_static(" class=\"");
                out.push_text(class);
                out.push_static("\"");
            }
            out.push_static(">");
            // A row is named by its first cell (a record's id, a case, a claim, a range): a
            // header for the cells after it, which a screen reader announces with each.
            for (i, cell) in row.cells.iter().enumerate() {
                let (open, close) = if i == 0 {
                    ("<th scope=\"row\">", "</th>")
                } else {
                    ("<td>", "</td>")
                };
                out.push_static(open);
                out.push(cell);
                out.push_static(close);
            }
            out.push_static("</tr>\n");
        }
        out.push(&self.rows_html);
        if self.rows.is_empty() && self.rows_html.is_empty() {
            crate::render::html::html_into!(
                out,
                "<tr><td colspan=\"{}\" class=\"empty\">{}</td></tr>\n",
                self.columns.len(),
                self.empty
            );
        }
        std::borrow::Cow::Owned(out)
    }
}
