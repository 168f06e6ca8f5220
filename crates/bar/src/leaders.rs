//! Leaders (21): casualties (21.4), replacement and return (21.5), leaders without command (21.7).
use crate::charts::LeaderLossResult;
use crate::checks::d10;
use crate::data::LeaderKind;
use crate::event::Event;
use crate::scenario::{LeaderIx, Scenario, UnitIx};
use crate::state::{LeaderStatus, Phase, State};

/// What caused a leader loss check (21.4a, d).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A fire special result: a wound is a wound (21.4b–c).
    Fire,
    /// A close combat or morale check special result: a wound kills (21.4d).
    CloseCombatOrMorale,
}

/// Roll on the Leader Loss Table (T18) for a leader (21.4).
pub fn loss_check(sc: &Scenario, st: &mut State, l: LeaderIx, cause: Cause, ev: &mut Vec<Event>) {
    let die = d10(st);
    let r = sc.charts.command.leader_loss(die);
    let name = sc.leaders[usize::from(l)].name.clone();
    let text = match r {
        LeaderLossResult::Unhurt => "unhurt".to_string(),
        LeaderLossResult::Killed => {
            kill(sc, st, l);
            "killed (21.4b)".into()
        }
        LeaderLossResult::Wounded if cause == Cause::CloseCombatOrMorale => {
            kill(sc, st, l);
            "wounded in close combat or by a morale result: killed (21.4d)".into()
        }
        LeaderLossResult::Wounded if st.leaders[usize::from(l)].wounded_once => {
            kill(sc, st, l);
            "wounded a second time: killed (21.4c)".into()
        }
        LeaderLossResult::Wounded => {
            // 21.4c: the die halved, rounded (1.5b); at least one turn (A57).
            let turns = u16::from(die.div_ceil(2)).max(1);
            let s = &mut st.leaders[usize::from(l)];
            s.wounded_once = true;
            s.status = LeaderStatus::Wounded(st.turn + turns);
            s.hex = None;
            appoint_deputy(sc, st, l);
            format!("wounded, away {turns} turn(s) (21.4c)")
        }
    };
    ev.push(Event::LeaderLoss {
        leader: name,
        die,
        result: text,
    });
}

/// A leader is killed: off the map for good, his loss points count (21.4b); his replacement is
/// appointed (21.5).
pub fn kill(sc: &Scenario, st: &mut State, l: LeaderIx) {
    let s = &mut st.leaders[usize::from(l)];
    s.status = LeaderStatus::Killed;
    s.hex = None;
    appoint_deputy(sc, st, l);
}

/// 21.5a: a waiting replacement named for this leader takes his post, placed at the next
/// activation (21.5c).
fn appoint_deputy(sc: &Scenario, st: &mut State, l: LeaderIx) {
    if st.leaders[usize::from(l)].deputy.is_some() {
        return;
    }
    if let Some(r) =
        sc.leaders.iter().enumerate().position(|(i, x)| {
            x.replaces == Some(l) && st.leaders[i].status == LeaderStatus::Waiting
        })
    {
        st.leaders[usize::from(l)].deputy = Some(r as LeaderIx);
        st.leaders[r].to_place = true;
    }
}

/// At the start of a turn, wounded leaders whose absence is over wait to return (21.5d).
pub fn wounds_heal(st: &mut State) {
    let turn = st.turn;
    for s in st.leaders.iter_mut() {
        if let LeaderStatus::Wounded(t) = s.status
            && t <= turn
        {
            s.status = LeaderStatus::Waiting;
            s.to_place = true;
        }
    }
}

/// The post a leader fills: his own, or the one he replaces.
fn post(sc: &Scenario, l: LeaderIx) -> LeaderIx {
    sc.leaders[usize::from(l)].replaces.unwrap_or(l)
}

