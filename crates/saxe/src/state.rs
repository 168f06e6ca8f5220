//! The game state of the French series: everything needed to go on, small enough to clone in search.
use crate::scenario::{CommanderIx, FormationIx, Side, UnitIx};
use engine::Dice;
use hexmap::{Dir, HexId, Vertex};
use serde::{Deserialize, Serialize};

/// Unit status flags.
pub mod flag {
    /// Disorganised (12.2).
    pub const DISORG: u32 = 1;
    /// Routed (12.3).
    pub const ROUTED: u32 = 1 << 1;
    /// Out of command marker (6.4).
    pub const OOC: u32 = 1 << 2;
    /// Independent unit's "Activée" marker (4.B1).
    pub const ACTIVATED: u32 = 1 << 3;
    /// Moved this turn (9.1: guns that moved may not fire next turn).
    pub const MOVED: u32 = 1 << 4;
    /// Moved in the previous turn.
    pub const MOVED_PREV: u32 = 1 << 5;
    /// Fired this turn (8.1: guns that fired may not move).
    pub const FIRED: u32 = 1 << 6;
    /// Used its reaction fire this turn (9.3).
    pub const REACT_FIRED: u32 = 1 << 7;
    /// Cavalry that reacted (or tried) during the current enemy activation (8.6).
    pub const REACTED: u32 = 1 << 8;
    /// Stack order changed in an enemy ZoC this turn (3.5.1, 10.3 -2).
    pub const ORDER_IN_ZOC: u32 = 1 << 9;
    /// Disorganised by combat (the * result of 11.1).
    pub const DISORG_BY_COMBAT: u32 = 1 << 10;
    /// Attacked in this combat phase (10.1: once per activation).
    pub const ATTACKED: u32 = 1 << 11;
    /// Moved (or was dropped) in the current activation.
    pub const DONE: u32 = 1 << 12;
    /// Turned in place in the current activation (8.8, 6.4, 6.6).
    pub const TURNED: u32 = 1 << 13;
    /// Off the map: waiting to enter in march column (14, 16.2) or routed off (16.2 note).
    pub const OFFMAP: u32 = 1 << 14;
    /// In march column or deploying this turn (14.1, 14.3: +2 to its attacker).
    pub const COLUMN: u32 = 1 << 15;
    /// Artillery in battery: it has fired and may never move again (F/L 8.9, 9.5).
    pub const IN_BATTERY: u32 = 1 << 16;
    /// An independent unit deploying from march column this turn (F/L 14.3: +1 to its attacker;
    /// the marker goes at the end of the turn).
    pub const DEPLOYING: u32 = 1 << 17;
}

/// One combat unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    /// Hex; `None` once eliminated.
    pub hex: Option<HexId>,
    /// Facing vertex (meaningless while routed, rule 2.2).
    pub facing: Vertex,
    /// Steps lost (1.1.4).
    pub lost: u8,
    /// Position in its stack (lower is higher in the stack).
    pub order: u8,
    /// Flags, see [`flag`].
    pub flags: u32,
    /// Hex where it left the map (16.2: a routed French unit re-enters there).
    #[serde(default)]
    pub exit: Option<HexId>,
}

impl UnitState {
    /// Has a flag.
    pub fn has(&self, f: u32) -> bool {
        self.flags & f != 0
    }
    /// Set or clear a flag.
    pub fn set(&mut self, f: u32, on: bool) {
        if on {
            self.flags |= f;
        } else {
            self.flags &= !f;
        }
    }
}

/// One commander.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommanderState {
    /// Hex (`None`: killed and not replaced — an army commander whose side has no one left).
    pub hex: Option<HexId>,
    /// Flipped: his formation was tested this turn (4.B1).
    pub flipped: bool,
    /// Aides de camp that replaced him so far (11.4: each -1 to activation).
    pub aides: u8,
    /// Is the army commander now (11.4 promotion).
    pub army: bool,
    /// Has made his once-a-turn move (F/L 8.5: army commanders and Louis XV).
    #[serde(default)]
    pub moved: bool,
}

