//! Kernel families from rules given as data, and the parser for ggml template arguments.
//!
//! A [`FamilyRule`] names a family and a substring of the demangled kernel name; it may say
//! which template argument holds the ggml type and which holds the tile width. The first rule
//! that matches wins, so the caller orders them. Nothing here knows any family by itself:
//! [`ggml_cuda_rules`] is just one list of rules, for llama.cpp's ggml-cuda/HIP kernels.

use serde::{Deserialize, Serialize};

use super::ggml::TypeRef;

/// Longest symbol handed to the demangler.
const MAX_DEMANGLE_LEN: usize = 8192;

/// One classification rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyRule {
    /// The family a matching kernel belongs to (`mmq`).
    pub family: String,
    /// Substring of the demangled name (of the raw name when it does not demangle),
    /// e.g. `mul_mat_q<`.
    pub pattern: String,
    /// 0-based template argument holding the ggml type (`(ggml_type)12`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ggml_type_arg: Option<usize>,
    /// 0-based template argument holding the tile width (mmq_x, or MMVQ's column count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile_arg: Option<usize>,
}

impl FamilyRule {
    /// A rule without captures.
    pub fn new(family: &str, pattern: &str) -> Self {
        FamilyRule {
            family: family.to_string(),
            pattern: pattern.to_string(),
            ggml_type_arg: None,
            tile_arg: None,
        }
    }

    /// The same rule, capturing the ggml type and the tile width from these arguments.
    pub fn capturing(mut self, ggml_type_arg: Option<usize>, tile_arg: Option<usize>) -> Self {
        self.ggml_type_arg = ggml_type_arg;
        self.tile_arg = tile_arg;
        self
    }
}

/// Rules for llama.cpp's ggml-cuda kernels as compiled for HIP: `mmvq`
/// (`mul_mat_vec_q<type, ncols, …>`, and `mmvq_moe` for `mul_mat_vec_q_moe<type, …>`) and
/// `mmq` (`mul_mat_q<type, mmq_x, need_check>`), then the other kernel groups the dispatch
/// investigation tells apart.
pub fn ggml_cuda_rules() -> Vec<FamilyRule> {
    vec![
        FamilyRule::new("mmvq", "mul_mat_vec_q<").capturing(Some(0), Some(1)),
        FamilyRule::new("mmvq_moe", "mul_mat_vec_q_moe<").capturing(Some(0), Some(1)),
        FamilyRule::new("mmq_fixup", "mul_mat_q_stream_k_fixup<").capturing(Some(0), Some(1)),
        FamilyRule::new("mmq", "mul_mat_q<").capturing(Some(0), Some(1)),
        FamilyRule::new("quantize_mmq", "quantize_mmq_q8_1<"),
        FamilyRule::new("quantize", "quantize_q8_1"),
        FamilyRule::new("mmvf", "mul_mat_vec_f<"),
        FamilyRule::new("mmvf", "mul_mat_vec<"),
        FamilyRule::new("mmf", "mul_mat_f<"),
        FamilyRule::new("mmf_ids", "mul_mat_f_ids<"),
        FamilyRule::new("flash_attn", "flash_attn"),
        FamilyRule::new("dequantize", "dequantize_block"),
        FamilyRule::new("convert", "convert_unary"),
    ]
}

/// What a rule found in one kernel name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classification {
    /// The family.
    pub family: String,
    /// The ggml type captured, when the rule captures one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ggml_type: Option<TypeRef>,
    /// The tile width captured, when the rule captures one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<i64>,
}

/// Classifies a kernel by the first matching rule; `text` is the demangled name, or the
/// raw name when it does not demangle.
pub fn classify(rules: &[FamilyRule], text: &str) -> Option<Classification> {
    rules.iter().find_map(|rule| {
        let at = text.find(rule.pattern.as_str())?;
        let args = if rule.ggml_type_arg.is_some() || rule.tile_arg.is_some() {
            template_args(text, at).unwrap_or_default()
        } else {
            Vec::new()
        };
        let ggml_type = rule
            .ggml_type_arg
            .and_then(|i| args.get(i))
            .and_then(TemplateArg::as_ggml_type)
            .map(TypeRef::new);
        let tile = rule
            .tile_arg
            .and_then(|i| args.get(i))
            .and_then(TemplateArg::as_int);
        Some(Classification {
            family: rule.family.clone(),
            ggml_type,
            tile,
        })
    })
}

/// One template argument of a demangled name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateArg {
    /// An integer literal (`8`).
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A cast literal, the demangler's form of an enum value: `(ggml_type)12`.
    Cast {
        /// The type in parentheses.
        ty: String,
        /// The value.
        value: i64,
    },
    /// Anything else (a type), as written.
    Other(String),
}

