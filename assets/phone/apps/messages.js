/* Messages app: conversations by phone number, a conversation with bubbles, send, delete; collection messages(contact, phone, body, time, outgoing, read). */
phone.register({
  id: 'messages', name: 'Messages', icon: phone.icon('chat'), color: '#188038',
  mount(root, ctx) {
    const { esc, icon } = ctx;
    const digits = s => String(s || '').replace(/\D/g, '');
    let msgs = [], contacts = [];
    const nameOf = num => (contacts.find(c => digits(c.phone) === digits(num)) || {}).name;
    const stamp = () => `${ctx.ymd(ctx.now())} ${ctx.hm(ctx.now())}`;
    const when = t => {
      const [d, h] = String(t).split(' ');
      if (d === ctx.ymd(ctx.now())) return h;
      const day = ctx.parseYmd(d);
      return `${ctx.MONTHS[day.getMonth()].slice(0, 3)} ${day.getDate()}`;
    };
    async function load() {
      [msgs, contacts] = await Promise.all([ctx.list('messages'), ctx.list('contacts')]);
      msgs.sort((a, b) => String(a.time).localeCompare(String(b.time)) || a.id - b.id);
    }
    function threads() {
      const by = new Map();
      for (const m of msgs) {
        const k = digits(m.phone);
        if (!by.has(k)) by.set(k, { phone: m.phone, name: '', items: [] });
        const t = by.get(k);
        t.items.push(m);
        if (m.contact) t.name = m.contact;
      }
      for (const t of by.values()) t.name = nameOf(t.phone) || t.name || t.phone;
      return [...by.values()].sort((a, b) => String(b.items.at(-1).time).localeCompare(String(a.items.at(-1).time)));
    }
    function renderList() {
      const ts = threads();
      list.innerHTML = ts.map(t => {
        const last = t.items.at(-1), unread = t.items.some(m => !m.outgoing && !m.read);
        return `<div class="row thread ${unread ? 'unread' : ''}" id="thread-${digits(t.phone)}" data-phone="${esc(t.phone)}">${ctx.avatar(t.name)}
          <div class="main"><div class="primary">${esc(t.name)}</div><div class="secondary">${last.outgoing ? 'You: ' : ''}${esc(last.body)}</div></div>
          <div class="meta">${esc(when(last.time))}</div></div>`;
      }).join('') || '<div class="empty">No conversations</div>';
    }
    root.innerHTML = `<div class="appbar"><span class="title">Messages</span></div>
      <div class="content"><div class="list" id="thread-list"></div></div>
      <button class="fab extended" id="new-message">${icon('chat')}Start chat</button>`;
    const list = root.querySelector('#thread-list');
    list.addEventListener('click', e => { const r = e.target.closest('[data-phone]'); if (r) ctx.push(el => conversation(el, r.dataset.phone)); });
    list.addEventListener('longpress', async e => {
      const r = e.target.closest('[data-phone]');
      if (!r) return;
      r.classList.add('selected');
      const choice = await ctx.menu(r.querySelector('.primary').textContent, [
        { label: 'Delete conversation', value: 'delete', icon: 'delete' }, { label: 'Call', value: 'call', icon: 'call' }]);
      r.classList.remove('selected');
      if (choice === 'call') return ctx.open('dialer', { call: r.dataset.phone, name: nameOf(r.dataset.phone) || '' });
      if (choice === 'delete' && await ctx.confirm('Delete conversation?', 'All its messages will be deleted.', 'Delete')) {
        for (const m of msgs.filter(x => digits(x.phone) === digits(r.dataset.phone))) await ctx.api(`messages/${m.id}`, { method: 'DELETE' });
        await load();
        renderList();
      }
    });
    root.querySelector('#new-message').addEventListener('click', () => ctx.push(compose));

    function compose(el) {
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Back">${icon('back')}</button><span class="title">New conversation</span></div>
        <div class="search"><span style="color:var(--muted)">To</span><input id="to" type="text" placeholder="Type a name or phone number" autocomplete="off"></div>
        <div class="content"><div class="list" id="to-list"></div></div>`;
      const to = el.querySelector('#to'), out = el.querySelector('#to-list');
      const render = () => {
        const q = to.value.trim().toLowerCase();
        const hits = contacts.filter(c => !q || c.name.toLowerCase().includes(q) || digits(c.phone).includes(digits(q) || '-'))
          .sort((a, b) => a.name.localeCompare(b.name));
        const raw = digits(q).length >= 3 ? `<div class="row" id="to-number" data-phone="${esc(to.value.trim())}">${ctx.avatar('#')}<div class="main"><div class="primary">Send to ${esc(to.value.trim())}</div></div></div>` : '';
        out.innerHTML = raw + hits.map(c => `<div class="row" data-phone="${esc(c.phone)}" id="to-contact-${c.id}">${ctx.avatar(c.name)}
          <div class="main"><div class="primary">${esc(c.name)}</div><div class="secondary">${esc(c.phone)}</div></div></div>`).join('');
      };
      to.addEventListener('input', render);
      out.addEventListener('click', e => {
        const r = e.target.closest('[data-phone]');
        if (r) { ctx.pop(); ctx.push(c => conversation(c, r.dataset.phone)); }
      });
      el.querySelector('[data-back]').addEventListener('click', () => ctx.pop());
      render();
    }

    async function conversation(el, number) {
      const mine = () => msgs.filter(m => digits(m.phone) === digits(number));
      for (const m of mine().filter(m => !m.outgoing && !m.read)) {
        m.read = true;
        await ctx.api(`messages/${m.id}`, { method: 'PUT', body: { read: true } }).catch(() => {});
      }
      const name = nameOf(number) || (mine().find(m => m.contact) || {}).contact || number;
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Back">${icon('back')}</button>
        <span class="title" id="thread-title">${esc(name)}</span><button class="icon-btn" id="thread-call" aria-label="Call">${icon('call')}</button></div>
        <div class="content" id="bubbles" style="padding:10px 12px;display:flex;flex-direction:column;gap:6px"></div>
        <div style="display:flex;gap:8px;padding:8px 10px;background:var(--surface);align-items:center">
          <input id="compose" type="text" placeholder="Text message" autocomplete="off" style="flex:1;height:44px;border:0;border-radius:22px;background:#e9eef6;padding:0 16px;font-size:16px;outline:none">
          <button class="icon-btn" id="send" aria-label="Send" style="background:var(--primary);color:#fff">${icon('send')}</button></div>`;
      const box = el.querySelector('#bubbles');
      const render = () => {
        let day = '';
        box.innerHTML = mine().map(m => {
          const [d, h] = String(m.time).split(' ');
          const head = d !== day ? `<div style="text-align:center;font-size:12px;color:var(--muted);margin:8px 0">${esc(d === ctx.ymd(ctx.now()) ? 'Today' : d)}</div>` : '';
          day = d;
          return `${head}<div class="bubble" id="msg-${m.id}" data-id="${m.id}" style="max-width:78%;padding:9px 13px;border-radius:18px;font-size:15px;${m.outgoing
            ? 'align-self:flex-end;background:#0b57d0;color:#fff' : 'align-self:flex-start;background:#e9eef6'}">${esc(m.body)}
            <div style="font-size:11px;opacity:.7;margin-top:3px;text-align:right">${esc(h || '')}</div></div>`;
        }).join('');
        setTimeout(() => { box.scrollTop = box.scrollHeight; }, 0);   // once the screen is shown
      };
      const send = async () => {
        const input = el.querySelector('#compose'), body = input.value.trim();
        if (!body) return;
        const row = await ctx.api('messages', { method: 'POST', body: { contact: nameOf(number) || '', phone: number, body, time: stamp(), outgoing: true, read: true } });
        msgs.push(row);
        input.value = '';
        render();
        renderList();
      };
      el.querySelector('#send').addEventListener('click', send);
      el.querySelector('#compose').addEventListener('keydown', e => { if (e.key === 'Enter') send(); });
      el.querySelector('[data-back]').addEventListener('click', () => { renderList(); ctx.pop(); });
      el.querySelector('#thread-call').addEventListener('click', () => ctx.open('dialer', { call: number, name: nameOf(number) || '' }));
      box.addEventListener('longpress', async e => {
        const b = e.target.closest('[data-id]');
        if (!b) return;
        const choice = await ctx.menu('Message', [{ label: 'Delete message', value: 'delete', icon: 'delete' }]);
        if (choice === 'delete') {
          await ctx.api(`messages/${b.dataset.id}`, { method: 'DELETE' });
          msgs = msgs.filter(m => m.id !== Number(b.dataset.id));
          render();
          renderList();
        }
      });
      render();
    }

    return (async () => {
      await load();
      renderList();
      if (ctx.intent && ctx.intent.phone) await ctx.push(el => conversation(el, ctx.intent.phone));
    })();
  },
});
