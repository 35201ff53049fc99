//! The one table shape every directive renders into, already resolved for a view.
//! `templates/table.html` draws it.

use serde::Serialize;

/// A data table: caption, source line, header cells and rows of HTML cells.
#[derive(Debug, Clone, Default)]
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
    /// Rows already written as HTML (`<tr>…</tr>` lines), after `rows`: a run table has
    /// thousands of rows, and a string per cell cost more than writing them.
    pub rows_html: String,
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

/// What `table.html` sees: the table with its rows already written as HTML, because a run
/// table can have thousands of rows and a template loop over them costs more than the rest
/// of the page together. The template still owns the frame (caption, header, notes).
#[derive(Serialize)]
pub struct TableContext<'a> {
    pub id: &'a str,
    pub class: &'a str,
    pub caption: &'a str,
    pub source: &'a str,
    /// Column heads as HTML, identifiers breakable after `_` (`est_<wbr>rows`).
    pub columns: Vec<String>,
    pub rows_html: String,
    pub notes: &'a [String],
}

/// `html` with a line-break opportunity after each `_` of its text (not of its tags), so
/// that a head named by an identifier (`est_rows`) does not widen its column.
fn breakable(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 8);
    let mut in_tag = false;
    for c in html.chars() {
        out.push(c);
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            '_' if !in_tag => out.push_str("<wbr>"),
            _ => {}
        }
    }
    out
}

impl Table {
    pub fn context(&self) -> TableContext<'_> {
        TableContext {
            id: &self.id,
            class: &self.class,
            caption: &self.caption,
            source: &self.source,
            columns: self.columns.iter().map(|c| breakable(c)).collect(),
            rows_html: self.body_html(),
            notes: &self.notes,
        }
    }

    /// `<tr>` rows (or the one "empty" row), one per line.
    fn body_html(&self) -> String {
        use std::fmt::Write as _;
        let esc = crate::render::escape;
        let mut out = String::with_capacity(self.rows.len() * 160 + self.rows_html.len());
        for row in &self.rows {
            out.push_str("<tr");
            if let Some(id) = &row.id {
                let _ = write!(out, " id=\"{}\"", esc(id));
            }
            if let Some(class) = &row.class {
                let _ = write!(out, " class=\"{}\"", esc(class));
            }
            out.push('>');
            // A record's row is named by its first cell: a header for the cells after it,
            // which a screen reader announces with each of them.
            for (i, cell) in row.cells.iter().enumerate() {
                let tag = if i == 0 && row.id.is_some() {
                    "th"
                } else {
                    "td"
                };
                out.push('<');
                out.push_str(tag);
                if tag == "th" {
                    out.push_str(" scope=\"row\"");
                }
                out.push('>');
                out.push_str(cell);
                out.push_str("</");
                out.push_str(tag);
                out.push('>');
            }
            out.push_str("</tr>\n");
        }
        out.push_str(&self.rows_html);
        if self.rows.is_empty() && self.rows_html.is_empty() {
            let _ = writeln!(
                out,
                "<tr><td colspan=\"{}\" class=\"empty\">{}</td></tr>",
                self.columns.len(),
                self.empty
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::breakable;

    #[test]
    fn heads_break_after_underscores_of_their_text_only() {
        assert_eq!(
            breakable("prompt_eval_count"),
            "prompt_<wbr>eval_<wbr>count"
        );
        assert_eq!(
            breakable("<code class=\"a_b\">x_y</code>"),
            "<code class=\"a_b\">x_<wbr>y</code>"
        );
        assert_eq!(breakable("Case"), "Case");
    }
}