/// One formation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormationState {
    /// Tested for activation this turn.
    pub tested: bool,
    /// Demoralised (13.1).
    pub demoralised: bool,
    /// Commanders of this formation killed (13.1: -1 each).
    pub commanders_lost: u8,
    /// In march column, entering at this hex (14, 16.2).
    #[serde(default)]
    pub column: Option<HexId>,
    /// Deploying this turn (14.3: the column marker goes at the end of the turn).
    #[serde(default)]
    pub deploying: bool,
}

/// What is being activated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActTarget {
    /// A formation.
    Formation(FormationIx),
    /// An independent unit.
    Independent(UnitIx),
}

/// F/L 8.5: the MP of the army commander's and Louis XV's once-a-turn move (as cavalry).
pub const CHIEF_MP: u8 = 6;

/// An activation in progress (4.B1 / 5.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    /// Side.
    pub side: Side,
    /// Target.
    pub target: ActTarget,
    /// Passed the test (or automatic).
    pub success: bool,
    /// Units in command at the moment of activation (6.3).
    pub commanded: Vec<UnitIx>,
    /// Main actions (3a/3b/3c) still allowed.
    pub actions_left: u8,
    /// Kinds of main actions used (bit 0 unit, 1 stack, 2 line): 4.B1 "two different actions".
    pub kinds_used: u8,
    /// The movement stage has begun (no more 2a/2b artillery actions).
    pub moving_started: bool,
    /// Formation commander MP left (8.5).
    pub cmdr_mp: u8,
    /// F/L 4.B1 step 3, 8.5: the army commander and Louis XV who may still move in this
    /// activation, with their MP left (before the formation commander and the units move).
    #[serde(default)]
    pub chiefs: Vec<(CommanderIx, u8)>,
    /// MP a reinforcement already spent entering the map (F/L 8.8).
    #[serde(default)]
    pub entry_cost: u8,
}

/// How a group was selected to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GroupKind {
    /// 3a: one unit.
    Unit,
    /// 3b: a stack.
    Stack,
    /// 3c: a line of battle.
    Line,
    /// 8.6: cavalry reaction.
    Reaction,
    /// 5.3: half movement after a failed activation.
    Half,
    /// 14: a unit of a march column (doubled MP) or deploying from one.
    Column,
}

/// A group moving (8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moving {
    /// Owner.
    pub side: Side,
    /// Kind.
    pub kind: GroupKind,
    /// Units still moving.
    pub units: Vec<UnitIx>,
    /// MP left, parallel to `units`.
    pub mp: Vec<u8>,
    /// Vertices turned so far (8.3: at most three).
    pub vertices: u8,
    /// Units that tested morale for turning in a ZoC (one test only, 8.3).
    pub tested: Vec<UnitIx>,
    /// A commander moving with the group (8.5).
    pub commander: Option<CommanderIx>,
    /// Hexes moved.
    pub hexes: u8,
    /// Reaction target (8.6: must end adjacent to it).
    pub target: Option<UnitIx>,
}

impl Moving {
    /// A group starting to move: nothing turned, tested or moved yet, no reaction target.
    pub fn new(
        side: Side,
        kind: GroupKind,
        units: Vec<UnitIx>,
        mp: Vec<u8>,
        commander: Option<CommanderIx>,
    ) -> Moving {
        Moving {
            side,
            kind,
            units,
            mp,
            vertices: 0,
            tested: Vec::new(),
            commander,
            hexes: 0,
            target: None,
        }
    }
}

/// The inactive player's chance to react after an enemy moved one hex (8.6, 9.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reaction {
    /// Reacting side.
    pub side: Side,
    /// Enemy units that just moved: (unit, hex left, hex entered).
    pub movers: Vec<(UnitIx, HexId, HexId)>,
}

