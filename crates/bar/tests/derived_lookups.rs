//! The derived look-ups the engine keeps for speed (docs/bar.md, "Speed work of 2026-12-04") give
//! what the rules' plain definitions give, in positions of seeded random `bar-drill` and
//! `prague-schwerin` games: the EZOC set (9.1) against the per-hex test, the LOC map stopped at its
//! targets (7.1–7.3) against the whole map, the set of occupied hexes (12.6a, 10.1a) against a look
//! at every unit, the reactive firers found in one search (12.8a) against both types' opportunity
//! groups, the board's terrain rows and levels against the scenario's hex records and the TEC by
//! name, and the memos of the regimental integrity groups (6.2), of the EZOC set (9.1) and of the
//! LOC field (7.1, `memo.rs`) against their answers worked out afresh, also for a position that
//! differs only in what their keys leave out.
use bar::command::{
    LocField, Style, ezoc, ezoc_set, integrity_groups, loc_map_for, loc_map_in, occupied_set,
};
use bar::state::LeaderStatus;
use engine::{Dice, Ruleset};

/// Every `every`-th position of a seeded random game, up to `limit` positions.
fn positions(id: &str, seed: u64, every: usize, limit: usize) -> (bar::Bar, Vec<bar::State>) {
    let bar = bar::Bar::load(id, &[], None).expect("the shipped scenario loads");
    let mut ev = Vec::new();
    let mut st = bar.start(seed, &mut ev);
    let mut pick = Dice::new(seed ^ 0x5eed);
    let mut out = Vec::new();
    let mut n = 0usize;
    while bar.decider(&st).is_some() && out.len() < limit {
        if n.is_multiple_of(every) {
            out.push(st.clone());
        }
        let legal = bar.legal_actions(&st);
        let i = pick.below(legal.len());
        ev.clear();
        bar.apply_legal(&mut st, &legal[i], &mut ev);
        n += 1;
    }
    (bar, out)
}

fn check_position(bar: &bar::Bar, st: &bar::State) -> usize {
    let sc = &bar.sc;
    let mut checked = 0;
    // 6.2: the integrity groups the memo gives (the last position's question was of another board;
    // asked twice, the second answer is the memo's) are those a copy of the scenario, never asked
    // before, works out.
    let memo = integrity_groups(sc, st);
    let again = integrity_groups(sc, st);
    let worked = integrity_groups(&(**sc).clone(), st);
    assert_eq!(memo, worked);
    assert_eq!(again, worked);
    checked += 1;
    // 12.6a, 10.1a: the set of occupied hexes holds exactly the hexes where a unit that is not
    // eliminated stands (off-board hexes never).
    let occ = occupied_set(sc, st);
    for &h in &sc.board.dense.ids {
        let there = st
            .units
            .iter()
            .any(|u| !u.eliminated && u.hexes.contains(&h));
        assert_eq!(occ.contains(&h), there, "occupied at {h}");
        checked += 1;
    }
    // 12.8a: the opportunity firers found in one search are the units of the opportunity groups
    // of both types (infantry and cavalry; artillery within its minimum range zone).
    for (t, tu) in st.units.iter().enumerate() {
        if tu.eliminated || tu.hexes.is_empty() {
            continue;
        }
        let side = sc.units[t].side;
        let target = [t as bar::scenario::UnitIx];
        let mut one = bar::fire::opportunity_firers(sc, st, 1 - side, &target);
        let mut both: Vec<bar::scenario::UnitIx> = [false, true]
            .into_iter()
            .flat_map(|art| bar::fire::opportunity_groups(sc, st, 1 - side, &target, art))
            .flat_map(|g| g.units)
            .collect();
        one.sort_unstable();
        both.sort_unstable();
        assert_eq!(one, both, "opportunity firers at unit {t}");
        checked += 1;
    }
    for side in 0..2u8 {
        // 9.1: the set holds exactly the board's hexes the per-hex test finds in an EZOC.
        let set = ezoc_set(sc, st, side);
        for &h in &sc.board.dense.ids {
            assert_eq!(
                set.contains(&h),
                ezoc(sc, st, side, h),
                "EZOC of side {side} at {h}"
            );
            checked += 1;
        }
        // 7.1–7.3: a map stopped once its targets are settled agrees with the whole map there.
        let field = LocField::new(sc, st, side);
        for (l, leader) in sc.leaders.iter().enumerate() {
            let l = l as u16;
            if leader.side != side || st.leaders[usize::from(l)].status != LeaderStatus::Present {
                continue;
            }
            let whole = loc_map_in(sc, st, &field, l, Style::Brigade, leader.range);
            let targets = side_hexes(sc, st, side);
            let part = loc_map_for(sc, st, &field, l, Style::Brigade, leader.range, &targets);
            for t in &targets {
                assert_eq!(part.get(t), whole.get(t), "LOC of leader {l} to {t}");
                checked += 1;
            }
        }
    }
    checked + check_memo_keys(bar, st)
}

