//! Disorder recovery (18.6) and the rally phase (4.0 D, 19.5).
use crate::action::Action;
use crate::checks::{self, Spec, d10};
use crate::event::Event;
use crate::geom::FacingExt as _;
use crate::scenario::{Scenario, Skirmish, UnitIx};
use crate::state::{Job, LeaderStatus, State};

/// Stacks (units sharing the same hexes) among `units`, top unit first in each.
pub fn stacks(st: &State, units: &[UnitIx]) -> Vec<Vec<UnitIx>> {
    let mut out: Vec<(crate::state::Hexes, Vec<UnitIx>)> = Vec::new();
    let mut v = units.to_vec();
    v.sort_by_key(|&u| st.units[usize::from(u)].order);
    for u in v {
        let h = st.units[usize::from(u)].hexes;
        match out.iter_mut().find(|(x, _)| *x == h) {
            Some((_, s)) => s.push(u),
            None => out.push((h, vec![u])),
        }
    }
    out.into_iter().map(|(_, s)| s).collect()
}

/// Whether a friendly leader is on any of the unit's hexes (18.6b).
fn leader_with(sc: &Scenario, st: &State, u: UnitIx) -> Option<String> {
    let side = sc.units[usize::from(u)].side;
    let hexes = &st.units[usize::from(u)].hexes;
    sc.leaders.iter().enumerate().find_map(|(i, l)| {
        (l.side == side
            && st.leaders[i].status == LeaderStatus::Present
            && st.leaders[i].hex.is_some_and(|h| hexes.contains(&h)))
        .then(|| l.name.clone())
    })
}

/// The disorder recovery step of an activation (18.6): each activated disordered stack not yet
/// tried this turn recovers with a leader (18.6b) or by a DC (G) (18.6c; 00–09 not special, 18.6d).
pub fn disorder_recovery(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) {
    let units: Vec<UnitIx> = (0..sc.units.len() as UnitIx)
        .filter(|&u| {
            let s = &st.units[usize::from(u)];
            s.activated
                && s.disordered
                && !s.recovered
                && !s.eliminated
                && !s.routed
                && !s.hexes.is_empty()
        })
        // 18.6a: only units of this activation, not those activated earlier in the turn (6.3c).
        .filter(|&u| st.activation.as_ref().is_some_and(|a| a.includes(u)))
        .collect();
    for stack in stacks(st, &units) {
        for &u in &stack {
            st.units[usize::from(u)].recovered = true;
        }
        if let Some(leader) = leader_with(sc, st, stack[0]) {
            for &u in &stack {
                st.units[usize::from(u)].disordered = false;
            }
            ev.push(Event::Recovered {
                units: stack
                    .iter()
                    .map(|&u| sc.units[usize::from(u)].name.clone())
                    .collect(),
                leader,
            });
            continue;
        }
        let mut o = checks::roll(sc, st, &stack, Spec::dc('G', "Disorder recovery", "18.6c"));
        if o.passed {
            for &u in &stack {
                st.units[usize::from(u)].disordered = false;
            }
            o.event.result = "back in order".into();
        } else {
            o.event.result = "stays disordered".into();
        }
        ev.push(Event::Check(o.event));
    }
}

/// A second recovery for a side's disordered units stacked with a leader (an initiative special
/// result, 18.6a).
pub fn recover_with_leaders(
    sc: &Scenario,
    st: &mut State,
    side: u8,
    rule: &'static str,
    ev: &mut Vec<Event>,
) {
    let units: Vec<UnitIx> = (0..sc.units.len() as UnitIx)
        .filter(|&u| {
            let s = &st.units[usize::from(u)];
            sc.units[usize::from(u)].side == side
                && s.disordered
                && !s.eliminated
                && !s.hexes.is_empty()
        })
        .collect();
    for stack in stacks(st, &units) {
        if let Some(leader) = leader_with(sc, st, stack[0]) {
            for &u in &stack {
                st.units[usize::from(u)].disordered = false;
            }
            let _ = rule;
            ev.push(Event::Recovered {
                units: stack
                    .iter()
                    .map(|&u| sc.units[usize::from(u)].name.clone())
                    .collect(),
                leader,
            });
        }
    }
}

