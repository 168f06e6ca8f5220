//! Stacking (10.0): the stacking order (10.6: the top unit tests for a stack, 18.7a, 19.4a), kept
//! as each unit's `order`; whether the units in a hex form a legal stack at the end of movement
//! (10.1–10.4, 10.6d–e, 10.11); interpenetration (10.7); the automatic contraction of a stack's
//! remainder after a separation (10.8d); a stack's worst state (10.10).
//!
//! The readings the book leaves open are the table of `docs/bar-formations.md`.
use crate::charts::TerrainRow;
use crate::checks::current_sp;
use crate::data::Arm;
use crate::formation::{lengths, sp_at};
use crate::geom::{Formation, footprint_of};
use crate::scenario::{Scenario, UnitIx};
use crate::state::Hexes;
use crate::state::State;
use hexmap::{End, HexId, Printed};

/// Why the units in a hex are not a legal stack.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StackError {
    /// Opposing units in one hex (10.1b).
    #[error("opposing units in {0} (10.1b)")]
    Enemy(HexId),
    /// Routed and non-routed units together (10.1f).
    #[error("routed and non-routed units together in {0} (10.1f)")]
    Routed(HexId),
    /// Cavalry with infantry or artillery (10.2a, 10.3a, 10.4a).
    #[error("cavalry stacked with infantry or artillery in {0} (10.2a)")]
    Cavalry(HexId),
    /// Units of a stack on different hexes (10.1d: "the same hexes" for multi-hex formations).
    #[error("units of the stack in {0} occupy different hexes (10.1d)")]
    Hexes(HexId),
    /// Different facings (10.1d).
    #[error("units of the stack in {0} face differently (10.1d)")]
    Facing(HexId),
    /// Different formations (10.1e, 10.4b–c).
    #[error("units of the stack in {0} are in different formations (10.1e)")]
    Formation(HexId),
    /// Infantry with limbered artillery not in march column on its facing (10.3e, 10.4b).
    #[error(
        "infantry with limbered artillery in {0} must be in march column with its facing (10.3e)"
    )]
    Limbered(HexId),
    /// Infantry with unlimbered artillery not in line, hook, attack column or square, or not on
    /// its facing (10.3d, 10.4c).
    #[error(
        "infantry with unlimbered artillery in {0} must be in line, hook, attack column or square with its facing (10.3d)"
    )]
    Unlimbered(HexId),
    /// A multi-hex road column of several units not of one regiment (10.11a).
    #[error("a multi-hex road column stack in {0} must be of one regiment (10.11a)")]
    RoadColumn(HexId),
    /// More SPs than the TEC allows (10.1c; artillery counting 4 an SP with infantry and in road
    /// column, 10.4g).
    #[error("{sp} {what} SP in {hex}, the TEC allows {limit} (10.1c)")]
    Limit {
        /// The hex.
        hex: HexId,
        /// What is counted ("infantry", "road column"…).
        what: &'static str,
        /// SPs counted.
        sp: u16,
        /// The limit.
        limit: u8,
    },
    /// Artillery not on top of a square (10.6d).
    #[error("artillery with the square in {0} must be the top of the stack (10.6d)")]
    SquareOrder(HexId),
    /// Artillery between the infantry units of a line, hook or attack column (10.6e).
    #[error("artillery in {0} is between infantry units of the stack (10.6e)")]
    Order(HexId),
}

impl StackError {
    /// The rule it breaks.
    pub fn rule(&self) -> &'static str {
        match self {
            StackError::Enemy(_) => "10.1b",
            StackError::Routed(_) => "10.1f",
            StackError::Cavalry(_) => "10.2a",
            StackError::Hexes(_) | StackError::Facing(_) => "10.1d",
            StackError::Formation(_) => "10.1e",
            StackError::Limbered(_) => "10.3e",
            StackError::Unlimbered(_) => "10.3d",
            StackError::RoadColumn(_) => "10.11a",
            StackError::Limit { .. } => "10.1c",
            StackError::SquareOrder(_) => "10.6d",
            StackError::Order(_) => "10.6e",
        }
    }
}

/// The TEC row of a hex (its map terrain; clear when the board has none for it).
pub fn terrain_row(sc: &Scenario, h: HexId) -> Option<&TerrainRow> {
    sc.board.tec_row_or_clear(h)
}

