//! Fire (12.0): the fire phase, its strength, ratio, roll, results and losses, return fire and
//! opportunity fire, on the drill ground `tests/data/move` with the movement test box (whose fire
//! charts are the Prague box's: Prussian grenadiers ×5/×3, fusiliers ×3/×2 as 12.1 example 1
//! prints them; clear terrain defence 4). Each test builds the position the rule talks about and
//! loads the dice it needs.
mod common;
use bar::Bar;
use bar::geom::Formation;
use bar::state::{Activation, Phase, State};
use common::*;
use engine::Ruleset;

fn drill() -> Bar {
    Bar::from_dir(&data().join("move"), &data()).unwrap() // the fixture is valid
}

/// Place a unit: hexes, facing, formation, SP lost.
fn set(
    bar: &Bar,
    st: &mut State,
    id: &str,
    hexes: &[&str],
    facing: &str,
    formation: &str,
    lost: u8,
) {
    let f = Formation::parse(formation).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.iter().map(|h| hex(h)).collect();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
    st.units[u].lost = lost;
}

/// The fire phase of an activation of `units` (their side).
fn fire_phase(bar: &Bar, st: &mut State, units: &[&str]) {
    let us: Vec<u16> = units.iter().map(|u| unit(bar, u)).collect();
    let side = bar.sc.units[usize::from(us[0])].side;
    for &u in &us {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side,
        units: us,
        ..Activation::default()
    });
    st.phase = Phase::Fire(Box::default());
}

/// The hex `n` steps from `h` toward the front of a unit facing north.
fn north(h: &str, n: usize) -> String {
    let mut x = hex(h);
    for _ in 0..n {
        x = x
            .neighbour(hexmap::Vertex::N.front()[0])
            .expect("on the map");
    }
    x.to_string()
}

fn line_with<'a>(log: &'a [String], s: &str) -> &'a str {
    log.iter()
        .find(|l| l.contains(s))
        .unwrap_or_else(|| panic!("no line with {s:?} in {log:#?}"))
}

#[test]
fn r12_1_example_1_a_grenadier_on_fusiliers_fires_4_sp_for_14_at_one_hex_and_9_at_two() {
    let bar = drill();
    for (range, total, column) in [(1, "total 14", "= 3:1"), (2, "total 9", "= 2:1")] {
        let mut st = fresh(&bar);
        // A one-hex Prussian line of 5 SP: a 1-SP grenadier unit on top of a 4-SP fusilier unit.
        set(&bar, &mut st, "gr", &["0707"], "N", "line", 3);
        set(&bar, &mut st, "i1", &["0707"], "N", "line", 2);
        st.units[usize::from(unit(&bar, "gr"))].order = 0;
        st.units[usize::from(unit(&bar, "i1"))].order = 1;
        let t = north("0707", range);
        set(&bar, &mut st, "e1", &[&t], "S", "line", 0);
        fire_phase(&bar, &mut st, &["gr", "i1"]);
        assert!(
            legal(&bar, &st).contains(&"fire:e1:inf".to_string()),
            "{:?}",
            legal(&bar, &st)
        );
        let log = act(
            &bar,
            &mut st,
            &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
            &[9, 9, 9, 9],
        );
        let l = line_with(&log, "Fire (12.1)");
        // 12.1 example 1: the grenadier fires 1 SP, the fusilier 3 of its 4 (4 SP from the hex).
        let (g, f) = if range == 1 {
            ("× 5", "× 3")
        } else {
            ("× 3", "× 2")
        };
        assert!(
            l.contains(&format!(
                "Grenadiers line, 1 SP (Infantry Line SP chart, 3 ranks) {g}"
            )),
            "{l}"
        );
        assert!(
            l.contains(&format!(
                "IR 1/I line, 3 SP (Infantry Line SP chart, 3 ranks) {f}"
            )),
            "{l}"
        );
        assert!(
            l.contains(total) && l.contains("defence 4") && l.contains(column),
            "{l}"
        );
    }
}

/// The drill ground with its order of battle edited.
fn drill_with(tag: &str, edit: impl Fn(String) -> String) -> Bar {
    drill_with_setup(tag, edit, |t| t)
}

