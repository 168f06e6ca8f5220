//! The charts of a BAR box (1.2b), T1–T24 of `bar-notes.md`, as typed data with provenance.
//!
//! The translation printed none of them; each box carries its own, so they live with the battle
//! (`scenarios/prague/charts/*.toml`). Every datum says where it comes from: `source = "BAR x.y"`
//! where the series rules print the number, `reconstructed = "why, from what"` otherwise. The
//! constraints the rule text itself puts on a chart are checks of [`Charts::check`], run by
//! `tricorne validate`, which name the file and the field that fails, so that a player's printed
//! charts can replace ours and be tested against the book.
//!
//! Files: `tec.toml` (T1), `checks.toml` (T15, T16), `command.toml` (T17, T18, T20), and the
//! fire, close combat and movement charts of the later packages (`fire.toml` T2–T8,
//! `combat.toml` T13, T14, T19, `movement.toml` T10, T11), each optional until its package needs
//! it but checked whenever present. T21 (End Turn track) and T22/T23 are scenario data.
use crate::data::Provenance;
use std::collections::BTreeMap;

pub mod checks;
pub mod combat;
pub mod command;
pub mod cost;
pub mod fire;
pub mod movement;
pub mod tec;

pub use checks::{CheckCharts, SpecialOutcome, SpecialRow};
pub use combat::{CcCell, CcSide, CombatCharts, PursuitLeader};
pub use command::{CommandCharts, IsrEffect, IsrRow, LeaderLossResult, LossLevelTable};
pub use cost::Cost;
pub use fire::{FireCharts, FireResult};
pub use movement::{ChangeCost, MovementCharts};
pub use tec::{HexsideRow, RoadRow, Stacking, Tec, TerrainRow};

/// The columns of a row that the series rules print, each with its rule (`"BAR 13.3f"`); the
/// row's `reconstructed` covers the rest.
pub type Printed = BTreeMap<String, String>;

/// The formation keys the charts use (8.0, 8.1a–j).
pub const FORMATIONS: [&str; 10] = [
    "line",
    "hook",
    "attack_column",
    "march_column",
    "road_column",
    "square",
    "skirmish",
    "general_order",
    "limbered",
    "unlimbered",
];

/// Every chart of a box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Charts {
    /// The box id (`"prague"`).
    pub id: String,
    /// T1.
    pub tec: Tec,
    /// T15, T16.
    pub checks: CheckCharts,
    /// T17, T18, T20.
    pub command: CommandCharts,
    /// T2–T8 (`fire.toml`), if the box has it.
    pub fire: Option<FireCharts>,
    /// T13, T14, T19 (`combat.toml`), if the box has it.
    pub combat: Option<CombatCharts>,
    /// T10, T11 (`movement.toml`), if the box has it.
    pub movement: Option<MovementCharts>,
}

/// A file of a box's charts, by name, with its text.
pub type ChartFile<'a> = (&'a str, &'a str);

/// The files a box's charts are read from, in order; the first three are required.
pub const FILES: [&str; 6] = [
    "tec.toml",
    "checks.toml",
    "command.toml",
    "fire.toml",
    "combat.toml",
    "movement.toml",
];

