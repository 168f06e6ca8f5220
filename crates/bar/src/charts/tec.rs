//! T1, the Terrain Effects Chart (BAR 11.2a: "the TEC lists for each terrain hex and hexside the
//! MP costs …"), with every column the rules read (bar-notes T1 a–q): movement costs by formation
//! family (11.2g), leader costs (21.1a), SCM costs (11.10, 13.1f), the DC (A) trigger (11.2d),
//! general order (8.4i), non-clear (8.7, 19.8f), prohibitions (7.1, 11.2a, 11.6), stacking limits
//! (10.1c), fire defence (12.1), LOS (12.6a, 12.6c, 12.7a), CV (13.11c), charge (13.8b) and morale
//! (19.8h). Roads are map data; their movement and command values are the `road` row (7.3b, 11.2c).
use super::cost::Cost;
use super::{FORMATIONS, Printed};
use crate::data::{Arm, Provenance};
use engine::Half;
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
    /// Road movement and command (7.3b, 11.2c).
    #[serde(default)]
    pub road: RoadRow,
}

/// SP stacking limits per hex (10.1c), by arm, and the road column's 4 SP a hex (8.1f, 10.11a).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Stacking {
    /// Infantry SP per hex (line, columns, square…).
    pub infantry: u8,
    /// Cavalry SP per hex.
    pub cavalry: u8,
    /// Artillery SP per hex (alone or stacked with infantry).
    pub artillery: u8,
    /// Road column SP per hex (8.1f: 4).
    pub road_column: u8,
    /// SP per hex of units in skirmish order (10.1c: the TEC's limits are by terrain and
    /// formation; 8.5a names "the skirmisher SP stacking limit per hex"). None: the chart gives
    /// none and the infantry limit alone applies.
    #[serde(default)]
    pub skirmish: Option<u8>,
}

