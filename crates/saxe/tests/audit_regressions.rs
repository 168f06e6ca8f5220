//! Regression tests for the 13 rule findings of the audit (one test per finding), built from the
//! auditor's probes: each builds a position on an empty board, drives it with the legal action ids,
//! and asserts the behaviour the rules require. Where a die decides, seeds are tried until the
//! wanted roll comes up, or the test asserts what holds for every roll.
mod common;

use common::*;
use engine::Dice;
use hexmap::{Dir, HexId, Vertex};
use saxe::Saxe;
use saxe::event::Event;
use saxe::scenario::Side;
use saxe::state::{Frame, GroupKind, Phase, State, flag};

/// The first seed in `0..5000` for which `f` holds.
fn seed_where(what: &str, mut f: impl FnMut(u64) -> bool) -> u64 {
    (0..5000u64)
        .find(|&k| f(k))
        .unwrap_or_else(|| panic!("no seed gives {what}"))
}

/// Apply the first legal action while `side` decides inside a procedure (retreats, routs, losses,
/// aides…), so that the other side's next decision comes up.
fn settle(r: &Saxe, s: &mut State, side: Side) {
    for _ in 0..100 {
        if s.frames.is_empty() || r.decider_side(s) != Some(side) {
            return;
        }
        let l = ids(r, s);
        let Some(first) = l.first() else { return };
        act(r, s, &first.clone());
    }
}

/// The die rolls of 11.4 (commander casualties).
fn casualty_rolls(ev: &[Event]) -> Vec<(u8, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Roll {
                rule, what, die, ..
            } if rule.starts_with("11.4") => Some((*die, what.to_string())),
            _ => None,
        })
        .collect()
}

/// The total of the combat roll (CRT), if any.
fn crt_total(ev: &[Event]) -> Option<i32> {
    ev.iter().find_map(|e| match e {
        Event::Roll { rule, total, .. } if rule.starts_with("CRT") => Some(*total),
        _ => None,
    })
}

/// The `what` of the morale tests rolled for a fire result (9.2).
fn fire_morale_tests(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Roll { rule, what, .. } if rule == "9.2" => Some(what.to_string()),
            _ => None,
        })
        .collect()
}

/// Finding 1 (9.5, 11.5, 11.3): guns left alone in a hex.
#[test]
fn r11_5_advance_destroys_a_lone_redoubt() {
    let r = rules();
    let x = clear_area(&r, 3);
    let d = go(x, &[Dir::NW]);

    // 10.1: a hex holding only enemy guns is not an attack target.
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "zastrow-redoubt-0515", d, Vertex::S);
    combat_phase(&mut s, Side::French);
    assert!(r.attack_targets(&s, x).is_empty());
    let l = ids(&r, &s);
    assert!(!l.iter().any(|i| i.starts_with("attack:")), "{l:?}");

    // 7 / 11.5: Du Roi stands in the ZoC of the lone redoubt (its front hex SE); it may not leave
    // the ZoC, but it may step into the redoubt's hex, which destroys the redoubt.
    let mut s = empty_board(&r);
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    let red = place(&r, &mut s, "zastrow-redoubt-0515", d, Vertex::S);
    place_cmdr(&r, &mut s, "broglie", x);
    assert!(r.in_zoc_of(&s, x, Side::Allies));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let l = ids(&r, &s);
    assert!(l.contains(&"step:NW".to_string()), "{l:?}");
    assert!(
        !l.contains(&"step:NE".to_string()),
        "leaving the ZoC elsewhere is still forbidden: {l:?}"
    );
    let ev = act(&r, &mut s, "step:NW");
    assert!(!r.alive(&s, red), "the lone redoubt is destroyed");
    assert!(logged(&ev, "11.5"), "{ev:?}");
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(d));

    // 11.3: the defenders retreat (or rout) out of the redoubt; the hex, holding only the redoubt,
    // counts as vacated, and advancing into it destroys the redoubt.
    let mut base = empty_board(&r);
    let du_roi = place(&r, &mut base, "du-roi", x, Vertex::N);
    place(&r, &mut base, "grenadiers", x, Vertex::N);
    place_cmdr(&r, &mut base, "broglie", x);
    let red = place(&r, &mut base, "zastrow-redoubt-0515", d, Vertex::S);
    let block = place(&r, &mut base, "von-block-3", d, Vertex::S);
    base.units[usize::from(block)].set(flag::DISORG, true);
    combat_phase(&mut base, Side::French);
    let attack = format!("attack:{x}>{d}");
    let mut after = None;
    seed_where("the defender leaving the redoubt", |k| {
        let mut s = base.clone();
        s.dice = Dice::new(k);
        act(&r, &mut s, &attack);
        settle(&r, &mut s, Side::Allies);
        let ok = matches!(s.frames.last(), Some(Frame::Advance(_)))
            && r.alive(&s, red)
            && r.combat_units_at(&s, d).is_empty()
            && r.combat_units_at(&s, x).len() == 2;
        if ok {
            after = Some(s);
        }
        ok
    });
    let mut s = after.expect("found");
    let adv = format!("advance:{x}>{d}");
    let l = ids(&r, &s);
    assert!(l.contains(&adv), "the redoubt's hex is vacated: {l:?}");
    let ev = act(&r, &mut s, &adv);
    assert!(!r.alive(&s, red), "advancing destroys the lone redoubt");
    assert!(logged(&ev, "11.5"), "{ev:?}");
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(d));
}

