//! T13 (Close Combat Results Table), T14 (Close Combat Special Results) and T19 (Pursuit Special
//! Results). BAR 13.11, 14.1–14.8, 16.2a.
use super::fire::{prov, ratio_value};
use super::{Range, covers};
use crate::data::Provenance;
use serde::Deserialize;
use serde::de::{self, Deserializer};

/// The close combat charts.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CombatCharts {
    /// T13.
    pub crt: Crt,
    /// T14, keyed on (attacker's die, defender's die) with at least one '0' (14.8a, A43).
    pub special: Vec<CcSpecialRow>,
    /// T19, read with the re-rolled d10 after a natural '0' pursuit roll (16.2a).
    pub pursuit_special: Vec<PursuitSpecialRow>,
    /// The leader modifier to the pursuit points roll (16.2a: "see the game's Battle Rules");
    /// absent: none.
    #[serde(default)]
    pub pursuit_leader: Option<PursuitLeader>,
}

/// The modifier a leader stacked with pursuing cavalry adds to its pursuit points die (16.2a), by
/// the kind of leader; a leader's own `pp_modifier` in the order of battle (T23) overrides it.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct PursuitLeader {
    /// An army leader.
    #[serde(default)]
    pub army: i8,
    /// A wing leader.
    #[serde(default)]
    pub wing: i8,
    /// A brigade leader.
    #[serde(default)]
    pub brigade: i8,
    /// A special leader (6.6f).
    #[serde(default)]
    pub special: i8,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

impl PursuitLeader {
    /// The modifier of a leader of this kind.
    pub fn of(&self, kind: crate::data::LeaderKind) -> i8 {
        use crate::data::LeaderKind;
        match kind {
            LeaderKind::Army => self.army,
            LeaderKind::Wing => self.wing,
            LeaderKind::Brigade => self.brigade,
            LeaderKind::Special => self.special,
        }
    }
}

/// One side's half of a close combat result (14.1b): SP lost and the letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcSide {
    /// '#': SP lost (14.2).
    pub sp: u8,
    /// 'D': disordered, the winning side (14.3).
    pub disorder: bool,
    /// 'M': morale check (G) for both sides (14.4).
    pub morale: bool,
    /// 'R': rout (14.6).
    pub rout: bool,
    /// 'S': surrender (14.7).
    pub surrender: bool,
}

/// A cell `A/D` of T13 or T14 (`"1D/2R"`, `"-/1"`, `"2/2*"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcCell {
    /// Attacker's result (left, 14.1b).
    pub attacker: CcSide,
    /// Defender's result (right).
    pub defender: CcSide,
    /// '*': the leaders who gave their CV check for loss (14.8b, special results only).
    pub leader_check: bool,
}

fn side(s: &str) -> Result<CcSide, String> {
    let mut r = CcSide::default();
    if s == "-" {
        return Ok(r);
    }
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        r.sp = digits.parse().map_err(|_| format!("{s:?}: bad SP loss"))?;
    }
    for c in s[digits.len()..].chars() {
        match c {
            'D' => r.disorder = true,
            'M' => r.morale = true,
            'R' => r.rout = true,
            'S' => r.surrender = true,
            _ => return Err(format!("{s:?}: '{c}' is not #, D, M, R, S or - (14.1b)")),
        }
    }
    if s.is_empty() {
        return Err("an empty half (write '-' for no effect, 14.1b)".into());
    }
    Ok(r)
}

impl CcCell {
    /// Parse `"1D/2R"`; a trailing `*` is the leader check of the special results (14.8b).
    pub fn parse(s: &str) -> Result<CcCell, String> {
        let (body, star) = match s.strip_suffix('*') {
            Some(b) => (b, true),
            None => (s, false),
        };
        let (a, d) = body
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: a result is 'A/D' (14.1b)"))?;
        Ok(CcCell {
            attacker: side(a.trim())?,
            defender: side(d.trim())?,
            leader_check: star,
        })
    }

    /// The cell as printed.
    pub fn show(&self) -> String {
        let half = |h: &CcSide| {
            let mut t = if h.sp > 0 {
                h.sp.to_string()
            } else {
                String::new()
            };
            for (b, c) in [
                (h.disorder, 'D'),
                (h.morale, 'M'),
                (h.rout, 'R'),
                (h.surrender, 'S'),
            ] {
                if b {
                    t.push(c);
                }
            }
            if t.is_empty() { "-".into() } else { t }
        };
        format!(
            "{}/{}{}",
            half(&self.attacker),
            half(&self.defender),
            if self.leader_check { "*" } else { "" }
        )
    }
}

