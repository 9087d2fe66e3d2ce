//! LaTeX views for papers and course notes: a concrete run as the sequence
//! of its configurations with the rule on each arrow, and an exploration as
//! its compact tree (`forest`, as a paper typesets a tree: the test at each
//! fork, `true`/`false` on the edges, each path's condition at its end),
//! the table of its paths and their traces, all in the paper's notation
//! (`⟨S, σ, φ⟩`, `∧`, `¬`, `↦`). The output is a fragment to `\input` (its
//! first line names the packages it needs: `amsmath`, `forest`,
//! `longtable`); `--standalone` wraps it in a document that compiles on
//! its own with `pdflatex`.

use super::compact::Box;
use super::layout::{box_lines, fitted, look, Look};
use super::{paths_summary, Header};
use crate::explore::Tree;
use std::fmt::Write;
use symex_semantics::eval::ShowValuation;

/// The widest tree typeset, in layout units: the text width of an A4 page
/// with 2 cm margins (17 cm) in `\ttfamily\scriptsize`, whose character
/// (3.7 pt) is 7.3 units, less a margin for `forest`'s own spacing.
const MAX_TEX_WIDTH: f64 = 850.0;

/// The packages a run's fragment needs.
pub const RUN_PACKAGES: &str = "amsmath,amssymb";
/// The packages a tree's fragment needs.
pub const TREE_PACKAGES: &str = "amsmath,amssymb,forest,longtable";

/// `body`, which needs `packages`, as a document of its own (with `title`
/// as its heading), or as the bare fragment.
pub fn document(body: &str, title: &str, packages: &str, standalone: bool) -> String {
    if !standalone {
        return format!("% symex output: needs \\usepackage{{{packages}}}\n{body}");
    }
    format!(
        "\\documentclass[a4paper]{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage[margin=2cm]{{geometry}}\n\
         \\usepackage{{{packages}}}\n\\begin{{document}}\n\\section*{{{}}}\n{body}\\end{{document}}\n",
        tex(title)
    )
}

