// carta's deck builder: plain JavaScript, no build step. Every page is
// drawn from the server's JSON; every verdict comes from the server.
(function () {
  'use strict';
  var body = document.body;
  var page = body.dataset.page;
  var gameId = body.dataset.game;
  var main = document.getElementById('cb-main');
  var nav = document.getElementById('cb-nav');
  // Every word on the page is the server's, in the page's language
  // (l10n.js): t('ui-…', {name: value, count: n}).
  var l10n = window.cartaL10n;
  var t = l10n.t;

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

  // Every request says the page's language, so that what the server
  // words (a verdict, a refusal) is in it.
  function api(method, url, data) {
    url += (url.indexOf('?') < 0 ? '?' : '&') + 'ui=' + encodeURIComponent(l10n.lang);
    var init = { method: method, headers: {} };
    if (data !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(data);
    }
    return fetch(url, init).then(function (r) {
      return r.json().catch(function () { return { error: t('ui-no-json') }; })
        .then(function (j) { return { ok: r.ok, status: r.status, data: j }; });
    });
  }

  // The server's event stream, handed to `listen` each time it opens. A
  // page left for another closes it at once (and opens a new one if it
  // comes back from the back-forward cache): a browser keeps at most six
  // connections to a server, and the streams of pages already left held
  // them for a minute, stalling the next page.
  function stream(listen) {
    var es = null;
    function open() { es = new EventSource('/events'); listen(es); }
    open();
    window.addEventListener('pagehide', function () { es.close(); });
    window.addEventListener('pageshow', function (e) { if (e.persisted) open(); });
  }

  function link(href, text) { return el('a', { href: l10n.withUi(href), text: text }); }

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
    var q = { search: '', kind: '', sort: 'kind', facets: {}, since: '' };
    var box = el('div', { class: 'cb-controls' });
    var fire = function () { changed(q); };
    box.appendChild(el('label', {}, t('ui-search') + ' ', el('input', {
      id: 'cb-search', type: 'search', placeholder: t('ui-search-placeholder'),
      oninput: function (e) { q.search = e.target.value; fire(); }
    })));
    box.appendChild(el('label', {}, t('ui-kind') + ' ', el('select', {
      id: 'cb-kind', onchange: function (e) { q.kind = e.target.value; fire(); }
    }, el('option', { value: '', text: t('ui-kind-all') }), game.kinds.map(function (k) {
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
        // An enum's values read as their labels (the server's, in the game's language).
        var options = f.kind === 'enum' ? f.values.map(function (v, i) { return [v, f.labels[i]]; }) : [['yes', t('ui-yes')], ['no', t('ui-no')]];
        facets.appendChild(el('label', {}, f.title + ' ', el('select', { 'data-facet': f.field, onchange: set(f.field) },
          el('option', { value: '', text: t('ui-any') }), options.map(function (o) {
            return el('option', { value: o[0], text: o[1] });
          }))));
      } else {
        var num = function (end) {
          return el('input', {
            type: 'number', min: f.min, max: f.max, placeholder: end === 'min' ? f.min : f.max,
            'aria-label': t(end === 'min' ? 'ui-range-from' : 'ui-range-to', { field: f.title }),
            'data-facet': f.field + '.' + end, oninput: set(f.field + '.' + end)
          });
        };
        facets.appendChild(el('span', { class: 'cb-range' }, f.title + ' ', num('min'), '–', num('max')));
      }
    });
    // Marks the cards changed since a version, when some card has errata.
    if ((game.versions || []).length) {
      box.appendChild(el('label', {}, t('ui-changed-since') + ' ', el('select', {
        id: 'cb-since', onchange: function (e) { q.since = e.target.value; fire(); }
      }, el('option', { value: '', text: t('ui-since-none') }), game.versions.map(function (v) {
        return el('option', { value: v, text: v });
      }))));
    }
    var sorts = [['kind', t('ui-sort-kind')], ['name', t('ui-sort-name')]].concat(game.facets
      .filter(function (f) { return f.kind === 'integer'; })
      .map(function (f) { return [f.field, f.title]; }));
    box.appendChild(el('label', {}, t('ui-sort-by') + ' ', el('select', {
      id: 'cb-sort', onchange: function (e) { q.sort = e.target.value; fire(); }
    }, sorts.map(function (s) { return el('option', { value: s[0], text: s[1] }); }))));
    return { box: box, query: q };
  }

  // Versions as their errata write them, compared as numbers: 1.10 after
  // 1.9, 2 equal to 2.0 (as carta compares them).
  function versionCmp(a, b) {
    var parts = function (v) {
      var p = String(v).split('.').map(Number);
      while (p.length > 1 && p[p.length - 1] === 0) p.pop();
      return p;
    };
    var x = parts(a), y = parts(b);
    for (var i = 0; i < Math.max(x.length, y.length); i++) {
      if (i >= x.length) return -1;
      if (i >= y.length) return 1;
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
  }
  // Whether card `c` changed after `since` (none chosen: no card).
  function changedSince(c, since) {
    return !!since && (c.errata || []).some(function (e) { return versionCmp(e.version, since) > 0; });
  }
  // The mark of a card changed since `since`, or nothing.
  function changedMark(c, since) {
    return changedSince(c, since) ? el('span', { class: 'cb-changed-mark', text: t('ui-changed-mark', { version: c.version }) }) : null;
  }
  // A card's published changes, newest first: version, date, what changed
  // and the values it replaced.
  function history(c) {
    if (!(c.errata || []).length) return null;
    var entries = c.errata.slice().sort(function (a, b) { return versionCmp(b.version, a.version); });
    return el('details', { class: 'cb-history' }, el('summary', { text: t('ui-history', { version: c.version }) }),
      el('ul', {}, entries.map(function (e) {
        var was = Object.keys(e.was || {}).map(function (k) {
          var v = e.was[k];
          return k + ': ' + (typeof v === 'string' ? v : JSON.stringify(v));
        });
        return el('li', { 'data-version': e.version },
          el('b', { text: e.version }), ' (' + e.date + ')' + (e.note ? ' ' + e.note : ''),
          was.length ? el('div', { class: 'cb-muted', text: t('ui-history-was', { values: was.join('; ') }) }) : null);
      })));
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

  // Under `carta watch --serve`, a save that changes this game's cards
  // (the server's `catalog` event) brings them into the open page, which
  // `redraw`s with them; the deck being built stays as it is.
  function follow(game, redraw) {
    if (!window.EventSource) return;
    stream(function (es) {
      es.addEventListener('catalog', function (e) {
        if (e.data !== game.id) return;
        api('GET', '/api/games/' + encodeURIComponent(game.id)).then(function (r) {
          if (!r.ok) return;
          Object.keys(r.data).forEach(function (k) { game[k] = r.data[k]; });
          redraw();
        });
      });
    });
  }

  function loadGame() {
    return api('GET', '/api/games/' + encodeURIComponent(gameId)).then(function (r) {
      if (!r.ok) throw new Error(r.data.error);
      var game = r.data;
      nav.appendChild(el('span', { text: game.name }));
      nav.appendChild(link('/play/' + gameId + '/cards', t('ui-nav-cards')));
      nav.appendChild(link('/play/' + gameId + '/deck', t('ui-nav-deck')));
      nav.appendChild(link('/play/organize', t('ui-nav-organize')));
      return game;
    });
  }

  // ---- the games
  function indexPage() {
    nav.appendChild(link('/play/organize', t('ui-nav-organize')));
    api('GET', '/api/games').then(function (r) {
      main.appendChild(el('h1', { text: t('ui-games') }));
      main.appendChild(el('ul', { class: 'cb-games' }, r.data.map(function (g) {
        return el('li', { 'data-game': g.id }, el('b', { text: g.name }), ' — ',
          link('/play/' + g.id + '/cards', t('ui-browse-cards', { count: g.cards })), ' · ',
          g.zones ? link('/play/' + g.id + '/deck', t('ui-build-deck')) : el('span', { class: 'cb-muted', text: t('ui-no-decks') }),
          g.description ? el('div', { class: 'cb-muted', text: g.description }) : null);
      })));
    });
  }

  // ---- the card browser
  function cardsPage(game) {
    main.appendChild(el('h1', { text: t('ui-title-cards', { game: game.name }) }));
    var count = el('p', { id: 'cb-count', class: 'cb-muted', role: 'status' });
    var grid = el('div', { class: 'cb-grid', id: 'cb-grid' });
    var draw = function (q) {
      var shown = select(game, game.cards, q);
      count.textContent = t('ui-shown', { shown: shown.length, count: game.cards.length });
      grid.textContent = '';
      shown.forEach(function (c) {
        grid.appendChild(el('figure', { class: 'cb-tile' + (changedSince(c, q.since) ? ' cb-changed' : ''), 'data-card': c.id, style: 'margin:0' },
          face(c), el('figcaption', {}, el('b', { text: c.name }), ' · ' + kindName(game, c.kind), ' ', changedMark(c, q.since), history(c))));
      });
    };
    var ctl = controls(game, null, draw);
    main.appendChild(ctl.box);
    main.appendChild(count);
    main.appendChild(grid);
    draw(ctl.query);
    follow(game, function () { draw(ctl.query); });
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
    var deck = { name: t('ui-new-deck'), format: null, zones: {} };
    game.zones.forEach(function (z) { deck.zones[z.id] = {}; });
    var verdict = null;
    var asked = 0;
    // The card last added, and where: the culprit of a count it breaks.
    var lastAdded = null;
    // Undo and redo: snapshots of the deck's format and zones.
    var past = [], future = [];
    // What else follows the deck (the playtest panel of play.js).
    var followers = [];

    main.appendChild(el('h1', { text: t('ui-title-deck', { game: game.name }) }));
    var poolBox = el('div', { class: 'cb-pool', id: 'cb-pool', role: 'list', 'aria-label': t('ui-pool-label') });
    var zonesBox = el('div', { id: 'cb-zones', role: 'region', 'aria-label': t('ui-deck-label'), tabindex: '0' });
    var verdictBox = el('div', { id: 'cb-verdict', class: 'cb-panel', role: 'region', 'aria-label': t('ui-verdict-label'), tabindex: '0' }, t('ui-checking'));
    // What a screen reader announces of each new verdict (a short line).
    var announce = el('div', { id: 'cb-announce', class: 'cb-sr', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    var chartBox = el('div', { id: 'cb-chart', class: 'cb-panel' });
    var preview = el('div', { class: 'cb-preview', id: 'cb-preview', 'aria-hidden': 'true' });
    var big = el('div', { class: 'cb-big', id: 'cb-big', role: 'dialog', 'aria-label': t('ui-card-dialog'), hidden: true });
    var nameInput = el('input', {
      id: 'cb-name', value: deck.name, size: 24, maxlength: game.max_name,
      oninput: function (e) { deck.name = e.target.value; changed(); }
    });
    var formatSelect = game.formats.length ? el('select', {
      id: 'cb-format', onchange: function (e) { remember(); deck.format = e.target.value || null; changed(); }
    }, el('option', { value: '', text: t('ui-own-rules', { game: game.name }) }), game.formats.map(function (f) {
      return el('option', { value: f.id, text: f.name, title: f.description || null });
    })) : null;
    var times = el('input', { id: 'cb-times', type: 'number', min: 1, max: 99, value: 1, 'aria-describedby': 'cb-times-help' });
    var undoButton = el('button', { id: 'cb-undo', text: t('ui-undo'), title: 'Ctrl+Z', disabled: true, onclick: function () { undo(); } });
    var redoButton = el('button', { id: 'cb-redo', text: t('ui-redo'), title: 'Ctrl+Shift+Z', disabled: true, onclick: function () { redo(); } });
    var code = el('textarea', { id: 'cb-code', rows: 3, readonly: true, 'aria-label': t('ui-deck-code') });
    var shareLink = el('a', { id: 'cb-link', href: '#', text: t('ui-share-link') });
    var importText = el('input', { id: 'cb-import-text', placeholder: t('ui-import-placeholder'), size: 24, 'aria-label': t('ui-import-label') });
    var importMsg = el('span', { id: 'cb-import-msg', role: 'status' });
    var fileInput = el('input', { id: 'cb-file', placeholder: t('ui-file-placeholder'), size: 24, 'aria-label': t('ui-file-label') });
    var saveMsg = el('span', { id: 'cb-save-msg', role: 'status' });
    var replace = el('button', { id: 'cb-replace', style: 'display:none', text: t('ui-replace'), onclick: function () { save(true); } });
    var share = el('div', { class: 'cb-panel cb-share', id: 'cb-share' },
      el('h2', { text: t('ui-share') }),
      el('div', {}, t('ui-deck-code-label') + ' ', shareLink), code,
      el('div', {}, importText, ' ', el('button', { id: 'cb-import', text: t('ui-import'), onclick: importCode }), ' ', importMsg),
      el('div', { style: 'margin-top:6px' }, fileInput, ' ',
        el('button', { id: 'cb-save', text: t('ui-save-to', { folder: game.save_to }), onclick: function () { save(false); } }),
        ' ', replace, ' ', saveMsg));
    var facetBox = el('div', { class: 'cb-controls' });
    var ctl = controls(game, facetBox, function () { drawPool(); });
    var filters = game.facets.length ? el('details', { class: 'cb-filters' }, el('summary', { text: t('ui-filters') }), facetBox) : null;
    var TIMES_HELP = t('ui-times-help');
    var timesHelp = el('span', { id: 'cb-times-help', class: 'cb-muted', role: 'status', text: TIMES_HELP });
    var edit = el('div', { class: 'cb-controls' },
      el('label', {}, t('ui-add-times'), times), timesHelp,
      undoButton, redoButton);
    // The player's collection (owned only, owned counts, missing copies): collection.js.
    var owned = window.cartaCollection ? window.cartaCollection.deck({ game: game, el: el, api: api, controls: edit, drawPool: drawPool, recheck: changed }) : null;
    main.appendChild(el('div', { class: 'cb-builder' },
      el('section', { class: 'cb-find', 'aria-label': t('ui-find-cards') }, ctl.box, filters, edit, poolBox),
      el('section', { class: 'cb-side', 'aria-label': t('ui-your-deck') },
        verdictBox, chartBox,
        el('div', { class: 'cb-panel' }, el('label', {}, t('ui-name') + ' ', nameInput),
          formatSelect ? el('label', { class: 'cb-format' }, t('ui-format') + ' ', formatSelect) : null, zonesBox),
        share)));
    main.appendChild(announce);
    main.appendChild(preview);
    main.appendChild(big);
    // The first stop of the tab order: past the search, the filters and
    // every card of the pool, straight to the deck.
    body.insertBefore(el('a', {
      class: 'cb-skip', id: 'cb-skip', href: '#cb-zones', text: t('ui-skip-deck'),
      onclick: function (e) { e.preventDefault(); zonesBox.focus(); zonesBox.scrollIntoView({ block: 'nearest' }); }
    }), body.firstChild);

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
          timesHelp.textContent = t('ui-at-limit', { card: byId[card].name, count: have });
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
      var close = el('button', { class: 'cb-close', text: t('ui-close'), 'aria-label': t('ui-close-card', { card: c.name }), onclick: closeBig });
      big.appendChild(el('div', { class: 'cb-big-bar' }, el('b', { text: c.name }), ' · ' + kindName(game, c.kind), close));
      big.appendChild(face(c, zoom));
      var past = history(c);
      if (past) { past.open = true; big.appendChild(past); }
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
        var why = blocked.length ? t('ui-would-break', { rules: blocked.map(function (b) { return b.rules.map(function (r) { return plain(r, refs); }).join(', '); }).join('; ') }) : null;
        var row = el('div', {
          class: 'cb-row' + (blocked.length === c.zones.length ? ' cb-unavailable' : '') + (changedSince(c, ctl.query.since) ? ' cb-changed' : ''),
          role: 'listitem', 'data-card': c.id, title: why
        },
          el('button', {
            class: 'cb-name', type: 'button', 'aria-haspopup': 'dialog', 'data-key': 'show|pool|' + c.id, text: c.name,
            onmouseenter: function () { show(c); }, onclick: function (e) { openBig(c, e.currentTarget); }
          }),
          el('span', { class: 'cb-kind', text: kindName(game, c.kind) }),
          changedMark(c, ctl.query.since),
          c.zones.map(function (z) {
            var b = unavailable(c.id, z);
            return el('button', {
              'data-add': z, 'data-key': 'add|' + z + '|' + c.id, title: b ? why : null,
              'aria-label': t(b ? 'ui-add-to-blocked' : 'ui-add-to', { card: c.name, zone: zoneName(z) }),
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
            el('span', { class: 'cb-muted', 'data-total': z.id, text: t('ui-cards', { count: zoneTotal(z.id) }) })),
          ids.length ? null : el('div', { class: 'cb-muted', text: t('ui-empty-zone', { kinds: z.kinds.map(function (k) { return kindName(game, k); }).join(', ') }) }),
          ids.map(function (id) { return line(z, id, lines[id], bad[id]); })));
      });
    }
    function line(z, id, n, bad) {
      var c = byId[id], name = c ? c.name : id;
      return el('div', {
        class: 'cb-line' + (bad ? ' cb-bad' : ''), 'data-line': z.id + '/' + id,
        title: bad ? t('ui-breaks', { rules: bad.join(', ') }) : null
      },
        el('span', { class: 'cb-n', text: String(n) }),
        el('button', { 'data-dec': '', 'data-key': 'dec|' + z.id + '|' + id, text: '−', 'aria-label': t('ui-one-less', { card: name }), onclick: function () { add(z.id, id, -1); } }),
        el('button', { 'data-inc': '', 'data-key': 'inc|' + z.id + '|' + id, text: '+', 'aria-label': t('ui-one-more', { card: name }), onclick: function () { add(z.id, id, 1); } }),
        el('button', {
          class: 'cb-name', type: 'button', 'aria-haspopup': 'dialog', 'data-key': 'show|' + z.id + '|' + id, text: name,
          onmouseenter: function () { show(c); }, onclick: function (e) { if (c) openBig(c, e.currentTarget); }
        }),
        bad ? el('span', { class: 'cb-sr', text: ' ' + t('ui-breaks-sr', { rules: bad.join(', ') }) }) : null,
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
      var status = t(verdict.legal ? 'ui-legal' : 'ui-illegal');
      verdictBox.appendChild(el('div', { id: 'cb-status', class: verdict.legal ? 'cb-legal' : 'cb-illegal', text: status },
        el('span', { class: 'cb-sizes', text: ' · ' + sizes() })));
      var said = status + ', ' + sizes() +
        (broken.length ? ', ' + t('ui-rules-broken', { count: broken.length }) : '');
      if (announce.textContent !== said) announce.textContent = said;
      if (!broken.length) {
        verdictBox.appendChild(el('div', { class: 'cb-muted', text: t('ui-all-hold', { game: game.name }) }));
        return;
      }
      verdictBox.appendChild(el('ul', { id: 'cb-problems' }, broken.map(problem)));
    }
    // What a breach adds to the rule's tally: the server's `breach` (a
    // message of the rule's own whole; of the engine's, only the card or
    // group it names and what that has).
    function breach(p) { return p.breach; }
    function problem(g) {
      var p = g.first;
      var involved = [];
      g.all.forEach(function (q) {
        [q.card].concat(q.cards).forEach(function (c) { if (c && involved.indexOf(c) < 0) involved.push(c); });
      });
      return el('li', { class: 'cb-' + p.severity, 'data-rule': p.rule, 'data-card': p.card || null },
        el('b', {}, rich(p.name, refs)), ' ', el('code', { class: 'cb-muted', text: p.code }),
        p.zone ? el('span', { class: 'cb-muted', 'data-zone-size': p.zone, text: ' · ' + zoneName(p.zone) + ': ' + t('ui-cards', { count: zoneTotal(p.zone) }) }) : null,
        el('div', { class: 'cb-numbers' }, rich(t('ui-has-requires', { actual: p.actual, expected: p.expected }), refs)),
        g.all.length === 1 ? (breach(p) ? el('div', { class: 'cb-message' }, rich(breach(p), refs)) : null)
          : el('ul', { class: 'cb-messages' }, g.all.map(function (q) { return el('li', { class: 'cb-message' }, rich(breach(q) || q.actual, refs)); })),
        p.source ? el('div', { class: 'cb-muted' }, rich(t('ui-rulebook', { source: p.source }), refs)) : null,
        involved.length ? el('div', { class: 'cb-cards', text: t('ui-cards-involved', { cards: involved.slice(0, 12).map(function (c) { return byId[c] ? byId[c].name : c; }).join(', ') + (involved.length > 12 ? ' …' : '') }) }) : null);
    }

    function drawChart() {
      chartBox.textContent = '';
      if (!verdict || !verdict.figures.length) return;
      chartBox.appendChild(el('h2', { text: t('ui-chart-title') }));
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
      followers.forEach(function (f) { f(); });
      clearTimeout(retry);
      ask(++asked, 0);
    }

    // Asks for the verdict of change `mine`; a request that fails (no
    // answer, or a 5xx) marks the shown verdict out of date and is retried.
    function ask(mine, tries) {
      api('POST', '/api/games/' + gameId + '/verdict', payload()).then(function (r) {
        if (mine !== asked) return; // a later change is on its way
        if (r.status >= 500) throw new Error(r.data.error || t('ui-server-answered', { status: r.status }));
        delete body.dataset.stale;
        if (!r.ok) {
          verdictBox.textContent = '';
          verdictBox.appendChild(el('div', { class: 'cb-error' }, rich(r.data.error, refs)));
          announce.textContent = t('ui-not-judged', { why: plain(r.data.error, refs) });
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
        shown.firstChild.textContent = t('ui-out-of-date');
      }
      var note = document.getElementById('cb-outdated') || el('div', { id: 'cb-outdated', class: 'cb-error', role: 'alert' });
      note.textContent = t('ui-outdated-note', { why: e.message || e });
      if (announce.textContent !== t('ui-out-of-date')) announce.textContent = t('ui-out-of-date');
      verdictBox.insertBefore(note, verdictBox.firstChild);
    }

    function load(d, format) {
      deck.name = d.name || t('ui-new-deck');
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
        importMsg.textContent = t('ui-imported');
        // An import from the page can be undone; the link's deck is the start.
        if (typeof text !== 'string') remember();
        load(r.data, format);
      }).catch(function (e) {
        importMsg.className = 'cb-error';
        importMsg.textContent = t('ui-not-imported', { why: e.message || e });
      });
    }

    function save(overwrite) {
      replace.style.display = 'none';
      saveMsg.className = '';
      saveMsg.textContent = t('ui-saving');
      api('POST', '/api/games/' + gameId + '/save', { deck: payload(), file: fileInput.value, overwrite: overwrite }).then(function (r) {
        if (r.ok) {
          saveMsg.className = 'cb-ok';
          saveMsg.textContent = t('ui-saved-as', { file: r.data.file });
          saveMsg.dataset.file = r.data.file;
        } else {
          saveMsg.className = 'cb-error';
          saveMsg.textContent = plain(r.data.error, refs);
          if (r.data.exists) replace.style.display = '';
        }
      }).catch(function (e) {
        saveMsg.className = 'cb-error';
        saveMsg.textContent = t('ui-not-saved', { why: e.message || e });
      });
    }

    // Text lists and the printable decklist: lists.js.
    if (window.cartaLists) window.cartaLists.deck({ game: game, box: share, el: el, api: api, payload: payload, load: load, importCode: importCode, code: function () { return code.value; } });

    // A switch of language keeps the deck: its code goes into the address.
    l10n.keep(function (params) {
      if (code.value) params.set('code', code.value);
    });
    // The playtest panel: play.js.
    if (window.cartaPlay) window.cartaPlay.deck({ game: game, box: share.parentNode, el: el, api: api, payload: payload, onChange: function (f) { followers.push(f); } });

    var params = new URLSearchParams(location.search);
    var fromLink = params.get('code');
    if (fromLink) importCode(fromLink, params.get('format') || ''); else changed();
    follow(game, function () {
      Object.keys(byId).forEach(function (id) { delete byId[id]; });
      game.cards.forEach(function (c) { byId[c.id] = c; refs[c.name] = { name: c.name }; refs[c.id] = c; });
      changed();
    });
  }

  function fail(e) {
    main.appendChild(el('p', { class: 'cb-error', text: String(e.message || e) }));
  }

  if (page === 'cards') loadGame().then(cardsPage).catch(fail);
  else if (page === 'deck') loadGame().then(deckPage).catch(fail);
  else if (page === 'organize') window.cartaLists.organize({ el: el, api: api, main: main, nav: nav, link: link, t: t });
  else indexPage();
})();
