/* 2048 for hybridgym: deterministic for a seed, inputs and game time.
 *
 * A move is applied to the board the moment its key (or swipe) arrives: the
 * tiles merge, the score grows, a new tile spawns (seeded), and state() shows
 * the result at once. Only the picture is animated: tiles slide for SLIDE_MS,
 * then merged tiles pop and the new tile grows for POP_MS. Frames are drawn by
 * setTimeout at the animation start + 16 ms, 32 ms, ... (and at its end), with
 * the progress taken from performance.now(), so under Playwright's clock API
 * the pixels at a given game time depend only on the seed, the inputs and
 * their times. A move that arrives during an animation cuts it short and
 * starts its own. The whole animation takes 100 ms of game time, so 100 ms or
 * more after the last move the picture is the final board (with the game-over
 * overlay if it is over). requestAnimationFrame and CSS transitions are not used.
 *
 * Score: the sum of the tiles made by merges, as in the original game.
 * Game over: no move changes the board. won: a 2048 tile was made (play goes on).
 */
(function () {
  'use strict';

  var N = 4;
  var W = 800;
  var BOARD = 460, GAP = 12, TILE = (BOARD - GAP * (N + 1)) / N;   // tile: 100
  var BX = (W - BOARD) / 2, BY = 124;                               // board: 170..630, 124..584
  var SLIDE_MS = 60, POP_MS = 40, FRAME_MS = 16;   // the whole animation: 100 ms
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#faf8ef'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  var game = { board: emptyBoard(), score: 0, over: false, won: false, moves: 0 };
  var anim = null;      // {start, slides, merged, spawned}

  function emptyBoard() {
    var b = [];
    for (var r = 0; r < N; r++) b.push([0, 0, 0, 0]);
    return b;
  }

  function spawn(board) {
    var empty = [];
    for (var r = 0; r < N; r++)
      for (var c = 0; c < N; c++)
        if (!board[r][c]) empty.push([r, c]);
    if (!empty.length) return null;
    var cell = empty[Math.floor(rng() * empty.length)];
    var value = rng() < 0.9 ? 2 : 4;
    board[cell[0]][cell[1]] = value;
    return { r: cell[0], c: cell[1], v: value };
  }

  // The k-th cell of line `line`, counted from the side the tiles move towards.
  function cellAt(dir, line, k) {
    if (dir === 'left') return [line, k];
    if (dir === 'right') return [line, N - 1 - k];
    if (dir === 'up') return [k, line];
    return [N - 1 - k, line];   // down
  }

  // Slide and merge; returns the new board, the points won and what moved where.
  function slide(board, dir) {
    var out = emptyBoard(), gain = 0, moved = false, slides = [], merged = [];
    for (var line = 0; line < N; line++) {
      var target = 0, lastValue = 0, canMerge = false;
      for (var k = 0; k < N; k++) {
        var rc = cellAt(dir, line, k), v = board[rc[0]][rc[1]];
        if (!v) continue;
        var to;
        if (canMerge && v === lastValue) {
          to = cellAt(dir, line, target - 1);
          out[to[0]][to[1]] = v * 2;
          gain += v * 2;
          merged.push({ r: to[0], c: to[1], v: v * 2 });
          canMerge = false;
        } else {
          to = cellAt(dir, line, target);
          out[to[0]][to[1]] = v;
          lastValue = v;
          canMerge = true;
          target++;
        }
        if (to[0] !== rc[0] || to[1] !== rc[1]) moved = true;
        slides.push({ fr: rc[0], fc: rc[1], tr: to[0], tc: to[1], v: v });
      }
    }
    return { board: out, gain: gain, moved: moved, slides: slides, merged: merged };
  }

  function canMove(board) {
    for (var r = 0; r < N; r++) {
      for (var c = 0; c < N; c++) {
        var v = board[r][c];
        if (!v) return true;
        if (c + 1 < N && board[r][c + 1] === v) return true;
        if (r + 1 < N && board[r + 1][c] === v) return true;
      }
    }
    return false;
  }

  function move(dir) {
    if (game.over) return;
    var res = slide(game.board, dir);
    if (!res.moved) return;
    game.board = res.board;
    game.score += res.gain;
    game.moves++;
    for (var i = 0; i < res.merged.length; i++) if (res.merged[i].v >= 2048) game.won = true;
    var spawned = spawn(game.board);
    game.over = !canMove(game.board);
    anim = { start: performance.now(), slides: res.slides, merged: res.merged, spawned: spawned };
    frames.restart();
  }

  var frames = K.frames(FRAME_MS, function (now) {
    var left = anim ? SLIDE_MS + POP_MS - (now - anim.start) : 0;
    if (left <= 0) anim = null;
    return left;
  }, render);

  // ---- input ------------------------------------------------------------
  view.onDirInput(move);

  // ---- drawing ----------------------------------------------------------

  var TILE_BG = {
    2: '#eee4da', 4: '#ede0c8', 8: '#f2b179', 16: '#f59563', 32: '#f67c5f', 64: '#f65e3b',
    128: '#edcf72', 256: '#edcc61', 512: '#edc850', 1024: '#edc53f', 2048: '#edc22e'
  };

  function cellX(c) { return BX + GAP + c * (TILE + GAP); }
  function cellY(r) { return BY + GAP + r * (TILE + GAP); }

  function drawTile(v, x, y, scale) {
    var s = TILE * scale, ox = x + (TILE - s) / 2, oy = y + (TILE - s) / 2;
    ctx.fillStyle = TILE_BG[v] || '#3c3a32';
    roundRect(ox, oy, s, s, 6 * scale);
    var digits = String(v).length;
    var size = digits <= 2 ? 52 : digits === 3 ? 40 : digits === 4 ? 32 : 26;
    ctx.font = 'bold ' + Math.round(size * scale) + 'px ' + FONT;
    ctx.fillStyle = v <= 4 ? '#776e65' : '#f9f6f2';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(v), x + TILE / 2, y + TILE / 2 + 2 * scale);
  }

  var drawBox = K.boxDrawer(view, { bg: '#bbada0', fg: '#eee4da', y: 26, h: 62, r: 6, labelY: 42, valueY: 68,
                                  labelPx: 13, valuePx: 26, shrink: true });

  function drawHeader() {
    view.text('2048', BX, 86, 'bold 64px', '#776e65', 'left', 'alphabetic');
    if (game.won) view.text('You made 2048! Keep going.', BX, 110, 'bold 15px', '#c9a227');
    else view.text('Arrows / WASD / swipe to join the tiles', BX, 110, '15px');
    drawBox('MOVES', game.moves, BX + BOARD - 228, 104);
    drawBox('SCORE', game.score, BX + BOARD - 116, 116);
  }

  function easeOut(t) { return 1 - (1 - t) * (1 - t); }

  function drawBoard(now) {
    ctx.fillStyle = '#bbada0';
    roundRect(BX, BY, BOARD, BOARD, 8);
    ctx.fillStyle = '#cdc1b4';
    for (var r = 0; r < N; r++)
      for (var c = 0; c < N; c++)
        roundRect(cellX(c), cellY(r), TILE, TILE, 6);

    var t = anim ? now - anim.start : Infinity;
    if (t < SLIDE_MS) {
      // tiles travel from their old cells to their new ones, with their old values
      var p = easeOut(Math.max(0, t) / SLIDE_MS);
      for (var i = 0; i < anim.slides.length; i++) {
        var s = anim.slides[i];
        drawTile(s.v, cellX(s.fc) + (cellX(s.tc) - cellX(s.fc)) * p,
                 cellY(s.fr) + (cellY(s.tr) - cellY(s.fr)) * p, 1);
      }
      return;
    }
    var q = anim ? Math.min(1, (t - SLIDE_MS) / POP_MS) : 1;
    for (r = 0; r < N; r++) {
      for (c = 0; c < N; c++) {
        var v = game.board[r][c];
        if (!v) continue;
        var scale = 1;
        if (anim && q < 1) {
          if (anim.spawned && anim.spawned.r === r && anim.spawned.c === c) scale = 0.2 + 0.8 * q;
          else if (isMerged(r, c)) scale = 1 + 0.14 * Math.sin(Math.PI * q);
        }
        drawTile(v, cellX(c), cellY(r), scale);
      }
    }
  }

  function isMerged(r, c) {
    for (var i = 0; i < anim.merged.length; i++)
      if (anim.merged[i].r === r && anim.merged[i].c === c) return true;
    return false;
  }

  function drawGameOver() {
    view.shade('rgba(238, 228, 218, 0.86)', BX, BY, BOARD, BOARD, 8);
    view.text('Game over!', W / 2, BY + BOARD / 2 - 30, 'bold 56px', '#776e65', 'center', 'middle');
    view.text('Score: ' + game.score, W / 2, BY + BOARD / 2 + 34, 'bold 28px');
  }

  function draw(now) {
    view.clear();
    drawHeader();
    drawBoard(now);
    if (game.over && !anim) drawGameOver();
  }

  // ---- start ------------------------------------------------------------
  spawn(game.board);
  spawn(game.board);
  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('2048', SEED, game, {
    state: function () {
      var max = 0;
      for (var r = 0; r < N; r++) for (var c = 0; c < N; c++) max = Math.max(max, game.board[r][c]);
      return {
        board: game.board.map(function (row) { return row.slice(); }),
        score: game.score,
        gameOver: game.over,
        won: game.won,
        moves: game.moves,
        maxTile: max,
        animating: anim !== null
      };
    }
  });
})();
