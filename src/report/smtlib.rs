//! `explore --smtlib DIR`: one self-contained SMT-LIB script per path
//! (`path-N.smt2`), written as each path ends (KLEE's one `.smt2` per test,
//! CrossHair's conditions at a program point). Each file says in a comment
//! what the tool answered, so an external `z3 -smt2` can be checked against it.

use crate::explore::{Finished, Observer, PathNode, Pruned, Stats, Status, Unexplored};
use crate::solver::Solver;
use std::io;
use std::path::{Path, PathBuf};

/// What the exploration knows of a path condition: `sat` with a confirmed
/// model, `unsat` for an infeasible path (`--keep-infeasible`), else `unknown`.
pub fn expected_answer(status: &Status, has_model: bool) -> &'static str {
    match status {
        Status::Infeasible => "unsat",
        _ if has_model => "sat",
        _ => "unknown",
    }
}

/// Forwards every event to `report`, and writes each path's script to `dir`.
pub struct SmtlibFiles<'a> {
    dir: PathBuf,
    program: String,
    report: &'a mut dyn Observer,
}

impl<'a> SmtlibFiles<'a> {
    /// Creates `dir` if needed.
    pub fn new(
        dir: &Path,
        program: &str,
        report: &'a mut dyn Observer,
    ) -> io::Result<SmtlibFiles<'a>> {
        std::fs::create_dir_all(dir)?;
        Ok(SmtlibFiles {
            dir: dir.to_path_buf(),
            program: program.to_string(),
            report,
        })
    }
}

impl Observer for SmtlibFiles<'_> {
    fn node(&mut self, node: &PathNode) -> io::Result<()> {
        self.report.node(node)
    }

    fn pruned(&mut self, pruned: Pruned) -> io::Result<()> {
        self.report.pruned(pruned)
    }

    fn path(&mut self, path: Finished<'_>) -> io::Result<()> {
        let leaf = &path.leaf;
        let script = match Solver::smtlib(&leaf.path_condition) {
            Ok(script) => script,
            Err(error) => format!("; no SMT-LIB translation: {error}\n"),
        };
        let text = format!(
            "; symex explore {}, path {}: {}\n; path condition: {}\n; symex: {}\n{script}",
            self.program,
            path.id,
            leaf.status,
            leaf.path_condition.to_string().replace('\n', " "),
            expected_answer(&leaf.status, leaf.model.is_some())
        );
        std::fs::write(self.dir.join(format!("path-{}.smt2", path.id)), text)?;
        self.report.path(path)
    }

    fn reads_ancestors(&self) -> bool {
        self.report.reads_ancestors()
    }

    fn finish(&mut self, unexplored: &[Unexplored], stats: &Stats) -> io::Result<()> {
        self.report.finish(unexplored, stats)
    }
}
