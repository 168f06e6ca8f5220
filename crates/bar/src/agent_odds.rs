//! What the agent reads of a fight before it starts (`crate::agent`), from public state only:
//! the close combat odds of an attacking or charging stack (13.11: the SP ratio and the CV, with
//! the modifiers a player sees at a glance), and a look one action ahead at a move with re-dealt
//! dice (10.13b: a move that ends in an illegal stack routs the mover).
use crate::Bar;
use crate::action::Action;
use crate::checks::current_sp;
use crate::data::Arm;
use crate::geom::Formation;
use crate::scenario::UnitIx;
use crate::state::{Phase, State};
use hexmap::HexId;

/// The SP a stack brings to a close combat (13.11a, roughly): every unit's current SP, halved
/// when disordered; artillery alone counts 1 a unit, artillery with others nothing.
pub(super) fn combat_sp(bar: &Bar, st: &State, stack: &[UnitIx]) -> f64 {
    let sc = &bar.sc;
    let alone = stack
        .iter()
        .all(|&u| sc.units[usize::from(u)].arm == Arm::Artillery);
    stack
        .iter()
        .map(|&u| {
            let s = &st.units[usize::from(u)];
            let sp = if sc.units[usize::from(u)].arm == Arm::Artillery {
                if alone { 1.0 } else { 0.0 }
            } else {
                f64::from(current_sp(sc, st, u))
            };
            if s.disordered { sp / 2.0 } else { sp }
        })
        .sum()
}

/// A stack's combat value (13.11b–c, roughly): the average printed CV of its non-artillery
/// units, halved at half strength, −5 shaken, +2 heavy or medium cavalry (+1 light), the
/// formation modifiers (square, skirmish, columns and limbered guns), against `cavalry`
/// attackers or not.
pub(super) fn combat_cv(bar: &Bar, st: &State, stack: &[UnitIx], cavalry: bool) -> f64 {
    let sc = &bar.sc;
    let fighters: Vec<UnitIx> = stack
        .iter()
        .copied()
        .filter(|&u| sc.units[usize::from(u)].arm != Arm::Artillery)
        .collect();
    if fighters.is_empty() {
        return 0.0;
    }
    let mut cv = 0.0;
    for &u in &fighters {
        let d = &sc.units[usize::from(u)];
        let s = &st.units[usize::from(u)];
        let mut c = f64::from(d.cv);
        if u16::from(s.lost) * 2 >= u16::from(d.sp) {
            c = (c / 2.0).round();
        }
        if s.shaken {
            c -= 5.0;
        }
        cv += c;
    }
    cv /= fighters.len() as f64;
    let top = &st.units[usize::from(fighters[0])];
    if sc.units[usize::from(fighters[0])].arm == Arm::Cavalry {
        cv += if sc.units[usize::from(fighters[0])].light {
            1.0
        } else {
            2.0
        };
    }
    cv += match top.formation {
        Formation::Square if cavalry => 5.0,
        Formation::Square => -5.0,
        Formation::Skirmish if cavalry => -6.0,
        Formation::Skirmish => -4.0,
        Formation::MarchColumn | Formation::RoadColumn | Formation::Limbered => -4.0,
        _ => 0.0,
    };
    cv
}

/// The enemy units whose hexes are in `hexes`, by stack (every unit of a hex, 13.6a).
fn enemies_in(bar: &Bar, st: &State, side: u8, hexes: &[HexId]) -> Vec<UnitIx> {
    let mut out: Vec<UnitIx> = Vec::new();
    for &h in hexes {
        for u in crate::stacking::units_at(st, h) {
            let s = &st.units[usize::from(u)];
            if bar.sc.units[usize::from(u)].side != side && !s.routed && !out.contains(&u) {
                out.push(u);
            }
        }
    }
    out
}

