/// TeX written from presentation MathML, for a formula that carries no TeX of its own (no
/// `alttext`, no TeX annotation: MathJax 3's assistive MathML, hand-written MathML). Covers the
/// elements a page's formulas are made of — tokens, rows, scripts, fractions, roots, under- and
/// overscripts, tables, fences — and spells the common operators and Greek letters as TeX
/// commands; an unknown element gives its children's TeX.
enum MathMLTeX {
    typealias Node = HTMLImporter.Node

    static func tex(of node: Node) -> String {
        if node.isText { return node.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        let children = node.children.filter { !$0.isText || !$0.text.allSatisfy(\.isWhitespace) }
        func arg(_ index: Int) -> String { index < children.count ? group(tex(of: children[index])) : "{}" }
        switch node.name {
        case "mi":
            return identifier(MathML.innerText(node), variant: node.attribute("mathvariant"))
        case "mn":
            return MathML.innerText(node).trimmingCharacters(in: .whitespaces)
        case "mo":
            return symbol(MathML.innerText(node).trimmingCharacters(in: .whitespaces))
        case "mtext", "ms":
            let text = MathML.innerText(node).trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? "" : "\\text{" + text + "}"
        case "mspace":
            return "\\ "
        case "semantics":
            return children.first.map(tex(of:)) ?? ""
        case "annotation", "annotation-xml", "none", "mprescripts":
            return ""
        case "msub":
            return arg(0) + "_" + arg(1)
        case "msup":
            return arg(0) + "^" + arg(1)
        case "msubsup":
            return arg(0) + "_" + arg(1) + "^" + arg(2)
        case "munder":
            return arg(0) + "_" + arg(1)
        case "mover":
            return overscript(children)
        case "munderover":
            return arg(0) + "_" + arg(1) + "^" + arg(2)
        case "mfrac":
            return "\\frac" + arg(0) + arg(1)
        case "msqrt":
            return "\\sqrt{" + join(children.map(tex(of:))) + "}"
        case "mroot":
            return "\\sqrt[" + (children.count > 1 ? tex(of: children[1]) : "") + "]" + arg(0)
        case "mfenced":
            let open = node.attribute("open") ?? "("
            let close = node.attribute("close") ?? ")"
            return "\\left" + fence(open) + " " + children.map(tex(of:)).joined(separator: ", ") + " \\right"
                + fence(close)
        case "mtable":
            let rows = children.map { row in
                row.children.filter { !$0.isText }.map { cell in tex(of: cell) }.joined(separator: " & ")
            }
            return "\\begin{matrix} " + rows.joined(separator: " \\\\ ") + " \\end{matrix}"
        default:
            return join(children.map(tex(of:)))
        }
    }

    /// Pieces side by side: a space only where a command name would run into a letter.
    private static func join(_ parts: [String]) -> String {
        var out = ""
        for part in parts where !part.isEmpty {
            if let last = out.last, let first = part.first, last.isLetter, first.isLetter,
                out.contains("\\") || part.count > 1
            {
                out += " "
            }
            out += part
        }
        return out
    }

    /// `tex` as one argument: a single character or a single command as it is, else braced.
    private static func group(_ tex: String) -> String {
        let command = tex.first == "\\" && tex.dropFirst().allSatisfy(\.isLetter)
        return tex.count == 1 || command ? tex : "{" + tex + "}"
    }

    private static func identifier(_ raw: String, variant: String?) -> String {
        let text = raw.trimmingCharacters(in: .whitespaces)
        let spelled =
            text.count == 1
            ? (greek[text] ?? text) : (functions.contains(text) ? "\\" + text : "\\mathrm{" + text + "}")
        switch variant {
        case "bold": return "\\mathbf{" + spelled + "}"
        case "double-struck": return "\\mathbb{" + spelled + "}"
        case "script": return "\\mathcal{" + spelled + "}"
        case "normal" where text.count == 1: return "\\mathrm{" + spelled + "}"
        default: return spelled
        }
    }

    private static func overscript(_ children: [Node]) -> String {
        guard children.count == 2 else { return children.map(tex(of:)).joined() }
        let base = group(tex(of: children[0]))
        switch MathML.innerText(children[1]).trimmingCharacters(in: .whitespaces) {
        case "^", "ˆ": return "\\hat" + base
        case "~", "˜": return "\\tilde" + base
        case "¯", "‾", "_": return "\\bar" + base
        case "→", "⃗": return "\\vec" + base
        case "˙", ".": return "\\dot" + base
        default: return "\\overset" + group(tex(of: children[1])) + base
        }
    }

    private static func fence(_ mark: String) -> String {
        switch mark {
        case "{": return "\\{"
        case "}": return "\\}"
        case "": return "."
        case "‖": return "\\|"
        default: return mark
        }
    }

    private static func symbol(_ text: String) -> String {
        operators[text] ?? greek[text] ?? text
    }

    private static let functions: Set<String> = [
        "sin", "cos", "tan", "log", "ln", "exp", "lim", "max", "min", "sup", "inf", "det", "arg", "deg", "dim", "ker",
        "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "gcd", "Pr",
    ]

    private static let operators: [String: String] = [
        "∑": "\\sum", "∏": "\\prod", "∫": "\\int", "∮": "\\oint", "≠": "\\neq", "≤": "\\leq",
        "≥": "\\geq", "−": "-",
        "×": "\\times", "÷": "\\div", "±": "\\pm", "∓": "\\mp", "⋅": "\\cdot", "·": "\\cdot", "∘": "\\circ",
        "→": "\\to",
        "←": "\\leftarrow", "↔": "\\leftrightarrow", "⇒": "\\Rightarrow", "⇔": "\\Leftrightarrow",
        "∞": "\\infty",
        "∈": "\\in", "∉": "\\notin", "⊂": "\\subset", "⊆": "\\subseteq", "∪": "\\cup", "∩": "\\cap",
        "∀": "\\forall",
        "∃": "\\exists", "∂": "\\partial", "∇": "\\nabla", "≈": "\\approx", "≡": "\\equiv", "∝": "\\propto",
        "∼": "\\sim", "‖": "\\|", "∣": "\\mid", "…": "\\dots", "⋯": "\\cdots", "⁡": "", "⁢": "",
        "⁣": ",", "∗": "*",
        "{": "\\{", "}": "\\}", "⟨": "\\langle", "⟩": "\\rangle", "¬": "\\neg", "∧": "\\wedge", "∨": "\\vee",
    ]

    private static let greek: [String: String] = [
        "α": "\\alpha", "β": "\\beta", "γ": "\\gamma", "δ": "\\delta", "ε": "\\varepsilon", "ϵ": "\\epsilon",
        "ζ": "\\zeta", "η": "\\eta", "θ": "\\theta", "ι": "\\iota", "κ": "\\kappa", "λ": "\\lambda", "μ": "\\mu",
        "ν": "\\nu", "ξ": "\\xi", "π": "\\pi", "ρ": "\\rho", "σ": "\\sigma", "τ": "\\tau", "υ": "\\upsilon",
        "φ": "\\varphi", "ϕ": "\\phi", "χ": "\\chi", "ψ": "\\psi", "ω": "\\omega", "Γ": "\\Gamma",
        "Δ": "\\Delta",
        "Θ": "\\Theta", "Λ": "\\Lambda", "Ξ": "\\Xi", "Π": "\\Pi", "Σ": "\\Sigma", "Φ": "\\Phi", "Ψ": "\\Psi",
        "Ω": "\\Omega",
    ]
}
