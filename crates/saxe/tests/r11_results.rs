//! Rule 11: combat results — the 11.4 combat example 1, losses (11.1), retreats (11.2), advance
//! (11.3), commanders (11.4), guns (11.5).
mod common;

use common::*;
use hexmap::{Dir, Vertex};
use saxe::event::Event;
use saxe::scenario::{Outcome, Side};
use saxe::state::{Frame, Retreat, State, flag};

#[test]
fn r11_4_example_1_palatinat_and_grenadiers_with_broglie_attack_anhalt_1_and_the_guns() {
    // Combat example 1 (11.4), rebuilt from its caption: the Palatinat + Grenadiers stack with
    // Broglie attacks Anhalt 1 and an artillery unit, all in clear terrain. The order of battle has
    // no Allied field gun, so a 12 lb counter is lent to Wutginau (see `rules_with_allied_gun`).
    let (r, gun) = rules_with_allied_gun();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    let gren = place(&r, &mut s, "grenadiers", x, Vertex::N);
    let pal = place(&r, &mut s, "palatinat-1", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    let anhalt = place(&r, &mut s, "prinz-von-anhalt-1", y, Vertex::S);
    s.units[usize::from(gun)].hex = Some(y);
    s.units[usize::from(gun)].facing = Vertex::S;
    s.units[usize::from(gun)].order = 1;
    combat_phase(&mut s, Side::French);

    // "It is obliged because they are both in clear terrain."
    let attack = format!("attack:{x}>{y}");
    let l = ids(&r, &s);
    assert!(l.contains(&attack), "{l:?}");
    assert!(!l.contains(&"end-combat".to_string()), "{l:?}");

    // 16 CP against 4: 4/1 → +4; top unit's morale 5 vs 4 → +1; Broglie +1; the guns −1: +5.
    let (total, m) = r.combat_modifiers(&s, &combat_of(&r, &s, &[x], &[y]));
    assert_eq!(modifier(&m, "ratio 16/4"), Some(4), "{m:?}");
    assert_eq!(modifier(&m, "morale"), Some(1), "{m:?}");
    assert_eq!(modifier(&m, "commander"), Some(1), "{m:?}");
    assert_eq!(modifier(&m, "defending artillery"), Some(-1), "{m:?}");
    assert_eq!(m.len(), 4, "{m:?}");
    assert_eq!(total, 5);

    // "The player rolls a 1": row 6, defender TM+1, attacker TM.
    let (row, a, d) = r.sc.tables.crt(total + 1);
    assert_eq!(
        (row, a.to_string(), d.to_string()),
        (6, "TM".into(), "TM+1".into())
    );
    s.dice = dice_rolling(&[1]);
    let mut ev = act(&r, &mut s, &attack);
    // 3.6: the guns on top hide Anhalt 1, so the Allies are asked whether light troops under
    // them retreat before combat (1.3); they are not light: standing is the only choice.
    assert_eq!(ids(&r, &s), vec!["pass".to_string()]);
    ev.extend(act(&r, &mut s, "pass"));
    let crt = rolls_of(&ev, "CRT");
    assert_eq!(crt.len(), 1);
    match crt[0] {
        Event::Roll {
            die, total, result, ..
        } => {
            assert_eq!((*die, *total), (1, 6));
            assert_eq!(result, "attacker TM, defender TM+1");
        }
        _ => unreachable!(),
    }
    let tests: Vec<&Event> = rolls_of(&ev, "11.1");
    assert_eq!(tests.len(), 2, "both sides test their morale: {ev:?}");
    let def_test = tests
        .iter()
        .find(|e| e.to_string().contains("Anhalt"))
        .expect("Anhalt tests");
    assert_eq!(modifier(&mods_of(def_test), "result"), Some(1));
    let att_test = tests
        .iter()
        .find(|e| e.to_string().contains("Grenadiers"))
        .expect("the stack tests with its top unit");
    assert_eq!(
        modifier(&mods_of(att_test), "result"),
        None,
        "TM without DRM"
    );
    assert_eq!(modifier(&mods_of(att_test), "commander present"), Some(-1));
    // "The units remain in place."
    assert_eq!(s.units[usize::from(gren)].hex, Some(x));
    assert_eq!(s.units[usize::from(pal)].hex, Some(x));
    assert_eq!(s.units[usize::from(anhalt)].hex, Some(y));
    assert_eq!(s.units[usize::from(gun)].hex, Some(y));
}

#[test]
fn r11_1_losses_top_unit_first_then_the_second_then_the_top_again() {
    let r = rules();
    let x = clear_area(&r, 1);
    let mut s = empty_board(&r);
    let top = place(&r, &mut s, "picardie", x, Vertex::N);
    let second = place(&r, &mut s, "navarre", x, Vertex::N);
    let mut ev = Vec::new();
    let hit = r.stack_losses(&mut s, x, 3, "11.1", &mut ev);
    assert_eq!(hit, vec![top, second, top]);
    assert_eq!(s.units[usize::from(top)].lost, 2);
    assert_eq!(s.units[usize::from(second)].lost, 1);
}

/// Eu (4 CP, MV 3) attacks von Block 1 + von Spörcken (12 CP): 1/3 → −3, morale −1.
fn weak_attack(disorganised: bool) -> (saxe::Saxe, State, hexmap::HexId, saxe::scenario::UnitIx) {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    let eu = place(&r, &mut s, "eu", x, Vertex::N);
    if disorganised {
        s.units[usize::from(eu)].set(flag::DISORG, true);
    }
    place(&r, &mut s, "von-block-1", y, Vertex::S);
    place(&r, &mut s, "von-spoercken", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    (r, s, x, eu)
}

#[test]
fn r11_1_results_in_order_losses_morale_then_retreat() {
    let (r, mut s, x, eu) = weak_attack(false);
    let y = go(x, &[Dir::NW]);
    let (total, _) = r.combat_modifiers(&s, &combat_of(&r, &s, &[x], &[y]));
    assert_eq!(total, -4);
    // Die 3: row -1, attacker 1-TM+2-R1.
    s.dice = dice_rolling(&[3, 1]);
    let ev = act(&r, &mut s, &format!("attack:{x}>{y}"));
    let text: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    let loss = text
        .iter()
        .position(|t| t.contains("Eu loses a step"))
        .expect("a step lost");
    let test = text
        .iter()
        .position(|t| t.contains("morale test of Eu"))
        .expect("a morale test");
    assert!(loss < test, "{text:?}");
    assert_eq!(modifier(&mods_of(&ev[test]), "result"), Some(2));
    assert_eq!(s.units[usize::from(eu)].lost, 1);
    // Then the retreat of one hex, toward a rear hex.
    match s.frames.last() {
        Some(Frame::Retreat(rt)) => {
            assert_eq!((rt.side, rt.left), (Side::French, 1));
            assert_eq!(rt.units, vec![eu]);
        }
        other => panic!("expected Eu's retreat, got {other:?}"),
    }
    let mut opts = ids(&r, &s);
    opts.sort();
    let mut rear: Vec<String> = Vertex::N
        .rear()
        .iter()
        .map(|&d| format!("retreat:{}", go(x, &[d])))
        .collect();
    rear.sort();
    assert_eq!(opts, rear);
}

#[test]
fn r11_1_a_unit_that_routs_does_only_its_rout_movement() {
    let (r, mut s, x, eu) = weak_attack(true);
    let y = go(x, &[Dir::NW]);
    // Disorganised: -5. Die 4: row -1 (1-TM+2-R1); morale die 6 + 2 > 3: a second disorganisation.
    s.dice = dice_rolling(&[4, 6]);
    act(&r, &mut s, &format!("attack:{x}>{y}"));
    assert!(r.has(&s, eu, flag::ROUTED));
    assert!(
        !s.frames.iter().any(|f| matches!(f, Frame::Retreat(_))),
        "no retreat besides the rout"
    );
}

/// Queue a retreat of one hex for `units` (as a combat result would).
fn queue_retreat(r: &saxe::Saxe, s: &mut State, units: &[saxe::scenario::UnitIx]) -> Retreat {
    r.queue_retreat(s, units, 1, false);
    match s.frames.last() {
        Some(Frame::Retreat(rt)) => rt.clone(),
        other => panic!("no retreat queued: {other:?}"),
    }
}

#[test]
fn r11_2_retreat_toward_rear_hexes_first() {
    let r = rules();
    let x = clear_area(&r, 2);
    let [sw, se] = Vertex::N.rear().map(|d| go(x, &[d]));
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "navarre", x, Vertex::N);
    let rt = queue_retreat(&r, &mut s, &[u]);
    let mut o = r.retreat_options(&s, &rt);
    o.sort();
    let mut want = vec![sw, se];
    want.sort();
    assert_eq!(o, want);
    // One rear hex held by the enemy: the other.
    place(&r, &mut s, "von-gilsa", sw, Vertex::S);
    assert_eq!(r.retreat_options(&s, &rt), vec![se]);
    // Both: another hex free of enemy front and flank hexes.
    place(&r, &mut s, "von-fuerstenberg-2", se, Vertex::S);
    let o = r.retreat_options(&s, &rt);
    assert!(!o.is_empty());
    assert!(
        o.iter()
            .all(|h| !Vertex::N.rear().iter().any(|&d| go(x, &[d]) == *h))
    );
}

#[test]
fn r11_2_a_unit_that_cannot_retreat_is_eliminated() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "navarre", x, Vertex::N);
    let allies = [
        "von-gilsa",
        "von-fuerstenberg-1",
        "von-fuerstenberg-2",
        "prinz-von-anhalt-1",
        "prinz-von-anhalt-2",
        "von-urff",
    ];
    for ((_, n), id) in x.neighbours().zip(allies) {
        place(&r, &mut s, id, n, Vertex::N);
    }
    queue_retreat(&r, &mut s, &[u]);
    let mut ev = Vec::new();
    r.run(&mut s, &mut ev);
    assert_eq!(s.units[usize::from(u)].hex, None);
    assert!(logged(&ev, "cannot retreat"), "{ev:?}");
}

