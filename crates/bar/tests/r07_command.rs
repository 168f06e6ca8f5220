//! Command control (7.0): lines of command (7.1–7.3), leader and unit initiative (7.4),
//! automatic command (7.5) and command status (7.6), with the worked examples E10–E13 of
//! bar-notes section 3.
mod common;
use bar::command::{Style, loc_map};
use bar::state::Phase;
use common::*;
use hexmap::Dir;

/// Activate a brigade of Blue from a chosen position and run its command control; the log.
fn command(
    bar: &bar::Bar,
    st: &mut bar::State,
    b: &str,
    decl: &[&str],
    dice: &[u8],
) -> Vec<String> {
    run(bar, st, Phase::ChooseBrigade { side: 0 }, &[]);
    let mut ids = vec![format!("activate:{b}")];
    ids.extend(decl.iter().map(|s| s.to_string()));
    ids.push("command-done".into());
    let ids: Vec<&str> = ids.iter().map(|s| s.as_str()).collect();
    let mut d = dice.to_vec();
    d.extend([5, 1]); // the next initiative roll
    act(bar, st, &ids, &d)
}

fn command_line(log: &[String]) -> String {
    log.iter()
        .find(|l| l.starts_with("Command (7.6a)"))
        .cloned()
        .unwrap_or_default()
}

fn activated(bar: &bar::Bar, st: &mut bar::State, ids: &[&str]) {
    for u in ids {
        st.units[usize::from(unit(bar, u))].activated = true;
    }
}

#[test]
fn r7_2d_example_range_4_and_a_routed_unit_costs_2_so_for_2_is_out_of_command() {
    // E10: Sc (range 4) with AMS 1; AMS 2 adjacent (integrity: Sc is in both hexes, 7.2d); an
    // empty hex; FOR 1, PVP 1 and FOR 2 in a row.
    let bar = mini();
    let mut st = fresh(&bar);
    put(&bar, &mut st, "for1", &["0407"]);
    put(&bar, &mut st, "pvp1", &["0408"]);
    put(&bar, &mut st, "for2", &["0409"]);
    put(&bar, &mut st, "i1", &["0216"]);
    let mut costs = st.clone();
    activated(&bar, &mut costs, &["ams1", "ams2", "for1", "pvp1", "for2"]);
    let m = loc_map(&bar.sc, &costs, leader(&bar, "L1"), Style::Brigade, 4);
    let half = |h: &str| m.get(&hex(h));
    // In half points: 0 (7.2d), 1 (empty hex), 1 (into an occupied hex from an empty one),
    // ½, ½ (between activated occupied hexes).
    assert_eq!(
        [
            half("0405"),
            half("0406"),
            half("0407"),
            half("0408"),
            half("0409")
        ],
        [Some(0), Some(2), Some(4), Some(5), Some(6)]
    );
    let log = command(&bar, &mut st.clone(), "b1", &[], &[]);
    assert!(!command_line(&log).contains("out of command"), "{log:#?}");
    // PVP 1 routed: its hex costs 2, FOR 2 is 5 away.
    st.units[usize::from(unit(&bar, "pvp1"))].routed = true;
    let log = command(&bar, &mut st, "b1", &[], &[]);
    assert!(
        command_line(&log).contains("out of command: FOR 2 (no LOC from its brigade leader, 7.6a)"),
        "{log:#?}"
    );
    assert!(!command_line(&log).contains("FOR 1 ("));
}