/// Finding 2 (9.3): reaction fire uses only the once-a-turn reaction allowance.
#[test]
fn r9_3_reaction_fire_does_not_stop_the_gun_in_its_own_phase() {
    // A field gun: after reaction fire it may still fire, turn and move in its activation.
    let (r, gun) = rules_with_allied_gun();
    let x = clear_area(&r, 3);
    let start = go(x, &[Dir::SE, Dir::SE, Dir::SE]);
    let to = go(x, &[Dir::SE, Dir::SE]);
    let mut s = empty_board(&r);
    s.units[usize::from(gun)].hex = Some(x);
    s.units[usize::from(gun)].facing = Vertex::S;
    place(&r, &mut s, "prinz-von-anhalt-1", x, Vertex::S);
    let poitou = place(&r, &mut s, "poitou", start, facing_toward(Dir::NW));
    place_cmdr(&r, &mut s, "broglie", start);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:poitou");
    act(&r, &mut s, "step:NW");
    let fire = format!("reaction-fire:contades-art-1309:{to}");
    let l = ids(&r, &s);
    assert!(l.contains(&fire), "{l:?}");
    // Die 1 - 1 (range 2) + 1 (12 lb) = 1: no effect.
    s.dice = dice_rolling(&[1]);
    act(&r, &mut s, &fire);
    assert_eq!(s.units[usize::from(poitou)].hex, Some(to));
    assert!(r.has(&s, gun, flag::REACT_FIRED));
    assert!(!r.has(&s, gun, flag::FIRED), "reaction fire is not 2b fire");
    // The Allied half of the turn: Wutginau's formation (with the gun) is activated.
    s.frames.clear();
    s.active = Side::Allies;
    s.second = true;
    s.phase = Phase::ChooseActivation;
    place_cmdr(&r, &mut s, "wutginau", x);
    place_cmdr(&r, &mut s, "cumberland", x);
    s.dice = dice_rolling(&[1]);
    act(&r, &mut s, "activate:wutginau");
    assert!(top_activation(&s).expect("activation").success);
    let l = ids(&r, &s);
    for want in [
        format!("art-fire:contades-art-1309:{to}"),
        "art-face:contades-art-1309:cw".to_string(),
        "move-unit:contades-art-1309".to_string(),
    ] {
        assert!(l.contains(&want), "{want}: {l:?}");
    }

    // A redoubt: after reaction fire it may still fire in its side's redoubt-fire step.
    let r = rules();
    let mut s = empty_board(&r);
    let red = place(&r, &mut s, "zastrow-redoubt-0515", x, Vertex::S);
    place(&r, &mut s, "von-block-2", x, Vertex::S);
    place(&r, &mut s, "poitou", start, facing_toward(Dir::NW));
    place_cmdr(&r, &mut s, "broglie", start);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:poitou");
    act(&r, &mut s, "step:NW");
    let fire = format!("reaction-fire:zastrow-redoubt-0515:{to}");
    let l = ids(&r, &s);
    assert!(l.contains(&fire), "{l:?}");
    // Die 1 at range 2: no effect.
    s.dice = dice_rolling(&[1]);
    act(&r, &mut s, &fire);
    assert!(r.has(&s, red, flag::REACT_FIRED));
    assert!(!r.has(&s, red, flag::FIRED));
    s.frames.clear();
    s.active = Side::Allies;
    s.second = true;
    s.phase = Phase::RedoubtFire;
    let l = ids(&r, &s);
    assert!(
        l.contains(&format!("redoubt-fire:zastrow-redoubt-0515:{to}")),
        "{l:?}"
    );
}

