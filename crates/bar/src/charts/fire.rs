//! T2–T8, the fire charts (BAR 12.0–12.11): the Fire Results Table (T2), the three fire special
//! results tables (T3), fire multipliers and ranges (T4), the Infantry Line SP chart (T5, chart A),
//! the Formation Fire Table (T6, chart B), the fire modifiers (T7, chart C) and the square and hook
//! distribution diagrams (T8).
use super::{Printed, Range, covers};
use crate::data::{Arm, Provenance};
use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::collections::BTreeMap;

/// The fire charts.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct FireCharts {
    /// T2.
    pub results: FireResults,
    /// T3: `infantry`, `artillery`, `defensive` (12.11).
    pub special: BTreeMap<String, Vec<FireSpecialRow>>,
    /// T4: weapons by nation, then by kind (`prussia.grenadier`, `austria.12pdr`).
    pub weapon: BTreeMap<String, BTreeMap<String, WeaponRow>>,
    /// T5: the Infantry Line SP chart by number of ranks (`"3"`, `"4"`); each army's ranks are
    /// Battle Rules data (12.0 A), `ranks` in `oob.toml`.
    pub line_sp: BTreeMap<String, LineSpTable>,
    /// T6: fire capability and SP limits by formation (keys of `FORMATIONS`).
    pub formation: BTreeMap<String, FormationFireRow>,
    /// T7: named modifiers.
    pub modifier: BTreeMap<String, FireModifierRow>,
    /// T7: target size brackets (12.5e), ascending.
    pub size: Vec<SizeRow>,
    /// T8: the square and hook diagrams.
    pub diagram: Diagrams,
}

/// A result of T2 (12.9a, 12.9i).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum FireResult {
    /// No effect (`-`).
    #[default]
    NoEffect,
    /// 'R': the target may return fire (regular side only, 12.9i, 12.10).
    Return,
    /// 'D': disorder check C or E (opportunity/defensive side only, 12.9i).
    Disorder,
    /// SP lost, 1–6 (12.9a).
    Loss(u8),
}

impl FireResult {
    /// Severity for ordering the rows: no effect, then R/D, then losses.
    pub fn rank(self) -> u8 {
        match self {
            FireResult::NoEffect => 0,
            FireResult::Return | FireResult::Disorder => 1,
            FireResult::Loss(n) => 1 + n,
        }
    }
}

impl<'de> Deserialize<'de> for FireResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FireResult, D::Error> {
        let s = String::deserialize(d)?;
        match s.as_str() {
            "-" => Ok(FireResult::NoEffect),
            "R" => Ok(FireResult::Return),
            "D" => Ok(FireResult::Disorder),
            n => match n.parse::<u8>() {
                Ok(v) if v >= 1 => Ok(FireResult::Loss(v)),
                _ => Err(de::Error::custom(format!(
                    "{s:?}: a fire result is '-', 'R', 'D' or an SP loss 1–6"
                ))),
            },
        }
    }
}

/// T2: ratio columns, rows of results (regular on the left, opportunity/defensive on the right,
/// 12.1) with, per column, the lowest modified roll that gives the row.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct FireResults {
    /// Column headings, `"1:3"` … `"5:1"` (12.1), ascending.
    pub columns: Vec<String>,
    /// Rows, mildest first.
    pub row: Vec<FireRow>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A row of T2.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct FireRow {
    /// Result of a regular fire (left column).
    pub regular: FireResult,
    /// Result of an opportunity or defensive fire (right column).
    pub opportunity: FireResult,
    /// Per column, the lowest modified roll reading this row (the first row reads every lower
    /// roll too).
    pub from: Vec<i16>,
}

/// A ratio heading `"a:b"` as a number.
pub fn ratio_value(h: &str) -> Option<f64> {
    let (a, b) = h.split_once(':')?;
    let (a, b): (f64, f64) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (a > 0.0 && b > 0.0).then_some(a / b)
}

impl FireResults {
    /// The column of a strength ratio, rounded in favour of the defender (the rightmost heading
    /// ≤ the ratio, A26), and the die bonus of 12.1 (+10 per whole ratio above 5:1); `None` below
    /// 1:3 ("Fire cannot be made at a ratio lower than 1:3").
    pub fn column_for(&self, ratio: f64, per_whole_ratio: i16) -> Option<(usize, i16)> {
        let col = self
            .columns
            .iter()
            .rposition(|h| ratio_value(h).is_some_and(|v| v <= ratio + 1e-9))?;
        let bonus = if ratio >= 6.0 {
            // Whole ratios above 5:1 (12.1: 7:1 → +20).
            (ratio.floor() as i16 - 5) * per_whole_ratio
        } else {
            0
        };
        Some((col, bonus))
    }