/// The drill ground with its order of battle and its set-up edited.
fn drill_with_setup(
    tag: &str,
    edit: impl Fn(String) -> String,
    setup: impl Fn(String) -> String,
) -> Bar {
    let dir = std::env::temp_dir().join(format!("bar-fire-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("move")).unwrap(); // test set-up
    for f in ["map.toml", "scenario.toml", "oob.toml"] {
        let text = std::fs::read_to_string(data().join("move").join(f)).unwrap(); // fixture
        let text = match f {
            "oob.toml" => edit(text),
            "scenario.toml" => setup(text),
            _ => text,
        };
        std::fs::write(dir.join("move").join(f), text).unwrap(); // test set-up
    }
    Bar::from_dir(&dir.join("move"), &data()).unwrap() // the edited fixture is valid
}

#[test]
fn r12_1_example_2_a_12_pounder_at_8_hexes_fires_at_x3() {
    let bar = drill_with("12pdr", |t| t.replace("sub = \"6pdr\"", "sub = \"12pdr\""));
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g1", &["1107"], "N", "unlimbered", 0);
    let t = north("1107", 8);
    set(&bar, &mut st, "e1", &[&t], "S", "line", 0);
    fire_phase(&bar, &mut st, &["g1"]);
    let log = act(
        &bar,
        &mut st,
        &["fire:e1:art", "fire-with:1107", "fire-resolve"],
        &[9, 9],
    );
    let l = line_with(&log, "Fire (12.1)");
    assert!(
        l.contains("Battery 6-pdr unlimbered, 2 SP (guns, 12.4c) × 3 (12pdr, 8 hexes)"),
        "{l}"
    );
    assert!(l.contains("total 6 ÷ defence 4"), "{l}");
}

#[test]
fn r12_1_no_fire_is_made_below_1_3() {
    let bar = drill();
    let mut st = fresh(&bar);
    // 1 SP of fusiliers at 2 hexes (×2 = 2) at a unit in a village (defence 8): 1:4.
    let from = north("1209", 2);
    set(&bar, &mut st, "jg", &[&from], "S", "line", 1);
    set(&bar, &mut st, "e1", &["1209"], "N", "line", 0);
    // The fusiliers face the village from two hexes (facing S points back toward it).
    let mut stj = st.clone();
    fire_phase(&bar, &mut stj, &["jg"]);
    let ids = legal(&bar, &stj);
    let Some(fire) = ids.iter().find(|x| x.starts_with("fire:e1")) else {
        panic!("the village is in arc and range: {ids:?}");
    };
    act(
        &bar,
        &mut stj,
        &[fire.as_str(), &format!("fire-with:{from}")],
        &[],
    );
    assert_eq!(
        legal(&bar, &stj),
        ["fire-cancel"],
        "1:4 may not be resolved"
    );
    // With full strength (2 SP × 2 = 4 ÷ 8 = 1:2) it may.
    st.units[usize::from(unit(&bar, "jg"))].lost = 0;
    fire_phase(&bar, &mut st, &["jg"]);
    act(
        &bar,
        &mut st,
        &[fire.as_str(), &format!("fire-with:{from}")],
        &[],
    );
    assert!(legal(&bar, &st).contains(&"fire-resolve".to_string()));
}

#[test]
fn r12_2c_a_target_is_fired_on_once_by_infantry_and_a_unit_fires_once_a_phase() {
    let bar = drill();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
    set(&bar, &mut st, "i2", &["0709"], "N", "line", 0);
    let t = north("0707", 1);
    set(&bar, &mut st, "e1", &[&t], "S", "line", 0);
    set(&bar, &mut st, "e2", &[&north("0709", 1)], "S", "line", 0);
    fire_phase(&bar, &mut st, &["i1", "i2"]);
    act(
        &bar,
        &mut st,
        &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
        &[9, 9, 9, 9],
    );
    let l = legal(&bar, &st);
    assert!(
        !l.contains(&"fire:e1:inf".to_string()),
        "e1 was fired on by infantry: {l:?}"
    );
    // i1 has fired: e2, in its range too if adjacent, may be fired on only by i2.
    act(&bar, &mut st, &["fire:e2:inf"], &[]);
    assert_eq!(
        legal(&bar, &st)
            .iter()
            .filter(|x| x.starts_with("fire-with:"))
            .count(),
        1
    );
    assert!(legal(&bar, &st).contains(&"fire-with:0709".to_string()));
}

#[test]
fn r12_9h_losses_against_a_column_are_multiplied_by_1_5_and_an_even_roll_calls_mc_a_at_plus_10() {
    let bar = drill();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
    let t = north("0707", 1);
    set(&bar, &mut st, "e1", &[&t], "S", "attack", 0);
    fire_phase(&bar, &mut st, &["i1"]);
    // 4 SP × 3 = 12 ÷ 4 = 3:1; d100 70, size 6 (−5) ⇒ 65 → 2 SP; ×1.5 = 3 (12.9h).
    let log = act(
        &bar,
        &mut st,
        &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
        &[7, 0, 9, 9],
    );
    assert_logged(&log, "2 SP × 1.5 against a attack column = 3 (12.9h)");
    assert_eq!(st.units[usize::from(unit(&bar, "e1"))].lost, 3);
    // 12.9d: natural 70 is even and SPs were lost: MC (A), +10 for 2–3 SP (19.9a).
    let mc = line_with(&log, "morale check A");
    assert!(mc.contains("+ 10 (fire 2 3 sp, 19.9a)"), "{mc}");
}

#[test]
fn r12_9d_an_odd_roll_or_no_loss_calls_no_morale_check() {
    let bar = drill();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
    set(&bar, &mut st, "e1", &[&north("0707", 1)], "S", "line", 0);
    fire_phase(&bar, &mut st, &["i1"]);
    let log = act(
        &bar,
        &mut st,
        &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
        &[7, 1],
    );
    assert!(line_with(&log, "Fire (12.1)").contains("→ 2 SP"));
    assert_not_logged(&log, "morale check");
}

#[test]
fn r12_10_an_r_lets_the_target_return_fire_at_the_nearer_firer_and_an_r_in_return_fire_is_nothing()
{
    let bar = drill();
    let mut st = fresh(&bar);
    // Two firing hexes, at 1 and 2 hexes from the target (E69).
    let t = north("0707", 1);
    set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
    let far = north("0707", 2);
    let far_hex = hex(&t)
        .neighbour(hexmap::Vertex::S.front()[0])
        .expect("on the map")
        .neighbour(hexmap::Vertex::S.front()[0])
        .expect("on the map")
        .to_string();
    let _ = far;
    set(&bar, &mut st, "i2", &[&far_hex], "N", "line", 0);
    set(&bar, &mut st, "e1", &[&t], "S", "line", 0);
    fire_phase(&bar, &mut st, &["i1", "i2"]);
    act(&bar, &mut st, &["fire:e1:inf", "fire-with:0707"], &[]);
    if legal(&bar, &st).contains(&format!("fire-with:{far_hex}")) {
        act(&bar, &mut st, &[&format!("fire-with:{far_hex}")], &[]);
    }
    // A low roll: 'R' on the regular side (12.9i).
    let log = act(&bar, &mut st, &["fire-resolve"], &[3, 5]);
    assert!(line_with(&log, "Fire (12.1)").contains("→ R"), "{log:#?}");
    assert_eq!(bar.decider(&st), Some(engine::Seat(1)));
    assert_eq!(
        legal(&bar, &st),
        ["return-fire:i1", "pass"],
        "the nearer firer (12.10)"
    );
    let log = act(&bar, &mut st, &["return-fire:i1"], &[3, 5]);
    let l = line_with(&log, "Return fire (12.10)");
    assert!(
        l.contains("no effect (12.10)") || !l.contains("→ R"),
        "an 'R' in return fire is no effect: {l}"
    );
    assert_eq!(
        bar.decider(&st),
        Some(engine::Seat(0)),
        "the fire phase goes on"
    );
}

#[test]
fn r12_6_a_unit_between_blocks_the_line_of_sight_and_12_2b_fire_goes_only_to_the_front() {
    let bar = drill();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
    set(&bar, &mut st, "e1", &[&north("0707", 2)], "S", "line", 0);
    fire_phase(&bar, &mut st, &["i1"]);
    assert!(legal(&bar, &st).contains(&"fire:e1:inf".to_string()));
    // A friendly battalion in the hex between blocks the line (12.6a).
    set(&bar, &mut st, "i2", &[&north("0707", 1)], "N", "line", 0);
    fire_phase(&bar, &mut st, &["i1"]);
    assert!(!legal(&bar, &st).contains(&"fire:e1:inf".to_string()));
    // Facing away, the target is out of its front (12.2b).
    set(&bar, &mut st, "i2", &["0101"], "N", "line", 0);
    set(&bar, &mut st, "i1", &["0707"], "S", "line", 0);
    fire_phase(&bar, &mut st, &["i1"]);
    assert!(!legal(&bar, &st).contains(&"fire:e1:inf".to_string()));
}

#[test]
fn r12_5_target_size_counts_artillery_x4_cavalry_x2_and_divides_a_multi_hex_unit() {
    let bar = drill();
    let mut st = fresh(&bar);
    let size = |st: &State, ids: &[&str]| {
        let v: Vec<u16> = ids.iter().map(|i| unit(&bar, i)).collect();
        bar::fire::target_size(&bar.sc, st, &v)
    };
    assert_eq!(size(&st, &["g1"]), 8, "2-SP artillery counts 8 (12.5a)");
    assert_eq!(size(&st, &["h1"]), 12, "6-SP cavalry counts 12 (12.5a)");
    set(&bar, &mut st, "i1", &["0707", "0708"], "N", "line", 0);
    assert_eq!(size(&st, &["i1"]), 3, "6 SP over two hexes (12.5b)");
    set(&bar, &mut st, "g1", &["0707", "0708"], "N", "unlimbered", 0);
    assert_eq!(
        size(&st, &["i1", "g1"]),
        11,
        "3 + 2 × 4, guns never divided (12.5c)"
    );
}

#[test]
fn r12_9g_losses_on_guns_on_top_of_infantry_go_infantry_first_then_alternate() {
    let bar = drill();
    let mut st = fresh(&bar);
    // Blue guns on top of a Blue battalion; a Red battalion fires at them from the north.
    set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
    set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered", 0);
    st.units[usize::from(unit(&bar, "g1"))].order = 0;
    st.units[usize::from(unit(&bar, "i1"))].order = 1;
    set(&bar, &mut st, "e1", &[&north("0707", 1)], "S", "line", 0);
    fire_phase(&bar, &mut st, &["e1"]);
    // 4 SP × 2.5 (Austrian fusiliers) = 10 ÷ 4 = 2:1; size 6 + 2 × 4 = 14 (+5); 80 + 5 = 85 → 3.
    let log = act(
        &bar,
        &mut st,
        &[
            "fire:g1:inf",
            &format!("fire-with:{}", north("0707", 1)),
            "fire-resolve",
        ],
        &[8, 0, 9, 9],
    );
    assert!(
        line_with(&log, "Fire (12.1)").contains("→ 3 SP"),
        "{log:#?}"
    );
    // 12.9g: the infantry takes the first and third loss, the guns the second.
    assert_eq!(st.units[usize::from(unit(&bar, "i1"))].lost, 2);
    assert_eq!(st.units[usize::from(unit(&bar, "g1"))].lost, 1);
}

/// A Blue battalion in 0707 facing north about to step forward, a Red line two hexes north of it
/// facing south: leaving 0707 is a trigger (12.8d).
fn about_to_leave(bar: &Bar) -> (State, String) {
    let mut st = fresh(bar);
    set(bar, &mut st, "i1", &["0707"], "N", "line", 0);
    set(bar, &mut st, "e1", &[&north("0707", 2)], "S", "line", 0);
    let u = unit(bar, "i1");
    st.units[usize::from(u)].activated = true;
    st.activation = Some(Activation {
        side: 0,
        units: vec![u, unit(bar, "sp1")],
        ..Activation::default()
    });
    st.phase = Phase::Movement;
    act(bar, &mut st, &["move:i1"], &[]);
    let step = legal(bar, &st)
        .into_iter()
        .find(|x| x.starts_with("step:"))
        .expect("a forward step");
    act(bar, &mut st, &[&step], &[]);
    assert!(matches!(st.phase, Phase::Reaction { .. }), "{:?}", st.phase);
    (st, step[5..].to_string())
}

#[test]
fn r12_8d_opportunity_fire_before_a_unit_leaves_is_at_the_hex_it_leaves_and_the_move_goes_on() {
    let bar = drill();
    let (mut st, to) = about_to_leave(&bar);
    assert_eq!(legal(&bar, &st), ["opp-fire:inf", "pass"]);
    // 12.8d: the range is to 0707, the hex it leaves: 2 hexes, Austrian fusiliers ×1.5:
    // 4 × 1.5 = 6 ÷ 4 = 1:1; d100 90 − 5 (size 6) = 85 → 2 SP on the right-hand side.
    let log = act(&bar, &mut st, &["opp-fire:inf"], &[9, 0, 9, 9, 9, 9]);
    let l = line_with(&log, "Opportunity fire (12.8)");
    assert!(
        l.contains("2 hexes") && l.contains("× 1.5") && l.contains("= 1:1"),
        "{l}"
    );
    assert!(l.contains("→ 2 SP (FRT, opportunity/defensive)"), "{l}");
    assert_eq!(st.units[usize::from(unit(&bar, "i1"))].lost, 2);
    // 12.9e: a loss from opportunity fire ⇒ DC (C) before the MC (A) of the even roll (12.9k).
    let dc = log
        .iter()
        .position(|x| x.contains("disorder check C"))
        .expect("DC (C)");
    let mc = log
        .iter()
        .position(|x| x.contains("morale check A"))
        .expect("MC (A)");
    assert!(dc < mc);
    // Both passed: the step is taken.
    assert_eq!(
        st.units[usize::from(unit(&bar, "i1"))].hexes,
        vec![hex(&to)]
    );
}

#[test]
fn r18_2d_a_failed_disorder_check_c_after_opportunity_fire_stops_the_mover_where_it_is() {
    let bar = drill();
    let (mut st, _) = about_to_leave(&bar);
    // 2 SP lost (as above), then the DC (C) rolls 10 against ER 30: fails; MC (A) passes.
    let log = act(&bar, &mut st, &["opp-fire:inf"], &[9, 0, 1, 0, 9, 9]);
    assert_logged(&log, "disorder check C");
    let i1 = &st.units[usize::from(unit(&bar, "i1"))];
    assert!(i1.disordered);
    assert_eq!(i1.hexes, vec![hex("0707")], "it never left (18.2d)");
    assert!(matches!(st.phase, Phase::Movement), "{:?}", st.phase);
    assert!(
        st.activation
            .as_ref()
            .is_some_and(|a| a.moved.contains(&unit(&bar, "i1")))
    );
}

#[test]
fn r12_8_a_pass_lets_the_move_go_on_without_fire() {
    let bar = drill();
    let (mut st, to) = about_to_leave(&bar);
    let log = act(&bar, &mut st, &["pass"], &[]);
    assert_not_logged(&log, "Opportunity fire");
    assert_eq!(
        st.units[usize::from(unit(&bar, "i1"))].hexes,
        vec![hex(&to)]
    );
    assert_eq!(st.units[usize::from(unit(&bar, "i1"))].lost, 0);
}

#[test]
fn r12_9h_example_losses_1_2_3_4_against_a_square_are_2_3_5_6() {
    let bar = drill();
    // 4 SP × 3 = 12 ÷ 4 = 3:1; size 6 (−5): 50 → 1, 66 → 2, 80 → 3, 92 → 4 on the regular side.
    for (tens, units, table, lost) in [(5, 0, 1, 2), (6, 6, 2, 3), (8, 0, 3, 5), (9, 2, 4, 6)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
        set(&bar, &mut st, "e1", &[&north("0707", 1)], "S", "square", 0);
        fire_phase(&bar, &mut st, &["i1"]);
        let log = act(
            &bar,
            &mut st,
            &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
            &[tens, units, 9, 9],
        );
        assert!(
            line_with(&log, "Fire (12.1)").contains(&format!("→ {table} SP")),
            "{log:#?}"
        );
        assert_eq!(
            st.units[usize::from(unit(&bar, "e1"))].lost,
            lost,
            "{log:#?}"
        );
    }
}

#[test]
fn r12_9d_mc_a_adds_10_for_2_or_3_sp_lost_and_20_for_4_or_more_none_for_1() {
    let bar = drill();
    for (tens, units, key) in [(5, 0, None), (9, 2, Some("+ 20 (fire 4 sp, 19.9a)"))] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
        set(&bar, &mut st, "e1", &[&north("0707", 1)], "S", "line", 0);
        fire_phase(&bar, &mut st, &["i1"]);
        let log = act(
            &bar,
            &mut st,
            &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
            &[tens, units, 9, 9],
        );
        let mc = line_with(&log, "morale check A");
        match key {
            Some(k) => assert!(mc.contains(k), "{mc}"),
            None => assert!(
                !mc.contains("fire 2 3 sp") && !mc.contains("fire 4 sp"),
                "{mc}"
            ),
        }
    }
}

#[test]
fn r12_2g_a_square_fires_a_third_of_its_sps_up_to_4_at_a_target_2_if_disordered() {
    let bar = drill();
    for disordered in [false, true] {
        let mut st = fresh(&bar);
        // A 12-SP square: two 6-SP battalions.
        set(&bar, &mut st, "i1", &["0707"], "N", "square", 0);
        set(&bar, &mut st, "i2", &["0707"], "N", "square", 0);
        st.units[usize::from(unit(&bar, "i1"))].order = 0;
        st.units[usize::from(unit(&bar, "i2"))].order = 1;
        st.units[usize::from(unit(&bar, "i1"))].disordered = disordered;
        st.units[usize::from(unit(&bar, "i2"))].disordered = disordered;
        set(&bar, &mut st, "e1", &[&north("0707", 1)], "S", "line", 0);
        fire_phase(&bar, &mut st, &["i1", "i2"]);
        let log = act(
            &bar,
            &mut st,
            &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
            &[9, 9, 9, 9],
        );
        let l = line_with(&log, "Fire (12.1)");
        if disordered {
            assert!(
                l.contains(
                    "IR 1/I square, 2 SP (Formation Fire Table) (of 4: disordered 12.3a) × 3"
                ),
                "{l}"
            );
        } else {
            assert!(
                l.contains("IR 1/I square, 4 SP (Formation Fire Table) × 3")
                    && l.contains("total 12"),
                "{l}"
            );
        }
    }
}

#[test]
fn r12_6e_fire_from_a_flank_hex_of_the_target_is_enfilade_and_from_its_front_is_not() {
    let bar = drill();
    let x = hex("0707");
    let facing = bar::scenario::parse_facing("S", Formation::Line).expect("a facing");
    let (front, flank, _) = bar::geom::arcs_of(&[x], facing, Formation::Line);
    for (from, enfilade) in [(flank[0], true), (front[0], false)] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "e1", &["0707"], "S", "line", 0);
        // The firer faces so that the target is in its front.
        let f = ["N", "NE", "SE", "S", "SW", "NW"]
            .into_iter()
            .find(|f| {
                bar::scenario::parse_facing(f, Formation::Line)
                    .is_some_and(|fc| fc.arc_of(from, x) == Some(hexmap::Arc::Front))
            })
            .expect("some facing has it in front");
        set(&bar, &mut st, "i1", &[&from.to_string()], f, "line", 0);
        fire_phase(&bar, &mut st, &["i1"]);
        let log = act(
            &bar,
            &mut st,
            &["fire:e1:inf", &format!("fire-with:{from}"), "fire-resolve"],
            &[9, 9, 9, 9],
        );
        let l = line_with(&log, "Fire (12.1)");
        assert_eq!(l.contains("+1 enfilade 12.7b"), enfilade, "{l}");
    }
}

