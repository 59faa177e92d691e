/* Falling Blocks (a Tetris-like game) for hybridgym: deterministic for a seed,
 * inputs and game time.
 *
 * Rules: a 10 x 20 well; the 7 tetrominoes come from a seeded 7-bag (each run
 * of 7 pieces holds every shape once, in a seeded order). Left/right move the
 * piece, up rotates it clockwise (trying horizontal kicks of 0, -1, +1, -2, +2
 * columns), down moves it one row (locking it if it cannot), space drops it to
 * the bottom and locks it. Gravity moves the piece one row every gravityMs of
 * game time (800 ms at level 1, x0.8 per level); when gravity cannot move it,
 * it locks. Full rows are cleared at once and score 100 / 300 / 500 / 800
 * (1 / 2 / 3 / 4 rows) times the level; the level is 1 + cleared lines / 10.
 * The game is over when a new piece cannot spawn.
 *
 * Time: gravity steps are due at spawn time + k * gravityMs and are run by a
 * setTimeout scheduled for the exact due time (all due steps run if a timer
 * fires late). Under Playwright's clock API performance.now() and setTimeout
 * are fake and advance together, so a run depends only on the seed, the inputs
 * and the game times at which they arrive. Keys act at once and the canvas is
 * redrawn at once; requestAnimationFrame is not used.
 *
 * Input: arrow keys / WASD, space; pointer or touch: drag sideways to move
 * (one column per 32 px), tap to rotate, flick down to drop.
 */
