// carta's deck builder: text deck lists, the printable decklist and the
// organisers' page. The builder page calls cartaLists.deck(ctx) once, the
// organisers' page cartaLists.organize(ctx); every list is read and
// written by the server (the reader `carta deck import` uses), so the
// page and the command give the same problems and suggestions.
(function () {
  'use strict';
  // The page's words, in its language (l10n.js).
  var t = window.cartaL10n.t;

  // A pasted deck code or share link, rather than a list: one token.
  function codeOf(text) {
    var t = text.trim();
    if (!t || /\s/.test(t)) return null;
    var m = /[?&]code=([^&#]+)/.exec(t);
    return m ? decodeURIComponent(m[1]) : t;
  }

  // `text` with line `line`'s characters from `column` (1-based, counted
  // in characters) that read `found` replaced by `by`.
  function replaceAt(text, line, column, found, by) {
    var lines = text.split('\n');
    var chars = Array.from(lines[line - 1] || '');
    var at = column - 1;
    var n = Array.from(found).length;
    if (chars.slice(at, at + n).join('') !== found) return null;
    lines[line - 1] = chars.slice(0, at).join('') + by + chars.slice(at + n).join('');
    return lines.join('\n');
  }

  function deck(ctx) {
    var el = ctx.el, api = ctx.api, gameId = ctx.game.id;
    var text = el('textarea', {
      id: 'cb-list', rows: 8, cols: 34,
      placeholder: t('ui-list-placeholder')
    });
    var by = el('select', { id: 'cb-list-by', 'aria-label': t('ui-list-by') },
      el('option', { value: 'name', text: t('ui-by-name') }), el('option', { value: 'id', text: t('ui-by-id') }));
    var player = el('input', { id: 'cb-player', size: 20, placeholder: t('ui-player-placeholder') });
    var msg = el('div', { id: 'cb-list-msg', role: 'status', 'aria-live': 'polite' });
    var problems = el('ul', { id: 'cb-list-problems', class: 'cb-problems' });

    function say(cls, words) {
      msg.className = cls;
      msg.textContent = words;
    }

    function importList() {
      problems.textContent = '';
      var pasted = text.value;
      var code = codeOf(pasted);
      if (code) return ctx.importCode(code);
      say('', t('ui-reading-list'));
      return api('POST', '/api/games/' + gameId + '/list/parse', { text: pasted, name: ctx.payload().name })
        .then(function (r) {
          if (!r.ok) { say('cb-error', r.data.error); return; }
          if (r.data.player) player.value = r.data.player;
          if (r.data.deck) {
            say('cb-ok', t('ui-imported'));
            ctx.load(r.data.deck);
            return;
          }
          say('cb-error', t('ui-list-problems', { count: r.data.problems.length }));
          r.data.problems.forEach(function (p) { problems.appendChild(problem(p)); });
        }).catch(function (e) {
          say('cb-error', t('ui-not-imported', { why: e.message || e }));
        });
    }

    function problem(p) {
      var accept = p.suggestion ? el('button', {
        class: 'cb-accept', text: t('ui-use-suggestion', { suggestion: p.suggestion }),
        'aria-label': t('ui-replace-at', { found: p.found, line: p.line, suggestion: p.suggestion }),
        onclick: function () {
          var mended = replaceAt(text.value, p.line, p.column, p.found, p.suggestion);
          if (mended === null) { say('cb-error', t('ui-list-changed')); return; }
          text.value = mended;
          importList();
        }
      }) : null;
      return el('li', { class: 'cb-list-problem', 'data-code': p.code },
        el('span', { text: t('ui-line-column', { line: p.line, column: p.column, message: p.message }) }),
        p.help ? el('div', { class: 'cb-muted', text: p.help }) : null, accept);
    }

    function exportList() {
      problems.textContent = '';
      var req = { deck: ctx.payload(), by: by.value };
      if (player.value.trim()) req.player = player.value.trim();
      return api('POST', '/api/games/' + gameId + '/list', req).then(function (r) {
        if (!r.ok) { say('cb-error', r.data.error); return; }
        text.value = r.data.text;
        text.select();
        say('cb-ok', t('ui-list-exported'));
      }).catch(function (e) {
        say('cb-error', t('ui-no-list', { why: e.message || e }));
      });
    }

    function printable() {
      var code = ctx.code();
      if (!code) { say('cb-error', t('ui-no-decklist')); return; }
      var url = '/play/' + encodeURIComponent(gameId) + '/decklist?code=' + encodeURIComponent(code);
      if (player.value.trim()) url += '&player=' + encodeURIComponent(player.value.trim());
      window.open(url, '_blank');
    }

    ctx.box.appendChild(el('div', { id: 'cb-lists', class: 'cb-lists' },
      el('h3', { text: t('ui-deck-list') }),
      el('label', { for: 'cb-list', class: 'cb-muted', text: t('ui-list-label') }),
      el('div', {}, text),
      el('div', {},
        el('button', { id: 'cb-list-import', text: t('ui-import-list'), onclick: importList }), ' ',
        el('button', { id: 'cb-list-export', text: t('ui-export-list'), onclick: exportList }), ' ', by),
      el('div', {}, el('label', {}, t('ui-player') + ' ', player), ' ',
        el('button', { id: 'cb-decklist', text: t('ui-printable'), onclick: printable })),
      msg, problems));
  }

  // The organisers' page: submissions judged under the event's game and
  // format by the server (the code `carta deck check --event` runs), as a
  // table in submission order and as CSV.
  function organize(ctx) {
    var el = ctx.el, api = ctx.api, main = ctx.main;
    ctx.nav.appendChild(ctx.link('/play/', t('ui-games')));
    main.appendChild(el('h1', { text: t('ui-organize-title') }));
    main.appendChild(el('p', { class: 'cb-muted', text: t('ui-organize-intro') }));
    var codes = el('textarea', { id: 'cb-codes', rows: 8, cols: 80, 'aria-label': t('ui-codes-label'), placeholder: t('ui-codes-placeholder') });
    var files = el('input', { id: 'cb-files', type: 'file', multiple: true, accept: '.toml', 'aria-label': t('ui-files-label') });
    var gameSel = el('select', { id: 'cb-event-game' }, el('option', { value: '', text: t('ui-any-game') }));
    var formatSel = el('select', { id: 'cb-event-format', disabled: true }, el('option', { value: '', text: t('ui-game-own-rules') }));
    var out = el('div', { id: 'cb-results', 'aria-live': 'polite' });
    api('GET', '/api/games').then(function (r) {
      (r.data || []).forEach(function (g) { gameSel.appendChild(el('option', { value: g.id, text: g.name })); });
    });
    gameSel.addEventListener('change', function () {
      formatSel.textContent = '';
      formatSel.appendChild(el('option', { value: '', text: t('ui-game-own-rules') }));
      formatSel.disabled = !gameSel.value;
      if (!gameSel.value) return;
      api('GET', '/api/games/' + encodeURIComponent(gameSel.value)).then(function (r) {
        (r.data.formats || []).forEach(function (f) { formatSel.appendChild(el('option', { value: f.id, text: f.name })); });
      });
    });

    function cell(findings) {
      return el('td', {}, findings.map(function (f) {
        return el('div', { 'data-code': f.code, text: (f.rule || f.code) + ': ' + f.message });
      }));
    }

    function show(r) {
      out.textContent = '';
      if (!r.ok) { out.appendChild(el('p', { class: 'cb-error', text: r.data.error })); return; }
      var rows = r.data.rows;
      var legal = rows.filter(function (x) { return x.verdict === 'legal'; }).length;
      var url = URL.createObjectURL(new Blob([r.data.csv], { type: 'text/csv' }));
      out.appendChild(el('p', { id: 'cb-summary' }, t('ui-legal-of', { legal: legal, count: rows.length }) + ' \u00b7 ',
        el('a', { id: 'cb-csv', href: url, download: 'deck-verdicts.csv', text: t('ui-download-csv') })));
      var heads = ['#'].concat(['source', 'player', 'game', 'deck', 'format', 'verdict', 'cards', 'errors', 'warnings', 'same']
        .map(function (h) { return t('ui-col-' + h); }));
      out.appendChild(el('table', { class: 'cb-table', id: 'cb-table' },
        el('tr', {}, heads.map(function (h) { return el('th', { scope: 'col', text: h }); })),
        rows.map(function (x) {
          return el('tr', { class: 'cb-' + x.verdict, 'data-n': String(x.n) },
            el('td', { text: String(x.n) }), el('td', { text: x.source }), el('td', { text: x.player }),
            el('td', { text: x.game }), el('td', { text: x.deck }), el('td', { text: x.format }),
            el('td', { 'data-verdict': x.verdict, text: t('ui-verdict-' + x.verdict) }), el('td', { text: String(x.cards) }),
            cell(x.errors), cell(x.warnings),
            el('td', { class: 'cb-same', text: x.same_as.map(function (n) { return '#' + n; }).join(', ') }));
        })));
    }

    function judge() {
      // Files are read in the order chosen, so rows keep submission order.
      var reads = Array.prototype.map.call(files.files, function (f) {
        return f.text().then(function (t) { return { label: f.name, text: t }; });
      });
      Promise.all(reads).then(function (decks) {
        var req = { pasted: codes.value, decks: decks };
        if (gameSel.value) req.game = gameSel.value;
        if (formatSel.value) req.format = formatSel.value;
        return api('POST', '/api/organize', req);
      }).then(show).catch(function (e) {
        out.textContent = '';
        out.appendChild(el('p', { class: 'cb-error', text: t('ui-not-judged-decks', { why: e.message || e }) }));
      });
    }

    main.appendChild(el('div', {}, codes));
    main.appendChild(el('div', { class: 'cb-controls' }, files,
      el('label', {}, ' ' + t('ui-event-game') + ' ', gameSel), el('label', {}, ' ' + t('ui-format') + ' ', formatSel),
      ' ', el('button', { id: 'cb-judge', text: t('ui-judge'), onclick: judge })));
    main.appendChild(out);
  }

  window.cartaLists = { deck: deck, organize: organize };
})();
