// Admin console: users table (sort, filter, pages, bulk actions), user form, permission matrix, settings, audit log.
"use strict";
const API = "/admin/api/";
const app = {};
const ui = { q: "", dept: "", role: "", status: "", sort: "name", dir: 1, page: 1, per: 15, selected: new Set(),
             audit: { q: "", actor: "", action: "", page: 1 } };
const call = WebApp.client(API), api = (method, path, body) => call(path, { method, body });
const { esc, toast } = WebApp;
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const opts = (list, sel, blank) => (blank ? `<option value="">${blank}</option>` : "") +
  list.map(o => { const [v, l] = Array.isArray(o) ? o : [o, o]; return `<option value="${esc(v)}" ${v === sel ? "selected" : ""}>${esc(l)}</option>`; }).join("");

function modal(title, html, confirmLabel, danger) {
  return new Promise(resolve => {
    $("#modal-root").innerHTML = `<div class="backdrop"><div class="modal" role="dialog"><h3 id="modal-title">${esc(title)}</h3>${html}
      <div class="actions"><button class="btn" id="modal-cancel">Cancel</button><button class="btn ${danger ? "danger" : "primary"}" id="modal-confirm">${esc(confirmLabel)}</button></div></div></div>`;
    const done = v => { $("#modal-root").innerHTML = ""; resolve(v); };
    $("#modal-cancel").onclick = () => done(false);
    $("#modal-confirm").onclick = () => done(true);
  });
}
function showErrors(errors) {
  $$(".row").forEach(r => r.classList.remove("invalid"));
  $$(".err").forEach(e => { e.textContent = ""; });
  for (const [k, msg] of Object.entries(errors || {})) {
    const el = $(`#err-${k}`);
    if (el) { el.textContent = msg; el.closest(".row").classList.add("invalid"); }
  }
}
function banner(kind, text) { $("#banner").innerHTML = text ? `<div class="banner ${kind}" id="banner-${kind}">${esc(text)}</div>` : ""; }

// ---- router -------------------------------------------------------------------
function route() {
  $("#modal-root").innerHTML = "";
  const h = location.hash.replace(/^#/, "") || "users";
  $$(".side a").forEach(a => a.classList.toggle("active", h === a.dataset.nav || (h.startsWith("users") && a.dataset.nav === "users")));
  const [name, arg] = h.split("/");
  if (name === "users" && arg) return showUser(arg === "new" ? null : Number(arg));
  if (name === "groups") return showGroups();
  if (name === "settings") return showSettings(arg || "general");
  if (name === "audit") return showAudit();
  return showUsers();
}
window.addEventListener("hashchange", route);

// ---- users ----------------------------------------------------------------------
const KEYS = { name: u => u.name.toLowerCase(), department: u => u.department, role: u => app.roles.indexOf(u.role),
               status: u => (u.active ? 0 : 1), last_login: u => u.last_login || "0000", mfa: u => (u.mfa ? 0 : 1) };
async function showUsers() {
  const { data: users } = await api("GET", "users");
  app.users = users;
  $("#view").innerHTML = `<h1>Users</h1><p class="sub">${users.length} people in ${esc(app.org)}</p>
    <div class="filters">
      <input type="search" id="user-search" placeholder="Search name or email" value="${esc(ui.q)}">
      <select id="filter-dept">${opts(app.departments, ui.dept, "All departments")}</select>
      <select id="filter-role">${opts(app.roles, ui.role, "All roles")}</select>
      <select id="filter-status">${opts([["active", "Active"], ["inactive", "Deactivated"]], ui.status, "Any status")}</select>
      <span class="grow"></span>
      <button class="btn primary" id="invite">+ Invite user</button>
    </div>
    <div id="bulk-slot"></div>
    <div class="panel"><table class="data" id="users-table"><thead></thead><tbody></tbody></table>
    <div class="pager"><span id="page-info"></span>
      <label>Rows <select id="per-page">${opts([["15", "15"], ["30", "30"], ["50", "50"]], String(ui.per))}</select></label>
      <div class="pages" id="pages"></div></div></div>`;
  const refilter = () => { ui.page = 1; drawUsers(); };
  $("#user-search").oninput = e => { ui.q = e.target.value; refilter(); };
  $("#filter-dept").onchange = e => { ui.dept = e.target.value; refilter(); };
  $("#filter-role").onchange = e => { ui.role = e.target.value; refilter(); };
  $("#filter-status").onchange = e => { ui.status = e.target.value; refilter(); };
  $("#per-page").onchange = e => { ui.per = Number(e.target.value); refilter(); };
  $("#invite").onclick = () => { location.hash = "#users/new"; };
  drawUsers();
}

function filteredUsers() {
  const q = ui.q.trim().toLowerCase();
  const list = app.users.filter(u => (!q || u.name.toLowerCase().includes(q) || u.email.includes(q))
    && (!ui.dept || u.department === ui.dept) && (!ui.role || u.role === ui.role)
    && (!ui.status || (ui.status === "active") === u.active));
  const key = KEYS[ui.sort];
  return list.sort((a, b) => { const x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : a.id - b.id) * ui.dir; });
}

