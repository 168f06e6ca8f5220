//! T17 (Initiative Special Results), T18 (Leader Loss Table) and T20 (Current Loss Level tables).
use super::{Range, covers, in_range};
use crate::data::Provenance;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The command charts.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct CommandCharts {
    /// T17, by the die of the player who did not roll '0' (6.9a).
    pub initiative_special: Vec<IsrRow>,
    /// T18.
    pub leader_loss: Vec<LeaderLossRow>,
    /// T20, by key (named by each army in `oob.toml`).
    pub loss_levels: BTreeMap<String, LossLevelTable>,
}

/// What an initiative special result does to the player who did not roll '0'.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IsrEffect {
    /// He wins the initiative outright (no CR, no wing activation) and chooses as 6.1a.
    Initiative,
    /// He must activate one of his brigades now (if he has none, the roll is made again).
    MustActivate,
    /// His disordered units stacked with a leader recover (a second recovery, 18.6a); then the
    /// dice are rolled again.
    Recovery,
    /// The END TURN marker moves one more box toward End; then the dice are rolled again.
    EndTurn,
    /// Nothing; the dice are rolled again.
    Reroll,
}

/// A row of T17.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct IsrRow {
    /// The other player's die (1–9).
    pub die: Range,
    /// The effect.
    pub effect: IsrEffect,
    /// Its text.
    pub text: String,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A leader's fate on T18.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeaderLossResult {
    /// Killed (21.4b).
    Killed,
    /// Wounded for the die halved (rounded) turns, at least one (21.4c, A57).
    Wounded,
    /// Unhurt.
    Unhurt,
}

/// A row of T18.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct LeaderLossRow {
    /// d10 range.
    pub die: Range,
    /// Result.
    pub result: LeaderLossResult,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// One army's Current Loss Level table (23.1b, 23.2a): columns headed by a minimum CLT, rows of
/// Army Morale Results with a d10 range per column.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct LossLevelTable {
    /// Column headings '# +' (minimum CLT), ascending.
    pub columns: Vec<u16>,
    /// Rows.
    pub row: Vec<LossLevelRow>,
    /// Provenance.
    #[serde(flatten)]
    pub prov: Provenance,
}

/// A row: the modifier added to army morale and, per column, the d10 range that gives it.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct LossLevelRow {
    /// Added to the army morale modifier ('O' = 0).
    pub result: u8,
    /// Per column, the die range (`[lo, hi]`); `[10, 10]` for none.
    pub dice: Vec<Range>,
}

impl LossLevelTable {
    /// The column of a CLT: the rightmost whose heading is ≤ the CLT (A59), if any.
    pub fn column_for(&self, clt: u32) -> Option<usize> {
        self.columns.iter().rposition(|&c| u32::from(c) <= clt)
    }

    /// The result of a (modified, ≥ 0) die in a column.
    pub fn result(&self, column: usize, die: u8) -> u8 {
        self.row
            .iter()
            .find(|r| r.dice.get(column).is_some_and(|d| in_range(*d, die)))
            .map_or(0, |r| r.result)
    }
}

impl CommandCharts {
    /// The ISR row of a die.
    pub fn isr(&self, die: u8) -> Option<&IsrRow> {
        self.initiative_special
            .iter()
            .find(|r| in_range(r.die, die))
    }

    /// T18 for a die.
    pub fn leader_loss(&self, die: u8) -> LeaderLossResult {
        self.leader_loss
            .iter()
            .find(|r| in_range(r.die, die))
            .map_or(LeaderLossResult::Unhurt, |r| r.result)
    }

