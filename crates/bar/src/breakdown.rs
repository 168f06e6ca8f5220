//! Breakdown and reformation as actions of the movement phase (8.5): a parent unit breaks down
//! into the components the order of battle lists (`components` in `oob.toml`), and its activated
//! components try to re-form it, one d100 roll for all of them. The conditions are
//! [`crate::formation::breakdown`], [`crate::formation::reformation`] and
//! [`crate::formation::skirmish_reformation`]; here they are offered, carried out and logged.
//!
//! Both are free (8.5a: "costs the component units no MPs"; 8.5b: "it pays no MP cost") and are
//! formation changes that may trigger opportunity fire and charge (8.5, 12.8, 17.0): the reactive
//! player answers, then the phase goes back to choosing what moves, and the new units may move
//! with their full MPs. The SPs lost move with the troops: the components of a parent that lost
//! SPs carry its losses, and a re-formed parent the components' (the Current Loss Total, 23.1a,
//! counts each SP once).
use crate::action::Action;
use crate::checks;
use crate::event::Event;
use crate::formation::{self, Budget, Reformation};
use crate::geom::{Facing, FacingExt as _, Formation};
use crate::scenario::{Scenario, Skirmish, UnitIx};
use crate::state::{Hexes, Phase, State};
use engine::Half;
use hexmap::{Dir, HexId, Vertex};

/// What a parent has for 8.5a now: nothing spent (it has not begun to move: `movable`), its
/// printed MA.
fn budget(sc: &Scenario, st: &State, u: UnitIx) -> Budget {
    let ma = Half::whole(u16::from(sc.units[usize::from(u)].ma));
    Budget {
        ma,
        left: ma,
        spent: false,
        fired: st.activation.as_ref().is_some_and(|a| a.fired.contains(&u)),
    }
}

/// The breakdowns open now (8.5a): each parent of the activation that may break down, and the
/// SPs of each of its components. Not in a limited activation (6.8b: only road columns move).
/// A breakdown whose components would not make a legal stack where they are placed is not
/// offered, except skirmisher components over the skirmisher limit of their hex when they can
/// correct it (8.5a: they "have until the end of the movement phase to correct the excess. If
/// this is not possible the breakdown is not allowed"): the look-ahead is `spread_possible`.
pub fn breakdowns(sc: &Scenario, st: &State) -> Vec<(UnitIx, Vec<(UnitIx, u8)>)> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    if act.limited {
        return Vec::new();
    }
    let (units, _) = crate::movement::movable(sc, st);
    let mut out = Vec::new();
    for u in units {
        let comps = &sc.units[usize::from(u)].components;
        if comps.is_empty() {
            continue;
        }
        let Some(share) = formation::breakdown(sc, st, u, comps, &budget(sc, st, u)) else {
            continue;
        };
        let mut t = st.clone();
        place_components(sc, &mut t, u, &share);
        let hexes = st.units[usize::from(u)].hexes;
        if hexes
            .iter()
            .all(|&h| crate::stacking::legal_at(sc, &t, h).is_ok())
            || spread_possible(sc, &t, &share)
        {
            out.push((u, share));
        }
    }
    out
}

/// The skirmisher limit of the hex holding `components`, if they are skirmishers (placed) that
/// stand over it and break no other stacking rule there.
fn over_skirmish_limit(sc: &Scenario, st: &State, components: &[(UnitIx, u8)]) -> Option<HexId> {
    let &(c0, _) = components.first()?;
    let h = *st.units[usize::from(c0)].hexes.first()?;
    let skirmishers = components
        .iter()
        .all(|&(c, _)| st.units[usize::from(c)].formation == Formation::Skirmish);
    let over = matches!(
        crate::stacking::legal_at(sc, st, h),
        Err(crate::stacking::StackError::Limit {
            what: "skirmish",
            ..
        })
    );
    (skirmishers && over).then_some(h)
}

