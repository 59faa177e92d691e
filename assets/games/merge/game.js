/* Merge (a "2248"-like number puzzle) for hybridgym: deterministic for a seed, inputs and game time.
 *
 * A full 5x5 board of numbers (powers of two). Merge a tile into an equal
 * neighbour (up, down, left or right): click the tile, then the neighbour, or
 * drag the tile onto it. The neighbour doubles, the score grows by its new
 * value, and the tile that moved leaves a gap: the tiles above it in its
 * column fall by one and a new tile drops in at the top of the column. New
 * tiles come from a seeded PRNG (mulberry32 of ?seed=): 2, 4 or 8 at first,
 * bigger ones as the best tile grows (up to 1/16 of it, at most 64). The game
 * is over when no two neighbours are equal.
 *
 * Time: a merge is applied the moment its click arrives and state() shows the
 * result at once. Only the picture is animated (the merged tile pops, fallen
 * and new tiles slide in), by setTimeout frames with progress from
 * performance.now(); it is still ANIM_MS (90 ms) after the last merge. No
 * requestAnimationFrame, CSS animation or Math.random.
 */
(function () {
  'use strict';

  var N = 5;
  var W = 800;
  var CELL = 96, TILE = 88, BX = (W - N * CELL) / 2, BY = 104;   // board: 160..640, 104..584
  var ANIM_MS = 90, FRAME_MS = 16;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#f4efe6'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;
  var TILE_BG = ['#cdc1b4', '#7ec8e3', '#6fbf73', '#f2b179', '#f59563', '#f67c5f', '#f65e3b',
                 '#edcf72', '#edcc61', '#c98ee8', '#a66bd6', '#7d4fc4', '#5a3aa8'];

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  // The board holds exponents: 1 = 2, 2 = 4, 3 = 8, ...
  var game = { board: [], score: 0, merges: 0, best: 0, over: false, selected: null };
  var anim = null;       // {start, merged: [r, c], fall: {r*N+c: rows fallen}}

  function maxExp(b) {
    var m = 0;
    for (var r = 0; r < N; r++) for (var c = 0; c < N; c++) m = Math.max(m, b[r][c]);
    return m;
  }
  // a new tile: exponent uniform in 1..top, top = 3 at first, then (best exponent - 4), at most 6
  function newTile() {
    var top = Math.min(6, Math.max(3, game.best - 4));
    return 1 + Math.floor(rng() * top);
  }

  function canMerge(b) {
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        if (c + 1 < N && b[r][c] === b[r][c + 1]) return true;
        if (r + 1 < N && b[r][c] === b[r + 1][c]) return true;
      }
    }
    return false;
  }

  function adjacent(a, z) { return Math.abs(a[0] - z[0]) + Math.abs(a[1] - z[1]) === 1; }

  // merge the tile at `a` into its equal neighbour `z`
  function merge(a, z) {
    game.selected = null;
    var b = game.board;
    if (game.over || !adjacent(a, z) || b[a[0]][a[1]] !== b[z[0]][z[1]]) { render(); return false; }
    var e = b[z[0]][z[1]] + 1;
    b[z[0]][z[1]] = e;
    game.score += Math.pow(2, e);
    game.merges++;
    game.best = Math.max(game.best, e);
    // the gap at `a` closes: the tiles above fall one row, a new tile drops in at the top
    var fall = {}, c = a[1];
    var mergedAt = [z[0], z[1]];
    for (var r = a[0]; r > 0; r--) {
      b[r][c] = b[r - 1][c];
      fall[r * N + c] = 1;
      if (mergedAt[1] === c && mergedAt[0] === r - 1) mergedAt = [r, c];   // the merged tile fell too
    }
    b[0][c] = newTile();
    fall[c] = 1;
    game.over = !canMerge(b);
    anim = { start: performance.now(), merged: mergedAt, fall: fall };
    frames.restart();
    return true;
  }

  var frames = K.frames(FRAME_MS, function (now) {
    var left = anim ? ANIM_MS - (now - anim.start) : 0;
    if (left <= 0) anim = null;
    return left;
  }, render);

  // ---- input ------------------------------------------------------------
  function cellAt(e) { return K.cellAt(view.toLogical(e), BX, BY, CELL, CELL, N, N); }
  function same(a, z) { return !!a && !!z && a[0] === z[0] && a[1] === z[1]; }

  var press = null;   // {id, cell, wasSelected}
  window.addEventListener('pointerdown', function (e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    press = null;
    if (game.over) return;
    var cell = cellAt(e), sel = game.selected;
    if (!cell) { game.selected = null; render(); return; }
    if (sel && adjacent(sel, cell) && game.board[sel[0]][sel[1]] === game.board[cell[0]][cell[1]]) {
      merge(sel, cell);
      return;
    }
    press = { id: e.pointerId, cell: cell, wasSelected: same(sel, cell) };
    game.selected = cell;
    render();
  }, { passive: false });
  window.addEventListener('pointerup', function (e) {
    if (!press || e.pointerId !== press.id) return;
    var from = press.cell, to = cellAt(e);
    var wasSelected = press.wasSelected;
    press = null;
    if (same(from, to)) {
      if (wasSelected) { game.selected = null; render(); }   // a click on the selected tile unselects it
      return;
    }
    if (to && adjacent(from, to) && game.board[from[0]][from[1]] === game.board[to[0]][to[1]]) merge(from, to);  // a drag
  });
  window.addEventListener('pointercancel', function () { press = null; });
  window.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { game.selected = null; render(); }
  });

  // ---- drawing ----------------------------------------------------------

  function drawTile(e, x, y, scale) {
    var s = TILE * scale, ox = x + (TILE - s) / 2, oy = y + (TILE - s) / 2;
    ctx.fillStyle = TILE_BG[Math.min(e, TILE_BG.length - 1)];
    roundRect(ox, oy, s, s, 10 * scale);
    var text = String(Math.pow(2, e));
    var size = text.length <= 2 ? 40 : text.length === 3 ? 32 : text.length === 4 ? 26 : 21;
    ctx.font = 'bold ' + Math.round(size * scale) + 'px ' + FONT;
    ctx.fillStyle = e <= 2 ? '#1d3b4a' : '#ffffff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, x + TILE / 2, y + TILE / 2 + 2 * scale);
  }

  var drawBox = K.boxDrawer(view, { bg: '#bbada0', fg: '#f4efe6', y: 22, h: 60, labelY: 37, valueY: 62 });

  function drawHeader() {
    view.text('MERGE', BX, 44, 'bold 40px', '#776e65', 'left', 'middle');
    view.text('Join equal neighbours', BX, 78, '14px');
    drawBox('MERGES', game.merges, BX + N * CELL - 230, 100);
    drawBox('SCORE', game.score, BX + N * CELL - 120, 120);
  }

  function drawBoard(now) {
    ctx.fillStyle = '#bbada0';
    roundRect(BX - 6, BY - 6, N * CELL + 12, N * CELL + 12, 12);
    var t = anim ? now - anim.start : Infinity, q = Math.min(1, t / ANIM_MS);
    var ease = 1 - (1 - q) * (1 - q);
    var sel = game.selected;
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        var x = BX + c * CELL + (CELL - TILE) / 2, y = BY + r * CELL + (CELL - TILE) / 2;
        ctx.fillStyle = '#cdc1b4';
        roundRect(x, y, TILE, TILE, 10);
      }
    }
    for (r = 0; r < N; r++) {
      for (c = 0; c < N; c++) {
        x = BX + c * CELL + (CELL - TILE) / 2;
        y = BY + r * CELL + (CELL - TILE) / 2;
        var scale = 1, dy = 0;
        if (anim && q < 1) {
          if (anim.fall[r * N + c]) dy = -CELL * (1 - ease);
          if (anim.merged[0] === r && anim.merged[1] === c) scale = 1 + 0.12 * Math.sin(Math.PI * q);
        }
        if (r === 0 && dy) { ctx.save(); ctx.beginPath(); ctx.rect(BX - 6, BY - 6, N * CELL + 12, N * CELL + 12); ctx.clip(); }
        drawTile(game.board[r][c], x, y + dy, scale);
        if (r === 0 && dy) ctx.restore();
      }
    }
    if (sel) {
      ctx.strokeStyle = '#3b3b3b';
      ctx.lineWidth = 5;
      ctx.beginPath();
      ctx.roundRect(BX + sel[1] * CELL + 2, BY + sel[0] * CELL + 2, CELL - 4, CELL - 4, 12);
      ctx.stroke();
    }
  }

  function drawGameOver() {
    view.shade('rgba(238, 228, 218, 0.86)', BX - 6, BY - 6, N * CELL + 12, N * CELL + 12, 12);
    view.text('Game over!', W / 2, BY + N * CELL / 2 - 40, 'bold 52px', '#776e65', 'center', 'middle');
    view.text('Score: ' + game.score, W / 2, BY + N * CELL / 2 + 22, 'bold 28px');
    view.text('No two neighbours are equal', W / 2, BY + N * CELL / 2 + 66, '16px');
  }

  function draw(now) {
    view.clear();
    drawHeader();
    drawBoard(now);
    if (game.over && !anim) drawGameOver();
  }

  // ---- start: a board with at least 3 possible merges -----------------
  do {
    game.board = [];
    for (var r = 0; r < N; r++) {
      game.board.push([]);
      for (var c = 0; c < N; c++) game.board[r].push(newTile());
    }
  } while (countMerges(game.board) < 3);
  game.best = maxExp(game.board);

  function countMerges(b) {
    var n = 0;
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        if (c + 1 < N && b[r][c] === b[r][c + 1]) n++;
        if (r + 1 < N && b[r][c] === b[r + 1][c]) n++;
      }
    }
    return n;
  }

  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('merge', SEED, game, {
    state: function () {
      return {
        board: game.board.map(function (row) { return row.map(function (e) { return Math.pow(2, e); }); }),
        rows: N, cols: N,
        grid: { x0: BX, y0: BY, cols: N, rows: N, cell_w: CELL, cell_h: CELL },
        selected: game.selected ? game.selected.slice() : null,
        score: game.score,
        merges: game.merges,
        maxTile: Math.pow(2, game.best),
        gameOver: game.over,
        animating: anim !== null
      };
    }
  });
})();
