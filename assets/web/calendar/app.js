// Calendar app: month/week views, event form with a date picker, room availability. Talks to /calendar/api/.
"use strict";
const API = "/calendar/api/";
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DOW = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const app = { today: null, rooms: [], people: [] };
const call = WebApp.client(API), api = (method, path, body) => call(path, { method, body });
const { esc, toast } = WebApp;
const $ = (sel, root = document) => root.querySelector(sel);
const pad = n => String(n).padStart(2, "0");
const iso = d => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const parse = s => { const [y, m, d] = s.split("-").map(Number); return new Date(y, m - 1, d); };
const addDays = (d, n) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
const monday = d => addDays(d, -((d.getDay() + 6) % 7));
const mins = t => { const [h, m] = t.split(":").map(Number); return h * 60 + m; };
const hhmm = m => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
const longDate = d => `${["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][d.getDay()]}, ${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
const roomName = id => (app.rooms.find(r => r.id === id) || {}).name || "";

function modal(html) {
  const root = $("#modal-root");
  root.innerHTML = `<div class="backdrop"><div class="modal" role="dialog">${html}</div></div>`;
  root.querySelector(".backdrop").addEventListener("mousedown", e => { if (e.target.classList.contains("backdrop")) closeModal(); });
  return root.querySelector(".modal");
}
function closeModal() { $("#modal-root").innerHTML = ""; }
document.addEventListener("keydown", e => { if (e.key === "Escape") { closeModal(); document.querySelectorAll(".picker").forEach(p => p.remove()); } });

// ---- router -------------------------------------------------------------------
function route() {
  closeModal();
  const [path, qs] = location.hash.replace(/^#/, "").split("?");
  const q = new URLSearchParams(qs || "");
  const [name, arg] = path.split("/");
  document.querySelectorAll(".topbar nav a").forEach(a => a.classList.remove("active"));
  $(name === "rooms" ? "#nav-rooms" : "#nav-calendar").classList.add("active");
  if (name === "week") return showWeek(arg ? parse(arg) : parse(app.today));
  if (name === "new") return showForm(null, q);
  if (name === "edit") return showForm(Number(arg), q);
  if (name === "rooms") return showRooms(arg || app.today);
  return showMonth(arg || app.today.slice(0, 7));
}
window.addEventListener("hashchange", route);

function toolbar(label, view, prev, next) {
  return `<div class="toolbar">
    <button class="btn" id="today">Today</button>
    <button class="btn icon" id="prev" title="Previous">&#8249;</button>
    <button class="btn icon" id="next" title="Next">&#8250;</button>
    <h2 id="period">${esc(label)}</h2>
    <div class="seg"><button class="btn ${view === "month" ? "on" : ""}" id="view-month">Month</button><button class="btn ${view === "week" ? "on" : ""}" id="view-week">Week</button></div>
    <button class="btn primary" id="new-event">+ New event</button>
  </div>`;
}
function wireToolbar(prev, next, weekOf) {
  $("#today").onclick = () => { location.hash = weekOf ? `#week/${app.today}` : `#month/${app.today.slice(0, 7)}`; };
  $("#prev").onclick = () => { location.hash = prev; };
  $("#next").onclick = () => { location.hash = next; };
  $("#view-month").onclick = () => { location.hash = `#month/${(weekOf || app.today).slice(0, 7)}`; };
  $("#view-week").onclick = () => { location.hash = `#week/${weekOf || app.today}`; };
  $("#new-event").onclick = () => { location.hash = "#new"; };
}

