//! Disorder recovery (18.6), stacks in checks (18.7a, 19.4a) and the rally phase (19.5), with the
//! worked example E65 of bar-notes section 3.
mod common;
use bar::geom::Formation;
use bar::state::Phase;
use common::*;

/// The rally phase from a set position: Blue rallies first (d10 5 against 3), then `dice`.
fn rally(bar: &bar::Bar, st: &mut bar::State, dice: &[u8]) -> Vec<String> {
    let mut d = vec![5, 3];
    d.extend(dice);
    run(bar, st, Phase::RallyStart, &d)
}

/// Take the first legal choice of every decision of the rally phase (facings, retreat hexes,
/// losses) until the next turn's initiative; the log.
fn finish(bar: &bar::Bar, st: &mut bar::State, log: &mut Vec<String>) {
    while matches!(
        st.phase,
        Phase::RallyFacing { .. } | Phase::RoutStep { .. } | Phase::AllocateLoss { .. }
    ) {
        let first = legal(bar, st)[0].clone();
        log.extend(act(bar, st, &[&first], &[]));
    }
}

#[test]
fn r19_5c_example_routed_er_32_loses_1_sp_below_32_fails_below_47() {
    // E65: FOR 1, printed ER 32, routed (+15): 00–31 fail and −1 SP, 32–46 fail, 47–99 rally.
    let bar = mini();
    for (dice, pass, loss) in [
        ([3, 1], false, 1),
        ([3, 2], false, 0),
        ([4, 6], false, 0),
        ([4, 7], true, 0),
    ] {
        let mut st = fresh(&bar);
        let f = usize::from(unit(&bar, "for1"));
        st.units[f].routed = true;
        let mut log = rally(&bar, &mut st, &dice);
        if !pass {
            finish(&bar, &mut st, &mut log);
        }
        let v = dice[0] * 10 + dice[1];
        let line = format!(
            "Rally (19.5b, morale check I): FOR 1 ER 32 + 15 (routed, 19.9d) = 47; d100 tens {}, units {} = {v:02} — {}",
            dice[0],
            dice[1],
            if pass { "passes" } else { "fails" }
        );
        assert_logged(&log, &line);
        assert_eq!(st.units[f].lost, loss, "{dice:?}");
        if pass {
            assert!(!st.units[f].routed && st.units[f].shaken && st.units[f].disordered);
            // 19.5e: the rallied unit takes any single-hex formation and facing (the next
            // test counts them).
            assert_eq!(
                st.phase,
                Phase::RallyFacing {
                    unit: unit(&bar, "for1")
                }
            );
            assert_eq!(legal(&bar, &st).len(), 19);
        } else {
            assert_logged(&log, "Rout retreat (20.2): FOR 1");
            assert!(st.units[f].routed);
            assert_ne!(st.units[f].hexes, [hex("0406")]);
        }
    }
}

#[test]
fn r19_5f_a_rally_roll_of_00_09_is_no_special_result() {
    // The test chart's morale special results 06–09 pass; a rally roll of 07 is just 07.
    let bar = mini();
    let mut st = fresh(&bar);
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].routed = true;
    let log = rally(&bar, &mut st, &[0, 7]);
    assert_logged(&log, "= 47; d100 tens 0, units 7 = 07 — fails");
    assert_not_logged(&log, "special result");
    assert_eq!(st.units[f].lost, 1);
    // A shaken unit likewise.
    let mut st = fresh(&bar);
    st.units[f].shaken = true;
    let log = rally(&bar, &mut st, &[0, 7]);
    assert_logged(
        &log,
        "FOR 1 ER 32 + 10 (shaken, 19.8b) = 42; d100 tens 0, units 7 = 07 — fails: stays shaken",
    );
    assert!(st.units[f].shaken);
}

