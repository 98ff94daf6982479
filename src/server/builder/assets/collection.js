// carta's deck builder: the player's collection (decks/<game>/collection.toml).
// The builder page calls cartaCollection.deck(ctx) once; it adds "Owned
// only" to the card search, the owned count (+/- when editing) to each
// card, and "missing N copies" beside the verdict. Counts are read and
// written by the server, and what a deck lacks is the server's answer
// (the code `carta deck check` reports it with).
(function () {
  'use strict';

  // Every word this file shows, in one table.
  var WORDS = {
    ownedOnly: 'Owned only',
    edit: 'Edit my collection',
    owned: function (n) { return n + ' owned'; },
    group: function (name) { return 'Copies of ' + name + ' owned'; },
    more: function (name) { return 'One more owned copy of ' + name; },
    less: function (name) { return 'One less owned copy of ' + name; },
    saving: 'saving…',
    saved: function (file) { return 'saved in ' + file; },
    notSaved: function (why) { return 'not saved: ' + why; },
    noAnswer: function (why) { return 'not saved: the server did not answer (' + why + ')'; },
    none: function (file) { return 'no collection yet: the first count set here creates ' + file; },
    from: function (file) { return 'collection: ' + file; },
    problems: function (file) { return file + ' has problems (mend it to edit it here):'; },
    problem: function (p) { return 'line ' + p.line + ', column ' + p.column + ': ' + p.message; },
    missingTitle: function (total, cards) {
      return 'Missing ' + total + (total === 1 ? ' copy' : ' copies') + ' of ' + cards +
        (cards === 1 ? ' card' : ' cards') + ' from your collection';
    },
    missingLine: function (name, m) {
      return name + ': ' + m.missing + ' missing (the deck needs ' + m.needed + ', you own ' + m.owned + ')';
    },
    complete: 'Your collection holds every copy this deck needs.',
    unusable: function (file, why) { return file + ' was not read: ' + why; },
    note: 'Owning cards is not a rule of the game: the verdict does not count it.'
  };

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
    ctx.controls.appendChild(el('label', {}, onlyBox, ' ' + WORDS.ownedOnly));
    ctx.controls.appendChild(el('label', {}, editBox, ' ' + WORDS.edit));
    ctx.controls.appendChild(msg);
    ctx.controls.appendChild(problems);

    function owned(id) { return state.cards[id] || 0; }

    function took(data) {
      state = data;
      problems.textContent = '';
      if (data.problems.length) {
        msg.className = 'cb-error';
        msg.textContent = WORDS.problems(data.file);
        data.problems.forEach(function (p) { problems.appendChild(el('li', { class: 'cb-error', text: WORDS.problem(p) })); });
      }
    }

    function load() {
      return api('GET', url).then(function (r) {
        if (!r.ok) { msg.className = 'cb-error'; msg.textContent = r.data.error; return; }
        took(r.data);
        if (!r.data.problems.length) {
          msg.className = 'cb-muted';
          msg.textContent = r.data.exists ? WORDS.from(r.data.file) : WORDS.none(r.data.file);
        }
        ctx.drawPool();
      });
    }

    // Sets the copies of `id` owned; the server writes the file and says
    // where; the pool and the verdict's missing copies follow.
    function set(id, n) {
      msg.className = 'cb-muted';
      msg.textContent = WORDS.saving;
      api('POST', url, { card: id, owned: n }).then(function (r) {
        if (!r.ok) { msg.className = 'cb-error'; msg.textContent = WORDS.notSaved(r.data.error); return; }
        took(r.data);
        msg.className = 'cb-ok';
        msg.textContent = WORDS.saved(r.data.file);
        msg.dataset.file = r.data.file;
        ctx.drawPool();
        ctx.recheck();
      }).catch(function (e) {
        msg.className = 'cb-error';
        msg.textContent = WORDS.noAnswer(e.message || e);
      });
    }

    // Whether the pool shows card `c` ("Owned only" keeps owned cards).
    function keep(c) { return !ownedOnly || owned(c.id) > 0; }

    // What a card's row shows of the collection: the count, and − and +
    // while editing.
    function row(c) {
      var n = owned(c.id);
      if (!editing) {
        return state.exists && n ? el('span', { class: 'cb-owned cb-muted', 'data-owned': String(n), text: WORDS.owned(n) }) : null;
      }
      return el('span', { class: 'cb-owned', role: 'group', 'aria-label': WORDS.group(c.name), 'data-owned': String(n) },
        el('button', {
          type: 'button', 'data-own': '-', 'data-key': 'own-|pool|' + c.id, text: '−',
          'aria-label': WORDS.less(c.name), disabled: n === 0 || state.problems.length ? true : null,
          onclick: function () { set(c.id, n - 1); }
        }),
        el('span', { class: 'cb-muted', text: WORDS.owned(n) }),
        el('button', {
          type: 'button', 'data-own': '+', 'data-key': 'own+|pool|' + c.id, text: '+',
          'aria-label': WORDS.more(c.name), disabled: state.problems.length ? true : null,
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
        out.appendChild(el('div', { class: 'cb-error', text: WORDS.unusable(c.file, c.error) }));
      } else if (!c.missing.length) {
        out.appendChild(el('div', { class: 'cb-ok', text: WORDS.complete }));
      } else {
        out.appendChild(el('div', { class: 'cb-missing-title', text: WORDS.missingTitle(c.total, c.missing.length) }));
        out.appendChild(el('ul', {}, c.missing.map(function (m) {
          var name = byId[m.card] ? byId[m.card].name : m.card;
          return el('li', { 'data-card': m.card, 'data-missing': String(m.missing), text: WORDS.missingLine(name, m) });
        })));
        out.appendChild(el('div', { class: 'cb-muted', text: WORDS.note }));
      }
      box.appendChild(out);
    }

    load();
    return { keep: keep, row: row, verdict: verdict };
  }

  window.cartaCollection = { deck: deck };
})();
