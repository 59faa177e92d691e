// Driveshare: folders, a sortable and paginated file list, a details pane with a preview, and
// rename / move / share / delete dialogs, over the backend's /files/api/.
"use strict";

const API = "/files/api/";
const PAGE = 20;
const state = { folder: 1, files: [], folders: [], tree: [], sort: "name", dir: 1, page: 1, selected: null, query: "" };
const $ = (id) => document.getElementById(id);

const call = WebApp.client(API);
const { esc, toast } = WebApp;

// GET `path`, or POST `body` to it; the answer's data (an error answer throws its message)
async function api(path, body) {
  const r = await call(path, body === undefined ? {} : { method: "POST", body });
  if (!r.ok) throw new Error(r.data.error || `HTTP ${r.status}`);
  return r.data;
}

function human(bytes) {
  if (bytes < 1024) return bytes + " B";
  if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(1) + " KB";
  return (bytes / 1024 / 1024).toFixed(1) + " MB";
}

const FOLDER_SVG = '<svg class="fold" width="18" height="14" viewBox="0 0 18 14"><path d="M1 2.5A1.5 1.5 0 0 1 2.5 1H7l2 2h6.5A1.5 1.5 0 0 1 17 4.5v7a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 1 11.5z" fill="#5f6368"/></svg>';
const ICONS = { csv: "▦", txt: "≣", json: "{}", zip: "ZIP", pdf: "PDF", folder: FOLDER_SVG };

async function openFolder(id, page = 1) {
  const data = await api("list?folder=" + id);
  Object.assign(state, { folder: id, files: data.files, folders: data.folders, tree: data.tree, page, query: "" });
  $("search").value = "";
  $("crumbs").innerHTML = data.path.map((p, i) =>
    i === data.path.length - 1 ? `<span class="here">${esc(p.name)}</span>` : `<a href="#" data-folder="${p.id}">${esc(p.name)}</a>`
  ).join(" › ");
  renderTree();
  render();
}

function renderTree() {
  $("tree").innerHTML = state.tree.map((f) =>
    `<li><a href="#" class="tree-item${f.id === state.folder ? " on" : ""}" data-folder="${f.id}" style="padding-left:${8 + f.depth * 16}px">` +
    `${ICONS.folder} ${esc(f.name)}</a></li>`).join("");
}

function sorted(files) {
  const k = state.sort;
  return files.slice().sort((a, b) => (a[k] < b[k] ? -1 : a[k] > b[k] ? 1 : 0) * state.dir || (a.name < b.name ? -1 : 1));
}

function render() {
  const files = sorted(state.files);
  const pages = Math.max(1, Math.ceil(files.length / PAGE));
  state.page = Math.min(state.page, pages);
  const shown = files.slice((state.page - 1) * PAGE, state.page * PAGE);
  const folderRows = state.query ? [] : state.folders.map((f) =>
    `<tr class="folder" data-folder="${f.id}"><td class="c-name"><a href="#" data-folder="${f.id}">${ICONS.folder} ${esc(f.name)}</a></td><td>me</td><td>—</td><td>—</td></tr>`);
  const fileRows = shown.map((f) =>
    `<tr class="file${state.selected === f.id ? " sel" : ""}" data-id="${f.id}" data-name="${esc(f.name)}">` +
    `<td class="c-name"><span class="ic ic-${f.kind}">${ICONS[f.kind] || "?"}</span> ${esc(f.name)}</td>` +
    `<td>${esc(f.owner)}</td><td>${esc(f.modified)}</td><td>${human(f.size)}</td></tr>`);
  $("rows").innerHTML = folderRows.concat(fileRows).join("");
  $("empty").hidden = folderRows.length + fileRows.length > 0;
  document.querySelectorAll("#list th").forEach((th) => {
    th.classList.toggle("sorted", th.dataset.sort === state.sort);
    th.dataset.dir = th.dataset.sort === state.sort ? (state.dir > 0 ? "▲" : "▼") : "";
  });
  $("pageinfo").textContent = files.length ? `${(state.page - 1) * PAGE + 1}–${Math.min(files.length, state.page * PAGE)} of ${files.length} files` : "";
  let pager = "";
  if (pages > 1) {
    pager += `<button class="btn" id="prev" ${state.page === 1 ? "disabled" : ""}>‹ Previous</button>`;
    for (let p = 1; p <= pages; p++) pager += `<button class="btn pnum${p === state.page ? " on" : ""}" data-page="${p}">${p}</button>`;
    pager += `<button class="btn" id="next" ${state.page === pages ? "disabled" : ""}>Next ›</button>`;
  }
  $("pager").innerHTML = pager;
}