#[test]
fn r12_8c_after_a_change_the_firer_may_take_the_old_aspect_and_the_unit_keeps_its_new_one() {
    let bar = drill();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
    set(&bar, &mut st, "e1", &[&north("0707", 2)], "S", "line", 0);
    let u = unit(&bar, "i1");
    st.units[usize::from(u)].activated = true;
    st.activation = Some(Activation {
        side: 0,
        units: vec![u, unit(&bar, "sp1")],
        ..Activation::default()
    });
    st.phase = Phase::Movement;
    act(&bar, &mut st, &["move:i1", "turn:NE"], &[]);
    assert!(matches!(st.phase, Phase::Reaction { .. }), "{:?}", st.phase);
    assert_eq!(
        legal(&bar, &st),
        ["opp-fire:inf", "opp-fire:inf:before", "pass"],
        "12.8c: the new aspect or the one before the change"
    );
    let log = act(&bar, &mut st, &["opp-fire:inf:before"], &[9, 9, 9, 9]);
    assert_logged(
        &log,
        "fires at the aspect before the change: line facing N in 0707",
    );
    assert_logged(&log, "Opportunity fire (12.8)");
    let facing = bar::scenario::parse_facing("NE", Formation::Line).expect("a facing");
    assert_eq!(st.units[usize::from(u)].facing, facing, "the change stands");
    // 12.8c, e: one infantry fire for the changes in this hex.
    assert!(
        !legal(&bar, &st)
            .iter()
            .any(|x| x.starts_with("opp-fire:inf"))
    );
}

