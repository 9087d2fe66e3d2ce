//! Extraction cost: the length of the printed form, so the simplifier
//! picks what is shortest to read (`x = 1` over `x >= 1 && x <= 1`), and
//! among equally long forms the one with fewer nodes (`y <= x` over
//! `!(x < y)`).

use super::language::Node;
use egg::{CostFunction, Id, Language};
use symex_semantics::term::{BinOp, UnOp};

/// Characters of a term as printed (parentheses aside, which depend on
/// the context).
pub struct PrintedLength;

impl CostFunction<Node> for PrintedLength {
    /// Printed length, then nodes.
    type Cost = (usize, usize);

    fn cost<C>(&mut self, enode: &Node, mut costs: C) -> (usize, usize)
    where
        C: FnMut(Id) -> (usize, usize),
    {
        let own = match enode {
            Node::Int(n) => n.to_string().len(),
            Node::Bool(true) => 4,
            Node::Bool(false) => 5,
            Node::Var(x, _) | Node::FieldArray(x, _) => x.as_str().chars().count(),
            Node::Len(a) => a.as_str().chars().count() + 5,
            Node::Nil(_) => 3,
            Node::Unary(UnOp::Not | UnOp::Neg, _) => 1,
            Node::Binary(op, _) => op_length(*op),
            Node::Ite(_) => 18,
            Node::Select(_) => 2,
            Node::Store(_) => 8,
            Node::Field(f, ..) => f.as_str().chars().count() + 1,
        };
        enode.fold((own, 1), |(length, nodes), id| {
            let (l, n) = costs(id);
            (length.saturating_add(l), nodes.saturating_add(n))
        })
    }
}

/// An infix operator with a space either side.
fn op_length(op: BinOp) -> usize {
    op.symbol().len() + 2
}