/// A combat being resolved (10, 11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    /// Attacking hexes.
    pub attackers: Vec<HexId>,
    /// Defending hexes.
    pub defenders: Vec<HexId>,
    /// Attacking units.
    pub att_units: Vec<UnitIx>,
    /// Defending units.
    pub def_units: Vec<UnitIx>,
    /// Stage: 0 declared, 1 evasions asked, 2 rolled (losses pending), 3 effects done, 4 retreats queued, 5 advance asked, 6 done.
    pub stage: u8,
    /// Results (attacker, defender).
    pub result: Option<(crate::scenario::Outcome, crate::scenario::Outcome)>,
    /// Step losses still to allocate (attacker, defender).
    pub losses_left: [u8; 2],
    /// Units that suffered a step loss (for 11.4).
    pub lost_steps: Vec<UnitIx>,
    /// The hex of each entry of `lost_steps` when it lost the step (11.4 looks at the commander's
    /// own stack).
    #[serde(default)]
    pub lost_hexes: Vec<HexId>,
    /// Defender hexes whose units all evaded before combat (1.3).
    pub evaded: Vec<HexId>,
    /// Defender hexes still to be asked about evasion.
    pub evade_queue: Vec<HexId>,
    /// Disorganised cavalry before the result (for *).
    pub disorg_cav_before: Vec<UnitIx>,
}

/// A retreat after combat or fire (11.2), one stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retreat {
    /// Owner.
    pub side: Side,
    /// Units retreating together.
    pub units: Vec<UnitIx>,
    /// Hexes still to go.
    pub left: u8,
    /// Hexes visited (no going back).
    pub visited: Vec<HexId>,
    /// Before-combat evasion of light units (1.3): no penalties for enemy hexes? (they still apply).
    pub evasion: bool,
}

/// A rout movement (12.4), one unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rout {
    /// Owner.
    pub side: Side,
    /// Unit.
    pub unit: UnitIx,
    /// Hexes still to go.
    pub left: u8,
    /// Commanders accompanying the rout (12.4).
    #[serde(default)]
    pub commanders: Vec<CommanderIx>,
    /// Commanders who may now choose to accompany it (12.4: stacked with it, or its formation
    /// commander when it passes through his hex).
    #[serde(default)]
    pub offer: Vec<CommanderIx>,
}

/// Advance after combat (11.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Advance {
    /// Victorious side.
    pub side: Side,
    /// (from hex, vacated hex) pairs open to advance.
    pub options: Vec<(HexId, HexId)>,
    /// The advancing side is the defender (may not enter an enemy ZoC).
    pub defender: bool,
}

/// A pending decision or procedure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    /// An activation.
    Activation(Activation),
    /// A group moving.
    Moving(Moving),
    /// A reaction opportunity.
    Reaction(Reaction),
    /// A combat.
    Combat(Combat),
    /// Loss allocation: side, steps, candidate hexes.
    Losses {
        /// Owner.
        side: Side,
        /// Index into [`Combat::losses_left`] (0 attacker, 1 defender).
        which: u8,
        /// Candidate hexes.
        hexes: Vec<HexId>,
    },
    /// A retreat.
    Retreat(Retreat),
    /// A rout.
    Rout(Rout),
    /// Advance after combat.
    Advance(Advance),
    /// Evade before combat (1.3): the defender decides for a hex.
    Evade {
        /// Owner.
        side: Side,
        /// Hex.
        hex: HexId,
        /// Hexes of the retreat.
        hexes: u8,
    },
    /// Choose a new army commander (11.4).
    NewArmyCommander {
        /// Side.
        side: Side,
    },
    /// A march column's movement in phase A, or its deployment (14.1, 14.3).
    Column {
        /// Side.
        side: Side,
        /// Formation.
        formation: FormationIx,
        /// Deploying (regular MP) rather than marching (doubled MP).
        deploy: bool,
    },
    /// Place an aide de camp with a unit of the formation (11.4).
    PlaceAide {
        /// Side.
        side: Side,
        /// Commander replaced.
        commander: CommanderIx,
    },
}

