//! The build-error overlay: while the inputs have errors, every served HTML page shows them
//! in a fixed box on top of the last good site, and a page stands in for the site when no
//! build has succeeded yet.
//!
//! The text is what `evidence check` prints (`diagnostics::render` in the human format,
//! without colour), HTML-escaped, so a message quoting the offending line can never
//! inject markup. The overlay is styled inline so that it does not depend on the site's
//! CSS, which may be the very file that is broken.

use crate::render::escape;

/// The `id` of the overlay element.
pub const ID: &str = "evidence-error-overlay";

/// The overlay for the rendered diagnostics `report` (plain text).
pub fn overlay(report: &str, errors: usize) -> String {
    let title = if errors == 1 {
        "evidence serve: the build failed with 1 error".to_string()
    } else {
        format!("evidence serve: the build failed with {errors} errors")
    };
    format!(
        "<div id=\"{ID}\" role=\"alert\" lang=\"en\" style=\"all:initial;display:block;position:fixed;\
         inset:0;z-index:2147483647;overflow:auto;box-sizing:border-box;padding:24px;\
         background:rgba(24,24,27,.96);color:#f4f4f5;\
         font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace\">\
         <p style=\"margin:0 0 12px;color:#fca5a5;font:bold 16px/1.4 system-ui,sans-serif\">\
         {title}</p>\
         <p style=\"margin:0 0 16px;color:#d4d4d8;font:14px/1.4 system-ui,sans-serif\">\
         The last good build is still served underneath. Fix the input and save: the page \
         reloads by itself.</p>\
         <pre style=\"margin:0;white-space:pre-wrap;overflow-wrap:anywhere;color:inherit;\
         font:inherit\">{}</pre></div>\n",
        escape(report.trim_end())
    )
}

/// A whole page for when there is no good build to show under the overlay.
pub fn page(report: &str, errors: usize) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Build failed · evidence serve</title>\n</head>\n<body>\n{}</body>\n</html>\n",
        overlay(report, errors)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_the_report() {
        let o = overlay("error: <script>alert(1)</script> & \"x\"\n", 1);
        assert!(o.contains("id=\"evidence-error-overlay\""));
        assert!(o.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
        assert!(!o.contains("<script>"));
        assert!(o.contains("failed with 1 error<"));
        assert!(overlay("", 3).contains("failed with 3 errors"));
    }

    #[test]
    fn page_is_a_document() {
        let p = page("error: x", 1);
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("</body>"));
        assert!(p.contains(ID));
    }
}
