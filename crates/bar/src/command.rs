//! Command control (7.0): lines of command (LOC) traced in half points, regimental integrity (6.2),
//! leader and unit initiative (7.4), automatic command (7.5) and the command status of an
//! activation (7.6).
use crate::checks::{d10, percentile};
use crate::data::LeaderKind;
use crate::event::Event;
use crate::scenario::{LeaderIx, Scenario, UnitIx};
use crate::state::{LeaderStatus, State};
use hexmap::HexId;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// How a LOC is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A brigade leader's LOC to combat units (7.2b–c): occupancy decides the cost.
    Brigade,
    /// An army, wing or detachment leader's LOC (7.3b, 24.1b): 1 a hex, ½ along a road.
    ArmyWing,
}

/// Whether hex `h` is in the ZOC of a non-routed enemy of `side` (9.1: a unit's ZOC is its front
/// hexes).
pub fn ezoc(sc: &Scenario, st: &State, side: u8, h: HexId) -> bool {
    st.units.iter().enumerate().any(|(i, u)| {
        sc.units[i].side != side
            && !u.eliminated
            && !u.routed
            && !u.hexes.is_empty()
            && u.hexes.iter().any(|x| x.is_adjacent(h))
            && crate::geom::in_front_of(&u.hexes, u.facing, u.formation, h)
    })
}

/// A set of the board's hexes, one bit a hex of the board's dense index (a hex off the board is
/// never in it).
#[derive(Clone, Debug)]
pub struct HexSet<'a> {
    d: &'a crate::scenario::Dense,
    bits: Vec<u64>,
}

impl<'a> HexSet<'a> {
    /// The empty set over the board.
    pub fn new(d: &'a crate::scenario::Dense) -> Self {
        HexSet {
            d,
            bits: vec![0; d.ids.len().div_ceil(64)],
        }
    }

    /// Put `h` in the set (a hex off the board is ignored).
    pub fn insert(&mut self, h: HexId) {
        if let Some(i) = self.d.ix(h) {
            self.insert_ix(i);
        }
    }

    fn insert_ix(&mut self, i: u32) {
        if let Some(w) = self.bits.get_mut(i as usize / 64) {
            *w |= 1 << (i % 64);
        }
    }

    /// Whether `h` is in the set.
    #[inline]
    pub fn contains(&self, h: &HexId) -> bool {
        self.d.ix(*h).is_some_and(|i| {
            self.bits
                .get(i as usize / 64)
                .is_some_and(|w| w & (1 << (i % 64)) != 0)
        })
    }

    /// The hexes of the set, in the board's order.
    pub fn iter(&self) -> impl Iterator<Item = HexId> + '_ {
        self.d
            .ids
            .iter()
            .enumerate()
            .filter(|(i, _)| self.bits[i / 64] & (1 << (i % 64)) != 0)
            .map(|(_, h)| *h)
    }
}

/// Every hex of the board that holds a unit not eliminated (of either side).
pub fn occupied_set<'a>(sc: &'a Scenario, st: &State) -> HexSet<'a> {
    let mut set = HexSet::new(&sc.board.dense);
    for u in st.units.iter().filter(|u| !u.eliminated) {
        for &h in &u.hexes {
            set.insert(h);
        }
    }
    set
}

/// Every hex of the board in the ZOC of a non-routed enemy of `side` (9.1; a hook's extra front
/// hex too, 8.1b).
pub fn ezoc_set<'a>(sc: &'a Scenario, st: &State, side: u8) -> HexSet<'a> {
    /// What the set reads of unit `i`: for an enemy of `side` on the map and not routed, its
    /// hexes, facing and formation (its ZOC); nothing of the others.
    type Seen = Option<(
        crate::state::Hexes,
        crate::geom::Facing,
        crate::geom::Formation,
    )>;
    let seen =
        |i: usize, u: &crate::state::UnitState| -> Seen {
            (sc.units[i].side != side && !u.eliminated && !u.routed && !u.hexes.is_empty())
                .then_some((u.hexes, u.facing, u.formation))
        };
    thread_local! {
        static MEMO: crate::memo::Cells<(u8, Vec<Seen>), Vec<u64>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let d = &sc.board.dense;
    // A function of the side and the enemies' ZOCs alone (`memo.rs`): a mover's menus, one after
    // another, ask for the same set while only the mover's side moves.
    let bits = crate::memo::cached(
        &MEMO,
        1,
        sc,
        &(side, &st.units[..]),
        |q| {
            (
                q.0,
                q.1.iter().enumerate().map(|(i, u)| seen(i, u)).collect(),
            )
        },
        |k, _, q| {
            k.0 == q.0
                && k.1.len() == q.1.len()
                && k.1
                    .iter()
                    .zip(q.1)
                    .enumerate()
                    .all(|(i, (a, b))| *a == seen(i, b))
        },
        || {
            let mut set = HexSet::new(d);
            for u in st.units.iter().enumerate().filter_map(|(i, u)| seen(i, u)) {
                let (hexes, facing, formation) = u;
                zoc_of(d, &hexes, facing, formation, |x| set.insert_ix(x));
            }
            set.bits
        },
    );
    HexSet { d, bits }
}

/// The ZOC hexes of a unit (9.1: its front hexes; a hook's extra front hex, 8.1b) by the board's
/// dense index, each given to `f` (a hex may come twice): `geom::front_of` without its list.
fn zoc_of(
    d: &crate::scenario::Dense,
    hexes: &[HexId],
    facing: crate::geom::Facing,
    formation: crate::geom::Formation,
    mut f: impl FnMut(u32),
) {
    for &h in hexes {
        let Some(x) = d.ix(h) else { continue };
        for dir in facing.front_dirs() {
            let n = d.nbr[x as usize][dir.index()];
            if n != u32::MAX && !hexes.contains(&d.ids[n as usize]) {
                f(n);
            }
        }
    }
    if let Some(x) = crate::geom::hook_hex(hexes, facing, formation).and_then(|h| d.ix(h)) {
        f(x);
    }
}

