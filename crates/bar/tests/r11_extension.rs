//! Extension and contraction during movement (11.5), and the DC (A) sum of the 18.2b example
//! (E63), on the drill ground `tests/data/move` (hexes
//! are row then column, columns numbered westward: 0706 is east of 0707; the army's 3-rank line
//! holds two hexes from 5 SP, T5).
mod common;
use bar::Bar;
use bar::geom::Formation;
use bar::state::{Activation, Phase, State};
use common::*;
use engine::Ruleset;

fn field() -> Bar {
    Bar::from_dir(&data().join("move"), &data()).unwrap() // the fixture is valid
}

/// Place a unit: hexes, facing, formation.
fn set(bar: &Bar, st: &mut State, id: &str, hexes: &[&str], facing: &str, formation: &str) {
    let f = Formation::parse(formation).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.iter().map(|h| hex(h)).collect();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
}

/// The movement phase of Blue with `units` activated (and a spare battalion far away).
fn movement(bar: &Bar, st: &mut State, units: &[&str]) {
    let mut us: Vec<u16> = units.iter().map(|u| unit(bar, u)).collect();
    us.push(unit(bar, "sp1"));
    for &u in &us {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side: 0,
        units: us,
        ..Activation::default()
    });
    st.phase = Phase::Movement;
}

fn hexes_of(bar: &Bar, st: &State, id: &str) -> Vec<String> {
    st.units[usize::from(unit(bar, id))]
        .hexes
        .iter()
        .map(|h| bar.sc.board.label(*h))
        .collect()
}

fn left(st: &State) -> String {
    match &st.phase {
        Phase::Moving(m) => m.left.to_string(),
        p => panic!("not moving: {p:?}"),
    }
}

fn ids(bar: &Bar, st: &State, prefix: &str) -> Vec<String> {
    legal(bar, st)
        .into_iter()
        .filter(|x| x.starts_with(prefix))
        .collect()
}

/// The cost a label shows ("(2 MP)").
fn cost(bar: &Bar, st: &State, id: &str) -> String {
    let a = bar
        .legal_actions(st)
        .into_iter()
        .find(|a| bar.action_id(a) == id)
        .unwrap_or_else(|| panic!("{id} not legal: {:?}", legal(bar, st)));
    let l = bar.action_label(st, &a);
    let i = l.find('(').expect("a cost in the label");
    let j = l[i..].find(" MP").expect("MP in the label") + i;
    l[i + 1..j].to_string()
}

