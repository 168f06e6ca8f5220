//! Cavalry pursuit (16.0): package 4 (issue 17).
