//! LaTeX views for papers and course notes: a concrete run as the sequence
//! of its configurations with the rule on each arrow, and an exploration as
//! its compact tree (TikZ, laid out as the SVG view is), the table of its
//! paths and their traces, all in the paper's notation (`⟨S, σ, φ⟩`, `∧`,
//! `¬`, `↦`). The body needs `amsmath`, `tikz` and `longtable`;
//! `--standalone` wraps it in a document that compiles on its own with
//! `pdflatex`.

use super::compact::{compact, MAX_BOXES};
use super::layout::{Layout, Look, CHAR_WIDTH};
use super::{paths_summary, Header};
use crate::explore::Tree;
use std::fmt::Write;
use symex_semantics::eval::ShowValuation;

/// Boxes of the tree drawn in LaTeX, fewer than in SVG: a page is narrower.
const MAX_TEX_BOXES: usize = MAX_BOXES / 2;

/// TeX points per layout unit: the layout's character advance becomes that
/// of `\ttfamily\scriptsize` (0.525 em of 7 pt).
const POINTS: f64 = 0.525 * 7.0 / CHAR_WIDTH;

/// `body` as a document of its own, or as it is.
pub fn document(body: &str, standalone: bool) -> String {
    if !standalone {
        return format!("% symex output: needs \\usepackage{{amsmath,tikz,longtable}}\n{body}");
    }
    format!(
        "\\documentclass[a4paper]{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage[margin=2cm,landscape]{{geometry}}\n\
         \\usepackage{{amsmath,amssymb,tikz,longtable}}\n\\begin{{document}}\n{body}\\end{{document}}\n"
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
    let mut out = format!(
        "\\section*{{Symbolic execution of \\texttt{{{}}}}}\n{}.\n\n",
        tex(&header.program),
        tex(&paths_summary(&tree.stats))
    );
    out.push_str(&tikz(tree));
    out.push_str("\\begin{longtable}{r l p{0.45\\linewidth} p{0.25\\linewidth}}\npath & status & path condition $\\varphi$ & model \\\\ \\hline\n\\endhead\n");
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
        "\\end{longtable}\n\n\\subsection*{Traces $\\rho$}\n\\begin{description}\\raggedright\n",
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

/// The compact tree as a TikZ picture, shrunk to the width of the text if
/// wider (never enlarged: a small tree keeps the size of the table's text).
fn tikz(tree: &Tree) -> String {
    let root = compact(tree, MAX_TEX_BOXES);
    let layout = Layout::of(&root);
    let tops = layout.level_tops(0.0);
    let mut out = String::from("\\begin{center}\n\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%\n\\begin{tikzpicture}[x=1pt, y=-1pt, every node/.style={draw, rounded corners, align=center, font=\\ttfamily\\scriptsize, inner sep=2pt}]\n");
    for (id, placed) in layout.boxes.iter().enumerate() {
        let (x, y) = (
            placed.center * POINTS,
            (tops[placed.level] + placed.height / 2.0) * POINTS,
        );
        let lines: Vec<String> = placed.lines.iter().map(|line| tex(line)).collect();
        let style = match placed.kind {
            Look::Plain => "",
            Look::Terminated => ", fill=green!8",
            Look::Error => ", fill=red!10, thick",
            Look::Cut => ", fill=orange!12",
            Look::Folded => ", dashed, fill=blue!6",
            Look::Unexplored => ", dashed",
        };
        let _ = writeln!(
            out,
            "  \\node[minimum width={:.1}pt{style}] (b{id}) at ({x:.1}, {y:.1}) {{{}}};",
            placed.width * POINTS,
            lines.join(" \\\\ ")
        );
        if let Some(parent) = placed.parent {
            let _ = writeln!(out, "  \\draw (b{parent}.south) -- (b{id}.north);");
        }
    }
    out.push_str("\\end{tikzpicture}}\n\\end{center}\n\n");
    out
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