    /// The result of a modified roll in a column, on the regular or the opportunity side.
    pub fn result(&self, column: usize, roll: i16, opportunity: bool) -> FireResult {
        let row = self
            .row
            .iter()
            .rposition(|r| r.from.get(column).is_some_and(|f| *f <= roll))
            .unwrap_or(0);
        self.row.get(row).map_or(FireResult::NoEffect, |r| {
            if opportunity {
                r.opportunity
            } else {
                r.regular
            }
        })
    }
}

/// A fire special result (12.11), read with the natural roll 00–09.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct FireSpecialRow {
    /// The natural rolls (units die) it covers.
    pub roll: Range,
    /// A leader with the target checks the Leader Loss Table, before anything else (12.11).
    #[serde(default)]
    pub leader_check: bool,
    /// SP the target loses.
    #[serde(default)]
    pub target_sp: u8,
    /// The target is disordered (no check).
    #[serde(default)]
    pub target_disorder: bool,
    /// The firers are disordered (confusion, smoke).
    #[serde(default)]
    pub firer_disorder: bool,
    /// Roll the fire again; a second 00–09 is a normal roll (12.11).
    #[serde(default)]
    pub reroll: bool,
    /// Text.
    pub text: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// T4: a weapon's multipliers by range and its minimum range (artillery).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct WeaponRow {
    /// Infantry or artillery.
    pub arm: Option<Arm>,
    /// `[to, multiplier]` bands, ascending: the multiplier for ranges up to `to` hexes beyond the
    /// previous band (infantry: `[[1, 5], [2, 3]]`, 12.0).
    pub multipliers: Vec<(u8, f32)>,
    /// Artillery minimum range: the close zone (12.2i, 12.8, 12.9f).
    #[serde(default)]
    pub min_range: Option<u8>,
    /// A howitzer (12.6d).
    #[serde(default)]
    pub howitzer: bool,
    /// The columns the series rules print.
    #[serde(default)]
    pub printed: Printed,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

impl WeaponRow {
    /// The multiplier at a range in hexes, `None` out of range.
    pub fn multiplier(&self, range: u8) -> Option<f32> {
        if range == 0 {
            return None;
        }
        self.multipliers
            .iter()
            .find(|(to, _)| range <= *to)
            .map(|(_, m)| *m)
    }

    /// The maximum range.
    pub fn max_range(&self) -> u8 {
        self.multipliers.last().map_or(0, |b| b.0)
    }
}

/// T5 for one number of ranks.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct LineSpTable {
    /// SPs that fire from a hex by the infantry SPs in it (`sp` range).
    pub fire: Vec<LineSpRow>,
    /// Minimum SPs for a line or march column over two hexes (8.1a, 10.8d).
    pub two_hex_min: u8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A row of T5.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct LineSpRow {
    /// Infantry SPs in the hex (`[lo, hi]`).
    pub sp: Range,
    /// SPs that can fire from it.
    pub fire: u8,
}

impl LineSpTable {
    /// SPs that fire from a hex of `sp` infantry SPs; disordered halves it, rounded (18.5a, 12.3a).
    pub fn fire_per_hex(&self, sp: u8, disordered: bool) -> u8 {
        let n = self
            .fire
            .iter()
            .find(|r| super::in_range(r.sp, sp))
            .or_else(|| self.fire.last().filter(|r| sp > r.sp[1]))
            .map_or(0, |r| r.fire.min(sp));
        if disordered { n.div_ceil(2) } else { n }
    }
}