/// The combat units in a hex (not eliminated), in stacking order (top first, 10.6).
pub fn units_at(st: &State, h: HexId) -> Vec<UnitIx> {
    units_at_in(st, h)
}

/// [`units_at`] in any list.
fn units_at_in<C>(st: &State, h: HexId) -> C
where
    C: FromIterator<UnitIx> + std::ops::DerefMut<Target = [UnitIx]>,
{
    let mut v: C = st
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| !u.eliminated && u.hexes.contains(&h))
        .map(|(i, _)| i as UnitIx)
        .collect();
    v.sort_by_key(|&u| (st.units[usize::from(u)].order, u));
    v
}

fn arm(sc: &Scenario, u: UnitIx) -> Arm {
    sc.units[usize::from(u)].arm
}

/// The SPs a group of units puts in hex `h` of its footprint: its layout's entry (8.1a, 8.1f),
/// or an even share when the layout does not hold.
fn sp_in(sc: &Scenario, st: &State, units: &[UnitIx], h: HexId) -> u16 {
    let Some(&u0) = units.first() else {
        return 0;
    };
    let us = &st.units[usize::from(u0)];
    let n = us.hexes.len().max(1);
    let i = us.hexes.iter().position(|&x| x == h).unwrap_or(0);
    match sp_at(sc, st, units, us.formation, n, i) {
        Some(x) => u16::from(x),
        None => {
            let total: u16 = units
                .iter()
                .map(|&u| u16::from(current_sp(sc, st, u)))
                .sum();
            let (base, extra) = (total / n as u16, total % n as u16);
            base + u16::from((i as u16) < extra)
        }
    }
}

/// Whether the units now in hex `h` form a legal stack at the end of movement: one side (10.1b),
/// not routed and unrouted together (10.1f), cavalry alone (10.2a, 10.3a, 10.4a), the same hexes
/// (10.1d), facing and formation (10.1d–e), infantry with limbered guns in march column and with
/// unlimbered guns in line, hook, attack column or square on their facing (10.3d–e, 10.4b–c; any
/// facing with a square), a multi-hex road column stack of one regiment (10.11a), the TEC's SP
/// limits (10.1c; an artillery SP counts 4 with infantry and in road column, 10.4g; guns with a
/// multi-hex line count in each of its hexes, 10.4d) and the artillery's place in the stacking
/// order (10.6d–e). Leaders never count (10.5b).
pub fn legal_at(sc: &Scenario, st: &State, h: HexId) -> Result<(), StackError> {
    // Kept inline: a hex rarely holds more than 16 units.
    let v: tinyvec::TinyVec<[UnitIx; 16]> = units_at_in(st, h);
    legal_units(sc, st, h, &v)
}