/// Units on the map by hex.
pub fn occupancy(st: &State) -> FxHashMap<HexId, Vec<UnitIx>> {
    let mut m: FxHashMap<HexId, Vec<UnitIx>> = FxHashMap::default();
    for (i, u) in st.units.iter().enumerate() {
        if u.eliminated {
            continue;
        }
        for h in &u.hexes {
            m.entry(*h).or_default().push(i as UnitIx);
        }
    }
    m
}

/// The integrity groups of a state ([`integrity_groups`]): each unit's group number, if it is in
/// a group of two or more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Groups(Vec<usize>);

impl Groups {
    /// The group of unit `u`, if it has regimental integrity.
    #[inline]
    pub fn get(&self, u: &UnitIx) -> Option<&usize> {
        self.0.get(usize::from(*u)).filter(|&&g| g != usize::MAX)
    }
}

/// Groups of units with regimental integrity (6.2): adjacent (or stacked) non-routed units of one
/// regiment, none stacked with a unit of another regiment (an independent unit does not break
/// it, 6.2c). Gives each unit in a group of two or more its group number.
pub fn integrity_groups(sc: &Scenario, st: &State) -> Groups {
    /// What [`integrity_groups_now`] reads of a unit: its hexes, eliminated, routed.
    type Seen = (crate::state::Hexes, bool, bool);
    fn seen(u: &crate::state::UnitState) -> Seen {
        (u.hexes, u.eliminated, u.routed)
    }
    thread_local! {
        static MEMO: crate::memo::Cells<Vec<Seen>, Groups> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    // A function of the units' places and states alone (`memo.rs`): asked again of an unchanged
    // board (whatever else changed: activation, command, MPs), answered once.
    crate::memo::cached(
        &MEMO,
        1,
        sc,
        &st.units[..],
        |q| q.iter().map(seen).collect(),
        |k, _, q| crate::memo::seen_as(k, q, seen),
        || integrity_groups_now(sc, st),
    )
}

/// [`integrity_groups`], worked out.
fn integrity_groups_now(sc: &Scenario, st: &State) -> Groups {
    // Who stands where ([`occupancy`]) as one sorted list: a hex's occupants are a run of it.
    let mut occ: Vec<(HexId, UnitIx)> = Vec::with_capacity(st.units.len() * 2);
    for (i, u) in st.units.iter().enumerate() {
        if !u.eliminated {
            occ.extend(u.hexes.iter().map(|&h| (h, i as UnitIx)));
        }
    }
    occ.sort_unstable();
    let occupants = |h: HexId| {
        let from = occ.partition_point(|x| x.0 < h);
        occ[from..]
            .iter()
            .take_while(move |x| x.0 == h)
            .map(|x| x.1)
    };
    // The eligible units as (regiment, unit), in unit order within each regiment: only they can
    // join (the unions are made in the same order as over all pairs, so the groups are the same).
    let mut members: Vec<(u16, usize)> = Vec::new();
    for (u, s) in st.units.iter().enumerate() {
        let Some(reg) = sc.units[u].regiment_ix else {
            continue;
        };
        if s.eliminated || s.routed || s.hexes.is_empty() {
            continue;
        }
        let clean = s.hexes.iter().all(|&h| {
            occupants(h).all(|o| {
                let ou = &sc.units[usize::from(o)];
                ou.brigade.is_none() || ou.regiment_ix == Some(reg)
            })
        });
        if clean {
            members.push((reg, u));
        }
    }
    members.sort_unstable();
    let n = st.units.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        let mut y = x;
        while p[y] != r {
            let next = p[y];
            p[y] = r;
            y = next;
        }
        r
    }
    for run in members.chunk_by(|x, y| x.0 == y.0) {
        for (i, &(_, a)) in run.iter().enumerate() {
            for &(_, b) in &run[i + 1..] {
                if sc.units[a].side != sc.units[b].side {
                    continue;
                }
                let touch = st.units[a].hexes.iter().any(|x| {
                    st.units[b]
                        .hexes
                        .iter()
                        .any(|y| x == y || x.is_adjacent(*y))
                });
                if touch {
                    let (x, y) = (find(&mut parent, a), find(&mut parent, b));
                    parent[x] = y;
                }
            }
        }
    }
    let mut size = vec![0u16; n];
    let mut root = vec![usize::MAX; n];
    for &(_, u) in &members {
        let r = find(&mut parent, u);
        root[u] = r;
        size[r] += 1;
    }
    for r in &mut root {
        if *r != usize::MAX && size[*r] < 2 {
            *r = usize::MAX;
        }
    }
    Groups(root)
}

/// The hexes a leader traces his LOC from: his hex, and for a brigade leader stacked with a
/// multi-hex formation or an integral regiment every hex of it (7.2d).
pub fn sources(sc: &Scenario, st: &State, l: LeaderIx, style: Style) -> Vec<HexId> {
    if style == Style::Brigade {
        sources_in(sc, st, l, style, &integrity_groups(sc, st))
    } else {
        sources_in(sc, st, l, style, &Groups::default())
    }
}

