//! The tree as King's and the paper's figures draw it: one box per fork,
//! showing the test or statement executed there (`if a[j] = x`), and one per
//! end of a path, showing its number, its status and its path condition;
//! the edges below a fork are labelled `true`/`false` (the test's outcome),
//! `δ`/`¬δ` (an expression defined or not: §2.1's bounds, §4's `nil`), or
//! the rule. The steps between two boxes are not drawn; a tooltip holds
//! what they add. Subtrees below a chosen depth can be folded into one box
//! that counts their paths.

use crate::explore::{Edge, NodeId, Status, TraceEntry, Tree};
use std::collections::HashSet;
use symex_semantics::system::Rule;
use symex_semantics::term::{TermKind, UnOp};
use symex_semantics::valuation::in_natural_order;

/// The longest fork detail shown in the box (longer ones are in the tooltip).
const SHORT: usize = 30;

/// One box of the picture.
#[derive(Debug)]
pub struct Box {
    /// The node of the exploration tree it stands for.
    pub node: NodeId,
    /// The label of the edge from the box above (`None` for the first box).
    pub edge: Option<String>,
    /// The test or statement at a fork; the path and its status at an end.
    pub title: String,
    /// What a fork's first branch adds to the path condition, an end's
    /// path condition, a folded box's count of paths.
    pub detail: String,
    /// Everything else, for a tooltip: the conditions the steps from the box
    /// above add, and an end's state.
    pub tooltip: String,
    pub kind: Kind,
    pub children: Vec<Box>,
}

#[derive(Debug)]
pub enum Kind {
    Fork,
    /// A path ends here: its number in the report and its status.
    End {
        path: usize,
        status: Status,
    },
    /// Left unexplored by `--max-paths` or `--time-limit-ms`.
    Unexplored,
    /// A subtree folded away, with how many paths end in it.
    Folded {
        paths: usize,
    },
}

/// The compact tree of `tree`, with the boxes below `fold_depth` folded
/// (`usize::MAX`: none).
pub fn compact(tree: &Tree, fold_depth: usize) -> Box {
    Builder::of(tree).build(0, None, fold_depth)
}

/// What building the boxes reads of a tree, worked out once.
struct Builder<'t> {
    tree: &'t Tree,
    children: Vec<Vec<NodeId>>,
    unexplored: HashSet<NodeId>,
    /// The number of the path that ends at each leaf.
    path_of: Vec<Option<usize>>,
}

impl<'t> Builder<'t> {
    fn of(tree: &'t Tree) -> Builder<'t> {
        let mut children = vec![Vec::new(); tree.nodes.len()];
        for node in &tree.nodes {
            if let Some(parent) = node.parent {
                children[parent].push(node.id);
            }
        }
        let mut path_of = vec![None; tree.nodes.len()];
        for (path, &node) in tree.paths.iter().enumerate() {
            path_of[node].get_or_insert(path);
        }
        Builder {
            tree,
            children,
            unexplored: tree.unexplored.iter().map(|u| u.node).collect(),
            path_of,
        }
    }

    fn edge(&self, node: NodeId) -> Option<&'t Edge> {
        self.tree.nodes[node].edge.as_ref()
    }

    /// The box for the chain of steps that starts with the edge into
    /// `first` (labelled `edge`; the root's chain has none).
    fn build(&self, first: NodeId, edge: Option<String>, fold_depth: usize) -> Box {
        let (tree, children) = (self.tree, &self.children);
        let mut node = first;
        let mut added = Vec::new();
        let mut add = |node: NodeId| {
            if let Some(edge) = self.edge(node).filter(|e| !e.condition.is_true()) {
                added.push(edge.condition.to_string());
            }
        };
        if edge.is_some() {
            add(node);
        }
        while children[node].len() == 1 && tree.nodes[node].leaf.is_none() {
            node = children[node][0];
            add(node);
        }
        let mut tooltip = match added.is_empty() {
            true => String::new(),
            false => format!("adds {}", added.join(" && ")),
        };
        let below: &[NodeId] = &children[node];
        let (kind, title, detail) = if let Some(leaf) = &tree.nodes[node].leaf {
            let path = self.path_of[node].unwrap_or(0);
            let state: Vec<String> = in_natural_order(leaf.state.iter().map(|(x, e)| (x, e)))
                .into_iter()
                .map(|(x, e)| format!("{x} ↦ {e}"))
                .collect();
            push_line(&mut tooltip, &format!("φ = {}", leaf.path_condition));
            push_line(&mut tooltip, &format!("σ = {{{}}}", state.join(", ")));
            let title = format!("path {path}: {}", short_status(&leaf.status));
            let kind = Kind::End {
                path,
                status: leaf.status.clone(),
            };
            (kind, title, leaf.path_condition.to_string())
        } else if self.unexplored.contains(&node) {
            (Kind::Unexplored, "unexplored".to_string(), String::new())
        } else {
            // What the first branch adds, as the rules substituted it (the
            // test `if a[j] = x` reads `x = a[3]` here), when that is short
            // and says more than the test; the tooltip has it anyway.
            let title = self.fork_title(below);
            let added = below
                .first()
                .and_then(|&c| self.edge(c))
                .map(|e| e.condition.to_string());
            let detail = added
                .filter(|c| {
                    c != "true" && c.chars().count() <= SHORT && !title.ends_with(c.as_str())
                })
                .unwrap_or_default();
            if let Some(first) = below.first().and_then(|&c| self.edge(c)) {
                push_line(
                    &mut tooltip,
                    &format!("{}: {}", first.rule, first.condition),
                );
            }
            (Kind::Fork, title, detail)
        };
        if !matches!(kind, Kind::Fork) || below.is_empty() {
            return Box {
                node,
                edge,
                title,
                detail,
                tooltip,
                kind,
                children: Vec::new(),
            };
        }
        if fold_depth == 0 {
            let paths = self.count_paths(node);
            let detail = format!("{paths} path{}", if paths == 1 { "" } else { "s" });
            let kind = Kind::Folded { paths };
            return Box {
                node,
                edge,
                title,
                detail,
                tooltip,
                kind,
                children: Vec::new(),
            };
        }
        let has_error = below
            .iter()
            .any(|&c| self.edge(c).is_some_and(|e| is_error(e.rule)));
        let children = below
            .iter()
            .map(|&child| {
                let label = self.edge(child).map(|e| edge_label(e.rule, has_error));
                self.build(child, label, fold_depth - 1)
            })
            .collect();
        Box {
            node,
            edge,
            title,
            detail,
            tooltip,
            kind,
            children,
        }
    }

