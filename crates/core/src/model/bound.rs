//! Branch conditions of a decision map over decimal numbers: a lower edge, an upper edge,
//! or both (a range), each inclusive or not.
//!
//! Written as `{le: 8}`, `{gt: 0.05}` or `{ge: 0.05, lt: 0.2}`; read back and exported the
//! same way, a whole number without a fraction. The same type describes the stretches of
//! values [`crate::derive::segments`] cuts the axis into.

use super::format::Decimal;
use serde::{Deserialize, Serialize};

/// One edge of a bound: its value and whether the value itself is inside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Edge {
    pub value: f64,
    pub inclusive: bool,
}

impl Edge {
    pub fn new(value: f64, inclusive: bool) -> Edge {
        Edge { value, inclusive }
    }
}

/// A condition on one number: the values above `lower` and below `upper` (an absent edge
/// is unbounded on its side).
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "Written")]
#[schemars(with = "Written")]
pub struct Bound {
    pub lower: Option<Edge>,
    pub upper: Option<Edge>,
}

/// A bound as an author writes it.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Written {
    gt: Option<f64>,
    ge: Option<f64>,
    lt: Option<f64>,
    le: Option<f64>,
}

/// Why a written bound is none. `Display` is the message serde reports at the bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BoundError {
    /// Both edges of one side (`names`: `` `gt` and `ge` `` or `` `lt` and `le` ``).
    Both { names: &'static str },
    /// No edge at all.
    NoEdge,
    /// An edge at infinity or NaN.
    NotFinite(f64),
    /// A range whose lower edge is not below its upper edge.
    Empty,
}

impl std::fmt::Display for BoundError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoundError::Both { names } => write!(f, "a bound takes one of {names}, not both"),
            BoundError::NoEdge => write!(
                f,
                "a bound needs at least one of `lt`, `le`, `gt`, `ge` \
                 (leave `bound` out for \"otherwise\")"
            ),
            BoundError::NotFinite(v) => write!(f, "a bound must be a finite number, not {v}"),
            BoundError::Empty => write!(
                f,
                "this range holds no value: its lower edge is not below its upper edge"
            ),
        }
    }
}

impl std::error::Error for BoundError {}

impl TryFrom<Written> for Bound {
    type Error = BoundError;

    fn try_from(w: Written) -> Result<Bound, BoundError> {
        let side = |strict: Option<f64>, inclusive: Option<f64>, names: &'static str| match (
            strict, inclusive,
        ) {
            (Some(_), Some(_)) => Err(BoundError::Both { names }),
            // `+ 0.0` makes -0 the 0 it equals, so that edges sort as they compare.
            (Some(v), None) => Ok(Some(Edge::new(v + 0.0, false))),
            (None, Some(v)) => Ok(Some(Edge::new(v + 0.0, true))),
            (None, None) => Ok(None),
        };
        let bound = Bound {
            lower: side(w.gt, w.ge, "`gt` and `ge`")?,
            upper: side(w.lt, w.le, "`lt` and `le`")?,
        };
        if bound.lower.is_none() && bound.upper.is_none() {
            return Err(BoundError::NoEdge);
        }
        for e in bound.lower.iter().chain(&bound.upper) {
            if !e.value.is_finite() {
                return Err(BoundError::NotFinite(e.value));
            }
        }
        if bound.is_empty() {
            return Err(BoundError::Empty);
        }
        Ok(bound)
    }
}

impl Serialize for Bound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let edges = [
            self.lower
                .map(|e| (if e.inclusive { "ge" } else { "gt" }, e.value)),
            self.upper
                .map(|e| (if e.inclusive { "le" } else { "lt" }, e.value)),
        ];
        let mut m = s.serialize_map(Some(edges.iter().flatten().count()))?;
        for (key, value) in edges.into_iter().flatten() {
            m.serialize_entry(key, &Decimal(value))?;
        }
        m.end()
    }
}

impl Bound {
    /// `≤ value`.
    pub fn le(value: f64) -> Bound {
        Bound {
            lower: None,
            upper: Some(Edge::new(value, true)),
        }
    }

    /// `< value`.
    pub fn lt(value: f64) -> Bound {
        Bound {
            lower: None,
            upper: Some(Edge::new(value, false)),
        }
    }

    /// `> value`.
    pub fn gt(value: f64) -> Bound {
        Bound {
            lower: Some(Edge::new(value, false)),
            upper: None,
        }
    }

    /// Whether `value` satisfies the bound.
    pub fn holds(&self, value: f64) -> bool {
        let above = self.lower.is_none_or(|e| {
            if e.inclusive {
                value >= e.value
            } else {
                value > e.value
            }
        });
        let below = self.upper.is_none_or(|e| {
            if e.inclusive {
                value <= e.value
            } else {
                value < e.value
            }
        });
        above && below
    }

    /// Whether no value satisfies it (`{gt: 3, lt: 3}`, `{ge: 5, le: 4}`).
    pub fn is_empty(&self) -> bool {
        match (self.lower, self.upper) {
            (Some(lo), Some(hi)) => {
                lo.value > hi.value || (lo.value == hi.value && !(lo.inclusive && hi.inclusive))
            }
            _ => false,
        }
    }

