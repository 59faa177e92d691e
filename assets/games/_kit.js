/* Shared pieces of the hybridgym HTML5 games: loaded by each game's index.html before its game.js
 * (`<script src="../_kit.js"></script>`), it defines `window.hgKit` and nothing else.
 *
 * What it holds is the code the games had copies of, unchanged: the 800x600 logical canvas scaled
 * to the window with its drawing helpers (`view`: roundRect, toLogical, onSwipe, titleBar, card),
 * the seeded PRNG (`mulberry32`), reading `?seed=` and other integer parameters, the arrow/WASD
 * keys (`onDirKey`, `dirOf`), the fixed-step clock of the real-time games (`ticker`), the "solved"
 * banner of the puzzles (`banner`), the score boxes of the header (`boxDrawer`), the listeners
 * that keep touch scrolling and the context menu away (`blockDefaults`) and the `window.hybridgym`
 * API object (`api`), and `paint`/`flush`, through which the env has a game draw once per step.
 * Time comes only from performance.now() and setTimeout; it uses neither requestAnimationFrame
 * nor Math.random, so a game stays a function of its seed, its inputs and the (fake) game time.
 */
(function () {
  'use strict';

  var W = 800, H = 600;
  var FONT = '"DejaVu Sans", "Liberation Sans", Arial, sans-serif';

  // The query string of the page (?seed=..., and game options).
  function params() { return new URLSearchParams(location.search); }

  // A seed from text: the integer it starts with as uint32, 0 when there is none.
  function parseSeed(text) {
    var n = parseInt(text == null ? '0' : text, 10);
    if (!isFinite(n)) n = 0;
    return n >>> 0;
  }

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

  // The canvas #game with its W x H logical coordinates, scaled to fit the window (letterboxed,
  // sharp at the device pixel ratio). `fit()` resizes and calls `render()`; `start()` fits once
  // and again on every resize.
  function view(render) {
    var canvas = document.getElementById('game');
    var ctx = canvas.getContext('2d');

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

    // A pointer event's position in logical coordinates, as {x, y}.
    function toLogical(e) {
      var rect = canvas.getBoundingClientRect();
      return { x: (e.clientX - rect.left) * W / rect.width, y: (e.clientY - rect.top) * H / rect.height };
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

    // The end-of-game card, centred horizontally: a rounded panel o.w x o.h at top o.y (colour o.bg,
    // white by default; a 3 px o.border if given) with centred lines: o.title [text, colour, px, dy],
    // o.score [text, px, dy] in bold dark grey and, if given, o.note [text, dy] in 16 px grey.
    function card(o) {
      var px = (W - o.w) / 2, py = o.y;
      ctx.fillStyle = o.bg || '#ffffff';
      roundRect(px, py, o.w, o.h, 16);
      if (o.border) {
        ctx.strokeStyle = o.border;
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.roundRect(px, py, o.w, o.h, 16);
        ctx.stroke();
      }
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = o.title[1];
      ctx.font = 'bold ' + o.title[2] + 'px ' + FONT;
      ctx.fillText(o.title[0], W / 2, py + o.title[3]);
      ctx.fillStyle = '#333333';
      ctx.font = 'bold ' + o.score[1] + 'px ' + FONT;
      ctx.fillText(o.score[0], W / 2, py + o.score[2]);
      if (o.note) {
        ctx.fillStyle = '#777777';
        ctx.font = '16px ' + FONT;
        ctx.fillText(o.note[0], W / 2, py + o.note[1]);
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

    return { canvas: canvas, ctx: ctx, fit: fit, roundRect: roundRect, toLogical: toLogical, titleBar: titleBar,
             card: card, onSwipe: onSwipe, onDirInput: onDirInput,
             start: start };
  }

  // A header score box drawer: drawBox(label, value, x, w) paints a rounded box at the top with a
  // small label and a white value. style: bg, fg (label colour), y, h, labelY, valueY; optional
  // r (corner, 8), labelPx (12), valuePx (24) and shrink (value font shrinks by 2 px until it fits).
  function boxDrawer(v, style) {
    var ctx = v.ctx;
    return function drawBox(label, value, x, w) {
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
    };
  }

  // No page scrolling by touch and no context menu (right clicks are game input).
  function blockDefaults() {
    window.addEventListener('touchmove', function (e) { e.preventDefault(); }, { passive: false });
    window.addEventListener('contextmenu', function (e) { e.preventDefault(); });
  }

  function one() { return 1; }

  // The `window.hybridgym` object the env reads: ready, name, seed, level and lives (1 unless the
  // game says otherwise) and the game's own fields (score, gameOver, state, ...).
  function api(name, seed, fields) {
    var o = { ready: true, name: name, seed: seed, level: one, lives: one };
    for (var k in fields) o[k] = fields[k];
    return o;
  }

  window.hgKit = {
    W: W, H: H, FONT: FONT,
    params: params, parseSeed: parseSeed, parseIntIn: parseIntIn, mulberry32: mulberry32,
    DIR_KEYS: DIR_KEYS, DIR_CODES: DIR_CODES, dirKey: dirKey, onDirKey: onDirKey, dirOf: dirOf, ticker: ticker, banner: banner, bannerOn: bannerOn,
    view: view, boxDrawer: boxDrawer, blockDefaults: blockDefaults, api: api, paint: paint, flush: flush
  };
})();
