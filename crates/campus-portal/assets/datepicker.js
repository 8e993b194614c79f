// A small calendar for the read-only date inputs (class "date-input"). A click on such an input
// opens the calendar under it; a click on a day writes YYYY-MM-DD into the input and fires
// "input" and "change", as a choice made by hand does. The inputs are read-only, so typing into
// them does nothing: the calendar is the only way a person sets them.
(function () {
  'use strict';
  var WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];
  var panel = null;
  var target = null;
  var shown = null;

  function pad(n) {
    return (n < 10 ? '0' : '') + n;
  }

  function format(year, month, day) {
    return year + '-' + pad(month + 1) + '-' + pad(day);
  }

  function parse(value) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value || '');
    return m ? { year: Number(m[1]), month: Number(m[2]) - 1 } : null;
  }

  function close() {
    if (panel && panel.parentNode) {
      panel.parentNode.removeChild(panel);
    }
    panel = null;
    target = null;
  }

  function write(value) {
    var input = target;
    close();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }

  function button(text, className, onClick) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = className;
    b.textContent = text;
    b.addEventListener('click', function (e) {
      e.stopPropagation();
      onClick();
    });
    return b;
  }

  function moveMonth(delta) {
    var m = shown.month + delta;
    shown.year += Math.floor(m / 12);
    shown.month = ((m % 12) + 12) % 12;
    render();
  }

  function header() {
    var head = document.createElement('div');
    head.className = 'cal-head';
    head.appendChild(button('«', 'cal-prev-year', function () { shown.year -= 1; render(); }));
    head.appendChild(button('‹', 'cal-prev-month', function () { moveMonth(-1); }));
    var title = document.createElement('span');
    title.className = 'cal-title';
    title.textContent = shown.year + '年' + (shown.month + 1) + '月';
    head.appendChild(title);
    head.appendChild(button('›', 'cal-next-month', function () { moveMonth(1); }));
    head.appendChild(button('»', 'cal-next-year', function () { shown.year += 1; render(); }));
    return head;
  }

  function days() {
    var table = document.createElement('table');
    table.className = 'cal-days';
    var row = table.insertRow();
    WEEKDAYS.forEach(function (w) {
      var th = document.createElement('th');
      th.textContent = w;
      row.appendChild(th);
    });
    var first = new Date(shown.year, shown.month, 1).getDay();
    var count = new Date(shown.year, shown.month + 1, 0).getDate();
    row = table.insertRow();
    for (var i = 0; i < first; i += 1) {
      row.insertCell();
    }
    for (var day = 1; day <= count; day += 1) {
      if (row.cells.length === 7) {
        row = table.insertRow();
      }
      var cell = row.insertCell();
      cell.className = 'cal-day';
      cell.textContent = String(day);
      cell.setAttribute('data-date', format(shown.year, shown.month, day));
      cell.addEventListener('click', function (e) {
        e.stopPropagation();
        write(this.getAttribute('data-date'));
      });
    }
    return table;
  }

  function footer() {
    var foot = document.createElement('div');
    foot.className = 'cal-foot';
    foot.appendChild(button('今天', 'cal-today', function () {
      var now = new Date();
      write(format(now.getFullYear(), now.getMonth(), now.getDate()));
    }));
    foot.appendChild(button('清空', 'cal-clear', function () { write(''); }));
    foot.appendChild(button('关闭', 'cal-close', close));
    return foot;
  }

  function render() {
    while (panel.firstChild) {
      panel.removeChild(panel.firstChild);
    }
    panel.appendChild(header());
    panel.appendChild(days());
    panel.appendChild(footer());
  }

  function open(input) {
    close();
    target = input;
    var now = new Date();
    shown = parse(input.value) || { year: now.getFullYear(), month: now.getMonth() };
    panel = document.createElement('div');
    panel.className = 'calendar';
    var rect = input.getBoundingClientRect();
    panel.style.left = (rect.left + window.scrollX) + 'px';
    panel.style.top = (rect.bottom + window.scrollY + 2) + 'px';
    panel.addEventListener('click', function (e) { e.stopPropagation(); });
    document.body.appendChild(panel);
    render();
  }

  // Delegated, so rows added later get the calendar too.
  document.addEventListener('click', function (e) {
    var el = e.target;
    if (el && el.classList && el.classList.contains('date-input')) {
      open(el);
      return;
    }
    close();
  });
})();
