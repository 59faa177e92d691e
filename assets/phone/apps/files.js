// Files: a file browser over four folders (Download, Documents, Pictures, Music) with sorting, file details,
// and per-file rename, move and delete. Backend collection files(name, folder, size_kb, kind, modified).
(() => {
  document.head.insertAdjacentHTML("beforeend", `<style id="app-css-files">
    .file-icon { width: 40px; display: grid; place-items: center; flex: none; color: #5f6368; }
    .folder-icon { color: #1a73e8; }
    .file-details { padding: 16px; background: #fff; }
    .file-big-icon { display: grid; place-items: center; margin: 18px 0 8px; }
    .file-big-icon svg.i { width: 72px; height: 72px; }
    #files-sort { display: flex; align-items: center; gap: 4px; }
    #files-sort svg.i { width: 18px; height: 18px; }
    .detail-name { font-size: 20px; text-align: center; margin-bottom: 18px; word-break: break-all; }
    .detail-row { display: flex; justify-content: space-between; gap: 12px; padding: 12px 0; border-top: 1px solid var(--line); }
    .detail-key { color: var(--muted); }
  </style>`);
  const FOLDERS = ["Download", "Documents", "Pictures", "Music"];
  const P = {
    folder: "M10 4H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V8c0-1.1-.9-2-2-2h-8l-2-2z",
    download: "M19 9h-4V3H9v6H5l7 7 7-7zM5 18v2h14v-2H5z",
    doc: "M14 2H6c-1.1 0-2 .9-2 2v16c0 1.1.9 2 2 2h12c1.1 0 2-.9 2-2V8l-6-6zm2 16H8v-2h8v2zm0-4H8v-2h8v2zm-3-5V3.5L18.5 9H13z",
    image: "M21 19V5c0-1.1-.9-2-2-2H5c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h14c1.1 0 2-.9 2-2zM8.5 13.5l2.5 3.01L14.5 12l4.5 6H5l3.5-4.5z",
    audio: "M12 3v10.55c-.59-.34-1.27-.55-2-.55-2.21 0-4 1.79-4 4s1.79 4 4 4 4-1.79 4-4V7h4V3h-6z",
    video: "M18 4l2 4h-3l-2-4h-2l2 4h-3l-2-4H8l2 4H7L5 4H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V4h-4z",
    file: "M6 2c-1.1 0-1.99.9-1.99 2L4 20c0 1.1.89 2 1.99 2H18c1.1 0 2-.9 2-2V8l-6-6H6zm7 7V3.5L18.5 9H13z",
    sort: "M3 18h6v-2H3v2zM3 6v2h18V6H3zm0 7h12v-2H3v2z",
  };
  const svg = d => `<svg class="i" viewBox="0 0 24 24"><path d="${d}"/></svg>`;
  const FOLDER_ICONS = { Download: P.download, Documents: P.doc, Pictures: P.image, Music: P.audio };
  const KIND_ICONS = { pdf: P.doc, doc: P.doc, text: P.doc, sheet: P.doc, image: P.image, video: P.video, audio: P.audio };
  const KIND_COLORS = { pdf: "#d93025", doc: "#1a73e8", text: "#5f6368", sheet: "#188038", image: "#e37400", video: "#a142f4", audio: "#e52592" };
  const fileIcon = kind => `<span class="file-icon" style="color:${KIND_COLORS[kind] || "#5f6368"}">${svg(KIND_ICONS[kind] || P.file)}</span>`;
  const SORTS = { name: "Name", size: "Size", modified: "Date modified" };
  const size = kb => kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${kb} KB`;

  let ctx, root, sortBy = "name";

  async function home() {
    const all = await ctx.list("files");
    root.innerHTML = `<div class="appbar"><span class="title">Files</span></div>
      <div class="content"><div class="section">Folders</div><div class="list">
      ${FOLDERS.map(f => {
        const n = all.filter(x => x.folder === f).length;
        return `<div class="row folder-row" data-folder="${f}"><span class="file-icon folder-icon">${svg(FOLDER_ICONS[f])}</span>
          <div class="main"><div class="primary">${f}</div><div class="secondary">${n} item${n === 1 ? "" : "s"}</div></div></div>`;
      }).join("")}</div></div>`;
    root.querySelectorAll(".folder-row").forEach(el => el.addEventListener("click", () => ctx.push(r => folder(r, el.dataset.folder, all))));
  }

  // a folder's files, drawn at once from `all` when given (the list just read), else read first
  async function folder(r, name, all = null) {
    const { esc, icon } = ctx;
    const rows = all || await ctx.list("files"), items = rows.filter(x => x.folder === name);
    const cmp = { name: (a, b) => a.name.localeCompare(b.name), size: (a, b) => b.size_kb - a.size_kb || a.name.localeCompare(b.name),
                  modified: (a, b) => String(b.modified).localeCompare(String(a.modified)) || a.name.localeCompare(b.name) }[sortBy];
    items.sort(cmp);
    r.innerHTML = `<div class="appbar"><button class="icon-btn back-btn" aria-label="Back">${icon("back")}</button>
        <span class="title">${name}</span>
        <button class="action" id="files-sort">${svg(P.sort)} ${SORTS[sortBy]}</button></div>
      <div class="content"><div class="list files-list">
        ${items.map(f => `<div class="row file-row" data-id="${f.id}">${fileIcon(f.kind)}
          <div class="main"><div class="primary file-name">${esc(f.name)}</div>
          <div class="secondary">${size(f.size_kb)} · ${esc(f.modified)}</div></div>
          <button class="icon-btn file-more" data-id="${f.id}" aria-label="More options for ${esc(f.name)}">${icon("more")}</button></div>`).join("")}</div>
        ${items.length ? "" : '<div class="empty">This folder is empty</div>'}</div>`;
    const again = () => Promise.all([folder(r, name), home()]);   // the folder and the counts under it
    r.querySelector(".back-btn").addEventListener("click", () => ctx.pop());
    r.querySelector("#files-sort").addEventListener("click", async () => {
      const v = await ctx.menu("Sort by", Object.entries(SORTS).map(([k, label]) => ({ label, value: k, icon: k === sortBy ? "check" : "" })));
      if (v) { sortBy = v; folder(r, name, rows); }
    });
    r.querySelectorAll(".file-row").forEach(el => {
      const f = items.find(x => x.id === Number(el.dataset.id));
      el.addEventListener("click", e => {
        if (e.target.closest(".file-more")) actions(f, again);
        else ctx.push(d => details(d, f));
      });
    });
  }

  function details(r, f) {
    const { esc, icon } = ctx;
    r.innerHTML = `<div class="appbar"><button class="icon-btn back-btn" aria-label="Back">${icon("back")}</button>
        <span class="title">File info</span></div>
      <div class="content file-details"><div class="file-big-icon">${fileIcon(f.kind)}</div>
        <div class="detail-name" id="file-info-name">${esc(f.name)}</div>
        ${[["Folder", f.folder], ["Size", size(f.size_kb)], ["Type", f.kind], ["Modified", f.modified]]
          .map(([k, v]) => `<div class="detail-row"><span class="detail-key">${k}</span><span class="detail-val">${esc(v)}</span></div>`).join("")}</div>`;
    r.querySelector(".back-btn").addEventListener("click", () => ctx.pop());
  }

  async function actions(f, refresh) {
    const v = await ctx.menu(f.name, [{ label: "Rename", value: "rename", icon: "edit" },
      { label: "Move to…", value: "move", icon: "right" }, { label: "Delete", value: "delete", icon: "delete" }]);
    if (v === "rename") await rename(f, refresh, f.name);
    else if (v === "move") {
      const to = await ctx.menu(`Move ${f.name} to`, FOLDERS.filter(x => x !== f.folder).map(x => ({ label: x, value: x })));
      if (!to) return;
      await ctx.api(`files/${f.id}`, { method: "PUT", body: { folder: to } });
      await refresh();
      ctx.toast(`Moved to ${to}`);
    } else if (v === "delete") {
      if (!await ctx.confirm("Delete file?", `${f.name} will be permanently deleted.`, "Delete")) return;
      await ctx.api(`files/${f.id}`, { method: "DELETE" });
      await refresh();
      ctx.toast("Deleted");
    }
  }

  async function rename(f, refresh, value) {
    const answer = ctx.dialog({ title: "Rename", html: `<div class="field"><input id="rename-input" autocomplete="off" value="${ctx.esc(value)}"></div>`,
      buttons: [{ label: "Cancel", value: "cancel" }, { label: "Rename", value: "ok" }] });
    const input = document.getElementById("rename-input");
    input.focus();
    input.select();   // typing replaces the whole name
    if (await answer !== "ok") return;
    const name = input.value.trim();
    const taken = (await ctx.list("files")).some(x => x.folder === f.folder && x.id !== f.id && x.name === name);
    const problem = !name ? "Enter a name" : /[\/\\]/.test(name) ? "A name cannot contain / or \\"
      : taken ? `${f.folder} already has a file named ${name}` : null;
    if (problem) { ctx.toast(problem); return rename(f, refresh, input.value); }
    if (name !== f.name) await ctx.api(`files/${f.id}`, { method: "PUT", body: { name } });
    await refresh();
    ctx.toast("Renamed");
  }

  phone.register({
    id: "files", name: "Files", icon: svg(P.folder), color: "#1a73e8",
    mount(r, c) { root = r; ctx = c; sortBy = "name"; return home(); },
  });
})();
