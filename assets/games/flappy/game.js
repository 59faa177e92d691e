/* Flappy (a flappy-bird-style game) for hybridgym: deterministic for a seed,
 * inputs and game time.
 *
 * Rules: the bird waits in the air until the first flap. Each flap (space, up,
 * W, a click or a tap) sets its vertical speed to FLAP_V; gravity pulls it
 * down. Pipes scroll in from the right at a fixed speed, one every SPACING px,
 * each with a gap of GAP px at a seeded height. Every pipe the bird passes
 * scores 1. Touching a pipe or the ground ends the game (the sky just stops
 * the bird).
 *
 * Time: from the first flap on (before it nothing moves and no timer runs),
 * frames are due at t0 + k * FRAME_MS (20 ms) and are run by a
 * setTimeout scheduled for the exact due time (all due frames run if a timer
 * fires late); each frame advances the physics in fixed sub-steps of SUB_MS
 * (10 ms) of game time, then draws. Under Playwright's clock API
 * performance.now() and setTimeout are fake and advance together, so a run
 * depends only on the seed, the inputs and the game times at which they
 * arrive. A flap acts at once and is drawn at once; requestAnimationFrame is
 * not used.
 */
(function () {
  'use strict';

  var W = 800, H = 600, GROUND_Y = 540;
  var BIRD_X = 220, R = 14;
  var G = 1800, FLAP_V = -500, MAX_FALL = 650;        // px/s^2, px/s, px/s
  var PIPE_W = 80, GAP = 170, SPEED = 200, SPACING = 280, GAP_MIN = 90;
  var GAP_MAX = GROUND_Y - 90 - GAP;                   // gap top in [90, 280]
  var SPAWN_X = W + 40;
  var FRAME_MS = 20, SUB_MS = 10, SUBSTEPS = 2;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#70c5ce'), ctx = view.ctx, render = view.render;

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  var game = {
    bird: { y: 260, vy: 0 },
    pipes: [],          // {x, gapTop, passed}
    started: false,
    score: 0,
    over: false,
    cause: null,        // 'pipe' | 'ground'
    frame: 0,
    dist: 0,
    flaps: 0
  };
  // the first pipe's gap is known from the start, so seeds differ at once
  var pendingGap = newGap();

  function newGap() { return Math.round(GAP_MIN + rng() * (GAP_MAX - GAP_MIN)); }

  function spawnPipe(x) {
    game.pipes.push({ x: x, gapTop: pendingGap, passed: false });
    pendingGap = newGap();
  }

  function hitsRect(cx, cy, x0, y0, x1, y1) {
    var nx = Math.max(x0, Math.min(cx, x1)), ny = Math.max(y0, Math.min(cy, y1));
    var dx = cx - nx, dy = cy - ny;
    return dx * dx + dy * dy < R * R;
  }

  function substep() {
    var dt = SUB_MS / 1000, bird = game.bird;
    bird.vy = Math.min(MAX_FALL, bird.vy + G * dt);
    bird.y += bird.vy * dt;
    if (bird.y < R) { bird.y = R; bird.vy = 0; }
    game.dist += SPEED * dt;
    for (var i = 0; i < game.pipes.length; i++) game.pipes[i].x -= SPEED * dt;
    if (game.pipes.length && game.pipes[0].x + PIPE_W < -10) game.pipes.shift();
    var last = game.pipes[game.pipes.length - 1];
    if (!last || last.x <= SPAWN_X - SPACING) spawnPipe(last ? last.x + SPACING : SPAWN_X);
    for (i = 0; i < game.pipes.length; i++) {
      var p = game.pipes[i];
      if (!p.passed && p.x + PIPE_W < BIRD_X) { p.passed = true; game.score++; }
      if (hitsRect(BIRD_X, bird.y, p.x, -1000, p.x + PIPE_W, p.gapTop) ||
          hitsRect(BIRD_X, bird.y, p.x, p.gapTop + GAP, p.x + PIPE_W, GROUND_Y)) {
        end('pipe');
        return;
      }
    }
    if (bird.y + R >= GROUND_Y) { bird.y = GROUND_Y - R; end('ground'); }
  }

  function end(cause) { game.over = true; game.cause = cause; }

  function frame() {
    game.frame++;
    for (var i = 0; i < SUBSTEPS && !game.over; i++) substep();
  }

  function flap() {
    if (game.over) return;
    if (!game.started) {
      // frames run from the first flap on, still on the grid t0 + k * FRAME_MS
      game.started = true;
      clock.next = clock.t0 + FRAME_MS * (Math.floor((performance.now() - clock.t0) / FRAME_MS) + 1);
      schedule();
    }
    game.flaps++;
    game.bird.vy = FLAP_V;
    render();
  }

  // ---- time -------------------------------------------------------------
  // game.started never turns false again, so it may stand in the loop's condition too
  var clock = K.ticker(FRAME_MS, frame, render, function () { return !game.over && game.started; });
  var schedule = clock.schedule;

  // ---- input ------------------------------------------------------------
  var KEYS = { ' ': true, ArrowUp: true, w: true, W: true };
  var CODES = { Space: true, KeyW: true, ArrowUp: true };
  window.addEventListener('keydown', function (e) {
    if (!KEYS[e.key] && !CODES[e.code]) return;
    e.preventDefault();
    if (!e.repeat) flap();
  }, true);
  view.onPress(flap);

  // ---- drawing ----------------------------------------------------------

  var CLOUDS = [[90, 110, 1], [330, 70, 0.8], [560, 130, 1.1], [760, 60, 0.7]];

  function drawSky() {
    var g = ctx.createLinearGradient(0, 0, 0, GROUND_Y);
    g.addColorStop(0, '#4ec0e9');
    g.addColorStop(1, '#b8ecf5');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, GROUND_Y);
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    var shift = (game.dist * 0.2) % (W + 200);
    for (var i = 0; i < CLOUDS.length; i++) {
      var c = CLOUDS[i], s = c[2];
      var x = ((c[0] - shift) % (W + 200) + W + 200) % (W + 200) - 100;
      ctx.beginPath();
      ctx.arc(x, c[1], 26 * s, 0, Math.PI * 2);
      ctx.arc(x + 30 * s, c[1] - 12 * s, 32 * s, 0, Math.PI * 2);
      ctx.arc(x + 62 * s, c[1], 24 * s, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillRect(x, c[1], 62 * s, 24 * s);
    }
    // distant hills
    ctx.fillStyle = '#8fd3a0';
    var hs = (game.dist * 0.4) % 240;
    ctx.beginPath();
    ctx.moveTo(0, GROUND_Y);
    for (var hx = -hs; hx < W + 240; hx += 240) {
      ctx.quadraticCurveTo(hx + 60, GROUND_Y - 90, hx + 120, GROUND_Y - 20);
      ctx.quadraticCurveTo(hx + 180, GROUND_Y - 60, hx + 240, GROUND_Y);
    }
    ctx.lineTo(W, GROUND_Y);
    ctx.closePath();
    ctx.fill();
  }

  function drawPipe(x, y0, y1, capAtBottom) {
    if (y1 <= y0) return;
    ctx.fillStyle = '#5bbf3a';
    ctx.fillRect(x + 4, y0, PIPE_W - 8, y1 - y0);
    ctx.fillStyle = '#7fdc55';
    ctx.fillRect(x + 10, y0, 10, y1 - y0);
    ctx.fillStyle = '#3f8f27';
    ctx.fillRect(x + PIPE_W - 18, y0, 10, y1 - y0);
    var cy = capAtBottom ? y1 - 26 : y0;
    ctx.fillStyle = '#5bbf3a';
    ctx.fillRect(x, cy, PIPE_W, 26);
    ctx.fillStyle = '#7fdc55';
    ctx.fillRect(x + 6, cy + 3, 12, 20);
    ctx.strokeStyle = '#2d6b1c';
    ctx.lineWidth = 3;
    ctx.strokeRect(x + 1.5, cy + 1.5, PIPE_W - 3, 23);
    ctx.beginPath();
    ctx.moveTo(x + 5.5, y0); ctx.lineTo(x + 5.5, y1);
    ctx.moveTo(x + PIPE_W - 5.5, y0); ctx.lineTo(x + PIPE_W - 5.5, y1);
    ctx.stroke();
  }

  function drawGround() {
    ctx.fillStyle = '#ded895';
    ctx.fillRect(0, GROUND_Y, W, H - GROUND_Y);
    ctx.fillStyle = '#73bf2e';
    ctx.fillRect(0, GROUND_Y, W, 16);
    ctx.fillStyle = '#5da025';
    var off = game.dist % 32;
    for (var x = -off; x < W; x += 32) {
      ctx.beginPath();
      ctx.moveTo(x, GROUND_Y + 16);
      ctx.lineTo(x + 16, GROUND_Y);
      ctx.lineTo(x + 32, GROUND_Y);
      ctx.lineTo(x + 16, GROUND_Y + 16);
      ctx.closePath();
      ctx.fill();
    }
    ctx.fillStyle = '#543847';
    ctx.fillRect(0, GROUND_Y, W, 3);
    ctx.fillStyle = '#c9b97a';
    ctx.fillRect(0, GROUND_Y + 16, W, 4);
  }

  function drawBird() {
    var b = game.bird;
    var tilt = game.started ? Math.max(-0.45, Math.min(1.2, b.vy / 600)) : 0;
    ctx.save();
    ctx.translate(BIRD_X, b.y);
    ctx.rotate(tilt);
    ctx.fillStyle = '#f7d13a';
    ctx.strokeStyle = '#543847';
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.ellipse(0, 0, R + 4, R, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    // wing: up right after a flap, down otherwise
    var up = b.vy < -150;
    ctx.fillStyle = '#fff3c4';
    ctx.beginPath();
    ctx.ellipse(-7, up ? -4 : 4, 9, 6, up ? -0.5 : 0.4, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    // eye
    ctx.fillStyle = '#ffffff';
    ctx.beginPath();
    ctx.arc(8, -6, 6, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#222222';
    ctx.beginPath();
    ctx.arc(10, -6, 2.6, 0, Math.PI * 2);
    ctx.fill();
    // beak
    ctx.fillStyle = '#f26b3a';
    ctx.beginPath();
    ctx.moveTo(13, 0);
    ctx.lineTo(26, 3);
    ctx.lineTo(13, 8);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.restore();
  }

  function outlined(text, x, y, size) {
    ctx.font = 'bold ' + size + 'px ' + FONT;
    ctx.lineWidth = Math.max(4, size / 7);
    ctx.strokeStyle = '#543847';
    ctx.lineJoin = 'round';
    ctx.strokeText(text, x, y);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(text, x, y);
  }

  function drawHud() {
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    outlined(String(game.score), W / 2, 60, 56);
    if (!game.started && !game.over) {
      outlined('Get ready!', W / 2, 200, 40);
      outlined('Space, \u2191 or click to flap', W / 2, 340, 24);
      outlined('Fly through the gaps between the pipes', W / 2, 380, 18);
    }
  }

  function drawGameOver() {
    view.card({ shade: ['rgba(20, 30, 40, 0.45)'], bg: '#fdf6d8', border: '#543847',
                title: ['Game over', '#e06b2e'], score: ['Score: ' + game.score],
                note: [game.cause === 'ground' ? 'The bird hit the ground' : 'The bird hit a pipe'] });
  }

  function draw() {
    drawSky();
    for (var i = 0; i < game.pipes.length; i++) {
      var p = game.pipes[i];
      drawPipe(p.x, -10, p.gapTop, true);
      drawPipe(p.x, p.gapTop + GAP, GROUND_Y, false);
    }
    drawGround();
    drawBird();
    drawHud();
    if (game.over) drawGameOver();
  }

  view.start();
  schedule();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('flappy', SEED, game, {
    state: function () {
      return {
        bird: { x: BIRD_X, y: game.bird.y, vy: game.bird.vy, r: R },
        pipes: game.pipes.map(function (p) {
          return { x: p.x, w: PIPE_W, gapTop: p.gapTop, gapBottom: p.gapTop + GAP, passed: p.passed };
        }),
        nextGapTop: pendingGap,
        groundY: GROUND_Y,
        started: game.started,
        score: game.score,
        gameOver: game.over,
        cause: game.cause,
        frame: game.frame,
        flaps: game.flaps,
        gravity: G,
        flapV: FLAP_V,
        maxFall: MAX_FALL,
        speed: SPEED,
        spacing: SPACING,
        gap: GAP,
        spawnX: SPAWN_X,
        frameMs: FRAME_MS,
        subMs: SUB_MS
      };
    }
  });
})();