/// Roll the rally order (4.0 D): each side a d10, the higher rallies first; a tie is rolled again
/// (A54).
pub fn order(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) -> Vec<u8> {
    loop {
        let dice = [d10(st), d10(st)];
        let first = match dice[0].cmp(&dice[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        ev.push(Event::RallyOrder {
            armies: [sc.armies[0].name.clone(), sc.armies[1].name.clone()],
            dice,
            first,
        });
        if let Some(f) = first {
            return vec![f, 1 - f];
        }
    }
}

/// One side's rally (19.5): a MC (I) for each shaken stack, then for each routed unit; failures
/// rout again; the facing of rallied units and detachment reintegration are queued as jobs.
pub fn rally_side(sc: &Scenario, st: &mut State, side: u8, ev: &mut Vec<Event>) {
    let mine = |st: &State, f: &dyn Fn(&crate::state::UnitState) -> bool| -> Vec<UnitIx> {
        (0..sc.units.len() as UnitIx)
            .filter(|&u| {
                let s = &st.units[usize::from(u)];
                sc.units[usize::from(u)].side == side
                    && !s.eliminated
                    && !s.hexes.is_empty()
                    && f(s)
            })
            .collect()
    };
    // 19.5a: shaken stacks.
    let shaken = mine(st, &|s| s.shaken && !s.routed);
    for stack in stacks(st, &shaken) {
        let mut o = checks::roll(sc, st, &stack, Spec::mc('I', "Rally", "19.5a"));
        if o.passed {
            for &u in &stack {
                st.units[usize::from(u)].shaken = false;
            }
            o.event.result = "good morale again (disorder stays)".into();
        } else {
            o.event.result = "stays shaken".into();
        }
        ev.push(Event::Check(o.event));
    }
    // 19.5b: routed units, each on its own.
    let routed = mine(st, &|s| s.routed);
    let rolls: Vec<(UnitIx, checks::Outcome)> = routed
        .iter()
        .map(|&u| {
            (
                u,
                checks::roll(sc, st, &[u], Spec::mc('I', "Rally", "19.5b")),
            )
        })
        .collect();
    // 19.5b, e: a skirmish-capable unit rallies in skirmish order unless a unit that cannot
    // skirmish rallies in its hex: then it keeps their one formation (10.1d–e, docs/bar.md).
    let cannot_skirmish_rallied = |u: UnitIx| {
        rolls.iter().any(|&(v, ref o)| {
            o.passed
                && v != u
                && sc.units[usize::from(v)].skirmish == Skirmish::No
                && st.units[usize::from(v)].hexes == st.units[usize::from(u)].hexes
        })
    };
    let alone: Vec<bool> = rolls
        .iter()
        .map(|&(u, _)| !cannot_skirmish_rallied(u))
        .collect();
    let mut failed: Vec<UnitIx> = Vec::new();
    for ((u, mut o), alone) in rolls.into_iter().zip(alone) {
        if o.passed {
            // 8.4k, 19.5e: a single-hex formation; a road column too long for one hex becomes a
            // march column (its facing kept, then chosen anew below).
            let one_hex =
                crate::formation::lengths(sc, st, &[u], st.units[usize::from(u)].formation)
                    .contains(&1);
            // 10.11a: nor does a road column stay one where other units stand (docs/bar.md, 19.5e).
            let shared = st.units.iter().enumerate().any(|(i, s)| {
                i != usize::from(u)
                    && !s.eliminated
                    && s.hexes == st.units[usize::from(u)].hexes
                    && sc.units[i].side == sc.units[usize::from(u)].side
            });
            let s = &mut st.units[usize::from(u)];
            if (!one_hex || shared) && s.formation == crate::geom::Formation::RoadColumn {
                s.formation = crate::geom::Formation::MarchColumn;
            }
            s.routed = false;
            s.shaken = true;
            let skirmisher = sc.units[usize::from(u)].skirmish == Skirmish::Only
                || (sc.units[usize::from(u)].skirmish == Skirmish::Capable && alone);
            s.disordered = !skirmisher;
            if skirmisher {
                s.formation = crate::geom::Formation::Skirmish;
                // Skirmish order faces a hexpoint; its owner picks which next (19.5e).
                if let crate::geom::Facing::Side(d) = s.facing {
                    s.facing = crate::geom::Facing::Point(d.vertices()[0]);
                }
            }
            o.event.result = if skirmisher {
                "rallies: shaken, in skirmish order (19.5b)".into()
            } else {
                "rallies: shaken and disordered".into()
            };
            ev.push(Event::Check(o.event));
            into_stack(sc, st, u);
            st.jobs.push(Job::Face(u));
        } else {
            // 19.5c: below the printed ER, one SP more.
            let below = o.roll.value() < sc.units[usize::from(u)].er;
            o.event.result = if below {
                format!(
                    "{} < printed ER {}: −1 SP and rout retreat (19.5c)",
                    o.roll.value(),
                    sc.units[usize::from(u)].er
                )
            } else {
                "rout retreat (19.5c)".into()
            };
            ev.push(Event::Check(o.event));
            if below {
                crate::retreat::lose(
                    sc,
                    st,
                    u,
                    1,
                    "failed rally below its printed ER",
                    "19.5c",
                    ev,
                );
            }
            if !st.units[usize::from(u)].eliminated {
                failed.push(u);
            }
        }
    }
    // 19.5d: units of a stack that fail retreat together.
    for stack in stacks(st, &failed) {
        let from = crate::retreat::nearest_enemies(sc, st, stack[0]);
        st.jobs.push(Job::Rout { units: stack, from });
    }
    crate::detachments::offer_reintegration(sc, st, side);
}

/// The other units of `u`'s side in its hexes that are no longer routed, and whether each still
/// waits for its own choice of formation and facing (19.5e: `Job::Face`).
fn rallied_friends(sc: &Scenario, st: &State, u: UnitIx) -> Vec<(UnitIx, bool)> {
    let me = &st.units[usize::from(u)];
    let side = sc.units[usize::from(u)].side;
    st.units
        .iter()
        .enumerate()
        .filter(|&(i, s)| {
            i != usize::from(u)
                && !s.eliminated
                && !s.routed
                && s.hexes == me.hexes
                && sc.units[i].side == side
        })
        .map(|(i, _)| {
            let v = i as UnitIx;
            let waiting = st.jobs.iter().any(|j| matches!(j, Job::Face(w) if *w == v));
            (v, waiting)
        })
        .collect()
}

/// 19.5e with 10.1d–e: until its owner chooses, a rallied unit stands in the formation and facing
/// of the friends that rallied in its hex before it (a formation it may take), so that two units
/// that routed into one hex from a road column and a march column never stand as an illegal stack
/// (docs/bar.md, 19.5e).
fn into_stack(sc: &Scenario, st: &mut State, u: UnitIx) {
    let theirs = rallied_friends(sc, st, u).into_iter().find_map(|(v, _)| {
        let s = &st.units[usize::from(v)];
        (!crate::movement::compatible(&st.units[usize::from(u)], s)
            && formations(sc, st, u).contains(&s.formation))
        .then_some((s.formation, s.facing))
    });
    if let Some((f, facing)) = theirs {
        st.units[usize::from(u)].formation = f;
        st.units[usize::from(u)].facing = facing;
    }
}

/// The formations a rallied unit may adopt (8.2d, 8.4k, 19.5e): any single-hex formation valid
/// for its type and allowed by the terrain of its hex (8.0, T1 `no_formation`) — line, attack
/// column, march column, square (infantry), road column (4 SP or fewer: one hex, 8.1f; alone in
/// its hex, 10.11). Not the
/// hook (8.4j: only a line forms it), nor general order (8.4i) except where the terrain requires
/// it of infantry: there it is the only one. A skirmisher (19.5b: the rally put it in skirmish
/// order) stays one; guns (8.4k is for infantry and cavalry) keep their formation.
pub fn formations(sc: &Scenario, st: &State, u: UnitIx) -> Vec<crate::geom::Formation> {
    use crate::geom::Formation as F;
    let s = &st.units[usize::from(u)];
    let unit = &sc.units[usize::from(u)];
    let keep = vec![s.formation];
    if s.formation == F::Skirmish || unit.skirmish == Skirmish::Only {
        return vec![F::Skirmish];
    }
    let row = s
        .hexes
        .first()
        .and_then(|&h| crate::stacking::terrain_row(sc, h));
    match unit.arm {
        crate::data::Arm::Artillery => return keep,
        crate::data::Arm::Infantry if row.is_some_and(|r| r.general_order) => {
            return vec![F::GeneralOrder];
        }
        crate::data::Arm::Infantry | crate::data::Arm::Cavalry => {}
    }
    let shared = st.units.iter().enumerate().any(|(i, o)| {
        i != usize::from(u) && !o.eliminated && o.hexes == s.hexes && sc.units[i].side == unit.side
    });
    let out: Vec<F> = [
        F::Line,
        F::AttackColumn,
        F::MarchColumn,
        F::Square,
        F::RoadColumn,
    ]
    .into_iter()
    .filter(|&f| {
        // 10.11: a road column shares its hex only by the road column stacking rules; a
        // rallied one stands alone.
        (f != F::RoadColumn || !shared)
            && crate::formation::lengths(sc, st, &[u], f).contains(&1)
            && !row.is_some_and(|r| {
                r.no_formation
                    .iter()
                    .any(|k| k == crate::geom::chart_key(f))
            })
    })
    .collect();
    if out.is_empty() { keep } else { out }
}

/// The owner's choices for a rallied unit (19.5e): each formation of [`formations`] with each
/// facing valid for it — `face:` for the formation it stands in, `adopt:` for another. Where
/// friends that rallied in its hex have already chosen, only what keeps the stack legal (10.1d–e,
/// `movement::compatible`), if any choice does.
pub fn choices(sc: &Scenario, st: &State, u: UnitIx) -> Vec<Action> {
    let now = st.units[usize::from(u)].formation;
    let all: Vec<(crate::geom::Formation, crate::geom::Facing)> = formations(sc, st, u)
        .into_iter()
        .flat_map(|f| {
            // A square fires all round (12.2g): one choice, its facing kept where it can be.
            let xs = match (f, st.units[usize::from(u)].facing) {
                (crate::geom::Formation::Square, x @ crate::geom::Facing::Point(_)) => vec![x],
                (crate::geom::Formation::Square, crate::geom::Facing::Side(d)) => {
                    vec![crate::geom::Facing::Point(d.vertices()[0])]
                }
                _ => crate::flow::facings(f),
            };
            xs.into_iter().map(move |x| (f, x))
        })
        .collect();
    let settled: Vec<UnitIx> = rallied_friends(sc, st, u)
        .into_iter()
        .filter_map(|(v, waiting)| (!waiting).then_some(v))
        .collect();
    let fits = |&(f, x): &(crate::geom::Formation, crate::geom::Facing)| {
        let mut me = st.units[usize::from(u)].clone();
        me.formation = f;
        me.facing = x;
        settled
            .iter()
            .all(|&v| crate::movement::compatible(&me, &st.units[usize::from(v)]))
    };
    let legal: Vec<_> = all.iter().copied().filter(fits).collect();
    let chosen = if legal.is_empty() { all } else { legal };
    chosen
        .into_iter()
        .map(|(f, x)| {
            if f == now {
                Action::Face(x)
            } else {
                Action::Adopt(f, x)
            }
        })
        .collect()
}

/// A rallied unit adopts `formation` and `facing` (19.5e); the friends that rallied in its hex
/// and still wait for their choice and may take the same adopt it with it, as one stack (10.1d).
pub fn adopt(
    sc: &Scenario,
    st: &mut State,
    u: UnitIx,
    formation: crate::geom::Formation,
    facing: crate::geom::Facing,
    ev: &mut Vec<Event>,
) {
    let mut with = vec![u];
    for (v, waiting) in rallied_friends(sc, st, u) {
        if waiting
            && sc.units[usize::from(v)].arm == sc.units[usize::from(u)].arm
            && formations(sc, st, v).contains(&formation)
        {
            with.push(v);
        }
    }
    for &v in &with {
        let s = &mut st.units[usize::from(v)];
        s.formation = formation;
        s.facing = facing;
        ev.push(Event::Faces {
            unit: sc.units[usize::from(v)].name.clone(),
            formation: formation.name().to_string(),
            facing: facing.name().to_string(),
        });
    }
    st.jobs
        .retain(|j| !matches!(j, Job::Face(v) if with.contains(v) && *v != u));
}
