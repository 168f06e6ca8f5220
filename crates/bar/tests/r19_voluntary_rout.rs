//! Voluntary rout (19.10) on the movement drill ground `tests/data/move`: declared before
//! anything moves (19.10a), whole stacks with the artillery left in place (19.10b), the rout
//! retreats first and then MC (J) for every entitled unit that stayed (19.10c), +10 for those of
//! the brigade a router passed through (19.10d, 19.9e), MC (F) for the others passed (19.10e).
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

/// The movement phase of Blue's infantry brigade b1 (leader L1, range 8), with `units` of it
/// activated and `attached` units of other brigades.
fn movement(bar: &Bar, st: &mut State, units: &[&str], attached: &[&str]) {
    let us: Vec<u16> = units.iter().map(|u| unit(bar, u)).collect();
    let at: Vec<u16> = attached.iter().map(|u| unit(bar, u)).collect();
    for &u in us.iter().chain(&at) {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side: 0,
        brigades: vec![brigade(bar, "b1")],
        units: us,
        attached: at,
        ..Activation::default()
    });
    st.phase = Phase::Movement;
}

/// Run the rout retreats: take the first offered hex whenever the owner must choose (20.2g), and
/// the first unit for the losses (19.7d).
fn retreat_all(bar: &Bar, st: &mut State, log: &mut Vec<String>) {
    retreat_all_with(bar, st, log, &[]);
}

/// [`retreat_all`] with `dice` loaded for each step (the checks that follow the retreat roll them).
fn retreat_all_with(bar: &Bar, st: &mut State, log: &mut Vec<String>, dice: &[u8]) {
    for _ in 0..50 {
        let l = legal(bar, st);
        match l.first() {
            Some(a) if a.starts_with("retreat:") || a.starts_with("lose:") => {
                log.extend(act(bar, st, &[a.as_str()], dice));
            }
            _ => return,
        }
    }
}

fn rout_ids(bar: &Bar, st: &State) -> Vec<String> {
    legal(bar, st)
        .into_iter()
        .filter(|a| a.starts_with("rout"))
        .collect()
}

fn routed(bar: &Bar, st: &State, id: &str) -> bool {
    st.units[usize::from(unit(bar, id))].routed
}

#[test]
fn r19_10a_activated_infantry_and_cavalry_in_the_brigade_leaders_range_declare_before_any_move() {
    let bar = field();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0707");
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "i2", &["0709"], "N", "line");
    // Beyond the leader's command range of 8 (hexes are row, column).
    set(&bar, &mut st, "i3", &["0116"], "N", "line");
    // An attached battery within range: artillery may not rout (19.10a).
    set(&bar, &mut st, "g1", &["0609"], "N", "unlimbered");
    // A routed unit may not rout again.
    set(&bar, &mut st, "gr", &["0505"], "N", "line");
    st.units[usize::from(unit(&bar, "gr"))].routed = true;
    movement(&bar, &mut st, &["i1", "i2", "i3", "gr"], &["g1"]);
    assert_eq!(rout_ids(&bar, &st), ["rout:i1", "rout:i2"]);
    // The leader out of command does not take the choice away (19.10a, 7.6c).
    st.leaders[usize::from(leader(&bar, "L1"))].ooc = true;
    assert_eq!(rout_ids(&bar, &st), ["rout:i1", "rout:i2"]);
    // Once a unit has moved, no voluntary rout any more: "before any unit has moved".
    act(&bar, &mut st, &["move:i2", "stop"], &[]);
    assert_eq!(rout_ids(&bar, &st), Vec::<String>::new());
    assert!(legal(&bar, &st).contains(&"move:i1".to_string()));
}

#[test]
fn r19_10a_a_limited_activation_offers_no_voluntary_rout() {
    let bar = field();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0707");
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    movement(&bar, &mut st, &["i1"], &[]);
    assert_eq!(rout_ids(&bar, &st), ["rout:i1"]);
    st.activation.as_mut().unwrap().limited = true; // set above
    assert_eq!(rout_ids(&bar, &st), Vec::<String>::new());
}