/// Finding 3 (4.B1, 8.6, 9.3): an 8.4 fall-back and an 8.7.1 pivot are one-hex moves that the
/// inactive player may react to.
#[test]
fn r9_3_fall_back_and_pivot_give_a_reaction_opportunity() {
    let (r, gun) = rules_with_allied_gun();

    // 8.4: Poitou falls back out of Von Gilsa's ZoC into a rear hex the Allied gun covers.
    let p = clear_area(&r, 3);
    let mut s = empty_board(&r);
    place(&r, &mut s, "poitou", p, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", p);
    place(&r, &mut s, "von-gilsa", go(p, &[Dir::NW]), Vertex::S);
    let gh = go(p, &[Dir::SE, Dir::SE, Dir::SE]);
    s.units[usize::from(gun)].hex = Some(gh);
    s.units[usize::from(gun)].facing = Vertex::N;
    place(&r, &mut s, "prinz-von-anhalt-1", gh, Vertex::N);
    let back = go(p, &[Dir::SE]);
    assert!(r.can_aim(&s, gun, gh, back));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:poitou");
    let fall_back = format!("leave-zoc:{back}:0");
    let l = ids(&r, &s);
    assert!(l.contains(&fall_back), "{l:?}");
    act(&r, &mut s, &fall_back);
    assert!(
        matches!(s.frames.last(), Some(Frame::Reaction(rc)) if rc.side == Side::Allies),
        "a reaction opportunity after the fall-back: {:?}",
        s.frames.last()
    );
    assert_eq!(r.decider_side(&s), Some(Side::Allies));
    let l = ids(&r, &s);
    assert!(
        l.contains(&format!("reaction-fire:contades-art-1309:{back}")),
        "{l:?}"
    );

    // 8.7.1: Royal-Pologne swings round Du Roy into a hex the Allied gun covers.
    let x = clear_area(&r, 3);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    let rp = place(&r, &mut s, "royal-pologne", go(x, &[Dir::W]), Vertex::N);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::SE]));
    let gh = go(x, &[Dir::NW, Dir::NW, Dir::NW]);
    s.units[usize::from(gun)].hex = Some(gh);
    s.units[usize::from(gun)].facing = Vertex::S;
    place(&r, &mut s, "prinz-von-anhalt-1", gh, Vertex::S);
    let swung = go(x, &[Dir::NW]);
    assert!(r.can_aim(&s, gun, gh, swung));
    activate_auto(&r, &mut s, "broglie");
    let line = ids(&r, &s)
        .into_iter()
        .find(|i| i.starts_with("move-line:"))
        .expect("a line");
    act(&r, &mut s, &line);
    act(&r, &mut s, "pivot:du-roy:cw");
    assert_eq!(s.units[usize::from(rp)].hex, Some(swung));
    assert!(
        matches!(s.frames.last(), Some(Frame::Reaction(rc)) if rc.side == Side::Allies),
        "a reaction opportunity after the pivot: {:?}",
        s.frames.last()
    );
    let l = ids(&r, &s);
    assert!(
        l.contains(&format!("reaction-fire:contades-art-1309:{swung}")),
        "{l:?}"
    );
}

/// Finding 4 (10.3): the defending redoubt's −1 only against an attacker in its fire arc.
#[test]
fn r10_3_redoubt_artillery_only_against_attackers_in_its_fire_arc() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let red = place(&r, &mut s, "zastrow-redoubt-0515", x, Vertex::S);
    place(&r, &mut s, "von-block-2", x, Vertex::S);
    // Facing S: forward hexes SE and SW (fire arc), flank-front hexes E and W (front, not arc).
    for (d, in_arc) in [
        (Dir::SE, true),
        (Dir::SW, true),
        (Dir::E, false),
        (Dir::W, false),
    ] {
        let mut t = s.clone();
        let a = go(x, &[d]);
        let back = a.direction_to(x).expect("adjacent");
        place(&r, &mut t, "du-roi", a, facing_toward(back));
        combat_phase(&mut t, Side::French);
        assert_eq!(r.can_aim(&t, red, x, a), in_arc, "{d:?}");
        let (_, m) = r.combat_modifiers(&t, &combat_of(&r, &t, &[a], &[x]));
        assert_eq!(
            modifier(&m, "defending artillery"),
            in_arc.then_some(-1),
            "attacker in {d:?}: {m:?}"
        );
        assert_eq!(modifier(&m, "terrain: redoubt"), Some(-2), "{m:?}");
    }
}

