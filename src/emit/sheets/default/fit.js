// Shrinks text that would overflow its card: each `.carta-fit` block's
// font size, then any card's whole content, in 6 % steps down to 40 %. The
// browser measures the text, so the printed size is whatever fits.
// `window.cartaFit(elements)` fits the cards inside those elements alone
// (the preview calls it on the sheets it replaced).
(function () {
  function over(e) { return e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1; }
  // Each element the fit shrank, and to what share of its size.
  var shrunk = new WeakMap();
  function fit(e, box) {
    var size = parseFloat(getComputedStyle(e).fontSize), start = size, min = size * 0.4;
    while (over(box) && size > min) { size *= 0.94; e.style.fontSize = size + 'px'; }
    if (size < start) shrunk.set(e, (shrunk.get(e) || 1) * size / start);
  }
  function cards(roots) {
    var out = [];
    roots.forEach(function (r) { r.querySelectorAll('.carta-card').forEach(function (c) { out.push(c); }); });
    return out;
  }
  function fitCards(list) {
    list.forEach(function (c) { c.querySelectorAll('.carta-fit').forEach(function (e) { fit(e, e); }); });
    list.forEach(function (c) { if (c.firstElementChild) fit(c.firstElementChild, c); });
  }
  fitCards(cards([document]));
  window.cartaFit = function (roots) { fitCards(cards(roots)); };

  // When carta asks (`?carta-report` on the page's URL in its export
  // browser, a `<meta name="carta-report">` in its preview), the text that
  // still does not fit is measured (in the export browser as soon as the
  // page has loaded; in the preview when it is idle, and again for the
  // sheets `cartaFit` is given): for each card
  // (once per side), each box some text runs past — the innermost one, the
  // text of a positioned box counting for that box alone, none inside a
  // `data-carta-clip` element — with how far, in CSS px, and the text that
  // did not fit; and for a card whose text all fits, each box whose text
  // the fit shrank below the readable size. It is posted beside the page
  // (`.carta-overflow`), for carta to report at the card's field.
  if (!/[?&]carta-report(?:[&=]|$)/.test(location.search) && !document.querySelector('meta[name="carta-report"]')) return;
  function cut(s) { s = s.replace(/\s+/g, ' ').trim(); return s.length > 600 ? s.slice(0, 600) : s; }
  function desc(e) {
    var c = typeof e.className === 'string' ? e.className.trim() : '';
    return e.tagName.toLowerCase() + (c ? '.' + c.split(/\s+/).slice(0, 3).join('.') : '');
  }
  function inner(e, s) {
    var r = e.getBoundingClientRect(), px = function (k) { return parseFloat(s[k]) || 0; };
    return { right: r.right - px('borderRightWidth') - px('paddingRight'), bottom: r.bottom - px('borderBottomWidth') - px('paddingBottom') };
  }
  // The innermost box that text node `n` of card `c` runs past, and by how much.
  function spill(n, c, lines) {
    for (var e = n.parentElement; e; e = e.parentElement) {
      var s = getComputedStyle(e);
      if (s.display !== 'inline' && s.display !== 'contents' && over(e)) {
        var r = inner(e, s), down = 0, across = 0, tops = [];
        for (var i = 0; i < lines.length; i++) {
          var q = lines[i];
          if (q.width === 0 && q.height === 0) continue;
          if (q.bottom > r.bottom + 1) { down = Math.max(down, q.bottom - r.bottom); tops.push(Math.round(q.top)); }
          if (q.right > r.right + 1) across = Math.max(across, q.right - r.right);
        }
        if (down > 0 || across > 0) return { e: e, down: down, across: across, tops: tops };
      }
      if (e === c || s.position === 'absolute' || s.position === 'fixed') return null;
    }
    return null;
  }
  // Whether any box of card `c`, the card included, overflows: text can
  // run past no other, so a card without one has nothing to walk.
  function spills(c) {
    if (over(c)) return true;
    for (var all = c.getElementsByTagName('*'), i = 0; i < all.length; i++) if (over(all[i])) return true;
    return false;
  }
  // The size of a point, in the CSS px a computed font size is given in
  // (zoomed or not), measured once; and the smallest readable size (the
  // body's `data-carta-min-text`, in points).
  var point = 0;
  function pointPx() {
    if (point) return point;
    var probe = document.createElement('span');
    probe.style.fontSize = '100pt';
    document.body.appendChild(probe);
    point = parseFloat(getComputedStyle(probe).fontSize) / 100;
    probe.remove();
    return point;
  }
  var readable = parseFloat(document.body.getAttribute('data-carta-min-text')) || 6;
  // The share of its size the fit left text node `n` of card `c`.
  function shareOf(n, c) {
    var share = 1;
    for (var a = n.parentElement; a && a !== c; a = a.parentElement) share *= shrunk.get(a) || 1;
    return share;
  }
  // The boxes of card `c` (its `.carta-fit` boxes, then its whole
  // content) in which the fit shrank readable text below the readable
  // size: the smallest size, in tenths of a point, and the text of the
  // box's longest block — the field that took the room, not the one it
  // pushed out.
  function small(c, side) {
    var out = [], pt = pointPx(), seen = new Set();
    var list = Array.prototype.slice.call(c.querySelectorAll('.carta-fit'));
    if (c.firstElementChild) list.push(c.firstElementChild);
    list.forEach(function (e) {
      if (!shrunk.has(e)) return;
      var least = Infinity, blocks = new Map(), walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (var n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent.trim() || seen.has(n) || n.parentElement.closest('[data-carta-clip]')) continue;
        var size = parseFloat(getComputedStyle(n.parentElement).fontSize) / pt;
        if (size >= readable || size / shareOf(n, c) < readable) continue;
        seen.add(n);
        least = Math.min(least, size);
        var b = n.parentElement;
        while (b !== e && /^(inline|contents)$/.test(getComputedStyle(b).display)) b = b.parentElement;
        blocks.set(b, (blocks.get(b) || 0) + n.textContent.length);
      }
      if (least === Infinity) return;
      var longest = e, most = -1;
      blocks.forEach(function (len, b) { if (len > most) { most = len; longest = b; } });
      out.push({ card: c.dataset.card || '', side: side, box: desc(e), down: 0, across: 0, lines: 0,
        hidden: cut(longest.textContent), text: cut(e.textContent), shrunk_to: Math.floor(least * 10) });
    });
    return out;
  }
  // The boxes of card `c` that text runs past: how far, the lines past
  // the bottom, the text that did not fit.
  function overflows(c) {
    var boxes = new Map(), walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim() || n.parentElement.closest('[data-carta-clip]')) continue;
      var range = document.createRange();
      range.selectNodeContents(n);
      var lines = range.getClientRects();
      var found = lines.length ? spill(n, c, lines) : null;
      if (!found) continue;
      var b = boxes.get(found.e) || { down: 0, across: 0, tops: {}, hidden: [] };
      b.down = Math.max(b.down, found.down);
      b.across = Math.max(b.across, found.across);
      found.tops.forEach(function (t) { b.tops[t] = true; });
      b.hidden.push(n.textContent);
      boxes.set(found.e, b);
    }
    return boxes;
  }
  // What card `c` (side and id: `key`) has that does not fit, or else
  // what fits only in text too small to read.
  function measure(c, side, zoom) {
    var boxes = spills(c) ? overflows(c) : new Map(), out = [];
    boxes.forEach(function (b, e) {
      out.push({ card: c.dataset.card || '', side: side, box: desc(e), down: Math.ceil(b.down / zoom),
        across: Math.ceil(b.across / zoom), lines: Object.keys(b.tops).length,
        hidden: cut(b.hidden.join(' ')), text: cut(e.textContent) });
    });
    return boxes.size ? out : small(c, side);
  }
  // Each card's (once per side) boxes that text runs past, by side and id;
  // the cards waiting to be measured, and those measured in this pass.
  var found = new Map(), queue = [], done = {};
  function keyOf(c) { return (c.classList.contains('carta-back') ? 'back' : 'face') + ' ' + c.dataset.card; }
  // Measures queued cards until `more()` says to stop; whether all were.
  function drain(more) {
    var zoom = parseFloat(getComputedStyle(document.body).zoom) || 1;
    while (queue.length && more()) {
      var c = queue.shift(), side = c.classList.contains('carta-back') ? 'back' : 'face', key = keyOf(c);
      if (done[key] || !c.isConnected) continue;
      done[key] = true;
      var boxes = measure(c, side, zoom);
      if (boxes.length) found.set(key, { card: c, boxes: boxes }); else found.delete(key);
    }
    return !queue.length;
  }
  // A print shop's preflight (a body marked `data-carta-preflight`): for
  // each card side once, how far its text and its `data-carta-safe`
  // elements reach past its safe area (the card's `data-carta-bleed-mm`
  // and `data-carta-safe-mm` insets inside its box), and each picture's
  // pixel size against the size it is drawn at, in mm.
  function placements() {
    var out = [], seen = {};
    document.querySelectorAll('.carta-card').forEach(function (c) {
      var key = keyOf(c), outer = parseFloat(c.dataset.cartaOuterMm);
      if (seen[key] || !(outer > 0)) return;
      seen[key] = true;
      var r = c.getBoundingClientRect(), mm = r.width / outer;
      var inset = ((parseFloat(c.dataset.cartaBleedMm) || 0) + (parseFloat(c.dataset.cartaSafeMm) || 0)) * mm;
      var side = c.classList.contains('carta-back') ? 'back' : 'face', card = c.dataset.card || '';
      function past(q) {
        if (q.width === 0 && q.height === 0) return 0;
        return Math.max(r.left + inset - q.left, q.right - (r.right - inset), r.top + inset - q.top, q.bottom - (r.bottom - inset), 0) / mm;
      }
      var worst = { past: 0, text: '' }, walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
      for (var n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent.trim() || n.parentElement.closest('[data-carta-clip]')) continue;
        var range = document.createRange();
        range.selectNodeContents(n);
        Array.prototype.forEach.call(range.getClientRects(), function (q) {
          var p = past(q);
          if (p > worst.past) worst = { past: p, text: n.textContent };
        });
      }
      if (worst.past > 0.05) out.push({ card: card, side: side, what: 'text', past: worst.past, text: cut(worst.text) });
      c.querySelectorAll('[data-carta-safe]').forEach(function (e) {
        var p = past(e.getBoundingClientRect());
        if (p > 0.05) out.push({ card: card, side: side, what: 'marked', past: p, text: desc(e) });
      });
      c.querySelectorAll('img').forEach(function (e) {
        var q = e.getBoundingClientRect();
        if (!e.naturalWidth || !q.width || /\.svg$/i.test(e.getAttribute('src') || '')) return;
        out.push({ card: card, side: side, what: 'art', text: cut(e.getAttribute('src') || ''),
          pixels: [e.naturalWidth, e.naturalHeight], size: [q.width / mm, q.height / mm] });
      });
    });
    return out.slice(0, 500);
  }
  // The report: the boxes of the cards still on the page, at most 500.
  function report(sync) {
    done = {};
    var out = [];
    found.forEach(function (f, key) {
      // A card measured on a sheet since replaced counts while a copy is left.
      var sel = '.carta-card.carta-' + key.split(' ')[0] + '[data-card="' + CSS.escape(f.card.dataset.card || '') + '"]';
      if (f.card.isConnected || document.querySelector(sel)) out = out.concat(f.boxes); else found.delete(key);
    });
    var x = new XMLHttpRequest();
    // Synchronous in the export browser: it prints only after it was sent.
    x.open('POST', '.carta-overflow', !sync);
    x.setRequestHeader('Content-Type', 'application/json');
    try { x.send(JSON.stringify({ overflows: out.slice(0, 500), placements: document.body.hasAttribute('data-carta-preflight') ? placements() : [] })); } catch (e) { /* nobody listens */ }
  }
  var exporting = /[?&]carta-report(?:[&=]|$)/.test(location.search), waiting = false;
  // The preview measures when the page is idle, a slice at a time, so
  // that showing a change never waits for it; then it posts the report.
  function idle(deadline) {
    var start = Date.now();
    if (drain(function () { return deadline.timeRemaining() > 1 || Date.now() - start < 8; })) { waiting = false; report(false); } else later();
  }
  function later() {
    if (window.requestIdleCallback) requestIdleCallback(idle, { timeout: 500 });
    else setTimeout(function () { idle({ timeRemaining: function () { return 8; } }); }, 0);
  }
  function ask(list) {
    // A card put in place again is measured again, even in this pass.
    list.forEach(function (c) { delete done[keyOf(c)]; });
    queue = queue.concat(list);
    if (exporting) { drain(function () { return found.size < 500; }); report(true); } else if (!waiting) { waiting = true; later(); }
  }
  window.cartaFit = function (roots) { var list = cards(roots); fitCards(list); ask(list); };
  function start() { ask(cards([document])); }
  if (document.readyState === 'complete') start(); else addEventListener('load', start);
})();
