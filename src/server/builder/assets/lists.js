// carta's deck builder: text deck lists and the printable decklist. The
// builder page calls cartaLists.deck(ctx) once; every list is read and
// written by the server (the reader `carta deck import` uses), so the
// page and the command give the same problems and suggestions.
(function () {
  'use strict';

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
      placeholder: 'paste a deck list (3 Card Name lines under zone headings) or a deck code'
    });
    var by = el('select', { id: 'cb-list-by', 'aria-label': 'name cards by' },
      el('option', { value: 'name', text: 'by name' }), el('option', { value: 'id', text: 'by id' }));
    var player = el('input', { id: 'cb-player', size: 20, placeholder: 'player (for the decklist)' });
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
      say('', 'reading the list…');
      return api('POST', '/api/games/' + gameId + '/list/parse', { text: pasted, name: ctx.payload().name })
        .then(function (r) {
          if (!r.ok) { say('cb-error', r.data.error); return; }
          if (r.data.player) player.value = r.data.player;
          if (r.data.deck) {
            say('cb-ok', 'imported');
            ctx.load(r.data.deck);
            return;
          }
          say('cb-error', 'not imported: ' + r.data.problems.length + ' problem(s) in the list');
          r.data.problems.forEach(function (p) { problems.appendChild(problem(p)); });
        }).catch(function (e) {
          say('cb-error', 'not imported: the server did not answer (' + (e.message || e) + ')');
        });
    }

    function problem(p) {
      var accept = p.suggestion ? el('button', {
        class: 'cb-accept', text: 'Use \u201c' + p.suggestion + '\u201d',
        'aria-label': 'replace ' + p.found + ' on line ' + p.line + ' with ' + p.suggestion,
        onclick: function () {
          var mended = replaceAt(text.value, p.line, p.column, p.found, p.suggestion);
          if (mended === null) { say('cb-error', 'the list changed: import it again'); return; }
          text.value = mended;
          importList();
        }
      }) : null;
      return el('li', { class: 'cb-list-problem', 'data-code': p.code },
        el('span', { text: 'line ' + p.line + ', column ' + p.column + ': ' + p.message }),
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
        say('cb-ok', 'the deck as a list: copy it from the box');
      }).catch(function (e) {
        say('cb-error', 'no list: the server did not answer (' + (e.message || e) + ')');
      });
    }

    function printable() {
      var code = ctx.code();
      if (!code) { say('cb-error', 'no decklist: the deck has no code until the server judges it'); return; }
      var url = '/play/' + encodeURIComponent(gameId) + '/decklist?code=' + encodeURIComponent(code);
      if (player.value.trim()) url += '&player=' + encodeURIComponent(player.value.trim());
      window.open(url, '_blank');
    }

    ctx.box.appendChild(el('div', { id: 'cb-lists', class: 'cb-lists' },
      el('h3', { text: 'Deck list' }),
      el('label', { for: 'cb-list', class: 'cb-muted', text: 'A text list (or a code, or a share link):' }),
      el('div', {}, text),
      el('div', {},
        el('button', { id: 'cb-list-import', text: 'Import list', onclick: importList }), ' ',
        el('button', { id: 'cb-list-export', text: 'Export list', onclick: exportList }), ' ', by),
      el('div', {}, el('label', {}, 'Player ', player), ' ',
        el('button', { id: 'cb-decklist', text: 'Printable decklist', onclick: printable })),
      msg, problems));
  }

  window.cartaLists = { deck: deck };
})();
