//! Rule 10: who may and must attack (10.1), the Combat Results Table and the strength ratio
//! (10.2), the modifiers (10.3).
mod common;

use common::*;
use hexmap::{Dir, HexId, Vertex};
use saxe::Saxe;
use saxe::scenario::Side;
use saxe::state::{State, flag};

#[test]
fn r10_2_crt_every_printed_cell() {
    let r = rules();
    let t = &r.sc.tables;
    let printed = [
        (-3, "2D-R2*", Some("-")),
        (-2, "1D-R1*", Some("-")),
        (-1, "1-TM+2-R1", Some("-")),
        (0, "TM+2-R1", Some("-")),
        (1, "TM+2", Some("-")),
        (2, "TM+1", Some("TM")),
        (3, "TM", Some("TM")),
        (4, "TM", Some("TM+1")),
        // Row 5: the defender's cell is missing from the printed table.
        (5, "TM-1", None),
    ];
    for (row, att, def) in printed {
        let (got, a, d) = t.crt(row);
        assert_eq!(i32::from(got), row);
        assert_eq!(a.to_string(), att, "attacker, row {row}");
        if let Some(def) = def {
            assert_eq!(d.to_string(), def, "defender, row {row}");
        }
    }
    // "-3 and -".
    assert_eq!(t.crt(-9).0, -3);
    assert_eq!(t.crt(-9).1.to_string(), "2D-R2*");
    let o = t.crt(-1).1;
    assert_eq!(
        (o.steps, o.tm, o.retreat, o.disorganise),
        (1, Some(2), 1, false)
    );
    let o = t.crt(-3).1;
    assert_eq!(
        (o.steps, o.disorganise, o.retreat, o.star),
        (2, true, 2, true)
    );
    assert_eq!(t.crt(5).1.tm, Some(-1));
}

#[test]
fn r10_2_ratio_rounded_in_favour_of_the_defender() {
    let r = rules();
    let t = &r.sc.tables;
    for (a, d, drm) in [
        (24, 4, 6),
        (6, 1, 6),
        (20, 4, 5),
        (19, 4, 4),
        (16, 4, 4),
        (15, 4, 3),
        (12, 4, 3),
        (11, 4, 2),
        (8, 4, 2),
        (7, 4, 1),
        (6, 4, 1),
        (5, 4, 0),
        (4, 4, 0),
        (8, 12, -1),
        (3, 4, -1),
        (2, 4, -2),
        (5, 12, -3),
        (1, 4, -3),
    ] {
        assert_eq!(t.ratio_drm(a, d).0, drm, "{a} vs {d}");
    }
    assert_eq!(t.ratio_drm(11, 4).1, "2/1");
    assert_eq!(t.ratio_drm(5, 4).1, "1/1");
    assert_eq!(t.ratio_drm(3, 4).1, "2/3");
}

#[test]
fn r10_1_attacks_only_enemies_in_front_hexes() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    let nw = go(x, &[Dir::NW]);
    let w = go(x, &[Dir::W]);
    place(&r, &mut s, "von-gilsa", nw, Vertex::S);
    place(&r, &mut s, "von-fuerstenberg-2", w, Vertex::N);
    assert_eq!(r.attack_targets(&s, x), vec![nw]);
}

fn may_end(r: &Saxe, s: &State) -> bool {
    ids(r, s).contains(&"end-combat".to_string())
}

#[test]
fn r10_1_attack_mandatory_when_both_in_clear() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    let l = ids(&r, &s);
    assert!(l.contains(&format!("attack:{x}>{y}")), "{l:?}");
    assert!(!may_end(&r, &s), "{l:?}");
}

#[test]
fn r10_1_no_obligation_for_infantry_against_cavalry() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-einsiedel", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    assert!(ids(&r, &s).contains(&format!("attack:{x}>{y}")));
    assert!(may_end(&r, &s));
    // Cavalry against infantry is mandatory.
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    assert!(!may_end(&r, &s));
}

#[test]
fn r10_1_no_obligation_unless_both_are_in_clear_terrain() {
    let base = rules();
    let x = clear_area(&base, 2);
    let y = go(x, &[Dir::NW]);
    for town in [y, x] {
        let r = rules_with_map(&terrain_toml(&[town], "town"));
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "von-gilsa", y, Vertex::S);
        combat_phase(&mut s, Side::French);
        assert!(ids(&r, &s).contains(&format!("attack:{x}>{y}")));
        assert!(may_end(&r, &s), "town at {town}");
    }
}

