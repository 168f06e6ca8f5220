//! The state of a BAR game: units, leaders, brigades, the turn track and the procedure in progress.
use crate::geom::{Facing, Formation};
use crate::scenario::{BrigadeIx, LeaderIx, UnitIx, WingIx};
use engine::Dice;
use hexmap::HexId;
use serde::{Deserialize, Serialize};

/// The most hexes a unit's footprint holds: a road column of 32 SP (8.1f: 4 SP a hex; an artillery
/// SP counts 4, 10.4g). No unit or road-column stack of the scenarios comes near it (the longest
/// is a 4-SP battery's 4 hexes); [`crate::formation::lengths`] offers no longer road column and a
/// saved game or set-up with a longer footprint is refused when it is read.
pub const MAX_FOOTPRINT: usize = 8;

/// A unit's hexes, kept inline (no heap): a unit's state is a plain copy, and the units' list one
/// block (issue 18: the whole battle's state within 16 KiB; a search clones states by the
/// thousand, sharing the list until it changes, [`Units`]). It reads as a slice (`Deref`), is
/// written as a vector of at most [`MAX_FOOTPRINT`] hexes, and is saved as a list of hex numbers,
/// as a `Vec` was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Hexes(tinyvec::ArrayVec<[HexId; MAX_FOOTPRINT]>);

impl Hexes {
    /// No hexes (off the map).
    pub const fn new() -> Self {
        Self(tinyvec::ArrayVec::from_array_empty(
            [HexId::new(0, 0); MAX_FOOTPRINT],
        ))
    }

    /// One hex.
    pub fn one(h: HexId) -> Self {
        let mut v = Self::new();
        v.0.push(h);
        v
    }
}

