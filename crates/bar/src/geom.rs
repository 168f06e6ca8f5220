//! Formations (8.1) and orientation (9.0) as far as the first package needs them: which hexes are
//! a unit's front, flank and rear (its ZOC is its front, 9.1), for hexpoint and hexside facings and
//! multi-hex footprints. The movement package adds the changes of formation and facing.
use hexmap::{Arc, Dir, HexId};
use serde::{Deserialize, Serialize};

/// A facing: a hexpoint for line-type formations, a hexside for columns (8.4c): the project's
/// [`hexmap::Facing`], with the names and arcs the BAR log and rules use.
pub use hexmap::Facing;

/// BAR's reading of a [`Facing`].
pub trait FacingExt {
    /// The short name ("N", "NE"…).
    fn name(self) -> &'static str;
    /// Directions to the front, flank and rear neighbours of one hex of the formation.
    fn arcs(self) -> (Vec<Dir>, Vec<Dir>, Vec<Dir>);
}

impl FacingExt for Facing {
    fn name(self) -> &'static str {
        match self {
            Facing::Point(v) => ["N", "NE", "SE", "S", "SW", "NW"][v.index()],
            Facing::Side(d) => ["NE", "E", "SE", "SW", "W", "NW"][d.index()],
        }
    }

    fn arcs(self) -> (Vec<Dir>, Vec<Dir>, Vec<Dir>) {
        (
            self.dirs(Arc::Front),
            self.dirs(Arc::Flank),
            self.dirs(Arc::Rear),
        )
    }
}

/// A formation (8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Formation {
    /// Line (8.1a).
    Line,
    /// Hook to the left (8.1b).
    HookLeft,
    /// Hook to the right (8.1b).
    HookRight,
    /// Attack column (8.1c).
    AttackColumn,
    /// March column (8.1d).
    MarchColumn,
    /// Square (8.1e).
    Square,
    /// Road column (8.1f).
    RoadColumn,
    /// Skirmish order (8.1g).
    Skirmish,
    /// General order (8.1h).
    GeneralOrder,
    /// Limbered artillery (8.6).
    Limbered,
    /// Unlimbered artillery (8.6).
    Unlimbered,
}

impl Formation {
    /// Parse a data key.
    pub fn parse(s: &str) -> Option<Formation> {
        Some(match s {
            "line" => Formation::Line,
            "hook-left" => Formation::HookLeft,
            "hook-right" => Formation::HookRight,
            "attack" => Formation::AttackColumn,
            "march" => Formation::MarchColumn,
            "square" => Formation::Square,
            "road" => Formation::RoadColumn,
            "skirmish" => Formation::Skirmish,
            "general" => Formation::GeneralOrder,
            "limbered" => Formation::Limbered,
            "unlimbered" => Formation::Unlimbered,
            _ => return None,
        })
    }

    /// Its data key, as [`Formation::parse`] reads it ("hook-left").
    pub fn key(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::HookLeft => "hook-left",
            Formation::HookRight => "hook-right",
            Formation::AttackColumn => "attack",
            Formation::MarchColumn => "march",
            Formation::Square => "square",
            Formation::RoadColumn => "road",
            Formation::Skirmish => "skirmish",
            Formation::GeneralOrder => "general",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    /// Its name for people.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::HookLeft => "left hook",
            Formation::HookRight => "right hook",
            Formation::AttackColumn => "attack column",
            Formation::MarchColumn => "march column",
            Formation::Square => "square",
            Formation::RoadColumn => "road column",
            Formation::Skirmish => "skirmish order",
            Formation::GeneralOrder => "general order",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    /// Whether it faces a hexside (8.4c–e).
    pub fn faces_hexside(self) -> bool {
        matches!(
            self,
            Formation::MarchColumn | Formation::RoadColumn | Formation::Limbered
        )
    }

    /// The morale modifier key of its family (19.8c), if any.
    pub fn morale_key(self) -> Option<&'static str> {
        match self {
            Formation::MarchColumn | Formation::RoadColumn | Formation::GeneralOrder => {
                Some("column")
            }
            Formation::Square => Some("square"),
            Formation::AttackColumn => Some("attack_column"),
            _ => None,
        }
    }

    /// Whether it is a line or hook (19.8f line support).
    pub fn is_line(self) -> bool {
        matches!(
            self,
            Formation::Line | Formation::HookLeft | Formation::HookRight
        )
    }
}

/// 8.1b: the side a hook is hooked to, for a footprint facing hexpoint `v`: the direction of its
/// flank hex on that side and the turn (in hexpoints) toward it.
fn hooked_side(facing: Facing, f: Formation) -> Option<(hexmap::Vertex, Dir, i32)> {
    let Facing::Point(v) = facing else {
        return None;
    };
    match f {
        Formation::HookRight => Some((v, v.flank()[1], 1)),
        Formation::HookLeft => Some((v, v.flank()[0], -1)),
        _ => None,
    }
}

/// The hex a hook's extra front hex is seen from (its hooked end: the one hex whose neighbour on
/// the hooked side is not its own), with the facing of the hook's arm there: the hexpoint turned
/// one step toward the hooked side, whose front holds the line's front hex on that side and the
/// hook hex (8.1b, 12.2b: the arm fires through both).
pub fn hook_arm(hexes: &[HexId], facing: Facing, f: Formation) -> Option<(HexId, Facing)> {
    let (v, d, turn) = hooked_side(facing, f)?;
    let end = hexes
        .iter()
        .copied()
        .find(|h| h.neighbour(d).is_none_or(|n| !hexes.contains(&n)))?;
    Some((end, Facing::Point(v.turned(turn))))
}

