//! Brigade and wing activation (6.3–6.6), attachments (6.4), independents and off-brigade
//! leaders (6.6), limited activation (6.8), and the activation's steps (4.0 C).
use crate::action::Action;
use crate::command::{integrity_groups, top_leader};
use crate::data::LeaderKind;
use crate::event::Event;
use crate::scenario::{BrigadeIx, LeaderIx, Scenario, UnitIx, WingIx};
use crate::state::{Activation, LeaderStatus, Phase, State};

/// Begin the activation of `brigades` (one, or those of a wing activation) by `side`: mark them
/// and their units, bring in arriving reinforcements (22.2–22.3), apply 24.2b; the next phase
/// (placing leaders, then command control).
pub fn begin(
    sc: &Scenario,
    st: &mut State,
    side: u8,
    brigades: Vec<BrigadeIx>,
    wing: Option<WingIx>,
    ev: &mut Vec<Event>,
) -> Phase {
    let limited = st.end_box >= sc.end_boxes
        || brigades
            .iter()
            .any(|&b| st.brigades[usize::from(b)].limited);
    crate::detachments::on_activation(sc, st, side, &brigades, ev);
    let mut act = Activation {
        side,
        brigades: brigades.clone(),
        wing,
        limited,
        ..Activation::default()
    };
    if let Some(w) = wing {
        act.leaders.push(sc.wings[usize::from(w)].leader);
    }
    for &b in &brigades {
        st.brigades[usize::from(b)].activated = true;
        for &u in &sc.brigades[usize::from(b)].units {
            let s = &mut st.units[usize::from(u)];
            if s.eliminated || s.activated {
                continue;
            }
            if !s.hexes.is_empty() && !s.routed {
                s.activated = true;
                act.units.push(u);
            }
        }
    }
    crate::reinforcements::arrive(sc, st, &mut act, ev);
    ev.push(Event::Activates {
        army: sc.armies[usize::from(side)].name.clone(),
        brigades: brigades
            .iter()
            .map(|&b| sc.brigades[usize::from(b)].name.clone())
            .collect(),
        wing: wing.map(|w| sc.wings[usize::from(w)].name.clone()),
        limited,
    });
    st.activation = Some(act);
    crate::leaders::next_placement(sc, st).unwrap_or(Phase::CommandControl)
}

/// Whether a unit belongs to the same part of the army as the activation: a detachment's units
/// only with its brigades, the main army's with the main army's (24.2a).
fn same_part(sc: &Scenario, st: &State, act: &Activation, det: Option<u8>) -> bool {
    let main = |d: Option<u8>| {
        d.is_none_or(|d| st.armies[usize::from(act.side)].reintegrated.contains(&d))
    };
    let act_det = act
        .brigades
        .first()
        .and_then(|b| sc.brigades[usize::from(*b)].detachment);
    if main(act_det) {
        main(det)
    } else {
        det == act_det
    }
}

/// Leaders activated now: the activated brigades' leaders and the off-brigade leaders declared.
pub fn active_leaders(sc: &Scenario, st: &State, act: &Activation) -> Vec<LeaderIx> {
    let mut v: Vec<LeaderIx> = act
        .brigades
        .iter()
        .filter_map(|&b| crate::command::holder(st, sc.brigades[usize::from(b)].leader))
        .collect();
    v.extend(act.leaders.iter().copied());
    v
}

