//! The choices a player makes, each a legal action with a stable text id.
use crate::geom::FacingExt as _;
use crate::scenario::{BrigadeIx, LeaderIx, UnitIx, WingIx};
use hexmap::HexId;

/// A choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Army morale: spend this much CR before the roll (23.2b).
    Spend(u8),
    /// The initiative winner activates his own brigade (6.1a a).
    ActivateOwn(BrigadeIx),
    /// The initiative winner makes his opponent activate (6.1a b).
    Opponent,
    /// The initiative winner makes a wing activation (6.5).
    Wing(WingIx),
    /// A side activates a brigade (forced or automatic, 6.1a, 6.1e).
    Activate(BrigadeIx),
    /// A brigade joins the wing activation (6.5c).
    Join(BrigadeIx),
    /// No more brigades join.
    JoinDone,
    /// Place a replacement or returning leader on a unit (21.5e).
    Place(LeaderIx, UnitIx),
    /// Activate an independent unit with the brigade (6.6).
    Independent(UnitIx),
    /// Activate an off-brigade leader with the brigade (6.6).
    Leader(LeaderIx),
    /// Attach a unit of another brigade (6.4).
    Attach(UnitIx),
    /// End the command control declarations.
    CommandDone,
    /// The next hex of a rout retreat (20.2g).
    Retreat(HexId),
    /// Give one SP of a stack's retreat losses to this unit (19.7d).
    Lose(UnitIx),
    /// A rallied unit's facing (19.5e).
    Face(crate::geom::Facing),
    /// Reintegrate the detachment (24.3a).
    Reintegrate,
    /// Keep the detachment apart.
    KeepDetached,
}

impl Action {
    /// The stable id, with the scenario's ids.
    pub fn id(&self, sc: &crate::scenario::Scenario) -> String {
        let b = |i: &BrigadeIx| sc.brigades[usize::from(*i)].id.clone();
        let u = |i: &UnitIx| sc.units[usize::from(*i)].id.clone();
        let l = |i: &LeaderIx| sc.leaders[usize::from(*i)].id.clone();
        match self {
            Action::Spend(n) => format!("spend:{n}"),
            Action::ActivateOwn(x) => format!("own:{}", b(x)),
            Action::Opponent => "opponent".into(),
            Action::Wing(w) => format!("wing:{}", sc.wings[usize::from(*w)].id),
            Action::Activate(x) => format!("activate:{}", b(x)),
            Action::Join(x) => format!("join:{}", b(x)),
            Action::JoinDone => "join-done".into(),
            Action::Place(x, y) => format!("place:{}:{}", l(x), u(y)),
            Action::Independent(x) => format!("independent:{}", u(x)),
            Action::Leader(x) => format!("leader:{}", l(x)),
            Action::Attach(x) => format!("attach:{}", u(x)),
            Action::CommandDone => "command-done".into(),
            Action::Retreat(h) => format!("retreat:{}", sc.board.label(*h)),
            Action::Lose(x) => format!("lose:{}", u(x)),
            Action::Face(f) => format!("face:{}", f.name()),
            Action::Reintegrate => "reintegrate".into(),
            Action::KeepDetached => "keep-detached".into(),
        }
    }
}
