/* Minesweeper for hybridgym: deterministic for a seed, inputs and game time.
 *
 * A 9x9 field with 10 mines. The mines are placed at the first reveal, from a
 * seeded shuffle of the cells, never on the clicked cell or its 8 neighbours
 * (so the first click is safe and always opens an area). Left click / tap
 * reveals a cell (a revealed number whose flags are all placed reveals its
 * other neighbours: "chording"); right click flags. On touch, the "Flag mode"
 * button under the field makes taps flag instead of reveal.
 *
 * Score: the number of safe cells revealed (71 = all, a win). Game over: a
 * mine is revealed, or every safe cell is (won). There is no timer: nothing in
 * the game depends on time, and the picture is drawn as soon as the state
 * changes. requestAnimationFrame, CSS animations and Math.random are not used.
 *
 * state() holds only what a player sees (the visible board, one string a row:
 * '#' hidden, 'F' flag, '0'-'8' revealed; at game over '*' mine, 'X' the
 * exploded mine, 'W' a wrong flag) plus counts and the grid geometry in page px.
 */
(function () {
  'use strict';

  var COLS = 9, ROWS = 9, MINES = 10, CELL = 50;
  var W = 800, HEADER = 72;
  var GX = (W - COLS * CELL) / 2, GY = 86;                 // field: 175..625 x 86..536
  var BTN = { x: W / 2 - 100, y: 548, w: 200, h: 40 };     // flag mode toggle
  var K = window.hgKit, FONT = K.FONT;
  var view = K.view(draw, '#dfe6ee'), ctx = view.ctx, roundRect = view.roundRect, render = view.render;
  var NUM_COLORS = ['', '#1e63d6', '#2e8b2e', '#d32f2f', '#283593', '#8d1c1c', '#00838f', '#222222', '#757575'];

  var SEED = K.seed();
  var rng = K.mulberry32(SEED);
  // The seeded order in which cells are tried for mines (Fisher-Yates).
  var order = [];
  for (var i = 0; i < COLS * ROWS; i++) order.push(i);
  for (i = order.length - 1; i > 0; i--) {
    var j = Math.floor(rng() * (i + 1)), tmp = order[i];
    order[i] = order[j]; order[j] = tmp;
  }

  var game = {
    mine: [],        // per cell: true if a mine
    count: [],       // per cell: mines among the 8 neighbours
    revealed: [],
    flagged: [],
    started: false,
    revealedCount: 0,
    flags: 0,
    clicks: 0,
    over: false,
    won: false,
    exploded: -1,
    flagMode: false
  };
  for (i = 0; i < COLS * ROWS; i++) {
    game.mine.push(false); game.count.push(0); game.revealed.push(false); game.flagged.push(false);
  }
  var SAFE_TOTAL = COLS * ROWS - MINES;

  function neighbours(idx) {
    var r = Math.floor(idx / COLS), c = idx % COLS, out = [];
    for (var dr = -1; dr <= 1; dr++)
      for (var dc = -1; dc <= 1; dc++) {
        if (!dr && !dc) continue;
        var rr = r + dr, cc = c + dc;
        if (rr >= 0 && rr < ROWS && cc >= 0 && cc < COLS) out.push(rr * COLS + cc);
      }
    return out;
  }

  function placeMines(first) {
    var banned = {};
    banned[first] = true;
    neighbours(first).forEach(function (n) { banned[n] = true; });
    var placed = 0;
    for (var k = 0; k < order.length && placed < MINES; k++) {
      if (banned[order[k]]) continue;
      game.mine[order[k]] = true;
      placed++;
    }
    for (var idx = 0; idx < COLS * ROWS; idx++) {
      game.count[idx] = neighbours(idx).filter(function (n) { return game.mine[n]; }).length;
    }
    game.started = true;
  }

  function reveal(idx) {
    if (game.over || game.revealed[idx] || game.flagged[idx]) return;
    if (!game.started) placeMines(idx);
    if (game.mine[idx]) { explode(idx); return; }
    var stack = [idx];
    while (stack.length) {
      var cur = stack.pop();
      if (game.revealed[cur] || game.flagged[cur] || game.mine[cur]) continue;
      game.revealed[cur] = true;
      game.revealedCount++;
      if (game.count[cur] === 0) {
        neighbours(cur).forEach(function (n) { if (!game.revealed[n] && !game.flagged[n]) stack.push(n); });
      }
    }
    if (game.revealedCount === SAFE_TOTAL) win();
  }

  function chord(idx) {
    var ns = neighbours(idx);
    var flags = ns.filter(function (n) { return game.flagged[n]; }).length;
    if (flags !== game.count[idx]) return;
    for (var k = 0; k < ns.length && !game.over; k++) {
      if (!game.revealed[ns[k]] && !game.flagged[ns[k]]) reveal(ns[k]);
    }
  }

  function explode(idx) {
    game.over = true;
    game.won = false;
    game.exploded = idx;
  }

  function win() {
    game.over = true;
    game.won = true;
    for (var idx = 0; idx < COLS * ROWS; idx++) {
      if (game.mine[idx] && !game.flagged[idx]) { game.flagged[idx] = true; game.flags++; }
    }
  }

  function toggleFlag(idx) {
    if (game.over || game.revealed[idx]) return;
    game.flagged[idx] = !game.flagged[idx];
    game.flags += game.flagged[idx] ? 1 : -1;
  }

  function clickCell(idx, flag) {
    if (game.over) return;
    game.clicks++;
    if (flag) toggleFlag(idx);
    else if (game.revealed[idx]) chord(idx);
    else reveal(idx);
  }

  // ---- input ------------------------------------------------------------
  view.onPress(function (p, button) {
    if (button === 0 && p.x >= BTN.x && p.x < BTN.x + BTN.w && p.y >= BTN.y && p.y < BTN.y + BTN.h) {
      if (!game.over) { game.flagMode = !game.flagMode; render(); }
      return;
    }
    var cell = K.cellAt(p, GX, GY, CELL, CELL, COLS, ROWS);
    if (!cell) return;
    clickCell(cell[0] * COLS + cell[1], button === 2 || game.flagMode);
    render();
  }, true);

  // ---- drawing ----------------------------------------------------------

  var drawBox = K.boxDrawer(view, { bg: '#4f6475', fg: '#c9d6e2', y: 12, h: 50, labelY: 25, valueY: 48 });

  function drawHeader() {
    view.titleBar('#34495e', HEADER, 'MINESWEEPER', 'Click: reveal  \u00b7  Right click: flag', null,
                  'rgba(255,255,255,0.8)');
    drawBox.row([['MINES LEFT', MINES - game.flags], ['SCORE', game.revealedCount]], 110, 12);
  }

  function drawFlag(x, y, s) {
    ctx.fillStyle = '#37474f';
    ctx.fillRect(x + s * 0.46, y + s * 0.22, s * 0.07, s * 0.56);
    ctx.fillRect(x + s * 0.3, y + s * 0.74, s * 0.4, s * 0.08);
    ctx.fillStyle = '#e53935';
    ctx.beginPath();
    ctx.moveTo(x + s * 0.53, y + s * 0.2);
    ctx.lineTo(x + s * 0.53, y + s * 0.5);
    ctx.lineTo(x + s * 0.22, y + s * 0.35);
    ctx.closePath();
    ctx.fill();
  }

  function drawMine(x, y, s) {
    var cx = x + s / 2, cy = y + s / 2, r = s * 0.22;
    ctx.strokeStyle = '#212121';
    ctx.lineWidth = s * 0.06;
    ctx.lineCap = 'round';
    for (var k = 0; k < 4; k++) {
      var a = k * Math.PI / 4;
      ctx.beginPath();
      ctx.moveTo(cx - Math.cos(a) * r * 1.5, cy - Math.sin(a) * r * 1.5);
      ctx.lineTo(cx + Math.cos(a) * r * 1.5, cy + Math.sin(a) * r * 1.5);
      ctx.stroke();
    }
    ctx.fillStyle = '#212121';
    ctx.beginPath(); ctx.arc(cx, cy, r, 0, Math.PI * 2); ctx.fill();
    ctx.fillStyle = 'rgba(255,255,255,0.7)';
    ctx.beginPath(); ctx.arc(cx - r * 0.35, cy - r * 0.35, r * 0.28, 0, Math.PI * 2); ctx.fill();
  }

  function drawField() {
    ctx.fillStyle = '#2c3e50';
    roundRect(GX - 6, GY - 6, COLS * CELL + 12, ROWS * CELL + 12, 8);
    for (var r = 0; r < ROWS; r++) {
      for (var c = 0; c < COLS; c++) {
        var idx = r * COLS + c, x = GX + c * CELL, y = GY + r * CELL, dark = (r + c) % 2 === 1;
        var showMine = game.over && !game.won && game.mine[idx] && !game.flagged[idx];
        if (game.revealed[idx] || showMine) {
          ctx.fillStyle = idx === game.exploded ? '#ef5350' : dark ? '#e3e9ef' : '#edf1f5';
          ctx.fillRect(x, y, CELL, CELL);
          if (showMine) drawMine(x, y, CELL);
          else if (game.count[idx] > 0) {
            ctx.fillStyle = NUM_COLORS[game.count[idx]];
            ctx.font = 'bold 28px ' + FONT;
            ctx.textAlign = 'center';
            ctx.textBaseline = 'middle';
            ctx.fillText(String(game.count[idx]), x + CELL / 2, y + CELL / 2 + 1);
          }
        } else {
          ctx.fillStyle = dark ? '#7fa6cf' : '#8db2d9';
          ctx.fillRect(x, y, CELL, CELL);
          ctx.fillStyle = 'rgba(255,255,255,0.22)';
          ctx.fillRect(x, y, CELL, 3);
          ctx.fillRect(x, y, 3, CELL);
          ctx.fillStyle = 'rgba(0,0,0,0.12)';
          ctx.fillRect(x, y + CELL - 3, CELL, 3);
          ctx.fillRect(x + CELL - 3, y, 3, CELL);
          if (game.flagged[idx]) {
            drawFlag(x, y, CELL);
            if (game.over && !game.won && !game.mine[idx]) {
              ctx.strokeStyle = '#b71c1c';
              ctx.lineWidth = 4;
              ctx.beginPath();
              ctx.moveTo(x + 10, y + 10); ctx.lineTo(x + CELL - 10, y + CELL - 10);
              ctx.moveTo(x + CELL - 10, y + 10); ctx.lineTo(x + 10, y + CELL - 10);
              ctx.stroke();
            }
          }
        }
      }
    }
    // thin grid lines
    ctx.strokeStyle = 'rgba(44,62,80,0.25)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (var k = 1; k < COLS; k++) { ctx.moveTo(GX + k * CELL + 0.5, GY); ctx.lineTo(GX + k * CELL + 0.5, GY + ROWS * CELL); }
    for (k = 1; k < ROWS; k++) { ctx.moveTo(GX, GY + k * CELL + 0.5); ctx.lineTo(GX + COLS * CELL, GY + k * CELL + 0.5); }
    ctx.stroke();
  }

  function drawButton() {
    ctx.fillStyle = game.flagMode ? '#e53935' : '#b8c6d4';
    roundRect(BTN.x, BTN.y, BTN.w, BTN.h, 20);
    drawFlag(BTN.x + 14, BTN.y + 4, 32);
    ctx.fillStyle = game.flagMode ? '#ffffff' : '#2c3e50';
    ctx.font = 'bold 16px ' + FONT;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText('Flag mode: ' + (game.flagMode ? 'ON' : 'OFF'), BTN.x + 52, BTN.y + BTN.h / 2 + 1);
  }

  function drawGameOver() {
    view.card({ shade: ['rgba(30, 40, 55, 0.35)', GX, GY, COLS * CELL, ROWS * CELL],
                w: 400, h: 150, y: GY + (ROWS * CELL - 150) / 2, bg: 'rgba(255,255,255,0.95)',
                title: [game.won ? 'You win!' : 'Boom! Game over', game.won ? '#2e7d32' : '#c62828', 36, 52],
                score: ['Score: ' + game.revealedCount + ' / ' + SAFE_TOTAL, 24, 108] });
  }

  function draw() {
    view.clear();
    drawHeader();
    drawField();
    drawButton();
    if (game.over) drawGameOver();
  }

  view.start();

  // ---- API for the env --------------------------------------------------
  function visibleBoard() {
    var rows = [];
    for (var r = 0; r < ROWS; r++) {
      var s = '';
      for (var c = 0; c < COLS; c++) {
        var idx = r * COLS + c;
        if (game.revealed[idx]) s += String(game.count[idx]);
        else if (game.flagged[idx]) s += game.over && !game.won && !game.mine[idx] ? 'W' : 'F';
        else if (game.over && !game.won && game.mine[idx]) s += idx === game.exploded ? 'X' : '*';
        else s += '#';
      }
      rows.push(s);
    }
    return rows;
  }

  window.hybridgym = K.api('minesweeper', SEED, game, {
    score: function () { return game.revealedCount; },
    state: function () {
      return {
        cols: COLS, rows: ROWS,
        mines: MINES,
        board: visibleBoard(),
        started: game.started,
        revealed: game.revealedCount,
        safeTotal: SAFE_TOTAL,
        flags: game.flags,
        minesLeft: MINES - game.flags,
        clicks: game.clicks,
        flagMode: game.flagMode,
        score: game.revealedCount,
        gameOver: game.over,
        won: game.won,
        grid: view.pageGrid(GX, GY, COLS, ROWS, CELL, CELL),
        flagButton: view.pageBox(BTN.x, BTN.y, BTN.w, BTN.h)
      };
    }
  });
})();