/// The declarations open in the command control phase (6.4, 6.6).
pub fn declarations(sc: &Scenario, st: &State) -> Vec<Action> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // 6.6a: independents of the side, unactivated, on the map, not routed (6.3e).
    for (i, u) in sc.units.iter().enumerate() {
        let s = &st.units[i];
        if u.side == act.side
            && u.brigade.is_none()
            && !s.activated
            && !s.eliminated
            && !s.routed
            && !s.hexes.is_empty()
            && same_part(sc, st, act, u.detachment)
        {
            out.push(Action::Independent(i as UnitIx));
        }
    }
    // 6.6b–c: off-brigade leaders, unfinished, once a turn.
    for (i, l) in sc.leaders.iter().enumerate() {
        let li = i as LeaderIx;
        let s = &st.leaders[i];
        if l.side != act.side
            || s.status != LeaderStatus::Present
            || s.finished
            || act.leaders.contains(&li)
            || l.kind == LeaderKind::Brigade
        {
            continue;
        }
        let part = same_part(sc, st, act, l.detachment);
        if part {
            out.push(Action::Leader(li));
        }
    }
    // 6.4: units of another unactivated brigade stacked with an activated leader, or of his
    // regiment with integrity (6.4c); in a wing activation only from brigades outside it (6.4b).
    let leaders = active_leaders(sc, st, act);
    let hexes: Vec<hexmap::HexId> = leaders
        .iter()
        .filter_map(|&l| st.leaders[usize::from(l)].hex)
        .collect();
    // The integrity groups, and those holding an unactivated unit stacked with an activated
    // leader, found only when a unit not stacked with a leader asks.
    let mut groups: Option<(_, Vec<usize>)> = None;
    let stacked = |u: usize| st.units[u].hexes.iter().any(|h| hexes.contains(h));
    for (i, u) in sc.units.iter().enumerate() {
        let s = &st.units[i];
        let Some(b) = u.brigade else { continue };
        if u.side != act.side
            || s.activated
            || s.eliminated
            || s.routed
            || s.hexes.is_empty()
            || act.brigades.contains(&b)
            || st.brigades[usize::from(b)].activated
            || (act.wing.is_some() && sc.brigades[usize::from(b)].wing == act.wing)
            || !same_part(sc, st, act, u.detachment)
        {
            continue;
        }
        let ok = stacked(i) || {
            let (groups, held) = groups.get_or_insert_with(|| {
                let groups = integrity_groups(sc, st);
                let held: Vec<usize> = (0..sc.units.len())
                    .filter(|&j| stacked(j) && !st.units[j].activated)
                    .filter_map(|j| groups.get(&(j as UnitIx)).copied())
                    .collect();
                (groups, held)
            });
            groups.get(&(i as UnitIx)).is_some_and(|g| held.contains(g))
        };
        if ok {
            out.push(Action::Attach(i as UnitIx));
        }
    }
    out.push(Action::CommandDone);
    out
}

/// Apply a declaration.
pub fn declare(sc: &Scenario, st: &mut State, a: &Action, ev: &mut Vec<Event>) {
    let Some(act) = st.activation.as_mut() else {
        return;
    };
    match a {
        Action::Independent(u) => {
            act.independents.push(*u);
            st.units[usize::from(*u)].activated = true;
            ev.push(Event::Declared {
                rule: "6.6",
                what: "activates the independent unit",
                name: sc.units[usize::from(*u)].name.clone(),
            });
        }
        Action::Leader(l) => {
            act.leaders.push(*l);
            ev.push(Event::Declared {
                rule: "6.6",
                what: "activates the leader",
                name: sc.leaders[usize::from(*l)].name.clone(),
            });
        }
        Action::Attach(u) => {
            act.attached.push(*u);
            st.units[usize::from(*u)].activated = true;
            ev.push(Event::Declared {
                rule: "6.4",
                what: "attaches",
                name: sc.units[usize::from(*u)].name.clone(),
            });
        }
        _ => {}
    }
}

/// The rest of the activation (4.0 C): command status, disorder recovery, then the fire,
/// movement and close combat phases, then its end (6.3d).
pub fn steps(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    crate::command::command_control(sc, st, ev);
    crate::rally::disorder_recovery(sc, st, ev);
    crate::fire::begin(sc, st, ev)
}

/// After the movement phase: close combat, then the activation ends (4.0 C); the next phase.
pub fn after_movement(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Phase {
    crate::close_combat::begin(sc, st, ev)
}

/// End the activation: flip its leaders, FINISHED markers stay on its units for the turn, command
/// effects end (6.3d, 7.6f).
pub fn end(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) {
    let Some(act) = st.activation.take() else {
        return;
    };
    for l in active_leaders(sc, st, &act) {
        st.leaders[usize::from(l)].finished = true;
    }
    crate::flow::update_holders(sc, st);
    for u in st.units.iter_mut() {
        u.ooc = false;
    }
    for l in st.leaders.iter_mut() {
        l.ooc = false;
    }
    let _ = top_leader;
    ev.push(Event::ActivationEnds {
        army: sc.armies[usize::from(act.side)].name.clone(),
    });
}
