//! The editable table of a claim form: rows rendered by the server after an error, rows added
//! and deleted in the browser by one shared script, and the running total.

use crate::html::{esc, script_json};
use serde::Serialize;

/// One column of the table. Each cell's control has id and name `{base}-{row number}`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Column {
    pub base: &'static str,
    pub label: &'static str,
    /// Marks a required column in the header.
    pub required: bool,
    pub placeholder: &'static str,
    /// CSS class of the control; `amount` makes it count towards the total.
    pub class: &'static str,
    /// For a select: (value, label) options after a blank 请选择.
    pub options: &'static [(&'static str, &'static str)],
}

impl Column {
    pub const fn text(base: &'static str, label: &'static str, required: bool) -> Self {
        Self {
            base,
            label,
            required,
            placeholder: "",
            class: "",
            options: &[],
        }
    }

    pub const fn placeholder(mut self, placeholder: &'static str) -> Self {
        self.placeholder = placeholder;
        self
    }

    pub const fn class(mut self, class: &'static str) -> Self {
        self.class = class;
        self
    }

    pub const fn options(mut self, options: &'static [(&'static str, &'static str)]) -> Self {
        self.options = options;
        self
    }

    fn control(&self, index: usize, value: &str) -> String {
        let id = format!("{}-{index}", self.base);
        if self.options.is_empty() {
            return format!(
                "<input type=\"text\" id=\"{id}\" name=\"{id}\" value=\"{}\" placeholder=\"{}\" class=\"{}\">",
                esc(value),
                self.placeholder,
                self.class
            );
        }
        let mut options = String::from("<option value=\"\">请选择</option>");
        for (option, label) in self.options {
            let selected = if *option == value { " selected" } else { "" };
            options.push_str(&format!(
                "<option value=\"{option}\"{selected}>{label}</option>"
            ));
        }
        format!(
            "<select id=\"{id}\" name=\"{id}\" class=\"{}\">{options}</select>",
            self.class
        )
    }
}

/// The table, its add button and the running total. `rows` holds each row's values in column
/// order; they are numbered 0, 1, … again, and new rows continue after them.
pub fn table(
    columns: &[Column],
    rows: &[Vec<String>],
    add_label: &str,
    empty_hint: &str,
) -> String {
    let header: String = columns
        .iter()
        .map(|c| {
            let class = if c.required { " class=\"req\"" } else { "" };
            format!("<th><span{class}>{}</span></th>", c.label)
        })
        .collect();
    let body: String = rows
        .iter()
        .enumerate()
        .map(|(i, values)| {
            let cells: String = columns
                .iter()
                .enumerate()
                .map(|(c, column)| {
                    let value = values.get(c).map_or("", String::as_str);
                    format!("<td>{}</td>", column.control(i, value))
                })
                .collect();
            format!(
                "<tr id=\"row-{i}\"><td class=\"seq\">{n}</td>{cells}\
                 <td><button type=\"button\" class=\"danger delete-row\" id=\"delete-row-{i}\">删除</button></td></tr>",
                n = i + 1
            )
        })
        .collect();
    format!(
        "<div class=\"toolbar\">
<button type=\"button\" class=\"plain\" id=\"add-row\">{add_label}</button>
<div class=\"total\">共 <span id=\"row-count\">{count}</span> 行，合计金额：¥<strong id=\"total-amount\">0.00</strong></div>
</div>
<table class=\"rows\" id=\"rows-table\">
<thead><tr><th>序号</th>{header}<th>操作</th></tr></thead>
<tbody id=\"rows\" data-next-index=\"{count}\">{body}</tbody>
</table>
<div class=\"empty-hint\" id=\"empty-hint\">{empty_hint}</div>",
        count = rows.len(),
    )
}

/// The script behind [`table`] for these columns.
pub fn script(columns: &[Column]) -> String {
    format!("var COLUMNS = {};\n{ROWS_SCRIPT}", script_json(&columns))
}

/// Adds rows (same markup as the server's), deletes them, renumbers the 序号 column, keeps the
/// total of the `amount` inputs, and disables 提交 once the form is sent so it is sent once.
const ROWS_SCRIPT: &str = r#"(function () {
  var body = document.getElementById('rows');
  var next = parseInt(body.getAttribute('data-next-index'), 10) || 0;
  function control(col, i) {
    var el;
    if (col.options.length) {
      el = document.createElement('select');
      var blank = document.createElement('option');
      blank.value = '';
      blank.textContent = '请选择';
      el.appendChild(blank);
      col.options.forEach(function (o) {
        var opt = document.createElement('option');
        opt.value = o[0];
        opt.textContent = o[1];
        el.appendChild(opt);
      });
    } else {
      el = document.createElement('input');
      el.type = 'text';
      el.placeholder = col.placeholder;
    }
    el.id = col.base + '-' + i;
    el.name = el.id;
    el.className = col.class;
    return el;
  }
  function total() {
    var cents = 0;
    body.querySelectorAll('input.amount').forEach(function (el) {
      var v = parseFloat(el.value);
      if (!isNaN(v)) { cents += Math.round(v * 100); }
    });
    document.getElementById('total-amount').textContent = (cents / 100).toFixed(2);
  }
  function renumber() {
    var rows = body.querySelectorAll('tr');
    rows.forEach(function (tr, k) { tr.querySelector('.seq').textContent = String(k + 1); });
    document.getElementById('row-count').textContent = String(rows.length);
    document.getElementById('empty-hint').style.display = rows.length ? 'none' : '';
    total();
  }
  document.getElementById('add-row').addEventListener('click', function () {
    var i = next++;
    var tr = document.createElement('tr');
    tr.id = 'row-' + i;
    var seq = document.createElement('td');
    seq.className = 'seq';
    tr.appendChild(seq);
    COLUMNS.forEach(function (col) {
      var td = document.createElement('td');
      td.appendChild(control(col, i));
      tr.appendChild(td);
    });
    var td = document.createElement('td');
    var del = document.createElement('button');
    del.type = 'button';
    del.className = 'danger delete-row';
    del.id = 'delete-row-' + i;
    del.textContent = '删除';
    td.appendChild(del);
    tr.appendChild(td);
    body.appendChild(tr);
    renumber();
  });
  body.addEventListener('click', function (e) {
    var t = e.target;
    if (t.classList && t.classList.contains('delete-row')) {
      var tr = t.closest('tr');
      if (tr) { tr.remove(); }
      renumber();
    }
  });
  body.addEventListener('input', total);
  document.getElementById('claim-form').addEventListener('submit', function () {
    var b = document.getElementById('submit-claim');
    b.disabled = true;
    b.textContent = '提交中…';
  });
  renumber();
})();"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_rows_escape_values_and_select_options() {
        const KINDS: &[(&str, &str)] = &[("train", "火车票"), ("hotel", "住宿")];
        let columns = [
            Column::text("invoice-number", "发票号码", true),
            Column::text("expense-type", "类型", true).options(KINDS),
        ];
        let html = table(
            &columns,
            &[vec!["\"><script>".to_owned(), "hotel".to_owned()]],
            "添加",
            "空",
        );
        assert!(html.contains(
            "id=\"invoice-number-0\" name=\"invoice-number-0\" value=\"&quot;&gt;&lt;script&gt;\""
        ));
        assert!(html.contains("<option value=\"hotel\" selected>住宿</option>"));
        assert!(html.contains("data-next-index=\"1\""));
        assert!(html.contains("id=\"delete-row-0\""));
    }
}