#[test]
fn r7_2b_c_unactivated_and_routed_hexes_cost_2_mixed_1_integrity_0() {
    let bar = mini();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L3", "0602");
    put(&bar, &mut st, "y1", &["0602"]);
    put(&bar, &mut st, "for1", &["0603"]);
    put(&bar, &mut st, "ams2", &["0604"]);
    put(&bar, &mut st, "pvp1", &["0605"]);
    put(&bar, &mut st, "ams1", &["0605"]);
    put(&bar, &mut st, "for2", &["0416"]);
    activated(&bar, &mut st, &["y1", "for1", "pvp1"]);
    let l3 = leader(&bar, "L3");
    let m = loc_map(&bar.sc, &st, l3, Style::Brigade, 8);
    let half = |m: &bar::command::LocMap<'_>, h: &str| m.get(&hex(h));
    // ½ between activated hexes; 2 into the unactivated AMS 2; 1 into the mixed stack; 1 empty.
    assert_eq!(half(&m, "0603"), Some(1));
    assert_eq!(half(&m, "0604"), Some(5));
    assert_eq!(half(&m, "0605"), Some(7));
    assert_eq!(half(&m, "0606"), Some(9));
    // A routed unit costs 2 even if activated.
    let mut r = st.clone();
    r.units[usize::from(unit(&bar, "ams2"))].activated = true;
    r.units[usize::from(unit(&bar, "ams2"))].routed = true;
    assert_eq!(
        half(&loc_map(&bar.sc, &r, l3, Style::Brigade, 8), "0604"),
        Some(5)
    );
    // Activated and in order, AMS 2 costs ½.
    r.units[usize::from(unit(&bar, "ams2"))].routed = false;
    assert_eq!(
        half(&loc_map(&bar.sc, &r, l3, Style::Brigade, 8), "0604"),
        Some(2)
    );
    // 7.2c: FOR 1 and FOR 2 of one regiment, adjacent: nothing between them even if FOR 2 is
    // not activated.
    let mut g = st.clone();
    put(&bar, &mut g, "ams2", &["0413"]);
    put(&bar, &mut g, "pvp1", &["0415"]);
    put(&bar, &mut g, "ams1", &["0415"]);
    put(&bar, &mut g, "for2", &["0604"]);
    assert_eq!(
        half(&loc_map(&bar.sc, &g, l3, Style::Brigade, 8), "0604"),
        Some(1)
    );
}

#[test]
fn r7_1_no_loc_into_enemy_hexes_empty_ezoc_or_impassable_terrain() {
    let bar = mini();
    let l3 = leader(&bar, "L3");
    // The pond 0303 between the leader in 0302 and Y 1 in 0304: with range 2 no way round.
    let mut st = fresh(&bar);
    put(&bar, &mut st, "y1", &["0304"]);
    activated(&bar, &mut st, &["y1"]);
    assert!(!loc_map(&bar.sc, &st, l3, Style::Brigade, 2).contains_key(&hex("0304")));
    let clear = mini_with("map.toml", |t| {
        t.replace("ids = [\"0303\"]", "ids = [\"0112\"]")
    })
    .unwrap();
    let mut st2 = fresh(&clear);
    put(&clear, &mut st2, "y1", &["0304"]);
    activated(&clear, &mut st2, &["y1"]);
    assert_eq!(
        loc_map(&clear.sc, &st2, l3, Style::Brigade, 2).get(&hex("0304")),
        Some(4)
    );
    // An enemy unit in 0603 between 0602 and 0604.
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L3", "0602");
    put(&bar, &mut st, "y1", &["0604"]);
    activated(&bar, &mut st, &["y1"]);
    assert!(loc_map(&bar.sc, &st, l3, Style::Brigade, 2).contains_key(&hex("0604")));
    let mut e = st.clone();
    put(&bar, &mut e, "z3", &["0603"]);
    assert!(!loc_map(&bar.sc, &e, l3, Style::Brigade, 2).contains_key(&hex("0604")));
    // An enemy ZOC on the empty 0603 (Z 3 south-west of it, facing N): blocked; held by a
    // friendly unit in good order: open.
    let south = hex("0603").neighbour(Dir::SW).unwrap().to_string();
    let mut z = st.clone();
    put(&bar, &mut z, "z3", &[&south]);
    assert!(bar::command::ezoc(&bar.sc, &z, 0, hex("0603")));
    assert!(!loc_map(&bar.sc, &z, l3, Style::Brigade, 2).contains_key(&hex("0604")));
    put(&bar, &mut z, "for1", &["0603"]);
    activated(&bar, &mut z, &["for1"]);
    assert!(loc_map(&bar.sc, &z, l3, Style::Brigade, 2).contains_key(&hex("0604")));
    // A leader in an EZOC traces out of his hex.
    let mut out = st.clone();
    put(&bar, &mut out, "z3", &[&south]);
    put_leader(&bar, &mut out, "L3", "0603");
    assert!(loc_map(&bar.sc, &out, l3, Style::Brigade, 1).contains_key(&hex("0604")));
}

