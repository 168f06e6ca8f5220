//! Validation of a scenario's set-up (3.1, 3.2, 3.4): the units it places must respect the
//! stacking limits, never share a hex with the enemy, and no commander may start in an enemy
//! unit's hex. Every problem is reported, with the file and the units or commander.
use crate::Saxe;
use crate::query::StackingFault;
use crate::scenario::UnitIx;
use crate::state::Options;
use hexmap::HexId;
use std::collections::BTreeMap;

impl Saxe {
    /// Every set-up problem of the scenario with these options, one for each hex that breaks a
    /// limit, as "file [[setup]] unit, unit: …". Units the start takes off the map (a free
    /// set-up, a march column, a set-up zone) are not checked here: their placements are legal
    /// actions that check the same limits (16.2, 14.1).
    pub fn setup_problems(&self, options: &Options) -> Vec<String> {
        let sc = &self.sc;
        let file = crate::catalogue()
            .into_iter()
            .find(|i| i.id == sc.id)
            .map_or("scenario", |i| i.file);
        let s = self.setup_state(0, options.clone());
        let ids = |v: &[UnitIx]| {
            v.iter()
                .map(|&x| sc.units[usize::from(x)].id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut bad = Vec::new();
        // The units each hex receives, in the order of the file.
        let mut placed: BTreeMap<HexId, Vec<UnitIx>> = BTreeMap::new();
        for p in &sc.setup {
            if s.units[usize::from(p.unit)].hex == Some(p.hex) {
                placed.entry(p.hex).or_default().push(p.unit);
            }
        }
        for (&h, here) in &placed {
            let first = self.side_of(here[0]);
            if here.iter().any(|&x| self.side_of(x) != first) {
                bad.push(format!(
                    "{file} [[setup]] {}: units of both sides in {h} (two sides never share a hex)",
                    ids(here)
                ));
                continue;
            }
            if let Some(f) = self.stacking_fault(h, here, &s, &|x| s.units[usize::from(x)].facing) {
                let facings = if f == StackingFault::Facing {
                    let v: Vec<String> = here
                        .iter()
                        .map(|&x| {
                            format!(
                                "{} {:?}",
                                sc.units[usize::from(x)].id,
                                s.units[usize::from(x)].facing
                            )
                        })
                        .collect();
                    format!(" ({})", v.join(", "))
                } else {
                    String::new()
                };
                bad.push(format!(
                    "{file} [[setup]] {}: {h} breaks the stacking limits ({f}){facings}",
                    ids(here),
                ));
            }
        }
        for &(c, h) in &sc.commander_setup {
            if s.commanders[usize::from(c)].hex != Some(h) {
                continue;
            }
            let side = sc.commanders[usize::from(c)].side;
            let enemies: Vec<&str> = self
                .units_at(&s, h)
                .into_iter()
                .filter(|&x| self.side_of(x) != side)
                .map(|x| self.uname(x))
                .collect();
            if !enemies.is_empty() {
                bad.push(format!(
                    "{file} [[commander_setup]] {}: {h} holds enemy units: {} (3.2: a commander stacks only with friendly units)",
                    sc.commanders[usize::from(c)].id,
                    enemies.join(" + ")
                ));
            }
        }
        bad
    }
}
