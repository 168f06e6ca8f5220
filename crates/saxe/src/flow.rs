//! The sequence of play (4): the state machine that runs procedures until a side must decide.
use crate::Saxe;
use crate::event::{Event, Line};
use crate::query::Mover;
use crate::scenario::{Kind, Side, UnitIx};
use crate::state::*;
use hexmap::{Arc, HexId};

impl Saxe {
    /// A new game at the start of turn 1 (16.1).
    pub fn initial_state(&self, seed: u64, options: Options, ev: &mut Vec<Event>) -> State {
        let mut s = self.setup_state(seed, options);
        let sc = &self.sc;
        ev.push(Event::rule(
            &sc.rule,
            format!(
                "{} — turn {} of {}; the {} player is first",
                sc.name,
                sc.first_turn,
                sc.turns,
                sc.first.name()
            ),
        ));
        self.run(&mut s, ev);
        s
    }

    /// The position the scenario sets up (16.1; 16.2 and columns: the units still to place or to
    /// enter are off the map), before anything has run.
    pub fn setup_state(&self, seed: u64, options: Options) -> State {
        let sc = &self.sc;
        let mut units: Vec<UnitState> = sc
            .units
            .iter()
            .map(|_| UnitState {
                hex: None,
                facing: hexmap::Vertex::N,
                lost: 0,
                order: 0,
                flags: 0,
                exit: None,
            })
            .collect();
        let mut counts: std::collections::HashMap<HexId, u8> = Default::default();
        for r in &sc.reinforcements {
            units[usize::from(r.unit)].set(flag::OFFMAP, true);
        }
        for p in &sc.setup {
            if !self.in_play(&options, p.unit) {
                continue;
            }
            let o = counts.entry(p.hex).or_insert(0);
            units[usize::from(p.unit)] = UnitState {
                hex: Some(p.hex),
                facing: p.facing,
                lost: 0,
                order: *o,
                flags: 0,
                exit: None,
            };
            *o += 1;
        }
        let commanders = sc
            .commanders
            .iter()
            .enumerate()
            .map(|(i, c)| CommanderState {
                hex: sc
                    .commander_setup
                    .iter()
                    .find(|(x, _)| usize::from(*x) == i)
                    .map(|(_, h)| *h),
                flipped: false,
                aides: 0,
                army: c.army,
                moved: false,
            })
            .collect();
        let formations = sc
            .formations
            .iter()
            .map(|_| FormationState {
                tested: false,
                demoralised: false,
                commanders_lost: 0,
                column: None,
                deploying: false,
            })
            .collect();
        let mut s = State {
            scenario: sc.id.clone(),
            options,
            turn: sc.first_turn,
            active: sc.first,
            second: false,
            phase: Phase::Rally,
            units,
            commanders,
            formations,
            control: vec![sc.initial_control; sc.objectives.len()],
            frames: Vec::new(),
            dice: engine::Dice::new(seed),
            perception: Default::default(),
            auto_used: false,
            army_commander_lost: [false, false],
            autos_used: 0,
            household_free: false,
            result: None,
            attacked_hexes: Vec::new(),
            setup: None,
            army_moved_with: [false, false],
            army_alone: [false, false],
            abattis: sc.abattis.clone(),
        };
        s.phase = Phase::March(sc.first);
        if sc.free.is_some() {
            self.free_setup_state(&mut s);
        }
        if !sc.column_entries.is_empty() || sc.zone.is_some() {
            self.column_and_zone_state(&mut s);
        }
        s
    }

    /// Whether a unit is in this game (optional counters need their option).
    pub fn in_play(&self, options: &Options, u: UnitIx) -> bool {
        match self.sc.units[usize::from(u)].optional.as_deref() {
            None => true,
            Some("armentieres-artillery") => options.armentieres_artillery,
            // Lauffeld 17.2 option 1 (Lauffeld fortified) and option 2 (Lauffeld and Vlitingen).
            Some("fortify-lauffeld") => options.fortify_lauffeld || options.fortify_both,
            Some("fortify-both") => options.fortify_both,
            Some(_) => false,
        }
    }

    /// Who decides now.
    pub fn decider_side(&self, s: &State) -> Option<Side> {
        if s.phase == Phase::Over {
            return None;
        }
        Some(match s.frames.last() {
            Some(Frame::Activation(a)) => a.side,
            Some(Frame::Moving(m)) => m.side,
            Some(Frame::Reaction(r)) => r.side,
            Some(Frame::Combat(_)) => s.active,
            Some(Frame::Losses { side, .. }) => *side,
            Some(Frame::Retreat(r)) => r.side,
            Some(Frame::Rout(r)) => r.side,
            Some(Frame::Advance(a)) => a.side,
            Some(Frame::Evade { side, .. }) => *side,
            Some(Frame::NewArmyCommander { side }) => *side,
            Some(Frame::PlaceAide { side, .. }) => *side,
            Some(Frame::Column { side, .. }) => *side,
            None => match s.phase {
                Phase::Setup => match s.setup.as_ref().map(|x| x.stage) {
                    Some(SetupStage::AlliedUnits)
                    | Some(SetupStage::AlliedAbattis)
                    | Some(SetupStage::AlliedCommanders) => Side::Allies,
                    _ => Side::French,
                },
                Phase::March(side) => side,
                _ => s.active,
            },
        })
    }

    /// Run procedures until a decision with at least two choices is pending (a single forced
    /// choice is applied automatically) or the game is over.
    pub fn run(&self, s: &mut State, ev: &mut Vec<Event>) {
        for _ in 0..100_000 {
            if s.phase == Phase::Over {
                s.frames.clear();
                return;
            }
            if self.auto_step(s, ev) {
                continue;
            }
            // Decisions that always offer a way out (end the activation, stop, end the column)
            // and are never forced: ask without computing the list twice.
            if matches!(
                s.frames.last(),
                Some(Frame::Activation(_)) | Some(Frame::Column { .. })
            ) || matches!(s.frames.last(), Some(Frame::Moving(m)) if m.kind != GroupKind::Reaction && !m.units.is_empty())
            {
                return;
            }
            let legal = self.legal(s);
            match legal.len() {
                0 => {
                    // Nothing to choose: close the frame or the phase.
                    self.close_empty(s, ev);
                }
                1 if self.forced_ok(s) => {
                    let a = legal.into_iter().next().expect("one action"); // invariant: len == 1
                    self.apply_action(s, &a, ev);
                }
                _ => return,
            }
        }
        ev.push(Event::rule(
            "4",
            "internal: procedure did not settle; game stopped",
        ));
        s.phase = Phase::Over;
    }

    /// Whether a single legal action may be applied without asking (forced moves of retreats and
    /// routs, single choices of procedures). Top-level phase decisions are always asked.
    fn forced_ok(&self, s: &State) -> bool {
        matches!(
            s.frames.last(),
            Some(Frame::Retreat(_))
                | Some(Frame::Rout(_))
                | Some(Frame::Losses { .. })
                | Some(Frame::NewArmyCommander { .. })
                | Some(Frame::PlaceAide { .. })
        )
    }