/// The Red horse made a Red 6-pounder battery (2 SP).
fn red_guns(t: String) -> String {
    t.replace(
        "name = \"Red horse\"\narmy = \"austria\"\nbrigade = \"c2\"\nregiment = \"RH\"\narm = \"cavalry\"\nsub = \"heavy\"\nsp = 6",
        "name = \"Red battery\"\narmy = \"austria\"\nbrigade = \"c2\"\nregiment = \"RH\"\narm = \"artillery\"\nsub = \"6pdr\"\nsp = 2",
    )
}

#[test]
fn r12_9f_example_guns_fired_on_only_by_guns_beyond_their_minimum_range_lose_half_dropping_fractions()
 {
    // The horse made a battery stands unlimbered at the set-up (guns form no line, 8.1a).
    let bar = drill_with_setup("guns", red_guns, |t| {
        t.replace(
            "unit = \"h1\"\nhexes = [\"1408\"]\nfacing = \"S\"\nformation = \"line\"",
            "unit = \"h1\"\nhexes = [\"1408\"]\nfacing = \"S\"\nformation = \"unlimbered\"",
        )
    });
    assert_eq!(bar.sc.units[usize::from(unit(&bar, "h1"))].sub, "6pdr");
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered", 0);
    let from = north("0707", 4);
    set(&bar, &mut st, "h1", &[&from], "S", "unlimbered", 0);
    fire_phase(&bar, &mut st, &["h1"]);
    // 2 SP × 3 (6-pdr at 4 hexes) = 6 ÷ 4 = 1:1; size 8 (±0); 92 → 3 SP, halved: 1 (1.5 dropped).
    let log = act(
        &bar,
        &mut st,
        &["fire:g1:art", &format!("fire-with:{from}"), "fire-resolve"],
        &[9, 2, 9, 9],
    );
    assert!(
        line_with(&log, "Fire (12.1)").contains("→ 3 SP"),
        "{log:#?}"
    );
    assert_logged(&log, "(12.9f)");
    assert_eq!(st.units[usize::from(unit(&bar, "g1"))].lost, 1);
    // Within the minimum range (3 hexes) the losses stand: 6-pdr ×5 at 3 = 10 ÷ 4 = 2:1; 92 → 3.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered", 0);
    let from = north("0707", 3);
    set(&bar, &mut st, "h1", &[&from], "S", "unlimbered", 0);
    fire_phase(&bar, &mut st, &["h1"]);
    let log = act(
        &bar,
        &mut st,
        &["fire:g1:art", &format!("fire-with:{from}"), "fire-resolve"],
        &[9, 2, 9, 9],
    );
    assert_not_logged(&log, "(12.9f)");
    assert!(
        st.units[usize::from(unit(&bar, "g1"))].lost >= 2,
        "{log:#?}"
    );
}