/// 8.5a: whether skirmisher components placed over the skirmisher limit of their hex (`st`: just
/// placed) can correct the excess in this movement phase. tricorne's reading
/// (docs/bar-formations.md): the fewest components whose leaving brings the hex within the limit
/// (the strongest first) must each have a hex to step into at once — after a skirmisher's free
/// facing change, with its MPs, where it makes a legal stack (`movement::skirmisher_exits`) — and
/// there must be as many such hexes as leavers. A correction that would need a longer way round
/// is not counted: then the breakdown is not allowed.
fn spread_possible(sc: &Scenario, st: &State, components: &[(UnitIx, u8)]) -> bool {
    let Some(h) = over_skirmish_limit(sc, st, components) else {
        return false;
    };
    let Some(limit) = sc.board.tec_row(h).and_then(|r| r.stacking.skirmish) else {
        return false;
    };
    let mut sps: Vec<u16> = components.iter().map(|&(_, sp)| u16::from(sp)).collect();
    sps.sort_unstable_by(|a, b| b.cmp(a));
    let mut left: u16 = sps.iter().sum();
    let mut leavers = 0usize;
    for sp in sps {
        if left <= u16::from(limit) {
            break;
        }
        left -= sp;
        leavers += 1;
    }
    let mut exits: Vec<HexId> = Vec::new();
    let mut able = 0usize;
    for &(c, _) in components {
        let e = crate::movement::skirmisher_exits(sc, st, c);
        if !e.is_empty() {
            able += 1;
        }
        for x in e {
            if !exits.contains(&x) {
                exits.push(x);
            }
        }
    }
    able >= leavers && exits.len() >= leavers
}

/// 8.5a: the parent leaves the map and its components take its hexes, facing and formation
/// (skirmisher-only components: skirmish order in its right-hand or head hex, facing the first
/// hexpoint of a column's hexside), each with its share of the parent's current SPs, its state
/// (shaken stays shaken), activated with it.
fn place_components(sc: &Scenario, st: &mut State, parent: UnitIx, share: &[(UnitIx, u8)]) {
    let p = st.units[usize::from(parent)].clone();
    for &(c, sp) in share {
        let order = st.next_order;
        st.next_order = st.next_order.saturating_add(1);
        let unit = &sc.units[usize::from(c)];
        let (hexes, formation, facing) = match (unit.skirmish, p.hexes.first()) {
            (Skirmish::Only, Some(&h)) => (Hexes::one(h), Formation::Skirmish, point(p.facing)),
            _ => (p.hexes, p.formation, p.facing),
        };
        let s = &mut st.units[usize::from(c)];
        s.hexes = hexes;
        s.formation = formation;
        s.facing = facing;
        s.lost = unit.sp.saturating_sub(sp);
        s.disordered = false;
        s.shaken = p.shaken;
        s.routed = false;
        s.eliminated = false;
        s.activated = true;
        s.ooc = p.ooc;
        s.recovered = p.recovered;
        s.order = order;
        s.arrives = None;
        s.entry = None;
    }
    let s = &mut st.units[usize::from(parent)];
    s.hexes = Hexes::new();
    s.lost = 0;
    let comps: Vec<UnitIx> = share.iter().map(|x| x.0).collect();
    join_activation(st, parent, &comps);
}

/// A hexpoint facing: a column's hexside facing gives its first hexpoint.
fn point(f: Facing) -> Facing {
    match f {
        Facing::Side(d) => Facing::Point(d.vertices()[0]),
        p @ Facing::Point(_) => p,
    }
}

/// The new units take part in the activation as `was` did (its brigade's, attached or
/// independent, 6.3c, 6.4, 6.6).
fn join_activation(st: &mut State, was: UnitIx, new: &[UnitIx]) {
    let Some(act) = st.activation.as_mut() else {
        return;
    };
    let list = if act.attached.contains(&was) {
        &mut act.attached
    } else if act.independents.contains(&was) {
        &mut act.independents
    } else if act.arriving.contains(&was) {
        &mut act.arriving
    } else {
        &mut act.units
    };
    for &u in new {
        if !list.contains(&u) {
            list.push(u);
        }
    }
}

