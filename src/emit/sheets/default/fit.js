// Shrinks text that would overflow its card: each `.carta-fit` block's
// font size, then any card's whole content, in 6 % steps down to 40 %. The
// browser measures the text, so the printed size is whatever fits.
(function () {
  function over(e) { return e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1; }
  function fit(e, box) {
    var size = parseFloat(getComputedStyle(e).fontSize), min = size * 0.4;
    while (over(box) && size > min) { size *= 0.94; e.style.fontSize = size + 'px'; }
  }
  document.querySelectorAll('.carta-card .carta-fit').forEach(function (e) { fit(e, e); });
  document.querySelectorAll('.carta-card').forEach(function (c) { if (c.firstElementChild) fit(c.firstElementChild, c); });

  // When carta asks (`?carta-report` on the page's URL in its export
  // browser, a `<meta name="carta-report">` in its preview), the text that
  // still does not fit is measured once the page has loaded: for each card
  // (once per side), each box some text runs past — the innermost one, the
  // text of a positioned box counting for that box alone, none inside a
  // `data-carta-clip` element — with how far, in CSS px, and the text that
  // did not fit. It is posted beside the page (`.carta-overflow`), for
  // carta to report at the card's field.
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
  function measure() {
    var zoom = parseFloat(getComputedStyle(document.body).zoom) || 1, seen = {}, out = [];
    document.querySelectorAll('.carta-card').forEach(function (c) {
      var side = c.classList.contains('carta-back') ? 'back' : 'face', key = side + ' ' + c.dataset.card;
      if (seen[key] || out.length >= 500) return;
      seen[key] = true;
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
      boxes.forEach(function (b, e) {
        out.push({ card: c.dataset.card || '', side: side, box: desc(e), down: Math.ceil(b.down / zoom),
          across: Math.ceil(b.across / zoom), lines: Object.keys(b.tops).length,
          hidden: cut(b.hidden.join(' ')), text: cut(e.textContent) });
      });
    });
    return out;
  }
  function report() {
    var x = new XMLHttpRequest();
    // Synchronous: the export browser prints only after it was sent.
    x.open('POST', '.carta-overflow', false);
    x.setRequestHeader('Content-Type', 'application/json');
    try { x.send(JSON.stringify({ overflows: measure() })); } catch (e) { /* nobody listens */ }
  }
  if (document.readyState === 'complete') report(); else addEventListener('load', report);
})();