function drawUsers() {
  const list = filteredUsers(), pages = Math.max(1, Math.ceil(list.length / ui.per));
  ui.page = Math.min(ui.page, pages);
  const shown = list.slice((ui.page - 1) * ui.per, ui.page * ui.per);
  const col = (k, label) => `<th class="sortable" data-sort="${k}">${label}${ui.sort === k ? `<span class="arrow">${ui.dir > 0 ? "▲" : "▼"}</span>` : ""}</th>`;
  const allOn = shown.length && shown.every(u => ui.selected.has(u.id));
  $("#users-table thead").innerHTML = `<tr><th><input type="checkbox" id="select-page" ${allOn ? "checked" : ""} title="Select this page"></th>${col("name", "Name")}${col("department", "Department")}${col("role", "Role")}${col("status", "Status")}${col("last_login", "Last login")}${col("mfa", "2FA")}<th></th></tr>`;
  $("#users-table tbody").innerHTML = shown.map(u => `<tr data-user-id="${u.id}" class="${ui.selected.has(u.id) ? "selected" : ""}">
      <td><input type="checkbox" class="row-check" data-id="${u.id}" ${ui.selected.has(u.id) ? "checked" : ""}></td>
      <td><a href="#users/${u.id}" class="user-link">${esc(u.name)}</a><small>${esc(u.email)}</small></td>
      <td>${esc(u.department)}</td><td><span class="badge role">${esc(u.role)}</span></td>
      <td><span class="badge ${u.active ? "on" : "off"}">${u.active ? "Active" : "Deactivated"}</span></td>
      <td>${u.last_login || "Never"}</td><td>${u.mfa ? "On" : "Off"}</td>
      <td><a href="#users/${u.id}" class="edit-link">Edit</a></td></tr>`).join("") ||
    `<tr><td colspan="8" style="text-align:center;color:#667085">No users match these filters.</td></tr>`;
  const from = list.length ? (ui.page - 1) * ui.per + 1 : 0;
  $("#page-info").textContent = `Showing ${from}–${Math.min(ui.page * ui.per, list.length)} of ${list.length}`;
  let pbtn = `<button class="btn page-btn" id="page-prev" ${ui.page === 1 ? "disabled" : ""}>‹ Prev</button>`;
  for (let i = 1; i <= pages; i++) pbtn += `<button class="btn page-btn ${i === ui.page ? "on" : ""}" data-page="${i}">${i}</button>`;
  pbtn += `<button class="btn page-btn" id="page-next" ${ui.page === pages ? "disabled" : ""}>Next ›</button>`;
  $("#pages").innerHTML = pbtn;
  $$("#pages [data-page]").forEach(b => { b.onclick = () => { ui.page = Number(b.dataset.page); drawUsers(); }; });
  $("#page-prev").onclick = () => { ui.page--; drawUsers(); };
  $("#page-next").onclick = () => { ui.page++; drawUsers(); };
  $$("th.sortable").forEach(th => { th.onclick = () => { ui.dir = ui.sort === th.dataset.sort ? -ui.dir : 1; ui.sort = th.dataset.sort; drawUsers(); }; });
  $$(".row-check").forEach(c => { c.onchange = () => { const id = Number(c.dataset.id); c.checked ? ui.selected.add(id) : ui.selected.delete(id); drawUsers(); }; });
  $("#select-page").onchange = e => { shown.forEach(u => (e.target.checked ? ui.selected.add(u.id) : ui.selected.delete(u.id))); drawUsers(); };
  drawBulk();
}

