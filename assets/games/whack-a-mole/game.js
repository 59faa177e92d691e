/* Whack-a-Mole for hybridgym: deterministic for a seed, inputs and game time.
 *
 * Rules: 3 x 3 holes. Moles pop up at seeded times in seeded holes and stay up
 * for a limited time (about 1.4 s at first, down to about 0.8 s near the end).
 * Clicking (or tapping) a hole while its mole is up whacks it: +1 point. A
 * mole that goes down unwhacked costs nothing. A click on a hole with no mole
 * up costs one of 3 lives (clicks outside the holes do nothing). The round
 * lasts ROUND_MS (60 s) of game time; it ends then, or when no lives are left.
 *
 * Time: the whole round's schedule of moles is drawn from the seed at the
 * start, in multiples of FRAME_MS (20 ms). What is up at game time t is a
 * function of the schedule, t and the clicks so far, so timers only redraw:
 * one setTimeout at a time, for the exact next game time at which the picture
 * changes (a mole comes up, one of its FRAME_MS rise frames, it goes down,
 * a whacked mole or a miss mark disappears, the 500 ms tick of the clock, the
 * end of the round); there is no timer while nothing is due. Under
 * Playwright's clock API performance.now() and setTimeout are fake and
 * advance together, so a run depends only on the seed, the clicks and the
 * game times at which they arrive. A click acts at once and is drawn at once;
 * requestAnimationFrame is not used.
 */