/// Finding 5 (14.4): an activated independent unit may march in column with doubled MP.
#[test]
fn r14_4_an_activated_independent_unit_may_march_in_column() {
    let r = rules();
    let x = clear_area(&r, 3);
    let carab = unit(&r, "royal-carabiniers");
    let mut s = empty_board(&r);
    place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
    place_cmdr(&r, &mut s, "estrees", x);
    act(&r, &mut s, "activate-independent:royal-carabiniers");
    assert!(top_activation(&s).expect("activation").success);
    let l = ids(&r, &s);
    assert!(
        l.contains(&"column-move:royal-carabiniers".to_string()),
        "{l:?}"
    );
    act(&r, &mut s, "column-move:royal-carabiniers");
    let m = top_moving(&s).expect("moving");
    assert_eq!(m.kind, GroupKind::Column);
    assert_eq!(m.units, vec![carab]);
    assert_eq!(
        m.mp,
        vec![2 * r.sc.units[usize::from(carab)].mp],
        "MP doubled"
    );
    assert!(r.has(&s, carab, flag::COLUMN));

    // A failed activation (6.6) only turns the unit in place: no column.
    let mut s = empty_board(&r);
    place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
    s.dice = dice_rolling(&[6]);
    act(&r, &mut s, "activate-independent:royal-carabiniers");
    assert!(!top_activation(&s).expect("activation").success);
    let l = ids(&r, &s);
    assert!(!l.iter().any(|i| i.starts_with("column-move:")), "{l:?}");
}

/// Finding 6 (14.1): a unit of a march column on a road hex changes facing for free.
#[test]
fn r14_1_a_column_on_a_road_changes_facing_for_free() {
    let r = rules();
    let road =
        r.sc.map
            .hexes()
            .find(|&h| r.on_road(h))
            .expect("a hex with a road hexside");
    let off_road = clear_area(&r, 2);
    assert!(!r.on_road(off_road));
    // (hex, column?, MP left after one vertex)
    for (h, column, want) in [(road, true, 12u8), (off_road, true, 11), (road, false, 5)] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "royal-carabiniers", h, Vertex::N);
        place_cmdr(&r, &mut s, "estrees", h);
        act(&r, &mut s, "activate-independent:royal-carabiniers");
        if column {
            act(&r, &mut s, "column-move:royal-carabiniers");
        } else {
            act(&r, &mut s, "move-unit:royal-carabiniers");
        }
        let l = ids(&r, &s);
        assert!(l.contains(&"turn:cw".to_string()), "{h} {column}: {l:?}");
        act(&r, &mut s, "turn:cw");
        let m = top_moving(&s).expect("still moving");
        assert_eq!(m.mp, vec![want], "{h}, column {column}");
        assert_eq!(
            s.units[usize::from(unit(&r, "royal-carabiniers"))].facing,
            Vertex::NE
        );
    }
}

/// Finding 7 (11.4): only the commanders of a stack that lost a step roll for their life.
#[test]
fn r11_4_only_the_commander_of_the_stack_that_lost_a_step_rolls() {
    let r = rules();
    let x = clear_area(&r, 3);
    let d = go(x, &[Dir::NW]);
    let a1 = x;
    let a2 = go(x, &[Dir::W]);
    assert_eq!(a2.distance(d), 1);
    let mut base = empty_board(&r);
    let poitou = place(&r, &mut base, "poitou", a1, Vertex::N);
    // One more loss eliminates Poitou.
    base.units[usize::from(poitou)].lost = r.sc.units[usize::from(poitou)].steps - 1;
    let dir2 = a2.direction_to(d).expect("adjacent");
    place(&r, &mut base, "eu", a2, facing_toward(dir2));
    let broglie = place_cmdr(&r, &mut base, "broglie", a2);
    place(&r, &mut base, "von-block-1", d, Vertex::S);
    place(&r, &mut base, "von-spoercken", d, Vertex::S);
    combat_phase(&mut base, Side::French);
    let attack = format!("attack:{a2}+{a1}>{d}");
    let attack = if ids(&r, &base).contains(&attack) {
        attack
    } else {
        format!("attack:{a1}+{a2}>{d}")
    };
    let l = ids(&r, &base);
    assert!(l.contains(&attack), "{l:?}");
    let mut losses = None;
    seed_where("one French step to allocate between both stacks", |k| {
        let mut s = base.clone();
        s.dice = Dice::new(k);
        act(&r, &mut s, &attack);
        let ok = matches!(s.frames.last(),
            Some(Frame::Losses { side: Side::French, hexes, .. }) if hexes.len() == 2)
            && s.frames
                .iter()
                .any(|f| matches!(f, Frame::Combat(c) if c.losses_left[0] == 1));
        if ok {
            losses = Some(s);
        }
        ok
    });
    let s0 = losses.expect("found");

    // The step is Poitou's (eliminated): Broglie, in the other hex, does not roll.
    let mut s = s0.clone();
    let ev = act(&r, &mut s, &format!("allocate-loss:{a1}"));
    assert!(!r.alive(&s, poitou));
    assert!(casualty_rolls(&ev).is_empty(), "{ev:?}");
    assert!(s.commanders[usize::from(broglie)].hex.is_some());
    assert_eq!(s.commanders[usize::from(broglie)].aides, 0);

    // The step is Eu's: Broglie, stacked with it, rolls (killed on 1).
    let mut s = s0;
    let ev = act(&r, &mut s, &format!("allocate-loss:{a2}"));
    let rolls = casualty_rolls(&ev);
    assert_eq!(rolls.len(), 1, "{ev:?}");
    assert!(rolls[0].1.contains(r.cname(broglie)), "{rolls:?}");
    assert!(rolls[0].1.contains("killed on 1"), "{rolls:?}");
}