function drawBulk() {
  const slot = $("#bulk-slot");
  const n = ui.selected.size;
  if (!n) { slot.innerHTML = ""; return; }
  const keep = $("#bulk-action") ? [$("#bulk-action").value, $("#bulk-role").value] : ["", ""];
  slot.innerHTML = `<div class="bulk" id="bulk-bar"><b id="bulk-count">${n} selected</b>
    <select id="bulk-action">${opts([["activate", "Activate"], ["deactivate", "Deactivate"], ["set_role", "Change role…"], ["require_mfa", "Require 2FA"]], keep[0], "Bulk action…")}</select>
    <select id="bulk-role" ${keep[0] === "set_role" ? "" : "hidden"}>${opts(app.roles, keep[1], "New role…")}</select>
    <button class="btn primary" id="bulk-apply">Apply</button><button class="btn" id="bulk-clear">Clear selection</button></div>`;
  $("#bulk-action").onchange = e => { $("#bulk-role").hidden = e.target.value !== "set_role"; };
  $("#bulk-clear").onclick = () => { ui.selected.clear(); drawUsers(); };
  $("#bulk-apply").onclick = async () => {
    const action = $("#bulk-action").value, role = $("#bulk-role").value;
    if (!action) return toast("Choose a bulk action first");
    if (action === "set_role" && !role) return toast("Choose the new role");
    const names = app.users.filter(u => ui.selected.has(u.id)).map(u => u.name);
    const verb = { activate: "Activate", deactivate: "Deactivate", set_role: `Change the role to ${role} for`, require_mfa: "Require 2FA for" }[action];
    const ok = await modal(`${verb} ${names.length} user${names.length > 1 ? "s" : ""}?`,
      `<ul id="modal-list">${names.map(x => `<li>${esc(x)}</li>`).join("")}</ul>`, "Apply", action === "deactivate");
    if (!ok) return;
    const r = await api("POST", "users/bulk", { ids: [...ui.selected], action, role });
    if (r.status === 200) toast(`Updated ${r.data.updated} users`); else toast(Object.values(r.data.errors || {})[0] || "Failed");
    const { data } = await api("GET", "users"); app.users = data; drawUsers();
  };
}

// ---- user form ------------------------------------------------------------------------
async function showUser(id) {
  let u = { name: "", email: "", department: "", role: "Viewer", active: true, mfa: false, groups: [] };
  if (id) {
    const r = await api("GET", `users/${id}`);
    if (r.status !== 200) { $("#view").innerHTML = `<div class="banner error">${esc(r.data.error)}</div>`; return; }
    u = r.data;
  }
  const sw = (key, label, on) => `<label class="switch"><input type="checkbox" id="u-${key}" ${on ? "checked" : ""}><span class="track"></span><span>${label}</span></label>`;
  $("#view").innerHTML = `<h1>${id ? esc(u.name) : "Invite a user"}</h1>
    <p class="sub">${id ? `${esc(u.email)} · created ${u.created} · last login ${u.last_login || "never"}` : "They get an email with a sign-in link."}</p>
    <div id="banner"></div>
    <div class="panel form" id="user-form">
      <div class="row"><label for="u-name">Full name</label><div><input type="text" id="u-name" value="${esc(u.name)}"><div class="err" id="err-name"></div></div></div>
      <div class="row"><label for="u-email">Email</label><div><input type="text" id="u-email" value="${esc(u.email)}"><div class="err" id="err-email"></div></div></div>
      <div class="row"><label for="u-department">Department</label><div><select id="u-department">${opts(app.departments, u.department, "Choose…")}</select><div class="err" id="err-department"></div></div></div>
      <div class="row"><label for="u-role">Role</label><div><select id="u-role">${opts(app.roles, u.role)}</select><div class="hint">Viewers read, Editors change content, Managers approve, Admins manage the console.</div><div class="err" id="err-role"></div></div></div>
      ${id ? `<div class="row"><span class="lbl">Status</span><div>${sw("active", "Account active", u.active)}</div></div>
      <div class="row"><span class="lbl">Security</span><div>${sw("mfa", "Require two-factor sign-in", u.mfa)}</div></div>` : ""}
      <div class="row"><span class="lbl">Groups</span><div><div class="checks" id="u-groups">${app.groups.map(g => `<label><input type="checkbox" name="grp" value="${g.id}" ${u.groups.includes(g.id) ? "checked" : ""}> ${esc(g.name)}</label>`).join("")}</div><div class="err" id="err-groups"></div></div></div>
      <div class="form-actions"><button class="btn primary" id="u-save">${id ? "Save changes" : "Send invite"}</button><button class="btn" id="u-cancel">Cancel</button></div>
    </div>`;
  $("#u-cancel").onclick = () => { location.hash = "#users"; };
  $("#u-save").onclick = async () => {
    const body = { name: $("#u-name").value, email: $("#u-email").value, department: $("#u-department").value,
                   role: $("#u-role").value, groups: $$("input[name=grp]:checked").map(c => c.value) };
    if (id) { body.active = $("#u-active").checked; body.mfa = $("#u-mfa").checked; }
    if (id && u.active && !body.active && !(await modal(`Deactivate ${u.name}?`, `<p>They are signed out at once and cannot sign in until an admin re-activates the account.</p>`, "Deactivate", true))) return;
    const r = id ? await api("PUT", `users/${id}`, body) : await api("POST", "users", body);
    if (r.status === 200 || r.status === 201) { toast(id ? "Changes saved" : `Invite sent to ${r.data.email}`); location.hash = "#users"; return; }
    showErrors(r.data.errors); banner("error", "Please correct the highlighted fields.");
  };
}