#[test]
fn r10_1_cavalry_may_not_attack_into_woods_nor_a_fortified_village() {
    let base = rules();
    let x = clear_area(&base, 2);
    let y = go(x, &[Dir::NW]);
    let r = rules_with_map(&terrain_toml(&[y], "woods"));
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "jager", y, Vertex::S);
    assert!(r.attack_targets(&s, x).is_empty(), "woods");
    let r = rules_with_map(&terrain_toml(&[y], "town"));
    let mut s = empty_board(&r);
    let cav = place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "von-schulenburg", y, Vertex::S);
    place(&r, &mut s, "schulenburg-redoubt-1107", y, Vertex::S);
    assert!(r.attack_targets(&s, x).is_empty(), "fortified village");
    s.units[usize::from(cav)].hex = None;
    place(&r, &mut s, "du-roi", x, Vertex::N);
    assert_eq!(r.attack_targets(&s, x), vec![y], "infantry may");
}

#[test]
fn r10_1_guns_alone_do_not_attack() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::NW]), Vertex::S);
    combat_phase(&mut s, Side::French);
    assert!(r.legal_attacks(&s).is_empty());
}

#[test]
fn r10_1_a_unit_attacks_once_per_combat_phase() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    assert!(!r.legal_attacks(&s).is_empty());
    s.units[usize::from(u)].set(flag::ATTACKED, true);
    assert!(r.legal_attacks(&s).is_empty());
}

#[test]
fn r10_1_example_2_du_roy_and_royal_pologne_combine_against_einsiedel() {
    // Combat example 2 (11.4), rebuilt from its caption: Du Roy and Royal-Pologne side by side,
    // Einsiedel in front of both. They may combine because Royal-Pologne's other front hex is free
    // of enemies; with Fürstenberg there they may not.
    let r = rules();
    let x = clear_area(&r, 2);
    let rp_hex = go(x, &[Dir::W]);
    let e = go(x, &[Dir::NW]);
    assert_eq!(go(rp_hex, &[Dir::NE]), e);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "royal-pologne", rp_hex, Vertex::N);
    place(&r, &mut s, "von-einsiedel", e, Vertex::S);
    combat_phase(&mut s, Side::French);
    let combined = |s: &State| {
        r.legal_attacks(s).into_iter().any(|(a, d)| {
            let mut a = a.clone();
            a.sort();
            let mut want = vec![x, rp_hex];
            want.sort();
            a == want && d == vec![e]
        })
    };
    assert!(combined(&s));
    place(
        &r,
        &mut s,
        "von-fuerstenberg-1",
        go(rp_hex, &[Dir::NW]),
        Vertex::S,
    );
    assert!(!combined(&s), "Royal-Pologne has a second enemy in its ZoC");
    assert!(
        r.legal_attacks(&s)
            .iter()
            .any(|(a, d)| a == &vec![x] && d == &vec![e])
    );
    // Several units never attack several enemy units in one combat.
    assert!(
        r.legal_attacks(&s)
            .iter()
            .all(|(a, d)| a.len() == 1 || d.len() == 1)
    );
}

#[test]

