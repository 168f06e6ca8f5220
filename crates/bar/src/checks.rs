//! Disorder checks (18.1) and morale checks (19.1): the case letter indexes the chart (1.1c), the
//! modifiers act on the ER, a percentile roll *below* the modified ER fails, and a natural 00–09
//! reads the special results (except where the case says not), whose second roll is never special
//! and uses only the printed ER and the special result's own modifier (A50).
use crate::charts::SpecialOutcome;
use crate::charts::checks::CheckTable;
use crate::data::Arm;
use crate::event::{CheckEvent, Modifier, Pct};
use crate::geom::arcs_of;
use crate::scenario::{Scenario, UnitIx};
use crate::state::State;

/// A d10, faces 0–9 (1.5a: "a '0' is always treated as a zero"): the next loaded face of a rule
/// test if any (`State::loaded`), else the game's seeded dice.
pub fn d10(st: &mut State) -> u8 {
    if st.loaded.is_empty() {
        st.dice.d10()
    } else {
        st.loaded.remove(0)
    }
}

/// A percentile roll: the tens die, then the units die (1.5a).
pub fn percentile(st: &mut State) -> Pct {
    let tens = d10(st);
    let units = d10(st);
    Pct { tens, units }
}

/// Disorder check (18.1) or morale check (19.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Disorder check, cases A–G.
    Disorder,
    /// Morale check, cases A–J.
    Morale,
}

/// What a check gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Passed.
    pub passed: bool,
    /// SP a special result takes.
    pub lose_sp: u8,
    /// A special result calls for a leader loss check (21.4a).
    pub leader_check: bool,
    /// The natural roll.
    pub roll: Pct,
    /// The event, its `result` still to be written by the caller.
    pub event: CheckEvent,
}

/// The unit whose ER a stack uses: the top non-artillery unit, or the top artillery unit of an
/// artillery-only stack (18.7a, 19.4a).
pub fn tester(sc: &Scenario, st: &State, stack: &[UnitIx]) -> UnitIx {
    let mut v: Vec<UnitIx> = stack.to_vec();
    v.sort_by_key(|&u| st.units[usize::from(u)].order);
    v.iter()
        .copied()
        .find(|&u| sc.units[usize::from(u)].arm != Arm::Artillery)
        .or_else(|| v.first().copied())
        .unwrap_or(0)
}

/// Current SP of a unit.
pub fn current_sp(sc: &Scenario, st: &State, u: UnitIx) -> u8 {
    sc.units[usize::from(u)]
        .sp
        .saturating_sub(st.units[usize::from(u)].lost)
}

/// The best (lowest) ER bonus of a leader stacked with the unit, and his name (21.3: the owner
/// picks one; a worse one never helps, so the best is used).
pub fn leader_bonus(sc: &Scenario, st: &State, u: UnitIx) -> Option<(i8, String)> {
    let hexes = &st.units[usize::from(u)].hexes;
    let side = sc.units[usize::from(u)].side;
    sc.leaders
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            l.side == side
                && st.leaders[*i].status == crate::state::LeaderStatus::Present
                && st.leaders[*i].hex.is_some_and(|h| hexes.contains(&h))
        })
        .map(|(_, l)| (l.er_bonus, l.name.clone()))
        .min_by_key(|(b, _)| *b)
}

/// Whether a non-routed enemy unit is in a flank or rear hex of the unit (19.8e); squares have
/// none (A53).
pub fn flanked(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    let s = &st.units[usize::from(u)];
    if s.formation == crate::geom::Formation::Square {
        return false;
    }
    let (_, flank, rear) = arcs_of(&s.hexes, s.facing, s.formation);
    let side = sc.units[usize::from(u)].side;
    flank
        .iter()
        .chain(rear.iter())
        .any(|h| enemy_in(sc, st, side, *h, false))
}

/// Whether a non-routed unit of the side's enemy is in the hex.
pub fn enemy_in(sc: &Scenario, st: &State, side: u8, h: hexmap::HexId, routed_too: bool) -> bool {
    st.units.iter().enumerate().any(|(i, x)| {
        sc.units[i].side != side
            && !x.eliminated
            && (routed_too || !x.routed)
            && x.hexes.contains(&h)
    })
}

/// Whether a line or hook is supported on both flanks (19.8f).
pub fn supported(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    let s = &st.units[usize::from(u)];
    if !s.formation.is_line() {
        return false;
    }
    let side = sc.units[usize::from(u)].side;
    let (_, flank, _) = arcs_of(&s.hexes, s.facing, s.formation);
    !flank.is_empty()
        && flank.iter().all(|h| {
            let terrain_ok = sc.board.tec_row(*h).is_some_and(|t| t.non_clear);
            terrain_ok
                || st.units.iter().enumerate().any(|(i, x)| {
                    sc.units[i].side == side
                        && !x.eliminated
                        && !x.routed
                        && !x.shaken
                        && x.hexes.contains(h)
                })
        })
}

/// Whether the unit is in an enemy ZOC (9.1: the front hexes of non-routed enemy units).
pub fn in_ezoc(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    let hexes = &st.units[usize::from(u)].hexes;
    hexes
        .iter()
        .any(|h| crate::command::ezoc(sc, st, sc.units[usize::from(u)].side, *h))
}

/// Which check, and why.
#[derive(Clone, Copy, Debug)]
pub struct Spec<'a> {
    /// Disorder or morale check.
    pub kind: Kind,
    /// Case letter (1.1c).
    pub case: char,
    /// What calls for it ("Rally").
    pub what: &'a str,
    /// The rule that calls for it.
    pub rule: &'a str,
    /// Named conditions the caller knows to hold (fire losses, actions of a move…).
    pub extra: &'a [&'a str],
}

