//! Resolution of a close combat (13.11, 14.1–14.8) and the advance after combat (15.1–15.2).
use super::steps::{cur, cur_mut};
use super::{
    Cc, Combat, Step, alive, flank_of, flank_rear_of, front_of, is_light, living, log, name, names,
    sp,
};
use crate::charts::{CcCell, CcSide};
use crate::checks::{self, Spec, d10};
use crate::data::Arm;
use crate::event::Event;
use crate::geom::Formation;
use crate::scenario::{Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::{Job, LeaderStatus, State};
use hexmap::HexId;

/// Round half away from zero of `n / d` (1.5b "rounded", read symmetrically for negative CVs).
pub(crate) fn round_div(n: i32, d: i32) -> i32 {
    if d == 0 {
        return n;
    }
    let s = if (n < 0) != (d < 0) { -1 } else { 1 };
    let (n, d) = (n.abs(), d.abs());
    s * ((2 * n + d) / (2 * d))
}

/// The SPs in each hex of a stack (8.1a: as equal as possible, the extra ones from the right).
fn per_hex(total: u32, len: usize) -> Vec<u32> {
    let n = len.max(1) as u32;
    (0..n)
        .map(|i| total / n + u32::from(i < total % n))
        .collect()
}

/// The SP a stack commits (13.11a) against the opposing stacks: a defender's artillery stacked
/// with infantry does not count, artillery alone counts 1 a unit; each hex adjacent to an
/// opponent counts fully, one adjacent only to an opponent's flank hex half (rounded), others
/// not; halved (rounded) if disordered. The text, for the log.
pub(crate) fn stack_sp(
    sc: &Scenario,
    st: &State,
    stack: &[UnitIx],
    opponents: &[UnitIx],
) -> (u32, String) {
    let live = living(st, stack);
    let Some(&top) = live.first() else {
        return (0, String::new());
    };
    let troops: Vec<UnitIx> = live
        .iter()
        .copied()
        .filter(|&u| sc.units[usize::from(u)].arm != Arm::Artillery)
        .collect();
    if troops.is_empty() {
        let n = live.len() as u32;
        return (n, format!("{n} (artillery alone, 1 a unit)"));
    }
    let total: u32 = troops.iter().map(|&u| u32::from(sp(sc, st, u))).sum();
    let hexes = st.units[usize::from(top)].hexes;
    let opp_hexes: Vec<HexId> = opponents
        .iter()
        .flat_map(|&o| st.units[usize::from(o)].hexes)
        .collect();
    let opp_flanks: Vec<HexId> = opponents.iter().flat_map(|&o| flank_of(st, o)).collect();
    let mut sum = 0u32;
    let mut parts = Vec::new();
    let mut notes = Vec::new();
    let layout = per_hex(total, hexes.len());
    for (i, (h, &n)) in hexes.iter().zip(&layout).enumerate() {
        if opp_hexes.iter().any(|o| o.is_adjacent(*h)) {
            sum += n;
            parts.push(n.to_string());
        } else if opp_flanks.iter().any(|f| f.is_adjacent(*h) || f == h) {
            let half = n.div_ceil(2);
            sum += half;
            parts.push(half.to_string());
            notes.push(format!("hex {}: {n} halved, beside a flank hex", i + 1));
        } else {
            parts.push("0".into());
            notes.push(format!("hex {}: {n} not adjacent", i + 1));
        }
    }
    let mut text = if hexes.len() > 1 {
        format!("{} = {sum} ({})", parts.join(" + "), notes.join("; "))
    } else {
        sum.to_string()
    };
    if troops.iter().any(|&u| st.units[usize::from(u)].disordered) {
        let h = sum.div_ceil(2);
        text += &format!(", disordered ÷ 2 = {h}");
        sum = h;
    }
    (sum, text)
}

/// A modifier as applied, for the log.
struct Mod {
    label: String,
    value: i32,
}

/// Whether any unit is cavalry.
fn has_cav(sc: &Scenario, us: &[UnitIx]) -> bool {
    us.iter()
        .any(|&u| sc.units[usize::from(u)].arm == Arm::Cavalry)
}

/// A unit's CV, halved (rounded) if it has lost half its SP or more (13.11c).
fn unit_cv(sc: &Scenario, st: &State, u: UnitIx) -> (i32, bool) {
    let unit = &sc.units[usize::from(u)];
    let cv = i32::from(unit.cv);
    if u16::from(st.units[usize::from(u)].lost) * 2 >= u16::from(unit.sp) {
        (round_div(cv, 2), true)
    } else {
        (cv, false)
    }
}

/// The terrain CV of a hex (T1 columns `cv_attacker`, `cv_defender`).
fn terrain_cv(sc: &Scenario, h: HexId, attacker: bool) -> i32 {
    sc.board.tec_row(h).map_or(0, |t| {
        i32::from(if attacker {
            t.cv_attacker
        } else {
            t.cv_defender
        })
    })
}

/// A stack's CV (13.11b) with every modifier of 13.11c that holds, and the text.
#[allow(clippy::too_many_arguments)]
pub(crate) fn stack_cv(
    sc: &Scenario,
    st: &State,
    c: &Combat,
    att: bool,
    ix: usize,
    opponents: &[Vec<UnitIx>],
    round: u8,
) -> (i32, String) {
    let stack = living(
        st,
        if att {
            &c.attackers[ix]
        } else {
            &c.defenders[ix]
        },
    );
    let Some(&top) = stack.first() else {
        return (0, String::new());
    };
    let side = sc.units[usize::from(top)].side;
    let troops: Vec<UnitIx> = stack
        .iter()
        .copied()
        .filter(|&u| sc.units[usize::from(u)].arm != Arm::Artillery)
        .collect();
    let opp: Vec<UnitIx> = opponents.iter().flatten().copied().collect();
    let me = &st.units[usize::from(top)];
    let form = me.formation;
    let hexes = me.hexes;
    let mut mods: Vec<Mod> = Vec::new();
    let mut add = |label: &str, value: i32| {
        if value != 0 {
            mods.push(Mod {
                label: label.to_string(),
                value,
            });
        }
    };
    // 13.11b.
    let (base, base_text) = if troops.is_empty() {
        (0, "artillery alone 0".to_string())
    } else if form.is_line() {
        let need = 4 * hexes.len() as u32;
        let mut got = 0u32;
        let mut used = Vec::new();
        for &u in &troops {
            if got >= need {
                break;
            }
            got += u32::from(sp(sc, st, u));
            used.push(u);
        }
        let cvs: Vec<(i32, bool)> = used.iter().map(|&u| unit_cv(sc, st, u)).collect();
        let sum: i32 = cvs.iter().map(|c| c.0).sum();
        let avg = round_div(sum, cvs.len() as i32);
        let halved = cvs.iter().any(|c| c.1);
        (
            avg,
            if used.len() > 1 {
                format!(
                    "mean of {} (first {need} SP) = {avg}{}",
                    used.iter()
                        .zip(&cvs)
                        .map(|(&u, c)| format!("{} {:+}", name(sc, u), c.0))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if halved { ", halved for losses" } else { "" }
                )
            } else {
                format!(
                    "{} {:+}{}",
                    name(sc, used[0]),
                    avg,
                    if halved {
                        " (halved, ≥50% SP lost)"
                    } else {
                        ""
                    }
                )
            },
        )
    } else {
        let (cv, halved) = unit_cv(sc, st, troops[0]);
        (
            cv,
            format!(
                "{} {cv:+}{}",
                name(sc, troops[0]),
                if halved {
                    " (halved, ≥50% SP lost)"
                } else {
                    ""
                }
            ),
        )
    };
    // Shaken.
    if stack.iter().any(|&u| st.units[usize::from(u)].shaken) {
        add("shaken (19.6c)", -5);
    }
    // Formations.
    let opp_cav = has_cav(sc, &opp);
    let non_clear = hexes
        .iter()
        .any(|h| sc.board.tec_row(*h).is_some_and(|t| t.non_clear));
    match form {
        Formation::Line | Formation::HookLeft | Formation::HookRight
            if !att
                && round >= 2
                && opp_cav
                && troops
                    .iter()
                    .any(|&u| sc.units[usize::from(u)].arm == Arm::Infantry) =>
        {
            add("infantry line against cavalry, later round", 2)
        }
        Formation::Square if opp_cav => add("square against cavalry", 5),
        Formation::Square => add("square against infantry", -5),
        Formation::Skirmish if !att => match (non_clear, opp_cav) {
            (false, false) => add("skirmishers in clear against infantry", -4),
            (true, false) => add("skirmishers in non-clear against infantry", -2),
            (false, true) => add("skirmishers in clear against cavalry", -6),
            (true, true) => add("skirmishers in non-clear against cavalry", -2),
        },
        Formation::MarchColumn | Formation::RoadColumn | Formation::Limbered if !att => {
            add("defender in column or limbered", -4)
        }
        _ => {}
    }
    if round <= 1 {
        // Cavalry (first round only): an opponent in its ZOC.
        let cav: Vec<UnitIx> = troops
            .iter()
            .copied()
            .filter(|&u| sc.units[usize::from(u)].arm == Arm::Cavalry)
            .collect();
        let front = front_of(st, top);
        let in_zoc = opp.iter().any(|&o| {
            st.units[usize::from(o)]
                .hexes
                .iter()
                .any(|h| front.contains(h))
        });
        if !cav.is_empty() && in_zoc {
            let light: u32 = cav
                .iter()
                .filter(|&&u| is_light(sc, u))
                .map(|&u| u32::from(sp(sc, st, u)))
                .sum();
            let heavy: u32 = cav
                .iter()
                .filter(|&&u| !is_light(sc, u))
                .map(|&u| u32::from(sp(sc, st, u)))
                .sum();
            if light > heavy {
                add("light cavalry", 1);
            } else {
                add("heavy or medium cavalry", 2);
            }
            // 13.3a: from adjacency, a charge of 0 hexes: +0.
            // charges (13.3–13.5, 13.8): +1 a hex of charge or countercharge movement.
            let n = super::charge::hexes_moved(&c.charge_hexes, &stack);
            if n > 0 {
                add(
                    &format!("charge of {n} hex{}", if n == 1 { "" } else { "es" }),
                    i32::from(n),
                );
            }
        }
        // Flanking (A40): it occupies a flank or rear hex of an opponent, or an attack column
        // stands in the front hex of this line.
        let flanks = opp.iter().any(|&o| {
            let fr = flank_rear_of(st, o);
            hexes.iter().any(|h| fr.contains(h))
        });
        let column_in_front = form.is_line()
            && opp.iter().any(|&o| {
                st.units[usize::from(o)].formation == Formation::AttackColumn
                    && st.units[usize::from(o)]
                        .hexes
                        .iter()
                        .any(|h| front.contains(h))
            });
        if flanks || column_in_front {
            add(
                if flanks {
                    "flank attack"
                } else {
                    "attack column in its front: flanked"
                },
                3,
            );
        }
        // An enemy outside this combat in its flank or rear, facing it.
        let in_combat: Vec<UnitIx> = c
            .attackers
            .iter()
            .chain(c.defenders.iter())
            .flatten()
            .copied()
            .collect();
        let my_fr = flank_rear_of(st, top);
        let outsider = (0..sc.units.len() as UnitIx).any(|e| {
            sc.units[usize::from(e)].side != side
                && alive(st, e)
                && !in_combat.contains(&e)
                && st.units[usize::from(e)]
                    .hexes
                    .iter()
                    .any(|h| my_fr.contains(h))
                && front_of(st, e).iter().any(|h| hexes.contains(h))
        });
        if outsider {
            add("enemy outside the combat in its flank", -3);
        }
    }
    // Terrain: the attacker's hex, the defender's hex and the hexside between, the best for the
    // defender among its hexes facing the attackers.
    let opp_hexes: Vec<HexId> = opp
        .iter()
        .flat_map(|&o| st.units[usize::from(o)].hexes)
        .collect();
    if att {
        let t = hexes
            .iter()
            .filter(|h| opp_hexes.iter().any(|o| o.is_adjacent(**h)))
            .map(|&h| terrain_cv(sc, h, true))
            .max()
            .unwrap_or(0);
        add("terrain of the attacker's hex", t);
    } else {
        let t = hexes
            .iter()
            .filter(|h| opp_hexes.iter().any(|o| o.is_adjacent(**h)))
            .map(|&h| {
                let side_cv = opp_hexes
                    .iter()
                    .filter(|o| o.is_adjacent(h))
                    .filter_map(|o| sc.board.hexside(h, *o))
                    .filter_map(|k| sc.charts.tec.hexside.get(k))
                    .map(|r| i32::from(r.cv_defender))
                    .max()
                    .unwrap_or(0);
                terrain_cv(sc, h, false) + side_cv
            })
            .max()
            .unwrap_or(0);
        add("terrain of the defender's hex and hexside", t);
    }
    // Leader (21.2b).
    if let Some(&(_, _, l)) = c.leaders.iter().find(|x| x.0 == att && x.1 == ix)
        && st.leaders[usize::from(l)].status == LeaderStatus::Present
    {
        let b = i32::from(sc.leaders[usize::from(l)].cv_bonus);
        add(&format!("leader {}", sc.leaders[usize::from(l)].name), b);
    }
    let total = base + mods.iter().map(|m| m.value).sum::<i32>();
    let mut text = base_text;
    for m in &mods {
        text += &format!(
            " {} {} ({})",
            if m.value < 0 { '−' } else { '+' },
            m.value.abs(),
            m.label
        );
    }
    if !mods.is_empty() {
        text += &format!(" = {total:+}");
    }
    (total, text)
}

/// A round (13.11): SP ratio, CVs, the two d10, the result (T13) or a special result (T14).
pub(super) fn round(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    let Some(charts) = sc.charts.combat.as_ref() else {
        cc.steps.insert(0, Step::EndCombat);
        return;
    };
    cur_mut(cc).round += 1;
    cur_mut(cc).tested.clear();
    // pursuit (16) / opportunity charge (17): 14.5b, the cavalry line contracts before a later round.
    if cur(cc).round >= 2 {
        contract_cavalry_lines(sc, st, cc, ev);
    }
    let c = cur(cc).clone();
    let att: Vec<Vec<UnitIx>> = c.attackers.iter().map(|s| living(st, s)).collect();
    let def: Vec<Vec<UnitIx>> = c.defenders.iter().map(|s| living(st, s)).collect();
    let a_all: Vec<UnitIx> = att.iter().flatten().copied().collect();
    let d_all: Vec<UnitIx> = def.iter().flatten().copied().collect();
    if a_all.is_empty() || d_all.is_empty() {
        cc.steps.insert(0, Step::EndCombat);
        return;
    }
    let mut a_sp = 0u32;
    let mut d_sp = 0u32;
    let mut a_txt = Vec::new();
    let mut d_txt = Vec::new();
    for s in att.iter().filter(|s| !s.is_empty()) {
        let (n, t) = stack_sp(sc, st, s, &d_all);
        a_sp += n;
        a_txt.push(format!("{} {t}", names(sc, s)));
    }
    for s in def.iter().filter(|s| !s.is_empty()) {
        let (n, t) = stack_sp(sc, st, s, &a_all);
        d_sp += n;
        d_txt.push(format!("{} {t}", names(sc, s)));
    }
    let (col, a_bonus, d_bonus) = charts.crt.column_for(a_sp, d_sp.max(1));
    let column = charts.crt.columns.get(col).cloned().unwrap_or_default();
    log(
        ev,
        "13.11a",
        format!(
            "round {}: SP attacker {} = {a_sp}; defender {} = {d_sp}; ratio column {column}{}{}",
            c.round,
            a_txt.join(" + "),
            d_txt.join(" + "),
            if a_bonus > 0 {
                format!(", attacker +{a_bonus} to the die (beyond 6:1)")
            } else {
                String::new()
            },
            if d_bonus > 0 {
                format!(", defender +{d_bonus} to the die (beyond 1:3)")
            } else {
                String::new()
            }
        ),
    );
    let round_no = c.round;
    let cvs = |side_att: bool, stacks: &[Vec<UnitIx>], opp: &[Vec<UnitIx>]| {
        let mut sum = 0;
        let mut n = 0;
        let mut texts = Vec::new();
        for (ix, s) in stacks.iter().enumerate() {
            if s.is_empty() {
                continue;
            }
            let (v, t) = stack_cv(sc, st, &c, side_att, ix, opp, round_no);
            sum += v;
            n += 1;
            texts.push(t);
        }
        let avg = round_div(sum, n.max(1));
        (avg, texts, n)
    };
    let (a_cv, a_t, an) = cvs(true, &att, &def);
    let (d_cv, d_t, dn) = cvs(false, &def, &att);
    let show = |t: &[String], n: i32, v: i32| {
        if n > 1 {
            format!("mean of [{}] = {v:+} (A39)", t.join("; "))
        } else {
            t.join("")
        }
    };
    log(
        ev,
        "13.11b–c",
        format!(
            "CV attacker {}; defender {}",
            show(&a_t, an, a_cv),
            show(&d_t, dn, d_cv)
        ),
    );
    let ad = d10(st);
    let dd = d10(st);
    let a_tot = i32::from(ad) + a_cv + i32::from(a_bonus);
    let d_tot = i32::from(dd) + d_cv + i32::from(d_bonus);
    if ad == 0 || dd == 0 {
        let cell = charts.special_for(ad, dd).unwrap_or_default();
        log(
            ev,
            "14.8a",
            format!(
                "dice: attacker d10 {ad}, defender d10 {dd}: a natural 0 — special result '{}' (T14)",
                cell.show()
            ),
        );
        cc.steps.insert(
            0,
            Step::Effects {
                cell: cell.show(),
                special: true,
            },
        );
        cc.steps
            .insert(0, losses_step(cell, "close combat special result, 14.8b"));
        return;
    }
    let diff = a_tot - d_tot;
    let cell = charts
        .crt
        .cell(col, i16::try_from(diff).unwrap_or(0))
        .unwrap_or_default();
    log(
        ev,
        "14.1",
        format!(
            "dice: attacker d10 {ad} {:+} (CV){} = {a_tot}, defender d10 {dd} {:+} (CV){} = {d_tot}; difference {diff:+} in column {column} → '{}' (T13)",
            a_cv,
            if a_bonus > 0 {
                format!(" + {a_bonus}")
            } else {
                String::new()
            },
            d_cv,
            if d_bonus > 0 {
                format!(" + {d_bonus}")
            } else {
                String::new()
            },
            cell.show()
        ),
    );
    cc.steps.insert(
        0,
        Step::Effects {
            cell: cell.show(),
            special: false,
        },
    );
    cc.steps.insert(0, losses_step(cell, "close combat result"));
}

fn losses_step(cell: CcCell, why: &str) -> Step {
    Step::Losses {
        a: cell.attacker.sp,
        d: cell.defender.sp,
        next_att: true,
        only: Vec::new(),
        why: why.into(),
    }
}

/// The side that takes the next SP of the head `Losses` step, and the units among which its
/// owner chooses (14.2b: the largest non-artillery units; the defender's artillery last, 14.2c).
pub(super) fn loss_choice(sc: &Scenario, st: &State, cc: &Cc) -> Vec<UnitIx> {
    let Some(Step::Losses {
        a,
        d,
        next_att,
        only,
        ..
    }) = cc.steps.first()
    else {
        return Vec::new();
    };
    let Some(i) = cc.cur else {
        return Vec::new();
    };
    let c = &cc.combats[i];
    let att = if *a > 0 && *d > 0 { *next_att } else { *a > 0 };
    if *a == 0 && *d == 0 {
        return Vec::new();
    }
    candidates(sc, st, c, att, only)
}

fn candidates(sc: &Scenario, st: &State, c: &Combat, att: bool, only: &[UnitIx]) -> Vec<UnitIx> {
    let pool: Vec<UnitIx> = if only.is_empty() {
        let stacks = if att { &c.attackers } else { &c.defenders };
        stacks.iter().flat_map(|s| living(st, s)).collect()
    } else {
        living(st, only)
    };
    let troops: Vec<UnitIx> = pool
        .iter()
        .copied()
        .filter(|&u| sc.units[usize::from(u)].arm != Arm::Artillery)
        .collect();
    // 14.2c: the attacker's losses never fall on artillery (nor inactive units, who are not
    // participants); the defender's on artillery once no other unit is left.
    let pool = if troops.is_empty() && !att {
        pool
    } else {
        troops
    };
    let max = pool.iter().map(|&u| sp(sc, st, u)).max().unwrap_or(0);
    pool.into_iter().filter(|&u| sp(sc, st, u) == max).collect()
}

/// Whether a side of the combat has a unit left.
fn side_alive(st: &State, c: &Combat, att: bool) -> bool {
    let stacks = if att { &c.attackers } else { &c.defenders };
    stacks.iter().any(|s| !living(st, s).is_empty())
}

/// 14.2a–c: take the SP losses one at a time, alternately from the attacker; when a side is
/// wiped out the other ignores the rest of its losses and results.
pub(super) fn losses(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    step: Step,
    choice: Option<UnitIx>,
    ev: &mut Vec<Event>,
) {
    let Step::Losses {
        mut a,
        mut d,
        next_att,
        only,
        why,
    } = step
    else {
        return;
    };
    let c = cur(cc).clone();
    if a == 0 && d == 0 {
        return;
    }
    let att = if a > 0 && d > 0 { next_att } else { a > 0 };
    let cands = candidates(sc, st, &c, att, &only);
    let u = match choice {
        Some(u) if cands.contains(&u) => Some(u),
        _ => cands.first().copied(),
    };
    if let Some(u) = u {
        let hexes = st.units[usize::from(u)].hexes;
        let side = sc.units[usize::from(u)].side;
        crate::retreat::lose(sc, st, u, 1, &why, "14.2", ev);
        if !st.on_map(u) {
            super::leaders_left_alone(sc, st, &hexes, side, ev);
        }
    }
    if att {
        a -= 1;
    } else {
        d -= 1;
    }
    let wiped = !side_alive(st, &c, att);
    if wiped && only.is_empty() {
        log(
            ev,
            "14.2a",
            format!(
                "the {} eliminated: the other side ignores its remaining losses and results",
                if att {
                    "attackers are"
                } else {
                    "defenders are"
                }
            ),
        );
        if att {
            // 14.2c: artillery and inactive units in the attackers' hexes test MC (E).
            morale_e(sc, st, &c, ev);
        }
        return;
    }
    if wiped {
        a = 0;
        d = 0;
    }
    if a > 0 || d > 0 {
        cc.steps.insert(
            0,
            Step::Losses {
                a,
                d,
                next_att: !att,
                only,
                why,
            },
        );
    }
}

/// 14.2c, 14.6a: the artillery and inactive units in the hexes of attackers eliminated or routed
/// make a morale check (E).
fn morale_e(sc: &Scenario, st: &mut State, c: &Combat, ev: &mut Vec<Event>) {
    let side = c
        .attackers
        .iter()
        .flatten()
        .next()
        .map_or(0, |&u| sc.units[usize::from(u)].side);
    for (ix, hexes) in c.att_hexes.iter().enumerate() {
        let rest: Vec<UnitIx> = super::units_in(sc, st, side, hexes)
            .into_iter()
            .filter(|u| !c.attackers[ix].contains(u) && !st.units[usize::from(*u)].routed)
            .collect();
        if rest.is_empty() {
            continue;
        }
        let shaken = rest.iter().any(|&u| st.units[usize::from(u)].shaken);
        let mut o = checks::roll(
            sc,
            st,
            &rest,
            Spec::mc(
                'E',
                "Stacked with attackers eliminated or routed",
                "14.2c, 14.6a",
            ),
        );
        o.event.result = if o.passed {
            "holds".into()
        } else if shaken {
            "already shaken: routs (19.1c)".into()
        } else {
            "shaken (19.1c)".into()
        };
        ev.push(Event::Check(o.event.clone()));
        super::special_effects(sc, st, &rest, &o, ev);
        let rest: Vec<UnitIx> = rest.into_iter().filter(|&u| st.on_map(u)).collect();
        if o.passed || rest.is_empty() {
            continue;
        }
        if shaken {
            let from: Vec<HexId> = c.def_hexes.iter().flatten().copied().collect();
            st.jobs.push(Job::Rout { units: rest, from });
        } else {
            for &u in &rest {
                st.units[usize::from(u)].shaken = true;
            }
        }
    }
}

/// The letters of a result (14.3–14.8), once its losses are taken.
pub(super) fn effects(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    cell: CcCell,
    special: bool,
    ev: &mut Vec<Event>,
) {
    let c = cur(cc).clone();
    let (a_ok, d_ok) = (side_alive(st, &c, true), side_alive(st, &c, false));
    if !a_ok || !d_ok {
        cc.steps.insert(0, Step::EndCombat);
        return;
    }
    if special {
        // 14.8b: leaders whose CV was used check: d10 0–3 killed (21.4d).
        if cell.leader_check {
            let mut any = false;
            for &(_, _, l) in &c.leaders {
                if st.leaders[usize::from(l)].status != LeaderStatus::Present {
                    continue;
                }
                any = true;
                let die = d10(st);
                let killed = die <= 3;
                if killed {
                    crate::leaders::kill(sc, st, l);
                }
                ev.push(Event::LeaderLoss {
                    leader: sc.leaders[usize::from(l)].name.clone(),
                    die,
                    result: if killed {
                        "0–3: killed (14.8b, 21.4d)".into()
                    } else {
                        "4–9: no effect (14.8b)".into()
                    },
                });
            }
            if !any {
                log(
                    ev,
                    "14.8b",
                    "'*': no leader gave his CV bonus — ignored".into(),
                );
            }
        }
        let (order, ers) = ranking(sc, st, &c, ev);
        cc.steps.insert(
            0,
            Step::TestG {
                order,
                pos: 0,
                special: true,
                ers,
                picked: false,
            },
        );
        return;
    }
    let mut next: Vec<Step> = Vec::new();
    for (att, half) in [(true, cell.attacker), (false, cell.defender)] {
        apply_half(sc, st, cc, att, half, &mut next, ev);
    }
    if cell.attacker.morale || cell.defender.morale {
        // 14.4a: the attacker tests first, the defender second.
        let c = cur(cc).clone();
        let mut order: Vec<(bool, usize)> = Vec::new();
        for ix in 0..c.attackers.len() {
            if !living(st, &c.attackers[ix]).is_empty() {
                order.push((true, ix));
            }
        }
        for ix in 0..c.defenders.len() {
            if !living(st, &c.defenders[ix]).is_empty() {
                order.push((false, ix));
            }
        }
        next.push(Step::TestG {
            order,
            pos: 0,
            special: false,
            ers: Vec::new(),
            picked: false,
        });
    } else {
        next.push(Step::EndCombat);
    }
    for (i, s) in next.into_iter().enumerate() {
        cc.steps.insert(i, s);
    }
}

/// 14.3a: at the end of the advance, the artillery and inactive units that stood with attackers
/// disordered by 'D' are disordered too (already disordered: shaken), unless all the attacking
/// infantry stacked with them advanced (none of it is left in their hex, or there was none).
pub(super) fn disorder_left_behind(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    ev: &mut Vec<Event>,
) {
    let pending = std::mem::take(&mut cur_mut(cc).d_pending);
    let mut hit = Vec::new();
    for (u, infantry) in pending {
        if !st.on_map(u) {
            continue;
        }
        let here = st.units[usize::from(u)].hexes;
        let advanced = !infantry.is_empty()
            && infantry
                .iter()
                .all(|&i| !st.on_map(i) || st.units[usize::from(i)].hexes != here);
        if advanced {
            continue;
        }
        disorder_or_shake(st, u);
        hit.push(u);
    }
    if !hit.is_empty() {
        log(
            ev,
            "14.3a",
            format!(
                "the artillery and inactive units with the attackers are disordered (their infantry did not all advance): {}",
                names(sc, &hit)
            ),
        );
    }
}

/// A 'D' result on one unit (14.3a): disordered, or shaken if it already was.
fn disorder_or_shake(st: &mut State, u: UnitIx) {
    let us = &mut st.units[usize::from(u)];
    if us.disordered {
        us.shaken = true;
    } else {
        us.disordered = true;
    }
}

/// 'S', 'D', 'R' for one side (14.3, 14.6, 14.7).
fn apply_half(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    att: bool,
    half: CcSide,
    next: &mut Vec<Step>,
    ev: &mut Vec<Event>,
) {
    let c = cur(cc).clone();
    let stacks = if att { &c.attackers } else { &c.defenders };
    let who = if att { "attackers" } else { "defenders" };
    if half.surrender {
        for s in stacks {
            for u in living(st, s) {
                let hexes = st.units[usize::from(u)].hexes;
                let side = sc.units[usize::from(u)].side;
                crate::retreat::eliminate(sc, st, u, "surrenders (14.7)", ev);
                super::leaders_left_alone(sc, st, &hexes, side, ev);
            }
        }
        return;
    }
    if half.disorder {
        if att {
            // 14.3a: the artillery and inactive units of the attacking hexes, unless all the
            // attacking infantry stacked with them advances after combat (decided at its end).
            let mut pending = Vec::new();
            for s in stacks {
                let live = living(st, s);
                let Some(&u0) = live.first() else { continue };
                let hexes = st.units[usize::from(u0)].hexes;
                let side = sc.units[usize::from(u0)].side;
                let infantry: Vec<UnitIx> = live
                    .iter()
                    .copied()
                    .filter(|&u| sc.units[usize::from(u)].arm == Arm::Infantry)
                    .collect();
                for x in super::units_in(sc, st, side, &hexes) {
                    if !live.contains(&x) && !pending.iter().any(|(y, _)| *y == x) {
                        pending.push((x, infantry.clone()));
                    }
                }
            }
            cur_mut(cc).d_pending = pending;
        }
        let mut hit = Vec::new();
        for s in stacks {
            for u in living(st, s) {
                disorder_or_shake(st, u);
                hit.push(u);
            }
        }
        if !hit.is_empty() {
            log(
                ev,
                "14.3a",
                format!(
                    "the {who} are disordered (the already disordered shaken): {}",
                    names(sc, &hit)
                ),
            );
        }
    }
    if half.rout {
        for (ix, s) in stacks.iter().enumerate() {
            if !living(st, s).is_empty() {
                next.push(Step::Rout { att, ix });
            }
        }
    }
}

/// 14.8b: every stack of both sides ranked by its top unit's ER with the morale check (G)
/// modifiers, worst (highest) first; on equal ER the attacker's stack first (A44); a side's own
/// ties in stack order.
fn ranking(
    sc: &Scenario,
    st: &State,
    c: &Combat,
    ev: &mut Vec<Event>,
) -> (Vec<(bool, usize)>, Vec<i32>) {
    let mut v: Vec<(i32, bool, usize, String)> = Vec::new();
    for (att, stacks) in [(true, &c.attackers), (false, &c.defenders)] {
        for (ix, s) in stacks.iter().enumerate() {
            let live = living(st, s);
            if live.is_empty() {
                continue;
            }
            // The modified ER without rolling: the check is rolled on a copy of the state.
            let mut tmp = st.clone();
            tmp.loaded.clear();
            let o = checks::roll(sc, &mut tmp, &live, Spec::mc('G', "ranking", "14.8b"));
            v.push((o.event.total, att, ix, o.event.unit.clone()));
        }
    }
    v.sort_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)));
    log(
        ev,
        "14.8b",
        format!(
            "ranking by ER with the morale check (G) modifiers: {}",
            v.iter()
                .map(|(er, att, _, n)| format!(
                    "{n} ({}) {er}",
                    if *att { "attacker" } else { "defender" }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let ers = v.iter().map(|x| x.0).collect();
    (v.into_iter().map(|(_, a, i, _)| (a, i)).collect(), ers)
}

/// The stacks of the owner tied in rank with the one at `pos` (14.8b), `pos` first: the
/// positions, contiguous in the ranking.
pub(super) fn tied(order: &[(bool, usize)], ers: &[i32], pos: usize) -> Vec<usize> {
    let (Some(o), Some(e)) = (order.get(pos), ers.get(pos)) else {
        return Vec::new();
    };
    (pos..order.len())
        .take_while(|&j| order[j].0 == o.0 && ers.get(j) == Some(e))
        .collect()
}

/// Morale checks (G) in order: 14.4 (all attackers, then the defenders if one attacker passed) or
/// 14.8b (the ranking, stopping once a side has failed entirely while the other has stacks
/// untested). A failing stack loses 1 SP and routs (14.4c). Both sides with stacks that passed:
/// a new round (14.4b, 14.5).
#[allow(clippy::too_many_arguments)]
pub(super) fn test_g(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    order: Vec<(bool, usize)>,
    pos: usize,
    special: bool,
    ers: &[i32],
    ev: &mut Vec<Event>,
) {
    let c = cur(cc).clone();
    let tested = &c.tested;
    let side_done_failed = |att: bool| {
        let mine: Vec<&(bool, usize)> = order.iter().filter(|x| x.0 == att).collect();
        !mine.is_empty()
            && mine
                .iter()
                .all(|x| tested.iter().any(|t| t.0 == x.0 && t.1 == x.1 && !t.2))
    };
    let untested = |att: bool| order[pos.min(order.len())..].iter().any(|x| x.0 == att);
    let stop = if special {
        (side_done_failed(true) && untested(false)) || (side_done_failed(false) && untested(true))
    } else {
        // 14.4b: no attacker passed: the defender wins without testing.
        pos < order.len() && !order[pos].0 && !tested.iter().any(|t| t.0 && t.2)
    };
    if stop || pos >= order.len() {
        let a_pass = tested.iter().any(|t| t.0 && t.2);
        let d_pass = tested.iter().any(|t| !t.0 && t.2);
        if stop {
            log(
                ev,
                if special { "14.8b" } else { "14.4b" },
                "one side has failed entirely: the remaining checks are not made".into(),
            );
        }
        if a_pass && d_pass && !stop {
            log(
                ev,
                "14.5a",
                "both sides hold: a new round, without the first round's cavalry and flanking modifiers"
                    .into(),
            );
            cc.steps.insert(0, Step::Round);
        } else {
            cc.steps.insert(0, Step::EndCombat);
        }
        return;
    }
    let (att, ix) = order[pos];
    let stack = living(
        st,
        if att {
            &c.attackers[ix]
        } else {
            &c.defenders[ix]
        },
    );
    let mut next = vec![Step::TestG {
        order: order.clone(),
        pos: pos + 1,
        special,
        ers: ers.to_vec(),
        picked: false,
    }];
    if stack.is_empty() {
        cur_mut(cc).tested.push((att, ix, false));
    } else {
        let mut o = checks::roll(
            sc,
            st,
            &stack,
            Spec::mc(
                'G',
                if special {
                    "Close combat special result"
                } else {
                    "Close combat 'M' result"
                },
                if special { "14.8b" } else { "14.4" },
            ),
        );
        o.event.result = if o.passed {
            "holds".into()
        } else {
            "−1 SP and routs (14.4c)".into()
        };
        ev.push(Event::Check(o.event.clone()));
        cur_mut(cc).tested.push((att, ix, o.passed));
        if !o.passed {
            next.insert(0, Step::Rout { att, ix });
            next.insert(
                0,
                Step::Losses {
                    a: u8::from(att),
                    d: u8::from(!att),
                    next_att: att,
                    only: stack.clone(),
                    why: "failed close combat morale check (G), 14.4c".into(),
                },
            );
        }
    }
    for (i, s) in next.into_iter().enumerate() {
        cc.steps.insert(i, s);
    }
}

/// A stack routs (14.4c, 14.6a): a rout retreat away from the other side; artillery is
/// eliminated instead (20.2e); the artillery and inactive units left in a routed attacker's hex
/// test MC (E) (14.6a).
pub(super) fn rout(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    att: bool,
    ix: usize,
    ev: &mut Vec<Event>,
) {
    let c = cur(cc).clone();
    let stack = living(
        st,
        if att {
            &c.attackers[ix]
        } else {
            &c.defenders[ix]
        },
    );
    if stack.is_empty() {
        return;
    }
    let from: Vec<HexId> = if att {
        c.def_hexes.iter().flatten().copied().collect()
    } else {
        c.att_hexes.iter().flatten().copied().collect()
    };
    log(
        ev,
        "14.6a",
        format!(
            "{} rout{}",
            names(sc, &stack),
            if stack.len() == 1 { "s" } else { "" }
        ),
    );
    // Routed units are out of the combat from now on.
    for &u in &stack {
        st.units[usize::from(u)].routed = true;
    }
    st.jobs.push(Job::Rout { units: stack, from });
    if att {
        let mut one = c.clone();
        one.attackers = vec![c.attackers[ix].clone()];
        one.att_hexes = vec![c.att_hexes[ix].clone()];
        morale_e(sc, st, &one, ev);
    }
}

/// 14.5d and 15.1: after a combat of two rounds or more, the surviving cavalry of both sides is
/// disordered; then the winner's advance, if a hex was vacated.
pub(super) fn end_combat(sc: &Scenario, st: &mut State, cc: &mut Cc, ev: &mut Vec<Event>) {
    let c = cur(cc).clone();
    if c.round >= 2 {
        let cav: Vec<UnitIx> = c
            .attackers
            .iter()
            .chain(c.defenders.iter())
            .flat_map(|s| living(st, s))
            .filter(|&u| {
                sc.units[usize::from(u)].arm == Arm::Cavalry && !st.units[usize::from(u)].disordered
            })
            .collect();
        for &u in &cav {
            st.units[usize::from(u)].disordered = true;
        }
        if !cav.is_empty() {
            log(
                ev,
                "14.5d",
                format!(
                    "a combat of {} rounds: the surviving cavalry is disordered: {}",
                    c.round,
                    names(sc, &cav)
                ),
            );
        }
    }
    log(
        ev,
        "14.1",
        format!("combat over after {} round(s)", c.round),
    );
    // 11.5i, 12.9j, 8.4g: the losses contract a line or column its SPs no longer fill, and a
    // square below 3 SP becomes a line, before any advance.
    for stack in c.attackers.iter().chain(c.defenders.iter()) {
        let alive: Vec<UnitIx> = living(st, stack)
            .into_iter()
            .filter(|&u| !st.units[usize::from(u)].routed)
            .collect();
        crate::fire::contract(sc, st, &alive, ev);
    }
    // 13.7e: every defending hex vacated: the attacker advances; 15.1b: the attackers gone,
    // defending cavalry in line or attack column advances.
    let def_gone = c
        .def_hexes
        .iter()
        .flatten()
        .all(|h| super::units_in(sc, st, 1 - cc.side, &[*h]).is_empty());
    let att_gone = c.att_hexes.iter().flatten().all(|h| {
        c.attackers
            .iter()
            .flatten()
            .all(|&u| !alive(st, u) || !st.units[usize::from(u)].hexes.contains(h))
    });
    if def_gone && side_alive(st, &c, true) {
        cc.steps.insert(
            0,
            Step::Advance {
                att: true,
                moved: false,
            },
        );
    } else if att_gone && side_alive(st, &c, false) {
        cc.steps.insert(
            0,
            Step::Advance {
                att: false,
                moved: false,
            },
        );
    } else {
        // No advance: 14.3a's artillery and inactive units are disordered now.
        disorder_left_behind(sc, st, cc, ev);
        cur_mut(cc).done = true;
    }
}

/// The advances on offer (15.1): `(units, hexes)`. The attacker: a stack's attacking units (only
/// its cavalry if mixed, A45), or one of them alone, into a vacated defending hex in its front
/// (none into a flank hex, 15.1a), or into any adjacent hex left by a multi-hex formation that
/// had a hex in its front (15.1d; one hex: a single-hex stack never extends; its units may take
/// different hexes one after another); a multi-hex stack may step forward with its whole width if
/// it then holds a vacated hex, and a multi-hex line may instead contract onto fewer of its front
/// hexes holding a vacated one, stacking permitting (15.1e). Defending cavalry in line or attack column attacked through
/// its front, into a vacated attacker's hex in its front (15.1b). Stacking and terrain as for
/// movement (15.1f).
pub(super) fn advance_options(
    sc: &Scenario,
    st: &State,
    cc: &Cc,
) -> Vec<(Vec<UnitIx>, Vec<HexId>)> {
    let Some(Step::Advance { att, .. }) = cc.steps.first() else {
        return Vec::new();
    };
    let Some(i) = cc.cur else {
        return Vec::new();
    };
    let c = &cc.combats[i];
    let att = *att;
    // A45: if the attackers are infantry and cavalry, only the cavalry advances.
    let att_cav = c.attackers.iter().any(|s| has_cav(sc, &living(st, s)));
    let (movers, vacated_from): (Vec<Vec<UnitIx>>, &Vec<Vec<HexId>>) = if att {
        (
            c.attackers
                .iter()
                .map(|s| {
                    living(st, s)
                        .into_iter()
                        .filter(|&u| !att_cav || sc.units[usize::from(u)].arm == Arm::Cavalry)
                        .collect()
                })
                .collect(),
            &c.def_hexes,
        )
    } else {
        (
            c.defenders
                .iter()
                .enumerate()
                .map(|(ix, s)| {
                    let live: Vec<UnitIx> = living(st, s)
                        .into_iter()
                        .filter(|&u| {
                            sc.units[usize::from(u)].arm == Arm::Cavalry
                                && matches!(
                                    st.units[usize::from(u)].formation,
                                    Formation::Line | Formation::AttackColumn
                                )
                        })
                        .collect();
                    // Attacked through its front.
                    let front = live.first().map(|&u| front_of(st, u)).unwrap_or_default();
                    let through_front = c.att_hexes.iter().flatten().any(|h| front.contains(h));
                    let _ = ix;
                    if through_front { live } else { Vec::new() }
                })
                .collect(),
            &c.att_hexes,
        )
    };
    let side = if att { cc.side } else { 1 - cc.side };
    let vacated: Vec<HexId> = vacated_from
        .iter()
        .flatten()
        .copied()
        .filter(|h| {
            crate::stacking::units_at(st, *h)
                .iter()
                .all(|&u| sc.units[usize::from(u)].side == side)
        })
        .collect();
    // Units that advanced already are not offered again: only those still where they fought (or
    // on part of it, a remainder contracted by 10.8d after a unit left it; every advance holds a
    // vacated hex, never one of those).
    let origin = if att { &c.att_hexes } else { &c.def_hexes };
    let movers: Vec<Vec<UnitIx>> = movers
        .into_iter()
        .zip(origin)
        .map(|(s, h)| {
            s.into_iter()
                .filter(|&u| st.units[usize::from(u)].hexes.iter().all(|x| h.contains(x)))
                .collect()
        })
        .collect();
    let mut out: Vec<(Vec<UnitIx>, Vec<HexId>)> = Vec::new();
    for s in movers.iter().filter(|s| !s.is_empty()) {
        let top = s[0];
        let us = &st.units[usize::from(top)];
        // Units of this stack still where they fought.
        let front = front_of(st, top);
        if us.hexes.len() == 1 {
            // 15.1d: into a vacated hex in its front, or into any adjacent hex left by a
            // multi-hex formation it fought through its front (one of its hexes there).
            let here = us.hexes[0];
            let reach = |v: &HexId| {
                front.contains(v)
                    || (here.is_adjacent(*v)
                        && vacated_from.iter().any(|fs| {
                            fs.len() > 1 && fs.contains(v) && fs.iter().any(|x| front.contains(x))
                        }))
            };
            for &v in vacated.iter().filter(|v| reach(v)) {
                let mut groups: Vec<Vec<UnitIx>> = vec![s.clone()];
                if s.len() > 1 {
                    groups.extend(s.iter().map(|&u| vec![u]));
                }
                for g in groups {
                    if fits(sc, st, &g, &[v], side) && !out.contains(&(g.clone(), vec![v])) {
                        out.push((g, vec![v]));
                    }
                }
            }
        } else if let Some(fp) = crate::geom::footprint_of(us) {
            // 15.1c: the whole stack or one of its units; a unit alone must be a formation its
            // SPs allow (T5) and leaves a remainder that contracts at once (10.8d, `fits`).
            let mut groups: Vec<Vec<UnitIx>> = vec![s.clone()];
            if s.len() > 1 {
                groups.extend(s.iter().map(|&u| vec![u]));
            }
            for g in groups {
                let whole = g.len() == s.len();
                let ok = |hexes: &[HexId]| {
                    (whole
                        || crate::formation::lengths(sc, st, &g, us.formation)
                            .contains(&hexes.len()))
                        && fits(sc, st, &g, hexes, side)
                };
                for d in hexmap::Dir::ALL {
                    let Ok(moved) = fp.shifted(&hexmap::Printed, d) else {
                        continue;
                    };
                    let hexes: Vec<HexId> = moved.hexes().to_vec();
                    if !hexes.iter().any(|h| vacated.contains(h))
                        || !hexes
                            .iter()
                            .all(|h| front.contains(h) || us.hexes.contains(h))
                    {
                        continue;
                    }
                    if ok(&hexes) && !out.contains(&(g.clone(), hexes.clone())) {
                        out.push((g.clone(), hexes));
                    }
                }
                // 15.1e: a multi-hex line may also contract, at no cost, onto fewer hexes of its
                // front (its facing and formation kept, 15.1f) holding a vacated hex, if
                // stacking permits.
                if us.formation == Formation::Line {
                    for k in 1..us.hexes.len() {
                        for window in us.hexes.windows(k) {
                            let Ok(short) = hexmap::Footprint::new(
                                &hexmap::Printed,
                                hexmap::FootprintKind::Line,
                                us.facing,
                                window.to_vec(),
                            ) else {
                                continue;
                            };
                            for d in hexmap::Dir::ALL {
                                let Ok(moved) = short.shifted(&hexmap::Printed, d) else {
                                    continue;
                                };
                                let hexes: Vec<HexId> = moved.hexes().to_vec();
                                if hexes.iter().any(|h| vacated.contains(h))
                                    && hexes.iter().all(|h| front.contains(h))
                                    && ok(&hexes)
                                    && !out.contains(&(g.clone(), hexes.clone()))
                                {
                                    out.push((g.clone(), hexes));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Whether units may stand on hexes after an advance: on the board, not prohibited, the
/// formation allowed, no enemy, stacking legal (15.1f).
fn fits(sc: &Scenario, st: &State, us: &[UnitIx], hexes: &[HexId], side: u8) -> bool {
    let form = crate::geom::chart_key(st.units[usize::from(us[0])].formation);
    for h in hexes {
        let Some(info) = sc.board.hexes.get(h) else {
            return false;
        };
        if let Some(t) = sc.charts.tec.terrain.get(&info.terrain)
            && (us
                .iter()
                .any(|&u| t.prohibited.contains(&sc.units[usize::from(u)].arm))
                || t.no_formation.iter().any(|f| f == form))
        {
            return false;
        }
        if checks::enemy_in(sc, st, side, *h, true) {
            return false;
        }
    }
    let mut tmp = st.clone();
    for &u in us {
        tmp.units[usize::from(u)].hexes = Hexes::from(hexes);
    }
    // 10.8d: the units left behind contract at once; they too must be a legal stack.
    let mut check: Vec<HexId> = hexes.to_vec();
    if let Some((rest, short)) = remainder(sc, st, us) {
        check.extend(st.units[usize::from(us[0])].hexes.iter().copied());
        for &r in &rest {
            tmp.units[usize::from(r)].hexes = short.as_slice().into();
        }
    }
    check
        .iter()
        .all(|h| crate::stacking::legal_at(sc, &tmp, *h).is_ok())
}

/// 10.8d: the units of the stack `us` leave (their side's units on exactly the same hexes, top
/// first, the guns last so that the infantry's formation sets the length) and the hexes they
/// contract to at once, if they must (`stacking::after_separation`).
fn remainder(sc: &Scenario, st: &State, us: &[UnitIx]) -> Option<(Vec<UnitIx>, Vec<HexId>)> {
    let top = *us.first()?;
    let from = &st.units[usize::from(top)].hexes;
    let side = sc.units[usize::from(top)].side;
    let mut rest: Vec<UnitIx> = super::units_in(sc, st, side, from)
        .into_iter()
        .filter(|&u| !us.contains(&u) && st.units[usize::from(u)].hexes == *from)
        .collect();
    rest.sort_by_key(|&u| {
        (
            sc.units[usize::from(u)].arm == Arm::Artillery,
            st.units[usize::from(u)].order,
        )
    });
    let short = crate::stacking::after_separation(sc, st, &rest)?;
    Some((rest, short))
}

/// Make an advance (15.1): the units move with their facing and formation (15.1f; a general order
/// stays, 15.2); leaders go with a stack that advances whole (21.2c). Cavalry that advanced
/// pursues once the combat's advance is over (16.1, `Step::Pursue`, `crate::pursuit`).
pub(super) fn advance(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    us: &[UnitIx],
    hexes: &[HexId],
    ev: &mut Vec<Event>,
) {
    let Some(&top) = us.first() else { return };
    let from = st.units[usize::from(top)].hexes;
    let side = sc.units[usize::from(top)].side;
    let left_behind = super::units_in(sc, st, side, &from)
        .into_iter()
        .any(|u| !us.contains(&u));
    let separation = remainder(sc, st, us);
    for &u in us {
        st.units[usize::from(u)].hexes = Hexes::from(hexes);
    }
    // 10.8d: the remainder of a multi-hex stack contracts at the instant the advancing units
    // leave, free; the leaders on a hex it gives up stay with it.
    let separated = match separation {
        Some((rest, short)) => {
            for &r in &rest {
                st.units[usize::from(r)].hexes = short.as_slice().into();
            }
            for (i, l) in st.leaders.iter_mut().enumerate() {
                if sc.leaders[i].side == side
                    && l.status == LeaderStatus::Present
                    && l.hex
                        .is_some_and(|h| from.contains(&h) && !short.contains(&h))
                {
                    l.hex = short.first().copied();
                }
            }
            let label = |hs: &[HexId]| {
                hs.iter()
                    .map(|h| sc.board.label(*h))
                    .collect::<Vec<_>>()
                    .join("-")
            };
            format!(
                "; {} left behind contract{} at once from {} to {} (10.8d)",
                names(sc, &rest),
                if rest.len() == 1 { "s" } else { "" },
                label(&from),
                label(&short)
            )
        }
        None => String::new(),
    };
    // 15.1e: a multi-hex line that advances onto fewer hexes contracts at no cost.
    let contracted = if hexes.len() < from.len() {
        format!(
            " (the line contracts from {} to {} hex{}, 15.1e)",
            from.iter()
                .map(|h| sc.board.label(*h))
                .collect::<Vec<_>>()
                .join("-"),
            hexes.len(),
            if hexes.len() == 1 { "" } else { "es" }
        )
    } else {
        String::new()
    };
    if !left_behind {
        let to = hexes[0];
        for (i, l) in st.leaders.iter_mut().enumerate() {
            if sc.leaders[i].side == side
                && l.status == LeaderStatus::Present
                && l.hex.is_some_and(|h| from.contains(&h))
            {
                l.hex = Some(if hexes.contains(&l.hex.unwrap_or(to)) {
                    l.hex.unwrap_or(to)
                } else {
                    to
                });
            }
        }
    }
    let _ = cc;
    log(
        ev,
        "15.1",
        format!(
            "{} advance{} after combat to {}{}{contracted}",
            names(sc, us),
            if us.len() == 1 { "s" } else { "" },
            hexes
                .iter()
                .map(|h| sc.board.label(*h))
                .collect::<Vec<_>>()
                .join("-"),
            if us
                .iter()
                .any(|&u| st.units[usize::from(u)].formation == Formation::GeneralOrder)
            {
                " (still in general order, 15.2)"
            } else {
                ""
            }
        ) + &separated,
    );
}

// pursuit (16) / opportunity charge (17)
/// 14.5b (E59): at the start of the second and each later round, a cavalry stack in a multi-hex
/// line with a hex not adjacent to an opponent gives up its farthest such hex (an end of the line);
/// its SPs are spread over the other hexes (8.1a). Not when the shorter line would break the
/// stacking, formation or terrain rules (15.1f's test). Not movement: no opportunity fire or charge.
pub(super) fn contract_cavalry_lines(
    sc: &Scenario,
    st: &mut State,
    cc: &mut Cc,
    ev: &mut Vec<Event>,
) {
    let c = cur(cc).clone();
    for att in [true, false] {
        let (mine, theirs) = if att {
            (&c.attackers, &c.defenders)
        } else {
            (&c.defenders, &c.attackers)
        };
        let opp: Vec<HexId> = theirs
            .iter()
            .flat_map(|s| living(st, s))
            .flat_map(|u| st.units[usize::from(u)].hexes)
            .collect();
        for s in mine {
            let live = living(st, s);
            let Some(&top) = live.first() else { continue };
            let us = &st.units[usize::from(top)];
            let hexes = us.hexes;
            if hexes.len() < 2
                || us.formation != Formation::Line
                || live
                    .iter()
                    .any(|&u| sc.units[usize::from(u)].arm != Arm::Cavalry)
            {
                continue;
            }
            let dist = |h: &HexId| opp.iter().map(|o| o.distance(*h)).min().unwrap_or(0);
            let ends = [hexes[0], hexes[hexes.len() - 1]];
            let Some(far) = ends
                .into_iter()
                .filter(|h| !opp.iter().any(|o| o.is_adjacent(*h)))
                .max_by_key(|h| dist(h))
            else {
                continue;
            };
            let rest: Vec<HexId> = hexes.iter().copied().filter(|h| *h != far).collect();
            let side = sc.units[usize::from(top)].side;
            let all = super::units_in(sc, st, side, &hexes);
            if all.iter().any(|u| !live.contains(u)) || !fits(sc, st, &live, &rest, side) {
                log(
                    ev,
                    "14.5b",
                    format!(
                        "{} cannot contract out of {}: the shorter line would break the stacking, formation or terrain rules",
                        names(sc, &live),
                        sc.board.label(far)
                    ),
                );
                continue;
            }
            for &u in &live {
                st.units[usize::from(u)].hexes = Hexes::from(&rest[..]);
            }
            // 21.2c: a leader in the hex given up stays with the line.
            let near = rest
                .iter()
                .copied()
                .find(|h| h.is_adjacent(far))
                .unwrap_or(rest[0]);
            for (i, l) in st.leaders.iter_mut().enumerate() {
                if sc.leaders[i].side == side
                    && l.status == LeaderStatus::Present
                    && l.hex == Some(far)
                {
                    l.hex = Some(near);
                }
            }
            log(
                ev,
                "14.5b",
                format!(
                    "{} contract{} out of {}, not adjacent to the enemy: the line now holds {}",
                    names(sc, &live),
                    if live.len() == 1 { "s" } else { "" },
                    sc.board.label(far),
                    rest.iter()
                        .map(|h| sc.board.label(*h))
                        .collect::<Vec<_>>()
                        .join("-")
                ),
            );
        }
    }
}