fn r10_1_two_enemies_in_its_zoc_must_both_be_attacked() {
    let r = rules();
    let x = clear_area(&r, 2);
    let nw = go(x, &[Dir::NW]);
    let ne = go(x, &[Dir::NE]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", nw, Vertex::S);
    place(&r, &mut s, "von-fuerstenberg-2", ne, Vertex::S);
    combat_phase(&mut s, Side::French);
    let mut both = vec![nw, ne];
    both.sort();
    let attacks = r.legal_attacks(&s);
    assert!(attacks.iter().any(|(a, d)| a == &vec![x] && d == &both));
    assert_eq!(attacks.len(), 1, "only the attack on both: {attacks:?}");
}

/// The 11.4 combat example 1's right-hand part: Du Roi with a village (a town hex) and Anhalt 2
/// in its front hexes, Poitou on its right flank with Anhalt 2 also in front.
fn du_roi_poitou(with_poitou: bool) -> (Saxe, State, HexId, HexId, HexId) {
    let base = rules();
    let x = clear_area(&base, 2);
    let village = go(x, &[Dir::NW]);
    let anhalt = go(x, &[Dir::NE]);
    let p = go(x, &[Dir::E]);
    assert_eq!(go(p, &[Dir::NW]), anhalt);
    let r = rules_with_map(&terrain_toml(&[village], "town"));
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", village, Vertex::S);
    place(&r, &mut s, "prinz-von-anhalt-2", anhalt, Vertex::S);
    if with_poitou {
        place(&r, &mut s, "poitou", p, Vertex::N);
    }
    combat_phase(&mut s, Side::French);
    (r, s, x, p, anhalt)
}

#[test]
fn r10_1_example_1_du_roi_alone_must_attack_anhalt_2() {
    let (r, s, x, _, anhalt) = du_roi_poitou(false);
    assert!(!may_end(&r, &s));
    assert!(ids(&r, &s).contains(&format!("attack:{x}>{anhalt}")));
}

#[test]

fn r10_1_example_1_du_roi_not_obliged_when_poitou_attacks_anhalt_2() {
    let (r, mut s, _, p, anhalt) = du_roi_poitou(true);
    // Poitou's attack on Anhalt 2 is an obligation.
    assert!(!may_end(&r, &s));
    // Once Poitou has made it, Du Roi is obliged to attack neither the village nor Anhalt 2.
    let poitou = unit(&r, "poitou");
    assert_eq!(s.units[usize::from(poitou)].hex, Some(p));
    s.units[usize::from(poitou)].set(flag::ATTACKED, true);
    s.attacked_hexes.push(anhalt);
    assert!(may_end(&r, &s), "{:?}", ids(&r, &s));
}

// ------------------------------------------------------------------------------------ 10.3

fn mods(r: &Saxe, s: &State, att: &[HexId], def: &[HexId]) -> Vec<(String, i32)> {
    r.combat_modifiers(s, &combat_of(r, s, att, def)).1
}

#[test]
fn r10_3_flank_and_rear_attacks() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    for (facing, flank, rear) in [
        (Vertex::S, None, None),
        (Vertex::NE, Some(2), None),
        (Vertex::N, None, Some(3)),
    ] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "von-gilsa", y, facing);
        let m = mods(&r, &s, &[x], &[y]);
        assert_eq!(modifier(&m, "flank attack"), flank, "{facing:?}: {m:?}");
        assert_eq!(modifier(&m, "rear attack"), rear, "{facing:?}: {m:?}");
    }
    // Two attackers, one in front and one behind: the facing least favourable to the defender.
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    let behind = go(y, &[Dir::NE]);
    place(&r, &mut s, "palatinat-1", behind, Vertex::SW);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    let m = mods(&r, &s, &[x, behind], &[y]);
    assert_eq!(modifier(&m, "rear attack"), Some(3), "{m:?}");
}

#[test]
fn r10_3_cavalry_against_infantry() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    let g = place(&r, &mut s, "von-gilsa", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(
        modifier(&m, "cavalry against normal infantry"),
        Some(-1),
        "{m:?}"
    );
    s.units[usize::from(g)].set(flag::DISORG, true);
    let m = mods(&r, &s, &[x], &[y]);
    // 10.3: "All modifiers are cumulative": −1 normal infantry and +1 disorganised infantry.
    assert_eq!(
        modifier(&m, "cavalry against disorganised infantry"),
        Some(1),
        "{m:?}"
    );
    assert_eq!(
        modifier(&m, "cavalry against normal infantry"),
        Some(-1),
        "{m:?}"
    );
    assert_eq!(modifier(&m, "defender disorganised"), Some(1), "{m:?}");
    // The −1 is not against light infantry; the +1 is (0.1: infantry is both kinds).
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    let j = place(&r, &mut s, "jager", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "cavalry against"), None, "{m:?}");
    s.units[usize::from(j)].set(flag::DISORG, true);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(
        modifier(&m, "cavalry against disorganised infantry"),
        Some(1),
        "{m:?}"
    );
}

#[test]
fn r10_3_example_cavalry_against_infantry_in_a_redoubt() {
    // 10.3 example: cavalry against normal infantry in a redoubt: -1 infantry, -2 redoubt.
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "von-fuerstenberg-1", y, Vertex::S);
    place(&r, &mut s, "wutginau-redoubt-0911", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(
        modifier(&m, "cavalry against normal infantry"),
        Some(-1),
        "{m:?}"
    );
    assert_eq!(modifier(&m, "terrain: redoubt"), Some(-2), "{m:?}");
}

