/* Maze for hybridgym: deterministic for a seed, inputs and game time.
 *
 * A seeded perfect maze of 15x11 cells (a depth-first "recursive backtracker"
 * on a mulberry32 stream: exactly one path between any two cells). The player
 * starts in the top-left cell and walks to the exit in the bottom-right one;
 * reaching it scores 1 and a new maze (the next one from the same stream)
 * starts at once. The game has a budget of 400 moves (bumping into a wall
 * costs nothing); when it is spent the game is over. Score: mazes completed.
 *
 * Input: arrow keys / WASD move one cell; pointer / touch: swipe, or tap on
 * the side of the player to step that way.
 *
 * Time: moves happen when their input arrives. The only timer hides the "Maze
 * complete" banner 1500 ms of game time later (setTimeout, so under
 * Playwright's fake clock the picture depends only on the seed, the inputs and
 * their times). No requestAnimationFrame, CSS animation or Math.random.
 */
(function () {
  'use strict';

  var COLS = 15, ROWS = 11, CELL = 44;
  var W = 800, H = 600, HEADER = 72;
  var GX = (W - COLS * CELL) / 2, GY = 94;          // maze: 70..730 x 94..578
  var MOVE_BUDGET = 400, BANNER_MS = 1500;
  var UP = 1, RIGHT = 2, DOWN = 4, LEFT = 8;
  var FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif';

  var DIRS = { up: [0, -1, UP], down: [0, 1, DOWN], left: [-1, 0, LEFT], right: [1, 0, RIGHT] };
  var OPPOSITE = {}; OPPOSITE[UP] = DOWN; OPPOSITE[DOWN] = UP; OPPOSITE[LEFT] = RIGHT; OPPOSITE[RIGHT] = LEFT;
  var KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    w: 'up', s: 'down', a: 'left', d: 'right', W: 'up', S: 'down', A: 'left', D: 'right'
  };
  var CODES = { KeyW: 'up', KeyS: 'down', KeyA: 'left', KeyD: 'right' };

  var params = new URLSearchParams(location.search);
  var SEED = parseSeed(params.get('seed'));

  function parseSeed(text) {
    var n = parseInt(text == null ? '0' : text, 10);
    if (!isFinite(n)) n = 0;
    return n >>> 0;
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
    open: null,        // per cell (row-major): bitmask of open sides
    visited: null,     // per cell: walked on in this maze
    player: [0, 0],
    exit: [COLS - 1, ROWS - 1],
    mazes: 0,
    moves: 0,
    mazeMoves: 0,
    over: false,
    bannerUntil: -1
  };

  function newMaze() {
    var open = [], seen = [];
    for (var i = 0; i < COLS * ROWS; i++) { open.push(0); seen.push(false); }
    var start = Math.floor(rng() * COLS * ROWS);
    var stack = [start];
    seen[start] = true;
    while (stack.length) {
      var cur = stack[stack.length - 1], x = cur % COLS, y = Math.floor(cur / COLS), choices = [];
      for (var name in DIRS) {
        var d = DIRS[name], nx = x + d[0], ny = y + d[1];
        if (nx >= 0 && ny >= 0 && nx < COLS && ny < ROWS && !seen[ny * COLS + nx]) choices.push(d);
      }
      if (!choices.length) { stack.pop(); continue; }
      var pick = choices[Math.floor(rng() * choices.length)], next = (y + pick[1]) * COLS + x + pick[0];
      open[cur] |= pick[2];
      open[next] |= OPPOSITE[pick[2]];
      seen[next] = true;
      stack.push(next);
    }
    game.open = open;
    game.visited = [];
    for (i = 0; i < COLS * ROWS; i++) game.visited.push(false);
    game.player = [0, 0];
    game.visited[0] = true;
    game.mazeMoves = 0;
  }

  var bannerTimer = null;
  function move(dir) {
    if (game.over) return;
    var d = DIRS[dir], p = game.player;
    if (!(game.open[p[1] * COLS + p[0]] & d[2])) return;
    game.player = [p[0] + d[0], p[1] + d[1]];
    game.visited[game.player[1] * COLS + game.player[0]] = true;
    game.moves++;
    game.mazeMoves++;
    if (game.player[0] === game.exit[0] && game.player[1] === game.exit[1]) {
      game.mazes++;
      newMaze();
      game.bannerUntil = performance.now() + BANNER_MS;
      if (bannerTimer !== null) clearTimeout(bannerTimer);
      bannerTimer = setTimeout(function () { bannerTimer = null; game.bannerUntil = -1; render(); }, BANNER_MS);
    }
    if (game.moves >= MOVE_BUDGET) game.over = true;
  }

  // ---- input ------------------------------------------------------------
  window.addEventListener('keydown', function (e) {
    var dir = KEYS[e.key] || CODES[e.code];
    if (!dir) return;
    e.preventDefault();
    move(dir);
    render();
  }, true);

  var canvas = document.getElementById('game');
  var ctx = canvas.getContext('2d');

  function toLogical(e) {
    var rect = canvas.getBoundingClientRect();
    return { x: (e.clientX - rect.left) * W / rect.width, y: (e.clientY - rect.top) * H / rect.height };
  }

  var swipe = null;
  window.addEventListener('pointerdown', function (e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    swipe = { id: e.pointerId, x: e.clientX, y: e.clientY, p: toLogical(e) };
    e.preventDefault();
  }, { passive: false });
  window.addEventListener('pointerup', function (e) {
    if (!swipe || e.pointerId !== swipe.id) return;
    var dx = e.clientX - swipe.x, dy = e.clientY - swipe.y, p = swipe.p;
    swipe = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) {
      // a tap: step towards it from the player
      dx = p.x - (GX + (game.player[0] + 0.5) * CELL);
      dy = p.y - (GY + (game.player[1] + 0.5) * CELL);
      if (Math.max(Math.abs(dx), Math.abs(dy)) < CELL / 2) return;
    }
    move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : (dy > 0 ? 'down' : 'up'));
    render();
  });
  window.addEventListener('pointercancel', function () { swipe = null; });
  window.addEventListener('touchmove', function (e) { e.preventDefault(); }, { passive: false });
  window.addEventListener('contextmenu', function (e) { e.preventDefault(); });

  // ---- drawing ----------------------------------------------------------
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

  function drawBox(label, value, x, w) {
    ctx.fillStyle = '#2f3b63';
    roundRect(x, 12, w, 50, 8);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#aab6e0';
    ctx.font = 'bold 12px ' + FONT;
    ctx.fillText(label, x + w / 2, 25);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 24px ' + FONT;
    ctx.fillText(String(value), x + w / 2, 48);
  }

  function drawHeader() {
    ctx.fillStyle = '#121829';
    ctx.fillRect(0, 0, W, HEADER);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 28px ' + FONT;
    ctx.fillText('MAZE', 24, 28);
    if (game.bannerUntil > 0 && performance.now() < game.bannerUntil) {
      // for a while after a solve, a green note replaces the hint
      ctx.font = 'bold 14px ' + FONT;
      var note = 'Maze complete! Here is the next one.';
      ctx.fillStyle = '#43a047';
      roundRect(14, 42, ctx.measureText(note).width + 20, 24, 12);
      ctx.fillStyle = '#ffffff';
      ctx.fillText(note, 24, 55);
    } else {
      ctx.font = '14px ' + FONT;
      ctx.fillStyle = 'rgba(255,255,255,0.78)';
      ctx.fillText('Arrows: walk to the green exit', 24, 54);
    }
    drawBox('MOVES LEFT', MOVE_BUDGET - game.moves, W - 24 - 2 * 120 - 10, 120);
    drawBox('SCORE', game.mazes, W - 24 - 120, 120);
  }

  function drawMaze() {
    ctx.fillStyle = '#e8ecf7';
    ctx.fillRect(GX, GY, COLS * CELL, ROWS * CELL);
    for (var i = 0; i < COLS * ROWS; i++) {
      if (!game.visited[i]) continue;
      ctx.fillStyle = '#c9d6f5';
      ctx.fillRect(GX + (i % COLS) * CELL, GY + Math.floor(i / COLS) * CELL, CELL, CELL);
    }
    // exit
    var ex = GX + game.exit[0] * CELL, ey = GY + game.exit[1] * CELL;
    ctx.fillStyle = '#43a047';
    roundRect(ex + 5, ey + 5, CELL - 10, CELL - 10, 6);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 13px ' + FONT;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('EXIT', ex + CELL / 2, ey + CELL / 2 + 1);
    // walls
    ctx.strokeStyle = '#1b2238';
    ctx.lineWidth = 4;
    ctx.lineCap = 'round';
    ctx.beginPath();
    for (i = 0; i < COLS * ROWS; i++) {
      var x = GX + (i % COLS) * CELL, y = GY + Math.floor(i / COLS) * CELL, o = game.open[i];
      if (!(o & UP)) { ctx.moveTo(x, y); ctx.lineTo(x + CELL, y); }
      if (!(o & LEFT)) { ctx.moveTo(x, y); ctx.lineTo(x, y + CELL); }
      if (i % COLS === COLS - 1 && !(o & RIGHT)) { ctx.moveTo(x + CELL, y); ctx.lineTo(x + CELL, y + CELL); }
      if (Math.floor(i / COLS) === ROWS - 1 && !(o & DOWN)) { ctx.moveTo(x, y + CELL); ctx.lineTo(x + CELL, y + CELL); }
    }
    ctx.stroke();
    // player
    var px = GX + (game.player[0] + 0.5) * CELL, py = GY + (game.player[1] + 0.5) * CELL;
    ctx.fillStyle = '#e53935';
    ctx.beginPath(); ctx.arc(px, py, CELL * 0.32, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = 'rgba(255,255,255,0.55)';
    ctx.beginPath(); ctx.arc(px - CELL * 0.1, py - CELL * 0.1, CELL * 0.09, 0, Math.PI * 2); ctx.fill();
  }

  function drawGameOver() {
    ctx.fillStyle = 'rgba(10, 14, 30, 0.55)';
    ctx.fillRect(GX, GY, COLS * CELL, ROWS * CELL);
    var pw = 360, ph = 170, px = (W - pw) / 2, py = GY + (ROWS * CELL - ph) / 2;
    ctx.fillStyle = '#ffffff';
    roundRect(px, py, pw, ph, 16);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#1b2238';
    ctx.font = 'bold 40px ' + FONT;
    ctx.fillText('Out of moves', W / 2, py + 56);
    ctx.fillStyle = '#333333';
    ctx.font = 'bold 24px ' + FONT;
    ctx.fillText('Mazes completed: ' + game.mazes, W / 2, py + 116);
  }

  function render() {
    ctx.fillStyle = '#1b2238';
    ctx.fillRect(0, 0, W, H);
    drawHeader();
    drawMaze();
    if (game.over) drawGameOver();
  }

  newMaze();
  window.addEventListener('resize', fit);
  fit();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = {
    ready: true,
    name: 'maze',
    seed: SEED,
    score: function () { return game.mazes; },
    level: function () { return game.mazes + 1; },
    lives: function () { return 1; },
    gameOver: function () { return game.over; },
    state: function () {
      var rect = canvas.getBoundingClientRect(), sx = rect.width / W, sy = rect.height / H;
      var open = [];
      for (var r = 0; r < ROWS; r++) open.push(game.open.slice(r * COLS, (r + 1) * COLS));
      return {
        cols: COLS,
        rows: ROWS,
        open: open,            // open[row][col]: bitmask of open sides, 1 up, 2 right, 4 down, 8 left
        player: game.player.slice(),
        exit: game.exit.slice(),
        mazes: game.mazes,
        moves: game.moves,
        mazeMoves: game.mazeMoves,
        movesLeft: MOVE_BUDGET - game.moves,
        score: game.mazes,
        gameOver: game.over,
        grid: { x0: rect.left + GX * sx, y0: rect.top + GY * sy, cols: COLS, rows: ROWS,
                cell_w: CELL * sx, cell_h: CELL * sy },
        seed: SEED
      };
    }
  };
})();