/// Carry out a breakdown (8.5a) and give the reactive player his chance (8.5, 12.8c, 17.0).
pub fn apply_breakdown(
    sc: &Scenario,
    st: &mut State,
    parent: UnitIx,
    ev: &mut Vec<Event>,
) -> Phase {
    let Some((_, share)) = breakdowns(sc, st).into_iter().find(|x| x.0 == parent) else {
        return Phase::Movement;
    };
    let was = st.units[usize::from(parent)].clone();
    place_components(sc, st, parent, &share);
    // 8.5a: skirmishers over the limit of their hex must spread out in this movement phase.
    let over = over_skirmish_limit(sc, st, &share);
    if let (Some(h), Some(act)) = (over, st.activation.as_mut())
        && !act.spread.contains(&h)
    {
        act.spread.push(h);
    }
    let army = &sc.armies[usize::from(sc.units[usize::from(parent)].side)].name;
    ev.push(Event::Movement {
        army: army.clone(),
        text: format!(
            "{} ({} SP) breaks down into {} in {}, {} facing {}: free, they may use their full MPs",
            sc.units[usize::from(parent)].name,
            sc.units[usize::from(parent)].sp.saturating_sub(was.lost),
            share
                .iter()
                .map(|&(c, sp)| format!("{} {sp} SP", sc.units[usize::from(c)].name))
                .collect::<Vec<_>>()
                .join(", "),
            hex_list(sc, &was.hexes),
            was.formation.name(),
            was.facing.name()
        ),
        rule: "8.5a".into(),
    });
    if let Some(h) = over {
        let limit = sc
            .board
            .tec_row(h)
            .and_then(|r| r.stacking.skirmish)
            .unwrap_or(0);
        ev.push(Event::Movement {
            army: army.clone(),
            text: format!(
                "{} SP of skirmishers in {} are over the skirmisher limit of {limit} SP: they must spread out before the movement phase ends",
                share.iter().map(|&(_, sp)| u16::from(sp)).sum::<u16>(),
                sc.board.label(h)
            ),
            rule: "8.5a".into(),
        });
    }
    let mut comps: Vec<UnitIx> = share.iter().map(|x| x.0).collect();
    comps.sort_by_key(|&c| st.units[usize::from(c)].order);
    crate::movement::free_change(sc, st, comps, ev)
}

fn hex_list(sc: &Scenario, hexes: &[HexId]) -> String {
    sc.board.labels(hexes, "-").to_string()
}

/// A reformation open now (8.5b–c): the action (the parent's hexes, formation and facing if it
/// succeeds), what the roll needs, the components and the rule.
#[derive(Clone, Debug)]
pub struct Offer {
    /// The action.
    pub action: Action,
    /// The roll needed and the parent's SPs.
    pub need: Reformation,
    /// The components.
    pub components: Vec<UnitIx>,
    /// "8.5b" or "8.5c".
    pub rule: &'static str,
}

/// The reformations open now: for each parent of the activation's side off the map whose
/// components are all on it, activated in this activation and yet to move (8.5b: "all activated
/// components"; an eliminated component's SPs are gone, so its parent is not re-formed,
/// docs/bar-formations.md), no attempt failed this phase. Stacked components re-form in their
/// hexes with their formation and facing (8.5b); skirmishers in each common hex, in line or
/// march column, any facing (8.5c).
pub fn reforms(sc: &Scenario, st: &State) -> Vec<Offer> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    if act.limited {
        return Vec::new();
    }
    let mut movable: Option<Vec<UnitIx>> = None;
    let mut out = Vec::new();
    for (i, u) in sc.units.iter().enumerate() {
        let parent = i as UnitIx;
        if u.components.is_empty()
            || u.side != act.side
            || st.on_map(parent)
            || st.units[i].eliminated
            || act.reform_failed.contains(&parent)
        {
            continue;
        }
        let movable = movable.get_or_insert_with(|| crate::movement::movable(sc, st).0);
        if !u.components.iter().all(|c| movable.contains(c)) {
            continue;
        }
        let comps = u.components.clone();
        let b = budget(sc, st, parent);
        let skirmishing = comps
            .iter()
            .all(|&c| st.units[usize::from(c)].formation == Formation::Skirmish);
        if skirmishing {
            let Some(r) = formation::skirmish_reformation(sc, st, parent, &comps, &b) else {
                continue;
            };
            for hexes in &r.hexes {
                let Some(&h) = hexes.first() else { continue };
                for f in [Formation::Line, Formation::MarchColumn] {
                    if forbidden(sc, h, f) {
                        continue;
                    }
                    let facings: Vec<Facing> = if f.faces_hexside() {
                        Dir::ALL.iter().map(|&d| Facing::Side(d)).collect()
                    } else {
                        Vertex::ALL.iter().map(|&v| Facing::Point(v)).collect()
                    };
                    for fc in facings {
                        out.push(Offer {
                            action: Action::Reform(parent, vec![h], f, fc),
                            need: r.clone(),
                            components: comps.clone(),
                            rule: "8.5c",
                        });
                    }
                }
            }
        } else if let Some(r) = formation::reformation(sc, st, parent, &comps, &b) {
            let c0 = &st.units[usize::from(comps[0])];
            out.push(Offer {
                action: Action::Reform(parent, c0.hexes.to_vec(), c0.formation, c0.facing),
                need: r,
                components: comps,
                rule: "8.5b",
            });
        }
    }
    out
}

