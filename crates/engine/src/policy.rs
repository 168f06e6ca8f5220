//! Reaction policies (issue 19): a side says once how it answers the enemy's moves — never react,
//! always be asked, or react when the rules' conditions and its own thresholds are met — and the
//! ruleset answers each reactive prompt for it ([`crate::Ruleset::policy_answer`]) as that side's
//! own decision. A policy is set by an entry of the game's action list (`policy:SEAT:…`, see
//! [`Policy::action_id`]), so the record holds it, a replay restores it and an undo takes it back
//! like any other decision of the seat.
use serde::{Deserialize, Serialize};

/// How a side answers the reactive prompts of the rules (French series 8.6, 9.3; BAR's reactions
/// later).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum React {
    /// Always ask the player (the rules' default).
    #[default]
    Ask,
    /// Never react: every reactive prompt is declined.
    Never,
    /// React when the rules allow it and the thresholds of the policy are met; otherwise decline.
    When,
}

/// Which cavalry reactions a `When` policy makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cavalry {
    /// Never a cavalry reaction.
    #[default]
    Never,
    /// Only against moving enemy cavalry.
    AgainstCavalry,
    /// Whenever the rules allow one.
    Always,
}

/// A side's reaction policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// Ask, never, or when.
    pub react: React,
    /// `When`: fire (reaction fire) at a unit this many hexes away or nearer; 0: never fire.
    #[serde(default)]
    pub fire_within: u8,
    /// `When`: which cavalry reactions to make.
    #[serde(default)]
    pub cavalry: Cavalry,
}

impl Policy {
    /// The action-list entry that sets this policy for `seat`: `policy:1:never`,
    /// `policy:0:when:fire=2:cavalry=against-cavalry`, `policy:1:ask`.
    pub fn action_id(&self, seat: crate::Seat) -> String {
        match self.react {
            React::Ask => format!("policy:{}:ask", seat.0),
            React::Never => format!("policy:{}:never", seat.0),
            React::When => format!(
                "policy:{}:when:fire={}:cavalry={}",
                seat.0,
                self.fire_within,
                match self.cavalry {
                    Cavalry::Never => "never",
                    Cavalry::AgainstCavalry => "against-cavalry",
                    Cavalry::Always => "always",
                }
            ),
        }
    }

    /// Read an action-list entry written by [`Policy::action_id`]: the seat and the policy;
    /// `None` if `id` is not a policy entry, an error if it is a malformed one.
    pub fn parse_action(id: &str) -> Option<Result<(crate::Seat, Policy), String>> {
        let rest = id.strip_prefix("policy:")?;
        let bad =
            || format!("{id:?} is not a policy (policy:SEAT:ask|never|when:fire=N:cavalry=C)");
        let mut parts = rest.split(':');
        let seat = match parts.next() {
            Some("0") => crate::Seat(0),
            Some("1") => crate::Seat(1),
            _ => return Some(Err(bad())),
        };
        let policy = match parts.next() {
            Some("ask") => Policy::default(),
            Some("never") => Policy {
                react: React::Never,
                ..Policy::default()
            },
            Some("when") => {
                let fire = parts
                    .next()
                    .and_then(|p| p.strip_prefix("fire="))
                    .and_then(|n| n.parse::<u8>().ok());
                let cavalry = match parts.next().and_then(|p| p.strip_prefix("cavalry=")) {
                    Some("never") => Some(Cavalry::Never),
                    Some("against-cavalry") => Some(Cavalry::AgainstCavalry),
                    Some("always") => Some(Cavalry::Always),
                    _ => None,
                };
                match (fire, cavalry) {
                    (Some(fire_within), Some(cavalry)) => Policy {
                        react: React::When,
                        fire_within,
                        cavalry,
                    },
                    _ => return Some(Err(bad())),
                }
            }
            _ => return Some(Err(bad())),
        };
        if parts.next().is_some() {
            return Some(Err(bad()));
        }
        Some(Ok((seat, policy)))
    }

    /// The policy in a few words, for the log: "never react", "react: fire within 2 hexes,
    /// cavalry against cavalry only".
    pub fn describe(&self) -> String {
        match self.react {
            React::Ask => "always ask".into(),
            React::Never => "never react".into(),
            React::When => {
                let fire = match self.fire_within {
                    0 => "no fire".to_string(),
                    1 => "fire at 1 hex".to_string(),
                    n => format!("fire within {n} hexes"),
                };
                let cav = match self.cavalry {
                    Cavalry::Never => "no cavalry reaction",
                    Cavalry::AgainstCavalry => "cavalry against cavalry only",
                    Cavalry::Always => "cavalry whenever allowed",
                };
                format!("react: {fire}, {cav}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Seat;

    #[test]
    fn policy_ids_round_trip() {
        for p in [
            Policy::default(),
            Policy {
                react: React::Never,
                ..Policy::default()
            },
            Policy {
                react: React::When,
                fire_within: 2,
                cavalry: Cavalry::AgainstCavalry,
            },
        ] {
            let id = p.action_id(Seat(1));
            assert_eq!(Policy::parse_action(&id), Some(Ok((Seat(1), p))), "{id}");
        }
        assert!(Policy::parse_action("pass").is_none());
        assert!(matches!(
            Policy::parse_action("policy:2:never"),
            Some(Err(_))
        ));
        assert!(matches!(
            Policy::parse_action("policy:0:when:fire=x:cavalry=never"),
            Some(Err(_))
        ));
    }
}
