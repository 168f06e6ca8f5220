//! The choices a player makes, each a legal action with a stable text id.
use crate::geom::FacingExt as _;
use crate::scenario::{BrigadeIx, LeaderIx, UnitIx, WingIx};
use hexmap::HexId;

/// A choice.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Movement phase: move this unit alone (11.1).
    MoveUnit(UnitIx),
    /// Move this unit's stack of activated units together (11.1b).
    MoveStack(UnitIx),
    /// End the movement phase (11.0).
    MovementDone,
    /// Pick an activated leader to move (21.1a).
    MoveLeader(LeaderIx),
    /// The moving leader goes to a hex (21.1a).
    LeaderTo(LeaderIx, HexId),
    /// Declare a rapid march (11.4).
    Rapid,
    /// Step into a front hex; the hex is where the footprint's first hex goes (11.1a, 11.3).
    Step(HexId),
    /// Step backward (11.7) or, for a skirmisher, into a flank hex (11.8).
    Back(HexId),
    /// A single-hex facing change (9.3, 9.5).
    Turn(crate::geom::Facing),
    /// A line wheels about one end (`Head`: the right end is the pivot) by hexpoints, clockwise
    /// positive (9.4b).
    Wheel(hexmap::End, i8),
    /// A multi-hex column turns its head by hexsides (right positive) and advances (9.4a).
    ColumnTurn(i8),
    /// Reverse direction (9.6).
    Reverse,
    /// A formation change (8.4): the stack's new formations (infantry and guns may differ,
    /// 10.12c), facing, hexes, and the facing of guns that limber to leave (8.6b).
    Form(
        Vec<crate::geom::Formation>,
        crate::geom::Facing,
        Vec<HexId>,
        Option<crate::geom::Facing>,
    ),
    /// Leaving general order: the formation and facing adopted (8.4i).
    Adopt(crate::geom::Formation, crate::geom::Facing),
    /// End this unit's movement (11.1).
    Stop,
    /// The reactive player lets the move go on (12.8, 17.0).
    Pass,
    // close combat (13–15)
    /// Designate the stack of this (top) unit to attack in close combat (13.1).
    Attack(UnitIx),
    /// End the attacker designations (13.1).
    CcDone,
    /// Resolve next the combat whose first attacking stack this unit tops (13.0 5).
    CcFight(UnitIx),
    /// Retreat before close combat to this hex (13.9, 20.1).
    CcWithdraw(HexId),
    /// Stand and make the defender morale check (13.7).
    CcStand,
    /// Make defensive fire (13.10).
    CcFire,
    /// Hold defensive fire (13.10).
    CcHoldFire,
    /// Make defensive fire from this hex only, keeping the others' for another attacking stack
    /// (13.10c: a 2-hex line's hexes or a square may fire at different attackers).
    CcFireFrom(HexId),
    /// This leader adds his CV bonus to the stack (21.2b).
    CcLeader(LeaderIx),
    /// No leader's CV bonus for the stack (21.2b).
    CcNoLeader,
    /// This unit takes the SP loss (14.2b).
    CcLose(UnitIx),
    /// These units advance after combat onto these hexes (15.1).
    CcAdvance(Vec<UnitIx>, Vec<HexId>),
    /// No more units advance (15.1c).
    CcAdvanceDone,
    /// Among the owner's stacks of equal rank, this (top) unit's tests first (14.8b).
    CcFirst(UnitIx),
    /// The units that advanced after combat face so (15.1g).
    CcFace(crate::geom::Facing),
    /// The units that advanced after combat keep their facing (15.1g).
    CcFaceKeep,
    // fire (12)
    /// Declare a fire at the stack of this unit, by artillery or by infantry (12.1, 12.2e).
    FireAt(UnitIx, bool),
    /// Add the activated units of this hex to the fire being declared (12.2d, 12.2f).
    FireWith(HexId),
    /// Add the guns of this hex (stacked with a 2-hex line) giving this many of their SPs to the
    /// fire being declared, the rest kept for a second target (12.4c, E37).
    FireGuns(HexId, u8),
    /// Resolve the declared fire (12.1).
    FireResolve,
    /// Give up the fire being declared (nothing was rolled); that target is not offered to
    /// that type again this phase.
    FireCancel,
    /// End the fire phase.
    FireDone,
    /// Return fire at the stack of this unit (12.10).
    ReturnFire(UnitIx),
    /// Opportunity fire by the reactive artillery (true) or infantry, at the mover's new aspect or
    /// (true) at the one it had before its change (12.8, 12.8c).
    OppFire(bool, bool),
    // movement (issue 15)
    /// Declare a voluntary rout of this unit and its stack (19.10a–b).
    VoluntaryRout(UnitIx),
    /// The voluntary rout declarations are over: the rout retreats, then MC (J) (19.10c).
    VoluntaryRoutDone,
    /// Extend the moving formation into this hex (11.5).
    Extend(HexId),
    /// Contract the moving formation out of this hex (11.5).
    Contract(HexId),
    /// A multi-hex stack about to rout keeps this hex (19.7e).
    RoutHex(HexId),
    /// Put this unit on top of its stack (10.6f).
    Top(UnitIx),
    /// Break this parent unit down into its components (8.5a).
    Breakdown(UnitIx),
    /// Try to re-form this parent from its components (8.5b–c), placing it on these hexes in
    /// this formation and facing if the d100 roll succeeds.
    Reform(
        UnitIx,
        Vec<HexId>,
        crate::geom::Formation,
        crate::geom::Facing,
    ),
    /// Unlimbered artillery moves one hex by prolonge into this front or rear hex (11.6).
    Prolonge(HexId),
    // pursuit (16) / opportunity charge (17)
    /// Of several stacks that may pursue, this (top) unit's pursues next (16.1c).
    PursueFirst(UnitIx),
    /// The pursuer enters the next hex of the retreat path, facing so (16.2b).
    Pursue(crate::geom::Facing),
    /// The pursuing player attempts his one recall (16.3a).
    Recall,
    /// Exploitation: a facing change for 1 PP (16.2b).
    ExploitTurn(crate::geom::Facing),
    /// Exploitation: move into this front hex (16.2b).
    Exploit(HexId),
    /// The exploitation is over (16.2b).
    ExploitDone,
    /// End of pursuit: these units form the new stack in this hex (16.2c, 10.8b).
    Separate(Vec<UnitIx>, HexId),
    /// End of pursuit: this unit goes on top of the pursuing stack (10.6g).
    PursuitTop(UnitIx),
    /// End of pursuit: the stacking order stays (10.6g).
    PursuitDone,
    /// The reactive player's stack of this (top) unit makes an opportunity charge (17.1).
    OppCharge(UnitIx),
    /// The opportunity charge enters this hex (17.2a, A48).
    OppChargeTo(HexId),
    /// Against a separating stack: `true` the original stack (17.2d a, 17.3a), `false` the stack
    /// after the separation (17.2d b, 17.3b).
    OppChargeOriginal(bool),
    // charges (13.3–13.5, 13.8)
    /// Designate the cavalry stack of this (top) unit to charge a non-adjacent enemy (13.1d).
    Charge(UnitIx),
    /// The charge moves on; the hex is where the footprint's first hex goes (13.3a).
    ChargeHex(HexId),
    /// The charging line gives up this end hex (13.3c).
    ChargeContract(HexId),
    /// The charge ends here (13.3a, 13.3d).
    ChargeStop,
    /// A reaction facing change to this facing (13.4a–b).
    ReactFace(crate::geom::Facing),
    /// A reaction formation change: the stack's new formations, facing and hexes (13.4a–c).
    ReactForm(Vec<crate::geom::Formation>, crate::geom::Facing, Vec<HexId>),
    /// Only the units of this arm of a mixed infantry/artillery stack react, with this reaction
    /// (`ReactFace` or `ReactForm`); the others do not (13.4a).
    ReactPart(crate::data::Arm, Box<Action>),
    /// Countercharge into this hex (the footprint's first hex) (13.5).
    Countercharge(HexId),
    /// The stack of this cavalry (top) unit is asked first about a countercharge (13.5, A37).
    CounterchargeFirst(UnitIx),
    /// The stack of this cavalry (top) unit joins the close combat (13.8a).
    CcCavalryDefend(UnitIx),
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
            Action::MoveUnit(x) => format!("move:{}", u(x)),
            Action::MoveStack(x) => format!("move-stack:{}", u(x)),
            Action::MovementDone => "movement-done".into(),
            Action::MoveLeader(x) => format!("move-leader:{}", l(x)),
            Action::LeaderTo(x, h) => format!("lead:{}:{}", l(x), sc.board.label(*h)),
            Action::Rapid => "rapid".into(),
            Action::Step(h) => format!("step:{}", sc.board.label(*h)),
            Action::Back(h) => format!("back:{}", sc.board.label(*h)),
            Action::Turn(f) => format!("turn:{}", f.name()),
            Action::Wheel(end, n) => format!(
                "wheel:{}:{n:+}",
                match end {
                    hexmap::End::Head => "right",
                    hexmap::End::Tail => "left",
                }
            ),
            Action::ColumnTurn(n) => format!("column-turn:{n:+}"),
            Action::Reverse => "reverse".into(),
            Action::Form(fs, fc, hexes, leave) => format!(
                "form:{}:{}:{}{}",
                fs.iter().map(|f| f.key()).collect::<Vec<_>>().join("+"),
                fc.name(),
                sc.board.labels(&hexes[..], "-"),
                leave.map_or(String::new(), |l| format!(":guns-{}", l.name()))
            ),
            Action::Adopt(f, fc) => {
                format!("adopt:{}:{}", crate::geom::chart_key(*f), fc.name())
            }
            Action::Stop => "stop".into(),
            Action::Pass => "pass".into(),
            // close combat (13–15)
            Action::Attack(x) => format!("attack:{}", u(x)),
            Action::CcDone => "cc-done".into(),
            Action::CcFight(x) => format!("cc-fight:{}", u(x)),
            Action::CcWithdraw(h) => format!("cc-withdraw:{}", sc.board.label(*h)),
            Action::CcStand => "cc-stand".into(),
            Action::CcFire => "cc-fire".into(),
            Action::CcHoldFire => "cc-hold-fire".into(),
            Action::CcFireFrom(h) => format!("cc-fire-from:{}", sc.board.label(*h)),
            Action::CcLeader(x) => format!("cc-leader:{}", l(x)),
            Action::CcNoLeader => "cc-no-leader".into(),
            Action::CcLose(x) => format!("cc-lose:{}", u(x)),
            Action::CcAdvance(us, hs) => format!(
                "cc-advance:{}:{}",
                us.iter().map(u).collect::<Vec<_>>().join("+"),
                sc.board.labels(&hs[..], "-")
            ),
            Action::CcAdvanceDone => "cc-advance-done".into(),
            Action::CcFirst(x) => format!("cc-first:{}", u(x)),
            Action::CcFace(f) => format!("cc-face:{}", f.name()),
            Action::CcFaceKeep => "cc-face-keep".into(),
            Action::FireAt(x, art) => {
                format!("fire:{}:{}", u(x), if *art { "art" } else { "inf" })
            }
            Action::FireWith(h) => format!("fire-with:{}", sc.board.label(*h)),
            Action::FireGuns(h, n) => format!("fire-guns:{}:{n}", sc.board.label(*h)),
            Action::FireResolve => "fire-resolve".into(),
            Action::FireCancel => "fire-cancel".into(),
            Action::FireDone => "fire-done".into(),
            Action::ReturnFire(x) => format!("return-fire:{}", u(x)),
            Action::OppFire(art, old) => format!(
                "opp-fire:{}{}",
                if *art { "art" } else { "inf" },
                if *old { ":before" } else { "" }
            ),
            // movement (issue 15)
            Action::VoluntaryRout(x) => format!("rout:{}", u(x)),
            Action::VoluntaryRoutDone => "rout-done".into(),
            Action::Extend(h) => format!("extend:{}", sc.board.label(*h)),
            Action::Contract(h) => format!("contract:{}", sc.board.label(*h)),
            Action::RoutHex(h) => format!("rout-hex:{}", sc.board.label(*h)),
            Action::Top(x) => format!("top:{}", u(x)),
            Action::Breakdown(x) => format!("breakdown:{}", u(x)),
            Action::Reform(x, hexes, f, fc) => format!(
                "reform:{}:{}:{}:{}",
                u(x),
                sc.board.labels(&hexes[..], "-"),
                f.key(),
                fc.name()
            ),
            Action::Prolonge(h) => format!("prolonge:{}", sc.board.label(*h)),
            // pursuit (16) / opportunity charge (17)
            Action::PursueFirst(x) => format!("pursue-first:{}", u(x)),
            Action::Pursue(f) => format!("pursue:{}", f.name()),
            Action::Recall => "recall".into(),
            Action::ExploitTurn(f) => format!("exploit-turn:{}", f.name()),
            Action::Exploit(h) => format!("exploit:{}", sc.board.label(*h)),
            Action::ExploitDone => "exploit-done".into(),
            Action::Separate(us, h) => format!(
                "separate:{}:{}",
                us.iter().map(u).collect::<Vec<_>>().join("+"),
                sc.board.label(*h)
            ),
            Action::PursuitTop(x) => format!("pursuit-top:{}", u(x)),
            Action::PursuitDone => "pursuit-done".into(),
            Action::OppCharge(x) => format!("opp-charge:{}", u(x)),
            Action::OppChargeTo(h) => format!("opp-charge-to:{}", sc.board.label(*h)),
            Action::OppChargeOriginal(a) => {
                format!("opp-charge-option:{}", if *a { "a" } else { "b" })
            }
            // charges (13.3–13.5, 13.8)
            Action::Charge(x) => format!("charge:{}", u(x)),
            Action::ChargeHex(h) => format!("charge-hex:{}", sc.board.label(*h)),
            Action::ChargeContract(h) => format!("charge-contract:{}", sc.board.label(*h)),
            Action::ChargeStop => "charge-stop".into(),
            Action::ReactFace(f) => format!("react:face:{}", f.name()),
            Action::ReactForm(fs, fc, hexes) => format!(
                "react:form:{}:{}:{}",
                fs.iter().map(|f| f.key()).collect::<Vec<_>>().join("+"),
                fc.name(),
                sc.board.labels(&hexes[..], "-")
            ),
            Action::ReactPart(arm, a) => {
                let inner = a.id(sc);
                format!(
                    "react:{}:{}",
                    crate::close_combat::charge::arm_key(*arm),
                    inner.strip_prefix("react:").unwrap_or(&inner)
                )
            }
            Action::Countercharge(h) => format!("countercharge:{}", sc.board.label(*h)),
            Action::CounterchargeFirst(x) => format!("countercharge-first:{}", u(x)),
            Action::CcCavalryDefend(x) => format!("cc-cavalry-defend:{}", u(x)),
        }
    }
}