#[test]
fn r7_3b_army_and_wing_leaders_count_a_road_half_brigade_leaders_do_not() {
    // The road runs 0101, 0201, …, 0801.
    let bar = mini();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "A", "0101");
    put_leader(&bar, &mut st, "L3", "0101");
    let a = loc_map(&bar.sc, &st, leader(&bar, "A"), Style::ArmyWing, 8);
    assert_eq!(a.get(&hex("0801")), Some(7), "7 road hexes at ½");
    let b = loc_map(&bar.sc, &st, leader(&bar, "L3"), Style::Brigade, 8);
    assert_eq!(b.get(&hex("0801")), Some(14));
    // The first road hex entered from off the road counts 1.
    put_leader(&bar, &mut st, "A", "0102");
    let a = loc_map(&bar.sc, &st, leader(&bar, "A"), Style::ArmyWing, 8);
    assert_eq!(a.get(&hex("0101")), Some(2));
}

/// E11's field: the army leader in 0214, the wing leader in 0206 (8 hexes), brigade leader C
/// (brigade 2's) in 0203, 11 from the army leader and 3 from the wing leader.
fn e11(bar: &bar::Bar) -> bar::State {
    let mut st = fresh(bar);
    put_leader(bar, &mut st, "A", "0214");
    put_leader(bar, &mut st, "W", "0206");
    put_leader(bar, &mut st, "L2", "0203");
    put(bar, &mut st, "x1", &["0203"]);
    put(bar, &mut st, "x2", &["0203"]);
    assert_eq!(hex("0214").distance(hex("0206")), 8);
    assert_eq!(hex("0214").distance(hex("0203")), 11);
    st
}