impl std::ops::Deref for Hexes {
    type Target = tinyvec::ArrayVec<[HexId; MAX_FOOTPRINT]>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Hexes {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl From<&[HexId]> for Hexes {
    /// The footprint `h`.
    ///
    /// # Panics
    /// If `h` is longer than [`MAX_FOOTPRINT`]: every footprint the rules build comes from
    /// [`crate::formation::lengths`], which offers none longer, and a saved game or set-up with a
    /// longer one is refused when read (an invariant, not outside input).
    fn from(h: &[HexId]) -> Self {
        let mut v = Self::new();
        for &x in h {
            // Invariant (above): no footprint is longer than MAX_FOOTPRINT.
            assert!(
                v.0.try_push(x).is_none(),
                "a footprint longer than {MAX_FOOTPRINT} hexes"
            );
        }
        v
    }
}

impl From<Vec<HexId>> for Hexes {
    fn from(h: Vec<HexId>) -> Self {
        Self::from(h.as_slice())
    }
}

impl From<&Vec<HexId>> for Hexes {
    fn from(h: &Vec<HexId>) -> Self {
        Self::from(h.as_slice())
    }
}

impl<const N: usize> From<[HexId; N]> for Hexes {
    fn from(h: [HexId; N]) -> Self {
        Self::from(&h[..])
    }
}

impl FromIterator<HexId> for Hexes {
    fn from_iter<I: IntoIterator<Item = HexId>>(iter: I) -> Self {
        let mut v = Self::new();
        for x in iter {
            // Invariant (`From<&[HexId]>`): no footprint is longer than MAX_FOOTPRINT.
            assert!(
                v.0.try_push(x).is_none(),
                "a footprint longer than {MAX_FOOTPRINT} hexes"
            );
        }
        v
    }
}

impl<'a> IntoIterator for &'a Hexes {
    type Item = &'a HexId;
    type IntoIter = std::slice::Iter<'a, HexId>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Hexes {
    type Item = HexId;
    type IntoIter = tinyvec::ArrayVecIterator<[HexId; MAX_FOOTPRINT]>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl PartialEq<Vec<HexId>> for Hexes {
    fn eq(&self, other: &Vec<HexId>) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

impl PartialEq<Hexes> for Vec<HexId> {
    fn eq(&self, other: &Hexes) -> bool {
        self.as_slice() == other.0.as_slice()
    }
}

impl<const N: usize> PartialEq<[HexId; N]> for Hexes {
    fn eq(&self, other: &[HexId; N]) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

impl PartialEq<[HexId]> for Hexes {
    fn eq(&self, other: &[HexId]) -> bool {
        self.0.as_slice() == other
    }
}

/// Whether two lists are equal, never looking at the items of two empty ones.
///
/// `==` of two lists of plain numbers (and of two strings) calls the C library's `memcmp`, even
/// for two empty lists, whose storage is a dangling pointer; on the x86-64 machines with AVX-512
/// we measure on (glibc's `__memcmp_evex_movbe`), that call costs about 250 cycles for two empty
/// lists against 6 for two short ones, and the states compared while moving (the kept menu,
/// `movement.rs`) hold a dozen empty lists. The hand-written equalities below use this; each
/// names every field, so that a new field must be thought about there.
#[inline]
pub fn same<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && (a.is_empty() || a == b)
}

/// A combat unit now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitState {
    /// Its hexes (right-hand one first for a line, head first for a column); empty off the map.
    pub hexes: Hexes,
    /// Facing.
    pub facing: Facing,
    /// Formation.
    pub formation: Formation,
    /// SP lost.
    pub lost: u8,
    /// Disordered (18.0).
    pub disordered: bool,
    /// Shaken (19.0).
    pub shaken: bool,
    /// Routed (19.0).
    pub routed: bool,
    /// Eliminated.
    pub eliminated: bool,
    /// Activated this game turn (FINISHED once its activation ends, 6.3d).
    pub activated: bool,
    /// Out of command in the current activation (7.6f).
    pub ooc: bool,
    /// Attempted disorder recovery this turn (18.6a).
    pub recovered: bool,
    /// Stacking order: lower is higher in the stack (10.6).
    pub order: u16,
    /// Turn on which it arrives (22.1), while it has not (turns count from 1; two bytes, not
    /// four, for the whole battle's state to fit in 16 KiB).
    pub arrives: Option<std::num::NonZeroU16>,
    /// Its entry hex (22.4).
    pub entry: Option<HexId>,
}

/// A leader's condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaderStatus {
    /// On the map.
    Present,
    /// Not yet on the map: a replacement waiting for his post, or a reinforcement.
    Waiting,
    /// Wounded until the start of this turn (21.4c).
    Wounded(u16),
    /// Killed (21.4b).
    Killed,
    /// Removed without loss points: all his subordinates gone (21.7).
    Removed,
}

/// A leader now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderState {
    /// Hex, when on the map.
    pub hex: Option<HexId>,
    /// Condition.
    pub status: LeaderStatus,
    /// Flipped to FINISHED this turn (6.3d).
    pub finished: bool,
    /// Wounded once already (21.4c).
    pub wounded_once: bool,
    /// Out of command in this activation.
    pub ooc: bool,
    /// Must be placed at the start of his brigade's (or any) activation (21.5c–d).
    pub to_place: bool,
    /// The leader who holds his post while he is away (21.5a).
    pub deputy: Option<LeaderIx>,
}

/// A brigade now.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BrigadeState {
    /// Activated this turn.
    pub activated: bool,
    /// Limited to limited activations for the rest of the turn (24.2b).
    pub limited: bool,
}

/// An army now.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ArmyState {
    /// Army morale modifier (23.2a), never decreasing (23.2c).
    pub morale: u8,
    /// The Current Loss Level column last used (23.1c–e).
    pub column: Option<u8>,
    /// CR spent on this hour's army morale check (23.2b).
    pub cr_spent: u8,
    /// CR the player commits to spend before the roll (23.2b, A63); not shown to the other side
    /// until both have committed.
    pub pending_spend: Option<u8>,
    /// The detachment of his last activation, if any (24.2b).
    pub last_detachment: Option<u8>,
    /// Detachments reintegrated (24.3).
    pub reintegrated: Vec<u8>,
}

impl PartialEq for ArmyState {
    fn eq(&self, o: &Self) -> bool {
        let ArmyState {
            morale,
            column,
            cr_spent,
            pending_spend,
            last_detachment,
            reintegrated,
        } = self;
        *morale == o.morale
            && *column == o.column
            && *cr_spent == o.cr_spent
            && *pending_spend == o.pending_spend
            && *last_detachment == o.last_detachment
            && same(reintegrated, &o.reintegrated)
    }
}

