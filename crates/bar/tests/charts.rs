//! The Prague charts (T1–T24 of bar-notes) parse and pass the constraints the rule text puts on
//! them; a copy with one printed datum broken fails, naming the file and the field. Worked
//! examples that read a chart are checked against the Prague charts.
use bar::charts::{CcCell, ChangeCost, Charts, Cost, FILES, FireResult, LeaderLossResult};
use engine::Half;
use std::path::PathBuf;
use toml::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/prague/charts")
}

fn files() -> Vec<(&'static str, Option<String>)> {
    FILES
        .iter()
        .map(|f| (*f, std::fs::read_to_string(dir().join(f)).ok()))
        .collect()
}

fn prague() -> Charts {
    match Charts::parse("prague", &files()) {
        Ok(c) => c,
        Err(e) => panic!("the Prague charts fail: {e:#?}"),
    }
}

#[test]
fn r1_2b_prague_charts_parse_and_pass_check() {
    let c = prague();
    assert!(c.fire.is_some() && c.combat.is_some() && c.movement.is_some());
    let (sourced, reconstructed) = c.provenance_counts();
    assert!(sourced >= 60, "{sourced} sourced data");
    assert!(reconstructed >= 120, "{reconstructed} reconstructed data");
}

/// One edit of a chart file.
enum Edit {
    /// Set the value at a dotted path (`terrain.clear.mp_line`, `row[3].regular`).
    Set(&'static str, Value),
    /// Remove the entry at a path.
    Remove(&'static str),
    /// Replace every occurrence of a text (it must occur).
    Text(&'static str, &'static str),
}

fn step<'a>(v: &'a mut Value, key: &str) -> &'a mut Value {
    match key.split_once('[') {
        Some((k, i)) => {
            let i: usize = i.trim_end_matches(']').parse().expect("index");
            let arr = if k.is_empty() { v } else { &mut v[k] };
            &mut arr[i]
        }
        None => v.get_mut(key).unwrap_or_else(|| panic!("no {key}")),
    }
}

fn apply(text: &str, edit: &Edit) -> String {
    if let Edit::Text(from, to) = edit {
        assert!(text.contains(from), "{from:?} not in the file");
        return text.replace(from, to);
    }
    let mut v: Value = toml::from_str(text).expect("the file parses");
    let path = match edit {
        Edit::Set(p, _) | Edit::Remove(p) => *p,
        Edit::Text(..) => unreachable!(),
    };
    let keys: Vec<&str> = path.split('.').collect();
    let (last, parents) = keys.split_last().expect("a path");
    let mut cur = &mut v;
    for k in parents {
        cur = step(cur, k);
    }
    match edit {
        Edit::Set(_, new) => match cur.as_table_mut() {
            Some(t) if !last.contains('[') => {
                t.insert(last.to_string(), new.clone());
            }
            _ => *step(cur, last) = new.clone(),
        },
        Edit::Remove(_) => match last.split_once('[') {
            Some((k, i)) => {
                let i: usize = i.trim_end_matches(']').parse().expect("index");
                let arr = if k.is_empty() { cur } else { &mut cur[k] };
                arr.as_array_mut().expect("an array").remove(i);
            }
            None => {
                cur.as_table_mut()
                    .expect("a table")
                    .remove(*last)
                    .expect("present");
            }
        },
        Edit::Text(..) => unreachable!(),
    }
    toml::to_string(&v).expect("serializes")
}

fn int(i: i64) -> Value {
    Value::Integer(i)
}
fn s(t: &str) -> Value {
    Value::String(t.into())
}
fn arr(v: &[i64]) -> Value {
    Value::Array(v.iter().map(|i| int(*i)).collect())
}
fn bands(v: &[(i64, f64)]) -> Value {
    Value::Array(
        v.iter()
            .map(|(a, b)| Value::Array(vec![int(*a), Value::Float(*b)]))
            .collect(),
    )
}