// ---- groups & permissions ----------------------------------------------------------------
async function showGroups() {
  const [{ data: pm }, { data: users }] = await Promise.all([api("GET", "permissions"), api("GET", "users")]);
  const m = pm.matrix;
  const count = g => users.filter(u => u.groups.includes(g)).length;
  $("#view").innerHTML = `<h1>Groups &amp; permissions</h1><p class="sub">Tick what each group may do. Changes apply after you save.</p>
    <div id="banner"></div>
    <div class="panel"><table class="data matrix" id="perm-table"><thead><tr><th class="perm">Permission</th>${app.groups.map(g => `<th title="${esc(g.description)}">${esc(g.name)}<br><small>${count(g.id)} members</small></th>`).join("")}</tr></thead>
    <tbody>${app.permissions.map(p => `<tr><td class="perm"><code>${p.id}</code><small>${esc(p.label)}</small></td>${app.groups.map(g => `<td><input type="checkbox" class="perm" data-group="${g.id}" data-perm="${p.id}" ${m[g.id].includes(p.id) ? "checked" : ""}></td>`).join("")}</tr>`).join("")}</tbody></table></div>
    <div class="form-actions" style="border:0"><button class="btn primary" id="perm-save">Save permissions</button><button class="btn" id="perm-reset">Discard changes</button></div>`;
  $("#perm-reset").onclick = route;
  $("#perm-save").onclick = async () => {
    const next = {}, changes = [];
    for (const g of app.groups) next[g.id] = [];
    $$("input.perm").forEach(c => {
      if (c.checked) next[c.dataset.group].push(c.dataset.perm);
      const was = m[c.dataset.group].includes(c.dataset.perm), gname = app.groups.find(g => g.id === c.dataset.group).name;
      if (c.checked !== was) changes.push(`${c.checked ? "Grant" : "Revoke"} ${c.dataset.perm} ${c.checked ? "to" : "from"} ${gname}`);
    });
    if (!changes.length) return toast("Nothing to save");
    if (!(await modal(`Apply ${changes.length} permission change${changes.length > 1 ? "s" : ""}?`, `<ul id="modal-list">${changes.map(c => `<li>${esc(c)}</li>`).join("")}</ul>`, "Apply changes"))) return;
    const r = await api("PUT", "permissions", { matrix: next });
    if (r.status === 200) { toast("Permissions saved"); showGroups(); } else banner("error", Object.values(r.data.errors)[0]);
  };
}

