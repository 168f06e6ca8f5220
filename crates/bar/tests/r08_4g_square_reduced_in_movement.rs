//! 8.4g, 12.9j with 19.5e in the movement phase: a square that a disorder check's special result
//! (18.1a) reduces below 3 SP becomes a disordered line whose owner picks its facing, and he picks
//! it before the movement phase goes on. Found by `simulate prague-schwerin --games 1000 --check`
//! (seed 1000988): the facing was left queued, and a later illegal-stack rout (10.13b) stood over
//! two hexes at the next decision (19.7e).
pub mod cc;
mod common;
use bar::geom::Formation;
use bar::state::Phase;
use cc::*;
use common::*;

#[test]
fn r8_4g_a_square_reduced_by_the_interpenetration_check_faces_before_movement_goes_on() {
    let bar = field();
    let mut st = fresh(&bar);
    // IR 4 (4 SP, one lost: 3) in square at 0708; KR 1 (cavalry) in march column at 0707 rides
    // through it to 0709: an interpenetration (10.7), the DC (A) for both at the end of its move.
    place_as(&bar, &mut st, "u4", &["0708"], "N", "square");
    st.units[usize::from(unit(&bar, "u4"))].lost = 1;
    place_as(&bar, &mut st, "k1", &["0707"], "W", "march");
    // IR 5 is activated too, still to move when the facing is picked.
    place(&bar, &mut st, "u5", "0303", "N");
    activate(&bar, &mut st, &["k1", "u5"]);
    let mut log = run(&bar, &mut st, Phase::Movement, &[]);
    // The mover's DC (A) passes (99); the square's rolls 00: the special result, −1 SP.
    log.extend(act(
        &bar,
        &mut st,
        &["move:k1", "step:0708", "step:0709", "stop"],
        &[9, 9, 0, 0, 9],
    ));
    assert_logged(
        &log,
        "IR 4 below 3 SP: the square becomes a disordered line (8.4g, 12.9j)",
    );
    let u4 = &st.units[usize::from(unit(&bar, "u4"))];
    assert_eq!(u4.formation, Formation::Line);
    assert!(u4.disordered);
    // Its owner faces the new line now (19.5e), not after the rest of the movement phase.
    let u4 = unit(&bar, "u4");
    assert!(
        matches!(st.phase, Phase::LineFacing { unit } if unit == u4),
        "phase {:?}, jobs {:?}",
        st.phase,
        st.jobs
    );
    // A facing toward any hexpoint, and no other formation (8.4g: "a single-hex line").
    assert_eq!(
        legal(&bar, &st),
        [
            "face:N", "face:NE", "face:SE", "face:S", "face:SW", "face:NW"
        ]
    );
    let log = act(&bar, &mut st, &["face:SW"], &[]);
    assert_logged(&log, "IR 4 faces SW, a one-hex line (8.4g)");
    assert_eq!(facing(&bar, &st, "u4"), "SW");
    assert!(st.jobs.is_empty());
    assert_eq!(st.phase, Phase::Movement);
    assert!(legal(&bar, &st).contains(&"move:u5".to_string()));
}
