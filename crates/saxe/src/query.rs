//! Read-only questions about a position: stacks, zones of control, arcs, costs, command, lines of
//! battle, line of sight. Rule numbers are in each doc comment.
use crate::Saxe;
use crate::scenario::{CommanderIx, FormationIx, Kind, Side, Terrain, UnitIx, side_bits};
use crate::state::{State, flag};
use hexmap::{Arc, Dir, HexId, LosStep, Vertex, los_path};

/// The two flank hexsides of a facing (2.1) as a bit mask over [`Dir::index`].
fn flank_mask(f: Vertex) -> u8 {
    let [a, b] = f.flank();
    (1 << a.index()) | (1 << b.index())
}

/// Who is moving, for costs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mover {
    /// A unit of this kind.
    Unit(Kind),
    /// A commander (8.5).
    Commander,
}

impl Saxe {
    /// Whether a unit is on the map.
    pub fn alive(&self, s: &State, u: UnitIx) -> bool {
        s.units[usize::from(u)].hex.is_some()
    }

    /// Units in a hex, top first (all kinds).
    pub fn units_at(&self, s: &State, h: HexId) -> Vec<UnitIx> {
        let mut v: Vec<UnitIx> = Vec::with_capacity(4);
        for (i, us) in s.units.iter().enumerate() {
            if us.hex == Some(h) {
                v.push(i as UnitIx);
            }
        }
        // 3.5.3: the artillery is placed on top of the stack. (The key ends with the unit, so
        // no two keys are equal and an unstable sort gives the same order.)
        if v.len() > 1 {
            v.sort_unstable_by_key(|&u| {
                (!self.kind(u).is_guns(), s.units[usize::from(u)].order, u)
            });
        }
        v
    }

    /// Infantry and cavalry in a hex, top first (3.1: the artillery is not a stack's "top unit"
    /// for losses and morale — see docs/decisions.md).
    pub fn combat_units_at(&self, s: &State, h: HexId) -> Vec<UnitIx> {
        let mut v = self.units_at(s, h);
        v.retain(|&u| !self.kind(u).is_guns());
        v
    }

    /// Whether combat and fire results reach a unit (11.1, 12.1): combat units always; F/L field
    /// artillery too (morale 3, A15); never a redoubt, which is a work and does not move (9.6).
    pub fn shares_results(&self, u: UnitIx) -> bool {
        match self.kind(u) {
            Kind::Redoubt => false,
            Kind::Artillery => self.edition.artillery_morale().is_some(),
            _ => true,
        }
    }

    /// The units of a hex that combat and fire results reach (11.1): its combat units and, in
    /// F/L, its field artillery (A15). Top first.
    pub fn result_units_at(&self, s: &State, h: HexId) -> Vec<UnitIx> {
        let mut v = self.units_at(s, h);
        v.retain(|&u| self.shares_results(u));
        v
    }

    /// The morale a unit tests with before modifiers (12.1): the printed value; F/L artillery 3.
    pub fn printed_morale(&self, u: UnitIx) -> i32 {
        match self.edition.artillery_morale() {
            Some(m) if self.kind(u) == Kind::Artillery => m,
            _ => i32::from(self.sc.units[usize::from(u)].morale),
        }
    }

    /// Kind of a unit.
    pub fn kind(&self, u: UnitIx) -> Kind {
        self.sc.units[usize::from(u)].kind
    }

    /// Side of a unit.
    pub fn side_of(&self, u: UnitIx) -> Side {
        self.sc.units[usize::from(u)].side
    }

    /// The side occupying a hex with combat units or guns.
    pub fn side_at(&self, s: &State, h: HexId) -> Option<Side> {
        s.units
            .iter()
            .enumerate()
            .find(|(_, us)| us.hex == Some(h))
            .map(|(i, _)| self.side_of(i as UnitIx))
    }

    /// Current combat points (1.1.4: loss marker -2, flipped side).
    pub fn cp(&self, s: &State, u: UnitIx) -> u32 {
        let d = &self.sc.units[usize::from(u)];
        if d.kind.is_guns() {
            return 0;
        }
        let lost = s.units[usize::from(u)].lost;
        let (flipped, marker) = match (d.steps, lost) {
            (2, 0) => (false, false),
            (2, _) => (true, false),
            (3, 0) => (false, false),
            (3, 1) => (false, true),
            (3, _) => (true, false),
            (_, 0) => (false, false),
            (_, 1) => (false, true),
            (_, 2) => (true, false),
            (_, _) => (true, true),
        };
        let base = if flipped { d.cp_reduced } else { d.cp };
        let v = if marker {
            base.saturating_sub(2).max(1)
        } else {
            base
        };
        u32::from(v)
    }

