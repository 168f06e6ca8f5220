//! Costs in half points (C4: LOC ½ along roads 7.3b, skirmisher backward +½ 11.8a) or
//! "prohibited", as the TEC and the formation-change diagrams print them.
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;

/// A cost of movement, SCM or command, in half points, or prohibited (11.2a).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cost {
    /// May not be entered or crossed.
    #[default]
    Prohibited,
    /// This many half points.
    Halves(u8),
}

impl Cost {
    /// The cost in half points, `None` if prohibited.
    pub fn halves(self) -> Option<u8> {
        match self {
            Cost::Halves(h) => Some(h),
            Cost::Prohibited => None,
        }
    }

    /// Whether it may be entered at all.
    pub fn allowed(self) -> bool {
        matches!(self, Cost::Halves(_))
    }

    /// Whole points, for people (`1.5`, `prohibited`).
    pub fn show(self) -> String {
        match self {
            Cost::Prohibited => "prohibited".into(),
            Cost::Halves(h) if h % 2 == 0 => format!("{}", h / 2),
            Cost::Halves(h) => format!("{}.5", h / 2),
        }
    }
}

/// Half points from a TOML number (a whole or half number, 0–100).
pub(crate) fn halves_of(v: f64) -> Result<u8, String> {
    let h = v * 2.0;
    if !(0.0..=200.0).contains(&h) || h.fract() != 0.0 {
        return Err(format!(
            "{v} is not a whole or half number of points from 0 to 100 (C4)"
        ));
    }
    // In 0..=200 and whole: fits a u8.
    Ok(h as u8)
}

struct CostVisitor;

impl Visitor<'_> for CostVisitor {
    type Value = Cost;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a whole or half number of points, or \"prohibited\"")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Cost, E> {
        self.visit_f64(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Cost, E> {
        self.visit_f64(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Cost, E> {
        halves_of(v).map(Cost::Halves).map_err(E::custom)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cost, E> {
        match v {
            "prohibited" | "P" => Ok(Cost::Prohibited),
            other => Err(E::custom(format!(
                "{other:?}: a cost is a number or \"prohibited\""
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Cost {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cost, D::Error> {
        d.deserialize_any(CostVisitor)
    }
}

/// A number of half points that may not be prohibited (`mp_road_column = 0.5`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Halves(pub u8);

impl<'de> Deserialize<'de> for Halves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Halves, D::Error> {
        match Cost::deserialize(d)? {
            Cost::Halves(h) => Ok(Halves(h)),
            Cost::Prohibited => Err(de::Error::custom("a number of points is needed here")),
        }
    }
}