#[test]
fn r18_5a_example_a_disordered_4_rank_line_fires_2_sp_from_a_hex_that_would_fire_4() {
    let bar = drill_with("ranks", |t| {
        t.replacen("loss_table = \"a\"", "loss_table = \"a\"\nranks = 4", 1)
    });
    assert_eq!(bar.sc.armies[0].ranks, 4);
    let mut st = fresh(&bar);
    // A 9-SP line over two hexes (6 + 3 SP): 5 and 4 SP a hex, firing 4 and 3 (T5, 4 ranks).
    let fp = hexmap::Footprint::line(&hexmap::Printed, hex("0707"), hexmap::Vertex::N, 2)
        .expect("a two-hex line");
    let hexes: Vec<String> = fp.hexes().iter().map(|h| h.to_string()).collect();
    let hs: Vec<&str> = hexes.iter().map(String::as_str).collect();
    set(&bar, &mut st, "i1", &hs, "N", "line", 0);
    set(&bar, &mut st, "i2", &hs, "N", "line", 3);
    st.units[usize::from(unit(&bar, "i1"))].order = 0;
    st.units[usize::from(unit(&bar, "i2"))].order = 1;
    set(&bar, &mut st, "e1", &[&north("0707", 1)], "S", "line", 0);
    for disordered in [false, true] {
        let mut st = st.clone();
        st.units[usize::from(unit(&bar, "i1"))].disordered = disordered;
        st.units[usize::from(unit(&bar, "i2"))].disordered = disordered;
        fire_phase(&bar, &mut st, &["i1", "i2"]);
        let log = act(
            &bar,
            &mut st,
            &["fire:e1:inf", "fire-with:0707", "fire-resolve"],
            &[9, 9, 9, 9],
        );
        let l = line_with(&log, "Fire (12.1)");
        let want = if disordered {
            "IR 1/I line, 2 SP (Infantry Line SP chart, 4 ranks) (of 4: disordered 12.3a)"
        } else {
            "IR 1/I line, 4 SP (Infantry Line SP chart, 4 ranks) × 3"
        };
        assert!(l.contains(want), "{l}");
    }
}

