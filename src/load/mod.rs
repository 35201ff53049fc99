//! Stage 1: read `evidence.yaml`, `data/**/*.yaml`, `content/**/*.md` and the theme.
//!
//! Output is [`Sources`]: typed but unresolved records, each knowing its file, plus every
//! problem found so far. Loading goes on past a bad file so `check` can report them all.

pub mod page;
pub mod theme;
pub mod yaml;

use crate::diagnostics::{Diagnostic, Diagnostics, Span, rel_path};
use crate::model::refs::Kind;
use crate::model::types::*;
use page::PageSource;
use serde::Deserialize;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;
pub use theme::Theme;

/// The site config, `evidence.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub title: Text,
    #[serde(default)]
    pub description: Option<Text>,
    /// Absolute URL the site is published at (for the sitemap), ending in `/`.
    #[serde(default)]
    pub base_url: Option<String>,
    /// Author or team shown in the footer.
    #[serde(default)]
    pub author: Option<Text>,
    /// Views to publish, from `bilingual`, `ja`, `en` (default: all three).
    #[serde(default = "all_views")]
    pub views: Vec<crate::render::view::View>,
}

fn all_views() -> Vec<crate::render::view::View> {
    crate::render::view::View::ALL.to_vec()
}

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

/// Every data record, grouped by collection, before ids are resolved.
#[derive(Debug, Clone, Default)]
pub struct DataSet {
    pub families: Vec<Located<Family>>,
    pub maps: Vec<Located<DispatchMap>>,
    pub bundles: Vec<Located<Bundle>>,
    pub generations: Vec<Located<Generation>>,
    pub components: Vec<Located<Component>>,
    pub observers: Vec<Located<Observer>>,
    pub phases: Vec<Located<Phase>>,
    pub claims: Vec<Located<Claim>>,
    pub questions: Vec<Located<Question>>,
    pub terms: Vec<Located<Term>>,
    pub findings: Vec<Located<Finding>>,
    pub tensor_types: Vec<Located<TensorType>>,
    pub file_types: Vec<Located<FileType>>,
    pub layers: Vec<Located<Layer>>,
    pub plan: Vec<Located<PlanStep>>,
    pub runs: Vec<Located<Run>>,
    /// Kinds whose file failed to parse: references to them are not reported as dangling,
    /// since the parse error already is.
    pub incomplete: std::collections::BTreeSet<crate::model::refs::Kind>,
}

/// Everything read from disk.
#[derive(Debug, Clone)]
pub struct Sources {
    pub root: PathBuf,
    pub config: SiteConfig,
    pub data: DataSet,
    pub pages: Vec<PageSource>,
    pub theme: Theme,
}

/// Reads a whole site. Fails outright only when the config is missing or broken;
/// other problems come back as diagnostics next to what could be read.
pub fn load(root: &Path) -> Result<(Sources, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    let config = load_config(root).map_err(|d| {
        let mut ds = Diagnostics::default();
        ds.push(*d);
        ds
    })?;
    let mut data = load_data(root, &mut diags);
    let pages = load_pages(root, &mut diags, &mut data);
    let theme = Theme::load(root, &mut diags);
    let sources = Sources {
        root: root.to_path_buf(),
        config,
        data,
        pages,
        theme,
    };
    Ok((sources, diags))
}

fn load_config(root: &Path) -> Result<SiteConfig, Box<Diagnostic>> {
    let path = root.join("evidence.yaml");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Box::new(
            Diagnostic::error(
                "config",
                Span::file("evidence.yaml"),
                format!("cannot read {}: {e}", path.display()),
            )
            .with_hint("run evidence in the folder that holds evidence.yaml, or pass --root DIR"),
        )
    })?;
    yaml::parse::<SiteConfig>("evidence.yaml", &text, 0)
}

/// Files under `dir` with extension `ext`, sorted by path so output never depends on
/// the order the file system lists them in.
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
        .collect();
    out.sort();
    out
}

fn read(root: &Path, path: &Path, diags: &mut Diagnostics) -> Option<(String, String)> {
    let rel = rel_path(root, path);
    match std::fs::read_to_string(path) {
        Ok(t) => Some((rel, t)),
        Err(e) => {
            diags.push(Diagnostic::error(
                "io",
                Span::file(rel),
                format!("cannot read file: {e}"),
            ));
            None
        }
    }
}