#[test]
fn r7_3_example_the_wing_leader_relays_and_a_road_shortens_the_army_leaders_loc() {
    let bar = mini();
    // C in command through W.
    let mut st = e11(&bar);
    let log = command(&bar, &mut st, "b2", &[], &[]);
    assert!(
        command_line(&log).contains("Blue brigade 2 leader (LOC 3 from Blue wing leader)"),
        "{log:#?}"
    );
    assert_not_logged(&log, "Leader initiative");
    // 6.6c, 7.3d: a FINISHED wing leader in command still relays.
    let mut st = e11(&bar);
    st.leaders[usize::from(leader(&bar, "W"))].finished = true;
    let log = command(&bar, &mut st, "b2", &[], &[]);
    assert!(
        command_line(&log).contains("Blue brigade 2 leader (LOC 3 from Blue wing leader)"),
        "{log:#?}"
    );
    // Without W, C must roll (7.4).
    let mut st = e11(&bar);
    wound(&bar, &mut st, "W");
    let log = command(&bar, &mut st, "b2", &[], &[3]);
    assert_logged(
        &log,
        "Leader initiative (7.4a): Blue brigade 2 leader d10 3 ≤ 3 — in command",
    );
    // With range 10 and the road hexes X (0204) and Y (0203) at ½ each: 9 + ½ + ½ = 10.
    let road =
        |t: String| t + "\n[[roads]]\nname = \"X–Y\"\nhexes = [\"0205\", \"0204\", \"0203\"]\n";
    let far = |t: String| t.replacen("range = 8", "range = 10", 1);
    let with_road = {
        let map = road(std::fs::read_to_string(data().join("mini/map.toml")).unwrap());
        let dir = std::env::temp_dir().join(format!("bar-e11-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("mini")).unwrap();
        std::fs::write(dir.join("mini/map.toml"), map).unwrap();
        let oob = far(std::fs::read_to_string(data().join("mini/oob.toml")).unwrap());
        std::fs::write(dir.join("mini/oob.toml"), oob).unwrap();
        std::fs::copy(
            data().join("mini/scenario.toml"),
            dir.join("mini/scenario.toml"),
        )
        .unwrap();
        bar::Bar::from_dir(&dir.join("mini"), &data()).unwrap()
    };
    let mut st = e11(&with_road);
    wound(&with_road, &mut st, "W");
    let log = command(&with_road, &mut st, "b2", &[], &[]);
    assert!(
        command_line(&log).contains("Blue brigade 2 leader (LOC 10 from Blue army leader)"),
        "{log:#?}"
    );
    // Range 10 without the road: 11 hexes, out of reach.
    let no_road = mini_with("oob.toml", far).unwrap();
    let mut st = e11(&no_road);
    wound(&no_road, &mut st, "W");
    let log = command(&no_road, &mut st, "b2", &[], &[3]);
    assert_logged(
        &log,
        "Leader initiative (7.4a): Blue brigade 2 leader d10 3",
    );
}

#[test]
fn r7_3c_a_wing_leader_commands_only_brigades_of_his_wing() {
    // Brigade 3 is not in the wing: its leader in E11's place of C must roll.
    let bar = mini();
    let mut st = e11(&bar);
    put_leader(&bar, &mut st, "L3", "0203");
    put(&bar, &mut st, "y1", &["0203"]);
    let log = command(&bar, &mut st, "b3", &[], &[4]);
    assert_logged(
        &log,
        "Leader initiative (7.4a): Blue brigade 3 leader d10 4 > 3 — out of command",
    );
}

#[test]
fn r7_4a_example_leader_initiative_passes_on_d10_at_most_his_rating() {
    // E12: brigade 3's leader (initiative 3) without a LOC: 3 passes, 4 fails; his unit is not
    // out of command for that (7.6a).
    let bar = mini();
    for (die, pass) in [(3, true), (4, false)] {
        let mut st = fresh(&bar);
        put_leader(&bar, &mut st, "A", "1216");
        let log = command(&bar, &mut st, "b3", &[], &[die]);
        let line = format!(
            "Leader initiative (7.4a): Blue brigade 3 leader d10 {die} {} 3 — {}",
            if pass { "≤" } else { ">" },
            if pass { "in command" } else { "out of command" }
        );
        assert_logged(&log, &line);
        let c = command_line(&log);
        assert_eq!(
            c.contains("Blue brigade 3 leader (no LOC, leader initiative failed)"),
            !pass
        );
        assert!(!c.contains("Y 1 ("), "{c}");
    }
}

#[test]
fn r7_4c_example_unit_initiative_passes_on_d100_at_least_its_er() {
    // E12: the Jäger (ER 40) beyond every LOC: 40 passes, 39 fails.
    let bar = mini();
    for (dice, pass) in [([4, 0], true), ([3, 9], false)] {
        let mut st = fresh(&bar);
        put_leader(&bar, &mut st, "A", "1216");
        put(&bar, &mut st, "i1", &["0116"]);
        let mut d = vec![2]; // brigade 3's leader passes
        d.extend(dice);
        let log = command(&bar, &mut st, "b3", &["independent:i1"], &d);
        let v = dice[0] * 10 + dice[1];
        assert_logged(
            &log,
            &format!(
                "Unit initiative (7.4c): Jäger d100 tens {}, units {} = {v} {} ER 40",
                dice[0],
                dice[1],
                if pass { "≥" } else { "<" }
            ),
        );
        assert_eq!(
            command_line(&log).contains("Jäger (independent, no LOC, unit initiative failed)"),
            !pass
        );
    }
}

#[test]
fn r7_4c_note_the_independent_rolls_its_own_after_its_brigade_leader_fails() {
    // E13: the Jäger next to brigade 3's leader, who has no LOC to the army leader.
    let bar = mini();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "A", "1216");
    put(&bar, &mut st, "i1", &["0301"]);
    let log = command(&bar, &mut st, "b3", &["independent:i1"], &[4, 4, 5]);
    assert_logged(&log, "Blue brigade 3 leader d10 4 > 3 — out of command");
    assert_logged(
        &log,
        "Unit initiative (7.4c): Jäger d100 tens 4, units 5 = 45 ≥ ER 40 — in command",
    );
    // When he passes the Jäger is in command by his LOC, without a roll.
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "A", "1216");
    put(&bar, &mut st, "i1", &["0301"]);
    let log = command(&bar, &mut st, "b3", &["independent:i1"], &[2]);
    assert_not_logged(&log, "Unit initiative");
    assert!(!command_line(&log).contains("Jäger"));
}

#[test]
fn r7_5a_a_unit_without_loc_is_in_command_with_the_army_or_its_own_wing_leader() {
    let bar = mini();
    // FOR 2 in 0212, beyond Sc's range from 0404.
    let base = |bar: &bar::Bar| {
        let mut st = fresh(bar);
        put(bar, &mut st, "for2", &["0212"]);
        st
    };
    let auto = "FOR 2 (stacked with its wing or army leader, 7.5a)";
    let ooc = "FOR 2 (no LOC from its brigade leader, 7.6a)";
    let mut st = base(&bar);
    let log = command(&bar, &mut st, "b1", &[], &[]);
    assert!(command_line(&log).contains(ooc), "{log:#?}");
    let mut st = base(&bar);
    put_leader(&bar, &mut st, "A", "0212");
    let log = command(&bar, &mut st, "b1", &[], &[]);
    assert!(command_line(&log).contains(auto), "{log:#?}");
    let mut st = base(&bar);
    put_leader(&bar, &mut st, "W", "0212");
    st.leaders[usize::from(leader(&bar, "W"))].finished = true;
    let log = command(&bar, &mut st, "b1", &[], &[]);
    assert!(command_line(&log).contains(auto), "{log:#?}");
    // The wing leader does it only for his own brigades.
    let mut st = fresh(&bar);
    put(&bar, &mut st, "y1", &["0212"]);
    put_leader(&bar, &mut st, "W", "0212");
    let log = command(&bar, &mut st, "b3", &[], &[]);
    assert!(
        command_line(&log).contains("Y 1 (no LOC from its brigade leader, 7.6a)"),
        "{log:#?}"
    );
}

