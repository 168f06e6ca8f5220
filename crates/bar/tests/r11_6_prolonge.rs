//! Artillery prolonge movement (11.6) as actions of the movement phase, on the drill ground
//! `tests/data/move` with the batteries of `common/field85.rs`: the 6-pdr `g1` marked 'P', the
//! battalion guns `g2` marked 'FP' (MA 5), the heavy battery `g3` with no mark. Each clause is
//! checked, each prohibition as an action refused with its reason (`movement::prolonge_refusal`).
mod common;
#[path = "common/field85.rs"]
mod field85;
use bar::Bar;
use bar::geom::FacingExt as _;
use bar::state::{Phase, State};
use common::*;
use engine::Ruleset;
use field85::*;

/// `id` is refused, and the reason names `rule`.
#[track_caller]
fn refused(bar: &Bar, st: &State, id: &str, rule: &str) {
    let mut t = st.clone();
    let e = bar.apply_id(&mut t, id, &mut Vec::new());
    assert!(e.is_err(), "{id} was accepted");
    let h = hex(id.trim_start_matches("prolonge:"));
    let why = bar::movement::prolonge_refusal(&bar.sc, st, h).expect("a reason");
    assert!(why.contains(rule), "{id}: {why}");
}

fn fired(bar: &Bar, st: &mut State, id: &str) {
    let u = unit(bar, id);
    st.activation.as_mut().unwrap().fired.push(u); // the movement phase is set up
}

#[test]
fn r11_6_a_p_battery_moves_one_hex_into_a_front_or_rear_hex_keeping_its_facing() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
    movement(&bar, &mut st, &["g1"]);
    act(&bar, &mut st, &["move:g1"], &[]);
    // Front hexes 0607, 0606; rear hexes 0807, 0806; never a flank hex.
    assert_eq!(
        ids(&bar, &st, "prolonge:"),
        [
            "prolonge:0607",
            "prolonge:0606",
            "prolonge:0807",
            "prolonge:0806"
        ]
    );
    refused(&bar, &st, "prolonge:0708", "front or rear");
    let l = label_of(&bar, &st, "prolonge:0806");
    assert!(l.contains("1 MP") && l.contains("(11.6)"), "{l}");
    let log = act(&bar, &mut st, &["prolonge:0806"], &[]);
    assert_logged(
        &log,
        "moves by prolonge, keeping its facing, to 0806 for 1 MP",
    );
    assert_logged(&log, "(11.6)");
    let g = &st.units[usize::from(unit(&bar, "g1"))];
    assert_eq!(hexes_of(&bar, &st, "g1"), ["0806"]);
    assert_eq!(g.facing.name(), "N");
    assert_eq!(g.formation, bar::geom::Formation::Unlimbered);
    // One hex only: its movement is over, with MPs left.
    assert_eq!(st.phase, Phase::Movement);
    assert!(!legal(&bar, &st).contains(&"move:g1".to_string()));
    invariants(&bar, &st);
}

#[test]
fn r11_6_a_p_battery_that_fired_may_not_move_by_prolonge_nor_turn_nor_limber() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
    movement(&bar, &mut st, &["g1"]);
    fired(&bar, &mut st, "g1");
    act(&bar, &mut st, &["move:g1"], &[]);
    assert!(ids(&bar, &st, "prolonge:").is_empty());
    refused(&bar, &st, "prolonge:0607", "'P' battery that fired");
    // 9.5 and 8.6a: no facing change, no limbering after firing either.
    assert!(ids(&bar, &st, "turn:").is_empty());
    assert!(ids(&bar, &st, "form:").is_empty());
}

#[test]
fn r11_6_a_fire_phase_firer_is_recorded_for_the_movement_phase() {
    // A25: "the previous fire phase" is this activation's: what the fire phase records.
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
    movement(&bar, &mut st, &["g1"]);
    let u = unit(&bar, "g1");
    let e = unit(&bar, "e1");
    bar::movement::note_fired(&mut st, &[(u, hex("0707")), (e, hex("1402"))]);
    // Only the activation's own units are recorded.
    assert_eq!(st.activation.as_ref().unwrap().fired, vec![u]);
}