impl Charts {
    /// Parse a box's charts from its files' texts (`None` for an absent optional file); every
    /// problem, each naming its file.
    pub fn parse(id: &str, files: &[(&str, Option<String>)]) -> Result<Charts, Vec<String>> {
        let mut problems = Vec::new();
        let mut charts = Charts {
            id: id.to_string(),
            ..Charts::default()
        };
        for (name, text) in files {
            let Some(text) = text else {
                if FILES[..3].contains(name) {
                    problems.push(format!(
                        "{id}/charts/{name}: missing (a required chart file)"
                    ));
                }
                continue;
            };
            let file = format!("{id}/charts/{name}");
            match *name {
                "tec.toml" => match toml::from_str::<Tec>(text) {
                    Ok(t) => charts.tec = t,
                    Err(e) => problems.push(format!("{file}: {}", one_line(&e.to_string()))),
                },
                "checks.toml" => match toml::from_str::<CheckCharts>(text) {
                    Ok(t) => charts.checks = t,
                    Err(e) => problems.push(format!("{file}: {}", one_line(&e.to_string()))),
                },
                "command.toml" => match toml::from_str::<CommandCharts>(text) {
                    Ok(t) => charts.command = t,
                    Err(e) => problems.push(format!("{file}: {}", one_line(&e.to_string()))),
                },
                "fire.toml" => match toml::from_str::<FireCharts>(text) {
                    Ok(t) => charts.fire = Some(t),
                    Err(e) => problems.push(format!("{file}: {}", one_line(&e.to_string()))),
                },
                "combat.toml" => match toml::from_str::<CombatCharts>(text) {
                    Ok(t) => charts.combat = Some(t),
                    Err(e) => problems.push(format!("{file}: {}", one_line(&e.to_string()))),
                },
                "movement.toml" => match toml::from_str::<MovementCharts>(text) {
                    Ok(t) => charts.movement = Some(t),
                    Err(e) => problems.push(format!("{file}: {}", one_line(&e.to_string()))),
                },
                other => problems.push(format!(
                    "{id}/charts/{other}: not a chart file (one of {FILES:?})"
                )),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let bad = charts.check();
        if bad.is_empty() { Ok(charts) } else { Err(bad) }
    }

    /// The constraints the rule text puts on the charts (bar-notes section 2), each failure naming
    /// file and field.
    pub fn check(&self) -> Vec<String> {
        let mut p = Vec::new();
        let id = &self.id;
        self.tec.check(&format!("{id}/charts/tec.toml"), &mut p);
        self.checks
            .check(&format!("{id}/charts/checks.toml"), &mut p);
        self.command
            .check(&format!("{id}/charts/command.toml"), &mut p);
        if let Some(f) = &self.fire {
            f.check(&format!("{id}/charts/fire.toml"), &mut p);
        }
        if let Some(c) = &self.combat {
            c.check(&format!("{id}/charts/combat.toml"), &mut p);
        }
        if let Some(m) = &self.movement {
            m.check(&format!("{id}/charts/movement.toml"), &mut p);
        }
        p
    }

    /// Counts of sourced and reconstructed data (for `validate`).
    pub fn provenance_counts(&self) -> (usize, usize) {
        let mut n = (0, 0);
        let mut add = |p: &Provenance| {
            if p.source.is_some() {
                n.0 += 1;
            }
            if p.reconstructed.is_some() || p.invented.is_some() {
                n.1 += 1;
            }
        };
        self.tec.provenance(&mut add);
        self.checks.provenance(&mut add);
        self.command.provenance(&mut add);
        if let Some(f) = &self.fire {
            f.provenance(&mut add);
        }
        if let Some(c) = &self.combat {
            c.provenance(&mut add);
        }
        if let Some(m) = &self.movement {
            m.provenance(&mut add);
        }
        n
    }
}

/// The first line of a (TOML) error message.
pub(crate) fn one_line(s: &str) -> String {
    s.lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// An inclusive range of a d10 or d100 (`[lo, hi]`).
pub type Range = [u8; 2];

/// Whether `v` is in the inclusive range.
pub fn in_range(r: Range, v: u8) -> bool {
    r[0] <= v && v <= r[1]
}

/// Check that ranges cover `0..=max` exactly once; a description of the first gap or overlap.
pub fn covers(ranges: &[Range], max: u8) -> Result<(), String> {
    for v in 0..=max {
        let n = ranges.iter().filter(|r| in_range(**r, v)).count();
        if n != 1 {
            return Err(if n == 0 {
                format!("no row for {v}")
            } else {
                format!("{n} rows for {v}")
            });
        }
    }
    Ok(())
}