/// T6: a formation's fire.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct FormationFireRow {
    /// It may fire (12.2a).
    pub fires: bool,
    /// SPs that fire per hex; absent: by T5 (line, hook).
    #[serde(default)]
    pub max_per_hex: Option<u8>,
    /// SPs per target hex (square, 12.2g).
    #[serde(default)]
    pub per_target_hex: Option<u8>,
    /// Total SPs that may fire (square, 12.2g).
    #[serde(default)]
    pub max_total: Option<u8>,
    /// The columns the series rules print.
    #[serde(default)]
    pub printed: Printed,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// T7: a named modifier (to SPs, multiplier, die or losses; its rule says which).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct FireModifierRow {
    /// Value.
    pub value: f32,
    /// What it modifies: `die`, `multiplier`, `losses` (a factor), `size` (a factor).
    pub applies_to: String,
    /// The rule.
    pub rule: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// T7: a target size bracket (12.5e).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct SizeRow {
    /// Smallest size (12.5a–d) of the bracket.
    pub min: u8,
    /// Die modifier.
    pub die: i16,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// T8.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Diagrams {
    /// Square: the target hexes (all X or all Y of the alternating neighbours, 12.2g).
    pub square_targets: u8,
    /// Hook: the most SPs that fire through the hook hex, 8.1b's extra front hex (through the
    /// line's front a hook fires as a line, 12.3d).
    pub hook_hex_fire: u8,
    /// Hook: artillery stacked with a hook may not fire through the hook hex ('NA', 12.4f).
    pub hook_artillery_na: bool,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// The modifiers the rule text prints: `(key, value, applies_to, rule)`.
pub const PRINTED: &[(&str, f32, &str, &str)] = &[
    ("ratio_above_5", 10.0, "die", "12.1"),
    ("skirmisher_target", -10.0, "die", "12.5f"),
    ("defensive_vs_cavalry", 10.0, "die", "13.10g"),
    ("defensive_vs_infantry", 20.0, "die", "13.10g"),
    ("enfilade", 1.0, "multiplier", "12.7b"),
    ("general_order", -1.0, "multiplier", "12.7c"),
    ("column_square_losses", 1.5, "losses", "12.9h"),
    ("artillery_beyond_min_range", 0.5, "losses", "12.9f"),
    ("artillery_size", 4.0, "size", "12.5a"),
    ("cavalry_size", 2.0, "size", "12.5a"),
];

const FIRING: [&str; 7] = [
    "line",
    "hook",
    "square",
    "attack_column",
    "general_order",
    "skirmish",
    "unlimbered",
];
const NOT_FIRING: [&str; 3] = ["march_column", "road_column", "limbered"];

impl FireCharts {
    /// The multiplier of a nation's weapon at a range.
    pub fn multiplier(&self, nation: &str, kind: &str, range: u8) -> Option<f32> {
        self.weapon.get(nation)?.get(kind)?.multiplier(range)
    }