/// The activation in progress (6.3).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Activation {
    /// The active side.
    pub side: u8,
    /// Activated brigades (several in a wing activation, 6.5d).
    pub brigades: Vec<BrigadeIx>,
    /// Wing of a wing activation.
    pub wing: Option<WingIx>,
    /// A limited activation (6.8).
    pub limited: bool,
    /// Off-brigade leaders activated with it (6.6).
    pub leaders: Vec<LeaderIx>,
    /// Independent units activated with it (6.6).
    pub independents: Vec<UnitIx>,
    /// Units of its brigades it activated: not those activated earlier in the turn by attachment
    /// to another brigade (6.3c, 6.4d).
    #[serde(default)]
    pub units: Vec<UnitIx>,
    /// Units attached to it (6.4).
    pub attached: Vec<UnitIx>,
    /// Units arriving as reinforcements with it (22.2–22.3).
    pub arriving: Vec<UnitIx>,
    /// Units whose movement is over in this movement phase (11.1b).
    #[serde(default)]
    pub moved: Vec<UnitIx>,
    /// Leaders who moved in this movement phase (21.1c).
    #[serde(default)]
    pub moved_leaders: Vec<LeaderIx>,
    // movement (issue 15)
    /// Voluntary rout in this movement phase (19.10).
    #[serde(default, skip_serializing_if = "VoluntaryRout::is_empty")]
    pub voluntary: VoluntaryRout,
    /// Units put on top of their stack in this movement phase (10.6f): once each, which is
    /// enough to give a stack any order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restacked: Vec<UnitIx>,
    /// Units of the activation that fired in its fire phase (8.6a, 9.5, 11.6; A25: "the previous
    /// fire phase" is this activation's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fired: Vec<UnitIx>,
    /// Parents whose reformation failed in this movement phase: no second attempt (8.5b).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reform_failed: Vec<UnitIx>,
    /// Hexes where a breakdown of this activation placed skirmisher components over the
    /// skirmisher limit: they must spread out before the movement phase ends (8.5a).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spread: Vec<HexId>,
}

// movement (issue 15)
impl PartialEq for Activation {
    fn eq(&self, o: &Self) -> bool {
        let Activation {
            side,
            brigades,
            wing,
            limited,
            leaders,
            independents,
            units,
            attached,
            arriving,
            moved,
            moved_leaders,
            voluntary,
            restacked,
            fired,
            reform_failed,
            spread,
        } = self;
        *side == o.side
            && same(brigades, &o.brigades)
            && *wing == o.wing
            && *limited == o.limited
            && same(leaders, &o.leaders)
            && same(independents, &o.independents)
            && same(units, &o.units)
            && same(attached, &o.attached)
            && same(arriving, &o.arriving)
            && same(moved, &o.moved)
            && same(moved_leaders, &o.moved_leaders)
            && *voluntary == o.voluntary
            && same(restacked, &o.restacked)
            && same(fired, &o.fired)
            && same(reform_failed, &o.reform_failed)
            && same(spread, &o.spread)
    }
}

/// Voluntary rout (19.10) in an activation's movement phase: the declarations, then who must
/// test MC (J) and who was passed through by the routers.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct VoluntaryRout {
    /// The top unit of each stack declared so far (19.10a–b).
    #[serde(default)]
    pub declared: Vec<UnitIx>,
    /// The declarations are over (rout retreats made, or the first move made) (19.10a).
    #[serde(default)]
    pub done: bool,
    /// Units entitled to voluntary rout that did not rout, artillery included (19.10c): each
    /// tests MC (J) once the rout retreats are over.
    #[serde(default)]
    pub entitled: Vec<UnitIx>,
    /// The units routing voluntarily, their retreats still to come or made (19.10b–c).
    #[serde(default)]
    pub routing: Vec<UnitIx>,
    /// Entitled units passed through by a router of their brigade: MC (J) +10 instead of (F)
    /// (19.10d, 19.9e).
    #[serde(default)]
    pub passed: Vec<UnitIx>,
}

