//! LaTeX views for papers and course notes: a concrete run as the sequence
//! of its configurations with the rule on each arrow, and an exploration as
//! its compact tree (`forest`), the table of its paths and their traces,
//! all in the paper's notation (`⟨S, σ, φ⟩`, `∧`, `¬`, `↦`). The body needs
//! `amsmath`, `forest` and `longtable`; `--standalone` wraps it in a
//! document that compiles on its own with `pdflatex`.

use super::compact::{compact, Box, Kind, MAX_BOXES};
use super::{paths_summary, Header};
use crate::explore::Tree;
use std::fmt::Write;
use symex_semantics::eval::ShowValuation;

/// Boxes of the tree drawn in LaTeX, fewer than in SVG: a page is narrower.
const MAX_TEX_BOXES: usize = MAX_BOXES / 2;

/// `body` as a document of its own, or as it is.
pub fn document(body: &str, standalone: bool) -> String {
    if !standalone {
        return format!("% symex output: needs \\usepackage{{amsmath,forest,longtable}}\n{body}");
    }
    format!(
        "\\documentclass[a4paper]{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage[margin=2cm,landscape]{{geometry}}\n\
         \\usepackage{{amsmath,amssymb,forest,longtable}}\n\\begin{{document}}\n{body}\\end{{document}}\n"
    )
}

/// A run: `(rule, configuration)` pairs, the first with no rule, then the ending.
pub fn run_latex(trace: &[(Option<&'static str>, String)], ending: &str) -> String {
    let mut out = String::from("\\begin{description}\n");
    for (rule, config) in trace {
        match rule {
            None => {
                let _ = writeln!(out, "  \\item[] \\texttt{{{}}}", tex(config));
            }
            Some(rule) => {
                let _ = writeln!(out, "  \\item[$\\xrightarrow{{\\text{{{}}}}}$] \\texttt{{{}}}", tex(rule), tex(config));
            }
        }
    }
    let _ = writeln!(out, "\\end{{description}}\n\\noindent {}\n", tex(ending));
    out
}

/// An exploration: the tree, the table of paths, the trace `ρ` of each path.
pub fn tree_latex(tree: &Tree, header: &Header) -> String {
    let mut out = format!("\\section*{{Symbolic execution of \\texttt{{{}}}}}\n{}.\n\n", tex(&header.program), tex(&paths_summary(&tree.stats)));
    out.push_str("\\begin{center}\n\\begin{forest}\n  for tree={draw, rounded corners, align=center, font=\\scriptsize\\ttfamily, l sep=6mm, s sep=2mm}\n");
    forest(&compact(tree, MAX_TEX_BOXES), 1, &mut out);
    out.push_str("\\end{forest}\n\\end{center}\n\n");
    out.push_str("\\begin{longtable}{r l p{0.45\\linewidth} p{0.25\\linewidth}}\npath & status & path condition $\\varphi$ & model \\\\ \\hline\n\\endhead\n");
    for (id, &node) in tree.paths.iter().enumerate() {
        let Some(leaf) = tree.leaf(node) else { continue };
        let model = leaf.model.as_ref().map_or_else(|| "none".to_string(), |model| ShowValuation(&header.inputs_of(model)).to_string());
        let _ = writeln!(
            out,
            "{id} & {} & \\texttt{{{}}} & \\texttt{{{}}} \\\\",
            tex(&leaf.status.to_string()),
            tex(&leaf.path_condition.to_string()),
            tex(&model)
        );
    }
    out.push_str("\\end{longtable}\n\n\\subsection*{Traces $\\rho$}\n\\begin{description}\n");
    for (id, &node) in tree.paths.iter().enumerate() {
        let trace: Vec<String> = tree.trace_to(node).iter().map(|entry| tex(&entry.to_string())).collect();
        let trace = if trace.is_empty() { "$\\varepsilon$".to_string() } else { trace.join("; ") };
        let _ = writeln!(out, "  \\item[path {id}] \\texttt{{{trace}}}");
    }
    out.push_str("\\end{description}\n");
    out
}

/// One node of the `forest` tree and its children, indented by `depth`.
fn forest(b: &Box, depth: usize, out: &mut String) {
    let mut lines = Vec::new();
    if !b.condition.is_true() {
        lines.push(tex(&b.condition.to_string()));
    }
    lines.push(match &b.kind {
        Kind::Fork if b.rule.is_none() => "start".to_string(),
        Kind::Fork => String::new(),
        Kind::End { path, status } => format!("\\textbf{{{path}: {}}}", tex(&status.to_string())),
        Kind::Unexplored => "unexplored".to_string(),
        Kind::Folded { paths } => format!("\\textit{{{paths} paths folded}}"),
    });
    lines.retain(|line| !line.is_empty());
    let label = if lines.is_empty() { "\\textbullet".to_string() } else { lines.join("\\\\ ") };
    let indent = "  ".repeat(depth);
    if b.children.is_empty() {
        let _ = writeln!(out, "{indent}[{{{label}}}]");
        return;
    }
    let _ = writeln!(out, "{indent}[{{{label}}}");
    for child in &b.children {
        forest(child, depth + 1, out);
    }
    let _ = writeln!(out, "{indent}]");
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
        ("¬", "$\\neg$"),
        ("∧", "$\\wedge$"),
        ("⊥", "$\\bot$"),
        ("…", "\\ldots{}"),
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
        } else {
            let _ = write!(out, "\\textsf{{U+{:04X}}}", u32::from(c));
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::tex;

    #[test]
    fn the_paper_notation_becomes_math_and_specials_are_escaped() {
        assert_eq!(tex("⟨x := 1, {x ↦ 0}⟩"), "$\\langle$x := 1, \\{x $\\mapsto$ 0\\}$\\rangle$");
        assert_eq!(tex("!(a[3] != x) && y <= 5_%"), "$\\neg$(a[3] $\\neq$ x) $\\wedge$ y $\\leq$ 5\\_\\%");
        assert_eq!(tex("ψ"), "\\textsf{U+03C8}");
    }
}
