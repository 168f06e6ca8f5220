use serde::{Deserialize, Serialize};

/// Format tag of a saved game file.
pub const RECORD_FORMAT: &str = "tricorne-game";
/// Version of the saved game format.
pub const RECORD_VERSION: u32 = 1;

/// A saved game: what is needed to replay it (scenario, options, seed, actions) plus the state it
/// reached and the latest events, so `show` needs no replay and `replay` can check equality.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameRecord {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// Always [`RECORD_VERSION`] for files this version writes.
    pub version: u32,
    /// Ruleset id.
    pub ruleset: String,
    /// Scenario id.
    pub scenario: String,
    /// Game options.
    #[serde(default)]
    pub options: Vec<String>,
    /// Seed of the dice.
    pub seed: u64,
    /// Every action applied, in order, by id.
    pub actions: Vec<String>,
    /// The state reached.
    pub state: serde_json::Value,
    /// The events of the last action (for `show`).
    #[serde(default)]
    pub last_events: Vec<String>,
    /// Verifiable dice (docs/server.md): the commitment, the seeds, and the server seed once the
    /// game is over; absent when the seed was chosen openly (hot-seat, import, the command line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<crate::fair::DiceProof>,
    /// Every event line of the game in order, the start's included, as the rules wrote them (the
    /// records of games with verifiable dice carry it: `tricorne verify` compares every roll).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
}

/// Problems with a game file.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON at all, or not the expected shape.
    #[error("not a tricorne game file: {0}")]
    Malformed(String),
    /// JSON of another kind.
    #[error("not a tricorne game file (format {0:?})")]
    Foreign(String),
    /// A newer version.
    #[error(
        "game file version {0} is not supported (this tricorne reads version {RECORD_VERSION})"
    )]
    Version(u32),
}

impl GameRecord {
    /// Parse and check the envelope of a game file.
    pub fn from_json(text: &str) -> Result<Self, RecordError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RecordError::Malformed(e.to_string()))?;
        match v.get("format").and_then(|f| f.as_str()) {
            Some(RECORD_FORMAT) => {}
            Some(other) => return Err(RecordError::Foreign(other.to_string())),
            None => return Err(RecordError::Foreign("none".into())),
        }
        let r: GameRecord =
            serde_json::from_value(v).map_err(|e| RecordError::Malformed(e.to_string()))?;
        if r.version != RECORD_VERSION {
            return Err(RecordError::Version(r.version));
        }
        Ok(r)
    }

    /// Serialise, pretty-printed.
    pub fn to_json(&self) -> String {
        // Serialising a struct of plain JSON values cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_foreign_and_malformed() {
        assert!(matches!(
            GameRecord::from_json("{"),
            Err(RecordError::Malformed(_))
        ));
        assert!(matches!(
            GameRecord::from_json("{\"format\":\"x\"}"),
            Err(RecordError::Foreign(_))
        ));
        assert!(matches!(
            GameRecord::from_json("[]"),
            Err(RecordError::Foreign(_))
        ));
    }
}
