//! T10 (formation change diagrams and the single-hex facing change costs, per army: "may differ
//! for each army and for each battle", 8.1) and T11 (charge ranges, 13.1e). T9's arcs are
//! geometry and live with the formations (`hexmap`), not in a chart.
use super::cost::Cost;
use super::fire::prov;
use super::{FORMATIONS, Printed};
use crate::data::Provenance;
use engine::Half;
use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::collections::BTreeMap;

/// The movement charts.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct MovementCharts {
    /// T10 formation changes, by army key (`prussia`, `austria`).
    pub change: BTreeMap<String, Vec<ChangeRow>>,
    /// T10 single-hex facing change cost per hexpoint or hexside turned (9.3a), by army, then
    /// formation.
    pub facing: BTreeMap<String, BTreeMap<String, FacingRow>>,
    /// T11 charge ranges in SCM points, by nation, then cavalry type (13.1e).
    pub charge_range: BTreeMap<String, BTreeMap<String, ChargeRow>>,
    /// Countercharge and opportunity charge move one hex (11.10b).
    pub countercharge: u8,
    /// Opportunity charge range (11.10b).
    pub opportunity_charge: u8,
    /// Provenance of the two one-hex ranges.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A formation change's MP cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeCost {
    /// `base` plus `per_hex` for each hex of difference in length (`"1+1/hex"`).
    Mp {
        /// Points.
        base: Half,
        /// Points per hex of length difference.
        per_hex: Half,
    },
    /// The unit's entire MA (`"whole_ma"`, 8.4f–g).
    WholeMa,
    /// The unit's remaining MA (`"remaining_ma"`, 8.4i).
    RemainingMa,
}

impl ChangeCost {
    /// Parse `"2"`, `"1+1/hex"`, `"1/hex"`, `"whole_ma"`, `"remaining_ma"`.
    pub fn parse(s: &str) -> Result<ChangeCost, String> {
        let num = |t: &str| {
            t.trim()
                .parse::<Half>()
                .map_err(|_| format!("{s:?}: not a cost in whole or half points"))
        };
        match s.trim() {
            "whole_ma" => Ok(ChangeCost::WholeMa),
            "remaining_ma" => Ok(ChangeCost::RemainingMa),
            t => {
                let (base, per) = match t.strip_suffix("/hex") {
                    Some(b) => match b.split_once('+') {
                        Some((base, per)) => (num(base)?, num(per)?),
                        None => (Half::ZERO, num(b)?),
                    },
                    None => (num(t)?, Half::ZERO),
                };
                Ok(ChangeCost::Mp { base, per_hex: per })
            }
        }
    }

    /// As written.
    pub fn show(&self) -> String {
        match self {
            ChangeCost::WholeMa => "whole_ma".into(),
            ChangeCost::RemainingMa => "remaining_ma".into(),
            ChangeCost::Mp { base, per_hex } if *per_hex == Half::ZERO => base.to_string(),
            ChangeCost::Mp { base, per_hex } if *base == Half::ZERO => format!("{per_hex}/hex"),
            ChangeCost::Mp { base, per_hex } => format!("{base}+{per_hex}/hex"),
        }
    }
}

impl<'de> Deserialize<'de> for ChangeCost {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ChangeCost, D::Error> {
        let s = String::deserialize(d)?;
        ChangeCost::parse(&s).map_err(de::Error::custom)
    }
}

/// A formation change link (8.3a: the arrows of the diagrams).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct ChangeRow {
    /// From formation.
    pub from: String,
    /// To formation.
    pub to: String,
    /// Cost.
    pub cost: ChangeCost,
    /// The diagram's cost by the new facing, steps away from straight ahead (8.4c: march column ↔
    /// line, added to `cost`).
    #[serde(default)]
    pub diagram: Vec<Cost>,
    /// The infantry's diagram where it is not `diagram` (8.4c: "select the appropriate
    /// formation change diagram"): the two printed examples of the march column → line turn
    /// disagree unless the arms differ — cavalry turning right pays 3 (8.4c's example), infantry
    /// turning into a line in its own two hexes 1 (13.4's example, E47). Empty: `diagram`.
    #[serde(default)]
    pub infantry_diagram: Vec<Cost>,
    /// The columns the series rules print.
    #[serde(default)]
    pub printed: Printed,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

impl ChangeRow {
    /// The diagram infantry reads ([`ChangeRow::infantry_diagram`], else `diagram`).
    pub fn infantry(&self) -> &[Cost] {
        if self.infantry_diagram.is_empty() {
            &self.diagram
        } else {
            &self.infantry_diagram
        }
    }
}