/// Finding 8 (11.4): commanders whose stack is eliminated for want of a retreat, or who retreat
/// with it into an enemy front hex and lose a step.
#[test]
fn r11_4_commander_casualties_in_retreats() {
    let r = rules();
    let x = clear_area(&r, 3);
    let d = go(x, &[Dir::NW]);
    let far = ahead(x, Dir::E, 4);
    let wutginau = cmdr(&r, "wutginau");
    let wf = formation(&r, "wutginau");
    let board = |n_empty: Option<HexId>| {
        let mut s = empty_board(&r);
        place(&r, &mut s, "grenadiers", x, Vertex::N);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        let g = place(&r, &mut s, "von-gilsa", d, Vertex::S);
        place_cmdr(&r, &mut s, "wutginau", d);
        place(&r, &mut s, "von-fuerstenberg-1", far, Vertex::S);
        let others = [
            "palatinat-1",
            "palatinat-2",
            "royal-suedois",
            "poitou",
            "eu",
        ];
        let mut i = 0;
        for (dir, n) in d.neighbours() {
            if n == x || Some(n) == n_empty {
                continue;
            }
            // The unit NE of Von Gilsa faces W: the empty hex NW of Von Gilsa is in its front.
            let f = if dir == Dir::NE {
                facing_toward(Dir::W)
            } else {
                Vertex::N
            };
            place(&r, &mut s, others[i], n, f);
            i += 1;
        }
        combat_phase(&mut s, Side::French);
        (s, g)
    };
    let attack = format!("attack:{x}>{d}");

    // Surrounded: Von Gilsa cannot retreat and is eliminated; Wutginau rolls, killed on 1–2,
    // otherwise he rejoins his troops (Von Fürstenberg 1). CRT row 8 is TM+2-R1 (no step lost).
    let (base, g) = board(None);
    let (mut killed, mut rejoined) = (false, false);
    for k in 0..3000u64 {
        let mut s = base.clone();
        s.dice = Dice::new(k);
        let ev = act(&r, &mut s, &attack);
        if crt_total(&ev) != Some(8) || !logged(&ev, "cannot retreat") {
            continue;
        }
        assert!(!r.alive(&s, g));
        let rolls = casualty_rolls(&ev);
        assert_eq!(rolls.len(), 1, "seed {k}: {ev:?}");
        let (die, what) = &rolls[0];
        assert!(what.contains("killed on 1–2"), "{what}");
        if *die <= 2 {
            killed = true;
            assert_eq!(s.commanders[usize::from(wutginau)].aides, 1, "seed {k}");
            assert_eq!(s.formations[usize::from(wf)].commanders_lost, 1);
        } else {
            rejoined = true;
            assert_eq!(s.commanders[usize::from(wutginau)].aides, 0, "seed {k}");
            assert_eq!(
                s.commanders[usize::from(wutginau)].hex,
                Some(far),
                "seed {k}: he rejoins his troops"
            );
        }
        if killed && rejoined {
            break;
        }
    }
    assert!(killed && rejoined, "both cases seen");

    // One way out, into a French front hex: Von Gilsa loses a step there and Wutginau, retreating
    // with it, rolls (killed on 1).
    let n = go(d, &[Dir::NW]);
    let (base, g) = board(Some(n));
    let (mut killed, mut unhurt) = (false, false);
    for k in 0..3000u64 {
        let mut s = base.clone();
        s.dice = Dice::new(k);
        let ev = act(&r, &mut s, &attack);
        if crt_total(&ev) != Some(8) || s.units[usize::from(g)].hex != Some(n) {
            continue;
        }
        assert_eq!(s.units[usize::from(g)].lost, 1, "seed {k}: {ev:?}");
        let rolls = casualty_rolls(&ev);
        assert_eq!(rolls.len(), 1, "seed {k}: {ev:?}");
        let (die, what) = &rolls[0];
        assert!(
            what.contains("killed on 1") && !what.contains("1–2"),
            "{what}"
        );
        if *die == 1 {
            killed = true;
            assert_eq!(s.commanders[usize::from(wutginau)].aides, 1, "seed {k}");
        } else {
            unhurt = true;
            assert_eq!(s.commanders[usize::from(wutginau)].aides, 0, "seed {k}");
            assert_eq!(s.commanders[usize::from(wutginau)].hex, Some(n));
        }
        if killed && unhurt {
            break;
        }
    }
    assert!(killed && unhurt, "both cases seen");
}

