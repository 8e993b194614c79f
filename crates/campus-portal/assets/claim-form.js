// A claim form: the department list loaded by XHR, invoice rows added from the row template,
// the running total, and the submission (confirm, then a multipart fetch; refusals alerted,
// success replacing the form with the claim number).
(function () {
  'use strict';
  var form = document.getElementById('claimForm');
  if (!form) {
    return;
  }
  var tbody = document.querySelector('#invoiceTable tbody');
  var template = document.getElementById('rowTemplate');
  var totalCell = document.getElementById('total');
  var submitBtn = document.getElementById('submitBtn');

  function option(value, text) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    return o;
  }

  function loadDepartments() {
    var select = document.getElementById('dept');
    fetch('/api/departments', { credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (body.code !== 0) {
          alert(body.msg || '部门加载失败');
          return;
        }
        select.appendChild(option('', '--请选择--'));
        body.data.forEach(function (d) { select.appendChild(option(d.code, d.name)); });
      })
      .catch(function () { alert('部门加载失败，请刷新页面重试'); });
  }

  function renumber() {
    Array.prototype.forEach.call(tbody.rows, function (row, i) {
      row.querySelector('.seq').textContent = String(i + 1);
    });
  }

  function updateTotal() {
    var fen = 0;
    tbody.querySelectorAll('input[name="amount[]"]').forEach(function (input) {
      var value = parseFloat(input.value);
      if (!isNaN(value)) {
        fen += Math.round(value * 100);
      }
    });
    totalCell.textContent = (fen / 100).toFixed(2);
  }

  document.getElementById('addRow').addEventListener('click', function () {
    tbody.appendChild(template.content.firstElementChild.cloneNode(true));
    renumber();
  });

  tbody.addEventListener('click', function (e) {
    if (e.target.classList.contains('del-row')) {
      tbody.removeChild(e.target.closest('tr'));
      renumber();
      updateTotal();
    }
  });

  tbody.addEventListener('input', function (e) {
    if (e.target.name === 'amount[]') {
      updateTotal();
    }
  });

  function restore() {
    submitBtn.disabled = false;
    submitBtn.textContent = '提交';
  }

  function succeed(message) {
    var result = document.createElement('div');
    result.className = 'result';
    result.textContent = message;
    var again = document.createElement('a');
    again.href = window.location.pathname;
    again.className = 'again';
    again.textContent = '继续填报';
    form.parentNode.insertBefore(again, form.nextSibling);
    form.parentNode.replaceChild(result, form);
  }

  submitBtn.addEventListener('click', function () {
    if (!confirm('确认提交该报销单吗？')) {
      return;
    }
    submitBtn.disabled = true;
    submitBtn.textContent = '提交中…';
    fetch(form.getAttribute('data-submit'), {
      method: 'POST',
      body: new FormData(form),
      credentials: 'same-origin'
    })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (body.success) {
          succeed(body.message);
        } else {
          alert(body.message);
          restore();
        }
      })
      .catch(function () {
        alert('网络异常，请稍后重试');
        restore();
      });
  });

  loadDepartments();
})();