/// [`sources`] with the integrity groups of the state.
fn sources_in(sc: &Scenario, st: &State, l: LeaderIx, style: Style, groups: &Groups) -> Vec<HexId> {
    let Some(h) = st.leaders[usize::from(l)].hex else {
        return Vec::new();
    };
    let mut v = vec![h];
    if style == Style::Brigade {
        let side = sc.leaders[usize::from(l)].side;
        for (i, u) in st.units.iter().enumerate() {
            if sc.units[i].side == side && !u.eliminated && u.hexes.contains(&h) {
                for x in &u.hexes {
                    if !v.contains(x) {
                        v.push(*x);
                    }
                }
                if let Some(g) = groups.get(&(i as UnitIx)) {
                    for (j, w) in st.units.iter().enumerate() {
                        if groups.get(&(j as UnitIx)) == Some(g) {
                            for x in &w.hexes {
                                if !v.contains(x) {
                                    v.push(*x);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    v
}

/// What a side's LOC meets on the board (7.1–7.3), built once for all the LOCs a decision
/// traces: per hex its occupants (enemy, friendly, steady, activated, idle), the enemy ZOC and
/// the integrity group it holds; and the integrity groups (6.2).
pub struct LocField<'a> {
    d: &'a crate::scenario::Dense,
    side: u8,
    flags: std::rc::Rc<Vec<u8>>,
    /// Each hex's integrity group (`NO_GROUP`: none), as `u16`: the group numbers are unit
    /// numbers.
    group: std::rc::Rc<Vec<u16>>,
    /// The state's integrity groups ([`integrity_groups`]).
    pub groups: std::rc::Rc<Groups>,
    /// The hexes a LOC may not enter, one bit a hex of the dense index, when first asked.
    blocked: std::cell::OnceCell<Vec<u64>>,
}

/// A hex of no integrity group in [`LocField`]'s `group`.
const NO_GROUP: u16 = u16::MAX;

const ENEMY: u8 = 1;
const FRIEND: u8 = 2;
const STEADY: u8 = 4;
const ACTIVE: u8 = 8;
const IDLE: u8 = 16;
const ZOC: u8 = 32;
/// A LOC never enters the hex: terrain closed to leaders, an enemy, or an EZOC not held by a
/// non-routed friend (7.1).
const BLOCKED: u8 = 64;

impl<'a> LocField<'a> {
    /// The field for `side`'s leaders.
    pub fn new(sc: &'a Scenario, st: &State, side: u8) -> LocField<'a> {
        /// What [`LocField::now`] reads of a unit: hexes, facing, formation (its ZOC),
        /// eliminated, routed, activated.
        type Seen = (
            crate::state::Hexes,
            crate::geom::Facing,
            crate::geom::Formation,
            [bool; 3],
        );
        fn seen(u: &crate::state::UnitState) -> Seen {
            (
                u.hexes,
                u.facing,
                u.formation,
                [u.eliminated, u.routed, u.activated],
            )
        }
        // Shared (`Rc`): a memo's answer is given back without a copy of its three lists.
        type Field = (
            std::rc::Rc<Vec<u8>>,
            std::rc::Rc<Vec<u16>>,
            std::rc::Rc<Groups>,
        );
        thread_local! {
            static MEMO: crate::memo::Cells<(u8, Vec<Seen>), Field> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        // A function of the side and the units alone (`memo.rs`): the command control and the
        // voluntary rout offers of one board ask for the same field.
        let (flags, group, groups) = crate::memo::cached(
            &MEMO,
            1,
            sc,
            &(side, &st.units[..]),
            |q| (q.0, q.1.iter().map(seen).collect()),
            |k, _, q| k.0 == q.0 && crate::memo::seen_as(&k.1, q.1, seen),
            || {
                let (flags, group, groups) = Self::now(sc, st, side);
                (
                    std::rc::Rc::new(flags),
                    std::rc::Rc::new(group),
                    std::rc::Rc::new(groups),
                )
            },
        );
        LocField {
            d: &sc.board.dense,
            side,
            flags,
            group,
            groups,
            blocked: std::cell::OnceCell::new(),
        }
    }

    /// The hexes a LOC may not enter (7.1), one bit a hex of the dense index: all an army or
    /// wing LOC reads of the field.
    fn blocked(&self) -> &[u64] {
        self.blocked.get_or_init(|| {
            let mut bits = vec![0u64; self.flags.len().div_ceil(64)];
            for (x, f) in self.flags.iter().enumerate() {
                if f & BLOCKED != 0 {
                    bits[x / 64] |= 1 << (x % 64);
                }
            }
            bits
        })
    }

    /// [`LocField::new`], worked out: each hex's flags and integrity group, and the groups.
    fn now(sc: &Scenario, st: &State, side: u8) -> (Vec<u8>, Vec<u16>, Groups) {
        let d = &sc.board.dense;
        let n = d.ids.len();
        // Per hex: enemy present; friendly present; a non-routed friend; all friends activated
        // and not routed; all friends unactivated or routed; the integrity group held; in an EZOC.
        let mut flags = vec![ACTIVE | IDLE; n];
        let mut group = vec![NO_GROUP; n];
        let groups = integrity_groups(sc, st);
        for (i, u) in st.units.iter().enumerate() {
            if u.eliminated {
                continue;
            }
            let enemy = sc.units[i].side != side;
            for h in &u.hexes {
                let Some(x) = d.ix(*h) else { continue };
                let x = x as usize;
                if enemy {
                    flags[x] |= ENEMY;
                    continue;
                }
                flags[x] |= FRIEND;
                if !u.routed {
                    flags[x] |= STEADY;
                }
                if !u.activated || u.routed {
                    flags[x] &= !ACTIVE;
                }
                if u.activated && !u.routed {
                    flags[x] &= !IDLE;
                }
                if let Some(g) = groups.get(&(i as UnitIx)) {
                    // Invariant: group numbers are unit numbers (`integrity_groups_now`), and
                    // unit numbers are `u16` (`UnitIx`).
                    group[x] = u16::try_from(*g).expect("a group number is a unit number");
                }
            }
            if enemy && !u.routed && !u.hexes.is_empty() {
                zoc_of(d, &u.hexes, u.facing, u.formation, |x| {
                    flags[x as usize] |= ZOC
                });
            }
        }
        for (x, f) in flags.iter_mut().enumerate() {
            if !d.leader_ok[x] || *f & ENEMY != 0 || (*f & ZOC != 0 && *f & STEADY == 0) {
                *f |= BLOCKED;
            }
        }
        (flags, group, groups)
    }
}

/// The cheapest LOC, in half points, from a leader to every hex within `range` (7.1–7.3): never
/// into an enemy-occupied hex, terrain or a hexside impassable to leaders, or an EZOC hex not held
/// by a non-routed friendly combat unit (the leader may leave his own hex).
pub fn loc_map<'a>(
    sc: &'a Scenario,
    st: &State,
    l: LeaderIx,
    style: Style,
    range: u8,
) -> LocMap<'a> {
    let field = LocField::new(sc, st, sc.leaders[usize::from(l)].side);
    loc_map_in(sc, st, &field, l, style, range)
}

/// [`loc_map`] in a field built for the leader's side.
pub fn loc_map_in<'a>(
    sc: &'a Scenario,
    st: &State,
    field: &LocField<'a>,
    l: LeaderIx,
    style: Style,
    range: u8,
) -> LocMap<'a> {
    match style {
        Style::ArmyWing => {
            debug_assert_eq!(field.side, sc.leaders[usize::from(l)].side);
            let sources = sources_in(sc, st, l, style, &field.groups);
            army_wing_map(field, sc, &sources, range)
        }
        Style::Brigade => loc_search(sc, st, field, l, style, range, &[], false).0,
    }
}

/// [`loc_map_in`] to be asked only about `targets`: the search stops once every target within
/// range is settled, so the map is exact for them (and for no other hex).
pub fn loc_map_for<'a>(
    sc: &'a Scenario,
    st: &State,
    field: &LocField<'a>,
    l: LeaderIx,
    style: Style,
    range: u8,
    targets: &[HexId],
) -> LocMap<'a> {
    let mut ix: Vec<u32> = targets.iter().filter_map(|t| field.d.ix(*t)).collect();
    ix.sort_unstable();
    ix.dedup();
    debug_assert_eq!(field.side, sc.leaders[usize::from(l)].side);
    let sources = sources_in(sc, st, l, style, &field.groups);
    // Everything the search reads (the field, where it starts, how it counts, how far, what it
    // looks for): the last map asked of an unchanged board is given again (the voluntary rout
    // offers of 19.10a ask the same one decision after decision).
    thread_local! {
        static MEMO: crate::memo::Cells<LocAsked<'static>, std::rc::Rc<Vec<u16>>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let asked = LocAsked {
        style,
        range,
        sources: Cow::Borrowed(&sources),
        targets: Cow::Borrowed(&ix),
        flags: Cow::Borrowed(&field.flags),
        group: Cow::Borrowed(&field.group),
    };
    let best = crate::memo::cached(
        &MEMO,
        1,
        sc,
        &asked,
        LocAsked::owned,
        |k, _, q| k == q,
        || {
            loc_search_from(field, &sources, style, range, &ix, true)
                .0
                .best
        },
    );
    LocMap { d: field.d, best }
}

/// What a targeted LOC search reads ([`loc_map_for`]'s memo key): its style, range, the hexes it
/// starts from, its targets, and the field's flags and integrity groups by hex (compared in that
/// order, the cheap first); borrowed when asked, owned when kept.
#[derive(PartialEq)]
struct LocAsked<'q> {
    style: Style,
    range: u8,
    sources: Cow<'q, [HexId]>,
    targets: Cow<'q, [u32]>,
    flags: Cow<'q, [u8]>,
    group: Cow<'q, [u16]>,
}

impl LocAsked<'_> {
    fn owned(&self) -> LocAsked<'static> {
        LocAsked {
            style: self.style,
            range: self.range,
            sources: Cow::Owned(self.sources.to_vec()),
            targets: Cow::Owned(self.targets.to_vec()),
            flags: Cow::Owned(self.flags.to_vec()),
            group: Cow::Owned(self.group.to_vec()),
        }
    }
}