impl<'de> Deserialize<'de> for CcCell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CcCell, D::Error> {
        let s = String::deserialize(d)?;
        CcCell::parse(&s).map_err(de::Error::custom)
    }
}

/// T13: ratio columns 1:3 … 6:1 (13.11), rows of die differences (attacker − defender, 14.1a).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Crt {
    /// Column headings, ascending.
    pub columns: Vec<String>,
    /// Rows, lowest difference first; the first and last are open (`diff = [-99, …]`, `[…, 99]`).
    pub row: Vec<CrtRow>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A row of T13.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CrtRow {
    /// Die difference range, inclusive.
    pub diff: [i16; 2],
    /// A cell per column.
    pub cells: Vec<CcCell>,
}

/// The bound written for an open end row.
pub const OPEN: i16 = 99;

impl Crt {
    /// The column of an SP ratio rounded in the defender's favour, with the die bonuses of 13.11:
    /// `(column, attacker bonus, defender bonus)` (+1 to the attacker per whole ratio above 6:1,
    /// +1 to the defender per whole ratio below 1:3; 8:1 → +2, 1:4 → +1).
    pub fn column_for(&self, attacker_sp: u32, defender_sp: u32) -> (usize, i16, i16) {
        let (a, d) = (f64::from(attacker_sp), f64::from(defender_sp.max(1)));
        let r = a / d;
        if r < 1.0 / 3.0 - 1e-9 {
            // 1:4 → +1: whole ratios below 1:3 (defender-favoured rounding: d ÷ a rounded up).
            let inv = (d / a.max(1.0)).ceil() as i16;
            return (0, 0, (inv - 3).max(0));
        }
        let col = self
            .columns
            .iter()
            .rposition(|h| ratio_value(h).is_some_and(|v| v <= r + 1e-9))
            .unwrap_or(0);
        let att = if r >= 7.0 { r.floor() as i16 - 6 } else { 0 };
        (col, att, 0)
    }

    /// The cell of a difference in a column.
    pub fn cell(&self, column: usize, diff: i16) -> Option<CcCell> {
        let d = diff.clamp(-OPEN, OPEN);
        self.row
            .iter()
            .find(|r| r.diff[0] <= d && d <= r.diff[1])
            .and_then(|r| r.cells.get(column).copied())
    }
}

