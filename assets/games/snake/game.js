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
  var W = 800, HEADER = 60;
  var GX = (W - COLS * CELL) / 2, GY = HEADER;       // grid origin: 40, 60
  var K = window.hgKit;
  var view = K.view(draw, '#578a34'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  var SEED = K.seed();
  var TICK_MS = K.parseIntIn(K.params().get('tick'), 150, 20, 5000);

  var DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
  var OPPOSITE = { up: 'down', down: 'up', left: 'right', right: 'left' };

  var rng = K.mulberry32(SEED);
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
  var clock = K.ticker(TICK_MS, step, render, function () { return !game.over; });
  var schedule = clock.schedule;

  // ---- input ------------------------------------------------------------
  view.onDirInput(turn);

  // ---- drawing ----------------------------------------------------------
  function drawHeader() {
    view.shade('#4a752c', 0, 0, W, HEADER);
    view.text('SNAKE', GX, HEADER / 2, 'bold 28px', '#ffffff', 'left', 'middle');
    view.text('Arrows / WASD / swipe to steer', W / 2, HEADER / 2, '15px', 'rgba(255,255,255,0.82)', 'center');
    // score: an apple icon and the number
    var label = String(game.score);
    view.text(label, W - GX, HEADER / 2 + 1, 'bold 30px', '#ffffff', 'right');
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
    var why = { wall: 'The snake hit the wall', self: 'The snake ran into itself', full: 'The board is full' }[game.cause] || '';
    view.card({ shade: ['rgba(20, 30, 15, 0.55)', GX, GY, COLS * CELL, ROWS * CELL], w: 360, y: GY + (ROWS * CELL - 200) / 2,
                title: [game.won ? 'You win!' : 'Game over', '#2f4a1f', 42, 58], score: ['Score: ' + game.score, 28, 112],
                note: [why, 158] });
  }

  function draw() {
    view.clear();
    drawHeader();
    drawBoard();
    if (game.apple) drawApple(GX + game.apple[0] * CELL, GY + game.apple[1] * CELL, CELL);
    drawSnake();
    if (game.over) drawGameOver();
  }

  view.start();
  schedule();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('snake', SEED, game, {
    tickMs: TICK_MS,
    state: function () {
      return {
        cols: COLS, rows: ROWS,
        snake: game.snake.map(function (c) { return [c[0], c[1]]; }),
        dir: game.dir,
        queue: game.queue.slice(),
        apple: game.apple ? [game.apple[0], game.apple[1]] : null,
        score: game.score,
        gameOver: game.over,
        won: game.won,
        cause: game.cause,
        tick: game.tick,
        tickMs: TICK_MS
      };
    }
  });
})();
