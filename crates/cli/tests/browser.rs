//! The browser test (issue 3): the real `tricorne serve` on a free port with a fresh SQLite file,
//! driven through Debian's headless Chromium over the DevTools protocol (`headless_chrome`). It
//! opens the lobby, starts Hastenbeck against the AI as the French, activates a formation with its
//! button, moves a unit by clicking its hex and then a highlighted hex, plays on with the buttons
//! until the AI has answered, and checks the turn, phase and log on the page. A second test plays
//! the miniatures table (issue 6): the encounter against the AI as Blue, a unit selected by
//! clicking its base, a refused move and its reason, a move by clicking a point of the table, the
//! sectors ended with the buttons until the AI has answered. Screenshots are kept in
//! `target/browser-test/`.

mod browser_support;

use browser_support::*;
use headless_chrome::Tab;
use headless_chrome::browser::tab::point::Point;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

#[test]
fn play_hastenbeck_against_the_ai_in_chromium() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: the browser test needs Debian's Chromium \
         (scripts/test installs it; or run `apt-get install chromium`)"
    );
    let _ = std::fs::remove_file(artifacts().join("failure.png"));
    // The lobby: Hastenbeck, against the computer, as the French.
    let (dir, server, browser, tab) = against_the_computer("hastenbeck", "French", "7");

    // The play page, drawn from the board and the French view.
    wait_for(&tab, "the play page", || {
        tab.get_url().contains("/play/").then_some(())
    });
    wait_for(&tab, "the first decision", || {
        (version(&tab) == Some(0)
            && text(&tab, "#decision").contains("choose a formation to activate"))
        .then_some(())
    });
    let hexes = js(&tab, "document.querySelectorAll('#map polygon.hit').length");
    assert!(
        hexes.as_u64().unwrap_or(0) > 300,
        "the map has its hexes: {hexes}"
    );
    let counters = js(&tab, "document.querySelectorAll('#map g.counter').length");
    assert!(
        counters.as_u64().unwrap_or(0) > 40,
        "the counters are drawn: {counters}"
    );
    assert!(text(&tab, "#turn").contains("Turn 1 of 10"));
    assert!(text(&tab, "#phase").contains("Activation"));
    let lines0 = log_lines(&tab);

    // Activate a formation with its button (16.1: automatic on the first turn).
    let (activate, _) = action_button(&tab, "activate-auto:").expect("an activation button");
    click(
        &tab,
        &format!("#actions button[data-action=\"{activate}\"]"),
    );
    let v = wait_version_above(&tab, 0);
    assert!(
        text(&tab, "#decision").contains("activated"),
        "after {activate}: {}",
        text(&tab, "#decision")
    );

    // Move a unit by clicking on the map: its hex (a menu offers its actions), then a highlighted hex.
    let (mv, at) = action_button(&tab, "move-unit:").expect("a unit of the formation may move");
    click_hex_for(&tab, &at[0], &mv);
    let v = wait_version_above(&tab, v);
    assert!(
        text(&tab, "#decision").contains("moving"),
        "after {mv}: {}",
        text(&tab, "#decision")
    );
    let (step, to) = action_button(&tab, "step:").expect("the moving unit may step");
    click_hex_for(&tab, &to[0], &step);
    let mut v = wait_version_above(&tab, v);
    wait_for(&tab, "the move in the log", || {
        text(&tab, "#log").contains(to[0].as_str()).then_some(())
    });
    assert!(log_lines(&tab) > lines0, "the log shows new lines");
    shot(&tab, "hastenbeck-move.png");

    // Play on with the buttons until the AI has answered (several versions at once).
    let order = [
        "stop",
        "end-activation",
        "end-redoubt-fire",
        "end-combat",
        "end-army-move",
        "end-column",
        "pass",
        "activate-auto:",
        "activate:",
        "activate-independent:",
    ];
    // Issue 19.2: play on until the computer has answered with decisions that moved or changed
    // units, which the page then marks.
    let mut answered = false;
    let mut marked = 0;
    let mut before = text(&tab, "#log");
    for _ in 0..80 {
        let pick = order
            .iter()
            .find_map(|p| action_button(&tab, p))
            .or_else(|| button(&tab, "#actions .plain button[data-action]"))
            .or_else(|| button(&tab, "#actions button[data-action]"))
            .map(|(id, _)| id);
        let Some(id) = pick else {
            // Nothing to click: the AI is deciding (or the game is over).
            if !text(&tab, "#decision").contains("Game over") {
                wait_version_above(&tab, v);
                answered = true;
            }
            break;
        };
        click_action(&tab, &id);
        let n = wait_version_above(&tab, v);
        if n > v + 1 {
            answered = true;
            // The page fetches the computer's decisions one by one to mark them.
            std::thread::sleep(Duration::from_millis(1500));
            marked = recent_marks(&tab);
            if marked > 0 {
                break;
            }
        }
        v = n;
        before = text(&tab, "#log");
    }
    assert!(answered, "the AI answered within 80 actions");
    assert!(
        marked > 0,
        "the units the computer moved or changed are marked"
    );
    let log = text(&tab, "#log");
    assert_ne!(log, before, "the log shows the AI's answer");
    let recent = text(&tab, "#recent-box");
    assert!(
        recent.contains("Allies (the computer) made"),
        "the page says what the computer did: {recent}"
    );
    shots_at_two_sizes(&tab, "hastenbeck-computer-turn");

    // Step through the computer's decisions, one by one.
    let live = version(&tab).unwrap_or(0);
    click(&tab, "#recent-step");
    let from = wait_for(&tab, "the replay at the French decision", || {
        let info = text(&tab, "#rp-info");
        let upto: u64 = info.split(" / ").next()?.trim().parse().ok()?;
        (upto < live).then_some(upto)
    });
    // Each ▶ shows the next decision and its lines (a decision of theirs may have none this seat
    // reads: one of them at least has some).
    let mut lines = String::new();
    for n in from + 1..=live {
        click(&tab, "#rp-next");
        wait_for(&tab, &format!("decision {n} of the replay"), || {
            text(&tab, "#rp-info")
                .starts_with(&format!("{n} / "))
                .then_some(())
        });
        lines.push_str(&text(&tab, "#rp-events"));
        if !lines.is_empty() {
            break;
        }
    }
    assert!(
        !lines.is_empty(),
        "the decisions stepped through show their lines"
    );
    shot(&tab, "hastenbeck-step.png");
    click(&tab, "#replay-toggle");
    wait_for(&tab, "the live game again", || {
        (js(&tab, "document.body.classList.contains('replaying')") == Value::Bool(false))
            .then_some(())
    });
    assert!(
        text(&tab, "#decision").contains("You (French)")
            || text(&tab, "#decision").contains("Game over"),
        "the French decide again: {}",
        text(&tab, "#decision")
    );
    assert!(text(&tab, "#turn").starts_with("Turn "));
    assert!(text(&tab, "#phase").starts_with("Phase: "));
    shot_of_a_drawn_page(&tab, "hastenbeck.png");
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many units the page marks as moved or changed by the other side (issue 19.2).
fn recent_marks(tab: &Tab) -> u64 {
    js(tab, "document.querySelectorAll('#map .recent-ring').length")
        .as_u64()
        .unwrap_or(0)
}

