/* Calendar app: month view, the day's agenda, event details, add/edit/delete with date and time pickers; collection events(title, date, start, end, location, notes). */
phone.register({
  id: 'calendar', name: 'Calendar', icon: phone.icon('event'), color: '#1967d2',
  mount(root, ctx) {
    const { esc, icon } = ctx;
    let events = [];
    const today = ctx.ymd(ctx.now());
    let selected = today, view = ctx.parseYmd(today);
    const longDate = s => { const d = ctx.parseYmd(s); return `${ctx.DAYS[d.getDay()]}, ${ctx.MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`; };
    const byTime = (a, b) => String(a.start).localeCompare(String(b.start)) || a.id - b.id;

    async function load() { events = await ctx.list('events'); }
    root.innerHTML = `<div class="appbar"><span class="title">Calendar</span>
      <button class="btn text" id="cal-today">Today</button></div>
      <div style="background:var(--surface);padding:0 8px 6px;flex:none">
        <div class="month-head"><button class="icon-btn" id="cal-prev" aria-label="Previous month">${icon('left')}</button>
        <span class="label" id="cal-month"></span><button class="icon-btn" id="cal-next" aria-label="Next month">${icon('right')}</button></div>
        <div class="cal-grid" id="cal-grid"></div></div>
      <div class="section" id="agenda-title"></div>
      <div class="content"><div class="list" id="agenda"></div><div style="height:90px"></div></div>
      <button class="fab" id="add-event" aria-label="New event">${icon('add')}</button>`;
    const $ = s => root.querySelector(s);

    function render() {
      $('#cal-month').textContent = `${ctx.MONTHS[view.getMonth()]} ${view.getFullYear()}`;
      $('#cal-grid').innerHTML = phone.monthGrid(view.getFullYear(), view.getMonth(),
        { selected, today, marks: new Set(events.map(e => e.date)) });
      $('#agenda-title').textContent = longDate(selected);
      const day = events.filter(e => e.date === selected).sort(byTime);
      $('#agenda').innerHTML = day.map(e => `<div class="row event" id="event-${e.id}" data-id="${e.id}">
        <div style="width:6px;align-self:stretch;border-radius:3px;background:#1967d2"></div>
        <div class="main"><div class="primary">${esc(e.title)}</div><div class="secondary">${esc(e.start)} – ${esc(e.end)}${e.location ? ' · ' + esc(e.location) : ''}</div></div></div>`).join('')
        || '<div class="empty" style="padding:30px">No events</div>';
    }
    $('#cal-prev').addEventListener('click', () => { view = new Date(view.getFullYear(), view.getMonth() - 1, 1); render(); });
    $('#cal-next').addEventListener('click', () => { view = new Date(view.getFullYear(), view.getMonth() + 1, 1); render(); });
    $('#cal-today').addEventListener('click', () => { selected = today; view = ctx.parseYmd(today); render(); });
    $('#cal-grid').addEventListener('click', e => {
      const d = e.target.closest('[data-date]');
      if (!d) return;
      selected = d.dataset.date;
      const s = ctx.parseYmd(selected);
      if (s.getMonth() !== view.getMonth()) view = new Date(s.getFullYear(), s.getMonth(), 1);
      render();
    });
    $('#add-event').addEventListener('click', () => ctx.push(el => edit(el, null)));
    $('#agenda').addEventListener('click', e => { const r = e.target.closest('[data-id]'); if (r) ctx.push(el => detail(el, Number(r.dataset.id))); });
    $('#agenda').addEventListener('longpress', async e => {
      const r = e.target.closest('[data-id]');
      if (!r) return;
      const ev = events.find(x => x.id === Number(r.dataset.id));
      r.classList.add('selected');
      const choice = await ctx.menu(ev.title, [{ label: 'Edit', value: 'edit', icon: 'edit' }, { label: 'Delete', value: 'delete', icon: 'delete' }]);
      r.classList.remove('selected');
      if (choice === 'edit') ctx.push(el => edit(el, ev));
      if (choice === 'delete') await remove(ev);
    });
    async function remove(ev) {
      if (!await ctx.confirm('Delete event?', `“${ev.title}” will be deleted.`, 'Delete')) return;
      await ctx.api(`events/${ev.id}`, { method: 'DELETE' });
      await load();   // the month is current before it shows again: one picture, not two
      render();
      while (ctx.depth() > 1) ctx.pop();
      ctx.toast('Event deleted');
    }

    function detail(el, id) {
      const ev = events.find(x => x.id === id);
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Back">${icon('back')}</button><span class="title"></span>
        <button class="icon-btn" id="event-edit" aria-label="Edit">${icon('edit')}</button>
        <button class="icon-btn" id="event-delete" aria-label="Delete">${icon('delete')}</button></div>
        <div class="content" style="padding:8px 20px">
          <div style="font-size:26px;margin:6px 0 10px" id="event-title-view">${esc(ev.title)}</div>
          <div class="row" style="padding:8px 0">${icon('clock')}<div class="main"><div class="primary" id="event-when">${esc(longDate(ev.date))}</div>
            <div class="secondary">${esc(ev.start)} – ${esc(ev.end)}</div></div></div>
          ${ev.location ? `<div class="row" style="padding:8px 0">${icon('place')}<div class="main"><div class="primary" id="event-where">${esc(ev.location)}</div></div></div>` : ''}
          ${ev.notes ? `<div class="row" style="padding:8px 0">${icon('notes')}<div class="main" style="white-space:pre-wrap" id="event-notes-view">${esc(ev.notes)}</div></div>` : ''}</div>`;
      el.querySelector('[data-back]').addEventListener('click', () => ctx.pop());
      el.querySelector('#event-edit').addEventListener('click', () => ctx.push(e2 => edit(e2, ev)));
      el.querySelector('#event-delete').addEventListener('click', () => remove(ev));
    }

    function edit(el, ev) {
      const v = ev ? { ...ev } : { title: '', date: selected, start: '09:00', end: '10:00', location: '', notes: '' };
      el.innerHTML = `<div class="appbar"><button class="icon-btn" data-back aria-label="Cancel">${icon('close')}</button>
        <span class="title">${ev ? 'Edit event' : 'New event'}</span><button class="btn" id="save">Save</button></div>
        <div class="content"><div class="form">
          <div class="field"><label for="event-title">Title</label><input id="event-title" autocomplete="off" value="${esc(v.title)}"></div>
          <div class="field"><label>Date</label><button class="picker" id="event-date">${icon('event')}<span>${esc(longDate(v.date))}</span></button></div>
          <div style="display:flex;gap:12px">
            <div class="field" style="flex:1"><label>Starts</label><button class="picker" id="event-start">${esc(v.start)}</button></div>
            <div class="field" style="flex:1"><label>Ends</label><button class="picker" id="event-end">${esc(v.end)}</button></div></div>
          <div class="field"><label for="event-location">Location</label><input id="event-location" autocomplete="off" value="${esc(v.location)}"></div>
          <div class="field"><label for="event-notes">Notes</label><textarea id="event-notes">${esc(v.notes)}</textarea></div>
          <div class="error" id="error"></div></div></div>`;
      el.querySelector('[data-back]').addEventListener('click', () => ctx.pop());
      el.querySelector('#event-date').addEventListener('click', async () => {
        const d = await ctx.pickDate(v.date);
        if (d) { v.date = d; el.querySelector('#event-date span').textContent = longDate(d); }
      });
      for (const k of ['start', 'end']) {
        el.querySelector(`#event-${k}`).addEventListener('click', async () => {
          const t = await ctx.pickTime(v[k]);
          if (!t) return;
          v[k] = t;
          if (k === 'start' && v.end <= t) v.end = `${ctx.pad(Math.min(23, Number(t.slice(0, 2)) + 1))}:${t.slice(3)}`;
          el.querySelector('#event-start').textContent = v.start;
          el.querySelector('#event-end').textContent = v.end;
        });
      }
      el.querySelector('#save').addEventListener('click', async () => {
        const body = { title: el.querySelector('#event-title').value.trim(), date: v.date, start: v.start, end: v.end,
          location: el.querySelector('#event-location').value.trim(), notes: el.querySelector('#event-notes').value.trim() };
        if (!body.title) { el.querySelector('#error').textContent = 'Add a title.'; return; }
        if (body.end <= body.start) { el.querySelector('#error').textContent = 'The event must end after it starts.'; return; }
        if (ev) await ctx.api(`events/${ev.id}`, { method: 'PUT', body });
        else await ctx.api('events', { method: 'POST', body });
        selected = body.date;
        view = ctx.parseYmd(body.date);
        view.setDate(1);
        await load();   // the month is current before it shows again: one picture, not two
        render();
        while (ctx.depth() > 1) ctx.pop();
        ctx.toast(ev ? 'Event updated' : 'Event saved');
      });
    }

    return (async () => {
      await load();
      const it = ctx.intent || {};
      if (it.date) { selected = it.date; view = ctx.parseYmd(it.date); view.setDate(1); }
      render();
    })();
  },
});
