//! The pack of the llama.cpp / ggml GPU dispatch investigation: which kernel family a
//! matrix multiplication runs on an AMD GPU, read from the binaries and probed through the
//! engines that embed ggml.
//!
//! It adds the record kinds `bundle` (`data/bundles.yaml`), `generation`
//! (`data/generations.yaml`), and the quantization map `tensor_type`, `file_type`,
//! `layer` and `plan` (`data/quantization.yaml`); the binary readers ([`binary`]: ELF,
//! offload bundles, AMDGPU code objects, GGUF, `/proc/*/maps`) and the runs they record
//! ([`scans`]); the engines `ollama` and `llama-server` and their probes ([`probe`]); the
//! tables ([`render`]); the rules that compare hand records with probe runs ([`check`]);
//! its messages (`locales/`) and styles (`style.css`). The engines' and statuses' labels are
//! the investigation's data (`data/vocabulary.yaml`).

pub mod binary;
pub mod check;
pub mod derive;
pub mod directives;
pub mod probe;
pub mod render;
#[cfg(test)]
mod runs_tests;

/// The record kinds, their files, run fields and schemas: the crate `evidence-ggml-model`,
/// under the names the pack has always given them.
pub use evidence_ggml_model::{load, model, runs, scans, schema};

use evidence_core::model::pack::Pack;

/// The rules the pack adds to `check`, as one of its parts.
static RULES: evidence_core::check::PackRules = evidence_core::check::PackRules(check::check);

/// The pack, as the program hands it to the core.
pub static PACK: Pack = Pack {
    name: "ggml",
    about: "GPU kernel dispatch in ggml: offload bundles, GPU generations, tensor types, \
            binary probes (fatbin, gguf, maps) and the Ollama and llama-server engines",
    kinds: &model::KINDS,
    files: &load::FILES,
    directives: &directives::SPECS,
    messages: &[
        ("ja", include_bytes!("locales/ja/ggml.ftl")),
        ("en", include_bytes!("locales/en/ggml.ftl")),
        ("de", include_bytes!("locales/de/ggml.ftl")),
    ],
    run_fields: &runs::RUN_FIELDS,
    case_fields: &runs::CASE_FIELDS,
    run_page_extras: runs::run_page_extras,
    run_reads: &[model::TENSOR_TYPE],
    css: include_bytes!("style.css"),
    schemas: schema::schemas,
    parts: &[&render::PART, &RULES],
};

/// The pack alone, as its own tests hand it to the core.
#[cfg(test)]
static ALONE: [&Pack; 1] = [&PACK];

/// Hands the pack to the core for a test of the pack (once; again is harmless).
#[cfg(test)]
pub(crate) fn register() {
    evidence_core::model::pack::register(&ALONE);
}

/// This investigation's site and the fixture that turns the pack on, held to the core's
/// checks of what every site's records give (strings, the export).
#[cfg(test)]
mod site_tests {
    use evidence_core::pipeline::test_support::{
        export_is_batch_free, export_is_the_tree, loaded, strings_are_the_jsons,
    };

    /// A Japanese site that turns the pack on gets Japanese tables without redefining
    /// them: the pack's Japanese messages name no English word but the code and formats
    /// they are about.
    #[test]
    fn the_packs_japanese_messages_have_no_english_words() {
        // Names of formats, probes and source constructs, written as they are in code.
        const CODE: [&str; 9] = [
            "fatbin", "gguf", "gfx", "ggml", "maps", "switch", "case", "size", "false",
        ];
        let ja = include_str!("locales/ja/ggml.ftl");
        let english: Vec<_> = evidence_core::load::messages::test_support::latin_words(ja)
            .into_iter()
            .filter(|(_, w)| !CODE.contains(&w.as_str()))
            .collect();
        assert_eq!(english, Vec::<(String, String)>::new());
    }

    #[test]
    fn the_packs_records_give_their_strings_and_export_like_the_cores() {
        crate::register();
        let sites = loaded(&["", "tests/fixtures/valid"]);
        strings_are_the_jsons(&sites);
        export_is_the_tree(&sites);
        export_is_batch_free(&sites);
    }
}