/// Phases of the turn when no frame is pending (rule 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// 16.2 free set-up (see [`SetupState`]).
    Setup,
    /// A: marching movement of this side's columns (14).
    March(Side),
    /// B: rally phase of the active player (12.2, 12.5).
    Rally,
    /// B: the active player fires his redoubts.
    RedoubtFire,
    /// B: choose a formation or independent unit to activate.
    ChooseActivation,
    /// B4: combat phase.
    Combat,
    /// B5: army commander's movement (MP left).
    ArmyCommander(u8),
    /// C: end of turn.
    EndOfTurn,
    /// The game is over.
    Over,
}

/// Stages of the free set-up (16.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetupStage {
    /// The Allies place their units.
    AlliedUnits,
    /// The Allies place the abattis in a wood.
    AlliedAbattis,
    /// The Allies place their commanders.
    AlliedCommanders,
    /// The French choose, formation by formation, to set up or to enter in march column.
    FrenchChoice,
    /// The French place their units set up on the map.
    FrenchUnits,
    /// The French place their commanders.
    FrenchCommanders,
}

/// The free set-up in progress (16.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupState {
    /// Stage.
    pub stage: SetupStage,
    /// Units still to place, in order.
    pub units: Vec<UnitIx>,
    /// A unit placed that still needs its facing.
    pub facing_for: Option<UnitIx>,
    /// Commanders still to place.
    pub commanders: Vec<CommanderIx>,
    /// Formations still to choose (French).
    pub formations: Vec<FormationIx>,
    /// Abattis hex chosen.
    pub abattis: Option<HexId>,
}

/// Battle perception (15.3) bookkeeping per side.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Perception {
    /// Routs and step losses this turn.
    pub losses_this_turn: u8,
    /// Tested at the end of the previous turn.
    pub tested_last_turn: bool,
    /// Under an "A" result this turn (no movement).
    pub halted: bool,
    /// Ever halted (15.3: the French "stopped" the retreat).
    pub ever_halted: bool,
}

/// Game options.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Options {
    /// 15.3 battle perception.
    pub perception: bool,
    /// 16.2 option: the 6L artillery with Armentières.
    #[serde(default)]
    pub armentieres_artillery: bool,
    /// Lauffeld 17.2 option 1: a redoubt in Lauffeld.
    #[serde(default)]
    pub fortify_lauffeld: bool,
    /// Lauffeld 17.2 option 2: redoubts in Lauffeld and Vlitingen (the French must take both for
    /// a brilliant victory).
    #[serde(default)]
    pub fortify_both: bool,
    /// Lauffeld 17.2 option 5: the Austrian formations activate on 3 or less.
    #[serde(default)]
    pub austrians_fight: bool,
    /// F/L 5.1 read literally: the die must be less than the activation value ("menor que"); by
    /// default the scenario sheets' "4 or fewer" (die ≤ value) applies.
    #[serde(default)]
    pub strict_activation: bool,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Scenario id.
    pub scenario: String,
    /// Options.
    pub options: Options,
    /// Turn (1-based).
    pub turn: u8,
    /// Active side.
    pub active: Side,
    /// Second half of the turn (B2).
    pub second: bool,
    /// Phase.
    pub phase: Phase,
    /// Units.
    pub units: Vec<UnitState>,
    /// Commanders.
    pub commanders: Vec<CommanderState>,
    /// Formations.
    pub formations: Vec<FormationState>,
    /// Control of Hastenbeck and Afferde.
    pub control: Vec<Side>,
    /// Pending frames (last = top).
    pub frames: Vec<Frame>,
    /// Dice.
    pub dice: Dice,
    /// Perception.
    pub perception: [Perception; 2],
    /// First-turn automatic activation used (16.1).
    pub auto_used: bool,
    /// Army commander killed per side (13.1: -2 to every formation).
    pub army_commander_lost: [bool; 2],
    /// Automatic activations used by the active player this turn (Hastenbeck 16.1, F/L 16.1/16.2).
    #[serde(default)]
    pub autos_used: u8,
    /// The Household may be activated (Fontenoy 16.1: an enemy came within three hexes of Louis
    /// XV; Lauffeld 16.2: a Household unit was attacked).
    #[serde(default)]
    pub household_free: bool,
    /// The result once over: (winner, level, rule).
    pub result: Option<(Option<Side>, String, String)>,
    /// Hexes attacked this combat phase (10.1 obligations).
    pub attacked_hexes: Vec<HexId>,
    /// The free set-up in progress (16.2).
    #[serde(default)]
    pub setup: Option<SetupState>,
    /// The army commander moved with a formation commander this turn (4.B5: his move is halved).
    #[serde(default)]
    pub army_moved_with: [bool; 2],
    /// F/L 4.B1 step 5: the army commander gave a double action this turn; "mantendría la opción
    /// de moverse en la siguiente activación, pero en este caso solo" (alone, not with his stack).
    #[serde(default)]
    pub army_alone: [bool; 2],
    /// Abattis hexes (16.1.4 set-up or chosen in 16.2).
    #[serde(default)]
    pub abattis: Vec<HexId>,
}