/// [`legal_at`] for `units`, the units now in `h` in stacking order (as [`units_at`] lists them),
/// when the caller already knows them.
pub fn legal_units(
    sc: &Scenario,
    st: &State,
    h: HexId,
    units: &[UnitIx],
) -> Result<(), StackError> {
    let Some(&u0) = units.first() else {
        return Ok(());
    };
    let side = sc.units[usize::from(u0)].side;
    let us = |u: UnitIx| &st.units[usize::from(u)];
    if units.iter().any(|&u| sc.units[usize::from(u)].side != side) {
        return Err(StackError::Enemy(h));
    }
    if units.iter().any(|&u| us(u).routed) && units.iter().any(|&u| !us(u).routed) {
        return Err(StackError::Routed(h));
    }
    let cav = units.iter().any(|&u| arm(sc, u) == Arm::Cavalry);
    if cav && units.iter().any(|&u| arm(sc, u) != Arm::Cavalry) {
        return Err(StackError::Cavalry(h));
    }
    if units.iter().any(|&u| us(u).hexes != us(u0).hexes) {
        return Err(StackError::Hexes(h));
    }
    type Few = tinyvec::TinyVec<[UnitIx; 8]>;
    let (troops, guns): (Few, Few) = units
        .iter()
        .copied()
        .partition(|&u| arm(sc, u) != Arm::Artillery);
    for g in [&troops, &guns] {
        if g.iter().any(|&u| us(u).formation != us(g[0]).formation) {
            return Err(StackError::Formation(h));
        }
    }
    let group_facing_ok = |g: &[UnitIx]| g.iter().all(|&u| us(u).facing == us(g[0]).facing);
    if !group_facing_ok(&troops) || (troops.is_empty() && !group_facing_ok(&guns)) {
        return Err(StackError::Facing(h));
    }
    if let (Some(&t), Some(&g)) = (troops.first(), guns.first()) {
        let (tf, gf) = (us(t).formation, us(g).formation);
        let same_facing = guns.iter().all(|&x| us(x).facing == us(t).facing);
        match gf {
            Formation::Limbered => {
                if tf != Formation::MarchColumn || !same_facing {
                    return Err(StackError::Limbered(h));
                }
            }
            Formation::Unlimbered => {
                let ok = match tf {
                    Formation::Square => true,
                    Formation::Line
                    | Formation::HookLeft
                    | Formation::HookRight
                    | Formation::AttackColumn => same_facing,
                    _ => false,
                };
                if !ok {
                    return Err(StackError::Unlimbered(h));
                }
            }
            _ => {
                if tf != gf || !same_facing {
                    return Err(StackError::Formation(h));
                }
            }
        }
    }
    let formation = us(u0).formation;
    if formation == Formation::RoadColumn && units.len() > 1 && us(u0).hexes.len() > 1 {
        let reg = sc.units[usize::from(u0)].regiment.as_deref();
        if reg.is_none()
            || units
                .iter()
                .any(|&u| sc.units[usize::from(u)].regiment.as_deref() != reg)
        {
            return Err(StackError::RoadColumn(h));
        }
    }
    // 10.1c, 10.4g.
    let row = terrain_row(sc, h);
    let limits = row.map(|r| r.stacking).unwrap_or_default();
    let gsp: u16 = guns.iter().map(|&u| u16::from(current_sp(sc, st, u))).sum();
    let tsp = sp_in(sc, st, &troops, h);
    let over = |what: &'static str, sp: u16, limit: u8| {
        (sp > u16::from(limit)).then_some(StackError::Limit {
            hex: h,
            what,
            sp,
            limit,
        })
    };
    let road = units
        .iter()
        .all(|&u| us(u).formation == Formation::RoadColumn);
    let checks = if road {
        let eff = if troops.is_empty() {
            4 * sp_in(sc, st, &guns, h)
        } else {
            tsp + 4 * gsp
        };
        [over("road column", eff, limits.road_column), None]
    } else if cav {
        [over("cavalry", tsp, limits.cavalry), None]
    } else if troops.is_empty() {
        [over("artillery", gsp, limits.artillery), None]
    } else {
        [
            over("infantry (artillery ×4)", tsp + 4 * gsp, limits.infantry),
            if gsp > 0 {
                over("artillery", gsp, limits.artillery)
            } else {
                None
            },
        ]
    };
    if let Some(e) = checks.into_iter().flatten().next() {
        return Err(e);
    }
    // 10.1c, 8.5a: the skirmisher limit of the hex, where the chart gives one.
    if let Some(limit) = limits.skirmish
        && !troops.is_empty()
        && troops
            .iter()
            .all(|&u| us(u).formation == Formation::Skirmish)
        && let Some(e) = over("skirmish", tsp, limit)
    {
        return Err(e);
    }
    // 10.6d–e: units_at is in stacking order, top first.
    if let Some(&t) = troops.first()
        && !guns.is_empty()
    {
        let kinds: Vec<bool> = units
            .iter()
            .map(|&u| arm(sc, u) == Arm::Artillery)
            .collect();
        let first_inf = kinds.iter().position(|g| !g).unwrap_or(0);
        let last_inf = kinds.iter().rposition(|g| !g).unwrap_or(0);
        if us(t).formation == Formation::Square {
            if kinds.iter().take(guns.len()).any(|g| !g) {
                return Err(StackError::SquareOrder(h));
            }
        } else if kinds[first_inf..=last_inf].iter().any(|&g| g) {
            return Err(StackError::Order(h));
        }
    }
    Ok(())
}