    /// Whether the unit's formation is demoralised (13.1).
    pub fn demoralised(&self, s: &State, u: UnitIx) -> bool {
        self.sc.units[usize::from(u)]
            .formation
            .map(|f| s.formations[usize::from(f)].demoralised)
            .unwrap_or(false)
    }

    /// Morale value; -1 in a demoralised formation (13.1); F/L 13.2: an independent unit that has
    /// lost half its steps or more, -1.
    pub fn morale(&self, s: &State, u: UnitIx) -> i32 {
        let d = &self.sc.units[usize::from(u)];
        let m = self.printed_morale(u);
        let m = if self.demoralised(s, u) { m - 1 } else { m };
        if self.edition.independent_morale_at_half()
            && d.formation.is_none()
            && !d.kind.is_guns()
            && 2 * s.units[usize::from(u)].lost >= d.steps
            && s.units[usize::from(u)].lost > 0
        {
            m - 1
        } else {
            m
        }
    }

    /// Whether a gun may not move now: F/L 8.9/9.5 once it has fired in the game (in battery);
    /// Hastenbeck 8.1/8.8 in a turn it has fired.
    pub fn gun_pinned(&self, s: &State, u: UnitIx) -> bool {
        self.kind(u) == Kind::Artillery
            && if self.edition.artillery_stays_in_battery() {
                self.has(s, u, flag::IN_BATTERY)
            } else {
                self.has(s, u, flag::FIRED)
            }
    }

    /// Whether a gun may not fire because it moved the previous turn (Hastenbeck 9.1; F/L has no
    /// such rule).
    pub fn gun_moved_prev(&self, s: &State, u: UnitIx) -> bool {
        !self.edition.artillery_stays_in_battery() && self.has(s, u, flag::MOVED_PREV)
    }

    /// Whether a unit is light now (1.3): light infantry and cavalry; F/L 1.3.1: Grassin's
    /// arquebusiers are light in rough terrain, an abattis or woods and normal infantry elsewhere.
    pub fn light(&self, s: &State, u: UnitIx) -> bool {
        match s.units[usize::from(u)].hex {
            Some(h) => self.light_in(s, u, h),
            None => self.sc.units[usize::from(u)].kind.is_light(),
        }
    }

    /// Whether a unit would be light in hex `h` (1.3, F/L 1.3.1).
    pub fn light_in(&self, s: &State, u: UnitIx, h: HexId) -> bool {
        let d = &self.sc.units[usize::from(u)];
        if d.grassin {
            return matches!(self.sc.map.terrain(h), Terrain::Rough | Terrain::Woods)
                || s.abattis.contains(&h);
        }
        d.kind.is_light()
    }

    /// Whether a unit has a flag.
    pub fn has(&self, s: &State, u: UnitIx, f: u32) -> bool {
        s.units[usize::from(u)].has(f)
    }

    /// Whether the unit projects a ZoC / has front hexes at all (7: not commanders, not routed).
    pub fn has_zoc(&self, s: &State, u: UnitIx) -> bool {
        self.alive(s, u) && !self.has(s, u, flag::ROUTED)
    }

    /// The directions of the hexes in front of a unit (2.1, 2.3): light units and routed units all
    /// around (routed: none), redoubts front and flank, infantry in a town front and flank.
    pub fn front_dirs(&self, s: &State, u: UnitIx) -> Vec<Dir> {
        let m = self.front_mask(s, u);
        Dir::ALL
            .into_iter()
            .filter(|d| m & (1 << d.index()) != 0)
            .collect()
    }

