/* Breakout for hybridgym: deterministic for a seed, inputs and game time.
 *
 * Rules: bounce the ball off the paddle to break the bricks (8 rows of 12). A
 * coloured brick breaks at the first hit and scores by its row: 1 for the two
 * bottom rows, then 2, 3 and 4 for the two top rows; a silver brick takes two
 * hits and scores 5. The ball leaves the paddle at an angle set by where it
 * hits (up to 60 degrees from vertical at the ends). Losing the ball below the paddle
 * costs one of 3 lives; at 0 lives the game is over. Clearing every brick
 * starts the next level: a new seeded wall with more silver bricks and a
 * faster ball. The ball waits on the paddle until launched (space / up / a
 * click or tap) and launches by itself after 3 s; the launch angle is seeded.
 *
 * Time: frames are due at t0 + k * FRAME_MS (20 ms) and are run by a
 * setTimeout scheduled for the exact due time (all due frames run if a timer
 * fires late). Each frame advances the physics in SUBSTEPS fixed sub-steps of
 * SUB_MS (2.5 ms) of game time, then draws. Under Playwright's clock API
 * performance.now() and setTimeout are fake and advance together, so a run
 * depends only on the seed, the inputs and the game times at which they
 * arrive. Input acts at once and is drawn at once; requestAnimationFrame is
 * not used.
 *
 * Input: the paddle follows the mouse / touch pointer (x only). Left/right
 * arrows (or A/D) move it: each key press moves it NUDGE px at once and, while
 * the key is held, it keeps moving at PADDLE_SPEED px/s of game time.
 */
