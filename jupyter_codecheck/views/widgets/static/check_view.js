// Front end of jupyter_codecheck.widgets.CheckView (anywidget; no imports, no network).
// State arrives through synced traits; the only messages sent back are {event: "cancel"} and
// {event: "applied", ok, how, message}. HTML fragments (diff, histogram, legend) are rendered and
// escaped in Python, so the two views (static and live) agree.

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function fmtProb(p) {
  if (p === null || p === undefined) return "-";
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(1);
}

function shown(text) {
  return JSON.stringify(text);
}

// "error" (Python's own checks) or "warning" (an edit the model verified); a finding of an older
// version names none: a warning
function severity(f) {
  return f.severity === "error" ? "error" : "warning";
}

// "1 error, 2 warnings", and the worst severity ("" without findings)
function severitySummary(findings) {
  const errors = findings.filter((f) => severity(f) === "error").length;
  const warnings = findings.length - errors;
  const parts = [];
  if (errors) parts.push(`${errors} error${errors === 1 ? "" : "s"}`);
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  return { text: parts.join(", "), worst: errors ? "error" : warnings ? "warning" : "" };
}

// -- the heat map ------------------------------------------------------------------------------

const PENDING_LINES = 40;

function renderTokens(model, box, details, pinned) {
  const tokens = model.get("tokens");
  const source = model.get("source");
  const frag = document.createDocumentFragment();
  let lastEnd = 0;
  for (const tok of tokens) {
    const span = h("span", {
      class: `cc-tok cc-${tok.decision}`,
      "data-i": String(tok.index),
    });
    span.style.background = tok.color;
    span.style.color = tok.ink;
    const nl = tok.text.indexOf("\n");
    if (nl >= 0) {
      span.append(tok.text.slice(0, nl), h("span", { class: "cc-nl" }, "\u21b5"), tok.text.slice(nl));
    } else {
      span.textContent = tok.text;
    }
    if (pinned.index === tok.index) span.classList.add("cc-pinned");
    frag.append(span);
    lastEnd = Math.max(lastEnd, tok.end);
  }
  // what is not decided yet, greyed (byte offsets: cut the UTF-8 bytes, not the JS string); of
  // a long cell only the next lines, so that the view stays small
  const bytes = new TextEncoder().encode(source);
  if (lastEnd < bytes.length) {
    const rest = new TextDecoder().decode(bytes.slice(lastEnd)).split("\n");
    const more = rest.length - PENDING_LINES;
    const text = more > 0 ? `${rest.slice(0, PENDING_LINES).join("\n")}\n\u2026 ${more} more lines` : rest.join("\n");
    frag.append(h("span", { class: "cc-pending" }, text));
  }
  box.replaceChildren(frag);
  if (pinned.index !== null) showDetails(model, details, pinned.index);
}

function showDetails(model, details, index) {
  const tok = model.get("tokens").find((t) => t.index === index);
  if (!tok) {
    details.replaceChildren(h("span", { class: "cc-hint" }, "hover or click a token for details"));
    return;
  }
  const nLayer = model.get("n_layer");
  const head = h("div", {},
    h("b", {}, shown(tok.text)),
    `  line ${tok.line}, col ${tok.column + 1}  `,
    h("span", { class: `cc-badge cc-${tok.decision}` }, tok.decision));
  const lines = [head];
  if (tok.prob === null) {
    lines.push(h("div", {}, "not scored (deleted, resynchronised or masked)"));
  } else {
    const layer = tok.exit_layer === null ? "-"
      : tok.exit_layer === nLayer - 1 ? `${tok.exit_layer} (the last)`
      : `${tok.exit_layer} of ${nLayer ? nLayer - 1 : "?"}`;
    lines.push(h("div", {}, `p = ${fmtProb(tok.prob)} \u00b7 rank ${tok.rank} \u00b7 exit layer ${layer}`));
  }
  if (tok.alternatives.length) {
    const alts = h("div", {}, "top-5: ");
    tok.alternatives.forEach((a, k) => {
      alts.append(h("code", {}, shown(a.text)), ` ${fmtProb(a.prob)}${k + 1 < tok.alternatives.length ? ", " : ""}`);
    });
    lines.push(alts);
  }
  details.replaceChildren(...lines);
}

// -- Apply fix ---------------------------------------------------------------------------------

// The CodeMirror 6 EditorView behind a `.cm-content` element (what EditorView.findFromDOM does).
function editorViewOf(content) {
  const cv = content && content.cmView;
  if (!cv) return null;
  return (cv.root && cv.root.view) || (cv.rootView && cv.rootView.view) || cv.view || null;
}

function cellEditorFor(el) {
  const cell = el.closest(".jp-Cell, .jp-CodeCell");
  if (!cell) return null;
  const content = cell.querySelector(".jp-InputArea .cm-content, .jp-Cell-inputWrapper .cm-content");
  const view = editorViewOf(content);
  return view && view.state && view.dispatch ? view : null;
}