    /// What a fork executes: the test of a choice, a loop or an assertion
    /// as written, else the statement whose expression may be undefined.
    fn fork_title(&self, below: &[NodeId]) -> String {
        let edges: Vec<&Edge> = below.iter().filter_map(|&c| self.edge(c)).collect();
        for edge in &edges {
            let keyword = match edge.rule {
                Rule::ChoiceThen | Rule::ChoiceElse => "if",
                Rule::IterationEnter | Rule::IterationExit => "while",
                Rule::AssertHolds | Rule::AssertFails => "assert",
                _ => continue,
            };
            if let Some(test) = edge.trace.first().map(positive) {
                return format!("{keyword} {test}");
            }
        }
        edges
            .iter()
            .find(|edge| !is_error(edge.rule))
            .or(edges.first())
            .map(|edge| match edge.trace.first() {
                Some(entry) if !is_error(edge.rule) => entry.to_string(),
                _ => edge.rule.to_string(),
            })
            .unwrap_or_default()
    }

    /// The paths that end in the subtree of `node`.
    fn count_paths(&self, node: NodeId) -> usize {
        let mut count = 0;
        let mut pending = vec![node];
        while let Some(n) = pending.pop() {
            count += usize::from(self.tree.nodes[n].leaf.is_some());
            pending.extend(&self.children[n]);
        }
        count
    }
}

fn push_line(text: &mut String, line: &str) {
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(line);
}

/// A trace entry's test without its negation: the else branch's `!(b)` is `b`.
fn positive(entry: &TraceEntry) -> String {
    match entry {
        TraceEntry::Condition(b) => match b.kind() {
            TermKind::Unary(UnOp::Not, inner) => inner.to_string(),
            _ => b.to_string(),
        },
        other => other.to_string(),
    }
}

/// Whether `rule` steps to an error because an expression is undefined.
fn is_error(rule: Rule) -> bool {
    matches!(rule, Rule::ArrayOutOfBound | Rule::NilDereference)
}

/// The label of an edge below a fork: the outcome of the test, `δ`/`¬δ`
/// where the fork checks that an expression is defined, else the rule.
fn edge_label(rule: Rule, beside_an_error: bool) -> String {
    match rule {
        Rule::ChoiceThen | Rule::IterationEnter | Rule::AssertHolds => "true".into(),
        Rule::ChoiceElse | Rule::IterationExit | Rule::AssertFails => "false".into(),
        rule if is_error(rule) => "¬δ".into(),
        _ if beside_an_error => "δ".into(),
        rule => rule.to_string(),
    }
}

/// A status as a box shows it: the error without the word `error`, a
/// bound without its value.
fn short_status(status: &Status) -> String {
    match status {
        Status::Error(kind) => kind.to_string(),
        other => other.name().to_string(),
    }
}

impl Box {
    /// The number of levels of boxes.
    pub fn height(&self) -> usize {
        1 + self.children.iter().map(Box::height).max().unwrap_or(0)
    }

    /// Every box, parents before children.
    pub fn all(&self) -> Vec<&Box> {
        let mut all = vec![self];
        let mut index = 0;
        while index < all.len() {
            all.extend(all[index].children.iter());
            index += 1;
        }
        all
    }
}
