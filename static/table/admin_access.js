// Every admin page (templates/admin/base_site.html): what Django's admin widgets leave out for
// assistive technology (issue 28, tests/browser/test_axe.py).

// A date-and-time field is two inputs under one label (for the first only): each is named,
// "Last login: date" and "Last login: time".
document.addEventListener("DOMContentLoaded", () => {
  for (const row of document.querySelectorAll("p.datetime")) {
    const inputs = row.querySelectorAll("input");
    const field = row.closest(".form-row, .fieldBox, div")?.querySelector("label")?.textContent.replace(/:\s*$/, "").trim() || "";
    inputs.forEach((input, i) => {
      if (input.labels?.length && i === 0) return;
      if (!input.hasAttribute("aria-label")) input.setAttribute("aria-label", `${field}: ${i === 0 ? "date" : "time"}`);
    });
  }
});

// Django's two-list selector (SelectFilter2, built at "load") names its search icons with
// aria-label on a bare span, which assistive technology ignores: as images they are read.
window.addEventListener("load", () => {
  setTimeout(() => {
    for (const icon of document.querySelectorAll("span.help-tooltip[aria-label]:not([role])")) {
      icon.setAttribute("role", "img");
    }
  }, 0);
});
