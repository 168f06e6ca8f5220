//! Every ruleset tricorne knows, behind the object-safe [`engine::DynGame`] adapter: the one place
//! the CLI and the server look up a scenario by id, so adding a ruleset adds no code to them.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use engine::{DynGame, Game, GameRecord, Lines, RECORD_FORMAT, RECORD_VERSION, Ruleset};
use serde::Serialize;
use std::path::Path;

/// A scenario on offer.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioInfo {
    /// Ruleset id.
    pub ruleset: &'static str,
    /// Scenario id.
    pub id: &'static str,
    /// Name.
    pub name: &'static str,
    /// Options it accepts.
    pub options: Vec<&'static str>,
    /// Each option's name and what it does, in the order of `options` (issue 19).
    pub option_details: Vec<OptionInfo>,
}

/// A game option as a person reads it (issue 19: the lobby and `tricorne scenarios` show names,
/// not ids).
#[derive(Clone, Debug, Serialize)]
pub struct OptionInfo {
    /// The id (`--option ID`, the API's `options`).
    pub id: &'static str,
    /// A short name.
    pub name: &'static str,
    /// One line: what it changes, with its rule.
    pub about: &'static str,
}

/// The name and one line of a game option (issue 19); `None` for an unknown id.
pub fn option_info(id: &str) -> Option<OptionInfo> {
    let (id, name, about): (&'static str, &'static str, &'static str) = match id {
        "perception" => (
            "perception",
            "Battle perception",
            "Hastenbeck 15.3 (optional): after 3 or more routs or step losses in a turn, a side tests the Battle Perception Table",
        ),
        "armentieres-artillery" => (
            "armentieres-artillery",
            "Armentières' artillery",
            "Hastenbeck 16.2 option: the French may use the 6L artillery with Armentières' formation in 1307",
        ),
        "strict-activation" => (
            "strict-activation",
            "Strict activation",
            "5.1 read literally: a formation activates on a die less than its value, not equal (editions A8)",
        ),
        "fortify-lauffeld" => (
            "fortify-lauffeld",
            "Lauffeld fortified",
            "Lauffeld 17.2 option 1: a redoubt in Lauffeld",
        ),
        "fortify-both" => (
            "fortify-both",
            "Both villages fortified",
            "Lauffeld 17.2 option 2: redoubts in Lauffeld and Vlitingen (a brilliant French victory needs both)",
        ),
        "austrians-fight" => (
            "austrians-fight",
            "The Austrians fight",
            "Lauffeld 17.2 option 5: the Austrian formations activate on 3 or less",
        ),
        "narrow-arc" => (
            "narrow-arc",
            "Narrow fire arc",
            "Command & Control: fire within 45° of the front (22.5° either side), docs/minis.md F1",
        ),
        "free-gun-fire" => (
            "free-gun-fire",
            "Free gun fire",
            "Command & Control: artillery fire costs no command pip (the pips move troops only)",
        ),
        "two-hits-a-quarter" => (
            "two-hits-a-quarter",
            "Two hits a quarter",
            "Command & Control: every two hits take a quarter of a unit, for longer games",
        ),
        _ => return None,
    };
    Some(OptionInfo { id, name, about })
}

fn details(options: &[&'static str]) -> Vec<OptionInfo> {
    options
        .iter()
        .map(|&id| {
            option_info(id).unwrap_or(OptionInfo {
                id,
                name: id,
                about: "",
            })
        })
        .collect()
}

/// Errors opening a game.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// Unknown scenario, bad option or bad data.
    #[error("{0}")]
    Scenario(String),
    /// A record whose actions do not replay.
    #[error("action {index} ({action:?}) cannot be replayed: {reason}")]
    Replay {
        /// 1-based index.
        index: usize,
        /// The action id.
        action: String,
        /// Why.
        reason: String,
    },
    /// A record whose saved state differs from its replay.
    #[error("the saved state does not match its actions (the record was edited or is corrupt)")]
    Mismatch,
    /// A record of another ruleset.
    #[error("unknown ruleset {0:?}")]
    Ruleset(String),
}

/// Every scenario of every ruleset.
pub fn scenarios() -> Vec<ScenarioInfo> {
    saxe::catalogue()
        .into_iter()
        .map(|s| ScenarioInfo {
            ruleset: "saxe",
            id: s.id,
            name: s.name,
            option_details: details(&s.options),
            options: s.options,
        })
        .chain(minis::catalogue().into_iter().map(|s| ScenarioInfo {
            ruleset: "minis",
            id: s.id,
            name: s.name,
            option_details: details(&s.options),
            options: s.options,
        }))
        .chain(bar::catalogue().into_iter().map(|s| ScenarioInfo {
            ruleset: "bar",
            id: s.id,
            name: s.name,
            option_details: details(&s.options),
            options: s.options,
        }))
        .collect()
}

