//! Cavalry pursuit (16.0–16.3), the end of pursuit (10.6g, 10.8b, 10.13b) and the worked example
//! E62 (16.2c) on the pursuit drill ground `tests/data/pursuit` (the close combat drill ground with
//! more units) and the test charts of `tests/data/ccbox` (T13: difference 3…4 '1D/1R', 5…6 '-/2R';
//! T19: the re-roll is the PP; DC (F): +10 for a recall).
pub mod cc;
mod common;
use bar::Bar;
use bar::state::Phase;
use cc::*;
use common::*;

/// The pursuit drill ground.
fn field() -> Bar {
    Bar::from_dir(&data().join("pursuit"), &data()).unwrap() // the fixture is valid
}

/// KR 1 (12 SP heavy cavalry, ER 28, CV 0) at 0707 facing N attacks the 3-SP Red IR 3 at 0607
/// facing S; both pass their morale checks (B); '1D/1R' (5 + 2 − 4 = +3): the infantry loses 1
/// and routs 4 hexes, the cavalry loses 1 and is disordered; then the advance into 0607.
fn e62(bar: &Bar) -> (bar::State, Vec<String>) {
    e62_with(bar, |_| {})
}

/// E62's combat with more units placed by `more`.
fn e62_with(bar: &Bar, more: impl Fn(&mut bar::State)) -> (bar::State, Vec<String>) {
    let mut st = fresh(bar);
    place(bar, &mut st, "k1", "0707", "N");
    place(bar, &mut st, "r3", "0607", "S");
    more(&mut st);
    activate(bar, &mut st, &["k1"]);
    close_combat(bar, &mut st, &[]);
    let mut log = fight(bar, &mut st, &["attack:k1", "cc-done"], &[9, 9, 9, 9, 5, 4]);
    no_leader(bar, &mut st, &mut log);
    settle(bar, &mut st, &mut log);
    (st, log)
}

/// A leader stacked with the attacker is offered to give his CV (21.2b): not here (the dice
/// loaded stay for the round).
fn no_leader(bar: &Bar, st: &mut bar::State, log: &mut Vec<String>) {
    if legal(bar, st).contains(&"cc-no-leader".to_string()) {
        let dice = std::mem::take(&mut st.loaded);
        log.extend(fight(bar, st, &["cc-no-leader"], &dice));
    }
}

fn u(bar: &Bar, st: &bar::State, id: &str) -> bar::state::UnitState {
    st.units[usize::from(unit(bar, id))].clone()
}