// ---- month view -----------------------------------------------------------------
async function showMonth(ym) {
  const [y, m] = ym.split("-").map(Number);
  const first = new Date(y, m - 1, 1), start = monday(first), end = addDays(start, 41);
  const prev = `#month/${iso(new Date(y, m - 2, 1)).slice(0, 7)}`, next = `#month/${iso(new Date(y, m, 1)).slice(0, 7)}`;
  const { data } = await api("GET", `events?from=${iso(start)}&to=${iso(end)}`);
  const byDay = {};
  for (const e of data) (byDay[e.date] = byDay[e.date] || []).push(e);
  let cells = DOW.map(d => `<div class="dow">${d}</div>`).join("");
  for (let i = 0; i < 42; i++) {
    const d = addDays(start, i), key = iso(d);
    const evs = (byDay[key] || []).sort((a, b) => a.start.localeCompare(b.start));
    const shown = evs.slice(0, evs.length > 3 ? 2 : 3);
    cells += `<div class="cell ${d.getMonth() !== m - 1 ? "other" : ""} ${key === app.today ? "today" : ""}" data-date="${key}">
      <span class="daynum" data-week="${key}">${d.getDate()}</span>
      ${shown.map(e => `<span class="chip ${e.room ? "room" : ""}" data-id="${e.id}" title="${esc(e.title)}">${e.start} ${esc(e.title)}</span>`).join("")}
      ${evs.length > shown.length ? `<span class="more" data-week="${key}">+${evs.length - shown.length} more</span>` : ""}
    </div>`;
  }
  $("#view").innerHTML = toolbar(`${MONTHS[m - 1]} ${y}`, "month") + `<div class="month" id="month-grid">${cells}</div>`;
  wireToolbar(prev, next, null);
  wireEvents(data);
  document.querySelectorAll("[data-week]").forEach(el => { el.onclick = () => { location.hash = `#week/${el.dataset.week}`; }; });
}

function wireEvents(events) {
  document.querySelectorAll("[data-id]").forEach(el => {
    el.onclick = ev => { ev.stopPropagation(); showDetails(events.find(e => e.id === Number(el.dataset.id))); };
  });
}

// ---- week view -------------------------------------------------------------------
async function showWeek(day) {
  const start = monday(day), end = addDays(start, 6);
  const { data } = await api("GET", `events?from=${iso(start)}&to=${iso(end)}`);
  const label = start.getMonth() === end.getMonth()
    ? `${MONTHS[start.getMonth()]} ${start.getDate()} – ${end.getDate()}, ${end.getFullYear()}`
    : `${MONTHS[start.getMonth()].slice(0, 3)} ${start.getDate()} – ${MONTHS[end.getMonth()].slice(0, 3)} ${end.getDate()}, ${end.getFullYear()}`;
  const H0 = 7, H1 = 21, PX = 36;
  let head = `<div class="head"></div>`, body = `<div class="hours">${Array.from({ length: H1 - H0 }, (_, i) => `<div class="hour">${pad(H0 + i)}:00</div>`).join("")}</div>`;
  for (let i = 0; i < 7; i++) {
    const d = addDays(start, i), key = iso(d);
    head += `<div class="head ${key === app.today ? "today" : ""}">${DOW[i]}<b>${d.getDate()}</b></div>`;
    const blocks = data.filter(e => e.date === key).map(e => {
      const top = (mins(e.start) - H0 * 60) * PX / 60, h = Math.max(18, (mins(e.end) - mins(e.start)) * PX / 60 - 2);
      return `<div class="block ${e.room ? "room" : ""}" data-id="${e.id}" style="top:${top}px;height:${h}px" title="${esc(e.title)}"><b>${esc(e.title)}</b><br>${e.start}–${e.end}</div>`;
    }).join("");
    body += `<div class="col" data-date="${key}">${Array.from({ length: H1 - H0 }, () => `<div class="slot"></div>`).join("")}${blocks}</div>`;
  }
  $("#view").innerHTML = toolbar(label, "week") + `<div class="week scroll-week" id="week-grid">${head}${body}</div>`;
  wireToolbar(`#week/${iso(addDays(start, -7))}`, `#week/${iso(addDays(start, 7))}`, iso(start));
  wireEvents(data);
}