(function () {
  'use strict';

  var W = 800, H = 600, HEADER = 50;
  var FX0 = 10, FX1 = 790, FY0 = 60;                 // field walls (inner edges)
  var BCOLS = 12, BROWS = 8, BW = 65, BH = 22, BX0 = 10, BY0 = 100;
  var PW = 110, PH = 14, PY = 550;                   // paddle size and top edge
  var R = 7;                                         // ball radius
  var FRAME_MS = 20, SUB_MS = 2.5, SUBSTEPS = 8;
  var NUDGE = 40, PADDLE_SPEED = 600, AUTO_LAUNCH_MS = 3000, LIVES = 3;
  var MAX_ANGLE = Math.PI / 3;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#10142b'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;
  var ROW_COLORS = ['#e8484d', '#ef6f3a', '#f29a2e', '#f2c53a', '#8fd14f', '#3fc47a', '#35b8e6', '#3a6ee8'];
  var ROW_POINTS = [4, 4, 3, 3, 2, 2, 1, 1], SILVER_POINTS = 5;

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  var game = {
    bricks: [],        // BROWS rows of BCOLS hit counts (0 = gone)
    paddleX: W / 2,    // paddle centre
    ball: { x: W / 2, y: PY - R, vx: 0, vy: 0, stuck: true },
    stuckFrames: 0,
    score: 0,
    lives: LIVES,
    level: 1,
    over: false,
    frame: 0,
    lost: 0
  };
  var held = { left: false, right: false };

  function speed() { return Math.min(700, 450 + 50 * (game.level - 1)); }

  function buildLevel() {
    var b = [], r, c;
    for (r = 0; r < BROWS; r++) b.push(new Array(BCOLS).fill(1));
    if (game.level === 1) {
      var cells = [];
      for (r = 0; r < BROWS; r++) for (c = 0; c < BCOLS; c++) cells.push([r, c]);
      for (var k = 0; k < 8; k++) {
        var i = Math.floor(rng() * cells.length);
        b[cells[i][0]][cells[i][1]] = 2;
        cells.splice(i, 1);
      }
    } else {
      var silver = Math.min(0.4, 0.1 + 0.05 * game.level);
      for (r = 0; r < BROWS; r++) {
        for (c = 0; c < BCOLS; c++) {
          var u = rng();
          b[r][c] = u < 0.2 ? 0 : u < 0.2 + silver ? 2 : 1;
        }
      }
    }
    game.bricks = b;
    game.silver = b.map(function (row) { return row.map(function (v) { return v === 2; }); });
    game.newLevel = true;
  }

  function bricksLeft() {
    var n = 0;
    for (var r = 0; r < BROWS; r++) for (var c = 0; c < BCOLS; c++) if (game.bricks[r][c]) n++;
    return n;
  }

  function clampPaddle(x) { return Math.min(FX1 - PW / 2, Math.max(FX0 + PW / 2, x)); }

  function stick() {
    var ball = game.ball;
    ball.stuck = true;
    ball.vx = 0;
    ball.vy = 0;
    ball.x = game.paddleX;
    ball.y = PY - R;
    game.stuckFrames = 0;
  }

  function launch() {
    var ball = game.ball;
    if (!ball.stuck || game.over) return;
    var a = (0.2 + 0.3 * rng()) * (rng() < 0.5 ? -1 : 1);
    ball.stuck = false;
    game.newLevel = false;
    ball.vx = speed() * Math.sin(a);
    ball.vy = -speed() * Math.cos(a);
  }

  // The first brick (row by row) that the ball's box overlaps, or null.
  function brickHit() {
    var ball = game.ball;
    var c0 = Math.max(0, Math.floor((ball.x - R - BX0) / BW)), c1 = Math.min(BCOLS - 1, Math.floor((ball.x + R - BX0) / BW));
    var r0 = Math.max(0, Math.floor((ball.y - R - BY0) / BH)), r1 = Math.min(BROWS - 1, Math.floor((ball.y + R - BY0) / BH));
    for (var r = r0; r <= r1; r++) {
      for (var c = c0; c <= c1; c++) {
        if (!game.bricks[r][c]) continue;
        var bx = BX0 + c * BW, by = BY0 + r * BH;
        if (ball.x + R > bx && ball.x - R < bx + BW && ball.y + R > by && ball.y - R < by + BH) return [r, c];
      }
    }
    return null;
  }

  function hit(rc) {
    var r = rc[0], c = rc[1];
    game.bricks[r][c]--;
    if (!game.bricks[r][c]) game.score += game.silver[r][c] ? SILVER_POINTS : ROW_POINTS[r];
  }

  function substep() {
    var dt = SUB_MS / 1000, ball = game.ball;
    var dir = (held.right ? 1 : 0) - (held.left ? 1 : 0);
    if (dir) game.paddleX = clampPaddle(game.paddleX + dir * PADDLE_SPEED * dt);
    if (ball.stuck) {
      ball.x = game.paddleX;
      ball.y = PY - R;
      return;
    }
    ball.x += ball.vx * dt;
    if (ball.x < FX0 + R) { ball.x = FX0 + R; ball.vx = Math.abs(ball.vx); }
    else if (ball.x > FX1 - R) { ball.x = FX1 - R; ball.vx = -Math.abs(ball.vx); }
    var b = brickHit();
    if (b) { ball.x -= ball.vx * dt; ball.vx = -ball.vx; hit(b); }
    ball.y += ball.vy * dt;
    if (ball.y < FY0 + R) { ball.y = FY0 + R; ball.vy = Math.abs(ball.vy); }
    b = brickHit();
    if (b) { ball.y -= ball.vy * dt; ball.vy = -ball.vy; hit(b); }
    if (ball.vy > 0 && ball.y + R >= PY && ball.y + R - ball.vy * dt <= PY &&
        Math.abs(ball.x - game.paddleX) <= PW / 2 + R) {
      var off = Math.max(-1, Math.min(1, (ball.x - game.paddleX) / (PW / 2)));
      var a = off * MAX_ANGLE, s = speed();
      ball.vx = s * Math.sin(a);
      ball.vy = -s * Math.cos(a);
      ball.y = PY - R;
    }
    if (ball.y - R > H) {
      game.lives--;
      game.lost++;
      if (game.lives <= 0) { game.over = true; ball.stuck = false; ball.vx = 0; ball.vy = 0; }
      else stick();
      return;
    }
    if (!bricksLeft()) {
      game.level++;
      buildLevel();
      stick();
    }
  }

  function frame() {
    game.frame++;
    for (var i = 0; i < SUBSTEPS && !game.over; i++) substep();
    if (!game.over && game.ball.stuck) {
      game.stuckFrames++;
      if (game.stuckFrames * FRAME_MS >= AUTO_LAUNCH_MS) launch();
    }
  }

  // ---- time -------------------------------------------------------------
  var clock = K.ticker(FRAME_MS, frame, render, function () { return !game.over; });
  var schedule = clock.schedule;

  // ---- input ------------------------------------------------------------
  var KEYS = {
    ArrowLeft: 'left', ArrowRight: 'right', a: 'left', d: 'right', A: 'left', D: 'right',
    ' ': 'launch', ArrowUp: 'launch', w: 'launch', W: 'launch', Enter: 'launch'
  };
  var CODES = { KeyA: 'left', KeyD: 'right', Space: 'launch', KeyW: 'launch' };

  function movePaddle(x) {
    if (game.over) return;
    game.paddleX = clampPaddle(x);
    if (game.ball.stuck) game.ball.x = game.paddleX;
  }

  window.addEventListener('keydown', function (e) {
    var what = KEYS[e.key] || CODES[e.code];
    if (!what) return;
    e.preventDefault();
    if (game.over) return;
    if (what === 'launch') { if (!e.repeat) launch(); }
    else {
      held[what] = true;
      if (!e.repeat) movePaddle(game.paddleX + (what === 'left' ? -NUDGE : NUDGE));
    }
    render();
  }, true);
  window.addEventListener('keyup', function (e) {
    var what = KEYS[e.key] || CODES[e.code];
    if (what === 'left' || what === 'right') held[what] = false;
  }, true);
  window.addEventListener('blur', function () { held.left = held.right = false; });

  function pointerX(e) { return view.toLogical(e).x; }
  window.addEventListener('pointermove', function (e) {
    if (game.over) return;
    movePaddle(pointerX(e));
    render();
  });
  view.onPress(function (p) {
    if (game.over) return;
    movePaddle(p.x);
    launch();
    render();
  });

  // ---- drawing ----------------------------------------------------------

  function drawHeader() {
    view.shade('#1d2450', 0, 0, W, HEADER);
    view.text('BREAKOUT', 20, HEADER / 2 + 1, 'bold 26px', '#ffffff', 'left', 'middle');
    view.text('SCORE ' + game.score, 400, HEADER / 2 + 1, 'bold 22px', '#ffffff', 'center');
    view.text('LEVEL ' + game.level, 560, HEADER / 2 + 1, 'bold 18px', '#c9cff0', 'left');
    for (var i = 0; i < LIVES; i++) {
      ctx.fillStyle = i < game.lives ? '#ffffff' : 'rgba(255,255,255,0.18)';
      ctx.beginPath();
      ctx.arc(700 + i * 28, HEADER / 2, 8, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  function drawField() {
    ctx.fillStyle = '#10142b';
    ctx.fillRect(0, HEADER, W, H - HEADER);
    ctx.fillStyle = '#5a6396';
    ctx.fillRect(0, HEADER, FX0, H - HEADER);
    ctx.fillRect(FX1, HEADER, W - FX1, H - HEADER);
    ctx.fillRect(0, HEADER, W, FY0 - HEADER);
    for (var r = 0; r < BROWS; r++) {
      for (var c = 0; c < BCOLS; c++) {
        var v = game.bricks[r][c];
        if (!v) continue;
        var x = BX0 + c * BW, y = BY0 + r * BH;
        var silver = game.silver[r][c];
        ctx.fillStyle = silver ? (v === 2 ? '#c8ccd8' : '#9aa0b4') : ROW_COLORS[r];
        ctx.fillRect(x + 2, y + 2, BW - 4, BH - 4);
        ctx.fillStyle = 'rgba(255,255,255,0.30)';
        ctx.fillRect(x + 2, y + 2, BW - 4, 4);
        ctx.fillStyle = 'rgba(0,0,0,0.22)';
        ctx.fillRect(x + 2, y + BH - 6, BW - 4, 4);
        if (silver && v === 1) {          // a cracked silver brick
          ctx.strokeStyle = '#3c4152';
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.moveTo(x + 20, y + 3); ctx.lineTo(x + 30, y + 12); ctx.lineTo(x + 26, y + 16); ctx.lineTo(x + 38, y + BH - 3);
          ctx.stroke();
        }
      }
    }
    // paddle
    ctx.fillStyle = '#e9ecff';
    roundRect(game.paddleX - PW / 2, PY, PW, PH, 7);
    ctx.fillStyle = '#7f8cff';
    roundRect(game.paddleX - PW / 2 + 6, PY + PH - 5, PW - 12, 3, 1.5);
    // ball
    if (!game.over) {
      ctx.fillStyle = '#ffffff';
      ctx.beginPath();
      ctx.arc(game.ball.x, game.ball.y, R, 0, Math.PI * 2);
      ctx.fill();
    }
    if (game.ball.stuck && !game.over) {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.font = 'bold 20px ' + FONT;
      ctx.fillText(game.level > 1 && game.newLevel ? 'Level ' + game.level + '!  Press space or click' : 'Press space or click to launch', W / 2, 380);
      ctx.font = '15px ' + FONT;
      ctx.fillStyle = 'rgba(255,255,255,0.6)';
      ctx.fillText('Move with \u2190 \u2192 or the mouse', W / 2, 410);
    }
  }

  function drawGameOver() {
    view.card({ shade: ['rgba(5, 8, 25, 0.62)'], title: ['Game over', '#1d2450'], score: ['Score: ' + game.score],
                note: ['No balls left (level ' + game.level + ')'] });
  }

  function draw() {
    drawHeader();
    drawField();
    if (game.over) drawGameOver();
  }

  buildLevel();
  view.start();
  schedule();

  // ---- API for the env --------------------------------------------------
  window.hybridgym = K.api('breakout', SEED, game, {
    state: function () {
      var ball = game.ball;
      return {
        field: { x0: FX0, y0: FY0, x1: FX1, y1: H },
        paddle: { x: game.paddleX, y: PY, w: PW, h: PH },
        ball: { x: ball.x, y: ball.y, vx: ball.vx, vy: ball.vy, r: R, stuck: ball.stuck },
        speed: speed(),
        bricks: game.bricks.map(function (row) { return row.slice(); }),
        silver: game.silver.map(function (row) { return row.slice(); }),
        rowPoints: ROW_POINTS.slice(),
        silverPoints: SILVER_POINTS,
        brick: { x0: BX0, y0: BY0, w: BW, h: BH, cols: BCOLS, rows: BROWS },
        bricksLeft: bricksLeft(),
        score: game.score,
        lives: game.lives,
        ballsLost: game.lost,
        level: game.level,
        gameOver: game.over,
        frame: game.frame,
        frameMs: FRAME_MS,
        subMs: SUB_MS,
        substeps: SUBSTEPS,
        maxAngle: MAX_ANGLE,
        autoLaunchInMs: ball.stuck && !game.over ? AUTO_LAUNCH_MS - game.stuckFrames * FRAME_MS : null
      };
    }
  });
})();
