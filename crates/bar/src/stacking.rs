//! Stacking (10.0): the legality of a stack at the end of movement (10.1–10.4, 10.11),
//! interpenetration (10.7), separation (10.8d), worst states (10.10). The stacking order (10.6:
//! the top unit tests for a stack, 18.7a, 19.4a) is each unit's `order`.
use crate::scenario::{Scenario, UnitIx};
use crate::state::State;
use hexmap::HexId;

/// Why a stack is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} ({rule})")]
pub struct StackError {
    /// What is wrong.
    pub what: String,
    /// The rule.
    pub rule: &'static str,
}

/// Whether the units now in `h` form a legal stack (placeholder until the stacking rules land:
/// two sides never share a hex, 10.1b).
pub fn legal_at(sc: &Scenario, st: &State, h: HexId) -> Result<(), StackError> {
    let mut sides = st
        .units
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.eliminated && s.hexes.contains(&h))
        .map(|(i, _)| sc.units[i].side);
    let first = sides.next();
    if sides.any(|s| Some(s) != first) {
        return Err(StackError {
            what: "opposing units in one hex".into(),
            rule: "10.1b",
        });
    }
    Ok(())
}

/// Whether the mover passing through the stationary units is an interpenetration (10.7a–b).
pub fn interpenetration(
    _sc: &Scenario,
    _st: &State,
    _mover: &[UnitIx],
    _stationary: &[UnitIx],
    _turned_in_hex: bool,
) -> bool {
    false
}
