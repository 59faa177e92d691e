/* Shared pieces of the hybridgym HTML5 games: loaded by each game's index.html before its game.js
 * (both deferred: `<script defer src="../_kit.js"></script>`), it defines `window.hgKit` and nothing else.
 *
 * A game's index.html holds only what differs: its title and its scripts. The kit gives the page
 * the rest at once (language, viewport, the page style) and `view()` adds the #game canvas,
 * labelled "<title> game", and sets the page's background.
 *
 * What it holds is the code the games had copies of: the 800x600 logical canvas scaled to the
 * window with its drawing helpers (`view`: render, clear, shade, roundRect, text, toLogical,
 * pageBox, pageGrid, onPress, onSwipe, onDirInput, titleBar, card), the seeded PRNG
 * (`mulberry32`), reading `?seed=` (`seed`) and other integer parameters, the arrow/WASD keys
 * (`onDirKey`, `dirOf`), the grid cell under a point (`cellAt`), the fixed-step clock of the
 * real-time games (`ticker`), the animation frames of the board games (`frames`), the "solved"
 * banner of the puzzles (`banner`) and their run of puzzles (`puzzles`), the score boxes of the
 * header (`boxDrawer`), the listeners that keep touch scrolling and the context menu away
 * (`blockDefaults`), the `window.hybridgym` API object (`api`), and `paint`/`flush`, through
 * which the env has a game draw once per step.
 * Time comes only from performance.now() and setTimeout; it uses neither requestAnimationFrame
 * nor Math.random, so a game stays a function of its seed, its inputs and the (fake) game time.
 */