/// Issue 19 item 5: a side's reaction policy answers BAR's movement triggers (12.8d) for it —
/// "never" passes, "when" fires only at a mover within its range, "ask" asks.
#[test]
fn r12_8_a_reaction_policy_answers_the_opportunity_fire_prompt() {
    use engine::policy::{Policy, React};
    let bar = drill();
    let (st, _) = about_to_leave(&bar);
    let red = engine::Seat(1);
    let answer = |p: Policy| bar.policy_answer(&st, red, &p).map(|a| bar.action_id(&a));
    assert_eq!(answer(Policy::default()), None, "ask");
    let never = Policy {
        react: React::Never,
        ..Policy::default()
    };
    assert_eq!(answer(never).as_deref(), Some("pass"));
    // The Red line is 2 hexes from 0707.
    let within = |n: u8| Policy {
        react: React::When,
        fire_within: n,
        ..Policy::default()
    };
    assert_eq!(answer(within(2)).as_deref(), Some("opp-fire:inf"));
    assert_eq!(answer(within(1)).as_deref(), Some("pass"));
    assert_eq!(answer(within(0)).as_deref(), Some("pass"), "0: never fire");
    // Outside a reactive prompt a policy never answers.
    let mut moving = st.clone();
    moving.phase = Phase::Movement;
    assert_eq!(bar.policy_answer(&moving, red, &within(2)), None);
}