/// The LOC search: every hex within range, or (with `targets`) until the nearest target is
/// settled, whose cost comes second (Dijkstra settles hexes cheapest first); with `all`, until
/// every target is settled (`targets` without repeats).
#[allow(clippy::too_many_arguments)]
fn loc_search<'a>(
    sc: &'a Scenario,
    st: &State,
    field: &LocField<'a>,
    l: LeaderIx,
    style: Style,
    range: u8,
    targets: &[u32],
    all: bool,
) -> (LocMap<'a>, Option<u16>) {
    debug_assert_eq!(field.side, sc.leaders[usize::from(l)].side);
    let sources = sources_in(sc, st, l, style, &field.groups);
    loc_search_from(field, &sources, style, range, targets, all)
}

/// [`loc_search`] from the hexes `sources`.
fn loc_search_from<'a>(
    field: &LocField<'a>,
    sources: &[HexId],
    style: Style,
    range: u8,
    targets: &[u32],
    all: bool,
) -> (LocMap<'a>, Option<u16>) {
    let d = field.d;
    let n = d.ids.len();
    let (flags, group) = (&field.flags, &field.group);
    let cap = u16::from(range) * 2;
    let mut best = vec![u16::MAX; n];
    // Dijkstra on a bucket queue: a step costs 0 to 4 half points, so the hexes waiting are
    // within 4 of the cost being settled, in a ring of 5 buckets (the same costs as a heap).
    let mut ring: [Vec<u32>; 5] = std::array::from_fn(|_| Vec::with_capacity(64));
    let mut waiting = 0usize;
    for &s in sources {
        if let Some(x) = d.ix(s) {
            best[x as usize] = 0;
            ring[0].push(x);
            waiting += 1;
        }
    }
    let mut c: u16 = 0;
    // The targets as bits of the dense index: one look a settled hex.
    let mut is_target = vec![
        0u64;
        if targets.is_empty() {
            0
        } else {
            n.div_ceil(64)
        }
    ];
    for &t in targets {
        if let Some(w) = is_target.get_mut(t as usize / 64) {
            *w |= 1 << (t % 64);
        }
    }
    // With `all`: the targets not yet settled (a hex is settled once, at its cheapest).
    let mut left = targets.len();
    // The cost of the target settled first (with `all`: of the last), if one was.
    let found = 'search: {
        while waiting > 0 {
            let Some(g) = ring[usize::from(c % 5)].pop() else {
                c += 1;
                continue;
            };
            waiting -= 1;
            let g = g as usize;
            if best[g] < c {
                continue;
            }
            if is_target
                .get(g / 64)
                .is_some_and(|w| w & (1 << (g % 64)) != 0)
            {
                if !all {
                    break 'search Some(c);
                }
                left -= 1;
                if left == 0 {
                    break 'search Some(c);
                }
            }
            for &e in &d.loc_step[g] {
                if e == u32::MAX {
                    continue;
                }
                let (h, road) = (e >> 1, e & 1 != 0);
                let hu = h as usize;
                let f = flags[hu];
                if f & BLOCKED != 0 {
                    continue;
                }
                let step = match style {
                    Style::ArmyWing => {
                        if road {
                            1
                        } else {
                            2
                        }
                    }
                    Style::Brigade => {
                        let fg = flags[g];
                        if group[g] != NO_GROUP && group[g] == group[hu] {
                            0
                        } else if fg & FRIEND != 0
                            && fg & ACTIVE != 0
                            && f & FRIEND != 0
                            && f & ACTIVE != 0
                        {
                            1
                        } else if f & FRIEND != 0 && f & IDLE != 0 {
                            4
                        } else {
                            2
                        }
                    }
                };
                let nc = c + step;
                if nc > cap || nc >= best[hu] {
                    continue;
                }
                debug_assert!(nc - c <= 4, "a LOC step costs at most 4 half points");
                best[hu] = nc;
                ring[usize::from(nc % 5)].push(h);
                waiting += 1;
            }
        }
        None
    };
    (
        LocMap {
            d,
            best: best.into(),
        },
        found,
    )
}

