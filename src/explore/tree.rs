//! The symbolic execution tree: the one result of an exploration, from which
//! every view (text, JSON, DOT, tests, verification) is drawn.

use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use std::fmt;
use symex_semantics::eval::Valuation;
use symex_semantics::oo::action::Action;
use symex_semantics::oo::lazy::InputHeap;
use symex_semantics::program::{ErrorKind, Halt, Outcome, Stmt};
use symex_semantics::system::Rule;
use symex_semantics::term::{Name, Term};

/// Index of a node in [`Tree::nodes`].
pub type NodeId = usize;

/// One configuration reached, with the transition that led to it.
#[derive(Debug, Serialize)]
pub struct Node {
    pub id: NodeId,
    pub parent: Option<NodeId>,
    /// Number of transitions from the initial configuration.
    pub depth: usize,
    /// The transition from the parent; `None` for the root.
    pub edge: Option<Edge>,
    /// Set when configurations were joined here (state merging); `parent`
    /// is then the first of them, and `edge` is `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub join: Option<Join>,
    /// Set when the path ends here.
    pub leaf: Option<Leaf>,
    /// The configuration as text, kept only when asked for (the DOT view).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
}

/// A transition `c → c'`: the rule and the condition it conjoins to `φ`.
#[derive(Clone, Debug, Serialize)]
pub struct Edge {
    #[serde(serialize_with = "rule_name")]
    pub rule: Rule,
    #[serde(serialize_with = "as_text")]
    pub condition: Term,
    /// What the step contributes to the symbolic trace (§4).
    pub trace: Vec<TraceEntry>,
}

/// Configurations joined into one (state merging): the nodes they were
/// at, and the disjunction of what their path conditions do not share.
#[derive(Clone, Debug, Serialize)]
pub struct Join {
    pub from: Vec<NodeId>,
    #[serde(serialize_with = "as_text")]
    pub condition: Term,
    /// The trace entry that marks the join.
    #[serde(skip)]
    pub trace: TraceEntry,
}

impl Join {
    pub fn new(from: Vec<NodeId>, condition: Term) -> Join {
        Join {
            trace: TraceEntry::Join(from.clone()),
            from,
            condition,
        }
    }
}

/// An element of a symbolic trace (§4): an assignment as written, or a
/// condition as written (`b` or `!(b)`), or, for a system that unfolds the
/// program into a trace, the trace's own action.
#[derive(Clone, Debug)]
pub enum TraceEntry {
    Statement(Stmt),
    Condition(Term),
    Action(Action),
    /// The path was joined here with the paths at these nodes (state merging).
    Join(Vec<NodeId>),
}

impl fmt::Display for TraceEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceEntry::Statement(stmt) => write!(f, "{stmt}"),
            TraceEntry::Condition(b) => write!(f, "{b}"),
            TraceEntry::Action(action) => write!(f, "{action}"),
            TraceEntry::Join(from) => {
                let nodes: Vec<String> = from.iter().map(NodeId::to_string).collect();
                write!(f, "⊔ join of nodes {}", nodes.join(", "))
            }
        }
    }
}

impl Serialize for TraceEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// How a path ended (SPEC §2.1 `status`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Terminated,
    Error(ErrorKind),
    /// The input left the program's domain (`assume`); symbolic `assume`
    /// conjoins instead, so explorations of the paper's systems never end so.
    AssumptionViolated,
    Bounded(BoundReason),
    Unknown(UnknownReason),
    /// Only with `--keep-infeasible`.
    Infeasible,
    /// A state stored at the node given subsumes the path's state at a loop
    /// head (`--subsume`): every run from it is a run from that one.
    Subsumed(NodeId),
    /// The abstraction of a state stored at the node given subsumes the
    /// abstraction of the path's (`--abstract`): runs from here may be lost.
    Abstracted(NodeId),
}

impl Status {
    /// The SPEC §2.1 status word.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Terminated => "terminated",
            Status::Error(_) => "error",
            Status::AssumptionViolated => "assumption-violated",
            Status::Bounded(_) => "bounded",
            Status::Unknown(_) => "unknown",
            Status::Infeasible => "infeasible",
            Status::Subsumed(_) => "subsumed",
            Status::Abstracted(_) => "abstracted",
        }
    }

    pub fn error(&self) -> Option<ErrorKind> {
        match self {
            Status::Error(kind) => Some(*kind),
            _ => None,
        }
    }

    /// Why the path was cut or undecided, for `bounded` and `unknown`.
    pub fn reason(&self) -> Option<String> {
        match self {
            Status::Bounded(reason) => Some(reason.to_string()),
            Status::Unknown(reason) => Some(reason.to_string()),
            Status::Subsumed(node) | Status::Abstracted(node) => {
                Some(format!("by the state at node {node}"))
            }
            _ => None,
        }
    }

    /// How a concrete run that follows this path ends, for a path that ran
    /// to its end (a test can be generated for it).
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Status::Terminated => Some(Outcome::Terminated),
            Status::Error(kind) => Some(Outcome::Halted(Halt::Error(*kind))),
            Status::AssumptionViolated => Some(Outcome::Halted(Halt::AssumptionViolated)),
            Status::Bounded(_)
            | Status::Unknown(_)
            | Status::Infeasible
            | Status::Subsumed(_)
            | Status::Abstracted(_) => None,
        }
    }
}

