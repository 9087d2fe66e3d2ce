// The playground's page: an editor with the CLI's diagnostics as you type,
// the commands' outputs, the tree with clickable boxes, and the stepper.
// Every command is one POST to /api/NAME; the server keeps no state, so the
// stepper sends the whole list of commands given so far each time.
"use strict";

const $ = (id) => document.getElementById(id);
const source = $("source");
const KEYWORDS = new Set(("skip if then else fi while proc class field method return new nil this " +
  "true false assert assume var int bool and or not len break continue for func").split(" "));

let diagnostic = null; // {line, column, message} of the current program, or null
let steps = []; // the stepper's commands so far
let busy = false;

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// Keywords, numbers and comments of one line, coloured.
function colourLine(line) {
  return line.replace(/(\/\/.*$)|([A-Za-z_][A-Za-z0-9_]*)|(\d+)|([^A-Za-z_\d\/]+|\/)/g,
    (all, comment, word, number) => {
      if (comment) return `<span class="com">${escapeHtml(comment)}</span>`;
      if (word) return KEYWORDS.has(word) ? `<span class="kw">${word}</span>` : word;
      if (number) return `<span class="num">${number}</span>`;
      return escapeHtml(all);
    });
}

// The source coloured, with the diagnostic's place marked.
function highlight() {
  const lines = source.value.split("\n");
  const html = lines.map((line, i) => {
    if (!diagnostic || diagnostic.line !== i + 1) return colourLine(line);
    const at = Math.max(0, Math.min(line.length, diagnostic.column - 1));
    const marked = line.slice(at, at + 1) || " ";
    return escapeHtml(line.slice(0, at)) + `<span class="err">${escapeHtml(marked)}</span>` +
      escapeHtml(line.slice(at + 1));
  });
  $("highlight").innerHTML = html.join("\n") + "\n";
  syncScroll();
}

function syncScroll() {
  $("highlight").scrollTop = source.scrollTop;
  $("highlight").scrollLeft = source.scrollLeft;
}

// The options of the controls, as the API names them.
function options() {
  const chosen = {};
  if ($("lang").value) chosen.lang = $("lang").value;
  if ($("method").value) chosen.method = $("method").value;
  if ($("unfold").value !== "") chosen.unfold = Number($("unfold").value);
  if ($("checked").checked) chosen.checked_arrays = true;
  if ($("int").value) chosen.int = $("int").value;
  if ($("break").value) chosen.break = $("break").value;
  return chosen;
}