/// Finding 9 (3.2): a unit entering a hex held only by an enemy commander sends him to his troops.
#[test]
fn r3_2_entering_a_lone_enemy_commanders_hex_sends_him_to_his_troops() {
    let r = rules();
    let x = clear_area(&r, 3);
    let d = go(x, &[Dir::NW]);
    let far = ahead(x, Dir::E, 4);
    let wutginau = cmdr(&r, "wutginau");

    // The routed Von Gilsa is eliminated when attacked (12.3): Wutginau, left without troops,
    // rolls (11.4) and, if he lives, rejoins his troops at once (3.2), so Du Roi's advance
    // finds the hex empty.
    let mut s = empty_board(&r);
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    let g = place(&r, &mut s, "von-gilsa", d, Vertex::S);
    s.units[usize::from(g)].set(flag::ROUTED, true);
    place_cmdr(&r, &mut s, "wutginau", d);
    place(&r, &mut s, "von-fuerstenberg-1", far, Vertex::S);
    combat_phase(&mut s, Side::French);
    let ev = act(&r, &mut s, &format!("attack:{x}>{d}"));
    assert_ne!(s.commanders[usize::from(wutginau)].hex, Some(d), "{ev:?}");
    assert!(
        logged(&ev, "rejoins his troops") || logged(&ev, "killed"),
        "{ev:?}"
    );
    act(&r, &mut s, &format!("advance:{x}>{d}"));
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(d));

    // Retreat: Poitou retreats into a rear hex holding only Wutginau.
    let p = x;
    let back = go(p, &[Dir::SE]);
    let mut s = empty_board(&r);
    let poitou = place(&r, &mut s, "poitou", p, Vertex::N);
    place_cmdr(&r, &mut s, "wutginau", back);
    place(&r, &mut s, "von-fuerstenberg-1", far, Vertex::S);
    r.queue_retreat(&mut s, &[poitou], 1, false);
    let l = ids(&r, &s);
    assert!(l.contains(&format!("retreat:{back}")), "{l:?}");
    act(&r, &mut s, &format!("retreat:{back}"));
    assert_eq!(s.units[usize::from(poitou)].hex, Some(back));
    assert_eq!(s.commanders[usize::from(wutginau)].hex, Some(far));

    // Rout: Poitou routs through a hex holding only Wutginau.
    let mut s = empty_board(&r);
    let poitou = place(&r, &mut s, "poitou", p, Vertex::N);
    place(&r, &mut s, "von-fuerstenberg-1", far, Vertex::S);
    let mut ev = Vec::new();
    r.rout(&mut s, poitou, "test", &mut ev);
    let Some(Frame::Rout(rt)) = s.frames.last().cloned() else {
        panic!("a rout");
    };
    let first = r.rout_options(&s, &rt)[0];
    place_cmdr(&r, &mut s, "wutginau", first);
    let l = ids(&r, &s);
    assert!(l.contains(&format!("retreat:{first}")), "{l:?}");
    act(&r, &mut s, &format!("retreat:{first}"));
    assert_ne!(s.units[usize::from(poitou)].hex, Some(p));
    assert_eq!(s.commanders[usize::from(wutginau)].hex, Some(far));
}

