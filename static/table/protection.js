// The player bar (58 Pa. Code §814a.1(b), (e)(1)): the current local time and the time since
// login, net win/loss and amount wagered since login; the reality check (§814a.1(e)(2)-(3))
// and the password after 15 minutes idle (§812a.3(a)(6)) as dialogs. The server enforces
// both (a bet waits for the answer; a command of an idle session is refused): this draws
// what status.json says (at load, then every 20 s) and the figures since login each balance
// on the table's socket brings (live), and sends the player's answers.

const bar = document.querySelector("[data-protection]");
const pad = (n) => String(n).padStart(2, "0");
const money = (cents) => {
  const sign = cents < 0 ? "−" : cents > 0 ? "+" : "";
  return `${sign}$${(Math.abs(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
};
const plain = (cents) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function elapsedText(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? `${h} h ${pad(m)} min` : `${m} min`;
}

function zone(date) {
  const part = new Intl.DateTimeFormat([], { timeZoneName: "short" }).formatToParts(date).find((p) => p.type === "timeZoneName");
  return part ? part.value : "";
}

if (bar) {
  const q = (name) => document.querySelector(`[data-pp="${name}"]`);
  const started = new Date(bar.dataset.started);
  const reality = q("reality");
  const locked = q("locked");
  let skew = 0; // server time - browser time, so the elapsed time is the server's
  let last = null;

  const previous = q("previous");
  if (previous) {
    const d = new Date(previous.getAttribute("datetime"));
    if (!Number.isNaN(d.getTime())) {
      previous.textContent = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())} ${zone(d)}`;
    }
  }

  function tick() {
    const now = new Date();
    q("clock").textContent = `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())} ${zone(now)}`;
    q("clock").setAttribute("datetime", now.toISOString());
    q("elapsed").textContent = elapsedText(Math.max(0, (now.getTime() + skew - started.getTime()) / 1000));
  }

  function post(url, data) {
    const body = new URLSearchParams(data);
    return fetch(url, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": bar.dataset.csrf },
    });
  }

  function figures(net, wagered) {
    q("net").textContent = money(net);
    q("net").classList.toggle("pp-up", net > 0);
    q("net").classList.toggle("pp-down", net < 0);
    q("wagered").textContent = plain(wagered);
  }

  let pushedAt = 0; // when the table's socket last brought the figures

  function show(status, asked = Date.now()) {
    if (pushedAt > asked && last) {
      // The socket's figures are newer than this answer (asked before that settlement).
      status = { ...status, net: last.net, wagered: last.wagered };
    }
    last = status;
    skew = new Date(status.now).getTime() - Date.now();
    figures(status.net, status.wagered);
    if (status.locked) {
      if (reality.open) reality.close();
      if (!locked.open) locked.showModal();
      return;
    }
    if (locked.open) locked.close();
    if (status.reality_due) {
      q("r-elapsed").textContent = elapsedText(status.elapsed_seconds);
      q("r-wagered").textContent = plain(status.wagered);
      q("r-net").textContent = money(status.net);
      if (!reality.open) reality.showModal();
    } else if (reality.open) {
      reality.close();
    }
  }

  async function refresh() {
    const asked = Date.now();
    try {
      const response = await fetch(bar.dataset.status, { credentials: "same-origin" });
      if (response.status === 410) {
        window.location.assign("/login/");
        return;
      }
      if (response.ok) show(await response.json(), asked);
    } catch {
      // offline for a moment: the next poll tries again
    }
  }

  reality.addEventListener("cancel", (event) => event.preventDefault()); // it must be answered
  locked.addEventListener("cancel", (event) => event.preventDefault());
  for (const button of reality.querySelectorAll("[data-answer]")) {
    button.addEventListener("click", async () => {
      const response = await post(bar.dataset.reality, { answer: button.dataset.answer });
      const answer = await response.json();
      if (answer.next) {
        window.location.assign(answer.next);
        return;
      }
      show(answer);
    });
  }
  q("unlock-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = locked.querySelector("input[name=password]");
    const response = await post(bar.dataset.unlock, { password: field.value });
    field.value = "";
    const answer = await response.json();
    const error = q("unlock-error");
    if (!response.ok) {
      error.textContent = answer.error || "that did not work";
      error.hidden = false;
      return;
    }
    error.hidden = true;
    show(answer);
  });
  // A refusal from the table for a reality check or an idle session: look again now.
  window.addEventListener("protection:refresh", refresh);
  // Money moved at a table (a wager, a settlement): the figures since login came with the
  // balance on the table's socket (static/table/protocol.js), one set per open session of
  // the player; this page's is its own login's.
  window.addEventListener("protection:since-login", (event) => {
    const mine = event.detail[bar.dataset.session];
    if (!mine) return;
    pushedAt = Date.now();
    if (last) last = { ...last, net: mine.net, wagered: mine.wagered };
    figures(mine.net, mine.wagered);
  });

  tick();
  setInterval(tick, 1000);
  refresh();
  setInterval(refresh, 20000);
  // The next reality check comes on time even between polls.
  setInterval(() => {
    if (last && !last.reality_due && Date.now() + skew >= new Date(last.next_check).getTime()) refresh();
  }, 1000);
}