#[test]
fn r11_2_retreat_into_enemy_front_flank_rear_hexes() {
    let r = rules();
    let x = clear_area(&r, 2);
    let to = go(x, &[Dir::SW]);
    let z = go(to, &[Dir::W]);
    for (facing, step, drm) in [
        (Vertex::NE, true, Some(2)),
        (Vertex::N, false, Some(1)),
        (Vertex::NW, false, None),
    ] {
        let mut s = empty_board(&r);
        let u = place(&r, &mut s, "navarre", x, Vertex::N);
        let g = place(&r, &mut s, "von-gilsa", z, facing);
        let arc = r.arc_toward(&s, g, to);
        queue_retreat(&r, &mut s, &[u]);
        let mut ev = Vec::new();
        r.retreat_step(&mut s, to, &mut ev);
        assert_eq!(s.units[usize::from(u)].hex, Some(to));
        assert_eq!(s.units[usize::from(u)].lost, u8::from(step), "{arc:?}");
        let t = rolls_of(&ev, "11.2");
        match drm {
            Some(v) => {
                assert_eq!(t.len(), 1, "{arc:?}: {ev:?}");
                assert_eq!(mods_of(t[0]).iter().map(|m| m.1).sum::<i32>(), v, "{arc:?}");
            }
            None => assert!(t.is_empty(), "{arc:?}: no test behind the enemy"),
        }
    }
}

