// The back office's charts (templates/admin/table/backoffice/charts.html): each chart's data
// comes as JSON in #bo-charts (no inline script: the CSP allows scripts from 'self' only) and is
// drawn with uPlot (static/backoffice/uplot, MIT). The tables under each chart hold the same
// figures for reading, printing and CSV.
(function () {
  "use strict";
  const STYLE = {
    actual: { stroke: "#0b5394", width: 2 },
    theory: { stroke: "#b45f06", width: 2, dash: [8, 5] },
    band: { stroke: "#6aa84f", width: 1, dash: [2, 4] },
  };
  // Several series of one style (a meter each) get a colour each, told apart by name too.
  const PALETTE = ["#0b5394", "#a61c00", "#38761d", "#741b47", "#b45f06", "#134f5c", "#7f6000"];
  function fmt(unit, v) {
    if (v == null) return "—";
    if (unit === "percent") return (v * 100).toFixed(2) + "%";
    return "$" + (v / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  function draw(el, spec) {
    const xs = spec.labels.map((_, i) => i);
    const data = [xs, ...spec.series.map((s) => s.values)];
    const width = Math.max(240, Math.min(el.parentElement.clientWidth || 640, 1300));
    const opts = {
      width: width,
      height: 260,
      scales: { x: { time: false } },
      axes: [
        {
          values: (u, splits) => splits.map((i) => (Number.isInteger(i) && spec.labels[i] !== undefined ? spec.labels[i] : "")),
          space: 90,
        },
        { values: (u, splits) => splits.map((v) => fmt(spec.unit, v)), size: spec.unit === "dollars" ? 100 : 80 },
      ],
      series: [
        { label: "", value: (u, i) => (i == null ? "" : spec.labels[i]) },
        ...spec.series.map((s, i) => {
          const style = Object.assign({}, STYLE[s.style] || STYLE.actual);
          if (s.style === "actual" && spec.series.filter((x) => x.style === "actual").length > 1) {
            style.stroke = PALETTE[i % PALETTE.length];
          }
          return Object.assign({ label: s.label, spanGaps: false, points: { show: xs.length < 60 }, value: (u, v) => fmt(spec.unit, v) }, style);
        }),
      ],
    };
    // eslint-disable-next-line no-undef
    return new uPlot(opts, data, el);
  }
  function start() {
    const source = document.getElementById("bo-charts");
    if (!source || typeof uPlot === "undefined") return;
    const specs = JSON.parse(source.textContent);
    document.querySelectorAll("[data-chart]").forEach((el) => {
      const spec = specs[Number(el.dataset.chart)];
      if (spec && spec.labels.length) draw(el, spec);
    });
  }
  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest("[data-print]")) window.print();
  });
  // A report wider than the screen scrolls inside its own box (backoffice.css, a phone): such
  // a box takes the keyboard's focus, so it can be scrolled without a mouse (WCAG 2.1.1);
  // one that fits is no tab stop.
  function scrollable() {
    document.querySelectorAll(".bo-table").forEach((el) => {
      if (el.scrollWidth > el.clientWidth + 1) {
        el.setAttribute("tabindex", "0");
      } else {
        el.removeAttribute("tabindex");
      }
    });
  }
  function ready() {
    start();
    scrollable();
    window.addEventListener("resize", scrollable);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
