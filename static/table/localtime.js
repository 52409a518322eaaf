// Recall pages: every <time data-local> in the reader's own time zone, named, as the table
// log shows it (the server writes them in its zone; this rewrites them where they are read).

const pad = (n) => String(n).padStart(2, "0");

function zoneName(date) {
  const part = new Intl.DateTimeFormat([], { timeZoneName: "short" })
    .formatToParts(date)
    .find((p) => p.type === "timeZoneName");
  return part ? part.value : "";
}

export function localText(date, withDate) {
  const time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${withDate ? `${day} ` : ""}${time} ${zoneName(date)}`.trim();
}

for (const node of document.querySelectorAll("time[data-local][datetime]")) {
  const date = new Date(node.getAttribute("datetime"));
  if (Number.isNaN(date.getTime())) continue;
  node.textContent = localText(date, node.dataset.local !== "time");
  node.title = date.toISOString();
}