#[test]
fn r19_10b_c_the_whole_stack_routs_first_the_guns_stay_and_the_others_test_j() {
    let bar = field();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0709");
    // A stack of two battalions in line with an unlimbered battery (10.3d), an enemy to the south.
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "i2", &["0707"], "N", "line");
    set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
    set(&bar, &mut st, "i3", &["0909"], "N", "line");
    set(&bar, &mut st, "e1", &["0712"], "N", "line");
    movement(&bar, &mut st, &["i1", "i2", "i3"], &["g1"]);
    // One declaration for the stack (its top unit), then only declarations or their end.
    assert_eq!(rout_ids(&bar, &st), ["rout:i1", "rout:i3"]);
    act(&bar, &mut st, &["rout:i1"], &[]);
    assert_eq!(
        legal(&bar, &st),
        ["rout:i3", "rout-done"],
        "declarations first, no move meanwhile"
    );
    // MC (J) dice: i3 and the battery each pass with 99.
    let mut log = act(&bar, &mut st, &["rout-done"], &[9, 9, 9, 9, 9, 9, 9, 9]);
    retreat_all(&bar, &mut st, &mut log);
    assert!(routed(&bar, &st, "i1") && routed(&bar, &st, "i2"));
    let i1 = &st.units[usize::from(unit(&bar, "i1"))];
    assert_ne!(i1.hexes, vec![hex("0707")], "the routers retreated");
    assert_eq!(
        st.units[usize::from(unit(&bar, "i2"))].hexes,
        i1.hexes,
        "the stack is not separated (19.10b, 20.2c)"
    );
    let g = &st.units[usize::from(unit(&bar, "g1"))];
    assert!(!g.routed && !g.eliminated, "{log:#?}");
    assert_eq!(g.hexes, vec![hex("0707")], "the guns stay (19.10b)");
    // 19.10c: the entitled units that stayed test (J), the battery too; not the routers.
    assert_logged(&log, "Voluntary rout (19.10c, morale check J): IR 2/I");
    assert_logged(
        &log,
        "Voluntary rout (19.10c, morale check J): Battery 6-pdr",
    );
    assert_not_logged(&log, "morale check J): IR 1/I");
    // The rout retreat came before the checks.
    let rout = log
        .iter()
        .position(|l| l.contains("rout retreat") || l.contains("Rout"));
    let j = log.iter().position(|l| l.contains("morale check J"));
    assert!(rout < j, "{log:#?}");
    // Then movement goes on for the rest.
    assert_eq!(st.phase, Phase::Movement);
    assert!(legal(&bar, &st).contains(&"move:i3".to_string()));
    assert!(!legal(&bar, &st).contains(&"move:i1".to_string()));
}

#[test]
fn r19_10c_a_failed_j_shakes_a_good_unit_and_routs_a_shaken_one() {
    let bar = field();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0909");
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "i2", &["1109"], "N", "line");
    set(&bar, &mut st, "i3", &["0911"], "N", "line");
    st.units[usize::from(unit(&bar, "i3"))].shaken = true;
    set(&bar, &mut st, "e1", &["0714"], "N", "line");
    movement(&bar, &mut st, &["i1", "i2", "i3"], &[]);
    // i2 and i3 roll 11 (< ER): i2 shaken, i3 (shaken) routs.
    let mut log = act(
        &bar,
        &mut st,
        &["rout:i1", "rout-done"],
        &[1, 1, 1, 1, 1, 1],
    );
    retreat_all(&bar, &mut st, &mut log);
    let i2 = &st.units[usize::from(unit(&bar, "i2"))];
    assert!(i2.shaken && !i2.routed, "{log:#?}");
    assert!(routed(&bar, &st, "i3"), "{log:#?}");
}

#[test]
fn r19_10d_e_passed_through_by_the_router_its_brigade_tests_j_plus_10_others_test_f() {
    let bar = field();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0909");
    // The enemy to the south: i1 routs north (away from it, toward Blue's rear, 20.2g; the owner
    // takes the north-west hex each time) through i3 (its brigade, entitled) and then through
    // the cavalry of another brigade, not activated.
    set(&bar, &mut st, "e1", &["1207"], "N", "line");
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    set(&bar, &mut st, "i3", &["0606"], "N", "line");
    set(&bar, &mut st, "k1", &["0506"], "N", "line");
    set(&bar, &mut st, "i2", &["1109"], "N", "line");
    movement(&bar, &mut st, &["i1", "i2", "i3"], &[]);
    let mut log = act(&bar, &mut st, &["rout:i1", "rout-done"], &[9; 16]);
    retreat_all(&bar, &mut st, &mut log);
    let path: Vec<String> = st.units[usize::from(unit(&bar, "i1"))]
        .hexes
        .iter()
        .map(|h| bar.sc.board.label(*h))
        .collect();
    assert_eq!(path, ["0305"], "{log:#?}");
    assert_logged(&log, "IR 1/I to 0606 → 0506 → 0405 → 0305");
    // 19.10d: i3 makes MC (J) at +10 and no (F).
    assert_logged(
        &log,
        "Voluntary rout (19.10c, morale check J): IR 2/I ER 30 + 10 (passed by voluntary, 19.9e)",
    );
    assert_not_logged(&log, "morale check F): IR 2/I");
    // 19.10c without the pass: i2 tests (J) with no +10.
    assert_logged(
        &log,
        "Voluntary rout (19.10c, morale check J): IR 1/II ER 30;",
    );
    // 19.10e: the cavalry, not entitled, tests (F), not (J).
    assert_logged(&log, "morale check F): KR 1");
    assert_not_logged(&log, "morale check J): KR 1");
}

