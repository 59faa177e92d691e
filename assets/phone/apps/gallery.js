// Gallery: a grid of photos (drawn as SVG scenes from each photo's name), albums, favorites and a trash, and a
// detail view to favorite, move to another album, delete (to the trash) or restore.
// Backend collection photos(name, album, date, favorite, trashed).
(() => {
  document.head.insertAdjacentHTML("beforeend", `<style id="app-css-gallery">
    .photo-grid { display: grid; grid-template-columns: repeat(3, 1fr); gap: 3px; padding: 3px; }
    .thumb { position: relative; aspect-ratio: 1; overflow: hidden; background: #ddd; }
    .thumb svg, .album-cover svg { width: 100%; height: 100%; display: block; }
    .thumb-name { position: absolute; left: 0; right: 0; bottom: 0; padding: 10px 5px 3px; font-size: 10px; color: #fff;
      background: linear-gradient(transparent, rgba(0,0,0,.65)); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .thumb-fav { position: absolute; top: 4px; right: 4px; color: #fff; filter: drop-shadow(0 0 2px #000); }
    .thumb-fav svg.i { width: 18px; height: 18px; }
    .album-grid { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; padding: 14px; }
    .album-cover { aspect-ratio: 1; border-radius: 14px; overflow: hidden; background: #e9eef6; display: grid; place-items: center; }
    .album-empty { color: var(--muted); }
    .album-empty svg.i { width: 48px; height: 48px; }
    .album-name { font-weight: 600; margin-top: 6px; }
    .album-count { color: var(--muted); font-size: 13px; }
    .appbar-sub { color: var(--muted); font-size: 13px; padding-right: 12px; }
    .hint { padding: 10px 16px; color: var(--muted); font-size: 13px; }
    .appbar.dark, .photo-view, .photo-info, .photo-actions { background: #000; color: #fff; }
    .appbar.dark .icon-btn { color: #fff; }
    .photo-view { flex: 1; display: flex; align-items: center; min-height: 0; }
    .photo-view svg { width: 100%; aspect-ratio: 1; display: block; }
    .photo-info { padding: 10px 16px; }
    .photo-info .secondary { color: #bbb; margin-top: 4px; }
    .photo-actions { display: flex; justify-content: space-around; padding: 6px 0 10px; flex: none; }
    .photo-action { background: none; border: 0; color: #fff; width: 84px; display: flex; flex-direction: column; align-items: center; gap: 2px; }
    .photo-action span { font-size: 12px; }
    .photo-action.on { color: #ff5c8a; }
  </style>`);
  const esc = s => phone.esc(s), icon = n => phone.icon(n);
  const svg = d => `<svg class="i" viewBox="0 0 24 24"><path d="${d}"/></svg>`;
  const P = {
    photo: "M21 19V5c0-1.1-.9-2-2-2H5c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h14c1.1 0 2-.9 2-2zM8.5 13.5l2.5 3.01L14.5 12l4.5 6H5l3.5-4.5z",
    heart: "M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54L12 21.35z",
    heart_border: "M16.5 3c-1.74 0-3.41.81-4.5 2.09C10.91 3.81 9.24 3 7.5 3 4.42 3 2 5.42 2 8.5c0 3.78 3.4 6.86 8.55 11.54L12 21.35l1.45-1.32C18.6 15.36 22 12.28 22 8.5 22 5.42 19.58 3 16.5 3zm-4.4 15.55l-.1.1-.1-.1C7.14 14.24 4 11.39 4 8.5 4 6.5 5.5 5 7.5 5c1.54 0 3.04.99 3.57 2.36h1.87C13.46 5.99 14.96 5 16.5 5c2 0 3.5 1.5 3.5 3.5 0 2.89-3.14 5.74-7.9 10.05z",
    restore: "M12.5 8c-2.65 0-5.05.99-6.9 2.6L2 7v9h9l-3.62-3.62c1.39-1.16 3.16-1.88 5.12-1.88 3.54 0 6.55 2.31 7.6 5.5l2.37-.78C21.08 11.03 17.15 8 12.5 8z",
  };
  const SCENES = ["beach", "mountain", "city", "forest", "sunset", "flowers", "snow", "lake", "cat", "dog", "cake", "pizza"];

  let ctx, root, tab = "photos", cache = null;

  function hash(s) { let h = 2166136261; for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619); return h >>> 0; }

  // a small picture of the scene the photo's name starts with, varied by the rest of the name
  function picture(name) {
    const h = hash(name), scene = SCENES.find(s => name.toLowerCase().startsWith(s)) || SCENES[h % SCENES.length];
    const hue = h % 360, x = 20 + (h >> 8) % 60, y = 15 + (h >> 12) % 25;
    const sky = { sunset: ["#ff7e5f", "#feb47b"], snow: ["#cfd9e6", "#f5f8fb"], city: ["#3a4a6b", "#8aa0c8"] }[scene]
      || [`hsl(${200 + hue % 30},70%,62%)`, `hsl(${190 + hue % 20},80%,85%)`];
    const id = "g" + h;
    let body;
    switch (scene) {
      case "beach": body = `<rect y="62" width="100" height="14" fill="hsl(${195 + hue % 20},70%,45%)"/><rect y="76" width="100" height="24" fill="#f1d9a0"/>`; break;
      case "mountain": case "snow": body = `<polygon points="0,100 ${x - 10},${40 + y / 3} ${x + 25},100" fill="hsl(${hue % 60 + 90},20%,${scene === "snow" ? 85 : 40}%)"/>
        <polygon points="30,100 ${x + 30},${30 + y / 2} 110,100" fill="hsl(${hue % 60 + 100},25%,${scene === "snow" ? 92 : 32}%)"/>`; break;
      case "city": body = [0, 1, 2, 3, 4, 5].map(i => `<rect x="${i * 17}" y="${45 + ((h >> i) % 30)}" width="15" height="60" fill="hsl(220,15%,${20 + i * 4}%)"/>`).join(""); break;
      case "forest": body = [0, 1, 2, 3, 4].map(i => `<polygon points="${i * 22 - 4},100 ${i * 22 + 8},${40 + ((h >> i) % 25)} ${i * 22 + 20},100" fill="hsl(${110 + i * 8},45%,${25 + i * 3}%)"/>`).join(""); break;
      case "sunset": body = `<rect y="70" width="100" height="30" fill="hsl(${hue % 30 + 10},60%,30%)"/><path d="M0 72 Q ${x} ${55 + y / 3} 100 70 V100 H0z" fill="#4a2c2a"/>`; break;
      case "lake": body = `<rect y="60" width="100" height="40" fill="hsl(${200 + hue % 20},60%,40%)"/><polygon points="0,60 ${x},35 100,60" fill="#5d7a4f"/>`; break;
      case "flowers": body = `<rect y="70" width="100" height="30" fill="#5a9a4a"/>` + [0, 1, 2, 3, 4, 5].map(i => `<circle cx="${10 + i * 16}" cy="${62 + (h >> i) % 14}" r="6" fill="hsl(${(hue + i * 50) % 360},80%,65%)"/>`).join(""); break;
      case "cat": case "dog": body = `<rect y="75" width="100" height="25" fill="#b08968"/><ellipse cx="50" cy="70" rx="22" ry="16" fill="hsl(${hue % 40 + 20},40%,${scene === "cat" ? 55 : 35}%)"/>
        <circle cx="50" cy="48" r="13" fill="hsl(${hue % 40 + 20},40%,${scene === "cat" ? 55 : 35}%)"/>`
        + (scene === "cat" ? `<polygon points="39,40 42,28 47,37" fill="#6b4f3a"/><polygon points="61,40 58,28 53,37" fill="#6b4f3a"/>` : `<ellipse cx="38" cy="44" rx="5" ry="10" fill="#4a3426"/><ellipse cx="62" cy="44" rx="5" ry="10" fill="#4a3426"/>`); break;
      case "cake": body = `<rect width="100" height="100" fill="#f7e8f0"/><rect x="25" y="50" width="50" height="30" rx="4" fill="hsl(${hue},60%,75%)"/><rect x="48" y="36" width="4" height="14" fill="#fff"/><circle cx="50" cy="33" r="3" fill="#ffb300"/>`; break;
      default: body = `<rect width="100" height="100" fill="#8d6e63"/><circle cx="50" cy="52" r="34" fill="#f2c14e"/>` + [0, 1, 2, 3, 4].map(i => `<circle cx="${32 + (h >> (i * 3)) % 36}" cy="${36 + (h >> (i * 2)) % 32}" r="5" fill="#c0392b"/>`).join("");
    }
    const sun = ["cake", "pizza"].includes(scene) ? "" : scene === "sunset" ? `<circle cx="${100 - x}" cy="64" r="14" fill="#ffdd57"/>`
      : `<circle cx="${100 - x}" cy="${y}" r="8" fill="#fff7c2"/>`;
    return `<svg class="photo-svg" viewBox="0 0 100 100" preserveAspectRatio="xMidYMid slice"><defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>
      <rect width="100" height="100" fill="url(#${id})"/>${sun}${body}</svg>`;
  }

  async function photos() {
    return (await ctx.list("photos")).sort((a, b) => String(b.date).localeCompare(String(a.date)) || a.name.localeCompare(b.name));
  }

  const grid = items => items.length ? `<div class="photo-grid">${items.map(p => `<div class="thumb" data-id="${p.id}">
      ${picture(p.name)}${p.favorite ? `<span class="thumb-fav">${svg(P.heart)}</span>` : ""}<span class="thumb-name">${esc(p.name)}</span></div>`).join("")}</div>`
    : '<div class="empty">No photos</div>';

  function wireGrid(r, items, refresh) {
    r.querySelectorAll(".thumb").forEach(el => el.addEventListener("click", () =>
      ctx.push(d => detail(d, items.find(p => p.id === Number(el.dataset.id)), refresh))));
  }

  // the main screen; a tab switch redraws from the last list at once (reload false)
  async function main(reload = true) {
    if (reload || !cache) cache = await photos();
    const all = cache, live = all.filter(p => !p.trashed);
    const tabs = `<div class="tabs"><button class="tab${tab === "photos" ? " on" : ""}" id="tab-photos">Photos</button>
      <button class="tab${tab === "albums" ? " on" : ""}" id="tab-albums">Albums</button></div>`;
    let body;
    if (tab === "photos") body = grid(live);
    else {
      const names = [...new Set(live.map(p => p.album))].sort();
      const card = (key, label, items, trash) => `<div class="album-card" data-album="${esc(key)}">
          <div class="album-cover">${items.length ? picture(items[0].name) : `<span class="album-empty">${trash ? icon("delete") : svg(P.heart)}</span>`}</div>
          <div class="album-name">${esc(label)}</div><div class="album-count">${items.length}</div></div>`;
      body = `<div class="album-grid">${names.map(a => card(a, a, live.filter(p => p.album === a))).join("")}
        ${card("__favorites", "Favorites", live.filter(p => p.favorite))}
        ${card("__trash", "Trash", all.filter(p => p.trashed), true)}</div>`;
    }
    root.innerHTML = `<div class="appbar"><span class="title">Gallery</span></div>${tabs}<div class="content">${body}</div>`;
    root.querySelector("#tab-photos").addEventListener("click", () => { tab = "photos"; main(false); });
    root.querySelector("#tab-albums").addEventListener("click", () => { tab = "albums"; main(false); });
    if (tab === "photos") wireGrid(root, live, main);
    root.querySelectorAll(".album-card").forEach(el => el.addEventListener("click", () => ctx.push(d => album(d, el.dataset.album, all))));
  }

  async function album(r, key, known = null) {   // drawn at once from `known` photos when given
    const all = known || await photos();
    const items = key === "__trash" ? all.filter(p => p.trashed) : key === "__favorites" ? all.filter(p => p.favorite && !p.trashed)
      : all.filter(p => p.album === key && !p.trashed);
    const title = key === "__trash" ? "Trash" : key === "__favorites" ? "Favorites" : key;
    r.innerHTML = `<div class="appbar"><button class="icon-btn back-btn" aria-label="Back">${icon("back")}</button>
      <span class="title">${esc(title)}</span><span class="appbar-sub">${items.length} photo${items.length === 1 ? "" : "s"}</span></div>
      <div class="content">${key === "__trash" ? '<div class="hint">Photos in the trash can be restored.</div>' : ""}${grid(items)}</div>`;
    r.querySelector(".back-btn").addEventListener("click", () => ctx.pop());
    const refresh = () => { album(r, key); main(); };
    wireGrid(r, items, refresh);
  }

  function detail(r, p, refresh) {
    const actions = p.trashed
      ? `<button class="photo-action" id="photo-restore">${svg(P.restore)}<span>Restore</span></button>`
      : `<button class="photo-action${p.favorite ? " on" : ""}" id="photo-fav" aria-pressed="${!!p.favorite}">${svg(p.favorite ? P.heart : P.heart_border)}<span>Favorite</span></button>
         <button class="photo-action" id="photo-move">${icon("right")}<span>Move</span></button>
         <button class="photo-action" id="photo-delete">${icon("delete")}<span>Delete</span></button>`;
    r.innerHTML = `<div class="appbar dark"><button class="icon-btn back-btn" aria-label="Back">${icon("back")}</button>
        <span class="title">${esc(p.name)}</span></div>
      <div class="photo-view">${picture(p.name)}</div>
      <div class="photo-info"><div id="photo-name">${esc(p.name)}</div>
        <div class="secondary">Taken <span id="photo-date">${esc(p.date)}</span> · Album <span id="photo-album">${esc(p.album)}</span></div></div>
      <div class="photo-actions">${actions}</div>`;
    r.querySelector(".back-btn").addEventListener("click", () => ctx.pop());
    const put = async change => {
      Object.assign(p, change);
      await ctx.api(`photos/${p.id}`, { method: "PUT", body: change });
      await refresh();
    };
    const on = (id, fn) => { const b = r.querySelector("#" + id); if (b) b.addEventListener("click", fn); };
    on("photo-fav", async () => {
      await put({ favorite: !p.favorite });
      detail(r, p, refresh);
      ctx.toast(p.favorite ? "Added to favorites" : "Removed from favorites");
    });
    on("photo-restore", async () => { await put({ trashed: false }); ctx.pop(); ctx.toast("Restored"); });
    on("photo-delete", async () => {
      if (!await ctx.confirm("Move to trash?", `${p.name} will be moved to the trash.`, "Move to trash")) return;
      await put({ trashed: true });
      ctx.pop();
      ctx.toast("Moved to trash");
    });
    on("photo-move", async () => {
      const names = [...new Set((await photos()).map(x => x.album))].filter(a => a !== p.album).sort();
      const to = await ctx.menu("Move to album", names.map(a => ({ label: a, value: a })));
      if (!to) return;
      await put({ album: to });
      detail(r, p, refresh);
      ctx.toast(`Moved to ${to}`);
    });
  }

  phone.register({
    id: "gallery", name: "Gallery", icon: svg(P.photo), color: "#e8453c",
    mount(r, c) { root = r; ctx = c; tab = "photos"; cache = null; return main(); },
  });
})();
