//! Ids as written in the data files, with the position they were written at.
//!
//! YAML and JSON read and write an id as a bare string (the position comes from the YAML
//! parser). Binary formats, which only the parse cache uses, keep the position too, so a
//! run read back from the cache still reports its problems at the right line and column.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Where a node was written: 1-based line and column, or 0 when the program made it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    line: u32,
    column: u32,
}

impl Pos {
    pub fn new(line: u64, column: u64) -> Pos {
        Pos {
            line: clamp(line),
            column: clamp(column),
        }
    }

    pub fn line(&self) -> u64 {
        u64::from(self.line)
    }

    pub fn column(&self) -> u64 {
        u64::from(self.column)
    }
}

/// A string with its source position (line and column of the YAML node).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Id {
    pub value: String,
    pub referenced: Pos,
}

impl Id {
    /// An id the program made, with no source position.
    pub fn unplaced(value: impl Into<String>) -> Id {
        Id {
            value: value.into(),
            referenced: Pos::default(),
        }
    }
}

fn clamp(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            self.value.serialize(s)
        } else {
            (&self.value, self.referenced.line, self.referenced.column).serialize(s)
        }
    }
}

/// An id is written as a plain string (`c1`, `2024-05-01`).
impl schemars::JsonSchema for Id {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Id".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string"})
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        if d.is_human_readable() {
            let s = serde_saphyr::Spanned::<String>::deserialize(d)?;
            Ok(Id {
                value: s.value,
                referenced: Pos {
                    line: clamp(s.referenced.line()),
                    column: clamp(s.referenced.column()),
                },
            })
        } else {
            let (value, line, column) = <(String, u32, u32)>::deserialize(d)?;
            Ok(Id {
                value,
                referenced: Pos { line, column },
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_gives_the_position_and_json_the_bare_string() {
        let ids: Vec<Id> = serde_saphyr::from_str("- a\n-   b\n").unwrap_or_default();
        assert_eq!(ids.len(), 2);
        assert_eq!(
            (ids[1].referenced.line(), ids[1].referenced.column()),
            (2, 5)
        );
        assert_eq!(
            serde_json::to_string(&ids[1]).ok().as_deref(),
            Some("\"b\"")
        );
    }

    #[test]
    fn a_binary_round_trip_keeps_the_position() {
        let ids: Vec<Id> = serde_saphyr::from_str("x: [1]\ny:   [zz]\n")
            .map(|m: std::collections::BTreeMap<String, Vec<Id>>| {
                m.into_values().flatten().collect()
            })
            .unwrap_or_default();
        let bytes = rmp_serde::to_vec_named(&ids).unwrap_or_default();
        let back: Vec<Id> = rmp_serde::from_slice(&bytes).unwrap_or_default();
        assert_eq!(back, ids);
        assert_eq!(
            (back[1].referenced.line(), back[1].referenced.column()),
            (2, 7)
        );
    }
}