/// A new game of a scenario; also returns the events of its start as log lines (for a reader of
/// everything).
pub fn open(
    scenario: &str,
    options: &[String],
    data_dir: Option<&Path>,
    seed: u64,
) -> Result<(Box<dyn DynGame>, Vec<String>), CatalogError> {
    let (g, lines) = open_lines(scenario, options, data_dir, seed)?;
    Ok((g, lines.for_viewer(engine::Viewer::All).to_vec()))
}

/// A new game of a scenario; also returns the events of its start rendered for every viewer.
pub fn open_lines(
    scenario: &str,
    options: &[String],
    data_dir: Option<&Path>,
    seed: u64,
) -> Result<(Box<dyn DynGame>, Lines), CatalogError> {
    fn lines<R: Ruleset>(rules: &R, ev: &[R::Event]) -> Lines {
        Lines::render(|v| rules.render_events(ev, v))
    }
    if bar::catalogue().iter().any(|s| s.id == scenario) {
        let rules = bar::Bar::load(scenario, options, data_dir)
            .map_err(|e| CatalogError::Scenario(e.join("; ")))?;
        let (g, ev) = Game::new(rules, seed);
        let l = lines(&g.rules, &ev);
        return Ok((Box::new(g), l));
    }
    if minis::catalogue().iter().any(|s| s.id == scenario) {
        let rules = minis::Minis::load(scenario, options, data_dir)
            .map_err(|e| CatalogError::Scenario(e.join("; ")))?;
        let (g, ev) = Game::new(rules, seed);
        let l = lines(&g.rules, &ev);
        return Ok((Box::new(g), l));
    }
    let known = scenarios();
    if !known.iter().any(|s| s.id == scenario) {
        // Every ruleset's scenarios, the miniatures' included (issue 19).
        return Err(CatalogError::Scenario(format!(
            "unknown scenario {scenario:?} (known: {})",
            known.iter().map(|s| s.id).collect::<Vec<_>>().join(", ")
        )));
    }
    let rules = saxe::Saxe::load(scenario, options, data_dir)
        .map_err(|e| CatalogError::Scenario(e.join("; ")))?;
    let (g, ev) = Game::new(rules, seed);
    let l = lines(&g.rules, &ev);
    Ok((Box::new(g), l))
}

/// Validate a scenario's data: every problem, or the report of the printed totals and provenance
/// with whether it passes.
pub fn validate(scenario: &str, data_dir: Option<&Path>) -> Result<(bool, String), CatalogError> {
    if bar::catalogue().iter().any(|s| s.id == scenario) {
        let rules = bar::Bar::load(scenario, &[], data_dir).map_err(|e| {
            CatalogError::Scenario(format!("{} problem(s): {}", e.len(), e.join("; ")))
        })?;
        return Ok(rules.validation_report());
    }
    if minis::catalogue().iter().any(|s| s.id == scenario) {
        let rules = minis::Minis::load(scenario, &[], data_dir)
            .map_err(|e| CatalogError::Scenario(e.join("; ")))?;
        return Ok(rules.validation_report());
    }
    let rules = saxe::Saxe::load(scenario, &[], data_dir)
        .map_err(|e| CatalogError::Scenario(format!("{} problem(s): {}", e.len(), e.join("; "))))?;
    Ok(rules.validation_report())
}

/// Rebuild a game from a record (scenario + options + seed + actions); with `check_state`, the
/// record's saved state must equal the replayed one.
pub fn replay(
    rec: &GameRecord,
    data_dir: Option<&Path>,
    check_state: bool,
) -> Result<Box<dyn DynGame>, CatalogError> {
    replay_lines(rec, data_dir, check_state).map(|(g, _)| g)
}

/// [`replay`], also returning the events of the last action (of the start if none) rendered for
/// every viewer, as they were written when it was applied (`show --side`).
pub fn replay_lines(
    rec: &GameRecord,
    data_dir: Option<&Path>,
    check_state: bool,
) -> Result<(Box<dyn DynGame>, Lines), CatalogError> {
    if !["saxe", "minis", "bar"].contains(&rec.ruleset.as_str()) {
        return Err(CatalogError::Ruleset(rec.ruleset.clone()));
    }
    let (mut g, mut last) = open_lines(&rec.scenario, &rec.options, data_dir, rec.seed)?;
    for (i, a) in rec.actions.iter().enumerate() {
        last = g.apply_lines(a).map_err(|e| CatalogError::Replay {
            index: i + 1,
            action: a.clone(),
            reason: e.to_string(),
        })?;
    }
    if check_state && g.state_json() != rec.state {
        return Err(CatalogError::Mismatch);
    }
    Ok((g, last))
}

/// The record of a game: scenario, options, seed, actions and the state reached.
pub fn record(
    game: &dyn DynGame,
    scenario: &str,
    options: &[String],
    seed: u64,
    actions: Vec<String>,
    last_events: Vec<String>,
) -> GameRecord {
    GameRecord {
        format: RECORD_FORMAT.into(),
        version: RECORD_VERSION,
        ruleset: game.ruleset_id(),
        scenario: scenario.to_string(),
        options: options.to_vec(),
        seed,
        actions,
        state: game.state_json(),
        last_events,
        dice: None,
        log: Vec::new(),
    }
}