/// The hexes of `side`'s units on the board (a unit's hexes once each unit).
fn side_hexes(sc: &bar::scenario::Scenario, st: &bar::State, side: u8) -> Vec<hexmap::HexId> {
    st.units
        .iter()
        .enumerate()
        .filter(|(i, u)| sc.units[*i].side == side && !u.eliminated)
        .flat_map(|(_, u)| u.hexes)
        .collect()
}

/// The memos' keys (`memo.rs`) leave out what their answers do not read: in a copy of the
/// position whose units differ only in command, disorder, shaken, losses and stacking order,
/// the integrity groups (6.2) and the LOC field (7.1) come from the memo filled by the position
/// itself, and must be those a copy of the scenario, never asked before, works out for the copy.
fn check_memo_keys(bar: &bar::Bar, st: &bar::State) -> usize {
    let sc = &bar.sc;
    let fresh = (**sc).clone();
    let mut other = st.clone();
    for u in &mut other.units {
        u.ooc = !u.ooc;
        u.disordered = !u.disordered;
        u.shaken = !u.shaken;
        u.lost = u.lost.wrapping_add(1);
        u.order = u.order.wrapping_add(7);
    }
    let mut checked = 0;
    let _ = integrity_groups(sc, st);
    assert_eq!(
        integrity_groups(sc, &other),
        integrity_groups(&fresh, &other)
    );
    checked += 1;
    for side in 0..2u8 {
        // The EZOC set's memo, keyed on the enemies' ZOCs: asked of the position, then of the copy.
        let _ = ezoc_set(sc, st, side);
        let memo = ezoc_set(sc, &other, side);
        let worked = ezoc_set(&fresh, &other, side);
        for h in &sc.board.dense.ids {
            assert_eq!(
                memo.contains(h),
                worked.contains(h),
                "EZOC of side {side} at {h}"
            );
            checked += 1;
        }
        let _ = LocField::new(sc, st, side);
        let memo = LocField::new(sc, &other, side);
        let worked = LocField::new(&fresh, &other, side);
        assert_eq!(memo.groups, worked.groups);
        for (l, leader) in sc.leaders.iter().enumerate() {
            let l = l as u16;
            if leader.side != side || other.leaders[usize::from(l)].status != LeaderStatus::Present
            {
                continue;
            }
            // The targeted map's memo (`command::loc_map_for`, keyed on all its search reads):
            // asked of the position itself, then of the copy, whose field is the same; a key
            // missing the leader, style or targets would give another leader's or question's map.
            let targets = side_hexes(sc, &other, side);
            for style in [Style::Brigade, Style::ArmyWing] {
                let own = LocField::new(sc, st, side);
                let _ = loc_map_for(sc, st, &own, l, style, leader.range, &targets);
                let a = loc_map_for(sc, &other, &memo, l, style, leader.range, &targets);
                let b = loc_map_for(&fresh, &other, &worked, l, style, leader.range, &targets);
                for t in &targets {
                    assert_eq!(a.get(t), b.get(t), "targeted LOC of leader {l} to {t}");
                    checked += 1;
                }
            }
            for style in [Style::Brigade, Style::ArmyWing] {
                let a = loc_map_in(sc, &other, &memo, l, style, leader.range);
                let b = loc_map_in(&fresh, &other, &worked, l, style, leader.range);
                for &h in &sc.board.dense.ids {
                    assert_eq!(
                        a.get(&h),
                        b.get(&h),
                        "LOC field of side {side}: leader {l} to {h}"
                    );
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn r09_1_r07_r12_6_derived_ezoc_loc_maps_and_occupied_hexes_agree_with_their_definitions_in_random_drill_games()
 {
    let mut checked = 0;
    for seed in 1..=3 {
        let (bar, states) = positions("bar-drill", seed, 37, 30);
        assert!(states.len() >= 20, "seed {seed}: a game of some length");
        for st in &states {
            checked += check_position(&bar, st);
        }
    }
    assert!(checked > 10_000, "{checked} look-ups compared");
}

#[test]
fn r09_1_r07_r12_6_derived_ezoc_loc_maps_and_occupied_hexes_agree_with_their_definitions_in_a_random_schwerin_game()
 {
    let (bar, states) = positions("prague-schwerin", 7, 97, 12);
    assert!(states.len() >= 10);
    for st in &states {
        check_position(&bar, st);
    }
}

#[test]
fn r12_6_r10_1c_terrain_rows_and_levels_by_the_dense_index_are_the_scenarios() {
    for id in ["bar-drill", "prague-schwerin"] {
        let bar = bar::Bar::load(id, &[], None).expect("the shipped scenario loads");
        let sc = &bar.sc;
        for (h, info) in &sc.board.hexes {
            assert_eq!(
                sc.board.tec_row(*h),
                sc.charts.tec.terrain.get(&info.terrain),
                "{id}: terrain row of {h}"
            );
            assert_eq!(sc.board.level(*h), info.level, "{id}: level of {h}");
            assert!(sc.board.contains(*h));
        }
        // Off the board: no row of its own, `clear` for the stacking limits (10.1c), level 0.
        let off = hexmap::HexId::new(99, 99);
        assert!(!sc.board.contains(off));
        assert_eq!(sc.board.tec_row(off), None);
        assert_eq!(
            sc.board.tec_row_or_clear(off),
            sc.charts.tec.terrain.get("clear")
        );
        assert_eq!(sc.board.level(off), 0);
    }
}

/// 11.1, 8.4, 10.1a: a move or change applied right after its menu was listed (its details taken
/// from the menu kept by `legal`, `movement.rs` `Menu`) leaves the state and the log that the same
/// action leaves when worked out afresh (a copy of the scenario, whose menu was never listed); and
/// the menu listed next (kept by the end of the move) is the one worked out afresh.
#[test]
fn r11_1_r8_4_a_moves_details_from_the_kept_menu_are_those_worked_out_afresh() {
    let mut compared = 0;
    for seed in 1..=2 {
        let (bar, states) = positions("bar-drill", seed, 1, 700);
        let copy = || bar::Bar {
            sc: std::sync::Arc::new((*bar.sc).clone()),
        };
        // `fresh` applies the action afresh; `lister` lists the next menu afresh (`fresh` may
        // have kept it while applying).
        let (fresh, lister) = (copy(), copy());
        for st in states
            .iter()
            .filter(|s| matches!(s.phase, bar::state::Phase::Moving(_)))
        {
            let legal = bar.legal_actions(st);
            for a in &legal {
                // The kept menu is this position's: `legal` listed it just now.
                bar.legal_actions(st);
                let (mut kept, mut kept_log) = (st.clone(), Vec::new());
                bar.apply_legal(&mut kept, a, &mut kept_log);
                // The next menu, kept by the move's end (`after_action`) where the mover goes on.
                let next = bar.legal_actions(&kept);
                let (mut afresh, mut afresh_log) = (st.clone(), Vec::new());
                fresh.apply_legal(&mut afresh, a, &mut afresh_log);
                assert_eq!(kept, afresh, "seed {seed}: {a:?}");
                let text =
                    |l: &[bar::event::Event]| l.iter().map(|e| e.to_string()).collect::<Vec<_>>();
                assert_eq!(text(&kept_log), text(&afresh_log), "seed {seed}: {a:?}");
                assert_eq!(
                    next,
                    lister.legal_actions(&afresh),
                    "seed {seed}: after {a:?}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 500, "{compared} actions compared");
}

/// The first army's leader at the start of a `bar-drill` game: his side, his range, a neighbour
/// of his hex that his LOC reaches and nobody holds, and an enemy unit.
struct ArmyCase {
    bar: bar::Bar,
    st: bar::State,
    side: u8,
    leader: u16,
    range: u8,
    h: hexmap::HexId,
    enemy: usize,
}

fn army_case() -> ArmyCase {
    let bar = bar::Bar::load("bar-drill", &[], None).expect("the shipped scenario loads");
    let sc = &bar.sc;
    let mut ev = Vec::new();
    let st = bar.start(1, &mut ev);
    let side = 0u8;
    let leader = sc.armies[usize::from(side)].leader;
    let range = sc.leaders[usize::from(leader)].range;
    let here = st.leaders[usize::from(leader)]
        .hex
        .expect("the army leader is on the map");
    let occupied = occupied_set(sc, &st);
    let h = here
        .neighbours()
        .map(|(_, n)| n)
        .find(|n| army_loc(sc, &st, side, leader, range, n).is_some() && !occupied.contains(n))
        .expect("an open neighbour within the LOC");
    let enemy = (0..sc.units.len())
        .find(|&i| sc.units[i].side != side && !st.units[i].eliminated)
        .expect("an enemy unit");
    ArmyCase {
        bar,
        st,
        side,
        leader,
        range,
        h,
        enemy,
    }
}

/// An army leader's LOC cost to `x` in a position, asked of a scenario (the memo's, or a copy
/// never asked before).
fn army_loc(
    sc: &bar::scenario::Scenario,
    st: &bar::State,
    side: u8,
    l: u16,
    range: u8,
    x: &hexmap::HexId,
) -> Option<u16> {
    loc_map_in(
        sc,
        st,
        &LocField::new(sc, st, side),
        l,
        Style::ArmyWing,
        range,
    )
    .get(x)
}

impl ArmyCase {
    /// The army leader's LOC cost to `x` in `st`, asked of `sc` ([`army_loc`]).
    fn loc(&self, sc: &bar::scenario::Scenario, st: &bar::State, x: &hexmap::HexId) -> Option<u16> {
        army_loc(sc, st, self.side, self.leader, self.range, x)
    }

    /// The start with the enemy unit in the open neighbour `h` (an attack column).
    fn enemy_beside(&self) -> bar::State {
        let mut st = self.st.clone();
        st.units[self.enemy].hexes = bar::state::Hexes::from(&[self.h][..]);
        st.units[self.enemy].formation = bar::geom::Formation::AttackColumn;
        st
    }

    /// The map the memo gives in `st` is, at every hex, the one a copy of the scenario never
    /// asked before works out.
    #[track_caller]
    fn assert_as_fresh(&self, st: &bar::State) {
        let sc = &self.bar.sc;
        let fresh = (**sc).clone();
        for x in &sc.board.dense.ids {
            assert_eq!(
                self.loc(sc, st, x),
                self.loc(&fresh, st, x),
                "army LOC to {x}"
            );
        }
    }
}

/// 7.1, 7.3: an army or wing leader's LOC map is memoised on the hexes a LOC may not enter (among
/// what it reads): asked again after an enemy has come to stand beside the leader, it is worked
/// out again — the hex now holds an enemy and no LOC enters it — and equals the map a copy of the
/// scenario, never asked before, works out.
#[test]
fn r07_1_r07_3_an_army_leaders_loc_map_is_traced_again_when_an_enemy_blocks_a_hex_of_it() {
    let c = army_case();
    let moved = c.enemy_beside();
    assert_eq!(
        c.loc(&c.bar.sc, &moved, &c.h),
        None,
        "no LOC enters an enemy's hex (7.1)"
    );
    c.assert_as_fresh(&moved);
}

/// 7.1, 7.3: the army leader's LOC map kept for a position is given again for another only where
/// the blocks that differ lie beyond its reach (`command::same_army_wing_map`): after the enemy
/// beside the leader has left the board, the hex it held (and its ZOC) is open next to the map,
/// so the map is traced again — the LOC now enters the hex — and equals the map a copy of the
/// scenario, never asked before, works out.
#[test]
fn r07_1_r07_3_an_army_leaders_loc_map_is_traced_again_when_a_block_beside_it_opens() {
    let c = army_case();
    let sc = &c.bar.sc;
    // The enemy beside the leader: the map is kept without its hex.
    let blocked = c.enemy_beside();
    assert_eq!(c.loc(sc, &blocked, &c.h), None);
    // The enemy leaves the board: its hex opens next to the kept map.
    let mut open = blocked.clone();
    open.units[c.enemy].hexes = bar::state::Hexes::default();
    assert!(
        c.loc(sc, &open, &c.h).is_some(),
        "the LOC enters the hex the enemy left (7.1)"
    );
    c.assert_as_fresh(&open);
}