/// Whether the TEC forbids formation `f` in hex `h` (8.0).
fn forbidden(sc: &Scenario, h: HexId, f: Formation) -> bool {
    crate::stacking::terrain_row(sc, h).is_none_or(|r| {
        r.no_formation
            .iter()
            .any(|k| k == crate::geom::chart_key(f))
    })
}

/// Make a reformation attempt (8.5b–c): one d100 for all the components, at least the worst
/// (highest) ER of them re-forms the parent with their SPs, free, in the chosen place; a failure
/// changes nothing but forbids another attempt this movement phase.
pub fn apply_reform(sc: &Scenario, st: &mut State, a: &Action, ev: &mut Vec<Event>) -> Phase {
    let Some(o) = reforms(sc, st).into_iter().find(|o| o.action == *a) else {
        return Phase::Movement;
    };
    let Action::Reform(parent, hexes, f, fc) = a else {
        return Phase::Movement;
    };
    let parent = *parent;
    let roll = checks::percentile(st);
    let ok = roll.value() >= o.need.er;
    let pname = &sc.units[usize::from(parent)].name;
    let army = sc.armies[usize::from(sc.units[usize::from(parent)].side)]
        .name
        .clone();
    ev.push(Event::Movement {
        army,
        text: format!(
            "{} try to re-form {pname}: d100 {roll} {} {} (the worst ER of the components) — {}",
            o.components
                .iter()
                .map(|&c| sc.units[usize::from(c)].name.clone())
                .collect::<Vec<_>>()
                .join(", "),
            if ok { "≥" } else { "<" },
            o.need.er,
            if ok {
                format!(
                    "re-formed with {} SP in {}, {} facing {}: free, it may use its full MPs",
                    o.need.sp,
                    hex_list(sc, hexes),
                    f.name(),
                    fc.name()
                )
            } else {
                "it fails: no other attempt this movement phase".into()
            }
        ),
        rule: o.rule.into(),
    });
    if !ok {
        if let Some(act) = st.activation.as_mut() {
            act.reform_failed.push(parent);
        }
        return Phase::Movement;
    }
    let shaken = o
        .components
        .iter()
        .any(|&c| st.units[usize::from(c)].shaken);
    let recovered = o
        .components
        .iter()
        .any(|&c| st.units[usize::from(c)].recovered);
    let order = o
        .components
        .iter()
        .map(|&c| st.units[usize::from(c)].order)
        .min()
        .unwrap_or(st.next_order);
    for &c in &o.components {
        let s = &mut st.units[usize::from(c)];
        s.hexes = Hexes::new();
        s.lost = 0;
        s.shaken = false;
    }
    let printed = sc.units[usize::from(parent)].sp;
    let s = &mut st.units[usize::from(parent)];
    s.hexes = Hexes::from(&hexes[..]);
    s.formation = *f;
    s.facing = *fc;
    s.lost = printed.saturating_sub(o.need.sp);
    s.disordered = false;
    s.shaken = shaken;
    s.routed = false;
    s.eliminated = false;
    s.activated = true;
    s.ooc = false;
    s.recovered = recovered;
    s.order = order;
    s.arrives = None;
    s.entry = None;
    join_activation(st, o.components[0], &[parent]);
    crate::movement::free_change(sc, st, vec![parent], ev)
}

/// The label of a breakdown or reformation action.
pub fn label(sc: &Scenario, st: &State, a: &Action) -> Option<String> {
    let name = |u: UnitIx| sc.units[usize::from(u)].name.clone();
    match a {
        Action::Breakdown(p) => {
            let (_, share) = breakdowns(sc, st).into_iter().find(|x| x.0 == *p)?;
            Some(format!(
                "Break {} down into {} (0 MP, free) (8.5a)",
                name(*p),
                share
                    .iter()
                    .map(|&(c, sp)| format!("{} {sp} SP", name(c)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        Action::Reform(p, hexes, f, fc) => {
            let o = reforms(sc, st).into_iter().find(|o| o.action == *a)?;
            Some(format!(
                "Try to re-form {} ({} SP) from {}: d100 ≥ {} needed (the worst ER), into {} facing {} in {} (0 MP, free) ({})",
                name(*p),
                o.need.sp,
                o.components
                    .iter()
                    .map(|&c| name(c))
                    .collect::<Vec<_>>()
                    .join(", "),
                o.need.er,
                f.name(),
                fc.name(),
                hex_list(sc, hexes),
                o.rule
            ))
        }
        _ => None,
    }
}