#[test]
fn r11_2_1_retreat_through_friends() {
    let r = rules();
    let x = clear_area(&r, 2);
    let to = go(x, &[Dir::SW]);
    for (friend_facing, tested) in [(Vertex::N, true), (Vertex::NE, false)] {
        let mut s = empty_board(&r);
        let u = place(&r, &mut s, "navarre", x, Vertex::N);
        let f = place(&r, &mut s, "eu", to, friend_facing);
        queue_retreat(&r, &mut s, &[u]);
        let mut ev = Vec::new();
        r.retreat_step(&mut s, to, &mut ev);
        assert_eq!(
            rolls_of(&ev, "11.2.1").len(),
            usize::from(tested),
            "{friend_facing:?}"
        );
        if !tested {
            assert!(r.has(&s, f, flag::DISORG), "other facing: disorganised");
        }
        // It goes on to the first hex free of friends.
        match s.frames.last() {
            Some(Frame::Retreat(rt)) => assert_eq!(rt.left, 1),
            other => panic!("the retreat goes on: {other:?}"),
        }
    }
}

#[test]
fn r11_3_infantry_may_advance_guns_never() {
    // The defender routed, and is eliminated when attacked (12.3): the hex is vacated.
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    let gun = place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
    let g = place(&r, &mut s, "von-gilsa", y, Vertex::S);
    s.units[usize::from(g)].set(flag::ROUTED, true);
    combat_phase(&mut s, Side::French);
    act(&r, &mut s, &format!("attack:{x}>{y}"));
    assert!(matches!(s.frames.last(), Some(Frame::Advance(_))));
    assert_eq!(
        ids(&r, &s),
        vec![format!("advance:{x}>{y}"), "pass".to_string()],
        "infantry may pass; the gun is not offered"
    );
    act(&r, &mut s, &format!("advance:{x}>{y}"));
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(y));
    assert_eq!(
        s.units[usize::from(gun)].hex,
        Some(x),
        "artillery does not advance"
    );
}

