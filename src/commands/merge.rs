//! `symex merge FILE…`: the JSON reports of the shards of one exploration
//! (`explore --shard I/N --format json`) combined into the report the
//! one-process exploration gives ([`crate::report::shards`]).

use super::{CliError, Exit};
use crate::report::shards::{merge, write_json, Merged, ShardReport};
use clap::Args;
use std::io::Write;

#[derive(Clone, Debug, Args)]
pub struct MergeArgs {
    /// One JSON report per shard, in any order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
}

pub fn command(args: &MergeArgs, out: &mut dyn Write) -> Result<Exit, CliError> {
    let reports = args
        .files
        .iter()
        .map(|name| read(name))
        .collect::<Result<Vec<_>, _>>()?;
    let merged = merge(reports).map_err(CliError::new)?;
    write_json(&merged, out)?;
    Ok(exit_of(&merged))
}

/// The report in `name`, parsed.
fn read(name: &str) -> Result<ShardReport, CliError> {
    let text = std::fs::read_to_string(name).map_err(|e| CliError::new(format!("{name}: {e}")))?;
    ShardReport::parse(name, &text).map_err(CliError::new)
}

/// The exit of a merged report: inconclusive when a limit left part of
/// some shard's tree unexplored, as for one process.
pub(super) fn exit_of(merged: &Merged) -> Exit {
    if merged.cut_off() {
        Exit::Inconclusive
    } else {
        Exit::Done
    }
}
