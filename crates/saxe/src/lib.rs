//! The French battle series (placeholder while the ruleset is written).
