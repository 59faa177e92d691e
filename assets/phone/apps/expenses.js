// Expenses: a month's spending (total, category filter, list), and a form to add, edit or delete an expense,
// with validation. Backend collection expenses(title, amount, category, date) with date "YYYY-MM-DD".
(() => {
  document.head.insertAdjacentHTML("beforeend", `<style id="app-css-expenses">
    .exp-month { display: flex; align-items: center; justify-content: space-between; padding: 0 8px; background: #fff; flex: none; }
    #exp-month-label { font-weight: 600; font-size: 16px; }
    .exp-summary { padding: 2px 16px 8px; background: #fff; flex: none; }
    .exp-total { font-size: 30px; font-weight: 600; }
    .chips { display: flex; flex-wrap: wrap; gap: 6px; padding: 6px 12px 10px; background: #fff; border-bottom: 1px solid var(--line); flex: none; }
    .exp-form .chips { padding: 2px 0; border: 0; background: none; }
    .exp-list { padding-bottom: 84px; }
    .exp-icon { width: 40px; height: 40px; border-radius: 50%; background: #e6f4ea; color: #137333; display: grid; place-items: center; flex: none; }
    .chip.on { font-weight: 600; }
    #exp-delete { align-self: flex-start; color: var(--danger); }
    .exp-amount { font-weight: 600; flex: none; }
    .field-box { position: relative; display: block; }
    .field-box input { padding-right: 40px; }
    #exp-date-box input { padding-right: 80px; }
    #exp-date-pick { position: absolute; right: 40px; top: 50%; transform: translateY(-50%); width: 36px; height: 36px; border: 0; background: none; color: var(--primary); display: grid; place-items: center; }
    .field-clear { position: absolute; right: 4px; top: 50%; transform: translateY(-50%); width: 36px; height: 36px; border: 0; background: none; color: var(--muted); display: grid; place-items: center; }
  </style>`);
  const esc = s => phone.esc(s), icon = n => phone.icon(n);
  const svg = d => `<svg class="i" viewBox="0 0 24 24"><path d="${d}"/></svg>`;
  const CATEGORIES = ["Food", "Transport", "Shopping", "Bills", "Entertainment", "Health"];
  const CAT_ICONS = {
    Food: "M11 9H9V2H7v7H5V2H3v7c0 2.12 1.66 3.84 3.75 3.97V22h2.5v-9.03C11.34 12.84 13 11.12 13 9V2h-2v7zm5-3v8h2.5v8H21V2c-2.76 0-5 2.24-5 4z",
    Transport: "M4 16c0 .88.39 1.67 1 2.22V20c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-1h8v1c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-1.78c.61-.55 1-1.34 1-2.22V6c0-3.5-3.58-4-8-4s-8 .5-8 4v10zm3.5 1c-.83 0-1.5-.67-1.5-1.5S6.67 14 7.5 14s1.5.67 1.5 1.5S8.33 17 7.5 17zm9 0c-.83 0-1.5-.67-1.5-1.5s.67-1.5 1.5-1.5 1.5.67 1.5 1.5-.67 1.5-1.5 1.5zm1.5-6H6V6h12v5z",
    Shopping: "M18 6h-2c0-2.21-1.79-4-4-4S8 3.79 8 6H6c-1.1 0-2 .9-2 2v12c0 1.1.9 2 2 2h12c1.1 0 2-.9 2-2V8c0-1.1-.9-2-2-2zm-6-2c1.1 0 2 .9 2 2h-4c0-1.1.9-2 2-2zm6 16H6V8h2v2c0 .55.45 1 1 1s1-.45 1-1V8h4v2c0 .55.45 1 1 1s1-.45 1-1V8h2v12z",
    Bills: "M18 17H6v-2h12v2zm0-4H6v-2h12v2zm0-4H6V7h12v2zM3 22l1.5-1.5L6 22l1.5-1.5L9 22l1.5-1.5L12 22l1.5-1.5L15 22l1.5-1.5L18 22l1.5-1.5L21 22V2l-1.5 1.5L18 2l-1.5 1.5L15 2l-1.5 1.5L12 2l-1.5 1.5L9 2 7.5 3.5 6 2 4.5 3.5 3 2v20z",
    Entertainment: "M18 4l2 4h-3l-2-4h-2l2 4h-3l-2-4H8l2 4H7L5 4H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V4h-4z",
    Health: "M19 3H5c-1.1 0-1.99.9-1.99 2L3 19c0 1.1.9 2 2 2h14c1.1 0 2-.9 2-2V5c0-1.1-.9-2-2-2zm-1 11h-4v4h-4v-4H6v-4h4V6h4v4h4v4z",
  };
  const WALLET = "M21 18v1c0 1.1-.9 2-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h14c1.1 0 2 .9 2 2v1h-9a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h9zm-9-2h10V8H12v8zm4-2.5c-.83 0-1.5-.67-1.5-1.5s.67-1.5 1.5-1.5 1.5.67 1.5 1.5-.67 1.5-1.5 1.5z";
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  const money = v => "$" + Number(v).toFixed(2);

  let ctx, root, month = null, filter = "All", cache = null;   // month: [year, 0-based month]

  // the month's list; a month or filter change redraws from the last list at once (reload false)
  async function main(reload = true) {
    if (reload || !cache) cache = await ctx.list("expenses");
    const rows = cache;
    const key = `${month[0]}-${String(month[1] + 1).padStart(2, "0")}`;
    const inMonth = rows.filter(e => String(e.date).startsWith(key));
    const shown = inMonth.filter(e => filter === "All" || e.category === filter)
      .sort((a, b) => String(b.date).localeCompare(String(a.date)) || b.id - a.id);
    const total = shown.reduce((s, e) => s + Number(e.amount), 0);
    root.innerHTML = `<div class="appbar"><span class="title">Expenses</span></div>
      <div class="exp-month"><button class="icon-btn" id="exp-prev" aria-label="Previous month">${icon("left")}</button>
        <span id="exp-month-label">${MONTHS[month[1]]} ${month[0]}</span>
        <button class="icon-btn" id="exp-next" aria-label="Next month">${icon("right")}</button></div>
      <div class="exp-summary"><div class="secondary">${filter === "All" ? "Total spent" : `Spent on ${esc(filter)}`}</div>
        <div class="exp-total" id="exp-total">${money(total)}</div></div>
      <div class="chips">${["All", ...CATEGORIES].map(c => `<button class="chip${c === filter ? " on" : ""}" data-cat="${c}">${c}</button>`).join("")}</div>
      <div class="content exp-list">${shown.map(e => `<div class="row exp-row" data-id="${e.id}">
          <span class="exp-icon">${svg(CAT_ICONS[e.category] || WALLET)}</span>
          <div class="main"><div class="primary">${esc(e.title)}</div><div class="secondary">${esc(e.category)} · ${esc(e.date)}</div></div>
          <div class="exp-amount">${money(e.amount)}</div></div>`).join("")}
        ${shown.length ? "" : '<div class="empty">No expenses</div>'}</div>
      <button class="fab" id="exp-add" aria-label="Add expense">${icon("add")}</button>`;
    const shift = d => { const m = month[0] * 12 + month[1] + d; month = [Math.floor(m / 12), m % 12]; main(false); };
    root.querySelector("#exp-prev").addEventListener("click", () => shift(-1));
    root.querySelector("#exp-next").addEventListener("click", () => shift(1));
    root.querySelectorAll(".chip").forEach(b => b.addEventListener("click", () => { filter = b.dataset.cat; main(false); }));
    root.querySelectorAll(".exp-row").forEach(el => el.addEventListener("click", () =>
      ctx.push(r => form(r, rows.find(e => e.id === Number(el.dataset.id))))));
    root.querySelector("#exp-add").addEventListener("click", () => ctx.push(r => form(r, null)));
  }

  // the problem with the form's values, or null
  function invalid(v) {
    if (!v.title) return "Enter a title";
    if (!/^\d+(\.\d{1,2})?$/.test(v.amount) || Number(v.amount) <= 0) return "Enter an amount greater than 0, like 12.50";
    if (!CATEGORIES.includes(v.category)) return "Choose a category";
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v.date), d = m && new Date(+m[1], +m[2] - 1, +m[3]);
    if (!d || d.getMonth() !== +m[2] - 1 || d.getDate() !== +m[3]) return "Enter the date as YYYY-MM-DD";
    return null;
  }

  function form(r, e) {
    const field = (id, label, value, mode) => `<div class="field"><label for="${id}">${label}</label>
      <div class="field-box"><input id="${id}" autocomplete="off" inputmode="${mode}" value="${esc(value)}">
      <button class="field-clear" id="${id}-clear" aria-label="Clear ${label}">${icon("close")}</button></div></div>`;
    let category = e ? e.category : "";
    r.innerHTML = `<div class="appbar"><button class="icon-btn back-btn" aria-label="Back">${icon("back")}</button>
        <span class="title">${e ? "Edit expense" : "New expense"}</span>
        <button class="action" id="exp-save">Save</button></div>
      <div class="content form exp-form">
        ${field("exp-title", "Title", e ? e.title : "", "text")}
        ${field("exp-amount", "Amount ($)", e ? Number(e.amount).toFixed(2) : "", "decimal")}
        <div class="field"><label>Category</label><div class="chips">
          ${CATEGORIES.map(c => `<button class="chip cat-opt${c === category ? " on" : ""}" data-cat="${c}">${c}</button>`).join("")}</div></div>
        ${field("exp-date", "Date (YYYY-MM-DD)", e ? e.date : ctx.ymd(ctx.now()), "text")}
        <div class="error" id="exp-error"></div>
        ${e ? '<button class="btn tonal" id="exp-delete">Delete expense</button>' : ""}
      </div>`;
    r.querySelector(".back-btn").addEventListener("click", () => ctx.pop());
    const dateBox = r.querySelector("#exp-date").parentElement;
    dateBox.id = "exp-date-box";
    dateBox.insertAdjacentHTML("beforeend", `<button id="exp-date-pick" aria-label="Pick a date">${icon("event")}</button>`);
    r.querySelector("#exp-date-pick").addEventListener("click", async ev => {
      ev.preventDefault();
      const input = r.querySelector("#exp-date");
      const picked = await ctx.pickDate(/^\d{4}-\d{2}-\d{2}$/.test(input.value) ? input.value : ctx.ymd(ctx.now()));
      if (picked) input.value = picked;
    });
    r.querySelectorAll(".field-clear").forEach(b => b.addEventListener("click", ev => {
      ev.preventDefault();
      const input = r.querySelector("#" + b.id.replace(/-clear$/, ""));
      input.value = "";
      input.focus();
    }));
    r.querySelectorAll(".cat-opt").forEach(b => b.addEventListener("click", () => {
      category = b.dataset.cat;
      r.querySelectorAll(".cat-opt").forEach(x => x.classList.toggle("on", x === b));
    }));
    r.querySelector("#exp-save").addEventListener("click", async () => {
      const v = { title: r.querySelector("#exp-title").value.trim(), amount: r.querySelector("#exp-amount").value.trim().replace(/^\$/, ""),
                  category, date: r.querySelector("#exp-date").value.trim() };
      const problem = invalid(v);
      if (problem) { r.querySelector("#exp-error").textContent = problem; return; }
      const body = { ...v, amount: Math.round(Number(v.amount) * 100) / 100 };
      if (e) await ctx.api(`expenses/${e.id}`, { method: "PUT", body });
      else await ctx.api("expenses", { method: "POST", body });
      month = [Number(v.date.slice(0, 4)), Number(v.date.slice(5, 7)) - 1];
      await main();
      ctx.pop();
      ctx.toast(e ? "Expense updated" : "Expense added");
    });
    if (e) r.querySelector("#exp-delete").addEventListener("click", async () => {
      if (!await ctx.confirm("Delete expense?", `${e.title} (${money(e.amount)}) will be deleted.`, "Delete")) return;
      await ctx.api(`expenses/${e.id}`, { method: "DELETE" });
      await main();
      ctx.pop();
      ctx.toast("Expense deleted");
    });
  }

  phone.register({
    id: "expenses", name: "Expenses", icon: svg(WALLET), color: "#0f9d58",
    mount(r, c) {
      root = r; ctx = c; filter = "All"; cache = null;
      const now = ctx.now();
      month = [now.getFullYear(), now.getMonth()];
      return main();
    },
  });
})();
