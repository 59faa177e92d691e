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
  var W = 800, HEADER = 72;
  var GX = (W - COLS * CELL) / 2, GY = 94;          // maze: 70..730 x 94..578
  var MOVE_BUDGET = 400, BANNER_MS = 1500;
  var UP = 1, RIGHT = 2, DOWN = 4, LEFT = 8;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#1b2238'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  var DIRS = { up: [0, -1, UP], down: [0, 1, DOWN], left: [-1, 0, LEFT], right: [1, 0, RIGHT] };
  var OPPOSITE = {}; OPPOSITE[UP] = DOWN; OPPOSITE[DOWN] = UP; OPPOSITE[LEFT] = RIGHT; OPPOSITE[RIGHT] = LEFT;

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
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

  var showBanner = K.banner(game, BANNER_MS, render);
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
      showBanner();
    }
    if (game.moves >= MOVE_BUDGET) game.over = true;
  }

  // ---- input ------------------------------------------------------------
  K.onDirKey(function (dir) {
    move(dir);
    render();
  });

  view.onSwipe(function (dx, dy, p) {
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) {
      // a tap: step towards it from the player
      dx = p.x - (GX + (game.player[0] + 0.5) * CELL);
      dy = p.y - (GY + (game.player[1] + 0.5) * CELL);
      if (Math.max(Math.abs(dx), Math.abs(dy)) < CELL / 2) return;
    }
    move(K.dirOf(dx, dy));
    render();
  });

  // ---- drawing ----------------------------------------------------------

  var drawBox = K.boxDrawer(view, { bg: '#2f3b63', fg: '#aab6e0', y: 12, h: 50, labelY: 25, valueY: 48 });

  function drawHeader() {
    view.titleBar('#121829', HEADER, 'MAZE', 'Arrows: walk to the green exit',
                  K.bannerOn(game) ? 'Maze complete! Here is the next one.' : null);
    drawBox.row([['MOVES LEFT', MOVE_BUDGET - game.moves], ['SCORE', game.mazes]], 120, 10);
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
    view.card({ shade: ['rgba(10, 14, 30, 0.55)', GX, GY, COLS * CELL, ROWS * CELL],
                w: 360, h: 170, y: GY + (ROWS * CELL - 170) / 2,
                title: ['Out of moves', '#1b2238', 40, 56], score: ['Mazes completed: ' + game.mazes, 24, 116] });
  }

  function draw() {
    view.clear();
    drawHeader();
    drawMaze();
    if (game.over) drawGameOver();
  }

  newMaze();
  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('maze', SEED, game, {
    score: function () { return game.mazes; },
    level: function () { return game.mazes + 1; },
    state: function () {
      var open = [];
      for (var r = 0; r < ROWS; r++) open.push(game.open.slice(r * COLS, (r + 1) * COLS));
      return {
        cols: COLS, rows: ROWS,
        open: open,            // open[row][col]: bitmask of open sides, 1 up, 2 right, 4 down, 8 left
        player: game.player.slice(),
        exit: game.exit.slice(),
        mazes: game.mazes,
        moves: game.moves,
        mazeMoves: game.mazeMoves,
        movesLeft: MOVE_BUDGET - game.moves,
        score: game.mazes,
        gameOver: game.over,
        grid: view.pageGrid(GX, GY, COLS, ROWS, CELL, CELL)
      };
    }
  });
})();
