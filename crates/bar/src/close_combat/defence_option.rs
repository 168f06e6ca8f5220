//! The cavalry defence option (13.8, 19.6d): a reactive cavalry stack with an attacker of a
//! combat in its ZOC, itself not attacked, may join that combat before any defender's morale
//! check (B). Joined, it is a defender like the others (13.8a); its hex, in the attacker's flank
//! or rear, is never advanced into (13.8d: the advance goes into front hexes only, 15.1a). If the combat has attacking stacks outside its ZOC, those in its ZOC fight it in a
//! combat of their own (13.8 situation 2). Declined, the attacker still suffers the −3 of an
//! enemy in its flank (13.8e: the resolution's "enemy outside the combat in its flank").
use super::{Cc, Combat, alive, front_of, log, names};
use crate::action::Action;
use crate::data::Arm;
use crate::event::Event;
use crate::geom::Formation;
use crate::scenario::{Scenario, UnitIx};
use crate::state::State;
use hexmap::HexId;

/// The units of combat `i`'s attacking stacks with a hex in the ZOC of `stack`, by stack index.
fn attackers_in_zoc(st: &State, c: &Combat, stack: &[UnitIx]) -> Vec<usize> {
    let front = front_of(st, stack[0]);
    (0..c.attackers.len())
        .filter(|&ix| {
            c.attackers[ix].iter().any(|&u| {
                alive(st, u)
                    && st.units[usize::from(u)]
                        .hexes
                        .iter()
                        .any(|h| front.contains(h))
            })
        })
        .collect()
}

/// 13.8b: an attacker's hex the cavalry could charge: terrain it may charge into, and a hexside
/// between them open to special cavalry movement.
fn reachable(sc: &Scenario, st: &State, c: &Combat, ix: usize, stack: &[UnitIx]) -> bool {
    let mine = &st.units[usize::from(stack[0])].hexes;
    c.attackers[ix].iter().any(|&a| {
        st.units[usize::from(a)].hexes.iter().any(|&h| {
            let into = sc
                .board
                .tec_row(h)
                .is_some_and(|t| t.charge_into && t.scm.points().is_some());
            into && mine.iter().any(|&m| {
                m.is_adjacent(h)
                    && sc
                        .board
                        .hexside(m, h)
                        .and_then(|k| sc.charts.tec.hexside.get(k))
                        .is_none_or(|r| r.scm.points().is_some())
            })
        })
    })
}

/// 13.8a–b, 19.6d: the reactive cavalry stacks that may join combat `i` now: all cavalry, none
/// shaken or routed (disordered allowed), in line or attack column, not attacked in this phase,
/// an attacker of the combat in its ZOC whose hex it could charge, not declined for this combat.
pub(super) fn candidates(sc: &Scenario, st: &State, cc: &Cc, i: usize) -> Vec<Vec<UnitIx>> {
    let Some(c) = cc.combats.get(i) else {
        return Vec::new();
    };
    let side = 1 - cc.side;
    let on: Vec<UnitIx> = (0..sc.units.len() as UnitIx)
        .filter(|&u| sc.units[usize::from(u)].side == side && st.on_map(u))
        .collect();
    crate::rally::stacks(st, &on)
        .into_iter()
        .filter(|s| {
            s.iter().all(|&u| {
                let x = &st.units[usize::from(u)];
                sc.units[usize::from(u)].arm == Arm::Cavalry
                    && !x.shaken
                    && !x.routed
                    && matches!(x.formation, Formation::Line | Formation::AttackColumn)
                    && !cc.engaged.contains(&u)
            }) && !cc.defence_declined.contains(&(i, s[0]))
                && attackers_in_zoc(st, c, s)
                    .into_iter()
                    .any(|ix| reachable(sc, st, c, ix, s))
        })
        .collect()
}

/// The reactive player's choices for `stack`.
pub(super) fn options(stack: &[UnitIx]) -> Vec<Action> {
    match stack.first() {
        Some(&u) => vec![Action::CcCavalryDefend(u), Action::Pass],
        None => Vec::new(),
    }
}

/// Apply the choice: the stack joins combat `i` (13.8a), in a combat of its own with the
/// attacking stacks in its ZOC if the combat has others (13.8 situation 2); or it stays out.
pub(super) fn decide(
    sc: &Scenario,
    st: &State,
    cc: &mut Cc,
    i: usize,
    stack: &[UnitIx],
    a: &Action,
    ev: &mut Vec<Event>,
) {
    let Some(&top) = stack.first() else { return };
    if !matches!(a, Action::CcCavalryDefend(_)) {
        cc.defence_declined.push((i, top));
        log(
            ev,
            "13.8e",
            format!(
                "{} stays out of the close combat (its flank modifier still counts)",
                names(sc, stack)
            ),
        );
        return;
    }
    let Some(c) = cc.combats.get(i) else { return };
    let hexes: Vec<HexId> = st.units[usize::from(top)].hexes.to_vec();
    let mine = attackers_in_zoc(st, c, stack);
    cc.engaged.extend(stack.iter().copied());
    if mine.len() < c.attackers.len() {
        // Situation 2: those attackers now fight the cavalry alone.
        let c = &mut cc.combats[i];
        let mut split = Combat {
            charge_hexes: c.charge_hexes.clone(),
            ..Combat::default()
        };
        for &ix in mine.iter().rev() {
            split.attackers.insert(0, c.attackers.remove(ix));
            split.att_hexes.insert(0, c.att_hexes.remove(ix));
        }
        split.defenders.push(stack.to_vec());
        split.def_hexes.push(hexes);
        log(
            ev,
            "13.8a",
            format!(
                "{} joins by the cavalry defence option: {} now fight{} it in a combat of its own",
                names(sc, stack),
                split
                    .attackers
                    .iter()
                    .map(|s| names(sc, s))
                    .collect::<Vec<_>>()
                    .join(" and "),
                if split.attackers.len() == 1 && split.attackers[0].len() == 1 {
                    "s"
                } else {
                    ""
                }
            ),
        );
        cc.combats.push(split);
    } else {
        let c = &mut cc.combats[i];
        c.defenders.push(stack.to_vec());
        c.def_hexes.push(hexes);
        log(
            ev,
            "13.8a",
            format!(
                "{} joins the close combat by the cavalry defence option",
                names(sc, stack)
            ),
        );
    }
}
