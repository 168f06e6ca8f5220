//! *Battles from the Age of Reason* (BAR), third edition series rules 1.0–24.0, as printed in
//! *Prague: The Empty Triumph*. Modules follow the book's sections.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod charts;
pub mod data;