#[test]
fn r11_5a_c_g_a_line_extends_at_either_end_for_1_mp_plus_the_terrain_its_sps_laid_out_again() {
    let bar = field();
    let mut st = fresh(&bar);
    // Woods east (1204, the right), town west (1206, the left) of a 6-SP line at 1205 facing north.
    set(&bar, &mut st, "i1", &["1205"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert_eq!(
        ids(&bar, &st, "extend:"),
        ["extend:1204", "extend:1206"],
        "either side of the original hex (11.5c)"
    );
    assert_eq!(cost(&bar, &st, "extend:1204"), "4", "1 + woods 3");
    assert_eq!(cost(&bar, &st, "extend:1206"), "3", "1 + town 2");
    assert_eq!(ids(&bar, &st, "contract:"), Vec::<String>::new());
    act(&bar, &mut st, &["extend:1206"], &[]);
    assert_eq!(
        hexes_of(&bar, &st, "i1"),
        ["1205", "1206"],
        "the right end first"
    );
    assert_eq!(left(&st), "1");
    // 11.5g: 3 and 3 SP now (8.1a).
    let u = unit(&bar, "i1");
    assert_eq!(
        bar::formation::sp_layout(&bar.sc, &st, &[u], Formation::Line, 2),
        Some(vec![3, 3])
    );
    // Two hexes is the most 6 infantry SP hold: no further extension.
    assert_eq!(ids(&bar, &st, "extend:"), Vec::<String>::new());
}

#[test]
fn r11_5a_not_without_the_sps_nor_disordered() {
    let bar = field();
    // 4 SP are below the two-hex minimum of 5 (T5).
    let mut st = fresh(&bar);
    set(&bar, &mut st, "gr", &["0707"], "N", "line");
    movement(&bar, &mut st, &["gr"]);
    act(&bar, &mut st, &["move:gr"], &[]);
    assert_eq!(ids(&bar, &st, "extend:"), Vec::<String>::new());
    // A disordered line may not (11.5a).
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    st.units[usize::from(unit(&bar, "i1"))].disordered = true;
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert_eq!(ids(&bar, &st, "extend:"), Vec::<String>::new());
}

#[test]
fn r11_5c_a_two_hex_line_contracts_at_either_end_for_1_mp_plus_the_hex_it_moves_into() {
    let bar = field();
    let mut st = fresh(&bar);
    // A 2-hex line 1204 (woods, right) – 1205 (left).
    set(&bar, &mut st, "i1", &["1204", "1205"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert_eq!(
        ids(&bar, &st, "contract:"),
        ["contract:1204", "contract:1205"]
    );
    // Giving up the left hex moves its troops into the woods: 1 + 3; the right into clear: 1 + 1.
    assert_eq!(cost(&bar, &st, "contract:1205"), "4");
    assert_eq!(cost(&bar, &st, "contract:1204"), "2");
    act(&bar, &mut st, &["contract:1204"], &[]);
    assert_eq!(hexes_of(&bar, &st, "i1"), ["1205"]);
    assert_eq!(left(&st), "2");
}

#[test]
fn r11_5e_a_hook_extends_only_opposite_its_hook_for_3_mp_in_clear_and_contracts_only_there() {
    let bar = field();
    let mut st = fresh(&bar);
    // The 11.5e example: a right hook extends onto its left flank in clear for 1 + 1 + 1.
    set(&bar, &mut st, "i1", &["0707"], "N", "hook-right");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let ext = ids(&bar, &st, "extend:");
    assert_eq!(ext.len(), 1, "{ext:?}");
    assert_eq!(cost(&bar, &st, &ext[0]), "3");
    act(&bar, &mut st, &[ext[0].as_str()], &[]);
    let hx = hexes_of(&bar, &st, "i1");
    assert_eq!(
        hx[0], "0707",
        "the new hex is on the left: the hook hex stays the right end"
    );
    assert_eq!(left(&st), "1");
    assert_eq!(hx, ["0707", "0708"]);
    // A 2-hex left hook contracts only by bringing its flank hex (the right end) onto its hook
    // hex (the left end).
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0706", "0707"], "N", "hook-left");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    assert_eq!(ids(&bar, &st, "extend:"), Vec::<String>::new());
    assert_eq!(ids(&bar, &st, "contract:"), ["contract:0706"]);
    assert_eq!(
        cost(&bar, &st, "contract:0706"),
        "3",
        "1 + clear 1 + hook 1"
    );
}

#[test]
fn r11_5d_a_march_column_lengthens_as_its_head_moves_and_contracts_for_the_entry() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "E", "march");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    // A single hex cannot contract; it may step, or lengthen as its head steps (0706 is east).
    assert_eq!(ids(&bar, &st, "contract:"), Vec::<String>::new());
    assert_eq!(ids(&bar, &st, "extend:"), ["extend:0706"]);
    // The head's normal cost (clear, 1), nothing for the extension itself.
    assert_eq!(cost(&bar, &st, "extend:0706"), "1");
    act(&bar, &mut st, &["extend:0706"], &[]);
    assert_eq!(
        hexes_of(&bar, &st, "i1"),
        ["0706", "0707"],
        "the new hex at the rear"
    );
    assert_eq!(left(&st), "3");
    // Two hexes is the most 6 infantry SP hold (8.1d).
    assert_eq!(ids(&bar, &st, "extend:"), Vec::<String>::new());
    // Contraction: the tail comes into the head's hex, paying its entry (clear column 1).
    assert_eq!(cost(&bar, &st, "contract:0707"), "1");
    act(&bar, &mut st, &["contract:0707"], &[]);
    assert_eq!(hexes_of(&bar, &st, "i1"), ["0706"]);
    assert_eq!(left(&st), "2");
}

#[test]
fn r11_5f_dc_a_terrain_entered_by_an_extension_counts_only_if_the_unit_spends_more() {
    let bar = field();
    // Extending into the town (3 MP) and stopping: no DC (A).
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["1205"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let log = act(&bar, &mut st, &["extend:1206", "stop"], &[]);
    assert_not_logged(&log, "Movement actions");
    // Extending, then one more step: DC (A) at +5 for the town (11.5f, 11.2d).
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["1205"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    act(&bar, &mut st, &["extend:1206"], &[]);
    let step = ids(&bar, &st, "step:")[0].clone();
    let log = act(&bar, &mut st, &[step.as_str()], &[9, 9]);
    assert_logged(
        &log,
        "Movement actions (18.2b, disorder check A): IR 1/I ER 30 + 5",
    );
}

#[test]
fn r11_5h_an_extension_gives_the_reactive_player_his_chance_like_a_formation_change() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    // An Austrian line two hexes north, facing south: i1 is in its range and front.
    set(&bar, &mut st, "e1", &["0507"], "S", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let ext = ids(&bar, &st, "extend:")[0].clone();
    act(&bar, &mut st, &[ext.as_str()], &[]);
    assert!(matches!(st.phase, Phase::Reaction { .. }), "{:?}", st.phase);
    let answers = legal(&bar, &st);
    assert!(answers.contains(&"pass".to_string()), "{answers:?}");
    assert!(
        answers.iter().any(|a| a.starts_with("opp-fire:inf")),
        "the Austrian line may fire (12.8): {answers:?}"
    );
    act(&bar, &mut st, &["pass"], &[]);
    assert!(matches!(st.phase, Phase::Moving(_)));
    // Nobody near: the log says why nobody was asked.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1"], &[]);
    let log = act(&bar, &mut st, &[ext.as_str()], &[]);
    assert_logged(&log, "IR 1/I a facing/formation change in 07");
}

/// Apply actions, letting every reactive chance pass (12.8: nobody fires yet).
fn go(bar: &Bar, st: &mut State, ids: &[&str], dice: &[u8]) -> Vec<String> {
    let mut log = Vec::new();
    st.loaded = dice.to_vec();
    for id in ids {
        let keep = std::mem::take(&mut st.loaded);
        while matches!(st.phase, Phase::Reaction { .. }) {
            log.extend(act(bar, st, &["pass"], &[]));
        }
        st.loaded = keep;
        let mut ev = Vec::new();
        bar.apply_id(st, id, &mut ev)
            .unwrap_or_else(|e| panic!("{id}: {e:?}; legal {:?}", legal(bar, st)));
        log.extend(ev.iter().map(|e| e.to_string()));
    }
    log
}

#[test]
fn r18_2b_e63_rapid_march_village_interpenetration_and_a_leader_make_dc_a_plus_15() {
    let bar = field();
    let mut st = fresh(&bar);
    // IR 1/I in march column at 1208 facing east (toward lower columns); IR 1/II in line in 1207
    // on its way; the town at 1206 (the fixture's village without general order, DC (A) terrain);
    // the brigadier (ER bonus −5) waiting in 1205.
    set(&bar, &mut st, "i1", &["1208"], "E", "march");
    set(&bar, &mut st, "i2", &["1207"], "N", "line");
    put_leader(&bar, &mut st, "L1", "1205");
    movement(&bar, &mut st, &["i1"]);
    let log = go(
        &bar,
        &mut st,
        &[
            "move:i1",
            "rapid",
            "step:1207",
            "step:1206",
            "step:1205",
            "stop",
        ],
        &[9, 9, 9, 9],
    );
    // 18.2b example: +5 (rapid march) +5 (village) +10 (interpenetration) −5 (leader) = +15.
    assert_logged(
        &log,
        "Movement actions (18.2b, disorder check A): IR 1/I ER 30 + 5 (rapid march, 11.4a) + 5 (non clear, 11.2e) + 10 (interpenetration, 18.2b) − 5 (leader Blue infantry brigadier, 21.3) = 45",
    );
    // The battalion passed through tests too (10.7a, 18.2g).
    assert_logged(
        &log,
        "disorder check A): IR 1/II ER 30 + 10 (interpenetration",
    );
}

#[test]
fn r10_6f_the_stacking_order_changes_between_moves_not_while_a_unit_moves() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "i1", &["0807"], "N", "line");
    set(&bar, &mut st, "i2", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1", "i2"]);
    let order = |st: &State| {
        let mut v = [unit(&bar, "i1"), unit(&bar, "i2")];
        v.sort_by_key(|&u| st.units[usize::from(u)].order);
        v.iter()
            .map(|&u| bar.sc.units[usize::from(u)].id.clone())
            .collect::<Vec<_>>()
    };
    // Apart, nothing to reorder.
    assert_eq!(ids(&bar, &st, "top:"), Vec::<String>::new());
    // IR 1/I moves into IR 1/II's hex and stops: while it moves, no reordering.
    act(&bar, &mut st, &["move:i1"], &[]);
    let step = ids(&bar, &st, "step:")
        .into_iter()
        .find(|s| s == "step:0707")
        .expect("0707 is a front hex of 0807 facing north");
    act(&bar, &mut st, &[step.as_str()], &[]);
    assert_eq!(ids(&bar, &st, "top:"), Vec::<String>::new());
    act(&bar, &mut st, &["stop"], &[]);
    // Once its movement is complete the stack may be reordered (10.6f, no MP, 10.6h).
    assert_eq!(order(&st), ["i1", "i2"]);
    assert_eq!(ids(&bar, &st, "top:"), ["top:i2"]);
    let log = act(&bar, &mut st, &["top:i2"], &[]);
    assert_logged(&log, "puts IR 1/II on top of its stack (10.6f)");
    assert_eq!(order(&st), ["i2", "i1"]);
    assert!(matches!(st.phase, Phase::Movement));
    // Each unit once in the phase: that is enough for any order.
    assert_eq!(ids(&bar, &st, "top:"), ["top:i1"]);
}

/// The line of `ids` (top first) over 1205-1206 facing north, its right end 1205, in the
/// movement phase; `lost` SP taken from i1.
fn two_hex_stack(bar: &Bar, ids: &[&str], i1_lost: u8) -> State {
    let mut st = fresh(bar);
    for (i, id) in ids.iter().enumerate() {
        set(bar, &mut st, id, &["1205", "1206"], "N", "line");
        st.units[usize::from(unit(bar, id))].order = i as u16;
    }
    st.units[usize::from(unit(bar, "i1"))].lost = i1_lost;
    movement(bar, &mut st, ids);
    st
}

#[test]
fn r10_8d_example_two_4_sp_units_of_a_2_hex_line_each_adapt_to_1_hex_when_one_moves() {
    // 10.8d example: "Two 4-SP infantry units make up a 2-hex line. One unit moves while the
    // other remains stationary. If a 2-hex line requires at least 5 SPs then each unit will adapt
    // automatically and immediately change from 2 hexes to 1 hex." (T5 here: 5 SP.) IR 1/I has
    // lost 2 of its 6 SP; the grenadiers have 4.
    let bar = field();
    let mut st = two_hex_stack(&bar, &["gr", "i1"], 2);
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
    let log = act(&bar, &mut st, &["move:gr"], &[]);
    assert_logged(&log, "10.8d");
    assert_eq!(
        hexes_of(&bar, &st, "gr"),
        ["1205"],
        "the mover, the right end"
    );
    assert_eq!(hexes_of(&bar, &st, "i1"), ["1205"], "the one staying");
    // "This automatic contraction costs no MP": the grenadiers' whole MA is left.
    assert_eq!(left(&st), "4");
    act(&bar, &mut st, &["stop"], &[]);
    assert_eq!(bar.check_invariants(&st), Vec::<String>::new());
}

#[test]
fn r10_8d_only_the_part_too_weak_for_two_hexes_contracts() {
    // 10.8d: "required to adjust its length if enough SPs leave the original stack". IR 1/I
    // (6 SP) still fills two hexes alone; the grenadiers (4) do not.
    let bar = field();
    // The grenadiers move: they contract, IR 1/I keeps the line's two hexes.
    let mut st = two_hex_stack(&bar, &["gr", "i1"], 0);
    act(&bar, &mut st, &["move:gr"], &[]);
    assert_eq!(hexes_of(&bar, &st, "gr"), ["1205"]);
    assert_eq!(hexes_of(&bar, &st, "i1"), ["1205", "1206"]);
    // IR 1/I moves: it keeps its two hexes; the grenadiers left behind contract at once.
    let mut st = two_hex_stack(&bar, &["i1", "gr"], 0);
    let log = act(&bar, &mut st, &["move:i1"], &[]);
    assert_logged(&log, "10.8d");
    assert_eq!(hexes_of(&bar, &st, "i1"), ["1205", "1206"]);
    assert_eq!(hexes_of(&bar, &st, "gr"), ["1205"]);
    // The whole stack moving together does not separate.
    let mut st = two_hex_stack(&bar, &["i1", "gr"], 0);
    let log = act(&bar, &mut st, &["move-stack:i1"], &[]);
    assert_not_logged(&log, "10.8d");
    assert_eq!(hexes_of(&bar, &st, "gr"), ["1205", "1206"]);
}

/// Part of a 2-hex line routs (the grenadiers, 4 SP), IR 1/I (4 SP after losses) stays: the
/// routers leave through the owner's choice of hex (19.7e, `rout-hex`).
fn partial_rout(bar: &Bar, i1_lost: u8, keep: &str) -> (State, Vec<String>) {
    let mut st = two_hex_stack(bar, &["gr", "i1"], i1_lost);
    st.activation = None;
    st.jobs.push(bar::state::Job::Rout {
        units: vec![unit(bar, "gr")],
        from: vec![hex("1005")],
    });
    let mut log = run(bar, &mut st, Phase::Idle, &[5, 5, 5, 5]);
    assert!(
        matches!(st.phase, Phase::RoutHex { .. }),
        "19.7e: the owner picks the hex the routers keep: {:?}",
        st.phase
    );
    log.extend(act(
        bar,
        &mut st,
        &[&format!("rout-hex:{keep}")],
        &[5, 5, 5, 5],
    ));
    (st, log)
}

#[test]
fn r21_2c_10_8d_friends_left_by_a_partial_rout_contract_to_what_they_fill() {
    // 21.2c: "part of a stack routs and the other part stays in place"; the part staying is a
    // line again whose SPs (4; T5 here: 5 for two hexes) no longer fill its two hexes: it adapts
    // at once and free as 10.8d's units left by a separation do, to its right end.
    let bar = field();
    for keep in ["1205", "1206"] {
        let (st, log) = partial_rout(&bar, 2, keep);
        assert_logged(
            &log,
            "left by friends who rout: contracts at once, free, from",
        );
        assert_eq!(hexes_of(&bar, &st, "i1"), ["1205"], "{log:#?}");
        assert!(st.units[usize::from(unit(&bar, "gr"))].routed);
        assert!(!st.units[usize::from(unit(&bar, "i1"))].routed);
    }
    // IR 1/I at full strength (6 SP) still fills the two hexes alone: it keeps them.
    let (st, log) = partial_rout(&bar, 0, "1206");
    assert_not_logged(&log, "left by friends who rout");
    assert_eq!(hexes_of(&bar, &st, "i1"), ["1205", "1206"]);
}