    /// The edge values, lower first.
    pub fn edges(&self) -> impl Iterator<Item = f64> + '_ {
        self.lower.iter().chain(&self.upper).map(|e| e.value)
    }

    /// The condition with the variable named: `rows ≤ 8`, `0.05 ≤ sel < 0.2`, `n = 9`;
    /// none when it is unbounded on both sides.
    pub fn text(&self, var: &str) -> Option<String> {
        let lo_sym = |e: Edge| if e.inclusive { "≤" } else { "<" };
        Some(match (self.lower, self.upper) {
            (Some(lo), Some(hi)) if lo.value == hi.value => {
                format!("{var} = {}", Decimal(lo.value))
            }
            (Some(lo), Some(hi)) => format!(
                "{} {} {var} {} {}",
                Decimal(lo.value),
                lo_sym(lo),
                lo_sym(hi),
                Decimal(hi.value)
            ),
            (Some(lo), None) => format!(
                "{var} {} {}",
                if lo.inclusive { "≥" } else { ">" },
                Decimal(lo.value)
            ),
            (None, Some(hi)) => format!("{var} {} {}", lo_sym(hi), Decimal(hi.value)),
            (None, None) => return None,
        })
    }

    /// The values it holds, without the variable: `≤ 8`, `(8, 256]`, `= 9`, `> 256`;
    /// none when it is unbounded on both sides.
    pub fn short(&self) -> Option<String> {
        Some(match (self.lower, self.upper) {
            (Some(lo), Some(hi)) if lo.value == hi.value => format!("= {}", Decimal(lo.value)),
            (Some(lo), Some(hi)) => format!(
                "{}{}, {}{}",
                if lo.inclusive { "[" } else { "(" },
                Decimal(lo.value),
                Decimal(hi.value),
                if hi.inclusive { "]" } else { ")" }
            ),
            (Some(_), None) | (None, Some(_)) => {
                let t = self.text("")?;
                t.trim_start().to_string()
            }
            (None, None) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str) -> Result<Bound, String> {
        serde_saphyr::from_str::<Bound>(yaml).map_err(|e| e.to_string())
    }

    #[test]
    fn bound_errors_say_the_messages_of_old() {
        let both = BoundError::Both {
            names: "`gt` and `ge`",
        };
        assert_eq!(
            both.to_string(),
            "a bound takes one of `gt` and `ge`, not both"
        );
        assert_eq!(
            BoundError::NoEdge.to_string(),
            "a bound needs at least one of `lt`, `le`, `gt`, `ge` (leave `bound` out for \"otherwise\")"
        );
        assert_eq!(
            BoundError::NotFinite(f64::INFINITY).to_string(),
            "a bound must be a finite number, not inf"
        );
    }

    #[test]
    fn written_forms_read_and_write_back() {
        for (yaml, json) in [
            ("{le: 8}", r#"{"le":8}"#),
            ("{lt: 64}", r#"{"lt":64}"#),
            ("{gt: 0.05}", r#"{"gt":0.05}"#),
            ("{ge: 0.05, lt: 0.2}", r#"{"ge":0.05,"lt":0.2}"#),
            ("{ge: 9, le: 9}", r#"{"ge":9,"le":9}"#),
        ] {
            let b = read(yaml).unwrap();
            assert_eq!(serde_json::to_string(&b).unwrap(), json, "{yaml}");
        }
    }

    #[test]
    fn bad_bounds_say_why() {
        for (yaml, says) in [
            ("{}", "at least one"),
            ("{lt: 3, le: 4}", "not both"),
            ("{gt: 3, ge: 4}", "not both"),
            ("{gt: 5, lt: 5}", "holds no value"),
            ("{ge: 5, le: 4}", "holds no value"),
            ("{le: .inf}", "finite"),
            ("{eq: 3}", "eq"),
        ] {
            let err = read(yaml).unwrap_err();
            assert!(err.contains(says), "{yaml}: {err}");
        }
    }

    #[test]
    fn holds_at_the_edges() {
        let b = read("{gt: 0.05, le: 0.2}").unwrap();
        assert!(!b.holds(0.05));
        assert!(b.holds(0.050001));
        assert!(b.holds(0.2));
        assert!(!b.holds(0.21));
        assert!(Bound::lt(64.0).holds(63.0) && !Bound::lt(64.0).holds(64.0));
    }

    #[test]
    fn texts() {
        let r = read("{ge: 0.05, lt: 0.2}").unwrap();
        assert_eq!(r.text("sel").unwrap(), "0.05 ≤ sel < 0.2");
        assert_eq!(r.short().unwrap(), "[0.05, 0.2)");
        assert_eq!(Bound::le(8.0).text("n").unwrap(), "n ≤ 8");
        assert_eq!(Bound::le(8.0).short().unwrap(), "≤ 8");
        assert_eq!(Bound::gt(256.0).short().unwrap(), "> 256");
        assert_eq!(read("{ge: 9, le: 9}").unwrap().short().unwrap(), "= 9");
        assert_eq!(Bound::default().text("n"), None);
    }
}