impl<'a> Spec<'a> {
    /// A disorder check.
    pub fn dc(case: char, what: &'a str, rule: &'a str) -> Self {
        Spec {
            kind: Kind::Disorder,
            case,
            what,
            rule,
            extra: &[],
        }
    }
    /// A morale check.
    pub fn mc(case: char, what: &'a str, rule: &'a str) -> Self {
        Spec {
            kind: Kind::Morale,
            case,
            what,
            rule,
            extra: &[],
        }
    }
    /// With conditions the caller knows.
    pub fn with(self, extra: &'a [&'a str]) -> Self {
        Spec { extra, ..self }
    }
}

/// Roll a check for a stack: the tester's ER (18.7a, 19.4a) with the case's modifiers that hold,
/// plus the conditions of `spec.extra`.
pub fn roll(sc: &Scenario, st: &mut State, stack: &[UnitIx], spec: Spec<'_>) -> Outcome {
    let Spec {
        kind,
        case,
        what,
        rule,
        extra,
    } = spec;
    let u = tester(sc, st, stack);
    let table: &CheckTable = match kind {
        Kind::Disorder => &sc.charts.checks.disorder,
        Kind::Morale => &sc.charts.checks.morale,
    };
    let row = table.case.get(&case.to_string());
    let special_allowed = row.is_some_and(|r| r.special);
    let unit = &sc.units[usize::from(u)];
    let us = &st.units[usize::from(u)];
    let mut mods: Vec<Modifier> = Vec::new();
    let mut add = |label: String, value: i32, rule: &str| {
        if value != 0 {
            mods.push(Modifier {
                label,
                value,
                rule: rule.to_string(),
            });
        }
    };
    let rule_of = |k: &str| {
        table
            .modifier
            .get(k)
            .map(|m| m.rule.clone())
            .unwrap_or_default()
    };
    let applies: Vec<String> = row.map(|r| r.applies.clone()).unwrap_or_default();
    for key in &applies {
        let k = key.as_str();
        let holds = match k {
            "disordered" if kind == Kind::Disorder => us.disordered,
            "shaken" => us.shaken && !us.disordered,
            "disordered" => us.disordered && !us.shaken,
            "shaken_disordered" => us.shaken && us.disordered,
            "half_strength" => u16::from(current_sp(sc, st, u)) * 2 <= u16::from(unit.sp),
            "column" | "square" | "attack_column" => us.formation.morale_key() == Some(k),
            "flanked" => flanked(sc, st, u),
            "supported" => supported(sc, st, u),
            "routed" => us.routed,
            "rally_ezoc" => in_ezoc(sc, st, u),
            "leader" => {
                if let Some((b, name)) = leader_bonus(sc, st, u) {
                    add(format!("leader {name}"), i32::from(b), "21.3");
                }
                false
            }
            "army" => {
                let m = st.armies[usize::from(unit.side)].morale;
                add("army morale".into(), i32::from(m), "19.8g");
                false
            }
            "terrain" => {
                let worst = us
                    .hexes
                    .iter()
                    .filter_map(|h| sc.board.hexes.get(h))
                    .filter_map(|i| sc.charts.tec.terrain.get(&i.terrain))
                    .map(|t| i32::from(t.morale_er))
                    .max()
                    .unwrap_or(0);
                add("terrain".into(), worst, "19.8h");
                false
            }
            other => {
                // A condition the caller names once per occurrence (11.2e: +5 for each
                // triggering hex or hexside).
                let n = extra.iter().filter(|&&x| x == other).count() as i32;
                if n > 1 {
                    add(
                        format!("{} ×{n}", k.replace('_', " ")),
                        i32::from(table.value(k)) * n,
                        &rule_of(k),
                    );
                    false
                } else {
                    n == 1
                }
            }
        };
        if holds {
            add(k.replace('_', " "), i32::from(table.value(k)), &rule_of(k));
        }
    }
    let er = i32::from(unit.er);
    let total = er + mods.iter().map(|m| m.value).sum::<i32>();
    let roll = percentile(st);
    let mut event = CheckEvent {
        kind: match kind {
            Kind::Disorder => "disorder check",
            Kind::Morale => "morale check",
        },
        case,
        what: what.to_string(),
        rule: rule.to_string(),
        unit: unit.name.clone(),
        with: stack
            .iter()
            .filter(|&&x| x != u)
            .map(|&x| sc.units[usize::from(x)].name.clone())
            .collect(),
        er,
        mods,
        total,
        roll,
        special: None,
        second: None,
        passed: false,
        result: String::new(),
    };
    let mut out = Outcome {
        passed: i32::from(roll.value()) >= total,
        lose_sp: 0,
        leader_check: false,
        roll,
        event: event.clone(),
    };
    if special_allowed
        && roll.tens == 0
        && let Some(s) = table.special_for(roll.units)
    {
        {
            event.special = Some(s.text.clone());
            out.lose_sp = s.lose_sp;
            out.leader_check = s.leader_check;
            match s.outcome {
                Some(SpecialOutcome::Pass) => out.passed = true,
                Some(SpecialOutcome::Fail) | None => out.passed = false,
                Some(SpecialOutcome::Reroll) => {
                    let second = percentile(st);
                    let er2 = er + i32::from(s.modifier);
                    event.second = Some((second, er2));
                    out.passed = i32::from(second.value()) >= er2;
                }
            }
        }
    }
    event.passed = out.passed;
    out.event = event;
    out
}
