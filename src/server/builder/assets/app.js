// carta's deck builder: plain JavaScript, no build step. Every page is
// drawn from the server's JSON; every verdict comes from the server.
(function () {
  'use strict';
  var body = document.body;
  var page = body.dataset.page;
  var gameId = body.dataset.game;
  var main = document.getElementById('cb-main');
  var nav = document.getElementById('cb-nav');

  function el(tag, attrs) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') e.textContent = v;
      else if (k === 'html') e.innerHTML = v;
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    });
    for (var i = 2; i < arguments.length; i++) {
      var kid = arguments[i];
      if (kid === null || kid === undefined) continue;
      (Array.isArray(kid) ? kid : [kid]).forEach(function (k) {
        e.appendChild(typeof k === 'string' ? document.createTextNode(k) : k);
      });
    }
    return e;
  }

  function api(method, url, data) {
    var init = { method: method, headers: {} };
    if (data !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(data);
    }
    return fetch(url, init).then(function (r) {
      return r.json().catch(function () { return { error: 'the server sent no JSON' }; })
        .then(function (j) { return { ok: r.ok, status: r.status, data: j }; });
    });
  }

  function link(href, text) { return el('a', { href: href, text: text }); }

  // Engine messages carry light markdown: `*rule*` and `` `id` ``. They are
  // shown as emphasis and code — a quoted word `refs` knows (a card's id)
  // in its words (the card's name) — never as raw markers. `plain` is the
  // same text for a title attribute.
  var MARKS = /`([^`]+)`|\*([^*]+)\*/g;
  function rich(text, refs) {
    var out = [], last = 0, m;
    text = String(text || '');
    MARKS.lastIndex = 0;
    while ((m = MARKS.exec(text))) {
      if (m.index > last) out.push(text.slice(last, m.index));
      if (m[1] === undefined) out.push(el('em', { text: m[2] }));
      else if (refs && refs[m[1]]) out.push(el('span', { class: 'cb-ref', 'data-ref': m[1], text: refs[m[1]].name }));
      else out.push(el('code', { text: m[1] }));
      last = MARKS.lastIndex;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }
  function plain(text, refs) {
    return String(text || '').replace(MARKS, function (_, code, em) {
      if (em !== undefined) return em;
      return refs && refs[code] ? refs[code].name : code;
    });
  }

  // Lower case without accents: "leonidas" finds Leônidas.
  function norm(s) {
    return String(s).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  }

  // ---- cards: search, facets, sort (shared by the browser and the builder)
  // How well a card matches the search words, best first: 0 its name is
  // the search, 1 its name starts with it, 2 every word starts a word of
  // its name, 3 every word is in its name, 4 in its id or other fields
  // (its text, its enum values, the flags it has); -1 no match.
  function relevance(c, words) {
    if (!words.length) return 0;
    if (c._name === undefined) {
      c._name = norm(c.name);
      c._words = c._name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
      c._hay = norm(c.id + '\n' + c.text);
    }
    var whole = words.join(' ');
    if (c._name === whole) return 0;
    if (c._name.indexOf(whole) === 0) return 1;
    if (words.every(function (w) { return c._words.some(function (n) { return n.indexOf(w) === 0; }); })) return 2;
    if (words.every(function (w) { return c._name.indexOf(w) >= 0; })) return 3;
    if (words.every(function (w) { return c._name.indexOf(w) >= 0 || c._hay.indexOf(w) >= 0; })) return 4;
    return -1;
  }

  function searchWords(q) { return norm(q.search).split(/\s+/).filter(Boolean); }

  function matcher(game, q) {
    var words = searchWords(q);
    return function (c) {
      if (q.kind && c.kind !== q.kind) return false;
      // Kept on the card for the sort that follows (once per card, not
      // once per comparison).
      c._rank = relevance(c, words);
      if (c._rank < 0) return false;
      return game.facets.every(function (f) {
        var v = c.values[f.field];
        var want = q.facets[f.field];
        if (f.kind === 'enum') return !want || v === want;
        if (f.kind === 'boolean') return !want || (want === 'yes') === (v === true);
        var lo = q.facets[f.field + '.min'], hi = q.facets[f.field + '.max'];
        if (lo === undefined && hi === undefined) return true;
        if (typeof v !== 'number') return false;
        return (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
      });
    };
  }

  // The cards a query shows: the best matches first, then by the sort.
  function select(game, cards, q) {
    var by = sorter(game, q.sort);
    return cards.filter(matcher(game, q)).sort(function (a, b) {
      return (a._rank - b._rank) || by(a, b);
    });
  }

  function sorter(game, key) {
    var kinds = game.kinds.map(function (k) { return k.id; });
    return function (a, b) {
      if (key === 'kind') {
        var d = kinds.indexOf(a.kind) - kinds.indexOf(b.kind);
        if (d) return d;
      } else if (key && key !== 'name') {
        var x = a.values[key], y = b.values[key];
        var hx = typeof x === 'number', hy = typeof y === 'number';
        if (hx !== hy) return hx ? -1 : 1;
        if (hx && x !== y) return x - y;
      }
      return a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
    };
  }

  function kindName(game, id) {
    var k = game.kinds.filter(function (k) { return k.id === id; })[0];
    return k ? k.name : id;
  }

  // The controls; `changed` runs on every edit with the query. The facets
  // (every enum, integer and boolean field) go in `facetBox` when given.
  function controls(game, facetBox, changed) {
    var q = { search: '', kind: '', sort: 'kind', facets: {} };
    var box = el('div', { class: 'cb-controls' });
    var fire = function () { changed(q); };
    box.appendChild(el('label', {}, 'Search ', el('input', {
      id: 'cb-search', type: 'search', placeholder: 'name, text or flag',
      oninput: function (e) { q.search = e.target.value; fire(); }
    })));
    box.appendChild(el('label', {}, 'Kind ', el('select', {
      id: 'cb-kind', onchange: function (e) { q.kind = e.target.value; fire(); }
    }, el('option', { value: '', text: 'all' }), game.kinds.map(function (k) {
      return el('option', { value: k.id, text: k.name });
    }))));
    var facets = facetBox || box;
    game.facets.forEach(function (f) {
      var set = function (key) {
        return function (e) {
          var v = e.target.value;
          q.facets[key] = v === '' ? undefined : (f.kind === 'integer' ? Number(v) : v);
          fire();
        };
      };
      if (f.kind === 'enum' || f.kind === 'boolean') {
        var options = f.kind === 'enum' ? f.values.map(function (v) { return [v, v]; }) : [['yes', 'yes'], ['no', 'no']];
        facets.appendChild(el('label', {}, f.title + ' ', el('select', { 'data-facet': f.field, onchange: set(f.field) },
          el('option', { value: '', text: 'any' }), options.map(function (o) {
            return el('option', { value: o[0], text: o[1] });
          }))));
      } else {
        var num = function (end) {
          return el('input', {
            type: 'number', min: f.min, max: f.max, placeholder: end === 'min' ? f.min : f.max,
            'aria-label': f.title + (end === 'min' ? ' from' : ' to'),
            'data-facet': f.field + '.' + end, oninput: set(f.field + '.' + end)
          });
        };
        facets.appendChild(el('span', { class: 'cb-range' }, f.title + ' ', num('min'), '–', num('max')));
      }
    });
    var sorts = [['kind', 'kind'], ['name', 'name']].concat(game.facets
      .filter(function (f) { return f.kind === 'integer'; })
      .map(function (f) { return [f.field, f.title]; }));
    box.appendChild(el('label', {}, 'Sort by ', el('select', {
      id: 'cb-sort', onchange: function (e) { q.sort = e.target.value; fire(); }
    }, sorts.map(function (s) { return el('option', { value: s[0], text: s[1] }); }))));
    return { box: box, query: q };
  }

  // A card's printed face: a picture of the card as the game's templates
  // print it (its colours are the game's design, not the page's), read out
  // as its words — every text field of the card.
  function face(c, zoom) {
    var w = c.width || 63, h = c.height || 88;
    var card = el('div', {
      class: 'carta-card carta-face carta-kind-' + c.kind, 'data-card': c.id,
      style: 'width:' + w + 'mm;height:' + h + 'mm;--bleed:0mm;--safe:3mm', html: c.face || ''
    });
    var words = [c.name].concat(String(c.text || '').split('\n').filter(function (t) { return t && t !== c.name; }));
    return el('div', {
      class: 'cb-face', role: 'img', 'aria-label': words.join('. '),
      style: 'width:' + w + 'mm;height:' + h + 'mm' + (zoom ? ';zoom:' + zoom : '')
    }, card);
  }

  function loadGame() {
    return api('GET', '/api/games/' + encodeURIComponent(gameId)).then(function (r) {
      if (!r.ok) throw new Error(r.data.error);
      var game = r.data;
      nav.appendChild(el('span', { text: game.name }));
      nav.appendChild(link('/play/' + gameId + '/cards', 'Cards'));
      nav.appendChild(link('/play/' + gameId + '/deck', 'Deck builder'));
      nav.appendChild(link('/play/organize', 'Organisers'));
      return game;
    });
  }

  // ---- the games
  function indexPage() {
    nav.appendChild(link('/play/organize', 'Organisers'));
    api('GET', '/api/games').then(function (r) {
      main.appendChild(el('h1', { text: 'Games' }));
      main.appendChild(el('ul', { class: 'cb-games' }, r.data.map(function (g) {
        return el('li', { 'data-game': g.id }, el('b', { text: g.name }), ' — ',
          link('/play/' + g.id + '/cards', 'browse ' + g.cards + ' cards'), ' · ',
          g.zones ? link('/play/' + g.id + '/deck', 'build a deck') : el('span', { class: 'cb-muted', text: 'no decks' }),
          g.description ? el('div', { class: 'cb-muted', text: g.description }) : null);
      })));
    });
  }

  // ---- the card browser
  function cardsPage(game) {
    main.appendChild(el('h1', { text: game.name + ' — cards' }));
    var count = el('p', { id: 'cb-count', class: 'cb-muted', role: 'status' });
    var grid = el('div', { class: 'cb-grid', id: 'cb-grid' });
    var draw = function (q) {
      var shown = select(game, game.cards, q);
      count.textContent = shown.length + ' of ' + game.cards.length + ' cards';
      grid.textContent = '';
      shown.forEach(function (c) {
        grid.appendChild(el('figure', { class: 'cb-tile', 'data-card': c.id, style: 'margin:0' },
          face(c), el('figcaption', {}, el('b', { text: c.name }), ' · ' + kindName(game, c.kind))));
      });
    };
    var ctl = controls(game, null, draw);
    main.appendChild(ctl.box);
    main.appendChild(count);
    main.appendChild(grid);
    draw(ctl.query);
  }

  // ---- the deck builder
  function deckPage(game) {
    var byId = Object.create(null);
    game.cards.forEach(function (c) { byId[c.id] = c; });
    // What a message quotes, in words: a card's id or name (a copy key) as
    // its name, a kind's id as the kind's name.
    var refs = Object.create(null);
    game.cards.forEach(function (c) { refs[c.name] = { name: c.name }; });
    game.kinds.forEach(function (k) { refs[k.id] = { name: k.name }; });
    game.cards.forEach(function (c) { refs[c.id] = c; });
    var deck = { name: 'New deck', format: null, zones: {} };
    game.zones.forEach(function (z) { deck.zones[z.id] = {}; });
    var verdict = null;
    var asked = 0;
    // The card last added, and where: the culprit of a count it breaks.
    var lastAdded = null;
    // Undo and redo: snapshots of the deck's format and zones.
    var past = [], future = [];

    main.appendChild(el('h1', { text: game.name + ' — deck builder' }));
    var poolBox = el('div', { class: 'cb-pool', id: 'cb-pool', role: 'list', 'aria-label': 'Cards' });
    var zonesBox = el('div', { id: 'cb-zones', role: 'region', 'aria-label': 'The deck', tabindex: '0' });
    var verdictBox = el('div', { id: 'cb-verdict', class: 'cb-panel', role: 'region', 'aria-label': 'Verdict', tabindex: '0' }, 'Checking…');
    // What a screen reader announces of each new verdict (a short line).
    var announce = el('div', { id: 'cb-announce', class: 'cb-sr', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    var chartBox = el('div', { id: 'cb-chart', class: 'cb-panel' });
    var preview = el('div', { class: 'cb-preview', id: 'cb-preview', 'aria-hidden': 'true' });
    var big = el('div', { class: 'cb-big', id: 'cb-big', role: 'dialog', 'aria-label': 'Card', hidden: true });
    var nameInput = el('input', {
      id: 'cb-name', value: deck.name, size: 24,
      oninput: function (e) { deck.name = e.target.value; changed(); }
    });
    var formatSelect = game.formats.length ? el('select', {
      id: 'cb-format', onchange: function (e) { remember(); deck.format = e.target.value || null; changed(); }
    }, el('option', { value: '', text: game.name + '\u2019s own rules' }), game.formats.map(function (f) {
      return el('option', { value: f.id, text: f.name, title: f.description || null });
    })) : null;
    var times = el('input', { id: 'cb-times', type: 'number', min: 1, max: 99, value: 1, 'aria-describedby': 'cb-times-help' });
    var undoButton = el('button', { id: 'cb-undo', text: 'Undo', title: 'Ctrl+Z', disabled: true, onclick: function () { undo(); } });
    var redoButton = el('button', { id: 'cb-redo', text: 'Redo', title: 'Ctrl+Shift+Z', disabled: true, onclick: function () { redo(); } });
    var code = el('textarea', { id: 'cb-code', rows: 3, readonly: true, 'aria-label': 'Deck code' });
    var shareLink = el('a', { id: 'cb-link', href: '#', text: 'share link' });
    var importText = el('input', { id: 'cb-import-text', placeholder: 'paste a deck code', size: 24, 'aria-label': 'Deck code to import' });
    var importMsg = el('span', { id: 'cb-import-msg', role: 'status' });
    var fileInput = el('input', { id: 'cb-file', placeholder: 'file name (from the deck name)', size: 24, 'aria-label': 'File name to save as' });
    var saveMsg = el('span', { id: 'cb-save-msg', role: 'status' });
    var replace = el('button', { id: 'cb-replace', style: 'display:none', text: 'Replace it', onclick: function () { save(true); } });
    var share = el('div', { class: 'cb-panel cb-share', id: 'cb-share' },
      el('h2', { text: 'Share' }),
      el('div', {}, 'Deck code: ', shareLink), code,
      el('div', {}, importText, ' ', el('button', { id: 'cb-import', text: 'Import', onclick: importCode }), ' ', importMsg),
      el('div', { style: 'margin-top:6px' }, fileInput, ' ',
        el('button', { id: 'cb-save', text: 'Save to ' + game.save_to + '/', onclick: function () { save(false); } }),
        ' ', replace, ' ', saveMsg));
    var facetBox = el('div', { class: 'cb-controls' });
    var ctl = controls(game, facetBox, function () { drawPool(); });
    var filters = game.facets.length ? el('details', { class: 'cb-filters' }, el('summary', { text: 'Filters' }), facetBox) : null;
    var TIMES_HELP = 'copies per add, up to the copy limit';
    var timesHelp = el('span', { id: 'cb-times-help', class: 'cb-muted', role: 'status', text: TIMES_HELP });
    var edit = el('div', { class: 'cb-controls' },
      el('label', {}, 'Add ×', times), timesHelp,
      undoButton, redoButton);
    // The player's collection (owned only, owned counts, missing copies): collection.js.
    var owned = window.cartaCollection ? window.cartaCollection.deck({ game: game, el: el, api: api, controls: edit, drawPool: drawPool, recheck: changed }) : null;
    main.appendChild(el('div', { class: 'cb-builder' },
      el('section', { class: 'cb-find', 'aria-label': 'Find cards' }, ctl.box, filters, edit, poolBox),
      el('section', { class: 'cb-side', 'aria-label': 'Your deck' },
        verdictBox, chartBox,
        el('div', { class: 'cb-panel' }, el('label', {}, 'Name ', nameInput),
          formatSelect ? el('label', { class: 'cb-format' }, 'Format ', formatSelect) : null, zonesBox),
        share)));
    main.appendChild(announce);
    main.appendChild(preview);
    main.appendChild(big);

    function zoneName(id) {
      var z = game.zones.filter(function (z) { return z.id === id; })[0];
      return z ? z.name : id;
    }
    function zoneTotal(id) {
      var lines = deck.zones[id] || {};
      return Object.keys(lines).reduce(function (s, c) { return s + lines[c]; }, 0);
    }
    function unavailable(card, zone) {
      if (!verdict) return null;
      return verdict.unavailable.filter(function (u) { return u.card === card && u.zone === zone; })[0] || null;
    }
    // The most copies of `card` its zone takes under the deck's format.
    function limit(card, zone) {
      var c = byId[card], l = c && c.limits[deck.format || ''];
      return l && l[zone] !== undefined ? l[zone] : null;
    }

    // ---- undo and redo
    function snapshot() { return JSON.stringify({ format: deck.format, zones: deck.zones }); }
    function remember() {
      past.push(snapshot());
      if (past.length > 200) past.shift();
      future = [];
    }
    function restore(from, to) {
      if (!from.length) return;
      to.push(snapshot());
      var s = JSON.parse(from.pop());
      deck.format = s.format;
      if (formatSelect) formatSelect.value = deck.format || '';
      deck.zones = s.zones;
      lastAdded = null;
      changed();
    }
    function undo() { restore(past, future); }
    function redo() { restore(future, past); }

    // Adds `n` copies (less than 0: removes); an add of more than one stops
    // at the card's copy limit (a single copy may go past it: the verdict
    // then says which rule that breaks).
    function add(zone, card, n) {
      var lines = deck.zones[zone];
      var have = lines[card] || 0, cap = limit(card, zone);
      if (n > 1 && cap !== null) {
        n = Math.min(n, cap - have);
        if (n <= 0) {
          timesHelp.textContent = byId[card].name + ' has ' + have + ' copies, its limit';
          announce.textContent = timesHelp.textContent;
          return;
        }
      }
      timesHelp.textContent = TIMES_HELP;
      remember();
      if (have + n > 0) lines[card] = have + n; else delete lines[card];
      lastAdded = n > 0 ? { zone: zone, card: card } : lastAdded;
      changed();
    }
    function show(c) {
      preview.textContent = '';
      if (c) preview.appendChild(face(c, 0.9));
    }

    // ---- the large card view: opened by a card's name (click, Enter or
    // Space), closed by Escape, its Close button, the pointer leaving it or
    // a click beside it.
    var opener = null;
    function openBig(c, from) {
      opener = from || null;
      big.textContent = '';
      var px = (c.width || 63) * 96 / 25.4;
      var zoom = Math.max(0.5, Math.min(1.6, (window.innerWidth - 48) / px, (window.innerHeight - 96) / ((c.height || 88) * 96 / 25.4)));
      big.setAttribute('aria-label', c.name);
      big.dataset.card = c.id;
      var close = el('button', { class: 'cb-close', text: 'Close', 'aria-label': 'Close ' + c.name, onclick: closeBig });
      big.appendChild(el('div', { class: 'cb-big-bar' }, el('b', { text: c.name }), ' · ' + kindName(game, c.kind), close));
      big.appendChild(face(c, zoom));
      big.hidden = false;
      preview.textContent = '';
      close.focus();
    }
    function closeBig() {
      if (big.hidden) return;
      big.hidden = true;
      big.textContent = '';
      if (opener && document.body.contains(opener)) opener.focus();
      opener = null;
    }
    big.addEventListener('mouseleave', closeBig);
    document.addEventListener('mousedown', function (e) {
      if (!big.hidden && !big.contains(e.target)) closeBig();
    });

    // ---- keyboard: focus kept across redraws, shortcuts
    function keyed(fn) {
      var a = document.activeElement;
      var key = a && a.dataset ? a.dataset.key : null;
      var top = poolBox.scrollTop;
      fn();
      poolBox.scrollTop = top;
      if (!key || (document.activeElement && document.activeElement !== document.body && document.body.contains(document.activeElement))) return;
      var parts = key.split('|');
      var again = find(key) || find('add|' + parts[1] + '|' + parts[2]) || find('zone|' + parts[1]);
      if (again) again.focus({ preventScroll: false });
    }
    function find(key) {
      return document.querySelector('[data-key="' + CSS.escape(key) + '"]');
    }
    function typing(t) {
      return t && (t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || (t.tagName === 'INPUT' && t.type !== 'button'));
    }
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && !big.hidden) { e.preventDefault(); closeBig(); return; }
      var mod = e.ctrlKey || e.metaKey;
      if (mod && !typing(e.target) && (e.key === 'z' || e.key === 'Z' || e.key === 'y')) {
        e.preventDefault();
        if (e.key === 'y' || e.shiftKey) redo(); else undo();
        return;
      }
      if (e.key === '/' && !mod && !typing(e.target)) {
        e.preventDefault();
        document.getElementById('cb-search').focus();
        return;
      }
      // Up and down move between the pool's rows (from the search: into them).
      if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !mod) move(e);
    });
    function move(e) {
      var t = e.target;
      var inPool = poolBox.contains(t) && t.tagName === 'BUTTON';
      if (!inPool && !(t.id === 'cb-search' && e.key === 'ArrowDown')) return;
      var rows = Array.prototype.slice.call(poolBox.children);
      var row = inPool ? t.closest('.cb-row') : null;
      var i = row ? rows.indexOf(row) + (e.key === 'ArrowDown' ? 1 : -1) : 0;
      if (i < 0) { document.getElementById('cb-search').focus(); e.preventDefault(); return; }
      if (i >= rows.length) return;
      var buttons = rows[i].querySelectorAll('button');
      var col = row ? Array.prototype.indexOf.call(row.querySelectorAll('button'), t) : 1;
      var to = buttons[Math.min(Math.max(col, 0), buttons.length - 1)];
      if (to) { e.preventDefault(); to.focus(); }
    }

    // ---- the pool, the deck's zones, the verdict
    function drawPool() { keyed(drawPoolNow); }
    function drawPoolNow() {
      var shown = select(game, game.cards.filter(function (c) { return c.zones.length && (!owned || owned.keep(c)); }), ctl.query);
      poolBox.textContent = '';
      shown.forEach(function (c) {
        var blocked = c.zones.map(function (z) { return unavailable(c.id, z); }).filter(Boolean);
        var why = blocked.length ? 'would break: ' + blocked.map(function (b) { return b.rules.map(function (r) { return plain(r, refs); }).join(', '); }).join('; ') : null;
        var row = el('div', {
          class: 'cb-row' + (blocked.length === c.zones.length ? ' cb-unavailable' : ''),
          role: 'listitem', 'data-card': c.id, title: why
        },
          el('button', {
            class: 'cb-name', type: 'button', 'aria-haspopup': 'dialog', 'data-key': 'show|pool|' + c.id, text: c.name,
            onmouseenter: function () { show(c); }, onclick: function (e) { openBig(c, e.currentTarget); }
          }),
          el('span', { class: 'cb-kind', text: kindName(game, c.kind) }),
          c.zones.map(function (z) {
            var b = unavailable(c.id, z);
            return el('button', {
              'data-add': z, 'data-key': 'add|' + z + '|' + c.id, title: b ? why : null,
              'aria-label': 'Add ' + c.name + ' to ' + zoneName(z) + (b ? ' (would break a rule)' : ''),
              text: '+ ' + zoneName(z), onclick: function () { add(z, c.id, Math.max(1, Math.floor(Number(times.value) || 1))); }
            });
          }), owned ? owned.row(c) : null);
        poolBox.appendChild(row);
      });
    }

    // The cards to mark for each broken rule: the card a rule names; for
    // a rule over many lines (a count, a share), the card just added if it
    // is one of them, else those lines when they are few.
    function blamed() {
      var out = {};
      (verdict ? verdict.problems : []).forEach(function (p) {
        var marked = p.card ? [p.card] : [];
        if (!p.card && p.cards.length) {
          if (lastAdded && p.cards.indexOf(lastAdded.card) >= 0) marked = [lastAdded.card];
          else if (p.cards.length <= 3) marked = p.cards;
        }
        marked.forEach(function (c) { (out[c] = out[c] || []).push(plain(p.name, refs)); });
      });
      return out;
    }

    function drawZones() { keyed(drawZonesNow); }
    function drawZonesNow() {
      zonesBox.textContent = '';
      var bad = blamed();
      game.zones.forEach(function (z) {
        var lines = deck.zones[z.id];
        var ids = Object.keys(lines).sort(function (a, b) { return sorter(game, 'kind')(byId[a], byId[b]); });
        zonesBox.appendChild(el('div', { class: 'cb-zone', 'data-zone': z.id },
          el('h3', { tabindex: '-1', 'data-key': 'zone|' + z.id }, el('span', { text: z.name }),
            el('span', { class: 'cb-muted', 'data-total': z.id, text: zoneTotal(z.id) + ' cards' })),
          ids.length ? null : el('div', { class: 'cb-muted', text: 'empty: add ' + z.kinds.map(function (k) { return kindName(game, k); }).join(', ') }),
          ids.map(function (id) { return line(z, id, lines[id], bad[id]); })));
      });
    }
    function line(z, id, n, bad) {
      var c = byId[id], name = c ? c.name : id;
      return el('div', {
        class: 'cb-line' + (bad ? ' cb-bad' : ''), 'data-line': z.id + '/' + id,
        title: bad ? 'breaks: ' + bad.join(', ') : null
      },
        el('span', { class: 'cb-n', text: String(n) }),
        el('button', { 'data-dec': '', 'data-key': 'dec|' + z.id + '|' + id, text: '−', 'aria-label': 'One less ' + name, onclick: function () { add(z.id, id, -1); } }),
        el('button', { 'data-inc': '', 'data-key': 'inc|' + z.id + '|' + id, text: '+', 'aria-label': 'One more ' + name, onclick: function () { add(z.id, id, 1); } }),
        el('button', {
          class: 'cb-name', type: 'button', 'aria-haspopup': 'dialog', 'data-key': 'show|' + z.id + '|' + id, text: name,
          onmouseenter: function () { show(c); }, onclick: function (e) { if (c) openBig(c, e.currentTarget); }
        }),
        bad ? el('span', { class: 'cb-sr', text: ' (breaks ' + bad.join(', ') + ')' }) : null,
        el('span', { class: 'cb-kind', text: c ? kindName(game, c.kind) : '' }));
    }

    // The zones' sizes, each by name: the one a rule counts is read there.
    function sizes() {
      return game.zones.map(function (z) { return z.name + ' ' + zoneTotal(z.id); }).join(' · ');
    }

    // One entry per broken rule: its numbers once, then what each breach says.
    function grouped() {
      var rules = [];
      verdict.problems.forEach(function (p) {
        var g = rules.filter(function (r) { return r.rule === p.rule; })[0];
        if (!g) rules.push(g = { rule: p.rule, first: p, all: [] });
        g.all.push(p);
      });
      return rules;
    }

    function drawVerdict() {
      verdictBox.textContent = '';
      if (!verdict) return;
      var broken = grouped();
      verdictBox.appendChild(el('div', { id: 'cb-status', class: verdict.legal ? 'cb-legal' : 'cb-illegal', text: verdict.legal ? 'Legal' : 'Illegal' },
        el('span', { class: 'cb-sizes', text: ' · ' + sizes() })));
      var said = (verdict.legal ? 'Legal' : 'Illegal') + ', ' + sizes() +
        (broken.length ? ', ' + broken.length + (broken.length === 1 ? ' rule' : ' rules') + ' broken' : '');
      if (announce.textContent !== said) announce.textContent = said;
      if (!broken.length) {
        verdictBox.appendChild(el('div', { class: 'cb-muted', text: 'Every rule of ' + game.name + ' holds.' }));
        return;
      }
      verdictBox.appendChild(el('ul', { id: 'cb-problems' }, broken.map(problem)));
    }
    // What a breach adds to the rule's tally: a message of the rule's own
    // (its `message` template) whole; the engine's default one ("X; the
    // rule *R* requires Y") only for what comes before "; the rule", and
    // nothing when that is just the tally again.
    function breach(p) {
      var at = p.message.indexOf('; the rule *' + p.name + '* requires ');
      if (at < 0) return p.message;
      var head = p.message.slice(0, at);
      return head === p.actual ? '' : head;
    }
    function problem(g) {
      var p = g.first;
      var involved = [];
      g.all.forEach(function (q) {
        [q.card].concat(q.cards).forEach(function (c) { if (c && involved.indexOf(c) < 0) involved.push(c); });
      });
      return el('li', { class: 'cb-' + p.severity, 'data-rule': p.rule, 'data-card': p.card || null },
        el('b', {}, rich(p.name, refs)), ' ', el('code', { class: 'cb-muted', text: p.code }),
        p.zone ? el('span', { class: 'cb-muted', 'data-zone-size': p.zone, text: ' · ' + zoneName(p.zone) + ': ' + zoneTotal(p.zone) + ' cards' }) : null,
        el('div', { class: 'cb-numbers' }, 'has ', rich(p.actual, refs), '; requires ', rich(p.expected, refs)),
        g.all.length === 1 ? (breach(p) ? el('div', { class: 'cb-message' }, rich(breach(p), refs)) : null)
          : el('ul', { class: 'cb-messages' }, g.all.map(function (q) { return el('li', { class: 'cb-message' }, rich(breach(q) || q.actual, refs)); })),
        p.source ? el('div', { class: 'cb-muted' }, 'rulebook: ', rich(p.source, refs)) : null,
        involved.length ? el('div', { class: 'cb-cards', text: 'cards: ' + involved.slice(0, 12).map(function (c) { return byId[c] ? byId[c].name : c; }).join(', ') + (involved.length > 12 ? ' …' : '') }) : null);
    }

    function drawChart() {
      chartBox.textContent = '';
      if (!verdict || !verdict.figures.length) return;
      chartBox.appendChild(el('h2', { text: 'What the rules bound' }));
      var grid = el('div', { class: 'cb-chart' });
      verdict.figures.forEach(function (f) {
        var top = Math.max(f.value, f.max !== null ? f.max : 0, f.min !== null ? f.min : 0, 1);
        if (f.unit === '%') top = 100;
        var pct = function (v) { return Math.min(100, v * 100 / top) + '%'; };
        var track = el('div', { class: 'cb-track' }, el('div', { class: 'cb-fill' + (f.ok ? '' : ' cb-over'), style: 'width:' + pct(f.value) }));
        [f.min, f.max].forEach(function (m, i) {
          if (m !== null && !(i === 1 && m === f.min)) track.appendChild(el('div', { class: 'cb-mark', style: 'left:' + pct(m) }));
        });
        var bounds = f.min !== null && f.min === f.max ? '= ' + f.min : [f.min !== null ? '≥ ' + f.min : null, f.max !== null ? '≤ ' + f.max : null].filter(Boolean).join(', ');
        var value = f.unit === '%' ? f.value.toFixed(1) + '%' : String(f.value);
        grid.appendChild(el('span', { 'data-figure': f.rule + (f.group ? '/' + f.group : ''), text: plain(f.name, refs) + (f.group ? ' · ' + f.group : '') }));
        grid.appendChild(track);
        grid.appendChild(el('span', { class: f.ok ? 'cb-ok' : 'cb-error', text: value + ' (' + bounds + (f.unit === '%' ? '%' : '') + ')' }));
      });
      chartBox.appendChild(grid);
    }

    function payload() {
      var zones = {};
      Object.keys(deck.zones).forEach(function (z) {
        if (Object.keys(deck.zones[z]).length) zones[z] = deck.zones[z];
      });
      var out = { name: deck.name, zones: zones };
      if (deck.format) out.format = deck.format;
      return out;
    }

    var retry = null;
    function changed() {
      undoButton.disabled = !past.length;
      redoButton.disabled = !future.length;
      drawZones();
      clearTimeout(retry);
      ask(++asked, 0);
    }

    // Asks for the verdict of change `mine`; a request that fails (no
    // answer, or a 5xx) marks the shown verdict out of date and is retried.
    function ask(mine, tries) {
      api('POST', '/api/games/' + gameId + '/verdict', payload()).then(function (r) {
        if (mine !== asked) return; // a later change is on its way
        if (r.status >= 500) throw new Error(r.data.error || 'the server answered ' + r.status);
        delete body.dataset.stale;
        if (!r.ok) {
          verdictBox.textContent = '';
          verdictBox.appendChild(el('div', { class: 'cb-error' }, rich(r.data.error, refs)));
          announce.textContent = 'Not judged: ' + plain(r.data.error, refs);
          noCode();
          return;
        }
        verdict = r.data;
        code.value = verdict.code;
        // The code carries the format: the link needs nothing more.
        shareLink.href = '/play/' + gameId + '/deck?code=' + encodeURIComponent(verdict.code);
        body.dataset.checked = String(mine);
        drawZones();
        drawVerdict();
        if (owned) owned.verdict(verdict, verdictBox);
        drawChart();
        drawPool();
      }).catch(function (e) {
        if (mine !== asked) return;
        outdated(e, tries);
        retry = setTimeout(function () { if (mine === asked) ask(mine, tries + 1); }, Math.min(500 * Math.pow(2, tries), 4000));
      });
    }

    // The code and link of a deck the server has not judged are not shown.
    function noCode() {
      code.value = '';
      shareLink.removeAttribute('href');
    }

    // The verdict shown is of an earlier deck: say so, and that it retries.
    function outdated(e, tries) {
      body.dataset.stale = String(tries + 1);
      noCode();
      var shown = document.getElementById('cb-status');
      if (shown) {
        shown.className = 'cb-outdated';
        shown.firstChild.textContent = 'Out of date';
      }
      var note = document.getElementById('cb-outdated') || el('div', { id: 'cb-outdated', class: 'cb-error', role: 'alert' });
      note.textContent = 'The server did not answer (' + (e.message || e) + '): this verdict is of an earlier deck. Retrying…';
      if (announce.textContent !== 'Out of date') announce.textContent = 'Out of date';
      verdictBox.insertBefore(note, verdictBox.firstChild);
    }

    function load(d, format) {
      deck.name = d.name || 'New deck';
      nameInput.value = deck.name;
      // The code carries the deck's format; a link's `&format=` (made by
      // earlier versions) only stands in for a code without one.
      deck.format = d.format || format || null;
      if (formatSelect) formatSelect.value = deck.format || '';
      game.zones.forEach(function (z) { deck.zones[z.id] = Object.assign({}, d.zones[z.id] || {}); });
      changed();
    }

    function importCode(text, format) {
      var value = typeof text === 'string' ? text : importText.value.trim();
      importMsg.textContent = '';
      return api('POST', '/api/games/' + gameId + '/decode', { code: value }).then(function (r) {
        if (!r.ok) {
          importMsg.className = 'cb-error';
          importMsg.textContent = plain(r.data.error, refs);
          return;
        }
        importMsg.className = 'cb-ok';
        importMsg.textContent = 'imported';
        // An import from the page can be undone; the link's deck is the start.
        if (typeof text !== 'string') remember();
        load(r.data, format);
      }).catch(function (e) {
        importMsg.className = 'cb-error';
        importMsg.textContent = 'not imported: the server did not answer (' + (e.message || e) + ')';
      });
    }

    function save(overwrite) {
      replace.style.display = 'none';
      saveMsg.className = '';
      saveMsg.textContent = 'saving…';
      api('POST', '/api/games/' + gameId + '/save', { deck: payload(), file: fileInput.value, overwrite: overwrite }).then(function (r) {
        if (r.ok) {
          saveMsg.className = 'cb-ok';
          saveMsg.textContent = 'saved as ' + r.data.file;
          saveMsg.dataset.file = r.data.file;
        } else {
          saveMsg.className = 'cb-error';
          saveMsg.textContent = plain(r.data.error, refs);
          if (r.data.exists) replace.style.display = '';
        }
      }).catch(function (e) {
        saveMsg.className = 'cb-error';
        saveMsg.textContent = 'not saved: the server did not answer (' + (e.message || e) + '); try again';
      });
    }

    // Text lists and the printable decklist: lists.js.
    if (window.cartaLists) window.cartaLists.deck({ game: game, box: share, el: el, api: api, payload: payload, load: load, importCode: importCode, code: function () { return code.value; } });

    var params = new URLSearchParams(location.search);
    var fromLink = params.get('code');
    if (fromLink) importCode(fromLink, params.get('format') || ''); else changed();
  }

  function fail(e) {
    main.appendChild(el('p', { class: 'cb-error', text: String(e.message || e) }));
  }

  if (page === 'cards') loadGame().then(cardsPage).catch(fail);
  else if (page === 'deck') loadGame().then(deckPage).catch(fail);
  else if (page === 'organize') window.cartaLists.organize({ el: el, api: api, main: main, nav: nav, link: link });
  else indexPage();
})();