fn load_data(root: &Path, diags: &mut Diagnostics) -> DataSet {
    let mut set = DataSet::default();
    let data_dir = root.join("data");
    for path in files_with_ext(&data_dir, "yaml") {
        let Some((rel, text)) = read(root, &path, diags) else {
            let rel = rel_path(root, &path);
            set.incomplete
                .extend(kinds_of(rel.strip_prefix("data/").unwrap_or(&rel)));
            continue;
        };
        let under = rel.strip_prefix("data/").unwrap_or(&rel).to_string();
        if under.starts_with("probes/") {
            continue; // probe inputs (case lists), read by `evidence probe`
        }
        let file: Arc<str> = Arc::from(rel.as_str());
        if under.starts_with("runs/") {
            match parse_into::<Run>(&file, &text, diags) {
                Some(run) => set.runs.push(Located { file, value: run }),
                None => {
                    set.incomplete.insert(Kind::Run);
                }
            }
            continue;
        }
        route_data_file(&under, &file, &text, &mut set, diags);
    }
    for path in files_with_ext(&data_dir, "yml") {
        diags.push(
            Diagnostic::error(
                "data-file",
                Span::file(rel_path(root, &path)),
                "data files end in `.yaml`",
            )
            .with_hint("rename the file to .yaml"),
        );
    }
    set
}

fn parse_into<T: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    match yaml::parse::<T>(file, text, 0) {
        Ok(v) => Some(v),
        Err(d) => {
            diags.push(*d);
            None
        }
    }
}

fn locate<T>(file: &Arc<str>, items: Vec<T>) -> Vec<Located<T>> {
    items
        .into_iter()
        .map(|value| Located {
            file: file.clone(),
            value,
        })
        .collect()
}

/// The kinds a data file holds, by its path under `data/` (none for a file that is not
/// a known data file).
pub fn kinds_of(name: &str) -> Vec<Kind> {
    if name.starts_with("runs/") {
        return vec![Kind::Run];
    }
    match name {
        "dispatch.yaml" => vec![Kind::Family, Kind::Map],
        "quantization.yaml" => vec![
            Kind::TensorType,
            Kind::FileType,
            Kind::Layer,
            Kind::PlanStep,
        ],
        "bundles.yaml" => vec![Kind::Bundle],
        "generations.yaml" => vec![Kind::Generation],
        "components.yaml" => vec![Kind::Component],
        "observers.yaml" => vec![Kind::Observer],
        "worklog.yaml" => vec![Kind::Phase],
        "claims.yaml" => vec![Kind::Claim],
        "questions.yaml" => vec![Kind::Question],
        "glossary.yaml" => vec![Kind::Term],
        "findings.yaml" => vec![Kind::Finding],
        _ => Vec::new(),
    }
}

/// Sends one data file to the collection its name selects.
fn route_data_file(
    name: &str,
    file: &Arc<str>,
    text: &str,
    set: &mut DataSet,
    diags: &mut Diagnostics,
) {
    macro_rules! list {
        ($field:ident, $ty:ty) => {
            parse_into::<Vec<$ty>>(file, text, diags).map(|v| set.$field.extend(locate(file, v)))
        };
    }
    let parsed = match name {
        "dispatch.yaml" => parse_into::<DispatchFile>(file, text, diags).map(|d| {
            set.families.extend(locate(file, d.families));
            set.maps.extend(locate(file, d.maps));
        }),
        "quantization.yaml" => parse_into::<QuantizationFile>(file, text, diags).map(|q| {
            set.tensor_types.extend(locate(file, q.tensor_types));
            set.file_types.extend(locate(file, q.file_types));
            set.layers.extend(locate(file, q.layers));
            set.plan.extend(locate(file, q.plan));
        }),
        "bundles.yaml" => list!(bundles, Bundle),
        "generations.yaml" => list!(generations, Generation),
        "components.yaml" => list!(components, Component),
        "observers.yaml" => list!(observers, Observer),
        "worklog.yaml" => list!(phases, Phase),
        "claims.yaml" => list!(claims, Claim),
        "questions.yaml" => list!(questions, Question),
        "glossary.yaml" => list!(terms, Term),
        "findings.yaml" => list!(findings, Finding),
        other => {
            diags.push(
                Diagnostic::error("data-file", Span::file(file.to_string()), format!("unknown data file `{other}`"))
                    .with_hint(
                        "data files are dispatch, bundles, generations, components, observers, worklog, claims, \
                         questions, glossary, findings, quantization (.yaml) and runs/*.yaml",
                    ),
            );
            Some(())
        }
    };
    if parsed.is_none() {
        set.incomplete.extend(kinds_of(name));
    }
}

fn load_pages(root: &Path, diags: &mut Diagnostics, set: &mut DataSet) -> Vec<PageSource> {
    let content = root.join("content");
    let mut pages = Vec::new();
    for path in files_with_ext(&content, "md") {
        let Some((rel, text)) = read(root, &path, diags) else {
            continue;
        };
        let id = rel
            .strip_prefix("content/")
            .and_then(|r| r.strip_suffix(".md"))
            .unwrap_or(&rel)
            .to_string();
        let (page, ds) = page::parse(&id, &rel, &text);
        diags.extend(ds);
        match page {
            Some(p) => pages.push(p),
            None => {
                set.incomplete.insert(Kind::Page);
            }
        }
    }
    pages
}

/// Every file under `dir`, as `/`-separated paths relative to it.
pub fn files_under(dir: &Path) -> std::collections::BTreeSet<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| rel_path(dir, e.path()))
        .collect()
}