#[test]
fn r11_6_an_fp_battery_moves_by_prolonge_even_after_firing() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g2", &["0707"], "N", "unlimbered");
    movement(&bar, &mut st, &["g2"]);
    fired(&bar, &mut st, "g2");
    act(&bar, &mut st, &["move:g2"], &[]);
    assert_eq!(ids(&bar, &st, "prolonge:").len(), 4);
    // 9.5 still forbids the facing change after firing.
    assert!(ids(&bar, &st, "turn:").is_empty());
    act(&bar, &mut st, &["prolonge:0607"], &[]);
    assert_eq!(hexes_of(&bar, &st, "g2"), ["0607"]);
}

#[test]
fn r11_6_a_battery_without_a_mark_never_moves_by_prolonge() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g3", &["0707"], "N", "unlimbered");
    movement(&bar, &mut st, &["g3"]);
    act(&bar, &mut st, &["move:g3"], &[]);
    assert!(ids(&bar, &st, "prolonge:").is_empty());
    refused(&bar, &st, "prolonge:0607", "no 'P' or 'FP' mark");
    assert!(!ids(&bar, &st, "turn:").is_empty(), "9.5 is still open");
}

#[test]
fn r11_6_not_when_disordered() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g2", &["0707"], "N", "unlimbered");
    st.units[usize::from(unit(&bar, "g2"))].disordered = true;
    movement(&bar, &mut st, &["g2"]);
    act(&bar, &mut st, &["move:g2"], &[]);
    assert!(ids(&bar, &st, "prolonge:").is_empty());
    refused(&bar, &st, "prolonge:0607", "18.5b");
}

#[test]
fn r11_6_limbered_and_prolonge_movement_are_not_combined() {
    let bar = field();
    // Unlimbering in place is no limbered movement: the guns may then move by prolonge.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g2", &["0707"], "NE", "limbered");
    movement(&bar, &mut st, &["g2"]);
    act(&bar, &mut st, &["move:g2"], &[]);
    let unlimber = ids(&bar, &st, "form:unlimbered:N:");
    act(&bar, &mut st, &[unlimber[0].as_str()], &[]);
    assert_eq!(
        ids(&bar, &st, "prolonge:").len(),
        4,
        "{:?}",
        legal(&bar, &st)
    );
    // Having moved limbered one hex, it unlimbers with MPs left but may not move by prolonge.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "g2", &["0707"], "NE", "limbered");
    movement(&bar, &mut st, &["g2"]);
    act(&bar, &mut st, &["move:g2"], &[]);
    let step = ids(&bar, &st, "step:");
    act(&bar, &mut st, &[step[0].as_str()], &[]);
    let unlimber = ids(&bar, &st, "form:unlimbered:N:");
    act(&bar, &mut st, &[unlimber[0].as_str()], &[]);
    let Phase::Moving(m) = &st.phase else {
        panic!("still moving: {:?}", st.phase)
    };
    assert!(m.left.to_string() == "2", "{}", m.left);
    assert!(ids(&bar, &st, "prolonge:").is_empty());
    let any = bar::movement::prolonge_refusal(&bar.sc, &st, hex("0506")).unwrap();
    assert!(any.contains("not combined"), "{any}");
}

#[test]
fn r11_6_not_into_terrain_prohibited_to_artillery() {
    let bar = field();
    let mut st = fresh(&bar);
    // 0303 is a pond (prohibited to artillery in the test TEC).
    set(&bar, &mut st, "g1", &["0403"], "N", "unlimbered");
    movement(&bar, &mut st, &["g1"]);
    act(&bar, &mut st, &["move:g1"], &[]);
    let l = ids(&bar, &st, "prolonge:");
    assert!(!l.contains(&"prolonge:0303".to_string()), "{l:?}");
    assert_eq!(l.len(), 3, "{l:?}");
    refused(&bar, &st, "prolonge:0303", "prohibited to artillery");
}

