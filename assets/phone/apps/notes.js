// Notes: a list of notes (pinned first, then the newest), an editor (Save, or phone back, saves), and a
// long-press menu to pin, unpin or delete. Backend collection notes(title, body, pinned, updated).
(() => {
  document.head.insertAdjacentHTML("beforeend", `<style id="app-css-notes">
    .notes-list { padding: 4px 12px 84px; }
    .notes-list .section { padding: 10px 4px 6px; }
    .note-item { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 12px 14px; margin-bottom: 10px; }
    .note-item.pinned { background: #fef7e0; border-color: #f6e3a1; }
    .note-title { font-weight: 600; font-size: 16px; margin-bottom: 4px; display: flex; gap: 6px; align-items: center; }
    .note-title svg.i { width: 16px; height: 16px; color: #b06000; }
    .note-snippet { color: #3c4043; font-size: 14px; white-space: pre-line; max-height: 3.9em; overflow: hidden; }
    .note-date { color: var(--muted); font-size: 12px; margin-top: 6px; }
    .note-editor { flex: 1; display: flex; flex-direction: column; padding: 4px 16px 8px; background: #fff; min-height: 0; }
    .note-title-input { border: 0; outline: none; font-size: 22px; padding: 10px 0; background: none; }
    .note-body-input { flex: 1; border: 0; outline: none; resize: none; font-size: 16px; line-height: 1.5; background: none; }
    .note-meta { color: var(--muted); font-size: 12px; padding: 6px 0; }
  </style>`);
  const PIN = "M16 9V4h1c.55 0 1-.45 1-1s-.45-1-1-1H7c-.55 0-1 .45-1 1s.45 1 1 1h1v5c0 1.66-1.34 3-3 3v2h5.97v7l1 1 1-1v-7H19v-2c-1.66 0-3-1.34-3-3z";
  const NOTE = "M3 18h12v-2H3v2zM3 6v2h18V6H3zm0 7h18v-2H3v2z";
  const svg = d => `<svg class="i" viewBox="0 0 24 24"><path d="${d}"/></svg>`;

  let ctx, root, editSave = null;   // editSave: the open editor's save (phone back saves too)

  async function list() {
    const { esc, icon } = ctx;
    const rows = await ctx.list("notes");
    rows.sort((a, b) => (b.pinned ? 1 : 0) - (a.pinned ? 1 : 0) || String(b.updated).localeCompare(String(a.updated)));
    const card = n => `<div class="note-item${n.pinned ? " pinned" : ""}" data-id="${n.id}">
        <div class="note-title">${n.pinned ? svg(PIN) : ""}<span>${esc(n.title) || "Untitled"}</span></div>
        <div class="note-snippet">${esc(String(n.body || "").slice(0, 90))}</div>
        <div class="note-date">${esc(n.updated)}</div></div>`;
    const pinned = rows.filter(n => n.pinned), others = rows.filter(n => !n.pinned);
    root.innerHTML = `<div class="appbar"><span class="title">Notes</span></div>
      <div class="content notes-list">
        ${pinned.length ? `<div class="section">Pinned</div>${pinned.map(card).join("")}` : ""}
        ${pinned.length && others.length ? '<div class="section">Others</div>' : ""}
        ${others.map(card).join("")}
        ${rows.length ? "" : '<div class="empty">No notes yet</div>'}
      </div>
      <button class="fab" id="notes-add" aria-label="New note">${icon("add")}</button>`;
    root.querySelectorAll(".note-item").forEach(el => {
      const note = rows.find(n => n.id === Number(el.dataset.id));
      el.addEventListener("click", () => ctx.push(r => editor(r, note)));
      el.addEventListener("longpress", () => menu(note));
    });
    root.querySelector("#notes-add").addEventListener("click", () => ctx.push(r => editor(r, null)));
  }

  async function menu(note) {
    const choice = await ctx.menu(note.title || "Untitled", [
      { label: note.pinned ? "Unpin" : "Pin", value: "pin", icon: "flag" },
      { label: "Delete", value: "delete", icon: "delete" }]);
    if (choice === "pin") {
      await ctx.api(`notes/${note.id}`, { method: "PUT", body: { pinned: !note.pinned } });
    } else if (choice === "delete") {
      if (!await ctx.confirm("Delete this note?", `“${note.title || "Untitled"}” will be deleted.`, "Delete")) return;
      await ctx.api(`notes/${note.id}`, { method: "DELETE" });
    } else return;
    await list();
    ctx.toast(choice === "pin" ? (note.pinned ? "Note unpinned" : "Note pinned") : "Note deleted");
  }

  function editor(r, note) {
    const { esc, icon } = ctx;
    r.innerHTML = `<div class="appbar"><button class="icon-btn" id="note-back" aria-label="Back">${icon("back")}</button>
        <span class="title">${note ? "Edit note" : "New note"}</span>
        <button class="action" id="note-save">Save</button></div>
      <div class="note-editor">
        <input id="note-title" class="note-title-input" placeholder="Title" autocomplete="off" value="${esc(note ? note.title : "")}">
        <textarea id="note-body" class="note-body-input" placeholder="Note">${esc(note ? note.body : "")}</textarea>
        <div class="note-meta">${note ? "Edited " + esc(note.updated) : ""}</div>
      </div>`;
    const save = async () => {
      editSave = null;
      const title = r.querySelector("#note-title").value.trim(), body = r.querySelector("#note-body").value;
      const unchanged = note ? title === note.title && body === note.body : !title && !body.trim();
      if (!unchanged) {
        const d = ctx.now(), rec = { title, body, updated: `${ctx.ymd(d)} ${ctx.hm(d)}` };
        if (note) await ctx.api(`notes/${note.id}`, { method: "PUT", body: rec });
        else await ctx.api("notes", { method: "POST", body: { ...rec, pinned: false } });
      }
      await list();
      ctx.pop();
      if (!unchanged) ctx.toast("Note saved");
    };
    editSave = save;
    r.querySelector("#note-save").addEventListener("click", save);
    r.querySelector("#note-back").addEventListener("click", save);
  }

  phone.register({
    id: "notes", name: "Notes", icon: svg(NOTE), color: "#f5b700",
    mount(r, c) { root = r; ctx = c; editSave = null; return list(); },
    onBack() {
      if (!editSave) return false;
      editSave();
      return true;
    },
  });
})();
