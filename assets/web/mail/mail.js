// Lumen Mail: helpers shared by the webmail pages (API calls, header, sidebar, formatting).
const Mail = (() => {
  const api = WebApp.client('/mail/api/'), esc = WebApp.esc;
  const params = () => new URLSearchParams(location.search);
  const label = (meta, f) => meta.labels[f] || (f === 'starred' ? 'Starred' : f);
  const who = p => p.name ? `${p.name} <${p.addr}>` : p.addr;
  const short = d => d.slice(5, 16).replace('-', '/');
  // header and folder sidebar; `folder` is highlighted
  async function shell(folder) {
    const meta = (await api('meta')).data;
    const q = params().get('q') || '';
    const head = document.createElement('header');
    head.className = 'top';
    head.innerHTML = `<div class="logo">✉ Lumen Mail</div>
      <form id="search-form" action="index.html"><input type="hidden" name="folder" value="${esc(folder || 'inbox')}">
        <input id="search" name="q" placeholder="Search mail in ${esc(label(meta, folder || 'inbox'))}" value="${esc(q)}" autocomplete="off">
        <button id="search-btn" type="submit">Search</button></form>
      <div class="me">${esc(meta.me.name)} · ${esc(meta.me.addr)}</div>`;
    document.body.prepend(head);
    const item = f => {
      const c = meta.counts[f];
      const n = f === 'inbox' || meta.custom.includes(f) ? (c.unread ? `<span class="n unread">${c.unread}</span>` : '') : '';
      return `<li><a href="index.html?folder=${encodeURIComponent(f)}" class="folder-link ${f === folder ? 'active' : ''}" data-folder="${esc(f)}"><span>${esc(label(meta, f))}</span>${n}</a></li>`;
    };
    document.getElementById('side').innerHTML = `<a class="btn compose" id="compose" href="compose.html">✎ Compose</a>
      <ul>${[...meta.system.slice(0, 1), 'starred', ...meta.system.slice(1)].map(item).join('')}</ul>
      <h4>Folders</h4><ul id="custom-folders">${meta.custom.map(item).join('')}</ul>
      <ul><li><a href="#" id="new-folder"><span>+ New folder</span></a></li></ul>`;
    const modal = document.createElement('div');
    modal.className = 'modal-back'; modal.id = 'folder-modal';
    modal.innerHTML = `<form class="modal" id="folder-form"><h3 style="margin:0">New folder</h3>
      <input id="folder-name" placeholder="Folder name" autocomplete="off"><div class="field-error" id="folder-error"></div>
      <div class="actions"><button type="button" class="ghost" id="folder-cancel">Cancel</button><button id="folder-create">Create</button></div></form>`;
    document.body.append(modal);
    document.getElementById('new-folder').addEventListener('click', e => {
      e.preventDefault(); modal.classList.add('open'); document.getElementById('folder-name').focus();
    });
    document.getElementById('folder-cancel').addEventListener('click', () => modal.classList.remove('open'));
    document.getElementById('folder-form').addEventListener('submit', async e => {
      e.preventDefault();
      const r = await api('folders', { method: 'POST', body: { name: document.getElementById('folder-name').value } });
      if (!r.ok) { document.getElementById('folder-error').textContent = r.data.error; return; }
      location.href = 'index.html?folder=' + encodeURIComponent(r.data.name);
    });
    return meta;
  }
  // a <select> offering every folder but `except`
  const moveSelect = (meta, except, id) => `<select id="${id}"><option value="">Move to…</option>${[...meta.system.filter(f => f !== 'sent'), ...meta.custom]
    .filter(f => f !== except).map(f => `<option value="${esc(f)}">${esc(label(meta, f))}</option>`).join('')}</select>`;
  return { api, esc, params, label, who, short, shell, moveSelect };
})();
