//! The theme: templates, Fluent messages and static files.
//!
//! The built-in theme is embedded in the binary, so a site without its own `templates/`
//! still builds. A site's own files replace built-in ones file by file and may add more.
//! Its templates and static files are the repository's own `templates/` and `static/`
//! (the investigation at the root builds with them as its own files, equal to the
//! built-in ones); its messages are `src/messages/`, since the root's `locales/` holds the
//! investigation's words, which redefine some built-in messages.

use super::read::{ReadError, SOURCE, decode, read_bytes};
use crate::diagnostics::{Diagnostics, rel_path};
use crate::model::types::SiteConfig;
use std::collections::BTreeMap;
use std::path::Path;

/// Files of the built-in theme, embedded at compile time (paths relative to the site root).
pub const BUILTIN: &[(&str, &[u8])] = &[
    (
        "templates/base.html",
        include_bytes!("../../../../templates/base.html"),
    ),
    (
        "templates/page.html",
        include_bytes!("../../../../templates/page.html"),
    ),
    (
        "templates/table.html",
        include_bytes!("../../../../templates/table.html"),
    ),
    (
        "templates/figure.html",
        include_bytes!("../../../../templates/figure.html"),
    ),
    (
        "templates/404.html",
        include_bytes!("../../../../templates/404.html"),
    ),
    (
        "templates/sitemap.xml",
        include_bytes!("../../../../templates/sitemap.xml"),
    ),
    (
        "locales/ja/evidence.ftl",
        include_bytes!("../messages/ja/evidence.ftl"),
    ),
    (
        "locales/en/evidence.ftl",
        include_bytes!("../messages/en/evidence.ftl"),
    ),
    (
        "locales/de/evidence.ftl",
        include_bytes!("../messages/de/evidence.ftl"),
    ),
    (
        "static/style.css",
        include_bytes!("../../../../static/style.css"),
    ),
    ("static/nav.js", include_bytes!("../../../../static/nav.js")),
    (
        "static/search.js",
        include_bytes!("../../../../static/search.js"),
    ),
];

/// A theme file and where it came from.
#[derive(Debug, Clone)]
pub struct ThemeFile {
    /// Site-relative path when the site provides it, else `(built-in) <path>`.
    pub origin: String,
    pub bytes: Vec<u8>,
}

impl ThemeFile {
    /// The file as text. Templates and messages were checked to be UTF-8 when read (the
    /// built-in ones are), so for them the lossy conversion loses nothing.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// Whether the binary, not the site, provides the file.
    pub fn is_builtin(&self) -> bool {
        self.origin.starts_with(BUILTIN_MARK)
    }

    /// Whether the file says what the built-in file at its path says, whoever provides
    /// it: the investigation at the repository's root has the built-in templates as its
    /// own files, and they behave as the built-in ones.
    pub fn has_builtin_bytes(&self) -> bool {
        self.is_builtin()
            || BUILTIN
                .iter()
                .any(|(path, bytes)| *path == self.path() && *bytes == self.bytes.as_slice())
    }

    /// The site-relative path, also of a built-in file.
    pub fn path(&self) -> &str {
        self.origin
            .strip_prefix(BUILTIN_MARK)
            .unwrap_or(&self.origin)
    }
}

/// How [`ThemeFile::origin`] marks a built-in file.
const BUILTIN_MARK: &str = "(built-in) ";

/// The bytes of a theme file in folder `dir`. Templates and messages are text, so they
/// must be UTF-8 ([`ThemeFile::text`] then loses nothing); static files may be anything.
fn read_theme_file(path: &Path, dir: &str) -> Result<Vec<u8>, ReadError> {
    let bytes = read_bytes(path, SOURCE)?;
    if dir == "static" {
        return Ok(bytes);
    }
    decode(bytes).map(String::into_bytes)
}

/// All theme files by site-relative path (`templates/…`, `locales/…`, `static/…`).
#[derive(Debug, Clone, Default)]
pub struct Theme {
    pub files: BTreeMap<String, ThemeFile>,
}

impl Theme {
    /// The built-in theme, with the messages and styles of the packs the site turns on
    /// (`locales/<lang>/<pack>.ftl`, `static/packs/<pack>.css`), overlaid with the site's
    /// own files.
    pub fn load(root: &Path, config: &SiteConfig, diags: &mut Diagnostics) -> Theme {
        let mut files = BTreeMap::new();
        let packs = config.pack_list().iter().flat_map(|p| {
            let css = (!p.css.is_empty()).then(|| (format!("static/packs/{}.css", p.name), p.css));
            p.messages
                .iter()
                .map(|(lang, bytes)| (format!("locales/{lang}/{}.ftl", p.name), *bytes))
                .chain(css)
        });
        let builtin = BUILTIN.iter().map(|(p, b)| (p.to_string(), *b));
        for (path, bytes) in builtin.chain(packs) {
            files.insert(
                path.clone(),
                ThemeFile {
                    origin: format!("{BUILTIN_MARK}{path}"),
                    bytes: bytes.to_vec(),
                },
            );
        }
        for dir in ["templates", "locales", "static"] {
            let (found, problems) = super::walk::files(root, dir);
            diags.extend(problems);
            for path in found {
                let rel = rel_path(root, &path);
                match read_theme_file(&path, dir) {
                    Ok(bytes) => {
                        files.insert(rel.clone(), ThemeFile { origin: rel, bytes });
                    }
                    Err(e) => diags.push(super::read_error(&rel, &e)),
                }
            }
        }
        Theme { files }
    }

    /// Files under a folder (`"templates/"`), keyed by the rest of their path.
    pub fn under<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = (&'a str, &'a ThemeFile)> + 'a {
        self.files
            .iter()
            .filter_map(move |(k, v)| k.strip_prefix(prefix).map(|rest| (rest, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `dir` of the repository, by the path a site would give it: the
    /// folder `as_dir` in place of `dir`.
    fn files_of(dir: &str, as_dir: &str) -> BTreeMap<String, Vec<u8>> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        walkdir::WalkDir::new(root.join(dir))
            .into_iter()
            .map(|e| e.expect("a readable entry"))
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(root.join(dir)).expect("under dir");
                let name = rel.to_string_lossy().replace('\\', "/");
                let bytes = std::fs::read(e.path()).expect("a readable file");
                (format!("{as_dir}/{name}"), bytes)
            })
            .collect()
    }

    /// The binary's theme is the repository's `templates/`, `static/` and the core's `src/messages/`,
    /// file for file and byte for byte: a file added there and not embedded, or embedded
    /// from elsewhere, fails here.
    #[test]
    fn the_builtin_theme_is_the_repository_templates_static_and_messages() {
        let mut on_disk = files_of("templates", "templates");
        on_disk.extend(files_of("static", "static"));
        on_disk.extend(files_of("crates/core/src/messages", "locales"));
        let embedded: BTreeMap<String, Vec<u8>> = BUILTIN
            .iter()
            .map(|(path, bytes)| (path.to_string(), bytes.to_vec()))
            .collect();
        assert_eq!(embedded.len(), BUILTIN.len(), "a path embedded twice");
        assert_eq!(
            embedded.keys().collect::<Vec<_>>(),
            on_disk.keys().collect::<Vec<_>>()
        );
        for (path, bytes) in &on_disk {
            assert!(embedded[path] == *bytes, "{path} differs from the binary's");
        }
    }
}
