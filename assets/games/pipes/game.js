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
  var W = 800;
  var GX = (W - COLS * CELL) / 2, GY = 106;           // grid: 106..694 x 106..526
  var UP = 1, RIGHT = 2, DOWN = 4, LEFT = 8;
  var SIDES = [[UP, 0, -1], [RIGHT, 1, 0], [DOWN, 0, 1], [LEFT, -1, 0]];
  var BANNER_MS = 1500;
  var K = window.hgKit;
  var view = K.view(draw, '#12343b'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  var SEED = K.seed();

  function rotCW(m) { return ((m << 1) | (m >> 3)) & 15; }
  function rotCCW(m) { return ((m >> 1) | (m << 3)) & 15; }
  function opposite(bit) { return rotCW(rotCW(bit)); }

  var rng = K.mulberry32(SEED);
  // tiles per cell (row-major): bitmask of pipe ends, 1 up, 2 right, 4 down, 8 left; the run of
  // puzzles adds its fields
  var game = { tiles: null };
  var run = K.puzzles(game, newPuzzle, BANNER_MS, render);

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
  }

  function rotate(idx, clockwise) {
    game.tiles[idx] = clockwise ? rotCW(game.tiles[idx]) : rotCCW(game.tiles[idx]);
    run.moved(isSolved(game.tiles));
  }

  // ---- input ------------------------------------------------------------
  view.onPress(function (p, button) {
    var cell = K.cellAt(p, GX, GY, CELL, CELL, COLS, ROWS);
    if (!cell) return;
    rotate(cell[0] * COLS + cell[1], button === 0);
    render();
  }, true);

  // ---- drawing ----------------------------------------------------------

  var drawBox = K.boxDrawer(view, { bg: '#1f5662', fg: '#9fd3dc', y: 12, h: 50, labelY: 25, valueY: 48 });

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

  function draw() {
    view.clear();
    run.header(view, drawBox, '#0b2429', 'PIPES', 'Click a tile to turn it. Connect every pipe end.');
    ctx.fillStyle = '#0b2429';
    roundRect(GX - 8, GY - 8, COLS * CELL + 16, ROWS * CELL + 16, 12);
    for (var i = 0; i < COLS * ROWS; i++) drawTile(i);
  }

  run.next();
  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('pipes', SEED, game, {
    state: function () {
      var tiles = [], lit = 0;
      for (var r = 0; r < ROWS; r++) tiles.push(game.tiles.slice(r * COLS, (r + 1) * COLS));
      for (var i = 0; i < COLS * ROWS; i++) if (matched(game.tiles, i)) lit++;
      return {
        cols: COLS, rows: ROWS,
        tiles: tiles,          // tiles[row][col]: bitmask of pipe ends, 1 up, 2 right, 4 down, 8 left
        connected: lit,        // tiles whose every end is matched
        puzzle: game.level,
        moves: game.moves,
        totalMoves: game.totalMoves,
        score: game.score,
        gameOver: false,
        grid: view.pageGrid(GX, GY, COLS, ROWS, CELL, CELL)
      };
    }
  });
})();
