//! `evidence init DIR`: a new, small and complete example site that builds and checks
//! clean, in no investigation's terms. It has no theme
//! files of its own; the built-in templates, messages and CSS are used until overridden.

use std::io;
use std::path::Path;

const CONFIG: &str = include_str!("init_site/evidence.yaml");

/// The example site's files (`src/init_site/`), by their path in the new site: two pages,
/// a claim with its evidence and constraint, an observer, a worklog phase, a decision map
/// with decimal bounds and its diagram, the measurements of its vocabulary, a run that
/// records them, and a collection the site declares — in a domain of no investigation in
/// particular.
const EXAMPLE: &[(&str, &str)] = &[
    (
        "content/index.md",
        include_str!("init_site/content/index.md"),
    ),
    (
        "content/method.md",
        include_str!("init_site/content/method.md"),
    ),
    (
        "data/claims.yaml",
        include_str!("init_site/data/claims.yaml"),
    ),
    (
        "data/observers.yaml",
        include_str!("init_site/data/observers.yaml"),
    ),
    (
        "data/worklog.yaml",
        include_str!("init_site/data/worklog.yaml"),
    ),
    ("data/maps.yaml", include_str!("init_site/data/maps.yaml")),
    (
        "data/vocabulary.yaml",
        include_str!("init_site/data/vocabulary.yaml"),
    ),
    (
        "data/runs/load-sample.yaml",
        include_str!("init_site/data/runs/load-sample.yaml"),
    ),
    (
        "data/experiments.yaml",
        include_str!("init_site/data/experiments.yaml"),
    ),
];

/// What `init` puts in `.gitignore`: every name `build` writes besides `site/` itself.
pub const GITIGNORE: &str = "/.evidence-cache/\n/.site.lock\n/site.tmp-*\n/.site.old-*\n";

/// Creates the site. Refuses a folder that already has files in it.
pub fn init(dir: &Path) -> io::Result<()> {
    if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is not empty", dir.display()),
        ));
    }
    // The parse cache is local to each machine; the lock and the temporary folders of a
    // build never belong in the repository.
    let own = [("evidence.yaml", CONFIG), (".gitignore", GITIGNORE)];
    for &(path, text) in own.iter().chain(EXAMPLE) {
        let p = dir.join(path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(p, text)?;
    }
    // The schemas of the new site, and the editor settings that point its files at them.
    crate::schema::write(dir, &dir.join(crate::schema::DEFAULT_OUT))
        .map_err(|d| io::Error::other(d.message))?;
    Ok(())
}
