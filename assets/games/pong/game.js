/* Pong for hybridgym (two players): deterministic for a seed, inputs and game time.
 *
 * Left paddle: W / S. Right paddle: Up / Down arrows. A key press moves its
 * paddle at PADDLE_SPEED for MOVE_MS of game time (48 px), and on for as long
 * as the key is held, so one press per env step is a meaningful action; the
 * last key pressed sets the direction. A person can also drag on either half
 * of the screen (mouse or touch): that paddle follows the pointer.
 * ?ai=right (or left, or both) gives that side to a simple built-in computer
 * player: once the ball has crossed the middle towards it, it follows the ball's
 * height at AI_SPEED (slower than the ball can go); else it goes back to the middle.
 *
 * The ball bounces off the top and bottom walls and the paddles; where it hits
 * a paddle sets its angle (the edges send it off steeply), and every hit makes
 * it 7% faster. A ball past a paddle is a point for the other side; the next
 * serve comes SERVE_MS later, from the middle, towards the side that lost the
 * point, with a seeded height and angle (mulberry32 of ?seed=). First to
 * WIN_SCORE (5) points wins.
 *
 * Time: physics runs in fixed sub-steps of SUB_MS (4 ms) of game time, due at
 * t0 + k * SUB_MS; a setTimeout every FRAME_MS (20 ms) runs the due sub-steps
 * and draws, and a key press first runs the sub-steps due before it. Under
 * Playwright's clock a run depends only on the seed, the inputs and their
 * game times. No requestAnimationFrame, CSS animation or Math.random.
 *
 * score() is the left player's points minus the right player's (the agent
 * plays left); scores() gives both.
 */
