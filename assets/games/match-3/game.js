/* Match-3 for hybridgym: deterministic for a seed, inputs and game time.
 *
 * An 8x8 board of gems in 6 colours (each colour has its own shape). Swap two
 * neighbouring gems by clicking one and then the other, or by dragging a gem
 * towards a neighbour. A swap that lines up 3+ gems of a colour (in a row or a
 * column) clears them; the gems above fall and new gems drop in from the top,
 * drawn from a seeded PRNG (mulberry32 of ?seed=). Matches made by falling gems
 * clear too (cascades): every cleared gem scores 10 x the cascade level (1 for
 * the swap's own matches, 2 for the first cascade, ...). A swap that makes no
 * match is undone and costs nothing. The game has MOVES (30) scoring swaps; when
 * no swap on the board could match, the board is reshuffled (seeded).
 *
 * Time: a move is resolved the moment its click arrives, and state() shows the
 * result at once. Only the picture is animated (new gems grow in for ANIM_MS,
 * 90 ms; a swap that made no match is outlined in red for FLASH_MS, 400 ms) by
 * setTimeout frames with progress from performance.now(), so 100 ms after a
 * scoring move the picture is the final board. No requestAnimationFrame, no CSS
 * animation, no Math.random: under Playwright's clock the pixels at a game time
 * depend only on the seed, the inputs and their times.
 */
