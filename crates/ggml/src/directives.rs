//! The pack's directives, one type each behind `model::directive::Spec`; their tables are
//! in [`super::render`].

use super::model::{BUNDLE, FILE_TYPE, GENERATION, LAYER, PLAN, TENSOR_TYPE};
use evidence_core::model::directive::{ArgError, Args, Spec};
use evidence_core::model::pack::DirectiveSpec;
use evidence_core::model::refs::Kind;

use evidence_core::plain_directive as plain;

/// `::bundles{arch ids}`: the bundle table, all bundles or those of one target or ids.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Bundles {
    pub arch: Option<String>,
    pub ids: Vec<String>,
}

impl Spec for Bundles {
    const NAME: &'static str = "bundles";
    const ATTRS: &'static [&'static str] = &["arch", "ids"];
    const ABOUT: &'static str = "bundle table";
    const READS: &'static [Kind] = &[BUNDLE, Kind::Family, Kind::Route];
    fn parse(a: &Args) -> Result<Self, ArgError> {
        let ids = a.list("ids");
        a.must_all(BUNDLE, &ids)?;
        Ok(Bundles {
            arch: a.get("arch"),
            ids,
        })
    }
    fn lists(&self) -> Option<Kind> {
        // Filtered by ids, it lists some bundles only; by arch, still each it has.
        self.ids.is_empty().then_some(BUNDLE)
    }
}

plain!(
    /// `::generations`: GPU generations and their fatbin targets.
    Generations, "generations", "hardware generations", [GENERATION, Kind::Run, Kind::Subject],
    lists: Some(GENERATION)
);
plain!(
    /// `::tensor-types`: tensor types and the families with an entry for each.
    TensorTypes, "tensor-types", "tensor types and their families", [TENSOR_TYPE, Kind::Family],
    lists: Some(TENSOR_TYPE)
);
plain!(
    /// `::file-types`: file-type labels and the tensor types they mix.
    FileTypes, "file-types", "file-type labels and their tensor mixes", [FILE_TYPE, TENSOR_TYPE],
    lists: Some(FILE_TYPE)
);
/// A pack table of one binary probe run: by default the latest run of `probe` of the
/// site's own subject; with `run="id"`, that run (a comparison of another subject).
macro_rules! run_table {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $probe:literal, $about:literal, [$($read:expr),*]) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Hash)]
        pub struct $ty {
            pub run: Option<String>,
        }

        impl Spec for $ty {
            const NAME: &'static str = $name;
            const ATTRS: &'static [&'static str] = &["run"];
            const ABOUT: &'static str = $about;
            const READS: &'static [Kind] = &[$($read),*];
            fn parse(a: &Args) -> Result<Self, ArgError> {
                let run = a.get("run");
                if let Some(id) = &run {
                    a.must(Kind::Run, id)?;
                    let probe = a.ev.runs.get(id).map(|r| r.probe.as_str());
                    if probe.is_some_and(|p| p != $probe) {
                        return Err(ArgError::NotRunOf {
                            run: id.clone(),
                            probe: $probe.to_string(),
                        });
                    }
                }
                Ok($ty { run })
            }
        }
    };
}

run_table!(
    /// `::fatbin-targets{run}`: the targets a `fatbin` run found.
    FatbinTargets, "fatbin-targets", "fatbin",
    "targets found by the latest fatbin probe run (or the run named)", [Kind::Run, Kind::Subject]
);
run_table!(
    /// `::tensor-mix{run}`: the tensor types a `gguf` run found.
    TensorMix, "tensor-mix", "gguf",
    "tensor types found by the latest gguf probe run (or the run named)",
    [Kind::Run, Kind::Subject, TENSOR_TYPE, Kind::Family]
);
plain!(
    /// `::layers`: the layers of the general map.
    Layers, "layers", "layers of the general map", [LAYER], lists: Some(LAYER)
);
plain!(
    /// `::plan`: the plan for broadening the map.
    Plan, "plan", "plan for broadening the map", [PLAN], lists: Some(PLAN)
);

/// The pack's directives, as the core's directive reference and parser read them.
pub static SPECS: [DirectiveSpec; 8] = [
    DirectiveSpec::of::<Bundles>(),
    DirectiveSpec::of::<Generations>(),
    DirectiveSpec::of::<TensorTypes>(),
    DirectiveSpec::of::<FileTypes>(),
    DirectiveSpec::of::<FatbinTargets>(),
    DirectiveSpec::of::<TensorMix>(),
    DirectiveSpec::of::<Layers>(),
    DirectiveSpec::of::<Plan>(),
];
