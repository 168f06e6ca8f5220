//! Rout retreat of single-hex units (20.2) and its losses (19.7d), started by a failed rally
//! (19.5c) or a failed morale check (F).
mod common;
use bar::state::Phase;
use common::*;
use engine::Ruleset;

/// Every Blue unit but `keep` off the map, so that nothing stands in a retreat's way.
fn only(bar: &bar::Bar, st: &mut bar::State, keep: &[&str]) {
    for (i, u) in bar.sc.units.iter().enumerate() {
        if u.side == 0 && !keep.contains(&u.id.as_str()) {
            st.units[i].hexes.clear();
        }
    }
}

/// The rally phase: Blue first, `dice` for its checks; every choice the first legal one.
fn rally(bar: &bar::Bar, st: &mut bar::State, dice: &[u8]) -> Vec<String> {
    let mut d = vec![5, 3];
    d.extend(dice);
    let mut log = run(bar, st, Phase::RallyStart, &d);
    while matches!(
        st.phase,
        Phase::RallyFacing { .. } | Phase::RoutStep { .. } | Phase::AllocateLoss { .. }
    ) {
        let first = legal(bar, st)[0].clone();
        log.extend(act(bar, st, &[&first], &[]));
    }
    log
}

/// The hexes of the rout retreat line of `who`.
fn path(log: &[String], who: &str) -> Vec<String> {
    let head = format!("Rout retreat (20.2): {who} to ");
    let line = log
        .iter()
        .find(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("no {head:?} in {log:#?}"));
    let rest = &line[head.len()..];
    let rest = rest.split(',').next().unwrap_or(rest);
    let rest = rest.split(" (").next().unwrap_or(rest);
    rest.split(" → ").map(|s| s.trim().to_string()).collect()
}

#[test]
fn r20_2a_routed_infantry_retreats_4_hexes_and_cavalry_6_never_twice_into_a_hex() {
    let bar = mini();
    let mut st = fresh(&bar);
    only(&bar, &mut st, &["for1"]);
    put(&bar, &mut st, "for1", &["0708"]);
    st.units[usize::from(unit(&bar, "for1"))].routed = true;
    let log = rally(&bar, &mut st, &[4, 6]);
    let p = path(&log, "FOR 1");
    assert_eq!(p.len(), 4, "{log:#?}");
    let mut seen = p.clone();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 4);
    assert_eq!(st.units[usize::from(unit(&bar, "for1"))].lost, 0);
    // Cavalry: X 2 (ER 28 + 15 = 43), 40 fails.
    let mut st = fresh(&bar);
    only(&bar, &mut st, &["x2"]);
    put(&bar, &mut st, "x2", &["0808"]);
    st.units[usize::from(unit(&bar, "x2"))].routed = true;
    let log = rally(&bar, &mut st, &[4, 0]);
    assert_eq!(path(&log, "X 2").len(), 6, "{log:#?}");
}

#[test]
fn r20_2g_away_from_the_enemy_then_toward_the_rear_through_friends_if_need_be() {
    let bar = mini();
    let mut st = fresh(&bar);
    let f = unit(&bar, "for1");
    put(&bar, &mut st, "for1", &["0606"]);
    // The enemy two hexes south: only the two northern neighbours take it away; Blue's rear is
    // north-east.
    let from = vec![hex("0806")];
    let ne = hex("0606").neighbour(hexmap::Dir::NE).unwrap();
    let c = bar::retreat::candidates(&bar.sc, &st, &[f], &[], &from);
    assert_eq!(c, [ne]);
    // A friendly unit there is entered, not avoided.
    put(&bar, &mut st, "ams2", &[&ne.to_string()]);
    let c = bar::retreat::candidates(&bar.sc, &st, &[f], &[], &from);
    assert_eq!(c, [ne]);
    // An enemy unit there (even routed) is not; a hex already entered is not.
    let mut e = st.clone();
    put(&bar, &mut e, "z3", &[&ne.to_string()]);
    e.units[usize::from(unit(&bar, "z3"))].routed = true;
    let c = bar::retreat::candidates(&bar.sc, &e, &[f], &[], &from);
    assert!(!c.contains(&ne) && !c.is_empty(), "{c:?}");
    let c = bar::retreat::candidates(&bar.sc, &st, &[f], &[ne], &from);
    assert!(!c.contains(&ne) && !c.is_empty(), "{c:?}");
}