/// Finding 10 (10.3): cavalry modifiers against infantry are cumulative.
#[test]
fn r10_3_cavalry_modifiers_against_infantry_are_cumulative() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    // (defender, disorganised, −1 normal infantry, +1 disorganised infantry)
    for (id, disorg, normal, dis) in [
        ("von-gilsa", false, Some(-1), None),
        ("von-gilsa", true, Some(-1), Some(1)),
        ("jager", false, None, None),
        ("jager", true, None, Some(1)),
    ] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roy", x, Vertex::N);
        let u = place(&r, &mut s, id, y, Vertex::S);
        s.units[usize::from(u)].set(flag::DISORG, disorg);
        combat_phase(&mut s, Side::French);
        let (_, m) = r.combat_modifiers(&s, &combat_of(&r, &s, &[x], &[y]));
        assert_eq!(
            modifier(&m, "cavalry against normal infantry"),
            normal,
            "{id} disorganised {disorg}: {m:?}"
        );
        assert_eq!(
            modifier(&m, "cavalry against disorganised infantry"),
            dis,
            "{id} disorganised {disorg}: {m:?}"
        );
    }
}

/// Finding 11 (8.4 via 11.2): a fall-back may join a friend in a rear hex if the stack is legal.
#[test]
fn r8_4_fall_back_may_join_a_friend_when_the_stack_is_legal() {
    let r = rules();
    let p = clear_area(&r, 3);
    let [rear0, rear1] = Vertex::N.rear().map(|d| go(p, &[d]));
    let setup = |mover: &str, friend: &str, friend_facing: Vertex| {
        let mut s = empty_board(&r);
        let u = place(&r, &mut s, mover, p, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", p);
        place(&r, &mut s, "von-gilsa", go(p, &[Dir::NW]), Vertex::S);
        let f = place(&r, &mut s, friend, rear0, friend_facing);
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, &format!("move-unit:{mover}"));
        (s, u, f)
    };

    // Infantry joining infantry with the same facing.
    let (mut s, poitou, suedois) = setup("poitou", "royal-suedois", Vertex::N);
    let l = ids(&r, &s);
    assert!(l.contains(&format!("leave-zoc:{rear0}:0")), "{l:?}");
    assert!(l.contains(&format!("leave-zoc:{rear1}:0")), "{l:?}");
    act(&r, &mut s, &format!("leave-zoc:{rear0}:0"));
    assert_eq!(s.units[usize::from(poitou)].hex, Some(rear0));
    assert_eq!(
        r.combat_units_at(&s, rear0),
        vec![suedois, poitou],
        "the newcomer goes under"
    );
    assert!(r.stacking_ok(rear0, &r.units_at(&s, rear0), &s));

    // A friend facing another way: not a legal stack.
    let (s, _, _) = setup("poitou", "royal-suedois", Vertex::S);
    let l = ids(&r, &s);
    assert!(!l.contains(&format!("leave-zoc:{rear0}:0")), "{l:?}");
    assert!(l.contains(&format!("leave-zoc:{rear1}:0")), "{l:?}");

    // Cavalry may turn one vertex as it falls back: only the turn that matches the friend.
    let (s, _, _) = setup("du-roy", "royal-pologne", Vertex::N.turned(1));
    let l = ids(&r, &s);
    assert!(l.contains(&format!("leave-zoc:{rear0}:1")), "{l:?}");
    assert!(!l.contains(&format!("leave-zoc:{rear0}:0")), "{l:?}");
    assert!(!l.contains(&format!("leave-zoc:{rear0}:-1")), "{l:?}");

    // Infantry may not join cavalry (3.1).
    let (s, _, _) = setup("poitou", "royal-pologne", Vertex::N);
    let l = ids(&r, &s);
    assert!(
        !l.iter()
            .any(|i| i.starts_with(&format!("leave-zoc:{rear0}:"))),
        "{l:?}"
    );
}