impl Stacking {
    /// The limit for an arm.
    pub fn of(&self, arm: Arm) -> u8 {
        match arm {
            Arm::Infantry => self.infantry,
            Arm::Cavalry => self.cavalry,
            Arm::Artillery => self.artillery,
        }
    }
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
    /// Arms that may not enter it (retreats 20.1b, 20.2a; movement 11.2a; artillery 11.6).
    #[serde(default)]
    pub prohibited: Vec<Arm>,
    /// ER modifier for morale checks of a unit in it (19.8h).
    #[serde(default)]
    pub morale_er: i8,
    /// MP to enter, line-type formations (11.2a–b).
    pub mp_line: Cost,
    /// MP to enter, attack/march/road column and limbered artillery (11.2g).
    pub mp_column: Cost,
    /// A leader's MP to enter (21.1a).
    pub mp_leader: Cost,
    /// SCM cost: hexes of charge range, pursuit points (11.10, 13.1f, 16.2b).
    pub scm: Cost,
    /// Entering and spending more MP triggers a movement-action DC (A), +5 (11.2d–e).
    #[serde(default)]
    pub dc_a: bool,
    /// Infantry must be in general order in it (8.4i).
    #[serde(default)]
    pub general_order: bool,
    /// Formations (keys of [`FORMATIONS`]) that may not be adopted in or moved into it (8.0).
    #[serde(default)]
    pub no_formation: Vec<String>,
    /// SP stacking limits (10.1c).
    pub stacking: Stacking,
    /// Fire defence value (12.1: ratio = fire strength ÷ it).
    pub fire_defence: u8,
    /// Blocks LOS (12.6a).
    #[serde(default)]
    pub blocks_los: bool,
    /// Height of the obstacle above the hex's level (12.6c).
    #[serde(default)]
    pub height: u8,
    /// Added to a firer's multiplier, without rounding, when its LOS passes into or through the
    /// hex (12.7a).
    #[serde(default)]
    pub los_multiplier: f32,
    /// CV modifier of an attack departing from the hex (13.11c).
    #[serde(default)]
    pub cv_attacker: i8,
    /// CV modifier of a defender in the hex (13.11c).
    #[serde(default)]
    pub cv_defender: i8,
    /// Cavalry may charge into the hex (13.8b).
    #[serde(default)]
    pub charge_into: bool,
    /// The columns the series rules print, each with its rule (the rest is `reconstructed`).
    #[serde(default)]
    pub printed: Printed,
    /// Columns this chart does not know (reported by [`Tec::check`] as probable typos).
    #[serde(flatten)]
    pub more: BTreeMap<String, toml::Value>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A hexside row; its costs are added to the cost of the hex entered (11.2b).
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
    /// MP added for crossing, line-type formations.
    pub mp_line: Cost,
    /// MP added for crossing, column formations (11.2g).
    pub mp_column: Cost,
    /// MP added for a leader (21.1a).
    pub mp_leader: Cost,
    /// SCM cost added (11.10b, 13.1f).
    pub scm: Cost,
    /// Crossing and spending more MP triggers a DC (A), +5 (11.2d b, 11.2e).
    #[serde(default)]
    pub dc_a: bool,
    /// Added to the target's fire defence when the LOS crosses it (12.1).
    #[serde(default)]
    pub fire_defence: u8,
    /// Blocks LOS (12.6a).
    #[serde(default)]
    pub blocks_los: bool,
    /// Added to a firer's multiplier when the LOS crosses it (12.7a).
    #[serde(default)]
    pub los_multiplier: f32,
    /// CV modifier of a defender attacked across it (13.11c).
    #[serde(default)]
    pub cv_defender: i8,
    /// The costs and the CV apply only going up (from the lower to the higher level), as slopes.
    #[serde(default)]
    pub uphill_only: bool,
    /// The columns the series rules print.
    #[serde(default)]
    pub printed: Printed,
    /// Unknown columns (reported by [`Tec::check`]).
    #[serde(flatten)]
    pub more: BTreeMap<String, toml::Value>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// Road values (roads themselves are map data).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct RoadRow {
    /// Name for people.
    #[serde(default)]
    pub name: String,
    /// MP per road hex for a road column using road movement (11.2c a).
    #[serde(default)]
    pub mp_road_column: Half,
    /// Command-range points per road hex of a LOC (7.3b: ½).
    #[serde(default)]
    pub loc: Half,
    /// Road movement ignores every hex and hexside cost (11.2c a).
    #[serde(default)]
    pub ignores_terrain: bool,
    /// The columns the series rules print.
    #[serde(default)]
    pub printed: Printed,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// The provenance keys a flattened `more` map also sees.
const PROV_KEYS: [&str; 3] = ["source", "reconstructed", "invented"];

impl TerrainRow {
    /// The MP to enter for a formation family (`column`: attack, march, road column, 11.2g).
    pub fn mp(&self, column: bool) -> Cost {
        if column { self.mp_column } else { self.mp_line }
    }
}

impl HexsideRow {
    /// The MP added for crossing, by formation family (11.2g).
    pub fn mp(&self, column: bool) -> Cost {
        if column { self.mp_column } else { self.mp_line }
    }
}

impl Tec {
    /// The constraints of the text on T1 (bar-notes T1), each naming file and field.
    pub fn check(&self, file: &str, p: &mut Vec<String>) {
        match self.terrain.get("clear") {
            None => p.push(format!(
                "{file}: terrain.clear: missing (every map has clear hexes)"
            )),
            Some(c) => {
                if c.non_clear {
                    p.push(format!("{file}: terrain.clear.non_clear: must be false"));
                }
                if c.mp_line != Cost::Points(Half::ONE) {
                    p.push(format!(
                        "{file}: terrain.clear.mp_line: {} but BAR 11.5e and the 11.7 example cost a clear hex 1 MP",
                        c.mp_line.show()
                    ));
                }
                if c.scm != Cost::Points(Half::ONE) {
                    p.push(format!(
                        "{file}: terrain.clear.scm: {} but BAR 13.1f and the 16.2c example cost a clear hex 1 hex of charge range / 1 PP",
                        c.scm.show()
                    ));
                }
                if c.stacking.infantry < 15 {
                    p.push(format!(
                        "{file}: terrain.clear.stacking.infantry: {} but the 18.5a example stacks three 10-SP battalions over two hexes (15 a hex)",
                        c.stacking.infantry
                    ));
                }
                if c.stacking.cavalry < 12 {
                    p.push(format!(
                        "{file}: terrain.clear.stacking.cavalry: {} but the 8.1a and 8.4b examples put 12 cavalry SP in one hex",
                        c.stacking.cavalry
                    ));
                }
            }
        }
        match self.terrain.get("village") {
            None => p.push(format!(
                "{file}: terrain.village: missing (BAR 13.3f, 18.2b, 8.4i use it)"
            )),
            Some(v) => {
                if v.scm != Cost::Points(Half::whole(2)) {
                    p.push(format!(
                        "{file}: terrain.village.scm: {} but BAR 13.3f: a village costs cavalry 2 hexes of its charge range",
                        v.scm.show()
                    ));
                }
                if !v.dc_a {
                    p.push(format!(
                        "{file}: terrain.village.dc_a: must be true (BAR 13.3f, 18.2b example: a village causes a disorder check (A), +5)"
                    ));
                }
                if !v.charge_into {
                    p.push(format!(
                        "{file}: terrain.village.charge_into: must be true (BAR 13.3f: cavalry charges through a village)"
                    ));
                }
                if !v.general_order {
                    p.push(format!(
                        "{file}: terrain.village.general_order: must be true (BAR 8.4i example: the hex with buildings requires general order)"
                    ));
                }
            }
        }
        if let Some(w) = self.terrain.get("woods")
            && w.cv_defender != 1
        {
            p.push(format!(
                "{file}: terrain.woods.cv_defender: {:+} but the BAR 13.11c example gives woods +1",
                w.cv_defender
            ));
        }
        if let Some(s) = self.hexside.get("slope")
            && s.mp_line != Cost::Points(Half::ONE)
        {
            p.push(format!(
                "{file}: hexside.slope.mp_line: {} but the BAR 9.4b example adds 1 MP for a slope (3 → 4)",
                s.mp_line.show()
            ));
        }
        if self.road.loc != Half::HALF {
            p.push(format!(
                "{file}: road.loc: must be 0.5 (BAR 7.3b: a road hex counts ½ point)"
            ));
        }
        if !self.road.ignores_terrain {
            p.push(format!(
                "{file}: road.ignores_terrain: must be true (BAR 11.2c: road movement ignores all hex and hexside costs)"
            ));
        }
        prov_check(file, "road", &self.road.prov, p);
        for (k, r) in &self.terrain {
            let f = format!("{file}: terrain.{k}");
            prov_check(file, &format!("terrain.{k}"), &r.prov, p);
            unknown_columns(&f, &r.more, p);
            for fm in &r.no_formation {
                if !FORMATIONS.contains(&fm.as_str()) {
                    p.push(format!(
                        "{f}.no_formation: unknown formation {fm:?} (one of {FORMATIONS:?})"
                    ));
                }
            }
            if r.stacking.road_column != 4 && r.mp_column.allowed() {
                p.push(format!(
                    "{f}.stacking.road_column: {} but BAR 8.1f, 10.11a: a road column holds 4 SP a hex",
                    r.stacking.road_column
                ));
            }
            for arm in [Arm::Infantry, Arm::Cavalry, Arm::Artillery] {
                if !r.prohibited.contains(&arm) && r.stacking.of(arm) == 0 {
                    p.push(format!(
                        "{f}.stacking: {arm:?} may enter but may stack 0 SP (10.1c)"
                    ));
                }
            }
            if r.prohibited.len() == 3 && (r.mp_line.allowed() || r.mp_column.allowed()) {
                p.push(format!(
                    "{f}.mp_line: prohibited to every arm but has a cost (11.2a)"
                ));
            }
            if r.mp_line.allowed() && r.fire_defence == 0 {
                p.push(format!(
                    "{f}.fire_defence: 0 in a hex units may occupy (12.1 divides by it)"
                ));
            }
            if !r.scm.allowed() && r.charge_into {
                p.push(format!(
                    "{f}.charge_into: true but scm is prohibited (11.10b, 13.8b)"
                ));
            }
            printed_check(&f, &r.printed, p);
        }
        for (k, r) in &self.hexside {
            let f = format!("{file}: hexside.{k}");
            prov_check(file, &format!("hexside.{k}"), &r.prov, p);
            unknown_columns(&f, &r.more, p);
            printed_check(&f, &r.printed, p);
        }
    }

