//! Detachments (24): activation limits (24.2) and reintegration (24.3).
use crate::command::{Style, army_leader, loc_to};
use crate::event::Event;
use crate::scenario::{BrigadeIx, Scenario};
use crate::state::{Job, LeaderStatus, State};

/// 24.2b: once a brigade of a detachment has been activated, if the same player's next activation
/// is not for another brigade of that detachment, its other brigades get only limited activations
/// for the rest of the turn (an activation forced on him counts too, A62).
pub fn on_activation(
    sc: &Scenario,
    st: &mut State,
    side: u8,
    brigades: &[BrigadeIx],
    ev: &mut Vec<Event>,
) {
    let det_of = |b: BrigadeIx| {
        sc.brigades[usize::from(b)]
            .detachment
            .filter(|d| !st.armies[usize::from(side)].reintegrated.contains(d))
    };
    let now = brigades.first().and_then(|&b| det_of(b));
    if let Some(prev) = st.armies[usize::from(side)].last_detachment
        && now != Some(prev)
    {
        let mut names = Vec::new();
        for &b in &sc.detachments[usize::from(prev)].brigades {
            let s = &mut st.brigades[usize::from(b)];
            if !s.activated && !s.limited {
                s.limited = true;
                names.push(sc.brigades[usize::from(b)].name.clone());
            }
        }
        if !names.is_empty() {
            ev.push(Event::Limited {
                rule: "24.2b",
                what: format!(
                    "{} of detachment {} for the rest of the turn",
                    names.join(", "),
                    sc.detachments[usize::from(prev)].name
                ),
            });
        }
    }
    st.armies[usize::from(side)].last_detachment = now;
}

/// 24.3a: in the rally phase a detachment may rejoin if the army leader traces a LOC to its
/// leader; queue the offer for each such detachment of the side.
pub fn offer_reintegration(sc: &Scenario, st: &mut State, side: u8) {
    let Some(a) = army_leader(sc, st, side) else {
        return;
    };
    for (i, d) in sc.detachments.iter().enumerate() {
        let di = i as u8;
        if d.side != side
            || st.armies[usize::from(side)].reintegrated.contains(&di)
            || st.leaders[usize::from(d.leader)].status != LeaderStatus::Present
        {
            continue;
        }
        let Some(h) = st.leaders[usize::from(d.leader)].hex else {
            continue;
        };
        if loc_to(sc, st, a, Style::ArmyWing, &[h]).is_some() {
            st.jobs.push(Job::Reintegrate {
                side,
                detachment: di,
            });
        }
    }
}
