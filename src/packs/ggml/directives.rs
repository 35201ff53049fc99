//! The pack's directives, one type each behind `model::directive::Spec`; their tables are
//! in [`super::render`].

use crate::model::directive::{Args, Spec, plain};
use crate::model::refs::Kind;

/// `::bundles{arch ids}`: the bundle table, all bundles or those of one target or ids.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundles {
    pub arch: Option<String>,
    pub ids: Vec<String>,
}

impl Spec for Bundles {
    const NAME: &'static str = "bundles";
    const ATTRS: &'static [&'static str] = &["arch", "ids"];
    const ABOUT: &'static str = "bundle table";
    const READS: &'static [Kind] = &[Kind::Bundle, Kind::Family, Kind::Route];
    fn parse(a: &Args) -> Result<Self, String> {
        let ids = a.list("ids");
        a.must_all(Kind::Bundle, &ids)?;
        Ok(Bundles {
            arch: a.get("arch"),
            ids,
        })
    }
    fn lists(&self) -> Option<Kind> {
        // Filtered by ids, it lists some bundles only; by arch, still each it has.
        self.ids.is_empty().then_some(Kind::Bundle)
    }
}

plain!(
    /// `::generations`: GPU generations and their fatbin targets.
    Generations, "generations", "hardware generations", [Generation, Run],
    lists: Some(Kind::Generation)
);
plain!(
    /// `::tensor-types`: tensor types and the families with an entry for each.
    TensorTypes, "tensor-types", "tensor types and their families", [TensorType, Family],
    lists: Some(Kind::TensorType)
);
plain!(
    /// `::file-types`: file-type labels and the tensor types they mix.
    FileTypes, "file-types", "file-type labels and their tensor mixes", [FileType, TensorType],
    lists: Some(Kind::FileType)
);
plain!(
    /// `::fatbin-targets`: the targets the latest `fatbin` run found.
    FatbinTargets, "fatbin-targets", "targets found by the latest fatbin probe run", [Run],
    lists: None
);
plain!(
    /// `::tensor-mix`: the tensor types the latest `gguf` run found.
    TensorMix, "tensor-mix", "tensor types found by the latest gguf probe run",
    [Run, TensorType, Family], lists: None
);
plain!(
    /// `::layers`: the layers of the general map.
    Layers, "layers", "layers of the general map", [Layer], lists: Some(Kind::Layer)
);
plain!(
    /// `::plan`: the plan for broadening the map.
    Plan, "plan", "plan for broadening the map", [PlanStep], lists: Some(Kind::PlanStep)
);