#[test]
fn r10_3_crossed_swords_only_against_cavalry() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    assert!(r.sc.units[usize::from(unit(&r, "cuirassiers"))].crossed_swords);
    let mut s = empty_board(&r);
    place(&r, &mut s, "cuirassiers", x, Vertex::N);
    let e = place(&r, &mut s, "von-einsiedel", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "crossed swords"), Some(1), "{m:?}");
    s.units[usize::from(e)].hex = None;
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "crossed swords"), None, "{m:?}");
}

#[test]
fn r10_3_demoralised_and_disorganised() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    let a = place(&r, &mut s, "du-roi", x, Vertex::N);
    let d = place(&r, &mut s, "von-gilsa", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(m.len(), 1, "only the ratio: {m:?}");
    s.formations[usize::from(formation(&r, "broglie"))].demoralised = true;
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "attacker demoralised"), Some(-1), "{m:?}");
    s.formations[usize::from(formation(&r, "broglie"))].demoralised = false;
    s.formations[usize::from(formation(&r, "wutginau"))].demoralised = true;
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "defender demoralised"), Some(1), "{m:?}");
    s.formations[usize::from(formation(&r, "wutginau"))].demoralised = false;
    s.units[usize::from(a)].set(flag::DISORG, true);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "attacker disorganised"), Some(-1), "{m:?}");
    s.units[usize::from(a)].set(flag::DISORG, false);
    s.units[usize::from(d)].set(flag::DISORG, true);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "defender disorganised"), Some(1), "{m:?}");
}

#[test]
fn r10_3_commander_bonus_at_most_plus_1() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    place_cmdr(&r, &mut s, "broglie", x);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "commander"), Some(1), "{m:?}");
    // 3.2: formation and army commander together still give +1.
    place_cmdr(&r, &mut s, "estrees", x);
    let m = mods(&r, &s, &[x], &[y]);
    let total: i32 = m
        .iter()
        .filter(|(w, _)| w.starts_with("commander"))
        .map(|x| x.1)
        .sum();
    assert_eq!(total, 1, "{m:?}");
    // A defending commander gives nothing.
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    place_cmdr(&r, &mut s, "wutginau", y);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "commander"), None, "{m:?}");
}

#[test]
fn r10_3_artillery_in_the_hex_with_the_enemy_in_its_arc() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    for (facing, bonus) in [(Vertex::N, Some(1)), (Vertex::S, None)] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "broglie-art-1314", x, facing);
        place(&r, &mut s, "von-gilsa", y, Vertex::S);
        let m = mods(&r, &s, &[x], &[y]);
        assert_eq!(
            modifier(&m, "attacking artillery"),
            bonus,
            "{facing:?}: {m:?}"
        );
    }
}

#[test]
fn r10_3_terrain_most_favourable_to_the_defender() {
    let base = rules();
    let x = clear_area(&base, 2);
    let nw = go(x, &[Dir::NW]);
    let ne = go(x, &[Dir::NE]);
    let r = rules_with_map(&terrain_toml(&[nw], "town"));
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", nw, Vertex::S);
    place(&r, &mut s, "von-fuerstenberg-2", ne, Vertex::S);
    let m = mods(&r, &s, &[x], &[nw, ne]);
    assert_eq!(modifier(&m, "terrain"), Some(-1), "{m:?}");
    let m = mods(&r, &s, &[x], &[ne]);
    assert_eq!(modifier(&m, "terrain"), None, "{m:?}");
}

#[test]
fn r10_3_morale_of_the_top_units() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "grenadiers", x, Vertex::N);
    place(&r, &mut s, "palatinat-1", x, Vertex::N);
    place(&r, &mut s, "prinz-von-anhalt-1", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(
        modifier(&m, "morale"),
        Some(1),
        "grenadiers 5 on top vs 4: {m:?}"
    );
    let mut s = empty_board(&r);
    place(&r, &mut s, "palatinat-1", x, Vertex::N);
    place(&r, &mut s, "grenadiers", x, Vertex::N);
    place(&r, &mut s, "prinz-von-anhalt-1", y, Vertex::S);
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(
        modifier(&m, "morale"),
        None,
        "Palatinat 4 on top vs 4: {m:?}"
    );
    // Demoralised: the morale value itself drops by one (13.1).
    s.formations[usize::from(formation(&r, "wutginau"))].demoralised = true;
    let m = mods(&r, &s, &[x], &[y]);
    assert_eq!(modifier(&m, "morale"), Some(1), "4 vs 3: {m:?}");
}