    /// A frame or phase with no legal action.
    fn close_empty(&self, s: &mut State, ev: &mut Vec<Event>) {
        match s.frames.last().cloned() {
            Some(Frame::Rout(r)) => {
                s.frames.pop();
                if self.rout_leaves_map(s, &r) && self.sc.free.is_some() && r.side == Side::French {
                    // 16.2 note: a routed French unit that leaves the map may come back.
                    let us = &mut s.units[usize::from(r.unit)];
                    us.exit = us.hex;
                    us.hex = None;
                    us.set(flag::OFFMAP, true);
                    ev.push(Event::rule(
                        "16.2",
                        self.unit_line(s, &[r.unit])
                            .verb(" routs", " rout")
                            .t(" off the map; it may re-enter if it rallies"),
                    ));
                } else {
                    let h = s.units[usize::from(r.unit)].hex;
                    let why = if self.rout_leaves_map(s, &r) {
                        "routed off the map"
                    } else {
                        "cannot complete its rout movement"
                    };
                    self.eliminate(s, r.unit, why, "12.4", ev);
                    // 11.4: commanders who went along roll when their unit is eliminated.
                    if let Some(h) = h {
                        let with: Vec<_> = r
                            .commanders
                            .iter()
                            .copied()
                            .filter(|&c| s.commanders[usize::from(c)].hex == Some(h))
                            .collect();
                        for c in with {
                            self.commander_casualty(s, c, h, true, ev);
                        }
                    }
                }
            }
            Some(Frame::Retreat(r)) => {
                s.frames.pop();
                let h = r.units.first().and_then(|&u| s.units[usize::from(u)].hex);
                for u in r.units {
                    self.eliminate(s, u, "cannot retreat", "11.2", ev);
                }
                // 11.4: "eliminated entirely, whether by combat, fire or retreat".
                if let Some(h) = h {
                    for c in self.commanders_at(s, h) {
                        self.commander_casualty(s, c, h, true, ev);
                    }
                }
            }
            Some(Frame::NewArmyCommander { side }) => {
                s.frames.pop();
                ev.push(Event::rule(
                    "11.4",
                    format!("no formation commander left to lead the {}", side.name()),
                ));
            }
            Some(Frame::PlaceAide { commander, .. }) => {
                s.frames.pop();
                ev.push(Event::rule(
                    "11.4",
                    format!(
                        "no unit of {}'s formation left for his aide de camp",
                        self.cname(commander)
                    ),
                ));
            }
            Some(_) => {
                s.frames.pop();
            }
            None if s.phase == Phase::Setup => {
                // A unit with nowhere to go stays off the map (16.2).
                if let Some(st) = s.setup.as_mut() {
                    if st.facing_for.is_none() && !st.units.is_empty() {
                        let u = st.units.remove(0);
                        ev.push(Event::rule(
                            "16.2",
                            self.unit_line(s, &[u])
                                .t(" finds no hex to set up in and stays off the map"),
                        ));
                        return;
                    }
                    if let Some(c) = (!st.commanders.is_empty()).then(|| st.commanders.remove(0)) {
                        ev.push(Event::rule(
                            "16.2",
                            format!("{} finds no unit to join", self.cname(c)),
                        ));
                        return;
                    }
                }
                // Nothing else can be empty: finish the stage by applying a no-op.
                let a = crate::action::Action::SetUpOnMap { formation: u8::MAX };
                self.apply_setup(s, &a, ev);
            }
            None => self.next_phase(s, ev),
        }
    }

    /// Procedures that need no decision. Returns true if it changed something.
    fn auto_step(&self, s: &mut State, ev: &mut Vec<Event>) -> bool {
        match s.frames.last() {
            Some(Frame::Combat(_)) => {
                self.progress_combat(s, ev);
                true
            }
            Some(Frame::Reaction(r)) => {
                // Drop movers that are gone; close if no mover left.
                let r = r.clone();
                let movers: Vec<_> = r
                    .movers
                    .iter()
                    .copied()
                    .filter(|(u, _, to)| s.units[usize::from(*u)].hex == Some(*to))
                    .collect();
                if movers.is_empty() {
                    s.frames.pop();
                    return true;
                }
                if movers.len() != r.movers.len() {
                    if let Some(Frame::Reaction(rr)) = s.frames.last_mut() {
                        rr.movers = movers;
                    }
                    return true;
                }
                false
            }
            Some(Frame::Moving(m)) if m.units.is_empty() => {
                s.frames.pop();
                self.after_move(s, ev);
                true
            }
            Some(Frame::Rout(r)) if !self.alive(s, r.unit) => {
                s.frames.pop();
                true
            }
            Some(Frame::Retreat(r)) => {
                // F/L 8.9, 11.2.1 (A15): a gun in battery cannot move, so its retreat is
                // impossible and it is eliminated; the rest of the stack retreats.
                let pinned: Vec<UnitIx> = r
                    .units
                    .iter()
                    .copied()
                    .filter(|&u| self.alive(s, u) && self.gun_pinned(s, u))
                    .collect();
                if !pinned.is_empty() {
                    for g in pinned {
                        self.eliminate(
                            s,
                            g,
                            "a gun in battery cannot retreat (8.9, A15)",
                            "11.2.1",
                            ev,
                        );
                    }
                    return true;
                }
                let alive: Vec<UnitIx> = r
                    .units
                    .iter()
                    .copied()
                    .filter(|&u| self.alive(s, u) && !self.has(s, u, flag::ROUTED))
                    .collect();
                if alive.is_empty() {
                    s.frames.pop();
                    return true;
                }
                if alive.len() != r.units.len() {
                    if let Some(Frame::Retreat(rr)) = s.frames.last_mut() {
                        rr.units = alive;
                    }
                    return true;
                }
                if r.left == 0 {
                    s.frames.pop();
                    return true;
                }
                false
            }
            Some(_) => false,
            None => match s.phase {
                Phase::Rally => {
                    // Hastenbeck 4.B1: the active player's Rally Phase; F/L rallies in phase C.
                    if self.edition.rally_in_own_phase() {
                        self.rally_phase(s, s.active, ev);
                    }
                    s.phase = Phase::RedoubtFire;
                    true
                }
                Phase::EndOfTurn => {
                    self.end_of_turn(s, ev);
                    true
                }
                _ => false,
            },
        }
    }

    /// Move to the next phase (4).
    pub fn next_phase(&self, s: &mut State, ev: &mut Vec<Event>) {
        s.phase = match s.phase {
            Phase::Setup => Phase::March(self.sc.first),
            Phase::March(side) => {
                if side == self.sc.first {
                    Phase::March(side.other())
                } else {
                    Phase::Rally
                }
            }
            Phase::Rally => Phase::RedoubtFire,
            Phase::RedoubtFire => Phase::ChooseActivation,
            Phase::ChooseActivation => {
                ev.push(Event::rule(
                    "4",
                    format!("{} combat phase", s.active.name()),
                ));
                s.attacked_hexes.clear();
                Phase::Combat
            }
            Phase::Combat if self.edition.army_moves_in_activation() => {
                // F/L 4.B1: the army commander moved during the activations; no phase B5.
                for u in s.units.iter_mut() {
                    u.set(flag::ATTACKED, false);
                }
                self.end_of_player_phase(s, ev)
            }
            Phase::Combat => {
                for u in s.units.iter_mut() {
                    u.set(flag::ATTACKED, false);
                }
                // 4.B5: halved if he moved with a formation commander.
                Phase::ArmyCommander(if s.army_moved_with[s.active.ix()] {
                    3
                } else {
                    6
                })
            }
            Phase::ArmyCommander(_) => self.end_of_player_phase(s, ev),
            Phase::EndOfTurn => Phase::EndOfTurn,
            Phase::Over => Phase::Over,
        };
    }

