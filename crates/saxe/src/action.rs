//! The closed set of actions of the French series. Each has a stable text id (see
//! [`crate::Saxe::action_id`]) and a label.
use crate::scenario::{CommanderIx, FormationIx, UnitIx};
use hexmap::{Dir, HexId};

/// A player's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Action {
    /// Fire a redoubt in the redoubt-fire step (4.B1) at a hex.
    RedoubtFire { unit: UnitIx, target: HexId },
    /// Finish the redoubt-fire step.
    EndRedoubtFire,
    /// Test a formation for activation (5.1).
    Activate { formation: FormationIx },
    /// Activate a formation automatically on the first turn (16.1).
    ActivateAuto { formation: FormationIx },
    /// Test an independent unit for activation (5.1, 6.6).
    ActivateIndependent { unit: UnitIx },
    /// 2a / 8.8: turn an artillery unit one vertex.
    ArtilleryFace { unit: UnitIx, clockwise: bool },
    /// 2b / 9: fire an artillery unit at a hex.
    ArtilleryFire { unit: UnitIx, target: HexId },
    /// 8.5: move the formation commander one hex.
    CommanderStep {
        commander: CommanderIx,
        to: HexId,
        with_army: bool,
    },
    /// 3a: move one unit (optionally with the formation commander stacked with it).
    MoveUnit { unit: UnitIx, with_commander: bool },
    /// 3b: move a stack.
    MoveStack { hex: HexId, with_commander: bool },
    /// 3c: move a line of battle (6.5, 8.7).
    MoveLine { unit: UnitIx },
    /// 6.4 / 6.6: an out-of-command unit (or failed independent unit) turns one vertex.
    TurnInPlace { unit: UnitIx, clockwise: bool },
    /// End this activation.
    EndActivation,
    /// Moving group: one hex forward.
    Step { dir: Dir },
    /// Moving group: one vertex (8.3).
    Turn { clockwise: bool },
    /// Moving group: 180° (8.3).
    AboutFace,
    /// Moving stack: change the order (3.5.1).
    ChangeOrder,
    /// Moving line: leave a unit behind (8.7).
    Drop { unit: UnitIx },
    /// Cavalry line of two hexes pivots on a unit (8.7.1).
    Pivot { pivot: UnitIx, clockwise: bool },
    /// 8.4: leave an enemy ZoC by retreating into a rear hex (cavalry may turn one vertex).
    LeaveZoc { to: HexId, turn: i8 },
    /// End the movement of the group.
    Stop,
    /// 9.3: reaction fire at the hex a moving enemy left or entered.
    ReactionFire { unit: UnitIx, target: HexId },
    /// 8.6: cavalry reaction by the unit's stack.
    CavalryReaction { unit: UnitIx },
    /// Decline (a reaction, an advance, an evasion).
    Pass,
    /// 10.1: declare an attack.
    Attack {
        attackers: Vec<HexId>,
        defenders: Vec<HexId>,
    },
    /// End the combat phase.
    EndCombat,
    /// 1.3: light units retreat before combat.
    Evade,
    /// 11.1: the next step loss goes to this stack.
    AllocateLoss { hex: HexId },
    /// 11.2 / 12.4: next hex of a retreat or rout.
    RetreatTo { to: HexId },
    /// 11.3: advance into a vacated hex, with the whole stack or its top unit.
    Advance {
        from: HexId,
        to: HexId,
        whole_stack: bool,
    },
    /// B5: move the army commander one hex.
    ArmyStep { to: HexId },
    /// B5: end the army commander's movement.
    EndArmyMove,
    /// 11.4: this formation commander becomes army commander.
    Promote { commander: CommanderIx },
    /// 11.4: the aide de camp joins this unit.
    PlaceAide { unit: UnitIx },
    /// 12.4: this commander accompanies the routed unit.
    Accompany { commander: CommanderIx },
    /// 12.4: this accompanying commander stops here.
    StopAccompanying { commander: CommanderIx },
    /// B5: the army commander moves with the stack he is with (8.5).
    ArmyWithStack,
    /// F/L 4.B1 step 3, 8.5: the army commander or Louis XV moves "with his stack" during an
    /// activation: its units of the activated formation that are in command, at their own MP
    /// (docs/editions.md A6).
    ChiefWithStack { commander: CommanderIx },
    /// 8.6: cavalry reaction by the unit's line of battle.
    CavalryLineReaction { unit: UnitIx },
    /// 16.2: put the next unit in this hex (its facing is chosen next).
    PlaceUnit { unit: UnitIx, hex: HexId },
    /// 16.2: the facing of the unit just placed.
    FaceUnit { facing: hexmap::Vertex },
    /// 16.2: the abattis marker goes in this wood hex.
    PlaceAbattis { hex: HexId },
    /// 16.2: a commander goes to this hex.
    PlaceCommander { commander: CommanderIx, hex: HexId },
    /// 16.2: this French formation sets up on the map.
    SetUpOnMap { formation: FormationIx },
    /// 16.2: this French formation enters in march column at this south-edge hex.
    EnterInColumn { formation: FormationIx, hex: HexId },
    /// A (14.1): march this column (doubled MP).
    March { formation: FormationIx },
    /// A (14.3): deploy this column (regular MP, units one by one).
    Deploy { formation: FormationIx },
    /// 14: move this unit of the column.
    ColumnUnit { unit: UnitIx },
    /// 14: the next unit of the column enters the map at the entry hex.
    EnterUnit { unit: UnitIx },
    /// F/L 8.8: a reinforcement enters at `hex`, activated and in command.
    Reinforce { unit: UnitIx, hex: HexId },
    /// 14: the column has finished.
    EndColumn,
    /// 14.4: an activated independent unit moves in march column.
    IndependentColumn { unit: UnitIx },
}
