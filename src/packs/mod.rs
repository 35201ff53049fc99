//! The packs this program hands to the core: what one kind of investigation adds, each in
//! a folder of its own (`ggml/`). The core names none of them; the command line registers
//! [`PACKS`] with `model::pack::register` before it reads a site.

pub mod ggml;

use crate::model::pack::Pack;

/// Every pack this build knows.
pub static PACKS: [&Pack; 1] = [&ggml::PACK];

/// Hands [`PACKS`] to the core (once; again is harmless).
pub fn register() {
    crate::model::pack::register(&PACKS);
}