impl From<Outcome> for Status {
    fn from(outcome: Outcome) -> Status {
        match outcome {
            Outcome::Terminated => Status::Terminated,
            Outcome::Halted(Halt::Error(kind)) => Status::Error(kind),
            Outcome::Halted(Halt::AssumptionViolated) => Status::AssumptionViolated,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Error(kind) => write!(f, "error {kind}"),
            Status::Bounded(reason) => write!(f, "bounded ({reason})"),
            Status::Unknown(reason) => write!(f, "unknown ({reason})"),
            Status::Subsumed(node) | Status::Abstracted(node) => {
                write!(f, "{} (by the state at node {node})", self.name())
            }
            other => f.write_str(other.name()),
        }
    }
}

/// Which bound cut a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundReason {
    /// `--depth N`: N transitions taken.
    Depth(usize),
    /// `--unfold K`: the body of one loop would run a (K+1)-th time.
    LoopUnfolding(usize),
    /// `--unwind K`: one entry of a loop would iterate a (K+1)-th time.
    LoopUnwinding(usize),
    /// `--unfold K`: a procedure would have K+1 active calls.
    CallDepth(usize),
    /// `--max-objects N`: lazy initialisation would materialise an (N+1)-th input object.
    Objects(usize),
}

impl fmt::Display for BoundReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoundReason::Depth(n) => write!(f, "depth {n} reached"),
            BoundReason::LoopUnfolding(k) => write!(f, "loop unfolding bound {k}"),
            BoundReason::LoopUnwinding(k) => write!(f, "loop unwinding bound {k}"),
            BoundReason::CallDepth(k) => write!(f, "call depth bound {k}"),
            BoundReason::Objects(n) => write!(f, "input object bound {n}"),
        }
    }
}

/// Why feasibility is not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// The solver answered `unknown` on the step's condition.
    Solver,
    /// The solver gave no model the evaluator could confirm.
    NoModel,
    /// The configuration is not terminal yet no rule applies.
    Stuck,
    /// A concrete run computed an integer beyond the evaluator's bound
    /// (concolic search).
    IntegerBound,
}

impl fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnknownReason::Solver => "solver returned unknown",
            UnknownReason::NoModel => "no confirmed model",
            UnknownReason::Stuck => "no rule applies",
            UnknownReason::IntegerBound => "an integer beyond the evaluator's bound",
        })
    }
}

/// The end of a path.
#[derive(Debug, Serialize)]
pub struct Leaf {
    #[serde(serialize_with = "status_name")]
    pub status: Status,
    #[serde(serialize_with = "as_text")]
    pub path_condition: Term,
    /// `σ` on the global variables.
    #[serde(serialize_with = "state_text")]
    pub state: Vec<(Name, Term)>,
    /// Inputs that drive the concrete semantics down this path.
    #[serde(serialize_with = "model_text")]
    pub model: Option<Valuation>,
    /// The final state the path predicts for `model` (or why it has none).
    #[serde(skip)]
    pub prediction: Option<Result<Valuation, String>>,
    /// The input heap the path materialised (lazy initialisation only).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "input_heap_json"
    )]
    pub input_heap: Option<InputHeap>,
}

/// Why work stopped before it was done: frontier left unexplored by an
/// exploration, runs left undone by a checker ([`crate::stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// `--max-paths`.
    MaxPaths,
    /// `--time-limit-ms`.
    TimeLimit,
    /// The memory budget (`--max-memory-mb`).
    Memory,
    /// The observer had its answer (`verify`'s first counterexample).
    Answered,
    /// The user's Ctrl-C.
    Interrupted,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::MaxPaths => "path limit reached",
            Limit::TimeLimit => "time limit reached",
            Limit::Memory => "memory limit reached",
            Limit::Answered => "stopped once the answer was known",
            Limit::Interrupted => "interrupted",
        })
    }
}

/// A configuration whose subtree was not explored.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Unexplored {
    pub node: NodeId,
    pub depth: usize,
    pub reason: Limit,
}

/// A successor found infeasible, not kept as a node.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Pruned {
    pub parent: NodeId,
    #[serde(serialize_with = "rule_name")]
    pub rule: Rule,
}

