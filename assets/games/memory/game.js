/* Memory (pairs) for hybridgym: deterministic for a seed, inputs and game time.
 *
 * 16 cards, face down in a 4x4 grid, hold 8 pairs of symbols; the layout is
 * shuffled by a seeded PRNG (mulberry32 of ?seed=). Click a card to turn it
 * over, then a second one: a pair stays face up (+1 score); two different cards
 * turn back MISS_MS (1000 ms) of game time later, or at once when the next card
 * is clicked. The game is over when all 8 pairs are found.
 *
 * state() is what a person could know: the faces of cards that are up, and of
 * cards that were seen before (memory), never the face of a card that has not
 * been turned over yet.
 *
 * Time: a click takes effect at once. The flip is animated (FLIP_MS, 120 ms)
 * by setTimeout frames with progress from performance.now(); the miss is
 * turned back by a setTimeout on the game clock. No requestAnimationFrame, CSS
 * animation or Math.random, so under Playwright's clock the pixels at a game
 * time depend only on the seed, the inputs and their times.
 */
(function () {
  'use strict';

  var COLS = 4, ROWS = 4, PAIRS = COLS * ROWS / 2;
  var W = 800;
  var CARD = 110, GAP = 14, PITCH = CARD + GAP;
  var BW = COLS * PITCH - GAP, BX = (W - BW) / 2, BY = 90;   // cards: 159..641, 90..572
  var MISS_MS = 1000, FLIP_MS = 120, FRAME_MS = 16;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#1f3b4d'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;
  var SYMBOLS = ['circle', 'square', 'triangle', 'star', 'heart', 'diamond', 'moon', 'cross'];
  var COLOURS = ['#e5483b', '#2f86e8', '#2fb55a', '#f2b400', '#e0409a', '#8a4fe0', '#1fb3b3', '#f07a1a'];

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  // faces[i]: the symbol of card i (row-major); shuffled by Fisher-Yates
  var faces = [];
  for (var p = 0; p < PAIRS; p++) faces.push(p, p);
  for (var i = faces.length - 1; i > 0; i--) {
    var j = Math.floor(rng() * (i + 1)), t = faces[i];
    faces[i] = faces[j];
    faces[j] = t;
  }

  var game = {
    status: faces.map(function () { return 'down'; }),   // 'down' | 'up' | 'matched'
    seen: faces.map(function () { return false; }),
    open: [],          // indices of the unmatched face-up cards (0, 1 or 2)
    pairs: 0, turns: 0, misses: 0, flips: 0, over: false
  };
  var missTimer = null;
  var flips = {};      // card index -> start time of its flip animation

  function turnBack() {
    if (missTimer !== null) clearTimeout(missTimer);
    missTimer = null;
    var now = performance.now();
    for (var k = 0; k < game.open.length; k++) {
      game.status[game.open[k]] = 'down';
      flips[game.open[k]] = now;
    }
    game.open = [];
  }

  function clickCard(i) {
    if (game.over || i < 0 || i >= faces.length) return;
    if (game.open.length === 2) turnBack();           // a miss on show: turn it back now
    if (game.status[i] !== 'down') { frames.restart(); return; }
    game.status[i] = 'up';
    game.seen[i] = true;
    game.flips++;
    flips[i] = performance.now();
    game.open.push(i);
    if (game.open.length === 2) {
      var a = game.open[0], b = game.open[1];
      game.turns++;
      if (faces[a] === faces[b]) {
        game.status[a] = game.status[b] = 'matched';
        game.open = [];
        game.pairs++;
        if (game.pairs === PAIRS) game.over = true;
      } else {
        game.misses++;
        missTimer = setTimeout(function () { missTimer = null; turnBack(); frames.restart(); }, MISS_MS);
      }
    }
    frames.restart();
  }

  var frames = K.frames(FRAME_MS, function (now) {
    var left = 0;
    for (var k in flips) {
      var rest = flips[k] + FLIP_MS - now;
      if (rest <= 0) delete flips[k];
      else left = Math.max(left, rest);
    }
    return left;
  }, render);

  // ---- input ------------------------------------------------------------
  view.onPress(function (p) {
    var x = p.x - BX, y = p.y - BY;
    var c = Math.floor(x / PITCH), r = Math.floor(y / PITCH);
    if (c < 0 || r < 0 || c >= COLS || r >= ROWS) return;
    if (x - c * PITCH > CARD || y - r * PITCH > CARD) return;   // in a gap
    clickCard(r * COLS + c);
  });

  // ---- drawing ----------------------------------------------------------

  function symbolPath(s, cx, cy, r) {
    var k, a;
    ctx.beginPath();
    switch (SYMBOLS[s]) {
      case 'circle': ctx.arc(cx, cy, r * 0.85, 0, Math.PI * 2); break;
      case 'square': ctx.roundRect(cx - r * 0.75, cy - r * 0.75, r * 1.5, r * 1.5, r * 0.12); break;
      case 'triangle':
        for (k = 0; k < 3; k++) { a = -Math.PI / 2 + k * Math.PI * 2 / 3; ctx.lineTo(cx + r * Math.cos(a), cy + r * 0.15 + r * Math.sin(a)); }
        break;
      case 'star':
        for (k = 0; k < 10; k++) {
          a = -Math.PI / 2 + k * Math.PI / 5;
          var rr = k % 2 ? r * 0.42 : r;
          ctx.lineTo(cx + rr * Math.cos(a), cy + r * 0.05 + rr * Math.sin(a));
        }
        break;
      case 'heart':
        ctx.moveTo(cx, cy + r * 0.85);
        ctx.bezierCurveTo(cx - r * 1.25, cy, cx - r * 0.75, cy - r * 1.05, cx, cy - r * 0.42);
        ctx.bezierCurveTo(cx + r * 0.75, cy - r * 1.05, cx + r * 1.25, cy, cx, cy + r * 0.85);
        break;
      case 'diamond':
        ctx.moveTo(cx, cy - r); ctx.lineTo(cx + r * 0.68, cy); ctx.lineTo(cx, cy + r); ctx.lineTo(cx - r * 0.68, cy);
        break;
      case 'moon':
        ctx.arc(cx, cy, r * 0.85, Math.PI * 0.3, Math.PI * 1.7);
        ctx.arc(cx + r * 0.42, cy - r * 0.08, r * 0.66, Math.PI * 1.5, Math.PI * 0.5, true);
        break;
      default: // cross
        var u = r * 0.3;
        ctx.moveTo(cx - u, cy - r); ctx.lineTo(cx + u, cy - r); ctx.lineTo(cx + u, cy - u); ctx.lineTo(cx + r, cy - u);
        ctx.lineTo(cx + r, cy + u); ctx.lineTo(cx + u, cy + u); ctx.lineTo(cx + u, cy + r); ctx.lineTo(cx - u, cy + r);
        ctx.lineTo(cx - u, cy + u); ctx.lineTo(cx - r, cy + u); ctx.lineTo(cx - r, cy - u); ctx.lineTo(cx - u, cy - u);
    }
    ctx.closePath();
  }

  function drawCard(i, now) {
    var r = Math.floor(i / COLS), c = i % COLS;
    var x = BX + c * PITCH, y = BY + r * PITCH;
    var up = game.status[i] !== 'down';
    // flip: the card narrows to nothing showing its old side, then widens showing the new one
    var sx = 1, start = flips[i];
    if (start !== undefined && now - start < FLIP_MS) {
      var q = (now - start) / FLIP_MS;
      if (q < 0.5) { up = !up; sx = 1 - 2 * q; } else { sx = 2 * q - 1; }
      sx = Math.max(0.04, sx);
    }
    ctx.save();
    ctx.translate(x + CARD / 2, y + CARD / 2);
    ctx.scale(sx, 1);
    ctx.fillStyle = 'rgba(0,0,0,0.25)';
    roundRect(-CARD / 2, -CARD / 2 + 4, CARD, CARD, 12);
    if (up) {
      var matched = game.status[i] === 'matched';
      ctx.fillStyle = matched ? '#e3f4e6' : '#ffffff';
      roundRect(-CARD / 2, -CARD / 2, CARD, CARD, 12);
      if (matched) {
        ctx.strokeStyle = '#4caf62';
        ctx.lineWidth = 4;
        ctx.beginPath(); ctx.roundRect(-CARD / 2 + 2, -CARD / 2 + 2, CARD - 4, CARD - 4, 11); ctx.stroke();
      }
      var s = faces[i];
      symbolPath(s, 0, 0, 36);
      ctx.fillStyle = COLOURS[s];
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = 'rgba(0,0,0,0.25)';
      ctx.lineJoin = 'round';
      ctx.stroke();
    } else {
      ctx.fillStyle = '#3f7fb0';
      roundRect(-CARD / 2, -CARD / 2, CARD, CARD, 12);
      ctx.fillStyle = '#5595c6';
      roundRect(-CARD / 2 + 8, -CARD / 2 + 8, CARD - 16, CARD - 16, 8);
      ctx.fillStyle = '#3f7fb0';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.font = 'bold 44px ' + FONT;
      ctx.fillText('?', 0, 2);
    }
    ctx.restore();
  }

  var drawBox = K.boxDrawer(view, { bg: '#2d5673', fg: '#a9cbe3', y: 14, h: 58, labelY: 29, valueY: 53 });

  function drawHeader() {
    view.text('MEMORY', BX, 36, 'bold 34px', '#ffffff', 'left', 'middle');
    view.text('Turn two cards: find the pairs', BX, 64, '14px', 'rgba(255,255,255,0.75)');
    drawBox('TURNS', game.turns, BX + BW - 230, 100);
    drawBox('PAIRS', game.pairs + ' / ' + PAIRS, BX + BW - 120, 120);
  }

  function drawGameOver() {
    view.card({ shade: ['rgba(15, 35, 50, 0.6)'], y: BY + (ROWS * PITCH - 200) / 2,
                title: ['All pairs found!', '#1f3b4d', 40, 60], score: ['Score: ' + game.pairs, 26, 114],
                note: ['in ' + game.turns + ' turns', 158] });
  }

  function draw(now) {
    view.clear();
    drawHeader();
    for (var k = 0; k < faces.length; k++) drawCard(k, now);
    if (game.over && !frames.running()) drawGameOver();
  }

  view.start();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('memory', SEED, game, {
    score: function () { return game.pairs; },
    state: function () {
      return {
        rows: ROWS, cols: COLS,
        grid: { x0: BX - GAP / 2, y0: BY - GAP / 2, cols: COLS, rows: ROWS, cell_w: PITCH, cell_h: PITCH },
        symbols: SYMBOLS.slice(),
        // one entry per card, row-major; face: symbol index if up or seen before, else null
        cards: faces.map(function (f, k) {
          return {
            index: k, row: Math.floor(k / COLS), col: k % COLS,
            status: game.status[k], seen: game.seen[k],
            face: game.status[k] !== 'down' || game.seen[k] ? f : null,
            x: BX + (k % COLS) * PITCH + CARD / 2, y: BY + Math.floor(k / COLS) * PITCH + CARD / 2
          };
        }),
        open: game.open.slice(),
        missPending: game.open.length === 2,
        score: game.pairs,
        pairs: game.pairs,
        totalPairs: PAIRS,
        turns: game.turns,
        misses: game.misses,
        flips: game.flips,
        gameOver: game.over,
        animating: frames.running()
      };
    }
  });
})();
