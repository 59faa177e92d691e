/* Phone (dialer) app: keypad, call log, call details, placing calls; collection calls(name, phone, time, direction, duration_s). */
phone.register({
  id: 'dialer', name: 'Phone', icon: phone.icon('call'), color: '#0b8043',
  mount(root, ctx) {
    const { esc, icon } = ctx;
    const digits = s => String(s || '').replace(/\D/g, '');
    const DIR = { in: ['call_received', '#188038', 'Incoming'], out: ['call_made', '#1a73e8', 'Outgoing'], missed: ['call_missed', '#d93025', 'Missed'] };
    let calls = [], contacts = [], tab = 'recents';
    const nameOf = num => (contacts.find(c => digits(c.phone) === digits(num)) || {}).name || '';
    const stamp = () => `${ctx.ymd(ctx.now())} ${ctx.hm(ctx.now())}`;
    const when = t => {
      const [d, h] = String(t).split(' ');
      if (d === ctx.ymd(ctx.now())) return `Today ${h}`;
      const day = ctx.parseYmd(d);
      return `${ctx.MONTHS[day.getMonth()].slice(0, 3)} ${day.getDate()}, ${h}`;
    };
    async function load() {
      [calls, contacts] = await Promise.all([ctx.list('calls'), ctx.list('contacts')]);
      calls.sort((a, b) => String(b.time).localeCompare(String(a.time)) || b.id - a.id);
    }

    root.innerHTML = `<div class="appbar"><span class="title">Phone</span></div>
      <div class="tabs"><button class="tab" id="tab-recents" data-tab="recents">Recents</button><button class="tab" id="tab-keypad" data-tab="keypad">Keypad</button></div>
      <div class="content" id="dialer-body"></div>`;
    const body = root.querySelector('#dialer-body');
    root.querySelector('.tabs').addEventListener('click', e => { const t = e.target.closest('[data-tab]'); if (t) { tab = t.dataset.tab; render(); } });

    function render(prefill = '') {
      root.querySelectorAll('.tab').forEach(t => t.classList.toggle('on', t.dataset.tab === tab));
      if (tab === 'keypad') return keypad(prefill);
      body.innerHTML = `<div class="list" id="call-log">${calls.map(c => {
        const [ic, color, label] = DIR[c.direction] || DIR.out;
        const who = c.name || nameOf(c.phone) || c.phone;
        return `<div class="row call" id="call-${c.id}" data-id="${c.id}">${ctx.avatar(who)}
          <div class="main"><div class="primary" style="${c.direction === 'missed' ? 'color:#d93025' : ''}">${esc(who)}</div>
          <div class="secondary"><span style="color:${color}">${icon(ic).replace('class="i"', 'class="i" style="width:14px;height:14px"')}</span> ${label} · ${esc(when(c.time))}</div></div>
          <button class="icon-btn call-back" data-call="${esc(c.phone)}" aria-label="Call ${esc(who)}">${icon('call')}</button></div>`;
      }).join('') || '<div class="empty">No recent calls</div>'}</div>`;
    }
    body.addEventListener('click', e => {
      const cb = e.target.closest('[data-call]');
      if (cb) return call(cb.dataset.call);
      const r = e.target.closest('.call[data-id]');
      if (r) ctx.push(el => details(el, calls.find(c => c.id === Number(r.dataset.id))));
    });
    body.addEventListener('longpress', async e => {
      const r = e.target.closest('.call[data-id]');
      if (!r) return;
      const c = calls.find(x => x.id === Number(r.dataset.id));
      r.classList.add('selected');
      const items = [{ label: 'Delete from call history', value: 'delete', icon: 'delete' }, { label: 'Send message', value: 'message', icon: 'chat' }];
      if (!nameOf(c.phone)) items.push({ label: 'Add to contacts', value: 'add', icon: 'person' });
      const choice = await ctx.menu(c.name || c.phone, items);
      r.classList.remove('selected');
      await act(choice, c);
    });
    async function act(choice, c) {
      if (choice === 'delete') {
        await ctx.api(`calls/${c.id}`, { method: 'DELETE' });
        await load();   // the log is current before it shows again: one picture, not two
        render();
        while (ctx.depth() > 1) ctx.pop();
      } else if (choice === 'message') ctx.open('messages', { phone: c.phone });
      else if (choice === 'add') ctx.open('contacts', { add: c.phone });
    }

    function keypad(prefill) {
      const keys = [['1', ''], ['2', 'ABC'], ['3', 'DEF'], ['4', 'GHI'], ['5', 'JKL'], ['6', 'MNO'], ['7', 'PQRS'], ['8', 'TUV'], ['9', 'WXYZ'], ['*', ''], ['0', '+'], ['#', '']];
      body.innerHTML = `<div style="display:flex;flex-direction:column;align-items:center;padding:16px 0">
        <input id="dial-number" type="tel" inputmode="none" autocomplete="off" value="${esc(prefill)}"
          style="width:300px;border:0;background:none;text-align:center;font-size:32px;height:56px;outline:none">
        <div id="dial-name" style="height:20px;color:var(--muted);font-size:14px"></div>
        <div style="display:grid;grid-template-columns:repeat(3,84px);gap:10px 22px;margin-top:12px">${keys.map(([d, l]) =>
          `<button class="dial-key" data-digit="${d}" id="dial-${d === '*' ? 'star' : d === '#' ? 'hash' : d}" style="height:70px;border:0;border-radius:35px;background:#e9eef6;font-size:28px;line-height:1">${d}<div style="font-size:10px;color:var(--muted);height:12px">${l}</div></button>`).join('')}</div>
        <div style="display:flex;align-items:center;gap:40px;margin-top:18px">
          <span style="width:48px"></span>
          <button id="dial-call" aria-label="Call" style="width:76px;height:56px;border:0;border-radius:28px;background:#188038;color:#fff;display:grid;place-items:center">${icon('call')}</button>
          <button class="icon-btn" id="dial-del" aria-label="Delete digit">${icon('backspace')}</button></div></div>`;
      const num = body.querySelector('#dial-number'), name = body.querySelector('#dial-name');
      const show = () => { name.textContent = nameOf(num.value); };
      num.addEventListener('input', show);
      num.addEventListener('keydown', e => { if (e.key === 'Enter') call(num.value); });
      body.querySelectorAll('[data-digit]').forEach(b => b.addEventListener('click', () => { num.value += b.dataset.digit; show(); }));
      body.querySelector('#dial-0').addEventListener('longpress', () => { num.value += '+'; show(); });   // a held 0 is "+"
      body.querySelector('#dial-del').addEventListener('click', () => { num.value = num.value.slice(0, -1); show(); });
      body.querySelector('#dial-call').addEventListener('click', () => call(num.value));
      show();
    }

    function details(el, c) {
      const who = c.name || nameOf(c.phone) || c.phone;
      const [, , label] = DIR[c.direction] || DIR.out;
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Back">${icon('back')}</button><span class="title">Call details</span>
        <button class="icon-btn" id="call-delete" aria-label="Delete">${icon('delete')}</button></div>
        <div class="content">${ctx.avatar(who, 'big')}<div style="text-align:center;font-size:24px" id="call-who">${esc(who)}</div>
        <div style="text-align:center;color:var(--muted);margin:4px 0 18px">${esc(c.phone)}</div>
        <div style="display:flex;justify-content:center;gap:16px;margin-bottom:18px">
          <button class="btn tonal" id="call-again">${icon('call')} Call</button><button class="btn tonal" id="call-message">${icon('chat')} Message</button>
          ${nameOf(c.phone) ? '' : `<button class="btn tonal" id="call-add">${icon('person')} Add</button>`}</div>
        <div class="list"><div class="row"><div class="main"><div class="primary">${label} call</div>
          <div class="secondary">${esc(when(c.time))}${c.direction === 'missed' ? '' : ` · ${Math.floor((c.duration_s || 0) / 60)} min ${(c.duration_s || 0) % 60} s`}</div></div></div></div></div>`;
      el.querySelector('[data-back]').addEventListener('click', () => ctx.pop());
      el.querySelector('#call-again').addEventListener('click', () => call(c.phone));
      el.querySelector('#call-message').addEventListener('click', () => act('message', c));
      el.querySelector('#call-delete').addEventListener('click', () => act('delete', c));
      el.querySelector('#call-add')?.addEventListener('click', () => act('add', c));
    }

    async function call(number) {
      number = String(number || '').trim();
      if (!digits(number)) { ctx.toast('Enter a number'); return; }
      const name = nameOf(number);
      const row = await ctx.api('calls', { method: 'POST', body: { name, phone: number, time: stamp(), direction: 'out', duration_s: 0 } });
      const started = ctx.now().getTime();
      await ctx.push(el => {
        el.style.background = '#0f2a3f';
        el.innerHTML = `<div style="flex:1;display:flex;flex-direction:column;align-items:center;color:#fff;padding-top:70px" id="in-call">
          ${ctx.avatar(name || '#', 'big')}<div style="font-size:28px" id="call-name">${esc(name || number)}</div>
          <div style="opacity:.8;margin-top:6px">${esc(name ? number : '')}</div><div style="opacity:.8;margin-top:14px" id="call-state">Calling…</div>
          <button id="end-call" aria-label="End call" style="margin-top:auto;margin-bottom:60px;width:76px;height:76px;border:0;border-radius:50%;background:#d93025;color:#fff;display:grid;place-items:center">${icon('call_end')}</button></div>`;
        el.querySelector('#end-call').addEventListener('click', async () => {
          const secs = Math.round((ctx.now().getTime() - started) / 1000);
          await ctx.api(`calls/${row.id}`, { method: 'PUT', body: { duration_s: secs } }).catch(() => {});
          await load();   // the log is current before it shows again: one picture, not two
          tab = 'recents';
          render();
          ctx.pop();
        });
      });
    }

    return (async () => {
      await load();
      const it = ctx.intent || {};
      if (it.dial) tab = 'keypad';
      render(it.dial || '');
      if (it.call) await call(it.call);
    })();
  },
});