/// A game replayed from its seed and actions, with every event line in order (the start's
/// first) and the events of the last action.
pub struct Replayed {
    /// The game reached.
    pub game: Box<dyn DynGame>,
    /// Every event line.
    pub log: Vec<String>,
    /// The events of the last action (of the start if none).
    pub last_events: Vec<String>,
}

/// Replay a game from the start, keeping every event line.
pub fn replay_log(
    scenario: &str,
    options: &[String],
    data_dir: Option<&Path>,
    seed: u64,
    actions: &[String],
) -> Result<Replayed, CatalogError> {
    let (mut game, start) = open(scenario, options, data_dir, seed)?;
    let mut log = start.clone();
    let mut last_events = start;
    for (i, a) in actions.iter().enumerate() {
        let ev = game.apply(a).map_err(|e| CatalogError::Replay {
            index: i + 1,
            action: a.clone(),
            reason: e.to_string(),
        })?;
        log.extend(ev.iter().cloned());
        last_events = ev;
    }
    Ok(Replayed {
        game,
        log,
        last_events,
    })
}

/// What `tricorne verify` checked in a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Whether the record carries verifiable dice (a commitment and seeds); `false` for a seed
    /// chosen openly (hot-seat, import, the command line).
    pub committed: bool,
    /// Actions replayed.
    pub actions: usize,
    /// Event lines of the record compared with the replay (0 if it carries no log).
    pub lines: usize,
    /// Whether the game is over.
    pub over: bool,
}

/// Check a record offline (docs/server.md, "Dice anyone can verify"): that the revealed server
/// seed matches its commitment and the dice's seed follows from the seeds (when the record
/// carries verifiable dice), then that its actions replayed from that seed give every event line
/// it logs (every roll), its last events and its state. The error is one line saying what differs.
pub fn verify(rec: &GameRecord, data_dir: Option<&Path>) -> Result<Verified, String> {
    if let Some(d) = &rec.dice {
        d.check(rec.seed).map_err(|e| e.to_string())?;
    }
    if !["saxe", "minis", "bar"].contains(&rec.ruleset.as_str()) {
        return Err(CatalogError::Ruleset(rec.ruleset.clone()).to_string());
    }
    let r = replay_log(
        &rec.scenario,
        &rec.options,
        data_dir,
        rec.seed,
        &rec.actions,
    )
    .map_err(|e| e.to_string())?;
    if !rec.log.is_empty() {
        for (i, (logged, replayed)) in rec.log.iter().zip(&r.log).enumerate() {
            if logged != replayed {
                return Err(format!(
                    "event line {} differs from what the dice give: the record has {logged:?}, the replay {replayed:?}",
                    i + 1
                ));
            }
        }
        if rec.log.len() != r.log.len() {
            return Err(format!(
                "the record logs {} event lines, the replay of its actions {}",
                rec.log.len(),
                r.log.len()
            ));
        }
    }
    // A committed record's last events come from the replay too (an older record's may hold the
    // computer's explanations, which no replay gives).
    if rec.dice.is_some() && rec.last_events != r.last_events {
        return Err(
            "the record's last events differ from what the replay of its actions gives".into(),
        );
    }
    if r.game.state_json() != rec.state {
        return Err(CatalogError::Mismatch.to_string());
    }
    if rec.dice.is_some() && r.game.decider().is_some() {
        return Err("the game is not over (its server seed cannot have been revealed)".into());
    }
    Ok(Verified {
        committed: rec.dice.is_some(),
        actions: rec.actions.len(),
        lines: rec.log.len(),
        over: r.game.decider().is_none(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_opens_and_replays() {
        for s in scenarios() {
            let (mut g, _) = open(s.id, &[], None, 3).expect("catalogue scenario opens");
            let mut actions = Vec::new();
            for _ in 0..30 {
                let Ok((id, _)) = g.apply_index(0) else { break };
                actions.push(id);
            }
            let rec = record(g.as_ref(), s.id, &[], 3, actions, Vec::new());
            let again = replay(&rec, None, true).expect("record replays");
            assert_eq!(again.state_json(), g.state_json());
        }
    }

    #[test]
    fn unknown_scenario_and_tampered_record_are_refused() {
        assert!(open("nowhere", &[], None, 1).is_err());
        let (g, _) = open("hastenbeck", &[], None, 1).expect("opens");
        let mut rec = record(
            g.as_ref(),
            "hastenbeck",
            &[],
            1,
            vec!["activate:nobody".into()],
            Vec::new(),
        );
        assert!(matches!(
            replay(&rec, None, false),
            Err(CatalogError::Replay { .. })
        ));
        rec.actions.clear();
        rec.seed = 2;
        rec.state = serde_json::json!({"turn": 3});
        assert!(matches!(
            replay(&rec, None, true),
            Err(CatalogError::Mismatch)
        ));
    }
}