function holds(view, source) {
  const text = view.state.doc.toString();
  return text.indexOf(source) >= 0 || (source.endsWith("\n") && text.indexOf(source.slice(0, -1)) >= 0);
}

// A repair in an earlier cell (a failed cell's repair, `repair.cells_before` > 0): the editor of
// the nearest cell above this output's cell that holds that cell's text (run order need not be
// the notebook's order: then any other cell that holds it).
function earlierEditorFor(model, el) {
  const here = el.closest(".jp-Cell");
  const notebook = here && here.closest(".jp-Notebook");
  if (!notebook) return null;
  const cells = Array.from(notebook.querySelectorAll(".jp-CodeCell"));
  const at = cells.indexOf(here);
  const order = [...cells.slice(0, Math.max(at, 0)).reverse(), ...cells.slice(at + 1)];
  for (const cell of order) {
    const view = editorViewOf(cell.querySelector(".jp-InputArea .cm-content, .jp-Cell-inputWrapper .cm-content"));
    if (view && view.state && view.dispatch && holds(view, model.get("source"))) return view;
  }
  return null;
}

// Replace the checked text (the cell body; a `%%codecheck` line above it stays) with the
// corrected text as one editor transaction, so the editor's undo brings the original back.
function applyFix(model, el) {
  const source = model.get("source");
  const corrected = model.get("corrected");
  const repair = model.get("repair");
  const earlier = repair && repair.cells_before > 0;
  const view = earlier ? earlierEditorFor(model, el) : cellEditorFor(el);
  if (!view && earlier) {
    return { ok: false, how: "no-earlier-cell", message: `No cell of this notebook holds the code of ${repair.target} (was it edited or deleted?).` };
  }
  if (!view) return { ok: false, how: "no-editor", message: "No notebook cell editor holds this output." };
  const text = view.state.doc.toString();
  // IPython hands a cell magic its body with a final newline the editor may not have
  let checked = source;
  if (source.endsWith("\n") && text.indexOf(checked) < 0) checked = source.slice(0, -1);
  const from = checked ? text.indexOf(checked) : -1;
  if (from < 0) {
    return { ok: false, how: "changed", message: "The cell no longer contains the checked code (was it edited?)." };
  }
  if (text.lastIndexOf(checked) !== from) {
    return { ok: false, how: "ambiguous", message: "The checked code occurs more than once in the cell." };
  }
  let insert = corrected;
  if (checked !== source && insert.endsWith("\n")) insert = insert.slice(0, -1);
  view.dispatch({ changes: { from, to: from + checked.length, insert }, userEvent: "input.codecheck" });
  view.focus();
  if (earlier) {
    return { ok: true, how: "earlier-cell",
      message: `Fix applied to ${repair.target}: run it again, then this cell. Undo (Ctrl+Z in that cell) restores the original.` };
  }
  return { ok: true, how: "editor", message: "Fix applied to the cell. Undo (Ctrl+Z) restores the original." };
}

// -- Cancel ------------------------------------------------------------------------------------

// The kernel behind the widget (JupyterLab's and Notebook 7's widget manager hold it).
function interruptKernel(model) {
  const kernel = model.widget_manager && model.widget_manager.kernel;
  if (kernel && typeof kernel.interrupt === "function") void kernel.interrupt();
}

// -- the widget --------------------------------------------------------------------------------