#[test]
fn r11_3_and_12_3_routed_defender_eliminated_and_cavalry_advances() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    let g = place(&r, &mut s, "von-gilsa", y, Vertex::S);
    s.units[usize::from(g)].set(flag::ROUTED, true);
    combat_phase(&mut s, Side::French);
    let ev = act(&r, &mut s, &format!("attack:{x}>{y}"));
    assert_eq!(s.units[usize::from(g)].hex, None);
    assert!(logged(&ev, "12.3"), "{ev:?}");
    assert!(rolls_of(&ev, "CRT").is_empty(), "no combat roll");
    assert_eq!(ids(&r, &s), vec![format!("advance:{x}>{y}")]);
}

#[test]
fn r11_1_star_eliminates_cavalry_disorganised_by_combat() {
    let r = rules();
    let x = clear_area(&r, 2);
    let o = Outcome::parse("1D-R1*").expect("outcome");
    // Disorganised by an earlier combat: eliminated.
    let mut s = empty_board(&r);
    let c = place(&r, &mut s, "du-roy", x, Vertex::N);
    s.units[usize::from(c)].set(flag::DISORG | flag::DISORG_BY_COMBAT, true);
    let mut ev = Vec::new();
    r.apply_effects(&mut s, &[c], &o, "11.1", &[c], &mut ev);
    assert_eq!(s.units[usize::from(c)].hex, None);
    // Disorganised by terrain: not eliminated (it routs).
    let mut s = empty_board(&r);
    let c = place(&r, &mut s, "du-roy", x, Vertex::N);
    s.units[usize::from(c)].set(flag::DISORG, true);
    let mut ev = Vec::new();
    r.apply_effects(&mut s, &[c], &o, "11.1", &[], &mut ev);
    assert!(s.units[usize::from(c)].hex.is_some());
    assert!(r.has(&s, c, flag::ROUTED));
    // Infantry disorganised by combat: not eliminated.
    let mut s = empty_board(&r);
    let i = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.units[usize::from(i)].set(flag::DISORG | flag::DISORG_BY_COMBAT, true);
    let mut ev = Vec::new();
    r.apply_effects(&mut s, &[i], &o, "11.1", &[i], &mut ev);
    assert!(s.units[usize::from(i)].hex.is_some());
}