impl PartialEq for VoluntaryRout {
    fn eq(&self, o: &Self) -> bool {
        let VoluntaryRout {
            declared,
            done,
            entitled,
            routing,
            passed,
        } = self;
        same(declared, &o.declared)
            && *done == o.done
            && same(entitled, &o.entitled)
            && same(routing, &o.routing)
            && same(passed, &o.passed)
    }
}

impl VoluntaryRout {
    /// Nothing declared nor decided yet.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

impl Activation {
    /// Whether a unit takes part in this activation: a unit of its brigades it activated, an
    /// attached, independent or arriving unit (6.3c, 6.4, 6.6, 22.2).
    pub fn includes(&self, u: UnitIx) -> bool {
        self.units.contains(&u)
            || self.attached.contains(&u)
            || self.independents.contains(&u)
            || self.arriving.contains(&u)
    }
}

/// A step the procedure must still take, in order; decisions stop it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// A rallied unit's owner picks its facing (19.5e).
    Face(UnitIx),
    /// A square fallen below 3 SP is a one-hex line: its owner picks the facing (8.4g, 12.9j).
    LineFacing(UnitIx),
    /// A side may reintegrate a detachment (24.3a).
    Reintegrate {
        /// The side.
        side: u8,
        /// The detachment.
        detachment: u8,
    },
    /// A morale check (F) for units passed through by a retreat (20.2b, 19.1c exc. 2).
    MoraleF(Vec<UnitIx>),
    /// A rout retreat of a stack (20.2) away from `from` (the enemy that caused it).
    Rout {
        /// The routing units (one stack).
        units: Vec<UnitIx>,
        /// Hexes of the enemy units it retreats from.
        from: Vec<HexId>,
    },
    // movement (issue 15)
    /// After a voluntary rout retreat of a unit of these brigades: the entitled units of those
    /// brigades it passed through test MC (J) +10 instead of (F) (19.10d).
    VoluntaryPassed(Vec<BrigadeIx>),
    /// The rout retreats of a voluntary rout are over: every entitled unit that did not rout
    /// tests MC (J) (19.10c).
    MoraleJ,
    /// A stack is about to rout: a multi-hex one first keeps one of its hexes, its owner's choice
    /// (19.7e), then retreats (`Job::Rout`).
    RoutHex {
        /// The routing units (one stack).
        units: Vec<UnitIx>,
        /// Hexes of the enemy units it retreats from.
        from: Vec<HexId>,
    },
}