/// A single-hex facing change cost (9.3a).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct FacingRow {
    /// Per hexpoint (line, attack column…) or hexside (columns) turned.
    pub per_step: ChangeCost,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A charge range.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ChargeRow {
    /// SCM points (13.1e).
    pub range: u8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// The links and costs 8.4 and 8.6 print: `(from, to, cost, rule)`.
pub const PRINTED: &[(&str, &str, &str, &str)] = &[
    ("road_column", "march_column", "1/hex", "8.4a"),
    ("march_column", "road_column", "1+1/hex", "8.4b"),
    ("march_column", "line", "0+1/hex", "8.4c"),
    ("line", "march_column", "0+1/hex", "8.4c"),
    ("march_column", "attack_column", "1+1/hex", "8.4d"),
    ("attack_column", "march_column", "1+1/hex", "8.4e"),
    ("march_column", "square", "whole_ma", "8.4f"),
    ("line", "square", "whole_ma", "8.4f"),
    ("square", "march_column", "whole_ma", "8.4g"),
    ("square", "line", "whole_ma", "8.4g"),
    ("line", "skirmish", "1", "8.4h"),
    ("skirmish", "line", "1", "8.4h"),
    ("general_order", "line", "remaining_ma", "8.4i"),
    ("line", "hook", "1", "8.4j"),
    ("hook", "line", "1", "8.4j"),
    ("limbered", "unlimbered", "2", "8.6b"),
    ("unlimbered", "limbered", "2", "8.6b"),
];

impl MovementCharts {
    /// The link from one formation to another for an army.
    pub fn change(&self, army: &str, from: &str, to: &str) -> Option<&ChangeRow> {
        self.change
            .get(army)?
            .iter()
            .find(|r| r.from == from && r.to == to)
    }

    /// A nation's charge range for a cavalry type.
    pub fn charge_range(&self, nation: &str, kind: &str) -> Option<u8> {
        Some(self.charge_range.get(nation)?.get(kind)?.range)
    }

    /// The constraints of the text on T10, T11, each naming file and field.
    pub fn check(&self, file: &str, p: &mut Vec<String>) {
        prov(file, "countercharge", &self.prov, p);
        for (k, v) in [
            ("countercharge", self.countercharge),
            ("opportunity_charge", self.opportunity_charge),
        ] {
            if v != 1 {
                p.push(format!(
                    "{file}: {k}: {v} but BAR 11.10b limits it to a single hex"
                ));
            }
        }
        for (army, rows) in &self.change {
            for (from, to, cost, rule) in PRINTED {
                let want = ChangeCost::parse(cost);
                match rows.iter().find(|r| r.from == *from && r.to == *to) {
                    None => p.push(format!(
                        "{file}: change.{army}: no {from} → {to} link (BAR {rule})"
                    )),
                    Some(r) if Ok(r.cost) != want => p.push(format!(
                        "{file}: change.{army}.{from}→{to}.cost: {} but BAR {rule} prints {cost}",
                        r.cost.show()
                    )),
                    _ => {}
                }
            }
            match rows
                .iter()
                .find(|r| r.from == "march_column" && r.to == "line")
            {
                Some(r) if r.diagram.get(1) != Some(&Cost::Points(Half::whole(3))) => p.push(format!(
                    "{file}: change.{army}.march_column→line.diagram: turning right costs {} but the BAR 8.4c example (cavalry) reads 3",
                    r.diagram.get(1).map_or("nothing".into(), |c| c.show())
                )),
                Some(r) if r.infantry().get(1) != Some(&Cost::Points(Half::ONE)) => p.push(format!(
                    "{file}: change.{army}.march_column→line.infantry_diagram: infantry turning into a line costs {} but the BAR 13.4 example (E47) reads 1",
                    r.infantry().get(1).map_or("nothing".into(), |c| c.show())
                )),
                _ => {}
            }
            for (i, r) in rows.iter().enumerate() {
                prov(file, &format!("change.{army}[{i}]"), &r.prov, p);
                for f in [&r.from, &r.to] {
                    if !FORMATIONS.contains(&f.as_str()) {
                        p.push(format!(
                            "{file}: change.{army}[{i}]: unknown formation {f:?}"
                        ));
                    }
                }
            }
        }
        for (army, rows) in &self.facing {
            for (f, r) in rows {
                prov(file, &format!("facing.{army}.{f}"), &r.prov, p);
                if !FORMATIONS.contains(&f.as_str()) {
                    p.push(format!("{file}: facing.{army}.{f}: unknown formation"));
                }
            }
            if rows.get("unlimbered").map(|r| r.per_step) != Some(ChangeCost::WholeMa) {
                p.push(format!(
                    "{file}: facing.{army}.unlimbered.per_step: must be whole_ma (BAR 13.4e: an artillery facing change takes the whole MA)"
                ));
            }
        }
        for (nation, kinds) in &self.charge_range {
            for (k, r) in kinds {
                prov(file, &format!("charge_range.{nation}.{k}"), &r.prov, p);
                if r.range < 2 {
                    p.push(format!(
                        "{file}: charge_range.{nation}.{k}.range: {} — a charge covers more than the one hex of a countercharge (11.10b, 13.1e)",
                        r.range
                    ));
                }
            }
        }
    }

    /// Count provenance.
    pub fn provenance(&self, add: &mut impl FnMut(&Provenance)) {
        add(&self.prov);
        for r in self.change.values().flatten() {
            add(&r.prov);
            r.printed
                .values()
                .for_each(|s| add(&super::fire::sourced(s)));
        }
        self.facing
            .values()
            .flat_map(|m| m.values())
            .for_each(|r| add(&r.prov));
        self.charge_range
            .values()
            .flat_map(|m| m.values())
            .for_each(|r| add(&r.prov));
    }
}