#[test]
fn r7_5b_integrity_counts_for_automatic_command_only_with_one_regiment_in_the_stack() {
    let bar = mini();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "A", "0212");
    put(&bar, &mut st, "for1", &["0212"]);
    put(&bar, &mut st, "for2", &["0213"]);
    let log = command(&bar, &mut st.clone(), "b1", &[], &[]);
    assert!(
        command_line(&log).contains("FOR 2 (stacked with its wing or army leader, 7.5a)"),
        "{log:#?}"
    );
    // AMS 2 in the leader's stack too: FOR 2 loses the benefit.
    put(&bar, &mut st, "ams2", &["0212"]);
    let log = command(&bar, &mut st, "b1", &[], &[]);
    assert!(
        command_line(&log).contains("FOR 2 (no LOC from its brigade leader, 7.6a)"),
        "{log:#?}"
    );
}

#[test]
fn r7_2d_a_brigade_leader_with_a_two_hex_line_traces_from_either_hex() {
    // Brigade 3's leader in 0605 with Y 1 in line over 0605–0604; FOR 1 (activated) in 0603:
    // from 0604 it is ½ away, not ½ + ½.
    let bar = mini();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L3", "0605");
    put(&bar, &mut st, "y1", &["0605", "0604"]);
    put(&bar, &mut st, "for1", &["0603"]);
    activated(&bar, &mut st, &["y1", "for1"]);
    let m = loc_map(&bar.sc, &st, leader(&bar, "L3"), Style::Brigade, 4);
    assert_eq!(m.get(&hex("0604")), Some(0));
    assert_eq!(m.get(&hex("0603")), Some(1));
}

#[test]
fn r7_4c_a_stack_of_independents_rolls_once_with_its_top_unit() {
    // A second independent (ER 20) under the Jäger (ER 40), both beyond every LOC: one roll, 30,
    // against the Jäger's 40, fails for both (the lower unit alone would have passed).
    let bar = {
        let dir = std::env::temp_dir().join(format!("bar-indep-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("mini")).unwrap(); // test set-up
        let m = data().join("mini");
        std::fs::copy(m.join("map.toml"), dir.join("mini/map.toml")).unwrap(); // test set-up
        let oob = std::fs::read_to_string(m.join("oob.toml")).unwrap()
            + "\n[[unit]]\nid = \"i2\"\nname = \"Jäger 2\"\narmy = \"a\"\narm = \"infantry\"\nsp = 2\ner = 20\nma = 4\ninvented = \"test\"\n";
        std::fs::write(dir.join("mini/oob.toml"), oob).unwrap(); // test set-up
        let scen = std::fs::read_to_string(m.join("scenario.toml")).unwrap()
            + "\n[[setup]]\nunit = \"i2\"\nhexes = [\"0409\"]\nfacing = \"S\"\nformation = \"line\"\n";
        std::fs::write(dir.join("mini/scenario.toml"), scen).unwrap(); // test set-up
        bar::Bar::from_dir(&dir.join("mini"), &data()).unwrap() // the fixture is valid
    };
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "A", "1216");
    put(&bar, &mut st, "i1", &["0116"]);
    put(&bar, &mut st, "i2", &["0116"]);
    let log = command(
        &bar,
        &mut st,
        "b3",
        &["independent:i1", "independent:i2"],
        &[2, 3, 0],
    );
    assert_eq!(
        log.iter()
            .filter(|l| l.starts_with("Unit initiative"))
            .count(),
        1,
        "{log:#?}"
    );
    assert_logged(
        &log,
        "Unit initiative (7.4c): Jäger d100 tens 3, units 0 = 30 < ER 40",
    );
    let c = command_line(&log);
    assert!(
        c.contains("Jäger (independent") && c.contains("Jäger 2 (independent"),
        "{c}"
    );
}