#[test]
fn r19_5a_19_4a_a_shaken_stack_rallies_on_its_top_unit_and_keeps_its_disorder() {
    let bar = mini();
    let (y, f) = (
        usize::from(unit(&bar, "y1")),
        usize::from(unit(&bar, "for1")),
    );
    let set = |top: usize, under: usize| {
        let mut st = fresh(&bar);
        put(&bar, &mut st, "y1", &["0406"]);
        st.units[y].shaken = true;
        st.units[f].shaken = true;
        st.units[top].order = 0;
        st.units[under].order = 1000;
        st
    };
    // Y 1 (ER 35 + 10 = 45) on top: 43 fails for both.
    let mut st = set(y, f);
    let log = rally(&bar, &mut st, &[4, 3]);
    assert_logged(
        &log,
        "Rally (19.5a, morale check I): Y 1 (with FOR 1) ER 35 + 10 (shaken, 19.8b) = 45",
    );
    assert!(st.units[y].shaken && st.units[f].shaken);
    // FOR 1 (32 + 10 = 42) on top: 43 passes for both; Y 1's disorder stays.
    let mut st = set(f, y);
    st.units[y].disordered = true;
    let log = rally(&bar, &mut st, &[4, 3]);
    assert_logged(
        &log,
        "FOR 1 (with Y 1) ER 32 + 10 (shaken, 19.8b) = 42; d100 tens 4, units 3 = 43 — passes",
    );
    assert!(!st.units[y].shaken && !st.units[f].shaken);
    assert!(st.units[y].disordered);
}

#[test]
fn r19_5b_d_routed_units_of_a_stack_test_one_by_one_and_the_failures_retreat_together() {
    let bar = mini();
    let mut st = fresh(&bar);
    for u in ["pvp1", "y1"] {
        put(&bar, &mut st, u, &["0406"]);
    }
    for u in ["for1", "pvp1", "y1", "i1"] {
        st.units[usize::from(unit(&bar, u))].routed = true;
    }
    // In unit order: FOR 1 rallies, PVP 1 fails (40 < 47), Y 1 fails (40 < 50), the Jäger rallies.
    let mut log = rally(&bar, &mut st, &[9, 9, 4, 0, 4, 0, 9, 9]);
    assert_logged(&log, "Rally (19.5b, morale check I): FOR 1 ER");
    assert_logged(&log, "Rally (19.5b, morale check I): PVP 1 ER");
    assert_logged(&log, "Rally (19.5b, morale check I): Y 1 ER");
    finish(&bar, &mut st, &mut log);
    assert_logged(&log, "Rout retreat (20.2): PVP 1, Y 1 to");
    let (p, y) = (
        usize::from(unit(&bar, "pvp1")),
        usize::from(unit(&bar, "y1")),
    );
    assert_eq!(st.units[p].hexes, st.units[y].hexes);
    assert_ne!(st.units[p].hexes, [hex("0406")]);
    let f = &st.units[usize::from(unit(&bar, "for1"))];
    assert!(f.shaken && f.disordered && !f.routed);
    // A skirmish-capable unit rallies shaken only, in skirmish order.
    let j = &st.units[usize::from(unit(&bar, "i1"))];
    assert!(j.shaken && !j.disordered && !j.routed);
    assert_eq!(j.formation, Formation::Skirmish);
}

/// Brigade 3 (Y 1 and its leader in 0302) activates with the dice given; the log.
fn recover(bar: &bar::Bar, st: &mut bar::State, dice: &[u8]) -> Vec<String> {
    run(bar, st, Phase::ChooseBrigade { side: 0 }, &[]);
    let mut d = dice.to_vec();
    d.extend([5, 1]);
    act(
        bar,
        st,
        &["activate:b3", "command-done", "movement-done"],
        &d,
    )
}

#[test]
fn r18_6b_an_activated_disordered_unit_with_a_leader_recovers_without_a_check() {
    let bar = mini();
    let mut st = fresh(&bar);
    let y = usize::from(unit(&bar, "y1"));
    st.units[y].disordered = true;
    let log = recover(&bar, &mut st, &[]);
    assert_logged(
        &log,
        "Disorder recovery (18.6b): Y 1 stacked with Blue brigade 3 leader — back in order",
    );
    assert!(!st.units[y].disordered);
    assert_logged(&log, "Blue d10 5 + CR 2"); // no die was used
    // Not activated: no recovery.
    let mut st = fresh(&bar);
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].disordered = true;
    put_leader(&bar, &mut st, "W", "0406");
    recover(&bar, &mut st, &[]);
    assert!(st.units[f].disordered);
}

