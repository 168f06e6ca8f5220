//! T1, the Terrain Effects Chart: the columns the rules read from a hex's terrain and a hexside's
//! feature. The movement, fire and close-combat columns are added by their packages.
use crate::data::{Arm, Provenance};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The TEC.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Tec {
    /// Hex terrain rows by key (`clear`, `village`, `woods`, `pond`…).
    #[serde(default)]
    pub terrain: BTreeMap<String, TerrainRow>,
    /// Hexside rows by key (`stream`, `slope`, `ravine`…).
    #[serde(default)]
    pub hexside: BTreeMap<String, HexsideRow>,
}

/// A hex terrain row.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct TerrainRow {
    /// Name for people.
    pub name: String,
    /// Non-clear terrain (8.7, 19.8f, 20.1e: the Battle Rules define it).
    #[serde(default)]
    pub non_clear: bool,
    /// Impassable to leaders: no LOC into or through it (7.1, 7.2b).
    #[serde(default)]
    pub impassable_to_leaders: bool,
    /// Arms that may not enter it (retreats 20.1b, 20.2a; movement).
    #[serde(default)]
    pub prohibited: Vec<Arm>,
    /// ER modifier for morale checks of a unit in it (19.8h).
    #[serde(default)]
    pub morale_er: i8,
    /// The later packages' columns (movement costs, fire defence, CV…), read by them.
    #[serde(flatten)]
    pub more: BTreeMap<String, toml::Value>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A hexside row.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct HexsideRow {
    /// Name for people.
    pub name: String,
    /// Impassable to leaders (7.1).
    #[serde(default)]
    pub impassable_to_leaders: bool,
    /// Arms that may not cross it.
    #[serde(default)]
    pub prohibited: Vec<Arm>,
    /// The later packages' columns.
    #[serde(flatten)]
    pub more: BTreeMap<String, toml::Value>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

impl Tec {
    /// The constraints of the text on T1 (bar-notes T1).
    pub fn check(&self, file: &str, p: &mut Vec<String>) {
        match self.terrain.get("clear") {
            None => p.push(format!(
                "{file}: terrain.clear: missing (every map has clear hexes)"
            )),
            Some(c) => {
                if c.non_clear {
                    p.push(format!("{file}: terrain.clear.non_clear: must be false"));
                }
            }
        }
        for (k, r) in &self.terrain {
            if r.prov.source.is_none() && r.prov.reconstructed.is_none() {
                p.push(format!(
                    "{file}: terrain.{k}: needs `source` or `reconstructed`"
                ));
            }
        }
        for (k, r) in &self.hexside {
            if r.prov.source.is_none() && r.prov.reconstructed.is_none() {
                p.push(format!(
                    "{file}: hexside.{k}: needs `source` or `reconstructed`"
                ));
            }
        }
    }
}