// ---- event details, delete -----------------------------------------------------------
function showDetails(e) {
  const m = modal(`<h3 id="detail-title">${esc(e.title)}</h3>
    <dl>
      <dt>When</dt><dd id="detail-when">${longDate(parse(e.date))}, ${e.start} – ${e.end}</dd>
      <dt>Where</dt><dd id="detail-where">${esc(e.location) || "—"}${e.room ? ` (room booked)` : ""}</dd>
      ${e.series ? `<dt>Repeats</dt><dd id="detail-series">Every week (part of a series)</dd>` : ""}
      <dt>Guests</dt><dd id="detail-guests">${e.attendees.length ? e.attendees.map(esc).join(", ") : "Only you"}</dd>
      ${e.notes ? `<dt>Notes</dt><dd>${esc(e.notes)}</dd>` : ""}
    </dl>
    <div class="actions"><button class="btn primary" id="detail-edit">Edit</button><button class="btn danger" id="detail-delete">Delete</button><button class="btn" id="detail-close" style="margin-left:auto">Close</button></div>`);
  $("#detail-close", m).onclick = closeModal;
  $("#detail-edit", m).onclick = () => { location.hash = `#edit/${e.id}`; };
  $("#detail-delete", m).onclick = () => {
    const c = modal(`<h3>Delete event?</h3><p>“${esc(e.title)}” on ${longDate(parse(e.date))} at ${e.start} will be removed for everyone.</p>
      <div class="actions"><button class="btn" id="confirm-cancel" style="margin-left:auto">Cancel</button>${e.series ? `<button class="btn danger" id="confirm-delete-series">Delete all in the series</button>` : ""}<button class="btn primary" id="confirm-delete">${e.series ? "Delete this one" : "Delete"}</button></div>`);
    const remove = async all => {
      const r = await api("DELETE", `events/${e.id}${all ? "?series=1" : ""}`);
      closeModal();
      toast(r.status === 200 ? (r.data.deleted.length > 1 ? `${r.data.deleted.length} events deleted` : "Event deleted") : (r.data.error || "Could not delete"));
      route();
    };
    $("#confirm-cancel", c).onclick = closeModal;
    $("#confirm-delete", c).onclick = () => remove(false);
    if (e.series) $("#confirm-delete-series", c).onclick = () => remove(true);
  };
}

// ---- date picker ---------------------------------------------------------------
function attachPicker(input, button, onPick) {
  button.onclick = ev => {
    ev.preventDefault();
    const open = input.parentElement.querySelector(".picker");
    if (open) { open.remove(); return; }
    let shown = /^\d{4}-\d{2}-\d{2}$/.test(input.value) ? parse(input.value) : parse(app.today);
    shown = new Date(shown.getFullYear(), shown.getMonth(), 1);
    const p = document.createElement("div");
    p.className = "picker"; p.id = "picker";
    input.parentElement.appendChild(p);
    const draw = () => {
      const s = monday(shown);
      let g = DOW.map(d => `<span class="pd">${d.slice(0, 2)}</span>`).join("");
      for (let i = 0; i < 42; i++) {
        const d = addDays(s, i), k = iso(d);
        g += `<button type="button" data-date="${k}" class="${d.getMonth() !== shown.getMonth() ? "out" : ""} ${k === input.value ? "sel" : ""} ${k === app.today ? "tod" : ""}">${d.getDate()}</button>`;
      }
      p.innerHTML = `<div class="ph"><button type="button" class="btn icon" id="picker-prev">&#8249;</button><span id="picker-label">${MONTHS[shown.getMonth()]} ${shown.getFullYear()}</span><button type="button" class="btn icon" id="picker-next">&#8250;</button></div><div class="pg">${g}</div>`;
      $("#picker-prev", p).onclick = () => { shown = new Date(shown.getFullYear(), shown.getMonth() - 1, 1); draw(); };
      $("#picker-next", p).onclick = () => { shown = new Date(shown.getFullYear(), shown.getMonth() + 1, 1); draw(); };
      p.querySelectorAll("[data-date]").forEach(b => { b.onclick = () => { input.value = b.dataset.date; p.remove(); onPick && onPick(b.dataset.date); }; });
    };
    draw();
  };
}

// ---- event form ------------------------------------------------------------------
function timeOptions(sel) {
  let o = "";
  for (let m = 7 * 60; m <= 21 * 60; m += 15) o += `<option ${hhmm(m) === sel ? "selected" : ""}>${hhmm(m)}</option>`;
  return o;
}

