//! Opportunity charge (17.0): package 4 (issue 17).