    /// [`Saxe::front_dirs`] as a bit mask over [`Dir::index`] (no allocation, for hot paths).
    pub fn front_mask(&self, s: &State, u: UnitIx) -> u8 {
        let us = &s.units[usize::from(u)];
        let Some(h) = us.hex else { return 0 };
        if us.has(flag::ROUTED) {
            return 0;
        }
        let k = self.kind(u);
        if self.light(s, u) {
            return 0b11_1111;
        }
        let bit = |d: Dir| 1u8 << d.index();
        let [a, b] = us.facing.front();
        let mut m = bit(a) | bit(b);
        let town = self.sc.tables.terrain(self.sc.map.terrain(h)).flanks_front;
        if k == Kind::Redoubt || (town && k.is_infantry()) {
            let [c, d] = us.facing.flank();
            m |= bit(c) | bit(d);
        }
        m
    }

    /// The arc of an adjacent hex relative to a unit (2.1 with the light/redoubt/town cases).
    pub fn arc_toward(&self, s: &State, u: UnitIx, to: HexId) -> Arc {
        let us = &s.units[usize::from(u)];
        let Some(h) = us.hex else { return Arc::Rear };
        let Some(d) = h.direction_to(to) else {
            return us.facing.arc_of(h, to);
        };
        if self.front_mask(s, u) & (1 << d.index()) != 0 {
            Arc::Front
        } else if flank_mask(us.facing) & (1 << d.index()) != 0 {
            Arc::Flank
        } else {
            Arc::Rear
        }
    }

    /// Whether a unit's ZoC reaches the adjacent hex `to` (7, 7.1: not into woods except light
    /// infantry, not into a town, not across a stream or river except by a bridge).
    pub fn zoc_reaches(&self, s: &State, u: UnitIx, to: HexId) -> bool {
        if !self.has_zoc(s, u) {
            return false;
        }
        let Some(h) = s.units[usize::from(u)].hex else {
            return false;
        };
        let Some(d) = h.direction_to(to) else {
            return false;
        };
        if self.front_mask(s, u) & (1 << d.index()) == 0 || !self.sc.map.contains(to) {
            return false;
        }
        let t = self.sc.map.terrain(to);
        // Hastenbeck 1.3/7.1: light infantry projects a ZoC into woods; F/L 7.1: nobody does.
        if t == Terrain::Woods
            && !(self.kind(u) == Kind::LightInfantry && self.edition.light_infantry_zoc_in_woods())
        {
            return false;
        }
        if t != Terrain::Woods && self.sc.tables.terrain(t).blocks_zoc {
            return false;
        }
        let side = self.sc.map.side(h, to);
        if side & (side_bits::STREAM | side_bits::RIVER) != 0 && side & side_bits::BRIDGE == 0 {
            return false;
        }
        true
    }

    /// Whether hex `h` lies in the ZoC of a unit of `enemy` (7).
    pub fn in_zoc_of(&self, s: &State, h: HexId, enemy: Side) -> bool {
        s.units.iter().enumerate().any(|(i, us)| {
            us.hex.is_some_and(|n| n.is_adjacent(h))
                && self.side_of(i as UnitIx) == enemy
                && self.zoc_reaches(s, i as UnitIx, h)
        })
    }

    /// Whether hex `h` lies in the ZoC of a unit of `enemy` other than the units in hex `not`
    /// (7.1 with 11.5: the ZoC of lone guns whose hex is entered).
    pub fn in_zoc_of_others(&self, s: &State, h: HexId, enemy: Side, not: HexId) -> bool {
        s.units.iter().enumerate().any(|(i, us)| {
            us.hex.is_some_and(|n| n != not && n.is_adjacent(h))
                && self.side_of(i as UnitIx) == enemy
                && self.zoc_reaches(s, i as UnitIx, h)
        })
    }

    /// The worst arc (front > flank > rear) of enemy units adjacent to `h` toward `h`, for retreats
    /// (11.2) and commanders (8.5, 6.1). `None` if no enemy unit is adjacent.
    pub fn enemy_arc_at(&self, s: &State, h: HexId, enemy: Side) -> Option<Arc> {
        let mut best: Option<Arc> = None;
        for (i, us) in s.units.iter().enumerate() {
            let u = i as UnitIx;
            let Some(uh) = us.hex else { continue };
            if self.side_of(u) != enemy || us.has(flag::ROUTED) || !uh.is_adjacent(h) {
                continue;
            }
            let a = if self.zoc_reaches(s, u, h) {
                Arc::Front
            } else {
                self.arc_toward(s, u, h)
            };
            best = Some(match (best, a) {
                (Some(Arc::Front), _) | (_, Arc::Front) => Arc::Front,
                (Some(Arc::Flank), _) | (_, Arc::Flank) => Arc::Flank,
                _ => Arc::Rear,
            });
        }
        best
    }