/// The direction a unit would move "forward" into.
pub fn forward_dirs(f: Vertex) -> [Dir; 2] {
    f.front()
}

impl State {
    /// Bytes this state occupies in memory: the struct and the heap it owns (vectors at capacity).
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        let frames: usize = self
            .frames
            .iter()
            .map(|f| {
                size_of::<Frame>()
                    + match f {
                        Frame::Activation(a) => a.commanded.capacity() * 2,
                        Frame::Moving(m) => {
                            m.units.capacity() * 2 + m.mp.capacity() + m.tested.capacity() * 2
                        }
                        Frame::Reaction(r) => {
                            r.movers.capacity() * size_of::<(u16, HexId, HexId)>()
                        }
                        Frame::Combat(c) => {
                            (c.attackers.capacity()
                                + c.defenders.capacity()
                                + c.evaded.capacity()
                                + c.evade_queue.capacity())
                                * 2
                                + (c.att_units.capacity()
                                    + c.def_units.capacity()
                                    + c.lost_steps.capacity()
                                    + c.disorg_cav_before.capacity())
                                    * 2
                        }
                        Frame::Losses { hexes, .. } => hexes.capacity() * 2,
                        Frame::Retreat(r) => r.units.capacity() * 2 + r.visited.capacity() * 2,
                        Frame::Advance(a) => a.options.capacity() * 4,
                        Frame::Rout(_)
                        | Frame::Evade { .. }
                        | Frame::NewArmyCommander { .. }
                        | Frame::PlaceAide { .. }
                        | Frame::Column { .. } => 0,
                    }
            })
            .sum();
        size_of::<State>()
            + self.scenario.capacity()
            + self.units.capacity() * size_of::<UnitState>()
            + self.commanders.capacity() * size_of::<CommanderState>()
            + self.formations.capacity() * size_of::<FormationState>()
            + self.frames.capacity().saturating_sub(self.frames.len()) * size_of::<Frame>()
            + frames
            + self.attacked_hexes.capacity() * 2
            + self.abattis.capacity() * 2
            + self
                .setup
                .as_ref()
                .map(|x| x.units.capacity() * 2 + x.commanders.capacity() + x.formations.capacity())
                .unwrap_or(0)
            + self
                .result
                .as_ref()
                .map(|r| r.1.capacity() + r.2.capacity())
                .unwrap_or(0)
    }
}