#[test]
fn r20_2d_19_7d_a_blocked_unit_loses_1_sp_for_each_hex_not_retreated() {
    // FOR 1 in the corner hex 0101 (on-map neighbours 0102 and 0201), both held by the enemy.
    let bar = mini();
    let mut st = fresh(&bar);
    only(&bar, &mut st, &["for1"]);
    put(&bar, &mut st, "for1", &["0101"]);
    put(&bar, &mut st, "z3", &["0102"]);
    put(&bar, &mut st, "z1", &["0201"]);
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].routed = true;
    let log = rally(&bar, &mut st, &[4, 6]);
    assert_logged(&log, "Rout retreat (20.2): FOR 1 cannot move, −4 SP");
    assert_eq!(st.units[f].lost, 4);
    assert_eq!(st.units[f].hexes, [hex("0101")]);
}

#[test]
fn r20_2b_19_7d_each_ezoc_hex_entered_costs_1_sp() {
    // FOR 1 in 0101 with a pond in 0201: its only way is 0102, in the ZOC of Z 3 (0202, facing N).
    let bar = mini_with("map.toml", |t| {
        t.replace("ids = [\"0303\"]", "ids = [\"0201\"]")
    })
    .unwrap();
    let mut st = fresh(&bar);
    only(&bar, &mut st, &["for1"]);
    put(&bar, &mut st, "for1", &["0101"]);
    put(&bar, &mut st, "z3", &["0202"]);
    assert!(bar::command::ezoc(&bar.sc, &st, 0, hex("0102")));
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].routed = true;
    let before = st.clone();
    let log = rally(&bar, &mut st, &[4, 6]);
    let p = path(&log, "FOR 1");
    assert_eq!(p[0], "0102");
    // Count the EZOC hexes of the path, and the hexes short of 4.
    let mut n = 0;
    for h in &p {
        if bar::command::ezoc(&bar.sc, &before, 0, hex(h)) {
            n += 1;
        }
    }
    n += 4 - p.len() as u8;
    assert!(n >= 1);
    assert_eq!(st.units[f].lost, n, "{log:#?}");
}

#[test]
fn r20_2b_friends_passed_through_test_morale_f_afterwards_routed_ones_rout_again() {
    // FOR 1 in 0101, the pond in 0201: it must pass AMS 2 in 0102.
    let bar = mini_with("map.toml", |t| {
        t.replace("ids = [\"0303\"]", "ids = [\"0201\"]")
    })
    .unwrap();
    let base = |bar: &bar::Bar| {
        let mut st = fresh(bar);
        only(bar, &mut st, &["for1", "ams2"]);
        put(bar, &mut st, "for1", &["0101"]);
        put(bar, &mut st, "ams2", &["0102"]);
        st.units[usize::from(unit(bar, "for1"))].routed = true;
        st
    };
    let a = usize::from(unit(&bar, "ams2"));
    // AMS 2 (ER 30) fails with 10: shaken and disordered (19.1c exception 2).
    let mut st = base(&bar);
    let log = rally(&bar, &mut st, &[4, 6, 1, 0]);
    let p = path(&log, "FOR 1");
    assert_eq!(p[0], "0102");
    assert_ne!(
        p.last().map(String::as_str),
        Some("0102"),
        "it does not end stacked (20.2c)"
    );
    assert_logged(
        &log,
        "Friendly unit retreats through (20.2b, morale check F): AMS 2 ER 30; d100 tens 1, units 0 = 10 — fails: shaken and disordered",
    );
    assert!(st.units[a].shaken && st.units[a].disordered && !st.units[a].routed);
    // It holds with 99.
    let mut st = base(&bar);
    rally(&bar, &mut st, &[4, 6, 9, 9]);
    assert!(!st.units[a].shaken && !st.units[a].disordered);
    // Already routed, a unit passed through routs again instead of testing (19.7f, 20.2b).
    let mut st = base(&bar);
    st.units[a].routed = true;
    let mut ev = Vec::new();
    bar::retreat::morale_f(&bar.sc, &mut st, vec![unit(&bar, "ams2")], &mut ev);
    assert!(
        ev.is_empty(),
        "no check: {:?}",
        ev.iter().map(|e| e.to_string()).collect::<Vec<_>>()
    );
    assert!(
        matches!(&st.jobs[..], [bar::state::Job::Rout { units, .. }] if units == &[unit(&bar, "ams2")])
    );
}