/// 8.1b: a hook's extra front hex, "at the front and side of the counter (right or left)": the
/// flank hex on the hooked side of the hooked end (a right hook facing N: the E neighbour of its
/// eastern hex), which the hook turns from a flank hex into a front hex. `None` for every other
/// formation, a hex off the board, or a footprint that is not a line facing a hexpoint.
/// Reconstructed (T9's hook diagram is missing): docs/bar-formations.md, row 8.1b.
pub fn hook_hex(hexes: &[HexId], facing: Facing, f: Formation) -> Option<HexId> {
    let (_, d, _) = hooked_side(facing, f)?;
    hook_arm(hexes, facing, f)?.0.neighbour(d)
}

/// The front, flank and rear hexes of a footprint (union over its hexes, minus its own hexes; a
/// hex in two arcs counts in the most forward one); a hook's extra front hex (8.1b, [`hook_hex`])
/// is front, not flank.
pub fn arcs_of(
    hexes: &[HexId],
    facing: Facing,
    f: Formation,
) -> (Vec<HexId>, Vec<HexId>, Vec<HexId>) {
    let (fd, sd, rd) = facing.arcs();
    let mut front = Vec::new();
    let mut flank = Vec::new();
    let mut rear = Vec::new();
    let own = |h: &HexId| hexes.contains(h);
    for &h in hexes {
        for d in &fd {
            if let Some(n) = h.neighbour(*d)
                && !own(&n)
                && !front.contains(&n)
            {
                front.push(n);
            }
        }
    }
    if let Some(x) = hook_hex(hexes, facing, f) {
        front.push(x);
    }
    for &h in hexes {
        for d in &sd {
            if let Some(n) = h.neighbour(*d)
                && !own(&n)
                && !front.contains(&n)
                && !flank.contains(&n)
            {
                flank.push(n);
            }
        }
    }
    for &h in hexes {
        for d in &rd {
            if let Some(n) = h.neighbour(*d)
                && !own(&n)
                && !front.contains(&n)
                && !flank.contains(&n)
                && !rear.contains(&n)
            {
                rear.push(n);
            }
        }
    }
    (front, flank, rear)
}

/// The front hexes of a footprint ([`arcs_of`]'s first part, without the flank and rear).
pub fn front_of(hexes: &[HexId], facing: Facing, f: Formation) -> Vec<HexId> {
    let mut front = Vec::with_capacity(hexes.len() * 2 + 1);
    for &h in hexes {
        for d in facing.front_dirs() {
            if let Some(n) = h.neighbour(d)
                && !hexes.contains(&n)
                && !front.contains(&n)
            {
                front.push(n);
            }
        }
    }
    if let Some(x) = hook_hex(hexes, facing, f) {
        front.push(x);
    }
    front
}

/// Whether `h` is a front hex of a footprint (`front_of(hexes, facing, f).contains(&h)`).
pub fn in_front_of(hexes: &[HexId], facing: Facing, f: Formation, h: HexId) -> bool {
    !hexes.contains(&h)
        && hexes.iter().any(|x| x.is_adjacent(h))
        && (facing
            .front_dirs()
            .any(|d| hexes.iter().any(|x| x.neighbour(d) == Some(h)))
            || hook_hex(hexes, facing, f) == Some(h))
}

/// Whether `t` is seen from `h` only through a hook's arm (8.1b): in the arm's front arc and
/// not in the line's (the fire the hook diagram distributes apart, 12.3d, 12.4f).
pub fn through_hook(hexes: &[HexId], facing: Facing, f: Formation, h: HexId, t: HexId) -> bool {
    hook_arm(hexes, facing, f).is_some_and(|(end, arm)| {
        end == h && arm.arc_of(h, t) == Some(Arc::Front) && facing.arc_of(h, t) != Some(Arc::Front)
    })
}

/// The footprint shape a formation takes (C6): columns facing a hexside are march or road
/// columns, everything facing a hexpoint is a line of one or more hexes.
pub fn footprint_kind(f: Formation) -> hexmap::FootprintKind {
    match f {
        Formation::MarchColumn | Formation::Limbered => hexmap::FootprintKind::MarchColumn,
        Formation::RoadColumn => hexmap::FootprintKind::RoadColumn,
        Formation::Line
        | Formation::HookLeft
        | Formation::HookRight
        | Formation::AttackColumn
        | Formation::Square
        | Formation::Skirmish
        | Formation::GeneralOrder
        | Formation::Unlimbered => hexmap::FootprintKind::Line,
    }
}

/// A unit's hexes, facing and formation as a [`hexmap::Footprint`] on the board's grid, or
/// `None` off the map or if the stored hexes do not make one (a state the validator refuses).
pub fn footprint_of(us: &crate::state::UnitState) -> Option<hexmap::Footprint<HexId>> {
    if us.hexes.is_empty() {
        return None;
    }
    hexmap::Footprint::new(
        &hexmap::Printed,
        footprint_kind(us.formation),
        us.facing,
        us.hexes.to_vec(),
    )
    .ok()
}

/// The chart key of a formation (`charts::FORMATIONS`: T1's `no_formation`, T10's links): both
/// hooks are `hook` (8.1b).
pub fn chart_key(f: Formation) -> &'static str {
    match f {
        Formation::Line => "line",
        Formation::HookLeft | Formation::HookRight => "hook",
        Formation::AttackColumn => "attack_column",
        Formation::MarchColumn => "march_column",
        Formation::Square => "square",
        Formation::RoadColumn => "road_column",
        Formation::Skirmish => "skirmish",
        Formation::GeneralOrder => "general_order",
        Formation::Limbered => "limbered",
        Formation::Unlimbered => "unlimbered",
    }
}
