//! Costs of movement, SCM and command as the TEC and the formation-change diagrams print them:
//! half points (C4, [`engine::Half`]) or "prohibited" (11.2a).
use engine::Half;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;

/// A cost in half points, or prohibited (11.2a: "Units may not enter or cross prohibited
/// terrain"). Written `1`, `1.5`, `"1½"` or `"prohibited"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cost {
    /// May not be entered or crossed.
    #[default]
    Prohibited,
    /// This many points.
    Points(Half),
}

impl Cost {
    /// The cost, `None` if prohibited.
    pub fn points(self) -> Option<Half> {
        match self {
            Cost::Points(h) => Some(h),
            Cost::Prohibited => None,
        }
    }

    /// Whether it may be entered at all.
    pub fn allowed(self) -> bool {
        matches!(self, Cost::Points(_))
    }

    /// For people: `1½`, `prohibited`.
    pub fn show(self) -> String {
        match self {
            Cost::Prohibited => "prohibited".into(),
            Cost::Points(h) => h.to_string(),
        }
    }
}

struct CostVisitor;

impl Visitor<'_> for CostVisitor {
    type Value = Cost;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a whole or half number of points, or \"prohibited\"")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Cost, E> {
        Half::deserialize(de::value::I64Deserializer::<E>::new(v)).map(Cost::Points)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Cost, E> {
        Half::deserialize(de::value::U64Deserializer::<E>::new(v)).map(Cost::Points)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Cost, E> {
        Half::deserialize(de::value::F64Deserializer::<E>::new(v)).map(Cost::Points)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cost, E> {
        match v {
            "prohibited" => Ok(Cost::Prohibited),
            other => other.parse().map(Cost::Points).map_err(|_| {
                E::custom(format!(
                    "{other:?}: a cost is a number of points or \"prohibited\""
                ))
            }),
        }
    }
}

impl<'de> Deserialize<'de> for Cost {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cost, D::Error> {
        d.deserialize_any(CostVisitor)
    }
}
