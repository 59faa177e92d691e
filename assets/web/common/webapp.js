// What every web app's pages share: JSON calls to the app's backend, the page-ready signal, escaping, a toast.
//
// The page-ready signal, the one every web app gives (oracles and tests wait for it,
// hybridgym.tasks.kit.web.wait_ready): <body data-ready="1"> once the page has drawn its data
// (the page calls WebApp.drawn()) and none of its calls to its backend is open; "0" before that
// and while a call is open. Include this script first, from the page's <body>.
"use strict";
const WebApp = (() => {
  let open = 0, drawn = false;
  const mark = () => { document.body.dataset.ready = drawn && open === 0 ? "1" : "0"; };
  mark();

  // a function calling the backend under `base`: (path, {method, body}) -> {ok, status, data};
  // data is the answer's JSON ({error} when it sent none). The call counts as open until the
  // caller has run on its answer (the signal turns back after the task that drew it).
  const client = base => async (path, { method = "GET", body } = {}) => {
    open++; mark();
    try {
      const r = await fetch(base + path, { method, headers: { "Content-Type": "application/json" },
                                           body: body === undefined ? undefined : JSON.stringify(body) });
      let data;
      try { data = await r.json(); } catch (e) { data = { error: "The server sent no data." }; }
      return { ok: r.ok, status: r.status, data };
    } finally {
      setTimeout(() => { open--; mark(); }, 0);
    }
  };

  const esc = s => String(s ?? "").replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  // a short message at the foot of the page, for 2.5 s (in a div#toast.toast, made on first use)
  let timer = 0;
  function toast(text) {
    let t = document.getElementById("toast");
    if (!t) { t = document.createElement("div"); t.id = "toast"; t.className = "toast"; document.body.append(t); }
    t.textContent = text; t.hidden = false;
    clearTimeout(timer); timer = setTimeout(() => { t.hidden = true; }, 2500);
  }

  return { client, esc, toast, drawn: () => { drawn = true; mark(); } };
})();
