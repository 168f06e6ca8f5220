//! T15 (Disorder Check table, cases A–G, and its special results) and T16 (Morale Check Summary,
//! cases A–J, and its special results).
//!
//! What the text prints is data with `source`: the general morale modifiers of 19.8 a–h and the
//! specific ones of 19.9, disorder +5 (18.5a), DC (A) values of 11.2e, 11.4a and the 18.2b example.
//! Which general modifiers apply to which case and every special result are reconstructed.
use super::{Range, covers, in_range};
use crate::data::Provenance;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The check charts.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CheckCharts {
    /// T15.
    pub disorder: CheckTable,
    /// T16.
    pub morale: CheckTable,
}

/// One table: its cases by letter and its special results.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CheckTable {
    /// Cases by letter (`A`…).
    pub case: BTreeMap<String, CaseRow>,
    /// Named ER modifiers (`rapid_march = 5`, `shaken = 10`…) with their provenance.
    pub modifier: BTreeMap<String, ModifierRow>,
    /// Special results of a natural 00–09 (by the units die).
    pub special: Vec<SpecialRow>,
}

/// A case of a check table.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CaseRow {
    /// What it is for.
    pub name: String,
    /// The rule that orders it.
    pub rule: String,
    /// The named modifiers (keys of `modifier`) that apply to it when their condition holds.
    pub applies: Vec<String>,
    /// Whether a natural 00–09 is a special result (not for DC G, MC G, MC I: 18.1a, 19.1a).
    pub special: bool,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A named ER modifier.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct ModifierRow {
    /// Its value added to the ER.
    pub value: i8,
    /// The rule.
    pub rule: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// What a special result does.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpecialOutcome {
    /// The check passes.
    Pass,
    /// The check fails.
    Fail,
    /// Roll again (never special), using only the printed ER and this row's modifier (A50).
    Reroll,
}

/// A special result row.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct SpecialRow {
    /// The natural rolls 00–09 it covers, by the units die (`[0, 2]` = 00–02).
    pub roll: Range,
    /// What happens.
    pub outcome: Option<SpecialOutcome>,
    /// ER modifier of the second roll (for `reroll`).
    #[serde(default)]
    pub modifier: i8,
    /// SP lost in addition.
    #[serde(default)]
    pub lose_sp: u8,
    /// A leader stacked with the unit checks for loss (21.4a).
    #[serde(default)]
    pub leader_check: bool,
    /// The result's text.
    pub text: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// The modifiers the rule text prints, with their values: `(table, key, value, rule)`.
pub const PRINTED: &[(&str, &str, i8, &str)] = &[
    ("disorder", "disordered", 5, "18.5a"),
    ("disorder", "rapid_march", 5, "11.4a"),
    ("disorder", "non_clear", 5, "11.2e"),
    ("disorder", "interpenetration", 10, "18.2b"),
    ("morale", "half_strength", 10, "19.8a"),
    ("morale", "shaken", 10, "19.8b"),
    ("morale", "disordered", 5, "19.8b"),
    ("morale", "shaken_disordered", 15, "19.8b"),
    ("morale", "column", 5, "19.8c"),
    ("morale", "square", -10, "19.8c"),
    ("morale", "attack_column", -5, "19.8c"),
    ("morale", "flanked", 10, "19.8e"),
    ("morale", "supported", -10, "19.8f"),
    ("morale", "fire_2_3_sp", 10, "19.9a"),
    ("morale", "fire_4_sp", 20, "19.9a"),
    ("morale", "fire_flank", 5, "19.9b"),
    ("morale", "cavalry_attack", 5, "19.9c"),
    ("morale", "rally_ezoc", 10, "19.9d"),
    ("morale", "routed", 15, "19.9d"),
    ("morale", "passed_by_voluntary", 10, "19.9e"),
];

/// The cases each table must have, and those whose 00–09 are never special.
const CASES: [(&str, &str, &str); 2] =
    [("disorder", "ABCDEFG", "G"), ("morale", "ABCDEFGHIJ", "GI")];

impl CheckTable {
    /// The special result row of a natural roll 00–09.
    pub fn special_for(&self, units: u8) -> Option<&SpecialRow> {
        self.special.iter().find(|r| in_range(r.roll, units))
    }

    /// A named modifier's value (0 if the chart lacks it; `check` reports the lack).
    pub fn value(&self, key: &str) -> i8 {
        self.modifier.get(key).map_or(0, |m| m.value)
    }
}

impl CheckCharts {
    /// The constraints of the text on T15 and T16.
    pub fn check(&self, file: &str, p: &mut Vec<String>) {
        for (name, table) in [("disorder", &self.disorder), ("morale", &self.morale)] {
            let (_, letters, never) = CASES
                .iter()
                .find(|c| c.0 == name)
                .copied()
                .unwrap_or(("", "", ""));
            for l in letters.chars() {
                let key = l.to_string();
                match table.case.get(&key) {
                    None => p.push(format!(
                        "{file}: {name}.case.{key}: missing (1.1c, {})",
                        if name == "disorder" { "18.1b" } else { "19.1b" }
                    )),
                    Some(c) => {
                        if never.contains(l) && c.special {
                            p.push(format!(
                                "{file}: {name}.case.{key}.special: must be false (00–09 is never special for it: {})",
                                if name == "disorder" { "18.1a, 18.6d" } else { "19.1a, 19.5f" }
                            ));
                        }
                        for a in &c.applies {
                            if !table.modifier.contains_key(a) {
                                p.push(format!(
                                    "{file}: {name}.case.{key}.applies: unknown modifier {a:?}"
                                ));
                            }
                        }
                    }
                }
            }
            for (t, key, v, rule) in PRINTED {
                if *t != name {
                    continue;
                }
                match table.modifier.get(*key) {
                    None => p.push(format!(
                        "{file}: {name}.modifier.{key}: missing (BAR {rule} prints {v:+})"
                    )),
                    Some(m) if m.value != *v => p.push(format!(
                        "{file}: {name}.modifier.{key}.value: {} but BAR {rule} prints {v:+}",
                        m.value
                    )),
                    _ => {}
                }
            }
            let ranges: Vec<Range> = table.special.iter().map(|r| r.roll).collect();
            if let Err(e) = covers(&ranges, 9) {
                p.push(format!(
                    "{file}: {name}.special: the rows must cover 00–09 once each: {e}"
                ));
            }
            for (i, r) in table.special.iter().enumerate() {
                if r.outcome.is_none() {
                    p.push(format!("{file}: {name}.special[{i}].outcome: missing"));
                }
                if r.prov.source.is_none() && r.prov.reconstructed.is_none() {
                    p.push(format!(
                        "{file}: {name}.special[{i}]: needs `source` or `reconstructed`"
                    ));
                }
            }
        }
        // Applicability printed by the text (bar-notes T16): G uses the losses modifier (14.8c),
        // I the routed modifier (19.5c).
        for (case, key, rule) in [("G", "half_strength", "14.8c"), ("I", "routed", "19.5c")] {
            if let Some(c) = self.morale.case.get(case)
                && !c.applies.iter().any(|a| a == key)
            {
                p.push(format!(
                    "{file}: morale.case.{case}.applies: must include {key:?} (BAR {rule} example)"
                ));
            }
        }
    }

    /// Count provenance.
    pub fn provenance(&self, add: &mut impl FnMut(&Provenance)) {
        for t in [&self.disorder, &self.morale] {
            t.case.values().for_each(|c| add(&c.prov));
            t.modifier.values().for_each(|m| add(&m.prov));
            t.special.iter().for_each(|s| add(&s.prov));
        }
    }
}
