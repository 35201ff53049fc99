//! The JSON Schemas of what the pack lets a site write: its data files (`bundles.yaml`,
//! `generations.yaml`, `quantization.yaml`) and the fields its probes keep in runs and
//! cases, each from the serde type the pack reads it with.

use super::model::{Bundle, Generation, QuantizationFile};
use super::runs::{
    CacheDefeat, LlamaServerCase, ModelDetails, ModelMemory, RequestSettings, Residency,
    SweepPoint, SweepSettings,
};
use super::scans::{FatbinRecord, GgufRecord, MapsRecord};
use evidence_core::model::json_schema::{PackSchemas, described};
use schemars::SchemaGenerator;

/// The pack's schemas, made with `g`.
pub fn schemas(g: &mut SchemaGenerator) -> PackSchemas {
    let string = |g: &mut SchemaGenerator| g.subschema_for::<String>();
    PackSchemas {
        files: vec![
            ("bundles.yaml", g.subschema_for::<Vec<Bundle>>()),
            ("generations.yaml", g.subschema_for::<Vec<Generation>>()),
            ("quantization.yaml", g.subschema_for::<QuantizationFile>()),
        ],
        run_values: vec![
            (
                "endpoint",
                described(
                    string(g),
                    "Where the engine was reached: scheme, host and port.",
                ),
            ),
            (
                "model",
                described(string(g), "What the engine ran, by the name it gives it."),
            ),
            ("model_details", g.subschema_for::<ModelDetails>()),
            ("loaded", g.subschema_for::<ModelMemory>()),
            ("request", g.subschema_for::<RequestSettings>()),
            ("sweep", g.subschema_for::<SweepSettings>()),
            ("fatbin", g.subschema_for::<FatbinRecord>()),
            ("gguf", g.subschema_for::<GgufRecord>()),
            ("maps", g.subschema_for::<MapsRecord>()),
        ],
        case_values: vec![
            (
                "mode",
                described(
                    g.subschema_for::<Residency>(),
                    "`cold`: the model was loaded for the case; `hot`: it was resident.",
                ),
            ),
            ("done_reason", string(g)),
            ("sweep", g.subschema_for::<SweepPoint>()),
            ("cache_defeat", g.subschema_for::<CacheDefeat>()),
            ("nonce", string(g)),
            ("prompt", string(g)),
            ("started_at", string(g)),
            ("created_at", string(g)),
            ("wall_duration_ns", g.subschema_for::<u64>()),
            ("response", string(g)),
            ("thinking", string(g)),
            ("llama_server", g.subschema_for::<LlamaServerCase>()),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::super::runs::{CASE_FIELDS, RUN_FIELDS};
    use evidence_core::model::fields::{Field, FieldKind};

    /// The value fields of `fields` that `given` has no schema for.
    fn missing(fields: &[Field], given: &[(&'static str, schemars::Schema)]) -> Vec<&'static str> {
        fields
            .iter()
            .filter(|f| matches!(f.kind, FieldKind::Value(_)))
            .filter(|f| !given.iter().any(|(n, _)| *n == f.name))
            .map(|f| f.name)
            .collect()
    }

    #[test]
    fn every_value_field_the_probes_write_has_a_schema() {
        let s = super::schemas(&mut evidence_core::model::json_schema::generator());
        assert_eq!(missing(&RUN_FIELDS, &s.run_values), Vec::<&str>::new());
        assert_eq!(missing(&CASE_FIELDS, &s.case_values), Vec::<&str>::new());
    }
}