#[test]
fn r18_6c_d_without_a_leader_a_disorder_check_g_with_no_special_result() {
    let bar = mini();
    let y = usize::from(unit(&bar, "y1"));
    for (dice, back) in [([4, 0], true), ([3, 9], false), ([0, 7], false)] {
        let mut st = fresh(&bar);
        put(&bar, &mut st, "y1", &["0301"]);
        st.units[y].disordered = true;
        let log = recover(&bar, &mut st, &dice);
        let v = dice[0] * 10 + dice[1];
        assert_logged(
            &log,
            &format!(
                "Disorder recovery (18.6c, disorder check G): Y 1 ER 35 + 5 (disordered, 18.5a) = 40; d100 tens {}, units {} = {v:02}",
                dice[0], dice[1]
            ),
        );
        assert_not_logged(&log, "special result");
        assert_eq!(st.units[y].disordered, !back, "{dice:?}");
    }
}

#[test]
fn r18_7a_a_stack_checks_with_its_top_non_artillery_unit() {
    // Red's artillery Z 2 (ER 50 here) on top of the infantry Z 1 (ER 30), both disordered, no
    // leader: the infantry's 30 + 5 = 35 is used, 40 passes for both.
    let bar = mini_with("oob.toml", |t| {
        t.replace("er = 30\nma = 3", "er = 50\nma = 3")
    })
    .unwrap();
    let (z1, z2) = (usize::from(unit(&bar, "z1")), usize::from(unit(&bar, "z2")));
    let set = |alone: bool| {
        let mut st = fresh(&bar);
        if !alone {
            put(&bar, &mut st, "z1", &["1007"]);
            st.units[z1].disordered = true;
        }
        st.units[z2].disordered = true;
        st.units[z2].order = 0;
        st.units[z1].order = 1000;
        put_leader(&bar, &mut st, "M1", "1008");
        st
    };
    let mut st = set(false);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 1 }, &[]);
    let log = act(
        &bar,
        &mut st,
        &["activate:c1", "command-done"],
        &[4, 0, 5, 1],
    );
    assert_logged(
        &log,
        "Disorder recovery (18.6c, disorder check G): Z 1 (with Z 2) ER 30",
    );
    assert!(!st.units[z1].disordered && !st.units[z2].disordered);
    // Artillery alone tests with its own ER: 55, 40 fails.
    let mut st = set(true);
    run(&bar, &mut st, Phase::ChooseBrigade { side: 1 }, &[]);
    let log = act(
        &bar,
        &mut st,
        &["activate:c1", "command-done"],
        &[4, 0, 5, 1],
    );
    assert_logged(&log, "Z 2 ER 50 + 5 (disordered, 18.5a) = 55");
    assert!(st.units[z2].disordered);
}

#[test]
fn r19_5b_e_a_skirmish_capable_unit_rallied_with_a_unit_that_cannot_skirmish_keeps_their_formation()
{
    // simulate --check (bar-drill, seed 1000370): a routed stack of grenadiers and Grenzer
    // rallied, the Grenzer "assumed" in skirmish order (19.5b), the grenadiers in line: a stack
    // of two formations (10.1d–e). 19.5e lets every rallied unit take any single-hex formation
    // of its type: the stack stays one formation, the Grenzer's (line, shaken and disordered).
    use engine::Ruleset as _;
    let bar = mini();
    let mut st = fresh(&bar);
    put(&bar, &mut st, "i1", &["0406"]); // the Jäger joins FOR 1's line in 0406
    for u in ["for1", "i1"] {
        st.units[usize::from(unit(&bar, u))].routed = true;
    }
    // Both rally (FOR 1 99 against 47, the Jäger 99 against 55).
    let mut log = rally(&bar, &mut st, &[9, 9, 9, 9]);
    finish(&bar, &mut st, &mut log);
    let (f, j) = (
        &st.units[usize::from(unit(&bar, "for1"))],
        &st.units[usize::from(unit(&bar, "i1"))],
    );
    assert_eq!(
        j.formation, f.formation,
        "one formation in the stack (10.1e)"
    );
    assert_eq!(j.facing, f.facing, "one facing (10.1d)");
    assert!(
        j.shaken && j.disordered && !j.routed,
        "not in skirmish order: disordered too"
    );
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
    // Alone, or with its stack-mate routing on, it rallies in skirmish order (19.5b).
    let mut st = fresh(&bar);
    put(&bar, &mut st, "i1", &["0406"]);
    for u in ["for1", "i1"] {
        st.units[usize::from(unit(&bar, u))].routed = true;
    }
    let mut log = rally(&bar, &mut st, &[4, 6, 9, 9]); // FOR 1 fails (46 < 47)
    finish(&bar, &mut st, &mut log);
    let j = &st.units[usize::from(unit(&bar, "i1"))];
    assert_eq!(j.formation, Formation::Skirmish);
    assert!(j.shaken && !j.disordered);
}