async function showForm(id, q) {
  let e = { title: "", date: app.today, start: "09:00", end: "10:00", room: "", location: "", attendees: [], notes: "" };
  if (id) {
    const r = await api("GET", `events/${id}`);
    if (r.status !== 200) { $("#view").innerHTML = `<div class="banner error">${esc(r.data.error)}</div>`; return; }
    e = r.data;
  }
  for (const k of ["title", "date", "start", "end", "room", "location"]) if (q.has(k)) e[k] = q.get(k);
  const people = app.people.map(p => `<label><input type="checkbox" name="att" value="${esc(p)}" ${e.attendees.includes(p) ? "checked" : ""}> ${esc(p)}</label>`).join("");
  $("#view").innerHTML = `<div class="card" id="event-form">
    <h2>${id ? "Edit event" : "New event"}</h2>
    <div id="form-banner"></div>
    <div class="form-grid">
      <div class="field wide" id="f-title"><label for="title">Title</label><input type="text" id="title" value="${esc(e.title)}" placeholder="Add a title" autocomplete="off"><div class="err" id="err-title"></div></div>
      <div class="field" id="f-date"><label for="date">Date (YYYY-MM-DD)</label><div class="date-wrap"><input type="text" id="date" value="${esc(e.date)}" autocomplete="off"><button class="btn icon" id="date-btn" title="Choose a date"><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="2.5" width="13" height="12" rx="1.5" fill="none" stroke="currentColor"/><path d="M1.5 6h13M5 1v3M11 1v3" stroke="currentColor"/></svg></button></div><div class="err" id="err-date"></div></div>
      <div class="field" id="f-time"><label>Time</label><div class="times"><select id="start">${timeOptions(e.start)}</select> to <select id="end">${timeOptions(e.end)}</select></div><div class="err" id="err-start"></div><div class="err" id="err-end"></div></div>
      <div class="field" id="f-room"><label for="room">Room</label><select id="room"><option value="">No room</option>${app.rooms.map(r => `<option value="${r.id}" ${r.id === e.room ? "selected" : ""}>${esc(r.name)} · ${r.capacity} seats · floor ${r.floor}</option>`).join("")}</select><div class="err" id="err-room"></div></div>
      <div class="field" id="f-location"><label for="location">Location</label><input type="text" id="location" value="${esc(e.location)}" placeholder="Add a location" autocomplete="off"><div class="err" id="err-location"></div></div>
      <div class="field wide" id="f-attendees"><label>Guests</label><div class="people" id="attendees">${people}</div><div class="err" id="err-attendees"></div></div>
      ${id ? "" : `<div class="field" id="f-repeat"><label for="repeat">Repeat</label><div class="times"><select id="repeat" style="width:170px"><option value="1">Does not repeat</option><option value="weekly">Every week</option></select><select id="occurrences" hidden>${[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(n => `<option value="${n}">${n} times</option>`).join("")}</select></div><div class="err" id="err-repeat"></div></div>`}
      <div class="field ${id ? "wide" : ""}"><label for="notes">Notes</label><textarea id="notes" rows="${id ? 2 : 1}">${esc(e.notes)}</textarea></div>
    </div>
    <div class="actions"><button class="btn primary" id="save">Save</button><button class="btn" id="cancel">Cancel</button></div>
  </div>`;
  attachPicker($("#date"), $("#date-btn"));
  $("#room").onchange = () => { const n = roomName($("#room").value); if (n && !$("#location").value) $("#location").value = n; };
  $("#cancel").onclick = () => history.back();
  if ($("#repeat")) $("#repeat").onchange = () => { $("#occurrences").hidden = $("#repeat").value !== "weekly"; };
  const collect = confirm => ({
    title: $("#title").value, date: $("#date").value.trim(), start: $("#start").value, end: $("#end").value,
    room: $("#room").value || null, location: $("#location").value, notes: $("#notes").value,
    attendees: [...document.querySelectorAll("input[name=att]:checked")].map(c => c.value), confirm_conflicts: confirm,
    repeat_weeks: $("#repeat") && $("#repeat").value === "weekly" ? Number($("#occurrences").value) : 1,
  });
  const save = async confirm => {
    document.querySelectorAll(".field").forEach(f => f.classList.remove("invalid"));
    document.querySelectorAll(".err").forEach(x => { x.textContent = ""; });
    $("#form-banner").innerHTML = "";
    const body = collect(confirm);
    const r = id ? await api("PUT", `events/${id}`, body) : await api("POST", "events", body);
    if (r.status === 200 || r.status === 201) {
      toast(id ? "Event updated" : body.repeat_weeks > 1 ? `${body.repeat_weeks} weekly events created` : "Event created");
      location.hash = `#month/${r.data.date.slice(0, 7)}`;
      return;
    }
    if (r.status === 422) {
      for (const [k, msg] of Object.entries(r.data.errors)) {
        const el = $(`#err-${k}`);
        if (el) { el.textContent = msg; el.closest(".field").classList.add("invalid"); }
      }
      $("#form-banner").innerHTML = `<div class="banner error" id="form-error">Please fix the highlighted fields.</div>`;
    } else if (r.status === 409) {
      $("#form-banner").innerHTML = `<div class="banner warn" id="conflict"><b>This overlaps with ${r.data.conflicts.length === 1 ? "another event" : r.data.conflicts.length + " events"} in your calendar:</b>
        <ul>${r.data.conflicts.map(c => `<li>${esc(c.title)}, ${c.start}–${c.end}</li>`).join("")}</ul>
        <button class="btn" id="save-anyway">Save anyway</button> <button class="btn" id="conflict-back">Change time</button></div>`;
      $("#save-anyway").onclick = () => save(true);
      $("#conflict-back").onclick = () => { $("#form-banner").innerHTML = ""; };
    } else {
      $("#form-banner").innerHTML = `<div class="banner error">${esc(r.data.error || "Something went wrong")}</div>`;
    }
  };
  $("#save").onclick = () => save(false);
}

// ---- rooms -----------------------------------------------------------------------
async function showRooms(date) {
  const { data } = await api("GET", `rooms?date=${date}`);
  const d = parse(date), T0 = 8 * 60, T1 = 18 * 60, STEP = 30;
  let head = `<tr><th class="rname">Room</th>`;
  for (let t = T0; t < T1; t += STEP) head += `<th>${t % 60 === 0 ? hhmm(t) : ""}</th>`;
  head += "</tr>";
  let rows = "";
  for (const room of data.rooms) {
    const mine = data.bookings.filter(b => b.room === room.id);
    rows += `<tr data-room="${room.id}"><th class="rname">${esc(room.name)}<small>${room.capacity} seats · floor ${room.floor} · ${esc(room.equipment)}</small></th>`;
    for (let t = T0; t < T1;) {
      const b = mine.find(x => mins(x.start) <= t && t < mins(x.end));
      if (b) {
        const until = Math.min(T1, mins(b.end)), span = Math.ceil((until - t) / STEP);
        rows += `<td colspan="${span}" class="${b.owner === "me" ? "mine" : "busy"}" title="${esc(b.title)} ${b.start}–${b.end}">${b.owner === "me" ? esc(b.title) : "Busy"}</td>`;
        t += span * STEP;
      } else {
        rows += `<td class="free" data-start="${hhmm(t)}" title="Book ${esc(room.name)} at ${hhmm(t)}"></td>`;
        t += STEP;
      }
    }
    rows += "</tr>";
  }
  $("#view").innerHTML = `<div class="toolbar">
      <button class="btn" id="room-today">Today</button>
      <button class="btn icon" id="room-prev" title="Previous day">&#8249;</button>
      <button class="btn icon" id="room-next" title="Next day">&#8250;</button>
      <h2 id="room-label">${longDate(d)}</h2>
      <div class="date-wrap" style="margin-left:auto"><input type="text" id="room-date" value="${date}" style="width:120px;padding:6px"><button class="btn icon" id="room-date-btn" title="Choose a date"><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><rect x="1.5" y="2.5" width="13" height="12" rx="1.5" fill="none" stroke="currentColor"/><path d="M1.5 6h13M5 1v3M11 1v3" stroke="currentColor"/></svg></button><button class="btn" id="room-go">Go</button></div>
    </div>
    <div class="legend"><span><i style="background:#fff"></i>Free — click a slot to book it</span><span><i style="background:#e0e0e0"></i>Booked by others</span><span><i style="background:#34a853"></i>Your bookings</span></div>
    <table class="grid-rooms" id="rooms-grid"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
  const go = v => { location.hash = `#rooms/${v}`; };
  $("#room-today").onclick = () => go(app.today);
  $("#room-prev").onclick = () => go(iso(addDays(d, -1)));
  $("#room-next").onclick = () => go(iso(addDays(d, 1)));
  $("#room-go").onclick = () => { const v = $("#room-date").value.trim(); if (/^\d{4}-\d{2}-\d{2}$/.test(v)) go(v); };
  $("#room-date").onkeydown = e => { if (e.key === "Enter") $("#room-go").click(); };
  attachPicker($("#room-date"), $("#room-date-btn"), go);
  document.querySelectorAll("#rooms-grid td.free").forEach(td => {
    td.onclick = () => {
      const room = td.parentElement.dataset.room, s = td.dataset.start;
      location.hash = `#new?date=${date}&start=${s}&end=${hhmm(Math.min(mins(s) + 60, 21 * 60))}&room=${room}`;
    };
  });
}

(async function boot() {
  const { data } = await api("GET", "bootstrap");
  Object.assign(app, data);
  await route();
  WebApp.drawn();
})();
