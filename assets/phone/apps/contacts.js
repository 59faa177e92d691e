/* Contacts app: list with favorites and search, detail, add/edit/delete, favorite; collection contacts(name, phone, email, favorite). */
phone.register({
  id: 'contacts', name: 'Contacts', icon: phone.icon('person'), color: '#1a73e8',
  mount(root, ctx) {
    const { esc, icon } = ctx;
    let rows = [], query = '';

    const row = (c, prefix = 'contact') => `<div class="row contact" id="${prefix}-${c.id}" data-id="${c.id}">${ctx.avatar(c.name)}
      <div class="main"><div class="primary">${esc(c.name)}</div><div class="secondary">${esc(c.phone)}</div></div>
      ${c.favorite ? `<span class="icon-btn on">${icon('star')}</span>` : ''}</div>`;

    function renderList() {
      const q = query.trim().toLowerCase();
      const hits = rows.filter(c => !q || c.name.toLowerCase().includes(q) || String(c.phone).replace(/\s/g, '').includes(q.replace(/\s/g, '')));
      const favs = q ? [] : hits.filter(c => c.favorite);
      let html = favs.length ? `<div class="section">Favorites</div><div class="list">${favs.map(c => row(c, 'fav')).join('')}</div>` : '';
      let letter = '';
      for (const c of hits) {
        const l = (c.name[0] || '#').toUpperCase();
        if (l !== letter) { html += `${letter ? '</div>' : ''}<div class="section">${esc(l)}</div><div class="list">`; letter = l; }
        html += row(c);
      }
      if (letter) html += '</div>';
      list.innerHTML = html || `<div class="empty">${q ? 'No matches' : 'No contacts yet'}</div>`;
    }
    async function load() {
      rows = (await ctx.list('contacts')).sort((a, b) => a.name.localeCompare(b.name));
      renderList();
    }

    root.innerHTML = `<div class="appbar"><span class="title">Contacts</span></div>
      <div class="search">${icon('search')}<input id="contact-search" type="search" placeholder="Search contacts" autocomplete="off"></div>
      <div class="content" id="contact-list"></div>
      <button class="fab" id="add-contact" aria-label="Add contact">${icon('add')}</button>`;
    const list = root.querySelector('#contact-list');
    root.querySelector('#contact-search').addEventListener('input', e => { query = e.target.value; renderList(); });
    root.querySelector('#add-contact').addEventListener('click', () => ctx.push(el => edit(el, null)));
    list.addEventListener('click', e => {
      const r = e.target.closest('[data-id]');
      if (r) ctx.push(el => detail(el, Number(r.dataset.id)));
    });
    list.addEventListener('longpress', async e => {
      const r = e.target.closest('[data-id]');
      if (!r) return;
      const c = rows.find(x => x.id === Number(r.dataset.id));
      r.classList.add('selected');
      const choice = await ctx.menu(c.name, [
        { label: 'Call', value: 'call', icon: 'call' }, { label: 'Send message', value: 'message', icon: 'chat' },
        { label: c.favorite ? 'Remove from favorites' : 'Add to favorites', value: 'favorite', icon: 'star' },
        { label: 'Edit', value: 'edit', icon: 'edit' }, { label: 'Delete', value: 'delete', icon: 'delete' }]);
      r.classList.remove('selected');
      await act(choice, c);
    });

    async function act(choice, c) {
      if (choice === 'call') return ctx.open('dialer', { call: c.phone, name: c.name });
      if (choice === 'message') return ctx.open('messages', { phone: c.phone, name: c.name });
      if (choice === 'favorite') { await ctx.api(`contacts/${c.id}`, { method: 'PUT', body: { favorite: !c.favorite } }); return load(); }
      if (choice === 'edit') return ctx.push(el => edit(el, c));
      if (choice === 'delete' && await ctx.confirm('Delete contact?', `${c.name} will be removed from your contacts.`, 'Delete')) {
        await ctx.api(`contacts/${c.id}`, { method: 'DELETE' });
        await load();   // the list is current before it shows again: one picture, not two
        while (ctx.depth() > 1) ctx.pop();
        ctx.toast('Contact deleted');
      }
    }

    async function detail(el, id) {
      const c = await ctx.api(`contacts/${id}`).catch(() => null);
      if (!c) { el.innerHTML = '<div class="empty">This contact no longer exists.</div>'; return; }
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Back">${icon('back')}</button><span class="title"></span>
        <button class="icon-btn ${c.favorite ? 'on' : ''}" id="contact-fav" aria-label="Favorite">${icon(c.favorite ? 'star' : 'star_border')}</button>
        <button class="icon-btn" id="contact-edit" aria-label="Edit">${icon('edit')}</button>
        <button class="icon-btn" id="contact-delete" aria-label="Delete">${icon('delete')}</button></div>
        <div class="content">${ctx.avatar(c.name, 'big')}<div style="text-align:center;font-size:26px;margin-bottom:18px" id="contact-name">${esc(c.name)}</div>
        <div style="display:flex;justify-content:center;gap:28px;margin-bottom:18px">
          <button class="btn tonal" id="contact-call">${icon('call')} Call</button><button class="btn tonal" id="contact-message">${icon('chat')} Text</button></div>
        <div class="section">Contact info</div><div class="list">
          <div class="row">${icon('call')}<div class="main"><div class="primary" id="contact-phone">${esc(c.phone)}</div><div class="secondary">Mobile</div></div></div>
          ${c.email ? `<div class="row">${icon('mail')}<div class="main"><div class="primary" id="contact-email">${esc(c.email)}</div><div class="secondary">Email</div></div></div>` : ''}
        </div></div>`;
      el.querySelector('[data-back]').addEventListener('click', () => ctx.pop());
      el.querySelector('#contact-call').addEventListener('click', () => act('call', c));
      el.querySelector('#contact-message').addEventListener('click', () => act('message', c));
      el.querySelector('#contact-edit').addEventListener('click', () => act('edit', c));
      el.querySelector('#contact-delete').addEventListener('click', () => act('delete', c));
      el.querySelector('#contact-fav').addEventListener('click', async () => {
        await act('favorite', c);
        ctx.pop();
        ctx.push(e2 => detail(e2, id));
      });
    }

    function edit(el, c) {
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Cancel">${icon('close')}</button>
        <span class="title">${c ? 'Edit contact' : 'Create contact'}</span><button class="btn" id="save">Save</button></div>
        <div class="content"><div class="form">
          <div class="field"><label for="name">Name</label><input id="name" autocomplete="off" value="${esc(c ? c.name : '')}"></div>
          <div class="field"><label for="number">Phone</label><input id="number" type="tel" autocomplete="off" value="${esc(c ? c.phone : '')}"></div>
          <div class="field"><label for="email">Email</label><input id="email" type="email" autocomplete="off" value="${esc(c ? c.email || '' : '')}"></div>
          <div class="error" id="error"></div></div></div>`;
      el.querySelector('[data-back]').addEventListener('click', () => ctx.pop());
      el.querySelector('#save').addEventListener('click', async () => {
        const body = { name: el.querySelector('#name').value.trim(), phone: el.querySelector('#number').value.trim(),
          email: el.querySelector('#email').value.trim() };
        if (!body.name || !body.phone) { el.querySelector('#error').textContent = 'Name and phone are required.'; return; }
        if (c) await ctx.api(`contacts/${c.id}`, { method: 'PUT', body });
        else await ctx.api('contacts', { method: 'POST', body: { ...body, favorite: false } });
        await load();   // the list is current before it shows again: one picture, not two
        while (ctx.depth() > 1) ctx.pop();
        ctx.toast(c ? 'Contact updated' : 'Contact saved');
      });
    }

    const intent = ctx.intent;
    if (intent && intent.add) ctx.push(el => { edit(el, null); el.querySelector('#number').value = intent.add; });
    return load();
  },
});