(function () {
  'use strict';

  var W = 800, HEADER = 100;
  var COLS = 3, ROWS = 3, CW = 180, CH = 150;
  var GX = (W - COLS * CW) / 2, GY = 115;          // grid origin: 130, 115
  var ROUND_MS = 60000, FRAME_MS = 20, LIVES = 3;
  var RISE_MS = 100, BONK_MS = 300, MISS_MS = 300;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#6aa84f'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  var SEED = K.seed();

  function quant(ms) { return Math.round(ms / FRAME_MS) * FRAME_MS; }

  // ---- the schedule: {hole, at, until, whackedAt} ---------------------------
  var rng = K.mulberry32(SEED);
  var moles = [];
  (function makeSchedule() {
    var freeAt = new Array(COLS * ROWS).fill(0);   // a hole is free again 200 ms after its mole
    var t = 800;
    while (t < ROUND_MS - 500) {
      var progress = t / ROUND_MS;
      var dur = quant(1400 - 600 * progress + 300 * rng());
      var free = [];
      for (var h = 0; h < freeAt.length; h++) if (freeAt[h] <= t) free.push(h);
      if (free.length) {
        var hole = free[Math.floor(rng() * free.length)];
        var until = Math.min(ROUND_MS, t + dur);
        moles.push({ hole: hole, at: t, until: until, whackedAt: null });
        freeAt[hole] = until + 200;
      }
      t += quant(450 + 450 * rng() - 150 * progress);
    }
  })();

  var game = { score: 0, lives: LIVES, over: false, cause: null, emptyClicks: 0, misses: [] };

  var t0 = performance.now();
  function now() { return Math.min(performance.now() - t0, ROUND_MS); }

  // the mole of a hole at time t: up (hittable), or whacked and still showing
  function moleIn(hole, t) {
    for (var i = 0; i < moles.length; i++) {
      var m = moles[i];
      if (m.hole !== hole || m.at > t) continue;
      if (m.whackedAt === null ? t < m.until : t < m.whackedAt + BONK_MS) return m;
    }
    return null;
  }
  function upAt(m, t) { return m.whackedAt === null && m.at <= t && t < m.until; }

  function escaped(t) {
    var n = 0;
    for (var i = 0; i < moles.length; i++) if (moles[i].whackedAt === null && moles[i].until <= t) n++;
    return n;
  }

  function whack(col, row) {
    if (game.over) return;
    var t = now(), hole = row * COLS + col;
    var m = moleIn(hole, t);
    if (m && upAt(m, t)) {
      m.whackedAt = t;
      game.score++;
    } else if (!m) {
      game.lives--;
      game.emptyClicks++;
      game.misses.push({ hole: hole, at: t });
      if (game.lives <= 0) end('lives');
    }
    render();
    schedule();
  }

  function end(cause) { game.over = true; game.cause = cause; }

  // ---- time -------------------------------------------------------------
  var timer = null;

  // the first game time after t at which the picture changes
  function nextChange(t) {
    var best = ROUND_MS;
    function consider(u) { if (u > t && u < best) best = u; }
    consider((Math.floor(t / 500) + 1) * 500);          // the clock and its bar
    for (var i = 0; i < moles.length; i++) {
      var m = moles[i];
      if (m.at > best) break;                           // moles are in order of time
      if (t < m.at + RISE_MS) consider(m.at + FRAME_MS * (Math.floor(Math.max(0, t - m.at) / FRAME_MS) + (t < m.at ? 0 : 1)));
      consider(m.whackedAt === null ? m.until : m.whackedAt + BONK_MS);
    }
    for (i = game.misses.length - 1; i >= 0 && game.misses[i].at + MISS_MS > t; i--) consider(game.misses[i].at + MISS_MS);
    return best;
  }

  function loop() {
    timer = null;
    if (performance.now() - t0 >= ROUND_MS) end('time');
    render();
    schedule();
  }
  function schedule() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (game.over) return;
    var t = performance.now() - t0;
    timer = setTimeout(loop, Math.max(0, nextChange(t) - t));
  }

  // ---- input ------------------------------------------------------------
  view.onPress(function (p) {
    var cell = K.cellAt(p, GX, GY, CW, CH, COLS, ROWS);
    if (cell) whack(cell[1], cell[0]);
  });

  // ---- drawing ----------------------------------------------------------

  function heart(x, y, s, full) {
    ctx.fillStyle = full ? '#e8484d' : 'rgba(0,0,0,0.22)';
    ctx.beginPath();
    ctx.moveTo(x, y + s * 0.3);
    ctx.bezierCurveTo(x, y, x - s * 0.5, y, x - s * 0.5, y + s * 0.3);
    ctx.bezierCurveTo(x - s * 0.5, y + s * 0.6, x, y + s * 0.8, x, y + s);
    ctx.bezierCurveTo(x, y + s * 0.8, x + s * 0.5, y + s * 0.6, x + s * 0.5, y + s * 0.3);
    ctx.bezierCurveTo(x + s * 0.5, y, x, y, x, y + s * 0.3);
    ctx.fill();
  }

  function drawHeader(t) {
    ctx.fillStyle = '#3d7a2e';
    ctx.fillRect(0, 0, W, HEADER);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 30px ' + FONT;
    ctx.fillText('WHACK-A-MOLE', 30, 38);
    ctx.font = '15px ' + FONT;
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.fillText('Click the moles! A click on an empty hole costs a life.', 30, 74);
    // score
    ctx.textAlign = 'right';
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 34px ' + FONT;
    ctx.fillText(String(game.score), 770, 38);
    ctx.font = 'bold 13px ' + FONT;
    ctx.fillStyle = 'rgba(255,255,255,0.8)';
    ctx.fillText('SCORE', 770, 70);
    for (var i = 0; i < LIVES; i++) heart(560 + i * 34, 24, 26, i < game.lives);
    // time left: a bar and seconds
    var left = Math.max(0, ROUND_MS - t);
    ctx.fillStyle = 'rgba(0,0,0,0.25)';
    roundRect(545, 62, 120, 14, 7);
    ctx.fillStyle = left < 10000 ? '#f2c53a' : '#bff27a';
    if (left > 0) roundRect(545, 62, Math.max(14, Math.ceil(left / 500)), 14, 7);   // 120 px = 60 s
    ctx.textAlign = 'left';
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 15px ' + FONT;
    ctx.fillText(Math.ceil(left / 1000) + ' s', 672, 70);
  }

  function drawMole(cx, baseY, rise, bonked) {
    // rise: 0 (hidden) .. 1 (fully up); drawn inside the hole and above it
    var top = baseY - 92 * rise;
    ctx.save();
    ctx.beginPath();
    ctx.rect(cx - 70, baseY - 140, 140, 140);
    ctx.ellipse(cx, baseY, 58, 18, 0, 0, Math.PI);
    ctx.clip();
    ctx.fillStyle = '#8a5a3b';
    roundRect(cx - 42, top, 84, 130, 40);
    ctx.fillStyle = '#c79a74';
    ctx.beginPath();
    ctx.ellipse(cx, top + 62, 26, 22, 0, 0, Math.PI * 2);
    ctx.fill();
    if (bonked) {
      ctx.strokeStyle = '#2a1a10';
      ctx.lineWidth = 3;
      ctx.beginPath();
      [-15, 15].forEach(function (dx) {
        ctx.moveTo(cx + dx - 6, top + 28); ctx.lineTo(cx + dx + 6, top + 40);
        ctx.moveTo(cx + dx + 6, top + 28); ctx.lineTo(cx + dx - 6, top + 40);
      });
      ctx.stroke();
    } else {
      ctx.fillStyle = '#ffffff';
      [-15, 15].forEach(function (dx) {
        ctx.beginPath(); ctx.arc(cx + dx, top + 34, 8, 0, Math.PI * 2); ctx.fill();
      });
      ctx.fillStyle = '#1b1b1b';
      [-15, 15].forEach(function (dx) {
        ctx.beginPath(); ctx.arc(cx + dx + 1, top + 35, 4, 0, Math.PI * 2); ctx.fill();
      });
    }
    ctx.fillStyle = '#e0708a';
    ctx.beginPath();
    ctx.ellipse(cx, top + 52, 9, 7, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(cx - 6, top + 64, 5, 8);
    ctx.fillRect(cx + 1, top + 64, 5, 8);
    ctx.restore();
    if (bonked) {
      ctx.fillStyle = '#ffe14d';
      for (var k = 0; k < 3; k++) star(cx - 34 + k * 34, top - 12 + (k % 2) * 10, 9);
    }
  }

  function star(x, y, r) {
    ctx.beginPath();
    for (var i = 0; i < 10; i++) {
      var a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
      ctx.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
    }
    ctx.closePath();
    ctx.fill();
  }

  function drawHoles(t) {
    for (var h = 0; h < COLS * ROWS; h++) {
      var col = h % COLS, row = Math.floor(h / COLS);
      var cx = GX + col * CW + CW / 2, baseY = GY + row * CH + CH - 36;
      ctx.fillStyle = '#76b55a';
      roundRect(GX + col * CW + 6, GY + row * CH + 6, CW - 12, CH - 12, 14);
      // mound and hole
      ctx.fillStyle = '#7a5233';
      ctx.beginPath();
      ctx.ellipse(cx, baseY + 4, 74, 26, 0, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#2b1a10';
      ctx.beginPath();
      ctx.ellipse(cx, baseY, 58, 18, 0, 0, Math.PI * 2);
      ctx.fill();
      var m = moleIn(h, t);
      if (m) {
        var rise = Math.min(1, (t - m.at) / RISE_MS);
        drawMole(cx, baseY, rise, m.whackedAt !== null);
      }
      // a recent click on an empty hole
      for (var i = game.misses.length - 1; i >= 0; i--) {
        var miss = game.misses[i];
        if (miss.hole === h && t < miss.at + MISS_MS) {
          ctx.strokeStyle = '#e8484d';
          ctx.lineWidth = 6;
          ctx.lineCap = 'round';
          ctx.beginPath();
          ctx.moveTo(cx - 20, baseY - 40); ctx.lineTo(cx + 20, baseY - 4);
          ctx.moveTo(cx + 20, baseY - 40); ctx.lineTo(cx - 20, baseY - 4);
          ctx.stroke();
          break;
        }
      }
    }
  }

  function drawGameOver() {
    var time = game.cause === 'time';
    view.card({ shade: ['rgba(20, 30, 15, 0.55)'], title: [time ? "Time's up!" : 'Game over', '#2f4a1f'],
                score: ['Score: ' + game.score], note: [time ? 'The round is over' : 'No lives left'] });
  }

  function draw() {
    var t = now();
    view.clear();
    drawHeader(t);
    drawHoles(t);
    if (game.over) drawGameOver();
  }

  view.start();
  schedule();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('whack-a-mole', SEED, game, {
    state: function () {
      var t = now(), holes = [], up = [];
      for (var h = 0; h < COLS * ROWS; h++) {
        var col = h % COLS, row = Math.floor(h / COLS), m = moleIn(h, t);
        var hole = {
          index: h, row: row, col: col,
          rect: [GX + col * CW, GY + row * CH, CW, CH],
          center: [GX + col * CW + CW / 2, GY + row * CH + CH / 2],
          mole: !!(m && upAt(m, t)),
          whacked: !!(m && m.whackedAt !== null),
          msLeft: m && upAt(m, t) ? Math.round(m.until - t) : null
        };
        holes.push(hole);
        if (hole.mole) up.push({ hole: h, x: hole.center[0], y: hole.center[1], msLeft: hole.msLeft });
      }
      return {
        grid: { x0: GX, y0: GY, cols: COLS, rows: ROWS, cellW: CW, cellH: CH },
        holes: holes,
        moles: up,
        score: game.score,
        lives: game.lives,
        hits: game.score,
        escaped: escaped(t),
        emptyClicks: game.emptyClicks,
        timeMs: Math.round(t),
        timeLeftMs: Math.round(ROUND_MS - t),
        roundMs: ROUND_MS,
        gameOver: game.over,
        cause: game.cause
      };
    }
  });
})();
