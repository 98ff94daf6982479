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

  // ---- cards: search, facets, sort (shared by the browser and the builder)
  function matcher(game, q) {
    var words = q.search.toLowerCase().split(/\s+/).filter(Boolean);
    return function (c) {
      if (q.kind && c.kind !== q.kind) return false;
      var hay = (c.name + '\n' + c.id + '\n' + c.text).toLowerCase();
      if (!words.every(function (w) { return hay.indexOf(w) >= 0; })) return false;
      return game.facets.every(function (f) {
        var v = c.values[f.field];
        if (f.kind === 'enum') {
          var want = q.facets[f.field];
          return !want || v === want;
        }
        var lo = q.facets[f.field + '.min'], hi = q.facets[f.field + '.max'];
        if (lo === undefined && hi === undefined) return true;
        if (typeof v !== 'number') return false;
        return (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
      });
    };
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

  // The controls; `changed` runs on every edit with the query.
  function controls(game, withFacets, changed) {
    var q = { search: '', kind: '', sort: 'kind', facets: {} };
    var box = el('div', { class: 'cb-controls' });
    var fire = function () { changed(q); };
    box.appendChild(el('label', {}, 'Search ', el('input', {
      id: 'cb-search', type: 'search', placeholder: 'name or text',
      oninput: function (e) { q.search = e.target.value; fire(); }
    })));
    box.appendChild(el('label', {}, 'Kind ', el('select', {
      id: 'cb-kind', onchange: function (e) { q.kind = e.target.value; fire(); }
    }, el('option', { value: '', text: 'all' }), game.kinds.map(function (k) {
      return el('option', { value: k.id, text: k.name });
    }))));
    if (withFacets) {
      game.facets.forEach(function (f) {
        if (f.kind === 'enum') {
          box.appendChild(el('label', {}, f.title + ' ', el('select', {
            'data-facet': f.field,
            onchange: function (e) { q.facets[f.field] = e.target.value; fire(); }
          }, el('option', { value: '', text: 'any' }), f.values.map(function (v) {
            return el('option', { value: v, text: v });
          }))));
        } else {
          var num = function (end) {
            return el('input', {
              type: 'number', min: f.min, max: f.max, placeholder: end === 'min' ? f.min : f.max,
              'data-facet': f.field + '.' + end,
              oninput: function (e) {
                var v = e.target.value === '' ? undefined : Number(e.target.value);
                q.facets[f.field + '.' + end] = v;
                fire();
              }
            });
          };
          box.appendChild(el('label', {}, f.title + ' ', num('min'), '–', num('max')));
        }
      });
    }
    var sorts = [['kind', 'kind'], ['name', 'name']].concat(game.facets
      .filter(function (f) { return f.kind === 'integer'; })
      .map(function (f) { return [f.field, f.title]; }));
    box.appendChild(el('label', {}, 'Sort by ', el('select', {
      id: 'cb-sort', onchange: function (e) { q.sort = e.target.value; fire(); }
    }, sorts.map(function (s) { return el('option', { value: s[0], text: s[1] }); }))));
    return { box: box, query: q };
  }

  function face(c, zoom) {
    var w = c.width || 63, h = c.height || 88;
    var card = el('div', {
      class: 'carta-card carta-face carta-kind-' + c.kind, 'data-card': c.id,
      style: 'width:' + w + 'mm;height:' + h + 'mm;--bleed:0mm;--safe:3mm', html: c.face || ''
    });
    return el('div', { class: 'cb-face', style: 'width:' + w + 'mm;height:' + h + 'mm' + (zoom ? ';zoom:' + zoom : '') }, card);
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
    var count = el('p', { id: 'cb-count', class: 'cb-muted' });
    var grid = el('div', { class: 'cb-grid', id: 'cb-grid' });
    var draw = function (q) {
      var shown = game.cards.filter(matcher(game, q)).sort(sorter(game, q.sort));
      count.textContent = shown.length + ' of ' + game.cards.length + ' cards';
      grid.textContent = '';
      shown.forEach(function (c) {
        grid.appendChild(el('figure', { class: 'cb-tile', 'data-card': c.id, style: 'margin:0' },
          face(c), el('figcaption', {}, el('b', { text: c.name }), ' · ' + kindName(game, c.kind))));
      });
    };
    var ctl = controls(game, true, draw);
    main.appendChild(ctl.box);
    main.appendChild(count);
    main.appendChild(grid);
    draw(ctl.query);
  }

  // ---- the deck builder
  function deckPage(game) {
    var byId = {};
    game.cards.forEach(function (c) { byId[c.id] = c; });
    var deck = { name: 'New deck', format: null, zones: {} };
    game.zones.forEach(function (z) { deck.zones[z.id] = {}; });
    var verdict = null;
    var asked = 0;

    main.appendChild(el('h1', { text: game.name + ' — deck builder' }));
    var poolBox = el('div', { class: 'cb-pool', id: 'cb-pool' });
    var zonesBox = el('div', { id: 'cb-zones' });
    var verdictBox = el('div', { id: 'cb-verdict', class: 'cb-panel' }, 'Checking…');
    var chartBox = el('div', { id: 'cb-chart', class: 'cb-panel' });
    var preview = el('div', { class: 'cb-preview', id: 'cb-preview' });
    var nameInput = el('input', {
      id: 'cb-name', value: deck.name, size: 30,
      oninput: function (e) { deck.name = e.target.value; changed(); }
    });
    var formatSelect = game.formats.length ? el('select', {
      id: 'cb-format', onchange: function (e) { deck.format = e.target.value || null; changed(); }
    }, el('option', { value: '', text: game.name + '\u2019s own rules' }), game.formats.map(function (f) {
      return el('option', { value: f.id, text: f.name, title: f.description || null });
    })) : null;
    var code = el('textarea', { id: 'cb-code', rows: 3, readonly: true });
    var shareLink = el('a', { id: 'cb-link', href: '#', text: 'share link' });
    var importText = el('input', { id: 'cb-import-text', placeholder: 'paste a deck code', size: 30 });
    var importMsg = el('span', { id: 'cb-import-msg' });
    var fileInput = el('input', { id: 'cb-file', placeholder: 'file name (from the deck name)', size: 26 });
    var saveMsg = el('span', { id: 'cb-save-msg' });
    var replace = el('button', { id: 'cb-replace', style: 'display:none', text: 'Replace it', onclick: function () { save(true); } });
    var share = el('div', { class: 'cb-panel cb-share', id: 'cb-share' },
      el('h2', { text: 'Share' }),
      el('div', {}, 'Deck code: ', shareLink), code,
      el('div', {}, importText, ' ', el('button', { id: 'cb-import', text: 'Import', onclick: importCode }), ' ', importMsg),
      el('div', { style: 'margin-top:6px' }, fileInput, ' ',
        el('button', { id: 'cb-save', text: 'Save to ' + game.save_to + '/', onclick: function () { save(false); } }),
        ' ', replace, ' ', saveMsg));
    var ctl = controls(game, false, function () { drawPool(); });
    main.appendChild(el('div', { class: 'cb-builder' },
      el('section', {}, ctl.box, poolBox),
      el('section', { class: 'cb-side' },
        verdictBox, chartBox,
        el('div', { class: 'cb-panel' }, el('label', {}, 'Name ', nameInput),
          formatSelect ? el('label', { style: 'margin-left:10px' }, 'Format ', formatSelect) : null, zonesBox),
        share)));
    main.appendChild(preview);

    function zoneName(id) {
      var z = game.zones.filter(function (z) { return z.id === id; })[0];
      return z ? z.name : id;
    }
    function unavailable(card, zone) {
      if (!verdict) return null;
      return verdict.unavailable.filter(function (u) { return u.card === card && u.zone === zone; })[0] || null;
    }
    function add(zone, card, n) {
      var lines = deck.zones[zone];
      var now = (lines[card] || 0) + n;
      if (now > 0) lines[card] = now; else delete lines[card];
      changed();
    }
    function show(c) {
      preview.textContent = '';
      if (c) preview.appendChild(face(c, 0.9));
    }

    function drawPool() {
      var shown = game.cards.filter(function (c) { return c.zones.length; })
        .filter(matcher(game, ctl.query)).sort(sorter(game, ctl.query.sort));
      poolBox.textContent = '';
      shown.forEach(function (c) {
        var blocked = c.zones.map(function (z) { return unavailable(c.id, z); }).filter(Boolean);
        var row = el('div', {
          class: 'cb-row' + (blocked.length === c.zones.length ? ' cb-unavailable' : ''),
          'data-card': c.id,
          title: blocked.length ? 'would break: ' + blocked.map(function (b) { return b.rules.join(', '); }).join('; ') : null
        },
          el('span', { class: 'cb-name', text: c.name, onmouseenter: function () { show(c); }, onclick: function () { show(c); } }),
          el('span', { class: 'cb-kind', text: kindName(game, c.kind) }),
          c.zones.map(function (z) {
            return el('button', {
              'data-add': z, title: 'add to ' + zoneName(z),
              text: '+ ' + zoneName(z), onclick: function () { add(z, c.id, 1); }
            });
          }));
        poolBox.appendChild(row);
      });
    }

    function blamed() {
      var out = {};
      (verdict ? verdict.problems : []).forEach(function (p) {
        [p.card].concat(p.cards).forEach(function (c) {
          if (!c) return;
          (out[c] = out[c] || []).push(p.name);
        });
      });
      return out;
    }

    function drawZones() {
      zonesBox.textContent = '';
      var bad = blamed();
      game.zones.forEach(function (z) {
        var lines = deck.zones[z.id];
        var ids = Object.keys(lines).sort(function (a, b) { return sorter(game, 'kind')(byId[a], byId[b]); });
        var total = ids.reduce(function (s, id) { return s + lines[id]; }, 0);
        zonesBox.appendChild(el('div', { class: 'cb-zone', 'data-zone': z.id },
          el('h3', {}, el('span', { text: z.name }), el('span', { class: 'cb-muted', 'data-total': z.id, text: total + ' cards' })),
          ids.length ? null : el('div', { class: 'cb-muted', text: 'empty: add ' + z.kinds.map(function (k) { return kindName(game, k); }).join(', ') }),
          ids.map(function (id) {
            var c = byId[id];
            return el('div', {
              class: 'cb-line' + (bad[id] ? ' cb-bad' : ''), 'data-line': z.id + '/' + id,
              title: bad[id] ? 'breaks: ' + bad[id].join(', ') : null
            },
              el('span', { class: 'cb-n', text: String(lines[id]) }),
              el('button', { 'data-dec': '', text: '−', title: 'one less', onclick: function () { add(z.id, id, -1); } }),
              el('button', { 'data-inc': '', text: '+', title: 'one more', onclick: function () { add(z.id, id, 1); } }),
              el('span', { class: 'cb-name', text: c ? c.name : id, onmouseenter: function () { show(c); } }),
              el('span', { class: 'cb-kind', text: c ? kindName(game, c.kind) : '' }));
          })));
      });
    }

    function drawVerdict() {
      verdictBox.textContent = '';
      if (!verdict) return;
      verdictBox.appendChild(el('div', { id: 'cb-status', class: verdict.legal ? 'cb-legal' : 'cb-illegal', text: verdict.legal ? 'Legal' : 'Illegal' },
        el('span', { class: 'cb-muted', style: 'font-weight:normal;font-size:13px', text: ' · ' + verdict.cards + ' cards' })));
      if (!verdict.problems.length) {
        verdictBox.appendChild(el('div', { class: 'cb-muted', text: 'Every rule of ' + game.name + ' holds.' }));
        return;
      }
      verdictBox.appendChild(el('ul', { id: 'cb-problems' }, verdict.problems.map(function (p) {
        var involved = [p.card].concat(p.cards).filter(Boolean).filter(function (c, i, a) { return a.indexOf(c) === i; });
        return el('li', { class: 'cb-' + p.severity, 'data-rule': p.rule, 'data-card': p.card || null },
          el('b', { text: p.name }), ' ', el('code', { class: 'cb-muted', text: p.code }),
          el('div', { class: 'cb-numbers', text: 'has ' + p.actual + '; requires ' + p.expected }),
          el('div', { text: p.message }),
          p.source ? el('div', { class: 'cb-muted', text: 'rulebook: ' + p.source }) : null,
          involved.length ? el('div', { class: 'cb-cards', text: 'cards: ' + involved.slice(0, 12).map(function (c) { return byId[c] ? byId[c].name : c; }).join(', ') + (involved.length > 12 ? ' …' : '') }) : null);
      })));
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
        grid.appendChild(el('span', { 'data-figure': f.rule + (f.group ? '/' + f.group : ''), text: f.name + (f.group ? ' · ' + f.group : '') }));
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
          verdictBox.appendChild(el('div', { class: 'cb-error', text: r.data.error }));
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
          importMsg.textContent = r.data.error;
          return;
        }
        importMsg.className = 'cb-ok';
        importMsg.textContent = 'imported';
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
          saveMsg.textContent = r.data.error;
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