/// Finding 12 (15.3): a side halted by an A result neither reacts with cavalry nor marches in
/// column.
#[test]
fn r15_3_a_halted_side_has_no_cavalry_reaction_nor_column_march() {
    let r = rules();
    let x = clear_area(&r, 2);
    let hod_hex = go(x, &[Dir::NE, Dir::NE, Dir::NE]);
    for halted in [false, true] {
        // 8.6 cavalry reaction by the halted Allies.
        let mut s = empty_board(&r);
        s.options.perception = true;
        s.perception[Side::Allies.ix()].halted = halted;
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        place(&r, &mut s, "von-hodenberg", hod_hex, Vertex::S);
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:du-roi");
        act(&r, &mut s, "step:NE");
        let l = ids(&r, &s);
        assert_eq!(
            l.contains(&"cavalry-reaction:von-hodenberg".to_string()),
            !halted,
            "halted {halted}: {l:?}"
        );
        assert_eq!(
            matches!(s.frames.last(), Some(Frame::Reaction(_))),
            !halted,
            "halted {halted}"
        );

        // 14.1 column march of the halted French (phase A).
        let mut s = empty_board(&r);
        s.options.perception = true;
        s.perception[Side::French.ix()].halted = halted;
        let f = formation(&r, "broglie");
        s.formations[usize::from(f)].column = Some(x);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        s.phase = Phase::March(Side::French);
        let l = ids(&r, &s);
        assert_eq!(
            l.contains(&"march:broglie".to_string()),
            !halted,
            "halted {halted}: {l:?}"
        );
        if halted {
            assert!(l.is_empty(), "{l:?}");
        }

        // 14.4 column of an activated independent unit of the halted French.
        let mut s = empty_board(&r);
        s.options.perception = true;
        s.perception[Side::French.ix()].halted = halted;
        place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
        place_cmdr(&r, &mut s, "estrees", x);
        act(&r, &mut s, "activate-independent:royal-carabiniers");
        let l = ids(&r, &s);
        assert_eq!(
            l.contains(&"column-move:royal-carabiniers".to_string()),
            !halted,
            "halted {halted}: {l:?}"
        );
    }
}

/// Finding 13 (9.3): reaction fire at the hex entered hits the whole stack there; at the hex left,
/// only the units that moved out of it.
#[test]
fn r9_3_reaction_fire_victims_depend_on_the_hex_aimed_at() {
    let (r, gun) = rules_with_allied_gun();
    let x = clear_area(&r, 3);
    // Both hexes two hexes from the gun, in its arc, with a clear line of sight.
    let left = go(x, &[Dir::SE, Dir::SW]);
    let entered = go(left, &[Dir::E]);
    assert_eq!(entered, go(x, &[Dir::SE, Dir::SE]));
    let facing = facing_toward(Dir::E);
    let mut base = empty_board(&r);
    base.units[usize::from(gun)].hex = Some(x);
    base.units[usize::from(gun)].facing = Vertex::S;
    place(&r, &mut base, "prinz-von-anhalt-1", x, Vertex::S);
    let du_roi = place(&r, &mut base, "du-roi", entered, facing);
    let poitou = place(&r, &mut base, "poitou", left, facing);
    place_cmdr(&r, &mut base, "broglie", left);
    activate_auto(&r, &mut base, "broglie");
    act(&r, &mut base, "move-unit:poitou");
    act(&r, &mut base, "step:E");
    assert_eq!(base.units[usize::from(poitou)].hex, Some(entered));
    let l = ids(&r, &base);
    let at_entered = format!("reaction-fire:contades-art-1309:{entered}");
    let at_left = format!("reaction-fire:contades-art-1309:{left}");
    assert!(l.contains(&at_entered), "{l:?}");
    assert!(l.contains(&at_left), "{l:?}");
    let (n_du_roi, n_poitou) = (r.uname(du_roi).to_string(), r.uname(poitou).to_string());

    // At the hex entered: normal fire on the stack, both units test their morale together.
    let mut found = false;
    for k in 0..2000u64 {
        let mut s = base.clone();
        s.dice = Dice::new(k);
        let ev = act(&r, &mut s, &at_entered);
        let tests = fire_morale_tests(&ev);
        if tests.is_empty() {
            continue;
        }
        assert_eq!(tests.len(), 1, "{ev:?}");
        assert!(
            tests[0].contains(&n_du_roi) && tests[0].contains(&n_poitou),
            "{tests:?}"
        );
        found = true;
        break;
    }
    assert!(found, "no seed gives a morale test");

    // At the hex left: only Poitou, which moved out of it; Du Roi is untouched, whatever the roll.
    let mut hit = false;
    for k in 0..200u64 {
        let mut s = base.clone();
        s.dice = Dice::new(k);
        let ev = act(&r, &mut s, &at_left);
        for t in fire_morale_tests(&ev) {
            assert!(t.contains(&n_poitou) && !t.contains(&n_du_roi), "{t}");
        }
        let u = &s.units[usize::from(du_roi)];
        assert_eq!(u.lost, 0, "seed {k}: {ev:?}");
        assert!(
            !u.has(flag::DISORG) && !u.has(flag::ROUTED),
            "seed {k}: {ev:?}"
        );
        assert_eq!(u.hex, Some(entered), "seed {k}: {ev:?}");
        hit |= !fire_morale_tests(&ev).is_empty() || s.units[usize::from(poitou)].lost > 0;
    }
    assert!(hit, "some roll affects Poitou");
}