// ---- settings -------------------------------------------------------------------------
const SECTIONS = {
  general: [
    ["org_name", "Organisation name", "text"], ["support_email", "Support email", "text"], ["website", "Website", "text", "Must start with https://"],
    ["timezone", "Default time zone", "select", () => app.timezones], ["language", "Default language", "select", () => app.languages],
    ["date_format", "Date format", "radio", () => app.date_formats.map(f => [f, f])],
    ["week_start", "Week starts on", "radio", () => [["monday", "Monday"], ["sunday", "Sunday"]]],
    ["fiscal_year_start", "Fiscal year starts in", "select", () => app.months], ["description", "Description", "textarea", "Shown on the sign-in page (300 characters at most)"]],
  security: [
    ["min_password_length", "Minimum password length", "number", "8 to 64 characters"], ["password_expiry_days", "Password expiry (days)", "number", "0 = passwords never expire"],
    ["session_timeout", "Session timeout (minutes)", "number", "Idle time before users are signed out"], ["max_login_attempts", "Max failed sign-ins", "number", "Before the account is locked for 15 minutes"],
    ["require_2fa", "Two-factor sign-in", "toggle", "Require 2FA for everyone"], ["sso_only", "Single sign-on", "toggle", "Only allow sign-in through SSO"],
    ["allowed_domains", "Allowed email domains", "textarea", "One domain per line; invites are limited to these"], ["ip_allowlist", "IP allowlist", "textarea", "One CIDR range per line; empty allows all"]],
  notifications: [
    ["alert_email", "Alert email", "text"], ["digest", "Activity digest", "radio", () => [["off", "Off"], ["daily", "Daily"], ["weekly", "Weekly"]]],
    ["notify_new_user", "New users", "toggle", "Email when someone joins"], ["notify_failed_login", "Failed sign-ins", "toggle", "Email after repeated failures"],
    ["notify_billing", "Billing", "toggle", "Email about invoices and payment problems"], ["notify_weekly_report", "Weekly report", "toggle", "Send the usage report every Monday"],
    ["slack_webhook", "Slack webhook", "text", "Optional, https://hooks.slack.com/…"]],
};
function fieldHtml([key, label, kind, extra], val) {
  const hint = typeof extra === "string" ? `<div class="hint">${esc(extra)}</div>` : "";
  let input;
  if (kind === "select") input = `<select id="s-${key}">${opts(extra(), val)}</select>`;
  else if (kind === "radio") input = `<div class="radios" id="s-${key}">${extra().map(([v, l]) => `<label><input type="radio" name="${key}" value="${esc(v)}" ${v === val ? "checked" : ""}> ${esc(l)}</label>`).join("")}</div>`;
  else if (kind === "toggle") input = `<label class="switch"><input type="checkbox" id="s-${key}" ${val ? "checked" : ""}><span class="track"></span><span>${esc(extra)}</span></label>`;
  else if (kind === "textarea") input = `<textarea id="s-${key}" rows="2">${esc(val)}</textarea>${hint}`;
  else input = `<input type="${kind === "number" ? "number" : "text"}" id="s-${key}" value="${esc(val)}">${hint}`;
  return `<div class="row" id="row-${key}"><${kind === "radio" || kind === "toggle" ? "span class=\"lbl\"" : `label for="s-${key}"`}>${esc(label)}</${kind === "radio" || kind === "toggle" ? "span" : "label"}><div>${input}<div class="err" id="err-${key}"></div></div></div>`;
}
async function showSettings(section) {
  if (!SECTIONS[section]) section = "general";
  const { data } = await api("GET", "settings");
  const cur = data[section], fields = SECTIONS[section];
  const title = { general: "General", security: "Security", notifications: "Notifications" }[section];
  $("#view").innerHTML = `<h1>Organisation settings</h1>
    <div class="tabs">${Object.keys(SECTIONS).map(s => `<a href="#settings/${s}" class="${s === section ? "on" : ""}" id="tab-${s}">${s[0].toUpperCase() + s.slice(1)}</a>`).join("")}</div>
    <div id="banner"></div>
    <div class="panel form" id="settings-form" data-section="${section}">${fields.map(f => fieldHtml(f, cur[f[0]])).join("")}
      <div class="form-actions"><button class="btn primary" id="settings-save">Save ${title.toLowerCase()} settings</button><button class="btn" id="settings-discard">Discard changes</button></div></div>`;
  $("#settings-discard").onclick = () => showSettings(section);
  $("#settings-save").onclick = async () => {
    const body = {};
    for (const [key, , kind] of fields) {
      if (kind === "radio") body[key] = ($(`input[name=${key}]:checked`) || {}).value || "";
      else if (kind === "toggle") body[key] = $(`#s-${key}`).checked;
      else body[key] = $(`#s-${key}`).value;
    }
    const changed = fields.filter(([k]) => String(body[k]) !== String(cur[k])).map(([, l]) => l);
    if (!changed.length) return toast("No changes to save");
    if (section === "security" && !(await modal("Apply security settings?",
      `<p>These changes affect how every member signs in:</p><ul id="modal-list">${changed.map(c => `<li>${esc(c)}</li>`).join("")}</ul>`, "Apply"))) return;
    const r = await api("PUT", `settings/${section}`, body);
    if (r.status === 200) {
      showErrors({});
      await showSettings(section);
      banner("ok", `${title} settings saved.`);
      if (section === "general") { app.org = r.data.org_name; $("#org-name").textContent = app.org; }
      return;
    }
    showErrors(r.data.errors); banner("error", "Some settings are not valid; nothing was saved.");
  };
}

