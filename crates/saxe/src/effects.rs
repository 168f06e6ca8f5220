//! Effects on units: step losses (1.1.4, 11.1), morale tests (12.1), disorganisation and rout
//! (12.2–12.4), elimination of guns (11.5), commander casualties (11.4), artillery fire (9).
use crate::Saxe;
use crate::event::{Event, Hidden, Line, Named};
use crate::scenario::{CommanderIx, Outcome, UnitIx};
use crate::state::{Frame, Phase, Retreat, Rout, State, flag};
use hexmap::{Arc, HexId};

impl Saxe {
    /// Name of a unit for the log.
    pub fn uname(&self, u: UnitIx) -> &str {
        &self.sc.units[usize::from(u)].name
    }

    /// Names of units joined by " + ", for the log.
    pub fn names(&self, units: &[UnitIx]) -> String {
        units
            .iter()
            .map(|&u| self.uname(u))
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// The counter an enemy sees on top of the stack in `h` (3.6): artillery, placed on top
    /// (3.5.3), else the first unit.
    pub fn top_counter(&self, s: &State, h: HexId) -> Option<UnitIx> {
        let here = self.units_at(s, h);
        here.iter()
            .copied()
            .find(|&u| self.kind(u).is_guns())
            .or_else(|| here.first().copied())
    }

    /// Who may not see unit `u` now (3.6): a unit under the top counter of a stack is hidden from
    /// the other side and from spectators; a unit alone, on top, or off the map is seen by all.
    pub fn hidden_of(&self, s: &State, u: UnitIx) -> Hidden {
        let Some(h) = s.units[usize::from(u)].hex else {
            return Hidden::NONE;
        };
        if self.units_at(s, h).len() < 2 || self.top_counter(s, h) == Some(u) {
            return Hidden::NONE;
        }
        Hidden::but_from(self.side_of(u))
    }

    /// Who may see none of `units` now (3.6): such a reader is not told that they were tested.
    pub fn hidden_all(&self, s: &State, units: &[UnitIx]) -> Hidden {
        units
            .iter()
            .fold(Hidden(7), |h, &u| Hidden(h.0 & self.hidden_of(s, u).0))
    }

    /// Units as a log line names them, each with who may not see it now (3.6).
    pub fn named(&self, s: &State, units: &[UnitIx]) -> Vec<Named> {
        units
            .iter()
            .map(|&u| Named {
                name: self.uname(u).to_string(),
                hidden: self.hidden_of(s, u),
            })
            .collect()
    }

    /// A line naming units (3.6 applied to each).
    pub fn unit_line(&self, s: &State, units: &[UnitIx]) -> Line {
        Line::new().units(self.named(s, units))
    }

    /// Who may not see at least one of `units` now: what such a reader may not be told about
    /// them together (their count, their values).
    pub fn hidden_any(&self, s: &State, units: &[UnitIx]) -> Hidden {
        units
            .iter()
            .fold(Hidden::NONE, |h, &u| h.or(self.hidden_of(s, u)))
    }

    /// Name of a commander for the log.
    pub fn cname(&self, c: CommanderIx) -> &str {
        &self.sc.commanders[usize::from(c)].name
    }

    /// A unit of `side` enters `h`: lone enemy guns there are destroyed (11.5) and lone enemy
    /// commanders rejoin their troops (3.2).
    pub fn overrun(
        &self,
        s: &mut State,
        h: HexId,
        side: crate::scenario::Side,
        ev: &mut Vec<Event>,
    ) {
        let enemy = side.other();
        if self
            .combat_units_at(s, h)
            .iter()
            .all(|&u| self.side_of(u) != enemy)
        {
            for g in self.units_at(s, h) {
                if self.side_of(g) == enemy && self.kind(g).is_guns() {
                    self.eliminate(
                        s,
                        g,
                        "an enemy unit entered its hex while it was alone",
                        "11.5",
                        ev,
                    );
                }
            }
            for c in self.commanders_at(s, h) {
                if self.sc.commanders[usize::from(c)].side == enemy {
                    self.commander_overrun(s, c, ev);
                }
            }
        }
    }

    /// 3.2: an enemy combat unit enters the hex of a commander who is alone: he goes to the
    /// nearest friendly unit; F/L 3.2 exception: Louis XV is eliminated.
    pub fn commander_overrun(&self, s: &mut State, c: CommanderIx, ev: &mut Vec<Event>) {
        if self.sc.commanders[usize::from(c)].king {
            ev.push(Event::rule(
                "3.2",
                format!(
                    "{} is alone when an enemy unit enters his hex",
                    self.cname(c)
                ),
            ));
            self.kill_commander(s, c, ev);
        } else {
            self.relocate_commander(s, c, ev);
        }
    }

    /// Roll one die for a rule, logging it.
    #[allow(clippy::too_many_arguments)]
    pub fn roll(
        &self,
        s: &mut State,
        ev: &mut Vec<Event>,
        rule: &str,
        what: impl Into<Line>,
        mods: Vec<(String, i32)>,
        describe: impl Fn(i32) -> String,
    ) -> (u8, i32) {
        self.roll_for(s, ev, rule, what, Hidden::NONE, mods, describe)
    }

    /// Roll one die for a rule, logging it; readers in `hidden` read only that hidden units were
    /// tested (a test of units hidden from them alone, 3.6).
    #[allow(clippy::too_many_arguments)]
    pub fn roll_for(
        &self,
        s: &mut State,
        ev: &mut Vec<Event>,
        rule: &str,
        what: impl Into<Line>,
        hidden: Hidden,
        mods: Vec<(String, i32)>,
        describe: impl Fn(i32) -> String,
    ) -> (u8, i32) {
        let die = s.dice.d6();
        let total = i32::from(die) + mods.iter().map(|m| m.1).sum::<i32>();
        ev.push(Event::Roll {
            rule: rule.into(),
            what: what.into(),
            die,
            mods,
            total,
            result: describe(total).into(),
            hidden,
        });
        (die, total)
    }

    /// Eliminate a unit (and the guns left alone with it, 11.5).
    pub fn eliminate(&self, s: &mut State, u: UnitIx, why: &str, rule: &str, ev: &mut Vec<Event>) {
        let Some(h) = s.units[usize::from(u)].hex else {
            return;
        };
        let d = &self.sc.units[usize::from(u)];
        let who = self.unit_line(s, &[u]);
        let remaining = u32::from(d.steps.saturating_sub(s.units[usize::from(u)].lost));
        s.units[usize::from(u)].hex = None;
        s.units[usize::from(u)].lost = d.steps;
        s.perception[d.side.ix()].losses_this_turn = s.perception[d.side.ix()]
            .losses_this_turn
            .saturating_add(remaining as u8);
        ev.push(Event::rule(rule, who.t(format!(" eliminated ({why})"))));
        if !d.kind.is_guns() && self.combat_units_at(s, h).is_empty() {
            for g in self.units_at(s, h) {
                let gun = self.unit_line(s, &[g]);
                s.units[usize::from(g)].hex = None;
                s.units[usize::from(g)].lost = 1;
                ev.push(Event::rule(
                    "11.5",
                    gun.t(" eliminated: no infantry or cavalry left with it"),
                ));
            }
        }
        // Remove it from any moving group.
        for fr in s.frames.iter_mut() {
            if let Frame::Moving(m) = fr
                && let Some(i) = m.units.iter().position(|&x| x == u)
            {
                m.units.remove(i);
                m.mp.remove(i);
            }
        }
    }

    /// One step loss (1.1.4).
    pub fn lose_step(&self, s: &mut State, u: UnitIx, rule: &str, ev: &mut Vec<Event>) {
        let d = &self.sc.units[usize::from(u)];
        let us = &mut s.units[usize::from(u)];
        if us.hex.is_none() {
            return;
        }
        if us.lost + 1 >= d.steps {
            self.eliminate(s, u, "last step lost", rule, ev);
        } else {
            us.lost += 1;
            let side = d.side.ix();
            s.perception[side].losses_this_turn =
                s.perception[side].losses_this_turn.saturating_add(1);
            let left = d.steps - us.lost;
            let hidden = self.hidden_of(s, u);
            ev.push(Event::rule(
                rule,
                self.unit_line(s, &[u])
                    .verb(" loses", " lose")
                    .t(" a step")
                    .private(
                        hidden,
                        format!(" ({} of {} left, {} CP)", left, d.steps, self.cp(s, u)),
                    ),
            ));
        }
    }

    /// The unit of a stack (`st`, top first) that takes a stack's next step loss when `already`
    /// steps have been taken from it (11.1): Hastenbeck alternates top, second, top; F/L gives
    /// every loss to the top unit ("la unidad de arriba toma las pérdidas en primer lugar", A21).
    pub fn loss_taker(&self, st: &[UnitIx], already: usize) -> Option<UnitIx> {
        if already % 2 == 1 && st.len() > 1 && self.edition.losses_alternate() {
            Some(st[1])
        } else {
            st.first().copied()
        }
    }

    /// Distribute `n` step losses in one stack as 11.1 says ([`Saxe::loss_taker`]).
    pub fn stack_losses(
        &self,
        s: &mut State,
        h: HexId,
        n: u8,
        rule: &str,
        ev: &mut Vec<Event>,
    ) -> Vec<UnitIx> {
        let mut hit = Vec::new();
        for i in 0..n {
            let st = self.combat_units_at(s, h);
            let Some(u) = self.loss_taker(&st, usize::from(i)) else {
                break;
            };
            hit.push(u);
            self.lose_step(s, u, rule, ev);
        }
        hit
    }

    /// Disorganise a unit; a disorganised unit routs instead (12.2). `combat`: the result came from
    /// combat or fire (a rout), not from terrain (8.2: no rout).
    pub fn disorganise(
        &self,
        s: &mut State,
        u: UnitIx,
        combat: bool,
        rule: &str,
        ev: &mut Vec<Event>,
    ) {
        if !self.alive(s, u) || !self.shares_results(u) || self.has(s, u, flag::ROUTED) {
            return;
        }
        if self.has(s, u, flag::DISORG) {
            if combat {
                self.rout(s, u, rule, ev);
            }
        } else {
            let us = &mut s.units[usize::from(u)];
            us.set(flag::DISORG, true);
            if combat {
                us.set(flag::DISORG_BY_COMBAT, true);
            }
            ev.push(Event::rule(
                rule,
                self.unit_line(s, &[u])
                    .verb(" is", " are")
                    .t(" disorganised"),
            ));
        }
    }

    /// A unit routs (12.2–12.4): Routed marker and a rout movement of three hexes.
    pub fn rout(&self, s: &mut State, u: UnitIx, rule: &str, ev: &mut Vec<Event>) {
        // F/L 8.9, 12.4 (A15): a gun in battery cannot move, so it cannot rout: eliminated.
        if self.gun_pinned(s, u) {
            self.eliminate(s, u, "a gun in battery cannot rout (8.9, A15)", "12.4", ev);
            return;
        }
        let side = self.side_of(u);
        let us = &mut s.units[usize::from(u)];
        us.set(flag::DISORG | flag::DISORG_BY_COMBAT, false);
        us.set(flag::ROUTED, true);
        s.perception[side.ix()].losses_this_turn =
            s.perception[side.ix()].losses_this_turn.saturating_add(1);
        ev.push(Event::rule(
            rule,
            self.unit_line(s, &[u]).verb(" routs", " rout"),
        ));
        // Leave any moving group.
        for fr in s.frames.iter_mut() {
            if let Frame::Moving(m) = fr
                && let Some(i) = m.units.iter().position(|&x| x == u)
            {
                m.units.remove(i);
                m.mp.remove(i);
            }
        }
        let r = self.new_rout(s, u);
        s.frames.push(Frame::Rout(r));
    }

    /// A rout movement of three hexes for `u` (12.4); commanders stacked with it are offered to go
    /// along.
    pub fn new_rout(&self, s: &State, u: UnitIx) -> Rout {
        let side = self.side_of(u);
        let offer = s.units[usize::from(u)]
            .hex
            .map(|h| self.commanders_at(s, h))
            .unwrap_or_default()
            .into_iter()
            .filter(|&c| self.sc.commanders[usize::from(c)].side == side)
            .collect();
        Rout {
            side,
            unit: u,
            left: 3,
            commanders: Vec::new(),
            offer,
        }
    }

    /// A morale test of a stack (12.1): one roll with the top unit's morale (combat) or the best
    /// morale (rally). Failure disorganises (a disorganised unit routs).
    #[allow(clippy::too_many_arguments)]
    pub fn morale_test(
        &self,
        s: &mut State,
        units: &[UnitIx],
        drm: i32,
        best: bool,
        reason: &str,
        rule: &str,
        ev: &mut Vec<Event>,
    ) -> bool {
        let units: Vec<UnitIx> = units
            .iter()
            .copied()
            .filter(|&u| self.alive(s, u) && self.shares_results(u))
            .collect();
        let Some(&top) = units.first() else {
            return true;
        };
        // 12.1: Hastenbeck tests a stack on its top unit after combat and on its best unit to
        // recover; F/L always on the best morale of the stack.
        let mv = if best || self.edition.best_morale_of_stack() {
            units
                .iter()
                .map(|&u| self.printed_morale(u))
                .max()
                .unwrap_or(0)
        } else {
            self.printed_morale(top)
        };
        let mut mods = Vec::new();
        if drm != 0 {
            mods.push((reason.to_string(), drm));
        }
        let h = s.units[usize::from(top)].hex;
        if let Some(h) = h
            && !self.commanders_at(s, h).is_empty()
        {
            mods.push(("commander present".into(), -1));
        }
        if units.iter().any(|&u| self.demoralised(s, u)) {
            mods.push(("demoralised formation (13.1)".into(), 1));
        }
        if self.edition.independent_morale_at_half()
            && units.iter().all(|&u| {
                let d = &self.sc.units[usize::from(u)];
                let lost = s.units[usize::from(u)].lost;
                d.formation.is_none() && lost > 0 && 2 * lost >= d.steps
            })
        {
            mods.push(("independent unit at half its steps (F/L 13.2)".into(), 1));
        }
        // 3.6: readers who see none of the units read only that hidden units were tested; those
        // who miss some read no morale value (it could be a hidden unit's).
        let what = Line::new()
            .t("morale test of ")
            .units(self.named(s, &units))
            .private(self.hidden_any(s, &units), format!(" (MV {mv})"));
        let (_, total) = self.roll_for(s, ev, rule, what, self.hidden_all(s, &units), mods, |t| {
            if t <= mv {
                "passed".into()
            } else {
                "failed".into()
            }
        });
        total <= mv
    }

    /// A morale test of the surviving `units` (top unit's morale); on failure each is disorganised
    /// (a disorganised unit routs), as combat and fire results and retreats require (11.1, 11.2).
    pub fn test_or_disorganise(
        &self,
        s: &mut State,
        units: &[UnitIx],
        drm: i32,
        reason: &str,
        rule: &str,
        ev: &mut Vec<Event>,
    ) {
        let alive: Vec<UnitIx> = units
            .iter()
            .copied()
            .filter(|&u| self.alive(s, u))
            .collect();
        if !self.morale_test(s, &alive, drm, false, reason, rule, ev) {
            for &u in &alive {
                self.disorganise(s, u, true, rule, ev);
            }
        }
    }

    /// Apply a fire or combat outcome to the units of one hex, except the step losses (done by the
    /// caller) and the retreat (queued and returned).
    pub fn apply_effects(
        &self,
        s: &mut State,
        units: &[UnitIx],
        o: &Outcome,
        rule: &str,
        disorg_cav_before: &[UnitIx],
        ev: &mut Vec<Event>,
    ) {
        let alive: Vec<UnitIx> = units
            .iter()
            .copied()
            .filter(|&u| {
                self.alive(s, u) && self.shares_results(u) && !self.has(s, u, flag::ROUTED)
            })
            .collect();
        if alive.is_empty() {
            return;
        }
        if o.eliminate {
            for &u in &alive {
                self.eliminate(s, u, "E result", rule, ev);
            }
            return;
        }
        if let Some(drm) = o.tm
            && !self.morale_test(s, &alive, i32::from(drm), false, "result", rule, ev)
        {
            for &u in &alive {
                self.disorganise(s, u, true, "12.1", ev);
            }
        }
        if o.disorganise {
            for &u in &alive {
                self.disorganise(s, u, true, rule, ev);
            }
        }
        if o.star {
            for &u in &alive {
                if self.kind(u).is_cavalry() && disorg_cav_before.contains(&u) && self.alive(s, u) {
                    self.eliminate(
                        s,
                        u,
                        "* result: cavalry already disorganised by combat",
                        rule,
                        ev,
                    );
                }
            }
        }
    }

    /// Queue the retreat of the surviving, unrouted units of a hex (11.2). F/L guns retreat with
    /// their stack (A15); light troops evading (1.3) leave them behind.
    pub fn queue_retreat(&self, s: &mut State, units: &[UnitIx], hexes: u8, evasion: bool) {
        let group: Vec<UnitIx> = units
            .iter()
            .copied()
            .filter(|&u| {
                self.alive(s, u)
                    && self.shares_results(u)
                    && !(evasion && self.kind(u).is_guns())
                    && !self.has(s, u, flag::ROUTED)
            })
            .collect();
        if group.is_empty() || hexes == 0 {
            return;
        }
        let side = self.side_of(group[0]);
        let start = s.units[usize::from(group[0])].hex;
        s.frames.push(Frame::Retreat(Retreat {
            side,
            units: group,
            left: hexes,
            visited: start.into_iter().collect(),
            evasion,
        }));
    }

    /// 11.4: commanders in `h` after the stack there lost steps (`lost`) or was eliminated.
    pub fn commander_casualty(
        &self,
        s: &mut State,
        c: CommanderIx,
        h: HexId,
        lost: bool,
        ev: &mut Vec<Event>,
    ) {
        let side = self.sc.commanders[usize::from(c)].side;
        let wiped = self.combat_units_at(s, h).is_empty();
        if !lost && !wiped {
            return;
        }
        let limit = self.edition.commander_casualty_limit(wiped);
        let name = self.cname(c).to_string();
        let (die, _) = self.roll(
            s,
            ev,
            "11.4",
            format!(
                "{name}: {}",
                if wiped {
                    format!("his units were eliminated, killed on 1–{limit}")
                } else {
                    "his units lost a step, killed on 1".to_string()
                }
            ),
            Vec::new(),
            |t| {
                if t <= limit {
                    "killed".into()
                } else {
                    "unhurt".into()
                }
            },
        );
        if i32::from(die) <= limit {
            self.kill_commander(s, c, ev);
        } else if wiped {
            self.relocate_commander(s, c, ev);
        }
        let _ = side;
    }

    /// A commander is killed (11.4): aide de camp, or a new army commander.
    pub fn kill_commander(&self, s: &mut State, c: CommanderIx, ev: &mut Vec<Event>) {
        let side = self.sc.commanders[usize::from(c)].side;
        if self.edition == crate::Edition::FontenoyLauffeld {
            let d = &self.sc.commanders[usize::from(c)];
            // F/L 15.1: the death of Louis XV loses the game for the French, the death of
            // Cumberland (the Allied army commander of both battles) for the Allies.
            if d.king || (d.army && side == crate::scenario::Side::Allies) {
                s.commanders[usize::from(c)].hex = None;
                let winner = side.other();
                let level = crate::flow::automatic_level(winner, &d.name);
                ev.push(Event::rule("15.1", format!("game over: {level}")));
                s.result = Some((Some(winner), level, "15.1".to_string()));
                s.phase = Phase::Over;
                s.frames.clear();
                return;
            }
        }
        if s.commanders[usize::from(c)].army {
            s.army_commander_lost[side.ix()] = true;
            s.commanders[usize::from(c)].hex = None;
            s.commanders[usize::from(c)].army = false;
            ev.push(Event::rule(
                "11.4",
                format!(
                    "army commander {} killed: -{} to every formation's morale (13.1)",
                    self.cname(c),
                    self.edition.commander_morale_losses().1
                ),
            ));
            s.frames.push(Frame::NewArmyCommander { side });
        } else {
            let f = self.sc.commanders[usize::from(c)].formation;
            s.commanders[usize::from(c)].aides += 1;
            s.commanders[usize::from(c)].hex = None;
            if let Some(f) = f {
                s.formations[usize::from(f)].commanders_lost += 1;
            }
            ev.push(Event::rule(
                "11.4",
                format!(
                    "{} killed: replaced by an aide de camp{}",
                    self.cname(c),
                    if self.edition.aide_penalty() {
                        " (activation -1)"
                    } else {
                        ""
                    }
                ),
            ));
            s.frames.push(Frame::PlaceAide { side, commander: c });
        }
    }

    /// 3.2 / 11.4: a commander left alone (or overrun) goes to the nearest unit of his formation
    /// (army commander: nearest friendly unit).
    pub fn relocate_commander(&self, s: &mut State, c: CommanderIx, ev: &mut Vec<Event>) {
        let Some(h) = s.commanders[usize::from(c)].hex else {
            return;
        };
        let d = &self.sc.commanders[usize::from(c)];
        let army = s.commanders[usize::from(c)].army;
        let mut best: Option<(u32, HexId)> = None;
        for (i, us) in s.units.iter().enumerate() {
            let u = i as UnitIx;
            let Some(uh) = us.hex else { continue };
            let ud = &self.sc.units[i];
            if ud.side != d.side || ud.kind.is_guns() {
                continue;
            }
            if !army && d.formation.is_some() && ud.formation != d.formation {
                continue;
            }
            let key = (uh.distance(h), uh);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
            let _ = u;
        }
        match best {
            Some((_, nh)) => {
                s.commanders[usize::from(c)].hex = Some(nh);
                ev.push(Event::rule(
                    "3.2",
                    format!("{} rejoins his troops in {nh}", self.cname(c)),
                ));
            }
            None => {
                s.commanders[usize::from(c)].hex = None;
                ev.push(Event::rule(
                    "3.2",
                    format!(
                        "{} has no troops left to rejoin and leaves the field",
                        self.cname(c)
                    ),
                ));
            }
        }
    }

    /// The modifiers of the Artillery Table (9.2, 9.4.1) for `gun` in `from` firing at `target`,
    /// whose unit that takes the result first is `top`.
    pub fn fire_modifiers(
        &self,
        s: &State,
        gun: UnitIx,
        from: HexId,
        target: HexId,
        top: UnitIx,
    ) -> Vec<(String, i32)> {
        let m = &self.sc.tables.raw.artillery.modifiers;
        let mut mods: Vec<(String, i32)> = Vec::new();
        if self.light(s, top) {
            mods.push(("light target".into(), i32::from(m.light_target)));
        }
        if self
            .units_at(s, from)
            .iter()
            .any(|&u| self.has(s, u, flag::DISORG))
        {
            mods.push((
                "shooter disorganised".into(),
                i32::from(m.shooter_disorganised),
            ));
        }
        let tf = self.sc.tables.terrain(self.sc.map.terrain(target)).fire;
        if tf != 0 {
            mods.push((
                self.sc.map.terrain(target).name().to_string(),
                i32::from(tf),
            ));
        }
        if !self.light(s, top) && !self.has(s, top, flag::ROUTED) {
            let a = s.units[usize::from(top)].facing.arc_of(target, from);
            if matches!(a, Arc::Flank | Arc::Rear) {
                mods.push(("flank fire (9.4.1)".into(), i32::from(m.flank)));
            }
        }
        let dist = from.distance(target) as i32;
        if dist > 1 {
            mods.push((
                format!("range {dist}"),
                i32::from(m.per_hex_beyond_first) * (dist - 1),
            ));
        } else {
            mods.push(("adjacent".into(), i32::from(m.adjacent)));
        }
        if self.sc.units[usize::from(gun)].calibre >= 12 {
            mods.push(("12 lb".into(), i32::from(m.calibre_12)));
        }
        mods
    }

    /// Artillery fire (9): modifiers of the Artillery Table for the aimed hex `target`, the result
    /// applied to `victims` (all the units in the aimed hex, or a moving unit hit as it leaves a hex,
    /// 9.3), which must stand in one hex.
    pub fn resolve_fire(
        &self,
        s: &mut State,
        gun: UnitIx,
        target: HexId,
        victims: Vec<UnitIx>,
        reaction: bool,
        ev: &mut Vec<Event>,
    ) {
        let Some(from) = s.units[usize::from(gun)].hex else {
            return;
        };
        let Some(victims_at) = victims.first().and_then(|&u| s.units[usize::from(u)].hex) else {
            return;
        };
        // Top first, as in the stack. F/L (A15): fire at a hex reaches its guns too; they take
        // steps only when no infantry or cavalry is with them (11.1).
        let victims: Vec<UnitIx> = self
            .result_units_at(s, victims_at)
            .into_iter()
            .filter(|&u| victims.contains(&u) || (!reaction && self.kind(u).is_guns()))
            .collect();
        if victims.is_empty() {
            return;
        }
        let step_takers: Vec<UnitIx> = if victims.iter().any(|&u| !self.kind(u).is_guns()) {
            victims
                .iter()
                .copied()
                .filter(|&u| !self.kind(u).is_guns())
                .collect()
        } else {
            victims.clone()
        };
        let mods = self.fire_modifiers(s, gun, from, target, step_takers[0]);
        let rule = if reaction {
            "Artillery Table (9.3 reaction fire)"
        } else {
            "Artillery Table (9.2)"
        };
        let tables = &self.sc.tables;
        let (_, total) = self.roll(
            s,
            ev,
            rule,
            self.unit_line(s, &[gun]).t(format!(" fires at {target}")),
            mods,
            |t| tables.artillery(t).1.to_string(),
        );
        let (_, out) = self.sc.tables.artillery(total);
        // 9.3: reaction fire is its own once-a-turn allowance; only fire in the gun's own phases
        // stops it moving (8.1) or firing again (9.1).
        let in_battery = self.edition.artillery_stays_in_battery();
        let us = &mut s.units[usize::from(gun)];
        if reaction {
            us.set(flag::REACT_FIRED, true);
        } else {
            us.set(flag::FIRED, true);
        }
        // F/L 8.9: once it has fired, in reaction or not, it stays in battery.
        if in_battery {
            us.set(flag::IN_BATTERY, true);
        }
        if out.is_none() {
            return;
        }
        let target = victims_at;
        let cmdrs = self.commanders_at(s, target);
        // Step losses among the victims, top unit first (11.1, `loss_taker`).
        let mut hit = Vec::new();
        for i in 0..out.steps {
            let alive: Vec<UnitIx> = step_takers
                .iter()
                .copied()
                .filter(|&u| self.alive(s, u))
                .collect();
            let Some(u) = self.loss_taker(&alive, usize::from(i)) else {
                break;
            };
            hit.push(u);
            self.lose_step(s, u, "9.2", ev);
        }
        let before: Vec<UnitIx> = victims
            .iter()
            .copied()
            .filter(|&u| self.has(s, u, flag::DISORG_BY_COMBAT))
            .collect();
        self.apply_effects(s, &victims, &out, "9.2", &before, ev);
        for c in cmdrs {
            if s.commanders[usize::from(c)].hex == Some(target) {
                self.commander_casualty(s, c, target, !hit.is_empty(), ev);
            }
        }
        if out.retreat > 0 {
            let left: Vec<UnitIx> = victims
                .iter()
                .copied()
                .filter(|&u| s.units[usize::from(u)].hex == Some(target))
                .collect();
            // A unit in a moving group that must retreat stops moving.
            for fr in s.frames.iter_mut() {
                if let Frame::Moving(mv) = fr {
                    for &u in &left {
                        if let Some(i) = mv.units.iter().position(|&x| x == u) {
                            mv.units.remove(i);
                            mv.mp.remove(i);
                        }
                    }
                }
            }
            self.queue_retreat(s, &left, out.retreat, false);
        }
    }

    /// Targets a gun may fire at now (9.1, 9.4): hexes within range in its fire arc with a line of
    /// sight holding enemy units that fire results reach (F/L: lone guns too, A15).
    pub fn fire_targets(&self, s: &State, gun: UnitIx) -> Vec<HexId> {
        let Some(from) = s.units[usize::from(gun)].hex else {
            return Vec::new();
        };
        let enemy = self.side_of(gun).other();
        let range = self.gun_range(gun);
        let mut out: Vec<HexId> = self
            .occupied_hexes(s, enemy)
            .into_iter()
            .filter(|&h| {
                // The range first: it is the cheapest part of `can_aim`.
                (1..=range).contains(&from.distance(h))
                    && !self.result_units_at(s, h).is_empty()
                    && self.can_aim(s, gun, from, h)
            })
            .collect();
        out.sort();
        out
    }

    /// A gun's range in hexes (9.1).
    pub(crate) fn gun_range(&self, gun: UnitIx) -> u32 {
        self.edition.artillery_range(
            self.sc.units[usize::from(gun)].calibre,
            self.sc.tables.raw.artillery.max_range,
        )
    }

    /// Whether a gun at `from` may aim at `aim` (9.1 range and fire arc, 9.4 line of sight).
    pub fn can_aim(&self, s: &State, gun: UnitIx, from: HexId, aim: HexId) -> bool {
        let range = self.gun_range(gun);
        let d = from.distance(aim);
        let facing = s.units[usize::from(gun)].facing;
        // F/L 9.6: a redoubt fires through its four front hexes (its flank wedges too).
        let arc = facing.in_fire_arc(from, aim)
            || (self.kind(gun) == crate::scenario::Kind::Redoubt
                && self.edition.redoubt_fires_four_hexes()
                && (facing.turned(1).in_fire_arc(from, aim)
                    || facing.turned(-1).in_fire_arc(from, aim)));
        d >= 1 && d <= range && arc && self.line_of_sight(s, from, aim)
    }
}
