//! `evidence init DIR`: a new, minimal site that builds and checks clean. It has no theme
//! files of its own; the built-in templates, messages and CSS are used until overridden.

use std::io;
use std::path::Path;

const CONFIG: &str = "title: {ja: \"新しい調査\", en: \"A new investigation\"}\n\
description: {ja: \"観測記録から作るサイト\", en: \"A site built from recorded observations\"}\n";

const INDEX: &str = r#"---
title: {ja: "調査の概要", en: "Investigation overview"}
description: {ja: "何を調べ、何が言えるか", en: "What we examine and what we can say"}
order: 0
---

:::ja
## 問い
ここに調査の問いを書きます。表はデータから作られます。
:::

:::en
## Question
State the question of the investigation here. Tables are built from the data.
:::

::claims
"#;

const CLAIMS: &str = r#"- id: first-claim
  page: index
  can:
    ja: "記録した観測から言えること。"
    en: "What the recorded observations show."
  cannot:
    ja: "その観測ではまだ言えないこと。"
    en: "What they cannot show yet."
  evidence: ["page:index"]
  limit:
    ja: "まだ観測手段を記録していない。"
    en: "No observer has been recorded yet."
"#;

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
    for (path, text) in [
        ("evidence.yaml", CONFIG),
        ("content/index.md", INDEX),
        ("data/claims.yaml", CLAIMS),
        // The parse cache is local to each machine; the lock and the temporary folders
        // of a build never belong in the repository.
        (".gitignore", GITIGNORE),
    ] {
        let p = dir.join(path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(p, text)?;
    }
    Ok(())
}