/// The LOC costs from a leader, by hex (half points).
#[derive(Clone, Debug)]
pub struct LocMap<'a> {
    d: &'a crate::scenario::Dense,
    /// Shared (`Rc`): a memo's map is given back without a copy.
    best: std::rc::Rc<Vec<u16>>,
}

impl LocMap<'_> {
    /// The cost to a hex, if within range.
    pub fn get(&self, h: &HexId) -> Option<u16> {
        self.d
            .ix(*h)
            .map(|i| self.best[i as usize])
            .filter(|&c| c != u16::MAX)
    }

    /// Whether the hex is within range.
    pub fn contains_key(&self, h: &HexId) -> bool {
        self.get(h).is_some()
    }
}

/// The LOC cost in half points from a leader to the nearest of `targets`, if within his range.
pub fn loc_to(
    sc: &Scenario,
    st: &State,
    l: LeaderIx,
    style: Style,
    targets: &[HexId],
) -> Option<u16> {
    let field = LocField::new(sc, st, sc.leaders[usize::from(l)].side);
    loc_to_in(sc, st, &field, l, style, targets)
}

/// [`loc_to`] in a field built for the leader's side.
pub fn loc_to_in(
    sc: &Scenario,
    st: &State,
    field: &LocField<'_>,
    l: LeaderIx,
    style: Style,
    targets: &[HexId],
) -> Option<u16> {
    if st.leaders[usize::from(l)].status != LeaderStatus::Present {
        return None;
    }
    let ix: Vec<u32> = targets.iter().filter_map(|t| field.d.ix(*t)).collect();
    if ix.is_empty() {
        return None;
    }
    let range = sc.leaders[usize::from(l)].range;
    loc_search(sc, st, field, l, style, range, &ix, false).1
}

/// Half points written for people ("3½").
pub fn halves(h: u16) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else if h == 1 {
        "½".into()
    } else {
        format!("{}½", h / 2)
    }
}

/// The leader who commands a side's whole army for a brigade or unit: the detachment leader for a
/// detachment not yet reintegrated (24.1b), else the army leader, if present.
pub fn top_leader(sc: &Scenario, st: &State, side: u8, detachment: Option<u8>) -> Option<LeaderIx> {
    if let Some(d) = detachment
        && !st.armies[usize::from(side)].reintegrated.contains(&d)
    {
        let l = sc.detachments[usize::from(d)].leader;
        return (st.leaders[usize::from(l)].status == LeaderStatus::Present).then_some(l);
    }
    army_leader(sc, st, side)
}

/// The side's army leader now: the starting one, or a replacement of his on the map (21.6).
pub fn army_leader(sc: &Scenario, st: &State, side: u8) -> Option<LeaderIx> {
    let a = sc.armies[usize::from(side)].leader;
    if st.leaders[usize::from(a)].status == LeaderStatus::Present {
        return Some(a);
    }
    if let Some(d) = st.leaders[usize::from(a)].deputy
        && st.leaders[usize::from(d)].status == LeaderStatus::Present
    {
        return Some(d);
    }
    None
}