async function select(id) {
  state.selected = id;
  render();
  const f = await api("file/" + id);
  $("details").hidden = false;
  $("d-name").textContent = f.name;
  $("download").href = API + "download/" + f.id;
  $("d-meta").innerHTML = [["Type", f.kind.toUpperCase()], ["Size", human(f.size) + ` (${f.size} bytes)`], ["Owner", f.owner],
    ["Modified", f.modified], ["Location", f.path.map((p) => p.name).join(" › ")]]
    .map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join("");
  const p = f.preview;
  let html = "";
  if (p.type === "table") {
    html = `<table class="sheet"><tr>${p.header.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>` +
      p.rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("") + "</table>" +
      `<p class="note">Showing ${p.rows.length} of ${p.total_rows} rows. Download the file to see all of them.</p>`;
  } else if (p.type === "text") {
    html = `<pre>${esc(p.text)}</pre>`;
  } else if (p.type === "zip") {
    html = `<p class="note">ZIP archive, ${p.entries.length} items:</p><ul class="zip">` +
      p.entries.map((e) => `<li>${esc(e.name)} <span>${human(e.size)}</span></li>`).join("") + "</ul>";
  } else {
    html = `<p class="note">No preview available for this file type.</p>`;
  }
  $("preview").innerHTML = html;
  $("d-shares").innerHTML = f.shares.length ? f.shares.map((s) =>
    `<li>${esc(s.email)} <span class="role">${s.role === "editor" ? "Can edit" : "Can view"}</span><div class="link"><a href="${esc(s.link)}" target="_blank">${location.origin}${esc(s.link)}</a></div></li>`).join("")
    : `<li class="none">Only you have access.</li>`;
}

// -- dialogs -------------------------------------------------------------------
let onOk = null;
function dialog(title, body, okText, handler) {
  $("m-title").textContent = title;
  $("m-body").innerHTML = body;
  $("m-error").textContent = "";
  $("m-ok").textContent = okText;
  $("modal").hidden = false;
  onOk = handler;
  const first = $("m-body").querySelector("input, select");
  if (first) { first.focus(); if (first.select) first.select(); }
}
function closeDialog() { $("modal").hidden = true; onOk = null; }
async function ok() {
  if (!onOk) return;
  try { await onOk(); closeDialog(); }
  catch (e) { $("m-error").textContent = e.message; }
}

function current() { return state.files.find((f) => f.id === state.selected); }

async function refresh() {
  const keep = state.selected;
  const data = await api("list?folder=" + state.folder);
  Object.assign(state, { files: data.files, folders: data.folders, tree: data.tree });
  if (!state.files.some((f) => f.id === keep)) { state.selected = null; $("details").hidden = true; render(); }
  else await select(keep);
}

$("rename").onclick = () => {
  const f = current();
  dialog("Rename", `<label>New name<input id="rename-input" value="${esc(f.name)}"></label>`, "Rename", async () => {
    await api("rename/" + f.id, { name: $("rename-input").value });
    toast("Renamed to " + $("rename-input").value);
    await refresh();
  });
};

$("move").onclick = () => {
  const f = current();
  let target = null;
  dialog(`Move “${f.name}”`, `<p>Choose a destination folder:</p><ul class="picker" id="picker">` +
    state.tree.map((t) => `<li><button type="button" class="pick" data-folder="${t.id}" style="margin-left:${t.depth * 16}px"` +
      `${t.id === state.folder ? " disabled" : ""}>${ICONS.folder} ${esc(t.name)}</button></li>`).join("") + "</ul>",
  "Move here", async () => {
    if (target === null) throw new Error("Choose a folder first.");
    await api("move/" + f.id, { folder: target });
    toast("Moved " + f.name);
    await refresh();
  });
  $("picker").onclick = (e) => {
    const b = e.target.closest(".pick");
    if (!b) return;
    target = +b.dataset.folder;
    document.querySelectorAll(".pick").forEach((x) => x.classList.toggle("on", x === b));
  };
};

$("share").onclick = () => {
  const f = current();
  dialog(`Share “${f.name}”`, `<label>Email address<input id="share-email" type="email" placeholder="name@example.com"></label>` +
    `<label>Permission<select id="share-role"><option value="viewer">Viewer (can view)</option><option value="editor">Editor (can edit)</option></select></label>`,
  "Share", async () => {
    const s = await api("share/" + f.id, { email: $("share-email").value, role: $("share-role").value });
    toast("Shared. Link: " + location.origin + s.link);
    await refresh();
  });
};

$("trash").onclick = () => {
  const f = current();
  dialog("Delete file?", `<p>“${esc(f.name)}” will be moved to the trash.</p>`, "Delete", async () => {
    await api("trash/" + f.id, {});
    toast("Moved to trash");
    await refresh();
  });
};

$("m-ok").onclick = ok;
$("m-cancel").onclick = closeDialog;
$("modal").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && e.target.tagName === "INPUT") { e.preventDefault(); ok(); }
  if (e.key === "Escape") closeDialog();
});
$("d-close").onclick = () => { state.selected = null; $("details").hidden = true; render(); };

document.addEventListener("click", (e) => {
  const folderLink = e.target.closest("[data-folder]");
  if (folderLink && !folderLink.classList.contains("pick")) {
    e.preventDefault();
    state.selected = null;
    $("details").hidden = true;
    openFolder(+folderLink.dataset.folder);
    return;
  }
  const row = e.target.closest("tr.file");
  if (row) { select(+row.dataset.id); return; }
  const th = e.target.closest("#list th");
  if (th) {
    state.dir = state.sort === th.dataset.sort ? -state.dir : 1;
    state.sort = th.dataset.sort;
    render();
    return;
  }
  if (e.target.id === "prev") { state.page--; render(); }
  else if (e.target.id === "next") { state.page++; render(); }
  else if (e.target.dataset.page) { state.page = +e.target.dataset.page; render(); }
});

$("search-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const q = $("search").value.trim();
  if (!q) return openFolder(state.folder);
  const data = await api("search?q=" + encodeURIComponent(q));
  Object.assign(state, { files: data.files, folders: [], page: 1, query: q });
  $("crumbs").innerHTML = `Search results for “${esc(q)}”`;
  render();
});

openFolder(1).then(WebApp.drawn);