#[test]
fn r16_2_e62_pursuit_path_losses_recall_check_and_exploitation() {
    let bar = field();
    let (mut st, mut log) = e62(&bar);
    assert_logged(&log, "'1D/1R' (T13)");
    assert!(u(&bar, &st, "r3").routed);
    assert_eq!(u(&bar, &st, "r3").lost, 1);
    assert!(u(&bar, &st, "k1").disordered);
    // The advance, then the PP roll: 7, disordered: halved (rounded) to 4.
    log.extend(act(&bar, &mut st, &["cc-advance:k1:0607"], &[7]));
    assert_logged(
        &log,
        "Pursuit (16.2a): KR 1: pursuit points d10 7 = 7, disordered: halved (rounded) to 4",
    );
    assert_logged(
        &log,
        "Rout retreat (20.2): Red IR 3 to 0608 → 0609 → 0610 → 0611",
    );
    // The cavalry faces the first path hex and follows the path, facing the next hex: each path
    // hex entered costs the infantry 1 SP.
    assert!(matches!(st.phase, Phase::Pursuit(_)));
    assert_eq!(legal(&bar, &st), ["pursue:SW", "pursue:NW", "recall"]);
    log.extend(act(&bar, &mut st, &["pursue:SW"], &[]));
    assert_eq!(hexes_of(&bar, &st, "k1"), ["0608"]);
    assert_eq!(u(&bar, &st, "r3").lost, 2);
    // The second path hex takes its last SP: pursuit movement ends; the recall DC (F) passes (99);
    // 2 PP are left for exploitation.
    let next = legal(&bar, &st)[0].clone();
    log.extend(act(&bar, &mut st, &[next.as_str()], &[9, 9]));
    assert_eq!(hexes_of(&bar, &st, "k1"), ["0609"]);
    assert!(u(&bar, &st, "r3").eliminated);
    assert_logged(&log, "Red IR 3 eliminated: pursuit movement ends");
    assert_logged(&log, "(16.3, disorder check F): KR 1");
    assert_logged(&log, "recalled");
    assert_logged(&log, "Pursuit (16.2b): KR 1: 2 PP left for exploitation");
    // One facing change (1 PP), then one hex forward (1 PP): the exploitation is over.
    let l = legal(&bar, &st);
    assert!(l.contains(&"exploit-done".to_string()), "{l:?}");
    assert_eq!(
        l.iter().filter(|a| a.starts_with("exploit-turn:")).count(),
        5
    );
    log.extend(act(&bar, &mut st, &["exploit-turn:S"], &[]));
    let l = legal(&bar, &st);
    let step = l
        .iter()
        .find(|a| a.starts_with("exploit:"))
        .unwrap()
        .clone(); // a front hex
    log.extend(act(&bar, &mut st, &[step.as_str()], &[]));
    assert_logged(&log, "exploitation over (no PP left)");
    // It ends the pursuit disordered (the '1D' of the combat).
    assert!(u(&bar, &st, "k1").disordered);
    assert!(!u(&bar, &st, "k1").shaken);
    assert_logged(&log, "Pursuit (16.2c): KR 1: end of pursuit");
    assert_logged(&log, "Close combat (13.0): the close combat phase is over");
    sound(&bar, &st);
}

/// KR 1 at 0707 facing N attacks the 3-SP Red IR 3 at 0607 facing S; '-/2R' (9 + 2 − 6 = +5): the
/// infantry is left with 1 SP and routs; the cavalry, in good order, advances into 0607 and rolls
/// `pp` for its pursuit points. The extra units are placed by `more` first.
fn chase(bar: &Bar, pp: u8, more: impl Fn(&mut bar::State)) -> (bar::State, Vec<String>) {
    chase_rolling(bar, &[pp], more)
}

/// `chase` with the dice of the pursuit's start loaded.
fn chase_rolling(
    bar: &Bar,
    pp: &[u8],
    more: impl Fn(&mut bar::State),
) -> (bar::State, Vec<String>) {
    let mut st = fresh(bar);
    place(bar, &mut st, "k1", "0707", "N");
    place(bar, &mut st, "r3", "0607", "S");
    more(&mut st);
    activate(bar, &mut st, &["k1"]);
    close_combat(bar, &mut st, &[]);
    let mut log = fight(bar, &mut st, &["attack:k1", "cc-done"], &[9, 9, 9, 9, 9, 6]);
    no_leader(bar, &mut st, &mut log);
    settle(bar, &mut st, &mut log);
    assert_logged(&log, "'-/2R' (T13)");
    log.extend(act(bar, &mut st, &["cc-advance:k1:0607"], pp));
    (st, log)
}

#[test]
fn r16_3a_a_successful_voluntary_recall_ends_the_pursuit_without_exploitation() {
    let bar = field();
    let (mut st, mut log) = chase(&bar, 6, |_| {});
    assert_logged(&log, "KR 1: pursuit points d10 6 = 6 PP");
    // DC (F) 99: recalled before any pursuit.
    log.extend(act(&bar, &mut st, &["recall"], &[9, 9]));
    assert_logged(
        &log,
        "Pursuit (16.3a): KR 1: recalled, pursuit movement ends before any pursuit (16.1b)",
    );
    assert_eq!(hexes_of(&bar, &st, "k1"), ["0607"]);
    assert_eq!(u(&bar, &st, "r3").lost, 2);
    assert_not_logged(&log, "exploitation");
    assert!(!u(&bar, &st, "k1").disordered);
    assert_logged(&log, "the close combat phase is over");
    sound(&bar, &st);
}