/// `(test name, file, edits, text the failure must contain)`.
fn broken_cases() -> Vec<(&'static str, &'static str, Vec<Edit>, &'static str)> {
    use Edit::*;
    vec![
        // T1
        (
            "r11_5e_clear_costs_1_mp",
            "tec.toml",
            vec![Set("terrain.clear.mp_line", int(2))],
            "tec.toml: terrain.clear.mp_line",
        ),
        (
            "r13_1f_clear_costs_one_charge_hex",
            "tec.toml",
            vec![Set("terrain.clear.scm", int(2))],
            "tec.toml: terrain.clear.scm",
        ),
        (
            "r13_3f_village_costs_cavalry_2_charge_hexes",
            "tec.toml",
            vec![Set("terrain.village.scm", int(1))],
            "tec.toml: terrain.village.scm",
        ),
        (
            "r13_3f_village_triggers_dc_a",
            "tec.toml",
            vec![Set("terrain.village.dc_a", Value::Boolean(false))],
            "tec.toml: terrain.village.dc_a",
        ),
        (
            "r8_4i_village_requires_general_order",
            "tec.toml",
            vec![Set("terrain.village.general_order", Value::Boolean(false))],
            "tec.toml: terrain.village.general_order",
        ),
        (
            "r13_11c_woods_cv_plus_1",
            "tec.toml",
            vec![Set("terrain.woods.cv_defender", int(2))],
            "tec.toml: terrain.woods.cv_defender",
        ),
        (
            "r9_4b_slope_adds_1_mp",
            "tec.toml",
            vec![Set("hexside.slope.mp_line", int(2))],
            "tec.toml: hexside.slope.mp_line",
        ),
        (
            "r7_3b_road_loc_half_point",
            "tec.toml",
            vec![Set("road.loc", int(1))],
            "tec.toml: road.loc",
        ),
        (
            "r11_2c_road_ignores_terrain",
            "tec.toml",
            vec![Set("road.ignores_terrain", Value::Boolean(false))],
            "tec.toml: road.ignores_terrain",
        ),
        (
            "r10_11a_road_column_4_sp_a_hex",
            "tec.toml",
            vec![Set("terrain.village.stacking.road_column", int(6))],
            "tec.toml: terrain.village.stacking.road_column",
        ),
        (
            "r18_5a_clear_holds_15_infantry_sp",
            "tec.toml",
            vec![Set("terrain.clear.stacking.infantry", int(12))],
            "tec.toml: terrain.clear.stacking.infantry",
        ),
        (
            "r11_2a_tec_unknown_column",
            "tec.toml",
            vec![Set("terrain.woods.fire_defense", int(3))],
            "tec.toml: terrain.woods.fire_defense: unknown column",
        ),
        (
            "r11_2a_tec_row_needs_provenance",
            "tec.toml",
            vec![Remove("terrain.orchard.reconstructed")],
            "tec.toml: terrain.orchard: needs",
        ),
        // T15, T16
        (
            "r18_5a_disordered_plus_5",
            "checks.toml",
            vec![Set("disorder.modifier.disordered.value", int(10))],
            "checks.toml: disorder.modifier.disordered.value",
        ),
        (
            "r11_4a_rapid_march_plus_5",
            "checks.toml",
            vec![Set("disorder.modifier.rapid_march.value", int(10))],
            "checks.toml: disorder.modifier.rapid_march.value",
        ),
        (
            "r18_2b_interpenetration_plus_10",
            "checks.toml",
            vec![Set("disorder.modifier.interpenetration.value", int(5))],
            "checks.toml: disorder.modifier.interpenetration.value",
        ),
        (
            "r19_8c_square_minus_10",
            "checks.toml",
            vec![Set("morale.modifier.square.value", int(10))],
            "checks.toml: morale.modifier.square.value",
        ),
        (
            "r19_9d_routed_plus_15",
            "checks.toml",
            vec![Remove("morale.modifier.routed")],
            "checks.toml: morale.modifier.routed",
        ),
        (
            "r18_6d_recovery_never_special",
            "checks.toml",
            vec![Set("disorder.case.G.special", Value::Boolean(true))],
            "checks.toml: disorder.case.G.special",
        ),
        (
            "r19_5f_rally_never_special",
            "checks.toml",
            vec![Set("morale.case.I.special", Value::Boolean(true))],
            "checks.toml: morale.case.I.special",
        ),
        (
            "r14_8c_case_g_uses_the_losses_modifier",
            "checks.toml",
            vec![Set(
                "morale.case.G.applies",
                Value::Array(vec![s("shaken")]),
            )],
            "checks.toml: morale.case.G.applies",
        ),
        (
            "r18_1a_specials_cover_00_09",
            "checks.toml",
            vec![Remove("morale.special[6]")],
            "checks.toml: morale.special",
        ),
        // T17, T18, T20
        (
            "r6_9a_isr_covers_dice_1_9",
            "command.toml",
            vec![Remove("initiative_special[1]")],
            "command.toml: initiative_special",
        ),
        (
            "r21_4b_leader_loss_kills",
            "command.toml",
            vec![Set("leader_loss[0].result", s("wounded"))],
            "command.toml: leader_loss",
        ),
        (
            "r23_2c_100_column_9_gives_plus_10",
            "command.toml",
            vec![
                Set("loss_levels.austria.row[2].dice[3]", arr(&[10, 10])),
                Set("loss_levels.austria.row[1].dice[3]", arr(&[6, 9])),
            ],
            "command.toml: loss_levels.austria.row: the 100+ column",
        ),
        (
            "r23_1e_has_a_100_column",
            "command.toml",
            vec![Set(
                "loss_levels.prussia.columns",
                arr(&[25, 50, 75, 110, 125, 150]),
            )],
            "command.toml: loss_levels.prussia.columns: no 100+",
        ),
        (
            "r23_1b_columns_ascend",
            "command.toml",
            vec![Set(
                "loss_levels.prussia.columns",
                arr(&[25, 75, 50, 100, 125, 150]),
            )],
            "command.toml: loss_levels.prussia.columns: must ascend",
        ),
        // T2
        (
            "r12_1_fire_columns_1_3_to_5_1",
            "fire.toml",
            vec![Set("results.columns[6]", s("6:1"))],
            "fire.toml: results.columns",
        ),
        (
            "r12_9i_r_only_on_the_regular_side",
            "fire.toml",
            vec![Set("results.row[1].opportunity", s("R"))],
            "fire.toml: results.row[1].opportunity",
        ),
        (
            "r12_9i_d_only_on_the_opportunity_side",
            "fire.toml",
            vec![Set("results.row[2].regular", s("D"))],
            "fire.toml: results.row[2].regular",
        ),
        (
            "r12_9i_regular_side_has_r",
            "fire.toml",
            vec![
                Set("results.row[1].regular", s("-")),
                Set("results.row[2].regular", s("-")),
            ],
            "fire.toml: results.row: the regular side has no 'R'",
        ),
        (
            "r12_9i_opportunity_side_has_d",
            "fire.toml",
            vec![
                Set("results.row[2].opportunity", s("-")),
                Set("results.row[3].opportunity", s("-")),
            ],
            "fire.toml: results.row: the opportunity side has no 'D'",
        ),
        (
            "r12_9a_losses_1_to_6",
            "fire.toml",
            vec![Set("results.row[14].regular", s("7"))],
            "fire.toml: results.row[14]: loss 7",
        ),
        (
            "r12_1_higher_ratio_never_hurts",
            "fire.toml",
            vec![Set("results.row[3].from[6]", int(90))],
            "fire.toml: results.row[3].from",
        ),
        // T3
        (
            "r12_11_defensive_special_table",
            "fire.toml",
            vec![Remove("special.defensive")],
            "fire.toml: special.defensive: missing",
        ),
        (
            "r12_11_specials_cover_00_09",
            "fire.toml",
            vec![Remove("special.artillery[3]")],
            "fire.toml: special.artillery: the rows must cover",
        ),
        // T4
        (
            "r12_1_prussian_grenadier_x5_x3",
            "fire.toml",
            vec![Set(
                "weapon.prussia.grenadier.multipliers",
                bands(&[(1, 4.0), (2, 3.0)]),
            )],
            "fire.toml: weapon.prussia.grenadier.multipliers",
        ),
        (
            "r12_1_prussian_fusilier_x3_x2",
            "fire.toml",
            vec![Set(
                "weapon.prussia.fusilier.multipliers",
                bands(&[(1, 3.0), (2, 1.0)]),
            )],
            "fire.toml: weapon.prussia.fusilier.multipliers",
        ),
        (
            "r12_1_prussian_12pdr_x3_at_8_hexes",
            "fire.toml",
            vec![Set(
                "weapon.prussia.12pdr.multipliers",
                bands(&[(3, 6.0), (8, 4.0), (10, 3.0), (16, 1.0)]),
            )],
            "fire.toml: weapon.prussia.12pdr.multipliers",
        ),
        (
            "r12_9f_an_artillery_minimum_range_of_3",
            "fire.toml",
            vec![Text("min_range = 3", "min_range = 4")],
            "fire.toml: weapon: no artillery has a minimum range of 3",
        ),
        (
            "r12_2i_artillery_has_a_minimum_range",
            "fire.toml",
            vec![Remove("weapon.austria.6pdr.min_range")],
            "fire.toml: weapon.austria.6pdr.min_range",
        ),
        (
            "r12_0_infantry_range_2",
            "fire.toml",
            vec![Set(
                "weapon.austria.fusilier.multipliers",
                bands(&[(1, 2.5), (2, 1.5), (3, 1.0)]),
            )],
            "fire.toml: weapon.austria.fusilier.multipliers: infantry fires at 1 and 2",
        ),
        // T5
        (
            "r12_1_five_sp_in_a_hex_fire_four",
            "fire.toml",
            vec![Set("line_sp.3.fire[3].fire", int(5))],
            "fire.toml: line_sp.3.fire",
        ),
        (
            "r18_5a_four_rank_4_sp_fire_3",
            "fire.toml",
            vec![Set("line_sp.4.fire[2].fire", int(4))],
            "fire.toml: line_sp.4.fire",
        ),
        (
            "r18_5a_four_rank_9_sp_hold_two_hexes",
            "fire.toml",
            vec![Set("line_sp.4.two_hex_min", int(10))],
            "fire.toml: line_sp.4.two_hex_min",
        ),
        (
            "r12_1_three_rank_table",
            "fire.toml",
            vec![Remove("line_sp.3")],
            "fire.toml: line_sp.3: missing",
        ),
        // T6, T7, T8
        (
            "r12_2g_square_4_per_target_hex_12_in_all",
            "fire.toml",
            vec![Set("formation.square.per_target_hex", int(3))],
            "fire.toml: formation.square.per_target_hex",
        ),
        (
            "r12_4c_artillery_4_sp_a_hex",
            "fire.toml",
            vec![Set("formation.unlimbered.max_per_hex", int(6))],
            "fire.toml: formation.unlimbered.max_per_hex",
        ),
        (
            "r12_2a_march_column_cannot_fire",
            "fire.toml",
            vec![Set("formation.march_column.fires", Value::Boolean(true))],
            "fire.toml: formation.march_column.fires",
        ),
        (
            "r12_2a_skirmish_fires",
            "fire.toml",
            vec![Set("formation.skirmish.fires", Value::Boolean(false))],
            "fire.toml: formation.skirmish.fires",
        ),
        (
            "r13_10g_defensive_fire_plus_20_on_infantry",
            "fire.toml",
            vec![Set("modifier.defensive_vs_infantry.value", int(10))],
            "fire.toml: modifier.defensive_vs_infantry.value",
        ),
        (
            "r12_7c_general_order_minus_1",
            "fire.toml",
            vec![Remove("modifier.general_order")],
            "fire.toml: modifier.general_order",
        ),
        (
            "r12_9h_column_losses_times_1_5",
            "fire.toml",
            vec![Set("modifier.column_square_losses.value", int(2))],
            "fire.toml: modifier.column_square_losses.value",
        ),
        (
            "r12_2g_square_three_targets",
            "fire.toml",
            vec![Set("diagram.square_targets", int(2))],
            "fire.toml: diagram.square_targets",
        ),
        // T13, T14, T19
        (
            "r14_2c_crt_has_1d_2r",
            "combat.toml",
            vec![Text("\"1D/2R\"", "\"1D/3R\"")],
            "combat.toml: crt.row: no '1D/2R'",
        ),
        (
            "r16_2c_crt_has_1d_1r",
            "combat.toml",
            vec![Text("\"1D/1R\"", "\"1/1R\"")],
            "combat.toml: crt.row: no '1D/1R'",
        ),
        (
            "r14_1a_crt_end_rows_open",
            "combat.toml",
            vec![Set("crt.row[8].diff", arr(&[7, 20]))],
            "combat.toml: crt.row: the end rows must be open",
        ),
        (
            "r13_11_crt_columns_1_3_to_6_1",
            "combat.toml",
            vec![Set("crt.columns[8]", s("5:1"))],
            "combat.toml: crt.columns",
        ),
        (
            "r14_3a_d_marks_one_side",
            "combat.toml",
            vec![Set("crt.row[0].cells[0]", s("2D/1D"))],
            "combat.toml: crt.row[0].cells[0]",
        ),
        (
            "r14_8c_0_and_3_give_2_2_star",
            "combat.toml",
            vec![Set("special[2].result", s("2/2"))],
            "combat.toml: special: attacker 0, defender 3",
        ),
        (
            "r14_8c_3_and_0_give_2_2_star",
            "combat.toml",
            vec![Set("special[6].result", s("1/2*"))],
            "combat.toml: special: attacker 3, defender 0",
        ),
        (
            "r14_8a_double_zero_has_an_entry",
            "combat.toml",
            vec![Remove("special[0]")],
            "combat.toml: special: 0 rows for attacker 0, defender 0",
        ),
        (
            "r16_2a_pursuit_specials_cover_0_9",
            "combat.toml",
            vec![Remove("pursuit_special[1]")],
            "combat.toml: pursuit_special",
        ),
        (
            "r16_2a_a_recall_at_once_gives_no_pursuit_points",
            "combat.toml",
            vec![Set("pursuit_special[4].pp", int(3))],
            "combat.toml: pursuit_special[4]: a row that recalls the cavalry at once must give pp = 0",
        ),
        (
            "r16_2a_the_leader_pp_modifier_says_where_it_comes_from",
            "combat.toml",
            vec![Remove("pursuit_leader.reconstructed")],
            "combat.toml: pursuit_leader: needs `source` or `reconstructed`",
        ),
        (
            "r16_2a_the_leader_pp_modifier_fits_a_d10",
            "combat.toml",
            vec![Set("pursuit_leader.wing", int(12))],
            "combat.toml: pursuit_leader.wing",
        ),
        // T10, T11
        (
            "r8_4f_line_to_square_whole_ma",
            "movement.toml",
            vec![Set("change.austria[7].cost", s("3"))],
            "movement.toml: change.austria.line→square.cost",
        ),
        (
            "r8_4b_march_to_road_column_1_plus_1_a_hex",
            "movement.toml",
            vec![Set("change.prussia[1].cost", s("1"))],
            "movement.toml: change.prussia.march_column→road_column.cost",
        ),
        (
            "r8_6b_unlimber_2_mp",
            "movement.toml",
            vec![Remove("change.prussia[15]")],
            "movement.toml: change.prussia: no limbered → unlimbered",
        ),
        (
            "r8_4c_turning_right_costs_3",
            "movement.toml",
            vec![Set("change.prussia[2].diagram", arr(&[1, 2, 4]))],
            "movement.toml: change.prussia.march_column→line.diagram",
        ),
        (
            "r13_4_e47_infantry_turning_into_line_costs_1",
            "movement.toml",
            vec![Set("change.austria[2].infantry_diagram", arr(&[2, 3, 5]))],
            "movement.toml: change.austria.march_column→line.infantry_diagram",
        ),
        (
            "r13_4e_artillery_facing_whole_ma",
            "movement.toml",
            vec![Set("facing.austria.unlimbered.per_step", s("2"))],
            "movement.toml: facing.austria.unlimbered.per_step",
        ),
        (
            "r11_10b_countercharge_one_hex",
            "movement.toml",
            vec![Set("countercharge", int(2))],
            "movement.toml: countercharge",
        ),
    ]
}