#[test]
fn r11_4_commander_casualties() {
    let r = rules();
    let x = clear_area(&r, 2);
    let broglie = cmdr(&r, "broglie");
    let f = formation(&r, "broglie");
    // Units lost a step: killed on a 1.
    for (die, killed) in [(1, true), (2, false)] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "poitou", go(x, &[Dir::W, Dir::W]), Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        s.dice = dice_rolling(&[die]);
        let mut ev = Vec::new();
        r.commander_casualty(&mut s, broglie, x, true, &mut ev);
        assert_eq!(
            s.commanders[usize::from(broglie)].hex.is_none(),
            killed,
            "die {die}"
        );
        if killed {
            assert_eq!(s.commanders[usize::from(broglie)].aides, 1);
            assert_eq!(s.formations[usize::from(f)].commanders_lost, 1);
            assert!(matches!(s.frames.last(), Some(Frame::PlaceAide { .. })));
            act(&r, &mut s, "place-aide:poitou");
            assert_eq!(
                s.commanders[usize::from(broglie)].hex,
                Some(go(x, &[Dir::W, Dir::W]))
            );
        }
    }
    // Units eliminated: killed on 1 or 2, otherwise he rejoins his formation.
    for (die, killed) in [(2, true), (3, false)] {
        let mut s = empty_board(&r);
        let p = place(&r, &mut s, "poitou", go(x, &[Dir::W, Dir::W]), Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        s.dice = dice_rolling(&[die]);
        let mut ev = Vec::new();
        r.commander_casualty(&mut s, broglie, x, false, &mut ev);
        let h = s.commanders[usize::from(broglie)].hex;
        if killed {
            assert!(h.is_none(), "die {die}");
        } else {
            assert_eq!(h, s.units[usize::from(p)].hex, "die {die}");
        }
    }
    // The army commander killed: -2 for every formation (13.1) and a successor.
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    let estrees = place_cmdr(&r, &mut s, "estrees", x);
    place_cmdr(&r, &mut s, "contades", go(x, &[Dir::W]));
    s.dice = dice_rolling(&[1]);
    let mut ev = Vec::new();
    r.commander_casualty(&mut s, estrees, x, true, &mut ev);
    assert!(s.army_commander_lost[Side::French.ix()]);
    assert!(matches!(
        s.frames.last(),
        Some(Frame::NewArmyCommander { .. })
    ));
    assert_eq!(r.formation_losses(&s, f), 2);
}

#[test]
fn r11_5_guns_eliminated_with_the_last_unit_of_their_stack() {
    let r = rules();
    let x = clear_area(&r, 1);
    let mut s = empty_board(&r);
    let p = place(&r, &mut s, "poitou", x, Vertex::N);
    let g = place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
    let mut ev = Vec::new();
    r.eliminate(&mut s, p, "test", "11.1", &mut ev);
    assert_eq!(s.units[usize::from(g)].hex, None);
    assert!(logged(&ev, "11.5"));
}

#[test]
fn r11_2_a_retreating_unit_keeps_its_facing() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "navarre", x, Vertex::NE);
    queue_retreat(&r, &mut s, &[u]);
    let to = go(x, &[Vertex::NE.rear()[0]]);
    let mut ev = Vec::new();
    r.retreat_step(&mut s, to, &mut ev);
    assert_eq!(s.units[usize::from(u)].hex, Some(to));
    assert_eq!(s.units[usize::from(u)].facing, Vertex::NE);
}

#[test]
fn r11_2_cavalry_hemmed_in_by_woods_is_eliminated() {
    let base = rules();
    let x = clear_area(&base, 2);
    let ring: Vec<hexmap::HexId> = x.neighbours().map(|(_, n)| n).collect();
    let r = rules_with_map(&terrain_toml(&ring, "woods"));
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roy", x, Vertex::N);
    queue_retreat(&r, &mut s, &[u]);
    let mut ev = Vec::new();
    r.run(&mut s, &mut ev);
    assert_eq!(s.units[usize::from(u)].hex, None);
}