(function () {
  'use strict';

  var N = 8, COLORS = 6, MOVES = 30;
  var W = 800;
  var CELL = 64, BX = (W - N * CELL) / 2, BY = 76;           // board: 144..656, 76..588
  var ANIM_MS = 90, FLASH_MS = 400, FRAME_MS = 16;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#2b2250'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;
  var NAMES = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];
  var FILL = ['#e8403a', '#f28a1e', '#f5d023', '#3dbb4f', '#2f86e8', '#a052dc'];
  var DARK = ['#a3211c', '#b35d07', '#b99300', '#1f7d2f', '#17569f', '#6a2a9c'];

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  function randColor() { return Math.floor(rng() * COLORS); }

  var game = {
    board: null, score: 0, movesLeft: MOVES, moves: 0, over: false,
    selected: null,            // [r, c] or null
    lastGain: 0, lastCascades: 0, shuffles: 0, invalid: 0
  };
  var anim = null;             // {start, fresh: {r*N+c: true}}: the cells with a new gem
  var flash = null;            // {start, cells: [[r,c],[r,c]]}: a swap that made no match

  // ---- rules ------------------------------------------------------------
  function copy(b) { return b.map(function (row) { return row.slice(); }); }

  // A fresh board with no match on it and at least one scoring swap.
  function newBoard() {
    for (;;) {
      var b = [];
      for (var r = 0; r < N; r++) {
        b.push([]);
        for (var c = 0; c < N; c++) {
          var v;
          do {
            v = randColor();
          } while ((c >= 2 && b[r][c - 1] === v && b[r][c - 2] === v) ||
                   (r >= 2 && b[r - 1][c] === v && b[r - 2][c] === v));
          b[r].push(v);
        }
      }
      if (hasMove(b)) return b;
    }
  }

  // Cells in a horizontal or vertical run of 3+ equal gems (colour >= 0).
  function findMatches(b) {
    var hit = {}, count = 0, r, c, k, len;
    for (r = 0; r < N; r++) {
      for (c = 0; c < N; c += len) {
        len = 1;
        while (c + len < N && b[r][c] >= 0 && b[r][c + len] === b[r][c]) len++;
        if (len >= 3) for (k = 0; k < len; k++) if (!hit[r * N + c + k]) { hit[r * N + c + k] = true; count++; }
      }
    }
    for (c = 0; c < N; c++) {
      for (r = 0; r < N; r += len) {
        len = 1;
        while (r + len < N && b[r][c] >= 0 && b[r + len][c] === b[r][c]) len++;
        if (len >= 3) for (k = 0; k < len; k++) if (!hit[(r + k) * N + c]) { hit[(r + k) * N + c] = true; count++; }
      }
    }
    return { cells: hit, count: count };
  }

  function swapped(b, a, z) {
    var o = copy(b), t = o[a[0]][a[1]];
    o[a[0]][a[1]] = o[z[0]][z[1]];
    o[z[0]][z[1]] = t;
    return o;
  }

  function hasMove(b) {
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        if (c + 1 < N && findMatches(swapped(b, [r, c], [r, c + 1])).count) return true;
        if (r + 1 < N && findMatches(swapped(b, [r, c], [r + 1, c])).count) return true;
      }
    }
    return false;
  }

  function adjacent(a, z) { return Math.abs(a[0] - z[0]) + Math.abs(a[1] - z[1]) === 1; }

  function trySwap(a, z) {
    game.selected = null;
    if (game.over || !adjacent(a, z)) { render(); return; }
    var b = swapped(game.board, a, z);
    if (!findMatches(b).count) {
      game.invalid++;
      flash = { start: performance.now(), cells: [a, z] };
      frames.restart();
      return;
    }
    var before = game.board, gain = 0, cascades = 0;
    for (;;) {
      var m = findMatches(b);
      if (!m.count) break;
      cascades++;
      gain += 10 * cascades * m.count;
      for (var c = 0; c < N; c++) {
        var col = [];
        for (var r = N - 1; r >= 0; r--) if (!m.cells[r * N + c]) col.push(b[r][c]);
        for (r = N - 1; r >= 0; r--) b[r][c] = N - 1 - r < col.length ? col[N - 1 - r] : randColor();
      }
    }
    var shuffled = false;
    if (!hasMove(b)) { b = newBoard(); shuffled = true; game.shuffles++; }
    var fresh = {};
    for (var i = 0; i < N * N; i++) {
      var rr = Math.floor(i / N), cc = i % N;
      if (shuffled || b[rr][cc] !== before[rr][cc]) fresh[i] = true;
    }
    game.board = b;
    game.score += gain;
    game.moves++;
    game.movesLeft--;
    game.lastGain = gain;
    game.lastCascades = cascades;
    if (game.movesLeft <= 0) game.over = true;
    anim = { start: performance.now(), fresh: fresh };
    flash = null;
    frames.restart();
  }

  var frames = K.frames(FRAME_MS, function (now) {
    var left = 0;
    if (anim) {
      if (now - anim.start >= ANIM_MS) anim = null;
      else left = Math.max(left, anim.start + ANIM_MS - now);
    }
    if (flash) {
      if (now - flash.start >= FLASH_MS) flash = null;
      else left = Math.max(left, flash.start + FLASH_MS - now);
    }
    return left;
  }, render);

  // ---- input ------------------------------------------------------------
  function toGame(e) { return view.toLogical(e); }
  function cellAt(p) { return K.cellAt(p, BX, BY, CELL, CELL, N, N); }

  var drag = null;   // {id, cell, x, y, wasSelected}
  window.addEventListener('pointerdown', function (e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    drag = null;
    if (game.over) return;
    var p = toGame(e), cell = cellAt(p), sel = game.selected;
    if (!cell) { game.selected = null; render(); return; }
    if (sel && adjacent(sel, cell)) { trySwap(sel, cell); return; }
    var wasSelected = !!(sel && sel[0] === cell[0] && sel[1] === cell[1]);
    game.selected = cell;
    drag = { id: e.pointerId, cell: cell, x: p.x, y: p.y, wasSelected: wasSelected };
    render();
  }, { passive: false });
  window.addEventListener('pointermove', function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    var p = toGame(e), dx = p.x - drag.x, dy = p.y - drag.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < CELL * 0.45) return;
    var a = drag.cell, z;
    if (Math.abs(dx) > Math.abs(dy)) z = [a[0], a[1] + (dx > 0 ? 1 : -1)];
    else z = [a[0] + (dy > 0 ? 1 : -1), a[1]];
    drag = null;
    if (z[0] < 0 || z[1] < 0 || z[0] >= N || z[1] >= N) return;
    trySwap(a, z);
  });
  window.addEventListener('pointerup', function (e) {
    if (!drag || e.pointerId !== drag.id) return;
    if (drag.wasSelected) { game.selected = null; render(); }   // a click on the selected gem unselects it
    drag = null;
  });
  window.addEventListener('pointercancel', function () { drag = null; });
  window.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { game.selected = null; render(); }
  });

  // ---- drawing ----------------------------------------------------------

  function polygon(cx, cy, r, n, rot) {
    ctx.beginPath();
    for (var i = 0; i < n; i++) {
      var a = rot + i * Math.PI * 2 / n;
      ctx.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
    ctx.closePath();
  }

  function gemPath(v, cx, cy, s) {
    switch (v) {
      case 0: ctx.beginPath(); ctx.arc(cx, cy, s * 0.9, 0, Math.PI * 2); break;       // circle
      case 1: ctx.beginPath(); ctx.roundRect(cx - s * 0.8, cy - s * 0.8, s * 1.6, s * 1.6, s * 0.22); break; // square
      case 2: polygon(cx, cy, s * 1.02, 4, -Math.PI / 2); break;                        // diamond
      case 3: polygon(cx, cy + s * 0.14, s * 1.05, 3, -Math.PI / 2); break;             // triangle
      case 4: polygon(cx, cy, s * 0.95, 6, 0); break;                                   // hexagon
      default:                                                                          // star
        ctx.beginPath();
        for (var i = 0; i < 10; i++) {
          var a = -Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? s * 0.46 : s * 1.02;
          ctx.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
        }
        ctx.closePath();
    }
  }

  function drawGem(v, cx, cy, scale) {
    var s = 24 * scale;
    gemPath(v, cx, cy + 2, s);
    ctx.fillStyle = 'rgba(0,0,0,0.28)';
    ctx.fill();
    gemPath(v, cx, cy, s);
    ctx.fillStyle = FILL[v];
    ctx.fill();
    ctx.lineWidth = 2.5 * scale;
    ctx.strokeStyle = DARK[v];
    ctx.lineJoin = 'round';
    ctx.stroke();
    // a shine
    ctx.fillStyle = 'rgba(255,255,255,0.42)';
    ctx.beginPath();
    ctx.ellipse(cx - s * 0.3, cy - s * 0.32, s * 0.26, s * 0.14, -0.6, 0, Math.PI * 2);
    ctx.fill();
  }

  var drawBox = K.boxDrawer(view, { bg: '#41357a', fg: '#c9bdf5', y: 10, h: 56, labelY: 24, valueY: 48 });

  function drawHeader() {
    view.text('MATCH-3', BX, 32, 'bold 34px', '#ffffff', 'left', 'middle');
    view.text('Line up 3 or more', BX, 58, '14px', 'rgba(255,255,255,0.75)');
    drawBox('MOVES', game.movesLeft, BX + N * CELL - 250, 100);
    drawBox('SCORE', game.score, BX + N * CELL - 140, 140);
    // the last move's points, until the next move
    ctx.textAlign = 'right';
    ctx.font = 'bold 17px ' + FONT;
    if (flash) {
      ctx.fillStyle = '#ff9c9c';
      ctx.fillText('No match', BX + N * CELL - 262, 26);
    } else if (game.lastGain) {
      ctx.fillStyle = '#ffe27a';
      ctx.fillText('+' + game.lastGain, BX + N * CELL - 262, 26);
      if (game.lastCascades > 1) {
        ctx.font = 'bold 13px ' + FONT;
        ctx.fillText('cascade x' + game.lastCascades, BX + N * CELL - 262, 48);
      }
    }
  }

  function drawBoard(now) {
    ctx.fillStyle = '#1c1638';
    roundRect(BX - 8, BY - 8, N * CELL + 16, N * CELL + 16, 12);
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        ctx.fillStyle = (r + c) % 2 ? '#342a66' : '#3b3072';
        ctx.fillRect(BX + c * CELL, BY + r * CELL, CELL, CELL);
      }
    }
    var sel = game.selected;
    if (sel) {
      ctx.fillStyle = 'rgba(255,255,255,0.28)';
      roundRect(BX + sel[1] * CELL + 2, BY + sel[0] * CELL + 2, CELL - 4, CELL - 4, 10);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.roundRect(BX + sel[1] * CELL + 3, BY + sel[0] * CELL + 3, CELL - 6, CELL - 6, 10);
      ctx.stroke();
    }
    if (flash) {
      ctx.strokeStyle = '#ff5f5f';
      ctx.lineWidth = 3;
      for (var k = 0; k < 2; k++) {
        ctx.beginPath();
        ctx.roundRect(BX + flash.cells[k][1] * CELL + 3, BY + flash.cells[k][0] * CELL + 3, CELL - 6, CELL - 6, 10);
        ctx.stroke();
      }
    }
    var t = anim ? now - anim.start : Infinity;
    for (r = 0; r < N; r++) {
      for (c = 0; c < N; c++) {
        var scale = 1;
        if (t < ANIM_MS && anim.fresh[r * N + c]) scale = 0.25 + 0.75 * (t / ANIM_MS);
        drawGem(game.board[r][c], BX + c * CELL + CELL / 2, BY + r * CELL + CELL / 2, scale);
      }
    }
  }

  function drawGameOver() {
    view.card({ shade: ['rgba(18, 12, 40, 0.72)', BX - 8, BY - 8, N * CELL + 16, N * CELL + 16, 12],
                y: BY + (N * CELL - 200) / 2, title: ['Game over', '#3b2f7a', 42, 58],
                score: ['Score: ' + game.score, 28, 112], note: ['No moves left', 158] });
  }

  function draw(now) {
    view.clear();
    drawHeader();
    drawBoard(now);
    if (game.over && !anim) drawGameOver();
  }

  // ---- start ------------------------------------------------------------
  game.board = newBoard();
  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('match-3', SEED, game, {
    state: function () {
      return {
        board: copy(game.board),           // rows of colour indices 0..5
        colors: NAMES.slice(),
        rows: N, cols: N,
        grid: { x0: BX, y0: BY, cols: N, rows: N, cell_w: CELL, cell_h: CELL },
        selected: game.selected ? game.selected.slice() : null,
        score: game.score,
        movesLeft: game.movesLeft,
        moves: game.moves,
        maxMoves: MOVES,
        lastGain: game.lastGain,
        lastCascades: game.lastCascades,
        invalidSwaps: game.invalid,
        shuffles: game.shuffles,
        gameOver: game.over,
        animating: anim !== null || flash !== null
      };
    }
  });
})();