impl TemplateArg {
    /// The ggml type id this argument holds: a `(ggml_type)N` cast, or a plain integer.
    pub fn as_ggml_type(&self) -> Option<u32> {
        match self {
            TemplateArg::Cast { ty, value } if ty == "ggml_type" => u32::try_from(*value).ok(),
            TemplateArg::Int(v) => u32::try_from(*v).ok(),
            _ => None,
        }
    }

    /// The integer this argument holds.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            TemplateArg::Int(v) | TemplateArg::Cast { value: v, .. } => Some(*v),
            _ => None,
        }
    }

    fn parse(text: &str) -> TemplateArg {
        let text = text.trim();
        match text {
            "true" => return TemplateArg::Bool(true),
            "false" => return TemplateArg::Bool(false),
            _ => {}
        }
        if let Some(v) = parse_int(text) {
            return TemplateArg::Int(v);
        }
        if let Some(rest) = text.strip_prefix('(')
            && let Some((ty, value)) = rest.split_once(')')
            && let Some(value) = parse_int(value.trim())
        {
            return TemplateArg::Cast {
                ty: ty.trim().to_string(),
                value,
            };
        }
        TemplateArg::Other(text.to_string())
    }
}

/// Parses an integer literal with an optional sign and C suffix (`8`, `-1`, `64u`, `2ul`).
fn parse_int(text: &str) -> Option<i64> {
    let digits = text.trim_end_matches(['u', 'l', 'U', 'L']);
    if digits.is_empty() {
        return None;
    }
    digits.parse().ok()
}

/// The template arguments of the first template argument list at or after byte `from` of a
/// demangled name: `mul_mat_q<(ggml_type)12, 8, false>(…)` → `[Cast ggml_type 12, Int 8,
/// Bool false]`. Nested `<…>` and `(…)` stay inside one argument. `None` when there is no
/// complete list.
pub fn template_args(text: &str, from: usize) -> Option<Vec<TemplateArg>> {
    let rest = text.get(from..)?;
    let open = rest.find('<')?;
    let body = rest.get(open + 1..)?;
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut start = 0usize;
    for (i, c) in body.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '>' if depth == 0 => {
                args.push(TemplateArg::parse(body.get(start..i)?));
                return Some(args);
            }
            '>' => depth -= 1,
            ',' if depth == 0 => {
                args.push(TemplateArg::parse(body.get(start..i)?));
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// The demangled form of an Itanium C++ name, or `None` when it is not one.
pub fn demangle(name: &str) -> Option<String> {
    if name.len() > MAX_DEMANGLE_LEN || !name.starts_with("_Z") {
        return None;
    }
    cpp_demangle::Symbol::new(name.as_bytes())
        .ok()?
        .demangle()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ggml_template_arguments() {
        let args = template_args("void mul_mat_q<(ggml_type)12, 8, false>(char const*)", 0);
        assert_eq!(
            args,
            Some(vec![
                TemplateArg::Cast {
                    ty: "ggml_type".into(),
                    value: 12
                },
                TemplateArg::Int(8),
                TemplateArg::Bool(false),
            ])
        );
        let nested = template_args("f<std::pair<int, int>, (foo)-3, 2u>()", 0);
        assert_eq!(
            nested,
            Some(vec![
                TemplateArg::Other("std::pair<int, int>".into()),
                TemplateArg::Cast {
                    ty: "foo".into(),
                    value: -3
                },
                TemplateArg::Int(2),
            ])
        );
        assert_eq!(template_args("f<1, 2", 0), None);
        assert_eq!(template_args("plain", 0), None);
    }

    #[test]
    fn rules_classify_and_capture() {
        let rules = ggml_cuda_rules();
        let mmq = classify(
            &rules,
            "void mul_mat_q<(ggml_type)12, 8, false>(char const*)",
        );
        assert_eq!(
            mmq,
            Some(Classification {
                family: "mmq".into(),
                ggml_type: Some(TypeRef::new(12)),
                tile: Some(8),
            })
        );
        assert_eq!(
            mmq.and_then(|c| c.ggml_type)
                .and_then(|t| t.name)
                .as_deref(),
            Some("Q4_K")
        );
        let mmvq = classify(
            &rules,
            "void mul_mat_vec_q<(ggml_type)2, 1, false>(void const*)",
        );
        assert_eq!(mmvq.as_ref().map(|c| c.family.as_str()), Some("mmvq"));
        assert_eq!(mmvq.and_then(|c| c.tile), Some(1));
        assert_eq!(classify(&rules, "void k_get_rows<float>()"), None);
        assert_eq!(classify(&[], "mul_mat_q<"), None);
    }

    #[test]
    fn demangles_a_real_kernel_name() {
        let name = "_ZL9mul_mat_qIL9ggml_type12ELi8ELb0EEvPKcPKiS4_S4_PfS5_iiiiiiiiiiiiiiiii";
        let text = demangle(name).unwrap_or_default();
        assert!(
            text.contains("mul_mat_q<(ggml_type)12, 8, false>"),
            "{text}"
        );
        assert_eq!(demangle("main"), None);
    }
}
