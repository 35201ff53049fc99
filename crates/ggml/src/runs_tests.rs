//! The pack's run and case fields (`evidence_ggml_model::runs`) read and written by the
//! core with the pack handed in: tested here, where the pack is registered.

// The core's run and case read with this pack's fields: tested here, where the pack is.
#[cfg(test)]
mod recorded_tests {
    use evidence_core::model::types::{Recorded, Run};

    fn run(extra: &str) -> Run {
        let text =
            format!("id: r\nprobe: p\nengine: none\norigin: {{ja: 記録, en: record}}\n{extra}");
        serde_saphyr::from_str(&text).expect("a run")
    }

    #[test]
    fn how_a_run_was_recorded_follows_from_what_it_keeps() {
        crate::register();
        assert_eq!(run("").recorded(), Recorded::Transcribed);
        assert_eq!(
            run("versions: {evidence: \"0.1.0\"}\n").recorded(),
            Recorded::Import
        );
        let probe = "versions: {evidence: \"0.1.0\"}\nrequest: {stream: false, temperature: 0, seed: 42, timeout_secs: 300}\n";
        assert_eq!(run(probe).recorded(), Recorded::Probe);
    }
}

#[cfg(test)]
mod case_fields_tests {
    use crate::runs::{Counters, EngineCase, LlamaServerCase};
    use evidence_core::model::types::{Case, Run};

    const RUN: &str = "id: r\nprobe: p\nengine: none\norigin: {ja: 記録, en: record}\ncases:\n  \
        - id: c\n    mode: hot\n    prompt_eval_count: 12\n    prompt: \"say hi\"\n    \
        measurements: {est_rows: 2.5}\n    llama_server: {stop_type: eos, timings: {prompt_n: 12}}\n";

    #[test]
    fn a_packs_measurements_and_the_sites_read_as_one_set_and_write_back_where_they_were() {
        crate::register();
        let run: Run = serde_saphyr::from_str(RUN).expect("a run");
        let c = &run.cases[0];
        assert_eq!(
            c.measured().collect::<Vec<_>>(),
            ["est_rows", "prompt_eval_count"]
        );
        assert_eq!(c.counter("prompt_eval_count"), Some(12));
        assert_eq!(c.measurement("est_rows"), Some(2.5));
        assert_eq!(c.prompt().map(String::as_str), Some("say hi"));
        let ls: &LlamaServerCase = c.llama_server().expect("typed, the pack's own");
        assert_eq!(ls.timings.prompt_n, Some(12));
        let yaml = serde_saphyr::to_string(&run).expect("yaml");
        assert!(yaml.contains("prompt_eval_count: 12\n"), "{yaml}");
        assert!(yaml.contains("measurements:\n"), "{yaml}");
        let back: Run = serde_saphyr::from_str(&yaml).expect("read back");
        assert_eq!(back.cases[0].measurements, c.measurements);
        assert_eq!(back.cases[0].values, c.values);
        // The parse cache's encoding holds the same.
        let bytes = rmp_serde::to_vec_named(&run).expect("msgpack");
        let cached: Run = rmp_serde::from_slice(&bytes).expect("decoded");
        assert_eq!(cached.cases[0].measurements, c.measurements);
        assert_eq!(cached.cases[0].values, c.values);
    }

    #[test]
    fn a_measurement_written_twice_and_an_unknown_field_are_refused() {
        crate::register();
        let twice = "{id: c, eval_count: 1, measurements: {eval_count: 2}}";
        let e = serde_saphyr::from_str::<Case>(twice).expect_err("twice");
        assert!(e.to_string().contains("both at the top"), "{e}");
        let e = serde_saphyr::from_str::<Case>("{id: c, est_rows: 1}").expect_err("unknown");
        assert!(e.to_string().contains("unknown field `est_rows`"), "{e}");
        let off = evidence_core::model::fields::expecting(&[], || {
            serde_saphyr::from_str::<Case>("{id: c, eval_count: 1}")
        });
        let e = off.expect_err("the pack is off");
        assert!(e.to_string().contains("`ggml` pack"), "{e}");
    }
}

// Where a case writes this pack's measurements beside the site's own (`model::fields`).
#[cfg(test)]
mod measurement_tests {
    use evidence_core::model::fields::{
        FieldKind, Measurements, measurement_entries, serialize_measurements,
    };
    use serde::Serialize;
    use serde::ser::{SerializeMap, Serializer};

    /// Measurements written as a case writes them.
    fn written(m: &Measurements) -> String {
        struct Top<'a>(&'a Measurements);
        impl Serialize for Top<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(measurement_entries(self.0)))?;
                serialize_measurements(self.0, &mut map)?;
                map.end()
            }
        }
        serde_json::to_string(&Top(m)).unwrap_or_default()
    }

    #[test]
    fn a_packs_measurements_go_on_top_in_its_order_and_the_rest_under_measurements() {
        crate::register();
        let names: Vec<&str> = crate::runs::CASE_FIELDS
            .iter()
            .filter(|f| matches!(f.kind, FieldKind::Measurement))
            .map(|f| f.name)
            .collect();
        let (Some(&first), Some(&last)) = (names.first(), names.last()) else {
            panic!("the pack declares measurements");
        };
        assert_ne!(first, last);
        let mut m = Measurements::default();
        // Names made afresh, as a parser makes them: the address of the pack's own
        // string is no part of what the caller gives.
        m.insert(&String::from(last), 2.0);
        m.insert(&String::from("zz_site_own"), 3.5);
        m.insert(&String::from(first), 1.0);
        m.insert(&String::from("aa_site_own"), 4.0);
        assert_eq!(measurement_entries(&m), 3);
        assert_eq!(
            written(&m),
            format!(
                r#"{{"{first}":1,"{last}":2,"measurements":{{"aa_site_own":4,"zz_site_own":3.5}}}}"#
            )
        );
        // Only the site's own: no pack's key.
        let mut own = Measurements::default();
        own.insert("solo", 1.0);
        assert_eq!(measurement_entries(&own), 1);
        assert_eq!(written(&own), r#"{"measurements":{"solo":1}}"#);
        assert_eq!(measurement_entries(&Measurements::default()), 0);
        assert_eq!(written(&Measurements::default()), "{}");
    }
}