#[test]
fn r16_3b_a_failed_recall_goes_on_once_and_disorders_at_the_end() {
    let bar = field();
    let (mut st, mut log) = chase(&bar, 6, |_| {});
    // DC (F) 10 against ER 28 + 10 (recall): fails; the pursuit goes on.
    log.extend(act(&bar, &mut st, &["recall"], &[1, 0]));
    assert_logged(
        &log,
        "Pursuit (16.3b): KR 1: the recall fails, the pursuit goes on",
    );
    // One recall per pursuit (16.3a): no more on offer.
    assert_eq!(legal(&bar, &st), ["pursue:SW", "pursue:NW"]);
    // The first path hex takes the infantry's last SP; no second recall check (16.2b).
    log.extend(act(&bar, &mut st, &["pursue:NW"], &[]));
    assert!(u(&bar, &st, "r3").eliminated);
    assert_eq!(
        log.iter()
            .filter(|l| l.contains("disorder check F"))
            .count(),
        1,
        "{log:#?}"
    );
    // 5 PP left, 1 spent: exploitation; the player ends it; the failed recall disorders.
    assert!(legal(&bar, &st).contains(&"exploit-done".to_string()));
    assert!(!u(&bar, &st, "k1").disordered);
    log.extend(act(&bar, &mut st, &["exploit-done"], &[]));
    assert!(u(&bar, &st, "k1").disordered);
    assert!(!u(&bar, &st, "k1").shaken);
    assert_logged(
        &log,
        "Pursuit (16.2c): KR 1: the failed recall check: disordered",
    );
    sound(&bar, &st);
}

#[test]
fn r16_2b_a_non_routed_enemy_in_the_pursuers_zoc_blocks_the_path() {
    let bar = field();
    // Red IR 2 at 0709 facing S: not in KR 1's ZOC at 0707 nor at 0607, but in its front once it
    // enters 0608 facing SW (front 0609, 0709); facing NW (front 0609, 0509) it is not.
    let (mut st, mut log) = e62_with(&bar, |st| place(&bar, st, "e2", "0709", "S"));
    assert_logged(&log, "Rout retreat (20.2): Red IR 3 to 0608 → 0609");
    let (mut other, _) = e62_with(&bar, |st| place(&bar, st, "e2", "0709", "S"));
    log.extend(act(
        &bar,
        &mut st,
        &["cc-advance:k1:0607", "pursue:SW"],
        &[7, 9, 9],
    ));
    assert_logged(
        &log,
        "Pursuit (16.2b): KR 1: the retreat path is blocked (a non-routed enemy in its ZOC): pursuit movement ends",
    );
    assert_eq!(u(&bar, &st, "r3").lost, 2);
    // The automatic recall check, then exploitation: an enemy in a front hex: no move, only
    // facing changes.
    assert_logged(
        &log,
        "Recall at the end of pursuit movement (16.3, disorder check F)",
    );
    let l = legal(&bar, &st);
    assert!(l.iter().all(|a| !a.starts_with("exploit:")), "{l:?}");
    assert!(l.iter().any(|a| a.starts_with("exploit-turn:")), "{l:?}");
    // Faced NW the path stays open: the next hex takes the infantry's last SP.
    act(&bar, &mut other, &["cc-advance:k1:0607", "pursue:NW"], &[7]);
    let next = legal(&bar, &other)[0].clone();
    assert!(next.starts_with("pursue:"), "{next}");
    act(&bar, &mut other, &[next.as_str()], &[9, 9]);
    assert!(u(&bar, &other, "r3").eliminated);
}