#[test]
fn r19_5e_8_4k_a_road_column_rallies_in_a_single_hex_formation() {
    // simulate --check (bar-drill, seed 1): a 5-SP road column routed and rallied in one hex
    // still a road column, 5 SP where a road column holds 4 a hex (8.1f, 10.1c). 8.4k: "a
    // routed unit that rallies adopts any single-hex formation ... no multi-hex ... road column".
    use engine::Ruleset as _;
    let bar = mini();
    let mut st = fresh(&bar);
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].routed = true;
    st.units[f].formation = Formation::RoadColumn;
    st.units[f].facing = bar::geom::Facing::Side(hexmap::Dir::E);
    rally(&bar, &mut st, &[9, 9]);
    // While its owner chooses it stands as a one-hex march column, a legal stack.
    assert_eq!(st.units[f].formation, Formation::MarchColumn);
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
    let offered = legal(&bar, &st);
    assert!(
        !offered.iter().any(|a| a.starts_with("adopt:road")),
        "6 SP: no one-hex road column: {offered:?}"
    );
    act(&bar, &mut st, &["face:E"], &[]);
    let f = &st.units[f];
    assert!(!f.routed && f.shaken);
    assert_eq!(f.formation, Formation::MarchColumn);
    assert_eq!(f.hexes.len(), 1);
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
}

