// carta's deck builder in the player's language. The server words the
// page's messages with Fluent (src/l10n/<lang>.ftl, ids `ui-…`) in the
// language the page asked for (`?ui=`, else `carta serve --ui-lang`, else
// the game's own) and puts them in the page (#cb-l10n). A script gets one
// with
//
//   var t = window.cartaL10n.t;
//   t('ui-cards', { count: 3 })        // "3 cards", "3 cartas"
//   t('ui-add-to', { card: c.name, zone: z.name })
//
// A new message goes into all three .ftl files, with the same variables
// (a unit test checks). A message that picks a plural form by a count
// comes as Fluent's wording of each form; the browser's Intl.PluralRules
// (the CLDR rules Fluent uses) picks the form for the count.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('cb-l10n').textContent);
  var plural = new Intl.PluralRules(data.lang);
  var SLOT = /\{\$([A-Za-z][\w-]*)\}|\{#\}/g;

  function fill(text, args, count) {
    return text.replace(SLOT, function (all, name) {
      var v = args[name === undefined ? count : name];
      return v === undefined || v === null ? '' : String(v);
    });
  }

  // The message `id` with `args`; the id itself when the page has none.
  function t(id, args) {
    args = args || {};
    var m = data.messages[id];
    if (m === undefined) return id;
    if (typeof m === 'string') return fill(m, args, null);
    var n = Number(args[m.n]);
    var form = m.forms['=' + n] || m.forms[plural.select(n)] || m.forms.other;
    return fill(form, args, m.n);
  }

  // The language the URL asked for, kept by links to other pages.
  var asked = new URLSearchParams(location.search).get('ui');
  function withUi(href) {
    if (!asked) return href;
    var u = new URL(href, location.href);
    u.searchParams.set('ui', asked);
    return u.pathname + u.search + u.hash;
  }

  // What the page adds to its address before switching language (the
  // deck builder: its deck's code), so nothing is lost.
  var keepers = [];
  function keep(fn) { keepers.push(fn); }

  // The switch: a labelled menu in the header; the choice goes into the
  // address (`&ui=`), like the deck, and the page is drawn again in it.
  function drawSwitch() {
    var bar = document.getElementById('cb-bar');
    if (!bar) return;
    var label = document.createElement('label');
    label.className = 'cb-ui';
    label.appendChild(document.createTextNode(t('ui-language') + ' '));
    var select = document.createElement('select');
    select.id = 'cb-ui';
    data.langs.forEach(function (l) {
      var o = document.createElement('option');
      o.value = l.tag;
      o.lang = l.tag;
      o.textContent = l.name;
      if (l.tag === data.lang) o.selected = true;
      select.appendChild(o);
    });
    select.addEventListener('change', function () {
      var u = new URL(location.href);
      u.searchParams.set('ui', select.value);
      keepers.forEach(function (fn) { fn(u.searchParams); });
      location.assign(u.pathname + u.search);
    });
    label.appendChild(select);
    bar.appendChild(label);
  }

  // A language carta does not speak, asked for by the address: said
  // once, at the top of the page, which is in English.
  function sayUnknown() {
    if (!data.unknown) return;
    var note = document.createElement('p');
    note.id = 'cb-ui-unknown';
    note.className = 'cb-muted';
    note.setAttribute('role', 'status');
    note.textContent = t('ui-unknown-language', { asked: data.unknown });
    var main = document.getElementById('cb-main');
    if (main) main.insertBefore(note, main.firstChild);
  }

  drawSwitch();
  sayUnknown();
  window.cartaL10n = { lang: data.lang, t: t, withUi: withUi, keep: keep };
})();