#[test]
fn r1_2b_each_printed_datum_broken_fails_naming_file_and_field() {
    let base = files();
    let mut wrong = Vec::new();
    for (name, file, edits, want) in broken_cases() {
        let copy: Vec<(&str, Option<String>)> = base
            .iter()
            .map(|(f, t)| {
                let t = t.clone().map(|mut t| {
                    if *f == file {
                        for e in &edits {
                            t = apply(&t, e);
                        }
                    }
                    t
                });
                (*f, t)
            })
            .collect();
        match Charts::parse("prague", &copy) {
            Ok(_) => wrong.push(format!("{name}: the broken copy passes")),
            Err(problems) => {
                let want = format!("prague/charts/{want}");
                if !problems.iter().any(|p| p.contains(&want)) {
                    wrong.push(format!("{name}: no problem names {want:?}: {problems:#?}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn r1_2b_a_missing_required_chart_file_fails() {
    let mut f = files();
    f[0].1 = None;
    let e = Charts::parse("prague", &f).expect_err("tec.toml is required");
    assert!(
        e.iter()
            .any(|p| p.contains("prague/charts/tec.toml: missing"))
    );
}

// ---------------------------------------------------------------- worked examples on the charts

#[test]
fn r12_1_example_1_prussian_line_fires_14_and_9() {
    // E32: a 1-SP grenadier on a 4-SP fusilier in a one-hex line: 4 SP fire (1 + 3).
    let c = prague();
    let f = c.fire.as_ref().expect("fire.toml");
    // Prussia's three ranks are `ranks` in oob.toml (12.0 A).
    assert_eq!(f.line_sp_for(3).expect("3 ranks").fire_per_hex(5, false), 4);
    let m = |k: &str, r: u8| f.multiplier("prussia", k, r).expect("in range");
    assert_eq!(1.0 * m("grenadier", 1) + 3.0 * m("fusilier", 1), 14.0);
    assert_eq!(1.0 * m("grenadier", 2) + 3.0 * m("fusilier", 2), 9.0);
    assert_eq!(
        f.multiplier("prussia", "fusilier", 3),
        None,
        "12.0: infantry range 2"
    );
}

#[test]
fn r12_1_example_2_prussian_12pdr_at_8_hexes_fires_6() {
    let c = prague();
    let f = c.fire.as_ref().expect("fire.toml");
    assert_eq!(
        2.0 * f.multiplier("prussia", "12pdr", 8).expect("in range"),
        6.0
    );
}

#[test]
fn r12_1_ratio_7_to_1_reads_5_to_1_plus_20_and_1_to_4_cannot_fire() {
    // E34.
    let c = prague();
    let f = c.fire.as_ref().expect("fire.toml");
    let per = f.value("ratio_above_5") as i16;
    let (col, bonus) = f.results.column_for(7.0, per).expect("fires");
    assert_eq!((f.results.columns[col].as_str(), bonus), ("5:1", 20));
    assert_eq!(f.results.column_for(0.25, per), None);
    // Rounded in the defender's favour (A26): 2.7:1 reads 2:1.
    let (col, _) = f.results.column_for(2.7, per).expect("fires");
    assert_eq!(f.results.columns[col], "2:1");
}

#[test]
fn r12_9i_r_on_the_regular_side_d_on_the_opportunity_side() {
    let c = prague();
    let f = c.fire.as_ref().expect("fire.toml");
    let col = f
        .results
        .columns
        .iter()
        .position(|h| h == "1:1")
        .expect("1:1");
    assert_eq!(f.results.result(col, 45, false), FireResult::Return);
    assert_eq!(f.results.result(col, 55, true), FireResult::Disorder);
    assert_eq!(f.results.result(col, -30, false), FireResult::NoEffect);
    assert_eq!(f.results.result(col, 500, false), FireResult::Loss(6));
}

#[test]
fn r18_5a_disordered_lines_fire_2_a_hex() {
    // E64: a disordered 9-SP 4-rank line over 2 hexes (5/4) fires 2 and 2 instead of 4 and 3; a
    // disordered stack of three 10-SP battalions over two hexes fires 2 a hex instead of 4.
    let c = prague();
    let t = &c.fire.as_ref().expect("fire.toml").line_sp["4"];
    assert_eq!((t.fire_per_hex(5, false), t.fire_per_hex(4, false)), (4, 3));
    assert_eq!((t.fire_per_hex(5, true), t.fire_per_hex(4, true)), (2, 2));
    assert_eq!(
        (t.fire_per_hex(15, false), t.fire_per_hex(15, true)),
        (4, 2)
    );
}

#[test]
fn r12_5e_worked_target_sizes_read_the_size_brackets() {
    // E39: sizes 8 (2-SP battery), 12 (6-SP cavalry), 16 (line with guns), 11 (3-hex cavalry).
    let c = prague();
    let f = c.fire.as_ref().expect("fire.toml");
    let m: Vec<i16> = [8, 12, 16, 11]
        .iter()
        .map(|s| f.size_modifier(*s))
        .collect();
    assert_eq!(m, vec![0, 5, 10, 0]);
}

#[test]
fn r13_11_ratio_8_to_1_adds_2_and_1_to_4_adds_1_to_the_defender() {
    // E52.
    let c = prague();
    let crt = &c.combat.as_ref().expect("combat.toml").crt;
    let (col, att, def) = crt.column_for(8, 1);
    assert_eq!((crt.columns[col].as_str(), att, def), ("6:1", 2, 0));
    let (col, att, def) = crt.column_for(1, 4);
    assert_eq!((crt.columns[col].as_str(), att, def), ("1:3", 0, 1));
    let (col, ..) = crt.column_for(5, 3);
    assert_eq!(crt.columns[col], "3:2");
    // The end rows are open: any difference reads a cell.
    assert!(crt.cell(0, -40).is_some() && crt.cell(8, 40).is_some());
}

#[test]
fn r14_8c_a_0_and_a_3_give_2_2_star() {
    // E61.
    let c = prague();
    let cc = c.combat.as_ref().expect("combat.toml");
    for (a, d) in [(0, 3), (3, 0)] {
        let r = cc.special_for(a, d).expect("a row");
        assert_eq!(r.show(), "2/2*");
        assert_eq!((r.attacker.sp, r.defender.sp, r.leader_check), (2, 2, true));
    }
    assert!(cc.special_for(0, 0).is_some());
    assert!(cc.special_for(4, 5).is_none(), "no '0': the CRT is read");
}

#[test]
fn r14_1b_results_parse_as_printed() {
    let c = CcCell::parse("1D/2R").expect("parses");
    assert!(c.attacker.disorder && c.defender.rout);
    assert_eq!((c.attacker.sp, c.defender.sp), (1, 2));
    assert_eq!(CcCell::parse("-/S").expect("parses").show(), "-/S");
    assert!(CcCell::parse("1X/2").is_err());
    assert!(CcCell::parse("12").is_err());
}

#[test]
fn r23_2c_clt_103_reads_the_100_column() {
    // E67: 9 → +10, 6–8 → +5, ≤ 5 → 0; spending 1 CR makes +10 impossible.
    let c = prague();
    for army in ["prussia", "austria"] {
        let t = &c.command.loss_levels[army];
        let col = t.column_for(103).expect("a column");
        assert_eq!(t.columns[col], 100);
        assert_eq!(t.result(col, 9), 10);
        assert_eq!(t.result(col, 9 - 1), 5);
        assert_eq!(t.result(col, 5), 0);
    }
}

#[test]
fn r23_1e_hourly_clt_45_55_70_110_reads_none_50_50_100() {
    // E66 (the skipping of a used column is the engine's; the chart gives the column).
    let c = prague();
    let t = &c.command.loss_levels["prussia"];
    let col = |clt| t.column_for(clt).map(|c| t.columns[c]);
    assert_eq!(col(20), None);
    assert_eq!(col(55), Some(50));
    assert_eq!(col(70), Some(50));
    assert_eq!(col(110), Some(100));
    assert_eq!(col(400), Some(150));
}

#[test]
fn r21_4_leader_loss_table_kills_and_wounds() {
    let c = prague();
    let r: Vec<LeaderLossResult> = (0..=9).map(|d| c.command.leader_loss(d)).collect();
    assert!(r.contains(&LeaderLossResult::Killed) && r.contains(&LeaderLossResult::Wounded));
}

#[test]
fn r6_9a_isr_reads_the_other_players_die_1_to_9() {
    // E9: A rolls 0, B rolls 6: the row of 6.
    let c = prague();
    assert!((1..=9).all(|d| c.command.isr(d).is_some()));
    assert!(c.command.isr(0).is_none());
}

#[test]
fn r13_3f_charge_through_clear_village_clear_costs_4() {
    // E46: charge range 4: clear (1), village (2), clear (1) reaches, with a DC (A).
    let c = prague();
    let t = &c.tec.terrain;
    let cost: Half = ["clear", "village", "clear"]
        .iter()
        .map(|k| t[*k].scm.points().expect("allowed"))
        .sum();
    assert_eq!(cost, Half::whole(4));
    assert!(t["village"].dc_a);
    assert_eq!(
        c.movement
            .as_ref()
            .expect("movement.toml")
            .charge_range("prussia", "hussar"),
        Some(4)
    );
}

#[test]
fn r8_4c_cavalry_march_column_to_3_hex_line_turning_right_costs_5() {
    // E17: 3 (the diagram, turning right) + 2 (the length).
    let c = prague();
    let m = c.movement.as_ref().expect("movement.toml");
    for army in ["prussia", "austria"] {
        let r = m.change(army, "march_column", "line").expect("a link");
        let ChangeCost::Mp { base, per_hex } = r.cost else {
            panic!("an MP cost")
        };
        let total = base + r.diagram[1].points().expect("allowed") + per_hex + per_hex;
        assert_eq!(total, Half::whole(5), "{army}");
    }
}

#[test]
fn r13_4_e47_infantry_march_column_turning_into_a_line_costs_1_and_cavalry_3() {
    // E47: an infantry 2-hex march column forms a 2-hex line in its own hexes (a turn right or
    // left) for 1 MP; E17 (8.4c): a cavalry column turning right pays 3 before the length.
    let c = prague();
    let m = c.movement.as_ref().expect("movement.toml");
    for army in ["prussia", "austria"] {
        for (from, to) in [("march_column", "line"), ("line", "march_column")] {
            let r = m.change(army, from, to).expect("a link");
            assert_eq!(r.infantry()[1].points(), Some(Half::ONE), "{army} {from}");
            assert_eq!(r.diagram[1].points(), Some(Half::whole(3)), "{army} {from}");
        }
    }
}

#[test]
fn c4_costs_come_in_half_points() {
    let c = prague();
    assert_eq!(c.tec.road.mp_road_column, Half::HALF);
    assert_eq!(c.tec.terrain["pond"].mp_line, Cost::Prohibited);
    assert_eq!(Cost::Points(Half::from_halves(3)).show(), "1½");
    assert_eq!(
        ChangeCost::parse("1+1/hex"),
        Ok(ChangeCost::Mp {
            base: Half::ONE,
            per_hex: Half::ONE
        })
    );
    assert!(ChangeCost::parse("1.3").is_err());
    let bad = files()
        .into_iter()
        .map(|(f, t)| {
            let t = t.map(|t| {
                if f == "tec.toml" {
                    t.replacen("mp_line = 2\n", "mp_line = 2.25\n", 1)
                } else {
                    t
                }
            });
            (f, t)
        })
        .collect::<Vec<_>>();
    let e = Charts::parse("prague", &bad).expect_err("2.25 is not a half point");
    assert!(
        e.iter().any(|p| p.contains("prague/charts/tec.toml")),
        "{e:?}"
    );
}
