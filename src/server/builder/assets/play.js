// carta's deck builder: the playtest panel — a sample opening hand, the
// odds of drawing a group of cards by a turn, and the curve of an integer
// field. The builder page calls cartaPlay.deck(ctx) once. The hand is
// dealt here (the page's own randomness, or `?seed=N` to repeat a deal);
// the odds come from the server (`POST /api/games/<g>/odds`), the code
// `carta deck odds` runs.
(function () {
  'use strict';

  // The panel's words, in the page's language (l10n.js, ids `ui-play-…`).
  function say(key, args) { return window.cartaL10n.t('ui-play-' + key, args); }

  // A seeded generator (mulberry32): `?seed=N` repeats a deal exactly.
  function generator(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function seed() {
    var given = new URLSearchParams(location.search).get('seed');
    if (given !== null && /^\d{1,10}$/.test(given)) return Number(given);
    var a = new Uint32Array(1);
    crypto.getRandomValues(a);
    return a[0];
  }

  function shuffle(cards, random) {
    for (var i = cards.length - 1; i > 0; i--) {
      var j = Math.floor(random() * (i + 1));
      var t = cards[i]; cards[i] = cards[j]; cards[j] = t;
    }
    return cards;
  }

  // A chance as a percentage that never rounds a possible draw to 0% or
  // an uncertain one to 100%.
  function percent(p) {
    if (p <= 0) return '0%';
    if (p >= 1) return '100%';
    if (p < 0.0001) return '<0.01%';
    if (p > 0.9999) return '>99.99%';
    var v = p * 100;
    return v.toFixed(v < 10 || v > 90 ? 2 : 1) + '%';
  }

  function whole(input, min) {
    var v = input.value.trim();
    if (!/^\d+$/.test(v)) return null;
    var n = Number(v);
    return n >= min ? n : null;
  }

  function deck(ctx) {
    var el = ctx.el, api = ctx.api, game = ctx.game;
    var play = game.play || {};
    var zone = play.draw_from;
    if (!zone) return;
    var byId = Object.create(null);
    game.cards.forEach(function (c) { byId[c.id] = c; });
    var zoneName = (game.zones.filter(function (z) { return z.id === zone; })[0] || { name: zone }).name;
    var kindName = Object.create(null);
    game.kinds.forEach(function (k) { kindName[k.id] = k.name; });
    var random = generator(seed());

    // The zone's cards as a list of ids, one per copy; with `drawn`, only
    // those drawn from: the game's `start-on-table` entries each take their
    // cards in the deck's order, at most their count (as the odds do).
    function zoneCards(drawn) {
      var lines = ctx.payload().zones[zone] || {};
      var aside = Object.create(null);
      if (drawn) {
        (play.start_on_table || []).forEach(function (t) {
          var left = t.count === null ? Infinity : t.count;
          Object.keys(lines).forEach(function (id) {
            if (left <= 0 || t.ids.indexOf(id) < 0) return;
            var more = Math.min(lines[id] - (aside[id] || 0), left);
            aside[id] = (aside[id] || 0) + more;
            left -= more;
          });
        });
      }
      var out = [];
      Object.keys(lines).forEach(function (id) {
        for (var i = aside[id] || 0; i < lines[id]; i++) out.push(id);
      });
      return out;
    }

    // ---- the settings
    var handInput = el('input', { id: 'cb-hand-size', type: 'number', min: 1, max: 1000, value: play.opening_hand || '' });
    var drawsInput = el('input', { id: 'cb-draws', type: 'number', min: 0, max: 1000, value: play.draws_per_turn });
    var rules = play.opening_hand
      ? say('declared', {
        hand: play.opening_hand, zone: zoneName, draws: play.draws_per_turn, game: game.name,
        mulligan: play.mulligans && play.mulligan !== play.opening_hand ? say('declared-mulligan', { n: play.mulligan }) : ''
      })
      : say('undeclared', { game: game.name, zone: zoneName });

    // ---- the sample hand
    var hand = [], library = [], mulligans = 0;
    var handList = el('ol', { id: 'cb-hand', class: 'cb-hand', 'aria-label': say('hand-list') });
    var handStatus = el('div', { id: 'cb-hand-status', role: 'status', 'aria-live': 'polite', text: say('no-hand') });
    function names(ids) { return ids.map(function (id) { return byId[id] ? byId[id].name : id; }).join(', '); }
    function drawHand() {
      handList.textContent = '';
      hand.forEach(function (id) {
        var c = byId[id];
        handList.appendChild(el('li', { 'data-card': id }, c ? c.name : id, ' ',
          el('span', { class: 'cb-kind', text: c ? kindName[c.kind] || c.kind : '' })));
      });
    }
    function deal(size, line) {
      library = shuffle(library.concat(hand), random);
      hand = library.splice(0, size);
      drawHand();
      handStatus.textContent = say(line, { n: hand.length, m: mulligans, left: library.length, zone: zoneName, cards: names(hand) });
    }
    function newHand() {
      var size = whole(handInput, 1);
      if (size === null) { handStatus.textContent = say('need-hand'); return; }
      library = zoneCards(true);
      hand = [];
      mulligans = 0;
      if (!library.length) { drawHand(); handStatus.textContent = say('empty-zone', { zone: zoneName }); return; }
      deal(size, 'new-hand');
    }
    function mulligan() {
      var size = whole(handInput, 1);
      if (size === null) { handStatus.textContent = say('need-hand'); return; }
      if (!hand.length && !library.length) { newHand(); return; }
      // No more mulligans than the game allows (`null`: it declares none).
      if (typeof play.mulligans === 'number' && mulligans >= play.mulligans) {
        handStatus.textContent = say('mulligans-spent', { game: game.name, n: play.mulligans });
        return;
      }
      // The game's mulligan hand, when the hand is the game's own size.
      var after = play.mulligan && size === play.opening_hand ? play.mulligan : size;
      mulligans++;
      deal(after, 'after-mulligan');
    }
    function nextCard() {
      if (!hand.length && !library.length) { newHand(); return; }
      if (!library.length) { handStatus.textContent = say('no-more', { zone: zoneName }); return; }
      var id = library.shift();
      hand.push(id);
      drawHand();
      handStatus.textContent = say('drew', { card: names([id]), n: hand.length, left: library.length, zone: zoneName });
    }

    // ---- the odds
    var groupSelect = el('select', { id: 'cb-odds-group' });
    var kInput = el('input', { id: 'cb-odds-k', type: 'number', min: 0, max: 1000, value: 1 });
    var turnInput = el('input', { id: 'cb-odds-turn', type: 'number', min: 1, max: 1000, value: 1 });
    var oddsOut = el('output', { id: 'cb-odds', role: 'status', 'aria-live': 'polite', class: 'cb-odds' });
    function option(group, text) { return el('option', { value: JSON.stringify(group), text: text }); }
    var fixedGroups = [el('optgroup', { label: say('kinds') }, game.kinds.map(function (k) {
      return option({ field: 'kind', value: k.id }, k.name);
    }))];
    game.facets.filter(function (f) { return f.kind === 'enum'; }).forEach(function (f) {
      fixedGroups.push(el('optgroup', { label: f.title }, f.values.map(function (v, i) {
        return option({ field: f.field, value: v }, f.title + ': ' + f.labels[i]);
      })));
    });
    var flags = game.facets.filter(function (f) { return f.kind === 'boolean'; });
    if (flags.length) {
      fixedGroups.push(el('optgroup', { label: say('flags') }, flags.map(function (f) {
        return option({ field: f.field }, say('flag-set', { title: f.title }));
      })));
    }
    var cardGroup = el('optgroup', { label: say('cards-in', { zone: zoneName }) });
    fixedGroups.concat([cardGroup]).forEach(function (g) { groupSelect.appendChild(g); });
    // The cards of the zone, as groups of one card each (kept in step with
    // the deck; the choice survives while its card stays).
    function cardGroups() {
      var chosen = groupSelect.value;
      cardGroup.textContent = '';
      var ids = Object.keys(ctx.payload().zones[zone] || {});
      ids.sort(function (a, b) { return names([a]).localeCompare(names([b])); });
      ids.forEach(function (id) { cardGroup.appendChild(option({ field: 'id', value: id }, names([id]))); });
      groupSelect.value = chosen;
      if (groupSelect.selectedIndex < 0) groupSelect.selectedIndex = 0;
      if (!picked && (startedOn === null || chosen === startedOn)) startGroup();
    }
    // Whether card `id` is of `group` (as the server's groups read: a flag
    // is set only by `true`).
    function fits(group, id) {
      var c = byId[id];
      if (!c) return false;
      if (group.field === 'id') return id === group.value;
      if (group.field === 'kind') return c.kind === group.value;
      var v = c.values[group.field];
      return group.value === undefined ? v === true : v === group.value;
    }
    // The group the panel starts on, until the player picks one: the first
    // that the deck has a card of among those it draws; in a deck without
    // one, the first kind the zone takes whose cards do not all start on
    // the table. Never a group whose chance is nothing from the start.
    // `startedOn` is the one it chose: a group set otherwise stays.
    var picked = false, startedOn = null;
    var drawZone = game.zones.filter(function (z) { return z.id === zone; })[0];
    var laid = Object.create(null);
    (play.start_on_table || []).forEach(function (t) {
      if (t.count === null) t.ids.forEach(function (id) { laid[id] = true; });
    });
    function startGroup() {
      var drawn = zoneCards(true);
      var options = Array.prototype.slice.call(groupSelect.options);
      var first = options.filter(function (o) {
        var g = JSON.parse(o.value);
        return drawn.some(function (id) { return fits(g, id); });
      })[0] || options.filter(function (o) {
        var g = JSON.parse(o.value);
        return g.field === 'kind' && drawZone && drawZone.kinds.indexOf(g.value) >= 0 &&
          game.cards.some(function (c) { return c.kind === g.value && !laid[c.id]; });
      })[0];
      if (first) groupSelect.value = first.value;
      startedOn = groupSelect.value;
    }
    var asked = 0;
    function askOdds() {
      var k = whole(kInput, 0), t = whole(turnInput, 1), h = whole(handInput, 1), d = whole(drawsInput, 0);
      var mine = ++asked;
      if (k === null || t === null || h === null || d === null || !groupSelect.value) {
        oddsOut.textContent = h === null ? say('need-hand') : say('odds-need');
        delete oddsOut.dataset.probability;
        return;
      }
      var group = JSON.parse(groupSelect.value);
      var label = groupSelect.options[groupSelect.selectedIndex].text;
      oddsOut.setAttribute('aria-busy', 'true');
      api('POST', '/api/games/' + encodeURIComponent(game.id) + '/odds', {
        deck: ctx.payload(), group: group, at_least: k, by_turn: t, hand: h, draws: d
      }).then(function (r) {
        if (mine !== asked) return;
        oddsOut.removeAttribute('aria-busy');
        if (!r.ok) {
          oddsOut.textContent = say('odds-failed', { why: r.data.error });
          delete oddsOut.dataset.probability;
          return;
        }
        var o = r.data;
        oddsOut.dataset.probability = String(o.probability);
        oddsOut.textContent = '';
        // The sentence, with the chance in bold wherever it stands.
        var p = percent(o.probability);
        var text = say('odds', {
          p: p, k: o.at_least, group: label, t: o.by_turn, seen: o.seen, deck: o.deck, zone: zoneName, count: o.group
        });
        var at = text.indexOf(p);
        oddsOut.appendChild(document.createTextNode(text.slice(0, at)));
        oddsOut.appendChild(el('b', { text: p }));
        oddsOut.appendChild(document.createTextNode(text.slice(at + p.length)));
      }).catch(function (e) {
        if (mine !== asked) return;
        oddsOut.removeAttribute('aria-busy');
        oddsOut.textContent = say('odds-failed', { why: e.message || e });
        delete oddsOut.dataset.probability;
      });
    }

    // ---- the curve
    var integers = game.facets.filter(function (f) { return f.kind === 'integer'; });
    var curveSelect = el('select', { id: 'cb-curve-field' }, integers.map(function (f) {
      return el('option', { value: f.field, text: f.title });
    }));
    var curveBox = el('div', { id: 'cb-curve-box', class: 'cb-scroll' });
    function drawCurve() {
      curveBox.textContent = '';
      var f = integers.filter(function (i) { return i.field === curveSelect.value; })[0];
      if (!f) { curveBox.appendChild(el('p', { class: 'cb-muted', text: say('no-curve') })); return; }
      var counts = Object.create(null), none = 0;
      zoneCards().forEach(function (id) {
        var v = byId[id] && byId[id].values[f.field];
        if (typeof v === 'number') counts[v] = (counts[v] || 0) + 1; else none++;
      });
      var values = Object.keys(counts).map(Number).sort(function (a, b) { return a - b; });
      var rows = values.map(function (v) { return [String(v), counts[v]]; });
      if (none) rows.push([say('none'), none]);
      var top = rows.reduce(function (m, r) { return Math.max(m, r[1]); }, 1);
      curveBox.appendChild(el('table', { id: 'cb-curve', class: 'cb-table cb-curve' },
        el('caption', { text: say('curve-of', { zone: zoneName, field: f.title }) }),
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col', text: f.title }), el('th', { scope: 'col', text: say('cards') }),
          el('td', { 'aria-hidden': 'true' }))),
        el('tbody', {}, rows.map(function (r) {
          return el('tr', {}, el('th', { scope: 'row', text: r[0] }), el('td', { class: 'cb-n', text: String(r[1]) }),
            el('td', { class: 'cb-curve-bar', 'aria-hidden': 'true' },
              el('span', { class: 'cb-bar', style: 'width:' + (r[1] * 100 / top) + '%' })));
        }))));
    }

    var panel = el('details', { id: 'cb-play', class: 'cb-panel cb-play' },
      el('summary', { text: say('title') }),
      el('p', { id: 'cb-play-rules', class: 'cb-muted', text: rules }),
      el('div', { class: 'cb-controls' },
        el('label', {}, say('hand-size') + ' ', handInput),
        el('label', {}, say('draws') + ' ', drawsInput)),
      el('h3', { text: say('hand-title') }),
      el('div', { class: 'cb-controls' },
        el('button', { type: 'button', id: 'cb-draw', text: say('draw'), onclick: newHand }),
        // A game whose rulebook has no mulligan gets no button for one.
        play.mulligans === 0 ? null : el('button', { type: 'button', id: 'cb-mulligan', text: say('mulligan'), onclick: mulligan }),
        el('button', { type: 'button', id: 'cb-next', text: say('next'), onclick: nextCard })),
      handStatus, handList,
      el('h3', { text: say('odds-title') }),
      el('div', { class: 'cb-controls' },
        el('label', {}, say('group') + ' ', groupSelect),
        el('label', {}, say('at-least') + ' ', kInput),
        el('label', {}, say('by-turn') + ' ', turnInput)),
      oddsOut,
      el('h3', { text: say('curve-title') }),
      integers.length ? el('div', { class: 'cb-controls' }, el('label', {}, say('curve-field') + ' ', curveSelect)) : null,
      curveBox);
    ctx.box.appendChild(panel);

    groupSelect.addEventListener('change', function () { picked = true; });
    [groupSelect, kInput, turnInput, handInput, drawsInput].forEach(function (i) {
      i.addEventListener('input', askOdds);
      i.addEventListener('change', askOdds);
    });
    curveSelect.addEventListener('change', drawCurve);
    var dealtFrom = JSON.stringify(ctx.payload().zones[zone] || {});
    ctx.onChange(function () {
      var now = JSON.stringify(ctx.payload().zones[zone] || {});
      if (now === dealtFrom) return; // the name or another zone changed
      dealtFrom = now;
      cardGroups();
      drawCurve();
      if (panel.open) askOdds();
      if (hand.length || library.length) {
        hand = []; library = []; mulligans = 0;
        drawHand();
        handStatus.textContent = say('changed');
      }
    });
    panel.addEventListener('toggle', function () { if (panel.open) askOdds(); });
    cardGroups();
    drawCurve();
  }

  window.cartaPlay = { deck: deck };
})();