    /// The end of a player's phase B: the other player's B2, or the end of the turn.
    fn end_of_player_phase(&self, s: &mut State, ev: &mut Vec<Event>) -> Phase {
        if s.second {
            Phase::EndOfTurn
        } else {
            s.second = true;
            s.autos_used = 0;
            s.active = s.active.other();
            ev.push(Event::rule(
                "4.B2",
                format!("turn {}: the {} player is active", s.turn, s.active.name()),
            ));
            Phase::Rally
        }
    }

    /// Rally of one side's routed and disorganised units (12.2, 12.5): the active player's Rally
    /// Phase (Hastenbeck 4.B1) or its half of the reorganisation phase C (F/L 4.C).
    fn rally_phase(&self, s: &mut State, side: Side, ev: &mut Vec<Event>) {
        self.rally_off_map(s, side, ev);
        for u in 0..s.units.len() as UnitIx {
            if self.side_of(u) != side || !self.alive(s, u) {
                continue;
            }
            let Some(h) = s.units[usize::from(u)].hex else {
                continue;
            };
            let in_zoc = self.in_zoc_of(s, h, side.other());
            if self.has(s, u, flag::ROUTED) {
                if in_zoc {
                    continue;
                }
                // 12.5: -1 commander adjacent, -2 stacked (not cumulative).
                let own = self.sc.units[usize::from(u)]
                    .formation
                    .map(|f| self.formation_commander(f));
                let mut best = 0;
                for (c, cs) in s.commanders.iter().enumerate() {
                    let Some(ch) = cs.hex else { continue };
                    if !(cs.army && self.sc.commanders[c].side == side) && Some(c as u8) != own {
                        continue;
                    }
                    let d = ch.distance(h);
                    best = best.min(if d == 0 {
                        -2
                    } else if d == 1 {
                        -1
                    } else {
                        0
                    });
                }
                let mut mods = Vec::new();
                if best != 0 {
                    mods.push((
                        if best == -2 {
                            "commander stacked"
                        } else {
                            "commander adjacent"
                        }
                        .to_string(),
                        best,
                    ));
                }
                let mv = self.morale(s, u);
                let hidden = self.hidden_of(s, u);
                let (_, t) = self.roll_for(
                    s,
                    ev,
                    "12.5",
                    Line::new()
                        .t("rally test of ")
                        .units(self.named(s, &[u]))
                        .private(hidden, format!(" (MV {mv})")),
                    hidden,
                    mods,
                    |t| {
                        if t <= mv {
                            "rallied, now disorganised".into()
                        } else {
                            "still routed".into()
                        }
                    },
                );
                if t <= mv {
                    // A rallied unit faces as the unit it stands with (3.1), else keeps its facing.
                    let mate = self
                        .combat_units_at(s, h)
                        .into_iter()
                        .find(|&x| x != u && !self.has(s, x, flag::ROUTED));
                    let top = self.units_at(s, h).len() as u8;
                    let facing = mate.map(|m| s.units[usize::from(m)].facing);
                    let us = &mut s.units[usize::from(u)];
                    us.set(flag::ROUTED, false);
                    us.set(flag::DISORG, true);
                    if let Some(f) = facing {
                        us.facing = f;
                    }
                    us.order = top;
                }
            } else if self.has(s, u, flag::DISORG) {
                // F/L 13.1: in a demoralised formation a disorganised unit stays disorganised.
                if self.edition.demoralised_stay_disorganised() && self.demoralised(s, u) {
                    continue;
                }
                if !in_zoc {
                    s.units[usize::from(u)].set(flag::DISORG | flag::DISORG_BY_COMBAT, false);
                    ev.push(Event::rule(
                        "12.2",
                        self.unit_line(s, &[u])
                            .verb(" is", " are")
                            .t(" reorganised (not in an enemy ZoC)"),
                    ));
                } else {
                    // 12.1: one test per stack with the best morale of the stack; the first
                    // disorganised unit of the stack tests for all of them.
                    let stack: Vec<UnitIx> = self
                        .result_units_at(s, h)
                        .into_iter()
                        .filter(|&x| self.has(s, x, flag::DISORG) && self.side_of(x) == side)
                        .collect();
                    if stack.first() != Some(&u) {
                        continue;
                    }
                    if self.morale_test(s, &stack, 1, true, "in an enemy ZoC (12.2)", "12.2", ev) {
                        for &x in &stack {
                            s.units[usize::from(x)]
                                .set(flag::DISORG | flag::DISORG_BY_COMBAT, false);
                            ev.push(Event::rule(
                                "12.2",
                                self.unit_line(s, &[x])
                                    .verb(" is", " are")
                                    .t(" reorganised"),
                            ));
                        }
                    }
                }
            }
        }
    }

    /// After a group has finished moving: update control of places.
    pub fn after_move(&self, s: &mut State, ev: &mut Vec<Event>) {
        self.update_control(s, ev);
    }

    /// Control of the objectives (15: Hastenbeck and Afferde; Fontenoy and the pontoon bridge;
    /// Lauffeld and Vlitingen): a side holds a place when it alone has combat units in it;
    /// otherwise it keeps its last holder.
    pub fn update_control(&self, s: &mut State, ev: &mut Vec<Event>) {
        self.check_household(s, ev);
        for (i, obj) in self.sc.objectives.iter().enumerate() {
            let mut present = [false, false];
            for &h in obj.hexes.iter() {
                for u in self.combat_units_at(s, h) {
                    if !self.has(s, u, flag::ROUTED) {
                        present[self.side_of(u).ix()] = true;
                    }
                }
            }
            let holder = match present {
                [true, false] => Some(Side::French),
                [false, true] => Some(Side::Allies),
                _ => None,
            };
            if let Some(hd) = holder
                && s.control[i] != hd
            {
                s.control[i] = hd;
                ev.push(Event::rule(
                    "15",
                    format!("{} is now in {} hands", obj.name, hd.name()),
                ));
            }
        }
    }

    /// Losses of a formation (13.1).
    pub fn formation_losses(&self, s: &State, f: u8) -> u32 {
        let mut n = 0u32;
        for (i, d) in self.sc.units.iter().enumerate() {
            if d.formation != Some(f) || d.kind == Kind::Redoubt {
                continue;
            }
            let us = &s.units[i];
            n += u32::from(us.lost);
            // 13.1: a routed unit counts -1 (Hastenbeck "per routed unit"); F/L "-1 por paso de
            // la formación huyendo": each of its remaining steps.
            if us.has(flag::ROUTED) && us.lost < d.steps {
                n += if self.edition.routed_count_by_step() {
                    u32::from(d.steps - us.lost)
                } else {
                    1
                };
            }
        }
        // 13.1: Hastenbeck -1 / -2, F/L -2 / -3 for a dead formation / army commander.
        let (per_formation_cmdr, per_army_cmdr) = self.edition.commander_morale_losses();
        n += per_formation_cmdr * u32::from(s.formations[usize::from(f)].commanders_lost);
        if s.army_commander_lost[self.sc.formations[usize::from(f)].side.ix()] {
            n += per_army_cmdr;
        }
        n
    }

