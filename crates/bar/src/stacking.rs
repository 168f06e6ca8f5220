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

/// Whether the units now in `h` form a legal stack (until the stacking package lands: two
/// sides never share a hex, 10.1b; the same hexes, 10.1d; facing and formation alike or
/// compatible, 10.1d–e; routed and unrouted apart, 10.1f).
pub fn legal_at(sc: &Scenario, st: &State, h: HexId) -> Result<(), StackError> {
    let here: Vec<usize> = st
        .units
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.eliminated && s.hexes.contains(&h))
        .map(|(i, _)| i)
        .collect();
    let err = |what: &str, rule: &'static str| {
        Err(StackError {
            what: what.into(),
            rule,
        })
    };
    for (k, &a) in here.iter().enumerate() {
        for &b in &here[k + 1..] {
            let (x, y) = (&st.units[a], &st.units[b]);
            if sc.units[a].side != sc.units[b].side {
                return err("opposing units in one hex", "10.1b");
            }
            if x.hexes != y.hexes {
                return err("a stack must occupy the same hexes", "10.1d");
            }
            if !crate::movement::compatible(x, y) {
                return err("a stack must share facing and formation", "10.1d–e");
            }
            if x.routed != y.routed {
                return err("routed and unrouted units may not stack", "10.1f");
            }
        }
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