/// The leader holding a post now: himself if present, else his deputy (21.5a).
pub fn holder(st: &State, l: LeaderIx) -> Option<LeaderIx> {
    let s = &st.leaders[usize::from(l)];
    if s.status == LeaderStatus::Present {
        return Some(l);
    }
    s.deputy
        .filter(|d| st.leaders[usize::from(*d)].status == LeaderStatus::Present)
}

/// Whether a wing leader is in command by a LOC from the army (or detachment) leader (7.3).
pub fn wing_loc(sc: &Scenario, st: &State, wing: u16) -> Option<u16> {
    let field = LocField::new(sc, st, sc.wings[usize::from(wing)].side);
    wing_loc_in(sc, st, &field, wing)
}

/// [`wing_loc`] in a field built for the wing's side.
fn wing_loc_in(sc: &Scenario, st: &State, field: &LocField<'_>, wing: u16) -> Option<u16> {
    wing_loc_with(sc, st, wing, |a, h| {
        loc_to_in(sc, st, field, a, Style::ArmyWing, &[h])
    })
}

/// Leaders' LOCs of one field (7.2–7.3), each leader's in each style traced once as a map of his
/// whole range and read for every hex asked about.
struct Locs<'f, 'a> {
    field: &'f LocField<'a>,
    maps: Vec<(LeaderIx, Style, Option<LocMap<'a>>)>,
}

/// What an army or wing leader's LOC map reads ([`army_wing_map`]'s memo key): the hexes it
/// starts from, its range and the hexes a LOC may not enter; borrowed when asked, owned when kept.
#[derive(PartialEq)]
struct ArmyWingAsked<'q> {
    range: u8,
    sources: Cow<'q, [HexId]>,
    blocked: Cow<'q, [u64]>,
}

/// An army or wing leader's whole LOC map (7.3, army/wing style: a step costs 1 half point along
/// a road, else 2, and reads of the field only where a LOC may not go). Memoised on all it reads
/// for the last eight maps asked: each activation's command control asks the army and wing
/// leaders' maps again, often of a board where no block has moved (`memo.rs`), or where the
/// blocks that moved stand beyond the map's reach ([`same_army_wing_map`]).
fn army_wing_map<'a>(
    field: &LocField<'a>,
    sc: &Scenario,
    sources: &[HexId],
    range: u8,
) -> LocMap<'a> {
    let blocked = field.blocked();
    thread_local! {
        static MEMO: crate::memo::Cells<ArmyWingAsked<'static>, std::rc::Rc<Vec<u16>>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let asked = ArmyWingAsked {
        range,
        sources: Cow::Borrowed(sources),
        blocked: Cow::Borrowed(blocked),
    };
    let best = crate::memo::cached(
        &MEMO,
        8,
        sc,
        &asked,
        |q| ArmyWingAsked {
            range: q.range,
            sources: Cow::Owned(q.sources.to_vec()),
            blocked: Cow::Owned(q.blocked.to_vec()),
        },
        |k, best, q| same_army_wing_map(field.d, k, best, q),
        || {
            loc_search_from(field, sources, Style::ArmyWing, range, &[], false)
                .0
                .best
        },
    );
    LocMap { d: field.d, best }
}

/// Whether the army/wing LOC map `best`, traced for the question `k`, is the map of `q`: the same
/// hexes to start from and the same range, and every hex blocked in one and not the other
/// beyond the map's reach. A hex newly blocked that the map never reached changes nothing (no
/// LOC within range went through it); a hex newly open changes nothing when no hex of the map
/// lies next to it with a half point of range left (a LOC could not step into it, so neither
/// into anything beyond it). Else the map is traced again.
fn same_army_wing_map(
    d: &crate::scenario::Dense,
    k: &ArmyWingAsked<'_>,
    best: &[u16],
    q: &ArmyWingAsked<'_>,
) -> bool {
    if k.range != q.range || k.sources != q.sources || k.blocked.len() != q.blocked.len() {
        return false;
    }
    let cap = u16::from(q.range) * 2;
    let reached = |x: usize| best.get(x).is_some_and(|&c| c != u16::MAX);
    for (w, (&was, &now)) in k.blocked.iter().zip(q.blocked.iter()).enumerate() {
        let mut diff = was ^ now;
        while diff != 0 {
            let b = diff.trailing_zeros() as usize;
            diff &= diff - 1;
            let x = w * 64 + b;
            if now & (1 << b) != 0 {
                // Newly blocked: only if the map never reached it.
                if reached(x) {
                    return false;
                }
            } else {
                // Newly open: only if no hex of the map next to it could step into it.
                let Some(nbr) = d.nbr.get(x) else {
                    return false;
                };
                if nbr
                    .iter()
                    .any(|&g| g != u32::MAX && best.get(g as usize).is_some_and(|&c| c < cap))
                {
                    return false;
                }
            }
        }
    }
    true
}

impl<'a> Locs<'_, 'a> {
    /// [`loc_to_in`] from `l` to `h` in `style`.
    fn cost(
        &mut self,
        sc: &'a Scenario,
        st: &State,
        l: LeaderIx,
        style: Style,
        h: HexId,
    ) -> Option<u16> {
        let k = match self.maps.iter().position(|m| m.0 == l && m.1 == style) {
            Some(k) => k,
            None => {
                let map = (st.leaders[usize::from(l)].status == LeaderStatus::Present).then(|| {
                    let range = sc.leaders[usize::from(l)].range;
                    loc_map_in(sc, st, self.field, l, style, range)
                });
                self.maps.push((l, style, map));
                self.maps.len() - 1
            }
        };
        self.maps[k].2.as_ref()?.get(&h)
    }
}

