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
  var W = 800, H = 600, HEADER = 72;
  var BOARD = N * PITCH + GAP;                     // 480
  var BX = (W - BOARD) / 2, BY = 86;               // board: 160..640 x 86..566
  var BANNER_MS = 1500;
  var K = window.hgKit, FONT = K.FONT;

  var SEED = K.parseSeed(K.params().get('seed'));

  var rng = K.mulberry32(SEED);
  var game = {
    lights: null,      // per cell (row-major): 1 on, 0 off
    puzzle: 0,         // puzzles started (the current one is number `puzzle`)
    solved: 0,
    moves: 0,          // clicks on the current puzzle
    totalMoves: 0,
    bannerUntil: -1
  };

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
    game.puzzle++;
    var presses = Math.min(13, 3 + 2 * game.puzzle), lights;
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
    game.moves = 0;
  }

  var showBanner = K.banner(game, BANNER_MS, render);
  function press(idx) {
    toggle(game.lights, idx);
    game.moves++;
    game.totalMoves++;
    if (allOff(game.lights)) {
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
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    var p = toLogical(e);
    // each light owns its tile plus half the gap around it
    var c = Math.floor((p.x - BX - GAP / 2) / PITCH), r = Math.floor((p.y - BY - GAP / 2) / PITCH);
    if (c < 0 || r < 0 || c >= N || r >= N) return;
    press(r * N + c);
    render();
  }, { passive: false });
  K.blockDefaults();

  // ---- drawing ----------------------------------------------------------

  var drawBox = K.boxDrawer(view, { bg: '#3a3160', fg: '#b9b0e0', y: 12, h: 50, labelY: 25, valueY: 48 });

  function drawHeader() {
    view.titleBar('#0e0b1c', HEADER, 'LIGHTS OUT', 'Click a light: it and its neighbours flip. Turn all off.',
                  K.bannerOn(game) ? 'Solved! Here is the next puzzle.' : null);
    drawBox('PUZZLE', game.puzzle, W - 24 - 3 * 96 - 20, 96);
    drawBox('MOVES', game.moves, W - 24 - 2 * 96 - 10, 96);
    drawBox('SCORE', game.solved, W - 24 - 96, 96);
  }

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

  // every picture goes through hgKit.paint: drawn at once, or once at the end of an env step
  function render() { K.paint(draw); }

  function draw() {
    ctx.fillStyle = '#17132a';
    ctx.fillRect(0, 0, W, H);
    drawHeader();
    drawBoard();
  }

  newPuzzle();
  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('lights-out', SEED, {
    score: function () { return game.solved; },
    level: function () { return game.puzzle; },
    gameOver: function () { return false; },
    state: function () {
      var rect = canvas.getBoundingClientRect(), sx = rect.width / W, sy = rect.height / H;
      var rows = [], on = 0;
      for (var r = 0; r < N; r++) {
        rows.push(game.lights.slice(r * N, (r + 1) * N).join(''));
        for (var c = 0; c < N; c++) on += game.lights[r * N + c];
      }
      return {
        size: N,
        lights: rows,          // one string a row, '1' on, '0' off
        lightsOn: on,
        puzzle: game.puzzle,
        moves: game.moves,
        totalMoves: game.totalMoves,
        score: game.solved,
        gameOver: false,
        grid: { x0: rect.left + (BX + GAP / 2) * sx, y0: rect.top + (BY + GAP / 2) * sy, cols: N, rows: N,
                cell_w: PITCH * sx, cell_h: PITCH * sy },
        seed: SEED
      };
    }
  });
})();