#[test]
fn r20_2e_artillery_never_rout_retreats_it_is_eliminated() {
    let bar = mini();
    let mut st = fresh(&bar);
    let z2 = unit(&bar, "z2");
    let mut ev = Vec::new();
    let next = bar::retreat::begin(&bar.sc, &mut st, vec![z2], vec![hex("0606")], &mut ev);
    assert!(next.is_none());
    assert!(st.units[usize::from(z2)].eliminated);
    assert!(
        ev[0]
            .to_string()
            .contains("artillery never rout-retreats (20.2e)")
    );
}

/// 19.7e: "if a multi-hex formation routs, the unit occupies any of the hexes occupied before
/// the rout": its owner chooses, here the second hex of a 2-hex line, and it retreats from there.
#[test]
fn r19_7e_a_routing_2_hex_line_keeps_the_hex_its_owner_chooses() {
    let bar = bar::Bar::from_dir(&data().join("move"), &data()).unwrap(); // the fixture is valid
    let mut st = fresh(&bar);
    let i1 = unit(&bar, "i1");
    let fp = hexmap::Footprint::line(&hexmap::Printed, hex("0707"), hexmap::Vertex::N, 2)
        .expect("a two-hex line");
    let hs = fp.hexes().to_vec();
    st.units[usize::from(i1)].hexes = hs.clone().into();
    st.units[usize::from(i1)].formation = bar::geom::Formation::Line;
    st.units[usize::from(i1)].facing = bar::geom::Facing::Point(hexmap::Vertex::N);
    st.units[usize::from(i1)].routed = true;
    let enemy = hs[0]
        .neighbour(hexmap::Vertex::N.front()[0])
        .expect("on the map");
    st.jobs.push(bar::state::Job::Rout {
        units: vec![i1],
        from: vec![enemy],
    });
    st.stack.push(Phase::Over);
    run(&bar, &mut st, Phase::Idle, &[]);
    assert!(matches!(st.phase, Phase::RoutHex { .. }), "{:?}", st.phase);
    assert_eq!(bar.decider(&st), Some(engine::Seat(0)));
    let labels: Vec<String> = hs.iter().map(|h| bar.sc.board.label(*h)).collect();
    let l = legal(&bar, &st);
    for h in &labels {
        assert!(l.iter().any(|x| x.ends_with(h.as_str())), "{l:?}");
    }
    let pick = l
        .iter()
        .find(|x| x.ends_with(labels[1].as_str()))
        .expect("the second hex")
        .clone();
    let log = act(&bar, &mut st, &[&pick], &[]);
    assert_logged(&log, &format!("routs from {} (19.7e)", labels[1]));
    assert_logged(&log, "Rout retreat (20.2): IR 1/I");
    assert!(
        bar.check_invariants(&st).is_empty(),
        "{:?}",
        bar.check_invariants(&st)
    );
}

/// 20.2, 10.1d: a stack routed together retreats as one, in one facing and formation, even when
/// one of its units had turned alone (a unit moving out of its stack, fired on with it).
#[test]
fn r20_2_a_routed_stack_retreats_in_one_facing_and_formation() {
    let bar = bar::Bar::from_dir(&data().join("move"), &data()).unwrap(); // the fixture is valid
    let mut st = fresh(&bar);
    let (i1, i2) = (unit(&bar, "i1"), unit(&bar, "i2"));
    for (u, v) in [(i1, hexmap::Vertex::N), (i2, hexmap::Vertex::S)] {
        let s = &mut st.units[usize::from(u)];
        s.hexes = (vec![hex("0707")]).into();
        s.formation = bar::geom::Formation::Line;
        s.facing = bar::geom::Facing::Point(v);
        s.routed = true;
    }
    st.units[usize::from(i1)].order = 0;
    st.units[usize::from(i2)].order = 1;
    let enemy = hex("0707")
        .neighbour(hexmap::Vertex::N.front()[0])
        .expect("on the map");
    st.jobs.push(bar::state::Job::Rout {
        units: vec![i1, i2],
        from: vec![enemy],
    });
    st.stack.push(Phase::Over);
    let mut log = run(&bar, &mut st, Phase::Idle, &[]);
    while matches!(
        st.phase,
        Phase::RoutStep { .. } | Phase::AllocateLoss { .. }
    ) {
        let first = legal(&bar, &st)[0].clone();
        log.extend(act(&bar, &mut st, &[&first], &[]));
    }
    let (a, b) = (&st.units[usize::from(i1)], &st.units[usize::from(i2)]);
    assert_eq!(a.hexes, b.hexes, "{log:#?}");
    assert_eq!((a.facing, a.formation), (b.facing, b.formation), "{log:#?}");
    assert!(
        bar.check_invariants(&st).is_empty(),
        "{:?}",
        bar.check_invariants(&st)
    );
}