(function () {
  'use strict';

  var COLS = 10, ROWS = 20, CELL = 28;
  var W = 800;
  var WX = (W - COLS * CELL) / 2, WY = 20;          // well origin: 260, 20
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#1b1f3b'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;
  var LINE_POINTS = [0, 100, 300, 500, 800];

  var SEED = K.seed();

  var KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', ' ': 'drop',
    w: 'up', s: 'down', a: 'left', d: 'right', W: 'up', S: 'down', A: 'left', D: 'right'
  };
  var CODES = { KeyW: 'up', KeyS: 'down', KeyA: 'left', KeyD: 'right', Space: 'drop' };

  // ---- shapes: SRS spawn states in an n x n box, rotated clockwise ----------
  var SHAPES = {
    I: ['....', 'IIII', '....', '....'],
    J: ['J..', 'JJJ', '...'],
    L: ['..L', 'LLL', '...'],
    O: ['OO', 'OO'],
    S: ['.SS', 'SS.', '...'],
    T: ['.T.', 'TTT', '...'],
    Z: ['ZZ.', '.ZZ', '...']
  };
  var TYPES = ['I', 'J', 'L', 'O', 'S', 'T', 'Z'];
  var COLORS = {
    I: '#35c7e6', J: '#3a6ee8', L: '#f29a2e', O: '#f2d33a', S: '#4fcf5a', T: '#a25ee0', Z: '#e8484d'
  };
  var KICKS = [0, -1, 1, -2, 2];
  // ROT[type][r] = list of [dx, dy] cells of rotation r (0..3) in the box.
  var ROT = {};
  TYPES.forEach(function (t) {
    var rows = SHAPES[t], n = rows.length, states = [];
    var m = rows.map(function (row) { return row.split('').map(function (ch) { return ch !== '.'; }); });
    for (var r = 0; r < 4; r++) {
      var cells = [];
      for (var y = 0; y < n; y++) for (var x = 0; x < n; x++) if (m[y][x]) cells.push([x, y]);
      states.push(cells);
      var next = [];
      for (y = 0; y < n; y++) {
        next.push([]);
        for (x = 0; x < n; x++) next[y].push(m[n - 1 - x][y]);   // clockwise
      }
      m = next;
    }
    ROT[t] = states;
  });

  var rng = K.mulberry32(SEED);
  var bag = [];
  function refill() {
    var b = TYPES.slice();
    for (var i = b.length - 1; i > 0; i--) {
      var j = Math.floor(rng() * (i + 1));
      var tmp = b[i]; b[i] = b[j]; b[j] = tmp;
    }
    bag = bag.concat(b);
  }
  function takeType() {
    while (bag.length < 8) refill();
    return bag.shift();
  }

  var game = {
    board: [],          // ROWS rows of COLS entries: null or a type letter
    piece: null,        // {type, rot, x, y}
    score: 0,
    lines: 0,
    level: 1,
    pieces: 0,
    over: false
  };
  for (var r0 = 0; r0 < ROWS; r0++) game.board.push(new Array(COLS).fill(null));

  function gravityMs() { return Math.max(50, Math.round(800 * Math.pow(0.8, game.level - 1))); }

  function cellsOf(p) {
    return ROT[p.type][p.rot].map(function (c) { return [p.x + c[0], p.y + c[1]]; });
  }
  function fits(p) {
    var cs = cellsOf(p);
    for (var i = 0; i < cs.length; i++) {
      var x = cs[i][0], y = cs[i][1];
      if (x < 0 || x >= COLS || y >= ROWS) return false;
      if (y >= 0 && game.board[y][x]) return false;
    }
    return true;
  }
  function moved(p, dx, dy, rot) {
    return { type: p.type, rot: rot === undefined ? p.rot : rot, x: p.x + dx, y: p.y + dy };
  }

  // ---- time ---------------------------------------------------------------
  var t0 = performance.now();
  var nextDropAt = Infinity;
  var timer = null;

  function spawn(at) {
    var type = takeType();
    var n = SHAPES[type].length;
    var p = { type: type, rot: 0, x: Math.floor((COLS - n) / 2), y: 0 };
    var minY = Math.min.apply(null, ROT[type][0].map(function (c) { return c[1]; }));
    p.y = 0 - minY;
    if (!fits(p)) {
      game.piece = null;
      game.over = true;
      game.blocked = p;
      nextDropAt = Infinity;
      return;
    }
    game.piece = p;
    game.pieces++;
    nextDropAt = at + gravityMs();
  }

  function lock(at) {
    var cs = cellsOf(game.piece);
    for (var i = 0; i < cs.length; i++) {
      if (cs[i][1] >= 0) game.board[cs[i][1]][cs[i][0]] = game.piece.type;
    }
    game.piece = null;
    var kept = game.board.filter(function (row) { return row.some(function (v) { return !v; }); });
    var cleared = ROWS - kept.length;
    while (kept.length < ROWS) kept.unshift(new Array(COLS).fill(null));
    game.board = kept;
    if (cleared) {
      game.score += LINE_POINTS[cleared] * game.level;
      game.lines += cleared;
      game.level = 1 + Math.floor(game.lines / 10);
    }
    spawn(at);
  }

  function gravity(at) {
    var p = moved(game.piece, 0, 1);
    if (fits(p)) {
      game.piece = p;
      nextDropAt = at + gravityMs();
    } else {
      lock(at);
    }
  }

  function loop() {
    timer = null;
    var now = performance.now();
    var n = 0;
    while (!game.over && game.piece && now >= nextDropAt && n < 10000) {
      gravity(nextDropAt);
      n++;
    }
    if (n) render();
    schedule();
  }
  function schedule() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (game.over || nextDropAt === Infinity) return;
    timer = setTimeout(loop, Math.max(0, nextDropAt - performance.now()));
  }

  // ---- actions ------------------------------------------------------------
  function act(what) {
    if (game.over || !game.piece) return;
    var now = performance.now(), p = game.piece, q;
    if (what === 'left' || what === 'right') {
      q = moved(p, what === 'left' ? -1 : 1, 0);
      if (fits(q)) game.piece = q;
    } else if (what === 'up') {
      if (p.type === 'O') return;
      for (var i = 0; i < KICKS.length; i++) {
        q = moved(p, KICKS[i], 0, (p.rot + 1) % 4);
        if (fits(q)) { game.piece = q; break; }
      }
    } else if (what === 'down') {
      q = moved(p, 0, 1);
      if (fits(q)) game.piece = q;
      else lock(now);
    } else if (what === 'drop') {
      while (fits(moved(game.piece, 0, 1))) game.piece = moved(game.piece, 0, 1);
      lock(now);
    }
    render();
    schedule();
  }

  // ---- input --------------------------------------------------------------
  window.addEventListener('keydown', function (e) {
    var what = KEYS[e.key] || CODES[e.code];
    if (!what) return;
    e.preventDefault();
    act(what);
  }, true);

  var drag = null;
  function toGame(e) { var p = view.toLogical(e); return [p.x, p.y]; }
  window.addEventListener('pointerdown', function (e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    var p = toGame(e);
    drag = { id: e.pointerId, x0: p[0], y0: p[1], ax: p[0], moved: false };
    e.preventDefault();
  }, { passive: false });
  window.addEventListener('pointermove', function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    var p = toGame(e);
    if (Math.abs(p[0] - drag.x0) > 12 || Math.abs(p[1] - drag.y0) > 12) drag.moved = true;
    while (p[0] - drag.ax >= 32) { drag.ax += 32; act('right'); }
    while (drag.ax - p[0] >= 32) { drag.ax -= 32; act('left'); }
  });
  window.addEventListener('pointerup', function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    var p = toGame(e), d = drag;
    drag = null;
    var dx = p[0] - d.x0, dy = p[1] - d.y0;
    if (!d.moved && Math.abs(dx) <= 12 && Math.abs(dy) <= 12) act('up');
    else if (dy > 60 && dy > 2 * Math.abs(dx)) act('drop');
  });
  window.addEventListener('pointercancel', function () { drag = null; });

  // ---- drawing ------------------------------------------------------------
  function drawBlock(x, y, size, type) {
    ctx.fillStyle = COLORS[type];
    ctx.fillRect(x + 1, y + 1, size - 2, size - 2);
    ctx.fillStyle = 'rgba(255,255,255,0.32)';
    ctx.fillRect(x + 1, y + 1, size - 2, 4);
    ctx.fillRect(x + 1, y + 5, 4, size - 6);
    ctx.fillStyle = 'rgba(0,0,0,0.22)';
    ctx.fillRect(x + 1, y + size - 5, size - 2, 4);
    ctx.fillRect(x + size - 5, y + 5, 4, size - 10);
  }

  function drawWell() {
    ctx.fillStyle = '#0d1026';
    ctx.fillRect(WX - 6, WY - 6, COLS * CELL + 12, ROWS * CELL + 12);
    ctx.fillStyle = '#141a3a';
    ctx.fillRect(WX, WY, COLS * CELL, ROWS * CELL);
    ctx.strokeStyle = 'rgba(255,255,255,0.06)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (var x = 1; x < COLS; x++) { ctx.moveTo(WX + x * CELL + 0.5, WY); ctx.lineTo(WX + x * CELL + 0.5, WY + ROWS * CELL); }
    for (var y = 1; y < ROWS; y++) { ctx.moveTo(WX, WY + y * CELL + 0.5); ctx.lineTo(WX + COLS * CELL, WY + y * CELL + 0.5); }
    ctx.stroke();
    for (y = 0; y < ROWS; y++)
      for (x = 0; x < COLS; x++)
        if (game.board[y][x]) drawBlock(WX + x * CELL, WY + y * CELL, CELL, game.board[y][x]);
    var p = game.piece;
    if (p) {
      var g = p;
      while (fits(moved(g, 0, 1))) g = moved(g, 0, 1);
      ctx.strokeStyle = COLORS[p.type];
      ctx.globalAlpha = 0.55;
      ctx.lineWidth = 2;
      cellsOf(g).forEach(function (c) {
        if (c[1] >= 0) ctx.strokeRect(WX + c[0] * CELL + 3, WY + c[1] * CELL + 3, CELL - 6, CELL - 6);
      });
      ctx.globalAlpha = 1;
      cellsOf(p).forEach(function (c) {
        if (c[1] >= 0) drawBlock(WX + c[0] * CELL, WY + c[1] * CELL, CELL, p.type);
      });
    }
  }

  function panel(x, y, w, h) {
    ctx.fillStyle = '#262c57';
    roundRect(x, y, w, h, 10);
  }

  function drawStat(label, value, x, y, w) {
    panel(x, y, w, 74);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#9aa3d9';
    ctx.font = 'bold 14px ' + FONT;
    ctx.fillText(label, x + w / 2, y + 20);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 30px ' + FONT;
    ctx.fillText(String(value), x + w / 2, y + 50);
  }

  function drawMini(type, cx, cy, size) {
    var cells = ROT[type][0];
    var xs = cells.map(function (c) { return c[0]; }), ys = cells.map(function (c) { return c[1]; });
    var minX = Math.min.apply(null, xs), maxX = Math.max.apply(null, xs);
    var minY = Math.min.apply(null, ys), maxY = Math.max.apply(null, ys);
    var ox = cx - (maxX - minX + 1) * size / 2, oy = cy - (maxY - minY + 1) * size / 2;
    cells.forEach(function (c) { drawBlock(ox + (c[0] - minX) * size, oy + (c[1] - minY) * size, size, type); });
  }

  function drawPanels() {
    var lx = 40, lw = 190;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 30px ' + FONT;
    ctx.fillText('FALLING', lx, 58);
    ctx.fillText('BLOCKS', lx, 94);
    drawStat('SCORE', game.score, lx, 130, lw);
    drawStat('LEVEL', game.level, lx, 218, lw);
    drawStat('LINES', game.lines, lx, 306, lw);

    var rx = 570, rw = 190;
    panel(rx, 20, rw, 290);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#9aa3d9';
    ctx.font = 'bold 14px ' + FONT;
    ctx.fillText('NEXT', rx + rw / 2, 40);
    var upcoming = bag.slice(0, 3);
    for (var i = 0; i < upcoming.length; i++) {
      drawMini(upcoming[i], rx + rw / 2, 95 + i * 80, i === 0 ? 26 : 20);
    }

    panel(rx, 326, rw, 174);
    ctx.textAlign = 'left';
    ctx.fillStyle = '#9aa3d9';
    ctx.font = 'bold 14px ' + FONT;
    ctx.fillText('CONTROLS', rx + 16, 346);
    var help = [['\u2190 \u2192', 'move'], ['\u2191', 'rotate'], ['\u2193', 'down'], ['Space', 'drop']];
    for (i = 0; i < help.length; i++) {
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 16px ' + FONT;
      ctx.fillText(help[i][0], rx + 16, 378 + i * 30);
      ctx.fillStyle = '#c9cff0';
      ctx.font = '16px ' + FONT;
      ctx.fillText(help[i][1], rx + 96, 378 + i * 30);
    }
    ctx.fillStyle = '#7d86bd';
    ctx.font = '13px ' + FONT;
    ctx.textAlign = 'left';
    ctx.fillText('Lines: 100 / 300 / 500 / 800', lx, 420);
    ctx.fillText('points \u00d7 level', lx, 440);
  }

  function drawGameOver() {
    view.card({ shade: ['rgba(5, 8, 25, 0.62)'], title: ['Game over', '#1b1f3b'], score: ['Score: ' + game.score],
                note: ['The blocks reached the top (' + game.lines + ' lines)'] });
  }

  function draw() {
    view.clear();
    drawPanels();
    drawWell();
    if (game.over) drawGameOver();
  }

  spawn(t0);
  view.start();
  schedule();

  // ---- API for the env ----------------------------------------------------
  window.hybridgym = K.api('falling-blocks', SEED, game, {
    state: function () {
      var p = game.piece;
      return {
        cols: COLS, rows: ROWS,
        board: game.board.map(function (row) {
          return row.map(function (v) { return v || '.'; }).join('');
        }),
        piece: p ? { type: p.type, rot: p.rot, x: p.x, y: p.y, cells: cellsOf(p) } : null,
        next: bag.slice(0, 3),
        score: game.score,
        lines: game.lines,
        level: game.level,
        pieces: game.pieces,
        gravityMs: gravityMs(),
        nextDropInMs: nextDropAt === Infinity ? null : Math.round(nextDropAt - performance.now()),
        timeMs: Math.round(performance.now() - t0),
        gameOver: game.over,
        well: { x0: WX, y0: WY, cell: CELL }
      };
    }
  });
})();