/// [`wing_loc_in`] with the LOC cost from a leader to a hex given by `cost`.
fn wing_loc_with(
    sc: &Scenario,
    st: &State,
    wing: u16,
    mut cost: impl FnMut(LeaderIx, HexId) -> Option<u16>,
) -> Option<u16> {
    let w = &sc.wings[usize::from(wing)];
    let wl = holder(st, w.leader)?;
    let det = w
        .brigades
        .first()
        .and_then(|b| sc.brigades[usize::from(*b)].detachment);
    let a = top_leader(sc, st, w.side, det)?;
    let h = st.leaders[usize::from(wl)].hex?;
    cost(a, h)
}

/// A leader initiative roll (7.4a–b): d10 ≤ his initiative rating.
pub fn leader_initiative(
    sc: &Scenario,
    st: &mut State,
    l: LeaderIx,
    rule: &'static str,
    ev: &mut Vec<Event>,
) -> bool {
    let die = d10(st);
    let rating = sc.leaders[usize::from(l)].initiative;
    let passed = die <= rating;
    ev.push(Event::LeaderInitiative {
        rule,
        leader: sc.leaders[usize::from(l)].name.clone(),
        die,
        rating,
        passed,
    });
    passed
}

/// The leaders who may give independent units command by a LOC (7.0, 7.4c): the activated
/// brigades' leaders in command (brigade style), the army leader, the wing leaders in command, an
/// activated special leader and the detachment leaders (army/wing style). `locs` holds the
/// leaders' maps.
fn givers<'a>(
    sc: &'a Scenario,
    st: &State,
    act: &crate::state::Activation,
    brigade_leader_ok: &BTreeMap<u16, bool>,
    locs: &mut Locs<'_, 'a>,
) -> Vec<(LeaderIx, Style)> {
    let side = act.side;
    let mut givers: Vec<(LeaderIx, Style)> = Vec::new();
    for &b in &act.brigades {
        if let Some(bl) = holder(st, sc.brigades[usize::from(b)].leader)
            && brigade_leader_ok.get(&bl).copied().unwrap_or(false)
        {
            givers.push((bl, Style::Brigade));
        }
    }
    for (i, l) in sc.leaders.iter().enumerate() {
        let li = i as LeaderIx;
        if l.side != side || st.leaders[i].status != LeaderStatus::Present {
            continue;
        }
        let ok = match l.kind {
            LeaderKind::Army => true,
            LeaderKind::Wing => l.wing.is_some_and(|w| {
                wing_loc_with(sc, st, w, |a, h| locs.cost(sc, st, a, Style::ArmyWing, h)).is_some()
            }),
            LeaderKind::Special => act.leaders.contains(&li),
            LeaderKind::Brigade => false,
        } || l.detachment.is_some();
        if ok {
            givers.push((li, Style::ArmyWing));
        }
    }
    givers
}