async function post(command, body) {
  const response = await fetch(`/api/${command}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

function setStatus(text, kind) {
  $("status").textContent = text;
  $("status").className = kind || "";
}

function pre(text) {
  const element = document.createElement("pre");
  element.textContent = text;
  return element;
}

function show(...elements) {
  $("view").replaceChildren(...elements);
  $("details").replaceChildren();
}

// "explore: done (exit 0) in 36 ms", with the job's messages.
function ended(command, answer) {
  const exit = answer.status === null ? "" : ` (exit ${answer.status})`;
  const kind = answer.ended.split(":")[0].split(" ")[0];
  setStatus(`${command}: ${answer.ended}${exit} in ${answer.millis} ms` +
    (answer.stderr ? `\n${answer.stderr}` : ""), kind);
}

async function busyWhile(work) {
  if (busy) return;
  busy = true;
  document.querySelectorAll("button").forEach((b) => (b.disabled = true));
  try {
    await work();
  } catch (error) {
    setStatus(String(error.message || error), "error");
  } finally {
    busy = false;
    document.querySelectorAll("button").forEach((b) => (b.disabled = false));
  }
}

// The inputs field: NAME=VALUE entries separated by commas outside brackets.
function inputList() {
  const text = $("inputs").value;
  const parts = [];
  let depth = 0, current = "";
  for (const c of text) {
    if ("[{".includes(c)) depth++;
    if ("]}".includes(c)) depth--;
    if ((c === "," || c === "\n") && depth === 0) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p);
}

// A model's value as `--input` reads it, or null when it is not one (a heap object).
function inputValue(value) {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string" && /^-?\d+$/.test(value)) return value;
  if (value && typeof value === "object" && "len" in value && "entries" in value) {
    const len = Number(value.len);
    if (!(len >= 0 && len <= 1000)) return null;
    const cells = [];
    for (let i = 0; i < len; i++) cells.push(String(i in value.entries ? value.entries[i] : value.default));
    return `[${cells.join(", ")}]`;
  }
  return null;
}

// Whether `model` is an oo program's: the document `run --heap` reads.
function isHeap(model) {
  return model && typeof model === "object" && "objects" in model && "vars" in model;
}

// One value of a model as the CLI prints it: nil, o1, [1, 2], 3.
function valueText(value) {
  if (value === null) return "nil";
  if (typeof value === "object") {
    if ("len" in value && "entries" in value) {
      const list = inputValue(value);
      if (list !== null) return list;
      const entries = Object.entries(value.entries).map(([i, v]) => `${i}: ${v}`);
      return `{${[...entries, `default: ${value.default}`, `len: ${value.len}`].join("; ")}}`;
    }
    if (Array.isArray(value)) return `[${value.map(valueText).join(", ")}]`;
  }
  return String(value);
}

// A model readably, as the CLI prints it: `{x ↦ 0, y ↦ 1}`, and for an oo
// program `{l ↦ o1}, {o1: Node{next ↦ nil, val ↦ 2}}`.
function modelText(model) {
  const bindings = (map) => Object.entries(map || {}).map(([x, v]) => `${x} ↦ ${valueText(v)}`).join(", ");
  if (!isHeap(model)) return `{${bindings(model)}}`;
  const objects = Object.entries(model.objects).map(([id, object]) => {
    const { class: name, ...fields } = object;
    return `${id}: ${name}{${bindings(fields)}}`;
  });
  return `{${bindings(model.vars)}}, {${objects.join(", ")}}`;
}

// A button that runs the program on `model`: its inputs, or its heap for an oo program.
function replayButton(model, label) {
  const button = document.createElement("button");
  button.textContent = label;
  button.id = "replay";
  if (isHeap(model)) {
    button.onclick = () => {
      $("inputs").value = "";
      $("heap").value = JSON.stringify(model, null, 1);
      $("heap-form").open = true;
      command("run");
    };
    return button;
  }
  const entries = Object.entries(model || {}).map(([name, value]) => [name, inputValue(value)]);
  if (entries.some(([, value]) => value === null)) return document.createTextNode("");
  button.onclick = () => {
    $("inputs").value = entries.map(([name, value]) => `${name}=${value}`).join(", ");
    $("heap").value = "";
    command("run");
  };
  return button;
}

async function command(name) {
  await busyWhile(async () => {
    const body = { source: source.value, ...options() };
    setStatus(`${name}: running…`);
    if (name === "run") {
      body.inputs = inputList();
      if ($("heap").value.trim()) body.heap = heapDocument();
      if ($("trace").checked) body.trace = true;
      delete body.method; delete body.unfold; delete body.break;
    }
    if (name === "compare") delete body.method;
    if (name === "explore") return explore(body);
    if (name === "compare") return compare(body);
    const answer = await post(name, body);
    ended(name, answer);
    show(pre(answer.stdout));
    if (name === "verify") await counterexample(body);
  });
}

// The heap field's JSON, or an error that says where it is not JSON.
function heapDocument() {
  try {
    return JSON.parse($("heap").value);
  } catch (error) {
    throw new Error(`the heap is not JSON: ${error.message}`);
  }
}

// verify's counterexample as a replay button (the JSON report has its inputs).
async function counterexample(body) {
  const answer = await post("verify", { ...body, format: "json" });
  const report = JSON.parse(answer.stdout || "null");
  if (report && report.counterexample) {
    const model = report.counterexample.inputs;
    $("details").replaceChildren(pre(`counterexample: ${modelText(model)}`),
      replayButton(model, "Replay the counterexample"));
  }
}

async function explore(body) {
  const [picture, report] = await Promise.all([
    post("explore", { ...body, format: "svg" }),
    post("explore", { ...body, format: "json" }),
  ]);
  ended("explore", picture);
  if (!picture.stdout.startsWith("<svg")) return show(pre(picture.stdout));
  $("view").innerHTML = picture.stdout;
  // The title names the program as the command saw it: `-`, standard input.
  const title = $("view").querySelector("svg > text");
  if (title) title.textContent = title.textContent.replace(/^- — /, "");
  $("details").replaceChildren();
  const paths = (JSON.parse(report.stdout || "{}").paths) || [];
  const svg = $("view").querySelector("svg");
  const branches = treeBranches(svg);
  svg.querySelectorAll("g").forEach((box) => {
    box.addEventListener("click", () => choose(box, paths, branches, body));
  });
}

// The stepper's branch for an edge's label: the test's outcome, or whether
// the expression is defined (δ) or not (¬δ).
const BRANCH = { true: "true", false: "false", "δ": "true", "¬δ": "error" };

// The branches from the root to each box of the drawn tree: each line goes
// from its parent's bottom middle to its child's top middle (report/svg.rs),
// with the edge's label just after it.
function treeBranches(svg) {
  const boxes = [...svg.querySelectorAll("g")];
  const place = (box) => {
    const rect = box.querySelector("rect");
    const x = Number(rect.getAttribute("x")) + Number(rect.getAttribute("width")) / 2;
    const y = Number(rect.getAttribute("y"));
    return { x, top: y, bottom: y + Number(rect.getAttribute("height")) };
  };
  const near = (a, b) => Math.abs(a - b) < 0.2;
  const parent = new Map();
  for (const line of svg.querySelectorAll("line")) {
    const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((a) => Number(line.getAttribute(a)));
    const child = boxes.find((b) => near(place(b).x, x2) && near(place(b).top, y2));
    const above = boxes.find((b) => near(place(b).x, x1) && near(place(b).bottom, y1));
    const label = line.nextElementSibling;
    const edge = label && label.tagName === "text" && label.getAttribute("font-style") === "italic"
      ? label.textContent : null;
    if (child && above) parent.set(child, { box: above, branch: BRANCH[edge] || null });
  }
  const branches = new Map();
  for (const box of boxes) {
    const walk = [];
    for (let at = box; parent.has(at); at = parent.get(at).box) walk.unshift(parent.get(at).branch);
    branches.set(box, walk.includes(null) ? null : walk);
  }
  return branches;
}

// The stepper walked along `branches` (from the start to the first fork,
// then one branch at each), and what `show` says where it stops.
async function walkTo(branches, body) {
  const commands = ["go", ...branches.map((b) => `go ${b}`), "show"];
  const answer = await post("step", { source: body.source, ...stepOptions(), ...(body.method ? { method: body.method } : {}), commands });
  const out = answer.stdout;
  const at = out.lastIndexOf("› show\n");
  return at < 0 ? out : out.slice(at + "› show\n".length);
}

// A box of the tree: its configuration, and for a path's leaf its model and trace.
async function choose(box, paths, branches, body) {
  $("view").querySelectorAll("g.chosen").forEach((g) => g.classList.remove("chosen"));
  box.classList.add("chosen");
  const texts = [...box.querySelectorAll("text")].map((t) => t.textContent);
  const title = box.querySelector("title");
  const heading = document.createElement("h2");
  heading.textContent = texts.join("  ");
  const parts = [heading, pre(title ? title.textContent : texts.join("\n"))];
  const leaf = /^path (\d+):/.exec(texts[0] || "");
  const path = leaf && paths.find((p) => p.id === Number(leaf[1]));
  if (path) {
    const lines = [`status: ${path.status}${path.reason ? ` (${path.reason})` : ""}${path.error ? ` (${path.error})` : ""}`,
      `φ = ${path.path_condition}`,
      `σ = {${Object.entries(path.state || {}).map(([k, v]) => `${k} ↦ ${v}`).join(", ")}}`,
      `model: ${modelText(path.model)}`,
      `path: ${(path.trace || []).join("; ")}`];
    parts.push(pre(lines.join("\n")), replayButton(path.model, "Run this model"));
  }
  $("details").replaceChildren(...parts);
  const walk = branches.get(box);
  if (path || !walk) return;
  const configuration = pre("configuration: walking the stepper to this fork…");
  configuration.id = "configuration";
  $("details").append(configuration);
  await busyWhile(async () => {
    configuration.textContent = `configuration (step: go${walk.map((b) => `; go ${b}`).join("")}; show)\n` +
      await walkTo(walk, body);
  });
}

// compare: each path in a list; the chosen one with forward and wp side by
// side, each as the stepper shows the configuration at its end.
async function compare(body) {
  const answer = await post("compare", { ...body, format: "json" });
  ended("compare", answer);
  const report = JSON.parse(answer.stdout || "null");
  const comparison = report && report.comparisons && report.comparisons[0];
  if (!comparison) return show(pre(answer.stdout));
  const list = document.createElement("select");
  list.id = "compare-path";
  comparison.paths.forEach((p, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = `${p.key} — ${p.agreement.verdict}`;
    list.append(option);
  });
  const sides = document.createElement("div");
  sides.className = "columns";
  sides.id = "compare";
  const label = document.createElement("label");
  label.append("path (its choices: T true, F false, ! error) ", list);
  show(label, sides);
  const showPath = async () => {
    const chosen = comparison.paths[Number(list.value)];
    const branches = [...chosen.key.split(" ")[0]].map((c) => CHOICE[c]);
    const columns = await Promise.all(["forward", "wp"].map(async (method) => {
      const side = chosen[method] || {};
      const figures = side.raw
        ? `DAG ${side.raw.dag}→${side.simplified.dag}, ${side.raw.printed} chars, built in ${side.build_ms.toFixed(1)} ms, Z3 ${side.decide_ms.toFixed(1)} ms: ${side.answer}`
        : "unavailable";
      const walked = await walkTo(branches, { source: body.source, method });
      const column = document.createElement("div");
      const heading = document.createElement("h2");
      heading.textContent = method;
      column.append(heading, pre(`${figures}\n\n${walked}`));
      return column;
    }));
    sides.replaceChildren(...columns);
    $("details").replaceChildren(pre(`${chosen.status}: ${chosen.agreement.verdict}`));
  };
  list.addEventListener("change", () => busyWhile(showPath));
  await showPath();
}

// The stepper's branch for a letter of compare's choices: a test's sides,
// an error, carrying on past a possible error.
const CHOICE = { T: "true", F: "false", "!": "error", ".": "true" };

async function step(text) {
  await busyWhile(async () => {
    if (text === null) steps = [];
    else steps.push(text);
    setStatus("step: running…");
    const answer = await post("step", { source: source.value, ...stepOptions(), commands: [...steps, "tree"] });
    ended("step", answer);
    if (answer.status !== 0 && steps.length) steps.pop();
    const output = answer.stdout;
    const cut = output.lastIndexOf("› tree\n");
    const walk = cut < 0 ? output : output.slice(0, cut);
    const tree = cut < 0 ? "" : output.slice(cut + "› tree\n".length);
    const left = document.createElement("div");
    const right = document.createElement("div");
    left.append(pre(walk));
    right.append(pre(`walked tree\n${tree}`));
    const columns = document.createElement("div");
    columns.className = "columns";
    columns.id = "walk";
    columns.append(left, right);
    show(columns);
    $("view").scrollTop = $("view").scrollHeight;
  });
}

function stepOptions() {
  const chosen = options();
  delete chosen.unfold;
  return chosen;
}


let diagnoseTimer = null;
function diagnoseSoon() {
  clearTimeout(diagnoseTimer);
  diagnoseTimer = setTimeout(diagnose, 300);
}

async function diagnose() {
  const text = source.value;
  try {
    const answer = await post("diagnose", { source: text, ...($("int").value ? { int: $("int").value } : {}) });
    if (text !== source.value) return; // typed on meanwhile
    diagnostic = (answer.diagnostics || [])[0] || null;
    const shown = $("diagnostics");
    shown.className = diagnostic ? "bad" : "";
    shown.textContent = diagnostic
      ? `line ${diagnostic.line}, column ${diagnostic.column}: ${diagnostic.message}`
      : answer.status === 0 ? "✓ parses" : answer.stderr.trim();
  } catch (error) {
    diagnostic = null;
    $("diagnostics").textContent = String(error.message || error);
  }
  highlight();
}

// The program (and options) in the address: `#source=…&unfold=3`.
function share() {
  const fields = new URLSearchParams({ source: source.value });
  for (const [key, value] of Object.entries(options())) fields.set(key, String(value));
  location.hash = fields.toString();
  $("shared").textContent = "the address now holds the program";
}

function loadShared() {
  const fields = new URLSearchParams(location.hash.slice(1));
  if (!fields.has("source")) return false;
  setSource(fields.get("source"));
  for (const [key, id] of [["lang", "lang"], ["method", "method"], ["unfold", "unfold"], ["int", "int"], ["break", "break"]]) {
    if (fields.has(key)) $(id).value = fields.get(key);
  }
  $("checked").checked = fields.get("checked_arrays") === "true";
  return true;
}

function setSource(text) {
  source.value = text;
  steps = [];
  diagnostic = null;
  highlight();
  diagnose();
}

async function loadExamples() {
  const examples = await (await fetch("/examples.json")).json();
  const groups = new Map();
  for (const example of examples) {
    const group = example.path.split("/").slice(0, 2).join("/");
    if (!groups.has(group)) {
      const optgroup = document.createElement("optgroup");
      optgroup.label = group;
      groups.set(group, optgroup);
      $("examples").append(optgroup);
    }
    const option = document.createElement("option");
    option.value = example.path;
    option.textContent = example.path.split("/").pop();
    option.dataset.source = example.source;
    groups.get(group).append(option);
  }
}

function chooseExample() {
  const option = $("examples").selectedOptions[0];
  if (!option || !option.dataset.source) return;
  const text = option.dataset.source;
  const unfold = /^\/\/ snap:.*--unfold (\d+)/m.exec(text);
  $("unfold").value = unfold ? unfold[1] : "";
  $("checked").checked = /^\/\/ snap:.*--checked-arrays/m.test(text);
  const int = /^\/\/ snap:.*--int (i32|i64)/m.exec(text);
  $("int").value = int ? int[1] : "";
  setSource(text);
}

source.addEventListener("input", () => { steps = []; highlight(); diagnoseSoon(); });
source.addEventListener("scroll", syncScroll);
$("examples").addEventListener("change", chooseExample);
// What `int` means decides which literals are in range: check again.
$("int").addEventListener("change", diagnose);
$("share").addEventListener("click", share);
document.querySelectorAll("[data-command]").forEach((b) =>
  b.addEventListener("click", () => command(b.dataset.command)));
document.querySelectorAll("[data-step]").forEach((b) =>
  b.addEventListener("click", () => {
    const word = b.dataset.step;
    if (word === "") return step(null);
    if (word === "restore") return step(`restore ${Number($("restore").value) || 1}`);
    if (word === "assume") return step(`assume ${$("assume").value}`);
    return step(word);
  }));
window.addEventListener("hashchange", loadShared);
loadExamples();
if (!loadShared()) highlight();