    /// T5 for an army's number of ranks (12.0 A).
    pub fn line_sp_for(&self, ranks: u8) -> Option<&LineSpTable> {
        // The key is the number in decimal, written without an allocation (a hot path: every
        // footprint's SP layout asks, 8.1a).
        let mut buf = [0u8; 3];
        let mut n = ranks;
        let mut i = buf.len();
        loop {
            i -= 1;
            buf[i] = b'0' + n % 10;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let key = std::str::from_utf8(&buf[i..]).ok()?;
        self.line_sp.get(key)
    }

    /// A named modifier's value (0 if absent; `check` reports the lack).
    pub fn value(&self, key: &str) -> f32 {
        self.modifier.get(key).map_or(0.0, |m| m.value)
    }

    /// The die modifier of a target size (12.5e).
    pub fn size_modifier(&self, size: u16) -> i16 {
        self.size
            .iter()
            .rev()
            .find(|r| u16::from(r.min) <= size)
            .map_or(0, |r| r.die)
    }

    /// The constraints of the text on T2–T8, each naming file and field.
    pub fn check(&self, file: &str, p: &mut Vec<String>) {
        self.check_results(file, p);
        for t in ["infantry", "artillery", "defensive"] {
            match self.special.get(t) {
                None => p.push(format!(
                    "{file}: special.{t}: missing (12.11: separate tables for infantry, artillery and defensive fire)"
                )),
                Some(rows) => {
                    let r: Vec<Range> = rows.iter().map(|r| r.roll).collect();
                    if let Err(e) = covers(&r, 9) {
                        p.push(format!(
                            "{file}: special.{t}: the rows must cover 00–09 once each (12.11): {e}"
                        ));
                    }
                    if !rows.iter().any(|r| r.leader_check) {
                        p.push(format!(
                            "{file}: special.{t}: no row checks the Leader Loss Table (12.11, 21.4b)"
                        ));
                    }
                    if !rows.iter().any(|r| r.reroll) {
                        p.push(format!(
                            "{file}: special.{t}: no row re-rolls the fire (12.11)"
                        ));
                    }
                    for (i, r) in rows.iter().enumerate() {
                        prov(file, &format!("special.{t}[{i}]"), &r.prov, p);
                    }
                }
            }
        }
        self.check_weapons(file, p);
        self.check_line_sp(file, p);
        for f in FIRING {
            match self.formation.get(f) {
                None => p.push(format!("{file}: formation.{f}: missing (12.2a)")),
                Some(r) if !r.fires => p.push(format!(
                    "{file}: formation.{f}.fires: must be true (BAR 12.2a)"
                )),
                _ => {}
            }
        }
        for f in NOT_FIRING {
            if let Some(r) = self.formation.get(f)
                && r.fires
            {
                p.push(format!(
                    "{file}: formation.{f}.fires: must be false (BAR 12.2a)"
                ));
            }
        }
        for k in self.formation.keys() {
            if !super::FORMATIONS.contains(&k.as_str()) {
                p.push(format!("{file}: formation.{k}: unknown formation"));
            }
        }
        if let Some(sq) = self.formation.get("square")
            && (sq.per_target_hex != Some(4) || sq.max_total != Some(12))
        {
            p.push(format!(
                "{file}: formation.square.per_target_hex: must be 4 with max_total 12 (BAR 12.2g)"
            ));
        }
        if let Some(a) = self.formation.get("unlimbered")
            && a.max_per_hex != Some(4)
        {
            p.push(format!(
                "{file}: formation.unlimbered.max_per_hex: must be 4 (BAR 12.4c: a maximum of 4 artillery SPs can fire from a hex)"
            ));
        }
        for (k, r) in &self.formation {
            prov(file, &format!("formation.{k}"), &r.prov, p);
        }
        for (key, v, to, rule) in PRINTED {
            match self.modifier.get(*key) {
                None => p.push(format!(
                    "{file}: modifier.{key}: missing (BAR {rule} prints {v})"
                )),
                Some(m) if (m.value - v).abs() > 1e-6 || m.applies_to != *to => p.push(format!(
                    "{file}: modifier.{key}.value: {} to {} but BAR {rule} prints {v} to the {to}",
                    m.value, m.applies_to
                )),
                _ => {}
            }
        }
        for (k, m) in &self.modifier {
            prov(file, &format!("modifier.{k}"), &m.prov, p);
            if !["die", "multiplier", "losses", "size", "sp"].contains(&m.applies_to.as_str()) {
                p.push(format!(
                    "{file}: modifier.{k}.applies_to: {:?} is not die, multiplier, losses, size or sp",
                    m.applies_to
                ));
            }
        }
        if self.size.first().map(|r| r.min) != Some(0)
            || self.size.windows(2).any(|w| w[0].min >= w[1].min)
        {
            p.push(format!(
                "{file}: size: brackets must start at 0 and ascend (12.5e)"
            ));
        }
        for (i, r) in self.size.iter().enumerate() {
            prov(file, &format!("size[{i}]"), &r.prov, p);
        }
        if self.diagram.square_targets != 3 {
            p.push(format!(
                "{file}: diagram.square_targets: must be 3 (BAR 12.2g: three non-adjacent hexes)"
            ));
        }
        prov(file, "diagram", &self.diagram.prov, p);
    }

    fn check_results(&self, file: &str, p: &mut Vec<String>) {
        let t = &self.results;
        prov(file, "results", &t.prov, p);
        if t.columns.first().map(String::as_str) != Some("1:3")
            || t.columns.last().map(String::as_str) != Some("5:1")
        {
            p.push(format!(
                "{file}: results.columns: must run from 1:3 to 5:1 (BAR 12.1)"
            ));
        }
        let vals: Vec<Option<f64>> = t.columns.iter().map(|h| ratio_value(h)).collect();
        if vals.iter().any(Option::is_none) || vals.windows(2).any(|w| w[0] >= w[1]) {
            p.push(format!(
                "{file}: results.columns: headings must be ratios 'a:b' ascending"
            ));
        }
        let n = t.columns.len();
        for (i, r) in t.row.iter().enumerate() {
            if r.from.len() != n {
                p.push(format!(
                    "{file}: results.row[{i}].from: {} entries for {n} columns",
                    r.from.len()
                ));
            }
            if r.regular == FireResult::Disorder {
                p.push(format!(
                    "{file}: results.row[{i}].regular: 'D' only on the opportunity side (BAR 12.9i)"
                ));
            }
            if r.opportunity == FireResult::Return {
                p.push(format!(
                    "{file}: results.row[{i}].opportunity: 'R' only on the regular side (BAR 12.9i)"
                ));
            }
            for side in [r.regular, r.opportunity] {
                if let FireResult::Loss(l) = side
                    && l > 6
                {
                    p.push(format!(
                        "{file}: results.row[{i}]: loss {l} > 6 (BAR 12.9a: from 1 to 6)"
                    ));
                }
            }
            if i > 0 {
                let q = &t.row[i - 1];
                if r.regular.rank() < q.regular.rank()
                    || r.opportunity.rank() < q.opportunity.rank()
                {
                    p.push(format!(
                        "{file}: results.row[{i}]: milder than the row above (the die helps the firer, 12.1)"
                    ));
                }
                for c in 0..n.min(r.from.len()).min(q.from.len()) {
                    if r.from[c] < q.from[c] {
                        p.push(format!(
                            "{file}: results.row[{i}].from: column {} below the row above",
                            t.columns[c]
                        ));
                    }
                }
            }
            for c in 1..n.min(r.from.len()) {
                if r.from[c] > r.from[c - 1] {
                    p.push(format!(
                        "{file}: results.row[{i}].from: column {} needs a higher roll than {} (a better ratio must not hurt the firer)",
                        t.columns[c],
                        t.columns[c - 1]
                    ));
                }
            }
        }
        let has = |f: &dyn Fn(&FireRow) -> bool| t.row.iter().any(f);
        if !has(&|r| r.regular == FireResult::Return) {
            p.push(format!(
                "{file}: results.row: the regular side has no 'R' (BAR 12.9i, 12.10)"
            ));
        }
        if !has(&|r| r.opportunity == FireResult::Disorder) {
            p.push(format!(
                "{file}: results.row: the opportunity side has no 'D' (BAR 12.9i)"
            ));
        }
        if !has(&|r| r.regular == FireResult::Loss(6)) {
            p.push(format!(
                "{file}: results.row: no loss of 6 (BAR 12.9a: SP losses from 1 to 6)"
            ));
        }
    }

    fn check_weapons(&self, file: &str, p: &mut Vec<String>) {
        for (nation, kind, range, m, rule) in [
            (
                "prussia",
                "grenadier",
                1,
                5.0,
                "12.1 example 1 (×5 at 1 hex)",
            ),
            (
                "prussia",
                "grenadier",
                2,
                3.0,
                "12.1 example 1 (×3 at 2 hexes)",
            ),
            (
                "prussia",
                "fusilier",
                1,
                3.0,
                "12.1 example 1 (×3 at 1 hex)",
            ),
            (
                "prussia",
                "fusilier",
                2,
                2.0,
                "12.1 example 1 (×2 at 2 hexes)",
            ),
            ("prussia", "12pdr", 8, 3.0, "12.1 example 2 (×3 at 8 hexes)"),
        ] {
            match self.multiplier(nation, kind, range) {
                Some(v) if (v - m).abs() < 1e-6 => {}
                other => p.push(format!(
                    "{file}: weapon.{nation}.{kind}.multipliers: {} at {range} {} but BAR {rule}",
                    other.map_or("none".into(), |v| format!("×{v}")),
                    if range == 1 { "hex" } else { "hexes" }
                )),
            }
        }
        let mut min3 = false;
        for (nation, kinds) in &self.weapon {
            for (kind, w) in kinds {
                let f = format!("{file}: weapon.{nation}.{kind}");
                prov(file, &format!("weapon.{nation}.{kind}"), &w.prov, p);
                if w.multipliers.is_empty() || w.multipliers.windows(2).any(|b| b[0].0 >= b[1].0) {
                    p.push(format!("{f}.multipliers: bands must ascend by range"));
                }
                match w.arm {
                    Some(Arm::Infantry) => {
                        if w.max_range() != 2 {
                            p.push(format!(
                                "{f}.multipliers: infantry fires at 1 and 2 hexes (BAR 12.0), not to {}",
                                w.max_range()
                            ));
                        }
                        if w.min_range.is_some() {
                            p.push(format!("{f}.min_range: infantry has none (12.0)"));
                        }
                    }
                    Some(Arm::Artillery) => match w.min_range {
                        None => p.push(format!(
                            "{f}.min_range: every artillery has a minimum range (BAR 12.2i, 12.9f)"
                        )),
                        Some(m) => {
                            min3 |= m == 3;
                            if m >= w.max_range() {
                                p.push(format!("{f}.min_range: not below the maximum range"));
                            }
                        }
                    },
                    Some(Arm::Cavalry) | None => p.push(format!(
                        "{f}.arm: infantry or artillery (cavalry cannot fire, 12.2a)"
                    )),
                }
            }
        }
        if !min3 {
            p.push(format!(
                "{file}: weapon: no artillery has a minimum range of 3 (BAR 12.9f example)"
            ));
        }
    }

    fn check_line_sp(&self, file: &str, p: &mut Vec<String>) {
        if !self.line_sp.contains_key("3") {
            p.push(format!(
                "{file}: line_sp.3: missing (the Prussian line of the 12.1 example: three ranks)"
            ));
        }
        for (k, t) in &self.line_sp {
            prov(file, &format!("line_sp.{k}"), &t.prov, p);
            let rows: Vec<Range> = t.fire.iter().map(|r| r.sp).collect();
            if let Err(e) = covers_from(&rows, 1, rows.last().map_or(1, |r| r[1])) {
                p.push(format!(
                    "{file}: line_sp.{k}.fire: rows must cover 1 SP upward once each: {e}"
                ));
            }
            for (sp, want, rule) in [
                (
                    5,
                    4,
                    "12.1 example 1 (a Prussian 5-SP one-hex line fires 4) and 12.4c",
                ),
                (
                    15,
                    4,
                    "18.5a example (three 10-SP battalions over two hexes fire 4 a hex)",
                ),
            ] {
                if t.fire_per_hex(sp, false) != want {
                    p.push(format!(
                        "{file}: line_sp.{k}.fire: {sp} SP in a hex fire {} but BAR {rule}",
                        t.fire_per_hex(sp, false)
                    ));
                }
            }
            if k == "4" {
                if t.fire_per_hex(4, false) != 3 {
                    p.push(format!(
                        "{file}: line_sp.4.fire: 4 SP in a hex fire {} but the BAR 18.5a example fires 3 (9 SP over 2 hexes: 3 and 4)",
                        t.fire_per_hex(4, false)
                    ));
                }
                if t.two_hex_min > 9 {
                    p.push(format!(
                        "{file}: line_sp.4.two_hex_min: {} but the BAR 18.5a example has a 9-SP 4-rank line over 2 hexes",
                        t.two_hex_min
                    ));
                }
            }
        }
    }

    /// Count provenance.
    pub fn provenance(&self, add: &mut impl FnMut(&Provenance)) {
        add(&self.results.prov);
        self.special.values().flatten().for_each(|r| add(&r.prov));
        for w in self.weapon.values().flat_map(|k| k.values()) {
            add(&w.prov);
            w.printed.values().for_each(|s| add(&sourced(s)));
        }
        self.line_sp.values().for_each(|t| add(&t.prov));
        for f in self.formation.values() {
            add(&f.prov);
            f.printed.values().for_each(|s| add(&sourced(s)));
        }
        self.modifier.values().for_each(|m| add(&m.prov));
        self.size.iter().for_each(|s| add(&s.prov));
        add(&self.diagram.prov);
    }
}

/// A provenance that only cites the rules (for a printed column).
pub(crate) fn sourced(rule: &str) -> Provenance {
    Provenance {
        source: Some(rule.to_string()),
        ..Provenance::default()
    }
}

/// A datum without provenance.
pub(crate) fn prov(file: &str, key: &str, p: &Provenance, out: &mut Vec<String>) {
    if p.source.is_none() && p.reconstructed.is_none() && p.invented.is_none() {
        out.push(format!("{file}: {key}: needs `source` or `reconstructed`"));
    }
}

fn covers_from(ranges: &[Range], lo: u8, hi: u8) -> Result<(), String> {
    for v in lo..=hi {
        let n = ranges.iter().filter(|r| super::in_range(**r, v)).count();
        if n != 1 {
            return Err(format!("{n} rows for {v}"));
        }
    }
    Ok(())
}