(function () {
  'use strict';

  var W = 800, H = 600;
  var TOP = 70, BOTTOM = 590;                        // the field's walls (inner edges)
  var PW = 12, PH = 90, LX = 24, RX = W - 24 - PW;   // paddles: left 24..36, right 764..776
  var R = 8;                                         // ball radius
  var SUB_MS = 4, FRAME_MS = 20, SERVE_MS = 800;
  var PADDLE_SPEED = 0.8, MOVE_MS = 60;              // px per ms; one press = 48 px
  var AI_SPEED = 0.36;
  var BALL_SPEED = 0.6, BALL_GAIN = 1.07, BALL_MAX = 2.0;   // px per ms
  var MAX_ANGLE = Math.PI / 3;
  var WIN_SCORE = 5;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#11151c'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  var SEED = K.seed();
  var AI = (K.params().get('ai') || '').toLowerCase();
  var aiSide = { left: AI === 'left' || AI === 'both', right: AI === 'right' || AI === 'both' };

  var rng = K.mulberry32(SEED);

  function paddle(x) {
    return { x: x, y: (TOP + BOTTOM - PH) / 2, dir: 0, moveUntil: -1, held: { up: false, down: false }, pointer: null };
  }
  var t0 = performance.now();
  var game = {
    time: 0,                      // game ms since the start, a multiple of SUB_MS
    left: paddle(LX), right: paddle(RX),
    ball: { x: W / 2, y: (TOP + BOTTOM) / 2, vx: 0, vy: 0, speed: BALL_SPEED },
    scores: [0, 0],
    serveAt: SERVE_MS,            // game time of the next serve, or -1 while in play
    serveDir: rng() < 0.5 ? -1 : 1,
    hits: 0, rally: 0, over: false, winner: null, lastPoint: null
  };
  placeServe();

  // the ball waits in the middle, at a seeded height, for the next serve
  function placeServe() {
    var b = game.ball;
    b.x = W / 2;
    b.y = TOP + 110 + rng() * (BOTTOM - TOP - 220);
    b.speed = BALL_SPEED;
    var angle = (rng() * 2 - 1) * Math.PI / 6;
    b.vx = game.serveDir * b.speed * Math.cos(angle);
    b.vy = b.speed * Math.sin(angle);
    game.rally = 0;
  }

  // ---- physics ----------------------------------------------------------
  function movePaddle(p, side, dt) {
    var v = 0;
    if (aiSide[side]) {
      var b = game.ball, cy = p.y + PH / 2;
      // it follows the ball once the ball comes its way past the middle, else it goes back to the middle
      var coming = game.serveAt < 0 && (side === 'right' ? b.vx > 0 && b.x >= W / 2 : b.vx < 0 && b.x <= W / 2);
      var goal = coming ? b.y : (TOP + BOTTOM) / 2;
      if (Math.abs(goal - cy) > 6) v = (goal > cy ? 1 : -1) * AI_SPEED;
    } else if (p.pointer !== null) {
      var d = p.pointer - (p.y + PH / 2);
      v = Math.max(-PADDLE_SPEED, Math.min(PADDLE_SPEED, d / dt));
    } else if (p.held.up || p.held.down || game.time <= p.moveUntil) {
      v = p.dir * PADDLE_SPEED;
    }
    p.y = Math.max(TOP, Math.min(BOTTOM - PH, p.y + v * dt));
  }

  function bounce(p, side) {
    var b = game.ball;
    var offset = (b.y - (p.y + PH / 2)) / (PH / 2 + R);
    offset = Math.max(-1, Math.min(1, offset));
    var angle = offset * MAX_ANGLE;
    b.speed = Math.min(BALL_MAX, b.speed * BALL_GAIN);
    b.vx = (side === 'left' ? 1 : -1) * b.speed * Math.cos(angle);
    b.vy = b.speed * Math.sin(angle);
    b.x = side === 'left' ? LX + PW + R : RX - R;
    game.hits++;
    game.rally++;
  }

  function sub() {
    game.time += SUB_MS;
    var dt = SUB_MS;
    movePaddle(game.left, 'left', dt);
    movePaddle(game.right, 'right', dt);
    if (game.over) return;
    if (game.serveAt >= 0) {
      if (game.time >= game.serveAt) game.serveAt = -1;
      return;
    }
    var b = game.ball, px = b.x;
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    if (b.y < TOP + R) { b.y = 2 * (TOP + R) - b.y; b.vy = -b.vy; }
    if (b.y > BOTTOM - R) { b.y = 2 * (BOTTOM - R) - b.y; b.vy = -b.vy; }
    var L = game.left, Rp = game.right;
    if (b.vx < 0 && px - R >= LX + PW - 0.001 && b.x - R < LX + PW &&
        b.y >= L.y - R && b.y <= L.y + PH + R) bounce(L, 'left');
    else if (b.vx > 0 && px + R <= RX + 0.001 && b.x + R > RX &&
        b.y >= Rp.y - R && b.y <= Rp.y + PH + R) bounce(Rp, 'right');
    if (b.x < -R) point(1);
    else if (b.x > W + R) point(0);
  }

  function point(side) {
    game.scores[side]++;
    game.lastPoint = side === 0 ? 'left' : 'right';
    if (game.scores[side] >= WIN_SCORE) {
      game.over = true;
      game.winner = game.lastPoint;
      return;
    }
    game.serveDir = side === 0 ? 1 : -1;   // towards the side that lost the point
    game.serveAt = game.time + SERVE_MS;
    placeServe();
  }

  // run the sub-steps due by now
  function advance() {
    var now = performance.now() - t0, n = 0;
    while (game.time + SUB_MS <= now + 1e-6 && n < 1000000) { sub(); n++; }
    return n;
  }

  var timer = null;
  function loop() {
    timer = null;
    advance();
    render();
    if (!game.over) schedule();
  }
  function schedule() {
    if (timer !== null) return;
    var next = (Math.floor(game.time / FRAME_MS) + 1) * FRAME_MS;
    timer = setTimeout(loop, Math.max(0, t0 + next - performance.now()));
  }

  // ---- input ------------------------------------------------------------
  var KEYS = {
    w: ['left', 'up'], W: ['left', 'up'], s: ['left', 'down'], S: ['left', 'down'],
    ArrowUp: ['right', 'up'], ArrowDown: ['right', 'down']
  };
  var CODES = { KeyW: ['left', 'up'], KeyS: ['left', 'down'] };

  window.addEventListener('keydown', function (e) {
    var k = KEYS[e.key] || CODES[e.code];
    if (!k) return;
    e.preventDefault();
    advance();
    var p = game[k[0]];
    p.dir = k[1] === 'up' ? -1 : 1;
    p.held[k[1]] = true;
    p.moveUntil = game.time + MOVE_MS;
  }, true);
  window.addEventListener('keyup', function (e) {
    var k = KEYS[e.key] || CODES[e.code];
    if (!k) return;
    advance();
    var p = game[k[0]];
    p.held[k[1]] = false;
    if (p.held.up) p.dir = -1;
    else if (p.held.down) p.dir = 1;
  }, true);
  window.addEventListener('blur', function () {
    game.left.held = { up: false, down: false };
    game.right.held = { up: false, down: false };
  });

  var pointers = {};   // pointerId -> side
  function pointerY(e) { return view.toLogical(e); }
  window.addEventListener('pointerdown', function (e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    advance();
    var p = pointerY(e), side = p.x < W / 2 ? 'left' : 'right';
    pointers[e.pointerId] = side;
    game[side].pointer = p.y;
  }, { passive: false });
  window.addEventListener('pointermove', function (e) {
    var side = pointers[e.pointerId];
    if (!side) return;
    advance();
    game[side].pointer = pointerY(e).y;
  });
  function release(e) {
    var side = pointers[e.pointerId];
    if (!side) return;
    advance();
    delete pointers[e.pointerId];
    game[side].pointer = null;
  }
  window.addEventListener('pointerup', release);
  window.addEventListener('pointercancel', release);

  // ---- drawing ----------------------------------------------------------

  function label(side) {
    if (aiSide[side]) return 'Computer';
    if (aiSide.left || aiSide.right) return 'You (' + (side === 'left' ? 'W / S' : '\u2191 / \u2193') + ')';
    return side === 'left' ? 'Left: W / S' : 'Right: \u2191 / \u2193';
  }

  function drawHeader() {
    ctx.fillStyle = '#1a202b';
    ctx.fillRect(0, 0, W, TOP - 6);
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 44px ' + FONT;
    ctx.textAlign = 'right';
    ctx.fillText(String(game.scores[0]), W / 2 - 28, 34);
    ctx.textAlign = 'left';
    ctx.fillText(String(game.scores[1]), W / 2 + 28, 34);
    ctx.textAlign = 'center';
    ctx.fillStyle = '#8a96a8';
    ctx.fillText(':', W / 2, 31);
    ctx.font = 'bold 16px ' + FONT;
    ctx.textAlign = 'left';
    ctx.fillStyle = '#6fd3ff';
    ctx.fillText(label('left'), 20, 24);
    ctx.textAlign = 'right';
    ctx.fillStyle = '#ffb86b';
    ctx.fillText(label('right'), W - 20, 24);
    ctx.font = '13px ' + FONT;
    ctx.fillStyle = '#8a96a8';
    ctx.textAlign = 'left';
    ctx.fillText('PONG \u00b7 first to ' + WIN_SCORE, 20, 48);
  }

  function drawField() {
    ctx.fillStyle = '#2a3344';
    ctx.fillRect(0, TOP - 6, W, 6);
    ctx.fillRect(0, BOTTOM, W, 6);
    ctx.fillStyle = '#2a3344';
    for (var y = TOP + 8; y < BOTTOM - 8; y += 28) ctx.fillRect(W / 2 - 2, y, 4, 16);
  }

  function drawPaddles() {
    ctx.fillStyle = '#6fd3ff';
    roundRect(game.left.x, game.left.y, PW, PH, 5);
    ctx.fillStyle = '#ffb86b';
    roundRect(game.right.x, game.right.y, PW, PH, 5);
  }

  function drawBall() {
    var b = game.ball;
    ctx.fillStyle = '#ffffff';
    ctx.beginPath();
    ctx.arc(b.x, b.y, R, 0, Math.PI * 2);
    ctx.fill();
    if (game.serveAt >= 0 && !game.over) {
      // the serve's direction, until it goes
      var ux = b.vx / b.speed, uy = b.vy / b.speed;
      var x0 = b.x + ux * 16, y0 = b.y + uy * 16, x1 = b.x + ux * 40, y1 = b.y + uy * 40;
      ctx.strokeStyle = 'rgba(255,255,255,0.55)';
      ctx.lineWidth = 3;
      ctx.lineCap = 'round';
      ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(x1 + ux * 2, y1 + uy * 2);
      ctx.lineTo(x1 - ux * 9 - uy * 7, y1 - uy * 9 + ux * 7);
      ctx.lineTo(x1 - ux * 9 + uy * 7, y1 - uy * 9 - ux * 7);
      ctx.closePath();
      ctx.fillStyle = 'rgba(255,255,255,0.55)';
      ctx.fill();
    }
  }

  function drawGameOver() {
    var who;
    if (aiSide.left !== aiSide.right) who = aiSide[game.winner] ? 'Computer wins' : 'You win!';
    else who = (game.winner === 'left' ? 'Left' : 'Right') + ' player wins!';
    view.card({ shade: ['rgba(8, 10, 16, 0.6)', 0, TOP, W, BOTTOM - TOP], w: 400, h: 190, y: (TOP + BOTTOM - 190) / 2,
                title: [who, '#1a202b', 38, 62], score: [game.scores[0] + ' : ' + game.scores[1], 30, 124] });
  }

  function draw() {
    view.clear();
    drawHeader();
    drawField();
    drawPaddles();
    if (!game.over) drawBall();
    else drawGameOver();
  }

  view.start();
  schedule();

  // ---- API for the env --------------------------------------------------
  function paddleState(p, side) {
    return {
      x: p.x, y: p.y, w: PW, h: PH, cy: p.y + PH / 2,
      face: side === 'left' ? p.x + PW : p.x,       // the x the ball bounces off
      moving: p.held.up || p.held.down || game.time < p.moveUntil ? p.dir : 0,
      moveLeftMs: Math.max(0, p.moveUntil - game.time),
      ai: aiSide[side]
    };
  }
  window.hybridgym = K.api('pong', SEED, game, {
    score: function () { advance(); return game.scores[0] - game.scores[1]; },
    scores: function () { advance(); return game.scores.slice(); },
    gameOver: function () { advance(); return game.over; },
    state: function () {
      advance();
      var b = game.ball;
      return {
        width: W, height: H,
        field: { top: TOP, bottom: BOTTOM, left: 0, right: W },
        ball: { x: b.x, y: b.y, vx: b.vx, vy: b.vy, r: R, speed: b.speed },   // velocity in px per ms
        paddles: { left: paddleState(game.left, 'left'), right: paddleState(game.right, 'right') },
        scores: game.scores.slice(),
        score: game.scores[0] - game.scores[1],
        winScore: WIN_SCORE,
        serving: game.serveAt >= 0,
        serveInMs: game.serveAt >= 0 ? game.serveAt - game.time : 0,
        paddleSpeed: PADDLE_SPEED, moveMs: MOVE_MS, aiSpeed: AI_SPEED,
        ballGain: BALL_GAIN, ballMax: BALL_MAX, maxAngle: MAX_ANGLE,
        ai: AI || null,
        hits: game.hits, rally: game.rally,
        lastPoint: game.lastPoint,
        gameOver: game.over, winner: game.winner,
        time: game.time
      };
    }
  });
})();
