//! The tree as pictures and papers draw it: only the start, the forks and
//! the ends of paths, each reached from the one above by a chain of steps
//! summarised as its first rule and the conditions it adds. Below a depth
//! chosen so the picture stays readable, subtrees are folded into one box
//! that counts their paths.

use crate::explore::{NodeId, Status, Tree};
use std::collections::HashSet;
use symex_semantics::system::Rule;
use symex_semantics::term::Term;

/// At most this many boxes before deeper subtrees are folded.
pub const MAX_BOXES: usize = 120;

/// One box of the picture.
#[derive(Debug)]
pub struct Box {
    /// The node of the exploration tree it stands for.
    pub node: NodeId,
    /// The first rule of the chain from the box above (`None` for the chain
    /// from the initial configuration).
    pub rule: Option<Rule>,
    /// The conditions the chain adds to `φ` (`true` when it adds none).
    pub condition: Term,
    /// The transitions in the chain.
    pub steps: usize,
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

/// The compact tree of `tree`, folded below the depth that keeps it within `max_boxes`.
pub fn compact(tree: &Tree, max_boxes: usize) -> Box {
    let layout = Layout::of(tree);
    let full = layout.build(0, None, usize::MAX);
    let height = full.height();
    // Fold at depth d: the boxes of levels 0..=d are drawn. Take the deepest d within the budget.
    let depth = (0..)
        .find(|&d| d + 1 >= height || full.count_to(d + 2) > max_boxes)
        .unwrap_or(0);
    layout.build(0, None, depth)
}

/// What building the boxes reads of a tree, worked out once.
struct Layout<'t> {
    tree: &'t Tree,
    children: Vec<Vec<NodeId>>,
    unexplored: HashSet<NodeId>,
    /// The number of the path that ends at each leaf.
    path_of: Vec<Option<usize>>,
}

impl<'t> Layout<'t> {
    fn of(tree: &'t Tree) -> Layout<'t> {
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
        Layout {
            tree,
            children,
            unexplored: tree.unexplored.iter().map(|u| u.node).collect(),
            path_of,
        }
    }

    /// The box for the chain that starts with the edge into `first` (the
    /// root when `rule` is `None`), with boxes below `fold_depth` folded.
    fn build(&self, first: NodeId, rule: Option<Rule>, fold_depth: usize) -> Box {
        let (tree, children) = (self.tree, &self.children);
        let mut node = first;
        let mut conditions = Vec::new();
        let mut steps = usize::from(rule.is_some());
        let add = |node: NodeId, conditions: &mut Vec<Term>| {
            if let Some(edge) = &tree.nodes[node].edge {
                if !edge.condition.is_true() {
                    conditions.push(edge.condition.clone());
                }
            }
        };
        if rule.is_some() {
            add(node, &mut conditions);
        }
        while children[node].len() == 1 && tree.nodes[node].leaf.is_none() {
            node = children[node][0];
            add(node, &mut conditions);
            steps += 1;
        }
        let kind = if let Some(leaf) = &tree.nodes[node].leaf {
            Kind::End {
                path: self.path_of[node].unwrap_or(0),
                status: leaf.status.clone(),
            }
        } else if self.unexplored.contains(&node) {
            Kind::Unexplored
        } else {
            Kind::Fork
        };
        let condition = Term::conjunction(conditions);
        let below: &[NodeId] = if matches!(kind, Kind::End { .. }) {
            &[]
        } else {
            &children[node]
        };
        if fold_depth == 0 && !below.is_empty() {
            return Box {
                node,
                rule,
                condition,
                steps,
                kind: Kind::Folded {
                    paths: self.count_paths(node),
                },
                children: Vec::new(),
            };
        }
        let children = below
            .iter()
            .map(|&child| {
                let rule = tree.nodes[child].edge.as_ref().map(|edge| edge.rule);
                self.build(child, rule, fold_depth.saturating_sub(1))
            })
            .collect();
        Box {
            node,
            rule,
            condition,
            steps,
            kind,
            children,
        }
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

impl Box {
    /// The number of levels of boxes.
    pub fn height(&self) -> usize {
        1 + self.children.iter().map(Box::height).max().unwrap_or(0)
    }

    /// The boxes in the first `levels` levels.
    fn count_to(&self, levels: usize) -> usize {
        if levels == 0 {
            return 0;
        }
        1 + self
            .children
            .iter()
            .map(|child| child.count_to(levels - 1))
            .sum::<usize>()
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
