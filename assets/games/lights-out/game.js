/* Lights Out for hybridgym: deterministic for a seed, inputs and game time.
 *
 * A 5x5 board of lights. Clicking (or tapping) a light toggles it and its
 * up/down/left/right neighbours; the puzzle is solved when every light is off.
 * Puzzles are made by pressing distinct random cells of a dark board (seeded
 * mulberry32), so each one is solvable: puzzle n (from 1) takes 3 + 2n such
 * presses, at most 13. Solving a puzzle scores 1 and the next one appears at
 * once. Score: puzzles solved. The game never ends by itself.
 *
 * Time: clicks act when they arrive. The only timer hides the "Solved!" banner
 * 1500 ms of game time later (setTimeout, so under Playwright's fake clock the
 * picture depends only on the seed, the inputs and their times). No
 * requestAnimationFrame, CSS animation or Math.random.
 */
(function () {
  'use strict';

  var N = 5, TILE = 84, GAP = 10, PITCH = TILE + GAP;
  var W = 800;
  var BOARD = N * PITCH + GAP;                     // 480
  var BX = (W - BOARD) / 2, BY = 86;               // board: 160..640 x 86..566
  var BANNER_MS = 1500;
  var K = window.hgKit;
  var view = K.view(draw, '#17132a'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  var game = { lights: null };   // per cell (row-major): 1 on, 0 off; the run of puzzles adds its fields
  var run = K.puzzles(game, newPuzzle, BANNER_MS, render);

  function toggle(lights, idx) {
    var r = Math.floor(idx / N), c = idx % N;
    lights[idx] ^= 1;
    if (r > 0) lights[idx - N] ^= 1;
    if (r < N - 1) lights[idx + N] ^= 1;
    if (c > 0) lights[idx - 1] ^= 1;
    if (c < N - 1) lights[idx + 1] ^= 1;
  }

  function allOff(lights) {
    for (var i = 0; i < lights.length; i++) if (lights[i]) return false;
    return true;
  }

  function newPuzzle() {
    var presses = Math.min(13, 3 + 2 * game.level), lights;
    do {
      lights = [];
      var cells = [];
      for (var i = 0; i < N * N; i++) { lights.push(0); cells.push(i); }
      for (var k = 0; k < presses; k++) {
        var j = k + Math.floor(rng() * (cells.length - k)), tmp = cells[k];
        cells[k] = cells[j]; cells[j] = tmp;
        toggle(lights, cells[k]);
      }
    } while (allOff(lights));
    game.lights = lights;
  }

  function press(idx) {
    toggle(game.lights, idx);
    run.moved(allOff(game.lights));
  }

  // ---- input ------------------------------------------------------------
  // each light owns its tile plus half the gap around it
  view.onPress(function (p) {
    var cell = K.cellAt(p, BX + GAP / 2, BY + GAP / 2, PITCH, PITCH, N, N);
    if (!cell) return;
    press(cell[0] * N + cell[1]);
    render();
  });

  // ---- drawing ----------------------------------------------------------

  var drawBox = K.boxDrawer(view, { bg: '#3a3160', fg: '#b9b0e0', y: 12, h: 50, labelY: 25, valueY: 48 });

  function drawBoard() {
    ctx.fillStyle = '#221c3d';
    roundRect(BX, BY, BOARD, BOARD, 14);
    for (var i = 0; i < N * N; i++) {
      var x = BX + GAP + (i % N) * PITCH, y = BY + GAP + Math.floor(i / N) * PITCH;
      if (game.lights[i]) {
        var g = ctx.createRadialGradient(x + TILE / 2, y + TILE / 2, 4, x + TILE / 2, y + TILE / 2, TILE * 0.7);
        g.addColorStop(0, '#fff8c4');
        g.addColorStop(0.55, '#ffd54f');
        g.addColorStop(1, '#f9a825');
        ctx.fillStyle = g;
        roundRect(x, y, TILE, TILE, 12);
        ctx.fillStyle = 'rgba(255,255,255,0.35)';
        roundRect(x + 8, y + 6, TILE - 16, 10, 5);
      } else {
        ctx.fillStyle = '#3b3366';
        roundRect(x, y, TILE, TILE, 12);
        ctx.fillStyle = '#332c5a';
        roundRect(x + 6, y + 6, TILE - 12, TILE - 12, 9);
      }
    }
  }

  function draw() {
    view.clear();
    run.header(view, drawBox, '#0e0b1c', 'LIGHTS OUT', 'Click a light: it and its neighbours flip. Turn all off.');
    drawBoard();
  }

  run.next();
  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('lights-out', SEED, game, {
    state: function () {
      var rows = [], on = 0;
      for (var r = 0; r < N; r++) {
        rows.push(game.lights.slice(r * N, (r + 1) * N).join(''));
        for (var c = 0; c < N; c++) on += game.lights[r * N + c];
      }
      return {
        size: N,
        lights: rows,          // one string a row, '1' on, '0' off
        lightsOn: on,
        puzzle: game.level,
        moves: game.moves,
        totalMoves: game.totalMoves,
        score: game.score,
        gameOver: false,
        grid: view.pageGrid(BX + GAP / 2, BY + GAP / 2, N, N, PITCH, PITCH)
      };
    }
  });
})();