    /// The constraints of the text on T17, T18, T20.
    pub fn check(&self, file: &str, p: &mut Vec<String>) {
        let isr: Vec<Range> = self.initiative_special.iter().map(|r| r.die).collect();
        if let Err(e) = covers(&isr, 9).or_else(|e| {
            // 0 has no row: only the other player's non-zero die is read (6.9a).
            if e == "no row for 0" {
                check_from(&isr, 1, 9)
            } else {
                Err(e)
            }
        }) {
            p.push(format!(
                "{file}: initiative_special: rows must cover dice 1–9 once each (6.9a): {e}"
            ));
        }
        let ll: Vec<Range> = self.leader_loss.iter().map(|r| r.die).collect();
        if let Err(e) = covers(&ll, 9) {
            p.push(format!(
                "{file}: leader_loss: rows must cover d10 0–9 once each (21.4c): {e}"
            ));
        }
        if !self
            .leader_loss
            .iter()
            .any(|r| r.result == LeaderLossResult::Killed)
        {
            p.push(format!(
                "{file}: leader_loss: some result must kill (21.4b)"
            ));
        }
        if !self
            .leader_loss
            .iter()
            .any(|r| r.result == LeaderLossResult::Wounded)
        {
            p.push(format!(
                "{file}: leader_loss: some result must wound (21.4c)"
            ));
        }
        if self.loss_levels.is_empty() {
            p.push(format!(
                "{file}: loss_levels: no Current Loss Level table (23.1b: one per army)"
            ));
        }
        for (k, t) in &self.loss_levels {
            let f = format!("{file}: loss_levels.{k}");
            if t.columns.is_empty() {
                p.push(format!("{f}.columns: at least one column (23.1b)"));
            }
            if t.columns.windows(2).any(|w| w[0] >= w[1]) {
                p.push(format!(
                    "{f}.columns: must ascend (23.1b: each column a higher minimum CLT)"
                ));
            }
            if !t.row.iter().any(|r| r.result == 0) {
                p.push(format!("{f}.row: needs an 'O' (no change) row (23.2a)"));
            }
            for c in 0..t.columns.len() {
                let col: Vec<Range> = t
                    .row
                    .iter()
                    .filter_map(|r| r.dice.get(c).copied())
                    .filter(|d| d[0] <= 9)
                    .collect();
                if let Err(e) = covers(&col, 9) {
                    p.push(format!(
                        "{f}.row: column {} ({}+) must read every d10 0–9 once: {e}",
                        c + 1,
                        t.columns[c]
                    ));
                }
                // 23.2b: spending CR lowers the die, so a higher die must never give less.
                let mut last = 0;
                for d in 0..=9 {
                    let r = t.result(c, d);
                    if r < last {
                        p.push(format!("{f}.row: column {} gives less on {d} than below it (23.2b: lowering the die must help)", c + 1));
                        break;
                    }
                    last = r;
                }
            }
            // 23.2c: "at +100 his Morale modifier will increase by 10 on a roll of '9', by 5 on a
            // roll of '6' to '8' and is unchanged on a '5' or less".
            match t.columns.iter().position(|&c| c == 100) {
                None => p.push(format!(
                    "{f}.columns: no 100+ column (BAR 23.1e, 23.2c example)"
                )),
                Some(c) => {
                    let got: Vec<u8> = (0..=9).map(|d| t.result(c, d)).collect();
                    let want = [0, 0, 0, 0, 0, 0, 5, 5, 5, 10];
                    if got != want {
                        p.push(format!(
                            "{f}.row: the 100+ column reads {got:?} for dice 0–9 but BAR 23.2c prints 9 → +10, 6–8 → +5, 5 or less → 0"
                        ));
                    }
                }
            }
            if t.prov.source.is_none() && t.prov.reconstructed.is_none() {
                p.push(format!("{f}: needs `source` or `reconstructed`"));
            }
        }
        for (i, r) in self.initiative_special.iter().enumerate() {
            if r.prov.source.is_none() && r.prov.reconstructed.is_none() {
                p.push(format!(
                    "{file}: initiative_special[{i}]: needs `source` or `reconstructed`"
                ));
            }
        }
    }

    /// Count provenance.
    pub fn provenance(&self, add: &mut impl FnMut(&Provenance)) {
        self.initiative_special.iter().for_each(|r| add(&r.prov));
        self.leader_loss.iter().for_each(|r| add(&r.prov));
        self.loss_levels.values().for_each(|t| add(&t.prov));
    }
}

fn check_from(ranges: &[Range], lo: u8, hi: u8) -> Result<(), String> {
    for v in lo..=hi {
        let n = ranges.iter().filter(|r| in_range(**r, v)).count();
        if n != 1 {
            return Err(format!("{n} rows for {v}"));
        }
    }
    Ok(())
}
