/* Snake for hybridgym: deterministic for a seed, inputs and game time.
 *
 * Time: the snake moves one cell every TICK_MS of game time. Ticks are due at
 * t0 + k * TICK_MS, where t0 is performance.now() when the game starts, and are
 * run by a setTimeout scheduled for the exact due time (all due ticks are
 * processed if a timer fires late). Under Playwright's clock API both
 * performance.now() and setTimeout are fake and run on the same ticks, so a run
 * depends only on the seed, the inputs and the game times at which they arrive.
 * requestAnimationFrame is not used: the picture changes only on a tick and is
 * drawn at once, so a screenshot always shows the current state.
 *
 * Input: arrow keys / WASD, or a swipe (pointer or touch drag of 24+ CSS px).
 * A key only queues a turn (up to 3); the turn takes effect on the next tick.
 * A turn into the reverse of the (queued) direction is ignored.
 */
(function () {
  'use strict';

  var COLS = 20, ROWS = 15, CELL = 36;
  var W = 800, H = 600, HEADER = 60;
  var GX = (W - COLS * CELL) / 2, GY = HEADER;       // grid origin: 40, 60
  var FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif';

  var params = new URLSearchParams(location.search);
  var SEED = parseSeed(params.get('seed'));
  var TICK_MS = parseIntIn(params.get('tick'), 150, 20, 5000);

  var DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
  var OPPOSITE = { up: 'down', down: 'up', left: 'right', right: 'left' };
  var KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    w: 'up', s: 'down', a: 'left', d: 'right', W: 'up', S: 'down', A: 'left', D: 'right'
  };
  var CODES = { KeyW: 'up', KeyS: 'down', KeyA: 'left', KeyD: 'right' };

  function parseSeed(text) {
    var n = parseInt(text == null ? '0' : text, 10);
    if (!isFinite(n)) n = 0;
    return n >>> 0;
  }
  function parseIntIn(text, dflt, lo, hi) {
    var n = parseInt(text == null ? '' : text, 10);
    if (!isFinite(n)) return dflt;
    return Math.min(hi, Math.max(lo, n));
  }
  // mulberry32: a small seeded PRNG returning floats in [0, 1).
  function mulberry32(a) {
    return function () {
      a = (a + 0x6D2B79F5) | 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  var rng = mulberry32(SEED);
  var game = {
    snake: [[5, 7], [4, 7], [3, 7]],   // head first
    dir: 'right',
    queue: [],
    apple: null,
    score: 0,
    over: false,
    won: false,
    cause: null,                        // 'wall' | 'self' | 'full'
    tick: 0
  };
  placeApple();

  function placeApple() {
    var taken = {};
    for (var i = 0; i < game.snake.length; i++) taken[game.snake[i][0] + ',' + game.snake[i][1]] = true;
    var free = [];
    for (var y = 0; y < ROWS; y++)
      for (var x = 0; x < COLS; x++)
        if (!taken[x + ',' + y]) free.push([x, y]);
    if (!free.length) {
      game.apple = null; game.over = true; game.won = true; game.cause = 'full';
      return;
    }
    game.apple = free[Math.floor(rng() * free.length)];
  }

  function step() {
    if (game.queue.length) game.dir = game.queue.shift();
    game.tick++;
    var d = DIRS[game.dir], head = game.snake[0];
    var nx = head[0] + d[0], ny = head[1] + d[1];
    if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS) { end('wall'); return; }
    var eats = game.apple !== null && nx === game.apple[0] && ny === game.apple[1];
    // Without eating, the tail moves away this tick, so its cell is free.
    var n = eats ? game.snake.length : game.snake.length - 1;
    for (var i = 0; i < n; i++) {
      if (game.snake[i][0] === nx && game.snake[i][1] === ny) { end('self'); return; }
    }
    game.snake.unshift([nx, ny]);
    if (eats) { game.score++; placeApple(); } else { game.snake.pop(); }
  }

  function end(cause) { game.over = true; game.cause = cause; }

  function turn(dir) {
    if (game.over || !DIRS[dir]) return;
    var last = game.queue.length ? game.queue[game.queue.length - 1] : game.dir;
    if (dir === last || dir === OPPOSITE[last]) return;
    if (game.queue.length < 3) game.queue.push(dir);
  }

  // ---- time -------------------------------------------------------------
  var t0 = performance.now();
  var nextTickAt = t0 + TICK_MS;
  var timer = null;

  function loop() {
    timer = null;
    var now = performance.now();
    var n = 0;
    while (!game.over && now >= nextTickAt && n < 100000) {
      step();
      nextTickAt += TICK_MS;
      n++;
    }
    if (n) render();
    schedule();
  }
  function schedule() {
    if (game.over || timer !== null) return;
    timer = setTimeout(loop, Math.max(0, nextTickAt - performance.now()));
  }

  // ---- input ------------------------------------------------------------
  window.addEventListener('keydown', function (e) {
    var dir = KEYS[e.key] || CODES[e.code];
    if (!dir) return;
    e.preventDefault();
    turn(dir);
  }, true);

  var swipe = null;
  window.addEventListener('pointerdown', function (e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    swipe = { id: e.pointerId, x: e.clientX, y: e.clientY };
    e.preventDefault();
  }, { passive: false });
  window.addEventListener('pointerup', function (e) {
    if (!swipe || e.pointerId !== swipe.id) return;
    var dx = e.clientX - swipe.x, dy = e.clientY - swipe.y;
    swipe = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    if (Math.abs(dx) > Math.abs(dy)) turn(dx > 0 ? 'right' : 'left');
    else turn(dy > 0 ? 'down' : 'up');
  });
  window.addEventListener('pointercancel', function () { swipe = null; });
  window.addEventListener('touchmove', function (e) { e.preventDefault(); }, { passive: false });
  window.addEventListener('contextmenu', function (e) { e.preventDefault(); });

  // ---- drawing ----------------------------------------------------------
  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');

  function fit() {
    var vw = window.innerWidth || W, vh = window.innerHeight || H;
    var scale = Math.min(vw / W, vh / H);
    var cw = Math.round(W * scale), ch = Math.round(H * scale);
    var dpr = window.devicePixelRatio || 1;
    canvas.style.width = cw + 'px';
    canvas.style.height = ch + 'px';
    canvas.style.left = Math.floor((vw - cw) / 2) + 'px';
    canvas.style.top = Math.floor((vh - ch) / 2) + 'px';
    canvas.width = Math.round(cw * dpr);
    canvas.height = Math.round(ch * dpr);
    ctx.setTransform(canvas.width / W, 0, 0, canvas.height / H, 0, 0);
    render();
  }

  function roundRect(x, y, w, h, r) {
    ctx.beginPath();
    ctx.roundRect(x, y, w, h, r);
    ctx.fill();
  }

  function drawHeader() {
    ctx.fillStyle = '#4a752c';
    ctx.fillRect(0, 0, W, HEADER);
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 28px ' + FONT;
    ctx.textAlign = 'left';
    ctx.fillText('SNAKE', GX, HEADER / 2);
    ctx.font = '15px ' + FONT;
    ctx.fillStyle = 'rgba(255,255,255,0.82)';
    ctx.textAlign = 'center';
    ctx.fillText('Arrows / WASD / swipe to steer', W / 2, HEADER / 2);
    // score: an apple icon and the number
    ctx.textAlign = 'right';
    ctx.font = 'bold 30px ' + FONT;
    ctx.fillStyle = '#ffffff';
    var label = String(game.score);
    ctx.fillText(label, W - GX, HEADER / 2 + 1);
    var tw = ctx.measureText(label).width;
    drawApple(W - GX - tw - 40, HEADER / 2 - 15, 30);
  }

  function drawBoard() {
    for (var y = 0; y < ROWS; y++) {
      for (var x = 0; x < COLS; x++) {
        ctx.fillStyle = (x + y) % 2 === 0 ? '#aad751' : '#a2d149';
        ctx.fillRect(GX + x * CELL, GY + y * CELL, CELL, CELL);
      }
    }
  }

  function drawApple(px, py, size) {
    var cx = px + size / 2, cy = py + size / 2 + size * 0.04, r = size * 0.36;
    ctx.fillStyle = '#e7471d';
    ctx.beginPath(); ctx.arc(cx, cy, r, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = 'rgba(255,255,255,0.45)';
    ctx.beginPath(); ctx.arc(cx - r * 0.38, cy - r * 0.35, r * 0.22, 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = '#6b4b1f'; ctx.lineWidth = Math.max(1.5, size * 0.06); ctx.lineCap = 'round';
    ctx.beginPath(); ctx.moveTo(cx, cy - r * 0.8); ctx.lineTo(cx + r * 0.15, cy - r * 1.25); ctx.stroke();
    ctx.fillStyle = '#3f8f29';
    ctx.beginPath();
    ctx.ellipse(cx + r * 0.55, cy - r * 1.1, r * 0.42, r * 0.2, -0.5, 0, Math.PI * 2);
    ctx.fill();
  }

  function segColor(i, n) {
    // head #3b5fc4, fading to #6f94f5 at the tail
    var t = n > 1 ? i / (n - 1) : 0;
    var r = Math.round(0x46 + (0x7a - 0x46) * t), g = Math.round(0x73 + (0x9c - 0x73) * t);
    return 'rgb(' + r + ',' + g + ',' + Math.round(0xe8 + (0xf7 - 0xe8) * t) + ')';
  }

  function drawSnake() {
    var s = game.snake, n = s.length, pad = 4;
    // connectors between consecutive segments, so the body looks continuous
    for (var i = n - 1; i > 0; i--) {
      var a = s[i], b = s[i - 1];
      var x0 = Math.min(a[0], b[0]), y0 = Math.min(a[1], b[1]);
      ctx.fillStyle = segColor(i, n);
      if (a[1] === b[1]) ctx.fillRect(GX + x0 * CELL + CELL / 2, GY + y0 * CELL + pad, CELL, CELL - 2 * pad);
      else ctx.fillRect(GX + x0 * CELL + pad, GY + y0 * CELL + CELL / 2, CELL - 2 * pad, CELL);
    }
    for (var j = n - 1; j >= 0; j--) {
      ctx.fillStyle = j === 0 ? '#3458c0' : segColor(j, n);
      roundRect(GX + s[j][0] * CELL + pad, GY + s[j][1] * CELL + pad, CELL - 2 * pad, CELL - 2 * pad, j === 0 ? 10 : 8);
    }
    // eyes, looking where the snake goes
    var h = s[0], d = DIRS[game.dir];
    var hx = GX + h[0] * CELL + CELL / 2, hy = GY + h[1] * CELL + CELL / 2;
    var fx = d[0] * 6, fy = d[1] * 6, sx = -d[1] * 7, sy = d[0] * 7;
    for (var k = -1; k <= 1; k += 2) {
      var ex = hx + fx + sx * k, ey = hy + fy + sy * k;
      ctx.fillStyle = '#ffffff';
      ctx.beginPath(); ctx.arc(ex, ey, 5, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = '#1b1b1b';
      ctx.beginPath(); ctx.arc(ex + d[0] * 1.6, ey + d[1] * 1.6, 2.4, 0, Math.PI * 2); ctx.fill();
    }
  }

  function drawGameOver() {
    ctx.fillStyle = 'rgba(20, 30, 15, 0.55)';
    ctx.fillRect(GX, GY, COLS * CELL, ROWS * CELL);
    var pw = 360, ph = 200, px = (W - pw) / 2, py = GY + (ROWS * CELL - ph) / 2;
    ctx.fillStyle = '#ffffff';
    roundRect(px, py, pw, ph, 16);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#2f4a1f';
    ctx.font = 'bold 42px ' + FONT;
    ctx.fillText(game.won ? 'You win!' : 'Game over', W / 2, py + 58);
    ctx.fillStyle = '#333333';
    ctx.font = 'bold 28px ' + FONT;
    ctx.fillText('Score: ' + game.score, W / 2, py + 112);
    ctx.fillStyle = '#777777';
    ctx.font = '16px ' + FONT;
    var why = { wall: 'The snake hit the wall', self: 'The snake ran into itself', full: 'The board is full' }[game.cause] || '';
    ctx.fillText(why, W / 2, py + 158);
  }

  function render() {
    ctx.fillStyle = '#578a34';
    ctx.fillRect(0, 0, W, H);
    drawHeader();
    drawBoard();
    if (game.apple) drawApple(GX + game.apple[0] * CELL, GY + game.apple[1] * CELL, CELL);
    drawSnake();
    if (game.over) drawGameOver();
  }

  window.addEventListener('resize', fit);
  fit();
  schedule();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = {
    ready: true,
    name: 'snake',
    seed: SEED,
    tickMs: TICK_MS,
    score: function () { return game.score; },
    level: function () { return 1; },
    lives: function () { return 1; },
    gameOver: function () { return game.over; },
    state: function () {
      return {
        cols: COLS,
        rows: ROWS,
        snake: game.snake.map(function (c) { return [c[0], c[1]]; }),
        dir: game.dir,
        queue: game.queue.slice(),
        apple: game.apple ? [game.apple[0], game.apple[1]] : null,
        score: game.score,
        gameOver: game.over,
        won: game.won,
        cause: game.cause,
        tick: game.tick,
        tickMs: TICK_MS,
        seed: SEED
      };
    }
  };
})();