/// The value of a close combat for the attacker, in the die's units: the odds shift of the SP
/// ratio (about two points of die difference a doubling, 14.1) plus the CV difference (13.11c),
/// +3 for an attack into the defender's flank or rear. Positive: the attacker is favoured.
pub(super) fn attack_value(bar: &Bar, st: &State, stack: &[UnitIx], charge: bool) -> Option<f64> {
    let sc = &bar.sc;
    let &top = stack.first()?;
    let side = sc.units[usize::from(top)].side;
    let cavalry = sc.units[usize::from(top)].arm == Arm::Cavalry;
    // Whom it would fight: the enemies in its front hexes; a charge reaches the nearest enemy
    // within its range (13.1d).
    let front: Vec<HexId> = stack
        .iter()
        .flat_map(|&u| crate::close_combat::front_of(st, u))
        .collect();
    let mut defenders = enemies_in(bar, st, side, &front);
    if defenders.is_empty() && charge {
        let range = crate::close_combat::charge::range(sc, stack).unwrap_or(3);
        let here = st.units[usize::from(top)].hexes;
        let mut best: Option<(u32, UnitIx)> = None;
        for (i, s) in st.units.iter().enumerate() {
            if sc.units[i].side == side || s.eliminated || s.routed || s.hexes.is_empty() {
                continue;
            }
            let d = s
                .hexes
                .iter()
                .flat_map(|e| here.iter().map(move |h| h.distance(*e)))
                .min()
                .unwrap_or(u32::MAX);
            if d <= u32::from(range) + 1 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, i as UnitIx));
            }
        }
        if let Some((_, u)) = best {
            defenders = enemies_in(bar, st, side, &st.units[usize::from(u)].hexes.clone());
        }
    }
    let &dtop = defenders.first()?;
    let a_sp = combat_sp(bar, st, stack);
    let d_sp = combat_sp(bar, st, &defenders).max(0.5);
    let mut a_cv = combat_cv(bar, st, stack, false);
    let d_cv = combat_cv(bar, st, &defenders, cavalry)
        - if st.units[usize::from(dtop)].shaken {
            1.0
        } else {
            0.0
        };
    if charge && cavalry {
        a_cv += 1.0;
    }
    let flank = crate::close_combat::flank_rear_of(st, dtop);
    if stack.iter().any(|&u| {
        st.units[usize::from(u)]
            .hexes
            .iter()
            .any(|h| flank.contains(h))
    }) {
        a_cv += 3.0;
    }
    Some(2.0 * (a_sp / d_sp).log2() + a_cv - d_cv)
}

/// The state after `a`, with dice re-dealt from `salt` so that the look ahead never reads the
/// game's own future rolls.
pub(super) fn peek(bar: &Bar, st: &State, a: &Action, salt: u64) -> State {
    let mut s = st.clone();
    s.dice = engine::Dice::new(salt ^ u64::from(st.decisions).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut ev = Vec::new();
    crate::flow::apply(&bar.sc, &mut s, a, &mut ev);
    s
}

/// What a move costs its side at once, looked at one action ahead: the SP of its units newly
/// routed or lost (10.13b, opportunity fire already resolved), disorder, and a position where the
/// mover could not stop (an illegal stack, 10.13a) while it still moves.
pub(super) fn move_cost(bar: &Bar, st: &State, a: &Action, side: u8) -> f64 {
    let sc = &bar.sc;
    let after = peek(bar, st, a, 0x51ed_2701);
    let clt = |s: &State| f64::from(crate::army_morale::clt_total(sc, s, side));
    let disordered = |s: &State| {
        s.units
            .iter()
            .enumerate()
            .filter(|(i, u)| sc.units[*i].side == side && u.disordered && !u.eliminated)
            .count() as f64
    };
    let mut cost = 3.0 * (clt(&after) - clt(st)).max(0.0);
    cost += 0.5 * (disordered(&after) - disordered(st)).max(0.0);
    if let Phase::Moving(m) = &after.phase
        && m.side == side
        && !crate::movement::stack_legal(sc, &after, m)
    {
        cost += 1.0;
    }
    cost
}