/// Where the procedure stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    /// Run the waiting jobs, then return to the phase on top of the stack.
    Idle,
    /// Start of a game turn.
    BeginTurn,
    /// Army morale (23): a side decides how much CR to spend before the roll.
    ArmyMoraleSpend {
        /// The side deciding.
        side: u8,
    },
    /// Both sides have committed: the dice are rolled (23.2).
    ArmyMoraleRoll,
    /// The initiative dice are rolled (6.1).
    Initiative,
    /// The initiative winner chooses (6.1a): activate his own brigade or wing, or make the
    /// opponent activate.
    InitiativeChoice {
        /// The winner.
        side: u8,
        /// Whether 6.5a allows a wing activation.
        wing: bool,
    },
    /// A side picks a brigade to activate.
    ChooseBrigade {
        /// The side.
        side: u8,
    },
    /// In a wing activation, the player picks the brigades that join (6.5c).
    WingBrigades {
        /// The side.
        side: u8,
        /// The wing.
        wing: WingIx,
    },
    /// A replacement or returning leader is placed on a unit of his brigade (21.5c–e).
    PlaceLeader {
        /// The leader.
        leader: LeaderIx,
    },
    /// The active player declares independents, off-brigade leaders and attachments (7.0, 6.4,
    /// 6.6d).
    CommandControl,
    /// The rest of the activation runs: command status, disorder recovery, fire, movement,
    /// close combat (4.0 C).
    ActivationSteps,
    // fire (12)
    /// The fire phase (12.1): the active player declares and resolves fires; the target's owner
    /// may return fire (12.10).
    Fire(Box<crate::fire::FirePhase>),
    /// The movement phase (11.0): the active player picks what moves next, or ends it.
    Movement,
    /// An activated leader moves (21.1a): where to.
    LeaderMoving {
        /// The leader.
        leader: LeaderIx,
    },
    /// A unit or stack is moving (11.1): its next step.
    Moving(Box<crate::movement::Mover>),
    /// The reactive player may answer a move (12.8c–d, 17.0).
    Reaction {
        /// The moving unit, as it stands.
        mover: Box<crate::movement::Mover>,
        /// What triggered it.
        trigger: crate::movement::Trigger,
        /// The move waiting for the answer (a step out of the hex, 12.8d).
        pending: Option<crate::action::Action>,
        /// The reactive units that could answer.
        reactors: Vec<UnitIx>,
        /// Opportunity fires made at this trigger: `true` artillery, `false` infantry (12.8c, e).
        #[serde(default)]
        fired: Vec<bool>,
    },
    /// Movement is over: close combat and the end of the activation (4.0 C).
    AfterMovement,
    // close combat (13–15)
    /// The close combat phase runs its automatic steps (13.0).
    CloseCombat(Box<crate::close_combat::Cc>),
    /// A player decides a step of the close combat phase (13.1, 13.6, 13.9, 13.10, 14.2b, 15.1,
    /// 21.2b).
    CcDecision(Box<crate::close_combat::Cc>),
    /// A routing stack's next hex, when 20.2g leaves the owner a choice.
    RoutStep {
        /// The units.
        units: Vec<UnitIx>,
        /// Hexes still to retreat.
        left: u8,
        /// Hexes entered so far.
        visited: Vec<HexId>,
        /// Enemy hexes it retreats from.
        from: Vec<HexId>,
        /// Friendly units passed through (their MC F, or rout, at the end).
        passed: Vec<UnitIx>,
        /// SP still to take for EZOC hexes or blocked steps, to be allocated by the owner (19.7d).
        losses: u8,
    },
    /// The owner allocates a retreating stack's extra SP losses (19.7d).
    AllocateLoss {
        /// The stack.
        units: Vec<UnitIx>,
        /// SP still to allocate.
        losses: u8,
    },
    /// The rally phase begins: its order is rolled (4.0 D).
    RallyStart,
    /// The rally phase (4.0 D, 19.5): `order` are the sides in the order they rally.
    Rally {
        /// Sides still to rally, first first.
        order: Vec<u8>,
    },
    /// A rallied unit's owner picks its facing (19.5e).
    RallyFacing {
        /// The unit.
        unit: UnitIx,
    },
    /// The owner of a square fallen below 3 SP picks the facing of the one-hex line it became
    /// (8.4g): a hexpoint, no other formation.
    LineFacing {
        /// The unit (the first infantry unit of the stack).
        unit: UnitIx,
    },
    /// A side may reintegrate a detachment (24.3a).
    Reintegrate {
        /// The side.
        side: u8,
        /// The detachment.
        detachment: u8,
    },
    // movement (issue 15)
    /// A multi-hex stack about to rout: its owner picks the hex it keeps (19.7e).
    RoutHex {
        /// The routing units.
        units: Vec<UnitIx>,
        /// Hexes of the enemy units it retreats from.
        from: Vec<HexId>,
    },
    // pursuit (16) / opportunity charge (17)
    /// The pursuing player decides a step of a cavalry pursuit (16.1c–16.3, 10.6g, 10.8b).
    Pursuit(Box<crate::pursuit::Pursuit>),
    /// The reactive player decides a step of an opportunity charge (17.1–17.2).
    OppCharge(Box<crate::opportunity_charge::OppCharge>),
    /// Maintenance (4.0 E).
    Maintenance,
    /// The game is over.
    Over,
}

/// The units' states, in the scenario's order: a list shared by copies of a state until one of
/// them changes it (copy on write: `DerefMut` copies a shared list first, `Arc::make_mut`), so a
/// copy of a state costs no copy of its units, and two copies that share the list are equal
/// without a look at each unit. Reads and writes as the plain list (`Vec<UnitState>`); written
/// and read as one in files.
#[derive(Clone, Default)]
pub struct Units(std::sync::Arc<Vec<UnitState>>);

