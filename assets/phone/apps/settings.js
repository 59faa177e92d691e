// Settings: Network & internet (Wi-Fi, airplane mode), Connected devices (Bluetooth), Display (brightness
// slider, dark theme, font size), Sound (Do Not Disturb, ringtone). Backend: the one record of collection
// settings(wifi, bluetooth, airplane, dnd, brightness, ringtone, font_size, dark_mode); every change is saved
// at once and the status bar follows through ctx.setStatus.
(() => {
  document.head.insertAdjacentHTML("beforeend", `<style id="app-css-settings">
    .settings-icon { width: 40px; height: 40px; border-radius: 50%; background: #e8f0fe; color: #174ea6; display: grid; place-items: center; font-size: 17px; flex: none; }
    .settings-block { padding: 14px 16px 10px; background: #fff; }
    .slider { position: relative; height: 44px; margin: 4px 2px; touch-action: none; }
    .slider-track { position: absolute; left: 0; right: 0; top: 18px; height: 8px; border-radius: 4px; background: #d3e3fd; }
    .slider-fill { height: 100%; width: var(--value); border-radius: 4px; background: var(--primary); }
    .slider-thumb { position: absolute; top: 10px; left: calc(var(--value) - 12px); width: 24px; height: 24px; border-radius: 50%;
      background: var(--primary); box-shadow: 0 1px 3px rgba(0,0,0,.3); pointer-events: none; }
  </style>`);
  const esc = s => phone.esc(s), icon = n => phone.icon(n);
  const svg = d => `<svg class="i" viewBox="0 0 24 24"><path d="${d}"/></svg>`;
  const SUN = "M20 8.69V4h-4.69L12 .69 8.69 4H4v4.69L.69 12 4 15.31V20h4.69L12 23.31 15.31 20H20v-4.69L23.31 12 20 8.69zM12 18c-3.31 0-6-2.69-6-6s2.69-6 6-6 6 2.69 6 6-2.69 6-6 6zm0-10c-2.21 0-4 1.79-4 4s1.79 4 4 4 4-1.79 4-4-1.79-4-4-4z";
  const BELL = "M12 22c1.1 0 2-.9 2-2h-4c0 1.1.89 2 2 2zm6-6v-5c0-3.07-1.64-5.64-4.5-6.32V4c0-.83-.67-1.5-1.5-1.5s-1.5.67-1.5 1.5v.68C7.63 5.36 6 7.92 6 11v5l-2 2v1h16v-1l-2-2z";
  const MUSIC = "M12 3v10.55c-.59-.34-1.27-.55-2-.55-2.21 0-4 1.79-4 4s1.79 4 4 4 4-1.79 4-4V7h4V3h-6z";
  const FONT = "M9 4v3h5v12h3V7h5V4H9zm-6 8h3v7h3v-7h3V9H3v3z";
  const RINGTONES = ["Atria", "Beacon", "Chime", "Dawn", "Galaxy", "Lollipop", "Pixel Ring", "Zen"];
  const FONT_SIZES = ["Small", "Default", "Large", "Largest"];

  let ctx, root, rec = null;

  async function load() {
    rec = (await ctx.list("settings"))[0] || null;
  }

  async function save(change) {
    if (!rec) return;
    Object.assign(rec, change);
    await ctx.api(`settings/${rec.id}`, { method: "PUT", body: change });
    const { wifi, bluetooth, airplane, dnd, brightness } = rec;
    ctx.setStatus({ wifi, bluetooth, airplane, dnd, brightness });
    renderMain();   // the main list's summaries, under the open page
  }

  const row = (id, icon, title, sub) => `<div class="row settings-row" id="${id}">
      <span class="settings-icon">${icon}</span><div class="main"><div class="primary">${title}</div>
      <div class="secondary">${esc(sub)}</div></div></div>`;
  const toggle = (key, title, sub) => `<div class="row settings-row">
      <div class="main"><div class="primary">${title}</div><div class="secondary">${esc(sub)}</div></div>
      <button class="switch${rec[key] ? " on" : ""}" id="sw-${key}" role="switch" aria-checked="${!!rec[key]}" aria-label="${title}"></button></div>`;
  const page = (r, title, body) => {
    r.innerHTML = `<div class="appbar"><button class="icon-btn back-btn" aria-label="Back">${icon("back")}</button>
      <span class="title">${title}</span></div><div class="content settings-page">${body}</div>`;
    r.querySelector(".back-btn").addEventListener("click", () => ctx.pop());
  };

  function wireSwitches(r) {
    r.querySelectorAll(".switch").forEach(sw => {
      sw.addEventListener("click", async () => {
        const key = sw.id.slice(3), on = !rec[key];
        sw.classList.toggle("on", on);
        sw.setAttribute("aria-checked", String(on));
        await save({ [key]: on });
      });
      sw.closest(".row").addEventListener("click", e => { if (e.target !== sw) sw.click(); });   // the whole row toggles
    });
  }

  async function main() {
    await load();
    renderMain();
  }

  function renderMain() {
    if (!rec) { root.innerHTML = '<div class="appbar"><span class="title">Settings</span></div><div class="empty">Settings are not available</div>'; return; }
    root.innerHTML = `<div class="appbar"><span class="title">Settings</span></div><div class="content">
      ${row("set-network", icon("wifi"), "Network &amp; internet", rec.airplane ? "Airplane mode is on" : rec.wifi ? "Wi‑Fi on" : "Wi‑Fi off")}
      ${row("set-devices", icon("bluetooth"), "Connected devices", rec.bluetooth ? "Bluetooth on" : "Bluetooth off")}
      ${row("set-display", svg(SUN), "Display", `Brightness ${rec.brightness}% · ${rec.dark_mode ? "Dark theme" : "Light theme"}`)}
      ${row("set-sound", svg(BELL), "Sound &amp; vibration", `${rec.dnd ? "Do Not Disturb on" : "Ringtone: " + (rec.ringtone || "Default")}`)}
      </div>`;
    const go = (id, fn) => root.querySelector("#" + id).addEventListener("click", () => ctx.push(fn));
    go("set-network", network);
    go("set-devices", devices);
    go("set-display", display);
    go("set-sound", sound);
  }

  function network(r) {
    page(r, "Network &amp; internet", toggle("wifi", "Wi‑Fi", "Connect to Wi‑Fi networks") + toggle("airplane", "Airplane mode", "Turn off all wireless connections"));
    wireSwitches(r);
  }

  function devices(r) {
    page(r, "Connected devices", toggle("bluetooth", "Bluetooth", "Pair with headphones, cars and watches"));
    wireSwitches(r);
  }

  function display(r) {
    page(r, "Display", `<div class="settings-block"><div class="primary">Brightness level</div>
        <div class="slider" id="brightness" role="slider" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${rec.brightness}">
          <div class="slider-track" id="brightness-track"><div class="slider-fill"></div></div>
          <div class="slider-thumb" id="brightness-thumb"></div></div>
        <div class="secondary"><span id="brightness-value">${rec.brightness}</span>%</div></div>
      ${toggle("dark_mode", "Dark theme", "Use a dark background")}
      ${row("set-font-size", svg(FONT), "Font size", rec.font_size || "Default")}`);
    wireSwitches(r);
    slider(r.querySelector("#brightness"), rec.brightness, v => save({ brightness: v }));
    r.querySelector("#set-font-size").addEventListener("click", () => choose("Font size", FONT_SIZES, rec.font_size || "Default", async v => {
      await save({ font_size: v });
      r.querySelector("#set-font-size .secondary").textContent = v;
    }));
  }

  function sound(r) {
    page(r, "Sound &amp; vibration", toggle("dnd", "Do Not Disturb", "Silence calls and notifications")
      + row("set-ringtone", svg(MUSIC), "Phone ringtone", rec.ringtone || "Default"));
    wireSwitches(r);
    r.querySelector("#set-ringtone").addEventListener("click", () => choose("Phone ringtone", RINGTONES, rec.ringtone, async v => {
      await save({ ringtone: v });
      r.querySelector("#set-ringtone .secondary").textContent = v;
    }));
  }

  // a horizontal slider dragged by touch: the value follows the finger, saved when it lifts
  function slider(el, value, onCommit) {
    const track = el.querySelector(".slider-track"), label = root.ownerDocument.getElementById("brightness-value");
    const show = v => {
      el.style.setProperty("--value", v + "%");
      el.setAttribute("aria-valuenow", v);
      if (label) label.textContent = v;
    };
    const at = e => {
      const b = track.getBoundingClientRect();
      return Math.round(Math.min(1, Math.max(0, (e.clientX - b.left) / b.width)) * 100);
    };
    let dragging = false;
    el.addEventListener("pointerdown", e => { dragging = true; el.setPointerCapture(e.pointerId); value = at(e); show(value); });
    el.addEventListener("pointermove", e => { if (dragging) { value = at(e); show(value); } });
    const end = () => { if (dragging) { dragging = false; onCommit(value); } };
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    show(value);
  }

  async function choose(title, options, current, onPick) {
    const v = await ctx.menu(title, options.map(o => ({ label: o, value: o, icon: o === current ? "check" : "" })));
    if (v !== null) await onPick(v);
  }

  phone.register({
    id: "settings", name: "Settings", icon: icon("settings"), color: "#5f6b7a",
    mount(r, c) { root = r; ctx = c; return main(); },
  });
})();
