pub mod commands;
pub mod explore;
pub mod report;
pub mod solver;