/// Counters of one exploration (SPEC §2.1 `stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub paths: usize,
    pub terminated: usize,
    pub errors: usize,
    pub bounded: usize,
    pub unknown: usize,
    pub pruned: usize,
    pub solver_calls: u64,
    pub time_ms: u64,
    /// State subsumption's counters (`--subsume`), the paper's checks,
    /// subsumed and stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subsumption: Option<crate::subsume::MatchStats>,
    /// Configurations joined (`--merge`).
    #[serde(skip_serializing_if = "is_zero")]
    pub merges: usize,
    /// What a shard tells the merge (`--shard`; written beside the stats).
    #[serde(skip)]
    pub shard: Option<super::share::Ledger>,
    /// Where the time went (for `symex bench`; not part of the JSON contract).
    #[serde(skip)]
    pub timings: Timings,
}

impl Stats {
    /// Counts a path that ends with `status`.
    pub fn count_path(&mut self, status: &Status) {
        self.paths += 1;
        match status {
            Status::Terminated | Status::AssumptionViolated => self.terminated += 1,
            Status::Error(_) => self.errors += 1,
            Status::Bounded(_) => self.bounded += 1,
            Status::Unknown(_) => self.unknown += 1,
            Status::Infeasible | Status::Subsumed(_) | Status::Abstracted(_) => {}
        }
    }

    /// Adds the counters of another shard of the same exploration
    /// ([`super::share`]): paths and calls add up, the time is the longer.
    pub fn add(&mut self, other: &Stats) {
        self.paths += other.paths;
        self.terminated += other.terminated;
        self.errors += other.errors;
        self.bounded += other.bounded;
        self.unknown += other.unknown;
        self.pruned += other.pruned;
        self.solver_calls += other.solver_calls;
        self.time_ms = self.time_ms.max(other.time_ms);
        self.merges += other.merges;
        self.timings.solver += other.timings.solver;
        self.timings.simplifier += other.timings.simplifier;
    }
}

/// Time spent in the solver and the simplifier during an exploration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timings {
    pub solver: std::time::Duration,
    pub simplifier: std::time::Duration,
}

/// The whole exploration.
#[derive(Debug, Default, Serialize)]
pub struct Tree {
    pub nodes: Vec<Node>,
    /// The reported paths, as the nodes where they end, in the order found.
    pub paths: Vec<NodeId>,
    pub unexplored: Vec<Unexplored>,
    pub pruned: Vec<Pruned>,
    pub stats: Stats,
}

impl Tree {
    /// The nodes from the root to `node`, root first.
    pub fn path_to(&self, node: NodeId) -> Vec<&Node> {
        let mut path = Vec::new();
        let mut current = Some(node);
        while let Some(id) = current {
            path.push(&self.nodes[id]);
            current = self.nodes[id].parent;
        }
        path.reverse();
        path
    }

    /// The rules taken from the root to `node`.
    pub fn rules_to(&self, node: NodeId) -> Vec<Rule> {
        self.path_to(node)
            .iter()
            .filter_map(|n| n.edge.as_ref().map(|e| e.rule))
            .collect()
    }

    /// The symbolic trace (§4) of the path to `node`; from the last join
    /// on, where paths were joined (before it each took its own).
    pub fn trace_to(&self, node: NodeId) -> Vec<&TraceEntry> {
        let path = self.path_to(node);
        let from = path.iter().rposition(|n| n.join.is_some()).unwrap_or(0);
        path[from..]
            .iter()
            .flat_map(|n| match (&n.edge, &n.join) {
                (Some(edge), _) => edge.trace.as_slice(),
                (None, Some(join)) => std::slice::from_ref(&join.trace),
                (None, None) => &[],
            })
            .collect()
    }

    /// Whether the path to `node` went through a join: its rules are then
    /// those of one of the paths joined.
    pub fn joined_to(&self, node: NodeId) -> bool {
        self.path_to(node).iter().any(|n| n.join.is_some())
    }

    /// The leaf of `node`, if a path ends there.
    pub fn leaf(&self, node: NodeId) -> Option<&Leaf> {
        self.nodes[node].leaf.as_ref()
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn as_text<S: Serializer>(term: &Term, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(term)
}

fn rule_name<S: Serializer>(rule: &Rule, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(rule.name())
}

fn status_name<S: Serializer>(status: &Status, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(status)
}

fn state_text<S: Serializer>(state: &[(Name, Term)], serializer: S) -> Result<S::Ok, S::Error> {
    let mut seq = serializer.serialize_seq(Some(state.len()))?;
    for (x, e) in state {
        seq.serialize_element(&format!("{x} := {e}"))?;
    }
    seq.end()
}

fn input_heap_json<S: Serializer>(
    heap: &Option<InputHeap>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    heap.as_ref()
        .map(crate::report::values::input_heap_json)
        .serialize(serializer)
}

fn model_text<S: Serializer>(model: &Option<Valuation>, serializer: S) -> Result<S::Ok, S::Error> {
    model
        .as_ref()
        .map(crate::report::values::valuation_json)
        .serialize(serializer)
}