impl std::fmt::Debug for Units {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::ops::Deref for Units {
    type Target = Vec<UnitState>;
    #[inline]
    fn deref(&self) -> &Vec<UnitState> {
        &self.0
    }
}

impl std::ops::DerefMut for Units {
    /// The list to change: this copy's own (copied now if another copy shares it).
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<UnitState> {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

impl PartialEq for Units {
    fn eq(&self, other: &Self) -> bool {
        // One list (no copy has changed it since they were copied), or equal unit by unit.
        std::sync::Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl From<Vec<UnitState>> for Units {
    fn from(v: Vec<UnitState>) -> Self {
        Units(std::sync::Arc::new(v))
    }
}

impl<'a> IntoIterator for &'a Units {
    type Item = &'a UnitState;
    type IntoIter = std::slice::Iter<'a, UnitState>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Units {
    type Item = &'a mut UnitState;
    type IntoIter = std::slice::IterMut<'a, UnitState>;
    fn into_iter(self) -> Self::IntoIter {
        std::ops::DerefMut::deref_mut(self).iter_mut()
    }
}

impl Serialize for Units {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Units {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<UnitState>::deserialize(d).map(Units::from)
    }
}

/// A whole game state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// Game turn, from 1.
    pub turn: u16,
    /// The END TURN marker's box (0 … `end_boxes`; End when it equals `end_boxes`, 6.7a).
    pub end_box: u8,
    /// Units, as the scenario's.
    pub units: Units,
    /// Leaders, as the scenario's.
    pub leaders: Vec<LeaderState>,
    /// Brigades.
    pub brigades: Vec<BrigadeState>,
    /// Armies.
    pub armies: [ArmyState; 2],
    /// The activation in progress.
    pub activation: Option<Activation>,
    /// Where the procedure stands.
    pub phase: Phase,
    /// Phases to return to when the current one is done.
    pub stack: Vec<Phase>,
    /// Jobs waiting.
    pub jobs: Vec<Job>,
    /// Next stacking order number.
    pub next_order: u16,
    /// Initiative special results this turn (6.9c).
    pub isr: u8,
    /// Decisions taken (for agents' progress and statistics).
    pub decisions: u32,
    /// The dice.
    pub dice: Dice,
    /// The side holding each objective place of the scenario (the last with a combat unit in it).
    #[serde(default)]
    pub holders: Vec<u8>,
    /// Routed units made to rout again in the cascade of retreats under way (20.2b, 19.7f):
    /// each at most once, so that routers in a corner do not push each other round for ever
    /// (A-decision in docs/bar.md); emptied when the cascade ends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerouted: Vec<UnitIx>,
    /// Faces a rule test sets to come next, before the seeded dice (each 0–9); always empty in a
    /// game (a saved state carrying any is refused, `Ruleset::validate_state`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loaded: Vec<u8>,
    // pursuit (16) / opportunity charge (17)
    /// The rout retreats of the close combat under way, for a pursuit to follow (16.2b); emptied
    /// when its pursuits are settled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<crate::pursuit::Route>,
}

impl PartialEq for State {
    fn eq(&self, o: &Self) -> bool {
        self.decisions == o.decisions && self.phase == o.phase && self.same_but_phase_and_count(o)
    }
}

impl State {
    /// Whether two states are equal but for their phase and their count of decisions.
    pub fn same_but_phase_and_count(&self, o: &State) -> bool {
        let State {
            turn,
            end_box,
            units,
            leaders,
            brigades,
            armies,
            activation,
            phase: _,
            stack,
            jobs,
            next_order,
            isr,
            decisions: _,
            dice,
            holders,
            rerouted,
            loaded,
            routes,
        } = self;
        *turn == o.turn
            && *end_box == o.end_box
            && *units == o.units
            && same(leaders, &o.leaders)
            && same(brigades, &o.brigades)
            && *armies == o.armies
            && *activation == o.activation
            && same(stack, &o.stack)
            && same(jobs, &o.jobs)
            && *next_order == o.next_order
            && *isr == o.isr
            && *dice == o.dice
            && same(holders, &o.holders)
            && same(rerouted, &o.rerouted)
            && same(loaded, &o.loaded)
            && same(routes, &o.routes)
    }

    /// Whether a unit is on the map and not eliminated.
    pub fn on_map(&self, u: UnitIx) -> bool {
        let s = &self.units[usize::from(u)];
        !s.eliminated && !s.hexes.is_empty()
    }
}