/// The units a leader waiting to be placed may be put on in this activation (21.5c–e): a brigade
/// leader on an activated non-routed unit of his brigade when his brigade is activated; an
/// off-brigade leader on any non-routed friendly unit with any activation.
pub fn placements(sc: &Scenario, st: &State, l: LeaderIx) -> Vec<UnitIx> {
    let Some(act) = &st.activation else {
        return Vec::new();
    };
    let p = post(sc, l);
    let pl = &sc.leaders[usize::from(p)];
    if pl.side != act.side {
        return Vec::new();
    }
    let units: Vec<UnitIx> = match (pl.kind, pl.brigade) {
        (LeaderKind::Brigade, Some(b)) => {
            if !act.brigades.contains(&b) {
                return Vec::new();
            }
            sc.brigades[usize::from(b)]
                .units
                .iter()
                .copied()
                .filter(|&u| {
                    let s = &st.units[usize::from(u)];
                    s.activated && !s.routed && !s.eliminated && !s.hexes.is_empty()
                })
                .collect()
        }
        _ => (0..sc.units.len() as UnitIx)
            .filter(|&u| {
                let s = &st.units[usize::from(u)];
                sc.units[usize::from(u)].side == act.side
                    && !s.routed
                    && !s.eliminated
                    && !s.hexes.is_empty()
            })
            .collect(),
    };
    units
}

/// The next leader to place in this activation, if any (21.5c).
pub fn next_placement(sc: &Scenario, st: &State) -> Option<Phase> {
    (0..sc.leaders.len() as LeaderIx)
        .find(|&l| st.leaders[usize::from(l)].to_place && !placements(sc, st, l).is_empty())
        .map(|leader| Phase::PlaceLeader { leader })
}

/// Place a leader on a unit (21.5e); a returning leader sends his replacement away (21.5d).
pub fn place(sc: &Scenario, st: &mut State, l: LeaderIx, u: UnitIx, ev: &mut Vec<Event>) {
    let Some(&h) = st.units[usize::from(u)].hexes.first() else {
        return;
    };
    let s = &mut st.leaders[usize::from(l)];
    s.status = LeaderStatus::Present;
    s.hex = Some(h);
    s.to_place = false;
    let what;
    if let Some(d) = st.leaders[usize::from(l)].deputy.take() {
        let ds = &mut st.leaders[usize::from(d)];
        ds.status = LeaderStatus::Waiting;
        ds.hex = None;
        ds.to_place = false;
        what = format!(
            "returns from his wound, {} steps down,",
            sc.leaders[usize::from(d)].name
        );
    } else if let Some(p) = sc.leaders[usize::from(l)].replaces {
        what = format!("takes over from {}", sc.leaders[usize::from(p)].name);
    } else {
        what = "returns".into();
    }
    ev.push(Event::LeaderPlaced {
        leader: sc.leaders[usize::from(l)].name.clone(),
        hex: sc.board.label(h),
        what,
    });
}

/// 21.7: a wing or brigade leader all of whose subordinate units are eliminated is removed, with
/// no army morale points.
pub fn without_command(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) {
    for (i, l) in sc.leaders.iter().enumerate() {
        if st.leaders[i].status != LeaderStatus::Present {
            continue;
        }
        let units: Vec<UnitIx> = match (l.kind, l.brigade, l.wing) {
            (LeaderKind::Brigade, Some(b), _) => sc.brigades[usize::from(b)].units.clone(),
            (LeaderKind::Wing, _, Some(w)) => sc.wings[usize::from(w)]
                .brigades
                .iter()
                .flat_map(|&b| sc.brigades[usize::from(b)].units.iter().copied())
                .collect(),
            _ => continue,
        };
        if !units.is_empty() && units.iter().all(|&u| st.units[usize::from(u)].eliminated) {
            st.leaders[i].status = LeaderStatus::Removed;
            st.leaders[i].hex = None;
            ev.push(Event::LeaderRemoved {
                leader: l.name.clone(),
                why: "is removed: all his units are eliminated, no loss points (21.7)".into(),
            });
        }
    }
}
