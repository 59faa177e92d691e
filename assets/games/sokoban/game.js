/* Sokoban for hybridgym: deterministic for a seed, inputs and game time.
 *
 * Eight hand-designed levels of rising difficulty (7 to 69 moves when solved
 * in the fewest moves). The seed picks the first level (seed mod 8); solving a
 * level loads the next one at once (after the last comes the first), and the
 * game is over, won, when all eight are solved. Score: levels solved.
 *
 * Input: arrow keys / WASD move the keeper one cell and push a crate in the
 * way (if the cell behind it is free); Z / U / Backspace undo a move; R
 * restarts the level. Pointer / touch: swipe, or tap on the side of the keeper
 * to step that way; the Undo and Restart buttons under the board.
 *
 * Time: moves happen when their input arrives. The only timer hides the
 * "Level solved" banner 1500 ms of game time after a solve (setTimeout, so
 * under Playwright's fake clock the picture depends only on the seed, the
 * inputs and their times). No requestAnimationFrame, CSS animation or
 * Math.random.
 */
(function () {
  'use strict';

  var W = 800, H = 600, HEADER = 72;
  var AREA = { x: 20, y: 84, w: 760, h: 452 };          // where the level is centred
  var BTN_UNDO = { x: 400 - 170, y: 550, w: 160, h: 40 };
  var BTN_RESTART = { x: 400 + 10, y: 550, w: 160, h: 40 };
  var BANNER_MS = 1500;
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#3b2f2a'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;

  // '#' wall, ' ' floor, '.' goal, '$' crate, '*' crate on goal, '@' keeper, '+' keeper on goal
  var LEVELS = [
    ['########',
     '#      #',
     '# @$#  #',
     '#    . #',
     '########'],
    ['  #####',
     '###   #',
     '#@$*# #',
     '# $ . #',
     '##.   #',
     ' ######'],
    ['  ####',
     '###  #',
     '#  .$#',
     '# #. ##',
     '#   $ #',
     '#  @  #',
     '#######'],
    ['  ######',
     '  #@   #',
     '###  # #',
     '# .$ . #',
     '#  $#  #',
     '#   .$ #',
     '########'],
    [' #######',
     ' #  @  #',
     ' #$### #',
     '## #.  #',
     '#  $.  #',
     '#   #  #',
     '########'],
    [' ######',
     ' #    ###',
     '##$#.   #',
     '#@ ..#  #',
     '# $$ .  #',
     '##$ ### #',
     ' #      #',
     ' ########'],
    ['  #####',
     '###   ####',
     '#   .  $ #',
     '# # .#*# #',
     '# $ # $  #',
     '### . @ ##',
     '  #######'],
    ['#########',
     '#   #@  #',
     '#   .$  #',
     '##.# #.##',
     '#   *$$ #',
     '#       #',
     '#########']
  ];
  var N_LEVELS = LEVELS.length;

  var DIRS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

  var SEED = K.seed();
  var START = SEED % N_LEVELS;
  var game = {
    index: START,        // level being played (0-based index into LEVELS)
    solved: 0,           // levels solved = score
    over: false,
    won: false,
    totalMoves: 0,
    bannerUntil: -1
  };
  var lv = null;         // the current level: width, height, wall, goal, inside, boxes, player, moves, pushes, history

  function key(x, y) { return y * 64 + x; }

  function loadLevel(index) {
    var rows = LEVELS[index];
    var width = 0;
    rows.forEach(function (r) { width = Math.max(width, r.length); });
    var l = { width: width, height: rows.length, wall: {}, goal: {}, inside: {}, boxes: {}, player: null,
              moves: 0, pushes: 0, history: [] };
    for (var y = 0; y < rows.length; y++) {
      for (var x = 0; x < width; x++) {
        var ch = rows[y].charAt(x) || ' ';
        if (ch === '#') l.wall[key(x, y)] = true;
        if (ch === '.' || ch === '*' || ch === '+') l.goal[key(x, y)] = true;
        if (ch === '$' || ch === '*') l.boxes[key(x, y)] = true;
        if (ch === '@' || ch === '+') l.player = [x, y];
      }
    }
    // inside: the floor the keeper could ever reach (flood fill ignoring crates)
    var stack = [l.player];
    l.inside[key(l.player[0], l.player[1])] = true;
    while (stack.length) {
      var c = stack.pop();
      for (var d in DIRS) {
        var nx = c[0] + DIRS[d][0], ny = c[1] + DIRS[d][1], k = key(nx, ny);
        if (nx < 0 || ny < 0 || nx >= width || ny >= rows.length || l.wall[k] || l.inside[k]) continue;
        l.inside[k] = true;
        stack.push([nx, ny]);
      }
    }
    lv = l;
  }

  function isSolved() {
    for (var k in lv.goal) if (!lv.boxes[k]) return false;
    return true;
  }

  function move(dir) {
    if (game.over) return false;
    var d = DIRS[dir];
    var nx = lv.player[0] + d[0], ny = lv.player[1] + d[1], k = key(nx, ny);
    if (lv.wall[k] || !lv.inside[k]) return false;
    var pushed = false;
    if (lv.boxes[k]) {
      var bx = nx + d[0], by = ny + d[1], bk = key(bx, by);
      if (lv.wall[bk] || !lv.inside[bk] || lv.boxes[bk]) return false;
      pushed = true;
    }
    lv.history.push({ player: lv.player.slice(), box: pushed ? [k, bk] : null });
    if (pushed) {
      delete lv.boxes[k];
      lv.boxes[bk] = true;
      lv.pushes++;
    }
    lv.player = [nx, ny];
    lv.moves++;
    game.totalMoves++;
    if (pushed && isSolved()) levelSolved();
    return true;
  }

  function undo() {
    if (game.over || !lv.history.length) return;
    var h = lv.history.pop();
    if (h.box) {
      delete lv.boxes[h.box[1]];
      lv.boxes[h.box[0]] = true;
      lv.pushes--;
    }
    lv.player = h.player;
    lv.moves--;
  }

  function restart() {
    if (game.over) return;
    loadLevel(game.index);
  }

  var showBanner = K.banner(game, BANNER_MS, render);
  function levelSolved() {
    game.solved++;
    if (game.solved >= N_LEVELS) {
      game.over = true;
      game.won = true;
      return;
    }
    game.index = (game.index + 1) % N_LEVELS;
    loadLevel(game.index);
    showBanner();
  }

  // ---- input ------------------------------------------------------------
  window.addEventListener('keydown', function (e) {
    var dir = K.dirKey(e);
    if (dir) {
      e.preventDefault();
      move(dir);
      render();
      return;
    }
    if (e.key === 'z' || e.key === 'Z' || e.key === 'u' || e.key === 'U' || e.key === 'Backspace') {
      e.preventDefault();
      undo();
      render();
    } else if (e.key === 'r' || e.key === 'R') {
      e.preventDefault();
      restart();
      render();
    }
  }, true);

  function inBox(p, b) { return p.x >= b.x && p.x < b.x + b.w && p.y >= b.y && p.y < b.y + b.h; }

  view.onSwipe(function (dx, dy, p) {
    if (Math.max(Math.abs(dx), Math.abs(dy)) >= 24) {
      move(K.dirOf(dx, dy));
    } else if (inBox(p, BTN_UNDO)) {
      undo();
    } else if (inBox(p, BTN_RESTART)) {
      restart();
    } else {
      // a tap: step towards it from the keeper
      var g = geometry();
      var px = g.x0 + (lv.player[0] + 0.5) * g.cell, py = g.y0 + (lv.player[1] + 0.5) * g.cell;
      var tx = p.x - px, ty = p.y - py;
      if (Math.max(Math.abs(tx), Math.abs(ty)) < g.cell / 2) return;
      move(K.dirOf(tx, ty));
    }
    render();
  });

  // ---- drawing ----------------------------------------------------------

  function geometry() {
    var cell = Math.min(60, Math.floor(Math.min(AREA.w / lv.width, AREA.h / lv.height)));
    return {
      cell: cell,
      x0: Math.round(AREA.x + (AREA.w - cell * lv.width) / 2),
      y0: Math.round(AREA.y + (AREA.h - cell * lv.height) / 2)
    };
  }

  var drawBox = K.boxDrawer(view, { bg: '#5a463b', fg: '#e0cfb8', y: 12, h: 50, labelY: 25, valueY: 48 });

  function drawHeader() {
    view.titleBar('#2a201c', HEADER, 'SOKOBAN', 'Arrows: move \u00b7 Z: undo \u00b7 R: restart',
                  K.bannerOn(game) ? 'Level solved! Next level.' : null);
    drawBox.row([['LEVEL', (game.index + 1) + '/' + N_LEVELS], ['MOVES', lv.moves], ['SCORE', game.solved]], 96, 10);
  }

  function drawWall(x, y, s) {
    ctx.fillStyle = '#8d5a3b';
    ctx.fillRect(x, y, s, s);
    ctx.fillStyle = '#6e432b';
    var h = s / 3;
    for (var row = 0; row < 3; row++) {
      ctx.fillRect(x, y + row * h, s, 2);
      var off = row % 2 === 0 ? s / 2 : s / 4;
      ctx.fillRect(x + off, y + row * h, 2, h);
      if (row % 2 === 1) ctx.fillRect(x + off + s / 2, y + row * h, 2, h);
    }
    ctx.fillStyle = 'rgba(255,255,255,0.08)';
    ctx.fillRect(x, y, s, 2);
  }

  function drawGoal(x, y, s) {
    var cx = x + s / 2, cy = y + s / 2;
    ctx.strokeStyle = '#d84315';
    ctx.lineWidth = Math.max(2, s * 0.06);
    ctx.beginPath(); ctx.arc(cx, cy, s * 0.22, 0, Math.PI * 2); ctx.stroke();
    ctx.fillStyle = '#d84315';
    ctx.beginPath(); ctx.arc(cx, cy, s * 0.08, 0, Math.PI * 2); ctx.fill();
  }

  function drawCrate(x, y, s, onGoal) {
    var p = s * 0.08, w = s - 2 * p;
    ctx.fillStyle = onGoal ? '#558b2f' : '#c58a3e';
    roundRect(x + p, y + p, w, w, s * 0.08);
    ctx.strokeStyle = onGoal ? '#33691e' : '#8a5a22';
    ctx.lineWidth = Math.max(2, s * 0.07);
    var q = s * 0.2;
    ctx.strokeRect(x + q, y + q, s - 2 * q, s - 2 * q);
    ctx.beginPath();
    ctx.moveTo(x + q, y + q); ctx.lineTo(x + s - q, y + s - q);
    ctx.moveTo(x + s - q, y + q); ctx.lineTo(x + q, y + s - q);
    ctx.stroke();
  }

  function drawKeeper(x, y, s) {
    var cx = x + s / 2;
    ctx.fillStyle = '#1e88e5';
    roundRect(x + s * 0.26, y + s * 0.42, s * 0.48, s * 0.46, s * 0.14);
    ctx.fillStyle = '#ffcc80';
    ctx.beginPath(); ctx.arc(cx, y + s * 0.3, s * 0.17, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = '#263238';
    ctx.beginPath(); ctx.arc(cx - s * 0.06, y + s * 0.29, s * 0.025 + 1, 0, Math.PI * 2); ctx.fill();
    ctx.beginPath(); ctx.arc(cx + s * 0.06, y + s * 0.29, s * 0.025 + 1, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = '#0d47a1';
    ctx.fillRect(x + s * 0.3, y + s * 0.12, s * 0.4, s * 0.07);
  }

  function drawLevel() {
    var g = geometry(), s = g.cell;
    for (var y = 0; y < lv.height; y++) {
      for (var x = 0; x < lv.width; x++) {
        var k = key(x, y), px = g.x0 + x * s, py = g.y0 + y * s;
        if (lv.wall[k]) { drawWall(px, py, s); continue; }
        if (!lv.inside[k]) continue;
        ctx.fillStyle = (x + y) % 2 ? '#e8dcc4' : '#efe4ce';
        ctx.fillRect(px, py, s, s);
        if (lv.goal[k]) drawGoal(px, py, s);
        if (lv.boxes[k]) drawCrate(px, py, s, !!lv.goal[k]);
      }
    }
    drawKeeper(g.x0 + lv.player[0] * s, g.y0 + lv.player[1] * s, s);
  }

  function drawButton(b, label) {
    ctx.fillStyle = '#5a463b';
    roundRect(b.x, b.y, b.w, b.h, 20);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 16px ' + FONT;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(label, b.x + b.w / 2, b.y + b.h / 2 + 1);
  }

  function drawGameOver() {
    view.card({ shade: ['rgba(20, 14, 10, 0.6)', 0, HEADER, W, H - HEADER], w: 400, h: 170, y: 220, bg: '#fff8ee',
                title: ['All levels solved!', '#558b2f', 40, 60],
                score: ['Score: ' + game.solved + '  \u00b7  ' + game.totalMoves + ' moves', 24, 118] });
  }

  function draw() {
    view.clear();
    drawHeader();
    drawLevel();
    drawButton(BTN_UNDO, 'Undo (Z)');
    drawButton(BTN_RESTART, 'Restart (R)');
    if (game.over) drawGameOver();
  }

  loadLevel(game.index);
  view.start();

  // ---- API for the env --------------------------------------------------
  function xsb() {
    var rows = [];
    for (var y = 0; y < lv.height; y++) {
      var s = '';
      for (var x = 0; x < lv.width; x++) {
        var k = key(x, y), goal = !!lv.goal[k];
        if (lv.wall[k]) s += '#';
        else if (lv.player[0] === x && lv.player[1] === y) s += goal ? '+' : '@';
        else if (lv.boxes[k]) s += goal ? '*' : '$';
        else s += goal ? '.' : ' ';
      }
      rows.push(s);
    }
    return rows;
  }
  function cells(set) {
    var out = [];
    for (var k in set) out.push([Number(k) % 64, Math.floor(Number(k) / 64)]);
    out.sort(function (a, b) { return a[1] - b[1] || a[0] - b[0]; });
    return out;
  }

  window.hybridgym = K.api('sokoban', SEED, game, {
    score: function () { return game.solved; },
    level: function () { return game.index + 1; },
    state: function () {
      var g = geometry(), boxes = cells(lv.boxes), onGoal = 0;
      boxes.forEach(function (b) { if (lv.goal[key(b[0], b[1])]) onGoal++; });
      return {
        map: xsb(),
        level: game.index + 1,
        levelCount: N_LEVELS,
        startLevel: START + 1,
        width: lv.width,
        height: lv.height,
        player: lv.player.slice(),
        boxes: boxes,
        goals: cells(lv.goal),
        boxesOnGoals: onGoal,
        moves: lv.moves,
        pushes: lv.pushes,
        totalMoves: game.totalMoves,
        score: game.solved,
        solved: game.solved,
        gameOver: game.over,
        won: game.won,
        grid: view.pageGrid(g.x0, g.y0, lv.width, lv.height, g.cell, g.cell)
      };
    }
  });
})();