    /// Whether a side's army is demoralised (13.3).
    pub fn army_demoralised(&self, s: &State, side: Side) -> bool {
        let n = self
            .sc
            .formations
            .iter()
            .enumerate()
            .filter(|(i, f)| f.side == side && s.formations[*i].demoralised)
            .count();
        n >= usize::from(self.sc.army_demoralisation[side.ix()])
    }

    /// Demoralised formations of a side.
    pub fn demoralised_count(&self, s: &State, side: Side) -> usize {
        self.sc
            .formations
            .iter()
            .enumerate()
            .filter(|(i, f)| f.side == side && s.formations[*i].demoralised)
            .count()
    }

    /// End of turn (Hastenbeck 4.C, F/L 4.D; F/L's 4.C reorganisation phase first).
    fn end_of_turn(&self, s: &mut State, ev: &mut Vec<Event>) {
        // F/L 4.C: the reorganisation phase of both players (12.2, 12.5), before phase D.
        if !self.edition.rally_in_own_phase() {
            ev.push(Event::rule("4.C", "reorganisation phase"));
            for side in [self.sc.first, self.sc.first.other()] {
                self.rally_phase(s, side, ev);
            }
        }
        self.end_of_turn_columns(s);
        s.army_moved_with = [false, false];
        s.army_alone = [false, false];
        for c in s.commanders.iter_mut() {
            c.flipped = false;
            c.moved = false;
        }
        for f in s.formations.iter_mut() {
            f.tested = false;
        }
        for u in s.units.iter_mut() {
            let moved = u.has(flag::MOVED);
            u.set(flag::MOVED_PREV, moved);
            u.set(
                flag::ACTIVATED
                    | flag::MOVED
                    | flag::FIRED
                    | flag::REACT_FIRED
                    | flag::REACTED
                    | flag::ORDER_IN_ZOC
                    | flag::OOC
                    | flag::DONE,
                false,
            );
        }
        // 13.1 formation morale.
        for f in 0..self.sc.formations.len() as u8 {
            // Lauffeld 16.2 / 13.2: the Household's units are independent, without formation morale.
            if s.formations[usize::from(f)].demoralised || self.household_independent(f) {
                continue;
            }
            let l = self.formation_losses(s, f);
            let fd = &self.sc.formations[usize::from(f)];
            if l >= fd.demoralisation {
                s.formations[usize::from(f)].demoralised = true;
                ev.push(Event::rule(
                    "13.1",
                    format!(
                        "formation {} demoralised: losses {l} ≥ {}",
                        fd.name, fd.demoralisation
                    ),
                ));
            }
        }
        for side in [Side::French, Side::Allies] {
            if self.army_demoralised(s, side) {
                ev.push(Event::rule(
                    "13.3",
                    format!(
                        "the {} army is demoralised ({} formations)",
                        side.name(),
                        self.demoralised_count(s, side)
                    ),
                ));
            }
        }
        self.update_control(s, ev);
        // Hastenbeck 15.1 automatic victory (F/L 15.1 is the death of Louis XV or Cumberland,
        // decided when it happens).
        if self.edition == crate::Edition::Hastenbeck
            && s.control.iter().all(|&c| c == Side::French)
            && self.army_demoralised(s, Side::Allies)
        {
            self.finish(
                s,
                Some(Side::French),
                "Tremendous French victory",
                "15.1",
                ev,
            );
            return;
        }
        // 15.3 battle perception.
        if s.options.perception {
            let mut halted = [false, false];
            for side in [Side::French, Side::Allies] {
                let p = s.perception[side.ix()].clone();
                if p.losses_this_turn < 3 {
                    s.perception[side.ix()].tested_last_turn = false;
                    continue;
                }
                let mut mods = Vec::new();
                if p.tested_last_turn {
                    mods.push(("tested last turn".into(), 1));
                }
                if p.losses_this_turn >= 5 {
                    mods.push(("5 routs or step losses".into(), 1));
                }
                if self.demoralised_count(s, side) > 0 {
                    mods.push(("a demoralised formation".into(), 1));
                }
                let french = side == Side::French;
                let (_, t) = self.roll(
                    s,
                    ev,
                    "15.3",
                    format!("battle perception of the {}", side.name()),
                    mods,
                    |t| {
                        if t >= 7 && !french {
                            "R: the Allies retreat".into()
                        } else if t >= 6 && french {
                            "A: no movement next turn".into()
                        } else {
                            "no effect".into()
                        }
                    },
                );
                s.perception[side.ix()].tested_last_turn = true;
                if french && t >= 6 {
                    halted[0] = true;
                }
                if !french && t >= 7 {
                    let level = if s.control[self.sc.objective_ix("afferde").unwrap_or(0)]
                        == Side::French
                    {
                        "Tremendous French victory"
                    } else if !s.perception[0].ever_halted {
                        "Brilliant French victory"
                    } else {
                        "Limited French victory"
                    };
                    self.finish(s, Some(Side::French), level, "15.3", ev);
                    return;
                }
            }
            for side in [Side::French, Side::Allies] {
                let p = &mut s.perception[side.ix()];
                p.halted = halted[side.ix()];
                p.ever_halted |= p.halted;
                p.losses_this_turn = 0;
            }
        } else {
            for p in s.perception.iter_mut() {
                p.losses_this_turn = 0;
            }
        }
        if s.turn >= self.sc.turns {
            self.final_victory(s, ev);
            return;
        }
        s.turn += 1;
        s.second = false;
        s.autos_used = 0;
        s.active = self.sc.first;
        s.phase = Phase::March(self.sc.first);
        ev.push(Event::rule(
            self.edition.end_of_turn_rule(),
            format!(
                "turn {} begins; the {} player is active",
                s.turn,
                s.active.name()
            ),
        ));
    }

    /// 15.2: victory at the end of the scenario.
    fn final_victory(&self, s: &mut State, ev: &mut Vec<Event>) {
        let (winner, level) = self.standing(s);
        self.finish(s, winner, level, self.victory_rule(), ev);
    }