/// Issue 19.6: a hot-seat game hands the screen over. The page opens covered, names the seat that
/// decides and shows its view only when that player says so; when the other seat must decide in
/// the middle of the first one's move, the page is covered again (the first seat's view hidden,
/// the second's not yet shown) until the hand-over.
#[test]
fn hot_seat_hands_the_screen_over_between_the_seats_in_chromium() {
    let (dir, server, browser, tab) = lobby("hotseat");
    click(&tab, "input[name=scenario][value=hastenbeck]");
    click(&tab, "input[name=mode][value=hotseat]");
    click(&tab, "#seed");
    tab.type_str("3").expect("type a seed");
    click(&tab, "#create");
    wait_for(&tab, "the play page", || {
        tab.get_url().contains("/play/").then_some(())
    });
    tab.wait_until_navigated().expect("the play page loads");
    let covered = || {
        js(
            &tab,
            "!document.querySelector('#handover').hidden && getComputedStyle(document.querySelector('#play')).visibility === 'hidden'",
        ) == Value::Bool(true)
    };
    // The first hand-over, when the link of the seat that does not decide first opened the page;
    // or none, when it is the French link.
    wait_for(&tab, "the play page", || {
        (covered() || text(&tab, "#decision").contains("You (French)")).then_some(())
    });
    if covered() {
        assert!(text(&tab, "#handover-text").contains("The French player decides now"));
        click(&tab, "#handover-go");
    }
    wait_for(&tab, "the French view", || {
        text(&tab, "#decision")
            .contains("You (French)")
            .then_some(())
    });
    // The French play on (an activation, moves) until the Allies must decide.
    let order = [
        "activate-auto:",
        "move-unit:",
        "step:",
        "stop",
        "end-activation",
    ];
    let mut handed = false;
    let mut v = version(&tab).unwrap_or(0);
    for _ in 0..60 {
        if covered() {
            handed = true;
            break;
        }
        let Some((id, _)) = order
            .iter()
            .find_map(|p| action_button(&tab, p))
            .or_else(|| button(&tab, "#actions button[data-action]"))
        else {
            break;
        };
        click_action(&tab, &id);
        wait_for(&tab, "the action to land", || {
            (covered() || version(&tab).is_some_and(|n| n > v)).then_some(())
        });
        v = version(&tab).unwrap_or(v);
    }
    assert!(handed, "the Allies had to decide within 60 French actions");
    let handover = text(&tab, "#handover-text");
    assert!(
        handover.contains("The Allies player decides now"),
        "{handover}"
    );
    assert!(
        !text(&tab, "#decision").contains("You (Allies)"),
        "the Allied view is not loaded before the hand-over"
    );
    shots_at_two_sizes(&tab, "hotseat-handover");
    click(&tab, "#handover-go");
    wait_for(&tab, "the Allied view", || {
        (!covered() && text(&tab, "#decision").contains("You (Allies)")).then_some(())
    });
    shot_of_a_drawn_page(&tab, "hotseat-allies.png");
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The screen point (CSS pixels) of a point of the miniatures table (cm, y northward), through the
/// SVG's own transform.
fn table_to_screen(tab: &Tab, x: f64, y: f64) -> Point {
    let v = js(
        tab,
        &format!(
            "(() => {{ const m = document.querySelector('#map'); \
             const d = Number(document.querySelector('#map rect.cloth').getAttribute('height')); \
             const p = m.createSVGPoint(); p.x = {x}; p.y = d - {y}; \
             const s = p.matrixTransform(m.getScreenCTM()); return [s.x, s.y]; }})()"
        ),
    );
    let a = v.as_array().expect("a screen point");
    Point {
        x: a[0].as_f64().unwrap_or(0.0),
        y: a[1].as_f64().unwrap_or(0.0),
    }
}

/// The text drawn on the map (SVG elements have no `innerText`).
fn map_text(tab: &Tab) -> String {
    js(tab, "document.querySelector('#map').textContent")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A base's centre and facing as the page drew it (`data-x`, `data-y`, `data-facing`).
fn base_at(tab: &Tab, id: &str) -> (f64, f64, f64) {
    let v = js(
        tab,
        &format!(
            "(() => {{ const g = document.querySelector('#map g.base[data-unit=\"{id}\"]'); \
             return g ? [g.dataset.x, g.dataset.y, g.dataset.facing].map(Number) : null; }})()"
        ),
    );
    let a = v.as_array().unwrap_or_else(|| panic!("{id} is drawn"));
    let f = |i: usize| a[i].as_f64().unwrap_or(f64::NAN);
    (f(0), f(1), f(2))
}

/// What the page has under a screen point: "ghost", "base" or "table".
fn under(tab: &Tab, p: Point) -> String {
    js(
        tab,
        &format!(
            "(() => {{ const e = document.elementFromPoint({x}, {y}); \
             if (!e) return 'none'; if (e.closest('[data-ghost]')) return 'ghost'; \
             if (e.closest('[data-unit]')) return 'base'; \
             return e.closest('#map') ? 'table' : 'outside'; }})()",
            x = p.x,
            y = p.y
        ),
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

fn click_at(tab: &Tab, p: Point) {
    tab.click_point(p)
        .unwrap_or_else(|e| panic!("clicking {p:?}: {e}"));
}

#[test]
fn play_the_miniatures_table_against_the_ai_in_chromium() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: the browser test needs Debian's Chromium"
    );
    // The lobby: the encounter, against the computer, as Blue (the lobby offers this scenario's sides).
    let (dir, server, browser, tab) = against_the_computer("minis-encounter", "Blue", "3");

    // The table from above: terrain pieces, bases with names and effectiveness, pips per sector.
    wait_for(&tab, "the play page", || {
        tab.get_url().contains("/play/").then_some(())
    });
    wait_for(&tab, "the first decision", || {
        text(&tab, "#decision")
            .contains("choose the sector")
            .then_some(())
    });
    let count = |sel: &str| {
        js(
            &tab,
            &format!(
                "document.querySelectorAll({}).length",
                Value::String(sel.into())
            ),
        )
        .as_u64()
        .unwrap_or(0)
    };
    assert!(count("#map g.base") >= 30, "the bases are drawn");
    assert!(count("#map g.piece") >= 5, "the terrain is drawn");
    assert_eq!(
        count("#map g.base .quarter:not(.lost)"),
        4 * count("#map g.base")
    );
    assert!(
        map_text(&tab).contains("1st Battalion"),
        "bases show their names"
    );
    assert_eq!(count("#turn-track .pips"), 3, "pips per sector");
    assert!(text(&tab, "#turn").contains("Turn 1"));
    assert!(text(&tab, "#active").contains("Blue"));
    assert!(
        text(&tab, "#standing-line").contains("27/27"),
        "points and threshold"
    );
    let lines0 = log_lines(&tab);

    // The centre sector, with its button.
    click(&tab, "#actions button[data-action=\"sector:centre\"]");
    let v = wait_version_above(&tab, 0);
    assert!(
        text(&tab, "#phase").contains("centre sector"),
        "{}",
        text(&tab, "#phase")
    );

    // Select the 2nd Battalion by clicking its base: its arc, ranges, reach and ghosts appear.
    click(&tab, "#map g.base[data-unit=\"b-foot2\"] rect.bbody");
    wait_for(&tab, "the selection", || {
        text(&tab, "#sel-hex")
            .to_lowercase()
            .contains("blue 2nd battalion")
            .then_some(())
    });
    assert!(count("#map .range") >= 1 && map_text(&tab).contains("musket 8 cm"));
    assert_eq!(count("#map .reach"), 1, "its move allowance");
    assert!(count("#map .ghost") >= 1, "the ends of its legal moves");
    // A point up and to the left, through the battery in front: refused, with the reason.
    let (x, y, _) = base_at(&tab, "b-foot2");
    let p = table_to_screen(&tab, x - 3.0, y + 9.0);
    assert_eq!(under(&tab, p), "table");
    click_at(&tab, p);
    wait_for(&tab, "the refusal", || {
        let e = text(&tab, "#action-error");
        e.contains("not a legal action now:").then_some(e)
    });
    assert_eq!(version(&tab), Some(v), "a refused move changes nothing");

    // Select the 1st Battalion and move it by clicking a free point of the table ahead of it.
    click(&tab, "#map g.base[data-unit=\"b-foot1\"] rect.bbody");
    wait_for(&tab, "the selection", || {
        text(&tab, "#sel-hex")
            .to_lowercase()
            .contains("blue 1st battalion")
            .then_some(())
    });
    let (x, y, facing) = base_at(&tab, "b-foot1");
    let target = [30.0_f64, -30.0, 20.0, -20.0, 40.0, -40.0, 10.0, -10.0]
        .iter()
        .flat_map(|a| [4.0_f64, 5.0, 8.0, 10.0, 12.0].map(|d| (*a, d)))
        .map(|(a, d)| {
            let r = (facing + a).to_radians();
            table_to_screen(&tab, x + d * r.cos(), y + d * r.sin())
        })
        .find(|p| under(&tab, *p) == "table")
        .expect("a free point ahead of the 1st Battalion");
    click_at(&tab, target);
    let v = wait_version_above(&tab, v);
    wait_for(&tab, "the move in the log", || {
        text(&tab, "#log")
            .contains("Blue 1st Battalion obliques")
            .then_some(())
    });
    assert!(log_lines(&tab) > lines0, "the log grows");
    let (x2, y2, _) = base_at(&tab, "b-foot1");
    assert!(
        y2 > y && (x2 - x).abs() > 0.1,
        "the base moved: ({x}, {y}) → ({x2}, {y2})"
    );
    shot(&tab, "minis-move.png");

    // End its moves, then the other sectors, with the buttons, until the computer has answered.
    let order = ["moves-done", "guns-done", "retreat:", "sector:"];
    let mut v = v;
    let mut answered = false;
    for _ in 0..30 {
        let Some((id, _)) = order.iter().find_map(|p| action_button(&tab, p)) else {
            if !text(&tab, "#decision").contains("Game over") {
                wait_version_above(&tab, v);
                answered = true;
            }
            break;
        };
        let before = log_lines(&tab);
        click_action(&tab, &id);
        let n = wait_version_above(&tab, v);
        if n > v + 1 {
            answered = true;
            assert!(
                log_lines(&tab) > before,
                "the log shows the computer's answer"
            );
            break;
        }
        v = n;
    }
    assert!(answered, "the computer answered within 30 actions");
    wait_for(&tab, "the computer's lines in the log", || {
        text(&tab, "#log").contains("Red (computer)").then_some(())
    });
    wait_for(&tab, "Blue to decide again", || {
        text(&tab, "#decision").contains("You (Blue)").then_some(())
    });
    assert!(
        text(&tab, "#turn").contains("Turn 2"),
        "{}",
        text(&tab, "#turn")
    );
    assert!(
        text(&tab, "#log").contains("1d ["),
        "every roll is in the log"
    );
    shot_of_a_drawn_page(&tab, "minis.png");
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 13, fair seats: a game against a friend. The lobby shows the creator's link, the one-time
/// invitation and the spectators' link (no second seat's token); the creator adds a client seed
/// and waits; the invitation opens a claim page in another browser profile, whose seat takes its
/// seed; then the game starts in both pages. Screenshots of the lobby, the claim page and the seed
/// step at 1280×720 and 1440×900.
#[test]
fn a_friend_game_invitation_claim_and_seeds_in_chromium() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: the browser test needs Debian's Chromium"
    );
    let (dir, server, browser, tab) = lobby("friend");
    click(&tab, "input[name=scenario][value=hastenbeck]");
    click(&tab, "input[name=mode][value=friend]");
    click(&tab, "input[name=human][value=Allies]");
    click(&tab, "#create");
    wait_for(&tab, "the invitation", || {
        (js(&tab, "document.querySelector('#invite').hidden") == Value::Bool(false)).then_some(())
    });
    let links: Vec<String> = js(
        &tab,
        "[...document.querySelectorAll('#invite-links input')].map((i) => i.value)",
    )
    .as_array()
    .expect("links")
    .iter()
    .filter_map(|v| v.as_str().map(str::to_string))
    .collect();
    assert_eq!(
        links.len(),
        3,
        "own link, invitation, spectators: {links:?}"
    );
    let mine = links[0].clone();
    let invitation = links[1].clone();
    assert!(mine.contains("?token="), "{mine}");
    assert!(invitation.contains("?invite="), "{invitation}");
    assert!(
        text(&tab, "#invite-links").contains("Invitation for your friend (French)"),
        "{}",
        text(&tab, "#invite-links")
    );
    js(&tab, "document.querySelector('#invite').scrollIntoView()");
    shots_at_two_sizes(&tab, "friend-lobby");

    // The creator's page: the seed step, then waiting for the friend.
    tab.navigate_to(&mine)
        .expect("open my link")
        .wait_until_navigated()
        .expect("play page loads");
    wait_for(&tab, "the client seed step", || {
        (js(&tab, "!!document.querySelector('#client-seed')") == Value::Bool(true)).then_some(())
    });
    shots_at_two_sizes(&tab, "seed-step");
    add_client_seed(&tab, "the creator's own seed");
    wait_for(&tab, "waiting for the friend", || {
        text(&tab, "#decision")
            .contains("invitation is not claimed yet")
            .then_some(())
    });

    // The friend, in a browser of their own: the claim page, the seat, the seed.
    let friend = launch(dir.join("chromium-profile-friend"));
    let ftab = friend.new_tab().expect("a browser tab");
    ftab.set_default_timeout(WAIT);
    ftab.navigate_to(&invitation)
        .expect("open the invitation")
        .wait_until_navigated()
        .expect("claim page loads");
    wait_for(&ftab, "the claim page", || {
        (js(&ftab, "!!document.querySelector('#claim-button')") == Value::Bool(true)).then_some(())
    });
    shots_at_two_sizes(&ftab, "claim");
    click(&ftab, "#claim-button");
    wait_for(&ftab, "the friend's own link", || {
        let u = ftab.get_url();
        (u.contains("?token=") && !u.contains("invite=")).then_some(())
    });
    let their_link = ftab.get_url();
    assert_ne!(their_link, mine);
    add_client_seed(&ftab, "the friend's seed");
    wait_for(&ftab, "the French to decide", || {
        text(&ftab, "#decision")
            .contains("You (French)")
            .then_some(())
    });
    // The creator's page follows (a live update): the game has started.
    wait_for(&tab, "the game to start for the creator", || {
        let d = text(&tab, "#decision");
        (d.contains("French") && !d.contains("client seed")).then_some(())
    });
    assert_eq!(
        js(&tab, "document.body.dataset.started"),
        Value::String("yes".into())
    );
    // A second claim of the same invitation is refused, and says so.
    let third = browser.new_tab().expect("a browser tab");
    third.set_default_timeout(WAIT);
    third
        .navigate_to(&invitation)
        .expect("open the invitation")
        .wait_until_navigated()
        .expect("claim page loads");
    click(&third, "#claim-button");
    wait_for(&third, "the refusal", || {
        text(&third, "#claim-error")
            .contains("already claimed")
            .then_some(())
    });
    shot_of_a_drawn_page(&ftab, "friend-started.png");
    drop(third);
    drop(ftab);
    drop(friend);
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 19.3, rules 10.1–10.3: an attack's odds are read before it is declared. Hastenbeck
/// against the computer, with one Allied battalion (Von Behr 2) set up in the clear at 1204, on
/// the flank of Armentières' Autriche (1203) and in front of Belzunce (1304): the French activate
/// Armentières (16.1, automatic on the first turn) and end their activations; in the combat
/// phase the attacks on 1204 are mandatory (10.1: both stacks in clear terrain), so the phase
/// may not end before one is declared and the page says so. Clicking the attack shows its card —
/// the ratio, every modifier, the die roll modifier, each result with the faces that give it and
/// its chance — and nothing is sent; **Declare this attack** sends it, and the combat's line in
/// the log has the card's ratio and modifiers and the card's result for the die rolled.
#[test]
fn r10_an_attacks_odds_are_read_before_it_is_declared_in_chromium() {
    let edit = |data: &Path| {
        let f = data.join("hastenbeck/scenario.toml");
        let s = std::fs::read_to_string(&f).expect("the Hastenbeck set-up");
        let from = "unit = \"von-behr-2\"\nhex = \"0907\"";
        assert!(s.contains(from), "Von Behr 2 sets up at 0907");
        std::fs::write(&f, s.replace(from, "unit = \"von-behr-2\"\nhex = \"1204\""))
            .expect("edit the set-up");
    };
    let (dir, server, browser, tab) =
        against_the_computer_with("hastenbeck", "French", "19", Some(&edit));
    wait_for(&tab, "the first decision", || {
        (version(&tab) == Some(0)
            && text(&tab, "#decision").contains("choose a formation to activate"))
        .then_some(())
    });
    click_action(&tab, "activate-auto:armentieres");
    let mut v = wait_version_above(&tab, 0);
    // The other formations: their activation tests, each activation ended at once.
    let attack = "attack:1203+1304>1204";
    for _ in 0..30 {
        if action_button(&tab, "attack:").is_some() {
            break;
        }
        let Some((id, _)) = [
            "end-activation",
            "end-redoubt-fire",
            "activate:",
            "activate-independent:",
            "pass",
        ]
        .iter()
        .find_map(|p| action_button(&tab, p)) else {
            panic!("no way on to the combat phase: {}", text(&tab, "#decision"));
        };
        click_action(&tab, &id);
        v = wait_version_above(&tab, v);
    }
    assert!(
        text(&tab, "#phase").contains("Combat"),
        "{}",
        text(&tab, "#phase")
    );
    // 10.1: the attacks are mandatory, marked so, and the phase may not end yet.
    assert!(action_button(&tab, attack).is_some(), "{attack} is offered");
    assert!(action_button(&tab, "end-combat").is_none());
    let actions = text(&tab, "#actions");
    assert!(
        actions.contains("Mandatory attacks remain (10.1"),
        "the page says why the phase may not end: {actions}"
    );
    assert_eq!(
        js(
            &tab,
            &format!(
                "document.querySelector('#actions button[data-action=\"{attack}\"]').classList.contains('mandatory')"
            )
        ),
        Value::Bool(true)
    );
    // The card: read before anything is sent.
    click(&tab, &format!("#actions button[data-action=\"{attack}\"]"));
    wait_for(&tab, "the attack's odds", || {
        (js(&tab, "!document.querySelector('#odds').hidden") == Value::Bool(true)).then_some(())
    });
    let card = text(&tab, "#odds");
    for part in [
        "Autriche + Belzunce attack 1204",
        "mandatory (10.1)",
        "10.2, 10.3, Combat Results Table",
        "ratio 12/4 → 3/1",
        "morale 3 vs 4",
        "commander (3.2)",
        "flank attack",
        "die roll modifier",
        "Declare this attack",
    ] {
        assert!(card.contains(part), "the card shows {part:?}:\n{card}");
    }
    // Each result with its faces: together they cover the die's six faces.
    let rows: Vec<(Vec<u64>, String)> = js(
        &tab,
        "[...document.querySelectorAll('#odds table.odds-results tr')].slice(1).map((r) => [r.cells[0].innerText, [...r.cells].slice(1, 3).map((c) => c.innerText).join(' / ')])",
    )
    .as_array()
    .expect("the results")
    .iter()
    .map(|r| {
        let faces = r[0]
            .as_str()
            .unwrap_or_default()
            .split(", ")
            .flat_map(|run| {
                let mut ends = run.split('–').filter_map(|x| x.trim().parse::<u64>().ok());
                let a = ends.next().unwrap_or(0);
                let b = ends.next().unwrap_or(a);
                a..=b
            })
            .collect();
        (faces, r[1].as_str().unwrap_or_default().to_string())
    })
    .collect();
    let mut all: Vec<u64> = rows.iter().flat_map(|r| r.0.clone()).collect();
    all.sort();
    assert_eq!(all, vec![1, 2, 3, 4, 5, 6], "each face once: {rows:?}");
    assert!(card.contains("/6 ("), "each result's chance: {card}");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(version(&tab), Some(v), "reading the odds sends nothing");
    shots_at_two_sizes(&tab, "hastenbeck-odds");
    // Cancel closes the card and sends nothing; the attack is declared from its card.
    click(&tab, "#odds button.cancel");
    assert_eq!(
        js(&tab, "document.querySelector('#odds').hidden"),
        Value::Bool(true)
    );
    assert_eq!(version(&tab), Some(v));
    click_action(&tab, attack);
    wait_version_above(&tab, v);
    let line = wait_for(&tab, "the combat in the log", || {
        js(
            &tab,
            "[...document.querySelectorAll('#log li')].map((l) => l.innerText).find((t) => t.includes('ratio 12/4')) || null",
        )
        .as_str()
        .map(str::to_string)
    });
    for part in [
        "ratio 12/4 → 3/1",
        "morale 3 vs 4",
        "commander (3.2)",
        "flank attack",
    ] {
        assert!(
            line.contains(part),
            "the combat counts {part:?} as the card did: {line}"
        );
    }
    // "… 1d6=2, … → attacker -, defender TM+2": the card's row for that face.
    let die: u64 = line
        .split("1d6=")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|d| d.parse().ok())
        .expect("the die rolled");
    let (_, result) = rows
        .iter()
        .find(|r| r.0.contains(&die))
        .expect("the card's row for the die");
    let mut parts = result.split(" / ");
    let expected = format!(
        "attacker {}, defender {}",
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default()
    );
    assert!(
        line.contains(&expected),
        "the card said {expected:?} for a {die}: {line}"
    );
    // Issue 19.2: the log is grouped by turn and phase, with headings; a turn folds.
    let heads = js(
        &tab,
        "[...document.querySelectorAll('#log li.turn-head, #log li.phase-head')].map((l) => l.innerText)",
    );
    let heads: Vec<&str> = heads
        .as_array()
        .expect("the log's headings")
        .iter()
        .filter_map(|h| h.as_str())
        .collect();
    assert!(
        heads.starts_with(&[
            "Turn 1",
            "French — fire and movement (4.B)",
            "French — combat (10)"
        ]),
        "{heads:?}"
    );
    let shown = || {
        js(
            &tab,
            "[...document.querySelectorAll('#log li[data-turn=\"1\"]:not(.turn-head)')].filter((l) => !l.hidden).length",
        )
        .as_u64()
        .unwrap_or(0)
    };
    let before = shown();
    assert!(before > 5, "turn 1 has its lines: {before}");
    click(&tab, "#log li.turn-head[data-turn=\"1\"]");
    assert_eq!(shown(), 0, "turn 1 folded");
    click(&tab, "#log li.turn-head[data-turn=\"1\"]");
    assert_eq!(shown(), before, "turn 1 unfolded");
    shots_at_two_sizes(&tab, "hastenbeck-log");
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The place names whose drawn text meets a counter on screen, and the pairs of names that meet.
fn names_over_counters(tab: &Tab) -> Vec<String> {
    js(
        tab,
        "(() => { const cs = [...document.querySelectorAll('#map g.counter')].map((c) => c.getBoundingClientRect()); \
         return [...document.querySelectorAll('#map text.place')].filter((t) => { const r = t.getBoundingClientRect(); \
         return r.width > 0 && cs.some((c) => r.left < c.right - 1 && r.right > c.left + 1 && r.top < c.bottom - 1 && r.bottom > c.top + 1); }) \
         .map((t) => t.textContent).concat([...document.querySelectorAll('#map text.place')].flatMap((t, i, all) => { const r = t.getBoundingClientRect(); \
         return all.slice(i + 1).filter((u) => { const q = u.getBoundingClientRect(); return r.width > 0 && q.width > 0 && r.left < q.right - 1 && r.right > q.left + 1 && r.top < q.bottom - 1 && r.bottom > q.top + 1; }) \
         .map((u) => t.textContent + ' over ' + u.textContent); })); })()",
    )
    .as_array()
    .map(|a| {
        a.iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    })
    .unwrap_or_default()
}

/// Issue 19.1, rule 4.B1: an activation moves one unit, one stack or one line of battle, so "Stop
/// moving" before the moving unit has spent a movement point uses up that move; the page asks
/// first. Hastenbeck against the computer: Chevert activated (16.1), Picardie begins to move; the
/// page says why the other move buttons went away; **Stop moving** asks ("has not moved yet …
/// Stop anyway?") and **No, go back** sends nothing; once Picardie has stepped, **Stop moving**
/// stops it without a question.
#[test]
fn r4_b1_stop_moving_before_the_unit_moved_is_confirmed_in_chromium() {
    let (dir, server, browser, tab) = against_the_computer("hastenbeck", "French", "8");
    wait_for(&tab, "the first decision", || {
        (version(&tab) == Some(0)
            && text(&tab, "#decision").contains("choose a formation to activate"))
        .then_some(())
    });
    // Issue 19.4: no place name covers a counter, at the first view nor with the whole map.
    let over = names_over_counters(&tab);
    assert!(over.is_empty(), "place names over counters: {over:?}");
    click(&tab, "#zoom-fit");
    std::thread::sleep(Duration::from_millis(300));
    let over = names_over_counters(&tab);
    assert!(
        over.is_empty(),
        "place names over counters, map fitted: {over:?}"
    );
    for _ in 0..3 {
        click(&tab, "#zoom-in");
    }
    std::thread::sleep(Duration::from_millis(300));
    let over = names_over_counters(&tab);
    assert!(
        over.is_empty(),
        "place names over counters, zoomed: {over:?}"
    );
    shots_at_two_sizes(&tab, "hastenbeck-places");
    click_action(&tab, "activate-auto:chevert");
    let v = wait_version_above(&tab, 0);
    click_action(&tab, "move-unit:picardie");
    let v = wait_version_above(&tab, v);
    let actions = text(&tab, "#actions");
    assert!(
        actions.contains("One move an activation (4.B1)"),
        "the page says why the other moves went away: {actions}"
    );
    assert!(action_button(&tab, "move-unit:").is_none());
    click(&tab, "#actions button[data-action=\"stop\"]");
    let card = wait_for(&tab, "the question", || {
        (js(&tab, "!document.querySelector('#odds').hidden") == Value::Bool(true))
            .then(|| text(&tab, "#odds"))
    });
    assert!(
        card.contains("Picardie has not moved yet") && card.contains("Stop anyway?"),
        "{card}"
    );
    shots_at_two_sizes(&tab, "hastenbeck-stop");
    click(&tab, "#odds button.cancel");
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(version(&tab), Some(v), "going back sends nothing");
    assert!(text(&tab, "#decision").contains("moving Picardie"));
    // Issue 19.1: a step is undone (no die was rolled, nothing revealed, the computer has not
    // answered) and Picardie steps another way instead.
    let steps: Vec<String> = js(
        &tab,
        "[...document.querySelectorAll('#actions button[data-action^=\"step:\"]')].map(b => b.dataset.action)",
    )
    .as_array()
    .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
    .unwrap_or_default();
    assert!(!steps.is_empty(), "the moving unit may step");
    click_action(&tab, &steps[0]);
    let stepped = wait_version_above(&tab, v);
    assert_eq!(
        js(&tab, "!!document.querySelector('button.undo')"),
        Value::Bool(true),
        "an undo button after the person's step"
    );
    click(&tab, "button.undo");
    wait_for(&tab, "the step taken back", || {
        version(&tab).filter(|&n| n < stepped)
    });
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        text(&tab, "#decision").contains("moving Picardie"),
        "back before the step: {}",
        text(&tab, "#decision")
    );
    let step = steps.last().expect("a step").clone();
    assert!(
        action_button(&tab, &step).is_some(),
        "the same steps are offered again"
    );
    click_action(&tab, &step);
    let v = wait_version_above(&tab, v);
    // Picardie has stepped (the other way when it had two), then stops: no question.
    if action_button(&tab, "stop").is_some() {
        click(&tab, "#actions button[data-action=\"stop\"]");
        wait_version_above(&tab, v);
        assert_eq!(
            js(&tab, "document.querySelector('#odds').hidden"),
            Value::Bool(true),
            "a unit that moved stops without a question"
        );
    }
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 19.5: reaction policies set in the page, so that a whole French activation at Lauffeld
/// asks the Allies nothing. Hot-seat Lauffeld (seed 3): **Reactions** opens a form per seat; the
/// Allies choose **Never react**. The French then activate D'Estrée (16.2, automatic on the first
/// turn) and march its line of battle north-west: without the policy each step asks the Allies
/// for a cavalry reaction (8.6); with it the screen is never passed to them during the whole
/// activation, and the Allied log holds the policy's answers ("Allies (policy: never react): …").
#[test]
fn reaction_policies_set_in_the_page_ask_the_allies_nothing_in_chromium() {
    let (dir, server, browser, tab) = lobby("policy-lauffeld");
    click(&tab, "input[name=scenario][value=lauffeld]");
    click(&tab, "input[name=mode][value=hotseat]");
    click(&tab, "#seed");
    tab.type_str("3").expect("type a seed");
    click(&tab, "#create");
    wait_for(&tab, "the play page", || {
        tab.get_url().contains("/play/").then_some(())
    });
    tab.wait_until_navigated().expect("the play page loads");
    let covered = || {
        js(
            &tab,
            "!document.querySelector('#handover').hidden && getComputedStyle(document.querySelector('#play')).visibility === 'hidden'",
        ) == Value::Bool(true)
    };
    wait_for(&tab, "the play page", || {
        (covered() || text(&tab, "#decision").contains("You (French)")).then_some(())
    });
    if covered() {
        click(&tab, "#handover-go");
    }
    wait_for(&tab, "the French view", || {
        text(&tab, "#decision")
            .contains("You (French)")
            .then_some(())
    });
    // Issue 19.7: the "if the game ended now" line at Lauffeld too (16.2, the engine's standing).
    wait_for(&tab, "the standing line", || {
        text(&tab, "#standing-line")
            .contains("If the game ended now: ")
            .then_some(())
    });
    // The Allies never react.
    let v = version(&tab).unwrap_or(0);
    click(&tab, "#policy-toggle");
    wait_for(&tab, "the reactions panel", || {
        (js(
            &tab,
            "!!document.querySelector('#policy-panel:not([hidden]) form[data-seat=\"Allies\"]')",
        ) == Value::Bool(true))
        .then_some(())
    });
    let panel = text(&tab, "#policy-panel");
    assert!(
        panel.contains("8.6") && panel.contains("9.3") && panel.contains("Always ask"),
        "{panel}"
    );
    click(&tab, "form[data-seat=\"Allies\"] input[value=never]");
    shots_at_two_sizes(&tab, "lauffeld-reactions");
    click(&tab, "form[data-seat=\"Allies\"] button[type=submit]");
    wait_for(&tab, "the policy set", || {
        text(&tab, "form[data-seat=\"Allies\"] .policy-msg")
            .contains("Set: never react")
            .then_some(())
    });
    let mut v = wait_version_above(&tab, v);
    click(&tab, "#policy-close");
    // A whole French activation: D'Estrée's line marches north-west, then stops and ends.
    click_action(&tab, "activate-auto:destree");
    v = wait_version_above(&tab, v);
    click_action(&tab, "move-line:destree-1");
    v = wait_version_above(&tab, v);
    let mut steps = 0;
    let mut answered = 0;
    while steps < 6 {
        let Some((id, _)) = action_button(&tab, "step:NW") else {
            break;
        };
        click_action(&tab, &id);
        let n = wait_version_above(&tab, v);
        assert!(!covered(), "the Allies are asked nothing after {id}");
        assert!(text(&tab, "#decision").contains("You (French)"));
        answered += n - v - 1;
        v = n;
        steps += 1;
    }
    assert!(steps >= 2, "the line stepped: {steps}");
    for id in ["stop", "end-activation"] {
        if action_button(&tab, id).is_some() {
            click_action(&tab, id);
            v = wait_version_above(&tab, v);
            assert!(!covered(), "the Allies are asked nothing after {id}");
        }
    }
    assert!(
        text(&tab, "#decision").contains("choose a formation to activate"),
        "the activation is over: {}",
        text(&tab, "#decision")
    );
    assert!(answered >= 1, "the policy answered the reactions");
    // The Allied log: the policy's answers, as that seat's own decisions.
    let lines = tab
        .evaluate(
            "(async () => { const id = location.pathname.split('/').pop(); \
             const t = JSON.parse(localStorage.getItem('tricorne.tokens.' + id)).Allies; \
             const g = await (await fetch('/api/games/' + id + '?token=' + t)).json(); \
             return g.log.filter((l) => l.includes('(policy: never react)')).length; })()",
            true,
        )
        .expect("the Allied log")
        .value
        .and_then(|v| v.as_u64())
        .unwrap_or(0);
    assert_eq!(
        lines, answered,
        "each answer of the policy is in the Allied log"
    );
    shot_of_a_drawn_page(&tab, "lauffeld-after-policy.png");
    drop(tab);
    drop(browser);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