function render({ model, el }) {
  const root = h("div", { class: "cc-view" });
  const title = h("span", { class: "cc-title" });
  const status = h("span", { class: "cc-status" });
  const cancel = h("button", { class: "cc-cancel jupyter-button", type: "button" }, "Cancel");
  const header = h("div", { class: "cc-header" }, title, status, cancel);

  const heat = h("div", { class: "cc-heat" });
  const details = h("div", { class: "cc-details" });
  const legend = h("div", { class: "cc-legend-box" });

  const apply = h("button", { class: "cc-apply jupyter-button mod-primary", type: "button" }, "Apply fix");
  const applyMsg = h("span", { class: "cc-apply-msg" });
  const fallback = h("div", { class: "cc-fallback" });
  const diff = h("div", { class: "cc-diff-box" });
  const diffSection = h("div", { class: "cc-section cc-diff-section" },
    h("div", { class: "cc-h" }, "Diff ", apply, applyMsg), diff, fallback);

  const hist = h("div", { class: "cc-hist-box" });
  const depth = h("div", { class: "cc-depth" });
  const stats = h("div", { class: "cc-stats" });
  const heatSection = h("div", { class: "cc-section cc-heat-section" },
    h("div", { class: "cc-h" }, "Probability heat map", legend), heat, details);
  const exitSection = h("div", { class: "cc-section cc-exit-section" },
    h("div", { class: "cc-h" }, "Early exit"), hist, depth);

  root.append(header, diffSection, heatSection, exitSection, stats);
  el.append(root);

  const pinned = { index: null };
  let hovered = null;

  function statusText() {
    const s = model.get("status");
    const repair = model.get("repair");
    if (repair && repair.cause) return repair.cause;
    const n = model.get("tokens").length;
    const piece = model.get("piece");
    if (s === "running") return `checking\u2026 ${n} tokens decided${piece ? ` (${piece})` : ""}`;
    if (s === "cancelling") return `cancelling\u2026 ${n} tokens decided`;
    if (s === "cancelled") return `cancelled after ${n} tokens (partial result)`;
    if (s === "error") return `error: ${model.get("message")}`;
    if (s === "done") {
      const findings = model.get("findings");
      const k = findings.length;
      return k ? `${k} finding${k === 1 ? "" : "s"}: ${severitySummary(findings).text}` : "no findings";
    }
    return "ready";
  }

  function update() {
    const s = model.get("status");
    root.dataset.status = s;
    // the status line's colour: red with an error, amber with warnings only, plain when clean
    root.dataset.severity = s === "done" ? severitySummary(model.get("findings")).worst || "clean" : "";
    title.textContent = model.get("title") ? `codecheck \u2014 ${model.get("title")}` : "codecheck";
    status.textContent = statusText();
    // hidden, not removed: an output that changes height while streaming makes the notebook jump
    cancel.style.visibility = s === "running" || s === "cancelling" ? "visible" : "hidden";
    cancel.disabled = s !== "running";
    const fixable = (s === "done" || s === "cancelled") && model.get("corrected") !== model.get("source")
      && model.get("edits").length > 0;
    apply.style.visibility = fixable ? "visible" : "hidden";
    diff.innerHTML = model.get("diff_html") ||
      `<div class="cc-hint">${s === "running" ? "edits appear here as they are decided" : "no change proposed"}</div>`;
    // (diff_html lists every finding, with its severity, whether or not it has a fix)
    // a failed check shows its message only (a refused 3,000-line cell is not drawn)
    const failed = s === "error";
    for (const part of [diffSection, heatSection, exitSection, stats]) part.hidden = failed;
    // a failed cell's repair: the cause, where the repair is and its diff; no tokens were scored
    const repair = model.get("repair");
    if (repair && repair.cause) {
      root.dataset.severity = "error";
      for (const part of [heatSection, exitSection, stats]) part.hidden = true;
    } else if (!failed) {
      renderTokens(model, heat, details, pinned);
      if (pinned.index === null && hovered === null) showDetails(model, details, null);
    }
    legend.innerHTML = model.get("legend_svg");
    // one bar at the last layer tells nothing: the words below say what the exit test saved
    hist.innerHTML = model.get("histogram_svg");
    hist.hidden = !model.get("histogram_svg");
    depth.textContent = model.get("depth_text");
    stats.textContent = model.get("stats_text");
  }

  function tokenIndex(event) {
    const span = event.target.closest(".cc-tok");
    return span && heat.contains(span) ? Number(span.dataset.i) : null;
  }
  heat.addEventListener("mouseover", (event) => {
    const i = tokenIndex(event);
    if (i === null || pinned.index !== null) return;
    hovered = i;
    showDetails(model, details, i);
  });
  heat.addEventListener("mouseleave", () => {
    hovered = null;
    if (pinned.index === null) showDetails(model, details, null);
  });
  heat.addEventListener("click", (event) => {
    const i = tokenIndex(event);
    pinned.index = i === null || i === pinned.index ? null : i;
    renderTokens(model, heat, details, pinned);
    showDetails(model, details, pinned.index ?? hovered);
  });

  cancel.addEventListener("click", () => {
    cancel.disabled = true;
    status.textContent = "cancelling\u2026";
    model.send({ event: "cancel" });
    // a cell waiting for its check reads that message only once it ends: interrupt the kernel,
    // which the waiting cell turns into a cancel
    if (model.get("waiting") && model.get("status") === "running") interruptKernel(model);
  });

  apply.addEventListener("click", () => {
    let outcome;
    try {
      outcome = applyFix(model, el);
    } catch (err) {
      outcome = { ok: false, how: "error", message: `Could not edit the cell: ${err}` };
    }
    applyMsg.textContent = outcome.message;
    applyMsg.dataset.ok = String(outcome.ok);
    if (outcome.ok) {
      apply.disabled = true;
      fallback.replaceChildren();
    } else {
      // the user's code is untouched; offer the corrected code to copy by hand
      const pre = h("pre", { class: "cc-corrected" });
      pre.textContent = model.get("corrected");
      fallback.replaceChildren(h("div", { class: "cc-hint" }, "Corrected code (select and copy):"), pre);
    }
    model.send({ event: "applied", ...outcome });
  });

  const names = ["status", "message", "piece", "tokens", "edits", "findings", "corrected", "diff_html",
    "histogram_svg", "depth_text", "stats_text", "title", "source", "n_layer", "legend_svg", "repair"];
  for (const name of names) model.on(`change:${name}`, update);
  update();
  return () => {
    for (const name of names) model.off(`change:${name}`, update);
  };
}

export default { render };