/// A row of T14.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CcSpecialRow {
    /// The attacker's natural d10 range.
    pub attacker: Range,
    /// The defender's natural d10 range.
    pub defender: Range,
    /// The SP losses in the CRT's format, '*' for the leader check (14.8b).
    pub result: CcCell,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A row of T19.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct PursuitSpecialRow {
    /// The re-rolled d10.
    pub roll: Range,
    /// The pursuit points; absent: the re-roll itself (A47).
    #[serde(default)]
    pub pp: Option<u8>,
    /// Added to the pursuit points.
    #[serde(default)]
    pub pp_bonus: u8,
    /// The pursuing cavalry is disordered at once.
    #[serde(default)]
    pub disorder: bool,
    /// A leader with the pursuers checks the Leader Loss Table.
    #[serde(default)]
    pub leader_check: bool,
    /// The cavalry is recalled at once, without the recall disorder check (F) of 16.2b/16.3;
    /// only with `pp = 0` (no pursuit movement to recall it from).
    #[serde(default)]
    pub recalled: bool,
    /// Text.
    pub text: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

impl CombatCharts {
    /// T14 for the two natural dice (one of them '0').
    pub fn special_for(&self, attacker: u8, defender: u8) -> Option<CcCell> {
        self.special
            .iter()
            .find(|r| {
                super::in_range(r.attacker, attacker) && super::in_range(r.defender, defender)
            })
            .map(|r| r.result)
    }

    /// T19 for the re-rolled die.
    pub fn pursuit_for(&self, roll: u8) -> Option<&PursuitSpecialRow> {
        self.pursuit_special
            .iter()
            .find(|r| super::in_range(r.roll, roll))
    }

    /// The constraints of the text on T13, T14, T19, each naming file and field.
    pub fn check(&self, file: &str, p: &mut Vec<String>) {
        let t = &self.crt;
        prov(file, "crt", &t.prov, p);
        if t.columns.first().map(String::as_str) != Some("1:3")
            || t.columns.last().map(String::as_str) != Some("6:1")
        {
            p.push(format!(
                "{file}: crt.columns: must run from 1:3 to 6:1 (BAR 13.11)"
            ));
        }
        let vals: Vec<Option<f64>> = t.columns.iter().map(|h| ratio_value(h)).collect();
        if vals.iter().any(Option::is_none) || vals.windows(2).any(|w| w[0] >= w[1]) {
            p.push(format!(
                "{file}: crt.columns: headings must be ratios 'a:b' ascending"
            ));
        }
        match (t.row.first(), t.row.last()) {
            (Some(f), Some(l)) => {
                if f.diff[0] > -OPEN || l.diff[1] < OPEN {
                    p.push(format!(
                        "{file}: crt.row: the end rows must be open (diff from -{OPEN} to {OPEN}): two d10 and CVs make the difference unbounded (13.11, 14.1a)"
                    ));
                }
            }
            _ => p.push(format!("{file}: crt.row: empty")),
        }
        for (i, r) in t.row.iter().enumerate() {
            if r.cells.len() != t.columns.len() {
                p.push(format!(
                    "{file}: crt.row[{i}].cells: {} cells for {} columns",
                    r.cells.len(),
                    t.columns.len()
                ));
            }
            if r.diff[0] > r.diff[1] {
                p.push(format!("{file}: crt.row[{i}].diff: empty range"));
            }
            if i > 0 && t.row[i - 1].diff[1] + 1 != r.diff[0] {
                p.push(format!(
                    "{file}: crt.row[{i}].diff: must start right after row {} (every difference once)",
                    i - 1
                ));
            }
            for (c, cell) in r.cells.iter().enumerate() {
                if cell.leader_check {
                    p.push(format!(
                        "{file}: crt.row[{i}].cells[{c}]: '*' belongs to the special results (14.8b)"
                    ));
                }
                if cell.attacker.disorder && cell.defender.disorder {
                    p.push(format!(
                        "{file}: crt.row[{i}].cells[{c}]: 'D' on both sides (14.3a: the winning side)"
                    ));
                }
            }
        }
        for want in ["1D/2R", "1D/1R"] {
            let Ok(w) = CcCell::parse(want) else { continue };
            if !t.row.iter().any(|r| r.cells.contains(&w)) {
                p.push(format!(
                    "{file}: crt.row: no '{want}' cell (BAR {})",
                    if want == "1D/2R" {
                        "14.2c example"
                    } else {
                        "16.2c example"
                    }
                ));
            }
        }
        // T14: every pair with a '0' once (14.8a).
        for a in 0..=9u8 {
            for d in 0..=9u8 {
                if a != 0 && d != 0 {
                    continue;
                }
                let n = self
                    .special
                    .iter()
                    .filter(|r| super::in_range(r.attacker, a) && super::in_range(r.defender, d))
                    .count();
                if n != 1 {
                    p.push(format!(
                        "{file}: special: {n} rows for attacker {a}, defender {d} (14.8a: every roll with a '0' once{})",
                        if a == 0 && d == 0 { ", the double '0' included" } else { "" }
                    ));
                }
            }
        }
        for (a, d) in [(0, 3), (3, 0)] {
            if let Some(c) = self.special_for(a, d)
                && c.show() != "2/2*"
            {
                p.push(format!(
                    "{file}: special: attacker {a}, defender {d} gives '{}' but the BAR 14.8c example reads '2/2*' for a '0' and a '3'",
                    c.show()
                ));
            }
        }
        for (i, r) in self.special.iter().enumerate() {
            prov(file, &format!("special[{i}]"), &r.prov, p);
        }
        let pr: Vec<Range> = self.pursuit_special.iter().map(|r| r.roll).collect();
        if let Err(e) = covers(&pr, 9) {
            p.push(format!(
                "{file}: pursuit_special: rows must cover d10 0–9 once each (16.2a): {e}"
            ));
        }
        for (i, r) in self.pursuit_special.iter().enumerate() {
            prov(file, &format!("pursuit_special[{i}]"), &r.prov, p);
            if r.recalled && r.pp != Some(0) {
                p.push(format!(
                    "{file}: pursuit_special[{i}]: a row that recalls the cavalry at once must give pp = 0 (16.2a, 16.3)"
                ));
            }
        }
        if let Some(l) = &self.pursuit_leader {
            prov(file, "pursuit_leader", &l.prov, p);
            for (k, v) in [
                ("army", l.army),
                ("wing", l.wing),
                ("brigade", l.brigade),
                ("special", l.special),
            ] {
                if !(-9..=9).contains(&v) {
                    p.push(format!(
                        "{file}: pursuit_leader.{k}: a modifier to a d10 roll, -9..9 (16.2a)"
                    ));
                }
            }
        }
    }

    /// Count provenance.
    pub fn provenance(&self, add: &mut impl FnMut(&Provenance)) {
        add(&self.crt.prov);
        self.special.iter().for_each(|r| add(&r.prov));
        self.pursuit_special.iter().for_each(|r| add(&r.prov));
        if let Some(l) = &self.pursuit_leader {
            add(&l.prov);
        }
    }
}