#[test]
fn r11_6_not_into_an_ezoc_unless_friendly_infantry_or_artillery_is_there() {
    let bar = field();
    let base = || {
        let mut st = fresh(&bar);
        // The enemy line in 0507 facing south: its ZOC is 0607 and 0606 (9.1).
        set(&bar, &mut st, "e1", &["0507"], "S", "line");
        set(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
        st
    };
    let mut st = base();
    movement(&bar, &mut st, &["g1"]);
    act(&bar, &mut st, &["move:g1"], &[]);
    assert_eq!(
        ids(&bar, &st, "prolonge:"),
        ["prolonge:0807", "prolonge:0806"]
    );
    refused(&bar, &st, "prolonge:0607", "11.9b");
    // Friendly infantry in 0607, friendly guns in 0606: both open.
    let mut st = base();
    set(&bar, &mut st, "i1", &["0607"], "N", "line");
    set(&bar, &mut st, "g3", &["0606"], "N", "unlimbered");
    movement(&bar, &mut st, &["g1"]);
    act(&bar, &mut st, &["move:g1"], &[]);
    let l = ids(&bar, &st, "prolonge:");
    assert!(
        l.contains(&"prolonge:0607".to_string()) && l.contains(&"prolonge:0606".to_string()),
        "{l:?}"
    );
    // Friendly cavalry does not open it.
    let mut st = base();
    set(&bar, &mut st, "k1", &["0607"], "N", "line");
    movement(&bar, &mut st, &["g1"]);
    act(&bar, &mut st, &["move:g1"], &[]);
    assert!(!ids(&bar, &st, "prolonge:").contains(&"prolonge:0607".to_string()));
    // Into the infantry's hex: the move is made and the stack is legal.
    let mut st = base();
    set(&bar, &mut st, "i1", &["0607"], "N", "line");
    movement(&bar, &mut st, &["g1"]);
    act(&bar, &mut st, &["move:g1", "prolonge:0607"], &[]);
    // The enemy in range may answer the step out of 0707 (12.8d).
    if matches!(st.phase, Phase::Reaction { .. }) {
        act(&bar, &mut st, &["pass"], &[]);
    }
    assert_eq!(hexes_of(&bar, &st, "g1"), ["0607"]);
    invariants(&bar, &st);
}

#[test]
fn r11_6_leaving_an_ezoc_by_prolonge_may_trigger_opportunity_fire() {
    let bar = field();
    let mut st = fresh(&bar);
    set(&bar, &mut st, "e1", &["0507"], "S", "line");
    set(&bar, &mut st, "g1", &["0607"], "N", "unlimbered");
    movement(&bar, &mut st, &["g1"]);
    act(&bar, &mut st, &["move:g1", "prolonge:0707"], &[]);
    // 12.8d: the reactive player answers before the guns leave the hex.
    assert!(matches!(st.phase, Phase::Reaction { .. }), "{:?}", st.phase);
    assert_eq!(bar.decider(&st).map(|s| s.0), Some(1));
    assert!(legal(&bar, &st).contains(&"opp-fire:inf".to_string()));
    act(&bar, &mut st, &["pass"], &[]);
    assert_eq!(hexes_of(&bar, &st, "g1"), ["0707"]);
    invariants(&bar, &st);
}

#[test]
fn r11_6_prolonge_marks_are_checked_when_the_data_is_read() {
    let e = field_with(|s| {
        s.replace(
            "id = \"i1\"\nname = \"IR 1/I\"",
            "id = \"i1\"\nname = \"IR 1/I\"\nprolonge = \"P\"",
        )
    })
    .unwrap_err();
    assert!(
        e.iter()
            .any(|x| x.contains("unit[0].prolonge: only artillery")),
        "{e:?}"
    );
    let e = field_with(|s| s.replace("prolonge = \"FP\"", "prolonge = \"X\"")).unwrap_err();
    assert!(e.iter().any(|x| x.contains("oob.toml")), "{e:?}");
}
