//! Regression tests for the 13 rule findings of the audit.
mod common;
