// carta's deck builder: the player's collection (decks/<game>/collection.toml).
// The builder page calls cartaCollection.deck(ctx) once; it adds "Owned
// only" to the card search, the owned count (+/- when editing) to each
// card, and "missing N copies" beside the verdict. Counts are read and
// written by the server, and what a deck lacks is the server's answer
// (the code `carta deck check` reports it with).
(function () {
  'use strict';

  // Every word this file shows, in the page's language (l10n.js, ids
  // `ui-owned-…`).
  var t = function (id, args) { return window.cartaL10n.t('ui-owned-' + id, args); };

  function deck(ctx) {
    var el = ctx.el, api = ctx.api, game = ctx.game;
    var url = '/api/games/' + encodeURIComponent(game.id) + '/collection';
    var state = { file: '', exists: false, cards: {}, problems: [] };
    var ownedOnly = false, editing = false;
    var byId = Object.create(null);
    game.cards.forEach(function (c) { byId[c.id] = c; });

    var msg = el('span', { id: 'cb-owned-msg', class: 'cb-muted', role: 'status' });
    var problems = el('ul', { id: 'cb-owned-problems', class: 'cb-problems' });
    var onlyBox = el('input', {
      id: 'cb-owned-only', type: 'checkbox',
      onchange: function (e) { ownedOnly = e.target.checked; ctx.drawPool(); }
    });
    var editBox = el('input', {
      id: 'cb-owned-edit', type: 'checkbox',
      onchange: function (e) { editing = e.target.checked; ctx.drawPool(); }
    });
    ctx.controls.appendChild(el('label', {}, onlyBox, ' ' + t('only')));
    ctx.controls.appendChild(el('label', {}, editBox, ' ' + t('edit')));
    ctx.controls.appendChild(msg);
    ctx.controls.appendChild(problems);

    function owned(id) { return state.cards[id] || 0; }

    function took(data) {
      state = data;
      problems.textContent = '';
      if (data.problems.length) {
        msg.className = 'cb-error';
        msg.textContent = t('problems', { file: data.file });
        data.problems.forEach(function (p) { problems.appendChild(el('li', { class: 'cb-error', text: t('problem', { line: p.line, column: p.column, message: p.message }) })); });
      }
    }

    function load() {
      return api('GET', url).then(function (r) {
        if (!r.ok) { msg.className = 'cb-error'; msg.textContent = r.data.error; return; }
        took(r.data);
        if (!r.data.problems.length) {
          msg.className = 'cb-muted';
          msg.textContent = r.data.exists ? t('from', { file: r.data.file }) : t('none', { file: r.data.file });
        }
        ctx.drawPool();
      });
    }

    // Sets the copies of `id` owned; the server writes the file and says
    // where; the pool and the verdict's missing copies follow.
    function set(id, n) {
      msg.className = 'cb-muted';
      msg.textContent = t('saving');
      api('POST', url, { card: id, owned: n }).then(function (r) {
        if (!r.ok) { msg.className = 'cb-error'; msg.textContent = t('not-saved', { why: r.data.error }); return; }
        took(r.data);
        msg.className = 'cb-ok';
        msg.textContent = t('saved', { file: r.data.file });
        msg.dataset.file = r.data.file;
        ctx.drawPool();
        ctx.recheck();
      }).catch(function (e) {
        msg.className = 'cb-error';
        msg.textContent = t('no-answer', { why: e.message || e });
      });
    }

    // Whether the pool shows card `c` ("Owned only" keeps owned cards).
    function keep(c) { return !ownedOnly || owned(c.id) > 0; }

    // What a card's row shows of the collection: the count, and − and +
    // while editing.
    function row(c) {
      var n = owned(c.id);
      if (!editing) {
        return state.exists && n ? el('span', { class: 'cb-owned cb-muted', 'data-owned': String(n), text: t('count', { count: n }) }) : null;
      }
      return el('span', { class: 'cb-owned', role: 'group', 'aria-label': t('group', { card: c.name }), 'data-owned': String(n) },
        el('button', {
          type: 'button', 'data-own': '-', 'data-key': 'own-|pool|' + c.id, text: '−',
          'aria-label': t('less', { card: c.name }), disabled: n === 0 || state.problems.length ? true : null,
          onclick: function () { set(c.id, n - 1); }
        }),
        el('span', { class: 'cb-muted', text: t('count', { count: n }) }),
        el('button', {
          type: 'button', 'data-own': '+', 'data-key': 'own+|pool|' + c.id, text: '+',
          'aria-label': t('more', { card: c.name }), disabled: state.problems.length ? true : null,
          onclick: function () { set(c.id, n + 1); }
        }));
    }

    // Beside the verdict: what the deck lacks from the collection.
    function verdict(v, box) {
      var old = document.getElementById('cb-missing');
      if (old) old.parentNode.removeChild(old);
      var c = v && v.collection;
      if (!c) return;
      var out = el('div', { id: 'cb-missing', class: 'cb-missing', 'data-total': String(c.total || 0) });
      if (c.error !== undefined) {
        out.appendChild(el('div', { class: 'cb-error', text: t('unusable', { file: c.file, why: c.error }) }));
      } else if (!c.missing.length) {
        out.appendChild(el('div', { class: 'cb-ok', text: t('complete') }));
      } else {
        out.appendChild(el('div', { class: 'cb-missing-title', text: t('missing-title', {
          copies: t('copies', { count: c.total }), cards: t('cards', { count: c.missing.length })
        }) }));
        out.appendChild(el('ul', {}, c.missing.map(function (m) {
          var name = byId[m.card] ? byId[m.card].name : m.card;
          return el('li', { 'data-card': m.card, 'data-missing': String(m.missing), text: t('missing-line', { card: name, count: m.missing, needed: m.needed, owned: m.owned }) });
        })));
        out.appendChild(el('div', { class: 'cb-muted', text: t('note') }));
      }
      box.appendChild(out);
    }

    load();
    return { keep: keep, row: row, verdict: verdict };
  }

  window.cartaCollection = { deck: deck };
})();