    /// Whether a unit has an enemy unit in its own ZoC (8.3: it may not change facing).
    pub fn enemy_in_own_zoc(&self, s: &State, u: UnitIx) -> bool {
        let Some(h) = s.units[usize::from(u)].hex else {
            return false;
        };
        let enemy = self.side_of(u).other();
        let m = self.front_mask(s, u);
        Dir::ALL.into_iter().any(|d| {
            m & (1 << d.index()) != 0
                && h.neighbour(d)
                    .map(|n| self.side_at(s, n) == Some(enemy) && self.zoc_reaches(s, u, n))
                    .unwrap_or(false)
        })
    }

    /// MP cost for a mover to go from `a` into the adjacent `b`; `None` if forbidden (8.1, 8.5,
    /// Terrain Effect Table, tables.toml hexsides/heights/abattis).
    pub fn move_cost(&self, s: &State, mover: Mover, a: HexId, b: HexId) -> Option<u8> {
        let map = &self.sc.map;
        if !map.contains(b) {
            return None;
        }
        let side = map.side(a, b);
        let tb = &self.sc.tables;
        if side & side_bits::RIVER != 0 && side & side_bits::BRIDGE == 0 {
            return None;
        }
        let along_road = side & (side_bits::ROAD | side_bits::TRAIL) != 0;
        let abattis = s.abattis.contains(&b);
        let t = map.terrain(b);
        let tr = tb.terrain(t);
        // F/L 8.5: commanders spend MP as cavalry; Hastenbeck 8.5: 1 clear/trail, 2 elsewhere.
        let mover = match mover {
            Mover::Commander if self.edition.commanders_move_as_cavalry() => {
                Mover::Unit(Kind::HeavyCavalry)
            }
            m => m,
        };
        let mut cost = match mover {
            Mover::Commander => {
                if along_road || t == Terrain::Clear {
                    1
                } else {
                    2
                }
            }
            Mover::Unit(k) => {
                if along_road {
                    tb.raw.hexsides.road.cost
                } else {
                    let c = if k.is_cavalry() {
                        tr.cost_cav
                    } else if k.is_guns() {
                        tr.cost_art
                    } else {
                        tr.cost_inf
                    };
                    c?
                }
            }
        };
        if let Mover::Unit(k) = mover {
            if abattis {
                if k.is_cavalry() && tb.raw.abattis.cavalry_forbidden {
                    return None;
                }
                cost += tb.raw.abattis.extra_cost;
            }
            if !along_road {
                if side & side_bits::STREAM != 0 && side & side_bits::BRIDGE == 0 {
                    cost += tb.raw.hexsides.stream.extra_cost;
                }
                if map.level(b) > map.level(a) {
                    cost += tb.raw.heights.uphill_extra_cost;
                }
            }
        }
        Some(cost)
    }

    /// 8.2: crossing a stream next to a marsh disorganises.
    pub fn terrain_disorganises(&self, a: HexId, b: HexId) -> bool {
        let map = &self.sc.map;
        let side = map.side(a, b);
        self.sc
            .tables
            .raw
            .hexsides
            .stream
            .disorganises_next_to_marsh
            && side & side_bits::STREAM != 0
            && side & side_bits::BRIDGE == 0
            && (map.terrain(a) == Terrain::Marsh || map.terrain(b) == Terrain::Marsh)
    }

    /// Whether hex `h` is an enemy front or flank hex not occupied by a friend (6.1, 8.5).
    pub fn hostile_for_commander(&self, s: &State, h: HexId, side: Side) -> bool {
        match self.side_at(s, h) {
            Some(x) if x == side => return false,
            Some(_) => return true,
            None => {}
        }
        matches!(
            self.enemy_arc_at(s, h, side.other()),
            Some(Arc::Front) | Some(Arc::Flank)
        )
    }

    /// Hexes reachable by a command radius from `from` (6.1: a line of hexes unaffected by terrain,
    /// not through an enemy unit nor an enemy front or flank hex not occupied by a friend).
    pub fn command_reach(&self, s: &State, from: HexId, radius: u8, side: Side) -> Vec<HexId> {
        let mut seen = Vec::new();
        self.command_search(s, from, radius, side, |h| {
            seen.push(h);
            false
        });
        seen
    }

