/* Clock app: alarms (add with a time picker, label, repeat days, toggle, delete), a timer and a stopwatch; collection alarms(time, label, enabled, days). */
phone.register({
  id: 'clock', name: 'Clock', icon: phone.icon('alarm'), color: '#3367d6',
  mount(root, ctx) {
    const { esc, icon, pad } = ctx;
    const WEEK = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    let alarms = [], tab = 'alarm', tickTimer = null;
    const timer = { total: 0, left: 0, running: false, last: 0 };
    const watch = { ms: 0, running: false, last: 0, laps: [] };
    const fmt = ms => { const s = Math.floor(ms / 1000); return `${pad(Math.floor(s / 60))}:${pad(s % 60)}.${pad(Math.floor(ms % 1000 / 10))}`; };
    const fmtT = s => `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s % 3600 / 60))}:${pad(s % 60)}`;
    const daysText = d => !d ? 'Not scheduled' : d === WEEK.join(',') ? 'Every day' : d === 'Mon,Tue,Wed,Thu,Fri' ? 'Weekdays' : d.split(',').join(', ');

    root.innerHTML = `<div class="appbar"><span class="title" id="clock-title">Alarm</span></div>
      <div class="content" id="clock-body"></div>
      <div class="bottom-nav">${[['alarm', 'Alarm', 'alarm'], ['timer', 'Timer', 'timer'], ['stopwatch', 'Stopwatch', 'history']].map(([k, l, ic]) =>
        `<button id="tab-${k}" data-tab="${k}">${icon(ic)}${l}</button>`).join('')}</div>`;
    const body = root.querySelector('#clock-body');
    root.querySelector('.bottom-nav').addEventListener('click', e => { const b = e.target.closest('[data-tab]'); if (b) { tab = b.dataset.tab; render(); } });

    async function load() { alarms = (await ctx.list('alarms')).sort((a, b) => String(a.time).localeCompare(String(b.time)) || a.id - b.id); }
    function render() {
      root.querySelectorAll('.bottom-nav button').forEach(b => b.classList.toggle('on', b.dataset.tab === tab));
      root.querySelector('#clock-title').textContent = { alarm: 'Alarm', timer: 'Timer', stopwatch: 'Stopwatch' }[tab];
      clearInterval(tickTimer);
      if (tab === 'alarm') renderAlarms();
      else if (tab === 'timer') renderTimer();
      else renderWatch();
    }
    function renderAlarms() {
      body.innerHTML = `<div class="list" id="alarm-list">${alarms.map(a => `<div class="row alarm" id="alarm-${a.id}" data-id="${a.id}" style="min-height:84px">
        <div class="main"><div class="primary" style="font-size:34px;${a.enabled ? '' : 'color:#9aa0a6'}">${esc(a.time)}</div>
        <div class="secondary">${esc(a.label ? a.label + ' · ' : '')}${esc(daysText(a.days))}</div></div>
        <button class="switch ${a.enabled ? 'on' : ''}" id="alarm-toggle-${a.id}" data-toggle="${a.id}" aria-label="Alarm ${esc(a.time)} on or off"></button></div>`).join('')
        || '<div class="empty">No alarms</div>'}</div><div style="height:90px"></div>
        <button class="fab" id="add-alarm" aria-label="Add alarm">${icon('add')}</button>`;
      body.querySelector('#add-alarm').addEventListener('click', () => ctx.push(el => edit(el, null)));
    }
    body.addEventListener('click', async e => {
      const t = e.target.closest('[data-toggle]');
      if (t) {
        const a = alarms.find(x => x.id === Number(t.dataset.toggle));
        a.enabled = !a.enabled;
        await ctx.api(`alarms/${a.id}`, { method: 'PUT', body: { enabled: a.enabled } });
        if (a.enabled) ctx.toast(`Alarm set for ${a.time}`);
        return renderAlarms();
      }
      const r = e.target.closest('.alarm[data-id]');
      if (r) ctx.push(el => edit(el, alarms.find(x => x.id === Number(r.dataset.id))));
    });
    body.addEventListener('longpress', async e => {
      const r = e.target.closest('.alarm[data-id]');
      if (!r) return;
      const a = alarms.find(x => x.id === Number(r.dataset.id));
      r.classList.add('selected');
      const choice = await ctx.menu(`Alarm ${a.time}`, [{ label: 'Delete', value: 'delete', icon: 'delete' }, { label: 'Edit', value: 'edit', icon: 'edit' }]);
      r.classList.remove('selected');
      if (choice === 'delete') await remove(a);
      if (choice === 'edit') ctx.push(el => edit(el, a));
    });
    async function remove(a) {
      await ctx.api(`alarms/${a.id}`, { method: 'DELETE' });
      await load();   // the list is current before it shows again: one picture, not two
      renderAlarms();
      while (ctx.depth() > 1) ctx.pop();
      ctx.toast('Alarm deleted');
    }

    function edit(el, a) {
      let time = a ? a.time : '07:00';
      const days = new Set(a && a.days ? a.days.split(',') : []);
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Cancel">${icon('close')}</button>
        <span class="title">${a ? 'Edit alarm' : 'New alarm'}</span>
        ${a ? `<button class="icon-btn" id="alarm-delete" aria-label="Delete alarm">${icon('delete')}</button>` : ''}<button class="btn" id="save">Save</button></div>
        <div class="content"><div class="form">
          <button class="picker" id="alarm-time" style="font-size:54px;border:0;background:none;font-weight:300">${esc(time)}</button>
          <div class="field"><label for="alarm-label">Label</label><input id="alarm-label" autocomplete="off" value="${esc(a ? a.label : '')}"></div>
          <div class="field"><label>Repeat</label><div style="display:flex;gap:4px;flex-wrap:wrap" id="alarm-days">${WEEK.map(d =>
            `<button class="chip ${days.has(d) ? 'on' : ''}" data-day="${d}" id="day-${d}">${d}</button>`).join('')}</div></div></div></div>`;
      el.querySelector('[data-back]').addEventListener('click', () => ctx.pop());
      el.querySelector('#alarm-time').addEventListener('click', async () => {
        const t = await ctx.pickTime(time);
        if (t) { time = t; el.querySelector('#alarm-time').textContent = t; }
      });
      el.querySelector('#alarm-days').addEventListener('click', e => {
        const c = e.target.closest('[data-day]');
        if (!c) return;
        days.has(c.dataset.day) ? days.delete(c.dataset.day) : days.add(c.dataset.day);
        c.classList.toggle('on', days.has(c.dataset.day));
      });
      el.querySelector('#alarm-delete')?.addEventListener('click', () => remove(a));
      el.querySelector('#save').addEventListener('click', async () => {
        const b = { time, label: el.querySelector('#alarm-label').value.trim(), days: WEEK.filter(d => days.has(d)).join(',') };
        if (a) await ctx.api(`alarms/${a.id}`, { method: 'PUT', body: b });
        else await ctx.api('alarms', { method: 'POST', body: { ...b, enabled: true } });
        await load();   // the list is current before it shows again: one picture, not two
        renderAlarms();
        ctx.pop();
        ctx.toast(`Alarm set for ${time}`);
      });
    }

    function renderTimer() {
      const step = () => {
        const now = ctx.now().getTime();
        if (timer.running) { timer.left = Math.max(0, timer.left - (now - timer.last)); timer.last = now; if (!timer.left) { timer.running = false; ctx.notify({ title: 'Timer', body: "Time's up" }); } }
        const d = body.querySelector('#timer-display');
        if (d) d.textContent = fmtT(Math.ceil(timer.left / 1000));
      };
      if (!timer.total) {
        body.innerHTML = `<div class="form" style="align-items:center;padding-top:40px"><div class="spin">
          <div class="col"><input id="timer-min" type="tel" inputmode="numeric" maxlength="3" value="05"><span class="secondary">min</span></div><span class="sep">:</span>
          <div class="col"><input id="timer-sec" type="tel" inputmode="numeric" maxlength="2" value="00"><span class="secondary">sec</span></div></div>
          <button class="btn" id="timer-start" style="margin-top:30px">${icon('play')} Start</button></div>`;
        body.querySelectorAll('input').forEach(i => i.addEventListener('focus', () => i.select()));
        body.querySelector('#timer-start').addEventListener('click', () => {
          const s = (Number(body.querySelector('#timer-min').value) || 0) * 60 + (Number(body.querySelector('#timer-sec').value) || 0);
          if (!s) return ctx.toast('Set a time first');
          Object.assign(timer, { total: s * 1000, left: s * 1000, running: true, last: ctx.now().getTime() });
          renderTimer();
        });
        return;
      }
      body.innerHTML = `<div style="text-align:center;padding-top:80px"><div id="timer-display" style="font-size:56px;font-weight:300">${fmtT(Math.ceil(timer.left / 1000))}</div>
        <div style="display:flex;justify-content:center;gap:14px;margin-top:30px"><button class="btn tonal" id="timer-reset">Delete</button>
        <button class="btn" id="timer-toggle">${timer.running ? 'Pause' : 'Resume'}</button></div></div>`;
      body.querySelector('#timer-reset').addEventListener('click', () => { Object.assign(timer, { total: 0, left: 0, running: false }); renderTimer(); });
      body.querySelector('#timer-toggle').addEventListener('click', () => { step(); timer.running = !timer.running; timer.last = ctx.now().getTime(); renderTimer(); });
      tickTimer = setInterval(step, 1000);
    }
    function renderWatch() {
      const step = () => {
        const now = ctx.now().getTime();
        if (watch.running) { watch.ms += now - watch.last; watch.last = now; }
        const d = body.querySelector('#stopwatch-display');
        if (d) d.textContent = fmt(watch.ms);
      };
      body.innerHTML = `<div style="text-align:center;padding-top:70px"><div id="stopwatch-display" style="font-size:56px;font-weight:300">${fmt(watch.ms)}</div>
        <div style="display:flex;justify-content:center;gap:14px;margin-top:30px"><button class="btn tonal" id="stopwatch-reset">${watch.running ? 'Lap' : 'Reset'}</button>
        <button class="btn" id="stopwatch-toggle">${watch.running ? 'Stop' : 'Start'}</button></div>
        <div class="list" style="margin-top:20px;text-align:left" id="laps">${watch.laps.map((l, i) => `<div class="row"><div class="main">Lap ${i + 1}</div><div class="meta">${fmt(l)}</div></div>`).reverse().join('')}</div></div>`;
      body.querySelector('#stopwatch-toggle').addEventListener('click', () => { step(); watch.running = !watch.running; watch.last = ctx.now().getTime(); renderWatch(); });
      body.querySelector('#stopwatch-reset').addEventListener('click', () => {
        step();
        if (watch.running) watch.laps.push(watch.ms); else Object.assign(watch, { ms: 0, laps: [] });
        renderWatch();
      });
      if (watch.running) tickTimer = setInterval(step, 1000);
    }

    this.unmount = () => clearInterval(tickTimer);
    return (async () => { await load(); render(); })();
  },
});