/// A run: `(rule, configuration)` pairs, the first with no rule, then the ending.
pub fn run_latex(trace: &[(Option<&'static str>, String)], ending: &str) -> String {
    let mut out = String::from("\\begin{description}\\raggedright\n");
    for (rule, config) in trace {
        match rule {
            None => {
                let _ = writeln!(out, "  \\item[] \\texttt{{{}}}", tex(config));
            }
            Some(rule) => {
                let _ = writeln!(
                    out,
                    "  \\item[$\\xrightarrow{{\\text{{{}}}}}$] \\texttt{{{}}}",
                    tex(rule),
                    tex(config)
                );
            }
        }
    }
    let _ = writeln!(out, "\\end{{description}}\n\\noindent {}\n", tex(ending));
    out
}

/// An exploration: the tree, the table of paths, the trace `ρ` of each path.
pub fn tree_latex(tree: &Tree, header: &Header) -> String {
    let mut out = format!("{}.\n\n", tex(&paths_summary(&tree.stats)));
    out.push_str(&forest(tree));
    out.push_str("\\begin{longtable}{r p{0.14\\linewidth} p{0.46\\linewidth} p{0.26\\linewidth}}\npath & status & path condition $\\varphi$ & model \\\\ \\hline\n\\endhead\n");
    for (id, &node) in tree.paths.iter().enumerate() {
        let Some(leaf) = tree.leaf(node) else {
            continue;
        };
        let model = leaf.model.as_ref().map_or_else(
            || "none".to_string(),
            |model| ShowValuation(&header.inputs_of(model)).to_string(),
        );
        let _ = writeln!(
            out,
            "{id} & {} & \\texttt{{{}}} & \\texttt{{{}}} \\\\",
            tex(&leaf.status.to_string()),
            tex(&leaf.path_condition.to_string()),
            tex(&model)
        );
    }
    out.push_str(
        "\\end{longtable}\n\n\\noindent Traces $\\rho$:\n\\begin{description}\\raggedright\n",
    );
    for (id, &node) in tree.paths.iter().enumerate() {
        let trace: Vec<String> = tree
            .trace_to(node)
            .iter()
            .map(|entry| tex(&entry.to_string()))
            .collect();
        let trace = if trace.is_empty() {
            "$\\varepsilon$".to_string()
        } else {
            trace.join(" $\\cdot$ ")
        };
        let _ = writeln!(out, "  \\item[path {id}] \\texttt{{{trace}}}");
    }
    out.push_str("\\end{description}\n");
    out
}

/// The compact tree as a `forest`, folded to fit the width of a page.
fn forest(tree: &Tree) -> String {
    let (root, _) = fitted(tree, MAX_TEX_WIDTH);
    let mut out = String::from(
        "\\begin{center}\n\\begin{forest}\n  for tree={draw, rounded corners, align=center, font=\\ttfamily\\scriptsize, inner sep=2pt, s sep=6pt, l sep=18pt, edge={gray}}\n",
    );
    forest_node(&mut out, &root, 1, None);
    out.push_str("\\end{forest}\n\\end{center}\n\n");
    out
}

/// One node of the forest and its subtree; `side` says where its edge's
/// label goes (`left` of a first child's edge, else `right`).
fn forest_node(out: &mut String, b: &Box, indent: usize, side: Option<&str>) {
    let lines = box_lines(b);
    let text: Vec<String> = lines.iter().map(|line| tex(line)).collect();
    let style = match look(&b.kind) {
        Look::Fork => "",
        Look::Terminated => ", fill=green!8",
        Look::Error => ", fill=red!10, thick",
        Look::Cut => ", fill=orange!12",
        Look::Folded => ", dashed, fill=blue!6",
        Look::Unexplored => ", dashed",
    };
    let label = match (&b.edge, side) {
        (Some(edge), Some(side)) => format!(
            ", edge label={{node[midway, {side}, font=\\scriptsize\\itshape]{{{}}}}}",
            tex(edge)
        ),
        _ => String::new(),
    };
    let pad = "  ".repeat(indent);
    let _ = write!(out, "{pad}[{{{}}}{style}{label}", text.join("\\\\"));
    if b.children.is_empty() {
        out.push_str("]\n");
        return;
    }
    out.push('\n');
    let last = b.children.len() - 1;
    for (i, child) in b.children.iter().enumerate() {
        let side = if i == 0 && last > 0 { "left" } else { "right" };
        forest_node(out, child, indent + 1, Some(side));
    }
    let _ = writeln!(out, "{pad}]");
}

/// Text in the paper's notation, safe in LaTeX's text mode: special
/// characters escaped, the operators and the Greek of the text views as
/// math symbols.
pub fn tex(text: &str) -> String {
    const TOKENS: &[(&str, &str)] = &[
        ("==>", "$\\Rightarrow$"),
        ("&&", "$\\wedge$"),
        ("||", "$\\vee$"),
        ("!=", "$\\neq$"),
        ("<=", "$\\leq$"),
        (">=", "$\\geq$"),
        ("!", "$\\neg$"),
        ("{", "\\{"),
        ("}", "\\}"),
        ("_", "\\_"),
        ("%", "\\%"),
        ("&", "\\&"),
        ("#", "\\#"),
        ("$", "\\$"),
        ("^", "\\^{}"),
        ("~", "\\~{}"),
        ("\\", "\\textbackslash{}"),
        ("<", "\\textless{}"),
        (">", "\\textgreater{}"),
        ("|", "\\textbar{}"),
        ("⟨", "$\\langle$"),
        ("⟩", "$\\rangle$"),
        ("↦", "$\\mapsto$"),
        ("→", "$\\to$"),
        ("ε", "$\\varepsilon$"),
        ("σ", "$\\sigma$"),
        ("φ", "$\\varphi$"),
        ("ρ", "$\\rho$"),
        ("δ", "$\\delta$"),
        ("¬", "$\\neg$"),
        ("∧", "$\\wedge$"),
        ("⊥", "$\\bot$"),
        ("…", "\\ldots{}"),
        ("·", "$\\cdot$"),
        // Typewriter text keeps a colon's space as wide as any other.
        (": ", ":\\ "),
    ];
    let mut out = String::with_capacity(text.len() * 2);
    let mut rest = text;
    'scan: while let Some(c) = rest.chars().next() {
        for (token, replacement) in TOKENS {
            if let Some(after) = rest.strip_prefix(token) {
                out.push_str(replacement);
                rest = after;
                continue 'scan;
            }
        }
        if c.is_ascii() {
            out.push(c);
        } else if subscript_digit(c).is_some() {
            let digits: String = rest.chars().map_while(subscript_digit).collect();
            let _ = write!(out, "$_{{{digits}}}$");
            rest = &rest[digits.len() * c.len_utf8()..];
            continue;
        } else {
            let _ = write!(out, "\\textsf{{U+{:04X}}}", u32::from(c));
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The digit a subscript digit (`₁` of a fresh name `c₁`) stands for.
fn subscript_digit(c: char) -> Option<char> {
    let offset = u32::from(c)
        .checked_sub(u32::from('₀'))
        .filter(|&offset| offset < 10)?;
    char::from_u32(u32::from('0') + offset)
}

#[cfg(test)]
mod tests {
    use super::tex;

    #[test]
    fn the_paper_notation_becomes_math_and_specials_are_escaped() {
        assert_eq!(
            tex("⟨x := 1, {x ↦ 0}⟩"),
            "$\\langle$x := 1, \\{x $\\mapsto$ 0\\}$\\rangle$"
        );
        assert_eq!(
            tex("!(a[3] != x) && y <= 5_%"),
            "$\\neg$(a[3] $\\neq$ x) $\\wedge$ y $\\leq$ 5\\_\\%"
        );
        assert_eq!(tex("ψ"), "\\textsf{U+03C8}");
        assert_eq!(
            tex("c₁₂ := new C, {o1: C}"),
            "c$_{12}$ := new C, \\{o1:\\ C\\}"
        );
    }
}
