//! What the git history of a site's data says happened to its evidence: claims added
//! and moved between cannot-show and can-show, runs added, decision maps added, changed
//! or removed, each with its commit and the commit's date (so that a build of the same
//! history is the same bytes). Read by `load::history` when evidence.yaml says
//! `history: true`; shown on the claim tables, on run pages and in the Atom feeds.

use super::types::ClaimSide;

/// The events of the history, oldest first, or why there is none.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub events: Vec<Event>,
    /// Commits that touched the data and were read.
    pub commits: usize,
    /// Why the history could not be read (no git, not a repository, a shallow clone):
    /// said as a note by the build, never an error.
    pub unavailable: Option<String>,
}

/// One thing that happened to the evidence in one commit.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The commit's full hash.
    pub commit: String,
    /// The commit date, RFC 3339 as git gives it (`2026-04-01T12:00:00+00:00`).
    pub date: String,
    /// The first line of the commit message.
    pub subject: String,
    pub what: What,
}

#[derive(Debug, Clone, PartialEq)]
pub enum What {
    ClaimAdded {
        claim: String,
    },
    /// A side of the claim came from the other side (of it, or of another claim).
    ClaimMoved {
        claim: String,
        from: ClaimSide,
        /// The runs the claim began to cite in that commit, else the runs the commit
        /// added: what moved it.
        runs: Vec<String>,
    },
    /// A run file was added (its path below the site root; a run file is never rewritten,
    /// so the path names the run today).
    RunAdded {
        file: String,
    },
    MapAdded {
        map: String,
    },
    MapChanged {
        map: String,
    },
    MapRemoved {
        map: String,
    },
}

impl Event {
    /// The commit's short hash, as git shows it.
    pub fn short(&self) -> &str {
        &self.commit[..self.commit.len().min(7)]
    }

    /// The commit's calendar date (`YYYY-MM-DD`).
    pub fn day(&self) -> &str {
        &self.date[..self.date.len().min(10)]
    }
}

impl History {
    /// The events about claim `id`, oldest first.
    pub fn of_claim<'h>(&'h self, id: &'h str) -> impl Iterator<Item = &'h Event> + 'h {
        self.events.iter().filter(move |e| match &e.what {
            What::ClaimAdded { claim } | What::ClaimMoved { claim, .. } => claim == id,
            _ => false,
        })
    }

    /// The claims run `id` moved: each claim and the side it came from.
    pub fn moved_by_run<'h>(
        &'h self,
        id: &'h str,
    ) -> impl Iterator<Item = (&'h Event, &'h str, ClaimSide)> + 'h {
        self.events.iter().filter_map(move |e| match &e.what {
            What::ClaimMoved { claim, from, runs } if runs.iter().any(|r| r == id) => {
                Some((e, claim.as_str(), *from))
            }
            _ => None,
        })
    }
}