    /// The rule whose victory conditions decide the game at its end: Hastenbeck 15.2 prints
    /// them; in *Les victoires du Maréchal de Saxe* 15.2 sends to the scenario's conditions,
    /// Fontenoy's in 16.1 and Lauffeld's in 16.2.
    pub fn victory_rule(&self) -> &'static str {
        if self.sc.objective_ix("fontenoy").is_some() {
            "15.2, 16.1"
        } else if self.sc.objective_ix("lauffeld").is_some() {
            "15.2, 16.2"
        } else {
            "15.2"
        }
    }

    /// The victory level of 15.2 if the game ended now (the standing shown to players).
    pub fn standing(&self, s: &State) -> (Option<Side>, &'static str) {
        if self.sc.objective_ix("fontenoy").is_some() {
            return self.fontenoy_standing(s);
        }
        if self.sc.objective_ix("lauffeld").is_some() {
            return self.lauffeld_standing(s);
        }
        let f_dem = self.army_demoralised(s, Side::French);
        let a_dem = self.army_demoralised(s, Side::Allies);
        let hast = s.control[self.sc.objective_ix("hastenbeck").unwrap_or(0)];
        let aff = s.control[self.sc.objective_ix("afferde").unwrap_or(0)];
        let (winner, level) = if hast == Side::French {
            if a_dem && !f_dem {
                (Some(Side::French), "Brilliant French victory")
            } else if self.demoralised_count(s, Side::Allies) > 0 && !f_dem {
                (Some(Side::French), "Limited French victory")
            } else {
                (None, "Forfeited game")
            }
        } else if aff == Side::Allies && !a_dem {
            if f_dem {
                (Some(Side::Allies), "Tremendous Allied victory")
            } else if self.demoralised_count(s, Side::French) >= 2 {
                (Some(Side::Allies), "Brilliant Allied victory")
            } else {
                (Some(Side::Allies), "Limited Allied victory")
            }
        } else {
            (None, "Forfeited game")
        };
        (winner, level)
    }

    /// Fontenoy 16.1 victory conditions (the English set-up sheet; the Spanish translation asks
    /// two demoralised Allied formations for the limited French victory).
    fn fontenoy_standing(&self, s: &State) -> (Option<Side>, &'static str) {
        let held = |k: &str| self.sc.objective_ix(k).map(|i| s.control[i]);
        let f_dem = self.army_demoralised(s, Side::French);
        let a_dem = self.army_demoralised(s, Side::Allies);
        if held("fontenoy") == Some(Side::Allies) {
            if held("pontoon") == Some(Side::Allies) && f_dem && !a_dem {
                (Some(Side::Allies), "Brilliant English victory")
            } else if self.demoralised_count(s, Side::French) >= 2 && !a_dem {
                (Some(Side::Allies), "Limited English victory")
            } else {
                (None, "Forfeited game")
            }
        } else if a_dem && !f_dem {
            (Some(Side::French), "Brilliant French victory")
        } else if self.demoralised_count(s, Side::Allies) >= 1 && !f_dem {
            (Some(Side::French), "Limited French victory")
        } else {
            (None, "Forfeited game")
        }
    }

    /// Lauffeld 16.2 victory conditions; with 17.2 option 2 a brilliant French victory needs
    /// Vlitingen too.
    fn lauffeld_standing(&self, s: &State) -> (Option<Side>, &'static str) {
        let held = |k: &str| self.sc.objective_ix(k).map(|i| s.control[i]);
        let f_dem = self.army_demoralised(s, Side::French);
        let a_dem = self.army_demoralised(s, Side::Allies);
        if held("lauffeld") == Some(Side::French) {
            let both = !s.options.fortify_both || held("vlitingen") == Some(Side::French);
            if a_dem && !f_dem && both {
                (Some(Side::French), "Brilliant French victory")
            } else if !f_dem {
                (Some(Side::French), "Limited French victory")
            } else if !a_dem {
                (Some(Side::Allies), "Limited English victory")
            } else {
                (None, "Forfeited game")
            }
        } else if f_dem && !a_dem {
            (Some(Side::Allies), "Brilliant English victory")
        } else {
            (None, "Forfeited game")
        }
    }

    /// The victory levels of a Fontenoy/Lauffeld scenario (15.1, 16.1, 16.2), or `None`.
    pub fn fl_outcome_levels(&self) -> Option<Vec<(String, String)>> {
        if self.edition != crate::Edition::FontenoyLauffeld {
            return None;
        }
        let mut v: Vec<(String, String)> = Vec::new();
        for c in &self.sc.commanders {
            if c.king || (c.army && c.side == Side::Allies) {
                v.push((automatic_level(c.side.other(), &c.name), "15.1".into()));
            }
        }
        for l in [
            "Brilliant French victory",
            "Limited French victory",
            "Forfeited game",
            "Limited English victory",
            "Brilliant English victory",
        ] {
            v.push((l.into(), self.victory_rule().into()));
        }
        Some(v)
    }

    fn finish(
        &self,
        s: &mut State,
        winner: Option<Side>,
        level: &str,
        rule: &str,
        ev: &mut Vec<Event>,
    ) {
        ev.push(Event::rule(rule, format!("game over: {level}")));
        s.result = Some((winner, level.to_string(), rule.to_string()));
        s.phase = Phase::Over;
        s.frames.clear();
    }

    /// Start an activation (5.1, 5.3, 6.2, 6.3, 6.6, 16.1).
    pub fn begin_activation(
        &self,
        s: &mut State,
        target: ActTarget,
        auto: bool,
        ev: &mut Vec<Event>,
    ) {
        self.begin_activation_of(s, target, auto, false, ev);
    }

    /// The rule that grants a scenario's automatic activations: Hastenbeck 16.1 (both of its
    /// scenarios); Fontenoy/Lauffeld, the scenario's own rule (Fontenoy 16.1, Lauffeld 16.2).
    pub fn auto_activation_rule(&self) -> &str {
        match self.edition {
            crate::Edition::Hastenbeck => "16.1",
            crate::Edition::FontenoyLauffeld => &self.sc.rule,
        }
    }

    /// [`Saxe::begin_activation`]; `reinforcement`: an F/L reinforcement arriving, "automáticamente
    /// bajo mando" (8.8), so never out of the army commander's radius for its test (5.1, A14).
    fn begin_activation_of(
        &self,
        s: &mut State,
        target: ActTarget,
        auto: bool,
        reinforcement: bool,
        ev: &mut Vec<Event>,
    ) {
        let side = s.active;
        // F/L 5.1 "menor que" read literally (option strict-activation): less than the value,
        // i.e. at most the value − 1; by default the sheets' "4 or fewer".
        let strict = i32::from(
            self.edition == crate::Edition::FontenoyLauffeld && s.options.strict_activation,
        );
        let av = i32::from(self.activation_value(s, target)) - strict;
        let army_hex = self.army_hex(s, side);
        let success = match target {
            ActTarget::Formation(f) => {
                let c = self.formation_commander(f);
                s.formations[usize::from(f)].tested = true;
                s.commanders[usize::from(c)].flipped = true;
                let name = self.sc.formations[usize::from(f)].name.clone();
                if auto {
                    s.auto_used = true;
                    s.autos_used += 1;
                    ev.push(Event::rule(
                        self.auto_activation_rule(),
                        format!("{name} activated automatically (scenario special rule)"),
                    ));
                    true
                } else {
                    let ch = s.commanders[usize::from(c)].hex;
                    // Hastenbeck 11.4: an aide de camp activates at -1; F/L 11.4 has no penalty.
                    let aides = if self.edition.aide_penalty() {
                        i32::from(s.commanders[usize::from(c)].aides)
                    } else {
                        0
                    };
                    let target_v = av - aides;
                    let mut mods = Vec::new();
                    if ch.is_none_or(|h| !self.in_army_command(s, side, h)) {
                        mods.push(("out of the army commander's radius (6.2)".into(), 1));
                    }
                    if ch.is_some() && ch == army_hex {
                        mods.push(("army commander stacked".into(), -1));
                    }
                    let what = if aides > 0 {
                        format!(
                            "activation of {name} (value {av} −{aides} aide de camp = {target_v})"
                        )
                    } else {
                        format!("activation of {name} (value {av})")
                    };
                    let (_, t) = self.roll(s, ev, "5.1", what, mods, |t| {
                        if t <= target_v {
                            "activated".into()
                        } else {
                            "not activated (5.3)".into()
                        }
                    });
                    t <= target_v
                }
            }
            ActTarget::Independent(u) => {
                s.units[usize::from(u)].set(flag::ACTIVATED, true);
                let in_column = self.has(s, u, flag::COLUMN);
                // Hastenbeck 14.4 (bis): a column marker goes when the unit deploys at the start
                // of its activation. F/L 17: an independent that entered in column keeps it until
                // it deploys (14.3, `Action::MoveUnit`).
                if self.edition.independent_columns() {
                    s.units[usize::from(u)].set(flag::COLUMN, false);
                }
                let h = s.units[usize::from(u)].hex;
                if in_column && !self.edition.independent_columns() {
                    // F/L 14.4 and the 17 note: "la activación de una columna de marcha es
                    // automática".
                    ev.push(Event::rule(
                        "14.4",
                        self.unit_line(s, &[u])
                            .verb(" is", " are")
                            .t(" in march column: activated automatically"),
                    ));
                    true
                } else if h.is_some() && h == army_hex {
                    ev.push(Event::rule(
                        "5.1",
                        self.unit_line(s, &[u])
                            .t(" activated automatically: the army commander is with it"),
                    ));
                    true
                } else {
                    let mut mods = Vec::new();
                    // F/L 8.8: a reinforcement is in command the turn it arrives.
                    if !reinforcement && h.is_none_or(|h| !self.in_army_command(s, side, h)) {
                        mods.push(("out of the army commander's radius".into(), 1));
                    }
                    let (_, t) = self.roll(
                        s,
                        ev,
                        "5.1",
                        Line::new()
                            .t("activation of ")
                            .units(self.named(s, &[u]))
                            .t(format!(" (value {av})")),
                        mods,
                        |t| {
                            if t <= av {
                                "activated".into()
                            } else {
                                "not activated (6.6)".into()
                            }
                        },
                    );
                    t <= av
                }
            }
        };
        // 8.6: each enemy cavalry may react once per activation.
        for u in 0..s.units.len() as UnitIx {
            if self.side_of(u) != side {
                s.units[usize::from(u)].set(flag::REACTED, false);
            }
        }
        let members: Vec<UnitIx> = match target {
            ActTarget::Formation(f) => self.formation_units(s, f),
            ActTarget::Independent(u) => vec![u],
        };
        let commanded = if success {
            self.commanded_units(s, target, &members)
        } else {
            Vec::new()
        };
        if success && let ActTarget::Formation(_) = target {
            for &u in &members {
                if !commanded.contains(&u)
                    && !self.has(s, u, flag::ROUTED)
                    && self.kind(u) != Kind::Redoubt
                {
                    s.units[usize::from(u)].set(flag::OOC, true);
                    ev.push(Event::rule(
                        "6.4",
                        // 3.6: the marker on a hidden unit is not seen.
                        Line::new().private(
                            self.hidden_of(s, u),
                            format!("{} is out of command", self.uname(u)),
                        ),
                    ));
                }
            }
        }
        // 4.B1: two actions when the army commander is with the formation commander. In F/L this
        // is settled when step 5 begins (`Saxe::settle_double_action`): he may first move in step
        // 3 instead, and the officer may leave him in step 4.
        let army_cmdr = self.army_commander(s, side);
        let army_unmoved = army_cmdr.is_some_and(|c| !s.commanders[usize::from(c)].moved);
        let two = match target {
            ActTarget::Formation(f) => {
                let ch = s.commanders[usize::from(self.formation_commander(f))].hex;
                success
                    && ch.is_some()
                    && ch == army_hex
                    && (!self.edition.army_moves_in_activation() || army_unmoved)
            }
            ActTarget::Independent(_) => false,
        };
        // 5.3: after a failure the formation commander moves at half (Hastenbeck) or in full (F/L).
        let cmdr_mp = match target {
            ActTarget::Formation(_) if success => 6,
            ActTarget::Formation(_) if self.edition.failed_activation_half_moves() => 3,
            ActTarget::Formation(_) => 6,
            ActTarget::Independent(_) => 0,
        };
        // F/L 4.B1 step 3, 5.3, 8.5: the army commander and Louis XV may move once a turn during
        // an activation, whether it succeeded or not.
        let mut chiefs = Vec::new();
        if self.edition.army_moves_in_activation() {
            for (i, cs) in s.commanders.iter().enumerate() {
                let d = &self.sc.commanders[i];
                if d.side == side && (cs.army || d.king) && cs.hex.is_some() && !cs.moved {
                    chiefs.push((i as u8, CHIEF_MP));
                }
            }
        }
        s.frames.push(Frame::Activation(Activation {
            side,
            target,
            success,
            commanded,
            actions_left: if two { 2 } else { 1 },
            kinds_used: 0,
            moving_started: false,
            cmdr_mp,
            chiefs,
            entry_cost: 0,
        }));
        // 4.B1 step 1 / 5.3: routed units must move.
        let mut routed: Vec<UnitIx> = members
            .iter()
            .copied()
            .filter(|&u| self.has(s, u, flag::ROUTED))
            .collect();
        routed.reverse();
        for u in routed {
            ev.push(Event::rule(
                "12.4",
                self.unit_line(s, &[u])
                    .t(" (routed) must continue its rout"),
            ));
            let r = self.new_rout(s, u);
            s.frames.push(Frame::Rout(r));
        }
    }

    /// The activation value of a formation or an independent unit (5.1, 5.2): Hastenbeck 16.1.2
    /// gives one value per side; Fontenoy/Lauffeld 16.1/16.2 give one per nationality (17.2
    /// option 5 raises the Austrians to 3) and independent units use their morale (F/L 5.2, 6.6).
    pub fn activation_value(&self, s: &State, target: ActTarget) -> u8 {
        match target {
            ActTarget::Formation(f) => {
                let fd = &self.sc.formations[usize::from(f)];
                let v = self.sc.activation_value(fd.side, Some(f));
                if s.options.austrians_fight
                    && fd.nationality == Some(crate::scenario::Nationality::Austrian)
                {
                    v.max(3)
                } else {
                    v
                }
            }
            ActTarget::Independent(u) => match self.edition {
                crate::Edition::Hastenbeck => self.sc.activation_value(self.side_of(u), None),
                crate::Edition::FontenoyLauffeld => {
                    u8::try_from(self.morale(s, u).max(0)).unwrap_or(0)
                }
            },
        }
    }

    /// F/L 8.8: the reinforcements of `side` that may enter now, with their entry hexes: the
    /// printed hexes free of enemy units on or after the turn of arrival; if every printed hex is
    /// held by the enemy, the unit is delayed and from the next turn may enter by the nearest
    /// free map-edge hexes at least 2 hexes from the printed ones.
    pub fn reinforcement_entries(&self, s: &State, side: Side) -> Vec<(UnitIx, Vec<HexId>)> {
        let mut out = Vec::new();
        let enemy_at = |h: HexId| {
            self.combat_units_at(s, h)
                .iter()
                .any(|&u| self.side_of(u) != side)
        };
        let fits = |u: UnitIx, h: HexId| {
            if enemy_at(h) {
                return false;
            }
            self.entering_fits(s, u, h)
        };
        for r in &self.sc.reinforcements {
            let u = r.unit;
            // F/L 17: those entering with the columns come in phase A (`column_arrivals`).
            if r.column
                || self.side_of(u) != side
                || !self.has(s, u, flag::OFFMAP)
                || self.has(s, u, flag::ACTIVATED)
                || s.turn < r.turn
            {
                continue;
            }
            let mut hexes: Vec<HexId> = r.hexes.iter().copied().filter(|&h| fits(u, h)).collect();
            if hexes.is_empty() && s.turn > r.turn {
                let m = &self.sc.map;
                let mut edge: Vec<(u32, HexId)> = Vec::new();
                for row in m.rows.0..=m.rows.1 {
                    for col in m.cols.0..=m.cols.1 {
                        let h = HexId::new(row, col);
                        let border = row == m.rows.0
                            || row == m.rows.1
                            || col == m.cols.0
                            || col == m.cols.1;
                        let d = r.hexes.iter().map(|&x| x.distance(h)).min().unwrap_or(0);
                        if border
                            && d >= 2
                            && fits(u, h)
                            && self.move_cost(s, Mover::Unit(self.kind(u)), h, h).is_some()
                        {
                            edge.push((d, h));
                        }
                    }
                }
                edge.sort();
                if let Some(&(best, _)) = edge.first() {
                    hexes = edge
                        .into_iter()
                        .filter(|(d, _)| *d == best)
                        .map(|(_, h)| h)
                        .collect();
                }
            }
            if !hexes.is_empty() {
                out.push((u, hexes));
            }
        }
        out
    }

    /// F/L 17.1, 17.2, 14.1: the independent units of `side` that enter with the march columns
    /// and may enter now (phase A), with their entry hexes: free of enemy units, enterable, at
    /// least three hexes from every enemy unit (14.1) and where the unit may stack.
    pub fn column_arrivals(&self, s: &State, side: Side) -> Vec<(UnitIx, Vec<HexId>)> {
        let d = self.column_min_distance();
        let mut out = Vec::new();
        for r in &self.sc.reinforcements {
            let u = r.unit;
            if !r.column
                || self.side_of(u) != side
                || !self.has(s, u, flag::OFFMAP)
                || self.has(s, u, flag::ACTIVATED)
                || s.turn < r.turn
            {
                continue;
            }
            let hexes: Vec<HexId> = r
                .hexes
                .iter()
                .copied()
                .filter(|&h| {
                    self.side_at(s, h) != Some(side.other())
                        && self.nearest_unit_distance(s, h, side.other()) >= d
                        && self.move_cost(s, Mover::Unit(self.kind(u)), h, h).is_some()
                        && self.entering_fits(s, u, h)
                })
                .collect();
            if !hexes.is_empty() {
                out.push((u, hexes));
            }
        }
        out
    }

    /// F/L 8.8: a reinforcement enters the map at `hex`, paying the hex's cost. It is "in
    /// command" on arrival, which spares it no activation test (docs/editions.md A14): it tests
    /// as any independent unit (5.2: on its morale); on a failure it does not arrive this turn.
    pub fn reinforce(&self, s: &mut State, u: UnitIx, hex: HexId, ev: &mut Vec<Event>) {
        let side = self.side_of(u);
        let k = self.kind(u);
        let cost = self.move_cost(s, Mover::Unit(k), hex, hex).unwrap_or(1);
        // Face the map: the vertex whose two front hexes lie farthest from the friendly edge.
        let facing = hexmap::Vertex::ALL
            .into_iter()
            .max_by_key(|v| {
                v.front()
                    .iter()
                    .map(|&d| match hex.neighbour(d) {
                        Some(n) if self.sc.map.contains(n) => {
                            1 + self.sc.map.edge_distance(side, n)
                        }
                        _ => 0,
                    })
                    .sum::<u32>()
            })
            .unwrap_or(hexmap::Vertex::N);
        // The data's facing, if it gives one.
        let facing = self
            .sc
            .reinforcements
            .iter()
            .find(|r| r.unit == u)
            .and_then(|r| r.facing)
            .unwrap_or(facing);
        // 3.1: joining a friend, it takes his facing.
        let facing = self
            .combat_units_at(s, hex)
            .first()
            .map(|&m| s.units[usize::from(m)].facing)
            .unwrap_or(facing);
        let order = self.arrival_order(s, hex);
        let us = &mut s.units[usize::from(u)];
        us.hex = Some(hex);
        us.facing = facing;
        us.order = order;
        us.set(flag::OFFMAP, false);
        self.renumber(s, hex);
        let column = self
            .sc
            .reinforcements
            .iter()
            .any(|r| r.unit == u && r.column);
        if column {
            // F/L 17.1, 17.2, 14.4: it arrives in march column, its activation automatic; it
            // marches at once with doubled MP (14.1), the entry hex paid.
            let us = &mut s.units[usize::from(u)];
            us.set(
                flag::COLUMN | flag::ACTIVATED | flag::DONE | flag::MOVED,
                true,
            );
            self.place_entering_commanders(s, side, hex);
            ev.push(Event::rule(
                "14.4",
                self.unit_line(s, &[u]).verb(" enters", " enter").t(format!(
                    " in march column at {hex} ({cost} MP), activated automatically"
                )),
            ));
            let mp = self.sc.units[usize::from(u)]
                .mp
                .saturating_mul(2)
                .saturating_sub(cost);
            s.frames.push(Frame::Moving(Moving::new(
                side,
                GroupKind::Column,
                vec![u],
                vec![mp],
                None,
            )));
            return;
        }
        let depth = s.frames.len();
        self.begin_activation_of(s, ActTarget::Independent(u), false, true, ev);
        let arrived = matches!(s.frames.get(depth), Some(Frame::Activation(a)) if a.success);
        if arrived {
            self.place_entering_commanders(s, side, hex);
            if let Some(Frame::Activation(a)) = s.frames.get_mut(depth) {
                a.entry_cost = cost;
            }
            ev.push(Event::rule(
                "8.8",
                self.unit_line(s, &[u])
                    .verb(" arrives", " arrive")
                    .t(format!(
                        " at {hex} facing {facing:?} ({cost} MP), in command"
                    )),
            ));
        } else {
            s.frames.truncate(depth);
            let us = &mut s.units[usize::from(u)];
            us.hex = None;
            us.set(flag::OFFMAP, true);
            ev.push(Event::rule(
                "8.8",
                self.unit_line(s, &[u]).t(" does not arrive this turn"),
            ));
        }
    }

    /// Whether unit `u`, entering the map at `h` with the facing of the units there, keeps the hex
    /// within the stacking limits (3.1).
    fn entering_fits(&self, s: &State, u: UnitIx, h: HexId) -> bool {
        let mut here = self.units_at(s, h);
        here.push(u);
        let mut probe = s.clone();
        probe.units[usize::from(u)].hex = Some(h);
        probe.units[usize::from(u)].set(flag::OFFMAP, false);
        if let Some(&m) = self.combat_units_at(s, h).first() {
            probe.units[usize::from(u)].facing = s.units[usize::from(m)].facing;
        }
        self.stacking_ok(h, &here, &probe)
    }

    /// Fontenoy 16.1: the Household is released once an enemy combat unit comes within three
    /// hexes of Louis XV (checked after every move, and it stays released).
    fn check_household(&self, s: &mut State, ev: &mut Vec<Event>) {
        if self.sc.household != Some(crate::scenario::HouseholdRule::Fontenoy) || s.household_free {
            return;
        }
        let king = self
            .sc
            .commanders
            .iter()
            .position(|c| c.king)
            .and_then(|k| s.commanders[k].hex);
        let Some(kh) = king else { return };
        let near = s.units.iter().enumerate().any(|(i, us)| {
            let d = &self.sc.units[i];
            d.side == Side::Allies
                && !d.kind.is_guns()
                && us.hex.is_some_and(|h| h.distance(kh) <= 3)
        });
        if near {
            s.household_free = true;
            ev.push(Event::rule(
                "16.1",
                "an enemy unit is within three hexes of Louis XV: the Household may be activated",
            ));
        }
    }

    /// Whether a unit or formation of the Household may be activated now (Fontenoy 16.1:
    /// released by an enemy within three hexes of Louis XV; Lauffeld 16.2: two French formations
    /// demoralised, or the Household attacked). Units outside the Household always may.
    pub fn household_may_act(&self, s: &State, units: &[UnitIx]) -> bool {
        if !units
            .iter()
            .any(|&u| self.sc.units[usize::from(u)].household)
        {
            return true;
        }
        match self.sc.household {
            None => true,
            Some(crate::scenario::HouseholdRule::Fontenoy) => s.household_free,
            Some(crate::scenario::HouseholdRule::Lauffeld) => {
                s.household_free || self.demoralised_count(s, Side::French) >= 2
            }
        }
    }

    /// Lauffeld 16.2: the King commands the independent units of his Household as if they were
    /// a formation: its units may also be activated one by one, and it has no formation morale.
    pub fn household_independent(&self, f: u8) -> bool {
        self.sc.household == Some(crate::scenario::HouseholdRule::Lauffeld)
            && self.sc.formations[usize::from(f)].household
    }

    /// Automatic activations the active side has left this turn (Hastenbeck 16.1: one for the
    /// French on turn 1; Fontenoy 16.1: two for the Allies on the first turn; Lauffeld 16.2: two
    /// French and one Allied on turn 1, one French on turn 2).
    pub fn autos_left(&self, s: &State, side: Side) -> u8 {
        let n: u8 = self
            .sc
            .auto_activations
            .iter()
            .filter(|(t, sd, _)| *t == s.turn && *sd == side)
            .map(|(_, _, c)| *c)
            .sum();
        if side == s.active {
            n.saturating_sub(s.autos_used)
        } else {
            0
        }
    }

    /// Units in command at the moment of activation (6.3).
    pub fn commanded_units(&self, s: &State, target: ActTarget, members: &[UnitIx]) -> Vec<UnitIx> {
        match target {
            ActTarget::Independent(u) => vec![u],
            ActTarget::Formation(f) => {
                let c = self.formation_commander(f);
                let Some(ch) = s.commanders[usize::from(c)].hex else {
                    return Vec::new();
                };
                let side = self.sc.formations[usize::from(f)].side;
                let radius = self.sc.commanders[usize::from(c)].radius;
                let reach = self.command_reach(s, ch, radius, side);
                let mut inc: Vec<UnitIx> = members
                    .iter()
                    .copied()
                    .filter(|&u| {
                        !self.has(s, u, flag::ROUTED)
                            && s.units[usize::from(u)]
                                .hex
                                .is_some_and(|h| reach.contains(&h))
                    })
                    .collect();
                // Lines of battle in command (infantry/artillery through the line).
                let pool: Vec<UnitIx> = members
                    .iter()
                    .copied()
                    .filter(|&u| !self.has(s, u, flag::ROUTED))
                    .collect();
                // Each unit's line, computed once when first needed; a line is a line only over
                // two hexes or more.
                let mut lines: Vec<Option<Vec<UnitIx>>> = vec![None; pool.len()];
                loop {
                    let mut added = false;
                    for (i, &u) in pool.iter().enumerate() {
                        if inc.contains(&u) {
                            continue;
                        }
                        let k = self.kind(u);
                        let uh = s.units[usize::from(u)].hex;
                        let ok = if k.is_cavalry() {
                            inc.iter().any(|&x| {
                                let xh = s.units[usize::from(x)].hex;
                                matches!((uh, xh), (Some(a), Some(b)) if a.distance(b) <= 2)
                            })
                        } else {
                            lines[i]
                                .get_or_insert_with(|| {
                                    let line = self.line_of(s, u, &pool);
                                    let first =
                                        line.first().and_then(|&x| s.units[usize::from(x)].hex);
                                    let spans =
                                        line.iter().any(|&x| s.units[usize::from(x)].hex != first);
                                    if spans { line } else { Vec::new() }
                                })
                                .iter()
                                .any(|x| inc.contains(x))
                        };
                        if ok {
                            inc.push(u);
                            added = true;
                        }
                    }
                    if !added {
                        break;
                    }
                }
                inc.sort();
                inc
            }
        }
    }

    /// Whether the side may not move this turn (15.3 result A).
    pub fn halted(&self, s: &State, side: Side) -> bool {
        s.options.perception && s.perception[side.ix()].halted
    }

    /// Hexes a commander can step to (8.5).
    pub fn commander_steps(&self, s: &State, from: HexId, side: Side, mp: u8) -> Vec<(HexId, u8)> {
        let mut out = Vec::new();
        for (_, n) in from.neighbours() {
            // 8.5: not an enemy unit, nor an enemy front or flank hex without a friend.
            // The cost first: it looks at no unit.
            if let Some(c) = self.move_cost(s, Mover::Commander, from, n)
                && c <= mp
                && self.sc.map.contains(n)
                && !self.hostile_for_commander(s, n, side)
            {
                out.push((n, c));
            }
        }
        out.sort();
        out
    }

    /// The arc an attacker hex presents to a defender unit (10.3), with the town/light/redoubt
    /// cases: a unit in a redoubt is attacked through the redoubt's arcs (2.1: four front hexes,
    /// two rear).
    pub fn attack_arc(&self, s: &State, def: UnitIx, from: HexId) -> Arc {
        if self.light(s, def) {
            return Arc::Front;
        }
        if let Some(h) = s.units[usize::from(def)].hex
            && let Some(r) = self
                .units_at(s, h)
                .into_iter()
                .find(|&u| self.kind(u) == Kind::Redoubt)
        {
            return self.arc_toward(s, r, from);
        }
        self.arc_toward(s, def, from)
    }
}

/// The name of an F/L 15.1 automatic victory ("Automatic Allied victory: Louis XV killed").
pub fn automatic_level(winner: Side, killed: &str) -> String {
    let who = match winner {
        Side::French => "French",
        Side::Allies => "Allied",
    };
    format!("Automatic {who} victory: {killed} killed")
}