/// The worst morale and organization state of a stack (10.10): (disordered, shaken).
pub fn worst_state(st: &State, units: &[UnitIx]) -> (bool, bool) {
    let any = |f: fn(&crate::state::UnitState) -> bool| {
        units
            .iter()
            .any(|&u| st.units.get(usize::from(u)).is_some_and(f))
    };
    (any(|u| u.disordered), any(|u| u.shaken))
}

/// Whether a moving stack that enters and leaves the hex of a stationary friendly stack
/// interpenetrates it (10.7a), needing a DC (A) for both at the end of the move.
///
/// 10.7b's exceptions: a skirmisher mover never; an infantry line through an infantry line
/// without a facing change in the hex (`turned_in_hex`) not, whatever the facings, but the
/// organization and morale states still count (A23: 18.5e, 19.4d). Otherwise: different types,
/// facings or formations, a type's stacking limit exceeded, different organization states
/// (10.7a, 18.5e), a shaken mover through non-shaken units (19.4d), a non-routed mover through
/// routed units (10.7a). Retreats are not asked here (20.2b).
pub fn interpenetration(
    sc: &Scenario,
    st: &State,
    mover: &[UnitIx],
    stationary: &[UnitIx],
    turned_in_hex: bool,
) -> bool {
    let (Some(&m0), Some(&s0)) = (mover.first(), stationary.first()) else {
        return false;
    };
    let us = |u: UnitIx| &st.units[usize::from(u)];
    if mover
        .iter()
        .all(|&u| us(u).formation == Formation::Skirmish)
    {
        return false;
    }
    let (md, ms) = worst_state(st, mover);
    let (sd, ss) = worst_state(st, stationary);
    let m_routed = mover.iter().any(|&u| us(u).routed);
    let s_routed = stationary.iter().any(|&u| us(u).routed);
    if md != sd || (ms && !ss) || (!m_routed && s_routed) {
        return true;
    }
    let inf_line = |g: &[UnitIx]| {
        g.iter()
            .all(|&u| arm(sc, u) == Arm::Infantry && us(u).formation == Formation::Line)
    };
    if inf_line(mover) && inf_line(stationary) && !turned_in_hex {
        return false;
    }
    let all = mover.iter().chain(stationary);
    if all.clone().any(|&u| arm(sc, u) != arm(sc, m0))
        || all.clone().any(|&u| us(u).facing != us(m0).facing)
        || all.clone().any(|&u| us(u).formation != us(m0).formation)
    {
        return true;
    }
    // Same type, facing and formation: the type's limit in the stationary stack's hexes.
    let shared: Vec<HexId> = us(s0)
        .hexes
        .iter()
        .copied()
        .filter(|h| us(m0).hexes.contains(h))
        .collect();
    let hexes = if shared.is_empty() {
        us(s0).hexes
    } else {
        Hexes::from(shared)
    };
    let msp: u16 = mover
        .iter()
        .map(|&u| u16::from(current_sp(sc, st, u)))
        .sum();
    hexes.iter().any(|&h| {
        let limits = terrain_row(sc, h).map(|r| r.stacking).unwrap_or_default();
        let limit = if us(m0).formation == Formation::RoadColumn {
            limits.road_column
        } else {
            limits.of(arm(sc, m0))
        };
        let factor = if arm(sc, m0) == Arm::Artillery && us(m0).formation == Formation::RoadColumn {
            4
        } else {
            1
        };
        factor * (msp + sp_in(sc, st, stationary, h)) > u16::from(limit)
    })
}

/// 10.8d: the hexes of a multi-hex stack's `remaining` units after others left it, contracted at
/// once and free to the longest length their SPs allow (keeping the right end of a line, the head
/// of a column); `None` if they still fill their hexes.
pub fn after_separation(sc: &Scenario, st: &State, remaining: &[UnitIx]) -> Option<Vec<HexId>> {
    let us = st.units.get(usize::from(*remaining.first()?))?;
    let n = us.hexes.len();
    let allowed = lengths(sc, st, remaining, us.formation);
    if allowed.contains(&n) {
        return None;
    }
    let target = if allowed.is_empty() {
        1
    } else {
        (*allowed.end()).min(n)
    };
    if target >= n {
        return None;
    }
    let mut fp = footprint_of(us)?;
    while fp.len() > target {
        fp = fp.contracted(&Printed, End::Tail).ok()?;
    }
    Some(fp.hexes().to_vec())
}