/// 12.4d (E38): artillery stacked with a square fires as if alone in the hex, through its own
/// front; the square's infantry does not fire at a hex in the artillery's front, and fires its
/// third (2 of 6 SP) elsewhere.
#[test]
fn r12_4d_e38_a_square_with_artillery_leaves_the_artillerys_front_to_the_guns() {
    let bar = drill();
    for with_guns in [false, true] {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "i1", &["0707"], "N", "square", 0);
        let mut firers = vec!["i1"];
        if with_guns {
            set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered", 0);
            st.units[usize::from(unit(&bar, "g1"))].order = 0;
            st.units[usize::from(unit(&bar, "i1"))].order = 1;
            firers.push("g1");
        }
        // e1 in the front (north), e2 behind (south).
        set(&bar, &mut st, "e1", &[&north("0707", 1)], "S", "line", 0);
        let south = hex("0707")
            .neighbour(hexmap::Vertex::S.front()[0])
            .expect("on the map")
            .to_string();
        set(&bar, &mut st, "e2", &[&south], "N", "line", 0);
        fire_phase(&bar, &mut st, &firers);
        let l = legal(&bar, &st);
        assert_eq!(
            l.contains(&"fire:e1:inf".to_string()),
            !with_guns,
            "guns {with_guns}: {l:?}"
        );
        assert_eq!(l.contains(&"fire:e1:art".to_string()), with_guns, "{l:?}");
        assert!(l.contains(&"fire:e2:inf".to_string()), "{l:?}");
        assert!(
            !l.contains(&"fire:e2:art".to_string()),
            "guns fire to their front: {l:?}"
        );
        let log = act(
            &bar,
            &mut st,
            &["fire:e2:inf", "fire-with:0707", "fire-resolve"],
            &[9, 9, 9, 9],
        );
        let line = line_with(&log, "Fire (12.1)");
        assert!(line.contains("square, 2 SP"), "{line}");
    }
}

/// 12.1 (E34): above 5:1 the 5:1 column is used with +10 to the die for each whole ratio above
/// it — here 8:1, +30.
#[test]
fn r12_1_e34_a_ratio_above_5_1_fires_on_the_5_1_column_with_10_a_whole_ratio() {
    let bar = drill();
    let mut st = fresh(&bar);
    let t = north("0707", 1);
    // Grenadiers (4 SP × 5 = 20) from the south, fusiliers (4 SP × 3 = 12) from the south-west,
    // both adjacent to a line in clear terrain (defence 4): 32 ÷ 4 = 8:1.
    set(&bar, &mut st, "gr", &["0707"], "N", "line", 0);
    let sw = hex(&t)
        .neighbour(hexmap::Vertex::S.front()[1])
        .expect("on the map")
        .to_string();
    set(&bar, &mut st, "i1", &[&sw], "N", "line", 0);
    set(&bar, &mut st, "e1", &[&t], "S", "line", 0);
    fire_phase(&bar, &mut st, &["gr", "i1"]);
    let log = act(
        &bar,
        &mut st,
        &[
            "fire:e1:inf",
            "fire-with:0707",
            &format!("fire-with:{sw}"),
            "fire-resolve",
        ],
        &[9, 9, 9, 9, 9, 9],
    );
    let l = line_with(&log, "Fire (12.1)");
    assert!(
        l.contains("total 32 ÷ defence 4 (Clear) = 8:1, read on the 5:1 column"),
        "{l}"
    );
    assert!(l.contains("+30 (above 5:1, 12.1)"), "{l}");
}

