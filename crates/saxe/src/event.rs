//! Events: what a player reads in the log, each with its rule and its numbers.
use serde::Serialize;
use std::fmt;

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A die roll with its modifiers.
    Roll {
        /// Rule or table ("CRT (10.2)").
        rule: String,
        /// What was rolled for.
        what: String,
        /// The die.
        die: u8,
        /// Modifiers with their reasons.
        mods: Vec<(String, i32)>,
        /// Modified total.
        total: i32,
        /// What it gives.
        result: String,
    },
    /// A rule applied.
    Rule {
        /// Rule number.
        rule: String,
        /// Text.
        text: String,
    },
}

impl Event {
    /// A rule event.
    pub fn rule(rule: &str, text: impl Into<String>) -> Event {
        Event::Rule {
            rule: rule.to_string(),
            text: text.into(),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Roll {
                rule,
                what,
                die,
                mods,
                total,
                result,
            } => {
                write!(f, "{rule}: {what}: 1d6={die}")?;
                for (why, v) in mods {
                    if *v >= 0 {
                        write!(f, ", +{v} {why}")?;
                    } else {
                        write!(f, ", −{} {why}", -v)?;
                    }
                }
                write!(f, " = {total} → {result}")
            }
            Event::Rule { rule, text } => write!(f, "{rule}: {text}"),
        }
    }
}
