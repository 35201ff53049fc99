//! The packs this program hands to the core: what one kind of investigation adds, each a
//! crate of its own (`evidence-ggml`). The core names none of them; the command line
//! registers [`PACKS`] with `model::pack::register` before it reads a site.

pub use evidence_ggml as ggml;

use evidence_core::model::pack::Pack;

/// Every pack this build knows.
pub static PACKS: [&Pack; 1] = [&ggml::PACK];

/// Hands [`PACKS`] to the core (once; again is harmless).
pub fn register() {
    evidence_core::model::pack::register(&PACKS);
}