/// The kinds of formation offered to the rallied unit now deciding.
fn offered_formations(bar: &bar::Bar, st: &bar::State) -> Vec<String> {
    let Phase::RallyFacing { unit: u } = st.phase else {
        panic!("not a rallied unit's choice: {:?}", st.phase);
    };
    let now = bar::geom::chart_key(st.units[usize::from(u)].formation).to_string();
    let mut out: Vec<String> = legal(bar, st)
        .iter()
        .map(|a| match a.split(':').collect::<Vec<_>>()[..] {
            ["face", _] => now.clone(),
            ["adopt", f, _] => f.to_string(),
            _ => panic!("not a rally choice: {a}"),
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn r19_5e_8_4k_a_rallied_unit_adopts_any_single_hex_formation_of_its_type_and_any_facing() {
    // 8.4k: "adopts any single-hex formation that is valid for its unit type, i.e. no multi-hex
    // line, march column, or road column. A rallied unit may adopt any facing valid for its new
    // formation." FOR 1, 6 infantry SP, routed in line in clear 0406.
    use engine::Ruleset as _;
    let bar = mini();
    let mut st = fresh(&bar);
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].routed = true;
    rally(&bar, &mut st, &[9, 9]);
    // Line, attack column, march column (6 facings each) and square (one: it fires all round);
    // no hook (8.4j: formed from a line), no general order (8.4i: only where terrain requires
    // it), no road column (6 SP is two hexes of road column, 8.1f), no skirmish (not capable).
    assert_eq!(
        offered_formations(&bar, &st),
        ["attack_column", "line", "march_column", "square"]
    );
    assert_eq!(legal(&bar, &st).len(), 6 + 6 + 6 + 1);
    let log = act(&bar, &mut st, &["adopt:march_column:SW"], &[]);
    assert_logged(&log, "FOR 1 rallied: march column, faces SW (19.5e, 8.4k)");
    let s = &st.units[f];
    assert_eq!(s.formation, Formation::MarchColumn);
    assert_eq!(s.facing, bar::geom::Facing::Side(hexmap::Dir::SW));
    assert_eq!(s.hexes, [hex("0406")]);
    assert!(s.shaken && s.disordered && !s.routed);
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
    // A 4-SP unit may rally into a one-hex road column; a square.
    let mut st = fresh(&bar);
    st.units[f].routed = true;
    st.units[f].lost = 2;
    rally(&bar, &mut st, &[9, 9]);
    assert!(offered_formations(&bar, &st).contains(&"road_column".to_string()));
    act(&bar, &mut st, &["adopt:square:S"], &[]); // its facing kept
    assert_eq!(st.units[f].formation, Formation::Square);
}

#[test]
fn r19_5e_8_4i_infantry_rallied_where_terrain_requires_general_order_adopts_it() {
    // 8.0: "Certain terrain types will force certain unit types into general order"; 8.4i: a
    // general order "must change to any single-hex formation and any facing that is valid for
    // the terrain". A routed battalion in the village 0505 (T1: general order) rallies into
    // general order, facing any hexside.
    use engine::Ruleset as _;
    let bar = mini();
    let mut st = fresh(&bar);
    put(&bar, &mut st, "for1", &["0505"]);
    let f = usize::from(unit(&bar, "for1"));
    st.units[f].routed = true;
    rally(&bar, &mut st, &[9, 9]);
    assert_eq!(offered_formations(&bar, &st), ["general_order"]);
    let first = legal(&bar, &st)[0].clone();
    act(&bar, &mut st, &[&first], &[]);
    assert_eq!(st.units[f].formation, Formation::GeneralOrder);
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
}

#[test]
fn r19_5e_10_1d_units_from_a_road_column_and_a_march_column_rally_into_one_stack() {
    // simulate --check (prague-schwerin, seed 1000695): two routed squadrons in one hex, one
    // in road column, one in march column, rallied as two formations (10.1d–e). Each rallied
    // unit takes any single-hex formation (8.4k), and a stack must be one formation and facing
    // (10.1d): the first choice is the stack's, made once for both.
    use engine::Ruleset as _;
    let bar = mini();
    let mut st = fresh(&bar);
    let (x1, x2) = (usize::from(unit(&bar, "x1")), usize::from(unit(&bar, "x2")));
    put(&bar, &mut st, "x1", &["0406"]);
    put(&bar, &mut st, "x2", &["0406"]);
    put(&bar, &mut st, "for1", &["0208"]);
    st.units[x1].formation = Formation::RoadColumn;
    st.units[x1].facing = bar::geom::Facing::Side(hexmap::Dir::E);
    st.units[x2].formation = Formation::MarchColumn;
    st.units[x2].facing = bar::geom::Facing::Side(hexmap::Dir::W);
    for u in [x1, x2] {
        st.units[u].routed = true;
    }
    let mut log = rally(&bar, &mut st, &[9, 9, 9, 9]);
    // Both rallied: one legal stack while the owner chooses.
    assert!(!st.units[x1].routed && !st.units[x2].routed);
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
    assert!(matches!(st.phase, Phase::RallyFacing { .. }));
    // No road column for a stack (10.11); cavalry: no square.
    assert_eq!(
        offered_formations(&bar, &st),
        ["attack_column", "line", "march_column"]
    );
    log.extend(act(&bar, &mut st, &["adopt:line:N"], &[]));
    assert_logged(&log, "X 1 rallied: line, faces N (19.5e, 8.4k)");
    assert_logged(&log, "X 2 rallied: line, faces N (19.5e, 8.4k)");
    for u in [x1, x2] {
        assert_eq!(st.units[u].formation, Formation::Line);
        assert_eq!(
            st.units[u].facing,
            bar::geom::Facing::Point(hexmap::Vertex::N)
        );
    }
    assert!(
        !matches!(st.phase, Phase::RallyFacing { .. }),
        "asked once for the stack"
    );
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
}
