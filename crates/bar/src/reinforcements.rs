//! Reinforcements (22.1–22.3): units arrive with their brigade's activation on or after their turn,
//! in command on arrival. Entering the map (22.4): arriving units are placed on their entry hex
//! when it is free of enemies and their ZOC and they make a legal stack there (10.1), and pay its
//! terrain cost out of their full MA when they move (`movement::entry_cost`). Units that would
//! not make a legal stack wait for a later activation, so the k-th stack's k-fold cost of 22.4
//! never arises (docs/bar.md, 22.4).
use crate::command::ezoc;
use crate::event::Event;
use crate::scenario::Scenario;
use crate::state::Hexes;
use crate::state::{Activation, LeaderStatus, State};

/// Bring in the units of the activated brigades whose turn has come (22.2, 22.3).
pub fn arrive(sc: &Scenario, st: &mut State, act: &mut Activation, ev: &mut Vec<Event>) {
    for r in &sc.reinforcements {
        if r.turn > st.turn {
            continue;
        }
        let mut arrived = Vec::new();
        for &u in &r.units {
            let s = &st.units[usize::from(u)];
            let Some(b) = sc.units[usize::from(u)].brigade else {
                continue;
            };
            if s.arrives.is_none() || !act.brigades.contains(&b) {
                continue;
            }
            // 22.4: no entry through an edge hex in an EZOC or held by the enemy.
            if ezoc(sc, st, act.side, r.hex)
                || crate::checks::enemy_in(sc, st, act.side, r.hex, true)
            {
                continue;
            }
            // 22.4: "they must observe stacking and formation requirements": a unit that would
            // make an illegal stack on the entry hex waits for a later activation.
            let before = st.units[usize::from(u)].hexes;
            st.units[usize::from(u)].hexes = Hexes::one(r.hex);
            if crate::stacking::legal_at(sc, st, r.hex).is_err() {
                st.units[usize::from(u)].hexes = before;
                continue;
            }
            let s = &mut st.units[usize::from(u)];
            s.arrives = None;
            s.activated = true;
            act.arriving.push(u);
            arrived.push(sc.units[usize::from(u)].name.clone());
        }
        if !arrived.is_empty() {
            for &l in &r.leaders {
                let ls = &mut st.leaders[usize::from(l)];
                if ls.status == LeaderStatus::Waiting && ls.hex.is_none() {
                    ls.status = LeaderStatus::Present;
                    ls.hex = Some(r.hex);
                    arrived.push(sc.leaders[usize::from(l)].name.clone());
                }
            }
            ev.push(Event::Arrive {
                units: arrived,
                hex: sc.board.label(r.hex),
                rule: if r.units.iter().all(|&u| {
                    let b = sc.units[usize::from(u)].brigade;
                    b.is_some_and(|b| {
                        sc.brigades[usize::from(b)]
                            .units
                            .iter()
                            .all(|x| r.units.contains(x))
                    })
                }) {
                    "22.2"
                } else {
                    "22.3"
                },
            });
        }
    }
}