#[test]
fn r19_7e_a_two_hex_line_routing_voluntarily_keeps_the_hex_its_owner_picks_then_retreats() {
    let bar = field();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0909");
    set(&bar, &mut st, "e1", &["1207"], "N", "line");
    // A 2-hex line: 0706 (right) and 0707 (left).
    set(&bar, &mut st, "i1", &["0706", "0707"], "N", "line");
    movement(&bar, &mut st, &["i1"], &[]);
    act(&bar, &mut st, &["rout:i1", "rout-done"], &[]);
    // 19.7e: the owner picks either hex of the formation; the retreat starts there.
    assert_eq!(legal(&bar, &st), ["rout-hex:0706", "rout-hex:0707"]);
    assert_eq!(bar.decider(&st), Some(engine::Seat(0)));
    let mut log = act(&bar, &mut st, &["rout-hex:0707"], &[]);
    retreat_all(&bar, &mut st, &mut log);
    assert_logged(&log, "IR 1/I routs from 0707 (19.7e)");
    assert_logged(&log, "Rout retreat (20.2): IR 1/I to 06");
    let s = &st.units[usize::from(unit(&bar, "i1"))];
    assert!(s.routed && s.hexes.len() == 1, "{log:#?}");
    assert_eq!(
        hex("0707").distance(s.hexes[0]),
        4,
        "4 hexes from the hex it kept"
    );
}

#[test]
fn r19_10c_12_9j_an_sp_lost_to_a_lone_j_contracts_the_whole_stack() {
    // 19.10c: only the entitled units test (J); IR 1/II (entitled) shares a 2-hex line with the
    // spare battalion (not activated, not entitled), 2 + 3 SP: just the 5 SP two hexes need
    // (line_sp.3 two_hex_min). Its J rolls 00, a special result: −1 SP (19.1a). The stack
    // now has 4 SP: the whole of it contracts (12.9j, 10.8d), not IR 1/II alone — a unit
    // contracting alone would leave one stack on two footprints (10.1d). Found by the catalogue's
    // property test (prague-gap, seed 37412).
    let bar = field();
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0706");
    set(&bar, &mut st, "i1", &["0703"], "N", "line");
    set(&bar, &mut st, "i2", &["0907", "0908"], "N", "line");
    set(&bar, &mut st, "sp1", &["0907", "0908"], "N", "line");
    st.units[usize::from(unit(&bar, "i2"))].lost = 4;
    st.units[usize::from(unit(&bar, "sp1"))].lost = 3;
    set(&bar, &mut st, "e1", &["0103"], "S", "line");
    movement(&bar, &mut st, &["i1", "i2"], &[]);
    // The J comes after the rout retreat (19.10c): the dice go with each of its steps.
    let dice = [0, 0, 9, 9, 9, 9, 9, 9];
    let mut log = act(&bar, &mut st, &["rout:i1", "rout-done"], &dice);
    retreat_all_with(&bar, &mut st, &mut log, &dice);
    assert_logged(&log, "Voluntary rout (19.10c, morale check J): IR 1/II");
    assert_logged(&log, "d100 tens 0, units 0");
    assert_not_logged(&log, "morale check J): Spare battalion");
    assert_logged(&log, "IR 1/II loses 1 SP");
    let i2 = &st.units[usize::from(unit(&bar, "i2"))];
    let sp1 = &st.units[usize::from(unit(&bar, "sp1"))];
    assert_eq!(i2.hexes.len(), 1, "{log:#?}");
    assert_eq!(sp1.hexes, i2.hexes, "one stack, one footprint (10.1d)");
}
