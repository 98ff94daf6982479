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
})();
