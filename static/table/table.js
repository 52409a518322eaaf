// Every table page's bootstrap: the table's socket (protocol.js, docs/protocol.md) and, from
// its first snapshot, the felt module that draws the page from the round view:
// felt_generic.js, unless the game names its own (FeltParts.felt_module). The module takes
// the page and the connection over (its mount); frames that come while it loads wait for it.

import { TableConnection } from "./protocol.js";
import { $, Messages, renderStatus } from "./ui.js";
import { errorText, plainWords } from "./words.js";

const app = $("#app");
const me = app.dataset.user || null;
const messages = new Messages($("#notice"), $("#announce"));
let loading = false;

function mountFelt(snapshot) {
  loading = true;
  const pending = [];
  const later = (name) => (frame) => pending.push(() => conn.h[name]?.(frame));
  conn.h = { ...conn.h, onSnapshot: later("onSnapshot"), onEvents: later("onEvents"), onView: later("onView"), onMeter: later("onMeter") };
  const named = snapshot.table.felt?.felt_module;
  const file = /^[a-z0-9_]+\.js$/.test(named || "") ? named : "felt_generic.js";
  import(`./${file}`)
    .then((module) => module.mount({ app, conn, snapshot, me, pending }))
    .catch((err) => messages.error(`This table's felt could not be loaded: ${err.message}`))
    .finally(() => app.removeAttribute("data-awaiting-felt"));
}

const conn = new TableConnection(`/ws/tables/${Number(app.dataset.tableId)}/`, {
  onSnapshot(snapshot) {
    if (!loading) mountFelt(snapshot);
  },
  onStatus(status) {
    renderStatus($("#conn"), status);
  },
  onNotice(code, message) {
    if (code !== "second_connection") messages.error(plainWords(errorText({ code, message })));
  },
});
conn.connect();
