/* The phone shell: launcher, status bar, notification shade, back stack, recents, on-screen keyboard,
   and the app contract (phone.register / ctx) documented in docs/mobile-suite.md.
   Time comes from the page clock (Date), which the env may replace with Playwright's clock. */
(() => {
  'use strict';
  const LAUNCHER_ORDER = ['contacts', 'messages', 'dialer', 'clock', 'calendar',
    'notes', 'settings', 'files', 'gallery', 'expenses'];
  const ICONS = {
    back: 'M20 11H7.83l5.59-5.59L12 4l-8 8 8 8 1.41-1.41L7.83 13H20v-2z',
    add: 'M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6v2z',
    search: 'M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14z',
    delete: 'M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z',
    star: 'M12 17.27L18.18 21l-1.64-7.03L22 9.24l-7.19-.61L12 2 9.19 8.63 2 9.24l5.46 4.73L5.82 21z',
    star_border: 'M22 9.24l-7.19-.62L12 2 9.19 8.63 2 9.24l5.46 4.73L5.82 21 12 17.27 18.18 21l-1.63-7.03L22 9.24zM12 15.4l-3.76 2.27 1-4.28-3.32-2.88 4.38-.38L12 6.1l1.71 4.04 4.38.38-3.32 2.88 1 4.28L12 15.4z',
    edit: 'M3 17.25V21h3.75L17.81 9.94l-3.75-3.75L3 17.25zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75 1.83-1.83z',
    call: 'M6.62 10.79c1.44 2.83 3.76 5.14 6.59 6.59l2.2-2.2c.27-.27.67-.36 1.02-.24 1.12.37 2.33.57 3.57.57.55 0 1 .45 1 1V20c0 .55-.45 1-1 1-9.39 0-17-7.61-17-17 0-.55.45-1 1-1h3.5c.55 0 1 .45 1 1 0 1.25.2 2.45.57 3.57.11.35.03.74-.25 1.02l-2.2 2.2z',
    call_end: 'M12 9c-1.6 0-3.15.25-4.6.72v3.1c0 .39-.23.74-.56.9-.98.49-1.87 1.12-2.66 1.85-.18.18-.43.28-.7.28-.28 0-.53-.11-.71-.29L.29 13.08a.96.96 0 0 1-.29-.7c0-.28.11-.53.29-.71C3.34 8.78 7.46 7 12 7s8.66 1.78 11.71 4.67c.18.18.29.43.29.71 0 .28-.11.53-.29.71l-2.48 2.48c-.18.18-.43.29-.71.29-.27 0-.52-.11-.7-.28a11.3 11.3 0 0 0-2.67-1.85 1 1 0 0 1-.56-.9v-3.1C15.15 9.25 13.6 9 12 9z',
    call_made: 'M9 5v2h6.59L4 18.59 5.41 20 17 8.41V15h2V5z',
    call_received: 'M20 5.41L18.59 4 7 15.59V9H5v10h10v-2H8.41z',
    call_missed: 'M19.59 7L12 14.59 6.41 9H11V7H3v8h2v-4.59l7 7 9-9z',
    chat: 'M20 2H4c-1.1 0-1.99.9-1.99 2L2 22l4-4h14c1.1 0 2-.9 2-2V4c0-1.1-.9-2-2-2zM6 9h12v2H6V9zm8 5H6v-2h8v2zm4-6H6V6h12v2z',
    send: 'M2.01 21L23 12 2.01 3 2 10l15 2-15 2z',
    person: 'M12 12c2.21 0 4-1.79 4-4s-1.79-4-4-4-4 1.79-4 4 1.79 4 4 4zm0 2c-2.67 0-8 1.34-8 4v2h16v-2c0-2.66-5.33-4-8-4z',
    alarm: 'M22 5.72l-4.6-3.86-1.29 1.53 4.6 3.86L22 5.72zM7.88 3.39L6.6 1.86 2 5.71l1.29 1.53 4.59-3.85zM12.5 8H11v6l4.75 2.85.75-1.23-4-2.37V8zM12 4c-4.97 0-9 4.03-9 9s4.02 9 9 9a9 9 0 0 0 0-18zm0 16c-3.87 0-7-3.13-7-7s3.13-7 7-7 7 3.13 7 7-3.13 7-7 7z',
    event: 'M19 3h-1V1h-2v2H8V1H6v2H5c-1.11 0-1.99.9-1.99 2L3 19a2 2 0 0 0 2 2h14c1.1 0 2-.9 2-2V5c0-1.1-.9-2-2-2zm0 16H5V8h14v11zM7 10h5v5H7z',
    timer: 'M15 1H9v2h6V1zm-4 13h2V8h-2v6zm8.03-6.61l1.42-1.42c-.43-.51-.9-.99-1.41-1.41l-1.42 1.42A8.96 8.96 0 0 0 12 4c-4.97 0-9 4.03-9 9s4.02 9 9 9 9-4.03 9-9c0-2.12-.74-4.07-1.97-5.61zM12 20c-3.87 0-7-3.13-7-7s3.13-7 7-7 7 3.13 7 7-3.13 7-7 7z',
    clock: 'M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8zm.5-13H11v6l5.25 3.15.75-1.23-4.5-2.67z',
    history: 'M13 3a9 9 0 0 0-9 9H1l3.89 3.89.07.14L9 12H6c0-3.87 3.13-7 7-7s7 3.13 7 7-3.13 7-7 7c-1.93 0-3.68-.79-4.94-2.06l-1.42 1.42A8.95 8.95 0 0 0 13 21a9 9 0 0 0 0-18zm-1 5v5l4.28 2.54.72-1.21-3.5-2.08V8H12z',
    dialpad: 'M12 19c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zM6 1c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0 6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0 6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm12-8c1.1 0 2-.9 2-2s-.9-2-2-2-2 .9-2 2 .9 2 2 2zm-6 8c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm6 0c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0-6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm-6 0c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0-6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2z',
    backspace: 'M22 3H7c-.69 0-1.23.35-1.59.88L0 12l5.41 8.11c.36.53.9.89 1.59.89h15c1.1 0 2-.9 2-2V5c0-1.1-.9-2-2-2zm-3 12.59L17.59 17 14 13.41 10.41 17 9 15.59 12.41 12 9 8.41 10.41 7 14 10.59 17.59 7 19 8.41 15.41 12 19 15.59z',
    more: 'M12 8c1.1 0 2-.9 2-2s-.9-2-2-2-2 .9-2 2 .9 2 2 2zm0 2c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0 6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2z',
    close: 'M19 6.41L17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.59 17.59 19 19 17.59 13.41 12z',
    check: 'M9 16.17L4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z',
    mail: 'M20 4H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V6c0-1.1-.9-2-2-2zm0 4l-8 5-8-5V6l8 5 8-5v2z',
    place: 'M12 2C8.13 2 5 5.13 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.87-3.13-7-7-7zm0 9.5a2.5 2.5 0 0 1 0-5 2.5 2.5 0 0 1 0 5z',
    notes: 'M3 18h12v-2H3v2zM3 6v2h18V6H3zm0 7h18v-2H3v2z',
    play: 'M8 5v14l11-7z',
    pause: 'M6 19h4V5H6v14zm8-14v14h4V5h-4z',
    stop: 'M6 6h12v12H6z',
    flag: 'M14.4 6L14 4H5v17h2v-7h5.6l.4 2h7V6z',
    left: 'M15.41 7.41L14 6l-6 6 6 6 1.41-1.41L10.83 12z',
    right: 'M10 6L8.59 7.41 13.17 12l-4.58 4.59L10 18l6-6z',
    up: 'M7.41 15.41L12 10.83l4.59 4.58L18 14l-6-6-6 6z',
    down: 'M7.41 8.59L12 13.17l4.59-4.58L18 10l-6 6-6-6z',
    wifi: 'M1 9l2 2c4.97-4.97 13.03-4.97 18 0l2-2C16.93 2.93 7.08 2.93 1 9zm8 8l3 3 3-3a4.24 4.24 0 0 0-6 0zm-4-4l2 2a7.07 7.07 0 0 1 10 0l2-2C15.14 9.14 8.87 9.14 5 13z',
    bluetooth: 'M17.71 7.71L12 2h-1v7.59L6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 11 14.41V22h1l5.71-5.71-4.3-4.29 4.3-4.29zM13 5.83l1.88 1.88L13 9.59V5.83zm1.88 10.46L13 18.17v-3.76l1.88 1.88z',
    airplane: 'M21 16v-2l-8-5V3.5c0-.83-.67-1.5-1.5-1.5S10 2.67 10 3.5V9l-8 5v2l8-2.5V19l-2 1.5V22l3.5-1 3.5 1v-1.5L13 19v-5.5l8 2.5z',
    dnd: 'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm5 11H7v-2h10v2z',
    settings: 'M19.14 12.94c.04-.3.06-.61.06-.94 0-.32-.02-.64-.07-.94l2.03-1.58a.49.49 0 0 0 .12-.61l-1.92-3.32a.49.49 0 0 0-.59-.22l-2.39.96c-.5-.38-1.03-.7-1.62-.94l-.36-2.54a.48.48 0 0 0-.48-.41h-3.84c-.24 0-.43.17-.47.41l-.36 2.54c-.59.24-1.13.57-1.62.94l-2.39-.96a.49.49 0 0 0-.59.22L2.74 8.87c-.12.21-.08.47.12.61l2.03 1.58c-.05.3-.09.63-.09.94s.02.64.07.94l-2.03 1.58a.49.49 0 0 0-.12.61l1.92 3.32c.12.22.37.29.59.22l2.39-.96c.5.38 1.03.7 1.62.94l.36 2.54c.05.24.24.41.48.41h3.84c.24 0 .44-.17.47-.41l.36-2.54c.59-.24 1.13-.56 1.62-.94l2.39.96c.22.08.47 0 .59-.22l1.92-3.32c.12-.22.07-.47-.12-.61l-2.01-1.58zM12 15.6A3.6 3.6 0 1 1 12 8.4a3.6 3.6 0 0 1 0 7.2z',
  };
  const DEFAULT_SETTINGS = { wifi: true, bluetooth: false, airplane: false, dnd: false, brightness: 80 };
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
    'October', 'November', 'December'];
  const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

  const $ = id => document.getElementById(id);
  const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const icon = (name, cls = 'i') => `<svg class="${cls}" viewBox="0 0 24 24"><path d="${ICONS[name] || ICONS.more}"/></svg>`;
  const pad = n => String(n).padStart(2, '0');
  const ymd = d => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const hm = d => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const parseYmd = s => { const [y, m, d] = String(s).split('-').map(Number); return new Date(y, (m || 1) - 1, d || 1); };

  const AVATAR_COLORS = ['#1a73e8', '#d93025', '#188038', '#e37400', '#9334e6', '#007b83', '#c5221f', '#5f6368', '#b06000', '#1967d2'];
  const avatarColor = name => AVATAR_COLORS[[...String(name || '')].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % AVATAR_COLORS.length];

  const apps = new Map();       // id -> registered app
  const running = new Map();    // id -> {app, frame, screens, ctx}
  let current = null;           // foreground app id, null on the home screen
  const recent = [];            // running app ids, most recent first
  const notifications = [];
  let nextNotif = 1;
  let status = { ...DEFAULT_SETTINGS };
  let settingsId = null;

  // ---- backend --------------------------------------------------------------------------
  let inflight = 0, requests = 0;   // in flight; started since the last idle() resolved
  const idleWaiters = [];
  function settleIdle() {   // a macrotask after the last request: the code awaiting it has rendered
    if (inflight || tapping) return;
    // a screen that replaced the focused field takes the keyboard away now, in the same frame,
    // not a frame later when the lost focus is noticed
    if (idleWaiters.length) refreshKeyboard();
    const n = requests;
    requests = 0;
    while (idleWaiters.length) idleWaiters.shift()(n);
  }
  /** resolves once no backend request is in flight (the env waits for it before it looks), with
   * the number of requests made since it last resolved */
  const idle = () => new Promise(r => { idleWaiters.push(r); setTimeout(settleIdle, 0); });   // after pending 0 ms timers too
  async function api(path, opts = {}) {
    const init = { method: opts.method || 'GET', headers: { 'Content-Type': 'application/json' } };
    if (opts.body !== undefined) init.body = JSON.stringify(opts.body);
    inflight++;
    requests++;
    try {
      const r = await fetch('/api/' + String(path).replace(/^\/+/, ''), init);
      const data = await r.json().catch(() => null);
      if (!r.ok) throw new Error((data && data.error) || `HTTP ${r.status} for /api/${path}`);
      return data;
    } finally {
      inflight--;
      setTimeout(settleIdle, 0);
    }
  }
  async function list(collection) {
    try { const rows = await api(collection); return Array.isArray(rows) ? rows : []; } catch (e) { return []; }
  }
  async function settings() {
    const rows = await list('settings');
    settingsId = rows.length ? rows[0].id : null;
    return { ...DEFAULT_SETTINGS, ...(rows[0] || {}) };
  }

  // ---- status bar ---------------------------------------------------------------------
  function setStatus(patch) {
    status = { ...status, ...patch };
    $('sb-wifi').hidden = !status.wifi || status.airplane;
    $('sb-bt').hidden = !status.bluetooth;
    $('sb-airplane').hidden = !status.airplane;
    $('sb-dnd').hidden = !status.dnd;
    const b = Math.max(0, Math.min(100, Number(status.brightness ?? 80)));
    $('screen-dim').style.opacity = ((100 - b) / 100 * 0.55).toFixed(3);
    for (const t of document.querySelectorAll('#shade .tile')) t.classList.toggle('on', !!status[t.dataset.key]);
  }
  function tick() {
    const d = new Date();
    $('sb-time').textContent = hm(d);
    $('home-time').textContent = hm(d);
    $('home-date').textContent = `${DAYS[d.getDay()]}, ${MONTHS[d.getMonth()].slice(0, 3)} ${d.getDate()}`;
    $('shade-date').textContent = `${DAYS[d.getDay()]}, ${MONTHS[d.getMonth()]} ${d.getDate()}`;
    setTimeout(tick, 60000 - (d.getTime() % 60000) + 20);   // at the next minute
  }

  // ---- launcher, apps, back stack ----------------------------------------------------
  function glyph(app, size = '') {
    const ic = String(app.icon || app.name[0] || '?');
    return `<div class="glyph ${size}" style="background:${esc(app.color || '#5f6368')}">${ic.trim().startsWith('<svg') ? ic : esc(ic)}</div>`;
  }
  function renderLauncher() {
    const rank = id => { const i = LAUNCHER_ORDER.indexOf(id); return i < 0 ? 100 : i; };
    const sorted = [...apps.values()].sort((a, b) => rank(a.id) - rank(b.id));
    $('launcher').innerHTML = sorted.map(a =>
      `<div class="icon" id="icon-${esc(a.id)}" data-app="${esc(a.id)}">${glyph(a)}<span>${esc(a.name)}</span></div>`).join('');
  }
  function register(app) {
    if (!app || !app.id || !app.name || typeof app.mount !== 'function') {
      console.error('phone.register needs {id, name, mount}', app);
      return;
    }
    apps.set(app.id, app);
    renderLauncher();
  }
  function find(name) {
    const n = String(name || '').trim().toLowerCase();
    for (const a of apps.values()) if (a.id.toLowerCase() === n || a.name.toLowerCase() === n) return a;
    return null;
  }
  function layout() {
    const p = $('phone');
    p.classList.toggle('on-home', current === null && !$('recents').classList.contains('active'));
    $('home').classList.toggle('active', current === null && !$('recents').classList.contains('active'));
    for (const st of running.values()) st.frame.classList.toggle('active', st.app.id === current);
  }
  function show(id) {
    $('recents').classList.remove('active');
    current = id;
    if (id) {
      const i = recent.indexOf(id);
      if (i >= 0) recent.splice(i, 1);
      recent.unshift(id);
    }
    layout();
  }
  function newScreen(st) {
    const el = document.createElement('div');
    el.className = 'screen hidden';
    st.frame.appendChild(el);
    st.screens.push(el);
    return el;
  }
  function reveal(st) {
    st.screens.forEach((s, i) => s.classList.toggle('hidden', i !== st.screens.length - 1));
  }
  async function settle(result) {   // wait for an async render (at most 1 s), so the screen paints once
    if (result && typeof result.then === 'function') {
      await Promise.race([result.catch(e => console.error(e)), new Promise(r => setTimeout(r, 1000))]);
    }
  }
  function destroy(id) {
    const st = running.get(id);
    if (!st) return;
    if (st.app.unmount) { try { st.app.unmount(); } catch (e) { console.error(e); } }
    st.frame.remove();
    running.delete(id);
    if (recent.includes(id)) recent.splice(recent.indexOf(id), 1);
    if (current === id) current = null;
  }
  async function open(name, intent) {
    const app = find(name);
    if (!app) return false;
    closeOverlays();
    destroy(app.id);
    const frame = document.createElement('div');
    frame.className = 'app-frame';
    frame.id = 'app-' + app.id;
    frame.dataset.app = app.id;
    $('apps').appendChild(frame);
    const st = { app, frame, screens: [], ctx: null };
    running.set(app.id, st);
    st.ctx = makeCtx(st, intent);
    const root = newScreen(st);
    try { await settle(app.mount(root, st.ctx)); } catch (e) {
      console.error(e);
      root.innerHTML = `<div class="empty">${esc(app.name)} stopped: ${esc(e.message)}</div>`;
    }
    if (!running.has(app.id) || running.get(app.id) !== st) return true;   // replaced meanwhile
    reveal(st);
    show(app.id);
    return true;
  }
  function home() {
    closeOverlays();
    current = null;
    $('recents').classList.remove('active');
    layout();
  }
  function closeOverlays() {
    $('phone').classList.remove('shade-open');
    const a = document.activeElement;
    if (a && a !== document.body) a.blur();
  }
  function topDialog() {
    const st = current && running.get(current);
    const scrims = st ? st.frame.querySelectorAll('.scrim') : [];
    return scrims.length ? scrims[scrims.length - 1] : null;
  }
  /** Android's back: shade, keyboard, recents, a dialog, the app's own handler, its screen stack, then home. */
  function back() {
    const p = $('phone');
    if (p.classList.contains('shade-open')) { p.classList.remove('shade-open'); return 'shade'; }
    if (p.classList.contains('kb-open')) { document.activeElement.blur(); return 'keyboard'; }
    if ($('recents').classList.contains('active')) { $('recents').classList.remove('active'); layout(); return 'recents'; }
    if (!current) return 'none';
    const st = running.get(current);
    const dlg = topDialog();
    if (dlg) { dlg.dismiss(); return 'dialog'; }
    if (st.app.onBack) { try { if (st.app.onBack()) return 'app'; } catch (e) { console.error(e); } }
    if (st.ctx.pop()) return 'pop';
    home();
    return 'home';
  }
  function showRecents() {
    closeOverlays();
    const cards = recent.map(id => {
      const st = running.get(id);
      const top = st.screens[st.screens.length - 1];
      const title = top.querySelector('.appbar .title');
      return `<div class="recent-card" data-app="${esc(id)}"><div class="head">${glyph(st.app)}<b>${esc(st.app.name)}</b>
        <button class="close" data-close="${esc(id)}" aria-label="Close ${esc(st.app.name)}">${icon('close')}</button></div>
        <div class="peek">${esc(title ? title.textContent : '')}</div></div>`;
    }).join('');
    $('recents').innerHTML = `<h2>Recent apps</h2>${cards || '<div id="recents-empty">No recent apps</div>'}` +
      (cards ? '<button id="recents-clear">Clear all</button>' : '');
    $('recents').classList.add('active');
    current = null;
    layout();
  }

  // ---- dialogs, menus, pickers, toast --------------------------------------------------
  function overlay(st, cls, inner) {
    return new Promise(resolve => {
      const scrim = document.createElement('div');
      scrim.className = 'scrim ' + cls;
      scrim.innerHTML = inner;
      scrim.dismiss = (v = null) => { scrim.remove(); resolve(v); setTimeout(() => keyboardFor(document.activeElement), 0); };
      scrim.addEventListener('click', e => {
        if (e.target === scrim) return scrim.dismiss(null);
        const b = e.target.closest('[data-value]');
        if (b && scrim.contains(b)) scrim.dismiss(b.dataset.value);
      });
      (st ? st.frame : $('phone')).appendChild(scrim);
    });
  }
  function dialogHtml(title, body, buttons) {
    return `<div class="dialog"><h3>${esc(title)}</h3>${body}<div class="actions">${buttons.map(b =>
      `<button class="btn text ${b.cls || ''}" data-value="${esc(b.value)}">${esc(b.label)}</button>`).join('')}</div></div>`;
  }
  function makeCtx(st, intent) {
    const ctx = {
      app: st.app, intent: intent || null, api, list, icon, esc, pad, ymd, hm, parseYmd, MONTHS, DAYS,
      now: () => new Date(),
      open: (name, intent) => open(name, intent),
      avatar: (name, cls = '') => `<div class="avatar ${cls}" style="background:${avatarColor(name)}">${esc((String(name || '?').trim()[0] || '?').toUpperCase())}</div>`,
      async push(render) {
        const el = newScreen(st);
        try { await settle(render(el)); } catch (e) { console.error(e); }
        reveal(st);
        return el;
      },
      pop() {
        if (st.screens.length <= 1) return false;
        st.screens.pop().remove();
        reveal(st);
        return true;
      },
      depth: () => st.screens.length,
      notify: n => notify({ app: st.app.id, ...n }),
      setStatus, toast,
      /** a dialog; resolves to the value of the button pressed, or null when dismissed */
      dialog: ({ title = '', text = '', html = '', buttons = [{ label: 'OK', value: 'ok' }] }) =>
        overlay(st, '', dialogHtml(title, (text ? `<div class="text">${esc(text)}</div>` : '') + html, buttons)),
      confirm: async (title, text, ok = 'OK') => (await ctx.dialog({ title, text,
        buttons: [{ label: 'Cancel', value: 'cancel' }, { label: ok, value: 'ok', cls: ok === 'Delete' ? 'danger' : '' }] })) === 'ok',
      /** a bottom sheet of choices [{label, value, icon}]; resolves to the value or null */
      menu: (title, items) => overlay(st, 'sheet', `<div class="menu">${title ? `<div class="menu-title">${esc(title)}</div>` : ''}${items.map(i =>
        `<button data-value="${esc(i.value)}">${i.icon ? icon(i.icon) : ''}${esc(i.label)}</button>`).join('')}</div>`),
      pickTime: initial => pickTime(st, initial),
      pickDate: initial => pickDate(st, initial),
    };
    return ctx;
  }
  async function pickTime(st, initial = '09:00') {
    const [h, m] = String(initial || '09:00').split(':');
    const col = (id, v, max) => `<div class="col"><button class="icon-btn" data-step="${id}:1:${max}">${icon('up')}</button>
      <input id="${id}" type="tel" inputmode="numeric" maxlength="2" value="${pad(Number(v) || 0)}" autocomplete="off">
      <button class="icon-btn" data-step="${id}:-1:${max}">${icon('down')}</button></div>`;
    const html = `<div class="spin">${col('pick-hour', h, 24)}<span class="sep">:</span>${col('pick-minute', m, 60)}</div>`;
    const p = overlay(st, '', dialogHtml('Select time', html,
      [{ label: 'Cancel', value: 'cancel' }, { label: 'OK', value: 'ok' }]));
    const scrim = st.frame.lastElementChild;
    scrim.querySelectorAll('[data-step]').forEach(b => b.addEventListener('click', () => {
      const [id, d, max] = b.dataset.step.split(':');
      const inp = scrim.querySelector('#' + id);
      inp.value = pad(((Number(inp.value) || 0) + Number(d) + Number(max)) % Number(max));
    }));
    scrim.querySelectorAll('input').forEach(i => { i.addEventListener('focus', () => i.select()); i.addEventListener('click', () => i.select()); });
    if ((await p) !== 'ok') return null;
    const hour = scrim.querySelector('#pick-hour').value.trim(), minute = scrim.querySelector('#pick-minute').value.trim();
    const H = Number(hour), M = Number(minute);
    if (!(H >= 0 && H < 24 && M >= 0 && M < 60) || hour === '' || minute === '') { toast('Enter a time between 00:00 and 23:59'); return null; }
    return `${pad(H)}:${pad(M)}`;
  }
  function monthGrid(year, month, { selected = '', marks = new Set(), today = '' } = {}) {
    const first = new Date(year, month, 1);
    const start = new Date(year, month, 1 - first.getDay());
    let html = DAYS.map(d => `<div class="dow">${d[0]}</div>`).join('');
    for (let i = 0; i < 42; i++) {
      const d = new Date(start.getFullYear(), start.getMonth(), start.getDate() + i);
      const k = ymd(d);
      const cls = ['day', d.getMonth() !== month ? 'other' : '', k === selected ? 'sel' : '', k === today ? 'today' : '', marks.has(k) ? 'has' : ''].join(' ');
      html += `<button class="${cls}" data-date="${k}">${d.getDate()}</button>`;
    }
    return html;
  }
  async function pickDate(st, initial) {
    let sel = initial || ymd(new Date());
    let view = parseYmd(sel);
    const body = () => `<div class="month-head"><button class="icon-btn" id="pick-prev" aria-label="Previous month">${icon('left')}</button>
      <span class="label" id="pick-month">${MONTHS[view.getMonth()]} ${view.getFullYear()}</span>
      <button class="icon-btn" id="pick-next" aria-label="Next month">${icon('right')}</button></div>
      <div class="cal-grid" id="pick-grid">${monthGrid(view.getFullYear(), view.getMonth(), { selected: sel, today: ymd(new Date()) })}</div>`;
    const p = overlay(st, '', dialogHtml('Select date', `<div id="pick-date">${body()}</div>`,
      [{ label: 'Cancel', value: 'cancel' }, { label: 'OK', value: 'ok' }]));
    const box = st.frame.lastElementChild.querySelector('#pick-date');
    box.addEventListener('click', e => {
      const t = e.target.closest('button');
      if (!t) return;
      if (t.id === 'pick-prev') view = new Date(view.getFullYear(), view.getMonth() - 1, 1);
      else if (t.id === 'pick-next') view = new Date(view.getFullYear(), view.getMonth() + 1, 1);
      else if (t.dataset.date) sel = t.dataset.date;
      box.innerHTML = body();
    });
    return (await p) === 'ok' ? sel : null;
  }
  let toastTimer = null;
  function toast(text) {
    const t = $('toast');
    t.textContent = text;
    t.classList.add('show');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.remove('show'), 2500);
  }

  // ---- notifications ---------------------------------------------------------------------
  function notify({ app, title = '', body = '', data = null }) {
    notifications.unshift({ id: nextNotif++, app, title, body, data });
    renderShade();
  }
  function renderShade() {
    $('notif-list').innerHTML = notifications.map(n => {
      const a = apps.get(n.app) || { name: n.app, color: '#5f6368', icon: '' };
      return `<div class="notif" data-notif="${n.id}">${glyph(a)}<div class="txt"><div class="app">${esc(a.name)}</div>
        <div class="title">${esc(n.title)}</div><div class="body">${esc(n.body)}</div></div></div>`;
    }).join('') || '<div id="notif-empty">No notifications</div>';
    $('notif-clear').hidden = !notifications.length;
    $('sb-notif').hidden = !notifications.length;
  }
  function shade(open = true) {
    if (open) { closeOverlays(); renderShade(); }
    $('phone').classList.toggle('shade-open', !!open);
  }
  async function toggleSetting(key) {
    const value = !status[key];
    setStatus({ [key]: value });
    if (settingsId !== null) await api(`settings/${settingsId}`, { method: 'PUT', body: { [key]: value } }).catch(() => {});
  }

  // ---- on-screen keyboard ----------------------------------------------------------------
  const LAYOUTS = {
    abc: ['qwertyuiop', 'asdfghjkl', '⇧zxcvbnm⌫', ['?123', ',', ' ', '.', '⏎']],
    sym: ['1234567890', '@#$_&-+()/', '=*"\':;!?⌫', ['ABC', ',', ' ', '.', '⏎']],
    tel: ['123', '456', '789', ['+', '0', '⌫', '⏎']],
  };
  let kbLayout = 'abc', shift = false;
  const TEXT_TYPES = new Set(['text', 'search', 'tel', 'email', 'number', 'password', 'url', '']);
  const isTextField = el => el && !el.readOnly && !el.disabled && el.inputMode !== 'none' &&
    (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && TEXT_TYPES.has(el.getAttribute('type') || '')));
  function renderKeyboard() {
    const label = k => ({ ' ': '', '⏎': icon('check'), '⌫': icon('backspace') }[k] ?? (shift && k.length === 1 ? k.toUpperCase() : k));
    const cls = k => k === ' ' ? 'space' : k === '⏎' ? 'enter' : (k.length > 1 || '⇧⌫'.includes(k)) ? 'wide' : '';
    $('keyboard').innerHTML = LAYOUTS[kbLayout].map(row => `<div class="kb-row">${[...row].map(k =>
      `<div class="key ${cls(k)} ${k === '⇧' && shift ? 'on' : ''}" data-key="${esc(k)}">${label(k)}</div>`).join('')}</div>`).join('');
  }
  function keyboardFor(el) {
    const p = $('phone');
    const on = isTextField(el);
    if (on) {
      const want = (el.type === 'tel' || el.inputMode === 'numeric' || el.type === 'number') ? 'tel' : (kbLayout === 'tel' ? 'abc' : kbLayout);
      if (want !== kbLayout || !$('keyboard').firstChild) { kbLayout = want; renderKeyboard(); }
    }
    if (on === p.classList.contains('kb-open')) return;
    p.classList.toggle('kb-open', on);
    document.documentElement.style.setProperty('--kb-h', on ? '236px' : '0px');
    if (on) el.scrollIntoView({ block: 'nearest' });
  }
  function pressKey(k) {
    const el = document.activeElement;
    if (!isTextField(el)) return;
    if (k === '⇧') { shift = !shift; renderKeyboard(); return; }
    if (k === '?123' || k === 'ABC') { kbLayout = k === 'ABC' ? 'abc' : 'sym'; renderKeyboard(); return; }
    if (k === '⌫') { document.execCommand('delete'); return; }
    if (k === '⏎') {
      if (el.tagName === 'TEXTAREA') document.execCommand('insertText', false, '\n');
      else el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      return;
    }
    document.execCommand('insertText', false, shift ? k.toUpperCase() : k);
    if (shift) { shift = false; renderKeyboard(); }
  }

  // ---- input: long press, status-bar swipe, navigation -----------------------------------
  let press = null, swallowClick = false;
  document.addEventListener('pointerdown', e => {
    if (!e.isPrimary) return;
    const target = e.target;
    clearTimeout(press && press.timer);
    swallowClick = false;   // a new gesture: only a long press's own click is swallowed
    press = { x: e.clientX, y: e.clientY, target, fromStatus: !!target.closest('#statusbar'), fromShade: !!target.closest('#shade') };
    press.timer = setTimeout(() => {
      press.fired = true;
      target.dispatchEvent(new CustomEvent('longpress', { bubbles: true, detail: { x: press.x, y: press.y } }));
    }, 600);
  }, true);
  document.addEventListener('pointermove', e => {
    if (!press || !e.isPrimary) return;
    const dx = e.clientX - press.x, dy = e.clientY - press.y;
    if (Math.hypot(dx, dy) > 12) clearTimeout(press.timer);
    if (press.fromStatus && dy > 40) { shade(true); press.fromStatus = false; }
    if (press.fromShade && dy < -60) { shade(false); press.fromShade = false; }
  }, true);
  // A tap's click comes a moment after its pointerup (Chromium makes it from the touch
  // gesture): until it has been handled, the phone is not idle and the keyboard stays, since
  // hiding it earlier would move the content under the finger. Moves and long presses make no click.
  let tapping = false, tapTimer = null;
  const refreshKeyboard = () => keyboardFor(document.activeElement);
  const tapDone = () => {   // at the end of the click's dispatch: the same frame as its handlers' changes
    tapping = false;
    clearTimeout(tapTimer);
    refreshKeyboard();
    setTimeout(settleIdle, 0);
  };
  const endPress = e => {
    if (!press) return;
    clearTimeout(press.timer);
    if (press.fired) swallowClick = true;
    else if (e.type === 'pointerup' && Math.hypot(e.clientX - press.x, e.clientY - press.y) <= 12) {
      tapping = true;
      clearTimeout(tapTimer);
      const target = document.elementFromPoint(e.clientX, e.clientY);
      tapTimer = setTimeout(() => {   // Chromium made no click of this tap (it happens after a swipe): make it
        tapping = false;
        if (target && target.isConnected) {
          if (isTextField(target)) target.focus();
          target.click();
        }
        swallowClick = true;   // a late click of the same tap is not a second one
        tapDone();
      }, 300);
    }
    press = null;
  };
  document.addEventListener('pointerup', endPress, true);
  document.addEventListener('pointercancel', endPress, true);
  document.addEventListener('click', e => {   // a long press is not also a tap
    if (swallowClick) { e.stopPropagation(); e.preventDefault(); swallowClick = false; }
  }, true);
  window.addEventListener('click', () => { if (tapping) tapDone(); });   // after the page's own handlers
  document.addEventListener('contextmenu', e => e.preventDefault());
  document.addEventListener('focusin', e => { if (isTextField(e.target)) keyboardFor(e.target); });
  document.addEventListener('focusout', () => { if (!tapping) setTimeout(refreshKeyboard, 0); });

  function wire() {
    $('nav-back').addEventListener('click', back);
    $('nav-home').addEventListener('click', home);
    $('nav-recents').addEventListener('click', () => ($('recents').classList.contains('active') ? home() : showRecents()));
    $('launcher').addEventListener('click', e => { const i = e.target.closest('[data-app]'); if (i) open(i.dataset.app); });
    $('recents').addEventListener('click', e => {
      const c = e.target.closest('[data-close]');
      if (c) { destroy(c.dataset.close); return showRecents(); }
      if (e.target.id === 'recents-clear') { [...recent].forEach(destroy); return home(); }
      const card = e.target.closest('.recent-card');
      if (card) show(card.dataset.app);
    });
    $('notif-list').addEventListener('click', e => {
      const el = e.target.closest('[data-notif]');
      if (!el) return;
      const i = notifications.findIndex(n => n.id === Number(el.dataset.notif));
      const [n] = notifications.splice(i, 1);
      renderShade();
      shade(false);
      open(n.app, n.data);
    });
    $('notif-clear').addEventListener('click', () => { notifications.length = 0; renderShade(); });
    document.querySelectorAll('#shade .tile').forEach(t => t.addEventListener('click', () => toggleSetting(t.dataset.key)));
    const kb = $('keyboard');
    kb.addEventListener('mousedown', e => e.preventDefault());     // keep the text field focused
    kb.addEventListener('pointerdown', e => e.preventDefault());
    kb.addEventListener('click', e => { const k = e.target.closest('[data-key]'); if (k) pressKey(k.dataset.key); });
  }

  async function boot() {
    wire();
    const [st, messages] = await Promise.all([settings(), list('messages')]);
    setStatus(st);
    tick();
    // unread incoming messages wait in the shade, as on a phone that just woke up
    const unread = messages.filter(m => !m.outgoing && !m.read)
      .sort((a, b) => String(a.time).localeCompare(String(b.time)));
    for (const m of unread) notify({ app: 'messages', title: m.contact || m.phone, body: m.body, data: { phone: m.phone } });
    renderShade();
    home();
    const start = new URLSearchParams(location.search).get('app');
    if (start) await open(start);
    document.body.dataset.ready = '1';
  }

  window.phone = {
    register, open, home, back, idle, recents: showRecents, shade, notify: n => notify(n), settings, setStatus, toast,
    icon, esc, api, list, monthGrid, ICONS,
    /** what is on screen, for tests and oracles */
    state: () => ({
      app: current, depth: current ? running.get(current).screens.length : 0,
      shade: $('phone').classList.contains('shade-open'), recents: $('recents').classList.contains('active'),
      keyboard: $('phone').classList.contains('kb-open'), running: [...recent], notifications: notifications.length,
      dialog: !!topDialog(),
    }),
  };
  window.addEventListener('load', boot);
})();