#[test]
fn r16_2b_exploitation_makes_at_most_two_facing_changes() {
    let bar = field();
    let (mut st, _) = chase(&bar, 9, |_| {});
    act(&bar, &mut st, &["pursue:NW"], &[9, 9]);
    assert!(u(&bar, &st, "r3").eliminated);
    // 8 PP left: two facing changes, then only moves or the end.
    act(&bar, &mut st, &["exploit-turn:N", "exploit-turn:S"], &[]);
    let l = legal(&bar, &st);
    assert!(l.iter().all(|a| !a.starts_with("exploit-turn:")), "{l:?}");
    assert!(l.iter().any(|a| a.starts_with("exploit:")), "{l:?}");
    sound(&bar, &st);
}

#[test]
fn r16_1b_no_pursuit_after_a_retreat_before_combat() {
    let bar = field();
    let mut st = fresh(&bar);
    // Red hussars may retreat before heavy cavalry (20.1, A55).
    place(&bar, &mut st, "k1", "0707", "N");
    place(&bar, &mut st, "rc", "0607", "S");
    activate(&bar, &mut st, &["k1"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(&bar, &mut st, &["attack:k1", "cc-done"], &[9, 9]);
    let w = legal(&bar, &st)
        .into_iter()
        .find(|a| a.starts_with("cc-withdraw:"))
        .unwrap(); // a retreat is open
    let mut log2 = act(&bar, &mut st, &[w.as_str()], &[9, 9]);
    let adv = legal(&bar, &st)[0].clone();
    log2.extend(act(&bar, &mut st, &[adv.as_str()], &[]));
    let _ = log;
    assert_logged(
        &log2,
        "Pursuit (16.1b): KR 1: no pursuit: the enemy retreated before close combat (13.9a)",
    );
    assert_not_logged(&log2, "pursuit points");
    // 13.7e, 13.9a: no round is fought against a defender who retreated before combat.
    assert_not_logged(&log2, "round 1");
}

#[test]
fn r16_1b_no_pursuit_with_a_non_routed_enemy_in_its_zoc_after_the_advance() {
    let bar = field();
    // Red IR 2 at 0508: in the front of KR 1 once it stands in 0607 facing N.
    let (st, log) = chase(&bar, 6, |st| place(&bar, st, "e2", "0508", "N"));
    assert_logged(
        &log,
        "Pursuit (16.1b): KR 1: a non-routed enemy in its ZOC, no pursuit",
    );
    assert!(!matches!(st.phase, Phase::Pursuit(_)));
}

#[test]
fn r16_2a_a_natural_0_reads_the_pursuit_special_results() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "k1", "0707", "N");
    place(&bar, &mut st, "r3", "0607", "S");
    activate(&bar, &mut st, &["k1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = fight(
        &bar,
        &mut st,
        &["attack:k1", "cc-done"],
        &[9, 9, 9, 9, 9, 6],
    );
    settle(&bar, &mut st, &mut log);
    log.extend(act(&bar, &mut st, &["cc-advance:k1:0607"], &[0, 5]));
    assert_logged(
        &log,
        "KR 1: pursuit points d10 0, a natural 0: re-roll 5 on the pursuit special results (T19): The pursuit points are the re-roll. = 5 PP",
    );
}

/// The pursuit drill ground whose T19 has two rows: 0–4 no pursuit points, 5–9 no pursuit points
/// and the cavalry recalled at once (the Prague chart's "recall at once: no recall check").
fn field_recall_at_once() -> Bar {
    let mut bar = field();
    let sc = std::sync::Arc::make_mut(&mut bar.sc);
    let charts = std::sync::Arc::make_mut(&mut sc.charts);
    let chart = charts.combat.as_mut().unwrap(); // the fixture has close combat charts
    let row = |lo, hi, recalled| bar::charts::combat::PursuitSpecialRow {
        roll: [lo, hi],
        pp: Some(0),
        recalled,
        text: if recalled {
            "Recall at once."
        } else {
            "No pursuit."
        }
        .into(),
        ..Default::default()
    };
    chart.pursuit_special = vec![row(0, 4, false), row(5, 9, true)];
    bar
}

/// The E62 position with K1 winning '1D/1R' without loss, up to its advance.
fn won_advance(bar: &Bar, pursuit_dice: &[u8]) -> (bar::State, Vec<String>) {
    let mut st = fresh(bar);
    place(bar, &mut st, "k1", "0707", "N");
    place(bar, &mut st, "r3", "0607", "S");
    activate(bar, &mut st, &["k1"]);
    close_combat(bar, &mut st, &[]);
    let mut log = fight(bar, &mut st, &["attack:k1", "cc-done"], &[9, 9, 9, 9, 9, 6]);
    settle(bar, &mut st, &mut log);
    log.extend(act(bar, &mut st, &["cc-advance:k1:0607"], pursuit_dice));
    (st, log)
}

#[test]
fn r16_2a_t19_recall_at_once_makes_no_recall_check() {
    let bar = field_recall_at_once();
    let (st, log) = won_advance(&bar, &[0, 7]);
    assert_logged(
        &log,
        "re-roll 7 on the pursuit special results (T19): Recall at once.",
    );
    assert_logged(&log, "recalled at once, no recall check (16.3)");
    assert!(
        !log.iter()
            .any(|l| l.contains("Recall at the end of pursuit movement")),
        "no recall disorder check (F) after a T19 recall: {log:#?}"
    );
    assert!(!matches!(st.phase, Phase::Pursuit(_)));
    assert!(!st.units[usize::from(unit(&bar, "k1"))].disordered);
}

#[test]
fn r16_2b_t19_no_pursuit_points_still_makes_the_recall_check() {
    // The same chart's other row: 0 PP without a recall. Pursuit movement ends with no PP, and
    // the recall disorder check (F) is made (16.2b, condition 1).
    let bar = field_recall_at_once();
    let (_, log) = won_advance(&bar, &[0, 2, 9, 9]);
    assert_logged(
        &log,
        "re-roll 2 on the pursuit special results (T19): No pursuit.",
    );
    assert_logged(&log, "Recall at the end of pursuit movement");
}

#[test]
fn r16_2c_10_8b_a_stack_over_the_limit_separates_rear_first() {
    let bar = field();
    let mut st = fresh(&bar);
    // Dragoons A and B (8 + 8 SP) stacked in a 2-hex line: 8 SP a hex; reduced to one hex for the
    // pursuit, 16 SP over the 12 of a clear hex.
    line(&bar, &mut st, "ka", "0708", "N", 2);
    line(&bar, &mut st, "kb", "0708", "N", 2);
    st.units[usize::from(unit(&bar, "kb"))].order = 2;
    st.units[usize::from(unit(&bar, "ka"))].order = 1;
    place(&bar, &mut st, "r3", "0607", "S");
    activate(&bar, &mut st, &["ka", "kb"]);
    close_combat(&bar, &mut st, &[]);
    // '-/2R' (9 + 2 + 2 − 6 = +7 is '-/S'; 8 + 4 − 7 = +5).
    let mut log = fight(
        &bar,
        &mut st,
        &["attack:ka", "cc-done"],
        &[9, 9, 9, 9, 8, 7],
    );
    settle(&bar, &mut st, &mut log);
    assert_logged(&log, "'-/2R' (T13)");
    let adv = legal(&bar, &st)
        .into_iter()
        .find(|a| a.starts_with("cc-advance:ka+kb:"))
        .unwrap(); // the line steps forward
    log.extend(act(&bar, &mut st, &[adv.as_str()], &[6]));
    assert_logged(
        &log,
        "Pursuit (16.2a): Dragoons A, Dragoons B: the line is reduced to",
    );
    let p = legal(&bar, &st)[0].clone();
    log.extend(act(&bar, &mut st, &[p.as_str(), "exploit-done"], &[9, 9]));
    assert!(u(&bar, &st, "r3").eliminated, "{log:#?}");
    // The separation: rear hexes only, either unit.
    let l = legal(&bar, &st);
    assert!(
        !l.is_empty() && l.iter().all(|a| a.starts_with("separate:")),
        "{l:?}"
    );
    let s = &st.units[usize::from(unit(&bar, "ka"))];
    let (_, _, rear) = bar::geom::arcs_of(&s.hexes, s.facing, s.formation);
    let rear: Vec<String> = rear.iter().map(|h| bar.sc.board.label(*h)).collect();
    for a in &l {
        let h = a.rsplit(':').next().unwrap(); // the hex
        assert!(
            rear.contains(&h.to_string()),
            "{a} not in the rear {rear:?}"
        );
    }
    let first = l[0].clone();
    log.extend(act(&bar, &mut st, &[first.as_str()], &[]));
    assert_logged(
        &log,
        "Pursuit (16.2c, 10.8b): Dragoons A, Dragoons B over the stacking limit:",
    );
    assert_ne!(hexes_of(&bar, &st, "ka"), hexes_of(&bar, &st, "kb"));
    assert_eq!(facing(&bar, &st, "ka"), facing(&bar, &st, "kb"));
    sound(&bar, &st);
}

#[test]
fn r16_2c_10_6g_a_pursuing_stack_may_reorder() {
    let bar = field();
    let mut st = fresh(&bar);
    // 8 + 4 SP: 12 in one hex, within the limit.
    place(&bar, &mut st, "ka", "0707", "N");
    place(&bar, &mut st, "kb", "0707", "N");
    st.units[usize::from(unit(&bar, "kb"))].lost = 4;
    st.units[usize::from(unit(&bar, "kb"))].order = 2;
    st.units[usize::from(unit(&bar, "ka"))].order = 1;
    place(&bar, &mut st, "r3", "0607", "S");
    activate(&bar, &mut st, &["ka", "kb"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = fight(
        &bar,
        &mut st,
        &["attack:ka", "cc-done"],
        &[9, 9, 9, 9, 8, 7],
    );
    settle(&bar, &mut st, &mut log);
    act(&bar, &mut st, &["cc-advance:ka+kb:0607"], &[6]);
    act(&bar, &mut st, &["pursue:NW", "exploit-done"], &[9, 9]);
    assert_eq!(legal(&bar, &st), ["pursuit-top:kb", "pursuit-done"]);
    let log = act(&bar, &mut st, &["pursuit-top:kb"], &[]);
    assert_logged(
        &log,
        "Pursuit (10.6g): Dragoons B goes on top of the pursuing stack",
    );
    assert_eq!(
        bar::stacking::units_at(&st, st.units[usize::from(unit(&bar, "kb"))].hexes[0])[0],
        unit(&bar, "kb")
    );
    sound(&bar, &st);
}

/// The pursuit drill ground with the leader modifier of the PP roll in the charts (16.2a): +1 a
/// brigade leader, +2 a wing leader, 0 the army leader; and `oob` applied to the order of battle.
fn with_leader_chart(oob: impl Fn(String) -> String) -> Bar {
    let chart = "\n[pursuit_leader]\nbrigade = 1\nwing = 2\ninvented = \"test\"\n";
    ground_with2("pursuit", &|f: &str, t: String| match f {
        "combat.toml" => t + chart,
        "oob.toml" => oob(t),
        _ => t,
    })
}

/// `ground_with` for edits of several files.
fn ground_with2(ground: &str, edit: &dyn Fn(&str, String) -> String) -> Bar {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "bar-{ground}-2-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    for (sub, files) in [
        (ground, vec!["map.toml", "oob.toml", "scenario.toml"]),
        (
            "ccbox/charts",
            vec![
                "tec.toml",
                "checks.toml",
                "command.toml",
                "fire.toml",
                "combat.toml",
                "movement.toml",
            ],
        ),
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap(); // test set-up
        for f in files {
            let text = std::fs::read_to_string(data().join(sub).join(f)).unwrap(); // fixture
            std::fs::write(dir.join(sub).join(f), edit(f, text)).unwrap(); // test set-up
        }
    }
    Bar::from_dir(&dir.join(ground), &dir).unwrap() // the edited fixture is valid
}

#[test]
fn r16_2a_a_leader_stacked_with_the_pursuers_modifies_the_pp_roll() {
    // Without a leader in the stack: the d10 is the PP.
    let bar = with_leader_chart(|t| t);
    let (_, log) = chase(&bar, 6, |_| {});
    assert_logged(&log, "KR 1: pursuit points d10 6 = 6 PP");
    // The cavalry brigadier (brigade: +1) rides with KR 1: 6 + 1 = 7; he advanced with it.
    let (st, log) = chase(&bar, 6, |st| put_leader(&bar, st, "L2", "0707"));
    assert_logged(
        &log,
        "KR 1: pursuit points d10 6 +1 Blue cavalry brigadier (leader, 16.2a) = 7 PP",
    );
    let Phase::Pursuit(p) = &st.phase else {
        panic!("{:?}", st.phase)
    };
    assert_eq!(p.chases[0].pp, 7);
    // Without the chart's row there is no modifier.
    let (_, log) = chase(&field(), 6, |st| put_leader(&field(), st, "L2", "0707"));
    assert_logged(&log, "KR 1: pursuit points d10 6 = 6 PP");
    // The army leader (0 in the chart) gives none; with the brigadier the best one counts.
    let (_, log) = chase(&bar, 6, |st| put_leader(&bar, st, "A", "0707"));
    assert_logged(&log, "KR 1: pursuit points d10 6 = 6 PP");
    let (_, log) = chase(&bar, 6, |st| {
        put_leader(&bar, st, "A", "0707");
        put_leader(&bar, st, "L2", "0707");
    });
    assert_logged(
        &log,
        "d10 6 +1 Blue cavalry brigadier (leader, 16.2a) = 7 PP",
    );
}

#[test]
fn r16_2a_the_leader_modifier_comes_before_halving_and_not_on_a_natural_0() {
    let bar = with_leader_chart(|t| t);
    // E62, disordered: (7 + 1) halved = 4.
    let (mut st, mut log) = e62_with(&bar, |st| put_leader(&bar, st, "L2", "0707"));
    log.extend(act(&bar, &mut st, &["cc-advance:k1:0607"], &[7]));
    assert_logged(
        &log,
        "KR 1: pursuit points d10 7 +1 Blue cavalry brigadier (leader, 16.2a) = 8, disordered: halved (rounded) to 4",
    );
    // A natural 0 is read on T19 (the re-roll 5 is the PP), unmodified.
    let (_, log) = chase_rolling(&bar, &[0, 5], |st| put_leader(&bar, st, "L2", "0707"));
    assert_logged(&log, "pursuit points d10 0, a natural 0: re-roll 5");
    assert_not_logged(&log, "(leader, 16.2a)");
}

#[test]
fn r16_2a_a_leader_counter_s_own_pp_modifier_overrides_his_kind() {
    // The brigadier's counter gives +3; a second test counter gives −2, which the player does
    // not take (he *may* modify the roll).
    let give = |m: i8| {
        move |t: String| t.replacen("id = \"L2\"", &format!("id = \"L2\"\npp_modifier = {m}"), 1)
    };
    let bar = with_leader_chart(give(3));
    let (_, log) = chase(&bar, 6, |st| put_leader(&bar, st, "L2", "0707"));
    assert_logged(
        &log,
        "d10 6 +3 Blue cavalry brigadier (leader, 16.2a) = 9 PP",
    );
    let bar = with_leader_chart(give(-2));
    let (_, log) = chase(&bar, 6, |st| put_leader(&bar, st, "L2", "0707"));
    assert_logged(&log, "KR 1: pursuit points d10 6 = 6 PP");
}