    /// Count provenance: a row counts as one datum of its provenance, and each printed column as
    /// one sourced datum.
    pub fn provenance(&self, add: &mut impl FnMut(&Provenance)) {
        let sourced = |p: &Printed, add: &mut dyn FnMut(&Provenance)| {
            for rule in p.values() {
                add(&Provenance {
                    source: Some(rule.clone()),
                    ..Provenance::default()
                });
            }
        };
        for r in self.terrain.values() {
            add(&r.prov);
            sourced(&r.printed, add);
        }
        for r in self.hexside.values() {
            add(&r.prov);
            sourced(&r.printed, add);
        }
        add(&self.road.prov);
        sourced(&self.road.printed, add);
    }
}

fn prov_check(file: &str, key: &str, prov: &Provenance, p: &mut Vec<String>) {
    if prov.source.is_none() && prov.reconstructed.is_none() && prov.invented.is_none() {
        p.push(format!("{file}: {key}: needs `source` or `reconstructed`"));
    }
}

fn unknown_columns(f: &str, more: &BTreeMap<String, toml::Value>, p: &mut Vec<String>) {
    for k in more.keys() {
        if !PROV_KEYS.contains(&k.as_str()) {
            p.push(format!("{f}.{k}: unknown column (bar-notes T1)"));
        }
    }
}

fn printed_check(f: &str, printed: &Printed, p: &mut Vec<String>) {
    for (col, rule) in printed {
        if !rule.starts_with("BAR ") {
            p.push(format!(
                "{f}.printed.{col}: {rule:?} must cite the series rules (\"BAR x.y\")"
            ));
        }
    }
}
