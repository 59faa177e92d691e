/* Pipes (rotation puzzle, "infinity loop") for hybridgym: deterministic for a seed, inputs and game time.
 *
 * A 7x5 grid of pipe tiles. Each puzzle is a random spanning tree of the grid
 * (randomised Kruskal on a seeded mulberry32 stream): a tile's pipes lead to
 * its tree neighbours, so the tiles are ends, straights, bends, tees and
 * crosses. Every tile is then turned a random number of quarter turns. Click
 * (or tap) a tile to turn it 90 degrees clockwise (right click: anticlockwise).
 * The puzzle is solved when every pipe end meets a pipe end of the neighbour
 * it points to (none points off the board) - any such layout counts. Tiles
 * whose every end is matched are drawn lit. Solving scores 1 and the next
 * puzzle appears at once. Score: puzzles solved. The game never ends by itself.
 *
 * Time: clicks act when they arrive. The only timer hides the "Solved!" banner
 * 1500 ms of game time later (setTimeout, so under Playwright's fake clock the
 * picture depends only on the seed, the inputs and their times). No
 * requestAnimationFrame, CSS animation or Math.random.
 */
(function () {
  'use strict';

  var COLS = 7, ROWS = 5, CELL = 84;
  var W = 800, H = 600, HEADER = 72;
  var GX = (W - COLS * CELL) / 2, GY = 106;           // grid: 106..694 x 106..526
  var UP = 1, RIGHT = 2, DOWN = 4, LEFT = 8;
  var SIDES = [[UP, 0, -1], [RIGHT, 1, 0], [DOWN, 0, 1], [LEFT, -1, 0]];
  var BANNER_MS = 1500;
  var K = window.hgKit, FONT = K.FONT;

  var SEED = K.parseSeed(K.params().get('seed'));

  function rotCW(m) { return ((m << 1) | (m >> 3)) & 15; }
  function rotCCW(m) { return ((m >> 1) | (m << 3)) & 15; }
  function opposite(bit) { return rotCW(rotCW(bit)); }

  var rng = K.mulberry32(SEED);
  var game = {
    tiles: null,       // per cell (row-major): bitmask of pipe ends, 1 up, 2 right, 4 down, 8 left
    puzzle: 0,
    solved: 0,
    moves: 0,          // clicks on the current puzzle
    totalMoves: 0,
    bannerUntil: -1
  };

  function matched(tiles, idx) {
    var x = idx % COLS, y = Math.floor(idx / COLS), m = tiles[idx];
    for (var s = 0; s < 4; s++) {
      var bit = SIDES[s][0];
      if (!(m & bit)) continue;
      var nx = x + SIDES[s][1], ny = y + SIDES[s][2];
      if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS) return false;
      if (!(tiles[ny * COLS + nx] & opposite(bit))) return false;
    }
    return true;
  }

  function isSolved(tiles) {
    for (var i = 0; i < tiles.length; i++) if (!matched(tiles, i)) return false;
    return true;
  }

  function newPuzzle() {
    game.puzzle++;
    var n = COLS * ROWS, tiles = [], parent = [], edges = [], i;
    for (i = 0; i < n; i++) { tiles.push(0); parent.push(i); }
    for (var y = 0; y < ROWS; y++)
      for (var x = 0; x < COLS; x++) {
        if (x + 1 < COLS) edges.push([y * COLS + x, y * COLS + x + 1, RIGHT]);
        if (y + 1 < ROWS) edges.push([y * COLS + x, (y + 1) * COLS + x, DOWN]);
      }
    for (i = edges.length - 1; i > 0; i--) {
      var j = Math.floor(rng() * (i + 1)), tmp = edges[i];
      edges[i] = edges[j]; edges[j] = tmp;
    }
    function find(a) { while (parent[a] !== a) { parent[a] = parent[parent[a]]; a = parent[a]; } return a; }
    for (i = 0; i < edges.length; i++) {
      var e = edges[i], ra = find(e[0]), rb = find(e[1]);
      if (ra === rb) continue;
      parent[ra] = rb;
      tiles[e[0]] |= e[2];
      tiles[e[1]] |= opposite(e[2]);
    }
    var scrambled;
    do {
      scrambled = tiles.map(function (m) {
        var turns = Math.floor(rng() * 4);
        for (var k = 0; k < turns; k++) m = rotCW(m);
        return m;
      });
    } while (isSolved(scrambled));
    game.tiles = scrambled;
    game.moves = 0;
  }

  var showBanner = K.banner(game, BANNER_MS, render);
  function rotate(idx, clockwise) {
    game.tiles[idx] = clockwise ? rotCW(game.tiles[idx]) : rotCCW(game.tiles[idx]);
    game.moves++;
    game.totalMoves++;
    if (isSolved(game.tiles)) {
      game.solved++;
      newPuzzle();
      showBanner();
    }
  }

  // ---- input ------------------------------------------------------------
  var view = K.view(render);
  var canvas = view.canvas, ctx = view.ctx, roundRect = view.roundRect;

  function toLogical(e) { return view.toLogical(e); }

  window.addEventListener('pointerdown', function (e) {
    var button = e.pointerType === 'mouse' ? e.button : 0;
    if (button !== 0 && button !== 2) return;
    e.preventDefault();
    var p = toLogical(e);
    var c = Math.floor((p.x - GX) / CELL), r = Math.floor((p.y - GY) / CELL);
    if (c < 0 || r < 0 || c >= COLS || r >= ROWS) return;
    rotate(r * COLS + c, button === 0);
    render();
  }, { passive: false });
  K.blockDefaults();

  // ---- drawing ----------------------------------------------------------

  var drawBox = K.boxDrawer(view, { bg: '#1f5662', fg: '#9fd3dc', y: 12, h: 50, labelY: 25, valueY: 48 });

  function drawHeader() {
    view.titleBar('#0b2429', HEADER, 'PIPES', 'Click a tile to turn it. Connect every pipe end.',
                  K.bannerOn(game) ? 'Solved! Here is the next puzzle.' : null);
    drawBox('PUZZLE', game.puzzle, W - 24 - 3 * 96 - 20, 96);
    drawBox('MOVES', game.moves, W - 24 - 2 * 96 - 10, 96);
    drawBox('SCORE', game.solved, W - 24 - 96, 96);
  }

  function drawTile(idx) {
    var x = GX + (idx % COLS) * CELL, y = GY + Math.floor(idx / COLS) * CELL;
    var cx = x + CELL / 2, cy = y + CELL / 2, m = game.tiles[idx], lit = matched(game.tiles, idx);
    ctx.fillStyle = (idx % COLS + Math.floor(idx / COLS)) % 2 ? '#17444d' : '#1a4b55';
    roundRect(x + 2, y + 2, CELL - 4, CELL - 4, 8);
    var color = lit ? '#4dd9ec' : '#d7e3e6';
    ctx.strokeStyle = color;
    ctx.lineCap = 'butt';
    ctx.lineWidth = 14;
    ctx.beginPath();
    for (var s = 0; s < 4; s++) {
      if (!(m & SIDES[s][0])) continue;
      ctx.moveTo(cx, cy);
      ctx.lineTo(cx + SIDES[s][1] * CELL / 2, cy + SIDES[s][2] * CELL / 2);
    }
    ctx.stroke();
    ctx.fillStyle = color;
    var degree = (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
    if (degree === 1) {
      ctx.beginPath(); ctx.arc(cx, cy, 16, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = lit ? '#0b2429' : '#12343b';
      ctx.beginPath(); ctx.arc(cx, cy, 7, 0, Math.PI * 2); ctx.fill();
    } else {
      ctx.beginPath(); ctx.arc(cx, cy, 7, 0, Math.PI * 2); ctx.fill();
    }
  }

  // every picture goes through hgKit.paint: drawn at once, or once at the end of an env step
  function render() { K.paint(draw); }

  function draw() {
    ctx.fillStyle = '#12343b';
    ctx.fillRect(0, 0, W, H);
    drawHeader();
    ctx.fillStyle = '#0b2429';
    roundRect(GX - 8, GY - 8, COLS * CELL + 16, ROWS * CELL + 16, 12);
    for (var i = 0; i < COLS * ROWS; i++) drawTile(i);
  }

  newPuzzle();
  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('pipes', SEED, {
    score: function () { return game.solved; },
    level: function () { return game.puzzle; },
    gameOver: function () { return false; },
    state: function () {
      var rect = canvas.getBoundingClientRect(), sx = rect.width / W, sy = rect.height / H;
      var tiles = [], lit = 0;
      for (var r = 0; r < ROWS; r++) tiles.push(game.tiles.slice(r * COLS, (r + 1) * COLS));
      for (var i = 0; i < COLS * ROWS; i++) if (matched(game.tiles, i)) lit++;
      return {
        cols: COLS,
        rows: ROWS,
        tiles: tiles,          // tiles[row][col]: bitmask of pipe ends, 1 up, 2 right, 4 down, 8 left
        connected: lit,        // tiles whose every end is matched
        puzzle: game.puzzle,
        moves: game.moves,
        totalMoves: game.totalMoves,
        score: game.solved,
        gameOver: false,
        grid: { x0: rect.left + GX * sx, y0: rect.top + GY * sy, cols: COLS, rows: ROWS,
                cell_w: CELL * sx, cell_h: CELL * sy },
        seed: SEED
      };
    }
  });
})();