/// 12.2e–f (E35): 2 artillery SP on 2 infantry SP in one hex fire as two attacks, one by each
/// type, at the same unit or at two units; the infantry's SPs of the hex all fire at one target.
#[test]
fn r12_2f_e35_guns_and_infantry_of_one_hex_fire_separately_at_one_unit_or_at_two() {
    let bar = drill();
    let start = || {
        let mut st = fresh(&bar);
        set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered", 0);
        set(&bar, &mut st, "i1", &["0707"], "N", "line", 0);
        st.units[usize::from(unit(&bar, "g1"))].order = 0;
        st.units[usize::from(unit(&bar, "i1"))].order = 1;
        let t = north("0707", 1);
        set(&bar, &mut st, "e1", &[&t], "S", "line", 0);
        // e2 beside e1, in the other front hex (not behind it: units block sight, 12.6).
        let t2 = hex("0707")
            .neighbour(hexmap::Vertex::N.front()[1])
            .expect("on the map")
            .to_string();
        set(&bar, &mut st, "e2", &[&t2], "S", "line", 0);
        fire_phase(&bar, &mut st, &["g1", "i1"]);
        st
    };
    // The guns first at e1: 2 SP (12.4c); the infantry may then fire at e1 too, or at e2.
    for second in ["e1", "e2"] {
        let mut st = start();
        let log = act(
            &bar,
            &mut st,
            &["fire:e1:art", "fire-with:0707", "fire-resolve"],
            &[0, 1, 0, 1, 0, 1],
        );
        assert!(
            line_with(&log, "Fire (12.1)").contains("2 SP (guns, 12.4c)"),
            "{log:#?}"
        );
        let l = legal(&bar, &st);
        assert!(l.contains(&format!("fire:{second}:inf")), "{l:?}");
        let log = act(
            &bar,
            &mut st,
            &[
                &format!("fire:{second}:inf"),
                "fire-with:0707",
                "fire-resolve",
            ],
            &[0, 1, 0, 1, 0, 1],
        );
        // 12.4b–c: the hex fires 4 SP, 2 of them the guns': the infantry fires the other 2.
        let f = log
            .iter()
            .rfind(|x| x.contains("Fire (12.1)"))
            .expect("the infantry's fire");
        assert!(f.contains("IR 1/I line, 2 SP"), "{f}");
        // Its 2 SP all fired at one target: the hex's infantry fires no more this phase.
        let l = legal(&bar, &st);
        assert!(
            !l.iter().any(|x| x.ends_with(":inf")),
            "the infantry fired once: {l:?}"
        );
    }
}

/// 12.4c (E37), 12.3c: a 2-hex line of 10 infantry SP (6 + 4) with 2 artillery SP on top fires 8
/// SP: 4 a hex, the guns counted once in the total wherever they fire from (12.4e) — 2 gun SP and
/// 6 infantry SP, split between two targets as the hexes fire.
#[test]
fn r12_4c_e37_a_2_hex_line_under_2_gun_sp_fires_8_sp_2_of_them_the_guns() {
    let bar = drill();
    let fp = hexmap::Footprint::line(&hexmap::Printed, hex("0707"), hexmap::Vertex::N, 2)
        .expect("a two-hex line");
    let hexes: Vec<String> = fp.hexes().iter().map(|h| h.to_string()).collect();
    let hs: Vec<&str> = hexes.iter().map(String::as_str).collect();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g1", &hs, "N", "unlimbered", 0);
    set(&bar, &mut st, "i1", &hs, "N", "line", 0);
    set(&bar, &mut st, "i2", &hs, "N", "line", 2);
    for (i, u) in ["g1", "i1", "i2"].iter().enumerate() {
        st.units[usize::from(unit(&bar, u))].order = i as u16;
    }
    // e1 in front of the first hex, e2 in front of the second.
    let front = |h: &str| {
        hex(h)
            .neighbour(hexmap::Vertex::N.front()[0])
            .expect("on the map")
            .to_string()
    };
    let (t1, t2) = (front(hs[0]), front(hs[1]));
    assert_ne!(t1, t2);
    set(&bar, &mut st, "e1", &[&t1], "S", "line", 0);
    set(&bar, &mut st, "e2", &[&t2], "S", "line", 0);
    fire_phase(&bar, &mut st, &["g1", "i1", "i2"]);
    let fires = |log: &[String]| -> Vec<String> {
        log.iter()
            .filter(|l| l.contains("Fire (12.1)"))
            .cloned()
            .collect()
    };
    let quiet = [0, 1, 0, 1, 0, 1, 0, 1];
    // The first hex's infantry at e1: its hex's 4 SP.
    let log = act(
        &bar,
        &mut st,
        &[
            "fire:e1:inf",
            &format!("fire-with:{}", hs[0]),
            "fire-resolve",
        ],
        &quiet,
    );
    let f = fires(&log);
    assert!(
        f[0].contains(&format!("from {}: IR 1/I line, 4 SP", hs[0])),
        "{f:?}"
    );
    // The second hex's infantry at e2: 8 − 2 (guns) − 4 = 2 SP, not its hex's 4.
    let log = act(
        &bar,
        &mut st,
        &[
            "fire:e2:inf",
            &format!("fire-with:{}", hs[1]),
            "fire-resolve",
        ],
        &quiet,
    );
    let f = fires(&log);
    assert!(
        f[0].contains(&format!("from {}: IR 1/I line, 2 SP", hs[1])),
        "{f:?}"
    );
    // The guns still fire their 2 SP, from either hex (12.4e).
    let l = legal(&bar, &st);
    assert!(l.contains(&"fire:e2:art".to_string()), "{l:?}");
    let log = act(
        &bar,
        &mut st,
        &[
            "fire:e2:art",
            &format!("fire-with:{}", hs[1]),
            "fire-resolve",
        ],
        &quiet,
    );
    let f = fires(&log);
    assert!(f[0].contains("2 SP (guns, 12.4c)"), "{f:?}");
}