/// Decide the command status of everything in the activation (7.6a): leaders first, then units;
/// rolls leader and unit initiative where no LOC exists.
pub fn command_control(sc: &Scenario, st: &mut State, ev: &mut Vec<Event>) {
    let Some(act) = st.activation.clone() else {
        return;
    };
    let side = act.side;
    let mut in_cmd: Vec<String> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    let decapitated = army_leader(sc, st, side).is_none();
    // Leader initiative rolls below change nothing on the board: one field serves every LOC.
    let field = LocField::new(sc, st, side);
    // Leaders (7.3, 7.4a): each activated brigade's leader. The army and wing leaders' LOCs are
    // traced once each and read for every brigade leader (and the independents below).
    let mut locs = Locs {
        field: &field,
        maps: Vec::new(),
    };
    let mut brigade_leader_ok: BTreeMap<u16, bool> = BTreeMap::new();
    for &b in &act.brigades {
        let br = &sc.brigades[usize::from(b)];
        let Some(bl) = holder(st, br.leader) else {
            continue;
        };
        let name = sc.leaders[usize::from(bl)].name.clone();
        let Some(h) = st.leaders[usize::from(bl)].hex else {
            continue;
        };
        let mut how: Option<String> = None;
        // 22.2: a brigade arriving whole with its leader is in command on its arrival turn.
        let arrives_with_units = sc
            .reinforcements
            .iter()
            .any(|r| r.leaders.contains(&bl) && r.units.iter().any(|u| act.arriving.contains(u)));
        if arrives_with_units {
            how = Some("arrives with his brigade, 22.2".into());
        } else if !decapitated {
            if act.wing.is_some() && br.wing == act.wing {
                // 6.5c: a brigade joins a wing activation only with a LOC to its wing leader.
                how = Some("LOC to the activated wing leader (6.5c)".into());
            } else if let Some(top) = top_leader(sc, st, side, br.detachment)
                && let Some(c) = locs.cost(sc, st, top, Style::ArmyWing, h)
            {
                how = Some(format!(
                    "LOC {} from {}",
                    halves(c),
                    sc.leaders[usize::from(top)].name
                ));
            } else if let Some(w) = br.wing
                && wing_loc_with(sc, st, w, |a, h| locs.cost(sc, st, a, Style::ArmyWing, h))
                    .is_some()
                && let Some(wl) = holder(st, sc.wings[usize::from(w)].leader)
                && let Some(c) = locs.cost(sc, st, wl, Style::ArmyWing, h)
            {
                how = Some(format!(
                    "LOC {} from {}",
                    halves(c),
                    sc.leaders[usize::from(wl)].name
                ));
            }
        }
        let ok = match how {
            Some(how) => {
                in_cmd.push(format!("{name} ({how})"));
                true
            }
            None => {
                let rule = if decapitated { "7.4a, 21.6a" } else { "7.4a" };
                let ok = leader_initiative(sc, st, bl, rule, ev);
                if !ok {
                    out.push(format!("{name} (no LOC, leader initiative failed)"));
                }
                ok
            }
        };
        st.leaders[usize::from(bl)].ooc = !ok;
        brigade_leader_ok.insert(bl, ok);
    }
    // Units of the activated brigades (7.2, 7.5).
    for &b in &act.brigades {
        let br = &sc.brigades[usize::from(b)];
        let bl = holder(st, br.leader);
        // The map is asked only about these units' hexes.
        let asked = |u: &UnitIx| {
            let s = &st.units[usize::from(*u)];
            act.units.contains(u) && !s.eliminated && !s.routed && !s.hexes.is_empty()
        };
        let targets: Vec<HexId> = br
            .units
            .iter()
            .filter(|u| asked(u))
            .flat_map(|&u| st.units[usize::from(u)].hexes)
            .collect();
        let map = bl.map(|l| {
            loc_map_for(
                sc,
                st,
                &field,
                l,
                Style::Brigade,
                sc.leaders[usize::from(l)].range,
                &targets,
            )
        });
        for &u in &br.units {
            let s = &st.units[usize::from(u)];
            // Only the units this activation activated (6.3c); arriving units are in command
            // (22.2–22.3).
            if !act.units.contains(&u) || s.eliminated || s.routed || s.hexes.is_empty() {
                continue;
            }
            let by_loc = map
                .as_ref()
                .is_some_and(|m| s.hexes.iter().any(|h| m.contains_key(h)));
            let auto = !by_loc && automatically_in_command_in(sc, st, &field.groups, u);
            let ooc = !by_loc && !auto;
            st.units[usize::from(u)].ooc = ooc;
            if ooc {
                out.push(format!(
                    "{} (no LOC from its brigade leader, 7.6a)",
                    sc.units[usize::from(u)].name
                ));
            } else if auto {
                in_cmd.push(format!(
                    "{} (stacked with its wing or army leader, 7.5a)",
                    sc.units[usize::from(u)].name
                ));
            }
        }
    }
    // Independent units (7.0, 7.4c): the leaders who may give them command, found only when an
    // independent unit on the map asks (before any of their rolls: the board is as it was here);
    // the army and wing leaders' LOCs are the maps traced above for the brigade leaders.
    let mut giving: Option<Vec<(LeaderIx, Style)>> = None;
    let mut rolled: Vec<(Vec<HexId>, bool)> = Vec::new();
    let mut indep = act.independents.clone();
    indep.sort_by_key(|&u| st.units[usize::from(u)].order);
    for u in indep {
        let s = &st.units[usize::from(u)];
        if s.hexes.is_empty() || s.eliminated {
            continue;
        }
        let hexes = s.hexes;
        let giving =
            giving.get_or_insert_with(|| givers(sc, st, &act, &brigade_leader_ok, &mut locs));
        let by_loc = giving.iter().any(|&(l, style)| {
            hexes
                .iter()
                .any(|&h| locs.cost(sc, st, l, style, h).is_some())
        });
        let ok = if by_loc {
            true
        } else if let Some((_, r)) = rolled.iter().find(|(h, _)| *h == hexes) {
            // 7.4c: a stack of independent units rolls once, with its top unit's ER.
            *r
        } else {
            let er = sc.units[usize::from(u)].er;
            let roll = percentile(st);
            let passed = roll.value() >= er;
            ev.push(Event::UnitInitiative {
                unit: sc.units[usize::from(u)].name.clone(),
                roll,
                er,
                passed,
            });
            rolled.push((hexes.to_vec(), passed));
            passed
        };
        st.units[usize::from(u)].ooc = !ok;
        if !ok {
            out.push(format!(
                "{} (independent, no LOC, unit initiative failed)",
                sc.units[usize::from(u)].name
            ));
        }
    }
    ev.push(Event::Command {
        in_command: in_cmd,
        out,
    });
}

/// 7.5a–b: a unit of an activated brigade without LOC is in command when stacked with the army
/// leader or its own wing leader; through regimental integrity only if the leader's hex holds units
/// of that one regiment.
pub fn automatically_in_command(sc: &Scenario, st: &State, u: UnitIx) -> bool {
    let unit = &sc.units[usize::from(u)];
    if unit.regiment.is_none() {
        return automatically_in_command_in(sc, st, &Groups::default(), u);
    }
    automatically_in_command_in(sc, st, &integrity_groups(sc, st), u)
}

/// [`automatically_in_command`] with the state's integrity groups.
fn automatically_in_command_in(sc: &Scenario, st: &State, groups: &Groups, u: UnitIx) -> bool {
    let unit = &sc.units[usize::from(u)];
    let side = unit.side;
    let mut leaders: Vec<LeaderIx> = Vec::new();
    if let Some(a) = army_leader(sc, st, side) {
        leaders.push(a);
    }
    if let Some(w) = unit
        .brigade
        .and_then(|b| sc.brigades[usize::from(b)].wing)
        .and_then(|w| holder(st, sc.wings[usize::from(w)].leader))
    {
        leaders.push(w);
    }
    let hexes: Vec<HexId> = leaders
        .iter()
        .filter_map(|&l| st.leaders[usize::from(l)].hex)
        .collect();
    let s = &st.units[usize::from(u)];
    if s.hexes.iter().any(|h| hexes.contains(h)) {
        return true;
    }
    let Some(g) = groups.get(&u) else {
        return false;
    };
    hexes.iter().any(|h| {
        let here: Vec<UnitIx> = st
            .units
            .iter()
            .enumerate()
            .filter(|(x, s)| !s.eliminated && s.hexes.contains(h) && sc.units[*x].brigade.is_some())
            .map(|(x, _)| x as UnitIx)
            .collect();
        !here.is_empty()
            && here
                .iter()
                .all(|x| sc.units[usize::from(*x)].regiment == unit.regiment)
            && here.iter().any(|x| groups.get(x) == Some(g))
    })
}
