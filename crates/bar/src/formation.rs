//! Formation changes (8.2–8.7, 10.12) and the SP layout of footprints (8.1a, 8.1d, 8.1f): which
//! formations a unit or stack may change to now, in which hexes and facing, at what MP cost.
//! The movement phase (`movement`) offers them as actions and spends their cost.
use crate::geom::{Facing, Formation};
use crate::scenario::{Scenario, UnitIx};
use crate::state::State;
use engine::Half;
use hexmap::HexId;

/// What the unit (or stack) has for a change now (8.2a: costs are based on this phase's MA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// This phase's MA (halved if disordered or out of command, +50% in a rapid march, 11.0).
    pub ma: Half,
    /// MPs left.
    pub left: Half,
    /// Whether it has spent any MP this phase (8.7, 8.5a–b).
    pub spent: bool,
    /// Whether it fired in this activation's fire phase (8.6a, 9.5).
    pub fired: bool,
}

/// One formation change the unit or stack may make now.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The new formation of each unit of the stack (infantry and artillery may differ, 10.12c).
    pub formations: Vec<(UnitIx, Formation)>,
    /// The new facing.
    pub facing: Facing,
    /// The new hexes (right end first for a line, head first for a column).
    pub hexes: Vec<HexId>,
    /// Its MP cost now, EZOC surcharge included (9.1, 11.9a).
    pub cost: Half,
    /// It ends the unit's movement phase (8.4f–g whole MA, 8.4i, 8.7).
    pub ends_movement: bool,
    /// Units that must leave the hex after it (artillery limbering among infantry, 8.6b, 10.4f).
    pub must_leave: Vec<UnitIx>,
    /// The rule ("8.4c").
    pub rule: &'static str,
}

/// The formation changes `units` (one stack, all activated) may make now with `budget`.
pub fn changes(_sc: &Scenario, _st: &State, _units: &[UnitIx], _budget: &Budget) -> Vec<Change> {
    Vec::new()
}