// ---- audit log ------------------------------------------------------------------------
async function showAudit() {
  const [{ data }, { data: users }] = await Promise.all([api("GET", "audit"), api("GET", "users")]);
  app.audit = data; app.users = users;
  const a = ui.audit;
  const actors = [...new Set(data.map(e => e.actor))].sort(), actions = [...new Set(data.map(e => e.action))].sort();
  $("#view").innerHTML = `<h1>Audit log</h1><p class="sub">Every change to users, groups and settings, newest first.</p>
    <div class="filters"><input type="search" id="audit-search" placeholder="Search target or details" value="${esc(a.q)}">
      <select id="audit-actor">${opts(actors, a.actor, "All actors")}</select><select id="audit-action">${opts(actions, a.action, "All actions")}</select></div>
    <div class="panel"><table class="data" id="audit-table"><thead><tr><th>Time</th><th>Actor</th><th>Action</th><th>Target</th><th>Details</th></tr></thead><tbody></tbody></table>
    <div class="pager"><span id="audit-info"></span><div class="pages" id="audit-pages"></div></div></div>`;
  $("#audit-search").oninput = e => { a.q = e.target.value; a.page = 1; drawAudit(); };
  $("#audit-actor").onchange = e => { a.actor = e.target.value; a.page = 1; drawAudit(); };
  $("#audit-action").onchange = e => { a.action = e.target.value; a.page = 1; drawAudit(); };
  drawAudit();
}
function targetCell(target) {   // a user's email opens their page in a new tab
  const u = (app.users || []).find(x => x.email === target);
  return u ? `<a href="#users/${u.id}" target="_blank" class="audit-user" title="Open ${esc(u.name)} in a new tab">${esc(target)}</a>` : esc(target);
}
function drawAudit() {
  const a = ui.audit, PER = 15, q = a.q.trim().toLowerCase();
  const list = app.audit.filter(e => (!a.actor || e.actor === a.actor) && (!a.action || e.action === a.action)
    && (!q || e.target.toLowerCase().includes(q) || e.detail.toLowerCase().includes(q)));
  const pages = Math.max(1, Math.ceil(list.length / PER));
  a.page = Math.min(a.page, pages);
  $("#audit-table tbody").innerHTML = list.slice((a.page - 1) * PER, a.page * PER).map(e => `<tr data-audit-id="${e.id}"><td>${e.time}</td><td>${esc(e.actor)}</td><td><code>${e.action}</code></td><td>${targetCell(e.target)}</td><td>${esc(e.detail)}</td></tr>`).join("")
    || `<tr><td colspan="5" style="text-align:center;color:#667085">No entries match.</td></tr>`;
  $("#audit-info").textContent = `${list.length} entries · page ${a.page} of ${pages}`;
  $("#audit-pages").innerHTML = `<button class="btn page-btn" id="audit-prev" ${a.page === 1 ? "disabled" : ""}>‹ Newer</button><button class="btn page-btn" id="audit-next" ${a.page === pages ? "disabled" : ""}>Older ›</button>`;
  $("#audit-prev").onclick = () => { a.page--; drawAudit(); };
  $("#audit-next").onclick = () => { a.page++; drawAudit(); };
}

(async function boot() {
  const { data } = await api("GET", "bootstrap");
  Object.assign(app, data);
  $("#org-name").textContent = app.org;
  $("#actor").textContent = app.actor;
  await route();
  WebApp.drawn();
})();