(function () {
  'use strict';

  var W = 800, H = 600;
  var FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif';

  // The page around the canvas: a full-window page without scrolling, selection or touch
  // gestures, the canvas positioned by view().
  var PAGE_STYLE = 'html, body { margin: 0; padding: 0; width: 100%; height: 100%; overflow: hidden; ' +
    'touch-action: none; user-select: none; -webkit-user-select: none; }\n' +
    'canvas { position: absolute; display: block; touch-action: none; }';
  var VIEWPORT = 'width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no';

  // Called once, when the kit loads (deferred: the document is parsed).
  function page() {
    document.documentElement.lang = 'en';
    var meta = document.createElement('meta');
    meta.name = 'viewport';
    meta.content = VIEWPORT;
    var style = document.createElement('style');
    style.textContent = PAGE_STYLE;
    document.head.appendChild(meta);
    document.head.appendChild(style);
  }

  // The query string of the page (?seed=..., and game options).
  function params() { return new URLSearchParams(location.search); }

  // A seed from text: the integer it starts with as uint32, 0 when there is none.
  function parseSeed(text) {
    var n = parseInt(text == null ? '0' : text, 10);
    if (!isFinite(n)) n = 0;
    return n >>> 0;
  }

  // The page's ?seed= as uint32.
  function seed() { return parseSeed(params().get('seed')); }

  // An integer parameter clamped to [lo, hi], dflt when missing or not a number.
  function parseIntIn(text, dflt, lo, hi) {
    var n = parseInt(text == null ? '' : text, 10);
    if (!isFinite(n)) return dflt;
    return Math.min(hi, Math.max(lo, n));
  }

  // mulberry32: a small seeded PRNG returning floats in [0, 1).
  function mulberry32(a) {
    return function () {
      a = (a + 0x6D2B79F5) | 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // Arrow keys and WASD (by key, and by code for other layouts) to a direction.
  var DIR_KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    w: 'up', s: 'down', a: 'left', d: 'right', W: 'up', S: 'down', A: 'left', D: 'right'
  };
  var DIR_CODES = { KeyW: 'up', KeyS: 'down', KeyA: 'left', KeyD: 'right' };

  // The direction of a key event, or undefined.
  function dirKey(e) { return DIR_KEYS[e.key] || DIR_CODES[e.code]; }

  // Calls fn(dir) for each arrow/WASD key press (captured, default prevented).
  function onDirKey(fn) {
    window.addEventListener('keydown', function (e) {
      var dir = dirKey(e);
      if (!dir) return;
      e.preventDefault();
      fn(dir);
    }, true);
  }

  // The main direction of a drag by (dx, dy).
  function dirOf(dx, dy) {
    return Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : (dy > 0 ? 'down' : 'up');
  }

  // The [row, col] of the cell under p ({x, y}) in a grid of cols x rows cells of cw x ch whose
  // top-left corner is (x0, y0), or null when p is off the grid.
  function cellAt(p, x0, y0, cw, ch, cols, rows) {
    var c = Math.floor((p.x - x0) / cw), r = Math.floor((p.y - y0) / ch);
    if (c < 0 || r < 0 || c >= cols || r >= rows) return null;
    return [r, c];
  }

  // The animation frames of the board games: restart() cancels the frame to come and draws one
  // now. A frame asks left(now) how many ms of animation are still to come (left may end the
  // animations it finds over) and, if any are, sets the next frame ms later (or at the end, if
  // sooner); then render() draws. running() says whether a frame is to come.
  function frames(ms, left, render) {
    var timer = null;
    function frame() {
      timer = null;
      var rest = left(performance.now());
      if (rest > 0) timer = setTimeout(frame, Math.min(ms, rest));
      render();
    }
    return {
      restart: function () {
        if (timer !== null) clearTimeout(timer);
        timer = null;
        frame();
      },
      running: function () { return timer !== null; }
    };
  }

  // A fixed-step game clock: step() runs for each due time t0 + k * ms (k = 1, 2, ...; t0 is
  // performance.now() at the call), from a setTimeout set for the exact next due time; a late timer
  // runs every step due by then, and render() follows if any ran. Nothing is scheduled while
  // active() is false. The returned object's `next` (the next due time) may be moved by the game;
  // `schedule()` arms the timer.
  function ticker(ms, step, render, active) {
    var clock = { t0: performance.now(), next: 0, timer: null, schedule: schedule };
    clock.next = clock.t0 + ms;

    function loop() {
      clock.timer = null;
      var now = performance.now();
      var n = 0;
      while (active() && now >= clock.next && n < 100000) {
        step();
        clock.next += ms;
        n++;
      }
      if (n) render();
      schedule();
    }
    function schedule() {
      if (!active() || clock.timer !== null) return;
      clock.timer = setTimeout(loop, Math.max(0, clock.next - performance.now()));
    }
    return clock;
  }

  // Every picture of a game is drawn through paint(draw). In a person's browser it draws at once.
  // While the env drives the page it sets window.__hybridgymDefer: paint then only remembers what
  // is to be drawn, and the env calls flush() once it has advanced the clock by a step, so a step
  // of game time costs one drawing, not one per frame. The state never depends on drawing.
  var pending = [];
  function paint(draw) {
    if (!window.__hybridgymDefer) { draw(); return; }
    if (pending.indexOf(draw) < 0) pending.push(draw);
  }
  function flush() {
    var due = pending;
    pending = [];
    for (var i = 0; i < due.length; i++) due[i]();
    return due.length;
  }

  // The "solved" banner of the puzzle games: show() sets game.bannerUntil to ms from now and, when
  // that time comes, back to -1 and calls render(); on(game) says whether the banner is due.
  function banner(game, ms, render) {
    var timer = null;
    return function show() {
      game.bannerUntil = performance.now() + ms;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(function () { timer = null; game.bannerUntil = -1; render(); }, ms);
    };
  }
  function bannerOn(game) { return game.bannerUntil > 0 && performance.now() < game.bannerUntil; }

  // A run of puzzles, each appearing as the one before is solved (lights-out, pipes). The game
  // object gets level (the puzzle on the board, from 1), score (puzzles solved), moves (on this
  // puzzle), totalMoves and the banner's bannerUntil. next() puts up the next puzzle: level + 1,
  // then make() (which may read game.level), then moves 0. moved(solved) counts a move and, if it
  // solved the puzzle, scores it, puts up the next and shows the banner for bannerMs.
  // header(view, drawBox, bg, title, hint): the title bar with the banner's note and the PUZZLE,
  // MOVES and SCORE boxes.
  function puzzles(game, make, bannerMs, render) {
    game.level = 0;
    game.score = 0;
    game.moves = 0;
    game.totalMoves = 0;
    game.bannerUntil = -1;
    var show = banner(game, bannerMs, render);
    function next() {
      game.level++;
      make();
      game.moves = 0;
    }
    function moved(solved) {
      game.moves++;
      game.totalMoves++;
      if (solved) {
        game.score++;
        next();
        show();
      }
    }
    function header(v, drawBox, bg, title, hint) {
      v.titleBar(bg, 72, title, hint, bannerOn(game) ? 'Solved! Here is the next puzzle.' : null);
      drawBox.row([['PUZZLE', game.level], ['MOVES', game.moves], ['SCORE', game.score]], 96, 10);
    }
    return { next: next, moved: moved, header: header };
  }

  // The canvas #game with its W x H logical coordinates, scaled to fit the window (letterboxed,
  // sharp at the device pixel ratio), on a page of colour `background`, the game's own background
  // that clear() paints. `render()` has the game's draw(now) paint the canvas (through paint;
  // now is performance.now()); `fit()` resizes and renders; `start()` fits once and again on
  // every resize. The page gets no touch scrolling and no context menu (blockDefaults).
  function view(draw, background) {
    function picture() { draw(performance.now()); }
    function render() { paint(picture); }
    var canvas = document.createElement('canvas');
    canvas.id = 'game';
    canvas.setAttribute('aria-label', document.title + ' game');
    document.documentElement.style.background = document.body.style.background = background;
    document.body.appendChild(canvas);
    blockDefaults();
    var ctx = canvas.getContext('2d', { alpha: false });   // opaque: the env reads it 0.3 ms faster

    function fit() {
      var vw = window.innerWidth || W, vh = window.innerHeight || H;
      var scale = Math.min(vw / W, vh / H);
      var cw = Math.round(W * scale), ch = Math.round(H * scale);
      var dpr = window.devicePixelRatio || 1;
      canvas.style.width = cw + 'px';
      canvas.style.height = ch + 'px';
      canvas.style.left = Math.floor((vw - cw) / 2) + 'px';
      canvas.style.top = Math.floor((vh - ch) / 2) + 'px';
      canvas.width = Math.round(cw * dpr);
      canvas.height = Math.round(ch * dpr);
      ctx.setTransform(canvas.width / W, 0, 0, canvas.height / H, 0, 0);
      render();
    }

    function roundRect(x, y, w, h, r) {
      ctx.beginPath();
      ctx.roundRect(x, y, w, h, r);
      ctx.fill();
    }

    // Text at (x, y) in `font` (its style, weight and size: 'bold 28px'; the family is FONT),
    // after setting the fill colour, the alignment and the baseline where they are given (the
    // context keeps them for what is drawn next).
    function text(s, x, y, font, colour, align, baseline) {
      if (baseline !== undefined) ctx.textBaseline = baseline;
      if (align !== undefined) ctx.textAlign = align;
      if (colour !== undefined) ctx.fillStyle = colour;
      ctx.font = font + ' ' + FONT;
      ctx.fillText(s, x, y);
    }

    // The whole canvas in the background colour.
    function clear() {
      ctx.fillStyle = background;
      ctx.fillRect(0, 0, W, H);
    }

    // The rectangle (x, y, w, h) filled with colour (a veil over what is drawn, if translucent):
    // the whole canvas when no rectangle is given; with corners of radius r if r is given.
    function shade(colour, x, y, w, h, r) {
      ctx.fillStyle = colour;
      if (x === undefined) ctx.fillRect(0, 0, W, H);
      else if (r === undefined) ctx.fillRect(x, y, w, h);
      else roundRect(x, y, w, h, r);
    }

    // A pointer event's position in logical coordinates, as {x, y}.
    function toLogical(e) {
      var rect = canvas.getBoundingClientRect();
      return { x: (e.clientX - rect.left) * W / rect.width, y: (e.clientY - rect.top) * H / rect.height };
    }

    // A logical rectangle in page (CSS) pixels, as {x, y, w, h}.
    function pageBox(x, y, w, h) {
      var rect = canvas.getBoundingClientRect(), sx = rect.width / W, sy = rect.height / H;
      return { x: rect.left + x * sx, y: rect.top + y * sy, w: w * sx, h: h * sy };
    }

    // A grid of cols x rows logical cells of cw x ch from (x0, y0), in page pixels: the `grid`
    // of a click game's state (x0, y0, cols, rows, cell_w, cell_h).
    function pageGrid(x0, y0, cols, rows, cw, ch) {
      var b = pageBox(x0, y0, cw, ch);
      return { x0: b.x, y0: b.y, cols: cols, rows: rows, cell_w: b.w, cell_h: b.h };
    }

    // Calls fn(p, button) on a press of the left mouse button, a touch or a pen (button 0) and,
    // with `right`, of the right mouse button (2); p is where, in logical coordinates.
    function onPress(fn, right) {
      window.addEventListener('pointerdown', function (e) {
        var button = e.pointerType === 'mouse' ? e.button : 0;
        if (button !== 0 && !(right && button === 2)) return;
        e.preventDefault();
        fn(toLogical(e), button);
      }, { passive: false });
    }

    // The title bar of the puzzle games: a `height` px strip in colour bg with the title and, below
    // it, the hint in translucent white, or, while a banner is due (note not null), a green note.
    function titleBar(bg, height, title, hint, note, hintColor) {
      ctx.fillStyle = bg;
      ctx.fillRect(0, 0, W, height);
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 28px ' + FONT;
      ctx.fillText(title, 24, 28);
      if (note != null) {
        ctx.font = 'bold 14px ' + FONT;
        ctx.fillStyle = '#43a047';
        roundRect(14, 42, ctx.measureText(note).width + 20, 24, 12);
        ctx.fillStyle = '#ffffff';
        ctx.fillText(note, 24, 55);
      } else {
        ctx.font = '14px ' + FONT;
        ctx.fillStyle = hintColor || 'rgba(255,255,255,0.78)';
        ctx.fillText(hint, 24, 54);
      }
    }

    // The end-of-game card, centred horizontally: over a veil o.shade (the arguments of shade(),
    // if given), a rounded panel o.w x o.h (380 x 200) at top o.y (centred on the canvas; colour
    // o.bg, white by default; a 3 px o.border if given) with centred lines: o.title [text, colour,
    // px, dy] (42 px at 56), o.score [text, px, dy] (28 px at 110) in bold dark grey and, if given,
    // o.note [text, dy] (at 156) in 16 px grey; dy from the panel's top.
    function card(o) {
      if (o.shade) shade.apply(null, o.shade);
      var w = o.w || 380, h = o.h || 200;
      var px = (W - w) / 2, py = o.y === undefined ? (H - h) / 2 : o.y;
      var title = o.title.concat([42, 56].slice(o.title.length - 2));
      var score = o.score.concat([28, 110].slice(o.score.length - 1));
      ctx.fillStyle = o.bg || '#ffffff';
      roundRect(px, py, w, h, 16);
      if (o.border) {
        ctx.strokeStyle = o.border;
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.roundRect(px, py, w, h, 16);
        ctx.stroke();
      }
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = title[1];
      ctx.font = 'bold ' + title[2] + 'px ' + FONT;
      ctx.fillText(title[0], W / 2, py + title[3]);
      ctx.fillStyle = '#333333';
      ctx.font = 'bold ' + score[1] + 'px ' + FONT;
      ctx.fillText(score[0], W / 2, py + score[2]);
      if (o.note) {
        ctx.fillStyle = '#777777';
        ctx.font = '16px ' + FONT;
        ctx.fillText(o.note[0], W / 2, py + (o.note.length > 1 ? o.note[1] : 156));
      }
    }

    // Calls fn(dx, dy, p) when a left-button or touch press ends: (dx, dy) its drag in CSS px,
    // p where it began in logical coordinates.
    function onSwipe(fn) {
      var swipe = null;
      window.addEventListener('pointerdown', function (e) {
        if (e.pointerType === 'mouse' && e.button !== 0) return;
        swipe = { id: e.pointerId, x: e.clientX, y: e.clientY, p: toLogical(e) };
        e.preventDefault();
      }, { passive: false });
      window.addEventListener('pointerup', function (e) {
        if (!swipe || e.pointerId !== swipe.id) return;
        var dx = e.clientX - swipe.x, dy = e.clientY - swipe.y, p = swipe.p;
        swipe = null;
        fn(dx, dy, p);
      });
      window.addEventListener('pointercancel', function () { swipe = null; });
    }

    // Arrow/WASD keys and swipes of 24+ CSS px both call fn(dir).
    function onDirInput(fn) {
      onDirKey(fn);
      onSwipe(function (dx, dy) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) >= 24) fn(dirOf(dx, dy));
      });
    }

    function start() {
      window.addEventListener('resize', fit);
      fit();
    }

    return { canvas: canvas, ctx: ctx, render: render, fit: fit, clear: clear, shade: shade, roundRect: roundRect, text: text,
             toLogical: toLogical, pageBox: pageBox, pageGrid: pageGrid, titleBar: titleBar, card: card,
             onPress: onPress, onSwipe: onSwipe, onDirInput: onDirInput, start: start };
  }

  // A header score box drawer: drawBox(label, value, x, w) paints a rounded box at the top with a
  // small label and a white value. style: bg, fg (label colour), y, h, labelY, valueY; optional
  // r (corner, 8), labelPx (12), valuePx (24) and shrink (value font shrinks by 2 px until it fits).
  // drawBox.row([[label, value], ...], w, gap): boxes w wide, gap apart, the last 24 px from the
  // right edge.
  function boxDrawer(v, style) {
    var ctx = v.ctx;
    drawBox.row = function (boxes, w, gap) {
      var n = boxes.length;
      for (var i = 0; i < n; i++) drawBox(boxes[i][0], boxes[i][1], W - 24 - (n - i) * w - (n - 1 - i) * gap, w);
    };
    return drawBox;
    function drawBox(label, value, x, w) {
      ctx.fillStyle = style.bg;
      v.roundRect(x, style.y, w, style.h, style.r || 8);
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = style.fg;
      ctx.font = 'bold ' + (style.labelPx || 12) + 'px ' + FONT;
      ctx.fillText(label, x + w / 2, style.labelY);
      ctx.fillStyle = '#ffffff';
      var size = style.valuePx || 24, text = String(value);
      if (style.shrink) {
        do {
          ctx.font = 'bold ' + size + 'px ' + FONT;
          size -= 2;
        } while (ctx.measureText(text).width > w - 12 && size > 10);
      } else {
        ctx.font = 'bold ' + size + 'px ' + FONT;
      }
      ctx.fillText(text, x + w / 2, style.valueY);
    }
  }

  // No page scrolling by touch and no context menu (right clicks are game input).
  function blockDefaults() {
    window.addEventListener('touchmove', function (e) { e.preventDefault(); }, { passive: false });
    window.addEventListener('contextmenu', function (e) { e.preventDefault(); });
  }

  // The `window.hybridgym` object the env reads: ready, name, seed, score, level, lives and
  // gameOver, which are game.score, game.level, game.lives and game.over unless the game says
  // otherwise (level and lives 1, gameOver false where the game object has no such field), and
  // the game's own fields (state, ...); state() ends with the seed.
  function api(name, seed, game, fields) {
    var o = {
      ready: true, name: name, seed: seed,
      score: function () { return game.score; },
      level: function () { return game.level === undefined ? 1 : game.level; },
      lives: function () { return game.lives === undefined ? 1 : game.lives; },
      gameOver: function () { return !!game.over; }
    };
    for (var k in fields) o[k] = fields[k];
    o.state = function () {
      var s = fields.state();
      s.seed = seed;
      return s;
    };
    return o;
  }

  window.hgKit = {
    W: W, H: H, FONT: FONT,
    params: params, parseSeed: parseSeed, seed: seed, parseIntIn: parseIntIn, mulberry32: mulberry32,
    DIR_KEYS: DIR_KEYS, DIR_CODES: DIR_CODES, dirKey: dirKey, onDirKey: onDirKey, dirOf: dirOf, cellAt: cellAt,
    ticker: ticker, frames: frames, banner: banner, bannerOn: bannerOn, puzzles: puzzles,
    view: view, boxDrawer: boxDrawer, blockDefaults: blockDefaults, api: api, paint: paint, flush: flush
  };
  page();
})();