    /// Whether `to` is within a command radius from `from` (6.1): [`Saxe::command_reach`]
    /// stopping at `to`.
    pub fn command_reaches(
        &self,
        s: &State,
        from: HexId,
        radius: u8,
        side: Side,
        to: HexId,
    ) -> bool {
        self.command_search(s, from, radius, side, |h| h == to)
    }

    /// The search of [`Saxe::command_reach`]: calls `found` on each hex reached, `from` first,
    /// in breadth-first order, until it returns true (then true).
    fn command_search(
        &self,
        s: &State,
        from: HexId,
        radius: u8,
        side: Side,
        mut found: impl FnMut(HexId) -> bool,
    ) -> bool {
        if found(from) {
            return true;
        }
        let map = &self.sc.map;
        let hostile = self.hostile_map(s, side);
        let mut seen_ix = vec![false; map.len()];
        if let Some(i) = map.index(from) {
            seen_ix[i] = true;
        }
        let mut frontier = vec![from];
        let mut next = Vec::new();
        for _ in 0..radius {
            for &h in &frontier {
                for (_, n) in h.neighbours() {
                    let Some(i) = map.index(n) else { continue };
                    if seen_ix[i] {
                        continue;
                    }
                    seen_ix[i] = true;
                    if hostile[i] == 1 {
                        continue; // an enemy unit: not even reached
                    }
                    if found(n) {
                        return true;
                    }
                    // A hostile hex can be reached (a commander may stand in it) but not traced
                    // through.
                    if hostile[i] == 0 {
                        next.push(n);
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        false
    }

    /// Per map hex (row-major, [`crate::scenario::Map::index`]): 1 enemy unit, 2 enemy front or
    /// flank hex not occupied by a friend, 0 otherwise (6.1, 8.5).
    pub fn hostile_map(&self, s: &State, side: Side) -> Vec<u8> {
        let map = &self.sc.map;
        let mut m = vec![0u8; map.len()];
        let mut friendly = vec![false; map.len()];
        for (i, us) in s.units.iter().enumerate() {
            let Some(h) = us.hex else { continue };
            let Some(ix) = map.index(h) else { continue };
            if self.side_of(i as UnitIx) == side {
                friendly[ix] = true;
            } else {
                m[ix] = 1;
            }
        }
        for (i, us) in s.units.iter().enumerate() {
            let u = i as UnitIx;
            let Some(h) = us.hex else { continue };
            if self.side_of(u) == side || us.has(flag::ROUTED) {
                continue;
            }
            // As enemy_arc_at: front if its ZoC reaches the hex, else the geometric arc; a ZoC
            // reaches only front hexes, so this is every hex not in its rear.
            let not_rear = self.front_mask(s, u) | flank_mask(us.facing);
            for (d, n) in h.neighbours() {
                let Some(ix) = map.index(n) else { continue };
                if m[ix] != 0 || friendly[ix] {
                    continue;
                }
                if not_rear & (1 << d.index()) != 0 {
                    m[ix] = 2;
                }
            }
        }
        m
    }

    /// The army commander of a side (his current hex).
    pub fn army_hex(&self, s: &State, side: Side) -> Option<HexId> {
        s.commanders
            .iter()
            .enumerate()
            .find(|(i, c)| c.army && self.sc.commanders[*i].side == side)
            .and_then(|(_, c)| c.hex)
    }

    /// The commander index of the current army commander.
    pub fn army_commander(&self, s: &State, side: Side) -> Option<CommanderIx> {
        s.commanders
            .iter()
            .enumerate()
            .find(|(i, c)| c.army && self.sc.commanders[*i].side == side && c.hex.is_some())
            .map(|(i, _)| i as CommanderIx)
    }

    /// Whether a formation commander (or an independent unit's hex) is within the army commander's
    /// command radius (6.1, 5.1).
    pub fn in_army_command(&self, s: &State, side: Side, h: HexId) -> bool {
        let Some(c) = self.army_commander(s, side) else {
            return false;
        };
        let Some(ah) = s.commanders[usize::from(c)].hex else {
            return false;
        };
        let r = self.sc.commanders[usize::from(c)].radius;
        self.command_reaches(s, ah, r, side, h)
    }

    /// Units of a formation on the map.
    pub fn formation_units(&self, s: &State, f: FormationIx) -> Vec<UnitIx> {
        (0..s.units.len() as UnitIx)
            .filter(|&u| self.sc.units[usize::from(u)].formation == Some(f) && self.alive(s, u))
            .collect()
    }

    /// The formation commander of a formation.
    pub fn formation_commander(&self, f: FormationIx) -> CommanderIx {
        self.sc.formations[usize::from(f)].commander
    }

    /// The line of battle containing unit `u` among `pool` (6.5): adjacent units of the same
    /// formation with the same facing, not routed, infantry and cavalry not intercalated; guns
    /// only when stacked with a member. Returns the member units (incl. stacked guns).
    pub fn line_of(&self, s: &State, u: UnitIx, pool: &[UnitIx]) -> Vec<UnitIx> {
        let us = &s.units[usize::from(u)];
        let (Some(h0), f0) = (us.hex, us.facing) else {
            return Vec::new();
        };
        let form = self.sc.units[usize::from(u)].formation;
        if form.is_none() || us.has(flag::ROUTED) {
            return vec![u];
        }
        // 6.5: a gun is part of a line only through a unit of the line it is stacked with.
        if self.kind(u).is_guns() {
            let mate = self.combat_units_at(s, h0).into_iter().find(|&x| {
                pool.contains(&x)
                    && self.sc.units[usize::from(x)].formation == form
                    && !self.has(s, x, flag::ROUTED)
            });
            return match mate {
                Some(m) => self.line_of(s, m, pool),
                None => vec![u],
            };
        }
        let member = |x: UnitIx| {
            let xs = &s.units[usize::from(x)];
            pool.contains(&x)
                && self.sc.units[usize::from(x)].formation == form
                && xs.facing == f0
                && !xs.has(flag::ROUTED)
                && !self.kind(x).is_guns()
                && xs.hex.is_some()
        };
        // The candidate members with their hexes (only pool units can be members).
        let cands: Vec<(HexId, bool)> = pool
            .iter()
            .copied()
            .filter(|&x| member(x))
            .filter_map(|x| {
                s.units[usize::from(x)]
                    .hex
                    .map(|h| (h, self.kind(x).is_cavalry()))
            })
            .collect();
        let grow = |arm: Option<bool>| {
            let mut hexes = vec![h0];
            let mut i = 0;
            while i < hexes.len() {
                let h = hexes[i];
                i += 1;
                for &(n, cav) in &cands {
                    if arm.is_none_or(|c| cav == c) && !hexes.contains(&n) && n.is_adjacent(h) {
                        hexes.push(n);
                    }
                }
            }
            hexes
        };
        let mut hexes = grow(None);
        let cav_hexes: Vec<HexId> = hexes
            .iter()
            .copied()
            .filter(|h| cands.iter().any(|(x, cav)| x == h && *cav))
            .collect();
        if !cav_hexes.is_empty() && cav_hexes.len() < hexes.len() {
            // Both arms: each arm must be connected on its own (not intercalated).
            let connected = |set: &Vec<HexId>| {
                let mut seen = vec![set[0]];
                let mut i = 0;
                while i < seen.len() {
                    let h = seen[i];
                    i += 1;
                    for (_, n) in h.neighbours() {
                        if set.contains(&n) && !seen.contains(&n) {
                            seen.push(n);
                        }
                    }
                }
                seen.len() == set.len()
            };
            let inf_hexes: Vec<HexId> = hexes
                .iter()
                .copied()
                .filter(|h| !cav_hexes.contains(h))
                .collect();
            if !connected(&cav_hexes) || !connected(&inf_hexes) {
                hexes = grow(Some(self.kind(u).is_cavalry()));
            }
        }
        let mut out = Vec::new();
        for h in hexes {
            let here = self.units_at(s, h);
            let has_member = here.iter().any(|&x| member(x));
            for x in here {
                if member(x) || (has_member && self.kind(x) == Kind::Artillery && pool.contains(&x))
                {
                    out.push(x);
                }
            }
        }
        out
    }

    /// Line of sight (9.4) from `a` to `b`.
    pub fn line_of_sight(&self, s: &State, a: HexId, b: HexId) -> bool {
        if a.distance(b) <= 1 {
            return true;
        }
        let map = &self.sc.map;
        let (la, lb) = (map.level(a), map.level(b));
        let top = la.max(lb);
        let blocking = |h: HexId| {
            self.side_at(s, h).is_some()
                || self.sc.tables.terrain(map.terrain(h)).blocks_los
                || s.units
                    .iter()
                    .enumerate()
                    .any(|(i, u)| u.hex == Some(h) && self.kind(i as UnitIx) == Kind::Redoubt)
        };
        let blocks = |h: HexId| -> bool {
            let lh = map.level(h);
            if lh > top {
                return true;
            }
            let diff = la.abs_diff(lb);
            match diff {
                0 => lh >= la && blocking(h),
                1 => blocking(h),
                _ => false,
            }
        };
        for st in los_path(a, b) {
            match st {
                LosStep::Hex(h) => {
                    if blocks(h) {
                        return false;
                    }
                }
                LosStep::Along(x, y) => {
                    if blocks(x) && blocks(y) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// 3.5.2: the stack order for a unit ending its move on friends in `h`: under them (Hastenbeck,
    /// order 9, renumbered later) or on top (F/L: the units there go down one place).
    pub fn arrival_order(&self, s: &mut State, h: HexId) -> u8 {
        if self.edition.arriving_unit_on_top() {
            // 3.5.3: a gun stays on top of everything.
            let mut guns = false;
            for u in self.units_at(s, h) {
                let o = &mut s.units[usize::from(u)].order;
                if self.kind(u).is_guns() {
                    *o = 0;
                    guns = true;
                } else {
                    *o = o.saturating_add(3);
                }
            }
            u8::from(guns)
        } else {
            9
        }
    }

    /// Stacking check for a hex after a hypothetical change (3.1): `units` are all the units that
    /// would be there, each with its facing in `s`.
    pub fn stacking_ok(&self, h: HexId, units: &[UnitIx], s: &State) -> bool {
        self.stacking_fault(h, units, s, &|u| s.units[usize::from(u)].facing)
            .is_none()
    }

    /// The first stacking limit (3.1) that `units` together in `h` would break, each unit with the
    /// facing `facing_of` gives it; `None` if they may stack.
    pub fn stacking_fault(
        &self,
        h: HexId,
        units: &[UnitIx],
        s: &State,
        facing_of: &dyn Fn(UnitIx) -> Vertex,
    ) -> Option<StackingFault> {
        let mut inf = 0;
        let mut cav = 0;
        let mut guns = 0;
        let mut redoubt = false;
        let mut all_gren = true;
        let mut facing: Option<Vertex> = None;
        for &u in units {
            let k = self.kind(u);
            if k.is_infantry() {
                inf += 1;
                all_gren &= self.sc.units[usize::from(u)].grenadiers;
            } else if k.is_cavalry() {
                cav += 1;
            } else {
                guns += 1;
                redoubt |= k == Kind::Redoubt;
            }
            // 3.1's common facing binds infantry and cavalry, light units included (a light unit
            // joining a stack takes its facing: `joining_facing`). Guns may face their own way
            // (8.8 turns a gun alone; F/L 3.1 exception); routed units have none (2.2).
            if !s.units[usize::from(u)].has(flag::ROUTED) && !k.is_guns() {
                let f = facing_of(u);
                if facing.is_some_and(|x| x != f) {
                    return Some(StackingFault::Facing);
                }
                facing = Some(f);
            }
        }
        if inf > 0 && cav > 0 {
            return Some(StackingFault::Arms);
        }
        if guns > 1 {
            return Some(StackingFault::TwoGuns);
        }
        if inf + cav > 2 {
            return Some(StackingFault::TooMany);
        }
        if self.edition.two_counters_with_guns() {
            // F/L 3.1: two units in all, a gun counting as one; in a town, in rough terrain or
            // with a routed unit, only one infantry or cavalry unit with a gun.
            if inf + cav + guns > 2 {
                return Some(StackingFault::TwoCounters);
            }
            let routed = units
                .iter()
                .any(|&u| s.units[usize::from(u)].has(flag::ROUTED));
            let t = self.sc.map.terrain(h);
            let town = t.is_town() || self.sc.tables.terrain(t).restricted_stacking;
            if (town || routed) && inf + cav > 1 {
                return Some(StackingFault::Restricted);
            }
            return None;
        }
        let village = self.sc.map.terrain(h).is_town();
        if (village || redoubt) && guns > 0 && inf > 1 && !all_gren {
            return Some(StackingFault::VillageOrRedoubt);
        }
        None
    }

    /// 3.1, 2.1: the facing unit `u` would have in `to` (`own` if it joins nobody), entering it
    /// by a step in direction `dir` (`None` for a move that is no step), beside the friends
    /// already there that are not among `movers`; `None` if it may not join them from that side. A light unit has only front hexes,
    /// so its facing changes nothing for it: it takes the facing of the stack it joins, coming
    /// as Hastenbeck 3.1 says from the stack's rear hexes (a forward move) or its front hexes (a
    /// backward move), never across its flank (F/L 3.1 has no such sentence). Any other unit
    /// keeps its own facing, which the stacking check then compares (docs/rules-decisions.md
    /// 3.1).
    pub fn joining_facing(
        &self,
        s: &State,
        u: UnitIx,
        own: Vertex,
        to: HexId,
        dir: Option<Dir>,
        movers: &[UnitIx],
    ) -> Option<Vertex> {
        if self.kind(u).is_guns()
            || s.units[usize::from(u)].has(flag::ROUTED)
            || !self.light_in(s, u, to)
        {
            return Some(own);
        }
        let side = self.side_of(u);
        let stack = self.combat_units_at(s, to).into_iter().find(|&x| {
            !movers.contains(&x) && self.side_of(x) == side && !self.has(s, x, flag::ROUTED)
        });
        let Some(mate) = stack else { return Some(own) };
        let f = s.units[usize::from(mate)].facing;
        match dir {
            Some(d) if f.flank().contains(&d) && self.edition.joins_stacks_from_rear_or_front() => {
                None
            }
            _ => Some(f),
        }
    }
    /// Commanders in a hex.
    pub fn commanders_at(&self, s: &State, h: HexId) -> Vec<CommanderIx> {
        (0..s.commanders.len() as CommanderIx)
            .filter(|&c| s.commanders[usize::from(c)].hex == Some(h))
            .collect()
    }

    /// Hexes occupied by a side (combat units or guns), sorted.
    pub fn occupied_hexes(&self, s: &State, side: Side) -> Vec<HexId> {
        let mut v: Vec<HexId> = s
            .units
            .iter()
            .enumerate()
            .filter(|(i, u)| u.hex.is_some() && self.side_of(*i as UnitIx) == side)
            .filter_map(|(_, u)| u.hex)
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

/// A stacking limit broken (3.1), for refusals and set-up validation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StackingFault {
    /// The infantry and cavalry of a stack face different ways.
    Facing,
    /// Infantry and cavalry together (Hastenbeck 3.1 exception 1; F/L 3.1).
    Arms,
    /// Two artillery units (or redoubts) together.
    TwoGuns,
    /// More than two infantry or cavalry units.
    TooMany,
    /// F/L 3.1: more than two counters, an artillery unit or redoubt counting as one.
    TwoCounters,
    /// F/L 3.1 exception: in a town, rough terrain or with a routed unit, one unit with a gun.
    Restricted,
    /// Hastenbeck 3.1 exception 2: in a village or a redoubt, one infantry unit with the guns
    /// (grenadiers excepted).
    VillageOrRedoubt,
}

impl std::fmt::Display for StackingFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StackingFault::Facing => "3.1: the units of a stack have the same facing",
            StackingFault::Arms => {
                "3.1: infantry stacks only with infantry, cavalry only with cavalry"
            }
            StackingFault::TwoGuns => "3.1: two artillery units may not stack",
            StackingFault::TooMany => "3.1: at most two infantry or cavalry units a hex",
            StackingFault::TwoCounters => {
                "3.1: at most two units a hex, an artillery unit or redoubt counting as one"
            }
            StackingFault::Restricted => {
                "3.1: in a town, rough terrain or with a routed unit only one unit, with a gun"
            }
            StackingFault::VillageOrRedoubt => {
                "3.1 exception 2: in a village or a redoubt only one infantry unit with the guns, grenadiers excepted"
            }
        })
    }
}
