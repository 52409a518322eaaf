// The Rules Submission form: the house edge of the choices being edited, before they are
// saved. Every figure is looked up in the exact figures of every option, fetched once from
// the admin's paytable-figures.json (the game's paytable report, computed by exhaustive
// enumeration); nothing is computed here, and no inline script is needed.
"use strict";

(function () {
  function pct(x) {
    return typeof x === "number" ? (x * 100).toFixed(4) + "%" : "—";
  }

  function cell(text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  async function start() {
    const panel = document.getElementById("math-preview");
    const rows = document.getElementById("math-preview-rows");
    if (!panel || !rows || !panel.dataset.figures) return;
    const answer = await fetch(panel.dataset.figures, { credentials: "same-origin" });
    if (!answer.ok) return;
    const figures = await answer.json();
    const jurisdiction = document.getElementById("id_jurisdiction");

    // The saved values' own warnings (the template's): the preview says the same once.
    const saved = Array.from(document.querySelectorAll(".saved-warning"));

    function update() {
      const flagged = new Set();
      const where = jurisdiction ? figures.jurisdictions[jurisdiction.value] : null;
      const out = [];
      for (const wager of figures.wagers) {
        const select = document.getElementById("id_" + wager.field);
        if (!select) continue;
        const offered = wager.offered ? document.getElementById("id_" + wager.offered) : null;
        const tr = document.createElement("tr");
        tr.dataset.wager = wager.kind;
        const name = select.value;
        const notes = [];
        let edge = "not offered";
        let other = "";
        if (!offered || offered.checked) {
          const f = wager.tables[name];
          if (f) {
            edge = pct(f.house_edge) + (wager.kind === "bad_beat" ? " of the Ante" : "");
            other =
              wager.kind === "bad_beat"
                ? "element of risk " + pct(f.element_of_risk)
                : "hit frequency " + pct(f.hit_frequency);
            if (f.flag) {
              notes.push("⚠ " + f.flag);
              flagged.add(wager.kind + "/" + name);
            }
          } else {
            edge = "—";
          }
          const allowed = where ? where.tables[wager.field] : null;
          if (allowed && !allowed.includes(name)) {
            notes.push(
              allowed.length
                ? "⚠ not one of the tables of " + where.name + ": " + allowed.join(", ")
                : "⚠ " + where.name + ": no " + wager.title + " wager"
            );
          }
        }
        tr.append(
          cell(wager.title),
          cell(name),
          cell(edge, "edge"),
          cell(other),
          cell(notes.join(" "), notes.length ? "errornote" : "")
        );
        out.push(tr);
      }
      rows.replaceChildren(...out);
      panel.hidden = false;
      // A warning the preview shows for the table on the form is not repeated under the
      // saved values (it was shown twice for a saved Four Card Bonus A).
      for (const p of saved) {
        p.hidden = flagged.has(p.dataset.wager + "/" + p.dataset.table);
      }
    }

    const form = panel.closest("form") || document;
    form.addEventListener("change", update);
    form.addEventListener("input", update);
    update();
  }

  // On the add page the game decides which choices the form has: choosing another game
  // reloads the page with that game's (the server builds them from its rules fields).
  function followGame() {
    const select = document.getElementById("id_game");
    if (!select || select.tagName !== "SELECT") return;
    select.addEventListener("change", () => {
      const url = new URL(window.location.href);
      url.searchParams.set("game", select.value);
      window.location.assign(url.toString());
    });
  }

  function ready() {
    followGame();
    start();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
