// Veloripedia: search suggestions under the search box (titles from /wiki/api/suggest), keyboard navigable.
"use strict";
(() => {
  const api = WebApp.client("/wiki/api/");
  WebApp.drawn();   // the server drew the page
  const input = document.getElementById("q");
  const form = input.form;
  const box = document.createElement("ul");
  box.id = "suggest";
  box.hidden = true;
  form.appendChild(box);
  let items = [], active = -1, timer = 0, seq = 0;

  function show(list) {
    items = list;
    active = -1;
    box.innerHTML = list.map((r, i) =>
      `<li data-i="${i}"><a href="/wiki/a/${r.slug}">${r.title.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" }[c]))}</a></li>`).join("");
    box.hidden = list.length === 0;
  }
  function highlight(i) {
    active = i;
    [...box.children].forEach((li, k) => li.classList.toggle("on", k === i));
  }
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 2) { show([]); return; }
    const mine = ++seq;
    timer = setTimeout(async () => {
      const { data } = await api("suggest?q=" + encodeURIComponent(q));
      if (mine === seq && document.activeElement === input) show(data.results);
    }, 150);
  });
  input.addEventListener("keydown", (e) => {
    if (box.hidden) return;
    if (e.key === "ArrowDown") { e.preventDefault(); highlight(Math.min(items.length - 1, active + 1)); }
    else if (e.key === "ArrowUp") { e.preventDefault(); highlight(Math.max(-1, active - 1)); }
    else if (e.key === "Escape") { show([]); }
    else if (e.key === "Enter" && active >= 0) { e.preventDefault(); location.href = "/wiki/a/" + items[active].slug; }
  });
  form.addEventListener("submit", () => { seq++; show([]); });
  input.addEventListener("blur", () => setTimeout(() => show([]), 150));
})();
